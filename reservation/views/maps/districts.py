"""Maps of an allotment whose units are districts (zp-chair): an interactive, offline plotly map
(:func:`choropleth`) and a static matplotlib map (:func:`static_figure`, :func:`static_map`: PNG/SVG, or kaleido)."""

from __future__ import annotations

import html
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ...law.categories import CODES, COLOURS, label
from ...law.words import check_lang, word
from ..places import division_names, unit_names
from .certainty import (PALE_OPACITY, overlay_hatches, pale, undetermined_counts, status_handles, status_label,
                        status_note, status_of, status_traces)
from .draw import shapes
from .boundaries import (DEFAULT_SIMPLIFY_TOLERANCE, _district_boundaries_cached, _division_boundaries_cached,
                         join_allotment, state_outline)
from .style import (COLOUR_ABSENT, COLOUR_OUTSIDE, EDGE_ABSENT, EDGE_OUTSIDE, LABEL_BOX, center, chromium_path,
                    clip_view, division_column, division_outline, fit_zoom, font_rc, geojson, hover_text, hover_wrap,
                    in_box, map_axes, map_title, not_drawn_note, present_codes, save_figure, source_note,
                    system_has_devanagari, view_bounds, visible_box)

__all__ = ["choropleth", "static_figure", "static_figures", "static_map", "StaticMapResult", "locator", "CONTEXT_TOLERANCE",
           "LOCATOR_TOLERANCE"]

#: Simplification (degrees) of the districts drawn only as context around a division (about 3 km: they are
#: white, and the dark division line covers where their edges meet the division's own).
CONTEXT_TOLERANCE = 0.03
#: Simplification (degrees) of the division outlines in the small locator map of the State.
LOCATOR_TOLERANCE = 0.05


def choropleth(allotment: pd.DataFrame, title: str | None = None, lang: str = "en", *,
               simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, height: int = 650,
               width: int | None = None, level: str | None = None, size_column: str = "pop_total", division=None):
    """An interactive map of an allotment: a plotly Figure that needs no network.

    Districts are filled with their category's colour (:data:`reservation.law.categories.COLOURS`), legend
    entries labelled with :func:`reservation.law.categories.label` in ``lang`` ("en" or "hi") and ordered as in
    the GO. Hovering shows name, division, category and reason. Division boundaries are drawn as dark lines;
    districts absent from the allotment are white with a grey edge. Units drawn as points (see
    :func:`join_allotment`) are circles in their category's colour, sized by ``size_column`` when present.
    Units with no shape are counted in a note under the map; get them with :func:`join_allotment`.

    ``division`` (a name or a list): the map zooms on it and colours its districts; the districts around it are
    drawn white as context ("Outside the division", with coarser outlines: :data:`CONTEXT_TOLERANCE`) and only as
    far as the map can show them, which keeps a division's page small.

    Uses ``Choroplethmap`` on the ``white-bg`` style (MapLibre, no tiles) and no text-mode trace.
    """
    import plotly.graph_objects as go

    lang = check_lang(lang)
    tol = float(simplify_tolerance)
    names = division_names(division)
    drawn, not_drawn, codes_all = _choropleth_rows(allotment, names, tol, level)
    polys = drawn[drawn["drawn_as"] == "polygon"].copy()
    points = drawn[drawn["drawn_as"] == "point"].copy()
    codes_present = present_codes(drawn)
    labels = {c: label(c, lang) for c in CODES}
    for df in (polys, points):
        _hover_columns(df, lang, labels)

    t = {k: word(f"map.{k}", lang) for k in ("division", "category", "reason", "absent", "outside",
                                              "division_line")}
    hover = (f"<b>%{{customdata[0]}}</b><br>{t['division']}: %{{customdata[1]}}<br>"
             f"{t['category']}: %{{customdata[2]}}<br>{t['reason']}: %{{customdata[3]}}<extra></extra>")
    b = _district_boundaries_cached(tol)
    fig = go.Figure()
    notes = [n for n in (not_drawn_note(not_drawn, lang), status_note(drawn, lang), source_note(lang, tol)) if n]
    bounds = view_bounds(division)
    top, bottom = (60 if title else 10), 20 + 18 * len(notes)
    map_w = 700 if width is None else max(width - 20 - 260, 200)   # the legend sits right of the map
    zoom = fit_zoom(bounds, map_w, height - top - bottom)
    box = visible_box(division, map_w, height - top - bottom, zoom, extra=0.5)
    _context_traces(fig, polys, b, box, names, codes_all, t, lang)
    _category_traces(fig, polys, b, codes_present, labels, hover)
    _point_traces(fig, points, polys, codes_present, labels, hover, size_column)
    if status_of(drawn) is not None:
        at = [g.representative_point() for g in drawn.geometry]
        status_traces(fig, drawn, [p.x for p in at], [p.y for p in at], hover_text(unit_names(drawn, lang)), lang)
    lons, lats = division_outline(tol, box)
    fig.add_trace(go.Scattermap(lon=lons, lat=lats, mode="lines", line={"color": "#303030", "width": 1.6},
                                name=t["division_line"], hoverinfo="skip", showlegend=True))

    fig.update_layout(
        title={"text": title} if title else None, height=height, width=width,
        map={"style": "white-bg", "center": center(bounds), "zoom": zoom},
        legend={"title": {"text": word("map.category", lang)}, "itemsizing": "constant",
                "bgcolor": "rgba(255,255,255,0.85)"},
        margin={"l": 10, "r": 10, "t": top, "b": bottom},
        annotations=[{"text": n, "xref": "paper", "yref": "paper", "x": 0, "y": -0.01 - 0.035 * i,
                      "yanchor": "top", "xanchor": "left", "showarrow": False, "font": {"size": 11}}
                     for i, n in enumerate(notes)],
    )
    return fig


