"""Election years as data: any year after the last election held is the next election (issue 20, item 5).

The panchayat terms ended in May-July 2026 and the next election was put off past the 2027 Assembly poll, so
the year a user asks for only labels the next election: 2026, 2027 and 2031 are the same election, computed on
the history held up to 2021, and the result says so. A year between two held elections is no election.
"""

import pytest

import reservation
from conftest import assert_refused, run_cli


@pytest.mark.parametrize("body,held", [("zp-chair", 2021), ("kp-chair", 2021), ("mayor", 2023)])
def test_any_year_after_the_last_held_election_is_the_next_election(body, held):
    a = reservation.allot(body, held + 4)
    b = reservation.allot(body, held + 5)
    notes = " ".join(a.meta["assumptions"])
    assert f"{held + 4} is taken as the next election: none has been held since {held}" in notes
    # the year only labels the election: the same history, the same categories
    assert list(a.table["category"]) == list(b.table["category"])


def test_the_next_election_rotates_against_the_last_one_held():
    a = reservation.allot("zp-chair", 2027)
    rows = a.table.set_index("unit_name_en")
    assert "2015-2021" in rows.loc["Agra", "reason"]
    assert a.meta["history_years"][-1] == 2021


def test_a_year_between_elections_is_refused_naming_the_option():
    line = assert_refused(run_cli(["counts", "--body", "zp-chair", "--year", "2018"]), option="--year")
    assert "2018 is not an election year" in line and "any year from 2022" in line


def test_the_cli_computes_2027():
    code, out, err = run_cli(["counts", "--body", "kp-chair", "--year", "2027"])
    assert code == 0, err
    assert "2027 is taken as the next election" in err
