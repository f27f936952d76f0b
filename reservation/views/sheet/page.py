"""The district sheet drawn on one A4 page (:func:`sheet_pdf`) and written safely (:func:`write_sheet`).

The page is drawn by :class:`reservation.views.pdf.Page` from :func:`reservation.views.sheet.cells.cells`: the
heading, the Zila Panchayat chair, the block pramukhs' table, the urban chairs' table, the gram pradhans' line and
the key. The tables' columns are as wide as their widest cell (measured as Agg shapes it); where a district's
tables do not fit (the largest has 22 blocks, another 21 towns) the tables' type is made smaller, step by step
(:data:`SIZES`), until the page holds everything; the page count is always one.
"""

from __future__ import annotations

import json
from pathlib import Path

from ...base.errors import InputError
from ..pdf import Page, pdf_document
from .cells import cells
from .data import Sheet

__all__ = ["SIZES", "sheet_pdf", "write_sheet", "check_target", "draw_page", "fitted"]

#: the tables' type sizes tried, largest first (points); the text around them follows at fixed sizes
SIZES = (9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0)
_BOTTOM = 0.02          # the lowest figure fraction anything may reach
_GAP = 0.012            # the gap between a table's columns (figure fractions)


def _table(p: Page, columns: list, rows: list, size: float) -> None:
    """A table whose columns are as wide as their widest cell (at ``size``; headings a point smaller)."""
    head = size - 0.5
    widths = [max([p.width_of(c, head)] + [p.width_of(r[i], size) for r in rows]) for i, c in enumerate(columns)]
    xs, at = [], p.left
    for w in widths:
        xs.append(at)
        at += w + _GAP
    line = p.line_height(size) * 0.9
    p.table(columns, rows, xs, size=size, head_size=head, head_wrap=200, row_height=line,
            head_height=p.line_height(head) + 0.006, below=0.0)


def _fits(p: Page, columns: list, rows: list, size: float) -> bool:
    widths = [max([p.width_of(c, size - 0.5)] + [p.width_of(r[i], size) for r in rows]) for i, c in enumerate(columns)]
    return sum(widths) + _GAP * (len(widths) - 1) <= p.right - p.left


def draw_page(c: dict, lang: str, families: list, size: float) -> Page:
    """The sheet's page with its tables at ``size`` points (see the module's doc)."""
    p = Page(100, families, left=0.06, right=0.94, top=0.965, runs=True)
    p.text(c["title"], 16, gap=0.002, wrap=0)
    p.text(c["subtitle"], 11, gap=0.004, wrap=0)
    p.text(c["computed_by"], 8.5, gap=0.006, wrap=0)
    p.rule(0.008)
    p.text(c["zp"], 12, gap=0.002)
    for line in c["zp_lines"]:
        p.text(line, 9, gap=0.0, wrap=0)
    p.y -= 0.008
    p.text(c["kp"], 12, gap=0.003)
    if c["kp_rows"]:
        _table(p, c["kp_columns"], c["kp_rows"], size)
    p.text(c["urban"], 12, gap=0.003)
    if c["urban_rows"]:
        _table(p, c["urban_columns"], c["urban_rows"], size)
    p.text(c["gp"], 8.5, gap=0.006, wrap=0)
    p.rule(0.006)
    p.text(c["key"], 10, gap=0.001)
    for line in c["key_lines"]:
        p.text(line, 7.5, gap=0.002, wrap=0)
    return p


def fitted(c: dict, lang: str, families: list) -> Page:
    """The page at the largest table size of :data:`SIZES` that holds everything (``page.size``, ``page.fits``:
    whether it did; the smallest size is drawn when none does)."""
    import matplotlib.pyplot as plt
    for size in SIZES:
        p = draw_page(c, lang, families, size)
        wide = any(not _fits(p, c[f"{t}_columns"], c[f"{t}_rows"], size) for t in ("kp", "urban"))
        p.size, p.fits = size, p.y >= _BOTTOM and not wide
        if p.fits or size == SIZES[-1]:
            return p
        plt.close(p.fig)
    raise AssertionError("unreachable")


def sheet_pdf(sheet: Sheet) -> bytes:
    """The sheet as the bytes of a one-page PDF (deterministic: no creation date)."""
    c = cells(sheet)
    return pdf_document(sheet.lang, lambda families: [fitted(c, sheet.lang, families)])


def check_target(out, *, force: bool = False, flag: str = "--out") -> tuple[Path, Path]:
    """The sheet's file and the meta file beside it (``NAME.meta.json``), checked by the one output guard before
    anything is computed: a ``.pdf`` name; never the package's files or a link; an existing file replaced only
    when the meta beside it is this tool's, or with ``force``."""
    from ...output.guard import check_table
    from ...output.tables import meta_path
    if out is None or str(out).strip() == "":
        raise InputError("the path is empty: give a file name ending in .pdf", option=flag)
    p = Path(str(out))
    if p.suffix.lower() != ".pdf":
        raise InputError(f"the sheet is a PDF: give a file name ending in .pdf, not {p.suffix or 'no extension'}",
                         option=flag)
    mp = meta_path(p)
    check_table(p, mp, flag=flag, force=force)
    return p, mp


def _meta(sheet: Sheet, data: bytes) -> dict:
    import hashlib
    from ...output.guard import SOFTWARE
    return {"software": f"{SOFTWARE} {sheet.version}", "command": "sheet", "district": sheet.code,
            "district_name": sheet.name_en, "panchayat_year": sheet.panchayat_year, "urban_year": sheet.urban_year,
            "lang": sheet.lang, "published_lists": [{"body": b, "year": y, "date": d} for b, y, d in sheet.lists],
            "pdf_sha256": hashlib.sha256(data).hexdigest(), "pages": 1}


def write_sheet(sheet: Sheet, out, *, force: bool = False, flag: str = "--out") -> tuple[Path, Path]:
    """Write the sheet's PDF and its meta file together (atomically: both or neither), the targets checked again
    just before (a file may have appeared meanwhile). Returns both paths."""
    from ...output.tables import publish
    data = sheet_pdf(sheet)
    p, mp = check_target(out, force=force, flag=flag)
    meta = json.dumps(_meta(sheet, data), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    publish({p: data, mp: meta.encode("utf-8")})
    return p, mp

