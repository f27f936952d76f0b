"""The allotment engine: category passes in the legal order, rotation tiers, division saturation, women.

A *pass* fills the posts of one category group (or of one code, under category order A6 reading a) from the
units not yet allotted. Units are grouped by a *parent* (the counting unit: the State for Zila Panchayat
chairs, the district for block pramukhs, the block for gram pradhans); each parent has its own number of posts.
Inside a parent the units are taken in this order of preference (GO 2021, ZP chair items 1-3 and KP
items 1-10):

1. rotation tier (1 never reserved for the group, 2 not reserved at the last election, 3 the rest: see
   :mod:`reservation.law.rotation`), then
2. descending share of the group's population (exact: :mod:`reservation.law.ranking`); equal shares by lot, then
   by the documented rule of the ``tie_break`` option (larger population, then lower code).

A unit may be *not eligible* for a pass (the two-person rule of KP item 2). If the chosen units would make
*every* unit of a division reserved for the group, the least populous of them is left unreserved and the next
unit in order takes the post (the division rule of ZP items 1-3; A12). Within a group, the women's posts go to
the first units in that order ("from the top", A7 reading a). Units reached by no pass are unreserved.

The engine works on whole numpy arrays and returns numbers and typed decision codes
(:class:`reservation.law.decisions.Decision`), never words: :mod:`reservation.allotment.render` turns a result into the
table and the trace, in English or Hindi, only when they are asked for. Per pass it does one sort of the active
units: (parent, tier, key, tie field) packed into one 63-bit integer and sorted by numpy's SIMD sort. The key
is exact and whole (:func:`reservation.law.ranking.order_key`; left out when it is the same for all, as an assumed
OBC share is); the tie field orders a parent's units as the tie-break rule does and gives their positions back
(:class:`_Ties`: larger population, then the place in the parent, which is the code order; or the rank in a
lot order). Where the fields do not fit, the key order is sorted on its own and regrouped stably. The order of
the whole State by key (parents mixed), which only the words read, is computed when they ask for it. Nothing
here reads files, prints or draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from . import steps
from .steps import CODE_INDEX, Settings, TieRule, run_positions
from ..law.categories import CODES
from ..law.decisions import Decision
from ..base.errors import RuleError
from ..law.ranking import Ratio, order_key
from ..law.rotation import RotationView, stable_order

__all__ = ["Pass", "Settings", "EngineResult", "PassRecord", "run_passes", "RuleError", "Ratio", "CODE_INDEX",
           "group_order"]


_UR = CODE_INDEX["UR"]


@dataclass
class Pass:
    """One pass of the engine, as numbers.

    ``codes``: the codes it fills, women's code first (``("SC_W", "SC")``); ``slots``: posts per parent and code,
    an int array of shape (parents, codes). ``key``: the ranking key (a :class:`Ratio`: a share, or a number of
    people), descending. ``population``: larger first among equal keys (tie-break rule ``population``).
    ``eligible``: None = every unit; else a boolean array (False = may not take this group).
    ``saturation_population``: None = no division rule in this pass; else the population (numbers) whose least
    member is left unreserved. ``text``: what the renderer needs to put the pass into words (opaque here).
    """

    group: str
    codes: tuple[str, ...]
    slots: np.ndarray
    key: Ratio
    population: np.ndarray
    history_codes: frozenset
    eligible: np.ndarray | None = None
    saturation_population: object = None
    text: object = None

    @property
    def name(self) -> str:
        return "+".join(self.codes)


@dataclass
class PassRecord:
    """What one pass decided, as arrays over unit positions."""

    index: int
    spec: Pass
    active: np.ndarray          # positions ranked in the pass (pool units in parents with posts)
    _key_order: object          # active positions by key (then lot, then the tie-break rule), parents mixed,
                                # or a function giving them (the decisions need only the rotation order)
    rotation_order: np.ndarray  # active positions by parent, tier, key, tie-break
    idle: np.ndarray            # pool positions in parents without posts in this pass
    tier: np.ndarray            # int8 tier of every unit for this group
    eligible: np.ndarray        # bool: may take the group (over all units)
    _order_key: object          # the sort key of every unit (ascending = preferred): equal keys are ties; or a
                                # function giving it (the decisions need only the active units' keys)
    lot: np.ndarray | None      # lot number of every unit (-1: none), or None when no lot applies
    chosen: np.ndarray          # positions that took a post, in rotation order
    chosen_pos: np.ndarray      # 0-based place of each among the chosen of its parent
    slot_index: np.ndarray      # which of spec.codes each chosen unit took
    need: np.ndarray            # posts per parent
    slots: np.ndarray           # posts per parent and code, pins taken off
    pool_size: np.ndarray       # active units per parent
    barred: dict                # position -> (division, its size, population) in the order the rule left them out
    freed: np.ndarray           # bool: made unreserved by the division rule in an earlier pass (not eligible here)

    @property
    def key_order(self) -> np.ndarray:
        if callable(self._key_order):
            self._key_order = self._key_order()
        return self._key_order

    @property
    def order_key(self) -> np.ndarray:
        if callable(self._order_key):
            self._order_key = self._order_key()
        return self._order_key


class EngineResult:
    """The decisions as arrays. ``category`` (index into CODES per unit), ``decided_by`` (pass index, -1 pinned,
    -2 unreserved), ``records`` (one :class:`PassRecord` per pass), ``pins`` (position -> (code, source))."""

    def __init__(self, codes, par, parent_labels, rotation, settings, records, category, decided_by, pins):
        self.codes = codes
        self.par = par
        self.parent_labels = parent_labels
        self.rotation = rotation
        self.settings = settings
        self.records = records
        self.category = category
        self.decided_by = decided_by
        self.pins = pins

    def decision(self) -> np.ndarray:
        """The final decision code of every unit: ALLOTTED, PINNED or UNRESERVED."""
        return np.where(self.decided_by >= 0, int(Decision.ALLOTTED),
                        np.where(self.decided_by == -1, int(Decision.PINNED), int(Decision.UNRESERVED)))

    def category_codes(self) -> np.ndarray:
        return np.asarray(CODES, dtype=object)[self.category]

    def ranks(self, rec: PassRecord):
        """(rank, pool, tied) of every unit in a pass: rank 1 = the highest key among the active units of its
        parent (0 = not ranked), pool = active units of the parent, tied = other active units of the parent
        with an equal key. Computed on demand (for words), not by the decisions."""
        n = len(self.codes)
        rank = np.zeros(n, dtype=np.int64)
        tied = np.zeros(n, dtype=np.int64)
        o = rec.key_order
        if len(o):
            o = o[group_order(self.par[o])]
            p = self.par[o]
            rank[o] = run_positions(p) + 1
            k = rec.order_key[o]
            new = np.r_[True, (k[1:] != k[:-1]) | (p[1:] != p[:-1])]
            run = np.cumsum(new) - 1
            tied[o] = np.bincount(run)[run] - 1
        pool = np.where(rank > 0, rec.pool_size[self.par], 0)
        return rank, pool, tied


# -- ordering helpers ----------------------------------------------------------------------------------------

def group_order(g: np.ndarray) -> np.ndarray:
    """A stable order that groups the non-negative integers ``g`` ascending: one packed integer sort where value
    and position fit in 63 bits, else LSD radix on 16-bit digits."""
    g = np.asarray(g, dtype=np.int64)
    if len(g) == 0:
        return np.zeros(0, dtype=np.int64)
    top = int(g.max())
    if top == 0:
        return np.arange(len(g))
    if top.bit_length() + (len(g) - 1).bit_length() <= 63:
        return stable_order(g)
    if top < 1 << 8:
        return np.argsort(g.astype(np.uint8), kind="stable")
    if top < 1 << 16:
        return np.argsort(g.astype(np.uint16), kind="stable")
    o = np.argsort((g & 0xFFFF).astype(np.uint16), kind="stable")
    shift = 16
    while top >> shift:
        o = o[np.argsort(((g[o] >> shift) & 0xFFFF).astype(np.uint16), kind="stable")]
        shift += 16
    return o


class _Ties:
    """The tie-break order of one run (or of one pass with lots) as a field to pack below a pass's key.

    ``local`` (``lbits`` wide) orders each parent's units as the tie-break does; the units are sorted by parent,
    then code, so a unit's place among its parent's units (``inner``, ``ibits`` wide) is its position less its
    parent's ``start``. Without lots, ``local`` is (larger population first, that place) or the place alone (tie
    break by code), and its low ``ibits`` give the position back; with lots it is the rank in ``grouped``
    (every position by parent, then tie place). The whole-State ``order`` and its inverse ``place`` are computed
    only when the words ask for the key order."""

    def __init__(self, par: np.ndarray, n_par: int, pop: np.ndarray, lot: np.ndarray | None, tie_break: TieRule):
        self.par, self.pop, self.lot, self.tie_break = par, pop, lot, tie_break
        self.n = n = len(par)
        sizes = np.bincount(par, minlength=n_par)
        self.start = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.int64)
        self.ibits = max(int(sizes.max(initial=1)) - 1, 1).bit_length()
        self._order = None
        self._place = None
        self.grouped = None
        inner = np.arange(n) - self.start[par]
        span = int(pop.max() - pop.min()) if n else 0
        if lot is None and tie_break is not TieRule.POPULATION:
            self.local, self.lbits = inner, self.ibits
        elif lot is None and span.bit_length() + self.ibits <= 40:
            self.local = ((pop.max() - pop) << self.ibits) | inner
            self.lbits = span.bit_length() + self.ibits
        else:
            o = self.order
            self.grouped = o[group_order(par[o])]
            self.local = np.empty(n, dtype=np.int64)
            self.local[self.grouped] = inner
            self.lbits = self.ibits

    def positions(self, parent: np.ndarray, low: np.ndarray) -> np.ndarray:
        """The positions of units given their parents and the low ``lbits`` of their packed keys (in place)."""
        if self.grouped is None:
            low &= (1 << self.ibits) - 1
            low += self.start[parent]
            return low
        low += self.start[parent]
        return self.grouped[low]

    @property
    def order(self) -> np.ndarray:
        if self._order is None:
            self._order = steps.tie_order(self.n, self.pop, self.lot, self.tie_break)
        return self._order

    @property
    def place(self) -> np.ndarray:
        if self._place is None:
            self._place = np.empty(self.n, dtype=np.int64)
            self._place[self.order] = np.arange(self.n)
        return self._place


def _key_order(items: np.ndarray, mask: np.ndarray, key, ties: _Ties) -> np.ndarray:
    """The active units by key, then tie place, parents mixed (``key``: every unit's key, or a function giving
    it)."""
    return _sort_by_key(items, mask, key() if callable(key) else key, ties.place, ties.order, ties.n)


def _pass_key(key, items: np.ndarray, n: int):
    """(the sort keys of ``items``, every unit's sort key or a function computing it). A :class:`Ratio` is
    restricted to the items first: its keys for them are exact for order and equality among them, which is all
    the rotation order needs (their values may differ from those of the whole array, which is computed only
    when the words or an audit read it)."""
    if len(items) == n or not isinstance(key, Ratio):
        full = order_key(key)
        return (full if len(items) == n else full[items]), full
    def of_items(a):                    # a key's arrays hold one value per unit (a single value serves all)
        return np.broadcast_to(np.asarray(a), (n,))[items]
    sub = Ratio(of_items(key.num), None if key.den is None else of_items(key.den), key.kind, key.scale)
    return order_key(sub), _Once(partial(order_key, key))


class _Once:
    """A function's result, computed on the first call and kept (a pass's whole key, read by the words and by
    the key order, each perhaps)."""

    def __init__(self, fn):
        self.fn, self.value = fn, None

    def __call__(self):
        if self.fn is not None:
            self.value, self.fn = self.fn(), None
        return self.value


def _sort_by_key(items: np.ndarray, mask: np.ndarray, key: np.ndarray, tie_pos: np.ndarray, tie_order: np.ndarray,
                 n: int) -> np.ndarray:
    """``items`` (the positions where ``mask`` is set) ordered by ``key`` ascending, equal keys by ``tie_pos``
    ascending: one sort, none when the key is the same for all (the shared tie order is filtered instead)."""
    if len(items) == 0:
        return items
    k = key[items]
    if k[0] == k[-1] and (k == k[0]).all():
        return tie_order[mask[tie_order]]
    if k.dtype.kind == "f":      # a float key as its dense rank (the same order, the same ties) in whole numbers
        o = np.argsort(k)
        s = k[o]
        k = np.empty(len(o), dtype=np.int64)
        k[o] = np.cumsum(np.r_[False, s[1:] != s[:-1]])
    if k.dtype.kind in "iu":
        lo = int(k.min())
        bits = max(n - 1, 1).bit_length()
        if (int(k.max()) - lo).bit_length() + bits <= 63:       # (key, tie place) in one integer: one sort
            packed = np.sort(((k - lo) << bits) | tie_pos[items])
            return tie_order[packed & ((1 << bits) - 1)]
    o = np.argsort(k)
    s = k[o]
    same = s[1:] == s[:-1]
    if same.any():
        start = np.r_[True, ~same]
        run = np.cumsum(start) - 1
        member = np.r_[same, False] | np.r_[False, same]
        at = np.flatnonzero(member)
        sub = o[at]
        o[at] = sub[np.argsort(run[at] * n + tie_pos[items[sub]])]
    return items[o]


def _rotation_order(items: np.ndarray, k: np.ndarray, ties: _Ties, par: np.ndarray,
                    tier: np.ndarray) -> np.ndarray | None:
    """``items`` (``k`` their sort keys) ordered by parent, tier, key, then tie place (the key order regrouped
    stably by parent and tier) in one sort of the four packed into an integer, the tie place counted within the
    parent; None where they do not fit in 63 bits."""
    if k[0] == k[-1] and (k == k[0]).all():
        k, kbits = None, 0
    else:
        if k.dtype.kind == "f":  # the dense rank (from 0): the same order, the same ties
            o = np.argsort(k)
            s = k[o]
            k = np.empty(len(o), dtype=np.int64)
            k[o[0]] = 0
            k[o[1:]] = np.cumsum(s[1:] != s[:-1])
            kbits = int(k[o[-1]]).bit_length()
        elif k.dtype.kind in "iu":
            k = k.astype(np.int64, copy=False)
            lo, hi = int(k.min()), int(k.max())
            k = k - lo
            kbits = (hi - lo).bit_length()
        else:
            return None
    whole = len(items) == len(par)            # every unit: no gathers
    p = par if whole else par[items]
    lbits = ties.lbits
    shift = 2 + kbits + lbits
    if int(p.max()).bit_length() + shift > 63 or int(p.min()) < 0:
        return None
    g = p << 2                                  # (parent, tier, key, tie field within the parent), in place
    g |= tier if whole else tier[items]
    if k is not None:
        g <<= kbits
        g |= k
    g <<= lbits
    g |= ties.local if whole else ties.local[items]
    g.sort()
    low = g & ((1 << lbits) - 1)
    g >>= shift
    return ties.positions(g, low)


# -- the passes --------------------------------------------------------------------------------------------

def run_passes(codes: np.ndarray, par: np.ndarray, parent_labels, passes: list[Pass], rotation: RotationView,
               settings: Settings, pins: dict | None = None, division: np.ndarray | None = None) -> EngineResult:
    """Apply ``passes`` to the units ``codes`` (int64), sorted by parent number ``par`` (0..parents-1), then
    code. ``pins``: position -> (code, source): those units keep their category and stay out of every pass (the
    ``slots`` of a pass are its full counts; pins are subtracted here). ``division``: the division of each unit
    (for the division rule), or None."""
    codes = np.asarray(codes, dtype=np.int64)
    par = np.asarray(par, dtype=np.int64)
    _check_sorted(codes, par)
    n = len(codes)
    category = np.full(n, -1, dtype=np.int64)
    decided_by = np.full(n, -3, dtype=np.int64)
    pins = dict(pins or {})
    pin_pos = np.fromiter(pins, dtype=np.int64, count=len(pins))
    pin_code = np.array([CODE_INDEX[c] for c, _ in pins.values()], dtype=np.int64)
    category[pin_pos] = pin_code
    decided_by[pin_pos] = -1
    rotation.bind(codes)
    run = _Run(codes, par, parent_labels, rotation, settings, division, category, pin_pos, pin_code)
    records = [run.one_pass(pi, spec) for pi, spec in enumerate(passes)]
    for rec in records:
        decided_by[rec.chosen] = rec.index
    rest = category < 0
    category[rest] = _UR
    decided_by[rest] = -2
    return EngineResult(codes, par, parent_labels, rotation, settings, records, category, decided_by, pins)


def _check_sorted(codes: np.ndarray, par: np.ndarray) -> None:
    if len(codes) > 1:
        step = (par[1:] > par[:-1]) | ((par[1:] == par[:-1]) & (codes[1:] > codes[:-1]))
        if not step.all():
            if ((par[1:] == par[:-1]) & (codes[1:] == codes[:-1])).any():
                raise RuleError("unit codes are not unique")
            raise ValueError("units must be sorted by parent, then unit code (the code is the last tie-break)")


class _Run:
    """The state of one run between its passes: the categories so far, the shared tie orders, the units freed."""

    def __init__(self, codes, par, parent_labels, rotation, settings, division, category, pin_pos, pin_code):
        self.codes, self.par, self.parent_labels, self.rotation = codes, par, parent_labels, rotation
        self.settings, self.division, self.category = settings, division, category
        self.pin_pos, self.pin_code = pin_pos, pin_code
        self.n, self.n_par = len(codes), len(parent_labels)
        self.shared_ties: dict = {}
        self.freed = np.zeros(self.n, dtype=bool)   # saturation_effect=unreserved: left out earlier, out of later

    def slots(self, spec: Pass) -> np.ndarray:
        """The pass's posts per parent and code, the pinned units taken off."""
        mat = np.array(spec.slots, dtype=np.int64).reshape(self.n_par, len(spec.codes)).copy()
        for j, c in enumerate(spec.codes):
            hit = self.pin_code == CODE_INDEX[c]
            if hit.any():
                np.subtract.at(mat[:, j], self.par[self.pin_pos[hit]], 1)
        if (mat < 0).any():
            raise RuleError(f"{spec.name}: more pinned units than posts")
        return mat

    def ties(self, spec: Pass):
        """(the tie field of the pass, its lot numbers or None): passes without lots share one per population."""
        lot = steps.lot_numbers(self.codes, self.settings.lots_of(spec.group))
        pop = np.asarray(spec.population, dtype=np.int64)
        if lot is not None:
            return _Ties(self.par, self.n_par, pop, lot, self.settings.tie_break), lot
        pkey = id(spec.population)
        if pkey not in self.shared_ties:     # keeps the array alive: its id stays valid
            self.shared_ties[pkey] = (spec.population, _Ties(self.par, self.n_par, pop, None,
                                                             self.settings.tie_break))
        return self.shared_ties[pkey][1], None

    def one_pass(self, pi: int, spec: Pass) -> PassRecord:
        par, n = self.par, self.n
        mat = self.slots(spec)
        need = mat.sum(axis=1)
        pool = self.category < 0
        active = pool & (need > 0)[par]            # units in a parent with no posts in this pass are not ranked
        freed_here = self.freed.copy()
        elig = steps.eligible(n, spec.eligible, self.freed)
        tier = steps.tiers(self.rotation, spec.history_codes)
        ties, lot = self.ties(spec)
        ia = np.flatnonzero(active)
        ikey, okey = _pass_key(spec.key, ia, n)
        rot = _rotation_order(ia, ikey, ties, par, tier) if len(ia) else ia
        if rot is None:
            okey = okey() if callable(okey) else okey
            o_key = _key_order(ia, active, okey, ties)
            rot = o_key[group_order(par[o_key] * 4 + tier[o_key])]
        else:       # the key order only for words (ranks), on demand
            o_key = partial(_key_order, ia, active, okey, ties)
        every = spec.eligible is None and not self.freed.any()
        chosen, chosen_pos, pool_size, barred = self.choose(spec, rot, ia, elig, need, tier, every)
        flag = steps.women_flag(self.settings.category_women, self.rotation, chosen, len(spec.codes))
        level = None if flag is None else steps.women_level(tier[chosen], flag)
        split_pos = steps.women_places(par[chosen], chosen_pos, level)
        slot_idx = steps.women_slots(split_pos, par[chosen], mat)
        code_idx = np.array([CODE_INDEX[c] for c in spec.codes], dtype=np.int64)
        if len(spec.codes):
            self.category[chosen] = code_idx[slot_idx]
        rec = PassRecord(pi, spec, ia, o_key, rot, np.flatnonzero(pool & ~active), tier, elig, okey, lot, chosen,
                         chosen_pos, slot_idx, need, mat, pool_size, barred, freed_here)
        rule = self.settings.division
        if rule is not None and rule.effect is steps.Effect.UNRESERVED and barred:
            self.freed[np.fromiter(barred, dtype=np.int64, count=len(barred))] = True
        return rec

    def choose(self, spec: Pass, rot, ia, elig, need, tier, every: bool):
        """The units that take the pass's posts: the first ``need`` eligible units of each parent in the pass's
        order, again after each unit the division rule frees. (chosen, place among the chosen of its parent,
        active units per parent, barred: position -> (division, its size, population))."""
        par, n_par = self.par, self.n_par
        rule = self.settings.division
        applies = rule is not None and spec.saturation_population is not None and self.division is not None
        barred: dict[int, tuple] = {}
        barred_mask = np.zeros(self.n, dtype=bool)
        pool_size = None
        while True:
            cand = rot if every and not barred else rot[elig[rot] & ~barred_mask[rot]]
            pc = par[cand]
            have = np.bincount(pc, minlength=n_par)
            if pool_size is None:
                pool_size = have if cand is rot else np.bincount(par[ia], minlength=n_par)
            first = np.cumsum(have)
            first -= have
            cpos = np.arange(len(pc))                   # place among the candidates of the parent (grouped)
            cpos -= first[pc]
            short = np.flatnonzero(have < need)
            if len(short):
                r = short[0]
                raise RuleError(f"{spec.name}: {need[r]} posts in {self.settings.parent_label} "
                                f"{self.parent_labels[r]} but only {have[r]} units left to take them")
            take = cpos < need[pc]
            chosen, chosen_pos = cand[take], cpos[take]
            steps.check_fallback(self.settings.rotation_fallback, tier[chosen], spec.name, spec.group)
            if not applies or len(chosen) == 0:
                return chosen, chosen_pos, pool_size, barred
            satpop = np.asarray(spec.saturation_population, dtype=object)
            victims = rule.victims(spec.group, self.category, chosen, par, self.division, satpop, self.codes)
            if not victims:
                return chosen, chosen_pos, pool_size, barred
            for v, div, size in victims:
                barred[v] = (div, size, satpop[v])
                barred_mask[v] = True
