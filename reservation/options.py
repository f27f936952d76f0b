"""Named switches for the law's ambiguities (RULES.md §8): one option per open reading.

Every option has a stable name, the ambiguity it settles (``A2`` ... ``A14``), its choices, a default, the
reading each choice implements and the evidence for the default. ``reservation allot --option NAME=VALUE``
sets them; an unknown name or value is an error (exit 2). Results record the full set used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from .errors import InputError

__all__ = ["Option", "OptionSet", "parse_assignments"]


@dataclass(frozen=True)
class Option:
    name: str
    ambiguity: str                      # e.g. "A3"; "" when the text is clear and only a parameter is set
    default: str
    readings: dict[str, str]            # choice -> the reading it implements; {} for a free value
    evidence: str                       # why the default
    kind: str = "choice"                # "choice", "decimal" (a percentage as a decimal string) or "path"

    def check(self, value: str) -> str:
        value = str(value).strip()
        if self.kind == "choice":
            if value not in self.readings:
                raise InputError(f"option {self.name}: {value!r} is not one of "
                                 f"{', '.join(self.readings)}", column=self.name)
        elif self.kind in ("decimal", "decimal_or_empty"):
            if value == "" and self.kind == "decimal_or_empty":
                return value
            try:
                f = Fraction(value)
            except (ValueError, ZeroDivisionError):
                raise InputError(f"option {self.name}: {value!r} is not a decimal number",
                                 column=self.name) from None
            if not 0 <= f <= 100:
                raise InputError(f"option {self.name}: {value} is not a percentage between 0 and 100",
                                 column=self.name)
        elif self.kind == "path":
            if value and not Path(value).is_file():
                raise InputError(f"option {self.name}: file not found", file=value, column=self.name)
        return value


@dataclass
class OptionSet:
    """The options of one body, with the values chosen for a run."""

    options: dict[str, Option]
    values: dict[str, str] = field(default_factory=dict)

    def __post_init__(self):
        for name, opt in self.options.items():
            self.values.setdefault(name, opt.default)

    def set(self, name: str, value: str) -> None:
        if name not in self.options:
            raise InputError(f"unknown option {name!r}; known options: {', '.join(sorted(self.options))}")
        self.values[name] = self.options[name].check(value)

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
            raise InputError(f"--option {item!r} is not NAME=VALUE")
        name, value = item.split("=", 1)
        out.append((name.strip(), value.strip()))
    return out
