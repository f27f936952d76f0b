"""Was the published list lawful? The audit of a published reservation list against the law and our computation.

``audit(body, year, published, ...)`` takes the same inputs as :func:`reservation.allotment.pipeline.allot` and a
published list (:mod:`reservation.inputs.published`), and returns one row per unit (:data:`AUDIT_COLUMNS`):
``unit_code, unit_name_en, unit_name_hi, published, computed, finding, rule, clause, detail, step, check`` (the
last two typed: the pass, as its codes, and the check of it that decided the finding; :mod:`.verdicts` counts them).

``computed`` is our own allotment with the same inputs and options. The published list is checked pass by pass
in the legal order, each pass with the list's earlier passes as published (:mod:`reservation.auditing.walk`).
``finding`` is exactly one of :data:`FINDINGS`:

``match``
    the list gives the unit what we compute, and no rule is broken at it.
``violation_count``
    a category total of the list differs from the law's arithmetic (in the unit's counting unit); the unit is
    one of the surplus (the last of its group in the pass's order; for a women's code, the last women or the
    first non-women), or the unit the rules would have added for a missing post. Where the counting unit is
    below the State (a district, a block) and OBC figures are not given, the OBC and women's counts of a counting
    unit depend on them: such a difference is ``depends_on_unpublished_data``, unless the list's State total of
    OBC posts differs from the State count (public), which is a ``violation_count``.
``violation_rotation``
    the unit took a group though a unit of a better rotation tier was left without it (tier 1 never held the
    group since the base year, tier 2 not at the last election, tier 3 held it at the last election); the unit
    left without it carries the same finding ("left without ...").
``violation_order``
    within a tier, the unit took the group though a unit with a higher *public* key (SC or ST share, a
    population) was left without it, or the unit may not take the group at all (two-person rule); the unit left
    without it carries the same finding.
``violation_women``
    the group's women's posts are not the first of its units (as published) in rotation order: the women's unit
    and the unit that should have had the women's post both carry it.
``violation_division``
    all units of a division hold the group in the list (the rule makes its least populous unit chosen in the
    pass unreserved); or the list leaves out, as if the rule had freed it, a unit ahead of a unit it gives the
    group, while another unit of the division is the least populous (both units of the swap carry it); or a unit
    the rule made unreserved holds a later group (``saturation_effect=unreserved``).
``explained_by_option``
    the unit's violation or unexplained difference disappears under a named option (each other reading of each
    choice option, and each other base year of the history, one at a time; then pairs of those that changed the
    unit's finding): under it the unit, and the unit on the other side of its finding (or, for a knock-on, the
    earlier differences), match or depend only on OBC data, and no other unit becomes a violation or changes
    violation; ``detail`` names the option. Options refused for breaking other units are in ``meta``.
``depends_on_unpublished_data``
    the unit differs from our computation only where the order (or a count) depends on OBC figures, which are
    not public, and some OBC figures make the list lawful at every unit at once (the statements of every OBC-
    dependent pass are solved together, exactly: :mod:`reservation.auditing.unknowns`, with the State's OBC share as the
    total); ``detail`` says what the unit's OBC share must be.
*knock-on*
    a unit whose own place is lawful given the earlier passes as published (the rules, with the OBC figures
    assumed, give it the listed category once the list's earlier passes are pinned) and that differs from our
    computation only because an earlier pass differs takes the finding of that earlier difference:
    ``depends_on_unpublished_data`` when an earlier difference depends on OBC figures, else the earlier violation;
    its ``rule`` ends in "knock-on" and ``detail`` names the earlier differences.
``unexplained``
    anything else (the detail says what was tried; where the list lacks units of the unit's counting unit, that
    the count could not be checked).
``not_in_list``
    the published list does not give the unit (its category is unknown, not unreserved). The units the list
    gives are audited without it: in its counting unit a group's count the list leaves short by no more than the
    units it lacks is not checked (the rules table says ``not_in_list`` and names the units the rules would have
    given the posts); a count above the law's is still a ``violation_count``.

Ties between unknown keys count as lawful (a lot may break them); ties between public keys broken otherwise than
by our tie-break rule are ``unexplained`` unless ``tie_break=code`` explains them. Every row carries the rule
step and the clause of the rulebook that decided it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pandas as pd

from .walk import Walk, _Ctx, walk
from ..law.categories import CODES
from ..engine.passes import RuleError
from ..base.errors import InputError
from ..allotment.flags import flags_of
from ..inputs.user_files import describe_input
from ..allotment.pipeline import allot, options_of
from ..inputs.published import load_published
from ..rules.registry import get_rulebook
from .held import RULE_COLUMNS, rule_checks, rules_held
from .verdicts import verdict_records, verdicts
from .unknowns import key_at, solve
from ..law.words_audit import Cat, Detail, Group, Join, Kind, Options, Pct, detail, render

__all__ = ["FINDINGS", "AUDIT_COLUMNS", "RULE_COLUMNS", "STOPS", "AuditResult", "audit", "candidate_options"]

FINDINGS = ("match", "violation_count", "violation_rotation", "violation_order", "violation_women",
            "violation_division", "explained_by_option", "depends_on_unpublished_data", "unexplained", "not_in_list")
#: the findings that say a rule is broken
VIOLATIONS = ("violation_count", "violation_rotation", "violation_order", "violation_women", "violation_division")
AUDIT_COLUMNS = ["unit_code", "unit_name_en", "unit_name_hi", "published", "computed", "finding", "rule", "clause",
                 "detail", "step", "check"]
#: readings that refuse (stop with an error) rather than give another list (rotation_fallback, shortfall_fallback,
#: shortfall_excess)
STOPS = ("error",)


class Row(NamedTuple):
    """One unit's finding: the finding code, the rule step and the clause (words of the rulebook), the detail (typed:
    a :class:`~reservation.law.words_audit.Detail`, "" without words), and whether the finding is a knock-on (the
    unit is lawful given the list's earlier passes as published and takes the finding of an earlier difference;
    its ``rule`` then ends in "knock-on")."""

    finding: str
    rule: str
    clause: str
    detail: Detail | str
    knock_on: bool = False
    step: str = ""          # the pass (its codes, "SC_W+SC") whose rule decided the finding; a match: its own
    check: str = ""         # the check of that pass (reservation.auditing.findings.CHECK_WORDS); "" for a match
    clause_hi: str | None = ""   # the clause in Hindi; None: the computed table's (a match, verdicts.table_in)


@dataclass
class AuditResult:
    """``table`` (:data:`AUDIT_COLUMNS`), ``rules`` (whether each rule held: :data:`RULE_COLUMNS`), ``verdicts``
    (one :class:`~reservation.auditing.verdicts.Verdict` per rule, counted from the table), ``summary``
    (units per finding), ``flags`` (constitutional flags of the published list), ``meta`` (inputs, options,
    assumptions, what was tried), ``computed`` (our :class:`~reservation.allotment.result.Allotment`),
    ``explained_by`` (unit_code -> the options, as ``((name, value), ...)``, under which the rules give the
    published category, for each unit found ``explained_by_option``), ``options_tried`` (the option search's
    trials, each ``((name, value), ...)``) and ``options_refused`` (trial -> the lawful units it would break)."""

    table: pd.DataFrame
    rules: pd.DataFrame
    summary: pd.DataFrame
    flags: pd.DataFrame
    meta: dict
    computed: object = None
    verdicts: list = field(default_factory=list)
    walk: Walk | None = field(default=None, repr=False)
    explained_by: dict = field(default_factory=dict)
    options_tried: list = field(default_factory=list)
    options_refused: dict = field(default_factory=dict)
    clause_hi: list = field(default_factory=list)   # the clause column in Hindi (None: a match's, from computed)
    details: list = field(default_factory=list)     # the detail column typed (words_audit.render: in any language)


def _pct(x: Fraction) -> Pct:
    h = (x.numerator * 20000 + x.denominator) // (2 * x.denominator)
    return Pct(f"{h // 100}.{h % 100:02d}")


class _Run:
    """One computation and its walk under one option set."""

    def __init__(self, body, year, inputs, opts_list, pub, covered_codes, base=None, words=True):
        self.body, self.year, self.inputs, self.opts_list = body, year, inputs, list(opts_list)
        self.words = words
        self.base = base if base is not None else allot(body, year, options=self.opts_list, **inputs)
        eng = self.base.engine
        at = pd.Series(np.arange(len(eng.codes)), index=eng.codes)
        self.pub_idx = np.full(len(eng.codes), -1, dtype=np.int64)
        self.pub_idx[at[pub["unit_code"]].to_numpy()] = [CODES.index(c) for c in pub["category"]]
        self.covered = np.isin(eng.codes, covered_codes)
        self.obc_given = "obc" in self.base.units.columns

        def run_allot(pins):
            return allot(body, year, options=self.opts_list, pins=pins, **inputs)

        self.ctx = _Ctx(self.base, self.pub_idx, self.covered, run_allot, self.obc_given)
        self.ctx.words = words
        self.walk = walk(self.ctx)
        u = self.base.units
        self._pop = u["pop"].to_numpy(dtype=np.int64)
        self._a = self._pop - u["sc"].to_numpy(dtype=np.int64) - u["st"].to_numpy(dtype=np.int64)
        self.bounds, self.total = self._solve()
        self.rows = self._classify()

    # -- the unknown OBC figures ------------------------------------------------------------------------------
    def _solve(self):
        w = self.walk
        rb = get_rulebook(self.body)
        self.share = share = Fraction(rb.obc_share(self.ctx.opts)[0]) if rb.obc_share else None
        if not w.statements:
            return None, None
        u = self.base.units
        pop = u["pop"].to_numpy(dtype=np.int64)
        a_all = pop - u["sc"].to_numpy(dtype=np.int64) - u["st"].to_numpy(dtype=np.int64)
        involved = sorted({p for s in w.statements for p in s.above + s.below})
        a = {p: int(a_all[p]) for p in involved}
        popd = {p: int(pop[p]) for p in involved}
        b = solve(w.statements, a, popd)
        total = None
        if share is not None:
            total = share * int(pop.sum())
            rest_hi = int(a_all.sum()) - sum(a.values())
            b.total_ok = b.sum_lo <= total <= b.sum_hi + rest_hi
            b.feasible = b.converged and not b.empty and b.total_ok
        return b, total

    def _stmt_text(self, p: int, short: bool = False) -> Join | str:
        """What the published list needs of the unit's unknown OBC figure (a detail)."""
        if not self.words:
            return ""
        w, ctx = self.walk, self.ctx
        pop, a = self._pop, self._a
        parts = []
        for k, role in ([] if short else w.roles.get(p, [])):
            s, info = w.statements[k], w.stmt_info[k]
            other = s.below if role == "above" else s.above
            what = (detail("audit.stmt.what_women") if info["what"] == "women" and info["group"] != "women" else
                    detail("audit.stmt.what", group=Group(info["code"])))
            assumed = ""
            if self.share is not None and s.kind != "obc_share":
                ks = [key_at(s.kind, self.share * int(pop[j]), int(a[j]), int(pop[j])) for j in other]
                edge = max(ks) if role == "above" else min(ks)
                y = a[p] - edge if s.kind == "outside_people" else a[p] - edge * int(pop[p])
                y = min(max(Fraction(y), Fraction(0)), Fraction(int(a[p])))
                assumed = detail("audit.stmt.assumed", share=_pct(self.share),
                                 bound=detail(f"audit.bound.{'at_most' if role == 'above' else 'at_least'}"),
                                 pct=_pct(y / int(pop[p]) if pop[p] else Fraction(0)))
            parts.append(detail("audit.stmt", step=Cat(ctx.eng.records[info["pass"]].spec.name), tier=info["tier"],
                                what=what, key=detail(f"audit.key.{s.kind}"), than=detail(f"audit.stmt.{role}"),
                                names=ctx.units(other), assumed=assumed))
        if self.bounds is not None and p in self.bounds.lo:
            lo, hi = self.bounds.share(p, int(pop[p]))
            parts.append(detail("audit.bounds.short" if short else "audit.bounds.all", lo=_pct(lo), hi=_pct(hi)))
        return Join(tuple(parts))

    def _step(self, i: int) -> str:
        """The code of pass ``i`` ("SC_W+SC"), as the allotment table's ``step``."""
        return self.ctx.eng.records[i].spec.name if i >= 0 else ""

    # -- classification ------------------------------------------------------------------------------------------
    def _classify(self) -> dict:
        base, w, ctx = self.base, self.walk, self.ctx
        table = base.table
        comp = base.engine.category_codes()
        rows = {}
        self.partner = {}
        for p in np.flatnonzero(self.pub_idx >= 0):
            p = int(p)
            pub, cmp_ = ctx.pub_code(p), str(comp[p])
            issues = sorted(w.issues.get(p, []), key=lambda x: x.order)
            viol = [x for x in issues if x.finding in VIOLATIONS]
            step, clause = str(table["step"].iat[p]), str(table["clause"].iat[p])
            if viol:
                v = viol[0]
                first = render(v.detail) if self.words else ""
                more = tuple(x.detail for x in viol[1:3] if self.words and render(x.detail) != first)
                det = detail("audit.also", first=v.detail, more=Join(more)) if more else v.detail
                self.partner[p] = [] if v.partner is None else [v.partner]
                f = "depends_on_unpublished_data" if v.unknown else v.finding
                rows[p] = Row(f, v.rule, v.clause, det, False, self._step(v.pass_index), v.check, v.clause_hi)
                continue
            odd = [x for x in issues if x.finding in ("cannot_check", "tie")]
            if odd and pub != cmp_:
                self.partner[p] = [] if odd[0].partner is None else [odd[0].partner]
                rows[p] = Row("unexplained", odd[0].rule, odd[0].clause, odd[0].detail, False,
                              self._step(odd[0].pass_index), odd[0].check, odd[0].clause_hi)
                continue
            if pub == cmp_:
                note = ""
                if p in w.roles and self.words:
                    note = detail("audit.match_obc", text=self._stmt_text(p, short=True))
                rows[p] = Row("match", f"{step} pass" if step not in ("UR", "pin") else step, clause,
                              detail("audit.match", note=note) if self.words else "", False, step, "", None)
                continue
            if w.walk_cat.get(p, "UR") == pub:
                rows[p] = None                           # lawful given the earlier passes: a knock-on
                continue
            if p in w.roles:
                ok = self.bounds is not None and self.bounds.feasible and p not in self.bounds.empty
                k, _role = w.roles[p][0]
                info = w.stmt_info[k]
                rule = f"{ctx.eng.records[info['pass']].spec.name} pass: order (not public)"
                cl, cl_hi = w.passes[info["pass"]]["clause"], w.passes[info["pass"]]["clause_hi"]
                typed = (self._step(info["pass"]), "women" if info["what"] == "women" else "order")
                if ok:
                    rows[p] = Row("depends_on_unpublished_data", rule, cl,
                                  detail("audit.depends", key=detail(f"audit.key.{w.statements[k].kind}"),
                                         text=self._stmt_text(p)), False, *typed, cl_hi)
                else:
                    total = ("" if self.bounds is None or self.bounds.total_ok else
                             detail("audit.infeasible.total", share=_pct(self.share)))
                    rows[p] = Row("unexplained", rule, cl, detail("audit.infeasible", total=total,
                                                                  text=self._stmt_text(p)), False, *typed, cl_hi)
                continue
            rows[p] = None                               # knock-on: decided below
        self._knock_on(rows, comp)
        return rows

    def _knock_on(self, rows, comp):
        ctx, w = self.ctx, self.walk
        big = 1 << 30

        def pass_of(code):
            return ctx.pass_of.get(code, big)

        diffs = [(p, r) for p, r in rows.items() if r is not None and r.finding != "match"]
        for p, r in list(rows.items()):
            if r is not None:
                continue
            pub, cmp_ = ctx.pub_code(p), str(comp[p])
            d = min(pass_of(pub), pass_of(cmp_))
            earlier = [(q, x) for q, x in diffs
                       if min(pass_of(ctx.pub_code(q)), pass_of(str(comp[q]))) < d]
            step = "unreserved" if d >= big else f"{ctx.eng.records[d].spec.name} pass"
            said = {"pub": Cat(pub), "computed": Cat(cmp_), "names": ctx.units([q for q, _ in earlier], 5)}
            self.partner[p] = [q for q, _ in earlier]          # a knock-on is explained only with its causes
            dep = [x for _, x in earlier if x.finding == "depends_on_unpublished_data"]
            viol = [x for _, x in earlier if x.finding in VIOLATIONS]
            clause = w.passes[d]["clause"] if d < big else self.base.ur_clause
            clause_hi = w.passes[d]["clause_hi"] if d < big else self.base.ur_clauses["hi"]
            rule = render(detail("audit.knock_on_rule", step=step))
            typed = ("UR" if d >= big else self._step(d), "knock_on")
            if dep:
                rows[p] = Row("depends_on_unpublished_data", rule, clause,
                              detail("audit.knock_on", dep=detail("audit.knock_on.dep"), **said), True, *typed,
                              clause_hi)
            else:
                rows[p] = Row(viol[0].finding if viol else "unexplained", rule, clause,
                              detail("audit.knock_on", dep="", **said), True, *typed, clause_hi)


