"""The block pramukh rules tested on 2015 (issue 14), as functions returning DataFrames.

- :func:`block_years`: which LGD blocks were Kshetra Panchayats at the elections of 2005, 2010, 2015 and 2021,
  derived from the three crosswalked SEC lists and the LGD table (``data/kp_blocks_by_year.csv`` is its output,
  ``python -m reservation.history.backtest`` rebuilds it; :func:`reservation.rules.kp_chair.load_blocks` reads it);
- :func:`history_table`: the history an earlier election is computed from (the shipped ``kp-chair.csv``, plus the
  2005 and 2010 records of Dankaur, a Kshetra Panchayat of 2015 that the 2021 history leaves out);
  :func:`published`: a published list (both read by :mod:`reservation.inputs.published`, the one reader of the
  published lists);
- :func:`compute`: the allotment of 2015 (or 2010) under the GO 2021 rules from the lists before it, saying what
  the earlier rules are assumed to share with the GO (:data:`SHARED_RULES`);
- :func:`compare`: the computed and the published list block by block, each difference with its reason
  (:data:`REASONS`); :func:`sc_check`: whether the published SC blocks are the GO's order over our block shares
  and the shipped records, and what earlier elections must have held; :func:`by_district`, :func:`headline`,
  :func:`reason_table`, :func:`district_blocks`: the figures; :func:`readings`: the same figures for several base
  years and options (which reading fits best);
- the district step alone (:mod:`reservation.history.districts`, re-exported here): :func:`district_counts`
  (optionally with the parents of the districts of 2011 at their Census district as published),
  :func:`district_check`, :func:`district_differences`;
  :func:`obc_districts_in_list` (the districts the list shows above the State OBC share) and :func:`obc_orders`
  (those districts applied to 2021 in every order).

Rotation as a fact (timelines, heat map, repeat rates) is :mod:`reservation.history.block_timeline`. Nothing here changes
a rule: the computation is :func:`reservation.allot`; this module lines it up with the published list.
"""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path

import pandas as pd

from .districts import (CENSUS_PARENTS, district_check, district_counts, district_differences,  # noqa: F401
                                 obc_districts_in_list, obc_orders)
from ..law.categories import by_code
from ..base.paths import DATA_DIR
from ..inputs.published import PRAMUKH_YEARS as LIST_YEARS
from ..inputs.published import pramukh_history as history_table
from ..inputs.published import pramukh_list as published

__all__ = ["BLOCK_YEARS_FILE", "block_years", "write_block_years", "history_table", "published", "compute",
           "compare", "sc_check", "by_district", "headline", "readings", "READINGS", "REASONS", "SC_VERDICTS",
           "obc_districts_in_list", "district_counts", "district_check", "CENSUS_PARENTS", "BASE_YEAR_READINGS",
           "check_parameters", "reason_table", "district_differences", "district_blocks", "obc_orders", "SHARED_RULES"]

HIST = DATA_DIR / "history"
BLOCK_YEARS_FILE = DATA_DIR / "kp_blocks_by_year.csv"
BLOCK_YEAR_COLUMNS = ["district_lgd_code", "district_en", "block_lgd_code", "block_en", "listed_2005",
                      "listed_2010", "listed_2015", "kp_2005", "kp_2010", "kp_2015", "kp_2021", "why"]


def _listed(year: int) -> set[int]:
    """The LGD blocks of the SEC list of ``year`` (a row whose category is blank in the source still lists the
    block)."""
    if year == 2015:
        h = pd.read_csv(HIST / "kp-chair.csv", usecols=["unit", "year"])
        return set(h.loc[h["year"] == 2015, "unit"].astype(int))
    src = pd.read_csv(HIST / f"kp_pramukh_{year}.csv", dtype=str, keep_default_na=False)
    return set(src.loc[src["block_lgd_code"] != "", "block_lgd_code"].astype(int))


