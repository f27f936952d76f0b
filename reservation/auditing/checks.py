"""The checks of one pass of the audit's walk (:mod:`reservation.auditing.walk`), one function per check, each
with the pass's steps of :mod:`reservation.engine.steps` (the ones the engine allots with):

1. :func:`check_counts`: the pass's posts and its women's posts against the law's counts;
2. :func:`check_division`: the division rule (:class:`~reservation.engine.steps.DivisionRule`);
3. :func:`check_order`: eligibility, rotation and order (:func:`~reservation.engine.steps.precedes`);
4. :func:`check_women`: the women's posts from the top (:func:`~reservation.engine.steps.women_level`);
5. :func:`check_pairing`: the rules' own choice against the published one.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from .findings import CHECK_WORDS, Issue, Walk, state as _state, unchecked as _unchecked
from .pins import surplus_of
from .unknowns import Statement
from ..allotment.render import key_texts
from ..engine import steps
from ..law.categories import CODES
from ..law.words_audit import Cat, Detail, Group, Join, detail
from ..law.words_counts import Said

__all__ = ["check_pass", "pass_order", "BIG"]

#: the place of a unit outside the pass's order (idle units after the ranked ones, then the rest)
BIG = 1 << 60


def pass_order(rec, positions, place, level=None):
    """Positions sorted as the pass takes them (:func:`reservation.engine.steps.pass_order`): (level,) tier, key,
    then the engine's own place."""
    return steps.pass_order(positions, rec.tier, rec.order_key, place, level)


class _PassView:
    """One pass of the walk: the run with the list's earlier passes pinned (``run``, its record ``rec``) and what
    every check of the pass reads."""

    def __init__(self, ctx, w: Walk, i: int, rec, run, in_pass, kind, surplus, freed_any):
        self.ctx, self.w, self.i, self.rec, self.run = ctx, w, i, rec, run
        self.in_pass, self.kind, self.surplus, self.freed_any = in_pass, kind, surplus, freed_any
        self.spec, self.text = rec.spec, rec.spec.text
        n = ctx.n
        self.place = np.full(n, BIG, dtype=np.int64)
        self.place[rec.rotation_order] = np.arange(len(rec.rotation_order))
        if len(rec.idle):
            self.place[rec.idle] = BIG // 2 + np.arange(len(rec.idle))
        self.pool = np.zeros(n, dtype=bool)
        self.pool[rec.active] = True
        self.pool[rec.idle] = True
        self.chosen = np.zeros(n, dtype=bool)
        self.chosen[rec.chosen] = True
        dec = run.engine.decided_by
        self.early = (dec >= 0) & (dec < i)
        self.code_taken = np.full(n, "", dtype=object)
        self.code_taken[rec.chosen] = np.asarray(self.spec.codes, dtype=object)[rec.slot_index]
        self.group = self.spec.group
        self.gname = "women" if self.group == "GEN" else self.group
        self.gw, self.gp = Group(self.group), Group(self.group, "posts")     # the group in a detail
        self.label = Said(self.text.label("en"), self.text.label("hi"))
        self.public = kind is None
        self.multi = len(self.spec.codes) > 1
        self.women_code = self.spec.codes[0] if self.multi else None
        settings = run.engine.settings
        self.flag = steps.women_flag(settings.category_women, run.engine.rotation, np.arange(n), len(self.spec.codes))
        self.level_w = steps.women_level(rec.tier, self.flag)
        self.rule = settings.division
        self.div_rule = (self.rule is not None and self.spec.saturation_population is not None
                         and ctx.division is not None)
        self.unreserved = self.rule is not None and self.rule.effect is steps.Effect.UNRESERVED
        self.satpop = (np.asarray(self.spec.saturation_population, dtype=object) if self.div_rule else None)
        self.count_unknown = self._count_unknown()
        self._keys: dict = {}

    def _count_unknown(self) -> bool:
        ctx = self.ctx
        unknown = self.kind is not None and ctx.base.parent_column is not None
        if unknown and self.kind == "obc_share" and (ctx.pub >= 0).all():
            # the State's OBC total is public (the State share, the 27 % cap): a list whose total differs breaks
            # it, whatever the districts' shares
            if int(self.in_pass.sum()) != int(self.spec.slots.sum()):
                return False
        return unknown

    def key_of(self, pos) -> Said:
        """The unit's key in words, in English and Hindi (a trial of the option search, whose details are never
        shown, ``ctx.words`` False: English only)."""
        if pos not in self._keys:
            at = np.array([pos])
            langs = ("en", "hi") if self.ctx.words else ("en",)
            texts = [key_texts(self.spec.key, at, lang)[0].as_py() for lang in langs]
            self._keys[pos] = Said(texts[0], texts[-1])
        return self._keys[pos]

    def tiers(self, pos) -> Detail:
        return self.ctx.tier_words(int(self.rec.tier[pos]), self.group)

    def before(self, a: int, b: int) -> bool:
        """``a`` comes strictly before ``b`` in the pass (:func:`reservation.engine.steps.precedes`), the key
        counted only where it is public."""
        return steps.precedes(self.rec.tier, self.rec.order_key, a, b, self.public)

    def issue(self, finding: str, check: str, clause: str, detail: Detail, **kw) -> Issue:
        """An issue of this pass found by ``check`` (a key of :data:`CHECK_WORDS`); ``clause``: the name of the
        pass's clause field (``clause_women``, ...), said in English and Hindi."""
        return Issue(finding, f"{self.spec.name} pass: {CHECK_WORDS[check]}", getattr(self.text, clause), detail,
                     self.i, check=check, clause_hi=self.text.in_lang(clause, "hi"), **kw)

    def flag_of(self, p) -> tuple:
        return ((bool(self.flag[p]),) if self.flag is not None else ()) + (int(self.rec.tier[p]),)


