"""Kshetra Panchayat (block) pramukhs under the GO 2021: State -> district -> block.

GO 2021, "विकास खण्ड के प्रमुख पदों के आरक्षण की संगणना" (State counts), "राज्य स्तर पर खण्डों में प्रमुखों के पदों
के आरक्षण की संगणना (कुल पदों की संख्या-826)" (shares of the districts) and "आरक्षित प्रमुख पदों का आवंटन व
चक्रानुक्रम" items 1-10 (allotment to blocks inside a district); docs/panchayat.md.

1. State counts (KP counts para 1-2): SC, ST half-up from the State shares, OBC at most 27 % (integer part).
2. Districts (para "राज्य स्तर पर ..." 1): ST posts in proportion to the district's share of the State's rural ST
   population (largest remainder; seed example: 20 % of 5 -> 1). SC: ``blocks x rural SC / rural population``,
   capped at 20.6982 % of the district's blocks; what the State total still lacks goes one post at a time to the
   districts whose rural SC share is above 20.6982 %, in descending order, round after round. OBC the same with
   27 % and 53.33 %. Issue 12 readings (notes/readings_panchayat.md): the cap binds only districts above the
   percentage (``sc_cap_scope``/``obc_cap_scope``), the SC cap is in whole posts half-up (``sc_cap_rounding``),
   district shares come from the sums of their blocks (``district_population``): together they give the published
   ST-W 4, SC-W 86 and 300 women; which districts are above 53.33 % OBC is an input (``obc_above_state`` or
   ``--population`` with ``obc``). Women: one-third, rounded up, of each category and of all posts **in each district**
   (A4: the published totals ST-W 4, SC-W 86, OBC-W 97, W 113 fit per-district rounding).
3. Blocks (items 1-10): descending share of the category in the block's population; never-reserved first,
   then not reserved at the last election; the women's posts from the top; the two-person rule (item 2: a block
   with fewer than two persons of the category never gets it); OBC leaves out ST and SC blocks (item 9); women
   by the population outside SC/ST/OBC (items 4, 10).

The two LGD blocks with no gram panchayat in the LGD block-panchayat table (Dankaur, Gautam Buddh Nagar and
Kubernath, Kushinagar) are not Kshetra Panchayats in 2021: 828 - 2 = 826, the official count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import partial
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from ..law.apportion import (largest_remainder, largest_remainder_numbers, remainder_table, shortfall_numbers,
                             shortfall_table)
from .catalogue import option, pick, with_default
from .parameters import record_base_years, value, written
from ..base.errors import InputError
from ..inputs.user_files import describe_input
from .keys import outside_people, share, two_persons
from ..inputs.options import Option, OptionSet
from ..law.arithmetic import DistrictGeneralWomen, DistrictLeft, DistrictWomen, GroupArithmetic, count_parts
from ..law.words_counts import Said, said, step_words
from ..law.quota import counts_table, fmt_fraction
from ..law.rounding import ceil
from .rulebook import Counts, Group, Rulebook, UnitSet, slots_from_split
from .kp_districts import district_populations, district_slots_of
from ..inputs.units import DATA_DIR, int_column, load_districts, read_csv
from ..inputs.names import crosswalk
from .zp_chair import CLAUSES_HI as ZP_CLAUSES_HI
from .zp_chair import CLAUSES as ZP_CLAUSES, PANCHAYAT_ORDERS, PANCHAYAT_YEARS, panchayat_obc_share, quota_rules
from .zp_chair import state_shares

__all__ = ["RULEBOOK", "KP_CHAIR_OPTIONS", "load_blocks", "block_index", "kp_state_counts",
           "kp_district_counts", "DISTRICT_COLUMNS", "obc_above_state"]

DEFAULT_HISTORY = DATA_DIR / "history" / "kp-chair.csv"


def sc_cap(year: int) -> Fraction:
    """The State SC share the GO quotes (20.6982 % in 2021): a district's SC cap and the share above which it
    takes the SC shortfall (rules/params/law.toml kp_chair.sc_cap, for the rules of ``year``)."""
    return value("kp_chair.sc_cap", PANCHAYAT_YEARS.rules_year(year))


def obc_cap(year: int) -> Fraction:
    """A district's OBC cap (27 % in 2021; law.toml kp_chair.obc_cap)."""
    return value("kp_chair.obc_cap", PANCHAYAT_YEARS.rules_year(year))


_SC_CAP_SHOWN = fmt_fraction(sc_cap(2021) * 100)                       # "20.6982", as the GO 2021 writes it
_OBC_CAP_SHOWN = fmt_fraction(obc_cap(2021) * 100, 0)                  # "27"
_OBC_STATE_SHOWN = written("panchayat.obc_state_share", 2021)        # "53.33"

CLAUSE_STATE = "GO 2021 KP-pramukh counts para 1-2 (s.7-A KP&ZP Adhiniyam 1961)"
CLAUSE_ST = "GO 2021 KP-pramukh district shares para 1 (ST in proportion to the district's rural ST; example 20 % of 5 -> 1)"
CLAUSE_SC = (f"GO 2021 KP-pramukh district shares: SC formula, {_SC_CAP_SHOWN} % cap, shortfall one post at a "
             f"time to districts above {_SC_CAP_SHOWN} %")
