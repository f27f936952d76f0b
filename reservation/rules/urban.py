"""What the urban chair bodies share: the 2023 law's State counts, its options, its passes, and the rulebook.

The bodies, one module each: :mod:`.pp_chair` (Palika Parishad chairs, by division), :mod:`.np_chair` (Nagar
Panchayat chairs, by division or the State) and :mod:`.mayor` (Mayors, the State). The list of bodies and the
clause table are in :mod:`.urban_bodies`, the division step (c) in :mod:`.urban_divisions`.

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

import hashlib
import pickle
from collections import OrderedDict
from fractions import Fraction
from functools import partial
from pathlib import Path

import pandas as pd

from .catalogue import CATALOGUE, option
from .parameters import value
from ..law.categories import CODES
from ..inputs.user_files import describe_input
from .keys import share, women_share
from ..inputs.options import Option, OptionSet
from ..law.arithmetic import DivisionRestated, count_parts
from ..law.quota import QuotaRules, counts_table, fmt_fraction
from ..law.words_counts import arithmetic_words
from .rulebook import Counts, Group, Rulebook, UnitSet
from .urban_bodies import CLAUSE_HI, LAW_HI
from .urban_bodies import CLAUSE, URBAN_BODIES, URBAN_YEARS, body_index, load_bodies, obc_share
from .urban_divisions import division_basis, division_numbers, division_slots, division_table

__all__ = ["URBAN_YEARS", "URBAN_OPTIONS", "urban_counts", "urban_rulebook", "category_groups", "bodies_as_units",
           "body_counts"]

_KEEP = ("sc_st_rounding", "category_women", "rotation_history", "women_history",
         "rotation_fallback", "tie_break", "lots")
URBAN_OPTIONS: dict[str, Option] = {k: CATALOGUE[k] for k in _KEEP}
URBAN_OPTIONS.update({o.name: o for o in [
    option("urban", "obc_cap_rounding", "half_up",
           {"half_up": "27 % cap rounded half-up (reproduces the published 2023 total)",
            "floor": "27 % cap: integer part (the words 'not more than twenty seven per cent')"}),
    option("urban", "obc_share", "", {}, kind="decimal_or_empty"),
    option("urban", "women_rounding", "ceil",
           {"ceil": "women of SC/ST/OBC: at least one-third (rounded up)",
            "half_up": "women of SC/ST/OBC: one-third with the text's half-up rounding",
            "floor": "women of SC/ST/OBC: not more than one-third (integer part)"}),
    option("urban", "women_total_rounding", "ceil",
           {"ceil": "women in all: at least one-third", "half_up": "women in all: one-third, half-up"}),
    option("urban", "women_level", "division",
           {"division": "women one-third (women_rounding) of each category's offices in each division, and of "
                        "all its offices (general_women)",
            "state": "the State's women of (b)(iii) and (b)(iv) shared among the divisions by the women cycle "
                     "(function women_cycle: integer part of the proportion, then one office per division at a "
                     "time in descending order of share, repeated)"}),
    option("urban", "general_women", "third_of_rest",
           {"third_of_rest": "general women: one-third of the offices left after SC/ST/OBC (rounded by "
                             "women_total_rounding), in each division",
            "total_minus_category": "general women: one-third of all offices minus the category women"}),
    option("urban", "division_population", "same_type",
           {"same_type": "shares of (c) in the population of the division's bodies of the same type",
            "all_bodies": "shares of (c) in the population of all urban bodies of the division (Nagar Nigams, "
                          "Palika Parishads, Nagar Panchayats)",
            "census_urban": "shares of (c) in the Census 2011 urban population of the division (Census Towns, "
                            "outgrowths and cantonments included)"}),
    option("urban", "division_cap_rounding", "floor",
           {"floor": "a division's cap is the integer part of its offices x the State proportion",
            "half_up": "the cap is rounded half-up"}),
    option("urban", "np_method", "same_as_pp",
           {"same_as_pp": "Nagar Panchayats by division exactly like Palika Parishads",
            "state_level": "Nagar Panchayats with the State as the only unit (no divisions)"}),
    option("urban", "category_order", "sc_first",
           {"sc_first": "SC, ST, OBC, women as (d)(i)-(iv)", "st_first": "ST, SC, OBC, women"}),
    option("urban", "rotation", "tiers",
           {"tiers": "with a history: never reserved for the category first, then not reserved at the last "
                     "election (the panchayat rule)", "none": "no rotation: descending order only"}),
]})





#: the unreserved row's clause of the urban counts, in English and Hindi
_UR_CLAUSE = ("the offices left after the reserved categories and women",
              "आरक्षित श्रेणियों और स्त्रियों के पदों के बाद शेष पद")


def _rules(opts: OptionSet, body: str) -> QuotaRules:
    # Mayors (s.7 of the Corporations Act): women one-third of all offices, category women included (the
    # published 3 W of 17 = 6 - 1 - 2); option general_women is for Palika Parishads and Nagar Panchayats
    mayor = body == "mayor"
    rules_year = URBAN_YEARS.law[-1]
    sc_st, obc = ("mayor", "mayor") if mayor else ("b1", "b2")
    women = {lang: t["mayor_w"] if mayor else f"{t['b3']}; {t['b4']}" for lang, t in (("en", CLAUSE), ("hi", CLAUSE_HI))}
    return QuotaRules(obc_cap_percent=value("urban.obc_cap", rules_year),
                      women_fraction=value("urban.women", rules_year),
                      sc_st_rounding=opts["sc_st_rounding"], obc_cap_rounding=opts["obc_cap_rounding"],
                      general_women="total_minus_category" if mayor else opts["general_women"],
                      women_rounding=opts["women_rounding"],
                      women_total_rounding=opts["women_total_rounding"], clause_sc_st=CLAUSE[sc_st],
                      clause_obc=CLAUSE[obc], clause_women=women["en"], clause_ur=_UR_CLAUSE[0],
                      clause_sc_st_hi=CLAUSE_HI[sc_st], clause_obc_hi=CLAUSE_HI[obc], clause_women_hi=women["hi"],
                      clause_ur_hi=_UR_CLAUSE[1])


def urban_counts(body: str, year: int = 2023, opts: OptionSet | None = None,
                 bodies: pd.DataFrame | None = None, lang: str = "en") -> pd.DataFrame:
    """State counts (category, count, arithmetic, clause) for one body type, women at State level (b): the words
    of :func:`_state_parts` in ``lang``."""
    opts = opts if opts is not None else OptionSet.of(URBAN_OPTIONS)
    bodies = bodies if bodies is not None else load_bodies(body)[0]
    return counts_table(_state_parts(body, opts, bodies), lang)


def _state_parts(body: str, opts, bodies: pd.DataFrame) -> list[tuple]:
    """(b)'s numbers (:func:`reservation.law.arithmetic.count_parts`): the State counts of the body type from the
    SC and ST shares of all its bodies and the OBC share of the type."""
    pop = int(bodies["pop"].sum())
    shares = {"SC": Fraction(int(bodies["sc"].sum()), pop), "ST": Fraction(int(bodies["st"].sum()), pop),
              "OBC": obc_share(body, opts)}
    return count_parts(len(bodies), shares, _rules(opts, body))


def bodies_as_units(body: str, parent_for):
    """The bodies of the type as the run's units (ordered by code when the State is the only unit)."""
    def load(units, year, opts) -> UnitSet:
        bodies, notes = load_bodies(body, units)
        if parent_for(opts) is None:
            bodies = bodies.sort_values("unit_code", kind="stable").reset_index(drop=True)
        described = {"units": describe_input(units)} if units is not None and not isinstance(units, pd.DataFrame) \
            else {}
        return UnitSet(bodies, body_index(bodies), notes, described)
    return load


