"""Projection of the next election (issue 11): reservation.projection.project, reservation.projection.priors, reservation.projection.orders
and ``reservation project``.

**The hand-checked case: a six-district toy state** (``SIX`` below). Every district has 1,000,000 people (all rural),
no SC and no ST, so every district's OBC share has the same prior (the Beta around 53.33 %, untruncated) and the
prior is exchangeable: conditioned on order relations, every order of the districts that respects them is equally
likely (the OBC figures are whole persons out of a million: ties have probability ~1e-5, negligible here).
Divisions East (Alpha, Beta, Gamma) and West (Delta, Epsilon, Zeta); a division can never be wholly reserved for
one group (one post each), so the division rule never fires.

Counts for 6 offices: SC 0 (no SC), OBC min(half-up(6 x 53.33 %) = 3, floor(27 % x 6 = 1.62) = 1) = 1 (OBC_W, since
ceil(1/3) = 1), women ceil(6/3) = 2 of which 1 OBC_W, so W 1; UR 4. The OBC pass takes the highest OBC share among the
districts of the best rotation tier; the women's pass the most people outside SC/ST/OBC, i.e. the *lowest* OBC share
(equal populations).

History: 2015 Alpha OBC_W, Gamma W (the rest UR); the published 2021 list: Gamma OBC_W, Delta W (the rest UR).
Recomputing 2021 from 2015 (base year 2015): OBC tier 1 = Beta..Zeta (Alpha held OBC in 2015), so Gamma OBC_W says
**Gamma > Beta, Delta, Epsilon, Zeta** (OBC shares); the women's pass leaves out Gamma, tier 1 = Alpha, Beta, Delta,
Epsilon, Zeta (Gamma held W in 2015), so Delta W says **Delta < Alpha, Beta, Epsilon, Zeta**. Delta is the lowest of
all six and Gamma is above Beta, Epsilon, Zeta; Alpha is only above Delta.

2026 (history 2015 + 2021): OBC tier 1 = Beta, Delta, Epsilon, Zeta (Gamma held OBC in 2021, tier 3; Alpha in 2015,
tier 2). Delta is below the other three, and Beta, Epsilon, Zeta are interchangeable: **3 equally likely outcomes,
OBC_W = Beta, Epsilon or Zeta with probability 1/3 each**, Delta never. Women: tier 1 = Alpha, Beta, Epsilon, Zeta
(Delta held W in 2021: tier 3; Gamma in 2015: tier 2) minus the OBC district: the lowest OBC share of the three left.
Count the orders (Delta at the bottom; Gamma above Beta, Epsilon, Zeta; Alpha anywhere above Delta): the 3! orders of
Beta, Epsilon, Zeta with Gamma above them, and Alpha in one of 5 places: 30 equally likely orders. Given OBC = Beta
(10 orders), Alpha is the lowest of Alpha, Epsilon, Zeta in 2 (the place just above Delta, for either order of
Epsilon and Zeta): P(W = Alpha) = 1/5 whatever the OBC district; the other 4/5 go to the lower of the two others,
and by symmetry **P(W) = 4/15 for each of Beta, Epsilon, Zeta**. So:

| district | OBC_W | W | UR | certain |
|---|---|---|---|---|
| Alpha | 0 | 1/5 | 4/5 | no |
| Beta, Epsilon, Zeta | 1/3 | 4/15 | 2/5 | no |
| Gamma | 0 | 0 | 1 | **yes** (proved: OBC tier 3 behind 4 tier-1 districts; W tier 2 behind Alpha, surely in tier 1) |
| Delta | 0 | 0 | 1 | no proof (the proof ignores the 2021 list), but every sample agrees |

Sums: OBC_W 1, W 1/5 + 3 x 4/15 = 1, UR 4/5 + 3 x 2/5 + 1 + 1 = 4: the counts. Without the constraint
(``constraint=none``) the 2021 list is rotation history only and each of Beta, Delta, Epsilon, Zeta is OBC_W with
probability 1/4.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import run_cli
from reservation.law.categories import CODES
from reservation.engine.passes import RuleError
from reservation.base.errors import InputError
from reservation.allotment.pipeline import allot, prepare
from reservation.projection.priors import ConstrainedSampler, ObcPrior
from reservation.projection.project import PROB_COLUMNS, TABLE_COLUMNS, Projection, _history_table, _past_list, project, score

ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = ROOT / "data" / "published"
HEADER = ("district_lgd_code,district_en,district_hi,division_en,division_hi,census2011_district_code,tot_p,"
          "tot_p_rural,tot_p_urban,sc,sc_rural,sc_urban,st,st_rural,st_urban")
SIX = [(1, "Alpha", "East"), (2, "Beta", "East"), (3, "Gamma", "East"), (4, "Delta", "West"), (5, "Epsilon", "West"),
       (6, "Zeta", "West")]
SIX_HISTORY = """unit,year,category
Alpha,2015,OBC_W
Gamma,2015,W
Beta,2015,UR
Delta,2015,UR
Epsilon,2015,UR
Zeta,2015,UR
Gamma,2021,OBC_W
Delta,2021,W
Alpha,2021,UR
Beta,2021,UR
Epsilon,2021,UR
Zeta,2021,UR
"""


def _districts(rows, pops=None) -> str:
    lines = [HEADER]
    for code, name, div in rows:
        p = (pops or {}).get(name, 1_000_000)
        lines.append(f"{code},{name},,{div},,,{p},{p},0,0,0,0,0,0,0")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def six(tmp_path_factory):
    d = tmp_path_factory.mktemp("six")
    (d / "six.csv").write_text(_districts(SIX), encoding="utf-8")
    (d / "hist.csv").write_text(SIX_HISTORY, encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def six_projection(six):
    return project("zp-chair", 2026, units=six / "six.csv", history=six / "hist.csv", samples=700, seed=11,
                   check_every=2, keep_samples=True, progress=False)


def _row(p: Projection, name: str) -> dict:
    t = p.table.set_index("unit_name_en")
    return {c: float(t.at[name, f"P_{c}"]) for c in CODES} | {"certain": bool(t.at[name, "certain"])}


def test_six_counts_and_2021_list_are_what_the_docstring_says(six):
    a = allot("zp-chair", 2021, units=six / "six.csv", history=six / "hist.csv")
    assert dict(zip(a.counts["category"], a.counts["count"]))["OBC_W"] == 1
    assert a.meta["counts"] == {"ST_W": 0, "ST": 0, "SC_W": 0, "SC": 0, "OBC_W": 1, "OBC": 0, "W": 1, "UR": 4}


def test_six_hand_checked_probabilities(six_projection):
    p = six_projection
    tol = 0.07                                        # 700 samples: 4 standard deviations of 1/3 is 0.071
    for name in ("Beta", "Epsilon", "Zeta"):
        r = _row(p, name)
        assert r["OBC_W"] == pytest.approx(1 / 3, abs=tol)
        assert r["W"] == pytest.approx(4 / 15, abs=tol)
        assert r["UR"] == pytest.approx(2 / 5, abs=tol)
    a = _row(p, "Alpha")
    assert a["OBC_W"] == 0 and a["W"] == pytest.approx(1 / 5, abs=tol)
    assert _row(p, "Gamma")["UR"] == 1 and _row(p, "Delta")["UR"] == 1
    assert p.table["most_likely"].tolist() == ["UR"] * 6


def test_six_certain_units(six_projection):
    p = six_projection
    assert p.table.loc[p.table["certain"], "unit_name_en"].tolist() == ["Gamma"]
    assert p.meta["projection"]["all_samples_agree_not_proved"] == ["Delta"]
    assert p.meta["projection"]["certain_units"] == 1


def test_six_every_sample_reproduces_the_2021_list(six, six_projection):
    """Each sample's OBC figures, given to the ordinary pipeline (``allot`` with a population table), recompute the
    published 2021 list exactly; and they all differ (the samples are not one point repeated)."""
    p = six_projection
    published = pd.read_csv(six / "hist.csv")
    want = dict(zip(published[published["year"] == 2021]["unit"], published[published["year"] == 2021]["category"]))
    names = p.units["unit_name_en"].tolist()
    for obc in p.obc[::60]:
        pop = pd.DataFrame({"unit_code": p.units["unit_code"], "obc": obc, "_row": range(2, 8)})
        got = allot("zp-chair", 2021, units=six / "six.csv", history=six / "hist.csv", population=pop).categories
        assert dict(zip(names, got.to_numpy())) == want
    assert len({tuple(x) for x in p.obc}) == len(p.obc)
    assert "350 samples recomputed each past list with the engine" in p.meta["projection"]["sampler"]


def test_six_without_the_constraint(six):
    p = project("zp-chair", 2026, units=six / "six.csv", history=six / "hist.csv", samples=500, seed=3,
                constraint="none", progress=False)
    for name in ("Beta", "Delta", "Epsilon", "Zeta"):
        assert _row(p, name)["OBC_W"] == pytest.approx(1 / 4, abs=0.07)
    assert p.meta["projection"]["sampler"] == "independent draws from the prior"
    assert p.meta["projection"]["constraint_years"] == []


def test_sums_equal_counts(six_projection):
    p = six_projection
    counts = p.meta["counts"]
    for j, c in enumerate(CODES):
        assert sum(Fraction(int(k), p.samples) for k in p.tallies[:, j]) == counts[c]
        assert p.table[f"P_{c}"].sum() == pytest.approx(counts[c], abs=1e-9)
    assert (p.tallies.sum(axis=1) == p.samples).all()
    assert list(p.table.columns) == TABLE_COLUMNS


def test_deterministic_for_a_seed(six):
    kw = dict(units=six / "six.csv", history=six / "hist.csv", samples=40, progress=False)
    a = project("zp-chair", 2026, seed=5, **kw)
    b = project("zp-chair", 2026, seed=5, **kw)
    c = project("zp-chair", 2026, seed=6, **kw)
    assert a.table.equals(b.table) and (a.tallies == b.tallies).all()
    assert not (a.tallies == c.tallies).all()


@pytest.mark.parametrize("body", ["zp-chair", "kp-chair"])
def test_samples_run_in_forked_processes_give_the_same_projection(body):
    """``jobs=2`` (what a report uses): the engine runs on the samples in two forked processes, batches of
    draws made here in order; every sample, tally and word is the serial run's (the real 2026 lists: past lists
    constrain zp-chair, none constrains kp-chair; 60 samples: batches of 25 and a short last one)."""
    kw = dict(samples=60, seed=11, progress=False, keep_samples=True)
    a = project(body, 2026, jobs=1, **kw)
    b = project(body, 2026, jobs=2, **kw)
    assert (a.categories == b.categories).all() and (a.obc == b.obc).all() and (a.tallies == b.tallies).all()
    assert a.table.equals(b.table) and a.meta == b.meta
    assert len(set(map(bytes, a.categories))) > 1          # the samples differ: the check compares something


# -- the constraint is exactly "the engine reproduces the list" ------------------------------------------------

def _sampler_and_past(body, year, **kw):
    target = prepare(body, year, **kw)
    k = dict(units=kw.get("units"), history=_history_table(target), population=None, options=target.opts,
             base_year=target.base)
    pc, past = _past_list(k, target, year - 5, [])
    f = target.frame
    pop = f["pop"].to_numpy(dtype=np.int64)
    room = pop - f["sc"].to_numpy(dtype=np.int64) - f["st"].to_numpy(dtype=np.int64)
    prior = ObcPrior(Fraction(5333, 10000), Fraction(75, 1000))
    return pc, past, ConstrainedSampler(prior, pop, room, past.constraints, past.alternatives), prior, pop, room


def _iff(pc, past, sampler, prior, pop, room, rng, n):
    """Admissible points and their neighbours (one or two units redrawn from the prior): the sampler's exact check
    says admissible exactly when the engine recomputes the published list."""
    x = sampler.greatest()
    for _ in range(30):
        x = sampler.sweep(x, rng)
    seen = {True: 0, False: 0}
    for _ in range(n):
        x = sampler.sweep(x, rng)
        y = x.copy()
        j = rng.choice(len(y), size=int(rng.integers(1, 3)), replace=False)
        y[j] = prior.sample_persons(rng, pop[j], room[j])
        engine = bool(np.array_equal(pc.run(y).engine.category, past.published))
        assert sampler.satisfied(y) == engine
        seen[engine] += 1
    return seen


def test_constraint_is_exact_on_the_toy(six):
    pc, past, sampler, prior, pop, room = _sampler_and_past("zp-chair", 2026, units=six / "six.csv",
                                                            history=six / "hist.csv")
    seen = _iff(pc, past, sampler, prior, pop, room, np.random.default_rng(1), 120)
    assert seen[True] > 10 and seen[False] > 10


def zp_history() -> pd.DataFrame:
    """The 2015 zp-chair history and the final 2021 list (as shipped in data/published)."""
    h = pd.read_csv(ROOT / "data" / "history" / "zp-chair.csv", dtype={"unit": int})
    h15 = h[h["year"] == 2015]
    fin = pd.read_csv(PUBLISHED / "zp_adhyaksh_2021_final.csv")
    return pd.DataFrame({"unit_code": np.r_[h15["unit"].to_numpy(), fin["district_lgd_code"].to_numpy()],
                         "year": np.r_[h15["year"].to_numpy(), np.full(len(fin), 2021)],
                         "category": np.r_[h15["category"].to_numpy(), fin["category"].to_numpy()]})


def test_constraint_is_exact_on_the_2021_zp_list():
    pc, past, sampler, prior, pop, room = _sampler_and_past("zp-chair", 2026, history=zp_history())
    seen = _iff(pc, past, sampler, prior, pop, room, np.random.default_rng(2), 40)
    assert seen[True] > 3 and seen[False] > 3


# -- the division rule's second way ------------------------------------------------------------------------------

EIGHT = [(1, "P", "North"), (2, "Q", "North"), (3, "R", "South"), (4, "S", "West"), (5, "T", "East"),
         (6, "U", "Centre"), (7, "V", "Hills"), (8, "X", "Plains")]
EIGHT_HISTORY = "unit,year,category\n" + "".join(f"{n},2015,UR\n" for _, n, _ in EIGHT) + (
    "P,2021,OBC_W\nR,2021,OBC\nS,2021,W\nT,2021,W\nQ,2021,UR\nU,2021,UR\nV,2021,UR\nX,2021,UR\n")


def test_second_way_of_the_division_rule(tmp_path):
    """Eight districts, P and Q alone in North (Q the less populous); 2021: P OBC_W, R OBC. The list arises either
    with Q's OBC share below R's (the plain way) or above it: then North would be wholly OBC, the rule frees Q (the
    least populous) and R, next, takes the post. Both ways are sampled, and every sample reproduces the list."""
    (tmp_path / "eight.csv").write_text(_districts(EIGHT, {"Q": 900_000}), encoding="utf-8")
    (tmp_path / "h.csv").write_text(EIGHT_HISTORY, encoding="utf-8")
    kw = dict(units=tmp_path / "eight.csv", history=tmp_path / "h.csv")
    p = project("zp-chair", 2026, samples=150, seed=4, check_every=1, keep_samples=True, progress=False, **kw)
    assert any("could have freed Q (North)" in a for a in p.meta["projection"]["second_ways"])
    assert "Metropolis acceptance" in p.meta["projection"]["sampler"]
    pop = p.units["pop"].to_numpy()
    share = p.obc / pop
    q, r = share[:, 1], share[:, 2]
    assert (q > r).mean() > 0.1 and (q < r).mean() > 0.1
    pc, past, sampler, prior, popa, room = _sampler_and_past("zp-chair", 2026, **kw)
    seen = _iff(pc, past, sampler, prior, popa, room, np.random.default_rng(3), 80)
    assert seen[True] > 5 and seen[False] > 5


# -- the real 2026 projection ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def zp2026():
    return project("zp-chair", 2026, history=zp_history(), samples=60, seed=1, check_every=1, progress=False)


def test_zp_2026_sums_certain_and_meta(zp2026):
    p = zp2026
    for c in CODES:
        assert p.table[f"P_{c}"].sum() == pytest.approx(p.meta["counts"][c], abs=1e-9)
    sure = p.table[p.table["certain"]]
    assert (sure[PROB_COLUMNS].max(axis=1) == 1).all()
    assert set(sure["most_likely"]) >= {"SC", "SC_W"}
    assert (sure["most_likely"].isin(["SC", "SC_W"])).sum() == 16      # the SC pass reads no OBC figure
    pm = p.meta["projection"]
    assert pm["constraint_years"] == [2021] and pm["obc_sd"] == "7.5"
    assert "Beta" in pm["prior"] and "53.33" in pm["prior"]
    assert any("sampled" in a for a in p.meta["assumptions"])


def test_score_hand_checked():
    t = pd.DataFrame({"unit_code": [1, 2], "most_likely": ["SC", "UR"]})
    tallies = np.zeros((2, 8), dtype=np.int64)
    tallies[0, CODES.index("SC")] = 3
    tallies[0, CODES.index("UR")] = 1
    tallies[1, CODES.index("UR")] = 4
    p = Projection("zp-chair", 2026, t, tallies, {"samples": 4}, t, np.zeros(2, dtype=bool))
    s = score(p, {1: "UR", 2: "UR"})
    # unit 1: (3/4)^2 + (1/4 - 1)^2 = 9/16 + 9/16 = 9/8; unit 2: 0. Mean 9/16. Right: unit 2 only.
    assert s["brier"] == Fraction(9, 16) and s["accuracy"] == Fraction(1, 2)


# -- the prior ---------------------------------------------------------------------------------------------------

def test_prior_mean_spread_and_truncation():
    prior = ObcPrior(Fraction(5333, 10000), Fraction(75, 1000))
    rng = np.random.default_rng(0)
    pop = np.full(40000, 1_000_000)
    x = prior.sample_persons(rng, pop, pop) / pop
    assert x.mean() == pytest.approx(0.5333, abs=0.002) and x.std() == pytest.approx(0.075, abs=0.002)
    lo, hi = np.full(40000, 500_000), np.full(40000, 520_000)
    y = prior.sample_persons(rng, pop, pop, lo, hi)
    assert y.min() >= 500_000 and y.max() <= 520_000
    room = np.full(40000, 400_000)
    assert prior.sample_persons(rng, pop, room).max() <= 400_000
    with pytest.raises(InputError):
        ObcPrior(Fraction(5333, 10000), Fraction(0))
    with pytest.raises(InputError):
        ObcPrior(Fraction(5333, 10000), Fraction(40, 100))


def test_bad_arguments():
    with pytest.raises(InputError):
        project("zp-chair", 2026, samples=0)
    with pytest.raises(InputError):
        project("zp-chair", 2026, obc_sd="wide")
    with pytest.raises(InputError):
        project("zp-chair", 2026, constraint="some")
    for jobs in (0, 65, True, "2"):
        with pytest.raises(InputError, match="jobs"):
            project("zp-chair", 2026, jobs=jobs)


def test_impossible_past_list_is_a_rule_error(tmp_path, six):
    """A 2021 list that gives OBC to Alpha (tier 3: OBC in 2015) while four tier-1 districts were passed over
    cannot come from the rules for any OBC figures."""
    bad = SIX_HISTORY.replace("Gamma,2021,OBC_W", "Gamma,2021,UR").replace("Alpha,2021,UR", "Alpha,2021,OBC_W")
    (tmp_path / "bad.csv").write_text(bad, encoding="utf-8")
    with pytest.raises(RuleError, match="cannot come from the rules"):
        project("zp-chair", 2026, units=six / "six.csv", history=tmp_path / "bad.csv", samples=5, progress=False)
    p = project("zp-chair", 2026, units=six / "six.csv", history=tmp_path / "bad.csv", samples=5,
                constraint="none", progress=False)
    assert len(p.table) == 6


# -- the command line --------------------------------------------------------------------------------------------

def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "reservation.cli", "project", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd)


class _Ran:
    """The command's result in the shape of a finished process (what these tests read of it)."""

    def __init__(self, result):
        self.returncode, self.stdout, self.stderr = result