@dataclass
class _Parent:
    """One counting unit of a pass: its units (``mem``), the list's units of the group (``P``), the law's posts
    (``need``) and what the checks found so far."""

    q: int
    mem: np.ndarray
    need: int
    where: object                                   # "" or a detail (" in Agra")
    P: list
    skip_women: set = field(default_factory=set)
    excused: dict = field(default_factory=dict)     # unit -> its division: the rule frees it (least populous)
    misfreed: dict = field(default_factory=dict)    # unit -> (division, the least populous, their populations)
    saturated: dict = field(default_factory=dict)   # unit -> the Issue of its saturated division
    swap_of: dict = field(default_factory=dict)
    holder_issue: dict = field(default_factory=dict)
    E: list = field(default_factory=list)           # the rules' own choice
    L: list = field(default_factory=list)           # units left without the group, in the pass's order

    @property
    def Pset(self) -> set:
        return set(self.P)


def check_pass(ctx, w: Walk, i: int, rec, run, in_pass, kind, surplus, freed_any):
    v = _PassView(ctx, w, i, rec, run, in_pass, kind, surplus, freed_any)
    for q in range(len(ctx.eng.parent_labels)):
        mem = np.arange(int(ctx.starts[q]), int(ctx.ends[q]))
        if not ctx.covered[mem].any():
            continue
        # the list's units of the group: in the pool, or taken by an earlier pass of this run (a post the list
        # left empty there, which the rules fill with a unit the list gives this group: it counts here too)
        P = [int(p) for p in mem if in_pass[p] and (v.pool[p] or v.early[p])]
        where = ("" if ctx.eng.parent_labels[q] == "*" else
                 detail("audit.where", parent=ctx.division_words(ctx.eng.parent_labels[q])))
        par = _Parent(q, mem, int(rec.need[q]), where, P)
        _check_freed_earlier(v, par)
        _check_counts(v, par)
        if v.div_rule:
            _check_division(v, par)
        _check_order(v, par)
        _check_women(v, par)
        _check_pairing(v, par)