def candidate_options(body: str, opts_list, history_years=(), base_year=None, year=None) -> list[tuple[str, str]]:
    """The named options tried one at a time: every other reading of every choice option of the rulebook, and
    every other base year the history holds (as ``("base_year", "Y")``). A reading that stops with an error
    where the text is silent (:data:`STOPS`) is not tried: it gives the list of the reading it stops instead of,
    or no list at all, so it explains no published list."""
    rb = get_rulebook(body)
    current = options_of(rb, opts_list)
    out = []
    for name, opt in rb.options.items():
        if opt.kind != "choice":
            continue
        for value in opt.readings:
            if value != current.values[name] and value not in STOPS:
                out.append((name, value))
    for y in sorted(set(int(y) for y in history_years)):
        if (year is None or y < year) and y != base_year:
            out.append(("base_year", str(y)))
    return out


def _with(opts_list, inputs, x):
    name, value = x
    if name == "base_year":
        return list(opts_list), {**inputs, "base_year": int(value)}
    return [o for o in opts_list if not o.startswith(f"{name}=")] + [f"{name}={value}"], inputs


def _reading(body, x) -> Detail | str:
    name, value = x
    if name == "base_year":
        return detail("audit.base_year", year=value)
    return get_rulebook(body).options[name].readings.get(value, "")


