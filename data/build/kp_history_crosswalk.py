"""Crosswalk the 2005 and 2010 block pramukh reservation lists to today's LGD blocks, and ship them as history.

Run from the repository root:  python data/build/kp_history_crosswalk.py  [--check]

Reads (``SHARED`` = ``$RESERVATION_SHARED`` or ``../shared`` next to the repository):
  SHARED/data/history/kp_pramukh_2005.csv, kp_pramukh_2010.csv  the lists as decoded from the SEC's PDFs
  data/blocks_census2011.csv    LGD blocks with the SEC 2015 block number and Hindi name (the 2015 link)
  data/districts.csv            today's districts with their SEC district codes
  data/history/kp_pramukh_2015.csv                   the 2015 list (placed through the SEC 2015 block numbers)
  data/history/kp_block_exceptions.csv               the reviewed exceptions (hand-written, never rewritten)
Writes (atomically; twice the same input gives byte-identical files):
  data/history/kp_pramukh_2005.csv, kp_pramukh_2010.csv  the source rows and columns, plus the LGD block each
                                    row was matched to, how (exact, fuzzy, exception, unmatched) and the score
  data/history/kp_districts_of_the_time.csv             each district of the time -> today's district(s)
  data/history/kp-chair.csv         the history the workbench reads: 2005 + 2010 + 2015
and prints the match rate per year, every unmatched name, every fuzzy match with its runner-up (for review) and
the State-wide rotation figures (reservation.history.rotation_facts). ``--check`` writes nothing and exits 1 if a
shipped file differs from what the build gives.

Matching (inside the districts of the time only, see DISTRICT_CHANGES):
1. exact: the decoded name equals the SEC 2015 Hindi name of a candidate block after
   reservation.inputs.units.loose_key (NFC, nukta, candrabindu = anusvara, spaces and punctuation dropped);
2. fuzzy: a score in [0, 1], the best of three comparisons of the same normalised name:
   a. Devanagari against Devanagari (the 2015 name): :func:`hi_key` also folds vowel-sign length, half-letters
      (virama), a half nasal before a consonant = anusvara, the candra o (ॉ = ां, as the 2015 list writes it),
      व = ब (the legacy font confuses them: विसरख = Bisrakh), ण = न, श ष = स, digits and doubled signs (जं0,
      न09, कोथावांं);
   b. and c. a Latin consonant skeleton (:func:`skeletons`, :func:`en_skeleton`) of the decoded name against that
      of the 2015 Hindi name and of the LGD English name: aspirates and h dropped, vowels dropped except an
      initial one, v/w = b, z = j, f = p, m = n, ड/ढ read both as d and as r (बडौत = Baraut, दादरी = Dadri).
   Ratios are difflib.SequenceMatcher ratios. Pairs are taken greedily, exact first, then by descending score
   (ties: the lower serial number, then the lower LGD code), one block per row and one row per block in a
   district of the time, if the score is at least THRESHOLD;
3. exception: data/history/kp_block_exceptions.csv overrides 1-2 (a reviewed row: LGD code or "none", reason);
4. unmatched: whatever is left. A year in which two rows reach the same LGD block stops the build unless the
   exceptions table settles it.
"""
from __future__ import annotations

import argparse
import difflib
import itertools
import os
import re
import sys
import tempfile
import unicodedata
from functools import lru_cache
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from reservation.law.categories import CODES  # noqa: E402
from reservation.inputs.units import loose_key, nfc  # noqa: E402

DATA = ROOT / "data"
HIST = DATA / "history"
YEARS = (2005, 2010)
THRESHOLD = 0.70
SOURCE_COLUMNS = ["year", "sec_district_code", "district_hi_at_time", "block_sr", "block_hi", "category_hi",
                  "category", "note"]
CROSSWALK_COLUMNS = SOURCE_COLUMNS + ["block_lgd_code", "block_en", "district_lgd_code", "district_en", "match",
                                      "score", "runner_up", "runner_up_score"]
