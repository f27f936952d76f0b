"""The audit's walk: the passes in the legal order, each checked with the published list as given.

For pass ``i`` (ST, SC, OBC, women ... in the order of the rulebook and its options) the walk runs the pipeline
with every unit the published list gives to an *earlier* pass pinned to its published category, so that the
engine sees exactly the pool the published list left for pass ``i``. It then checks the published choice of pass
``i`` against that pass's rule, per counting unit (parent):

1. **counts**: the pass's posts (and its women's posts) against the law's counts; surplus units are the last
   ones of the group in the pass's order (for the women's code: the last women, or the first non-women when the
   list has too few women); a shortfall shows as a unit the rules would have added (paired below);
2. **division rule** (where the pass applies it): a division all of whose units hold the group in the list is
   saturated: its least populous unit chosen in the pass should have been made unreserved; a unit left without
   the group is *excused* when it is exactly the one the rule frees;
3. **eligibility** (two-person rule, where it applies), **rotation** (a unit took the group though a unit of a
   better tier was left without it) and **order** (within a tier, a unit took it though a unit with a higher
   public key was left without it). Where the key is not public (OBC shares; the women's key depends on them)
   the order is not checked but stated: "these units rank at least as high as those" (:mod:`reservation.auditing.unknowns`);
4. **women from the top**: the group's women's posts must be the first of its units (as published) in rotation
   order (tier, then key; option ``category_women=not_women_last`` puts units without a women's office at the
   last election first);
5. **pairing with the rules' own choice**: the engine's choice for the pass (given the earlier passes as
   published) is compared with the published one; each unit the rules would choose but the list did not is
   paired with a unit the list chose instead (worst with best), and carries that unit's finding.

The result is a list of issues per unit and the statements about unknown orders; :mod:`reservation.auditing.audit`
classifies and words them.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .checks import BIG, check_pass, pass_order
from .findings import PRIORITY, Issue, Walk, unchecked as _unchecked
from .pins import pins_for, slot_table, surplus_of
from ..law.categories import CODES
from ..law.words_audit import Cat, Detail, Group, Names, detail
from ..law.words_counts import Said
from ..engine import steps
from ..engine.passes import RuleError
from ..base.errors import InputError
from ..inputs.units import load_districts
from ..rules.keys import KeyKind
from ..rules.registry import get_rulebook

__all__ = ["Issue", "Walk", "walk", "unknown_kind", "PRIORITY"]


#: The kind of a statement about a pass's key (:mod:`reservation.auditing.unknowns`), by the key's declared kind.
_UNKNOWN_KINDS = {KeyKind.SHARE_OBC: "obc_share", KeyKind.OUTSIDE_PEOPLE: "outside_people",
                  KeyKind.OUTSIDE_SHARE: "outside_share"}


def unknown_kind(rb, opts, group: str, obc_given: bool) -> str | None:
    """The kind of a pass's key when it depends on OBC figures that are not public (None: the key is public), read
    from the key's declaration (:class:`reservation.rules.keys.KeySpec`)."""
    if obc_given:
        return None
    groups = rb.groups(opts) if callable(rb.groups) else rb.groups
    g = groups.get(group)
    if g is None:
        return None
    return _UNKNOWN_KINDS.get(getattr(g.key, "kind", None))


