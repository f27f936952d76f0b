"""views/maps/draw.py draws shapes as geopandas' plot draws them (the golden: geopandas' own paths and colours on
the same axes), without its per-call overhead; and a map's axes make no ticks."""

from __future__ import annotations

import numpy as np
import pytest

shapely = pytest.importorskip("shapely")
gpd = pytest.importorskip("geopandas")

from matplotlib.figure import Figure  # noqa: E402

from reservation.views.maps import draw  # noqa: E402


def _shapes():
    from shapely.geometry import GeometryCollection, LineString, MultiPolygon, Polygon, box
    holed = Polygon([(0, 0), (4, 0), (4, 4), (0, 4)], [[(1, 1), (1, 2), (2, 2), (2, 1)]])
    multi = MultiPolygon([box(5, 5, 6, 6), box(7, 7, 8, 9)])
    return gpd.GeoSeries([holed, multi, Polygon(), GeometryCollection([box(10, 0, 11, 1), box(12, 0, 13, 2)]),
                          box(20, 20, 21, 22).buffer(0.5)], crs=4326), LineString


def _paths(coll):
    return [(np.round(p.vertices, 9).tolist(), None if p.codes is None else p.codes.tolist()) for p in coll.get_paths()]


def test_polygons_are_geopandas_paths_and_colours():
    g, _ = _shapes()
    colours = ["#ff0000", "#00ff00", "#0000ff", "#123456", "#abcdef"]
    theirs = Figure().add_subplot()
    g.plot(ax=theirs, color=colours, edgecolor="#ffffff", linewidth=0.6)
    ours = Figure().add_subplot()
    mine = draw.shapes(ours, g, color=colours, edgecolor="#ffffff", linewidth=0.6)
    geo = theirs.collections[0]
    assert _paths(mine) == _paths(geo)
    assert np.allclose(mine.get_facecolors(), geo.get_facecolors())
    assert np.allclose(mine.get_edgecolors(), geo.get_edgecolors())
    assert np.allclose(mine.get_linewidths(), geo.get_linewidths())
    assert draw.shapes(Figure().add_subplot(), g, paths=draw.shape_paths(g), color=colours).get_paths() is not None


def test_lines_are_geopandas_segments():
    g, LineString = _shapes()
    lines = g.boundary
    theirs, ours = Figure().add_subplot(), Figure().add_subplot()
    lines.plot(ax=theirs, color="#303030", linewidth=1.1)
    mine = draw.shapes(ours, lines, color="#303030", linewidth=1.1)
    a = [np.round(s, 9).tolist() for s in mine.get_segments()]
    b = [np.round(s, 9).tolist() for s in theirs.collections[0].get_segments()]
    assert a == b and np.allclose(mine.get_colors(), theirs.collections[0].get_colors())


def test_nothing_to_draw_draws_nothing():
    from shapely.geometry import Point, Polygon
    ax = Figure().add_subplot()
    assert draw.shapes(ax, [Polygon()]) is None and draw.shapes(ax, [Point(0, 0)]) is None
    assert len(ax.collections) == 0


def test_a_map_axes_makes_no_tick_until_asked():
    fig = Figure()
    ax = draw.panel_axes(fig, (0.1, 0.1, 0.8, 0.8))
    assert not ax.axison
    assert "majorTicks" not in vars(ax.xaxis) and "majorTicks" not in vars(ax.yaxis)
    fig.canvas.draw() if hasattr(fig.canvas, "draw") else None
    assert len(ax.xaxis.get_major_ticks()) >= 1             # asked for: made as matplotlib makes them
