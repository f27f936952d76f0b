"""Maintainer tools for the notebooks (not part of the package): strip outputs, and store the reference output of
the cells marked ``# NBVAL_CHECK_OUTPUT`` after a deliberate change of a checked table.

    .venv/bin/python tests/tools.py strip notebooks/*.ipynb
    .venv/bin/python tests/tools.py refresh notebooks/02_division_report.ipynb

Notebooks are committed without outputs; tests/test_notebook_outputs.py runs each notebook with its default
parameters and compares the marked cells with tests/fixtures/notebook_outputs/NAME.json.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

#: Where the reference output of every ``# NBVAL_CHECK_OUTPUT`` cell is kept.
CHECKED_OUTPUTS = Path(__file__).resolve().parent / "fixtures" / "notebook_outputs"
KERNEL = "python3"


def strip_outputs(path) -> bool:
    """Strip every output and execution count of a notebook. Returns whether the file changed."""
    import nbformat
    path = Path(path)
    before = path.read_text(encoding="utf-8")
    nb = nbformat.reads(before, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.outputs = []
        cell.execution_count = None
        cell.metadata.pop("execution", None)
        cell.metadata.pop("papermill", None)
    for k in ("papermill", "widgets"):
        nb.metadata.pop(k, None)
    after = nbformat.writes(nb) + "\n"
    if after != before:
        path.write_text(after, encoding="utf-8")
        return True
    return False


def checked_stdout(notebook) -> list[dict]:
    """The standard output of every ``# NBVAL_CHECK_OUTPUT`` cell of an executed notebook:
    ``[{"cell": index, "stdout": text}, ...]`` (the injected-parameters cell is not counted)."""
    import nbformat
    nb = notebook if not isinstance(notebook, (str, Path)) else nbformat.read(notebook, as_version=4)
    cells = [c for c in nb.cells if "injected-parameters" not in c.get("metadata", {}).get("tags", [])]
    out = []
    for i, c in enumerate(cells):
        if c.cell_type == "code" and "# NBVAL_CHECK_OUTPUT" in c.source:
            text = "".join(o.get("text", "") for o in c.get("outputs", [])
                           if o.get("output_type") == "stream" and o.get("name") == "stdout")
            out.append({"cell": i, "stdout": text})
    return out


def run_default(path, timeout: int = 600, parameters: dict | None = None):
    """Run a notebook with its default parameters (or ``parameters``) and return the executed notebook."""
    import nbformat
    import papermill as pm
    path = Path(path)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / path.name
        pm.execute_notebook(str(path), str(out), kernel_name=KERNEL, progress_bar=False, cwd=str(path.parent),
                            execution_timeout=timeout, parameters=parameters or {})
        return nbformat.read(out, as_version=4)


def refresh_checked_outputs(path, timeout: int = 600) -> Path:
    """Run a notebook (default parameters) and store the output of its ``# NBVAL_CHECK_OUTPUT`` cells as the
    reference in :data:`CHECKED_OUTPUTS`; the notebook itself is stripped."""
    path = Path(path)
    ref = CHECKED_OUTPUTS / f"{path.stem}.json"
    ref.parent.mkdir(parents=True, exist_ok=True)
    ref.write_text(json.dumps(checked_stdout(run_default(path, timeout)), ensure_ascii=False, indent=1) + "\n",
                   encoding="utf-8")
    strip_outputs(path)
    return ref


def main(argv=None) -> int:
    """``python tests/tools.py strip|refresh NOTEBOOK ...``"""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or args[0] not in ("strip", "refresh"):
        print("usage: python tests/tools.py strip|refresh NOTEBOOK ...", file=sys.stderr)
        return 2
    for nb in args[1:]:
        if args[0] == "strip":
            print(f"{nb}: {'stripped' if strip_outputs(nb) else 'already clean'}")
        else:
            refresh_checked_outputs(nb)
            print(f"{nb}: checked outputs refreshed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
