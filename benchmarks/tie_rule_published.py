"""The tie rule for stand-in OBC shares against every shipped published list (issue 18): how many units the
computed allotment gives the published category (and group), under ``tie_break=population`` (the old default:
equal assumed OBC shares broken by the larger population) and ``tie_break=assumed_by_code`` (those ties broken by
the lower LGD code). Prints a markdown table (notes/mayor.md, docs/ambiguities.md A14).

    .venv/bin/python benchmarks/tie_rule_published.py          # every list (the three block lists take ~1 min)
    .venv/bin/python benchmarks/tie_rule_published.py --quick  # the Zila Panchayat and Mayor lists only

Computations: zp-chair 2021 with the shipped history (base year 2015: the 2015 list counts) against the final
list of 17 Mar 2021; zp-chair 2015 afresh (no earlier list shipped) against the 2015 list (74 districts);
kp-chair 2005 afresh, 2010 from 2005 and 2015 from 2005 and 2010 (``reservation.history.backtest.compute``, base year
2005) against the SEC lists; mayor 2023 (base year 2023: afresh) against the list of 9 Apr 2023; mayor 2017: the
2023 rules on the 16 Nagar Nigams of 2017 (Shahjahanpur left out), afresh, against the 2017 list (6 of its 16
rows inferred). The rules of 2005-2017 are not in the sources: those rows test the tie rule, not the law.
Nothing is written outside a temporary folder.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

import reservation  # noqa: E402
from reservation.law.categories import by_code  # noqa: E402

RULES = ("population", "assumed_by_code")


def _score(table: pd.DataFrame, pub: pd.Series) -> tuple[int, int, int, int]:
    """(units compared, same category, same group, general women's offices (W) in both)."""
    t = table.set_index("unit_code")["category"]
    both = pub.index.intersection(t.index)
    same = int((t[both] == pub[both]).sum())
    group = int(sum(by_code(a).group == by_code(b).group for a, b in zip(t[both], pub[both])))
    women = int(((t[both] == "W") & (pub[both] == "W")).sum())
    return len(both), same, group, women


def _zp(year: int, rule: str) -> pd.DataFrame:
    return reservation.allot("zp-chair", year, options={"tie_break": rule}).table


def zp_lists():
    h = pd.read_csv(ROOT / "data" / "history" / "zp-chair.csv")
    p15 = h[h["year"] == 2015].set_index("unit")["category"]
    fin = pd.read_csv(ROOT / "data" / "published" / "zp_adhyaksh_2021_final.csv")
    p21 = fin.set_index("district_lgd_code")["category"]
    yield "zp-chair 2015 (afresh)", p15, lambda rule: _zp(2015, rule)
    yield "zp-chair 2021 (final list; base year 2015)", p21, lambda rule: _zp(2021, rule)


def kp_lists():
    from reservation.history import backtest as B
    for year in (2005, 2010, 2015):
        label = f"kp-chair {year} ({'afresh' if year == 2005 else 'base year 2005'})"
        yield label, B.published(year), lambda rule, y=year: B.compute(y, 2005, {"tie_break": rule}).table


def _mayor_units_2017(folder: Path) -> Path:
    u = pd.read_csv(ROOT / "data" / "urban_bodies_2023.csv")
    u = u[(u["body_type"] == 4) & (u["name_en"] != "Shahjahanpur")]
    path = folder / "nagar_nigams_2017.csv"
    pd.DataFrame({"unit": u["unit_code"], "name_en": u["name_en"], "body_type": "Nagar Nigam",
                  "district": u["district_en"], "pop": u["pop"].astype(int), "sc": u["sc"].astype(int),
                  "st": u["st"].astype(int), "women": u["women"].astype(int)}).to_csv(path, index=False)
    return path


def mayor_lists(folder: Path):
    pub = {y: pd.read_csv(ROOT / "data" / "published" / f"mayor_{y}.csv").set_index("unit_code")["category"]
           for y in (2017, 2023)}
    units = _mayor_units_2017(folder)
    yield "mayor 2023 (afresh)", pub[2023], lambda rule: reservation.allot(
        "mayor", 2023, options={"tie_break": rule}).table
    yield "mayor 2017 (2023 rules, 16 Nagar Nigams, afresh)", pub[2017], lambda rule: reservation.allot(
        "mayor", 2023, units=units, history=[], options={"tie_break": rule}).table


def table(quick: bool = False) -> pd.DataFrame:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        lists = list(zp_lists()) + list(mayor_lists(Path(tmp))) + ([] if quick else list(kp_lists()))
        for label, pub, run in lists:
            r = {"list": label}
            for rule in RULES:
                n, same, group, women = _score(run(rule), pub)
                r.update({"compared": n, "published_W": int((pub == "W").sum()), f"same_category_{rule}": same,
                          f"same_group_{rule}": group, f"W_both_{rule}": women})
            rows.append(r)
    return pd.DataFrame(rows)


def markdown(df: pd.DataFrame) -> str:
    cols = ("compared", "same_category_population", "same_category_assumed_by_code", "same_group_population",
            "same_group_assumed_by_code", "published_W", "W_both_population", "W_both_assumed_by_code")
    out = ["| published list | units compared | same category: `population` | same category: `assumed_by_code` "
           "| same group: `population` | same group: `assumed_by_code` | published W | W in both: `population` "
           "| W in both: `assumed_by_code` |", "|---|" + "---:|" * len(cols)]
    for r in df.to_dict("records"):
        out.append(f"| {r['list']} | " + " | ".join(str(r[c]) for c in cols) + " |")
    tot = df.drop(columns=["list"]).sum()
    out.append("| **all** | " + " | ".join(f"**{tot[c]}**" for c in cols) + " |")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the Zila Panchayat and Mayor lists only")
    a = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    print(markdown(table(a.quick)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
