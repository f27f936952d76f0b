"""``reservation project``: the next election, with the probability of each category where unpublished OBC data
decides (issue 11; :mod:`reservation.projection.project`).

    reservation project --body zp-chair --year 2026 [--history FILE ...] [--samples N] [--seed S]
                        [--obc-sd PP] [--constraint past_lists|none] [--out FILE | --format csv|json]
                        [--units FILE] [--population FILE] [--pin FILE] [--base-year Y] [--option NAME=VALUE ...]

Without ``--out`` the table goes to stdout (CSV, or JSON with the meta under ``--format json``); with ``--out FILE``
(``.csv``, ``.xlsx`` or ``.parquet``; checked before anything is computed) the table and ``FILE.meta.json`` are
published together (:mod:`reservation.output.tables`) and a summary is printed. A progress bar goes to
stderr when it is a terminal (``--quiet`` turns it off). Exit status: 0 done; 2 bad input (one line naming file,
row and column; nothing written); 3 the rules cannot be applied (for example a published past list that no OBC
figures can give: ``--constraint none`` then ignores what the lists reveal).
"""

from __future__ import annotations

import sys

__all__ = ["register", "cmd_project"]


def _count(name: str):
    """An argparse type: a whole number within reservation.inputs.limits.LIMITS[name] (refused at once, naming the
    bound)."""
    from ..inputs.limits import argtype
    return argtype("count", name)


def register(sub) -> None:
    """Add the ``project`` sub-command to the ``reservation`` parser's sub-parsers."""
    from .args import add_samples_seed, year_type
    from ..projection.defaults import CONSTRAINTS, DEFAULT_OBC_SD
    sp = sub.add_parser("project", help="the next election: the probability of each category where unpublished "
                                        "OBC data decides")
    sp.add_argument("--body", required=True, help="body id, e.g. zp-chair")
    sp.add_argument("--year", required=True, type=year_type, help="election year, e.g. 2026")
    sp.add_argument("--history", action="append", metavar="FILE",
                    help="history CSV (unit,year,category); repeatable; replaces the shipped history")
    sp.add_argument("--base-year", type=year_type, default=None, help="first history year that counts as a previous "
                                                                 "election (default: the rulebook's)")
    sp.add_argument("--population", metavar="FILE", help="CSV unit,pop,sc,st,obc (any of the last four); with "
                                                         "'obc' nothing is unknown")
    sp.add_argument("--pin", metavar="FILE", help="CSV unit,category: fixed categories of the projected election")
    sp.add_argument("--units", metavar="FILE", help="units CSV (gp-pradhan and the ward bodies)")
    sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="ambiguity switch; see `reservation options --body BODY`")
    add_samples_seed(sp, "sampled OBC populations (default 1000; at most 100,000)",
                     "seed of the random generator (default 0)")
    sp.add_argument("--obc-sd", default=DEFAULT_OBC_SD, metavar="PP",
                    help=f"spread of the prior of each unit's OBC share, in percentage points (default "
                         f"{DEFAULT_OBC_SD}: an assumption; see reservation.projection.priors)")
    sp.add_argument("--constraint", choices=CONSTRAINTS, default="past_lists",
                    help="past_lists: every sample reproduces the published past lists (default); none: they "
                         "count as rotation history only")
    sp.add_argument("--burn-in", type=_count("burn_in"), default=200,
                    help="Gibbs sweeps before the first sample (default 200; at most 100,000)")
    sp.add_argument("--thin", type=_count("thin"), default=5,
                    help="Gibbs sweeps between samples (default 5; at most 1,000; --samples x --thin + --burn-in at "
                         "most 1,000,000)")
    sp.add_argument("--check-every", type=_count("check_every"), default=10,
                    help="recompute the past lists with the engine for every N-th sample (1 = all)")
    sp.add_argument("--jobs", type=_count("jobs"), default=1,
                    help="processes that run the engine on the samples (default 1; at most 64; the same figures "
                         "whatever the number: the samples are drawn in order in one process)")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.add_argument("--lang", choices=["en", "hi"], default="en",
                    help="language of the printed summary and assumptions (the table holds codes and probabilities "
                         "only: it is the same in either language)")
    sp.add_argument("--out", metavar="FILE", help="write the CSV (and FILE's .meta.json) here")
    sp.add_argument("--format", choices=["csv", "json"], default="csv", help="stdout format without --out")
    from ..output.guard import add_excel_csv, add_force
    add_force(sp)
    add_excel_csv(sp)
    sp.set_defaults(func=cmd_project)


def cmd_project(args) -> int:
    from ..output.tables import table_csv, write_allotment
    from ..projection.project import project, to_json
    from ..base.errors import InputError
    from ..inputs.limits import MAX_OBC_SD, MIN_OBC_SD, check_decimal, check_sweeps
    check_sweeps(args.samples, args.burn_in, args.thin)
    args.obc_sd = check_decimal("obc_sd", args.obc_sd, low=MIN_OBC_SD, high=MAX_OBC_SD, low_open=False)
    if args.out is not None and args.format == "json":
        raise InputError("--format json prints to stdout; --out writes the table with its .meta.json",
                         option="--format")
    if args.base_year is not None and args.base_year > args.year:
        raise InputError(f"{args.base_year} is after the election year {args.year} (--year): the base year is the "
                         "first previous election that counts", option="--base-year")
    from ..output.guard import excel_csv
    excel_csv(args)                          # --excel-csv: with --out FILE.csv only
    if args.out is not None:                 # the target is checked before the samples are drawn
        from ..output.guard import input_files
        from ..output.tables import check_output
        check_output(args.out, force=args.force, inputs=input_files(args))
    result = project(args.body, args.year, units=args.units, history=args.history or None,
                     population=args.population, pins=args.pin, options=args.option, base_year=args.base_year,
                     samples=args.samples, seed=args.seed, obc_sd=args.obc_sd, constraint=args.constraint,
                     burn_in=args.burn_in, thin=args.thin, check_every=args.check_every,
                     progress=False if args.quiet else None, jobs=args.jobs)
    from ..law.words import BODY_TITLES_HI, category_label, word
    lang, pm = args.lang, result.meta["projection"]
    summary = word("project.summary", lang, body=BODY_TITLES_HI.get(args.body, args.body) if lang == "hi" else
                   args.body, year=args.year, n=len(result.table), samples=result.samples, seed=args.seed,
                   certain=pm["certain_units"],
                   years=", ".join(map(str, pm["constraint_years"])) or word("project.no_year", lang))
    if args.out is None:
        sys.stdout.write(to_json(result) if args.format == "json" else table_csv(result.table))
        print(summary, file=sys.stderr)
        return 0
    out, meta = write_allotment(result, args.out, force=args.force, excel_csv=args.excel_csv)
    print(summary)
    most = result.table["most_likely"].value_counts()
    print(word("project.most_likely", lang, counts=", ".join(
        f"{category_label(c, lang) if lang == 'hi' else c} {int(most[c])}" for c in most.index)))
    hi = result.assumptions_hi if lang == "hi" else []
    for k, a in enumerate(result.meta["assumptions"]):
        h = hi[k] if k < len(hi) else ""
        print(word("cli.assumed", lang, text=h) if h else word("cli.assumed_english", lang, text=a))
    print(word("cli.wrote", lang, out=out, meta=meta))
    return 0
