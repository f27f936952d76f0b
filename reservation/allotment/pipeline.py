"""One pipeline for every body: ``allot(body, year, ...) -> Allotment``.

The shared steps, once, in this order:

1. the rulebook and the year (a year the law has not addressed is computed under the latest rules, said in
   the result), the options;
2. the units (the shipped list, or the user's ``units`` file) and their resolver (names and codes);
3. the user's inputs: history (default: the shipped one), population override, pins, lots; each validated,
   every unit resolved, errors naming file, row and column;
4. the population override, then the OBC assumption (OBC population is not public: without an ``obc`` column
   every unit is assumed at the State share, and the result says so);
5. the rulebook's counts: the State counts and the optional split among parents (districts, divisions, blocks);
6. pins within those counts; the passes in the legal order (the category-order option picks the order);
7. the engine; the conservation check (every parent holds exactly its counts); the meta record.

The CLI, the Python API, the views and the reports all call :func:`allot`; nothing else decides which inputs
a body needs.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from .result import Allotment
from ..law.categories import CODES
from ..engine.passes import CODE_INDEX, Pass, RuleError, Settings, run_passes
from ..engine.steps import DivisionRule, Effect, Fallback, Scope, TieRule, WomenRule
from ..base.errors import InputError
from ..inputs.user_files import describe_input, load_history, load_lots, load_pins, load_population
from ..inputs.options import OptionSet, parse_assignments
from ..inputs.published import published_list
from .parents import order_by_parent, pins_by_place, slots_of_parents
from .render import PassText
from ..law.rotation import RotationView, distinct_years, group_codes
from ..law.words import BODY_TITLES_HI, OBC_NOTE_HI, units_word
from ..law.words_codes import TIE_BREAK_HI
from ..rules.rulebook import BaseYearWarning, Counts, Rulebook, base_year_assumption
from ..law.words_audit import Kind
from ..law.words_counts import Said
from ..law.words_notes import Note
from ..rules.registry import get_rulebook

__all__ = ["allot", "counts", "prepare", "Prepared", "Context", "Obc", "options_of"]

_EMPTY_HISTORY = {"unit_code": "int64", "year": "int64", "category": "object", "source": "object"}


@dataclass
class Obc:
    """OBC population of the units: given (``num`` = persons, ``den`` = pop) or assumed at the State share
    ``share_num / scale`` (``num``/``den`` = that share for every unit with people)."""

    given: bool
    num: np.ndarray
    den: np.ndarray
    share_num: int = 0
    scale: int = 1
    share_text: str = ""


@dataclass
class Context:
    """What a rulebook's functions see of a run."""

    rulebook: Rulebook
    year: int
    base_year: int
    opts: OptionSet
    units: pd.DataFrame
    obc: Obc
    population: pd.DataFrame | None
    history: pd.DataFrame
    notes: list = field(default_factory=list)
    fields: dict = field(default_factory=dict)     # words for key labels: {base}, {unit}
    parent_ids: np.ndarray | None = None           # the parent number of each unit (0.., sorted labels)
    parent_labels: np.ndarray | None = None
    source: object = None                          # the units as the caller gave them (a path), or None


def options_of(rb: Rulebook, options) -> OptionSet:
    """Options as an OptionSet: an OptionSet, a dict, "NAME=VALUE" strings or (name, value) pairs."""
    if isinstance(options, OptionSet):
        return options
    if isinstance(options, dict):
        pairs = [(str(k), str(v)) for k, v in options.items()]
    else:
        items = list(options or ())
        strings = [x for x in items if isinstance(x, str)]
        pairs = parse_assignments(strings) + [tuple(x) for x in items if not isinstance(x, str)]
    return rb.option_set(pairs)


def _paths(value) -> list:
    if value is None:
        return []
    if isinstance(value, (str, Path)):
        return [value]
    return list(value)


