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

import numpy as np
import pandas as pd

from ..base.errors import InputError
from ..inputs.options import OptionSet
from ..inputs.units import DATA_DIR
from ..law.apportion import capped_shortfall
from ..law.quota import fmt_fraction
from ..law.rounding import round_with
from .parameters import value
from ..law.words_counts import step_words
from .urban_bodies import CLAUSE, CLAUSE_HI, URBAN_BODIES, URBAN_YEARS, load_bodies, obc_share

__all__ = ["DIVISION_COLUMNS", "division_counts", "division_basis", "women_cycle"]

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
    text = [step_words("women.cycle", lang, total=total, base=b, sum=s, first=f)
            + (step_words("women.cycle.rounds", lang, posts=len(r), rounds=",".join(map(str, r))) if r else "")
            + step_words("women.cycle.final", lang, got=g) for b, f, r, g in zip(base, first, rounds, got)]
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
                    basis: pd.DataFrame | None = None, lang: str = "en") -> tuple[pd.DataFrame, list[str]]:
    """(c): offices per division and category (:data:`DIVISION_COLUMNS`, the arithmetic and clauses in ``lang``),
    and notes. ``basis`` (columns ``division, pop, sc, st``) replaces the population of the bodies of the type for
    the shares of (c)."""
    d, pop_state, notes = _division_populations(opts, bodies, basis)
    rows_by_group = {}
    for grp in ("SC", "ST", "OBC"):
        rows_by_group[grp] = _category_offices(body, opts, grp, d, state, len(bodies), pop_state, population,
                                               basis, notes, lang)
    finals = {grp: t["final"].to_numpy() for grp, t in rows_by_group.items()}
    res = finals["SC"] + finals["ST"] + finals["OBC"]
    if (res > d["bodies"].to_numpy()).any():
        i = int(np.flatnonzero(res > d["bodies"].to_numpy())[0])
        raise InputError(f"division {d['division'].iat[i]}: reserved offices exceed its {int(d['bodies'].iat[i])} "
                         f"bodies", column="division")
    if opts["women_level"] == "division":
        women, women_arith = _women_per_division(opts, d, finals, res, lang)
    else:
        women, women_arith = _women_shared(bodies, d, state, rows_by_group, finals, res, lang)
    out = pd.DataFrame(_division_rows(opts, d, rows_by_group, women, women_arith, res, lang),
                       columns=DIVISION_COLUMNS)
    out["initial"] = out["initial"].astype("Int64")
    return out, notes


def _division_populations(opts: OptionSet, bodies: pd.DataFrame, basis: pd.DataFrame | None):
    """The divisions' bodies and populations (from ``basis`` when option division_population says so), the
    State population the shares are of, and the note that says which."""
    g = bodies.groupby("division", sort=True)
    d = pd.DataFrame({"bodies": g.size(), "pop": g["pop"].sum(), "sc": g["sc"].sum(), "st": g["st"].sum()})
    d["obc"] = g["obc"].sum() if "obc" in bodies else None
    d = d.reset_index()
    pop_state = int(bodies["pop"].sum())
    notes = []
    if basis is not None:           # option division_population: the shares of (c) from another population
        b = basis.set_index("division").reindex(d["division"]).fillna(0)
        for c in ("pop", "sc", "st"):
            d[c] = b[c].astype(np.int64).to_numpy()
        pop_state = int(basis["pop"].sum())
        notes.append(f"(c) shares of the divisions from {basis.attrs.get('what', 'another population')} "
                     f"(option division_population={opts['division_population']})")
    return d, pop_state, notes


def _category_offices(body, opts, grp, d, state, n_total, pop_state, population, basis, notes,
                      lang: str = "en") -> pd.DataFrame:
    """(c)(i)-(iii) for one group: proportional, capped at the State proportion, the rest by the cycle."""
    total = state[grp] + state[f"{grp}_W"]
    if grp == "OBC" and (d["obc"] is None or (population is None)):
        shares = [obc_share(body, opts)] * len(d)
        state_share = obc_share(body, opts)
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
                            cap_rounding=opts["division_cap_rounding"], upper=d["bodies"], tie_key=d["pop"],
                            lang=lang)
    notes += [f"{grp}: {x}" for x in n]
    return t


