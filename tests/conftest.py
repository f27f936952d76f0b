import os
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED = Path(os.environ.get("RESERVATION_SHARED", ROOT.parent / "shared"))
# The lists the project ships (copies of ../shared/data/published): tests read these, so a clone needs no ../shared.
PUBLISHED = ROOT / "data" / "published"
# The installed command of the environment running the tests (`make test`: .venv/bin/reservation).
INSTALLED = Path(sysconfig.get_path("scripts")) / "reservation"


@pytest.fixture
def toy():
    return FIXTURES / "toy"


@pytest.fixture(scope="session")
def shared_data():
    d = SHARED / "data"
    if not d.is_dir():
        pytest.skip(f"the shared data folder {d} is absent (set RESERVATION_SHARED to the shared/ folder)")
    return d


def shared_file(shared_data, *parts) -> Path:
    """A file of ../shared/data the project does not ship (the large tables: gram panchayat lists), or a skip
    saying which file is absent."""
    p = Path(shared_data, *parts)
    if not p.is_file():
        pytest.skip(f"{p} is absent (a large table the project does not ship; set RESERVATION_SHARED to the "
                    "shared/ folder)")
    return p


# ------------------------------------------------------------------------ helpers for tests/test_hostile_*.py

def run_cli(argv) -> tuple[int, str, str]:
    """``reservation.cli.commands.main(argv)`` in this process: (exit status, stdout, stderr); argparse's exits count."""
    import contextlib
    import io

    from reservation.cli.commands import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def snapshot(folder) -> dict:
    """Every file under ``folder``: relative path -> (size, mtime in ns, mode, SHA-256); folders too."""
    import hashlib
    folder = Path(folder)
    if not folder.exists():
        return {}
    out = {}
    for p in sorted(folder.rglob("*")):
        st = p.lstat()
        digest = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_symlink() else ""
        out[str(p.relative_to(folder))] = (st.st_size if digest else 0, st.st_mtime_ns, st.st_mode, digest)
    return out


def assert_refused(result, *, words=(), file=None, row=None, column=None, option=None, status=2) -> str:
    """A refusal: the exit status, nothing on stdout, exactly one line on stderr, no traceback, and the line
    names what it must (file, row, column, flag, words). Returns the line."""
    code, out, err = result
    assert code == status, (code, err)
    assert "Traceback" not in err and "Traceback" not in out, err
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0], err
    line = lines[0]
    if file is not None:
        assert str(file) in line, line
    if row is not None:
        assert f"row {row}" in line, line
    if column is not None:
        assert f"column {column!r}" in line, line
    if option is not None:
        assert option in line, line
    for w in words:
        assert w in line, line
    assert out == "", out
    return line


class OutFolder:
    """An output folder that holds a previous result and a file of the user's, to check that a refused run
    changes nothing in it."""

    def __init__(self, root: Path):
        self.dir = root / "out"
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "notes.txt").write_text("the user's own notes\n", encoding="utf-8")
        self.target = self.dir / "result.csv"
        self.target.write_text("unit_code,category\n1,UR\n", encoding="utf-8")
        (self.dir / "result.meta.json").write_text('{"software": "reservation-workbench 0.1.0"}\n', encoding="utf-8")
        self.before = snapshot(self.dir)

    def unchanged(self) -> bool:
        return snapshot(self.dir) == self.before


