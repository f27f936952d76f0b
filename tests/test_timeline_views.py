"""The timeline of notebook 03 (issue 21 item 4): one unit's history with the next election's verdict, and a
block's gram panchayats' histories.

Hand-checked units (tests/test_history_cmd.py, read off the raw lists): gram panchayat Dogahra (LGD 76641,
Nautanwa, Maharajganj): 2005 OBC_W, 2010 UR, 2015 UR, no 2021 list; block Chinhat (1330, Lucknow): 2005 UR,
2010 SC_W, 2015 OBC. The block table is checked against the shipped history file read here directly, and its
verdicts against ``reservation history``'s own (one unit at a time) for the same gram panchayats.
"""
import numpy as np
import pandas as pd
import pytest

from reservation.base.paths import DATA_DIR
from reservation.history.unit_history import timeline
from reservation.history.unit_render import verdict_short
from reservation.law.categories import COLOURS
from reservation.law.words import category_label
from reservation.views.timeline import (UNKNOWN_COLOUR, block_gp_histories, block_of, unit_timeline)

DOGAHRA, CHINHAT = 76641, 1330


@pytest.fixture(scope="module")
def dogahra():
    return unit_timeline("gp-pradhan", "Dogahra, Nautanwa, Maharajganj")


@pytest.fixture(scope="module")
def shipped():
    return pd.read_csv(DATA_DIR / "history" / "gp-pradhan.csv.gz", dtype=str, keep_default_na=False)


def test_unit_timeline_of_a_gram_panchayat(dogahra):
    e = dogahra["elections"].set_index("year")
    assert e["category"].to_dict() == {1995: "", 2000: "", 2005: "OBC_W", 2010: "UR", 2015: "UR", 2021: ""}
    assert e.loc[2021, "category_label"] == "list not held" and e.loc[1995, "category_label"] == "list not held"
    assert e.loc[2005, "source"].startswith("data/history/gp-pradhan.csv.gz row ")
    v = dogahra["verdicts"]
    assert v["base_year"].tolist()[0] == 2015 and v["default"].tolist()[0]
    # 2015 UR and no 2021 list: tier 1 or 3, never a guess
    assert v.iloc[0]["SC"] == "1/3 unknown (no list of 2021)"
    assert "Dogahra" in dogahra["text"] or "डोगहरा" in dogahra["text"]


def test_unit_timeline_hindi():
    r = unit_timeline("gp-pradhan", "डोगहरा, नौतनवा, महराजगंज", lang="hi")
    e = r["elections"].set_index("year")
    assert e.loc[2021, "category_label"] == "सूची उपलब्ध नहीं"
    assert e.loc[2005, "category_label"] == category_label("OBC_W", "hi")
    assert "अनुसूचित जाति" in r["verdicts"].columns


def test_figure_colours_and_unknown(dogahra):
    known, unknown = dogahra["figure"].data
    assert list(known.x) == [2005, 2010, 2015]
    assert list(known.marker.color) == [COLOURS["OBC_W"], COLOURS["UR"], COLOURS["UR"]]
    assert list(unknown.x) == [1995, 2000, 2021] and unknown.marker.line.color == UNKNOWN_COLOUR
    assert unknown.marker.color == "white"          # a missing list is not drawn as unreserved


def test_block_timeline():
    r = unit_timeline("kp-chair", "Chinhat, Lucknow")
    e = r["elections"].set_index("year")
    assert {y: c for y, c in e["category"].items() if c} == {2005: "UR", 2010: "SC_W", 2015: "OBC"}
    assert r["verdicts"].iloc[0]["OBC"] == "2/3 unknown (no list of 2021)"
    assert block_of("kp-chair", "Chinhat, Lucknow") == CHINHAT
    assert block_of("zp-chair", "Lucknow") is None


def test_block_of_a_gram_panchayat():
    b = block_of("gp-pradhan", DOGAHRA)
    t = block_gp_histories(b)
    assert DOGAHRA in t["unit_code"].tolist() and b == block_of("kp-chair", "Nautanwa, Maharajganj")


def test_block_table_equals_the_shipped_history(shipped):
    t = block_gp_histories("Chinhat, Lucknow")
    assert t.attrs["block"] == CHINHAT and len(t) == 18    # 18 rows of block 1330 in data/gp_census2011.csv.gz
    rows = t.set_index("unit_code")
    for gp in rows.index[:2].tolist() + [rows.index[-1]]:
        mine = shipped[shipped["unit"] == str(gp)]
        want = {int(y): c for y, c in zip(mine["year"], mine["category"]) if c}
        got = {int(y): rows.loc[gp, str(y)] for y in (2005, 2010, 2015)}
        for y in (2005, 2010, 2015):
            assert got[y] == (category_label(want[y]) if y in want else "not in the list held"), (gp, y)
        assert rows.loc[gp, "2021"] == "list not held" and rows.loc[gp, "1995"] == "list not held"