EXCEPTION_COLUMNS = ["year", "sec_district_code", "district_hi_at_time", "block_sr", "block_hi", "block_lgd_code",
                     "block_en", "district_en", "reason"]
HISTORY_COLUMNS = ["unit", "year", "category", "block_en", "district_en", "name_as_published",
                   "district_as_published"]

# The districts of the time whose territory is more than one district today (SEC district codes of the time ->
# today's SEC district codes), with the evidence. Every other district of the time is the district that has its SEC
# code today (the code did not change); NAMES_OF_THE_TIME lists those whose name changed.
DISTRICT_CHANGES: dict[tuple[int, int], tuple[tuple[int, ...], str]] = {
    (2005, 303): ((303, 304), "Shamli (created in 2011 as Prabuddh Nagar) was carved out of Muzaffarnagar"),
    (2010, 303): ((303, 304), "Shamli (created in 2011 as Prabuddh Nagar) was carved out of Muzaffarnagar"),
    (2005, 403): ((403, 406), "Hapur (created in 2011 as Panchsheel Nagar) was carved out of Ghaziabad"),
    (2010, 403): ((403, 406), "Hapur (created in 2011 as Panchsheel Nagar) was carved out of Ghaziabad"),
    (2005, 503): ((503, 505), "Sambhal (created in 2011 as Bhim Nagar) took blocks of Moradabad and Budaun"),
    (2010, 503): ((503, 505), "Sambhal (created in 2011 as Bhim Nagar) took blocks of Moradabad and Budaun"),
    (2005, 604): ((604, 505), "Sambhal (created in 2011 as Bhim Nagar) took blocks of Moradabad and Budaun"),
    (2010, 604): ((604, 505), "Sambhal (created in 2011 as Bhim Nagar) took blocks of Moradabad and Budaun"),
    (2005, 707): ((707, 708), "Kasganj (created in 2008 as Kanshiram Nagar) was carved out of Etah; the 2010 list "
                              "has both"),
    (2005, 1402): ((1402, 1207), "Amethi (created in 2010 as Chhatrapati Shahuji Maharaj Nagar) took the Amethi, "
                                 "Gauriganj and Musafirkhana tehsils of Sultanpur"),
    (2005, 1201): ((1201, 1207), "Amethi (created in 2010 as Chhatrapati Shahuji Maharaj Nagar) took Rae Bareli "
                                 "blocks (the 2010 list has Tiloi, Bahadurpur, Singhpur, Chhatoh, Dih, Salon under "
                                 "it)"),
    (2010, 1207): ((1207, 1201), "Chhatrapati Shahuji Maharaj Nagar, now Amethi; the 2010 list has Chhatoh, Dih and "
                                 "Salon under it, Rae Bareli blocks in the 2015 list and LGD"),
}
NAMES_OF_THE_TIME: dict[int, str] = {
    502: "Jyotiba Phule Nagar, now Amroha",
    702: "Mahamaya Nagar (Hathras), now Hathras",
    708: "Kanshiram Nagar (created in 2008 from Etah), now Kasganj",
    806: "Ramabai Nagar, now Kanpur Dehat",
    1103: "Allahabad, renamed Prayagraj in 2018",
    1207: "Chhatrapati Shahuji Maharaj Nagar (created in 2010), now Amethi",
    1404: "Faizabad, renamed Ayodhya in 2018",
    1901: "Sant Ravidas Nagar, now Bhadohi",
}


# ----------------------------------------------------------------------------------------------- names
_VIRAMA, _NUKTA, _ANUSVARA, _CANDRA = "\u094d", "\u093c", "\u0902", "\u0901"
_NASALS = set("ङञणनम")
_NOT_BEFORE = _NASALS | set("यरलवह")      # न्ह, म्य ...: a real half-letter, not a nasal
_FOLD = {"ी": "ि", "ू": "ु", "ई": "इ", "ऊ": "उ", "व": "ब", "ण": "न", "श": "स", "ष": "स", "ऋ": "र", "ृ": "र"}


