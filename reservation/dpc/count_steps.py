"""The steps of a DPC count, one function per rule of the U.P. DPC Rules 2008 (the order is
:func:`reservation.dpc.count.count_election`; the rules are described in :mod:`reservation.dpc.count`).

:class:`Poll` holds one poll's facts (candidates, seats, reading) and its running state (votes, trace, who is
elected to which seat); each step below reads and extends it.
"""

from __future__ import annotations

import numbers
from pathlib import Path

import pandas as pd

from ..base.errors import InputError
from .count_base import (FILL_ORDERS, MAX_SEATS, MUNICIPALITY_RULES, R6, R14_1, R14_2, R14_3, R15, R24, R25A,
                         R25B, R26, R34, R34B, REJECTED_COLUMNS, SEATS_TABLE_COLUMNS, TABLE_COLUMNS, TIE_STATES,
                         _WIDEST_FIRST, CountResult, _add, _kinds, _seatable, _TooMany, _trace_df, eligible)
from .files import FlagError


# ------------------------------------------------------------------------------------------- the options
def check_poll_options(ballots: pd.DataFrame, seats, municipality_rule: str, fill_order: str, electors):
    """The options of one poll, before anything is counted: the r.3(4) reading, the order of filling, the
    number of seats (at least one, at most :data:`MAX_SEATS`) and of electors (r.14(2): at least one, and not
    fewer than the ballot papers). Returns ``(seats, electors)`` as ints."""
    if municipality_rule not in MUNICIPALITY_RULES:
        raise FlagError(f"municipality rule {municipality_rule!r} is not one of {', '.join(MUNICIPALITY_RULES)}",
                        option="--municipality-rule")
    if fill_order not in FILL_ORDERS:
        raise FlagError(f"fill_order {fill_order!r} is not one of {', '.join(FILL_ORDERS)}",
                        option="--option fill_order")
    if isinstance(seats, bool) or not isinstance(seats, numbers.Integral):
        raise FlagError(f"{seats!r} is not a number of seats", option="--seats")
    seats = int(seats)
    if seats < 1:
        raise FlagError(f"{seats} seats: there is no seat to fill", option="--seats")
    if seats > MAX_SEATS:
        raise FlagError(f"{seats} seats: a poll fills at most {MAX_SEATS} (the Schedule's largest committee "
                        f"has 40 members)", option="--seats")
    if electors is not None:
        if isinstance(electors, bool) or not isinstance(electors, numbers.Integral) or electors < 1:
            raise FlagError(f"{electors!r} electors: there must be at least one elector", option="--electors")
        electors = int(electors)
        if electors < len(ballots):
            raise FlagError(f"{len(ballots)} ballot papers but only {electors} electors", option="--electors")
    return seats, electors


def check_candidates_are_electors(names: list[str], electors) -> None:
    """r.9(1): a candidate is an elected member of the Zila Panchayat or a municipality, so an elector."""
    if electors is not None and electors < len(names):
        raise FlagError(f"{len(names)} candidates but only {electors} electors; every candidate is an elector "
                        f"(r.9(1): an elected member of the Zila Panchayat or a municipality)", option="--electors")


# ---------------------------------------------------------------------------------------- the candidates
def candidate_facts(names: list[str], candidates: pd.DataFrame | None) -> dict:
    """r.9(3): what the nomination says of each candidate: municipality (and its LGD code), class and sex
    ('' where the candidates file does not say). Returns ``{"muni", "mcode", "cat", "sex", "path", "rows"}``."""
    muni = {c: "" for c in names}
    mcode = {c: pd.NA for c in names}
    cat = {c: "" for c in names}
    sex = {c: "" for c in names}
    cpath = None if candidates is None else candidates.attrs.get("path")
    crow = {} if candidates is None else candidates.attrs.get("rows", {})
    if candidates is not None:
        for i, c in enumerate(candidates["candidate"]):
            muni[c], mcode[c] = candidates["municipality"].iat[i], candidates["municipality_lgd_code"].iat[i]
            if "category" in candidates.columns:
                cat[c] = candidates["category"].iat[i]
            if "sex" in candidates.columns:
                sex[c] = candidates["sex"].iat[i]
    return {"muni": muni, "mcode": mcode, "cat": cat, "sex": sex, "path": cpath, "rows": crow}


