"""Bad input: a one-line error naming file, row and column; exit status 2; nothing written."""
import pytest

from reservation.cli.commands import main
from reservation.base.errors import InputError
from reservation.inputs.units import load_districts

DISTRICT_HEADER = ("district_lgd_code,district_en,district_hi,division_en,division_hi,census2011_district_code,"
                   "tot_p,tot_p_rural,tot_p_urban,sc,sc_rural,sc_urban,st,st_rural,st_urban\n")


def run_bad(tmp_path, capsys, extra):
    out = tmp_path / "out" / "zp.csv"
    code = main(["allot", "--body", "zp-chair", "--year", "2021", "--out", str(out), *extra])
    err = capsys.readouterr().err
    assert code == 2, err
    assert not (tmp_path / "out").exists(), "nothing may be written on bad input"
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_missing_file(tmp_path, capsys):
    msg = run_bad(tmp_path, capsys, ["--history", str(tmp_path / "nope.csv")])
    assert "nope.csv" in msg and "not found" in msg


def test_missing_column(tmp_path, capsys):
    h = write(tmp_path, "h.csv", "unit,category\nAgra,UR\n")
    msg = run_bad(tmp_path, capsys, ["--history", h])
    assert "h.csv" in msg and "row 1" in msg and "'year'" in msg


def test_duplicate_district(tmp_path, capsys):
    p = write(tmp_path, "pop.csv", "unit,obc\nAgra,10\nआगरा,20\n")
    msg = run_bad(tmp_path, capsys, ["--population", p])
    assert "pop.csv" in msg and "row 3" in msg and "'unit'" in msg and "duplicate" in msg


def test_negative_population(tmp_path, capsys):
    p = write(tmp_path, "pop.csv", "unit,pop\nAgra,-5\n")
    msg = run_bad(tmp_path, capsys, ["--population", p])
    assert "pop.csv" in msg and "row 2" in msg and "'pop'" in msg and "negative" in msg


def test_sc_plus_st_above_total(tmp_path, capsys):
    p = write(tmp_path, "pop.csv", "unit,pop,sc,st\nAgra,1000,900,200\n")
    msg = run_bad(tmp_path, capsys, ["--population", p])
    assert "pop.csv" in msg and "row 2" in msg and "exceeds" in msg


def test_unknown_district_in_history(tmp_path, capsys):
    h = write(tmp_path, "h.csv", "unit,year,category\nAgra,2015,UR\nAtlantis,2015,SC\n")
    msg = run_bad(tmp_path, capsys, ["--history", h])
    assert "h.csv" in msg and "row 3" in msg and "'unit'" in msg and "Atlantis" in msg


def test_unknown_district_in_pin(tmp_path, capsys):
    p = write(tmp_path, "pin.csv", "unit,category\nAtlantis,SC\n")
    msg = run_bad(tmp_path, capsys, ["--pin", p])
    assert "pin.csv" in msg and "row 2" in msg and "'unit'" in msg


def test_unknown_category_code(tmp_path, capsys):
    h = write(tmp_path, "h.csv", "unit,year,category\nAgra,2015,GEN\n")
    msg = run_bad(tmp_path, capsys, ["--history", h])
    assert "row 2" in msg and "'category'" in msg and "GEN" in msg


def test_unknown_option(tmp_path, capsys):
    msg = run_bad(tmp_path, capsys, ["--option", "rounding_mode=ceil"])
    assert "unknown option 'rounding_mode'" in msg


def test_bad_option_value(tmp_path, capsys):
    msg = run_bad(tmp_path, capsys, ["--option", "tie_break=coin"])
    assert "tie_break" in msg and "coin" in msg


def test_pin_that_breaks_the_counts(tmp_path, capsys):
    rows = "".join(f"{d},SC_W\n" for d in ["Agra", "Aligarh", "Etah", "Mau", "Meerut", "Jhansi", "Banda"])
    p = write(tmp_path, "pin.csv", "unit,category\n" + rows)
    msg = run_bad(tmp_path, capsys, ["--pin", p])
    assert "pin.csv" in msg and "row 8" in msg and "'category'" in msg and "more SC_W pins (7)" in msg


def test_unknown_body_and_year_exit_2(capsys):
    assert main(["counts", "--body", "zp-chairs", "--year", "2021"]) == 2
    assert main(["counts", "--body", "zp-chair", "--year", "2020"]) == 2


def test_explain_unknown_unit(capsys):
    assert main(["explain", "--body", "zp-chair", "--year", "2021", "--unit", "Atlantis"]) == 2
    assert "Atlantis" in capsys.readouterr().err


@pytest.mark.parametrize("row, problem", [
    ("118,Agra,आगरा,Agra,आगरा,,100,100,0,10,10,0,0,0,0\n118,Agra2,आगरा2,Agra,आगरा,,100,100,0,10,10,0,0,0,0\n",
     "duplicate"),
    ("118,Agra,आगरा,Agra,आगरा,,100,100,0,-1,-1,0,0,0,0\n", "negative"),
    ("118,Agra,आगरा,Agra,आगरा,,100,100,0,90,90,0,20,20,0\n", "exceeds"),
])
def test_a_bad_district_table_is_refused_with_its_row(tmp_path, row, problem):
    p = tmp_path / "d.csv"
    p.write_text(DISTRICT_HEADER + row, encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_districts(p)
    assert problem in str(e.value) and "d.csv" in str(e.value) and "row" in str(e.value)


# ------------------------------------------------------------------ issue 9: every reader goes through read_csv

def test_a_ballot_row_with_a_trailing_comma_is_refused_not_shifted(tmp_path, capsys):
    """A trailing comma on one ballot would move its marks one candidate to the right."""
    p = write(tmp_path, "b.csv", "ballot,Candidate A,Candidate B,Candidate C\n1,1,0,0\n2,,1,0,\n3,0,0,1\n")
    code = main(["dpc", "count", "--district", "Mirzapur", "--ballots", p, "--seats", "1"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "b.csv" in err and "row 3" in err


def test_a_formula_as_a_candidate_name_is_refused(tmp_path, capsys):
    p = write(tmp_path, "b.csv", "ballot,=HYPERLINK(1),Candidate B\n1,1,0\n")
    code = main(["dpc", "count", "--district", "Mirzapur", "--ballots", p, "--seats", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "row 1" in err and "formula" in err


def test_a_ballots_path_that_is_a_folder_says_so(tmp_path, capsys):
    code = main(["dpc", "count", "--district", "Mirzapur", "--ballots", str(tmp_path), "--seats", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "folder" in err and "not found" not in err


def test_history_and_base_year_are_checked_against_the_election_year(tmp_path, capsys):
    msg = run_bad(tmp_path, capsys, ["--base-year", "2026"])
    assert msg.startswith("reservation: error: --base-year") and "after the election year 2021" in msg


def test_the_out_target_is_checked_before_the_allotment_is_computed(tmp_path, capsys, monkeypatch):
    import reservation.cli.commands as cli
    monkeypatch.setattr(cli, "_allot", lambda args: pytest.fail("computed before --out was checked"))
    (tmp_path / "x.meta.json").mkdir()
    code = main(["allot", "--body", "zp-chair", "--year", "2021", "--out", str(tmp_path / "x.csv")])
    err = capsys.readouterr().err
    assert code == 2 and "--out" in err and "x.meta.json is a folder" in err