@lru_cache(maxsize=None)
def hi_key(s: str) -> str:
    """A Devanagari comparison key that forgives the decoding noise (see the module doc, 2a)."""
    s = unicodedata.normalize("NFD", nfc(s))
    s = s.replace(_NUKTA, "").replace(_CANDRA, _ANUSVARA).replace("\u0949", "\u093e\u0902")
    s = s.replace("\u0911", "\u0906\u0902")
    s = re.sub(r"[0-9\u0966-\u096f]", "", s)
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if (c in _NASALS and s[i + 1:i + 2] == _VIRAMA and i + 2 < len(s) and s[i + 2] not in _NOT_BEFORE
                and "\u0915" <= s[i + 2] <= "\u0939"):
            out.append(_ANUSVARA)
            i += 2
            continue
        out.append(c)
        i += 1
    s = "".join(_FOLD.get(c, c) for c in "".join(out).replace(_VIRAMA, ""))
    s = re.sub(r"[^\u0900-\u097f]", "", s)
    return re.sub(r"(.)\1+", r"\1", s)


_CONS = {"क": "k", "ख": "k", "ग": "g", "घ": "g", "ङ": "n", "च": "c", "छ": "c", "ज": "j", "झ": "j", "ञ": "n",
         "ट": "t", "ठ": "t", "ड": "D", "ढ": "D", "ण": "n", "त": "t", "थ": "t", "द": "d", "ध": "d", "न": "n",
         "प": "p", "फ": "p", "ब": "b", "भ": "b", "म": "n", "य": "y", "र": "r", "ल": "l", "व": "b", "श": "s",
         "ष": "s", "स": "s", "ह": "h", "ं": "n"}
_INITIAL_VOWELS = set("अआइईउऊएऐओऔ")
_LATIN = (("chh", "c"), ("ch", "c"), ("sh", "s"), ("kh", "k"), ("gh", "g"), ("jh", "j"), ("th", "t"), ("dh", "d"),
          ("ph", "p"), ("bh", "b"), ("f", "p"), ("z", "j"), ("q", "k"), ("w", "b"), ("v", "b"), ("x", "ks"),
          ("m", "n"))


def _squash(x: str) -> str:
    return re.sub(r"(.)\1+", r"\1", x.replace("h", ""))


@lru_cache(maxsize=None)
def skeletons(s: str) -> frozenset[str]:
    """The Latin consonant skeletons of a Devanagari name (ड/ढ read as d and as r: up to 16 variants)."""
    s = hi_key(unicodedata.normalize("NFD", nfc(s)).replace("ज्ञ", "ग्य"))
    out = []
    for c in s:
        if c in _CONS:
            out.append(_CONS[c])
        elif c in _INITIAL_VOWELS and not out:
            out.append("a")
    base = "".join(out)
    variants = set()
    for combo in itertools.product("dr", repeat=min(base.count("D"), 4)):
        x = base
        for ch in combo:
            x = x.replace("D", ch, 1)
        variants.add(_squash(x.replace("D", "d")))
    return frozenset(variants)


@lru_cache(maxsize=None)
def en_skeleton(s: str) -> str:
    """The Latin consonant skeleton of an English (LGD) name, comparable with :func:`skeletons`."""
    s = re.sub(r"[^a-z]", "", str(s).lower())
    for a, b in _LATIN:
        s = s.replace(a, b)
    first = "a" if s[:1] in ("a", "e", "i", "o", "u") else ""
    return _squash(first + re.sub(r"[aeiou]", "", s))


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def score(decoded: str, hi_2015: str, en: str) -> float:
    """How alike a decoded name is to a block named ``hi_2015`` (SEC 2015, '' if none) and ``en`` (LGD)."""
    mine = skeletons(decoded)
    parts = [max(_ratio(a, en_skeleton(en)) for a in mine)]
    if hi_2015:
        parts.append(_ratio(hi_key(decoded), hi_key(hi_2015)))
        parts.append(max(_ratio(a, b) for a in mine for b in skeletons(hi_2015)))
    return round(max(parts), 4)


