"""Hostile population files (`--population unit,pop,sc,st,obc`): huge, int64-sized and negative numbers,
parts above the total, ragged rows, formulas. Exit 2, one line naming file, row and column, no traceback,
nothing in the output folder changed; digits in Devanagari are read."""
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import OutFolder, assert_refused, run_cli

HYP = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def allot(p, out):
    return run_cli(["allot", "--body", "zp-chair", "--year", "2021", "--population", p, "--out", out])


def refuse(root: Path, text, **expect):
    folder = OutFolder(root)
    p = root / "pop.csv"
    p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    line = assert_refused(allot(p, folder.target), file=p, **expect)
    assert folder.unchanged()
    return line


@pytest.mark.parametrize("text, expect", [
    ("unit,pop\nAgra,9223372036854775807\n", dict(row=2, column="pop", words=["too large"])),
    ("unit,obc\nAgra,9223372036854775807\nMau,9223372036854775807\n", dict(row=2, column="obc")),
    ("unit,pop\nAgra,1" + "0" * 29 + "\n", dict(row=2, column="pop", words=["30 digits"])),
    ("unit,pop\nAgra,-1\n", dict(row=2, column="pop", words=["negative population"])),
    ("unit,pop,sc,st,obc\nAgra,100,30,10,61\n", dict(row=2, column="sc", words=["exceeds pop"])),
    ("unit,pop,sc\nAgra,100,\n", dict(row=2, column="sc", words=["empty"])),
    ("unit,pop\nAgra,100,\n", dict(row=2, words=["3 fields"])),
    ("unit,pop,pop\nAgra,100,200\n", dict(row=1, column="pop", words=["twice"])),
    ("unit,pop\n-Agra,100\n", dict(row=2, column="unit", words=["formula"])),
    ("unit,pop\nAgra,\t100\n", dict(row=2, column="pop")),
])
def test_bad_population_files(tmp_path, text, expect):
    refuse(tmp_path, text, **expect)


def test_digits_in_devanagari_and_decomposed_hindi_are_read(tmp_path):
    import unicodedata
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("unit,pop\nAgra,5000000\nAzamgarh,5000000\n", encoding="utf-8")
    b.write_text(unicodedata.normalize("NFD", "unit,pop\nआगरा,५००००००\nआज़मगढ़,５0000０0\n"), encoding="utf-8")
    outs = []
    for p, name in ((a, "x.csv"), (b, "y.csv")):
        code, _, err = allot(p, tmp_path / name)
        assert code == 0, err
        outs.append((tmp_path / name).read_bytes())
    assert outs[0] == outs[1]


@HYP
@given(st.sampled_from(["pop", "sc", "st", "obc"]), st.integers(10**10 + 1, 10**40) | st.integers(-10**40, -1))
def test_out_of_range_populations(col, value):
    with tempfile.TemporaryDirectory() as d:
        line = refuse(Path(d), f"unit,{col}\nAgra,{value}\n", row=2, column=col)
        assert ("negative population" in line) if value < 0 else ("too large" in line)


@HYP
@given(st.binary(max_size=300))
def test_random_bytes(data):
    with tempfile.TemporaryDirectory() as d:
        refuse(Path(d), data)
