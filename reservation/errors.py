"""One error type for bad input: it names the file, row and column (or the command-line flag) in one line.

Bad input gets a one-line error that names the file, the row (as a spreadsheet numbers it: the header is
row 1) and the column, exit status 2, and nothing is written. The command line catches :class:`InputError`,
prints ``str(err)`` to stderr and exits with status 2 before any output file is opened. A value typed on the
command line is named by its flag (``option="--body"``), never as a "column".
"""

from __future__ import annotations

import re


class InputError(ValueError):
    """Bad input.

    ``file`` the file, ``row`` the row as a spreadsheet numbers it (the header is row 1), ``column`` a column
    name, ``option`` the command-line flag (``"--body"``) or parameter that carried the bad value.
    """

    def __init__(self, message: str, *, file: str | None = None, row: int | None = None,
                 column: str | None = None, option: str | None = None):
        self.message = _one_line(" ".join(str(message).split()))  # always one line
        self.file = file
        self.row = row
        self.column = column
        self.option = option            # a command-line flag or a keyword argument, e.g. "--year"
        super().__init__(self.message)

    def __str__(self) -> str:
        where = []
        if self.option is not None and self.file is not None:
            where.append(f"{self.option} {_one_line(self.file)}")
        elif self.option is not None:
            where.append(str(self.option))
        elif self.file is not None:
            where.append(_one_line(self.file))
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {_one_line(self.column)!r}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _one_line(text) -> str:
    """A file name or column as typed may hold a newline or another control character: shown escaped
    (``\\n``), so that the message stays one line."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))


class RuleError(RuntimeError):
    """The rules cannot be applied to these inputs (e.g. fewer eligible units than posts): exit status 3."""


class FlagError(InputError):
    """Bad value of a command-line flag (or of the keyword argument behind it): one line beginning with the
    flag, e.g. ``--electors: 0 electors: there must be at least one elector``."""

    def __init__(self, message: str, *, option: str):
        super().__init__(message, option=option)
        self.flag = option
