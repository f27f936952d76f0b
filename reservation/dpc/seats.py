"""District Planning Committee (DPC): composition and reserved seats under the U.P. DPC Rules 2008.

The law (the shipped text ``data/seeds/003_f563b6887052fbbf.txt``; rules 3 and 6 as substituted by the first
amendment of 14.03.2008):

- **r.3(1)** and the Schedule: the members of each district's committee; column 3 (members under s.4(2) of
  the Act) are the elected members. Parsed by :mod:`reservation.dpc.schedule`.
- **r.3(3)**: the State Election Commission splits the elected members into those elected *from amongst the
  elected members of the Zila Panchayat* (rural) and *from the Municipalities* (urban) "in the proportion to
  the ratio between the population of rural areas and of the urban areas in the district"; **proviso**: "the
  fraction less than half shall be ignored and the fraction of half or more shall be counted one" (half-up,
  ``2*remainder >= divisor``, :func:`reservation.law.rounding.half_up`).
- **r.3(4)**: when the urban members are at least as many as the municipalities, at least one member is
  elected from every municipality; **proviso**: when they are fewer, (a) not more than one member from a
  municipality, (b) the candidate with most votes in a municipality is its member and no other candidate of
  that municipality is elected, whatever his votes. Applied in the count (:mod:`.dpc_count`); here the
  number of municipalities decides which limb applies.
- **r.6**: the members belonging to SC, ST, OBC and women "shall be in the ratio of reservation provided to
  that class in the Zila Panchayat or the Municipalities, as the case may be".

*Municipalities* are the Nagar Nigams, Nagar Palika Parishads and Nagar Panchayats (LGD local-body types 4, 5
and 7) of ``data/ulbs_lgd.csv`` whose district is the DPC's district. Cantonment boards (type 8) and
development authorities (type 6) are not municipalities (Art. 243Q). Three LGD rows typed as Nagar Nigam
(JHUSI 297928, NAINI 297929, Phaphamau 297931, Prayagraj) are not among the 17 Nagar Nigams and are left out;
one Nagar Panchayat row has no district (Pakadia Naugawa, 297046) and is in no district's list.

**Readings chosen (each is an option, see :data:`DPC_OPTIONS`; results record the options used):**

``schedule_row`` (default ``total_minus_s4_4``)
    What to use as elected members when a Schedule row does not add up (only serial 1, Prayagraj:
    "12 3 5 8 40"): the total minus the s.4(4) members (40 - 8 = 32, which is also four-fifths of 40 and the
    value of every other 40-member row), the number as printed (12), or refuse.
``population_basis`` (default ``census_rural_urban``)
    Census 2011 rural and urban population of the district; or ``statutory_towns``: urban = population of the
    statutory towns (municipalities and cantonments), so that census towns, which are governed by gram
    panchayats and vote in the Zila Panchayat, count as rural. Both give Mirzapur 21 rural seats (RULES §7.4)
    and Meerut 14 (a 2021 news report). Evidence for the default: a 2021 report for Muzaffarnagar gives SC 4
    and OBC 6 rural seats, which fit 23 rural seats (census) and not 25 (statutory: OBC 27 % x 25 -> 7). Against
    it: over 74 districts the census basis gives 1,415 rural seats and the statutory basis 1,440, where the
    2021 report says 1,435 (neither matches; see notes/dpc_notes.md).
``reservation_basis`` (default ``population``)
    How the "ratio of reservation provided to that class in the Zila Panchayat" is known. ``population``:
    the ratio that the Zila Panchayat's (municipalities') own reservation follows by law - SC and ST seats in
    proportion to their population in the rural (urban) part of the district (Art. 243D(1)/243T(1)), OBC at
    ``obc_ratio_rural`` / ``obc_ratio_urban`` (default 27, the ceiling, which binds when the OBC share is
    above it: rural 53.33 % in the 2015 rapid survey). ``body_seats``: the literal ratio, from a table of the
    seats actually reserved in the Zila Panchayat (or in the district's municipalities together), given as
    input (:func:`load_body_seats`).
``category_rounding`` (default ``half_up``)
    members x ratio is rounded half-up, the rounding the Rules use in r.3(3). Mirzapur 2021: SC 21 x 28.55 %
    = 5.99 -> 6, OBC 21 x 27 % = 5.67 -> 6 (floor would give 5 and 5; RULES §7.4).
``women`` (default ``third_of_each``) and ``women_rounding`` (default ``half_up``)
    Women are one-third of each category *including the unreserved* (RULES §7.3 and A5 reading b: 2021
    statewide 238 unreserved women of 714 unreserved; Mirzapur SC 6 -> 2, OBC 6 -> 2, UR 9 -> 3). Rounding:
    the 2021 Muzaffarnagar report (SC 4 -> 1 woman; 13 unreserved -> 4 women) excludes ``ceil``; half-up and
    floor fit; half-up is chosen as "as nearly as may be" (a Muzaffarnagar urban report of unknown year,
    4 unreserved -> 2 women, fits only ceil: left open). ``third_of_total`` is A5 reading a; ``body_ratio``
    takes each women's category in the Zila Panchayat's own ratio (needs ``reservation_basis=body_seats``).

``fill_order`` (default ``highest_votes``; used by the count, :mod:`.dpc_count`)
    How one poll fills the reserved seats: by votes, a candidate passed over only where a reserved seat would
    otherwise lose its member (r.26(1) "securing the highest number of votes" with r.6 as the only
    exception), or seat by seat with the reserved seats first (``reserved_first``, ``classes_then_women``) or
    last (``open_first``). The Rules name no order; see the option's evidence.

The aggregate SC + ST + OBC above half of a part is flagged (RULES A11) but not capped: Mirzapur 2021
reserved 12 of 21. User-given numbers are bounded: ``--year`` 2013..2099 (:func:`check_year`), ``--elected``
1..100.
"""

