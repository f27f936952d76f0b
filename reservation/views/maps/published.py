"""The published list beside the computed one: for a past election whose list the project holds (Zila Panchayat
chairs 2015 and 2021, Mayors 2017 and 2023, block pramukhs 2005, 2010 and 2015, or a list a user gives), two maps
side by side, the computed categories on the left (units not determined pale and hatched, as on every map:
:mod:`.certainty`) and the State's published ones on the right, in the same colours; a unit the list lacks is
white and hatched "Not in the published list" (never "unreserved").

The published category is read from the table's ``published`` column (the allotment table's, beside
``category``) or given as ``published=`` (the frame of :func:`reservation.inputs.published.load_published`:
``unit_code``, ``category``). Entry points: :func:`published_frame`, :func:`published_figure` (plotly, offline),
:func:`published_static_figure` (matplotlib) and :func:`write_published_maps` (PNG/SVG per language)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ...law.categories import CODES, COLOURS, label
from ...law.words import LANGS, check_lang, word
from ..places import division_names, in_division
from .certainty import (HATCH_COLOUR, HATCH_WIDTH, HATCHES, UNDETERMINED, overlay_hatches, pale, undetermined_counts,
                        status_handles, status_of)
from .draw import panel_axes, shapes
from .style import (COLOUR_ABSENT, EDGE_ABSENT, EDGE_OUTSIDE, clip_view, font_rc, hover_text, map_title,
                    save_figure, view_bounds)

__all__ = ["MISSING_HATCH", "published_frame", "published_differ", "published_figure", "published_static_figure",
           "published_static_figures", "write_published_maps"]

#: Hatch of a unit the published list lacks (white fill; "Not in this allotment" is ``////``).
MISSING_HATCH = "\\\\\\\\"


def published_frame(table: pd.DataFrame, published: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows of ``table`` with ``category`` = the published category ("" where the list lacks the unit), the
    computed one kept as ``computed``, and ``in_list``. The published category comes from ``published``
    (``unit_code``, ``category``) when given, else from the table's ``published`` column; neither is a
    ValueError. The ``status`` column is dropped: the published side is the State's record."""
    if published is not None:
        by_code = dict(zip(pd.to_numeric(published["unit_code"]).astype(int), published["category"].astype(str)))
        pub = [by_code.get(int(c), "") for c in pd.to_numeric(table["unit_code"])]
    elif "published" in table.columns:
        pub = table["published"].astype(object).where(table["published"].notna(), "").astype(str).str.strip()
        pub = pub.tolist()
    else:
        raise ValueError("no published list: give published= or a table with a 'published' column")
    bad = sorted({p for p in pub if p and p not in CODES})
    if bad:
        raise ValueError(f"published column: {bad[0]!r} is not a category code")
    out = table.drop(columns=[c for c in ("status",) if c in table.columns]).copy()
    out["computed"] = table["category"].astype(str).to_numpy()
    out["category"] = pub
    out["in_list"] = [bool(p) for p in pub]
    return out


def published_differ(pub: pd.DataFrame) -> tuple[int, int]:
    """``(differ, listed)``: units of :func:`published_frame` in the list whose published category is not the
    computed one, and units in the list."""
    listed = pub["in_list"].to_numpy(dtype=bool)
    differ = listed & (pub["category"].astype(str).to_numpy() != pub["computed"].astype(str).to_numpy())
    return int(differ.sum()), int(listed.sum())


def _subtitle(which: str, pub: pd.DataFrame, lang: str) -> str:
    if which == "computed":
        return word("map.published.computed", lang)
    differ, listed = published_differ(pub)
    return (word("map.published.published", lang) + " ("
            + word("map.published.differ", lang, n=differ, total=listed) + ")")


# ------------------------------------------------------------------------------------------------ interactive

