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


# -- the calendars are data (rules/params/elections.toml), and an urban year before the 2023 law is refused ------

import shutil  # noqa: E402
import tomllib  # noqa: E402
from pathlib import Path  # noqa: E402

import pandas as pd  # noqa: E402

from reservation.base.errors import RuleError  # noqa: E402
from reservation.base.paths import DATA_DIR  # noqa: E402
from reservation.rules import parameters  # noqa: E402
from reservation.rules.parameters import ParameterError  # noqa: E402
from reservation.rules.registry import all_rulebooks  # noqa: E402
from reservation.rules.rulebook import Years  # noqa: E402

ELECTIONS = Path(parameters.__file__).resolve().parent / "params" / "elections.toml"
URBAN = ("mayor", "pp-chair", "np-chair")


def _file():
    with open(ELECTIONS, "rb") as f:
        return tomllib.load(f)


def test_every_rulebook_takes_its_calendar_from_the_file():
    data = _file()
    # the golden calendars: the panchayat general elections since the 1994 rules, and the urban ones whose
    # lists the project holds or knows (2006 chairs, the SEC 2012 results, the Mayors of 2017 and 2023)
    assert sorted(map(int, data["panchayat"]["held"])) == [1995, 2000, 2005, 2010, 2015, 2021]
    assert sorted(map(int, data["urban"]["held"])) == [2006, 2012, 2017, 2023]
    for body, rb in all_rulebooks().items():
        name = "urban" if body in URBAN else "panchayat"
        spec = data[name]
        assert rb.years.elections == tuple(sorted(map(int, spec["held"]))), body
        assert rb.years.law == tuple(spec["law"]) and rb.years.instrument == spec["instrument"], body
        assert rb.years.earlier == spec["earlier"], body
    for name, spec in data.items():          # every election held has a source
        assert all(e["source"].strip() for e in spec["held"].values()), name


