"""The record tested: how the State rotated, tier by tier (issue 21 item 5).

Reads the published lists the workbench holds on stable codes and measures, for every tier and every pair of
elections (A, B), how often a unit reserved for a category (or a group: SC = SC + SC_W, OBC = OBC + OBC_W, ST,
GEN = W + UR) at A was reserved for it again at B, against

- the **base rate**: the share of that category among the units compared at B, and
- the **expected rate** had each counting unit's categories of B been dealt to its units at random (inside the
  block for gram pradhans, the district for block pramukhs, the State for Zila Panchayat chairs and Mayors, the
  State and body type for the urban chairs),

with the counts (n units reserved at A, k of them again at B) and a 95 % Clopper-Pearson interval. A rate whose
interval lies below the expected rate says that B *avoided* A's holders (rotation against A); one inside it says
that A did not count.

Then, for the elections with two earlier lists, the rotation readings are tested with the engine's own tier step
(:class:`reservation.law.rotation.RotationView`, the tiers every allotment uses): for each reading (base year,
``rotation_history``) and each group of the pass order (ST, SC, OBC, general women), the **posts out of tier
order**: posts given to a unit of a later tier while a unit of an earlier tier of the same pool (the counting
unit's units not taken by an earlier group at B) was left. The rule allows none ("as far as possible"), whatever
the populations, which the lists do not give. A reading the State followed has few; zero is not expected of the
gram pradhan lists, whose placement and OCR carry errors.

Run:  python benchmarks/rotation_record.py [--markdown] [--tier gp|kp|zp|mayor|urban]
Reads data/ (shipped) only; about half a minute (the gram pradhan history has 144,071 rows).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
sys.path.insert(0, str(ROOT))

from reservation.history.urban2006 import pairs_2012  # noqa: E402
from reservation.inputs.names import crosswalk  # noqa: E402
from reservation.inputs.published import category_of  # noqa: E402
from reservation.law.categories import by_code  # noqa: E402
from reservation.law.rotation import RotationView, group_codes  # noqa: E402

#: gram pradhan rows placed by a rule that compares the whole name (data/README.md, notes/gpcross.md): the
#: filter of "good match quality"; fuzzy, other-block and via-another-year placements are left out, and so is
#: every row with a caveat (``check``: the winner columns do not fit the seat; ``uncertain``: two OCR labels)
GOOD_GP_MATCH = ("exact", "skeleton", "exact+vowels", "exception")
GROUPS = ("ST", "SC", "OBC", "GEN")
#: a group's label in the tables: the group of SC is "SC+SC_W" (an SC women's office is an SC office)
GROUP_LABELS = {"ST": "ST+ST_W", "SC": "SC+SC_W", "OBC": "OBC+OBC_W", "GEN": "W+UR"}
LABELS = ("SC", "SC_W", "OBC", "OBC_W", "ST", "ST_W", "W", "UR") + tuple(GROUP_LABELS.values())
Z_ALPHA = 0.05


# --- the interval --------------------------------------------------------------------------------------------

def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified Lentz)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), a, b > 0."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def _beta_quantile(q: float, a: float, b: float) -> float:
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if betainc(a, b, mid) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(k: int, n: int, alpha: float = Z_ALPHA) -> tuple[float, float]:
    """The exact (Clopper-Pearson) two-sided 1 - alpha interval of a proportion k / n."""
    if n <= 0:
        return (float("nan"), float("nan"))
    lo = 0.0 if k == 0 else _beta_quantile(alpha / 2, k, n - k + 1)
    hi = 1.0 if k == n else _beta_quantile(1 - alpha / 2, k + 1, n - k)
    return lo, hi


# --- the rates -----------------------------------------------------------------------------------------------

def _has(label: str, cats: pd.Series) -> pd.Series:
    group = {v: k for k, v in GROUP_LABELS.items()}.get(label)
    if group:
        return cats.map(lambda c: by_code(c).group) == group
    return cats == label


def pair_rates(hist: pd.DataFrame, a: int, b: int, parent: str | None = None) -> pd.DataFrame:
    """One row per category and group held at election ``a`` by a unit that has a record at both ``a`` and ``b``
    (``hist``: ``unit_code, year, category`` and the counting unit's column ``parent``, else the whole table is
    one counting unit): ``n`` such units, ``k`` of them with the same label at ``b``, ``rate`` = k / n and its
    interval ``lo, hi``; ``base`` the label's share at ``b`` among all units compared; ``expected`` the mean,
    over the n units, of the label's share at ``b`` in the unit's counting unit (the rate if ``b``'s categories
    were dealt at random inside each counting unit)."""
    x = hist[hist["year"] == a].set_index("unit_code")["category"]
    keep = ["category"] + ([parent] if parent else [])
    y = hist[hist["year"] == b].set_index("unit_code")[keep]
    both = y.join(x.rename("cat_a"), how="inner")
    place = both[parent] if parent else pd.Series(0, index=both.index)
    rows = []
    for label in LABELS:
        at_a, at_b = _has(label, both["cat_a"]), _has(label, both["category"])
        n = int(at_a.sum())
        if n == 0:
            continue
        k = int((at_a & at_b).sum())
        share = at_b.groupby(place).mean()
        lo, hi = clopper_pearson(k, n)
        rows.append({"year_from": a, "year_to": b, "label": label, "compared": len(both), "n": n, "k": k,
                     "rate": k / n, "lo": lo, "hi": hi, "base": float(at_b.mean()),
                     "expected": float(place[at_a].map(share).mean())})
    return pd.DataFrame(rows)


def verdict(row) -> str:
    """``avoided``: the interval lies below the expected rate; ``sought``: above it; else ``chance``."""
    if row["hi"] < row["expected"]:
        return "avoided"
    if row["lo"] > row["expected"]:
        return "sought"
    return "chance"


# --- the readings, with the engine's tier step ---------------------------------------------------------------

def _pool_order(cat_b: np.ndarray) -> list[tuple[str, np.ndarray, frozenset]]:
    """The pass order of the GO (ST, SC, OBC, general women): each group's pool (not taken by an earlier group
    at B), its posts and the history codes that count for it (women: general W only, ``women_history``)."""
    groups = np.array([by_code(c).group for c in cat_b])
    taken = np.zeros(len(cat_b), dtype=bool)
    out = []
    for g in ("ST", "SC", "OBC", "GEN"):
        codes = group_codes(g)
        posts = np.isin(cat_b, list(codes)) if g == "GEN" else groups == g
        out.append((g, ~taken, posts, codes))
        taken |= groups == g
    return [(g, pool, posts & pool, codes) for g, pool, posts, codes in out]


def out_of_order(tier: np.ndarray, posts: np.ndarray) -> int:
    """Posts the tier rule would have to move: for t = 1, 2, min(posts, units of tiers <= t) less the posts
    among them, the larger of the two (0 when every tier was used up before the next was touched)."""
    p = int(posts.sum())
    worst = 0
    for t in (1, 2):
        le = tier <= t
        worst = max(worst, min(p, int(le.sum())) - int((posts & le).sum()))
    return worst


def tier_test(hist: pd.DataFrame, b: int, readings, parent: str | None = None) -> pd.DataFrame:
    """For each reading ``(name, base_year, rotation_history)``: per group, the posts at ``b`` by their tier
    under that reading, and the posts out of tier order (:func:`out_of_order`), summed over counting units.
    Only units with a record at ``b`` and at every earlier election of the table are used."""
    years = sorted(int(y) for y in hist["year"].unique() if y < b)
    have = hist[hist["year"].isin(years + [b])].groupby("unit_code")["year"].nunique()
    units = have[have == len(years) + 1].index
    h = hist[hist["unit_code"].isin(units)]
    at_b = h[h["year"] == b].sort_values("unit_code")
    place = at_b[parent].to_numpy() if parent else np.zeros(len(at_b), dtype=int)
    codes_b = at_b["category"].to_numpy()
    unit_b = at_b["unit_code"].to_numpy(dtype=np.int64)
    rows = []
    for name, base, mode in readings:
        rv = RotationView(h[["unit_code", "year", "category"]], b, base, mode)
        acc = {g: [0, 0, 0, 0, 0] for g in ("ST", "SC", "OBC", "GEN")}
        for p in np.unique(place):
            sel = place == p
            for g, pool, posts, codes in _pool_order(codes_b[sel]):
                t = rv.tiers_for(unit_b[sel][pool], codes)
                ps = posts[pool]
                a = acc[g]
                a[0] += int(ps.sum())
                for i in (1, 2, 3):
                    a[i] += int((ps & (t == i)).sum())
                a[4] += out_of_order(t, ps)
        for g, (posts, t1, t2, t3, bad) in acc.items():
            rows.append({"year": b, "reading": name, "group": g, "units": len(unit_b), "posts": posts,
                         "tier1": t1, "tier2": t2, "tier3": t3, "out_of_order": bad})
    return pd.DataFrame(rows)


def readings_for(years: list[int], b: int) -> list[tuple[str, int, str]]:
    """The readings testable at ``b`` with the earlier lists ``years``: afresh (base year b) and each base year
    (``rotation_history=since_base``; the last election as base year is the reading ``last_only``)."""
    earlier = [y for y in years if y < b]
    out = [(f"afresh (base year {b})", b, "since_base")]
    out += [(f"base year {y}" + (" = last_only" if y == earlier[-1] else ""), y, "since_base") for y in earlier]
    return out


# --- the lists -----------------------------------------------------------------------------------------------

def _frame(unit, year, category, **extra) -> pd.DataFrame:
    out = pd.DataFrame({"unit_code": pd.Series(unit).astype(np.int64).to_numpy(),
                        "year": pd.Series(year).astype(int).to_numpy(), "category": list(category)})
    for k, v in extra.items():
        out[k] = list(v)
    return out


def load_gp(good: bool = True) -> pd.DataFrame:
    """The gram pradhan history on LGD gram panchayats (data/history/gp-pradhan.csv.gz), with the LGD block;
    ``good``: only rows placed by a whole-name rule (:data:`GOOD_GP_MATCH`) and without a caveat."""
    df = pd.read_csv(DATA / "history" / "gp-pradhan.csv.gz", dtype=str, keep_default_na=False)
    if good:
        df = df[df["match"].isin(GOOD_GP_MATCH) & (df["caveat"] == "")]
    return _frame(df["unit"], df["year"], df["category"], block=df["block"].astype(int))


def load_kp() -> pd.DataFrame:
    """The block pramukh history on LGD blocks (data/history/kp-chair.csv: 2005, 2010, 2015), with the district."""
    df = pd.read_csv(DATA / "history" / "kp-chair.csv", dtype=str, keep_default_na=False)
    return _frame(df["unit"], df["year"], df["category"], district=df["district_en"])


def load_zp() -> pd.DataFrame:
    """The Zila Panchayat chairs: data/history/zp-chair.csv (2015 as published, 2021 = the final list of 17 Mar
    2021, data/published/zp_adhyaksh_2021_final.csv, which the test of test_readings_zp.py keeps equal)."""
    df = pd.read_csv(DATA / "history" / "zp-chair.csv", dtype=str, keep_default_na=False)
    return _frame(df["unit"], df["year"], df["category"])


def _category(text: str) -> str:
    """The code of a list's words; "" for a blank cell (two 2012 chairs), which then is no record."""
    if not text.strip():
        return ""
    try:
        return category_of(text)
    except KeyError:                 # "अन्य पिछड़ा वर्ग महिला": the 2012 list's words for OBC women
        return category_of(text.replace("महिला", "स्त्री"))


