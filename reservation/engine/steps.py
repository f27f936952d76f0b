"""The named steps of a pass, each written once: the engine allots with them, the audit's walk checks a published
list with them, the projection constrains its samples with them.

A pass fills the posts of one category group in each counting unit (parent). The law (GO 2021, ZP chair items
1-3; KP items 1-10; the readings in docs/ambiguities.md) names these steps:

- :func:`eligible`: who may take the group (KP item 2, the two-person rule; and a unit the division rule made
  unreserved in an earlier pass under ``saturation_effect=unreserved``, A12);
- :func:`tiers`: the rotation tier of every unit for the group (ZP items 1-3, KP items 6-10; A8), as
  :class:`reservation.law.rotation.RotationView` computes it;
- :func:`lot_numbers`, :func:`tie_order`, :func:`tie_places`: how equal keys are broken (A14: a lot drawn,
  then the rule of option ``tie_break``, then the lower code);
- :func:`pass_order`, :func:`precedes`: the order of a pass (tier, then the key descending, then the tie
  place);
- :class:`DivisionRule`: the division rule (ZP items 1-3, last sentence; A12): which categories hold the group,
  when a division is saturated, which unit is freed;
- :func:`women_flag`, :func:`women_level`, :func:`women_places`, :func:`women_slots`: the women's posts go to
  the first of the chosen units in the pass's order (A7; ``category_women=not_women_last`` puts the units that
  held no women's office at the last election first);
- :func:`check_fallback`: tier 3 is used only "as far as possible" (A8; ``rotation_fallback``).

The settings of a run (:class:`Settings`) are typed: the engine compares no option string. Everything here is
numbers and codes (positions into the run's units, indexes into :data:`reservation.law.categories.CODES`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

import numpy as np

from ..base.errors import RuleError
from ..law.categories import CODES
from ..law.rotation import RotationView, positions, stable_order

__all__ = ["TieRule", "WomenRule", "Fallback", "Scope", "Effect", "DivisionRule", "Settings", "CODE_INDEX",
           "eligible", "tiers", "lot_numbers", "tie_order", "tie_places", "pass_order", "precedes",
           "check_fallback", "women_flag", "women_level", "women_places", "women_slots", "group_holding_codes",
           "run_positions"]

CODE_INDEX = {c: i for i, c in enumerate(CODES)}
_UR = CODE_INDEX["UR"]


class TieRule(Enum):
    """A14: equal keys after the lot: ``POPULATION`` = larger population first, then lower code; ``CODE`` = lower
    code first."""

    POPULATION = "population"
    CODE = "code"


class WomenRule(Enum):
    """A7: which chosen units take the group's women's posts: ``TOP`` the first in the pass's order (reading a);
    ``NOT_WOMEN_LAST`` the first among those that held no women's office at the last election, then the rest."""

    TOP = "top"
    NOT_WOMEN_LAST = "not_women_last"


class Fallback(Enum):
    """A8: when tiers 1-2 cannot fill the posts: ``RANK`` take tier 3 in order ("as far as possible"); ``ERROR``
    refuse."""

    RANK = "rank"
    ERROR = "error"


class Scope(Enum):
    """A12: what holds a division: ``PER_CATEGORY`` the pass's own group (SC and SC_W); ``ALL_RESERVED`` any
    reserved office."""

    PER_CATEGORY = "per_category"
    ALL_RESERVED = "all_reserved"


class Effect(Enum):
    """A12: the freed unit is ``UNRESERVED`` (out of every later pass) or only ``BARRED`` from the group."""

    BARRED = "barred"
    UNRESERVED = "unreserved"


def group_holding_codes(group: str, scope: Scope) -> np.ndarray:
    """The CODES indexes that count as holding ``group`` for the division rule (A12 ``saturation_scope``)."""
    if scope is Scope.ALL_RESERVED:
        return np.array([i for i, c in enumerate(CODES) if c != "UR"], dtype=np.int64)
    return np.array([CODE_INDEX[c] for c in ((f"{group}_W", group) if group != "GEN" else ("W",))], dtype=np.int64)


