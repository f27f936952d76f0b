"""The bounds of every count, year and size a user gives: one table, read by the command line, the readers and
the notebooks' parameter checks (:func:`reservation.views.check_notebook`).

A value outside its bound is refused at once, before any work, in one line that names the option (or the
notebook parameter) and the bound; exit status 2. The bounds are far above any real use (the largest body, the
gram panchayat wards, has about 750,000 units; a projection of 1,000 samples is the default) and exist so that a
typing slip (``--samples 1000000000000``) is refused instead of running for days. README "Limits" lists them.

Light on purpose (no numpy, no pandas): the command line reads it while it parses its arguments.
"""

from __future__ import annotations

import math

from ..base.errors import InputError, excerpt

__all__ = ["LIMITS", "MAX_INPUT_BYTES", "MAX_INPUT_ROWS", "MAX_SWEEPS", "MAX_TEXT", "MAX_PATH", "check_count", "check_year",
           "check_decimal", "check_text", "check_sweeps", "argtype", "limits_table"]

#: name -> (smallest, largest, what it counts). The command-line flag is ``--`` + the name with ``-`` for ``_``;
#: a notebook parameter has the name itself.
LIMITS: dict[str, tuple[int, int, str]] = {
    "year": (1950, 2100, "election year"),
    "base_year": (1950, 2100, "base year: the first previous election that counts"),
    "samples": (1, 100_000, "sampled OBC populations of a projection"),
    "projection_samples": (1, 100_000, "sampled OBC populations of the report's projection page"),
    "burn_in": (0, 100_000, "Gibbs sweeps before the first sample"),
    "thin": (1, 1_000, "Gibbs sweeps between samples"),
    "check_every": (1, 100_000, "samples between two engine checks of the past lists"),
    "seed": (0, 2**63 - 1, "seed of the random generator"),
    "workers": (1, 64, "parallel report processes"),
    "jobs": (1, 64, "processes that run the engine on a projection's samples"),
    "timeout": (1, 86_400, "seconds a report notebook cell may run"),
    "ballots": (0, 100_000, "ballots of a DPC count (rows of --ballots)"),
    "candidates": (0, 1_000, "candidates of a DPC count (columns of --ballots, rows of --candidates)"),
}

#: The most Gibbs sweeps a projection may ask for in all: burn_in + samples * thin.
MAX_SWEEPS = 1_000_000
#: The largest input file read (bytes): refused from its size, before it is read. (The shipped tables are well
#: under 1 MB; the State's 750,000 gram panchayat wards take about 60 MB.)
MAX_INPUT_BYTES = 256 * 2**20
#: The most rows an input file may have (lines, counted on the bytes before parsing).
MAX_INPUT_ROWS = 2_000_000
#: The longest text typed on the command line or in a notebook parameter (a name, a division, a body id), and
#: the longest file path a notebook parameter may hold.
MAX_TEXT, MAX_PATH = 200, 4096
#: obc_sd, in percentage points: from MIN_OBC_SD (a spread that squares to zero, or nearly, means nothing) to
#: MAX_OBC_SD (the prior itself then refuses a spread too wide for a unimodal Beta).
MIN_OBC_SD, MAX_OBC_SD = 0.01, 50


def _flag(name: str, option: str | None) -> str:
    return option if option is not None else "--" + name.replace("_", "-")


def check_count(name: str, value, *, option: str | None = None) -> int:
    """``value`` as an int within ``LIMITS[name]``, or an InputError naming ``option`` (default ``--name``) and
    the bound. A bool, a float, NaN or text that is not plain digits is refused."""
    lo, hi, what = LIMITS[name]
    flag = _flag(name, option)
    if name in ("year", "base_year"):               # 1950 to 2100, not 1,950 to 2,100
        lo, hi = _Plain(lo), _Plain(hi)
    if isinstance(value, str):
        from .text import ascii_digits
        s = ascii_digits(value).strip()
        if not (s.isascii() and (s.isdigit() or (s[:1] == "-" and s[1:].isdigit()))):
            raise InputError(f"{excerpt(value)} is not a whole number ({what}: {lo:,} to {hi:,})", option=flag)
        if len(s) > 20:                                 # int() of a million digits is itself slow
            raise InputError(f"a number of {len(s):,} digits is outside {lo:,} to {hi:,} ({what})", option=flag)
        value = int(s)
    if isinstance(value, bool) or not _is_int(value):
        raise InputError(f"{excerpt(value)} is not a whole number ({what}: {lo:,} to {hi:,})", option=flag)
    value = int(value)
    if not lo <= value <= hi:
        shown = value if isinstance(lo, _Plain) and abs(value) < 10**6 else f"{value:,}"
        raise InputError(f"{shown} is outside {lo:,} to {hi:,} ({what})", option=flag)
    return value


class _Plain(int):
    """An int that a ``:,`` format prints without thousands separators (a year)."""

    def __format__(self, spec):
        return str(int(self))


