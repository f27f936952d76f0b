"""Scenario diffs: two readings, two histories, two published lists, and the rotation-base explanation, on
hand-checked toy states (tests/fixtures/audit/README.md, tests/fixtures/toy/README.md) and on the two published
2021 Zila Panchayat chair lists."""
import json
from pathlib import Path

import pandas as pd
import pytest

from reservation.cli.commands import main
from reservation.auditing.scenarios import DIFF_COLUMNS, Scenario, diff, explain_base_year

AUDIT = Path(__file__).resolve().parent / "fixtures" / "audit"
TOY = Path(__file__).resolve().parent / "fixtures" / "toy"
NINE_HISTORY = [AUDIT / "nine_history_2015.csv"]


def changes(result) -> dict:
    return {n: (a, b, s) for n, a, b, s in zip(result.table["unit_name_en"], result.table["a"], result.table["b"],
                                                result.table["step"])}


def test_division_rule_on_and_off():
    """saturation.csv: with the rule, Elm (least populous of South) is freed and unreserved: Dogwood SC_W, Ash SC,
    OBC over Birch and Cedar (equal assumed shares, code order): Birch OBC_W. Without it Dogwood SC_W, Elm SC, Ash
    OBC_W. Three units change: Ash and Elm first in the SC pass, Birch in the OBC pass; the counts are the same."""
    r = diff("zp-chair", 2021, Scenario(options=("division_saturation=on",), history=[]),
             Scenario(options=("division_saturation=off",), history=[]), units=TOY / "saturation.csv")
    assert list(r.table.columns) == DIFF_COLUMNS
    assert changes(r) == {"Ash": ("SC", "OBC_W", "SC_W+SC"), "Elm": ("UR", "SC", "SC_W+SC"),
                          "Birch": ("OBC_W", "UR", "OBC_W+OBC")}
    assert (r.summary["change"] == 0).all()
    assert "allotment item 1" in r.table["clause"].iat[0]


def test_no_history_against_the_2015_history():
    """nine.csv without a history: SC to the top three (Ash SC_W, Birch SC, Cedar SC), OBC over the rest by code
    (Dogwood OBC_W, Elm OBC), W by the population outside SC/ST/OBC (Fir 196.7, Gum 216.7, Hazel 266.7, Ivy 316.7:
    Ivy). With the 2015 history: Ash SC_W, Cedar SC, Dogwood SC, Birch OBC_W, Fir OBC, Hazel W. Six units change:
    Birch and Dogwood first in the SC pass, Elm and Fir in the OBC pass, Hazel and Ivy in the women's pass."""
    r = diff("zp-chair", 2021, Scenario(history=[]), Scenario(history=NINE_HISTORY), units=AUDIT / "nine.csv")
    assert changes(r) == {"Birch": ("SC", "OBC_W", "SC_W+SC"), "Dogwood": ("OBC_W", "SC", "SC_W+SC"),
                          "Elm": ("OBC", "UR", "OBC_W+OBC"), "Fir": ("UR", "OBC", "OBC_W+OBC"),
                          "Hazel": ("UR", "W", "W"), "Ivy": ("W", "UR", "W")}
    assert dict(zip(r.steps["step"], r.steps["units"])) == {"ST_W+ST": 0, "SC_W+SC": 2, "OBC_W+OBC": 2, "W": 2,
                                                             "UR": 0}


def test_two_published_lists():
    """nine_match.csv and nine_women.csv differ in the SC women's post only: Ash SC_W -> SC, Dogwood SC -> SC_W."""
    r = diff("zp-chair", 2021, Scenario(published=AUDIT / "nine_match.csv"),
             Scenario(published=AUDIT / "nine_women.csv"), units=AUDIT / "nine.csv", history=NINE_HISTORY,
             explain=False)
    assert changes(r) == {"Ash": ("SC_W", "SC", "SC_W+SC"), "Dogwood": ("SC", "SC_W", "SC_W+SC")}
    assert r.table["rule_a"].str.startswith("published list").all()


