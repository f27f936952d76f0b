"""Issue 22, "Papermill errors" and "A newsroom's formats": a bad notebook parameter fails in one line that names it
and suggests the nearest value; --excel-csv writes the UTF-8 byte-order mark; the xlsx has a filter row and the
Hindi label of each category; the State counts page shows no pandas index and no <NA>; one version; the evidence
cites only files that ship."""
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from reservation import views
from reservation.base.errors import InputError, NotebookParameterError
from reservation.inputs.nearest import did_you_mean, nearest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


# ============================================================================ the did-you-mean of short lists

def test_nearest_of_a_short_list_uses_the_names_distance():
    divisions = list(views.divisions()["division"])
    assert nearest("Varansi", divisions) == ["Varanasi"]
    assert nearest("Faizabd", divisions) == ["Ayodhya (Faizabad)"]          # the name inside the parenthesis
    assert nearest("वारानसी", divisions, hindi=list(views.divisions()["division_hi"])) == ["Varanasi"]
    assert nearest("Gotham", divisions) == [] and did_you_mean("Gotham", divisions) == ""
    assert did_you_mean("cod", ["population", "code", "assumed_by_code"]) == "; did you mean 'code'?"
    assert nearest("", divisions) == [] and nearest(7, divisions) == []


# ============================================================================ the notebooks' parameter check

ZP02 = dict(body="zp-chair", year=2021, division="all", base_year=2015, options=[], history=[], units="")


@pytest.mark.parametrize("key, bad, line", [
    ("02", dict(division="Varansi"), "division: unknown division 'Varansi'; did you mean 'Varanasi'?"),
    ("02", dict(body="zp-chiar"), "body: unknown or not yet implemented body 'zp-chiar'; did you mean 'zp-chair'?"),
    ("02", dict(options=["tie_break=cod"]),
     "options: tie_break: 'cod' is not one of population, code, assumed_by_code; did you mean 'code'?"),
    ("02", dict(options=["tie_brek=code"]), "options: unknown option 'tie_brek'; did you mean 'tie_break'?"),
    ("02", dict(base_year=2022), "base_year: base_year 2022 is after the election year 2021"),
    ("02", dict(divison="Agra"), "divison: notebook 02 has no parameter 'divison'; did you mean 'division'?"),
    ("03", dict(unit="Lucknw"), "unit: unknown district 'Lucknw'; did you mean 'Lucknow'?"),
    ("05", dict(district="Mirzapr"), "district: unknown district 'Mirzapr'; did you mean 'Mirzapur'?"),
    ("05", dict(part="rurl"), "part: part must be rural or urban, not 'rurl'; did you mean 'rural'?"),
])
def test_a_bad_parameter_is_named_with_the_nearest_value(key, bad, line):
    defaults = {"02": ZP02, "03": dict(body="zp-chair", year=2021, unit="", division="all", base_year=2015,
                                       history=[]),
                "05": dict(district="Mirzapur", year=2021, part="rural", category="UR", lot_winner="")}[key]
    with pytest.raises(NotebookParameterError) as e:
        views.check_notebook(key, **{**defaults, **bad})
    assert str(e.value).startswith(line) and "column" not in str(e.value), str(e.value)
    assert isinstance(e.value, InputError) and e.value.parameter == str(line.split(":")[0])
    assert e.value._render_traceback_() == [f"NotebookParameterError: {e.value}"]      # what IPython shows


def test_good_parameters_still_pass_and_are_normalised():
    p = views.check_notebook("02", **{**ZP02, "division": "varanasi", "options": ["tie_break=code"]})
    assert p["divisions"] == ["Varanasi"] and p["options"] == ["tie_break=code"]
    assert views.check_notebook("03", body="kp-chair", year=2021, unit="Bah, Agra", division="all", base_year=2015,
                                history=[])["unit"] == "Bah, Agra"