def _is_int(v) -> bool:
    try:
        import numpy as np
        return isinstance(v, (int, np.integer))
    except ImportError:                                   # pragma: no cover
        return isinstance(v, int)


def check_year(value, *, name: str = "year", option: str | None = None) -> int:
    """An election (or base) year, 1950-2100: :func:`check_count` with the year's bound."""
    return check_count(name, value, option=option)


def check_sweeps(samples: int, burn_in: int, thin: int, *, option: str = "--samples") -> None:
    """burn_in + samples * thin at most :data:`MAX_SWEEPS`."""
    total = int(burn_in) + int(samples) * int(thin)
    if total > MAX_SWEEPS:
        raise InputError(f"{samples:,} samples x {thin:,} (--thin) + {burn_in:,} (--burn-in) = {total:,} Gibbs "
                         f"sweeps: at most {MAX_SWEEPS:,}", option=option)


def check_decimal(name: str, value, *, low: float, high: float, option: str | None = None,
                  low_open: bool = True) -> str:
    """A finite plain decimal (text or number) with ``low < value <= high`` (``low <= value`` when not
    ``low_open``), returned as its text; NaN, inf, '1e309', an exponent or an empty value are refused."""
    import re
    flag = _flag(name, option)
    if isinstance(value, bool):
        raise InputError(f"{value!r} is not a decimal number", option=flag)
    if isinstance(value, (int, float)) or _is_int(value):
        if isinstance(value, float) and not math.isfinite(value):
            raise InputError(f"{value!r} is not a finite decimal number", option=flag)
        text = repr(value) if isinstance(value, float) else str(int(value))
    else:
        text = str(value).strip()
    from .text import ascii_digits
    text = ascii_digits(text)
    if len(text) > 20 or not re.fullmatch(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", text):
        raise InputError(f"{excerpt(value)} is not a finite decimal number (e.g. 7.5)", option=flag)
    from fractions import Fraction
    x = Fraction(text)
    if x > high or x < low or (low_open and x == low):
        side = "above" if low_open else "at least"
        raise InputError(f"{text} is not {side} {low:g} and at most {high:g}", option=flag)
    return text


def check_text(value, *, option: str, empty_ok: bool = False, longest: int | None = None) -> str:
    """A name, id or division typed by a user: text, not empty (unless ``empty_ok``), at most ``longest``
    (default :data:`MAX_TEXT`) characters, without control characters (refused, never cleaned)."""
    from ..base.errors import control_character
    if not isinstance(value, str):
        raise InputError(f"{excerpt(value)} is not text", option=option)
    if not value.strip() and not empty_ok:
        raise InputError("empty value: a name is needed", option=option)
    bad = control_character(value)
    if bad is not None:
        raise InputError(f"{excerpt(value)} holds the control character U+{ord(bad):04X}: a name is one line of "
                         "visible text", option=option)
    most = MAX_TEXT if longest is None else longest
    if len(value) > most:
        raise InputError(f"{excerpt(value)} is {len(value):,} characters long (at most {most:,})", option=option)
    return value


def argtype(kind: str, name: str | None = None):
    """An argparse ``type=``: ``"count"`` (the bound of ``LIMITS[name]``), ``"year"``, ``"text"``. The error is
    argparse's own one line, ``argument --samples: ...``, exit status 2."""
    import argparse

    def parse(text: str):
        try:
            if kind == "text":
                return check_text(text, option="")
            return check_count(name or kind, text, option="")
        except InputError as e:
            raise argparse.ArgumentTypeError(e.message) from None
    parse.__name__ = name or kind                 # argparse names the type in "invalid <name> value"
    return parse


def limits_table() -> list[dict]:
    """The bounds as rows (name, flag, lowest, highest, what) for the README and the help texts."""
    rows = [{"name": n, "flag": _flag(n, None), "lowest": lo, "highest": hi, "what": w}
            for n, (lo, hi, w) in LIMITS.items()]
    rows += [{"name": "sweeps", "flag": "--samples x --thin + --burn-in", "lowest": 0, "highest": MAX_SWEEPS,
              "what": "Gibbs sweeps of a projection in all"},
             {"name": "obc_sd", "flag": "--obc-sd", "lowest": MIN_OBC_SD,
              "highest": MAX_OBC_SD, "what": "spread of the OBC prior in percentage points"},
             {"name": "input_bytes", "flag": "every input file", "lowest": 0, "highest": MAX_INPUT_BYTES,
              "what": "bytes of an input file, refused before it is read"},
             {"name": "input_rows", "flag": "every input file", "lowest": 0, "highest": MAX_INPUT_ROWS,
              "what": "lines of an input file"},
             {"name": "text", "flag": "--unit, --district, --division, --body", "lowest": 1, "highest": MAX_TEXT,
              "what": "characters of a typed name"}]
    return rows
