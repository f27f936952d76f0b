"""`--out` targets and the writers (reservation.output.tables): never lose a user's file.

Bad targets are refused before anything is computed or written (exit 2, one line naming --out); the table and
its meta file are published together or not at all (a failure after the first rename restores the previous
file); a full disk or a permission error is one line naming the path (exit 1); Ctrl-C exits 130 with one
line; temporary files never stay behind; outputs get the mode the umask gives; Excel and Parquet are real;
formula-like text is neutralised in CSV and Excel; the same inputs give the same bytes under any
PYTHONHASHSEED.
"""
import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
import pytest

import reservation
from conftest import INSTALLED, ROOT, assert_refused, run_cli, snapshot
from reservation.output import tables as output
from reservation.base.errors import InputError

ALLOT = ["allot", "--body", "zp-chair", "--year", "2021"]
EXE = INSTALLED
NOBODY = 65534


def allot_to(target, *extra):
    return run_cli([*ALLOT, *extra, "--out", target])


def no_temp_files(folder) -> bool:
    return not [p for p in Path(folder).rglob("*") if p.name.endswith((".tmp", ".bak"))]


# ------------------------------------------------------------------------------------------- bad targets

def test_the_issue_case_meta_is_a_folder_refused_before_the_table_is_touched(out_folder):
    meta = out_folder.dir / "result.meta.json"
    meta.unlink()
    meta.mkdir()
    before = snapshot(out_folder.dir)
    line = assert_refused(allot_to(out_folder.target), option="--out", words=["is a folder"])
    assert str(meta) in line and snapshot(out_folder.dir) == before


@pytest.mark.parametrize("make, words", [
    (lambda d: d / "sub.csv", "is a folder"),                       # the target itself is a folder
    (lambda d: d / "notes.txt" / "x.csv", "not a folder"),          # a path under a regular file
    (lambda d: d / "notes.txt" / "a" / "b" / "x.csv", "not a folder"),
    (lambda d: d / "x.txt", "not '.txt'"),
    (lambda d: d / "x", "no extension"),
    (lambda d: d / "pipe.csv", "named pipe"),
    (lambda d: d / "null.csv", "character device"),                 # a link to /dev/null
])
def test_bad_targets_are_refused_before_anything_is_written(out_folder, make, words):
    d = out_folder.dir
    (d / "sub.csv").mkdir()
    os.mkfifo(d / "pipe.csv")
    os.symlink("/dev/null", d / "null.csv")
    before = snapshot(d)
    assert_refused(allot_to(make(d)), option="--out", words=[words])
    assert snapshot(d) == before


def test_an_empty_out_path_is_refused():
    assert_refused(allot_to(""), option="--out", words=["empty"])


def test_a_meta_file_this_tool_did_not_write_is_never_replaced(out_folder):
    meta = out_folder.dir / "result.meta.json"
    meta.write_text('{"my": "own notes"}\n', encoding="utf-8")
    before = snapshot(out_folder.dir)
    assert_refused(allot_to(out_folder.target), option="--out", words=["not written by this tool"])
    assert snapshot(out_folder.dir) == before


def test_a_large_meta_of_ours_is_replaced(tmp_path):
    # the meta of 732,000 ward seats holds every flag (6.6 MB): writing the same table again must replace it
    df = pd.DataFrame({"unit_code": [1, 2], "category": ["SC", "UR"]})
    out = tmp_path / "t.csv"
    output.write_table(df, out, {"flags": ["x" * 100] * 80_000})
    assert (tmp_path / "t.meta.json").stat().st_size > 8_000_000
    output.write_table(df, out, {"flags": []})
    assert json.loads((tmp_path / "t.meta.json").read_text())["flags"] == []


def test_out_onto_an_input_file_is_refused(out_folder):
    pins = out_folder.dir / "pins.csv"
    pins.write_text("unit,category\nLucknow,SC_W\n", encoding="utf-8")
    before = snapshot(out_folder.dir)
    assert_refused(allot_to(pins, "--pin", pins), option="--out", words=["also an input file"])
    assert snapshot(out_folder.dir) == before


def test_an_unwritable_folder_is_refused(out_folder, monkeypatch):
    real = os.access
    monkeypatch.setattr(output.os, "access", lambda p, mode: False if Path(p) == out_folder.dir else real(p, mode))
    assert_refused(allot_to(out_folder.target), option="--out", words=["not writable"])
    assert out_folder.unchanged()


def as_nobody(*argv, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *map(str, argv)],
                          capture_output=True, text=True, cwd="/", env={**os.environ, "HOME": "/"}, **kw)


