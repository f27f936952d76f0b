"""``reservation report`` (reservation.report, reservation.cli.report): parameters validated before anything runs,
one division end to end (papermill, HTML, static maps, index), and the failure path (a notebook that raises:
non-zero exit, no index, the previous report left alone). Also: the committed notebooks are clean."""

from __future__ import annotations

import argparse
import html
import json
import re
from pathlib import Path

import nbformat
import pandas as pd
import pytest
import tools

from reservation.cli import report as cli_report
from reservation import report
from reservation.base.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


# ============================================================================================ validation

@pytest.mark.parametrize("argv, words", [
    (["--body", "nope", "--year", "2021"], "unknown or not yet implemented body 'nope'"),
    (["--body", "zp-chair", "--year", "1999"], "1999 is not an election year"),
    (["--body", "zp-chair", "--year", "2021", "--division", "Gotham"], "unknown division 'Gotham'"),
    (["--body", "zp-chair", "--year", "2021", "--option", "tie_break=coin"], "tie_break"),
    (["--body", "zp-chair", "--year", "2021", "--workers", "0"], "workers"),
    (["--body", "zp-chair", "--year", "2021", "--history", "/no/such.csv"], "history file not found"),
])
def test_bad_parameters_exit_2_before_anything_runs(main, tmp_path, capsys, argv, words):
    out = tmp_path / "rep"
    assert main(["report", *argv, "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_argparse_refuses_a_year_that_is_not_a_number_and_an_unknown_format(main, capsys):
    with pytest.raises(SystemExit) as e:
        main(["report", "--body", "zp-chair", "--year", "twenty"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["report", "--body", "zp-chair", "--year", "2021", "--format", "pdf"])
    assert e.value.code == 2


def test_validate_checks_types_out_and_notebook(tmp_path):
    p = report.validate("zp-chair", 2021, ["Lucknow", "आगरा"], out=tmp_path / "r")
    assert p["divisions"] == ["Lucknow", "Agra"] and p["fmt"] == "html" and p["notebook"] == report.DIVISION_NOTEBOOK
    with pytest.raises(InputError, match="format"):
        report.validate("zp-chair", 2021, fmt="pdf")
    with pytest.raises(InputError, match="year must be an integer"):
        report.validate("zp-chair", "2021; import os")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="not a folder"):
        report.validate("zp-chair", 2021, out=tmp_path / "file")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1")]
    nbformat.write(nb, tmp_path / "untagged.ipynb")
    with pytest.raises(InputError, match="no cell tagged 'parameters'"):
        report.validate("zp-chair", 2021, notebook=tmp_path / "untagged.ipynb")


def test_register_adds_the_report_command():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="command")
    cli_report.register(sub)
    args = p.parse_args(["report", "--body", "zp-chair", "--year", "2021", "--division", "Lucknow", "--division",
                         "Agra", "--format", "ipynb"])
    assert args.func is cli_report.cmd_report and args.division == ["Lucknow", "Agra"] and args.format == "ipynb"
    assert args.workers == 2 and args.static_engine == "matplotlib" and args.plotlyjs == "directory"


# ============================================================================================ one division

def zp_assumptions() -> list[str]:
    import reservation
    return reservation.allot("zp-chair", 2021).meta["assumptions"]


def index_text(out: Path) -> str:
    return (out / "index.html").read_text(encoding="utf-8")


def test_report_for_one_division_end_to_end(main, tmp_path, capsys):
    out = tmp_path / "zp"
    assert main(["report", "--body", "zp-chair", "--year", "2021", "--division", "Lucknow", "--out", str(out),
                 "--no-progress"]) == 0
    assert "wrote 1 division page(s)" in capsys.readouterr().out
    names = {p.name for p in out.iterdir()}
    assert {"index.html", "report.json", "lucknow.html", "lucknow.ipynb", "lucknow-map-en.png", "lucknow-map-en.svg",
            "lucknow-map-hi.png", "lucknow-map-hi.svg", "lucknow-map.geojson", "state-counts.html",
            "state-counts.ipynb", "state-map-en.png", "state-map-hi.svg", "state-map.geojson", "reservation.css",
            report.MARKER} <= names
    assert "logs" not in names and not [n for n in names if n.endswith(".pickle")]   # the kernels' allotment
    assert not [p for p in tmp_path.iterdir() if p.name != "zp"]           # no temporary folder left behind

    page = (out / "lucknow.html").read_text(encoding="utf-8")
    # offline: plotly.js, JupyterLab's style sheet and the Hindi font once beside the pages (the default), nothing
    # loaded from the network, no code cells
    assert "Plotly.newPlot" in page and len(page) < 1_000_000
    assert re.search(r'<script[^>]+src="plotly.min.js"', page) and (out / "plotly.min.js").is_file()
    assert re.search(r'<link[^>]+href="lab.css"', page) and re.search(r'<link[^>]+href="reservation.css"', page)
    assert "reservation-devanagari.ttf" in (out / "reservation.css").read_text(encoding="utf-8")
    assert not re.search(r'<script[^>]+src="https?:', page) and not re.search(r'<link[^>]+href="https?:', page)
    assert "cdnjs" not in page and "require.min.js" not in page and "mermaid.esm" not in page
    assert 'document.querySelectorAll("details.reservation-static")' in page    # opens the static map if needed
    assert "views.check_parameters" not in page and "NBVAL_CHECK_OUTPUT" not in page
    assert "views.check_notebook" not in page                   # the notebook's parameter check: code, hidden
    assert "जिला पंचायत अध्यक्ष 2021: लखनऊ" in page
    assert 'class="reservation-static"' in page and 'src="lucknow-map-en.png"' in page   # fallback static map
    for unit in ("Hardoi", "Lakhimpur Kheri", "Lucknow", "Rae Bareli", "Sitapur", "Unnao"):
        assert unit in page
    assert "6 of 6 units on the map (district); not drawn: 0" in page
    assert "Division report" not in page and "For one body and election year" not in page   # no generic opening
    counts = (out / "state-counts.html").read_text(encoding="utf-8")    # issue 22: no pandas index, no <NA>
    assert "&lt;NA&gt;" not in counts and "row_heading" not in counts and "needs a uni…" not in counts
    assert "needs a units file" in counts and "Offices per category" in counts
    # the assumptions in full, with no index column; the Hindi units keep their reasons (English, said so)
    caveat = next(a for a in zp_assumptions() if "OBC population" in a)
    assert caveat in html.unescape(page) and "row_heading" not in page       # as text (the table escapes its quotes)
    assert "के अवरोही क्रम में" in page and "कारण (अंग्रेज़ी में)" not in page      # Hindi reasons, from the codes
    # a CSV of each table beside the page, safe for spreadsheets
    for name in ("counts", "units", "assumptions"):
        assert (out / f"lucknow-{name}.csv").is_file() and f'href="lucknow-{name}.csv"' in index_text(out)
    units = pd.read_csv(out / "lucknow-units.csv", encoding="utf-8-sig")
    assert sorted(units["unit_name_en"]) == ["Hardoi", "Lakhimpur Kheri", "Lucknow", "Rae Bareli", "Sitapur", "Unnao"]
    assert {"category_en", "category_hi", "reason", "reason_hi", "clause", "clause_hi"} <= set(units.columns)
    # issue 20: the answer beside the computed category, and the count, in the CSVs and on the page; the published
    # categories are the shipped final list's, read here with pandas
    assert {"published", "status", "status_en", "status_hi", "possible"} <= set(units.columns)
    final = pd.read_csv(ROOT / "data" / "published" / "zp_adhyaksh_2021_final.csv")
    final = dict(zip(final["district_en"], final["category"]))
    assert all(final[n] == p for n, p in zip(units["unit_name_en"], units["published"]))
    status = pd.read_csv(out / "lucknow-status.csv", encoding="utf-8-sig").set_index("status")
    assert status.at["TOTAL", "in_division"] == 6 and status.at["TOTAL", "in_state"] == 75
    counted = units["status"].value_counts()
    assert all(int(status.at[k, "in_division"]) == int(counted.get(k, 0)) for k in status.index if k != "TOTAL")
    from reservation.law.words_allotment import STATUS_ONE_EN           # "1 differs", "2 differ"
    parts = [f"{int(n)} {STATUS_ONE_EN[k] if n == 1 else status.at[k, 'label_en']}"
             for k, n in status["in_division"].items() if k != "TOTAL" and n]
    line = "6 districts: " + ", ".join(parts)
    assert html.escape(line) in page and html.escape(line) in index_text(out)
    hi_parts = [f"{int(n)} {status.at[k, 'label_hi']}" for k, n in status["in_division"].items()
                if k != "TOTAL" and n]
    assert ", ".join(hi_parts) in page and "प्रकाशित" in page and "स्थिति" in page
    assert page.index(html.escape(line)) < page.index("Counts per category")        # the page opens with it
    # the published list beside the computed map: static files, on the page, linked from the index
    assert {"lucknow-published-en.png", "lucknow-published-en.svg", "lucknow-published-hi.png",
            "lucknow-published-hi.svg"} <= names
    assert 'src="lucknow-published-en.png"' in page and 'href="lucknow-published-hi.svg"' in index_text(out)
    # the same page standing alone (--plotlyjs inline): plotly.js, the font and the static map inside it
    alone = report.notebook_to_html(out / "lucknow.ipynb", tmp_path / "alone.html", title="t", plotlyjs="inline",
                                    static_map=out / "lucknow-map-en.png").read_text(encoding="utf-8")
    assert len(alone) > 3_000_000 and "data:image/png;base64," in alone and "@font-face" in alone
    assert 'src="plotly.min.js"' not in alone and 'href="lab.css"' not in alone

    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="lucknow.html"' in index and 'href="lucknow-map-hi.svg"' in index
    assert 'href="state-counts.html"' in index and "लखनऊ" in index
    assert '<img src="state-map-en.png"' in index and 'href="state-map.geojson"' in index   # the State-wide map
    assert 'href="lucknow-map.geojson"' in index
    state = json.loads((out / "state-map.geojson").read_text(encoding="utf-8"))
    assert len(state["features"]) == 75 and state["properties"]["mode"] == "district"
    m = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert m["divisions"] == ["Lucknow"] and all(p["ok"] for p in m["pages"])
    # issue 12: the division rule frees Unnao (Census 2011 totals as published) and leaves it unreserved
    assert m["counts"]["Lucknow"] == {"ST_W": 0, "ST": 0, "SC_W": 4, "SC": 1, "OBC_W": 0, "OBC": 0, "W": 0, "UR": 1}
    lucknow = next(p for p in m["pages"] if p["key"] == "lucknow")
    assert [(x["lang"], x["not_drawn"]) for x in lucknow["maps"]] == [("en", 0), ("hi", 0)]
    assert "seconds" not in lucknow and "Generated by" in index and " s.</p>" not in index   # no run time: same bytes
    ran = nbformat.read(out / "lucknow.ipynb", as_version=4)
    injected = [c for c in ran.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert len(injected) == 1 and 'division = "Lucknow"' in injected[0].source


# ============================================================================================ failure

def _failing_notebook(path: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell('body = "zp-chair"\nyear = 2021\ndivision = "all"\nbase_year = 2015\n'
                                       'options = []\nhistory = []\nunits = ""')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell('print("ran", division)'),
                nbformat.v4.new_code_cell('raise RuntimeError(f"boom in {division}")')]
    nbformat.write(nb, path)
    return path


def test_a_failing_notebook_fails_the_report_and_writes_no_index(main, tmp_path, capsys, monkeypatch):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "previous.txt").write_text("the last good report")
    (out / report.MARKER).write_text(json.dumps({"tool": "reservation-workbench report", "kind": "report",
                                                 "files": ["previous.txt"]}))
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    monkeypatch.setattr(report, "DIVISION_NOTEBOOK", _failing_notebook(tmp_path / "fails.ipynb"))
    code = main(["report", "--body", "zp-chair", "--year", "2021", "--division", "Lucknow", "--division", "Agra",
                 "--out", str(out), "--no-progress", "--no-state-page"])
    assert code == 1
    err = capsys.readouterr().err
    assert "reservation report: failed:" in err and "RuntimeError: boom in" in err and "no index written" in err
    # the previous report is untouched, and nothing claims success
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    failed = tmp_path / "rep.failed"
    assert failed.is_dir() and not (failed / "index.html").exists() and not (failed / "report.json").exists()
    kept = nbformat.read(next(failed.glob("*.ipynb")), as_version=4)
    assert any(o.get("ename") == "RuntimeError" for c in kept.cells for o in c.get("outputs", []))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fails.ipynb", "rep", "rep.failed"]   # no temp folder


def test_run_report_raises_report_failed(tmp_path):
    with pytest.raises(report.ReportFailed) as e:
        report.run_report("zp-chair", 2021, ["Jhansi"], out=tmp_path / "r", progress=False, state_page=False,
                          workers=1, notebook=_failing_notebook(tmp_path / "f.ipynb"))
    assert e.value.failures[0].key == "jhansi" and "boom in Jhansi" in e.value.failures[0].error
    assert e.value.kept == (tmp_path / "r.failed").resolve() and not (tmp_path / "r").exists()


# ============================================================================================ notebooks

@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_committed_notebooks_are_clean(path):
    """Kernel python3, one parameters cell, no outputs except nbval's reference in NBVAL_CHECK_OUTPUT cells,
    the workbench's deterministic plotly renderer, and every number through reservation (no arithmetic on tables
    here)."""
    nb = nbformat.read(path, as_version=4)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1 and tagged[0].cell_type == "code"
    code = [c for c in nb.cells if c.cell_type == "code"]
    for c in code:
        if "# NBVAL_CHECK_OUTPUT" in c.source:
            assert "report-skip" in c.metadata.get("tags", [])
        assert c.outputs == [] and c.execution_count is None, c.source     # references live in fixtures
    source = "\n".join(c.source for c in code)
    assert "pio.renderers.default = views.figure_renderer()" in source     # figures kept by an export
    assert "from reservation import views" in source
    assert not re.search(r"\.(sum|mean|groupby|crosstab|value_counts)\(", source)
    assert "exec(" not in source and "eval(" not in source
    assert tools.strip_outputs(path) is False                     # already stripped


def test_strip_outputs_strips_every_cell(tmp_path):
    nb = nbformat.v4.new_notebook()
    a = nbformat.v4.new_code_cell("1 + 1")
    a.outputs = [nbformat.v4.new_output("execute_result", data={"text/plain": "2"}, execution_count=1)]
    a.execution_count = 1
    b = nbformat.v4.new_code_cell("# NBVAL_CHECK_OUTPUT\nprint(2)")
    b.outputs = [nbformat.v4.new_output("stream", name="stdout", text="2\n")]
    b.execution_count = 2
    nb.cells = [a, b]
    nbformat.write(nb, tmp_path / "x.ipynb")
    assert tools.strip_outputs(tmp_path / "x.ipynb") is True
    got = nbformat.read(tmp_path / "x.ipynb", as_version=4)
    assert got.cells[0].outputs == [] and got.cells[0].execution_count is None
    assert got.cells[1].outputs == [] and got.cells[1].execution_count is None


def test_fresh_kernels_give_the_same_report_quietly(tmp_path):
    """``--fresh-kernels``: a new kernel per notebook, started, logged and stopped quietly (its stderr went to the
    terminal once: "[IPKernelApp] WARNING ..."); the report is the default's (notebooks run in the workers) byte
    for byte."""
    import subprocess
    import sys
    outs = {}
    for name, extra in (("fresh", ["--fresh-kernels"]), ("worker", [])):
        r = subprocess.run([sys.executable, "-m", "reservation.cli", "report", "--body", "zp-chair", "--year", "2021",
                            "--division", "Jhansi", "--out", str(tmp_path / name), "--no-progress", *extra],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert "IPKernelApp" not in r.stderr and "Kernel" not in r.stderr, r.stderr
        outs[name] = {p.name: p.read_bytes() for p in (tmp_path / name).iterdir()}
    assert outs["fresh"] == outs["worker"] and len(outs["fresh"]) > 20
