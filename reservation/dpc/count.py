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

import numbers
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import pandas as pd

from ..base.errors import InputError
from .files import BALLOT_ID, FlagError, load_ballots, load_candidates, load_lots

__all__ = ["load_ballots", "load_candidates", "load_lots", "count_election", "CountResult", "RULES_OF_COUNT",
           "MUNICIPALITY_RULES", "FILL_ORDERS", "RESERVED_CODES", "eligible", "BALLOT_ID", "TIE_STATES",
           "MAX_SEATS"]

R6 = "DPC Rules 2008 r.6"
R24 = "DPC Rules 2008 r.24(2)"
R25A = "DPC Rules 2008 r.25(3)(a)"
R25B = "DPC Rules 2008 r.25(3)(b)"
R26 = "DPC Rules 2008 r.26(1)"
R34 = "DPC Rules 2008 r.3(4)"
R34B = "DPC Rules 2008 r.3(4) proviso (a), (b)"
R14_1 = "DPC Rules 2008 r.14(1)"
R14_2 = "DPC Rules 2008 r.14(2)"
R14_3 = "DPC Rules 2008 r.14(3)"
R15 = "DPC Rules 2008 r.15"
RULES_OF_COUNT = (R6, R24, R25A, R25B, R26, R34, R34B, R14_1, R14_2, R14_3, R15)
MUNICIPALITY_RULES = ("none", "at_most_one", "at_least_one")
RESERVED_CODES = ("ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC", "W")
#: The orders of filling one poll's seats (``None``: by votes, see the module docstring).
FILL_ORDERS: dict[str, tuple[str, ...] | None] = {
    "highest_votes": None,
    "reserved_first": ("SC_W", "SC", "ST_W", "ST", "OBC_W", "OBC", "W", "UR"),
    "classes_then_women": ("SC", "ST", "OBC", "SC_W", "ST_W", "OBC_W", "W", "UR"),
    "open_first": ("UR", "SC_W", "SC", "ST_W", "ST", "OBC_W", "OBC", "W"),
}
_WIDEST_FIRST = ("UR", "W", "SC", "ST", "OBC", "SC_W", "ST_W", "OBC_W")
TIE_STATES = 2_000           # states followed to decide whether a tie matters (a few tenths of a second)
MAX_SEATS = 100              # the largest committee of the Schedule has 40 members


def eligible(category: str, sex: str, code: str) -> bool:
    """May a candidate of ``category`` (SC, ST, OBC, GEN or '') and ``sex`` (F, M or '') take a ``code`` seat?"""
    if code == "UR":
        return True
    if code == "W":
        return sex == "F"
    women = code.endswith("_W")
    return category == (code[:-2] if women else code) and (sex == "F" or not women)


@lru_cache(maxsize=65536)
def _seatable(kinds: tuple, capacity: tuple) -> bool:
    """Hall's condition: can members of these kinds ``((category, sex), n), ...`` all be given seats of
    ``capacity`` ``((code, n), ...)``? Exact for any numbers (kinds are at most 15)."""
    for r in range(1, len(kinds) + 1):
        for sub in combinations(kinds, r):
            need = sum(n for _, n in sub)
            room = sum(n for code, n in capacity if any(eligible(k[0], k[1], code) for k, _ in sub))
            if need > room:
                return False
    return True


def _kinds(members, kind) -> tuple:
    out: dict = {}
    for c in members:
        out[kind[c]] = out.get(kind[c], 0) + 1
    return tuple(sorted(out.items()))


# ------------------------------------------------------------------------------------------------- result
@dataclass
class CountResult:
    """``table``: one row per candidate; ``rejected``: the rejected ballots; ``trace``: every step;
    ``seats_table``: one row per kind of seat (how many, how many filled, by whom).

    ``status``: ``complete``, ``unopposed`` (r.14(1)), ``all_electors`` (r.14(2)/(3)), ``no_candidates``
    (r.15) or ``lot_needed`` (the count stopped; ``must_draw`` names who must draw)."""
    status: str
    seats: int
    table: pd.DataFrame
    rejected: pd.DataFrame
    trace: pd.DataFrame
    must_draw: list[str] = field(default_factory=list)
    meta: dict = field(default_factory=dict)
    seats_table: pd.DataFrame | None = None

    @property
    def elected(self) -> list[str]:
        rows = [(int(o), c) for c, r, o in zip(self.table["candidate"], self.table["result"], self.table["order"])
                if str(r).startswith("elected")]
        return [c for _, c in sorted(rows, key=lambda x: x[0])]