def closed_folder(path: Path) -> str:
    """The first folder above ``path`` that a user outside its owner and group cannot enter, as 'F (mode 0700)'."""
    for d in [*reversed(Path(path).parents)]:
        mode = d.stat().st_mode & 0o777
        if not mode & 0o001:
            return f"{d} (mode {mode:04o})"
    return "no folder above it is closed"


def skip_unless_nobody_reaches(folder: Path) -> None:
    """Skip, saying why, unless user nobody can run this interpreter, import the reservation package under test
    (not another copy through the install's own path) and enter ``folder``. A clone in a folder only its owner
    can enter (a 0700 or 0750 home, ``mktemp -d``) keeps its virtual environment and code from other users."""
    ours = Path(reservation.__file__).resolve()
    r = as_nobody(sys.executable, "-c", "import os, sys, reservation; os.listdir(sys.argv[1]); "
                  "print(reservation.__file__)", folder, timeout=120)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["no message"])[-1][:200]
        pytest.skip(f"user nobody (uid {NOBODY}) cannot run {sys.executable} here ({last}); "
                    f"closed: {closed_folder(ours)}")
    theirs = Path(r.stdout.strip()).resolve()
    if theirs != ours:
        pytest.skip(f"user nobody (uid {NOBODY}) imports {theirs}, not the code under test {ours}: "
                    f"it cannot enter {closed_folder(ours)}")


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None or not EXE.exists(),
                    reason="needs root, setpriv and the installed command to run as another user")
def test_an_unwritable_folder_for_a_real_user_through_the_installed_command():
    base = Path(tempfile.mkdtemp())
    try:
        base.chmod(0o755)
        ro = base / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        skip_unless_nobody_reaches(ro)
        r = as_nobody(EXE, *ALLOT, "--out", ro / "x.csv", timeout=300)
        assert_refused((r.returncode, r.stdout, r.stderr), option="--out", words=["not writable"])
        assert list(ro.iterdir()) == []
    finally:
        shutil.rmtree(base)


# ------------------------------------------------------------------------------------------- failures while writing

def test_a_failed_second_rename_restores_the_first_file(out_folder, monkeypatch):
    real = os.replace

    def replace(src, dst):
        if str(dst).endswith(".meta.json"):
            raise OSError(errno.EACCES, "Permission denied")
        return real(src, dst)
    monkeypatch.setattr(output.os, "replace", replace)
    line = assert_refused(allot_to(out_folder.target), status=1, words=["result.meta.json", "Permission denied"])
    assert line.startswith("reservation: cannot write")
    assert out_folder.unchanged() and no_temp_files(out_folder.dir)


def test_a_first_file_that_did_not_exist_is_removed_on_rollback(tmp_path, monkeypatch):
    real = os.replace
    monkeypatch.setattr(output.os, "replace",
                        lambda s, d: (_ for _ in ()).throw(OSError(errno.EIO, "I/O error"))
                        if str(d).endswith(".json") else real(s, d))
    assert_refused(allot_to(tmp_path / "new" / "deeper" / "x.csv"), status=1, words=["I/O error"])
    assert list(tmp_path.iterdir()) == []                  # not the table, not the folders made for it