from __future__ import annotations

import numbers
import re
from fractions import Fraction
from functools import lru_cache

import pandas as pd

from ..law.categories import CODES
from ..base.errors import InputError
from ..inputs.options import Option, OptionSet
from ..law.rounding import half_up, round_with
from ..inputs.units import DATA_DIR, int_column, load_districts, loose_key, read_csv
from ..inputs.names import crosswalk
from .files import FlagError, parse_count, read_table
from .schedule import SCHEDULE_CLAUSE, load_schedule, seed_path

__all__ = ["DPC_OPTIONS", "dpc_options", "check_year", "MAX_ELECTED", "MAX_YEAR", "municipalities", "resolve_municipality", "elected_members",
           "split_seats", "seats", "seats_all", "load_body_seats", "SEATS_COLUMNS", "ULB_PATH",
           "MUNICIPAL_TYPES", "EXCLUDED_ULBS", "R33", "R34", "R34_PROVISO", "R6"]

R33 = "DPC Rules 2008 r.3(3) and proviso"
R34 = "DPC Rules 2008 r.3(4)"
R34_PROVISO = "DPC Rules 2008 r.3(4) proviso (a), (b)"
R6 = "DPC Rules 2008 r.6"
ULB_PATH = DATA_DIR / "ulbs_lgd.csv"
MUNICIPAL_TYPES = {"4": "Nagar Nigam", "5": "Nagar Palika Parishad", "7": "Nagar Panchayat"}
#: LGD rows typed as Nagar Nigam that are not municipalities of their own (see data/ulbs_lgd.csv ``note``).
EXCLUDED_ULBS = {297928: "JHUSI", 297929: "NAINI", 297931: "Phaphamau"}
PARTS = ("rural", "urban")
GROUPS = ("ST", "SC", "OBC", "GEN")
_WOMEN = {"ST": "ST_W", "SC": "SC_W", "OBC": "OBC_W", "GEN": "W"}
_MEN = {"ST": "ST", "SC": "SC", "OBC": "OBC", "GEN": "UR"}