def audit(body: str, year: int, published, *, units=None, history=None, population=None, options=(),
          base_year=None, search_options: bool = True, max_pairs: int = 8) -> AuditResult:
    """Audit a published list (a CSV path or a DataFrame ``unit,category``) of ``body`` for ``year``; the other
    arguments as :func:`reservation.allotment.pipeline.allot`. ``search_options``: try the named options for the units
    that differ (``explained_by_option``)."""
    rb = get_rulebook(body)
    opts_list = [f"{k}={v}" for k, v in options_of(rb, options).values.items()]
    inputs = {"units": units, "history": history, "population": population, "base_year": base_year}
    first = allot(body, year, options=opts_list, **inputs)
    pub = load_published(published, first.resolve, year=year)
    path = pub.attrs.get("path", "published table")
    if not len(pub):
        raise InputError(f"the published list gives no {rb.unit_kind}" + (
            f" of {year} (its 'year' column)" if "year" in pub.attrs.get("columns", ()) else " (a header without rows)"),
            file=path, row=2)
    eng = first.engine
    known = pd.Series(np.arange(len(eng.codes)), index=eng.codes)
    missing = ~pub["unit_code"].isin(known.index)
    if missing.any():
        i = int(np.flatnonzero(missing.to_numpy())[0])
        raise InputError(f"unit {int(pub['unit_code'].iat[i])} is not a {rb.unit_kind} of {body} in {year}",
                         file=path, row=int(pub["_row"].iat[i]), column=pub.attrs.get("unit_column", "unit"))
    pos = known[pub["unit_code"]].to_numpy()
    in_cov = np.isin(eng.par, np.unique(eng.par[pos]))     # the counting units the list gives a unit of
    covered_codes = eng.codes[in_cov]
    # the walk and the trials read the history once (a table, not the files again)
    quick = {**inputs, "history": first.history[["unit_code", "year", "category", "source"]].copy()}
    if units is not None and not isinstance(units, pd.DataFrame):
        quick["units"] = _units_table(body, year, first, opts_list, quick)
    run = _Run(body, year, quick, opts_list, pub, covered_codes, base=first)
    rows = dict(run.rows)
    tried, refused, explained = [], [], {}
    if search_options:
        tried, refused, explained = _search(run, rows, body, year, quick, opts_list, pub, covered_codes, max_pairs)
    table, clause_hi, details = _table(run, rows)
    # the flags measure whole counting units: only those the list gives every unit of
    gaps = np.unique(eng.par[run.ctx.missing])
    listed = (run.pub_idx >= 0) & ~np.isin(eng.par, gaps)
    checks = rule_checks(run)
    rules = rules_held(run, checks)
    vs = verdicts(table, checks, eng.codes, rb.unit_kind)
    summary = pd.DataFrame({"finding": list(FINDINGS),
                            "units": [int((table["finding"] == f).sum()) for f in FINDINGS]})
    share = run.share
    fl = flags_of(table["published"].to_numpy()[listed], run.base.units[listed].reset_index(drop=True),
                  None if run.base.parent_column is None else
                  np.asarray(eng.parent_labels, dtype=object)[eng.par[listed]], obc_share=share)
    meta = dict(run.base.meta)
    meta["inputs"] = dict(meta.get("inputs", {}))
    if not isinstance(published, pd.DataFrame):
        meta["inputs"]["published"] = describe_input(published)
    meta["audit"] = {"findings": dict(zip(summary["finding"], summary["units"].astype(int).tolist())),
                     "units": int(len(table)), "units_listed": int((run.pub_idx >= 0).sum()),
                     "flags_not_checked": [str(eng.parent_labels[q]) for q in gaps],
                     "options_tried": [" + ".join(f"{a}={b}" for a, b in xs) for xs in tried],
                     "options_refused": [{"options": " + ".join(f"{a}={b}" for a, b in xs), "would_break": names}
                                         for xs, names in refused],
                     "obc_statements": len(run.walk.statements),
                     "obc_feasible": None if run.bounds is None else bool(run.bounds.feasible),
                     "verdicts": verdict_records(vs), "rules": rules.to_dict(orient="records"),
                     "flags_of_published": fl.to_dict(orient="records")}
    return AuditResult(table=table, rules=rules, summary=summary, flags=fl, meta=meta, computed=run.base, verdicts=vs,
                       walk=run.walk, explained_by={int(eng.codes[p]): xs for p, xs in explained.items()},
                       options_tried=[tuple(xs) for xs in tried],
                       options_refused={tuple(xs): list(names) for xs, names in refused}, clause_hi=clause_hi,
                       details=details)