def test_a_full_disk_is_one_line_naming_the_target_and_nothing_changes(out_folder, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(output.os, "fsync", full)
    line = assert_refused(allot_to(out_folder.target), status=1, words=["No space left on device"])
    assert str(out_folder.target) in line and ".tmp" not in line
    assert out_folder.unchanged() and no_temp_files(out_folder.dir)


def test_ctrl_c_while_writing_exits_130_with_one_line_and_cleans_up(out_folder, monkeypatch):
    calls = []

    def interrupt(fd):
        calls.append(fd)
        if len(calls) == 2:                                 # the table's temporary file is complete by now
            raise KeyboardInterrupt
    monkeypatch.setattr(output.os, "fsync", interrupt)
    line = assert_refused(allot_to(out_folder.target), status=130)
    assert line == "reservation: interrupted"
    assert out_folder.unchanged() and no_temp_files(out_folder.dir)


SIGNAL_SCRIPT = """
import os, signal, sys
from reservation.output import tables as output
from reservation.cli.commands import main
sig = getattr(signal, sys.argv[1])
real = os.replace
def replace(src, dst):                  # the signal arrives between the two renames: the worst moment
    real(src, dst)
    if str(dst).endswith(".csv"):
        os.kill(os.getpid(), sig)
output.os.replace = replace
sys.argv = ["reservation"] + sys.argv[2:]
sys.exit(main())                        # as the installed command calls it (SIGTERM handled only then)
"""


@pytest.mark.parametrize("sig, status, words", [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")])
def test_a_real_signal_between_the_two_renames_rolls_back(out_folder, sig, status, words):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", SIGNAL_SCRIPT, sig, *ALLOT, "--out", str(out_folder.target)],
                       capture_output=True, text=True, timeout=300, env=env)
    assert_refused((r.returncode, r.stdout, r.stderr), status=status, words=[words])
    assert out_folder.unchanged() and no_temp_files(out_folder.dir)


# ------------------------------------------------------------------------------------------- modes

@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_outputs_get_the_mode_the_umask_gives(tmp_path, umask, mode):
    target = tmp_path / "x.csv"
    target.write_text("old\n")
    target.chmod(0o600)
    (tmp_path / "x.meta.json").write_text('{"software": "reservation-workbench 0.1.0"}\n')   # a previous output
    old = os.umask(umask)
    try:
        assert allot_to(target)[0] == 0
    finally:
        os.umask(old)
    assert (target.stat().st_mode & 0o777) == mode and ((tmp_path / "x.meta.json").stat().st_mode & 0o777) == mode


# ------------------------------------------------------------------------------------------- formats

@pytest.fixture(scope="module")
def zp():
    return reservation.allot("zp-chair", 2021)


def test_excel_is_a_real_workbook_with_a_header_row_and_frozen_panes(tmp_path, zp):
    import openpyxl
    code, _, err = allot_to(tmp_path / "zp.xlsx")
    assert code == 0, err
    ws = openpyxl.load_workbook(tmp_path / "zp.xlsx").active
    assert ws.freeze_panes == "A2" and ws["A1"].font.b
    rows = list(ws.iter_rows(values_only=True))
    from reservation.output.tables import with_hindi_labels
    table = with_hindi_labels(zp.table)             # for Excel: category_hi beside category (issue 22)
    assert list(rows[0]) == list(table.columns) and len(rows) == len(table) + 1
    from openpyxl.utils import get_column_letter
    assert ws.auto_filter.ref == f"A1:{get_column_letter(len(table.columns))}{len(table) + 1}"   # the filter row
    got = pd.DataFrame(rows[1:], columns=rows[0]).astype(object)
    want = table.astype(object).where(table.notna() & (table != ""), None)   # an empty cell is empty
    assert got.equals(want.reset_index(drop=True))
    assert json.loads((tmp_path / "zp.meta.json").read_text())["software"].startswith("reservation-workbench")


def test_parquet_round_trips_the_table(tmp_path, zp):
    code, _, err = allot_to(tmp_path / "zp.parquet")
    assert code == 0, err
    back = pd.read_parquet(tmp_path / "zp.parquet")
    pd.testing.assert_frame_equal(back, zp.table.reset_index(drop=True), check_dtype=False)
    assert (tmp_path / "zp.meta.json").exists()


def test_upper_case_extensions_are_the_same_formats(tmp_path):
    for name in ("a.CSV", "b.XLSX", "c.Parquet"):
        assert allot_to(tmp_path / name)[0] == 0
    assert (tmp_path / "a.CSV").read_bytes().startswith(b"unit_code,")
    assert (tmp_path / "b.XLSX").read_bytes()[:2] == b"PK"
    assert (tmp_path / "c.Parquet").read_bytes()[:4] == b"PAR1"


def test_a_table_too_long_for_excel_is_refused_before_writing(tmp_path, monkeypatch):
    monkeypatch.setattr(output, "EXCEL_MAX_ROWS", 10)
    assert_refused(allot_to(tmp_path / "x.xlsx"), option="--out", words=[".csv or .parquet"])
    assert list(tmp_path.iterdir()) == []


HOSTILE = pd.DataFrame({"unit_code": [1, 2, 3, 4, 5, 6], "name": ["=HYPERLINK(\"http://x\",\"y\")", "+cmd", "-Agra",
                                                                   "@SUM(A1)", "-5", "Agra"],
                        "n": [1, 2, 3, 4, 5, 6], "=bad header": ["\tx", "\rx", "x", "", None, "+1.5"]})


def test_neutralise_prefixes_formula_like_text_and_leaves_numbers(tmp_path):
    out = output.neutralise(HOSTILE)
    assert list(out["name"]) == ["'=HYPERLINK(\"http://x\",\"y\")", "'+cmd", "'-Agra", "'@SUM(A1)", "-5", "Agra"]
    assert list(out.columns)[-1] == "'=bad header" and list(out["'=bad header"])[:3] == ["'\tx", "'\rx", "x"]
    assert list(out["n"]) == [1, 2, 3, 4, 5, 6] and out["'=bad header"].iat[5] == "+1.5"
    assert list(HOSTILE["name"])[0].startswith("=")         # the caller's frame is left alone


def test_every_writer_neutralises(tmp_path):
    import openpyxl
    output.write_table(HOSTILE, tmp_path / "h.csv", {"x": 1})
    text = (tmp_path / "h.csv").read_bytes().decode("utf-8")
    assert "\n=" not in text and ",=" not in text and "'=HYPERLINK" in text and "'@SUM" in text
    assert output.table_csv(HOSTILE) == text
    output.write_table(HOSTILE, tmp_path / "h.xlsx", {"x": 1})
    ws = openpyxl.load_workbook(tmp_path / "h.xlsx").active
    cells = [c for row in ws.iter_rows() for c in row]
    assert not [c for c in cells if c.data_type == "f"], "no cell may be a formula"
    assert ws["B2"].value == "'=HYPERLINK(\"http://x\",\"y\")" and ws["D1"].value == "'=bad header"


def test_the_shipped_tables_need_no_neutralising(zp):
    """Normal output does not change: no shipped table holds a formula-like cell."""
    for body, year in (("zp-chair", 2021), ("kp-chair", 2021), ("pp-chair", 2023), ("np-chair", 2023),
                       ("mayor", 2023)):
        t = zp.table if body == "zp-chair" else reservation.allot(body, year).table
        assert output.neutralise(t) is t, body


def test_write_table_without_meta_writes_only_the_table(tmp_path):
    p, m = output.write_table(HOSTILE, tmp_path / "t.parquet", None)
    assert m is None and sorted(x.name for x in tmp_path.iterdir()) == ["t.parquet"]


def test_check_output_is_the_same_check_from_python(tmp_path):
    (tmp_path / "d.csv").mkdir()
    with pytest.raises(InputError, match="is a folder"):
        output.write_table(HOSTILE, tmp_path / "d.csv", {})


# ------------------------------------------------------------------------------------------- determinism

DETERMINISM = """
import sys
from reservation.cli.commands import main
out = sys.argv[1]
for ext in ("csv", "xlsx", "parquet"):
    assert main(["allot", "--body", "zp-chair", "--year", "2021", "--out", f"{out}/zp.{ext}"]) == 0
assert main(["allot", "--body", "pp-chair", "--year", "2023", "--out", f"{out}/pp.csv"]) == 0
"""


def test_same_inputs_give_byte_identical_files_under_any_hash_seed(tmp_path):
    digests = []
    for seed in ("0", "4242"):
        d = tmp_path / seed
        d.mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        r = subprocess.run([sys.executable, "-c", DETERMINISM, str(d)], capture_output=True, text=True,
                           timeout=600, env=env)
        assert r.returncode == 0, r.stderr
        digests.append({k: v[3] for k, v in snapshot(d).items()})
    assert len(digests[0]) == 6 and digests[0] == digests[1]     # zp.csv/.xlsx/.parquet share zp.meta.json


# ------------------------------------------------------------------------------------------- the installed command

@pytest.mark.skipif(not EXE.exists(), reason=f"the installed command {EXE} is absent")
def test_a_refusal_through_the_installed_command(out_folder):
    h = out_folder.dir.parent / "h.csv"
    h.write_text("unit,year,category\nMau,2015,UR\njunk,junk2,Agra,2015,SC\n", encoding="utf-8")
    r = subprocess.run([str(EXE), *ALLOT, "--history", str(h), "--out", str(out_folder.target)],
                       capture_output=True, text=True, timeout=300)
    assert_refused((r.returncode, r.stdout, r.stderr), file=h, row=3, words=["5 fields"])
    assert out_folder.unchanged()


@pytest.mark.skipif(not EXE.exists() or not Path("/proc/self/maps").exists(),
                    reason="needs the installed command and /proc")
def test_a_real_ctrl_c_to_the_installed_command(out_folder):
    """SIGINT once the command is running (pandas loaded): exit 130, one line, no traceback, no temporary file,
    the previous result intact or wholly replaced (never half)."""
    import signal
    import time
    p = subprocess.Popen([str(EXE), "allot", "--body", "kp-chair", "--year", "2021", "--out", str(out_folder.target)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None:
        try:
            if "pandas" in Path(f"/proc/{p.pid}/maps").read_text():
                break
        except OSError:
            pass
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=300)
    assert no_temp_files(out_folder.dir)
    if p.returncode == 0:                                   # it finished first: then it wrote both files
        assert not out_folder.unchanged()
        pytest.skip("the command finished before the signal arrived")
    assert_refused((p.returncode, out, err), status=130, words=["reservation: interrupted"])
    assert out_folder.unchanged()
