"""The hand-checked five-district toy state, for teaching: its allotment under the real Zila Panchayat chair rules,
the rule steps one by one, and a schematic picture of each step. The toy data live in data/toy/ (copies of
tests/fixtures/toy/, kept equal by a test)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..law.categories import CODES, COLOURS, label
from ..base.errors import InputError
from ..inputs.units import DATA_DIR
from ..law.words import check_lang
from .params import option_assignments
from .maps.style import hover_text
from .places import unit_names
from .tables import text_colour

__all__ = ["TOY_DIR", "TOY_DISTRICTS", "TOY_HISTORY", "TOY_UNITS", "toy_allotment", "toy_steps", "toy_state",
           "toy_figure"]

#: The hand-checked five-district toy state (a copy of tests/fixtures/toy/five*.csv; a test keeps them equal).
TOY_DIR = DATA_DIR / "toy"
TOY_DISTRICTS = TOY_DIR / "five.csv"
TOY_HISTORY = TOY_DIR / "five_history_2015.csv"
#: Made-up units files (data/toy/README.md) for the bodies counted inside a parent, whose units and populations
#: are not public: the explorer starts with them so that every body can be tried. Body -> file (the Zila
#: Panchayat wards count inside their district, the others inside a block or gram panchayat).
TOY_UNITS = {"gp-pradhan": TOY_DIR / "units_toy.csv", "gp-ward": TOY_DIR / "units_toy.csv",
             "kp-ward": TOY_DIR / "units_toy.csv", "zp-ward": TOY_DIR / "units_toy_zp_ward.csv"}

def toy_allotment(options=(), districts=None, history=None):
    """The five-district toy state (data/toy/, README in tests/fixtures/toy/) through the real Zila Panchayat
    chair rules: Alpha OBC_W, Beta SC_W, Gamma, Delta, Epsilon UR with the default options."""
    from ..allotment.pipeline import allot
    return allot("zp-chair", 2021, units=districts or TOY_DISTRICTS, history=[history or TOY_HISTORY],
                 options=option_assignments(options))


_NO_POSTS = "no_posts"


def toy_steps(result) -> pd.DataFrame:
    """The rule steps of a (small) allotment, one per row, in the order the rules applied them.

    Step 1 is the State counts; then each trace row (a unit ranked in a pass and what the pass decided), except
    that the units of a pass with no posts form one step, and the units left unreserved form the last step.
    Columns: ``step, pass, unit_codes`` (tuple), ``units`` (names), ``decision``, ``category`` (given in this step,
    or ""), ``clause``, ``text`` (a sentence for the reader).
    """
    counts = result.counts
    arith = "; ".join(f"{c} {int(n)}" for c, n in zip(counts["category"], counts["count"]) if c != "TOTAL")
    rows = [{"pass": "counts", "unit_codes": (), "units": "", "decision": "State counts", "category": "",
             "clause": "; ".join(dict.fromkeys(str(c) for c in counts["clause"] if str(c))),
             "text": f"State counts for {int(counts['count'].iat[-1])} offices: {arith}."}]
    tr = result.trace
    i = 0
    while i < len(tr):
        r = tr.iloc[i]
        if r["decision"] in (_NO_POSTS, "unreserved"):
            j = i
            while j < len(tr) and tr.iloc[j]["pass"] == r["pass"] and tr.iloc[j]["decision"] == r["decision"]:
                j += 1
            grp = tr.iloc[i:j]
            names = ", ".join(grp["unit_name_en"])
            if r["decision"] == _NO_POSTS:
                text = f"Pass {r['pass']}: no posts of this group to fill, so no unit is ranked ({names})."
                cat = ""
            else:
                text = f"Every unit not reached by a category pass is unreserved (UR): {names}."
                cat = "UR"
            rows.append({"pass": r["pass"], "unit_codes": tuple(int(c) for c in grp["unit_code"]), "units": names,
                         "decision": r["detail"], "category": cat, "clause": str(r["clause"]), "text": text})
            i = j
            continue
        text = f"Pass {r['pass']}: {r['unit_name_en']}"
        if not pd.isna(r["rank"]):
            text += f" is number {int(r['rank'])} of {int(r['pool'])} by {r['key']}"
        if not pd.isna(r["tier"]):
            text += f"; rotation tier {int(r['tier'])} ({r['tier_reason']})"
        text += f" -> {r['detail']}."
        if r["tie_break"]:
            text += f" Tie: {r['tie_break']}."
        cat = r["category"] if r["decision"] in ("allotted", "pinned") else ""
        rows.append({"pass": r["pass"], "unit_codes": (int(r["unit_code"]),), "units": r["unit_name_en"],
                     "decision": r["detail"], "category": cat or "", "clause": str(r["clause"]), "text": text})
        i += 1
    out = pd.DataFrame(rows)
    out.insert(0, "step", np.arange(1, len(out) + 1))
    return out


def toy_state(result, steps: pd.DataFrame, step: int) -> pd.DataFrame:
    """The units after ``step`` (1-based) of :func:`toy_steps`: ``unit_code, unit_name_en, unit_name_hi, division,
    category`` (given so far, "" while undecided), ``current`` (touched in this step), ``final`` (the category at
    the end, for checking)."""
    if not 1 <= int(step) <= len(steps):
        raise InputError(f"step {step} is not between 1 and {len(steps)}", column="step")
    t = result.table[["unit_code", "unit_name_en", "unit_name_hi", "division", "category"]].rename(
        columns={"category": "final"}).copy()
    got: dict[int, str] = {}
    for _, s in steps.iloc[:int(step)].iterrows():
        if s["category"]:
            for u in s["unit_codes"]:
                got[int(u)] = s["category"]
    cur = set(int(u) for u in steps.iloc[int(step) - 1]["unit_codes"])
    t["category"] = [got.get(int(u), "") for u in t["unit_code"]]
    t["current"] = [int(u) in cur for u in t["unit_code"]]
    return t[["unit_code", "unit_name_en", "unit_name_hi", "division", "category", "current", "final"]]


def toy_figure(state: pd.DataFrame, lang: str = "en", title: str | None = None):
    """A schematic 'map' of a small state: one box per unit, grouped by division, filled with its category's
    colour once decided (white while undecided), the unit of the current step outlined in black."""
    import plotly.graph_objects as go
    check_lang(lang)
    fig = go.Figure()
    divs = list(dict.fromkeys(state["division"]))
    x0 = 0.0
    ann = []
    names = pd.Series(hover_text(unit_names(state, lang)), index=state.index)
    for d in divs:
        part = state[state["division"] == d]
        ann.append({"x": x0 + len(part) / 2 - 0.05, "y": 1.32, "text": f"<b>{hover_text([d])[0]}</b>", "showarrow": False,
                    "font": {"size": 13}})
        for k, (_, r) in enumerate(part.iterrows()):
            x = x0 + k
            fill = COLOURS[r["category"]] if r["category"] else "#ffffff"
            fig.add_shape(type="rect", x0=x, x1=x + 0.9, y0=0, y1=1, fillcolor=fill,
                          line={"color": "#000000" if r["current"] else "#9e9e9e", "width": 4 if r["current"] else 1})
            cat = r["category"] or "?"                    # the code fits the box; the legend has the label
            ann.append({"x": x + 0.45, "y": 0.5, "text": f"{names.loc[_]}<br>{cat}", "showarrow": False,
                        "font": {"size": 12, "color": text_colour(fill)}})
        x0 += len(part) + 0.5
    for c in CODES:
        if c in set(state["category"]):
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=label(c, lang),
                                     marker={"size": 12, "color": COLOURS[c], "symbol": "square"}))
    fig.update_layout(annotations=ann, height=260, xaxis={"visible": False, "range": [-0.2, x0]},
                      yaxis={"visible": False, "range": [-0.1, 1.5]}, plot_bgcolor="#ffffff",
                      margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
                      title={"text": title} if title else None, showlegend=True)
    return fig
