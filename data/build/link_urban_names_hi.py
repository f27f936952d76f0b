"""Link the Hindi names of the SEC-UP 2012 urban results to the urban bodies of 2023.

Run from the repository root:  python data/build/link_urban_names_hi.py [--check] [--show]
Standard library and pandas (and the workbench's district crosswalk) only; reads only files in data/ and
data/build/; writes data/build/urban_names_hi.csv atomically. ``--check`` writes nothing and exits 1 if the
shipped file differs from what the inputs give; ``--show`` prints every link below the exact level with the
runner-up, for the review by eye. Then ``python data/build/build_urban_bodies.py`` puts the names in the list.

Inputs
- data/build/sec2012_urban_bodies_hi.csv: one row per body of the State Election Commission's 2012 urban
  results (12 Nagar Nigams, 194 Palika Parishads, 423 Nagar Panchayats), district, type and body name as the
  SEC wrote them in Hindi; ``first_serial`` (the row of the body's chair in the source file) is the row's key,
  called ``sec_row`` here;
- the 2023 body list as data/build/build_urban_bodies.py builds it (English names, district, type, Census
  town name);
- data/build/urban_names_hi_review.csv: the reviewed exceptions, one per SEC row that matching cannot settle
  (``sec_row, decision, unit_code, name_hi, reason``): ``link`` (the row names this body; ``name_hi`` only where
  the row's own text is a source error, and then taken from the same source) or ``none`` (no name is shipped:
  a former name, a body merged into another, or a text that is not the town's name; ``unit_code``, when given,
  is the body concerned, which then takes no other row's name).

Method
1. District: the SEC's Hindi district name through the workbench's crosswalk (``reservation.inputs.names.crosswalk``:
   spelling variants, former names such as इलाहाबाद, फैजाबाद).
2. Type: a 2012 body may have been upgraded by 2023, never downgraded: a Nagar Panchayat is compared with the
   Nagar Panchayats, Palika Parishads and Nagar Nigams of its district, a Palika Parishad with the Palika
   Parishads and Nagar Nigams, a Nagar Nigam with the Nagar Nigams.
3. Name: the SEC name without the type words (``नगर पालिका परिषद फरीदपुर`` -> ``फरीदपुर``) is transliterated by
   :func:`latin` (ड/ढ read both plainly and as ड़/ढ़) and both it and the body's English names (``name_en`` and
   the Census 2011 town name) are reduced by :func:`key`, a deliberately coarse spelling key; each name is
   compared whole, with its words sorted, without the words naming its district, and word by word
   (:func:`variants`; generic words such as bazar, nagar, ganj never alone). *Exact*: two whole keys are
   equal. *Fuzzy*: the best :func:`similarity` of whole keys (their ratio, or 0.9 x the ratio of their
   consonants) reaches ``THRESHOLD``. *Part*: a word alone against a name, at ``PART`` x the ratio of the keys.
4. Pairs are taken best first (higher score first, a whole name before a part, the same type before an
   upgrade, then the SEC row and the code), one body per SEC row and one SEC row per body. The review comes
   first: a ``link`` takes its body, a ``none`` row is left out and holds its body if it names one. A row left
   without a body and without a review stops the script: every SEC row is linked or reviewed.

The link is machine-made, the name is not: ``name_hi`` is always the SEC's own text (NFC, without the type
words, with the legacy signs ॅ and ॉ written as the chandrabindu they stand for: :func:`clean_name`), never a
transliteration. A body created after 2012 has no 2012 row and stays without a Hindi name.
"""

from __future__ import annotations

