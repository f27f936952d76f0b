"""Gram pradhans and the ward members of all three tiers: many units, each counted inside its parent.

| body | unit | parent (counting unit) | law (RULES.md) |
|---|---|---|---|
| ``gp-pradhan`` | gram panchayat (pradhan's office) | block | s.11-A PR Act 1947, PR Rules 1994 r.4; §4.5 |
| ``gp-ward`` | gram panchayat ward | gram panchayat | s.12(5) PR Act 1947; §4.6 |
| ``kp-ward`` | Kshetra Panchayat (BDC) ward | block (Kshetra Panchayat) | s.6-A KP&ZP Adhiniyam 1961; §4.4 |
| ``zp-ward`` | Zila Panchayat ward | district (Zila Panchayat) | s.18-A KP&ZP Adhiniyam 1961; §4.2 |

Inside each parent: posts = the number of its units; SC and ST posts half-up from the parent's shares, OBC
at most 27 % (integer part by default, A3); women one-third rounded up of each category and of all posts
(per parent, RULES.md §4.5 and the Lucknow examples); then the same passes as the chairs (ST, SC, OBC leaving
out ST/SC units, women leaving out all three), descending share of the unit's population, never reserved
first, then not reserved at the last election.

Populations of gram panchayats and wards are not public: the units come from a user file (``--units``):
UTF-8 CSV with ``unit`` (an integer code), ``parent`` (the counting unit), ``pop``, ``sc``, ``st`` and optionally
``obc``, ``name_en``, ``name_hi``, ``district``, ``division``.
"""

from __future__ import annotations


import numpy as np
import pandas as pd

from ..categories import CODES
from ..engine import Allotment, CategoryPass, EngineSettings, Ratio, run_passes
from ..errors import InputError
from ..inputs import describe_input, load_user_inputs, pins_within
from ..options import Option, OptionSet
from ..quota import QuotaRules, counts_by_parent
from ..rotation import RotationView, group_codes
from ..units import int_column, read_csv
from .panchayat import ZP_CHAIR_OPTIONS

__all__ = ["UNIT_BODIES", "unit_body_options", "load_units", "unit_counts", "allot_units", "YEARS"]

YEARS = (2021, 2026)

UNIT_BODIES = {
    "gp-pradhan": {"title": "Gram pradhans", "unit": "gram panchayat", "parent": "block",
                   "law": "s.11-A PR Act 1947; PR Rules 1994 r.4", "section": "RULES.md §4.5"},
    "gp-ward": {"title": "Gram panchayat ward members", "unit": "ward", "parent": "gram panchayat",
                "law": "s.12(5) PR Act 1947; PR Rules 1994", "section": "RULES.md §4.6"},
    "kp-ward": {"title": "Kshetra Panchayat (BDC) ward members", "unit": "ward", "parent": "block",
                "law": "s.6-A KP&ZP Adhiniyam 1961; KP&ZP Rules 1994", "section": "RULES.md §4.4"},
    "zp-ward": {"title": "Zila Panchayat ward members", "unit": "ward", "parent": "district",
                "law": "s.18-A KP&ZP Adhiniyam 1961; KP&ZP Rules 1994", "section": "RULES.md §4.2"},
}

_KEEP = ("sc_st_rounding", "obc_cap_rounding", "obc_state_share", "general_women", "category_order",
         "category_women", "rotation_history", "women_history", "rotation_fallback", "tie_break", "lots")
_OPTIONS: dict[str, Option] = {k: ZP_CHAIR_OPTIONS[k] for k in _KEEP}
_OPTIONS["obc_cap_rounding"] = Option(
    "obc_cap_rounding", "A3", "floor", dict(ZP_CHAIR_OPTIONS["obc_cap_rounding"].readings),
    "seed b (chairs) takes the integer part; the Lucknow 2021 pradhan splits fit floor for Bakshi Ka Talab "
    "(25.38 -> 25), Malihabad, Mal and Sarojini Nagar (12.69 -> 12), while Chinhat (18 GPs, OBC 5 = 4.86) fits "
    "half-up (RULES.md §4.4, §4.5, A3).")
_OPTIONS["two_person_rule"] = Option(
    "two_person_rule", "", "off", {"off": "every unit may take any category",
                                   "on": "a unit with fewer than two persons of a category may not take it"},
    "seed b states the two-person rule for pramukhs (KP item 2) only; for gram panchayats and wards no source "
    "reached states it.")


def unit_body_options(assignments=()) -> OptionSet:
    opts = OptionSet(dict(_OPTIONS))
    for name, value in assignments:
        opts.set(name, value)
    return opts


