"""DPC block-vote count: r.24-26, r.3(4), r.14, r.15. Hand-made elections a reader can check on paper."""

from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reservation.base.errors import InputError
from reservation.dpc.count import count_election, load_ballots, load_candidates, load_lots

FIX = Path(__file__).parent / "fixtures" / "dpc"


def ballots(rows, names):
    """rows: strings of the candidates marked, e.g. "AB" -> Candidate A and Candidate B."""
    cols = [f"Candidate {n}" for n in names]
    return pd.DataFrame([[1 if n in r else 0 for n in names] for r in rows], columns=cols)


def cands(mapping):
    names = list(mapping)
    return pd.DataFrame({"candidate": [f"Candidate {n}" for n in names], "municipality": list(mapping.values()),
                         "municipality_lgd_code": pd.array([None] * len(names), dtype="Int64")})


def lots(*winners):
    return pd.DataFrame({"label": [str(i + 1) for i in range(len(winners))],
                         "winner": [f"Candidate {w}" for w in winners], "among": [None] * len(winners),
                         "row": [i + 2 for i in range(len(winners))]})


def res(r):
    return dict(zip(r.table["candidate"], r.table["result"]))


# ------------------------------------------------------------------------------------- fixtures on disk
def test_tie_for_the_last_seat_stops_without_a_lot():
    b = load_ballots(FIX / "rural_tie_ballots.csv")
    r = count_election(b, 2)
    # valid ballots 1-7: A 4, B 3, C 3, D 1
    assert dict(zip(r.table["candidate"], r.table["votes"])) == {"Candidate A": 4, "Candidate B": 3,
                                                                 "Candidate C": 3, "Candidate D": 1}
    assert r.status == "lot_needed" and r.must_draw == ["Candidate B", "Candidate C"]
    assert r.elected == ["Candidate A"]
    assert res(r)["Candidate B"] == "tie: lot needed"


def test_tie_broken_by_lot_is_recorded():
    b = load_ballots(FIX / "rural_tie_ballots.csv")
    r = count_election(b, 2, lots=load_lots(FIX / "rural_tie_lots.csv", list(b.columns)))
    assert r.status == "complete" and r.elected == ["Candidate A", "Candidate C"]
    t = r.table.set_index("candidate")
    assert t.loc["Candidate C", "lot"].startswith("won lot first draw (rural_tie_lots.csv row 2)")
    assert t.loc["Candidate B", "lot"].startswith("lost lot first draw")
    assert "lot drawn" in list(r.trace["event"])


def test_each_kind_of_invalid_ballot_is_rejected_and_reported():
    b = load_ballots(FIX / "rural_tie_ballots.csv")
    r = count_election(b, 2)
    rej = r.rejected
    assert list(rej["ballot"]) == ["8", "9"] and list(rej["row"]) == [9, 10]
    assert list(rej["clause"]) == ["DPC Rules 2008 r.25(3)(a)", "DPC Rules 2008 r.25(3)(b)"]
    assert list(rej["marks"]) == [0, 3]
    # Ballot 9 (A, B, D) would have broken the B-C tie had it been counted.
    assert r.meta["valid"] == 7 and r.meta["rejected"] == 2


def test_fewer_marks_than_seats_is_valid():
    r = count_election(ballots(["A", "AB", "C"], "ABC"), 2)
    assert r.rejected.empty and r.meta["valid"] == 3


def test_ballot_cell_that_is_not_a_mark():
    with pytest.raises(InputError) as e:
        load_ballots(FIX / "bad_cell_ballots.csv")
    assert (e.value.row, e.value.column) == (3, "Candidate A")


def test_municipality_with_two_leading_candidates():
    """Mirzapur urban, 3 seats < 4 municipalities. A 6 and B 5 are both from Chunar: A is Chunar's member;
    B is passed over (r.3(4)(b)) although he has more votes than E 4 and C 3, who are elected."""
    from reservation.dpc.seats import resolve_municipality
    b = load_ballots(FIX / "mirzapur_urban_ballots.csv")
    c = load_candidates(FIX / "mirzapur_urban_candidates.csv", list(b.columns),
                        lambda v: resolve_municipality(170, v))
    assert list(c["municipality"]) == ["Chunar", "Chunar", "Ahraura", "Kachhwa", "Mirzapur-cum-Vindhyachal"]
    r = count_election(b, 3, candidates=c, municipality_rule="at_most_one")
    assert r.elected == ["Candidate A", "Candidate E", "Candidate C"]
    assert res(r)["Candidate B"] == "not elected (municipality has its member)"
    # Without the municipality rule the votes alone would elect B.
    assert count_election(b, 3).elected == ["Candidate A", "Candidate B", "Candidate E"]