CLAUSE_OBC = (f"GO 2021 KP-pramukh district shares: OBC formula, {_OBC_CAP_SHOWN} % cap, shortfall one post at "
              f"a time to districts above {_OBC_STATE_SHOWN} %")
CLAUSE_WOMEN = "GO 2021 KP-pramukh allotment items 3-4 (women not less than one-third in the district, rounded up)"
#: the State counts' clauses (CLAUSE_STATE and these), and all three in Hindi (the GO's words: docs/glossary.md)
COUNT_CLAUSES = {"count.sc_st": ": half-up", "count.obc": ", proviso: OBC at most 27 %, integer part only",
                 "count.women": " (2nd para): women not less than 1/3, rounded up"}
CLAUSE_STATE_HI = ("शासनादेश 2021, क्षेत्र पंचायत प्रमुखों के पदों की संगणना, प्रस्तर 1-2 (क्षेत्र पंचायत तथा जिला पंचायत "
                   "अधिनियम 1961 की धारा 7-क)")
COUNT_CLAUSES_HI = {"count.sc_st": ": शेष भाजक के आधे से कम न हो तो एक बढ़ाया गया",
                    "count.obc": ", परन्तुक: पिछड़े वर्ग अधिकतम 27 प्रतिशत, केवल पूर्णांक",
                    "count.women": " (दूसरा अनुच्छेद): स्त्रियाँ एक-तिहाई से अन्यून, ऊपर की ओर पूर्णांकित"}
_SHARES_HI = "शासनादेश 2021, क्षेत्र पंचायत प्रमुखों के पदों का जिलों में अंश"
CLAUSE_ST_HI = (f"{_SHARES_HI}, प्रस्तर 1 (अनुसूचित जनजाति, जिले की ग्रामीण अनुसूचित जनजाति जनसंख्या के अनुपात में; उदाहरण: "
                "5 का 20 प्रतिशत → 1)")
CLAUSE_SC_HI = (f"{_SHARES_HI}: अनुसूचित जाति का सूत्र, {_SC_CAP_SHOWN} प्रतिशत की अधिकतम सीमा, कमी के पद एक-एक करके "
                f"{_SC_CAP_SHOWN} प्रतिशत से अधिक वाले जिलों को")
CLAUSE_OBC_HI = (f"{_SHARES_HI}: पिछड़े वर्गों का सूत्र, {_OBC_CAP_SHOWN} प्रतिशत की अधिकतम सीमा, कमी के पद एक-एक करके "
                 f"{_OBC_STATE_SHOWN} प्रतिशत से अधिक वाले जिलों को")
CLAUSE_WOMEN_HI = ("शासनादेश 2021, क्षेत्र पंचायत प्रमुखों के पदों का आवंटन, मद 3-4 (जिले में स्त्रियाँ एक-तिहाई से अन्यून, "
                   "ऊपर की ओर पूर्णांकित)")

KP_CHAIR_OPTIONS: dict[str, Option] = pick("sc_st_rounding", "obc_cap_rounding", "obc_state_share", "general_women",
                                            "category_order", "category_women", "rotation_history", "women_history",
                                            "rotation_fallback", "count_base", "tie_break", "lots")
#: the pramukh lists of 2005-2015 decide which elections counted at 2010 and 2015 (docs/ambiguities.md A8)
KP_CHAIR_OPTIONS["rotation_history"] = with_default("kp_chair", "rotation_history", "since_base")
KP_CHAIR_OPTIONS.update({o.name: o for o in [
    option("kp_chair", "women_level", "district",
           {"district": "women one-third (rounded up) of each category and of all posts in each district",
            "state": "women one-third of the State counts, shared among districts by largest remainder"}),
    option("kp_chair", "district_population", "block_sums",
           {"district_table": "district shares from the Census rural population of the district (data/districts.csv)",
            "block_sums": "district shares from the sum of the district's blocks (villages covered by urban "
                          "bodies left out)"}),
    # -- second readings of issue 12 (notes/readings_panchayat.md): the district caps and the OBC shortfall set
    option("kp_chair", "sc_cap_scope", "share",
           {"share": "the 20.6982 % cap applies only to districts whose rural SC share is above 20.6982 %; the "
                     "others keep their rounded formula",
            "number": "the cap applies where the rounded formula count is above 20.6982 % of the blocks",
            "every": "every district: min(rounded formula, rounded cap) (the engine before issue 12)"}),
    option("kp_chair", "sc_cap_rounding", "half_up",
           {"half_up": "the 20.6982 % cap in whole posts, a remainder of one-half or more counting as one",
            "floor": "the 20.6982 % cap, integer part only"}),
    option("kp_chair", "obc_cap_scope", "share",
           {"share": "the 27 % cap applies only to districts whose rural OBC share is above 27 %",
            "number": "the cap applies where the rounded formula count is above 27 % of the blocks",
            "every": "every district: min(rounded formula, rounded cap)"}),
    option("kp_chair", "obc_above_state", "", {}, kind="path"),
    option("kp_chair", "shortfall_fallback", "all_groups",
           {"all_groups": "if no district is above the State share, the shortfall goes to all districts in "
                          "descending order (noted)", "error": "stop with an error"}),
    option("kp_chair", "shortfall_excess", "lowest_share",
           {"lowest_share": "if the capped formula gives more than the State count, posts are taken back one at a "
                            "time from the districts with the lowest share", "error": "stop with an error"}),
]})


