"""Build data/urban_bodies_2023.csv: the urban bodies of the 2023 election as far as public sources name them.

Run from the repository root:  python data/build/build_urban_bodies.py [--check]
Standard library and pandas only; reads only files in data/ and data/build/; writes one file atomically
(``--check`` writes nothing and exits 1 if the shipped file differs from what the inputs give).

Inputs
- data/ulbs_lgd.csv (LGD 2020-22 urban bodies, with the Census 2011 town link of the compilation);
- data/census2011_towns.csv and data/census2011_towns_female.csv (Census 2011 town figures);
- data/districts.csv (district -> division);
- data/build/urban_lgd_review.csv: one reviewed decision per LGD row that needed one (a Census town link
  found by matching names within the district, a second LGD code for one body, a wrong district, a type
  changed before 2023), each with its reason and confidence;
- data/build/urban_added_bodies.csv: bodies the State created after the LGD snapshot, named by the press
  reports of the cabinet decisions (code 99xxxx: a project code, not an LGD code);
- data/build/urban_names_hi.csv (optional): Hindi names with their source.

Figures (column ``figures``): ``census_town`` (a statutory town of Census 2011), ``census_ct`` (a Census Town,
governed by a gram panchayat in 2011, that became the body), ``lgd_villages`` (the Census totals of the villages
LGD lists as the body's coverage: an estimate) or ``none``. Nothing is invented: a body without figures has
blank pop/sc/st.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import unicodedata
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
BUILD = DATA / "build"
OUT = DATA / "urban_bodies_2023.csv"
TYPE_NAME = {4: "Nagar Nigam", 5: "Nagar Palika Parishad", 7: "Nagar Panchayat"}
COLUMNS = ["unit_code", "code_source", "name_en", "name_hi", "name_hi_source", "body_type", "body_type_name",
           "district_en", "division_en", "figures", "census2011_town_code", "census2011_town_name",
           "census2011_status", "pop", "sc", "st", "women", "list_source", "review", "note"]


def _nfc(s) -> str:
    return unicodedata.normalize("NFC", str(s)) if isinstance(s, str) else ""


def _is_devanagari(s: str) -> bool:
    return any("\u0900" <= ch <= "\u097f" for ch in s)


def _name_en(x: str) -> str:
    x = _nfc(x).strip()
    return x.title() if (x.isupper() or x.islower()) else x


#: spellings of district names that LGD appends to a body's name in parentheses ("Nawabganj(Bareilly)")
DISTRICT_QUALIFIERS = {"raibareilly": "Rae Bareli", "gazipur": "Ghazipur", "ambekar nagar": "Ambedkar Nagar",
                       "shahjhanpur": "Shahjahanpur", "badaun": "Budaun", "prayagraj": "Prayagraj"}


def _split_qualifier(name: str, districts: set[str]) -> tuple[str, str]:
    """``"Nawabganj(Bareilly)" -> ("Nawabganj", "Bareilly")``: LGD distinguishes bodies of the same name by a
    district in parentheses, and in the 2020-22 dump these qualifiers are often those of the namesake (Gosainganj
    (Lucknow) is the body in Ayodhya). A qualifier that names a district is therefore dropped from the name
    (the district column is the body's own, from its Census location or coverage); other parentheses
    (Pt Deen Dayal Nagar (Mughalsarai), Mau (Maunath Bhanjan)) are kept."""
    m = re.fullmatch(r"(.*?)\s*\(\s*(.*?)\s*\)\s*", name)
    if not m:
        return name, ""
    q = m.group(2)
    lower = {d.lower(): d for d in districts}
    if q.lower() in lower or q.lower() in DISTRICT_QUALIFIERS:
        return m.group(1).strip(), q
    return f"{m.group(1).strip()} ({q})", ""


def build() -> pd.DataFrame:
    u = pd.read_csv(DATA / "ulbs_lgd.csv", dtype={"census2011_town_code": str, "ulb_lgd_code": int})
    towns = pd.read_csv(DATA / "census2011_towns.csv", dtype={"census2011_town_code": str}).set_index(
        "census2011_town_code")
    female = pd.read_csv(DATA / "census2011_towns_female.csv", dtype={"census2011_town_code": str}).set_index(
        "census2011_town_code")
    dist = pd.read_csv(DATA / "districts.csv")
    division_of = dict(zip(dist["district_en"], dist["division_en"]))
    review = pd.read_csv(BUILD / "urban_lgd_review.csv", dtype={"census2011_town_code": str, "same_as": "Int64"})
    added = pd.read_csv(BUILD / "urban_added_bodies.csv", dtype=str, keep_default_na=False)
    names_path = BUILD / "urban_names_hi.csv"
    names = (pd.read_csv(names_path, dtype={"unit_code": int}, keep_default_na=False).set_index("unit_code")
             if names_path.is_file() else None)

    assert review["ulb_lgd_code"].is_unique, "one decision per LGD row"
    unknown = set(review["ulb_lgd_code"]) - set(u["ulb_lgd_code"])
    assert not unknown, f"review names LGD codes that are not in data/ulbs_lgd.csv: {sorted(unknown)}"
    rv = review.set_index("ulb_lgd_code")

    u = u[u["lgd_type_code"].isin(TYPE_NAME)]
    u = u[~u["note"].fillna("").str.startswith("suspect LGD row")]          # JHUSI, NAINI, Phaphamau
    rows = []
    for _, r in u.iterrows():
        code = int(r["ulb_lgd_code"])
        d = rv.loc[code] if code in rv.index else None
        action = d["action"] if d is not None else ""
        if action == "drop":
            assert int(d["same_as"]) in set(u["ulb_lgd_code"]), f"{code}: same_as is not an LGD body"
            continue
        btype = int(r["lgd_type_code"])
        district = r["district_en"] if isinstance(r["district_en"], str) else ""
        review_txt = ""
        tcode = r["census2011_town_code"] if isinstance(r["census2011_town_code"], str) else ""
        if action == "link":
            assert not tcode, f"{code}: already linked to {tcode}"
            tcode = d["census2011_town_code"]
            review_txt = f"Census link reviewed ({d['confidence']}): {d['reason']}"
        elif action == "unlink":
            tcode = ""
            review_txt = f"Census link removed ({d['confidence']}): {d['reason']}"
        elif action == "district":
            district = d["district_en"]
            review_txt = f"district corrected ({d['confidence']}): {d['reason']}"
        elif action == "retype":
            btype = 5 if btype == 7 else btype
            review_txt = f"type changed ({d['confidence']}): {d['reason']}"
        elif action:
            raise ValueError(f"{code}: unknown action {action!r}")
        if not district:
            raise ValueError(f"{code} {r['ulb_name']}: no district and no review decision")
        local = _nfc(r["ulb_name_local"])
        name, qualifier = _split_qualifier(_name_en(r["ulb_name"]), set(division_of))
        note = _nfc(r["note"]) if isinstance(r["note"], str) else ""
        if qualifier:
            note = "; ".join(x for x in (note, f"LGD name: {_nfc(r['ulb_name'])}") if x)
        row = {"unit_code": code, "code_source": "LGD", "name_en": name,
               "name_hi": local if _is_devanagari(local) else "",
               "name_hi_source": "LGD local name" if _is_devanagari(local) else "",
               "body_type": btype, "district_en": district, "list_source": "LGD 2020-22",
               "review": review_txt, "note": note}
        if tcode:
            t = towns.loc[tcode]
            assert t["current_district"] == district or action == "district", f"{code}: town {tcode} is elsewhere"
            row.update({"figures": "census_ct" if t["census_status"] == "CT" else "census_town",
                        "census2011_town_code": tcode, "census2011_town_name": t["town_name"],
                        "census2011_status": t["census_status"], "pop": int(t["tot_p"]), "sc": int(t["sc"]),
                        "st": int(t["st"]), "women": int(female.at[tcode, "tot_f"])})
        elif r["coverage_villages_census2011_tot_p"] > 0:
            row.update({"figures": "lgd_villages", "pop": int(r["coverage_villages_census2011_tot_p"]),
                        "sc": int(r["coverage_villages_census2011_sc"]),
                        "st": int(r["coverage_villages_census2011_st"])})
        else:
            row["figures"] = "none"
        rows.append(row)
    for _, a in added.iterrows():
        assert a["district_en"] in division_of, a["district_en"]
        rows.append({"unit_code": int(a["unit_code"]), "code_source": "project (not in LGD 2020-22)",
                     "name_en": a["name_en"], "name_hi": _nfc(a["name_hi"]),
                     "name_hi_source": "press report of the cabinet decision" if a["name_hi"] else "",
                     "body_type": int(a["body_type"]), "district_en": a["district_en"], "figures": "none",
                     "list_source": f"cabinet decision {a['decided']} ({a['source']})", "review": "",
                     "note": a["note"]})
    df = pd.DataFrame(rows)
    if names is not None:
        for code, nr in names.iterrows():
            if code in set(df["unit_code"]) and nr["name_hi"]:
                i = df.index[df["unit_code"] == code][0]
                if not df.at[i, "name_hi"]:
                    df.at[i, "name_hi"], df.at[i, "name_hi_source"] = _nfc(nr["name_hi"]), nr["source"]
    df["body_type_name"] = df["body_type"].map(TYPE_NAME)
    df["division_en"] = df["district_en"].map(division_of)
    assert df["division_en"].notna().all() and df["unit_code"].is_unique
    linked = df["census2011_town_code"].dropna()
    assert linked.is_unique, f"a Census town linked twice: {linked[linked.duplicated()].tolist()}"
    for c in ("pop", "sc", "st", "women"):
        df[c] = df[c].astype("Int64")
    return df.sort_values(["body_type", "district_en", "name_en", "unit_code"], kind="stable")[COLUMNS]


def main(argv: list[str]) -> int:
    df = build()
    text = df.to_csv(index=False, lineterminator="\n")
    if "--check" in argv:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT.name} differs from its inputs: rerun without --check")
        return 0 if same else 1
    fd, tmp = tempfile.mkstemp(dir=OUT.parent, prefix=".urban_bodies_", suffix=".csv")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, OUT)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    n = df.groupby("body_type_name").size().to_dict()
    print(f"wrote {OUT.relative_to(ROOT)}: {len(df)} bodies {n}; figures {df['figures'].value_counts().to_dict()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
