"""Rotation history: each unit's category at every election of the history and in the computed allotment, with
the rotation rule's verdict (notebook 03)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..law.categories import CODES, COLOURS, by_code, category_colourscale, label
from ..base.errors import InputError
from ..law.words import check_lang, verdict_text, word
from .maps.style import hover_text
from .places import division_order, in_division, is_all, place_names, resolve_divisions, unit_names

__all__ = ["VERDICTS", "rotation_matrix", "rotation_summary", "rotation_wide", "rotation_heatmap", "rotation_view"]

#: Verdict codes of :func:`rotation_matrix`: code -> (symbol shown in the heatmap, English words; the
#: Hindi ones: reservation.law.words.VERDICT_TEXT).
_SYMBOLS = {"first": "○", "unreserved": "·", "never": "✓", "not_last": "✓", "repeat": "!", "repeat_allowed": "!",
            "pinned": "P", "no_record": "?"}
VERDICTS = {k: (s, verdict_text(k, "en")) for k, s in _SYMBOLS.items()}


def _option_value(result, name: str, default: str) -> str:
    return str(result.meta.get("options", {}).get(name, {}).get("value", default))


def rotation_matrix(result, units=None, division=None) -> pd.DataFrame:
    """Each unit's category at every election of the history files, then the computed allotment, with the
    rotation rule's verdict for each.

    One row per unit and election: ``unit_code, unit_name_en, unit_name_hi, district, division, election``
    (``"2015"`` or ``"2021 computed"``), ``year``, ``source`` (``history``/``computed``), ``category``, ``group``,
    ``tier`` (1 never reserved for the group in earlier elections since the base year, 2 not at the last one,
    3 at the last one; as :mod:`reservation.law.rotation` computes it), ``verdict`` (a code of :data:`VERDICTS`),
    ``verdict_text``. ``units``: unit codes (or names) to keep; ``division``: a division to keep.
    """
    from ..law.rotation import RotationView, group_codes
    table = result.table
    base = int(result.meta.get("base_year", 2015))
    year = int(result.meta.get("year", 0))
    women = _option_value(result, "women_history", "general_only")
    mode = _option_value(result, "rotation_history", "since_base")
    if mode not in ("since_base", "last_only"):
        mode = "since_base"
    sel = in_division(table, division)
    if units is not None:
        from ..allotment.explain import resolve_unit
        items = [units] if isinstance(units, (str, int, np.integer)) else list(units)
        codes = [resolve_unit(result, u) for u in items]
        sel = sel[sel["unit_code"].isin(codes)]
    info = sel[["unit_code", "unit_name_en", "unit_name_hi", "district", "division"]].reset_index(drop=True)
    ucodes = info["unit_code"].to_numpy(dtype=np.int64)
    hist = result.history if result.history is not None else pd.DataFrame(columns=["unit_code", "year", "category"])
    hist = hist[["unit_code", "year", "category"]].copy()
    hist["year"] = hist["year"].astype(int)
    frames = []
    for y in sorted(int(x) for x in hist["year"].unique()):
        h = hist[hist["year"] == y].drop_duplicates("unit_code").set_index("unit_code")["category"]
        cat = pd.Series(ucodes).map(h)
        view = RotationView(hist, y, base, mode)
        tier = np.full(len(ucodes), -1, dtype=np.int64)
        verdict = np.full(len(ucodes), "no_record", dtype=object)
        for i, c in enumerate(cat):
            if pd.isna(c):
                continue
            if c == "UR":
                verdict[i] = "unreserved"
                continue
            if view.last_year is None:
                verdict[i] = "first"
                continue
            t = int(view.tiers_for(np.asarray([ucodes[i]]), group_codes(by_code(c).group, women))[0])
            tier[i] = t
            verdict[i] = {1: "never", 2: "not_last", 3: "repeat"}[t]
        frames.append(info.assign(election=str(y), year=y, source="history",
                                  category=cat.astype(object).where(cat.notna(), "").to_numpy(),
                                  tier=tier, verdict=verdict))
    comp = table.set_index("unit_code").loc[ucodes]
    tier = pd.array(comp["tier"].to_numpy(), dtype="Int64")
    verdict = []
    decision = comp["decision"].astype(str) if "decision" in comp.columns else pd.Series("", index=comp.index)
    for c, t, d in zip(comp["category"], tier, decision):
        if d == "pinned":                                 # the engine's typed decision code
            verdict.append("pinned")
        elif c == "UR":
            verdict.append("unreserved")
        elif pd.isna(t):
            verdict.append("first")
        else:
            prev = [y for y in hist["year"].unique() if base <= y < year]
            verdict.append("first" if not prev else {1: "never", 2: "not_last", 3: "repeat_allowed"}[int(t)])
    frames.append(info.assign(election=f"{year} computed", year=year, source="computed",
                              category=comp["category"].to_numpy(),
                              tier=np.where(pd.isna(tier), -1, tier.to_numpy(dtype="float", na_value=-1)).astype(int),
                              verdict=verdict))
    out = pd.concat(frames, ignore_index=True)
    out["group"] = [by_code(c).group if c else "" for c in out["category"]]
    out["tier"] = pd.array(np.where(out["tier"] < 0, None, out["tier"]), dtype="Int64")
    out["verdict_text"] = out["verdict"].map(lambda v: VERDICTS[v][1])
    cols = ["unit_code", "unit_name_en", "unit_name_hi", "district", "division", "election", "year", "source",
            "category", "group", "tier", "verdict", "verdict_text"]
    return out[cols]


def rotation_summary(matrix: pd.DataFrame) -> pd.DataFrame:
    """Elections x verdicts: how many units got each verdict at each election (columns in :data:`VERDICTS`
    order, only those that occur), plus the number of units."""
    order = [v for v in VERDICTS if v in set(matrix["verdict"])]
    elections = list(dict.fromkeys(matrix.sort_values(["year", "source"], kind="stable")["election"]))
    t = pd.crosstab(matrix["election"], matrix["verdict"]).reindex(index=elections, columns=order, fill_value=0)
    t["units"] = t.sum(axis=1)
    t.columns.name = None
    return t.astype(int)


def rotation_wide(matrix: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """One row per unit, one column per election: ``"SC_W ✓"`` (category code and the verdict's symbol, see
    :data:`VERDICTS`); the unit's name in ``lang`` and its district."""
    check_lang(lang)
    elections = list(dict.fromkeys(matrix.sort_values(["year", "source"], kind="stable")["election"]))
    cell = matrix["category"].where(matrix["category"] != "", "—") + " " + matrix["verdict"].map(lambda v: VERDICTS[v][0])
    t = matrix.assign(_cell=cell).pivot_table(index="unit_code", columns="election", values="_cell", aggfunc="first")
    t = t.reindex(columns=elections).fillna("")
    info = matrix.drop_duplicates("unit_code").set_index("unit_code")
    order = division_order()
    info = info.assign(_o=info["division"].map(order).fillna(len(order))).sort_values(
        ["_o", "district", "unit_name_en"], kind="stable")
    out = pd.DataFrame({word("table.unit", lang): unit_names(info.reset_index(), lang).to_numpy(),
                        word("table.district", lang): place_names(info["district"], "district", lang).to_numpy()})
    for e in elections:
        out[e] = t.loc[info.index, e].to_numpy()
    return out


