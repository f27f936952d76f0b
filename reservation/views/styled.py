"""Styled tables whose bytes depend only on what they show (issue 18, "Pages that differ run to run").

A plain pandas ``Styler`` puts two things into an executed notebook and its HTML page that change from run to run
with the same inputs:

- its ``uuid``: every element id and CSS selector of the table is ``T_<uuid>_...``, and pandas draws the uuid at
  random (``uuid4``) when the Styler is made;
- its text form (``text/plain``, written beside the HTML of every displayed table): ``object.__repr__``,
  ``<pandas.io.formats.style.Styler at 0x7f...>``, a memory address.

:class:`StyledTable` is a Styler with a uuid derived from the table's content and from how it is styled
(:func:`content_uuid`), and a text form that says what the table holds. Two tables with the same content and the
same styling get the same uuid; their CSS is then the same too, so neither restyles the other.
"""

from __future__ import annotations

import hashlib

import pandas as pd
from pandas.io.formats.style import Styler

__all__ = ["StyledTable", "content_uuid", "styled"]

#: Hexadecimal digits of the uuid (pandas draws 5 at random; 12 from a hash keep tables apart on a page).
UUID_LEN = 12


def content_uuid(df: pd.DataFrame, *styling) -> str:
    """A uuid for the Styler of ``df``: the SHA-256 of its content (values, index, columns and their types, as
    CSV) and of ``styling`` (what, besides the content, decides how it is drawn: the styling function and its
    arguments), cut to :data:`UUID_LEN` hexadecimal digits. The same on every run, in every process."""
    h = hashlib.sha256()
    h.update(repr(tuple(str(s) for s in styling)).encode("utf-8"))
    h.update(repr([str(t) for t in df.dtypes]).encode("utf-8"))
    h.update(repr([str(df.index.dtype), list(df.index.names), list(df.columns.names)]).encode("utf-8"))
    h.update(df.to_csv(lineterminator="\n").encode("utf-8"))
    return h.hexdigest()[:UUID_LEN]


class StyledTable(Styler):
    """A pandas Styler with a fixed uuid and a text form without a memory address (see the module docstring).
    Every Styler method works as on a Styler (they return the same object)."""

    def __repr__(self) -> str:
        rows, cols = self.data.shape
        names = ", ".join(str(c) for c in self.data.columns[:8]) + (", ..." if cols > 8 else "")
        return f"<table: {rows} row{'' if rows == 1 else 's'} x {cols} column{'' if cols == 1 else 's'} ({names})>"


def styled(df: pd.DataFrame, *styling) -> StyledTable:
    """``df.style``, as a :class:`StyledTable` whose uuid is :func:`content_uuid` of ``df`` and ``styling``
    (give the name of the styling function and every argument that changes what it draws)."""
    return StyledTable(df, uuid=content_uuid(df, *styling))
