"""Spreading posts over districts/divisions: hand-checked toys and properties."""
from fractions import Fraction

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reservation.law.apportion import capped_shortfall, largest_remainder

CAP = Fraction(206982, 1000000)


def test_shortfall_needs_three_rounds_among_the_districts_above_the_state_share():
    # A: 10 blocks, 30 % -> 3, capped at floor(2.07) = 2; B: 5 blocks, 25 % -> 1.25 -> 1, cap 1; C: 10, 10 % -> 1.
    # 9 posts: 4 given, 5 short. Above 20.6982 %: A, B. Round 1: A, B; round 2: A, B; round 3: A.
    g = pd.DataFrame({"group": ["A", "B", "C"], "posts_base": [10, 5, 10],
                      "share": [Fraction(3, 10), Fraction(1, 4), Fraction(1, 10)]})
    t, notes = capped_shortfall(9, g, cap=CAP, state_share=CAP)
    t = t.set_index("group")
    assert list(t["initial"]) == [2, 1, 1] and list(t["final"]) == [5, 3, 1]
    assert t.at["A", "shortfall_rounds"] == "1,2,3" and t.at["B", "shortfall_rounds"] == "1,2"
    assert t.at["C", "shortfall_posts"] == 0 and notes == []


def test_no_district_above_the_state_share_falls_back_to_all_and_says_so():
    g = pd.DataFrame({"group": ["A", "B"], "posts_base": [10, 10], "share": [Fraction(1, 5)] * 2})
    t, notes = capped_shortfall(6, g, cap=Fraction(27, 100), state_share=Fraction(1, 5), tie_key=pd.Series([5, 9]))
    assert list(t["final"]) == [3, 3] and "no group has a share above" in notes[0]
    with pytest.raises(ValueError):
        capped_shortfall(6, g, cap=Fraction(27, 100), state_share=Fraction(1, 5), fallback="error")


def test_largest_remainder_gives_the_seed_example_20_percent_of_5_posts_is_1():
    t = largest_remainder(5, pd.Series(["X", "Y"]), pd.Series([20, 80]))
    assert list(t["final"]) == [1, 4]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 30), st.integers(0, 1000)), min_size=1, max_size=12), st.data())
def test_capped_shortfall_properties(groups, data):
    g = pd.DataFrame({"group": [f"g{i}" for i in range(len(groups))], "posts_base": [b for b, _ in groups],
                      "share": [Fraction(s, 1000) for _, s in groups]})
    total = data.draw(st.integers(0, sum(b for b, _ in groups)))
    try:
        t, notes = capped_shortfall(total, g, cap=CAP, state_share=CAP)
    except ValueError:
        return  # every eligible group full: refused, never silently short
    assert t["final"].sum() == total
    assert (t["initial"] <= t["cap_count"]).all()                      # caps hold before the shortfall step
    assert (t["final"] <= t["posts_base"]).all()
    got = t[t["shortfall_posts"] > 0]
    if not notes:
        assert (got["share"] > CAP).all()                             # only districts above the State share
    for rounds in got["shortfall_rounds"]:
        r = [int(x) for x in rounds.split(",")]
        assert r == list(range(1, len(r) + 1))                        # one post per round
