import os
import signal
import sysconfig
from pathlib import Path

import pytest

# A run started in the background by a script without job control (`make test &` in a shell script, a CI step
# run that way) inherits SIGINT ignored, and every command a test starts would ignore Ctrl-C too: the tests that
# interrupt a command (exit 130, nothing left behind) need what a terminal gives, so this process (each worker
# imports this file) takes Python's own handler back, and the commands it starts get the default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

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

def script_module(path: Path):
    """A script of the repository (``benchmarks/``, ``docs/``) loaded as a module, for the tests of its figures."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


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

#: Seconds each heavy file (or notebook, with its key-table check) takes in `make test`: the clock of each unit in
#: a whole run of 2026-12-06 (main 4bc612c, notes/testspeed2.md) divided by 4.6, that run's clock over the 6 min 36 s
#: of an idle machine (the run shared two cores with other work), so that what a unit waits for (kernels, report
#: workers, subprocesses) counts too; test_report_folder keeps its former weight (two of its tests timed out under
#: that load). Weights, not promises: they only decide which units start first, so that a long one does not end
#: the run alone in one worker. A file not named here weighs 0.1 s per test. The browser test, run beside the
#: workers (below), is ordered last there; its weight (71 s on the clock of an idle machine) counts only when it
#: runs in a worker.
WEIGHTS = {
    "tests/test_views.py": 49, "tests/test_project.py": 45, "tests/test_output_csv.py": 41,
    "tests/test_backtest.py": 40, "tests/test_audit_property.py": 40, "tests/test_report_folder.py": 38,
    "tests/test_one_law.py": 38, "tests/test_properties.py": 37, "tests/test_html_safety.py": 28,
    "tests/test_audit.py": 28, "tests/test_report_determinism.py": 27, "tests/test_maps.py": 20,
    "tests/test_gp_history.py": 20, "tests/test_dpc_poll.py": 19, "tests/test_notebooks_browser.py": 71,
    "tests/test_names.py": 18, "tests/test_report.py": 17, "tests/test_hostile_out.py": 17,
    "tests/test_hostile_bounds.py": 11, "tests/test_kp_history.py": 10, "tests/test_dpc_count.py": 10,
    "notebooks/07_projection.ipynb": 8, "notebooks/06_audit.ipynb": 8, "tests/test_tie_rule.py": 7,
    "notebooks/08_backtest_kp.ipynb": 7, "tests/test_readings_kp.py": 7, "tests/test_out_guard.py": 6,
    "tests/test_panchayat_units.py": 6, "tests/test_report_projection.py": 6, "notebooks/04_explore.ipynb": 6,
    "tests/test_dpc_hostile.py": 5, "tests/test_hostile_history.py": 5, "tests/test_hostile_pins.py": 5,
    "tests/test_dpc_seats.py": 5, "tests/test_hostile_csv.py": 5, "tests/test_hostile_population.py": 5,
    "tests/test_kp_chair.py": 4, "notebooks/02_division_report.ipynb": 4,
    # files added after that run (2026-12-06), by their CPU measured alone on a loaded machine, scaled the same way
    "tests/test_rotation_record.py": 15, "tests/test_gp_figures_trust.py": 8, "tests/test_gp_units.py": 20,
    "tests/test_design.py": 15, "tests/test_newsroom.py": 15, "tests/test_verdicts.py": 10,
    "tests/test_maps_status.py": 10, "tests/test_notebook_export.py": 10, "tests/test_teaching.py": 20,
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
    aside = BROWSER_ASIDE in getattr(config, "workerinput", {})     # run beside the workers: its result, last
    order = sorted(units, key=lambda u: 1 if aside and u == BROWSER_FILE else -WEIGHTS.get(u, 0.1 * len(units[u])))
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
    if os.environ.get(BROWSER_RESULT) and not config.pluginmanager.has_plugin("browser-verdicts"):
        config.pluginmanager.register(BrowserVerdicts(os.environ[BROWSER_RESULT]), "browser-verdicts")
    elif (not hasattr(config, "workerinput") and config.pluginmanager.has_plugin("xdist")
          and getattr(config.option, "numprocesses", None) and config.getoption("dist", "no") != "no"
          and not config.pluginmanager.has_plugin("browser-aside") and _runs_browser_file(config)):
        config.pluginmanager.register(BrowserAside(config), "browser-aside")


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


# ------------------------------------------------------- the browser test in its own process, beside the workers
# tests/test_notebooks_browser.py mostly waits (JupyterLab starting, headless Chromium drawing, the kernel): in a
# worker it held that worker's core idle for about a minute. When `make test` runs in xdist workers and the run
# includes that file, the controller starts it at once in its own pytest process (the same test, the same code and
# assertions, in its own interpreter), so its waits overlap the workers' work; the file's tests in the workers are
# ordered last and each reports what that process found: passed, skipped with its reason, or failed with that
# process's report. Without workers (`make test WORKERS=0`, one file run alone) it runs in the worker as always.

BROWSER_FILE = "tests/test_notebooks_browser.py"
BROWSER_ASIDE = "reservation_browser_aside"          # workerinput key: the folder of the process's result
BROWSER_RESULT = "RESERVATION_BROWSER_RESULT"         # env of that process: where it writes its verdicts
BROWSER_WAIT = 1800                                   # seconds; the test's own waits are bounded well below


def _runs_browser_file(config) -> bool:
    """Whether this run's arguments take in the browser test file (a folder holding it, the file, a test of it),
    with nothing that selects tests otherwise (-k, -m, --deselect, --lf, --co): a worker that does not collect it
    anyway leaves the process's result unread, which costs time, never a verdict."""
    target = (ROOT / BROWSER_FILE).resolve()
    if not target.is_file() or config.option.collectonly or config.option.keyword or config.option.markexpr:
        return False
    if getattr(config.option, "deselect", None) or getattr(config.option, "lf", False):
        return False
    for arg in config.args:
        p = Path(str(arg).split("::", 1)[0])
        p = (p if p.is_absolute() else Path(config.invocation_params.dir) / p).resolve()
        if p == target or (p.is_dir() and p in target.parents):
            return True
    return False