def block_years() -> pd.DataFrame:
    """Every LGD block of ``data/blocks_census2011.csv`` with the elections at which it was a Kshetra Panchayat.

    ``listed_Y``: the block is in the SEC pramukh list of Y (1/0). ``kp_Y``: it was a Kshetra Panchayat at the
    election of Y:

    - 2005, 2010: the list (complete: 820 and 821 rows, every one matched to a block);
    - 2015: the 2015 list, or the 2010 list where the 2015 list is known to be incomplete. The 2015 list has 816
      rows: it lacks Gautam Buddh Nagar (the whole district is missing from the 2015 chair lists) and Mujehana
      (Gonda serial 10 in 2005 and 2010; the 2015 Gonda numbering skips 10). Every block of the 2015 list is in
      the 2010 list, and no block created after 2010 is in the 2015 list, so the 2015 Kshetra Panchayats are the
      821 of 2010, the number of posts published for 2015;
    - 2021: a gram panchayat in the LGD block-panchayat table (the rule of ``load_blocks(2021)``: 826).

    ``why`` says, for every block that is not a Kshetra Panchayat at every one of these elections or that a list
    lacks, why.
    """
    b = pd.read_csv(DATA_DIR / "blocks_census2011.csv", dtype={"block_lgd_code": int, "district_lgd_code": int})
    listed = {y: _listed(y) for y in LIST_YEARS}
    out = pd.DataFrame({"district_lgd_code": b["district_lgd_code"], "district_en": b["district_en"],
                        "block_lgd_code": b["block_lgd_code"], "block_en": b["block_name"]})
    for y in LIST_YEARS:
        out[f"listed_{y}"] = out["block_lgd_code"].isin(listed[y]).astype(int)
    unknown = set().union(*listed.values()) - set(out["block_lgd_code"])
    if unknown:
        raise ValueError(f"listed blocks not in the LGD table: {sorted(unknown)}")
    if not listed[2015] <= listed[2010]:
        raise ValueError(f"2015 list blocks not in the 2010 list: {sorted(listed[2015] - listed[2010])}")
    out["kp_2005"] = out["listed_2005"]
    out["kp_2010"] = out["listed_2010"]
    out["kp_2015"] = (out["listed_2015"] | out["listed_2010"]).astype(int)
    out["kp_2021"] = (b["lgd_gp_count"].fillna(0).astype(int) > 0).astype(int)
    numbers_2015 = b.groupby("district_lgd_code")["sec2015_block_no"].agg(lambda s: set(s.dropna().astype(int)))
    src10 = pd.read_csv(HIST / "kp_pramukh_2010.csv", dtype=str, keep_default_na=False)
    serial_2010 = {int(c): int(s) for c, s in zip(src10["block_lgd_code"], src10["block_sr"]) if c}
    whys = []
    for r in out.itertuples(index=False):
        why = []
        if r.kp_2015 and not r.listed_2015:
            nos = numbers_2015.get(r.district_lgd_code, set())
            sr = serial_2010[r.block_lgd_code]
            if not nos:
                why.append(f"missing from the 2015 list with all of {r.district_en} (no 2015 chair list for the "
                           f"district); in the 2005 and 2010 lists")
            elif sr < max(nos) and sr not in nos:
                why.append(f"missing from the 2015 list, whose {r.district_en} numbering skips {sr}, its serial in "
                           f"2010; in the 2005 and 2010 lists")
            else:
                why.append("missing from the 2015 list; in the 2005 and 2010 lists")
        if r.listed_2010 and not r.listed_2005:
            why.append("first listed in 2010 (created between the 2005 and 2010 elections)")
        if not r.listed_2010 and not r.listed_2015 and r.kp_2021:
            why.append("in no list of 2005-2015 and a Kshetra Panchayat in 2021 (gram panchayats in LGD): created "
                       "after the 2015 election")
        if not r.kp_2021:
            why.append("no gram panchayat in the LGD block-panchayat table: not a Kshetra Panchayat in 2021"
                       if r.listed_2010 else "no gram panchayat in the LGD block-panchayat table and in no list of "
                                             "2005-2015: a Kshetra Panchayat at none of these elections")
        whys.append("; ".join(why))
    out["why"] = whys
    return out.sort_values(["district_en", "block_lgd_code"], kind="stable").reset_index(drop=True)[
        BLOCK_YEAR_COLUMNS]


