"""The hand-checked toy states, for teaching (docs/teaching.md): their allotment under the real Zila Panchayat
chair rules, the rule steps one by one in English or Hindi, and a schematic picture of each step whose boxes show
what explains it (the share ranked in the pass, the earlier category and rotation tier, the category decided).
The toy data live in data/toy/ (copies of tests/fixtures/toy/, kept equal by a test).

Two toy states: ``five`` (rotation, the OBC tie-break; five.csv with the 2015 history) and ``division`` (the
division rule frees a district; saturation.csv, no history). The words of every step come from
:mod:`reservation.law.words` (``toy.*``), filled from the trace's codes and numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..allotment.render import key_texts, render_trace
from ..base.errors import InputError
from ..inputs.units import DATA_DIR
from ..law.categories import CODES, COLOURS, label
from ..law.words import check_lang, word
from .maps.style import hover_text
from .params import option_assignments
from .places import unit_names
from .tables import text_colour

__all__ = ["TOY_DIR", "TOY_DISTRICTS", "TOY_HISTORY", "TOY_UNITS", "TOY_STATES", "toy_allotment", "toy_steps",
           "toy_state", "toy_table", "toy_figure", "toy_title", "is_toy_units", "toy_units_figure", "data_kind",
           "allotment_title", "box_lines"]

#: The hand-checked five-district toy state (a copy of tests/fixtures/toy/five*.csv; a test keeps them equal).
TOY_DIR = DATA_DIR / "toy"
TOY_DISTRICTS = TOY_DIR / "five.csv"
TOY_HISTORY = TOY_DIR / "five_history_2015.csv"
#: The toy states of the explorer and docs/teaching.md: name -> (districts, history or None). ``division``: five
#: districts in two divisions where the division rule leaves Elm unreserved (tests/fixtures/toy/saturation.csv).
TOY_STATES = {"five": (TOY_DISTRICTS, TOY_HISTORY), "division": (TOY_DIR / "saturation.csv", None)}
#: Made-up units files (data/toy/README.md) for the bodies counted inside a parent, whose units and populations
#: are not public: the explorer starts with them so that every body can be tried. Body -> file (the Zila
#: Panchayat wards count inside their district, the others inside a block or gram panchayat).
TOY_UNITS = {"gp-pradhan": TOY_DIR / "units_toy.csv", "gp-ward": TOY_DIR / "units_toy.csv",
             "kp-ward": TOY_DIR / "units_toy.csv", "zp-ward": TOY_DIR / "units_toy_zp_ward.csv"}


def toy_allotment(options=(), districts=None, history=None, state: str = "five"):
    """A toy state (:data:`TOY_STATES`, hand-worked in docs/teaching.md) through the real Zila Panchayat chair
    rules. ``five`` with the default options: Alpha OBC_W, Beta SC_W, Gamma, Delta, Epsilon UR; ``division``:
    Ash SC, Birch OBC_W, Cedar UR, Dogwood SC_W, Elm UR (freed by the division rule)."""
    from ..allotment.pipeline import allot
    if state not in TOY_STATES:
        raise InputError(f"toy state must be one of {', '.join(TOY_STATES)}, not {state!r}", column="toy")
    d, h = TOY_STATES[state]
    h = history or h
    return allot("zp-chair", 2021, units=districts or d, history=[h] if h else [],
                 options=option_assignments(options))


_NO_POSTS = "no_posts"


def _unit_names_by_code(result, lang: str) -> dict:
    t = result.table
    return dict(zip(t["unit_code"].astype(int), unit_names(t, lang)))


def toy_steps(result, lang: str = "en") -> pd.DataFrame:
    """The rule steps of a (small) allotment, one per row, in the order the rules applied them.

    Step 1 is the State counts; then each trace row (a unit ranked in a pass and what the pass decided), except
    that the units of a pass with no posts form one step, and the units left unreserved form the last step.
    Columns: ``step, pass, unit_codes`` (tuple), ``units`` (names in ``lang``), ``decision`` (the code),
    ``detail`` (its words), ``category`` (given in this step, or ""), ``rank, pool, tier`` (numbers, NA where
    none), ``clause``, ``text`` (the step in words, in ``lang``).
    """
    check_lang(lang)
    counts = result.counts
    names = _unit_names_by_code(result, lang)
    arith = "; ".join(f"{c} {int(n)}" for c, n in zip(counts["category"], counts["count"]) if c != "TOTAL")
    rows = [{"pass": "counts", "unit_codes": (), "units": "", "decision": "counts", "detail": "", "category": "",
             "rank": pd.NA, "pool": pd.NA, "tier": pd.NA,
             "clause": "; ".join(dict.fromkeys(str(c) for c in counts["clause"] if str(c))),
             "text": word("toy.counts", lang, n=int(counts["count"].iat[-1]), arith=arith)}]
    tr = result.trace if lang == "en" else render_trace(result.engine, result.units, result.ur_clause, lang=lang)
    i = 0
    while i < len(tr):
        r = tr.iloc[i]
        j = i + 1
        if r["decision"] in (_NO_POSTS, "unreserved"):
            while j < len(tr) and tr.iloc[j]["pass"] == r["pass"] and tr.iloc[j]["decision"] == r["decision"]:
                j += 1
        grp = tr.iloc[i:j]
        codes = tuple(int(c) for c in grp["unit_code"])
        listed = ", ".join(names[c] for c in codes)
        rows.append({"pass": r["pass"], "unit_codes": codes, "units": listed, "decision": r["decision"],
                     "detail": r["detail"], "category": r["category"] if r["decision"] in ("allotted", "pinned",
                                                                                            "unreserved") else "",
                     "rank": r["rank"] if j == i + 1 else pd.NA, "pool": r["pool"] if j == i + 1 else pd.NA,
                     "tier": r["tier"] if j == i + 1 else pd.NA, "clause": str(r["clause"]),
                     "text": _step_text(r, listed, lang)})
        i = j
    out = pd.DataFrame(rows)
    for c in ("rank", "pool", "tier"):
        out[c] = out[c].astype("Int64")
    out.insert(0, "step", np.arange(1, len(out) + 1))
    return out


def _step_text(r, listed: str, lang: str) -> str:
    """One trace row (or a group of rows of one decision) in words: typed fields into the words' templates."""
    if r["decision"] == _NO_POSTS:
        return word("toy.no_posts", lang, pass_=r["pass"], names=listed)
    if r["decision"] == "unreserved":
        return word("toy.unreserved", lang, names=listed)
    if pd.isna(r["rank"]):
        text = word("toy.unit", lang, pass_=r["pass"], name=listed, share=r["key"])
    else:
        text = word("toy.ranked", lang, pass_=r["pass"], name=listed, rank=int(r["rank"]), pool=int(r["pool"]),
                    share=r["key"])
    if not pd.isna(r["tier"]):
        text += word("toy.tier", lang, tier=int(r["tier"]), tier_reason=r["tier_reason"])
    text += word("toy.decided", lang, detail=r["detail"])
    if r["tie_break"]:
        text += word("toy.tie", lang, tie=r["tie_break"])
    return text