def _units_table(body, year, first, opts_list, quick):
    """The user's units as the table already read, when the rulebook takes a table and gives the same result with
    it (else the file again): the walk and the trials then do not parse the file each time."""
    try:
        again = allot(body, year, options=opts_list, **{**quick, "units": first.units})
    except Exception:                # a rulebook that reads only files (kp-chair's block table): keep the file
        return quick["units"]
    same = (np.array_equal(again.engine.codes, first.engine.codes)
            and np.array_equal(again.engine.category, first.engine.category))
    return first.units if same else quick["units"]


class _Search:
    """The option search of one audit (:func:`_search`): the units it tries to explain, the trials it ran and
    the options it refused."""

    OK = ("match", "depends_on_unpublished_data")

    def __init__(self, run, rows, body, year, inputs, opts_list, pub, covered_codes):
        self.run, self.body, self.year, self.inputs, self.opts_list = run, body, year, inputs, opts_list
        self.pub, self.covered_codes = pub, covered_codes
        self.targets = [p for p, r in rows.items() if r.finding in VIOLATIONS or r.finding == "unexplained"]
        self.before = {p: r.finding for p, r in rows.items()}
        self.tried, self.refused = [], []

    def fine(self, r, q) -> bool:
        """The unit is lawful under the trial's options, and not only as a knock-on."""
        return r.rows[q].finding in self.OK and not r.rows[q].knock_on

    def explains(self, r, p, broken) -> bool:
        """The unit and everyone on the other side of its finding are lawful under the trial."""
        return not broken and self.fine(r, p) and all(self.fine(r, q) for q in self.run.partner.get(p, []))

    def trial(self, xs):
        """The audit under the options ``xs`` (None when they refuse the inputs) and the units it would break."""
        ol, inp = self.opts_list, self.inputs
        for x in xs:
            ol, inp = _with(ol, inp, x)
        try:
            r = _Run(self.body, self.year, inp, ol, self.pub, self.covered_codes, words=False)
        except (InputError, RuleError):
            return None
        _realign(r, self.run)
        self.tried.append(xs)
        ok = self.OK
        broken = [q for q, f in self.before.items()
                  if r.rows[q].finding not in ok and (f in ok or (r.rows[q].finding != f and q not in self.targets))]
        if broken:
            self.refused.append((xs, [self.run.ctx.name(q) for q in broken]))
        return r, broken


