"""Reserved seats filled in one poll (r.6 with r.24(2), r.26(1)): small polls counted on paper first.

Each test's docstring is the count done by hand from the rules; the assertions check the code against it.
Notation: ``A(SC F) 10`` is candidate A, Scheduled Castes, a woman, 10 valid votes.
"""

import itertools
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reservation.base.errors import InputError
from reservation.dpc.seats import DPC_OPTIONS, resolve_municipality
from reservation.dpc.count import FILL_ORDERS, count_election, eligible, load_ballots, load_candidates

FIX = Path(__file__).parent / "fixtures" / "dpc"


def poll(spec):
    """spec: {"A": ("SC", "F", 10), ...} -> ballots giving each candidate exactly those votes (one mark per
    ballot) and the candidates table."""
    names = [f"Candidate {n}" for n in spec]
    rows = []
    for i, (n, (_, _, v)) in enumerate(spec.items()):
        rows += [[1 if j == i else 0 for j in range(len(spec))]] * v
    b = pd.DataFrame(rows, columns=names, dtype="int64")
    c = pd.DataFrame({"candidate": names, "municipality": [""] * len(spec),
                      "municipality_lgd_code": pd.array([None] * len(spec), dtype="Int64"),
                      "category": [s[0] for s in spec.values()], "sex": [s[1] for s in spec.values()]})
    return b, c


def count(spec, seats, reserved, order="highest_votes", **kw):
    b, c = poll(spec)
    return count_election(b, seats, candidates=c, seat_categories=reserved, fill_order=order, **kw)


def short(r):
    return [e.removeprefix("Candidate ") for e in r.elected]


def seats_of(r):
    return {x.removeprefix("Candidate "): s for x, s in zip(r.table["candidate"], r.table["seat"]) if s}


def results(r):
    return {x.removeprefix("Candidate "): s for x, s in zip(r.table["candidate"], r.table["result"])}


def test_the_lowest_of_the_top_gives_way_to_the_best_of_a_short_class():
    """3 seats, SC 1 + UR 2. A(GEN M) 10, B(GEN M) 9, C(GEN M) 8, D(SC M) 5.
    r.26(1): the top 3 are A, B, C; r.6 wants one member of the Scheduled Castes and there is none, so the
    lowest of them (C) gives way to the best SC candidate (D). Elected A, B, D; D holds the SC seat; C, with
    more votes than D, is passed over because of the reserved seat. Every order of filling agrees here."""
    spec = {"A": ("GEN", "M", 10), "B": ("GEN", "M", 9), "C": ("GEN", "M", 8), "D": ("SC", "M", 5)}
    for order in FILL_ORDERS:
        r = count(spec, 3, {"SC": 1}, order)
        assert sorted(short(r)) == ["A", "B", "D"], order
        assert seats_of(r) == {"A": "UR", "B": "UR", "D": "SC"}, order
        assert results(r)["C"] == "not elected (seats reserved)"
    t = r.table.set_index("candidate")
    assert t.loc["Candidate D", "clause"] == "DPC Rules 2008 r.6 (SC seat); DPC Rules 2008 r.26(1)"
    assert t.loc["Candidate A", "clause"] == "DPC Rules 2008 r.26(1)"
    assert t.loc["Candidate C", "clause"] == "DPC Rules 2008 r.6"
    assert t.loc["Candidate C", "note"] == "more votes than Candidate D (5), who holds a SC seat"


def test_a_class_candidate_elected_on_votes_fills_the_class_seat_except_open_first():
    """3 seats, SC 1 + UR 2. A(SC M) 10, B(GEN M) 9, C(GEN M) 8, D(SC M) 5.
    highest_votes: the top 3 (A, B, C) already hold a member of the Scheduled Castes (A): nobody gives way.
    reserved_first: the SC seat to the best SC candidate, A; the two open seats to B and C. Same.
    open_first: the open seats first, to A and B; then the SC seat to the best SC candidate left, D (5), so
    that C (8) is not elected: two SC members."""
    spec = {"A": ("SC", "M", 10), "B": ("GEN", "M", 9), "C": ("GEN", "M", 8), "D": ("SC", "M", 5)}
    for order in ("highest_votes", "reserved_first", "classes_then_women"):
        r = count(spec, 3, {"SC": 1}, order)
        assert sorted(short(r)) == ["A", "B", "C"] and seats_of(r)["A"] == "SC", order
    r = count(spec, 3, {"SC": 1}, "open_first")
    assert short(r) == ["A", "B", "D"] and seats_of(r) == {"A": "UR", "B": "UR", "D": "SC"}
    assert results(r)["C"] == "not elected (seats reserved)"


