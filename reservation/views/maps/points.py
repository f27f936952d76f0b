"""Maps of units drawn as points: units with ``lon``/``lat``, and the urban bodies (pp-chair, np-chair, mayor),
which have neither polygons nor coordinates in the data and are placed around their district's centre."""

from __future__ import annotations

import html
import math
from functools import lru_cache

import numpy as np
import pandas as pd

from ...law.categories import CODES, COLOURS, label
from ...law.words import check_lang, word
from ..places import division_names, place_names, unit_names
from .draw import shapes
from .boundaries import UP_BOX, district_boundaries, division_boundaries
from .certainty import (HATCH_COLOUR, HATCH_WIDTH, HATCHES, PALE_OPACITY, UNDETERMINED, pale, undetermined_counts,
                        status_handles, status_label, status_note, status_of, status_traces)
from .style import (COLOUR_ABSENT, EDGE_ABSENT, EDGE_OUTSIDE, LABEL_BOX, PANEL_SIDE, center, clip_view,
                    division_outline, fit_zoom, font_rc, geojson, hover_text, hover_wrap, in_box, map_axes,
                    map_title, size_key, sizes, view_bounds, visible_box)

__all__ = ["unit_points", "points_figure", "points_static_figure", "points_static_figures", "urban_body_id",
           "POINT_SPACING"]

_GOLDEN_ANGLE = math.pi * (3 - math.sqrt(5))
#: Spacing (degrees) of the points placed around a district's centre: the i-th lies at SPACING * sqrt(i).
POINT_SPACING = 0.06


def urban_body_id(table: pd.DataFrame, body: str | None = None) -> str | None:
    """The urban body id of a table (``pp-chair``, ``np-chair``, ``mayor``), from ``body`` or ``body_type``."""
    try:
        from ...rules.urban_bodies import URBAN_BODIES
    except ImportError:  # pragma: no cover - before the urban rulebook existed
        return None
    if body in URBAN_BODIES:
        return body
    if "body_type" in table.columns and len(table):
        kinds = set(table["body_type"].astype(str))
        for k, spec in URBAN_BODIES.items():
            if kinds <= {str(spec.get("unit", "")), str(spec.get("type", "")), str(spec.get("short", ""))}:
                return k
    return None


@lru_cache(maxsize=4)
def _urban_population(body: str) -> dict[int, int]:
    from ...rules.urban_bodies import load_bodies
    b, _ = load_bodies(body)
    pop = pd.to_numeric(b["pop"], errors="coerce")
    return {int(c): int(p) for c, p in zip(b["unit_code"], pop) if pd.notna(p)}


