"""Rotation as a fact: how often did a unit hold the same group in consecutive elections?

Pure functions on a history table (``unit_code, year, category``; the shipped ``data/history/kp-chair.csv`` read
with ``unit`` as ``unit_code``). The group of a category is its social category (:mod:`reservation.law.categories`):
``ST`` (ST_W, ST), ``SC`` (SC_W, SC), ``OBC`` (OBC_W, OBC) and ``GEN`` (W, UR, the general seats).

"Consecutive elections" are consecutive years among the years present in the table (2005 -> 2010 -> 2015 for
the block pramukhs); a unit counts for a pair only if it has a record in both years.

- :func:`transitions`: one row per unit and consecutive pair: the categories and groups, same group or not;
- :func:`repeat_rates`: how many units kept their group (and their exact category), by the group they held in
  the earlier election, State-wide or per district, beside the number expected by chance: if each district's
  categories of the later election were dealt to the same blocks at random, a block holding group g before keeps
  it with probability (blocks of g in the later election) / (blocks), summed over the district's blocks (exact
  Fraction arithmetic; shown rounded to two decimals);
- :func:`group_sequences`: each unit's groups (and categories) election by election, e.g. ``SC > OBC > GEN``.
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from ..law.categories import CODES, by_code

__all__ = ["FACT_GROUPS", "transitions", "repeat_rates", "group_sequences", "RATE_COLUMNS"]

#: The groups in the order they are reported ("all" is every unit with a record in both elections).
FACT_GROUPS = ("all", "ST", "SC", "OBC", "GEN")
#: Columns of :func:`repeat_rates` (``district`` first when ``per_district``).
RATE_COLUMNS = ["year_from", "year_to", "group", "units", "same_group", "same_group_pct", "expected_same_group",
                "expected_pct", "same_category", "same_category_pct"]


def _checked(history: pd.DataFrame) -> pd.DataFrame:
    missing = [c for c in ("unit_code", "year", "category") if c not in history.columns]
    if missing:
        raise ValueError(f"history table lacks column(s) {', '.join(missing)}")
    bad = ~history["category"].isin(CODES)
    if bad.any():
        raise ValueError(f"unknown category {history.loc[bad, 'category'].iat[0]!r}; expected one of "
                         f"{' '.join(CODES)}")
    if history.duplicated(["unit_code", "year"]).any():
        r = history[history.duplicated(["unit_code", "year"])].iloc[0]
        raise ValueError(f"unit {r['unit_code']} has two records for {r['year']}")
    h = history.copy()
    h["year"] = h["year"].astype(int)
    h["group"] = [by_code(c).group for c in h["category"]]
    return h


def _pct(n: int, d: int) -> float:
    return round(100 * n / d, 1) if d else float("nan")


def transitions(history: pd.DataFrame) -> pd.DataFrame:
    """One row per unit and pair of consecutive elections in which it has a record in both.

    Columns: ``unit_code, year_from, year_to, category_from, category_to, group_from, group_to, same_group,
    same_category`` (and ``district`` if the history has it, from the later record). Sorted by pair, then unit.
    """
    h = _checked(history)
    years = sorted(h["year"].unique())
    frames = []
    extra = ["district"] if "district" in h.columns else []
    for a, b in zip(years, years[1:]):
        x = h[h["year"] == a][["unit_code", "category", "group"]]
        y = h[h["year"] == b][["unit_code", "category", "group"] + extra]
        m = x.merge(y, on="unit_code", suffixes=("_from", "_to"), validate="one_to_one")
        m.insert(1, "year_from", int(a))
        m.insert(2, "year_to", int(b))
        frames.append(m)
    cols = ["unit_code", "year_from", "year_to", "category_from", "category_to", "group_from", "group_to"]
    if not frames:
        out = pd.DataFrame(columns=cols + extra)
    else:
        out = pd.concat(frames, ignore_index=True)[cols + extra]
    out["same_group"] = (out["group_from"] == out["group_to"]).astype(bool)
    out["same_category"] = (out["category_from"] == out["category_to"]).astype(bool)
    return out.sort_values(["year_from", "unit_code"], kind="stable").reset_index(drop=True)


def _rates(t: pd.DataFrame, place_col: str | None) -> list[dict]:
    rows = []
    for (a, b), pair in t.groupby(["year_from", "year_to"], sort=True):
        places = pair.groupby(place_col) if place_col else [(None, pair)]
        expected: dict[str, Fraction] = {g: Fraction(0) for g in FACT_GROUPS}
        for _, p in places:
            n = len(p)
            later = p["group_to"].value_counts()
            for g, k in p["group_from"].value_counts().items():
                e = Fraction(int(k) * int(later.get(g, 0)), n)
                expected[g] += e
                expected["all"] += e
        for g in FACT_GROUPS:
            sel = pair if g == "all" else pair[pair["group_from"] == g]
            units = len(sel)
            same = int(sel["same_group"].sum())
            cat = int(sel["same_category"].sum())
            rows.append({"year_from": int(a), "year_to": int(b), "group": g, "units": units, "same_group": same,
                         "same_group_pct": _pct(same, units), "expected_same_group": round(float(expected[g]), 2),
                         "expected_pct": round(float(100 * expected[g] / units), 1) if units else float("nan"),
                         "same_category": cat, "same_category_pct": _pct(cat, units)})
    return rows


def repeat_rates(history: pd.DataFrame, districts: pd.Series | dict | None = None, *,
                 per_district: bool = False) -> pd.DataFrame:
    """How many units held the same group (and the same category) in consecutive elections, by the group held in
    the earlier one (``group``: all, ST, SC, OBC, GEN), with the number expected by chance.

    ``districts`` maps ``unit_code`` to its district (else the history's ``district`` column, else the whole table
    is one place): the chance expectation is computed inside each district, because the categories are dealt out
    inside the district. ``per_district=True`` gives one block of rows per district (column ``district`` first).
    Columns: :data:`RATE_COLUMNS`. ``*_pct`` are percentages of ``units`` rounded to one decimal.
    """
    h = _checked(history)
    if districts is not None:
        mapping = pd.Series(districts) if isinstance(districts, dict) else districts
        h["district"] = h["unit_code"].map(mapping)
        if h["district"].isna().any():
            raise ValueError(f"unit {h.loc[h['district'].isna(), 'unit_code'].iat[0]} has no district")
    t = transitions(h)
    place = "district" if "district" in t.columns else None
    if per_district:
        if place is None:
            raise ValueError("per_district needs districts (or a district column)")
        rows = []
        for d, g in t.groupby("district", sort=True):
            rows += [{"district": d, **r} for r in _rates(g, None)]
        return pd.DataFrame(rows, columns=["district"] + RATE_COLUMNS)
    return pd.DataFrame(_rates(t, place), columns=RATE_COLUMNS)


def group_sequences(history: pd.DataFrame) -> pd.DataFrame:
    """One row per unit: its group in every election of the table (column per year, '' where it has no record),
    ``groups`` (e.g. ``SC > OBC > GEN``, ``-`` for no record), ``categories`` (e.g. ``SC_W > OBC > UR``),
    ``changes`` (how many consecutive pairs with records in both changed group) and ``held_twice_running``
    (True if some consecutive pair kept a reserved group: ST, SC or OBC)."""
    h = _checked(history)
    years = sorted(h["year"].unique())
    g = h.pivot(index="unit_code", columns="year", values="group").reindex(columns=years)
    c = h.pivot(index="unit_code", columns="year", values="category").reindex(columns=years)
    out = pd.DataFrame(index=g.index)
    for y in years:
        out[str(y)] = g[y].fillna("")
    out["groups"] = [" > ".join(x if isinstance(x, str) else "-" for x in row) for row in g.itertuples(index=False)]
    out["categories"] = [" > ".join(x if isinstance(x, str) else "-" for x in row)
                         for row in c.itertuples(index=False)]
    changes, held = [], []
    for row in g.itertuples(index=False):
        pairs = [(a, b) for a, b in zip(row, row[1:]) if isinstance(a, str) and isinstance(b, str)]
        changes.append(sum(a != b for a, b in pairs))
        held.append(any(a == b and a != "GEN" for a, b in pairs))
    out["changes"] = changes
    out["held_twice_running"] = held
    return out.reset_index().sort_values("unit_code", kind="stable").reset_index(drop=True)
