"""The ``reservation`` command.

Every sub-command validates all its inputs before it writes anything. Bad input is an
:class:`~reservation.base.errors.InputError`: one line on stderr naming file, row and column, exit status 2.
Sub-command groups for other instruments register themselves through a ``register(subparsers)`` function
(see :mod:`reservation.cli.dpc`).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading

from ..base.version import __version__
from ..base.errors import InputError, RuleError
from ..output.guard import add_excel_csv, add_force, excel_csv, input_files


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and a one-line message (its own default is also 2)."""

    def error(self, message):  # pragma: no cover - exercised through the CLI tests
        from ..base.errors import bounded                 # a 10,000-character value is quoted as an excerpt
        self.exit(2, f"{self.prog}: error: {bounded(message)}\n")


from .args import YEARS, samples_type, text_type, year_type  # the argument types every sub-command uses
from .project import _count  # noqa: E402  a whole number within its bound (reservation.inputs.limits)



_year = year_type


def _body_year(sp):
    sp.add_argument("--body", required=True, type=text_type, help="body id, e.g. zp-chair")
    sp.add_argument("--year", required=True, type=_year, help="election year, e.g. 2021")


def cmd_counts(args) -> int:
    from ..inputs.options import parse_assignments
    from ..rules.registry import get_rulebook
    rb = get_rulebook(args.body)
    notes = rb.years.check(args.body, args.year)   # e.g. the year labels the next election
    if rb.light_counts is not None and not args.units:
        # the State counts of a chair body from the shipped table, without numpy or pandas (a fast process)
        rows = rb.light_counts(rb.option_set(parse_assignments(args.option)), args.lang)
    else:
        from ..allotment.pipeline import counts
        rows = counts(args.body, args.year, units=args.units, options=args.option,
                      lang=args.lang).itertuples(index=False)
    rows = [tuple(r) for r in rows]
    from ..law.words import word
    for a in notes:                                # only once the counts stand: a refusal is one line alone
        print(word("cli.assumed", args.lang, text=a.in_lang(args.lang)), file=sys.stderr)
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
    from ..rules.registry import get_rulebook
    rb = get_rulebook(args.body)
    kw = dict(units=args.units, history=args.history or None, population=args.population, pins=args.pin,
              options=args.option, base_year=args.base_year)
    if args.command not in ("allot", "explain"):
        from ..allotment.pipeline import allot
        return rb, allot(args.body, args.year, **kw)
    from ..answers.future import allot_answered     # an election not yet held: with the projection's probabilities
    return rb, allot_answered(args.body, args.year, published=args.published, samples=args.samples,
                              seed=args.seed, **kw)


def _say_answer(result, lang: str) -> None:
    """The count that opens every output (on stderr): how many units are determined, how many depend on what."""
    from ..law.words import status_counts_line
    a = result.answer
    if a is not None:
        print(status_counts_line(a.counts(), len(a.status), result.unit_kind, lang), file=sys.stderr)


def _partial_figures_warning(result) -> None:
    """On stderr too (the summary goes to stdout): units ranked on partial figures (the shipped gram panchayats,
    ``figures`` = ``partial`` / ``none``) make a computation, not the State's list."""
    fig = result.units["figures"] if "figures" in result.units else None
    if fig is None or not (fig == "partial").any():
        return
    print(f"warning: not the State's list: {int((fig == 'partial').sum()):,} {result.unit_kind}s ranked on partial "
          f"figures, {int((fig == 'none').sum()):,} on none (column 'figures'; data/README.md)", file=sys.stderr)


def cmd_allot(args) -> int:
    from ..output.tables import table_csv, write_allotment
    rb, result = _allot(args)
    if args.out is None:
        sys.stdout.write(table_csv(result.table_in(args.lang)))
        _say_answer(result, args.lang)             # once the table stands: a refusal stays one line alone
        _say_assumptions(result, args.lang, sys.stderr)
        return 0
    out, meta = write_allotment(result, args.out, lang=args.lang, force=args.force, excel_csv=args.excel_csv)
    _say_answer(result, args.lang)
    _partial_figures_warning(result)
    summary = result.summary_by_division()
    if "no_figures" in result.extra:
        print("bodies without population figures (ranked last):")
        print(result.extra["no_figures"].to_string(index=False))
    print(f"{rb.title}, {args.year}: {len(result.categories)} units ({rb.unit_kind}); rotation against "
          f"{', '.join(map(str, result.meta['history_years'])) or 'no history'} (base year "
          f"{result.meta['base_year']})")
    if len(summary) > SHOWN_ROWS:                  # e.g. 58,000 gram panchayats: the State total, not every row
        print(f"{len(summary)} {summary.index.name or 'counting unit'}s (each in the table); in all:")
        print(summary.sum().to_frame("all").T.to_string())
    else:
        print(summary.to_string())
    _say_assumptions(result, args.lang, sys.stdout)
    flags = result.meta.get("flags", [])
    _flag_meanings(flags, args.lang)
    for f in flags[:SHOWN_ROWS]:
        where = f" in {f['counting_unit']}" if f["counting_unit"] not in ("*", "State") else ""
        unit = f" ({f['unit_name_en']})" if f.get("unit_name_en") else ""
        print(f"flag: {f['flag']}{where}{unit}: {f['measured']} (limit {f['limit']})")
    if len(flags) > SHOWN_ROWS:
        print(f"... and {len(flags) - SHOWN_ROWS} more flags ({len(flags)} in all, every one in {meta})")
    print(f"wrote {out} and {meta}")
    return 0