def write_block_years(path: Path = BLOCK_YEARS_FILE) -> Path:
    """Write :func:`block_years` (byte-identical on a rerun)."""
    text = block_years().to_csv(index=False, lineterminator="\n")
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return Path(path)


# ============================================================================================ the 2015 test

#: Why a block's computed category differs from the published one (``reason`` of :func:`compare`).
REASONS = {
    "same": "same category",
    "not_listed": "not in the published list: not compared",
    "district_step": "the district's number of posts of the group differs between the list and the computation "
                     "(district step: population base, caps, shortfall order, OBC districts above the State share)",
    "sc_earlier_rotation": "SC blocks: the list's choice is the GO's order (descending SC share, never reserved "
                           "first) if some blocks held SC in an election before the history's first (1995, 2000: "
                           "lists not shipped)",
    "sc_order": "SC blocks: the list's choice does not follow the GO's order over our block SC shares and the "
                "shipped records, whatever earlier elections held (block population estimates, or another rule)",
    "st_order": "ST blocks: the list chose other blocks of the district (ST order or ST data)",
    "obc_not_public": "OBC: block OBC population is not public; the computed OBC order inside a district is the "
                      "tie-break rule (option tie_break; by default the lower code) and rotation",
    "women_order": "same group, the women's post differs (the group's first blocks in the order take it)",
    "general_women": "women or unreserved: general women go by the population outside SC/ST/OBC, which needs the "
                     "OBC figures (not public), and by the women's rotation",
}
#: The verdicts of :func:`sc_check`.
SC_VERDICTS = {
    "matches": "the computed SC blocks are the published ones",
    "earlier_rotation": "the published SC blocks are the GO's order if the blocks listed in must_have_held_sc held "
                        "SC in an earlier election (not shipped)",
    "not_order": "the published SC blocks are not the GO's order over our block SC shares and the shipped records, "
                 "or only if earlier elections gave SC to more blocks than two elections' posts can",
    "incomplete": "the published list lacks blocks of the district: not checked",
}
COMPARE_COLUMNS = ["unit_code", "block", "district", "published", "computed", "group_published", "group_computed",
                   "same_category", "same_group", "tier", "sc_share", "history", "reason"]


def _group(code: str) -> str:
    return by_code(code).group if code else ""


#: What a computation of an earlier election assumes its rules share with the GO 2021 (said in every result of
#: :func:`compute`; the 2015 order itself is not in the sources).
SHARED_RULES = ("the test assumes the {year} rules shared with the GO 2021: the State counts (Census 2011 shares "
                "of the whole State, SC/ST half-up, OBC 27 % integer part), the district shares (ST by largest "
                "remainder, SC and OBC capped with the shortfall one post at a time to the districts above the State "
                "share), women one-third rounded up in each district, and inside a district the descending share "
                "with never-reserved blocks first and the last election's holders last, the two-person rule, OBC "
                "leaving out ST and SC blocks, general women by the population outside SC/ST/OBC; the {year} order "
                "is not in the sources")


