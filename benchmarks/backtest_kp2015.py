"""The block pramukh rules tested on 2015: compute the 2015 allotment from the 2005 and 2010 lists under the GO 2021
rules and compare it with the published 2015 list, block by block (issue 14). Prints the headline figures.

    .venv/bin/python benchmarks/backtest_kp2015.py            # everything (about a minute on 2 cores)
    .venv/bin/python benchmarks/backtest_kp2015.py --quick    # without the readings grid

Every figure comes from reservation.history.backtest (tested in tests/test_backtest.py); nothing is written.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pandas as pd  # noqa: E402

from reservation.history import backtest as B  # noqa: E402
from reservation.history import block_timeline as T  # noqa: E402


def show(title: str, df: pd.DataFrame) -> None:
    print(f"\n## {title}\n")
    print(df.to_string(index=False))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--year", type=int, default=2015, help="the election tested (a year with a published list)")
    ap.add_argument("--base-year", type=int, default=2005, help="first election that counts as a previous one")
    ap.add_argument("--quick", action="store_true", help="skip the readings grid")
    a = ap.parse_args(argv)
    pd.set_option("display.width", 250)
    pd.set_option("display.max_colwidth", 90)
    warnings.simplefilter("ignore")           # the base-year notes are printed below, from the result

    t0 = time.perf_counter()
    res = B.compute(a.year, a.base_year)
    t1 = time.perf_counter()
    pub = B.published(a.year)
    cmp = B.compare(res, pub)
    sc = B.sc_check(res, pub, chance=True)
    t2 = time.perf_counter()

    c = res.meta["counts"]
    lst = pd.Series([B._group(x) for x in pub]).value_counts()
    print(f"# kp-chair {a.year}: computed from the lists before it (base year {a.base_year}) vs the published list")
    print(f"\nposts {res.meta['posts']}; State counts SC {c['SC'] + c['SC_W']}, ST {c['ST'] + c['ST_W']}, "
          f"OBC {c['OBC'] + c['OBC_W']}; the published list: {len(pub)} blocks, SC {lst.get('SC', 0)}, "
          f"ST {lst.get('ST', 0)}, OBC {lst.get('OBC', 0)}")
    print(f"history counted: {res.meta['history_years']}; not counted: {res.meta['history_not_counted']}")
    for x in res.meta["assumptions"][:2]:
        print(f"assumed: {x[:240]}")
    show("Headline", B.headline(cmp, sc))
    reasons = cmp[~cmp["same_category"]]["reason"].value_counts().rename_axis("reason").reset_index(name="blocks")
    reasons["what"] = reasons["reason"].map(B.REASONS)
    show("Why the others differ (blocks)", reasons)
    show("SC blocks, district by district (sc_check)",
         sc[["district", "sc_posts", "both", "eligible", "tier3", "tier2", "never", "verdict", "must_have_held_sc",
             "chance_consistent"]])
    d = B.by_district(cmp, sc)
    show("Per district", d[["district", "blocks", "listed", "same_category", "same_group", "SC_published",
                            "SC_computed", "SC_both", "OBC_published", "OBC_computed", "SC_verdict"]])
    for title, dc in (("default readings", res.extra["districts"]),
                      ("SC with Muzaffarnagar and Ghaziabad at their Census 2011 district as published",
                       B.district_counts(a.year, census_parents=True))):
        chk = B.district_check(dc, a.year)
        show(f"District step: districts whose posts differ from the list ({title})", chk[~chk["equal"]])
    print(f"\nOBC districts the list shows above the State share: {', '.join(B.obc_districts_in_list(a.year))}")
    o = B.obc_orders(2021)
    show(f"2021 with these districts above the State OBC share, in every order ({o.attrs['posts']} shortfall posts, "
         f"{o.attrs['districts']} districts: the {o.attrs['leading']} leading ones take a second; "
         f"{o.attrs['sets']} sets; published 2021: OBC-W 97, W 113, UR 314, women 300)", o)
    show("Rotation as a fact: same group in consecutive elections", T.repeat_figures())
    t3 = time.perf_counter()
    if not a.quick:
        r = B.readings(a.year)
        show("Readings: which fits the published list best", r)
    t4 = time.perf_counter()
    print(f"\ntime: allotment {t1 - t0:.1f} s, comparison {t2 - t1:.1f} s, tables {t3 - t2:.1f} s"
          + ("" if a.quick else f", readings grid ({len(B.READINGS)} runs) {t4 - t3:.1f} s"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