def load_blocks(year: int = 2021, path=None) -> tuple[pd.DataFrame, list[str]]:
    """The Kshetra Panchayats of ``year`` with their rural Census 2011 population.

    2021 and later: the LGD blocks with a gram panchayat (826). 2005, 2010, 2015 (shipped table only): the
    blocks of that election in ``data/kp_blocks_by_year.csv`` (820, 821, 821: the SEC lists crosswalked to LGD;
    2015 = its list of 816 and the 5 blocks it lacks, see data/README.md); 1995 and 2000, whose lists are not
    shipped: the 2005 blocks, said in the notes. A user's table (``path``) is the list of the year as given.
    Columns: ``unit_code`` (LGD block code), ``unit_name_en``, ``unit_name_hi`` (SEC-UP 2015 spelling, '' for
    blocks created later), ``district``, ``district_lgd_code``, ``division``, ``pop``, ``sc``, ``st``.
    Returns ``(blocks, notes)``.
    """
    from_shipped = path is None
    path = Path(path) if path else DATA_DIR / "blocks_census2011.csv"
    raw = read_csv(path, ["district_lgd_code", "block_lgd_code", "block_name", "sec2015_block_hi", "lgd_gp_count",
                          "tot_p_rural", "sc_rural", "st_rural"], what="block table")
    df = pd.DataFrame({"unit_code": int_column(raw, "block_lgd_code", path),
                       "district_lgd_code": int_column(raw, "district_lgd_code", path),
                       "unit_name_en": raw["block_name"], "unit_name_hi": raw["sec2015_block_hi"],
                       "gps": int_column(raw, "lgd_gp_count", path, allow_blank=True).fillna(0).astype(int),
                       "pop": int_column(raw, "tot_p_rural", path), "sc": int_column(raw, "sc_rural", path),
                       "st": int_column(raw, "st_rural", path), "_row": raw["_row"]})
    dup = df[df["unit_code"].duplicated()]
    if len(dup):
        raise InputError("duplicate block code", file=str(path), row=int(dup["_row"].iat[0]), column="block_lgd_code")
    bad = df[df["sc"] + df["st"] > df["pop"]]
    if len(bad):
        raise InputError("sc + st exceeds the rural population", file=str(path), row=int(bad["_row"].iat[0]),
                         column="sc_rural")
    dist = load_districts()[["unit_code", "unit_name_en", "division"]].rename(
        columns={"unit_code": "district_lgd_code", "unit_name_en": "district"})
    df = df.merge(dist, on="district_lgd_code", how="left", validate="many_to_one")
    if df["district"].isna().any():
        r = df[df["district"].isna()].iloc[0]
        raise InputError(f"unknown district LGD code {r['district_lgd_code']}", file=str(path), row=int(r["_row"]),
                         column="district_lgd_code")
    notes = []
    gone = df[df["gps"] == 0]
    if year >= 2021 and len(gone):
        notes.append(_left_out(gone, year))
        df = df[df["gps"] > 0]
    elif year < 2021 and from_shipped:
        df, note = _blocks_of_year(df, year)
        notes.append(note)
    cols = ["unit_code", "unit_name_en", "unit_name_hi", "district", "district_lgd_code", "division", "pop", "sc",
            "st", "gps"]
    return df[cols].sort_values(["district", "unit_code"], kind="stable").reset_index(drop=True), notes


def _left_out(gone: pd.DataFrame, year: int):
    """The note on the blocks left out for having no gram panchayat: each named with its district, in English and
    (where the data give them) in Hindi."""
    from ..law.words_counts import Said
    from ..law.words_notes import Note
    districts = load_districts()
    hi = dict(zip(districts["unit_code"], districts["unit_name_hi"]))
    en = ", ".join(f"{a} ({b})" for a, b in zip(gone["unit_name_en"], gone["district"]))
    names_hi = ", ".join(f"{a or e} ({hi.get(c) or d})" for a, e, c, d in
                         zip(gone["unit_name_hi"].fillna(""), gone["unit_name_en"], gone["district_lgd_code"],
                             gone["district"]))
    return Note("kp.left_out", year=year, names=Said(en, names_hi))


def _blocks_of_year(df: pd.DataFrame, year: int) -> tuple[pd.DataFrame, str]:
    """The rows of ``df`` that were Kshetra Panchayats at the election of ``year`` (data/kp_blocks_by_year.csv),
    with the note that says which blocks were left out and why."""
    path = DATA_DIR / "kp_blocks_by_year.csv"
    raw = read_csv(path, ["block_lgd_code", "block_en", "district_en", "why"], what="blocks by year")
    known = sorted(int(c[3:]) for c in raw.columns if re.fullmatch(r"kp_\d{4}", c) and int(c[3:]) < 2021)
    use = year if year in known else known[0]
    keep = set(int(c) for c, k in zip(raw["block_lgd_code"], raw[f"kp_{use}"]) if k == "1")
    out = df[df["unit_code"].isin(keep)]
    lost = raw[raw[f"kp_{use}"] != "1"]
    groups: dict[str, list[str]] = {}
    for a, b, w in zip(lost["block_en"], lost["district_en"], lost["why"]):
        groups.setdefault(w, []).append(f"{a} ({b})")
    note = (f"the Kshetra Panchayats of {year}: {len(out)} (data/kp_blocks_by_year.csv, column kp_{use}"
            + ("" if use == year else f": the block list of {year} is not shipped, the {use} list's blocks are "
                                       f"assumed") + "); left out: "
            + "; ".join(f"{', '.join(v)} ({w})" for w, v in groups.items()))
    if f"listed_{use}" in raw.columns:
        kept = raw[(raw[f"kp_{use}"] == "1") & (raw[f"listed_{use}"] != "1")]
        if len(kept):
            note += (f"; kept, though the {use} list lacks them: "
                     + ", ".join(f"{a} ({b})" for a, b in zip(kept["block_en"], kept["district_en"])))
    return out, note


