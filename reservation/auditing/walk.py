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

import itertools
from dataclasses import dataclass, field

import numpy as np

from .pins import pins_for, slot_table, surplus_of
from ..law.categories import CODES
from ..engine.passes import RuleError
from ..base.errors import InputError
from ..rules.keys import outside_people, outside_share
from ..allotment.render import key_texts
from ..rules.registry import get_rulebook
from .unknowns import Statement
from ..law.words import word

__all__ = ["Issue", "Walk", "walk", "unknown_kind", "PRIORITY"]

#: precedence of a unit's issues inside one pass (lower first)
PRIORITY = {"violation_count": 0, "violation_division": 1, "eligibility": 2, "violation_rotation": 3,
            "violation_order": 4, "violation_women": 5, "tie": 6, "cannot_check": 7}
_BIG = 1 << 60


@dataclass
class Issue:
    """One thing the walk found about a unit: ``finding`` (a finding code, or ``tie``/``cannot_check``), the
    rule step in words, the clause, a sentence, the pass index (-1 before the passes) and whether the count it
    concerns depends on data that is not public."""

    finding: str
    rule: str
    clause: str
    detail: str
    pass_index: int
    unknown: bool = False
    partner: int | None = None      # the unit on the other side of the finding (who took it / who was left out)
    code: str = ""                  # why a check could not be made (``not_in_list``), for ``cannot_check``

    @property
    def order(self) -> tuple:
        return (self.pass_index, PRIORITY.get(self.finding, 9))


@dataclass
class Walk:
    """What the walk found: ``issues`` (position -> [Issue]); ``statements`` about unknown orders with their
    words (``stmt_info``: statement index -> dict); ``roles`` (position -> [(statement index, "above"/"below")]);
    ``freed`` (positions the division rule freed, by pass); ``passes`` (one dict per pass: name, group, codes,
    clauses, whether its key is public); ``checked`` (pass index -> {check: [positions violating]}),
    ``walk_cat``: what the
    rules give each unit with the list's earlier passes as published (the first pass that chose it, with the OBC
    figures assumed; "UR" if none)."""

    issues: dict = field(default_factory=dict)
    statements: list = field(default_factory=list)
    stmt_info: list = field(default_factory=list)
    roles: dict = field(default_factory=dict)
    freed: dict = field(default_factory=dict)
    passes: list = field(default_factory=list)
    checked: dict = field(default_factory=dict)
    walk_cat: dict = field(default_factory=dict)

    def add(self, pos: int, issue: Issue) -> None:
        self.issues.setdefault(int(pos), []).append(issue)

    def first(self, pos: int) -> Issue | None:
        got = self.issues.get(int(pos))
        return min(got, key=lambda x: x.order) if got else None


def unknown_kind(rb, opts, group: str, obc_given: bool) -> str | None:
    """The kind of a pass's key when it depends on OBC figures that are not public (None: the key is public)."""
    if obc_given:
        return None
    groups = rb.groups(opts) if callable(rb.groups) else rb.groups
    g = groups.get(group)
    if g is None:
        return None
    if g.key is outside_people:
        return "outside_people"
    if g.key is outside_share:
        return "outside_share"
    if getattr(g.key, "__name__", "") == "share_obc":
        return "obc_share"
    return None


class _Ctx:
    """What every pass of the walk needs to know about the base run and the published list."""

    def __init__(self, base, pub_idx: np.ndarray, covered: np.ndarray, run_allot, obc_given: bool):
        self.base = base
        self.eng = base.engine
        self.n = len(self.eng.codes)
        self.names = base.units["unit_name_en"].to_numpy(dtype=object)
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

    def tier_words(self, t: int, group: str) -> str:
        g = "a women's office" if group == "GEN" else group
        if not self.years:
            return f"tier {t} (no previous election in the history)"
        span = f"{self.years[0]}-{self.years[-1]}" if len(self.years) > 1 else str(self.years[0])
        last = self.years[-1]
        return {1: f"tier 1: never held {g} in {span}", 2: f"tier 2: not {g} in {last}",
                3: f"tier 3: held {g} in {last}"}[int(t)]

    def pub_code(self, pos) -> str:
        v = int(self.pub[int(pos)])
        return CODES[v] if v >= 0 else "?"