def check_municipalities_known(names: list[str], facts: dict, municipality_rule: str) -> None:
    """r.3(4): the urban readings need every candidate's municipality."""
    if municipality_rule != "none":
        blank = [c for c in names if not facts["muni"][c]]
        if blank:
            raise InputError(f"candidate {blank[0]!r} has no municipality; r.3(4) needs one for every candidate "
                             f"(--candidates FILE)", file=facts["path"], row=facts["rows"].get(blank[0]),
                             column="municipality")


def check_classes_known(names: list[str], facts: dict, reserved_seats: dict[str, int]) -> None:
    """r.6 with r.9(3): a poll that fills reserved seats needs every candidate's class (seats of a class) and
    sex (women's seats)."""
    if not reserved_seats:
        return
    need_cat = any(not k.startswith("W") for k in reserved_seats)
    need_sex = any(k.endswith("W") for k in reserved_seats)
    for what, need, vals in (("category", need_cat, facts["cat"]), ("sex", need_sex, facts["sex"])):
        blank = [c for c in names if need and not vals[c]]
        if blank:
            seats_txt = ", ".join(f"{k} {n}" for k, n in reserved_seats.items())
            raise InputError(f"candidate {blank[0]!r} has no {what}; the poll fills reserved seats "
                             f"({seats_txt}; r.6), so every candidate's {what} is needed (r.9(3))",
                             file=facts["path"], row=facts["rows"].get(blank[0]), column=what)