def block_index(blocks: pd.DataFrame):
    """The crosswalk of the blocks: an LGD code, ``"Block, District"`` or ``"Block (District)"`` (English or
    Hindi, any spelling variant), or a block name unique in the State (:class:`reservation.inputs.names.NameIndex`)."""
    from ..inputs.names import NameIndex
    return NameIndex.from_frame(blocks, kind="block", parent="district_lgd_code", weights="pop")


def kp_state_counts(year: int, opts: OptionSet, blocks: pd.DataFrame) -> pd.DataFrame:
    """State counts with State-level women (KP counts para 1-2), before the districts are considered."""
    return counts_table(kp_state_parts(year, opts, blocks))


def kp_state_parts(year: int, opts: OptionSet, blocks: pd.DataFrame) -> list[tuple]:
    """The rows of :func:`kp_state_counts` with their arithmetic as typed parts (law.arithmetic.count_parts)."""
    rules = quota_rules(opts, {**ZP_CLAUSES, **{k: CLAUSE_STATE + v for k, v in COUNT_CLAUSES.items()}}, year,
                        {**ZP_CLAUSES_HI, **{k: CLAUSE_STATE_HI + v for k, v in COUNT_CLAUSES_HI.items()}})
    return count_parts(len(blocks), state_shares(load_districts(), opts), rules)


def _category_sums(dc: pd.DataFrame) -> dict:
    """(category, column) -> the sum over the districts of ``women``, ``others`` and ``final`` (whole numbers; a
    dict, not a groupby: a projection restates the State counts for every sample)."""
    out: dict = {}
    cats = dc["category"].tolist()
    for col in ("women", "others", "final"):
        for cat, v in zip(cats, dc[col].tolist()):
            out[cat, col] = out.get((cat, col), 0) + int(v)
    return out


def with_district_women(parts: list[tuple], dc: pd.DataFrame, opts: OptionSet,
                        lang: str = "en") -> pd.DataFrame:
    """The State counts (:func:`kp_state_parts`) as a table in ``lang``, the women's rows replaced by the district
    sums (``women_level=district``): a group's arithmetic is restated with its women counted in the districts."""
    if opts["women_level"] != "district":
        return counts_table(parts, lang)
    n = {code: count for code, count, _, _ in parts}
    sums = _category_sums(dc)
    women = Said(CLAUSE_WOMEN, CLAUSE_WOMEN_HI)
    rows = {}                                   # category -> (category, count, arithmetic, clause), restated
    for code, count, a, clause in parts:
        rows[code] = (code, count, replace(a, women=sums[code, "women"], others=sums[code, "others"],
                                           women_where="districts") if isinstance(a, GroupArithmetic) else a, clause)
    for g in ("ST", "SC", "OBC"):
        rows[f"{g}_W"] = (f"{g}_W", sums[g, "women"],
                          DistrictWomen(n[g] + n[f"{g}_W"], n[f"{g}_W"], sums[g, "women"]), women)
        rows[g] = (g, sums[g, "others"], *rows[g][2:])
    rows["W"] = ("W", sums["W", "final"], DistrictGeneralWomen(n["W"], sums["W", "final"]), women)
    rows["UR"] = ("UR", sums["UR", "final"], DistrictLeft(sums["UR", "final"]), rows["UR"][3])
    out = counts_table(list(rows.values()), lang)
    assert int(out["count"][:-1].sum()) == int(out["count"].iat[-1])
    return out


#: Columns of :func:`kp_district_counts`.
DISTRICT_COLUMNS = ["district", "district_lgd_code", "blocks", "category", "share", "formula", "cap", "initial",
                    "shortfall_posts", "shortfall_rounds", "final", "women", "others", "arithmetic", "clause"]


@dataclass
class _DistrictNumbers:
    """The posts per district and category (:func:`_district_numbers`): the districts' table (kept: read only),
    the ST apportionment (:func:`largest_remainder_numbers`), the SC and OBC ones (:func:`shortfall_numbers`),
    the finals, the women's posts, the reserved posts, the women's clause and the notes."""

    d: pd.DataFrame
    st: tuple
    sc: list
    obc: list
    finals: dict
    women: dict
    reserved: np.ndarray
    women_clause: Said
    notes: list
    slot_order: tuple