def urban_pairs() -> pd.DataFrame:
    """The chairs of 2006 on the SEC's 2012 rows, as ``reservation history`` places them
    (:func:`reservation.history.urban2006.pairs_2012`: the same type; Nagar Nigams by their district, the others
    by equal spelling keys of the name inside the same district of today, else unique in the State). One row per
    2012 body with a 2012 category: ``sec_row, type, cat_2012, cat_2006`` (empty where no 2006 body is placed)."""
    m = pairs_2012()
    m["cat_2012"] = m["category_hi"].map(_category)
    return m.loc[m["cat_2012"] != "", ["sec_row", "type", "cat_2012", "cat_2006"]].reset_index(drop=True)


def load_urban(pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """The urban chairs of 2006 and 2012 as one history (unit = the 2012 SEC row), with the body type."""
    p = urban_pairs() if pairs is None else pairs
    a = p[p["cat_2006"] != ""]
    return pd.concat([_frame(p["sec_row"], [2012] * len(p), p["cat_2012"], type=p["type"]),
                      _frame(a["sec_row"], [2006] * len(a), a["cat_2006"], type=a["type"])], ignore_index=True)


def load_mayors(pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """The Mayors (the chairs of the Nagar Nigams) of 2006, 2012, 2017 and 2023 on the LGD code of today's Nagar
    Nigam (data/history/mayor.csv for 2017 and 2023; the Nagar Nigam rows of the two urban lists, one per
    district, placed on the Nagar Nigam of their district: the 2006 ones through the 2012 row of their district,
    :func:`urban_pairs`)."""
    cw = crosswalk()
    m = pd.read_csv(DATA / "history" / "mayor.csv", dtype=str, keep_default_na=False)
    hist = _frame(m["unit"], m["year"], m["category"])
    pub = pd.read_csv(DATA / "published" / "mayor_2023.csv", dtype=str, keep_default_na=False)
    nn_of = {cw.resolve(d): int(u) for d, u in zip(pub["district_en"], pub["unit_code"])}
    sec = pd.read_csv(DATA / "build" / "sec2012_urban_bodies_hi.csv", dtype=str, keep_default_na=False)
    sec = sec[sec["body_type_hi"] == "नगर निगम"]
    unit_of = {int(s): nn_of[cw.resolve(d)] for s, d in zip(sec["first_serial"], sec["district_hi"])}
    p = urban_pairs() if pairs is None else pairs
    p = p[p["type"] == 4]
    old = p[p["cat_2006"] != ""]
    rows = [_frame([unit_of[s] for s in p["sec_row"]], [2012] * len(p), p["cat_2012"]),
            _frame([unit_of[s] for s in old["sec_row"]], [2006] * len(old), old["cat_2006"])]
    return pd.concat([hist] + rows, ignore_index=True).sort_values(["year", "unit_code"], ignore_index=True)


# --- the tiers and the report --------------------------------------------------------------------------------

#: tier -> (title, loader, counting unit of the chance expectation, the elections)
TIERS = {
    "gp": ("Gram pradhans (good matches: whole-name rules, no caveat)", load_gp, "block", (2005, 2010, 2015)),
    "kp": ("Block pramukhs (all placed rows)", load_kp, "district", (2005, 2010, 2015)),
    "zp": ("Zila Panchayat chairs", load_zp, None, (2015, 2021)),
    "mayor": ("Mayors (Nagar Nigams)", load_mayors, None, (2006, 2012, 2017, 2023)),
    "urban": ("Palika Parishad and Nagar Panchayat chairs (equal name keys, same type)", None, "type", (2006, 2012)),
}
#: the labels the report shows (every label is computed; ST is too rare in these lists to say anything)
SHOWN = ("SC+SC_W", "OBC+OBC_W", "W+UR", "SC", "SC_W", "OBC", "OBC_W", "W")


def load(tier: str, all_matches: bool = False) -> pd.DataFrame:
    if tier == "gp":
        return load_gp(good=not all_matches)
    if tier == "urban":
        h = load_urban()
        return h[h["type"] != 4].reset_index(drop=True)
    return TIERS[tier][1]()


def figures(tier: str, hist: pd.DataFrame | None = None, all_matches: bool = False
            ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The repeat rates of every pair of elections and the tier test of every election with an earlier list."""
    _, _, parent, years = TIERS[tier]
    h = load(tier, all_matches) if hist is None else hist
    rates = pd.concat([pair_rates(h, a, b, parent) for i, a in enumerate(years) for b in years[i + 1:]],
                      ignore_index=True)
    rates["verdict"] = [verdict(r) for r in rates.to_dict("records")]
    tests = pd.concat([tier_test(h, b, readings_for(list(years), b), parent) for b in years[1:]],
                      ignore_index=True)
    return rates, tests


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def rate_lines(tier: str, rates: pd.DataFrame, markdown: bool) -> list[str]:
    head = ["pair", "held at A", "n", "k", "again at B %", "95 % interval", "base rate at B %", "expected %",
            "verdict"]
    out = (["| tier | " + " | ".join(head) + " |", "|---|" + "---|" * len(head)] if markdown
           else [" | ".join(head)])
    for r in rates[rates["label"].isin(SHOWN)].to_dict("records"):
        cells = [f"{r['year_from']} -> {r['year_to']}", r["label"], f"{r['n']:,}", f"{r['k']:,}", _pct(r["rate"]),
                 f"{_pct(r['lo'])}-{_pct(r['hi'])}", _pct(r["base"]), _pct(r["expected"]), r["verdict"]]
        out.append(("| " + tier + " | " + " | ".join(cells) + " |") if markdown else " | ".join(cells))
    return out


def test_lines(tier: str, tests: pd.DataFrame, markdown: bool) -> list[str]:
    head = ["election", "reading", "group", "units", "posts", "tier 1", "tier 2", "tier 3", "out of tier order"]
    out = (["| tier | " + " | ".join(head) + " |", "|---|" + "---|" * len(head)] if markdown
           else [" | ".join(head)])
    for r in tests[tests["group"] != "ST"].to_dict("records"):
        cells = [str(r["year"]), r["reading"], "W" if r["group"] == "GEN" else r["group"], f"{r['units']:,}",
                 f"{r['posts']:,}", f"{r['tier1']:,}", f"{r['tier2']:,}", f"{r['tier3']:,}",
                 f"{r['out_of_order']:,}"]
        out.append(("| " + tier + " | " + " | ".join(cells) + " |") if markdown else " | ".join(cells))
    return out


def supported(rates: pd.DataFrame, tests: pd.DataFrame) -> dict[int, str]:
    """The reading of each election that the record supports, read from the SC offices (SC + SC_W), the one
    group whose order is public and lasting (the Census SC shares), so that an election that does not count
    shows as a rate at chance or above, and one that counts as a rate below it: the base year is the earliest
    earlier election A such that the SC holders of A and of every election between A and B were avoided at B;
    none avoided: afresh. Beside it the verdicts of OBC (whose order is not public) and the posts out of tier
    order of every reading (SC and OBC together)."""
    out = {}
    for b in sorted(tests["year"].unique()):
        r = rates[rates["year_to"] == b]
        sc = r[r["label"] == "SC+SC_W"].set_index("year_from")
        obc = r[r["label"] == "OBC+OBC_W"].set_index("year_from")
        base = int(b)
        for a in sorted(sc.index, reverse=True):
            if sc.at[a, "verdict"] != "avoided":
                break
            base = int(a)
        t = tests[(tests["year"] == b) & tests["group"].isin(["SC", "OBC"])]
        bad = t.groupby("reading", sort=False)["out_of_order"].sum()
        name = "afresh" if base == b else f"base year {base}"
        held = "; ".join(f"{a}: SC {sc.at[a, 'verdict']} ({sc.at[a, 'k']}/{sc.at[a, 'n']}), OBC "
                         f"{obc.at[a, 'verdict']} ({obc.at[a, 'k']}/{obc.at[a, 'n']})" for a in sc.index)
        out[int(b)] = (f"{name} [holders of {held}] [SC and OBC posts out of tier order: "
                       + ", ".join(f"{k} {int(v)}" for k, v in bad.items()) + "]")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tier", choices=list(TIERS), action="append", help="one tier (repeatable); default all")
    ap.add_argument("--markdown", action="store_true", help="print the tables as markdown")
    ap.add_argument("--all-matches", action="store_true",
                    help="gram pradhans: every placed row (fuzzy, other block, via another year, caveats too)")
    args = ap.parse_args(argv)
    for tier in args.tier or list(TIERS):
        rates, tests = figures(tier, all_matches=args.all_matches)
        print(f"\n## {TIERS[tier][0]}\n")
        print("\n".join(rate_lines(tier, rates, args.markdown)))
        print()
        print("\n".join(test_lines(tier, tests, args.markdown)))
        print()
        for y, text in supported(rates, tests).items():
            print(f"{tier} {y}: the record supports {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
