"""Cases found by the hostile pass over the CLI (notes/redteam.md): each was a wrong answer to bad input."""

from __future__ import annotations

import pytest

from conftest import assert_refused, run_cli


@pytest.mark.parametrize("body", ["gp-pradhan", "gp-ward", "kp-ward", "zp-ward"])
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
