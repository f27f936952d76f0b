"""One error type for bad input: it names the file, row and column (or the command-line flag) in one line.

Bad input gets a one-line error that names the file, the row (as a spreadsheet numbers it: the header is
row 1) and the column, exit status 2, and nothing is written. The command line catches :class:`InputError`,
prints ``str(err)`` to stderr and exits with status 2 before any output file is opened. A value typed on the
command line is named by its flag (``option="--body"``), never as a "column".
"""

from __future__ import annotations

import re

#: The longest excerpt of a user's text an error quotes (then "…"), and the longest message in all.
EXCERPT = 60
MAX_MESSAGE = 600


def excerpt(value, limit: int = EXCERPT) -> str:
    """A user's value as an error quotes it: ``repr``-quoted, at most ``limit`` characters of it (then ``…``),
    control and other non-printable characters escaped (``\\x07``). Every user-supplied text in a message goes
    through here (or through :func:`bounded`, which every message passes)."""
    if not isinstance(value, str):                 # a number, None: as repr shows it, cut when long
        text = _one_line(repr(value))
        return text if len(text) <= limit else text[:limit] + "…"
    return repr(value[:limit]) + ("…" if len(value) > limit else "")


def control_character(text) -> str | None:
    """The first control (C0, C1, line or paragraph separator) or bidirectional-override character of
    ``text``, or None."""
    m = _CONTROL_ANY.search(str(text))
    return m.group() if m else None


#: A run of characters without a space longer than this (a name, a path) is cut by :func:`bounded`.
LONG_WORD = 300
_LONG_WORD = re.compile(r"\S{%d,}" % (LONG_WORD + 1))


def bounded(text, limit: int = MAX_MESSAGE) -> str:
    """A message made safe to print: one line, control characters escaped, every run of more than
    :data:`LONG_WORD` characters without a space cut to EXCERPT characters and ``…``, at most ``limit``
    characters in all. The last line of defence: messages quote :func:`excerpt` in the first place."""
    s = _one_line(" ".join(str(text).split()))
    s = _LONG_WORD.sub(lambda m: m.group()[:EXCERPT] + "…", s)
    if len(s) > limit:
        s = s[:limit - 1] + "…"
    return s


class InputError(ValueError):
    """Bad input.

    ``file`` the file, ``row`` the row as a spreadsheet numbers it (the header is row 1), ``column`` a column
    name, ``option`` the command-line flag (``"--body"``) or parameter that carried the bad value, ``value`` the
    value refused as it was typed (not shown: it lets the command line name the flag that carried it).
    """

    def __init__(self, message: str, *, file: str | None = None, row: int | None = None,
                 column: str | None = None, option: str | None = None, value: str | None = None):
        self.message = bounded(message)             # always one line, bounded, printable
        self.file = file
        self.row = row
        self.column = column
        self.option = option            # a command-line flag or a keyword argument, e.g. "--year"
        self.value = value
        super().__init__(self.message)

    def __str__(self) -> str:
        where = []
        if self.option is not None and self.file is not None:
            where.append(f"{self.option} {bounded(self.file, LONG_WORD)}")
        elif self.option is not None:
            where.append(str(self.option))
        elif self.file is not None:
            where.append(bounded(self.file, LONG_WORD))
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {bounded(self.column, 100)!r}")
        prefix = ", ".join(where)
        return bounded(f"{prefix}: {self.message}" if prefix else self.message, MAX_MESSAGE + 300)


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_ANY = _CONTROL


def _one_line(text) -> str:
    """A file name or column as typed may hold a newline or another control character: shown escaped
    (``\\n``), so that the message stays one line."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))


class NotebookParameterError(InputError):
    """A notebook's parameter refused (:func:`reservation.views.check_notebook`): ``str`` is one line, ``NAME:
    message``, naming the parameter as its ``parameters`` cell does (``division``, not a column or a flag).

    In IPython (Jupyter, papermill) its traceback is that one line (``_render_traceback_``, the hook IPython
    asks of an exception before it formats one), so the output of a failed ``papermill`` run, and the log of a
    scheduler that runs it, ends with ``NotebookParameterError: division: unknown division 'Varansi'; did you
    mean 'Varanasi'?`` instead of forty lines of the package's frames."""

    def __init__(self, message: str, *, parameter: str):
        super().__init__(message, option=parameter)
        self.parameter = parameter

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self}"]


class RuleError(RuntimeError):
    """The rules cannot be applied to these inputs (e.g. fewer eligible units than posts): exit status 3."""


class FlagError(InputError):
    """Bad value of a command-line flag (or of the keyword argument behind it): one line beginning with the
    flag, e.g. ``--electors: 0 electors: there must be at least one elector``."""

    def __init__(self, message: str, *, option: str):
        super().__init__(message, option=option)
        self.flag = option
