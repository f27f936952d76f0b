"""Panchayat offices under the GO 2021 and the KP & ZP Reservation Rules 1994.

Implemented: **Zila Panchayat chairs (adhyaksh), 75 offices, the State as the counting unit** —
GO 2021, "जिला पंचायत के अध्यक्ष पदों का आरक्षण की संगणना" (counts, paras 1-3) and "जिला पंचायत के अध्यक्षों
के आरक्षण की संगणना (कुल पदों की संख्या-75)" (allotment, items 1-3); docs/panchayat.md.

Clause names used in the output (the GO 2021 is a Government Order of the Panchayati Raj Department, Feb 2021):

- ``GO 2021 ZP-chair counts para 1``: State counts from the State population shares, half-up; OBC at most
  27 %, integer part only; women not less than one-third, rounded up.
- ``GO 2021 ZP-chair counts para 2``: descending order of the category's share of the population of the
  Zila Panchayat's territorial area (प्रादेशिक क्षेत्र, i.e. the rural part of the district).
- ``GO 2021 ZP-chair allotment item 1`` (SC), ``item 2`` (OBC, leaving out SC districts), ``item 3`` (women,
  leaving out SC/OBC districts, by the population outside SC/ST/OBC). Each item: never-reserved districts
  first, the women's posts from the top; then districts not reserved at the last election (2015); and the
  division rule (last sentence of each item).
- ``12th Amendment Rules 2021 r.2(d)``: "previous election" = the base year (2015) and later.

The rulebook declares only this: its options, its units (the districts), its counts, its passes and its
clauses; :mod:`reservation.allotment.pipeline` runs it.

Second readings against the published 2021 lists (issue 12; evidence in notes/readings_panchayat.md): the division
rule ranks by the Census 2011 totals as published (``saturation_table``) and the freed district is unreserved
(``saturation_effect``); a base year before the first election of the history is stated as an assumption and a
:class:`reservation.rules.rulebook.BaseYearWarning`; the final 2021 list is part of the shipped history and does not
count for 2021.
"""

from __future__ import annotations

import csv
from fractions import Fraction
from functools import lru_cache, partial

from ..law.arithmetic import QuotaRules, count_rows
from .catalogue import pick
from .parameters import value
from ..law.categories import CODES
from ..base.paths import DATA_DIR
from .rulebook import BaseYearWarning, Counts, Group, Rulebook, UnitSet, Years  # noqa: F401

# numpy and pandas are imported inside the functions that need them: `reservation counts --body zp-chair` reads
# the district table with the csv module (light_counts) and starts in a fraction of a second.

__all__ = ["RULEBOOK", "state_shares", "quota_rules", "PANCHAYAT_ORDERS", "PANCHAYAT_YEARS", "CLAUSES_HI",
           "rotation_clause_hi"]

#: The elections the panchayat rulebooks compute (rules/params/elections.toml): the GO 2021 is the law; other
#: years assume its rules.
PANCHAYAT_YEARS = Years.of("panchayat")

#: The order of the passes (option category_order, A6): (group, the codes the pass fills).
PANCHAYAT_ORDERS = {
    "b": (("ST", ("ST_W", "ST")), ("SC", ("SC_W", "SC")), ("OBC", ("OBC_W", "OBC")), ("GEN", ("W",))),
    "a": (("ST", ("ST_W", "ST")), ("SC", ("SC_W",)), ("OBC", ("OBC_W",)), ("SC", ("SC",)), ("OBC", ("OBC",)),
          ("GEN", ("W",))),
}

