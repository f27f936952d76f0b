"""Maps of units that have no polygon and no position (the 826 blocks of kp-chair, gram panchayats, wards):
counted per district and shaded by the share reserved (:func:`district_aggregate`)."""

from __future__ import annotations

import html
import math
from fractions import Fraction

import numpy as np
import pandas as pd

from ...law.categories import CODES, COLOURS, label
from ...inputs.units import load_districts
from ...law.words import check_lang, word
from ..places import division_names
from .boundaries import district_boundaries, division_boundaries
from .certainty import status_of
from .draw import panel_axes, shape_paths
from .draw import shapes as draw_shapes
from .style import (COLOUR_ABSENT, EDGE_ABSENT, LABEL_BOX, center, clip_view, division_outline, fit_zoom, font_rc,
                    geojson, hover_text, in_box, view_bounds, visible_box)

__all__ = ["AGGREGATE_COLUMNS", "district_aggregate", "aggregate_figure", "aggregate_static_figure",
           "aggregate_static_figures", "measure_title"]

#: Simplification (degrees) of the districts in the small multiples of the whole State (each panel is about a
#: third of the page wide, where 0.02 degree is well under a pixel of difference).
STATE_PANEL_TOLERANCE = 0.02
#: Colour of the panel of the share of units whose category is not determined (a teal no category uses).
UNDETERMINED_COLOUR = "#01665e"

#: Columns of :func:`district_aggregate` besides the eight category codes.
AGGREGATE_COLUMNS = {
    "unit_code": "LGD district code", "unit_name_en": "district", "unit_name_hi": "district, Hindi",
    "division": "division", "division_hi": "division, Hindi", "units": "number of units in the district",
    "reserved": "units reserved for any category (all but UR)", "women": "units reserved for women (ST_W SC_W OBC_W W)",
    "share_reserved": "reserved / units (Fraction, exact)", "share_women": "women / units (Fraction)",
    "undetermined": "units whose category is not determined by public data (only when the table has a status "
                    "column: its value is not 'determined')",
    "share_undetermined": "undetermined / units (Fraction; only with a status column)",
}


