"""The text of a district sheet, cell by cell (:func:`cells`): what :mod:`reservation.views.sheet.page` draws,
every word from :mod:`reservation.law.words` and :mod:`reservation.law.words_sheet`, every figure from the
:class:`~reservation.views.sheet.data.Sheet`. The tests read the page through this (matplotlib's PDF carries the
words as placed glyph runs, not as a text layer a test could read back reliably)."""

from __future__ import annotations

from ...law.categories import CODES
from ...law.words import BODY_TITLES_HI, CATEGORY_LABELS, STATUS_WORDS, category_label
from ...law.words_sheet import STATUS_MARKS, sheet_word
from .data import Row, Sheet

__all__ = ["cells", "unknown_mark", "table_rows"]

_ORDER = ("determined", "depends_obc", "depends_list", "partial_figures", "differs_published")


def unknown_mark(state: str) -> str:
    """An earlier election's cell when the record is unknown: ``?`` a list is held (or ships) but places no
    office here; ``–`` we hold no list of that year."""
    return "–" if state == "no_list" else "?"


def _possible(row: Row) -> str:
    """The possible categories, shown only where they are more than the computed one."""
    return "" if row.possible == (row.category,) else " ".join(row.possible)


def table_rows(rows: list, lang: str, *, kind: bool = False) -> list[list[str]]:
    """One line per office: name, (body kind), computed, status mark, possible, published, earlier records."""
    marks = STATUS_MARKS[lang]
    out = []
    for r in rows:
        line = [r.name] + ([sheet_word(f"kind.{r.body}", lang)] if kind else [])
        line += [r.category, marks.get(r.status, "?"), _possible(r), r.published]
        line += [c or unknown_mark(s) for _, c, s in r.earlier]
        out.append(line)
    return out


def _columns(rows: list, first: str, lang: str, year: int, *, kind: bool = False) -> list[str]:
    years = [str(y) for y, _, _ in rows[0].earlier] if rows else []
    return ([sheet_word(first, lang)] + ([sheet_word("col.kind", lang)] if kind else [])
            + [sheet_word(k, lang) for k in ("col.computed", "col.sure", "col.possible")]
            + [sheet_word("col.published", lang, year=year)] + years)


def _category_words(code: str, lang: str) -> str:
    return category_label(code, lang) if code in CATEGORY_LABELS else code


def _zp_lines(s: Sheet) -> list[str]:
    z, lang = s.zp, s.lang
    status = STATUS_WORDS[lang][z.status][0] if z.status in STATUS_WORDS[lang] else z.status
    lines = [sheet_word("computed", lang, code=z.category, label=_category_words(z.category, lang), status=status,
                        mark=STATUS_MARKS[lang].get(z.status, "?"))]
    if z.possible and z.possible != (z.category,):
        lines.append(sheet_word("possible", lang, codes=", ".join(z.possible),
                                labels=", ".join(_category_words(c, lang) for c in z.possible)))
    date = next((d for b, y, d in s.lists if b == "zp-chair" and y == s.panchayat_year), "")
    if z.published_from == "list":
        lines.append(sheet_word("published" if date else "published_undated", lang, code=z.published,
                                label=_category_words(z.published, lang), date=date))
    elif z.published_from == "record":
        lines.append(sheet_word("record", lang, year=s.panchayat_year, code=z.published,
                                label=_category_words(z.published, lang)))
    else:
        lines.append(sheet_word("not_in_published" if z.published_from == "absent" else "no_published", lang))
    items = [sheet_word("earlier_item", lang, year=y, code=c, label=_category_words(c, lang)) if c
             else sheet_word("unknown_item", lang, year=y) + f" ({unknown_mark(st)})" for y, c, st in z.earlier]
    if items:
        lines.append(sheet_word("earlier", lang, items="; ".join(items)))
    return lines


def _lists(s: Sheet) -> str:
    from ...rules.registry import get_rulebook
    items = [sheet_word("list_item" if d else "list_item_undated", s.lang,
                        body=BODY_TITLES_HI[b] if s.lang == "hi" else get_rulebook(b).title, year=y, date=d)
             for b, y, d in s.lists]
    return "; ".join(items) or sheet_word("no_lists", s.lang)


def _gp_line(s: Sheet) -> str:
    lang = s.lang
    if not s.figures.get("all"):
        return sheet_word("gp_none", lang, year=s.panchayat_year)
    counts = ", ".join(f"{c} {n}" if lang == "en" else f"{_category_words(c, lang)} {n}" for c, n in s.pradhans.items())
    return sheet_word("gp", lang, year=s.panchayat_year, n=s.figures["all"], partial=s.figures["partial"],
                      none=s.figures["none"], counts=counts)


def _key(s: Sheet) -> list[str]:
    lang = s.lang
    status = "; ".join(f"{STATUS_MARKS[lang][k]} = {STATUS_WORDS[lang][k][0]}" for k in _ORDER)
    codes = "; ".join(f"{c} {category_label(c, lang)}" for c in CODES)
    return [sheet_word("key.status", lang, items=status), sheet_word("key.cells", lang),
            sheet_word("key.codes", lang, items=codes), sheet_word("key.obc", lang),
            sheet_word("key.command", lang, district=s.name_en, panchayat_year=s.panchayat_year,
                       urban_year=s.urban_year)]


def cells(s: Sheet) -> dict:
    """The sheet's text: ``title``, ``subtitle``, ``computed_by``, ``zp`` (heading), ``zp_lines``, ``kp``,
    ``kp_columns``, ``kp_rows``, ``urban``, ``urban_columns``, ``urban_rows``, ``gp``, ``key`` (heading),
    ``key_lines``."""
    lang = s.lang
    return {
        "title": sheet_word("title", lang, district=s.name, division=s.division),
        "subtitle": sheet_word("subtitle", lang, panchayat_year=s.panchayat_year, urban_year=s.urban_year),
        "computed_by": sheet_word("computed_by", lang, version=s.version, lists=_lists(s)),
        "zp": sheet_word("zp", lang, year=s.panchayat_year), "zp_lines": _zp_lines(s),
        "kp": sheet_word("kp", lang, year=s.panchayat_year, n=len(s.blocks)),
        "kp_columns": _columns(s.blocks, "col.block", lang, s.panchayat_year),
        "kp_rows": table_rows(s.blocks, lang),
        "urban": sheet_word("urban" if s.towns else "urban_none", lang, year=s.urban_year, n=len(s.towns)),
        "urban_columns": _columns(s.towns, "col.town", lang, s.urban_year, kind=True),
        "urban_rows": table_rows(s.towns, lang, kind=True),
        "gp": _gp_line(s), "key": sheet_word("key", lang), "key_lines": _key(s),
    }

