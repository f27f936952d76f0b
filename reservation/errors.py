"""One error type for bad input: it names the file, row and column in one line.

DEVELOPERS.md: "Bad input gets a one-line error that names the file, row and column, exit status 2,
and nothing is written." The command line catches :class:`InputError`, prints ``str(err)`` to stderr
and exits with status 2 before any output file is opened.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input. ``row`` is the row as a spreadsheet numbers it (the header is row 1); ``column`` a name."""

    def __init__(self, message: str, *, file: str | None = None, row: int | None = None,
                 column: str | None = None, option: str | None = None):
        self.message = " ".join(str(message).split())  # always one line
        self.file = file
        self.row = row
        self.column = column
        self.option = option            # a command-line flag or a keyword argument, e.g. "--year"
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.file is not None:
            where.append(str(self.file))
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {self.column!r}")
        if self.option is not None:
            where.append(self.option)
        prefix = ", ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message


class RuleError(RuntimeError):
    """The rules cannot be applied to these inputs (e.g. fewer eligible units than posts): exit status 3."""


class FlagError(InputError):
    """Bad value of a command-line flag (or of the keyword argument behind it): one line beginning with the
    flag, e.g. ``--electors: 0 electors: there must be at least one elector``."""

    def __init__(self, message: str, *, option: str):
        super().__init__(message, option=option)
        self.flag = option
