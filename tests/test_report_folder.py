"""``reservation report --out DIR`` never deletes what it did not write (issue 9).

A report lists its files in a marker; it may replace only a previous report of its own, removing only the files
that report listed; a folder holding anything else is refused (exit 2, one line, nothing changed). Interrupted runs
(Ctrl-C, a failing notebook) leave no temporary folder, worker or kernel behind; Ctrl-C exits 130 with one line.
Folders and files get the mode the umask gives. A small notebook stands in for the division notebook (the folder
logic does not depend on it), so that each report takes seconds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from reservation import report
from reservation.base.errors import InputError
from reservation.report import folder

MARK = report.MARKER


def _notebook(path: Path, body: str = 'print("ran", division)') -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell('body = "zp-chair"\nyear = 2021\ndivision = "all"\nbase_year = 2015\n'
                                       'options = []\nhistory = []\nunits = ""')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(body)]
    nbformat.write(nb, path)
    return path


def _report(out, tmp_path, division="Lucknow", **kw):
    return report.run_report("zp-chair", 2021, [division], out=out, fmt="ipynb", progress=False, state_page=False,
                             workers=1, notebook=_notebook(tmp_path / "small.ipynb"), **kw)


def _snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("content", [{"notes.txt": b"mine"}, {"sub/keep.csv": b"a,b\n"}, {".hidden": b""}])
def test_a_folder_holding_other_files_is_refused_and_left_intact(tmp_path, content):
    out = tmp_path / "out"
    for name, data in content.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    before = _snapshot(tmp_path)
    with pytest.raises(InputError) as e:
        _report(out, tmp_path)
    assert e.value.option == "--out" and "never deletes what it did not write" in str(e.value)
    assert _snapshot(tmp_path) == {**before, "small.ipynb": (tmp_path / "small.ipynb").read_bytes()}


def test_the_command_refuses_with_one_line_and_exit_2(tmp_path):
    """Also ``--out .`` in a folder holding the user's files: the case that used to delete them all."""
    (tmp_path / "precious.csv").write_text("unit,category\n1,SC\n")
    before = _snapshot(tmp_path)
    r = subprocess.run([sys.executable, "-m", "reservation.cli", "report", "--body", "zp-chair", "--year", "2021",
                        "--division", "Lucknow", "--out", ".", "--no-progress"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "holds no report of this tool" in r.stderr
    assert _snapshot(tmp_path) == before


def test_a_second_report_replaces_the_first_and_nothing_else(tmp_path):
    out = tmp_path / "out"
    first = _report(out, tmp_path, "Lucknow")
    names1 = {p.name for p in out.iterdir()}
    assert {"lucknow.ipynb", "lucknow-map-en.png", "index.html", "report.json", MARK} <= names1
    assert set(json.loads((out / MARK).read_text())["files"]) == names1 - {MARK}
    assert first.out == out.absolute()
    # the user adds a file: the folder is no longer only a report, so it is refused
    (out / "my-notes.txt").write_text("keep me")
    with pytest.raises(InputError, match="did not write"):
        _report(out, tmp_path, "Agra")
    assert (out / "my-notes.txt").read_text() == "keep me" and (out / "lucknow.ipynb").is_file()
    (out / "my-notes.txt").unlink()
    _report(out, tmp_path, "Agra")
    names2 = {p.name for p in out.iterdir()}
    assert "agra.ipynb" in names2 and not [n for n in names2 if n.startswith("lucknow")]
    assert set(json.loads((out / MARK).read_text())["files"]) == names2 - {MARK}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "small.ipynb"]      # no temp folder


def test_an_empty_folder_is_used_and_a_marker_from_elsewhere_is_not_trusted(tmp_path):
    out = tmp_path / "empty"
    out.mkdir()
    _report(out, tmp_path)
    assert (out / "lucknow.ipynb").is_file()
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "data.csv").write_text("x")
    (fake / MARK).write_text(json.dumps({"tool": "something else", "files": ["data.csv"]}))
    with pytest.raises(InputError):
        _report(fake, tmp_path)
    (fake / MARK).write_text(json.dumps({"tool": "reservation-workbench report", "files": ["../data.csv"]}))
    with pytest.raises(InputError):
        _report(fake, tmp_path)
    assert (fake / "data.csv").read_text() == "x"


def test_folders_and_files_get_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        out = tmp_path / "deep" / "out"
        _report(out, tmp_path)
    finally:
        os.umask(old)
    assert (out.stat().st_mode & 0o777) == 0o750
    modes = {p.name: p.stat().st_mode & 0o777 for p in out.iterdir()}
    assert set(modes.values()) == {0o640}, modes