def unit_points(table: pd.DataFrame, body: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The units of a table as points: ``(points, not_drawn)``.

    With ``lon``/``lat`` columns the points are where the table says (``placed`` = ``coordinates``; outside Uttar
    Pradesh or blank -> not drawn). Otherwise (urban bodies) each unit is placed around its district's centre
    (a point inside the district polygon), the most populous at the centre and the others on a sunflower spiral
    (``placed`` = ``district``); a unit whose district is unknown is not drawn. ``pop`` is the population used
    for the size: the table's ``pop_total``/``pop`` column, or the shipped urban-body list (Census 2011 town
    figures, :func:`reservation.rules.urban_bodies.load_bodies`); missing -> NA (drawn at the smallest size).
    Every row is in exactly one of the two frames.
    """
    from ...inputs.names import crosswalk
    t = table.reset_index(drop=True).copy()
    if "pop_total" in t.columns:
        pop = pd.to_numeric(t["pop_total"], errors="coerce")
    elif "pop" in t.columns:
        pop = pd.to_numeric(t["pop"], errors="coerce")
    else:
        bid = urban_body_id(t, body)
        pmap = _urban_population(bid) if bid else {}
        pop = pd.Series([pmap.get(int(c), np.nan) for c in t["unit_code"]], dtype="float")
    t["pop"] = pd.array([None if pd.isna(v) else int(v) for v in pop], dtype="Int64")
    if "lon" in t.columns and "lat" in t.columns:
        lon = pd.to_numeric(t["lon"], errors="coerce")
        lat = pd.to_numeric(t["lat"], errors="coerce")
        inside = lon.between(UP_BOX[0], UP_BOX[2]) & lat.between(UP_BOX[1], UP_BOX[3])
        why = np.where(lon.isna() | lat.isna(), "no lon/lat", "lon/lat outside Uttar Pradesh")
        pts = t[inside].assign(lon=lon[inside], lat=lat[inside], placed="coordinates")
        nd = t[~inside].assign(why=why[~inside.to_numpy()])
        return pts.reset_index(drop=True), nd.reset_index(drop=True)
    cw = crosswalk()
    b = district_boundaries().set_index("unit_code")
    centre = {int(c): g.representative_point() for c, g in zip(b.index, b.geometry)}
    dcode = []
    for n in t["district"].astype(object).where(t["district"].notna(), "").astype(str):
        try:
            dcode.append(cw.resolve(n) if n.strip() else -1)
        except KeyError:
            dcode.append(-1)
    t["_d"] = dcode
    ok = t["_d"] >= 0
    nd = t[~ok].drop(columns="_d").assign(why="no coordinates and no known district").reset_index(drop=True)
    pts = t[ok].copy()
    pts["_p"] = pts["pop"].fillna(-1).astype("int64")
    pts = pts.sort_values(["_d", "_p", "unit_code"], ascending=[True, False, True], kind="stable")
    pts["_i"] = pts.groupby("_d").cumcount()
    r = POINT_SPACING * np.sqrt(pts["_i"].to_numpy(dtype=float))
    a = pts["_i"].to_numpy(dtype=float) * _GOLDEN_ANGLE
    cx = np.array([centre[d].x for d in pts["_d"]])
    cy = np.array([centre[d].y for d in pts["_d"]])
    pts["lon"] = np.round(cx + r * np.cos(a) / math.cos(math.radians(27)), 5)
    pts["lat"] = np.round(cy + r * np.sin(a), 5)
    pts["placed"] = "district"
    pts = pts.drop(columns=["_d", "_p", "_i"]).sort_values("unit_code", kind="stable").reset_index(drop=True)
    return pts, nd


def _top(points: pd.DataFrame) -> float:
    """The largest population among the points (0 when none is known)."""
    v = pd.to_numeric(points["pop"], errors="coerce").astype(float) if len(points) else pd.Series(dtype=float)
    return float(v.max()) if v.notna().any() else 0.0


def _note(points: pd.DataFrame, lang: str, sep: str = " ") -> str:
    placed = set(points["placed"]) if len(points) else set()
    out = word("map.points_district_note" if "district" in placed else "map.points_coord_note", lang)
    unsure = status_note(points, lang) if len(points) else ""
    return out + sep + unsure if unsure else out


def points_figure(points: pd.DataFrame, title: str | None = None, lang: str = "en", division=None,
                  height: int = 650):
    """Interactive map of :func:`unit_points`: districts white with grey edges, division boundaries dark, one
    point per unit in its category's colour, sized by population; hover: name, district, category, reason.
    Offline (MapLibre ``white-bg``; no text on the map)."""
    import plotly.graph_objects as go
    check_lang(lang)
    bounds = view_bounds(division)
    head = 60 if title else 10
    zoom = fit_zoom(bounds, 700, height - head - 40)
    box = visible_box(division, 700, height - head - 40, zoom, extra=0.5)
    b = in_box(district_boundaries(), box)
    fig = go.Figure()
    fig.add_trace(go.Choroplethmap(
        geojson=geojson(b), locations=b["unit_code"].astype(int).astype(str).tolist(), z=[0] * len(b),
        colorscale=[[0, COLOUR_ABSENT], [1, COLOUR_ABSENT]], showscale=False,
        marker={"line": {"color": EDGE_ABSENT, "width": 0.6}},
        customdata=[[n] for n in hover_text(unit_names(b, lang))],
        hovertemplate="%{customdata[0]}<extra></extra>", showlegend=False))
    lons, lats = division_outline(box=box)
    fig.add_trace(go.Scattermap(lon=lons, lat=lats, mode="lines", line={"color": "#303030", "width": 1.6},
                                name=word("map.division_line", lang), hoverinfo="skip", showlegend=True))
    top = _top(points)
    size = sizes(points["pop"], 5, 22, top) if len(points) else np.zeros(0)
    names = np.array(hover_text(unit_names(points, lang)) if len(points) else [], dtype=object)
    dist = np.array(hover_text(place_names(points["district"], "district", lang)) if len(points) else [], dtype=object)
    reason = np.array([hover_wrap(x, 70) for x in points["reason"]] if "reason" in points.columns
                      else [""] * len(points), dtype=object)
    st = status_of(points) if len(points) else None
    for c in CODES:
        sel = (points["category"] == c).to_numpy() if len(points) else np.zeros(0, dtype=bool)
        if not sel.any():
            continue
        p = points[sel]
        pop_txt = [f"{int(v):,}" if pd.notna(v) else "?" for v in p["pop"]]
        cat = [label(c, lang)] * int(sel.sum())
        opacity = 0.9
        if st is not None:                     # not determined: pale, and the status in the hover
            cat = [x if k == "determined" else f"{x} ({html.escape(status_label(k, lang))})"
                   for x, k in zip(cat, st[sel])]
            opacity = [PALE_OPACITY if k != "determined" else 0.9 for k in st[sel]]
        fig.add_trace(go.Scattermap(
            lon=p["lon"].tolist(), lat=p["lat"].tolist(), mode="markers",
            marker={"color": COLOURS[c], "size": size[sel].tolist(), "opacity": opacity},
            name=f"{label(c, lang)} ({int(sel.sum())})",
            customdata=np.column_stack([names[sel], dist[sel], cat, pop_txt, reason[sel]]).tolist(),
            hovertemplate="<b>%{customdata[0]}</b> (%{customdata[1]})<br>%{customdata[2]}<br>%{customdata[3]}"
                          "<br>%{customdata[4]}<extra></extra>"))
    if st is not None:
        status_traces(fig, points, points["lon"], points["lat"], names, lang)
    keys = size_key(top)
    for v, s_ in zip(keys, sizes(pd.Series(keys), 5, 22, top)):     # the key of the dot sizes, a legend of its own
        fig.add_trace(go.Scattermap(lon=[None], lat=[None], mode="markers", legend="legend2", name=f"{v:,}",
                                    marker={"color": "#bdbdbd", "size": float(s_)}, hoverinfo="skip"))
    fig.update_layout(
        title={"text": title} if title else None, height=height,
        map={"style": "white-bg", "center": center(bounds), "zoom": zoom},
        legend={"title": {"text": word("map.category", lang)}, "itemsizing": "constant", "x": 1.01,
                "xanchor": "left", "y": 1.0, "yanchor": "top"},
        legend2={"title": {"text": word("map.size_key", lang)}, "itemsizing": "trace", "x": 1.01, "xanchor": "left",
                 "y": 0.0, "yanchor": "bottom"},
        margin={"l": 10, "r": 10, "t": head, "b": 40},
        annotations=[{"text": _note(points, lang, "<br>"), "xref": "paper", "yref": "paper", "x": 0, "y": -0.01,
                      "yanchor": "top", "xanchor": "left", "showarrow": False, "font": {"size": 11}}])
    return fig


def points_static_figure(points: pd.DataFrame, title: str | None = None, lang: str = "en", division=None):
    """The static counterpart of :func:`points_figure` (matplotlib). Beside the map, not over it: the legend of
    the categories (with counts), the key of the dot sizes (population) and, for a division, a locator map of the
    State. A division view names every dot after its unit (the town, in ``lang``) and, in grey, each district
    under its cluster (the dots stand around their district's centre)."""
    return next(points_static_figures(points, title, (check_lang(lang),), division=division))[1]


def points_static_figures(points: pd.DataFrame, title: str | dict | None = None, langs=("en", "hi"), division=None):
    """:func:`points_static_figure` in each language of ``langs``, as ``(lang, Figure)`` pairs made from one
    figure (as :func:`reservation.views.maps.districts.static_figures`): the axes, the locator, the districts and
    the dots are drawn once, and the words of a language (the locator's title, the names, both keys, the title,
    the note) are put on it when its pair is asked for, in place of those of the language before. So each figure
    must be saved before the next pair is taken. ``title``: text, or ``{lang: text}``."""
    import matplotlib
    from matplotlib.figure import Figure

    from .districts import CONTEXT_TOLERANCE, locator
    langs = [check_lang(x) for x in langs]
    divs = division_boundaries()
    names = division_names(division)
    top = _top(points)
    with matplotlib.rc_context(font_rc(langs[0]) if langs else {}):
        fig = Figure(figsize=(12.5, 9))
        ax, anchor, loc = map_axes(fig, True, bool(names))
        if loc is not None:
            locator(loc, names, None)
        ax.set_axis_off()
        bounds = view_bounds(division)
        pad = 0.04 * max(bounds[2] - bounds[0], bounds[3] - bounds[1])
        view = (bounds[0] - pad, bounds[1] - pad, bounds[2] + pad, bounds[3] + pad)
        ax.set_aspect(1 / math.cos(math.radians((bounds[1] + bounds[3]) / 2)))
        shapes(ax, clip_view(district_boundaries(CONTEXT_TOLERANCE), view), facecolor=COLOUR_ABSENT,
               edgecolor=EDGE_OUTSIDE, linewidth=0.5)
        shapes(ax, clip_view(divs.boundary, view), color="#303030", linewidth=1.1)
        if len(points):
            _static_dots(ax, points, top)
        ax.set_xlim(view[0], view[2])
        ax.set_ylim(view[1], view[3])
    titles = title if isinstance(title, dict) else dict.fromkeys(langs, title)
    for lang in langs:
        rc = font_rc(lang)
        with matplotlib.rc_context(rc):
            added = _points_words(fig, ax, anchor, loc, points, top, names, lang, titles.get(lang))
        fig._reservation_rc = rc
        yield lang, fig
        for artist in added:                     # the next language's words take their place
            artist.remove()


def _static_dots(ax, points: pd.DataFrame, top: float) -> None:
    """The dots of a static points map, sized by population (big ones first), pale and hatched where the
    category is not determined."""
    size = sizes(points["pop"], 10, 160, top)
    order = np.argsort(-size, kind="stable")          # big points first, small ones on top
    p = points.iloc[order]
    st = status_of(p)
    unsure = np.zeros(len(p), dtype=bool) if st is None else (st != "determined").to_numpy()
    ax.scatter(p["lon"], p["lat"], s=size[order],
               c=[pale(COLOURS[c]) if u else COLOURS[c] for c, u in zip(p["category"], unsure)],
               edgecolors="#202020", linewidths=0.4, zorder=5)
    for k in UNDETERMINED if st is not None else ():     # hatched over the pale fill, one pass per status
        sel = (st == k).to_numpy()
        if sel.any():
            ax.scatter(p["lon"][sel], p["lat"][sel], s=size[order][sel], facecolors="none",
                       edgecolors=HATCH_COLOUR, linewidths=0.0, hatch=HATCHES[k],
                       hatch_linewidth=HATCH_WIDTH, zorder=5)


def _points_words(fig, ax, anchor, loc, points: pd.DataFrame, top: float, names, lang: str, title) -> list:
    """Put the words of ``lang`` on a static points map: the locator's title, the names of the towns and districts
    (a division), the key of the categories and of the sizes, the ``title`` and the note. Returns the artists
    added, which the next language removes."""
    from matplotlib.lines import Line2D
    added = []
    if loc is not None:
        added.append(map_title(fig, loc, word("map.state", lang), size=8, pad=0.004, colour="#404040"))
    handles = [Line2D([], [], marker="o", linestyle="", markersize=8, markerfacecolor=COLOURS[c],
                      markeredgecolor="#202020", label=f"{label(c, lang)} ({n})")
               for c, n in ((c, int((points["category"] == c).sum())) for c in CODES) if n] if len(points) else []
    handles += status_handles(undetermined_counts(points), lang) if len(points) else []
    handles.append(Line2D([], [], color="#303030", linewidth=1.1, label=word("map.division_line", lang)))
    if names and len(points):
        for n, x, y in zip(unit_names(points, lang), points["lon"], points["lat"]):
            added.append(ax.annotate(n, (x, y), xytext=(5, 0), textcoords="offset points", ha="left", va="center",
                                     fontsize=6.5, color="#000000", zorder=4, bbox=LABEL_BOX, annotation_clip=True))
        lab = points.groupby("district").agg(lon=("lon", "mean"), lat=("lat", "min")).reset_index()
        for d, x, y in zip(place_names(lab["district"], "district", lang), lab["lon"], lab["lat"]):
            added.append(ax.annotate(d, (x, y - 0.07), ha="center", va="top", fontsize=8, color="#707070",
                                     fontstyle="italic", zorder=6, bbox=LABEL_BOX, annotation_clip=True))
    added.append(fig.legend(handles=handles, title=word("map.category", lang), loc="upper left",
                            bbox_to_anchor=anchor, fontsize=9, title_fontsize=10, framealpha=0.95))
    keys = size_key(top)
    if keys:
        dots = [Line2D([], [], marker="o", linestyle="", markerfacecolor="#bdbdbd", markeredgecolor="#202020",
                       markersize=float(np.sqrt(s)), label=f"{v:,}")
                for v, s in zip(keys, sizes(pd.Series(keys), 10, 160, top))]
        added.append(fig.legend(handles=dots, title=word("map.size_key", lang), loc="lower left",
                                bbox_to_anchor=(anchor[0], PANEL_SIDE[1] if names else 0.06), fontsize=9,
                                title_fontsize=10, framealpha=0.95, labelspacing=1.2, borderpad=0.9))
    if title:
        added.append(map_title(fig, ax, title))
    added.append(fig.text(0.01, 0.005, _note(points, lang, "\n"), fontsize=8, color="#404040"))
    return added
