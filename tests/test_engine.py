"""The engine on its own: ordering, tiers, eligibility, the division rule, women, pins, and its refusals.

Every expected result is worked out from the rules in the test's docstring (engine_kit drives the engine without
a rulebook: units, passes and parents are given directly).
"""
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_kit import Run, one_pass
from reservation.engine.passes import RuleError, Settings, _sort_by_key, group_order
from reservation.engine.steps import Fallback, TieRule, WomenRule, tie_order as _tie_order
from reservation.law.ranking import Ratio, order_key
from reservation.law.rotation import stable_order


def hist(rows):
    return pd.DataFrame(rows, columns=["unit_code", "year", "category"]).astype({"unit_code": "int64", "year": "int64"})


def test_descending_share_and_women_from_the_top():
    """Shares 10/100, 40/100, 30/100, 20/100; two SC posts, one for women: the top (unit 2) takes SC_W, the
    next (unit 3) SC; the others are unreserved."""
    pop = [100] * 4
    p = one_pass("SC", ["SC_W", "SC"], [[1, 1]], [10, 40, 30, 20], pop, pop)
    r = Run([1, 2, 3, 4], [p])
    assert r.categories == ["UR", "SC_W", "SC", "UR"]
    t = r.table().set_index("unit_code")
    assert t.at[2, "reason"].startswith("SC_W: 1st of 4 by share (40.0000 %)")
    assert "among the first 1, so reserved for women" in t.at[2, "reason"]
    assert t.at[2, "step"] == "SC_W+SC" and t.at[2, "decision"] == "allotted"
    assert t.at[1, "decision"] == "unreserved" and t.at[1, "reason"].startswith("UR: reached by no category pass")


def test_rotation_tiers_come_before_the_share():
    """Unit 2 (the highest share) held SC at the last election (tier 3); unit 4 held it earlier (tier 2); the
    one post goes to the best tier-1 unit, unit 3 (30 %), ahead of unit 2 (40 %) and unit 4."""
    pop = [100] * 4
    h = hist([(2, 2015, "SC"), (4, 2010, "SC_W"), (4, 2015, "UR")])
    p = one_pass("SC", ["SC"], [[1]], [10, 40, 30, 20], pop, pop)
    r = Run([1, 2, 3, 4], [p], history=h, base_year=2010)
    assert r.categories == ["UR", "UR", "SC", "UR"]
    tr = r.trace()
    tr = tr[tr["pass"] == "SC"]
    tiers = dict(zip(tr["unit_code"], tr["tier"]))
    assert tiers == {1: 1, 2: 3, 3: 1, 4: 2}
    words = dict(zip(tr["unit_code"], tr["tier_reason"]))
    assert words[2] == "reserved for it at the last election (2015: SC)"
    assert words[4] == "not reserved for it at the last election (2015), but was earlier (2010: SC_W)"


def test_tier_three_is_taken_only_when_the_others_are_used_up_and_error_fallback_refuses():
    """Two posts, two units, both held the group last time: 'as far as possible' takes them anyway; with
    rotation_fallback=error the engine refuses (exit 3 in the CLI)."""
    pop = [100, 100]
    h = hist([(1, 2015, "ST"), (2, 2015, "ST_W")])
    p = one_pass("ST", ["ST"], [[2]], [5, 6], pop, pop)
    assert Run([1, 2], [p], history=h).categories == ["ST", "ST"]
    with pytest.raises(RuleError, match="tiers 1-2 cannot fill"):
        Run([1, 2], [p], history=h, settings=Settings(rotation_fallback=Fallback.ERROR))


