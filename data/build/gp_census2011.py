"""Census 2011 figures by LGD gram panchayat, from the Census villages whose names match the gram panchayat's.

Run from the repository root:  python data/build/gp_census2011.py  [--check] [--census PATH]

Census figures by gram panchayat are not published, and the official village-to-gram-panchayat table (LGD's
``up_village_gp_mapping_2024.csv``, kept in in-rolls/quota_raj and in-rolls/local_elections_up) is not held: only
the villages whose own name is a gram panchayat's name can be placed, so every figure here is **partial** (a lower
bound of the gram panchayat's population; many gram panchayats hold further villages of other names).

Reads (``SHARED`` = ``$RESERVATION_SHARED`` or ``../shared`` next to the repository):
  SHARED/data/reference/lgd_up_block_gp.csv     LGD's 57,695 gram panchayats with their block panchayats
  CENSUS: the public repository WadhwaniAI/india-census-2011 (a checkout or its git directory: ``--census``,
          ``$RESERVATION_CENSUS``), files ``pca/09_*.csv`` at commit :data:`CENSUS_COMMIT`: the PCA village rows
  data/blocks_census2011.csv, data/districts.csv  the LGD blocks with their Census rural figures; the Census
          sub-districts (tehsils) of each current district
  data/urban_bodies_2023.csv, data/ulbs_lgd.csv  urban bodies by district (villages named after one are left out)
Writes (atomically; a rerun gives byte-identical bytes; gzip without a time stamp):
  data/gp_census2011.csv.gz   one row per LGD gram panchayat (columns: :data:`COLUMNS`)
``--check`` writes nothing and exits 1 if the shipped file differs from what the build gives.

Method. A village is placed in the current district of its tehsil; it may match a gram panchayat of any current
district made from the same Census 2011 district (Musafirkhana villages can match Sultanpur or Amethi ones). Names
are compared by :func:`name_key` (lower case, letters only; a gram panchayat named "X urf Y" or "X/Y" offers X, Y
and the whole). Never a village of another name, never a Census Town (the block figures leave them out too).
  1. ``name_match``: a name that exactly one village and exactly one gram panchayat of the area carry: the pair,
     unless the village lies outside the tehsils of the gram panchayat's block (below): then dropped.
  2. ``name_match_tehsil``: a name several carry: a pair is kept when the village lies in a tehsil where the gram
     panchayat's block has at least :data:`TEHSIL_SHARE` of its step-1 villages, and inside those tehsils the name
     is then carried by one village and one gram panchayat of the block.
     A village claimed by two gram panchayats (parts of two "urf" names) is given to neither.
  3. ``name_skeleton``: a gram panchayat still without a village and a village still without a gram panchayat
     whose consonant skeletons are equal (Anguthi = Angoothi), the gram panchayat the only one of its area with
     it, the village the only one with it inside the tehsils of the gram panchayat's block (and at most one other
     in the area).
An uninhabited village (population 0) is left out, and so is a village named as an urban body of its district (it lies in the town, or is the town's remainder).
A gram panchayat takes the least sure rule of its villages (:data:`RULES`); with no village it is ``none`` (no
figures; the workbench ranks it last, share 0). Checked against 766 rows of LGD's village-to-gram-panchayat table
(``village_gp_sample.csv``): 365 of the 366 sampled villages placed here are in the gram panchayat LGD gives them.
A block's matched villages must not come to more people than its Census rural population
(data/blocks_census2011.csv, built by a fuller placement of every village): the build refuses otherwise. (Their SC
or ST may: in 5 blocks the two placements disagree on a few border villages; tests/test_gp_units.py lists them.)
"""
from __future__ import annotations