def load_units(path) -> pd.DataFrame:
    """The ``--units`` file -> DataFrame ``unit_code, parent, pop, sc, st[, obc], unit_name_en, unit_name_hi,
    district, division`` sorted by parent and code (validated: integer codes, unique units, pop >= 1,
    sc + st (+ obc) <= pop)."""
    raw = read_csv(path, ["unit", "parent", "pop", "sc", "st"], what="units")
    df = pd.DataFrame({"unit_code": int_column(raw, "unit", path), "parent": raw["parent"]})
    for c in ("pop", "sc", "st") + (("obc",) if "obc" in raw.columns else ()):
        df[c] = int_column(raw, c, path)
    df["_row"] = raw["_row"].to_numpy()
    dup = df["unit_code"].duplicated()
    if dup.any():
        i = int(np.flatnonzero(dup.to_numpy())[0])
        raise InputError(f"duplicate unit {df['unit_code'].iat[i]}", file=str(path), row=int(df["_row"].iat[i]),
                         column="unit")
    empty = (df["parent"] == "").to_numpy()
    if empty.any():
        i = int(np.flatnonzero(empty)[0])
        raise InputError("empty parent", file=str(path), row=int(df["_row"].iat[i]), column="parent")
    zero = (df["pop"] < 1).to_numpy()
    if zero.any():
        i = int(np.flatnonzero(zero)[0])
        raise InputError("a unit needs a population of at least 1 to be ranked", file=str(path),
                         row=int(df["_row"].iat[i]), column="pop")
    parts = df["sc"] + df["st"] + (df["obc"] if "obc" in df else 0)
    over = (parts > df["pop"]).to_numpy()
    if over.any():
        i = int(np.flatnonzero(over)[0])
        raise InputError(f"sc + st{' + obc' if 'obc' in df else ''} = {parts.iat[i]} exceeds pop = "
                         f"{df['pop'].iat[i]}", file=str(path), row=int(df["_row"].iat[i]), column="sc")
    for c, src in (("unit_name_en", "name_en"), ("unit_name_hi", "name_hi"), ("district", "district"),
                   ("division", "division")):
        df[c] = raw[src].to_numpy() if src in raw.columns else ""
    df.attrs["path"] = str(path)
    return df.sort_values(["parent", "unit_code"], kind="stable").reset_index(drop=True)


def _rules(opts: OptionSet) -> QuotaRules:
    return QuotaRules(sc_st_rounding=opts["sc_st_rounding"], obc_cap_rounding=opts["obc_cap_rounding"],
                      general_women=opts["general_women"])


def unit_counts(units: pd.DataFrame, opts: OptionSet) -> tuple[pd.DataFrame, list[str]]:
    """Posts per parent and category (one row per parent; columns ``parent, posts, pop, sc, st, ST_W ... UR``)."""
    g = units.groupby("parent", sort=True)
    agg = {"posts": g.size(), "pop": g["pop"].sum(), "sc": g["sc"].sum(), "st": g["st"].sum()}
    notes = []
    share = opts.fraction("obc_state_share") / 100
    if "obc" in units:
        agg["obc"] = g["obc"].sum()
        obc_num, obc_den = agg["obc"].to_numpy(), agg["pop"].to_numpy()
    else:
        notes.append(f"OBC population not supplied (no 'obc' column in the units file): every parent and unit is "
                     f"assumed at the State share {opts['obc_state_share']} %, so OBC posts are capped at 27 % "
                     f"and the OBC order falls to the tie-break rule ({opts['tie_break']}) and rotation")
        obc_num = np.full(len(agg["posts"]), share.numerator)
        obc_den = np.full(len(agg["posts"]), share.denominator)
    t = pd.DataFrame(agg)
    try:
        c = counts_by_parent(t["posts"].to_numpy(), t["sc"].to_numpy(), t["pop"].to_numpy(), t["st"].to_numpy(),
                             t["pop"].to_numpy(), obc_num, obc_den, _rules(opts))
    except ValueError as e:
        raise InputError(f"counts cannot be formed: {e}", file=units.attrs.get("path"), column="pop") from None
    for code in CODES:
        t[code] = c[code]
    return t.reset_index(), notes


