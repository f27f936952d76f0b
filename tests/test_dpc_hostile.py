"""Hostile and careless DPC input (issue 9): every bad file or flag is one line naming file/row/column or the
flag, exit status 2, nothing on stdout, no traceback, no file changed."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reservation.cli.commands import main
from reservation.dpc.files import formula_like
from reservation.dpc.timeline import parse_date

FIX = Path(__file__).parent / "fixtures" / "dpc"
BALLOTS = "ballot,Candidate A,Candidate B,Candidate C\n1,1,0,1\n2,0,1,1\n3,1,1,0\n"


def run(capsys, *argv):
    try:
        code = main(["dpc", *map(str, argv)])
    except SystemExit as e:              # argparse: a flag that is not even a number
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv, where):
    """Exit 2, nothing on stdout, one line on stderr containing ``where``."""
    code, out, err = run(capsys, *argv)
    assert code == 2, err
    assert out == ""
    assert err.startswith("reservation: error: ") and err.count("\n") == 1, err
    assert where in err, err
    return err


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def count_args(ballots, *more):
    return ["count", "--district", "Mirzapur", "--ballots", ballots, "--seats", 2, *more]


# ------------------------------------------------------------------------------------------ ragged rows
@pytest.mark.parametrize("text, row, column", [
    ("ballot,Candidate A,Candidate B\n1,1,0\n2,0,1,\n", 3, "field 4"),          # one trailing comma
    ("ballot,Candidate A,Candidate B\n1,1,0,\n2,0,1,\n", 2, "field 4"),         # every row: would shift columns
    ("ballot,Candidate A,Candidate B\n1,1,0\n2,0\n", 3, "Candidate B"),         # a field short
    ("ballot,Candidate A,Candidate B\n1,1,0\n\n3,0,1,1,1\n", 4, "field 4"),     # row numbers count empty lines
])
def test_ragged_ballot_rows(capsys, tmp_path, text, row, column):
    p = write(tmp_path, "ballots.csv", text)
    refused(capsys, *count_args(p), where=f"ballots.csv, row {row}, column '{column}': ")


def test_ragged_candidates_lots_and_body_seats(capsys, tmp_path):
    b = write(tmp_path, "ballots.csv", BALLOTS)
    c = write(tmp_path, "cands.csv", "candidate,municipality\nCandidate A,Chunar\nCandidate B,Ahraura,\n"
                                     "Candidate C,Kachhwa\n")
    refused(capsys, *count_args(b, "--candidates", c), where="cands.csv, row 3, column 'field 3'")
    lots = write(tmp_path, "lots.csv", "lot,winner\nfirst,Candidate A,Candidate B\n")
    refused(capsys, *count_args(b, "--lots", lots), where="lots.csv, row 2, column 'field 3'")
    body = write(tmp_path, "body.csv", "part,category,seats\nrural,SC,4\nrural,UR\n")
    refused(capsys, "seats", "--district", "Mirzapur", "--body-seats", body, "--option",
            "reservation_basis=body_seats", where="body.csv, row 3, column 'seats'")


# ------------------------------------------------------------------------------------------ headers, names
@pytest.mark.parametrize("header, where", [
    ("ballot,Candidate A,Candidate A", "row 1, column 'Candidate A': column 'Candidate A' appears twice"),
    ("ballot,Candidate A, Candidate A", "appears twice"),                         # the same after stripping
    ("ballot,Candidate A,Candidate\u0041\u0301", None),                           # distinct names: fine
    ("ballot,Candidate A,", "column 3 of the header has no name"),
    ("ballot,=HYPERLINK(\"http://x\"),Candidate B", "row 1, column '=HYPERLINK(\"http://x\")'"),
    ("ballot,+Candidate,Candidate B", "a spreadsheet would run it as a formula"),
    ("ballot,@SUM(A1),Candidate B", "begins with '@'"),
    ("ballot,-Candidate,Candidate B", "begins with '-'"),
])
def test_headers_and_formula_names(capsys, tmp_path, header, where):
    n = header.count(",")
    p = write(tmp_path, "b.csv", header + "\n" + "1" + ",1" * n + "\n")
    if where is None:
        code, _, _ = run(capsys, *count_args(p))
        assert code == 0
    else:
        refused(capsys, *count_args(p), where=where)


def test_formula_ballot_number_and_lot_label(capsys, tmp_path):
    p = write(tmp_path, "b.csv", "ballot,Candidate A,Candidate B\n=1+1,1,0\n")
    refused(capsys, *count_args(p), where="b.csv, row 2, column 'ballot': ballot number '=1+1' begins with '='")
    p = write(tmp_path, "b.csv", "ballot,Candidate A,Candidate B,Candidate C\n1,1,1,0\n2,0,1,1\n3,1,0,1\n")
    lots = write(tmp_path, "lots.csv", "lot,winner\n@cmd,Candidate A\n")
    refused(capsys, *count_args(p, "--lots", lots), where="lots.csv, row 2, column 'lot'")
    cands = write(tmp_path, "c.csv", "candidate,municipality\nCandidate A,=cmd|' /C calc'!A0\n")
    refused(capsys, *count_args(p, "--candidates", cands, "--part", "rural", "--municipality-rule", "none"),
            where="c.csv, row 2, column 'municipality'")


def test_negative_numbers_are_not_formulas():
    assert not formula_like("-5") and not formula_like("-0.5") and not formula_like("Ram - Shyam")
    assert formula_like("-") and formula_like("--x") and formula_like("=1") and formula_like("@a")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=st.sampled_from(["=", "+", "@", "-"]), rest=st.text(st.characters(blacklist_categories=["Cs", "Cc"],
                                                                               blacklist_characters=',"'), max_size=12))
def test_any_formula_name_is_refused(capsys, tmp_path, first, rest):
    name = first + rest
    if first == "-" and rest.strip()[:1].isdigit() or not name.strip() or name.strip() != name or \
            name.strip() in ("ballot", "Candidate B"):
        return
    from unicodedata import normalize
    if normalize("NFC", name) != name:
        return
    p = write(tmp_path, "h.csv", f"ballot,\"{name}\",Candidate B\n1,1,0\n")
    refused(capsys, *count_args(p), where="h.csv, row 1, column")


# --------------------------------------------------------------------------------------------- the files
def test_not_a_regular_file(capsys, tmp_path):
    refused(capsys, *count_args(tmp_path), where="is a folder, not a ballots file")
    refused(capsys, *count_args("/dev/null"), where="/dev/null: is not a regular file")
    refused(capsys, *count_args(""), where="the ballots file name is empty")
    f = write(tmp_path, "plain.txt", "x")
    refused(capsys, *count_args(f / "ballots.csv"), where="a part of the path is a file")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused(capsys, *count_args(fifo), where="is not a regular file")          # and it did not hang


def test_a_bad_rules_text(capsys, tmp_path):
    p = tmp_path / "seed.txt"
    p.write_bytes(b"\xff\xfe")
    refused(capsys, "schedule", "--seed", p, where="seed.txt: not UTF-8 text")
    refused(capsys, "schedule", "--seed", tmp_path, where="is a folder, not a DPC Rules text file")
    refused(capsys, "seats", "--district", "Mirzapur", "--seed", "/dev/null", where="/dev/null: is not a regular file")


def test_not_utf8_nul_and_empty(capsys, tmp_path):
    p = tmp_path / "latin.csv"
    p.write_bytes("ballot,Candidate \xe9\n1,1\n".encode("latin-1"))
    refused(capsys, *count_args(p), where="latin.csv: not UTF-8 text")
    p.write_bytes(b"ballot,A\x00\n1,1\n")
    refused(capsys, *count_args(p), where="NUL byte")
    p.write_bytes(b"")
    refused(capsys, *count_args(p), where="latin.csv, row 1: empty file")


def test_huge_numbers_in_cells(capsys, tmp_path):
    p = write(tmp_path, "b.csv", "ballot,Candidate A\n1," + "9" * 30 + "\n")
    refused(capsys, *count_args(p), where="b.csv, row 2, column 'Candidate A': ballot mark")
    body = write(tmp_path, "body.csv", "part,category,seats\nrural,SC," + "9" * 30 + "\n")
    refused(capsys, "seats", "--district", "Mirzapur", "--body-seats", body, "--option",
            "reservation_basis=body_seats", where="body.csv, row 2, column 'seats'")
    body = write(tmp_path, "body.csv", "part,category,seats\nrural,SC,-4\n")
    refused(capsys, "seats", "--district", "Mirzapur", "--body-seats", body, "--option",
            "reservation_basis=body_seats", where="-4 is outside 0..10000")


def test_candidate_classes_are_checked(capsys, tmp_path):
    b = write(tmp_path, "b.csv", BALLOTS)
    c = write(tmp_path, "c.csv", "candidate,category,sex\nCandidate A,SC,F\nCandidate B,Brahmin,M\n"
                                 "Candidate C,GEN,M\n")
    refused(capsys, *count_args(b, "--candidates", c), where="c.csv, row 3, column 'category': category 'Brahmin'")
    c = write(tmp_path, "c.csv", "candidate,category,sex\nCandidate A,SC,F\nCandidate B,GEN,X\nCandidate C,GEN,M\n")
    refused(capsys, *count_args(b, "--candidates", c), where="c.csv, row 3, column 'sex'")
    c = write(tmp_path, "c.csv", "candidate,category,sex\nCandidate A,SC,F\nCandidate B,OBC,M\nCandidate C,,M\n")
    refused(capsys, "count", "--district", "Mirzapur", "--ballots", b, "--candidates", c, "--seats", 2, "--reserve",
            "OBC=1", where="c.csv, row 4, column 'category': candidate 'Candidate C' has no category")
    refused(capsys, "count", "--district", "Mirzapur", "--ballots", b, "--candidates", c, "--category", "SC",
            where="c.csv, row 3, column 'category': candidate 'Candidate B' (of OBC, not SC) cannot stand")


# ------------------------------------------------------------------------------------------------- flags
@pytest.mark.parametrize("flags, where", [
    (["--electors", 0], "--electors: 0 electors: there must be at least 1"),
    (["--electors", -5], "--electors: -5 electors"),
    (["--electors", 2], "--electors: 3 ballot papers but only 2 electors"),
    (["--seats", 0], "--seats: 0 seats: there must be at least 1"),
    (["--seats", -1], "--seats: -1 seats"),
    (["--seats", 10**25], "--seats: 10000000000000000000000000 seats: at most 100"),
    (["--seats", "two"], "argument --seats: invalid int value: 'two'"),
    (["--seats", 2, "--reserve", "SC"], "--reserve: 'SC' is not CODE=N"),
    (["--seats", 2, "--reserve", "XX=1"], "--reserve: 'XX=1' is not CODE=N"),
    (["--seats", 2, "--reserve", "SC=1e9"], "--reserve: 'SC=1e9' is not CODE=N"),
    (["--seats", 2, "--reserve", "SC=3"], "--reserve: 3 reserved seats for --seats 2"),
    (["--seats", 2, "--reserve", "SC=1", "--reserve", "SC=1"], "--reserve: SC is given twice"),
    (["--reserve", "SC=1"], "--reserve: --reserve gives the reserved seats of a poll of --seats N seats"),
    (["--year", 99999], "--year: year 99999: not a plausible election year"),
    (["--year", 2012], "--year: year 2012: the Census 2011 figures"),
    (["--district", "=cmd"], "--district: unknown district"),
    (["--represented", "Lucknow"], "--represented: 'Lucknow' is not a municipality of the district"),
    (["--option", "obc_ratio_rural=1e-999999"], "--option obc_ratio_rural: '1e-999999' is not a percentage"),
    (["--option", "fill_order=lottery"], "option fill_order: 'lottery' is not one of"),
])
def test_bad_count_flags(capsys, tmp_path, flags, where):
    b = write(tmp_path, "b.csv", BALLOTS)
    argv = ["count", "--district", "Mirzapur", "--ballots", b, *flags]
    if "--seats" not in flags and "--reserve" not in flags:
        argv += ["--seats", 2]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and where in err, err


@pytest.mark.parametrize("flags, where", [
    (["--elected", 0], "--elected: 0 elected members: a committee needs at least one"),
    (["--elected", -3], "--elected: -3 elected members"),
    (["--elected", 10**30], "--elected: 1000000000000000000000000000000 elected members: at most 100"),
    (["--year", 0], "--year: year 0"),
    (["--district", "all", "--elected", 5], "--district: --elected and --body-seats need one district"),
])
def test_bad_seats_flags(capsys, flags, where):
    args = ["seats", *flags]
    if "--district" not in flags:
        args += ["--district", "Mirzapur"]
    refused(capsys, *args, where=where)


# ------------------------------------------------------------------------------------------------- dates
@pytest.mark.parametrize("value, where", [
    ("9999-12-31", "--notification: 9999-12-31 is not a plausible date"),
    ("2100-01-01", "not a plausible date"),
    ("0001-01-01", "--notification: 0001-01-01 is before the DPC Rules 2008"),
    ("2021-02-30", "'2021-02-30' is not a date: there is no such day"),
    ("10-08-2021", "'10-08-2021' is not a date (YYYY-MM-DD or DD.MM.YYYY)"),
    ("2021/08/10", "is not a date"),
    ("10 Aug 2021", "is not a date"),
    ("20210810", "is not a date"),
    ("99999-01-01", "is not a date"),
    ("", "a notification date is needed"),
])
def test_bad_dates(capsys, value, where):
    refused(capsys, "timeline", "--notification", value, where=where)


def test_far_dates_in_any_flag(capsys):
    for flag in ("--nomination", "--withdrawal", "--poll", "--completed", "--vacancy-intimated"):
        refused(capsys, "timeline", "--notification", "2021-08-10", flag, "9999-12-31", where=f"{flag}: 9999-12-31")


def test_dates_in_indian_digits_are_read():
    assert parse_date("१०.०८.२०२१").isoformat() == "2021-08-10"
    assert parse_date("２０２１-０８-１０").isoformat() == "2021-08-10"
    assert parse_date("10/08/2021").isoformat() == "2021-08-10"


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=24))
def test_any_text_as_a_date_is_a_date_or_one_clean_refusal(text):
    from reservation.base.errors import InputError
    try:
        d = parse_date(text, "poll")
    except InputError as e:
        assert "\n" not in str(e) and str(e).startswith("--poll: ")
    else:
        assert d is None or d.year >= 2008


# ---------------------------------------------------------------------------------------------- fuzzing
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(list(',01"\n\r =@-xé ') + ["Candidate A", "ballot"]), max_size=60).map("".join))
def test_any_ballot_file_is_counted_or_cleanly_refused(capsys, tmp_path, text):
    capsys.readouterr()
    p = tmp_path / "fuzz.csv"
    p.write_text(text, encoding="utf-8")
    before = p.read_bytes()
    code, out, err = run(capsys, *count_args(p))
    assert code in (0, 2, 3), err
    if code == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("reservation: error: ")
    assert p.read_bytes() == before


def test_a_ballot_file_without_candidates_is_rule_15(capsys, tmp_path):
    """Only the ballot-number column: nobody stood (r.15). This crashed (a .str accessor on an empty table)."""
    p = write(tmp_path, "b.csv", "ballot\n1\n")
    code, out, err = run(capsys, *count_args(p, "--format", "json"))
    assert code == 0 and '"status": "no_candidates"' in out and "0 of 2 seat(s) filled" in err


def test_no_traceback_from_the_console_script(tmp_path):
    exe = Path(sys.executable).with_name("reservation")
    for argv in (["dpc", "timeline", "--notification", "9999-12-31"],
                 ["dpc", "count", "--district", "Mirzapur", "--ballots", "/dev/null", "--seats", "1"],
                 ["dpc", "seats", "--district", "Mirzapur", "--elected", "0"]):
        p = subprocess.run([str(exe), *argv], capture_output=True, text=True, timeout=120)
        assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
        assert p.stderr.count("\n") == 1
