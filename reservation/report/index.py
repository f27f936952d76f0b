"""The report's index page (``index.html``) and manifest (``report.json``)."""

from __future__ import annotations

import html
import json
from dataclasses import asdict
from pathlib import Path

__all__ = ["write_index"]


def _links(files: list[str], e) -> str:
    """``map en: PNG SVG`` style links for a task's files."""
    out = []
    for kind, lang in (("map", "en"), ("map", "hi"), ("published list", "en"), ("published list", "hi")):
        got = [f for f in files if f.endswith((f"-{lang}.png", f"-{lang}.svg"))
               and ("-published-" in f) == (kind != "map")]
        if got:
            out.append(f"{kind} {lang}: " + " ".join(f'<a href="{e(f)}">{e(f.rsplit(".", 1)[1].upper())}</a>'
                                                  for f in sorted(got, key=lambda f: not f.endswith(".png"))))
    out += [f'<a href="{e(f)}">{e(label)}</a>' for f in files for ext, label in
            ((".geojson", "GeoJSON"),) if f.endswith(ext)]
    out += [f'<a href="{e(f)}">{e(f.rsplit("-", 1)[-1].removesuffix(".csv"))} (CSV)</a>' for f in files
            if f.endswith(".csv")]
    return " &middot; ".join(out)


def _projection(p: dict, ext: str, e, word) -> str:
    """The index's entry for the projection page (``--projection``), in English and Hindi."""
    pr = p["projection"]
    out = [f'<h2>{e(word("index.projection"))} / {e(word("index.projection", "hi"))}</h2>',
           f'<p><a href="projection.{ext}">{e(str(p["year"]))}</a>: ']
    for lang in ("en", "hi"):
        years = ", ".join(map(str, pr["constraint_years"])) or word("index.none", lang)
        out.append(e(word("index.projection_note", lang, samples=pr["samples"], seed=pr["seed"], years=years))
                   + ("<br>" if lang == "en" else ""))
    out.append("</p>")
    if pr["backtest"]:
        out.append(f'<p>{e(word("index.projection_backtest", year=p["year"]))} '
                   f'{e(word("index.projection_backtest", "hi", year=p["year"]))}</p>')
    return "".join(out)


def _sheets(entries: list, e) -> str:
    """The index's list of the district sheets (``--pdf``): each district in English and Hindi, its two PDFs."""
    from ..law.words_sheet import sheet_word
    items = "".join(f'<li>{e(d["district"])} / {e(d["district_hi"])}: '
                    + " &middot; ".join(f'<a href="{e(f)}">{e(f.rsplit("-", 1)[1].removesuffix(".pdf"))}</a>'
                                        for f in d["files"]) + "</li>" for d in entries)
    return (f'<h2>{e(sheet_word("index.sheets"))} / {e(sheet_word("index.sheets", "hi"))}</h2>'
            f'<ul class="sheets">{items}</ul>')


def write_index(folder: Path, p: dict, result, pages: list, empty: list, seconds: float) -> tuple[Path, Path]:
    """``index.html`` (the State-wide map, links to every page, map, GeoJSON and CSV, the counts per category of
    each division, the assumptions in full) and ``report.json`` (the same as data). Called only when every task
    succeeded. Every string is HTML-escaped. No time or date is written, so that the same inputs give the same
    bytes (``seconds`` is only returned to the caller)."""
    from ..views import category_summary

    summary = category_summary(result.table, "division", "en", division=p["divisions"])
    by_key = {r.key: r for r in pages}
    ext = "html" if p["fmt"] == "html" else "ipynb"
    rows = _division_rows(p, summary, by_key, empty, ext)
    index = folder / "index.html"
    index.write_text(_index_page(p, result, pages, rows, _extra(p, by_key, ext)), encoding="utf-8")
    manifest = folder / "report.json"
    manifest.write_text(_manifest(p, pages, empty, summary, result), encoding="utf-8")
    return index, manifest