def _pass_keys(result, steps: pd.DataFrame, step: int, lang: str) -> tuple[dict, dict, str]:
    """The share (or population) ranked in the pass of ``step`` and the rotation tier, for every unit that pass
    ranked: ``({code: key text}, {code: tier}, the key's label)``; empty for the counts step."""
    name = steps.iloc[step - 1]["pass"]
    recs = [rec for rec in result.engine.records if rec.spec.name == name]
    if not recs:
        return {}, {}, ""
    rec = recs[0]
    in_pass = sorted({int(u) for us in steps.loc[steps["pass"] == name, "unit_codes"] for u in us})
    where = {int(c): i for i, c in enumerate(result.engine.codes)}
    pos = np.array([where[c] for c in in_pass], dtype=np.int64)
    keys = key_texts(rec.spec.key, pos, lang).to_pylist()
    return dict(zip(in_pass, keys)), dict(zip(in_pass, rec.tier[pos].astype(int).tolist())), rec.spec.text.label(lang)


def _earlier(result) -> dict:
    """``{code: "2015: SC_W"}``: each unit's category at the last election of the history ({} without one)."""
    last = result.engine.rotation.last_year
    h = result.history
    if last is None or h is None or not len(h):
        return {}
    h = h[h["year"] == last].drop_duplicates("unit_code")
    return {int(u): f"{last}: {c}" for u, c in zip(h["unit_code"], h["category"])}


