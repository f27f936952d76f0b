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
of ``below`` (ties count as lawful: a lot may break them; ``strict=True`` refuses ties). Such statements are monotone two-variable
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
        """The bounds of unit ``i`` as shares of its population (0 for a unit without population)."""
        if not pop:
            return Fraction(0), Fraction(0)
        return Fraction(self.lo[i], pop), Fraction(self.hi[i], pop)


def key_at(kind: str, y, a: int, pop: int) -> Fraction:
    """The key of a unit whose OBC population is ``y``. A share of a unit without population (a body newer than
    the Census) is 0, as the engine ranks it (:mod:`reservation.law.ranking`)."""
    y = Fraction(y)
    if kind == "outside_people":
        return a - y
    if kind not in ("obc_share", "outside_share"):
        raise ValueError(kind)
    if not pop:
        return Fraction(0)
    return y / pop if kind == "obc_share" else (a - y) / pop


def _y_of(kind: str, k: Fraction, a: int, pop: int) -> Fraction:
    """The OBC population at which the key equals ``k`` (the inverse of :func:`key_at`)."""
    if kind == "obc_share":
        return k * pop
    if kind == "outside_people":
        return a - k
    return a - k * pop


def solve(statements, a: dict, pop: dict, total: Fraction | None = None, max_rounds: int | None = None,
          strict: bool = False) -> Bounds:
    """Propagate the statements over the unknowns ``a`` (unit -> the most OBC people it can have) and ``pop``
    (unit -> the population its shares are taken of). Units not in ``a`` are not unknowns: a statement may only
    name units of ``a``. ``strict``: "above" means strictly above (no ties): a bound is then a value and whether
    it is attained (``lo_strict``/``hi_strict`` in the result)."""
    lo = {i: Fraction(0) for i in a}
    hi = {i: Fraction(int(a[i])) for i in a}
    los = {i: False for i in a}          # the lower bound is not attained (strict)
    his = {i: False for i in a}
    statements = [s for s in statements if s.above and s.below]
    rounds = max_rounds if max_rounds is not None else 4 * len(statements) + 8
    converged = False

    def tighter_lo(i, y, st):
        if y > lo[i] or (y == lo[i] and st and not los[i]):
            lo[i], los[i] = y, st
            return True
        return False

    def tighter_hi(i, y, st):
        if y < hi[i] or (y == hi[i] and st and not his[i]):
            hi[i], his[i] = y, st
            return True
        return False

    for _ in range(rounds):
        changed = False
        for s in statements:
            inc = s.kind == "obc_share"
            # the key's lower and upper bound of a unit, with whether it is attained
            def k_lo(i):
                return (key_at(s.kind, lo[i], a[i], pop[i]), los[i]) if inc else \
                    (key_at(s.kind, hi[i], a[i], pop[i]), his[i])

            def k_hi(i):
                return (key_at(s.kind, hi[i], a[i], pop[i]), his[i]) if inc else \
                    (key_at(s.kind, lo[i], a[i], pop[i]), los[i])

            fl = max((k_lo(j) for j in s.below), key=lambda t: (t[0], t[1]))   # every unit above must reach it
            ce = min((k_hi(i) for i in s.above), key=lambda t: (t[0], not t[1]))  # every unit below stays under
            f_strict, c_strict = fl[1] or strict, ce[1] or strict
            for i in s.above:
                y = _y_of(s.kind, fl[0], a[i], pop[i])
                changed |= tighter_lo(i, y, f_strict) if inc else tighter_hi(i, y, f_strict)
            for j in s.below:
                y = _y_of(s.kind, ce[0], a[j], pop[j])
                changed |= tighter_hi(j, y, c_strict) if inc else tighter_lo(j, y, c_strict)
        if not changed:
            converged = True
            break
    empty = set(i for i in a if lo[i] > hi[i] or (lo[i] == hi[i] and (los[i] or his[i])))
    if strict:
        empty |= _strict_cycles(statements)
    empty = sorted(empty)
    sum_lo, sum_hi = sum(lo.values(), Fraction(0)), sum(hi.values(), Fraction(0))
    total_ok = total is None or (not empty and sum_lo <= total <= sum_hi)
    return Bounds(feasible=converged and not empty and total_ok, lo=lo, hi=hi, empty=empty, total_ok=total_ok,
                  sum_lo=sum_lo, sum_hi=sum_hi, converged=converged)


def _strict_cycles(statements) -> set:
    """Units on a cycle of statements of one kind ("u above v above ... above u"): with strict statements no
    figures satisfy a cycle of one key. Tarjan's algorithm on the graph below -> statement -> above, per kind."""
    out: set = set()
    for kind in KINDS:
        edges: dict = {}
        for k, s in enumerate(statements):
            if s.kind != kind:
                continue
            node = ("s", k)
            edges.setdefault(node, []).extend(("u", i) for i in s.above)
            for j in s.below:
                edges.setdefault(("u", j), []).append(node)
        index: dict = {}
        low: dict = {}
        on: set = set()
        stack: list = []
        counter = [0]
        for root in list(edges):
            if root in index:
                continue
            work = [(root, iter(edges.get(root, ())))]
            index[root] = low[root] = counter[0]
            counter[0] += 1
            stack.append(root)
            on.add(root)
            while work:
                v, it = work[-1]
                nxt = next(it, None)
                if nxt is not None:
                    if nxt not in index:
                        index[nxt] = low[nxt] = counter[0]
                        counter[0] += 1
                        stack.append(nxt)
                        on.add(nxt)
                        work.append((nxt, iter(edges.get(nxt, ()))))
                    elif nxt in on:
                        low[v] = min(low[v], index[nxt])
                    continue
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        out |= {x[1] for x in comp if x[0] == "u"}
    return out