def walk(ctx: _Ctx) -> Walk:
    w = Walk()
    eng = ctx.eng
    surplus: set[int] = set()
    freed_ur: set[int] = set()
    freed_any: dict[int, tuple] = {}           # position -> (pass index, division)
    effect = ctx.opts.values.get("saturation_effect", "barred")
    for i, base_rec in enumerate(eng.records):
        spec = base_rec.spec
        text = spec.text
        kind = unknown_kind(ctx.rb, ctx.opts, spec.group, ctx.obc_given)
        info = {"index": i, "name": spec.name, "group": spec.group, "codes": spec.codes, "clause": text.clause,
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
                                 f"the {spec.name} pass cannot be checked with the list's earlier passes as "
                                 f"published: {why}", i))
            continue
        rec = run.engine.records[i]
        if not np.array_equal(run.engine.codes, eng.codes):
            raise AssertionError("the walk's run has its units in another order")
        _check_pass(ctx, w, i, rec, run, in_pass, kind, surplus, freed_any)
        free = run.engine.decided_by != -1
        for p, j in zip(rec.chosen.tolist(), rec.slot_index.tolist()):
            if free[p] and p not in w.walk_cat:
                w.walk_cat[p] = spec.codes[j]
        if effect == "unreserved":
            for pos, (pi, _d) in freed_any.items():
                if pi == i and CODES[int(ctx.pub[pos])] == "UR":
                    freed_ur.add(pos)
    w.freed = freed_any
    return w


def _order(rec, positions, place, flag=None):
    """Positions sorted as the pass takes them: (flag,) tier, key, then the engine's own place."""
    positions = list(positions)
    return sorted(positions, key=lambda p: ((bool(flag[p]),) if flag is not None else ()) +
                  (int(rec.tier[p]), rec.order_key[p], place[p]))


