"""Which units' categories the unknowns cannot change, and which categories they leave possible (issue 20).

The OBC population by district, block or body is not public, and a past list the project does not hold leaves a
unit's rotation tier unknown. :func:`prove` follows every pass of a run with what is known for sure (the engine's
own passes, :class:`reservation.engine.passes.PassRecord`: tiers, eligibility, posts per parent, keys, tie order):
a unit's place in a pass that ranks by an OBC-dependent key is known only up to its tier (any order within a tier
is possible), so its place lies between the number of units surely before it and the number possibly before it;
it surely takes a post if even the latter is below the posts, surely not if the former reaches them, and surely a
women's post if it is surely among the first ``women`` (the division rule widens the range by one place per
division it could fire in, and makes every unit it could free uncertain). The rule frees one unit of a saturated
division, the least populous of those the pass takes there (:meth:`~reservation.engine.steps.DivisionRule.freed_unit`),
and the pass must take every unit of the division that does not hold the group already: a unit the rule could
take is one it could free only if none of those must-take units comes before it by that population; where the
population reads the OBC figures (option ``saturation_population=category`` for OBC or GEN) every unit it could
take could be freed. A unit this run freed that another run might neither free nor take stays a candidate of the
later passes. Counting units whose posts depend on OBC (a district's OBC and women's posts of block pramukhs)
make the whole OBC-dependent pass uncertain there. A unit whose tier is unknown (``tier_range``: a missing list)
is placed with every tier it could have.

What it returns beside the proof is ``possible``: per unit, the bit mask of the CODES it may hold, a **sound
superset**: every category that some admissible value of the unknowns gives is in it ("not excluded by the law
with public data"), but a category in it need not be reachable (the proof ignores what the published past lists
reveal about the OBC order, and it follows each unsure unit through every later pass it may reach). UR is in the
set of an unsure unit unless the proof shows it surely takes some post of a pass (it is then unsure only of the
women's split of that pass).

The projection (:mod:`reservation.projection.orders`) uses :func:`certain_units` and :func:`pass_kinds` from here:
one copy of the proof for the allotment's answer and the projection's certainty.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import steps
from ..engine.passes import CODE_INDEX, RuleError
from ..rules.keys import KeyKind

__all__ = ["PassKind", "UNKNOWN_KEY", "pass_kinds", "tie_positions", "certain_units", "prove", "Proof", "eligible_in_run",
           "mask_codes"]

_UR = CODE_INDEX["UR"]
#: How a pass's key depends on the unknown OBC population, by its declared kind (None: public).
_KEY_KINDS = {KeyKind.SHARE_OBC: "share", KeyKind.OUTSIDE_PEOPLE: "people", KeyKind.OUTSIDE_SHARE: "outside_share",
              KeyKind.SHARE_SC: None, KeyKind.SHARE_ST: None, KeyKind.WOMEN_SHARE: None, KeyKind.PEOPLE: None}
#: ``PassKind.key`` of a pass whose key the proof does not know (``pass_kinds(..., strict=False)``).
UNKNOWN_KEY = "unknown"


@dataclass(frozen=True)
class PassKind:
    """How one pass depends on the unknown OBC population: ``key`` is None (public) or a
    :data:`~reservation.projection.priors.KEY_KINDS` kind; ``eligible_obc``: its eligibility reads OBC (two-person rule)."""

    group: str
    codes: tuple
    key: str | None
    eligible_obc: bool

    @property
    def public(self) -> bool:
        return self.key is None and not self.eligible_obc


def pass_kinds(prepared, strict: bool = True) -> list[PassKind]:
    """The passes of a prepared run (:class:`reservation.allotment.pipeline.Prepared`), in order, with their OBC
    dependence. A key the proof does not know is a RuleError (no silent guess); with ``strict=False`` its pass's
    ``key`` is :data:`UNKNOWN_KEY` instead (not public: its dependence on OBC is not known)."""
    rb, opts = prepared.rb, prepared.opts
    groups = rb.groups(opts) if callable(rb.groups) else rb.groups
    out = []
    for group, codes in rb.pass_order(opts):
        g = groups[group]
        declared = getattr(g.key, "kind", None)
        if declared not in _KEY_KINDS and not strict:
            out.append(PassKind(group, tuple(codes), UNKNOWN_KEY, False))
            continue
        if declared not in _KEY_KINDS:
            name = getattr(g.key, "__name__", "")
            raise RuleError(f"cannot project {rb.id}: its {group} pass ranks by {name or g.key!r}, and the projection "
                            f"does not know how that key depends on the unknown OBC population")
        applies = g.eligible is not None and (rb.eligibility is None or rb.eligibility(opts))
        eligible_obc = applies and bool(getattr(g.eligible, "reads_obc", False))
        out.append(PassKind(group, tuple(codes), _KEY_KINDS[declared], eligible_obc))
    return out


def tie_positions(result, rec) -> np.ndarray:
    """The place of every unit in the order that breaks equal keys in pass ``rec`` (the engine's own lots and
    rule: :func:`reservation.engine.steps.tie_places`)."""
    return steps.tie_places(len(result.codes), rec.spec.population, rec.lot, result.settings.tie_break)


def eligible_in_run(rec, by_run: np.ndarray) -> np.ndarray:
    """A pass's eligibility as the rules make it, without the units that the division rule freed in an earlier
    OBC-dependent pass of one particular run (that depends on the run's OBC figures)."""
    freed = getattr(rec, "freed", None)
    if freed is None:
        return rec.eligible
    return rec.eligible | (np.asarray(freed, dtype=bool) & by_run)


def mask_codes(mask: int) -> tuple[int, ...]:
    """The CODES indexes of a bit mask, in CODES order."""
    return tuple(i for i in range(len(CODE_INDEX)) if (int(mask) >> i) & 1)


@dataclass
class Proof:
    """What :func:`prove` shows: ``certain`` (bool per unit), ``category`` (CODES index where certain, else -1)
    and ``possible`` (int64 bit mask of the CODES each unit may hold; one bit where certain)."""

    certain: np.ndarray
    category: np.ndarray
    possible: np.ndarray


def certain_units(prepared, result, kinds: list[PassKind]) -> tuple[np.ndarray, np.ndarray]:
    """``(certain, category)``: whether each unit's category is the same for every OBC population (proved pass
    by pass as the module docstring says; the past lists are not used), and that category (CODES index; -1 where
    not certain). ``result`` is any run of ``prepared``: only its public parts are read."""
    p = prove(prepared, result, kinds)
    return p.certain, p.category


class _State:
    """The proof's knowledge of every unit so far: ``status`` 0 surely in the pool, 1 surely decided, 2 unknown;
    ``cat`` (status 1); ``maybe`` (status 2: the codes it may hold so far); ``taken``: surely took a post."""

    def __init__(self, n: int):
        self.status = np.zeros(n, dtype=np.int8)
        self.cat = np.full(n, -1, dtype=np.int64)
        self.maybe = np.zeros(n, dtype=np.int64)
        self.taken = np.zeros(n, dtype=bool)

    def unsure(self, pos, bits: int) -> None:
        self.status[pos] = 2
        self.maybe[pos] |= bits


def prove(prepared, result, kinds: list[PassKind], tier_range=None, obc_known: bool = False) -> Proof:
    """The proof of the module docstring over a run ``result`` of ``prepared`` (only its public parts are read).
    ``tier_range``: None (every tier known) or, per pass, ``(low, high)`` arrays of the tiers each unit could
    have; ``obc_known``: the OBC figures are given (no pass depends on an unknown)."""
    n = len(result.codes)
    st = _State(n)
    for p, (code, _) in result.pins.items():
        st.status[p], st.cat[p] = 1, CODE_INDEX[code]
    units = prepared.frame
    division = units["division"].to_numpy(dtype=object) if "division" in units else None
    counts_read_obc = prepared.parent is not None and not obc_known
    by_run = np.zeros(n, dtype=bool)
    for i, (rec, kind) in enumerate(zip(result.records, kinds)):
        if obc_known:
            kind = PassKind(kind.group, kind.codes, None, False)
        eligible = eligible_in_run(rec, by_run)      # freed in an OBC-dependent pass: those units are unknown anyway
        if kind.key is not None and rec.barred:
            by_run[np.fromiter(rec.barred, dtype=np.int64, count=len(rec.barred))] = True
        tiers = (rec.tier, rec.tier) if tier_range is None else tier_range[i]
        slots_known = not counts_read_obc or kind.group in ("ST", "SC")
        freed_known = obc_known or not _reads_obc(prepared, kind.group)
        # freed here in this run and possibly neither freed nor taken in another: eligible in the later passes
        by_run |= _prove_pass(st, result, rec, kind, eligible, tiers, slots_known, division, freed_known)
    possible = np.where(st.status == 0, 1 << _UR, np.where(st.status == 1, np.left_shift(1, np.maximum(st.cat, 0)),
                                                          st.maybe | np.where(st.taken, 0, 1 << _UR)))
    out_cat = np.where(st.status == 0, _UR, np.where(st.status == 1, st.cat, -1))
    return Proof(st.status != 2, out_cat, possible.astype(np.int64))


def _reads_obc(prepared, group: str) -> bool:
    """Whether the population by which the division rule frees a unit in ``group``'s pass reads the unknown OBC
    figures (:meth:`reservation.allotment.pipeline.Prepared.division_reads_obc`; True where not known)."""
    ask = getattr(prepared, "division_reads_obc", None)
    return True if ask is None else bool(ask(group))


def _prove_pass(st: _State, result, rec, kind: PassKind, eligible, tiers, slots_known: bool, division,
                freed_known: bool = False) -> np.ndarray:
    """One pass of the proof, every counting unit: the ones the pass cannot touch or takes as the run did in one
    vectorised step, the rest (an unsure unit in the pool, an unknown key or tier) one by one. Returns the units
    the division rule could free in this pass for some value of the unknowns and that a run might also leave in
    the pool (``freed_known``: the population by which it chooses the unit to free is public)."""
    par = result.par
    n_par = len(result.parent_labels)
    codes_idx = np.array([CODE_INDEX[c] for c in rec.spec.codes])
    bits = int(sum(1 << int(c) for c in codes_idx))
    pool_all = (st.status != 1) & ~st.taken           # a unit that surely took a post is out of the pool
    freed = np.zeros(len(par), dtype=bool)
    if not slots_known:                          # the posts of every counting unit read the unknown figures
        st.unsure(np.flatnonzero(pool_all), bits)
        if rec.spec.saturation_population is not None and result.settings.division is not None:
            freed |= pool_all                    # whoever the rule could free is in the pool, and unsure
        return freed
    t_lo, t_hi = tiers
    open_q = rec.need > 0
    loose = pool_all & ((st.status == 2) | (t_lo != t_hi))
    busy = np.bincount(par[loose], minlength=n_par) > 0
    if kind.public:                               # a known pool, a known order: as the run
        easy = open_q & ~busy
        took = pool_all & easy[par] & (result.decided_by == rec.index)
        st.status[took], st.cat[took] = 1, result.category[took]
        todo = np.flatnonzero(open_q & busy)
    else:
        todo = np.flatnonzero(open_q)
    if not len(todo):
        return freed
    rule = result.settings.division
    gcodes = steps.group_holding_codes(rec.spec.group, rule.scope if rule is not None else steps.Scope.PER_CATEGORY)
    ctx = _PassContext(result, rec, kind, eligible, (t_lo, t_hi), division, codes_idx, bits, gcodes,
                       tie_positions(result, rec) if kind.key is None else None, freed_known)
    for q in todo:
        freed[_prove_parent(st, ctx, int(q))] = True
    return freed


@dataclass
class _PassContext:
    result: object
    rec: object
    kind: PassKind
    eligible: np.ndarray
    tiers: tuple
    division: object
    codes_idx: np.ndarray
    bits: int
    gcodes: np.ndarray
    tie: object
    freed_known: bool = False


def _prove_parent(st: _State, c: _PassContext, q: int) -> np.ndarray:
    """One counting unit ``q`` of one pass (see the module docstring); returns the units the division rule could
    free there (positions) that might also be left in the pool for the later passes (not surely taken when not
    freed): a unit this run freed may take a later post in another run."""
    result, rec, kind, s = c.result, c.rec, c.kind, c.result.settings
    n = len(result.codes)
    in_q = result.par == q
    pool = in_q & (st.status != 1) & ~st.taken
    none = np.zeros(0, dtype=np.int64)
    if not pool.any():
        return none
    need = int(rec.need[q])
    elig_sure = c.eligible & ~np.full(n, kind.eligible_obc)
    elig_any = c.eligible | np.full(n, kind.eligible_obc)
    cand = np.flatnonzero(pool & elig_any)
    sure = (st.status[cand] == 0) & elig_sure[cand]
    t_lo, t_hi = c.tiers
    lo, hi = _places(cand, sure, t_lo, t_hi, None if kind.key is not None else (rec.order_key, c.tie))
    victims = np.zeros(len(cand), dtype=bool)
    k = 0
    rule = s.division
    if rec.spec.saturation_population is not None and rule is not None and c.division is not None:
        gbits = int(sum(1 << int(g) for g in c.gcodes))
        held = ((st.status == 1) & np.isin(st.cat, c.gcodes)) | ((st.status == 2) & ((st.maybe & gbits) != 0))
        frees = (_Frees(rule, rec.spec.saturation_population, result.codes) if c.freed_known else None)
        k, victims = _possible_saturation(cand, lo, need, c.division, in_q, held, frees)
    lo = np.maximum(lo - k, 0)
    took = hi < need
    left = lo >= need
    decided = sure & ~victims & (took | left)
    bits = int(sum(1 << int(ci) for j, ci in enumerate(c.codes_idx) if rec.slots[q, j] > 0))   # the codes it has
    st.unsure(cand[(~decided & ~left) | victims], bits)
    got = cand[decided & took]
    if not len(got):
        return cand[victims & ~(took & elig_sure[cand])]
    st.status[got] = 1
    if len(c.codes_idx) == 1:
        st.cat[got] = c.codes_idx[0]
        return cand[victims & ~(took & elig_sure[cand])]
    w = int(rec.slots[q, 0])
    lo_g, hi_g = lo[decided & took], hi[decided & took]
    if s.category_women is steps.WomenRule.NOT_WOMEN_LAST and 0 < w < need:
        code = np.full(len(got), -1)
    else:
        code = np.where(hi_g < w, c.codes_idx[0], np.where(lo_g >= w, c.codes_idx[1], -1))
    st.cat[got] = code
    st.taken[got[code < 0]] = True               # surely took one of the pass's posts: never UR
    st.unsure(got[code < 0], bits)
    return cand[victims & ~(took & elig_sure[cand])]


def _places(cand, sure, t_lo, t_hi, public):
    """For each candidate: the number of sure candidates surely before it (``lo``) and of all candidates
    possibly before it (``hi``), each unit's tier being any of ``t_lo .. t_hi``. Public key: within a tier the
    order is known; else only the tiers order candidates."""
    a = t_lo[cand].astype(np.int64)
    b = t_hi[cand].astype(np.int64)
    m = len(cand)
    if public is None:
        sure_hi = np.sort(b[sure])
        lo = np.searchsorted(sure_hi, a, side="left")            # sure units whose highest tier is below its lowest
        hi = np.searchsorted(np.sort(a), b, side="right") - 1    # units whose lowest tier is not above its highest
        return lo.astype(np.int64), hi.astype(np.int64)
    okey, tie = public
    o = np.lexsort((tie[cand], okey[cand], a))
    rank = np.empty(m, dtype=np.int64)
    rank[o] = np.arange(m)
    if np.array_equal(a, b):
        sure_sorted = sure[o].astype(np.int64)
        before_sure = np.concatenate([[0], np.cumsum(sure_sorted)[:-1]])
        return before_sure[rank], rank.copy()
    # unknown tiers: j surely before i if its highest tier is below i's lowest, or equal to it with a better key
    # (then every admissible pair of tiers puts j first); possibly before by the reverse bounds
    kr = np.empty(m, dtype=np.int64)
    kr[np.lexsort((tie[cand], okey[cand]))] = np.arange(m)        # the known order within a tier
    key_before = kr[:, None] < kr[None, :]                        # [j, i]: j's key comes first
    surely = (b[:, None] < a[None, :]) | ((b[:, None] == a[None, :]) & key_before)
    maybe = (a[:, None] < b[None, :]) | ((a[:, None] == b[None, :]) & key_before)
    np.fill_diagonal(surely, False)
    np.fill_diagonal(maybe, False)
    lo = (surely & sure[:, None]).sum(axis=0)
    hi = maybe.sum(axis=0)
    return lo.astype(np.int64), hi.astype(np.int64)


@dataclass(frozen=True)
class _Frees:
    """Which unit the division rule frees (:meth:`reservation.engine.steps.DivisionRule.freed_unit`: the least
    populous of the division's units taken in the pass) where its population is public."""

    rule: steps.DivisionRule
    population: object
    codes: np.ndarray

    def could_free(self, unit: int, must: np.ndarray) -> bool:
        """Whether ``unit`` is the one freed when the units taken in the pass are ``must`` (positions: those of
        the division that hold the group only if taken now), ``unit`` and possibly others: the others can only
        take the place of ``unit``, never give it back."""
        return self.rule.freed_unit([unit, *must.tolist()], self.population, self.codes) == unit


def _possible_saturation(cand, lo, need, division, in_q, held, frees: _Frees | None = None):
    """How many divisions of the counting unit the division rule could fire in, and which candidates it could
    free: a division (two units or more) whose units may all end up holding the group, because each either may
    hold it already (``held``) or may be taken in this pass, and those that must be taken are not more than the
    posts. Every unit of the division that may be taken could be the one freed, unless ``frees`` (the freeing
    population is public) shows that one it must take (it does not hold the group yet) is freed before it."""
    k = 0
    victims = np.zeros(len(cand), dtype=bool)
    for _ in range(len(cand) + 1):
        could = np.zeros(len(in_q), dtype=bool)
        could[cand[(lo - k) < need]] = True
        hit = 0
        vict = np.zeros(len(cand), dtype=bool)
        for d in np.unique(division[in_q]):
            mem = in_q & (division == d)
            if mem.sum() < 2 or not could[mem].any():
                continue
            if (held[mem] | could[mem]).all() and int((mem & ~held).sum()) <= need:
                hit += 1
                may = could[cand] & mem[cand]
                if frees is not None:
                    must = np.flatnonzero(mem & ~held)
                    for j in np.flatnonzero(may):
                        may[j] = frees.could_free(int(cand[j]), must)
                vict |= may
        if hit == k:
            return k, vict
        k, victims = hit, vict
    return k, victims