class _ReadOptions:
    """An option set that notes every option read from it (``read``: name -> value); nothing else of the set is
    reachable through it, so a computation cannot depend on an option without its being noted."""

    def __init__(self, opts: OptionSet):
        self._opts, self.read = opts, {}

    def __getitem__(self, name: str) -> str:
        self.read[name] = v = self._opts[name]
        return v

    def fraction(self, name: str) -> Fraction:
        self[name]
        return self._opts.fraction(name)


def _digest(df: pd.DataFrame | None):
    """The content of a table (values, columns, dtypes, index, attrs) as a hash: equal tables of the same making give
    the same one; None -> None."""
    if df is None:
        return None
    return hashlib.sha256(pickle.dumps((df, sorted(df.attrs.items())), protocol=5)).hexdigest()


class _CountsCache:
    """The counts of recent runs, keyed by what they depend on: the body, the year, the content of the bodies, of
    the OBC population and of the division basis, and the value of every option the computation read (an option
    search runs the same counts once per option tried and per step of its walk; most options tried do not change
    them). Each hit is a fresh copy (a caller may change what it gets)."""

    def __init__(self, size: int = 32):
        self.size, self.entries = size, OrderedDict()

    def get(self, key, opts: OptionSet, compute):
        for (k, read), value in reversed(self.entries.items()):
            if k == key and all(opts[n] == v for n, v in read):
                return _copy_counts(value)
        spy = _ReadOptions(opts)
        value = compute(spy)
        self.entries[(key, tuple(sorted(spy.read.items())))] = value
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)
        return _copy_counts(value)


