"""One unit's history as a timeline, and a block's gram panchayats' histories (issue 21 item 4).

- :func:`unit_timeline`: for a unit of any body named as people name it (:func:`reservation.history.timeline`):
  ``elections`` (one row per election of the body's calendar: the category, or "list not held" / "not in the list
  held" where we hold no record: unknown, never "not reserved"; the source), ``verdicts`` (the next election's
  rotation verdict per base year and group, :func:`reservation.history.unit_render.verdict_short`), ``figure``
  (:func:`timeline_figure`) and ``text`` (what ``reservation history`` prints);
- :func:`block_gp_histories`: one row per gram panchayat of a block: its category at every election (the shipped
  ``data/history/gp-pradhan.csv.gz``) and the next election's verdict for SC, OBC and general women under the
  rulebook's default base year, computed for all of the block's gram panchayats at once by the engine's one tier
  rule (:func:`reservation.engine.steps.tiers` on a :class:`reservation.law.rotation.RotationView`, with the
  options ``reservation history`` uses), a missing list counted every way it could have gone, as
  :mod:`reservation.history.unit_history` does for one unit.
"""

from __future__ import annotations

from itertools import product

import numpy as np
import pandas as pd

from ..engine.steps import tiers as engine_tiers
from ..law.categories import COLOURS
from ..law.rotation import RotationView, group_codes
from ..law.words import category_label, word

__all__ = ["UNKNOWN_COLOUR", "timeline_view", "unit_timeline", "timeline_figure", "election_table", "verdict_table",
           "block_of", "block_gp_histories"]

#: A record we do not hold: drawn hollow in this grey, never in the colour of "UR".
UNKNOWN_COLOUR = "#9e9e9e"
BLOCK_GROUPS = ("SC", "OBC", "GEN")


def _cell(e, lang: str) -> str:
    if e.category:
        return category_label(e.category, lang)
    return word(f"timeline.{e.status}" if e.status in ("not_in_list", "not_placed") else "timeline.no_list", lang)


def election_table(h, lang: str = "en") -> pd.DataFrame:
    """One row per election of the body's calendar: ``year, category`` (the code, '' when unknown),
    ``category_label`` (the label, or the words for a list we do not hold), ``status``, ``source``."""
    return pd.DataFrame({"year": [e.year for e in h.elections], "category": [e.category for e in h.elections],
                         "category_label": [_cell(e, lang) for e in h.elections],
                         "status": [e.status for e in h.elections], "source": [e.source for e in h.elections]})


def verdict_table(h, lang: str = "en") -> pd.DataFrame:
    """The next election's verdicts: one row per base year (the default first), one column per group."""
    from ..history.unit_history import GROUPS
    from ..history.unit_render import verdict_short
    rows = []
    for b in h.base_years:
        row = {"base_year": b, "default": b == h.default_base_year}
        row.update({word(f"history.group.{g}", lang): verdict_short(h.verdict(b, g), lang) for g in GROUPS})
        rows.append(row)
    return pd.DataFrame(rows)


def timeline_figure(h, lang: str = "en"):
    """A small plotly timeline: the elections on x, each a marker in its category's map colour (a list we do not
    hold: a hollow grey "?"), and the next election's year marked."""
    import plotly.graph_objects as go
    known = [e for e in h.elections if e.category]
    unknown = [e for e in h.elections if not e.category]
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=[e.year for e in known], y=[0] * len(known), mode="markers+text", text=[e.category for e in known],
        textposition="top center", name=word("timeline.title", lang, name="").strip(": "),
        marker={"size": 22, "color": [COLOURS[e.category] for e in known], "line": {"color": "#333", "width": 1}},
        hovertext=[f"{e.year}: {_cell(e, lang)} [{e.source}]" for e in known], hoverinfo="text", showlegend=False))
    fig.add_trace(go.Scatter(
        x=[e.year for e in unknown], y=[0] * len(unknown), mode="markers+text", text=["?"] * len(unknown),
        textposition="middle center", name=word("timeline.unknown", lang), showlegend=False,
        marker={"size": 22, "color": "white", "line": {"color": UNKNOWN_COLOUR, "width": 2}},
        hovertext=[f"{e.year}: {_cell(e, lang)}" for e in unknown], hoverinfo="text"))
    fig.add_vline(x=h.year, line_dash="dash", line_color="#555")
    fig.add_annotation(x=h.year, y=0.6, text=word("timeline.next", lang, year=h.year), showarrow=False)
    years = [e.year for e in h.elections] + [h.year]
    fig.update_layout(title={"text": word("timeline.title", lang, name=h.names["name"])}, height=220,
                      margin={"l": 20, "r": 20, "t": 50, "b": 30}, plot_bgcolor="white",
                      xaxis={"tickvals": sorted(set(years)), "range": [min(years) - 2, max(years) + 2]},
                      yaxis={"visible": False, "range": [-1, 1]})
    return fig


