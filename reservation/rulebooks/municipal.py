"""Urban chairs under the 2023 law: Palika Parishad and Nagar Panchayat chairs by division, and Mayors.

Seed a: s.9-A(5) of the UP Municipalities Act 1916 as substituted by the UP Urban Local Self Government Laws
(Amendment) Act 2023 (the text reached stops inside (d)); RULES.md §5, §8 A1, A3, A4, A13.

- (b) State counts, separately for Palika Parishads and Nagar Panchayats: SC and ST from their share of the
  population of all Palika Parishads (resp. all Nagar Panchayats) of the State (the Explanation), half-up; OBC
  from the OBC share (the 2023 Dedicated Commission's statewide figure per body type), at most 27 %; women of
  SC/ST/OBC one-third of each (A1), women in all not less than one-third (item (iv)).
- (c) Divisions: each category's offices (including its women) go to the 18 divisions in proportion to the
  category's share of the division's population of the same body type, limited to the State proportion of
  offices; the rest goes one office per division at a time, in descending order of share, to divisions whose
  share is above the State's, the cycle repeating until none is left (:func:`reservation.apportion.capped_shortfall`).
- (d) Inside a division: bodies in descending SC share take the SC offices, women first from the top; then,
  leaving those out, ST by ST share; then OBC by OBC share; then women, leaving out all of those, in descending
  share of women in the population.
- Mayors (s.7 of the Municipal Corporations Act 1959, RULES.md §5.1): State counts for the 17 Nagar Nigams with the
  27 % OBC proviso, then descending order of share among the 17 (the State is the only unit).

Gaps of the text, each an option: the Nagar Panchayat part of (c)-(d) (``np_method``), rotation between
elections (``rotation``: the tier rule of the panchayats, with any history supplied), how women are shared among
divisions (``women_level``, A4), and the roundings (A1, A3).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from ..apportion import capped_shortfall, largest_remainder
from ..catalogue import CATALOGUE
from ..categories import CODES
from ..errors import InputError
from ..inputs import describe_input
from ..keys import share, women_share
from ..options import Option, OptionSet
from ..quota import QuotaRules, category_counts, fmt_fraction
from ..rounding import round_with
from ..rulebook import Counts, Group, Rulebook, UnitSet, Years, register
from ..units import DATA_DIR, crosswalk, int_column, load_districts, loose_key, nfc, read_csv

__all__ = ["URBAN_BODIES", "URBAN_OPTIONS", "load_bodies", "urban_counts", "division_counts", "BodyCrosswalk",
           "DIVISION_COLUMNS", "RULEBOOKS"]

URBAN_YEARS = Years(elections=(2023,), law=(2023,), instrument="s.9-A(5) (2023)")
#: body id -> LGD type code, name, the Dedicated Commission's statewide OBC share (RULES.md §1, [N #30]).
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
_TYPE_NAMES = {"4": 4, "nn": 4, "nagar nigam": 4, "5": 5, "npp": 5, "nagar palika parishad": 5, "palika parishad": 5,
               "7": 7, "np": 7, "nagar panchayat": 7}

CLAUSE = {"b1": "s.9-A(5)(1)(b)(i) (SC/ST: share of the urban population of all bodies of the type, half-up)",
          "b2": "s.9-A(5)(1)(b)(ii) (OBC: proportional, not more than 27 %)",
          "b3": "s.9-A(5)(1)(b)(iii) (women of SC/ST/OBC: one-third)",
          "b4": "s.9-A(5)(1)(b)(iv) (women in all: not less than one-third)",
          "c": "s.9-A(5)(1)(c) (divisions: proportional, capped at the State proportion, remainder one office per "
               "division per cycle to divisions above the State share)",
          "d1": "s.9-A(5)(1)(d)(i) (SC in descending SC share, women first)",
          "d2": "s.9-A(5)(1)(d)(ii) (ST, leaving out the SC bodies)",
          "d3": "s.9-A(5)(1)(d)(iii) (OBC, leaving out the SC and ST bodies)",
          "d4": "s.9-A(5)(1)(d)(iv) (women, leaving out (i)-(iii), in descending share of women)",
          "mayor": "s.7 UP Municipal Corporations Act 1959 with the OBC proviso (RULES.md §5.1)"}
DIVISION_COLUMNS = ["division", "bodies", "category", "share", "formula", "cap", "initial", "shortfall_posts",
                    "shortfall_rounds", "final", "women", "others", "arithmetic", "clause"]

_KEEP = ("sc_st_rounding", "general_women", "category_women", "rotation_history", "women_history",
         "rotation_fallback", "tie_break", "lots")
URBAN_OPTIONS: dict[str, Option] = {k: CATALOGUE[k] for k in _KEEP}
URBAN_OPTIONS.update({o.name: o for o in [
    Option("obc_cap_rounding", "A3", "half_up",
           {"half_up": "27 % cap rounded half-up", "floor": "27 % cap: integer part"},
           "2023 totals: OBC 205 of 760 chairs = 4 Mayors + 201 NPP/NP chairs; 27 % of 199 and 544 are 53.73 and "
           "146.88, and 201 = 54 + 147 only by half-up (RULES.md §5.2, A3). Seed a: 'shall not be more than "
           "twenty seven per cent' (floor reading kept as the alternative)."),
    Option("obc_share", "A10", "", {},
           "The 2023 UP State Local Bodies Dedicated Backward Classes Commission, statewide per body type: 25.58 % "
           "Nagar Nigams, 42.29 % Palika Parishads, 49.55 % Nagar Panchayats (RULES.md §1; statewide_figures.csv). "
           "Empty = that figure for the body type.", kind="decimal_or_empty"),
    Option("women_rounding", "A1", "ceil",
           {"ceil": "women of SC/ST/OBC: at least one-third (rounded up)",
            "half_up": "women of SC/ST/OBC: one-third with the text's half-up rounding",
            "floor": "women of SC/ST/OBC: not more than one-third (integer part)"},
           "Seed a (b)(iii) says 'not more than one-third' with half-up rounding; Art. 243T(2) requires 'not less "
           "than one-third' for SC/ST, which only rounding up guarantees; every Dec 2022 count (Mayors 2 SC -> 1 W, "
           "4 OBC -> 2 W; NPs 73 SC -> 25 W, 1 ST -> 1 W) equals the ceiling (RULES.md A1)."),
    Option("women_total_rounding", "A1", "ceil",
           {"ceil": "women in all: at least one-third", "half_up": "women in all: one-third, half-up"},
           "Seed a (b)(iv): 'not less than one-third of the total number of offices' (only rounding up keeps that "
           "true when the third is not whole)."),
    Option("women_level", "A4", "division",
           {"division": "women one-third of each category and of all offices in each division",
            "state": "women counted at State level and shared among divisions by largest remainder"},
           "(c) sends each category 'including the number of offices determined for women' to the divisions; "
           "2023 women rose to 288 of 760 chairs (Dec 2022, State-level: 255) while bodies fell, which fits "
           "rounding up per division (RULES.md §5.2)."),
    Option("division_cap_rounding", "A13", "floor",
           {"floor": "a division's cap is the integer part of its offices x the State proportion",
            "half_up": "the cap is rounded half-up"},
           "(c) proviso: 'such allotment in that division shall be limited to the extent of such proportion'."),
    Option("np_method", "A13", "same_as_pp",
           {"same_as_pp": "Nagar Panchayats by division exactly like Palika Parishads",
            "state_level": "Nagar Panchayats with the State as the only unit (no divisions)"},
           "The text reached stops before the Nagar Panchayat part; (a) says the two are done 'separately in the "
           "manner provided herein' and the officials described one divisional method for both (RULES.md §5.3)."),
    Option("category_order", "A6", "sc_first",
           {"sc_first": "SC, ST, OBC, women as (d)(i)-(iv)", "st_first": "ST, SC, OBC, women"},
           "Seed a (d): (i) SC, (ii) 'thereafter' ST leaving out the SC bodies, (iii) OBC, (iv) women."),
    Option("rotation", "A8", "tiers",
           {"tiers": "with a history: never reserved for the category first, then not reserved at the last "
                     "election (the panchayat rule)", "none": "no rotation: descending order only"},
           "The rotation clause of the 2023 text was not reached; reported practice: a cycle is not complete until "
           "every category has had its turn (RULES.md §3.4, A8 e). Without --history every body counts as never "
           "reserved either way."),
]})


def _female_table() -> pd.DataFrame | None:
    p = DATA_DIR / "census2011_towns_female.csv"
    if not p.is_file():
        return None
    f = pd.read_csv(p, dtype={"census2011_town_code": str})
    return f.set_index("census2011_town_code")


def load_bodies(body: str, path=None) -> tuple[pd.DataFrame, list[str]]:
    """The bodies of one type with their populations and where the figures come from.

    Shipped list (``path=None``): ``data/ulbs_lgd.csv`` (LGD 2020-22). A body linked to a Census 2011 town takes
    that town's figures (the Nagar Nigams created after 2011 take their 2011 town: RULES/issue); a body created
    after 2011 takes the Census totals of the villages LGD lists as its coverage (an estimate); a body with
    neither has no figures (share 0, ranked last, said in its row). Rows are never dropped silently: the notes
    list every body left out (the three suspect Nagar Nigam rows; a body with no district).

    A user list (``path``): CSV ``unit, name_en, body_type, district, pop, sc, st[, women, name_hi]``; an unknown
    district or a body type not in the law is an error.

    Columns: ``unit_code, unit_name_en, unit_name_hi, district, division, body_type, pop, sc, st, women,
    pop_source``.
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
                districts.append(cw.name_en[cw.resolve(v)])
            except KeyError as e:
                raise InputError(str(e.args[0]), file=str(path), row=int(row), column="district") from None
        df = pd.DataFrame({"unit_code": int_column(raw, "unit", path), "unit_name_en": raw["name_en"],
                           "unit_name_hi": raw["name_hi"] if "name_hi" in raw else "", "district": districts,
                           "body_type": t.astype(int), "pop": int_column(raw, "pop", path),
                           "sc": int_column(raw, "sc", path), "st": int_column(raw, "st", path),
                           "women": int_column(raw, "women", path, allow_blank=True) if "women" in raw else pd.NA,
                           "pop_source": f"supplied ({Path(path).name})", "_row": raw["_row"]})
        dup = df["unit_code"].duplicated().to_numpy()
        if dup.any():
            i = int(np.flatnonzero(dup)[0])
            raise InputError(f"duplicate unit {df['unit_code'].iat[i]}", file=str(path), row=int(df["_row"].iat[i]),
                             column="unit")
        over = (df["sc"] + df["st"] > df["pop"]).to_numpy()
        if over.any():
            i = int(np.flatnonzero(over)[0])
            raise InputError("sc + st exceeds pop", file=str(path), row=int(df["_row"].iat[i]), column="sc")
        df = df[df["body_type"] == spec["type"]].drop(columns="_row")
    else:
        u = pd.read_csv(DATA_DIR / "ulbs_lgd.csv", dtype={"census2011_town_code": str})
        u = u[u["lgd_type_code"] == spec["type"]]
        suspect = u["note"].fillna("").str.startswith("suspect LGD row")
        for name in u.loc[suspect, "ulb_name"]:
            notes.append(f"left out: {name} (a suspect LGD row typed as {spec['unit']}, not one of the bodies; "
                         f"data/ulbs_lgd.csv note)")
        u = u[~suspect]
        nodist = u["district_en"].isna()
        for name in u.loc[nodist, "ulb_name"]:
            notes.append(f"left out: {name} (LGD gives no district, so no division; data/ulbs_lgd.csv)")
        u = u[~nodist]
        census = u["census2011_town_code"].notna()
        cover = ~census & (u["coverage_villages_census2011_tot_p"].fillna(0) > 0)
        female = _female_table()
        women = pd.Series(pd.NA, index=u.index, dtype="Int64")
        if female is not None:
            women[census] = u.loc[census, "census2011_town_code"].map(female["tot_f"]).astype("Int64")
        src = np.where(census, "Census 2011 town " + u["census2011_town_code"].fillna("") + " ("
                       + u["census2011_town_name"].fillna("") + ")",
                       np.where(cover, "estimate: Census 2011 villages in the LGD coverage list",
                                "none: created after 2011, no Census town and no LGD village coverage"))
        df = pd.DataFrame({
            "unit_code": u["ulb_lgd_code"].astype(int), "unit_name_en": u["ulb_name"].map(
                lambda x: nfc(x).title() if (x.isupper() or x.islower()) else nfc(x)),
            "unit_name_hi": u["ulb_name_local"].fillna(""), "district": u["district_en"], "body_type": spec["type"],
            "pop": np.where(census, u["census2011_tot_p"], u["coverage_villages_census2011_tot_p"]).astype(float),
            "sc": np.where(census, u["census2011_sc"], u["coverage_villages_census2011_sc"]).astype(float),
            "st": np.where(census, u["census2011_st"], u["coverage_villages_census2011_st"]).astype(float),
            "women": women, "pop_source": src})
        for c in ("pop", "sc", "st"):
            df[c] = df[c].fillna(0).astype(np.int64)
        n_est, n_none = int(cover.sum()), int((~census & ~cover).sum())
        if n_est or n_none:
            notes.append(f"{n_est} {spec['unit']}(s) created after 2011 take the Census totals of the villages in "
                         f"their LGD coverage (an estimate); {n_none} have no figures at all and are ranked last "
                         f"(share 0); every such row says so")
        if female is None or df["women"].isna().any():
            k = int(df["women"].isna().sum())
            notes.append(f"female population missing for {k} {spec['unit']}(s) (no Census town): their share of "
                         f"women is taken as the State share of women among the bodies of the type, so they rank "
                         f"by the tie-break among equals")
    df["division"] = df["district"].map(division_of)
    df["body_type"] = spec["unit"] if spec["type"] != 4 else "Nagar Nigam"
    df = df.sort_values(["division", "unit_code"], kind="stable").reset_index(drop=True)
    return df, notes


