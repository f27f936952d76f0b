"""Gram pradhans and ward members: hand-checked counts, a toy block, the real 2015 list at state scale."""
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from conftest import FIXTURES, shared_file
from reservation.cli.commands import main
from reservation.law.quota import QuotaRules, counts_by_parent
import reservation

OBC = Fraction(5333, 10000)


def counts(posts, sc, rules=QuotaRules()):
    n = len(posts)
    c = counts_by_parent(np.array(posts), np.array(sc), np.array(posts), np.zeros(n, int), np.ones(n, int),
                         np.full(n, OBC.numerator), np.full(n, OBC.denominator), rules)
    return pd.DataFrame({k: c[k] for k in ("SC_W", "SC", "OBC_W", "OBC", "W", "UR")})


def test_lucknow_2021_pradhan_splits_follow_from_their_sc_totals():
    # docs/panchayat.md (published per-block splits). SC totals are taken from the list itself (SC share = SC/GPs);
    # the OBC cap, the women per category and in all, and the unreserved remainder must come out as published.
    got = counts([94, 67, 67, 47], [21, 16, 17, 12])
    published = [[7, 14, 9, 16, 16, 32], [6, 10, 6, 12, 11, 22], [6, 11, 6, 12, 11, 21], [4, 8, 4, 8, 8, 15]]
    assert got.to_numpy().tolist() == published


def test_chinhat_18_fits_a_half_up_cap_and_floor_would_not():
    # docs/panchayat.md: SC-W 2, SC 4, OBC-W 2, OBC 3, W 2, UR 5 of 18 (27 % x 18 = 4.86).
    assert counts([18], [6], QuotaRules(obc_cap_rounding="half_up")).to_numpy().tolist() == [[2, 4, 2, 3, 2, 5]]
    assert counts([18], [6]).to_numpy().tolist() != [[2, 4, 2, 3, 2, 5]]


def test_toy_block_of_six_gram_panchayats():
    u = FIXTURES / "units"
    a = reservation.allot("gp-pradhan", 2021, units=u / "pradhan_toy.csv", history=[u / "pradhan_toy_2015.csv"])
    got = dict(zip(a.table["unit_name_en"], a.table["category"]))
    assert got == {"GP One": "OBC_W", "GP Two": "SC_W", "GP Three": "SC", "GP Four": "UR", "GP Five": "UR",
                   "GP Six": "UR"}
    assert "block" in a.table.columns and set(a.table["block"]) == {"B1"}


def test_cli_allot_and_counts_for_gp_pradhan(tmp_path, capsys):
    u = FIXTURES / "units"
    out = tmp_path / "p.csv"
    assert main(["allot", "--body", "gp-pradhan", "--year", "2021", "--units", str(u / "pradhan_toy.csv"),
                 "--history", str(u / "pradhan_toy_2015.csv"), "--out", str(out)]) == 0
    assert len(pd.read_csv(out)) == 6
    assert main(["counts", "--body", "gp-pradhan", "--year", "2021", "--units", str(u / "pradhan_toy.csv")]) == 0
    assert "SC_W,1" in capsys.readouterr().out
    assert main(["counts", "--body", "gp-ward", "--year", "2021"]) == 2     # gp-pradhan has shipped units


@pytest.mark.parametrize("text, problem", [
    ("unit,parent,pop,sc\n1,B,10,1\n", "'st'"),
    ("unit,parent,pop,sc,st\n1,B,10,1,0\n1,B,10,1,0\n", "duplicate"),
    ("unit,parent,pop,sc,st\n1,B,0,0,0\n", "at least 1"),
    ("unit,parent,pop,sc,st\n1,B,10,8,5\n", "exceeds"),
    ("unit,parent,pop,sc,st\nx1,B,10,1,0\n", "not a whole number"),
])
def test_bad_units_file_exits_2_with_row_and_column(tmp_path, capsys, text, problem):
    p = tmp_path / "u.csv"
    p.write_text(text, encoding="utf-8")
    assert main(["allot", "--body", "gp-ward", "--year", "2021", "--units", str(p), "--out",
                 str(tmp_path / "o" / "x.csv")]) == 2
    err = capsys.readouterr().err.strip()
    assert problem in err and "u.csv" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "o").exists()


@pytest.fixture(scope="module")
def state_gps(shared_data):
    from reservation.rules.synthetic import gram_panchayats_2015
    return gram_panchayats_2015(shared_file(shared_data, "history", "gp_pradhan_2015.csv.gz"))


def test_real_2015_list_of_59019_gram_panchayats_with_generated_populations(state_gps, tmp_path):
    units, history = state_gps
    assert len(units) == 59019 and units["unit"].is_unique
    hp = tmp_path / "h.csv"
    history.to_csv(hp, index=False)
    up = tmp_path / "u.csv"
    units.drop(columns=["name_hi"]).to_csv(up, index=False)
    a = reservation.allot("gp-pradhan", 2021, units=up, history=[hp])
    t = a.table
    assert len(t) == 59019 and t["unit_code"].is_unique
    want = a.extra["parents"].set_index("parent")
    got = t.groupby(["block", "category"]).size().unstack(fill_value=0)
    for code in ("ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC", "W", "UR"):
        assert (got.reindex(want.index, fill_value=0).get(code, 0) == want[code]).all()
    # rotation against the real 2015 list: a GP repeats its 2015 group only when no other eligible GP was left
    e = a.engine
    block = a.units["block"].to_numpy()
    for rec in e.records:
        chosen = np.zeros(len(block), dtype=bool)
        chosen[rec.chosen] = True
        ranked = np.zeros(len(block), dtype=bool)
        ranked[rec.active] = True
        repeated = (rec.tier == 3) & chosen
        if repeated.any():
            blocks_rep = set(block[repeated])
            waiting = (rec.tier < 3) & ranked & ~chosen & rec.eligible
            blocks_wait = set(block[waiting])
            assert not (blocks_rep & blocks_wait), rec.spec.name