def _in_process(*args):
    """``reservation project ARGS`` run in this process (tests/conftest.py run_cli): the same command without the
    interpreter's start and imports. The exit statuses and the second run of the same output are real processes."""
    return _Ran(run_cli(["project", *args]))


def test_cli_csv_json_and_out(six, tmp_path):
    base = ["--body", "zp-chair", "--year", "2026", "--units", six / "six.csv", "--history", six / "hist.csv",
            "--samples", "20", "--seed", "2", "--burn-in", "20", "--thin", "1"]
    r = _in_process(*base)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == ",".join(TABLE_COLUMNS)
    assert len(r.stdout.splitlines()) == 7
    j = _in_process(*base, "--format", "json")
    doc = json.loads(j.stdout)
    assert len(doc["rows"]) == 6 and doc["meta"]["projection"]["seed"] == 2
    out = tmp_path / "o" / "p.csv"
    w = _in_process(*base, "--out", out)
    assert w.returncode == 0, w.stderr
    assert out.read_text(encoding="utf-8") == r.stdout
    meta = json.loads((tmp_path / "o" / "p.meta.json").read_text(encoding="utf-8"))
    assert meta["projection"]["samples"] == 20
    again = tmp_path / "o2.csv"
    assert _cli(*base, "--out", again).returncode == 0     # a real process: the same bytes in another process too
    assert again.read_bytes() == out.read_bytes()
    forked = tmp_path / "o3.csv"                            # the engine in two forked processes: the same bytes
    assert _cli(*base, "--jobs", "2", "--out", forked).returncode == 0
    assert forked.read_bytes() == out.read_bytes()
    assert (tmp_path / "o2.meta.json").read_bytes() == (tmp_path / "o" / "p.meta.json").read_bytes()


