"""Scenarios: what changes between two readings, two histories, two base years or two published lists.

:func:`diff` compares two *scenarios* of one body and election. A scenario is computed (options, history, base
year) or published (a list, :mod:`reservation.inputs.published`). The result has one row per unit whose category
changes (:data:`DIFF_COLUMNS`): both categories, the rule step (pass) where the two first part (the earlier of the
two categories' passes, in the legal order), its clause, and each side's own rule and reason.

:func:`explain_base_year` is the worked example of issue 11: the provisional (12 Feb 2021, rotation counted from
1995) and final (17 Mar 2021, from 2015) Zila Panchayat chair lists have the same SC and OBC lists and differ only
in 16 districts that swap W and UR. Both lists were made from the same population figures, and under one set of
rules and one history a pass's choice is a function of those figures: so two different women's lists on one
base year cannot both be lawful with the same (unknown) OBC figures, unless 16 districts tie exactly. The
function shows this (the statements of both lists on one base year, solved together with ties refused), and that
the difference is what a different rotation base makes of the same figures: the districts the final list gives
W and the provisional list leaves unreserved must have held a women's office in an election before 2015 (tier 2
on the 1995 base, tier 1 on the 2015 base); with exactly that history, the provisional list is lawful on the 1995
base and the final list on the 2015 base, both with one set of OBC figures.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pandas as pd

from .audit import audit
from ..law.categories import CODES
from ..allotment.pipeline import allot, options_of
from ..inputs.published import load_published
from ..law.rotation import group_codes
from ..rules.rulebook import BaseYearWarning
from ..rules.registry import get_rulebook
from .unknowns import solve

__all__ = ["Scenario", "DiffResult", "DIFF_COLUMNS", "diff", "explain_base_year", "BASE_YEAR_COLUMNS"]

DIFF_COLUMNS = ["unit_code", "unit_name_en", "unit_name_hi", "a", "b", "step", "clause", "rule_a", "rule_b",
                "detail"]
BASE_YEAR_COLUMNS = ["unit_code", "unit_name_en", "a", "b", "last_election", "order", "tier_b_base",
                     "tier_a_base", "explanation"]


@dataclass
class Scenario:
    """One side of a comparison: computed (``options``, ``history``, ``base_year``) or ``published`` (a list)."""

    options: tuple = ()
    history: object = None
    base_year: int | None = None
    published: object = None
    label: str = ""

    def describe(self) -> dict:
        if self.published is not None:
            return {"published": str(self.published) if not isinstance(self.published, pd.DataFrame) else "table",
                    "base_year": self.base_year}
        return {"options": list(self.options), "history": self.history if isinstance(self.history, (str, list))
                else (None if self.history is None else "table"), "base_year": self.base_year}


@dataclass
class DiffResult:
    """``table`` (:data:`DIFF_COLUMNS`, changed units only), ``summary`` (categories: counts in A and B),
    ``steps`` (changed units per rule step), ``meta``, ``a`` and ``b`` (the Allotments, or None for a published
    side), ``explanation`` (:func:`explain_base_year`'s result, when asked for)."""

    table: pd.DataFrame
    summary: pd.DataFrame
    steps: pd.DataFrame
    meta: dict
    a: object = None
    b: object = None
    explanation: object = None
    categories: dict = field(default_factory=dict)


def _side(body, year, s: Scenario, inputs, frame, history):
    """(categories by unit code, the Allotment or None, rule words by code, reasons by code)."""
    if s.published is None:
        r = allot(body, year, options=list(s.options), history=history if s.history is None else s.history,
                  base_year=s.base_year, **inputs)
        t = r.table
        cats = dict(zip(t["unit_code"].astype(int), t["category"]))
        return cats, r, dict(zip(t["unit_code"].astype(int), t["clause"])), \
            dict(zip(t["unit_code"].astype(int), t["reason"]))
    pub = load_published(s.published, frame.resolve)
    missing = set(frame.engine.codes.tolist()) - set(pub["unit_code"].tolist())
    if missing:
        from ..base.errors import InputError
        raise InputError(f"the list does not give {len(missing)} unit(s), e.g. {sorted(missing)[0]}: a comparison "
                         f"needs every unit", file=str(pub.attrs.get("path")), column="unit")
    cats = dict(zip(pub["unit_code"].astype(int), pub["category"]))
    name = pub.attrs.get("path", "published table")
    words = {c: f"published list ({name})" for c in cats}
    return cats, None, words, {c: "as published" for c in cats}


def diff(body: str, year: int, a: Scenario, b: Scenario, *, units=None, population=None, history=None,
         explain: bool | None = None) -> DiffResult:
    """The units whose category differs between scenarios ``a`` and ``b``, with the rule step where they part.
    ``history``: the history of a computed side that gives none (None: the shipped one); ``explain``: add
    :func:`explain_base_year` (default: when both sides are published lists with different base years)."""
    inputs = {"units": units, "population": population}
    frame = None
    for s in (a, b):
        if s.published is None:
            frame = allot(body, year, options=list(s.options), history=history if s.history is None else s.history,
                          base_year=s.base_year, **inputs)
            break
    if frame is None:
        frame = allot(body, year, history=history, **inputs)
    ca, ra, wa, why_a = _side(body, year, a, inputs, frame, history)
    cb, rb_, wb, why_b = _side(body, year, b, inputs, frame, history)
    eng = frame.engine
    pass_of = {}
    for i, rec in enumerate(eng.records):
        for c in rec.spec.codes:
            pass_of.setdefault(c, i)
    big = len(eng.records)
    u = frame.units
    rows = []
    for pos, code in enumerate(eng.codes.tolist()):
        x, y = ca[code], cb[code]
        if x == y:
            continue
        k = min(pass_of.get(x, big), pass_of.get(y, big))
        step = "UR" if k == big else eng.records[k].spec.name
        clause = frame.ur_clause if k == big else eng.records[k].spec.text.clause
        rows.append({"unit_code": int(code), "unit_name_en": u["unit_name_en"].iat[pos],
                     "unit_name_hi": u["unit_name_hi"].iat[pos], "a": x, "b": y, "step": step, "clause": clause,
                     "rule_a": wa[code], "rule_b": wb[code], "detail": f"A: {why_a[code]} | B: {why_b[code]}"})
    table = pd.DataFrame(rows, columns=DIFF_COLUMNS)
    summary = pd.DataFrame({"category": list(CODES),
                            "a": [sum(1 for v in ca.values() if v == c) for c in CODES],
                            "b": [sum(1 for v in cb.values() if v == c) for c in CODES]})
    summary["change"] = summary["b"] - summary["a"]
    order = [r.spec.name for r in eng.records] + ["UR"]
    steps = pd.DataFrame({"step": order, "units": [int((table["step"] == s).sum()) for s in order]})
    meta = {"body": body, "year": year, "a": a.describe(), "b": b.describe(), "changed": int(len(table)),
            "steps": dict(zip(steps["step"], steps["units"].astype(int).tolist()))}
    result = DiffResult(table, summary, steps, meta, ra, rb_, categories={"a": ca, "b": cb})
    if explain is None:
        explain = (a.published is not None and b.published is not None and a.base_year is not None
                   and b.base_year is not None and a.base_year != b.base_year)
    if explain:
        result.explanation = explain_base_year(body, year, a.published, b.published, a_base_year=a.base_year,
                                               b_base_year=b.base_year, units=units, population=population,
                                               history=history)
        meta["base_year_explanation"] = result.explanation["summary"]
    return result


def _group_code(group: str) -> str:
    return "W" if group == "GEN" else group


def explain_base_year(body: str, year: int, a_published, b_published, *, a_base_year: int, b_base_year: int,
                      units=None, history=None, population=None, options=()) -> dict:
    """Explain the difference between two published lists by their rotation base (see the module text).

    Returns a dict: ``table`` (:data:`BASE_YEAR_COLUMNS`: every unit that changes, with its category at the last
    election, its place in the pass's order with the OBC figures assumed, its tier on each base, and a sentence),
    ``implied`` (the history rows the explanation needs: unit codes and names, group, "an election from
    a_base_year before the last"), ``summary`` (what was checked and found), ``audits`` (the four audits: each list
    on each base)."""
    with warnings.catch_warnings():
        # the implied rows stand for "some election from a_base_year before the last": that the other elections of
        # the span have no record is the point, not an assumption to warn about
        warnings.simplefilter("ignore", BaseYearWarning)
        return _explain_base_year(body, year, a_published, b_published, a_base_year, b_base_year, units, history,
                                  population, options)


@dataclass(frozen=True)
class _Lists:
    """The two published lists read against the allotment on the b-list's base: their categories by unit code,
    the pass of each category, the units that change and the passes where they part, the last election."""

    base_b: object
    ca: dict
    cb: dict
    pass_of: dict
    changed: list
    passes: list
    last_year: int | None
    last: dict

    def part(self, c) -> int:
        """The pass where the two lists part for unit ``c`` (the earlier of its two categories' passes)."""
        return min(self.pass_of.get(self.ca[c], 99), self.pass_of.get(self.cb[c], 99))


def _explain_base_year(body, year, a_published, b_published, a_base_year, b_base_year, units, history, population,
                       options) -> dict:
    """:func:`explain_base_year` in its steps: read the lists, imply the a-list's history, audit, explain each
    changed unit, and check one set of OBC figures."""
    inputs = {"units": units, "population": population}
    lists = _read_lists(body, year, a_published, b_published, b_base_year, history, options, inputs)
    implied, hist_a = _implied_history(body, options, lists, a_base_year)
    kw = dict(units=units, population=population, options=options, search_options=False)
    audits = {
        "a_on_a_base": audit(body, year, a_published, history=hist_a, base_year=a_base_year, **kw),
        "b_on_b_base": audit(body, year, b_published, history=history, base_year=b_base_year, **kw),
        "a_on_b_base": audit(body, year, a_published, history=history, base_year=b_base_year, **kw),
    }
    table = _base_year_table(body, year, lists, hist_a, history, a_base_year, b_base_year, options, inputs)
    summary = _base_year_summary(lists, implied, audits, a_base_year)
    return {"table": table, "implied": implied, "summary": summary, "audits": audits}


def _read_lists(body, year, a_published, b_published, b_base_year, history, options, inputs) -> _Lists:
    """Compute the allotment on the b-list's base, read both published lists against it and find the units that
    change, the passes where they part and the categories of the last election before ``year``."""
    base_b = allot(body, year, options=list(options), history=history, base_year=b_base_year, **inputs)
    pa = load_published(a_published, base_b.resolve)
    pb = load_published(b_published, base_b.resolve)
    ca = dict(zip(pa["unit_code"].astype(int), pa["category"]))
    cb = dict(zip(pb["unit_code"].astype(int), pb["category"]))
    eng = base_b.engine
    codes = eng.codes.tolist()
    pass_of = {}
    for i, rec in enumerate(eng.records):
        for c in rec.spec.codes:
            pass_of.setdefault(c, i)
    changed = [c for c in codes if ca[c] != cb[c]]
    passes = sorted({min(pass_of.get(ca[c], 99), pass_of.get(cb[c], 99)) for c in changed})
    h = base_b.history
    last_year = max((int(y) for y in h["year"].unique() if int(y) < year), default=None)
    last = {int(u): c for u, y, c in zip(h["unit_code"], h["year"], h["category"]) if int(y) == last_year}
    return _Lists(base_b, ca, cb, pass_of, changed, passes, last_year, last)


def _implied_history(body, options, lists: _Lists, a_base_year) -> tuple[list, pd.DataFrame]:
    """The history the a-list needs, as ``(implied, hist_a)``: ``implied`` lists ``(unit code, group)`` for the
    units the b-list gives a group and the a-list does not, unless they held the group at the last election (then
    they are tier 3 on both bases); ``hist_a`` is the history with those rows added in ``a_base_year``, each row's
    ``source`` saying which it is."""
    eng, ca, cb = lists.base_b.engine, lists.ca, lists.cb
    women_history = options_of(get_rulebook(body), options).values.get("women_history", "general_only")
    implied = []
    for c in lists.changed:
        for i in lists.passes:
            rec = eng.records[i]
            if cb[c] in rec.spec.codes and ca[c] not in rec.spec.codes:
                if lists.last.get(c) not in group_codes(rec.spec.group, women_history):
                    implied.append((c, _group_code(rec.spec.group)))
    h = lists.base_b.history
    hist_a = h[["unit_code", "year", "category"]].copy()
    extra = pd.DataFrame({"unit_code": [c for c, _ in implied], "year": a_base_year,
                          "category": [g for _, g in implied]})
    hist_a = pd.concat([hist_a, extra], ignore_index=True)
    hist_a["source"] = ["history" if i < len(h) else f"implied by the list made on base {a_base_year}"
                        for i in range(len(hist_a))]
    return implied, hist_a


def _base_year_table(body, year, lists: _Lists, hist_a, history, a_base_year, b_base_year, options,
                     inputs) -> pd.DataFrame:
    """The table of :func:`explain_base_year` (:data:`BASE_YEAR_COLUMNS`): each changed unit's place in the order
    of its pass (the a-list's earlier passes pinned, the OBC figures assumed), its tier on each base, and the
    sentence that explains it; sorted by place, then unit code."""
    ca, cb, last_year = lists.ca, lists.cb, lists.last_year
    codes = lists.base_b.engine.codes.tolist()
    at = {c: i for i, c in enumerate(codes)}
    pins = pd.DataFrame([(c, ca[c]) for c in codes if lists.pass_of.get(ca[c], 99) < min(lists.passes)],
                        columns=["unit_code", "category"])
    pins["source"], pins["_row"] = "list", np.arange(2, len(pins) + 2)
    run_b = allot(body, year, options=list(options), history=history, base_year=b_base_year, pins=pins, **inputs)
    run_a = allot(body, year, options=list(options), history=hist_a, base_year=a_base_year, pins=pins, **inputs)
    rows = []
    names = lists.base_b.units["unit_name_en"].to_numpy()
    for c in lists.changed:
        i = lists.part(c)
        rec_b, rec_a = run_b.engine.records[i], run_a.engine.records[i]
        place = {int(p): k + 1 for k, p in enumerate(rec_b.key_order)}
        pos = at[c]
        tb, ta = int(rec_b.tier[pos]), int(rec_a.tier[pos])
        g = _group_code(rec_b.spec.group)
        if ca[c] in rec_b.spec.codes:
            sent = (f"{ca[c]} in the list made on base {a_base_year}: tier {ta} there; on base {b_base_year} "
                    f"tier {tb}, and the list made on it gives {cb[c]}")
        else:
            sent = (f"{cb[c]} in the list made on base {b_base_year} (tier {tb}: not {g} in {last_year}); the list "
                    f"made on base {a_base_year} leaves it {ca[c]}, which is lawful only if it held {g} in an "
                    f"election of {a_base_year}-{last_year - 5 if last_year else ''} (tier {ta} on that base)")
        rows.append({"unit_code": c, "unit_name_en": names[pos], "a": ca[c], "b": cb[c],
                     "last_election": lists.last.get(c, ""), "order": place.get(pos, 0),
                     "tier_b_base": tb, "tier_a_base": ta, "explanation": sent})
    return pd.DataFrame(rows, columns=BASE_YEAR_COLUMNS).sort_values(["order", "unit_code"]).reset_index(drop=True)


def _held(res, name: str) -> dict:
    """Whether each rule of the pass ``name`` held in the audit ``res``, by rule."""
    rules = res.rules[res.rules["step"] == f"{name} pass"]
    return {r: h_ for r, h_ in zip(rules["rule"], rules["held"])}


def _base_year_summary(lists: _Lists, implied, audits, a_base_year) -> dict:
    """The summary of :func:`explain_base_year`: the changed units by step, the steps where the lists agree, the
    implied history in words, which rules of the changed passes hold in each audit, and whether one set of OBC
    figures satisfies both lists on one base (ties refused) and each on its own base."""
    eng, names, last_year = lists.base_b.engine, lists.base_b.units["unit_name_en"].to_numpy(), lists.last_year
    at = {c: i for i, c in enumerate(eng.codes.tolist())}
    both_b = _joint([audits["a_on_b_base"], audits["b_on_b_base"]], strict=True)
    own = _joint([audits["a_on_a_base"], audits["b_on_b_base"]], strict=True)
    step = {i: eng.records[i].spec.name for i in lists.passes}
    return {
        "changed_units": len(lists.changed),
        "changed_by_step": {step[i]: sum(1 for c in lists.changed if lists.part(c) == i) for i in lists.passes},
        "identical_steps": [r.spec.name for k, r in enumerate(eng.records) if k not in lists.passes],
        "implied_history": [f"{names[at[c]]}: {g} in an election of {a_base_year}-{(last_year or a_base_year) - 5}"
                            for c, g in implied],
        "a_on_a_base": {step[i]: _held(audits["a_on_a_base"], step[i]) for i in lists.passes},
        "b_on_b_base": {step[i]: _held(audits["b_on_b_base"], step[i]) for i in lists.passes},
        "a_on_b_base": {step[i]: _held(audits["a_on_b_base"], step[i]) for i in lists.passes},
        "one_figure_set_same_base": both_b,
        "one_figure_set_own_bases": own,
    }


def _joint(results, strict: bool) -> bool:
    """Whether one set of OBC figures satisfies the statements of several audits at once (same units)."""
    statements = []
    for r in results:
        statements += r.walk.statements
    if not statements:
        return True
    u = results[0].computed.units
    pop = u["pop"].to_numpy(dtype=np.int64)
    a_all = pop - u["sc"].to_numpy(dtype=np.int64) - u["st"].to_numpy(dtype=np.int64)
    involved = sorted({p for s in statements for p in s.above + s.below})
    b = solve(statements, {p: int(a_all[p]) for p in involved}, {p: int(pop[p]) for p in involved}, strict=strict)
    share = results[0].computed.meta.get("options", {}).get("obc_state_share", {}).get("value")
    if share is not None and b.feasible:
        total = Fraction(share) / 100 * int(pop.sum())
        rest = int(a_all.sum()) - sum(int(a_all[p]) for p in involved)
        return bool(b.sum_lo <= total <= b.sum_hi + rest)
    return bool(b.feasible)
