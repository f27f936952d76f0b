"""The district step of the block pramukh rules tested alone against a published list (issue 14).

- :func:`district_counts`: posts per district and category (``reservation districts``), optionally with the parents
  of the districts created in 2011 at their Census 2011 district as published (:data:`CENSUS_PARENTS`);
- :func:`district_check`, :func:`district_differences`: those posts beside the published list's, per district;
- :func:`obc_districts_in_list`: the districts a list shows above the State OBC share; :func:`obc_orders`: those
  districts applied to another election in every possible order.

Re-exported by :mod:`reservation.history.backtest` (import them from there).
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from ..law.categories import by_code
from ..inputs.published import pramukh_list

__all__ = ["CENSUS_PARENTS", "district_counts", "district_check", "district_differences", "obc_orders",
           "obc_districts_in_list"]

#: The districts created in 2011 wholly out of one Census 2011 district (data/districts.csv, boundary_basis):
#: the parent as the Census published it = today's parent + the new district.
CENSUS_PARENTS = {"Muzaffarnagar": "Shamli", "Ghaziabad": "Hapur"}

def district_counts(year: int = 2015, options=(), census_parents: bool = False) -> pd.DataFrame:
    """The district step alone (posts per district and category, ``reservation districts``), optionally with
    the parents of :data:`CENSUS_PARENTS` at the share of their Census 2011 district as published (itself + the
    district carved out of it in 2011). That reading goes through the block sums (``district_population=
    block_sums``): each of the parent's blocks enters with population ``pop x P`` and SC ``pop x SC`` (P, SC: the
    Census district's rural figures), so the sums give exactly ``SC / P``; ST and the block order are not
    touched (only the district step is computed here). The scaled populations would also enter the population
    tie-breaks of the other groups, so with ``census_parents`` only the SC rows are returned."""
    from ..allotment.pipeline import options_of
    from ..rules.registry import get_rulebook
    from ..rules.kp_chair import kp_district_counts, kp_state_counts, load_blocks
    from ..inputs.units import load_districts
    opts = options_of(get_rulebook("kp-chair"), options)
    blocks, _ = load_blocks(year)
    blocks = blocks.assign(obc=0)
    if census_parents:
        if opts["district_population"] != "block_sums":
            raise ValueError("census_parents goes through the block sums: district_population must be block_sums")
        dist = load_districts().set_index("unit_name_en")
        for parent, child in CENSUS_PARENTS.items():
            big_p = int(dist.at[parent, "pop_rural"]) + int(dist.at[child, "pop_rural"])
            big_sc = int(dist.at[parent, "sc_rural"]) + int(dist.at[child, "sc_rural"])
            m = blocks["district"] == parent
            blocks.loc[m, "sc"] = blocks.loc[m, "pop"] * big_sc
            blocks.loc[m, "pop"] = blocks.loc[m, "pop"] * big_p
    state = kp_state_counts(year, opts, blocks)
    dc, _ = kp_district_counts(year, opts, blocks, dict(zip(state["category"], state["count"])))
    if census_parents:        # the scaled populations also enter the tie-breaks of the other groups: SC only
        dc = dc[dc["category"] == "SC"].reset_index(drop=True)
    return dc


def district_check(dc: pd.DataFrame, year: int = 2015) -> pd.DataFrame:
    """The published posts of each group per fully listed district beside a district step ``dc``
    (:func:`district_counts` or ``result.extra['districts']``): district, group, published, computed."""
    from ..rules.kp_chair import load_blocks
    blocks, _ = load_blocks(year)
    pub = pramukh_list(year)
    rows = []
    for d, b in blocks.groupby("district", sort=True):
        if not b["unit_code"].isin(pub.index).all():
            continue
        groups = [by_code(c).group if c else "" for c in pub.reindex(b["unit_code"])]
        for g in ("ST", "SC", "OBC"):
            got = dc[(dc["district"] == d) & (dc["category"] == g)]["final"]
            if not len(got):
                continue
            rows.append({"district": d, "group": g, "published": groups.count(g), "computed": int(got.sum())})
    out = pd.DataFrame(rows)
    out["equal"] = out["published"] == out["computed"]
    return out


def obc_districts_in_list(year: int = 2015) -> list[str]:
    """The districts whose published OBC posts exceed the capped formula floor(27 % x blocks): the districts the
    list shows as "above the State OBC share" (each took shortfall posts). Alphabetical: the list shows the set,
    not the order of shares. Districts with blocks missing from the list are left out."""
    from ..rules.kp_chair import load_blocks
    blocks, _ = load_blocks(year)
    pub = pramukh_list(year)
    out = []
    for d, b in blocks.groupby("district", sort=True):
        if not b["unit_code"].isin(pub.index).all():
            continue
        obc = sum((by_code(c).group if c else "") == "OBC" for c in pub.reindex(b["unit_code"]))
        if obc > (27 * len(b)) // 100:
            out.append(d)
    return out


def obc_orders(year: int = 2021, districts: list[str] | None = None) -> pd.DataFrame:
    """What the OBC district step gives for ``year`` when ``districts`` (default: :func:`obc_districts_in_list`
    of 2015, the same 2015 survey) are the districts above the State OBC share, in every possible order.

    The shortfall ``P`` (State OBC posts minus the capped posts) goes one post at a time round after round: each
    of the ``m`` districts takes ``P // m`` and the first ``P % m`` in the (unknown) order of shares one more, so
    the outcome depends only on which ``P % m`` districts lead. For every such set: OBC women (one-third rounded
    up per district), general women, unreserved and all women, with SC and ST as in the default run. Columns:
    OBC_W, W, UR, women, leading_sets (how many sets give it), example (one of them)."""
    from itertools import combinations
    from math import ceil, comb
    from ..allotment.pipeline import allot
    res = allot("kp-chair", year, history=[])
    dc = res.extra["districts"].set_index(["district", "category"])
    names = sorted(set(res.extra["districts"]["district"]))
    districts = obc_districts_in_list(2015) if districts is None else list(districts)
    blocks = {d: int(dc.at[(d, "SC"), "blocks"]) for d in names}
    capped = {d: (27 * blocks[d]) // 100 for d in names}
    state_obc = int(res.counts.set_index("category").loc[["OBC", "OBC_W"], "count"].sum())
    posts = state_obc - sum(capped.values())
    m = len(districts)
    if not m or posts < 0:
        raise ValueError("no shortfall to share")
    each, r = divmod(posts, m)
    # per district: blocks, one-third of them (rounded up), ST + SC women, ST + SC posts, and OBC posts without and
    # with a leading post; only the districts of the set change with the order
    fixed = {d: (blocks[d], ceil(Fraction(blocks[d], 3)),
                 int(dc.at[(d, "ST"), "women"]) + int(dc.at[(d, "SC"), "women"]),
                 int(dc.at[(d, "ST"), "final"]) + int(dc.at[(d, "SC"), "final"])) for d in names}

    def counts(d: str, obc: int) -> tuple[int, int, int, int]:
        b, third, stsc_w, stsc = fixed[d]
        obc_w = ceil(Fraction(obc, 3))
        gen_w = max(third - stsc_w - obc_w, 0)
        return obc_w, gen_w, b - stsc - obc - gen_w, max(third, stsc_w + obc_w)
    base = [0, 0, 0, 0]
    for d in names:
        base = [a + b for a, b in zip(base, counts(d, capped[d] + (each if d in districts else 0)))]
    gain = {}
    for d in districts:
        lo, hi = counts(d, capped[d] + each), counts(d, capped[d] + each + 1)
        gain[d] = tuple(h - x for h, x in zip(hi, lo))
    outcomes: dict[tuple, list] = {}
    for lead in combinations(districts, r):
        key = tuple(base[i] + sum(gain[d][i] for d in lead) for i in range(4))
        outcomes.setdefault(key, [0, ", ".join(lead)])[0] += 1
    out = pd.DataFrame([(*k, n, ex) for k, (n, ex) in outcomes.items()],
                       columns=["OBC_W", "W", "UR", "women", "leading_sets", "example"])
    out.attrs.update(posts=posts, districts=m, leading=r, sets=comb(m, r))
    return out.sort_values(["OBC_W", "W"], kind="stable").reset_index(drop=True)


def district_differences(result) -> pd.DataFrame:
    """The fully listed districts whose posts of a group differ from the list: with the readings of ``result``
    (its district step) and, SC only, with :data:`CENSUS_PARENTS` at their Census 2011 district as published
    (when ``result`` reads the block sums). Columns: reading, district, group, published, computed."""
    given = {k: v["value"] for k, v in result.meta["options"].items()
             if str(v["value"]) != str(v["default"]) and k != "obc_above_state"}     # SC does not read it
    steps = [("as computed", result.extra["districts"])]
    if given.get("district_population", "block_sums") == "block_sums":
        steps.append(("SC, Census 2011 parents as published", district_counts(result.year, given,
                                                                               census_parents=True)))
    frames = []
    for reading, dc in steps:
        chk = district_check(dc, result.year)
        frames.append(chk[~chk["equal"]].drop(columns="equal").assign(reading=reading))
    out = pd.concat(frames, ignore_index=True)
    return out[["reading", "district", "group", "published", "computed"]]