@dataclass(frozen=True)
class DivisionRule:
    """The division rule of GO 2021 ZP items 1-3 (last sentence; A12): "if all districts of a division become
    reserved in the category, the least populous is made unreserved". ``scope``: what holds the group;
    ``effect``: whether the freed unit leaves every later pass."""

    scope: Scope = Scope.PER_CATEGORY
    effect: Effect = Effect.BARRED

    def holds(self, category: np.ndarray, group: str) -> np.ndarray:
        """Whether each unit (``category``: CODES index, -1 none yet) holds ``group`` under the scope."""
        return np.isin(np.asarray(category), group_holding_codes(group, self.scope))

    @staticmethod
    def saturated(division: np.ndarray, par: np.ndarray, reserved: np.ndarray, chosen: np.ndarray,
                  among: np.ndarray | None = None) -> list:
        """The saturated divisions ``[(parent, division, member positions)]``, by parent then division name: a
        division of a parent with two units or more, all of which hold the group (``reserved``), one at least
        chosen in this pass (``chosen``). ``among``: only the units at these positions (one parent, say)."""
        idx = np.arange(len(division)) if among is None else np.asarray(among, dtype=np.int64)
        members: dict[tuple, list[int]] = {}
        for i in idx.tolist():
            members.setdefault((int(par[i]), division[i]), []).append(i)
        out = []
        for (p, d), mem in sorted(members.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            m = np.asarray(mem, dtype=np.int64)
            if len(m) >= 2 and reserved[m].all() and chosen[m].any():
                out.append((p, d, m))
        return out

    @staticmethod
    def freed_unit(candidates, population, codes) -> int:
        """The unit the rule frees among ``candidates`` (positions): the least populous (``population``: exact
        numbers per position), then the lower code."""
        return min((int(c) for c in candidates), key=lambda i: (Fraction(population[i]), int(codes[i])))

    def victims(self, group: str, category: np.ndarray, chosen: np.ndarray, par: np.ndarray, division: np.ndarray,
                population, codes: np.ndarray) -> list:
        """The engine's use: ``[(freed position, division, its size)]`` for the units ``chosen`` (positions) of one
        round, the others holding what ``category`` says."""
        reserved = self.holds(category, group)
        reserved[chosen] = True
        mine = np.zeros(len(codes), dtype=bool)
        mine[chosen] = True
        return [(self.freed_unit(m[mine[m]], population, codes), d, len(m))
                for _p, d, m in self.saturated(division, par, reserved, mine)]


@dataclass(frozen=True)
class Settings:
    """The run's readings, typed (built once from the option set by :func:`reservation.allotment.pipeline.settings_of`).

    ``division``: the division rule, or None where the body declares none or it is switched off. ``lots``: group
    or ``"*"`` -> {unit code: lot}. ``parent_label``: how a parent is named in messages."""

    tie_break: TieRule = TieRule.POPULATION
    lots: dict = field(default_factory=dict)
    category_women: WomenRule = WomenRule.TOP
    rotation_fallback: Fallback = Fallback.RANK
    division: DivisionRule | None = DivisionRule()
    parent_label: str = "State"

    def lots_of(self, group: str) -> dict:
        """The lots of one group's pass: those drawn for every group, then the group's own."""
        lots = dict(self.lots.get("*", {}))
        lots.update(self.lots.get(group, {}))
        return lots


# -- who, and in which order -----------------------------------------------------------------------------------

def eligible(n: int, declared: np.ndarray | None, freed: np.ndarray | None = None) -> np.ndarray:
    """Who may take the group: the declared eligibility (KP item 2, two persons of the group; None = every unit),
    less the units the division rule made unreserved in an earlier pass (A12 ``saturation_effect=unreserved``)."""
    elig = np.ones(n, dtype=bool) if declared is None else np.asarray(declared, dtype=bool)
    if freed is not None and freed.any():
        elig = elig & ~freed
    return elig


def tiers(rotation: RotationView, history_codes: frozenset) -> np.ndarray:
    """The rotation tier of every unit for a group (ZP items 1-3, KP items 6-10; A8): 1 never reserved for it in
    the previous elections, 2 not at the last one, 3 the rest."""
    return rotation.tiers(history_codes)


def lot_numbers(codes: np.ndarray, lots: dict) -> np.ndarray | None:
    """The lot drawn for every unit (-1: none), None when no lot applies (A14)."""
    if not lots:
        return None
    lot = np.full(len(codes), -1, dtype=np.int64)
    at = positions(codes, np.fromiter(lots, dtype=np.int64, count=len(lots)))
    ok = at >= 0
    lot[at[ok]] = np.fromiter(lots.values(), dtype=np.int64, count=len(lots))[ok]
    return lot


def tie_order(n: int, population: np.ndarray, lot: np.ndarray | None, rule: TieRule) -> np.ndarray:
    """Every unit position in the order that breaks equal keys (A14): units with a lot first (lower lot first),
    then the rule (``POPULATION``: larger population first), then the input order (parent, then code)."""
    idx = np.arange(n)
    keys = [idx]
    if rule is TieRule.POPULATION:
        keys.append(-np.asarray(population, dtype=np.int64))
    if lot is not None:
        keys += [lot, lot < 0]
    if len(keys) == 1:
        return idx
    if len(keys) == 2:
        span = int(keys[1].max()) - int(keys[1].min()) + 1 if n else 1
        if span * n < 1 << 62:
            return stable_order(keys[1] - keys[1].min())
    return np.lexsort(tuple(keys))


def tie_places(n: int, population: np.ndarray, lot: np.ndarray | None, rule: TieRule) -> np.ndarray:
    """The place of every unit in :func:`tie_order`."""
    pos = np.empty(n, dtype=np.int64)
    pos[tie_order(n, population, lot, rule)] = np.arange(n)
    return pos


def pass_order(positions_, tier: np.ndarray, order_key: np.ndarray, place: np.ndarray,
               level: np.ndarray | None = None, by_key: bool = True) -> list:
    """``positions_`` in the order a pass takes them (ZP items 1-3): the rotation tier (or a women's ``level``),
    then the key descending (``order_key`` ascending; left out where ``by_key`` is False, a key that is not
    public), then the tie place ``place``."""
    lv = tier if level is None else level
    if by_key:
        return sorted((int(p) for p in positions_), key=lambda p: (int(lv[p]), order_key[p], place[p]))
    return sorted((int(p) for p in positions_), key=lambda p: (int(lv[p]), place[p]))


def precedes(tier: np.ndarray, order_key: np.ndarray, a: int, b: int, by_key: bool = True) -> bool:
    """Whether unit ``a`` comes strictly before ``b`` in a pass whatever the tie-break: a better tier, or (where
    the key is known, ``by_key``) the same tier and a higher key."""
    if tier[a] != tier[b]:
        return bool(tier[a] < tier[b])
    return bool(by_key and order_key[a] < order_key[b])


def check_fallback(rule: Fallback, tier_chosen: np.ndarray, name: str, group: str) -> None:
    """A8: tier 3 ("reserved at the last election") is left out only "as far as possible": under
    ``rotation_fallback=error`` a pass that needs it is refused."""
    if rule is Fallback.ERROR and (np.asarray(tier_chosen) == 3).any():
        raise RuleError(f"{name}: tiers 1-2 cannot fill the posts without a unit reserved for {group} at the last "
                        f"election (option rotation_fallback=error)")


def run_positions(sorted_labels: np.ndarray) -> np.ndarray:
    """0-based position of each element within its run of equal values (the input is grouped)."""
    n = len(sorted_labels)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    start = np.r_[True, sorted_labels[1:] != sorted_labels[:-1]]
    first = np.maximum.accumulate(np.where(start, np.arange(n), 0))
    return np.arange(n) - first


# -- women from the top ---------------------------------------------------------------------------------------

def women_flag(rule: WomenRule, rotation: RotationView, positions_: np.ndarray, n_codes: int) -> np.ndarray | None:
    """A7 reading c (``category_women=not_women_last``): whether each unit held a women's office at the last
    election (those come last for the women's posts); None where the rule is ``TOP`` or the pass has no women's
    code."""
    if rule is not WomenRule.NOT_WOMEN_LAST or n_codes < 2:
        return None
    return np.asarray(rotation.held_women_last(positions_), dtype=bool)


def women_level(tier: np.ndarray, flag: np.ndarray | None) -> np.ndarray:
    """The level that orders the chosen units for the women's posts (before the key): the tier, under the flag of
    :func:`women_flag` where it applies."""
    t = np.asarray(tier, dtype=np.int64)
    return t if flag is None else np.asarray(flag, dtype=np.int64) * 4 + t


def women_places(par_chosen: np.ndarray, chosen_pos: np.ndarray, level: np.ndarray | None) -> np.ndarray:
    """The place of each chosen unit for the women's posts within its parent (A7): by its :func:`women_level`
    (``level``, of the chosen units; None where the women's order is the pass's order), then its place in the
    pass's order (``chosen_pos``)."""
    if level is None or not len(chosen_pos):
        return chosen_pos
    o3 = np.lexsort((chosen_pos, np.asarray(level, dtype=np.int64), par_chosen))
    split = np.empty_like(chosen_pos)
    split[o3] = run_positions(par_chosen[o3])
    return split


def women_slots(split_pos: np.ndarray, par_chosen: np.ndarray, slots: np.ndarray) -> np.ndarray:
    """Which code of the pass (women's first) each chosen unit takes: the first ``slots[parent, 0]`` places take
    the women's code, the next ``slots[parent, 1]`` the second, and so on (``slots``: posts per parent and code)."""
    bounds = np.cumsum(slots, axis=1)
    idx = np.zeros(len(split_pos), dtype=np.int64)
    for j in range(slots.shape[1] - 1):
        idx += split_pos >= bounds[par_chosen, j]
    return idx
