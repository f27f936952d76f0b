"""The matching steps of ``gp_history_crosswalk.py``: a source block -> an LGD block, a gram panchayat's Hindi name ->
an LGD gram panchayat of that block. The name comparisons are those of ``kp_history_crosswalk.py`` (imported, not
copied): :func:`hi_key` (Devanagari against Devanagari), :func:`skeletons` / :func:`en_skeleton` (a Latin consonant
skeleton of a Devanagari and of an English name) and its greedy best-first pairing of the blocks.
"""
from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kp_history_crosswalk import (_CONS, _LATIN, _ratio, en_skeleton, hi_key, match_district,  # noqa: E402
                                  read_text_csv, skeletons)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from reservation.inputs.names import crosswalk  # noqa: E402
from reservation.inputs.units import loose_key, nfc  # noqa: E402

#: The lowest score at which a gram panchayat is placed by a fuzzy match, and how far ahead of the runner-up (the
#: next best LGD gram panchayat for the row, the next best row for the gram panchayat) it must be.
THRESHOLD = 0.80
MARGIN = 0.10
#: Two names of one skeleton count as equal (step 1 of :func:`match_block`) only if their finer keys are at least
#: this alike: पडुई and Pipari (p-r both, finer keys pdui / pipri) are not.
EQUAL_VOWELS = 0.60
#: ... and at least this alike where the skeleton has three letters or fewer (न0 दल and Madauli: n-d-l both).
EQUAL_VOWELS_SHORT = 0.80


def equal_names(hi: str, en: str) -> bool:
    """Step 1's equality: a skeleton in common and finer keys alike enough (:data:`EQUAL_VOWELS`)."""
    common = hi_forms(hi) & en_forms(en)
    if not common:
        return False
    need = EQUAL_VOWELS_SHORT if max(len(k) for k in common) <= 3 else EQUAL_VOWELS
    return vowel_ratio(hi, en) >= need
#: LGD's block-panchayat table names five blocks otherwise than its development-block table (same district, same
#: number of gram panchayats: checked by :func:`lgd_gp_table`), and one district by an older spelling.
LGD_BLOCK_NAMES = {("Aligarh", "Jawan"): "Jawan Sikanderpur", ("Ayodhya", "Haringatanganj"): "Hariyangatanganj",
                   ("Bahraich", "Prayagpur"): "Payagpur", ("Bahraich", "Tajwapur"): "Tejwapur",
                   ("Sonbhadra", "Kon"): "Kone"}
LGD_DISTRICT_NAMES = {"Sant Kabeer Nagar": "Sant Kabir Nagar"}
_URF = re.compile(r"\s+(?:urf|alias)\s+|\s*/\s*", re.I)
_URF_HI = re.compile(r"\s*(?:उर्फ|उर्फ़|/)\s*")
#: The lists' abbreviations of the usual name parts (बु0 = बुजुर्ग Buzurg, खु0 = खुर्द Khurd, क0 = कलां Kalan).
_ABBREV = ((re.compile(r"बु[0०.]"), "बुजुर्ग"), (re.compile(r"खु[0०.]"), "खुर्द"),
           (re.compile(r"(?<![\u0900-\u097f])क[0०.]"), "कलां"))