def _search(run, rows, body, year, inputs, opts_list, pub, covered_codes, max_pairs):
    """Try the named options for the units with a violation or an unexplained difference. An option (or pair)
    explains a unit when under it the unit matches or depends only on OBC data, and no unit that matched or
    depended only on OBC data before gets a violation or becomes unexplained, and no other unit's finding turns into
    another violation (an option may not trade one difference for another); the unit on the other side of the
    unit's finding (who took its post, or whose post it took) must be lawful under it too. Returns [(option, ...)]
    tried, [(option, units it would break)] refused and {position: (option, ...)} the options that explain each
    unit explained."""
    s = _Search(run, rows, body, year, inputs, opts_list, pub, covered_codes)
    if not s.targets:
        return [], [], {}
    cands = candidate_options(body, opts_list, run.base.history["year"].unique() if len(run.base.history) else (),
                              run.base.meta["base_year"], year)
    explained: dict[int, list] = {p: [] for p in s.targets}
    changed = _try_singles(s, cands, explained)
    _try_pairs(s, changed, explained, max_pairs)
    return s.tried, s.refused, _explain_rows(s, rows, explained, len(cands))


def _try_singles(s: _Search, cands, explained) -> dict[int, list]:
    """Each option alone: what it explains (into ``explained``); returns, per unit, the options that changed its
    finding."""
    changed: dict[int, list] = {p: [] for p in s.targets}
    for x in cands:
        got = s.trial((x,))
        if got is None:
            continue
        r, broken = got
        for p in s.targets:
            f = r.rows[p].finding
            if s.explains(r, p, broken):
                explained[p].append(((x,), f))
            if f != s.before[p]:
                changed[p].append(x)
    return changed


