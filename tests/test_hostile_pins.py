"""Hostile and careless pin files (`--pin unit,category`) through the command line: exit 2, one line naming
file, row and column, no traceback, no file in the output folder changed."""
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import OutFolder, assert_refused, run_cli

HYP = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def refuse(root: Path, text, **expect):
    folder = OutFolder(root)
    p = root / "pins.csv"
    p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    line = assert_refused(run_cli(["allot", "--body", "zp-chair", "--year", "2021", "--pin", p,
                                   "--out", folder.target]), file=p, **expect)
    assert folder.unchanged(), "a refused run changed the output folder"
    return line


@pytest.mark.parametrize("text, expect", [
    ("unit,category\nAgra,SC,\n", dict(row=2, words=["3 fields"])),
    ("unit,category\nLucknow,SC_W\nAgra\n", dict(row=3, column="category")),
    ("unit,category,unit\nAgra,SC,Mau\n", dict(row=1, column="unit", words=["twice"])),
    ("unit,category\n=1+1,SC\n", dict(row=2, column="unit", words=["formula"])),
    ("unit,category\nAgra,@SC\n", dict(row=2, column="category", words=["formula"])),
    ("unit,category\nAgra,SC\nआगरा,SC\n", dict(row=3, column="unit", words=["twice"])),
    ("unit,category\n99999999999999999999999,SC\n", dict(row=2, column="unit")),
    ("", dict(row=1, words=["empty"])),
])
def test_bad_pin_files(tmp_path, text, expect):
    refuse(tmp_path, text, **expect)


def test_a_pin_file_shifted_by_a_stray_comma_is_not_read_as_another_district(tmp_path):
    """`junk,Agra,SC` under `unit,category` would pin 'junk'... or, with pandas' index guessing, Agra."""
    refuse(tmp_path, "unit,category\nLucknow,SC_W\njunk,Agra,SC\n", row=3, words=["3 fields where the header has 2"])


@HYP
@given(st.binary(max_size=300))
def test_random_bytes(data):
    with tempfile.TemporaryDirectory() as d:
        refuse(Path(d), data)


@HYP
@given(st.lists(st.sampled_from(["Agra,SC", "Mau,UR", "Etah,OBC", "Lucknow,SC_W", "Banda,W"]), min_size=1,
                max_size=5, unique=True), st.data())
def test_a_ragged_row_anywhere(rows, data):
    i = data.draw(st.integers(0, len(rows) - 1))
    bad = rows[:]
    bad[i] = data.draw(st.sampled_from(["x," + rows[i], rows[i] + ",", rows[i].split(",")[0]]))
    with tempfile.TemporaryDirectory() as d:
        refuse(Path(d), "unit,category\n" + "\n".join(bad) + "\n", row=i + 2)
