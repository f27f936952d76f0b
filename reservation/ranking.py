"""Descending order of a category's share, exact, with a recorded tie-break.

The GO 2021 (seed b) allots "in descending order of the proportion" of a category's population. Shares are
Fractions; equal shares are ties that no source settles (RULES.md A14). A tie is broken by a lot supplied
as input (lower lot number first) or by the documented rule of the ``tie_break`` option:

- ``population``: the larger population of the ranking base first, then the lower unit code;
- ``code``: the lower unit code first.

Every unit gets ``rank`` (1 = highest share) and ``tie_break``: empty when its share is unique, otherwise the
words saying how its place among the tied units was decided.
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

__all__ = ["rank_descending", "RANK_COLUMNS"]

RANK_COLUMNS = ["unit_code", "key", "rank", "tie_break"]


def rank_descending(units: pd.DataFrame, key: pd.Series, *, population: pd.Series, tie_break: str = "population",
                    lots: dict[int, int] | None = None, key_label: str = "share") -> pd.DataFrame:
    """Rank ``units`` (needs ``unit_code``) by ``key`` (Fractions or ints, aligned on the index) descending.

    Returns a DataFrame with :data:`RANK_COLUMNS` in rank order. ``lots`` maps unit_code -> lot number and is
    used first among tied units; units without a lot fall back to ``tie_break``.
    """
    lots = lots or {}
    rows = []
    for idx in units.index:
        code = int(units.at[idx, "unit_code"])
        k = Fraction(key.at[idx])
        pop = int(population.at[idx])
        lot = lots.get(code)
        if tie_break == "population":
            rule = (-pop, code)
        elif tie_break == "code":
            rule = (code,)
        else:
            raise ValueError(f"unknown tie_break {tie_break!r}")
        rows.append((-k, 0 if lot is not None else 1, lot if lot is not None else 0, rule, code, k, pop, lot))
    rows.sort(key=lambda r: r[:4])
    # group equal keys to describe ties
    counts: dict[Fraction, int] = {}
    for r in rows:
        counts[r[5]] = counts.get(r[5], 0) + 1
    out = []
    for i, r in enumerate(rows, start=1):
        code, k, pop, lot = r[4], r[5], r[6], r[7]
        n_tied = counts[k]
        if n_tied == 1:
            tb = ""
        elif lot is not None:
            tb = f"{key_label} tied with {n_tied - 1} other unit(s); placed by lot number {lot}"
        elif tie_break == "population":
            tb = (f"{key_label} tied with {n_tied - 1} other unit(s); placed by the tie-break rule "
                  f"(larger population {pop} first, then lower code)")
        else:
            tb = f"{key_label} tied with {n_tied - 1} other unit(s); placed by the tie-break rule (lower code first)"
        out.append((code, k, i, tb))
    return pd.DataFrame(out, columns=RANK_COLUMNS)