def _say_assumptions(result, lang: str, file) -> None:
    """The run's assumptions, one "assumed:" line each: in Hindi where the run gives them in both languages (the
    OBC note: ``Allotment.assumptions_in``), else in English and said to be (``cli.assumed_english``)."""
    from ..law.words import word
    for text, ok in result.assumptions_in(lang):
        print(word("cli.assumed" if ok else "cli.assumed_english", lang, text=text), file=file)


def _flag_meanings(flags, lang: str) -> None:
    """What each kind of flag printed below means, once per kind, and that a flag is a question, not a finding."""
    from ..law.words import flag_meanings
    for line in flag_meanings((f["flag"] for f in flags), lang):
        print(line)


#: the most rows of a summary or flags that `allot --out` prints (the rest is in the files it writes)
SHOWN_ROWS = 40


def cmd_explain(args) -> int:
    from ..allotment.explain import explain_text
    body, result = _allot(args)
    print(explain_text(result, args.unit, lang=args.lang))
    return 0


def cmd_parent_table(args) -> int:
    from ..rules.registry import all_rulebooks, get_rulebook
    rb = get_rulebook(args.body)
    if rb.parent_table != args.command:
        have = ", ".join(b.id for b in all_rulebooks().values() if b.parent_table == args.command)
        raise InputError(f"{args.body} is not shared among {args.command} (bodies with a {args.command} table: "
                         f"{have})", option="--body")
    _, result = _allot(args)
    if args.command not in result.extra:
        raise InputError(f"{args.body}: no {args.command} step with these options", option="--option")
    sys.stdout.write(result.extra_in(args.command, args.lang).to_csv(index=False, lineterminator="\n"))
    _say_assumptions(result, args.lang, sys.stderr)
    return 0


