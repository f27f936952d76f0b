"""Counting a DPC election: block vote, the reserved seats of one poll, one member per municipality, lots.

The rules (U.P. DPC Rules 2008):

- **r.24(2)**: "Every elector shall have such number of votes as the number of members to be elected"; a
  ballot is not invalid only because fewer votes are marked. One ballot paper carries every seat of the poll.
- **r.25(3)**: a ballot is rejected if (a) it has no mark, or (b) it has more marks than the number of
  candidates to be elected.
- **r.26(1)**: "the Returning Officer shall declare such number of candidates as are required to be elected,
  securing the highest number of votes, to be duly elected"; "in the event of equality of votes between any
  candidates and the addition of one vote will entitle any of those candidates to be declared elected", he
  decides between them **by lot** and proceeds as if the candidate on whom the lot falls had one more vote.
- **r.6**: "The number of members to be elected ... belonging to the Scheduled Castes, Scheduled Tribes, other
  backward classes of citizens and women shall be in the ratio of reservation provided to that class in the
  Zila Panchayat or the Municipalities" - the reserved seats of :func:`reservation.dpc.seats.seats`.
  **r.9(3)**: a candidate of a reserved class files a certificate of it with the nomination, so every
  candidate's class (and sex) is known before the poll: the candidates file carries them.
- **r.3(4)**: urban members: if there are at least as many members as municipalities, at least one member
  from every municipality (``at_least_one``); if fewer, (a) not more than one member from a municipality and
  (b) the candidate with most votes in a municipality is its member, and no other candidate of that
  municipality is elected whatever his votes (``at_most_one``). Rural members: no such rule (``none``).
- **r.14**: (1) as many candidates as members: all are declared elected, no poll; (2) as many or fewer
  electors than members: all electors are declared members; (3) the same for the members to be elected
  against reservation. **r.15**: no candidate: the election starts anew.

**Seats.** A poll has ``seats`` seats. With ``seat_categories`` (``{code: n}`` over ``ST_W ST SC_W SC OBC_W OBC
W``; the rest are ``UR``) some of them are reserved, and a seat may only go to a candidate eligible for it:
``SC`` to a candidate of the Scheduled Castes (either sex), ``SC_W`` to a woman of the Scheduled Castes (so for
ST and OBC), ``W`` to a woman of any class, ``UR`` to anyone. Without ``seat_categories`` every seat is open
(one separate contest, e.g. ``--category SC`` or ``--seats N``). A reserved seat that no remaining candidate
can take stays unfilled (the table ``seats`` says so).

**The order of filling** is the option ``fill_order`` (see :data:`FILL_ORDERS`; the Rules name none):

``highest_votes`` (default)
    r.26(1) applied as written, r.6 as the only exception: the candidates are taken in order of votes and each
    is elected unless electing him would leave a reserved seat that a remaining candidate could fill without
    its member (every elected member must keep a seat of his own, a matching of members to seats). This is
    "the top N, then replacing": the top N by votes are elected except where r.6 makes the lowest of them
    give way to the best of a class still short. Seats are then assigned: in order of election each member
    takes the widest seat he can (UR, then W, then his class's seat, then its women's seat) while the members
    after him can still be seated, so the reserved seats show who owes his seat to r.6.
``reserved_first``
    seat by seat, the reserved seats first in the order of r.6 (Scheduled Castes, Scheduled Tribes, other
    backward classes; each class's women's seats before its other seats), then the women's seats open to all
    women (W), then the unreserved seats; each seat to the eligible candidate with the most votes.
``classes_then_women``
    the same with r.6's own word order: the classes' seats, then all the women's seats (SC_W, ST_W, OBC_W, W).
``open_first``
    the unreserved seats first, to the highest votes whoever the candidate, then the reserved seats as in
    ``reserved_first`` (a class's candidate elected on his votes does not use up the class's reserved seats).

**How the count proceeds** (deterministic; every step is recorded in ``trace`` with its rule). Seats are
filled one at a time. The *pool* is every candidate not yet elected who can take the next seat (ordered
readings) or keep every member seated (``highest_votes``) and, under ``at_most_one``, is not from a
municipality that already has its member; under ``at_least_one`` the pool is first limited to candidates of
municipalities not yet represented, until every municipality that has a candidate has one member. The pool's
candidate with the most votes is elected. When several share the most votes, every way of breaking the tie
is followed to the end: if all give the same elected members, the tie decides no seat and no lot is drawn
(r.26(1): only where "the addition of one vote will entitle" a candidate to be elected); otherwise the
candidates whose election depends on it must draw, and the next row of the lots file says on whom the lot
fell. Without such a row the count **stops** with status ``lot_needed`` and names the candidates who must
draw. Following every way costs time only for very large ties; past :data:`TIE_STATES` steps the lot is
drawn among all the tied candidates (drawing a lot that decides nothing changes nothing) and the trace says
so.

The files are read by :mod:`reservation.dpc.files` (ragged rows, duplicate headers and names that
a spreadsheet would run as formulas are refused there).
"""

