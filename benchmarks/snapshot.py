"""Record every body's outputs under many option sets, to prove a rebuild changes nothing it did not mean to.

    python benchmarks/snapshot.py record DIR       # write DIR/<case>/{table,trace,counts,extra-*}.csv, meta.json
    python benchmarks/snapshot.py compare OLD NEW  # list the cases and files that differ (exit 1 if any)

A maintainer tool, not a test: run ``record`` before a refactor (on the old commit) and after it, then
``compare``. Each case is one allotment through the Python API (the CLI writes the same table). The gram
panchayat cases need ../shared/data (the real 2015 list with generated populations); they are skipped without it.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("RESERVATION_SHARED", ROOT.parent / "shared"))
FIX = ROOT / "tests" / "fixtures"


def _option_cases(body: str) -> list[tuple[str, list]]:
    """The default, then every non-default choice of every choice option, one at a time."""
    import reservation
    rows = reservation.option_table(body).to_dict("records")
    cases = [("default", [])]
    for r in rows:
        if r["choices"] in ("decimal", "path", "decimal_or_empty"):
            continue
        for choice in r["choices"].split(" | "):
            if choice != r["default"]:
                cases.append((f"{r['option']}={choice}", [f"{r['option']}={choice}"]))
    return cases


def _allot(body, year, options, **kw):
    """One allotment through whichever Python API this commit has (``units=`` arrived with the pipeline)."""
    import reservation
    from reservation.inputs.options import parse_assignments
    if "units" in inspect.signature(reservation.allot).parameters:
        return reservation.allot(body, year, options=options, **kw)
    pairs = parse_assignments(options)
    if "units" not in kw:
        return reservation.allot(body, year, options=pairs, **kw)
    from reservation.bodies import get_body          # a commit before the one pipeline (its compat module)
    b = get_body(body, year)
    return b.allot(year, units_path=kw["units"], history_paths=kw.get("history"), options=b.options(pairs))


def cases():
    out = []
    for body, year in (("zp-chair", 2021), ("kp-chair", 2021), ("pp-chair", 2023), ("np-chair", 2023),
                       ("mayor", 2023)):
        for name, opts in _option_cases(body):
            out.append((f"{body}-{name}", body, year, opts, {}))
    out += [
        ("zp-chair-base2010", "zp-chair", 2021, [], {"base_year": 2010}),
        ("zp-chair-obc40", "zp-chair", 2021, ["obc_state_share=40"], {}),
        ("pp-chair-toy", "pp-chair", 2023, [], {"units": str(FIX / "urban" / "toy_npp.csv")}),
    ]
    for body in ("gp-pradhan", "gp-ward", "kp-ward", "zp-ward"):
        for name, opts in _option_cases(body):
            out.append((f"{body}-toy-{name}", body, 2021, opts,
                        {"units": str(FIX / "units" / "pradhan_toy.csv"),
                         "history": [str(FIX / "units" / "pradhan_toy_2015.csv")]}))
    return out


def _write(df, path: Path):
    path.write_text(df.to_csv(index=False, lineterminator="\n"), encoding="utf-8")


def record(folder: Path) -> None:
    import pandas as pd
    folder.mkdir(parents=True, exist_ok=True)
    for name, body, year, opts, kw in cases():
        d = folder / name
        d.mkdir(exist_ok=True)
        try:
            a = _allot(body, year, opts, **kw)
        except Exception as e:  # noqa: BLE001 - a refusal is an outcome too
            (d / "error.txt").write_text(f"{type(e).__name__}: {e}\n", encoding="utf-8")
            continue
        _write(a.table, d / "table.csv")
        _write(a.trace, d / "trace.csv")
        _write(a.counts, d / "counts.csv")
        for k, v in sorted(a.extra.items()):
            if isinstance(v, pd.DataFrame):
                _write(v, d / f"extra-{k}.csv")
        meta = {k: v for k, v in a.meta.items() if k != "inputs"}
        (d / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1, sort_keys=True, default=str),
                                     encoding="utf-8")
    if (SHARED / "data" / "history" / "gp_pradhan_2015.csv.gz").is_file():
        from reservation.rules import synthetic
        import tempfile
        gps, hist = synthetic.gram_panchayats_2015(SHARED / "data" / "history" / "gp_pradhan_2015.csv.gz")
        with tempfile.TemporaryDirectory() as t:
            u, h = Path(t) / "u.csv", Path(t) / "h.csv"
            gps.to_csv(u, index=False)
            hist.to_csv(h, index=False)
            a = _allot("gp-pradhan", 2021, [], units=str(u), history=[str(h)])
            d = folder / "gp-pradhan-real2015"
            d.mkdir(exist_ok=True)
            digest = hashlib.sha256(a.table.to_csv(index=False, lineterminator="\n").encode()).hexdigest()
            (d / "table.sha256").write_text(digest + "\n")
            _write(a.table.head(300), d / "table-head.csv")
    print(f"recorded {len(list(folder.iterdir()))} cases in {folder}")


def compare(old: Path, new: Path) -> int:
    bad = 0
    for d in sorted(p for p in old.iterdir() if p.is_dir()):
        n = new / d.name
        for f in sorted(d.iterdir()):
            g = n / f.name
            if not g.is_file():
                print(f"missing: {d.name}/{f.name}")
                bad += 1
            elif f.read_bytes() != g.read_bytes():
                print(f"differs: {d.name}/{f.name}")
                bad += 1
        if n.is_dir():
            for g in sorted(n.iterdir()):
                if not (d / g.name).exists():
                    print(f"new: {d.name}/{g.name}")
    print(f"{bad} file(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    cmd, *rest = sys.argv[1:]
    if cmd == "record":
        record(Path(rest[0]))
    elif cmd == "compare":
        sys.exit(compare(Path(rest[0]), Path(rest[1])))
    else:
        sys.exit(__doc__)
