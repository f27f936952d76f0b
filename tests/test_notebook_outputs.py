"""The key tables of the notebooks (cells marked # NBVAL_CHECK_OUTPUT) against their stored references.

Notebooks are committed without outputs (house rule), so nbval alone only proves that every cell runs; this
test runs each notebook with its default parameters and compares the marked cells' output with
tests/fixtures/notebook_outputs/NAME.json. After a deliberate change: python tests/tools.py refresh NB.
"""
import json
from pathlib import Path

import pytest

import tools

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_key_tables_match_their_reference(nb):
    ref = json.loads((tools.CHECKED_OUTPUTS / f"{nb.stem}.json").read_text(encoding="utf-8"))
    assert ref and all(r["stdout"].strip() for r in ref)        # a reference that checks something
    assert tools.checked_stdout(tools.run_default(nb)) == ref


def test_notebooks_are_committed_without_outputs():
    import nbformat
    for nb in NOTEBOOKS:
        cells = nbformat.read(nb, as_version=4).cells
        assert all(c.outputs == [] and c.execution_count is None for c in cells if c.cell_type == "code"), nb
