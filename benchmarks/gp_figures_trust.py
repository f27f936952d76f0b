"""How far the gram panchayat figures can be trusted: the State's 2015 SC gram panchayats against the Census
figures we hold (issue 21 item 5).

The Census figures by gram panchayat that the workbench ships (``data/gp_census2011.csv.gz``) are the Census 2011
villages whose names match an LGD gram panchayat's: a part of its people, and nothing for a fifth of them. The
2015 gram pradhan lists (``data/history/gp-pradhan.csv.gz``) say which gram panchayats the State made SC (SC or
SC_W). The law (PR Rules 1994 r.4, GO of 2015) takes them, inside each block, in descending order of the SC share
of the population, within the rotation tiers. So if our figures ordered a block's gram panchayats as the State's
did, the State's SC gram panchayats would be the top of their tier by our figures. Two measures:

(a) **rank**: each State SC gram panchayat's percentile in its block's SC order *inside its own rotation tier*
    (the tiers of the engine's SC pass, :func:`reservation.engine.steps.tiers` through the run, with the default
    base year of 2015, which is 2010 by the record), among the gram panchayats of that block and tier that have
    figures, a 2015 record and are not ST in it (compare like with like: a gram panchayat SC in 2010 was passed
    over by the State, so it is compared only with others passed over). Percentile = (mid-rank - 1/2) / m, rank 1
    the highest share (the engine's own order key; equal keys share their mid-rank): exactly 0.5 on average if
    the figures carried no information on the State's order; ``ideal`` the mean had the State's SC gram
    panchayats been exactly the top of their tiers; ``index`` = (0.5 - mean) / (0.5 - ideal), 1 = our order is
    the State's, 0 = no better than chance.
(b) **agreement**: the share of the State's SC gram panchayats that the engine's own
    ``reservation allot --body gp-pradhan --year 2015`` (default options and base year) also makes SC, against
    the share expected by chance (each tier's SC posts of the engine in the block dealt at random among the
    tier's gram panchayats with figures in the engine's SC pool) and the ceiling (no more agreements than
    posts on each side in each block and tier).

Intervals: (a) a bootstrap over blocks (seed :data:`SEED`, :data:`REPS` draws; blocks are resampled whole, since
the gram panchayats of a block share their figures' quality), beside the band of the mean under chance (the
exact variance of a mean of ranks drawn without replacement); (b) the exact (Clopper-Pearson) interval.

Run:  python benchmarks/gp_figures_trust.py [--markdown] [--districts]
Reads data/ (shipped) only and runs the engine once (seconds).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
sys.path.insert(0, str(ROOT))

import reservation  # noqa: E402
from reservation.law.categories import by_code  # noqa: E402


def _rotation_record():
    spec = importlib.util.spec_from_file_location("rotation_record", ROOT / "benchmarks" / "rotation_record.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


rr = _rotation_record()
clopper_pearson = rr.clopper_pearson

SEED = 2015
REPS = 2000
YEAR = 2015
#: the block's share of rural people that its placed villages hold (``block_covered``), in bands
BANDS = ((0.0, 0.5, "under 50 %"), (0.5, 0.7, "50-70 %"), (0.7, 0.85, "70-85 %"), (0.85, 2.0, "85 % or more"))
RULES = ("name_match", "name_match_tehsil", "name_skeleton")


def _group(cats) -> np.ndarray:
    """The group (ST, SC, OBC, GEN; "" for no record) of each category code."""
    return np.array([by_code(c).group if c else "" for c in cats], dtype=object)


# --- the frame: one row per LGD gram panchayat ---------------------------------------------------------------

def state_list(year: int = YEAR) -> pd.DataFrame:
    """The State's list of ``year`` on LGD gram panchayats: ``unit_code, state_cat, match, caveat``."""
    h = pd.read_csv(DATA / "history" / "gp-pradhan.csv.gz", dtype=str, keep_default_na=False)
    h = h[h["year"] == str(year)]
    return pd.DataFrame({"unit_code": h["unit"].astype(np.int64).to_numpy(), "state_cat": h["category"].to_numpy(),
                         "match": h["match"].to_numpy(), "caveat": h["caveat"].to_numpy()})


