"""Scheduled reports: run the division notebook with papermill for each division, in parallel processes, and
turn the executed notebooks into HTML pages with their maps, static PNG/SVG maps and an index.

``reservation report --body BODY --year YEAR [--division NAME ...] [--out DIR] [--format html|ipynb]``
(:mod:`reservation.cli.report`) calls :func:`run_report`. In order:

1. **Validate** every parameter before anything runs (:func:`validate`: body, year, divisions, options,
   history and units files, format, the output folder); a bad one is an :class:`~reservation.base.errors.InputError`
   (the command exits with status 2 and writes nothing). The output folder must be new, empty, or a previous
   report of this tool holding nothing else (:mod:`.folder`): a report never deletes what it did not write.
   Papermill injects the parameters as literals into the notebook; nothing from a parameter is executed as code.
2. **Plan** one task per division that has units of the body (``02_division_report.ipynb`` with
   ``body, year, division, base_year, options, history, units``), plus the State counts page
   (``01_state_counts.ipynb``), and with ``projection=True`` the projection page (``07_projection.ipynb``: the
   probability of each category where unpublished OBC data decide; :mod:`.projection`, which also checks up front
   that the projection can run for these parameters).
3. **Run** the tasks in a :class:`~concurrent.futures.ProcessPoolExecutor` (2 workers by default) with a tqdm
   progress bar on stderr (:mod:`.worker`). The workers are forked before the allotment is computed: each imports
   what the notebooks import, and the State counts page (which needs no allotment) starts, while the parent
   computes the allotment (an election not yet held: the projection's samples in as many forked processes as
   there are workers) and saves it for the workers to load. Papermill runs each worker's notebooks in the worker
   itself, one after the other, in an IPython shell whose namespace is reset before each (:mod:`.inprocess`: the
   outputs a kernel would give, byte for byte); ``fresh_kernels=True`` starts a Jupyter kernel per notebook
   instead (:mod:`.kernel_client`: its readiness check waits for the kernel's answer, not for a silence). The
   division pages run largest first. Then, in the worker: the HTML page (:mod:`.pages`) and the static maps, PNG
   and SVG in English and Hindi (:func:`reservation.views.write_static_maps`).
4. **Publish** (:mod:`.folder`): everything is written to a temporary folder; the index (``index.html``), the
   manifest (``report.json``) and the marker listing every file are written only when every task succeeded, and
   the report then takes the place of ``out``. When a notebook fails, the others still pending are cancelled,
   nothing is written at ``out``, the executed notebooks are kept in ``<out>.failed/`` for inspection (no index
   there), and :class:`ReportFailed` says which notebook failed, in which cell, with which error. On Ctrl-C or
   any other error the workers and their kernels are stopped and the temporary folder is removed.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from importlib import resources
from pathlib import Path

from ..base import signals
from ..base.errors import InputError
from .folder import MARKER, Target, check_target, keep_failed, make_workdir, publish
from .index import write_index
from .pages import (PLOTLYJS_MODES, SKIP_TAG, devanagari_font_css, notebook_to_html, site_css,
                    write_shared_files)
from .projection import DEFAULT_SAMPLES, check_projection, projection_task
from .sheets import sheet_years, write_sheets
from .tasks import KERNEL, ReportFailed, ReportResult, Task, TaskResult
from .worker import run_task, without_unused_imports, worker_init

__all__ = ["NOTEBOOK_DIR", "DIVISION_NOTEBOOK", "STATE_NOTEBOOK", "PROJECTION_NOTEBOOK", "FORMATS", "STATIC_ENGINES", "PLOTLYJS_MODES",
           "ReportFailed", "Task", "TaskResult", "ReportResult", "validate", "plan", "run_report",
           "notebook_to_html", "write_index", "devanagari_font_css", "SKIP_TAG", "KERNEL", "MARKER"]

#: The notebooks are package data (``reservation/notebooks`` links to the repository's ``notebooks/``; a wheel
#: carries them), found through importlib.resources, not through the repository's layout.
NOTEBOOK_DIR = Path(str(resources.files("reservation") / "notebooks"))
DIVISION_NOTEBOOK = NOTEBOOK_DIR / "02_division_report.ipynb"
STATE_NOTEBOOK = NOTEBOOK_DIR / "01_state_counts.ipynb"
PROJECTION_NOTEBOOK = NOTEBOOK_DIR / "07_projection.ipynb"
FORMATS = ("html", "ipynb")
STATIC_ENGINES = ("matplotlib", "kaleido", "auto")


# ================================================================================================ validation

def validate(body, year, divisions="all", *, out=None, fmt="html", base_year=2015, options=(), history=(),
             units="", workers=2, static_engine="matplotlib", plotlyjs="directory", notebook=None,
             projection=False, projection_samples=DEFAULT_SAMPLES, seed=0, force=False, pdf=False) -> dict:
    """Check every parameter (types, values, files) and return them normalised; raise InputError otherwise.

    Besides :func:`reservation.views.check_parameters`: ``fmt`` in :data:`FORMATS`, ``workers`` a positive
    integer, ``static_engine`` in :data:`STATIC_ENGINES`, ``plotlyjs`` in :data:`PLOTLYJS_MODES`, ``out`` a folder
    that may receive the report (:func:`reservation.report.folder.check_target`; default ``out/report-BODY-YEAR``),
    ``notebook`` (tests) an existing .ipynb with a cell tagged ``parameters``; with ``projection``, that the
    projection can run (:func:`reservation.report.projection.check_projection`; ``p["projection"]`` then says
    what the index needs; None without).
    """
    from ..views import check_parameters
    p = check_parameters(body, year, division=divisions, base_year=base_year, options=options, history=history,
                         units=units)
    if fmt not in FORMATS:
        raise InputError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}", column="format")
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise InputError(f"workers must be a positive integer, not {workers!r}", column="workers")
    if static_engine not in STATIC_ENGINES:
        raise InputError(f"static engine must be one of {', '.join(STATIC_ENGINES)}, not {static_engine!r}",
                         column="static-engine")
    if plotlyjs not in PLOTLYJS_MODES:
        raise InputError(f"plotlyjs must be one of {', '.join(PLOTLYJS_MODES)}, not {plotlyjs!r}",
                         column="plotlyjs")
    if out is not None and not str(out).strip():
        raise InputError("the output folder is an empty name", option="--out")
    out = Path(out) if out else Path("out") / f"report-{p['body']}-{p['year']}"
    target = check_target(out, force=force)
    nb = Path(notebook) if notebook else DIVISION_NOTEBOOK
    if not nb.is_file():
        raise InputError("notebook not found", file=str(nb), column="notebook")
    _check_parameters_cell(nb)
    p.update(out=out, target=target, fmt=fmt, workers=workers, static_engine=static_engine, plotlyjs=plotlyjs,
             notebook=nb, projection=None)
    if projection:
        _check_parameters_cell(PROJECTION_NOTEBOOK)
        p["projection"] = check_projection(p, projection_samples, seed)
    p["sheets"] = sheet_years(p["body"], p["year"]) if pdf else None      # --pdf: the districts' sheets
    return p


def _check_parameters_cell(path: Path) -> None:
    with without_unused_imports():
        import nbformat
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as e:  # noqa: BLE001 - any unreadable notebook is bad input
        raise InputError(f"not a readable notebook: {e}", file=str(path), column="notebook") from None
    if not any("parameters" in c.get("metadata", {}).get("tags", []) for c in nb.cells):
        raise InputError("the notebook has no cell tagged 'parameters'", file=str(path), column="notebook")


# ================================================================================================ planning

def plan(p: dict, result, tmp: Path, *, timeout: int = 600, state_page: bool = True) -> tuple[list, list]:
    """The tasks of a report (see :class:`Task`) and the divisions left out because the body has no unit there."""
    from ..views import body_title, divisions as division_table, slug
    table = result.table
    hi = dict(zip(division_table()["division"], division_table()["division_hi"]))
    tasks, empty = [], []
    html_ok = p["fmt"] == "html"
    for d in p["divisions"]:
        if not (table["division"] == d).any():
            empty.append(d)
            continue
        key = slug(d)
        params = {"body": p["body"], "year": p["year"], "division": d, "base_year": p["base_year"],
                  "options": list(p["options"]), "history": list(p["history"]), "units": p["units"]}
        title_en = f"{body_title(p['body'])} {p['year']}: {d}"
        title_hi = f"{body_title(p['body'], 'hi')} {p['year']}: {hi.get(d, d)}"
        maps = {"body": p["body"], "year": p["year"], "base_year": p["base_year"], "options": list(p["options"]),
                "history": list(p["history"]), "units": p["units"], "division": d,
                "stem": str(tmp / f"{key}-map"), "engine": p["static_engine"],
                "title": {"en": title_en, "hi": title_hi}}
        tasks.append(Task(key, "division", title_en, str(p["notebook"]), params, str(tmp / f"{key}.ipynb"),
                          str(tmp / f"{key}.html") if html_ok else None, maps, timeout, p["plotlyjs"]))
    if tasks:
        maps = {**tasks[0].maps, "division": None, "stem": str(tmp / "state-map"),
                "title": {"en": f"{body_title(p['body'])} {p['year']}",
                          "hi": f"{body_title(p['body'], 'hi')} {p['year']}"}}
        tasks.insert(0, Task("state-map", "map", f"State map {p['year']}", None, {}, None, None, maps, timeout,
                             p["plotlyjs"]))      # first: it needs no kernel, so it runs while the kernels start
    if p.get("projection"):        # early: the longest notebook, so it runs beside the division pages
        at = 1 if tasks and tasks[0].kind == "map" else 0
        tasks.insert(at, projection_task(p, PROJECTION_NOTEBOOK, tmp, timeout))
    if state_page and STATE_NOTEBOOK.is_file():
        tasks.append(state_task(p, tmp, timeout))
    return tasks, empty


def state_task(p: dict, tmp: Path, timeout: int = 600) -> Task:
    """The State counts page: every body's counts of the year, which need nothing of the report's allotment (so
    :func:`run_report` starts it before the allotment is computed)."""
    return Task("state-counts", "state", f"State counts {p['year']}", str(STATE_NOTEBOOK), {"year": p["year"]},
                str(tmp / "state-counts.ipynb"), str(tmp / "state-counts.html") if p["fmt"] == "html" else None,
                None, timeout, p["plotlyjs"])


def _run_order(tasks: list, table) -> list:
    """The order the pool takes the tasks in: the State map first (no notebook), then the longest first: the
    projection page (its samples), then the division pages by their number of units (which their maps, tables and
    notebook grow with), so that the workers end together; the pages' order in the report is the plan's, whatever
    the run's."""
    units = table["division"].value_counts().to_dict() if "division" in table.columns else {}
    rank = {"map": 0, "projection": 1}
    cost = {t.key: (rank.get(t.kind, 2), -units.get(t.parameters.get("division"), 0)) for t in tasks}
    return sorted(tasks, key=lambda t: cost[t.key])


