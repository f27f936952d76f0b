"""``reservation report``: per-division HTML reports with maps, run as notebooks (see :mod:`reservation.report`).

    reservation report --body zp-chair --year 2021                      # all 18 divisions
    reservation report --body kp-chair --year 2021 --division Lucknow --division "Ayodhya" --out out/kp
    reservation report --body zp-chair --year 2026 --projection [--projection-samples N] [--seed S]

Exit status: 0 the report is at ``--out`` with its index; 2 a bad parameter, an output folder that holds
anything but a previous report of this tool (unless ``--force``; the package's own folders and a linked
``--out`` always), or (``--projection``) a projection that cannot run for these
parameters (one line on stderr, nothing written or deleted); 1 a notebook failed (stderr names it, the cell and the
error; no index is written; the executed notebooks are kept in ``OUT.failed``); 130 interrupted (Ctrl-C: one line on stderr, the workers and kernels stopped, nothing left
behind).

Register with ``cli_report.register(sub)`` in :func:`reservation.cli.commands.build_parser`.
"""

from __future__ import annotations

import signal
import sys

__all__ = ["register", "cmd_report"]


def _stop_on(signum, frame):
    global _SIGNAL
    _SIGNAL = signum
    raise KeyboardInterrupt


_SIGNAL = signal.SIGINT


def cmd_report(args) -> int:
    from ..base.errors import InputError
    from ..report import ReportFailed, run_report
    from ..report.projection import DEFAULT_SAMPLES
    from ..inputs.limits import check_count
    divisions = args.division or ["all"]
    for name in ("workers", "timeout", "projection_samples", "seed"):   # bounded before anything runs
        if getattr(args, name) is not None:
            check_count(name, getattr(args, name))
    for flag, v in (("--projection-samples", args.projection_samples), ("--seed", args.seed)):
        if v is not None and not args.projection:
            raise InputError(f"{flag} is for the projection page: add --projection", option=flag)
    # A scheduler stops a job with SIGTERM: clean up as for Ctrl-C (workers, kernels, the temporary folder).
    previous = signal.signal(signal.SIGTERM, _stop_on)
    try:
        res = run_report(args.body, args.year, divisions, out=args.out, fmt=args.format, base_year=args.base_year,
                         options=args.option, history=args.history or [], units=args.units or "",
                         workers=args.workers, static_engine=args.static_engine, plotlyjs=args.plotlyjs,
                         progress=not args.no_progress, fresh_kernels=args.fresh_kernels,
                         state_page=not args.no_state_page, timeout=args.timeout, projection=args.projection,
                         projection_samples=DEFAULT_SAMPLES if args.projection_samples is None else args.projection_samples,
                         seed=args.seed or 0, samples=args.samples, force=args.force, pdf=args.pdf)
    except ReportFailed as e:
        from ..base.errors import bounded      # a cell's source or traceback: one bounded line (the kept notebooks
        print(f"reservation report: failed: {bounded(e)}", file=sys.stderr)     # hold it all)
        return 1
    except KeyboardInterrupt:
        print("reservation report: interrupted; nothing written", file=sys.stderr)
        return 128 + int(_SIGNAL)
    finally:
        signal.signal(signal.SIGTERM, previous)
    n = sum(1 for r in res.pages if r.kind == "division")
    also = " and the projection page" if any(r.kind == "projection" for r in res.pages) else ""
    print(f"wrote {n} division page(s) and their maps{also} in {res.seconds:.1f} s: {res.index}")
    return 0


