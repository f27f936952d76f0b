"""Writing results: CSV + a sidecar JSON with the options and inputs, atomically and byte-stable.

An allotment ``out/zp-chair-2021.csv`` gets ``out/zp-chair-2021.meta.json`` beside it (body, year, base year,
history years, every option with its value and ambiguity, input files with their SHA-256 (recorded by
the rulebook), assumptions,
counts). Both are written to temporary files first and renamed only when both are complete, so a failure
leaves nothing behind. The same inputs give byte-identical files (no timestamps, sorted keys, '\\n' endings).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import pandas as pd

from . import __version__

__all__ = ["table_csv", "write_allotment", "meta_path", "sha256"]


def sha256(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def table_csv(df: pd.DataFrame) -> str:
    return df.to_csv(index=False, lineterminator="\n")


def meta_path(out: Path) -> Path:
    out = Path(out)
    return out.with_name(out.stem + ".meta.json")


def _atomic_write_all(files: dict[Path, str]) -> None:
    temps = []
    try:
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            temps.append((tmp, path))
        for tmp, path in temps:
            os.replace(tmp, path)
    finally:
        for tmp, _ in temps:
            if os.path.exists(tmp):
                os.unlink(tmp)


def write_allotment(allotment, out) -> tuple[Path, Path]:
    """Write the table CSV and its ``.meta.json``; returns both paths."""
    out = Path(out)
    meta = dict(allotment.meta)
    meta["software"] = f"reservation-workbench {__version__}"
    text = json.dumps(meta, ensure_ascii=False, indent=2, sort_keys=True, default=str) + "\n"
    mp = meta_path(out)
    _atomic_write_all({out: table_csv(allotment.table), mp: text})
    return out, mp