# ----------------------------------------------------------------------------------------------- the LGD side
def lgd_gp_table(path: Path, blocks: pd.DataFrame) -> pd.DataFrame:
    """LGD's gram panchayats with the development block (``block``, the code of blocks_census2011.csv) each lies in.
    LGD's table keys them by block-panchayat codes; those are placed on development blocks by district and name
    (:data:`LGD_BLOCK_NAMES` for five), and every block must then hold the number of gram panchayats that
    blocks_census2011.csv gives it (``lgd_gp_count``, counted by the shared build)."""
    g = read_text_csv(path)
    cw = crosswalk()
    dist = {z: str(cw.resolve(LGD_DISTRICT_NAMES.get(z, z))) for z in g["zp_name"].unique()}
    key = {(d, n): c for d, n, c in zip(blocks["district_lgd_code"], blocks["block_name"], blocks["block_lgd_code"])}
    bp = g.drop_duplicates("block_code")
    to_block = {}
    for code, z, name in zip(bp["block_code"], bp["zp_name"], bp["block_name"]):
        k = (dist[z], LGD_BLOCK_NAMES.get((z, name), name))
        if k not in key:
            raise SystemExit(f"lgd_up_block_gp.csv: block panchayat {code} {name} ({z}) is no LGD block")
        to_block[code] = key[k]
    if len(set(to_block.values())) != len(to_block):
        raise SystemExit("lgd_up_block_gp.csv: two block panchayats on one LGD block")
    g["block"] = g["block_code"].map(to_block)
    count = g.groupby("block").size()
    want = blocks.set_index("block_lgd_code")["lgd_gp_count"].astype(int)
    bad = [b for b in count.index if count[b] != want[b]]
    if bad:
        raise SystemExit(f"lgd_up_block_gp.csv: gram panchayat counts differ from blocks_census2011.csv in {bad[:5]}")
    return g[["gp_code", "gp_name", "block"]]


# ----------------------------------------------------------------------------------------------- blocks
def place_blocks(groups: pd.DataFrame, blocks: pd.DataFrame, dot: pd.DataFrame, kp: pd.DataFrame | None) -> dict:
    """The LGD block of each source block ``(sec_district_code, block_no)`` of one year (2005 or 2010), with the rule:

    - ``serial``: the block pramukh row of the same year, district of the time and serial (data/history/
      kp_pramukh_YEAR.csv, the reviewed crosswalk) names the same block (equal :func:`loose_key`, or a
      :func:`hi_key` ratio of at least 0.70; a blank name in the gram pradhan list takes the serial's block);
    - ``name``: otherwise the kp crosswalk's matching of block names inside the district of the time
      (``match_district``) among the LGD blocks no serial took;
    - none: ``{code: ''}`` (every gram panchayat of the block is then unplaced, "block not placed").
    """
    out: dict[tuple[str, str], dict] = {}
    kp_key = {(d, s): (h, c) for d, s, h, c in zip(kp["sec_district_code"], kp["block_sr"], kp["block_hi"],
                                                   kp["block_lgd_code"])}
    for r in dot.itertuples():
        mine = groups[groups["sec_district_code"] == r.sec_district_code]
        cands = blocks[blocks["district_lgd_code"].isin(r.district_lgd_codes.split())]
        left = []
        for no, name in zip(mine["block_no"], mine["block_hi"]):
            hi, code = kp_key.get((r.sec_district_code, no), ("", ""))
            s = 1.0 if loose_key(name) == loose_key(hi) else (_ratio(hi_key(name), hi_key(hi)) if hi else 0.0)
            if code and (s >= 0.70 or not name.strip()):
                out[(r.sec_district_code, no)] = {"code": code, "rule": "serial" if name.strip() else "serial, "
                                                  "name blank", "score": round(s, 4)}
            else:
                left.append((no, name))
        taken = {v["code"] for k, v in out.items() if k[0] == r.sec_district_code}
        free = cands[~cands["block_lgd_code"].isin(taken)]
        if left and len(free):
            rows = pd.DataFrame(left, columns=["block_sr", "block_hi"])
            for no, v in match_district(rows, free).items():
                out[(r.sec_district_code, no)] = {"code": v["code"], "rule": "name" if v["code"] else "",
                                                  "score": v["score"]}
        for no, _ in left:
            out.setdefault((r.sec_district_code, no), {"code": "", "rule": "", "score": None})
    return out


def place_blocks_2015(groups: pd.DataFrame, blocks: pd.DataFrame) -> dict:
    """2015: the SEC 2015 block number inside the district (blocks_census2011.csv ``sec2015_block_no``, as the
    block pramukh list of 2015 is placed), rule ``sec2015 number``; the score compares the names."""
    b = blocks[blocks["sec2015_block_no"] != ""]
    key = {(d, str(int(float(n)))): (c, h) for d, n, c, h in zip(b["district_lgd_code"], b["sec2015_block_no"],
                                                                 b["block_lgd_code"], b["sec2015_block_hi"])}
    out = {}
    for d, no, name in zip(groups["district_hi"], groups["block_no"], groups["block_hi"]):
        code, hi = key.get((str(crosswalk().resolve(d)), no), ("", ""))
        s = 1.0 if loose_key(name) == loose_key(hi) else round(_ratio(hi_key(name), hi_key(hi)), 4)
        out[(d, no)] = {"code": code, "rule": "sec2015 number" if code else "", "score": s if code else None}
    return out