def compute(year: int = 2015, base_year: int = 2005, options=(), *, obc_from_list: bool = False):
    """The kp-chair allotment of ``year`` (under the GO 2021 rules: the result says so) from the history of the
    elections before it (:func:`history_table`; the records of ``year`` itself never count), with
    ``base_year`` as the first election that counts. ``base_year == year``: no previous election counts (an
    allotment afresh). ``obc_from_list``: option obc_above_state = :func:`obc_districts_in_list` (the list's
    own district OBC counts: isolates the block step, it is no test of the OBC district step)."""
    from ..allotment.pipeline import allot
    opts = dict(options) if isinstance(options, dict) else dict(str(o).split("=", 1) for o in options)
    if not obc_from_list:
        res = allot("kp-chair", year, history=history_table(), base_year=base_year, options=opts)
    else:
        above = obc_districts_in_list(year)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"obc_districts_in_list_{year}.csv"
            pd.DataFrame({"unit": above}).to_csv(path, index=False)
            res = allot("kp-chair", year, history=history_table(), base_year=base_year,
                        options={**opts, "obc_above_state": str(path)})
        res.meta["assumptions"].append(f"the districts above the State OBC share are the {len(above)} whose "
                                       f"published {year} OBC posts exceed the capped formula (the list's own "
                                       f"district counts: no test of the OBC district step)")
    res.meta["assumptions"].insert(1, SHARED_RULES.format(year=year))
    return res


def _history_words(h: pd.DataFrame, year: int) -> pd.Series:
    prev = h[h["year"] < year].sort_values(["unit_code", "year"])
    return prev.groupby("unit_code").apply(lambda g: ", ".join(f"{y} {c}" for y, c in zip(g["year"], g["category"])),
                                           include_groups=False)


def _sc_order(S: set, E: set, T3: set, K2: set, share: dict) -> tuple[bool, set]:
    """Whether the SC blocks ``S`` can be the GO's choice when elections before the shipped records are unknown,
    and the blocks that must then have held SC in them (see :func:`sc_check`)."""
    if S - E or (S & T3 and not (E - T3) <= S):
        return False, set()
    U = E - T3 - K2
    P = S & K2
    if P:
        rest = E - T3 - S
        if rest and min(share[c] for c in P) <= max(share[c] for c in rest):
            return False, set()
        return True, U - S
    if S & U:
        low = min(share[c] for c in S & U)
        return True, {c for c in U - S if share[c] > low}
    return True, set()


def _chance_consistent(E: set, T3: set, K2: set, share: dict, k: int) -> Fraction:
    """The fraction of the k-subsets of ``E`` that pass :func:`_sc_order` within the earlier-posts bound."""
    from itertools import combinations
    from math import comb
    if k == 0 or k > len(E):
        return Fraction(int(k == 0))
    good = 0
    for S in combinations(sorted(E), k):
        ok, must = _sc_order(set(S), E, T3, K2, share)
        good += ok and len(must) <= 2 * k
    return Fraction(good, comb(len(E), k))