def toy_state(result, steps: pd.DataFrame, step: int, lang: str = "en") -> pd.DataFrame:
    """The units after ``step`` (1-based) of :func:`toy_steps`, with what explains the step: ``unit_code,
    unit_name_en, unit_name_hi, division, division_hi, share`` (the share or population ranked in this step's pass,
    "" where the pass did not rank the unit), ``key_label`` (what ``share`` is), ``earlier`` ("2015: SC_W": the
    category at the last election, "" without one), ``tier`` (rotation tier in this pass, NA where none),
    ``category`` (given so far, "" while undecided), ``current`` (touched in this step), ``final`` (the category at
    the end, for checking)."""
    check_lang(lang)
    if not 1 <= int(step) <= len(steps):
        raise InputError(f"step {step} is not between 1 and {len(steps)}", column="step")
    step = int(step)
    cols = ["unit_code", "unit_name_en", "unit_name_hi", "division", "category"]
    t = result.table[cols].rename(columns={"category": "final"}).copy()
    div_hi = dict(zip(result.units["unit_code"].astype(int), result.units["division_hi"])) \
        if "division_hi" in result.units.columns else {}
    t.insert(4, "division_hi", [div_hi.get(int(u)) or d for u, d in zip(t["unit_code"], t["division"])])
    got: dict[int, str] = {}
    for _, s in steps.iloc[:step].iterrows():
        if s["category"]:
            for u in s["unit_codes"]:
                got[int(u)] = s["category"]
    cur = set(int(u) for u in steps.iloc[step - 1]["unit_codes"])
    keys, tiers, key_label = _pass_keys(result, steps, step, lang)
    earlier = _earlier(result)
    codes = [int(u) for u in t["unit_code"]]
    t["share"] = [keys.get(u, "") for u in codes]
    t["key_label"] = key_label
    t["earlier"] = [earlier.get(u, "") for u in codes]
    t["tier"] = pd.array([tiers.get(u) for u in codes], dtype="Int64")
    t["category"] = [got.get(u, "") for u in codes]
    t["current"] = [u in cur for u in codes]
    return t[["unit_code", "unit_name_en", "unit_name_hi", "division", "division_hi", "share", "key_label",
              "earlier", "tier", "category", "current", "final"]]


def toy_table(state: pd.DataFrame, lang: str = "en", final: bool = False) -> pd.DataFrame:
    """The table shown beside the boxes: name, division, share ranked, last election, tier, category (and the
    final category when ``final``), headed in ``lang``, blank where there is nothing (no ``<NA>``)."""
    check_lang(lang)
    hi = lang == "hi"
    out = pd.DataFrame({
        word("table.unit", lang): unit_names(state, lang).to_numpy(),
        word("table.division", lang): state["division_hi" if hi else "division"].to_numpy(),
        word("table.share", lang): state["share"].to_numpy(),
        word("toy.col.earlier", lang): state["earlier"].to_numpy(),
        word("toy.col.tier", lang): [("" if pd.isna(t) else str(int(t))) for t in state["tier"]],
        word("table.category", lang): state["category"].to_numpy()})
    if final:
        out[word("toy.col.final", lang)] = state["final"].to_numpy()
    return out


def toy_title(state: pd.DataFrame, lang: str = "en") -> str:
    """"Toy state (made up, for teaching): East (Alpha, Beta, Gamma); West (Delta, Epsilon)", in ``lang``."""
    div = state["division_hi"] if lang == "hi" and "division_hi" in state.columns else state["division"]
    names = pd.Series(unit_names(state, lang).to_numpy(), index=div.to_numpy())
    parts = [f"{d} ({', '.join(names[names.index == d])})" for d in dict.fromkeys(div)]
    return word("toy.title", lang, divisions="; ".join(parts))


def box_lines(r, lang: str) -> list[str]:
    """What a unit's box says, line by line (plain text): the share ranked in this pass, the earlier category
    and the rotation tier, then the category decided ("?" while undecided)."""
    lines = []
    if r.get("share"):
        lines.append(str(r["share"]))
    lines.append(r.get("earlier") or word("toy.no_history", lang))
    tier = r.get("tier")
    if tier is not None and not pd.isna(tier):
        lines.append(word("toy.box_tier", lang, tier=int(tier)))
    lines.append(r["category"] or "?")               # the code fits the box; the legend has the label
    return lines


