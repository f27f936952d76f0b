"""Maps of an allotment whose units are districts (zp-chair): an interactive, offline plotly map
(:func:`choropleth`) and a static matplotlib map (:func:`static_figure`, :func:`static_map`: PNG/SVG, or kaleido)."""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ...categories import CODES, COLOURS, label
from ...words import check_lang, word
from ..places import unit_names
from .boundaries import (DEFAULT_SIMPLIFY_TOLERANCE, _district_boundaries_cached, _division_boundaries_cached,
                         join_allotment, state_outline)
from .style import (COLOUR_ABSENT, EDGE_ABSENT, center, chromium_path, division_column, division_outline,
                    fit_zoom, font_rc, geojson, hover_text, hover_wrap, not_drawn_note, present_codes, save_figure, source_note,
                    system_has_devanagari, view_bounds)

__all__ = ["choropleth", "static_figure", "static_map", "StaticMapResult"]


def choropleth(allotment: pd.DataFrame, title: str | None = None, lang: str = "en", *,
               simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, height: int = 650,
               width: int | None = None, level: str | None = None, size_column: str = "pop_total", division=None):
    """An interactive map of an allotment: a plotly Figure that needs no network.

    Districts are filled with their category's colour (:data:`reservation.categories.COLOURS`), legend
    entries labelled with :func:`reservation.categories.label` in ``lang`` ("en" or "hi") and ordered as in
    the GO. Hovering shows name, division, category and reason. Division boundaries are drawn as dark lines;
    districts absent from the allotment are white with a grey edge. Units drawn as points (see
    :func:`join_allotment`) are circles in their category's colour, sized by ``size_column`` when present.
    Units with no shape are counted in a note under the map; get them with :func:`join_allotment`.
    ``division``: zoom on that division (or list); the rest of the State stays as context.

    Uses ``Choroplethmap`` on the ``white-bg`` style (MapLibre, no tiles) and no text-mode trace.
    """
    import plotly.graph_objects as go

    lang = check_lang(lang)
    tol = float(simplify_tolerance)
    drawn, not_drawn = join_allotment(allotment, simplify_tolerance=tol, level=level)
    polys = drawn[drawn["drawn_as"] == "polygon"].copy()
    points = drawn[drawn["drawn_as"] == "point"].copy()
    codes_present = present_codes(drawn)
    labels = {c: label(c, lang) for c in CODES}

    for df in (polys, points):
        df["_name"] = hover_text(unit_names(df, lang))
        df["_division"] = hover_text(division_column(df, lang))
        df["_category"] = df["category"].astype(str).map(labels)
        df["_reason"] = df["reason"].astype(str).map(hover_wrap) if "reason" in df.columns else ""
        df["_id"] = pd.to_numeric(df["unit_code"]).astype(int).astype(str)

    t = {k: word(f"map.{k}", lang) for k in ("division", "category", "reason", "absent", "division_line")}
    hover = (f"<b>%{{customdata[0]}}</b><br>{t['division']}: %{{customdata[1]}}<br>"
             f"{t['category']}: %{{customdata[2]}}<br>{t['reason']}: %{{customdata[3]}}<extra></extra>")
    b = _district_boundaries_cached(tol)
    fig = go.Figure()

    absent = b[~b["unit_code"].isin(pd.to_numeric(polys["unit_code"]).astype(int))]
    if len(absent):
        fig.add_trace(go.Choroplethmap(
            geojson=geojson(absent), locations=absent["unit_code"].astype(str).tolist(),
            z=[0] * len(absent), colorscale=[[0, COLOUR_ABSENT], [1, COLOUR_ABSENT]], showscale=False,
            marker={"line": {"color": EDGE_ABSENT, "width": 0.6}}, name=t["absent"], showlegend=True,
            customdata=np.column_stack([hover_text(unit_names(absent, lang)),
                                        hover_text(division_column(absent, lang))]).tolist(),
            hovertemplate=f"<b>%{{customdata[0]}}</b><br>{t['division']}: %{{customdata[1]}}<br>"
                          f"{t['absent']}<extra></extra>"))

    for c in codes_present:
        p = polys[polys["category"].astype(str) == c]
        if not len(p):
            continue
        codes_c = pd.to_numeric(p["unit_code"]).astype(int)
        # Each trace carries only its own districts' GeoJSON (plotly.express would copy all into each).
        fig.add_trace(go.Choroplethmap(
            geojson=geojson(b.set_index("unit_code").loc[codes_c].reset_index()), locations=p["_id"].tolist(),
            z=[1] * len(p), colorscale=[[0, COLOURS[c]], [1, COLOURS[c]]], showscale=False,
            marker={"line": {"color": "#ffffff", "width": 0.6}, "opacity": 1.0},
            name=labels[c], legendgroup=labels[c], showlegend=True,
            customdata=np.column_stack([p["_name"], p["_division"], p["_category"], p["_reason"]]).tolist(),
            hovertemplate=hover))

    if len(points):
        size = None
        if size_column in points.columns:
            v = pd.to_numeric(points[size_column], errors="coerce")
            if v.notna().any() and v.max() > 0:
                size = (6 + 24 * np.sqrt(v.fillna(0) / v.max())).round(1).tolist()
        polys_cats = set(polys["category"].astype(str))
        for c in codes_present:
            sel = points["category"].astype(str) == c
            if not sel.any():
                continue
            p = points[sel]
            fig.add_trace(go.Scattermap(
                lon=[g.x for g in p.geometry], lat=[g.y for g in p.geometry], mode="markers",
                marker={"color": COLOURS[c], "size": [size[i] for i in np.flatnonzero(sel)] if size else 9,
                        "opacity": 0.9},
                name=labels[c], legendgroup=labels[c], showlegend=c not in polys_cats,
                customdata=np.column_stack([p["_name"], p["_division"], p["_category"], p["_reason"]]).tolist(),
                hovertemplate=hover))

    lons, lats = division_outline(tol)
    fig.add_trace(go.Scattermap(lon=lons, lat=lats, mode="lines", line={"color": "#303030", "width": 1.6},
                                name=t["division_line"], hoverinfo="skip", showlegend=True))

    notes = [n for n in (not_drawn_note(not_drawn, lang), source_note(lang, tol)) if n]
    bounds = view_bounds(division)
    top, bottom = (60 if title else 10), 20 + 18 * len(notes)
    map_w = 700 if width is None else max(width - 20 - 260, 200)   # the legend sits right of the map
    fig.update_layout(
        title={"text": title} if title else None, height=height, width=width,
        map={"style": "white-bg", "center": center(bounds), "zoom": fit_zoom(bounds, map_w, height - top - bottom)},
        legend={"title": {"text": word("map.category", lang)}, "itemsizing": "constant",
                "bgcolor": "rgba(255,255,255,0.85)"},
        margin={"l": 10, "r": 10, "t": top, "b": bottom},
        annotations=[{"text": n, "xref": "paper", "yref": "paper", "x": 0, "y": -0.01 - 0.035 * i,
                      "yanchor": "top", "xanchor": "left", "showarrow": False, "font": {"size": 11}}
                     for i, n in enumerate(notes)],
    )
    return fig


