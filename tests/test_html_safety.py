"""Hostile names from an input file come out escaped in every page, table, map tooltip and index (issue 9).

Unit names in English and Hindi such as ``<script>alert(1)</script>``, ``<img src=x onerror=alert(1)>`` and
``"><svg onload=...>`` go through a units file into a real ``reservation report`` (pp-chair takes name_en and
name_hi, gp-pradhan name_en) and into the views the notebooks and the explorer display. Every written file is read
back: no tag from the input may appear as a tag, in the HTML itself, in the plotly JSON embedded in it (where a
raw ``</script>`` would close the script element and plotly would read the rest as its own small HTML), or in the
executed notebooks' HTML outputs. The escaped form must be there (the names were shown, not dropped).

Data files (GeoJSON, CSV) keep the names as given: they are data for other programs, not HTML, and no page
inlines them. A name that a spreadsheet would run as a formula (``=HYPERLINK(...)``) is refused when the units file
is read (reservation.inputs.units); the CSV files beside the pages still prefix any such cell with an apostrophe
(views.write_csv, tested below), so that no path to a spreadsheet depends on the reader alone.

Which mechanism covers what: pandas Styler ``format(escape="html")`` for every table (views.html_table,
views.style_categories), ``html.escape`` for every string handed to plotly (hover, tick labels, annotations),
``html.escape`` / jinja2 ``| e`` for the index and page headers, and no Markdown with data in it (headings are
escaped HTML). Plotly's own sanitiser is not relied on.
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from reservation import views

#: The tags of the hostile names below, as they must never appear in a page (raw, or JSON-escaped as \u003c).
RAW = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>",
       "<script>alert('हि')</script>", "<img src=x onerror=alert(2)>", "<svg onload=alert('२')>", "<b>Bold</b>",
       "<i>co</i>", "<b>मोटा</b>", "<b>ग्राम</b>", "<script>x()</script>"]

PP_UNITS = """unit,name_en,name_hi,body_type,district,pop,sc,st,women
1,<script>alert(1)</script>,<script>alert('हि')</script>,NPP,Lucknow,5000,1500,0,2400
2,<img src=x onerror=alert(1)>,नगर<img src=x onerror=alert(2)>,NPP,Lucknow,4000,800,0,1900
3,\"\"\"><svg onload=alert(1)>\",\"\"\"><svg onload=alert('२')>\",NPP,Unnao,3000,900,0,1450
4,Plain Town,सादा नगर,NPP,Unnao,2000,100,0,990
5,<b>Bold</b> & <i>co</i>,<b>मोटा</b>,NPP,Hardoi,2500,500,0,1200
"""

GP_UNITS = """unit,parent,pop,sc,st,name_en,district,division
1,B1,100,50,0,<script>alert(1)</script>,Lucknow,Lucknow
2,B1,100,40,0,<img src=x onerror=alert(1)>,Lucknow,Lucknow
3,B1,100,30,0,\"\"\"><svg onload=alert(1)>\",Lucknow,Lucknow
4,B1,100,20,0,<b>ग्राम</b><script>x()</script>,Lucknow,Lucknow
5,B1,100,10,0,Plain,Lucknow,Lucknow
6,B1,100,0,0,<b>Bold</b> & <i>co</i>,Lucknow,Lucknow
"""


@pytest.fixture(scope="module")
def units_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile")
    (d / "pp.csv").write_text(PP_UNITS, encoding="utf-8")
    (d / "gp.csv").write_text(GP_UNITS, encoding="utf-8")
    return d


class _Elements(HTMLParser):
    """Every element and attribute of a page, and the text of its script elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)


def assert_no_hostile_markup(text: str, where: str) -> None:
    unjson = text.replace("\\u003c", "<").replace("\\u003e", ">").replace('\\"', '"').replace("\\/", "/")
    for raw in RAW:
        assert raw not in text, f"{where}: {raw!r} unescaped"
        assert raw not in unjson, f"{where}: {raw!r} unescaped in embedded JSON"
    p = _Elements()
    p.feed(text)
    for tag, attrs in p.tags:
        assert not any(a.lower() in ("onerror", "onload") for a in attrs), f"{where}: <{tag} {attrs}>"
        assert not (tag == "img" and attrs.get("src") == "x"), where
    assert not any("alert(" in s and "&lt;" not in s for s in p.scripts if "alert(" in s.replace("&lt;", "")), where


