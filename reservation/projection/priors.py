"""The stated prior of the unknown OBC population, and exact sampling under order constraints.

District, block and body OBC populations are not public (the State share is: 53.33 % of the rural population, as
quoted by the GO 2021). A projection samples them. The prior, per unit ``i`` with population ``pop_i`` and
``room_i = pop_i - sc_i - st_i`` people outside SC and ST:

    theta_i ~ Beta(a, b) truncated to [0, room_i / pop_i],   obc_i = floor(theta_i * pop_i)  (persons, an int)

with the same ``a, b`` for every unit: mean = the State share (option ``obc_state_share``), standard deviation
``sd``. The truncation is the data check every input passes (``sc + st + obc <= pop``); with the default spread
it bites only in the districts with the highest SC shares. Units are independent a priori. The Beta's CDF is
tabulated once on 2**16 equal steps of [0, 1] (trapezoid rule on the density, normalised to 1) and read
between steps linearly: that tabulated distribution *is* the prior (its CDF differs from the Beta's by less
than 1e-8 for the spreads allowed), and sampling from it is exact up to float rounding.

**Why a spread of 7.5 percentage points (the default of ``obc_sd``).** No district, block or body OBC share is
public for the rural population. The only published OBC shares below State level are the 2023 Dedicated
Commission's urban figures by region: Purvanchal 42.19 %, central UP 27.55 %, western UP 37.53 %
(``data/statewide_figures.csv``); their sample standard deviation is 7.48 points. Districts differ at least as
much as the regions they make up, so 7.5 is a floor more than an estimate: it is an assumption, stated in every
result, and an option (``--obc-sd``). The backtest (``benchmarks/backtest_projection.py``) prints how the
scores move with it.

**Constraints.** A published past list reveals part of the unknown order (:mod:`reservation.projection.project` derives
it): "every unit of ``upper`` comes before every unit of ``lower`` in a pass's order" (descending key, equal
keys by the pass's tie order). Each key is a monotone function of one unit's OBC persons (the OBC share rises
with it; the population or share outside SC/ST/OBC falls), so such a constraint bounds each unit's OBC by the
OBC of the units on the other side: given the others, the admissible values of one unit form an interval of
integers, computed exactly (int64 arithmetic). :class:`ConstrainedSampler` is a Gibbs sampler on the prior
restricted to the admissible set: units are updated in blocks with no constraint between two members of a block
(a greedy colouring), each from the prior truncated to its interval. Rejection sampling is hopeless there: the
prior probability of reproducing the 20 OBC districts of a Zila Panchayat list is of the order of one in
10**17.

Where the division rule offers a second way to the same list (:class:`Alternative`: a unit whose division would
have been wholly reserved is freed, and the next unit takes the post), the admissible set is the union of the
two ways. The sampler then proposes each block from its interval under the constraints without the freed unit's
pairs, and keeps the proposal only if the whole point is admissible (an exact check): Metropolis within Gibbs,
whose acceptance rate the result reports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..base.errors import InputError
from ..law.words import word

__all__ = ["ObcPrior", "OrderConstraint", "Alternative", "ConstrainedSampler", "DEFAULT_OBC_SD", "KEY_KINDS"]

#: Standard deviation of the prior of a unit's OBC share, in percentage points (see the module docstring).
from .defaults import DEFAULT_OBC_SD  # noqa: E402
_GRID = 1 << 16
#: How a pass's key depends on a unit's OBC persons ``x`` (``room = pop - sc - st``): the OBC share ``x / pop``,
#: the people outside SC/ST/OBC ``room - x``, or their share ``(room - x) / pop``.
KEY_KINDS = ("share", "people", "outside_share")


@dataclass(frozen=True)
class ObcPrior:
    """Beta prior of a unit's OBC share with mean ``mean`` and standard deviation ``sd`` (both Fractions of 1)."""

    mean: Fraction
    sd: Fraction

    def __post_init__(self):
        m, s = Fraction(self.mean), Fraction(self.sd)
        if not 0 < m < 1:
            raise InputError(f"the OBC State share {float(m) * 100:g} % must lie strictly between 0 and 100",
                             option="obc_state_share")
        top = math.sqrt(float(m * (1 - m)) / (1 + 1 / float(min(m, 1 - m))))
        if not 0 < s < Fraction(top):
            raise InputError(f"--obc-sd {float(s) * 100:g}: the spread must be above 0 and below "
                             f"{math.floor(top * 1000) / 10:g} percentage points (a unimodal Beta around "
                             f"{float(m) * 100:g} %)", option="--obc-sd")

    @property
    def k(self) -> float:
        m, s = float(self.mean), float(self.sd)
        return m * (1 - m) / (s * s) - 1

    @property
    def a(self) -> float:
        return float(self.mean) * self.k

    @property
    def b(self) -> float:
        return (1 - float(self.mean)) * self.k

    def describe(self, lang: str = "en") -> str:
        """The prior in words (:mod:`reservation.law.words`, ``project.prior``)."""
        return word("project.prior", lang, a=f"{self.a:.4f}", b=f"{self.b:.4f}", mean=f"{float(self.mean) * 100:.4g}",
                    sd=f"{float(self.sd) * 100:.4g}")

    @property
    def table(self) -> tuple[np.ndarray, np.ndarray]:
        return _table(float(self.mean), float(self.sd))

    def cdf(self, x) -> np.ndarray:
        grid, cdf = self.table
        return np.interp(np.clip(np.asarray(x, dtype=float), 0.0, 1.0), grid, cdf)

    def ppf(self, u) -> np.ndarray:
        """The inverse of :meth:`cdf` (linear within a step; flat stretches at the ends give their left end)."""
        grid, cdf = self.table
        u = np.asarray(u, dtype=float)
        k = np.clip(np.searchsorted(cdf, u, side="right") - 1, 0, len(grid) - 2)
        lo, hi = cdf[k], cdf[k + 1]
        step = hi - lo
        t = np.where(step > 0, (u - lo) / np.where(step > 0, step, 1.0), 0.0)
        return grid[k] + np.clip(t, 0.0, 1.0) * (grid[k + 1] - grid[k])

    def sample_persons(self, rng: np.random.Generator, pop, room, lo=None, hi=None) -> np.ndarray:
        """OBC persons for units with ``pop`` people and ``room`` outside SC/ST, from the prior restricted to the
        integers ``lo..hi`` (default ``0..room``): one uniform draw per unit, in the order given."""
        pop = np.asarray(pop, dtype=np.int64)
        room = np.asarray(room, dtype=np.int64)
        lo = np.zeros_like(pop) if lo is None else np.asarray(lo, dtype=np.int64)
        hi = room.copy() if hi is None else np.minimum(np.asarray(hi, dtype=np.int64), room)
        safe = np.where(pop > 0, pop, 1).astype(float)
        x_lo = np.where(pop > 0, lo / safe, 0.0)
        x_hi = np.where(pop > 0, np.minimum((hi + 1) / safe, room / safe), 0.0)
        c_lo, c_hi = self.cdf(x_lo), self.cdf(x_hi)
        u = rng.random(len(pop))
        x = self.ppf(c_lo + u * (c_hi - c_lo))
        out = np.floor(x * pop).astype(np.int64)
        return np.where(pop > 0, np.clip(out, lo, hi), 0)


