"""``reservation sheet``: one A4 page per district, its offices, their computed categories with how sure each is,
the published list beside and the history, for a reporter to attach to a story (issue 22;
:mod:`reservation.views.sheet`).

    reservation sheet --district NAME [--panchayat-year Y] [--urban-year Y] [--lang en|hi] --out FILE.pdf [--force]

Exit status: 0 written (``FILE.pdf`` and ``FILE.meta.json`` beside it, together or not at all); 2 bad input (an
unknown district, with the nearest names; a year the sheet does not compute; a target the output guard refuses:
one line, nothing written); 3 the rules cannot apply (an urban election whose rules the package does not hold).
"""

from __future__ import annotations

__all__ = ["register", "cmd_sheet"]


def register(sub) -> None:
    """Add the ``sheet`` sub-command to the ``reservation`` parser's sub-parsers."""
    from ..output.guard import add_force
    from .args import text_type, year_type
    sp = sub.add_parser("sheet", help="one A4 page (PDF) per district: its offices, computed categories, the "
                                      "published list beside and the history",
                        description="A district's Zila Panchayat chair, block pramukhs, urban chairs and gram "
                                    "pradhans' counts on one A4 page, in English or Hindi: computed by this "
                                    "workbench, not the State's list, with how sure each category is.")
    sp.add_argument("--district", required=True, type=text_type,
                    help="the district: its name in English or Hindi (any usual spelling) or its LGD code")
    sp.add_argument("--panchayat-year", type=year_type, default=None,
                    help="the panchayat election (default: the latest held, 2021; 2015 also)")
    sp.add_argument("--urban-year", type=year_type, default=None,
                    help="the urban election (default: the latest held, 2023)")
    sp.add_argument("--lang", choices=["en", "hi"], default="en", help="language of the page")
    sp.add_argument("--out", required=True, metavar="FILE.pdf",
                    help="the PDF to write (its meta file FILE.meta.json beside it); an existing file is "
                         "replaced only when this tool wrote it (or with --force)")
    add_force(sp)
    sp.set_defaults(func=cmd_sheet)


def cmd_sheet(args) -> int:
    from ..views.sheet import sheet_data, write_sheet
    from ..views.sheet.page import check_target
    check_target(args.out, force=args.force)             # before anything is computed
    sheet = sheet_data(args.district, panchayat_year=args.panchayat_year, urban_year=args.urban_year,
                       lang=args.lang)
    pdf, meta = write_sheet(sheet, args.out, force=args.force)
    print(f"wrote {pdf} (one page: {sheet.name_en}, panchayats {sheet.panchayat_year}, urban bodies "
          f"{sheet.urban_year}, {args.lang}) and {meta.name}")
    return 0
