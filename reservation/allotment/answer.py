"""The answer beside every computed category (issue 20): what the State published, how sure the category is, and
which categories the law leaves possible with public data.

Computed once per allotment (:attr:`reservation.allotment.result.Allotment.answer`), from the run itself:

- ``published``: the published category of the unit at that election (the list the user gives with
  ``--published``, else the one the project ships: :func:`reservation.inputs.published.published_list`), "" where
  no list is held or the unit is not in it;
- ``possible``: the bit mask of every category some admissible value of the unknowns gives (a sound superset:
  "not excluded by the law with public data"), from the proof of :mod:`reservation.allotment.certainty`: the OBC
  population where it is not given, and the rotation tier of a unit that a list the rotation counts does not
  record (every tier it could have, through the engine's tier step on the history completed both ways:
  :meth:`reservation.law.rotation.RotationView.completed`);
- ``status``: a :class:`reservation.law.decisions.Status` code, the first that holds of
  :data:`~reservation.law.decisions.STATUS_PRECEDENCE`.

Codes and numbers only: the words are :mod:`reservation.law.words`' (``STATUS_WORDS``, ``ANSWER_WORDS``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine import steps
from ..law.categories import CODES
from ..law.decisions import STATUS_PRECEDENCE, Status
from ..law.rotation import positions
from ..base.errors import RuleError
from ..inputs.published import published_list
from .certainty import PassKind, mask_codes, pass_kinds, prove

__all__ = ["Answer", "answer_of", "ANSWER_COLUMNS", "PARTIAL_FIGURES", "possible_text"]

#: The values of a units table's ``figures`` column that make a unit's status ``partial_figures``: ``partial`` (a
#: population built from part of its area, e.g. gram panchayats from Census villages) and ``none`` (no figures:
#: an urban body created after 2011 without a Census town, ranked with share 0).
PARTIAL_FIGURES = ("partial", "none")
#: The answer's columns of an allotment table, right after ``category``.
ANSWER_COLUMNS = ("published", "status", "possible")
_CODES = np.asarray(CODES, dtype=object)


@dataclass
class Answer:
    """The answer of every unit of a run, in the engine's order. ``published`` (object: a code or ""),
    ``status`` (object: :class:`~reservation.law.decisions.Status` values), ``possible`` (int64 bit masks over
    CODES), ``source`` (the published list's :class:`~reservation.inputs.published.ListSource`, or None),
    ``missing`` (year -> bool per unit: the rotation counts that election and the history has no record of the
    unit), ``obc_given`` (the OBC figures were inputs) and ``possible_obc`` (the masks with every list held:
    what the OBC figures alone leave open)."""

    published: np.ndarray
    status: np.ndarray
    possible: np.ndarray
    source: object = None
    missing: dict = field(default_factory=dict)
    obc_given: bool = False
    possible_obc: np.ndarray | None = None

    def possible_codes(self, pos: int) -> tuple[str, ...]:
        """The possible categories of the unit at engine position ``pos`` (codes, in CODES order)."""
        return tuple(CODES[i] for i in mask_codes(int(self.possible[pos])))

    def missing_years(self, pos: int) -> list[int]:
        """The elections counted by the rotation whose list has no record of the unit at ``pos``."""
        return [y for y, m in sorted(self.missing.items()) if m[pos]]

    def counts(self) -> dict:
        """Units per status code, in the order of precedence (every code, 0 included)."""
        return {s.value: int((self.status == s.value).sum()) for s in reversed(STATUS_PRECEDENCE)}

    def record(self) -> dict:
        """What the meta file holds (``answer``): the counts, the published list's source, the missing lists."""
        out = {"counts": self.counts(), "units": int(len(self.status)),
               "published": None if self.source is None else {
                   "file": self.source.file, "date": self.source.date, "shipped": self.source.shipped,
                   "units_listed": int((self.published != "").sum())},
               "missing_lists": {str(y): int(m.sum()) for y, m in sorted(self.missing.items()) if m.any()},
               "obc_given": self.obc_given,
               "possible": "every category not excluded by the law with public data (a sound superset)"}
        return out

    def columns(self, lo: int, hi: int) -> dict:
        """The table's answer columns for the units at positions ``lo:hi``."""
        return {"published": self.published[lo:hi], "status": self.status[lo:hi],
                "possible": possible_text(self.possible[lo:hi])}


def possible_text(masks: np.ndarray) -> np.ndarray:
    """Bit masks -> "OBC_W|W|UR" (codes in CODES order joined by ``|``), one text per distinct mask."""
    masks = np.asarray(masks, dtype=np.int64)
    uniq, inv = np.unique(masks, return_inverse=True)
    words = np.array(["|".join(CODES[i] for i in mask_codes(int(m))) for m in uniq], dtype=object)
    return words[inv.reshape(-1)] if len(masks) else np.array([], dtype=object)


def answer_of(prepared, allotment, published=None) -> Answer:
    """The answer of an allotment (``allotment``: the run of ``prepared``); ``published``: the user's published
    list (a path or a table) or None (the shipped list of that body and election, if any)."""
    engine = allotment.engine
    n = len(engine.codes)
    obc_given = "obc" in prepared.frame.columns
    try:
        kinds = pass_kinds(prepared)
    except RuleError:                   # a key whose OBC dependence is not declared: nothing can be proved
        if not obc_given:
            return _unproved(prepared, allotment, published)
        kinds = [PassKind(r.spec.group, tuple(r.spec.codes), None, False) for r in engine.records]
    proof = prove(prepared, engine, kinds, obc_known=obc_given)
    missing = _missing(prepared, engine)
    possible = proof.possible
    depends_list = np.zeros(n, dtype=bool)
    if any(m.any() for m in missing.values()):
        wide = prove(prepared, engine, kinds, tier_range=_tier_ranges(engine, missing), obc_known=obc_given)
        depends_list = wide.possible != proof.possible
        possible = wide.possible | proof.possible
    own = (possible >> engine.category) & 1
    if not own.all():
        bad = int(np.flatnonzero(own == 0)[0])
        raise AssertionError(f"the computed category of {prepared.frame['unit_name_en'].iat[bad]} is outside its "
                             f"possible set")
    partial = _partial(prepared)
    if partial.any():                   # its own figures unknown: any category the election has (others: as given)
        possible = np.where(partial, np.bitwise_or.reduce(np.left_shift(1, engine.category)), possible)
    pub, source = _published(prepared, engine, published)
    status = _status(prepared, engine, pub, ~proof.certain, depends_list)
    return Answer(pub, status, possible, source, missing, obc_given, proof.possible)


def _partial(prepared) -> np.ndarray:
    """Whether each unit's population figures are partial (its ``figures`` is one of :data:`PARTIAL_FIGURES`)."""
    f = prepared.frame
    if "figures" not in f:
        return np.zeros(len(f), dtype=bool)
    return f["figures"].astype(str).str.strip().str.lower().isin(PARTIAL_FIGURES).to_numpy()


def _unproved(prepared, allotment, published) -> Answer:
    """The answer where no proof can be made (a pass ranks by a key whose OBC dependence is undeclared): every
    category possible, every unit depending on the OBC figures (a sound answer, and a plain one)."""
    engine = allotment.engine
    n = len(engine.codes)
    pub, source = _published(prepared, engine, published)
    possible = np.full(n, (1 << len(CODES)) - 1, dtype=np.int64)
    status = _status(prepared, engine, pub, np.ones(n, dtype=bool), np.zeros(n, dtype=bool))
    return Answer(pub, status, possible, source, {}, False, possible)


def _published(prepared, engine, published):
    """The published category of every unit ("" where none) and the list's source (None: no list held)."""
    n = len(engine.codes)
    pub = np.full(n, "", dtype=object)
    got = prepared.published if published is None else published_list(prepared.body, prepared.year,
                                                                       prepared.resolve, published)
    if got is None and prepared.source is None:     # the shipped list, of the shipped units only
        got = published_list(prepared.body, prepared.year, prepared.resolve)
    source = None
    if got is not None:
        series, source = got
        at = series.reindex(engine.codes)
        pub = np.where(at.isna().to_numpy(), "", at.fillna("").astype(str).to_numpy()).astype(object)
    return pub, source


def _status(prepared, engine, pub, depends_obc, depends_list) -> np.ndarray:
    """The status code of every unit: the first of STATUS_PRECEDENCE that holds."""
    n = len(engine.codes)
    status = np.full(n, Status.DETERMINED.value, dtype=object)
    partial = _partial(prepared)
    holds = {Status.DEPENDS_OBC: depends_obc, Status.PARTIAL_FIGURES: partial, Status.DEPENDS_LIST: depends_list,
             Status.DIFFERS_PUBLISHED: (pub != "") & (pub != engine.category_codes())}
    for s in reversed(STATUS_PRECEDENCE[:-1]):           # the lowest first: a higher one overwrites it
        status[holds[s]] = s.value
    return status


def _missing(prepared, engine) -> dict:
    """Year -> the units with no record of that election, for every general election the rotation counts (from the
    base year to the last one before the election year; none when the rotation is switched off, or when the base
    year is the first history year (the urban bodies' default) and no history is given: then no election counts)."""
    if prepared.opts.values.get("rotation", "tiers") == "none" or prepared.base == 0:
        return {}                           # base 0: the first history year, and there is none: nothing counts
    years = [y for y in prepared.rb.years.elections if prepared.base <= y < prepared.year]
    if prepared.opts.values.get("rotation_history", "since_base") == "last_only":
        years = years[-1:]
    h = prepared.history
    out = {}
    for y in years:
        have = h.loc[h["year"] == y, "unit_code"].to_numpy(dtype=np.int64)
        pos = positions(engine.codes, have)           # the engine's lookup (np.isin takes seconds at 732,000)
        missing = np.ones(len(engine.codes), dtype=bool)
        missing[pos[pos >= 0]] = False
        out[int(y)] = missing
    return out


def _tier_ranges(engine, missing: dict) -> list:
    """Per pass: the lowest and highest rotation tier each unit could have with its missing records read as
    held nothing or every category (the engine's tier step on both completed histories), widened to the run's own
    tier (so the computed category stays among the possible ones)."""
    rot = engine.rotation
    last = max(missing)
    missing_last = missing[last]
    before = np.zeros(len(engine.codes), dtype=bool)
    for y, m in missing.items():
        if y != last:
            before |= m
    low, high = rot.completed(last, missing_last, before, False), rot.completed(last, missing_last, before, True)
    out = []
    for rec in engine.records:
        a = steps.tiers(low, rec.spec.history_codes)
        b = steps.tiers(high, rec.spec.history_codes)
        out.append((np.minimum(np.minimum(a, b), rec.tier), np.maximum(np.maximum(a, b), rec.tier)))
    return out

