"""Same inputs, same bytes, for every file of a report (issue 18, "Pages that differ run to run").

Two runs of the same report used to differ in their HTML pages and executed notebooks: pandas Styler's random
uuid (``T_xxxxx`` ids and CSS selectors), a Styler's text form ``<pandas.io.formats.style.Styler at 0x7f...>``,
papermill's random id for the injected parameters cell, and papermill's paths (the random temporary folder).
One pair of real reports (one division, the State counts page, the projection page with few samples) is compared
file by file; the pieces are also checked alone, quickly, including that the comparison reports what differs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from conftest import ROOT

from reservation import report, views
from reservation.report.worker import INJECTED_ID, settle_papermill
from reservation.views.styled import StyledTable, content_uuid

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]{4,}")


def first_difference(a: Path, b: Path) -> str | None:
    """None when folders ``a`` and ``b`` hold the same file names with the same bytes; otherwise which file (the
    first in name order) differs, and where: its first differing byte with some context on each side."""
    names_a = sorted(p.name for p in a.iterdir())
    names_b = sorted(p.name for p in b.iterdir())
    if names_a != names_b:
        return f"the file names differ: only in {a.name}: {sorted(set(names_a) - set(names_b))}; only in " \
               f"{b.name}: {sorted(set(names_b) - set(names_a))}"
    for name in names_a:
        x, y = (a / name).read_bytes(), (b / name).read_bytes()
        if x != y:
            i = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
            return (f"{name} differs at byte {i} of {len(x)}/{len(y)}: {x[max(0, i - 80):i + 80]!r} vs "
                    f"{y[max(0, i - 80):i + 80]!r}")
    return None


def test_first_difference_reports_the_first_differing_file(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        d.mkdir()
        (d / "same.txt").write_text("same")
    assert first_difference(a, b) is None
    (a / "page.html").write_text('<table id="T_0a1b2_row0">')
    (b / "page.html").write_text('<table id="T_9f8e7_row0">')
    (a / "z.ipynb").write_text("1")
    (b / "z.ipynb").write_text("2")
    said = first_difference(a, b)
    assert said.startswith("page.html differs at byte 13 of 25/25") and "T_0a1b2" in said and "T_9f8e7" in said
    (b / "extra.csv").write_text("")
    assert "only in b: ['extra.csv']" in first_difference(a, b)


# ============================================================================================ the pieces

UNITS = pd.DataFrame({"Unit": ["Lucknow", "<b>Unnao</b>", "सीतापुर"], "Category": ["SC_W", "UR", "OBC"],
                      "Category code": ["SC_W", "UR", "OBC"], "Posts": [1, 2, 3]})

STYLE_IN_A_NEW_PROCESS = """
import pandas as pd
from reservation import views
df = pd.DataFrame({"Unit": ["Lucknow", "<b>Unnao</b>", "सीतापुर"], "Category": ["SC_W", "UR", "OBC"],
                   "Category code": ["SC_W", "UR", "OBC"], "Posts": [1, 2, 3]})
