"""Orders that depend on data that is not public: could SOME figures make a published choice lawful?

OBC population by district, block or body is not public. Two passes of the panchayat rules rank by it: the OBC
pass (descending OBC share) and the women's pass (descending population outside SC/ST/OBC, or its share). A
published list makes statements about that unknown order: every OBC unit of a tier ranks at least as high as
every unit of the same tier left without OBC; every women's unit at least as high as every unit of its tier left
unreserved; and so on. This module decides, exactly (Fractions), whether some OBC figures satisfy all those
statements at once, and within which bounds each unit's OBC figure must then lie.

The unknown of unit ``i`` is its OBC population ``y_i`` with ``0 <= y_i <= a_i = pop_i - sc_i - st_i``. A key is
one of

- ``obc_share``: ``y / pop`` (increasing in ``y``);
- ``outside_people``: ``a - y`` (decreasing);
- ``outside_share``: ``(a - y) / pop`` (decreasing).

A statement is a group ``(kind, above, below)``: every unit of ``above`` has a key at least that of every unit
of ``below`` (ties count as lawful: a lot may break them). Such statements are monotone two-variable
constraints, so bound propagation to a fixed point is exact: the feasible set is a lattice whose least and
greatest points are the propagated bounds, and it is empty exactly when some lower bound passes its upper bound.
Optionally the figures must also add up to a known total (the State's OBC share of the population of the units,
``total``): feasible then iff the sum of the lower bounds <= total <= the sum of the upper bounds (the feasible set
is convex and a lattice, so every sum between its least and greatest points is reached).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["KINDS", "Statement", "Bounds", "solve", "key_at"]

KINDS = ("obc_share", "outside_people", "outside_share")


@dataclass(frozen=True)
class Statement:
    """Every unit (position) of ``above`` has a ``kind`` key at least that of every unit of ``below``."""

    kind: str
    above: tuple[int, ...]
    below: tuple[int, ...]
    tag: object = None              # the caller's label (pass, parent, tier)


@dataclass
class Bounds:
    """The result: ``feasible``; per unit the least and greatest OBC population ``lo``/``hi`` (persons, exact)
    compatible with every statement; ``empty``: units whose bounds crossed; ``total_ok``: the known total (if
    any) lies between the sums of the bounds; ``rounds`` of propagation."""

    feasible: bool
    lo: dict = field(default_factory=dict)
    hi: dict = field(default_factory=dict)
    empty: list = field(default_factory=list)
    total_ok: bool = True
    sum_lo: Fraction = Fraction(0)
    sum_hi: Fraction = Fraction(0)
    converged: bool = True

    def share(self, i: int, pop: int) -> tuple[Fraction, Fraction]:
        """The bounds of unit ``i`` as shares of its population."""
        return Fraction(self.lo[i], pop), Fraction(self.hi[i], pop)


def key_at(kind: str, y, a: int, pop: int) -> Fraction:
    """The key of a unit whose OBC population is ``y``."""
    y = Fraction(y)
    if kind == "obc_share":
        return y / pop
    if kind == "outside_people":
        return a - y
    if kind == "outside_share":
        return (a - y) / pop
    raise ValueError(kind)


def _y_of(kind: str, k: Fraction, a: int, pop: int) -> Fraction:
    """The OBC population at which the key equals ``k`` (the inverse of :func:`key_at`)."""
    if kind == "obc_share":
        return k * pop
    if kind == "outside_people":
        return a - k
    return a - k * pop


def solve(statements, a: dict, pop: dict, total: Fraction | None = None, max_rounds: int | None = None) -> Bounds:
    """Propagate the statements over the unknowns ``a`` (unit -> the most OBC people it can have) and ``pop``
    (unit -> the population its shares are taken of). Units not in ``a`` are not unknowns: a statement may only
    name units of ``a``."""
    lo = {i: Fraction(0) for i in a}
    hi = {i: Fraction(int(a[i])) for i in a}
    statements = [s for s in statements if s.above and s.below]
    rounds = max_rounds if max_rounds is not None else 4 * len(statements) + 8
    converged = False
    for _ in range(rounds):
        changed = False
        for s in statements:
            inc = s.kind == "obc_share"

            def k_lo(i):
                return key_at(s.kind, lo[i] if inc else hi[i], a[i], pop[i])

            def k_hi(i):
                return key_at(s.kind, hi[i] if inc else lo[i], a[i], pop[i])

            floor = max(k_lo(j) for j in s.below)        # every unit above must reach it
            ceiling = min(k_hi(i) for i in s.above)     # every unit below must stay under it
            for i in s.above:
                y = _y_of(s.kind, floor, a[i], pop[i])
                if inc and y > lo[i]:
                    lo[i], changed = y, True
                elif not inc and y < hi[i]:
                    hi[i], changed = y, True
            for j in s.below:
                y = _y_of(s.kind, ceiling, a[j], pop[j])
                if inc and y < hi[j]:
                    hi[j], changed = y, True
                elif not inc and y > lo[j]:
                    lo[j], changed = y, True
        if not changed:
            converged = True
            break
    empty = sorted(i for i in a if lo[i] > hi[i])
    sum_lo, sum_hi = sum(lo.values(), Fraction(0)), sum(hi.values(), Fraction(0))
    total_ok = total is None or (not empty and sum_lo <= total <= sum_hi)
    return Bounds(feasible=converged and not empty and total_ok, lo=lo, hi=hi, empty=empty, total_ok=total_ok,
                  sum_lo=sum_lo, sum_hi=sum_hi, converged=converged)
