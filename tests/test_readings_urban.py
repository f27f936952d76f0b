"""The urban readings of s.9-A(5) (2023), through the public API: each option against its evidence, and the
totals by body type against the published 2023 figures (notes/readings_urban.md)."""
from fractions import Fraction

import pytest

import reservation
from reservation.rules.urban import URBAN_OPTIONS, urban_counts
from reservation.rules.urban_divisions import women_cycle

TYPES = ("mayor", "pp-chair", "np-chair")


def totals(body, options=()):
    c = dict(zip(*[reservation.allot(body, 2023, options=list(options)).counts[k] for k in ("category", "count")]))
    return {"SC": c["SC_W"] + c["SC"], "ST": c["ST_W"] + c["ST"], "OBC": c["OBC_W"] + c["OBC"],
            "women": c["SC_W"] + c["ST_W"] + c["OBC_W"] + c["W"], "offices": c["TOTAL"]}


@pytest.fixture(scope="module")
def default_totals():
    return {b: totals(b) for b in TYPES}


def test_totals_by_body_type_on_the_shipped_list(default_totals):
    # the table of notes/readings_urban.md (defaults: women_level=division, general_women=third_of_rest,
    # obc_cap_rounding=half_up, division_population=same_type)
    assert default_totals["mayor"] == {"SC": 2, "ST": 0, "OBC": 4, "women": 6, "offices": 17}      # = published
    assert default_totals["pp-chair"] == {"SC": 22, "ST": 0, "OBC": 54, "women": 82, "offices": 199}
    assert default_totals["np-chair"] == {"SC": 79, "ST": 2, "OBC": 146, "women": 201, "offices": 541}


def test_totals_in_all_against_the_published_2023_figures(default_totals):
    # published for the 760 chairs (draft of 30 Mar 2023): OBC 205, SC 110, ST 2, women 288
    got = {k: sum(default_totals[b][k] for b in TYPES) for k in ("SC", "ST", "OBC", "women", "offices")}
    assert got == {"SC": 103, "ST": 2, "OBC": 204, "women": 289, "offices": 757}
    published = {"SC": 110, "ST": 2, "OBC": 205, "women": 288, "offices": 760}
    # what is left: 3 Nagar Panchayats not named by any source reached (OBC 27 % of 544 = 146.88 -> 147, of
    # 541 = 146.07 -> 146) and SC 7 short (the SC shares of the bodies' 2011 figures are below the 2023 ones)
    assert published["OBC"] - got["OBC"] == 1 and published["offices"] - got["offices"] == 3
    assert abs(published["women"] - got["women"]) == 1


def test_women_readings_and_which_published_figure_each_reproduces():
    women = {}
    for name, opts in {"division+third_of_rest": [], "division+total_minus_category":
                       [("general_women", "total_minus_category")], "state": [("women_level", "state")]}.items():
        women[name] = sum(totals(b, opts)["women"] for b in TYPES)
    # 288 published in 2023; 255 = one-third at State level (Dec 2022, old law, 545 NPs)
    assert women == {"division+third_of_rest": 289, "division+total_minus_category": 263, "state": 255}
    assert URBAN_OPTIONS["women_level"].default == "division"
    assert URBAN_OPTIONS["general_women"].default == "third_of_rest"


def test_state_reading_keeps_the_state_women_counts_of_b():
    for body in ("pp-chair", "np-chair"):
        state = dict(zip(*[urban_counts(body, 2023)[k] for k in ("category", "count")]))
        a = reservation.allot(body, 2023, options=[("women_level", "state")])
        got = dict(zip(a.counts["category"], a.counts["count"]))
        assert all(got[c] == state[c] for c in ("SC_W", "ST_W", "OBC_W", "W", "SC", "ST", "OBC", "UR"))
        d = a.extra["divisions"]
        assert (d["women"] <= d["final"]).all() and d["clause"].str.contains("women cycle").any()


def test_division_reading_rounds_up_in_every_division():
    # issue 12: 12 SC women of 22 Palika Parishad SC chairs, 24 of 54 OBC, 2 ST women of 2 Nagar Panchayat ST chairs
    pp = reservation.allot("pp-chair", 2023).extra["divisions"]
    sc = pp[pp["category"] == "SC"]
    assert (sc["final"].sum(), sc["women"].sum()) == (22, 12)
    assert all(w == -(-k // 3) for k, w in zip(sc["final"], sc["women"]))
    np_ = reservation.allot("np-chair", 2023).extra["divisions"]
    st = np_[np_["category"] == "ST"]
    assert (st["final"].sum(), st["women"].sum()) == (2, 2)


def test_women_cycle_by_hand():
    # 5 women among divisions with 3, 2, 0, 4 category offices (9): integer parts 5x3/9=1, 5x2/9=1, 0, 5x4/9=2
    # -> 4; one left, to the highest share among divisions with room: D (share 3/10) before A (1/5)
    w, text = women_cycle(5, [3, 2, 0, 4], [Fraction(1, 5), Fraction(1, 10), Fraction(1, 2), Fraction(3, 10)],
                          ["A", "B", "C", "D"])
    assert list(w) == [1, 1, 0, 3] and "round(s) 1" in text[3]
    # never more women than offices, however the shares run
    w, _ = women_cycle(4, [1, 1, 1, 1], [0, 0, 0, 0], list("ABCD"))
    assert list(w) == [1, 1, 1, 1]


def test_obc_cap_option_states_the_contradiction_and_half_up_gives_the_published_54():
    o = URBAN_OPTIONS["obc_cap_rounding"]
    assert o.default == "half_up" and "CONTRADICTION" in o.evidence and "146.88" in o.evidence
    assert totals("pp-chair")["OBC"] == 54                                       # 27 % of 199 = 53.73
    assert totals("pp-chair", [("obc_cap_rounding", "floor")])["OBC"] == 53


@pytest.mark.parametrize("basis", ["all_bodies", "census_urban"])
def test_total_urban_population_of_the_division(basis):
    same = reservation.allot("pp-chair", 2023).extra["divisions"]
    other = reservation.allot("pp-chair", 2023, options=[("division_population", basis)]).extra["divisions"]
    for grp in ("SC", "ST", "OBC"):                 # (c) shares what (b) fixed: the State totals do not move
        assert other[other["category"] == grp]["final"].sum() == same[same["category"] == grp]["final"].sum()
    s1 = same[same["category"] == "SC"].set_index("division")["share"]
    s2 = other[other["category"] == "SC"].set_index("division")["share"]
    assert (s1 != s2).any()


def test_census_urban_share_is_the_districts_sum():
    import pandas as pd
    dist = pd.read_csv(reservation.__path__[0] + "/../data/districts.csv")
    lko = dist[dist["division_en"] == "Lucknow"]
    want = Fraction(int(lko["sc_urban"].sum()), int(lko["tot_p_urban"].sum()))
    d = reservation.allot("pp-chair", 2023, options=[("division_population", "census_urban")]).extra["divisions"]
    got = d[(d["category"] == "SC") & (d["division"] == "Lucknow")]["share"].iat[0]
    assert got.startswith(f"{float(want * 100):.4f}"[:6])


def test_mayor_women_cite_the_corporations_act():
    a = reservation.allot("mayor", 2023)
    women_rows = a.counts[a.counts["category"].isin(["SC_W", "ST_W", "OBC_W", "W"])]
    assert women_rows["clause"].str.startswith("s.7 UP Municipal Corporations Act").all()
    assert not a.counts["clause"].str.contains("9-A").any()
    assert not a.table["clause"].str.contains("9-A").any()