class _Ctx:
    """What every pass of the walk needs to know about the base run and the published list."""

    def __init__(self, base, pub_idx: np.ndarray, covered: np.ndarray, run_allot, obc_given: bool):
        self.base = base
        self.eng = base.engine
        self.n = len(self.eng.codes)
        self.names = base.units["unit_name_en"].to_numpy(dtype=object)
        self.words = True                        # False: a trial of the option search (its details never shown)
        u = base.units
        self.names_hi = (u["unit_name_hi"].fillna("").astype(str).to_numpy(dtype=object) if "unit_name_hi" in u
                         else np.full(len(u), "", dtype=object))
        self.pub = pub_idx                       # index into CODES per position, -1 where not listed
        self.covered = covered                   # in a counting unit the list gives at least one unit of
        self.missing = covered & (pub_idx < 0)   # ... and not in the list (not_in_list)
        self.slots = slot_table(self.eng)
        self.gaps = {int(q): int(m) for q, m in zip(*np.unique(self.eng.par[self.missing], return_counts=True))}
        self.run_allot = run_allot
        self.rb = get_rulebook(base.body)
        from ..allotment.pipeline import options_of
        self.opts = options_of(self.rb, [f"{k}={v['value']}" for k, v in base.meta["options"].items()])
        self.obc_given = obc_given
        self.division = base.units["division"].to_numpy(dtype=object) if "division" in base.units else None
        self.place_hi = dict(_places_hi())         # a district's or division's Hindi name (the State's tables)
        if "division_hi" in u and "division" in u:
            self.place_hi.update({str(a): str(b) for a, b in zip(u["division"], u["division_hi"]) if str(b).strip()})
        par = self.eng.par
        n_par = len(self.eng.parent_labels)
        self.starts = np.searchsorted(par, np.arange(n_par), side="left")
        self.ends = np.searchsorted(par, np.arange(n_par), side="right")
        self.pass_of = {}
        for i, rec in enumerate(self.eng.records):
            for c in rec.spec.codes:
                self.pass_of.setdefault(c, i)
        self.years = base.meta.get("history_years", [])

    def name(self, pos) -> str:
        return str(self.names[int(pos)])

    def names_of(self, positions, limit: int = 6) -> str:
        ps = [self.name(p) for p in positions]
        if len(ps) <= limit:
            return ", ".join(ps)
        return ", ".join(ps[:limit]) + f" and {len(ps) - limit} more"

    def units(self, positions, limit: int = 6) -> Names:
        """Units by name, for a detail (:mod:`reservation.law.words_audit`): English and Hindi names."""
        return Names(tuple((self.name(p), str(self.names_hi[int(p)])) for p in positions), limit)

    def unit(self, pos) -> Names:
        return self.units([pos])

    def division_words(self, d) -> Said:
        """A division (or a district: a counting unit's label) by its English and Hindi names (else the English
        one)."""
        return Said(str(d), self.place_hi.get(str(d), str(d)))

    def tier_words(self, t: int, group: str) -> Detail:
        """A unit's rotation tier for ``group`` in this election's history, as a detail."""
        if not self.years:
            return detail("audit.tier.none", tier=int(t))
        g = detail("audit.tier.women") if group == "GEN" else Group(group)
        span = f"{self.years[0]}-{self.years[-1]}" if len(self.years) > 1 else str(self.years[0])
        return detail(f"audit.tier.{int(t)}", group=g, span=span, last=self.years[-1])

    def pub_code(self, pos) -> str:
        v = int(self.pub[int(pos)])
        return CODES[v] if v >= 0 else "?"


@lru_cache(maxsize=1)
def _places_hi() -> tuple:
    """(English name, Hindi name) of the 75 districts and 18 divisions (data/districts.csv)."""
    d = load_districts()
    return tuple(zip(d["unit_name_en"].astype(str), d["unit_name_hi"].astype(str))) + tuple(
        zip(d["division"].astype(str), d["division_hi"].astype(str)))


