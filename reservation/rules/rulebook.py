"""What a rulebook declares (the registry of bodies that finds them is :mod:`reservation.rules.registry`).

A rulebook says only what its law says: the elections it can compute, its options, its units, its counts (State
counts and the optional split among parents), its passes in the legal order (one :class:`Group` per category
group: the key it ranks by, who may take it, the clauses it applies) and one table of clause citations. The
shared steps (inputs, population override, OBC assumption, pins, category order, engine, conservation, meta)
are done once for every body by :mod:`reservation.allotment.pipeline`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..base.errors import InputError, RuleError
from ..inputs.options import Option, OptionSet

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Years", "Group", "Counts", "UnitSet", "Rulebook", "BaseYearWarning",
           "base_year_assumption", "slots_from_split"]


@dataclass(frozen=True)
class Years:
    """The elections a rulebook computes, as data (built from ``rules/params/elections.toml`` by :meth:`of`).
    ``elections``: the general elections held (their lists can be history). Any year after the last of them (up
    to ``last``) is *the next election*: it has not been held, and its date is not fixed by law (the panchayat
    terms ended in 2026 and the next election was put off past the 2027 Assembly poll; the 2021 election itself
    was a year late), so the year only labels it and the result says so. ``every`` is the usual term, used only
    to suggest a year. ``law``: the elections whose instrument the rulebook implements; any other election is
    computed under the rules of the latest law year before it (or the first), and the result says that those
    rules were assumed, unless ``earlier`` is "refuse": then a held election before the first law year ran under
    rules the package does not hold (``earlier_rules``; ``earlier_why`` says why assuming the later law would
    mislead), and computing it is a :class:`RuleError` (exit 3); its list is read only as history (``lists``:
    (year, body, file under data/) of the shipped lists)."""

    elections: tuple[int, ...]
    law: tuple[int, ...]
    every: int = 5
    instrument: str = ""
    last: int = 2100
    earlier: str = "assume"
    earlier_rules: str = ""
    earlier_why: str = ""
    lists: tuple[tuple[int, str, str], ...] = ()
    instrument_hi: str = ""

    @classmethod
    def of(cls, name: str) -> Years:
        """The calendar ``name`` of elections.toml (``"panchayat"``, ``"urban"``)."""
        from .parameters import calendar
        c = calendar(name)
        return cls(elections=tuple(y for y, _ in c.held), law=c.law, every=c.every, instrument=c.instrument,
                   earlier=c.earlier, earlier_rules=c.earlier_rules, earlier_why=c.earlier_why, lists=c.lists,
                   instrument_hi=c.instrument_hi)

    def computes(self, year: int) -> bool:
        return (year in self.elections and not self.without_rules(year)) or self.is_next(year)

    def is_next(self, year: int) -> bool:
        """``year`` labels the next election (after the last one held)."""
        return max(self.elections) < year <= self.last

    def without_rules(self, year: int) -> bool:
        """``year`` was a general election whose rules the package does not hold (and does not assume)."""
        return self.earlier == "refuse" and year in self.elections and year < min(self.law)

    def upcoming(self, n: int = 2) -> list[int]:
        top = max(self.elections)
        return [top + self.every * k for k in range(1, n + 1)]

    def check(self, body: str, year: int) -> list[str]:
        if not isinstance(year, int) or isinstance(year, bool):
            raise InputError(f"{body}: year {year!r} is not a whole number", option="--year")
        if self.without_rules(year):
            raise RuleError(self.refusal(body, year))
        if not self.computes(year):
            known = ", ".join(map(str, self.elections))
            raise InputError(f"{body}: {year} is not an election year (elections held: {known}; any year from "
                             f"{max(self.elections) + 1} to {self.last} is the next election)", option="--year")
        from ..law.words_counts import Said
        from ..law.words_notes import Note
        notes = []
        if self.is_next(year):
            notes.append(Note("year.next", year=year, top=max(self.elections)))
        if year not in self.law:
            notes.append(Note("year.rules_assumed", year=year, rules_year=self.rules_year(year),
                              instrument=Said(self.instrument, self.instrument_hi or self.instrument)))
        return notes

    def refusal(self, body: str, year: int) -> str:
        """The one line refusing a held election whose rules the package does not hold."""
        files = [f for y, b, f in self.lists if y == year and b == body]
        where = (f"its list is read as history (data/{files[0]})" if files else
                 f"the package ships no {year} {body} list; one given with --history is read as history")
        return (f"{body}: {year} was a general election, but its rules ({self.earlier_rules}) are not in the "
                f"package, which holds only the {self.instrument} rules; {self.earlier_why}, and assuming those "
                f"for {year} would mislead: {year} is not computed, and {where}")

    def rules_year(self, year: int) -> int:
        before = [y for y in self.law if y <= year]
        return max(before) if before else min(self.law)


class BaseYearWarning(UserWarning):
    """The base year asks for elections that the history does not hold (said in the result too)."""


def base_year_assumption(history, year: int, base_year: int, body: str, elections) -> str:
    """The assumption a result must state when the history lacks general elections in ``[base_year, year)``.

    Returns '' when every general election from the base year up to the one before ``year`` has at least one
    record, or when the history is empty (then every tier reason says "no previous election in the history").
    Years at or after ``year`` never count (the election itself, or later ones).
    """
    if not len(history):
        return ""
    from ..law.rotation import distinct_years
    have = distinct_years(history["year"])
    wanted = [y for y in elections if base_year <= y < year]
    missing = [y for y in wanted if y not in have]
    if not missing:
        return ""
    from ..law.words import BODY_TITLES_HI
    from ..law.words_counts import Said
    from ..law.words_notes import Note
    used = [y for y in have if base_year <= y < year]
    same = [y for y in wanted if y not in missing]
    if same and missing == wanted[:len(missing)]:
        then = Note("base.as_later", base=base_year, same=", ".join(map(str, same)), first=same[0])
    else:
        then = Note("base.not_reserved")
    return Note("base.missing", base=base_year, body=Said(body, BODY_TITLES_HI.get(body, body)),
                missing=", ".join(map(str, missing)),
                counted=Note("base.counts_only", used=", ".join(map(str, used))) if used else
                Note("base.counts_none"), then=then)


@dataclass(frozen=True)
class Group:
    """One category group's pass: what it ranks by and which clauses it applies.

    ``key``: a declared key of :mod:`reservation.rules.keys` (a :class:`~reservation.rules.keys.KeySpec`: its
    kind says what it depends on; context -> Ratio; a plain function has no declared kind, and the audit and the
    projection then treat it as a key they do not know); ``label``: what the key is, in words (``{base}`` and
    ``{unit}`` are filled from the context); ``eligible``: a declared constraint
    (:class:`~reservation.rules.keys.Eligibility`: context -> bool array) or None; clauses are keys of the rulebook's clause table; ``division_rule``: the clause key of
    the division rule when the pass applies it (ZP chairs), else ""; ``note``: "obc" repeats the OBC
    assumption in every row the pass decides.
    """

    key: Callable
    label: str
    clause: str
    clause_women: str = ""
    eligible: Callable | None = None
    clause_eligible: str = ""
    eligible_reason: str = ""
    division_rule: str = ""
    note: str = ""
    label_hi: str = ""
    eligible_reason_hi: str = ""


@dataclass
class Counts:
    """``state``: the counts table (category, count, arithmetic, clause; ST_W ... UR, TOTAL); ``slots``: posts
    per parent (index: parent label, "*" for the State) and code (the eight codes, UR included); ``extra``: the
    body's own step tables (e.g. ``districts``); ``notes``: assumptions made; ``state_hi``: the counts table
    with its arithmetic and clauses in Hindi (the same numbers), or a function of no arguments that makes it
    (rendered only when asked: a projection's samples never ask); ``extra_hi``: the same for step tables of
    ``extra`` that have words (name -> a function of no arguments that makes the table in Hindi)."""

    state: pd.DataFrame
    slots: pd.DataFrame
    extra: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    state_hi: pd.DataFrame | Callable | None = None
    extra_hi: dict = field(default_factory=dict)


def slots_from_split(table: pd.DataFrame, parent: str) -> pd.DataFrame:
    """Posts per parent and code from a parent-split table (one row per parent and group ST/SC/OBC/W/UR with
    columns ``women``, ``others``, ``final``): the engine's slots (index: parent, columns: the eight codes)."""
    import pandas as pd
    fast = _slots_fast(table, parent)
    if fast is not None:
        return fast
    wide = table.pivot(index=parent, columns="category", values=["women", "others", "final"])
    out = pd.DataFrame(index=wide.index)
    for g in ("ST", "SC", "OBC"):
        out[f"{g}_W"] = wide[("women", g)].astype("int64")
        out[g] = wide[("others", g)].astype("int64")
    out["W"] = wide[("final", "W")].astype("int64")
    out["UR"] = wide[("final", "UR")].astype("int64")
    return out.sort_index()


def _slots_fast(table, parent):
    """:func:`slots_from_split` without the pivot (a projection counts the districts' posts for every sample):
    None unless every parent has exactly one row of each of ST, SC, OBC, W and UR with whole numbers (the
    pivot then says what is wrong)."""
    import numpy as np
    import pandas as pd
    labels = table[parent]
    index = pd.Index(labels.unique(), name=parent).sort_values()
    rows = index.get_indexer(labels)
    cats = table["category"].to_numpy(dtype=object)
    values = {c: table[c].to_numpy() for c in ("women", "others", "final")}
    if any(v.dtype.kind not in "iu" for v in values.values()):
        return None
    got = {}
    for g in ("ST", "SC", "OBC", "W", "UR"):
        m = cats == g
        if int(m.sum()) != len(index) or len(np.unique(rows[m])) != len(index):
            return None
        for c, v in values.items():
            a = np.zeros(len(index), dtype=np.int64)
            a[rows[m]] = v[m]
            got[(c, g)] = a
    out = pd.DataFrame(index=index)
    for g in ("ST", "SC", "OBC"):
        out[f"{g}_W"] = got[("women", g)]
        out[g] = got[("others", g)]
    out["W"] = got[("final", "W")]
    out["UR"] = got[("final", "UR")]
    return out


@dataclass
class UnitSet:
    """The units of a run: ``frame`` (unit_code, unit_name_en, unit_name_hi, district, division, the parent
    column if any, pop, sc, st, [obc], [women], extras), sorted by parent then code; ``resolve`` (a name or
    code -> unit_code, raising KeyError with one line); ``notes``; ``described``: input files as recorded."""

    frame: pd.DataFrame
    resolve: Callable
    notes: list = field(default_factory=list)
    described: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Rulebook:
    id: str
    title: str
    title_hi: str
    unit_kind: str                          # what one row is: "district", "block", "urban body", ...
    parent: str | None                      # the counting unit's column, None for the State
    years: Years
    options: dict[str, Option]
    load_units: Callable                    # (units: path | DataFrame | None, year, opts) -> UnitSet
    counts: Callable                        # (ctx) -> Counts
    groups: dict[str, Group]                # ST, SC, OBC, GEN
    pass_order: Callable                    # (opts) -> sequence of "ST", "SC_W", "SC", ... (a group, or one code)
    clauses: dict[str, str]
    default_history: str = ""               # shipped history (path) or "" (none)
    history_with_units: bool = True         # the shipped history also applies to a user's units file
    units_file: str = "none"                # "none", "optional" (replaces the shipped list), "required"
    accepts_population: bool = True
    parent_table: str = ""                  # "districts" / "divisions": `reservation districts|divisions`
    default_base_year: int = 2015
    obc_note: str = ""                      # the OBC assumption in words ({share}, {base}, {tie_break}, {unit})
    columns: tuple[str, ...] = ()           # extra table columns (before `category`)
    parent_word: str = "State"              # the counting unit in words ("district", "division", "block")
    obc_share: Callable | None = None       # (opts) -> (the assumed State OBC share, as shown)
    label_fields: Callable | None = None    # (opts) -> words for the key labels ({base}, {unit})
    division_population: Callable | None = None   # (ctx, group) -> population the division rule compares
    eligibility: Callable | None = None     # (opts) -> whether the groups' eligibility constraints apply
    parent_for: Callable | None = None      # (opts) -> the parent column when an option changes it
    light_counts: Callable | None = None    # (opts, lang) -> the counts rows from the shipped data, without pandas
    base_year_readings: dict = field(default_factory=dict)   # base year -> what it means for each group
    history_table: Callable | None = None   # (until) -> the shipped history as a table (default_history: its file)
    population_applied: Callable | None = None   # (frame, unit codes) -> frame: a --population replaced them
    record_base_years: dict = field(default_factory=dict)    # held election -> the base year its record supports
    clauses_hi: dict = field(default_factory=dict)           # the clause table in Hindi (the same keys)
    slots: Callable | None = None           # (ctx) -> the slots of ``counts`` alone, without words (the same numbers)

    def base_year_for(self, year: int) -> int:
        """The default base year of an election: the one its published record supports (``record_base_years``,
        from the evidence of option rotation_history), else the law's (``default_base_year``)."""
        return self.record_base_years.get(int(year), self.default_base_year)

    @property
    def needs_units(self) -> bool:
        """A units file is required: the units and their populations are not shipped (gram panchayats, wards)."""
        return self.units_file == "required"

    @property
    def accepts_units(self) -> bool:
        """A units file is required, or may replace the shipped list."""
        return self.units_file != "none"

    @property
    def offered_years(self) -> tuple[int, ...]:
        """The years offered to a reader (notebooks, explorer, report): the elections under the law the rulebook
        implements, then the next one."""
        y = self.years
        return tuple(e for e in y.elections if e >= min(y.law)) + tuple(y.upcoming(1))

    def option_set(self, assignments=()) -> OptionSet:
        return OptionSet.of(self.options, assignments)

    def parent_of(self, opts) -> str | None:
        """The counting unit's column for these options (None: the State)."""
        return self.parent_for(opts) if self.parent_for else self.parent

    def clause(self, key: str, lang: str = "en", **fmt) -> str:
        """A clause citation of the table (``lang="hi"``: of the Hindi table, :attr:`clauses_hi`, falling back to
        the English where it lacks the key); an entry may be a function of ``fmt`` (e.g. of the base year)."""
        table = self.clauses_hi if lang == "hi" and key in self.clauses_hi else self.clauses
        text = table.get(key, "")
        if callable(text):
            return text(**fmt)
        return text.format(**fmt) if fmt and text else text

