"""Descending order of a category's share, exact, as integers.

The GO 2021 allots "in descending order of the proportion" of a category's population. Shares are
exact rationals; :func:`dense_rank_desc` turns them into integer ranks (0 = the largest share, equal shares
equal rank) that the engine sorts on together with the rotation tier and the tie-break. Equal shares are ties
that no source settles (docs/ambiguities.md A14): the engine breaks them by a lot supplied as input or by the documented
rule of the ``tie_break`` option, and says so in the row.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["Ratio", "dense_rank_desc", "order_key", "FLOAT_EXACT_DEN", "INT_EXACT_DEN"]

#: Exactness bound of the float path of :func:`dense_rank_desc` (denominators up to 2**24, values in [0, 1]).
FLOAT_EXACT_DEN = 1 << 24
#: Bound of the whole-number path of :func:`order_key`: ``num << 2*20`` fits in 63 bits for ``num <= 2**20``.
INT_EXACT_DEN = 1 << 20
#: The largest whole number float64 holds exactly (with every smaller one).
EXACT_INT = 1 << 53


@dataclass(frozen=True)
class Ratio:
    """A ranking key as integer arrays: ``num / den`` per unit (``den=None``: the key is ``num`` itself)."""

    num: np.ndarray
    den: np.ndarray | None = None
    kind: str = "share"            # "share" (shown as a percentage) or "people" (shown as a number)
    scale: int = 1                 # "people" keys are num / scale (an assumed OBC population has a fraction)


def dense_rank_desc(key) -> np.ndarray:
    """Dense rank of each unit's key, 0 = the largest, equal keys equal rank: an exact order as integers.

    - a :class:`Ratio` of whole numbers: exact integer comparison;
    - a :class:`Ratio` of shares with ``0 <= num <= den <= 2**24``: the float64 quotient is exact for order and
      equality (two different fractions with such denominators differ by at least ``2**-48``, while each
      quotient is rounded by at most ``2**-54``; equal fractions round to the same double);
    - any other :class:`Ratio` with ``|num|``, ``den`` up to ``2**53`` (``den`` 0 = the value 0): the float64
      quotient's dense rank where a check in lowest terms shows it exact (:func:`_checked_float_rank`);
    - anything else (a Series of Fractions, or a failed check): exact Python Fractions.
    """
    if isinstance(key, Ratio):
        num = np.asarray(key.num, dtype=np.int64)
        if key.den is None:
            return np.unique(-num, return_inverse=True)[1].astype(np.int64)
        den = np.asarray(key.den, dtype=np.int64)
        if len(num) == 0:
            return np.zeros(0, dtype=np.int64)
        if (den > 0).all() and den.max() <= FLOAT_EXACT_DEN and (num >= 0).all() and (num <= den).all():
            return np.unique(-(num / den), return_inverse=True)[1].astype(np.int64)
        checked = _checked_float_rank(num, den)
        if checked is not None:
            return checked
        values = [Fraction(int(a), int(b)) if b else Fraction(0) for a, b in zip(num, den)]
    else:
        values = [Fraction(v) for v in key]
    order = {v: i for i, v in enumerate(sorted(set(values), reverse=True))}
    return np.fromiter((order[v] for v in values), dtype=np.int64, count=len(values))




def _checked_float_rank(num: np.ndarray, den: np.ndarray) -> np.ndarray | None:
    """The dense rank of ``num / den`` (``den`` 0: the value 0, as the Fraction path reads it) from the float64
    quotients, checked to be exact; None where the check fails (then the caller takes the Fraction path).

    With ``|num|`` and ``den`` at most ``2**53`` (``den >= 0``) both convert to float64 exactly, and the quotient
    is the exact rational rounded to the nearest double; rounding is monotone, so a larger fraction never gets a
    smaller float: the float order can only merge different fractions into one value, never swap two. Each
    group of equal floats is therefore checked: every member's fraction in lowest terms (``gcd``) must be the
    same. If so, equal floats are equal fractions and different floats are ordered as their fractions, so the
    dense ranks are those of the fractions themselves."""
    if len(num) == 0 or (den < 0).any() or int(den.max()) > EXACT_INT or int(num.max()) > EXACT_INT \
            or int(num.min()) < -EXACT_INT:
        return None
    zero = den == 0
    n = np.where(zero, 0, num)
    d = np.where(zero, 1, den)
    rank = np.unique(-(n / d), return_inverse=True)[1].astype(np.int64).reshape(-1)
    g = np.gcd(n, d)
    rn, rd = n // g, d // g
    rep = np.empty(int(rank.max()) + 1, dtype=np.int64)
    rep[rank] = np.arange(len(rank))                    # one member of each group of equal floats
    rep = rep[rank]
    if (rn == rn[rep]).all() and (rd == rd[rep]).all():
        return rank
    return None


def order_key(key) -> np.ndarray:
    """A sort key per unit, ascending = descending share, exact for order and equality.

    Cheaper than :func:`dense_rank_desc` where exactness allows: whole numbers sort as they are; shares with
    denominators up to ``2**20`` become the whole numbers ``-floor(num * 2**k / den)`` with ``2**k`` at least the
    square of the largest denominator (two different fractions with such denominators differ by at least
    ``2**-k``, so their scaled floors differ, in the same order; equal fractions give equal floors); shares
    within the float bound sort by their (exact-for-order) float quotient; anything else gets its dense rank.
    """
    if isinstance(key, Ratio):
        num = np.asarray(key.num, dtype=np.int64)
        if key.den is None:
            return -num
        den = np.asarray(key.den, dtype=np.int64)
        if len(num) == 0:
            return -(num / 1)
        top = int(den.max())
        if int(den.min()) > 0 and int(num.min()) >= 0 and (num <= den).all():
            if top <= INT_EXACT_DEN:
                k = 2 * (top - 1).bit_length()
                return -((num << k) // den)
            if top <= FLOAT_EXACT_DEN:
                return -(num / den)
    return dense_rank_desc(key)