@pytest.mark.parametrize("body, units, year", [("pp-chair", "pp.csv", 2023), ("gp-pradhan", "gp.csv", 2021)])
def test_a_report_escapes_hostile_names_everywhere(main, tmp_path, units_files, body, units, year, capsys):
    out = tmp_path / "rep"
    code = main(["report", "--body", body, "--year", str(year), "--division", "Lucknow", "--units",
                 str(units_files / units), "--out", str(out), "--no-progress", "--no-state-page",
                 *(["--projection", "--projection-samples", "10"] if body == "pp-chair" else [])])
    assert code == 0, capsys.readouterr().err
    files = sorted(p for p in out.iterdir() if p.is_file())
    assert any(p.suffix == ".html" for p in files)
    for p in files:
        if p.suffix in (".png", ".js", ".woff", ".ttf"):
            continue
        if p.suffix in (".geojson", ".csv"):              # data files: the names as given (not HTML, never inlined)
            continue
        text = p.read_text(encoding="utf-8")
        if p.suffix == ".ipynb":                  # the executed notebook: its HTML outputs
            nb = nbformat.reads(text, as_version=4)
            text = "\n".join(str(o.get("data", {}).get("text/html", "")) for c in nb.cells
                             for o in c.get("outputs", []))
        assert_no_hostile_markup(text, p.name)
    page = (out / "lucknow.html").read_text(encoding="utf-8")
    assert html.escape("<script>alert(1)</script>") in page          # shown, as text
    if body == "pp-chair":                                            # CSV beside the page: no formula runs
        units_csv = pd.read_csv(out / "lucknow-units.csv", encoding="utf-8-sig", dtype=str)
        cells = [c for col in units_csv.columns for c in units_csv[col].dropna()]
        assert "<script>alert(1)</script>" in cells                   # data files keep the names as given
        assert not [c for c in cells if c[:1] in ("=", "+", "-", "@")]
    if body == "pp-chair":
        assert html.escape("<b>मोटा</b>") in page                       # the Hindi name too
        projection = (out / "projection.html").read_text(encoding="utf-8")   # checked above with every page
        assert html.escape("<script>alert(1)</script>") in projection
        fig = next(json.loads(m) for m in re.findall(r"Plotly\.newPlot\(\s*\"[^\"]+\",\s*(\[.*?\]),\s*\{", page,
                                                     flags=re.S))
        custom = json.dumps([t.get("customdata") for t in fig], ensure_ascii=False)
        assert "&lt;img src=x onerror=alert(1)&gt;" in custom              # the map's tooltip, escaped


def test_views_escape_hostile_names(units_files):
    r = views.run_allotment("pp-chair", 2023, units=str(units_files / "pp.csv"))
    for lang in ("en", "hi"):
        page = views.style_categories(views.unit_list(r.table, "Lucknow", lang), lang).to_html()
        page += views.html_table(views.not_drawn_table(r.table.assign(why="<b>why</b>"), lang)).to_html()
        mv = views.division_map(r.table, ["Lucknow"], lang, body="pp-chair")
        page += mv.figure.to_json()
        page += views.rotation_heatmap(views.rotation_matrix(r), lang).to_json()
        assert_no_hostile_markup(page, lang)
        assert "&lt;b&gt;why&lt;/b&gt;" in page


def test_html_heading_and_html_table_escape():
    assert views.html_heading("<script>x()</script>", 3).data == "<h3>&lt;script&gt;x()&lt;/script&gt;</h3>"
    t = views.html_table(pd.DataFrame({"<b>Bold</b>": ["<i>co</i>"]}, index=["<script>x()</script>"]), index=True)
    assert_no_hostile_markup(t.to_html(), "table")


@pytest.mark.parametrize("body, units", [("pp-chair", "pp.csv"), ("gp-pradhan", "gp.csv")])
def test_the_explorer_escapes_hostile_names(units_files, body, units):
    """What notebook 04 shows: the explorer's outputs (tables as HTML, the map as plotly JSON) for a hostile units
    file, in both languages."""
    ex = views.Explorer(body=body, units=str(units_files / units), render=True)
    for lang in ("en", "hi"):
        ex.lang.value = lang
        assert ex.state.error == ""
        parts = [ex.status.value, ex.step_html.value]
        for out in (ex.counts_out, ex.map_out, ex.table_out):
            for o in out.outputs:
                parts += [json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v
                          for v in o.get("data", {}).values()]
        page = "\n".join(parts)
        assert_no_hostile_markup(page, f"explorer {body} {lang}")
        assert "&lt;script&gt;alert(" in page                        # shown, as text


def test_csv_cells_never_start_a_formula(tmp_path):
    df = pd.DataFrame({"=name": ["=cmd|' /C calc'!A0", "+1", "-2", "@SUM(A1)", "\tx", "ok", "नाम"], "n": range(7)})
    p = views.write_csv(df, tmp_path / "t.csv")
    raw = p.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")                       # UTF-8 with a BOM: Excel reads Hindi
    back = pd.read_csv(p, encoding="utf-8-sig", dtype=str, keep_default_na=False)
    assert list(back.columns) == ["'=name", "n"]
    assert list(back["'=name"]) == ["'=cmd|' /C calc'!A0", "'+1", "'-2", "'@SUM(A1)", "'\tx", "ok", "नाम"]
    assert list(back["n"]) == [str(i) for i in range(7)]           # numbers untouched
    assert views.write_csv(df, tmp_path / "u.csv").read_bytes() == raw