def static_figure(allotment: pd.DataFrame, title: str | None = None, lang: str = "en", *,
                  simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, level: str | None = None,
                  district_labels: bool = False, figsize: tuple[float, float] = (11.0, 9.0),
                  size_column: str = "pop_total"):
    """The static map as a matplotlib Figure (no pyplot, no browser): what :func:`static_map` saves.

    Same content as :func:`choropleth`: category colours, legend with category labels in ``lang`` and the
    count of districts per category, division outlines, a note on units not drawn and on the boundary source.
    ``district_labels=True`` writes each district's name on it (small type).
    """
    import geopandas as gpd
    import matplotlib
    from matplotlib import patheffects
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    lang = check_lang(lang)
    tol = float(simplify_tolerance)
    drawn, not_drawn = join_allotment(allotment, simplify_tolerance=tol, level=level)
    polys = drawn[drawn["drawn_as"] == "polygon"]
    points = drawn[drawn["drawn_as"] == "point"]
    b = _district_boundaries_cached(tol)
    divs = _division_boundaries_cached(tol)

    rc = font_rc(lang)
    with matplotlib.rc_context(rc):
        fig = Figure(figsize=figsize, layout="constrained")
        ax = fig.add_subplot()
        ax.set_axis_off()
        minx, miny, maxx, maxy = b.total_bounds
        ax.set_aspect(1 / np.cos(np.radians((miny + maxy) / 2)))

        absent = b[~b["unit_code"].isin(pd.to_numeric(polys["unit_code"]).astype(int))]
        if len(absent):
            absent.plot(ax=ax, facecolor=COLOUR_ABSENT, edgecolor=EDGE_ABSENT, linewidth=0.4, hatch="////")
        if len(polys):
            polys.plot(ax=ax, color=[COLOURS[c] for c in polys["category"].astype(str)], edgecolor="#ffffff",
                       linewidth=0.4)
        divs.boundary.plot(ax=ax, color="#303030", linewidth=1.1)
        gpd.GeoSeries([state_outline(tol)], crs=4326).boundary.plot(ax=ax, color="#000000", linewidth=1.4)

        if len(points):
            v = (pd.to_numeric(points[size_column], errors="coerce") if size_column in points.columns
                 else pd.Series(np.nan, index=points.index))
            s = (20 + 300 * np.sqrt(v.fillna(0) / v.max())) if v.notna().any() and v.max() > 0 else 30
            ax.scatter([g.x for g in points.geometry], [g.y for g in points.geometry],
                       c=[COLOURS[c] for c in points["category"].astype(str)], s=s, edgecolors="#202020",
                       linewidths=0.5, zorder=5)

        if district_labels:
            names = unit_names(b, lang)
            for g, n in zip(b.geometry, names):
                p = g.representative_point()
                ax.annotate(n, (p.x, p.y), ha="center", va="center", fontsize=5, color="#111111", zorder=6,
                            path_effects=[patheffects.withStroke(linewidth=1.6, foreground="#ffffff")])

        counts = drawn["category"].astype(str).value_counts()
        handles = [Patch(facecolor=COLOURS[c], edgecolor="#808080", linewidth=0.5,
                         label=f"{label(c, lang)} ({int(counts.get(c, 0))})") for c in present_codes(drawn)]
        if len(absent):
            handles.append(Patch(facecolor=COLOUR_ABSENT, edgecolor=EDGE_ABSENT, hatch="////",
                                 label=f"{word('map.absent', lang)} ({len(absent)})"))
        handles.append(Line2D([], [], color="#303030", linewidth=1.1, label=word("map.division_line", lang)))
        ax.legend(handles=handles, title=word("map.category", lang), loc="upper right", fontsize=9,
                  title_fontsize=10, frameon=True, framealpha=0.95)
        if title:
            ax.set_title(title, fontsize=14)
        notes = [n for n in (not_drawn_note(not_drawn, lang, limit=6), source_note(lang, tol)) if n]
        fig.text(0.01, 0.005, "\n".join(notes), fontsize=7.5, color="#404040", ha="left", va="bottom")
    fig._reservation_rc = rc
    return fig


