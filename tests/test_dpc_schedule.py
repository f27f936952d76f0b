"""The Schedule of the DPC Rules 2008, parsed from the seed text (golden values are the seed's own numbers)."""

from pathlib import Path

import pandas as pd
import pytest

from reservation.base.errors import InputError
from reservation.dpc.schedule import load_schedule, parse_footnotes, parse_schedule, seed_path


@pytest.fixture(scope="module")
def text():
    return Path(seed_path()).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sch():
    return load_schedule()


def row(sch, serial):
    return sch[sch["serial"] == serial].iloc[0]


def test_seventy_five_rows_in_serial_order_and_distinct_districts(sch):
    assert list(sch["serial"]) == list(range(1, 76))
    assert sch["district_lgd_code"].is_unique
    assert len(sch) == 75


def test_totals_of_the_schedule(sch):
    # Seed: 14 committees of 40, 17 of 35, 14 of 30, 19 of 25, 6 of 20, 5 of 15.
    assert sch["total"].value_counts().sort_index().to_dict() == {15: 5, 20: 6, 25: 19, 30: 14, 35: 17, 40: 14}
    assert int(sch["total"].sum()) == 2245
    # Column 3 as printed (Prayagraj's 12 included).
    assert int(sch["s4_2"].sum()) == 1776
    assert (sch["s4_4_abd"] == 3).all()


def test_every_row_but_prayagraj_adds_up(sch):
    bad = sch[sch["check"] != "ok"]
    assert list(bad["serial"]) == [1]
    assert "12 + 8 = 20, not the total 40" in bad["check"].iat[0]
    ok = sch[sch["check"] == "ok"]
    assert ((ok["s4_2"] + ok["s4_4"]) == ok["total"]).all()
    assert ((ok["s4_2"] * 5) == (ok["total"] * 4)).all()   # elected = exactly four-fifths


def test_glued_footnote_markers_are_resolved(sch):
    p = row(sch, 1)    # "[61 Prayagraj 12 3 5 8 40]": footnote 6, serial 1
    assert (p["district"], p["s4_2"], p["s4_4_abd"], p["s4_4_e"], p["s4_4"], p["total"]) == \
        ("Prayagraj", 12, 3, 5, 8, 40)
    assert (p["amendment"], p["amended_on"]) == ("fifth amendment", "2019-03-06")
    a = row(sch, 48)   # "[104 8 Amroha ...]": footnote 10 + serial 48 with a stray space
    assert (a["district"], a["amendment"], a["amended_on"], a["total"]) == ("Amroha", "fourth amendment",
                                                                           "2012-09-28", 25)
    h = row(sch, 75)   # "16[7 5 Hapur 12 3 3 15]": marker before the bracket
    assert (h["district"], h["s4_2"], h["total"], h["amendment"]) == ("Hapur", 12, 15, "fourth amendment")
    assert row(sch, 26)["amendment"] == "second amendment" and row(sch, 26)["district"] == "Etah"
    assert row(sch, 39)["district"] == "Ayodhya"
    assert (sch["amendment"] != "").sum() == 11
    assert row(sch, 40)["amendment"] == ""   # Mirzapur: original row


def test_fifteen_member_rows_have_a_blank_clause_e(sch):
    fifteen = sch[sch["total"] == 15]
    assert sorted(fifteen["district"]) == ["Chitrakoot", "Ghaziabad", "Hapur", "Mahoba", "Shamli"]
    assert fifteen["s4_4_e"].isna().all()
    assert (fifteen["s4_2"] == 12).all() and (fifteen["s4_4"] == 3).all()


def test_schedule_spellings_resolve(sch):
    printed = dict(zip(sch["name_in_schedule"], sch["district"]))
    assert printed["Muzzafarnagar"] == "Muzaffarnagar"
    assert printed["Kheri"] == "Lakhimpur Kheri"
    assert printed["Sant Ravidas Nagar Bhadohi"] == "Bhadohi"
    assert printed["Badaun"] == "Budaun"


def test_footnotes_of_the_rules(text):
    notes = parse_footnotes(text)
    assert [(f.marker, f.target) for f in notes[:5]] == [(1, 3), (2, 6), (3, 8), (4, 14), (5, 29)]
    assert [f.target for f in notes[5:]] == [1, 25, 26, 39, 48, 50, 71, 72, 73, 74, 75]


def test_a_row_that_does_not_add_up_is_reported_not_fixed(text):
    changed = text.replace("2 KanpurNagar 32 3 5 8 40", "2 KanpurNagar 32 3 5 8 41")
    sch = parse_schedule(changed)
    k = sch[sch["serial"] == 2].iloc[0]
    assert k["total"] == 41 and k["check"].startswith("col.3 + col.6 = 32 + 8 = 40, not the total 41")


def test_a_missing_row_fails_loudly(text):
    with pytest.raises(InputError, match="serial 4 .* where 3 was expected"):
        parse_schedule(text.replace("3 Jaunpur 32 3 5 8 40 ", ""))


def test_a_footnote_that_disagrees_fails_loudly(text):
    with pytest.raises(InputError, match="footnote 6 names serial 2"):
        parse_schedule(text.replace("6 1 substituted by fifth", "6 2 substituted by fifth"))


def test_missing_seed_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="not found"):
        seed_path(tmp_path / "nope.txt")


def test_parse_is_deterministic(text):
    pd.testing.assert_frame_equal(parse_schedule(text), parse_schedule(text))