print(views.style_categories(df).to_html())
"""


def test_a_styled_table_has_the_same_bytes_in_every_process():
    """The uuid comes from the content (not pandas' uuid4): two processes with different hash seeds, and this
    one, draw the same table to the same bytes."""
    here = views.style_categories(UNITS).to_html()
    runs = [subprocess.run([sys.executable, "-c", STYLE_IN_A_NEW_PROCESS], capture_output=True, text=True,
                           timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed},
                           encoding="utf-8").stdout for seed in ("1", "2")]
    assert runs[0] == runs[1] == here + "\n"
    uuid = content_uuid(UNITS, "style_categories", "en", False)
    assert f'id="T_{uuid}"' in here and f"#T_{uuid}_row0_col1" in here     # the painted category cell
    assert "&lt;b&gt;Unnao&lt;/b&gt;" in here                              # still escaped


def test_the_uuid_follows_the_content_and_the_styling():
    base = views.html_table(UNITS).uuid
    assert base == views.html_table(UNITS.copy()).uuid
    other = UNITS.assign(Posts=[1, 2, 4])
    assert len({base, views.html_table(other).uuid, views.html_table(UNITS, index=True).uuid,
                views.style_categories(UNITS).uuid, views.style_categories(UNITS, "hi").uuid}) == 5
    assert content_uuid(UNITS) != content_uuid(UNITS.astype({"Posts": float}))      # the types count too


def test_a_styled_table_says_what_it_holds_without_a_memory_address():
    from IPython.core.interactiveshell import InteractiveShell
    from reservation.auditing import views as av
    shell = InteractiveShell.instance()
    for st in (views.html_table(UNITS), views.style_categories(UNITS),
               av.style_findings(pd.DataFrame({"unit_name_en": ["x"], "finding": ["match"]}))):
        assert isinstance(st, StyledTable)
        data, _ = shell.display_formatter.format(st)
        assert not ADDRESS.search(data["text/plain"]) and "text/html" in data
    assert repr(views.html_table(UNITS)) == "<table: 3 rows x 4 columns (Unit, Category, Category code, Posts)>"


def _papermilled(source: Path, params: dict) -> dict:
    """What papermill writes before it runs a notebook, as :func:`papermill.execute_notebook` makes it (its
    loading, parameterisation and metadata: the injected cell's random id, random ids for a notebook older than
    format 4.5, the paths), without a kernel; with clock times as a run leaves them."""
    from papermill.execute import prepare_notebook_metadata
    from papermill.iorw import load_notebook_node
    from papermill.parameterize import parameterize_notebook
    nb = parameterize_notebook(load_notebook_node(str(source)), params, kernel_name="python3", language="python")
    nb = prepare_notebook_metadata(nb, "/somewhere/installed/02_division_report.ipynb",
                                   "/tmp/.r.tmp-abc123/lucknow.ipynb")
    nb.metadata.papermill.update(start_time="2026-01-01T00:00:00", end_time="2026-01-01T00:00:01", duration=1.0)
    return json.loads(json.dumps(nb))


@pytest.mark.parametrize("minor", [5, 4])
def test_settle_papermill_gives_the_same_notebook_on_every_run(tmp_path, minor):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell("division = 'all'")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell("# A page"), params, nbformat.v4.new_code_cell("print(division)")]
    for i, c in enumerate(nb.cells):
        c.id = ["injected-parameters", "cell-1", "kept"][i]       # ids that a settled id must not take
        c.metadata.setdefault("tags", [])
    raw = json.loads(nbformat.writes(nb))
    if minor == 4:
        raw["nbformat_minor"] = 4
        for c in raw["cells"]:
            del c["id"]
    source = tmp_path / "source.ipynb"
    source.write_text(json.dumps(raw), encoding="utf-8")
    runs = [_papermilled(source, {"division": "Lucknow"}) for _ in range(2)]
    assert runs[0] != runs[1]                                      # papermill's own ids and clocks differ
    for r in runs:
        settle_papermill(r, source)
    assert runs[0] == runs[1]
    nb = runs[0]
    ids = [c["id"] for c in nb["cells"]]
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"[A-Za-z0-9_-]{1,64}", i) for i in ids)
    injected = next(c for c in nb["cells"] if "injected-parameters" in c["metadata"]["tags"])
    if minor == 5:
        assert ids == ["injected-parameters", "cell-1", f"{INJECTED_ID}-2", "kept"]    # the source's ids kept
    else:
        assert ids == ["cell-0", "cell-1", INJECTED_ID, "cell-3"] and injected["id"] == INJECTED_ID
    pm = nb["metadata"]["papermill"]
    assert pm["input_path"] == "02_division_report.ipynb" and pm["output_path"] == "lucknow.ipynb"
    assert pm["start_time"] is None and pm["end_time"] is None and pm["duration"] is None
    assert pm["parameters"] == {"division": "Lucknow"}
    nbformat.validate(nbformat.from_dict(nb))


def test_a_printed_table_sent_in_two_chunks_is_written_as_one():
    """Seen in a kp-chair report on a busy machine: the kernel sent a printed table as two stream outputs (the
    last newline alone in the second), another run as one; the settled notebooks must not differ."""
    table = "Unit  Posts\nA         1\nTotal     1\n"
    one = {"cells": [{"cell_type": "code", "id": "c", "metadata": {}, "source": "print(t)", "execution_count": 1,
                      "outputs": [{"output_type": "stream", "name": "stdout",
                                   "text": table.splitlines(keepends=True)}]}], "metadata": {}}
    two = json.loads(json.dumps(one))
    two["cells"][0]["outputs"] = [
        {"output_type": "stream", "name": "stdout", "text": ["Unit  Posts\n", "A         1\n", "Total     1"]},
        {"output_type": "stream", "name": "stdout", "text": ["\n"]},
        {"output_type": "stream", "name": "stderr", "text": ["a warning\n"]},
        {"output_type": "stream", "name": "stdout", "text": ["after\n"]}]
    settle_papermill(one, None)
    settle_papermill(two, None)
    assert two["cells"][0]["outputs"][0] == one["cells"][0]["outputs"][0]
    assert [o["name"] for o in two["cells"][0]["outputs"]] == ["stdout", "stderr", "stdout"]     # order kept
    assert two["cells"][0]["outputs"][2]["text"] == ["after\n"]


def test_the_embedded_font_has_the_same_bytes_a_second_later():
    """The Devanagari font cut for inline pages (``--plotlyjs inline``) and the index's style sheet: fontTools
    stamped the current time into the font's ``head`` table, so two runs differed."""
    import time

    from reservation.report import pages
    if not pages._font_file():
        pytest.skip("the font package fontpkg-noto-sans-devanagari is not installed")
    pages._font_css.cache_clear()
    first = pages._font_css()
    time.sleep(1.1)                           # the head table's times are whole seconds
    pages._font_css.cache_clear()
    assert first and pages._font_css() == first


# ============================================================================================ one real pair

def test_two_runs_of_the_same_report_give_byte_identical_files(tmp_path):
    """One division, the State counts page and the projection page (20 samples), twice into two folders: every
    file the same, byte for byte (pages, notebooks, maps, tables, index, manifest, marker). Pages standing alone
    (``inline``): besides what every page holds, the font cut in the parent and the static map inside the page
    (``directory`` pages only link files copied unchanged)."""
    outs = [tmp_path / "first", tmp_path / "second"]
    for out in outs:
        report.run_report("zp-chair", 2021, ["Lucknow"], out=out, progress=False, projection=True,
                          projection_samples=20, seed=0, plotlyjs="inline")
    names = {p.name for p in outs[0].iterdir()}
    assert {"lucknow.html", "lucknow.ipynb", "state-counts.html", "state-counts.ipynb", "projection.html",
            "projection.ipynb", "index.html", "report.json", report.MARKER} <= names
    assert first_difference(*outs) is None, first_difference(*outs)
    for name in sorted(names):
        if name.endswith((".html", ".ipynb")):
            text = (outs[0] / name).read_text(encoding="utf-8")
            assert not ADDRESS.search(text), (name, ADDRESS.search(text))
            assert not re.search(r"T_[0-9a-f]{5}[_\"' ]", text), name          # no pandas random uuid
            assert str(outs[0]) not in text and ".tmp-" not in text, name     # no path of the run