CLAUSES = {
    "count.sc_st": "GO 2021 ZP-chair counts para 1 (s.19-A KP&ZP Adhiniyam 1961): half-up",
    "count.obc": "GO 2021 ZP-chair counts para 1, proviso: OBC at most 27 %, integer part only",
    "count.women": "GO 2021 ZP-chair counts para 1 (2nd para): women not less than 1/3, rounded up",
    "count.ur": "the offices left after the reserved categories and women",
    "ST": "GO 2021 ZP-chair counts para 2 (ST in descending order of ST share)",
    "ST.women": "GO 2021 ZP-chair counts para 3 (ST women from the top)",
    "ST.division": "GO 2021 ZP-chair allotment item 1 (division rule, applied to ST)",
    "SC": "GO 2021 ZP-chair allotment item 1 (SC in descending order, never reserved first)",
    "SC.women": "GO 2021 ZP-chair allotment item 1 (SC women from the top of the first allotted)",
    "SC.division": "GO 2021 ZP-chair allotment item 1, last sentence (division rule)",
    "OBC": "GO 2021 ZP-chair allotment item 2 (OBC, leaving out SC districts)",
    "OBC.women": "GO 2021 ZP-chair allotment item 2 (OBC women from the top)",
    "OBC.division": "GO 2021 ZP-chair allotment item 2, last sentence (division rule)",
    "GEN": "GO 2021 ZP-chair allotment item 3 (women, leaving out SC/OBC districts)",
    "GEN.division": "GO 2021 ZP-chair allotment item 3, last sentence (division rule)",
    "rotation": lambda base_year: rotation_clause(base_year),
    "freed": "GO 2021 ZP-chair allotment items 1-3, last sentence (division rule: the district is unreserved)",
    "freed.reason": "made unreserved by the division rule in an earlier pass (option saturation_effect=unreserved: "
                    "'उस जिले को अनारक्षित कर दिया जायेगा')",
    "unreserved": "GO 2021 ZP-chair counts para 1: offices left after the reserved categories and women are "
                  "unreserved",
}

_GO_COUNT_HI = "शासनादेश 2021, जिला पंचायत अध्यक्ष पदों के आरक्षण की संगणना"
_GO_ALLOT_HI = "शासनादेश 2021, जिला पंचायत अध्यक्षों के पदों का आवंटन"

#: The clause table in Hindi (the same keys; the `clause` column of ``allot --lang hi``), in the GO's own words:
#: अवरोही क्रम, पूर्ववर्ती निर्वाचन, स्त्रियाँ, पिछड़े वर्ग, मण्डल (docs/glossary.md).
CLAUSES_HI = {
    "count.sc_st": f"{_GO_COUNT_HI}, प्रस्तर 1 (क्षेत्र पंचायत तथा जिला पंचायत अधिनियम 1961 की धारा 19-क): शेष भाजक "
                   "के आधे से कम न हो तो एक बढ़ाया गया",
    "count.obc": f"{_GO_COUNT_HI}, प्रस्तर 1, परन्तुक: पिछड़े वर्ग अधिकतम 27 प्रतिशत, केवल पूर्णांक",
    "count.women": f"{_GO_COUNT_HI}, प्रस्तर 1 (दूसरा अनुच्छेद): स्त्रियाँ एक-तिहाई से अन्यून, ऊपर की ओर पूर्णांकित",
    "count.ur": "आरक्षित श्रेणियों और स्त्रियों के पदों के बाद शेष पद",
    "ST": f"{_GO_COUNT_HI}, प्रस्तर 2 (अनुसूचित जनजाति, उसके अनुपात के अवरोही क्रम में)",
    "ST.women": f"{_GO_COUNT_HI}, प्रस्तर 3 (अनुसूचित जनजाति की स्त्रियाँ ऊपर से)",
    "ST.division": f"{_GO_ALLOT_HI}, मद 1 (मण्डल का नियम, अनुसूचित जनजाति पर लागू)",
    "SC": f"{_GO_ALLOT_HI}, मद 1 (अनुसूचित जाति अवरोही क्रम में; जो कभी आरक्षित नहीं रहे, वे पहले)",
    "SC.women": f"{_GO_ALLOT_HI}, मद 1 (पहले आवंटित जिलों में ऊपर से अनुसूचित जाति की स्त्रियाँ)",
    "SC.division": f"{_GO_ALLOT_HI}, मद 1, अंतिम वाक्य (मण्डल का नियम)",
    "OBC": f"{_GO_ALLOT_HI}, मद 2 (पिछड़े वर्ग, अनुसूचित जाति के जिलों को छोड़कर)",
    "OBC.women": f"{_GO_ALLOT_HI}, मद 2 (पिछड़े वर्गों की स्त्रियाँ ऊपर से)",
    "OBC.division": f"{_GO_ALLOT_HI}, मद 2, अंतिम वाक्य (मण्डल का नियम)",
    "GEN": f"{_GO_ALLOT_HI}, मद 3 (स्त्रियाँ, अनुसूचित जाति और पिछड़े वर्ग के जिलों को छोड़कर)",
    "GEN.division": f"{_GO_ALLOT_HI}, मद 3, अंतिम वाक्य (मण्डल का नियम)",
    "rotation": lambda base_year: rotation_clause_hi(base_year),
    "freed": f"{_GO_ALLOT_HI}, मद 1-3, अंतिम वाक्य (मण्डल का नियम: जिला अनारक्षित)",
    "freed.reason": "पिछले चरण में मण्डल के नियम से अनारक्षित किया गया (विकल्प `saturation_effect=unreserved`: "
                    "'उस जिले को अनारक्षित कर दिया जायेगा')",
    "unreserved": f"{_GO_COUNT_HI}, प्रस्तर 1: आरक्षित श्रेणियों और स्त्रियों के पदों के बाद शेष पद अनारक्षित",
}

