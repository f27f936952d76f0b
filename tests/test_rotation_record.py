"""The rotation record (issue 21 item 5): benchmarks/rotation_record.py on a hand-made history whose rates and
tiers are worked out by hand below, the figures the evidence quotes against the script, and the default base
years that the record decides (gram pradhans 2015: 2010; block pramukhs 2010 and 2015: 2005), pinned by the
published 2015 pramukh list (notes/record.md, docs/ambiguities.md A8)."""

import warnings

import pandas as pd
import pytest

import reservation
from reservation.law.categories import by_code
from reservation.rules.registry import get_rulebook

from conftest import ROOT, script_module

rr = script_module(ROOT / "benchmarks" / "rotation_record.py")

# Two blocks: B1 = gram panchayats 1-4, B2 = 5-6; three elections.
HAND = {2005: ["SC", "OBC", "W", "UR", "SC_W", "UR"],
        2010: ["UR", "SC", "OBC", "W", "UR", "SC"],
        2015: ["SC", "OBC", "UR", "UR", "UR", "SC_W"]}


def hand() -> pd.DataFrame:
    rows = [{"unit_code": u + 1, "year": y, "category": c, "block": "B1" if u < 4 else "B2"}
            for y, cats in HAND.items() for u, c in enumerate(cats)]
    return pd.DataFrame(rows)


def _row(rates, label):
    return rates.set_index("label").loc[label]


def test_the_exact_interval_is_clopper_pearson():
    # 0 of 10: the upper bound solves (1 - p)^10 = 0.025; 5 of 10: the published table's 0.1871-0.8129
    lo, hi = rr.clopper_pearson(0, 10)
    assert lo == 0 and hi == pytest.approx(1 - 0.025 ** 0.1, abs=1e-9)
    lo, hi = rr.clopper_pearson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.1871, 0.8129)
    lo, hi = rr.clopper_pearson(10, 10)
    assert hi == 1 and lo == pytest.approx(0.025 ** 0.1, abs=1e-9)


def test_rates_of_a_hand_made_history():
    h = hand()
    r = rr.pair_rates(h, 2005, 2015, "block")
    # SC offices of 2005: GP 1 (SC) and GP 5 (SC_W); in 2015 GP 1 is SC again, GP 5 UR: 1 of 2. SC offices of
    # 2015: GP 1 and GP 6 of 6 -> base 1/3; by chance inside the block: GP 1 in B1 (1 of 4), GP 5 in B2 (1 of 2)
    sc = _row(r, "SC+SC_W")
    assert (sc["compared"], sc["n"], sc["k"]) == (6, 2, 1)
    assert sc["rate"] == 0.5 and sc["base"] == pytest.approx(1 / 3) and sc["expected"] == pytest.approx(3 / 8)
    assert (_row(r, "SC")["n"], _row(r, "SC")["k"]) == (1, 1)
    assert (_row(r, "SC_W")["n"], _row(r, "SC_W")["k"]) == (1, 0)
    # OBC of 2005: GP 2, OBC again in 2015; OBC in 2015: GP 2 only (1/6); in B1 1 of 4
    obc = _row(r, "OBC+OBC_W")
    assert (obc["n"], obc["k"], obc["base"], obc["expected"]) == (1, 1, pytest.approx(1 / 6), 0.25)
    r = rr.pair_rates(h, 2010, 2015, "block")
    # SC of 2010: GP 2 (OBC in 2015) and GP 6 (SC_W in 2015): 1 of 2 in the group, 0 of 2 in the category SC
    assert (_row(r, "SC+SC_W")["n"], _row(r, "SC+SC_W")["k"]) == (2, 1)
    assert (_row(r, "SC")["n"], _row(r, "SC")["k"]) == (2, 0)
    r = rr.pair_rates(h, 2005, 2010, "block")
    # general (W, UR) of 2005: GPs 3, 4, 6; in 2010 only GP 4 (W); general in 2010: GPs 1, 4, 5 = 1/2
    gen = _row(r, "W+UR")
    assert (gen["n"], gen["k"], gen["base"], gen["expected"]) == (3, 1, 0.5, 0.5)
    # without a counting unit the chance expectation is the base rate
    r = rr.pair_rates(h, 2005, 2015)
    assert _row(r, "SC+SC_W")["expected"] == pytest.approx(1 / 3)


def test_tiers_of_a_hand_made_history_under_each_reading():
    t = rr.tier_test(hand(), 2015, rr.readings_for([2005, 2010, 2015], 2015), "block")
    t = t.set_index(["reading", "group"])
    # base year 2005: SC of B1 went to GP 1 (SC in 2005 only: tier 2) while GPs 3 and 4 (never SC) were left:
    # 1 out of order; B2's SC_W went to GP 6 (SC in 2010: tier 3) while GP 5 (SC_W in 2005: tier 2) was left: 1.
    # OBC of B1 went to GP 2 (OBC in 2005: tier 2) while GP 4 (never OBC) was left: 1.
    sc = t.loc[("base year 2005", "SC")]
    assert (sc["posts"], sc["tier1"], sc["tier2"], sc["tier3"], sc["out_of_order"]) == (2, 0, 1, 1, 2)
    obc = t.loc[("base year 2005", "OBC")]
    assert (obc["posts"], obc["tier2"], obc["out_of_order"]) == (1, 1, 1)
    # base year 2010 (= last_only): GP 1 and GP 2 are tier 1; only B2's GP 6 (SC in 2010) over GP 5 is out of order
    sc = t.loc[("base year 2010 = last_only", "SC")]
    assert (sc["tier1"], sc["tier3"], sc["out_of_order"]) == (1, 1, 1)
    assert t.loc[("base year 2010 = last_only", "OBC"), "out_of_order"] == 0
    # afresh: every unit is tier 1
    assert t.loc["afresh (base year 2015)", "out_of_order"].sum() == 0
    assert t.loc[("afresh (base year 2015)", "SC"), "tier1"] == 2