def engine_frame() -> tuple[pd.DataFrame, list[str]]:
    """Every gram panchayat of the engine's ``allot --body gp-pradhan --year 2015`` (default options): its block
    (the engine's parent), the **engine's** SC tier and order key (ascending = preferred), whether the engine
    made it SC and left it in the SC pool (not ST), its figures (``data/gp_census2011.csv.gz``) and the State's
    2015 category. ``ranked``: compared in (a) (figures, a 2015 record, not ST in it); ``good``: its 2015 row
    placed by a whole-name rule without caveat; ``has_2010``: a 2010 record (its tier is known); ``dealt``: the
    chance set of (b) (figures, in the engine's SC pool). Also the run's assumptions."""
    r = reservation.allot("gp-pradhan", YEAR)
    e = r.engine
    sc = next(rec for rec in e.records if rec.spec.group == "SC")
    eng = _group(e.category_codes())
    f = pd.DataFrame({"unit_code": np.asarray(e.codes, dtype=np.int64), "block": np.asarray(e.par),
                      "tier": np.asarray(sc.tier, dtype=np.int64), "key": np.asarray(sc.order_key),
                      "engine_sc": eng == "SC", "engine_pool": eng != "ST"})
    g = pd.read_csv(DATA / "gp_census2011.csv.gz", usecols=["gp_code", "block_lgd_code", "district_lgd_code",
                                                            "figures", "block_covered"])
    g = g.rename(columns={"gp_code": "unit_code"})
    f = f.merge(g, on="unit_code", how="left", validate="one_to_one")
    d = pd.read_csv(DATA / "districts.csv", usecols=["district_lgd_code", "district_en"])
    f = f.merge(d, on="district_lgd_code", how="left", validate="many_to_one")
    f = f.merge(state_list(), on="unit_code", how="left", validate="one_to_one")
    f["state_cat"] = f["state_cat"].fillna("")
    sg = _group(f["state_cat"])
    f["state_sc"] = sg == "SC"
    figures = f["figures"] != "none"
    f["ranked"] = figures & (f["state_cat"] != "") & (sg != "ST")
    f["good"] = f["match"].isin(rr.GOOD_GP_MATCH) & (f["caveat"] == "")
    f["has_2010"] = f["unit_code"].isin(state_list(2010)["unit_code"])
    f["dealt"] = figures & f["engine_pool"]
    return f, list(r.meta["assumptions"])