def _district_numbers(year: int, opts: OptionSet, blocks: pd.DataFrame, state: dict[str, int],
                      population: pd.DataFrame | None = None) -> _DistrictNumbers:
    """Posts per district and category, numbers only (the one computation: :func:`kp_district_counts` renders
    its table from it, and a projection's samples read only its posts, :func:`district_slots`)."""
    d, obc, c = district_populations(blocks, opts, population)
    notes: list[str] = []
    obc_share_state = opts.fraction("obc_state_share") / 100
    names, n_blocks, pop = c["district"], c["blocks"], c["pop"]
    st = largest_remainder_numbers(state["ST"] + state["ST_W"], names, c["st"], upper=n_blocks, tie=pop,
                                   what="ST posts", group_word="district")
    st_final = [f + e for f, e in zip(st[2], st[3])]
    room = [int(b) - f for b, f in zip(n_blocks, st_final)]
    sc, n1 = shortfall_numbers(state["SC"] + state["SC_W"], names, n_blocks, c["sc_share"], cap=sc_cap(year),
                               state_share=sc_cap(year), upper=room, cap_rounding=opts["sc_cap_rounding"],
                               cap_scope=opts["sc_cap_scope"], fallback=opts["shortfall_fallback"],
                               excess=opts["shortfall_excess"], tie=pop, what="SC posts", group_word="district")
    room = [r - x.final for r, x in zip(room, sc)]
    obc_shares, above = _obc_shares(d, obc, opts, obc_share_state, notes)
    ob, n2 = shortfall_numbers(state["OBC"] + state["OBC_W"], names, n_blocks, obc_shares, cap=obc_cap(year),
                               state_share=obc_share_state, upper=room,
                               cap_rounding="floor" if opts["obc_cap_rounding"] == "floor" else "half_up",
                               cap_scope=opts["obc_cap_scope"], eligible_order=above,
                               eligible_source="option obc_above_state", fallback=opts["shortfall_fallback"],
                               excess=opts["shortfall_excess"], tie=pop, what="OBC posts", group_word="district")
    notes += [f"SC: {x}" for x in n1] + [f"OBC: {x}" for x in n2]
    finals = {"ST": np.array(st_final, dtype=np.int64), "SC": np.array([x.final for x in sc], dtype=np.int64),
              "OBC": np.array([x.final for x in ob], dtype=np.int64)}
    women, reserved, women_clause = _district_women(d, opts, state, finals, year)
    for i, k in enumerate(n_blocks):
        if int(k) - int(reserved[i]) - int(women["GEN"][i]) < 0:
            raise InputError(f"{names[i]}: reserved posts and women exceed its {int(k)} blocks", column="district")
    return _DistrictNumbers(d, st, sc, ob, finals, women, reserved, women_clause, notes, c["slots"])


def kp_district_counts(year: int, opts: OptionSet, blocks: pd.DataFrame, state: dict[str, int],
                       population: pd.DataFrame | None = None, lang: str = "en") -> tuple[pd.DataFrame, list[str]]:
    """Posts per district and category: ST by largest remainder, SC and OBC capped with the shortfall cycle,
    women per district. Returns the long table (:data:`DISTRICT_COLUMNS`, its arithmetic and clauses in ``lang``)
    and notes: the words of :func:`_district_numbers`."""
    x = _district_numbers(year, opts, blocks, state, population)
    d, women, reserved = x.d, x.women, x.reserved
    st = remainder_table(state["ST"] + state["ST_W"], d["district"], x.st, lang)
    sc = shortfall_table(x.sc, sc_cap(year), opts["sc_cap_scope"], lang)
    obc = shortfall_table(x.obc, obc_cap(year), opts["obc_cap_scope"], lang)
    clauses = {g: said(Said(en, hi), lang) for g, en, hi in (("ST", CLAUSE_ST, CLAUSE_ST_HI),
                                                              ("SC", CLAUSE_SC, CLAUSE_SC_HI),
                                                              ("OBC", CLAUSE_OBC, CLAUSE_OBC_HI))}
    rows = []
    st_sum = max(int(d["st"].sum()), 1)
    # plain records: a pandas row lookup per district and sample cost most of a projection's time
    sc_rows, obc_rows = _records(sc), _records(obc)
    for i, (r, s) in enumerate(zip(_records(d, ("district", "district_lgd_code", "blocks", "st")), _records(st))):
        base = {"district": r["district"], "district_lgd_code": int(r["district_lgd_code"]), "blocks": int(r["blocks"])}
        rows.append({**base, "category": "ST", "share": Fraction(int(r["st"]), st_sum),
                     "formula": s["quota"], "cap": None, "initial": int(s["floor"]), "shortfall_posts":
                     int(s["remainder_post"]), "shortfall_rounds": "", "final": int(s["final"]),
                     "women": int(women["ST"][i]), "others": int(s["final"] - women["ST"][i]),
                     "arithmetic": s["arithmetic"], "clause": clauses["ST"]})
        for g, t, clause in (("SC", sc_rows, clauses["SC"]), ("OBC", obc_rows, clauses["OBC"])):
            y = t[i]
            rows.append({**base, "category": g, "share": y["share"], "formula": y["formula"], "cap": y["cap"],
                         "initial": int(y["initial"]), "shortfall_posts": int(y["shortfall_posts"]),
                         "shortfall_rounds": y["shortfall_rounds"], "final": int(y["final"]),
                         "women": int(women[g][i]), "others": int(y["final"] - women[g][i]),
                         "arithmetic": y["arithmetic"] + step_words("women.suffix", lang, women=int(women[g][i])),
                         "clause": clause})
        res = int(reserved[i])
        rows.append({**base, "category": "W", "share": None, "formula": None, "cap": None, "initial": None,
                     "shortfall_posts": 0, "shortfall_rounds": "", "final": int(women["GEN"][i]),
                     "women": int(women["GEN"][i]), "others": 0,
                     "arithmetic": step_words("women.district", lang, blocks=int(r["blocks"]),
                                              third=ceil(Fraction(int(r["blocks"]), 3)),
                                              category_women=int(women["ST"][i] + women["SC"][i] + women["OBC"][i]))
                     if opts["women_level"] == "district" else step_words("women.state_shared", lang),
                     "clause": said(x.women_clause, lang)})
        ur = int(r["blocks"]) - res - int(women["GEN"][i])
        rows.append({**base, "category": "UR", "share": None, "formula": None, "cap": None, "initial": None,
                     "shortfall_posts": 0, "shortfall_rounds": "", "final": ur, "women": 0, "others": ur,
                     "arithmetic": step_words("left.parent", lang, posts=int(r["blocks"]), reserved=res,
                                              women=int(women["GEN"][i])),
                     "clause": step_words("clause.left.district", lang)})
    out = pd.DataFrame(rows, columns=DISTRICT_COLUMNS)
    out["share"] = [f"{fmt_fraction(v * 100)} %" if v is not None else "" for v in out["share"]]
    for c in ("formula", "cap"):
        out[c] = [fmt_fraction(v) if v is not None and not pd.isna(v) else "" for v in out[c]]
    out["initial"] = out["initial"].astype("Int64")
    return out, x.notes