def _papermill(nb: str, tmp_path: Path, *params: str) -> subprocess.CompletedProcess:
    papermill = Path(sys.executable).with_name("papermill")
    return subprocess.run([str(papermill), str(next(NOTEBOOKS.glob(f"{nb}_*.ipynb"))), str(tmp_path / "out.ipynb"),
                           "--cwd", str(tmp_path), *params], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("nb, params, last", [
    ("02", ["-p", "division", "Varansi"],
     "NotebookParameterError: division: unknown division 'Varansi'; did you mean 'Varanasi'?"),
    ("03", ["-p", "unit", "Lucknw"], "NotebookParameterError: unit: unknown district 'Lucknw'; did you mean 'Lucknow'?"),
    ("07", ["-p", "samples", "0"], "NotebookParameterError: samples: "),
])
def test_papermill_ends_with_one_line_naming_the_parameter(tmp_path, nb, params, last):
    """What a scheduler's log shows of a failed run: the last line of papermill's stderr names the parameter."""
    run = _papermill(nb, tmp_path, *params)
    assert run.returncode != 0
    lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
    assert lines[-1].startswith(last), run.stderr[-2000:]
    assert "column" not in lines[-1] and "Traceback" not in "\n".join(lines[lines.index(lines[-1]) - 2:])
    cell = [ln for ln in lines if "Exception encountered at" in ln]
    assert cell and lines.index(cell[-1]) == len(lines) - 2                 # the kernel's traceback: one line


# ============================================================================ --excel-csv, the xlsx

def test_excel_csv_begins_with_the_byte_order_mark_and_the_meta_says_so(main, tmp_path, capsys):
    plain, excel = tmp_path / "plain.csv", tmp_path / "excel.csv"
    assert main(["allot", "--body", "zp-chair", "--year", "2021", "--out", str(plain)]) == 0
    assert main(["allot", "--body", "zp-chair", "--year", "2021", "--lang", "hi", "--out", str(excel),
                 "--excel-csv"]) == 0
    data = excel.read_bytes()
    assert data[:3] == b"\xef\xbb\xbf" and not plain.read_bytes().startswith(b"\xef\xbb\xbf")
    assert data[3:].decode("utf-8").startswith("unit_code,")                 # one mark, then the header
    meta = json.loads((tmp_path / "excel.meta.json").read_text(encoding="utf-8"))
    assert meta["encoding"] == "utf-8-sig" and "encoding" not in json.loads(
        (tmp_path / "plain.meta.json").read_text(encoding="utf-8"))
    t = pd.read_csv(excel, encoding="utf-8-sig")
    i = list(t.columns).index("category")
    assert t.columns[i + 1] == "category_hi"
    assert (t.loc[t["category"] == "OBC_W", "category_hi"] == "अन्य पिछड़ा वर्ग महिला").all()
    assert set(t["category_hi"]) == {"अनुसूचित जाति महिला", "अनुसूचित जाति", "अन्य पिछड़ा वर्ग महिला",
                                     "अन्य पिछड़ा वर्ग", "महिला", "अनारक्षित"}
    assert "category_hi" not in pd.read_csv(plain).columns                     # the plain CSV: as before


@pytest.mark.parametrize("extra, words", [([], "needs --out FILE.csv"), (["--out", "x.xlsx"], "is not a .csv")])
def test_excel_csv_without_a_csv_target_is_refused_before_anything_runs(main, tmp_path, capsys, monkeypatch,
                                                                        extra, words):
    monkeypatch.chdir(tmp_path)
    for cmd in (["allot"], ["project", "--samples", "10"], ["audit", "--published", "list.csv"]):
        year = "2026" if cmd[0] == "project" else "2021"
        assert main([*cmd, "--body", "zp-chair", "--year", year, "--excel-csv", *extra]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "--excel-csv" in err and words in err, err
    assert list(tmp_path.iterdir()) == []


def test_the_xlsx_has_a_filter_row_and_the_hindi_label_of_each_category(main, tmp_path):
    out = tmp_path / "zp.xlsx"
    assert main(["allot", "--body", "zp-chair", "--year", "2021", "--out", str(out)]) == 0
    sheet = zipfile.ZipFile(out).read("xl/worksheets/sheet1.xml").decode("utf-8")
    t = pd.read_excel(out)
    last = chr(ord("A") + len(t.columns) - 1)
    assert f'<autoFilter ref="A1:{last}{len(t) + 1}"' in sheet and len(t) == 75
    assert list(t.columns[5:7]) == ["category", "category_hi"]
    from reservation.law.categories import label
    assert (t["category_hi"] == [label(c, "hi") for c in t["category"]]).all()
    again = tmp_path / "again.xlsx"
    assert main(["allot", "--body", "zp-chair", "--year", "2021", "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()                            # deterministic still


def test_hindi_labels_leave_a_table_without_categories_alone_and_keep_unknowns_empty():
    from reservation.output.tables import with_hindi_labels
    df = pd.DataFrame({"a": [1]})
    assert with_hindi_labels(df) is df
    t = with_hindi_labels(pd.DataFrame({"published": ["SC", None, "?"], "computed": ["UR", "W", "X"]}))
    assert list(t.columns) == ["published", "published_hi", "computed", "computed_hi"]
    assert list(t["published_hi"]) == ["अनुसूचित जाति", "", ""] and t["computed_hi"].iat[2] == ""


# ============================================================================ the State counts page

def test_state_counts_show_no_index_and_no_na():
    overview, counts = views.state_counts_all(2021)
    page = views.html_table(overview).to_html() + views.html_table(views.state_counts_wide(counts).reset_index()).to_html()
    assert "&lt;NA&gt;" not in page and "<NA>" not in page and "row_heading" not in page
    assert "counted inside each ward&#39;s parent: needs a units file" in page      # whole, not cut
    cells = {"".join(c["source"]) for c in json.loads((NOTEBOOKS / "01_state_counts.ipynb").read_text())["cells"]
             if c["cell_type"] == "code"}
    assert "overview" not in cells and "views.state_counts_wide(counts)" not in cells   # shown through html_table


def test_the_division_page_skips_the_generic_introduction():
    first = json.loads((NOTEBOOKS / "02_division_report.ipynb").read_text(encoding="utf-8"))["cells"][0]
    assert first["source"][0].startswith("# Division report") and "report-skip" in first["metadata"]["tags"]


def test_checked_tables_are_folded_in_jupyterlab_and_left_out_of_pages():
    """The plain-text copy of a key table (its nbval reference) is not what a reader should see twice: dropped
    from the report's pages (report-skip) and folded in JupyterLab (its source and output hidden)."""
    for nb in sorted(NOTEBOOKS.glob("0*.ipynb")):
        for c in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            if "# NBVAL_CHECK_OUTPUT" in "".join(c["source"]):
                assert "report-skip" in c["metadata"]["tags"], nb.name
                assert c["metadata"]["jupyter"] == {"outputs_hidden": True, "source_hidden": True}, nb.name


# ============================================================================ one version, sources that ship

def test_one_version_everywhere():
    import importlib.metadata

    import reservation
    from reservation.base.version import __version__
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "reservation.base.version.__version__"}
    assert reservation.__version__ == __version__ == importlib.metadata.version("reservation-workbench")


def test_every_data_file_the_evidence_and_docs_cite_ships():
    """No citation of a file the repository does not hold (issue 22: data/SOURCES.md)."""
    texts = [p for p in (ROOT / "reservation" / "rules" / "params").glob("*.toml")]
    texts += list((ROOT / "docs").glob("*.md")) + [ROOT / "README.md", ROOT / "data" / "README.md"]
    texts += list((ROOT / "reservation").rglob("*.py"))
    cited = set()
    for p in texts:
        cited |= set(re.findall(r"(?<![\w/.])data/[\w./-]+?\.(?:md|csv|toml|txt)(?:\.gz)?(?!\.?\w)", p.read_text(encoding="utf-8")))
    assert cited, "the pattern finds the citations"
    # data/raw/...: a path inside another public repository (in-rolls/local_elections_up), named as its source
    missing = sorted(c for c in cited if not (ROOT / c).is_file() and not c.startswith("data/raw/"))
    assert missing == [] and "data/SOURCES.md" not in cited