def _women_per_division(opts: OptionSet, d: pd.DataFrame, finals: dict, res: np.ndarray,
                        lang: str = "en") -> tuple[dict, dict]:
    """``women_level=division``: one-third (law.toml urban.women) of each category's offices and of all offices in
    each division."""
    women, women_arith = {}, {}
    third = value("urban.women", URBAN_YEARS.law[-1])
    for grp in ("SC", "ST", "OBC"):
        women[grp] = np.array([round_with(opts["women_rounding"], int(k) * third) for k in finals[grp]])
        women_arith[grp] = [step_words("women.division", lang, posts=int(k), rounding=opts["women_rounding"],
                                       women=int(w)) for k, w in zip(finals[grp], women[grp])]
    cat_w = women["SC"] + women["ST"] + women["OBC"]
    if opts["general_women"] == "total_minus_category":
        total_w = np.array([round_with(opts["women_total_rounding"], int(b) * third) for b in d["bodies"]])
        women["GEN"] = np.minimum(np.maximum(total_w - cat_w, 0), d["bodies"].to_numpy() - res)
    else:
        women["GEN"] = np.array([round_with(opts["women_total_rounding"], int(b - r) * third)
                                 for b, r in zip(d["bodies"], res)])
    women_arith["GEN"] = [step_words("women.division.general", lang, women=int(w)) for w in women["GEN"]]
    return women, women_arith


def _women_shared(bodies, d, state, rows_by_group, finals, res, lang: str = "en") -> tuple[dict, dict]:
    """``women_level=state``: the State's women of each group shared among the divisions by the women cycle."""
    women, women_arith = {}, {}
    keys = {grp: rows_by_group[grp]["share"].tolist() for grp in ("SC", "ST", "OBC")}
    known = bodies["women"].notna()
    wf = bodies.loc[known].groupby("division")
    keys["GEN"] = [Fraction(int(wf["women"].sum().get(x, 0)), int(wf["pop"].sum().get(x, 0)))
                   if wf["pop"].sum().get(x, 0) else Fraction(0) for x in d["division"]]
    bases = {grp: finals[grp] for grp in ("SC", "ST", "OBC")}
    bases["GEN"] = d["bodies"].to_numpy() - res
    for grp in ("SC", "ST", "OBC", "GEN"):
        want = state[f"{grp}_W"] if grp != "GEN" else state["W"]
        women[grp], women_arith[grp] = women_cycle(want, bases[grp], keys[grp], d["division"].tolist(), lang)
    return women, women_arith


def _division_rows(opts, d, rows_by_group, women, women_arith, res, lang: str = "en") -> list[dict]:
    """The rows of :data:`DIVISION_COLUMNS`: each division's SC, ST, OBC, W and UR offices with the arithmetic."""
    words = CLAUSE_HI if lang == "hi" else CLAUSE
    cw = "" if opts["women_level"] == "division" else "; " + words["cw"]
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
                         "arithmetic": x["arithmetic"] + f"; {women_arith[grp][i]}", "clause": words["c"] + cw})
        ur = int(r["bodies"]) - int(res[i]) - int(women["GEN"][i])
        rows.append({**base, "category": "W", "share": "", "formula": "", "cap": "", "initial": None,
                     "shortfall_posts": 0, "shortfall_rounds": "", "final": int(women["GEN"][i]),
                     "women": int(women["GEN"][i]), "others": 0,
                     "arithmetic": women_arith["GEN"][i],
                     "clause": words["b4"] + cw})
        rows.append({**base, "category": "UR", "share": "", "formula": "", "cap": "", "initial": None,
                     "shortfall_posts": 0, "shortfall_rounds": "", "final": ur, "women": 0, "others": ur,
                     "arithmetic": step_words("left.parent", lang, posts=int(r["bodies"]), reserved=int(res[i]),
                                              women=int(women["GEN"][i])),
                     "clause": step_words("clause.left.division", lang)})
    return rows