def _history(rb: Rulebook, history, resolve, year: int, described: dict,
             own_units: bool = False) -> tuple[pd.DataFrame, bool]:
    """The history table and whether the user gave it (a user's record after the election year is an error).
    ``own_units``: the user gave the units; a rulebook whose shipped history is of its shipped units only
    (``history_with_units`` False) then reads none unless given."""
    if isinstance(history, pd.DataFrame):
        missing = [c for c in ("unit_code", "year", "category") if c not in history.columns]
        if missing:
            raise InputError(f"a history table needs the columns unit_code, year, category (missing: "
                             f"{', '.join(missing)})", option="history")
        h = history.copy()
        if "source" not in h:
            h["source"] = "given table"
        return h, True
    if history is None:
        paths = [rb.default_history] if rb.default_history and (rb.history_with_units or not own_units) else []
        given = False
        if paths and rb.history_table is not None:     # a shipped table read as a table (gzip): its own codes
            h = rb.history_table(year)
            described["history"] = [describe_input(p) for p in paths]
            return h, False
    else:
        paths = _paths(history)
        given = True
    h = load_history(paths, resolve, until=None if given else year) if paths else pd.DataFrame({k: pd.Series([], dtype=v)
                                                                  for k, v in _EMPTY_HISTORY.items()})
    if paths:
        described["history"] = [describe_input(p) for p in paths]
    if given and len(h):
        late = h[h["year"] > year]
        if len(late):
            raise InputError(f"a record for {int(late['year'].iat[0])}, later than the election year {year}",
                             file=str(late["_file"].iat[0]), row=int(late["_row"].iat[0]), column="year")
    # where each record stood: for messages; the file's name and row stay typed beside ``source`` (its words in
    # English) so that another language can say them (``reservation explain --lang hi``)
    if "_file" in h.columns:
        h = h.assign(_file=[Path(str(f)).name for f in h["_file"]])
    return h, given


def _apply_population(rb: Rulebook, frame: pd.DataFrame, pop: pd.DataFrame, path) -> pd.DataFrame:
    """Replace the units' pop/sc/st/obc column by column with the user's figures, and check them."""
    frame = frame.copy()
    at = pd.Series(np.arange(len(frame)), index=frame["unit_code"].to_numpy())
    pos = at.reindex(pop["unit_code"].to_numpy()).to_numpy()
    for col in ("pop", "sc", "st", "obc"):
        if col not in pop.columns:
            continue
        if col == "obc":
            if len(pop) < len(frame) or np.isnan(pos).any():
                have = set(pop["unit_code"].tolist())
                missing = [int(c) for c in frame["unit_code"] if c not in have]
                raise InputError(f"gives 'obc' but not for {len(missing)} {rb.unit_kind}(s), e.g. {missing[0]}",
                                 file=str(path), column="obc")
            frame["obc"] = np.zeros(len(frame), dtype=np.int64)
        values = frame[col].to_numpy(dtype=np.int64).copy()
        values[pos.astype(np.int64)] = pop[col].to_numpy(dtype=np.int64)
        frame[col] = values
    have_obc = "obc" in frame.columns
    parts = frame["sc"].to_numpy(dtype=np.int64) + frame["st"].to_numpy(dtype=np.int64)
    if have_obc:
        parts = parts + frame["obc"].to_numpy(dtype=np.int64)
    over = parts[pos.astype(np.int64)] > frame["pop"].to_numpy(dtype=np.int64)[pos.astype(np.int64)]
    if over.any():
        i = int(np.flatnonzero(over)[0])
        p = int(pos[i])
        raise InputError(f"sc + st{' + obc' if have_obc else ''} = {int(parts[p])} exceeds pop = "
                         f"{int(frame['pop'].iat[p])}", file=str(path), row=int(pop["_row"].iat[i]), column="pop")
    return frame


def _obc(rb: Rulebook, ctx_opts: OptionSet, frame: pd.DataFrame, fields: dict) -> tuple[Obc, str]:
    pop = frame["pop"].to_numpy(dtype=np.int64)
    if "obc" in frame.columns:
        return Obc(True, frame["obc"].to_numpy(dtype=np.int64), pop), ""
    share, text = rb.obc_share(ctx_opts)
    share = Fraction(share)
    num = np.where(pop > 0, share.numerator, 0).astype(np.int64)
    den = np.full(len(frame), share.denominator, dtype=np.int64)
    note = rb.obc_note.format(share=text, tie_break=ctx_opts["tie_break"], **fields)
    return Obc(False, num, den, share.numerator, share.denominator, text), note








