"""Gram pradhans on LGD's gram panchayats without --units: the shipped partial figures (data/gp_census2011.csv.gz,
built by data/build/gp_census2011.py) and the statewide allotment on them (notes/gp-units.md)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reservation
from conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
sys.path.insert(0, str(DATA / "build"))


@pytest.fixture(scope="module")
def gps() -> pd.DataFrame:
    return pd.read_csv(DATA / "gp_census2011.csv.gz", dtype={"census_village_codes": str}, keep_default_na=False)


@pytest.fixture(scope="module")
def blocks() -> pd.DataFrame:
    return pd.read_csv(DATA / "blocks_census2011.csv").set_index("block_lgd_code")


@pytest.fixture(scope="module")
def statewide():
    return reservation.allot("gp-pradhan", 2021)


# ------------------------------------------------------------------------------------------------ the table
def test_the_build_rebuilds_the_shipped_table_byte_identically():
    import gp_census2011 as build
    shared = Path(os.environ.get("RESERVATION_SHARED", ROOT.parent / "shared"))
    if build.census_location() is None:
        pytest.skip("the Census repository WadhwaniAI/india-census-2011 is absent (--census / RESERVATION_CENSUS)")
    if not (shared / "data" / "reference" / "lgd_up_block_gp.csv").is_file():
        pytest.skip("SHARED/data/reference/lgd_up_block_gp.csv is absent (set RESERVATION_SHARED)")
    r = subprocess.run([sys.executable, str(DATA / "build" / "gp_census2011.py"), "--check"], cwd=ROOT,
                       capture_output=True, text=True, env={**os.environ, "RESERVATION_SHARED": str(shared)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "data/gp_census2011.csv.gz: identical" in r.stdout
    assert gzip.decompress((DATA / "gp_census2011.csv.gz").read_bytes())      # a gzip without a time stamp
    assert (DATA / "gp_census2011.csv.gz").read_bytes()[4:8] == b"\0\0\0\0"


def test_every_lgd_gram_panchayat_once_with_its_block(gps, blocks):
    assert len(gps) == 57695 and gps["gp_code"].is_unique
    per_block = gps.groupby("block_lgd_code").size()
    assert (per_block == blocks.loc[per_block.index, "lgd_gp_count"]).all()
    assert set(gps["figures"]) == {"name_match", "name_match_tehsil", "name_skeleton", "none"}
    none = gps["figures"] == "none"
    assert (gps.loc[none, ["villages", "pop", "sc", "st"]] == 0).all().all()
    assert (gps.loc[~none, "villages"] >= 1).all() and (gps.loc[~none, "pop"] >= 1).all()
    assert (gps["sc"] + gps["st"] <= gps["pop"]).all()
    codes = gps["census_village_codes"].str.split().explode().dropna()
    assert codes.is_unique                      # a village in one gram panchayat at most
    assert (gps.loc[~none, "census_village_codes"].str.split().str.len() == gps.loc[~none, "villages"]).all()


def test_a_blocks_gram_panchayats_never_exceed_its_census_figures(gps, blocks):
    s = gps.groupby("block_lgd_code")[["pop", "sc", "st"]].sum()
    b = blocks.loc[s.index]
    assert (s["pop"] <= b["tot_p_rural"]).all()
    # SC or ST above the block's in 5 blocks: the block figures place border villages otherwise (by Census code
    # order inside the tehsil) than the names do here; by a few persons, at most 171 ST (Kon, Mirzapur: 1403)
    over = (s["sc"] > b["sc_rural"]) | (s["st"] > b["st_rural"])
    assert sorted(s.index[over]) == [852, 905, 1399, 1403, 1594]
    excess = (s[["sc", "st"]].to_numpy() - b[["sc_rural", "st_rural"]].to_numpy()).clip(0)[over.to_numpy()]
    assert excess.max() <= 200
    covered = (s["pop"] / b["tot_p_rural"]).round(4)
    shipped = gps.drop_duplicates("block_lgd_code").set_index("block_lgd_code")["block_covered"].astype(float)
    assert np.allclose(covered, shipped.loc[covered.index])
    # the coverage data/README.md states: 45,918 gram panchayats, 106,790,988 of 150,846,507 rural people
    assert int((gps["figures"] != "none").sum()) == 45918
    assert int(s["pop"].sum()) == 106790988 and int(blocks["tot_p_rural"].sum()) == 150846507


# Hand-checked against the raw Census 2011 PCA village rows (WadhwaniAI/india-census-2011, pca/09_146.csv at
# bca8963: TOT_P, P_SC, P_ST of the village) and, for the last two, LGD's village-to-gram-panchayat table
# (in-rolls/quota_raj data/lgd/up_village_gp_mapping_2024.csv rows 1 and 5: Census village -> LGD local body).
HAND = {42727: ("Abhaudopura", 803, "name_match", "124838", 4362, 1489, 1),        # Achhnera, Agra
        42776: ("Abhaypura", 804, "name_match_tehsil", "124607", 3327, 1689, 0),    # Akola, Agra
        42905: ("Angoothi", 807, "name_skeleton", "124591", 3623, 846, 0)}          # village "Anguthi"


def test_hand_checked_gram_panchayats_against_the_census_village_rows(gps):
    t = gps.set_index("gp_code")
    for code, (name, block, rule, village, pop, sc, st) in HAND.items():
        r = t.loc[code]
        assert (r["gp_name"], r["block_lgd_code"], r["figures"], r["census_village_codes"]) == (name, block, rule,
                                                                                                 village)
        assert (r["pop"], r["sc"], r["st"]) == (pop, sc, st)


def test_every_sampled_village_but_one_is_placed_in_the_gram_panchayat_lgd_gives_it(gps):
    """766 rows of LGD's village-to-gram-panchayat table (Agra, Fatehpur, Pilibhit, Amroha, Shahjahanpur): precision
    of the matching. The one miss: the village Hasnapur (133133, 47 persons) of the gram panchayat Natthapur is
    given to the LGD gram panchayat Hasnapur (242765) of the next block, whose own village has another name."""
    sample = pd.read_csv(DATA / "build" / "village_gp_sample.csv", dtype=str, keep_default_na=False)
    ours = {v: int(gp) for gp, codes in zip(gps["gp_code"], gps["census_village_codes"]) for v in codes.split()}
    placed = sample[sample["village_census2011"].isin(ours)]
    assert len(placed) == 366
    wrong = placed[placed["village_census2011"].map(ours) != placed["lgd_gp_code"].replace("", "0").astype(int)]
    assert wrong["village_census2011"].tolist() == ["133133"], wrong


# ------------------------------------------------------------------------------------------------ the allotment
def test_statewide_allotment_without_units_says_what_every_row_rests_on(statewide):
    t = statewide.table
    assert len(t) == 57695 and t["unit_code"].is_unique
    assert set(t["figures"]) == {"partial", "none"}
    assert set(t.loc[t["figures"] == "partial", "figures_rule"]) == {"name_match", "name_match_tehsil",
                                                                   "name_skeleton"}
    meta = statewide.meta
    assert meta["assumptions"][0].startswith("NOT the State's list")
    assert meta["inputs"]["units"]["path"] == "data/gp_census2011.csv.gz"
    assert meta["inputs"]["history"][0]["path"] == "data/history/gp-pradhan.csv.gz"
    assert meta["history_years"] == [2015] and meta["base_year"] == 2015
    assert meta["parents"] == 826


def _counts_of_a_block_by_a_units_file(tmp_path, n, pop, sc, st) -> dict:
    """``reservation counts --units``: one block of ``n`` units whose figures add up to the block's Census figures
    (the first holds all but one person per other unit), so the law's arithmetic runs on the block's figures."""
    rows = [f"1,B,{pop - (n - 1)},{sc},{st}"] + [f"{i},B,1,0,0" for i in range(2, n + 1)]
    f = tmp_path / "block.csv"
    f.write_text("unit,parent,pop,sc,st\n" + "\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = run_cli(["counts", "--body", "gp-pradhan", "--year", "2021", "--units", str(f)])
    assert code == 0, err
    return {line.split(",")[0]: int(line.split(",")[1]) for line in out.strip().split("\n")[1:]}


@pytest.mark.parametrize("block", [803, 829, 891, 1033, 1569])      # 1569 Babhani: half ST
def test_each_blocks_counts_follow_the_law_on_its_census_figures(statewide, blocks, tmp_path, block):
    b = blocks.loc[block]
    t = statewide.table[statewide.table["block_lgd_code"] == block]
    n = len(t)
    assert n == b["lgd_gp_count"]
    want = _counts_of_a_block_by_a_units_file(tmp_path, n, int(b["tot_p_rural"]), int(b["sc_rural"]),
                                              int(b["st_rural"]))
    got = t["category"].value_counts()
    for code in ("ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC", "W", "UR"):
        assert int(got.get(code, 0)) == want[code], (code, block)
    # SC by hand: half-up of n x SC share (2 * remainder >= divisor)
    q, r = divmod(n * int(b["sc_rural"]), int(b["tot_p_rural"]))
    assert int(got.get("SC", 0) + got.get("SC_W", 0)) == q + (2 * r >= int(b["tot_p_rural"]))


def test_the_statewide_counts_are_the_sum_of_the_blocks(statewide):
    code, out, err = run_cli(["counts", "--body", "gp-pradhan", "--year", "2021"])
    assert code == 0, err
    counts = {line.split(",")[0]: int(line.split(",")[1]) for line in out.strip().split("\n")[1:]}
    got = statewide.table["category"].value_counts()
    assert counts["TOTAL"] == 57695
    assert all(counts[c] == int(got.get(c, 0)) for c in ("ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC", "W", "UR"))


def test_gram_panchayats_without_figures_rank_below_those_with_figures_in_their_tier(statewide):
    t = statewide.table
    sc = t[t["step"] == "SC_W+SC"].copy() if "step" in t else t.iloc[0:0]
    for (block, tier), g in sc.groupby(["block", "tier"]):
        if (g["figures"] == "none").any() and (g["figures"] == "partial").any():
            assert g.loc[g["figures"] == "none", "rank"].min() > g.loc[g["figures"] == "partial", "rank"].max()


def test_population_replaces_a_gram_panchayats_figures_not_its_blocks_counts(tmp_path, statewide):
    pop = tmp_path / "pop.csv"
    pop.write_text("unit,pop,sc,st\n42727,5000,4000,0\n", encoding="utf-8")
    a = reservation.allot("gp-pradhan", 2021, population=pop)
    row = a.table.set_index("unit_code").loc[42727]
    assert row["figures"] == "supplied" and row["figures_rule"] == ""
    block = a.table[a.table["block_lgd_code"] == 803]["category"].value_counts().sort_index()
    before = statewide.table[statewide.table["block_lgd_code"] == 803]["category"].value_counts().sort_index()
    assert block.equals(before)


def test_a_users_units_file_still_replaces_the_shipped_units(tmp_path):
    u = ROOT / "tests" / "fixtures" / "units" / "pradhan_toy.csv"
    a = reservation.allot("gp-pradhan", 2021, units=u)
    assert len(a.table) == 6 and set(a.table["figures"]) == {"supplied"}
    assert not a.meta["history_years"]             # the shipped history is of LGD's gram panchayats only
    assert not any(x.startswith("NOT the State's list") for x in a.meta["assumptions"])


def test_the_gzip_tables_ship_with_the_package():
    import tomllib
    with open(ROOT / "pyproject.toml", "rb") as f:
        data = tomllib.load(f)["tool"]["setuptools"]["package-data"]["reservation"]
    assert "data/*.csv.gz" in data and "data/history/*.csv.gz" in data