def test_a_changed_file_changes_the_calendar(tmp_path, monkeypatch):
    for f in parameters.PARAMS_DIR.glob("*.toml"):
        shutil.copy(f, tmp_path / f.name)
    text = ELECTIONS.read_text(encoding="utf-8").replace(
        "[urban.held.2023]", '[urban.held.2028]\nsource = "a test"\n\n[urban.held.2023]').replace(
        'law = [2021]', 'law = [2015, 2021]')
    (tmp_path / "elections.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(parameters, "PARAMS_DIR", tmp_path)
    parameters._calendars.cache_clear()
    try:
        urban, panchayat = Years.of("urban"), Years.of("panchayat")
        assert urban.elections == (2006, 2012, 2017, 2023, 2028) and not urban.is_next(2028)
        assert urban.is_next(2029) and not urban.computes(2026)
        assert panchayat.law == (2015, 2021) and panchayat.rules_year(2015) == 2015
        assert panchayat.check("zp-chair", 2015) == []            # its law is held now: nothing assumed
    finally:
        monkeypatch.undo()
        parameters._calendars.cache_clear()
    assert Years.of("urban").elections == (2006, 2012, 2017, 2023)


def test_a_malformed_calendar_is_a_clear_error(tmp_path, monkeypatch):
    good = ('[c]\ninstrument = "x"\nlaw = [2023]\nevery = 5\nearlier = "refuse"\nearlier_rules = "r"\n'
            'earlier_why = "w"\n[c.held.2017]\nsource = "s"\n[c.held.2023]\nsource = "s"\n')
    for old, new, message in [
        ('law = [2023]', 'law = [2022]', "law must list held elections"),
        ('earlier = "refuse"', 'earlier = "guess"', "'guess' is not 'assume' or 'refuse'"),
        ('earlier_why = "w"\n', '', "needs earlier_why"),
        ('[c.held.2017]\nsource = "s"', '[c.held.2017]\nnote = "s"', "c.held.2017 needs source"),
        ('[c.held.2017]', '[c.held.17]', "'17' is not an election year"),
        ('every = 5', 'every = 0', "every must be a term"),
    ]:
        assert old in good
        (tmp_path / "elections.toml").write_text(good.replace(old, new), encoding="utf-8")
        monkeypatch.setattr(parameters, "PARAMS_DIR", tmp_path)
        parameters._calendars.cache_clear()
        try:
            with pytest.raises(ParameterError, match=message):
                Years.of("c")
        finally:
            monkeypatch.undo()
            parameters._calendars.cache_clear()


def test_every_list_the_calendar_names_holds_that_election():
    n = 0
    for body, rb in all_rulebooks().items():
        for year, who, file in rb.years.lists:
            if who != body:
                continue
            assert rb.default_history and Path(rb.default_history) == DATA_DIR / file, (body, year)
            assert year in set(pd.read_csv(DATA_DIR / file)["year"]), (body, year, file)
            n += 1
    assert n >= 7


@pytest.mark.parametrize("body", URBAN)
def test_an_urban_election_before_the_2023_law_is_refused_with_one_line(body):
    line = assert_refused(run_cli(["counts", "--body", body, "--year", "2017"]), status=3,
                          words=(f"{body}: 2017 was a general election", "s.9-A(5)", "before 2023",
                                 "not in the package", "Dedicated Backward Classes Commission",
                                 "2017 is not computed"))
    if body == "mayor":
        assert line.endswith("its list is read as history (data/history/mayor.csv)"), line
    else:
        assert line.endswith(f"the package ships no 2017 {body} list; one given with --history is read as "
                             "history"), line
    with pytest.raises(RuleError, match="2017 was a general election"):
        reservation.allot(body, 2017)


def test_the_2017_mayors_audit_is_refused_not_called_no_election():
    pub = DATA_DIR / "published" / "mayor_2017.csv"
    line = assert_refused(run_cli(["audit", "--body", "mayor", "--year", "2017", "--published", pub]), status=3,
                          words=("mayor: 2017 was a general election", "data/history/mayor.csv"))
    assert "not an election year" not in line
    assert_refused(run_cli(["allot", "--body", "mayor", "--year", "2012"]), status=3,
                   words=("2012 was a general election", "the package ships no 2012 mayor list"))


@pytest.mark.parametrize("body", URBAN)
def test_an_urban_year_between_elections_is_no_election(body):
    line = assert_refused(run_cli(["counts", "--body", body, "--year", "2019"]), option="--year")
    assert "2019 is not an election year (elections held: 2006, 2012, 2017, 2023; any year from 2024" in line


@pytest.mark.parametrize("body", URBAN)
def test_an_urban_year_after_2023_computes_as_the_next_election(body):
    code, out, err = run_cli(["counts", "--body", body, "--year", "2028"])
    assert code == 0, err
    assert "2028 is taken as the next election: none has been held since 2023" in err
    assert "the s.9-A(5) (2023) rules of 2023 are assumed to apply unchanged" in err


def test_the_projection_recomputes_no_year_whose_rules_are_refused():
    from reservation.rules.urban_bodies import URBAN_YEARS
    assert [y for y in URBAN_YEARS.elections if URBAN_YEARS.computes(y)] == [2023]
    assert URBAN_YEARS.computes(2028) and not URBAN_YEARS.computes(2019)


@pytest.mark.parametrize("year,notes", [
    (2005, ["no reservation rules for 2005 are in the sources: the GO 2021 (panchayat reservation order) rules "
            "of 2021 are assumed to apply unchanged"]),
    (2027, ["2027 is taken as the next election: none has been held since 2021, and the year only labels it; "
            "the elections held up to 2021 are its history",
            "no reservation rules for 2027 are in the sources: the GO 2021 (panchayat reservation order) rules "
            "of 2021 are assumed to apply unchanged"]),
])
def test_panchayat_years_are_as_before(year, notes):
    for body, rb in all_rulebooks().items():
        if body not in URBAN:
            assert rb.years.elections == (1995, 2000, 2005, 2010, 2015, 2021) and rb.years.law == (2021,), body
            assert rb.years.check(body, year) == notes, body
    code, out, err = run_cli(["counts", "--body", "zp-chair", "--year", year])
    assert code == 0 and err.splitlines() == [f"assumed: {n}" for n in notes], err
    assert_refused(run_cli(["counts", "--body", "kp-chair", "--year", "2003"]), option="--year",
                   words=("2003 is not an election year",))


def test_a_mayors_base_year_before_the_shipped_lists_says_which_elections_it_lacks():
    from reservation.rules.rulebook import BaseYearWarning
    with pytest.warns(BaseYearWarning, match="holds no record for the general election\\(s\\) of 2012"):
        a = reservation.allot("mayor", 2028, base_year=2012)
    assert a.meta["assumptions"][0].startswith("base year 2012: the mayor history holds no record for the general "
                                               "election(s) of 2012; rotation counts only 2017, 2023")
    assert not any("base year" in n for n in reservation.allot("mayor", 2028, base_year=2017).meta["assumptions"])