_O = Option
DPC_OPTIONS: dict[str, Option] = {o.name: o for o in [
    _O("schedule_row", "DPC-1", "total_minus_s4_4",
       {"total_minus_s4_4": "a row that does not add up: elected = total - members under s.4(4)",
        "as_printed": "a row that does not add up: elected = column 3 as printed",
        "refuse": "a row that does not add up is an error"},
       "Only serial 1 (Prayagraj, '12 3 5 8 40') fails: 12 + 8 != 40; 40 - 8 = 32 is four-fifths of 40 "
       "(Art. 243ZD(2)(a)) and the column-3 value of all 13 other 40-member rows; '12' looks like an OCR slip "
       "next to the glued footnote marker."),
    _O("population_basis", "A10", "census_rural_urban",
       {"census_rural_urban": "Census 2011 rural and urban population of the district",
        "statutory_towns": "urban = statutory towns (municipalities, cantonments); census towns count as rural"},
       "r.3(3) 'population of rural areas and of the urban areas'. Mirzapur 21 and Meerut 14 rural seats (2021) "
       "fit both; Muzaffarnagar 2021 (SC 4, OBC 6 rural) fits the census basis (23 seats) and not the "
       "statutory one (25 -> OBC 7). Statewide 2021 (1,435 rural seats reported) is matched by neither "
       "(1,415 census, 1,440 statutory)."),
    _O("reservation_basis", "DPC-2", "population",
       {"population": "the ratio the Zila Panchayat's (municipalities') reservation follows by law: SC/ST "
                      "population shares of the part, OBC at obc_ratio_*",
        "body_seats": "the seats actually reserved in the Zila Panchayat / municipalities (input table)"},
       "r.6 'in the ratio of reservation provided to that class in the Zila Panchayat or the Municipalities'. "
       "The shipped data have no Zila Panchayat ward reservation per district, so the default models it; "
       "Mirzapur 2021 (SC 6, OBC 6 of 21) is reproduced."),
    _O("obc_ratio_rural", "A10", "27", {},
       "Zila Panchayat OBC seats are at most 27 %; the rural OBC share (53.33 %, 2015 rapid survey) is above "
       "it, so the ratio is the ceiling.", kind="decimal"),
    _O("obc_ratio_urban", "A10", "27", {},
       "Municipal OBC seats are at most 27 %; the 2023 commission's urban shares (Nagar Nigam 25.58 %, Palika "
       "42.29 %, Panchayat 49.55 %) put most bodies at the ceiling. A district's exact ratio needs its "
       "municipalities' ward reservation (reservation_basis=body_seats).", kind="decimal"),
    _O("category_rounding", "A2", "half_up",
       {"half_up": "members x ratio: a fraction of half or more counts as one",
        "floor": "members x ratio: integer part", "ceil": "members x ratio: any fraction counts as one"},
       "The Rules' own rounding (r.3(3) proviso). Mirzapur 2021: SC 21 x 28.547 % = 5.99 -> 6 and OBC "
       "21 x 27 % = 5.67 -> 6 (published SC 6, OBC 6); floor gives 5 and 5."),
    _O("women", "A5", "third_of_each",
       {"third_of_each": "women = one-third of each category, the unreserved included",
        "third_of_total": "women in all = one-third of the part; general women = that minus the category women",
        "body_ratio": "each women's category in its ratio in the Zila Panchayat (needs body_seats)"},
       "RULES §7.3: 2021 statewide 238 unreserved women of 714 unreserved seats; Mirzapur SC 6 -> 2, OBC 6 "
       "-> 2, UR 9 -> 3."),
    _O("women_rounding", "A1", "half_up",
       {"half_up": "one-third, a fraction of half or more counts as one",
        "ceil": "one-third, rounded up (not less than one-third)",
        "floor": "one-third, integer part (not more than one-third)"},
       "Muzaffarnagar 2021 (news): SC 4 -> 1 woman and 13 unreserved -> 4 women exclude ceil; half-up and "
       "floor fit; Mirzapur fits all three. A Muzaffarnagar urban report (year unknown, 4 UR -> 2 women) fits "
       "only ceil."),
    _O("fill_order", "DPC-3", "highest_votes",
       {"highest_votes": "one poll: candidates in order of votes, each elected unless a reserved seat would be "
                         "left without its member (the top N, the lowest giving way where r.6 requires)",
        "reserved_first": "one poll, seat by seat: reserved seats first in r.6's order (SC, ST, OBC, each "
                          "class's women's seats first), then women of any class (W), then unreserved",
        "classes_then_women": "one poll, seat by seat in r.6's word order: SC, ST, OBC seats, then the women's "
                              "seats (SC_W, ST_W, OBC_W, W), then unreserved",
        "open_first": "one poll, seat by seat: unreserved seats first to the highest votes, then the reserved "
                      "seats as in reserved_first"},
       "The Rules have one poll and one counting rule. r.24(2): 'Every elector shall have such number of votes "
       "as the number of members to be elected' (one ballot for every seat); r.26(1): 'declare such number of "
       "candidates as are required to be elected, securing the highest number of votes'; r.6 fixes only 'the "
       "number of members ... belonging to' each class ('in the ratio of reservation provided to that class'), "
       "r.14(3) speaks of 'members to be elected against reservation' and r.9(3) has every reserved-class "
       "candidate certify his class with the nomination. No rule fills reserved seats first, apart or in an "
       "order, so the default departs from r.26(1)'s highest votes only as far as r.6 requires."),
]}