def unit_timeline(body: str, unit, *, year: int | None = None, base_year: int | None = None, history=None,
                  lang: str = "en") -> dict:
    """Everything a notebook shows of one unit's history (see the module's doc)."""
    from ..history.unit_history import timeline
    from ..history.unit_render import render_text
    h = timeline(body, unit, year=year, base_year=base_year, history=history, lang=lang)
    return {"history": h, "elections": election_table(h, lang), "verdicts": verdict_table(h, lang),
            "figure": timeline_figure(h, lang), "text": render_text(h, lang)}


def block_of(body: str, unit, year: int | None = None) -> int | None:
    """The LGD block whose gram panchayats a page lists: a block of ``kp-chair``, or the block of a gram panchayat
    of ``gp-pradhan``; None for another body or a gram panchayat LGD does not hold."""
    from ..history.places import find_unit, gp_table
    from ..rules.registry import get_rulebook
    if body not in ("kp-chair", "gp-pradhan"):
        return None
    year = get_rulebook(body).years.upcoming(1)[0] if year is None else int(year)
    code = find_unit(body, unit, year)
    if not isinstance(code, (int, np.integer)):
        return None
    if body == "kp-chair":
        return int(code)
    g = gp_table()
    hit = g.loc[g["unit_code"] == int(code), "block"]
    return int(hit.iloc[0]) if len(hit) else None


def _block_tiers(known: pd.DataFrame, units: np.ndarray, missing: dict, year: int, base: int, mode: str,
                 codes: frozenset, fill: str) -> list[set]:
    """The tiers each unit can have: the engine's rule on every way the missing lists could have gone (a missing
    election holds the group or nothing, "?": still held); units are independent, so one run per combination of
    the block's missing years gives every unit's own combinations."""
    years = sorted({y for ys in missing.values() for y in ys})
    out = [set() for _ in units]
    gaps = [(u, y) for u in units.tolist() for y in missing.get(u, ())]      # the (unit, year) not held
    for held in product((False, True), repeat=len(years)):
        put = dict(zip(years, held))
        extra = [(u, y, fill if put[y] else "?") for u, y in gaps]
        frame = pd.concat([known, pd.DataFrame(extra, columns=["unit_code", "year", "category"])],
                          ignore_index=True) if extra else known
        frame = frame.astype({"unit_code": "int64", "year": "int64"})
        view = RotationView(frame, year, base, mode)
        view.bind(units)
        for i, t in enumerate(engine_tiers(view, codes).tolist()):
            out[i].add(int(t))
    return out


def block_gp_histories(block, *, year: int | None = None, base_year: int | None = None,
                       lang: str = "en") -> pd.DataFrame:
    """One row per gram panchayat of ``block`` (a name as people write it, or its LGD code): ``unit_code``, the
    names, the category at every election of the calendar (a label; "list not held" / "not in the list held"
    where unknown) and ``next_SC``, ``next_OBC``, ``next_GEN``: the verdict for the next election ``year`` under
    ``base_year`` (default: the rulebook's)."""
    from ..history.places import find_unit
    from ..rules.registry import get_rulebook
    year = get_rulebook("gp-pradhan").years.upcoming(1)[0] if year is None else int(year)
    code = int(block) if isinstance(block, (int, np.integer)) else int(find_unit("kp-chair", block, year))
    out = _gp_histories([code], year, base_year, lang)
    out.attrs["block"] = code
    return out


def _gp_histories(blocks: list[int], year: int, base_year: int | None, lang: str,
                  block_column: bool = False) -> pd.DataFrame:
    """:func:`block_gp_histories` of the blocks ``blocks`` (LGD codes, each once), one after the other in that
    order, as one table. The shipped list is read once for all of them, and the engine's tiers are computed once
    per group for all their gram panchayats together (units are independent: :func:`_block_tiers`), not once per
    block (a kp-chair division page's CSV has 30-80 blocks), and the table is made at once, not per block.
    ``block_column``: the table starts with ``block_code``, each gram panchayat's block."""
    from ..history.places import _gp_raw, gp_table
    from ..history.unit_history import Verdict, base_years_of
    from ..history.unit_render import verdict_short
    from ..rules.registry import get_rulebook
    rb = get_rulebook("gp-pradhan")
    base = base_years_of(rb)[0] if base_year is None else int(base_year)
    g = gp_table()
    g = g[g["block"].isin(blocks)]
    by_block = dict(tuple(g.sort_values("unit_code", kind="stable").groupby("block", sort=False)))
    each = {b: by_block.get(b, g.iloc[:0]) for b in dict.fromkeys(blocks)}
    every = np.array(list(dict.fromkeys(int(u) for t in each.values() for u in t["unit_code"])), dtype=np.int64)
    raw = _gp_raw()
    held_years = sorted(int(y) for y in raw["year"].unique())
    raw = raw[raw["unit"].isin(every)]
    raw = raw[raw["category"] != ""]
    cat = {(int(u), int(y)): c for u, y, c in zip(raw["unit"], raw["year"], raw["category"])}
    counted = [y for y in rb.years.elections if base <= y < year]
    missing = {int(u): tuple(y for y in counted if (int(u), y) not in cat) for u in every}
    known = pd.DataFrame([(u, y, c) for (u, y), c in cat.items() if y in counted],
                         columns=["unit_code", "year", "category"])
    opts = rb.option_set().values
    mode, wh = opts.get("rotation_history", "since_base"), opts.get("women_history", "general_only")
    verdicts = {}
    for grp in BLOCK_GROUPS:
        codes = group_codes(grp, wh)
        if not counted:
            cell = verdict_short(Verdict(base, grp, (0,), (), (), (), None), lang)
            verdicts[grp] = {int(u): cell for u in every}
            continue
        possible = _block_tiers(known, every, missing, year, base, mode, codes, "W" if grp == "GEN" else grp)
        words: dict = {}         # the words of each distinct verdict, made once (most units share a handful)
        verdicts[grp] = {}
        for u, p in zip(every, possible):
            key = (tuple(sorted(p)), missing[int(u)], tuple(y for y in counted if cat.get((int(u), y)) in codes))
            if key not in words:
                words[key] = verdict_short(Verdict(base, grp, key[0], tuple(counted), key[1], key[2], counted[-1]),
                                           lang)
            verdicts[grp][int(u)] = words[key]
    rows = pd.concat([each[b] for b in blocks]) if len(blocks) > 1 else each[blocks[0]]
    out = _block_table(rows, cat, held_years, verdicts, year, base, rb, lang)
    if block_column:
        out.insert(0, "block_code", rows["block"].to_numpy(dtype=np.int64))
    return out


