"""reservation.history.rotation_facts on a hand-made history: five blocks in two districts, three elections.

Expected values are worked out by hand in the comments (not by the code under test).

    unit district  2005   2010   2015
    1    A         SC     SC_W   OBC
    2    A         OBC_W  UR     OBC
    3    A         UR     OBC    OBC_W
    4    B         W      UR     (no record)
    5    B         SC_W   OBC    SC
"""
import math

import pandas as pd
import pytest

from reservation.history import rotation_facts as rf

ROWS = [(1, 2005, "SC"), (1, 2010, "SC_W"), (1, 2015, "OBC"),
        (2, 2005, "OBC_W"), (2, 2010, "UR"), (2, 2015, "OBC"),
        (3, 2005, "UR"), (3, 2010, "OBC"), (3, 2015, "OBC_W"),
        (4, 2005, "W"), (4, 2010, "UR"),
        (5, 2005, "SC_W"), (5, 2010, "OBC"), (5, 2015, "SC")]
DISTRICT = {1: "A", 2: "A", 3: "A", 4: "B", 5: "B"}


@pytest.fixture
def history():
    # shuffled on purpose: nothing may depend on the row order
    return pd.DataFrame(ROWS, columns=["unit_code", "year", "category"]).sample(frac=1, random_state=3)


def test_transitions_pair_consecutive_elections_only_where_both_records_exist(history):
    t = rf.transitions(history)
    # 2005->2010: all five units; 2010->2015: unit 4 has no 2015 record
    assert list(zip(t["year_from"], t["unit_code"])) == [(2005, 1), (2005, 2), (2005, 3), (2005, 4), (2005, 5),
                                                         (2010, 1), (2010, 2), (2010, 3), (2010, 5)]
    same = dict(zip(zip(t["year_from"], t["unit_code"]), t["same_group"]))
    # by hand: 2005->2010 unit 1 SC->SC_W and unit 4 W->UR keep their group; 2010->2015 only unit 3 (OBC->OBC_W)
    assert [k for k, v in same.items() if v] == [(2005, 1), (2005, 4), (2010, 3)]
    assert not t["same_category"].any()          # no unit kept its exact category
    # no 2005->2015 pair for unit 4 or anyone: only consecutive elections
    assert set(zip(t["year_from"], t["year_to"])) == {(2005, 2010), (2010, 2015)}


def _row(df, a, g):
    r = df[(df["year_from"] == a) & (df["group"] == g)]
    assert len(r) == 1
    return r.iloc[0]


def test_state_wide_repeat_rates_and_the_chance_expectation_by_hand(history):
    r = rf.repeat_rates(history, DISTRICT)
    assert list(r.columns) == rf.RATE_COLUMNS
    # 2005->2010: 5 units, 2 kept the group (units 1 and 4), none the category.
    # Chance, inside each district: A (3 blocks): earlier SC, OBC, GEN; later SC, GEN, OBC -> 1/3 each, 1 in all.
    # B (2 blocks): earlier GEN, SC; later GEN, OBC -> GEN 1*1/2, SC 1*0/2 -> 1/2. State: 3/2.
    a = _row(r, 2005, "all")
    assert (a["units"], a["same_group"], a["same_category"]) == (5, 2, 0)
    assert a["same_group_pct"] == 40.0 and a["expected_same_group"] == 1.5 and a["expected_pct"] == 30.0
    sc = _row(r, 2005, "SC")                      # units 1 and 5; unit 1 stayed SC
    assert (sc["units"], sc["same_group"], sc["expected_same_group"]) == (2, 1, 0.33)
    assert sc["same_group_pct"] == 50.0 and sc["expected_pct"] == 16.7
    gen = _row(r, 2005, "GEN")                    # units 3 and 4; unit 4 stayed general; chance 1/3 + 1/2
    assert (gen["units"], gen["same_group"], gen["expected_same_group"], gen["expected_pct"]) == (2, 1, 0.83, 41.7)
    st = _row(r, 2005, "ST")
    assert st["units"] == 0 and math.isnan(st["same_group_pct"])
    # 2010->2015: units 1, 2, 3, 5; only unit 3 (OBC) kept its group. Chance: A later all OBC -> the one OBC
    # block of A keeps it with probability 3/3 = 1; B: earlier OBC, later SC -> 0.
    b = _row(r, 2010, "all")
    assert (b["units"], b["same_group"], b["expected_same_group"]) == (4, 1, 1.0)
    obc = _row(r, 2010, "OBC")
    assert (obc["units"], obc["same_group"], obc["same_group_pct"], obc["expected_same_group"]) == (2, 1, 50.0, 1.0)


def test_without_districts_the_chance_is_taken_over_the_whole_table(history):
    r = rf.repeat_rates(history)
    # 2005->2010 as one place of 5: earlier SC 2, OBC 1, GEN 2; later SC 1, OBC 2, GEN 2 -> (2*1 + 1*2 + 2*2)/5
    assert _row(r, 2005, "all")["expected_same_group"] == 1.6


def test_per_district_rows(history):
    r = rf.repeat_rates(history, DISTRICT, per_district=True)
    assert list(r.columns) == ["district"] + rf.RATE_COLUMNS
    a = r[(r["district"] == "A") & (r["year_from"] == 2005) & (r["group"] == "all")].iloc[0]
    assert (a["units"], a["same_group"], a["expected_same_group"]) == (3, 1, 1.0)
    b = r[(r["district"] == "B") & (r["year_from"] == 2010) & (r["group"] == "all")].iloc[0]
    assert (b["units"], b["same_group"], b["expected_same_group"]) == (1, 0, 0.0)


def test_a_district_column_in_the_history_is_used_like_the_mapping(history):
    with_col = history.assign(district=history["unit_code"].map(DISTRICT))
    assert rf.repeat_rates(with_col).equals(rf.repeat_rates(history, DISTRICT))


def test_group_sequences(history):
    s = rf.group_sequences(history).set_index("unit_code")
    assert list(s.columns[:3]) == ["2005", "2010", "2015"]
    assert s.at[1, "groups"] == "SC > SC > OBC" and s.at[1, "categories"] == "SC > SC_W > OBC"
    assert s.at[4, "groups"] == "GEN > GEN > -" and s.at[4, "2015"] == ""
    assert s["changes"].to_dict() == {1: 1, 2: 2, 3: 1, 4: 0, 5: 2}
    # kept a reserved group in two elections running: unit 1 (SC) and unit 3 (OBC); unit 4 kept GEN, not reserved
    assert s["held_twice_running"].to_dict() == {1: True, 2: False, 3: True, 4: False, 5: False}


@pytest.mark.parametrize("bad, message", [
    (pd.DataFrame({"unit_code": [1], "year": [2005], "category": ["XX"]}), "unknown category"),
    (pd.DataFrame({"unit_code": [1, 1], "year": [2005, 2005], "category": ["SC", "UR"]}), "two records"),
    (pd.DataFrame({"unit": [1], "year": [2005], "category": ["SC"]}), "lacks column"),
])
def test_bad_tables_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        rf.transitions(bad)


def test_a_unit_without_district_is_refused(history):
    with pytest.raises(ValueError, match="no district"):
        rf.repeat_rates(history, {1: "A"})
