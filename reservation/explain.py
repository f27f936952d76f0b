"""Explaining one unit: its history, every rule step that touched it, in order, and the final decision."""

from __future__ import annotations

import pandas as pd

from .errors import InputError

__all__ = ["explain_text", "resolve_unit"]


def resolve_unit(allotment, unit) -> int:
    """An LGD code or a name (English, Hindi, former name, spelling variant) -> a unit code of the table."""
    resolve = allotment.resolve
    try:
        return resolve(unit)
    except KeyError as e:
        raise InputError(str(e.args[0]), column="unit") from None


def explain_text(allotment, unit) -> str:
    """The text ``reservation explain`` prints: decision, reason, clause, history, then each step in order."""
    code = resolve_unit(allotment, unit)
    row = allotment.table[allotment.table["unit_code"] == code].iloc[0]
    meta = allotment.meta
    where = (f"{row['division']} division" if row["district"] == row["unit_name_en"] else
             f"{row['district']} district, {row['division']} division")
    lines = [f"{row['unit_name_en']} ({row['unit_name_hi'] or 'no Hindi name'}), LGD {code}, {where}",
             f"{meta['body']} {meta['year']}: {row['category']}",
             f"  reason: {row['reason']}",
             f"  clause: {row['clause']}"]
    if allotment.history is not None:
        h = allotment.history[allotment.history["unit_code"] == code]
        held = ", ".join(f"{y}: {c} ({src})" for y, c, src in zip(h["year"], h["category"], h["source"]))
        lines.append(f"  history: {held or 'no record'} (base year {meta['base_year']})")
    lines.append("steps, in the order the rules applied them:")
    for i, s in enumerate(allotment.explain(code).to_dict("records"), start=1):
        parts = []
        if not pd.isna(s["rank"]):
            parts.append(f"rank {s['rank']} of {s['pool']} by {s['key']}")
        if not pd.isna(s["tier"]):
            parts.append(f"tier {s['tier']}: {s['tier_reason']}")
        parts.append(f"decision: {s['detail']}")
        if s["tie_break"]:
            parts.append(f"tie: {s['tie_break']}")
        parts.append(f"clause: {s['clause']}")
        lines.append(f"  {i}. pass {s['pass']}: " + "; ".join(parts))
    return "\n".join(lines)
