"""The registry of bodies: one table, body id -> the module that declares its rulebook (imported on first use).

Each body's module in :mod:`reservation.rules` is named after it and exposes ``RULEBOOK`` (what
:mod:`reservation.rules.rulebook` declares); this module, above them, imports the one a body needs and reads it.
Nothing registers itself: :data:`MODULES` is the only list of bodies, and no body imports the registry.
"""

from __future__ import annotations

import importlib

from ..base.errors import InputError
from ..inputs.nearest import did_you_mean
from .rulebook import Rulebook

__all__ = ["MODULES", "get_rulebook", "all_rulebooks"]

#: body id -> the module that declares it (its ``RULEBOOK``; imported on first use)
MODULES = {"zp-chair": "reservation.rules.zp_chair", "kp-chair": "reservation.rules.kp_chair",
           "pp-chair": "reservation.rules.pp_chair", "np-chair": "reservation.rules.np_chair",
           "mayor": "reservation.rules.mayor", "gp-pradhan": "reservation.rules.gp_pradhan",
           "gp-ward": "reservation.rules.gp_ward", "kp-ward": "reservation.rules.kp_ward",
           "zp-ward": "reservation.rules.zp_ward"}


def get_rulebook(body: str) -> Rulebook:
    if body not in MODULES:
        raise InputError(f"unknown or not yet implemented body {body!r}"
                         f"{did_you_mean(body, list(MODULES)) or '; known: ' + ', '.join(MODULES)}",
                         option="--body")
    book = importlib.import_module(MODULES[body]).RULEBOOK
    if book.id != body:             # the table and the module must agree (a wrong line in MODULES)
        raise RuntimeError(f"{MODULES[body]} declares {book.id!r}, not {body!r}")
    return book


def all_rulebooks() -> dict[str, Rulebook]:
    """Every registered body, in the order of :data:`MODULES`."""
    return {b: get_rulebook(b) for b in MODULES}
