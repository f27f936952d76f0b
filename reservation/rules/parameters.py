"""The law's figures and the options' evidence, read from data files apart from the code that applies them.

``rules/params/law.toml`` holds the figures the instruments state (caps, shares, the women's fraction, base
years), each dated by the first general election it applies to; ``rules/params/evidence.toml`` holds each option's
ambiguity id and the evidence for its default. Both ship with the package (pyproject.toml package-data) and are
read once per process.

- :func:`value` ``(name, year)``: the figure ``name`` for the election of ``year`` (a Fraction, or an int for a
  year), exact: the file writes it as a string (``"206982/1000000"``, ``"42.29"``), never a float.
- :func:`written` ``(name, year)``: the same value as the file writes it (an option's default shows it so).
- :func:`evidence` ``(scope, name)``: an option's :class:`Evidence`.
- :func:`calendar` ``(name)``: an election :class:`Calendar` of ``rules/params/elections.toml`` (the elections
  held, each with its source; the elections whose law the package holds), from which a rulebook's
  :class:`~reservation.rules.rulebook.Years` is built.

A missing or malformed parameter is a :class:`ParameterError` naming the file and the parameter (the package is
broken, not the user's input).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

__all__ = ["ParameterError", "Parameter", "Evidence", "Calendar", "value", "written", "parameter", "evidence",
           "record_base_years", "calendar", "PARAMS_DIR"]

PARAMS_DIR = Path(__file__).resolve().parent / "params"
_UNITS = ("fraction", "percent", "year")
_EXACT = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:/[1-9][0-9]*)?")


class ParameterError(LookupError):
    """A parameter of rules/params is missing, has no value for the election asked, or is malformed."""


@dataclass(frozen=True)
class Parameter:
    """One figure of the law: ``values`` is ((first election, value as written), ...) in ascending order."""

    name: str
    description: str
    source: str
    unit: str
    values: tuple[tuple[int, str], ...]

    def written(self, year: int) -> str:
        """The value (as written) of the latest election at or before ``year``."""
        got = [v for y, v in self.values if y <= year]
        if not got:
            raise ParameterError(f"law.toml: {self.name} has no value for the election of {year} (its values "
                                 f"start with {self.values[0][0]})")
        return got[-1]

    def at(self, year: int) -> Fraction | int:
        text = self.written(year)
        return int(text) if self.unit == "year" else Fraction(text)


@dataclass(frozen=True)
class Evidence:
    """Why an option's default: the ambiguity it settles, the election whose record it reads, the evidence."""

    ambiguity: str
    election: int
    text: str


def _load(file: str) -> dict:
    path = PARAMS_DIR / file
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ParameterError(f"{file}: cannot be read ({e})") from None


@lru_cache(maxsize=1)
def _law() -> dict[str, Parameter]:
    out = {}
    for scope, table in _load("law.toml").items():
        for figure, spec in table.items():
            out[f"{scope}.{figure}"] = _parameter(f"{scope}.{figure}", spec)
    return out


def _parameter(name: str, spec) -> Parameter:
    """One table of law.toml, checked: its unit, and every value exact and dated by a year."""
    if not isinstance(spec, dict) or not isinstance(spec.get("values"), dict) or not spec["values"]:
        raise ParameterError(f"law.toml: {name} needs a table 'values' (first election = value)")
    unit = spec.get("unit")
    if unit not in _UNITS:
        raise ParameterError(f"law.toml: {name}: unit {unit!r} is not one of {', '.join(_UNITS)}")
    values = []
    for year, v in spec["values"].items():
        if not re.fullmatch(r"(19|20)[0-9]{2}", year):
            raise ParameterError(f"law.toml: {name}: {year!r} is not an election year")
        ok = isinstance(v, int) and not isinstance(v, bool) if unit == "year" else \
            isinstance(v, str) and _EXACT.fullmatch(v)
        if not ok:
            raise ParameterError(f"law.toml: {name} {year}: {v!r} is not "
                                 + ("a whole year" if unit == "year" else "an exact number written as a string"))
        values.append((int(year), str(v)))
    return Parameter(name, str(spec.get("description", "")), str(spec.get("source", "")), unit,
                     tuple(sorted(values)))


def parameter(name: str) -> Parameter:
    """The figure ``name`` (``"kp_chair.sc_cap"``) with its description, source and dated values."""
    try:
        return _law()[name]
    except KeyError:
        raise ParameterError(f"law.toml has no parameter {name!r}") from None


def value(name: str, year: int) -> Fraction | int:
    """The figure ``name`` for the election of ``year`` (the rules year a rulebook applies): exact."""
    return parameter(name).at(year)


def written(name: str, year: int) -> str:
    """The figure ``name`` for the election of ``year`` as law.toml writes it (``"53.33"``)."""
    return parameter(name).written(year)


@lru_cache(maxsize=1)
def _evidence() -> dict:
    return _load("evidence.toml")