def _choropleth_rows(allotment: pd.DataFrame, names, tol: float, level):
    """The rows :func:`choropleth` draws, as ``(drawn, not_drawn, codes_all)``: the allotment joined to the shapes
    (only the division's rows for a division) and the codes of every district the whole allotment draws as a
    polygon (those of a division's neighbours are drawn as context)."""
    drawn, not_drawn = join_allotment(allotment, simplify_tolerance=tol, level=level)
    codes_all = set(pd.to_numeric(drawn.loc[drawn["drawn_as"] == "polygon", "unit_code"]).astype(int))
    if names is not None and "division" in drawn.columns:
        drawn = drawn[drawn["division"].isin(names)]
        if "division" in not_drawn.columns:
            not_drawn = not_drawn[not_drawn["division"].isin(names)]
    return drawn, not_drawn, codes_all


def _hover_columns(df: pd.DataFrame, lang: str, labels: dict) -> None:
    """Write into ``df`` the columns its hover shows (name, division, category, reason: escaped, in ``lang``) and
    its trace's location id (``_id``, the unit code as text)."""
    df["_name"] = hover_text(unit_names(df, lang))
    df["_division"] = hover_text(division_column(df, lang))
    df["_category"] = df["category"].astype(str).map(labels)
    st = status_of(df)
    if st is not None:                      # "OBC (depends on unpublished OBC figures)"
        df["_category"] = [c if k == "determined" else f"{c} ({html.escape(status_label(k, lang))})"
                           for c, k in zip(df["_category"], st)]
    df["_reason"] = df["reason"].astype(str).map(hover_wrap) if "reason" in df.columns else ""
    df["_id"] = pd.to_numeric(df["unit_code"]).astype(int).astype(str)


