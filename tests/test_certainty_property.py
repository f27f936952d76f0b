"""The certainty proof against the engine on random small states with a division rule (issue 20; the division
rule's victims, notes/certain.md).

For each seeded toy State (a few districts in small divisions, high SC shares so that the division rule fires,
some 2015 records missing, the division rule's readings drawn), the answer is computed once with the OBC
figures unknown; then the engine runs again with random OBC figures (every value from 0 to the room left by SC
and ST) and a random category for every missing 2015 record. Every such run's category must lie in the answer's
``possible`` set, and a ``determined`` unit's category must never change. Seeded loops rather than hypothesis so
that the last test can show, deterministically, that this check fails a proof that is too tight."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from reservation.allotment import certainty
from reservation.allotment.pipeline import allot, prepare
from reservation.engine.passes import RuleError
from reservation.law.categories import CODES

warnings.simplefilter("ignore")

STATES = 70          # seeded toy States
RUNS = 12            # engine runs per State (random OBC figures, random missing records)


def toy_state(rng: np.random.Generator):
    """A small State: 4-9 districts in divisions of two or three on average, SC shares of 15-60 %, about a third of the 2015 records
    missing, and the division rule's readings drawn."""
    n = int(rng.integers(4, 10))
    n_div = int(rng.integers(max(1, n // 3), n // 2 + 1))
    rows, hist = [], []
    for i in range(n):
        pop = int(rng.integers(1000, 5000))
        sc = int(rng.integers(pop * 15 // 100, pop * 60 // 100))
        stp = int(rng.integers(0, pop // 25))
        code = 100 + i
        rows.append({"unit_code": code, "unit_name_en": f"D{i}", "unit_name_hi": f"जिला{i}",
                     "division": f"V{int(rng.integers(0, n_div))}", "division_hi": "", "census2011_code": "",
                     "pop_total": pop, "pop_rural": pop, "pop_urban": 0, "sc_total": sc, "sc_rural": sc,
                     "sc_urban": 0, "st_total": stp, "st_rural": stp, "st_urban": 0})
        hist.append({"unit_code": code, "year": 2015, "category": CODES[int(rng.integers(0, len(CODES)))],
                     "source": "generated"})
    units = pd.DataFrame(rows)
    units["district"] = units["unit_name_en"]
    history = pd.DataFrame(hist)
    missing = rng.random(n) < 0.35
    pick = lambda *xs: xs[int(rng.integers(0, len(xs)))]      # noqa: E731
    options = [("category_order", pick("a", "b")), ("category_women", pick("top", "not_women_last")),
               ("saturation_scope", pick("per_category", "all_reserved")),
               ("saturation_effect", pick("unreserved", "barred")),
               ("saturation_population", pick("total", "total", "category")),
               ("tie_break", pick("population", "code"))]
    return units, history, missing, options


def violations(seed: int, runs: int = RUNS) -> list[str]:
    """What the engine does that the answer of the toy State ``seed`` says it cannot (empty: none)."""
    rng = np.random.default_rng(seed)
    units, history, missing, options = toy_state(rng)
    known = history[~missing].reset_index(drop=True)
    try:
        a = allot("zp-chair", 2021, units=units, history=known, options=options)
    except RuleError:
        return []
    possible, status = a.answer.possible, np.asarray(a.answer.status, dtype=object)
    det = status == "determined"
    out = []
    for r in range(runs):
        h = history.copy()
        h.loc[missing, "category"] = [CODES[int(c)] for c in rng.integers(0, len(CODES), int(missing.sum()))]
        try:
            p = prepare("zp-chair", 2021, units=units, history=h, options=options)
            room = p.frame["pop"].to_numpy(dtype=np.int64) - p.frame["sc"].to_numpy(dtype=np.int64) \
                - p.frame["st"].to_numpy(dtype=np.int64)
            obc = (rng.random(len(room)) * (room + 1)).astype(np.int64).clip(0, room)
            got = p.run(obc=obc).engine.category
        except RuleError:
            continue
        for i in np.flatnonzero(((possible >> got) & 1) == 0):
            out.append(f"seed {seed} run {r}: D{i} got {CODES[got[i]]}, outside {a.table['possible'].iat[i]}")
        for i in np.flatnonzero(det & (got != a.engine.category)):
            out.append(f"seed {seed} run {r}: D{i} determined {CODES[a.engine.category[i]]}, got {CODES[got[i]]}")
    return out


@pytest.mark.parametrize("block", range(5))
def test_the_engine_stays_in_possible_and_determined_never_moves(block):
    per = STATES // 5
    bad = [v for seed in range(block * per, (block + 1) * per) for v in violations(seed)]
    assert not bad, bad[:5]


def test_the_check_fails_a_proof_that_frees_no_one(monkeypatch):
    """The check can fail: a division rule that frees no member of a division it could saturate (the proof's
    old over-tight variant) lets determined units move, on these very States."""
    real = certainty._possible_saturation

    def frees_no_one(*args, **kwargs):
        k, victims = real(*args, **kwargs)
        return k, np.zeros_like(victims)

    monkeypatch.setattr(certainty, "_possible_saturation", frees_no_one)
    bad = [v for seed in range(STATES) for v in violations(seed, runs=4)]
    assert bad
