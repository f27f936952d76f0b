"""The one-page district sheet (``reservation sheet``, reservation.views.sheet; issue 22).

The PDF draws its words as placed glyph runs, so the page's text is tested through the cells it is drawn from
(:func:`reservation.views.sheet.cells`), against the allotments and against the shipped lists read here directly
from their files (the published Zila Panchayat list of 2021, the Mayors' list of 2023, the block records of 2015);
the PDF itself for its page count, its validity and its bytes (the same twice)."""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import run_cli
from reservation.allotment.pipeline import allot
from reservation.base.paths import DATA_DIR
from reservation.views.sheet import cells, sheet_data, sheet_pdf
from reservation.views.sheet.page import fitted
from test_hindi import latin_codes

#: the districts with most blocks (Azamgarh, 22) and most towns (Budaun, 21), and every district of one division
LARGEST = ("Azamgarh", "Budaun")
LUCKNOW_DIVISION = ("Lucknow", "Unnao", "Rae Bareli", "Sitapur", "Hardoi", "Lakhimpur Kheri")


@lru_cache(maxsize=None)
def _sheet(district: str, lang: str = "en"):
    return sheet_data(district, lang=lang)


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def _csv(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_the_division_is_whole():
    t = allot("zp-chair", 2021).table
    assert sorted(t.loc[t["division"] == "Lucknow", "district"]) == sorted(LUCKNOW_DIVISION)


@pytest.mark.parametrize("district", LUCKNOW_DIVISION + LARGEST)
def test_every_sheet_fits_one_page(district):
    """Held on one page by the layout itself (not by the smallest type forced): every table at a size that fits."""
    import matplotlib
    import matplotlib.pyplot as plt

    from reservation.views.maps.style import font_rc
    for lang in ("en", "hi") if district in LARGEST else ("en",):
        s = _sheet(district, lang)
        rc = font_rc(lang)
        with matplotlib.rc_context(rc):
            p = fitted(cells(s), lang, rc["font.family"])
            plt.close(p.fig)
        assert p.fits and p.size >= 7.0, (district, lang, p.size, p.y)


@pytest.mark.parametrize("district,lang", [("Azamgarh", "hi"), ("Lucknow", "en")])
def test_the_pdf_is_one_valid_page_and_the_same_twice(district, lang):
    a, b = sheet_pdf(_sheet(district, lang)), sheet_pdf(_sheet(district, lang))
    assert a == b
    assert a.startswith(b"%PDF-") and a.rstrip().endswith(b"%%EOF")
    assert _pages(a) == 1
    assert b"CreationDate" not in a


def test_the_zila_panchayat_chair_against_the_published_list():
    s = _sheet("Lucknow")
    pub = {r["district_lgd_code"]: r for r in _csv(DATA_DIR / "published" / "zp_adhyaksh_2021_final.csv")}
    t = allot("zp-chair", 2021).table.set_index("unit_code")
    assert s.zp.code == 162
    assert s.zp.category == t.at[162, "category"] and s.zp.status == t.at[162, "status"]
    assert s.zp.published == pub["162"]["category"] and s.zp.published_from == "list"
    c = cells(s)
    assert any(line.startswith(f"published: {pub['162']['category']} ") for line in c["zp_lines"])
    hist = {r["year"]: r["category"] for r in _csv(DATA_DIR / "history" / "zp-chair.csv") if r["unit"] == "162"}
    assert s.zp.earlier[0] == (2015, hist["2015"], "listed")
    assert s.zp.earlier[1:] == ((2010, "", "no_list"), (2005, "", "no_list"))      # we hold no list: unknown
    assert "2010 unknown (–)" in c["zp_lines"][-1]


def test_the_block_table_against_the_allotment_and_the_records():
    s = _sheet("Lucknow")
    c = cells(s)
    t = allot("kp-chair", 2021).table
    t = t[t["district"] == "Lucknow"].set_index("unit_name_en")
    assert [r[0] for r in c["kp_rows"]] == sorted(t.index)
    assert c["kp_columns"][-3:] == ["2015", "2010", "2005"]
    marks = {"determined": "a", "depends_obc": "b", "depends_list": "c", "partial_figures": "d",
             "differs_published": "e"}
    rec = {(r["unit"], r["year"]): r["category"] for r in _csv(DATA_DIR / "history" / "kp-chair.csv")}
    for row, cell in zip(s.blocks, c["kp_rows"]):
        assert cell[1] == t.at[row.name, "category"] and cell[2] == marks[t.at[row.name, "status"]]
        possible = t.at[row.name, "possible"].split("|")
        assert cell[3] == ("" if possible == [cell[1]] else " ".join(possible))
        assert cell[4] == ""                                   # no 2021 block list is shipped: blank, not UR
        assert cell[5] == rec[(str(row.code), "2015")]
    assert c["kp"].endswith(f": {len(t)} blocks")


def test_the_urban_table_against_the_mayors_list():
    s = _sheet("Lucknow")
    pub = {r["unit_code"]: r["category"] for r in _csv(DATA_DIR / "published" / "mayor_2023.csv")}
    mayor = [r for r in s.towns if r.body == "mayor"]
    assert len(mayor) == 1 and mayor[0].published == pub[str(mayor[0].code)]
    hist = {(r["unit"], r["year"]): r["category"] for r in _csv(DATA_DIR / "history" / "mayor.csv")}
    assert mayor[0].earlier[0] == (2017, hist[(str(mayor[0].code), "2017")], "listed")
    # 2006: the SEC's list (urban_chairs_2006.csv row 442, checked by hand: नगर निगम लखनऊ, महापौर, अनारक्षित) is placed on
    # today's Nagar Nigam since the history layer links 2006 to today's bodies
    assert mayor[0].earlier[2] == (2006, "UR", "listed")
    row = cells(s)["urban_rows"][0]
    assert row[:2] == ["Lucknow", "Nagar Nigam"] and row[-1] == "UR"
    others = [r for r in s.towns if r.body != "mayor"]
    assert others and all(r.published == "" and r.earlier[0][2] == "no_list" for r in others)   # no 2023 / 2017 list
    for body in ("pp-chair", "np-chair"):
        t = allot(body, 2023).table
        assert sorted(r.code for r in s.towns if r.body == body) == sorted(t.loc[t["district"] == "Lucknow",
                                                                                "unit_code"].astype(int))


def test_the_gram_pradhans_line_says_partial():
    s = _sheet("Lucknow")
    t = allot("gp-pradhan", 2021).table
    t = t[t["district"] == "Lucknow"]
    assert s.figures["all"] == len(t) and sum(s.pradhans.values()) == len(t)
    assert s.figures["partial"] == int((t["figures"] == "partial").sum())
    line = cells(s)["gp"]
    assert "partial" in line and "not the State's list" in line


def test_hindi_reads_as_hindi():
    """No category code inside a Hindi sentence; codes only in their own columns and where the key names them."""
    c = cells(_sheet("Lucknow", "hi"))
    sentences = [c[k] for k in ("title", "subtitle", "computed_by", "zp", "kp", "urban", "gp")] + c["zp_lines"]
    sentences += [line for line in c["key_lines"] if not line.startswith("वर्गों के कोड")]
    assert all(not latin_codes(x) for x in sentences), [x for x in sentences if latin_codes(x)]
    assert latin_codes(cells(_sheet("Lucknow"))["gp"])            # the check can fail: English names codes
    assert all(not latin_codes(x) for x in c["kp_columns"] + c["urban_columns"])
    assert any(re.search("[\u0900-\u097f]", r[0]) for r in c["kp_rows"])


def test_the_command_writes_and_refuses(tmp_path):
    out = tmp_path / "lucknow.pdf"
    code, so, err = run_cli(["sheet", "--district", "लखनऊ", "--lang", "hi", "--out", out])
    assert code == 0, err
    first = out.read_bytes()
    assert _pages(first) == 1 and (tmp_path / "lucknow.meta.json").exists()
    assert run_cli(["sheet", "--district", "Lucknow", "--lang", "hi", "--out", out])[0] == 0   # ours: replaced
    assert out.read_bytes() == first
    code, _, err = run_cli(["sheet", "--district", "Lucknw", "--out", tmp_path / "x.pdf"])
    assert code == 2 and "did you mean 'Lucknow'" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "x.meta.json").exists()
    foreign = tmp_path / "story.pdf"
    foreign.write_bytes(b"the reporter's own file")
    code, _, err = run_cli(["sheet", "--district", "Agra", "--out", foreign])
    assert code == 2 and "not written by this tool" in err and foreign.read_bytes() == b"the reporter's own file"
    assert run_cli(["sheet", "--district", "Agra", "--out", tmp_path / "a.txt"])[0] == 2
    assert run_cli(["sheet", "--district", "Agra", "--panchayat-year", "2010", "--out", tmp_path / "b.pdf"])[0] == 2
    assert run_cli(["sheet", "--district", "Agra", "--urban-year", "2017", "--out", tmp_path / "c.pdf"])[0] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lucknow.meta.json", "lucknow.pdf", "story.pdf"]
    assert run_cli(["sheet", "--district", "Agra", "--out", foreign, "--force"])[0] == 0
    assert _pages(foreign.read_bytes()) == 1