def test_cli_exit_statuses(six, tmp_path):
    for jobs in ("0", "65", "two"):
        r = _cli("--body", "zp-chair", "--year", "2026", "--jobs", jobs)
        assert r.returncode == 2 and "--jobs" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    bad_hist = tmp_path / "h.csv"
    bad_hist.write_text("unit,year,category\nAlpha,2015,XX\n", encoding="utf-8")
    out = tmp_path / "never.csv"
    r = _cli("--body", "zp-chair", "--year", "2026", "--units", six / "six.csv", "--history", bad_hist,
             "--samples", "5", "--out", out)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "row 2" in r.stderr and "'category'" in r.stderr
    assert not out.exists() and not list(tmp_path.glob("never*"))
    r = _cli("--body", "zp-chair", "--year", "2026", "--samples", "0")
    assert r.returncode == 2
    r = _cli("--body", "zp-chair", "--year", "2026", "--units", six / "six.csv", "--samples", "5", "--out",
             tmp_path / "x.txt")
    assert r.returncode == 2 and "--out" in r.stderr and not list(tmp_path.glob("x*"))
    impossible = tmp_path / "bad.csv"
    impossible.write_text(SIX_HISTORY.replace("Gamma,2021,OBC_W", "Gamma,2021,UR")
                          .replace("Alpha,2021,UR", "Alpha,2021,OBC_W"), encoding="utf-8")
    r = _cli("--body", "zp-chair", "--year", "2026", "--units", six / "six.csv", "--history", impossible,
             "--samples", "5", "--out", out)
    assert r.returncode == 3 and "cannot come from the rules" in r.stderr and not out.exists()