def _records(frame: pd.DataFrame, columns=None) -> list[dict]:
    """The rows of ``frame`` (its ``columns``, default all) as dicts of Python values (as
    ``to_dict("records")``, which is slower)."""
    columns = list(frame.columns) if columns is None else list(columns)
    return [dict(zip(columns, row)) for row in zip(*(frame[c].tolist() for c in columns))]


def _obc_shares(d: pd.DataFrame, obc, opts: OptionSet, obc_share_state: Fraction,
                notes: list) -> tuple[list, list | None]:
    """The districts' OBC shares for the formula (``obc``: their OBC persons, None when not given) and the
    districts above the State share (None: from the shares), with the note that says where they come from."""
    above = None
    if obc is None or pd.isna(obc).any():
        obc_shares = [obc_share_state] * len(d)
        if opts["obc_above_state"]:
            above = obc_above_state(opts["obc_above_state"], d)
            notes.append(f"district OBC population not supplied: every district is assumed at the State share "
                         f"{opts['obc_state_share']} % for the formula (capped at 27 % everywhere); the districts "
                         f"above the State share, which take the OBC shortfall, are the {len(above)} listed in "
                         f"{opts['obc_above_state']} (option obc_above_state), in its order")
        else:
            notes.append(f"district OBC population not supplied: every district is assumed at the State share "
                         f"{opts['obc_state_share']} %, so the OBC formula is capped at 27 % everywhere and no "
                         f"district is above the State share: the OBC shortfall follows option shortfall_fallback="
                         f"{opts['shortfall_fallback']} (give --population with 'obc', or option obc_above_state)")
    else:
        obc_shares = [Fraction(int(a), int(b)) for a, b in zip(obc.tolist(), d["pop"].tolist())]
        notes.append("the districts above the State OBC share (which take the OBC shortfall) follow from the "
                     "supplied block OBC population")
    return obc_shares, above


def _district_women(d: pd.DataFrame, opts: OptionSet, state: dict, finals: dict,
                    year: int) -> tuple[dict, np.ndarray, str]:
    """The women's posts of each district by group (``women_level``), the reserved posts and the clause; the
    women's fraction (one-third) is the law's figure for the rules of ``year`` (law.toml panchayat.women)."""
    blocks_n = d["blocks"].to_numpy()
    third = value("panchayat.women", PANCHAYAT_YEARS.rules_year(year))
    women = {}
    if opts["women_level"] == "district":
        thirds = {}                     # ceil(k x third) of each number of posts met (few distinct ones)
        for g in ("ST", "SC", "OBC"):
            women[g] = np.array([thirds[k] if k in thirds else thirds.setdefault(k, ceil(k * third))
                                 for k in map(int, finals[g])])
        reserved = finals["ST"] + finals["SC"] + finals["OBC"]
        cat_w = women["ST"] + women["SC"] + women["OBC"]
        if opts["general_women"] == "total_minus_category":
            total_w = np.array([ceil(int(b) * third) for b in blocks_n])
            women["GEN"] = np.maximum(total_w - cat_w, 0)
        else:
            women["GEN"] = np.array([ceil(int(b - r) * third) for b, r in zip(blocks_n, reserved)])
        women_clause = Said(CLAUSE_WOMEN, CLAUSE_WOMEN_HI)
    else:
        for g in ("ST", "SC", "OBC"):
            women[g] = largest_remainder(state[f"{g}_W"], d["district"], pd.Series(finals[g]),
                                         upper=pd.Series(finals[g]), tie_key=d["pop"])["final"].to_numpy()
        reserved = finals["ST"] + finals["SC"] + finals["OBC"]
        women["GEN"] = largest_remainder(state["W"], d["district"], pd.Series(blocks_n - reserved),
                                         upper=pd.Series(blocks_n - reserved), tie_key=d["pop"])["final"].to_numpy()
        women_clause = Said(CLAUSE_STATE + " (women at State level, shared by largest remainder: option women_level)",
                            CLAUSE_STATE_HI + " (प्रदेश स्तर पर स्त्रियाँ, सबसे बड़े शेष की रीति से बाँटी गईं: विकल्प "
                                              "`women_level`)")
    return women, reserved, women_clause