def test_two_leaders_of_one_municipality_tied_draw_lots():
    b = ballots(["ABC", "ABC", "ABD", "AB", "AB", "C"], "ABCDE")   # A 5, B 5, C 3, D 1, E 0
    c = cands({"A": "Chunar", "B": "Chunar", "C": "Ahraura", "D": "Kachhwa", "E": "Kachhwa"})
    r = count_election(b, 3, candidates=c, municipality_rule="at_most_one")
    assert r.status == "lot_needed" and r.must_draw == ["Candidate A", "Candidate B"]
    assert res(r)["Candidate C"] == "pending: the count stopped for a lot"
    r = count_election(b, 3, candidates=c, municipality_rule="at_most_one", lots=lots("B"))
    assert r.elected == ["Candidate B", "Candidate C", "Candidate D"]


def test_tie_that_decides_no_seat_needs_no_lot():
    r = count_election(ballots(["AB", "AB", "C"], "ABC"), 2)     # A 2, B 2 for 2 seats
    assert r.status == "complete" and sorted(r.elected) == ["Candidate A", "Candidate B"]
    assert "tie without effect" in list(r.trace["event"])


def test_three_way_tie_for_two_seats_needs_two_lots():
    b = ballots(["AB", "BC", "CA"], "ABC")                          # 2 each
    r = count_election(b, 2, lots=lots("C"))
    assert r.status == "lot_needed" and r.must_draw == ["Candidate A", "Candidate B"]
    r = count_election(b, 2, lots=lots("C", "A"))
    assert r.elected == ["Candidate C", "Candidate A"]


def test_lot_naming_a_candidate_outside_the_tie():
    b = load_ballots(FIX / "rural_tie_ballots.csv")
    with pytest.raises(InputError) as e:
        count_election(b, 2, lots=load_lots(FIX / "lots_wrong_winner.csv", list(b.columns)))
    assert e.value.row == 2 and e.value.column == "winner"


def test_unknown_candidate_in_lots_file():
    with pytest.raises(InputError) as e:
        load_lots(FIX / "lots_unknown_candidate.csv", ["Candidate A", "Candidate B"])
    assert (e.value.row, e.value.column) == (2, "winner") and "Candidate Z" in str(e.value)


def test_at_least_one_from_every_municipality():
    b = ballots(["XYZ", "XYZ", "XY", "X", "P", "Q"], "XYZPQ")        # X 4, Y 3, Z 2, P 1, Q 1
    c = cands({"X": "Chunar", "Y": "Chunar", "Z": "Chunar", "P": "Ahraura", "Q": "Kachhwa"})
    r = count_election(b, 4, candidates=c, municipality_rule="at_least_one",
                       district_municipalities=["Chunar", "Ahraura", "Kachhwa", "Mirzapur-cum-Vindhyachal"])
    assert sorted(r.elected) == ["Candidate P", "Candidate Q", "Candidate X", "Candidate Y"]
    assert "municipality without candidate" in list(r.trace["event"])
    # P and Q tie at 1 but both get a first member's seat: no lot
    assert r.status == "complete"


def test_represented_elsewhere_is_respected():
    b = ballots(["AB", "AB", "C"], "ABC")
    c = cands({"A": "Chunar", "B": "Ahraura", "C": "Kachhwa"})
    r = count_election(b, 2, candidates=c, municipality_rule="at_most_one", represented=["Chunar"])
    assert r.elected == ["Candidate B", "Candidate C"]
    assert res(r)["Candidate A"] == "not elected (municipality has its member)"


def test_rule_14_1_as_many_candidates_as_seats():
    b = load_ballots(FIX / "unopposed_ballots.csv")
    r = count_election(b, 2)
    assert r.status == "unopposed" and r.elected == ["Candidate A", "Candidate B"]
    assert set(r.table["clause"]) == {"DPC Rules 2008 r.14(1)"}
    assert r.table["votes"].isna().all()