def _rules(opts: OptionSet, clause_sc_st: str, clause_obc: str) -> QuotaRules:
    return QuotaRules(sc_st_rounding=opts["sc_st_rounding"], obc_cap_rounding=opts["obc_cap_rounding"],
                      general_women=opts["general_women"], women_rounding=opts["women_rounding"],
                      women_total_rounding=opts["women_total_rounding"], clause_sc_st=clause_sc_st,
                      clause_obc=clause_obc, clause_women=f"{CLAUSE['b3']}; {CLAUSE['b4']}",
                      clause_ur="the offices left after the reserved categories and women")


def _obc_share(body: str, opts: OptionSet) -> Fraction:
    return Fraction(opts["obc_share"] or URBAN_BODIES[body]["obc_share"]) / 100


def urban_counts(body: str, year: int = 2023, opts: OptionSet | None = None,
                 bodies: pd.DataFrame | None = None) -> pd.DataFrame:
    """State counts (category, count, arithmetic, clause) for one body type, women at State level (b)."""
    bodies = bodies if bodies is not None else load_bodies(body)[0]
    pop = int(bodies["pop"].sum())
    shares = {"SC": Fraction(int(bodies["sc"].sum()), pop), "ST": Fraction(int(bodies["st"].sum()), pop),
              "OBC": _obc_share(body, opts)}
    law = CLAUSE["mayor"] if body == "mayor" else None
    return category_counts(len(bodies), shares, _rules(opts, law or CLAUSE["b1"], law or CLAUSE["b2"]))


