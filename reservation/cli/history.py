"""``reservation history``: one unit's category at every election held, with the source of each record, and the
rotation verdict for the next election under each base year (issue 21 item 2;
:func:`reservation.history.unit_history.timeline`).

    reservation history --body BODY --unit NAME [--year NEXT] [--base-year Y] [--history FILE ...]
                        [--format text|csv] [--lang en|hi]

The command only parses and prints: the unit is found, the lists read and the tiers computed by
:mod:`reservation.history`. Exit status: 0 done; 2 bad input (an unknown or ambiguous name: one line with the
nearest candidates; a bad history file: its file, row and column); nothing is written.
"""

from __future__ import annotations

import sys

__all__ = ["register", "cmd_history"]


def register(sub) -> None:
    """Add the ``history`` sub-command to the ``reservation`` parser's sub-parsers."""
    from .args import text_type, year_type
    sp = sub.add_parser("history", help="a unit's category at every election held, with sources, and the "
                                        "rotation verdict for the next election")
    sp.add_argument("--body", required=True, type=text_type,
                    help="zp-chair (a district), kp-chair (a block), gp-pradhan (a gram panchayat), mayor, "
                         "pp-chair, np-chair (a town)")
    sp.add_argument("--unit", required=True, type=text_type,
                    help="the unit: its LGD code or its name in English or Hindi; 'GP, Block, District' or "
                         "'Block, District' where a name repeats")
    sp.add_argument("--year", type=year_type, default=None,
                    help="the election the verdicts are for (default: the next one)")
    sp.add_argument("--base-year", type=year_type, default=None,
                    help="one more base year to compare (the rulebook's default and the alternatives discussed "
                         "by the courts are always shown)")
    sp.add_argument("--history", action="append", metavar="FILE",
                    help="your own list (CSV unit,year,category, as `allot --history`), e.g. the 2021 list of the "
                         "block; its records of the unit replace the shipped ones of the same year; repeatable")
    sp.add_argument("--format", choices=["text", "csv"], default="text",
                    help="text (default) or csv: one row per election, then the verdict columns")
    sp.add_argument("--lang", choices=["en", "hi"], default="en", help="language of the words and labels")
    sp.set_defaults(func=cmd_history)


def cmd_history(args) -> int:
    from ..history.unit_history import timeline
    from ..history.unit_render import history_table, render_text
    h = timeline(args.body, args.unit, year=args.year, base_year=args.base_year, history=args.history,
                 lang=args.lang)
    if args.format == "csv":
        from ..output.tables import table_csv
        sys.stdout.write(table_csv(history_table(h, args.lang)))
    else:
        sys.stdout.write(render_text(h, args.lang))
    return 0
