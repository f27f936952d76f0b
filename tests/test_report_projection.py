"""``reservation report --projection`` (issue 11): the projection page (notebooks/07_projection.ipynb) is planned
only when asked for, a projection that cannot run is refused before anything runs, and one small real report
(zp-chair 2026, one division, 20 samples) has the page, in the index and in report.json."""

from __future__ import annotations

import json
import re

import nbformat
import pandas as pd
import pytest
from test_project import SIX, SIX_HISTORY, _districts

from reservation import report
from reservation.base.errors import InputError
from reservation.law.categories import CODES
from reservation.views import run_allotment


def test_the_page_is_planned_only_with_projection(tmp_path):
    result = run_allotment("zp-chair", 2026)
    plain = report.validate("zp-chair", 2026, ["Lucknow"], out=tmp_path / "a")
    assert plain["projection"] is None
    tasks, _ = report.plan(plain, result, tmp_path)
    assert not [t for t in tasks if t.kind == "projection"]
    p = report.validate("zp-chair", 2026, ["Lucknow"], out=tmp_path / "b", projection=True, projection_samples=7,
                        seed=3)
    assert p["projection"] == {"samples": 7, "seed": 3, "constraint_years": [2021], "backtest": False}
    tasks, _ = report.plan(p, result, tmp_path)
    proj = [t for t in tasks if t.kind == "projection"]
    assert len(proj) == 1 and proj[0].key == "projection" and proj[0].notebook == str(report.PROJECTION_NOTEBOOK)
    assert proj[0].parameters == {"body": "zp-chair", "year": 2026, "samples": 7, "seed": 3, "history": [],
                                  "units": "", "options": [], "base_year": 2015}
    assert proj[0].maps is None and proj[0].html.endswith("projection.html")
    # the notebook takes every parameter the report passes
    nb = nbformat.read(report.PROJECTION_NOTEBOOK, as_version=4)
    cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    assert set(proj[0].parameters) <= set(re.findall(r"^(\w+) =", cell.source, flags=re.M))
    # a past year whose list is in the history is a backtest: allowed, and said so
    past = report.validate("zp-chair", 2021, ["Lucknow"], out=tmp_path / "c", projection=True)
    assert past["projection"] == {"samples": 500, "seed": 0, "constraint_years": [], "backtest": True}
    from reservation.projection.project import project, summary          # and the page's method table says it too
    said = summary(project("zp-chair", 2021, samples=1, burn_in=0, progress=False)).set_index("item")["value"]
    assert said["the published 2021 list"].startswith("in the history: this is a backtest")


def test_a_projection_that_cannot_run_is_refused_before_anything_runs(main, tmp_path, capsys):
    """A 2021 list that no OBC figures can give under the rules (test_project's impossible list): the report
    alone would run, the projection cannot, so ``--projection`` is refused with one line and exit 3: the rules
    cannot apply (exit 2 until issue 18: the README's exit 3 is for rules that cannot apply to valid input)."""
    (tmp_path / "six.csv").write_text(_districts(SIX), encoding="utf-8")
    bad = SIX_HISTORY.replace("Gamma,2021,OBC_W", "Gamma,2021,UR").replace("Alpha,2021,UR", "Alpha,2021,OBC_W")
    (tmp_path / "bad.csv").write_text(bad, encoding="utf-8")
    args = ["report", "--body", "zp-chair", "--year", "2026", "--units", str(tmp_path / "six.csv"), "--history",
            str(tmp_path / "bad.csv"), "--no-progress"]
    before = sorted(p.name for p in tmp_path.iterdir())
    report.validate("zp-chair", 2026, units=tmp_path / "six.csv", history=[tmp_path / "bad.csv"],
                    out=tmp_path / "fine")                                   # valid without the projection
    assert main([*args, "--out", str(tmp_path / "rep"), "--projection"]) == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--projection" in err and "cannot be projected" in err
    for extra, words in ((["--projection", "--projection-samples", "0"], "--projection-samples"),
                         (["--projection", "--seed", "-1"], "--seed"),
                         (["--seed", "4"], "add --projection"),
                         (["--projection-samples", "9"], "add --projection")):
        assert main([*args, "--out", str(tmp_path / "rep"), *extra]) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == before         # nothing written


