"""Properties of the engine on random small states (hypothesis)."""
from fractions import Fraction

import pandas as pd
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from reservation.engine.passes import RuleError
from reservation.law.categories import CODES
from reservation.law.rounding import floor
import reservation


@st.composite
def states(draw):
    n = draw(st.integers(3, 14))
    n_div = draw(st.integers(1, min(4, n)))
    rows, hist = [], []
    for i in range(n):
        pop = draw(st.integers(100, 5000))
        sc = draw(st.integers(0, pop * 45 // 100))
        stp = draw(st.integers(0, min(pop - sc, pop // 20)))
        code = 100 + i
        rows.append({"unit_code": code, "unit_name_en": f"D{i}", "unit_name_hi": f"जिला{i}",
                     "division": f"V{draw(st.integers(0, n_div - 1))}", "division_hi": "", "census2011_code": "",
                     "pop_total": pop, "pop_rural": pop, "pop_urban": 0, "sc_total": sc, "sc_rural": sc,
                     "sc_urban": 0, "st_total": stp, "st_rural": stp, "st_urban": 0})
        if draw(st.booleans()):
            hist.append({"unit_code": code, "year": 2015, "category": draw(st.sampled_from(CODES)),
                         "source": "generated"})
    d = pd.DataFrame(rows)
    d["district"] = d["unit_name_en"]
    h = pd.DataFrame(hist, columns=["unit_code", "year", "category", "source"]).astype(
        {"unit_code": "int64", "year": "int64"})
    options = [("category_order", draw(st.sampled_from(["a", "b"]))),
               ("category_women", draw(st.sampled_from(["top", "not_women_last"]))),
               ("division_saturation", draw(st.sampled_from(["on", "off"]))),
               ("saturation_scope", draw(st.sampled_from(["per_category", "all_reserved"]))),
               ("tie_break", draw(st.sampled_from(["population", "code"])))]
    return d, h, options


def run(state):
    d, h, options = state
    try:
        return reservation.allot("zp-chair", 2021, units=d, history=h, options=options)
    except RuleError:
        reject()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(states())
def test_every_unit_once_and_counts_add_up(state):
    a = run(state)
    t = a.table
    assert t["unit_code"].is_unique and len(t) == len(state[0])
    want = dict(zip(a.counts["category"], a.counts["count"]))
    got = t["category"].value_counts().to_dict()
    assert all(got.get(c, 0) == want[c] for c in CODES) and want["TOTAL"] == len(t)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(states())
def test_women_at_least_a_third_overall_and_in_each_category_and_obc_at_most_27_percent(state):
    a = run(state)
    c = a.table["category"].value_counts().to_dict()
    n = len(a.table)
    women = sum(c.get(k, 0) for k in ("ST_W", "SC_W", "OBC_W", "W"))
    assert 3 * women >= n
    for g in ("ST", "SC", "OBC"):
        assert 3 * c.get(f"{g}_W", 0) >= c.get(f"{g}_W", 0) + c.get(g, 0)
    assert c.get("OBC", 0) + c.get("OBC_W", 0) <= floor(Fraction(27 * n, 100))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(states())
def test_no_unit_repeats_its_last_category_while_an_eligible_unit_was_left(state):
    a = run(state)
    tr = a.trace[a.trace["pass"].str.contains(r"\+|^[A-Z_]+$", regex=True) & a.trace["tier"].notna()]
    for p, steps in tr.groupby("pass", sort=False):
        repeated = steps[(steps["tier"] == 3) & (steps["decision"] == "allotted")]
        if len(repeated):
            waiting = steps[(steps["tier"] < 3) & (steps["decision"] == "passed_over")]
            assert waiting.empty, (p, repeated["unit_code"].tolist(), waiting["unit_code"].tolist())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(states())
def test_same_input_gives_the_same_allotment_and_trace(state):
    a, b = run(state), run(state)
    pd.testing.assert_frame_equal(a.table, b.table)
    pd.testing.assert_frame_equal(a.trace, b.trace)