def division_counts(body: str, opts: OptionSet, bodies: pd.DataFrame, state: dict[str, int],
                    population: pd.DataFrame | None = None) -> tuple[pd.DataFrame, list[str]]:
    """(c): offices per division and category (:data:`DIVISION_COLUMNS`), and notes."""
    g = bodies.groupby("division", sort=True)
    d = pd.DataFrame({"bodies": g.size(), "pop": g["pop"].sum(), "sc": g["sc"].sum(), "st": g["st"].sum()})
    d["obc"] = g["obc"].sum() if "obc" in bodies else None
    d = d.reset_index()
    n_total = len(bodies)
    pop_state = int(bodies["pop"].sum())
    notes = []
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
            state_share = Fraction(int(d[col].sum()), pop_state)
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
    if opts["women_level"] == "division":
        for grp in ("SC", "ST", "OBC"):
            women[grp] = np.array([round_with(opts["women_rounding"], Fraction(int(k), 3)) for k in finals[grp]])
        cat_w = women["SC"] + women["ST"] + women["OBC"]
        if opts["general_women"] == "total_minus_category":
            total_w = np.array([round_with(opts["women_total_rounding"], Fraction(int(b), 3)) for b in d["bodies"]])
            women["GEN"] = np.minimum(np.maximum(total_w - cat_w, 0), d["bodies"].to_numpy() - res)
        else:
            women["GEN"] = np.array([round_with(opts["women_total_rounding"], Fraction(int(b - r), 3))
                                     for b, r in zip(d["bodies"], res)])
    else:
        for grp in ("SC", "ST", "OBC"):
            women[grp] = largest_remainder(state[f"{grp}_W"], d["division"], pd.Series(finals[grp]),
                                           upper=pd.Series(finals[grp]), tie_key=d["pop"])["final"].to_numpy()
        women["GEN"] = largest_remainder(state["W"], d["division"], d["bodies"] - res, upper=d["bodies"] - res,
                                         tie_key=d["pop"])["final"].to_numpy()
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
                         "arithmetic": x["arithmetic"] + f"; women {int(women[grp][i])}", "clause": CLAUSE["c"]})
        ur = int(r["bodies"]) - int(res[i]) - int(women["GEN"][i])
        rows.append({**base, "category": "W", "share": "", "formula": "", "cap": "", "initial": None,
                     "shortfall_posts": 0, "shortfall_rounds": "", "final": int(women["GEN"][i]),
                     "women": int(women["GEN"][i]), "others": 0,
                     "arithmetic": f"women in all in the division minus category women = {int(women['GEN'][i])}",
                     "clause": CLAUSE["b4"]})
        rows.append({**base, "category": "UR", "share": "", "formula": "", "cap": "", "initial": None,
                     "shortfall_posts": 0, "shortfall_rounds": "", "final": ur, "women": 0, "others": ur,
                     "arithmetic": f"{int(r['bodies'])} - {int(res[i])} reserved - {int(women['GEN'][i])} women",
                     "clause": "the offices left in the division"})
    out = pd.DataFrame(rows, columns=DIVISION_COLUMNS)
    out["initial"] = out["initial"].astype("Int64")
    return out, notes


