"""The counting arithmetic of one counting unit in plain integers and Fractions (no numpy, no pandas).

The arithmetic of the GO 2021, ZP chair computation para 1 (and the identical KP para 1):

- SC and ST: ``posts x population share``, "if the remainder is not less than half the divisor the quotient
  is increased by one" (half-up; ambiguity A2 lets floor/ceil be tried).
- OBC: the same, but "at most 27 per cent ... only the integer part of the quotient is taken" (floor of
  27 % of the posts; ambiguity A3 lets half-up be tried).
- Women: "not less than one-third" of each reserved category and of all posts, "if the dividend is not
  wholly divisible ... the quotient is increased by 1" (ceil). General women = all women minus category
  women (A5 reading a; reading b takes one-third of the posts left unreserved).

:func:`count_parts` gives the rows of the counts table with the arithmetic as typed parts (a group's row: a
:class:`GroupArithmetic`, which a caller may restate, e.g. with the women counted in the districts), and
:func:`render_rows` turns them into words, once; :func:`count_rows` is the two together; :mod:`reservation.law.quota` does
the same for many counting units at once (numpy) and wraps the rows into a DataFrame. Kept free of numpy and pandas
so that ``reservation counts`` for a chair body starts in a fraction of a second.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .categories import CODES
from .rounding import round_with

__all__ = ["QuotaRules", "COUNT_COLUMNS", "fmt_fraction", "count_values", "count_rows", "count_parts", "render_rows",
           "GroupArithmetic"]

COUNT_COLUMNS = ["category", "count", "arithmetic", "clause"]


def fmt_fraction(x: Fraction, places: int = 4) -> str:
    """A Fraction shown as a decimal with ``places`` digits (display only; decisions use the Fraction)."""
    if not isinstance(x, (Fraction, int)):
        x = Fraction(x)
    num, den = x.numerator, x.denominator       # a Fraction's are in lowest terms, den > 0; an int's den is 1
    sign = "-" if num < 0 else ""
    # half-up of |x| x 10**places: the same quotient and test as on the reduced fraction (both scale by the gcd)
    q, r = divmod(abs(num) * 10 ** places, den)
    if 2 * r >= den:
        q += 1
    s = str(q).rjust(places + 1, "0")
    return f"{sign}{s[:-places]}.{s[-places:]}" if places else f"{sign}{s}"


@dataclass(frozen=True)
class QuotaRules:
    """The rounding readings and clauses of one instrument (defaults: GO 2021)."""

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


def count_values(posts: int, shares: dict, rules: QuotaRules = QuotaRules()) -> dict[str, int]:
    """The counts of one counting unit (the same numbers as :func:`reservation.law.quota.counts_by_parent`)."""
    f = {g: Fraction(shares.get(g, 0)) for g in ("SC", "ST", "OBC")}
    out = {}
    for g in ("ST", "SC"):
        out[f"{g}_all"] = round_with(rules.sc_st_rounding, posts * f[g])
    out["OBC_prop"] = round_with(rules.obc_rounding, posts * f["OBC"])
    out["OBC_cap"] = round_with(rules.obc_cap_rounding, posts * rules.obc_cap_percent / 100)
    out["OBC_all"] = min(out["OBC_prop"], out["OBC_cap"])
    cat_w = 0
    for g in ("ST", "SC", "OBC"):
        w = round_with(rules.women_rounding, out[f"{g}_all"] * rules.women_fraction)
        out[f"{g}_W"], out[g] = w, out[f"{g}_all"] - w
        cat_w += w
    reserved = out["ST_all"] + out["SC_all"] + out["OBC_all"]
    if reserved > posts:
        raise ValueError(f"reserved {reserved} exceeds {posts} posts")
    if rules.general_women == "total_minus_category":
        out["W"] = max(round_with(rules.women_total_rounding, posts * rules.women_fraction) - cat_w, 0)
    elif rules.general_women == "third_of_rest":
        out["W"] = round_with(rules.women_total_rounding, (posts - reserved) * rules.women_fraction)
    else:
        raise ValueError(f"unknown general_women reading {rules.general_women!r}")
    out["UR"] = posts - reserved - out["W"]
    return out


@dataclass(frozen=True)
class GroupArithmetic:
    """The arithmetic of a group's row (ST, SC, OBC) as parts: how the group's offices were found
    (``proportion``, in words), how many of them are women's and how many others, and where the women were
    counted (``women_where``: "" for the counting unit itself, e.g. "in the districts")."""

    proportion: str
    women: int
    others: int
    women_where: str = ""


def _render(arithmetic) -> str:
    """A row's arithmetic in words: the one place a :class:`GroupArithmetic` becomes a sentence."""
    if not isinstance(arithmetic, GroupArithmetic):
        return arithmetic
    where = f" {arithmetic.women_where}" if arithmetic.women_where else ""
    return f"{arithmetic.proportion}; of these {arithmetic.women} women{where} -> {arithmetic.others} others"


def render_rows(parts: list[tuple]) -> list[tuple]:
    """The rows of :func:`count_parts` with every arithmetic in words (:data:`COUNT_COLUMNS`)."""
    return [(code, count, _render(arithmetic), clause) for code, count, arithmetic, clause in parts]


def count_rows(posts: int, shares: dict, rules: QuotaRules = QuotaRules()) -> list[tuple]:
    """Counts per category for ``posts`` offices given each group's population ``shares`` (Fractions).

    ``shares`` has keys ``ST``, ``SC``, ``OBC`` (a missing key counts as share 0). Returns rows
    (:data:`COUNT_COLUMNS`), one per category in the order ST_W ST SC_W SC OBC_W OBC W UR, then ``TOTAL``. The
    ``count`` of ``ST``/``SC``/``OBC`` excludes their women (the rows are disjoint and add up to posts).
    """
    return render_rows(count_parts(posts, shares, rules))


def count_parts(posts: int, shares: dict, rules: QuotaRules = QuotaRules()) -> list[tuple]:
    """The rows of :func:`count_rows` with the arithmetic of the ST, SC and OBC rows as :class:`GroupArithmetic`
    (the other rows' arithmetic is already words)."""
    if posts < 0:
        raise ValueError("posts must be >= 0")
    f = {g: Fraction(shares.get(g, 0)) for g in ("SC", "ST", "OBC")}
    c = count_values(posts, f, rules)
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
        out.append((g, c[g], GroupArithmetic(text[g], c[g + "_W"], c[g]), clause[g]))
    out.append(("W", c["W"], w_text, rules.clause_women))
    out.append(("UR", c["UR"], f"{posts} - {reserved} reserved - {c['W']} women = {c['UR']}", rules.clause_ur))
    out.append(("TOTAL", posts, "sum of the rows", ""))
    assert [r[0] for r in out[:-1]] == list(CODES)
    assert sum(r[1] for r in out[:-1]) == posts
    return out
