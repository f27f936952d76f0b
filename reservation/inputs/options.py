"""Named switches for the law's ambiguities (docs/panchayat.md): one option per open reading.

Every option has a stable name, the ambiguity it settles (``A2`` ... ``A14``), its choices, a default, the
reading each choice implements and the evidence for the default. ``reservation allot --option NAME=VALUE``
sets them; an unknown name or value is an error (exit 2). Results record the full set used.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from ..base.errors import InputError
from .nearest import did_you_mean
from .text import ascii_digits

__all__ = ["Option", "OptionSet", "parse_assignments", "ascii_digits"]


@dataclass(frozen=True)
class Option:
    name: str
    ambiguity: str                      # e.g. "A3"; "" when the text is clear and only a parameter is set
    default: str
    readings: dict[str, str]            # choice -> the reading it implements; {} for a free value
    evidence: str                       # why the default
    kind: str = "choice"                # "choice", "decimal" (a percentage as a decimal string) or "path"

    def check(self, value: str) -> str:
        """The value as stored (digits in ASCII), or an InputError whose ``column`` is the option's name (the
        command line names it ``--option NAME``).

        A decimal is parsed with a bounded grammar before any arithmetic: at most :data:`MAX_DECIMAL`
        characters of digits with at most one point, no exponent, sign or spaces inside (``1e-999999`` is refused
        at once instead of building a Fraction of a million digits), and between 0 and 100. Devanagari and
        full-width digits are read as ASCII digits."""
        value = typed = str(value).strip()
        if self.kind == "choice":
            if value not in self.readings:
                raise InputError(f"{_shown(value)} is not one of {', '.join(self.readings)}"
                                 f"{did_you_mean(value, self.readings)}", column=self.name,
                                 value=typed)
        elif self.kind in ("decimal", "decimal_or_empty"):
            if value == "" and self.kind == "decimal_or_empty":
                return value
            value = _ascii_digits(value)
            if len(value) > MAX_DECIMAL or not _DECIMAL.fullmatch(value):
                raise InputError(f"{_shown(value)} is not a plain decimal number (digits with at most one point, "
                                 f"at most {MAX_DECIMAL} characters, no exponent), e.g. 53.33", column=self.name,
                                 value=typed)
            if not 0 <= Fraction(value) <= 100:
                raise InputError(f"{value} is not a percentage between 0 and 100", column=self.name, value=typed)
        elif self.kind == "path":
            if value:
                from .units import read_input_bytes
                try:
                    data = read_input_bytes(value, what=self.name)  # a readable regular file, or a refusal
                    if not data.lstrip(b"\xef\xbb\xbf").strip():    # every command refuses it, not only allot
                        raise InputError(f"{self.name} file is empty: the header row (column names) is missing",
                                         file=value, row=1)
                except InputError as e:
                    e.option = f"--option {self.name}"
                    raise
        return value


#: The longest decimal an option accepts ("100.000000" is 10 characters).
MAX_DECIMAL = 10
_DECIMAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


_ascii_digits = ascii_digits


def _shown(value: str) -> str:
    """A typed value in a message: quoted, cut when long, non-printables escaped (errors.excerpt)."""
    from ..base.errors import excerpt
    return excerpt(value)


class Frozen(Mapping):
    """A read-only mapping that pickles (a run's options travel to the report's worker processes)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping):
        object.__setattr__(self, "_items", dict(items))

    def __setattr__(self, name, value):
        raise AttributeError("a frozen mapping cannot be changed")

    def __reduce__(self):
        return (Frozen, (self._items,))

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Frozen({self._items!r})"


@dataclass(frozen=True)
class OptionSet:
    """The options of one body with the values chosen for a run: parsed once (:meth:`of`), then frozen. Every
    default is the one its :class:`Option` declares (nothing else supplies one); a changed reading is a new set
    (:meth:`replaced`)."""

    options: Mapping[str, Option]
    values: Mapping[str, str]

    @classmethod
    def of(cls, options: Mapping[str, Option], assignments=()) -> "OptionSet":
        """The declared ``options`` with ``assignments`` ([(name, value), ...]) checked and applied."""
        values = {name: opt.default for name, opt in options.items()}
        for name, value in assignments:
            if name not in options:
                near = did_you_mean(name, sorted(options))
                raise InputError(f"unknown option {_shown(name)}" + (near or f"; known options: "
                                                                      f"{', '.join(sorted(options))}"),
                                 option="--option")
            values[name] = options[name].check(value)
        return cls(Frozen(options), Frozen(values))

    def replaced(self, **values: str) -> "OptionSet":
        """The same set with some values replaced (each checked as a user's would be)."""
        return OptionSet.of(self.options, list({**self.values, **values}.items()))

    def __getitem__(self, name: str) -> str:
        return self.values[name]

    def fraction(self, name: str) -> Fraction:
        return Fraction(self.values[name])

    def record(self) -> dict:
        """What a result stores: every option's value, whether it is the default, and its ambiguity."""
        return {n: {"value": self.values[n], "default": o.default, "ambiguity": o.ambiguity,
                    "reading": o.readings.get(self.values[n], "")}
                for n, o in self.options.items()}

    def describe(self) -> list[dict]:
        """One row per option for help texts and the README."""
        return [{"option": o.name, "ambiguity": o.ambiguity, "default": o.default,
                 "choices": " | ".join(o.readings) if o.readings else o.kind,
                 "reading_of_default": o.readings.get(o.default, ""), "evidence": o.evidence}
                for o in self.options.values()]


def parse_assignments(items) -> list[tuple[str, str]]:
    """``["a=b", ...]`` -> ``[("a", "b"), ...]``; a malformed item is an InputError."""
    out = []
    for item in items or ():
        if "=" not in item:
            raise InputError(f"{_shown(item)} is not NAME=VALUE", option="--option")
        name, value = item.split("=", 1)
        out.append((name.strip(), value.strip()))
    return out