def test_the_report_writes_the_sheets_of_its_divisions(tmp_path):
    """``report --pdf``: every district of the divisions, in English and Hindi, one page each, in the flat folder
    the report publishes; the index lists them (escaped)."""
    import html

    from reservation.report.index import _sheets
    from reservation.report.sheets import sheet_years, write_sheets
    t = allot("zp-chair", 2021).table
    districts = sorted(t.loc[t["division"] == "Jhansi", "district"])
    entries = write_sheets(tmp_path, {"divisions": ["Jhansi"], "sheets": sheet_years("zp-chair", 2021)})
    assert [e["district"] for e in entries] == districts and len(districts) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f for e in entries for f in e["files"])
    assert all(_pages((tmp_path / f).read_bytes()) == 1 for e in entries for f in e["files"])
    page = _sheets(entries, html.escape)
    assert all(f'href="{f}"' in page for e in entries for f in e["files"])
    assert sheet_years("mayor", 2023) == (2021, 2023) and sheet_years("kp-chair", 2015) == (2015, 2023)


@pytest.mark.parametrize("body,year", [("zp-chair", 2026), ("kp-chair", 2010), ("mayor", 2017)])
def test_the_report_refuses_sheets_it_cannot_make(body, year):
    from reservation.base.errors import InputError
    from reservation.report.sheets import sheet_years
    if year == 2017:                                     # held, but its rules are not in the package: exit 3 later
        assert sheet_years(body, year) == (2021, 2017)
        return
    with pytest.raises(InputError, match="--pdf"):
        sheet_years(body, year)


def test_the_sheet_never_writes_into_the_package_or_through_a_link(tmp_path):
    link = tmp_path / "link.pdf"
    link.symlink_to(tmp_path / "target.pdf")
    code, _, err = run_cli(["sheet", "--district", "Agra", "--out", link, "--force"])
    assert code == 2 and "symbolic link" in err and not (tmp_path / "target.pdf").exists()
    code, _, err = run_cli(["sheet", "--district", "Agra", "--out", DATA_DIR / "agra.pdf", "--force"])
    assert code == 2 and not (DATA_DIR / "agra.pdf").exists() and not (DATA_DIR / "agra.meta.json").exists()


def test_a_list_without_a_date_is_said_without_one():
    """2015: the lists we hold carry no date; the page names them without an empty "()" or "list of"."""
    s = sheet_data("Lucknow", panchayat_year=2015)
    c = cells(s)
    assert s.zp.published_from == "list" and "()" not in c["computed_by"]
    assert not any(line.rstrip().endswith("list of") for line in c["zp_lines"])
    assert c["kp_columns"][-3:] == ["2010", "2005", "2000"] and all(r[-1] == "–" for r in c["kp_rows"])