# -- what the notebook and the report show -----------------------------------------------------------------------

def test_notebook_helpers(zp2026):
    from reservation.projection.project import likely_table, summary, sums_check
    s = summary(zp2026)
    assert list(s.columns) == ["item", "value"] and "2021" in s.set_index("item").at[
        "constrained by the published list(s) of", "value"]
    c = sums_check(zp2026)
    assert c["equal"].all() and c.set_index("category").at["UR", "sum_of_probabilities"] == "27"
    t = likely_table(zp2026, "hi")
    assert len(t) == 75 and t["unit"].iat[0] != "" and (t["probability_%"] <= 100).all()
    order = [CODES.index(c) for c in zp2026.table.set_index("unit_name_hi").loc[t["unit"], "most_likely"]]
    assert order == sorted(order)


def test_projection_maps(zp2026):
    from reservation.law.categories import label
    from reservation.projection.project import projection_map, projection_static_map
    fig = projection_map(zp2026)
    t = zp2026.table.set_index("unit_code")
    shaded = 0
    for tr in fig.data:
        if tr.type == "choroplethmap" and tr.name in {label(c) for c in CODES}:
            for loc, a in zip(tr.locations, tr.marker.opacity):
                row = t.loc[int(loc)]
                want = 1.0 if row["certain"] else 0.15 + 0.85 * float(row[PROB_COLUMNS].max())
                assert a == pytest.approx(want, abs=1e-3)
                assert tr.name == label(row["most_likely"])
                shaded += 1
    assert shaded == 75
    f = projection_static_map(zp2026, title="2026")
    assert f.axes and f.axes[0].get_title() == "2026"


