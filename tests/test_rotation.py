"""Rotation tiers from a history: previous elections, the last one, the base year, the women's reading."""
import numpy as np
import pandas as pd

from reservation.law.rotation import RotationView, group_codes, positions


def view(rows, year=2021, base=2015, mode="since_base", units=(1, 2, 3, 4)):
    h = pd.DataFrame(rows, columns=["unit_code", "year", "category"]).astype({"unit_code": "int64", "year": "int64"})
    v = RotationView(h, year, base, mode)
    v.bind(np.array(units, dtype=np.int64))
    return v


ROWS = [(1, 2010, "SC"), (1, 2015, "UR"), (2, 2015, "SC_W"), (3, 2010, "W"), (3, 2015, "OBC"), (4, 2021, "SC")]


def test_tiers_since_the_base_year():
    """Base 2010, election 2021: unit 1 held SC in 2010 only (tier 2), unit 2 at the last election 2015 (tier 3),
    units 3 and 4 never before 2021 (tier 1: the 2021 record of unit 4 is not a previous election)."""
    v = view(ROWS, base=2010)
    assert v.years == [2010, 2015] and v.last_year == 2015
    assert v.tiers(group_codes("SC")).tolist() == [2, 3, 1, 1]


def test_the_base_year_2015_forgets_2010():
    v = view(ROWS, base=2015)
    assert v.tiers(group_codes("SC")).tolist() == [1, 3, 1, 1]


def test_last_only_reading_has_no_tier_two():
    v = view(ROWS, base=2010, mode="last_only")
    assert v.tiers(group_codes("SC")).tolist() == [1, 3, 1, 1]


def test_womens_history_general_only_or_any_women():
    """Women's pass (GEN): unit 2 held SC_W in 2015, unit 3 held W in 2010. general_only: only W counts
    (unit 3 tier 2); any_women: unit 2 is tier 3 as well."""
    v = view(ROWS, base=2010)
    assert v.tiers(group_codes("GEN", "general_only")).tolist() == [1, 1, 2, 1]
    assert v.tiers(group_codes("GEN", "any_women")).tolist() == [1, 3, 2, 1]
    assert v.held_women_last(np.array([0, 1, 2])).tolist() == [False, True, False]


def test_units_without_a_record_for_the_last_election_are_marked():
    v = view(ROWS, base=2010)
    assert v.has_last.tolist() == [True, True, True, False]


def test_no_history_means_tier_one_everywhere():
    v = view([], base=2015)
    assert v.last_year is None and v.tiers(group_codes("OBC")).tolist() == [1, 1, 1, 1]


def test_tiers_for_any_units_agree_with_the_bound_tiers():
    v = view(ROWS, base=2010)
    assert v.tiers_for(np.array([4, 3, 2, 1]), group_codes("SC")).tolist() == [1, 1, 3, 2]


def test_positions_of_codes_in_any_order():
    assert positions(np.array([30, 10, 20]), np.array([20, 99, 30])).tolist() == [2, -1, 0]
    assert positions(np.array([10, 20, 30]), np.array([30, 10])).tolist() == [2, 0]


def test_bound_masks_equal_a_record_by_record_reading():
    """The masks of categories held since the base year and at the last election, and the tiers, as a plain
    loop over the records reads them: repeated records, records of unknown units and codes outside the eight,
    several years, both readings of A8."""
    import random

    from reservation.law.categories import CODES
    rng = random.Random(3)
    for _ in range(150):
        units = rng.sample(range(100, 400), rng.randint(1, 40))
        rows = [(rng.choice(units + [7, 8]), rng.choice([2005, 2010, 2015, 2021]), rng.choice(list(CODES) + ["XX"]))
                for _ in range(rng.randint(0, 90))]
        for mode in ("since_base", "last_only"):
            v = view(rows, base=2010, mode=mode, units=units) if rows else None
            if v is None or v.last_year is None:
                continue
            for i, u in enumerate(units):
                held = {c for uu, y, c in rows if uu == u and 2010 <= y < 2021 and c in CODES}
                last = {c for uu, y, c in rows if uu == u and y == v.last_year and c in CODES}
                assert v.held[i] == sum(1 << CODES.index(c) for c in held)
                assert v.held_last[i] == sum(1 << CODES.index(c) for c in last)
                assert v.has_last[i] == any(uu == u and y == v.last_year for uu, y, _ in rows)
                for g in ("ST", "SC", "OBC", "GEN"):
                    codes = group_codes(g)
                    want = 3 if last & codes else 2 if mode == "since_base" and held & codes else 1
                    assert v.tiers(codes)[i] == want