def restricted(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """The frame with only the ``ranked`` gram panchayats that also have ``column`` (``good``, ``has_2010``)."""
    f = frame.copy()
    f["ranked"] = f["ranked"] & f[column]
    return f


# --- the measure ---------------------------------------------------------------------------------------------

def _ordinal(r: pd.DataFrame) -> pd.Series:
    """The 0-based place of each row in its (block, tier) by the key, equal keys by code."""
    o = r.sort_values(["block", "tier", "key", "unit_code"], kind="stable").groupby(["block", "tier"]).cumcount()
    return o.reindex(r.index)


#: places from the cut-off of a (block, tier) at equal numbers: d = place - S (d < 0: inside the first S)
DISTANCES = ((-10**9, -6, "inside, 6 or more places from the cut"), (-5, -3, "inside, 3-5 places"),
             (-2, -1, "inside, 1-2 places"), (0, 1, "outside, 1-2 places"), (2, 4, "outside, 3-5 places"),
             (5, 10**9, "outside, 6 or more places"))


def cutoff(frame: pd.DataFrame) -> pd.DataFrame:
    """How sure one gram panchayat's verdict is, by its distance from the cut-off: every ``ranked`` gram
    panchayat of a (block, tier) where the State made S >= 1 SC, by its place in our order against S
    (:data:`DISTANCES`), with the share the State made SC and its exact interval. A ranking to trust has
    shares near 1 inside and near 0 outside; near the cut both sides are uncertain."""
    r = frame[frame["ranked"]].copy()
    r["S"] = r.groupby(["block", "tier"])["state_sc"].transform("sum")
    r["d"] = _ordinal(r) - r["S"]
    r = r[r["S"] >= 1]
    rows = []
    for lo, hi, name in DISTANCES:
        part = r[(r["d"] >= lo) & (r["d"] <= hi)]
        k, n = int(part["state_sc"].sum()), len(part)
        a, b = clopper_pearson(k, n)
        rows.append({"distance": name, "gps": n, "state_sc": k, "share": k / n if n else float("nan"),
                     "lo": a, "hi": b})
    return pd.DataFrame(rows)


def cutoff_lines(table: pd.DataFrame, markdown: bool) -> list[str]:
    head = ["place in our order (equal numbers)", "gram panchayats", "SC in 2015", "% (95 % exact)"]
    body = [[r["distance"], f"{r['gps']:,}", f"{r['state_sc']:,}",
             f"{100 * r['share']:.1f} ({100 * r['lo']:.1f}-{100 * r['hi']:.1f})"] for r in table.to_dict("records")]
    if markdown:
        return (["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
                + ["| " + " | ".join(c) + " |" for c in body])
    return [" | ".join(head)] + [" | ".join(c) for c in body]


def measure(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per State SC gram panchayat that is ``ranked``: ``pct`` its percentile in its (block, tier)
    among the ranked ones (by ``key`` ascending, mid-ranks), ``m`` their number, ``S`` the State SC ones among
    them, ``ideal`` its share of the ideal mean (S / 2m each: the S at the top), ``null_var`` its share of the
    variance of the sum of percentiles under chance, ``agreed`` (the engine made it SC), ``chance`` the
    probability that it would have been had the engine's SC posts of its (block, tier) been dealt at random
    among the ``dealt`` gram panchayats of that cell (``chance_block``: of the block, tiers ignored),
    ``ceiling`` its share of the most agreements possible."""
    cell = ["block", "tier"]
    r = frame[frame["ranked"]].copy()
    grp = r.groupby(cell, sort=False)
    r["m"] = grp["key"].transform("size")
    r["pct"] = (grp["key"].rank(method="average", ascending=True) - 0.5) / r["m"]
    r["S"] = grp["state_sc"].transform("sum")
    r["top"] = _ordinal(r) < r["S"]                    # among the first S of its cell by our figures (then code)
    d = frame[frame["dealt"]].groupby(cell)["engine_sc"].agg(["sum", "size"])
    posts = pd.MultiIndex.from_frame(r[cell]).map(d["sum"].to_dict()).to_numpy(dtype=float)
    size = pd.MultiIndex.from_frame(r[cell]).map(d["size"].to_dict()).to_numpy(dtype=float)
    r["chance"] = np.where(size > 0, np.nan_to_num(posts) / np.where(size > 0, size, 1), 0.0)
    r["ceiling"] = np.minimum(r["S"], np.nan_to_num(posts)) / r["S"]
    blk = frame[frame["dealt"]].groupby("block")["engine_sc"].mean()
    r["chance_block"] = r["block"].map(blk).fillna(0.0)   # tiers ignored: the block's posts over its dealt
    m, s = r["m"].astype(float), r["S"].astype(float)
    r["ideal"] = s / (2 * m)
    r["top_chance"] = s / m
    var_sum = np.where(m > 1, s * (m - s) / np.maximum(m - 1, 1) * (m * m - 1) / (12 * m * m), 0.0)
    r["null_var"] = var_sum / s
    out = r[r["state_sc"]].copy()
    out["agreed"] = out["engine_sc"].astype(bool)
    return out.reset_index(drop=True)


def _bootstrap(rows: pd.DataFrame, reps: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The mean percentile and the index of ``reps`` resamples of the blocks (whole) of ``rows``."""
    b = rows.groupby("block").agg(pct=("pct", "sum"), ideal=("ideal", "sum"), n=("pct", "size"))
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(b), size=(reps, len(b)))
    n = b["n"].to_numpy()[idx].sum(axis=1)
    mean = b["pct"].to_numpy()[idx].sum(axis=1) / n
    ideal = b["ideal"].to_numpy()[idx].sum(axis=1) / n
    with np.errstate(divide="ignore", invalid="ignore"):
        index = (0.5 - mean) / (0.5 - ideal)
    return mean, index


def summary(rows: pd.DataFrame, reps: int = REPS, seed: int = SEED) -> dict:
    """The two measures over ``rows`` (of :func:`measure`): counts, means and intervals."""
    n = len(rows)
    if n == 0:
        return {"n": 0}
    mean = float(rows["pct"].mean())
    ideal = float(rows["ideal"].mean())
    sd = math.sqrt(float(rows["null_var"].sum())) / n
    boots, index_boots = _bootstrap(rows, reps, seed)
    k = int(rows["agreed"].sum())
    lo, hi = clopper_pearson(k, n)
    index = (0.5 - mean) / (0.5 - ideal) if ideal < 0.5 else float("nan")
    return {"n": n, "blocks": int(rows["block"].nunique()), "mean_pct": mean,
            "pct_lo": float(np.quantile(boots, 0.025)), "pct_hi": float(np.quantile(boots, 0.975)),
            "null_lo": 0.5 - 1.96 * sd, "null_hi": 0.5 + 1.96 * sd, "ideal": ideal, "index": index,
            "index_lo": float(np.nanquantile(index_boots, 0.025)),
            "index_hi": float(np.nanquantile(index_boots, 0.975)),
            "agreed": k, "agree": k / n, "agree_lo": lo, "agree_hi": hi,
            "chance": float(rows["chance"].mean()), "chance_block": float(rows["chance_block"].mean()),
            "ceiling": float(rows["ceiling"].mean()),
            "top": int(rows["top"].sum()), "top_chance": float(rows["top_chance"].mean()),
            "tier3": int((rows["tier"] == 3).sum())}


def placebo(frame: pd.DataFrame, seed: int = SEED) -> pd.DataFrame:
    """The frame with the order keys shuffled inside each block (``seed``): a check of the measure itself, whose
    mean percentile must then fall in the chance band and whose index near 0."""
    f = frame.copy()
    rng = np.random.default_rng(seed)
    order = np.lexsort((rng.random(len(f)), f["block"].to_numpy()))
    keys = f["key"].to_numpy()[order]
    f.loc[f.index[np.sort(order)], "key"] = keys        # keys permuted among the rows of each block
    return f


def coverage(frame: pd.DataFrame) -> dict:
    """How many of the State's 2015 SC gram panchayats the measure reaches, and the other side of (b): of the
    engine's SC gram panchayats among the compared ones, how many the State made SC; and how the engine treats
    the State's SC gram panchayats that have no figures."""
    placed = frame[frame["state_sc"]]
    none = placed[placed["figures"] == "none"]
    comp = frame[frame["ranked"]]
    eng = comp[comp["engine_sc"]]
    return {"state_sc": int(len(placed)), "no_figures": int(len(none)),
            "no_figures_engine_sc": int(none["engine_sc"].sum()),
            "compared": int(comp["state_sc"].sum()), "engine_sc": int(len(eng)),
            "engine_sc_state_sc": int(eng["state_sc"].sum())}


def band_of(covered: pd.Series) -> pd.Series:
    """The band (:data:`BANDS`) of each block coverage."""
    c = pd.to_numeric(covered)
    out = pd.Series("", index=covered.index, dtype=object)
    for lo, hi, name in BANDS:
        out[(c >= lo) & (c < hi)] = name
    return out


def tables(frame: pd.DataFrame, variants: dict | None = None, districts: bool = True) -> list[tuple[str, dict]]:
    """``(label, summary)`` rows: all, by the State SC gram panchayat's figures rule, by its block's coverage
    band, by tier, the variants (label -> another frame) and by district."""
    rows = measure(frame)
    out = [("all State SC gram panchayats compared", summary(rows))]
    out += [(f"figures = {rule}", summary(rows[rows["figures"] == rule])) for rule in RULES]
    band = band_of(rows["block_covered"])
    out += [(f"block covered {name}", summary(rows[band == name])) for _, _, name in BANDS]
    out += [(f"tier {t}", summary(rows[rows["tier"] == t])) for t in (1, 3) if (rows["tier"] == t).any()]
    out.append(("placebo: keys shuffled inside each block", summary(measure(placebo(frame)))))
    for label, other in (variants or {}).items():
        out.append((label, summary(measure(other))))
    if districts:
        for name, part in rows.groupby("district_en", sort=True):
            out.append((f"district {name}", summary(part)))
    return out


# --- the report ----------------------------------------------------------------------------------------------

HEAD = ["rows", "SC GPs", "blocks", "mean percentile (95 % bootstrap)", "chance band", "ideal", "index (95 %)",
        "engine agrees", "agree % (95 % exact)", "chance %", "ceiling %", "top S by our figures", "top S %",
        "chance %"]


def _cells(label: str, s: dict) -> list[str]:
    if not s.get("n"):
        return [label, "0"] + [""] * (len(HEAD) - 2)
    return [label, f"{s['n']:,}", f"{s['blocks']:,}",
            f"{s['mean_pct']:.3f} ({s['pct_lo']:.3f}-{s['pct_hi']:.3f})",
            f"{s['null_lo']:.3f}-{s['null_hi']:.3f}", f"{s['ideal']:.3f}",
            f"{s['index']:.2f} ({s['index_lo']:.2f}-{s['index_hi']:.2f})", f"{s['agreed']:,}",
            f"{100 * s['agree']:.1f} ({100 * s['agree_lo']:.1f}-{100 * s['agree_hi']:.1f})",
            f"{100 * s['chance']:.1f}", f"{100 * s['ceiling']:.1f}", f"{s['top']:,}",
            f"{100 * s['top'] / s['n']:.1f}", f"{100 * s['top_chance']:.1f}"]


def lines(rows: list[tuple[str, dict]], markdown: bool) -> list[str]:
    if markdown:
        out = ["| " + " | ".join(HEAD) + " |", "|---|" + "---:|" * (len(HEAD) - 1)]
        return out + ["| " + " | ".join(_cells(label, s)) + " |" for label, s in rows]
    return [" | ".join(HEAD)] + [" | ".join(_cells(label, s)) for label, s in rows]


def headline(s: dict) -> str:
    """The figure in words, as README and data/README.md quote it."""
    return (f"{s['n']:,} SC gram panchayats of 2015 in {s['blocks']:,} blocks: mean percentile "
            f"{s['mean_pct']:.3f} (95 % {s['pct_lo']:.3f}-{s['pct_hi']:.3f}; chance 0.5, ideal "
            f"{s['ideal']:.3f}), index {s['index']:.2f}; the engine makes {s['agreed']:,} of them SC "
            f"({100 * s['agree']:.1f} %, 95 % {100 * s['agree_lo']:.1f}-{100 * s['agree_hi']:.1f}; chance "
            f"{100 * s['chance']:.1f} % inside the tiers, {100 * s['chance_block']:.1f} % in the block; ceiling "
            f"{100 * s['ceiling']:.1f} %); at equal numbers (as many as the State "
            f"made SC in each block and tier) our figures pick {s['top']:,} of them ({100 * s['top'] / s['n']:.1f} %; "
            f"chance {100 * s['top_chance']:.1f} %)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    ap.add_argument("--districts", action="store_true", help="add one row per district")
    args = ap.parse_args(argv)
    frame, assumptions = engine_frame()
    variants = {"2015 row placed by a whole-name rule, no caveat": restricted(frame, "good"),
                "with a 2010 record (tier known)": restricted(frame, "has_2010")}
    rows = tables(frame, variants, districts=args.districts)
    print("engine run:", "; ".join(a for a in assumptions if a.startswith("base year")))
    print("headline:", headline(rows[0][1]))
    c = coverage(frame)
    print(f"reach: {c['state_sc']:,} SC gram panchayats of 2015 placed on LGD codes; {c['no_figures']:,} have no "
          f"figures (the engine makes {c['no_figures_engine_sc']:,} of them SC); {c['compared']:,} compared")
    print(f"other side: of the {c['engine_sc']:,} gram panchayats compared that the engine makes SC, the State "
          f"made {c['engine_sc_state_sc']:,} SC ({100 * c['engine_sc_state_sc'] / c['engine_sc']:.1f} %)")
    print()
    print("\n".join(lines(rows, args.markdown)))
    print()
    print("\n".join(cutoff_lines(cutoff(frame), args.markdown)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
