"""How far the gram panchayat figures can be trusted (issue 21 item 5): benchmarks/gp_figures_trust.py on a
hand-made block whose figures are worked out by hand below, and the headline that README and data/README.md quote
against the script's own run (notes/consistency.md)."""

import math

import numpy as np
import pandas as pd
import pytest

from conftest import ROOT, script_module

gt = script_module(ROOT / "benchmarks" / "gp_figures_trust.py")

# One block. key: the engine's order key (ascending = higher SC share); tier: the engine's SC tier.
#   code tier key  State  engine  figures
#   1    1    10   UR     SC      yes
#   2    1    20   SC     SC      yes      (ties with 4)
#   3    1    30   UR     UR      yes
#   4    1    20   OBC    UR      yes
#   5    1    50   SC_W   UR      yes
#   6    3     5   UR     UR      yes
#   7    3    15   SC     UR      yes
#   8    1    99   SC     UR      none     -> not compared, not in the chance set
#   9    1    40   ST     ST      yes      -> not compared (ST in the State's list), not in the engine's SC pool
HAND = [(1, 1, 10, "UR", "SC", True), (2, 1, 20, "SC", "SC", True), (3, 1, 30, "UR", "UR", True),
        (4, 1, 20, "OBC", "UR", True), (5, 1, 50, "SC_W", "UR", True), (6, 3, 5, "UR", "UR", True),
        (7, 3, 15, "SC", "UR", True), (8, 1, 99, "SC", "UR", False), (9, 1, 40, "ST", "ST", True)]


def hand() -> pd.DataFrame:
    f = pd.DataFrame(HAND, columns=["unit_code", "tier", "key", "state_cat", "engine_cat", "has_figures"])
    f["block"] = 0
    f["district_en"] = "D"
    f["figures"] = np.where(f["has_figures"], "name_match", "none")
    f["block_covered"] = "0.9000"
    f["state_sc"] = f["state_cat"].isin(["SC", "SC_W"])
    f["engine_sc"] = f["engine_cat"].isin(["SC", "SC_W"])
    f["ranked"] = f["has_figures"] & (f["state_cat"] != "ST")
    f["dealt"] = f["has_figures"] & (f["engine_cat"] != "ST")
    return f


def test_the_measure_of_a_hand_made_block():
    rows = gt.measure(hand()).set_index("unit_code")
    assert sorted(rows.index) == [2, 5, 7]               # 8 has no figures: not compared
    # tier 1 compared: 1 (10), 2 and 4 (20, mid-rank 2.5), 3 (30), 5 (50): m = 5; tier 3: 6 (5), 7 (15): m = 2
    assert rows.loc[2, "pct"] == pytest.approx((2.5 - 0.5) / 5)     # 0.4
    assert rows.loc[5, "pct"] == pytest.approx((5 - 0.5) / 5)       # 0.9
    assert rows.loc[7, "pct"] == pytest.approx((2 - 0.5) / 2)       # 0.75
    # chance: the engine's 2 SC posts of tier 1 among its 5 gram panchayats with figures in the SC pool; none in
    # tier 3
    assert rows["chance"].tolist() == pytest.approx([0.4, 0.4, 0.0])
    # at equal numbers: tier 1 takes 2 (1, then 2 before 4 by code), tier 3 takes 1 (6)
    assert rows["top"].tolist() == [True, False, False]
    s = gt.summary(rows.reset_index(), reps=50, seed=1)
    assert s["n"] == 3 and s["agreed"] == 1 and s["top"] == 1 and s["tier3"] == 1
    assert s["mean_pct"] == pytest.approx((0.4 + 0.9 + 0.75) / 3)           # 41/60
    assert s["ideal"] == pytest.approx((2 / 10 + 2 / 10 + 1 / 4) / 3)       # 13/60
    assert s["index"] == pytest.approx(-11 / 17)                             # (30 - 41) / (30 - 13)
    assert s["agree"] == pytest.approx(1 / 3)
    assert s["chance"] == pytest.approx(4 / 15)
    assert s["chance_block"] == pytest.approx(2 / 7)                         # 2 posts, 7 dealt (not 8, not 9)
    assert s["ceiling"] == pytest.approx(2 / 3)                              # tier 1: 2 of 2; tier 3: 0 of 1
    assert s["top_chance"] == pytest.approx((2 / 5 + 2 / 5 + 1 / 2) / 3)
    # under chance: tier 1 a sum of 2 of the percentiles .1 .3 .5 .7 .9 without replacement, variance
    # 2 * 0.08 * 3/4 = 0.12; tier 3 one of .25 .75, variance 0.0625
    assert s["null_hi"] - 0.5 == pytest.approx(1.96 * math.sqrt(0.12 + 0.0625) / 3)
    assert s["agree_lo"] < 1 / 3 < s["agree_hi"]