import argparse
import csv
import gzip
import io
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gp_match import lgd_gp_table  # noqa: E402
from kp_history_crosswalk import en_skeleton  # noqa: E402
from kp_history_crosswalk import load_blocks, publish, read_text_csv, shared_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
OUT = DATA / "gp_census2011.csv.gz"
CENSUS_COMMIT = "bca8963"          # WadhwaniAI/india-census-2011, "finished district data" (as blocks_SOURCES.md)
TEHSIL_SHARE = 0.05
#: How a gram panchayat's figures were made, surest first (a gram panchayat takes the least sure rule of its
#: villages); ``none``: no village placed, no figures.
RULES = ["name_match", "name_match_tehsil", "name_skeleton"]
COLUMNS = ["gp_code", "gp_name", "block_lgd_code", "district_lgd_code", "figures", "villages", "pop", "sc", "st",
           "share_of_block", "block_covered", "census_village_codes"]
_URF = re.compile(r"\s+(?:urf|alias|urph)\s+|\s*/\s*|\s*\(\s*|\s*\)\s*", re.I)
_PCA_NUMBERS = 85                            # a PCA row: 8 fields of place and name, then 85 counts
_PCA_P, _PCA_SC, _PCA_ST = 1, 7, 10          # of the counts: TOT_P, P_SC, P_ST


def name_key(name: str) -> str:
    """The comparison key of a name: lower case, letters only ("Bain Khera" = "Bainkhera")."""
    return re.sub(r"[^a-z]", "", str(name).lower())


def gp_keys(name: str) -> set[str]:
    """The keys a gram panchayat's name offers: the whole, and each part of an "X urf Y" or "X/Y" name."""
    keys = {name_key(name)}
    parts = [p for p in _URF.split(str(name)) if p and p.strip()]
    if len(parts) > 1:
        keys |= {name_key(p) for p in parts}
    return {k for k in keys if len(k) >= 3}


# ----------------------------------------------------------------------------------------------- inputs
def census_location(given: str | None = None) -> Path | None:
    """Where the Census repository is: ``--census``, ``$RESERVATION_CENSUS``, or a clone beside the project
    (``../india-census-2011``)."""
    for c in (given, os.environ.get("RESERVATION_CENSUS"), str(ROOT.parent / "india-census-2011")):
        if c and Path(c).exists():
            return Path(c)
    return None


def read_pca(census: Path) -> pd.DataFrame:
    """The PCA village rows of Uttar Pradesh (state 09): ``village, name, subdistrict, pop, sc, st``."""
    git = census if (census / "objects").is_dir() else census / ".git" if (census / ".git").is_dir() else None
    if git is not None:
        names = subprocess.run(["git", f"--git-dir={git}", "ls-tree", "--name-only", CENSUS_COMMIT, "pca/"],
                               check=True, capture_output=True, text=True).stdout.split()
        texts = [subprocess.run(["git", f"--git-dir={git}", "show", f"{CENSUS_COMMIT}:{n}"], check=True,
                                capture_output=True).stdout.decode("utf-8") for n in names
                 if Path(n).name.startswith("09_")]
    else:
        texts = [p.read_text(encoding="utf-8") for p in sorted((census / "pca").glob("09_*.csv"))]
    rows = []
    for text in texts:
        for r in csv.reader(io.StringIO(text)):
            if len(r) > 6 and r[5] == "VILLAGE":
                name = ",".join(r[6:len(r) - _PCA_NUMBERS - 1])      # a name may hold an unquoted comma
                num = r[len(r) - _PCA_NUMBERS:]
                rows.append((r[3], name, r[2], int(num[_PCA_P]), int(num[_PCA_SC]), int(num[_PCA_ST])))
    v = pd.DataFrame(rows, columns=["village", "name", "subdistrict", "pop", "sc", "st"])
    return v.sort_values("village", kind="stable").reset_index(drop=True)