import difflib
import importlib.util
import os
import re
import sys
import tempfile
import unicodedata
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "data" / "build"
SEC = BUILD / "sec2012_urban_bodies_hi.csv"
REVIEW = BUILD / "urban_names_hi_review.csv"
OUT = BUILD / "urban_names_hi.csv"
SOURCE = "SEC UP 2012 urban results (in-rolls/local_elections_up, MIT)"
THRESHOLD = 0.75
TYPES = {"नगर निगम": 4, "नगर पालिका परिषद": 5, "नगर पंचायत": 7}
#: a 2012 body of type t may be a body of these types in 2023 (upgrades only)
COMPATIBLE = {4: (4,), 5: (5, 4), 7: (7, 5, 4)}
COLUMNS = ["unit_code", "name_hi", "source", "sec_row", "match", "score"]

# --- the Hindi name, its Latin spelling and the spelling key: reservation/inputs/spelling.py (one copy, shared
# with the link of the 2006 urban chairs, reservation/history/urban2006.py)

sys.path.insert(0, str(ROOT))
from reservation.inputs.spelling import clean_name, key, latin  # noqa: E402


def consonants(k: str) -> str:
    """The consonants of a key, each run once (the vowels are where the two scripts differ most)."""
    return re.sub(r"(.)\1+", r"\1", re.sub(r"[aeiou]", "", k))


def similarity(a: str, b: str) -> float:
    """Similarity of two keys in [0, 1]: 1 when equal; else the better of the ratio of the keys and 0.9 x the
    ratio of their consonants (``difflib.SequenceMatcher``: 2 x matching letters / both lengths)."""
    if a == b:
        return 1.0
    full = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
    cons = difflib.SequenceMatcher(None, consonants(a), consonants(b), autojunk=False).ratio()
    return max(full, 0.9 * cons)


#: words that name no place on their own (market, town, upper/lower, "cum"): never compared alone
GENERIC = frozenset(key(w) for w in ("bazar", "bajar", "nagar", "ganj", "pur", "khas", "kalan", "khurd", "buzurg",
                                     "road", "rod", "mandi", "cum", "urf", "sarai", "town", "city", "siti",
                                     "station", "kasba", "qasba", "nai", "rly", "settlement"))
PART = 0.95


def variants(words: list[str], drop: frozenset = frozenset()) -> list[tuple[str, bool]]:
    """(key, is_part) of a name given as Latin words: the whole name, its words in sorted order, the name
    without the words that name its district (``drop``: "नई बाजार भदोही" = Nai Bazar), and each word that is
    not generic alone (a part: "Mau (Maunath Bhanjan)" = मऊ)."""
    keys = [k for k in (key(w) for w in words) if k]
    core = [k for k in keys if k not in drop]
    out = [("".join(keys), False), ("".join(sorted(keys)), False)]
    if core and core != keys:
        out.append(("".join(core), False))
    if len(keys) > 1:
        out += [(k, True) for k in keys if k not in GENERIC and k not in drop]
    return list(dict.fromkeys(out))


def score(sec_variants, body_variants) -> tuple[float, bool]:
    """The best similarity over the variants of both names; a comparison that involves a part counts
    ``PART`` times the plain ratio of the keys (no consonant-only comparison for a word alone): (score,
    whether the best involves a part)."""
    best = (0.0, False)
    for a, pa in sec_variants:
        for b, pb in body_variants:
            if pa or pb:
                s = PART * (1.0 if a == b else difflib.SequenceMatcher(None, a, b, autojunk=False).ratio())
            else:
                s = similarity(a, b)
            if s > best[0] or (s == best[0] and best[1] and not (pa or pb)):
                best = (s, pa or pb)
    return best


def sec_variants(name: str, drop: frozenset) -> list[tuple[str, bool]]:
    out = []
    for retroflex in (False, True):
        out += variants(latin(name, retroflex).split(), drop)
    return list(dict.fromkeys(out))


def body_variants(names: list[str], drop: frozenset) -> list[tuple[str, bool]]:
    out = []
    for n in names:
        out += variants(re.split(r"[^A-Za-z]+", n), drop)
    return list(dict.fromkeys(out))


# --- the link ---------------------------------------------------------------------------------------------------