from __future__ import annotations

import pandas as pd

# The vocabulary (count_base) and the steps (count_steps) are re-exported under the names this module has always
# had (``from reservation.dpc.count import eligible, RESERVED_CODES ...``).
from .count_base import (FILL_ORDERS, MAX_SEATS, MUNICIPALITY_RULES, R6, R14_1, R14_2, R14_3, R15,  # noqa: F401
                         R24, R25A, R25B, R26, R34, R34B, REJECTED_COLUMNS, RESERVED_CODES, RULES_OF_COUNT,
                         SEATS_TABLE_COLUMNS, TABLE_COLUMNS, TIE_STATES, _WIDEST_FIRST, CountResult, _add,
                         _check_seat_categories, _kinds, _seatable, _TooMany, _trace_df, eligible)
from .count_steps import (Poll, all_electors, candidate_facts, check_candidates_are_electors, check_classes_known,
                          check_municipalities_known, check_poll_options, fill_seats, log_seats_of_poll,
                          log_unfillable, no_candidates, scrutinise, unopposed)
from .count_steps import unopposed_conflict as _unopposed_conflict  # noqa: F401
from .files import BALLOT_ID, load_ballots, load_candidates, load_lots

__all__ = ["load_ballots", "load_candidates", "load_lots", "count_election", "CountResult", "RULES_OF_COUNT",
           "MUNICIPALITY_RULES", "FILL_ORDERS", "RESERVED_CODES", "eligible", "BALLOT_ID", "TIE_STATES",
           "MAX_SEATS"]


def count_election(ballots: pd.DataFrame, seats: int, *, candidates: pd.DataFrame | None = None,
                   municipality_rule: str = "none", lots: pd.DataFrame | None = None,
                   electors: int | None = None, reserved: bool = False, represented=(),
                   district_municipalities=None, seat_categories=None, fill_order: str = "highest_votes",
                   category: str = "") -> CountResult:
    """Count one poll (see the module docstring).

    ``ballots``: from :func:`load_ballots` (or any 0/1 DataFrame, one column per candidate).
    ``candidates``: from :func:`load_candidates` (needed unless ``municipality_rule == "none"`` and no seat
    is reserved; columns ``category`` and ``sex`` for reserved seats).
    ``seat_categories``: ``{code: n}`` reserved seats among ``seats`` (the rest unreserved), filled in this one
    poll in ``fill_order``. ``category``: the category of every seat of a separate contest (a label only).
    ``represented``: municipalities that already have a member from another contest (r.3(4)(a)).
    ``district_municipalities``: names of all the district's municipalities, to report any without a
    candidate under ``at_least_one``. ``electors``: the number of electors (for r.14(2)/(3)); ``reserved``:
    whether the seats are reserved ones (r.14(3) rather than r.14(2)).

    The steps, in order (each in :mod:`reservation.dpc.count_steps` or below, citing its rule): the options
    and the candidates' facts (r.9, r.3(4), r.6); no poll (r.15, r.14); scrutiny and votes (r.25(3),
    r.24(2)); the filling of the seats (r.26(1) with r.6 and r.3(4)); the seats and the passed-over
    candidates (r.6, r.3(4)(b))."""
    seats, electors = check_poll_options(ballots, seats, municipality_rule, fill_order, electors)
    reserved_seats = _check_seat_categories(seats, seat_categories)
    if seat_categories is not None and not reserved_seats and not category:
        category = "UR"              # a poll whose seats are given, none of them reserved
    names = [str(c) for c in ballots.columns]
    check_candidates_are_electors(names, electors)
    facts = candidate_facts(names, candidates)
    check_municipalities_known(names, facts, municipality_rule)
    check_classes_known(names, facts, reserved_seats)
    poll = Poll(ballots, seats, names, facts, municipality_rule, reserved_seats, fill_order, category, represented)

    if not names:
        return no_candidates(poll)
    if electors is not None and electors <= seats:
        return all_electors(poll, electors, reserved)
    if len(names) <= seats:
        declared = unopposed(poll, ballots, represented)
        if declared is not None:
            return declared

    rejected = scrutinise(poll, ballots)
    log_seats_of_poll(poll, fill_order)
    fill_seats(poll, lots)
    finish_seats(poll)
    mark_passed_over_by_municipality(poll)
    mark_passed_over_by_reservation(poll)
    log_municipalities_without_candidate(poll, district_municipalities)
    return result_of(poll, rejected)