def allot(body: str, year: int, *, units=None, history=None, population=None, pins=None, options=(),
          base_year: int | None = None, published=None) -> Allotment:
    """The allotment of ``body`` for the election of ``year``.

    ``units``: the user's list of units (a CSV path or a DataFrame; required for gram panchayats and wards);
    ``history``: CSV path(s) ``unit,year,category`` or a table ``unit_code,year,category`` (None = the shipped
    history; ``[]`` = none); ``population``: CSV ``unit`` + any of ``pop,sc,st,obc``; ``pins``: CSV
    ``unit,category``; ``options``: "NAME=VALUE" strings, (name, value) pairs, a dict or an OptionSet;
    ``base_year``: the first election that counts as a previous one (None = the rulebook's default);
    ``published``: the published list of that election (a CSV path or a table ``unit, category``; None = the one
    the project ships, if any), which the answer columns compare with (:mod:`reservation.allotment.answer`).
    Bad input raises :class:`~reservation.base.errors.InputError`; rules that cannot apply :class:`RuleError`.
    """
    return prepare(body, year, units=units, history=history, population=population, pins=pins, options=options,
                   base_year=base_year, published=published, _stacklevel=3).run()


@dataclass
class Prepared:
    """A run's inputs, read, resolved and checked once (steps 1-3 of the module docstring); :meth:`run` does the
    rest. :func:`allot` is ``prepare(...).run()``; a projection calls :meth:`run` once per sample of the unknown
    OBC population (``obc=``), without reading a file again."""

    rb: Rulebook
    body: str
    year: int
    opts: OptionSet
    frame: pd.DataFrame
    par: np.ndarray
    parent_labels: np.ndarray
    parent: str | None
    resolve: object
    described: dict
    history: pd.DataFrame
    given: bool
    population: pd.DataFrame | None
    pin_df: pd.DataFrame | None
    pins_source: object
    lots: dict
    base: int
    assumptions: list
    fields: dict
    source: object
    published: object = None          # the user's published list, read: (unit_code -> category, ListSource)
    _counts: object = None
    _cache: dict = field(default_factory=dict)

    def division_reads_obc(self, group: str) -> bool:
        """Whether the division rule's population of ``group``'s pass (the "least populous" it frees) reads the
        unknown OBC figures (option ``saturation_population=category`` for OBC or outside SC/ST/OBC), as tested
        when a run computed it; True (not known to be public) before any run did."""
        got = self._cache.get("satpop", {}).get(group)
        return True if got is None else not got[0]

    def run(self, obc: np.ndarray | None = None) -> Allotment:
        """Steps 4-7: the OBC figures, the counts, pins, passes, engine, conservation check and meta.

        ``obc``: None = as the inputs say (an ``obc`` column of the population or units, else the State share
        assumed); or the OBC persons of every unit (ints, in the order of ``self.frame``), exactly as if given by
        ``--population`` with an ``obc`` column. A body counted with the State as its only counting unit
        (``parent`` None) counts from State shares, never from the units' OBC figures: its counts are computed
        once and reused by later calls with ``obc``."""
        ctx, reuse, assumptions, obc_note = self._context(obc)
        c: Counts = self._counts if reuse else self.rb.counts(ctx)
        if obc is not None and self.parent is None:
            self._counts = c
        assumptions += c.notes
        return _run(self, ctx, c, ctx.units, assumptions, obc_note, answer=obc is None)

    def categories(self, obc: np.ndarray) -> np.ndarray:
        """The category code of every unit (as ``self.run(obc).engine.category``) without the words: the counts
        come from the rulebook's numbers-only ``slots`` where it has one (the same computation as its counts),
        and no meta or result is built. A projection's samples after the first read only this."""
        ctx, reuse, _, obc_note = self._context(obc)
        if reuse:
            slots = self._counts.slots
        elif self.rb.slots is not None:
            slots = self.rb.slots(ctx)
        else:
            c = self.rb.counts(ctx)
            if self.parent is None:
                self._counts = c
            slots = c.slots
        return _engine(self, ctx, slots, ctx.units, obc_note)[0].category

    def _context(self, obc) -> tuple:
        """The run's context for the OBC figures ``obc`` (see :meth:`run`), whether the counts of an earlier
        run are reused, the assumptions so far and the OBC note."""
        rb, opts, frame, fields = self.rb, self.opts, self.frame, self.fields
        pop_df = self.population
        reuse = obc is not None and self.parent is None and self._counts is not None
        if obc is not None:
            obc = np.asarray(obc, dtype=np.int64)
            if "room" not in self._cache:
                self._cache["obc_runs"] = True
                pop = frame["pop"].to_numpy(dtype=np.int64)
                self._cache["pop"] = pop
                self._cache["room"] = pop - frame["sc"].to_numpy(dtype=np.int64) - frame["st"].to_numpy(
                    dtype=np.int64)
            if obc.shape != (len(frame),):
                raise ValueError(f"obc: {len(frame)} values expected, got {obc.shape}")
            if (obc < 0).any() or (obc > self._cache["room"]).any():
                raise ValueError("obc: every value must lie between 0 and pop - sc - st")
            if not reuse:                    # the counts may read the units' OBC: give it as a population would
                frame = frame.assign(obc=obc)
                add = pd.DataFrame({"unit_code": frame["unit_code"].to_numpy(), "obc": obc})
                pop_df = add if pop_df is None else pop_df.drop(columns=["obc"], errors="ignore").merge(
                    add, on="unit_code", how="right")
        assumptions = list(self.assumptions)
        if obc is not None:
            obc_, obc_note = Obc(True, obc, self._cache["pop"]), ""
        else:
            obc_, obc_note = _obc(rb, opts, frame, fields)
        ctx = Context(rb, self.year, self.base, opts, frame, obc_, pop_df, self.history, fields=fields,
                      parent_ids=self.par, parent_labels=self.parent_labels, source=self.source)
        if obc_note:
            assumptions.append(obc_note)
        return ctx, reuse, assumptions, obc_note


