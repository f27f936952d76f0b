"""The ``reservation`` command.

Every sub-command validates all its inputs before it writes anything. Bad input is an
:class:`~reservation.errors.InputError`: one line on stderr naming file, row and column, exit status 2.
Sub-command groups for other instruments register themselves through a ``register(subparsers)`` function
(see :mod:`reservation.cli_dpc`).
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import InputError, RuleError


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and a one-line message (its own default is also 2)."""

    def error(self, message):  # pragma: no cover - exercised through the CLI tests
        self.exit(2, f"{self.prog}: error: {message}\n")


def _body_year(sp):
    sp.add_argument("--body", required=True, help="body id, e.g. zp-chair")
    sp.add_argument("--year", required=True, type=int, help="election year, e.g. 2021")


def cmd_counts(args) -> int:
    from .options import parse_assignments
    from .rulebook import get_rulebook
    rb = get_rulebook(args.body)
    rb.years.check(args.body, args.year)
    if rb.light_counts is not None and not args.units:
        # the State counts of a chair body from the shipped table, without numpy or pandas (a fast process)
        rows = rb.light_counts(rb.option_set(parse_assignments(args.option)))
    else:
        from .pipeline import counts
        rows = counts(args.body, args.year, units=args.units, options=args.option).itertuples(index=False)
    rows = [tuple(r) for r in rows]
    if args.format == "json":
        print(json.dumps({r[0]: int(r[1]) for r in rows}, indent=2))
        return 0
    import csv
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["category", "count"] + (["arithmetic", "clause"] if args.arithmetic else []))
    for r in rows:
        w.writerow(r if args.arithmetic else r[:2])
    return 0


def _allot(args):
    from .pipeline import allot
    from .rulebook import get_rulebook
    rb = get_rulebook(args.body)
    return rb, allot(args.body, args.year, units=args.units, history=args.history or None,
                     population=args.population, pins=args.pin, options=args.option, base_year=args.base_year)


def cmd_allot(args) -> int:
    from .output import table_csv, write_allotment
    rb, result = _allot(args)
    if args.out is None:
        sys.stdout.write(table_csv(result.table))
        for a in result.meta["assumptions"]:
            print(f"assumed: {a}", file=sys.stderr)
        return 0
    out, meta = write_allotment(result, args.out)
    summary = result.summary_by_division()
    if "no_figures" in result.extra:
        print("bodies without population figures (ranked last):")
        print(result.extra["no_figures"].to_string(index=False))
    print(f"{rb.title}, {args.year}: {len(result.table)} units ({rb.unit_kind}); rotation against "
          f"{', '.join(map(str, result.meta['history_years'])) or 'no history'} (base year "
          f"{result.meta['base_year']})")
    print(summary.to_string())
    for a in result.meta["assumptions"]:
        print(f"assumed: {a}")
    print(f"wrote {out} and {meta}")
    return 0


def cmd_explain(args) -> int:
    from .explain import explain_text
    body, result = _allot(args)
    print(explain_text(result, args.unit))
    return 0


def cmd_parent_table(args) -> int:
    from .rulebook import all_rulebooks, get_rulebook
    rb = get_rulebook(args.body)
    if rb.parent_table != args.command:
        have = ", ".join(b.id for b in all_rulebooks().values() if b.parent_table == args.command)
        raise InputError(f"{args.body} is not shared among {args.command} (bodies with a {args.command} table: "
                         f"{have})", option="--body")
    _, result = _allot(args)
    if args.command not in result.extra:
        raise InputError(f"{args.body}: no {args.command} step with these options", option="--option")
    sys.stdout.write(result.extra[args.command].to_csv(index=False, lineterminator="\n"))
    for a in result.meta["assumptions"]:
        print(f"assumed: {a}", file=sys.stderr)
    return 0


def cmd_options(args) -> int:
    from .rulebook import get_rulebook
    rows = get_rulebook(args.body).option_set().describe()
    import pandas as pd
    sys.stdout.write(pd.DataFrame(rows).to_csv(index=False, lineterminator="\n"))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="reservation", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sp = sub.add_parser("counts", help="State-level number of offices per category")
    _body_year(sp)
    sp.add_argument("--format", choices=["csv", "json"], default="csv")
    sp.add_argument("--arithmetic", action="store_true", help="add the arithmetic and the clause of each count")
    sp.add_argument("--units", metavar="FILE", help="units CSV (gp-pradhan and the ward bodies)")
    sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    sp.set_defaults(func=cmd_counts)

    for name, func, text in (("allot", cmd_allot, "allot the reserved offices to units, with reasons"),
                             ("explain", cmd_explain, "every rule step that touched one unit, in order"),
                             ("districts", cmd_parent_table, "posts per district and category, with each step"),
                             ("divisions", cmd_parent_table, "offices per division and category, with each step")):
        sp = sub.add_parser(name, help=text)
        _body_year(sp)
        sp.add_argument("--history", action="append", metavar="FILE",
                        help="history CSV (unit,year,category); repeatable; replaces the shipped history")
        sp.add_argument("--base-year", type=int, default=None,
                        help="first history year that counts as a previous election (default: 2015 for the "
                             "panchayat bodies, the first history year for the urban bodies)")
        sp.add_argument("--population", metavar="FILE", help="CSV unit,pop,sc,st,obc (any of the last four)")
        sp.add_argument("--pin", metavar="FILE", help="CSV unit,category: fixed categories")
        sp.add_argument("--units", metavar="FILE",
                        help="CSV unit,parent,pop,sc,st[,obc,name_en,name_hi,district,division] (gp-pradhan, "
                             "gp-ward, kp-ward, zp-ward)")
        sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="ambiguity switch; see `reservation options --body BODY`")
        if name == "allot":
            sp.add_argument("--out", metavar="FILE", help="write the CSV (and FILE's .meta.json) here")
        elif name == "explain":
            sp.add_argument("--unit", required=True, help="the unit: LGD code or English/Hindi name")
        sp.set_defaults(func=func)

    sp = sub.add_parser("options", help="the named ambiguity switches of a body, defaults and evidence")
    sp.add_argument("--body", required=True)
    sp.set_defaults(func=cmd_options)

    from . import cli_dpc, cli_project, cli_report
    cli_dpc.register(sub)
    cli_report.register(sub)
    cli_project.register(sub)
    return p


def main(argv=None) -> int:
    import warnings

    from .rulebook import BaseYearWarning
    warnings.simplefilter("ignore", BaseYearWarning)     # the CLI prints every assumption itself
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InputError as e:
        print(f"reservation: error: {e}", file=sys.stderr)
        return 2
    except RuleError as e:
        print(f"reservation: cannot apply the rules: {e}", file=sys.stderr)
        return 3
    except BrokenPipeError:  # pragma: no cover
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