def _block_table(g: pd.DataFrame, cat: dict, held_years: list, verdicts: dict, year: int, base: int, rb,
                 lang: str) -> pd.DataFrame:
    """The table of :func:`block_gp_histories` of the gram panchayats ``g`` from what :func:`_gp_histories`
    computed."""
    units = g["unit_code"].to_numpy(dtype=np.int64)
    cols = {"unit_code": units, "gram_panchayat": g["unit_name_en"].to_numpy(),
            "gram_panchayat_hi": g["unit_name_hi"].to_numpy()}
    for y in rb.years.elections:
        gone = word("timeline.not_in_list" if y in held_years else "timeline.no_list", lang)
        cols[str(y)] = [category_label(cat[(int(u), y)], lang) if (int(u), y) in cat else gone for u in units]
    for grp in BLOCK_GROUPS:
        cols[f"next_{grp}"] = [verdicts[grp][int(u)] for u in units]
    out = pd.DataFrame(cols)          # built at once (a column at a time copied the frame for each)
    out.attrs.update({"year": year, "base_year": base})
    return out


def timeline_view(body: str, unit="", *, division="all", base_year: int | None = None, history=None) -> dict:
    """Everything notebook 03's timeline cells show: the unit's ``figure``, ``elections`` / ``elections_hi`` and
    ``verdicts`` / ``verdicts_hi`` (when ``unit`` is given), and the gram panchayats' histories of its block
    (``block`` / ``block_hi``: for ``kp-chair`` the unit; for ``gp-pradhan`` the unit's block, or the block
    ``division`` names when no unit is given); ``message`` says what is not shown and why. Empty tables, never
    None, where there is nothing to show."""
    out = {"figure": None, "elections": pd.DataFrame(), "elections_hi": pd.DataFrame(), "verdicts": pd.DataFrame(),
           "verdicts_hi": pd.DataFrame(), "block": pd.DataFrame(), "block_hi": pd.DataFrame(), "message": ""}
    unit = "" if unit is None else str(unit).strip()
    history = list(history) if history else None
    if unit:
        en = unit_timeline(body, unit, base_year=base_year, history=history)
        hi = unit_timeline(body, unit, base_year=base_year, history=history, lang="hi")
        out.update(figure=en["figure"], elections=en["elections"], elections_hi=hi["elections"],
                   verdicts=en["verdicts"], verdicts_hi=hi["verdicts"])
        block = block_of(body, unit)
    elif body == "gp-pradhan" and str(division).strip() not in ("", "all"):
        block = block_of("kp-chair", division)
    else:
        block = None
        out["message"] = word("timeline.no_unit", "en")
    if block is not None:
        out["block"] = block_gp_histories(block)
        out["block_hi"] = block_gp_histories(block, lang="hi")
    elif unit:
        out["message"] = word("timeline.no_block", "en")
    return out


def gp_histories_of_blocks(blocks) -> pd.DataFrame:
    """The gram panchayats' histories (:func:`block_gp_histories`, English labels) of every block of ``blocks``
    (LGD codes, e.g. the blocks of a division page), one table with ``block_code`` and ``block`` first: the CSV
    beside a ``kp-chair`` division page."""
    from ..history.places import _blocks
    from ..rules.registry import get_rulebook
    b = _blocks()[0]
    names = dict(zip(b["unit_code"].tolist(), b["unit_name_en"].tolist()))
    order = list(dict.fromkeys(int(x) for x in blocks))
    if not order:
        return pd.DataFrame()
    out = _gp_histories(order, get_rulebook("gp-pradhan").years.upcoming(1)[0], None, "en", block_column=True)
    out.insert(1, "block", [names.get(int(b), "") for b in out["block_code"]])
    return out
