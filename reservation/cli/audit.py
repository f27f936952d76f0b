"""``reservation audit`` and ``reservation diff``: was a published list lawful, and what changes between two scenarios.

    reservation audit --body zp-chair --year 2021 --published data/published/zp_adhyaksh_2021_final.csv
    reservation audit --body zp-chair --year 2021 --published LIST.csv --out out/audit.csv
    reservation diff  --body zp-chair --year 2021 --a division_saturation=off --b division_saturation=on
    reservation diff  --body zp-chair --year 2021 --a-published PROVISIONAL.csv --a-base-year 1995 \\
                      --b-published FINAL.csv --b-base-year 2015

Output as ``allot``: ``--out FILE`` writes the CSV and ``FILE``'s ``.meta.json`` (atomically) and prints the summary;
without ``--out`` the table goes to stdout (``--format csv|json``) and the summary to stderr. Exit status: 0
whatever the audit finds; 2 bad input (one line naming file, row and column; nothing written); 3 rules that
cannot apply. Register with ``cli_audit.register(sub)`` in :func:`reservation.cli.commands.build_parser`.
"""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["register", "cmd_audit", "cmd_diff"]


def _records(df: pd.DataFrame) -> list[dict]:
    import pandas as pd
    out = []
    for rec in df.to_dict(orient="records"):
        out.append({k: (None if v is None or v is pd.NA or (isinstance(v, float) and v != v) else
                        (int(v) if hasattr(v, "item") and not isinstance(v, (str, bool)) else v))
                    for k, v in rec.items()})
    return out


def _emit(table: pd.DataFrame, meta: dict, fmt: str, out, extra: dict, force: bool = False,
          excel_csv: bool = False) -> None:
    from ..output.tables import table_csv, write_allotment
    if out is not None:
        write_allotment(SimpleNamespace(table=table, meta=meta), out, force=force, excel_csv=excel_csv)
        return
    if fmt == "json":
        payload = dict(extra)
        payload["rows"] = _records(table)
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")
    else:
        sys.stdout.write(table_csv(table))


def _say(text: str, to_stderr: bool) -> None:
    print(text, file=sys.stderr if to_stderr else sys.stdout)


def _check_out(args, inputs) -> None:
    """The ``--out`` target and its meta file (:func:`reservation.output.tables.check_output`, the one output guard),
    before anything runs."""
    from ..output.guard import excel_csv
    excel_csv(args)                                 # --excel-csv: with --out FILE.csv only
    if args.out is None:
        return
    from ..output.guard import input_files
    from ..output.tables import check_output
    check_output(args.out, force=args.force, inputs=list(inputs) + input_files(args))


def cmd_audit(args) -> int:
    """The verdicts first (one per rule, in ``--lang``), then the table (stdout, or ``--out``), then the units per
    finding, the rules, the flags with what they mean, and the assumptions."""
    from ..auditing.audit import audit
    from ..auditing.verdicts import table_in, verdict_lines
    from ..law.words import word
    lang = args.lang
    _check_out(args, [args.published, args.population, args.units] + list(args.history or []))
    res = audit(args.body, args.year, args.published, units=args.units, history=args.history or None,
                population=args.population, options=args.option, base_year=args.base_year,
                search_options=not args.no_option_search)
    quiet = args.out is None
    for line in verdict_lines(res.verdicts, lang):      # before the table: on stderr when the table is stdout
        _say(line, quiet)
    summary = dict(zip(res.summary["finding"], res.summary["units"].astype(int).tolist()))
    meta = res.meta if lang == "en" else {**res.meta, "lang": lang}
    _emit(table_in(res.table, res.verdicts, lang, res.clause_hi, res.computed, res.details), meta, args.format,
          args.out,
          {"body": args.body, "year": args.year, "summary": summary,
           "verdicts": res.meta["audit"]["verdicts"], "rules": _records(res.rules), "flags": _records(res.flags)},
          args.force, args.excel_csv)
    _say(word("audit.title", lang, published=args.published, body=_body_words(args.body, lang), year=args.year,
              n=len(res.table)), quiet)
    for f, n in summary.items():
        _say(f"  {f:<30} {n}" + (f"  {word(f'audit.finding.{f}', lang)}" if lang != "en" else ""), quiet)
    if lang == "en":                  # the rules table in words is English; in Hindi the verdicts above say it
        _say("rules:", quiet)
        for r in res.rules.itertuples():
            _say(f"  {r.step}: {r.rule}: {r.held}" + (f" ({r.units})" if r.units else ""), quiet)
    else:
        _say(word("verdict.table_words", lang), quiet)
    _flags(res.flags, lang, quiet)
    for text, ok in res.computed.assumptions_in(lang):
        _say(word("cli.assumed" if ok else "cli.assumed_english", lang, text=text), quiet)
    if args.out is not None:
        from ..output.tables import meta_path
        _say(word("cli.wrote", lang, out=args.out, meta=meta_path(args.out)), False)
    return 0