def test_the_readings_the_script_offers():
    assert rr.readings_for([2005, 2010, 2015], 2015) == [
        ("afresh (base year 2015)", 2015, "since_base"), ("base year 2005", 2005, "since_base"),
        ("base year 2010 = last_only", 2010, "since_base")]


def _evidence(body):
    t = reservation.option_table(body).set_index("option")
    return t.loc["rotation_history", "evidence"]


def test_the_gram_pradhan_figures_of_the_evidence_are_the_script_s():
    h = rr.load_gp()
    text = _evidence("gp-pradhan")
    assert "benchmarks/rotation_record.py" in text
    for a, b, label in ((2005, 2010, "SC+SC_W"), (2010, 2015, "SC+SC_W"), (2005, 2015, "SC+SC_W"),
                        (2005, 2015, "OBC+OBC_W")):
        r = _row(rr.pair_rates(h, a, b, "block"), label)
        quoted = f"{100 * r['rate']:.1f} % ({int(r['k']):,} of {int(r['n']):,}; {100 * r['expected']:.1f} %"
        assert quoted in text, quoted


def test_the_block_pramukh_figures_of_the_evidence_are_the_script_s():
    rates, tests = rr.figures("kp")
    text = _evidence("kp-chair")
    for a, b, label in ((2005, 2010, "SC+SC_W"), (2005, 2015, "SC+SC_W"), (2010, 2015, "SC+SC_W"),
                        (2010, 2015, "OBC+OBC_W"), (2005, 2015, "OBC+OBC_W")):
        r = rates[(rates["year_from"] == a) & (rates["year_to"] == b)].set_index("label").loc[label]
        quoted = f"{100 * r['rate']:.1f} %, {int(r['k'])} of {int(r['n'])}; {100 * r['expected']:.1f} %"
        quoted_b = f"{100 * r['rate']:.1f} % ({int(r['k'])} of {int(r['n'])}; {100 * r['expected']:.1f} %"
        assert quoted in text or quoted_b in text, quoted_b
    said = rr.supported(rates, tests)
    assert said[2010].startswith("base year 2005") and said[2015].startswith("base year 2005")


def test_the_default_base_year_of_each_election_is_the_record_s():
    gp, kp, ward = get_rulebook("gp-pradhan"), get_rulebook("kp-chair"), get_rulebook("gp-ward")
    assert [gp.base_year_for(y) for y in (2010, 2015, 2021, 2026)] == [2005, 2010, 2015, 2015]
    assert [kp.base_year_for(y) for y in (2010, 2015, 2021, 2026)] == [2005, 2005, 2015, 2015]
    assert [ward.base_year_for(y) for y in (2015, 2021)] == [2015, 2015]          # no record of its own
    assert [get_rulebook("zp-chair").base_year_for(y) for y in (2015, 2021)] == [2015, 2015]


def test_a_gram_pradhan_list_of_2015_rotates_against_2010_by_default(tmp_path):
    """One block of four gram panchayats, 25 % SC: one SC post. GP 1, the highest SC share, was SC in 2005, GP 2
    in 2010. Against 2010 only (the default for 2015) GP 1 is never-reserved and takes it; counting 2005 too
    (--base-year 2005) GP 1 is tier 2 and GP 3 or 4 takes it."""
    units, history = tmp_path / "u.csv", tmp_path / "h.csv"
    units.write_text("unit,parent,pop,sc,st\n1,B1,1000,500,0\n2,B1,1000,300,0\n3,B1,1000,100,0\n"
                     "4,B1,1000,100,0\n", encoding="utf-8")
    history.write_text("unit,year,category\n1,2005,SC\n2,2010,SC\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = reservation.allot("gp-pradhan", 2015, units=str(units), history=[str(history)])
        b = reservation.allot("gp-pradhan", 2015, units=str(units), history=[str(history)], base_year=2005)
    sc = lambda r: set(r.table.loc[r.table["category"].map(lambda c: by_code(c).group) == "SC", "unit_code"])
    assert d.meta["base_year"] == 2010 and sc(d) == {1}
    assert "never reserved for it in the previous elections (2010)" in d.table.set_index("unit_code").at[1, "reason"]
    assert any("base year 2010: the base year the published gp-pradhan lists of 2015 support" in a
               for a in d.meta["assumptions"])
    assert b.meta["base_year"] == 2005 and sc(b) in ({3}, {4})


def _in_both(table, published, group):
    g = lambda s: s.map(lambda c: by_code(c).group)
    common = table.index.intersection(published.index)
    return int(((g(table[common]) == group) & (g(published[common]) == group)).sum())


def test_the_2015_pramukh_default_is_pinned_by_the_published_list():
    """kp-chair 2015 by default counts 2005 and 2010 (base year 2005): against the SEC's 2015 list it gives 232
    blocks their published category and 38 SC blocks in both, against 184 and 31 afresh (the default until now,
    --base-year 2015) and 209 and 31 with 2010 alone (--base-year 2010)."""
    pub = pd.read_csv(ROOT / "data" / "history" / "kp-chair.csv")
    pub = pub[pub["year"] == 2015].set_index("unit")["category"]
    got = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for base in (None, 2015, 2010):
            r = reservation.allot("kp-chair", 2015, base_year=base)
            t = r.table.set_index("unit_code")["category"]
            common = t.index.intersection(pub.index)
            got[base] = (r.meta["base_year"], int((t[common] == pub[common]).sum()), _in_both(t, pub, "SC"))
    assert got == {None: (2005, 232, 38), 2015: (2015, 184, 31), 2010: (2010, 209, 31)}
