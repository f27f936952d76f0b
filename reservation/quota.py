"""How many posts each category gets in one counting unit (the State, a district, a block, a division).

The arithmetic of the GO 2021 (seed b), ZP chair computation para 1 (and the identical KP para 1):

- SC and ST: ``posts x population share``, "if the remainder is not less than half the divisor the quotient
  is increased by one" (half-up; ambiguity A2 lets floor/ceil be tried).
- OBC: the same, but "at most 27 per cent ... only the integer part of the quotient is taken" (floor of
  27 % of the posts; ambiguity A3 lets half-up be tried).
- Women: "not less than one-third" of each reserved category and of all posts, "if the dividend is not
  wholly divisible ... the quotient is increased by 1" (ceil). General women = all women minus category
  women (A5 reading a; reading b takes one-third of the posts left unreserved).

Everything is Fraction/int. The returned table keeps the arithmetic as text so that a notebook can show it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from .categories import CODES
from .rounding import round_with

__all__ = ["QuotaRules", "category_counts", "counts_by_parent", "COUNT_COLUMNS", "fmt_fraction"]

COUNT_COLUMNS = ["category", "count", "arithmetic", "clause"]


def fmt_fraction(x: Fraction, places: int = 4) -> str:
    """A Fraction shown as a decimal with ``places`` digits (display only; decisions use the Fraction)."""
    x = Fraction(x)
    sign = "-" if x < 0 else ""
    x = abs(x)
    scaled = x * 10 ** places
    q, r = divmod(scaled.numerator, scaled.denominator)
    if 2 * r >= scaled.denominator:
        q += 1
    s = str(q).rjust(places + 1, "0")
    return f"{sign}{s[:-places]}.{s[-places:]}" if places else f"{sign}{s}"


@dataclass(frozen=True)
class QuotaRules:
    """The rounding readings and clauses of one instrument (defaults: GO 2021, seed b)."""

    sc_st_rounding: str = "half_up"       # A2
    obc_cap_percent: Fraction = Fraction(27)
    obc_cap_rounding: str = "floor"       # A3
    obc_rounding: str = "half_up"
    women_fraction: Fraction = Fraction(1, 3)
    general_women: str = "total_minus_category"   # A5: or "third_of_rest"
    women_rounding: str = "ceil"                  # A1: women of a category (ceil = "not less than one-third")
    women_total_rounding: str = "ceil"            # women in all
    clause_sc_st: str = "GO 2021 ZP-chair computation para 1 (s.19-A KP&ZP Adhiniyam 1961): half-up"
    clause_obc: str = "GO 2021 ZP-chair computation para 1, proviso: OBC at most 27 %, integer part only"
    clause_women: str = "GO 2021 ZP-chair computation para 1 (2nd para): women not less than 1/3, rounded up"
    clause_ur: str = "the offices left after the reserved categories"


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


def counts_by_parent(posts, sc_num, sc_den, st_num, st_den, obc_num, obc_den,
                     rules: QuotaRules = QuotaRules()) -> dict[str, np.ndarray]:
    """The counts of :func:`category_counts` for many counting units at once (integer arrays in, out).

    Each share is ``num / den`` (integers, den > 0). Returns ``{code: array}`` for the eight codes, plus
    ``"SC_all"``, ``"ST_all"``, ``"OBC_all"`` (group totals with their women) and ``"OBC_prop"``/``"OBC_cap"``.
    Raises ValueError when the reserved posts of a unit exceed its posts.
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
        raise ValueError(f"reserved {reserved[i]} exceeds {n[i]} posts (unit {i})")
    if rules.general_women == "total_minus_category":
        total_w = _round_arr(rules.women_total_rounding, n * wf.numerator, wf.denominator + 0 * n)
        out["W"] = np.maximum(total_w - cat_w, 0)
    elif rules.general_women == "third_of_rest":
        out["W"] = _round_arr(rules.women_total_rounding, (n - reserved) * wf.numerator, wf.denominator + 0 * n)
    else:
        raise ValueError(f"unknown general_women reading {rules.general_women!r}")
    out["UR"] = n - reserved - out["W"]
    return out