def test_block_pramukh_lists_cannot_constrain(tmp_path):
    """Block pramukh posts per district are counted from the OBC population too: a past list cannot constrain
    them (a RuleError, exit 3, that says what to do); with constraint=none the counts vary and the meta says how."""
    a = allot("kp-chair", 2021)
    h = pd.DataFrame({"unit": a.categories.index, "year": 2021, "category": a.categories.to_numpy()})
    shipped = pd.read_csv(ROOT / "data" / "history" / "kp-chair.csv")[["unit", "year", "category"]]
    pd.concat([shipped, h]).to_csv(tmp_path / "h.csv", index=False)
    with pytest.raises(RuleError, match="constraint=none"):
        project("kp-chair", 2026, history=tmp_path / "h.csv", samples=2, progress=False)
    p = project("kp-chair", 2026, history=tmp_path / "h.csv", samples=3, constraint="none", progress=False)
    from reservation.projection.project import sums_check
    assert p.meta["projection"]["counts_vary"] and sums_check(p)["equal"].all()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the processes left behind")
@pytest.mark.parametrize("signum, status", [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_stopped_projection_ends_its_forked_processes(signum, status):
    """Ctrl-C (SIGINT to the process group, the forked processes included) or a scheduler's SIGTERM (to the
    command) while ``--jobs 2`` samples: one line, the status, and no process of the group left."""
    import signal
    from test_report_folder import _group_alive, left_alive, stop_when
    proc = subprocess.Popen([sys.executable, "-m", "reservation.cli", "project", "--body", "kp-chair", "--year",
                             "2026", "--jobs", "2", "--samples", "100000", "--thin", "1", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    err = stop_when(proc, lambda: len(_group_alive(proc.pid)) >= 3,     # the command and its two forked processes
                    getattr(signal, signum), within=120, settle=0.5, timeout=60, what="the projection did not fork")
    assert proc.returncode == status, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("reservation: "), err
    assert left_alive(proc.pid) == []
    assert _group_alive(proc.pid) == []