def sc_check(result, pub: pd.Series | None = None, chance: bool = False) -> pd.DataFrame:
    """Per district: is the published SC choice the GO's order (descending SC share of the block, never reserved
    for SC first, not the last election's SC blocks) over our block figures and the shipped records, and what
    would earlier elections (before the first shipped one: 1995, 2000) have to hold for it to be?

    With ``S`` the published SC blocks (SC and SC_W), ``E`` the blocks that may take SC (two persons or more, not
    published ST), ``T3`` those SC at the last election, ``K2`` those SC at an earlier shipped election and ``U``
    the rest (never SC in the shipped records: never reserved, or reserved only before the records begin):

    - a block of ``S`` in ``K2`` is tier 2, so every block of ``U`` outside ``S`` must have held SC earlier
      (tier 2 too), and the ``K2`` blocks of ``S`` must outrank in share every other block of ``E`` outside
      ``T3`` and ``S``;
    - if ``S`` lies in ``U``, it can be tier 1: the blocks of ``U`` outside ``S`` with a larger share than the
      smallest of ``S`` must have held SC earlier;
    - a block of ``T3`` in ``S`` needs every block of ``E`` outside ``T3`` in ``S`` (rotation yields only "as far
      as possible").

    ``must_have_held_sc``: those blocks (count; names in ``must_have_held``); ``earlier_posts``: twice the
    district's published SC posts, the most blocks two earlier elections can have given SC. ``verdict``
    (:data:`SC_VERDICTS`): ``matches`` (the computed SC blocks are the published ones), ``earlier_rotation``
    (possible, within the bound), ``not_order``, ``incomplete`` (blocks missing from the list).
    ``chance=True`` adds ``chance_consistent``: the fraction of all choices of as many blocks of ``E`` that would
    pass the same test (exact, by enumeration): what the test is worth in that district.
    """
    pub = published(result.year) if pub is None else pub
    units = result.units.set_index("unit_code")
    comp = result.categories
    h = result.history
    prev_years = sorted(int(y) for y in h["year"].unique() if int(y) < result.year)
    last = prev_years[-1] if prev_years else None
    sc_rows = h[h["category"].isin(["SC", "SC_W"]) & (h["year"] < result.year)]
    t3_all = set(sc_rows.loc[sc_rows["year"] == last, "unit_code"]) if last else set()
    k2_all = set(sc_rows.loc[sc_rows["year"] != last, "unit_code"]) - t3_all
    rows = []
    for d, b in units.groupby("district", sort=True):
        codes = list(b.index)
        name = b["unit_name_en"].to_dict()
        share = {c: Fraction(int(b.at[c, "sc"]), int(b.at[c, "pop"])) if int(b.at[c, "pop"]) else Fraction(0)
                 for c in codes}
        S = {c for c in codes if c in pub.index and _group(pub[c]) == "SC"}
        C = {c for c in codes if _group(comp[c]) == "SC"}
        E = {c for c in codes if int(b.at[c, "sc"]) >= 2 and not (c in pub.index and _group(pub[c]) == "ST")}
        T3, K2 = E & t3_all, E & k2_all
        row = {"district": d, "blocks": len(codes), "sc_posts": len(S), "computed_sc_posts": len(C),
               "both": len(S & C), "eligible": len(E), "tier3": len(T3), "tier2": len(K2),
               "never": len(E - T3 - K2)}
        ok, must = _sc_order(S, E, T3, K2, share)
        if not set(codes) <= set(pub.index):
            verdict, must = "incomplete", set()
        elif S == C:
            verdict = "matches"
        else:
            verdict = "earlier_rotation" if ok and len(must) <= 2 * len(S) else "not_order"
        row.update(verdict=verdict, must_have_held_sc=len(must), earlier_posts=2 * len(S),
                   must_have_held=", ".join(sorted(name[c] for c in must)),
                   published_sc=", ".join(sorted(name[c] for c in S)),
                   computed_sc=", ".join(sorted(name[c] for c in C)))
        if chance:
            row["chance_consistent"] = (None if verdict == "incomplete" else
                                        round(float(_chance_consistent(E, T3, K2, share, len(S))), 4))
        rows.append(row)
    return pd.DataFrame(rows)