def category_counts(posts: int, shares: dict[str, Fraction], rules: QuotaRules = QuotaRules()) -> pd.DataFrame:
    """Counts per category for ``posts`` offices given each group's population ``shares`` (Fractions).

    ``shares`` has keys ``ST``, ``SC``, ``OBC`` (a missing key counts as share 0). Returns a DataFrame with
    :data:`COUNT_COLUMNS`, one row per category in the order ST_W ST SC_W SC OBC_W OBC W UR, then ``TOTAL``.
    The ``count`` of ``ST``/``SC``/``OBC`` excludes their women (the rows are disjoint and add up to posts).
    The numbers come from :func:`counts_by_parent`; this adds the arithmetic in words.
    """
    if posts < 0:
        raise ValueError("posts must be >= 0")
    f = {g: Fraction(shares.get(g, 0)) for g in ("SC", "ST", "OBC")}
    arr = lambda x: np.array([x], dtype=object)  # noqa: E731 - exact Python ints
    c = counts_by_parent(arr(posts), arr(f["SC"].numerator), arr(f["SC"].denominator), arr(f["ST"].numerator),
                         arr(f["ST"].denominator), arr(f["OBC"].numerator), arr(f["OBC"].denominator), rules)
    c = {k: int(v[0]) for k, v in c.items()}
    text = {}
    for g in ("ST", "SC"):
        text[g] = (f"{posts} x {fmt_fraction(f[g] * 100)} % = {fmt_fraction(posts * f[g], 4)} -> "
                   f"{rules.sc_st_rounding.replace('_', '-')} {c[g + '_all']}")
    cap_raw = posts * rules.obc_cap_percent / 100
    text["OBC"] = (f"min({posts} x {fmt_fraction(f['OBC'] * 100)} % = {fmt_fraction(posts * f['OBC'])} -> "
                   f"{c['OBC_prop']}; cap {fmt_fraction(rules.obc_cap_percent, 2)} % of {posts} = "
                   f"{fmt_fraction(cap_raw)} -> {rules.obc_cap_rounding.replace('_', '-')} {c['OBC_cap']}) = "
                   f"{c['OBC_all']}")
    clause = {"ST": rules.clause_sc_st, "SC": rules.clause_sc_st, "OBC": rules.clause_obc}
    reserved = c["ST_all"] + c["SC_all"] + c["OBC_all"]
    cat_w = c["ST_W"] + c["SC_W"] + c["OBC_W"]
    wr = rules.women_total_rounding.replace("_", "-")
    if rules.general_women == "total_minus_category":
        w_text = (f"{wr}({posts}/3) = {round_with(rules.women_total_rounding, posts * rules.women_fraction)} in "
                  f"all, minus category women {cat_w} = {c['W']}")
    else:
        w_text = f"{wr}(({posts} - {reserved} reserved)/3) = {c['W']}"
    out = []
    for g in ("ST", "SC", "OBC"):
        out.append((f"{g}_W", c[f"{g}_W"], f"{rules.women_rounding.replace('_', '-')}({c[g + '_all']}/3) = "
                                             f"{c[g + '_W']}", rules.clause_women))
        out.append((g, c[g], f"{text[g]}; of these {c[g + '_W']} women -> {c[g]} others", clause[g]))
    out.append(("W", c["W"], w_text, rules.clause_women))
    out.append(("UR", c["UR"], f"{posts} - {reserved} reserved - {c['W']} women = {c['UR']}", rules.clause_ur))
    out.append(("TOTAL", posts, "sum of the rows", ""))
    df = pd.DataFrame(out, columns=COUNT_COLUMNS)
    assert list(df["category"][:-1]) == list(CODES)
    assert int(df["count"][:-1].sum()) == posts
    return df
