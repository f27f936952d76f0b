"""Counting a DPC election: block vote with rejected ballots, the one-member-per-municipality rule and lots.

The rules (U.P. DPC Rules 2008, seed c):

- **r.24(2)**: every elector has as many votes as there are members to be elected; a ballot is not invalid
  only because fewer votes are marked.
- **r.25(3)**: a ballot is rejected if (a) it has no mark, or (b) it has more marks than the number of
  candidates to be elected.
- **r.26(1)**: the candidates with the highest number of votes are declared elected; "in the event of
  equality of votes between any candidates and the addition of one vote will entitle any of those candidates
  to be declared elected", the Returning Officer decides between them **by lot** and proceeds as if the
  candidate on whom the lot falls had one more vote.
- **r.3(4)**: urban members: if there are at least as many members as municipalities, at least one member
  from every municipality (``at_least_one``); if fewer, (a) not more than one member from a municipality and
  (b) the candidate with most votes in a municipality is its member, and no other candidate of that
  municipality is elected whatever his votes (``at_most_one``). Rural members: no such rule (``none``).
- **r.14**: (1) as many candidates as members: all are declared elected, no poll; (2) as many or fewer
  electors than members: all electors are declared members; (3) the same for the members to be elected
  against reservation. **r.15**: no candidate: the election starts anew.

**How the count proceeds** (deterministic; every step is recorded in ``trace`` with its rule). Seats are
filled one at a time. The *pool* is every candidate not yet elected and, under ``at_most_one``, not from a
municipality that already has its member; under ``at_least_one`` the pool is first limited to candidates of
municipalities not yet represented, until every municipality that has a candidate has one member (if a
contest has fewer seats than such municipalities, their leaders take the seats in order of votes). The pool's
candidate with the most votes takes the seat. When several share the most votes, every way of breaking the
tie is followed to the end: if all give the same elected members, the tie decides no seat and no lot is
drawn (r.26(1): only where "the addition of one vote will entitle" a candidate to be elected); otherwise the
candidates whose election depends on it must draw, and the next row of the lots file says on whom the lot
fell. Without such a row the count **stops** with status ``lot_needed`` and names the candidates who must
draw. The pool rule makes "never two from one municipality when seats are fewer than municipalities" hold by
construction.

**Files** (UTF-8 CSV, header = spreadsheet row 1; errors name file, row and column):

- ballots: one row per ballot paper, one column per contesting candidate (the column header is the
  candidate's name as on the ballot); a mark is ``1``, no mark is ``0`` or blank; anything else is an error.
  An optional column ``ballot`` holds the ballot's own number (otherwise the row number identifies it).
- candidates (optional; needed for urban members): ``candidate, municipality``: one row per ballot column;
  ``municipality`` is the LGD code or the name of a municipality of the district in the shipped urban-body
  list (``data/ulbs_lgd.csv``; names are compared after NFC and case/punctuation folding).
- lots (optional): ``winner`` and optionally ``among`` (the candidates who drew, separated by ``;``) and
  ``lot`` (a label). Rows are used in file order, one per lot the count needs; a row whose winner is not
  among those who must draw, or whose ``among`` differs from them, is an error.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import InputError
from ..units import nfc, read_csv

__all__ = ["load_ballots", "load_candidates", "load_lots", "count_election", "CountResult", "RULES_OF_COUNT",
           "MUNICIPALITY_RULES"]

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
RULES_OF_COUNT = (R24, R25A, R25B, R26, R34, R34B, R14_1, R14_2, R14_3, R15)
MUNICIPALITY_RULES = ("none", "at_most_one", "at_least_one")
BALLOT_ID = "ballot"


# ------------------------------------------------------------------------------------------------ inputs
def _header(path) -> list[str]:
    p = Path(path)
    if not p.is_file():
        raise InputError("file not found", file=str(path))
    try:
        with p.open(encoding="utf-8", newline="") as f:
            header = next(csv.reader(f), None)
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text ({e.reason})", file=str(path)) from None
    if not header:
        raise InputError("empty file: a header row is needed", file=str(path), row=1)
    header = [nfc(h) for h in header]
    if header and header[0].startswith("\ufeff"):
        header[0] = header[0][1:]
    seen = set()
    for h in header:
        if h == "":
            raise InputError("a column has no name", file=str(path), row=1)
        if h in seen:
            raise InputError(f"column {h!r} appears twice", file=str(path), row=1, column=h)
        seen.add(h)
    return header


def load_ballots(path) -> pd.DataFrame:
    """Ballots -> DataFrame of 0/1 ints, one column per candidate (in file order), index = ballot label
    (the ``ballot`` column, or "row N"); ``attrs['rows']`` the spreadsheet rows, ``attrs['path']``."""
    header = _header(path)
    cands = [h for h in header if h != BALLOT_ID]   # none at all: no candidate (r.15)
    df = read_csv(path, header, what="ballots")
    marks = {}
    for c in cands:
        col = []
        for value, row in zip(df[c], df["_row"]):
            if value in ("", "0"):
                col.append(0)
            elif value == "1":
                col.append(1)
            else:
                raise InputError(f"ballot mark {value!r} is not 1 (mark), 0 or blank (no mark)", file=str(path),
                                 row=int(row), column=c)
        marks[c] = col
    out = pd.DataFrame(marks, columns=cands, dtype="int64")
    labels = [f"row {int(r)}" for r in df["_row"]]
    if BALLOT_ID in df.columns:
        labels = [b if b else lab for b, lab in zip(df[BALLOT_ID], labels)]
    out.index = pd.Index(labels, name="ballot")
    out.attrs["rows"] = [int(r) for r in df["_row"]]
    out.attrs["path"] = str(path)
    return out


def load_candidates(path, ballot_candidates: list[str], resolve_municipality=None) -> pd.DataFrame:
    """Candidates -> DataFrame ``candidate, municipality, municipality_lgd_code`` in ballot order.

    ``resolve_municipality(value) -> (lgd_code, name)`` (raising KeyError) checks each municipality against
    the district's list; without it names are kept as given."""
    df = read_csv(path, ["candidate"], what="candidates")
    has_m = "municipality" in df.columns
    rows = {}
    for i, (cand, row) in enumerate(zip(df["candidate"], df["_row"])):
        if cand == "":
            raise InputError("empty candidate name", file=str(path), row=int(row), column="candidate")
        if cand in rows:
            raise InputError(f"candidate {cand!r} is listed twice", file=str(path), row=int(row), column="candidate")
        if cand not in ballot_candidates:
            raise InputError(f"candidate {cand!r} is not a column of the ballot file", file=str(path), row=int(row),
                             column="candidate")
        m = df["municipality"].iat[i] if has_m else ""
        code = None
        if m and resolve_municipality is not None:
            try:
                code, m = resolve_municipality(m)
            except KeyError as e:
                raise InputError(str(e.args[0]), file=str(path), row=int(row), column="municipality") from None
        rows[cand] = (m, code)
    missing = [c for c in ballot_candidates if c not in rows]
    if missing:
        raise InputError(f"ballot candidate {missing[0]!r} has no row in the candidates file", file=str(path),
                         column="candidate")
    out = pd.DataFrame({"candidate": ballot_candidates,
                        "municipality": [rows[c][0] for c in ballot_candidates],
                        "municipality_lgd_code": pd.array([rows[c][1] for c in ballot_candidates], dtype="Int64")})
    out.attrs["path"] = str(path)
    return out


