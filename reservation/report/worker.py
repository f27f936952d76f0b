"""The worker side of a report: each worker process runs its notebooks with papermill in its own Python
(:mod:`.inprocess`: an IPython shell whose namespace is reset between notebooks; with ``--fresh-kernels`` a new
Jupyter kernel per notebook instead), then writes the page and the static maps."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from pathlib import Path

from .pages import notebook_to_html, set_font_css
from .tasks import KERNEL, Task, TaskResult

__all__ = ["run_task", "worker_init", "ALLOTMENTS", "allotment_key", "UNUSED_IMPORTS", "without_unused_imports",
           "KERNEL_STARTUP", "WARM", "compact_notebook", "settle_papermill", "INJECTED_ID"]

_KM = None            # the kernel of the notebook being run (--fresh-kernels only)
_FRESH = False
_LOG_DIR: Path | None = None
_CACHE: Path | None = None      # the report's work/logs: the allotment the parent computed, as a pickle
#: Allotments loaded (or, with no report folder, computed) in this process, by parameters.
ALLOTMENTS: dict = {}


#: Optional modules that a dependency imports when they are installed, which no process of a report uses:
#: jsonschema (imported by nbformat, hence by papermill, nbconvert and plotly's notebook renderer) imports
#: ``rfc3987_syntax`` to check the "iri" string format, and that compiles 39 lark grammars at import: 2.8 s of CPU
#: in the parent and again in every kernel (measured; a third of a kernel's first notebook). No notebook schema
#: uses that format (nbformat validates without a format checker).
UNUSED_IMPORTS = ("rfc3987_syntax",)
#: Run by each report kernel as it starts (``IPKernelApp.exec_lines``; binds no name in the user namespace).
KERNEL_STARTUP = "; ".join(f"__import__('sys').modules.setdefault({m!r}, None)" for m in UNUSED_IMPORTS)


@contextlib.contextmanager
def without_unused_imports():
    """Within the block, importing a module of :data:`UNUSED_IMPORTS` fails as if it were not installed (the
    importer's ``except ImportError`` path); afterwards it can be imported again. The report's parent imports
    papermill and nbconvert in such a block."""
    added = [m for m in UNUSED_IMPORTS if m not in sys.modules]
    for m in added:
        sys.modules[m] = None
    try:
        yield
    finally:
        for m in added:
            if sys.modules.get(m, 0) is None:
                del sys.modules[m]


def worker_init(fresh: bool, log_dir: str, font_css: str | None = None, cache: str | None = None,
                cwd: str | None = None) -> None:
    """Set up a worker process. Ctrl-C at the terminal reaches every process of the foreground group: the workers
    ignore it and leave the stopping to the parent, which ends them with SIGTERM; on SIGTERM a worker kills its
    kernel (its own process group) and removes the kernel's connection file, then exits at once.

    ``cwd`` (notebooks run in the worker, not with ``--fresh-kernels``): make the worker's shell now and import
    what the report's notebooks import (:data:`WARM`): the report forks its workers before it computes the
    allotment, so this happens while the parent computes (:func:`reservation.report.run_report`)."""
    global _FRESH, _LOG_DIR, _CACHE
    _FRESH = fresh
    _LOG_DIR = Path(log_dir)
    _CACHE = Path(cache) if cache else None
    set_font_css(font_css)                    # subset once, in the parent
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")   # no debugger warning from the kernels
    os.environ.setdefault("MPLBACKEND", "Agg")
    from ..views.figures import FIGURES_ENV
    os.environ[FIGURES_ENV] = "json"          # figures as plotly's JSON alone: the pages draw them (pages.py)
    if cache:                  # the kernels load the parent's allotment and boundaries (views.params.REPORT_CACHE_ENV)
        from ..views.params import REPORT_CACHE_ENV
        os.environ[REPORT_CACHE_ENV] = cache
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)
    from ..base import signals
    signals.release()        # held back across the fork (reservation.base.signals): the handlers are set now
    import gc
    gc.freeze()          # what the parent left (modules, boundaries, caches) is never garbage: not walked again
    if cwd and not fresh:
        from . import inprocess
        inprocess.register()
        inprocess.warm(WARM)


def _kill_kernel() -> None:
    """Kill this worker's kernel now (no messages, no event loop: safe in a signal handler)."""
    km = _KM
    if km is None:
        return
    prov = getattr(km, "provisioner", None)
    pgid = getattr(prov, "pgid", None)
    proc = getattr(prov, "process", None)
    try:
        if pgid:
            os.killpg(pgid, signal.SIGKILL)
        elif proc is not None:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass
    try:
        if km.connection_file:
            Path(km.connection_file).unlink(missing_ok=True)
    except OSError:
        pass


def _terminated(signum, frame) -> None:  # pragma: no cover - runs in a worker being stopped
    _kill_kernel()
    os._exit(128 + signum)


def _kernel(cwd: str):
    """Start this worker's kernel once (stderr to a log file); restart it if it died."""
    global _KM
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_core.utils import run_sync
    if _KM is not None and run_sync(_KM.is_alive)():
        return _KM
    from .kernel_client import CLIENT_CLASS
    km = AsyncKernelManager(kernel_name=KERNEL, client_class=CLIENT_CLASS)     # a readiness check without idling
    log = (_LOG_DIR or Path(cwd)) / f"kernel-{os.getpid()}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    fh = open(log, "ab")  # noqa: SIM115 - the kernel writes to it for its whole life
    run_sync(km.start_kernel)(cwd=cwd, stdout=fh, stderr=fh,
                              extra_arguments=[f"--IPKernelApp.exec_lines={KERNEL_STARTUP}"])
    _KM = km
    from multiprocessing import util
    util.Finalize(None, _stop_kernel, exitpriority=10)
    return km


def _stop_kernel() -> None:
    global _KM
    if _KM is None:
        return
    from jupyter_core.utils import run_sync
    try:
        run_sync(_KM.shutdown_kernel)(now=True)
    except Exception:  # noqa: BLE001 - best effort at exit
        pass
    _KM = None


#: What a worker imports before its first notebook (the modules the notebooks import: the first notebook otherwise
#: paid for them), while the parent computes the allotment; run in a namespace of its own.
WARM = ("import importlib, pandas, numpy, pyarrow, plotly.graph_objects, plotly.io, nbformat, IPython.display; "
        "import reservation.views, reservation.views.styled, reservation.views.figures, "
        "reservation.views.tables, reservation.views.maps, reservation.allotment.pipeline, "
        "reservation.rules.registry, reservation.inputs.published, reservation.projection.project; "
        "[importlib.import_module(m) for m in reservation.views.maps.LIBRARIES]")


def allotment_key(m: dict) -> tuple:
    return (m["body"], m["year"], m["base_year"], tuple(m["options"]), tuple(m["history"]), m["units"])


def _allotment(m: dict):
    """The allotment of a task's maps: the one the report's parent saved (the workers are forked before it is
    computed; for an election not yet held it carries the projection's probabilities, which computing it again
    here would not), so a missing file is an error; without a report folder (benchmarks), computed here."""
    from ..views import run_allotment
    from ..views.params import saved_allotment
    key = allotment_key(m)
    if key not in ALLOTMENTS:
        if _CACHE is not None:
            saved = saved_allotment(_CACHE, m["body"], m["year"], base_year=m["base_year"], options=m["options"],
                                    history=m["history"], units=m["units"])
            if saved is None:
                raise FileNotFoundError(f"the report's saved allotment of {m['body']} {m['year']} is not in {_CACHE}")
            ALLOTMENTS[key] = saved
        else:
            ALLOTMENTS[key] = run_allotment(m["body"], m["year"], base_year=m["base_year"], options=m["options"],
                                            history=m["history"], units=m["units"])
    return ALLOTMENTS[key]


def _error_text(e: Exception) -> str:
    ename = getattr(e, "ename", type(e).__name__)
    evalue = getattr(e, "evalue", str(e))
    cell = getattr(e, "exec_count", None)
    where = f" (cell In [{cell}])" if cell else ""
    return " ".join(f"{ename}: {evalue}{where}".split())


def run_task(task: Task) -> TaskResult:
    """Run one notebook with papermill, then write its HTML page, static maps and the map's GeoJSON (in a worker
    process). A task without a notebook writes its maps only."""
    start = time.perf_counter()
    cpu = time.process_time()
    res = TaskResult(task.key, task.kind, False, 0.0)
    try:
        if task.notebook:
            _execute(task)
            res.files.append(Path(task.ipynb).name)
        res.timings["notebook"] = round(time.perf_counter() - start, 3)
        res.timings["notebook_cpu"] = round(time.process_time() - cpu, 3)
        static_png = published_png = None
        if task.maps:
            from ..views import write_geojson, write_static_maps
            m = task.maps
            r = _allotment(m)
            for x in write_static_maps(r.table, m["stem"], division=m["division"], title=m["title"],
                                       engine=m["engine"], body=m["body"], dpi=m.get("dpi", 100)):
                res.maps.append({"lang": x["lang"], "png": x["png"].name, "svg": x["svg"].name,
                                 "engine": x["engine"], "mode": x["mode"], "not_drawn": x["not_drawn"],
                                 "note": x["note"]})
                res.files += [x["png"].name, x["svg"].name]
                if x["lang"] == "en":
                    static_png = x["png"]
            res.files.append(write_geojson(r.table, f"{m['stem']}.geojson", m["division"], m["body"]).name)
            published_png = _published_maps(task, r, res)
            if m["division"] is not None:            # the page's tables as CSV beside it
                from ..views import division_tables, write_csv
                base = Path(m["stem"]).parent / task.key
                tables = division_tables(r, m["division"])
                for name, df in tables.items():
                    res.files.append(write_csv(df, f"{base}-{name}.csv").name)
                if m["body"] == "kp-chair":          # each block's gram panchayats' histories (issue 21 item 4)
                    from ..views.timeline import gp_histories_of_blocks
                    gp = gp_histories_of_blocks(tables["units"]["unit_code"])
                    res.files.append(write_csv(gp, f"{base}-gp_histories.csv").name)
        res.timings["maps"] = round(time.perf_counter() - start - res.timings["notebook"], 3)
        res.timings["maps_cpu"] = round(time.process_time() - cpu - res.timings["notebook_cpu"], 3)
        if task.html:
            notebook_to_html(task.ipynb, task.html, title=task.title, plotlyjs=task.plotlyjs, static_map=static_png,
                             published_map=published_png)
            res.files.append(Path(task.html).name)
        res.timings["page"] = round(time.perf_counter() - start - res.timings["notebook"] - res.timings["maps"], 3)
        res.timings["page_cpu"] = round(time.process_time() - cpu - res.timings["notebook_cpu"]
                                        - res.timings["maps_cpu"], 3)
        res.ok = True
    except Exception as e:  # noqa: BLE001 - reported to the parent, which fails the report
        res.error = _error_text(e)
    res.seconds = round(time.perf_counter() - start, 2)
    return res


def _published_maps(task: Task, r, res: TaskResult):
    """A division page of a past election whose published list is held: that list's map beside the computed one
    (:func:`reservation.views.write_published_maps`, ``KEY-published-LANG.png/.svg``); returns the English PNG,
    or None (no list held, as for an election not yet held, or not a division page)."""
    from ..views import has_published, write_published_maps
    m = task.maps
    if m["division"] is None or not has_published(r.table):
        return None
    stem = Path(m["stem"]).parent / f"{task.key}-published"
    png = None
    for x in write_published_maps(r.table, stem, division=m["division"], title=m["title"], body=m["body"],
                                  dpi=m.get("dpi", 100)):
        res.files += [x["png"].name, x["svg"].name]
        if x["lang"] == "en":
            png = x["png"]
    return png


def _execute(task: Task) -> None:
    """Run the task's notebook with papermill: in this process (:mod:`.inprocess`), or with ``--fresh-kernels``
    in a new kernel, started (and logged, and killed) here."""
    import papermill as pm
    cwd = str(Path(task.ipynb).parent)
    run = dict(parameters=task.parameters, kernel_name=KERNEL, progress_bar=False, log_output=False, cwd=cwd,
               execution_timeout=task.timeout, request_save_on_cell_execute=False)
    try:
        if _FRESH:
            pm.execute_notebook(task.notebook, task.ipynb, start_timeout=120, km=_kernel(cwd), **run)
        else:
            from . import inprocess
            inprocess.register()
            pm.execute_notebook(task.notebook, task.ipynb, engine_name=inprocess.ENGINE, **run)
    finally:
        if _FRESH:
            _stop_kernel()
        if Path(task.ipynb).is_file():
            compact_notebook(task.ipynb, task.notebook)


#: Run-time details that differ between two runs of the same notebook (papermill's and the kernel's clocks).
_VOLATILE = ("start_time", "end_time", "duration")
#: The id of the cell papermill injects (after the cell tagged ``parameters``), in place of its random one.
INJECTED_ID = "injected-parameters"


def settle_papermill(nb: dict, source) -> None:
    """Make what papermill and nbformat write into an executed notebook the same on every run (in place).

    Post-processing is the only way here: papermill offers no hook for these, it writes them while it executes.
    - clock times: ``metadata.papermill`` and each cell's ``metadata.papermill`` ``start_time``, ``end_time``
      and ``duration`` are set to null, and the kernel's ``metadata.execution`` timestamps dropped;
    - paths: ``metadata.papermill.input_path`` (where the package is installed) and ``output_path`` (the
      report's temporary folder, a random name) become the file names alone;
    - cell ids: papermill makes the injected parameters cell with a random id (``nbformat.v4.new_code_cell``),
      and nbformat gives random ids to the cells of a notebook older than format 4.5 when papermill upgrades it.
      Every cell whose id is not one of the source notebook's gets one from its place: ``injected-parameters``
      for the injected cell, ``cell-N`` (N its index) for any other; each unique.
    - printed text: the kernel sends what a cell prints in chunks whose boundaries depend on timing (on a busy
      machine one table came as two outputs, its last newline in the second); consecutive stream outputs of the
      same name (stdout, stderr) are joined into one, as one chunk would have been written (:func:`_join_streams`).
    Nothing else is changed: outputs are left as the kernel made them (they are made deterministic at their
    source: :mod:`reservation.views.styled` for tables, fixed div ids for plotly figures)."""
    import json
    meta = nb.setdefault("metadata", {})
    pm = meta.get("papermill")
    if isinstance(pm, dict):
        pm.update({k: None for k in _VOLATILE})
        for k in ("input_path", "output_path"):
            if isinstance(pm.get(k), str):
                pm[k] = Path(pm[k]).name
    own = set()
    if source and Path(source).is_file():
        src = json.loads(Path(source).read_text(encoding="utf-8"))
        own = {c["id"] for c in src.get("cells", []) if isinstance(c.get("id"), str)}
    cells = nb.get("cells", [])
    taken = {c.get("id") for c in cells if c.get("id") in own}
    for i, cell in enumerate(cells):
        md = cell.setdefault("metadata", {})
        md.pop("execution", None)
        if isinstance(cell.get("outputs"), list):
            cell["outputs"] = _join_streams(cell["outputs"])
        if isinstance(md.get("papermill"), dict):
            md["papermill"].update({k: None for k in _VOLATILE})
        if "id" not in cell or cell["id"] in own:
            continue
        base = INJECTED_ID if "injected-parameters" in md.get("tags", []) else f"cell-{i}"
        new, n = base, 1
        while new in taken:
            n += 1
            new = f"{base}-{n}"
        cell["id"] = new
        taken.add(new)


def _join_streams(outputs: list) -> list:
    """``outputs`` with each run of consecutive stream outputs of the same name joined into one (its text as
    nbformat writes one chunk: a list of lines, each with its newline, or a string when the first was one)."""
    out: list = []
    for o in outputs:
        prev = out[-1] if out else None
        if (isinstance(o, dict) and o.get("output_type") == "stream" and isinstance(prev, dict)
                and prev.get("output_type") == "stream" and prev.get("name") == o.get("name")):
            text = "".join(_text(prev.get("text", ""))) + "".join(_text(o.get("text", "")))
            prev["text"] = text if isinstance(prev.get("text"), str) else text.splitlines(keepends=True)
            continue
        out.append(dict(o) if isinstance(o, dict) else o)
    return out


def _text(t) -> list:
    return [t] if isinstance(t, str) else list(t)


def compact_notebook(path, source=None) -> None:
    """Rewrite an executed notebook the same on every run for the same inputs (:func:`settle_papermill`; ``source``
    the notebook papermill ran) and without nbformat's indentation (a map's coordinates otherwise take one line
    each: a third of the size)."""
    import json
    path = Path(path)
    nb = json.loads(path.read_text(encoding="utf-8"))
    settle_papermill(nb, source)
    path.write_text(json.dumps(nb, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n",
                    encoding="utf-8")
