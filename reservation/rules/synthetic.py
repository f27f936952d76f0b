"""Generated populations for tests, benchmarks and teaching: always labelled as generated.

Gram panchayat and ward populations are not public (data/README.md). To exercise the engine at the scale
the official software runs (58,000 gram panchayats, 732,000 ward seats), these functions build unit tables
whose **totals match the real block figures** but whose split inside a block is **generated** (a seeded
random split: multinomial for the population, multivariate hypergeometric for SC and ST, so every unit has
sc + st <= pop and the block sums are exact). Nothing generated here is a fact about a real gram panchayat.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .kp_chair import load_blocks
from ..base.paths import DATA_DIR
from ..inputs.units import loose_key
from ..inputs.names import crosswalk

__all__ = ["GENERATED_NOTE", "gram_panchayats_2015", "wards_for", "ward_count"]

GENERATED_NOTE = ("GENERATED populations: the real 2015 unit list with block totals from Census 2011 split at "
                  "random (seeded) among the units; not facts about any gram panchayat or ward")


def _split(rng, total_pop, total_sc, total_st, weights):
    pop = rng.multinomial(int(total_pop), weights)
    pop = np.maximum(pop, 1)                       # every unit has someone (ranking needs pop >= 1)
    sc = rng.multivariate_hypergeometric(pop, min(int(total_sc), int(pop.sum())), method="marginals")
    st = rng.multivariate_hypergeometric(pop - sc, min(int(total_st), int((pop - sc).sum())), method="marginals")
    return pop, sc, st


def gram_panchayats_2015(history_csv, seed: int = 2021) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The 59,019 gram panchayats of the SEC-UP 2015 pradhan list as units, with generated populations.

    Returns ``(units, history)``: ``units`` in the ``--units`` format (unit, parent, pop, sc, st, name_hi,
    district) where ``unit`` = block-code x 1000 + serial number and ``parent`` is the block ("District/Block");
    ``history`` is the real 2015 category of each pradhan (unit, year, category).
    """
    g = pd.read_csv(history_csv)
    cw = crosswalk()
    g["district_lgd"] = [cw.resolve(x) for x in g["district_hi"]]
    blocks, _ = load_blocks(2015)
    b = pd.read_csv(DATA_DIR / "blocks_census2011.csv")
    by_no = {(int(d), int(n)): int(c) for d, n, c in
             zip(b["district_lgd_code"], b["sec2015_block_no"].fillna(-1), b["block_lgd_code"])}
    by_name = {(int(d), loose_key(h)): int(c) for d, h, c in
               zip(b["district_lgd_code"], b["sec2015_block_hi"].fillna(""), b["block_lgd_code"]) if h}
    by_name.update({(int(d), loose_key(n)): int(c) for d, n, c in
                    zip(b["district_lgd_code"], b["block_name"], b["block_lgd_code"])})
    keys = g[["district_lgd", "block_no", "block_hi"]].drop_duplicates()
    block_of = {}
    for d, n, h in keys.itertuples(index=False):
        block_of[(d, n)] = by_name.get((d, loose_key(h)), by_no.get((d, n)))
    g["block_lgd"] = [block_of[(d, n)] for d, n in zip(g["district_lgd"], g["block_no"])]
    # blocks the list names that the block table cannot place: a code of their own (district x 100 + serial)
    missing = g["block_lgd"].isna()
    g.loc[missing, "block_lgd"] = g.loc[missing, "district_lgd"] * 100 + g.loc[missing, "block_no"]
    g["block_lgd"] = g["block_lgd"].astype(np.int64)
    totals = blocks.set_index("unit_code")[["pop", "sc", "st"]]
    dist_mean = blocks.assign(per_gp=blocks["pop"] / blocks["gps"].clip(lower=1)).groupby("district_lgd_code")[
        ["per_gp"]].mean()
    rng = np.random.default_rng(seed)
    parts = []
    for (blk, d), grp in g.groupby(["block_lgd", "district_lgd"], sort=True):
        n = len(grp)
        if blk in totals.index:
            tp, tsc, tst = totals.loc[blk]
        else:
            tp = int(dist_mean.at[d, "per_gp"] * n) if d in dist_mean.index else 2500 * n
            tsc, tst = int(tp * 0.23), int(tp * 0.006)
        w = rng.gamma(4.0, 1.0, n)
        pop, sc, st = _split(rng, tp, tsc, tst, w / w.sum())
        parts.append(pd.DataFrame({"unit": blk * 1000 + grp["gp_no"].to_numpy(), "parent": f"{d}/{blk}",
                                   "pop": pop, "sc": sc, "st": st, "name_hi": grp["gp_hi"].to_numpy(),
                                   "district": cw.name_en(int(d)), "category_2015": grp["category"].to_numpy()}))
    units = pd.concat(parts, ignore_index=True)
    history = pd.DataFrame({"unit": units["unit"], "year": 2015, "category": units.pop("category_2015")})
    return units, history


def ward_count(pop: np.ndarray) -> np.ndarray:
    """Wards of a gram panchayat by population: 9 up to 1,000, 11 up to 2,000, 13 up to 3,000, 15 above
    (the UP practice as commonly described; used only to generate a realistic number of ward seats)."""
    pop = np.asarray(pop)
    return np.select([pop <= 1000, pop <= 2000, pop <= 3000], [9, 11, 13], 15)


def wards_for(gps: pd.DataFrame, seed: int = 2015, history_share: float = 1.0,
              target: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Generated ward seats for gram panchayats (``--units`` format with parent = the gram panchayat's code),
    and a generated 2015 history for them (each ward's previous category drawn from the 2015 statewide mix).
    ``target``: trim the largest gram panchayats' wards (two at a time) to reach exactly this many seats."""
    rng = np.random.default_rng(seed)
    k = ward_count(gps["pop"].to_numpy())
    if target is not None and k.sum() > target:
        excess = int(k.sum() - target)
        big = np.flatnonzero(k == 15)[: (excess + 1) // 2]
        k[big] -= 2
        if excess % 2:
            k[big[-1]] += 1
    parent = np.repeat(gps["unit"].to_numpy(), k)
    serial = np.concatenate([np.arange(1, x + 1) for x in k])
    # split each GP's population evenly with noise, vectorised: weights per ward, normalised per GP
    w = rng.gamma(8.0, 1.0, len(parent))
    gp_idx = np.repeat(np.arange(len(gps)), k)
    wsum = np.bincount(gp_idx, weights=w)
    frac = w / wsum[gp_idx]
    gp_pop = gps["pop"].to_numpy()[gp_idx]
    pop = np.maximum(np.floor(frac * gp_pop).astype(np.int64), 1)
    share_sc = (gps["sc"] / gps["pop"]).to_numpy()[gp_idx]
    share_st = (gps["st"] / gps["pop"]).to_numpy()[gp_idx]
    sc = rng.binomial(pop, np.clip(share_sc, 0, 1))
    st = rng.binomial(pop - sc, np.clip(share_st / np.maximum(1 - share_sc, 1e-9), 0, 1))
    units = pd.DataFrame({"unit": parent * 100 + serial, "parent": parent.astype(str), "pop": pop, "sc": sc,
                          "st": st})
    mix = {"UR": .35, "OBC": .175, "W": .168, "SC": .134, "OBC_W": .094, "SC_W": .074, "ST": .003, "ST_W": .002}
    take = rng.random(len(units)) < history_share
    cats = rng.choice(list(mix), size=int(take.sum()), p=np.array(list(mix.values())) / sum(mix.values()))
    history = pd.DataFrame({"unit": units["unit"].to_numpy()[take], "year": 2015, "category": cats})
    return units, history
