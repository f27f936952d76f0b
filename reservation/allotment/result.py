"""The result of a run: what was decided (numbers and codes), and its words on demand."""

from __future__ import annotations

from functools import cached_property
from typing import Callable

import numpy as np
import pandas as pd

from ..law.categories import CODES
from ..engine.passes import EngineResult
from .render import render_table, render_table_blocks, render_trace

__all__ = ["Allotment"]


class Allotment:
    """One body's allotment for one election.

    ``table`` (one row per unit, :data:`reservation.allotment.render.TABLE_COLUMNS`), ``trace`` (every rule step, in order),
    ``counts`` (the category counts the table contains, with their arithmetic and clauses), ``meta`` (body, year,
    options, inputs with SHA-256, assumptions), ``history`` (the history read), ``extra`` (the body's own step
    tables, e.g. ``districts``), ``resolve`` (a unit's name or code -> its code). ``body``, ``year``,
    ``unit_kind`` ("district", "block", "urban body", ...) and ``parent_column`` (the counting unit's column of
    the table, or None when the State is the only counting unit) say what the rows are.

    ``meta["flags"]`` (the constitutional flags, :mod:`reservation.allotment.flags`) is put into words when ``meta`` is
    first read, like the table: a run that only needs the decisions (a projection's samples, a benchmark) does
    not pay for them. ``flags_pending=False`` leaves ``meta`` as given. ``options`` is the OptionSet the run
    used, already checked: the flags read it, never the option files again (a run given a temporary file, e.g.
    ``obc_above_state``, may have deleted it before ``meta`` is first read).
    """

    def __init__(self, *, body: str, year: int, unit_kind: str, parent_column: str | None, engine: EngineResult,
                 units: pd.DataFrame, counts: pd.DataFrame, meta: dict, history: pd.DataFrame | None,
                 extra: dict, resolve: Callable, ur_clause: str, extra_columns: tuple = (),
                 flags_pending: bool = False, options=None, ur_clause_hi: str = ""):
        self.body = body
        self.year = year
        self.unit_kind = unit_kind
        self.parent_column = parent_column
        self.engine = engine
        self.units = units
        self.counts = counts
        self._meta = meta
        self._flags_pending = flags_pending
        self.history = history
        self.extra = extra
        self.resolve = resolve
        self.ur_clause = ur_clause
        self.ur_clause_hi = ur_clause_hi
        self.extra_columns = tuple(extra_columns)
        self.options = options

    @property
    def meta(self) -> dict:
        """The run's record (body, year, options, inputs, assumptions, counts, flags): the flags are added, last,
        on the first read."""
        if self._flags_pending:
            from .flags import flags_record
            self._flags_pending = False         # flags_record reads meta["options"]: no second computation
            try:
                self._meta["flags"] = flags_record(self)
            except BaseException:
                self._flags_pending = True
                raise
        return self._meta

    @meta.setter
    def meta(self, value: dict) -> None:
        self._meta = value
        self._flags_pending = False

    @cached_property
    def table(self) -> pd.DataFrame:
        return render_table(self.engine, self.units, self.ur_clause, self.extra_columns)

    def table_in(self, lang: str) -> pd.DataFrame:
        """The table with its reasons, tie-breaks and decisions' words in ``lang`` ("en" or "hi")."""
        if lang == "en":
            return self.table
        return render_table(self.engine, self.units, self.ur_clauses, self.extra_columns, lang=lang)

    def table_blocks(self, lang: str = "en", rows: int = 65_536):
        """The table (in ``lang``) as DataFrames of ``rows`` rows, one after the other: rendered a block at a
        time, so the words of every unit are never held at once (how the table is written); the blocks of
        ``table`` itself when it is already rendered."""
        if lang == "en" and "table" in self.__dict__:
            df = self.table
            for lo in range(0, max(len(df), 1), rows):
                yield df.iloc[lo:lo + rows]
            return
        yield from render_table_blocks(self.engine, self.units, self.ur_clauses, self.extra_columns, lang=lang,
                                       rows=rows)

    @property
    def ur_clauses(self) -> dict:
        """The unreserved clause in each language (Hindi: the English where the rulebook gives none)."""
        return {"en": self.ur_clause, "hi": self.ur_clause_hi or self.ur_clause}

    def trace_in(self, lang: str) -> pd.DataFrame:
        """The trace with its words in ``lang`` ("en" or "hi")."""
        if lang == "en":
            return self.trace
        return render_trace(self.engine, self.units, self.ur_clauses, lang=lang)

    @cached_property
    def trace(self) -> pd.DataFrame:
        return render_trace(self.engine, self.units, self.ur_clause)

    def explain(self, unit_code: int, lang: str = "en") -> pd.DataFrame:
        """The trace rows of one unit (rendered for that unit only, its words in ``lang``), numbered from 1."""
        pos = np.flatnonzero(self.engine.codes == int(unit_code))
        tr = render_trace(self.engine, self.units, self.ur_clauses, only=pos, lang=lang)
        tr["step"] = np.arange(1, len(tr) + 1)
        return tr

    @property
    def categories(self) -> pd.Series:
        """The category of every unit, indexed by unit code (no words rendered)."""
        return pd.Series(self.engine.category_codes(), index=self.engine.codes, name="category")

    def summary_by_division(self, by: str | None = None) -> pd.DataFrame:
        """Divisions (or another column, e.g. the parent) x categories: how many units got each category."""
        by = by or ("division" if self.units["division"].astype(str).str.len().gt(0).any() else self.parent_column)
        col = self.units[by].to_numpy() if by in self.units else self.table[by].to_numpy()
        t = pd.crosstab(pd.Series(col, name=by), pd.Series(self.engine.category_codes(), name="category"))
        for c in CODES:
            if c not in t.columns:
                t[c] = 0
        t = t[list(CODES)]
        t["TOTAL"] = t.sum(axis=1)
        return t