def areas(districts: pd.DataFrame, shared: Path) -> tuple[dict, dict]:
    """Tehsil -> current district, and current district -> area (the current districts made from one Census 2011
    district, joined: a village may match a gram panchayat of any district of its area)."""
    tehsil_district = {}
    for d, codes in zip(districts["district_lgd_code"], districts["census2011_subdistrict_codes"]):
        for t in str(codes).split():
            tehsil_district[t] = int(d)
    parent = {int(d): int(d) for d in districts["district_lgd_code"]}

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x
    sub = read_text_csv(shared / "data" / "reference" / "subdistricts_census2011.csv")
    by_cd = defaultdict(set)
    for t, cd in zip(sub["census2011_subdistrict_code"], sub["census2011_district_code"]):
        if t in tehsil_district:
            by_cd[cd].add(tehsil_district[t])
    for ds in by_cd.values():
        ds = sorted(ds)
        for d in ds[1:]:
            parent[find(d)] = find(ds[0])
    return tehsil_district, {d: find(d) for d in parent}


def urban_names(districts: pd.DataFrame) -> set[tuple[int, str]]:
    """(district, name key) of every urban body (data/urban_bodies_2023.csv, data/ulbs_lgd.csv): a village named as
    an urban body of its district lies in it, or is what is left of it outside, more often than it is a gram
    panchayat's (Tappal, Aligarh: a Nagar Panchayat since 2011 whose LGD gram panchayat is still listed)."""
    code = dict(zip(districts["district_en"], districts["district_lgd_code"].astype(int)))
    u = pd.read_csv(DATA / "urban_bodies_2023.csv")
    old = pd.read_csv(DATA / "ulbs_lgd.csv")
    pairs = list(zip(u["district_en"], u["name_en"])) + list(zip(old["district_en"], old["ulb_name"]))
    return {(code[d], name_key(n)) for d, n in pairs if d in code}


# ----------------------------------------------------------------------------------------------- matching
def match(v: pd.DataFrame, g: pd.DataFrame) -> dict[str, tuple[int, str]]:
    """Census village -> (LGD gram panchayat, rule): steps 1-3 of the module docstring."""
    vk = defaultdict(list)                              # (area, key) -> villages
    for vill, area, key in zip(v["village"], v["area"], v["key"]):
        vk[(area, key)].append(vill)
    gk = defaultdict(list)                              # (area, key) -> gram panchayats
    for gp, area, keys in zip(g["gp_code"], g["area"], g["keys"]):
        for k in keys:
            gk[(area, k)].append(gp)
    claims: dict[str, set] = defaultdict(set)
    rule: dict[tuple, str] = {}
    for k, gps in gk.items():
        vills = vk.get(k, [])
        if len(gps) == 1 and len(vills) == 1:
            claims[vills[0]].add(gps[0])
            rule[(vills[0], gps[0])] = "name_match"
    first = {vi: next(iter(c)) for vi, c in claims.items() if len(c) == 1}
    tehsil_of = dict(zip(v["village"], v["subdistrict"]))
    block_of = dict(zip(g["gp_code"], g["block"]))
    seen = defaultdict(lambda: defaultdict(int))
    for vi, gp in first.items():
        seen[block_of[gp]][tehsil_of[vi]] += 1
    tehsils = {b: {t for t, n in c.items() if n >= TEHSIL_SHARE * sum(c.values())} for b, c in seen.items()}
    for vi, gp in first.items():                        # a step-1 pair far from the block's tehsils: dropped
        if tehsil_of[vi] not in tehsils[block_of[gp]]:
            claims[vi].discard(gp)
    for k, gps in gk.items():
        vills = vk.get(k, [])
        if len(gps) == 1 and len(vills) == 1 or not vills:
            continue
        for gp in gps:
            b = block_of[gp]
            near = [vi for vi in vills if tehsil_of[vi] in tehsils.get(b, ())]
            rivals = [o for o in gps if block_of[o] == b]
            if len(near) == 1 and len(rivals) == 1:
                claims[near[0]].add(gp)
                rule.setdefault((near[0], gp), "name_match_tehsil")
    out = {vi: (next(iter(c)), rule[(vi, next(iter(c)))]) for vi, c in claims.items() if len(c) == 1}
    skeleton_pass(v, g, out, tehsils)
    return out