def finish_seats(poll: Poll) -> None:
    """r.6: give the members elected in order of votes their seats (``highest_votes``), record the reserved
    seats left vacant, cite r.6 for every reserved seat's member; r.26(1): note the lots not needed."""
    elected = poll.elected
    if poll.by_votes and elected:
        poll.assign(elected)
        poll.log("seats assigned", elected, "; ".join(f"{c}: {poll.seat_of[c]}" for c in elected) + " (in order "
                 "of election, each member the widest seat he can take while those after him keep a seat)", R6)
    if poll.seat_seq and poll.status == "complete":
        log_unfillable(poll, poll.seat_seq[poll.idx:])
    for c in elected:
        poll.clause[c] = poll.seat_clause(c, poll.clause[c])
    if poll.next_lot < len(poll.lots_rows) and poll.status == "complete":
        for row in poll.lots_rows[poll.next_lot:]:
            poll.log("lot not used", [row.winner], f"lot {row.label} (row {row.row}) was not needed", R26)


def mark_passed_over_by_municipality(poll: Poll) -> None:
    """r.3(4) proviso (b): a candidate with more votes than an elected one, kept out because his municipality
    already has its member."""
    if poll.rule != "at_most_one" or not poll.elected:
        return
    elected, muni, votes = poll.elected, poll.muni, poll.votes
    low = min(votes[c] for c in elected)
    taken = poll.rep0 | {muni[c] for c in elected}
    for c in poll.names:
        if c not in poll.result and muni[c] in taken and votes[c] >= low:
            poll.result[c] = "not elected (municipality has its member)"
            poll.clause[c] = R34B
            holder = next((e for e in elected if muni[e] == muni[c]), None)
            poll.note[c] = (f"{muni[c]} is already represented by {holder}" if holder
                            else f"{muni[c]} already has a member from another contest")


def mark_passed_over_by_reservation(poll: Poll) -> None:
    """r.6: a candidate with more votes than a member who holds a reserved seat the candidate cannot take."""
    if not (poll.reserved_seats and poll.elected and poll.status == "complete"):
        return
    votes, order, seat_of = poll.votes, poll.order, poll.seat_of
    for c in poll.names:
        if c in poll.result:
            continue
        below = [e for e in poll.elected if votes[e] < votes[c] and not eligible(poll.cat[c], poll.sex[c], seat_of[e])]
        if below:
            e = min(below, key=lambda x: (votes[x], -order[x]))
            poll.result[c] = "not elected (seats reserved)"
            poll.clause[c] = R6
            poll.note[c] = f"more votes than {e} ({votes[e]}), who holds a {seat_of[e]} seat"


def log_municipalities_without_candidate(poll: Poll, district_municipalities) -> None:
    """r.3(4): "at least one member from every municipality" cannot be met for a municipality without a
    candidate."""
    if poll.rule == "at_least_one" and district_municipalities:
        have = {poll.muni[c] for c in poll.names}
        for m in district_municipalities:
            if m not in have and m not in poll.rep0:
                poll.log("municipality without candidate", [], f"{m} has no candidate: r.3(4) 'at least one "
                         f"member from every municipality' cannot be met for it", R34)


def result_of(poll: Poll, rejected: pd.DataFrame) -> CountResult:
    """The count's result: the candidates' table, the seats (with the seats left unfilled), the trace."""
    base = poll.base
    base.update({"lots_used": poll.next_lot})
    st = poll.seats_table(poll.elected, "" if poll.status == "complete" else "the count stopped for a lot")
    if poll.status == "complete":
        base["unfilled"] = {r.seat: int(r.seats - r.filled) for r in st.itertuples() if r.seats > r.filled}
    return CountResult(poll.status, poll.seats, poll.table(poll.result, poll.order, poll.lot_col, poll.clause,
                                                           poll.note),
                       rejected, _trace_df(poll.trace), must_draw=poll.must_draw, meta=base, seats_table=st)