def _bodies() -> pd.DataFrame:
    spec = importlib.util.spec_from_file_location("build_urban_bodies", BUILD / "build_urban_bodies.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.build()


def load_sec() -> pd.DataFrame:
    """The SEC 2012 rows with their district (English name, through the crosswalk), type and cleaned name."""
    sys.path.insert(0, str(ROOT))
    from reservation.inputs.names import crosswalk
    cw = crosswalk()
    s = pd.read_csv(SEC, dtype=str, keep_default_na=False)
    s["sec_row"] = s["first_serial"].astype(int)
    assert s["sec_row"].is_unique, "first_serial is the key of a SEC row"
    s["district_hi"] = s["district_hi"].map(lambda d: unicodedata.normalize("NFC", d))
    s["district_en"] = [cw.name_en(cw.resolve(d)) for d in s["district_hi"]]
    s["type"] = s["body_type_hi"].map(TYPES)
    assert s["type"].notna().all(), set(s["body_type_hi"]) - set(TYPES)
    s["name"] = s["body_name_hi"].map(clean_name)
    return s


def load_review() -> pd.DataFrame:
    r = pd.read_csv(REVIEW, dtype={"sec_row": int, "unit_code": "Int64"}, keep_default_na=False,
                    na_values={"unit_code": [""]})
    assert r["sec_row"].is_unique, "one review decision per SEC row"
    assert set(r["decision"]) <= {"link", "none"}, set(r["decision"])
    assert (r["reason"].str.len() > 10).all(), "every review decision gives its reason"
    assert r.loc[r["decision"] == "link", "unit_code"].notna().all()
    assert (r.loc[r["decision"] == "none", "name_hi"] == "").all()
    return r


def _district_words(district_en: str, district_hi: str = "") -> frozenset:
    return frozenset({key(district_en)} | ({key(latin(district_hi))} if district_hi else set()))


def pairs(sec: pd.DataFrame, bodies: pd.DataFrame) -> pd.DataFrame:
    """Every (SEC row, body) pair of the same district and a compatible type, with its score and whether the
    best comparison involved a part of a name."""
    cand: dict[str, list] = {}
    for b in bodies.itertuples():
        names = [b.name_en] + ([b.census2011_town_name] if isinstance(b.census2011_town_name, str) else [])
        cand.setdefault(b.district_en, []).append(
            (int(b.unit_code), int(b.body_type), body_variants(names, frozenset()), b.name_en))
    rows = []
    for s in sec.itertuples():
        sv = sec_variants(s.name, _district_words(s.district_en, s.district_hi))
        for code, btype, bv, label in cand.get(s.district_en, []):
            if btype in COMPATIBLE[s.type]:
                sc, part = score(sv, bv)
                rows.append((s.sec_row, code, round(sc, 3), part, btype != s.type, label))
    return pd.DataFrame(rows, columns=["sec_row", "unit_code", "score", "part", "upgraded", "name_en"])


def link(sec: pd.DataFrame | None = None, bodies: pd.DataFrame | None = None,
         review: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(links, pairs): one row per linked SEC row (``COLUMNS``), and every scored pair."""
    sec = load_sec() if sec is None else sec
    bodies = _bodies() if bodies is None else bodies
    review = load_review() if review is None else review
    unknown = set(review["sec_row"]) - set(sec["sec_row"])
    assert not unknown, f"review names SEC rows that do not exist: {sorted(unknown)}"
    codes = set(bodies["unit_code"].astype(int))
    by_row = sec.set_index("sec_row")
    taken_rows, taken_units, out = set(), set(), []
    for r in review.itertuples():
        taken_rows.add(r.sec_row)
        if pd.isna(r.unit_code):
            continue
        code = int(r.unit_code)
        assert code in codes, f"review row {r.sec_row}: unit {code} is not in the 2023 list"
        assert code not in taken_units, f"review: unit {code} is named by two SEC rows"
        taken_units.add(code)
        if r.decision == "none":            # the body whose name the row is not: it takes no other row's name
            continue
        name = clean_name(r.name_hi) if r.name_hi else by_row.at[r.sec_row, "name"]
        out.append((code, name, SOURCE, r.sec_row, "review", ""))
    allpairs = pairs(sec, bodies)
    p = allpairs[allpairs["score"] >= THRESHOLD].sort_values(
        ["score", "part", "upgraded", "sec_row", "unit_code"], ascending=[False, True, True, True, True],
        kind="stable")
    for r in p.itertuples():
        if r.sec_row in taken_rows or r.unit_code in taken_units:
            continue
        taken_rows.add(r.sec_row)
        taken_units.add(r.unit_code)
        level = "exact" if r.score == 1.0 and not r.part else ("part" if r.part else "fuzzy")
        out.append((r.unit_code, by_row.at[r.sec_row, "name"], SOURCE, r.sec_row, level, f"{r.score:.3f}"))
    links = pd.DataFrame(out, columns=COLUMNS).sort_values("unit_code", kind="stable").reset_index(drop=True)
    return links, allpairs


def unlinked(links: pd.DataFrame, sec: pd.DataFrame, review: pd.DataFrame) -> pd.DataFrame:
    return sec[~sec["sec_row"].isin(set(links["sec_row"]) | set(review["sec_row"]))]


def show(links: pd.DataFrame, allpairs: pd.DataFrame, sec: pd.DataFrame, bodies: pd.DataFrame,
         review: pd.DataFrame) -> None:
    by_row = sec.set_index("sec_row")
    by_unit = bodies.set_index("unit_code")
    tn = {4: "NN", 5: "NPP", 7: "NP"}
    for r in links[links["match"] != "exact"].itertuples():
        s = by_row.loc[r.sec_row]
        others = allpairs[(allpairs["sec_row"] == r.sec_row) & (allpairs["unit_code"] != r.unit_code)]
        runner = others.sort_values("score", ascending=False).head(1)
        ru = f"{runner['name_en'].iat[0]} {runner['score'].iat[0]:.2f}" if len(runner) else "-"
        print(f"{r.match:6} {r.score:>5} {r.sec_row:>6} {s.district_en:18} {tn[s.type]:3} {s['name']:22} -> "
              f"{by_unit.at[r.unit_code, 'name_en']} ({tn[int(by_unit.at[r.unit_code, 'body_type'])]}, "
              f"{r.unit_code}) | next: {ru}")
    for s in unlinked(links, sec, review).itertuples():
        best = allpairs[allpairs["sec_row"] == s.sec_row].sort_values("score", ascending=False).head(3)
        c = "; ".join(f"{n} {x:.2f}" for n, x in zip(best["name_en"], best["score"]))
        print(f"UNLINKED      {s.sec_row:>6} {s.district_en:18} {tn[s.type]:3} {s.name:22} best: {c or '-'}")


def main(argv: list[str]) -> int:
    sec, bodies, review = load_sec(), _bodies(), load_review()
    links, allpairs = link(sec, bodies, review)
    if "--show" in argv:
        show(links, allpairs, sec, bodies, review)
    left = unlinked(links, sec, review)
    if len(left):
        print(f"{len(left)} SEC rows are neither linked nor reviewed (rows {left['sec_row'].tolist()}): "
              f"add them to {REVIEW.name}", file=sys.stderr)
        return 1
    text = links.to_csv(index=False, lineterminator="\n")
    if "--check" in argv:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT.name} differs from its inputs: rerun without --check")
        return 0 if same else 1
    fd, tmp = tempfile.mkstemp(dir=OUT.parent, prefix=".urban_names_hi_", suffix=".csv")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, OUT)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    n = links["match"].value_counts().to_dict()
    print(f"wrote {OUT.relative_to(ROOT)}: {len(links)} names of {len(sec)} SEC rows {n}; "
          f"{int((review['decision'] == 'none').sum())} rows reviewed without a name")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
