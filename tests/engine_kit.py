"""A small harness to drive the engine directly in tests: units, one or more passes, words rendered."""
from __future__ import annotations

import numpy as np
import pandas as pd

from reservation.engine.passes import Pass, Settings, run_passes
from reservation.law.ranking import Ratio
from reservation.allotment.render import PassText, render_table, render_trace
from reservation.law.rotation import RotationView

EMPTY_HISTORY = pd.DataFrame({"unit_code": pd.Series([], dtype="int64"), "year": pd.Series([], dtype="int64"),
                              "category": pd.Series([], dtype=str)})


def text(label="share", clause="c", women="cw", rotation="r", saturation="s", eligible="e", why="why"):
    return PassText(key_label=label, clause=clause, clause_women=women, clause_rotation=rotation,
                    clause_saturation=saturation, clause_eligible=eligible, eligible_reason=why)


def one_pass(group, codes, slots, num, den, pop, **kw):
    return Pass(group=group, codes=tuple(codes), slots=np.atleast_2d(np.asarray(slots, dtype=np.int64)),
                key=Ratio(np.asarray(num), None if den is None else np.asarray(den)),
                population=np.asarray(pop, dtype=np.int64),
                history_codes=kw.pop("history_codes", frozenset({group, f"{group}_W"})),
                text=kw.pop("text", text()), **kw)


class Run:
    def __init__(self, codes, passes, parents=None, history=EMPTY_HISTORY, settings=None, pins=None, division=None,
                 year=2021, base_year=2015):
        codes = np.asarray(codes, dtype=np.int64)
        n = len(codes)
        if parents is None:
            par, labels = np.zeros(n, dtype=np.int64), np.array(["*"], dtype=object)
        else:
            labels, par = np.unique(np.asarray(parents, dtype=object), return_inverse=True)
        self.units = pd.DataFrame({"unit_code": codes, "unit_name_en": [f"U{c}" for c in codes],
                                   "unit_name_hi": "", "district": "", "division": "" if division is None else division})
        self.result = run_passes(codes, par, labels, passes, RotationView(history, year, base_year),
                                 settings or Settings(), pins, None if division is None else np.asarray(division,
                                                                                                           dtype=object))

    @property
    def categories(self):
        return list(self.result.category_codes())

    def table(self):
        return render_table(self.result, self.units, "ur")

    def trace(self, code=None):
        only = None if code is None else np.flatnonzero(self.result.codes == code)
        return render_trace(self.result, self.units, "ur", only=only)
