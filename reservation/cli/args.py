"""The argument types every sub-command of ``reservation`` uses (``--year``, ``--base-year``, names typed on the
command line). A module of their own below :mod:`reservation.cli.commands` and its sub-command modules, which all read it
(they used to import them from cli.py, which imports them back: an import cycle)."""

from __future__ import annotations

import argparse

__all__ = ["YEARS", "year_type", "text_type", "samples_type", "add_samples_seed"]


#: Election years the command line accepts (reservation.inputs.limits.LIMITS["year"], the same bounds as
#: reservation.inputs.units.INT_KINDS["year"]).
YEARS = (1950, 2100)


def year_type(text: str) -> int:
    """An election (or base) year typed on the command line: 4 digits (Devanagari and full-width digits read as
    ASCII), 1950-2100. Every sub-command's ``--year`` and ``--base-year`` use this type."""
    from ..base.errors import excerpt
    from ..inputs.options import ascii_digits                # light: a year is read without importing pandas
    lo, hi = YEARS
    s = ascii_digits(str(text)).strip()
    if not (s.isascii() and s.isdigit() and len(s) == 4 and lo <= int(s) <= hi):
        raise argparse.ArgumentTypeError(f"{excerpt(text, 20)} is not a year from {lo} to {hi}")
    return int(s)


def text_type(text: str) -> str:
    """A name typed on the command line (``--unit``, ``--district``, ``--division``): refused when empty, longer
    than reservation.inputs.limits.MAX_TEXT or holding a control character (never cleaned silently)."""
    from ..inputs.limits import argtype
    return argtype("text")(text)


def samples_type(text: str) -> int:
    """``--samples`` of allot, explain and report: the projection's samples for the probabilities of an election
    not yet held, 0 (no probabilities) or a count within its bound (reservation.inputs.limits)."""
    from ..inputs.limits import argtype
    return 0 if str(text).strip() == "0" else argtype("count", "samples")(text)


def add_samples_seed(sp, samples_help: str, seed_help: str) -> None:
    """``--samples`` and ``--seed`` of the commands that draw the projection's samples (project, design): counts
    within their bounds (reservation.inputs.limits), default 1000 samples and seed 0; the help is the command's."""
    from ..inputs.limits import argtype
    sp.add_argument("--samples", type=argtype("count", "samples"), default=1000, help=samples_help)
    sp.add_argument("--seed", type=argtype("count", "seed"), default=0, help=seed_help)