def test_a_failed_report_keeps_its_notebooks_without_touching_a_foreign_failed_folder(tmp_path):
    out = tmp_path / "r"
    foreign = tmp_path / "r.failed"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("not the tool's")
    nb = _notebook(tmp_path / "fails.ipynb", 'raise RuntimeError("boom")')
    with pytest.raises(report.ReportFailed) as e:
        report.run_report("zp-chair", 2021, ["Lucknow"], out=out, fmt="ipynb", progress=False, state_page=False,
                          workers=1, notebook=nb)
    assert (foreign / "mine.txt").read_text() == "not the tool's" and sorted(os.listdir(foreign)) == ["mine.txt"]
    kept = e.value.kept
    assert kept.parent == tmp_path and kept.name.startswith("r.failed-") and (kept / "lucknow.ipynb").is_file()
    assert not out.exists() and not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def _group_alive(pgid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(stat.parent.name))
    return out


def _kernels_in(folder: Path) -> list[int]:
    """Kernel processes whose working folder is (or was: a removed folder reads "... (deleted)") under ``folder``."""
    out = []
    for cwd in Path("/proc").glob("[0-9]*/cwd"):
        try:
            if os.readlink(cwd).startswith(str(folder)) and b"ipykernel" in (cwd.parent / "cmdline").read_bytes():
                out.append(int(cwd.parent.name))
        except OSError:
            continue
    return out


def stop_when(proc, started, signum: int, *, within: float, settle: float = 0.0, timeout: float = 120,
              what: str = "the command did not start") -> str:
    """Wait until ``started()`` (``proc`` still running, at most ``within`` s), then ``settle`` s, then send
    ``signum`` as a terminal's Ctrl-C does (SIGINT to the process group) or a scheduler does (SIGTERM to the
    command); return what the command wrote on stderr. A group still alive after ``timeout`` s is killed."""
    try:
        deadline = time.monotonic() + within
        while not started():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, what
            time.sleep(0.1)
        time.sleep(settle)
        os.killpg(proc.pid, signum) if signum == signal.SIGINT else os.kill(proc.pid, signum)
        return proc.communicate(timeout=timeout)[1]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def left_alive(pgid: int, *more) -> list[int]:
    """The processes of group ``pgid`` (and those the ``more`` functions find) still alive after up to 20 s."""
    deadline = time.monotonic() + 20
    while (alive := _group_alive(pgid) + [p for f in more for p in f()]) and time.monotonic() < deadline:
        time.sleep(0.2)
    return alive


def _in_subfolders(folder: Path) -> list[int]:
    """Processes working in a folder under ``folder`` (a worker runs a notebook in the report's temporary folder)."""
    out = []
    for cwd in Path("/proc").glob("[0-9]*/cwd"):
        try:
            if os.readlink(cwd).startswith(str(folder) + os.sep):
                out.append(int(cwd.parent.name))
        except OSError:
            continue
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the processes left behind")
@pytest.mark.parametrize("signum, status, when", [(signal.SIGINT, 130, "notebooks"), (signal.SIGTERM, 143, "notebooks"),
                                                  (signal.SIGINT, 130, "allotment"),
                                                  (signal.SIGTERM, 143, "allotment")])
def test_an_interrupted_report_stops_everything_and_leaves_nothing_behind(tmp_path, signum, status, when):
    """SIGINT to the command's process group (what Ctrl-C in a terminal does), or SIGTERM to the command (what a
    scheduler does), while the notebooks run, or as soon as the workers are forked: they prepare while the parent
    still computes the allotment (the blocks' 2026 projection takes seconds)."""
    nb = _notebook(tmp_path / "slow.ipynb", "import time\ntime.sleep(120)")
    work = tmp_path / "work"
    work.mkdir()
    code = ("import sys; from reservation.cli import commands as cli; from reservation import report; "
            f"report.DIVISION_NOTEBOOK = report.Path({str(nb)!r}); sys.exit(cli.main(sys.argv[1:]))")
    body, year = ("zp-chair", "2021") if when == "notebooks" else ("kp-chair", "2026")
    proc = subprocess.Popen([sys.executable, "-c", code, "report", "--body", body, "--year", year,
                             "--division", "Lucknow", "--division", "Agra", "--out", "rep", "--no-progress"],
                            cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    started = ((lambda: len(_in_subfolders(work)) >= 2) if when == "notebooks"        # both run a notebook
               else (lambda: len(_group_alive(proc.pid)) >= 3))                        # the workers are forked
    err = stop_when(proc, started, signum, within=240, settle=3.0 if when == "notebooks" else 0.0,
                    what="the report did not start its workers")     # settled: the notebooks are running
    assert proc.returncode == status, err
    assert err.strip() == "reservation report: interrupted; nothing written"
    assert os.listdir(work) == []                                   # no report, no temp folder, no .failed
    assert left_alive(proc.pid, lambda: _kernels_in(work)) == []
    assert _group_alive(proc.pid) == [] and _kernels_in(work) == []


def test_check_target_states(tmp_path):
    assert folder.check_target(tmp_path / "new").state == "new"
    (tmp_path / "e").mkdir()
    assert folder.check_target(tmp_path / "e").state == "empty"
    (tmp_path / "f").write_text("x")
    with pytest.raises(InputError, match="not a folder"):
        folder.check_target(tmp_path / "f")
    with pytest.raises(InputError, match="is a file"):
        folder.check_target(tmp_path / "f" / "sub")
