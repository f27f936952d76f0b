"""The shared catalogue of options: one named switch per open reading of the law, used by several rulebooks.

A rulebook picks the options it needs from here by name (:func:`pick`) and declares its own beside them. Each
option has a stable name, the ambiguity it settles, its choices with the reading each implements, a default and
the evidence for the default (:class:`reservation.inputs.options.Option`). Texts cite the instruments: the GO 2021 is the
2021 panchayat reservation Government Order, s.9-A(5) (2023) the 2023 substitution of s.9-A(5) of the UP
Municipalities Act; the ambiguities are described in docs/ambiguities.md.
"""

from __future__ import annotations

from ..inputs.options import Option

__all__ = ["CATALOGUE", "pick", "with_default"]

_O = Option
CATALOGUE: dict[str, Option] = {o.name: o for o in [
    _O("sc_st_rounding", "A2", "half_up",
       {"half_up": "SC/ST counts: remainder of half or more counts as one",
        "floor": "SC/ST counts: integer part", "ceil": "SC/ST counts: any remainder counts as one"},
       "GO 2021 counts para 1: 'यदि शेष, भाजक के आधे से कम न हो तो भागफल में एक बढ़ाया जायेगा'; published 2021 "
       "counts SC 16 (75 x 20.6982 % = 15.52) and ST 0 (0.43) fit half-up only (docs/ambiguities.md A2)."),
    _O("obc_cap_rounding", "A3", "floor",
       {"floor": "27 % cap: integer part only", "half_up": "27 % cap: half-up"},
       "GO 2021 counts para 1, OBC proviso: 'मात्र भागफल के पूर्णांक को ही संज्ञान में लिया जायेगा'. "
       "20.25 -> 20 either way for 75 offices (docs/ambiguities.md A3)."),
    _O("obc_state_share", "A10", "53.33", {},
       "The rural OBC share of the 2015 rapid survey, as quoted by GO 2021 (KP section) and docs/panchayat.md; "
       "data/statewide_figures.csv marks the figure itself unverified. The 27 % cap binds for any share "
       "above 27.33 %, so the ZP count (20) does not depend on it.", kind="decimal"),
    _O("general_women", "A5", "total_minus_category",
       {"total_minus_category": "women in all = ceil(N/3); general women = that minus the category women",
        "third_of_rest": "general women = ceil(unreserved remainder / 3)"},
       "GO 2021 counts para 1 (2nd para): one-third of all offices 'including the women of the reserved "
       "categories'; published 2021 ZP list: 12 general women = 25 - 6 - 7 (docs/ambiguities.md, A5)."),
    _O("category_order", "A6", "b",
       {"b": "ST-W, ST, SC-W, SC, OBC-W, OBC, W (each group filled in one pass, women from the top)",
        "a": "ST-W, ST, SC-W, OBC-W, SC, OBC, W (each code in its own pass, as the ACS was reported)"},
       "the GO 2021's own order list (आरक्षण की क्रमावली (A)-(G)) and its ZP items 1-3 (SC, then OBC leaving out "
       "SC districts, then women) (docs/ambiguities.md A6)."),
    _O("category_women", "A7", "top",
       {"top": "a group's women's posts go to its first districts in rotation order",
        "not_women_last": "among the group's districts, those without a women's office at the last "
                          "election take the women's posts first"},
       "GO 2021 ZP item 1: 'सर्वप्रथम आवंटित हुई जिला पंचायतों में ऊपर से अनुमन्य संख्या में ... स्त्री के लिए' "
       "(from the top of the districts allotted first) (docs/ambiguities.md A7)."),
    _O("rotation_history", "A8", "since_base",
       {"since_base": "tier 1 = never reserved for the group in any election since the base year",
        "last_only": "only the last election counts (tier 1 = tier 2)"},
       "GO 2021 ZP item 1: 'पूर्ववर्ती निर्वाचनों में कभी भी ... आवंटित नहीं रही' (never, in the previous "
       "elections); with the base year 2015 and only the 2015 history the two readings coincide for 2021."),
    _O("women_history", "A8", "general_only",
       {"general_only": "for the women's pass only a W (general women) office counts as 'reserved for women'",
        "any_women": "ST_W, SC_W and OBC_W offices count as 'reserved for women' too"},
       "GO 2021 lists women (G) as a category of its own beside (A), (C), (E); item 3 speaks of the "
       "'स्त्री श्रेणी' (women category) (docs/ambiguities.md A8 d). Provisional 2021 list (12 Feb 2021): Amethi and Kasganj, "
       "OBC_W in 2015, were given W; under 'any_women' they held a women's office at the last election (tier 3), "
       "while 31 districts of the women's pool (the 39 not SC or OBC in 2021) held none in 2015 and would come "
       "first for the 12 posts, whatever the 1995-2010 history and the OBC order: 'any_women' is contradicted. "
       "The final list fits both readings."),
    _O("rotation_fallback", "A8", "rank",
       {"rank": "when tiers 1-2 cannot fill the posts, the rest follow in descending order ('as far as "
                "possible')", "error": "stop with an error instead"},
       "GO 2021 counts para 2: 'जहाँ तक हो सके' (as far as possible) — rotation yields when it must."),
    _O("count_base", "A10", "state_total",
       {"state_total": "SC/ST counts from the share of the whole State population",
        "state_rural": "SC/ST counts from the share of the State's rural population"},
       "Art. 243D(4) ('population of the State'); GO 2021 'प्रदेश में उनकी जनसंख्या के अनुपात'; 20.6982 % "
       "and 0.5677 % are whole-State shares and give the published 16 and 0 (docs/ambiguities.md, A10)."),
    _O("rank_base", "A10", "rural",
       {"rural": "rank by shares of the rural population (the ZP's territorial area)",
        "total": "rank by shares of the whole district population"},
       "GO 2021 counts para 2: 'उनके प्रादेशिक क्षेत्र की कुल जनसंख्या' (the population of the ZP's territorial "
       "area = rural); 14 of the 16 districts given SC in the final 2021 list are in the top 16 by rural SC share "
       "(data/README.md, 'How the reference tables were built'; tests/test_readings_mayor.py counts them)."),
    _O("women_rank", "", "general_population",
       {"general_population": "women's pass ranks by the number of people outside SC/ST/OBC",
        "general_share": "women's pass ranks by the share of people outside SC/ST/OBC"},
       "GO 2021 item 3: 'सामान्य की जनसंख्या के आधार पर' and counts para 3: 'अधिक जनसंख्या (जिसमें ... "
       "सम्मिलित नहीं है)' — a population, not a share."),
    _O("division_saturation", "A12", "on",
       {"on": "apply the division rule", "off": "ignore it"},
       "GO 2021 items 1-3, last sentence: if all districts of a division become reserved in the category, "
       "the least populous is made unreserved."),
    _O("saturation_population", "A12", "total",
       {"total": "least populous by total population", "category": "least populous by the category's population"},
       "GO 2021: 'उस मण्डल के समस्त जिलों को कुल आबादी के आरोही क्रम में' (ascending order of total population)."),
    _O("saturation_table", "A12", "census2011_published",
       {"census2011_published": "least populous by the Census 2011 district totals as published (71 districts; a "
                                "district that lost a tehsil after 2011 keeps its whole published figure; Amethi, "
                                "Hapur, Sambhal, Shamli, created later, take their rebuilt totals): data/districts.csv "
                                "tot_p_census2011_published",
        "rebuilt": "least populous by today's districts rebuilt from Census 2011 tehsils (data/districts.csv tot_p)"},
       "final 2021 list (17 Mar 2021): Lucknow division would be all SC (Lucknow, Sitapur, Hardoi, Rae Bareli, "
       "Lakhimpur Kheri, Unnao) and Unnao is left unreserved: Unnao 3,108,367 is the least populous by the figures "
       "as published (Rae Bareli 3,405,559 before Tiloi tehsil went to Amethi); by the rebuilt table Rae Bareli "
       "(2,903,507) would be freed. Lucknow is the only division where the rule fires in 2021 (either base year, "
       "either table), so no other division contradicts it. With a user-supplied district table its own pop_total "
       "is used."),
    _O("saturation_effect", "A12", "unreserved",
       {"unreserved": "the freed district is unreserved: it takes part in no later pass (OBC, women)",
        "barred": "the freed district is only barred from that category; later passes may still reserve it"},
       "GO 2021 items 1-3, last sentence: 'उस जिले को अनारक्षित कर दिया जायेगा' (that district shall be made "
       "unreserved), not 'shall not be allotted to that category'. Final 2021 list: the freed district, Unnao, is "
       "unreserved (UR); under 'barred' it would be OBC in our computation with the OBC shares assumed equal and "
       "tied by the larger rural population (tie_break=population; by the default lower code it stays UR), so "
       "the record fits the literal reading, but because the OBC order is not public it cannot refute 'barred'."),
    _O("saturation_scope", "A12", "per_category",
       {"per_category": "a division is saturated when all its districts hold the same group (SC incl. SC-W)",
        "all_reserved": "a division is saturated when all its districts hold any reserved office"},
       "GO 2021: 'अनुसूचित जाति की श्रेणी में आरक्षित हो जाती हैं' (reserved in the SC category), repeated "
       "per item. Final 2021 list: five divisions are wholly reserved across categories (Bareilly OBC 3 + W 1, "
       "Basti OBC 2 + W 1, Jhansi SC 2 + OBC 1, Saharanpur SC 1 + OBC 2, Varanasi OBC 2 + W 2), none in one "
       "category: 'all_reserved' is contradicted by the record."),
    _O("tie_break", "A14", "assumed_by_code",
       {"population": "equal shares: larger population of the ranking base first, then lower LGD code",
        "code": "equal shares: lower LGD code first",
        "assumed_by_code": "equal shares: larger population first, then lower LGD code; but where the shares are a "
                           "stand-in (OBC assumed at the State share in every unit, no OBC figures given), lower "
                           "LGD code first"},
       "No source settles ties (docs/ambiguities.md A14). Population first keeps the order stable and favours the "
       "larger electorate; the LGD code makes it total. Where the OBC shares are a stand-in (no OBC figures: every "
       "unit at the State share) the tie rule alone picks the OBC units, and by population it takes the largest, "
       "the very units a women's pass that ranks by a population (Zila Panchayat and block chairs, Mayors) would "
       "take next; 'assumed_by_code' breaks those ties by the LGD code instead (independent of every later key). "
       "Held against the shipped published lists (benchmarks/tie_rule_published.py; units with the published "
       "category, population -> assumed_by_code): zp-chair 2015 9 -> 9 and 2021 38 -> 40 of 75; kp-chair 2005 "
       "163 -> 182, 2010 223 -> 205, 2015 225 -> 232; Mayors 2023 8 -> 11 of 17, 2017 3 -> 6 of 16. The "
       "default is 'assumed_by_code' for every body (since 2026-12; before, the Mayors' only): a tie rule of an "
       "unknown order must not decide the next, known pass (issue 18), and 6 of the 7 lists are the same or better "
       "by it (669 -> 685 of 2636 units); kp-chair 2010 is the exception (223 -> 205), zp-chair 2015 is level, "
       "and the panchayat counts are near chance without OBC figures. 'population' stays an option."),
    _O("lots", "A14", "", {}, "Lots drawn by the authority are inputs (CSV unit,lot[,category]); empty = none.",
       kind="path"),
]}


def pick(*names: str, **replace: Option) -> dict[str, Option]:
    """Options of the catalogue by name (in the order given), some replaced by a rulebook's own reading."""
    out = {n: CATALOGUE[n] for n in names}
    out.update(replace)
    return out


def with_default(name: str, default: str, evidence: str) -> Option:
    """The catalogue's option ``name`` with another default and its evidence (a body whose record decides it)."""
    o = CATALOGUE[name]
    if default not in o.readings:
        raise ValueError(f"{default!r} is not a reading of {name}")
    return Option(o.name, o.ambiguity, default, o.readings, evidence, o.kind)
