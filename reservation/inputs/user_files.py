"""User-supplied files: history, pins, populations and lots. Each is validated at the edge.

All files are UTF-8 CSV with a header. Units are given as an LGD code or a name; names are resolved through a
resolver (for districts, :func:`reservation.inputs.names.crosswalk`), never compared raw. Errors name the
file, the spreadsheet row (header = row 1) and the column.

- history: ``unit, year, category``: one row per unit and election (category = one of the eight codes).
- pins: ``unit, category``: fix the category of some units (for example from a published list).
- population: ``unit`` and any of ``pop, sc, st, obc``: the population of the unit's territorial area used
  for ranking (replaces the shipped Census figures column by column); with ``pop``, ``sc + st + obc`` (those
  given) may not exceed it.
- lots: ``unit, lot`` and optionally ``category``: the outcome of a draw of lots, used only among units whose
  shares are equal (lower lot number first); ``category`` limits a row to one group's pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from ..law.categories import CODES, by_code
from ..base.errors import InputError, excerpt
from .units import check_populations, int_column, read_csv

__all__ = ["load_history", "load_pins", "load_population", "load_lots", "describe_input", "UserInputs",
           "load_user_inputs", "pins_within"]

Resolver = Callable[[str], int]


def _resolve_units(df: pd.DataFrame, resolve: Resolver, path, column: str = "unit") -> pd.Series:
    many = getattr(resolve, "many", None)
    if many is not None:                      # a vectorised resolver: array of codes, -1 where unknown
        codes = many(df[column])
        bad = codes < 0
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            try:
                resolve(df[column].iat[i])
            except KeyError as e:
                raise InputError(str(e.args[0]), file=str(path), row=int(df["_row"].iat[i]), column=column) from None
        return pd.Series(codes, index=df.index, dtype="int64")
    out = []
    for value, row in zip(df[column], df["_row"]):
        if value == "":
            raise InputError("empty unit", file=str(path), row=int(row), column=column)
        try:
            out.append(resolve(value))
        except KeyError as e:
            raise InputError(str(e.args[0]), file=str(path), row=int(row), column=column) from None
    return pd.Series(out, index=df.index, dtype="int64")


def _check_categories(df, path, column="category"):
    bad = ~df[column].isin(CODES).to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"unknown category code {excerpt(df[column].iat[i])}; expected one of {' '.join(CODES)}",
                         file=str(path), row=int(df["_row"].iat[i]), column=column)


def load_history(paths, resolve: Resolver, *, election_year: int | None = None,
                 until: int | None = None) -> pd.DataFrame:
    """One or more history files -> DataFrame ``unit_code, year, category, source`` (sorted), with ``_file`` (the
    path as given) and ``_row`` (the spreadsheet row) of each record, for messages that name them.

    Years are 1950-2100. With ``election_year``, a record of a later election is refused (a history
    records past elections; a record of the election year itself is allowed and ignored by rotation). With
    ``until`` (the package's own history, which records every election it ships), the records of later elections
    are left out before their units are resolved: they name units of their own time, which may not exist yet
    (their years are kept in ``attrs["later_years"]``)."""
    frames = []
    later: set[int] = set()
    for path in paths:
        df = read_csv(path, ["unit", "year", "category"], what="history")
        if until is not None:
            all_years = int_column(df, "year", path, kind="year")
            later |= set(all_years[all_years > int(until)].tolist())
            df = df[(all_years <= int(until)).to_numpy()].reset_index(drop=True)
        units = _resolve_units(df, resolve, path)
        years = int_column(df, "year", path, kind="year")
        if election_year is not None:
            late = (years > int(election_year)).to_numpy()
            if late.any():
                i = int(np.flatnonzero(late)[0])
                raise InputError(f"a record of {int(years.iat[i])}, later than the election year {int(election_year)}: "
                                 "a history holds past elections only", file=str(path),
                                 row=int(df["_row"].iat[i]), column="year")
        _check_categories(df, path)
        frame = pd.DataFrame({"unit_code": units, "year": years, "category": df["category"],
                              "source": f"{Path(path).name} row " + df["_row"].astype(str),
                              "_file": str(path), "_row": df["_row"].astype("int64")})
        frames.append(frame)
        both = pd.concat(frames, ignore_index=True)
        dup = both.duplicated(["unit_code", "year"], keep="first").to_numpy()
        if dup.any():
            i = int(np.flatnonzero(dup)[0])
            first = both[(both["unit_code"] == both["unit_code"].iat[i]) & (both["year"] == both["year"].iat[i])]
            raise InputError(f"unit {both['unit_code'].iat[i]} already has a {both['year'].iat[i]} record "
                             f"({first['source'].iat[0]})", file=str(path), row=int(both["_row"].iat[i]),
                             column="unit")
    if not frames:
        return pd.DataFrame({"unit_code": pd.Series([], dtype="int64"), "year": pd.Series([], dtype="int64"),
                             "category": pd.Series([], dtype=str), "source": pd.Series([], dtype=str),
                             "_file": pd.Series([], dtype=str), "_row": pd.Series([], dtype="int64")})
    h = pd.concat(frames, ignore_index=True).sort_values(["unit_code", "year"], kind="stable").reset_index(drop=True)
    h.attrs["later_years"] = sorted(later)      # the elections after ``until`` the files record (not read)
    return h


def load_pins(path, resolve: Resolver) -> pd.DataFrame:
    """Pins -> DataFrame ``unit_code, category, source``; a unit pinned twice is an error."""
    df = read_csv(path, ["unit", "category"], what="pin")
    units = _resolve_units(df, resolve, path)
    _check_categories(df, path)
    dup = units.duplicated()
    if dup.any():
        row = int(df.loc[dup[dup].index[0], "_row"])
        raise InputError(f"unit {units[dup].iloc[0]} is pinned twice", file=str(path), row=row, column="unit")
    return pd.DataFrame({"unit_code": units, "category": df["category"],
                         "source": [f"{Path(path).name} row {int(r)}" for r in df["_row"]],
                         "_row": df["_row"]})


def load_population(path, resolve: Resolver) -> pd.DataFrame:
    """Population overrides -> DataFrame ``unit_code`` + the given columns among ``pop, sc, st, obc``."""
    df = read_csv(path, ["unit"], what="population")
    cols = [c for c in ("pop", "sc", "st", "obc") if c in df.columns]
    if not cols:
        raise InputError("needs at least one of the columns 'pop', 'sc', 'st', 'obc'", file=str(path), row=1,
                         column="unit")
    units = _resolve_units(df, resolve, path)
    dup = units.duplicated()
    if dup.any():
        row = int(df.loc[dup[dup].index[0], "_row"])
        raise InputError(f"duplicate unit {units[dup].iloc[0]}", file=str(path), row=row, column="unit")
    out = pd.DataFrame({"unit_code": units})
    for c in cols:
        out[c] = int_column(df, c, path, kind="population")
    out["_row"] = df["_row"]
    check_populations(out, path, "pop", ("sc", "st", "obc"))
    out.attrs["path"] = str(path)
    return out


def load_lots(path, resolve: Resolver) -> dict[str, dict[int, int]]:
    """Lots -> ``{group or "*": {unit_code: lot}}``; group is ST, SC, OBC or GEN (for W)."""
    df = read_csv(path, ["unit", "lot"], what="lots")
    units = _resolve_units(df, resolve, path)
    lots = int_column(df, "lot", path, kind="lot")
    out: dict[str, dict[int, int]] = {}
    has_cat = "category" in df.columns
    for i, (u, lot, row) in enumerate(zip(units, lots, df["_row"])):
        group = "*"
        if has_cat and df["category"].iat[i] != "":
            cat = df["category"].iat[i]
            if cat not in CODES:
                raise InputError(f"unknown category code {excerpt(cat)}", file=str(path), row=int(row), column="category")
            group = by_code(cat).group
        d = out.setdefault(group, {})
        if int(u) in d:
            raise InputError(f"unit {u} has two lots for the same pass", file=str(path), row=int(row), column="unit")
        d[int(u)] = int(lot)
    return out


def describe_input(path) -> dict:
    """A file as a result records it: shipped files relative to the project, with their SHA-256."""
    import hashlib

    from .units import DATA_DIR
    p = Path(path).resolve()
    try:
        shown = "data/" + str(p.relative_to(DATA_DIR.resolve()))
    except ValueError:
        shown = str(path)
    return {"path": shown, "sha256": hashlib.sha256(p.read_bytes()).hexdigest()}


@dataclass
class UserInputs:
    """What a run reads besides the shipped tables, validated, and how the result records each file."""

    history: pd.DataFrame
    population: pd.DataFrame | None
    pins: pd.DataFrame | None
    lots: dict
    described: dict


def load_user_inputs(resolve: Resolver, *, history_paths=None, default_history=None, history=None,
                     population_path=None, pin_path=None, lots_path="", election_year: int | None = None) -> UserInputs:
    """Load and validate history (the given files, else ``default_history``), population, pins and lots.

    ``election_year``: history records of a later election are refused (see :func:`load_history`)."""
    described: dict = {}
    if history is None:
        paths = [Path(p) for p in (history_paths or ([default_history] if default_history else []))]
        history = load_history(paths, resolve, election_year=election_year)
        described["history"] = [describe_input(p) for p in paths]
    population = load_population(population_path, resolve) if population_path else None
    pins = load_pins(pin_path, resolve) if pin_path else None
    lots = load_lots(lots_path, resolve) if lots_path else {}
    for kind, path in (("population", population_path), ("pins", pin_path), ("lots", lots_path)):
        if path:
            described[kind] = describe_input(path)
    return UserInputs(history, population, pins, lots, described)


def pins_within(pins: pd.DataFrame | None, pin_path, place_of: Callable[[int], str],
                limit: Callable[[str, str], int]):
    """Pins as the engine takes them (``{unit_code: Pin}``), refusing more pins of a code in a place (the
    State, a district, a division, a block) than that place has posts of the code."""
    from ..engine.passes import Pin
    out = {}
    used: dict[tuple, int] = {}
    if pins is None:
        return out
    for u, code, src, row in zip(pins["unit_code"], pins["category"], pins["source"], pins["_row"]):
        place = place_of(int(u))
        k = (place, code)
        used[k] = used.get(k, 0) + 1
        most = int(limit(place, code))
        if used[k] > most:
            where = "" if place == "*" else f" in {place}"
            raise InputError(f"more {code} pins ({used[k]}) than {code} offices ({most}){where}",
                             file=str(pin_path), row=int(row), column="category")
        out[int(u)] = Pin(code, src)
    return out
