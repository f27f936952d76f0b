"""Valid input the rules cannot be applied to (issue 18): exit status 3, one line saying which count cannot be met
and by how much, no traceback, nothing written; from Python a RuleError.

- ``--option obc_above_state=FILE`` naming too few districts to take the OBC shortfall (block pramukhs);
- ``shortfall_fallback=error`` when no district is known to be above the State OBC share;
- a block table with no ST population at all, or a district whose blocks hold 0 persons;
- an impossible past list: a history whose 2021 list does not have the law's counts, given to ``project`` (and to
  ``report --projection``) for 2026.
"""
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from conftest import ROOT, OutFolder, assert_refused, run_cli
import reservation
from reservation.law.apportion import ApportionError, capped_shortfall, largest_remainder
from reservation.base.errors import InputError, RuleError
from reservation.projection.project import project

CAP = Fraction(206982, 1000000)


# ------------------------------------------------------------------------------------ the apportionment itself

def test_a_shortfall_the_groups_cannot_hold_says_how_many_posts_are_too_many():
    # A: 10 blocks at 30 %, B: 5 at 25 %, C: 10 at 10 %; cap 20.6982 % (floor): initial 2, 1, 1 = 4 of 20 posts.
    # The shortfall (16) goes only to A and B (above the State share), which hold 10 + 5 = 15 in all: 4 + 8 + 4
    # = 16 fit, 4 posts too many.
    g = pd.DataFrame({"group": ["A", "B", "C"], "posts_base": [10, 5, 10],
                      "share": [Fraction(3, 10), Fraction(1, 4), Fraction(1, 10)]})
    with pytest.raises(ApportionError) as e:
        capped_shortfall(20, g, cap=CAP, state_share=CAP, what="SC posts", group_word="district")
    assert str(e.value).startswith("20 SC posts to place but only 16 fit: the 2 district(s) that take the shortfall")
    assert str(e.value).endswith("; 4 SC posts too many")
    assert isinstance(e.value, RuleError) and isinstance(e.value, ValueError)      # exit 3; still a ValueError


def test_the_listed_groups_are_named_as_listed():
    # 4 blocks each at 20 %: formula 0.8 -> 1, cap 25 % -> 1: initial 1 + 1. Of the 4 short only A (listed) takes
    # any: 3 more, to its 4 blocks. 5 of 6 fit.
    g = pd.DataFrame({"group": ["A", "B"], "posts_base": [4, 4], "share": [Fraction(1, 5)] * 2})
    with pytest.raises(ApportionError, match=r"^6 posts to place but only 5 fit: the 1 group\(s\) listed as above "
                                             r"the State share \(option x\) .*; 1 posts too many$"):
        capped_shortfall(6, g, cap=Fraction(1, 4), state_share=Fraction(1, 5), eligible_order=["A"],
                         eligible_source="option x")


def test_largest_remainder_with_no_weight_says_so():
    with pytest.raises(ApportionError, match=r"^3 of the 3 ST posts cannot be placed in proportion: every "
                                             r"district has a weight of 0; 3 ST posts too many$"):
        largest_remainder(3, pd.Series(["X", "Y"]), pd.Series([0, 0]), what="ST posts", group_word="district")


# ------------------------------------------------------------------------------------ block pramukhs, 2021

@pytest.fixture(scope="module")
def districts_2021():
    """The district step of the 2021 defaults (every figure below is read from it, not typed)."""
    return reservation.allot("kp-chair", 2021).extra["districts"]