def allot_units(body: str, year: int, *, units_path=None, units: pd.DataFrame | None = None, history_paths=None,
                base_year: int = 2015, population_path=None, pin_path=None, options=(),
                history: pd.DataFrame | None = None) -> Allotment:
    """The allotment of a unit-level body (see :data:`UNIT_BODIES`): one row per unit."""
    spec = UNIT_BODIES[body]
    if year not in YEARS:
        raise InputError(f"{body}: year {year} is not implemented (known: {', '.join(map(str, YEARS))})",
                         column="year")
    if population_path:
        raise InputError(f"{body}: populations come with the units file (--units), not --population",
                         column="population")
    opts = options if isinstance(options, OptionSet) else unit_body_options(options)
    inputs = {}
    if units is None:
        if not units_path:
            raise InputError(f"{body} needs --units FILE (unit, parent, pop, sc, st[, obc]): populations of "
                             f"{spec['unit']}s are not public", column="units")
        units = load_units(units_path)
        inputs["units"] = describe_input(units_path)
    codes = set(units["unit_code"].tolist())
    known = np.sort(units["unit_code"].to_numpy(dtype=np.int64))

    def resolve(value):
        s = str(value).strip()
        if s.isdigit() and int(s) in codes:
            return int(s)
        raise KeyError(f"unknown {spec['unit']} code {s!r} (units are given by their integer code)")

    def many(values: pd.Series) -> np.ndarray:
        v = pd.to_numeric(values, errors="coerce").fillna(-1).astype(np.int64).to_numpy()
        return np.where(np.isin(v, known), v, -1)

    resolve.many = many
    given = load_user_inputs(resolve, history_paths=history_paths, history=history, pin_path=pin_path,
                             lots_path=opts["lots"])
    history, lots = given.history, given.lots
    inputs.update(given.described)
    counts, notes = unit_counts(units, opts)
    assumptions = list(notes)
    if not history_paths and history.empty:
        assumptions.append("no history given (--history): every unit counts as never reserved")
    parent_of = dict(zip(units["unit_code"], units["parent"]))
    limit = counts.set_index("parent")
    pins = pins_within(given.pins, pin_path, lambda u: parent_of[u], lambda place, code: limit.at[place, code])

    pop = units["pop"].to_numpy(dtype=np.int64)
    sc = units["sc"].to_numpy(dtype=np.int64)
    st = units["st"].to_numpy(dtype=np.int64)
    share = opts.fraction("obc_state_share") / 100
    if "obc" in units:
        obc = units["obc"].to_numpy(dtype=np.int64)
        obc_key = Ratio(obc, pop)
        general = Ratio(pop - sc - st - obc, None, "people")
        obc_two = obc >= 2
        note = ""
    else:
        obc_key = Ratio(np.full(len(units), share.numerator), np.full(len(units), share.denominator))
        general = Ratio(pop * (share.denominator - share.numerator) - (sc + st) * share.denominator, None, "people",
                        scale=share.denominator)
        obc_two = pop * share.numerator >= 2 * share.denominator
        note = notes[0]
    slots = counts.set_index("parent")
    two = opts["two_person_rule"] == "on"
    law = f"{spec['law']} ({spec['section']})"
    rot = "12th Amendment Rules 2021 r.2(d): previous election = 2015 and later"

    def p(group, codes_, key, label, eligible, clause, note_=""):
        return CategoryPass(group=group, slots=slots[list(codes_)], key=key, key_label=label,
                            history_codes=group_codes(group, opts["women_history"]), population=pop,
                            clause=f"{law}: {clause}", clause_women=f"{law}: {clause}; women from the top",
                            clause_rotation=rot, eligible=eligible if two else None,
                            eligible_reason="fewer than two persons of the category",
                            clause_eligible="two-person rule (option two_person_rule=on)", note=note_)

    where = f"the {spec['unit']}'s population"
    groups = {
        "ST": p("ST", ("ST_W", "ST"), Ratio(st, pop), f"ST share of {where}", st >= 2, "ST in descending order"),
        "SC": p("SC", ("SC_W", "SC"), Ratio(sc, pop), f"SC share of {where}", sc >= 2, "SC in descending order"),
        "OBC": p("OBC", ("OBC_W", "OBC"), obc_key, f"OBC share of {where}", obc_two,
                 "OBC in descending order, leaving out ST and SC units", note),
        "GEN": p("GEN", ("W",), general, f"{where} outside SC/ST/OBC", None,
                 "women, leaving out ST/SC/OBC units", note),
    }
    groups["GEN"].clause_women = groups["GEN"].clause
    passes = [groups["ST"], groups["SC"], groups["OBC"], groups["GEN"]]
    if opts["category_order"] == "a":
        def only(gp, code):
            return CategoryPass(**{**gp.__dict__, "slots": gp.slots[[code]]})
        passes = [groups["ST"], only(groups["SC"], "SC_W"), only(groups["OBC"], "OBC_W"), only(groups["SC"], "SC"),
                  only(groups["OBC"], "OBC"), groups["GEN"]]
    rotation = RotationView(history, year, base_year, opts["rotation_history"])
    settings = EngineSettings(tie_break=opts["tie_break"], lots=lots, category_women=opts["category_women"],
                              rotation_fallback=opts["rotation_fallback"], division_saturation="off",
                              ur_clause=f"{law}: the posts left in the {spec['parent']} are unreserved",
                              parent_label=spec["parent"])
    frame = units.rename(columns={"parent": spec["parent"].replace(" ", "_")})
    engine = run_passes(frame, passes, rotation, settings, pins, parent=spec["parent"].replace(" ", "_"),
                        extra_columns=(spec["parent"].replace(" ", "_"),))
    meta = {"body": body, "year": year, "base_year": base_year, "posts": len(units), "parents": len(counts),
            "history_years": rotation.years, "options": opts.record(), "inputs": inputs,
            "assumptions": assumptions,
            "counts": {c: int(counts[c].sum()) for c in CODES}}
    state = pd.DataFrame({"category": list(CODES) + ["TOTAL"],
                          "count": [int(counts[c].sum()) for c in CODES] + [len(units)],
                          "arithmetic": [f"sum over {len(counts)} {spec['parent']}s" for _ in CODES] + ["sum"],
                          "clause": [law] * len(CODES) + [""]})
    return Allotment(engine=engine, counts=state, meta=meta, history=history, extra={"parents": counts},
                     resolve=resolve)
