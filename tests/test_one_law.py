"""One law, written once (issue 19 item 1): the engine allots, the audit checks and the projection constrains with
the same steps of a pass (:mod:`reservation.engine.steps`).

(a) for random small states of every body kind (a Zila Panchayat of a few districts in two or three divisions, a
    few gram panchayats in two blocks for the four gram-panchayat bodies, a few urban bodies in three divisions),
    under random readings (division rule on or off, its scope and effect, women from the top or not women last,
    the tie-break rule, rotation from the base year or the last election, lots, OBC figures given or not), the
    audit of the engine's own allotment finds only ``match``;
(b) every sample of a projection passes the audit of its sampled inputs: the sample's allotment, and the past list
    that constrained it, audited with the sample's OBC figures, find only ``match``;
(c) a test double: the division rule made to free the MOST populous unit changes the engine's allotment, the
    audit of that allotment under the changed rule finds only ``match`` and under the real rule does not, and the
    projection's constraints follow the changed rule (its second way of the division rule changes with it); and
    likewise ``category_women=not_women_last`` reversed: the engine's women's posts, the audit and the projection's
    women's constraint (a past list it refuses under the real step and accepts under the double) follow it.

Hypothesis draws few examples (RESERVATION_PROPERTY_EXAMPLES raises it) and keeps no database in the checkout.
"""
import os
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from reservation.allotment.pipeline import allot
from reservation.auditing.audit import audit
from reservation.base.errors import InputError, RuleError
from reservation.engine import steps
from reservation.law.categories import CODES
from reservation.projection.project import project

EXAMPLES = min(max(int(os.environ.get("RESERVATION_PROPERTY_EXAMPLES", "8")), 1), 500)
FAST = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ZP_HEADER = ("district_lgd_code,district_en,district_hi,division_en,division_hi,census2011_district_code,tot_p,"
             "tot_p_rural,tot_p_urban,sc,sc_rural,sc_urban,st,st_rural,st_urban")
NAMES = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota"]
HELD = ["UR", "UR", "UR", "SC", "SC_W", "OBC", "OBC_W", "W", "ST"]


def own_list(a) -> pd.DataFrame:
    return a.table[["unit_code", "category"]].rename(columns={"unit_code": "unit"}).reset_index(drop=True)


def findings(r) -> Counter:
    return Counter(r.table["finding"])


# -- random states ---------------------------------------------------------------------------------------------