def prepare(body: str, year: int, *, units=None, history=None, population=None, pins=None, options=(),
            base_year: int | None = None, published=None, _stacklevel: int = 2) -> Prepared:
    """Steps 1-3 of an allotment (rulebook, year, options, units, history, population, pins, lots), checked:
    the same arguments and errors as :func:`allot` (and the same base-year warning, once)."""
    rb = get_rulebook(body)
    assumptions = rb.years.check(body, year)
    opts = options_of(rb, options)
    if rb.units_file == "none" and units is not None:
        raise InputError(f"{body} has its units built in; --units is for bodies whose units are not public",
                         option="--units")
    if rb.units_file == "required" and units is None:
        raise InputError(f"{body} needs --units FILE (unit, parent, pop, sc, st[, obc]): populations of "
                         f"{rb.unit_kind}s are not public", option="--units")
    if population is not None and not rb.accepts_population:
        raise InputError(f"{body}: populations come with the units file (--units), not --population",
                         option="--population")
    us = rb.load_units(units, year, opts)
    parent = rb.parent_of(opts)
    frame, par, parent_labels = order_by_parent(us.frame, parent)
    resolve = us.resolve
    described = dict(us.described)
    h, given = _history(rb, history, resolve, year, described, own_units=units is not None)
    pop_df = None
    if population is not None:
        pop_df = population if isinstance(population, pd.DataFrame) else load_population(population, resolve)
        if not isinstance(population, pd.DataFrame):
            described["population"] = describe_input(population)
        frame = _apply_population(rb, frame, pop_df, population if not isinstance(population, pd.DataFrame)
                                  else "population table")
        if rb.population_applied is not None:
            frame = rb.population_applied(frame, pop_df["unit_code"])
    pin_df = None
    if pins is not None:
        pin_df = pins if isinstance(pins, pd.DataFrame) else load_pins(pins, resolve)
        if not isinstance(pins, pd.DataFrame):
            described["pins"] = describe_input(pins)
    lots = {}
    if opts.values.get("lots"):
        lots = load_lots(opts["lots"], resolve)
        described["lots"] = describe_input(opts["lots"])
    base = rb.base_year_for(year) if base_year is None else int(base_year)
    if base_year is None and year in rb.record_base_years:
        assumptions.append(Note("base.record", base=base, year=year, code=body,
                                body=Said(body, BODY_TITLES_HI.get(body, body))))
    if base == 0:
        base = int(h["year"].min()) if len(h) else 0
    if base > year:
        raise InputError(f"the base year {base} is after the election year {year}", option="--base-year")
    base_note = base_year_assumption(h, year, base, body, rb.years.elections)
    if base_note:                      # said loudly: the first assumption of the result, and a warning
        assumptions.insert(0, base_note)
        warnings.warn(base_note, BaseYearWarning, stacklevel=_stacklevel)
    fields = rb.label_fields(opts) if rb.label_fields else {}
    assumptions += us.notes
    pins_source = "pins table" if isinstance(pins, pd.DataFrame) else pins     # a refusal names it: never a frame
    listed = None
    if published is not None:           # read now: a bad list is refused before anything is computed
        listed = published_list(body, year, resolve, published)
        if not isinstance(published, pd.DataFrame):
            described["published"] = describe_input(published)
    return Prepared(rb, body, year, opts, frame, par, parent_labels, parent, resolve, described, h, given, pop_df,
                    pin_df, pins_source, lots, base, assumptions, fields, units, listed)