# ----------------------------------------------------------------------------------------------- gram panchayats
@lru_cache(maxsize=None)
def hi_forms(name: str) -> frozenset[str]:
    """The consonant skeletons of a Devanagari gram panchayat name and of each part of an "X उर्फ Y" name."""
    s = nfc(name)
    for rx, full in _ABBREV:
        s = rx.sub(full, s)
    parts = [s] + ([p for p in _URF_HI.split(s) if p.strip()] if _URF_HI.search(s) else [])
    return frozenset(k for p in parts for k in skeletons(p) if k)


@lru_cache(maxsize=None)
def en_forms(name: str) -> frozenset[str]:
    """The consonant skeletons of an LGD (English) name and of each part of an "X Urf Y" name."""
    s = unicodedata.normalize("NFC", str(name))
    parts = [s] + ([p for p in _URF.split(s) if p.strip()] if _URF.search(s) else [])
    return frozenset(k for p in parts if (k := en_skeleton(p)))


_VOWEL_SIGNS = {"ि": "i", "ु": "u", "े": "e", "ै": "e", "ो": "o", "ौ": "o", "इ": "i", "उ": "u", "ए": "e",
                "ऐ": "e", "ओ": "o", "औ": "o"}
_EN_VOWELS = (("ee", "i"), ("oo", "u"), ("ai", "e"), ("ei", "e"), ("au", "o"), ("ou", "o"), ("y", "i"))


@lru_cache(maxsize=None)
def hi_vowels(name: str) -> str:
    """A finer key than the skeleton, to tell apart two gram panchayats of one skeleton: the consonants and the
    vowels i, u, e, o (a, the inherent vowel and vowel length dropped, as English spellings drop or double them;
    a final ा kept as "a": Rampur / Rampura)."""
    out = []
    key = hi_key(unicodedata.normalize("NFD", nfc(name)).replace("ज्ञ", "ग्य"))
    for c in key:
        out.append(_VOWEL_SIGNS.get(c) or _CONS.get(c, "").replace("D", "d").replace("h", ""))
    return re.sub(r"(.)\1+", r"\1", "".join(out)) + ("a" if key.endswith("ा") else "")


@lru_cache(maxsize=None)
def en_vowels(name: str) -> str:
    """:func:`hi_vowels` of an English name."""
    s = re.sub(r"[^a-z]", "", str(name).lower())
    for a, b in _LATIN + _EN_VOWELS:
        s = s.replace(a, b)
    final = "a" if s.endswith("a") else ""
    return re.sub(r"(.)\1+", r"\1", s.replace("a", "").replace("h", "")) + final


def _parts_hi(name: str) -> list[str]:
    s = nfc(name)
    for rx, full in _ABBREV:
        s = rx.sub(full, s)
    return [s] + ([p for p in _URF_HI.split(s) if p.strip()] if _URF_HI.search(s) else [])


def _parts_en(name: str) -> list[str]:
    s = unicodedata.normalize("NFC", str(name))
    return [s] + ([p for p in _URF.split(s) if p.strip()] if _URF.search(s) else [])


@lru_cache(maxsize=None)
def vowel_ratio(hi: str, en: str) -> float:
    """The best ratio of :func:`hi_vowels` against :func:`en_vowels` over the names and their "urf" parts."""
    return max(_ratio(hi_vowels(a), en_vowels(b)) for a in _parts_hi(hi) for b in _parts_en(en))