def compare(result, pub: pd.Series | None = None) -> pd.DataFrame:
    """The computed allotment beside the published list, one row per computed block (:data:`COMPARE_COLUMNS`):
    categories and groups on both sides, ``same_category``/``same_group`` (False where not listed), the computed
    ``tier``, the block's SC share (per cent, 4 decimals), its ``history`` before the year, and ``reason`` (a key
    of :data:`REASONS`) for every difference."""
    pub = published(result.year) if pub is None else pub
    t = result.table.set_index("unit_code")
    units = result.units.set_index("unit_code")
    out = pd.DataFrame({"unit_code": t.index, "block": t["unit_name_en"].to_numpy(),
                        "district": t["district"].to_numpy()})
    out["published"] = pub.reindex(t.index).fillna("").to_numpy()
    out["computed"] = t["category"].to_numpy()
    out["group_published"] = out["published"].map(_group)
    out["group_computed"] = out["computed"].map(_group)
    listed = out["published"] != ""
    out["same_category"] = listed & (out["published"] == out["computed"])
    out["same_group"] = listed & (out["group_published"] == out["group_computed"])
    out["tier"] = t["tier"].to_numpy()
    pop = units["pop"].reindex(t.index).to_numpy()
    sc = units["sc"].reindex(t.index).to_numpy()
    out["sc_share"] = [f"{float(Fraction(int(a) * 100, int(p))):.4f}" if p else "" for a, p in zip(sc, pop)]
    out["history"] = out["unit_code"].map(_history_words(result.history, result.year)).fillna("").to_numpy()
    sc_v = sc_check(result, pub).set_index("district")["verdict"]
    cnt_p = out[listed].groupby(["district", "group_published"]).size()
    cnt_c = out[listed].groupby(["district", "group_computed"]).size()

    def reason(r) -> str:
        """The published group first (what the list did), then the computed one."""
        if not r.published:
            return "not_listed"
        if r.published == r.computed:
            return "same"
        gp, gc = r.group_published, r.group_computed
        if gp == gc:
            return "general_women" if gp == "GEN" else "women_order"
        for g in (gp, gc):
            if g == "GEN":
                continue
            if cnt_p.get((r.district, g), 0) != cnt_c.get((r.district, g), 0):
                return "district_step"
            if g == "SC":
                return "sc_earlier_rotation" if sc_v.get(r.district) == "earlier_rotation" else "sc_order"
            return "st_order" if g == "ST" else "obc_not_public"
        raise AssertionError((gp, gc))
    out["reason"] = [reason(r) for r in out.itertuples(index=False)]
    return out[COMPARE_COLUMNS].sort_values(["district", "unit_code"], kind="stable").reset_index(drop=True)


def _chance(cmp: pd.DataFrame, group: str) -> Fraction:
    """Blocks expected in the group on both sides if each district's computed posts of the group were dealt to
    its listed blocks at random: sum over districts of published x computed / blocks."""
    e = Fraction(0)
    for _, x in cmp[cmp["published"] != ""].groupby("district"):
        e += Fraction(int((x["group_published"] == group).sum()) * int((x["group_computed"] == group).sum()), len(x))
    return e