def _try_pairs(s: _Search, changed, explained, max_pairs: int) -> None:
    """Pairs of the options that changed an unexplained unit's finding (of two different options), at most
    ``max_pairs``."""
    pairs = []
    for p in s.targets:
        if explained[p]:
            continue
        for a, b in itertools.combinations(changed[p], 2):
            if a[0] != b[0] and (a, b) not in pairs:
                pairs.append((a, b))
    for xs in pairs[:max_pairs]:
        got = s.trial(xs)
        if got is None:
            continue
        r, broken = got
        for p in s.targets:
            if not explained[p] and s.explains(r, p, broken):
                explained[p].append((xs, r.rows[p].finding))


def _explain_rows(s: _Search, rows, explained, n_cands: int) -> dict[int, tuple]:
    """The rows of the units the search explained (``explained_by_option``, naming the options) or did not (an
    unexplained unit says what was tried); returns {position: the options that explain it}."""
    by = {}
    for p in s.targets:
        if not explained[p]:
            r = rows[p]
            if r.finding == "unexplained" and s.tried:
                rows[p] = r._replace(detail=detail("audit.no_option", text=r.detail, n=n_cands))
            continue
        xs, f = explained[p][0]
        by[p] = xs
        name = Options(tuple(xs), tuple(_reading(s.body, x) for x in xs))
        also = Join(tuple(Options(tuple(e[0])) for e in explained[p][1:4]), ", ")
        text = detail("audit.explained", options=name, code=Cat(s.run.ctx.pub_code(p)),
                      unknown=detail("audit.explained.unknown") if f == "depends_on_unpublished_data" else "",
                      also=detail("audit.explained.also", options=also) if also.parts else "", text=rows[p].detail)
        rows[p] = rows[p]._replace(finding="explained_by_option", detail=text)
    return by


