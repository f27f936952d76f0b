"""Urban chairs under the 2023 law: Palika Parishad and Nagar Panchayat chairs by division, and Mayors.

s.9-A(5) (2023): s.9-A(5) of the UP Municipalities Act 1916 as substituted by the UP Urban Local Self Government Laws
(Amendment) Act 2023 (the text reached stops inside (d)); docs/ambiguities.md A1, A3, A4, A13.

- (b) State counts, separately for Palika Parishads and Nagar Panchayats: SC and ST from their share of the
  population of all Palika Parishads (resp. all Nagar Panchayats) of the State (the Explanation), half-up; OBC
  from the OBC share (the 2023 Dedicated Commission's statewide figure per body type), at most 27 %; women of
  SC/ST/OBC one-third of each (A1), women in all not less than one-third (item (iv)).
- (c) Divisions: each category's offices (including its women) go to the 18 divisions in proportion to the
  category's share of the division's population of the same body type, limited to the State proportion of
  offices; the rest goes one office per division at a time, in descending order of share, to divisions whose
  share is above the State's, the cycle repeating until none is left (:func:`reservation.law.apportion.capped_shortfall`).
- (d) Inside a division: bodies in descending SC share take the SC offices, women first from the top; then,
  leaving those out, ST by ST share; then OBC by OBC share; then women, leaving out all of those, in descending
  share of women in the population.
- Mayors (s.7 of the Municipal Corporations Act 1959, docs/urban.md): State counts for the 17 Nagar Nigams with the
  27 % OBC proviso, then descending order of share among the 17 (the State is the only unit).

Gaps of the text, each an option: the Nagar Panchayat part of (c)-(d) (``np_method``), rotation between
elections (``rotation``: the tier rule of the panchayats, with any history supplied), how women are shared among
divisions (``women_level``, A4), and the roundings (A1, A3).
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from ..law.apportion import capped_shortfall
from .catalogue import CATALOGUE
from ..law.categories import CODES
from ..base.errors import InputError
from ..inputs.user_files import describe_input
from .keys import share, women_share
from ..inputs.options import Option, OptionSet
from ..law.quota import QuotaRules, category_counts, fmt_fraction
from ..law.rounding import round_with
from .rulebook import Counts, Group, Rulebook, UnitSet, Years, register, slots_from_split
from ..inputs.units import DATA_DIR, int_column, load_districts, loose_key, nfc, read_csv
from ..inputs.names import crosswalk
from .mayor_rules import MAYOR_BASE_YEAR, MAYOR_BASE_YEAR_READINGS, MAYOR_HISTORY, TIE_BREAK, WOMEN_ORDER, women_key

__all__ = ["URBAN_BODIES", "URBAN_OPTIONS", "load_bodies", "urban_counts", "division_counts", "body_index",
           "DIVISION_COLUMNS", "RULEBOOKS"]

URBAN_YEARS = Years(elections=(2023,), law=(2023,), instrument="s.9-A(5) (2023)")
#: body id -> LGD type code, name, the Dedicated Commission's statewide OBC share (docs/urban.md, [N #30]).
URBAN_BODIES = {
    "pp-chair": {"type": 5, "title": "Nagar Palika Parishad chairs", "title_hi": "नगर पालिका परिषद अध्यक्ष",
                 "short": "NPP", "unit": "Palika Parishad",
                 "obc_share": "42.29", "law": "s.9-A(5) UP Municipalities Act 1916 (2023)"},
    "np-chair": {"type": 7, "title": "Nagar Panchayat chairs", "title_hi": "नगर पंचायत अध्यक्ष", "short": "NP",
                 "unit": "Nagar Panchayat",
                 "obc_share": "49.55", "law": "s.9-A(5) UP Municipalities Act 1916 (2023)"},
    "mayor": {"type": 4, "title": "Mayors (Nagar Nigam chairs)", "title_hi": "महापौर (नगर निगम)", "short": "NN",
              "unit": "Nagar Nigam",
              "obc_share": "25.58", "law": "s.7 UP Municipal Corporations Act 1959 (OBC proviso)"},
}
BODY_LIST = "urban_bodies_2023.csv"
_FIGURE_WORDS = {"census_town": "Census 2011 town", "census_ct": "Census 2011 Census Town (the body grew from it)",
                 "lgd_villages": "estimate: Census 2011 villages in the LGD coverage list",
                 "none": "none: no Census town and no LGD village coverage"}
_TYPE_NAMES = {"4": 4, "nn": 4, "nagar nigam": 4, "5": 5, "npp": 5, "nagar palika parishad": 5, "palika parishad": 5,
               "7": 7, "np": 7, "nagar panchayat": 7}

CLAUSE = {"b1": "s.9-A(5)(1)(b)(i) (SC/ST: share of the urban population of all bodies of the type, half-up)",
          "b2": "s.9-A(5)(1)(b)(ii) (OBC: proportional, not more than 27 %)",
          "b3": "s.9-A(5)(1)(b)(iii) (women of SC/ST/OBC: one-third)",
          "b4": "s.9-A(5)(1)(b)(iv) (women in all: not less than one-third)",
          "c": "s.9-A(5)(1)(c) (divisions: proportional, capped at the State proportion, remainder one office per "
               "division per cycle to divisions above the State share)",
          "cw": "women: the State's women of (b)(iii)/(iv) shared by the women cycle (integer part of the "
                "proportion, then one office per division at a time in descending order of share)",
          "d1": "s.9-A(5)(1)(d)(i) (SC in descending SC share, women first)",
          "d2": "s.9-A(5)(1)(d)(ii) (ST, leaving out the SC bodies)",
          "d3": "s.9-A(5)(1)(d)(iii) (OBC, leaving out the SC and ST bodies)",
          "d4": "s.9-A(5)(1)(d)(iv) (women, leaving out (i)-(iii), in descending share of women)",
          "mayor": "s.7 UP Municipal Corporations Act 1959 with the OBC proviso (docs/urban.md)",
          "mayor_w": "s.7 UP Municipal Corporations Act 1959 and Art. 243T(4): women not less than one-third of "
                     "the Mayors' offices, within SC/ST/OBC and in all (A1: rounded up)"}
DIVISION_COLUMNS = ["division", "bodies", "category", "share", "formula", "cap", "initial", "shortfall_posts",
                    "shortfall_rounds", "final", "women", "others", "arithmetic", "clause"]

_KEEP = ("sc_st_rounding", "category_women", "rotation_history", "women_history",
         "rotation_fallback", "tie_break", "lots")
URBAN_OPTIONS: dict[str, Option] = {k: CATALOGUE[k] for k in _KEEP}
URBAN_OPTIONS.update({o.name: o for o in [
    Option("obc_cap_rounding", "A3", "half_up",
           {"half_up": "27 % cap rounded half-up (reproduces the published 2023 total)",
            "floor": "27 % cap: integer part (the words 'not more than twenty seven per cent')"},
           "CONTRADICTION: the text says the OBC offices 'shall not be more than twenty seven per cent of the total "
           "number of offices in the State', which only the integer part guarantees; the published 2023 figures "
           "break it: 205 OBC of 760 chairs = 4 Mayors + 201 Palika Parishad and Nagar Panchayat chairs, and 27 % "
           "of 199 and 544 are 53.73 and 146.88, so 201 = 54 + 147 only by half-up (147 is 27.02 % of 544; floor "
           "gives 53 + 146 = 199). Default half-up, because the option's default follows the published record; "
           "floor is the literal reading (docs/ambiguities.md, A3)."),
    Option("obc_share", "A10", "", {},
           "The 2023 UP State Local Bodies Dedicated Backward Classes Commission, statewide per body type: 25.58 % "
           "Nagar Nigams, 42.29 % Palika Parishads, 49.55 % Nagar Panchayats (docs/urban.md; statewide_figures.csv). "
           "Empty = that figure for the body type.", kind="decimal_or_empty"),
    Option("women_rounding", "A1", "ceil",
           {"ceil": "women of SC/ST/OBC: at least one-third (rounded up)",
            "half_up": "women of SC/ST/OBC: one-third with the text's half-up rounding",
            "floor": "women of SC/ST/OBC: not more than one-third (integer part)"},
           "s.9-A(5) (2023) (b)(iii) says 'not more than one-third' with half-up rounding; Art. 243T(2) requires 'not less "
           "than one-third' for SC/ST, which only rounding up guarantees; every Dec 2022 count (Mayors 2 SC -> 1 W, "
           "4 OBC -> 2 W; NPs 73 SC -> 25 W, 1 ST -> 1 W) equals the ceiling (docs/ambiguities.md A1)."),
    Option("women_total_rounding", "A1", "ceil",
           {"ceil": "women in all: at least one-third", "half_up": "women in all: one-third, half-up"},
           "s.9-A(5) (2023) (b)(iv): 'not less than one-third of the total number of offices' (only rounding up keeps that "
           "true when the third is not whole)."),
    Option("women_level", "A4", "division",
           {"division": "women one-third (women_rounding) of each category's offices in each division, and of "
                        "all its offices (general_women)",
            "state": "the State's women of (b)(iii) and (b)(iv) shared among the divisions by the women cycle "
                     "(function women_cycle: integer part of the proportion, then one office per division at a "
                     "time in descending order of share, repeated)"},
           "(c)(i)-(iii) send each category's offices to the divisions 'including the number of offices determined "
           "for women' under (b)(iii), which reads as sharing the State figure ('state'); but the published 2023 "
           "total of 288 women of 760 chairs (Dec 2022, old law: 255 = one-third at State level) is far above "
           "the State figures: on the shipped list 'state' gives 254 and 'division' 263 with general women as "
           "the rest of one-third, and 289 with general_women=third_of_rest: only rounding up per division and "
           "per category, the unreserved included, comes near 288 (notes/readings_urban.md)."),
    Option("general_women", "A5", "third_of_rest",
           {"third_of_rest": "general women: one-third of the offices left after SC/ST/OBC (rounded by "
                             "women_total_rounding), in each division",
            "total_minus_category": "general women: one-third of all offices minus the category women"},
           "(b)(iv) 'not less than one-third of the total number of offices in the State' including the women of "
           "(b)(iii) gives 'total_minus_category'; the published 2023 total of 288 women of 760 chairs is "
           "reached only with one-third of each group, the unreserved included, rounded up in every division "
           "(289 on the shipped list, 3 Nagar Panchayats short; 'total_minus_category' gives 263): default by the "
           "published record (notes/readings_urban.md, docs/ambiguities.md A5). Mayors: s.7 of the Corporations Act, one-third "
           "of all offices with the category women (the published 3 W = 6 - 1 - 2), whatever this option says."),
    Option("division_population", "A13", "same_type",
           {"same_type": "shares of (c) in the population of the division's bodies of the same type",
            "all_bodies": "shares of (c) in the population of all urban bodies of the division (Nagar Nigams, "
                          "Palika Parishads, Nagar Panchayats)",
            "census_urban": "shares of (c) in the Census 2011 urban population of the division (Census Towns, "
                            "outgrowths and cantonments included)"},
           "(c) says 'the proportion of the Scheduled Castes to the total urban population of that division'; the "
           "Explanation (the urban area means that of all the Palika Parishads or all the Nagar Panchayats) is "
           "written for (b) only ('occurring in this sub-clause'). 'same_type' carries the Explanation over to "
           "(c), as (a) asks the two types to be done 'separately'; the other two read (c) literally. The "
           "published figures are State totals, which (c) does not change, so they cannot decide."),
    Option("division_cap_rounding", "A13", "floor",
           {"floor": "a division's cap is the integer part of its offices x the State proportion",
            "half_up": "the cap is rounded half-up"},
           "(c) proviso: 'such allotment in that division shall be limited to the extent of such proportion'."),
    Option("np_method", "A13", "same_as_pp",
           {"same_as_pp": "Nagar Panchayats by division exactly like Palika Parishads",
            "state_level": "Nagar Panchayats with the State as the only unit (no divisions)"},
           "The text reached stops before the Nagar Panchayat part; (a) says the two are done 'separately in the "
           "manner provided herein' and the officials described one divisional method for both (docs/urban.md)."),
    Option("category_order", "A6", "sc_first",
           {"sc_first": "SC, ST, OBC, women as (d)(i)-(iv)", "st_first": "ST, SC, OBC, women"},
           "s.9-A(5) (2023) (d): (i) SC, (ii) 'thereafter' ST leaving out the SC bodies, (iii) OBC, (iv) women."),
    Option("rotation", "A8", "tiers",
           {"tiers": "with a history: never reserved for the category first, then not reserved at the last "
                     "election (the panchayat rule)", "none": "no rotation: descending order only"},
           "The rotation clause of the 2023 text was not reached; reported practice: a cycle is not complete until "
           "every category has had its turn (docs/ambiguities.md, A8 e). Without --history every body counts as never "
           "reserved either way."),
]})



#: The Mayors' options: the urban ones, the order of their general women's offices and their tie rule
#: (mayor_rules.py).
MAYOR_OPTIONS: dict[str, Option] = {**URBAN_OPTIONS, TIE_BREAK.name: TIE_BREAK, WOMEN_ORDER.name: WOMEN_ORDER}


def load_bodies(body: str, path=None) -> tuple[pd.DataFrame, list[str]]:
    """The bodies of one type with their populations and where the figures come from.

    Shipped list (``path=None``): ``data/urban_bodies_2023.csv``, built by ``data/build/build_urban_bodies.py``
    from LGD 2020-22, a reviewed link table to the Census 2011 towns and the bodies created by the cabinet
    decisions of 2021-22 (data/README.md). Column ``figures`` says where a body's population comes from: a Census
    2011 town, the Census Town it grew from, the Census villages of its LGD coverage (an estimate), or ``none``
    (share 0, ranked last: the allotment table carries the column, so such a body never becomes unreserved
    silently).

    A user list (``path``): CSV ``unit, name_en, body_type, district, pop, sc, st[, women, name_hi]``; an unknown
    district or a body type not in the law is an error.

    Columns: ``unit_code, unit_name_en, unit_name_hi, district, division, body_type, pop, sc, st, women,
    figures, pop_source``.
    """
    spec = URBAN_BODIES[body]
    dist = load_districts()
    division_of = dict(zip(dist["unit_name_en"], dist["division"]))
    cw = crosswalk()
    notes = []
    if path is not None:
        raw = read_csv(path, ["unit", "name_en", "body_type", "district", "pop", "sc", "st"], what="urban bodies")
        t = raw["body_type"].str.lower().map(lambda x: _TYPE_NAMES.get(x.strip()))
        bad = t.isna().to_numpy()
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(f"body type {raw['body_type'].iat[i]!r} is not in the law (Nagar Nigam, Nagar Palika "
                             f"Parishad, Nagar Panchayat)", file=str(path), row=int(raw["_row"].iat[i]),
                             column="body_type")
        districts = []
        for v, row in zip(raw["district"], raw["_row"]):
            try:
                districts.append(cw.name_en(cw.resolve(v)))
            except KeyError as e:
                raise InputError(str(e.args[0]), file=str(path), row=int(row), column="district") from None
        df = pd.DataFrame({"unit_code": int_column(raw, "unit", path), "unit_name_en": raw["name_en"],
                           "unit_name_hi": raw["name_hi"] if "name_hi" in raw else "", "district": districts,
                           "body_type": t.astype(int), "pop": int_column(raw, "pop", path),
                           "sc": int_column(raw, "sc", path), "st": int_column(raw, "st", path),
                           "women": int_column(raw, "women", path, allow_blank=True) if "women" in raw else pd.NA,
                           "pop_source": f"supplied ({Path(path).name})", "_row": raw["_row"]})
        df["figures"] = np.where(df["pop"] > 0, "supplied", "none")
        dup = df["unit_code"].duplicated().to_numpy()
        if dup.any():
            i = int(np.flatnonzero(dup)[0])
            raise InputError(f"duplicate unit {df['unit_code'].iat[i]}", file=str(path), row=int(df["_row"].iat[i]),
                             column="unit")
        over = (df["sc"] + df["st"] > df["pop"]).to_numpy()
        if over.any():
            i = int(np.flatnonzero(over)[0])
            raise InputError("sc + st exceeds pop", file=str(path), row=int(df["_row"].iat[i]), column="sc")
        if "women" in raw:
            women_over = (df["women"].fillna(0) > df["pop"]).to_numpy(dtype=bool)
            if women_over.any():
                i = int(np.flatnonzero(women_over)[0])
                raise InputError(f"women = {int(df['women'].iat[i])} exceeds pop = {int(df['pop'].iat[i])}",
                                 file=str(path), row=int(df["_row"].iat[i]), column="women")
        df = df[df["body_type"] == spec["type"]].drop(columns="_row")
        if not len(df):
            raise InputError(f"no {spec['unit']} in the units file (body_type): {body} needs at least one",
                             file=str(path), column="body_type")
    else:
        u = pd.read_csv(DATA_DIR / BODY_LIST, dtype={"census2011_town_code": str})
        u = u[u["body_type"] == spec["type"]]
        src = u["figures"].map(_FIGURE_WORDS) + np.where(
            u["census2011_town_code"].notna(), " " + u["census2011_town_code"].fillna("") + " ("
            + u["census2011_town_name"].fillna("") + ")", "")
        added = u["code_source"] != "LGD"
        src = src.where(~added, src + "; listed from " + u["list_source"].fillna(""))
        df = pd.DataFrame({
            "unit_code": u["unit_code"].astype(int), "unit_name_en": u["name_en"].map(nfc),
            "unit_name_hi": u["name_hi"].fillna("").map(nfc), "district": u["district_en"],
            "body_type": spec["type"], "pop": u["pop"].fillna(0).astype(np.int64),
            "sc": u["sc"].fillna(0).astype(np.int64), "st": u["st"].fillna(0).astype(np.int64),
            "women": u["women"].astype("Int64"), "figures": u["figures"], "pop_source": src})
        counts = u["figures"].value_counts()
        n_est, n_ct, n_none = (int(counts.get(k, 0)) for k in ("lgd_villages", "census_ct", "none"))
        notes.append(f"body list: {BODY_LIST} ({len(u)} {spec['unit']}s; LGD 2020-22 reviewed against Census 2011 "
                     f"and the cabinet decisions of 2021-22: data/README.md)")
        if added.any():
            notes.append(f"{int(added.sum())} {spec['unit']}(s) created after the LGD snapshot are listed from press "
                         f"reports of the cabinet decisions (codes 99xxxx are the project's, not LGD's)")
        if n_ct:
            notes.append(f"{n_ct} {spec['unit']}(s) take the figures of the Census 2011 Census Town they grew from")
        if n_est or n_none:
            notes.append(f"{n_est} {spec['unit']}(s) take the Census totals of the villages in their LGD coverage (an "
                         f"estimate); {n_none} have no figures at all: column 'figures' says so in every row")
        if df["women"].isna().any():
            k = int(df["women"].isna().sum())
            notes.append(f"female population missing for {k} {spec['unit']}(s) (no Census town): their share of "
                         f"women is taken as the State share of women among the bodies of the type, so they rank "
                         f"by the tie-break among equals")
    df["division"] = df["district"].map(division_of)
    df["body_type"] = spec["unit"] if spec["type"] != 4 else "Nagar Nigam"
    df = df.sort_values(["division", "unit_code"], kind="stable").reset_index(drop=True)
    return df, notes


def _rules(opts: OptionSet, clause_sc_st: str, clause_obc: str, clause_women: str = "") -> QuotaRules:
    # Mayors (s.7 of the Corporations Act): women one-third of all offices, category women included (the
    # published 3 W of 17 = 6 - 1 - 2); option general_women is for Palika Parishads and Nagar Panchayats
    mayor = bool(clause_women)
    return QuotaRules(sc_st_rounding=opts["sc_st_rounding"], obc_cap_rounding=opts["obc_cap_rounding"],
                      general_women="total_minus_category" if mayor else opts["general_women"], women_rounding=opts["women_rounding"],
                      women_total_rounding=opts["women_total_rounding"], clause_sc_st=clause_sc_st,
                      clause_obc=clause_obc, clause_women=clause_women or f"{CLAUSE['b3']}; {CLAUSE['b4']}",
                      clause_ur="the offices left after the reserved categories and women")


def _obc_share(body: str, opts: OptionSet) -> Fraction:
    return Fraction(opts["obc_share"] or URBAN_BODIES[body]["obc_share"]) / 100


def urban_counts(body: str, year: int = 2023, opts: OptionSet | None = None,
                 bodies: pd.DataFrame | None = None) -> pd.DataFrame:
    """State counts (category, count, arithmetic, clause) for one body type, women at State level (b)."""
    opts = opts if opts is not None else OptionSet(dict(URBAN_OPTIONS))
    bodies = bodies if bodies is not None else load_bodies(body)[0]
    pop = int(bodies["pop"].sum())
    shares = {"SC": Fraction(int(bodies["sc"].sum()), pop), "ST": Fraction(int(bodies["st"].sum()), pop),
              "OBC": _obc_share(body, opts)}
    law = CLAUSE["mayor"] if body == "mayor" else None
    return category_counts(len(bodies), shares, _rules(opts, law or CLAUSE["b1"], law or CLAUSE["b2"],
                                                        CLAUSE["mayor_w"] if body == "mayor" else ""))


def women_cycle(total: int, base, key, names) -> tuple[np.ndarray, list[str]]:
    """Share ``total`` women's offices of the State among divisions (``women_level=state``).

    (c) sends each category's offices to the divisions "including the number of offices determined for women"
    of (b)(iii), so the State's women count of the category is what the divisions share. The method copies (c)'s:
    (1) each division first gets the integer part of ``total x base / sum(base)`` (``base``: the division's
    offices of the category, so its women stay within the State proportion of women: "limited to the extent of
    such proportion"); (2) the offices still left go one office per division at a time in descending order of
    ``key`` (the division's share of the category in (c); the share of women in the population of its bodies
    for the women of (b)(iv), the key of (d)(iv)), ties by more offices then the name, a division never getting
    more women than ``base``; the cycle repeats until none is left. Returns (women per division, arithmetic)."""
    base = [int(b) for b in base]
    s = sum(base)
    if total > s:
        raise InputError(f"{total} women's offices cannot be placed in {s} offices of the divisions", column="division")
    first = [total * b // s if s else 0 for b in base]
    got, rounds = list(first), [[] for _ in base]
    order = sorted(range(len(base)), key=lambda i: (-Fraction(key[i]), -base[i], str(names[i])))
    left, rnd = total - sum(first), 0
    while left > 0:
        rnd += 1
        for i in order:
            if left and got[i] < base[i]:
                got[i] += 1
                rounds[i].append(rnd)
                left -= 1
    text = [f"women: {total} x {b}/{s} -> {f}" + (f"; +{len(r)} in round(s) {','.join(map(str, r))}" if r else "")
            + f" = {g}" for b, f, r, g in zip(base, first, rounds, got)]
    return np.array(got, dtype=np.int64), text


def division_basis(opts: OptionSet, units_path=None) -> pd.DataFrame | None:
    """The population behind the shares of (c) ("the total urban population of that division"), per division:
    ``same_type`` -> None (the bodies of the type, the default); ``all_bodies`` -> every Nagar Nigam, Palika
    Parishad and Nagar Panchayat of the list; ``census_urban`` -> the Census 2011 urban population of the
    division's districts (with Census Towns, outgrowths and cantonments)."""
    how = opts["division_population"]
    if how == "same_type":
        return None
    if how == "all_bodies":
        b = pd.concat([load_bodies(x, units_path)[0] for x in URBAN_BODIES])
        out = b.groupby("division")[["pop", "sc", "st"]].sum().reset_index()
        out.attrs["what"] = f"all {len(b)} urban bodies (Nagar Nigams, Palika Parishads, Nagar Panchayats)"
        return out
    dist = pd.read_csv(DATA_DIR / "districts.csv")
    out = dist.groupby("division_en")[["tot_p_urban", "sc_urban", "st_urban"]].sum().reset_index()
    out.columns = ["division", "pop", "sc", "st"]
    out.attrs["what"] = "the Census 2011 urban population of the division (data/districts.csv)"
    return out


def division_counts(body: str, opts: OptionSet, bodies: pd.DataFrame, state: dict[str, int],
                    population: pd.DataFrame | None = None,
                    basis: pd.DataFrame | None = None) -> tuple[pd.DataFrame, list[str]]:
    """(c): offices per division and category (:data:`DIVISION_COLUMNS`), and notes. ``basis`` (columns
    ``division, pop, sc, st``) replaces the population of the bodies of the type for the shares of (c)."""
    g = bodies.groupby("division", sort=True)
    d = pd.DataFrame({"bodies": g.size(), "pop": g["pop"].sum(), "sc": g["sc"].sum(), "st": g["st"].sum()})
    d["obc"] = g["obc"].sum() if "obc" in bodies else None
    d = d.reset_index()
    n_total = len(bodies)
    pop_state = int(bodies["pop"].sum())
    notes = []
    if basis is not None:           # option division_population: the shares of (c) from another population
        b = basis.set_index("division").reindex(d["division"]).fillna(0)
        for c in ("pop", "sc", "st"):
            d[c] = b[c].astype(np.int64).to_numpy()
        pop_state = int(basis["pop"].sum())
        notes.append(f"(c) shares of the divisions from {basis.attrs.get('what', 'another population')} "
                     f"(option division_population={opts['division_population']})")
    rows_by_group = {}
    finals = {}
    for grp in ("SC", "ST", "OBC"):
        total = state[grp] + state[f"{grp}_W"]
        if grp == "OBC" and (d["obc"] is None or (population is None)):
            shares = [_obc_share(body, opts)] * len(d)
            state_share = _obc_share(body, opts)
            notes.append(f"OBC population by division is not public and was not supplied: every division is "
                         f"assumed at the State share {fmt_fraction(state_share * 100, 2)} % of the body type, so "
                         f"the OBC offices follow the cap and the fallback of the remainder step")
        else:
            col = grp.lower()
            shares = [Fraction(int(a), int(b)) if b else Fraction(0) for a, b in zip(d[col], d["pop"])]
            state_share = Fraction(int(d[col].sum()), pop_state) if basis is None else Fraction(
                int(basis[col].sum()), pop_state)
        groups = pd.DataFrame({"group": d["division"], "posts_base": d["bodies"], "share": shares})
        cap = Fraction(total, n_total) if n_total else Fraction(0)
        t, n = capped_shortfall(total, groups, cap=cap, state_share=state_share,
                                cap_rounding=opts["division_cap_rounding"], upper=d["bodies"], tie_key=d["pop"])
        notes += [f"{grp}: {x}" for x in n]
        rows_by_group[grp] = t
        finals[grp] = t["final"].to_numpy()
    women = {}
    res = finals["SC"] + finals["ST"] + finals["OBC"]
    if (res > d["bodies"].to_numpy()).any():
        i = int(np.flatnonzero(res > d["bodies"].to_numpy())[0])
        raise InputError(f"division {d['division'].iat[i]}: reserved offices exceed its {int(d['bodies'].iat[i])} "
                         f"bodies", column="division")
    women_arith = {}
    if opts["women_level"] == "division":
        for grp in ("SC", "ST", "OBC"):
            women[grp] = np.array([round_with(opts["women_rounding"], Fraction(int(k), 3)) for k in finals[grp]])
            women_arith[grp] = [f"women one-third of {int(k)} in the division ({opts['women_rounding']}) = {int(w)}"
                                for k, w in zip(finals[grp], women[grp])]
        cat_w = women["SC"] + women["ST"] + women["OBC"]
        if opts["general_women"] == "total_minus_category":
            total_w = np.array([round_with(opts["women_total_rounding"], Fraction(int(b), 3)) for b in d["bodies"]])
            women["GEN"] = np.minimum(np.maximum(total_w - cat_w, 0), d["bodies"].to_numpy() - res)
        else:
            women["GEN"] = np.array([round_with(opts["women_total_rounding"], Fraction(int(b - r), 3))
                                     for b, r in zip(d["bodies"], res)])
        women_arith["GEN"] = [f"women in all in the division minus category women = {int(w)}" for w in women["GEN"]]
    else:
        keys = {grp: rows_by_group[grp]["share"].tolist() for grp in ("SC", "ST", "OBC")}
        known = bodies["women"].notna()
        wf = bodies.loc[known].groupby("division")
        keys["GEN"] = [Fraction(int(wf["women"].sum().get(x, 0)), int(wf["pop"].sum().get(x, 0)))
                       if wf["pop"].sum().get(x, 0) else Fraction(0) for x in d["division"]]
        bases = {grp: finals[grp] for grp in ("SC", "ST", "OBC")}
        bases["GEN"] = d["bodies"].to_numpy() - res
        for grp in ("SC", "ST", "OBC", "GEN"):
            want = state[f"{grp}_W"] if grp != "GEN" else state["W"]
            women[grp], women_arith[grp] = women_cycle(want, bases[grp], keys[grp], d["division"].tolist())
    rows = []
    rows = []
    for i, r in d.iterrows():
        base = {"division": r["division"], "bodies": int(r["bodies"])}
        for grp in ("SC", "ST", "OBC"):
            x = rows_by_group[grp].iloc[i]
            rows.append({**base, "category": grp, "share": f"{fmt_fraction(x['share'] * 100)} %",
                         "formula": fmt_fraction(x["formula"]), "cap": fmt_fraction(x["cap"]),
                         "initial": int(x["initial"]), "shortfall_posts": int(x["shortfall_posts"]),
                         "shortfall_rounds": x["shortfall_rounds"], "final": int(x["final"]),
                         "women": int(women[grp][i]), "others": int(x["final"] - women[grp][i]),
                         "arithmetic": x["arithmetic"] + f"; {women_arith[grp][i]}",
                         "clause": CLAUSE["c"] + ("" if opts["women_level"] == "division" else "; " + CLAUSE["cw"])})
        ur = int(r["bodies"]) - int(res[i]) - int(women["GEN"][i])
        rows.append({**base, "category": "W", "share": "", "formula": "", "cap": "", "initial": None,
                     "shortfall_posts": 0, "shortfall_rounds": "", "final": int(women["GEN"][i]),
                     "women": int(women["GEN"][i]), "others": 0,
                     "arithmetic": women_arith["GEN"][i],
                     "clause": CLAUSE["b4"] + ("" if opts["women_level"] == "division" else "; " + CLAUSE["cw"])})
        rows.append({**base, "category": "UR", "share": "", "formula": "", "cap": "", "initial": None,
                     "shortfall_posts": 0, "shortfall_rounds": "", "final": ur, "women": 0, "others": ur,
                     "arithmetic": f"{int(r['bodies'])} - {int(res[i])} reserved - {int(women['GEN'][i])} women",
                     "clause": "the offices left in the division"})
    out = pd.DataFrame(rows, columns=DIVISION_COLUMNS)
    out["initial"] = out["initial"].astype("Int64")
    return out, notes


def body_index(bodies: pd.DataFrame):
    """The crosswalk of urban bodies: an LGD code, a name (English or Hindi), ``"Name, District"`` or
    ``"Name (District)"`` where a name repeats (:class:`reservation.inputs.names.NameIndex`)."""
    from ..inputs.names import NameIndex
    return NameIndex.from_frame(bodies, kind="urban body", parent="district", weights="pop")


def bodies_as_units(body: str):
    def load(units, year, opts) -> UnitSet:
        bodies, notes = load_bodies(body, units)
        if _parent(body, opts) is None:
            bodies = bodies.sort_values("unit_code", kind="stable").reset_index(drop=True)
        described = {"units": describe_input(units)} if units is not None and not isinstance(units, pd.DataFrame) \
            else {}
        return UnitSet(bodies, body_index(bodies), notes, described)
    return load


def _parent(body: str, opts) -> str | None:
    divisional = body == "pp-chair" or (body == "np-chair" and opts["np_method"] == "same_as_pp")
    return "division" if divisional else None


def body_counts(body: str):
    """(b) the State counts of the body type, then (c) their split among divisions (Palika Parishads, and Nagar
    Panchayats by default); Mayors: the State is the only unit."""
    def counts(ctx) -> Counts:
        bodies = ctx.units
        opts = ctx.opts
        state_counts = urban_counts(body, ctx.year, opts, bodies)
        n = dict(zip(state_counts["category"], state_counts["count"]))
        notes, extra = [], {}
        if _parent(body, opts):
            dc, notes = division_counts(body, opts, bodies, n, ctx.population if ctx.obc.given else None,
                                        division_basis(opts, ctx.source if isinstance(ctx.source, (str, Path))
                                                       else None))
            slots = slots_from_split(dc, "division")
            counts_table = state_counts.copy()
            sums = dc.groupby("category")[["women", "others", "final"]].sum()
            for grp in ("SC", "ST", "OBC"):
                counts_table.loc[counts_table["category"] == f"{grp}_W", "count"] = int(sums.at[grp, "women"])
                counts_table.loc[counts_table["category"] == grp, "count"] = int(sums.at[grp, "others"])
            counts_table.loc[counts_table["category"] == "W", "count"] = int(sums.at["W", "final"])
            counts_table.loc[counts_table["category"] == "UR", "count"] = int(sums.at["UR", "final"])
            if opts["women_level"] == "division":
                for c in ("ST_W", "SC_W", "OBC_W", "W", "UR", "ST", "SC", "OBC"):
                    m = counts_table["category"] == c
                    counts_table.loc[m, "arithmetic"] = (f"State (b): {n[c]}; in the divisions (women counted per "
                                                         f"division, option women_level): "
                                                         f"{int(counts_table.loc[m, 'count'].iat[0])}")
            extra["divisions"] = dc
        else:
            slots = pd.DataFrame([{c: int(n[c]) for c in CODES}], index=["*"])
            counts_table = state_counts
        no_fig = (bodies["figures"] == "none").to_numpy()
        if no_fig.any():
            extra["no_figures"] = bodies.loc[no_fig, ["unit_code", "unit_name_en", "district", "division",
                                                      "pop_source"]]
            notes.append(f"{int(no_fig.sum())} {URBAN_BODIES[body]['unit']}(s) have no population figures: no "
                         f"population figures (created after 2011, no Census town, no LGD village coverage): share 0 "
                         f"in every pass, so it is reserved only if every body with figures in its division is "
                         f"taken; its row says figures=none")
        return Counts(counts_table, slots, extra, notes)
    return counts


def _groups(body: str):
    """The passes' keys and clauses; the Mayors' general women by option ``women_order`` (mayor_rules.py)."""
    where = "population" if body == "mayor" else "population of the body"
    c = {g: "mayor" if body == "mayor" else k for g, k in (("SC", "d1"), ("ST", "d2"), ("OBC", "d3"), ("GEN", "d4"))}
    where_hi = "जनसंख्या" if body == "mayor" else "निकाय की जनसंख्या"
    fixed = {
        "SC": Group(share("sc"), f"SC share of the {where}", c["SC"], c["SC"] + ".women",
                    label_hi=f"{where_hi} में अनुसूचित जाति का अनुपात"),
        "ST": Group(share("st"), f"ST share of the {where}", c["ST"], c["ST"] + ".women",
                    label_hi=f"{where_hi} में अनुसूचित जनजाति का अनुपात"),
        "OBC": Group(share("obc"), f"OBC share of the {where}", c["OBC"], c["OBC"] + ".women", note="obc",
                     label_hi=f"{where_hi} में अन्य पिछड़ा वर्ग का अनुपात"),
    }
    by_share = Group(women_share, f"share of women in the {where}", "mayor_w" if body == "mayor" else c["GEN"],
                     label_hi=f"{where_hi} में महिलाओं का अनुपात")
    if body != "mayor":
        return {**fixed, "GEN": by_share}
    others = {"population": Group(women_key("population"), "population", "mayor_w", label_hi="जनसंख्या"),
              "women_population": Group(women_key("women_population"), "number of women", "mayor_w",
                                        label_hi="महिलाओं की संख्या"), "women_share": by_share}
    return lambda opts: {**fixed, "GEN": others[opts["women_order"]]}


_ORDERS = {"sc_first": (("SC", ("SC_W", "SC")), ("ST", ("ST_W", "ST")), ("OBC", ("OBC_W", "OBC")), ("GEN", ("W",))),
           "st_first": (("ST", ("ST_W", "ST")), ("SC", ("SC_W", "SC")), ("OBC", ("OBC_W", "OBC")), ("GEN", ("W",)))}


def _clauses(body: str) -> dict[str, str]:
    out = dict(CLAUSE)
    for k in ("d1", "d2", "d3"):
        out[f"{k}.women"] = CLAUSE[k] + "; women first (proviso)"
    out["mayor.women"] = CLAUSE["mayor"] + "; women first, from the top (A7)"
    out["rotation"] = "rotation: option rotation (the 2023 rotation clause was not reached; docs/ambiguities.md A8)"
    out["unreserved"] = f"{URBAN_BODIES[body]['law']}: the offices left are unreserved"
    return out


def _rulebook(body: str) -> Rulebook:
    spec = URBAN_BODIES[body]
    mayor = body == "mayor"
    return Rulebook(
        id=body, title=spec["title"], title_hi=spec["title_hi"], unit_kind="urban body", parent="division",
        parent_for=lambda opts: _parent(body, opts), parent_word="division", years=URBAN_YEARS,
        options=MAYOR_OPTIONS if mayor else URBAN_OPTIONS, load_units=bodies_as_units(body),
        counts=body_counts(body), groups=_groups(body),
        pass_order=lambda opts: _ORDERS[opts["category_order"]], clauses=_clauses(body), units_file="optional",
        parent_table="divisions" if not mayor else "", default_base_year=MAYOR_BASE_YEAR if mayor else 0,
        default_history=str(DATA_DIR / "history" / MAYOR_HISTORY) if mayor else "", history_with_units=False,
        base_year_readings=MAYOR_BASE_YEAR_READINGS if mayor else {},
        obc_note=("OBC population by body is not public and was not supplied: every {unit} is assumed at the State "
                  "share {share} % of its type, so the OBC order falls to the tie-break rule ({tie_break}) and "
                  "rotation"),
        obc_share=lambda opts: (_obc_share(body, opts), fmt_fraction(_obc_share(body, opts) * 100, 2)),
        label_fields=lambda opts: {"unit": spec["unit"]}, columns=("body_type", "figures", "pop_source"))


RULEBOOKS = {body: _rulebook(body) for body in URBAN_BODIES}
register(*RULEBOOKS.values())
