"""Rotation ("चक्रानुक्रम"): history of earlier reservations and the eligibility tiers it gives.

GO 2021 (seed b), ZP chair allotment items 1-3 (and KP items 6-10): units are taken in descending order, but

- tier 1: first the units **never** reserved for the category in the previous elections;
- tier 2: when those are used up, the units **not reserved for it at the last election** (2015);
- tier 3: the rest, only "as far as possible" (जहाँ तक हो सके) leaves them out: used when tiers 1-2 cannot
  fill the posts (option ``rotation_fallback``; A8).

"Previous elections" are the history years ``base_year <= year < election year``: the 12th Amendment Rules
2021, Rule 2(d), after the High Court order of 15 Mar 2021, made 2015 the base year (RULES.md §6).

A history table has columns ``unit_code`` (int), ``year`` (int), ``category`` (one of the eight codes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .categories import CODES


__all__ = ["HISTORY_COLUMNS", "RotationView", "group_codes", "TIER_WORDS"]

HISTORY_COLUMNS = ["unit_code", "year", "category"]

TIER_WORDS = {1: "never reserved for it in the previous elections",
              2: "not reserved for it at the last election",
              3: "reserved for it at the last election"}


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


@dataclass
class RotationView:
    """History restricted to the previous elections of one election year."""

    history: pd.DataFrame
    year: int
    base_year: int
    mode: str = "since_base"           # A8: "since_base" (any previous election) or "last_only"

    def __post_init__(self):
        h = self.history
        h = h[(h["year"] >= self.base_year) & (h["year"] < self.year)]
        self.previous = h
        self.years = sorted(int(y) for y in h["year"].unique())
        self.last_year = self.years[-1] if self.years else None

    def _sets(self, codes: frozenset[str]):
        key = tuple(sorted(codes))
        cache = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            h = self.previous[self.previous["category"].isin(codes)]
            last = h[h["year"] == self.last_year]
            cache[key] = (h["unit_code"].to_numpy(dtype=np.int64),
                          last["unit_code"].to_numpy(dtype=np.int64), last, h)
        return cache[key]

    def bind(self, units: np.ndarray) -> None:
        """Remember the engine's unit order, so that :meth:`tiers` can place history rows by position."""
        units = np.asarray(units, dtype=np.int64)
        sorter = np.argsort(units, kind="stable")
        self.__dict__["_bound"] = (units, sorter, units[sorter])
        self.__dict__.pop("_last_mask", None)
        self.__dict__.pop("_placed", None)

    def _positions(self, codes_of_rows: np.ndarray) -> np.ndarray:
        units, sorter, sorted_units = self.__dict__["_bound"]
        i = np.searchsorted(sorted_units, codes_of_rows)
        i = np.minimum(i, len(sorted_units) - 1) if len(sorted_units) else i
        found = (sorted_units[i] == codes_of_rows) if len(sorted_units) else np.zeros(len(i), dtype=bool)
        return sorter[i[found]]

    def _rows_placed(self):
        """Every previous-election row placed once: (unit position, is-last-year, category index)."""
        if "_placed" not in self.__dict__:
            units, sorter, sorted_units = self.__dict__["_bound"]
            h = self.previous
            codes = h["unit_code"].to_numpy(dtype=np.int64)
            i = np.minimum(np.searchsorted(sorted_units, codes), max(len(sorted_units) - 1, 0))
            found = sorted_units[i] == codes if len(sorted_units) else np.zeros(len(codes), dtype=bool)
            cat = pd.Categorical(h["category"], categories=list(CODES)).codes
            self.__dict__["_placed"] = (sorter[i[found]], (h["year"].to_numpy() == self.last_year)[found],
                                        cat[found])
        return self.__dict__["_placed"]

    def tiers(self, units: np.ndarray, codes: frozenset[str]) -> np.ndarray:
        """Tier (1, 2, 3) of each unit for a group whose history codes are ``codes``."""
        units = np.asarray(units, dtype=np.int64)
        if self.last_year is None:
            return np.ones(len(units), dtype=np.int64)
        t = np.ones(len(units), dtype=np.int8)
        bound = self.__dict__.get("_bound")
        if bound is not None and bound[0] is units:
            pos, last, cat = self._rows_placed()
            in_group = np.isin(cat, [CODES.index(c) for c in codes])
            if self.mode == "since_base":
                t[pos[in_group]] = 2
            t[pos[in_group & last]] = 3
            return t
        held, held_last, _, _ = self._sets(codes)
        if self.mode == "since_base":
            t[np.isin(units, held)] = 2
        t[np.isin(units, held_last)] = 3
        return t

    def tier_words(self, units: np.ndarray, tiers: np.ndarray, codes: frozenset[str]) -> np.ndarray:
        """The words of each unit's tier, with the history behind it (array of str)."""
        units = np.asarray(units, dtype=np.int64)
        if self.last_year is None:
            return np.full(len(units), "no previous election in the history", dtype=object)
        _, _, last, h = self._sets(codes)
        span = f"{self.years[0]}-{self.years[-1]}" if len(self.years) > 1 else str(self.years[0])
        has_last = self._has_last(units)
        out = np.where(has_last, f"{TIER_WORDS[1]} ({span})",
                       f"{TIER_WORDS[1]} ({span}); no record for {self.last_year} in the history, taken as "
                       f"not reserved").astype(object)
        three = np.flatnonzero(tiers == 3)
        if len(three):
            code_of = last.drop_duplicates("unit_code").set_index("unit_code")["category"]
            held = code_of.reindex(units[three]).astype(str)
            out[three] = (f"{TIER_WORDS[3]} ({self.last_year}: " + held + ")").to_numpy(dtype=object)
        two = np.flatnonzero(tiers == 2)
        if len(two):
            earlier = h[h["unit_code"].isin(units[two])].sort_values(["unit_code", "year"], kind="stable")
            text = earlier.groupby("unit_code").apply(
                lambda g: ", ".join(f"{y}: {c}" for y, c in zip(g["year"], g["category"])), include_groups=False)
            for i in two:
                out[i] = f"{TIER_WORDS[2]} ({self.last_year}), but was earlier ({text[int(units[i])]})"
        return out

    def _has_last(self, units: np.ndarray) -> np.ndarray:
        """Whether each unit has any record for the last election (by position when bound: no hashing)."""
        bound = self.__dict__.get("_bound")
        if bound is None:
            return np.isin(units, self._units_last())
        if "_last_mask" not in self.__dict__:
            mask = np.zeros(len(bound[0]), dtype=bool)
            mask[self._positions(self._units_last())] = True
            self.__dict__["_last_mask"] = mask
        _, sorter, sorted_units = bound
        i = np.minimum(np.searchsorted(sorted_units, units), len(sorted_units) - 1)
        return np.where(sorted_units[i] == units, self.__dict__["_last_mask"][sorter[i]], False)

    def _units_last(self) -> np.ndarray:
        if "_last_units" not in self.__dict__:
            p = self.previous
            self.__dict__["_last_units"] = p.loc[p["year"] == self.last_year, "unit_code"].to_numpy(dtype=np.int64)
        return self.__dict__["_last_units"]

    def held_women_last(self, units: np.ndarray) -> np.ndarray:
        """Whether each unit held any women's office at the last election (A7 reading c)."""
        p = self.previous
        women = p[(p["year"] == self.last_year) & p["category"].isin(["ST_W", "SC_W", "OBC_W", "W"])]
        return np.isin(np.asarray(units, dtype=np.int64), women["unit_code"].to_numpy(dtype=np.int64))