def cmd_options(args) -> int:
    from ..rules.registry import get_rulebook
    rows = get_rulebook(args.body).option_set().describe()
    import pandas as pd
    sys.stdout.write(pd.DataFrame(rows).to_csv(index=False, lineterminator="\n"))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="reservation", description="Compute, explain and audit the reservation of Uttar Pradesh's "
                "local-body offices for SC, ST, OBC and women. Exit status: 0 done, 2 bad input (one line naming "
                "file, row and column; nothing written), 3 rules that cannot apply, 130 interrupted.")
    p.add_argument("--version", action="version", version=f"%(prog)s (reservation-workbench) {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sp = sub.add_parser("counts", help="State-level number of offices per category")
    _body_year(sp)
    sp.add_argument("--format", choices=["csv", "json"], default="csv")
    sp.add_argument("--arithmetic", action="store_true", help="add the arithmetic and the clause of each count")
    sp.add_argument("--units", metavar="FILE", help="units CSV (gp-pradhan and the ward bodies)")
    sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    sp.add_argument("--lang", choices=["en", "hi"], default="en",
                    help="language of the arithmetic and the clauses (--arithmetic; the categories stay codes)")
    sp.set_defaults(func=cmd_counts)

    for name, func, text in (("allot", cmd_allot, "allot the reserved offices to units, with reasons"),
                             ("explain", cmd_explain, "every rule step that touched one unit, in order"),
                             ("districts", cmd_parent_table, "posts per district and category, with each step"),
                             ("divisions", cmd_parent_table, "offices per division and category, with each step")):
        sp = sub.add_parser(name, help=text)
        _body_year(sp)
        sp.add_argument("--history", action="append", metavar="FILE",
                        help="history CSV (unit,year,category); repeatable; replaces the shipped history")
        sp.add_argument("--base-year", type=_year, default=None,
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
            sp.add_argument("--out", metavar="FILE",
                            help="write the table here, as .csv, .xlsx (Excel) or .parquet by its extension, "
                                 "with FILE's .meta.json beside it")
            sp.add_argument("--lang", choices=["en", "hi"], default="en",
                            help="language of the reasons and tie-breaks (columns and category codes stay as they "
                                 "are, so a table reads the same way in either language)")
            add_force(sp)
            add_excel_csv(sp)
        elif name == "explain":
            sp.add_argument("--unit", required=True, type=text_type,
                            help="the unit: LGD code or English/Hindi name")
            sp.add_argument("--lang", choices=["en", "hi"], default="en",
                            help="language of the answer and the steps (category codes stay codes)")
        else:
            sp.add_argument("--lang", choices=["en", "hi"], default="en",
                            help="language of the arithmetic and the clauses (columns and codes stay as they are)")
        if name in ("allot", "explain"):
            sp.add_argument("--samples", type=samples_type, default=1000,
                            help="an election not yet held: the projection's samples for P_ST_W ... P_UR (default "
                                 "1000 and --seed 0, as `reservation project`; 0: no probabilities)")
            sp.add_argument("--seed", type=_count("seed"), default=0, help="the projection's seed (default 0)")
            sp.add_argument("--published", metavar="FILE",
                            help="the published list of this election (CSV unit,category; codes or names, English "
                                 "or Hindi, as for `audit --published`): the columns published and status compare "
                                 "with it (default: the list the project ships for this body and year, if any)")
        sp.set_defaults(func=func)

    sp = sub.add_parser("options", help="the named ambiguity switches of a body, defaults and evidence")
    sp.add_argument("--body", required=True)
    sp.set_defaults(func=cmd_options)

    from . import audit as cli_audit, design as cli_design, dpc as cli_dpc, history as cli_history, \
        project as cli_project, report as cli_report, sheet as cli_sheet
    cli_dpc.register(sub)
    cli_history.register(sub)
    cli_report.register(sub)
    cli_audit.register(sub)
    cli_project.register(sub)
    cli_design.register(sub)
    cli_sheet.register(sub)
    return p


class _Terminated(KeyboardInterrupt):
    """SIGTERM (a scheduler stopping the job), handled as Ctrl-C: clean up, one line, exit 143."""


def _on_sigterm(signum, frame):
    raise _Terminated()


def main(argv=None) -> int:
    """The ``reservation`` command. Exit status: 0 done; 2 bad input (one line naming file, row and column,
    or the flag; nothing written); 3 rules that cannot apply; 1 a file could not be written (disk full,
    permission); 130 Ctrl-C (143 SIGTERM), with temporary files removed."""
    previous = None
    if argv is None and threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return _main(argv)
    except _Terminated:
        print("reservation: terminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print("reservation: interrupted", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main(argv) -> int:
    import warnings

    from ..rules.parameters import ParameterError
    from ..rules.rulebook import BaseYearWarning
    warnings.simplefilter("ignore", BaseYearWarning)     # the CLI prints every assumption itself
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _check_args(args)
        return int(args.func(args) or 0)
    except InputError as e:
        _name_the_flag(e, parser, args)
        print(f"reservation: error: {e}", file=sys.stderr)
        return 2
    except RuleError as e:
        from ..base.errors import bounded
        print(f"reservation: cannot apply the rules: {bounded(e)}", file=sys.stderr)
        return 3
    except BrokenPipeError:  # pragma: no cover - e.g. `reservation allot ... | head`
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"reservation: cannot write: {where}{e.strerror or e}", file=sys.stderr)
        return 1
    except ParameterError as e:     # the package's own rules/params files, not the user's input
        from ..base.errors import bounded
        print(f"reservation: the installed package is broken: {bounded(e)}", file=sys.stderr)
        return 1


_ALLOT_COMMANDS = ("allot", "explain", "districts", "divisions")


def _check_args(args) -> None:
    """Checks across arguments, before anything is computed: ``--base-year`` not after ``--year``; the
    ``--out`` target and its meta file writable and not one of the input files."""
    year, base = getattr(args, "year", None), getattr(args, "base_year", None)
    if args.command in _ALLOT_COMMANDS and isinstance(year, int) and isinstance(base, int) and base > year:
        raise InputError(f"{base} is after the election year {year} (--year): the base year is the first "
                         "previous election that counts", option="--base-year")
    if getattr(args, "command", None) == "allot":
        excel_csv(args)                             # --excel-csv: with --out FILE.csv only
    if getattr(args, "command", None) == "allot" and getattr(args, "out", None) is not None:
        from ..output.tables import check_output
        check_output(args.out, force=args.force, inputs=input_files(args))


def _name_the_flag(e: InputError, parser, args) -> None:
    """An error about a value typed on the command line names its flag (``--body``, ``--option NAME``), not a
    "column"."""
    if e.option is not None or e.file is not None or not e.column:
        return
    typed = [(flag, *(str(v).split("=", 1) + [""])[:2]) for dest, flag in
             (("option", "--option"), ("a", "--a"), ("b", "--b"))       # diff's scenarios: --a, --b
             for v in (getattr(args, dest, None) or [])]
    named = [(flag, value) for flag, name, value in typed if name.strip() == str(e.column)]
    if named:          # the same name in --a and --b: the flag that carried the value refused
        flag = next((f for f, v in named if v.strip() == e.value), named[0][0])
        e.option, e.column = f"{flag} {e.column}", None
        return
    flags = set()
    todo = [parser]
    while todo:
        p = todo.pop()
        flags |= set(p._option_string_actions)
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                todo += list(a.choices.values())
    col = str(e.column)
    flag = col if col.startswith("--") else "--" + col.replace("_", "-")
    if flag in flags:
        e.option, e.column = flag, None


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
