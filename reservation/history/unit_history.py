"""One unit's reservation at every election held, and what rotation says about the next one.

:func:`timeline` (``reservation history``) takes a body and a unit named as people name it
(:mod:`reservation.history.places`) and returns a :class:`UnitHistory`:

- ``elections``: every general election of the body's calendar (``rules/params/elections.toml``), with the unit's
  category where a list we hold (or the user's ``history`` file) records it, and the source of the record; a year
  whose list we do not hold, or whose list has no row placed on the unit, is *unknown*, never "not reserved";
- ``verdicts``: for the next election (``year``), under the rulebook's default base year and the alternatives
  (:data:`BASE_YEARS`), per category group (ST, SC, OBC, women): the rotation tier of the law (GO 2021 ZP items 1-3,
  KP items 6-10: 1 never reserved for it since the base year, 2 not at the last election, 3 reserved at the last
  one), computed by the engine's one tier rule (:func:`reservation.engine.steps.tiers` on a
  :class:`reservation.law.rotation.RotationView`). Where a counted election's list is missing the tier is computed
  twice, the missing lists holding nothing and holding the group: equal, the verdict stands; else it is the range
  (``tiers`` = (low, high)), and the words say which list would decide.

Words are rendered by :mod:`reservation.history.unit_render` from :mod:`reservation.law.words`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..base.errors import InputError
from ..engine.steps import tiers as engine_tiers
from ..law.rotation import RotationView, group_codes
from .places import find_unit, resolver, shipped_records, unit_label, _check_body
from .unplaced import UnplacedGP, unplaced_records

__all__ = ["BASE_YEARS", "GROUPS", "Election", "Verdict", "UnitHistory", "timeline", "base_years_of"]

#: The base years the courts and the Government discussed for the panchayats' rotation (besides the rulebook's
#: default): 1995 (the GO of 11 Feb 2021 as issued, rotation counted from the first election under the 1994 Rules;
#: quashed by the High Court on 15 Mar 2021), 2015 (the High Court's order of 15 Mar 2021 and the 12th Amendment
#: Rules 2021 r.2(d)) and 2021 (a fresh start from the last election, as the urban bodies' 2023 Act made for the
#: cities). The urban bodies: their rulebook's readings (Mayors: 2017, 2023) and the 2023 Act's fresh start.
BASE_YEARS = {"panchayat": (1995, 2015, 2021), "urban": (2023,)}
#: The category groups of a verdict, in the order of the passes (GEN: the general women's offices).
GROUPS = ("ST", "SC", "OBC", "GEN")


@dataclass(frozen=True)
class Election:
    """The unit at one general election. ``status``: ``listed`` (a shipped list), ``user`` (the ``history`` file),
    ``not_in_list`` (the list is held but no row of it is placed on the unit: unknown), ``not_placed`` (the list
    ships and is placed on today's units, but no row of it could be placed on this one: unknown; ``source`` names
    its file, ``note`` the reason), ``no_list`` (we hold no
    list of that year: unknown)."""

    year: int
    category: str
    status: str
    source: str = ""
    note: tuple = ()                 # typed parts (reservation.history.places), rendered by unit_render


@dataclass(frozen=True)
class Verdict:
    """The rotation tier of the unit for one group at election ``year`` under ``base_year``: ``tiers`` the tiers
    the missing lists leave possible (one when the lists decide it; (0,) when no election since the base year
    precedes ``year``);
    ``counted`` the elections that count, ``missing`` those whose record is unknown, ``held`` those (of the
    known) where the unit was reserved for the group, ``last`` the last counted election."""

    base_year: int
    group: str
    tiers: tuple[int, ...]
    counted: tuple[int, ...]
    missing: tuple[int, ...]
    held: tuple[int, ...]
    last: int | None

    @property
    def decided(self) -> bool:
        return len(self.tiers) == 1


@dataclass
class UnitHistory:
    """What :func:`timeline` returns (see the module's doc)."""

    body: str
    unit: int
    names: dict
    year: int
    elections: list[Election]
    verdicts: list[Verdict]
    base_years: list[int]
    default_base_year: int
    clauses: dict = field(default_factory=dict)
    readings: dict = field(default_factory=dict)
    shipped_years: list[int] = field(default_factory=list)
    user_files: list[str] = field(default_factory=list)
    unplaced: str = ""          # a gram panchayat the lists print but LGD does not hold (unit 0): the reason

    def verdict(self, base_year: int, group: str) -> Verdict:
        return next(v for v in self.verdicts if v.base_year == base_year and v.group == group)

    def history_frame(self) -> pd.DataFrame:
        """The known records as a rotation history (``unit_code, year, category``)."""
        known = [e for e in self.elections if e.category]
        return pd.DataFrame({"unit_code": np.full(len(known), self.unit, dtype=np.int64),
                             "year": np.asarray([e.year for e in known], dtype=np.int64),
                             "category": [e.category for e in known]})


def base_years_of(rb, extra: int | None = None) -> list[int]:
    """The rulebook's default base year first, then the alternatives (:data:`BASE_YEARS`, the rulebook's own
    readings) and ``extra``; a default of 0 (every election counts) is the first election held."""
    first = min(rb.years.elections)
    default = rb.default_base_year or first
    cal = "urban" if first >= 2006 and 2023 in rb.years.law else "panchayat"
    out = [default] + sorted(set(BASE_YEARS[cal]) | set(rb.base_year_readings) | ({extra} if extra else set()))
    return list(dict.fromkeys(out))


def _tier(history: pd.DataFrame, unit: int, year: int, base: int, mode: str, codes: frozenset) -> int:
    """The engine's tier of one unit (the one tier rule: engine.steps.tiers on a RotationView)."""
    view = RotationView(history, year, base, mode)
    view.bind(np.array([unit], dtype=np.int64))
    return int(engine_tiers(view, codes)[0])


def _verdict(elections: list[Election], unit: int, year: int, base: int, group: str, mode: str,
             women_history: str) -> Verdict:
    """The tiers the engine gives under every way the missing lists could have gone (each missing election
    holding the group or not: at most 2**6 small runs of the one tier rule)."""
    from itertools import product
    codes = group_codes(group, women_history)
    counted = [e for e in elections if base <= e.year < year]
    if not counted:
        return Verdict(base, group, (0,), (), (), (), None)
    known = [(e.year, e.category) for e in counted if e.category]
    missing = [e.year for e in counted if not e.category]
    fill = "W" if group == "GEN" else group
    possible = set()
    for held in product((False, True), repeat=len(missing)):
        # a missing list holds the group or nothing ("?": no category, the election still counts as held)
        rows = known + [(m, fill if h else "?") for m, h in zip(missing, held)]
        frame = pd.DataFrame([(unit, y, c) for y, c in rows], columns=["unit_code", "year", "category"])
        possible.add(_tier(frame, unit, year, base, mode, codes))
    return Verdict(base, group, tuple(sorted(possible)), tuple(e.year for e in counted), tuple(missing),
                   tuple(y for y, c in known if c in codes), counted[-1].year)


def _user_records(paths, body: str, unit: int, year: int) -> tuple[pd.DataFrame, list[str]]:
    from ..inputs.user_files import load_history
    h = load_history([str(p) for p in paths], resolver(body, year), election_year=year)
    h = h[h["unit_code"] == unit]
    return h, [str(p) for p in paths]


def _elections(rb, shipped: pd.DataFrame, user: pd.DataFrame | None) -> list[Election]:
    listed = set(shipped.attrs.get("years", []))
    unplaced = shipped.attrs.get("unplaced", {})
    by_year = {int(r.year): r for r in shipped.itertuples(index=False) if r.category}
    mine = {} if user is None else {int(r["year"]): r for r in user.to_dict("records")}
    out = []
    for y in rb.years.elections:
        if y in mine:
            r = mine[y]
            replaced = ((("replaces", (("source", by_year[y].source), ("category", by_year[y].category))),)
                        if y in by_year else ())
            out.append(Election(y, r["category"], "user", f"{r['_file']} row {r['_row']} (--history)", replaced))
        elif y in by_year:
            r = by_year[y]
            out.append(Election(y, r.category, "listed", r.source, r.note))
        else:
            status = "not_placed" if y in unplaced else "not_in_list" if y in listed else "no_list"
            source, note = unplaced.get(y, ("", ()))
            out.append(Election(y, "", status, source, note))
    return out


def _rotation_clause(rb, base: int, lang: str = "en") -> str:
    """The clause that makes an election a previous one under ``base``, in ``lang``: the rulebook's; for the
    panchayat bodies whose clause names only the 12th Amendment Rules, the Zila Panchayat rulebook's (which also
    cites the GO of 11 Feb 2021 for 1995)."""
    if rb.years.elections[0] < 2000 and not callable(rb.clauses.get("rotation")):
        from ..rules.zp_chair import rotation_clause, rotation_clause_hi
        return (rotation_clause_hi if lang == "hi" else rotation_clause)(base)
    return rb.clause("rotation", lang, base_year=base)


def timeline(body: str, unit, *, year: int | None = None, base_year: int | None = None,
             history=None, lang: str = "en") -> UnitHistory:
    """The history of ``unit`` (a name as people write it, in English or Hindi, or an LGD code) of ``body`` and
    the rotation verdicts for the election ``year`` (default: the next one). ``base_year``: one more base year
    to compare; ``history``: the user's own list files (``unit, year, category``, the reader of ``allot
    --history``), e.g. the 2021 gram pradhan list of a block; their records of the unit replace the shipped
    ones of the same year and fill the years we hold no list for. ``lang``: the language of the unit's names."""
    from ..law.words import check_lang
    from ..rules.registry import get_rulebook
    check_lang(lang)
    _check_body(body)
    rb = get_rulebook(body)
    held = rb.years.elections
    year = rb.years.upcoming(1)[0] if year is None else int(year)
    if not (year in held or rb.years.is_next(year)) or year <= min(held):
        raise InputError(f"{body}: {year} is not an election year after the first one ({min(held)}): elections "
                         f"held: {', '.join(map(str, held))}; any year from {max(held) + 1} is the next election",
                         option="--year")
    if base_year is not None and int(base_year) > year:
        raise InputError(f"{base_year} is after the election year {year}", option="--base-year")
    code = find_unit(body, unit, year)
    unplaced = ""
    if isinstance(code, UnplacedGP):              # a gram panchayat of the lists that LGD does not hold
        if history:
            raise InputError(f"{code.name} is a gram panchayat of the lists that LGD does not hold ({code.reason}); "
                             "a --history file names LGD gram panchayats", option="--history")
        label, unplaced = unit_label(body, code, year, lang), code.reason
        shipped, code = unplaced_records(code), 0
        shipped.attrs["years"] = shipped_records(body, -1).attrs["years"]
    else:
        label = unit_label(body, code, year, lang)
        shipped = shipped_records(body, code)
    user, files = (None, []) if not history else _user_records(history, body, code, year)
    elections = _elections(rb, shipped, user)
    opts = rb.option_set().values
    mode, wh = opts.get("rotation_history", "since_base"), opts.get("women_history", "general_only")
    bases = base_years_of(rb, base_year)
    verdicts = [_verdict(elections, code, year, b, g, mode, wh) for b in bases for g in GROUPS]
    clauses = {b: _rotation_clause(rb, b, lang) for b in bases}
    clauses.update({g: rb.clause(g, lang) for g in GROUPS})
    return UnitHistory(body, code, label, year, elections, verdicts, bases, bases[0], clauses,
                       dict(rb.base_year_readings), shipped.attrs.get("years", []), files, unplaced)


def verdicts_at(h: UnitHistory, year: int) -> list[Verdict]:
    """The verdicts the same rule gives at an earlier election ``year`` of the history (for the CSV rows)."""
    from ..rules.registry import get_rulebook
    opts = get_rulebook(h.body).option_set().values
    mode, wh = opts.get("rotation_history", "since_base"), opts.get("women_history", "general_only")
    return [_verdict(h.elections, h.unit, year, b, g, mode, wh) for b in h.base_years for g in GROUPS]