def obc_above_state(path, districts: pd.DataFrame) -> list[str]:
    """The districts named in ``path`` (CSV column ``unit``: name or LGD code, one a row, in descending order of
    rural OBC share) as the English names of ``districts``; a unit not among them, or named twice, is an
    InputError naming the row."""
    raw = read_csv(path, ["unit"], what="districts above the State OBC share")
    known = dict(zip(districts["district_lgd_code"].astype(int), districts["district"]))
    out, seen = [], {}
    for value, row in zip(raw["unit"], raw["_row"]):
        try:
            code = crosswalk().resolve(value)
        except KeyError as e:
            raise InputError(str(e.args[0]), file=str(path), row=int(row), column="unit") from None
        if code not in known:
            raise InputError(f"district LGD {code} has no Kshetra Panchayat in the block table", file=str(path),
                             row=int(row), column="unit")
        if code in seen:
            raise InputError(f"{known[code]} is listed twice (first at row {seen[code]})", file=str(path),
                             row=int(row), column="unit")
        seen[code] = int(row)
        out.append(known[code])
    return out


def blocks_as_units(units, year, opts) -> UnitSet:
    """The Kshetra Panchayats of the year (the shipped block table, or the user's in its format)."""
    blocks, notes = load_blocks(year, units)
    described = {"units": describe_input(units)} if units is not None else {}
    if opts["obc_above_state"]:
        described["obc_above_state"] = describe_input(opts["obc_above_state"])
    return UnitSet(blocks, block_index(blocks), notes, described)


def _inputs(ctx) -> tuple:
    """The blocks (OBC 0 where not given), the State counts' parts and the counts by code of a run."""
    blocks = ctx.units if "obc" in ctx.units else ctx.units.assign(obc=0)
    parts = kp_state_parts(ctx.year, ctx.opts, blocks)
    return blocks, parts, {code: count for code, count, _, _ in parts}


def district_counts(ctx) -> Counts:
    """KP counts paras 1-2 (State), then the district shares (ST, SC, OBC with caps and the shortfall cycle,
    women per district)."""
    blocks, parts, n = _inputs(ctx)
    population = ctx.population if ctx.obc.given else None
    dc, notes = kp_district_counts(ctx.year, ctx.opts, blocks, n, population)
    state = with_district_women(parts, dc, ctx.opts)
    hindi = partial(kp_district_counts, ctx.year, ctx.opts, blocks, n, population, "hi")   # (table, notes)
    return Counts(state, slots_from_split(dc, "district"), {"districts": dc}, notes,
                  partial(with_district_women, parts, dc, ctx.opts, "hi"), {"districts": lambda: hindi()[0]})


#: The State counts by code (:func:`kp_state_parts`) by year, options and number of blocks, all they read.
_STATE_COUNTS: dict = {}


def district_slots(ctx) -> pd.DataFrame:
    """The posts per district and code of :func:`district_counts`, without its words (the same numbers: a
    projection's samples after the first read only these)."""
    key = (ctx.year, tuple(sorted(ctx.opts.values.items())), len(ctx.units))
    if key not in _STATE_COUNTS:
        if len(_STATE_COUNTS) >= 8:
            _STATE_COUNTS.pop(next(iter(_STATE_COUNTS)))
        _STATE_COUNTS[key] = _inputs(ctx)[2]
    blocks = ctx.units if "obc" in ctx.units else ctx.units.assign(obc=0)
    n = dict(_STATE_COUNTS[key])
    x = _district_numbers(ctx.year, ctx.opts, blocks, n, ctx.population if ctx.obc.given else None)
    return district_slots_of(x.d, x.slot_order, x.finals, x.women, x.reserved)


TWO = "fewer than two persons of the category in the block (GO 2021 KP item 2)"
CLAUSES = {
    "ST": "GO 2021 KP-pramukh allotment items 1, 7 (ST in descending order, never reserved first)",
    "SC": "GO 2021 KP-pramukh allotment items 1, 8 (SC in descending order, never reserved first)",
    "OBC": "GO 2021 KP-pramukh allotment items 1, 9 (OBC leaving out ST and SC blocks)",
    "GEN": "GO 2021 KP-pramukh allotment items 4, 10 (women leaving out ST/SC/OBC blocks)",
    "two_persons": "GO 2021 KP-pramukh allotment item 2 (two-person rule)",
    "rotation": ZP_CLAUSES["rotation"],
    "unreserved": "GO 2021 KP-pramukh: posts left in the district are unreserved",
}
for _g in ("ST", "SC", "OBC"):
    CLAUSES[f"{_g}.women"] = CLAUSES[_g] + "; women from the top (items 3, 7-9)"