def test_missing_lists_are_never_not_reserved(shipped):
    t = block_gp_histories("Nautanwa, Maharajganj")
    held = {(int(u), int(y)) for u, y, c in zip(shipped["unit"], shipped["year"], shipped["category"]) if c}
    ur = category_label("UR")
    for y in (1995, 2000, 2005, 2010, 2015, 2021):
        for u, cell in zip(t["unit_code"], t[str(y)]):
            if (int(u), y) not in held:
                assert cell != ur and cell in ("list not held", "not in the list held"), (u, y, cell)


def test_block_verdicts_equal_the_history_command():
    t = block_gp_histories("Chinhat, Lucknow").set_index("unit_code")
    for gp in t.index[:2].tolist():
        h = timeline("gp-pradhan", int(gp))
        for g in ("SC", "OBC", "GEN"):
            assert t.loc[gp, f"next_{g}"] == verdict_short(h.verdict(2015, g)), (gp, g)
    t95 = block_gp_histories("Chinhat, Lucknow", base_year=1995).set_index("unit_code")
    gp = t95.index[0]
    h = timeline("gp-pradhan", int(gp))
    assert t95.loc[gp, "next_OBC"] == verdict_short(h.verdict(1995, "OBC"))


def test_block_verdicts_come_from_the_engine(monkeypatch):
    from reservation.law.rotation import RotationView
    monkeypatch.setattr(RotationView, "tiers", lambda self, codes: np.full(len(self._codes), 2, dtype=np.int8))
    t = block_gp_histories(CHINHAT)
    assert set(t["next_SC"]) == {"2 not at the last"}


def test_block_table_hindi():
    t = block_gp_histories(CHINHAT, lang="hi")
    assert set(t["2021"]) == {"सूची उपलब्ध नहीं"}
    assert list(t.columns[:3]) == ["unit_code", "gram_panchayat", "gram_panchayat_hi"]


def test_notebook_view_for_a_block_and_without_a_unit():
    from reservation.views.timeline import timeline_view
    r = timeline_view("kp-chair", "Chinhat, Lucknow", base_year=2015)
    assert r["message"] == "" and r["figure"] is not None
    assert r["elections_hi"].set_index("year").loc[2010, "category"] == "SC_W"
    assert len(r["block"]) == len(r["block_hi"]) == 18
    empty = timeline_view("zp-chair", "")
    assert empty["figure"] is None and empty["block"].empty and empty["message"].startswith("No unit given")
    g = timeline_view("gp-pradhan", "", division="Nautanwa, Maharajganj")
    assert DOGAHRA in g["block"]["unit_code"].tolist()
    z = timeline_view("zp-chair", "Lucknow")
    assert z["block"].empty and z["message"].startswith("Gram panchayat histories")


def test_kp_chair_division_page_has_its_gram_panchayats_histories_beside_it(main, tmp_path, capsys):
    out = tmp_path / "kp"
    assert main(["report", "--body", "kp-chair", "--year", "2021", "--division", "Lucknow", "--out", str(out),
                 "--no-progress"]) == 0
    assert 'href="lucknow-gp_histories.csv"' in (out / "index.html").read_text(encoding="utf-8")
    gp = pd.read_csv(out / "lucknow-gp_histories.csv", encoding="utf-8-sig", dtype=str, keep_default_na=False)
    units = pd.read_csv(out / "lucknow-units.csv", encoding="utf-8-sig", dtype=str)
    assert set(gp["block_code"]) <= set(units["unit_code"]) and "1330" in set(gp["block_code"])
    mine = gp[gp["block_code"] == "1330"].drop(columns=["block_code", "block"]).reset_index(drop=True)
    want = block_gp_histories(CHINHAT).astype(str)
    assert mine.equals(want[mine.columns])
    assert set(gp["2021"]) == {"list not held"}


def test_blocks_computed_together_give_each_block_its_own_table():
    """A division's CSV computes the tiers of all its blocks' gram panchayats in one engine run per group (units
    are independent): each block's rows must be what the block alone gives. Chinhat (Lucknow) with Nautanwa
    (Maharajganj, no 2021 list there either, other missing years) and the blocks of Lucknow district."""
    from reservation.history.places import _blocks
    from reservation.views.timeline import gp_histories_of_blocks
    nautanwa = block_of("gp-pradhan", "Dogahra, Nautanwa, Maharajganj")
    blocks = _blocks()[0]
    lucknow = blocks.loc[blocks["district"] == "Lucknow", "unit_code"].astype(int).tolist()
    assert CHINHAT in lucknow and len(lucknow) > 3
    order = [nautanwa] + lucknow
    together = gp_histories_of_blocks(order + [CHINHAT])              # a block named twice is listed once
    assert list(dict.fromkeys(together["block_code"])) == order
    for b in order:
        mine = together[together["block_code"] == b].drop(columns=["block_code", "block"]).reset_index(drop=True)
        alone = block_gp_histories(b)
        assert mine.equals(alone), b