REJECTED_COLUMNS = ["ballot", "row", "marks", "reason", "clause"]
TABLE_COLUMNS = ["candidate", "municipality", "municipality_lgd_code", "category", "sex", "votes", "rank", "result",
                 "seat", "order", "lot", "clause", "note"]
SEATS_TABLE_COLUMNS = ["seat", "seats", "filled", "members", "clause", "note"]


class _TooMany(Exception):
    pass


def _check_seat_categories(seats: int, seat_categories) -> dict[str, int]:
    out = {}
    for code, n in dict(seat_categories or {}).items():
        if code == "UR":
            continue
        if code not in RESERVED_CODES:
            raise FlagError(f"unknown seat category {code!r}; expected one of {' '.join(RESERVED_CODES)}",
                            option="--reserve")
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
            raise FlagError(f"{code}: {n!r} is not a number of seats", option="--reserve")
        if int(n):
            out[code] = int(n)
    if sum(out.values()) > seats:
        raise FlagError(f"{sum(out.values())} reserved seats for a poll of {seats} seat(s)",
                        option="--reserve")
    return out


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
    whether the seats are reserved ones (r.14(3) rather than r.14(2))."""
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
    reserved_seats = _check_seat_categories(seats, seat_categories)
    if seat_categories is not None and not reserved_seats and not category:
        category = "UR"              # a poll whose seats are given, none of them reserved
    names = [str(c) for c in ballots.columns]
    if electors is not None and electors < len(names):
        raise FlagError(f"{len(names)} candidates but only {electors} electors; every candidate is an elector "
                        f"(r.9(1): an elected member of the Zila Panchayat or a municipality)", option="--electors")
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
    if municipality_rule != "none":
        blank = [c for c in names if not muni[c]]
        if blank:
            raise InputError(f"candidate {blank[0]!r} has no municipality; r.3(4) needs one for every candidate "
                             f"(--candidates FILE)", file=cpath, row=crow.get(blank[0]), column="municipality")
    if reserved_seats:
        need_cat = any(not k.startswith("W") for k in reserved_seats)
        need_sex = any(k.endswith("W") for k in reserved_seats)
        for what, need, vals in (("category", need_cat, cat), ("sex", need_sex, sex)):
            blank = [c for c in names if need and not vals[c]]
            if blank:
                seats_txt = ", ".join(f"{k} {n}" for k, n in reserved_seats.items())
                raise InputError(f"candidate {blank[0]!r} has no {what}; the poll fills reserved seats "
                                 f"({seats_txt}; r.6), so every candidate's {what} is needed (r.9(3))",
                                 file=cpath, row=crow.get(blank[0]), column=what)
    capacity = dict(reserved_seats, UR=seats - sum(reserved_seats.values()))
    cap_t = tuple(sorted((k, n) for k, n in capacity.items() if n))
    kind = {c: (cat[c], sex[c]) for c in names}
    order_of = FILL_ORDERS[fill_order] if reserved_seats else None
    seat_seq: list[str] = []
    if order_of is not None:
        for code in order_of:
            seat_seq += [code] * capacity.get(code, 0)
    by_votes = reserved_seats and order_of is None
    trace: list[dict] = []

    def log(event, who, detail, clause):
        trace.append({"step": len(trace) + 1, "event": event, "candidates": "; ".join(who), "detail": detail,
                      "clause": clause})

    base = {"seats": seats, "municipality_rule": municipality_rule, "ballots": int(len(ballots)),
            "represented": list(represented), "seat_categories": dict(capacity) if reserved_seats else {},
            "fill_order": fill_order if reserved_seats else "", "category": category}
    votes = {c: 0 for c in names}
    no_rejects = pd.DataFrame(columns=REJECTED_COLUMNS)
    seat_of: dict[str, str] = {}

    def table(result: dict, order: dict, lot: dict, clause: dict, note: dict, polled: bool = True) -> pd.DataFrame:
        v = pd.Series(votes, dtype="int64")
        rank = v.rank(method="min", ascending=False) if len(v) else v
        return pd.DataFrame({
            "candidate": names, "municipality": [muni[c] for c in names],
            "municipality_lgd_code": pd.array([mcode[c] for c in names], dtype="Int64"),
            "category": [cat[c] for c in names], "sex": [sex[c] for c in names],
            "votes": pd.array([votes[c] if polled else None for c in names], dtype="Int64"),
            "rank": pd.array([int(rank[c]) if polled else None for c in names], dtype="Int64"),
            "result": [result.get(c, "not elected") for c in names],
            "seat": [seat_of.get(c, "") for c in names],
            "order": pd.array([order.get(c) for c in names], dtype="Int64"),
            "lot": [lot.get(c, "") for c in names], "clause": [clause.get(c, R26) for c in names],
            "note": [note.get(c, "") for c in names]}, columns=TABLE_COLUMNS)

    def seat_clause(c, rest: str) -> str:
        code = seat_of.get(c, "")
        return f"{R6} ({code} seat); {rest}" if code and code != "UR" and reserved_seats else rest

    def seats_table(elected: list[str], short: str = "") -> pd.DataFrame:
        codes = [k for k in (order_of or ("SC_W", "SC", "ST_W", "ST", "OBC_W", "OBC", "W", "UR"))
                 if capacity.get(k)] if reserved_seats else [category or ""]
        rows = []
        for k in codes:
            n = capacity.get(k, 0) if reserved_seats else seats
            members = [c for c in elected if seat_of.get(c, "") == k] if reserved_seats else list(elected)
            left = "" if len(members) == n else (short or f"{n - len(members)} seat(s) left unfilled")
            rows.append({"seat": k, "seats": n, "filled": len(members), "members": "; ".join(members),
                         "clause": R6 if k not in ("UR", "") else R26, "note": left})
        return pd.DataFrame(rows, columns=SEATS_TABLE_COLUMNS)

    def assign(elected: list[str]) -> None:
        """Seats for the members in the order of election: the widest seat each can take while the members
        after him can still be seated (highest_votes; also r.14(1) with reserved seats)."""
        room = dict(capacity)
        for i, c in enumerate(elected):
            rest = _kinds(elected[i + 1:], kind)
            for code in _WIDEST_FIRST:
                if room.get(code, 0) and eligible(cat[c], sex[c], code):
                    room[code] -= 1
                    if _seatable(rest, tuple(sorted((k, n) for k, n in room.items() if n))):
                        seat_of[c] = code
                        break
                    room[code] += 1

    # --- r.15 / r.14: no poll --------------------------------------------------------------------------
    if not names:
        log("no candidates", [], "no valid nomination: the election is to be commenced anew", R15)
        return CountResult("no_candidates", seats, table({}, {}, {}, {}, {}, False), no_rejects,
                           _trace_df(trace), meta=base,
                           seats_table=seats_table([], "no candidate: a new election (r.15)"))
    if electors is not None and electors <= seats:
        cl = R14_3 if reserved else R14_2
        if category and not reserved_seats:
            seat_of.update({c: category for c in names})
        log("all electors declared", names, f"{electors} electors for {seats} seat(s): every elector is "
            f"declared a member (the candidates are listed here; other electors are declared too)", cl)
        return CountResult("all_electors", seats,
                           table({c: "elected (all electors)" for c in names}, {c: i + 1 for i, c in enumerate(names)},
                                 {}, {c: cl for c in names}, {}, False), no_rejects, _trace_df(trace), meta=base,
                           seats_table=seats_table([], "every elector is declared a member (r.14)"))
    if len(names) <= seats:
        conflict = _unopposed_conflict(names, muni, municipality_rule, set(represented))
        if not conflict and reserved_seats and not _seatable(_kinds(names, kind), cap_t):
            conflict = "the candidates cannot all be given a seat they are eligible for (r.6)"
        if not conflict:
            if reserved_seats:
                assign(names)
            elif category:
                seat_of.update({c: category for c in names})
            note = "" if len(names) == seats else f"{seats - len(names)} seat(s) left unfilled"
            if len(ballots):
                note = (note + "; " if note else "") + f"no poll is taken: {len(ballots)} ballot(s) not counted"
            log("declared unopposed", names, f"{len(names)} candidate(s) for {seats} seat(s)" +
                ("" if len(names) == seats else "; fewer candidates than seats: all are declared elected and "
                 "the rest of the seats stay unfilled"), R14_1)
            return CountResult("unopposed", seats,
                               table({c: "elected unopposed" for c in names}, {c: i + 1 for i, c in enumerate(names)},
                                     {}, {c: seat_clause(c, R14_1) for c in names}, {c: note for c in names}, False),
                               no_rejects, _trace_df(trace), meta=base, seats_table=seats_table(names))
        log("poll needed", names, f"{len(names)} candidate(s) for {seats} seat(s), but {conflict}: "
            f"they cannot all be declared elected, so the votes decide", R34B if "r.6" not in conflict else R6)

    # --- r.25: scrutiny of the ballots -----------------------------------------------------------------
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

    base.update({"valid": int(len(valid)), "rejected": int(len(rejected))})
    for r in rejected_rows:
        log("ballot rejected", [], f"ballot {r['ballot']}: {r['reason']}", r["clause"])
    log("votes counted", names, f"{len(valid)} valid ballot(s) of {len(ballots)}; "
        + ", ".join(f"{c} {votes[c]}" for c in names), R24)
    if reserved_seats:
        how = (" then ".join(f"{k} {capacity[k]}" for k in order_of if capacity.get(k)) if order_of else
               "candidates in order of votes, each elected unless a reserved seat would be left without "
               "its member (" + ", ".join(f"{k} {n}" for k, n in capacity.items() if n) + ")")
        log("seats of the poll", [], f"{seats} seat(s) filled in one poll, fill_order={fill_order}: {how}", R6)

    # --- r.26 with r.6 and r.3(4): fill the seats one at a time ---------------------------------------
    rep0 = frozenset(represented)

    def pool(state) -> tuple[list[str], int]:
        """The candidates who may take the next seat, and the index of that seat (ordered readings skip the
        seats that no remaining candidate can take)."""
        elected, idx = state
        rep = rep0 | {muni[c] for c in elected}
        if municipality_rule == "at_most_one":
            rest = [c for c in names if c not in elected and muni[c] not in rep]
        else:
            rest = [c for c in names if c not in elected]
        if by_votes:
            k = _kinds(elected, kind)
            rest = [c for c in rest if _seatable(_add(k, kind[c]), cap_t)]
        elif seat_seq:
            while idx < len(seat_seq):
                ok = [c for c in rest if eligible(cat[c], sex[c], seat_seq[idx])]
                if ok:
                    rest = ok
                    break
                idx += 1
            else:
                rest = []
        if municipality_rule == "at_least_one":
            first = [c for c in rest if muni[c] not in rep]
            rest = first or rest
        return rest, idx

    def top(p: list[str]) -> list[str]:
        best = max(votes[c] for c in p)
        return [c for c in p if votes[c] == best]

    memo: dict = {}
    budget = [0]

    def outcomes(state) -> frozenset:
        """Every elected set that some way of breaking the remaining ties can give."""
        if state in memo:
            return memo[state]
        budget[0] += 1
        if budget[0] > TIE_STATES:
            raise _TooMany
        p, idx = pool(state)
        if len(state[0]) >= seats or not p:
            res = frozenset([state[0]])
        else:
            res = frozenset().union(*(outcomes((state[0] | {c}, idx + 1)) for c in top(p)))
        memo[state] = res
        return res

    lots_rows = [] if lots is None else list(lots.itertuples(index=False))
    lots_path = None if lots is None else lots.attrs.get("path")
    next_lot = 0
    elected: list[str] = []
    result, order, lot_col, clause, note = {}, {}, {}, {}, {}
    must_draw: list[str] = []
    status = "complete"
    idx = 0
    while len(elected) < seats:
        es = frozenset(elected)
        p, new_idx = pool((es, idx))
        for skipped in seat_seq[idx:new_idx] if seat_seq else ():
            log("seat left unfilled", [], f"a {skipped} seat: no remaining candidate is eligible for it "
                f"(r.6; the seat stays vacant)", R6)
        idx = new_idx
        if not p:
            if municipality_rule == "at_most_one":
                why, cl = "(r.3(4): the remaining candidates' municipalities already have their member)", R34B
            elif reserved_seats:
                why, cl = "(r.6: no remaining candidate is eligible for them)", R6
            else:
                why, cl = "", R26
            log("no eligible candidate", [], f"{seats - len(elected)} seat(s) left: no candidate can take them "
                + why, cl)
            break
        t = top(p)
        pick = t[0]
        if len(t) > 1:
            draw, possible = None, None
            fast = municipality_rule == "none" and not reserved_seats
            if fast:
                if len(t) > seats - len(elected):
                    draw = list(t)
            else:
                try:
                    budget[0] = 0
                    possible = outcomes((es, idx))
                    by_choice = {outcomes((es | {c}, idx + 1)) for c in t}
                    if len(by_choice) > 1:
                        draw = [c for c in t if not all(c in o for o in possible)] or list(t)
                except _TooMany:
                    draw, possible = list(t), None
                    log("tie too large to follow", t, f"{len(t)} candidates tie at {votes[t[0]]} votes; following "
                        f"every way of breaking it takes over {TIE_STATES:,} steps, so the lot is drawn among all "
                        f"of them (a lot that decides nothing changes nothing)", R26)
            if draw is None:
                log("tie without effect", t, f"{len(t)} candidates tie at {votes[t[0]]} votes, but whichever is "
                    f"taken first, the same members can be elected: no lot", R26)
            else:
                if next_lot >= len(lots_rows):
                    must_draw = draw
                    status = "lot_needed"
                    log("lot needed", draw, f"tie at {votes[draw[0]]} votes decides a seat; the count stops until "
                        f"the lot is drawn (supply a lots file row: winner = the candidate on whom it falls)", R26)
                    for c in draw:
                        result[c] = "tie: lot needed"
                    for c in names:
                        if c not in result and c not in elected and (
                                (possible is not None and any(c in o for o in possible)) or
                                (possible is None and votes[c] >= votes[draw[0]])):
                            result[c] = "pending: the count stopped for a lot"
                    break
                row = lots_rows[next_lot]
                next_lot += 1
                if row.winner not in draw:
                    raise InputError(f"lot {row.label}: {row.winner!r} is not among the candidates who must draw "
                                     f"now ({'; '.join(draw)})", file=lots_path, row=row.row, column="winner")
                if row.among is not None and set(row.among) != set(draw):
                    raise InputError(f"lot {row.label}: 'among' lists {'; '.join(row.among)} but the candidates "
                                     f"who must draw are {'; '.join(draw)}", file=lots_path, row=row.row,
                                     column="among")
                pick = row.winner
                ref = f"lot {row.label} ({Path(lots_path).name if lots_path else 'lots'} row {row.row})"
                lot_col[pick] = f"won {ref} among {'; '.join(draw)}"
                for c in draw:
                    if c != pick:
                        lot_col[c] = (lot_col.get(c, "") + "; " if lot_col.get(c) else "") + f"lost {ref}"
                log("lot drawn", draw, f"tie at {votes[pick]} votes; the lot fell on {pick}, who counts as having "
                    f"one more vote", R26)
        elected.append(pick)
        order[pick] = len(elected)
        result[pick] = "elected"
        if seat_seq:
            seat_of[pick] = seat_seq[idx]
        elif category and not reserved_seats:
            seat_of[pick] = category
        idx += 1
        rep_before = rep0 | {muni[c] for c in elected[:-1]}
        if municipality_rule == "at_least_one" and muni[pick] not in rep_before:
            clause[pick] = f"{R26}; {R34}"
            note[pick] = f"first member from {muni[pick]}"
        elif municipality_rule == "at_most_one":
            clause[pick] = f"{R26}; {R34B}"
            note[pick] = f"the member from {muni[pick]}"
        else:
            clause[pick] = R26
        what = f"seat {len(elected)} of {seats}" + (f" ({seat_of[pick]})" if seat_seq else "")
        log("elected", [pick], f"{what}: {pick} ({votes[pick]} votes"
            + (f", {muni[pick]}" if muni[pick] else "") + ")", seat_clause(pick, clause[pick]))

    if by_votes and elected:
        assign(elected)
        log("seats assigned", elected, "; ".join(f"{c}: {seat_of[c]}" for c in elected) + " (in order of "
            "election, each member the widest seat he can take while those after him keep a seat)", R6)
    if seat_seq and status == "complete":
        for skipped in seat_seq[idx:]:
            log("seat left unfilled", [], f"a {skipped} seat: no remaining candidate is eligible for it "
                f"(r.6; the seat stays vacant)", R6)
    for c in elected:
        clause[c] = seat_clause(c, clause[c])

    if next_lot < len(lots_rows) and status == "complete":
        for row in lots_rows[next_lot:]:
            log("lot not used", [row.winner], f"lot {row.label} (row {row.row}) was not needed", R26)

    # passed over under r.3(4)(b): a candidate with more votes than an elected one, kept out by his municipality
    if municipality_rule == "at_most_one" and elected:
        low = min(votes[c] for c in elected)
        taken = rep0 | {muni[c] for c in elected}
        for c in names:
            if c not in result and muni[c] in taken and votes[c] >= low:
                result[c] = "not elected (municipality has its member)"
                clause[c] = R34B
                holder = next((e for e in elected if muni[e] == muni[c]), None)
                note[c] = (f"{muni[c]} is already represented by {holder}" if holder
                           else f"{muni[c]} already has a member from another contest")
    # passed over under r.6: more votes than a member who holds a reserved seat the candidate cannot take
    if reserved_seats and elected and status == "complete":
        for c in names:
            if c in result:
                continue
            below = [e for e in elected if votes[e] < votes[c] and not eligible(cat[c], sex[c], seat_of[e])]
            if below:
                e = min(below, key=lambda x: (votes[x], -order[x]))
                result[c] = "not elected (seats reserved)"
                clause[c] = R6
                note[c] = f"more votes than {e} ({votes[e]}), who holds a {seat_of[e]} seat"
    if municipality_rule == "at_least_one" and district_municipalities:
        have = {muni[c] for c in names}
        for m in district_municipalities:
            if m not in have and m not in rep0:
                log("municipality without candidate", [], f"{m} has no candidate: r.3(4) 'at least one member "
                    f"from every municipality' cannot be met for it", R34)
    base.update({"lots_used": next_lot})
    st = seats_table(elected, "" if status == "complete" else "the count stopped for a lot")
    if status == "complete":
        base["unfilled"] = {r.seat: int(r.seats - r.filled) for r in st.itertuples() if r.seats > r.filled}
    return CountResult(status, seats, table(result, order, lot_col, clause, note), rejected,
                       _trace_df(trace), must_draw=must_draw, meta=base, seats_table=st)


def _add(kinds: tuple, k) -> tuple:
    d = dict(kinds)
    d[k] = d.get(k, 0) + 1
    return tuple(sorted(d.items()))


def _trace_df(trace: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(trace, columns=["step", "event", "candidates", "detail", "clause"])


def _unopposed_conflict(names, muni, rule, represented) -> str:
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