# ----------------------------------------------------------------------------------------------- inputs
def shared_dir() -> Path:
    env = os.environ.get("RESERVATION_SHARED")
    return Path(env) if env else ROOT.parent / "shared"


def read_text_csv(path: Path) -> pd.DataFrame:
    """A CSV as text, cells exactly as written (names are compared after NFC, copied as published)."""
    return pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")


def load_source(year: int, shared: Path | None = None) -> pd.DataFrame:
    df = read_text_csv((shared or shared_dir()) / "data" / "history" / f"kp_pramukh_{year}.csv")
    if list(df.columns) != SOURCE_COLUMNS:
        raise SystemExit(f"kp_pramukh_{year}.csv: columns {list(df.columns)} != {SOURCE_COLUMNS}")
    return df


def load_blocks() -> pd.DataFrame:
    b = read_text_csv(DATA / "blocks_census2011.csv")
    d = read_text_csv(DATA / "districts.csv")[["district_lgd_code", "sec_up_district_code", "district_hi"]]
    b = b.merge(d, on="district_lgd_code", how="left", validate="many_to_one")
    return b


def load_exceptions(path: Path | None = None) -> pd.DataFrame:
    ex = read_text_csv(path or HIST / "kp_block_exceptions.csv")
    if list(ex.columns) != EXCEPTION_COLUMNS:
        raise SystemExit(f"kp_block_exceptions.csv: columns {list(ex.columns)} != {EXCEPTION_COLUMNS}")
    key = ex[["year", "sec_district_code", "block_sr"]].apply(tuple, axis=1)
    if key.duplicated().any():
        raise SystemExit(f"kp_block_exceptions.csv: row {int(key.duplicated().to_numpy().argmax()) + 2} repeats a "
                         "source row")
    return ex


def check_exceptions(exceptions: pd.DataFrame, sources: dict[int, pd.DataFrame], blocks: pd.DataFrame) -> None:
    """Every exception names a row of a source list (year, SEC district code, serial, names) and an LGD block
    (code with its English block and district name) or "none", and gives a reason."""
    by_code = blocks.set_index("block_lgd_code")
    for i, e in enumerate(exceptions.itertuples(), start=2):
        where = f"kp_block_exceptions.csv row {i}"
        src = sources.get(int(e.year)) if e.year.isdigit() else None
        hit = (src[(src["sec_district_code"] == e.sec_district_code) & (src["block_sr"] == e.block_sr)]
               if src is not None else pd.DataFrame())
        if (hit.empty or nfc(hit["block_hi"].iat[0]) != nfc(e.block_hi)
                or nfc(hit["district_hi_at_time"].iat[0]) != nfc(e.district_hi_at_time)):
            raise SystemExit(f"{where}: {e.year} {e.sec_district_code} #{e.block_sr} {e.block_hi} is not a row of "
                             "the source")
        if e.block_lgd_code != "none":
            if e.block_lgd_code not in by_code.index:
                raise SystemExit(f"{where}: {e.block_lgd_code} is no LGD block")
            b = by_code.loc[e.block_lgd_code]
            if (b["block_name"], b["district_en"]) != (e.block_en, e.district_en):
                raise SystemExit(f"{where}: {e.block_lgd_code} is {b['block_name']}, {b['district_en']}, not "
                                 f"{e.block_en}, {e.district_en}")
        if not e.reason.strip():
            raise SystemExit(f"{where}: no reason given")


