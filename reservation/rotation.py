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
        self._by_unit: dict[int, list[tuple[int, str]]] = {}
        for u, y, c in zip(h["unit_code"], h["year"], h["category"]):
            self._by_unit.setdefault(int(u), []).append((int(y), str(c)))

    def record(self, unit: int) -> list[tuple[int, str]]:
        return sorted(self._by_unit.get(int(unit), []))

    def _sets(self, codes: frozenset[str]):
        key = tuple(sorted(codes))
        cache = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            h = self.previous[self.previous["category"].isin(codes)]
            last = h[h["year"] == self.last_year]
            cache[key] = (h["unit_code"].to_numpy(dtype=np.int64),
                          last["unit_code"].to_numpy(dtype=np.int64),
                          dict(zip(last["unit_code"].astype(int), last["category"])),
                          h)
        return cache[key]

    def tiers(self, units: np.ndarray, codes: frozenset[str]) -> np.ndarray:
        """Tier (1, 2, 3) of each unit for a group whose history codes are ``codes``."""
        units = np.asarray(units, dtype=np.int64)
        if self.last_year is None:
            return np.ones(len(units), dtype=np.int64)
        held, held_last, _, _ = self._sets(codes)
        t = np.ones(len(units), dtype=np.int64)
        if self.mode == "since_base":
            t[np.isin(units, held)] = 2
        t[np.isin(units, held_last)] = 3
        return t

    def tier_words(self, units: np.ndarray, tiers: np.ndarray, codes: frozenset[str]) -> np.ndarray:
        """The words of each unit's tier, with the history behind it (array of str)."""
        units = np.asarray(units, dtype=np.int64)
        if self.last_year is None:
            return np.full(len(units), "no previous election in the history", dtype=object)
        _, _, last_code, h = self._sets(codes)
        span = f"{self.years[0]}-{self.years[-1]}" if len(self.years) > 1 else str(self.years[0])
        has_last = np.isin(units, self._units_last())
        out = np.where(has_last, f"{TIER_WORDS[1]} ({span})",
                       f"{TIER_WORDS[1]} ({span}); no record for {self.last_year} in the history, taken as "
                       f"not reserved").astype(object)
        for i in np.flatnonzero(tiers == 3):
            out[i] = f"{TIER_WORDS[3]} ({self.last_year}: {last_code[int(units[i])]})"
        two = np.flatnonzero(tiers == 2)
        if len(two):
            earlier = h[h["unit_code"].isin(units[two])].sort_values(["unit_code", "year"], kind="stable")
            text = earlier.groupby("unit_code").apply(
                lambda g: ", ".join(f"{y}: {c}" for y, c in zip(g["year"], g["category"])), include_groups=False)
            for i in two:
                out[i] = f"{TIER_WORDS[2]} ({self.last_year}), but was earlier ({text[int(units[i])]})"
        return out

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