#: Upper bounds of what a user may give (a committee of the Schedule has at most 40 members).
MAX_ELECTED = 100
MAX_YEAR = 2099


_DECIMAL = re.compile(r"[0-9]{1,3}(\.[0-9]{1,6})?")


def dpc_options(assignments=()) -> OptionSet:
    """The DPC option set with ``assignments`` ([(name, value), ...]) applied."""
    assignments = list(assignments)
    for name, value in assignments:
        opt = DPC_OPTIONS.get(name)
        if opt is not None and opt.kind == "decimal" and not _DECIMAL.fullmatch(str(value).strip()):
            raise FlagError(f"{str(value)[:40]!r} is not a percentage written as digits with at "
                            f"most six decimals (e.g. 27 or 26.5)", option=f"--option {name}")
    opts = OptionSet.of(DPC_OPTIONS, assignments)
    if opts["women"] == "body_ratio" and opts["reservation_basis"] != "body_seats":
        raise FlagError("option women=body_ratio needs reservation_basis=body_seats", option="--option women")
    return opts


def _dec(x, places: int = 4) -> str:
    """A Fraction as a decimal string (display only)."""
    x = Fraction(x)
    q = half_up(abs(x) * 10 ** places)
    s = str(q).rjust(places + 1, "0")
    return ("-" if x < 0 else "") + s[:-places] + "." + s[-places:]


def _pct(x) -> str:
    return _dec(Fraction(x) * 100, 3) + " %"


# --------------------------------------------------------------------------------------------- municipalities
@lru_cache(maxsize=4)
def _ulbs(path_str: str) -> pd.DataFrame:
    path = path_str
    raw = read_csv(path, ["ulb_lgd_code", "ulb_name", "lgd_type_code", "body_type", "district_en"],
                   what="urban local body list")
    raw["ulb_lgd_code"] = int_column(raw, "ulb_lgd_code", path)
    note = raw["note"] if "note" in raw.columns else pd.Series("", index=raw.index)
    keep = raw["lgd_type_code"].isin(list(MUNICIPAL_TYPES)) & ~raw["ulb_lgd_code"].isin(list(EXCLUDED_ULBS)) \
        & ~note.str.lower().str.startswith("suspect")
    keep &= raw["district_en"] != ""
    m = raw[keep].copy()
    cw = crosswalk()
    codes = []
    for name, row in zip(m["district_en"], m["_row"]):
        try:
            codes.append(cw.resolve(name))
        except KeyError as e:
            raise InputError(str(e.args[0]), file=path, row=int(row), column="district_en") from None
    m["district_lgd_code"] = codes
    m["kind"] = m["lgd_type_code"].map(MUNICIPAL_TYPES)
    m["key"] = m["ulb_name"].map(loose_key)
    return m[["district_lgd_code", "ulb_lgd_code", "ulb_name", "lgd_type_code", "kind", "key", "_row"]] \
        .sort_values(["district_lgd_code", "lgd_type_code", "ulb_lgd_code"], kind="stable").reset_index(drop=True)


def municipalities(district, path=None) -> pd.DataFrame:
    """The municipalities of a district (name, LGD code or name variant): ``ulb_lgd_code, ulb_name,
    lgd_type_code, kind`` from the shipped urban-body list (types 4, 5, 7; see the module docstring)."""
    code = _district_code(district)
    m = _ulbs(str(path or ULB_PATH))
    return m[m["district_lgd_code"] == code].drop(columns=["key", "_row"]).reset_index(drop=True)


