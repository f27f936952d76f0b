"""tie_break=assumed_by_code (A14) on random small states: only the passes whose key is a stand-in (OBC at the
State share, no OBC figures) change their tie rule, to the code; every other pass breaks ties as 'population'."""
import pandas as pd
from hypothesis import HealthCheck, given, reject, settings

import reservation
from reservation.engine.passes import RuleError
from test_properties import states

GROUP = {"ST_W": "ST", "ST": "ST", "SC_W": "SC", "SC": "SC", "OBC_W": "OBC", "OBC": "OBC", "W": "W", "UR": "UR"}


def _allot(state, rule):
    """Under category order b (each group in one pass: ST, SC, OBC, women), so that every pass before the OBC
    pass has a public key (order a puts OBC women before SC)."""
    d, h, options = state
    options = [o for o in options if o[0] not in ("tie_break", "category_order")] + [("tie_break", rule),
                                                                                  ("category_order", "b")]
    try:
        return reservation.allot("zp-chair", 2021, units=d, history=h, options=options).table.set_index("unit_code")
    except RuleError:
        reject()


def _codes(t: pd.DataFrame, *groups) -> pd.Series:
    return t["category"][t["category"].map(GROUP).isin(groups)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(states())
def test_only_the_stand_in_obc_pass_breaks_its_ties_by_code(state):
    new, pop, code = (_allot(state, r) for r in ("assumed_by_code", "population", "code"))
    # the passes before OBC have public keys: as 'population'
    assert _codes(new, "ST", "SC").equals(_codes(pop, "ST", "SC"))
    # where 'code' gives the same SC and ST units, the OBC pass (every share equal) is 'code''s: within each tier
    # the lower codes first, whatever the populations
    if _codes(code, "ST", "SC").equals(_codes(pop, "ST", "SC")):
        assert _codes(new, "OBC").equals(_codes(code, "OBC"))
    words = new.loc[new["category"].isin(["OBC_W", "OBC"]), "tie_break"]
    assert not words.str.contains("larger population").any()
