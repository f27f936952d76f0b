"""Nagar Palika Parishad chairs under s.9-A(5) of the UP Municipalities Act 1916 as substituted in 2023.

(b) the State counts of the Palika Parishads: SC and ST from their share of the population of all Palika Parishads
of the State, half-up; OBC from the Dedicated Commission's statewide share for Palika Parishads (rules/params/
law.toml ``pp_chair.obc_share``), at most 27 %; women one-third. (c) each category's offices shared among the 18
divisions (:mod:`.urban_divisions`). (d) inside a division: SC by SC share, women first; then ST, OBC, and women by
the share of women, each leaving out the bodies taken before. What the urban bodies share is in :mod:`.urban`.
"""

from __future__ import annotations

from .urban import category_groups, urban_rulebook

__all__ = ["RULEBOOK"]


def counting_unit(opts) -> str:
    """The Palika Parishads are always counted by division ((c))."""
    return "division"


RULEBOOK = urban_rulebook("pp-chair", parent_for=counting_unit, groups=category_groups("pp-chair"))
