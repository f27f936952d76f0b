"""``reservation dpc ...``: the District Planning Committee (U.P. DPC Rules 2008).

Sub-commands (tables go to stdout as CSV, or JSON with ``--format json``; messages go to stderr):

- ``schedule``: the Schedule of 75 districts parsed from the seed, every row checked.
- ``seats --district NAME|all [--year Y]``: elected seats, rural/urban split (r.3(3)), the municipality rule
  (r.3(4)) and reserved seats (r.6).
- ``count --district NAME --ballots FILE [--candidates FILE] [--lots FILE]``: a block-vote count (r.24-26,
  r.3(4), r.14). By default one poll fills the part's seats from ``seats``, its reserved seats (r.6) too, in
  the order of ``--option fill_order`` (the candidates file then gives each candidate's ``category`` and
  ``sex``); ``--category CODE`` counts one category's separate contest; ``--seats N [--reserve CODE=N ...]``
  gives the seats directly.
- ``timeline --notification DATE [--nomination D --withdrawal D --poll D --completed D]``: rule 7 and rule 29.

Exit status: 0 done; 2 bad input (one line naming file, row and column, or the flag; nothing written to stdout;
the files are read by :mod:`reservation.dpc.files`);
1 ``timeline`` found a breach; 3 ``count`` stopped because a lot must be drawn (stderr names who draws).
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from ..base.errors import FlagError, InputError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["register"]


def _records(df: pd.DataFrame) -> list[dict]:
    import pandas as pd
    out = []
    for rec in df.to_dict(orient="records"):
        out.append({k: (None if (v is pd.NA or (isinstance(v, float) and v != v)) else
                        (int(v) if hasattr(v, "item") and not isinstance(v, (str, bool)) else v))
                    for k, v in rec.items()})
    return out


def _emit(df: pd.DataFrame, fmt: str, extra: dict | None = None) -> None:
    if fmt == "json":
        payload = dict(extra or {})
        payload["rows"] = _records(df)
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")
    else:
        sys.stdout.write(df.to_csv(index=False, lineterminator="\n"))


def _options(items):
    from ..inputs.options import parse_assignments
    from ..dpc.seats import dpc_options
    return dpc_options(parse_assignments(items))


# --------------------------------------------------------------------------------------------- schedule
def cmd_schedule(args) -> int:
    from ..dpc.schedule import load_schedule
    df = load_schedule(args.seed)
    bad = df[df["check"] != "ok"]
    _emit(df, args.format, {"source": df.attrs.get("source", ""), "rows_not_adding_up": int(len(bad))})
    for r in bad.itertuples():
        print(f"reservation dpc schedule: serial {r.serial} ({r.district}) does not add up: {r.check}",
              file=sys.stderr)
    return 0


# ------------------------------------------------------------------------------------------------ seats
def cmd_seats(args) -> int:
    from ..dpc.seats import _elected_count, check_year, load_body_seats, seats, seats_all
    check_year(args.year)
    if args.elected is not None:
        _elected_count(args.elected)
    if args.district.strip().lower() == "all" and (args.elected is not None or args.body_seats):
        raise FlagError("--elected and --body-seats need one district, not 'all'", option="--district")
    opts = _options(args.option)
    body = load_body_seats(args.body_seats) if args.body_seats else None
    if args.district.strip().lower() == "all":
        df = seats_all(args.year, opts, seed=args.seed)
    else:
        df = seats(args.district, args.year, opts, elected=args.elected, body_seats=body, seed=args.seed)
    _emit(df, args.format, {"options": df.attrs.get("options", {}), "inputs": df.attrs.get("inputs", {})})
    return 0


# ------------------------------------------------------------------------------------------------ count
def _flag_count(value, flag: str, low: int, high: int, what: str) -> int | None:
    if value is None:
        return None
    if value < low:
        raise FlagError(f"{value} {what}: there must be at least {low}", option=flag)
    if value > high:
        raise FlagError(f"{value} {what}: at most {high}", option=flag)
    return value


def _reserve(items, flag: str = "--reserve") -> dict[str, int]:
    from ..dpc.count import MAX_SEATS, RESERVED_CODES
    out: dict[str, int] = {}
    for item in items or []:
        code, sep, n = str(item).partition("=")
        code, n = code.strip(), n.strip()
        if not sep or code not in RESERVED_CODES or not n.isascii() or not n.isdigit() or len(n) > 3:
            raise FlagError(f"{str(item)[:40]!r} is not CODE=N with CODE one of {' '.join(RESERVED_CODES)} and N "
                            f"a number of seats", option=flag)
        if code in out:
            raise FlagError(f"{code} is given twice", option=flag)
        out[code] = _flag_count(int(n), flag, 0, MAX_SEATS, f"{code} seats")
    return out


def _count(args):
    """``dpc count``: the flags (refused before any file is read), the files, the poll's seats (r.3(3), r.6),
    the r.3(4) reading, then :func:`reservation.dpc.count.count_election`."""
    from ..dpc import seats as dpc
    from ..dpc.count import count_election
    from ..inputs.names import crosswalk
    reserve = _count_flags(args)
    opts = _options(args.option)
    code = _count_district(args)
    ballots, cands, lots = _count_files(args, code)
    part = args.part or ("urban" if cands is not None and (cands["municipality"] != "").any() else "rural")
    table = None
    if args.seats is None or args.municipality_rule == "auto":
        table = dpc.seats(code, args.year, opts, seed=args.seed)
    n, seat_categories = _poll_seats(args, table, part, reserve)
    district = crosswalk().name_en(code)
    if n < 1:
        raise FlagError(f"{district} {part} {args.category or ''}: {n} seats in {args.year}: there is no seat to "
                        f"fill", option="--category" if args.category else "--part")
    _check_classes_given(district, part, n, seat_categories, cands)
    _check_separate_contest(args.category, cands)
    muni = dpc.municipalities(code)
    rule = _municipality_rule(args.municipality_rule, part, table, muni)
    represented = _represented(args.represented, code)
    result = count_election(ballots, n, candidates=cands, municipality_rule=rule, lots=lots,
                            electors=args.electors, reserved=bool(args.category and args.category != "UR"),
                            represented=represented, district_municipalities=list(muni["ulb_name"]),
                            seat_categories=seat_categories, fill_order=opts["fill_order"],
                            category=args.category or "")
    result.meta.update({"district": district, "part": part, "category": args.category or "",
                        "ballots_file": args.ballots, "candidates_file": args.candidates or "",
                        "lots_file": args.lots or "", "options": {"fill_order": opts.record()["fill_order"]}})
    return result


def _count_flags(args) -> dict[str, int]:
    """The flags of ``dpc count``, each bounded: the year, the seats (at most MAX_SEATS), the electors, the
    reserved seats of one poll (r.6: ``--reserve`` with ``--seats``, not with ``--category``). Returns them."""
    from ..dpc import seats as dpc
    from ..dpc.count import MAX_SEATS
    dpc.check_year(args.year)
    _flag_count(args.seats, "--seats", 1, MAX_SEATS, "seats")
    _flag_count(args.electors, "--electors", 1, 100_000, "electors")
    reserve = _reserve(args.reserve)
    if reserve and args.seats is None:
        raise FlagError("--reserve gives the reserved seats of a poll of --seats N seats; give --seats",
                        option="--reserve")
    if reserve and args.category:
        raise FlagError("--category counts one category's separate contest; --reserve is for a poll that fills "
                        "several kinds of seat", option="--reserve")
    if args.seats is not None and sum(reserve.values()) > args.seats:
        raise FlagError(f"{sum(reserve.values())} reserved seats for --seats {args.seats}", option="--reserve")
    return reserve


def _count_district(args) -> int:
    from ..inputs.names import crosswalk
    try:
        return crosswalk().resolve(args.district)
    except KeyError as e:
        raise FlagError(str(e.args[0]), option="--district") from None


def _count_files(args, code: int):
    """The ballots (r.24(2)), the candidates (r.9(3): municipality, class, sex) and the lots (r.26(1))."""
    from ..dpc import seats as dpc
    from ..dpc.count import load_ballots, load_candidates, load_lots
    ballots = load_ballots(args.ballots)
    names = list(ballots.columns)

    def resolve(value):
        return dpc.resolve_municipality(code, value)

    cands = load_candidates(args.candidates, names, resolve) if args.candidates else None
    lots = load_lots(args.lots, names) if args.lots else None
    return ballots, cands, lots


def _poll_seats(args, table, part: str, reserve: dict[str, int]):
    """The seats of the poll and its reserved seats: ``--seats`` (with ``--reserve``), else from ``dpc seats``:
    one category's seats (``--category``, a separate contest) or the part's seats (r.3(3)) with their reserved
    seats (r.6) filled in the poll. Returns ``(n, seat_categories or None)``."""
    if args.seats is not None:
        return args.seats, reserve or None
    sel = table[(table["part"] == part) & ((table["row"] == "category") if args.category else
                                           (table["row"] == "split"))]
    if args.category:
        sel = sel[sel["category"] == args.category]
    n = int(sel["count"].iat[0])
    seat_categories = None
    if not args.category:
        cats = table[(table["part"] == part) & (table["row"] == "category")]
        seat_categories = {k: int(v) for k, v in zip(cats["category"], cats["count"]) if k != "UR" and int(v)}
    return n, seat_categories


def _check_classes_given(district: str, part: str, n: int, seat_categories, cands) -> None:
    """r.6 with r.9(3): a poll that fills reserved seats needs the candidates file's ``category`` (a class's
    seats) and ``sex`` (women's seats) columns."""
    if not seat_categories:
        return
    cols = cands.attrs.get("columns", []) if cands is not None else []
    needed = [c for c, need in (("category", any(not k.startswith("W") for k in seat_categories)),
                                ("sex", any(k.endswith("W") for k in seat_categories))) if need]
    lacking = [c for c in needed if c not in cols]
    if lacking:
        what = ", ".join(f"{k} {v}" for k, v in seat_categories.items())
        raise FlagError(f"{district} {part}: the poll fills {sum(seat_categories.values())} reserved seat(s) "
                        f"of {n} ({what}; r.6), so every candidate's {' and '.join(needed)} is needed: give "
                        f"--candidates FILE with column(s) {', '.join(lacking)}, or count one category's "
                        f"separate contest with --category CODE, or a poll without reserved seats with "
                        f"--seats N", option="--candidates")


def _check_separate_contest(category: str | None, cands) -> None:
    """r.6: in one category's separate contest, a class or sex the candidates file gives must fit its seats."""
    if not category or cands is None:
        return
    group = category.removesuffix("_W")
    women = category.endswith("_W") or category == "W"
    for c, k, x in zip(cands["candidate"], cands["category"], cands["sex"]):
        bad = ("category", f"of {k}, not {group}") if group not in ("W", "UR") and k and k != group else \
            ("sex", "not a woman") if women and x and x != "F" else None
        if bad:
            raise InputError(f"candidate {c!r} ({bad[1]}) cannot stand for a {category} seat (r.6)",
                             file=cands.attrs["path"], row=cands.attrs["rows"][c], column=bad[0])


def _municipality_rule(rule: str, part: str, table, muni) -> str:
    """r.3(4): ``auto`` reads the rule from the urban seats and the number of municipalities (at least as many
    members as municipalities: ``at_least_one``, fewer: ``at_most_one``; rural members: ``none``)."""
    if rule != "auto":
        return rule
    if part == "rural":
        return "none"
    urban = int(table[(table["part"] == "urban") & (table["row"] == "split")]["count"].iat[0])
    return "at_least_one" if urban >= len(muni) else "at_most_one"


def _represented(values, code: int) -> list:
    """r.3(4)(a): the municipalities that already have a member from another contest (``--represented``)."""
    from ..dpc import seats as dpc
    represented = []
    for m in values or []:
        try:
            represented.append(dpc.resolve_municipality(code, m)[1])
        except KeyError as e:
            raise FlagError(str(e.args[0]), option="--represented") from None
    return represented


def cmd_count(args) -> int:
    result = _count(args)
    if args.format == "json":
        payload = {"status": result.status, "must_draw": result.must_draw, "meta": result.meta,
                   "elected": result.elected, "table": _records(result.table),
                   "seats": _records(result.seats_table), "rejected": _records(result.rejected),
                   "trace": _records(result.trace)}
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")
    else:
        df = {"table": result.table, "seats": result.seats_table, "rejected": result.rejected,
              "trace": result.trace}[args.show]
        sys.stdout.write(df.to_csv(index=False, lineterminator="\n"))
    m = result.meta
    reserved = m.get("seat_categories") or {}
    unfilled = m.get("unfilled") or {}
    print(f"reservation dpc count: {m['district']} {m['part']}"
          + (f" {m['category']}" if m["category"] else "")
          + f": {result.status}; {len(result.elected)} of {result.seats} seat(s) filled"
          + (f" ({sum(v for k, v in reserved.items() if k != 'UR')} reserved, fill_order={m['fill_order']})"
             if reserved else "")
          + (f"; left unfilled: {', '.join(f'{k} {v}' for k, v in unfilled.items())}" if unfilled else "")
          + f"; municipality rule {m['municipality_rule']}; {m.get('rejected', 0)} ballot(s) rejected",
          file=sys.stderr)
    if result.status == "lot_needed":
        print("reservation dpc count: a lot must be drawn (r.26(1)) between "
              + ", ".join(result.must_draw) + "; give its outcome in --lots FILE (column 'winner')", file=sys.stderr)
        return 3
    return 0


# --------------------------------------------------------------------------------------------- timeline
def cmd_timeline(args) -> int:
    from ..dpc.timeline import timeline
    df = timeline(args.notification, nomination=args.nomination, withdrawal=args.withdrawal, poll=args.poll,
                  completed=args.completed, vacancy_intimated=args.vacancy_intimated, ten_days=args.ten_days)
    _emit(df, args.format, {"options": df.attrs["options"], "breaches": df.attrs["breaches"]})
    if df.attrs["breaches"]:
        bad = df[df["check"] == "breach"]
        for r in bad.itertuples():
            print(f"reservation dpc timeline: {r.step}: breach of {r.clause}: {r.note}", file=sys.stderr)
        return 1
    return 0


# ------------------------------------------------------------------------------------------------ parser
def register(subparsers) -> None:
    """Add ``dpc`` and its sub-commands to the ``reservation`` parser's sub-parsers."""
    from .args import text_type
    p = subparsers.add_parser("dpc", help="District Planning Committee: Schedule, seats, count, timeline",
                              description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="dpc_command", required=True, parser_class=type(p))

    def fmt(sp):
        sp.add_argument("--format", choices=["csv", "json"], default="csv")

    def seed(sp):
        sp.add_argument("--seed", metavar="FILE",
                        help="the DPC Rules text (default: the shipped data/seeds/003_f563b6887052fbbf.txt)")

    def option(sp):
        sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="DPC reading switch: schedule_row, population_basis, reservation_basis, "
                             "obc_ratio_rural, obc_ratio_urban, category_rounding, women, women_rounding, "
                             "fill_order (count: the order of filling reserved seats in one poll)")

    sp = sub.add_parser("schedule", help="the Schedule of 75 districts, parsed from the seed and checked")
    fmt(sp)
    seed(sp)
    sp.set_defaults(func=cmd_schedule)

    sp = sub.add_parser("seats", help="elected seats: rural/urban split (r.3(3)), r.3(4), reservation (r.6)")
    sp.add_argument("--district", required=True, type=text_type, help="LGD code, English or Hindi name, or 'all'")
    sp.add_argument("--year", type=int, default=2021, help="election year (default 2021)")
    sp.add_argument("--elected", type=int, help="elected members, overriding the Schedule")
    sp.add_argument("--body-seats", metavar="FILE",
                    help="CSV part,category,seats: seats reserved in the Zila Panchayat / municipalities "
                         "(with --option reservation_basis=body_seats)")
    option(sp)
    fmt(sp)
    seed(sp)
    sp.set_defaults(func=cmd_seats)

    sp = sub.add_parser("count", help="count a block-vote election (r.24-26, r.3(4), r.14)")
    sp.add_argument("--district", required=True, type=text_type)
    sp.add_argument("--ballots", required=True, metavar="FILE", help="CSV: one row per ballot, one column per "
                    "candidate, 1 = mark")
    sp.add_argument("--candidates", metavar="FILE", help="CSV candidate,municipality")
    sp.add_argument("--lots", metavar="FILE", help="CSV winner[,among,lot]: outcomes of lots, in order")
    sp.add_argument("--part", choices=["rural", "urban"],
                    help="default: urban if the candidates have municipalities, else rural")
    sp.add_argument("--category", choices=["ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC", "W", "UR"],
                    help="the reserved category contested (seats from `dpc seats`)")
    sp.add_argument("--seats", type=int, help="seats to fill in a poll without reserved seats (with --reserve: "
                    "with them); default: the part's seats from `dpc seats`, its reserved seats filled in the poll")
    sp.add_argument("--reserve", action="append", metavar="CODE=N",
                    help="with --seats: N of the seats are reserved for CODE (ST_W ST SC_W SC OBC_W OBC W); "
                         "repeatable")
    sp.add_argument("--municipality-rule", default="auto",
                    choices=["auto", "none", "at_most_one", "at_least_one"],
                    help="r.3(4); auto: from the urban seats and the number of municipalities")
    sp.add_argument("--represented", action="append", metavar="MUNICIPALITY", type=text_type,
                    help="a municipality that already has a member from another contest (repeatable)")
    sp.add_argument("--electors", type=int, help="number of electors (r.14(2)/(3))")
    sp.add_argument("--year", type=int, default=2021)
    sp.add_argument("--show", choices=["table", "seats", "rejected", "trace"], default="table",
                    help="which table to print as CSV (JSON has all)")
    option(sp)
    fmt(sp)
    seed(sp)
    sp.set_defaults(func=cmd_count)

    sp = sub.add_parser("timeline", help="earliest dates under rule 7 and a check against rules 7 and 29")
    sp.add_argument("--notification", required=True, metavar="DATE", help="YYYY-MM-DD or DD.MM.YYYY")
    sp.add_argument("--nomination", metavar="DATE")
    sp.add_argument("--withdrawal", metavar="DATE")
    sp.add_argument("--poll", metavar="DATE")
    sp.add_argument("--completed", metavar="DATE",
                    help="completion of the Zila Panchayat / municipal election (r.29: six weeks)")
    sp.add_argument("--vacancy-intimated", metavar="DATE", help="casual vacancy intimated to the SEC (r.28(2))")
    sp.add_argument("--ten-days", choices=["calendar", "clear"], default="calendar",
                    help="r.7(a) 'at least ten days after': +10 (calendar, default) or +11 (clear days)")
    fmt(sp)
    sp.set_defaults(func=cmd_timeline)