def test_obc_above_state_with_one_district_is_exit_3_with_the_count(tmp_path, districts_2021):
    """The 2021 OBC count is 223 (27 % of 826 blocks, integer part); the capped formula gives every district
    floor(27 % x blocks); the shortfall may go only to the districts listed, here Lucknow alone, which holds no
    more than its blocks left after ST, SC and its capped OBC posts."""
    d = districts_2021.set_index(["district", "category"])
    obc = districts_2021[districts_2021["category"] == "OBC"]
    capped = int(obc["initial"].sum())
    assert capped == sum(27 * int(b) // 100 for b in obc["blocks"]) == 189
    room = int(d.at[("Lucknow", "OBC"), "blocks"]) - sum(int(d.at[("Lucknow", g), "final"]) for g in ("ST", "SC"))
    room -= int(d.at[("Lucknow", "OBC"), "initial"])
    fit, short = capped + room, 223 - capped - room
    assert short > 0
    (tmp_path / "above.csv").write_text("unit\nLucknow\n", encoding="utf-8")
    folder = OutFolder(tmp_path)
    line = assert_refused(run_cli(["allot", "--body", "kp-chair", "--year", "2021", "--option",
                                   f"obc_above_state={tmp_path / 'above.csv'}", "--out", folder.target]), status=3,
                          words=[f"223 OBC posts to place but only {fit} fit", "the 1 district(s) listed",
                                 "(option obc_above_state)", f"{short} OBC posts too many"])
    assert line.startswith("reservation: cannot apply the rules: ") and str(tmp_path) not in line
    assert folder.unchanged()


def test_shortfall_fallback_error_is_exit_3_with_the_count(tmp_path, districts_2021):
    obc = districts_2021[districts_2021["category"] == "OBC"]
    short = 223 - int(obc["initial"].sum())
    assert short == 34                                   # test_backtest: 223 - 189 capped
    folder = OutFolder(tmp_path)
    assert_refused(run_cli(["allot", "--body", "kp-chair", "--year", "2021", "--option", "shortfall_fallback=error",
                            "--out", folder.target]), status=3,
                   words=[f"{short} of the 223 OBC posts are left", "no district has a share above the State share",
                          "shortfall_fallback=error"])
    assert folder.unchanged()


def _blocks(tmp_path, name, change, keep=None) -> Path:
    df = pd.read_csv(ROOT / "data" / "blocks_census2011.csv", dtype=str, keep_default_na=False)
    if keep is not None:
        df = df[keep(df)]
    df = change(df.copy())
    path = tmp_path / name
    df.to_csv(path, index=False)
    return path


def test_a_block_table_without_st_population_is_exit_3(tmp_path):
    """The State ST count comes from the Census shares of the whole State (5 of 826); a block table whose blocks
    have no ST person leaves those posts nowhere to go in proportion."""
    units = _blocks(tmp_path, "st0.csv", lambda df: df.assign(st_rural="0"))
    state_st = int(reservation.counts("kp-chair", 2021).set_index("category").loc[["ST", "ST_W"], "count"].sum())
    folder = OutFolder(tmp_path)
    assert_refused(run_cli(["allot", "--body", "kp-chair", "--year", "2021", "--units", units, "--history",
                            ROOT / "data" / "history" / "kp-chair.csv", "--out", folder.target]),
                   status=3, words=[f"{state_st} of the {state_st} ST posts cannot be placed in proportion",
                                    f"{state_st} ST posts too many"])
    assert folder.unchanged()


def test_a_district_of_zero_persons_is_exit_3_not_a_zero_division(tmp_path):
    def zero_agra(df):
        agra = df["district_en"] == "Agra"
        df.loc[agra, ["tot_p_rural", "sc_rural", "st_rural"]] = "0"
        return df
    units = _blocks(tmp_path, "agra0.csv", zero_agra)
    n = int((pd.read_csv(units)["district_en"] == "Agra").sum())
    (tmp_path / "h.csv").write_text("unit,year,category\n", encoding="utf-8")
    folder = OutFolder(tmp_path)
    assert_refused(run_cli(["allot", "--body", "kp-chair", "--year", "2021", "--units", units, "--history",
                            tmp_path / "h.csv", "--out", folder.target]), status=3,
                   words=[f"district Agra: its {n} block(s) have 0 persons in all"])
    assert folder.unchanged()


# ------------------------------------------------------------------------------------ an impossible past list

SHIPPED_ZP = pd.read_csv(ROOT / "data" / "history" / "zp-chair.csv", dtype=str)[
    ["unit", "year", "category"]]


def _zp_history(tmp_path, name, moves: int, to: str, frm: tuple) -> Path:
    """The shipped Zila Panchayat history with ``moves`` of its 2021 offices of the categories ``frm`` turned
    into ``to``."""
    h = SHIPPED_ZP.copy()
    pick = h.index[(h["year"] == "2021") & h["category"].isin(frm)][:moves]
    assert len(pick) == moves
    h.loc[pick, "category"] = to
    path = tmp_path / name
    h.to_csv(path, index=False)
    return path


def _published_2021(*codes) -> int:
    """Offices of these categories in the final 2021 list as published (data/published/)."""
    pub = pd.read_csv(ROOT / "data" / "published" / "zp_adhyaksh_2021_final.csv", dtype=str)
    return int(pub["category"].isin(codes).sum())


def test_the_shipped_2021_list_has_the_law_s_counts():
    h = SHIPPED_ZP[SHIPPED_ZP["year"] == "2021"]
    assert int(h["category"].isin(["SC", "SC_W"]).sum()) == _published_2021("SC", "SC_W") == 16
    assert int(h["category"].isin(["OBC", "OBC_W"]).sum()) == _published_2021("OBC", "OBC_W") == 20


@pytest.mark.parametrize("moves, to, frm, words", [
    (14, "SC", ("UR", "W", "OBC", "OBC_W"),
     "the 2021 list has 30 SC offices (SC and SC_W); the law's count is 16: 14 too many"),
    (8, "UR", ("SC",), "the 2021 list has 8 SC offices (SC and SC_W); the law's count is 16: 8 too few"),
    (3, "OBC", ("UR",), "the 2021 list has 23 OBC offices (OBC and OBC_W); the law's count is 20: 3 too many"),
])
def test_an_impossible_2021_list_is_exit_3_saying_which_count_and_by_how_much(tmp_path, moves, to, frm, words):
    history = _zp_history(tmp_path, "h.csv", moves, to, frm)
    folder = OutFolder(tmp_path)
    line = assert_refused(run_cli(["project", "--body", "zp-chair", "--year", "2026", "--history", history,
                                   "--samples", "2", "--out", folder.target]), status=3, words=[words])
    assert "unit_code" not in line and len(line) < 300          # never the table of pins
    assert folder.unchanged()
    with pytest.raises(RuleError, match="the 2021 list has") as e:
        project("zp-chair", 2026, history=history, samples=1, burn_in=0, progress=False)
    assert not isinstance(e.value, InputError)


def test_an_impossible_2021_list_is_still_rotation_history_for_an_allotment(tmp_path):
    """An allotment of 2026 reads the 2021 list only as who held what (rotation): the 2026 counts do not depend
    on it, so allot and explain run (only a projection reproduces the list itself)."""
    history = _zp_history(tmp_path, "h.csv", 14, "SC", ("UR", "W", "OBC", "OBC_W"))
    code, _, err = run_cli(["allot", "--body", "zp-chair", "--year", "2026", "--history", history, "--out",
                            tmp_path / "a.csv"])
    assert code == 0, err
    code, out, err = run_cli(["explain", "--body", "zp-chair", "--year", "2026", "--history", history, "--unit",
                              "Agra"])
    assert code == 0 and "2021: SC" in out, err


def test_report_projection_with_an_impossible_2021_list_is_exit_3(tmp_path):
    history = _zp_history(tmp_path, "h.csv", 14, "SC", ("UR", "W", "OBC", "OBC_W"))
    before = sorted(p.name for p in tmp_path.iterdir())
    assert_refused(run_cli(["report", "--body", "zp-chair", "--year", "2026", "--history", history, "--no-progress",
                            "--out", tmp_path / "rep", "--projection"]), status=3,
                   words=["--projection: zp-chair 2026 cannot be projected: the 2021 list has 30 SC offices"])
    assert sorted(p.name for p in tmp_path.iterdir()) == before


# ------------------------------------------------------------------------------------ units files and projections

@pytest.mark.parametrize("body, word", [("gp-ward", "gram panchayat"), ("gp-pradhan", "block")])
def test_a_counting_unit_with_more_reserved_offices_than_posts_is_exit_3(tmp_path, body, word):
    """One unit of 10 persons, 5 SC and 5 ST: SC 1 x 1/2 = 0.5 -> 1 and ST 0.5 -> 1 (half-up), 2 offices reserved
    where there is 1 post."""
    units = tmp_path / "u.csv"
    units.write_text("unit,parent,pop,sc,st\n1,G1,10,5,5\n", encoding="utf-8")
    folder = OutFolder(tmp_path)
    for argv in (["allot", "--out", folder.target], ["counts", "--arithmetic"]):
        assert_refused(run_cli([argv[0], "--body", body, "--year", "2021", "--units", units, *argv[1:]]), status=3,
                       words=[f"{word} 'G1': 2 offices reserved for ST, SC and OBC but 1 post(s) in all: 1 too many"])
    assert folder.unchanged()


@pytest.mark.parametrize("body", ["gp-pradhan", "gp-ward", "kp-ward", "zp-ward"])
def test_a_units_file_with_a_header_only_is_one_line_exit_2(tmp_path, body):
    units = tmp_path / "u.csv"
    units.write_text("unit,parent,pop,sc,st\n", encoding="utf-8")
    folder = OutFolder(tmp_path)
    assert_refused(run_cli(["allot", "--body", body, "--year", "2021", "--units", units, "--out", folder.target]),
                   file=units, row=2, words=["no unit"])
    assert folder.unchanged()


def test_a_projection_whose_past_list_ranks_a_district_of_no_persons_is_exit_3(tmp_path):
    """The 2021 list constrains the OBC shares of the districts its OBC passes rank; a share of 0 persons is not
    defined (the allotment itself runs: a district of 0 persons ranks last)."""
    pop = tmp_path / "pop.csv"
    pop.write_text("unit,pop,sc,st\nAgra,0,0,0\n", encoding="utf-8")
    folder = OutFolder(tmp_path)
    assert_refused(run_cli(["project", "--body", "zp-chair", "--year", "2026", "--population", pop, "--samples", "2",
                            "--out", folder.target]), status=3,
                   words=["1 unit(s) it ranks by a share have 0 persons (Agra)"])
    assert folder.unchanged()