def _context_traces(fig, polys: pd.DataFrame, b, box, names, codes_all: set, t: dict, lang: str) -> None:
    """Add to ``fig`` the white districts that are not coloured: for a division, the neighbours in view ("Outside
    the division", coarse outlines) and, for the State or a division, the districts in no row of the allotment
    ("Not in this allotment")."""
    import plotly.graph_objects as go

    mine = set(pd.to_numeric(polys["unit_code"]).astype(int))
    context = in_box(_district_boundaries_cached(CONTEXT_TOLERANCE), box) if names is not None else b.iloc[:0]
    context = context[~context["unit_code"].isin(mine)]
    for kind, rows in (("outside", context[context["unit_code"].isin(codes_all)]),
                       ("absent", (context if names is not None else b)[
                           ~(context if names is not None else b)["unit_code"].isin(codes_all | mine)])):
        if not len(rows):
            continue
        fig.add_trace(go.Choroplethmap(
            geojson=geojson(rows), locations=rows["unit_code"].astype(str).tolist(),
            z=[0] * len(rows), colorscale=[[0, COLOUR_ABSENT], [1, COLOUR_ABSENT]], showscale=False,
            marker={"line": {"color": EDGE_OUTSIDE if kind == "outside" else EDGE_ABSENT, "width": 0.6}},
            name=t[kind], showlegend=True,
            customdata=np.column_stack([hover_text(unit_names(rows, lang)),
                                        hover_text(division_column(rows, lang))]).tolist(),
            hovertemplate=f"<b>%{{customdata[0]}}</b><br>{t['division']}: %{{customdata[1]}}<br>"
                          f"{t[kind]}<extra></extra>"))


def _category_traces(fig, polys: pd.DataFrame, b, codes_present: list, labels: dict, hover: str) -> None:
    """Add to ``fig`` one trace per category present, in the GO's order: its districts filled with its colour,
    each trace carrying only its own districts' GeoJSON."""
    import plotly.graph_objects as go

    for c in codes_present:
        p = polys[polys["category"].astype(str) == c]
        if not len(p):
            continue
        codes_c = pd.to_numeric(p["unit_code"]).astype(int)
        # Each trace carries only its own districts' GeoJSON (plotly.express would copy all into each).
        fig.add_trace(go.Choroplethmap(
            geojson=geojson(b.set_index("unit_code").loc[codes_c].reset_index()), locations=p["_id"].tolist(),
            z=[1] * len(p), colorscale=[[0, COLOURS[c]], [1, COLOURS[c]]], showscale=False,
            marker={"line": {"color": "#ffffff", "width": 0.6}, "opacity": _opacity(p)},
            name=labels[c], legendgroup=labels[c], showlegend=True,
            customdata=np.column_stack([p["_name"], p["_division"], p["_category"], p["_reason"]]).tolist(),
            hovertemplate=hover))


def _point_traces(fig, points: pd.DataFrame, polys: pd.DataFrame, codes_present: list, labels: dict, hover: str,
                  size_column: str) -> None:
    """Add to ``fig`` the units drawn as points: circles in their category's colour, one trace per category, sized
    by ``size_column`` when it has a positive value; a category's legend entry is shown only once."""
    import plotly.graph_objects as go

    if not len(points):
        return
    size = None
    if size_column in points.columns:
        v = pd.to_numeric(points[size_column], errors="coerce")
        if v.notna().any() and v.max() > 0:
            size = (6 + 24 * np.sqrt(v.fillna(0) / v.max())).round(1).tolist()
    polys_cats = set(polys["category"].astype(str))
    opacity = np.where(_undetermined_mask(points), PALE_OPACITY, 0.9)
    for c in codes_present:
        sel = points["category"].astype(str) == c
        if not sel.any():
            continue
        p = points[sel]
        fig.add_trace(go.Scattermap(
            lon=[g.x for g in p.geometry], lat=[g.y for g in p.geometry], mode="markers",
            marker={"color": COLOURS[c], "size": [size[i] for i in np.flatnonzero(sel)] if size else 9,
                    "opacity": opacity[sel].tolist() if status_of(points) is not None else 0.9},
            name=labels[c], legendgroup=labels[c], showlegend=c not in polys_cats,
            customdata=np.column_stack([p["_name"], p["_division"], p["_category"], p["_reason"]]).tolist(),
            hovertemplate=hover))


def _undetermined_mask(df: pd.DataFrame) -> np.ndarray:
    st = status_of(df)
    return np.zeros(len(df), dtype=bool) if st is None else (st != "determined").to_numpy()