def _division_rows(p: dict, summary, by_key: dict, empty: list, ext: str) -> list[str]:
    """The rows of the index's table of divisions: per division its names in English and Hindi, the count of each
    category, the total and the links to its page, maps, GeoJSON and CSV (or a note that the body has no unit
    there); then the State's totals."""
    from ..law.categories import CODES, label
    from ..law.words import word
    from ..views import divisions as division_table, slug

    e = html.escape
    hi = dict(zip(division_table()["division"], division_table()["division_hi"]))
    total_en, total_hi = word("table.total"), word("table.total", "hi")
    rows = []
    for d in p["divisions"]:
        key = slug(d)
        if d in empty:
            rows.append(f"<tr><td>{e(d)}</td><td>{e(hi.get(d, d))}</td><td colspan='{len(CODES) + 2}'>"
                        f"no unit of this body in the division</td></tr>")
            continue
        r = summary.loc[d]
        cells = "".join(f"<td class='n'>{int(r[label(c)])}</td>" for c in CODES)
        page = by_key[key]
        links = f'<a href="{e(key)}.{ext}">page</a> &middot; ' + _links(page.files, e)
        rows.append(f"<tr><td>{e(d)}</td><td>{e(hi.get(d, d))}</td>{cells}<td class='n'>{int(r[total_en])}</td>"
                    f"<td>{links}</td></tr>")
    tot = summary.loc[total_en]
    rows.append(f"<tr class='total'><td>{e(total_en)}</td><td>{e(total_hi)}</td>" + "".join(
        f"<td class='n'>{int(tot[label(c)])}</td>" for c in CODES) + f"<td class='n'>{int(tot[total_en])}</td>"
        "<td></td></tr>")
    return rows


def _extra(p: dict, by_key: dict, ext: str) -> str:
    """The index's blocks above the table, for the pages the report has: the link to the State counts, the
    projection's entry, and the State map with its links."""
    from ..law.words import word

    e = html.escape
    extra = ""
    if "state-counts" in by_key:
        extra += f'<p><a href="state-counts.{ext}">State counts of every body, {p["year"]}</a></p>'
    if "projection" in by_key:
        extra += _projection(p, ext, e, word)
    if p.get("sheet_files"):
        extra += _sheets(p["sheet_files"], e)
    if "state-map" in by_key:
        sm = by_key["state-map"]
        extra += (f'<h2>{e(word("index.state_map"))} / {e(word("index.state_map", "hi"))}</h2>'
                  f'<figure class="state-map"><img src="state-map-en.png" alt="{e(word("index.state_map"))}">'
                  f'<figcaption>{_links(sm.files, e)}</figcaption></figure>')
    return extra


def _index_page(p: dict, result, pages: list, rows: list[str], extra: str) -> str:
    """The text of ``index.html``: title, what was computed (units, posts, history, base year, options, version),
    the ``extra`` blocks, the table of divisions (``rows``), the assumptions and inputs, the boundary source and the
    engines of the static maps."""
    from ..base.version import __version__
    from ..law.categories import CODES, COLOURS, label
    from ..law.words import word
    from ..views import assumptions_table, body_title
    from ..views.maps import boundary_source
    from ..views.tables import text_colour

    e = html.escape
    table = result.table
    total_en, total_hi = word("table.total"), word("table.total", "hi")
    head = "".join(f'<th style="background:{COLOURS[c]};color:{text_colour(COLOURS[c])}" title="{e(label(c))}">'
                   f'{e(c)}<br><small>{e(label(c, "hi"))}</small></th>' for c in CODES)
    notes = assumptions_table(result)
    note_rows = "".join(f"<tr><td>{e(str(k))}</td><td>{e(str(i))}</td><td>{e(str(v))}</td></tr>"
                        for k, i, v in notes.itertuples(index=False))
    flags = _flags(result, e)
    src = boundary_source()
    title = f"{body_title(p['body'])} {p['year']} / {body_title(p['body'], 'hi')} {p['year']}"
    history = ", ".join(map(str, result.meta.get("history_years", []))) or "no history"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)}</title>
