"""The urban bodies of 2023: the reviewed list, its links to the Census towns, names and how bodies are named."""
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import reservation
from reservation.rules.urban_bodies import body_index, load_bodies

ROOT = Path(__file__).resolve().parents[1]
LIST = ROOT / "data" / "urban_bodies_2023.csv"
REVIEW = ROOT / "data" / "build" / "urban_lgd_review.csv"


@pytest.fixture(scope="module")
def bodies():
    return pd.read_csv(LIST, dtype={"census2011_town_code": str})


def test_shipped_list_is_what_the_build_script_gives():
    r = subprocess.run([sys.executable, str(ROOT / "data" / "build" / "build_urban_bodies.py"), "--check"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr


def test_counts_by_type_against_the_2023_notification(bodies):
    # 2023 notification: 17 Nagar Nigams, 199 Palika Parishads, 544 Nagar Panchayats (760 of 762 bodies)
    n = bodies["body_type_name"].value_counts()
    assert n["Nagar Nigam"] == 17 and n["Nagar Palika Parishad"] == 199
    # 518 LGD Nagar Panchayats after the review + 23 created by the cabinet decisions of 2021-22 that LGD 2020-22
    # does not list; 3 short of 544 (data/README.md says which are unknown)
    assert n["Nagar Panchayat"] == 541
    assert (bodies["code_source"] != "LGD").sum() == 23


def test_the_links_named_in_the_issue(bodies):
    by = bodies.set_index("unit_code")
    assert 297021 not in by.index and by.at[249248, "census2011_town_code"] == "800966"     # Kayamganj = Kaimganj
    assert by.at[274820, "census2011_town_code"] == "119761" and by.at[274820, "pop"] == 190005  # Khoda = Khora CT
    assert by.at[274820, "figures"] == "census_ct"
    assert 297074 not in by.index and by.at[249361, "census2011_town_code"] == "801079"     # Bharwari: one NPP
    assert 297052 not in by.index and by.at[299071, "census2011_town_code"] == "197190"     # Kurthi Jafarpur
    assert by.at[297069, "census2011_town_code"] == "209756"                                 # Lohta CT
    assert 297080 not in by.index and by.at[249388, "census2011_town_code"] == "801105"     # Rudauli: the NPP
    assert by.at[270654, "census2011_town_code"] == "197677"                                 # Walidpur CT
    assert by.at[249470, "body_type"] == 5                                                    # Bilariaganj NPP 2022


def test_every_review_decision_is_applied(bodies):
    review = pd.read_csv(REVIEW, dtype={"census2011_town_code": str})
    codes = set(bodies["unit_code"])
    by = bodies.set_index("unit_code")
    for _, r in review.iterrows():
        if r["action"] == "drop":
            assert r["ulb_lgd_code"] not in codes and int(r["same_as"]) in codes
        elif r["action"] == "link":
            assert by.at[r["ulb_lgd_code"], "census2011_town_code"] == r["census2011_town_code"]
            assert "reviewed" in by.at[r["ulb_lgd_code"], "review"]
        elif r["action"] == "unlink":
            assert pd.isna(by.at[r["ulb_lgd_code"], "census2011_town_code"])
        elif r["action"] == "district":
            assert by.at[r["ulb_lgd_code"], "district_en"] == r["district_en"]
        elif r["action"] == "rename":
            assert by.at[r["ulb_lgd_code"], "name_en"] == r["name_en"]
            assert f"LGD 2020-22 name: {r['ulb_name']}, given to this code" in by.at[r["ulb_lgd_code"], "note"]
            assert by.at[r["ulb_lgd_code"], "review"].startswith("name corrected (high): LGD's earlier list")
        assert isinstance(r["reason"], str) and r["confidence"] in ("high", "medium")


def test_figures_are_real_or_absent(bodies):
    assert bodies["census2011_town_code"].dropna().is_unique
    assert bodies["division_en"].notna().all() and bodies["unit_code"].is_unique
    none = bodies["figures"] == "none"
    assert bodies.loc[none, ["pop", "sc", "st"]].isna().all().all()
    assert bodies.loc[~none, "pop"].gt(0).all()
    towns = pd.read_csv(ROOT / "data" / "census2011_towns.csv", dtype={"census2011_town_code": str})
    t = towns.set_index("census2011_town_code")
    linked = bodies[bodies["census2011_town_code"].notna()]
    assert (linked["pop"].to_numpy() == t.loc[linked["census2011_town_code"], "tot_p"].to_numpy()).all()
    assert (linked["figures"] == linked["census2011_status"].map(lambda s: "census_ct" if s == "CT"
                                                                  else "census_town")).all()


def test_bodies_without_figures_say_so_in_the_allotment_table():
    a = reservation.allot("np-chair", 2023)
    t = a.table
    assert "figures" in t.columns
    none = t[t["figures"] == "none"]
    assert len(none) == 29 and set(none["unit_code"]) == set(a.extra["no_figures"]["unit_code"])
    assert set(t["figures"]) == {"census_town", "census_ct", "lgd_villages", "none"}


def test_lgd_district_qualifiers_are_not_names():
    # LGD 2020-22 swaps the qualifiers of namesakes: 'Gosainganj (Lucknow)' is the body in Ayodhya
    b, _ = load_bodies("np-chair")
    g = b[b["unit_name_en"] == "Gosainganj"].set_index("district")["unit_code"]
    assert dict(g) == {"Ayodhya": 249392, "Lucknow": 249235}
    assert not b["unit_name_en"].str.contains(r"\((?:Lucknow|Ayodhya|Bareilly)\)").any()


@pytest.mark.parametrize("name, code", [("Nawabganj, Bareilly", 249154), ("Nawabganj (Bareilly)", 249154),
                                        ("Nawabganj,Gonda", 249422), ("Tanda (Rampur)", 248940),
                                        ("Pratapgarh (Bela)", 249353), ("249154", 249154)])
def test_both_name_forms_resolve(name, code):
    bw = body_index(load_bodies("pp-chair")[0])
    assert bw.resolve(name) == code


@pytest.mark.parametrize("name, words", [("Nawabganj", r"ambiguous: Nawabganj \(Bareilly\) or Nawabganj \(Gonda\)"), ("Nawabganj, Agra", "in district 'Agra'"),
                                         ("Atlantis", "unknown urban body")])
def test_unknown_or_ambiguous_names_say_why(name, words):
    bw = body_index(load_bodies("pp-chair")[0])
    with pytest.raises(KeyError, match=words):
        bw.resolve(name)


def test_hindi_names_carry_their_source(bodies):
    hi = bodies[bodies["name_hi"].notna()]
    assert len(hi) > 0 and hi["name_hi_source"].notna().all()
    assert hi["name_hi"].map(lambda s: any("\u0900" <= c <= "\u097f" for c in s)).all()


# --- the 13 bodies whose LGD name names another district (issue 13 review) ----------------------------------------

def _qualifier_district(name: str):
    """The district an LGD name's parenthesis names ("Tanda(Rampur)" -> 176), or None."""
    import re
    from reservation.inputs.names import district_index
    m = re.fullmatch(r".*\(([^()]+)\)\s*", name)
    if not m:
        return None
    try:
        return district_index().resolve(m.group(1))
    except KeyError:
        return None                             # "(Maunath Bhanjan)", "(Suchittaganj)": not a district


def test_an_lgd_name_that_names_another_district_is_reviewed(bodies):
    """Every body whose LGD 2020-22 name names another district than its own has a reviewed 'rename' decision:
    the LGD name was a later edit, the code keeps its Census link (district and figures)."""
    from reservation.inputs.names import district_index
    lgd = pd.read_csv(ROOT / "data" / "ulbs_lgd.csv").set_index("ulb_lgd_code")
    review = pd.read_csv(REVIEW, dtype={"census2011_town_code": str}).set_index("ulb_lgd_code")
    towns = pd.read_csv(ROOT / "data" / "census2011_towns.csv", dtype={"census2011_town_code": str}).set_index(
        "census2011_town_code")
    wrong = []
    for b in bodies[bodies["code_source"] == "LGD"].itertuples():
        named = _qualifier_district(lgd.at[b.unit_code, "ulb_name"])
        if named is not None and named != district_index().resolve(b.district_en):
            wrong.append(b.unit_code)
            assert review.at[b.unit_code, "action"] == "rename", b
            assert towns.at[b.census2011_town_code, "current_district"] == b.district_en      # its own figures
            assert "(" not in b.name_en
    assert len(wrong) == 13
    renamed = set(review.index[review["action"] == "rename"])
    assert renamed == set(wrong) | {249251}       # and the Farrukhabad code named after the Mau town


@pytest.mark.parametrize("name, districts", [
    ("Tanda", {248940: "Rampur", 249396: "Ambedkar Nagar"}),
    ("Gosainganj", {249235: "Lucknow", 249392: "Ayodhya"}),
    ("Jalalabad", {248892: "Shamli", 248907: "Bijnor"}),
    ("Kursath", {249206: "Hardoi", 249216: "Unnao"}),
    ("Maharajganj", {249239: "Rae Bareli", 249469: "Azamgarh"}),
    ("Phulpur", {249368: "Prayagraj", 249480: "Azamgarh"}),
])
def test_each_pair_has_one_body_in_each_district(bodies, name, districts):
    b = bodies.set_index("unit_code")
    assert {c: b.at[c, "district_en"] for c in districts} == districts
    assert (b.loc[list(districts), "name_en"] == name).all()
    # no other body of either district bears the name
    same = bodies[(bodies["name_en"] == name) & bodies["district_en"].isin(districts.values())]
    assert set(same["unit_code"]) == set(districts)


def test_the_two_mohammadabads_carry_their_own_names(bodies):
    b = bodies.set_index("unit_code")
    assert (b.at[249490, "name_en"], b.at[249490, "district_en"], b.at[249490, "census2011_town_code"]) == (
        "Mohammadabad Gohna", "Mau", "801201")
    assert (b.at[249251, "name_en"], b.at[249251, "district_en"], b.at[249251, "census2011_town_code"]) == (
        "Mohammadabad", "Farrukhabad", "800970")
    # the SEC 2012 list: मुहम्मदाबाद गोहना a Nagar Panchayat of Mau, मोहम्मदाबाद one of Farrukhabad
    assert b.at[249490, "name_hi"] == "मुहम्मदाबाद गोहना" and b.at[249251, "name_hi"] == "मोहम्मदाबाद"


def test_faridpur_is_two_bodies_and_kurthi_jafarpur_one(bodies):
    b = bodies.set_index("unit_code")
    # Faridpur, Bareilly: a Palika Parishad (Census 800873, Faridpur tehsil) and a Nagar Panchayat (800854,
    # Baheri tehsil), both in the SEC 2012 list
    assert (b.at[249156, "body_type"], b.at[249156, "census2011_town_code"]) == (5, "800873")
    assert (b.at[249136, "body_type"], b.at[249136, "census2011_town_code"]) == (7, "800854")
    # Kurthi Jafarpur, Mau: one Census Town, two LGD codes; 297052 (no coverage) is the second code of 299071
    assert 297052 not in b.index and b.at[299071, "census2011_town_code"] == "197190"
    assert (bodies["name_en"].str.replace(" ", "").str.lower() == "kurthijafarpur").sum() == 1
