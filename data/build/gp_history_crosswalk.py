"""Place the gram pradhan reservation lists of 2005, 2010 and 2015 on LGD gram panchayats, and ship them as history.

Run from the repository root:  python data/build/gp_history_crosswalk.py  [--check]

Reads (``SHARED`` = ``$RESERVATION_SHARED`` or ``../shared`` next to the repository):
  SHARED/data/history/gp_pradhan_2005.csv.gz, _2010, _2015   the SEC lists (2005 OCR, 2010 font-decoded, 2015)
  SHARED/data/reference/lgd_up_block_gp.csv                   LGD's 57,695 gram panchayats with their blocks
  data/blocks_census2011.csv, data/districts.csv               LGD blocks with the SEC 2015 block number and name
  data/history/kp_pramukh_2005.csv, _2010.csv                  the reviewed block crosswalk of the pramukh lists
  data/history/kp_districts_of_the_time.csv                    districts of the time -> today's districts
  data/history/gp_exceptions.csv                               the reviewed exceptions (hand-written, never rewritten)
Writes (atomically; twice the same input gives byte-identical files; gzip without a time stamp):
  data/history/gp-pradhan.csv.gz   the history: ``unit`` (LGD gram panchayat code), ``year``, ``category``,
                                   ``block`` (LGD block code), ``source`` (file and data row, 1 = the first row
                                   under the header), ``match`` (rule) and ``score``, ``name_as_published``, and
                                   ``caveat`` (``check``: the source's winner columns do not fit the seat;
                                   ``uncertain``: the 2005 OCR cell held two labels, the first was taken)
  data/history/gp_unplaced.csv.gz  every source row not in the history, with the reason and the best candidate
  data/history/gp_blocks.csv       every source block of each year -> LGD block, with the rule and the rows placed
and prints the coverage per year and rule and per district. ``--check`` writes nothing and exits 1 if a shipped
file differs from what the build gives.

Blocks (gp_match.place_blocks): 2005 and 2010 through the pramukh lists' reviewed crosswalk (same district of the
time and serial, the names agreeing), else by block name inside the district of the time; 2015 through the SEC
2015 block number of blocks_census2011.csv. Gram panchayats (gp_match.match_block): inside the LGD block only,
a Latin consonant skeleton of the Hindi name against that of the LGD English name (the kp crosswalk's
``skeletons`` / ``en_skeleton``, and the parts of "X urf Y" names): ``exact`` when the skeletons are equal and
the pair is unique both ways, ``fuzzy`` at a ratio of at least gp_match.THRESHOLD and gp_match.MARGIN ahead of
either runner-up, ``exception`` from gp_exceptions.csv; everything else unplaced with its reason. A row with a
blank category is unplaced ("category blank in the source") even when its gram panchayat is known (``unit``).
"""
from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gp_match import (block_evidence, by_evidence, lgd_gp_table, match_block, place_blocks,  # noqa: E402
                      place_blocks_2015)
from kp_history_crosswalk import load_blocks, publish, read_text_csv, shared_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from kp_history_crosswalk import _ratio, hi_key  # noqa: E402
from reservation.law.categories import CODES  # noqa: E402
from reservation.inputs.units import nfc  # noqa: E402

DATA = ROOT / "data"
HIST = DATA / "history"
YEARS = (2005, 2010, 2015)
HISTORY_COLUMNS = ["unit", "year", "category", "block", "source", "match", "score", "name_as_published", "caveat"]
UNPLACED_COLUMNS = ["year", "source", "district_hi", "block_no", "block_hi", "gp_no", "gp_hi", "category",
                    "block", "unit", "reason", "best", "best_score", "caveat"]
BLOCK_COLUMNS = ["year", "district_key", "block_no", "block_hi", "rows", "block", "block_en", "district_en",
                 "rule", "score", "placed"]
EXCEPTION_COLUMNS = ["year", "source", "district_hi", "block_hi", "gp_hi", "unit", "gp_en", "reason"]


