"""Ship the published Mayors' lists of 2017 and 2023 keyed by the LGD code of the Nagar Nigam (issue 18).

Run from the repository root:  python data/build/mayor_published.py [SHARED_DATA_DIR] [--check]

Reads ``published/mayor_2017.csv`` and ``published/mayor_2023.csv`` of the project's compiled reference data
(default ``../shared/data``; their README names the press reports they were compiled from) and writes
``data/published/mayor_2017.csv`` and ``data/published/mayor_2023.csv`` with the columns

    unit_code, name_en, name_hi, district_en, category, category_as_written, confidence, note, stage

``unit_code`` is the LGD code of the Nagar Nigam in ``data/urban_bodies_2023.csv``, found by its English name
(the source's spelling is the body list's for all 17); ``name_hi`` is the source's. ``confidence`` and ``note``
(2017) say which rows are sourced and which are inferred; ``category_as_written`` and ``stage`` (2023) are the
source's words. Nothing else is taken: no personal data (the lists name offices, not persons). Rows keep the
source's order. Every name must match exactly one Nagar Nigam, or nothing is written and the script exits 1.

It also writes ``data/history/mayor.csv`` (``unit, year, category, unit_name_en, name_as_published``: both lists,
2017 then 2023, in the source's order), the Mayors' history the workbench reads by default; with the default base
year 2023 a 2023 allotment counts neither list (the 2023 reservation was made afresh: notes/mayor.md) and a 2028
one counts 2023; ``--base-year 2017`` counts 2017 for 2023.
``--check`` compares instead of writing (exit 1 on a difference). Standard library only.
"""
import csv
import io
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BODIES = ROOT / "data" / "urban_bodies_2023.csv"
OUT = ROOT / "data" / "published"
HISTORY = ROOT / "data" / "history" / "mayor.csv"
COLUMNS = ("unit_code", "name_en", "name_hi", "district_en", "category", "category_as_written", "confidence",
           "note", "stage")
YEARS = {2017: 16, 2023: 17}


def _nagar_nigams() -> dict[str, tuple[str, str]]:
    with open(BODIES, encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["body_type"] == "4"]
    out = {r["name_en"]: (r["unit_code"], r["district_en"]) for r in rows}
    if len(out) != 17 or len(rows) != 17:
        raise SystemExit(f"expected 17 Nagar Nigams with distinct names in {BODIES.name}, found {len(rows)}")
    return out


def build(shared_data: Path, year: int) -> str:
    nn = _nagar_nigams()
    with open(shared_data / "published" / f"mayor_{year}.csv", encoding="utf-8", newline="") as f:
        src = list(csv.DictReader(f))
    if len(src) != YEARS[year]:
        raise SystemExit(f"mayor_{year}.csv: expected {YEARS[year]} rows, found {len(src)}")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    seen = set()
    for r in src:
        name = r["nagar_nigam"].strip()
        if name not in nn or name in seen:
            raise SystemExit(f"mayor_{year}.csv: {name!r} is not a Nagar Nigam of {BODIES.name} or is listed twice")
        seen.add(name)
        code, district = nn[name]
        w.writerow([code, name, r["name_hi"].strip(), district, r["category"].strip(),
                    r.get("category_as_written", "").strip(), r.get("confidence", "").strip(),
                    r.get("note", "").strip(), r.get("stage", "").strip()])
    return buf.getvalue()


def history(texts: dict[int, str]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("unit", "year", "category", "unit_name_en", "name_as_published"))
    for y, text in sorted(texts.items()):
        for r in csv.DictReader(io.StringIO(text)):
            w.writerow((r["unit_code"], y, r["category"], r["name_en"], r["name_hi"]))
    return buf.getvalue()


def main(argv: list[str]) -> int:
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    shared = Path(args[0]) if args else ROOT.parent / "shared" / "data"
    texts = {y: build(shared, y) for y in YEARS}
    outputs = {OUT / f"mayor_{y}.csv": text for y, text in texts.items()}
    outputs[HISTORY] = history(texts)
    bad = 0
    for target, text in outputs.items():
        if check:
            same = target.is_file() and target.read_text(encoding="utf-8") == text
            print(f"{target.relative_to(ROOT)}: {'same' if same else 'DIFFERS'}")
            bad += not same
            continue
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, target)
        print(f"wrote {target.relative_to(ROOT)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
