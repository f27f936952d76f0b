"""Benchmark: wall time and peak memory of the allotments (a script that prints figures, not a test).

    python benchmarks/bench_allot.py            # every workload, each in its own process

One line per workload::

    workload=NAME rows=N engine_s=X floor_s=Y ratio=R peak_mb=M render_s=Z

- ``engine_s``: best of 3 in-process runs of the allotment with the units and history already loaded (counts
  per parent, every category pass, rotation, women): the decisions.
- ``floor_s``: best of 3 of one pandas ``sort_values`` + ``groupby().cumcount()`` over the same table (sort the
  units by parent and SC share, number them inside each parent): what one ranking pass costs at the least.
- ``ratio`` = engine_s / floor_s (goal: within 3 at 732,000 rows). ``peak_mb``: peak resident memory of the
  workload's process, which reads the units and history CSVs, runs the engine and renders the words once
  (goal: under 1 GB); the peak right after the engine runs is printed on the line before. ``render_s``: one rendering of the reasons and clauses in words
  (done only when a table is written or shown).
- The gram panchayat workloads need ../shared/data (the real 2015 list); their populations are GENERATED to
  match the real block totals (reservation/synthetic.py).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("RESERVATION_SHARED", ROOT.parent / "shared"))
WORKLOADS = ["zp-chair", "kp-chair", "urban-chairs", "gp-pradhan", "gp-ward-732k"]


def peak_mb() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss it does not inherit the parent's peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def best(fn, n=3):
    out, times = None, []
    for _ in range(n):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def floor_time(units):
    import pandas as pd
    df = pd.DataFrame({"parent": units["parent"].to_numpy(), "share": units["sc"].to_numpy() / units["pop"].to_numpy()})

    def once():
        s = df.sort_values(["parent", "share"], ascending=[True, False])
        return s.groupby("parent", sort=False).cumcount()
    return best(once)[0]


def run_one(name):
    import pandas as pd
    if name == "zp-chair":
        from reservation.rulebooks.panchayat import allot_zp_chair
        from reservation.units import load_districts
        allot_zp_chair(2021)
        secs, a = best(lambda: allot_zp_chair(2021))
        d = load_districts()
        units = pd.DataFrame({"parent": "UP", "sc": d["sc_rural"], "pop": d["pop_rural"]})
    elif name == "urban-chairs":
        # all urban chairs: Palika Parishads + Nagar Panchayats + Mayors (the target: under 0.5 s)
        from reservation.rulebooks.municipal import allot_urban, load_bodies
        kinds = ("pp-chair", "np-chair", "mayor")
        bodies = {k: load_bodies(k)[0] for k in kinds}
        for k in kinds:
            allot_urban(k, 2023, bodies=bodies[k].copy())

        def all_three():
            return [allot_urban(k, 2023, bodies=bodies[k].copy()) for k in kinds]
        secs, results = best(all_three)
        a = results[0]
        units = pd.concat([pd.DataFrame({"parent": b["division"], "sc": b["sc"], "pop": b["pop"].clip(lower=1)})
                           for b in bodies.values()])
    elif name == "kp-chair":
        from reservation.rulebooks.kp_chair import allot_kp_chair, load_blocks
        allot_kp_chair(2021)
        secs, a = best(lambda: allot_kp_chair(2021))
        b, _ = load_blocks(2021)
        units = pd.DataFrame({"parent": b["district"], "sc": b["sc"], "pop": b["pop"]})
    else:
        from reservation.inputs import load_history
        from reservation.rulebooks.panchayat_units import allot_units, load_units
        units_csv, hist_path = Path(sys.argv[3]), Path(sys.argv[4])
        t0 = time.perf_counter()
        units = load_units(units_csv)
        known = set(units["unit_code"].tolist())
        h = load_history([hist_path], lambda v: int(v) if int(v) in known else (_ for _ in ()).throw(KeyError(v)))
        load = time.perf_counter() - t0
        body = "gp-ward" if name.startswith("gp-ward") else "gp-pradhan"
        secs, a = best(lambda: allot_units(body, 2021, units=units, history=h))
        peak_engine = peak_mb()
        print(f"  ({name}: loading the units and history files took {load:.2f} s; peak after the engine runs "
              f"{peak_engine:.0f} MB)", flush=True)
    t0 = time.perf_counter()
    _ = a.table
    render = time.perf_counter() - t0
    fl = floor_time(units)
    print(f"workload={name} rows={len(units)} engine_s={secs:.3f} floor_s={fl:.3f} ratio={secs / fl:.1f} "
          f"peak_mb={peak_mb():.0f} render_s={render:.3f}", flush=True)


def generate(tmp: Path) -> dict[str, list[str]]:
    """Write the generated gram panchayat and ward tables once; the measured processes only read them."""
    hist_csv = SHARED / "data" / "history" / "gp_pradhan_2015.csv.gz"
    if not hist_csv.is_file():
        return {}
    from reservation.synthetic import gram_panchayats_2015, wards_for
    gps, history = gram_panchayats_2015(hist_csv)
    wards, whist = wards_for(gps, target=732_000)
    out = {}
    for name, (u, h) in {"gp-pradhan": (gps, history), "gp-ward-732k": (wards, whist)}.items():
        up, hp = tmp / f"{name}-units.csv", tmp / f"{name}-history.csv"
        u.drop(columns=[c for c in ("name_hi", "district") if c in u]).to_csv(up, index=False)
        h.to_csv(hp, index=False)
        out[name] = [str(up), str(hp)]
    return out


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        run_one(sys.argv[2])
        return
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        files = generate(Path(tmp))
        for w in sys.argv[1:] or WORKLOADS:
            if w.startswith("gp-") and w not in files:
                print(f"workload={w} skipped: {SHARED / 'data' / 'history'} is absent (set RESERVATION_SHARED)")
                continue
            subprocess.run([sys.executable, __file__, "--one", w, *files.get(w, [])], check=True)
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "reservation.cli", "allot", "--body", "zp-chair", "--year", "2021",
                        "--out", str(Path(tmp) / "zp.csv")], check=True, capture_output=True, cwd=ROOT)
        cli = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import pandas"], check=True)
    imp = time.perf_counter() - t0
    print(f"workload=zp-chair-cli cli_s={cli:.3f} import_pandas_s={imp:.3f} (a whole `reservation allot` process)")


if __name__ == "__main__":
    main()
