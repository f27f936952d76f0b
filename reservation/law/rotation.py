"""Rotation ("चक्रानुक्रम"): history of earlier reservations and the eligibility tiers it gives.

GO 2021, ZP chair allotment items 1-3 (and KP items 6-10): units are taken in descending order, but

- tier 1: first the units **never** reserved for the category in the previous elections;
- tier 2: when those are used up, the units **not reserved for it at the last election**;
- tier 3: the rest, only "as far as possible" (जहाँ तक हो सके) leaves them out: used when tiers 1-2 cannot
  fill the posts (option ``rotation_fallback``; A8).

"Previous elections" are the history years ``base_year <= year < election year``: the 12th Amendment Rules
2021, Rule 2(d), after the High Court order of 15 Mar 2021, made 2015 the base year.

A history table has columns ``unit_code`` (int), ``year`` (int), ``category`` (one of the eight codes). The
previous elections are encoded once per run, as two bit masks per unit (categories held since the base year, and
at the last election); a pass's tiers are then a lookup on the masks.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .categories import CODES

__all__ = ["HISTORY_COLUMNS", "RotationView", "group_codes", "code_mask", "stable_order", "distinct_years"]

HISTORY_COLUMNS = ["unit_code", "year", "category"]
_BIT = {c: np.uint8(1 << i) for i, c in enumerate(CODES)}
_WOMEN_MASK = np.uint8(sum(int(_BIT[c]) for c in ("ST_W", "SC_W", "OBC_W", "W")))


def group_codes(group: str, women_history: str = "general_only") -> frozenset[str]:
    """The history codes that count as "reserved for" a group in rotation (A8 d).

    An SC-women office is an SC office (it was allotted to the SC category). For the general women's pass,
    ``women_history=general_only`` counts only ``W``; ``any_women`` counts ST_W, SC_W and OBC_W too.
    """
    if group in ("ST", "SC", "OBC"):
        return frozenset({group, f"{group}_W"})
    if group == "GEN":
        return frozenset({"W", "ST_W", "SC_W", "OBC_W"}) if women_history == "any_women" else frozenset({"W"})
    raise ValueError(group)


def code_mask(codes) -> np.uint8:
    """The bit mask of a set of category codes."""
    return np.uint8(sum(int(_BIT[c]) for c in codes))


class RotationView:
    """History restricted to the previous elections of one election year, encoded per unit."""

    def __init__(self, history: pd.DataFrame, year: int, base_year: int, mode: str = "since_base"):
        self.history = history
        self.year = int(year)
        self.base_year = int(base_year)
        self.mode = mode                        # A8: "since_base" (any previous election) or "last_only"
        y = history["year"].to_numpy()
        keep = (y >= self.base_year) & (y < self.year)
        h = history if keep.all() else history[keep]
        self.previous = h
        self.years = distinct_years(h["year"])
        self.last_year = self.years[-1] if self.years else None
        self._codes = None

    def bind(self, units: np.ndarray) -> None:
        """Encode the previous elections for the engine's units (in the engine's order), once per run."""
        units = np.asarray(units, dtype=np.int64)
        n = len(units)
        self._codes = units
        self.held = np.zeros(n, dtype=np.uint8)       # categories held in any previous election
        self.held_last = np.zeros(n, dtype=np.uint8)  # categories held at the last election
        self.has_last = np.zeros(n, dtype=bool)       # any record for the last election
        h = self.previous
        if not len(h) or not n:
            return
        pos = positions(units, h["unit_code"].to_numpy(dtype=np.int64))
        found = pos >= 0
        last = h["year"].to_numpy() == self.last_year
        self.has_last[pos[found & last]] = True
        cat = _code_numbers(h["category"])
        known = found & (cat >= 0)                     # a code outside the eight marks no category
        if known.all():
            self.held = _bits_by_unit(pos, cat, n)
        else:
            self.held = _bits_by_unit(pos[known], cat[known], n)
        if len(self.years) == 1:                        # one previous election: it is the last one
            self.held_last = self.held.copy()
        else:
            self.held_last = _bits_by_unit(pos[known & last], cat[known & last], n)

    def tiers(self, codes: frozenset[str]) -> np.ndarray:
        """Tier (1, 2, 3) of each bound unit for a group whose history codes are ``codes`` (int8 array), from the
        bit masks of the categories held at the last election and since the base year."""
        n = len(self._codes)
        if self.last_year is None:
            return np.ones(n, dtype=np.int8)
        m = code_mask(codes)
        t = np.bitwise_and(self.held_last, m)           # 3 where held at the last election, else
        np.not_equal(t, 0, out=t.view(bool))
        t *= 3
        t = t.view(np.int8)
        if self.mode == "since_base":                     # 2 where held since the base year, else 1
            a = np.bitwise_and(self.held, m)
            np.not_equal(a, 0, out=a.view(bool))
            a += 1
            t |= a.view(np.int8)                          # 3 | 1 = 3 | 2 = 3
        else:
            t |= np.int8(1)
        return t

    def tiers_for(self, units: np.ndarray, codes: frozenset[str]) -> np.ndarray:
        """Tiers of any units (by code, not bound to a run), e.g. for a rotation history view."""
        units = np.asarray(units, dtype=np.int64)
        t = np.ones(len(units), dtype=np.int8)
        if self.last_year is None:
            return t
        h = self.previous[self.previous["category"].isin(codes)]
        if self.mode == "since_base":
            t[np.isin(units, h["unit_code"].to_numpy(dtype=np.int64))] = 2
        t[np.isin(units, h.loc[h["year"] == self.last_year, "unit_code"].to_numpy(dtype=np.int64))] = 3
        return t

    def completed(self, last_year: int, missing_last: np.ndarray, missing_before: np.ndarray,
                  held: bool) -> "RotationView":
        """A copy of this bound view whose last election is ``last_year`` (an election the rotation counts even
        where the history holds no list of it), and where a unit's missing records (``missing_last``: no record of
        the last election; ``missing_before``: none of an earlier one counted) are read as held nothing
        (``held`` False) or every category (``held`` True). The tiers of a unit whose records are missing lie
        between the tiers of the two copies (:meth:`tiers` is monotone in what a unit held)."""
        import copy
        v = copy.copy(self)
        v.years = sorted(set(self.years) | {int(last_year)})
        v.last_year = int(last_year)
        full = np.uint8(0xFF)
        base_last = self.held_last if self.last_year == v.last_year else np.zeros_like(self.held)
        if len(v.years) == 1:                       # one election counted: it is the last one
            base_last = self.held
        if held:
            v.held = np.where(missing_last | missing_before, full, self.held).astype(np.uint8)
            v.held_last = np.where(missing_last, full, base_last).astype(np.uint8)
        else:
            v.held = self.held.copy()
            v.held_last = base_last.copy()
        return v

    def held_women_last(self, positions_: np.ndarray) -> np.ndarray:
        """Whether each unit (by engine position) held any women's office at the last election (A7 reading c)."""
        return (self.held_last[positions_] & _WOMEN_MASK) != 0

    def records(self, unit_codes: np.ndarray) -> pd.DataFrame:
        """The previous-election rows of some units (for the words of tier 2 and 3)."""
        return self.previous[self.previous["unit_code"].isin(unit_codes)]


