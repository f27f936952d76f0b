"""Panchayat offices under the GO 2021 (seed b) and the KP & ZP Reservation Rules 1994.

Implemented: **Zila Panchayat chairs (adhyaksh), 75 offices, the State as the counting unit** —
seed b, "जिला पंचायत के अध्यक्ष पदों का आरक्षण की संगणना" (counts, paras 1-3) and "जिला पंचायत के अध्यक्षों
के आरक्षण की संगणना (कुल पदों की संख्या-75)" (allotment, items 1-3); RULES.md §3, §4.1, §6.

Clause names used in the output (seed b is a Government Order of the Panchayati Raj Department, Feb 2021):

- ``GO 2021 ZP-chair counts para 1``: State counts from the State population shares, half-up; OBC at most
  27 %, integer part only; women not less than one-third, rounded up.
- ``GO 2021 ZP-chair counts para 2``: descending order of the category's share of the population of the
  Zila Panchayat's territorial area (प्रादेशिक क्षेत्र, i.e. the rural part of the district).
- ``GO 2021 ZP-chair allotment item 1`` (SC), ``item 2`` (OBC, leaving out SC districts), ``item 3`` (women,
  leaving out SC/OBC districts, by the population outside SC/ST/OBC). Each item: never-reserved districts
  first, the women's posts from the top; then districts not reserved at the last election (2015); and the
  division rule (last sentence of each item).
- ``12th Amendment Rules 2021 r.2(d)``: "previous election" = 2015 and later (base year; RULES.md §6).

Second readings against the published 2021 lists (issue 12; evidence in notes/readings_panchayat.md): the division
rule ranks by the Census 2011 totals as published (``saturation_table``) and the freed district is unreserved
(``saturation_effect``); a base year before the first election of the history is stated as an assumption and a
:class:`BaseYearWarning`; the final 2021 list is part of the shipped history and does not count for 2021.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import pandas as pd

import numpy as np

from ..categories import CODES
from ..engine import LEFT_OUT, Allotment, CategoryPass, EngineSettings, run_passes
from ..errors import InputError
from ..inputs import load_user_inputs, pins_within
from ..options import Option, OptionSet
from ..quota import QuotaRules, category_counts, fmt_fraction
from ..rotation import RotationView, group_codes
from ..units import DATA_DIR, DistrictCrosswalk, int_column, load_districts, read_csv

__all__ = ["ZP_CHAIR_OPTIONS", "zp_chair_options", "zp_chair_counts", "zp_chair_units", "allot_zp_chair",
           "DEFAULT_HISTORY", "POSTS", "PANCHAYAT_ELECTIONS", "BASE_YEAR_READINGS", "base_year_assumption",
           "BaseYearWarning", "census2011_published_totals", "rotation_clause"]

#: Years whose rules are implemented -> the number of offices in the shipped data (one chair per Zila
#: Panchayat, i.e. per district: the count is always the number of districts in the table used).
POSTS = {2021: 75}
DEFAULT_HISTORY = DATA_DIR / "history" / "zp-chair.csv"

#: The panchayat general elections (seed b names 1995, 2000, 2005, 2010 and 2015 as the previous ones of 2021).
PANCHAYAT_ELECTIONS = (1995, 2000, 2005, 2010, 2015, 2021)

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


class BaseYearWarning(UserWarning):
    """The base year asks for elections that the history does not hold."""


def base_year_assumption(history: pd.DataFrame, year: int, base_year: int, body: str) -> str:
    """The assumption a result must state when the history lacks general elections in ``[base_year, year)``.

    Returns '' when every panchayat general election from the base year up to the one before ``year`` has at
    least one record (``PANCHAYAT_ELECTIONS``), or when the history is empty (then every tier reason says "no
    previous election in the history"). Years at or after ``year`` never count (the election itself).
    """
    if not len(history):                   # no history at all: every tier reason already says so
        return ""
    have = sorted({int(y) for y in history["year"]})
    wanted = [y for y in PANCHAYAT_ELECTIONS if base_year <= y < year]
    missing = [y for y in wanted if y not in have]
    if not missing:
        return ""
    used = [y for y in have if base_year <= y < year]
    same = [y for y in wanted if y not in missing]
    text = (f"base year {base_year}: the {body} history holds no record for the general election(s) of "
            f"{', '.join(map(str, missing))}; rotation counts only {', '.join(map(str, used)) or 'no election'}")
    if same and missing == wanted[:len(missing)]:
        text += (f", so 'never reserved in the previous elections since {base_year}' is computed as 'not reserved "
                 f"in {', '.join(map(str, same))}' and the result is the one of base year {same[0]}; supply the "
                 f"missing lists with --history to compute the {base_year} reading")
    else:
        text += "; units are taken as not reserved in the missing elections"
    return text


def rotation_clause(base_year: int) -> str:
    """The clause that makes an election a 'previous election' for rotation, for the base year used."""
    if base_year == 2015:
        return "12th Amendment Rules 2021 r.2(d): previous election = 2015 and later"
    if base_year == 1995:
        return ("GO of 11 Feb 2021 as issued (quashed on 15 Mar 2021): previous elections = 1995, 2000, 2005, "
                "2010, 2015")
    return f"base year {base_year} (given): previous elections = {base_year} and later"


def census2011_published_totals(codes) -> list[int]:
    """Census 2011 district totals as published, for the LGD ``codes`` (data/districts.csv
    ``tot_p_census2011_published``: the 71 Census districts; the four created after 2011 by their rebuilt total)."""
    path = DATA_DIR / "districts.csv"
    raw = read_csv(path, ["district_lgd_code", "tot_p_census2011_published"], what="district table")
    got = dict(zip(int_column(raw, "district_lgd_code", path), int_column(raw, "tot_p_census2011_published", path)))
    return [int(got[int(c)]) for c in codes]


_O = Option
ZP_CHAIR_OPTIONS: dict[str, Option] = {o.name: o for o in [
    _O("sc_st_rounding", "A2", "half_up",
       {"half_up": "SC/ST counts: remainder of half or more counts as one",
        "floor": "SC/ST counts: integer part", "ceil": "SC/ST counts: any remainder counts as one"},
       "seed b counts para 1: 'यदि शेष, भाजक के आधे से कम न हो तो भागफल में एक बढ़ाया जायेगा'; published 2021 "
       "counts SC 16 (75 x 20.6982 % = 15.52) and ST 0 (0.43) fit half-up only (RULES.md A2)."),
    _O("obc_cap_rounding", "A3", "floor",
       {"floor": "27 % cap: integer part only", "half_up": "27 % cap: half-up"},
       "seed b counts para 1, OBC proviso: 'मात्र भागफल के पूर्णांक को ही संज्ञान में लिया जायेगा'. "
       "20.25 -> 20 either way for 75 offices (RULES.md A3)."),
    _O("obc_state_share", "A10", "53.33", {},
       "The rural OBC share of the 2015 rapid survey, as quoted by seed b (KP section) and RULES.md §1; "
       "data/statewide_figures.csv marks the figure itself unverified. The 27 % cap binds for any share "
       "above 27.33 %, so the ZP count (20) does not depend on it.", kind="decimal"),
    _O("general_women", "A5", "total_minus_category",
       {"total_minus_category": "women in all = ceil(N/3); general women = that minus the category women",
        "third_of_rest": "general women = ceil(unreserved remainder / 3)"},
       "seed b counts para 1 (2nd para): one-third of all offices 'including the women of the reserved "
       "categories'; published 2021 ZP list: 12 general women = 25 - 6 - 7 (RULES.md §4.1, A5)."),
    _O("category_order", "A6", "b",
       {"b": "ST-W, ST, SC-W, SC, OBC-W, OBC, W (each group filled in one pass, women from the top)",
        "a": "ST-W, ST, SC-W, OBC-W, SC, OBC, W (each code in its own pass, as the ACS was reported)"},
       "seed b's own order list (आरक्षण की क्रमावली (A)-(G)) and its ZP items 1-3 (SC, then OBC leaving out "
       "SC districts, then women) (RULES.md A6)."),
    _O("category_women", "A7", "top",
       {"top": "a group's women's posts go to its first districts in rotation order",
        "not_women_last": "among the group's districts, those without a women's office at the last "
                          "election take the women's posts first"},
       "seed b ZP item 1: 'सर्वप्रथम आवंटित हुई जिला पंचायतों में ऊपर से अनुमन्य संख्या में ... स्त्री के लिए' "
       "(from the top of the districts allotted first) (RULES.md A7)."),
    _O("rotation_history", "A8", "since_base",
       {"since_base": "tier 1 = never reserved for the group in any election since the base year",
        "last_only": "only the last election counts (tier 1 = tier 2)"},
       "seed b ZP item 1: 'पूर्ववर्ती निर्वाचनों में कभी भी ... आवंटित नहीं रही' (never, in the previous "
       "elections); with the base year 2015 and only the 2015 history the two readings coincide for 2021."),
    _O("women_history", "A8", "general_only",
       {"general_only": "for the women's pass only a W (general women) office counts as 'reserved for women'",
        "any_women": "ST_W, SC_W and OBC_W offices count as 'reserved for women' too"},
       "seed b lists women (G) as a category of its own beside (A), (C), (E); item 3 speaks of the "
       "'स्त्री श्रेणी' (women category) (RULES.md A8 d). Provisional 2021 list (12 Feb 2021): Amethi and Kasganj, "
       "OBC_W in 2015, were given W; under 'any_women' they held a women's office at the last election (tier 3), "
       "while 31 districts of the women's pool (the 39 not SC or OBC in 2021) held none in 2015 and would come "
       "first for the 12 posts, whatever the 1995-2010 history and the OBC order: 'any_women' is contradicted. "
       "The final list fits both readings."),
    _O("rotation_fallback", "A8", "rank",
       {"rank": "when tiers 1-2 cannot fill the posts, the rest follow in descending order ('as far as "
                "possible')", "error": "stop with an error instead"},
       "seed b counts para 2: 'जहाँ तक हो सके' (as far as possible) — rotation yields when it must."),
    _O("count_base", "A10", "state_total",
       {"state_total": "SC/ST counts from the share of the whole State population",
        "state_rural": "SC/ST counts from the share of the State's rural population"},
       "Art. 243D(4) ('population of the State'); seed b 'प्रदेश में उनकी जनसंख्या के अनुपात'; 20.6982 % "
       "and 0.5677 % are whole-State shares and give the published 16 and 0 (RULES.md §1, A10)."),
    _O("rank_base", "A10", "rural",
       {"rural": "rank by shares of the rural population (the ZP's territorial area)",
        "total": "rank by shares of the whole district population"},
       "seed b counts para 2: 'उनके प्रादेशिक क्षेत्र की कुल जनसंख्या' (the population of the ZP's territorial "
       "area = rural); data/SOURCES.md: 14 of 16 districts given SC in 2021 are in the top 16 by rural share."),
    _O("women_rank", "", "general_population",
       {"general_population": "women's pass ranks by the number of people outside SC/ST/OBC",
        "general_share": "women's pass ranks by the share of people outside SC/ST/OBC"},
       "seed b item 3: 'सामान्य की जनसंख्या के आधार पर' and counts para 3: 'अधिक जनसंख्या (जिसमें ... "
       "सम्मिलित नहीं है)' — a population, not a share."),
    _O("division_saturation", "A12", "on",
       {"on": "apply the division rule", "off": "ignore it"},
       "seed b items 1-3, last sentence: if all districts of a division become reserved in the category, "
       "the least populous is made unreserved."),
    _O("saturation_population", "A12", "total",
       {"total": "least populous by total population", "category": "least populous by the category's population"},
       "seed b: 'उस मण्डल के समस्त जिलों को कुल आबादी के आरोही क्रम में' (ascending order of total population)."),
    # -- second readings of issue 12 (notes/readings_panchayat.md): which table ranks the districts of a division,
    #    and what "made unreserved" does to the freed district
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
       "seed b items 1-3, last sentence: 'उस जिले को अनारक्षित कर दिया जायेगा' (that district shall be made "
       "unreserved), not 'shall not be allotted to that category'. Final 2021 list: the freed district, Unnao, is "
       "unreserved (UR); under 'barred' it would be OBC in our computation (OBC shares assumed equal, larger "
       "rural population first), so the record fits the literal reading, but because the OBC order is not "
       "public it cannot refute 'barred'."),
    _O("saturation_scope", "A12", "per_category",
       {"per_category": "a division is saturated when all its districts hold the same group (SC incl. SC-W)",
        "all_reserved": "a division is saturated when all its districts hold any reserved office"},
       "seed b: 'अनुसूचित जाति की श्रेणी में आरक्षित हो जाती हैं' (reserved in the SC category), repeated "
       "per item. Final 2021 list: five divisions are wholly reserved across categories (Bareilly OBC 3 + W 1, "
       "Basti OBC 2 + W 1, Jhansi SC 2 + OBC 1, Saharanpur SC 1 + OBC 2, Varanasi OBC 2 + W 2), none in one "
       "category: 'all_reserved' is contradicted by the record."),
    _O("tie_break", "A14", "population",
       {"population": "equal shares: larger population of the ranking base first, then lower LGD code",
        "code": "equal shares: lower LGD code first"},
       "No source settles ties (RULES.md A14). Population first keeps the order stable when OBC shares are "
       "assumed equal, and favours the larger electorate; the LGD code makes it total."),
    _O("lots", "A14", "", {}, "Lots drawn by the authority are inputs (CSV unit,lot[,category]); empty = none.",
       kind="path"),
]}


def zp_chair_options(assignments=()) -> OptionSet:
    opts = OptionSet(dict(ZP_CHAIR_OPTIONS))
    for name, value in assignments:
        opts.set(name, value)
    return opts


def _quota_rules(opts: OptionSet) -> QuotaRules:
    return QuotaRules(sc_st_rounding=opts["sc_st_rounding"], obc_cap_rounding=opts["obc_cap_rounding"],
                      general_women=opts["general_women"],
                      clause_sc_st="GO 2021 ZP-chair counts para 1 (s.19-A KP&ZP Adhiniyam 1961): half-up",
                      clause_obc="GO 2021 ZP-chair counts para 1, proviso: OBC at most 27 %, integer part only",
                      clause_women="GO 2021 ZP-chair counts para 1 (2nd para): women not less than 1/3, "
                                   "rounded up",
                      clause_ur="the offices left after the reserved categories and women")


def state_shares(districts: pd.DataFrame, opts: OptionSet) -> dict[str, Fraction]:
    """SC/ST shares of the State (whole or rural, A10) from the district table; OBC from the option."""
    if opts["count_base"] == "state_total":
        pop, sc, st = districts["pop_total"].sum(), districts["sc_total"].sum(), districts["st_total"].sum()
    else:
        pop, sc, st = districts["pop_rural"].sum(), districts["sc_rural"].sum(), districts["st_rural"].sum()
    return {"SC": Fraction(int(sc), int(pop)), "ST": Fraction(int(st), int(pop)),
            "OBC": opts.fraction("obc_state_share") / 100}


def zp_chair_counts(year: int = 2021, opts: OptionSet | None = None, districts: pd.DataFrame | None = None
                    ) -> pd.DataFrame:
    """State counts of ZP chair offices per category (columns category, count, arithmetic, clause)."""
    if year not in POSTS:
        raise InputError(f"zp-chair: year {year} is not implemented (known: {', '.join(map(str, POSTS))})",
                         column="year")
    opts = opts or zp_chair_options()
    districts = districts if districts is not None else load_districts()
    return category_counts(len(districts), state_shares(districts, opts), _quota_rules(opts))


def zp_chair_units(opts: OptionSet, population: pd.DataFrame | None = None,
                   districts: pd.DataFrame | None = None) -> tuple[pd.DataFrame, list[str]]:
    """The 75 districts with the ranking populations ``pop, sc, st, obc, general`` (Fractions where assumed).

    Returns ``(units, assumptions)``. Without an ``obc`` column in ``population`` every district is assumed
    to have the State OBC share (the option ``obc_state_share``): the assumption is returned and repeated in
    every OBC and women row.
    """
    d = (districts if districts is not None else load_districts()).copy()
    base = opts["rank_base"]
    if base == "rural":
        d["pop"], d["sc"], d["st"] = d["pop_rural"], d["sc_rural"], d["st_rural"]
    else:
        d["pop"], d["sc"], d["st"] = d["pop_total"], d["sc_total"], d["st_total"]
    assumptions = []
    have_obc = False
    if population is not None:
        pmap = population.set_index("unit_code")
        for col in ("pop", "sc", "st"):
            if col in pmap.columns:
                d[col] = [int(pmap.at[c, col]) if c in pmap.index else int(v) for c, v in zip(d["unit_code"], d[col])]
        if "obc" in pmap.columns:
            missing = [int(c) for c in d["unit_code"] if c not in pmap.index]
            if missing:
                raise InputError(f"gives 'obc' but not for {len(missing)} district(s), e.g. LGD {missing[0]}",
                                 file=population.attrs.get("path"), column="obc")
            d["obc"] = [int(pmap.at[c, "obc"]) for c in d["unit_code"]]
            have_obc = True
        for c, row in zip(pmap.index, pmap["_row"]):
            r = d[d["unit_code"] == c].iloc[0]
            parts = int(r["sc"]) + int(r["st"]) + (int(r["obc"]) if have_obc else 0)
            if parts > int(r["pop"]):
                raise InputError(f"sc + st{' + obc' if have_obc else ''} = {parts} exceeds pop = {int(r['pop'])}",
                                 file=population.attrs.get("path"), row=int(row), column="pop")
    share = opts.fraction("obc_state_share") / 100
    if not have_obc:
        d["obc"] = [Fraction(int(p)) * share for p in d["pop"]]
        assumptions.append(
            f"OBC population by district is not public and was not supplied (--population with an 'obc' "
            f"column): every district is assumed to have the State share {opts['obc_state_share']} % of its "
            f"{'rural' if base == 'rural' else 'total'} population, so the OBC order falls to the tie-break "
            f"rule ({opts['tie_break']}) and rotation")
    d["general"] = [Fraction(int(p)) - int(sc) - int(st) - Fraction(o)
                    for p, sc, st, o in zip(d["pop"], d["sc"], d["st"], d["obc"])]
    return d, assumptions


def _pct(x: Fraction) -> str:
    return f"{fmt_fraction(Fraction(x) * 100, 4)} %"


def _people(x: Fraction) -> str:
    x = Fraction(x)
    return f"{x.numerator:,} people" if x.denominator == 1 else f"{fmt_fraction(x, 2)} people (OBC assumed)"


def allot_zp_chair(year: int = 2021, *, history_paths=None, base_year: int = 2015, population_path=None,
                   pin_path=None, options=(), districts: pd.DataFrame | None = None,
                   history: pd.DataFrame | None = None) -> Allotment:
    """The Zila Panchayat chair allotment: one row per district, with the trace of every rule step.

    ``history_paths``: history CSVs (unit, year, category); None = the shipped 2015 outcomes.
    ``options``: ``[(name, value), ...]`` of :data:`ZP_CHAIR_OPTIONS`. Everything is validated before any
    computation; bad input raises :class:`~reservation.errors.InputError`.
    """
    opts = options if isinstance(options, OptionSet) else zp_chair_options(options)
    dist = districts if districts is not None else load_districts()
    cw = DistrictCrosswalk(dist)
    given = load_user_inputs(cw.resolve, history_paths=history_paths, default_history=DEFAULT_HISTORY,
                             history=history, population_path=population_path, pin_path=pin_path,
                             lots_path=opts["lots"])
    history, population, lots, inputs = given.history, given.population, given.lots, given.described
    counts = zp_chair_counts(year, opts, dist)
    n = dict(zip(counts["category"], counts["count"]))
    pins = pins_within(given.pins, pin_path, lambda u: "*", lambda place, code: n[code])

    units, assumptions = zp_chair_units(opts, population, dist)
    rotation = RotationView(history, year, base_year, opts["rotation_history"])
    obc_note = assumptions[0] if assumptions else ""
    base_note = base_year_assumption(history, year, base_year, "zp-chair")
    if base_note:                          # said loudly: first assumption of the result, and a warning
        assumptions.insert(0, base_note)
        warnings.warn(base_note, BaseYearWarning, stacklevel=2)
    base_word = "rural" if opts["rank_base"] == "rural" else "total"
    satpop = None
    if opts["saturation_population"] == "total":
        satpop = units["pop_total"]
        if opts["saturation_table"] == "census2011_published" and districts is None:
            satpop = pd.Series(census2011_published_totals(units["unit_code"]), index=units.index)

    def share(col):
        return pd.Series([Fraction(v) / int(p) if int(p) else Fraction(0) for v, p in zip(units[col], units["pop"])],
                         index=units.index)

    rot_clause = rotation_clause(base_year)
    specs = {
        "ST": dict(key=share("st"), key_label=f"ST share of the {base_word} population", key_format=_pct,
                   clause="GO 2021 ZP-chair counts para 2 (ST in descending order of ST share)",
                   clause_women="GO 2021 ZP-chair counts para 3 (ST women from the top)",
                   clause_saturation="GO 2021 ZP-chair allotment item 1 (division rule, applied to ST)",
                   sat="st"),
        "SC": dict(key=share("sc"), key_label=f"SC share of the {base_word} population", key_format=_pct,
                   clause="GO 2021 ZP-chair allotment item 1 (SC in descending order, never reserved first)",
                   clause_women="GO 2021 ZP-chair allotment item 1 (SC women from the top of the first allotted)",
                   clause_saturation="GO 2021 ZP-chair allotment item 1, last sentence (division rule)", sat="sc"),
        "OBC": dict(key=share("obc"), key_label=f"OBC share of the {base_word} population", key_format=_pct,
                    clause="GO 2021 ZP-chair allotment item 2 (OBC, leaving out SC districts)",
                    clause_women="GO 2021 ZP-chair allotment item 2 (OBC women from the top)",
                    clause_saturation="GO 2021 ZP-chair allotment item 2, last sentence (division rule)",
                    sat="obc", note=obc_note),
        "GEN": dict(key=(units["general"].copy() if opts["women_rank"] == "general_population" else share("general")),
                    key_label=(f"{base_word} population outside SC/ST/OBC" if opts["women_rank"] ==
                               "general_population" else f"share of the {base_word} population outside SC/ST/OBC"),
                    key_format=(_people if opts["women_rank"] == "general_population" else _pct),
                    clause="GO 2021 ZP-chair allotment item 3 (women, leaving out SC/OBC districts)",
                    clause_women="GO 2021 ZP-chair allotment item 3 (women, leaving out SC/OBC districts)",
                    clause_saturation="GO 2021 ZP-chair allotment item 3, last sentence (division rule)",
                    sat="general", note=obc_note),
    }

    def make(group, slots, barred=None):
        s = specs[group]
        sat = satpop if satpop is not None else pd.Series([Fraction(v) for v in units[s["sat"]]], index=units.index)
        kw = {}
        if barred is not None and barred.any():
            kw = dict(eligible=~barred, eligible_reason=freed_reason, clause_eligible=freed_clause)
        return CategoryPass(group=group, slots=slots, key=s["key"], key_label=s["key_label"],
                            key_format=s["key_format"],
                            history_codes=group_codes(group, opts["women_history"]),
                            population=units["pop"], saturation_population=sat, clause=s["clause"],
                            clause_women=s["clause_women"], clause_saturation=s["clause_saturation"],
                            clause_rotation=rot_clause, note=s.get("note", ""), **kw)

    if opts["category_order"] == "b":
        plan = [("ST", [("ST_W", n["ST_W"]), ("ST", n["ST"])]), ("SC", [("SC_W", n["SC_W"]), ("SC", n["SC"])]),
                ("OBC", [("OBC_W", n["OBC_W"]), ("OBC", n["OBC"])]), ("GEN", [("W", n["W"])])]
    else:
        plan = [("ST", [("ST_W", n["ST_W"]), ("ST", n["ST"])]), ("SC", [("SC_W", n["SC_W"])]),
                ("OBC", [("OBC_W", n["OBC_W"])]), ("SC", [("SC", n["SC"])]), ("OBC", [("OBC", n["OBC"])]),
                ("GEN", [("W", n["W"])])]
    settings = EngineSettings(tie_break=opts["tie_break"], lots=lots, category_women=opts["category_women"],
                              rotation_fallback=opts["rotation_fallback"],
                              division_saturation=opts["division_saturation"],
                              saturation_scope=opts["saturation_scope"])
    settings.ur_clause = ("GO 2021 ZP-chair counts para 1: offices left after the reserved categories and "
                          "women are unreserved")
    # saturation_effect=unreserved (literal reading of 'उस जिले को अनारक्षित कर दिया जायेगा'): a district left out
    # by the division rule in pass k is not eligible in the passes after k. PROTOTYPE on today's engine: run, collect
    # the districts left out, rerun with them barred from the later passes, until nothing new is freed (each rerun
    # repeats passes 0..k unchanged, so the set only grows). The rebuilt pipeline should do this inside its pass
    # loop, with its own decision code (`left_out_division` in the freeing pass, then `unreserved`).
    freed_reason = ("made unreserved by the division rule in an earlier pass (option saturation_effect=unreserved: "
                    "'उस जिले को अनारक्षित कर दिया जायेगा')")
    freed_clause = "GO 2021 ZP-chair allotment items 1-3, last sentence (division rule: the district is unreserved)"
    freed_in: dict[int, int] = {}            # unit position -> index of the pass that left it out
    while True:
        passes = []
        for k, (group, slots) in enumerate(plan):
            barred = np.zeros(len(units), dtype=bool)
            for pos, j in freed_in.items():
                if j < k:
                    barred[pos] = True
            passes.append(make(group, slots, barred))
        engine = run_passes(units, passes, rotation, settings, pins)
        if opts["saturation_effect"] != "unreserved":
            break
        new = {int(pos): rec.index for rec in engine.records
               for pos in rec.unit[rec.decision == LEFT_OUT] if int(pos) not in freed_in}
        if not new:
            break
        freed_in.update(new)
    meta = {"body": "zp-chair", "year": year, "base_year": base_year, "posts": len(dist),
            "history_years": rotation.years, "options": opts.record(), "inputs": inputs,
            "assumptions": assumptions, "counts": {c: int(v) for c, v in n.items() if c in CODES},
            "base_year_reading": BASE_YEAR_READINGS.get(base_year, "")}
    got = pd.Series(np.asarray(CODES)[engine.category]).value_counts().to_dict()
    for c in CODES:
        if got.get(c, 0) != n[c]:
            raise AssertionError(f"conservation broken: {c} {got.get(c, 0)} != {n[c]}")
    # the history a result carries is the one it counted: records of the election year itself and later (e.g. the
    # published 2021 list in data/history/zp-chair.csv when computing 2021) are listed in meta, not shown as past
    later = sorted({int(y) for y in history["year"] if int(y) >= year})
    meta["history_not_counted"] = later
    return Allotment(engine=engine, counts=counts, meta=meta, history=history[history["year"] < year],
                     resolve=cw.resolve)
