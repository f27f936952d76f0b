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


#: tests that each run a whole notebook (papermill) and share nothing with the rest of their file
NOTEBOOK_RUNS = "tests/test_notebook_outputs.py::test_key_tables_match_their_reference["


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`make test` (pytest-xdist, --dist loadfile): one file's tests stay in one worker (its module fixtures are
    computed once; nbval runs a notebook's cells in order in one kernel), except the notebook runs of
    tests/test_notebook_outputs.py, each its own unit of work, so that the eight notebooks are shared between the
    workers instead of queueing in one."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class NotebooksApart(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return nodeid if nodeid.startswith(NOTEBOOK_RUNS) else super()._split_scope(nodeid)
    return NotebooksApart(config, log)


@pytest.fixture
def main():
    """``reservation.cli.commands.main`` (every sub-command registered), for tests that run the command in this process."""
    from reservation.cli.commands import main as run
    return run