# ================================================================================================ running

def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now (Ctrl-C or an error in the parent): pending tasks are cancelled and each worker gets
    SIGTERM, on which it kills its kernel and exits (see :func:`reservation.report.worker.worker_init`)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())   # the executor has no public way to stop workers
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(10)
        if proc.is_alive():
            proc.kill()
            proc.join(5)


def _prepare_workers(p: dict) -> None:
    """What every worker needs, done once here before the workers are forked (they inherit it): papermill and
    the map modules imported, the map caches filled (:func:`reservation.views.maps.prepare`), the HTML exporter
    built and its templates compiled. Two workers each doing it cost twice the CPU."""
    with without_unused_imports():
        import nbconvert  # noqa: F401
        import papermill  # noqa: F401

    from ..views.maps import prepare
    from .pages import _lab_css
    prepare()
    if p["fmt"] == "html":
        _lab_css()              # the exporter built and its templates compiled (one page rendered)


def _start_pool(p: dict, work: Path, fresh_kernels: bool) -> ProcessPoolExecutor:
    """Fork the workers now, before the allotment is computed: each imports what the notebooks import
    (:func:`reservation.report.worker.worker_init`) while the parent computes (the allotment takes up to 4 s for
    the blocks' projection). The workers, and the notebooks they run, load the allotment from the pickle the
    parent saves in ``work/logs`` (:func:`reservation.views.params.save_allotment`)."""
    _prepare_workers(p)
    # inline pages carry the font cut to the Devanagari block, made once here; directory pages link the font file
    font = devanagari_font_css() if p["plotlyjs"] == "inline" else None
    n = min(p["workers"], len(p["divisions"]) + 2)        # no more than the tasks (divisions, map, counts page)
    logs = str(work / "logs")
    pool = ProcessPoolExecutor(max_workers=n, initializer=worker_init,
                               initargs=(fresh_kernels, logs, font, logs, str(work)))
    with signals.held():   # the processes start at a first submit (all when forked; otherwise one each)
        for _ in range(n):
            pool.submit(os.getpid)
    return pool


