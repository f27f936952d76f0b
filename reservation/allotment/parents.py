"""The units grouped by their parent (the State, a district, a division, a block): the engine's order of the
units, the parents' numbers and labels, the posts per parent, and the pins counted per place. Part of the one
pipeline (:mod:`reservation.allotment.pipeline`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..base.errors import InputError
from ..engine.passes import RuleError
from ..law.categories import CODES

__all__ = ["order_by_parent", "parent_numbers", "pins_by_place", "slots_of_parents"]


def order_by_parent(frame: pd.DataFrame, parent: str | None):
    """The units by parent, then code (the engine's order; the code is the last tie-break), with the parent
    numbers (0.. in the sorted order of the labels) and the labels. No sort when they already are in order."""
    code = frame["unit_code"].to_numpy(dtype=np.int64)
    n = len(code)
    if parent is None:
        par, labels = np.zeros(n, dtype=np.int64), np.array(["*"], dtype=object)
        if n > 1 and not (code[1:] > code[:-1]).all():
            o = np.argsort(code, kind="stable")
            frame, code = frame.take(o), code[o]
        return frame.reset_index(drop=True), par, labels
    par, labels = parent_numbers(frame[parent])
    par = par.astype(np.int64)
    labels = np.asarray(labels, dtype=object)
    if n > 1:
        step = (par[1:] > par[:-1]) | ((par[1:] == par[:-1]) & (code[1:] > code[:-1]))
        if not step.all():
            o = np.lexsort((code, par))
            frame, par = frame.take(o), par[o]
    return frame.reset_index(drop=True), par, labels


def parent_numbers(column: pd.Series):
    """``pd.factorize(column, sort=True)``; for a text column already grouped in ascending order (a units file as
    read: sorted by parent), from the places where the value changes, without hashing every row."""
    n = len(column)
    if n > 1 and isinstance(column.dtype, pd.StringDtype) and column.dtype.storage == "pyarrow" \
            and not column.hasnans:
        import pyarrow as pa
        import pyarrow.compute as pc
        text = pa.array(column)
        text = text.combine_chunks() if isinstance(text, pa.ChunkedArray) else text
        change = pc.not_equal(text.slice(1), text.slice(0, n - 1)).to_numpy(zero_copy_only=False)
        starts = np.flatnonzero(np.r_[True, change])
        labels = text.take(pa.array(starts))
        if len(starts) == 1 or pc.all(pc.greater(labels.slice(1), labels.slice(0, len(starts) - 1))).as_py():
            return np.cumsum(np.r_[0, change]), labels.to_numpy(zero_copy_only=False)
    return pd.factorize(column, sort=True)


def pins_by_place(parent: str | None, pins: pd.DataFrame | None, path, frame: pd.DataFrame, slots: pd.DataFrame) -> dict:
    """Pins as the engine takes them ({position: (code, source)}), refusing more pins of a code in a place (the
    State, a district, a division, a block) than that place has posts of the code."""
    if pins is None:
        return {}
    at = pd.Series(np.arange(len(frame)), index=frame["unit_code"].to_numpy())
    place = frame[parent].to_numpy(dtype=object) if parent else np.full(len(frame), "*", dtype=object)
    used: dict = {}
    out = {}
    for u, code, src, row in zip(pins["unit_code"], pins["category"], pins["source"], pins["_row"]):
        p = int(at[int(u)])
        k = (place[p], code)
        used[k] = used.get(k, 0) + 1
        most = int(slots.at[place[p], code]) if place[p] in slots.index else 0
        if used[k] > most:
            where = "" if place[p] == "*" else f" in {place[p]}"
            raise InputError(f"more {code} pins ({used[k]}) than {code} offices ({most}){where}",
                             file=str(path), row=int(row), column="category")
        out[p] = (code, src)
    return out


def slots_of_parents(slots: pd.DataFrame, parent_labels: np.ndarray) -> pd.DataFrame:
    """The posts per parent and code in the order of ``parent_labels`` and :data:`CODES` (a parent without
    units may have none)."""
    slots = slots.reindex(columns=list(CODES), fill_value=0).astype(np.int64)
    if not (len(slots) == len(parent_labels) and (slots.index.to_numpy(dtype=object) == parent_labels).all()):
        extra_par = slots.index.difference(pd.Index(parent_labels))
        if len(extra_par) and slots.loc[extra_par].to_numpy().any():
            raise RuleError(f"posts given for {extra_par[0]!r}, which has no units")
        slots = slots.reindex(pd.Index(parent_labels)).fillna(0).astype(np.int64)
    return slots
