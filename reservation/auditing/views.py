"""What notebook 06 (``notebooks/06_audit.ipynb``) shows of an audit: the findings as a table and a map, the rules,
the flags, and the worked example of two published lists. The notebook only calls these functions.

- :func:`find_published`: a published list by path, or by file name in the project's ``data/published/``;
- :func:`verdicts_view`: the verdicts, one per rule of the passes, in English or Hindi (before the tables);
- :func:`flags_view`: the flags of the published list with what each means (a question, not a finding);
- :func:`summary_table`, :func:`rules_table`, :func:`findings_table`, :func:`style_findings`: tables (the styled
  one escapes every string for HTML);
- :func:`findings_map`: an offline plotly map (MapLibre ``white-bg``, nothing fetched) with every district
  coloured by its finding (:data:`FINDING_COLOURS`); for units that are not districts (blocks, wards, urban
  bodies) each district is coloured by the most serious finding among its units, with the counts in the hover;
- :func:`swap_table`: the worked example's table (two published lists on two base years).
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import numpy as np
import pandas as pd

from .audit import FINDINGS
from .verdicts import verdict_lines
from ..base.errors import InputError
from ..inputs.units import DATA_DIR
from ..law.words import word

__all__ = ["FINDING_COLOURS", "FINDING_WORDS", "SERIOUS", "find_published", "summary_table", "rules_table", "findings_table",
           "style_findings", "findings_map", "options_table", "swap_table", "verdicts_view", "flags_view"]

#: one colour per finding, the same in the map, the legend and the table (colour-blind-safe hues: violations warm,
#: explanations cool, a match grey)
FINDING_COLOURS = {
    "match": "#d9d9d9", "violation_count": "#67001f", "violation_rotation": "#b2182b",
    "violation_order": "#d6604d", "violation_women": "#f4a582", "violation_division": "#8c510a",
    "explained_by_option": "#4393c3", "depends_on_unpublished_data": "#8073ac", "unexplained": "#000000",
    "not_in_list": "#ffffff",
}
#: what each finding means, in English (reservation.law.words, ``audit.finding.*``, has both languages)
FINDING_WORDS = {f: word(f"audit.finding.{f}", "en") for f in FINDINGS}


#: the findings from the most serious to the least (tables sort by it; a district of blocks takes its most serious)
SERIOUS = ("violation_count", "violation_rotation", "violation_order", "violation_women", "violation_division",
           "unexplained", "depends_on_unpublished_data", "explained_by_option", "match", "not_in_list")


def find_published(name) -> Path:
    """A published list: the path as given if it is a file, else the file of that name in ``data/published/``."""
    p = Path(str(name))
    if p.is_file():
        return p
    shipped = DATA_DIR / "published" / p.name
    if shipped.is_file():
        return shipped
    have = sorted(x.name for x in (DATA_DIR / "published").glob("*.csv")) if (DATA_DIR / "published").is_dir() else []
    raise InputError(f"published list not found (neither a file nor one of data/published: "
                     f"{', '.join(have) or 'none shipped'})", file=str(name))


def summary_table(result, lang: str = "en") -> pd.DataFrame:
    """Units per finding, with what the finding means (in ``lang``)."""
    s = result.summary.copy()
    s["means"] = [word(f"audit.finding.{f}", lang) for f in s["finding"]]
    return s


def verdicts_view(result, lang: str = "en"):
    """The audit's verdicts (:mod:`reservation.auditing.verdicts`), one per rule of the passes, as escaped HTML: the
    heading, then a list."""
    from IPython.display import HTML
    lines = verdict_lines(result.verdicts, lang)
    if not lines:
        return HTML("")
    items = "".join(f"<li>{html.escape(t)}</li>" for t in lines[1:])
    return HTML(f"<p>{html.escape(lines[0])}</p><ul>{items}</ul>")


def flags_view(result, lang: str = "en"):
    """The constitutional flags of the published list (escaped HTML), after what each kind means: a question to ask
    of the list, not a finding that it is unlawful (the words ``allot`` prints, :func:`reservation.law.words.
    flag_meanings`). Without flags: that none was raised."""
    from IPython.display import HTML
    from ..views.tables import flag_notes, flags_table, html_table
    shown = flags_table(result.flags)
    if not len(shown):
        return HTML(f"<p>{html.escape(word('flag.none', lang))}</p>")
    return HTML(flag_notes(shown, lang).data + html_table(shown).to_html())


def rules_table(result) -> pd.DataFrame:
    """Whether each rule held (step, rule, held, units), one row per rule and pass."""
    return result.rules[["step", "rule", "held", "units", "clause"]].copy()


def findings_table(result, differences_only: bool = False) -> pd.DataFrame:
    """The audit table (units that differ from the computation first when ``differences_only`` is False)."""
    t = result.table.copy()
    if differences_only:
        t = t[t["finding"] != "match"]
    rank = {f: i for i, f in enumerate(SERIOUS)}
    t = t.assign(_r=t["finding"].map(rank)).sort_values(["_r", "unit_name_en"], kind="stable").drop(columns="_r")
    return t.reset_index(drop=True)


def style_findings(df: pd.DataFrame):
    """A pandas Styler: the finding cell in its colour; every string escaped for HTML."""
    def colour(v):
        c = FINDING_COLOURS.get(v)
        if c is None:
            return ""
        dark = int(c[1:3], 16) * 0.299 + int(c[3:5], 16) * 0.587 + int(c[5:7], 16) * 0.114 < 140
        return f"background-color: {c}; color: {'#ffffff' if dark else '#000000'}"
    from ..views.styled import styled           # a fixed uuid and no memory address: same bytes every run
    return styled(df, "style_findings").format(escape="html").map(colour, subset=["finding"]).hide(axis="index")


def _boundaries():
    from ..views.maps import district_boundaries, division_boundaries
    return district_boundaries(), division_boundaries()


def _by_district(result) -> pd.DataFrame:
    """One row per district drawn: unit_code (LGD district), finding (the most serious), names, counts."""
    t = result.table
    units = result.computed.units
    rank = {f: i for i, f in enumerate(FINDINGS)}
    serious = {f: i for i, f in enumerate(SERIOUS)}
    if result.computed.unit_kind == "district":
        d = t[["unit_code", "unit_name_en", "finding", "published", "computed", "detail"]].copy()
        d["units"] = 1
        d["counts"] = d["finding"]
        return d
    if "district_lgd_code" not in units.columns:
        return pd.DataFrame(columns=["unit_code", "finding", "units", "counts"])
    dist = dict(zip(units["unit_code"].astype(int), units["district_lgd_code"].astype(int)))
    t = t.assign(district_code=t["unit_code"].map(dist))
    rows = []
    for code, g in t.groupby("district_code"):
        worst = min(g["finding"], key=lambda f: serious[f])
        counts = g["finding"].value_counts()
        rows.append({"unit_code": int(code), "finding": worst, "units": len(g),
                     "counts": ", ".join(f"{f} {int(counts[f])}" for f in sorted(counts.index, key=rank.get))})
    return pd.DataFrame(rows)


def findings_map(result, title: str | None = None, height: int = 650):
    """An interactive map coloured by finding (districts; other units counted per district). Returns a plotly
    Figure; every string in the hover is escaped."""
    import plotly.graph_objects as go

    districts, divisions = _boundaries()
    d = _by_district(result)
    b = districts.merge(d, on="unit_code", how="left", suffixes=("", "_t"))
    fig = go.Figure()
    esc = html.escape
    absent = b[b["finding"].isna()]
    if len(absent):
        geo = json.loads(absent[["unit_code", "geometry"]].to_json())
        fig.add_trace(go.Choroplethmap(geojson=geo, featureidkey="properties.unit_code",
                                       locations=absent["unit_code"].tolist(), z=[0] * len(absent),
                                       colorscale=[[0, "#ffffff"], [1, "#ffffff"]], showscale=False,
                                       marker={"line": {"color": "#9e9e9e", "width": 0.6}}, name="not audited",
                                       hovertext=[esc(str(x)) for x in absent["unit_name_en"]], hoverinfo="text"))
    for f in FINDINGS:
        p = b[b["finding"] == f]
        if not len(p):
            continue
        geo = json.loads(p[["unit_code", "geometry"]].to_json())
        if "published" in p.columns:
            hover = [f"<b>{esc(str(n))}</b><br>{esc(f)}<br>published {esc(str(a))}, computed {esc(str(c))}<br>"
                     f"{esc(str(t)[:240])}" for n, a, c, t in zip(p["unit_name_en"], p["published"],
                                                                  p["computed"], p["detail"])]
        else:
            hover = [f"<b>{esc(str(n))}</b><br>{int(u)} units: {esc(str(c))}"
                     for n, u, c in zip(p["unit_name_en"], p["units"], p["counts"])]
        fig.add_trace(go.Choroplethmap(
            geojson=geo, featureidkey="properties.unit_code", locations=p["unit_code"].tolist(), z=[1] * len(p),
            colorscale=[[0, FINDING_COLOURS[f]], [1, FINDING_COLOURS[f]]], showscale=False,
            marker={"line": {"color": "#ffffff", "width": 0.6}}, name=f"{f} ({len(p)})", showlegend=True,
            hovertext=hover, hoverinfo="text"))
    lons, lats = [], []
    for geom in divisions.geometry.boundary:
        for line in getattr(geom, "geoms", [geom]):
            xs, ys = line.xy
            lons += [round(x, 5) for x in xs] + [None]
            lats += [round(y, 5) for y in ys] + [None]
    fig.add_trace(go.Scattermap(lon=lons, lat=lats, mode="lines", line={"color": "#303030", "width": 1.4},
                                name="division boundary", hoverinfo="skip"))
    minx, miny, maxx, maxy = districts.total_bounds
    fig.update_layout(title={"text": esc(title)} if title else None, height=height,
                      map={"style": "white-bg", "center": {"lon": round((minx + maxx) / 2, 4),
                                                            "lat": round((miny + maxy) / 2, 4)}, "zoom": 5.2},
                      legend={"title": {"text": "finding"}, "bgcolor": "rgba(255,255,255,0.85)"},
                      margin={"l": 10, "r": 10, "t": 50 if title else 10, "b": 10})
    return fig


def options_table(result) -> pd.DataFrame:
    """Every reading the option search tried: the units it explains, or the lawful units it would break (then it
    was refused). Empty when the search did not run (no difference to explain, or ``search_options=False``)."""
    t = result.table
    explained = t[t["finding"] == "explained_by_option"]
    first = [result.explained_by.get(int(u), ((None, None),))[0] for u in explained["unit_code"]]
    rows = []
    for xs in result.options_tried:
        explains = [n for n, x in zip(explained["unit_name_en"], first) if x == xs[0]] if len(xs) == 1 else []
        rows.append({"options": " + ".join(f"{a}={b}" for a, b in xs), "explains": ", ".join(explains),
                     "refused_would_break": ", ".join(result.options_refused.get(xs, []))})
    return pd.DataFrame(rows, columns=["options", "explains", "refused_would_break"])


def swap_table(explanation: dict) -> pd.DataFrame:
    """The worked example: each unit that changes between the two lists, in the pass's order (OBC assumed)."""
    t = explanation["table"].copy()
    t["order"] = t["order"].astype(np.int64)
    return t