def _run_tasks(pool: ProcessPoolExecutor, tasks: list, p: dict, progress: bool, started: dict | None = None) -> list:
    """Run the tasks in the pool, in their order, beside those ``started`` (future -> task); the first failure
    cancels those not started."""
    from tqdm import tqdm
    results: list[TaskResult] = []
    pending = dict(started or {})
    bar = tqdm(total=len(tasks) + len(pending), desc=f"{p['body']} {p['year']}", unit="notebook",
               file=sys.stderr, disable=not progress, dynamic_ncols=True)
    try:
        with signals.held():                     # a submit must not be interrupted (base/signals.py)
            pending.update({pool.submit(run_task, t): t for t in tasks})
        failed = False
        while pending:
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for f in done:
                t = pending.pop(f)
                if f.cancelled():
                    continue
                r = f.result()
                results.append(r)
                bar.update(1)
                bar.set_postfix_str(t.key if r.ok else f"{t.key} FAILED")
                if not r.ok and not failed:
                    failed = True
                    for g in pending:
                        g.cancel()
    finally:
        bar.close()
    pool.shutdown(wait=True)
    return results


def report_allotment(p: dict, seed: int = 0, progress: bool = False, samples: int | None = None):
    """The report's allotment, computed once here and handed to every page: the one ``reservation allot`` makes
    (:func:`reservation.answers.future.allot_answered`, the project's defaults: for an election not yet held the
    projection's probabilities ``P_ST_W ... P_UR`` from ``samples`` (default
    :data:`~reservation.answers.future.SAMPLES`; 0: none) samples with ``seed``, the engine run on them in as
    many processes as the report has workers; a past election costs nothing more)."""
    from ..answers.future import SAMPLES, allot_answered, is_future
    from ..views import run_allotment
    from ..views.params import option_assignments
    if not is_future(p["body"], p["year"]):
        return run_allotment(p["body"], p["year"], base_year=p["base_year"], options=p["options"],
                             history=p["history"], units=p["units"])
    return allot_answered(p["body"], p["year"], units=p["units"] or None, history=list(p["history"]) or None,
                          options=option_assignments(p["options"]), base_year=p["base_year"],
                          samples=SAMPLES if samples is None else int(samples),
                          seed=int(seed), progress=bool(progress), jobs=p["workers"])


