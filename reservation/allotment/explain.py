"""Explaining one unit: its history, every rule step that touched it, in order, and the final decision."""

from __future__ import annotations

import pandas as pd

from ..base.errors import InputError

__all__ = ["explain_text", "resolve_unit"]


def resolve_unit(allotment, unit) -> int:
    """An LGD code or a name (English, Hindi, former name, spelling variant) -> a unit code of the table. A name
    this body does not hold but another body with shipped units does (a Palika Parishad asked of the Nagar
    Panchayats, a block asked of the districts) is refused with the bodies that hold it."""
    resolve = allotment.resolve
    try:
        return resolve(unit)
    except KeyError as e:
        msg = str(e.args[0])
        held = _held_elsewhere(allotment, unit)
        if held:                        # the nearest names of this body would mislead: it is another body's
            msg = f"{getattr(e, 'plain', msg)}; {unit!r} is {' and '.join(held)}"
        raise InputError(msg, column="unit") from None


def _held_elsewhere(allotment, unit) -> list[str]:
    """The other bodies with shipped units that hold a unit of this name: ["a block (Kshetra Panchayat pramukhs
    (block chairs): --body kp-chair)", ...]. Read only when a name is not found."""
    from ..rules.registry import all_rulebooks
    out = []
    for body, rb in all_rulebooks().items():
        if body == allotment.body or rb.units_file == "required":
            continue
        year = allotment.year if allotment.year in rb.offered_years else rb.offered_years[0]
        try:
            rb.load_units(None, year, rb.option_set()).resolve(unit)
        except (KeyError, InputError, OSError):   # a hint only: a list that cannot be read gives none
            continue
        out.append(f"{'an' if rb.unit_kind[0] in 'aeiou' else 'a'} {rb.unit_kind} ({rb.title}: --body {body})")
    return out


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