def districts_of_the_time(sources: dict[int, pd.DataFrame], blocks: pd.DataFrame) -> pd.DataFrame:
    """One row per (year, district of the time): the LGD codes and names of the district(s) it is today."""
    today = blocks.drop_duplicates("sec_up_district_code")
    today = today.set_index(today["sec_up_district_code"].astype(int))
    rows = []
    for year, src in sources.items():
        for (code, name), g in src.groupby(["sec_district_code", "district_hi_at_time"], sort=False):
            sec = int(code)
            if sec not in today.index:
                raise SystemExit(f"{year}: SEC district code {code} ({name}) is no district today")
            secs, note = DISTRICT_CHANGES.get((year, sec), ((sec,), ""))
            if loose_key(name) != loose_key(today.at[sec, "district_hi"]):
                if sec not in NAMES_OF_THE_TIME:
                    raise SystemExit(f"{year}: district {code} {name} != {today.at[sec, 'district_hi']} today")
                note = "; ".join(x for x in (NAMES_OF_THE_TIME[sec], note) if x)
            rows.append({"year": year, "sec_district_code": code, "district_hi_at_time": name,
                         "blocks_listed": len(g),
                         "district_lgd_codes": " ".join(today.at[s, "district_lgd_code"] for s in secs),
                         "districts_today": "; ".join(today.at[s, "district_en"] for s in secs), "note": note})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------------- matching
def match_district(rows: pd.DataFrame, cands: pd.DataFrame) -> dict[str, dict]:
    """Match the rows of one district of the time (``block_sr``, ``block_hi``) to candidate blocks (``block_lgd_code``,
    ``sec2015_block_hi``, ``block_name``). Returns ``{block_sr: {code, match, score, runner_up, runner_up_score}}``
    for every row (code '' when unmatched)."""
    keys = {}
    for code, hi in zip(cands["block_lgd_code"], cands["sec2015_block_hi"]):
        if hi:
            keys.setdefault(loose_key(hi), []).append(code)
    pairs = []
    sc = {}
    for sr, name in zip(rows["block_sr"], rows["block_hi"]):
        exact = keys.get(loose_key(name), [])
        for code, hi, en in zip(cands["block_lgd_code"], cands["sec2015_block_hi"], cands["block_name"]):
            is_exact = len(exact) == 1 and exact[0] == code
            s = 1.0 if is_exact else score(name, hi, en)
            sc[(sr, code)] = s
            pairs.append((0 if is_exact else 1, -s, int(sr), int(code), sr, code))
    pairs.sort()
    out: dict[str, dict] = {}
    taken: set[str] = set()
    for kind, neg, _, _, sr, code in pairs:
        if sr in out or code in taken or -neg < THRESHOLD:
            continue
        out[sr] = {"code": code, "match": "exact" if kind == 0 else "fuzzy", "score": -neg}
        taken.add(code)
    names = dict(zip(cands["block_lgd_code"], cands["block_name"]))
    exact_codes = {v["code"] for v in out.values() if v["match"] == "exact"}
    for sr in rows["block_sr"]:
        got = out.setdefault(sr, {"code": "", "match": "unmatched", "score": None})
        # the runner-up: the best other block not settled by an exact match of another row
        others = sorted(((-sc[(sr, c)], int(c), c) for c in cands["block_lgd_code"]
                         if c != got["code"] and c not in exact_codes - {got["code"]}))
        if got["match"] == "unmatched":
            got["score"] = -others[0][0] if others else None
            others = others[1:]
        got["runner_up"] = names[others[0][2]] if others else ""
        got["runner_up_score"] = -others[0][0] if others else None
        if got["match"] == "unmatched" and got["score"] is not None:
            got["best"] = names[sorted(((-sc[(sr, c)], int(c), c) for c in cands["block_lgd_code"]))[0][2]]
    return out


