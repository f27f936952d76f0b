"""``reservation design`` (issue 21 item 6): the assignment as data, read from the engine's records of each pass.

The golden values are worked by hand from tests/fixtures/toy/README.md (five.csv, saturation.csv and the gram
pradhan block of tests/fixtures/units/pradhan_toy.csv): the order of each pass, its cut-off and every margin.
"""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import reservation
from reservation.inputs.units import load_districts
from reservation.projection.design import DESIGN_COLUMNS, design, read_design
from reservation.projection.project import project

from conftest import FIXTURES, assert_refused, run_cli

UNITS = FIXTURES / "units"


def _five(toy, **kw):
    return design("zp-chair", 2021, units=load_districts(toy / "five.csv"), history=[toy / "five_history_2015.csv"],
                  **kw)


def _rows(t, pass_name):
    return t[t["pass"] == pass_name].set_index("unit_name_en")


def test_five_district_toy_ranks_cutoffs_and_margins_by_hand(toy):
    t = _five(toy, probabilities=False).table
    assert list(t.columns) == DESIGN_COLUMNS
    # ST has no post (no ST population): no unit is a candidate; W has no post either (README: W 0)
    assert set(t["pass"]) == {"SC_W+SC", "OBC_W+OBC"}
    sc = _rows(t, "SC_W+SC")
    # SC pass: Alpha held SC_W in 2015 (tier 3); Beta 30 %, Gamma 20 %, Delta 10 %, Epsilon 0 % in tier 1; one post
    assert list(sc.index) == ["Beta", "Gamma", "Delta", "Epsilon", "Alpha"]
    assert sc["tier"].tolist() == [1, 1, 1, 1, 3]
    assert sc["rank"].tolist() == [1, 2, 3, 4, 5]
    assert sc["key_rank"].tolist() == [2, 3, 4, 5, 1]               # by the SC share alone Alpha (40 %) is first
    assert (sc["pool"] == 5).all() and (sc["posts"] == 1).all()
    assert (sc["cutoff"] == 1).all() and (sc["cutoff_tier"] == 1).all()
    assert sc["margin"].tolist() == [0, 1, 2, 3, 4]
    assert sc["key"].tolist() == ["3/10", "1/5", "1/10", "0", "2/5"]
    assert (sc["cutoff_key"] == "3/10").all()
    # Alpha's key is above the cut-off's (+1/10) and it is not taken: its tier, not its share, kept it out
    assert [Fraction(x) for x in sc["key_margin"]] == [0, Fraction(-1, 10), Fraction(-1, 5), Fraction(-3, 10),
                                                       Fraction(1, 10)]
    assert sc["taken"].tolist() == [True, False, False, False, False]
    assert sc.loc["Beta", "category_taken"] == "SC_W" and (sc["key_basis"] == "public").all()
    assert (sc["tied"] == 0).all() and (sc["tie_break"] == "").all()
    obc = _rows(t, "OBC_W+OBC")
    # OBC pass (Beta out): the shares are a stand-in (all equal), ties by the lower code; Gamma OBC in 2015: tier 3
    assert list(obc.index) == ["Alpha", "Delta", "Epsilon", "Gamma"]
    assert obc["tier"].tolist() == [1, 1, 1, 3] and obc["margin"].tolist() == [0, 1, 2, 3]
    assert (obc["key_basis"] == "stand_in").all() and (obc["key_margin"] == "0").all()
    assert (obc["tied"] == 3).all() and (obc["tie_break"] == "code").all()
    assert obc.loc["Alpha", "category_taken"] == "OBC_W" and obc["taken"].sum() == 1
    final = t.drop_duplicates("unit_name_en").set_index("unit_name_en")
    assert final["category"].to_dict() == {"Alpha": "OBC_W", "Beta": "SC_W", "Gamma": "UR", "Delta": "UR",
                                           "Epsilon": "UR"}
    assert final.loc["Gamma", "decided_by"] == "UR" and final.loc["Alpha", "decided_by"] == "OBC_W+OBC"
    assert t["probability"].str.startswith("none: not asked").all() and t["P_UR"].isna().all()