class BodyCrosswalk:
    """Resolve an urban body: its LGD code, or its name (English or Hindi; 'Name, District' if repeated)."""

    def __init__(self, bodies: pd.DataFrame):
        self.codes = set(int(c) for c in bodies["unit_code"])
        self.by_name: dict[str, set[int]] = {}
        self.by_district: dict[tuple[int, str], int] = {}
        cw = crosswalk()
        for code, en, hi, d in zip(bodies["unit_code"], bodies["unit_name_en"], bodies["unit_name_hi"],
                                   bodies["district"]):
            for name in (en, hi):
                if name:
                    self.by_name.setdefault(loose_key(name), set()).add(int(code))
                    self.by_district[(cw.resolve(d), loose_key(name))] = int(code)

    def resolve(self, value) -> int:
        s = nfc(str(value))
        if s.isdigit():
            if int(s) in self.codes:
                return int(s)
            raise KeyError(f"unknown LGD urban body code {s}")
        if "," in s:
            name, district = (x.strip() for x in s.rsplit(",", 1))
            code = self.by_district.get((crosswalk().resolve(district), loose_key(name)))
            if code is None:
                raise KeyError(f"unknown body {name!r} in district {district!r}")
            return code
        found = self.by_name.get(loose_key(s), set())
        if len(found) == 1:
            return next(iter(found))
        if found:
            raise KeyError(f"body name {s!r} is used {len(found)} times; write 'Name, District'")
        raise KeyError(f"unknown urban body {s!r}")