def _copy_counts(c: Counts) -> Counts:
    hindi = c.state_hi.copy() if isinstance(c.state_hi, pd.DataFrame) else c.state_hi   # a function: pure
    return Counts(c.state.copy(), c.slots.copy(), {k: v.copy() for k, v in c.extra.items()}, list(c.notes), hindi,
                  dict(c.extra_hi))


_COUNTS = _CountsCache()


def body_counts(body: str, parent_for):
    """(b) the State counts of the body type, then (c) their split among divisions (Palika Parishads, and Nagar
    Panchayats by default); Mayors: the State is the only unit. Computed once for the same inputs
    (:class:`_CountsCache`)."""
    def counts(ctx) -> Counts:
        population, basis = None, None
        if parent_for(ctx.opts):
            population, basis = _division_inputs(ctx)
        key = (body, ctx.year, _digest(ctx.units), _digest(population), _digest(basis))
        return _COUNTS.get(key, ctx.opts, lambda opts: _counts(body, parent_for, ctx.year, opts, ctx.units,
                                                                population, basis))
    return counts


def body_slots(body: str, parent_for):
    """The posts per division (or the State) and code of :func:`body_counts` alone, from the same numbers ((b)
    :func:`_state_parts`, then (c) :func:`~.urban_divisions.division_numbers`) without their words or the
    cache: what a projection's samples read (``Rulebook.slots``)."""
    def slots(ctx) -> pd.DataFrame:
        n = _state_numbers(_state_parts(body, ctx.opts, ctx.units))
        if not parent_for(ctx.opts):
            return _state_slots(n)
        population, basis = _division_inputs(ctx)
        return division_slots(division_numbers(body, ctx.opts, ctx.units, n, population, basis))
    return slots


def _division_inputs(ctx) -> tuple:
    """The OBC population (None unless given) and the division basis that (c) reads."""
    population = ctx.population if ctx.obc.given else None
    basis = division_basis(ctx.opts, ctx.source if isinstance(ctx.source, (str, Path)) else None)
    return population, basis


def _state_numbers(parts: list[tuple]) -> dict:
    """The count of each code (and TOTAL) of (b)'s rows."""
    return {code: count for code, count, _, _ in parts}


def _state_slots(n: dict) -> pd.DataFrame:
    """The State as the only counting unit: its posts per code."""
    return pd.DataFrame([{c: int(n[c]) for c in CODES}], index=["*"])


def _counts(body: str, parent_for, year: int, opts, bodies: pd.DataFrame, population, basis) -> Counts:
    """The counts of :func:`body_counts` from their inputs (``opts``: read by name only)."""
    parts = _state_parts(body, opts, bodies)
    state_counts = counts_table(parts)  # the words of (b)
    state_hi = partial(counts_table, parts, "hi")
    n = _state_numbers(parts)
    notes, extra, extra_hi = [], {}, {}
    if parent_for(opts):
        x = division_numbers(body, opts, bodies, n, population, basis)
        dc, notes = division_table(opts, x), list(x.notes)
        extra_hi["divisions"] = partial(division_table, opts, x, "hi")
        slots = division_slots(x)
        sums = dc.groupby("category")[["women", "others", "final"]].sum()
        table = _with_division_sums(state_counts, n, sums, opts, "en")
        state_hi = partial(_hindi_with_division_sums, state_hi, n, sums, opts)
        extra["divisions"] = dc
    else:
        slots = _state_slots(n)
        table = state_counts
    no_fig = (bodies["figures"] == "none").to_numpy()
    if no_fig.any():
        extra["no_figures"] = bodies.loc[no_fig, ["unit_code", "unit_name_en", "district", "division",
                                                  "pop_source"]]
        notes.append(f"{int(no_fig.sum())} {URBAN_BODIES[body]['unit']}(s) have no population figures: no "
                     f"population figures (created after 2011, no Census town, no LGD village coverage): share 0 "
                     f"in every pass, so it is reserved only if every body with figures in its division is "
                     f"taken; its row says figures=none")
    return Counts(table, slots, extra, notes, state_hi, extra_hi)