def rotation_heatmap(matrix: pd.DataFrame, lang: str = "en", title: str | None = None, max_units: int = 200):
    """A heatmap: units (rows) x elections (columns), each cell in its category's map colour with the verdict's
    symbol (✓ rotated, ! repeat, · unreserved, ○ first election, ? no record). Hover: category and verdict.
    More than ``max_units`` units raise an InputError (choose a division or a unit)."""
    import plotly.graph_objects as go
    check_lang(lang)
    units = matrix.drop_duplicates("unit_code")
    if len(units) > max_units:
        raise InputError(f"{len(units)} units are too many for one heatmap (at most {max_units}): choose a division "
                         f"or a unit", column="division")
    order = division_order()
    units = units.assign(_o=units["division"].map(order).fillna(len(order))).sort_values(
        ["_o", "district", "unit_name_en"], kind="stable")
    ynames = unit_names(units, lang).tolist()
    if not (units["district"].astype(str) == units["unit_name_en"].astype(str)).all():
        dist = place_names(units["district"], "district", lang).tolist()
        ynames = [f"{n} ({d})" for n, d in zip(ynames, dist)]
    ynames = hover_text(ynames)          # tick labels and hover are plotly's small HTML: names escaped
    elections = list(dict.fromkeys(matrix.sort_values(["year", "source"], kind="stable")["election"]))
    idx = {c: i for i, c in enumerate(CODES)}
    m = matrix.set_index(["unit_code", "election"])
    z, text, custom = [], [], []
    for code in units["unit_code"]:
        zr, tr, cr = [], [], []
        for e in elections:
            if (code, e) in m.index:
                r = m.loc[(code, e)]
                c = r["category"]
                zr.append(idx[c] if c else None)
                tr.append(VERDICTS[r["verdict"]][0])
                cr.append([label(c, lang) if c else "—", verdict_text(r["verdict"], lang)])
            else:
                zr.append(None)
                tr.append("")
                cr.append(["—", ""])
        z.append(zr)
        text.append(tr)
        custom.append(cr)
    n = len(CODES)
    scale = category_colourscale()
    fig = go.Figure(go.Heatmap(z=z, x=elections, y=ynames, text=text, texttemplate="%{text}", textfont={"size": 13},
                               customdata=custom, colorscale=scale, zmin=-0.5, zmax=n - 0.5, showscale=False,
                               xgap=2, ygap=1, hovertemplate="<b>%{y}</b><br>%{x}: %{customdata[0]}<br>"
                                                             "%{customdata[1]}<extra></extra>"))
    present = [c for c in CODES if c in set(matrix["category"])]
    for c in present:
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", marker={"size": 12, "color": COLOURS[c],
                                                                             "symbol": "square"},
                                 name=label(c, lang), showlegend=True))
    fig.update_layout(title={"text": title} if title else None, height=max(260, 120 + 22 * len(units)),
                      yaxis={"autorange": "reversed", "type": "category"}, xaxis={"side": "top", "type": "category"},
                      plot_bgcolor="#ffffff", margin={"l": 10, "r": 10, "t": 90 if title else 60, "b": 10},
                      legend={"title": {"text": word("table.category", lang)}})
    return fig


