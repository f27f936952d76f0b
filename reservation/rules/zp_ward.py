"""Zila Panchayat ward members: the wards of each Zila Panchayat, counted inside its district.

Law: s.18-A of the UP Kshetra Panchayat and Zila Panchayat Adhiniyam 1961 and the KP & ZP Rules 1994
(docs/panchayat.md). In each district: posts = its wards; the counts and passes are those of every
panchayat-unit body (:mod:`reservation.rules.panchayat_units`).
"""

from __future__ import annotations

from .panchayat_units import UnitBody, unit_rulebook

__all__ = ["BODY", "RULEBOOK"]

BODY = UnitBody(id="zp-ward", title="Zila Panchayat ward members", title_hi="जिला पंचायत सदस्य",
                unit="ward", parent="district",
                law="s.18-A KP&ZP Adhiniyam 1961; KP&ZP Rules 1994",
                law_hi="क्षेत्र पंचायत तथा जिला पंचायत अधिनियम 1961 की धारा 18-क; क्षेत्र पंचायत तथा जिला पंचायत नियमावली 1994")

RULEBOOK = unit_rulebook(BODY)