OPTIONS = pick("sc_st_rounding", "obc_cap_rounding", "obc_state_share", "general_women", "category_order",
               "category_women", "rotation_history", "women_history", "rotation_fallback", "count_base", "rank_base",
               "women_rank", "division_saturation", "saturation_population", "saturation_table", "saturation_effect",
               "saturation_scope", "tie_break", "lots")


#: What the base year (``--base-year``, ``allot(..., base_year=)``) means for each group of the 2021 allotment
#: (issue 12, item 3; the evidence is in notes/readings_panchayat.md). A base year is a parameter, not an option;
#: this text is what a result records about it.
BASE_YEAR_READINGS = {
    2015: "base year 2015 (12th Amendment Rules 2021 r.2(d) 'previous election' = the 2015 general election and "
          "later; High Court order of 15 Mar 2021; the final list of 17 Mar 2021 was announced on it): for SC, OBC "
          "and women alike the only previous election is 2015, so tier 1 = not reserved for the group in 2015 "
          "(tier 2 is empty) and tier 3 = its 2015 holders (SC: 16, OBC: 20, W: 11 districts; Gautam Buddh Nagar "
          "has no 2015 record). The final list's SC and OBC districts are not reproduced on this base (they are the "
          "provisional list's); its women's list is.",
    1995: "base year 1995 (GO of 11 Feb 2021 as issued, quashed on 15 Mar 2021; the provisional list of 12 Feb "
          "2021): tier 1 = never reserved for the group in 1995, 2000, 2005, 2010 or 2015; tier 2 = reserved earlier "
          "but not in 2015; tier 3 = reserved in 2015. For SC this gives the published SC list only with a history "
          "in which exactly Lucknow, Kaushambi, Sitapur, Hardoi, Shamli and Baghpat never held SC; for women the "
          "provisional list needs the districts it left unreserved (at least those ranking above one of its "
          "women's districts) to have held W in 1995-2015. No Zila Panchayat chair "
          "list before 2015 is shipped: without one, base 1995 computes exactly what base 2015 does (and says so).",
}


def rotation_clause(base_year: int) -> str:
    """The clause that makes an election a 'previous election' for rotation, for the base year used."""
    if base_year == 2015:
        return "12th Amendment Rules 2021 r.2(d): previous election = 2015 and later"
    if base_year == 1995:
        return ("GO of 11 Feb 2021 as issued (quashed on 15 Mar 2021): previous elections = 1995, 2000, 2005, "
                "2010, 2015")
    return f"base year {base_year} (given): previous elections = {base_year} and later"


def rotation_clause_hi(base_year: int) -> str:
    """:func:`rotation_clause` in Hindi."""
    if base_year == 2015:
        return "बारहवाँ संशोधन नियमावली 2021, नियम 2(घ): पूर्ववर्ती निर्वाचन = 2015 और उसके बाद के"
    if base_year == 1995:
        return ("11 फरवरी 2021 का शासनादेश, जैसा जारी हुआ (15 मार्च 2021 को निरस्त): पूर्ववर्ती निर्वाचन = 1995, 2000, "
                "2005, 2010, 2015")
    return f"आधार वर्ष {base_year} (दिया गया): पूर्ववर्ती निर्वाचन = {base_year} और उसके बाद के"