def test_division_rule_leaves_a_unit_out_above_the_cutoff(toy):
    d = design("zp-chair", 2021, units=load_districts(toy / "saturation.csv"), history=[],
               options=[("saturation_effect", "barred"), ("tie_break", "population")], probabilities=False)
    sc = _rows(d.table, "SC_W+SC")
    # README: Dogwood 45 %, Elm 40 %, Ash 30 %, Birch 25 %, Cedar 0 %; two posts; Elm would make South all SC
    assert list(sc.index) == ["Dogwood", "Elm", "Ash", "Birch", "Cedar"]
    assert (sc["cutoff"] == 3).all()                                # the last unit taken is Ash, third
    assert sc["margin"].tolist() == [-2, -1, 0, 1, 2]
    assert sc.loc["Elm", "left_out_division"] and not sc.loc["Elm", "eligible"] and not sc.loc["Elm", "taken"]
    assert sc.loc["Elm", "key_margin"] == "1/10"                    # 40 % against Ash's 30 %
    assert sc["taken"].tolist() == [True, False, True, False, False]
    assert sc.loc["Dogwood", "category_taken"] == "SC_W" and sc.loc["Ash", "category_taken"] == "SC"
    obc = _rows(d.table, "OBC_W+OBC")                               # Elm (1,500) first by population
    assert list(obc.index) == ["Elm", "Birch", "Cedar"] and obc["tie_break"].tolist() == ["population"] * 3


def test_gram_pradhan_block_by_hand_through_the_command(tmp_path):
    pins = tmp_path / "pins.csv"
    pins.write_text("unit,category\n6,UR\n", encoding="utf-8")
    out = tmp_path / "gp.csv"
    code, stdout, err = run_cli(["design", "--body", "gp-pradhan", "--year", "2021", "--units",
                                 UNITS / "pradhan_toy.csv", "--history", UNITS / "pradhan_toy_2015.csv",
                                 "--pin", pins, "--no-probabilities", "--out", out])
    assert code == 0, err
    t = read_design(out)
    sc = _rows(t, "SC_W+SC")
    # README: GP One held SC in 2015 (tier 3); Two (40 %) SC_W, Three (30 %) SC; GP Six is pinned (no pass)
    assert list(sc.index) == ["GP Two", "GP Three", "GP Four", "GP Five", "GP One"]
    assert sc["margin"].tolist() == [-1, 0, 1, 2, 3] and (sc["cutoff"] == 2).all() and (sc["pool"] == 5).all()
    assert sc["key_margin"].tolist() == ["1/10", "0", "-1/10", "-1/5", "1/5"]
    six = t[t["unit_name_en"] == "GP Six"]
    assert len(six) == 1 and six["pass"].iat[0] == "" and six["decided_by"].iat[0] == "pin"
    assert pd.isna(six["rank"].iat[0])
    assert (tmp_path / "gp.meta.json").is_file()


@pytest.fixture(scope="module")
def zp2021():
    return design("zp-chair", 2021, probabilities=False), reservation.allot("zp-chair", 2021)


def test_zp_chair_2021_taken_agrees_with_the_allotment(zp2021):
    d, a = zp2021
    t = d.table
    cat = dict(zip(a.table["unit_code"], a.table["category"]))
    taken = t[t["taken"].fillna(False)]
    assert taken["unit_code"].is_unique                             # a unit takes at most one post
    assert all(cat[u] == c for u, c in zip(taken["unit_code"], taken["category_taken"]))
    rest = set(cat) - set(taken["unit_code"])
    assert rest and all(cat[u] == "UR" for u in rest)
    assert all(cat[u] == c for u, c in zip(t["unit_code"], t["category"]))
    for name, g in t.groupby("pass"):                               # each pass takes its posts, and the cut-off
        assert g["taken"].sum() == g["posts"].iat[0]                # is the rank of the last unit taken
        assert g.loc[g["taken"], "rank"].max() == g["cutoff"].iat[0]
        assert (g["margin"] == g["rank"] - g["cutoff"]).all()
    assert set(t["unit_code"]) == set(cat)


def test_probabilities_are_the_projections(toy):
    d = _five(toy, samples=40, seed=3)
    p = project("zp-chair", 2021, units=load_districts(toy / "five.csv"),
                history=[toy / "five_history_2015.csv"], samples=40, seed=3, progress=False)
    want = p.table.set_index("unit_code")
    for _, r in d.table.iterrows():
        for c in ("P_SC_W", "P_OBC_W", "P_UR"):
            assert r[c] == want.loc[r["unit_code"], c]
        assert r["certain"] == want.loc[r["unit_code"], "certain"]
    beta = d.table[d.table["unit_name_en"] == "Beta"].iloc[0]
    assert beta["P_SC_W"] == 1 and beta["certain"] and beta["probability"].startswith("certain")
    delta = d.table[d.table["unit_name_en"] == "Delta"].iloc[0]
    assert not delta["certain"] and delta["probability"].startswith("sampled: the share of 40")
    assert d.meta["design"]["probabilities"]["seed"] == 3