TWO_HI = "विकास खण्ड में उस श्रेणी के दो से कम व्यक्ति (शासनादेश 2021, क्षेत्र पंचायत प्रमुख, मद 2)"
_GO_HI = "शासनादेश 2021, क्षेत्र पंचायत प्रमुखों के पदों का आवंटन"
#: The clause table in Hindi (the same keys), in the GO's words (docs/glossary.md).
CLAUSES_HI = {
    "ST": f"{_GO_HI}, मद 1, 7 (अनुसूचित जनजाति अवरोही क्रम में; जो कभी आरक्षित नहीं रहे, वे पहले)",
    "SC": f"{_GO_HI}, मद 1, 8 (अनुसूचित जाति अवरोही क्रम में; जो कभी आरक्षित नहीं रहे, वे पहले)",
    "OBC": f"{_GO_HI}, मद 1, 9 (पिछड़े वर्ग, अनुसूचित जनजाति और अनुसूचित जाति के विकास खण्डों को छोड़कर)",
    "GEN": f"{_GO_HI}, मद 4, 10 (स्त्रियाँ, अनुसूचित जनजाति, अनुसूचित जाति और पिछड़े वर्ग के विकास खण्डों को छोड़कर)",
    "two_persons": f"{_GO_HI}, मद 2 (दो व्यक्तियों का नियम)",
    "rotation": ZP_CLAUSES_HI["rotation"],
    "unreserved": "शासनादेश 2021, क्षेत्र पंचायत प्रमुख: जिले में शेष पद अनारक्षित",
}
for _g in ("ST", "SC", "OBC"):
    CLAUSES_HI[f"{_g}.women"] = CLAUSES_HI[_g] + "; स्त्रियाँ ऊपर से (मद 3, 7-9)"

GROUPS = {
    "ST": Group(share("st"), "ST share of the block population", "ST", "ST.women",
                label_hi="खण्ड की जनसंख्या में अनुसूचित जनजाति का अनुपात", eligible=two_persons("st"),
                clause_eligible="two_persons", eligible_reason=TWO,
                eligible_reason_hi=TWO_HI),
    "SC": Group(share("sc"), "SC share of the block population", "SC", "SC.women",
                label_hi="खण्ड की जनसंख्या में अनुसूचित जाति का अनुपात", eligible=two_persons("sc"),
                clause_eligible="two_persons", eligible_reason=TWO,
                eligible_reason_hi=TWO_HI),
    "OBC": Group(share("obc"), "OBC share of the block population", "OBC", "OBC.women",
                label_hi="खण्ड की जनसंख्या में अन्य पिछड़ा वर्ग का अनुपात",
                 eligible=two_persons("obc"), clause_eligible="two_persons", eligible_reason=TWO, note="obc",
                 eligible_reason_hi=TWO_HI),
    "GEN": Group(outside_people, "block population outside SC/ST/OBC", "GEN", note="obc",
                 label_hi="अनुसूचित जाति/जनजाति/अन्य पिछड़ा वर्ग से बाहर की खण्ड की जनसंख्या"),
}

RULEBOOK = Rulebook(
    id="kp-chair", title="Kshetra Panchayat pramukhs (block chairs)", title_hi="क्षेत्र पंचायत प्रमुख",
    unit_kind="block", parent="district", parent_word="district", years=PANCHAYAT_YEARS, options=KP_CHAIR_OPTIONS,
    load_units=blocks_as_units, counts=district_counts, slots=district_slots, groups=GROUPS,
    pass_order=lambda opts: PANCHAYAT_ORDERS[opts["category_order"]], clauses=CLAUSES, clauses_hi=CLAUSES_HI,
    default_history=str(DEFAULT_HISTORY), units_file="optional", parent_table="districts",
    default_base_year=value("panchayat.base_year", PANCHAYAT_YEARS.law[-1]),
    record_base_years=record_base_years("kp_chair", "rotation_history"),
    obc_note=("OBC population by block is not public and was not supplied: every block is assumed at the State "
              "share {share} %, so the OBC order inside a district falls to the tie-break rule ({tie_break}) and "
              "rotation"),
    obc_share=panchayat_obc_share,
    base_year_readings={
        2015: "base year 2015 (12th Amendment Rules 2021 r.2(d) 'previous election' = the 2015 general election and "
              "later; High Court order of 15 Mar 2021): the only previous election is 2015, so tier 1 = not "
              "reserved for the group in 2015 and tier 3 = its 2015 holders; the shipped 2005 and 2010 lists do not "
              "count.",
        2005: "base year 2005: the shipped 2005, 2010 and 2015 pramukh lists all count (data/history/kp-chair.csv, "
              "crosswalked to LGD blocks): tier 1 = never reserved for the group in 2005, 2010 or 2015; tier 2 = "
              "reserved in 2005 or 2010 but not in 2015; tier 3 = reserved in 2015.",
        1995: "base year 1995 (GO of 11 Feb 2021 as issued, quashed on 15 Mar 2021): the pramukh lists of 1995 and "
              "2000 are not shipped, so rotation counts 2005, 2010 and 2015 and the result is the one of base year "
              "2005 (said in the assumptions); supply the missing lists with --history."})
