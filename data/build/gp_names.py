"""Ship the names of LGD's gram panchayats, so that `reservation history` finds a gram panchayat by its name.

Run from the repository root:  python data/build/gp_names.py  [--check]

Reads ``SHARED/data/reference/lgd_up_block_gp.csv`` (``SHARED`` = ``$RESERVATION_SHARED`` or ``../shared`` next to
the repository: LGD's 57,695 gram panchayats with their blocks, from ``in-rolls/quota_raj``) and writes
``data/history/gp_names.csv.gz``: ``unit`` (LGD gram panchayat code), ``block`` (the LGD development block, placed
as the gram pradhan crosswalk places it: ``gp_match.lgd_gp_table``), ``name_en`` (LGD's
name, NFC, spaces collapsed), sorted by block then code; gzip without a time stamp, so a rerun is byte-identical.
No personal data: the names of places only. The Hindi names the index also knows are the lists' own
(``name_as_published`` of ``data/history/gp-pradhan.csv.gz``). ``--check`` writes nothing and exits 1 when the
shipped file differs from what the build gives.
"""
from __future__ import annotations

import argparse
import gzip
import sys
import unicodedata
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gp_match import lgd_gp_table  # noqa: E402
from kp_history_crosswalk import load_blocks, publish, shared_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "data" / "history" / "gp_names.csv.gz"
COLUMNS = ["unit", "block", "name_en"]


def build(shared: Path | None = None) -> bytes:
    table = load_blocks()
    lgd = lgd_gp_table((shared or shared_dir()) / "data" / "reference" / "lgd_up_block_gp.csv", table)
    blocks = set(table["block_lgd_code"].astype(int))
    df = pd.DataFrame({"unit": lgd["gp_code"].astype(int), "block": lgd["block"].astype(int),
                       "name_en": [" ".join(unicodedata.normalize("NFC", s).split()) for s in lgd["gp_name"]]})
    if not df["unit"].is_unique:
        raise SystemExit("lgd_up_block_gp.csv: a gram panchayat code is given twice")
    bad = ~df["block"].isin(blocks)
    if bad.any():
        raise SystemExit(f"{int(bad.sum())} gram panchayats name a block that data/blocks_census2011.csv lacks")
    if (df["name_en"] == "").any() or df["name_en"].str.contains(r"[\x00-\x1f\x7f-\x9f]").any():
        raise SystemExit("lgd_up_block_gp.csv: an empty name or a control character")
    df = df.sort_values(["block", "unit"], kind="stable")[COLUMNS]
    return gzip.compress(df.to_csv(index=False, lineterminator="\n").encode("utf-8"), compresslevel=9, mtime=0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file, write nothing")
    args = ap.parse_args(argv)
    data = build()
    if args.check:
        same = OUT.exists() and gzip.decompress(OUT.read_bytes()) == gzip.decompress(data)
        print(f"{OUT.relative_to(ROOT)}: {'identical' if same else 'DIFFERS'}")
        return 0 if same else 1
    publish({OUT: data})
    print(f"wrote {OUT.relative_to(ROOT)} ({len(gzip.decompress(data).splitlines()) - 1} gram panchayats)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