def test_women_of_a_class_narrow_seat_first_or_last():
    """2 seats, SC_W 1 + SC 1. B(SC F) 10, A(SC M) 8, D(SC F) 6.
    highest_votes: B, then A: B takes the SC women's seat and A the SC seat, so both are seated; D is not
    needed. reserved_first (SC_W before SC): SC_W -> B, SC -> A. The same.
    classes_then_women (r.6's word order: classes, then women): SC -> B (the best SC candidate), then SC_W ->
    D, the only SC woman left; A (8) loses to D (6)."""
    spec = {"B": ("SC", "F", 10), "A": ("SC", "M", 8), "D": ("SC", "F", 6)}
    for order in ("highest_votes", "reserved_first", "open_first"):
        r = count(spec, 2, {"SC_W": 1, "SC": 1}, order)
        assert short(r) == ["B", "A"] and seats_of(r) == {"B": "SC_W", "A": "SC"}, order
    r = count(spec, 2, {"SC_W": 1, "SC": 1}, "classes_then_women")
    assert short(r) == ["B", "D"] and seats_of(r) == {"B": "SC", "D": "SC_W"}
    assert results(r)["A"] == "not elected (seats reserved)"
    assert "who holds a SC_W seat" in r.table.set_index("candidate").loc["Candidate A", "note"]


def test_highest_votes_seats_a_class_woman_in_the_womens_seat():
    """2 seats, SC 1 + W 1 (women of any class). D(SC F) 10, A(SC M) 9, E(GEN F) 5.
    highest_votes: D, then A: D can hold the W seat and A the SC seat, so D and A are elected (the two
    highest). reserved_first (SC before W): SC -> D, the best SC candidate; W -> E, the only woman left:
    A (9) loses to E (5)."""
    spec = {"D": ("SC", "F", 10), "A": ("SC", "M", 9), "E": ("GEN", "F", 5)}
    r = count(spec, 2, {"SC": 1, "W": 1})
    assert short(r) == ["D", "A"] and seats_of(r) == {"D": "W", "A": "SC"}
    r = count(spec, 2, {"SC": 1, "W": 1}, "reserved_first")
    assert short(r) == ["D", "E"] and seats_of(r) == {"D": "SC", "E": "W"}
    assert results(r)["A"] == "not elected (seats reserved)"


def test_a_reserved_seat_without_an_eligible_candidate_stays_unfilled():
    """2 seats, SC 1 + UR 1. A(GEN M) 5, B(GEN M) 3, C(GEN F) 1: nobody of the Scheduled Castes stands.
    A takes the open seat; nobody can take the SC seat, which stays vacant (not given to B)."""
    spec = {"A": ("GEN", "M", 5), "B": ("GEN", "M", 3), "C": ("GEN", "F", 1)}
    for order in FILL_ORDERS:
        r = count(spec, 2, {"SC": 1}, order)
        assert short(r) == ["A"] and r.status == "complete", order
        assert r.meta["unfilled"] == {"SC": 1}
        s = r.seats_table.set_index("seat")
        assert s.loc["SC", "filled"] == 0 and s.loc["SC", "note"] == "1 seat(s) left unfilled"
        assert s.loc["UR", "members"] == "Candidate A"
    assert "seat left unfilled" in list(count(spec, 2, {"SC": 1}, "reserved_first").trace["event"])