def _check_freed_earlier(v: _PassView, par: _Parent) -> None:
    """A unit the division rule made unreserved in an earlier pass must not hold this group: listed for it but
    out of its pool, or (``saturation_effect=unreserved``) in it."""
    ctx, w, i = v.ctx, v.w, v.i
    outside = [int(p) for p in par.mem if v.in_pass[p] and not v.pool[p] and not v.early[p]]
    for p in outside + (par.P if v.unreserved else []):
        pi, d = v.freed_any.get(p, (None, None))
        if pi is None or (p in par.Pset and pi >= i):
            continue
        w.add(p, v.issue("violation_division", "division", "clause_saturation",
                         detail("audit.freed_earlier", step=Cat(ctx.eng.records[pi].spec.name),
                                division=ctx.division_words(d), code=Cat(ctx.pub_code(p)))))
        w.checked[i]["division"].append(p)


def _count_issue(v: _PassView, par: _Parent, p: int, listed: int, why_this: Detail) -> None:
    """A unit the list's count of the group leaves wrong (too many offices, or too few)."""
    count = detail("audit.count", listed=listed, posts=v.gp, where=par.where, need=par.need)
    v.w.add(p, v.issue("violation_count", "counts", "clause",
                       detail("audit.count_checked", count=count, why=why_this,
                              unknown=detail("audit.count.unknown") if v.count_unknown else ""),
                       unknown=v.count_unknown))
    v.w.checked[v.i]["counts"].append(p)


def _check_counts(v: _PassView, par: _Parent) -> None:
    """1. The group's posts and its women's posts against the law's counts; the surplus units are the last ones
    in the pass's order (for the women's code: the last women, or the first non-women when there are too few)."""
    ctx, w, i, rec = v.ctx, v.w, v.i, v.rec
    if len(par.P) > par.need:
        extra = surplus_of(rec, par.q, pass_order(rec, par.P, v.place), par.need, ctx.pub_code)
        for p in extra:
            _count_issue(v, par, p, len(par.P), detail("audit.count.last", group=v.gw))
            v.surplus.add(p)
        par.P = [p for p in par.P if p not in extra]
    if not (v.multi and par.P):
        return
    k_law = int(rec.slots[par.q, 0])
    Wq = [p for p in par.P if ctx.pub_code(p) == v.women_code]
    if len(Wq) == k_law or len(par.P) != par.need:
        return
    ordered = pass_order(rec, par.P, v.place, v.level_w if v.flag is not None else None)
    Wset = set(Wq)
    if len(Wq) > k_law:
        bad = [p for p in ordered if p in Wset][k_law:]
    else:
        bad = [p for p in ordered if p not in Wset][:k_law - len(Wq)]
    for p in bad:
        w.add(p, v.issue("violation_count", "counts", "clause_women",
                         detail("audit.count_women", listed=len(Wq), code=Cat(v.women_code), where=par.where,
                                need=k_law),
                         unknown=v.count_unknown))
        w.checked[i]["counts"].append(p)
    par.skip_women = set(bad)


def _held_codes(v: _PassView, par: _Parent) -> np.ndarray:
    """What each unit holds in the list at the end of this pass (CODES index, -1 none): its published category
    where that belongs to this pass or an earlier one, except a surplus unit dropped from this pass."""
    ctx = v.ctx
    held = np.full(ctx.n, -1, dtype=np.int64)
    Pset = par.Pset
    for p in par.mem.tolist():
        c = ctx.pub_code(p)
        if c == "?" or (p in v.surplus and p not in Pset):
            continue
        if ctx.pass_of.get(c, 1 << 30) <= v.i:
            held[p] = CODES.index(c)
    return held