def _opacity(p: pd.DataFrame):
    """A category trace's fill opacity: 1, or per district :data:`PALE_OPACITY` where not determined."""
    st = status_of(p)
    if st is None:
        return 1.0
    return [PALE_OPACITY if k != "determined" else 1.0 for k in st]


def _label(ax, text, xy, size, colour, style="normal"):
    return ax.annotate(text, xy, ha="center", va="center", fontsize=size, color=colour, fontstyle=style, zorder=6,
                annotation_clip=True, bbox=LABEL_BOX)


def locator(ax, division, lang: str | None = "en") -> None:
    """A small map of the State on ``ax`` with the division(s) filled dark: where the zoomed map is; titled in
    ``lang`` (None: no title)."""
    names = division_names(division) or []
    divs = _division_boundaries_cached(LOCATOR_TOLERANCE)                     # a small map: coarse outlines
    ax.set_axis_off()
    minx, miny, maxx, maxy = divs.total_bounds
    ax.set_aspect(1 / np.cos(np.radians((miny + maxy) / 2)))
    shapes(ax, divs, facecolor="#e8e8e8", edgecolor="#ffffff", linewidth=0.4)
    sel = divs[divs["division"].isin(names)]
    if len(sel):
        shapes(ax, sel, facecolor="#b2182b", edgecolor="#b2182b", linewidth=0.6)
    shapes(ax, [state_outline(LOCATOR_TOLERANCE).boundary], color="#404040", linewidth=0.6)
    if lang is not None:
        map_title(ax.figure, ax, word("map.state", lang), size=8, pad=0.004, colour="#404040")


def static_figure(allotment: pd.DataFrame, title: str | None = None, lang: str = "en", *,
                  simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, level: str | None = None,
                  district_labels: bool | None = None, figsize: tuple[float, float] | None = None,
                  size_column: str = "pop_total", division=None):
    """The static map as a matplotlib Figure (no pyplot, no browser): what :func:`static_map` saves.

    Same content as :func:`choropleth`: category colours, legend with category labels in ``lang`` and the
    count of districts per category, division outlines, a note on units not drawn and on the boundary source.

    ``division`` (a name or a list): the map is zoomed on it, its districts are coloured and named (in ``lang``),
    the neighbouring districts are drawn pale as context ("Outside the division", named in grey), and a small
    locator map of the State beside the legend shows where the division lies. Districts that are in no row of the
    allotment are white and hatched ("Not in this allotment"), so "unreserved" (its own grey fill) is never
    confused with them. ``district_labels`` (default: on for a division, off for the State) names every district.
    """
    return next(static_figures(allotment, title, (lang,), simplify_tolerance=simplify_tolerance, level=level,
                               district_labels=district_labels, figsize=figsize, size_column=size_column,
                               division=division))[1]


@dataclass(frozen=True)
class _Layers:
    """What a static district map draws: the rows on it (only the division's for a division) and those not drawn,
    split into polygons and points; the districts in view (``shown``), the neighbours drawn as context and the
    districts in no row of the allotment (``absent``); the division's ``bounds`` and the padded ``view``."""

    drawn: pd.DataFrame
    not_drawn: pd.DataFrame
    polys: pd.DataFrame
    points: pd.DataFrame
    shown: pd.DataFrame
    context: pd.DataFrame
    absent: pd.DataFrame
    bounds: tuple
    view: tuple