def test_rule_14_1_with_reserved_seats():
    """2 seats, SC 1 + UR 1. Two candidates, A(GEN M) and B(SC M): each can be seated (B the SC seat, A the
    open one), so both are declared elected without a poll (r.14(1)). Two general candidates cannot both be
    seated: the votes decide the open seat (A 4, B 2: A) and the SC seat stays vacant."""
    r = count({"A": ("GEN", "M", 0), "B": ("SC", "M", 0)}, 2, {"SC": 1})
    assert r.status == "unopposed" and seats_of(r) == {"A": "UR", "B": "SC"}
    assert set(r.table["clause"]) == {"DPC Rules 2008 r.14(1)", "DPC Rules 2008 r.6 (SC seat); DPC Rules 2008 r.14(1)"}
    r = count({"A": ("GEN", "M", 4), "B": ("GEN", "M", 2)}, 2, {"SC": 1})
    assert r.status == "complete" and short(r) == ["A"] and "poll needed" in list(r.trace["event"])


def test_a_tie_for_a_reserved_seat_is_decided_by_lot_only_when_it_matters():
    """2 seats, SC 1 + UR 1. A(GEN M) 5, B(SC M) 3, C(SC M) 3, D(GEN M) 1. A is elected; B and C tie for the
    SC seat: whichever is taken decides who is elected, so they draw (r.26(1)).
    3 seats, SC 1 + UR 2. A(SC M) 5, B(GEN M) 5, C(GEN M) 1, D(GEN M) 0: A and B tie, but whichever is taken
    first, A, B and C are elected: no lot."""
    spec = {"A": ("GEN", "M", 5), "B": ("SC", "M", 3), "C": ("SC", "M", 3), "D": ("GEN", "M", 1)}
    r = count(spec, 2, {"SC": 1})
    assert r.status == "lot_needed" and r.must_draw == ["Candidate B", "Candidate C"] and short(r) == ["A"]
    lots = pd.DataFrame({"label": ["1"], "winner": ["Candidate C"], "among": [None], "row": [2]})
    r = count(spec, 2, {"SC": 1}, lots=lots)
    assert short(r) == ["A", "C"] and seats_of(r)["C"] == "SC"
    assert results(r)["B"] == "not elected"
    r = count({"A": ("SC", "M", 5), "B": ("GEN", "M", 5), "C": ("GEN", "M", 1), "D": ("GEN", "M", 0)}, 3, {"SC": 1})
    assert r.status == "complete" and sorted(short(r)) == ["A", "B", "C"]
    assert "tie without effect" in list(r.trace["event"])


def test_mirzapur_urban_one_poll_under_each_order():
    """Mirzapur urban 2021: OBC 1, W 1, UR 1; 3 seats < 4 municipalities (r.3(4) proviso: one member at most
    from a municipality). A 6 (Chunar, GEN M), B 5 (Chunar, OBC F), E 4 (Mirzapur-cum-Vindhyachal, GEN F),
    C 3 (Ahraura, GEN M), D 2 (Kachhwa, OBC M).
    highest_votes: A; B out (Chunar has A); E (W); C cannot be seated; D (OBC). -> A, E, D.
    reserved_first (OBC, W, UR): OBC -> B (Chunar's member now, so A is out); W -> E; UR -> C. -> B, E, C.
    open_first (UR, OBC, W): UR -> A; OBC -> D (B is out: Chunar); W -> E. -> A, D, E."""
    b = load_ballots(FIX / "mirzapur_urban_ballots.csv")
    c = load_candidates(FIX / "mirzapur_urban_candidates_classes.csv", list(b.columns),
                        lambda v: resolve_municipality(170, v))
    want = {"highest_votes": ["A", "E", "D"], "reserved_first": ["B", "E", "C"], "classes_then_women": ["B", "E", "C"],
            "open_first": ["A", "D", "E"]}
    for order, elected in want.items():
        r = count_election(b, 3, candidates=c, municipality_rule="at_most_one", seat_categories={"OBC": 1, "W": 1},
                           fill_order=order)
        assert short(r) == elected, order
    assert results(r)["B"] == "not elected (municipality has its member)"


