"""Nagar Panchayat chairs under s.9-A(5) of the UP Municipalities Act 1916 as substituted in 2023.

The text reached stops before the Nagar Panchayat part; (a) says Palika Parishads and Nagar Panchayats are done
"separately in the manner provided herein", so by default (option ``np_method=same_as_pp``) the Nagar Panchayats
are counted like the Palika Parishads: (b) State counts of the Nagar Panchayats (OBC: the Commission's share,
rules/params/law.toml ``np_chair.obc_share``), (c) shared among the divisions, (d) the passes inside each division.
``np_method=state_level`` takes the State as the only unit. What the urban bodies share is in :mod:`.urban`.
"""

from __future__ import annotations

from .urban import category_groups, urban_rulebook

__all__ = ["RULEBOOK"]


def counting_unit(opts) -> str | None:
    """By division (option ``np_method=same_as_pp``, the default), or the State (``state_level``)."""
    return "division" if opts["np_method"] == "same_as_pp" else None


RULEBOOK = urban_rulebook("np-chair", parent_for=counting_unit, groups=category_groups("np-chair"))
