"""The registry of bodies: body id -> its rulebook, the module that declares it imported on first use.

The modules of :mod:`reservation.rules` import :mod:`reservation.rules.rulebook` (what a rulebook declares) and
register their rulebooks there when imported; this module, above them, imports the one a body needs. So the
declarations never import the bodies, and no body imports the registry.
"""

from __future__ import annotations

import importlib

from ..base.errors import InputError
from .rulebook import RULEBOOKS, Rulebook

__all__ = ["MODULES", "get_rulebook", "all_rulebooks"]

#: body id -> the module that declares it (imported on first use)
MODULES = {"zp-chair": "reservation.rules.zp_chair", "kp-chair": "reservation.rules.kp_chair",
           "pp-chair": "reservation.rules.municipal", "np-chair": "reservation.rules.municipal",
           "mayor": "reservation.rules.municipal", "gp-pradhan": "reservation.rules.gp_and_wards",
           "gp-ward": "reservation.rules.gp_and_wards", "kp-ward": "reservation.rules.gp_and_wards",
           "zp-ward": "reservation.rules.gp_and_wards"}


def get_rulebook(body: str) -> Rulebook:
    if body not in MODULES:
        raise InputError(f"unknown or not yet implemented body {body!r}; known: {', '.join(MODULES)}",
                         option="--body")
    if body not in RULEBOOKS:
        importlib.import_module(MODULES[body])
    return RULEBOOKS[body]


def all_rulebooks() -> dict[str, Rulebook]:
    """Every registered body, in the order of :data:`MODULES`."""
    return {b: get_rulebook(b) for b in MODULES}