def toy_figure(state: pd.DataFrame, lang: str = "en", title: str | None = None):
    """A schematic 'map' of a small state: one box per unit, grouped by division, filled with its category's
    colour once decided (white while undecided), the unit of the current step outlined in black; each box says
    what explains the step (:func:`box_lines`), and the key ranked in the pass is named above the boxes."""
    import plotly.graph_objects as go
    check_lang(lang)
    fig = go.Figure()
    div_col = "division_hi" if lang == "hi" and "division_hi" in state.columns else "division"
    x0 = 0.0
    ann = []
    names = pd.Series(hover_text(unit_names(state, lang)), index=state.index)
    for d in dict.fromkeys(state[div_col]):
        part = state[state[div_col] == d]
        ann.append({"x": x0 + len(part) / 2 - 0.05, "y": 1.32, "text": f"<b>{hover_text([d])[0]}</b>",
                    "showarrow": False, "font": {"size": 13}})
        for k, (i, r) in enumerate(part.iterrows()):
            x = x0 + k
            fill = COLOURS[r["category"]] if r["category"] else "#ffffff"
            fig.add_shape(type="rect", x0=x, x1=x + 0.9, y0=0, y1=1, fillcolor=fill,
                          line={"color": "#000000" if r["current"] else "#9e9e9e", "width": 4 if r["current"] else 1})
            lines = [f"<b>{names.loc[i]}</b>"] + hover_text(box_lines(r, lang))
            ann.append({"x": x + 0.45, "y": 0.5, "text": "<br>".join(lines), "showarrow": False,
                        "font": {"size": 11, "color": text_colour(fill)}})
        x0 += len(part) + 0.5
    if "key_label" in state.columns and len(state) and state["key_label"].iat[0]:
        ann.append({"x": 0, "y": -0.12, "xanchor": "left", "showarrow": False, "font": {"size": 12},
                    "text": hover_text([word("toy.ranked_by", lang, key_label=state["key_label"].iat[0])])[0]})
    for c in CODES:
        if c in set(state["category"]):
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=label(c, lang),
                                     marker={"size": 12, "color": COLOURS[c], "symbol": "square"}))
    fig.update_layout(annotations=ann, height=300, xaxis={"visible": False, "range": [-0.2, x0]},
                      yaxis={"visible": False, "range": [-0.25, 1.5]}, plot_bgcolor="#ffffff",
                      margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
                      title={"text": hover_text([title])[0]} if title else None, showlegend=True)
    return fig


def is_toy_units(path) -> bool:
    """Whether ``path`` is one of the made-up units files of :data:`TOY_UNITS` (the explorer's starting files)."""
    from pathlib import Path
    if not path:
        return False
    try:
        p = Path(str(path)).resolve()
    except OSError:
        return False
    return any(p == t.resolve() for t in TOY_UNITS.values())


def toy_units_figure(table: pd.DataFrame, parent: str, lang: str = "en", title: str | None = None):
    """Made-up units drawn as what they are: boxes grouped by their (made-up) parent, each filled with its
    category's colour, on a hatched grey ground; no real district is drawn, so toy data never look like a map of
    real places."""
    state = table.assign(division=table[parent].astype(str), division_hi=table[parent].astype(str),
                         share="", key_label="", earlier="", tier=pd.NA, current=False)
    state = state.assign(earlier=[word("data.toy_units_box", lang)] * len(state))
    fig = toy_figure(state, lang, title=title)
    fig.update_layout(plot_bgcolor="#eeeeee", height=320)
    return fig


def data_kind(result, units="") -> str:
    """What an allotment's units are: ``toy`` (a made-up units file of :data:`TOY_UNITS`), ``partial`` (units
    ranked on partial figures: the shipped gram panchayats, whose rows carry ``figures`` = partial / none) or
    ``real``."""
    if is_toy_units(units):
        return "toy"
    fig = result.units["figures"] if "figures" in result.units.columns else None
    if fig is not None and (fig == "partial").any():        # urban bodies' figures are "supplied" or "none"
        return "partial"
    return "real"


def allotment_title(title: str, year: int, kind: str, lang: str = "en") -> str:
    """The title of an allotment's map and status line: ``title year``, saying so when the units are made up
    (``toy``) or ranked on partial figures (``partial``): :func:`data_kind`."""
    check_lang(lang)
    if kind == "toy":
        return word("data.toy_units", lang, title=title, year=year)
    if kind == "partial":
        return word("data.partial_figures", lang, title=title, year=year)
    return f"{title} {year}"
