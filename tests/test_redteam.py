"""Cases found by the hostile pass over the CLI (notes/redteam.md): each was a wrong answer to bad input."""

from __future__ import annotations

import pytest

from conftest import assert_refused, run_cli


@pytest.mark.parametrize("body", ["gp-ward", "kp-ward", "zp-ward"])      # gp-pradhan has shipped units
def test_counts_next_election_without_units_is_one_line(body):
    # the year 2027 labels the next election: its 'assumed:' notes came before the refusal (3 lines on stderr)
    assert_refused(run_cli(["counts", "--body", body, "--year", "2027"]), option="--units")


def test_counts_next_election_bad_option_is_one_line():
    assert_refused(run_cli(["counts", "--body", "zp-chair", "--year", "2027", "--option", "bogus=1"]),
                   option="--option", words=("bogus",))


def test_counts_next_election_still_says_what_it_assumed():
    code, out, err = run_cli(["counts", "--body", "zp-chair", "--year", "2027"])
    assert code == 0, err
    assert "assumed: 2027 is taken as the next election" in err
    assert out.startswith("category,count\n")


@pytest.mark.parametrize("name", ["a\x1b[31m.csv", "a\n.csv", "a\x07.csv", "a\x7f.csv"])
def test_out_path_with_a_control_character_is_refused(tmp_path, name):
    # it was accepted, and "wrote ..." then sent the raw escape sequence (or a second line) to the terminal
    line = assert_refused(run_cli(["allot", "--body", "zp-chair", "--year", "2021", "--out", str(tmp_path / name)]),
                          option="--out", words=("control character",))
    assert all(ord(c) >= 32 for c in line)
    assert list(tmp_path.iterdir()) == []


def test_report_folder_with_a_control_character_is_refused(tmp_path):
    assert_refused(run_cli(["report", "--body", "zp-chair", "--year", "2021", "--division", "Agra",
                            "--out", str(tmp_path / "r\x07")]), option="--out", words=("control character",))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, flag", [
    (["--a", "sc_st_rounding=bogus"], "--a sc_st_rounding"),
    (["--b", "sc_st_rounding="], "--b sc_st_rounding"),
    (["--a", "sc_st_rounding=floor", "--b", "sc_st_rounding=bogus"], "--b sc_st_rounding"),
])
def test_diff_names_the_scenario_flag_of_a_bad_option_value(argv, flag):
    # it said "column 'sc_st_rounding'", naming no flag, where allot says "--option sc_st_rounding"
    line = assert_refused(run_cli(["diff", "--body", "zp-chair", "--year", "2021", *argv]), option=flag)
    assert "column" not in line


def test_a_failed_report_says_so_in_one_bounded_line(monkeypatch, tmp_path):
    # a cell timeout quoted the cell's source: a 1,673-character line with the notebook's own newlines folded in
    from reservation import report
    long = "CellTimeoutError: " + "\n".join(["['import plotly.io as pio', '', " * 20] * 5) + "\x1b[31m"

    def fail(*a, **k):
        raise report.ReportFailed(f"1 of 4 notebooks failed (projection: {long})", [], None)
    monkeypatch.setattr(report, "run_report", fail)
    code, out, err = run_cli(["report", "--body", "zp-chair", "--year", "2021", "--division", "Agra",
                              "--out", tmp_path / "r", "--no-progress"])
    assert code == 1, err
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("reservation report: failed: 1 of 4 notebooks failed"), err
    assert len(lines[0]) <= 700 and "\x1b" not in lines[0]


@pytest.mark.parametrize("words,code", [("Scheduled Caste Women", "SC_W"), ("Scheduled Caste", "SC"),
                                        ("Scheduled Tribe (Women)", "ST_W"), ("Other Backward Class", "OBC"),
                                        ("Other Backward Class - Women", "OBC_W"), ("SC Woman", "SC_W")])
def test_a_list_may_name_a_category_in_the_singular(words, code):
    """A published list that says 'Scheduled Caste Women' (the singular, as many district lists print it) is read
    as the category, not refused as unknown."""
    from reservation.inputs.published import category_of
    assert category_of(words) == code
