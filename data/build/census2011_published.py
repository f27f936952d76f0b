"""Add the Census 2011 district totals *as published* to data/districts.csv (ZP chair division rule, issue 12).

Run from the repository root:  python data/build/census2011_published.py [SHARED_DATA_DIR]

The rows of data/districts.csv are today's districts rebuilt from Census 2011 tehsils. The State ranked districts
by the Census district figures as they were published (71 districts), so a district that lost a tehsil after 2011
(Rae Bareli lost Tiloi to Amethi; Sultanpur, Muzaffarnagar, Ghaziabad, Moradabad and Budaun lost tehsils to the
four new districts) keeps its whole published figure there. The four districts created after the Census froze its
boundaries (Amethi, Hapur, Sambhal, Shamli) have no published figure of their own: they take their rebuilt total.

Columns written (appended, or refreshed if present):
- ``tot_p_census2011_published``: total population of the district as the Census 2011 published it;
- ``tot_p_census2011_published_basis``: ``published`` (the Census district row with the same Census code) or
  ``rebuilt_new_district`` (no Census 2011 district: the rebuilt ``tot_p`` of the row).

Source: ``census2011_districts_71.csv`` of the project's compiled reference data (Census 2011 Primary Census
Abstract, district rows, cross-checked against two independent copies; data/README.md, 'How the reference tables
were built'). Standard library only.
The file is rewritten only if every one of the 75 rows is matched; otherwise nothing is written and the script
exits 1.
"""
import csv
import io
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DISTRICTS = ROOT / "data" / "districts.csv"
COLUMNS = ("tot_p_census2011_published", "tot_p_census2011_published_basis")


def build(shared_data: Path) -> str:
    census = {}
    with open(shared_data / "reference" / "census2011_districts_71.csv", encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            census[int(r["census2011_district_code"])] = int(r["tot_p"])
    if len(census) != 71:
        raise SystemExit(f"expected 71 Census 2011 districts, found {len(census)}")
    with open(DISTRICTS, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    keep = [i for i, c in enumerate(head) if c not in COLUMNS]
    head2 = [head[i] for i in keep] + list(COLUMNS)
    code_col, tot_col = head.index("census2011_district_code"), head.index("tot_p")
    out = [head2]
    used = set()
    for r in rows[1:]:
        code = r[code_col].strip()
        if code:
            if int(code) not in census:
                raise SystemExit(f"Census code {code} of {r[head.index('district_en')]} is not among the 71")
            used.add(int(code))
            extra = [str(census[int(code)]), "published"]
        else:
            extra = [r[tot_col], "rebuilt_new_district"]
        out.append([r[i] for i in keep] + extra)
    if len(out) != 76 or len(used) != 71:
        raise SystemExit(f"expected 75 districts covering the 71 Census districts; got {len(out) - 1} / {len(used)}")
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(out)
    return buf.getvalue()


def main() -> int:
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data"
    text = build(shared)
    fd, tmp = tempfile.mkstemp(dir=DISTRICTS.parent, prefix=".districts-", suffix=".csv")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, DISTRICTS)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    print(f"wrote {DISTRICTS.relative_to(ROOT)} ({', '.join(COLUMNS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
