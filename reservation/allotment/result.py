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
                 flags_pending: bool = False, options=None, prepared=None, ur_clause_hi: str = "",
                 counts_hi: pd.DataFrame | None = None, extra_hi: dict | None = None):
        self.body = body
        self.year = year
        self.unit_kind = unit_kind
        self.parent_column = parent_column
        self.engine = engine
        self.units = units
        self.counts = counts
        self.counts_hi = counts_hi              # the same counts, their arithmetic and clauses in Hindi
        self.extra_hi = dict(extra_hi or {})    # step tables of ``extra`` in Hindi (functions until asked)
        self._meta = meta
        self._flags_pending = flags_pending
        self.history = history
        self.extra = extra
        self.resolve = resolve
        self.ur_clause = ur_clause
        self.ur_clause_hi = ur_clause_hi
        self.extra_columns = tuple(extra_columns)
        self.options = options
        self._prepared = prepared               # the answer's inputs (None: a run without an answer)
        self._answer_pending = prepared is not None
        self.probabilities = None               # units x CODES (floats), for an election not yet held
        self.probability_record: dict | None = None

    def __getstate__(self) -> dict:
        """A pickled allotment (a report's kernels load the one their parent saved) keeps its answer, computed
        now, not its inputs (the rulebook holds functions that do not pickle)."""
        state = self.__dict__.copy()
        if callable(state.get("counts_hi")):
            state["counts_hi"] = self.counts_in("hi")
        if "extra_hi" in state:             # a step table not rendered yet is left out (its function does not pickle)
            state["extra_hi"] = {k: v for k, v in state["extra_hi"].items() if not callable(v)}
        if state.get("_prepared") is not None:
            state["answer"] = self.answer
        state["_prepared"] = None
        return state

    @property
    def meta(self) -> dict:
        """The run's record (body, year, options, inputs, assumptions, counts, flags): the flags are added, last,
        on the first read."""
        if self._answer_pending:
            self._answer_pending = False
            self._meta["answer"] = self.answer.record()
            if self.probability_record is not None:
                self._meta["answer"]["probabilities"] = self.probability_record
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
    def answer(self):
        """The answer beside every category (:class:`reservation.allotment.answer.Answer`: published, status,
        possible), computed once, on the first read; None for a run made without its inputs (a projection's
        sample)."""
        if self._prepared is None:
            return None
        from .answer import answer_of
        return answer_of(self._prepared, self)

    def attach_probabilities(self, probabilities, record: dict) -> None:
        """Attach a projection's probabilities (units x CODES, in the engine's order; None: refused, said in
        ``record``), from :mod:`reservation.answers.future`: the table gains ``P_ST_W ... P_UR``, the meta's
        answer their ``record`` (samples, seed)."""
        self.probabilities = None if probabilities is None else np.asarray(probabilities, dtype=float)
        self.probability_record = dict(record)
        self.__dict__.pop("table", None)
        if not self._answer_pending and "answer" in self._meta:
            self._meta["answer"]["probabilities"] = self.probability_record

    def _with_answer(self, df: pd.DataFrame, lo: int = 0) -> pd.DataFrame:
        """The rendered rows ``df`` (units ``lo:lo+len(df)``) with the answer's columns right after ``category``."""
        a = self.answer
        if a is None:
            return df
        at = df.columns.get_loc("category") + 1
        cols = a.columns(lo, lo + len(df))
        if self.probabilities is not None:
            for j, c in enumerate(CODES):
                cols[f"P_{c}"] = self.probabilities[lo:lo + len(df), j]
        for i, (name, values) in enumerate(cols.items()):
            df.insert(at + i, name, values)
        return df

    @cached_property
    def table(self) -> pd.DataFrame:
        return self._with_answer(render_table(self.engine, self.units, self.ur_clause, self.extra_columns))

    def assumptions_in(self, lang: str) -> list[tuple[str, bool]]:
        """``meta["assumptions"]`` in ``lang``: (text, whether it is in ``lang``). An assumption the run made as a
        :class:`~reservation.law.words_notes.Note` (the year, the base year, the history, the blocks left out) is
        rendered in ``lang`` from its key and values; the OBC note of a pass, made in both languages (its ``note``
        and ``note_hi``), is given in Hindi; the rulebooks' other notes are English prose and stay English
        (False)."""
        from ..law.words_notes import Note
        if lang == "en":
            return [(a, True) for a in self.meta["assumptions"]]
        hi = {r.spec.text.note: r.spec.text.note_hi for r in self.engine.records if r.spec.text.note_hi}
        return [(a.in_lang(lang), True) if isinstance(a, Note) else (hi[a], True) if a in hi else (a, False)
                for a in self.meta["assumptions"]]

    def counts_in(self, lang: str) -> pd.DataFrame:
        """:attr:`counts` with the arithmetic and clauses in ``lang`` (English: :attr:`counts` itself)."""
        if lang == "en":
            return self.counts
        if self.counts_hi is None:
            raise ValueError(f"{self.body}: no counts in {lang!r}")
        if callable(self.counts_hi):            # rendered when first asked (rules.rulebook.Counts.state_hi)
            self.counts_hi = self.counts_hi()
        return self.counts_hi

    def extra_in(self, name: str, lang: str) -> pd.DataFrame:
        """The step table ``extra[name]`` (``districts``, ``divisions``) with its words in ``lang``."""
        if lang == "en":
            return self.extra[name]
        if name not in self.extra_hi:
            raise ValueError(f"{self.body}: no {name} table in {lang!r}")
        if callable(self.extra_hi[name]):
            self.extra_hi[name] = self.extra_hi[name]()
        return self.extra_hi[name]

    def table_in(self, lang: str) -> pd.DataFrame:
        """The table with its reasons, tie-breaks and decisions' words in ``lang`` ("en" or "hi"); the answer's
        columns are codes in either language."""
        if lang == "en":
            return self.table
        return self._with_answer(render_table(self.engine, self.units, self.ur_clauses, self.extra_columns,
                                              lang=lang))

    def table_blocks(self, lang: str = "en", rows: int = 65_536):
        """The table (in ``lang``) as DataFrames of ``rows`` rows, one after the other: rendered a block at a
        time, so the words of every unit are never held at once (how the table is written); the blocks of
        ``table`` itself when it is already rendered."""
        if lang == "en" and "table" in self.__dict__:
            df = self.table
            for lo in range(0, max(len(df), 1), rows):
                yield df.iloc[lo:lo + rows]
            return
        lo = 0
        for block in render_table_blocks(self.engine, self.units, self.ur_clauses, self.extra_columns, lang=lang,
                                         rows=rows):
            yield self._with_answer(block, lo)
            lo += len(block)

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
        """The trace rows of one unit (rendered for that unit only, in ``lang``), numbered from 1."""
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