# -------------------------------------------------------------------------------------------- the poll
class Poll:
    """One poll: its candidates and seats (r.6: the kinds of seat and the order of filling them) and its
    running state: the votes, the trace, the seat of every member and the state of the r.26(1) filling."""

    def __init__(self, ballots: pd.DataFrame, seats: int, names: list[str], facts: dict, municipality_rule: str,
                 reserved_seats: dict[str, int], fill_order: str, category: str, represented) -> None:
        self.seats, self.names, self.rule, self.category = seats, names, municipality_rule, category
        self.muni, self.mcode, self.cat, self.sex = facts["muni"], facts["mcode"], facts["cat"], facts["sex"]
        self.reserved_seats = reserved_seats
        self.capacity = dict(reserved_seats, UR=seats - sum(reserved_seats.values()))
        self.cap_t = tuple(sorted((k, n) for k, n in self.capacity.items() if n))
        self.kind = {c: (self.cat[c], self.sex[c]) for c in names}
        self.order_of = FILL_ORDERS[fill_order] if reserved_seats else None
        self.seat_seq: list[str] = []
        if self.order_of is not None:
            for code in self.order_of:
                self.seat_seq += [code] * self.capacity.get(code, 0)
        self.by_votes = reserved_seats and self.order_of is None
        self.trace: list[dict] = []
        self.base = {"seats": seats, "municipality_rule": municipality_rule, "ballots": int(len(ballots)),
                     "represented": list(represented),
                     "seat_categories": dict(self.capacity) if reserved_seats else {},
                     "fill_order": fill_order if reserved_seats else "", "category": category}
        self.votes = {c: 0 for c in names}
        self.no_rejects = pd.DataFrame(columns=REJECTED_COLUMNS)
        self.seat_of: dict[str, str] = {}
        self.rep0 = frozenset(represented)
        # the state of the filling (r.26(1))
        self.memo: dict = {}
        self.budget = 0
        self.elected: list[str] = []
        self.result, self.order, self.lot_col, self.clause, self.note = {}, {}, {}, {}, {}
        self.must_draw: list[str] = []
        self.status = "complete"
        self.idx = 0
        self.next_lot = 0
        self.lots_rows: list = []

    def log(self, event, who, detail, clause) -> None:
        self.trace.append({"step": len(self.trace) + 1, "event": event, "candidates": "; ".join(who),
                           "detail": detail, "clause": clause})

    def table(self, result: dict, order: dict, lot: dict, clause: dict, note: dict,
              polled: bool = True) -> pd.DataFrame:
        names = self.names
        v = pd.Series(self.votes, dtype="int64")
        rank = v.rank(method="min", ascending=False) if len(v) else v
        return pd.DataFrame({
            "candidate": names, "municipality": [self.muni[c] for c in names],
            "municipality_lgd_code": pd.array([self.mcode[c] for c in names], dtype="Int64"),
            "category": [self.cat[c] for c in names], "sex": [self.sex[c] for c in names],
            "votes": pd.array([self.votes[c] if polled else None for c in names], dtype="Int64"),
            "rank": pd.array([int(rank[c]) if polled else None for c in names], dtype="Int64"),
            "result": [result.get(c, "not elected") for c in names],
            "seat": [self.seat_of.get(c, "") for c in names],
            "order": pd.array([order.get(c) for c in names], dtype="Int64"),
            "lot": [lot.get(c, "") for c in names], "clause": [clause.get(c, R26) for c in names],
            "note": [note.get(c, "") for c in names]}, columns=TABLE_COLUMNS)

    def seat_clause(self, c, rest: str) -> str:
        """r.6 cited before the rest for a member who holds a reserved seat."""
        code = self.seat_of.get(c, "")
        return f"{R6} ({code} seat); {rest}" if code and code != "UR" and self.reserved_seats else rest

    def seats_table(self, elected: list[str], short: str = "") -> pd.DataFrame:
        """One row per kind of seat (r.6): how many, how many filled, by whom."""
        if self.reserved_seats:
            codes = [k for k in (self.order_of or ("SC_W", "SC", "ST_W", "ST", "OBC_W", "OBC", "W", "UR"))
                     if self.capacity.get(k)]
        else:
            codes = [self.category or ""]
        rows = []
        for k in codes:
            n = self.capacity.get(k, 0) if self.reserved_seats else self.seats
            members = [c for c in elected if self.seat_of.get(c, "") == k] if self.reserved_seats else list(elected)
            left = "" if len(members) == n else (short or f"{n - len(members)} seat(s) left unfilled")
            rows.append({"seat": k, "seats": n, "filled": len(members), "members": "; ".join(members),
                         "clause": R6 if k not in ("UR", "") else R26, "note": left})
        return pd.DataFrame(rows, columns=SEATS_TABLE_COLUMNS)

    def assign(self, elected: list[str]) -> None:
        """r.6: seats for the members in the order of election: the widest seat each can take while the members
        after him can still be seated (highest_votes; also r.14(1) with reserved seats)."""
        room = dict(self.capacity)
        for i, c in enumerate(elected):
            rest = _kinds(elected[i + 1:], self.kind)
            for code in _WIDEST_FIRST:
                if room.get(code, 0) and eligible(self.cat[c], self.sex[c], code):
                    room[code] -= 1
                    if _seatable(rest, tuple(sorted((k, n) for k, n in room.items() if n))):
                        self.seat_of[c] = code
                        break
                    room[code] += 1

    def pool(self, state) -> tuple[list[str], int]:
        """r.26(1) with r.6 and r.3(4): the candidates who may take the next seat, and the index of that seat
        (ordered readings skip the seats that no remaining candidate can take)."""
        elected, idx = state
        muni = self.muni
        rep = self.rep0 | {muni[c] for c in elected}
        if self.rule == "at_most_one":
            rest = [c for c in self.names if c not in elected and muni[c] not in rep]
        else:
            rest = [c for c in self.names if c not in elected]
        if self.by_votes:
            k = _kinds(elected, self.kind)
            rest = [c for c in rest if _seatable(_add(k, self.kind[c]), self.cap_t)]
        elif self.seat_seq:
            while idx < len(self.seat_seq):
                ok = [c for c in rest if eligible(self.cat[c], self.sex[c], self.seat_seq[idx])]
                if ok:
                    rest = ok
                    break
                idx += 1
            else:
                rest = []
        if self.rule == "at_least_one":
            first = [c for c in rest if muni[c] not in rep]
            rest = first or rest
        return rest, idx

    def top(self, p: list[str]) -> list[str]:
        """r.26(1): the candidates of ``p`` "securing the highest number of votes"."""
        best = max(self.votes[c] for c in p)
        return [c for c in p if self.votes[c] == best]

    def outcomes(self, state) -> frozenset:
        """r.26(1): every elected set that some way of breaking the remaining ties can give."""
        if state in self.memo:
            return self.memo[state]
        self.budget += 1
        if self.budget > TIE_STATES:
            raise _TooMany
        p, idx = self.pool(state)
        if len(state[0]) >= self.seats or not p:
            res = frozenset([state[0]])
        else:
            res = frozenset().union(*(self.outcomes((state[0] | {c}, idx + 1)) for c in self.top(p)))
        self.memo[state] = res
        return res


# ---------------------------------------------------------------------------------------- r.15 / r.14
def no_candidates(poll: Poll) -> CountResult:
    """r.15: no valid nomination: the election is commenced anew."""
    poll.log("no candidates", [], "no valid nomination: the election is to be commenced anew", R15)
    return CountResult("no_candidates", poll.seats, poll.table({}, {}, {}, {}, {}, False), poll.no_rejects,
                       _trace_df(poll.trace), meta=poll.base,
                       seats_table=poll.seats_table([], "no candidate: a new election (r.15)"))