def walk(ctx: _Ctx) -> Walk:
    w = Walk()
    eng = ctx.eng
    surplus: set[int] = set()
    freed_ur: set[int] = set()
    freed_any: dict[int, tuple] = {}           # position -> (pass index, division)
    rule = eng.settings.division
    unreserved = rule is not None and rule.effect is steps.Effect.UNRESERVED
    for i, base_rec in enumerate(eng.records):
        spec = base_rec.spec
        text = spec.text
        kind = unknown_kind(ctx.rb, ctx.opts, spec.group, ctx.obc_given)
        info = {"index": i, "name": spec.name, "group": spec.group, "codes": spec.codes, "clause": text.clause,
                "clause_hi": text.in_lang("clause", "hi"),
                "clause_women": text.clause_women, "clause_rotation": text.clause_rotation,
                "clause_division": text.clause_saturation, "clause_eligible": text.clause_eligible,
                "unknown": kind, "key_label": text.label("en")}
        w.passes.append(info)
        w.checked[i] = {"counts": [], "division": [], "eligibility": [], "rotation": [], "order": [], "women": [],
                        "freed": [], "statements": [], "unchecked": [], "cannot_check": ""}
        in_pass = np.array([int(p) >= 0 and CODES[int(p)] in spec.codes for p in ctx.pub])
        if not (in_pass & ctx.covered).any() and not base_rec.need.any():
            continue
        try:
            run = ctx.run_allot(pins_for(ctx, i, surplus, freed_ur))
        except (InputError, RuleError) as e:     # the list's earlier passes leave no pool the rules can fill
            why = e.message if isinstance(e, InputError) else str(e)
            w.checked[i]["cannot_check"] = why
            _counts_only(ctx, w, i, base_rec, in_pass, surplus)
            for pos in np.flatnonzero(in_pass & ctx.covered):
                w.add(pos, Issue("cannot_check", f"{spec.name} pass", text.clause,
                                 detail("audit.cannot_check", step=Cat(spec.name), why=why), i, check="pass",
                                 clause_hi=text.in_lang("clause", "hi")))
            continue
        rec = run.engine.records[i]
        if not np.array_equal(run.engine.codes, eng.codes):
            raise AssertionError("the walk's run has its units in another order")
        check_pass(ctx, w, i, rec, run, in_pass, kind, surplus, freed_any)
        free = run.engine.decided_by != -1
        for p, j in zip(rec.chosen.tolist(), rec.slot_index.tolist()):
            if free[p] and p not in w.walk_cat:
                w.walk_cat[p] = spec.codes[j]
        if unreserved:
            for pos, (pi, _d) in freed_any.items():
                if pi == i and CODES[int(ctx.pub[pos])] == "UR":
                    freed_ur.add(pos)
    w.freed = freed_any
    return w


def _counts_only(ctx: _Ctx, w: Walk, i: int, rec, in_pass, surplus: set) -> None:
    """The counts of pass ``i`` where its pool as the list leaves it cannot be run (the list gives earlier groups
    more units than the State or a counting unit has reserved and unreserved posts): per counting unit, the
    units beyond the law's count (the last in the pass's order of our own run ``rec``) and, for a shortfall, the
    units our run gives the group that the list does not (or ``not_in_list`` where the list lacks units)."""
    spec = rec.spec
    gposts = Group(spec.group, "posts")
    place = np.full(ctx.n, BIG, dtype=np.int64)
    place[rec.rotation_order] = np.arange(len(rec.rotation_order))
    chosen = set(rec.chosen.tolist())
    for q in range(len(ctx.eng.parent_labels)):
        mem = range(int(ctx.starts[q]), int(ctx.ends[q]))
        if not ctx.covered[list(mem)].any():
            continue
        need = int(rec.need[q])
        where = ("" if ctx.eng.parent_labels[q] == "*" else
                 detail("audit.where", parent=ctx.division_words(ctx.eng.parent_labels[q])))
        P = [p for p in mem if in_pass[p]]
        blame = (surplus_of(rec, q, pass_order(rec, P, place), need, ctx.pub_code) if len(P) > need else
                 [p for p in pass_order(rec, [p for p in mem if p in chosen and not in_pass[p] and ctx.pub[p] >= 0],
                                    place)])
        for p in blame[:max(len(P) - need, need - len(P), 0)]:
            if len(P) > need:
                surplus.add(p)
            elif _unchecked(ctx, w, i, q, p, len(P), need, gposts, where):
                continue
            w.add(p, Issue("violation_count", f"{spec.name} pass: counts", spec.text.clause,
                           detail("audit.count", listed=len(P), posts=gposts, where=where, need=need), i,
                           check="counts", clause_hi=spec.text.in_lang("clause", "hi")))
            w.checked[i]["counts"].append(p)