# ----------------------------------------------------------------------------------------------- inputs
def load_source(year: int, shared: Path) -> pd.DataFrame:
    """One year's list with ``source`` (file#row), ``key`` (the district of the time: SEC code, or the 2015 Hindi
    name) and ``caveat``."""
    name = f"gp_pradhan_{year}.csv.gz"
    df = read_text_csv(shared / "data" / "history" / name)
    df["source"] = [f"{name}#{i}" for i in range(1, len(df) + 1)]
    df["key"] = df["sec_district_code"] if year != 2015 else df["district_hi"]
    note = df["note"] if "note" in df.columns else pd.Series("", index=df.index)
    df["caveat"] = ["check" if "check:" in n else "uncertain" if "uncertain:" in n else "" for n in note]
    for c in ("district_hi", "block_hi", "gp_hi"):
        df[c] = df[c].map(nfc)
    return df


def load_exceptions(path: Path, sources: dict[int, pd.DataFrame], lgd: pd.DataFrame) -> pd.DataFrame:
    """The reviewed exceptions: each names a source row (by ``source``, with its district, block and gram
    panchayat names as published) and an LGD gram panchayat (code and English name) or ``none``, with a reason."""
    ex = read_text_csv(path)
    if list(ex.columns) != EXCEPTION_COLUMNS:
        raise SystemExit(f"{path.name}: columns {list(ex.columns)} != {EXCEPTION_COLUMNS}")
    if ex["source"].duplicated().any():
        row = int(ex["source"].duplicated().to_numpy().argmax()) + 2
        raise SystemExit(f"{path.name}: row {row} repeats a source row")
    names = dict(zip(lgd["gp_code"], lgd["gp_name"]))
    for i, e in enumerate(ex.itertuples(), start=2):
        src = sources.get(int(e.year)) if e.year.isdigit() else None
        hit = src[src["source"] == e.source] if src is not None else pd.DataFrame()
        if hit.empty or [hit[c].iat[0] for c in ("district_hi", "block_hi", "gp_hi")] != \
                [nfc(e.district_hi), nfc(e.block_hi), nfc(e.gp_hi)]:
            raise SystemExit(f"{path.name} row {i}: {e.source} {e.gp_hi} is not a row of the {e.year} list")
        if e.unit != "none" and names.get(e.unit) != e.gp_en:
            raise SystemExit(f"{path.name} row {i}: {e.unit} is not the LGD gram panchayat {e.gp_en}")
        if not e.reason.strip():
            raise SystemExit(f"{path.name} row {i}: no reason given")
    return ex


# ----------------------------------------------------------------------------------------------- blocks
def block_table(year: int, src: pd.DataFrame, blocks: pd.DataFrame, lgd: pd.DataFrame) -> pd.DataFrame:
    """The source blocks of one year with their LGD block (see gp_match.place_blocks); a block neither its serial
    nor its name places takes the LGD block its gram panchayats name (gp_match.by_evidence, rule ``gram
    panchayats``, score = the share of its rows whose skeleton is a gram panchayat of that block)."""
    g = (src.groupby(["key", "block_no", "block_hi"], sort=False).size().rename("rows").reset_index())
    if g.duplicated(["key", "block_no"]).any():
        raise SystemExit(f"{year}: a block number with two names in one district")
    if year == 2015:
        placed = place_blocks_2015(g.rename(columns={"key": "district_hi"}), blocks)
    else:
        dot = read_text_csv(HIST / "kp_districts_of_the_time.csv")
        kp = read_text_csv(HIST / f"kp_pramukh_{year}.csv")
        placed = place_blocks(g.rename(columns={"key": "sec_district_code"}), blocks, dot[dot["year"] == str(year)],
                              kp)
    info = blocks.set_index("block_lgd_code")
    ev = block_evidence(src, lgd)
    for k, n, rows in zip(g["key"], g["block_no"], g["rows"]):
        if not placed[(k, n)]["code"] and (b := by_evidence(ev[(k, n)], rows)):
            placed[(k, n)] = {"code": b, "rule": "gram panchayats", "score": round(ev[(k, n)][0][0] / rows, 4)}
    v = [placed[(k, n)] for k, n in zip(g["key"], g["block_no"])]
    g["block"] = [x["code"] for x in v]
    g["block_en"] = [info.at[c, "block_name"] if c else "" for c in g["block"]]
    g["district_en"] = [info.at[c, "district_en"] if c else "" for c in g["block"]]
    g["rule"] = [x["rule"] for x in v]
    g["score"] = ["" if x["score"] is None else f"{x['score']:.4f}" for x in v]
    g.insert(0, "year", str(year))
    return g.rename(columns={"key": "district_key"})