def test_equal_shares_by_lot_then_larger_population_then_lower_code():
    """Shares all 1/2; populations 100, 300, 300, 200. Rule: larger population first, then lower code: 2, 3,
    4, 1. With lots 4 -> 1 and 1 -> 2 for the group: units with a lot first by lot (4, 1), then the rest (2, 3)."""
    pop = np.array([100, 300, 300, 200])
    p = one_pass("OBC", ["OBC"], [[1]], pop // 2, pop, pop)
    assert Run([1, 2, 3, 4], [p]).categories == ["UR", "OBC", "UR", "UR"]
    assert Run([1, 2, 3, 4], [p], settings=Settings(tie_break=TieRule.CODE)).categories == ["OBC", "UR", "UR", "UR"]
    lots = Settings(lots={"OBC": {4: 1, 1: 2}})
    r = Run([1, 2, 3, 4], [p], settings=lots)
    assert r.categories == ["UR", "UR", "UR", "OBC"]
    t = r.table().set_index("unit_code")
    assert t.at[4, "tie_break"] == "share tied with 3 other unit(s); placed by lot number 1"


def test_not_eligible_units_are_ranked_but_skipped():
    """The two-person rule: unit 1 has the highest share but one person; it is ranked 1st and not chosen."""
    pop = np.array([10, 1000, 1000])
    st_ = np.array([1, 50, 20])
    p = one_pass("ST", ["ST"], [[1]], st_, pop, pop, eligible=st_ >= 2)
    r = Run([1, 2, 3], [p])
    assert r.categories == ["UR", "ST", "UR"]
    tr = r.trace(1)
    assert tr["decision"].tolist() == ["not_eligible", "unreserved"] and tr["rank"].iat[0] == 1


def test_the_division_rule_leaves_the_least_populous_unreserved_and_the_next_takes_the_post():
    """Division D has units 1 and 2 (all its units); both would take SC: the less populous (unit 2, 500) is
    left out for SC and unit 3 (next in order, division E) takes the post."""
    pop = np.array([1000, 500, 800])
    sat = np.array([Fraction(1000), Fraction(500), Fraction(800)], dtype=object)
    p = one_pass("SC", ["SC"], [[2]], [500, 240, 100], pop, pop, saturation_population=sat)
    r = Run([1, 2, 3], [p], division=["D", "D", "E"])
    assert r.categories == ["SC", "UR", "SC"]
    tr = r.trace(2)
    assert tr["decision"].tolist() == ["left_out_division", "unreserved"]
    assert "all 2 districts of D division" in tr["detail"].iat[0] and "(500)" in tr["detail"].iat[0]
    off = Run([1, 2, 3], [p], division=["D", "D", "E"], settings=Settings(division=None))
    assert off.categories == ["SC", "SC", "UR"]


def test_women_not_last_gives_the_womens_post_to_a_unit_without_one_last_time():
    """Two OBC posts, one for women; order 1, 2. Unit 1 held W last time: reading 'top' gives it OBC_W anyway;
    reading 'not_women_last' gives OBC_W to unit 2."""
    pop = [100, 100, 100]
    h = hist([(1, 2015, "W"), (2, 2015, "UR"), (3, 2015, "UR")])
    p = one_pass("OBC", ["OBC_W", "OBC"], [[1, 1]], [60, 50, 40], pop, pop)
    assert Run([1, 2, 3], [p], history=h).categories == ["OBC_W", "OBC", "UR"]
    assert Run([1, 2, 3], [p], history=h, settings=Settings(category_women=WomenRule.NOT_WOMEN_LAST)).categories == \
        ["OBC", "OBC_W", "UR"]


def test_pins_are_kept_and_taken_off_the_posts():
    """One SC post; unit 3 pinned to SC: the pass has no post left, so unit 1 (top share) stays UR."""
    pop = [100] * 3
    p = one_pass("SC", ["SC"], [[1]], [50, 40, 30], pop, pop)
    r = Run([1, 2, 3], [p], pins={2: ("SC", "pins.csv row 2")})
    assert r.categories == ["UR", "UR", "SC"]
    t = r.table().set_index("unit_code")
    assert t.at[3, "decision"] == "pinned" and t.at[3, "clause"] == "pinned by input (pins.csv row 2)"
    with pytest.raises(RuleError, match="more pinned units than posts"):
        Run([1, 2, 3], [p], pins={0: ("SC", "x"), 1: ("SC", "y")})


def test_posts_per_parent_and_a_parent_short_of_units():
    """Parents A (units 1, 2) and B (unit 3): one post in each; B's only unit is not eligible -> refused."""
    pop = np.array([100, 100, 100])
    p = one_pass("SC", ["SC"], [[1], [1]], [10, 20, 30], pop, pop)
    r = Run([1, 2, 3], [p], parents=["A", "A", "B"])
    assert r.categories == ["UR", "SC", "SC"]
    bad = one_pass("SC", ["SC"], [[1], [1]], [10, 20, 30], pop, pop, eligible=np.array([True, True, False]))
    with pytest.raises(RuleError, match="only 0 units left"):
        Run([1, 2, 3], [bad], parents=["A", "A", "B"])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 300_000), min_size=0, max_size=300))
def test_group_order_is_a_stable_sort(values):
    g = np.array(values, dtype=np.int64)
    assert np.array_equal(group_order(g), np.argsort(g, kind="stable"))


@given(st.lists(st.one_of(st.integers(0, 40), st.integers(0, 2**62), st.integers(-5, 5)), min_size=0, max_size=300))
def test_stable_order_is_a_stable_argsort(values):
    """Packed into one integer where value and position fit, np.argsort(kind="stable") otherwise: the same."""
    g = np.array(values, dtype=np.int64)
    assert np.array_equal(stable_order(g), np.argsort(g, kind="stable"))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 60), st.integers(0, 60), st.integers(1, 9)), min_size=1, max_size=60),
       st.booleans())
