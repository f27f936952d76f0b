"""How often `reservation history` finds the gram panchayat of a row of the 2015 gram pradhan list (issue 21 item 2:
"at least for 90 % of the gram panchayats of the 2015 list"). A script that prints figures, not a test.

    RESERVATION_SHARED=/path/to/shared python benchmarks/history_find_gp.py [--limit N]

Reads the SEC's 2015 list (``SHARED/data/history/gp_pradhan_2015.csv.gz``, 59,019 rows; not shipped) and asks the
command's resolver (:func:`reservation.history.places.find_unit`, the one ``reservation history --body gp-pradhan
--unit`` uses) for every row by the names the list itself prints, as a villager would write them:
``"GP, Block, District"`` in Hindi. Each row is then one of:

- ``found, same unit``: the unit found is the one the crosswalk placed the row on (``data/history/gp-pradhan.csv.gz``,
  its ``source`` ``gp_pradhan_2015.csv.gz#N``), so the command prints this row's 2015 category;
- ``found, other unit``: the crosswalk placed the row elsewhere, or left it unplaced, and the name finds some LGD gram
  panchayat (a name the lists share inside a block);
- ``found in the lists only``: the crosswalk left the row unplaced (``data/history/gp_unplaced.csv.gz``; most are
  gram panchayats absorbed into towns or renamed) and the name finds it there, by the name the lists print inside
  the block: the command prints this row's 2015 category (and the rows of other years printing the same name), with
  the crosswalk's reason; ``... another row`` when it finds a different row;
- ``ambiguous`` / ``unknown``: the one-line error with the candidates (exit status 2).

Then the same for LGD's own names (the shipped gram panchayats, ``data/gp_census2011.csv.gz``): every gram panchayat with a 2015 record asked
for as ``"GP, Block, District"`` in English. Prints the counts and shares, and the time per lookup.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reservation.history.places import _blocks, gp_table, resolver  # noqa: E402
from reservation.history.rows import cite  # noqa: E402
from reservation.history.unplaced import UnplacedGP, unplaced_records  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N rows (a quick run)")
    args = ap.parse_args(argv)
    shared = Path(os.environ.get("RESERVATION_SHARED", ROOT.parent / "shared"))
    src = shared / "data" / "history" / "gp_pradhan_2015.csv.gz"
    if not src.exists():
        print(f"skipped: {src} is absent (set RESERVATION_SHARED)")
        return 0
    rows = pd.read_csv(src, dtype=str, keep_default_na=False)
    hist = pd.read_csv(ROOT / "data" / "history" / "gp-pradhan.csv.gz", dtype=str, keep_default_na=False)
    placed = {int(s.split("#")[1]): int(u) for s, u, y in zip(hist["source"], hist["unit"], hist["year"])
              if y == "2015"}
    if args.limit:
        rows = rows.head(args.limit)
    find = resolver("gp-pradhan", 2026, lgd_only=False)
    tally: Counter = Counter()
    t0 = time.perf_counter()
    for n, (d, b, g) in enumerate(zip(rows["district_hi"], rows["block_hi"], rows["gp_hi"]), 1):
        try:
            unit = find.resolve(f"{g}, {b}, {d}")
        except KeyError as e:
            tally["ambiguous" if "is ambiguous" in str(e.args[0]) else "unknown"] += 1
            continue
        if isinstance(unit, UnplacedGP):
            rec = unplaced_records(unit)
            mine = cite("gp_pradhan_2015.csv.gz", n + 1)          # data row n is the spreadsheet's row n + 1
            own = any(dict(note[0][1])["source"] == mine for note in rec["note"])
            tally["found in the lists only, its own row" if own else "found in the lists only, another row"] += 1
            continue
        want = placed.get(n)
        tally["found, same unit" if want == unit else "found, other unit" if want is not None
              else "found, row not placed by the crosswalk"] += 1
    dt = time.perf_counter() - t0
    total = len(rows)
    print(f"2015 gram pradhan list: {total} rows, asked as 'GP, Block, District' in Hindi ({dt / total * 1000:.1f} ms "
          "a row)")
    for k in ("found, same unit", "found, other unit", "found, row not placed by the crosswalk",
              "found in the lists only, its own row", "found in the lists only, another row", "ambiguous", "unknown"):
        print(f"  {k:<40} {tally[k]:>6}  {100 * tally[k] / total:5.1f} %")
    answered = tally["found, same unit"] + tally["found in the lists only, its own row"]
    print(f"  answered with the row's own 2015 record: {answered}  {100 * answered / total:5.1f} %")
    print(f"  rows the crosswalk placed: {len([1 for i in range(1, total + 1) if i in placed])} "
          f"({100 * len([1 for i in range(1, total + 1) if i in placed]) / total:.1f} %: the most the shipped history "
          "can answer)")
    _english(set(placed.values()), args.limit)
    return 0


def _english(units: set, limit: int) -> None:
    """LGD's English names of the gram panchayats with a 2015 record."""
    from reservation.inputs.names import crosswalk
    g = gp_table()
    g = g[g["unit_code"].isin(units)]
    if limit:
        g = g.head(limit)
    blocks, _ = _blocks()
    bname = blocks.set_index("unit_code")["unit_name_en"]
    dist = crosswalk()
    find = resolver("gp-pradhan", 2026)
    tally: Counter = Counter()
    for code, name, block, d in zip(g["unit_code"], g["unit_name_en"], g["block"], g["district"]):
        try:
            got = find.resolve(f"{name}, {bname[block]}, {dist.name_en(d)}")
            tally["found itself" if got == code else "found another"] += 1
        except KeyError as e:
            tally["ambiguous" if "is ambiguous" in str(e.args[0]) else "unknown"] += 1
    total = len(g)
    print(f"LGD gram panchayats with a 2015 record: {total}, asked as 'GP, Block, District' in English")
    for k in ("found itself", "found another", "ambiguous", "unknown"):
        print(f"  {k:<40} {tally[k]:>6}  {100 * tally[k] / max(total, 1):5.1f} %")


if __name__ == "__main__":
    sys.exit(main())