def all_electors(poll: Poll, electors: int, reserved: bool) -> CountResult:
    """r.14(2) (r.14(3) for reserved seats): as many or fewer electors than members: every elector is
    declared a member."""
    names, seats = poll.names, poll.seats
    cl = R14_3 if reserved else R14_2
    if poll.category and not poll.reserved_seats:
        poll.seat_of.update({c: poll.category for c in names})
    poll.log("all electors declared", names, f"{electors} electors for {seats} seat(s): every elector is "
             f"declared a member (the candidates are listed here; other electors are declared too)", cl)
    return CountResult("all_electors", seats,
                       poll.table({c: "elected (all electors)" for c in names},
                                  {c: i + 1 for i, c in enumerate(names)}, {}, {c: cl for c in names}, {}, False),
                       poll.no_rejects, _trace_df(poll.trace), meta=poll.base,
                       seats_table=poll.seats_table([], "every elector is declared a member (r.14)"))


def unopposed_conflict(names, muni, rule, represented) -> str:
    """Why the candidates cannot all be declared elected under r.3(4)(a), or ''."""
    if rule != "at_most_one":
        return ""
    seen = {}
    for c in names:
        m = muni[c]
        if m in represented:
            return f"{m} already has a member"
        if m in seen:
            return f"{seen[m]} and {c} are both from {m}"
        seen[m] = c
    return ""


def unopposed(poll: Poll, ballots: pd.DataFrame, represented) -> CountResult | None:
    """r.14(1): as many candidates as members (or fewer): all are declared elected without a poll, unless
    r.3(4)(a) or r.6 forbids electing them all (then the votes decide; the trace says why)."""
    names, seats = poll.names, poll.seats
    conflict = unopposed_conflict(names, poll.muni, poll.rule, set(represented))
    if not conflict and poll.reserved_seats and not _seatable(_kinds(names, poll.kind), poll.cap_t):
        conflict = "the candidates cannot all be given a seat they are eligible for (r.6)"
    if conflict:
        poll.log("poll needed", names, f"{len(names)} candidate(s) for {seats} seat(s), but {conflict}: "
                 f"they cannot all be declared elected, so the votes decide", R34B if "r.6" not in conflict else R6)
        return None
    if poll.reserved_seats:
        poll.assign(names)
    elif poll.category:
        poll.seat_of.update({c: poll.category for c in names})
    note = "" if len(names) == seats else f"{seats - len(names)} seat(s) left unfilled"
    if len(ballots):
        note = (note + "; " if note else "") + f"no poll is taken: {len(ballots)} ballot(s) not counted"
    poll.log("declared unopposed", names, f"{len(names)} candidate(s) for {seats} seat(s)" +
             ("" if len(names) == seats else "; fewer candidates than seats: all are declared elected and "
              "the rest of the seats stay unfilled"), R14_1)
    return CountResult("unopposed", seats,
                       poll.table({c: "elected unopposed" for c in names}, {c: i + 1 for i, c in enumerate(names)},
                                  {}, {c: poll.seat_clause(c, R14_1) for c in names}, {c: note for c in names},
                                  False),
                       poll.no_rejects, _trace_df(poll.trace), meta=poll.base, seats_table=poll.seats_table(names))


# ------------------------------------------------------------------------------------------ r.25 / r.24
def scrutinise(poll: Poll, ballots: pd.DataFrame) -> pd.DataFrame:
    """r.25(3): reject a ballot with (a) no mark or (b) more marks than seats; r.24(2): count the votes of the
    valid ones (fewer marks than seats is valid). Sets ``poll.votes``; returns the rejected ballots."""
    names, seats = poll.names, poll.seats
    marks = ballots.sum(axis=1) if len(names) else pd.Series(0, index=ballots.index)
    rejected_rows = []
    sheet_rows = ballots.attrs.get("rows") or [None] * len(ballots)
    for label, k, row in zip(ballots.index, marks, sheet_rows):
        if k == 0:
            rejected_rows.append({"ballot": label, "row": row, "marks": 0, "reason": "no mark", "clause": R25A})
        elif k > seats:
            rejected_rows.append({"ballot": label, "row": row, "marks": int(k),
                                  "reason": f"{int(k)} marks for {seats} seat(s)", "clause": R25B})
    rejected = pd.DataFrame(rejected_rows, columns=REJECTED_COLUMNS)
    rejected["row"] = rejected["row"].astype("Int64")
    valid = ballots[(marks > 0) & (marks <= seats)]
    votes = dict(zip(names, (int(v) for v in valid.to_numpy(dtype="int64").sum(axis=0)))) if names else {}
    poll.votes = votes

    poll.base.update({"valid": int(len(valid)), "rejected": int(len(rejected))})
    for r in rejected_rows:
        poll.log("ballot rejected", [], f"ballot {r['ballot']}: {r['reason']}", r["clause"])
    poll.log("votes counted", names, f"{len(valid)} valid ballot(s) of {len(ballots)}; "
             + ", ".join(f"{c} {votes[c]}" for c in names), R24)
    return rejected


