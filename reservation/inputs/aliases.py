"""The shipped table of other district names (``data/district_aliases.csv``: former names, spelling variants, each
row citing where the name is met), read once per version of the file for :mod:`reservation.inputs.names`."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Sequence

__all__ = ["load_aliases"]


def load_aliases(path=None, codes: Sequence[int] | None = None) -> list[tuple[str, int]]:
    """The rows of ``data/district_aliases.csv`` (``alias, district_lgd_code, kind, source``) as (alias, code)
    pairs, keeping only codes in ``codes`` when given (a toy state has its own codes)."""
    from .units import DATA_DIR
    path = Path(path) if path else DATA_DIR / "district_aliases.csv"
    if not path.is_file():
        return []
    st = path.stat()
    rows = _alias_rows(str(path), st.st_mtime_ns, st.st_size)
    known = None if codes is None else {int(c) for c in codes}
    return [(a, c) for a, c in rows if known is None or c in known]


@lru_cache(maxsize=8)
def _alias_rows(path: str, _mtime_ns: int, _size: int) -> tuple[tuple[str, int], ...]:
    """The (alias, code) pairs of an alias table, read once per version of the file."""
    from .units import int_column, read_csv
    al = read_csv(path, ["alias", "district_lgd_code"], what="alias table")
    return tuple((a, int(c)) for a, c in zip(al["alias"], int_column(al, "district_lgd_code", path)))