def run_report(body, year, divisions="all", *, out=None, fmt="html", base_year=2015, options=(), history=(),
               units="", workers=2, static_engine="matplotlib", plotlyjs="directory", progress=True,
               fresh_kernels=False, state_page=True, notebook=None, timeout=600, projection=False,
               projection_samples=DEFAULT_SAMPLES, seed=0, force=False, samples=None, pdf=False) -> ReportResult:
    """Validate, run every notebook, and publish the report at ``out`` (see the module docstring).

    ``projection``: add the projection page (``projection_samples`` samples, ``seed``; see :mod:`.projection`).
    ``pdf``: add the one-page sheet of every district of the divisions, in English and Hindi (:mod:`.sheets`).
    Raises :class:`InputError` for a bad parameter (including a projection that cannot run) or an output folder that holds anything else than a previous
    report (before anything runs), :class:`ReportFailed` when a notebook fails (nothing is published at ``out``;
    the executed notebooks are kept in ``<out>.failed``), and lets KeyboardInterrupt through after cleaning up."""
    from ..views.maps.boundaries import save_cleaned
    from ..views.params import save_allotment
    start = time.perf_counter()
    p = validate(body, year, divisions, out=out, fmt=fmt, base_year=base_year, options=options, history=history,
                 units=units, workers=workers, static_engine=static_engine, plotlyjs=plotlyjs, notebook=notebook,
                 projection=projection, projection_samples=projection_samples, seed=seed, force=force, pdf=pdf)
    target: Target = p["target"]
    work = make_workdir(target)
    pool = None
    try:
        save_cleaned(work / "logs")      # the cleaned boundaries, which the notebooks load (removed before publishing)
        pool = _start_pool(p, work, fresh_kernels)
        early = [state_task(p, work, timeout)] if state_page and STATE_NOTEBOOK.is_file() else []
        with signals.held():
            started = {pool.submit(run_task, t): t for t in early}
        result = report_allotment(p, seed, progress, samples)
        tasks, empty = plan(p, result, work, timeout=timeout, state_page=False)
        if not any(t.kind == "division" for t in tasks):
            raise InputError(f"{p['body']} has no unit in {', '.join(p['divisions'])}", column="division")
        # the workers and the notebooks load this allotment instead of computing it again
        save_allotment(result, work / "logs", p["body"], p["year"], base_year=p["base_year"], options=p["options"],
                       history=p["history"], units=p["units"])
        results = _run_tasks(pool, _run_order(tasks, result.table), p, progress, started)
        tasks += early                                       # the State counts page last, as the plan puts it
        pool = None                                          # shut down: every worker and kernel has ended
        shutil.rmtree(work / "logs", ignore_errors=True)
        failures = [r for r in results if not r.ok]
        if failures:
            cancelled = len(tasks) - len(results)
            kept = keep_failed(work, target.path)
            msg = "; ".join(f"{r.key}: {r.error}" for r in failures)
            raise ReportFailed(f"{len(failures)} of {len(tasks)} notebooks failed ({msg})"
                               + (f"; {cancelled} not run" if cancelled else "")
                               + f"; no index written; executed notebooks kept in {kept}", failures, kept)
        order = {t.key: i for i, t in enumerate(tasks)}
        results.sort(key=lambda r: order[r.key])
        p["sheet_files"] = write_sheets(work, p) if p["sheets"] else []
        seconds = time.perf_counter() - start
        if p["plotlyjs"] == "directory":
            write_shared_files(work)
        else:
            (work / "reservation.css").write_text(site_css(), encoding="utf-8")     # the index's font
        index, manifest = write_index(work, p, result, results, empty, seconds)
        publish(work, target)
    except BaseException:               # Ctrl-C, a bad parameter found late, a rule that cannot apply, a bug
        if pool is not None:
            _stop_pool(pool)
        raise
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    out_path = target.path
    return ReportResult(out_path, results, round(time.perf_counter() - start, 2), out_path / index.name,
                        out_path / manifest.name)