def test_bad_seat_categories():
    b, c = poll({"A": ("GEN", "M", 1), "B": ("SC", "M", 1), "C": ("SC", "", 1)})
    with pytest.raises(InputError, match="unknown seat category 'XX'"):
        count_election(b, 2, candidates=c, seat_categories={"XX": 1})
    with pytest.raises(InputError, match="3 reserved seats for a poll of 2"):
        count_election(b, 2, candidates=c, seat_categories={"SC": 3})
    with pytest.raises(InputError, match="candidate 'Candidate C' has no sex"):
        count_election(b, 2, candidates=c, seat_categories={"SC_W": 1})
    with pytest.raises(InputError, match="has no category"):
        count_election(b, 2, seat_categories={"SC": 1})
    with pytest.raises(InputError, match="fill_order 'random'"):
        count_election(b, 2, candidates=c, seat_categories={"SC": 1}, fill_order="random")


def test_the_option_quotes_its_evidence():
    o = DPC_OPTIONS["fill_order"]
    assert o.default == "highest_votes" and set(o.readings) == set(FILL_ORDERS)
    for quote in ("Every elector shall have such number of votes as the number of members to be elected",
                  "securing the highest number of votes", "belonging to", "members to be elected against reservation"):
        assert quote in o.evidence
    # the quotes are the Rules' own words (seed c)
    from reservation.dpc.schedule import seed_path
    text = " ".join(seed_path().read_text(encoding="utf-8").split())
    for quote in ("Every elector shall have such number of votes as the number of members to be elected",
                  "declare such number of candidates as are required to be elected, securing the highest number of "
                  "votes", "members to be elected against reservation", "in the ratio of reservation provided to that "
                  "class"):
        assert quote in text


# ----------------------------------------------------------------------------------------------- properties
KINDS = [("SC", "F"), ("SC", "M"), ("ST", "F"), ("OBC", "F"), ("OBC", "M"), ("GEN", "F"), ("GEN", "M")]


@st.composite
def polls(draw):
    n = draw(st.integers(1, 7))
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=n, max_size=n))
    votes = draw(st.lists(st.integers(0, 30), min_size=n, max_size=n, unique=True))   # no ties: no lots
    seats = draw(st.integers(1, 5))
    reserved = {}
    left = seats
    for code in ("SC_W", "SC", "ST_W", "OBC_W", "OBC", "W"):
        k = draw(st.integers(0, min(2, left)))
        if k:
            reserved[code] = k
            left -= k
    spec = {chr(65 + i): (k[0], k[1], v) for i, (k, v) in enumerate(zip(kinds, votes))}
    return spec, seats, reserved


def seatable(members, spec, capacity):
    """Brute force: can ``members`` be given distinct seats they are eligible for?"""
    slots = [code for code, n in capacity.items() for _ in range(n)]
    if len(members) > len(slots):
        return False
    for perm in itertools.permutations(range(len(slots)), len(members)):
        if all(eligible(spec[m][0], spec[m][1], slots[j]) for m, j in zip(members, perm)):
            return True
    return False


@settings(max_examples=120, deadline=None)
@given(polls())
def test_every_order_seats_every_member_and_highest_votes_is_the_best_by_votes(p):
    spec, seats, reserved = p
    capacity = dict(reserved, UR=seats - sum(reserved.values()))
    best = None       # the most seats that can be filled, then the highest votes (lexicographic), by brute force
    for k in range(min(seats, len(spec)), -1, -1):
        sets = [s for s in itertools.combinations(spec, k) if seatable(s, spec, capacity)]
        if sets:
            best = max(sets, key=lambda s: sorted((spec[x][2] for x in s), reverse=True))
            break
    for order in FILL_ORDERS:
        r = count(spec, seats, reserved, order)
        elected = short(r)
        held = seats_of(r)
        assert r.status in ("complete", "unopposed"), order
        assert set(held) == set(elected)
        for x in elected:                                   # each member holds a seat he may take
            assert eligible(spec[x][0], spec[x][1], held[x]), (order, x, held[x])
        for code, n in capacity.items():                    # no kind of seat over-filled
            assert sum(1 for s in held.values() if s == code) <= n
        if order == "highest_votes":
            assert sorted(elected) == sorted(best), (spec, seats, reserved)
    # the same poll gives the same result (and the ballots' order does not matter)
    b, c = poll(spec)
    a1 = count_election(b, seats, candidates=c, seat_categories=reserved)
    a2 = count_election(b.iloc[::-1].reset_index(drop=True), seats, candidates=c, seat_categories=reserved)
    pd.testing.assert_frame_equal(a1.table, a2.table)