def _check_pass(ctx: _Ctx, w: Walk, i: int, rec, run, in_pass, kind, surplus, freed_any):
    spec, text = rec.spec, rec.spec.text
    n = ctx.n
    place = np.full(n, _BIG, dtype=np.int64)
    place[rec.rotation_order] = np.arange(len(rec.rotation_order))
    if len(rec.idle):
        place[rec.idle] = _BIG // 2 + np.arange(len(rec.idle))
    pool = np.zeros(n, dtype=bool)
    pool[rec.active] = True
    pool[rec.idle] = True
    chosen = np.zeros(n, dtype=bool)
    chosen[rec.chosen] = True
    dec = run.engine.decided_by
    early = (dec >= 0) & (dec < i)
    code_taken = np.full(n, "", dtype=object)
    code_taken[rec.chosen] = np.asarray(spec.codes, dtype=object)[rec.slot_index]
    group = spec.group
    gname = "women" if group == "GEN" else group
    gposts = "women's" if group == "GEN" else group
    public = kind is None
    multi = len(spec.codes) > 1
    women_code = spec.codes[0] if multi else None
    settings = run.engine.settings
    flag = None
    if multi and settings.category_women == "not_women_last":
        flag = np.zeros(n, dtype=bool)
        flag[np.arange(n)] = run.engine.rotation.held_women_last(np.arange(n))
    div_rule = (spec.saturation_population is not None and settings.division_saturation == "on"
                and ctx.division is not None)
    group_set = ({group, f"{group}_W"} if group != "GEN" else {"W"})
    ki = {}

    def key_of(pos):
        if pos not in ki:
            ki[pos] = key_texts(spec.key, np.array([pos]))[0].as_py()
        return ki[pos]

    def tiers(pos):
        return ctx.tier_words(int(rec.tier[pos]), group)

    count_unknown = kind is not None and ctx.base.parent_column is not None
    if count_unknown and kind == "obc_share" and (ctx.pub >= 0).all():
        # the State's OBC total is public (the State share, the 27 % cap): a list whose total differs breaks it,
        # whatever the districts' shares
        listed = sum(1 for p in range(n) if in_pass[p])
        if listed != int(rec.spec.slots.sum()):
            count_unknown = False
    for q in range(len(ctx.eng.parent_labels)):
        lo, hi = int(ctx.starts[q]), int(ctx.ends[q])
        mem = np.arange(lo, hi)
        if not ctx.covered[mem].any():
            continue
        # the list's units of the group: in the pool, or taken by an earlier pass of this run (a post the list
        # left empty there, which the rules fill with a unit the list gives this group: it counts here too)
        P = [int(p) for p in mem if in_pass[p] and (pool[p] or early[p])]
        outside = [int(p) for p in mem if in_pass[p] and not pool[p] and not early[p]]
        for p in outside:      # listed for this pass but taken out of its pool earlier (made unreserved)
            pi, d = freed_any.get(p, (None, None))
            if pi is not None:
                w.add(p, Issue("violation_division", f"{spec.name} pass: division rule", text.clause_saturation,
                               f"made unreserved by the division rule in the {ctx.eng.records[pi].spec.name} pass "
                               f"({d} division), yet the list gives it {ctx.pub_code(p)}", i))
                w.checked[i]["division"].append(p)
        if ctx.opts.values.get("saturation_effect") == "unreserved":
            for p in P:
                pi, d = freed_any.get(p, (None, None))
                if pi is not None and pi < i:
                    w.add(p, Issue("violation_division", f"{spec.name} pass: division rule", text.clause_saturation,
                                   f"made unreserved by the division rule in the {ctx.eng.records[pi].spec.name} "
                                   f"pass ({d} division), yet the list gives it {ctx.pub_code(p)}", i))
                    w.checked[i]["division"].append(p)
        need = int(rec.need[q])
        where = "" if ctx.eng.parent_labels[q] == "*" else f" in {ctx.eng.parent_labels[q]}"

        def count_issue(p, listed, why_this):
            """A unit the list's count of the group leaves wrong (too many offices, or too few)."""
            w.add(p, Issue("violation_count", f"{spec.name} pass: counts", text.clause,
                           f"the list gives {listed} {gposts} offices{where} where the law's arithmetic gives "
                           f"{need}{why_this}"
                           + (" (the count depends on OBC figures that are not public)" if count_unknown else ""),
                           i, unknown=count_unknown))
            w.checked[i]["counts"].append(p)
        # 1. counts of the group
        if len(P) > need:
            extra = surplus_of(rec, q, _order(rec, P, place), need, ctx.pub_code)
            for p in extra:
                count_issue(p, len(P), f"; this unit is the last of them in {gname} order")
                surplus.add(p)
            P = [p for p in P if p not in extra]
        Pset = set(P)
        # 1b. counts of the women's code
        skip_women = set()
        if multi and P:
            k_law = int(rec.slots[q, 0])
            Wq = [p for p in P if ctx.pub_code(p) == women_code]
            if len(Wq) != k_law and len(P) == need:
                ordered = _order(rec, P, place, flag)
                if len(Wq) > k_law:
                    bad = [p for p in ordered if p in set(Wq)][k_law:]
                else:
                    bad = [p for p in ordered if p not in set(Wq)][:k_law - len(Wq)]
                for p in bad:
                    w.add(p, Issue("violation_count", f"{spec.name} pass: counts", text.clause_women,
                                   f"the list gives {len(Wq)} {women_code} offices{where} where the law gives "
                                   f"{k_law}", i, unknown=count_unknown))
                    w.checked[i]["counts"].append(p)
                skip_women = set(bad)
        # 2. the division rule: saturated divisions, units the rule frees (excused) or that the list leaves out
        #    as if the rule freed them although another unit is the least populous (misfreed)
        excused: dict[int, object] = {}          # unit -> its division: the rule frees it (least populous)
        misfreed: dict[int, tuple] = {}
        saturated: dict[int, Issue] = {}

        if div_rule:
            divs: dict = {}
            for p in mem:
                divs.setdefault(ctx.division[p], []).append(int(p))
            satpop = np.asarray(spec.saturation_population, dtype=object)

            def holds(p):
                c = ctx.pub_code(p)
                if p in surplus and p not in Pset:
                    return False
                if settings.saturation_scope == "per_category":
                    return c in group_set
                return c not in ("UR", "?") and ctx.pass_of.get(c, 1 << 30) <= i

            def least(cands):
                return min(cands, key=lambda p: (satpop[p], int(ctx.eng.codes[p])))

            for d, members in divs.items():
                if len(members) < 2:
                    continue
                mine = [p for p in members if p in Pset]
                if mine and all(holds(p) for p in members):
                    v = least(mine)
                    saturated[v] = Issue("violation_division", f"{spec.name} pass: division rule",
                                         text.clause_saturation,
                                         f"all {len(members)} units of {d} division hold {gname} in the list; the "
                                         f"rule makes the least populous of those chosen ({ctx.name(v)}, "
                                         f"{int(satpop[v]):,}) unreserved", i)
                    w.add(v, saturated[v])
                    w.checked[i]["division"].append(v)
                for v in members:
                    if v in Pset or not pool[v] or not rec.eligible[v] or v in surplus:
                        continue
                    others = [p for p in members if p != v]
                    if all(holds(p) for p in others):
                        x = least([v] + mine)
                        if x == v:
                            excused[v] = d
                        else:
                            misfreed[v] = (d, x, satpop[v], satpop[x])
        # 3. eligibility, rotation, order: a unit the list gives the group and the rules would not (given the
        #    earlier passes as published) against the units left without it; with a key that is not public, only
        #    the tiers are checked and the order becomes a statement
        E = [int(p) for p in mem if chosen[p]]
        Eset = set(E)
        L = [int(p) for p in mem if pool[p] and p not in Pset and rec.eligible[p] and p not in excused
             and p not in surplus and ctx.pub[p] >= 0]
        L_sorted = _order(rec, L, place)
        # a unit left out as if the division rule freed it, while another unit of its division that the list
        # gives the group is the least populous: the two are a swap under the division rule
        swap_of: dict[int, int] = {}
        for v in sorted(misfreed, key=lambda p: place[p]):
            d, x, pv, px = misfreed[v]
            better = rec.tier[v] < rec.tier[x] or (public and rec.tier[v] == rec.tier[x]
                                                   and rec.order_key[v] < rec.order_key[x])
            if x in Pset and x not in swap_of and better:
                swap_of[x] = v
        accounted = set(swap_of.values())
        L_eff = [v for v in L_sorted if v not in accounted]
        holder_issue: dict[int, Issue] = {}
        for u in P:
            iss = None
            if not rec.eligible[u]:
                iss = Issue("violation_order", f"{spec.name} pass: eligibility", text.clause_eligible,
                            f"not eligible for {gname}: {text.eligible_reason}", i)
                w.checked[i]["eligibility"].append(u)
            elif public and u in Eset:
                pass
            elif u in swap_of:
                v = swap_of[u]
                d, x, pv, px = misfreed[v]
                iss = Issue("violation_division", f"{spec.name} pass: division rule", text.clause_saturation,
                            f"took {ctx.pub_code(u)}, while {ctx.name(v)} was left without {gname} as if the division "
                            f"rule had freed it in {d} division; the rule frees the least populous of the "
                            f"division's units chosen, which is {ctx.name(u)} ({int(px):,} against {int(pv):,})", i,
                            partner=v)
                w.checked[i]["division"].append(u)
                w.add(v, Issue("violation_division", f"{spec.name} pass: division rule", text.clause_saturation,
                               f"left without {gname} as if the division rule had freed it in {d} division; the rule "
                               f"frees the least populous of the division's units chosen, which is {ctx.name(u)} "
                               f"({int(px):,} against {int(pv):,}), and {ctx.name(u)} took {ctx.pub_code(u)}", i,
                               partner=u))
            else:
                better_tier = [v for v in L_eff if rec.tier[v] < rec.tier[u]]
                better = [v for v in L_eff if public and rec.tier[v] == rec.tier[u]
                          and rec.order_key[v] < rec.order_key[u]]
                if better_tier:
                    v = better_tier[0]
                    iss = Issue("violation_rotation", f"{spec.name} pass: rotation", text.clause_rotation,
                                f"took {ctx.pub_code(u)} though it is in {tiers(u)}, while {ctx.name(v)} "
                                f"({tiers(v)}) was left without {gname}", i, partner=v)
                    w.checked[i]["rotation"].append(u)
                elif better:
                    v = better[0]
                    iss = Issue("violation_order", f"{spec.name} pass: order", text.clause,
                                f"took {ctx.pub_code(u)} with {text.label('en')} {key_of(u)} ({tiers(u)}), while "
                                f"{ctx.name(v)} with {key_of(v)} in the same tier was left without {gname}"
                                + (f" ({len(better)} such units)" if len(better) > 1 else ""), i, partner=v)
                    w.checked[i]["order"].append(u)
            if iss is not None:
                holder_issue[u] = iss
                w.add(u, iss)
            elif u in saturated:
                holder_issue[u] = saturated[u]
        # a freed unit was left out by the rule (rather than by the order) when it comes before a unit the list
        # lawfully gives the group (a better tier, or a higher public key in the same tier)
        lawful = [u for u in P if u not in holder_issue]
        for v, d in excused.items():
            if any(rec.tier[v] < rec.tier[u] or (public and rec.tier[v] == rec.tier[u]
                                                 and rec.order_key[v] < rec.order_key[u]) for u in lawful):
                freed_any[v] = (i, d)
                w.checked[i]["freed"].append(v)
        if not public:
            for t in sorted(set(int(rec.tier[p]) for p in P)):
                above = tuple(p for p in P if rec.tier[p] == t and rec.eligible[p])
                below = tuple(p for p in L if rec.tier[p] == t)
                if above and below:
                    _state(w, Statement(kind, above, below, (i, q, t, "order")),
                           {"pass": i, "what": "order", "group": gname, "tier": t, "parent": q})
        # 4. the women's posts from the top: the first k of the group (as published) in the order of the pass
        if multi and P:
            k = int(rec.slots[q, 0])
            Wset = set(p for p in P if ctx.pub_code(p) == women_code and p not in skip_women)
            Q = [p for p in P if p not in skip_women]
            cls = (lambda p: ((bool(flag[p]),) if flag is not None else ()) + (int(rec.tier[p]),))
            ordered = sorted(Q, key=lambda p: cls(p) + ((rec.order_key[p], place[p]) if public else (place[p],)))
            if 0 < k <= len(ordered) and len(Wset) == k:
                if public:
                    top = set(ordered[:k])
                    bad_w = [p for p in ordered if p in Wset and p not in top]
                    bad_m = [p for p in ordered if p in top and p not in Wset]
                else:
                    cut = cls(ordered[k - 1])
                    bad_w = [p for p in ordered if p in Wset and cls(p) > cut]
                    bad_m = [p for p in ordered if p not in Wset and cls(p) < cut]
                    above = tuple(p for p in ordered if p in Wset and cls(p) == cut)
                    below = tuple(p for p in ordered if p not in Wset and cls(p) == cut)
                    if above and below:
                        _state(w, Statement(kind, above, below, (i, q, cut, "women")),
                               {"pass": i, "what": "women", "group": gname, "tier": cut[-1], "parent": q})

                def why(p):
                    return f"{tiers(p)}" + (f", {key_of(p)}" if public else "")

                for a, b in itertools.zip_longest(bad_w, bad_m):
                    if a is not None:
                        m = b if b is not None else bad_m[0] if bad_m else None
                        w.add(a, Issue("violation_women", f"{spec.name} pass: women from the top", text.clause_women,
                                       f"took {women_code} ({why(a)}), though "
                                       + (f"{ctx.name(m)} ({why(m)}) comes before it in {gname} order and took "
                                          f"{ctx.pub_code(m)}" if m is not None else "it is not among the first "
                                          f"{k} of the group in {gname} order"), i, partner=m))
                        w.checked[i]["women"].append(a)
                    if b is not None:
                        x = a if a is not None else bad_w[0] if bad_w else None
                        w.add(b, Issue("violation_women", f"{spec.name} pass: women from the top", text.clause_women,
                                       f"took {ctx.pub_code(b)}, not {women_code}, though it is among the first {k} "
                                       f"of the group in {gname} order ({why(b)})"
                                       + (f"; {ctx.name(x)} took {women_code} instead" if x is not None else ""), i,
                                       partner=x))
                        w.checked[i]["women"].append(b)
        # 5. pairing with the rules' own choice
        pairs = {x: v for x, v in swap_of.items() if x not in Eset and v in Eset}
        H = sorted((p for p in P if p not in Eset and p not in pairs), key=lambda p: -place[p])
        V = sorted((p for p in E if p not in Pset and p not in set(pairs.values())), key=lambda p: place[p])
        for j, v in enumerate(V):
            if j < len(H):
                u = H[j]
                iss = holder_issue.get(u)
                if iss is not None:
                    w.add(v, Issue(iss.finding, iss.rule, iss.clause,
                                   f"left without {gname}: the rules give it {code_taken[v]} ({tiers(v)}"
                                   + (f", {key_of(v)}" if public else "") + f") ahead of {ctx.name(u)}, which took "
                                   f"{ctx.pub_code(u)}", i, partner=u))
                elif public and rec.tier[u] == rec.tier[v] and rec.order_key[u] == rec.order_key[v]:
                    for a, b in ((u, v), (v, u)):
                        w.add(a, Issue("tie", f"{spec.name} pass: tie", text.clause,
                                       f"{ctx.name(a)} and {ctx.name(b)} have equal {text.label('en')} ({key_of(a)}) "
                                       f"in the same tier: the tie-break rule (option tie_break) or a lot decides "
                                       f"which takes {gname}", i, partner=b))
            elif not _unchecked(ctx, w, i, q, v, len(P), need, gposts, where):
                count_issue(v, len(P), f": the rules give this unit {code_taken[v]}")