@dataclass(frozen=True)
class StaticMapResult:
    """What :func:`static_map` wrote."""
    png: Path | None
    svg: Path | None
    engine: str                  # "matplotlib" or "kaleido"
    not_drawn: pd.DataFrame      # units with no shape (see join_allotment)
    seconds: float


def static_map(allotment: pd.DataFrame, png_path=None, svg_path=None, title: str | None = None,
               lang: str = "en", *, engine: str = "matplotlib", dpi: int = 150,
               simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, level: str | None = None,
               district_labels: bool = False, **figure_kw) -> StaticMapResult:
    """Write the map of an allotment as PNG and/or SVG, with no network and no browser by default.

    ``engine``: ``"matplotlib"`` (default; geopandas + matplotlib, text in SVG as paths so the SVG shows Hindi
    without the font installed), ``"kaleido"`` (the :func:`choropleth` figure through kaleido; needs Debian's
    chromium, raises RuntimeError without it), or ``"auto"`` (kaleido if chromium is present, else matplotlib).
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
    png = Path(png_path) if png_path is not None else None
    svg = Path(svg_path) if svg_path is not None else None
    start = time.perf_counter()
    if engine == "kaleido":
        if lang == "hi" and not system_has_devanagari():
            warnings.warn("kaleido draws text with the system's fonts and none covers Devanagari: Hindi will show "
                          "as empty boxes. apt-get install fonts-noto-core, or use engine='matplotlib'.",
                          RuntimeWarning, stacklevel=2)
        fig = choropleth(allotment, title=title, lang=lang, simplify_tolerance=simplify_tolerance, level=level,
                         width=1100, height=900, division=figure_kw.get("division"))
        for p in (png, svg):
            if p is not None:
                p.parent.mkdir(parents=True, exist_ok=True)
                fig.write_image(str(p), scale=2 if p.suffix.lower() == ".png" else 1)
    else:
        fig = static_figure(allotment, title=title, lang=lang, simplify_tolerance=simplify_tolerance,
                            level=level, district_labels=district_labels, **figure_kw)
        save_figure(fig, png, svg, dpi=dpi, lang=lang)
    _, not_drawn = join_allotment(allotment, simplify_tolerance=simplify_tolerance, level=level)
    return StaticMapResult(png=png, svg=svg, engine=engine, not_drawn=not_drawn,
                           seconds=round(time.perf_counter() - start, 3))