def _realign(r, run) -> None:
    """A trial's rows keyed by the positions of the audit's own run: an option may order the units otherwise
    (``np_method=state_level`` counts the Nagar Panchayats in the State, not in divisions)."""
    codes = r.base.engine.codes
    if np.array_equal(codes, run.base.engine.codes):
        return
    at = dict(zip(run.base.engine.codes.tolist(), range(len(run.base.engine.codes))))
    r.rows = {at[int(codes[p])]: v for p, v in r.rows.items()}


def _table(run, rows) -> tuple[pd.DataFrame, list, list]:
    """One row per unit of the body: the listed units as classified, the others ``not_in_list``; the clause
    column in Hindi and the detail column typed (the table's is its English)."""
    base = run.base
    comp = base.engine.category_codes()
    rows = {**{int(p): _absent(run, int(p)) for p in np.flatnonzero(run.pub_idx < 0)}, **rows}
    ps = sorted(rows)
    u = base.units
    df = pd.DataFrame({
        "unit_code": base.engine.codes[ps].astype(np.int64),
        "unit_name_en": u["unit_name_en"].to_numpy()[ps], "unit_name_hi": u["unit_name_hi"].to_numpy()[ps],
        "published": [run.ctx.pub_code(p) if run.pub_idx[p] >= 0 else "" for p in ps],
        "computed": [str(comp[p]) for p in ps],
        "finding": [rows[p].finding for p in ps], "rule": [rows[p].rule for p in ps],
        "clause": [rows[p].clause for p in ps], "detail": [render(rows[p].detail) for p in ps],
        "step": [rows[p].step for p in ps], "check": [rows[p].check for p in ps]})
    return df[AUDIT_COLUMNS], [rows[p].clause_hi for p in ps], [rows[p].detail for p in ps]


def _absent(run, p: int) -> Row:
    """The row of a unit the published list does not give."""
    base, rb = run.base, get_rulebook(run.body)
    kind = Kind(rb.unit_kind)
    where = ("" if base.parent_column is None else
             detail("audit.absent_where", parent=Kind(rb.parent_word),
                    label=run.ctx.division_words(base.engine.parent_labels[base.engine.par[p]]),
                    uncovered="" if run.covered[p] else detail("audit.absent_uncovered", unit_kind=kind)))
    return Row("not_in_list", "not in the list", "",
               detail("audit.not_in_list", unit_kind=kind, where=where) if run.words else "")