def rotation_view(result, unit: str = "", division="all", lang: str = "en") -> dict:
    """Everything notebook 03 shows: ``matrix``, ``summary``, ``figure`` (None when too many units, with
    ``message``), ``explain`` (the engine's explanation when one unit is asked for) and ``answer`` (that unit's
    published category, status and possible categories, what the page shows first: ``{"en": table, "hi":
    table}`` of :func:`reservation.views.answers.unit_answer`; empty without a unit)."""
    unit = str(unit or "").strip()
    if unit:
        matrix = rotation_matrix(result, units=[unit])
    else:
        names = None if is_all(division) else resolve_divisions(division)
        matrix = rotation_matrix(result, division=names)
    out = {"matrix": matrix, "summary": rotation_summary(matrix), "figure": None, "message": "", "explain": "",
           "answer": {}}
    try:
        out["figure"] = rotation_heatmap(matrix, lang=lang)
    except InputError as e:
        out["message"] = str(e)
    if unit:
        from ..allotment.explain import explain_text
        from ..allotment.explain import resolve_unit

        from .answers import unit_answer
        out["explain"] = explain_text(result, unit)
        code = str(resolve_unit(result, unit))
        out["answer"] = {lang: unit_answer(result, code, lang) for lang in ("en", "hi")}
    return out
