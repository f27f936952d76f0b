"""District Planning Committees (notebook 05): the committee's members, its reserved seats, and a sample count
with made-up ballots and a lot."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..law.categories import CODES, label
from ..base.errors import InputError
from ..law.words import check_lang, word

__all__ = ["check_contest", "dpc_composition", "dpc_reserved_seats", "dpc_sample_ballots", "dpc_sample_count"]

def dpc_composition(district, year: int = 2021) -> pd.DataFrame:
    """The members of a district's planning committee from the Schedule (r.3(1)): ``part, members, clause``
    (elected under s.4(2); s.4(4)(a),(b),(d); s.4(4)(e); the total), with the elected count the rules use."""
    from ..dpc import seats as dpc
    from ..dpc.schedule import load_schedule
    code = dpc._district_code(district)
    sch = load_schedule()
    r = sch[sch["district_lgd_code"] == code].iloc[0]
    e = dpc.elected_members(code, int(year))
    rows = [
        {"part": "elected from the Zila Panchayat and the municipalities (s.4(2), column 3)",
         "members": int(e["count"]), "note": e["note"] or e["arithmetic"]},
        {"part": "ex officio and nominated: s.4(4)(a), (b), (d) (column 4)", "members": int(r["s4_4_abd"]),
         "note": ""},
        {"part": "nominated: s.4(4)(e) (column 5)", "members": pd.NA if pd.isna(r["s4_4_e"]) else int(r["s4_4_e"]),
         "note": "blank in the Schedule" if pd.isna(r["s4_4_e"]) else ""},
        {"part": "members under s.4(4) (column 6)", "members": int(r["s4_4"]), "note": ""},
        {"part": "total (column 7)", "members": int(r["total"]), "note": r["check"] if r["check"] != "ok" else ""},
    ]
    out = pd.DataFrame(rows)
    out["members"] = out["members"].astype("Int64")
    out.attrs["clause"] = str(r["clause"])
    out.attrs["serial"] = int(r["serial"])
    out.attrs["district"] = str(r["district"])
    return out


def dpc_reserved_seats(district, year: int = 2021, lang: str = "en") -> pd.DataFrame:
    """Elected seats of the committee by category and part: rows the eight categories and a total, columns
    ``rural`` (members from the Zila Panchayat) and ``urban`` (from the municipalities), labels in ``lang``."""
    from ..dpc import seats as dpc
    check_lang(lang)
    s = dpc.seats(district, int(year))
    cat = s[s["row"] == "category"]
    t = cat.pivot_table(index="category", columns="part", values="count", aggfunc="sum").reindex(list(CODES))
    t = t.fillna(0).astype(int)
    for p in ("rural", "urban"):
        if p not in t.columns:
            t[p] = 0
    t = t[["rural", "urban"]]
    t["all"] = t["rural"] + t["urban"]
    t.loc["TOTAL"] = t.sum(axis=0)
    t.insert(0, word("table.category", lang), [label(c, lang) for c in CODES] + [word("table.total", lang)])
    t.index.name = word("table.category_code", lang)
    t.columns.name = None
    return t


def dpc_sample_ballots(seats: int, *, candidates: int | None = None, electors: int | None = None,
                       tie: bool = True) -> pd.DataFrame:
    """A made-up, deterministic set of ballots for a block vote with ``seats`` seats (for teaching: no real
    votes). Candidates ``Candidate 1`` ... ``Candidate k`` (k = seats + 3 by default). Each valid ballot marks at
    most ``seats`` candidates. With ``tie``, the last seat is tied between Candidates ``seats`` and ``seats+1`` so
    that a lot decides it (r.26(1)); two extra ballots are invalid: one blank (r.25(3)(a)) and one with more marks
    than seats (r.25(3)(b)). Returns 0/1 ints, one column per candidate, index = ballot label."""
    seats = int(seats)
    if seats < 1:
        raise InputError("a contest needs at least one seat", column="seats")
    k = int(candidates or seats + 3)
    if k < seats + 1:
        raise InputError("a sample contest needs more candidates than seats", column="candidates")
    # target votes: distinct for the first seats-1, a tie at the cut-off, fewer for the rest; the total fits in
    # the ballots (each marks at most `seats` candidates), and each candidate's marks go to the least-filled ballots
    n = int(electors or 10 + 3 * k)
    high = n * seats // k - 1
    tied = high - seats
    target = [high - j for j in range(seats - 1)] + [tied, tied if tie else tied - 1]
    target += [max(0, tied - 2 - j) for j in range(k - seats - 1)]
    if min(target[:seats + 1]) < 1 or sum(target) > n * seats or max(target) > n:
        raise InputError("too few electors for the sample contest", column="electors")
    marks = np.zeros((n, k), dtype=np.int64)
    load = np.zeros(n, dtype=np.int64)
    for c, v in enumerate(target):
        chosen = np.argsort(load, kind="stable")[:v]
        marks[chosen, c] = 1
        load[chosen] += 1
    assert load.max() <= seats
    names = [f"Candidate {i + 1}" for i in range(k)]
    df = pd.DataFrame(marks, columns=names)
    df.index = [f"{i + 1}" for i in range(n)]
    if tie:
        extra = pd.DataFrame([[0] * k, [1] * min(k, seats + 1) + [0] * (k - min(k, seats + 1))], columns=names,
                             index=[f"{n + 1}", f"{n + 2}"])
        df = pd.concat([df, extra])
    df.index.name = "ballot"
    df.attrs["path"] = "(sample ballots)"
    return df.astype("int64")


def check_contest(part, category) -> None:
    """The part (rural or urban) and the category of a sample contest, refused with the nearest value."""
    from ..inputs.nearest import did_you_mean
    if part not in ("rural", "urban"):
        raise InputError(f"part must be rural or urban, not {part!r}{did_you_mean(part, ['rural', 'urban'])}",
                         column="part")
    if category not in CODES:
        raise InputError(f"unknown category {category!r}; expected one of {' '.join(CODES)}"
                         f"{did_you_mean(category, list(CODES))}", column="category")


def dpc_sample_count(district, year: int = 2021, part: str = "rural", category: str = "UR",
                     lot_winner: str = "") -> dict:
    """A sample count for one contest of the district's committee: the seats of ``category`` in ``part`` from
    :func:`reservation.dpc.seats.seats`, made-up ballots (:func:`dpc_sample_ballots`) with a tie at the
    last seat, the count stopping for the lot (r.26(1)), the lot as an input (``lot_winner``, by default the first
    of those who must draw) and the count completed with it.

    Returns ``{"seats", "ballots", "first" (CountResult, status lot_needed), "lots" (the lot input),
    "final" (CountResult), "contest" (text)}``.
    """
    from ..dpc import seats as dpc
    from ..dpc.count import count_election
    check_contest(part, category)
    s = dpc.seats(district, int(year))
    row = s[(s["row"] == "category") & (s["part"] == part) & (s["category"] == category)]
    n = int(row["count"].iat[0]) if len(row) else 0
    if n < 1:
        raise InputError(f"{s['district'].iat[0]}: no {part} {category} seat in {year}; choose another category",
                         column="category")
    ballots = dpc_sample_ballots(n)
    first = count_election(ballots, n)
    lots = pd.DataFrame(columns=["label", "winner", "among", "row"])
    final = first
    if first.status == "lot_needed":
        w = lot_winner or first.must_draw[0]
        if w not in first.must_draw:
            raise InputError(f"the lot can only fall on one of {', '.join(first.must_draw)}, not {w!r}",
                             column="lot_winner")
        lots = pd.DataFrame([{"label": "lot drawn by the Returning Officer", "winner": w,
                              "among": tuple(first.must_draw), "row": 1}])
        lots.attrs["path"] = "(lot input)"
        final = count_election(ballots, n, lots=lots)
    contest = (f"{s['district'].iat[0]} {year}: {part} members, category {category} "
               f"({label(category)}), {n} seat(s), {len(ballots)} ballots (made up for the example)")
    return {"seats": n, "ballots": ballots, "first": first, "lots": lots, "final": final, "contest": contest}
