"""Benchmark: NameIndex.resolve_many on 732,000 integer codes (a script that prints figures, not a test).

    python benchmarks/bench_names.py

The ward bodies have up to 732,000 units named by integer codes, and every history, pin or lots file is
resolved through :meth:`reservation.inputs.names.NameIndex.resolve_many`. One line per case::

    case=NAME rows=N codes=dense|sparse input=int64|str|object order=sorted|shuffled names_s=X old_s=Y

- ``names_s``: the median of 7 interleaved repetitions of ``resolve_many`` (index built once beforehand, as
  an allotment does; ``build_s`` is printed once per index);
- ``old_s``: what the unit bodies did before (``pd.to_numeric(errors="coerce")`` + ``np.isin``), measured in
  the same loop; one row in 1,000 is an unknown code, so both must find the -1s;
- dense codes: 732,000 of 0..1,464,000 (real LGD gram panchayat codes are of this kind); sparse: 732,000
  codes spread over 10^9 (the generated ward codes, gram panchayat code x 100 + serial).

The last lines time a lookup by name and the error with suggestions for the districts and the 828 blocks, and
the one-off building of the name tables for 59,019 gram panchayat names.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reservation.inputs.names import NameIndex, district_index  # noqa: E402

N = 732_000
REPS = 7


def old_many(values: pd.Series, known: np.ndarray) -> np.ndarray:
    v = pd.to_numeric(values, errors="coerce").fillna(-1).astype(np.int64).to_numpy()
    return np.where(np.isin(v, known), v, -1)


def interleaved(fns: dict) -> dict:
    times = {k: [] for k in fns}
    for _ in range(REPS):
        for k, f in fns.items():
            t0 = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t0)
    return {k: float(np.median(v)) for k, v in times.items()}


def main() -> None:
    rng = np.random.default_rng(2021)
    for label, codes in (("dense", np.sort(rng.choice(2 * N, N, replace=False))),
                         ("sparse", np.sort(rng.choice(10 ** 9, N, replace=False)))):
        t0 = time.perf_counter()
        index = NameIndex(codes, kind="ward")
        index.resolve_many(codes[:2])
        print(f"case=build codes={label} rows={N} build_s={time.perf_counter() - t0:.4f}")
        for order in ("sorted", "shuffled"):
            q = codes.copy() if order == "sorted" else rng.permutation(codes)
            q[::1000] = q[::1000] + 1 if label == "sparse" else -7   # unknown codes
            if order == "sorted":
                q = np.sort(q)
            inputs = {"int64": pd.Series(q), "str": pd.Series(q.astype(str)),
                      "object": pd.Series(q.astype(str).astype(object), dtype=object)}
            for kind, values in inputs.items():
                got = index.resolve_many(values)
                want = old_many(values, codes)
                assert np.array_equal(got, want), f"{label} {order} {kind}: results differ"
                t = interleaved({"names": lambda: index.resolve_many(values), "old": lambda: old_many(values, codes)})
                print(f"case=resolve_many rows={N} codes={label} input={kind} order={order} "
                      f"names_s={t['names']:.4f} old_s={t['old']:.4f}")
    d = district_index()
    t = interleaved({"name": lambda: d.resolve("मिर्ज़ापुर"), "code": lambda: d.resolve("170")})
    print(f"case=district_resolve name_s={t['name']:.6f} code_s={t['code']:.6f}")

    def unknown():
        try:
            d.resolve("Kanpr")
        except KeyError:
            pass
    print(f"case=district_suggest s={interleaved({'x': unknown})['x']:.4f}")
    b = pd.read_csv(Path(__file__).resolve().parent.parent / "data" / "blocks_census2011.csv")
    blocks = NameIndex(b["block_lgd_code"], b["block_name"], b["sec2015_block_hi"], kind="block",
                       parents=b["district_lgd_code"], parent_index=d)
    t0 = time.perf_counter()
    blocks.resolve("Chinhat, Lucknow")
    print(f"case=block_first_lookup (builds the name tables) s={time.perf_counter() - t0:.4f}")

    def unknown_block():
        try:
            blocks.resolve("Chinht")
        except KeyError:
            pass
    print(f"case=block_suggest s={interleaved({'x': unknown_block})['x']:.4f}")
    gp = 59_019                                   # gram panchayats named in Hindi, as a units file may give them
    names = pd.Series([f"ग्राम {i}" for i in range(gp)])
    t0 = time.perf_counter()
    named = NameIndex(np.arange(gp) + 1000, None, names, kind="gram panchayat")
    named.resolve("ग्राम 17")
    print(f"case=gp_name_tables rows={gp} s={time.perf_counter() - t0:.4f} (built once, on the first lookup by name)")


if __name__ == "__main__":
    main()
