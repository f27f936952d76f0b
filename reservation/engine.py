"""The allotment engine: category passes in the legal order, rotation tiers, division saturation, women.

A *pass* fills the posts of one category group (or of one code, under category order A6 reading a) from the
units not yet allotted, in this order of preference (GO 2021, seed b, ZP chair items 1-3):

1. rotation tier (1 never reserved for the group, 2 not reserved at the last election, 3 the rest: see
   :mod:`reservation.rotation`), then
2. descending share of the group's population (exact Fractions; ties by lot or the documented rule).

If the chosen units would make *every* unit of a division reserved for the group, the least populous of them
is left unreserved and the next unit in order takes the post (the division rule of items 1-3; A12).
Within a group, the women's posts go to the first units in that order ("from the top", A7 reading a).
Units reached by no pass are unreserved.

The result is an :class:`Allotment`: a table with one row per unit and a trace with one row per rule step
that touched a unit, each citing its clause. Nothing here reads files, prints or draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import pandas as pd

from .categories import by_code
from .quota import fmt_fraction
from .ranking import rank_descending
from .rotation import RotationView

__all__ = ["CategoryPass", "EngineSettings", "Allotment", "run_passes", "RuleError", "TABLE_COLUMNS",
           "TRACE_COLUMNS", "Pin"]


class RuleError(RuntimeError):
    """The rules cannot be applied to these inputs (e.g. fewer eligible units than posts)."""


TABLE_COLUMNS = ["unit_code", "unit_name_en", "unit_name_hi", "district", "division", "category", "tier",
                 "rank", "pool", "key", "clause", "reason", "tie_break"]
TRACE_COLUMNS = ["step", "unit_code", "unit_name_en", "pass", "rank", "pool", "key", "tier", "tier_reason",
                 "decision", "category", "clause", "tie_break"]


@dataclass
class CategoryPass:
    """One pass of the engine.

    ``slots``: the codes it fills with their numbers, women's code first (``[("SC_W", 6), ("SC", 10)]``).
    ``key``: the ranking key per unit (index-aligned Series of Fractions/ints), descending.
    ``key_label``/``key_format``: how the key reads in reasons (``"SC share of the rural population"``).
    ``population``: the population used for tie-breaks (larger first) and ``saturation_population`` for the
    division rule (least populous left unreserved).
    """

    group: str
    slots: list[tuple[str, int]]
    key: pd.Series
    key_label: str
    key_format: Callable[[Fraction], str]
    history_codes: frozenset
    population: pd.Series
    saturation_population: pd.Series
    clause: str
    clause_women: str
    clause_saturation: str
    clause_rotation: str
    note: str = ""


@dataclass
class Pin:
    code: str
    source: str           # "pins.csv row 3"


@dataclass
class EngineSettings:
    tie_break: str = "population"              # A14
    lots: dict[str, dict[int, int]] = field(default_factory=dict)   # group -> unit -> lot ("*" for all)
    category_women: str = "top"                # A7
    rotation_fallback: str = "rank"            # A8 "as far as possible"
    division_saturation: str = "on"            # A12
    saturation_scope: str = "per_category"     # A12


@dataclass
class Allotment:
    """The result: ``table`` (one row per unit, :data:`TABLE_COLUMNS`), ``trace`` (:data:`TRACE_COLUMNS`),
    ``counts`` (category counts used), ``meta`` (body, year, options, inputs, assumptions)."""

    table: pd.DataFrame
    trace: pd.DataFrame
    counts: pd.DataFrame
    meta: dict
    history: pd.DataFrame | None = None    # the history used (unit_code, year, category, source)
    history: pd.DataFrame | None = None    # the history used (unit_code, year, category, source)

    def explain(self, unit_code: int) -> pd.DataFrame:
        return self.trace[self.trace["unit_code"] == int(unit_code)].reset_index(drop=True)

    def summary_by_division(self) -> pd.DataFrame:
        """Divisions x categories: how many units of each division got each category."""
        from .categories import CODES
        t = pd.crosstab(self.table["division"], self.table["category"])
        for c in CODES:
            if c not in t.columns:
                t[c] = 0
        t = t[list(CODES)]
        t["TOTAL"] = t.sum(axis=1)
        return t


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def run_passes(units: pd.DataFrame, passes: list[CategoryPass], rotation: RotationView,
               settings: EngineSettings, pins: dict[int, Pin] | None = None,
               ur_clause: str = "not allotted to any reserved category") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Apply ``passes`` to ``units`` (columns unit_code, unit_name_en, unit_name_hi, district, division).

    Returns ``(table, trace)``. Pinned units keep their category and are left out of every pass; the pass
    counts in ``slots`` are the full counts (pins are subtracted here).
    """
    pins = pins or {}
    codes = [int(c) for c in units["unit_code"]]
    idx_of = {c: i for c, i in zip(codes, units.index)}
    name = dict(zip(codes, units["unit_name_en"]))
    division = dict(zip(codes, units["division"]))
    div_members: dict[str, list[int]] = {}
    for c in codes:
        div_members.setdefault(division[c], []).append(c)

    allotted: dict[int, str] = {}
    decided: dict[int, dict] = {}
    trace: list[dict] = []

    def step(unit, **kw):
        row = {"step": len(trace) + 1, "unit_code": unit, "unit_name_en": name[unit], "pass": "", "rank": None,
               "pool": None, "key": "", "tier": None, "tier_reason": "", "decision": "", "category": "",
               "clause": "", "tie_break": ""}
        row.update(kw)
        trace.append(row)

    for u, pin in sorted(pins.items()):
        allotted[u] = pin.code
        decided[u] = {"category": pin.code, "tier": None, "rank": None, "pool": None, "key": "",
                      "clause": f"pinned by input ({pin.source})",
                      "reason": f"{pin.code} fixed by the pin file ({pin.source}); the rest is computed around it",
                      "tie_break": ""}
        step(u, **{"pass": "pin", "decision": f"pinned to {pin.code}", "category": pin.code,
                   "clause": f"pinned by input ({pin.source})"})

    for p in passes:
        pinned_here = {code: sum(1 for pin in pins.values() if pin.code == code) for code, _ in p.slots}
        slots = [(code, n - pinned_here[code]) for code, n in p.slots]
        need = sum(n for _, n in slots)
        pool_codes = [c for c in codes if c not in allotted]
        pass_name = "+".join(code for code, _ in p.slots)
        pool = units.loc[[idx_of[c] for c in pool_codes]]
        lots = dict(settings.lots.get("*", {}))
        lots.update(settings.lots.get(p.group, {}))
        ranked = rank_descending(pool, p.key.loc[pool.index], population=p.population.loc[pool.index],
                                 tie_break=settings.tie_break, lots=lots, key_label=p.key_label)
        rank_of = dict(zip(ranked["unit_code"], ranked["rank"]))
        key_of = dict(zip(ranked["unit_code"], ranked["key"]))
        tb_of = dict(zip(ranked["unit_code"], ranked["tie_break"]))
        tier_of = {c: rotation.tier(c, p.history_codes) for c in pool_codes}
        m = len(pool_codes)
        order = sorted(pool_codes, key=lambda c: (tier_of[c][0], rank_of[c]))
        barred: dict[int, str] = {}
        while True:
            avail = [c for c in order if c not in barred]
            if need > len(avail):
                raise RuleError(f"{pass_name}: {need} posts but only {len(avail)} units left to take them")
            chosen = avail[:need]
            if settings.rotation_fallback == "error" and any(tier_of[c][0] == 3 for c in chosen):
                raise RuleError(f"{pass_name}: tiers 1-2 cannot fill {need} posts without a unit reserved for "
                                f"{p.group} at the last election (option rotation_fallback=error)")
            if settings.division_saturation != "on" or need == 0:
                break
            if settings.saturation_scope == "per_category":
                group_set = {p.group, f"{p.group}_W"} if p.group != "GEN" else {"W"}
                held = {c for c, code in allotted.items() if code in group_set}
            else:
                held = {c for c, code in allotted.items() if code != "UR"}
            reserved = held | set(chosen)
            victims = []
            for div in sorted(div_members):
                members = div_members[div]
                if len(members) < 2 or not all(c in reserved for c in members):
                    continue
                mine = [c for c in members if c in chosen]
                if not mine:
                    continue
                victim = min(mine, key=lambda c: (int(p.saturation_population.at[idx_of[c]]), c))
                victims.append((victim, div, len(members)))
            if not victims:
                break
            for victim, div, n in victims:
                pop = int(p.saturation_population.at[idx_of[victim]])
                barred[victim] = (f"all {n} districts of {div} division would be reserved for {p.group}; "
                                  f"the least populous ({pop:,}) is left unreserved for {p.group}")
                step(victim, **{"pass": pass_name, "rank": rank_of[victim], "pool": m,
                                "key": f"{p.key_label} {p.key_format(key_of[victim])}", "tier": tier_of[victim][0],
                                "tier_reason": tier_of[victim][1], "decision": "left out: " + barred[victim],
                                "clause": p.clause_saturation, "tie_break": tb_of[victim]})
        # women first from the top of the order (A7 a) or those not women last time (A7 c)
        if settings.category_women == "not_women_last" and len(slots) > 1:
            split_order = sorted(chosen, key=lambda c: (rotation.held_women_last(c), chosen.index(c)))
        else:
            split_order = list(chosen)
        assign: dict[int, str] = {}
        pos = 0
        for code, n in slots:
            for c in split_order[pos:pos + n]:
                assign[c] = code
            pos += n
        for c in order:
            t, t_words = tier_of[c]
            base = {"pass": pass_name, "rank": rank_of[c], "pool": m,
                    "key": f"{p.key_label} {p.key_format(key_of[c])}",
                    "tier": t, "tier_reason": t_words, "tie_break": tb_of[c]}
            if c in assign:
                code = assign[c]
                allotted[c] = code
                women = by_code(code).women and len(slots) > 1
                why = (f"{code}: {_ordinal(rank_of[c])} of {m} by {p.key_label} ({p.key_format(key_of[c])}); "
                       f"tier {t}: {t_words}; chosen {_ordinal(chosen.index(c) + 1)} of the {need} "
                       f"{pass_name} posts in rotation order")
                if women:
                    why += (f"; among the first {dict(slots)[code]}, so reserved for women" if
                            settings.category_women == "top" else
                            f"; women's post (not a women's office at the last election first)")
                if p.note:
                    why += f"; {p.note}"
                clause = p.clause_women if women else p.clause
                if t > 1:
                    clause += f"; {p.clause_rotation}"
                decided[c] = {"category": code, "tier": t, "rank": rank_of[c], "pool": m,
                              "key": p.key_format(key_of[c]), "clause": clause, "reason": why,
                              "tie_break": tb_of[c]}
                step(c, **base, decision=f"allotted {code}", category=code, clause=clause)
            elif c in barred:
                continue
            else:
                step(c, **base, decision=("passed over: the posts were filled by units earlier in rotation order"
                                          if need else "no posts in this pass"),
                     clause=p.clause)

    rows = []
    for c in codes:
        u = units.loc[idx_of[c]]
        d = decided.get(c)
        if d is None:
            last = [s for s in trace if s["unit_code"] == c and s["rank"] is not None]
            ranks = "; ".join(f"{s['pass']} rank {s['rank']} of {s['pool']} (tier {s['tier']})" for s in last)
            d = {"category": "UR", "tier": None, "rank": None, "pool": None, "key": "", "clause": ur_clause,
                 "reason": f"UR: reached by no category pass ({ranks})", "tie_break": ""}
            step(c, **{"pass": "UR", "decision": "unreserved", "category": "UR", "clause": ur_clause})
        rows.append({"unit_code": c, "unit_name_en": u["unit_name_en"], "unit_name_hi": u["unit_name_hi"],
                     "district": u["district"], "division": u["division"], **d})
    table = pd.DataFrame(rows, columns=TABLE_COLUMNS)
    for col in ("tier", "rank", "pool"):
        table[col] = table[col].astype("Int64")
    tr = pd.DataFrame(trace, columns=TRACE_COLUMNS)
    for col in ("rank", "pool", "tier"):
        tr[col] = tr[col].astype("Int64")
    return table, tr