@st.composite
def zp_states(draw):
    """A Zila Panchayat of 5-9 districts in 2-3 divisions, with its 2015 list, readings and perhaps OBC figures."""
    n = draw(st.integers(5, 9), label="districts")
    k = draw(st.integers(2, 3), label="divisions")
    div = [f"D{draw(st.integers(0, k - 1), label='division')}" for _ in range(n)]
    pop = [draw(st.integers(5, 30), label="pop") * 100_000 for _ in range(n)]
    sc = [p * draw(st.integers(5, 45), label="sc %") // 100 for p in pop]
    st_ = [p * draw(st.integers(0, 3), label="st %") // 100 for p in pop]
    held = [draw(st.sampled_from(HELD), label="2015") for _ in range(n)]
    rows = [ZP_HEADER] + [f"{i + 1},{NAMES[i]},,{div[i]},,,{pop[i]},{pop[i]},0,{sc[i]},{sc[i]},0,{st_[i]},{st_[i]},0"
                          for i in range(n)]
    history = "unit,year,category\n" + "".join(f"{NAMES[i]},2015,{held[i]}\n" for i in range(n))
    opts = [f"division_saturation={draw(st.sampled_from(['on', 'on', 'off']), label='rule')}",
            f"saturation_scope={draw(st.sampled_from(['per_category', 'all_reserved']), label='scope')}",
            f"saturation_effect={draw(st.sampled_from(['unreserved', 'barred']), label='effect')}",
            f"category_women={draw(st.sampled_from(['top', 'not_women_last']), label='women')}",
            f"tie_break={draw(st.sampled_from(['population', 'code', 'assumed_by_code']), label='tie')}",
            f"rotation_history={draw(st.sampled_from(['since_base', 'last_only']), label='rotation')}"]
    obc = None
    if draw(st.booleans(), label="OBC figures given"):
        obc = [(p - s - t) * draw(st.integers(10, 60), label="obc %") // 100 for p, s, t in zip(pop, sc, st_)]
    return {"units": "\n".join(rows) + "\n", "history": history, "options": opts, "obc": obc, "n": n,
            "lots": _lots(draw, list(range(1, n + 1)))}


def _lots(draw, codes) -> str | None:
    if not draw(st.booleans(), label="lots"):
        return None
    some = draw(st.lists(st.sampled_from(codes), min_size=1, max_size=len(codes), unique=True), label="lot units")
    return "unit,lot\n" + "".join(f"{c},{j + 1}\n" for j, c in enumerate(some))


@st.composite
def gp_states(draw):
    """Gram panchayats in two blocks (few persons of SC/ST in some: the two-person rule), with a 2015 list."""
    rows, hist, code = ["unit,parent,pop,sc,st,name_en"], ["unit,year,category"], 0
    for b in ("B1", "B2"):
        for _ in range(draw(st.integers(3, 7), label="gram panchayats")):
            code += 1
            pop = draw(st.integers(200, 3000), label="pop")
            sc = draw(st.sampled_from([0, 1, 2, pop // 10, pop // 4, pop // 2]), label="sc")
            st_ = draw(st.sampled_from([0, 0, 1, 2, pop // 20]), label="st")
            rows.append(f"{code},{b},{pop},{sc},{st_},GP {code}")
            hist.append(f"{code},2015,{draw(st.sampled_from(HELD), label='2015')}")
    opts = [f"category_women={draw(st.sampled_from(['top', 'not_women_last']), label='women')}",
            f"tie_break={draw(st.sampled_from(['population', 'code', 'assumed_by_code']), label='tie')}",
            f"rotation_history={draw(st.sampled_from(['since_base', 'last_only']), label='rotation')}"]
    return {"units": "\n".join(rows) + "\n", "history": "\n".join(hist) + "\n", "options": opts, "obc": None,
            "lots": _lots(draw, list(range(1, code + 1)))}


@st.composite
def urban_states(draw):
    """Twelve urban bodies in three districts of three divisions (the toy of tests/fixtures/urban), random figures."""
    rows = ["unit,name_en,body_type,district,pop,sc,st,women"]
    for j, (district, letter) in enumerate((("Agra", "A"), ("Aligarh", "B"), ("Lucknow", "C"))):
        for i in range(4):
            pop = draw(st.integers(5, 40), label="pop") * 100
            sc = pop * draw(st.integers(0, 50), label="sc %") // 100
            women = pop * draw(st.integers(45, 52), label="women %") // 100
            rows.append(f"{10 * j + i + 1},{letter}{i + 1},NPP,{district},{pop},{sc},0,{women}")
    opts = [f"category_women={draw(st.sampled_from(['top', 'not_women_last']), label='women')}",
            f"tie_break={draw(st.sampled_from(['population', 'code', 'assumed_by_code']), label='tie')}"]
    return {"units": "\n".join(rows) + "\n", "history": None, "options": opts, "obc": None, "lots": None}


def _files(d: Path, state: dict) -> dict:
    """The state's files in ``d``, as the keywords of ``allot`` and ``audit``, and its options."""
    (d / "units.csv").write_text(state["units"], encoding="utf-8")
    kw = {"units": str(d / "units.csv")}
    if state["history"] is not None:
        (d / "history.csv").write_text(state["history"], encoding="utf-8")
        kw["history"] = [str(d / "history.csv")]
    opts = list(state["options"])
    if state["lots"] is not None:
        (d / "lots.csv").write_text(state["lots"], encoding="utf-8")
        opts.append(f"lots={d / 'lots.csv'}")
    if state["obc"] is not None:
        kw["population"] = pd.DataFrame({"unit_code": np.arange(1, len(state["obc"]) + 1), "obc": state["obc"],
                                         "_row": np.arange(2, len(state["obc"]) + 2)})
    return kw, opts


def _own_audit_matches(body: str, year: int, state: dict) -> None:
    with tempfile.TemporaryDirectory() as t:
        kw, opts = _files(Path(t), state)
        try:
            a = allot(body, year, options=opts, **kw)
        except (InputError, RuleError):
            assume(False)               # the state cannot be allotted under these readings (refused): no list
        r = audit(body, year, own_list(a), options=opts, search_options=False, **kw)
        assert set(r.table["finding"]) == {"match"}, (body, opts, findings(r), r.table[r.table["finding"] != "match"])


@FAST
@given(state=zp_states())
def test_a_random_zila_panchayat_audits_its_own_allotment_as_match(state):
    _own_audit_matches("zp-chair", 2021, state)


@FAST
@given(body=st.sampled_from(["gp-pradhan", "gp-ward", "kp-ward", "zp-ward"]), state=gp_states())
def test_random_gram_panchayats_audit_their_own_allotment_as_match(body, state):
    _own_audit_matches(body, 2021, state)


@FAST
@given(body=st.sampled_from(["pp-chair", "np-chair"]), state=urban_states())
def test_random_urban_bodies_audit_their_own_allotment_as_match(body, state):
    _own_audit_matches(body, 2023, state)


def test_the_random_states_reach_the_division_rule():
    """The ZP strategy is not idle: with the division rule on, a state where it fires is among a few drawn (the
    property above then checks the walk's division rule against the engine's)."""
    fired = 0
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as t:
        for _ in range(12):
            n = 6
            pop = rng.integers(5, 30, n) * 100_000
            sc = pop * rng.integers(20, 45, n) // 100
            rows = [ZP_HEADER] + [f"{i + 1},{NAMES[i]},,{'D0' if i < 2 else 'D1'},,,{pop[i]},{pop[i]},0,{sc[i]},"
                                  f"{sc[i]},0,0,0,0" for i in range(n)]
            (Path(t) / "u.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
            a = allot("zp-chair", 2021, units=str(Path(t) / "u.csv"), history=[])
            fired += any(rec.barred for rec in a.engine.records)
    assert fired


# -- (b) the projection's samples pass the audit of their sampled inputs ---------------------------------------

EIGHT = [(1, "P", "North"), (2, "Q", "North"), (3, "R", "South"), (4, "S", "West"), (5, "T", "East"),
         (6, "U", "Centre"), (7, "V", "Hills"), (8, "X", "Plains")]
EIGHT_HISTORY = "unit,year,category\n" + "".join(f"{n},2015,UR\n" for _, n, _ in EIGHT) + (
    "P,2021,OBC_W\nR,2021,OBC\nS,2021,W\nT,2021,W\nQ,2021,UR\nU,2021,UR\nV,2021,UR\nX,2021,UR\n")


def _districts(rows, pops) -> str:
    lines = [ZP_HEADER]
    for code, name, div in rows:
        p = pops.get(name, 1_000_000)
        lines.append(f"{code},{name},,{div},,,{p},{p},0,0,0,0,0,0,0")
    return "\n".join(lines) + "\n"


@pytest.fixture()
def eight(tmp_path):
    """Eight districts, P and Q alone in North (Q the less populous); 2021: P OBC_W, R OBC (tests/test_project:
    the list arises with or without the division rule freeing Q)."""
    (tmp_path / "eight.csv").write_text(_districts(EIGHT, {"Q": 900_000}), encoding="utf-8")
    (tmp_path / "h.csv").write_text(EIGHT_HISTORY, encoding="utf-8")
    return {"units": tmp_path / "eight.csv", "history": tmp_path / "h.csv"}


def _obc_table(p, obc) -> pd.DataFrame:
    return pd.DataFrame({"unit_code": p.units["unit_code"].to_numpy(), "obc": obc, "_row": range(2, len(obc) + 2)})


def _past_list(history: Path, year: int) -> pd.DataFrame:
    h = pd.read_csv(history)
    return h[h["year"] == year][["unit", "category"]].reset_index(drop=True)


def test_every_projection_sample_passes_the_audit_of_its_sampled_inputs(eight):
    p = project("zp-chair", 2026, samples=16, seed=4, check_every=1, keep_samples=True, progress=False, **eight)
    assert p.categories is not None and len(p.categories) == 16
    past = _past_list(eight["history"], 2021)
    for s in range(16):
        pop = _obc_table(p, p.obc[s])
        sample = pd.DataFrame({"unit": p.units["unit_code"].to_numpy(),
                               "category": np.asarray(CODES, dtype=object)[p.categories[s]]})
        r = audit("zp-chair", 2026, sample, population=pop, search_options=False, **eight)
        assert set(r.table["finding"]) == {"match"}, (s, findings(r))
        r = audit("zp-chair", 2021, past, population=pop, search_options=False, **eight)
        assert set(r.table["finding"]) == {"match"}, (s, findings(r))


# -- (c) a test double: one step changed, all three uses follow ------------------------------------------------

def _most_populous(candidates, population, codes) -> int:
    """The double: the division rule frees the MOST populous of the candidates (then the higher code)."""
    from fractions import Fraction
    return max((int(c) for c in candidates), key=lambda i: (Fraction(population[i]), int(codes[i])))


SAT = [(1, "A", "North"), (2, "B", "North"), (3, "C", "South"), (4, "D", "South"), (5, "E", "South"),
       (6, "F", "East")]


def _saturating(tmp_path) -> dict:
    """Six districts; A and B (North) have the highest SC shares and the State's SC posts are 2, so North would
    be wholly SC: the rule frees one of them (B the less populous)."""
    pops = {"A": 3_000_000, "B": 2_000_000, "C": 2_500_000, "D": 2_400_000, "E": 2_300_000, "F": 2_200_000}
    scs = {"A": 45, "B": 44, "C": 30, "D": 25, "E": 20, "F": 15}
    lines = [ZP_HEADER]
    for code, name, div in SAT:
        p, s = pops[name], pops[name] * scs[name] // 100
        lines.append(f"{code},{name},,{div},,,{p},{p},0,{s},{s},0,0,0,0")
    (tmp_path / "sat.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"units": str(tmp_path / "sat.csv"), "history": []}


def test_a_changed_division_rule_changes_the_engine_the_audit_and_the_projection(tmp_path, monkeypatch, eight):
    kw = _saturating(tmp_path)
    real = allot("zp-chair", 2021, **kw)
    names = dict(zip(real.units["unit_code"], real.units["unit_name_en"]))
    freed_real = {names[int(real.engine.codes[v])] for rec in real.engine.records for v in rec.barred}
    assert freed_real == {"B"}                      # the least populous of the two chosen in North
    real_list = own_list(real)
    real_second = project("zp-chair", 2026, samples=20, seed=4, progress=False, **eight).meta["projection"]
    assert any("could have freed Q (North)" in a for a in real_second["second_ways"])

    monkeypatch.setattr(steps.DivisionRule, "freed_unit", staticmethod(_most_populous))
    double = allot("zp-chair", 2021, **kw)
    freed_double = {names[int(double.engine.codes[v])] for rec in double.engine.records for v in rec.barred}
    assert freed_double == {"A"}                    # the engine follows the double
    double_list = own_list(double)
    assert not double_list.equals(real_list)
    r = audit("zp-chair", 2021, double_list, search_options=False, **kw)
    assert set(r.table["finding"]) == {"match"}, findings(r)       # the audit follows it too
    r = audit("zp-chair", 2021, real_list, search_options=False, **kw)
    assert "match" in set(r.table["finding"]) and set(r.table["finding"]) != {"match"}, findings(r)
    # the projection: under the double the rule would free P (the more populous), not Q, so the 2021 list has
    # no second way through the division rule
    p = project("zp-chair", 2026, samples=20, seed=4, check_every=1, keep_samples=True, progress=False, **eight)
    assert not any("could have freed Q" in a for a in p.meta["projection"]["second_ways"])
    past = _past_list(eight["history"], 2021)
    for s in range(0, 20, 5):                       # and its samples still reproduce the list under the double
        r = audit("zp-chair", 2021, past, population=_obc_table(p, p.obc[s]), search_options=False, **eight)
        assert set(r.table["finding"]) == {"match"}, (s, findings(r))

    monkeypatch.undo()
    r = audit("zp-chair", 2021, double_list, search_options=False, **kw)
    assert set(r.table["finding"]) != {"match"}, findings(r)      # the real rule calls the double's list wrong


def _flag_the_others(rule, rotation, positions_, n_codes):
    """The double of A7 reading c: the units that held NO women's office at the last election come last (the
    reverse of ``category_women=not_women_last``)."""
    if rule is not steps.WomenRule.NOT_WOMEN_LAST or n_codes < 2:
        return None
    return ~np.asarray(rotation.held_women_last(positions_), dtype=bool)


def test_a_changed_women_rule_changes_the_engine_the_audit_and_the_projection(tmp_path, monkeypatch):
    """Six districts, two SC posts (one SC_W): A (the highest SC share) held W in 2015, B did not. Women from the
    top gives A SC_W; not_women_last gives it B; the double (its reverse) gives it A again; the audit and the
    projection's constraints follow the step they are given."""
    kw = _saturating(tmp_path)
    (tmp_path / "h.csv").write_text("unit,year,category\nA,2015,W\nB,2015,UR\nC,2015,UR\nD,2015,UR\nE,2015,UR\n"
                                    "F,2015,UR\n", encoding="utf-8")
    kw = {**kw, "history": [str(tmp_path / "h.csv")]}
    opts = ["category_women=not_women_last", "division_saturation=off"]
    real = allot("zp-chair", 2021, options=opts, **kw)
    cat = dict(zip(real.table["unit_name_en"], real.table["category"]))
    assert (cat["A"], cat["B"]) == ("SC", "SC_W")
    monkeypatch.setattr(steps, "women_flag", _flag_the_others)
    double = allot("zp-chair", 2021, options=opts, **kw)
    cat = dict(zip(double.table["unit_name_en"], double.table["category"]))
    assert (cat["A"], cat["B"]) == ("SC_W", "SC")
    r = audit("zp-chair", 2021, own_list(double), options=opts, search_options=False, **kw)
    assert set(r.table["finding"]) == {"match"}, findings(r)
    r = audit("zp-chair", 2021, own_list(real), options=opts, search_options=False, **kw)
    assert set(r.table["finding"]) != {"match"}, findings(r)
    # the projection: P held W in 2015, and the 2021 list gives P (not R) the OBC women's post; under
    # not_women_last no OBC figures give that list, under the double they do
    past = {"units": tmp_path / "p.csv", "history": tmp_path / "ph.csv", "options": ["category_women=not_women_last"]}
    (tmp_path / "p.csv").write_text(_districts(EIGHT, {"Q": 900_000}), encoding="utf-8")
    (tmp_path / "ph.csv").write_text(EIGHT_HISTORY.replace("P,2015,UR", "P,2015,W"), encoding="utf-8")
    p = project("zp-chair", 2026, samples=10, seed=1, progress=False, **past)
    assert p.meta["projection"]["constraint_years"] == [2021]
    monkeypatch.undo()
    with pytest.raises(RuleError, match="women's posts"):
        project("zp-chair", 2026, samples=10, seed=1, progress=False, **past)
    r = audit("zp-chair", 2021, own_list(double), options=opts, search_options=False, **kw)
    assert set(r.table["finding"]) != {"match"}, findings(r)


@st.composite
def shipped_histories(draw, body: str, year: int, last: int):
    """A random previous list (``last``) over the shipped units of ``body`` (a random rotation state)."""
    codes = _shipped_codes(body, year)
    held = [draw(st.sampled_from(HELD), label=str(last)) for _ in codes]
    opts = [f"category_women={draw(st.sampled_from(['top', 'not_women_last']), label='women')}",
            f"tie_break={draw(st.sampled_from(['population', 'code', 'assumed_by_code']), label='tie')}"]
    return {"history": "unit,year,category\n" + "".join(f"{c},{last},{h}\n" for c, h in zip(codes, held)),
            "options": opts}


_SHIPPED: dict = {}


def _shipped_codes(body: str, year: int) -> list:
    if body not in _SHIPPED:
        _SHIPPED[body] = allot(body, year).table["unit_code"].astype(int).tolist()
    return _SHIPPED[body]


def _own_audit_with_history(body: str, year: int, state: dict) -> None:
    with tempfile.TemporaryDirectory() as t:
        (Path(t) / "h.csv").write_text(state["history"], encoding="utf-8")
        kw = {"history": [str(Path(t) / "h.csv")]}
        try:
            a = allot(body, year, options=state["options"], **kw)
        except (InputError, RuleError):
            assume(False)
        r = audit(body, year, own_list(a), options=state["options"], search_options=False, **kw)
        assert set(r.table["finding"]) == {"match"}, (body, state["options"], findings(r))


@FAST
@given(state=shipped_histories("mayor", 2023, 2017))
def test_the_mayors_with_a_random_previous_list_audit_their_own_allotment_as_match(state):
    _own_audit_with_history("mayor", 2023, state)


@settings(max_examples=1, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(state=shipped_histories("kp-chair", 2021, 2015))
def test_the_block_pramukhs_with_a_random_previous_list_audit_their_own_allotment_as_match(state):
    """One example: the kp-chair audit walks 826 blocks through five passes (State -> district -> block, the
    two-person rule, the district's OBC posts from the unknown OBC population)."""
    _own_audit_with_history("kp-chair", 2021, state)