def gp_score(hi: str, en: str) -> float:
    """How alike a Hindi gram panchayat name is to an LGD English one: the mean of the best ratio of their
    skeletons and of their finer keys (:func:`vowel_ratio`), so that a short skeleton alone (पडुई and Pipari are
    both p-r) does not make two names alike."""
    a, b = hi_forms(hi), en_forms(en)
    if not a or not b:
        return 0.0
    sk = 1.0 if a & b else max(_ratio(x, y) for x in a for y in b)
    return round((sk + vowel_ratio(hi, en)) / 2, 4)


def match_block(rows: list[tuple[int, str]], cands: list[tuple[str, str]]) -> dict[int, dict]:
    """Place the rows ``(row id, Hindi name)`` of one source block on the LGD gram panchayats ``(code, English name)``
    of its LGD block, one row per gram panchayat. Returns ``{row id: {code, rule, score, why, alt}}``:

    1. ``exact``: a skeleton of the row equals a skeleton of exactly one gram panchayat, no other row of the block
       has a skeleton of that gram panchayat, and the finer keys (:func:`hi_vowels`, :func:`en_vowels`) are equal
       too; ``skeleton``: the same with the finer keys differing. Where a row's skeleton is that of several gram
       panchayats, or a gram panchayat's that of several rows, the pair must be each other's nearest by the finer
       keys, ahead by :data:`MARGIN` (``exact+vowels``); otherwise the row is unplaced ("fits two LGD gram
       panchayats", "two rows on one LGD gram panchayat");
    2. ``fuzzy``: among the rows and gram panchayats left, pairs best first, if the score is at least
       :data:`THRESHOLD` and ahead by :data:`MARGIN` of the row's next gram panchayat and of the gram panchayat's
       next row (otherwise unplaced, "too close to call");
    3. what is left is unplaced with its best candidate (``alt``) and score ("no LGD gram panchayat alike").
    """
    out: dict[int, dict] = {}
    en_of = dict(cands)
    by_form: dict[str, set[str]] = {}
    for c, en in cands:
        for k in en_forms(en):
            by_form.setdefault(k, set()).add(c)
    eq = {i: sorted((c for c in set().union(*(by_form.get(k, set()) for k in hi_forms(n)))
                     if equal_names(n, en_of[c])), key=int) for i, n in rows}
    eq_rows: dict[str, list[tuple[int, str]]] = {}
    names = dict(rows)
    for i, cs in eq.items():
        for c in cs:
            eq_rows.setdefault(c, []).append((i, names[i]))
    for i, cs in eq.items():
        if not cs:
            continue
        c = cs[0] if len(cs) == 1 else _finer(names[i], [(d, en_of[d]) for d in cs])
        if not c:
            out[i] = {"code": "", "why": "fits two LGD gram panchayats", "alt": " / ".join(en_of[d] for d in cs[:3]),
                      "score": 1.0}
        elif len(eq_rows[c]) > 1 and _finer(en_of[c], eq_rows[c], english=True) != i:
            out[i] = {"code": "", "why": "two rows on one LGD gram panchayat", "alt": en_of[c], "score": 1.0}
        elif len(cs) > 1 or len(eq_rows[c]) > 1:
            out[i] = {"code": c, "rule": "exact+vowels", "score": 1.0}
        else:
            same = hi_vowels(names[i]) == en_vowels(en_of[c])
            out[i] = {"code": c, "rule": "exact" if same else "skeleton", "score": 1.0}
    names = dict(rows)
    free_rows = [i for i, _ in rows if i not in out]
    free_c = [c for c, _ in cands if c not in eq_rows]
    sc = {(i, c): gp_score(names[i], en_of[c]) for i in free_rows for c in free_c}
    _fuzzy(free_rows, free_c, sc, out, names, en_of)
    for i in free_rows:
        v = out.setdefault(i, {"code": "", "why": "no LGD gram panchayat alike"})
        if not v["code"] and free_c and not v.get("alt"):
            best = sorted((-sc[(i, c)], int(c), c) for c in free_c)[0]
            v["score"], v["alt"] = -best[0], en_of[best[2]]
    return out