def crosswalk_year(year: int, src: pd.DataFrame, blocks: pd.DataFrame, dot: pd.DataFrame,
                   exceptions: pd.DataFrame) -> pd.DataFrame:
    """The source rows of ``year`` with their LGD block (see the module doc)."""
    by_code = blocks.set_index("block_lgd_code")
    out = src.copy()
    res: dict[tuple[str, str], dict] = {}
    for r in dot[dot["year"] == year].itertuples():
        lgd = r.district_lgd_codes.split()
        cands = blocks[blocks["district_lgd_code"].isin(lgd)]
        rows = src[src["sec_district_code"] == r.sec_district_code]
        for sr, v in match_district(rows, cands).items():
            res[(r.sec_district_code, sr)] = v
    for e in exceptions[exceptions["year"] == str(year)].itertuples():
        k = (e.sec_district_code, e.block_sr)
        res[k] = {**res[k], "code": "" if e.block_lgd_code == "none" else e.block_lgd_code, "match": "exception",
                  "score": None, "runner_up": "", "runner_up_score": None}
    codes = [res[(d, s)]["code"] for d, s in zip(src["sec_district_code"], src["block_sr"])]
    out["block_lgd_code"] = codes
    out["block_en"] = [by_code.at[c, "block_name"] if c else "" for c in codes]
    out["district_lgd_code"] = [by_code.at[c, "district_lgd_code"] if c else "" for c in codes]
    out["district_en"] = [by_code.at[c, "district_en"] if c else "" for c in codes]
    for col in ("match", "score", "runner_up", "runner_up_score"):
        vals = [res[(d, s)].get(col) for d, s in zip(src["sec_district_code"], src["block_sr"])]
        out[col] = ["" if v is None else (f"{v:.4f}" if isinstance(v, float) else v) for v in vals]
    out.attrs["best"] = {k: v.get("best", "") for k, v in res.items()}
    dup = out[(out["block_lgd_code"] != "") & out["block_lgd_code"].duplicated(keep=False)]
    if len(dup):
        raise SystemExit(f"{year}: rows reaching the same LGD block (settle them in kp_block_exceptions.csv):\n"
                         + dup[["sec_district_code", "block_sr", "block_hi", "block_lgd_code", "block_en"]]
                         .to_string(index=False))
    return out[CROSSWALK_COLUMNS]


# ----------------------------------------------------------------------------------------------- history
def kp_units_2021() -> set[str]:
    """LGD codes of the Kshetra Panchayats of 2021 (the units the workbench's history reader accepts)."""
    from reservation.rules.kp_chair import load_blocks as load_kp
    return {str(c) for c in load_kp(2021)[0]["unit_code"]}


def history_2015(blocks: pd.DataFrame) -> pd.DataFrame:
    """The 2015 list placed through the SEC 2015 block numbers of blocks_census2011.csv (as shipped since the start)."""
    from reservation.inputs.names import crosswalk
    raw = read_text_csv(HIST / "kp_pramukh_2015.csv")
    b = blocks[blocks["sec2015_block_no"] != ""]
    key = {(d, str(int(float(n)))): c for d, n, c in zip(b["district_lgd_code"], b["sec2015_block_no"],
                                                         b["block_lgd_code"])}
    raw["unit"] = [key[(str(crosswalk().resolve(d)), n)] for d, n in zip(raw["district_hi"], raw["block_no"])]
    info = blocks.set_index("block_lgd_code")
    placed = raw.set_index("unit")
    units = sorted((c for c in blocks["block_lgd_code"] if c in placed.index), key=int)
    return pd.DataFrame({"unit": units, "year": "2015", "category": [placed.at[c, "category"] for c in units],
                         "block_en": [info.at[c, "block_name"] for c in units],
                         "district_en": [info.at[c, "district_en"] for c in units],
                         "name_as_published": [placed.at[c, "block_hi"] for c in units],
                         "district_as_published": [placed.at[c, "district_hi"] for c in units]})