def register(subparsers) -> None:
    """Add the ``report`` sub-command to the ``reservation`` parser's sub-parsers."""
    from .args import samples_type, text_type, year_type
    sp = subparsers.add_parser("report", help="per-division HTML reports with maps (notebooks run with papermill)",
                               description="Run notebooks/02_division_report.ipynb for each division in parallel "
                                           "processes, convert them to HTML pages with interactive maps that work "
                                           "offline, write PNG and SVG maps beside them (English and Hindi) and "
                                           "an index. Nothing is published unless every notebook succeeds.")
    sp.add_argument("--body", required=True, help="body id, e.g. zp-chair (see the registry)")
    sp.add_argument("--year", required=True, type=year_type, help="election year, e.g. 2021")
    sp.add_argument("--division", action="append", metavar="NAME", type=text_type,
                    help="a division as in the data ('Ayodhya (Faizabad)'), its Hindi name or plain name "
                         "('Ayodhya'); repeatable; default: all 18")
    sp.add_argument("--out", metavar="DIR", help="output folder (default out/report-BODY-YEAR): new, empty, or a "
                                                 "previous report of this tool, which is replaced when the report "
                                                 "succeeds; a folder holding other files is refused "
                                                 "(unless --force)")
    sp.add_argument("--format", choices=["html", "ipynb"], default="html",
                    help="html: pages without code (default); ipynb: the executed notebooks")
    sp.add_argument("--base-year", type=year_type, default=2015, help="first history year that counts (default 2015)")
    sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="ambiguity switch; see `reservation options --body BODY`")
    sp.add_argument("--history", action="append", metavar="FILE", help="history CSV; repeatable")
    sp.add_argument("--units", metavar="FILE", help="units CSV, for the bodies that need one")
    sp.add_argument("--workers", type=int, default=2,
                    help="parallel processes (default 2; at most 64)")
    sp.add_argument("--static-engine", choices=["matplotlib", "kaleido", "auto"], default="matplotlib",
                    help="PNG/SVG maps: matplotlib (default, about 0.3 s a map, vector SVG) or kaleido with "
                         "Debian's chromium (2-5 s of CPU a map; its SVG holds a bitmap); auto = kaleido when "
                         "chromium is installed")
    sp.add_argument("--plotlyjs", choices=["directory", "inline"], default="directory",
                    help="directory (default): plotly.js, the style sheet and the Hindi font once beside the pages "
                         "(a division page is well under 1 MB; keep the folder together); inline: each page stands "
                         "alone (about 5 MB a page)")
    sp.add_argument("--fresh-kernels", action="store_true",
                    help="a new Jupyter kernel for every notebook (slower; by default each worker runs its "
                         "notebooks in its own Python, the namespace reset between notebooks: the same outputs)")
    sp.add_argument("--no-state-page", action="store_true", help="leave out the State counts page")
    sp.add_argument("--projection", action="store_true",
                    help="add the projection page (notebooks/07_projection.ipynb, as `reservation project`): per "
                         "unit the probability of each category where unpublished OBC data decide, with a map of "
                         "the most likely category shaded by its probability, for the report's body, year, history, "
                         "units, options and base year. Checked before anything runs: a projection that cannot run "
                         "(e.g. a published past list that no OBC figures can give under the rules) is refused "
                         "with exit status 3 (the rules cannot apply). A year whose own list is in the history is allowed (a backtest: the "
                         "projection ignores that list)")
    sp.add_argument("--projection-samples", type=int, default=None,
                    metavar="N", help="sampled OBC populations of the projection page (default 500; at most "
                                      "100,000)")
    sp.add_argument("--seed", type=int, default=None, help="seed of the projection's random generator (default 0)")
    sp.add_argument("--samples", type=samples_type, default=1000,
                    help="an election not yet held: the projection's samples for the pages' P_ST_W ... P_UR "
                         "(default 1000 and --seed, as `reservation allot`; 0: no probabilities, a faster report)")
    sp.add_argument("--pdf", action="store_true",
                    help="add the one-page sheet of every district of the divisions (as `reservation sheet`), in "
                         "English and Hindi (sheet-DISTRICT-en.pdf, -hi.pdf), linked from the index; for elections held (the "
                         "report's year is the sheet's panchayat or urban year; about half a CPU-second a sheet)")
    sp.add_argument("--no-progress", action="store_true", help="no progress bar")
    from ..output.guard import add_force
    add_force(sp, "write into an --out folder that holds other files (they are kept; a file of the same name as "
                  "one of the report's is replaced); never into the package's own folders or through a link")
    sp.add_argument("--timeout", type=int, default=600,
                    help="seconds a notebook cell may run (default 600; 1 to 86,400)")
    sp.set_defaults(func=cmd_report)
