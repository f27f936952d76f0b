"""``reservation dpc ...``: the District Planning Committee (U.P. DPC Rules 2008, seed c).

Sub-commands (tables go to stdout as CSV, or JSON with ``--format json``; messages go to stderr):

- ``schedule``: the Schedule of 75 districts parsed from the seed, every row checked.
- ``seats --district NAME|all [--year Y]``: elected seats, rural/urban split (r.3(3)), the municipality rule
  (r.3(4)) and reserved seats (r.6).
- ``count --district NAME --ballots FILE [--candidates FILE] [--lots FILE]``: a block-vote count (r.24-26,
  r.3(4), r.14).
- ``timeline --notification DATE [--nomination D --withdrawal D --poll D --completed D]``: rule 7 and rule 29.

Exit status: 0 done; 2 bad input (one line naming file, row and column; nothing written to stdout);
1 ``timeline`` found a breach; 3 ``count`` stopped because a lot must be drawn (stderr names who draws).
"""

from __future__ import annotations

import json
import sys

import pandas as pd

from .errors import InputError

__all__ = ["register"]


def _records(df: pd.DataFrame) -> list[dict]:
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
    from .options import parse_assignments
    from .rulebooks.dpc import dpc_options
    return dpc_options(parse_assignments(items))


# --------------------------------------------------------------------------------------------- schedule
def cmd_schedule(args) -> int:
    from .rulebooks.dpc_schedule import load_schedule
    df = load_schedule(args.seed)
    bad = df[df["check"] != "ok"]
    _emit(df, args.format, {"source": df.attrs.get("source", ""), "rows_not_adding_up": int(len(bad))})
    for r in bad.itertuples():
        print(f"reservation dpc schedule: serial {r.serial} ({r.district}) does not add up: {r.check}",
              file=sys.stderr)
    return 0


# ------------------------------------------------------------------------------------------------ seats
def cmd_seats(args) -> int:
    from .rulebooks.dpc import load_body_seats, seats, seats_all
    opts = _options(args.option)
    body = load_body_seats(args.body_seats) if args.body_seats else None
    if args.district.strip().lower() == "all":
        if args.elected is not None or body is not None:
            raise InputError("--elected and --body-seats need one district, not 'all'", column="district")
        df = seats_all(args.year, opts, seed=args.seed)
    else:
        df = seats(args.district, args.year, opts, elected=args.elected, body_seats=body, seed=args.seed)
    _emit(df, args.format, {"options": df.attrs.get("options", {}), "inputs": df.attrs.get("inputs", {})})
    return 0


# ------------------------------------------------------------------------------------------------ count
def _count(args):
    from .rulebooks import dpc
    from .rulebooks.dpc_count import count_election, load_ballots, load_candidates, load_lots
    from .units import crosswalk
    try:
        code = crosswalk().resolve(args.district)
    except KeyError as e:
        raise InputError(str(e.args[0]), column="district") from None
    ballots = load_ballots(args.ballots)
    names = list(ballots.columns)

    def resolve(value):
        return dpc.resolve_municipality(code, value)

    cands = load_candidates(args.candidates, names, resolve) if args.candidates else None
    lots = load_lots(args.lots, names) if args.lots else None
    part = args.part or ("urban" if cands is not None and (cands["municipality"] != "").any() else "rural")
    rule = args.municipality_rule
    need_seats = args.seats is None or rule == "auto"
    table = None
    if need_seats:
        table = dpc.seats(code, args.year, _options(args.option), seed=args.seed)
    if args.seats is not None:
        n = args.seats
    else:
        sel = table[(table["part"] == part) & ((table["row"] == "category") if args.category else
                                               (table["row"] == "split"))]
        if args.category:
            sel = sel[sel["category"] == args.category]
        n = int(sel["count"].iat[0])
    muni = dpc.municipalities(code)
    if rule == "auto":
        if part == "rural":
            rule = "none"
        else:
            urban = int(table[(table["part"] == "urban") & (table["row"] == "split")]["count"].iat[0])
            rule = "at_least_one" if urban >= len(muni) else "at_most_one"
    represented = []
    for i, m in enumerate(args.represented or []):
        try:
            represented.append(resolve(m)[1])
        except KeyError as e:
            raise InputError(str(e.args[0]), column="--represented") from None
    result = count_election(ballots, n, candidates=cands, municipality_rule=rule, lots=lots,
                            electors=args.electors, reserved=bool(args.category and args.category != "UR"),
                            represented=represented, district_municipalities=list(muni["ulb_name"]))
    result.meta.update({"district": crosswalk().name_en[code], "part": part, "category": args.category or "",
                        "ballots_file": args.ballots, "candidates_file": args.candidates or "",
                        "lots_file": args.lots or ""})
    return result


