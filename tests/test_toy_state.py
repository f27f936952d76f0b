"""Toy states whose allotment is worked out by hand in docs/teaching.md (tests/fixtures/toy/README.md points there)."""
import pandas as pd

import reservation
from reservation.inputs.units import load_districts


def result(toy, name, history=None, options=()):
    d = load_districts(toy / name)
    kw = {"history": [toy / history]} if history else {
        "history": pd.DataFrame({"unit_code": pd.Series([], dtype="int64"), "year": pd.Series([], dtype="int64"),
                                 "category": pd.Series([], dtype=str), "source": pd.Series([], dtype=str)})}
    a = reservation.allot("zp-chair", 2021, units=d, options=options, **kw)
    return a, dict(zip(a.table["unit_name_en"], a.table["category"]))


def test_five_district_state_rotates_sc_away_from_alpha_and_obc_away_from_gamma(toy):
    a, got = result(toy, "five.csv", "five_history_2015.csv")
    assert got == {"Alpha": "OBC_W", "Beta": "SC_W", "Gamma": "UR", "Delta": "UR", "Epsilon": "UR"}
    beta = a.table.set_index("unit_name_en").loc["Beta"]
    assert beta["tier"] == 1 and beta["rank"] == 2
    alpha_sc = a.explain(1)
    assert (alpha_sc[alpha_sc["pass"] == "SC_W+SC"]["tier"] == 3).all()


def test_obc_tie_is_broken_by_the_documented_rule_and_says_so(toy):
    a, _ = result(toy, "five.csv", "five_history_2015.csv")
    alpha = a.table.set_index("unit_name_en").loc["Alpha"]
    assert "tie-break rule" in alpha["tie_break"]
    assert "assumed" in alpha["reason"]  # OBC population not supplied: the row says what was assumed


def test_general_women_by_population_outside_reserved_groups(toy):
    _, got = result(toy, "five.csv", "five_history_2015.csv", [("general_women", "third_of_rest")])
    assert got["Epsilon"] == "W" and sum(v == "W" for v in got.values()) == 1


def test_division_rule_leaves_the_least_populous_district_unreserved(toy):
    # the hand check of the README's 'barred' reading with the population tie rule (tie_break=population, the
    # default until 2026-12); the default literal reading (saturation_effect=unreserved, issue 12) keeps Elm UR and
    # is checked in tests/test_readings_zp.py
    a, got = result(toy, "saturation.csv", options=[("saturation_effect", "barred"), ("tie_break", "population")])
    assert got == {"Ash": "SC", "Birch": "UR", "Cedar": "UR", "Dogwood": "SC_W", "Elm": "OBC_W"}
    # the default tie rule of stand-in OBC shares (assumed_by_code): lower code first, Birch (12) before Elm (15)
    _, got = result(toy, "saturation.csv", options=[("saturation_effect", "barred")])
    assert got == {"Ash": "SC", "Birch": "OBC_W", "Cedar": "UR", "Dogwood": "SC_W", "Elm": "UR"}
    elm = a.explain(15)
    left_out = elm[elm["decision"] == "left_out_division"]
    assert len(left_out) == 1 and "South" in left_out["detail"].iat[0]
    assert "division rule" in left_out["clause"].iat[0]


def test_division_rule_off_gives_the_plain_descending_order(toy):
    _, got = result(toy, "saturation.csv", options=[("division_saturation", "off")])
    assert got == {"Ash": "OBC_W", "Birch": "UR", "Cedar": "UR", "Dogwood": "SC_W", "Elm": "SC"}


def test_lots_decide_a_tie_and_the_row_records_the_lot(toy, tmp_path):
    lots = tmp_path / "lots.csv"
    lots.write_text("unit,lot,category\nEpsilon,1,OBC\nDelta,2,OBC\nAlpha,3,OBC\n", encoding="utf-8")
    a, got = result(toy, "five.csv", "five_history_2015.csv", [("lots", str(lots))])
    assert got["Epsilon"] == "OBC_W" and got["Alpha"] == "UR"
    assert "lot number 1" in a.table.set_index("unit_name_en").loc["Epsilon", "tie_break"]