def static_figures(allotment: pd.DataFrame, title: str | dict | None = None, langs=("en", "hi"), *,
                   simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, level: str | None = None,
                   district_labels: bool | None = None, figsize: tuple[float, float] | None = None,
                   size_column: str = "pop_total", division=None):
    """:func:`static_figure` in each language of ``langs``, as ``(lang, Figure)`` pairs made from one figure: the
    shapes, the locator and the axes are drawn once (half the time of two figures), and the words of a language
    (title, district names, legend, notes, the locator's title) are put on it when its pair is asked for, in place
    of those of the language before. So each figure must be saved before the next pair is taken. ``title``: text,
    or ``{lang: text}``."""
    import matplotlib

    langs = [check_lang(x) for x in langs]
    tol = float(simplify_tolerance)
    names = division_names(division)
    layers = _static_layers(allotment, division, names, tol, level)
    if district_labels is None:
        district_labels = names is not None
    if figsize is None:
        figsize = (12.5, 9.0) if names is not None else (11.0, 9.0)
    rc = font_rc(langs[0]) if langs else {}
    with matplotlib.rc_context(rc):
        fig, ax, anchor, loc = _static_shapes(layers, names, tol, figsize, size_column)

    big = names is not None
    shown = layers.shown
    mine = set(shown.loc[shown["division"].isin(names), "unit_code"]) if big else set(shown["unit_code"])
    # the division's districts are named (neighbours: on the locator)
    label_at = [(code, g.representative_point()) for code, g in zip(shown["unit_code"], shown.geometry)
                if code in mine] if district_labels else []
    titles = title if isinstance(title, dict) else dict.fromkeys(langs, title)
    for lang in langs:
        rc = font_rc(lang)
        with matplotlib.rc_context(rc):
            added = _static_words(fig, ax, anchor, loc, layers, lang, titles.get(lang), label_at, big, tol)
        fig._reservation_rc = rc
        yield lang, fig
        for artist in added:                     # the next language's words take their place
            artist.remove()


def _static_layers(allotment: pd.DataFrame, division, names, tol: float, level) -> _Layers:
    """The :class:`_Layers` of a static district map of ``allotment`` (of the division ``names``, or the State for
    None): the allotment joined to the shapes, the division's rows kept, and the districts in view cut to it."""
    drawn, not_drawn = join_allotment(allotment, simplify_tolerance=tol, level=level)
    b = _district_boundaries_cached(tol)
    if names is not None:                        # the division's rows are the map; the rest is context
        inside = drawn["division"].isin(names) if "division" in drawn.columns else \
            pd.Series(True, index=drawn.index)
        context_codes = set(pd.to_numeric(drawn.loc[~inside & (drawn["drawn_as"] == "polygon"), "unit_code"]))
        drawn = drawn[inside]
        if "division" in not_drawn.columns:
            not_drawn = not_drawn[not_drawn["division"].isin(names)]
    else:
        context_codes = set()
    polys = drawn[drawn["drawn_as"] == "polygon"]
    points = drawn[drawn["drawn_as"] == "point"]

    bounds = view_bounds(division)
    pad = 0.05 * max(bounds[2] - bounds[0], bounds[3] - bounds[1])
    view = (bounds[0] - pad, bounds[1] - pad, bounds[2] + pad, bounds[3] + pad)
    shown = clip_view(b, view) if names is not None else b
    poly_codes = set(pd.to_numeric(polys["unit_code"]).astype(int))
    coarse = clip_view(_district_boundaries_cached(CONTEXT_TOLERANCE), view) if names is not None else shown
    context = coarse[coarse["unit_code"].isin(context_codes)]
    absent = shown[~shown["unit_code"].isin(poly_codes | context_codes)]
    return _Layers(drawn, not_drawn, polys, points, shown, context, absent, bounds, view)


