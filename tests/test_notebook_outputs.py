"""The key tables of the notebooks (cells marked # NBVAL_CHECK_OUTPUT) against their stored references.

Notebooks are committed without outputs (house rule), so nbval alone only proves that every cell runs; this
test compares the marked cells' output of each notebook, run with its default parameters, with
tests/fixtures/notebook_outputs/NAME.json. Each notebook is executed once: `make test` runs this check right after
nbval has run the notebook's cells in the same worker and reads their output (tests/conftest.py,
`executed_notebook`); run alone, or when nbval did not run every cell of it here, it executes the notebook itself
(papermill). After a deliberate change: python tests/tools.py refresh NB.
"""
import json
from pathlib import Path

import pytest

import tools

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_key_tables_match_their_reference(nb, executed_notebook):
    ref = json.loads((tools.CHECKED_OUTPUTS / f"{nb.stem}.json").read_text(encoding="utf-8"))
    assert ref and all(r["stdout"].strip() for r in ref)        # a reference that checks something
    assert tools.checked_stdout(executed_notebook(nb) or tools.run_default(nb)) == ref


def test_notebooks_are_committed_without_outputs():
    import nbformat
    for nb in NOTEBOOKS:
        cells = nbformat.read(nb, as_version=4).cells
        assert all(c.outputs == [] and c.execution_count is None for c in cells if c.cell_type == "code"), nb