def log_seats_of_poll(poll: Poll, fill_order: str) -> None:
    """r.6: the reserved seats of the poll and the order in which they are filled."""
    if not poll.reserved_seats:
        return
    capacity, order_of = poll.capacity, poll.order_of
    how = (" then ".join(f"{k} {capacity[k]}" for k in order_of if capacity.get(k)) if order_of else
           "candidates in order of votes, each elected unless a reserved seat would be left without "
           "its member (" + ", ".join(f"{k} {n}" for k, n in capacity.items() if n) + ")")
    poll.log("seats of the poll", [], f"{poll.seats} seat(s) filled in one poll, fill_order={fill_order}: {how}",
             R6)


# ------------------------------------------------------------------------- r.26(1) with r.6 and r.3(4)
def fill_seats(poll: Poll, lots: pd.DataFrame | None) -> None:
    """r.26(1) with r.6 and r.3(4): fill the seats one at a time, each to the candidate of the pool with the
    most votes; a tie that decides a seat is broken by the next lot (or the count stops, ``lot_needed``)."""
    lots_rows = poll.lots_rows = [] if lots is None else list(lots.itertuples(index=False))
    lots_path = None if lots is None else lots.attrs.get("path")
    while len(poll.elected) < poll.seats:
        es = frozenset(poll.elected)
        p, new_idx = poll.pool((es, poll.idx))
        log_unfillable(poll, poll.seat_seq[poll.idx:new_idx] if poll.seat_seq else ())
        poll.idx = new_idx
        if not p:
            log_no_eligible(poll)
            break
        t = poll.top(p)
        pick = t[0]
        if len(t) > 1:
            pick = break_tie(poll, t, es, lots_rows, lots_path)
            if pick is None:
                break
        elect(poll, pick)


def log_unfillable(poll: Poll, skipped_seats) -> None:
    """r.6: a reserved seat that no remaining candidate is eligible for stays vacant."""
    for skipped in skipped_seats:
        poll.log("seat left unfilled", [], f"a {skipped} seat: no remaining candidate is eligible for it "
                 f"(r.6; the seat stays vacant)", R6)


def log_no_eligible(poll: Poll) -> None:
    """Seats left that no candidate can take: r.3(4)(b) (their municipalities have their member), r.6 (not
    eligible) or r.26(1) (no candidate left)."""
    if poll.rule == "at_most_one":
        why, cl = "(r.3(4): the remaining candidates' municipalities already have their member)", R34B
    elif poll.reserved_seats:
        why, cl = "(r.6: no remaining candidate is eligible for them)", R6
    else:
        why, cl = "", R26
    poll.log("no eligible candidate", [], f"{poll.seats - len(poll.elected)} seat(s) left: no candidate can take "
             f"them " + why, cl)


def who_must_draw(poll: Poll, t: list[str], es: frozenset):
    """r.26(1): a lot only "in the event of equality of votes ... and the addition of one vote will entitle
    any of those candidates to be declared elected". Returns ``(draw, possible)``: the candidates who must
    draw (``None``: the tie decides nothing) and every elected set the count can still reach (``None`` when
    not followed)."""
    draw, possible = None, None
    if poll.rule == "none" and not poll.reserved_seats:
        if len(t) > poll.seats - len(poll.elected):
            draw = list(t)
        return draw, possible
    try:
        poll.budget = 0
        possible = poll.outcomes((es, poll.idx))
        by_choice = {poll.outcomes((es | {c}, poll.idx + 1)) for c in t}
        if len(by_choice) > 1:
            draw = [c for c in t if not all(c in o for o in possible)] or list(t)
    except _TooMany:
        draw, possible = list(t), None
        poll.log("tie too large to follow", t, f"{len(t)} candidates tie at {poll.votes[t[0]]} votes; following "
                 f"every way of breaking it takes over {TIE_STATES:,} steps, so the lot is drawn among all "
                 f"of them (a lot that decides nothing changes nothing)", R26)
    return draw, possible


