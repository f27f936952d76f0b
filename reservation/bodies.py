"""The registry of bodies: stable ids (``zp-chair``, ...) -> the rulebook functions that serve them.

Only bodies whose rules are implemented end to end are registered; asking for another is an error that
lists the known ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .errors import InputError
from functools import partial

from .rulebooks import kp_chair, municipal, panchayat, panchayat_units

__all__ = ["Body", "BODIES", "get_body"]


@dataclass(frozen=True)
class Body:
    id: str
    title: str
    unit: str                      # what one row of the allotment is
    years: tuple[int, ...]
    options: Callable              # assignments -> OptionSet
    counts: Callable               # (year, OptionSet) -> counts DataFrame
    allot: Callable                # (year, **kw) -> Allotment
    default_history: str
    parent_table: str = ""         # "districts" / "divisions": `reservation districts|divisions` shows extra[...]
    needs_units: bool = False      # the units (and their populations) come from the user's --units file
    accepts_units: bool = False    # --units may replace the shipped list of units


BODIES: dict[str, Body] = {
    "zp-chair": Body("zp-chair", "Zila Panchayat chairs (adhyaksh)", "district", tuple(panchayat.POSTS),
                     panchayat.zp_chair_options, panchayat.zp_chair_counts, panchayat.allot_zp_chair,
                     str(panchayat.DEFAULT_HISTORY)),
    "kp-chair": Body("kp-chair", "Kshetra Panchayat pramukhs (block chairs)", "block", kp_chair.YEARS,
                     kp_chair.kp_chair_options, kp_chair.kp_chair_counts, kp_chair.allot_kp_chair,
                     str(kp_chair.DEFAULT_HISTORY), parent_table="districts"),
}
for _id, _spec in municipal.URBAN_BODIES.items():
    BODIES[_id] = Body(_id, _spec["title"], "body", municipal.YEARS, municipal.urban_options,
                       partial(municipal.counts_for, _id), partial(municipal.allot_urban, _id), "",
                       parent_table="divisions" if _id != "mayor" else "", accepts_units=True)
for _id, _spec in panchayat_units.UNIT_BODIES.items():
    BODIES[_id] = Body(_id, _spec["title"], _spec["unit"], panchayat_units.YEARS, panchayat_units.unit_body_options,
                       None, partial(panchayat_units.allot_units, _id), "", needs_units=True)


def get_body(body_id: str, year: int | None = None) -> Body:
    if body_id not in BODIES:
        raise InputError(f"unknown or not yet implemented body {body_id!r}; known: {', '.join(BODIES)}",
                         column="body")
    b = BODIES[body_id]
    if year is not None and year not in b.years:
        raise InputError(f"{body_id}: year {year} is not implemented (known: {', '.join(map(str, b.years))})",
                         column="year")
    return b