def _body_words(body: str, lang: str) -> str:
    """The body as a sentence names it: its id in English, its Hindi title in Hindi."""
    from ..law.words import BODY_TITLES_HI
    return BODY_TITLES_HI.get(body, body) if lang == "hi" else body


def _flags(flags, lang: str, quiet: bool) -> None:
    """The constitutional flags of the published list, after what each kind means (a question, not a finding)."""
    from ..law.words import flag_meanings
    if not len(flags):
        return
    for line in flag_meanings(flags["flag"], lang):
        _say(line, quiet)
    for r in flags.itertuples():
        _say(f"flag: {r.flag} {r.counting_unit} {r.unit_name_en} {r.measured}".rstrip(), quiet)


def cmd_diff(args) -> int:
    from ..auditing.scenarios import Scenario, diff
    _check_out(args, [args.a_published, args.b_published, args.population, args.units]
               + list(args.history or []) + list(args.a_history or []) + list(args.b_history or []))
    a = Scenario(options=tuple(args.a or ()), history=args.a_history or None, base_year=args.a_base_year,
                 published=args.a_published, label="A")
    b = Scenario(options=tuple(args.b or ()), history=args.b_history or None, base_year=args.b_base_year,
                 published=args.b_published, label="B")
    res = diff(args.body, args.year, a, b, units=args.units, population=args.population,
               history=args.history or None, explain=False if args.no_explain else None)
    quiet = args.out is None
    table = res.table
    if res.explanation is not None:
        ex = res.explanation["table"][["unit_code", "last_election", "order", "tier_b_base", "tier_a_base",
                                       "explanation"]]
        table = table.merge(ex, on="unit_code", how="left")
    meta = dict(res.meta)
    _emit(table, meta, args.format, args.out,
          {"body": args.body, "year": args.year, "a": meta["a"], "b": meta["b"],
           "summary": _records(res.summary), "steps": _records(res.steps),
           **({"base_year_explanation": meta["base_year_explanation"]} if "base_year_explanation" in meta else {})},
          args.force, args.excel_csv)
    _say(f"{args.body} {args.year}: {len(res.table)} unit(s) change between A and B", quiet)
    for r in res.steps.itertuples():
        _say(f"  step {r.step}: {r.units}", quiet)
    for r in res.summary.itertuples():
        if r.a or r.b:
            _say(f"  {r.category:<6} A {r.a:>4}  B {r.b:>4}  change {r.change:+d}", quiet)
    if res.explanation is not None:
        s = res.explanation["summary"]
        _say("rotation base: " + "; ".join(s["implied_history"]) if s["implied_history"] else
             "rotation base: no earlier history needed", quiet)
        _say(f"  one set of OBC figures for both lists on base {args.b_base_year}: "
             f"{'possible' if s['one_figure_set_same_base'] else 'impossible (ties refused)'}; "
             f"each on its own base: {'possible' if s['one_figure_set_own_bases'] else 'impossible'}", quiet)
    if args.out is not None:
        from ..output.tables import meta_path
        _say(f"wrote {args.out} and {meta_path(args.out)}", False)
    return 0