# ----------------------------------------------------------------------------------------------- gram panchayats
def place_year(year: int, src: pd.DataFrame, bt: pd.DataFrame, lgd: pd.DataFrame, ex: pd.DataFrame) -> pd.DataFrame:
    """Every source row of ``year`` with ``block``, ``unit``, ``match``, ``score``, ``reason``, ``best``."""
    res: dict[int, dict] = {}
    by_block = {b: list(zip(g["gp_code"], g["gp_name"])) for b, g in lgd.groupby("block", sort=True)}
    ex = ex[ex["year"] == str(year)]
    fixed = dict(zip(ex["source"], ex["unit"]))
    code_of = {(k, n): b for k, n, b in zip(bt["district_key"], bt["block_no"], bt["block"])}
    src = src.assign(block=[code_of[(k, n)] for k, n in zip(src["key"], src["block_no"])])
    for b, g in src.groupby("block", sort=True):
        if not b:
            for i in g.index:
                res[i] = {"code": "", "why": "block not placed"}
            continue
        cands = by_block.get(b, [])
        if not cands:
            for i in g.index:
                res[i] = {"code": "", "why": "no LGD gram panchayat in the block"}
            continue
        mine = [(i, s) for i, s in zip(g.index, g["source"]) if s in fixed]
        for i, s in mine:
            res[i] = {"code": "" if fixed[s] == "none" else fixed[s], "rule": "exception",
                      "why": "none in gp_exceptions.csv"}
        settled = {fixed[s] for _, s in mine}
        rows = [(i, n) for i, n, s in zip(g.index, g["gp_hi"], g["source"]) if s not in fixed]
        res.update(match_block(rows, [c for c in cands if c[0] not in settled]))
    district_pass(year, src, res, lgd)
    out = src.copy()
    v = [res[i] for i in out.index]
    out["unit"] = [x["code"] for x in v]
    gp_block = dict(zip(lgd["gp_code"], lgd["block"]))
    out["src_block"] = out["block"]
    out["block"] = [gp_block[u] if u else b for u, b in zip(out["unit"], out["block"])]
    out["match"] = [x.get("rule", "") if x["code"] else "" for x in v]
    out["score"] = ["" if x.get("score") is None else f"{x['score']:.4f}" for x in v]
    out["reason"] = ["" if x["code"] else x.get("why", "") for x in v]
    out["best"] = [x.get("alt", "") if not x["code"] else "" for x in v]
    blank = ~out["category"].isin(CODES)
    out.loc[blank & (out["unit"] != ""), "reason"] = "category blank in the source"
    out.loc[blank & (out["unit"] == ""), "reason"] = "category blank in the source; " + out["reason"]
    return out


#: The reasons of step 1 that step 2 (:func:`district_pass`) takes up: the row's own block has no gram panchayat
#: of its name (it moved to another block, or the source put it under the wrong block).
RETRY = ("no LGD gram panchayat alike", "block not placed", "no LGD gram panchayat in the block")


