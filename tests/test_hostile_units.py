"""Hostile `--units` files (gram panchayats and wards; urban bodies): exit 2, one line naming file, row and
column, no traceback, nothing in the output folder changed. Bugs found here whose fix lies in the rulebooks
are strict xfails, named in their reason."""
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, OutFolder, assert_refused, run_cli

PRADHAN = (FIXTURES / "units" / "pradhan_toy.csv").read_text(encoding="utf-8")
URBAN = (FIXTURES / "urban" / "toy_npp.csv").read_text(encoding="utf-8")
HYP = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def allot(body, year, units, out):
    return run_cli(["allot", "--body", body, "--year", year, "--units", units, "--out", out])


def refuse(root: Path, text, body="gp-pradhan", year=2021, **expect):
    folder = OutFolder(root)
    p = root / "units.csv"
    p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    line = assert_refused(allot(body, year, p, folder.target), file=p, **expect)
    assert folder.unchanged()
    return line


@pytest.mark.parametrize("text, expect", [
    (PRADHAN + "7,B1,100,0,0,GP Seven,\n", dict(row=8, words=["7 fields"])),
    (PRADHAN.replace("5,B1,100,10,0,GP Five", "junk,5,B1,100,10,0,GP Five"), dict(row=6, words=["7 fields"])),
    (PRADHAN.replace("name_en", "pop"), dict(row=1, column="pop", words=["twice"])),
    (PRADHAN.replace("GP Three", "=HYPERLINK(1)"), dict(row=4, column="name_en", words=["formula"])),
    (PRADHAN.replace("GP Three", "@SUM(A1)"), dict(row=4, column="name_en", words=["formula"])),
    (PRADHAN.replace("3,B1,100,30", "3,B1," + "9" * 22 + ",30"), dict(row=4, column="pop", words=["too large"])),
    (PRADHAN.replace("3,B1,100,30", "3,B1,20000000000,30"), dict(row=4, column="pop", words=["too large"])),
    (PRADHAN.replace("3,B1,100,30", "-3,B1,100,30"), dict(row=4, column="unit", words=["negative code"])),
    (PRADHAN.replace("3,B1,100,30", "3,B1,100,-30"), dict(row=4, column="sc", words=["negative population"])),
    (PRADHAN.replace("3,B1,100,30", "3,B1,100,90,20"), dict(row=4)),
])
def test_bad_gram_panchayat_units(tmp_path, text, expect):
    refuse(tmp_path, text, **expect)


@pytest.mark.parametrize("text, expect", [
    (URBAN.replace("3,A3,NPP,Agra,1000,200,0,500", "3,A3,NPP,Agra,1000,200,0,500,"), dict(row=4, words=["9 fields"])),
    (URBAN.replace("A3", "+A3"), dict(row=4, column="name_en", words=["formula"])),
    (URBAN.replace("1000,200,0,500", "1" + "0" * 25 + ",200,0,500", 1), dict(row=4, column="pop")),
])
def test_bad_urban_units(tmp_path, text, expect):
    refuse(tmp_path, text, body="pp-chair", year=2023, **expect)


def test_women_above_the_population_are_refused(tmp_path):
    refuse(tmp_path, URBAN.replace("1000,200,0,500", "1000,200,0,5000", 1), body="pp-chair", year=2023, row=4,
           column="women")


def test_an_urban_units_file_without_a_body_of_the_type_is_refused(tmp_path):
    refuse(tmp_path, URBAN.replace(",NPP,", ",NP,"), body="pp-chair", year=2023, words=["Palika"])


def test_zp_ward_with_a_units_file_runs(tmp_path):
    """Found here and fixed by the issue-10 pipeline: the parent column 'district' collided with the district
    column (TypeError from factorize)."""
    code, out, err = allot("zp-ward", 2021, FIXTURES / "units" / "pradhan_toy.csv", tmp_path / "z.csv")
    assert code == 0, err


def test_units_with_devanagari_digits_give_the_same_allotment(tmp_path):
    digits = str.maketrans("0123456789", "०१२३४५६७८९")
    lines = PRADHAN.splitlines()
    rows = [r.split(",") for r in lines[1:]]
    for i, r in enumerate(rows):                 # the numbers (unit, pop, sc, st), not the parent's name "B1"
        for j in (0, 2, 3, 4):
            r[j] = r[j].translate(digits) if (i + j) % 2 else r[j]
    variant = "\n".join([lines[0]] + [",".join(r) for r in rows]) + "\n"
    (tmp_path / "a.csv").write_text(PRADHAN, encoding="utf-8")
    (tmp_path / "b.csv").write_text(variant, encoding="utf-8")
    assert allot("gp-pradhan", 2021, tmp_path / "a.csv", tmp_path / "x.csv")[0] == 0
    code, _, err = allot("gp-pradhan", 2021, tmp_path / "b.csv", tmp_path / "y.csv")
    assert code == 0, err
    assert (tmp_path / "x.csv").read_bytes() == (tmp_path / "y.csv").read_bytes()


@HYP
@given(st.binary(max_size=300))
def test_random_bytes(data):
    with tempfile.TemporaryDirectory() as d:
        refuse(Path(d), data)


@HYP
@given(st.integers(1, 6), st.sampled_from(["x,", ",", ",,"]), st.booleans())
def test_a_ragged_row_anywhere(i, extra, before):
    lines = PRADHAN.splitlines()
    lines[i] = extra + lines[i] if before else lines[i] + extra
    with tempfile.TemporaryDirectory() as d:
        refuse(Path(d), "\n".join(lines) + "\n", row=i + 1)


@pytest.mark.parametrize("body", ["gp-pradhan", "gp-ward", "kp-ward", "zp-ward"])
@pytest.mark.parametrize("text", [PRADHAN.splitlines()[0] + "\n", "\ufeff" + PRADHAN.splitlines()[0] + "\n",
                                  PRADHAN.splitlines()[0] + "\n\n  \n"], ids=["header", "bom", "blank-lines"])
def test_a_header_only_units_file_is_one_line_not_a_traceback(tmp_path, body, text):
    """Issue 18: a header-only gram panchayat units file reached the engine ("zero-size array to reduction
    operation"); it is refused at the reader, naming row 2 where the first unit belongs."""
    refuse(tmp_path, text, body=body, row=2, words=["only the header row"])