def _code_numbers(column: pd.Series) -> np.ndarray:
    """The index in CODES of each category (int64; -1 for any other value): one hash lookup of the text."""
    import pyarrow as pa
    import pyarrow.compute as pc
    try:
        arr = pa.array(column, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        arr = None
    if arr is None or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        codes_, uniques = pd.factorize(column)      # not all text: value by value
        lookup = np.array([CODES.index(u) if u in CODES else -1 for u in uniques] + [-1], dtype=np.int64)
        return lookup[codes_]
    out = pc.index_in(arr, value_set=pa.array(list(CODES), type=arr.type))
    return out.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)


def _bits_by_unit(pos: np.ndarray, cat: np.ndarray, n: int) -> np.ndarray:
    """The OR of the category bits ``1 << cat`` of each position's records (uint8 per unit, 0 = none).

    One byte per (unit, category) is set to 1 by a single scatter (a repeated record sets it again); a unit's
    eight bytes, read as one little-endian 64-bit word ``sum(b_i << 8*i)``, times ``0x0102040810204080`` carry
    ``sum(b_i << i)`` into their top byte (each ``b_i << (8*i + 56 - 7*i)``, no two terms overlapping)."""
    flags = np.zeros(n * 8, dtype=np.uint8)
    flags[pos * 8 + cat] = 1
    word = flags.view("<u8")
    word *= np.uint64(0x0102040810204080)
    word >>= np.uint64(56)
    return word.astype(np.uint8)


def distinct_years(years) -> list[int]:
    """The distinct years of a column of years, ascending (a count per year where they span less than a few
    thousand years, else a hash)."""
    y = np.asarray(years, dtype=np.int64)
    if not len(y):
        return []
    lo, hi = int(y.min()), int(y.max())
    if hi - lo < 4096:
        return [lo + int(i) for i in np.flatnonzero(np.bincount(y - lo))]
    return sorted(int(v) for v in pd.unique(y))


def positions(units: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Position of each code in ``units`` (any order, unique), -1 where absent. Sorted units need no sort."""
    units = np.asarray(units, dtype=np.int64)
    codes = np.asarray(codes, dtype=np.int64)
    if len(units) == 0:
        return np.full(len(codes), -1, dtype=np.int64)
    if len(codes) == len(units) and np.array_equal(codes, units):     # the same units in the same order
        return np.arange(len(units), dtype=np.int64)
    if len(units) < 2 or (units[1:] > units[:-1]).all():
        sorter = None
        sorted_units = units
    else:   # units by parent, then code: a few ascending runs, which the stable (merging) argsort finds
        few_runs = np.count_nonzero(units[1:] < units[:-1]) < len(units) >> 6
        sorter = np.argsort(units, kind="stable") if few_runs else stable_order(units)
        sorted_units = units[sorter]
    if len(codes) == len(units) and np.array_equal(codes, sorted_units):  # every unit once, by code (a file)
        return np.arange(len(units), dtype=np.int64) if sorter is None else sorter.astype(np.int64)
    i = np.minimum(np.searchsorted(sorted_units, codes), len(sorted_units) - 1)
    ok = sorted_units[i] == codes
    out = np.where(ok, i if sorter is None else sorter[i], -1)
    return out.astype(np.int64)


def stable_order(values: np.ndarray) -> np.ndarray:
    """``np.argsort(values, kind="stable")`` of integers: where every value is non-negative and value and position
    fit in 63 bits together, one sort of ``value << bits | position`` (numpy sorts plain integers with SIMD,
    several times faster than it argsorts them) and the positions read back from the low bits."""
    v = np.asarray(values, dtype=np.int64)
    n = len(v)
    if n < 2:
        return np.arange(n, dtype=np.int64)
    bits = (n - 1).bit_length()
    if int(v.min()) < 0 or int(v.max()).bit_length() + bits > 63:
        return np.argsort(v, kind="stable")
    packed = np.sort((v << bits) | np.arange(n, dtype=np.int64))
    return packed & ((1 << bits) - 1)
