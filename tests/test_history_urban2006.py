"""The 2006 urban chairs in ``reservation history`` (reservation/history/urban2006.py): placed on today's bodies
through the SEC's 2012 rows, with the source row and how sure the link is; the unplaced stay unknown, with the
reason.

Golden cases read by hand in data/history/urban_chairs_2006.csv (spreadsheet rows, the header is row 1) and
data/build/sec2012_urban_bodies_hi.csv, a copy of ../shared/data/history/urban_chairs_2006.csv:
- row 442: नगर निगम लखनऊ, महापौर, अनारक्षित (UR), LB_1204.pdf p. 1: today's Nagar Nigam of Lucknow, 249234;
- row 2: नगर पालिका परिषद देवबन्द (Saharanpur), अनारक्षित (UR): the 2012 row of serial 1 prints देवबन्द too;
- row 8: नगर पंचायत ननौता (Saharanpur), UR: the 2012 list prints नानौता (the spelling key folds the vowel length);
- row 17: नगर पालिका परिषद शामली, district मुज्जफरनगर, UR: Shamli is a district of today (2011), so only the
  State-wide key places it;
- row 100: अफजलगढ़ (Bijnor) with ड़; the 2012 list prints अफजलगढ without the nukta, which the key keeps apart:
  unplaced (a known limit of the key);
- rows 447 and 504: two Nagar Panchayats printed अमेठी (Lucknow and Sultanpur districts): today's Amethi is
  neither sure, so it stays unknown;
- Barauli (Aligarh, 299018): a Nagar Panchayat LGD lists from 2020-22, with no 2012 row.
"""

from __future__ import annotations

import pytest

from reservation.history.unit_history import timeline
from reservation.history.unit_render import render_text
from reservation.history.urban2006 import REASONS, link_2006, pairs_2012

FILE = "data/history/urban_chairs_2006.csv"


def e2006(body, unit):
    h = timeline(body, unit)
    return h, {e.year: e for e in h.elections}[2006]


@pytest.mark.parametrize("body, unit, code, row, category, link", [
    ("mayor", "Lucknow", 249234, 442, "UR", "link2006_district"),
    ("pp-chair", "Deoband", 248882, 2, "UR", "link2006_exact"),
    ("np-chair", "Nanauta", None, 8, "UR", "link2006_spelling"),
    ("pp-chair", "Shamli", None, 17, "UR", "link2006_spelling_state"),
])
def test_placed(body, unit, code, row, category, link):
    h, e = e2006(body, unit)
    assert code is None or h.unit == code
    assert (e.status, e.category, e.source) == ("listed", category, f"{FILE} row {row}")
    assert [k for k, _ in e.note] == ["urban2006", link]
    text = render_text(h)
    assert f"{FILE} row {row}" in text
    assert "placed on the 2012 record (data/build/sec2012_urban_bodies_hi.csv row " in text
    # the 2012 row it is placed on is the one the 2012 record cites
    e2012 = {e.year: e for e in h.elections}[2012]
    assert e2012.source and dict(e.note[1][1])["row"] == e2012.source


@pytest.mark.parametrize("body, unit, reason", [
    ("pp-chair", "Afzalgarh", REASONS[1]),
    ("np-chair", 249402, REASONS[2]),             # Amethi, district Amethi
    ("np-chair", 299018, REASONS[0]),
])
def test_unplaced_stays_unknown_with_its_reason(body, unit, reason):
    h, e = e2006(body, unit)
    assert (e.status, e.category, e.source) == ("not_placed", "", FILE)
    assert e.note == (("not_placed", (("reason", reason),)),)
    assert 2006 not in {int(y) for y in h.history_frame()["year"]}       # unknown, never "not reserved"
    text = render_text(h)
    assert "no row of it could be placed on this body" in text and "not placed: " in text
    hi = render_text(h, lang="hi")
    assert "नहीं बैठाई गई" in hi


def test_the_link_is_one_to_one_and_keeps_the_type():
    link = link_2006()
    placed = link[link["sec_row"] != 0]
    assert placed["sec_row"].is_unique and link["row"].is_unique and len(link) == 624
    p = pairs_2012()
    assert set(p.loc[p["match"] == "district", "type"]) == {4} and (p["match"] == "district").sum() == 12
    # the counts the data README gives for the benchmark's record (2012 rows with a category: 184 of 194 Palika
    # Parishads, 387 of 421 Nagar Panchayats) plus two 2012 rows whose category is blank
    by_type = p[p["cat_2006"] != ""].groupby("type").size().to_dict()
    assert by_type == {4: 12, 5: 184, 7: 389}