def resolve_municipality(district_code: int, value: str, path=None) -> tuple[int, str]:
    """A municipality of the district given by LGD code or name -> (ulb_lgd_code, ulb_name). KeyError when
    unknown or ambiguous (LGD lists a few names twice, e.g. an NPP and an NP 'Gaura Barhaj')."""
    m = _ulbs(str(path or ULB_PATH))
    m = m[m["district_lgd_code"] == int(district_code)]
    s = str(value).strip()
    if s.isdigit():
        hit = m[m["ulb_lgd_code"] == int(s)]
    else:
        hit = m[m["key"] == loose_key(s)]
    if len(hit) == 1:
        return int(hit["ulb_lgd_code"].iat[0]), str(hit["ulb_name"].iat[0])
    if len(hit) > 1:
        raise KeyError(f"municipality {s!r} is ambiguous in this district (LGD codes "
                       f"{', '.join(map(str, hit['ulb_lgd_code']))}); give the LGD code")
    raise KeyError(f"{s!r} is not a municipality of the district in the shipped urban-body list")


def check_year(year) -> int:
    """An election year the shipped figures can serve: 2013 (Census 2011 was published in 2013) to 2099."""
    if isinstance(year, bool) or not isinstance(year, (numbers.Integral, str)) or not str(year).strip().isdigit():
        raise FlagError(f"year {year!r} is not a year (four digits)", option="--year")
    y = int(str(year).strip()) if len(str(year).strip()) <= 6 else 10**6
    if y < 2013:
        raise FlagError(f"year {y}: the Census 2011 figures (published 2013) are the only population shipped",
                        option="--year")
    if y > MAX_YEAR:
        raise FlagError(f"year {str(year).strip()[:12]}: not a plausible election year (at most {MAX_YEAR})",
                        option="--year")
    return y


def _elected_count(elected) -> int:
    if not isinstance(elected, numbers.Integral) or isinstance(elected, bool):
        raise FlagError(f"{elected!r} is not a number of members", option="--elected")
    n = int(elected)
    if n < 1:
        raise FlagError(f"{n} elected members: a committee needs at least one", option="--elected")
    if n > MAX_ELECTED:
        raise FlagError(f"{n} elected members: at most {MAX_ELECTED} (the Schedule's largest committee has 40 "
                        f"members in all)", option="--elected")
    return n


def _district_code(district) -> int:
    try:
        return crosswalk().resolve(district)
    except KeyError as e:
        raise FlagError(str(e.args[0]), option="--district") from None


# ------------------------------------------------------------------------------------------- composition
def elected_members(district, year: int = 2021, options: OptionSet | None = None, *, seed=None) -> dict:
    """Elected members of the district's committee from the Schedule (r.3(1), column 3), with the clause.

    Returns ``{"count", "arithmetic", "clause", "note", "serial"}``. A row substituted by an amendment later
    than ``year`` is refused (the earlier text is not in the seed); pass ``elected=`` to :func:`seats`
    instead."""
    opts = options or dpc_options()
    code = _district_code(district)
    sch = load_schedule(seed)
    r = sch[sch["district_lgd_code"] == code].iloc[0]
    if r["amended_on"] and int(r["amended_on"][:4]) > year:
        raise FlagError(f"the Schedule row of {r['district']} was substituted by the {r['amendment']} dated "
                        f"{r['amended_on']}; the row in force in {year} is not in the seed (give --elected)",
                        option="--year")
    note = ""
    count = int(r["s4_2"])
    arithmetic = f"Schedule serial {int(r['serial'])}, column 3 (members under s.4(2) of the Act)"
    if r["check"] != "ok":
        how = opts["schedule_row"]
        if how == "refuse":
            raise FlagError(f"Schedule serial {int(r['serial'])} ({r['district']}) does not add up: {r['check']}",
                            option="--option schedule_row")
        note = f"row does not add up: {r['check']}"
        if how == "total_minus_s4_4":
            count = int(r["total"]) - int(r["s4_4"])
            arithmetic = (f"Schedule serial {int(r['serial'])}: total {int(r['total'])} - members under s.4(4) "
                          f"{int(r['s4_4'])} = {count} (column 3 reads {int(r['s4_2'])})")
    return {"count": count, "arithmetic": arithmetic, "clause": r["clause"], "note": note,
            "serial": int(r["serial"])}


def _populations(d: pd.Series, basis: str) -> dict:
    """Population, SC and ST of the rural and urban parts under ``population_basis``."""
    if basis == "census_rural_urban":
        return {"rural": (d["pop_rural"], d["sc_rural"], d["st_rural"]),
                "urban": (d["pop_urban"], d["sc_urban"], d["st_urban"]),
                "source": "Census 2011 rural / urban (data/districts.csv tot_p_rural, tot_p_urban)"}
    raw = _district_raw()
    x = raw[raw["district_lgd_code"] == int(d["unit_code"])].iloc[0]
    up, usc, ust = int(x["statutory_p"]), int(x["statutory_sc"]), int(x["statutory_st"])
    return {"rural": (d["pop_total"] - up, d["sc_total"] - usc, d["st_total"] - ust),
            "urban": (up, usc, ust),
            "source": "Census 2011 statutory towns as urban, the rest as rural (data/districts.csv statutory_p)"}