def load_lots(path, candidates: list[str]) -> pd.DataFrame:
    """Lots -> DataFrame ``label, winner, among (tuple or None), row`` in file order."""
    df = read_csv(path, ["winner"], what="lots")
    out = []
    for i, (w, row) in enumerate(zip(df["winner"], df["_row"])):
        if w not in candidates:
            raise InputError(f"unknown candidate {w!r}", file=str(path), row=int(row), column="winner")
        among = None
        if "among" in df.columns and df["among"].iat[i]:
            among = tuple(nfc(a) for a in df["among"].iat[i].split(";") if nfc(a))
            for a in among:
                if a not in candidates:
                    raise InputError(f"unknown candidate {a!r}", file=str(path), row=int(row), column="among")
            if w not in among:
                raise InputError(f"winner {w!r} is not among {'; '.join(among)}", file=str(path), row=int(row),
                                 column="among")
        label = df["lot"].iat[i] if "lot" in df.columns and df["lot"].iat[i] else f"row {int(row)}"
        out.append({"label": label, "winner": w, "among": among, "row": int(row)})
    res = pd.DataFrame(out, columns=["label", "winner", "among", "row"])
    res.attrs["path"] = str(path)
    return res


# ------------------------------------------------------------------------------------------------- result
@dataclass
class CountResult:
    """``table``: one row per candidate; ``rejected``: the rejected ballots; ``trace``: every step.

    ``status``: ``complete``, ``unopposed`` (r.14(1)), ``all_electors`` (r.14(2)/(3)), ``no_candidates``
    (r.15) or ``lot_needed`` (the count stopped; ``must_draw`` names who must draw)."""
    status: str
    seats: int
    table: pd.DataFrame
    rejected: pd.DataFrame
    trace: pd.DataFrame
    must_draw: list[str] = field(default_factory=list)
    meta: dict = field(default_factory=dict)

    @property
    def elected(self) -> list[str]:
        t = self.table[self.table["result"].str.startswith("elected")]
        return list(t.sort_values("order", kind="stable")["candidate"])