def _inputs(sp) -> None:
    from .args import year_type
    sp.add_argument("--body", required=True, help="body id, e.g. zp-chair")
    sp.add_argument("--year", required=True, type=year_type, help="election year, e.g. 2021")
    sp.add_argument("--population", metavar="FILE", help="CSV unit,pop,sc,st,obc (any of the last four)")
    sp.add_argument("--units", metavar="FILE", help="units CSV (gp-pradhan and the ward bodies, or a district "
                                                    "table)")
    sp.add_argument("--out", metavar="FILE", help="write the CSV (and FILE's .meta.json) here")
    sp.add_argument("--format", choices=["csv", "json"], default="csv", help="stdout format without --out")
    from ..output.guard import add_excel_csv, add_force
    add_force(sp)
    add_excel_csv(sp)


def register(subparsers) -> None:
    """Add ``audit`` and ``diff`` to the ``reservation`` parser's sub-parsers."""
    from .args import year_type
    sp = subparsers.add_parser(
        "audit", help="compare a published list with the law and the computation, unit by unit",
        description="One row per unit: unit_code, unit_name_en, unit_name_hi, published, computed, finding, rule, "
                    "clause, detail. Findings: match, violation_count, violation_rotation, violation_order, "
                    "violation_women, violation_division, explained_by_option, depends_on_unpublished_data, "
                    "unexplained, not_in_list (a unit the list lacks: the rest is audited without it). Exit 0 "
                    "whatever it finds.")
    _inputs(sp)
    sp.add_argument("--published", required=True, metavar="FILE",
                    help="the published list: CSV unit,category (codes or names, English or Hindi; the shipped "
                         "lists' district_lgd_code column works too)")
    sp.add_argument("--history", action="append", metavar="FILE",
                    help="history CSV (unit,year,category); repeatable; replaces the shipped history")
    sp.add_argument("--base-year", type=year_type, default=None, help="first election that counts as a previous one")
    sp.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="ambiguity switch; see `reservation options --body BODY`")
    sp.add_argument("--no-option-search", action="store_true",
                    help="do not try the named options on the differences (faster)")
    sp.add_argument("--lang", choices=["en", "hi"], default="en",
                    help="language of the verdicts, the printed summary and the table's rule, clause and detail "
                         "words (columns and codes stay as they are)")
    sp.set_defaults(func=cmd_audit)

    sp = subparsers.add_parser(
        "diff", help="the units whose category changes between two scenarios (options, histories, base years, "
                     "published lists)",
        description="Scenario A and B each take options (--a NAME=VALUE ...), a history (--a-history FILE), a base "
                    "year (--a-base-year Y) or a published list (--a-published FILE). Two published lists with "
                    "different base years are explained by the rotation base.")
    _inputs(sp)
    for side in ("a", "b"):
        sp.add_argument(f"--{side}", nargs="+", action="extend", metavar="NAME=VALUE",
                        help=f"options of scenario {side.upper()}")
        sp.add_argument(f"--{side}-history", action="append", metavar="FILE",
                        help=f"history of scenario {side.upper()} (repeatable)")
        sp.add_argument(f"--{side}-base-year", type=year_type, default=None,
                        help=f"base year of scenario {side.upper()} (of a published list: the base it was made on)")
        sp.add_argument(f"--{side}-published", metavar="FILE", help=f"scenario {side.upper()} is this published list")
    sp.add_argument("--history", action="append", metavar="FILE",
                    help="history of both scenarios unless --a-history/--b-history say otherwise (default: shipped)")
    sp.add_argument("--no-explain", action="store_true",
                    help="two published lists: do not explain them by their base years")
    sp.set_defaults(func=cmd_diff)