_TABLES: dict = {}


def _table(mean: float, sd: float) -> tuple[np.ndarray, np.ndarray]:
    key = (mean, sd)
    if key not in _TABLES:
        k = mean * (1 - mean) / (sd * sd) - 1
        a, b = mean * k, (1 - mean) * k
        grid = np.linspace(0.0, 1.0, _GRID + 1)
        inner = grid[1:-1]
        logpdf = (a - 1) * np.log(inner) + (b - 1) * np.log1p(-inner)
        pdf = np.zeros(_GRID + 1)
        pdf[1:-1] = np.exp(logpdf - logpdf.max())
        cdf = np.concatenate([[0.0], np.cumsum((pdf[1:] + pdf[:-1]) / 2)])
        cdf /= cdf[-1]
        _TABLES[key] = (grid, cdf)
    return _TABLES[key]


@dataclass(frozen=True)
class OrderConstraint:
    """Every unit of ``upper`` comes before every unit of ``lower`` in a pass's order: larger key first, equal
    keys by ascending ``tie`` (the pass's tie order: lot, then the tie-break rule, then the code). ``kind`` is
    one of :data:`KEY_KINDS`; ``what`` says where it comes from (for messages)."""

    kind: str
    upper: np.ndarray
    lower: np.ndarray
    tie: np.ndarray
    what: str = ""


@dataclass(frozen=True)
class Alternative:
    """A second way the rules can give a past list: in the pass of constraint ``post`` (whose ``lower`` holds
    ``victim``), the victim comes before the last unit the pass took, so the division rule frees it (its division
    ``division``: positions) and the next unit takes the post. Admissible when the constraints hold without the
    victim's pairs in the constraints ``drop`` (``post`` and, when the freed unit leaves the later passes, theirs),
    the victim comes before the weakest unit of ``post.upper`` and that unit is not in the victim's division."""

    victim: int
    post: int
    division: np.ndarray
    drop: tuple
    what: str = ""