@lru_cache(maxsize=1)
def _districts() -> pd.DataFrame:
    return load_districts()


@lru_cache(maxsize=1)
def _district_raw() -> pd.DataFrame:
    path = DATA_DIR / "districts.csv"
    raw = read_csv(path, ["district_lgd_code", "statutory_p", "statutory_sc", "statutory_st"], what="district table")
    out = pd.DataFrame({"district_lgd_code": int_column(raw, "district_lgd_code", path)})
    for c in ("statutory_p", "statutory_sc", "statutory_st"):
        out[c] = int_column(raw, c, path)
    return out


def split_seats(elected: int, pop_rural: int, pop_urban: int) -> dict:
    """r.3(3) with its proviso: rural and urban members in the ratio of the populations, each rounded
    half-up. When both parts are exact halves (the only way the two roundings can exceed ``elected``), the
    urban part takes the remainder and the result says so."""
    total = pop_rural + pop_urban
    if total <= 0:
        raise InputError("the district has no population to split by", column="pop_total")
    xr = Fraction(elected * pop_rural, total)
    xu = Fraction(elected * pop_urban, total)
    r, u = half_up(xr), half_up(xu)
    note = ""
    if r + u != elected:
        u = elected - r
        note = "both parts are exact halves; rural rounded up, urban takes the rest"
    fmt = lambda n, x: f"{elected} x {n:,} / {total:,} = {_dec(x)}"  # noqa: E731
    return {"rural": r, "urban": u, "rural_arithmetic": f"{fmt(pop_rural, xr)} -> {r}",
            "urban_arithmetic": f"{fmt(pop_urban, xu)} -> {u}", "note": note}


# ---------------------------------------------------------------------------------------------- reservation
def load_body_seats(path) -> pd.DataFrame:
    """The seats reserved in the Zila Panchayat (part ``rural``) or in the district's municipalities
    together (``urban``): CSV ``part, category, seats`` with category one of the eight codes. A part's rows
    must cover all its seats (the unreserved too), since the ratio is seats / all seats of the body."""
    df = read_table(path, ["part", "category", "seats"], what="body seats")
    seats_ = [parse_count(v, path, int(r), "seats", high=10_000) for v, r in zip(df["seats"], df["_row"])]
    seen = set()
    for part, cat, row in zip(df["part"], df["category"], df["_row"]):
        if part not in PARTS:
            raise InputError(f"part {part!r} is not rural or urban", file=str(path), row=int(row), column="part")
        if cat not in CODES:
            raise InputError(f"unknown category code {cat!r}; expected one of {' '.join(CODES)}",
                             file=str(path), row=int(row), column="category")
        if (part, cat) in seen:
            raise InputError(f"{part} {cat} given twice", file=str(path), row=int(row), column="category")
        seen.add((part, cat))
    out = pd.DataFrame({"part": df["part"], "category": df["category"], "seats": seats_, "_row": df["_row"]})
    for part in dict.fromkeys(out["part"]):
        if int(out.loc[out["part"] == part, "seats"].sum()) == 0:
            r = int(out.loc[out["part"] == part, "_row"].iat[0])
            raise InputError(f"the {part} body has no seats", file=str(path), row=r, column="seats")
    out.attrs["path"] = str(path)
    return out