def by_district(cmp: pd.DataFrame, sc: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per district: blocks, listed, same category, same group, the posts of each group on both sides (over the
    listed blocks), SC blocks in both, the SC verdict (:func:`sc_check`, when given) and the reasons of the
    differences (``reason: n``)."""
    rows = []
    for d, x in cmp.groupby("district", sort=True):
        li = x[x["published"] != ""]
        r = {"district": d, "blocks": len(x), "listed": len(li), "same_category": int(li["same_category"].sum()),
             "same_group": int(li["same_group"].sum())}
        for g in ("ST", "SC", "OBC"):
            r[f"{g}_published"] = int((li["group_published"] == g).sum())
            r[f"{g}_computed"] = int((li["group_computed"] == g).sum())
        r["SC_both"] = int(((li["group_published"] == "SC") & (li["group_computed"] == "SC")).sum())
        diff = li[~li["same_category"]]["reason"].value_counts()
        r["reasons"] = "; ".join(f"{k}: {int(v)}" for k, v in diff.items())
        rows.append(r)
    out = pd.DataFrame(rows)
    if sc is not None:
        out = out.merge(sc[["district", "verdict", "must_have_held_sc"]].rename(columns={"verdict": "SC_verdict"}),
                        on="district", how="left")
    return out


def _pct(n, d) -> float:
    return round(100 * n / d, 1) if d else float("nan")


def headline(cmp: pd.DataFrame, sc: pd.DataFrame | None = None) -> pd.DataFrame:
    """The headline figures of a comparison: ``figure, value, out_of, percent``. Every figure is a count of
    rows of ``cmp`` (and of ``sc``, the districts' SC verdicts)."""
    out = pd.DataFrame([(figure, value, out_of) for _, figure, value, out_of in _figures(cmp, sc)],
                       columns=["figure", "value", "out_of"])
    out["value"] = pd.Series([int(v) if float(v).is_integer() else v for v in out["value"]], dtype=object)
    out["percent"] = [_pct(v, o) if o else float("nan") for v, o in zip(out["value"], out["out_of"])]
    out["out_of"] = out["out_of"].astype("Int64")
    return out


def _figures(cmp: pd.DataFrame, sc: pd.DataFrame | None = None) -> list[tuple]:
    """The headline figures as ``(key, figure in words, value, out_of)``: the key names the figure for code that
    reads one (``count_equal_SC``, ``SC_matches`` ...; "" for the others)."""
    li = cmp[cmp["published"] != ""]
    n = len(li)
    rows = [("", "blocks computed", len(cmp), None), ("", "blocks compared (in the published list)", n, len(cmp)),
            ("", "same category", int(li["same_category"].sum()), n),
            ("", "same group (ST, SC, OBC, general)", int(li["same_group"].sum()), n)]
    for g in ("ST", "SC", "OBC", "GEN"):
        p = li["group_published"] == g
        rows.append(("", f"{g} blocks in both lists (of the published)",
                     int((p & (li["group_computed"] == g)).sum()), int(p.sum())))
    rows.append(("", "SC blocks in both expected by chance (posts dealt at random in each district)",
                 round(float(_chance(cmp, "SC")), 1), int((li["group_published"] == "SC").sum())))
    d = by_district(cmp)
    full = d[d["listed"] == d["blocks"]]
    for g in ("ST", "SC", "OBC"):
        rows.append((f"count_equal_{g}", f"districts with the published number of {g} posts (fully listed districts)",
                     int((full[f"{g}_published"] == full[f"{g}_computed"]).sum()), len(full)))
    if sc is not None:
        checked = sc[sc["verdict"] != "incomplete"]
        for v in ("matches", "earlier_rotation", "not_order"):
            rows.append((f"SC_{v}", f"districts whose published SC blocks: {v}",
                         int((checked["verdict"] == v).sum()), len(checked)))
        if "chance_consistent" in checked:
            rows.append(("", "districts passing the same test with SC blocks chosen at random (expected)",
                         round(float(checked["chance_consistent"].sum()), 1), len(checked)))
    return rows


#: The readings tried by :func:`readings`: (label, base year, options, obc_from_list).
READINGS = (
    ("GO 2021 defaults, base year 2005 (2005 and 2010 count)", 2005, {}, False),
    ("base year 2010 (only 2010 counts)", 2010, {}, False),
    ("afresh: no previous election counts (base year 2015)", 2015, {}, False),
    ("rotation_history=last_only", 2005, {"rotation_history": "last_only"}, False),
    ("district_population=district_table", 2005, {"district_population": "district_table"}, False),
    ("sc_cap_rounding=floor", 2005, {"sc_cap_rounding": "floor"}, False),
    ("sc_cap_rounding=floor, sc_cap_scope=every", 2005, {"sc_cap_rounding": "floor", "sc_cap_scope": "every"}, False),
    ("count_base=state_rural", 2005, {"count_base": "state_rural"}, False),
    ("women_history=any_women", 2005, {"women_history": "any_women"}, False),
    ("category_women=not_women_last", 2005, {"category_women": "not_women_last"}, False),
    ("tie_break=code", 2005, {"tie_break": "code"}, False),
    ("OBC districts as the list shows them (obc_above_state; isolates the block step)", 2005, {}, True),
)


#: The base years alone: 2005 (2005 and 2010 count), 2010 (the last election only), afresh.
BASE_YEAR_READINGS = READINGS[:3]


def readings(year: int = 2015, grid=READINGS) -> pd.DataFrame:
    """The headline figures for each reading of ``grid`` (label, base year, options, obc_from_list): one row per
    reading, one column per figure (counts; ``*_pct`` per cent of the compared or published blocks)."""
    pub = published(year)
    rows = []
    for label, base, opts, obc in grid:
        res = compute(year, base, opts, obc_from_list=obc)
        cmp = compare(res, pub)
        sc = sc_check(res, pub)
        h = {key: value for key, _, value, _ in _figures(cmp, sc) if key}
        li = cmp[cmp["published"] != ""]
        p_sc = int((li["group_published"] == "SC").sum())
        r = {"reading": label, "base_year": base, "compared": len(li),
             "same_category": int(li["same_category"].sum()), "same_group": int(li["same_group"].sum())}
        r["same_category_pct"] = _pct(r["same_category"], len(li))
        r["same_group_pct"] = _pct(r["same_group"], len(li))
        for g in ("ST", "SC", "OBC", "GEN"):
            r[f"{g}_both"] = int(((li["group_published"] == g) & (li["group_computed"] == g)).sum())
        r["SC_both_pct"] = _pct(r["SC_both"], p_sc)
        for g in ("ST", "SC", "OBC"):
            r[f"districts_{g}_count_equal"] = int(h[f"count_equal_{g}"])
        for v in ("matches", "earlier_rotation", "not_order"):
            r[f"SC_{v}"] = int(h[f"SC_{v}"])
        rows.append(r)
    return pd.DataFrame(rows)


def reason_table(cmp: pd.DataFrame) -> pd.DataFrame:
    """The differences by reason: ``reason, blocks, what`` (:data:`REASONS`), most frequent first."""
    diff = cmp[(cmp["published"] != "") & ~cmp["same_category"]]
    out = diff["reason"].value_counts().rename_axis("reason").reset_index(name="blocks")
    out["what"] = out["reason"].map(REASONS)
    return out


def district_blocks(cmp: pd.DataFrame, district: str) -> pd.DataFrame:
    """The blocks of one district (a name in any spelling the crosswalk knows), by descending SC share."""
    from ..inputs.names import crosswalk
    from ..rules.kp_chair import load_blocks
    code = crosswalk().resolve(district)
    names = load_blocks(2021)[0].drop_duplicates("district").set_index("district_lgd_code")["district"]
    x = cmp[cmp["district"] == names.get(code, district)].copy()
    x["_s"] = [float(v) if v else -1.0 for v in x["sc_share"]]
    return x.sort_values(["_s", "unit_code"], ascending=[False, True], kind="stable").drop(columns="_s").reset_index(
        drop=True)


def check_parameters(year=2015, base_year=2005, options=(), district="", block="", readings="base_years") -> dict:
    """Notebook 08's parameters, checked before anything runs (one-line InputError naming the parameter):
    ``year`` an election with a published list after the first one, ``base_year`` an election not after it,
    ``options`` kp-chair options (``NAME=VALUE`` strings or a dict), ``district``/``block`` known names,
    ``readings`` "base_years" or "all". Returns them normalised."""
    from ..base.errors import InputError
    from ..allotment.pipeline import options_of
    from ..rules.registry import get_rulebook
    rb = get_rulebook("kp-chair")
    if not isinstance(year, int) or year not in LIST_YEARS[1:]:
        raise InputError(f"year {year!r}: a published list and one before it are needed "
                         f"({', '.join(map(str, LIST_YEARS[1:]))})", option="year")
    if not isinstance(base_year, int) or base_year > year or base_year not in rb.years.elections:
        raise InputError(f"base_year {base_year!r}: an election year not after {year} "
                         f"({', '.join(str(y) for y in rb.years.elections if y <= year)})", option="base_year")
    opts = options_of(rb, options)
    if readings not in ("base_years", "all"):
        raise InputError(f"readings {readings!r}: 'base_years' or 'all'", option="readings")
    from .block_timeline import select_blocks
    select_blocks(district=district)
    if block:
        select_blocks(units=[block])
    grid = READINGS if readings == "all" else BASE_YEAR_READINGS
    return {"year": year, "base_year": base_year, "options": {k: v["value"] for k, v in opts.record().items()
                                                              if str(v["value"]) != str(v["default"])},
            "district": district, "block": block, "grid": grid}


if __name__ == "__main__":          # python -m reservation.history.backtest: rebuild data/kp_blocks_by_year.csv
    print(write_block_years())