def _ceil_div(a, b):
    return -((-a) // b)


def _precedes(kind, xa, xb, pa, pb, ra, rb, ta, tb):
    """Whether a unit (a) comes before another (b) in a pass ordered by a key of ``kind`` (arrays broadcast)."""
    e = (ta > tb).astype(np.int64)
    if kind == "share":
        return xa * pb >= xb * pa + e
    if kind == "people":
        return ra - xa >= rb - xb + e
    return (ra - xa) * pb >= (rb - xb) * pa + e


def _without(c: OrderConstraint, v: int) -> OrderConstraint:
    return OrderConstraint(c.kind, c.upper[c.upper != v], c.lower[c.lower != v], c.tie, c.what)


@dataclass
class ConstrainedSampler:
    """Gibbs sampler of OBC persons from ``prior`` restricted to the ``constraints`` (see the module docstring).

    ``pop``, ``room``: per unit (ints). Units in no constraint are drawn from the prior directly."""

    prior: ObcPrior
    pop: np.ndarray
    room: np.ndarray
    constraints: list
    alternatives: list = field(default_factory=list)
    blocks: list = field(init=False)
    free: np.ndarray = field(init=False)
    proposals: int = field(init=False, default=0)
    accepted: int = field(init=False, default=0)

    def __post_init__(self):
        self.pop = np.asarray(self.pop, dtype=np.int64)
        self.room = np.asarray(self.room, dtype=np.int64)
        n = len(self.pop)
        self.strict = list(self.constraints)
        relaxed = list(self.strict)
        self._branches = []
        for a in self.alternatives:
            for i in a.drop:
                relaxed[i] = _without(relaxed[i], a.victim)
            self._branches.append((a, [(_without(c, a.victim) if i in a.drop else c)
                                       for i, c in enumerate(self.strict)]))
        self.constraints = relaxed
        involved = np.zeros(n, dtype=bool)
        for c in self.strict:
            if c.kind not in KEY_KINDS:
                raise ValueError(f"unknown key kind {c.kind!r}")
            involved[c.upper] = True
            involved[c.lower] = True
        nbrs: dict[int, set] = {int(u): set() for u in np.flatnonzero(involved)}
        for c in self.constraints:
            for u in c.upper.tolist():
                nbrs.setdefault(u, set()).update(c.lower.tolist())
            for v in c.lower.tolist():
                nbrs.setdefault(v, set()).update(c.upper.tolist())
        empty = np.flatnonzero(involved & (self.pop <= 0))
        if len(empty):
            e = ValueError(f"{len(empty)} constrained unit(s) have no population")
            e.units = empty                     # positions: the caller names them
            raise e
        colour: dict[int, int] = {}
        for u in sorted(nbrs):
            taken = {colour[v] for v in nbrs[u] if v in colour}
            colour[u] = next(k for k in range(len(taken) + 1) if k not in taken)
        self.blocks = [np.array(sorted(u for u, k in colour.items() if k == c), dtype=np.int64)
                       for c in range(max(colour.values()) + 1)] if colour else []
        self.free = np.flatnonzero(~involved)

    # -- the admissible interval of some units, the others fixed ------------------------------------------------
    def bounds(self, x: np.ndarray, units: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Lowest and highest admissible OBC persons of ``units`` (no two of them in one constraint), the other
        units at ``x``."""
        lo = np.zeros(len(units), dtype=np.int64)
        hi = self.room[units].copy()
        where = {int(u): i for i, u in enumerate(units)}
        pop, room = self.pop, self.room
        for c in self.constraints:
            for side, other, upper in ((c.upper, c.lower, True), (c.lower, c.upper, False)):
                mine = [u for u in side.tolist() if u in where]
                if not mine or not len(other):
                    continue
                i = np.array(mine, dtype=np.int64)
                j = other
                at = np.array([where[u] for u in mine], dtype=np.int64)
                pi, pj = pop[i][:, None], pop[j][None, :]
                ri, rj = room[i][:, None], room[j][None, :]
                xj = x[j][None, :]
                if upper:      # i before j: e = 0 if i's tie comes first, else the key must be strictly larger
                    e = (c.tie[i][:, None] > c.tie[j][None, :]).astype(np.int64)
                    if c.kind == "share":            # x_i * p_j >= x_j * p_i + e
                        lo[at] = np.maximum(lo[at], _ceil_div(xj * pi + e, pj).max(axis=1))
                    elif c.kind == "people":         # r_i - x_i >= r_j - x_j + e
                        hi[at] = np.minimum(hi[at], (ri - rj + xj - e).min(axis=1))
                    else:                            # (r_i - x_i) p_j >= (r_j - x_j) p_i + e
                        hi[at] = np.minimum(hi[at], (ri - _ceil_div((rj - xj) * pi + e, pj)).min(axis=1))
                else:          # j before i
                    e = (c.tie[j][None, :] > c.tie[i][:, None]).astype(np.int64)
                    if c.kind == "share":            # x_j * p_i >= x_i * p_j + e
                        hi[at] = np.minimum(hi[at], ((xj * pi - e) // pj).min(axis=1))
                    elif c.kind == "people":         # r_j - x_j >= r_i - x_i + e
                        lo[at] = np.maximum(lo[at], (ri - rj + xj + e).max(axis=1))
                    else:                            # (r_j - x_j) p_i >= (r_i - x_i) p_j + e
                        lo[at] = np.maximum(lo[at], (ri - ((rj - xj) * pi - e) // pj).max(axis=1))
        return lo, hi

    def _holds(self, x: np.ndarray, constraints) -> bool:
        pop, room = self.pop, self.room
        for c in constraints:
            if not len(c.upper) or not len(c.lower):
                continue
            u, l = c.upper[:, None], c.lower[None, :]
            if not _precedes(c.kind, x[u], x[l], pop[u], pop[l], room[u], room[l], c.tie[u], c.tie[l]).all():
                return False
        return True

    def satisfied(self, x: np.ndarray) -> bool:
        """Whether ``x`` is admissible (exact): every constraint holds, or one alternative's do."""
        x = np.asarray(x, dtype=np.int64)
        if (x < 0).any() or (x > self.room).any():
            return False
        if self._holds(x, self.strict):
            return True
        pop, room = self.pop, self.room
        for a, cons in self._branches:
            c = self.strict[a.post]
            u = c.upper
            # the weakest unit the pass took: every other taken unit comes before it
            before = _precedes(c.kind, x[u][:, None], x[u][None, :], pop[u][:, None], pop[u][None, :],
                               room[u][:, None], room[u][None, :], c.tie[u][:, None], c.tie[u][None, :])
            last = int(u[before.sum(axis=0).argmax()])
            v = a.victim
            if (last not in set(a.division.tolist())
                    and bool(_precedes(c.kind, x[v], x[last], pop[v], pop[last], room[v], room[last], c.tie[v],
                                       c.tie[last]))
                    and self._holds(x, cons)):
                return True
        return False

    def greatest(self, limit: int = 100_000) -> np.ndarray:
        """The greatest admissible point (every unit at its highest OBC the constraints allow), or a
        ValueError naming a constraint that no OBC figures can meet. Each step lowers a unit to the largest value
        consistent with the others, which keeps every admissible point below the current one."""
        x = self.room.copy()
        pop, room = self.pop, self.room
        for _ in range(limit):
            before = x.copy()
            for c in self.strict:
                u, l = c.upper, c.lower
                if not len(u) or not len(l):
                    continue
                pu, pl = pop[u][:, None], pop[l][None, :]
                ru, rl = room[u][:, None], room[l][None, :]
                e = (c.tie[u][:, None] > c.tie[l][None, :]).astype(np.int64)
                if c.kind == "share":        # lower l: x_l <= (x_u p_l - e) / p_u
                    x[l] = np.minimum(x[l], ((x[u][:, None] * pl - e) // pu).min(axis=0))
                elif c.kind == "people":     # lower u: x_u <= r_u - r_l + x_l - e
                    x[u] = np.minimum(x[u], (ru - rl + x[l][None, :] - e).min(axis=1))
                else:
                    x[u] = np.minimum(x[u], (ru - _ceil_div((rl - x[l][None, :]) * pu + e, pl)).min(axis=1))
                if (x < 0).any():
                    bad = c.what or c.kind
                    raise ValueError(f"no OBC figures meet the constraint: {bad}")
            if np.array_equal(before, x):
                return x
        raise ValueError("the constraints did not settle (no admissible point found)")

    def sweep(self, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One Gibbs sweep: every block in turn from the prior restricted to its interval; the free units from the
        prior. Returns a new array."""
        x = np.array(x, dtype=np.int64)
        for b in self.blocks:
            lo, hi = self.bounds(x, b)
            if (lo > hi).any():
                raise AssertionError("the current point left the admissible set")
            new = self.prior.sample_persons(rng, self.pop[b], self.room[b], lo, hi)
            if self._branches:              # Metropolis: the proposal is kept only if admissible
                self.proposals += 1
                y = x.copy()
                y[b] = new
                if self.satisfied(y):
                    self.accepted += 1
                    x = y
            else:
                x[b] = new
        if len(self.free):
            x[self.free] = self.prior.sample_persons(rng, self.pop[self.free], self.room[self.free])
        return x