def _counts_only(ctx: _Ctx, w: Walk, i: int, rec, in_pass, surplus: set) -> None:
    """The counts of pass ``i`` where its pool as the list leaves it cannot be run (the list gives earlier groups
    more units than the State or a counting unit has reserved and unreserved posts): per counting unit, the
    units beyond the law's count (the last in the pass's order of our own run ``rec``) and, for a shortfall, the
    units our run gives the group that the list does not (or ``not_in_list`` where the list lacks units)."""
    spec = rec.spec
    gposts = "women's" if spec.group == "GEN" else spec.group
    place = np.full(ctx.n, _BIG, dtype=np.int64)
    place[rec.rotation_order] = np.arange(len(rec.rotation_order))
    chosen = set(rec.chosen.tolist())
    for q in range(len(ctx.eng.parent_labels)):
        mem = range(int(ctx.starts[q]), int(ctx.ends[q]))
        if not ctx.covered[list(mem)].any():
            continue
        need = int(rec.need[q])
        where = "" if ctx.eng.parent_labels[q] == "*" else f" in {ctx.eng.parent_labels[q]}"
        P = [p for p in mem if in_pass[p]]
        blame = (surplus_of(rec, q, _order(rec, P, place), need, ctx.pub_code) if len(P) > need else
                 [p for p in _order(rec, [p for p in mem if p in chosen and not in_pass[p] and ctx.pub[p] >= 0],
                                    place)])
        for p in blame[:max(len(P) - need, need - len(P), 0)]:
            if len(P) > need:
                surplus.add(p)
            elif _unchecked(ctx, w, i, q, p, len(P), need, gposts, where):
                continue
            w.add(p, Issue("violation_count", f"{spec.name} pass: counts", spec.text.clause,
                           f"the list gives {len(P)} {gposts} offices{where} where the law's arithmetic gives {need}",
                           i))
            w.checked[i]["counts"].append(p)