def _division_population(p: Prepared, ctx: Context, group: str):
    """The rulebook's division population for a pass. Whether it reads the OBC figures is tested once per
    prepared run and group (:meth:`Prepared.division_reads_obc`: the same with no OBC person and with every
    unit's room full of them, a total population or a table, does not); in re-runs with given OBC figures
    (:meth:`Prepared.run` with ``obc``) one that does not is computed once."""
    rb = p.rb
    memo = p._cache.setdefault("satpop", {})
    if group not in memo:
        from dataclasses import replace
        pop = ctx.units["pop"].to_numpy(dtype=np.int64)
        room = pop - ctx.units["sc"].to_numpy(dtype=np.int64) - ctx.units["st"].to_numpy(dtype=np.int64)
        a = rb.division_population(replace(ctx, obc=Obc(True, np.zeros_like(room), pop)), group)
        b = rb.division_population(replace(ctx, obc=Obc(True, room, pop)), group)
        same = len(a) == len(b) and all(x == y for x, y in zip(a, b))
        memo[group] = (same, a)
    same, value = memo[group]
    return value if same and "obc_runs" in p._cache else rb.division_population(ctx, group)


#: Option tie_break -> the engine's rule for a pass whose key is known (``assumed_by_code`` breaks those ties as
#: ``population`` does; only the passes of :func:`_tie_population` differ).
_ENGINE_TIE = {"population": "population", "assumed_by_code": "population", "code": "code"}


def engine_tie_break(value: str) -> str:
    """The engine's tie-break rule (``population`` or ``code``) for an option value of ``tie_break``."""
    return _ENGINE_TIE[value]


def settings_of(opts: OptionSet, lots: dict | None = None, parent_label: str = "State") -> Settings:
    """The engine's typed settings from a run's options, in one place. The division rule is None where the
    rulebook declares no ``division_saturation`` option (the body has no division rule) or it is ``off``; a
    rulebook that declares the rule declares its ``saturation_scope`` and ``saturation_effect`` too."""
    division = None
    if "division_saturation" in opts.options and opts["division_saturation"] == "on":
        division = DivisionRule(Scope(opts["saturation_scope"]), Effect(opts["saturation_effect"]))
    return Settings(tie_break=TieRule(engine_tie_break(opts["tie_break"])), lots=dict(lots or {}),
                    category_women=WomenRule(opts["category_women"]),
                    rotation_fallback=Fallback(opts["rotation_fallback"]), division=division,
                    parent_label=parent_label)


def _tie_population(ctx: Context, group: str, pop: np.ndarray) -> tuple[np.ndarray, str]:
    """The population that breaks a pass's ties, and "code" when the pass breaks them by the code alone.

    ``tie_break=assumed_by_code`` (A14): where the key is a stand-in (the OBC share, assumed equal in every unit
    because no OBC figures were given) every unit ties, so the tie rule alone would choose the OBC units; by
    population it would take the largest, the very units the women's pass (which ranks by a population) comes
    to next. Such a pass breaks its ties by the lower code (a constant population: the engine's order is then
    the code order within each parent); every other pass as ``population``."""
    if ctx.opts["tie_break"] == "assumed_by_code" and group == "OBC" and not ctx.obc.given:
        return np.zeros(len(pop), dtype=np.int64), "code"
    return pop, ""