def district_pass(year: int, src: pd.DataFrame, res: dict, lgd: pd.DataFrame) -> None:
    """Step 2, in place: a row its own LGD block could not place takes a gram panchayat of another block of its
    district(s) of the time when its skeleton equals that of exactly one LGD gram panchayat of those districts
    (taken or not: a name that repeats in the district is never guessed), the names are equal by step 1's test
    (gp_match.equal_names: the finer keys alike too), that gram panchayat is not placed this
    year, and no other such row claims it (rule ``exact, other block``). Gram panchayats moved to the blocks
    created after 2015 (Bhagwatpur, Sringverpur Dham, Bharohiya, Kone, ...) and the 2005 OCR's rows filed under
    the wrong block are found so."""
    from gp_match import en_forms, equal_names, hi_forms
    from reservation.inputs.names import crosswalk
    if year == 2015:
        dist = {k: [str(crosswalk().resolve(k))] for k in src["key"].unique()}
    else:
        dot = read_text_csv(HIST / "kp_districts_of_the_time.csv")
        dot = dot[dot["year"] == str(year)]
        dist = dict(zip(dot["sec_district_code"], dot["district_lgd_codes"].str.split()))
    info = load_blocks().set_index("block_lgd_code")
    gp_dist = lgd["block"].map(info["district_lgd_code"])
    taken = {v["code"] for v in res.values() if v["code"]}
    names = dict(zip(lgd["gp_code"], lgd["gp_name"]))
    claim: dict[str, list[int]] = {}
    for key, g in src.groupby("key", sort=True):
        pool = [i for i in g.index if not res[i]["code"] and res[i].get("why") in RETRY]
        if not pool:
            continue
        mine = lgd[gp_dist.isin(dist[key])]
        by_form: dict[str, set[str]] = {}
        for c, en in zip(mine["gp_code"], mine["gp_name"]):
            for k in en_forms(en):
                by_form.setdefault(k, set()).add(c)
        for i in pool:
            cs = set().union(*(by_form.get(k, set()) for k in hi_forms(src.at[i, "gp_hi"])))
            c = next(iter(cs)) if len(cs) == 1 else ""
            if c and c not in taken and equal_names(src.at[i, "gp_hi"], names[c]):
                claim.setdefault(c, []).append(i)
    for c, rows in claim.items():
        for i in rows:
            res[i] = ({"code": c, "rule": "exact, other block", "score": 1.0} if len(rows) == 1 else
                      {"code": "", "why": "two rows on one LGD gram panchayat", "score": 1.0, "alt": names[c]})


#: The reasons of steps 1-2 that step 3 (:func:`cross_year_pass`) takes up.
VIA = RETRY + ("fits two LGD gram panchayats", "too close to call")
#: The lowest :func:`hi_key` ratio (Hindi against Hindi) at which two years' rows of one number are one name.
VIA_THRESHOLD = 0.75


def cross_year_pass(placed: dict[int, pd.DataFrame], lgd: pd.DataFrame) -> None:
    """Step 3, in place: the SEC kept the gram panchayat numbers inside a block from one election to the next
    (of the gram panchayats placed in both 2010 and 2015 in one block, 99 % carry the same ``gp_no``; the build
    prints the figure). A row steps 1-2 left unplaced takes the LGD gram panchayat of another year's row of the
    same LGD block and number whose Hindi name is alike (:func:`hi_key` ratio at least :data:`VIA_THRESHOLD`),
    if that names one gram panchayat, it is not placed this year and no other row claims it: rule ``via YEAR``,
    the score the Hindi ratio. Only rows placed by steps 1-2 are evidence (no chain of guesses)."""
    known: dict[tuple[str, str], list[tuple[int, str, str]]] = {}
    for y, p in placed.items():
        ok = p[p["unit"] != ""]
        for sb, no, u, n in zip(ok["src_block"], ok["gp_no"], ok["unit"], ok["gp_hi"]):
            known.setdefault((sb, no), []).append((y, u, hi_key(n)))
    gp_block = dict(zip(lgd["gp_code"], lgd["block"]))
    for y, p in placed.items():
        taken = set(p.loc[p["unit"] != "", "unit"])
        todo = p[(p["unit"] == "") & p["reason"].isin(VIA) & (p["src_block"] != "")]
        claim: dict[str, list[tuple[int, int, float]]] = {}
        for i, sb, no, n in zip(todo.index, todo["src_block"], todo["gp_no"], todo["gp_hi"]):
            k = hi_key(n)
            hits: dict[str, tuple[int, float]] = {}
            for yy, u, kk in known.get((sb, no), []):
                r = round(_ratio(k, kk), 4)
                if yy != y and r >= VIA_THRESHOLD and r > hits.get(u, (0, 0.0))[1]:
                    hits[u] = (yy, r)
            if len(hits) == 1 and (u := next(iter(hits))) not in taken:
                claim.setdefault(u, []).append((i, *hits[u]))
        for u, rows in sorted(claim.items()):
            if len(rows) == 1:
                i, yy, r = rows[0]
                p.loc[i, ["unit", "match", "score", "reason", "best", "block"]] = \
                    [u, f"via {yy}", f"{r:.4f}", "", "", gp_block[u]]