def census2011_published_totals(codes) -> list[int]:
    """Census 2011 district totals as published, for the LGD ``codes`` (data/districts.csv
    ``tot_p_census2011_published``: the 71 Census districts; the four created after 2011 by their rebuilt total)."""
    got = _published_totals()
    return [got[int(c)] for c in codes]


@lru_cache(maxsize=1)
def _published_totals() -> dict[int, int]:
    """The shipped table's published totals, read once per process."""
    with open(DATA_DIR / "districts.csv", encoding="utf-8", newline="") as f:
        return {int(r["district_lgd_code"]): int(r["tot_p_census2011_published"]) for r in csv.DictReader(f)}




def quota_rules(opts, clauses=CLAUSES, year: int = 2021, clauses_hi=CLAUSES_HI) -> QuotaRules:
    """The counting arithmetic of the GO 2021 (counts para 1) with the chosen roundings; the OBC cap and the
    women's fraction are the law's figures for the rules of ``year`` (rules/params/law.toml); the clauses in
    English and Hindi."""
    rules_year = PANCHAYAT_YEARS.rules_year(year)
    return QuotaRules(obc_cap_percent=value("panchayat.obc_cap", rules_year),
                      women_fraction=value("panchayat.women", rules_year),
                      sc_st_rounding=opts["sc_st_rounding"], obc_cap_rounding=opts["obc_cap_rounding"],
                      general_women=opts["general_women"], clause_sc_st=clauses["count.sc_st"],
                      clause_obc=clauses["count.obc"], clause_women=clauses["count.women"],
                      clause_ur=clauses["count.ur"], clause_sc_st_hi=clauses_hi["count.sc_st"],
                      clause_obc_hi=clauses_hi["count.obc"], clause_women_hi=clauses_hi["count.women"],
                      clause_ur_hi=clauses_hi["count.ur"])


def state_shares(districts, opts) -> dict[str, Fraction]:
    """SC/ST shares of the State (whole or rural, A10) from the district table; OBC from the option."""
    if opts["count_base"] == "state_total":
        pop, sc, st = districts["pop_total"].sum(), districts["sc_total"].sum(), districts["st_total"].sum()
    else:
        pop, sc, st = districts["pop_rural"].sum(), districts["sc_rural"].sum(), districts["st_rural"].sum()
    return {"SC": Fraction(int(sc), int(pop)), "ST": Fraction(int(st), int(pop)),
            "OBC": opts.fraction("obc_state_share") / 100}


def panchayat_obc_share(opts):
    return opts.fraction("obc_state_share") / 100, opts["obc_state_share"]


def districts_as_units(units, year, opts) -> UnitSet:
    """The districts (the shipped 75, or a district table of the user's, e.g. the toy state), ranked by the
    rural or the total population (option rank_base)."""
    import pandas as pd

    from ..inputs.user_files import describe_input
    from ..inputs.names import district_index
    from ..inputs.units import load_districts
    if units is None:
        d, described = load_districts(), {}
    elif isinstance(units, pd.DataFrame):
        d, described = units.copy(), {}
    else:
        d, described = load_districts(units), {"units": describe_input(units)}
    if opts["rank_base"] == "rural":
        d["pop"], d["sc"], d["st"] = d["pop_rural"], d["sc_rural"], d["st_rural"]
    else:
        d["pop"], d["sc"], d["st"] = d["pop_total"], d["sc_total"], d["st_total"]
    d = d.sort_values("unit_code", kind="stable").reset_index(drop=True)
    return UnitSet(d, district_index(None if units is None else d), [], described)


def state_counts(ctx) -> Counts:
    """Counts para 1: the State counts from the State shares; the State is the only counting unit."""
    import pandas as pd

    from ..law.arithmetic import count_parts
    from ..law.quota import counts_table
    parts = count_parts(len(ctx.units), state_shares(ctx.units, ctx.opts), quota_rules(ctx.opts, year=ctx.year))
    state = counts_table(parts)
    n = dict(zip(state["category"], state["count"]))
    return Counts(state, pd.DataFrame([{c: int(n[c]) for c in CODES}], index=["*"]),
                  state_hi=partial(counts_table, parts, "hi"))