def evidence(scope: str, name: str) -> Evidence:
    """The evidence of option ``name`` as declared by ``scope`` (``"catalogue"``, ``"kp_chair"``, ...)."""
    spec = _evidence().get(scope, {}).get(name)
    if not isinstance(spec, dict):
        raise ParameterError(f"evidence.toml has no option {scope}.{name}")
    amb, election, text = spec.get("ambiguity"), spec.get("election"), spec.get("evidence")
    if not isinstance(amb, str) or not isinstance(text, str) or not text.strip() or not isinstance(election, int):
        raise ParameterError(f"evidence.toml: {scope}.{name} needs ambiguity (text), election (a year) and "
                             f"evidence (text)")
    return Evidence(amb, election, text)


def record_base_years(scope: str, name: str) -> dict[int, int]:
    """The base year the published record supports for each held election (``base_years`` of the evidence of
    option ``scope.name``: ``{ 2015 = 2010 }``, election = its base year, not after it); {} when not given."""
    evidence(scope, name)
    spec = _evidence()[scope][name].get("base_years", {})
    if not isinstance(spec, dict):
        raise ParameterError(f"evidence.toml: {scope}.{name}.base_years needs a table (election = base year)")
    out = {}
    for y, base in spec.items():
        ok = re.fullmatch(r"(19|20)[0-9]{2}", y) and isinstance(base, int) and not isinstance(base, bool)
        if not ok or not 1900 <= base <= int(y):
            raise ParameterError(f"evidence.toml: {scope}.{name}.base_years: {y} = {base!r} is not an election "
                                 f"and a base year not after it")
        out[int(y)] = base
    return out


@dataclass(frozen=True)
class Calendar:
    """One election calendar of elections.toml: ``held`` ((year, source), ...) ascending; ``law`` the held
    elections whose instrument the package holds; ``earlier`` "assume" or "refuse" (a held election before the
    first law year); ``lists`` ((year, body, file under data/), ...): the shipped lists of held elections."""

    name: str
    instrument: str
    held: tuple[tuple[int, str], ...]
    law: tuple[int, ...]
    every: int
    earlier: str
    earlier_rules: str = ""
    earlier_why: str = ""
    lists: tuple[tuple[int, str, str], ...] = ()
    instrument_hi: str = ""


def _text(name: str, spec: dict, key: str) -> str:
    v = spec.get(key)
    if not isinstance(v, str) or not v.strip():
        raise ParameterError(f"elections.toml: {name} needs {key} (text)")
    return v


def _year(name: str, text) -> int:
    if not re.fullmatch(r"(19|20)[0-9]{2}", str(text)):
        raise ParameterError(f"elections.toml: {name}: {text!r} is not an election year")
    return int(text)


def _held(name: str, spec) -> tuple[tuple, tuple]:
    """The held elections of a calendar (year, source) and their shipped lists (year, body, file), checked."""
    if not isinstance(spec, dict) or not spec:
        raise ParameterError(f"elections.toml: {name} needs a table 'held' (year = {{ source = ... }})")
    held, lists = [], []
    for y, entry in spec.items():
        year = _year(name, y)
        if not isinstance(entry, dict):
            raise ParameterError(f"elections.toml: {name}.held.{y} needs a table with source (text)")
        held.append((year, _text(f"{name}.held.{y}", entry, "source")))
        for body, file in (entry.get("lists") or {}).items():
            if not isinstance(file, str) or not file:
                raise ParameterError(f"elections.toml: {name}.held.{y}.lists.{body} needs a file (text)")
            lists.append((year, str(body), file))
    return tuple(sorted(held)), tuple(sorted(lists))


def _calendar(name: str, spec) -> Calendar:
    if not isinstance(spec, dict):
        raise ParameterError(f"elections.toml: {name} needs a table")
    held, lists = _held(name, spec.get("held"))
    law = spec.get("law")
    if not isinstance(law, list) or not law or any(_year(name, y) not in dict(held) for y in law):
        raise ParameterError(f"elections.toml: {name}: law must list held elections (years of 'held')")
    every, earlier = spec.get("every"), spec.get("earlier")
    if not isinstance(every, int) or isinstance(every, bool) or not 1 <= every <= 10:
        raise ParameterError(f"elections.toml: {name}: every must be a term of 1 to 10 years")
    if earlier not in ("assume", "refuse"):
        raise ParameterError(f"elections.toml: {name}: earlier {earlier!r} is not 'assume' or 'refuse'")
    why = (_text(name, spec, "earlier_rules"), _text(name, spec, "earlier_why")) if earlier == "refuse" else ("", "")
    return Calendar(name, _text(name, spec, "instrument"), held, tuple(sorted(int(y) for y in law)), every,
                    earlier, *why, lists, _text(name, spec, "instrument_hi"))


@lru_cache(maxsize=1)
def _calendars() -> dict[str, Calendar]:
    return {name: _calendar(name, spec) for name, spec in _load("elections.toml").items()}


def calendar(name: str) -> Calendar:
    """The election calendar ``name`` (``"panchayat"``, ``"urban"``) of elections.toml."""
    try:
        return _calendars()[name]
    except KeyError:
        raise ParameterError(f"elections.toml has no calendar {name!r}") from None
