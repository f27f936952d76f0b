"""Golden instances (tests/golden/BODY/CASE/): inputs and the allotment worked out by hand, as data files."""
import json
from pathlib import Path

import pandas as pd
import pytest

import reservation

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.parent for p in GOLDEN.glob("*/*/case.json"))


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.name}" for c in CASES])
def test_golden_instance(case):
    spec = json.loads((case / "case.json").read_text(encoding="utf-8"))
    options = [o if "=" not in o or not o.split("=", 1)[1].endswith(".csv") else
               f"{o.split('=', 1)[0]}={case / o.split('=', 1)[1]}" for o in spec["options"]]
    a = reservation.allot(spec["body"], spec["year"], units=case / "units.csv",
                          history=[case / h for h in spec["history"]], options=options)
    want = pd.read_csv(case / "expected.csv", dtype=str)
    got = {}
    for unit, cat in zip(want["unit"], want["category"]):
        code = a.resolve(unit)
        got[unit] = a.table.set_index("unit_code").at[code, "category"]
    wrong = {u: (c, got[u]) for u, c in zip(want["unit"], want["category"]) if got[u] != c}
    assert not wrong, f"{case.name}: expected vs computed {wrong}; {spec['why']}"
    assert len(want) == len(a.table), "every unit of the case has an expected category"


def test_every_registered_body_has_a_golden_case_or_a_published_check():
    bodies = {p.parent.parent.name for p in GOLDEN.glob("*/*/case.json")}
    assert {"zp-chair", "pp-chair", "gp-pradhan"} <= bodies