def _check_division(v: _PassView, par: _Parent) -> None:
    """2. The division rule (:class:`reservation.engine.steps.DivisionRule`): a division all of whose units hold
    the group in the list is saturated and its least populous unit chosen should have been freed; a unit left
    without the group is excused when it is exactly the one the rule frees, misfreed when another is."""
    ctx, w, i, rec, rule = v.ctx, v.w, v.i, v.rec, v.rule
    Pset = par.Pset
    holds = rule.holds(_held_codes(v, par), v.group)
    mine = np.zeros(ctx.n, dtype=bool)
    mine[list(Pset)] = True
    for _q, d, members in rule.saturated(ctx.division, ctx.eng.par, holds, mine, par.mem):
        x = rule.freed_unit(members[mine[members]], v.satpop, ctx.eng.codes)
        par.saturated[x] = v.issue("violation_division", "division", "clause_saturation",
                                   detail("audit.saturated", n=len(members), division=ctx.division_words(d),
                                          group=v.gw, name=ctx.unit(x), pop=f"{int(v.satpop[x]):,}"))
        w.add(x, par.saturated[x])
        w.checked[i]["division"].append(x)
    divs: dict = {}
    for p in par.mem.tolist():
        divs.setdefault(ctx.division[p], []).append(p)
    for d, members in divs.items():   # a unit left out whose division would be saturated with it
        if len(members) < 2:
            continue
        chosen_there = [p for p in members if p in Pset]
        for p in members:
            if p in Pset or not v.pool[p] or not rec.eligible[p] or p in v.surplus:
                continue
            if not all(holds[o] for o in members if o != p):
                continue
            x = rule.freed_unit([p] + chosen_there, v.satpop, ctx.eng.codes)
            if x == p:
                par.excused[p] = d
            else:
                par.misfreed[p] = (d, x, v.satpop[p], v.satpop[x])


def _check_order(v: _PassView, par: _Parent) -> None:
    """3. Eligibility, rotation and order: a unit the list gives the group against the units left without it;
    with a key that is not public only the tiers are checked and the order becomes a statement."""
    ctx, w, i, rec = v.ctx, v.w, v.i, v.rec
    Pset = par.Pset
    par.E = [int(p) for p in par.mem if v.chosen[p]]
    Eset = set(par.E)
    par.L = [int(p) for p in par.mem if v.pool[p] and p not in Pset and rec.eligible[p] and p not in par.excused
             and p not in v.surplus and ctx.pub[p] >= 0]
    L_sorted = pass_order(rec, par.L, v.place)
    # a unit left out as if the division rule freed it, while another unit of its division that the list gives
    # the group is the least populous: the two are a swap under the division rule
    for x in sorted(par.misfreed, key=lambda p: v.place[p]):
        d, u, pv, pu = par.misfreed[x]
        if u in Pset and u not in par.swap_of and v.before(x, u):
            par.swap_of[u] = x
    accounted = set(par.swap_of.values())
    L_eff = [x for x in L_sorted if x not in accounted]
    for u in par.P:
        if not rec.eligible[u]:
            iss = v.issue("violation_order", "eligibility", "clause_eligible",
                          detail("audit.not_eligible", group=v.gw,
                                 reason=Said(v.text.eligible_reason, v.text.in_lang("eligible_reason", "hi"))))
            w.checked[i]["eligibility"].append(u)
        elif v.public and u in Eset:
            iss = None
        elif u in par.swap_of:
            iss = _swap_issues(v, par, u)
        else:
            iss = _rotation_or_order(v, u, L_eff)
        if iss is not None:
            par.holder_issue[u] = iss
            w.add(u, iss)
        elif u in par.saturated:
            par.holder_issue[u] = par.saturated[u]
    # a freed unit was left out by the rule (rather than by the order) when it comes before a unit the list
    # lawfully gives the group (a better tier, or a higher public key in the same tier)
    lawful = [u for u in par.P if u not in par.holder_issue]
    for x, d in par.excused.items():
        if any(v.before(x, u) for u in lawful):
            v.freed_any[x] = (i, d)
            w.checked[i]["freed"].append(x)
    if not v.public:
        for t in sorted(set(int(rec.tier[p]) for p in par.P)):
            above = tuple(p for p in par.P if rec.tier[p] == t and rec.eligible[p])
            below = tuple(p for p in par.L if rec.tier[p] == t)
            if above and below:
                _state(w, Statement(v.kind, above, below, (i, par.q, t, "order")),
                       {"pass": i, "what": "order", "group": v.gname, "code": v.group, "tier": t,
                        "parent": par.q})