def _finer(name: str, cands: list, english: bool = False):
    """The one of several gram panchayats (``(code, English name)``) of equal skeleton whose :func:`en_vowels` is
    nearest to the row's :func:`hi_vowels`, if it is ahead of the next by :data:`MARGIN`; else ''. With
    ``english``: the one of several rows (``(row id, Hindi name)``) nearest to the gram panchayat ``name``."""
    if english:
        ranked = sorted((-_ratio(hi_vowels(hi), en_vowels(name)), i) for i, hi in cands)
    else:
        ranked = sorted(((-_ratio(hi_vowels(name), en_vowels(en)), int(c), c) for c, en in cands))
        ranked = [(r[0], r[2]) for r in ranked]
    return ranked[0][1] if -ranked[0][0] + ranked[1][0] >= MARGIN else ""


def _fuzzy(free_rows: list[int], free_c: list[str], sc: dict, out: dict, names: dict, en_of: dict) -> None:
    """Step 2 of :func:`match_block`, in place. A pair whose skeleton score is not ahead of a rival by
    :data:`MARGIN` is still placed (``fuzzy+vowels``) when its :func:`hi_vowels` / :func:`en_vowels` ratio is
    ahead of every such rival's by :data:`MARGIN`."""
    pairs = sorted((-sc[(i, c)], i, int(c), c) for i in free_rows for c in free_c if sc[(i, c)] >= THRESHOLD)
    done_r, done_c = set(), set()
    for neg, i, _, c in pairs:
        if i in done_r or c in done_c:
            continue
        s = -neg
        row_next = max((sc[(i, d)] for d in free_c if d != c and d not in done_c), default=0.0)
        gp_next = max((sc[(j, c)] for j in free_rows if j != i and j not in done_r), default=0.0)
        rule = "fuzzy"
        if s - row_next < MARGIN or s - gp_next < MARGIN:
            rule = "fuzzy+vowels"
            v = _ratio(hi_vowels(names[i]), en_vowels(en_of[c]))
            rivals = [_ratio(hi_vowels(names[i]), en_vowels(en_of[d])) for d in free_c
                      if d != c and d not in done_c and s - sc[(i, d)] < MARGIN]
            rivals += [_ratio(hi_vowels(names[j]), en_vowels(en_of[c])) for j in free_rows
                       if j != i and j not in done_r and s - sc[(j, c)] < MARGIN]
            if v - max(rivals, default=0.0) < MARGIN:
                rule = ""
        if not rule:
            out[i] = {"code": "", "why": "too close to call", "score": s, "alt": ""}
            done_r.add(i)
            done_c.add(c)
            continue
        out[i] = {"code": c, "rule": rule, "score": s}
        done_r.add(i)
        done_c.add(c)


# ----------------------------------------------------------------------------------------------- evidence
def block_evidence(src: pd.DataFrame, lgd: pd.DataFrame) -> dict[tuple[str, str], list[tuple[int, str]]]:
    """For each source block ``(key, block_no)``: the LGD blocks ranked by how many of its rows have a skeleton
    equal to one of the block's gram panchayats (``[(hits, block code), ...]``, best first, up to three)."""
    index: dict[str, set[str]] = {}
    for name, block in zip(lgd["gp_name"], lgd["block"]):
        for k in en_forms(name):
            index.setdefault(k, set()).add(block)
    out = {}
    for (key, no), g in src.groupby(["key", "block_no"], sort=False):
        hits: dict[str, int] = {}
        for name in g["gp_hi"]:
            for b in set().union(*(index.get(k, set()) for k in hi_forms(name))):
                hits[b] = hits.get(b, 0) + 1
        out[(key, no)] = sorted(((n, b) for b, n in hits.items()), key=lambda t: (-t[0], int(t[1])))[:3]
    return out


def by_evidence(ranked: list[tuple[int, str]], rows: int) -> str:
    """The LGD block the gram panchayats of a source block name, if clear: at least half its rows have a skeleton of
    that block's gram panchayats and at least twice as many as of any other block; else ''."""
    if not ranked:
        return ""
    n, b = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else 0
    return b if 2 * n >= rows and n >= 2 * second else ""
