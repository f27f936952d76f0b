"""The report's notebooks run in the worker (reservation.report.inprocess) give what a Jupyter kernel gives, byte for
byte: the golden is a kernel's own output (``--fresh-kernels``), for the report's real notebooks and for a notebook
that makes every kind of output (printed text on both streams between displays, a wide table's text, Markdown, a
cell's value, a warning, a display updated by its id, a cleared output) and for a failing one."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from reservation import report

KINDS = '''
import sys
sys.path.insert(0, WARNER)
import warner
import pandas as pd
from IPython.display import Markdown, display, clear_output
print("one"); print("to stderr", file=sys.stderr); print("two")
display(Markdown(f"**{division}**"))
print("after the display")
wide = pd.DataFrame({f"a fairly long column name {i}": range(3) for i in range(12)})
display(wide)
warner.warn()
h = display(Markdown("first"), display_id="d")
h.update(Markdown("second"))
wide.head(2)
'''
CLEARED = 'print("gone"); __import__("IPython.display").display.clear_output(); print("kept")'
SAME_NAMESPACE = 'print("leaked" if "left_by_the_last" in dir() else "fresh namespace"); left_by_the_last = 1'


def _warner(folder: Path) -> str:
    """A module that warns from its own file (a warning from a cell names the kernel's temporary file of that cell,
    which differs from run to run)."""
    (folder / "warner.py").write_text("import warnings\n\n\ndef warn():\n    warnings.warn('a warning the "
                                      "notebook shows')\n")
    return str(folder)


def _notebook(path: Path, *cells: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell('body = "zp-chair"\nyear = 2021\ndivision = "all"\nbase_year = 2015\n'
                                       'options = []\nhistory = []\nunits = ""')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_markdown_cell("words"), nbformat.v4.new_code_cell("   "),
                *[nbformat.v4.new_code_cell(c) for c in cells]]
    nbformat.write(nb, path)
    return path


def _both(tmp_path, notebook=None, body="zp-chair", year=2021, divisions=("Jhansi", "Agra"), **kw):
    got = {}
    for name, fresh in (("worker", False), ("kernels", True)):
        out = tmp_path / name
        report.run_report(body, year, list(divisions), out=out, fmt="ipynb", progress=False, state_page=False,
                          workers=1, notebook=notebook, fresh_kernels=fresh, **kw)
        got[name] = {p.name: p.read_bytes() for p in out.iterdir() if p.suffix == ".ipynb"}
    return got


def test_every_kind_of_output_is_the_kernels(tmp_path):
    nb = _notebook(tmp_path / "kinds.ipynb", f"WARNER = {_warner(tmp_path)!r}\n" + KINDS, CLEARED, SAME_NAMESPACE)
    got = _both(tmp_path, nb)
    assert got["worker"] == got["kernels"] and len(got["worker"]) == 2
    cells = json.loads(got["worker"]["agra.ipynb"])["cells"]
    kinds = [o["output_type"] for o in cells[4]["outputs"]]
    assert kinds == ["stream", "stream", "display_data", "stream", "display_data", "stream", "display_data",
                     "execute_result"]
    assert "a warning the notebook shows" in "".join(cells[4]["outputs"][5]["text"])
    assert "second" in "".join(cells[4]["outputs"][6]["data"]["text/markdown"])
    assert [o.get("text") for o in cells[5]["outputs"]] == [["kept\n"]]
    # the second notebook of a worker starts afresh, as in a new kernel
    assert cells[6]["outputs"][0]["text"] == ["fresh namespace\n"]
    assert [c.get("execution_count") for c in cells] == [1, 2, None, None, 3, 4, 5]


def test_a_failing_cell_fails_the_report_as_in_a_kernel(tmp_path):
    nb = _notebook(tmp_path / "fails.ipynb", 'print("ran", division)', 'raise RuntimeError(f"boom in {division}")')
    errors = {}
    for name, fresh in (("worker", False), ("kernels", True)):
        with pytest.raises(report.ReportFailed) as e:
            report.run_report("zp-chair", 2021, ["Jhansi"], out=tmp_path / name, progress=False, state_page=False,
                              workers=1, notebook=nb, fresh_kernels=fresh)
        errors[name] = e.value.failures[0].error
        kept = nbformat.read(tmp_path / f"{name}.failed" / "jhansi.ipynb", as_version=4)
        err = [o for c in kept.cells for o in c.get("outputs", []) if o.output_type == "error"]
        assert [(o.ename, o.evalue) for o in err] == [("RuntimeError", "boom in Jhansi")]
    assert errors["worker"] == errors["kernels"] and "RuntimeError: boom in Jhansi" in errors["worker"]


@pytest.mark.parametrize("body,year,divisions,kw", [
    ("kp-chair", 2026, ("Jhansi", "Basti"), {"projection": True, "projection_samples": 40}),
    ("np-chair", 2023, ("Lucknow",), {}),
])
def test_the_report_notebooks_are_the_kernels(tmp_path, body, year, divisions, kw):
    """The division pages (and the projection page, whose samples warn of the missing 2021 history: a kernel
    shows that warning, and so does the worker) as a kernel writes them."""
    got = _both(tmp_path, None, body, year, divisions, **kw)
    assert got["worker"] == got["kernels"] and len(got["worker"]) == len(divisions) + (1 if kw else 0)


def test_a_cell_running_past_the_limit_fails_the_report(tmp_path):
    """The report's time limit per notebook stops a cell in the worker too (the worker's alarm): the report fails,
    naming the notebook and the error, after about the limit, not the cell's 30 s."""
    nb = _notebook(tmp_path / "slow.ipynb", 'import time\nif division == "Jhansi":\n    time.sleep(30)')
    import time
    start = time.monotonic()
    with pytest.raises(report.ReportFailed) as e:
        report.run_report("zp-chair", 2021, ["Jhansi", "Agra"], out=tmp_path / "r", progress=False,
                          state_page=False, workers=1, notebook=nb, timeout=2)
    failed = {f.key: f.error for f in e.value.failures}
    assert list(failed) == ["jhansi"] and "TimeoutError" in failed["jhansi"], failed
    assert time.monotonic() - start < 25