def split(placed: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The history rows (a unit and a category) and the unplaced rows of one year."""
    ok = placed["reason"] == ""
    h = placed[ok]
    h = h.assign(_u=h["unit"].astype(int)).sort_values("_u", kind="stable")
    hist = pd.DataFrame({"unit": h["unit"], "year": h["year"] if "year" in h else "", "category": h["category"],
                         "block": h["block"], "source": h["source"], "match": h["match"], "score": h["score"],
                         "name_as_published": h["gp_hi"], "caveat": h["caveat"]})
    u = placed[~ok]
    un = pd.DataFrame({"year": u["year"], "source": u["source"], "district_hi": u["district_hi"],
                       "block_no": u["block_no"], "block_hi": u["block_hi"], "gp_no": u["gp_no"], "gp_hi": u["gp_hi"],
                       "category": u["category"], "block": u["block"], "unit": u["unit"], "reason": u["reason"],
                       "best": u["best"], "best_score": u["score"], "caveat": u["caveat"]})
    return hist.reset_index(drop=True), un.reset_index(drop=True)


# ----------------------------------------------------------------------------------------------- build
def build(shared: Path | None = None, exceptions_path: Path | None = None) -> dict:
    shared = shared or shared_dir()
    blocks = load_blocks()
    lgd = lgd_gp_table(shared / "data" / "reference" / "lgd_up_block_gp.csv", blocks)
    sources = {y: load_source(y, shared) for y in YEARS}
    for y, s in sources.items():
        if "year" not in s.columns:
            s.insert(0, "year", str(y))
    ex = load_exceptions(exceptions_path or HIST / "gp_exceptions.csv", sources, lgd)
    bts, hist, unpl, placed = [], [], [], {}
    for y in YEARS:
        bts.append(block_table(y, sources[y], blocks, lgd))
        placed[y] = place_year(y, sources[y], bts[-1], lgd, ex)
    cross_year_pass(placed, lgd)
    for y, bt in zip(YEARS, bts):
        h, u = split(placed[y])
        if h["unit"].duplicated().any():
            raise SystemExit(f"{y}: an LGD gram panchayat twice")
        bt["placed"] = [int(((placed[y]["key"] == k) & (placed[y]["block_no"] == n)
                             & (placed[y]["reason"] == "")).sum()) for k, n in zip(bt["district_key"], bt["block_no"])]
        hist.append(h)
        unpl.append(u)
    return {"history": pd.concat(hist, ignore_index=True)[HISTORY_COLUMNS],
            "unplaced": pd.concat(unpl, ignore_index=True)[UNPLACED_COLUMNS],
            "blocks": pd.concat(bts, ignore_index=True)[BLOCK_COLUMNS], "placed": placed, "lgd": lgd,
            "block_info": blocks}


def _gz(df: pd.DataFrame) -> bytes:
    return gzip.compress(df.to_csv(index=False, lineterminator="\n").encode("utf-8"), compresslevel=9, mtime=0)


def outputs(result: dict) -> dict[Path, bytes]:
    return {HIST / "gp-pradhan.csv.gz": _gz(result["history"]),
            HIST / "gp_unplaced.csv.gz": _gz(result["unplaced"]),
            HIST / "gp_blocks.csv": result["blocks"].to_csv(index=False, lineterminator="\n").encode("utf-8")}


def same(path: Path, data: bytes) -> bool:
    """A shipped file equals the build's (gzip files compared by their text, so another zlib cannot fail it)."""
    if not path.is_file():
        return False
    old = path.read_bytes()
    if path.suffix == ".gz":
        return gzip.decompress(old) == gzip.decompress(data)
    return old == data


# ----------------------------------------------------------------------------------------------- report
RULES = ("exact", "skeleton", "exact+vowels", "fuzzy", "fuzzy+vowels", "exact, other block", "via 2005", "via 2010",
         "via 2015", "exception")


def rates(result: dict) -> pd.DataFrame:
    """Per year: rows, placed by rule, unplaced by reason."""
    rows = []
    for y, p in result["placed"].items():
        n = len(p)
        ok = p["reason"] == ""
        row = {"year": y, "rows": n, "placed": int(ok.sum()), "placed_pct": f"{100 * ok.sum() / n:.1f}"}
        for k in RULES:
            row[k] = int((ok & (p["match"] == k)).sum())
            row[f"{k}_pct"] = f"{100 * row[k] / n:.1f}"
        row["unplaced"] = n - row["placed"]
        rows.append(row)
    return pd.DataFrame(rows)


def serial_check(result: dict) -> pd.DataFrame:
    """An independent check of the matching: the SEC kept the gram panchayat numbers inside a block, so an LGD
    gram panchayat placed in two years within one LGD block should carry the same ``gp_no`` in both. Per pair of
    years and per rule of the later year's row: the units placed in both, and how many carry the same number."""
    rows = []
    for a, b in ((2005, 2010), (2010, 2015), (2005, 2015)):
        cols = ["unit", "src_block", "gp_no", "match"]
        pa, pb = (result["placed"][y] for y in (a, b))
        m = pa.loc[pa["reason"] == "", cols].merge(pb.loc[pb["reason"] == "", cols], on="unit")
        m = m[m["src_block_x"] == m["src_block_y"]]
        for rule, g in [("all", m)] + list(m.groupby("match_y", sort=True)):
            same = int((g["gp_no_x"] == g["gp_no_y"]).sum())
            rows.append({"years": f"{a}-{b}", "rule_of_later": rule, "units": len(g), "same_number": same,
                         "pct": f"{100 * same / len(g):.1f}" if len(g) else ""})
    return pd.DataFrame(rows)


def reasons(result: dict) -> pd.DataFrame:
    u = result["unplaced"]
    return pd.crosstab(u["reason"], u["year"]).reset_index()


def coverage(result: dict) -> pd.DataFrame:
    """Per today's district and year: placed, unplaced and total source rows, and of LGD's gram panchayats how
    many have a record (a row of the history) that year. A row whose block is not placed counts in the district
    of the time's first district today."""
    info = result["block_info"].set_index("block_lgd_code")
    dot = read_text_csv(HIST / "kp_districts_of_the_time.csv")
    first = {(y, k): c.split()[0] for y, k, c in zip(dot["year"], dot["sec_district_code"], dot["district_lgd_codes"])}
    from reservation.inputs.names import crosswalk
    names = dict(zip(info["district_lgd_code"], info["district_en"]))
    lgd = result["lgd"].assign(district=lambda d: d["block"].map(info["district_lgd_code"]))
    rows = []
    for y, p in result["placed"].items():
        dist = [info.at[b, "district_lgd_code"] if b else
                (first[(str(y), k)] if y != 2015 else str(crosswalk().resolve(k)))
                for b, k in zip(p["block"], p["key"])]
        p = p.assign(district=dist, ok=p["reason"] == "")
        g = p.groupby("district").agg(placed=("ok", "sum"), total=("ok", "size"))
        rec = lgd[lgd["gp_code"].isin(set(p.loc[p["ok"], "unit"]))].groupby("district").size()
        for d, r in g.iterrows():
            rows.append({"district": names[d], "year": y, "placed": int(r["placed"]),
                         "unplaced": int(r["total"] - r["placed"]), "total": int(r["total"]),
                         "lgd_gps": int((lgd["district"] == d).sum()), "with_record": int(rec.get(d, 0))})
    return pd.DataFrame(rows).sort_values(["district", "year"], kind="stable")


def coverage_markdown(cov: pd.DataFrame) -> str:
    """The README's table: one row per district, per year placed / unplaced / total and LGD GPs with a record."""
    lines = ["| district | LGD GPs | " + " | ".join(f"{y} placed / unplaced / total | {y} LGD GPs with a record"
                                                   for y in YEARS) + " |",
             "|---|---:|" + "---:|---:|" * len(YEARS)]
    tot = cov.groupby("year")[["placed", "unplaced", "total", "with_record"]].sum()
    for d, g in list(cov.groupby("district", sort=True)) + [("**State**", None)]:
        g = g.set_index("year") if g is not None else tot
        n = int(cov.drop_duplicates("district")["lgd_gps"].sum()) if d == "**State**" else int(g["lgd_gps"].iat[0])
        cells = [f"{g.at[y, 'placed']:,} / {g.at[y, 'unplaced']:,} / {g.at[y, 'total']:,} | "
                 f"{g.at[y, 'with_record']:,} ({100 * g.at[y, 'with_record'] / n:.0f} %)" if y in g.index else "- | -"
                 for y in YEARS]
        lines.append(f"| {d} | {n:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def report(result: dict, out=sys.stdout, *, markdown: bool = False) -> None:
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p("Gram pradhan rows placed on LGD gram panchayats, per year and rule:")
    p(rates(result).to_string(index=False))
    p("\nUnplaced rows by reason:")
    p(reasons(result).to_string(index=False))
    b = result["blocks"]
    p("\nSource blocks per year and rule (rows):")
    p(b.assign(rows=b["rows"].astype(int)).pivot_table(index="rule", columns="year", values="rows", aggfunc="sum",
                                                       fill_value=0).to_string())
    nb = b[b["block"] == ""]
    p(f"\nSource blocks not placed ({len(nb)}):")
    for r in nb.itertuples():
        p(f"  {r.year} {r.district_key} #{r.block_no} {r.block_hi} ({r.rows} rows)")
    low = b[(b["block"] != "") & (b["placed"] < 0.5 * b["rows"].astype(int))]
    p(f"\nPlaced blocks where fewer than half the rows found their gram panchayat ({len(low)}):")
    for r in low.itertuples():
        p(f"  {r.year} {r.district_key} #{r.block_no} {r.block_hi} -> {r.block_en} ({r.district_en}) {r.rule}: "
          f"{r.placed} of {r.rows}")
    p("\nIndependent check: the same LGD gram panchayat carries the same SEC number (gp_no) in both years, in one "
      "block (by the rule that placed the later year's row):")
    p(serial_check(result).to_string(index=False))
    h = result["history"]
    p("\nHistory rows per year and category:")
    p(pd.crosstab(h["year"], h["category"]).reindex(columns=list(CODES), fill_value=0).to_string())
    if markdown:
        p("\n" + coverage_markdown(coverage(result)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a shipped file differs")
    ap.add_argument("--markdown", action="store_true", help="also print the README's coverage table")
    args = ap.parse_args(argv)
    shared = shared_dir()
    need = [shared / "data" / "history" / f"gp_pradhan_{y}.csv.gz" for y in YEARS]
    need.append(shared / "data" / "reference" / "lgd_up_block_gp.csv")
    missing = [p for p in need if not p.is_file()]
    if missing:
        print(f"{missing[0]} not found (set RESERVATION_SHARED)", file=sys.stderr)
        return 2
    result = build(shared)
    files = outputs(result)
    if args.check:
        bad = [p for p, data in files.items() if not same(p, data)]
        for p in bad:
            print(f"differs: {p.relative_to(ROOT)}")
        report(result, markdown=args.markdown)
        return 1 if bad else 0
    publish(files)
    report(result, markdown=args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