REJECTED_COLUMNS = ["ballot", "row", "marks", "reason", "clause"]
TABLE_COLUMNS = ["candidate", "municipality", "municipality_lgd_code", "votes", "rank", "result", "order", "lot",
                 "clause", "note"]


class _LotsExhausted(Exception):
    def __init__(self, must_draw):
        self.must_draw = must_draw


def count_election(ballots: pd.DataFrame, seats: int, *, candidates: pd.DataFrame | None = None,
                   municipality_rule: str = "none", lots: pd.DataFrame | None = None,
                   electors: int | None = None, reserved: bool = False, represented=(),
                   district_municipalities=None) -> CountResult:
    """Count one contest (see the module docstring).

    ``ballots``: from :func:`load_ballots` (or any 0/1 DataFrame, one column per candidate).
    ``candidates``: from :func:`load_candidates` (needed unless ``municipality_rule == "none"``).
    ``represented``: municipalities that already have a member from another contest (r.3(4)(a)).
    ``district_municipalities``: names of all the district's municipalities, to report any without a
    candidate under ``at_least_one``. ``electors``: the number of electors (for r.14(2)/(3)); ``reserved``:
    whether the seats are reserved ones (r.14(3) rather than r.14(2))."""
    if municipality_rule not in MUNICIPALITY_RULES:
        raise InputError(f"municipality rule {municipality_rule!r} is not one of {', '.join(MUNICIPALITY_RULES)}",
                         column="municipality_rule")
    seats = int(seats)
    if seats < 1:
        raise InputError(f"{seats} seats: there is no seat to fill", column="seats")
    names = [str(c) for c in ballots.columns]
    muni = {c: "" for c in names}
    mcode = {c: pd.NA for c in names}
    if candidates is not None:
        for c, m, k in zip(candidates["candidate"], candidates["municipality"], candidates["municipality_lgd_code"]):
            muni[c], mcode[c] = m, k
    if municipality_rule != "none":
        blank = [c for c in names if not muni[c]]
        if blank:
            raise InputError(f"candidate {blank[0]!r} has no municipality; r.3(4) needs one for every candidate "
                             f"(--candidates FILE)", file=(candidates.attrs.get("path") if candidates is not None
                                                           else None), column="municipality")
    trace: list[dict] = []

    def log(event, who, detail, clause):
        trace.append({"step": len(trace) + 1, "event": event, "candidates": "; ".join(who), "detail": detail,
                      "clause": clause})

    base = {"seats": seats, "municipality_rule": municipality_rule, "ballots": int(len(ballots)),
            "represented": list(represented)}
    votes = {c: 0 for c in names}
    no_rejects = pd.DataFrame(columns=REJECTED_COLUMNS)

    def table(result: dict, order: dict, lot: dict, clause: dict, note: dict, polled: bool = True) -> pd.DataFrame:
        v = pd.Series(votes, dtype="int64")
        rank = v.rank(method="min", ascending=False) if len(v) else v
        return pd.DataFrame({
            "candidate": names, "municipality": [muni[c] for c in names],
            "municipality_lgd_code": pd.array([mcode[c] for c in names], dtype="Int64"),
            "votes": pd.array([votes[c] if polled else None for c in names], dtype="Int64"),
            "rank": pd.array([int(rank[c]) if polled else None for c in names], dtype="Int64"),
            "result": [result.get(c, "not elected") for c in names],
            "order": pd.array([order.get(c) for c in names], dtype="Int64"),
            "lot": [lot.get(c, "") for c in names], "clause": [clause.get(c, R26) for c in names],
            "note": [note.get(c, "") for c in names]}, columns=TABLE_COLUMNS)

    # --- r.15 / r.14: no poll --------------------------------------------------------------------------
    if not names:
        log("no candidates", [], "no valid nomination: the election is to be commenced anew", R15)
        return CountResult("no_candidates", seats, table({}, {}, {}, {}, {}, False), no_rejects,
                           _trace_df(trace), meta=base)
    if electors is not None and int(electors) <= seats:
        cl = R14_3 if reserved else R14_2
        log("all electors declared", names, f"{int(electors)} electors for {seats} seat(s): every elector is "
            f"declared a member (the candidates are listed here; other electors are declared too)", cl)
        return CountResult("all_electors", seats,
                           table({c: "elected (all electors)" for c in names}, {c: i + 1 for i, c in enumerate(names)},
                                 {}, {c: cl for c in names}, {}, False), no_rejects, _trace_df(trace), meta=base)
    if len(names) <= seats:
        conflict = _unopposed_conflict(names, muni, municipality_rule, set(represented))
        if not conflict:
            note = "" if len(names) == seats else f"{seats - len(names)} seat(s) left unfilled"
            if len(ballots):
                note = (note + "; " if note else "") + f"no poll is taken: {len(ballots)} ballot(s) not counted"
            log("declared unopposed", names, f"{len(names)} candidate(s) for {seats} seat(s)" +
                ("" if len(names) == seats else "; fewer candidates than seats: all are declared elected and "
                 "the rest of the seats stay unfilled"), R14_1)
            return CountResult("unopposed", seats,
                               table({c: "elected unopposed" for c in names}, {c: i + 1 for i, c in enumerate(names)},
                                     {}, {c: R14_1 for c in names}, {c: note for c in names}, False),
                               no_rejects, _trace_df(trace), meta=base)
        log("poll needed", names, f"{len(names)} candidate(s) for {seats} seat(s), but {conflict}: "
            f"they cannot all be declared elected (r.3(4)), so the votes decide", R34B)

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
    votes = {c: int(valid[c].sum()) for c in names}

    base.update({"valid": int(len(valid)), "rejected": int(len(rejected))})
    for r in rejected_rows:
        log("ballot rejected", [], f"ballot {r['ballot']}: {r['reason']}", r["clause"])
    log("votes counted", names, f"{len(valid)} valid ballot(s) of {len(ballots)}; "
        + ", ".join(f"{c} {votes[c]}" for c in names), R24)

    # --- r.26 with r.3(4): fill the seats one at a time ------------------------------------------------
    rep0 = frozenset(represented)

    def pool(elected: frozenset) -> list[str]:
        rep = rep0 | {muni[c] for c in elected}
        if municipality_rule == "at_most_one":
            return [c for c in names if c not in elected and muni[c] not in rep]
        rest = [c for c in names if c not in elected]
        if municipality_rule == "at_least_one":
            first = [c for c in rest if muni[c] not in rep]
            return first or rest
        return rest

    def top(p: list[str]) -> list[str]:
        best = max(votes[c] for c in p)
        return [c for c in p if votes[c] == best]

    memo: dict[frozenset, frozenset] = {}

    def outcomes(elected: frozenset) -> frozenset:
        """Every elected set that some way of breaking the remaining ties can give."""
        if elected in memo:
            return memo[elected]
        p = pool(elected)
        if len(elected) >= seats or not p:
            res = frozenset([elected])
        else:
            res = frozenset().union(*(outcomes(elected | {c}) for c in top(p)))
        memo[elected] = res
        return res

    lots_rows = [] if lots is None else list(lots.itertuples(index=False))
    lots_path = None if lots is None else lots.attrs.get("path")
    next_lot = 0
    elected: list[str] = []
    result, order, lot_col, clause, note = {}, {}, {}, {}, {}
    must_draw: list[str] = []
    status = "complete"
    while len(elected) < seats:
        es = frozenset(elected)
        p = pool(es)
        if not p:
            log("no eligible candidate", [], f"{seats - len(elected)} seat(s) left: no candidate can take them "
                + ("(r.3(4): the remaining candidates' municipalities already have their member)"
                   if municipality_rule == "at_most_one" else ""), R26)
            break
        t = top(p)
        pick = t[0]
        if len(t) > 1:
            possible = outcomes(es)
            by_choice = {outcomes(es | {c}) for c in t}
            if len(by_choice) == 1:
                log("tie without effect", t, f"{len(t)} candidates tie at {votes[t[0]]} votes, but whichever is "
                    f"taken first, the same members can be elected: no lot", R26)
            else:
                draw = [c for c in t if not all(c in o for o in possible)] or list(t)
                if next_lot >= len(lots_rows):
                    must_draw = draw
                    status = "lot_needed"
                    log("lot needed", draw, f"tie at {votes[draw[0]]} votes decides a seat; the count stops until "
                        f"the lot is drawn (supply a lots file row: winner = the candidate on whom it falls)", R26)
                    for c in draw:
                        result[c] = "tie: lot needed"
                    for c in names:
                        if c not in result and c not in elected and any(c in o for o in possible):
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
        rep_before = rep0 | {muni[c] for c in elected[:-1]}
        if municipality_rule == "at_least_one" and muni[pick] not in rep_before:
            clause[pick] = f"{R26}; {R34}"
            note[pick] = f"first member from {muni[pick]}"
        elif municipality_rule == "at_most_one":
            clause[pick] = f"{R26}; {R34B}"
            note[pick] = f"the member from {muni[pick]}"
        else:
            clause[pick] = R26
        log("elected", [pick], f"seat {len(elected)} of {seats}: {pick} ({votes[pick]} votes"
            + (f", {muni[pick]}" if muni[pick] else "") + ")", clause[pick])

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
    if municipality_rule == "at_least_one" and district_municipalities:
        have = {muni[c] for c in names}
        for m in district_municipalities:
            if m not in have and m not in rep0:
                log("municipality without candidate", [], f"{m} has no candidate: r.3(4) 'at least one member "
                    f"from every municipality' cannot be met for it", R34)
    base.update({"lots_used": next_lot})
    return CountResult(status, seats, table(result, order, lot_col, clause, note), rejected,
                       _trace_df(trace),
                       must_draw=must_draw, meta=base)


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