def bodies_as_units(body: str):
    def load(units, year, opts) -> UnitSet:
        bodies, notes = load_bodies(body, units)
        if _parent(body, opts) is None:
            bodies = bodies.sort_values("unit_code", kind="stable").reset_index(drop=True)
        described = {"units": describe_input(units)} if units is not None and not isinstance(units, pd.DataFrame) \
            else {}
        return UnitSet(bodies, BodyCrosswalk(bodies).resolve, notes, described)
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
            dc, notes = division_counts(body, opts, bodies, n, ctx.population if ctx.obc.given else None)
            slots = {}
            for division, g in dc.groupby("division", sort=True):
                x = g.set_index("category")
                row = {}
                for grp in ("SC", "ST", "OBC"):
                    row[f"{grp}_W"], row[grp] = int(x.at[grp, "women"]), int(x.at[grp, "others"])
                row["W"], row["UR"] = int(x.at["W", "final"]), int(x.at["UR", "final"])
                slots[division] = row
            slots = pd.DataFrame.from_dict(slots, orient="index")[list(CODES)]
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
        no_fig = bodies["pop_source"].str.startswith("none").to_numpy()
        if no_fig.any():
            extra["no_figures"] = bodies.loc[no_fig, ["unit_code", "unit_name_en", "district", "pop_source"]]
            notes.append(f"{int(no_fig.sum())} {URBAN_BODIES[body]['unit']}(s) have no population figures: no "
                         f"population figures for this body (created after 2011): share 0, ranked last")
        return Counts(counts_table, slots, extra, notes)
    return counts