def _hindi_with_division_sums(hindi_counts, n: dict, sums: pd.DataFrame, opts) -> pd.DataFrame:
    """:func:`_with_division_sums` of the Hindi State counts (``hindi_counts``: the function that makes them)."""
    return _with_division_sums(hindi_counts(), n, sums, opts, "hi")


def _with_division_sums(state_counts: pd.DataFrame, n: dict, sums: pd.DataFrame, opts, lang: str) -> pd.DataFrame:
    """The State counts with the divisions' sums (women and others per group, general women, unreserved); with
    the women counted per division (option women_level), each row's arithmetic says so, in ``lang``."""
    counts_table = state_counts.copy()
    for grp in ("SC", "ST", "OBC"):
        counts_table.loc[counts_table["category"] == f"{grp}_W", "count"] = int(sums.at[grp, "women"])
        counts_table.loc[counts_table["category"] == grp, "count"] = int(sums.at[grp, "others"])
    counts_table.loc[counts_table["category"] == "W", "count"] = int(sums.at["W", "final"])
    counts_table.loc[counts_table["category"] == "UR", "count"] = int(sums.at["UR", "final"])
    if opts["women_level"] == "division":
        for c in ("ST_W", "SC_W", "OBC_W", "W", "UR", "ST", "SC", "OBC"):
            m = counts_table["category"] == c
            counts_table.loc[m, "arithmetic"] = arithmetic_words(
                DivisionRestated(int(n[c]), int(counts_table.loc[m, "count"].iat[0])), lang)
    return counts_table


def category_groups(body: str) -> dict[str, Group]:
    """(d)(i)-(iv): the passes' keys and clauses (the Mayors choose their general women's key: :mod:`.mayor`)."""
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
    return {**fixed, "GEN": by_share}


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


def _clauses_hi(body: str) -> dict[str, str]:
    """:func:`_clauses` in Hindi (the same keys)."""
    out = dict(CLAUSE_HI)
    for k in ("d1", "d2", "d3"):
        out[f"{k}.women"] = CLAUSE_HI[k] + "; स्त्रियाँ पहले (परन्तुक)"
    out["mayor.women"] = CLAUSE_HI["mayor"] + "; स्त्रियाँ पहले, ऊपर से (A7)"
    out["rotation"] = ("चक्रानुक्रम: विकल्प `rotation` के अनुसार (2023 का चक्रानुक्रम वाला प्रावधान उपलब्ध नहीं; "
                       "docs/ambiguities.md A8)")
    out["unreserved"] = f"{LAW_HI[body]}: शेष पद अनारक्षित"
    return out


def urban_rulebook(body: str, *, parent_for, groups, options: dict[str, Option] = URBAN_OPTIONS,
                   **extra) -> Rulebook:
    """The rulebook of one urban body type: its units (the list of bodies), (b) and (c) counts, (d) passes;
    ``parent_for``: the counting unit for the options (the division, or None for the State); ``extra``: the
    body's own fields (the Mayors' history and base year)."""
    spec = URBAN_BODIES[body]
    fields = dict(parent_table="divisions", default_base_year=0, default_history="", base_year_readings={})
    fields.update(extra)
    return Rulebook(
        id=body, title=spec["title"], title_hi=spec["title_hi"], unit_kind="urban body", parent="division",
        parent_for=parent_for, parent_word="division", years=URBAN_YEARS,
        options=options, load_units=bodies_as_units(body, parent_for),
        counts=body_counts(body, parent_for), slots=body_slots(body, parent_for), groups=groups,
        pass_order=lambda opts: _ORDERS[opts["category_order"]], clauses=_clauses(body), units_file="optional",
        clauses_hi=_clauses_hi(body),
        history_with_units=False,
        obc_note=("OBC population by body is not public and was not supplied: every {unit} is assumed at the State "
                  "share {share} % of its type, so the OBC order falls to the tie-break rule ({tie_break}) and "
                  "rotation"),
        obc_share=lambda opts: (obc_share(body, opts), fmt_fraction(obc_share(body, opts) * 100, 2)),
        label_fields=lambda opts: {"unit": spec["unit"]}, columns=("body_type", "figures", "pop_source"), **fields)
