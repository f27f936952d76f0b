"""Kshetra Panchayat (BDC) ward members: the wards of each Kshetra Panchayat, counted inside its block.

Law: s.6-A of the UP Kshetra Panchayat and Zila Panchayat Adhiniyam 1961 and the KP & ZP Rules 1994
(docs/panchayat.md). In each block: posts = its wards; the counts and passes are those of every panchayat-unit
body (:mod:`reservation.rules.panchayat_units`).
"""

from __future__ import annotations

from .panchayat_units import UnitBody, unit_rulebook

__all__ = ["BODY", "RULEBOOK"]

BODY = UnitBody(id="kp-ward", title="Kshetra Panchayat (BDC) ward members", title_hi="क्षेत्र पंचायत सदस्य",
                unit="ward", parent="block",
                law="s.6-A KP&ZP Adhiniyam 1961; KP&ZP Rules 1994",
                law_hi="क्षेत्र पंचायत तथा जिला पंचायत अधिनियम 1961 की धारा 6-क; क्षेत्र पंचायत तथा जिला पंचायत नियमावली 1994")

RULEBOOK = unit_rulebook(BODY)
