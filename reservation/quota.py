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

import pandas as pd

from .categories import CODES
from .rounding import ceil, floor, round_with

__all__ = ["QuotaRules", "category_counts", "COUNT_COLUMNS", "fmt_fraction"]

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
    clause_sc_st: str = "GO 2021 ZP-chair computation para 1 (s.19-A KP&ZP Adhiniyam 1961): half-up"
    clause_obc: str = "GO 2021 ZP-chair computation para 1, proviso: OBC at most 27 %, integer part only"
    clause_women: str = "GO 2021 ZP-chair computation para 1 (2nd para): women not less than 1/3, rounded up"
    clause_ur: str = "the offices left after the reserved categories"


def category_counts(posts: int, shares: dict[str, Fraction], rules: QuotaRules = QuotaRules()) -> pd.DataFrame:
    """Counts per category for ``posts`` offices given each group's population ``shares`` (Fractions).

    ``shares`` has keys ``ST``, ``SC``, ``OBC`` (a missing key counts as share 0). Returns a DataFrame with
    :data:`COUNT_COLUMNS`, one row per category in the order ST_W ST SC_W SC OBC_W OBC W UR, then ``TOTAL``.
    The ``count`` of ``ST``/``SC``/``OBC`` excludes their women (the rows are disjoint and add up to posts).
    """
    if posts < 0:
        raise ValueError("posts must be >= 0")
    rows: dict[str, tuple[int, str, str]] = {}
    group_total: dict[str, int] = {}
    for g in ("ST", "SC"):
        s = Fraction(shares.get(g, 0))
        raw = posts * s
        n = round_with(rules.sc_st_rounding, raw)
        group_total[g] = n
        rows[g] = (n, f"{posts} x {fmt_fraction(s * 100)} % = {fmt_fraction(raw, 4)} -> "
                      f"{rules.sc_st_rounding.replace('_', '-')} {n}", rules.clause_sc_st)
    s = Fraction(shares.get("OBC", 0))
    raw = posts * s
    prop = round_with(rules.obc_rounding, raw)
    cap_raw = posts * rules.obc_cap_percent / 100
    cap = round_with(rules.obc_cap_rounding, cap_raw)
    n = min(prop, cap)
    group_total["OBC"] = n
    rows["OBC"] = (n, f"min({posts} x {fmt_fraction(s * 100)} % = {fmt_fraction(raw)} -> {prop}; cap "
                      f"{fmt_fraction(rules.obc_cap_percent, 2)} % of {posts} = {fmt_fraction(cap_raw)} -> "
                      f"{rules.obc_cap_rounding.replace('_', '-')} {cap}) = {n}", rules.clause_obc)
    women = {}
    for g in ("ST", "SC", "OBC"):
        women[g] = ceil(group_total[g] * rules.women_fraction)
    reserved = sum(group_total.values())
    if reserved > posts:
        raise ValueError(f"reserved {reserved} exceeds {posts} posts")
    if rules.general_women == "total_minus_category":
        women_total = ceil(posts * rules.women_fraction)
        w_gen = max(women_total - sum(women.values()), 0)
        w_text = (f"ceil({posts}/3) = {women_total} in all, minus category women "
                  f"{sum(women.values())} = {w_gen}")
    elif rules.general_women == "third_of_rest":
        w_gen = ceil((posts - reserved) * rules.women_fraction)
        w_text = f"ceil(({posts} - {reserved} reserved)/3) = {w_gen}"
    else:
        raise ValueError(f"unknown general_women reading {rules.general_women!r}")
    out = []
    for g in ("ST", "SC", "OBC"):
        out.append((f"{g}_W", women[g], f"ceil({group_total[g]}/3) = {women[g]}", rules.clause_women))
        n, text, clause = rows[g]
        out.append((g, n - women[g], f"{text}; of these {women[g]} women -> {n - women[g]} others", clause))
    out.append(("W", w_gen, w_text, rules.clause_women))
    ur = posts - reserved - w_gen
    out.append(("UR", ur, f"{posts} - {reserved} reserved - {w_gen} women = {ur}", rules.clause_ur))
    out.append(("TOTAL", posts, "sum of the rows", ""))
    df = pd.DataFrame(out, columns=COUNT_COLUMNS)
    assert list(df["category"][:-1]) == list(CODES)
    assert int(df["count"][:-1].sum()) == posts
    return df