def history_rows(cw: pd.DataFrame, blocks: pd.DataFrame, units: set[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The history format of one crosswalked year, by LGD block code, and the rows left out
    (no LGD block, blank category, or a block that is no Kshetra Panchayat in 2021) with the reason."""
    reason = pd.Series("", index=cw.index)
    reason[~cw["category"].isin(CODES)] = "category blank in the source"
    reason[(reason == "") & ~cw["block_lgd_code"].isin(units) & (cw["block_lgd_code"] != "")] = \
        "no Kshetra Panchayat in 2021 (no gram panchayat in the LGD table)"
    reason[cw["block_lgd_code"] == ""] = "no LGD block"
    keep = cw[reason == ""]
    keep = keep.assign(_o=keep["block_lgd_code"].astype(int)).sort_values("_o", kind="stable")
    h = pd.DataFrame({"unit": keep["block_lgd_code"], "year": keep["year"], "category": keep["category"],
                      "block_en": keep["block_en"], "district_en": keep["district_en"],
                      "name_as_published": keep["block_hi"], "district_as_published": keep["district_hi_at_time"]})
    return h.reset_index(drop=True), cw[reason != ""].assign(left_out=reason[reason != ""])


# ----------------------------------------------------------------------------------------------- build
def build(shared: Path | None = None, exceptions_path: Path | None = None) -> dict:
    """Everything the script writes, as DataFrames, plus the tables it prints."""
    sources = {y: load_source(y, shared) for y in YEARS}
    blocks = load_blocks()
    dot = districts_of_the_time(sources, blocks)
    exceptions = load_exceptions(exceptions_path)
    check_exceptions(exceptions, sources, blocks)
    units = kp_units_2021()
    cws, hist, left = {}, [], []
    for y in YEARS:
        cws[y] = crosswalk_year(y, sources[y], blocks, dot, exceptions)
        h, lo = history_rows(cws[y], blocks, units)
        hist.append(h)
        left.append(lo)
    hist.append(history_2015(blocks))
    history = pd.concat(hist, ignore_index=True)[HISTORY_COLUMNS]
    if history.duplicated(["unit", "year"]).any():
        raise SystemExit("history: a (unit, year) twice")
    return {"crosswalk": cws, "districts": dot, "history": history, "left_out": pd.concat(left, ignore_index=True),
            "exceptions": exceptions}


def outputs(result: dict) -> dict[Path, str]:
    files = {HIST / f"kp_pramukh_{y}.csv": cw for y, cw in result["crosswalk"].items()}
    files[HIST / "kp_districts_of_the_time.csv"] = result["districts"]
    files[HIST / "kp-chair.csv"] = result["history"]
    return {p: df.to_csv(index=False, lineterminator="\n") for p, df in files.items()}


def publish(files: dict[Path, str | bytes]) -> None:
    """Write every file (text as UTF-8, or bytes) to a temporary name beside it, readable by all like any shipped
    file, then rename all; on failure remove the temporaries. The gram pradhan build publishes with it too."""
    temps = []
    try:
        for path, data in files.items():
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            temps.append((tmp, path))
            os.chmod(tmp, 0o644)
            with os.fdopen(fd, "wb") as f:
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
        for tmp, path in temps:
            os.replace(tmp, path)
        temps = []
    finally:
        for tmp, _ in temps:
            Path(tmp).unlink(missing_ok=True)


def rates(result: dict) -> pd.DataFrame:
    rows = []
    for y, cw in result["crosswalk"].items():
        c = cw["match"].value_counts()
        n = len(cw)
        row = {"year": y, "rows": n}
        for k in ("exact", "fuzzy", "exception", "unmatched"):
            row[k] = int(c.get(k, 0))
            row[f"{k}_pct"] = f"{100 * int(c.get(k, 0)) / n:.1f}"
        row["exception_none"] = int(((cw["match"] == "exception") & (cw["block_lgd_code"] == "")).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def serial_check(result: dict) -> pd.DataFrame:
    """Per year: matched rows of districts of the time that are one district today whose block has a SEC 2015
    number, and how many of them carry that number as their serial (the SEC kept its numbering)."""
    blocks = load_blocks().set_index("block_lgd_code")
    single = result["districts"][~result["districts"]["district_lgd_codes"].str.contains(" ")]
    rows = []
    for y, cw in result["crosswalk"].items():
        one = set(single.loc[single["year"] == y, "sec_district_code"])
        m = cw[(cw["block_lgd_code"] != "") & cw["sec_district_code"].isin(one)]
        no = m["block_lgd_code"].map(blocks["sec2015_block_no"])
        m, no = m[no != ""], no[no != ""]
        same = [float(a) == float(b) for a, b in zip(m["block_sr"], no)]
        rows.append({"year": y, "rows_checked": len(m), "serial_equals_2015_number": sum(same),
                     "differ": ", ".join(f"{r.district_hi_at_time} #{r.block_sr} {r.block_hi}"
                                         for r, ok in zip(m.itertuples(), same) if not ok)})
    return pd.DataFrame(rows)


def report(result: dict, out=sys.stdout) -> None:
    from reservation.history import rotation_facts as rf
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p("Match rate per year (rows of the source list):")
    p(rates(result).to_string(index=False))
    for y, cw in result["crosswalk"].items():
        um = cw[cw["match"] == "unmatched"]
        best = cw.attrs.get("best", {})
        p(f"\n{y}: unmatched names ({len(um)}):" + ("" if len(um) else " none"))
        for r in um.itertuples():
            p(f"  {r.sec_district_code} {r.district_hi_at_time} #{r.block_sr} {r.block_hi}  (best candidate "
              f"{best.get((r.sec_district_code, r.block_sr), '')} {r.score})")
        ex = cw[cw["match"] == "exception"]
        p(f"{y}: settled by the exceptions table ({len(ex)}):")
        for r in ex.itertuples():
            p(f"  {r.sec_district_code} {r.district_hi_at_time} #{r.block_sr} {r.block_hi} -> "
              f"{r.block_lgd_code or 'none'} {r.block_en} {r.district_en}")
        fz = cw[cw["match"] == "fuzzy"]
        p(f"{y}: fuzzy matches ({len(fz)}), with the runner-up, for review:")
        for r in fz.itertuples():
            p(f"  {r.sec_district_code} #{r.block_sr} {r.block_hi} -> {r.block_en} ({r.district_en}) {r.score}"
              f"  | next {r.runner_up} {r.runner_up_score}")
    p("\nIndependent check: the serial number of a row equals the SEC 2015 block number of the block it was matched "
      "to (districts of the time that are one district today; blocks in the 2015 list):")
    p(serial_check(result).to_string(index=False))
    lo = result["left_out"]
    p(f"\nSource rows not in kp-chair.csv ({len(lo)}):")
    for r in lo.itertuples():
        p(f"  {r.year} {r.district_hi_at_time} #{r.block_sr} {r.block_hi} {r.block_en}: {r.left_out}")
    h = result["history"].rename(columns={"unit": "unit_code"})
    p("\nkp-chair.csv rows per year and category:")
    p(pd.crosstab(h["year"], h["category"]).reindex(columns=list(CODES), fill_value=0).to_string())
    h = h.astype({"unit_code": int, "year": int})
    facts = rf.repeat_rates(h[["unit_code", "year", "category"]],
                            districts=h.groupby("unit_code")["district_en"].first())
    p("\nRotation as a fact, State-wide (units with a record in both elections; expected = if each district's "
      "categories of the later election were dealt to its blocks at random):")
    p(facts.to_string(index=False))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a shipped file differs")
    args = ap.parse_args(argv)
    shared = shared_dir()
    if not (shared / "data" / "history" / "kp_pramukh_2005.csv").is_file():
        print(f"{shared}/data/history/kp_pramukh_2005.csv not found (set RESERVATION_SHARED)", file=sys.stderr)
        return 2
    result = build(shared)
    texts = outputs(result)
    if args.check:
        bad = [p for p, t in texts.items() if not p.is_file() or p.read_text(encoding="utf-8") != t]
        for p in bad:
            print(f"differs: {p.relative_to(ROOT)}")
        report(result)
        return 1 if bad else 0
    publish(texts)
    report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