def _swap_issues(v: _PassView, par: _Parent, u: int) -> Issue:
    """The two sides of a swap under the division rule: ``u`` took the group, its partner was left out as if
    freed although ``u`` is the least populous of the division's units chosen."""
    ctx = v.ctx
    x = par.swap_of[u]
    d, _u, px, pu = par.misfreed[x]
    said = {"division": ctx.division_words(d), "group": v.gw, "name": ctx.unit(u), "pop": f"{int(pu):,}",
            "other_pop": f"{int(px):,}", "code": Cat(ctx.pub_code(u))}
    iss = v.issue("violation_division", "division", "clause_saturation",
                  detail("audit.swap_took", other=ctx.unit(x), **said), partner=x)
    v.w.checked[v.i]["division"].append(u)
    v.w.add(x, v.issue("violation_division", "division", "clause_saturation", detail("audit.swap_left", **said),
                       partner=u))
    return iss


def _rotation_or_order(v: _PassView, u: int, L_eff: list) -> Issue | None:
    """``u`` took the group though a unit of a better tier (rotation), or of the same tier with a higher public
    key (order), was left without it."""
    ctx, rec = v.ctx, v.rec
    better_tier = [x for x in L_eff if rec.tier[x] < rec.tier[u]]
    better = [x for x in L_eff if v.public and rec.tier[x] == rec.tier[u] and v.before(x, u)]
    if better_tier:
        x = better_tier[0]
        v.w.checked[v.i]["rotation"].append(u)
        return v.issue("violation_rotation", "rotation", "clause_rotation",
                       detail("audit.rotation", code=Cat(ctx.pub_code(u)), tier=v.tiers(u), other=ctx.unit(x),
                              other_tier=v.tiers(x), group=v.gw), partner=x)
    if better:
        x = better[0]
        v.w.checked[v.i]["order"].append(u)
        return v.issue("violation_order", "order", "clause",
                       detail("audit.order", code=Cat(ctx.pub_code(u)), label=v.label, key=v.key_of(u),
                              tier=v.tiers(u), other=ctx.unit(x), other_key=v.key_of(x), group=v.gw,
                              more=detail("audit.order.more", n=len(better)) if len(better) > 1 else ""),
                       partner=x)
    return None


def _check_women(v: _PassView, par: _Parent) -> None:
    """4. The women's posts from the top (A7): the first k of the group (as published) in the pass's women's
    order (:func:`reservation.engine.steps.women_level`, then the key where public, then the place)."""
    ctx, w, i, rec = v.ctx, v.w, v.i, v.rec
    if not (v.multi and par.P):
        return
    k = int(rec.slots[par.q, 0])
    Wset = set(p for p in par.P if ctx.pub_code(p) == v.women_code and p not in par.skip_women)
    Q = [p for p in par.P if p not in par.skip_women]
    lv = v.level_w
    ordered = steps.pass_order(Q, rec.tier, rec.order_key, v.place, lv, by_key=v.public)
    if not (0 < k <= len(ordered) and len(Wset) == k):
        return
    if v.public:
        top = set(ordered[:k])
        bad_w = [p for p in ordered if p in Wset and p not in top]
        bad_m = [p for p in ordered if p in top and p not in Wset]
    else:
        last = ordered[k - 1]
        cut = int(lv[last])
        bad_w = [p for p in ordered if p in Wset and lv[p] > cut]
        bad_m = [p for p in ordered if p not in Wset and lv[p] < cut]
        above = tuple(p for p in ordered if p in Wset and lv[p] == cut)
        below = tuple(p for p in ordered if p not in Wset and lv[p] == cut)
        if above and below:
            _state(w, Statement(v.kind, above, below, (i, par.q, v.flag_of(last), "women")),
                   {"pass": i, "what": "women", "group": v.gname, "code": v.group, "tier": int(rec.tier[last]),
                    "parent": par.q})
    _women_issues(v, k, bad_w, bad_m)