def test_key_order_equals_a_sort_of_fractions_with_the_tie_rule(rows, people):
    """The order of one pass = descending exact share (or people), then larger population, then position."""
    pop = np.array([p for p, _, _ in rows], dtype=np.int64)
    num = np.array([min(a, p) for p, a, _ in rows], dtype=np.int64)
    key = Ratio(num, None, "people") if people else Ratio(num, pop)
    n = len(rows)
    tie_order = _tie_order(n, pop, None, TieRule.POPULATION)
    tie_pos = np.empty(n, dtype=np.int64)
    tie_pos[tie_order] = np.arange(n)
    active = np.ones(n, dtype=bool)
    got = _sort_by_key(np.arange(n), active, order_key(key), tie_pos, tie_order, n).tolist()
    value = (lambda i: Fraction(int(num[i]))) if people else (lambda i: Fraction(int(num[i]), int(pop[i])))
    want = sorted(range(n), key=lambda i: (-value(i), -int(pop[i]), i))
    assert got == want


def test_the_table_in_hindi_says_the_same_decisions_in_hindi():
    import reservation
    a = reservation.allot("zp-chair", 2021)
    hi, en = a.table_in("hi"), a.table
    assert hi["category"].equals(en["category"]) and hi["decision"].equals(en["decision"])
    sc_w = hi[hi["category"] == "SC_W"]["reason"].iat[0]
    assert sc_w.startswith("अनुसूचित जाति महिला: ग्रामीण जनसंख्या में अनुसूचित जाति का अनुपात (") and "महिला के लिए आरक्षित" in sc_w
    assert not hi["reason"].str.contains(" of the ").any()


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(1, 40), st.integers(0, 40), st.sampled_from(
    ["", "SC", "SC_W", "W"]), st.sampled_from(["", "SC", "UR"])), min_size=1, max_size=50),
       st.sampled_from(["population", "code"]), st.booleans(), st.booleans(), st.integers(0, 10 ** 6))
def test_rotation_order_is_parent_tier_key_then_the_tie_rule(rows, tie_break, lots, people, seed):
    """One pass, several parents, a history of two elections: the rotation order equals a plain sort by parent,
    tier, exact descending key, then (lots first, by lot) the tie-break rule (larger population, then code; or
    code alone)."""
    rng = np.random.default_rng(seed)
    par = np.array(sorted(p for p, *_ in rows))
    n = len(rows)
    code = np.arange(1, n + 1)
    pop = np.array([r[1] for r in rows], dtype=np.int64)
    num = np.array([min(r[2], r[1]) for r in rows], dtype=np.int64)
    hist_rows = [(int(code[i]), 2010, r[3]) for i, r in enumerate(rows) if r[3]] + \
                [(int(code[i]), 2015, r[4]) for i, r in enumerate(rows) if r[4]]
    lot = {int(c): int(rng.integers(1, 5)) for c in code if rng.random() < 0.4} if lots else {}
    labels = sorted(set(par.tolist()))
    posts = {x: int(rng.integers(0, 2)) if len(labels) > 1 else 1 for x in labels}   # a parent without posts
    p = one_pass("SC", ["SC"], np.array([[posts[x]] for x in labels]), num, None if people else pop, pop)
    r = Run(code, [p], parents=[f"P{x}" for x in par], history=hist(hist_rows) if hist_rows else
            hist([(999, 2015, "UR")]), settings=Settings(tie_break=TieRule(tie_break), lots={"SC": lot}),
            base_year=2010).result
    rec = r.records[0]
    value = (lambda i: Fraction(int(num[i]))) if people else (lambda i: Fraction(int(num[i]), int(pop[i])))
    lot_of = [lot.get(int(c)) for c in code]
    ranked = [i for i in range(n) if posts[par[i]]]      # units of a parent without posts are not ranked
    want = sorted(ranked, key=lambda i: (par[i], int(rec.tier[i]), -value(i), lot_of[i] is None, lot_of[i] or 0,
                                           -int(pop[i]) if tie_break == "population" else 0, int(code[i])))
    assert rec.rotation_order.tolist() == want
    # the key order (for words) is the same without the parent and tier
    want_key = sorted(ranked, key=lambda i: (-value(i), lot_of[i] is None, lot_of[i] or 0,
                                               -int(pop[i]) if tie_break == "population" else 0, int(code[i])))
    assert rec.key_order.tolist() == want_key
