"""The projection page of a report (``--projection``; issue 11): ``07_projection.ipynb`` run for the report's body,
year, history, units, options and base year, one page beside the division pages.

A projection can fail where the report's allotment does not: rules that cannot reproduce a published past list
for any OBC figures, or a past list without the law's counts (a :class:`~reservation.engine.passes.RuleError` raised
before the first sample), or a bad sampling parameter. :func:`check_projection` therefore runs the projection's
whole preparation once (one sample, no burn-in: the constraints and their first admissible point, under a second
for the shipped bodies) while the report is validated, and names ``--projection`` in any such error: a RuleError
stays one (exit status 3, the rules cannot apply), a bad parameter is an :class:`~reservation.base.errors.InputError`
(exit 2); either way the report is refused before anything runs. Bodies that need a units file already need it
for the report.
"""

from __future__ import annotations

from pathlib import Path

from ..base.errors import InputError
from .tasks import Task

__all__ = ["DEFAULT_SAMPLES", "check_projection", "projection_task"]

#: The notebook's default (its ``parameters`` cell).
DEFAULT_SAMPLES = 500


def _whole(name: str, v, low: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise InputError(f"{name} must be a whole number of at least {low}, not {v!r}", option=name)
    return v


def check_projection(p: dict, samples, seed) -> dict:
    """Check that the projection can run for the validated report parameters ``p`` (see the module docstring);
    return what the index says of it: ``samples``, ``seed``, ``constraint_years`` (the published lists each
    sample reproduces) and ``backtest`` (the year's own list is in the history: the projection does not use it)."""
    from ..engine.passes import RuleError
    from ..projection.project import project
    samples = _whole("--projection-samples", samples, 1)
    seed = _whole("--seed", seed, 0)
    try:
        r = project(p["body"], p["year"], history=p["history"] or None, units=p["units"] or None,
                    options=p["options"], base_year=p["base_year"], samples=1, seed=seed, burn_in=0, check_every=1,
                    progress=False)
    except RuleError as e:
        raise RuleError(f"--projection: {p['body']} {p['year']} cannot be projected: {e}") from None
    except InputError as e:
        if e.option is None and e.file is None and e.column is None:
            e.option = "--projection"
        raise
    years = [int(y) for y in r.meta["projection"]["constraint_years"]]
    return {"samples": samples, "seed": seed, "constraint_years": years,
            "backtest": p["year"] in {int(y) for y in r.meta.get("history_not_counted", [])}}


def projection_task(p: dict, notebook: Path, tmp: Path, timeout: int) -> Task:
    """The task of the projection page (no static maps: the page's map is the notebook's)."""
    from ..views import body_title
    proj = p["projection"]
    params = {"body": p["body"], "year": p["year"], "samples": proj["samples"], "seed": proj["seed"],
              "history": list(p["history"]), "units": p["units"], "options": list(p["options"]),
              "base_year": p["base_year"]}
    html = str(tmp / "projection.html") if p["fmt"] == "html" else None
    return Task("projection", "projection", f"{body_title(p['body'])} {p['year']}: projection", str(notebook),
                params, str(tmp / "projection.ipynb"), html, None, timeout, p["plotlyjs"])