def light_counts(opts, lang: str = "en") -> list[tuple]:
    """The State counts rows for the shipped districts, read with the csv module (the same numbers and words as
    :func:`state_counts`; tests/test_quota_golden.py checks that the two agree)."""
    cols = {"state_total": ("tot_p", "sc", "st"), "state_rural": ("tot_p_rural", "sc_rural", "st_rural")}
    pop_c, sc_c, st_c = cols[opts["count_base"]]
    with open(DATA_DIR / "districts.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    pop, sc, st = (sum(int(r[c]) for r in rows) for c in (pop_c, sc_c, st_c))
    shares = {"SC": Fraction(sc, pop), "ST": Fraction(st, pop), "OBC": opts.fraction("obc_state_share") / 100}
    return count_rows(len(rows), shares, quota_rules(opts), lang)


def groups(opts) -> dict[str, Group]:
    """Allotment items 1-3 (and counts paras 2-3 for ST): what each pass ranks by, and its clauses."""
    from .keys import outside_people, outside_share, share
    people = opts["women_rank"] == "general_population"
    return {
        "ST": Group(share("st"), "ST share of the {base} population", "ST", "ST.women", division_rule="ST.division",
                    label_hi="{base_hi} जनसंख्या में अनुसूचित जनजाति का अनुपात"),
        "SC": Group(share("sc"), "SC share of the {base} population", "SC", "SC.women", division_rule="SC.division",
                    label_hi="{base_hi} जनसंख्या में अनुसूचित जाति का अनुपात"),
        "OBC": Group(share("obc"), "OBC share of the {base} population", "OBC", "OBC.women",
                     division_rule="OBC.division", note="obc",
                     label_hi="{base_hi} जनसंख्या में अन्य पिछड़ा वर्ग का अनुपात"),
        "GEN": Group(outside_people if people else outside_share,
                     "{base} population outside SC/ST/OBC" if people else
                     "share of the {base} population outside SC/ST/OBC", "GEN", division_rule="GEN.division",
                     note="obc", label_hi="अनुसूचित जाति/जनजाति/अन्य पिछड़ा वर्ग से बाहर की {base_hi} जनसंख्या" if people
                     else "{base_hi} जनसंख्या में अनुसूचित जाति/जनजाति/अन्य पिछड़ा वर्ग से बाहर का अनुपात"),
    }


def division_population(ctx, group: str):
    """The division rule frees 'the least populous': by total population (A12 default) or by the group's."""
    from .keys import category_population
    if ctx.opts["saturation_population"] == "total":
        if ctx.opts["saturation_table"] == "census2011_published" and ctx.source is None:
            import numpy as np
            return np.array(census2011_published_totals(ctx.units["unit_code"]), dtype=object)
        return ctx.units["pop_total"].to_numpy(dtype=object)
    return category_population(ctx, {"ST": "st", "SC": "sc", "OBC": "obc", "GEN": "outside"}[group])


RULEBOOK = Rulebook(
    id="zp-chair", title="Zila Panchayat chairs (adhyaksh)", title_hi="जिला पंचायत अध्यक्ष", unit_kind="district",
    parent=None, years=PANCHAYAT_YEARS, options=OPTIONS, load_units=districts_as_units, counts=state_counts,
    groups=groups, pass_order=lambda opts: PANCHAYAT_ORDERS[opts["category_order"]], clauses=CLAUSES,
    clauses_hi=CLAUSES_HI,
    default_history=str(DATA_DIR / "history" / "zp-chair.csv"), units_file="optional",
    default_base_year=value("panchayat.base_year", PANCHAYAT_YEARS.law[-1]),
    obc_note=("OBC population by district is not public and was not supplied (--population with an 'obc' "
              "column): every district is assumed to have the State share {share} % of its {base} population, "
              "so the OBC order falls to the tie-break rule ({tie_break}) and rotation"),
    obc_share=panchayat_obc_share,
    label_fields=lambda opts: {"base": "rural" if opts["rank_base"] == "rural" else "total",
                               "base_hi": "ग्रामीण" if opts["rank_base"] == "rural" else "कुल"},
    division_population=division_population, light_counts=light_counts, base_year_readings=BASE_YEAR_READINGS)
