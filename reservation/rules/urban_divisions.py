"""s.9-A(5)(c) (2023): each category's offices of the State shared among the 18 divisions, and their women.

Each category's offices (including its women) go to the divisions in proportion to the category's share of the
division's population (option ``division_population``: of the bodies of the same type by default), limited to the
State proportion of offices; the rest goes one office per division at a time, in descending order of share, to
divisions whose share is above the State's, the cycle repeating until none is left
(:func:`reservation.law.apportion.capped_shortfall`). Women: one-third in each division (``women_level=division``)
or the State's women shared by the women cycle (:func:`women_cycle`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..base.errors import InputError
from ..inputs.options import OptionSet
from ..inputs.units import DATA_DIR
from ..law.apportion import shortfall_numbers, shortfall_table
from ..law.quota import fmt_fraction
from ..law.rounding import round_with
from .parameters import value
from ..law.words_counts import step_words
from .urban_bodies import CLAUSE, CLAUSE_HI, URBAN_BODIES, URBAN_YEARS, load_bodies, obc_share

__all__ = ["DIVISION_COLUMNS", "Divisions", "division_counts", "division_numbers", "division_slots", "division_table",
           "division_basis", "women_cycle"]

#: The engine's codes in the order of a slots table's columns (``slots_from_split``'s).
SLOT_CODES = ["ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC", "W", "UR"]
DIVISION_COLUMNS = ["division", "bodies", "category", "share", "formula", "cap", "initial", "shortfall_posts",
                    "shortfall_rounds", "final", "women", "others", "arithmetic", "clause"]


def women_cycle(total: int, base, key, names, lang: str = "en") -> tuple[np.ndarray, list[str]]:
    """Share ``total`` women's offices of the State among divisions (``women_level=state``).

    (c) sends each category's offices to the divisions "including the number of offices determined for women"
    of (b)(iii), so the State's women count of the category is what the divisions share. The method copies (c)'s:
    (1) each division first gets the integer part of ``total x base / sum(base)`` (``base``: the division's
    offices of the category, so its women stay within the State proportion of women: "limited to the extent of
    such proportion"); (2) the offices still left go one office per division at a time in descending order of
    ``key`` (the division's share of the category in (c); the share of women in the population of its bodies
    for the women of (b)(iv), the key of (d)(iv)), ties by more offices then the name, a division never getting
    more women than ``base``; the cycle repeats until none is left. Returns (women per division, arithmetic);
    the numbers are :func:`_women_cycle_numbers`'s, the arithmetic in ``lang``."""
    cycle = _women_cycle_numbers(total, base, key, names)
    return cycle.got, _women_cycle_words(cycle, lang)


class _Cycle(NamedTuple):
    """The numbers of one women cycle: the total, each division's base and their sum, the first step, the
    rounds in which each division got an office, and what each got in all."""

    total: int
    base: list
    s: int
    first: list
    rounds: list
    got: np.ndarray


def _women_cycle_numbers(total: int, base, key, names) -> _Cycle:
    """The numbers of :func:`women_cycle` (the one place they are computed)."""
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
    return _Cycle(total, base, s, first, rounds, np.array(got, dtype=np.int64))


def _women_cycle_words(c: _Cycle, lang: str = "en") -> list[str]:
    """The arithmetic of one women cycle, per division, in ``lang``."""
    return [step_words("women.cycle", lang, total=c.total, base=b, sum=c.s, first=f)
            + (step_words("women.cycle.rounds", lang, posts=len(r), rounds=",".join(map(str, r))) if r else "")
            + step_words("women.cycle.final", lang, got=g) for b, f, r, g in zip(c.base, c.first, c.rounds, c.got)]


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


class Divisions(NamedTuple):
    """The numbers of (c), from which :func:`division_counts` renders its table and :func:`division_slots` gives
    the engine's posts: the divisions (sorted) and their bodies, each group's :class:`~reservation.law.apportion
    .Apportioned` rows (SC, ST, OBC), the women per division (SC, ST, OBC and GEN: the women of (b)(iv)), the
    offices reserved for SC/ST/OBC per division, each group's cap (its State proportion of offices), the
    women cycles (``women_level=state``; else None) and the
    notes."""

    names: list
    bodies: np.ndarray
    rows: dict
    caps: dict
    women: dict
    res: np.ndarray
    cycles: dict | None
    notes: tuple


def division_numbers(body: str, opts: OptionSet, bodies: pd.DataFrame, state: dict[str, int],
                     population: pd.DataFrame | None = None, basis: pd.DataFrame | None = None) -> Divisions:
    """(c)'s numbers (the one place they are computed): see :func:`division_counts`."""
    d, pop_state, notes = _division_populations(opts, bodies, basis)
    rows, caps = {}, {}
    for grp in ("SC", "ST", "OBC"):
        rows[grp], caps[grp] = _category_numbers(body, opts, grp, d, state, len(bodies), pop_state, population,
                                                 basis, notes)
    finals = {grp: np.array([r.final for r in rows[grp]], dtype=np.int64) for grp in rows}
    res = finals["SC"] + finals["ST"] + finals["OBC"]
    if (res > d["bodies"]).any():
        i = int(np.flatnonzero(res > d["bodies"])[0])
        raise InputError(f"division {d['division'][i]}: reserved offices exceed its {int(d['bodies'][i])} "
                         f"bodies", column="division")
    cycles = None
    if opts["women_level"] == "division":
        women = _women_per_division(opts, d, finals, res)
    else:
        cycles = _women_shared(bodies, d, state, rows, finals, res)
        women = {grp: c.got for grp, c in cycles.items()}
    return Divisions(d["division"], d["bodies"], rows, caps, women, res, cycles, tuple(notes))


def division_counts(body: str, opts: OptionSet, bodies: pd.DataFrame, state: dict[str, int],
                    population: pd.DataFrame | None = None,
                    basis: pd.DataFrame | None = None, lang: str = "en") -> tuple[pd.DataFrame, list[str]]:
    """(c): offices per division and category (:data:`DIVISION_COLUMNS`, the arithmetic and clauses in ``lang``),
    and notes. ``basis`` (columns
    ``division, pop, sc, st``) replaces the population of the bodies of the type for the shares of (c). The
    numbers are :func:`division_numbers`'s; this adds the words."""
    x = division_numbers(body, opts, bodies, state, population, basis)
    return division_table(opts, x, lang), list(x.notes)


def division_table(opts: OptionSet, x: Divisions, lang: str = "en") -> pd.DataFrame:
    """The table of :func:`division_counts` (:data:`DIVISION_COLUMNS`) rendered from (c)'s numbers in ``lang``."""
    out = pd.DataFrame(_division_rows(opts, x, lang), columns=DIVISION_COLUMNS)
    out["initial"] = out["initial"].astype("Int64")
    return out


def division_slots(x: Divisions) -> pd.DataFrame:
    """The engine's posts per division and code from (c)'s numbers, as
    ``slots_from_split(division_counts(...)[0], "division")`` gives them from the table (no words)."""
    cols = []
    for grp in ("ST", "SC", "OBC"):
        women = x.women[grp].astype(np.int64)
        cols += [women, np.array([r.final for r in x.rows[grp]], dtype=np.int64) - women]
    women = x.women["GEN"].astype(np.int64)
    cols += [women, x.bodies - x.res - women]
    return pd.DataFrame(np.column_stack(cols), index=pd.Index(x.names, name="division"), columns=SLOT_CODES)


def _division_populations(opts: OptionSet, bodies: pd.DataFrame, basis: pd.DataFrame | None):
    """The divisions (sorted) with their bodies and populations (``division``: the labels; ``bodies``, ``pop``,
    ``sc``, ``st``, ``obc``: int64 arrays, ``obc`` None without OBC figures; from ``basis`` when option
    division_population says so), the State population the shares are of, and the note that says which."""
    codes, labels = pd.factorize(bodies["division"], sort=True)
    if (codes < 0).any():
        raise InputError("a body without a division", column="division")
    k = len(labels)

    def sums(col: str) -> np.ndarray:
        out = np.zeros(k, dtype=np.int64)
        np.add.at(out, codes, bodies[col].to_numpy(dtype=np.int64))
        return out
    d = {"division": labels.tolist(), "bodies": np.bincount(codes, minlength=k).astype(np.int64),
         "pop": sums("pop"), "sc": sums("sc"), "st": sums("st"), "obc": sums("obc") if "obc" in bodies else None}
    pop_state = int(bodies["pop"].sum())
    notes = []
    if basis is not None:           # option division_population: the shares of (c) from another population
        b = basis.set_index("division").reindex(d["division"]).fillna(0)
        for c in ("pop", "sc", "st"):
            d[c] = b[c].astype(np.int64).to_numpy()
        d["obc"] = None             # no such population counts OBC persons (the Census does not): the State share
        pop_state = int(basis["pop"].sum())
        notes.append(f"(c) shares of the divisions from {basis.attrs.get('what', 'another population')} "
                     f"(option division_population={opts['division_population']})")
    return d, pop_state, notes


def _category_numbers(body, opts, grp, d, state, n_total, pop_state, population, basis, notes) -> tuple:
    """(c)(i)-(iii) for one group: proportional, capped at the State proportion, the rest by the cycle (the
    :class:`~reservation.law.apportion.Apportioned` rows of :func:`~reservation.law.apportion.shortfall_numbers`,
    one per division) and the cap."""
    total = state[grp] + state[f"{grp}_W"]
    if grp == "OBC" and (d["obc"] is None or (population is None)):
        shares = [obc_share(body, opts)] * len(d["division"])
        state_share = obc_share(body, opts)
        why = ("is not public and was not supplied" if basis is None else
               f"is not in the population of option division_population={opts['division_population']}")
        notes.append(f"OBC population by division {why}: every division is "
                     f"assumed at the State share {fmt_fraction(state_share * 100, 2)} % of the body type, so "
                     f"the OBC offices follow the cap and the fallback of the remainder step")
    else:
        col = grp.lower()
        shares = [Fraction(int(a), int(b)) if b else Fraction(0) for a, b in zip(d[col], d["pop"])]
        state_share = Fraction(int(d[col].sum()), pop_state) if basis is None else Fraction(
            int(basis[col].sum()), pop_state)
    cap = Fraction(total, n_total) if n_total else Fraction(0)
    bases = d["bodies"].tolist()
    rows, n = shortfall_numbers(total, d["division"], bases, shares, cap=cap, state_share=state_share,
                                cap_rounding=opts["division_cap_rounding"], upper=bases, tie=d["pop"].tolist())
    notes += [f"{grp}: {x}" for x in n]
    return rows, cap


def _women_per_division(opts: OptionSet, d: dict, finals: dict, res: np.ndarray) -> dict:
    """``women_level=division``: one-third (law.toml urban.women) of each category's offices and of all offices in
    each division."""
    women = {}
    third = value("urban.women", URBAN_YEARS.law[-1])
    for grp in ("SC", "ST", "OBC"):
        women[grp] = np.array([round_with(opts["women_rounding"], int(k) * third) for k in finals[grp]])
    cat_w = women["SC"] + women["ST"] + women["OBC"]
    if opts["general_women"] == "total_minus_category":
        total_w = np.array([round_with(opts["women_total_rounding"], int(b) * third) for b in d["bodies"]])
        women["GEN"] = np.minimum(np.maximum(total_w - cat_w, 0), d["bodies"] - res)
    else:
        women["GEN"] = np.array([round_with(opts["women_total_rounding"], int(b - r) * third)
                                 for b, r in zip(d["bodies"], res)])
    return women


def _women_words(opts: OptionSet, x: Divisions, lang: str = "en") -> dict:
    """The arithmetic of each division's women (rendered from :func:`division_numbers`) in ``lang``."""
    if x.cycles is not None:
        return {grp: _women_cycle_words(c, lang) for grp, c in x.cycles.items()}
    out = {grp: [step_words("women.division", lang, posts=int(r.final), rounding=opts["women_rounding"],
                            women=int(w)) for r, w in zip(x.rows[grp], x.women[grp])] for grp in ("SC", "ST", "OBC")}
    out["GEN"] = [step_words("women.division.general", lang, women=int(w)) for w in x.women["GEN"]]
    return out


def _women_shared(bodies, d, state, rows, finals, res) -> dict:
    """``women_level=state``: the State's women of each group shared among the divisions by the women cycle."""
    keys = {grp: [r.share for r in rows[grp]] for grp in ("SC", "ST", "OBC")}
    known = bodies["women"].notna()
    wf = bodies.loc[known].groupby("division")
    keys["GEN"] = [Fraction(int(wf["women"].sum().get(x, 0)), int(wf["pop"].sum().get(x, 0)))
                   if wf["pop"].sum().get(x, 0) else Fraction(0) for x in d["division"]]
    bases = {grp: finals[grp] for grp in ("SC", "ST", "OBC")}
    bases["GEN"] = d["bodies"] - res
    return {grp: _women_cycle_numbers(state[f"{grp}_W"] if grp != "GEN" else state["W"], bases[grp], keys[grp],
                                      d["division"]) for grp in ("SC", "ST", "OBC", "GEN")}


def _division_rows(opts, x: Divisions, lang: str = "en") -> list[dict]:
    """The rows of :data:`DIVISION_COLUMNS`: each division's SC, ST, OBC, W and UR offices with the arithmetic
    and clauses in ``lang``."""
    women, res = x.women, x.res
    women_arith = _women_words(opts, x, lang)
    arith = {grp: shortfall_table(x.rows[grp], x.caps[grp], "every", lang)["arithmetic"].tolist()
             for grp in ("SC", "ST", "OBC")}
    words = CLAUSE_HI if lang == "hi" else CLAUSE
    cw = "" if opts["women_level"] == "division" else "; " + words["cw"]
    rows = []
    for i, name in enumerate(x.names):
        base = {"division": name, "bodies": int(x.bodies[i])}
        for grp in ("SC", "ST", "OBC"):
            r = x.rows[grp][i]
            rows.append({**base, "category": grp, "share": f"{fmt_fraction(r.share * 100)} %",
                         "formula": fmt_fraction(r.formula), "cap": fmt_fraction(r.cap),
                         "initial": int(r.initial), "shortfall_posts": int(r.shortfall_posts),
                         "shortfall_rounds": ",".join(map(str, r.shortfall_rounds)), "final": int(r.final),
                         "women": int(women[grp][i]), "others": int(r.final - women[grp][i]),
                         "arithmetic": arith[grp][i] + f"; {women_arith[grp][i]}",
                         "clause": words["c"] + cw})
        ur = int(x.bodies[i]) - int(res[i]) - int(women["GEN"][i])
        rows.append({**base, "category": "W", "share": "", "formula": "", "cap": "", "initial": None,
                     "shortfall_posts": 0, "shortfall_rounds": "", "final": int(women["GEN"][i]),
                     "women": int(women["GEN"][i]), "others": 0,
                     "arithmetic": women_arith["GEN"][i],
                     "clause": words["b4"] + cw})
        rows.append({**base, "category": "UR", "share": "", "formula": "", "cap": "", "initial": None,
                     "shortfall_posts": 0, "shortfall_rounds": "", "final": ur, "women": 0, "others": ur,
                     "arithmetic": step_words("left.parent", lang, posts=int(x.bodies[i]), reserved=int(res[i]),
                                              women=int(women["GEN"][i])),
                     "clause": step_words("clause.left.division", lang)})
    return rows
