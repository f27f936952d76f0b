"""Hostile and careless history files (`--history`) through the command line.

Each refusal: exit status 2, one line on stderr naming the file, the row and the column, no traceback, and no
file in the output folder changed. What is accepted after normalisation (Devanagari or full-width digits,
decomposed Hindi, a byte-order mark, Windows line ends) gives byte-identical output.
"""
import os
import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, OutFolder, assert_refused, run_cli
from reservation.base.errors import InputError
from reservation.inputs.user_files import load_history
from reservation.inputs.names import crosswalk

SHIPPED = (ROOT / "data" / "history" / "zp-chair.csv").read_text(encoding="utf-8")
ROWS = [line for line in SHIPPED.splitlines()[1:] if line]
HYP = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def allot(history: Path, out: Path, *extra):
    return run_cli(["allot", "--body", "zp-chair", "--year", "2021", "--history", history, "--out", out, *extra])


def refuse(tmp_path, text, **expect):
    folder = OutFolder(tmp_path)
    h = tmp_path / "h.csv"
    h.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    line = assert_refused(allot(h, folder.target), file=h, **expect)
    assert folder.unchanged(), "a refused run changed the output folder"
    return line


def test_the_issue_case_junk_before_a_record_is_refused(tmp_path):
    refuse(tmp_path, "unit,year,category\nMau,2015,UR\njunk,junk2,Agra,2015,SC\n", row=3, words=["5 fields"])


def test_a_duplicate_column_is_refused(tmp_path):
    refuse(tmp_path, "unit,year,category,year\nAgra,2015,SC,2010\n", row=1, column="year", words=["twice"])


@pytest.mark.parametrize("year, words", [("1" * 25, "too large"), ("-2015", "negative year"), ("1900", "before"),
                                         ("20.15", "not a whole number"), ("", "empty"), ("２0１5x", "not a whole")])
def test_bad_years_name_the_year(tmp_path, year, words):
    line = refuse(tmp_path, f"unit,year,category\nMau,2015,UR\nAgra,{year},SC\n", row=3, column="year",
                  words=[words])
    assert "population" not in line


@pytest.mark.parametrize("cell", ["=HYPERLINK(\"\"http://x\"\")", "@cmd", "+Agra", "-Agra"])
def test_formula_like_names_are_refused(tmp_path, cell):
    refuse(tmp_path, f'unit,year,category\nMau,2015,UR\n"{cell}",2015,SC\n', row=3, column="unit",
           words=["formula"])


@pytest.mark.parametrize("what, make, words", [
    ("folder", lambda p: p.mkdir(), "is a folder"),
    ("fifo", lambda p: os.mkfifo(p), "named pipe"),
    ("missing", lambda p: None, "not found"),
])
def test_a_path_that_is_not_a_file(tmp_path, what, make, words):
    folder = OutFolder(tmp_path)
    h = tmp_path / "h.csv"
    make(h)
    assert_refused(allot(h, folder.target), file=h, words=[words])
    assert folder.unchanged()


def test_dev_null_is_a_device_not_a_missing_file(tmp_path):
    folder = OutFolder(tmp_path)
    line = assert_refused(allot(Path("/dev/null"), folder.target), file="/dev/null", words=["device"])
    assert "not found" not in line and folder.unchanged()


def test_records_later_than_the_election_year_are_refused_by_the_loader(tmp_path):
    h = tmp_path / "h.csv"
    h.write_text("unit,year,category\nAgra,2015,SC\nMau,2026,SC\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_history([h], crosswalk().resolve, election_year=2021)
    assert (e.value.row, e.value.column) == (3, "year") and "later than the election year 2021" in str(e.value)
    assert len(load_history([h], crosswalk().resolve, election_year=2026)) == 2     # the year itself is allowed


def test_records_later_than_the_election_year_are_refused_by_the_command(tmp_path):
    refuse(tmp_path, "unit,year,category\nAgra,2015,SC\nMau,2026,SC\n", row=3, column="year")


# ------------------------------------------------------------------------------------ generated files

@HYP
@given(st.binary(max_size=300))
def test_random_bytes_are_refused_with_one_line(data):
    with tempfile.TemporaryDirectory() as d:
        refuse(Path(d), data)


@HYP
@given(st.integers(0, 20), st.sampled_from(["junk before", "commas after", "field dropped"]))
def test_a_ragged_row_anywhere_is_refused_with_its_row(i, how):
    rows = ["unit,year,category"] + [",".join(r.split(",")[:3]) for r in ROWS[:21]]
    r = rows[i + 1]
    rows[i + 1] = {"junk before": "junk,junk2," + r, "commas after": r + ",,",
                   "field dropped": r.rsplit(",", 1)[0]}[how]
    with tempfile.TemporaryDirectory() as d:
        refuse(Path(d), "\n".join(rows) + "\n", row=i + 2)


@HYP
@given(st.integers(0, 20), st.sampled_from(["=", "+", "-", "@"]), st.text("abcXYZ()!;", min_size=1, max_size=8))
def test_a_formula_in_any_cell_is_refused_with_row_and_column(i, start, rest):
    rows = ["unit,year,category"] + [",".join(r.split(",")[:3]) for r in ROWS[:21]]
    cells = rows[i + 1].split(",")
    j = i % 3
    cells[j] = start + rest
    rows[i + 1] = ",".join(cells)
    with tempfile.TemporaryDirectory() as d:
        refuse(Path(d), "\n".join(rows) + "\n", row=i + 2, column=["unit", "year", "category"][j])


@HYP
@given(st.integers(10**18, 10**30) | st.integers(-10**30, -1))
def test_huge_and_negative_years(year):
    with tempfile.TemporaryDirectory() as d:
        line = refuse(Path(d), f"unit,year,category\nAgra,{year},SC\n", row=2, column="year")
        assert ("negative year" in line) if year < 0 else ("too large" in line)


def _digits(s: str, table: str) -> str:
    return s.translate(str.maketrans("0123456789", table))


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(["०१२३४५६७८९", "０１２３４５６７８９"]), st.booleans(), st.booleans(), st.booleans())
def test_normalised_variants_give_byte_identical_output(digits, nfd, bom, crlf):
    """Devanagari or full-width years, decomposed (NFD) Hindi names, a BOM, CRLF: the same allotment, byte for
    byte, as the plain file."""
    lines = ["unit,year,category"] + [",".join(r.split(",")[:3]) for r in ROWS]
    hindi = {r.split(",")[0]: r.split(",")[4] for r in ROWS}           # unit code -> Hindi name as published
    plain = "\n".join(lines) + "\n"
    variant = ["unit,year,category"]
    for k, r in enumerate(lines[1:]):
        u, y, c = r.split(",")
        if k % 2:
            u = hindi[u]
        variant.append(f"{unicodedata.normalize('NFD', u) if nfd else u},{_digits(y, digits)},{c}")
    text = "\n".join(variant) + "\n"
    data = (b"\xef\xbb\xbf" if bom else b"") + (text.replace("\n", "\r\n") if crlf else text).encode("utf-8")
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        (d / "plain.csv").write_text(plain, encoding="utf-8")
        (d / "variant.csv").write_bytes(data)
        assert allot(d / "plain.csv", d / "a.csv")[0] == 0
        code, _, err = allot(d / "variant.csv", d / "b.csv")
        assert code == 0, err
        assert (d / "a.csv").read_bytes() == (d / "b.csv").read_bytes()
