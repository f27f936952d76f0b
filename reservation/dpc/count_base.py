"""The vocabulary of a DPC count: the rules cited, the kinds of seat, who may take which seat, and the result.

Used by :mod:`reservation.dpc.count` (the order of the count) and :mod:`reservation.dpc.count_steps` (its
steps); the rules themselves are described in :mod:`reservation.dpc.count`'s docstring.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

import pandas as pd

from .files import FlagError

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
        """The members elected, in the order of their election (the ``order`` column, which only they have; the
        ``result`` column is words)."""
        rows = [(int(o), c) for c, o in zip(self.table["candidate"], self.table["order"]) if not pd.isna(o)]
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

def _add(kinds: tuple, k) -> tuple:
    d = dict(kinds)
    d[k] = d.get(k, 0) + 1
    return tuple(sorted(d.items()))


def _trace_df(trace: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(trace, columns=["step", "event", "candidates", "detail", "clause"])