def _ratios(part: str, pops, opts: OptionSet, body: pd.DataFrame | None):
    """{group: (ratio Fraction, explanation)} and the women's ratios when read from the body."""
    if opts["reservation_basis"] == "body_seats":
        if body is None:
            raise FlagError("reservation_basis=body_seats needs a body-seats table (--body-seats FILE)",
                            option="--option reservation_basis")
        b = body[body["part"] == part]
        if b.empty:
            return None, None
        seats_by = dict(zip(b["category"], (int(s) for s in b["seats"])))
        total = sum(seats_by.values())
        name = "Zila Panchayat" if part == "rural" else "municipalities"
        out = {}
        for g in GROUPS[:3]:
            k = seats_by.get(_WOMEN[g], 0) + seats_by.get(_MEN[g], 0)
            out[g] = (Fraction(k, total), f"{g} seats in the {name} {k} / {total}")
        women = {g: (Fraction(seats_by.get(_WOMEN[g], 0), total),
                     f"{_WOMEN[g]} seats in the {name} {seats_by.get(_WOMEN[g], 0)} / {total}") for g in GROUPS}
        return out, women
    pop, sc, st = (int(v) for v in pops)
    if pop <= 0:
        return {g: (Fraction(0), f"no {part} population") for g in GROUPS[:3]}, None
    obc = Fraction(opts[f"obc_ratio_{part}"]) / 100
    return {"ST": (Fraction(st, pop), f"ST {st:,} / {pop:,} {part} population"),
            "SC": (Fraction(sc, pop), f"SC {sc:,} / {pop:,} {part} population"),
            "OBC": (obc, f"OBC ratio {opts[f'obc_ratio_{part}']} % (option obc_ratio_{part})")}, None


def _reserve(part: str, n: int, pops, opts: OptionSet, body) -> list[dict]:
    """Rows for one part: the group counts and the eight categories (r.6)."""
    ratios, women_ratios = _ratios(part, pops, opts, body)
    fallback = ""
    if ratios is None:   # body_seats without rows for this part: the population basis, said in every row
        fallback = f"no {part} rows in the body-seats table: population basis used"
        opts = opts.replaced(reservation_basis="population",
                             women="third_of_each" if opts["women"] == "body_ratio" else opts["women"])
        ratios, women_ratios = _ratios(part, pops, opts, None)
    rnd = opts["category_rounding"]
    rows = []
    counts = {}
    for g in GROUPS[:3]:
        ratio, why = ratios[g]
        x = n * ratio
        counts[g] = round_with(rnd, x)
        rows.append({"part": part, "row": "group", "category": g, "count": counts[g],
                     "arithmetic": f"{n} x {_pct(ratio)} ({why}) = {_dec(x)} -> {counts[g]} ({rnd})",
                     "clause": R6, "note": ""})
    reserved = sum(counts.values())
    if reserved > n:
        raise FlagError(f"{part}: SC + ST + OBC = {reserved} exceeds the {n} seats",
                        option="--option reservation_basis")
    counts["GEN"] = n - reserved
    over = "SC + ST + OBC exceed half of the seats (RULES A11); no cap applied" if 2 * reserved > n else ""
    rows.append({"part": part, "row": "group", "category": "GEN", "count": counts["GEN"],
                 "arithmetic": f"{n} - {reserved} reserved = {counts['GEN']}", "clause": R6, "note": over})
    how, wr = opts["women"], opts["women_rounding"]
    women = {}
    arith = {}
    if how == "body_ratio":
        for g in GROUPS:
            ratio, why = women_ratios[g]
            x = n * ratio
            women[g] = min(round_with(rnd, x), counts[g])
            arith[g] = f"{n} x {_pct(ratio)} ({why}) = {_dec(x)} -> {women[g]} ({rnd})"
    else:
        cats = GROUPS if how == "third_of_each" else GROUPS[:3]
        for g in cats:
            women[g] = round_with(wr, Fraction(counts[g], 3))
            arith[g] = f"{counts[g]} / 3 = {_dec(Fraction(counts[g], 3))} -> {women[g]} ({wr})"
        if how == "third_of_total":
            all_w = round_with(wr, Fraction(n, 3))
            cat_w = sum(women.values())
            women["GEN"] = max(0, min(counts["GEN"], all_w - cat_w))
            arith["GEN"] = (f"{n} / 3 = {_dec(Fraction(n, 3))} -> {all_w} ({wr}) women in all, minus {cat_w} "
                            f"category women = {women['GEN']}")
    for g in GROUPS:
        w = women[g]
        label = "unreserved" if g == "GEN" else g
        rows.append({"part": part, "row": "category", "category": _WOMEN[g], "count": w,
                     "arithmetic": arith[g], "clause": R6 + f" (women among {label}; option women={how})",
                     "note": ""})
        rows.append({"part": part, "row": "category", "category": _MEN[g], "count": counts[g] - w,
                     "arithmetic": f"{counts[g]} - {w} women = {counts[g] - w}", "clause": R6, "note": ""})
    if fallback:
        for r in rows:
            r["note"] = (r["note"] + "; " if r["note"] else "") + fallback
    order = {c: i for i, c in enumerate(CODES)}
    cat_rows = sorted([r for r in rows if r["row"] == "category"], key=lambda r: order[r["category"]])
    return [r for r in rows if r["row"] == "group"] + cat_rows