# ------------------------------------------------------------------------------------------------ the CLI
def write_poll(tmp_path, spec):
    """Ballot and candidate files for spec {"G1": ("GEN", "M", 100), ...}: one mark per ballot."""
    names = list(spec)
    lines = ["ballot," + ",".join(names)]
    k = 0
    for i, (_, _, v) in enumerate(spec.values()):
        for _ in range(v):
            k += 1
            lines.append(f"{k}," + ",".join("1" if j == i else "0" for j in range(len(names))))
    b = tmp_path / "ballots.csv"
    b.write_text("\n".join(lines) + "\n", encoding="utf-8")
    c = tmp_path / "candidates.csv"
    c.write_text("candidate,category,sex\n" + "".join(f"{n},{s[0]},{s[1]}\n" for n, s in spec.items()),
                 encoding="utf-8")
    return b, c


def run(capsys, *argv):
    from reservation.cli.commands import main
    code = main(["dpc", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_mirzapur_rural_21_seats_in_one_poll(capsys, tmp_path):
    """Mirzapur rural 2021: 21 seats, SC_W 2, SC 4, OBC_W 2, OBC 4, W 3, UR 6 (`dpc seats`), one poll.
    34 candidates, by votes: G1-G12 (GEN M, 100..89), S1-S6 (SC M, 80..75), SF1-SF3 (SC F, 70..68), O1-O6
    (OBC M, 60..55), OF1-OF3 (OBC F, 50..48), GF1-GF4 (GEN F, 40..37).
    By votes: G1-G6 fill the 6 open seats; G7-G12 cannot be seated; S1-S4 the SC seats; S5, S6 cannot; SF1,
    SF2 the SC women's seats; SF3 a W seat; O1-O4 the OBC seats; OF1, OF2 the OBC women's; OF3 a W seat; GF1
    the last W seat. 21 members; G7 (94) is passed over for GF1 (40) in a W seat. Every order elects these 21.
    Seats, seat by seat (reserved_first etc.): as just listed. By votes the members are seated afterwards, each
    in order of votes in the widest seat he can hold while those after him keep one: SF1 (70) takes a W seat
    (SF2 and SF3 still have the two SC_W seats); SF2 cannot (then OF3 or GF1 would have no seat), nor SF3: SC_W;
    OF1 a W seat, OF2 and OF3 the OBC_W seats, GF1 the last W seat."""
    spec = {}
    for prefix, kind, top, n in (("G", ("GEN", "M"), 100, 12), ("S", ("SC", "M"), 80, 6), ("SF", ("SC", "F"), 70, 3),
                                 ("O", ("OBC", "M"), 60, 6), ("OF", ("OBC", "F"), 50, 3), ("GF", ("GEN", "F"), 40, 4)):
        for i in range(n):
            spec[f"{prefix}{i + 1}"] = (*kind, top - i)
    b, c = write_poll(tmp_path, spec)
    want = {"G1": "UR", "G2": "UR", "G3": "UR", "G4": "UR", "G5": "UR", "G6": "UR", "S1": "SC", "S2": "SC",
            "S3": "SC", "S4": "SC", "SF1": "SC_W", "SF2": "SC_W", "SF3": "W", "O1": "OBC", "O2": "OBC", "O3": "OBC",
            "O4": "OBC", "OF1": "OBC_W", "OF2": "OBC_W", "OF3": "W", "GF1": "W"}
    for order in FILL_ORDERS:
        code, out, err = run(capsys, "count", "--district", "Mirzapur", "--ballots", b, "--candidates", c,
                             "--option", f"fill_order={order}", "--format", "json")
        assert code == 0, err
        import json
        data = json.loads(out)
        assert data["meta"]["seats"] == 21 and data["meta"]["part"] == "rural"
        assert data["meta"]["seat_categories"] == {"SC_W": 2, "SC": 4, "OBC_W": 2, "OBC": 4, "W": 3, "UR": 6}
        assert data["meta"]["options"]["fill_order"]["value"] == order
        held = {r["candidate"]: r["seat"] for r in data["table"] if r["seat"]}
        assert sorted(data["elected"]) == sorted(want)
        if order == "highest_votes":
            assert held == dict(want, SF1="W", SF3="SC_W", OF1="W", OF3="OBC_W")
        else:
            assert held == want, order
        assert all(r["filled"] == r["seats"] for r in data["seats"])
        g7 = next(r for r in data["table"] if r["candidate"] == "G7")
        assert g7["result"] == "not elected (seats reserved)" and g7["note"].startswith("more votes than GF1 (40)")
    code, out, err = run(capsys, "count", "--district", "Mirzapur", "--ballots", b, "--candidates", c,
                         "--show", "seats")
    assert out.splitlines()[0] == "seat,seats,filled,members,clause,note"
    assert "W,3,3,SF1; OF1; GF1,DPC Rules 2008 r.6," in out


def test_cli_reserve_and_fill_order(capsys, tmp_path):
    """--seats 3 --reserve SC=1; A(SC M) 10, B(GEN M) 9, C(GEN M) 8, D(SC M) 5 (as in the test above: by votes
    A, B, C; open_first A, B, D)."""
    b, c = write_poll(tmp_path, {"A": ("SC", "M", 10), "B": ("GEN", "M", 9), "C": ("GEN", "M", 8),
                                 "D": ("SC", "M", 5)})
    args = ["count", "--district", "Mirzapur", "--ballots", b, "--candidates", c, "--seats", 3, "--reserve", "SC=1"]
    code, out, err = run(capsys, *args)
    assert code == 0 and "A,,,SC,M,10,1,elected,SC,1," in out and "(1 reserved, fill_order=highest_votes)" in err
    code, out, err = run(capsys, *args, "--option", "fill_order=open_first")
    assert code == 0 and "D,,,SC,M,5,4,elected,SC,3," in out and "C,,,GEN,M,8,3,not elected (seats reserved)" in out


def test_a_tie_too_large_to_follow_asks_all_to_draw():
    """30 women and men all at one vote for 15 seats (W 5): every way of breaking the tie cannot be followed
    in TIE_STATES steps, so all 30 must draw; the trace says why."""
    spec = {f"C{i}": ("GEN", "F" if i % 3 == 0 else "M", 1) for i in range(30)}
    r = count(spec, 15, {"W": 5})
    assert r.status == "lot_needed" and len(r.must_draw) == 30
    assert "tie too large to follow" in list(r.trace["event"])


def test_lots_complete_a_tied_poll_with_reserved_seats():
    """8 candidates at one vote each (A, C, E, G women), 4 seats, W 2: the count stops for lots, one at a
    time; letting each fall on the first who must draw completes it with two women in the W seats."""
    spec = {x: ("GEN", "F" if x in "ACEG" else "M", 1) for x in "ABCDEFGH"}
    winners = []
    for _ in range(10):
        lots = pd.DataFrame({"label": [str(i) for i in range(len(winners))], "winner": winners,
                             "among": [None] * len(winners), "row": [i + 2 for i in range(len(winners))]})
        r = count(spec, 4, {"W": 2}, lots=lots if winners else None)
        if r.status != "lot_needed":
            break
        winners.append(r.must_draw[0])
    assert r.status == "complete" and len(r.elected) == 4
    held = seats_of(r)
    assert sorted(held.values()) == ["UR", "UR", "W", "W"]
    assert all(spec[x][1] == "F" for x, s in held.items() if s == "W")