class BrowserAside:
    """In the xdist controller: starts the browser test file in its own pytest process, reaps it, tells every
    worker where its result will be, and stops it (SIGINT: its ``finally`` stops JupyterLab and Chromium) if the
    run ends first."""

    def __init__(self, config):
        import subprocess
        import sys
        import tempfile
        import threading
        self.dir = Path(tempfile.mkdtemp(prefix="reservation-browser-"))
        self.log = open(self.dir / "output.txt", "wb")  # noqa: SIM115
        env = {**os.environ, BROWSER_RESULT: str(self.dir / "result.json")}
        env.pop("PYTEST_XDIST_WORKER", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA",
                                      BROWSER_FILE], cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)

        def reap():
            code = self.proc.wait()
            (self.dir / "exit.tmp").write_text(str(code))
            (self.dir / "exit.tmp").replace(self.dir / "exit")
        threading.Thread(target=reap, daemon=True).start()

    def pytest_configure_node(self, node):
        node.workerinput[BROWSER_ASIDE] = str(self.dir)

    def pytest_unconfigure(self, config):
        import signal
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGINT)
                self.proc.wait(30)
            except (ProcessLookupError, OSError):
                pass
            except Exception:  # noqa: BLE001  (still running after 30 s)
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()
        import shutil
        shutil.rmtree(self.dir, ignore_errors=True)


class BrowserVerdicts:
    """In the browser test's own process: each test's verdict (outcome, the report's text, a skip's reason),
    written atomically at the end of its run."""

    def __init__(self, path: str):
        self.path, self.verdicts = Path(path), {}

    def pytest_runtest_logreport(self, report):
        seen = self.verdicts.get(report.nodeid)
        if report.failed or seen is None or (report.skipped and seen["outcome"] == "passed"):
            reason = report.longrepr[2] if report.skipped and isinstance(report.longrepr, tuple) else ""
            self.verdicts[report.nodeid] = {"outcome": report.outcome, "when": report.when,
                                            "text": report.longreprtext, "reason": reason}

    def pytest_sessionfinish(self, session):
        import json
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.verdicts), encoding="utf-8")
        tmp.replace(self.path)


def browser_aside_of(item):
    """The folder of the browser test's own process when this item is one of its tests run in a worker, else None."""
    aside = getattr(item.config, "workerinput", {}).get(BROWSER_ASIDE)
    return Path(aside) if aside and item.nodeid.startswith(BROWSER_FILE + "::") else None


def pytest_pyfunc_call(pyfuncitem):
    """A browser test in a worker: the verdict of its own process (waiting for it), not a second run."""
    aside = browser_aside_of(pyfuncitem)
    if aside is None:
        return None
    import json
    import time
    deadline = time.monotonic() + BROWSER_WAIT
    while not (aside / "exit").is_file() and time.monotonic() < deadline:
        time.sleep(0.2)
    output = (aside / "output.txt").read_text(errors="replace")[-6000:] if (aside / "output.txt").is_file() else ""
    verdicts = json.loads((aside / "result.json").read_text()) if (aside / "result.json").is_file() else {}
    got = verdicts.get(pyfuncitem.nodeid)
    if got is None:
        state = "did not finish" if not (aside / "exit").is_file() else f"exited {(aside / 'exit').read_text()}"
        pytest.fail(f"{pyfuncitem.nodeid} ran in its own process beside the workers, which {state} without a "
                    f"verdict for it; its output:\n{output}", pytrace=False)
    if got["outcome"] == "skipped":
        pytest.skip(got["reason"].removeprefix("Skipped: ") or got["text"])
    if got["outcome"] == "failed":
        pytest.fail(f"{pyfuncitem.nodeid} failed (at {got['when']}) in its own process beside the workers:\n"
                    f"{got['text']}", pytrace=False)
    return True
