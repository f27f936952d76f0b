"""Gram panchayat ward members: the wards of each gram panchayat, counted inside it.

Law: s.12(5) of the UP Panchayat Raj Act 1947 and the PR Rules 1994 (docs/panchayat.md). In each gram panchayat:
posts = its wards; the counts and passes are those of every panchayat-unit body
(:mod:`reservation.rules.panchayat_units`).
"""

from __future__ import annotations

from .panchayat_units import UnitBody, unit_rulebook

__all__ = ["BODY", "RULEBOOK"]

BODY = UnitBody(id="gp-ward", title="Gram panchayat ward members", title_hi="ग्राम पंचायत सदस्य",
                unit="ward", parent="gram panchayat",
                law="s.12(5) PR Act 1947; PR Rules 1994",
                law_hi="उत्तर प्रदेश पंचायत राज अधिनियम 1947 की धारा 12(5); पंचायत राज नियमावली 1994")

RULEBOOK = unit_rulebook(BODY)
