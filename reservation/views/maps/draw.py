"""Shapes onto a static map: polygons and lines of a GeoSeries (or GeoDataFrame, or array of shapely geometries) as
one matplotlib collection, drawn as geopandas' ``plot(ax=...)`` draws them (each (multi)polygon one compound path
of its normalised rings; lines cut into their parts), without what geopandas does around it on every call: a new
collection class defined (matplotlib then builds that class's property documentation: a tenth of a map's time),
pandas Series made per call, the axes' aspect set again from each layer. Every map of this package sets its aspect
and view itself.

:func:`shape_paths` makes the paths once, for a map that draws the same shapes on several panels."""

from __future__ import annotations

import numpy as np

__all__ = ["shapes", "shape_paths", "panel_axes"]

#: shapely type ids: (multi)polygons; (multi)lines and rings; collections.
_POLYGONAL = (3, 6)
_LINEAR = (1, 2, 5)
_COLLECTION = 7


def _geometries(geoms) -> tuple[np.ndarray, np.ndarray]:
    """The shapely geometries of ``geoms`` (a GeoDataFrame's geometry column, a GeoSeries or a sequence) as
    geopandas prepares them for drawing: normalised (so that holes are drawn as holes, in a canonical order),
    geometry collections split into their members (each member's index repeated), missing and empty ones dropped:
    ``(geometries, index into geoms)``."""
    import shapely
    if hasattr(geoms, "geometry"):
        geoms = geoms.geometry
    arr = np.asarray(getattr(geoms, "values", geoms), dtype=object)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    arr = shapely.normalize(arr)
    index = np.arange(len(arr))
    types = shapely.get_type_id(arr)
    if (types == _COLLECTION).any():                          # GeometryCollection: its members, in place
        parts, idx = shapely.get_parts(arr, return_index=True)
        keep = types == _COLLECTION
        arr = np.concatenate([arr[~keep], parts[keep[idx]]])
        index = np.concatenate([index[~keep], idx[keep[idx]]])
        order = np.argsort(index, kind="stable")
        arr, index = arr[order], index[order]
    ok = ~(shapely.is_missing(arr) | shapely.is_empty(arr))
    return arr[ok], index[ok]


def shape_paths(geoms) -> list:
    """One matplotlib Path per polygonal geometry of ``geoms`` (its rings, each closed, as one compound path), as
    geopandas draws a (multi)polygon. Other geometries are left out."""
    import shapely
    from matplotlib.path import Path
    arr, _ = _geometries(geoms)
    arr = arr[np.isin(shapely.get_type_id(arr), _POLYGONAL)]
    if not len(arr):
        return []
    parts, part_of = shapely.get_parts(arr, return_index=True)
    rings, ring_of = shapely.get_rings(parts, return_index=True)
    coords, coord_of = shapely.get_coordinates(rings, return_index=True)
    codes = np.full(len(coords), Path.LINETO, dtype=Path.code_type)
    starts = np.flatnonzero(np.r_[True, coord_of[1:] != coord_of[:-1]])
    ends = np.r_[starts[1:], len(coords)] - 1
    codes[starts] = Path.MOVETO
    codes[ends] = Path.CLOSEPOLY
    geom_of = part_of[ring_of[coord_of]]
    bounds = np.searchsorted(geom_of, np.arange(len(arr) + 1))
    return [Path(coords[a:b], codes[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


def _per_shape(value, index: np.ndarray):
    """A style value given per geometry, taken for each drawn shape (``index``); a single value as it is."""
    from matplotlib.colors import is_color_like
    if value is None or isinstance(value, str) or is_color_like(value) or np.ndim(value) == 0:
        return value
    return [value[i] for i in index]


def shapes(ax, geoms, *, color=None, paths: list | None = None, autoscale: bool = True, **style):
    """Draw the polygons or the lines of ``geoms`` on ``ax`` as one collection (returned; None when there is
    nothing to draw). ``color``: as geopandas reads it, the fill and the edge of polygons (unless ``edgecolor``
    is given) and the colour of lines; a list gives one per geometry. ``style``: ``facecolor, edgecolor,
    linewidth, hatch, hatch_linewidth, zorder``... (matplotlib's collection properties). ``paths``: the polygons'
    paths made before (:func:`shape_paths` of the same ``geoms``). ``autoscale``: the axes' limits follow the data
    (as geopandas does; a map that sets its view after drawing may skip it)."""
    import shapely
    from matplotlib.collections import LineCollection, PathCollection
    arr, index = _geometries(geoms)
    types = shapely.get_type_id(arr)
    polygonal = np.isin(types, _POLYGONAL)
    if polygonal.any():
        if paths is None:
            paths = shape_paths(arr[polygonal])
        index = index[polygonal]
        if color is not None:
            style["facecolor"] = color
            style.setdefault("edgecolor", color)
        style = {k: _per_shape(v, index) for k, v in style.items()}
        coll = PathCollection(paths, **style)
    else:
        linear = np.isin(types, _LINEAR)
        if not linear.any():
            return None
        parts, part_of = shapely.get_parts(arr[linear], return_index=True)
        index = index[linear][part_of]
        if color is not None:
            style["color"] = color
        style = {k: _per_shape(v, index) for k, v in style.items()}
        coll = LineCollection([shapely.get_coordinates(p) for p in parts], **style)
    ax.add_collection(coll, autolim=True)
    if autoscale:
        ax.autoscale_view()
    return coll


def panel_axes(fig, rect):
    """An axes of ``fig`` at ``rect`` (figure fractions) for a map: its axis switched off, and no tick ever made
    (:class:`MapAxes`)."""
    ax = fig.add_axes(rect, axes_class=_map_axes_class())
    ax.set_axis_off()
    return ax


_MAP_AXES = None


def _map_axes_class():
    """:class:`MapAxes`, made on first use (matplotlib is imported only by what draws)."""
    global _MAP_AXES
    if _MAP_AXES is None:
        from matplotlib import artist, axis
        from matplotlib.axes import Axes

        class _NoTicks:
            """An axis whose ticks are made only once something asks for them: a new axes sets their clip path
            and grid, which made five ticks per axis (a third of a map's axes' cost) that a map, its axis off,
            never draws."""

            def _ticks_made(self) -> bool:
                return "majorTicks" in vars(self) or "minorTicks" in vars(self)

            def set_clip_path(self, path, transform=None):
                if self._ticks_made():
                    return super().set_clip_path(path, transform)
                artist.Artist.set_clip_path(self, path, transform)

            def set_tick_params(self, which="major", reset=False, **kwargs):
                if self._ticks_made():
                    return super().set_tick_params(which, reset, **kwargs)

        class _XAxis(_NoTicks, axis.XAxis):
            pass

        class _YAxis(_NoTicks, axis.YAxis):
            pass

        class MapAxes(Axes):
            """The axes of a map: as matplotlib's, but its axes make no ticks until one is asked for."""

            name = "reservation_map"

            def _init_axis(self):
                self.xaxis = _XAxis(self, clear=False)
                self.spines.bottom.register_axis(self.xaxis)
                self.spines.top.register_axis(self.xaxis)
                self.yaxis = _YAxis(self, clear=False)
                self.spines.left.register_axis(self.yaxis)
                self.spines.right.register_axis(self.yaxis)

        _MAP_AXES = MapAxes
    return _MAP_AXES