def break_tie(poll: Poll, t: list[str], es: frozenset, lots_rows: list, lots_path) -> str | None:
    """r.26(1): who is elected out of the tied candidates ``t``: the first if the tie decides nothing, else
    the one on whom the next lot fell; ``None`` when no lot is left (the count stops, ``lot_needed``)."""
    draw, possible = who_must_draw(poll, t, es)
    if draw is None:
        poll.log("tie without effect", t, f"{len(t)} candidates tie at {poll.votes[t[0]]} votes, but whichever is "
                 f"taken first, the same members can be elected: no lot", R26)
        return t[0]
    if poll.next_lot >= len(lots_rows):
        stop_for_lot(poll, draw, possible)
        return None
    row = lots_rows[poll.next_lot]
    poll.next_lot += 1
    if row.winner not in draw:
        raise InputError(f"lot {row.label}: {row.winner!r} is not among the candidates who must draw "
                         f"now ({'; '.join(draw)})", file=lots_path, row=row.row, column="winner")
    if row.among is not None and set(row.among) != set(draw):
        raise InputError(f"lot {row.label}: 'among' lists {'; '.join(row.among)} but the candidates "
                         f"who must draw are {'; '.join(draw)}", file=lots_path, row=row.row,
                         column="among")
    pick = row.winner
    ref = f"lot {row.label} ({Path(lots_path).name if lots_path else 'lots'} row {row.row})"
    lot_col = poll.lot_col
    lot_col[pick] = f"won {ref} among {'; '.join(draw)}"
    for c in draw:
        if c != pick:
            lot_col[c] = (lot_col.get(c, "") + "; " if lot_col.get(c) else "") + f"lost {ref}"
    poll.log("lot drawn", draw, f"tie at {poll.votes[pick]} votes; the lot fell on {pick}, who counts as having "
             f"one more vote", R26)
    return pick


def stop_for_lot(poll: Poll, draw: list[str], possible) -> None:
    """r.26(1): a tie decides a seat and no lot is given: the count stops; the candidates who must draw, and
    those whose election still depends on the count, are marked."""
    poll.must_draw = draw
    poll.status = "lot_needed"
    votes = poll.votes
    poll.log("lot needed", draw, f"tie at {votes[draw[0]]} votes decides a seat; the count stops until "
             f"the lot is drawn (supply a lots file row: winner = the candidate on whom it falls)", R26)
    for c in draw:
        poll.result[c] = "tie: lot needed"
    for c in poll.names:
        if c not in poll.result and c not in poll.elected and (
                (possible is not None and any(c in o for o in possible)) or
                (possible is None and votes[c] >= votes[draw[0]])):
            poll.result[c] = "pending: the count stopped for a lot"


def elect(poll: Poll, pick: str) -> None:
    """r.26(1): ``pick`` is declared elected to the next seat (r.6: the seat of the ordered readings), with
    r.3(4)'s first member (``at_least_one``) or the member (``at_most_one``) of his municipality noted."""
    muni, seats = poll.muni, poll.seats
    poll.elected.append(pick)
    poll.order[pick] = len(poll.elected)
    poll.result[pick] = "elected"
    if poll.seat_seq:
        poll.seat_of[pick] = poll.seat_seq[poll.idx]
    elif poll.category and not poll.reserved_seats:
        poll.seat_of[pick] = poll.category
    poll.idx += 1
    rep_before = poll.rep0 | {muni[c] for c in poll.elected[:-1]}
    if poll.rule == "at_least_one" and muni[pick] not in rep_before:
        poll.clause[pick] = f"{R26}; {R34}"
        poll.note[pick] = f"first member from {muni[pick]}"
    elif poll.rule == "at_most_one":
        poll.clause[pick] = f"{R26}; {R34B}"
        poll.note[pick] = f"the member from {muni[pick]}"
    else:
        poll.clause[pick] = R26
    what = f"seat {len(poll.elected)} of {seats}" + (f" ({poll.seat_of[pick]})" if poll.seat_seq else "")
    poll.log("elected", [pick], f"{what}: {pick} ({poll.votes[pick]} votes"
             + (f", {muni[pick]}" if muni[pick] else "") + ")", poll.seat_clause(pick, poll.clause[pick]))