def test_given_obc_figures_make_the_key_given_and_nothing_unknown(toy, tmp_path):
    pop = tmp_path / "pop.csv"
    pop.write_text("unit,obc\nAlpha,100\nBeta,200\nGamma,300\nDelta,400\nEpsilon,500\n", encoding="utf-8")
    d = design("zp-chair", 2021, units=load_districts(toy / "five.csv"), history=[toy / "five_history_2015.csv"],
               population=pop)
    obc = _rows(d.table, "OBC_W+OBC")
    assert (obc["key_basis"] == "given").all()
    # Gamma is tier 3; tier 1 by OBC share: Epsilon 50 %, Delta 40 %, Alpha 10 %
    assert list(obc.index) == ["Epsilon", "Delta", "Alpha", "Gamma"] and obc["key"].tolist()[:3] == [
        "1/2", "2/5", "1/10"]
    assert d.table["certain"].all() and d.table["probability"].str.contains("OBC figures were given").all()


def test_csv_and_parquet_round_trip(tmp_path, main):
    args = ["design", "--body", "gp-pradhan", "--year", "2021", "--units", str(UNITS / "pradhan_toy.csv"),
            "--history", str(UNITS / "pradhan_toy_2015.csv"), "--samples", "20"]
    assert main(args + ["--out", str(tmp_path / "d.csv")]) == 0
    assert main(args + ["--out", str(tmp_path / "d.parquet")]) == 0
    assert main(args + ["--out", str(tmp_path / "again.csv")]) == 0          # same inputs, the same bytes
    assert (tmp_path / "again.csv").read_bytes() == (tmp_path / "d.csv").read_bytes()
    a, b = read_design(tmp_path / "d.csv"), read_design(tmp_path / "d.parquet")
    d = design("gp-pradhan", 2021, units=UNITS / "pradhan_toy.csv", history=[UNITS / "pradhan_toy_2015.csv"],
               samples=20)
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(b, d.table, check_dtype=False)
    assert (a["key_margin"] == "-1/10").any()                       # the guard's ' is read back off
    raw = (tmp_path / "d.csv").read_text(encoding="utf-8")
    assert "'-1/10" in raw                                           # and a spreadsheet never runs it
    import json
    meta = json.loads((tmp_path / "d.meta.json").read_text(encoding="utf-8"))
    assert meta["design"]["columns"]["margin"] and meta["body"] == "gp-pradhan"
    probs = a.drop_duplicates("unit_code")[[c for c in a.columns if c.startswith("P_")]]
    assert np.allclose(probs.sum(axis=1), 1)                         # each unit's probabilities add up to 1


def test_bad_input_is_one_line_and_writes_nothing(tmp_path, out_folder):
    bad = tmp_path / "h.csv"
    bad.write_text("unit,year,category\n1,2015,XX\n", encoding="utf-8")
    r = run_cli(["design", "--body", "gp-pradhan", "--year", "2021", "--units", UNITS / "pradhan_toy.csv",
                 "--history", bad, "--out", out_folder.dir / "new.csv"])
    assert_refused(r, file=bad.name, row=2, column="category")
    assert out_folder.unchanged()
    assert_refused(run_cli(["design", "--body", "zp-chair", "--year", "2021", "--samples", "0"]), words=["--samples"])
    assert_refused(run_cli(["design", "--body", "zp-chair", "--year", "2021", "--out", out_folder.dir / "notes.txt"]),
                   option="--out")         # the user's own file, and not a table format: refused before any run
    assert out_folder.unchanged()


def test_a_body_the_projection_cannot_handle_says_why_and_keeps_its_rows(monkeypatch):
    # The Mayors' women's pass ranks by population, a key of declared kind PEOPLE (public). Without that kind
    # among the keys the proof knows (as before it was declared), its basis is "unknown", the OBC pass's a
    # stand-in, and no unit gets a probability, each row saying why
    from reservation.allotment import certainty
    from reservation.rules.keys import KeyKind
    monkeypatch.setattr(certainty, "_KEY_KINDS", {k: v for k, v in certainty._KEY_KINDS.items()
                                                  if k is not KeyKind.PEOPLE})
    d = design("mayor", 2023, samples=2)
    t = d.table
    assert set(t.loc[t["pass"] == "W", "key_basis"]) == {"unknown"}
    assert set(t.loc[t["pass"] == "OBC_W+OBC", "key_basis"]) == {"stand_in"}
    assert t["P_UR"].isna().all() and t["certain"].isna().all()
    assert t["probability"].str.startswith("none: the projection cannot be made").all()
    assert "GEN pass" in t["probability"].iat[0]


def test_the_mayors_women_pass_is_public_and_gets_probabilities():
    t = design("mayor", 2023, samples=2).table
    assert set(t.loc[t["pass"] == "W", "key_basis"]) == {"public"}
    probs = t.drop_duplicates("unit_code")[[f"P_{c}" for c in ("ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC", "W",
                                                                 "UR")]]
    assert probs.notna().all().all() and np.allclose(probs.sum(axis=1), 1.0)