def test_rotation_base_explains_a_women_swap(tmp_path):
    """A 'provisional' list made on base 1995 with a history in which Hazel held W in 2005: the women's post goes to
    the next tier-1 district, Gum (216.7; Ivy tier 3), instead of Hazel. The final list (nine_match.csv, base 2015)
    gives Hazel W. Only Hazel and Gum change, in the women's pass. The explanation needs Hazel to have held W in an
    election of 1995-2010; with it, each list is lawful on its own base with one set of OBC figures (Hazel >= Gum >=
    Elm outside SC/ST/OBC); on one base the two need Gum >= Hazel and Hazel >= Gum, a tie: impossible when ties are
    refused."""
    prov = tmp_path / "prov.csv"
    prov.write_text((AUDIT / "nine_match.csv").read_text(encoding="utf-8").replace("Hazel,W", "Hazel,UR")
                    .replace("Gum,UR", "Gum,W"), encoding="utf-8")
    e = explain_base_year("zp-chair", 2021, prov, AUDIT / "nine_match.csv", a_base_year=1995, b_base_year=2015,
                          units=AUDIT / "nine.csv", history=NINE_HISTORY)
    t = e["table"].set_index("unit_name_en")
    assert set(t.index) == {"Hazel", "Gum"}
    assert (t.loc["Hazel", "tier_b_base"], t.loc["Hazel", "tier_a_base"]) == (1, 2)
    assert (t.loc["Gum", "tier_b_base"], t.loc["Gum", "tier_a_base"]) == (1, 1)
    assert e["summary"]["implied_history"] == ["Hazel: W in an election of 1995-2010"]
    assert e["summary"]["changed_by_step"] == {"W": 2}
    assert e["summary"]["one_figure_set_own_bases"] is True
    assert e["summary"]["one_figure_set_same_base"] is False


def test_cli_diff_options(tmp_path, capsys):
    out = tmp_path / "d" / "diff.csv"
    code = main(["diff", "--body", "zp-chair", "--year", "2021", "--units", str(TOY / "saturation.csv"),
                 "--a-history", str(TOY / "five_history_2015.csv"), "--b-history", str(TOY / "five_history_2015.csv"),
                 "--a", "division_saturation=on", "--b", "division_saturation=off", "--out", str(out)])
    cap = capsys.readouterr()
    assert code == 2 and "five_history_2015.csv" in cap.err          # a history of other districts: bad input
    assert not (tmp_path / "d").exists()
    none = tmp_path / "none.csv"
    none.write_text("unit,year,category\n", encoding="utf-8")
    code = main(["diff", "--body", "zp-chair", "--year", "2021", "--units", str(TOY / "saturation.csv"),
                 "--history", str(none), "--a", "division_saturation=on", "--b", "division_saturation=off",
                 "tie_break=code", "--out", str(out)])
    assert code == 0 and "step SC_W+SC: 2" in capsys.readouterr().out
    t = pd.read_csv(out)
    assert set(t["unit_name_en"]) == {"Ash", "Elm", "Birch"}
    meta = json.loads((tmp_path / "d" / "diff.meta.json").read_text(encoding="utf-8"))
    assert meta["b"]["options"] == ["division_saturation=off", "tie_break=code"] and meta["changed"] == 3


@pytest.fixture(scope="module")
def lists():
    from tests.conftest import PUBLISHED
    return PUBLISHED / "zp_adhyaksh_2021_provisional.csv", PUBLISHED / "zp_adhyaksh_2021_final.csv"


def test_provisional_and_final_2021_lists(lists, capsys):
    """The two 2021 lists: SC and OBC identical, 16 districts swap W and UR. The eight that the final list (base
    2015) makes W and the provisional list (base 1995) leaves UR were not W in 2015: lawful in the provisional list only
    if each held W in an election of 1995-2010. Each list is then lawful on its own base with one set of OBC figures;
    on one base the two women's lists cannot both hold (ties refused)."""
    p, f = lists
    code = main(["diff", "--body", "zp-chair", "--year", "2021", "--a-published", str(p), "--a-base-year", "1995",
                 "--b-published", str(f), "--b-base-year", "2015", "--format", "json"])
    cap = capsys.readouterr()
    assert code == 0
    got = json.loads(cap.out)
    assert len(got["rows"]) == 16 and {r["step"] for r in got["rows"]} == {"W"}
    assert {(r["a"], r["b"]) for r in got["rows"]} == {("W", "UR"), ("UR", "W")}
    assert dict((s["step"], s["units"]) for s in got["steps"]) == {"ST_W+ST": 0, "SC_W+SC": 0, "OBC_W+OBC": 0,
                                                                  "W": 16, "UR": 0}
    ex = got["base_year_explanation"]
    implied = sorted(x.split(":")[0] for x in ex["implied_history"])
    assert implied == ["Agra", "Aligarh", "Balrampur", "Bulandshahr", "Moradabad", "Shahjahanpur", "Siddharthnagar",
                       "Sultanpur"]
    assert ex["one_figure_set_own_bases"] is True and ex["one_figure_set_same_base"] is False
    assert "impossible (ties refused)" in cap.err