def _passes(p: Prepared, ctx: Context, frame: pd.DataFrame, slot_matrix: np.ndarray, obc_note: str) -> list:
    """The engine's passes in the rulebook's legal order, each with its key, tie population and words."""
    rb, opts, fields = p.rb, p.opts, p.fields
    rot_clause = rb.clause("rotation", base_year=p.base)
    groups = rb.groups(opts) if callable(rb.groups) else rb.groups
    pop = frame["pop"].to_numpy(dtype=np.int64)
    obc_note_hi = OBC_NOTE_HI.format(unit=units_word(rb.unit_kind, 1, "hi"), share=ctx.obc.share_text,
                                     tie_break=TIE_BREAK_HI[opts["tie_break"]])
    rot_clause_hi = rb.clause("rotation", "hi", base_year=p.base)
    passes = []
    for group, codes in rb.pass_order(opts):
        g = groups[group]
        eligible = None
        if g.eligible is not None and (rb.eligibility is None or rb.eligibility(opts)):
            eligible = g.eligible(ctx)
        tie_pop, tie_rule = _tie_population(ctx, group, pop)
        text = PassText(
            key_label=g.label.format(**fields), key_label_hi=g.label_hi.format(**fields) if g.label_hi else "",
            clause=rb.clause(g.clause), clause_women=rb.clause(g.clause_women or g.clause),
            clause_rotation=rot_clause, clause_saturation=rb.clause(g.division_rule) if g.division_rule else "",
            clause_eligible=rb.clause(g.clause_eligible) if g.clause_eligible else "",
            eligible_reason=g.eligible_reason, note=obc_note if g.note == "obc" else "",
            note_hi=obc_note_hi if g.note == "obc" and obc_note else "",
            freed_reason=rb.clause("freed.reason"), clause_freed=rb.clause("freed"), tie_rule=tie_rule,
            hi=_clauses_hi(rb, g, rot_clause_hi))
        satpop = _division_population(p, ctx, group) if g.division_rule and rb.division_population else None
        cols = [CODE_INDEX[c] for c in codes]
        passes.append(Pass(group=group, codes=tuple(codes), slots=slot_matrix[:, cols], key=g.key(ctx),
                           population=tie_pop,
                           history_codes=group_codes(group, opts.values.get("women_history", "general_only")),
                           eligible=eligible, saturation_population=satpop, text=text))
    return passes


def _clauses_hi(rb, g, rot_clause_hi: str) -> dict:
    """The Hindi of a pass's clause fields (:class:`~reservation.allotment.render.PassText`), from the rulebook's
    Hindi clause table."""
    return {"clause": rb.clause(g.clause, "hi"), "clause_women": rb.clause(g.clause_women or g.clause, "hi"),
            "clause_rotation": rot_clause_hi,
            "clause_saturation": rb.clause(g.division_rule, "hi") if g.division_rule else "",
            "clause_eligible": rb.clause(g.clause_eligible, "hi") if g.clause_eligible else "",
            "eligible_reason": g.eligible_reason_hi, "freed_reason": rb.clause("freed.reason", "hi"),
            "clause_freed": rb.clause("freed", "hi")}