def skeleton_pass(v: pd.DataFrame, g: pd.DataFrame, out: dict, tehsils: dict) -> None:
    """Step 3: a gram panchayat still without a village, and a village still without a gram panchayat, whose
    consonant skeletons (:func:`en_skeleton`: Anguthi = Angoothi, Bhalewa = Bhalewan) are equal, the only such
    pair of the area inside the tehsils of the gram panchayat's block."""
    have = {gp for gp, _ in out.values()}
    block_of = dict(zip(g["gp_code"], g["block"]))
    gs = defaultdict(list)
    for gp, area, keys in zip(g["gp_code"], g["area"], g["keys"]):
        if gp not in have:
            for sk in {en_skeleton(k) for k in keys}:
                if len(sk) >= 3:
                    gs[(area, sk)].append(gp)
    vs = defaultdict(list)
    for vi, area, key, t in zip(v["village"], v["area"], v["key"], v["subdistrict"]):
        if vi not in out:
            vs[(area, en_skeleton(key))].append((vi, t))
    for k, gps in gs.items():
        if len(gps) != 1 or k not in vs:
            continue
        near = [vi for vi, t in vs[k] if t in tehsils.get(block_of[gps[0]], ())]
        if len(near) == 1 and len(vs[k]) <= 2:
            out[near[0]] = (gps[0], "name_skeleton")


def build(shared: Path, census: Path) -> pd.DataFrame:
    blocks = pd.read_csv(DATA / "blocks_census2011.csv")
    districts = pd.read_csv(DATA / "districts.csv", dtype={"census2011_subdistrict_codes": str})
    tehsil_district, area_of = areas(districts, shared)
    g = lgd_gp_table(shared / "data" / "reference" / "lgd_up_block_gp.csv", load_blocks())
    g["gp_code"] = g["gp_code"].astype(int)
    g["block"] = g["block"].astype(int)
    dist_of = dict(zip(blocks["block_lgd_code"], blocks["district_lgd_code"]))
    g["district"] = g["block"].map(dist_of).astype(int)
    g["area"] = g["district"].map(area_of)
    g["keys"] = g["gp_name"].map(gp_keys)
    v = read_pca(census)
    v["district"] = v["subdistrict"].map(tehsil_district)
    if v["district"].isna().any():
        raise SystemExit(f"Census tehsil {v.loc[v['district'].isna(), 'subdistrict'].iat[0]} is in no district")
    v["area"] = v["district"].astype(int).map(area_of)
    v["key"] = v["name"].map(name_key)
    v = v[v["pop"] > 0]                               # an uninhabited village is no gram panchayat's people
    towns = urban_names(districts)
    v = v[[(d, k) not in towns for d, k in zip(v["district"].astype(int), v["key"])]]
    placed = match(v, g)
    v["gp"] = v["village"].map(lambda x: placed.get(x, (0, ""))[0])
    v["rule"] = v["village"].map(lambda x: placed.get(x, (0, ""))[1])
    m = v[v["gp"] > 0]
    agg = m.groupby("gp").agg(villages=("village", "size"), pop=("pop", "sum"), sc=("sc", "sum"), st=("st", "sum"),
                              codes=("village", lambda s: " ".join(sorted(s))),
                              rule=("rule", lambda s: max(s, key=RULES.index)))
    out = g[["gp_code", "gp_name", "block", "district"]].join(agg, on="gp_code")
    for c in ("villages", "pop", "sc", "st"):
        out[c] = out[c].fillna(0).astype("int64")
    out["figures"] = out["rule"].fillna("none")
    bpop = blocks.set_index("block_lgd_code")["tot_p_rural"].astype("int64")
    covered = out.groupby("block")["pop"].sum()
    over = covered[covered > bpop.reindex(covered.index)]
    if len(over):
        raise SystemExit(f"block {over.index[0]}: its gram panchayats' villages ({over.iat[0]}) exceed its "
                         f"Census rural population ({bpop[over.index[0]]})")
    out["share_of_block"] = (out["pop"] / out["block"].map(bpop)).map(lambda x: f"{x:.4f}")
    out["block_covered"] = (out["block"].map(covered) / out["block"].map(bpop)).map(lambda x: f"{x:.4f}")
    out = out.rename(columns={"block": "block_lgd_code", "district": "district_lgd_code",
                              "codes": "census_village_codes"})
    out["census_village_codes"] = out["census_village_codes"].fillna("")
    return out[COLUMNS].sort_values(["block_lgd_code", "gp_code"], kind="stable").reset_index(drop=True)


