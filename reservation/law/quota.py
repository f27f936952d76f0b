"""How many posts each category gets in one counting unit (the State, a district, a block, a division).

The arithmetic of the GO 2021, ZP chair computation para 1 (and the identical KP para 1):

- SC and ST: ``posts x population share``, "if the remainder is not less than half the divisor the quotient
  is increased by one" (half-up; ambiguity A2 lets floor/ceil be tried).
- OBC: the same, but "at most 27 per cent ... only the integer part of the quotient is taken" (floor of
  27 % of the posts; ambiguity A3 lets half-up be tried).
- Women: "not less than one-third" of each reserved category and of all posts, "if the dividend is not
  wholly divisible ... the quotient is increased by 1" (ceil). General women = all women minus category
  women (A5 reading a; reading b takes one-third of the posts left unreserved).

Everything is Fraction/int. The returned table keeps the arithmetic as text so that a notebook can show it. One
counting unit in plain Python: :mod:`reservation.law.arithmetic`; many at once (integer arrays): :func:`counts_by_parent`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from .arithmetic import COUNT_COLUMNS, QuotaRules, count_rows, fmt_fraction, render_rows

__all__ = ["QuotaRules", "category_counts", "counts_by_parent", "COUNT_COLUMNS", "fmt_fraction", "OverReserved",
           "counts_table"]

def _round_arr(name: str, num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Exact rounding of ``num / den`` on integer arrays (den > 0): half-up is ``2*remainder >= divisor``."""
    if name == "half_up":
        return (2 * num + den) // (2 * den)
    if name == "floor":
        return num // den
    if name == "ceil":
        return -((-num) // den)
    raise ValueError(f"unknown rounding {name!r}")


def _ints(x) -> np.ndarray:
    a = np.asarray(x)
    if a.dtype == object:           # Python ints beyond int64 stay exact
        return a
    return a.astype(np.int64)


class OverReserved(ValueError):
    """The ST, SC and OBC offices of counting unit ``index`` (``reserved``) exceed its ``posts``."""

    def __init__(self, index: int, reserved: int, posts: int):
        self.index, self.reserved, self.posts = int(index), int(reserved), int(posts)
        super().__init__(f"reserved {self.reserved} exceeds {self.posts} posts (unit {self.index})")


def counts_by_parent(posts, sc_num, sc_den, st_num, st_den, obc_num, obc_den,
                     rules: QuotaRules = QuotaRules()) -> dict[str, np.ndarray]:
    """The counts of :func:`category_counts` for many counting units at once (integer arrays in, out).

    Each share is ``num / den`` (integers, den > 0). Returns ``{code: array}`` for the eight codes, plus
    ``"SC_all"``, ``"ST_all"``, ``"OBC_all"`` (group totals with their women) and ``"OBC_prop"``/``"OBC_cap"``.
    Raises :class:`OverReserved` (a ValueError) when the reserved posts of a unit exceed its posts.
    """
    n = _ints(posts)
    out = {}
    for g, num, den in (("ST", st_num, st_den), ("SC", sc_num, sc_den)):
        out[f"{g}_all"] = _round_arr(rules.sc_st_rounding, n * _ints(num), _ints(den) + 0 * n)
    cap = rules.obc_cap_percent
    out["OBC_prop"] = _round_arr(rules.obc_rounding, n * _ints(obc_num), _ints(obc_den) + 0 * n)
    out["OBC_cap"] = _round_arr(rules.obc_cap_rounding, n * cap.numerator, cap.denominator * 100 + 0 * n)
    out["OBC_all"] = np.minimum(out["OBC_prop"], out["OBC_cap"])
    wf = rules.women_fraction
    cat_w = 0
    for g in ("ST", "SC", "OBC"):
        w = _round_arr(rules.women_rounding, out[f"{g}_all"] * wf.numerator, wf.denominator + 0 * n)
        out[f"{g}_W"] = w
        out[g] = out[f"{g}_all"] - w
        cat_w = cat_w + w
    reserved = out["ST_all"] + out["SC_all"] + out["OBC_all"]
    if (reserved > n).any():
        i = int(np.flatnonzero(reserved > n)[0])
        raise OverReserved(i, reserved[i], n[i])
    if rules.general_women == "total_minus_category":
        total_w = _round_arr(rules.women_total_rounding, n * wf.numerator, wf.denominator + 0 * n)
        out["W"] = np.maximum(total_w - cat_w, 0)
    elif rules.general_women == "third_of_rest":
        out["W"] = _round_arr(rules.women_total_rounding, (n - reserved) * wf.numerator, wf.denominator + 0 * n)
    else:
        raise ValueError(f"unknown general_women reading {rules.general_women!r}")
    out["UR"] = n - reserved - out["W"]
    return out


def category_counts(posts: int, shares: dict[str, Fraction], rules: QuotaRules = QuotaRules(),
                    lang: str = "en") -> pd.DataFrame:
    """Counts per category for ``posts`` offices given each group's population ``shares`` (Fractions): the rows
    of :func:`reservation.law.arithmetic.count_rows` as a DataFrame (:data:`COUNT_COLUMNS`)."""
    return pd.DataFrame(count_rows(posts, shares, rules, lang), columns=COUNT_COLUMNS)


def counts_table(parts: list[tuple], lang: str = "en") -> pd.DataFrame:
    """The rows of :func:`reservation.law.arithmetic.count_parts` (perhaps restated) as the counts table, its
    words in ``lang``."""
    return pd.DataFrame(render_rows(parts, lang), columns=COUNT_COLUMNS)
