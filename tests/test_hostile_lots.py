"""Hostile lot files (`--option lots=FILE`, columns unit,lot[,category]): exit 2, one line naming file, row and
column (a lot is called a lot, not a population), no traceback, nothing in the output folder changed."""
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import OutFolder, assert_refused, run_cli

HYP = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def run(root: Path, lots_path):
    folder = OutFolder(root)
    result = run_cli(["allot", "--body", "zp-chair", "--year", "2021", "--option", f"lots={lots_path}",
                      "--out", folder.target])
    return folder, result


def refuse(root: Path, text, **expect):
    p = root / "lots.csv"
    p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    folder, result = run(root, p)
    line = assert_refused(result, file=p, **expect)
    assert folder.unchanged()
    return line


@pytest.mark.parametrize("text, expect", [
    ("unit,lot\nAgra,-1\n", dict(row=2, column="lot", words=["negative lot"])),
    ("unit,lot\nAgra,1\nMau,123456789012345678901234\n", dict(row=3, column="lot", words=["lot", "too large"])),
    ("unit,lot\nAgra,10000000000\n", dict(row=2, column="lot", words=["lot", "too large"])),
    ("unit,lot\nAgra,1.5\n", dict(row=2, column="lot", words=["not a whole number (a lot)"])),
    ("unit,lot,category\nAgra,1,SC,\n", dict(row=2, words=["4 fields"])),
    ("unit,lot\njunk,Agra,1\n", dict(row=2, words=["3 fields"])),
    ("unit,lot,lot\nAgra,1,2\n", dict(row=1, column="lot", words=["twice"])),
    ("unit,lot\n+Agra,1\n", dict(row=2, column="unit", words=["formula"])),
])
def test_bad_lot_files(tmp_path, text, expect):
    line = refuse(tmp_path, text, **expect)
    assert "population" not in line


def test_lots_given_as_a_folder_a_fifo_or_dev_null(tmp_path):
    fifo = tmp_path / "lots.fifo"
    os.mkfifo(fifo)
    for path, words in ((tmp_path, "folder"), (fifo, "named pipe"), (Path("/dev/null"), "device")):
        folder, result = run(tmp_path / "o", path)
        line = assert_refused(result, file=path, option="--option lots", words=[words])
        assert "not found" not in line and folder.unchanged()


def test_devanagari_lot_numbers_are_read(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("unit,lot\nAgra,1\nMau,2\n", encoding="utf-8")
    b.write_text("unit,lot\nAgra,१\nMau,２\n", encoding="utf-8")
    outs = []
    for p, name in ((a, "x.csv"), (b, "y.csv")):
        code, _, err = run_cli(["allot", "--body", "zp-chair", "--year", "2021", "--option", f"lots={p}",
                                "--out", tmp_path / name])
        assert code == 0, err
        outs.append((tmp_path / name).read_bytes())
    assert outs[0] == outs[1]


@HYP
@given(st.integers(10**9 + 1, 10**40) | st.integers(-10**40, -1))
def test_out_of_range_lots(lot):
    with tempfile.TemporaryDirectory() as d:
        line = refuse(Path(d), f"unit,lot\nAgra,{lot}\n", row=2, column="lot")
        assert ("negative lot" in line) if lot < 0 else ("too large" in line)
