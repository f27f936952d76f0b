"""Benchmark: wall time and peak memory of the allotments (a script that prints figures, not a test).

    python benchmarks/bench_allot.py

One line per workload: ``workload=NAME rows=N engine_s=X peak_mb=M`` (engine_s = best of 5 in-process runs).
The ``-cli`` line times one whole ``reservation allot`` process (Python start-up and imports included) and,
separately, a process that only imports pandas, to show what the command itself costs.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def best_of(fn, n=5):
    times = []
    result = None
    for _ in range(n):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def wall(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - t0


def main():
    from reservation.rulebooks.panchayat import allot_zp_chair

    allot_zp_chair(2021)  # warm the caches (data tables)
    secs, result = best_of(lambda: allot_zp_chair(2021))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"workload=zp-chair-2021 rows={len(result.table)} engine_s={secs:.3f} peak_mb={peak:.0f}")
    with tempfile.TemporaryDirectory() as tmp:
        cli = min(wall([sys.executable, "-m", "reservation.cli", "allot", "--body", "zp-chair", "--year", "2021",
                        "--out", str(Path(tmp) / "zp.csv")]) for _ in range(3))
    imp = min(wall([sys.executable, "-c", "import pandas"]) for _ in range(3))
    print(f"workload=zp-chair-2021-cli rows={len(result.table)} cli_s={cli:.3f} import_pandas_s={imp:.3f} "
          f"command_minus_imports_s={cli - imp:.3f}")


if __name__ == "__main__":
    main()