def _unchecked(ctx: _Ctx, w: Walk, i: int, q: int, v: int, listed: int, need: int, gposts: str, where: str) -> bool:
    """A post of the group the list leaves without a unit in counting unit ``q`` where the list lacks units: one of
    them may hold it, so the count is not checked (typed ``not_in_list`` in ``checked[i]["unchecked"]``) and ``v``,
    which the rules would give it, is not judged on the count. Each unit the list lacks fills one such post."""
    if ctx.gaps.get(q, 0) <= 0:
        return False
    ctx.gaps[q] -= 1
    w.add(v, Issue("cannot_check", f"{ctx.eng.records[i].spec.name} pass: counts", ctx.eng.records[i].spec.text.clause,
                   word("audit.count_unchecked", "en", listed=listed, posts=gposts, where=where, need=need), i,
                   code="not_in_list"))
    w.checked[i]["unchecked"].append(v)
    return True


def _state(w: Walk, s: Statement, info: dict) -> None:
    k = len(w.statements)
    w.statements.append(s)
    w.stmt_info.append(info)
    w.checked[info["pass"]]["statements"].append(k)
    for p in s.above:
        w.roles.setdefault(int(p), []).append((k, "above"))
    for p in s.below:
        w.roles.setdefault(int(p), []).append((k, "below"))
