"""How the history cites a source row, everywhere: ``FILE row N``, N the row a spreadsheet shows when it opens the
file (the header is row 1), as the bad-input errors name rows (:class:`reservation.base.errors.InputError`)."""

from __future__ import annotations

__all__ = ["cite", "cite_stored"]


def cite(path: str, row) -> str:
    """A source row as the workbench cites it everywhere: ``FILE row N``, N the row a spreadsheet shows when it
    opens the file (the header is row 1), as the bad-input errors name it."""
    return f"{path} row {int(row)}"


def cite_stored(text: str) -> str:
    """A ``source`` cell of the gram pradhan crosswalk's tables (``gp_pradhan_2015.csv.gz#1``, N = the data row,
    1 = the first under the header) as :func:`cite` writes it (``gp_pradhan_2015.csv.gz row 2``)."""
    path, sep, n = str(text).rpartition("#")
    return cite(path, int(n) + 1) if sep and n.isdigit() else str(text)
