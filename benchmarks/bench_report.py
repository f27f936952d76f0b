"""How long a whole ``reservation report`` takes, where the time goes, and how big it is.

    .venv/bin/python benchmarks/bench_report.py [BODY ...] [--workers N] [--repeat N] [--year Y]

For each body (default: zp-chair) the report for all 18 divisions is written to a temporary folder, once per
repeat, and the script prints: wall time; CPU seconds of this process (validation, allotment, font, index) and of
its children (workers and their kernels); the load average while it ran (other work on the machine stretches the
wall time, not the CPU); per-task phases (notebook, maps, page) as medians; the size of the report by file type.
Goal (issue 13): all 18 divisions under 25 s of wall time on 2 idle cores, the whole zp-chair report under 25 MB.
Figures, not a test: the suite never times anything.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path


def _cpu():
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime


def _sizes(folder: Path) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for p in folder.iterdir():
        if p.is_file():
            out[p.suffix or p.name] += p.stat().st_size
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def run(body: str, year: int, workers: int, plotlyjs: str) -> dict:
    from reservation.report import run_report
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report"
        load0 = os.getloadavg()[0]
        cpu0 = _cpu()
        start = time.perf_counter()
        res = run_report(body, year, "all", out=out, workers=workers, progress=False, plotlyjs=plotlyjs)
        wall = time.perf_counter() - start
        cpu1 = _cpu()
        sizes = _sizes(out)
        phases: dict[str, list] = defaultdict(list)
        for r in res.pages:
            for k, v in getattr(r, "timings", {}).items():
                phases[k].append(v)
        return {"wall": wall, "parent_cpu": cpu1[0] - cpu0[0], "children_cpu": cpu1[1] - cpu0[1],
                "load": (load0, os.getloadavg()[0]), "sizes": sizes, "total": sum(sizes.values()),
                "tasks": len(res.pages), "phases": {k: (statistics.median(v), max(v), sum(v))
                                                    for k, v in phases.items()}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bodies", nargs="*", default=["zp-chair"])
    ap.add_argument("--year", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--plotlyjs", default="directory", choices=["directory", "inline"])
    a = ap.parse_args(argv)
    from reservation.rules.registry import get_rulebook
    print(f"machine: {os.cpu_count()} CPUs; workers {a.workers}; plotly.js {a.plotlyjs}")
    for body in a.bodies:
        year = a.year or max(get_rulebook(body).offered_years)
        for i in range(a.repeat):
            r = run(body, year, a.workers, a.plotlyjs)
            cpu = r["parent_cpu"] + r["children_cpu"]
            print(f"{body} {year} run {i + 1}: wall {r['wall']:.1f} s; CPU {cpu:.1f} s (parent {r['parent_cpu']:.1f}, "
                  f"workers and kernels {r['children_cpu']:.1f}); CPU / 2 cores = {cpu / 2:.1f} s; load average "
                  f"{r['load'][0]:.1f} -> {r['load'][1]:.1f}; {r['tasks']} tasks; {r['total'] / 1e6:.1f} MB")
            for k, (med, mx, tot) in r["phases"].items():
                print(f"    {k:10s} median {med:.2f} s, max {mx:.2f} s, sum {tot:.1f} s")
            print("    sizes: " + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in r["sizes"].items()))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
