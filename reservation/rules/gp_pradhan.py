"""Gram pradhans: the office of pradhan of each gram panchayat, counted inside its block.

Law: s.11-A of the UP Panchayat Raj Act 1947 and rule 4 of the PR (Reservation and Allotment of Seats and Offices)
Rules 1994 (docs/panchayat.md). In each block: posts = its gram panchayats; SC and ST half-up from the block's
shares, OBC at most 27 %; women one-third of each category and of all posts; then the passes ST, SC, OBC (leaving
out ST/SC gram panchayats), women (leaving out all three), each in descending share, never reserved first.
What the four panchayat-unit bodies share is in :mod:`reservation.rules.panchayat_units`. Without ``--units`` the
units are LGD's gram panchayats with partial Census figures and the shipped history (:mod:`reservation.rules.gp_units`).
"""

from __future__ import annotations

from .panchayat_units import UnitBody, unit_rulebook

__all__ = ["BODY", "RULEBOOK"]

BODY = UnitBody(id="gp-pradhan", title="Gram pradhans", title_hi="ग्राम प्रधान",
                unit="gram panchayat", parent="block",
                law="s.11-A PR Act 1947; PR Rules 1994 r.4",
                law_hi="उत्तर प्रदेश पंचायत राज अधिनियम 1947 की धारा 11-क; पंचायत राज नियमावली 1994 का नियम 4",
                shipped=True, record="gp_pradhan")

RULEBOOK = unit_rulebook(BODY)
