"""The answer's status counts (issue 20: determined / depends_obc / depends_list / partial_figures /
differs_published) for every body the registry offers whose units are built in or shipped, at the year of its
law and the next election, with the shipped inputs and default options. Prints a Markdown table; the figures
of notes/certain.md (before and after the certainty proof's division rule was tightened) come from it.

    python benchmarks/status_counts.py [--bodies zp-chair,kp-chair] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings

import numpy as np

from reservation import allot
from reservation.law.decisions import Status
from reservation.rules.registry import all_rulebooks


def counts(body: str, year: int) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = allot(body, year)
    status = np.asarray(a.answer.status, dtype=object)
    out = {s.value: int((status == s.value).sum()) for s in Status}
    out["units"] = len(status)
    out["lists_missing"] = sorted(int(y) for y, m in a.answer.missing.items() if np.asarray(m).any())
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bodies", default="")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    wanted = [b for b in args.bodies.split(",") if b]
    rows = {}
    cols = [s.value for s in Status]
    print("| body | year | units | " + " | ".join(cols) + " | seconds |")
    print("|---|---|---|" + "---|" * len(cols) + "---|")
    for body, rb in all_rulebooks().items():
        if (wanted and body not in wanted) or rb.units_file == "required":
            continue
        law = rb.years.law[-1]
        for year in (law, law + rb.years.every):
            t = time.process_time()
            try:
                c = counts(body, year)
            except Exception as e:          # a body that needs data beside the repo: say so, go on
                print(f"| {body} | {year} | {type(e).__name__}: {str(e)[:80]} |")
                continue
            rows[f"{body} {year}"] = c
            print(f"| {body} | {year} | {c['units']} | " + " | ".join(str(c[k]) for k in cols)
                  + f" | {time.process_time() - t:.1f} |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
