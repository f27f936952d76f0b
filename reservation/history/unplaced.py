"""Gram panchayats of the lists that the crosswalk could not place on an LGD gram panchayat.

``data/history/gp_unplaced.csv.gz`` keeps every row of the 2005, 2010 and 2015 gram pradhan lists that is not in
the history, with the LGD block its source block was placed on and the reason (no LGD gram panchayat alike: most
were absorbed into towns or renamed; fits two; two rows on one; too close to call). Such a gram panchayat has no
LGD code, but its rows are records all the same: :func:`find_unplaced` finds it by the name the list printed,
inside the LGD block (or district) named, and :func:`unplaced_records` gives its rows of every year that print the
same name (by :func:`reservation.inputs.text.name_key`) in the same block. Nothing else is inferred: a year
without such a row is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from ..base.paths import DATA_DIR
from .rows import cite, cite_stored

__all__ = ["UnplacedGP", "find_unplaced", "unplaced_records"]

_FILE = "data/history/gp_unplaced.csv.gz"


@dataclass(frozen=True)
class UnplacedGP:
    """A gram panchayat of the lists with no LGD code: its LGD ``block``, the ``key`` of its name, the ``name``
    as the latest list printed it and the ``reason`` the crosswalk gave."""

    block: int
    key: str
    name: str
    reason: str


@lru_cache(maxsize=1)
def _table() -> pd.DataFrame:
    from ..inputs.text import name_key
    u = pd.read_csv(DATA_DIR / "history" / "gp_unplaced.csv.gz", dtype=str, keep_default_na=False,
                    encoding="utf-8").astype(object)
    u["_row"] = np.arange(2, len(u) + 2)          # the spreadsheet row (the header is row 1)
    u = u[u["block"] != ""].copy()                    # a source block not placed: no LGD block to look in
    u["block"] = u["block"].astype("int64")
    u["key"] = [name_key(n) for n in u["gp_hi"]]
    return u


@lru_cache(maxsize=1)
def _positions() -> dict:
    """(LGD block, name key) -> the positions of the rows in :func:`_table`."""
    u = _table()
    out: dict = {}
    for i, (b, k) in enumerate(zip(u["block"].tolist(), u["key"].tolist())):
        out.setdefault((b, k), []).append(i)
    return out


def find_unplaced(name: str, blocks) -> UnplacedGP | None:
    """The unplaced gram panchayat printed as ``name`` in one of ``blocks`` (LGD block codes), or None (also when
    two blocks or two different gram panchayats of one block print it: a name must name one)."""
    from ..inputs.text import name_key
    key, where = name_key(name), _positions()
    pos = [i for b in blocks for i in where.get((int(b), key), ())]
    hit = _table().iloc[pos]
    if not len(hit) or hit["block"].nunique() != 1 or hit.groupby("year").size().max() > 1:
        return None
    last = hit.sort_values("year", kind="stable").iloc[-1]
    return UnplacedGP(int(last["block"]), key, str(last["gp_hi"]), str(last["reason"]))


def unplaced_records(gp: UnplacedGP) -> pd.DataFrame:
    """Its rows (``year, category, source, note``), one per year; a blank category is left out (unknown)."""
    rows = _table().iloc[_positions().get((gp.block, gp.key), [])]
    rows = rows[rows["category"] != ""]
    notes = [(("list", (("source", cite_stored(s)), ("name", n))), ("unplaced", (("reason", r), ("best", b or "—"),
                                                                    ("score", sc or "—"))))
             + ((("caveat", (("caveat", c),)),) if c else ())
             for s, n, r, b, sc, c in zip(rows["source"], rows["gp_hi"], rows["reason"], rows["best"],
                                          rows["best_score"], rows["caveat"])]
    return pd.DataFrame({"year": rows["year"].astype("int64").to_numpy(), "category": rows["category"].tolist(),
                         "source": [cite(_FILE, i) for i in rows["_row"]], "note": notes})
