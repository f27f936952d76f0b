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
from .rounding import fmt_fraction, round_with
from .words_counts import DEFAULT_CLAUSES_HI, Said
from .words_counts import render_rows as _render_rows

__all__ = ["QuotaRules", "COUNT_COLUMNS", "fmt_fraction", "count_values", "count_rows", "count_parts", "render_rows",
           "GroupArithmetic", "Proportion", "ObcProportion", "WomenOfGroup", "WomenInAll", "WomenOfRest", "LeftOver",
           "RowSum", "DistrictWomen", "DistrictGeneralWomen", "DistrictLeft", "DivisionRestated", "ParentSum", "Sum"]

COUNT_COLUMNS = ["category", "count", "arithmetic", "clause"]


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
    clause_sc_st_hi: str = DEFAULT_CLAUSES_HI["sc_st"]     # the same clauses in Hindi (the rulebooks' tables)
    clause_obc_hi: str = DEFAULT_CLAUSES_HI["obc"]
    clause_women_hi: str = DEFAULT_CLAUSES_HI["women"]
    clause_ur_hi: str = DEFAULT_CLAUSES_HI["ur"]

    def said(self, name: str) -> Said:
        """The clause ``name`` (``sc_st``, ``obc``, ``women``, ``ur``) in both languages."""
        return Said(getattr(self, f"clause_{name}"), getattr(self, f"clause_{name}_hi"))


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
class Proportion:
    """SC or ST: ``posts`` x the group's share (``share``: per cent) = ``product``, rounded to ``count``."""

    posts: int
    share: Fraction
    product: Fraction
    rounding: str
    count: int


@dataclass(frozen=True)
class ObcProportion:
    """OBC: the least of the proportion (``prop``) and the cap (``cap_pct2`` per cent of ``posts``, rounded)."""

    posts: int
    share: Fraction
    product: Fraction
    prop: int
    cap_pct2: Fraction
    cap_raw: Fraction
    cap_rounding: str
    cap: int
    count: int


@dataclass(frozen=True)
class GroupArithmetic:
    """The arithmetic of a group's row (ST, SC, OBC) as parts: how the group's offices were found
    (``proportion``: a :class:`Proportion` or :class:`ObcProportion`), how many of them are women's and how many
    others, and where the women were counted (``women_where``: "" for the counting unit itself, "districts")."""

    proportion: object
    women: int
    others: int
    women_where: str = ""


@dataclass(frozen=True)
class WomenOfGroup:
    """A group's women: one-third of its ``group_posts``, rounded."""

    rounding: str
    group_posts: int
    count: int


@dataclass(frozen=True)
class WomenInAll:
    """The general women: one-third of all ``posts``, rounded (``total``), minus the category women."""

    rounding: str
    posts: int
    total: int
    category_women: int
    count: int


@dataclass(frozen=True)
class WomenOfRest:
    """The general women (A5 reading b): one-third of the posts left unreserved, rounded."""

    rounding: str
    posts: int
    reserved: int
    count: int


@dataclass(frozen=True)
class LeftOver:
    """The unreserved: the posts left after the reserved and the women."""

    posts: int
    reserved: int
    women: int
    count: int


@dataclass(frozen=True)
class RowSum:
    """The TOTAL row."""


# -- the rows a rulebook restates (the women counted in the districts or divisions, a sum over parents) ----------

@dataclass(frozen=True)
class DistrictWomen:
    """A group's women (KP, ``women_level=district``): the State's one-third of ``group_posts`` (``state``) and
    the sum over the districts of one-third of each district's posts (``count``)."""

    group_posts: int
    state: int
    count: int


@dataclass(frozen=True)
class DistrictGeneralWomen:
    """The general women (KP, ``women_level=district``): the State's and the districts' sum."""

    state: int
    count: int


@dataclass(frozen=True)
class DistrictLeft:
    """The unreserved (KP, ``women_level=district``): the posts left in the districts."""

    count: int


@dataclass(frozen=True)
class DivisionRestated:
    """A row of an urban body's counts with the women counted per division: the State's count and the sum."""

    state: int
    count: int


@dataclass(frozen=True)
class ParentSum:
    """A row summed over ``n`` parents (``parent``: block, district, ...)."""

    n: int
    parent: str


@dataclass(frozen=True)
class Sum:
    """The TOTAL row of a table of sums."""


def render_rows(parts: list[tuple], lang: str = "en") -> list[tuple]:
    """The rows of :func:`count_parts` with every arithmetic and clause in words (:data:`COUNT_COLUMNS`), in
    ``lang`` (:mod:`reservation.law.words_counts`)."""
    return _render_rows(parts, lang)


def count_rows(posts: int, shares: dict, rules: QuotaRules = QuotaRules(), lang: str = "en") -> list[tuple]:
    """Counts per category for ``posts`` offices given each group's population ``shares`` (Fractions).

    ``shares`` has keys ``ST``, ``SC``, ``OBC`` (a missing key counts as share 0). Returns rows
    (:data:`COUNT_COLUMNS`), one per category in the order ST_W ST SC_W SC OBC_W OBC W UR, then ``TOTAL``. The
    ``count`` of ``ST``/``SC``/``OBC`` excludes their women (the rows are disjoint and add up to posts).
    """
    return render_rows(count_parts(posts, shares, rules), lang)


def count_parts(posts: int, shares: dict, rules: QuotaRules = QuotaRules()) -> list[tuple]:
    """The rows of :func:`count_rows` with every arithmetic as a typed part (a group's row: a
    :class:`GroupArithmetic`, which a caller may restate) and every clause a :class:`Said` pair."""
    if posts < 0:
        raise ValueError("posts must be >= 0")
    f = {g: Fraction(shares.get(g, 0)) for g in ("SC", "ST", "OBC")}
    c = count_values(posts, f, rules)
    prop = {g: Proportion(posts, f[g] * 100, posts * f[g], rules.sc_st_rounding, c[g + "_all"]) for g in ("ST", "SC")}
    prop["OBC"] = ObcProportion(posts, f["OBC"] * 100, posts * f["OBC"], c["OBC_prop"], rules.obc_cap_percent,
                                posts * rules.obc_cap_percent / 100, rules.obc_cap_rounding, c["OBC_cap"],
                                c["OBC_all"])
    clause = {"ST": rules.said("sc_st"), "SC": rules.said("sc_st"), "OBC": rules.said("obc")}
    reserved = c["ST_all"] + c["SC_all"] + c["OBC_all"]
    cat_w = c["ST_W"] + c["SC_W"] + c["OBC_W"]
    if rules.general_women == "total_minus_category":
        w_part = WomenInAll(rules.women_total_rounding, posts,
                            round_with(rules.women_total_rounding, posts * rules.women_fraction), cat_w, c["W"])
    else:
        w_part = WomenOfRest(rules.women_total_rounding, posts, reserved, c["W"])
    out = []
    for g in ("ST", "SC", "OBC"):
        out.append((f"{g}_W", c[f"{g}_W"], WomenOfGroup(rules.women_rounding, c[g + "_all"], c[g + "_W"]),
                    rules.said("women")))
        out.append((g, c[g], GroupArithmetic(prop[g], c[g + "_W"], c[g]), clause[g]))
    out.append(("W", c["W"], w_part, rules.said("women")))
    out.append(("UR", c["UR"], LeftOver(posts, reserved, c["W"], c["UR"]), rules.said("ur")))
    out.append(("TOTAL", posts, RowSum(), ""))
    assert [r[0] for r in out[:-1]] == list(CODES)
    assert sum(r[1] for r in out[:-1]) == posts
    return out