def district_aggregate(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Count the units of an allotment per district, for a district-level map of bodies whose units have no
    polygon (blocks of ``kp-chair``, urban bodies without coordinates).

    Returns ``(aggregate, not_drawn)``: ``aggregate`` has one row per district that has units, with the columns of
    :data:`AGGREGATE_COLUMNS` and one count column per category code (``ST_W`` ... ``UR``); ``not_drawn`` holds the
    rows whose ``district`` does not resolve to a district of Uttar Pradesh, with a ``why``. Every row of
    ``table`` is counted in exactly one district or listed in ``not_drawn``.
    """
    from ...inputs.names import crosswalk
    cw = crosswalk()
    names = table["district"].astype(object).where(table["district"].notna(), "").astype(str)
    cache: dict[str, int] = {}
    codes = []
    for n in names:
        if n not in cache:
            try:
                cache[n] = cw.resolve(n) if n.strip() else -1
            except KeyError:
                cache[n] = -1
        codes.append(cache[n])
    codes = np.asarray(codes, dtype=np.int64)
    ok = codes >= 0
    not_drawn = table[~ok].assign(why=[f"district {n!r} is not a district of Uttar Pradesh" if n.strip() else
                                       "no district given" for n in names[~ok]]).reset_index(drop=True)
    sub = table[ok].assign(_d=codes[ok])
    t = pd.crosstab(sub["_d"], sub["category"])
    for c in CODES:
        if c not in t.columns:
            t[c] = 0
    t = t[list(CODES)].astype(int)
    d = load_districts().set_index("unit_code")
    agg = pd.DataFrame({"unit_code": t.index.astype(int)})
    for col in ("unit_name_en", "unit_name_hi", "division", "division_hi"):
        agg[col] = [d.at[c, col] for c in agg["unit_code"]]
    for c in CODES:
        agg[c] = t[c].to_numpy()
    agg["units"] = t.sum(axis=1).to_numpy()
    agg["reserved"] = agg["units"] - agg["UR"]
    agg["women"] = agg[["ST_W", "SC_W", "OBC_W", "W"]].sum(axis=1)
    agg["share_reserved"] = [Fraction(int(r), int(u)) for r, u in zip(agg["reserved"], agg["units"])]
    agg["share_women"] = [Fraction(int(r), int(u)) for r, u in zip(agg["women"], agg["units"])]
    st = status_of(sub)
    if st is not None:                  # how many of the district's units are not determined (views.maps.certainty)
        n_unsure = (st != "determined").groupby(sub["_d"].to_numpy()).sum()
        agg["undetermined"] = [int(n_unsure.get(c, 0)) for c in agg["unit_code"]]
        agg["share_undetermined"] = [Fraction(int(k), int(u)) for k, u in zip(agg["undetermined"], agg["units"])]
    agg = agg.sort_values("unit_code").reset_index(drop=True)
    return agg, not_drawn


def _measure(agg: pd.DataFrame, measure: str) -> list[Fraction]:
    if measure == "reserved":
        return list(agg["share_reserved"])
    if measure == "women":
        return list(agg["share_women"])
    if measure == "undetermined":
        return list(agg["share_undetermined"])
    return [Fraction(int(k), int(u)) for k, u in zip(agg[measure], agg["units"])]


def measure_title(measure: str, lang: str) -> str:
    """``reserved``, ``women`` or a category code -> the title of its map panel or menu entry."""
    if measure in ("reserved", "women", "undetermined"):
        return word(f"map.measure_{measure}", lang)
    return word("map.measure_share_of", lang, label=label(measure, lang))


def _measure_max(values) -> float:
    """Top of a panel's colour scale (a share, 0-1): the largest value rounded up to a tenth (at least 0.1), so
    that categories holding a tenth of the units are not washed out on a 0-100 % scale."""
    top = max((float(v) for v in values), default=0.0)
    return max(0.1, math.ceil(round(top * 10, 9)) / 10)


def _measure_colour(measure: str) -> str:
    return {"reserved": "#252525", "women": "#762a83", "undetermined": UNDETERMINED_COLOUR}.get(
        measure, COLOURS.get(measure, "#252525"))


def _measure_total(agg: pd.DataFrame, measure: str) -> int:
    """The units a panel counts (``n`` of its "n of total units")."""
    return int(agg["reserved"].sum()) if measure == "reserved" else int(agg[measure].sum())


def _title_with(title, measure, lang):
    m = measure_title(measure, lang)
    return f"{title}<br><sub>{m}</sub>" if title else m


def aggregate_figure(agg: pd.DataFrame, title: str | None = None, lang: str = "en", division=None,
                     height: int = 650):
    """Interactive district map of :func:`district_aggregate`: districts shaded by the share of their units that
    are reserved; buttons switch to the share of women's offices or of any one category, each shaded from white
    to the category's own map colour. Hover: the count of every category. Offline (MapLibre ``white-bg``, no
    text on the map). Districts without units are white with a grey edge; division boundaries are dark lines."""
    import plotly.graph_objects as go
    check_lang(lang)
    b = district_boundaries()
    agg = agg.copy()
    names = division_names(division)
    if names:
        agg = agg[agg["division"].isin(names)]
    bounds = view_bounds(division)
    top = 90 if title else 50
    zoom = fit_zoom(bounds, 700, height - top - 30)
    box = visible_box(division, 700, height - top - 30, zoom, extra=0.5)
    present = b[b["unit_code"].isin(agg["unit_code"])].set_index("unit_code").loc[agg["unit_code"]].reset_index()
    absent = in_box(b[~b["unit_code"].isin(agg["unit_code"])], box)
    name_col = "unit_name_hi" if lang == "hi" else "unit_name_en"
    div_col = "division_hi" if lang == "hi" else "division"
    no_units = word("map.no_units_here", lang)
    fig = go.Figure()
    if len(absent):
        fig.add_trace(go.Choroplethmap(
            geojson=geojson(absent), locations=absent["unit_code"].astype(int).astype(str).tolist(),
            z=[0] * len(absent), colorscale=[[0, COLOUR_ABSENT], [1, COLOUR_ABSENT]], showscale=False,
            marker={"line": {"color": EDGE_ABSENT, "width": 0.6}}, name=no_units, showlegend=True,
            customdata=np.column_stack([hover_text(absent[name_col]), hover_text(absent[div_col])]).tolist(),
            hovertemplate=f"<b>%{{customdata[0]}}</b><br>%{{customdata[1]}}<br>{no_units}<extra></extra>"))
    detail = []
    unsure = "undetermined" in agg.columns
    for _, r in agg.iterrows():
        parts = [f"{label(c, lang)}: {int(r[c])}" for c in CODES if int(r[c])]
        if unsure:                          # "3 of 9 units: category not determined"
            parts.append(html.escape(word("map.status.units_undetermined", lang, n=int(r["undetermined"]),
                                          total=int(r["units"]))))
        detail.append("<br>".join(parts))
    measures = (["reserved", "women"] + (["undetermined"] if unsure and int(agg["undetermined"].sum()) else [])
                + [c for c in CODES if c != "UR" and int(agg[c].sum())])
    zs = {m: [float(x) * 100 for x in _measure(agg, m)] for m in measures}   # colour only; text is exact
    custom = [[n, d, int(u), det] for n, d, u, det in zip(hover_text(agg[name_col]), hover_text(agg[div_col]),
                                                          agg["units"], detail)]
    hover = (f"<b>%{{customdata[0]}}</b><br>%{{customdata[1]}}<br>%{{customdata[2]}} {word('map.units', lang)}; "
             f"%{{z:.1f}} %<br>%{{customdata[3]}}<extra></extra>")

    def scale(m):
        return [[0, "#ffffff"], [1, _measure_colour(m)]]
    fig.add_trace(go.Choroplethmap(
        geojson=geojson(present), locations=agg["unit_code"].astype(int).astype(str).tolist(), z=zs["reserved"],
        zmin=0, zmax=100, colorscale=scale("reserved"), marker={"line": {"color": "#bdbdbd", "width": 0.6}},
        colorbar={"title": {"text": "%"}, "ticksuffix": " %", "len": 0.6}, customdata=custom,
        hovertemplate=hover, name=measure_title("reserved", lang), showlegend=False))
    idx = len(fig.data) - 1
    lons, lats = division_outline(box=box)
    fig.add_trace(go.Scattermap(lon=lons, lat=lats, mode="lines", line={"color": "#303030", "width": 1.6},
                                name=word("map.division_line", lang), hoverinfo="skip", showlegend=True))
    zmax = {m: _measure_max(_measure(agg, m)) * 100 for m in measures}
    fig.data[idx].zmax = zmax["reserved"]
    buttons = [{"label": measure_title(m, lang), "method": "update",
                "args": [{"z": [zs[m]], "colorscale": [scale(m)], "zmax": [zmax[m]]},
                         {"title.text": _title_with(title, m, lang)}, [idx]]}
               for m in measures]
    fig.update_layout(
        title={"text": _title_with(title, "reserved", lang)}, height=height,
        map={"style": "white-bg", "center": center(bounds), "zoom": zoom},
        margin={"l": 10, "r": 10, "t": top, "b": 30},
        updatemenus=[{"type": "dropdown", "buttons": buttons, "x": 0.0, "xanchor": "left", "y": 1.0,
                      "yanchor": "bottom", "showactive": True}],
        legend={"x": 0.99, "xanchor": "right", "y": 0.01, "yanchor": "bottom", "bgcolor": "rgba(255,255,255,0.85)"})
    return fig


def aggregate_static_figure(agg: pd.DataFrame, title: str | None = None, lang: str = "en", division=None):
    """The static counterpart of :func:`aggregate_figure` (matplotlib, no browser): small multiples, one panel
    for the share of reserved units and one per category present, each shaded from white to the category's map
    colour (the scale's top is the panel's largest share rounded up to a tenth), division boundaries dark,
    districts without units light grey. A division view names its districts on the first panel."""
    return next(aggregate_static_figures(agg, title, (lang,), division=division))[1]


def aggregate_static_figures(agg: pd.DataFrame, title: str | dict | None = None, langs=("en", "hi"), division=None):
    """:func:`aggregate_static_figure` in each language of ``langs``, as ``(lang, Figure)`` pairs made from one
    figure: the panels, shapes and colour bars are drawn once, and the words of a language (panel titles, district
    names, the title) replace those of the one before when its pair is asked for; save each figure before taking
    the next. ``title``: text, or ``{lang: text}``."""
    import matplotlib
    from matplotlib.figure import Figure
    langs = [check_lang(x) for x in langs]
    names = division_names(division)
    if names:
        agg = agg[agg["division"].isin(names)]
    measures = (["reserved"] + (["undetermined"] if "undetermined" in agg.columns and int(agg["undetermined"].sum())
                                else []) + [c for c in CODES if c != "UR" and int(agg[c].sum())])
    ncol = 3
    nrow = math.ceil(len(measures) / ncol)
    shapes = _aggregate_shapes(agg, division, names)
    rc = font_rc(langs[0]) if langs else {}
    height = 3.9 * nrow + 0.9
    head = 0.9 / height                                   # the figure's title band
    cell = (0.98 / ncol, (1 - head - 0.02) / nrow)
    panels = []
    with matplotlib.rc_context(rc):
        fig = Figure(figsize=(12, height))
        for i, m in enumerate(measures):
            r_, c_ = divmod(i, ncol)
            x0, y0 = 0.01 + c_ * cell[0], 1 - head - (r_ + 1) * cell[1]
            panels.append((m, _aggregate_panel(fig, agg, m, shapes, (x0, y0), cell), x0, y0))
    label_at = ([g_.representative_point() for g_ in shapes["g"].geometry] if names and len(agg) <= 12 else [])
    titles = title if isinstance(title, dict) else dict.fromkeys(langs, title)
    n_units = int(agg["units"].sum())
    for lang in langs:
        rc = font_rc(lang)
        with matplotlib.rc_context(rc):
            added = _aggregate_words(fig, agg, panels, cell, head, lang, titles.get(lang), label_at, n_units)
        fig._reservation_rc = rc
        yield lang, fig
        for artist in added:                     # the next language's words take their place
            artist.remove()


def _aggregate_shapes(agg: pd.DataFrame, division, names) -> dict:
    """What every panel of :func:`aggregate_static_figures` draws: ``g`` (the districts of ``agg``, in its order),
    ``absent`` (the districts in view without units) and ``divs`` (the division lines), cut to the ``view`` (the
    division's ``bounds``, padded); ``aspect`` of the map. The State's small maps use coarser outlines
    (:data:`STATE_PANEL_TOLERANCE`)."""
    b = district_boundaries()
    divs = division_boundaries()
    bounds = view_bounds(division)
    pad = 0.04 * max(bounds[2] - bounds[0], bounds[3] - bounds[1])
    view = (bounds[0] - pad, bounds[1] - pad, bounds[2] + pad, bounds[3] + pad)
    if not names:              # seven small maps of the State: outlines at a coarser tolerance are as good
        b = district_boundaries(STATE_PANEL_TOLERANCE)
        divs = division_boundaries(STATE_PANEL_TOLERANCE)
    g = b.set_index("unit_code").loc[agg["unit_code"]].reset_index()
    # draw only what is in view (a division's map need not draw the other 60 districts), cut to the view
    b = clip_view(b, view)
    divs = clip_view(divs.boundary, view)
    absent = b[~b["unit_code"].isin(agg["unit_code"])]
    aspect = 1 / math.cos(math.radians((bounds[1] + bounds[3]) / 2))
    return {"g": g, "absent": absent, "divs": divs, "view": view, "aspect": aspect, "g_paths": shape_paths(g),
            "absent_paths": shape_paths(absent)}


def _aggregate_panel(fig, agg: pd.DataFrame, m: str, shapes: dict, origin: tuple, cell: tuple):
    """Draw the panel of measure ``m`` in the cell at ``origin`` of ``fig``: the districts shaded from white to
    the measure's colour (the top of the scale is the panel's largest share rounded up to a tenth), districts
    without units light grey, the division lines, and its colour bar with its three ticks (0, half, top). Returns
    the map's axes."""
    import matplotlib.patches
    from matplotlib.colors import LinearSegmentedColormap

    (x0, y0), (cell_w, cell_h), view = origin, cell, shapes["view"]
    # panels at fixed places; the colour bar is drawn by hand (an axes with ticks, a colorbar or an axes
    # title makes matplotlib measure tick labels on every draw: most of the time of these maps)
    ax = panel_axes(fig, (x0, y0 + 0.02 * cell_h, 0.80 * cell_w, 0.78 * cell_h))
    ax.set_aspect(shapes["aspect"])
    cmap = LinearSegmentedColormap.from_list(m, ["#ffffff", _measure_colour(m)])
    if len(shapes["absent"]):
        draw_shapes(ax, shapes["absent"], paths=shapes["absent_paths"], facecolor="#eeeeee", edgecolor="#bdbdbd",
                    linewidth=0.3, autoscale=False)
    vals = [float(x) for x in _measure(agg, m)]
    top = _measure_max(vals)
    draw_shapes(ax, shapes["g"], paths=shapes["g_paths"], color=[cmap(v / top) for v in vals], edgecolor=EDGE_ABSENT,
                linewidth=0.3, autoscale=False)
    draw_shapes(ax, shapes["divs"], color="#303030", linewidth=0.8, autoscale=False)
    ax.set_xlim(view[0], view[2])
    ax.set_ylim(view[1], view[3])
    bar = (x0 + 0.83 * cell_w, y0 + 0.2 * cell_h, 0.035 * cell_w, 0.5 * cell_h)
    cax = panel_axes(fig, bar)
    cax.imshow(np.linspace(1, 0, 64).reshape(-1, 1), cmap=cmap, aspect="auto", vmin=0, vmax=1,
               extent=(0, 1, 0, 1))
    cax.add_patch(matplotlib.patches.Rectangle((0, 0), 1, 1, fill=False, edgecolor="#808080", linewidth=0.5))
    for frac in (0, 0.5, 1):
        fig.text(bar[0] + bar[2] + 0.004, bar[1] + frac * bar[3], f"{top * 100 * frac:g} %", fontsize=7,
                 va="center", ha="left")
    return ax


def _aggregate_words(fig, agg: pd.DataFrame, panels: list, cell: tuple, head: float, lang: str, title,
                     label_at: list, n_units: int) -> list:
    """Put the words of ``lang`` on :func:`aggregate_static_figures`' figure: each panel's title with its count
    ("n of total units"), the district names on the first panel (at ``label_at``) and the figure's ``title``.
    Returns the artists added, which the next language removes."""
    cell_w, cell_h = cell
    name_col = "unit_name_hi" if lang == "hi" else "unit_name_en"
    added = []
    for i, (m, ax, x0, y0) in enumerate(panels):
        added.append(fig.text(x0 + 0.45 * cell_w, y0 + 0.83 * cell_h, f"{measure_title(m, lang)}\n"
                              + word("map.n_of_total", lang, n=_measure_total(agg, m), total=n_units),
                              ha="center", va="bottom", fontsize=9))
        if i == 0:
            added += [ax.annotate(n, (pt.x, pt.y), ha="center", va="center", fontsize=7, color="#000000",
                                  bbox=LABEL_BOX) for n, pt in zip(agg[name_col], label_at)]
    if title:
        added.append(fig.text(0.5, 1 - 0.35 * head, title, ha="center", va="center", fontsize=13))
    return added
