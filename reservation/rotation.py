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

import pandas as pd

from .categories import by_code

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

    def tier(self, unit: int, codes: frozenset[str]) -> tuple[int, str]:
        """(tier, words) of a unit for a group whose history codes are ``codes``."""
        rec = self.record(unit)
        if self.last_year is None:
            return 1, "no previous election in the history"
        held = [(y, c) for y, c in rec if c in codes]
        held_last = [(y, c) for y, c in held if y == self.last_year]
        has_last = any(y == self.last_year for y, _ in rec)
        if held_last:
            return 3, f"{TIER_WORDS[3]} ({self.last_year}: {held_last[0][1]})"
        considered = held if self.mode == "since_base" else held_last
        if not considered:
            note = "" if has_last else f"; no record for {self.last_year} in the history, taken as not reserved"
            span = (f"{self.years[0]}-{self.years[-1]}" if len(self.years) > 1 else str(self.years[0]))
            return 1, f"{TIER_WORDS[1]} ({span}){note}"
        years = ", ".join(f"{y}: {c}" for y, c in considered)
        return 2, f"{TIER_WORDS[2]} ({self.last_year}), but was earlier ({years})"

    def held_women_last(self, unit: int) -> bool:
        """Whether the unit held any women's office at the last election (A7 reading c)."""
        return any(y == self.last_year and by_code(c).women for y, c in self.record(unit))