def encode(df: pd.DataFrame) -> bytes:
    text = df.to_csv(index=False, lineterminator="\n").encode("utf-8")
    return gzip.compress(text, compresslevel=9, mtime=0)


def coverage(df: pd.DataFrame, blocks: pd.DataFrame) -> pd.DataFrame:
    """Per district: gram panchayats, how many have figures (by rule), and the share of the blocks' Census rural
    population their villages cover."""
    b = blocks.set_index("block_lgd_code")
    t = df.groupby("district_lgd_code").agg(gps=("gp_code", "size"), pop=("pop", "sum"))
    for r in RULES + ["none"]:
        t[r] = df.groupby("district_lgd_code")["figures"].apply(lambda s, r=r: int((s == r).sum()))
    rural = b[b.index.isin(df["block_lgd_code"].unique())].groupby("district_lgd_code")["tot_p_rural"].sum()
    t["block_rural"] = rural
    t["covered"] = t["pop"] / t["block_rural"]
    t["district"] = b.drop_duplicates("district_lgd_code").set_index("district_lgd_code")["district_en"]
    return t.reset_index()


def report(df: pd.DataFrame, out=sys.stdout, markdown: bool = False) -> None:
    blocks = pd.read_csv(DATA / "blocks_census2011.csv")
    cov = coverage(df, blocks)
    n = len(df)
    counts = df["figures"].value_counts()
    tot, rural = int(df["pop"].sum()), int(cov["block_rural"].sum())
    print(f"{n} gram panchayats: " + ", ".join(f"{k} {int(counts.get(k, 0))}" for k in RULES + ["none"])
          + f"; villages placed: {int(df['villages'].sum())}; population covered {tot:,} of the blocks' "
          f"{rural:,} ({tot / rural:.1%})", file=out)
    per_block = df.drop_duplicates("block_lgd_code")["block_covered"].astype(float)
    print("block coverage: min {:.1%}, quartiles {:.1%} {:.1%} {:.1%}, max {:.1%}".format(
        per_block.min(), *per_block.quantile([.25, .5, .75]), per_block.max()), file=out)
    if markdown:
        print("\n| district | gram panchayats | " + " | ".join(RULES) + " | none | rural population covered |\n"
              "|---|---:|---:|---:|---:|---:|---:|", file=out)
        for r in cov.sort_values("district").itertuples(index=False):
            d = r._asdict()
            print(f"| {r.district} | {r.gps:,} | " + " | ".join(f"{d[k]:,}" for k in RULES + ["none"])
                  + f" | {r.covered:.1%} |", file=out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if the shipped file differs")
    ap.add_argument("--census", help="a checkout (or git directory) of WadhwaniAI/india-census-2011")
    ap.add_argument("--markdown", action="store_true", help="print the coverage by district as a Markdown table")
    a = ap.parse_args(argv)
    shared = shared_dir()
    census = census_location(a.census)
    if census is None or not (shared / "data" / "reference" / "lgd_up_block_gp.csv").exists():
        print("the Census repository (--census) or SHARED/data/reference/lgd_up_block_gp.csv is missing",
              file=sys.stderr)
        return 2
    df = build(shared, census)
    data = encode(df)
    report(df, markdown=a.markdown)
    if a.check:
        same = OUT.exists() and OUT.read_bytes() == data
        print(f"{OUT.relative_to(ROOT)}: {'identical' if same else 'DIFFERS'}")
        return 0 if same else 1
    publish({OUT: data})
    return 0


if __name__ == "__main__":
    sys.exit(main())