def test_the_distance_from_the_cut_off_of_a_hand_made_block():
    # tier 1 by key, then code: 1, 2, 4, 3, 5 (S = 2: d = -2, -1, 0, 1, 2); tier 3: 6, 7 (S = 1: d = -1, 0)
    t = gt.cutoff(hand()).set_index("distance")
    assert t.loc["inside, 1-2 places", ["gps", "state_sc"]].tolist() == [3, 1]     # 1 UR, 2 SC, 6 UR
    assert t.loc["outside, 1-2 places", ["gps", "state_sc"]].tolist() == [3, 1]    # 4 OBC, 3 UR, 7 SC
    assert t.loc["outside, 3-5 places", ["gps", "state_sc"]].tolist() == [1, 1]    # 5 SC_W
    assert t["gps"].sum() == 7


def test_the_bootstrap_is_seeded_and_the_placebo_keeps_each_block_s_keys():
    f = pd.concat([hand(), hand().assign(block=1, unit_code=lambda d: d["unit_code"] + 100)], ignore_index=True)
    rows = gt.measure(f)
    assert gt.summary(rows, reps=200, seed=7) == gt.summary(rows, reps=200, seed=7)
    p = gt.placebo(f, seed=3)
    for b in (0, 1):
        assert sorted(p.loc[p["block"] == b, "key"]) == sorted(f.loc[f["block"] == b, "key"])
    assert (p.drop(columns="key") == f.drop(columns="key")).all().all()


def test_the_coverage_bands():
    assert gt.band_of(pd.Series(["0.2370", "0.5000", "0.8499", "0.8500", "1.0000"])).tolist() == [
        "under 50 %", "50-70 %", "70-85 %", "85 % or more", "85 % or more"]


@pytest.fixture(scope="module")
def state():
    frame, assumptions = gt.engine_frame()
    return frame, assumptions, gt.summary(gt.measure(frame))


def test_the_engine_run_is_the_default_one_and_its_tiers_pass_over_2010(state):
    frame, assumptions, _ = state
    assert any(a.startswith("base year 2010") for a in assumptions)
    sc2010 = set(gt.state_list(2010).query("state_cat in ['SC', 'SC_W']")["unit_code"])
    t = frame.set_index("unit_code")["tier"]
    assert (t[t.index.isin(sc2010)] == 3).all() and (t[~t.index.isin(sc2010)] == 1).all()


def test_the_placebo_on_the_shipped_figures_is_chance(state):
    s = gt.summary(gt.measure(gt.placebo(state[0])))
    assert s["null_lo"] - 0.01 < s["mean_pct"] < s["null_hi"] + 0.01
    assert abs(s["index"]) < 0.05 and abs(s["top"] / s["n"] - s["top_chance"]) < 0.02


def test_the_readme_quotes_the_script_s_headline(state):
    s = state[2]
    assert s["pct_hi"] < s["null_lo"]                   # the figures carry the State's order, far from chance
    quoted = (f"mean percentile {s['mean_pct']:.3f} (95 % {s['pct_lo']:.3f}-{s['pct_hi']:.3f}; chance 0.5, ideal "
              f"{s['ideal']:.3f}), index {s['index']:.2f}")
    for doc in ("README.md", "data/README.md", "notes/consistency.md"):
        text = " ".join((ROOT / doc).read_text(encoding="utf-8").split())
        assert quoted in text, (doc, quoted)
        assert f"{s['top']:,} of {s['n']:,}" in text, doc
    text = " ".join((ROOT / "docs" / "panchayat.md").read_text(encoding="utf-8").split())
    assert f"(index {s['index']:.2f}," in text and f"at equal numbers {100 * s['top'] / s['n']:.1f} %" in text