<link rel="stylesheet" href="reservation.css">
<style>
body {{ font-family: "Reservation Devanagari", "Noto Sans", "Noto Sans Devanagari", sans-serif; margin: 24px;
       color: #222; }}
table {{ border-collapse: collapse; font-size: 13px; }} th, td {{ border: 1px solid #ccc; padding: 4px 6px;
       vertical-align: top; text-align: left; }}
td.n {{ text-align: right; }} tr.total td {{ font-weight: bold; }} th small {{ font-weight: normal; }}
figure.state-map img {{ max-width: 100%; height: auto; border: 1px solid #ddd; }}
</style></head><body>
<h1>{e(title)}</h1>
{_count(result, p)}
<p>{len(table)} units ({e(str(result.meta.get('posts', len(table))))} posts); rotation against {e(history)}
(base year {e(str(p['base_year']))}); options: {e(', '.join(p['options']) or 'defaults')}.
Generated by reservation-workbench {e(__version__)}.</p>
{extra}
<h2>Divisions / {e(word('table.division', 'hi'))}</h2>
<table><thead><tr><th>Division</th><th>{e(word('table.division', 'hi'))}</th>{head}<th>{e(total_en)}<br>
<small>{e(total_hi)}</small></th><th>{e(word('index.pages'))}</th></tr>
</thead><tbody>
{''.join(rows)}
</tbody></table>
<h2>Assumptions and inputs</h2>
<table><thead><tr><th>kind</th><th>item</th><th>value</th></tr></thead><tbody>{note_rows}</tbody></table>
{flags}
<p><small>Boundaries: {e(src['package'])} {e(src['version'])} ({e(Path(src['file']).name)}). Static maps:
{e(', '.join(sorted({m['engine'] for r in pages for m in r.maps})) or 'none')}.</small></p>
</body></html>
"""


def _count(result, p: dict) -> str:
    """The count that opens the index, in English and Hindi: the units of the report's divisions per status
    (:func:`reservation.views.count_line`); empty for an allotment without its answer."""
    from ..views import count_line
    lines = [count_line(result, p["divisions"], lang) for lang in ("en", "hi")]
    return "".join(f'<p class="count"><b>{html.escape(t)}</b></p>' for t in lines if t)


def _flags(result, e) -> str:
    """The constitutional flags of the allotment, after what each kind means in English and Hindi (a question to
    ask, not a finding that the list is unlawful): the words ``allot`` prints (:func:`reservation.law.words.
    flag_meanings`). Without flags: that none was raised."""
    from ..law.words import flag_meanings, word
    from ..views.tables import FLAG_COLUMNS_SHOWN, flags_table
    shown = flags_table(result.meta.get("flags", []))
    head = f'<h2>{e(word("flag.heading"))} / {e(word("flag.heading", "hi"))}</h2>'
    if not len(shown):
        return head + f'<p>{e(word("flag.none"))}<br>{e(word("flag.none", "hi"))}</p>'
    notes = "".join(f"<p><small>{e(t)}</small></p>" for lang in ("en", "hi") for t in flag_meanings(shown["flag"], lang))
    rows = "".join("<tr>" + "".join(f"<td>{e(str(v))}</td>" for v in r) + "</tr>"
                   for r in shown.itertuples(index=False))
    cols = "".join(f"<th>{e(c)}</th>" for c in FLAG_COLUMNS_SHOWN)
    return f"{head}{notes}<table><thead><tr>{cols}</tr></thead><tbody>{rows}</tbody></table>"


def _manifest(p: dict, pages: list, empty: list, summary, result) -> str:
    """The text of ``report.json``: the run's parameters, the version, each page's record (without its times),
    the counts of each category per division and the units per status (``status``: the report's divisions)."""
    from ..base.version import __version__
    from ..law.categories import CODES, label
    from ..views import status_counts

    return json.dumps({
        "body": p["body"], "year": p["year"], "base_year": p["base_year"], "options": p["options"],
        "history": p["history"], "units": p["units"], "format": p["fmt"], "divisions": p["divisions"],
        "empty_divisions": empty, "projection": p.get("projection"), "version": __version__,
        "pages": [{k: v for k, v in asdict(r).items() if k not in ("seconds", "timings")} for r in pages],
        "counts": {d: {c: int(summary.loc[d, label(c)]) for c in CODES} for d in summary.index},
        "status": status_counts(result.table, p["divisions"]),
        **({"sheets": p["sheet_files"]} if p.get("sheet_files") else {}),
    }, ensure_ascii=False, indent=2, default=str) + "\n"