def cmd_count(args) -> int:
    result = _count(args)
    if args.format == "json":
        payload = {"status": result.status, "must_draw": result.must_draw, "meta": result.meta,
                   "elected": result.elected, "table": _records(result.table),
                   "rejected": _records(result.rejected), "trace": _records(result.trace)}
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")
    else:
        df = {"table": result.table, "rejected": result.rejected, "trace": result.trace}[args.show]
        sys.stdout.write(df.to_csv(index=False, lineterminator="\n"))
    m = result.meta
    print(f"reservation dpc count: {m['district']} {m['part']}"
          + (f" {m['category']}" if m["category"] else "")
          + f": {result.status}; {len(result.elected)} of {result.seats} seat(s) filled; municipality rule "
          f"{m['municipality_rule']}; {m.get('rejected', 0)} ballot(s) rejected", file=sys.stderr)
    if result.status == "lot_needed":
        print("reservation dpc count: a lot must be drawn (r.26(1)) between "
              + ", ".join(result.must_draw) + "; give its outcome in --lots FILE (column 'winner')", file=sys.stderr)
        return 3
    return 0


# --------------------------------------------------------------------------------------------- timeline
def cmd_timeline(args) -> int:
    from .rulebooks.dpc_timeline import timeline
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
    p = subparsers.add_parser("dpc", help="District Planning Committee: Schedule, seats, count, timeline",
                              description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="dpc_command", required=True, parser_class=type(p))

    def fmt(sp):
        sp.add_argument("--format", choices=["csv", "json"], default="csv")

    def seed(sp):
        sp.add_argument("--seed", metavar="FILE", help="the DPC Rules text (default: ../shared/seeds/003_...)")

    def option(sp):
        sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="DPC reading switch: schedule_row, population_basis, reservation_basis, "
                             "obc_ratio_rural, obc_ratio_urban, category_rounding, women, women_rounding")

    sp = sub.add_parser("schedule", help="the Schedule of 75 districts, parsed from the seed and checked")
    fmt(sp)
    seed(sp)
    sp.set_defaults(func=cmd_schedule)

    sp = sub.add_parser("seats", help="elected seats: rural/urban split (r.3(3)), r.3(4), reservation (r.6)")
    sp.add_argument("--district", required=True, help="LGD code, English or Hindi name, or 'all'")
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
    sp.add_argument("--district", required=True)
    sp.add_argument("--ballots", required=True, metavar="FILE", help="CSV: one row per ballot, one column per "
                    "candidate, 1 = mark")
    sp.add_argument("--candidates", metavar="FILE", help="CSV candidate,municipality")
    sp.add_argument("--lots", metavar="FILE", help="CSV winner[,among,lot]: outcomes of lots, in order")
    sp.add_argument("--part", choices=["rural", "urban"],
                    help="default: urban if the candidates have municipalities, else rural")
    sp.add_argument("--category", choices=["ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC", "W", "UR"],
                    help="the reserved category contested (seats from `dpc seats`)")
    sp.add_argument("--seats", type=int, help="seats to fill (default: from `dpc seats`)")
    sp.add_argument("--municipality-rule", default="auto",
                    choices=["auto", "none", "at_most_one", "at_least_one"],
                    help="r.3(4); auto: from the urban seats and the number of municipalities")
    sp.add_argument("--represented", action="append", metavar="MUNICIPALITY",
                    help="a municipality that already has a member from another contest (repeatable)")
    sp.add_argument("--electors", type=int, help="number of electors (r.14(2)/(3))")
    sp.add_argument("--year", type=int, default=2021)
    sp.add_argument("--show", choices=["table", "rejected", "trace"], default="table",
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