def published_figure(table: pd.DataFrame, published: pd.DataFrame | None = None, lang: str = "en", division=None,
                     title: str | None = None, height: int = 600, body: str | None = None):
    """The computed map (left) and the published list's map (right) as one plotly figure (two MapLibre
    ``white-bg`` maps, nothing fetched), both drawn by :func:`reservation.views.division_map` (districts,
    points, or counts per district by :func:`reservation.views.maps.map_mode`), zoomed alike; a unit the list
    lacks is drawn white with a dot "Not in the published list". Legend entries shared by the two maps are shown
    once. Hover: names HTML-escaped as on every map."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    from .division import division_map
    check_lang(lang)
    pub = published_frame(table, published)
    left = division_map(table, division=division, lang=lang, height=height, body=body)
    right = division_map(pub[pub["in_list"]], division=division, lang=lang, height=height, body=body)
    fig = make_subplots(rows=1, cols=2, specs=[[{"type": "map"}, {"type": "map"}]], horizontal_spacing=0.02,
                        subplot_titles=hover_text([_subtitle(w, in_division(pub, division), lang)
                                                   for w in ("computed", "published")]))
    seen = set()
    for col, view in ((1, left), (2, right)):
        for tr in view.figure.data:
            key = (tr.name, tr.type)
            if key in seen:
                tr.showlegend = False
            seen.add(key)
            fig.add_trace(tr, row=1, col=col)
    missing = in_division(pub, division)
    missing = missing[~missing["in_list"]]
    if len(missing):
        lon, lat = _missing_points(missing, body)
        text = hover_text([word("map.published.missing", lang)])[0]
        names = hover_text(missing["unit_name_hi" if lang == "hi" else "unit_name_en"])
        fig.add_trace(go.Scattermap(lon=lon, lat=lat, mode="markers", name=f"{text} ({len(missing)})",
                                    marker={"color": "#000000", "size": 7}, customdata=[[n] for n in names],
                                    hovertemplate=f"<b>%{{customdata[0]}}</b><br>{text}<extra></extra>"),
                      row=1, col=2)
    m = left.figure.layout.map
    fig.update_layout(map={"style": "white-bg", "center": m.center, "zoom": m.zoom - 0.6},
                      map2={"style": "white-bg", "center": m.center, "zoom": m.zoom - 0.6},
                      title={"text": hover_text([title])[0]} if title else None, height=height,
                      margin={"l": 10, "r": 10, "t": 80 if title else 40, "b": 20},
                      legend={"itemsizing": "constant", "bgcolor": "rgba(255,255,255,0.85)"})
    return fig


def _missing_points(missing: pd.DataFrame, body) -> tuple[list, list]:
    """Where to put the dot of each unit the list lacks: inside its district (a district unit's polygon, a point
    placed as the points map places it, or its district's polygon for blocks)."""
    from .boundaries import district_boundaries
    from .division import map_mode
    from .points import unit_points
    mode = map_mode(missing, body)
    b = district_boundaries().set_index("unit_code")
    if mode in ("points", "district-points"):
        pts, _ = unit_points(missing, body)
        return [round(float(x), 5) for x in pts["lon"]], [round(float(y), 5) for y in pts["lat"]]
    if mode == "district":
        at = [b.geometry[int(c)].representative_point() for c in missing["unit_code"]]
    else:
        from ...inputs.names import crosswalk
        cw = crosswalk()
        at = []
        for n in missing["district"].astype(str):
            try:
                at.append(b.geometry[cw.resolve(n)].representative_point())
            except KeyError:
                continue
    return [round(p.x, 5) for p in at], [round(p.y, 5) for p in at]


# ------------------------------------------------------------------------------------------------ static

def published_static_figure(table: pd.DataFrame, published: pd.DataFrame | None = None, lang: str = "en",
                            division=None, title: str | None = None, body: str | None = None):
    """The static counterpart of :func:`published_figure` (matplotlib, no browser): two maps side by side, one
    key below them. Districts: filled by category (computed: undetermined pale and hatched; published: a
    district the list lacks white with :data:`MISSING_HATCH`). Points (urban bodies): dots in the category's
    colour, sized alike; a body the list lacks a white hatched dot. Blocks and other units without a shape: each
    district shaded by the share of its units reserved (computed / published), a district with units the list
    lacks hatched."""
    return next(published_static_figures(table, published, (lang,), division=division, title=title, body=body))[1]


def published_static_figures(table: pd.DataFrame, published: pd.DataFrame | None = None, langs=LANGS,
                             division=None, title: str | dict | None = None, body: str | None = None):
    """:func:`published_static_figure` in each language of ``langs``, as ``(lang, Figure)`` pairs made from one
    figure (as :func:`reservation.views.maps.districts.static_figures`): the axes, the shapes and the outlines are
    drawn once, and the words of a language (district names, the maps' titles, the title, the key) are put on it
    when its pair is asked for, in place of those of the language before. So each figure must be saved before the
    next pair is taken. ``title``: text, or ``{lang: text}``."""
    import matplotlib
    from matplotlib.figure import Figure

    from .division import map_mode
    langs = [check_lang(x) for x in langs]
    pub = published_frame(table, published)
    sub, psub = in_division(table, division), in_division(pub, division)
    mode = map_mode(sub, body) if len(sub) else "district"
    bounds = view_bounds(division)
    pad = 0.04 * max(bounds[2] - bounds[0], bounds[3] - bounds[1])
    view = (bounds[0] - pad, bounds[1] - pad, bounds[2] + pad, bounds[3] + pad)
    cos = float(np.cos(np.radians((bounds[1] + bounds[3]) / 2)))
    # two panels of the view's shape, 6 inches high, side by side (a tall division gets a narrow page)
    panel_w = 6.0 * (view[2] - view[0]) * cos / (view[3] - view[1])
    width = max(2 * panel_w + 0.6, 10.0)
    draw = {"district": _draw_districts, "points": _draw_points, "district-points": _draw_points}.get(
        mode, _draw_shares)
    with matplotlib.rc_context(font_rc(langs[0]) if langs else {}):
        fig = Figure(figsize=(round(width, 2), 8.2))
        axes = [panel_axes(fig, (0.01 + 0.495 * i, 0.17, 0.485, 0.74)) for i in (0, 1)]
        context = clip_view(_context_districts(), view)
        for ax in axes:
            ax.set_axis_off()
            ax.set_aspect(1 / cos)
            _context(ax, context)
        keys = draw(axes, sub, psub, view, body)
        outlines = clip_view(_division_lines(), view)
        for ax in axes:
            _outlines(ax, outlines)
            ax.set_xlim(view[0], view[2])
            ax.set_ylim(view[1], view[3])
    named = division_names(division) is not None and mode == "district"
    titles = title if isinstance(title, dict) else dict.fromkeys(langs, title)
    for lang in langs:
        rc = font_rc(lang)
        with matplotlib.rc_context(rc):
            added = _names(axes, sub, lang) if named else []
            for ax, which in zip(axes, ("computed", "published")):
                added.append(map_title(fig, ax, _subtitle(which, psub, lang), size=11.5, pad=0.006))
            if titles.get(lang):
                added.append(fig.text(0.5, 0.985, titles[lang], ha="center", va="top", fontsize=14))
            added.append(fig.legend(
                handles=keys(lang), loc="lower center", bbox_to_anchor=(0.5, 0.005), ncol=4, fontsize=8.5,
                frameon=True, framealpha=0.95, title_fontsize=9,
                title=word("map.measure_reserved", lang) if draw is _draw_shares else word("map.category", lang)))
        fig._reservation_rc = rc
        yield lang, fig
        for artist in added:                     # the next language's words take their place
            artist.remove()


def _names(axes, sub: pd.DataFrame, lang: str) -> list:
    """A division's districts named on both maps; returns the labels."""
    from ..places import unit_names
    from .boundaries import district_boundaries
    from .style import LABEL_BOX
    b = district_boundaries().set_index("unit_code")
    names = unit_names(sub, lang).tolist()
    out = []
    for code, name in zip(pd.to_numeric(sub["unit_code"]).astype(int), names):
        if code in b.index:
            pt = b.geometry[code].representative_point()
            for ax in axes:
                out.append(ax.annotate(name, (pt.x, pt.y), ha="center", va="center", fontsize=8.5, zorder=6,
                                       bbox=LABEL_BOX))
    return out


def _context_districts():
    from .boundaries import district_boundaries
    from .districts import CONTEXT_TOLERANCE
    return district_boundaries(CONTEXT_TOLERANCE)


def _context(ax, context) -> None:
    """The districts in view (``context``: cut to it), white, on ``ax``."""
    shapes(ax, context, facecolor=COLOUR_ABSENT, edgecolor=EDGE_OUTSIDE, linewidth=0.4)


def _division_lines():
    from .boundaries import division_boundaries
    return division_boundaries().boundary


def _outlines(ax, lines) -> None:
    """The division lines in view (``lines``: cut to it) on ``ax``."""
    shapes(ax, lines, color="#303030", linewidth=0.9)


def _category_handles(codes: list[str], lang: str) -> list:
    from matplotlib.patches import Patch
    return [Patch(facecolor=COLOURS[c], edgecolor="#808080", linewidth=0.5, label=label(c, lang)) for c in codes]


def _missing_handle(n: int, lang: str):
    from matplotlib.patches import Patch
    return Patch(facecolor=COLOUR_ABSENT, edgecolor=HATCH_COLOUR, linewidth=0.5, hatch=MISSING_HATCH,
                 label=f"{word('map.published.missing', lang)} ({n})")


def _keys(codes: list[str], unsure: dict[str, int], missing: int):
    """The key of a map of categories in a language: ``codes`` present, the ``unsure`` counts, the ``missing``."""
    def keys(lang: str) -> list:
        handles = _category_handles(codes, lang) + status_handles(unsure, lang)
        if missing:
            handles.append(_missing_handle(missing, lang))
        return handles
    return keys


def _present(*frames) -> list[str]:
    have = set().union(*(set(f["category"].astype(str)) for f in frames))
    return [c for c in CODES if c in have]


def _placeholder(psub: pd.DataFrame) -> pd.DataFrame:
    """The published rows with a code in place of the blank category of the units the list lacks (the shapes are
    joined on it; ``in_list`` decides how they are drawn)."""
    return psub.assign(category=psub["category"].where(psub["in_list"], "UR"))


def _draw_districts(axes, sub, psub, view, body):
    """Both maps of district units; returns the key in a language (a function of it)."""
    from .boundaries import join_allotment
    left, _ = join_allotment(sub)
    right, _ = join_allotment(_placeholder(psub))
    left, right = left[left["drawn_as"] == "polygon"], right[right["drawn_as"] == "polygon"]
    unsure = np.zeros(len(left), dtype=bool)
    st = status_of(left)
    if st is not None:
        unsure = (st != "determined").to_numpy()
    if len(left):
        shapes(axes[0], left, color=[pale(COLOURS[c]) if u else COLOURS[c]
                                     for c, u in zip(left["category"].astype(str), unsure)],
               edgecolor="#ffffff", linewidth=0.5)
        if unsure.any():
            overlay_hatches(axes[0], left, st)
    listed = right["in_list"].to_numpy(dtype=bool)
    if listed.any():
        shapes(axes[1], right[listed], color=[COLOURS[c] for c in right.loc[listed, "category"]],
               edgecolor="#ffffff", linewidth=0.5)
    if (~listed).any():
        shapes(axes[1], right[~listed], facecolor=COLOUR_ABSENT, edgecolor=EDGE_ABSENT, linewidth=0.4,
               hatch=MISSING_HATCH)
    return _keys(_present(left, right[listed]), undetermined_counts(left), int((~listed).sum()))


def _draw_points(axes, sub, psub, view, body):
    """Both maps of point units (urban bodies around their district's centre); returns the key in a language (a
    function of it)."""
    from .points import unit_points
    from .style import sizes
    left, _ = unit_points(sub.reset_index(drop=True), body)
    right, _ = unit_points(_placeholder(psub).reset_index(drop=True), body)
    v = pd.to_numeric(left["pop"], errors="coerce").astype(float)
    top = float(v.max()) if v.notna().any() else 0.0
    st = status_of(left)
    unsure = np.zeros(len(left), dtype=bool) if st is None else (st != "determined").to_numpy()
    axes[0].scatter(left["lon"], left["lat"], s=sizes(left["pop"], 8, 120, top),
                    c=[pale(COLOURS[c]) if u else COLOURS[c] for c, u in zip(left["category"], unsure)],
                    edgecolors="#202020", linewidths=0.4, zorder=5)
    if unsure.any():
        for k in UNDETERMINED:
            sel = (st == k).to_numpy()
            if sel.any():
                axes[0].scatter(left["lon"][sel], left["lat"][sel], s=sizes(left["pop"], 8, 120, top)[sel],
                                facecolors="none", edgecolors=HATCH_COLOUR, linewidths=0.0, hatch=HATCHES[k],
                                hatch_linewidth=HATCH_WIDTH,
                                zorder=5)
    listed = right["in_list"].to_numpy(dtype=bool)
    s_right = sizes(right["pop"], 8, 120, top)
    axes[1].scatter(right["lon"][listed], right["lat"][listed], s=s_right[listed],
                    c=[COLOURS[c] for c in right.loc[listed, "category"]], edgecolors="#202020", linewidths=0.4,
                    zorder=5)
    if (~listed).any():
        axes[1].scatter(right["lon"][~listed], right["lat"][~listed], s=s_right[~listed], facecolors=COLOUR_ABSENT,
                        edgecolors="#202020", linewidths=0.4, hatch=MISSING_HATCH, zorder=5)
    return _keys(_present(left, right[listed]), undetermined_counts(left), int((~listed).sum()))


def _draw_shares(axes, sub, psub, view, body):
    """Both maps of units without a shape (blocks): each district shaded by the share of its units reserved,
    computed and published on one scale; on the published map a district with units the list lacks is hatched.
    Returns the key in a language (a function of it)."""
    from matplotlib.colors import LinearSegmentedColormap
    from matplotlib.patches import Patch

    from .aggregate import district_aggregate
    from .boundaries import district_boundaries
    agg_l, _ = district_aggregate(sub)
    agg_r, _ = district_aggregate(psub[psub["in_list"]])
    b = district_boundaries()
    cmap = LinearSegmentedColormap.from_list("reserved", ["#ffffff", "#252525"])
    for ax, agg in zip(axes, (agg_l, agg_r)):
        if len(agg):
            g = b.set_index("unit_code").loc[agg["unit_code"]].reset_index()
            shapes(ax, g, color=[cmap(float(x)) for x in agg["share_reserved"]], edgecolor=EDGE_ABSENT,
                   linewidth=0.3)
    if "undetermined" in agg_l.columns and int(agg_l["undetermined"].sum()):
        some = agg_l["undetermined"].to_numpy() > 0
        g = b.set_index("unit_code").loc[agg_l["unit_code"][some]].reset_index()
        overlay_hatches(axes[0], g, pd.Series(["depends_obc"] * len(g)))
    lacking = psub[~psub["in_list"]]
    if len(lacking):
        agg_m, _ = district_aggregate(lacking.assign(category="UR"))
        g = b.set_index("unit_code").loc[agg_m["unit_code"]].reset_index()
        shapes(axes[1], g, facecolor="none", edgecolor=HATCH_COLOUR, linewidth=0.0, hatch=MISSING_HATCH)
    unsure = int(agg_l["undetermined"].sum()) if "undetermined" in agg_l.columns else 0

    def keys(lang: str) -> list:
        handles = [Patch(facecolor=cmap(q), edgecolor="#808080", linewidth=0.5,
                         label=f"{q * 100:g} %") for q in (1.0, 0.5, 0.0)]
        if unsure:
            handles.append(Patch(facecolor="#ffffff", edgecolor=HATCH_COLOUR, hatch=HATCHES["depends_obc"],
                                 hatch_linewidth=HATCH_WIDTH,
                                 label=word("map.status.units_undetermined", lang, n=unsure,
                                            total=int(agg_l["units"].sum()))))
        if len(lacking):
            handles.append(_missing_handle(len(lacking), lang))
        return handles
    return keys


def write_published_maps(table: pd.DataFrame, stem, published: pd.DataFrame | None = None, division=None,
                         title: str | dict | None = None, langs=LANGS, dpi: int = 100, body: str | None = None,
                         force: bool = False) -> list[dict]:
    """:func:`published_static_figure` as ``{stem}-{lang}.png`` and ``.svg`` for each language (the same bytes
    for the same inputs; every target checked first: :func:`reservation.output.guard.check_new_file`). Returns one
    dict per language: ``lang, png, svg, differ, listed``."""
    from ...output.guard import check_new_file
    stem = Path(stem)
    langs = [check_lang(x) for x in langs]
    for lang in langs:
        for ext in ("png", "svg"):
            check_new_file(Path(f"{stem}-{lang}.{ext}"), flag="stem", force=force)
    differ, listed = published_differ(in_division(published_frame(table, published), division))
    out = []
    for lang, fig in published_static_figures(table, published, langs, division=division, title=title, body=body):
        png, svg = Path(f"{stem}-{lang}.png"), Path(f"{stem}-{lang}.svg")
        save_figure(fig, png, svg, dpi=dpi, lang=lang, force=force)
        out.append({"lang": lang, "png": png, "svg": svg, "differ": differ, "listed": listed})
    return out