SEATS_COLUMNS = {
    "district_lgd_code": "LGD district code", "district": "district (English)", "year": "election year",
    "part": "all / rural (Zila Panchayat) / urban (municipalities)",
    "row": "elected | split | municipalities | group | category",
    "category": "for group rows ST SC OBC GEN; for category rows the eight codes (W = unreserved women)",
    "count": "the number decided", "arithmetic": "how, with exact inputs", "clause": "the rule that decided it",
    "note": "flags and readings",
}


def seats(district, year: int = 2021, options: OptionSet | None = None, *, elected: int | None = None,
          body_seats: pd.DataFrame | None = None, seed=None, ulb_path=None) -> pd.DataFrame:
    """The elected seats of one district's DPC: total, rural/urban split (r.3(3)), the municipality rule
    that applies (r.3(4)) and the reserved seats of each part (r.6). One row per decided number (see
    :data:`SEATS_COLUMNS`); ``df.attrs["options"]`` records the options, ``df.attrs["inputs"]`` the files."""
    opts = options or dpc_options()
    year = check_year(year)
    code = _district_code(district)
    dist = _districts()
    d = dist[dist["unit_code"] == code].iloc[0]
    name = d["unit_name_en"]
    rows = []
    if elected is None:
        e = elected_members(code, year, opts, seed=seed)
        n = e["count"]
        rows.append({"part": "all", "row": "elected", "category": "", "count": n, "arithmetic": e["arithmetic"],
                     "clause": e["clause"], "note": e["note"]})
    else:
        n = _elected_count(elected)
        rows.append({"part": "all", "row": "elected", "category": "", "count": n,
                     "arithmetic": f"given ({n})", "clause": SCHEDULE_CLAUSE, "note": "given by the user"})
    pops = _populations(d, opts["population_basis"])
    sp = split_seats(n, int(pops["rural"][0]), int(pops["urban"][0]))
    for part in PARTS:
        rows.append({"part": part, "row": "split", "category": "", "count": sp[part],
                     "arithmetic": sp[f"{part}_arithmetic"] + f" [{pops['source']}]", "clause": R33,
                     "note": sp["note"]})
    muni = municipalities(code, ulb_path)
    k = len(muni)
    if sp["urban"] >= k:
        rule = (f"{sp['urban']} urban seats >= {k} municipalities: at least one member from every municipality",
                R34)
    else:
        rule = (f"{sp['urban']} urban seats < {k} municipalities: not more than one member from a municipality; "
                f"the one with most votes in each", R34_PROVISO)
    kinds = muni["kind"].value_counts()
    rows.append({"part": "urban", "row": "municipalities", "category": "", "count": k,
                 "arithmetic": ", ".join(f"{kinds.get(t, 0)} {t}" for t in MUNICIPAL_TYPES.values())
                 + " (data/ulbs_lgd.csv)", "clause": rule[1], "note": rule[0]})
    for part in PARTS:
        rows += _reserve(part, sp[part], pops[part], opts, body_seats)
    df = pd.DataFrame(rows)
    df.insert(0, "year", year)
    df.insert(0, "district", name)
    df.insert(0, "district_lgd_code", code)
    df = df[list(SEATS_COLUMNS)]
    df.attrs["options"] = opts.record()
    inputs = {"districts": str(DATA_DIR / "districts.csv"), "ulbs": str(ulb_path or ULB_PATH)}
    if elected is None:
        inputs["seed"] = str(seed_path(seed))
    if body_seats is not None:
        inputs["body_seats"] = body_seats.attrs.get("path", "")
    df.attrs["inputs"] = inputs
    return df


def seats_all(year: int = 2021, options: OptionSet | None = None, *, seed=None) -> pd.DataFrame:
    """:func:`seats` for all 75 districts, one long table (``population`` reservation basis only)."""
    opts = options or dpc_options()
    sch = load_schedule(seed)
    frames = [seats(int(c), year, opts, seed=seed) for c in sch["district_lgd_code"]]
    df = pd.concat(frames, ignore_index=True)
    df.attrs["options"] = opts.record()
    return df
