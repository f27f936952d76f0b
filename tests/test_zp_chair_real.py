"""The real 2021 Zila Panchayat chair run on the shipped data."""
import csv
import subprocess
import sys

import pandas as pd
import pytest

import reservation
from reservation.inputs.units import DATA_DIR, load_districts
from reservation.inputs.names import crosswalk


@pytest.fixture(scope="module")
def run():
    return reservation.allot("zp-chair", 2021)


def test_every_district_appears_exactly_once_and_counts_hold(run):
    t = run.table
    assert len(t) == 75 and t["unit_code"].is_unique
    assert set(t["unit_code"]) == set(load_districts()["unit_code"])
    assert t["category"].value_counts().to_dict() == {"UR": 27, "OBC": 13, "W": 12, "SC": 10, "OBC_W": 7,
                                                      "SC_W": 6}


def test_required_columns_are_present_and_every_row_has_a_clause_and_reason(run):
    for c in ["unit_code", "unit_name_en", "unit_name_hi", "district", "division", "category", "tier", "rank",
              "clause", "reason"]:
        assert c in run.table.columns
    assert (run.table["clause"].str.len() > 10).all() and (run.table["reason"].str.len() > 10).all()


def test_2021_rotates_every_category_away_from_its_2015_holders(run):
    h = pd.read_csv(DATA_DIR / "history" / "zp-chair.csv").query("year == 2015")   # the file also holds 2021
    held = dict(zip(h["unit"], h["category"]))
    groups = {"SC": {"SC", "SC_W"}, "OBC": {"OBC", "OBC_W"}, "W": {"W"}}
    for u, cat in zip(run.table["unit_code"], run.table["category"]):
        for g, codes in groups.items():
            if cat in codes:
                assert held.get(u) not in codes, f"LGD {u} got {cat} after {held.get(u)} in 2015"


def test_lucknow_takes_sc_women_as_the_top_rural_sc_share(run):
    # Lucknow's rural SC share 38.51 % is the highest in the State (data/districts.csv sc_pct_rural) and it
    # held OBC_W, not SC, in 2015: first of tier 1, so the first SC women's office.
    row = run.table.set_index("unit_name_en").loc["Lucknow"]
    assert row["category"] == "SC_W" and row["rank"] == 1 and row["tier"] == 1
    d = pd.read_csv(DATA_DIR / "districts.csv")
    assert d.loc[d["sc_pct_rural"].idxmax(), "district_en"] == "Lucknow"


def test_same_input_gives_byte_identical_output(tmp_path):
    outs = []
    for i in range(2):
        out = tmp_path / f"r{i}" / "zp.csv"
        subprocess.run([sys.executable, "-m", "reservation.cli", "allot", "--body", "zp-chair", "--year", "2021",
                        "--out", str(out)], check=True, capture_output=True)
        outs.append((out.read_bytes(), out.with_name("zp.meta.json").read_bytes()))
    assert outs[0] == outs[1]


def test_all_74_districts_of_the_2015_file_resolve_through_the_crosswalk():
    cw = crosswalk()
    rows = list(csv.DictReader(open(DATA_DIR / "history" / "zp_adhyaksh_2015.csv", encoding="utf-8")))
    codes = [cw.resolve(r["district_hi"]) for r in rows]
    assert len(rows) == 74 and len(set(codes)) == 74
    shipped = pd.read_csv(DATA_DIR / "history" / "zp-chair.csv").query("year == 2015")   # 2021: the final list
    assert sorted(zip(codes, (r["category"] for r in rows))) == sorted(zip(shipped["unit"], shipped["category"]))


@pytest.mark.parametrize("name, code", [("Allahabad", 120), ("इलाहाबाद", 120), ("Faizabad", 140), ("फैजाबाद", 140),
                                        ("Jyotiba Phule Nagar", 154), ("Kanshiram Nagar", 633),
                                        ("Mahamaya Nagar", 163), ("Sant Ravidas Nagar", 179), ("भदोही", 179),
                                        ("आजमगढ़", 123), ("बांदा", 128), ("162", 162), ("lucknow", 162)])
def test_crosswalk_knows_renamed_districts_and_spelling_variants(name, code):
    assert crosswalk().resolve(name) == code


def test_hindi_with_precomposed_and_decomposed_nukta_resolves_the_same():
    precomposed = "\u0905\u0932\u0940\u0917\u095d"          # अलीगढ़ with U+095D (ढ़ as one code point)
    decomposed = "\u0905\u0932\u0940\u0917\u0922\u093c"    # the same with U+0922 U+093C
    assert precomposed != decomposed
    assert crosswalk().resolve(precomposed) == crosswalk().resolve(decomposed) == 119


def test_shared_2015_file_matches_the_shipped_copy(shared_data):
    assert (shared_data / "history" / "zp_adhyaksh_2015.csv").read_bytes() == \
        (DATA_DIR / "history" / "zp_adhyaksh_2015.csv").read_bytes()


@pytest.mark.parametrize("name", ["zp_adhyaksh_2021_final.csv", "zp_adhyaksh_2021_provisional.csv"])
def test_each_copied_published_list_is_the_shared_copy(shared_data, name):
    """The tests read the published 2021 lists from data/published (a clone needs no ../shared): each is the file
    of ../shared/data/published byte for byte. (The Mayors' lists are rebuilt from theirs with unit codes by
    data/build/mayor_published.py, which tests/test_readings_mayor.py checks.)"""
    src = shared_data / "published" / name
    if not src.is_file():
        pytest.skip(f"{src} is absent")
    assert src.read_bytes() == (DATA_DIR / "published" / name).read_bytes()


def test_supplied_obc_population_replaces_the_assumption(tmp_path):
    d = load_districts()
    pop = tmp_path / "pop.csv"
    # A made-up OBC column that ranks districts by LGD code: the OBC order must follow it, and the rows must
    # no longer say that the State share was assumed.
    lines = ["unit,obc"] + [f"{c},{int(r * (0.30 + (c % 50) / 200))}" for c, r in zip(d["unit_code"], d["pop_rural"])]
    pop.write_text("\n".join(lines) + "\n", encoding="utf-8")
    a = reservation.allot("zp-chair", 2021, population=pop)
    obc = a.table[a.table["category"].isin(["OBC", "OBC_W"])]
    assert len(obc) == 20 and not obc["reason"].str.contains("assumed").any()
    assert a.meta["assumptions"] == []


def test_pins_fix_units_and_the_rest_is_computed_around_them(tmp_path):
    pin = tmp_path / "pin.csv"
    pin.write_text("unit,category\nAgra,SC_W\nमेरठ,W\n", encoding="utf-8")
    a = reservation.allot("zp-chair", 2021, pins=pin)
    t = a.table.set_index("unit_name_en")
    assert t.loc["Agra", "category"] == "SC_W" and t.loc["Meerut", "category"] == "W"
    assert "pin" in t.loc["Agra", "clause"]
    assert a.table["category"].value_counts()["SC_W"] == 6 and a.table["category"].value_counts()["W"] == 12