def test_report_with_the_projection_page(main, tmp_path, capsys):
    out = tmp_path / "zp"
    assert main(["report", "--body", "zp-chair", "--year", "2026", "--division", "Lucknow", "--projection",
                 "--projection-samples", "20", "--seed", "1", "--no-state-page", "--out", str(out),
                 "--no-progress"]) == 0
    assert "and the projection page" in capsys.readouterr().out
    names = {p.name for p in out.iterdir()}
    assert {"projection.html", "projection.ipynb", "lucknow.html", "index.html", "report.json"} <= names
    page = (out / "projection.html").read_text(encoding="utf-8")
    # the same page machinery: shared plotly.js and style sheets (the Devanagari font), nothing from the network
    assert "Plotly.newPlot" in page and re.search(r'<script[^>]+src="plotly.min.js"', page)
    assert re.search(r'<link[^>]+href="reservation.css"', page) and re.search(r'<link[^>]+href="lab.css"', page)
    assert not re.search(r'<(script|link)[^>]+(src|href)="https?:', page)
    assert "NBVAL_CHECK_OUTPUT" not in page and "pj.project(" not in page
    # it says plainly what rests on unpublished data, and what was assumed
    assert "data that is not public" in page and "the OBC population of districts" in page
    assert "Beta(" in page and "20, 1" in page                              # the prior; samples, seed
    assert "not in the history: a projection" in page                       # 2026: no published list yet
    # issue 20: the division page's CSV and table carry the probabilities of `reservation allot` (1000 samples, the
    # report's seed), inside the possible categories
    units = pd.read_csv(out / "lucknow-units.csv", encoding="utf-8-sig")
    probs = [f"P_{c}" for c in CODES]
    assert set(probs) <= set(units.columns) and ((units[probs].sum(axis=1) - 1).abs() < 1e-9).all()
    for _, row in units.iterrows():
        assert {c for c in CODES if row[f"P_{c}"] > 0} <= set(row["possible"].split("|"))
    from reservation.answers.future import allot_answered
    want = allot_answered("zp-chair", 2026, samples=1000, seed=1).table.set_index("unit_code")
    assert all(abs(want.at[u, "P_UR"] - p) < 1e-12 for u, p in zip(units["unit_code"], units["P_UR"]))
    assert "P_UR" in (out / "lucknow.html").read_text(encoding="utf-8")
    assert not [n for n in names if "-published-" in n]                      # no published list of 2026
    ran = nbformat.read(out / "projection.ipynb", as_version=4)
    injected = next(c for c in ran.cells if "injected-parameters" in c.metadata.get("tags", []))
    assert "samples = 20" in injected.source and "seed = 1" in injected.source and "year = 2026" in injected.source
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="projection.html"' in index and "unpublished OBC data" in index and "अप्रकाशित" in index
    assert "20 samples (seed 1)" in index and "list(s) of: 2021." in index
    m = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert m["projection"] == {"samples": 20, "seed": 1, "constraint_years": [2021], "backtest": False}
    page_entry = next(p for p in m["pages"] if p["key"] == "projection")
    assert page_entry["kind"] == "projection" and page_entry["ok"]
    assert set(page_entry["files"]) == {"projection.ipynb", "projection.html"}
    marker = json.loads((out / report.MARKER).read_text(encoding="utf-8"))
    assert {"projection.html", "projection.ipynb"} <= set(marker["files"])      # a report's own files


def test_validate_checks_the_projection_parameters(tmp_path):
    for kw, words in ((dict(projection_samples=0), "--projection-samples"), (dict(projection_samples=True),
                      "--projection-samples"), (dict(seed=-1), "--seed"), (dict(seed="1"), "--seed")):
        with pytest.raises(InputError, match=words):
            report.validate("zp-chair", 2026, out=tmp_path / "r", projection=True, **kw)


def test_the_pool_takes_the_longest_tasks_first_and_the_report_keeps_the_plan_order():
    """The State map (no notebook) first, then the projection page, then the division pages by their number of
    units (largest first, so the two workers end together); ties keep the plan's order."""
    from reservation.report import Task, _run_order
    table = pd.DataFrame({"division": ["Agra"] * 2 + ["Lucknow"] * 5 + ["Jhansi"] * 2})

    def task(key, kind, division=None):
        return Task(key, kind, key, None, {"division": division} if division else {}, None, None, None)
    plan = [task("state-map", "map"), task("agra", "division", "Agra"), task("jhansi", "division", "Jhansi"),
            task("lucknow", "division", "Lucknow"), task("projection", "projection")]
    assert [t.key for t in _run_order(plan, table)] == ["state-map", "projection", "lucknow", "agra", "jhansi"]
    assert [t.key for t in plan] == ["state-map", "agra", "jhansi", "lucknow", "projection"]    # not reordered
