"""``reservation design``: the assignment as data for researchers (issue 21 item 6;
:mod:`reservation.projection.design`, docs/research.md).

    reservation design --body B --year Y [--history FILE ...] [--base-year Y] [--population FILE] [--pin FILE]
                       [--units FILE] [--option NAME=VALUE ...] [--samples N] [--seed S] [--no-probabilities]
                       [--out FILE.csv|.parquet|.xlsx] [--force]

One row per unit and per pass of the law it was a candidate in: the tier, the rank in the pass's order, the pool,
the cut-off, the margin to it (in places and in the key's own units, exact), whether it was taken, and where the
unknown OBC population decides the probability of each category (the projection of ``reservation project``, its
defaults and seed). Without ``--out`` the CSV goes to stdout; with ``--out FILE`` (checked before anything is
computed) the table and ``FILE.meta.json`` are published together. Exit status: 0 done; 2 bad input (one line,
nothing written); 3 the rules cannot be applied.
"""

from __future__ import annotations

import sys

__all__ = ["register", "cmd_design"]


def register(sub) -> None:
    """Add the ``design`` sub-command to the ``reservation`` parser's sub-parsers."""
    from .args import add_samples_seed, text_type, year_type
    from ..output.guard import add_force
    sp = sub.add_parser("design", help="for researchers: every pass of the law per unit (tier, rank, cut-off, "
                                       "margin, probabilities) as a table")
    sp.add_argument("--body", required=True, type=text_type, help="body id, e.g. zp-chair")
    sp.add_argument("--year", required=True, type=year_type, help="election year, e.g. 2021")
    sp.add_argument("--history", action="append", metavar="FILE",
                    help="history CSV (unit,year,category); repeatable; replaces the shipped history")
    sp.add_argument("--base-year", type=year_type, default=None,
                    help="first history year that counts as a previous election (default: the rulebook's)")
    sp.add_argument("--population", metavar="FILE", help="CSV unit,pop,sc,st,obc (any of the last four); with "
                                                         "'obc' the OBC order is no longer a stand-in")
    sp.add_argument("--pin", metavar="FILE", help="CSV unit,category: fixed categories (a published list)")
    sp.add_argument("--units", metavar="FILE", help="units CSV (gp-pradhan and the ward bodies)")
    sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="ambiguity switch; see `reservation options --body BODY`")
    add_samples_seed(sp, "sampled OBC populations of the probabilities (default 1000, as `reservation project`)",
                     "seed of the random generator (default 0, as `reservation project`)")
    sp.add_argument("--no-probabilities", action="store_true",
                    help="leave the projection out (the rows say so): faster for the largest bodies")
    sp.add_argument("--out", metavar="FILE", help="write the table here (.csv, .parquet or .xlsx) with FILE's "
                                                  ".meta.json beside it")
    add_force(sp)
    sp.set_defaults(func=cmd_design)


def cmd_design(args) -> int:
    from ..base.errors import InputError
    from ..output.tables import table_csv, write_allotment
    from ..projection.design import design
    if args.base_year is not None and args.base_year > args.year:
        raise InputError(f"{args.base_year} is after the election year {args.year} (--year): the base year is the "
                         "first previous election that counts", option="--base-year")
    if args.out is not None:                    # the target is checked before anything is computed
        from ..output.guard import input_files
        from ..output.tables import check_output
        check_output(args.out, force=args.force, inputs=input_files(args))
    d = design(args.body, args.year, units=args.units, history=args.history or None, population=args.population,
               pins=args.pin, options=args.option, base_year=args.base_year, samples=args.samples, seed=args.seed,
               probabilities=not args.no_probabilities)
    t = d.table
    summary = (f"{args.body} {args.year}: {len(t)} rows ({d.meta['design']['units']} units, passes "
               f"{', '.join(d.meta['design']['passes'])}); {int(t['taken'].sum())} posts taken in the passes")
    if args.out is None:
        sys.stdout.write(table_csv(t))
        print(summary, file=sys.stderr)
        return 0
    out, meta = write_allotment(d, args.out, force=args.force)
    print(summary)
    for a in d.meta["assumptions"]:
        print(f"assumed: {a}")
    print(f"wrote {out} and {meta}")
    return 0