def _groups(body: str) -> dict[str, Group]:
    where = "population" if body == "mayor" else "population of the body"
    c = {g: "mayor" if body == "mayor" else k for g, k in (("SC", "d1"), ("ST", "d2"), ("OBC", "d3"), ("GEN", "d4"))}
    return {
        "SC": Group(share("sc"), f"SC share of the {where}", c["SC"], c["SC"] + ".women"),
        "ST": Group(share("st"), f"ST share of the {where}", c["ST"], c["ST"] + ".women"),
        "OBC": Group(share("obc"), f"OBC share of the {where}", c["OBC"], c["OBC"] + ".women", note="obc"),
        "GEN": Group(women_share, f"share of women in the {where}", c["GEN"]),
    }


_ORDERS = {"sc_first": (("SC", ("SC_W", "SC")), ("ST", ("ST_W", "ST")), ("OBC", ("OBC_W", "OBC")), ("GEN", ("W",))),
           "st_first": (("ST", ("ST_W", "ST")), ("SC", ("SC_W", "SC")), ("OBC", ("OBC_W", "OBC")), ("GEN", ("W",)))}


def _clauses(body: str) -> dict[str, str]:
    out = dict(CLAUSE)
    for k in ("d1", "d2", "d3", "mayor"):
        out[f"{k}.women"] = CLAUSE[k] + "; women first (proviso)"
    out["rotation"] = "rotation: option rotation (the 2023 rotation clause was not reached; RULES.md A8)"
    out["unreserved"] = f"{URBAN_BODIES[body]['law']}: the offices left are unreserved"
    return out


def _rulebook(body: str) -> Rulebook:
    spec = URBAN_BODIES[body]
    return Rulebook(
        id=body, title=spec["title"], title_hi=spec["title_hi"], unit_kind="urban body", parent="division",
        parent_for=lambda opts: _parent(body, opts), parent_word="division", years=URBAN_YEARS,
        options=URBAN_OPTIONS, load_units=bodies_as_units(body), counts=body_counts(body), groups=_groups(body),
        pass_order=lambda opts: _ORDERS[opts["category_order"]], clauses=_clauses(body), units_file="optional",
        parent_table="divisions" if body != "mayor" else "", default_base_year=0,
        obc_note=("OBC population by body is not public and was not supplied: every {unit} is assumed at the State "
                  "share {share} % of its type, so the OBC order falls to the tie-break rule ({tie_break}) and "
                  "rotation"),
        obc_share=lambda opts: (_obc_share(body, opts), fmt_fraction(_obc_share(body, opts) * 100, 2)),
        label_fields=lambda opts: {"unit": spec["unit"]}, columns=("body_type", "pop_source"))


RULEBOOKS = {body: _rulebook(body) for body in URBAN_BODIES}
register(*RULEBOOKS.values())