def _women_issues(v: _PassView, k: int, bad_w: list, bad_m: list) -> None:
    ctx, w, i = v.ctx, v.w, v.i

    def why(p):
        return Join((v.tiers(p), v.key_of(p)), ", ") if v.public else v.tiers(p)

    wc = Cat(v.women_code)
    for a, b in itertools.zip_longest(bad_w, bad_m):
        if a is not None:
            m = b if b is not None else bad_m[0] if bad_m else None
            rest = (detail("audit.women_before", other=ctx.unit(m), other_why=why(m), group=v.gw,
                           other_code=Cat(ctx.pub_code(m))) if m is not None else
                    detail("audit.women_not_first", k=k, group=v.gw))
            w.add(a, v.issue("violation_women", "women", "clause_women",
                             detail("audit.women_took", code=wc, why=why(a), rest=rest), partner=m))
            w.checked[i]["women"].append(a)
        if b is not None:
            x = a if a is not None else bad_w[0] if bad_w else None
            instead = detail("audit.women_instead", other=ctx.unit(x), women_code=wc) if x is not None else ""
            w.add(b, v.issue("violation_women", "women", "clause_women",
                             detail("audit.women_not_taken", code=Cat(ctx.pub_code(b)), women_code=wc, k=k,
                                    group=v.gw, why=why(b), instead=instead), partner=x))
            w.checked[i]["women"].append(b)


def _check_pairing(v: _PassView, par: _Parent) -> None:
    """5. The rules' own choice against the published one: each unit the rules would choose but the list did not
    is paired with a unit the list chose instead (worst with best) and carries that unit's finding."""
    ctx, w, i, rec = v.ctx, v.w, v.i, v.rec
    Pset, Eset = par.Pset, set(par.E)
    pairs = {x: y for x, y in par.swap_of.items() if x not in Eset and y in Eset}
    H = sorted((p for p in par.P if p not in Eset and p not in pairs), key=lambda p: -v.place[p])
    paired = set(pairs.values())
    V = sorted((p for p in par.E if p not in Pset and p not in paired), key=lambda p: v.place[p])
    for j, x in enumerate(V):
        if j >= len(H):
            if not _unchecked(ctx, w, i, par.q, x, len(par.P), par.need, v.gp, par.where):
                _count_issue(v, par, x, len(par.P), detail("audit.count.rules_give", code=Cat(v.code_taken[x])))
            continue
        u = H[j]
        iss = par.holder_issue.get(u)
        if iss is not None:
            why = Join((v.tiers(x), v.key_of(x)), ", ") if v.public else v.tiers(x)
            w.add(x, Issue(iss.finding, iss.rule, iss.clause,
                           detail("audit.left_without", group=v.gw, code=Cat(v.code_taken[x]), why=why,
                                  other=ctx.unit(u), other_code=Cat(ctx.pub_code(u))),
                           i, partner=u, check=iss.check, clause_hi=iss.clause_hi))
        elif v.public and rec.tier[u] == rec.tier[x] and rec.order_key[u] == rec.order_key[x]:
            for a, b in ((u, x), (x, u)):
                w.add(a, v.issue("tie", "tie", "clause",
                                 detail("audit.tie", a=ctx.unit(a), b=ctx.unit(b), label=v.label, key=v.key_of(a),
                                        group=v.gw), partner=b))