def _static_shapes(layers: _Layers, names, tol: float, figsize, size_column: str):
    """Draw what every language of a static district map shares, on a new Figure: the axes, the locator (no title
    yet), the districts absent (white, hatched), the context (pale), the coloured districts, the division and State
    outlines, and the points sized by ``size_column``. Returns ``(fig, map axes, legend anchor, locator axes)``."""
    import geopandas as gpd
    from matplotlib.figure import Figure

    view, bounds, points = layers.view, layers.bounds, layers.points
    divs = _division_boundaries_cached(tol)
    fig = Figure(figsize=figsize)
    ax, anchor, loc = map_axes(fig, names is not None, names is not None)
    if loc is not None:
        locator(loc, names, None)
    ax.set_axis_off()
    ax.set_aspect(1 / np.cos(np.radians((bounds[1] + bounds[3]) / 2)))

    if len(layers.absent):
        shapes(ax, layers.absent, facecolor=COLOUR_ABSENT, edgecolor=EDGE_ABSENT, linewidth=0.4, hatch="////")
    if len(layers.context):
        shapes(ax, layers.context, facecolor=COLOUR_OUTSIDE, edgecolor=EDGE_OUTSIDE, linewidth=0.5)
    if len(layers.polys):
        unsure = _undetermined_mask(layers.polys)
        shapes(ax, layers.polys, color=[pale(COLOURS[c]) if u else COLOURS[c]
                                        for c, u in zip(layers.polys["category"].astype(str), unsure)],
               edgecolor="#ffffff", linewidth=0.6)
        if unsure.any():
            overlay_hatches(ax, layers.polys, status_of(layers.polys))
    outline = gpd.GeoSeries([state_outline(tol)], crs=4326)
    if names is not None:
        shapes(ax, clip_view(divs.boundary, view), color="#303030", linewidth=1.1)
        shapes(ax, clip_view(outline.boundary, view), color="#000000", linewidth=1.4)
    else:
        shapes(ax, divs.boundary, color="#303030", linewidth=1.1)
        shapes(ax, outline.boundary, color="#000000", linewidth=1.4)
    ax.set_xlim(view[0], view[2])
    ax.set_ylim(view[1], view[3])

    if len(points):
        v = (pd.to_numeric(points[size_column], errors="coerce") if size_column in points.columns
             else pd.Series(np.nan, index=points.index))
        s = (20 + 300 * np.sqrt(v.fillna(0) / v.max())) if v.notna().any() and v.max() > 0 else 30
        unsure = _undetermined_mask(points)
        ax.scatter([g.x for g in points.geometry], [g.y for g in points.geometry],
                   c=[pale(COLOURS[c]) if u else COLOURS[c] for c, u in zip(points["category"].astype(str), unsure)],
                   s=s, edgecolors="#202020", linewidths=0.5, zorder=5)
    return fig, ax, anchor, loc


def _static_words(fig, ax, anchor, loc, layers: _Layers, lang: str, title, label_at: list, big: bool,
                  tol: float) -> list:
    """Put the words of ``lang`` on a static district map: the locator's title, the district names at
    ``label_at``, the legend, the ``title`` and the notes (units not drawn, boundary source). Returns the artists
    added, which the next language removes."""
    added = []
    if loc is not None:
        added.append(map_title(fig, loc, word("map.state", lang), size=8, pad=0.004, colour="#404040"))
    if label_at:
        shown = layers.shown
        label_names = dict(zip(shown["unit_code"], range(len(shown))))
        names_l = unit_names(shown, lang).tolist()
        added += [_label(ax, names_l[label_names[code]], (pt.x, pt.y), 9.5 if big else 5, "#000000")
                  for code, pt in label_at]
    kw = dict(handles=_static_handles(layers, lang), title=word("map.category", lang), fontsize=9,
              title_fontsize=10, frameon=True, framealpha=0.95)
    if anchor is not None:                                   # beside the map
        added.append(fig.legend(loc="upper left", bbox_to_anchor=anchor, **kw))
    else:
        added.append(ax.legend(loc="upper right", **kw))
    if title:
        added.append(map_title(fig, ax, title))
    notes = [n for n in (not_drawn_note(layers.not_drawn, lang, limit=6), status_note(layers.drawn, lang),
                         source_note(lang, tol)) if n]
    added.append(fig.text(0.01, 0.005, "\n".join(notes), fontsize=7.5, color="#404040", ha="left", va="bottom"))
    return added


