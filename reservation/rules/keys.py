"""Small named keys and constraints that rulebooks declare their passes with.

Each key and constraint carries a declared kind (:class:`KeyKind`, :class:`KeySpec`; :class:`Eligibility`):
the audit and the projection read what a pass's key depends on from it, not from a function's name.

A key turns the run's context (:class:`reservation.allotment.pipeline.Context`) into a :class:`~reservation.law.ranking.Ratio`
per unit (descending order prefers the larger); a constraint into a boolean array (False = the unit may not take
the group). Everything stays exact integers: an assumed OBC population (``pop x share``) is carried as a
numerator over the share's denominator.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Callable

import numpy as np

from ..law.ranking import Ratio

__all__ = ["share", "outside_people", "outside_share", "women_share", "two_persons", "category_population",
           "KeyKind", "KeySpec", "Eligibility"]


class KeyKind(Enum):
    """What a pass ranks by, declared: the group's share (ST, SC from the Census; OBC given or assumed), the
    people outside SC/ST/OBC (a number or a share), or the share of women."""

    SHARE_ST = "share_st"
    SHARE_SC = "share_sc"
    SHARE_OBC = "share_obc"
    OUTSIDE_PEOPLE = "outside_people"
    OUTSIDE_SHARE = "outside_share"
    WOMEN_SHARE = "women_share"
    PEOPLE = "people"                   # a public number of people (the Mayors' women by population: A7)

    @property
    def reads_obc(self) -> bool:
        """The key depends on the OBC population (which is not public by district, block or body)."""
        return self in (KeyKind.SHARE_OBC, KeyKind.OUTSIDE_PEOPLE, KeyKind.OUTSIDE_SHARE)


@dataclass(frozen=True)
class KeySpec:
    """A key with its declared kind: ``KeySpec(kind, fn)(ctx)`` is ``fn(ctx)``, a Ratio per unit."""

    kind: KeyKind
    fn: Callable

    def __call__(self, ctx) -> Ratio:
        return self.fn(ctx)


@dataclass(frozen=True)
class Eligibility:
    """A constraint with its declared group (KP item 2, two persons of the group): ``reads_obc`` where the group
    is OBC (its figures are not public)."""

    group: str
    fn: Callable

    @property
    def reads_obc(self) -> bool:
        return self.group == "obc"

    def __call__(self, ctx) -> np.ndarray:
        return self.fn(ctx)


def _a(ctx, col: str) -> np.ndarray:
    return ctx.units[col].to_numpy(dtype=np.int64)


def share(group: str) -> KeySpec:
    """The group's share of the unit's population (ST, SC from the units; OBC given or assumed)."""
    def key(ctx) -> Ratio:
        pop = _a(ctx, "pop")
        if group == "obc":
            return Ratio(ctx.obc.num, ctx.obc.den)
        return Ratio(_a(ctx, group), pop)
    return KeySpec(KeyKind(f"share_{group}"), key)


def _outside_num(ctx) -> tuple[np.ndarray, int]:
    pop, sc, st = _a(ctx, "pop"), _a(ctx, "sc"), _a(ctx, "st")
    if ctx.obc.given:
        return pop - sc - st - ctx.obc.num, 1
    s = ctx.obc.scale
    return pop * (s - ctx.obc.share_num) - (sc + st) * s, s


def _outside_people(ctx) -> Ratio:
    """The number of people outside SC/ST/OBC (exact; a fraction of a person when OBC is assumed)."""
    num, scale = _outside_num(ctx)
    return Ratio(num, None, "people", scale=scale)


def _outside_share(ctx) -> Ratio:
    """The share of the unit's population outside SC/ST/OBC."""
    num, scale = _outside_num(ctx)
    return Ratio(num, _a(ctx, "pop") * scale)


def _women_share(ctx) -> Ratio:
    """The share of women in the unit's population; a unit without a female figure takes the share of women
    among the units that have one (said in the result)."""
    pop = _a(ctx, "pop")
    women = ctx.units["women"]
    known = women.notna().to_numpy()
    w = women.fillna(0).to_numpy(dtype=np.int64)
    if known.all():
        return Ratio(w, pop)
    fill = Fraction(int(w[known].sum()), int(pop[known].sum())) if known.any() else Fraction(1, 2)
    scale = fill.denominator
    return Ratio(np.where(known, w * scale, fill.numerator * pop), pop * scale)


def two_persons(group: str) -> Eligibility:
    """KP item 2: a unit with fewer than two persons of the group may not take it."""
    def eligible(ctx) -> np.ndarray:
        if group == "obc":
            if ctx.obc.given:
                return ctx.obc.num >= 2
            return _a(ctx, "pop") * ctx.obc.share_num >= 2 * ctx.obc.scale
        return _a(ctx, group) >= 2
    return Eligibility(group, eligible)


outside_people = KeySpec(KeyKind.OUTSIDE_PEOPLE, _outside_people)
outside_share = KeySpec(KeyKind.OUTSIDE_SHARE, _outside_share)
women_share = KeySpec(KeyKind.WOMEN_SHARE, _women_share)


def category_population(ctx, group: str) -> np.ndarray:
    """The group's population per unit as exact numbers (object array; Fractions where OBC is assumed)."""
    pop, sc, st = _a(ctx, "pop"), _a(ctx, "sc"), _a(ctx, "st")
    if group in ("sc", "st"):
        return np.array([Fraction(int(v)) for v in (sc if group == "sc" else st)], dtype=object)
    if ctx.obc.given:
        obc = [Fraction(int(v)) for v in ctx.obc.num]
    else:
        obc = [Fraction(int(p)) * Fraction(ctx.obc.share_num, ctx.obc.scale) for p in pop]
    if group == "obc":
        return np.array(obc, dtype=object)
    return np.array([Fraction(int(p)) - int(a) - int(b) - o for p, a, b, o in zip(pop, sc, st, obc)], dtype=object)