def _engine(p: Prepared, ctx: Context, slots: pd.DataFrame, frame: pd.DataFrame, obc_note: str) -> tuple:
    """Pins, passes, the engine and the conservation check of a run whose posts per parent are ``slots``; returns
    the engine's result, the slots as a matrix (parents x codes) and the rotation's view of the history."""
    rb, opts, par, parent_labels, parent, h, base = p.rb, p.opts, p.par, p.parent_labels, p.parent, p.history, p.base
    year = p.year
    if p._cache.get("slots_in") is not slots:      # counts reused between runs (``parent`` None): checked once
        p._cache["slots_in"], p._cache["slots_out"] = slots, slots_of_parents(slots, parent_labels)
    slots = p._cache["slots_out"]
    key = slots.to_numpy(dtype=np.int64).tobytes()
    if p._cache.get("pins_for") != key:         # pins depend only on the posts per parent: checked once per slots
        p._cache["pins"], p._cache["pins_for"] = pins_by_place(parent, p.pin_df, p.pins_source, frame, slots), key
    engine_pins = p._cache["pins"]
    if "rotation" not in p._cache:
        use_history = h if opts.values.get("rotation", "tiers") != "none" else h.iloc[0:0]
        p._cache["rotation"] = RotationView(use_history, year, base, opts.values.get("rotation_history",
                                                                                       "since_base"))
    rotation = p._cache["rotation"]
    slot_matrix = slots.to_numpy(dtype=np.int64)
    passes = _passes(p, ctx, frame, slot_matrix, obc_note)
    settings = settings_of(opts, p.lots, rb.parent_word if parent else "State")
    division = None                     # read only where a pass applies the division rule
    if "division" in frame and settings.division is not None and any(
            x.saturation_population is not None for x in passes):
        division = frame["division"].to_numpy(dtype=object)
    result = run_passes(frame["unit_code"].to_numpy(dtype=np.int64), par, parent_labels, passes, rotation,
                        settings, engine_pins, division)
    got = np.bincount(par * len(CODES) + result.category, minlength=len(parent_labels) * len(CODES))
    want = slot_matrix.reshape(-1)
    if not np.array_equal(got, want):
        i = int(np.flatnonzero(got != want)[0])
        raise AssertionError(f"conservation broken: {parent_labels[i // len(CODES)]} {CODES[i % len(CODES)]} "
                             f"{got[i]} != {want[i]}")
    return result, slot_matrix, rotation


def _run(p: Prepared, ctx: Context, c: Counts, frame: pd.DataFrame, assumptions: list, obc_note: str,
         answer: bool = True) -> Allotment:
    rb, opts, parent_labels, parent, h, base = p.rb, p.opts, p.parent_labels, p.parent, p.history, p.base
    body, year = p.body, p.year
    result, slot_matrix, rotation = _engine(p, ctx, c.slots, frame, obc_note)
    totals = dict(zip(CODES, slot_matrix.sum(axis=0).tolist()))
    if not p.given and not len(h) and rb.units_file != "none":
        assumptions.append(Note("history.none", kind=Kind(rb.unit_kind)))
    meta = {"body": body, "year": year, "base_year": base, "posts": int(len(frame)),
            "history_years": rotation.years, "options": opts.record(), "inputs": p.described,
            "assumptions": assumptions, "counts": {k: int(totals[k]) for k in CODES},
            "history_not_counted": sorted({y for y in distinct_years(h["year"]) if y >= year}
                                          | set(h.attrs.get("later_years", ())))}
    if rb.base_year_readings:
        meta["base_year_reading"] = rb.base_year_readings.get(base, "")
    if parent:
        meta["parents"] = int(len(parent_labels))
    a = Allotment(body=body, year=year, unit_kind=rb.unit_kind, parent_column=parent, engine=result,
                  units=frame, counts=c.state, meta=meta, history=h[h["year"] < year], extra=c.extra,
                  resolve=p.resolve, ur_clause=rb.clause("unreserved"), extra_columns=rb.columns,
                  ur_clause_hi=rb.clause("unreserved", "hi"), counts_hi=c.state_hi, extra_hi=c.extra_hi,
                  flags_pending=True, options=opts, prepared=p if answer else None)
    return a            # meta["flags"] (facts a reader should see even when lawful) is filled on the first read


def counts(body: str, year: int, *, units=None, options=(), lang: str = "en") -> pd.DataFrame:
    """The counts per category (category, count, arithmetic, clause; ST_W ... UR, TOTAL) that an allotment of
    ``body`` for ``year`` contains, the arithmetic and clauses in ``lang``."""
    rb = get_rulebook(body)
    if rb.units_file == "required" and units is None:
        raise InputError(f"{body} counts are per {rb.parent_word}: give units (--units FILE)", option="--units")
    return allot(body, year, units=units, history=[], options=options).counts_in(lang)