def _static_handles(layers: _Layers, lang: str) -> list:
    """The legend entries of a static district map in ``lang``: each category present with its count of
    districts, "Outside the division" and "Not in this allotment" (with their count) when drawn, the division
    line."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    counts = layers.drawn["category"].astype(str).value_counts()
    handles = [Patch(facecolor=COLOURS[c], edgecolor="#808080", linewidth=0.5,
                     label=f"{label(c, lang)} ({int(counts.get(c, 0))})") for c in present_codes(layers.drawn)]
    if len(layers.context):
        handles.append(Patch(facecolor=COLOUR_OUTSIDE, edgecolor=EDGE_OUTSIDE, label=word("map.outside", lang)))
    if len(layers.absent):
        handles.append(Patch(facecolor=COLOUR_ABSENT, edgecolor=EDGE_ABSENT, hatch="////",
                             label=f"{word('map.absent', lang)} ({len(layers.absent)})"))
    handles += status_handles(undetermined_counts(layers.drawn), lang)
    handles.append(Line2D([], [], color="#303030", linewidth=1.1, label=word("map.division_line", lang)))
    return handles


@dataclass(frozen=True)
class StaticMapResult:
    """What :func:`static_map` wrote."""
    png: Path | None
    svg: Path | None
    engine: str                  # "matplotlib" or "kaleido"
    not_drawn: pd.DataFrame      # units with no shape (see join_allotment)
    seconds: float


def static_map(allotment: pd.DataFrame, png_path=None, svg_path=None, title: str | None = None,
               lang: str = "en", *, engine: str = "matplotlib", dpi: int = 100,
               simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, level: str | None = None,
               district_labels: bool | None = None, force: bool = False, **figure_kw) -> StaticMapResult:
    """Write the map of an allotment as PNG and/or SVG, with no network and no browser by default.

    ``engine``: ``"matplotlib"`` (default; geopandas + matplotlib, text in SVG as paths so the SVG shows Hindi
    without the font installed), ``"kaleido"`` (the :func:`choropleth` figure through kaleido; needs Debian's
    chromium, raises RuntimeError without it), or ``"auto"`` (kaleido if chromium is present, else matplotlib).
    The targets are checked before anything is drawn (:func:`reservation.output.guard.check_new_file`; ``force``
    replaces an existing file) and published together.
    """
    if png_path is None and svg_path is None:
        raise ValueError("give png_path, svg_path or both")
    if engine not in ("matplotlib", "kaleido", "auto"):
        raise ValueError(f"engine must be 'matplotlib', 'kaleido' or 'auto', not {engine!r}")
    if engine == "auto":
        engine = "kaleido" if chromium_path() else "matplotlib"
    if engine == "kaleido" and chromium_path() is None:
        raise RuntimeError("engine='kaleido' needs chromium (apt-get install -y chromium); "
                           "use engine='matplotlib'")
    from ...output.guard import check_new_file
    png = check_new_file(png_path, flag="png_path", force=force) if png_path is not None else None
    svg = check_new_file(svg_path, flag="svg_path", force=force) if svg_path is not None else None
    start = time.perf_counter()
    if engine == "kaleido":
        if lang == "hi" and not system_has_devanagari():
            warnings.warn("kaleido draws text with the system's fonts and none covers Devanagari: Hindi will show "
                          "as empty boxes. apt-get install fonts-noto-core, or use engine='matplotlib'.",
                          RuntimeWarning, stacklevel=2)
        fig = choropleth(allotment, title=title, lang=lang, simplify_tolerance=simplify_tolerance, level=level,
                         width=1100, height=900, division=figure_kw.get("division"))
        from ...output.tables import publish
        publish({p: fig.to_image(format=p.suffix.lower().lstrip(".") or None,
                                 scale=2 if p.suffix.lower() == ".png" else 1)
                 for p in (png, svg) if p is not None})
    else:
        fig = static_figure(allotment, title=title, lang=lang, simplify_tolerance=simplify_tolerance,
                            level=level, district_labels=district_labels, **figure_kw)
        save_figure(fig, png, svg, dpi=dpi, lang=lang, force=force)
    _, not_drawn = join_allotment(allotment, simplify_tolerance=simplify_tolerance, level=level)
    names = division_names(figure_kw.get("division"))
    if names is not None and "division" in not_drawn.columns:
        not_drawn = not_drawn[not_drawn["division"].isin(names)].reset_index(drop=True)
    return StaticMapResult(png=png, svg=svg, engine=engine, not_drawn=not_drawn,
                           seconds=round(time.perf_counter() - start, 3))