def test_rule_14_fewer_candidates_than_seats():
    r = count_election(ballots([], "AB"), 3)
    assert r.status == "unopposed" and len(r.elected) == 2
    assert (r.table["note"] == "1 seat(s) left unfilled").all()


def test_rule_14_unopposed_but_two_from_one_municipality_goes_to_the_votes():
    b = ballots(["A", "A", "B"], "AB")
    c = cands({"A": "Chunar", "B": "Chunar"})
    r = count_election(b, 2, candidates=c, municipality_rule="at_most_one")
    assert r.status == "complete" and r.elected == ["Candidate A"]
    assert "poll needed" in list(r.trace["event"])


def test_rule_14_2_and_3_electors_not_more_than_seats():
    r = count_election(ballots([], "AB"), 3, electors=3)
    assert r.status == "all_electors" and set(r.table["clause"]) == {"DPC Rules 2008 r.14(2)"}
    r = count_election(ballots([], "AB"), 3, electors=2, reserved=True)
    assert set(r.table["clause"]) == {"DPC Rules 2008 r.14(3)"}


def test_rule_15_no_candidates():
    r = count_election(pd.DataFrame(index=range(0)), 2)
    assert r.status == "no_candidates" and r.trace["clause"].iat[0] == "DPC Rules 2008 r.15"


def test_urban_count_needs_municipalities():
    with pytest.raises(InputError, match="has no municipality"):
        count_election(ballots(["A"], "AB"), 1, municipality_rule="at_most_one")


# ----------------------------------------------------------------------------------------------- properties
@st.composite
def elections(draw):
    n = draw(st.integers(1, 6))
    names = "ABCDEF"[:n]
    rows = draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n), max_size=12))
    seats = draw(st.integers(1, 4))
    munis = draw(st.lists(st.sampled_from(["M1", "M2", "M3"]), min_size=n, max_size=n))
    rule = draw(st.sampled_from(["none", "at_most_one", "at_least_one"]))
    picks = draw(st.lists(st.integers(0, 5), min_size=8, max_size=8))
    b = pd.DataFrame([[int(x) for x in r] for r in rows], columns=[f"Candidate {c}" for c in names],
                     dtype="int64")
    c = cands(dict(zip(names, munis)))
    return b, seats, c, rule, picks


def run_to_completion(b, seats, c, rule, picks):
    """Count; whenever a lot is needed, let it fall on must_draw[pick] and count again from the start."""
    winners = []
    for k in range(10):
        r = count_election(b, seats, candidates=c, municipality_rule=rule,
                           lots=lots(*[w[-1] for w in winners]) if winners else None)
        if r.status != "lot_needed":
            return r, winners
        winners.append(r.must_draw[picks[k % len(picks)] % len(r.must_draw)])
    raise AssertionError("more than 10 lots")


@settings(max_examples=150, deadline=None)
@given(elections())
def test_properties_of_every_count(e):
    b, seats, c, rule, picks = e
    r, winners = run_to_completion(b, seats, c, rule, picks)
    elected = r.elected
    assert len(elected) <= seats
    assert len(set(elected)) == len(elected)
    muni = dict(zip(c["candidate"], c["municipality"]))
    if rule == "at_most_one":
        ms = [muni[x] for x in elected]
        assert len(ms) == len(set(ms)), "two members from one municipality"
    if rule == "none" and r.status == "complete":
        # the block vote elects the highest: no loser has more votes than a winner
        v = dict(zip(r.table["candidate"], r.table["votes"]))
        losers = [x for x in v if x not in elected]
        if elected and losers:
            assert min(v[x] for x in elected) >= max(v[x] for x in losers)
        assert len(elected) == min(seats, len(v))
    # the same ballots and lots always give the same result, whatever the order of the ballot papers
    again = count_election(b, seats, candidates=c, municipality_rule=rule,
                           lots=lots(*[w[-1] for w in winners]) if winners else None)
    pd.testing.assert_frame_equal(r.table, again.table)
    pd.testing.assert_frame_equal(r.trace, again.trace)
    shuffled = b.iloc[::-1].reset_index(drop=True)
    other = count_election(shuffled, seats, candidates=c, municipality_rule=rule,
                           lots=lots(*[w[-1] for w in winners]) if winners else None)
    assert other.elected == elected