@pytest.fixture
def out_folder(tmp_path):
    return OutFolder(tmp_path)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Say at the end of the run which tests were skipped for want of Chromium (the browser tests), so that a
    skipped browser test is never silent."""
    found = []
    for rep in terminalreporter.stats.get("skipped", []):
        longrepr = rep.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        if "chromium" in reason.lower():
            found.append((rep.nodeid, reason.removeprefix("Skipped: ")))
    if found:
        terminalreporter.section("browser tests skipped: Chromium is not installed", sep="=", yellow=True,
                                 bold=True)
        for nodeid, reason in found:
            terminalreporter.line(f"SKIPPED {nodeid}: {reason}", yellow=True)
        terminalreporter.line(f"{len(found)} browser test(s) did not run; install Chromium "
                              "(apt-get install -y chromium) to run them.", yellow=True, bold=True)


# ------------------------------------------------------------- `make test` in two workers: what runs where, when

#: the key-table check of each notebook (tests/test_notebook_outputs.py), run after the notebook's own cells
KEY_TABLES = "tests/test_notebook_outputs.py::test_key_tables_match_their_reference["

#: Seconds of CPU each heavy file (or notebook, with its key-table check) took in `make test` (2026-12-02, the
#: worker's own and its child processes'; the browser test mostly waits for JupyterLab and Chromium, so it has its
#: time on the clock). Weights, not promises: they only decide which units start first, so that a long one does
#: not end the run alone in one worker. A file not named here weighs 0.1 s per test. notes/testspeed.md says how.
WEIGHTS = {
    "tests/test_audit_property.py": 90, "tests/test_notebooks_browser.py": 80, "tests/test_output_csv.py": 46,
    "tests/test_project.py": 46, "tests/test_one_law.py": 46, "tests/test_properties.py": 43,
    "tests/test_report_determinism.py": 40, "tests/test_views.py": 39, "tests/test_report_folder.py": 38,
    "tests/test_audit.py": 37, "tests/test_html_safety.py": 28, "tests/test_backtest.py": 22,
    "tests/test_report.py": 20, "notebooks/08_backtest_kp.ipynb": 20, "notebooks/07_projection.ipynb": 19,
    "tests/test_dpc_poll.py": 16, "tests/test_report_projection.py": 15, "tests/test_maps.py": 15,
    "notebooks/06_audit.ipynb": 15, "tests/test_hostile_out.py": 14, "tests/test_names.py": 14,
    "tests/test_tie_rule.py": 13, "tests/test_readings_kp.py": 12, "notebooks/02_division_report.ipynb": 12,
    "notebooks/04_explore.ipynb": 11, "tests/test_kp_history.py": 11, "tests/test_hostile_bounds.py": 11,
    "tests/test_dpc_count.py": 10, "tests/test_out_guard.py": 9, "tests/test_dpc_hostile.py": 9,
    "tests/test_hostile_csv.py": 8, "notebooks/03_rotation_history.ipynb": 7, "notebooks/01_state_counts.ipynb": 6,
    "notebooks/05_dpc.ipynb": 6, "tests/test_gp_history.py": 20, "tests/test_years.py": 8,
    "tests/test_rotation_record.py": 15,
}


def scope_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its file (a notebook's cells run in order in one kernel; a file's module
    fixtures are computed once), except that a notebook's key-table check goes with the notebook, whose execution
    it reads (:func:`executed_notebook`)."""
    if nodeid.startswith(KEY_TABLES):
        return f"notebooks/{nodeid[len(KEY_TABLES):-1]}.ipynb"
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """The heaviest units of work first (:data:`WEIGHTS`), each unit's tests together and in their order, a
    notebook's key-table check right after the notebook's cells. Every xdist worker orders its collection the same
    way, and the scheduler below hands the units out in this order."""
    units: dict[str, list] = {}
    for it in items:
        units.setdefault(scope_of(it.nodeid), []).append(it)
    for tests in units.values():                                   # a notebook's cells, then its key-table check
        tests.sort(key=lambda it: it.nodeid.startswith(KEY_TABLES))
    order = sorted(units, key=lambda u: -WEIGHTS.get(u, 0.1 * len(units[u])))
    items[:] = [it for u in order for it in units[u]]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`make test` (pytest-xdist, --dist loadfile): one unit of work (:func:`scope_of`) stays in one worker, and
    the units are handed out in the order of the collection (heaviest first), not by their number of tests."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class HeaviestFirst(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)
    config.option.loadscopereorder = False
    return HeaviestFirst(config, log)


# ----------------------------------------------------------------------------- each notebook is executed once
# nbval runs every cell of notebooks/*.ipynb (each cell a test: it must run without an error). The key-table check
# of tests/test_notebook_outputs.py compares the standard output of the cells marked # NBVAL_CHECK_OUTPUT with
# their reference; it reads that output from nbval's execution in this process when nbval ran every cell of the
# notebook and each passed, and otherwise (the notebook not collected, a cell deselected or failed, another
# worker) executes the notebook itself, as it always did. Either way its verdict is the same.

NOTEBOOK_STDOUT = pytest.StashKey[dict]()


def _is_nbval_cell(item) -> bool:
    return type(item).__module__.startswith("nbval.") and hasattr(item, "cell_num")


class NotebookStdout:
    """Keeps the standard output of each notebook cell that nbval runs, exactly as the kernel sent it (nbval keeps
    only a cleaned copy): the stream messages on the cell's own execution request. A plugin, not a hook of this
    file, because a conftest's hooks reach only the tests under its folder and the notebooks lie outside it."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        if not _is_nbval_cell(item):
            return (yield)
        parent = item.parent
        kernel = parent.kernel
        requests, messages, passed = [], [], False

        def execute(*args, **kw):
            requests.append(type(kernel).execute_cell_input(kernel, *args, **kw))
            return requests[-1]

        def message(*args, **kw):
            messages.append(type(parent).get_kernel_message(parent, *args, **kw))
            return messages[-1]

        kernel.execute_cell_input, parent.get_kernel_message = execute, message
        try:
            result = yield
            passed = True
            return result
        finally:
            del kernel.execute_cell_input, parent.get_kernel_message
            text = "".join(m["content"]["text"] for m in messages
                           if len(requests) == 1 and m["parent_header"].get("msg_id") == requests[0]
                           and m["msg_type"] == "stream" and m["content"].get("name") == "stdout")
            runs = item.config.stash.setdefault(NOTEBOOK_STDOUT, {})
            runs.setdefault(str(Path(item.path).resolve()), {})[item.cell_num] = (passed and len(requests) == 1, text)


def pytest_configure(config):
    if not config.pluginmanager.has_plugin("notebook-stdout"):
        config.pluginmanager.register(NotebookStdout(), "notebook-stdout")


@pytest.fixture
def executed_notebook(request):
    """``executed(path)``: the notebook as nbval executed it earlier in this process, each code cell holding its
    standard output, or None unless nbval ran every code cell of it here and each passed."""
    def executed(path):
        import nbformat
        ran = request.config.stash.get(NOTEBOOK_STDOUT, {}).get(str(Path(path).resolve()))
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        if not ran or sorted(ran) != list(range(len(code))) or not all(ok for ok, _ in ran.values()):
            return None
        for i, cell in enumerate(code):
            text = ran[i][1]
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)] if text else []
        return nb
    return executed


@pytest.fixture
def main():
    """``reservation.cli.commands.main`` (every sub-command registered), for tests that run the command in this process."""
    from reservation.cli.commands import main as run
    return run
