"""Urban chairs under the 2023 law: toy state checked on paper, Mayors, real data, bad input."""
import pandas as pd
import pytest

from conftest import FIXTURES
from reservation.cli.commands import main
import reservation
import reservation.rules.registry
from reservation.rules.urban import urban_counts
from reservation.rules.urban_bodies import load_bodies

TOY = FIXTURES / "urban" / "toy_npp.csv"


@pytest.fixture(scope="module")
def toy():
    # the paper case was worked with general women = one-third of all offices minus the category women
    return reservation.allot("pp-chair", 2023, units=TOY, options=[("general_women", "total_minus_category")])


def test_toy_state_allotment_matches_the_paper(toy):
    got = dict(zip(toy.table["unit_name_en"], toy.table["category"]))
    assert got == {"A1": "SC_W", "A2": "SC", "A3": "OBC_W", "A4": "UR", "B1": "OBC_W", "B2": "UR", "B3": "W",
                   "B4": "UR", "C1": "OBC_W", "C2": "UR", "C3": "W", "C4": "UR"}


def test_toy_division_step_cap_binds_and_remainder_takes_two_rounds(toy):
    d = toy.extra["divisions"]
    sc = d[d["category"] == "SC"].set_index("division")
    assert sc.at["Agra", "formula"] == "1.2000" and sc.at["Agra", "cap"] == "0.6667"
    assert list(sc["initial"]) == [0, 0, 0]
    assert sc.at["Agra", "shortfall_rounds"] == "1,2" and sc.at["Agra", "final"] == 2
    assert sc["final"].sum() == 2
    obc = d[d["category"] == "OBC"]
    assert list(obc["final"]) == [1, 1, 1] and list(obc["shortfall_posts"]) == [0, 0, 0]


def test_mayors_2023_counts_are_the_published_ones():
    # docs/urban.md: SC-W 1, SC 1, OBC-W 2, OBC 2, W 3, UR 8 of 17 (Dec 2022 and Mar 2023 lists)
    c = urban_counts("mayor", 2023, reservation.rules.registry.get_rulebook("mayor").option_set(), load_bodies("mayor")[0])
    assert dict(zip(c["category"], c["count"])) == {"ST_W": 0, "ST": 0, "SC_W": 1, "SC": 1, "OBC_W": 2, "OBC": 2,
                                                    "W": 3, "UR": 8, "TOTAL": 17}


@pytest.mark.parametrize("body, n", [("pp-chair", 199), ("np-chair", 541), ("mayor", 17)])
def test_real_run_every_body_once_and_division_counts_add_up(body, n):
    a = reservation.allot(body, 2023)
    t = a.table
    assert len(t) == n and t["unit_code"].is_unique
    assert {"body_type", "pop_source"} <= set(t.columns)
    state = dict(zip(a.counts["category"], a.counts["count"]))
    got = t["category"].value_counts()
    assert all(int(got.get(c, 0)) == state[c] for c in got.index)
    if body != "mayor":
        d = a.extra["divisions"]
        for grp in ("SC", "ST", "OBC"):
            x = d[d["category"] == grp]
            total = urban_counts(body, 2023, reservation.rules.registry.get_rulebook(body).option_set(), load_bodies(body)[0]).set_index("category")["count"]
            assert x["final"].sum() == total[grp] + total[f"{grp}_W"]
            assert (x["initial"] <= x["cap"].astype(float).astype(int)).all()


def test_bodies_without_census_figures_are_listed_with_their_source_not_dropped():
    bodies, notes = load_bodies("np-chair")
    assert bodies["pop_source"].str.startswith("estimate").any()
    assert any("urban_bodies_2023.csv" in x for x in notes)      # the reviewed list (tests/test_urban_bodies.py)
    a = reservation.allot("np-chair", 2023)
    none = a.table[a.table["pop_source"].str.startswith("none")]
    assert len(none) == len(a.extra.get("no_figures", []))


def test_divisions_command(capsys):
    assert main(["divisions", "--body", "pp-chair", "--year", "2023"]) == 0
    out = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out))
    assert out["division"].nunique() == 18 and {"cap", "shortfall_rounds", "women"} <= set(out.columns)
    assert main(["divisions", "--body", "zp-chair", "--year", "2021"]) == 2


@pytest.mark.parametrize("row, problem", [("31,X,NPP,Atlantis,100,1,0,50", "Atlantis"),
                                          ("31,X,Cantonment Board,Agra,100,1,0,50", "not in the law")])
def test_bad_body_list(tmp_path, capsys, row, problem):
    p = tmp_path / "b.csv"
    p.write_text(TOY.read_text() + row + "\n", encoding="utf-8")
    assert main(["allot", "--body", "pp-chair", "--year", "2023", "--units", str(p), "--out",
                 str(tmp_path / "o" / "x.csv")]) == 2
    err = capsys.readouterr().err
    assert problem in err and "row 14" in err and not (tmp_path / "o").exists()


def test_explain_an_urban_body(capsys):
    assert main(["explain", "--body", "pp-chair", "--year", "2023", "--unit", "A1", "--units", str(TOY)]) == 0
    out = capsys.readouterr().out
    assert "SC_W" in out and "s.9-A(5)(1)(d)(i)" in out


def test_real_women_pass_ranks_by_the_census_share_of_women():
    a = reservation.allot("pp-chair", 2023)
    w = a.table[a.table["category"] == "W"]
    assert len(w) > 0 and w["reason"].str.contains("share of women").all()
    assert w["key"].nunique() > len(w) // 2          # real female shares, not one assumed figure
