"""The pins of the audit's walk, and the units beyond a count (:mod:`reservation.auditing.walk`).

For pass ``i`` the walk runs the pipeline with the published list's earlier passes pinned. A pin only takes its
unit out of the later pools; which code of its group it carries does not change them. The pins must still fit the
counts the pipeline checks them against (no more pins of a code in a counting unit than it has posts of the code),
whatever the list: where the list gives a code more units than the law has posts of it (a wrong women's split, a
``violation_count`` of that pass), the units beyond the count carry another code of their group that has room.

Units the list lacks (``not_in_list``) are pinned unreserved while the counting unit has unreserved posts left, so
that each pass chooses among the units the list gives; the counts they could fill are then not checkable.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..law.categories import CODES

__all__ = ["pins_for", "surplus_of", "slot_table"]


def slot_table(eng) -> dict:
    """Posts per (counting unit, code) of every pass, and the unreserved posts left per counting unit."""
    n_par = len(eng.parent_labels)
    out: dict = {}
    reserved = np.zeros(n_par, dtype=np.int64)
    for rec in eng.records:
        full = np.asarray(rec.spec.slots, dtype=np.int64).reshape(n_par, len(rec.spec.codes))
        for j, c in enumerate(rec.spec.codes):
            for q in range(n_par):
                out[(q, c)] = int(full[q, j])
        reserved += full.sum(axis=1)
    sizes = np.bincount(eng.par, minlength=n_par)
    for q in range(n_par):
        out[(q, "UR")] = int(sizes[q] - reserved[q])
    return out


def pins_for(ctx, i: int, surplus: set, freed_ur: set) -> pd.DataFrame | None:
    """Pins for pass ``i``: every listed unit whose published category belongs to an earlier pass (within the
    counts, see the module), the surplus units of earlier passes and the units the division rule made unreserved
    (as UR), and the units the list lacks (as UR, while there is room)."""
    room = dict(ctx.slots)
    rows = []

    def take(pos, code):
        k = (int(ctx.eng.par[pos]), code)
        if room.get(k, 0) <= 0:
            return False
        room[k] -= 1
        return True

    late, absent = [], []
    for pos in range(ctx.n):
        p = int(ctx.pub[pos])
        if p < 0:
            if ctx.missing[pos]:
                absent.append(pos)
            continue
        if pos in surplus or pos in freed_ur:
            take(pos, "UR")
            rows.append((int(ctx.eng.codes[pos]), "UR", "audit: surplus or made unreserved"))
        elif ctx.pass_of.get(CODES[p], 1 << 30) < i:
            if take(pos, CODES[p]):
                rows.append((int(ctx.eng.codes[pos]), CODES[p], "published list"))
            else:
                late.append(pos)
    for pos in late:
        codes = ctx.eng.records[ctx.pass_of[CODES[int(ctx.pub[pos])]]].spec.codes
        other = next((c for c in codes if take(pos, c)), CODES[int(ctx.pub[pos])])
        rows.append((int(ctx.eng.codes[pos]), other, "published list (its group; the code's count is full)"))
    for pos in absent:
        if take(pos, "UR"):
            rows.append((int(ctx.eng.codes[pos]), "UR", "audit: not in the list"))
    if not rows:
        return None
    df = pd.DataFrame(rows, columns=["unit_code", "category", "source"])
    df["_row"] = np.arange(2, len(df) + 2)
    return df


def surplus_of(rec, q: int, ordered: list, need: int, code_of) -> list:
    """The units beyond the count of a group in counting unit ``q`` (``ordered`` in the pass's order): the last
    ones, taken first from the codes the list gives more units than the law has posts of (a list with one SC
    district too many loses its last SC district, not its last SC_W one, whose women's count is right)."""
    codes = list(rec.spec.codes)
    over = {c: sum(1 for p in ordered if code_of(p) == c) - int(rec.slots[q, j]) for j, c in enumerate(codes)}
    extra: list = []
    for p in reversed(ordered):
        if len(extra) == len(ordered) - need:
            break
        if over.get(code_of(p), 0) > 0:
            over[code_of(p)] -= 1
            extra.append(p)
    extra += [p for p in reversed(ordered) if p not in extra][:len(ordered) - need - len(extra)]
    chosen = set(extra)
    return [p for p in ordered if p in chosen]
