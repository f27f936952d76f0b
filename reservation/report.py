"""Scheduled reports: run the division notebook with papermill for each division, in parallel processes, and
turn the executed notebooks into HTML pages with their maps, static PNG/SVG maps and an index.

``reservation report --body BODY --year YEAR [--division NAME ...] [--out DIR] [--format html|ipynb]``
(:mod:`reservation.cli_report`) calls :func:`run_report`. In order:

1. **Validate** every parameter before anything runs (:func:`validate`: body, year, divisions, options,
   history and units files, format, output folder); a bad one is an :class:`~reservation.errors.InputError`
   (the command exits with status 2 and writes nothing). Papermill injects the parameters as literals into
   the notebook; nothing from a parameter is executed as code.
2. **Plan** one task per division that has units of the body (``02_division_report.ipynb`` with
   ``body, year, division, base_year, options, history, units``), plus the State counts page
   (``01_state_counts.ipynb``).
3. **Run** the tasks in a :class:`~concurrent.futures.ProcessPoolExecutor` (2 workers by default) with a tqdm
   progress bar on stderr. Each worker process starts one Jupyter kernel and papermill runs its notebooks in it,
   one after the other, the kernel's namespace reset before each; ``fresh_kernels=True`` starts
   a new kernel per notebook instead (full isolation, about 5 s more per notebook). Then, in the worker: the
   HTML page (nbconvert, lab template, inputs hidden, plotly figures given an HTML form with plotly.js inlined:
   the page works offline and alone) and the static maps, PNG and SVG in English and Hindi
   (:func:`reservation.views.write_static_maps`).
4. **Publish**: everything is written to a temporary folder beside ``out``; the index (``index.html``) and the
   manifest (``report.json``) are written only when every task succeeded, and the folder then replaces ``out``.
   When a notebook fails, the others still pending are cancelled, nothing is written at ``out``, the executed
   notebooks are kept in ``<out>.failed/`` for inspection (no index there), and :class:`ReportFailed` says
   which notebook failed, in which cell, with which error.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import sys
import tempfile
import time
from importlib import resources
from functools import lru_cache
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .errors import InputError

__all__ = ["NOTEBOOK_DIR", "DIVISION_NOTEBOOK", "STATE_NOTEBOOK", "FORMATS", "STATIC_ENGINES", "PLOTLYJS_MODES",
           "ReportFailed", "Task", "TaskResult", "ReportResult", "validate", "plan", "run_report",
           "notebook_to_html", "write_index", "devanagari_font_css", "SKIP_TAG", "KERNEL"]

#: The notebooks are package data (``reservation/notebooks`` links to the repository's ``notebooks/``; a wheel
#: carries them), found through importlib.resources, not through the repository's layout.
NOTEBOOK_DIR = Path(str(resources.files("reservation") / "notebooks"))
DIVISION_NOTEBOOK = NOTEBOOK_DIR / "02_division_report.ipynb"
STATE_NOTEBOOK = NOTEBOOK_DIR / "01_state_counts.ipynb"
FORMATS = ("html", "ipynb")
STATIC_ENGINES = ("matplotlib", "kaleido", "auto")
PLOTLYJS_MODES = ("inline", "directory")
PLOTLY_MIME = "application/vnd.plotly.v1+json"
KERNEL = "python3"


class ReportFailed(RuntimeError):
    """A notebook of the report failed; ``failures`` lists ``TaskResult`` of the failed tasks."""

    def __init__(self, message: str, failures: list, kept: Path | None):
        super().__init__(message)
        self.failures = failures
        self.kept = kept


@dataclass(frozen=True)
class Task:
    """One notebook run: what to run, with which parameters, and what to write (paths inside the temp folder)."""
    key: str                       # file stem, e.g. "lucknow"
    kind: str                      # "division" or "state"
    title: str
    notebook: str
    parameters: dict
    ipynb: str
    html: str | None
    maps: dict | None              # arguments of the static maps, or None
    timeout: int = 600
    plotlyjs: str = "inline"


@dataclass
class TaskResult:
    key: str
    kind: str
    ok: bool
    seconds: float
    error: str = ""
    files: list = field(default_factory=list)
    maps: list = field(default_factory=list)


@dataclass
class ReportResult:
    out: Path
    pages: list                    # TaskResult of every task
    seconds: float
    index: Path
    manifest: Path


# ================================================================================================ validation

def validate(body, year, divisions="all", *, out=None, fmt="html", base_year=2015, options=(), history=(),
             units="", workers=2, static_engine="matplotlib", plotlyjs="inline", notebook=None) -> dict:
    """Check every parameter (types, values, files) and return them normalised; raise InputError otherwise.

    Besides :func:`reservation.views.check_parameters`: ``fmt`` in :data:`FORMATS`, ``workers`` a positive
    integer, ``static_engine`` in :data:`STATIC_ENGINES`, ``plotlyjs`` in :data:`PLOTLYJS_MODES`, ``out`` not an
    existing file (default ``out/report-BODY-YEAR``), ``notebook`` (tests) an existing .ipynb with a cell tagged
    ``parameters``.
    """
    from .views import check_parameters
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
    out = Path(out) if out else Path("out") / f"report-{p['body']}-{p['year']}"
    if out.exists() and not out.is_dir():
        raise InputError("the output path exists and is not a folder", file=str(out), column="out")
    nb = Path(notebook) if notebook else DIVISION_NOTEBOOK
    if not nb.is_file():
        raise InputError("notebook not found", file=str(nb), column="notebook")
    _check_parameters_cell(nb)
    p.update(out=out, fmt=fmt, workers=workers, static_engine=static_engine, plotlyjs=plotlyjs, notebook=nb)
    return p


def _check_parameters_cell(path: Path) -> None:
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
    from .views import body_title, divisions as division_table, slug
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
    if state_page and STATE_NOTEBOOK.is_file():
        tasks.append(Task("state-counts", "state", f"State counts {p['year']}", str(STATE_NOTEBOOK),
                          {"year": p["year"]}, str(tmp / "state-counts.ipynb"),
                          str(tmp / "state-counts.html") if html_ok else None, None, timeout, p["plotlyjs"]))
    return tasks, empty


# ================================================================================================ worker side

_KM = None            # this worker's kernel manager (kernel reused between notebooks)
_FRESH = False
_LOG_DIR: Path | None = None
_ALLOTMENTS: dict = {}


def _worker_init(fresh: bool, log_dir: str) -> None:
    global _FRESH, _LOG_DIR
    _FRESH = fresh
    _LOG_DIR = Path(log_dir)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")   # no debugger warning from the kernels
    os.environ.setdefault("MPLBACKEND", "Agg")


def _kernel(cwd: str):
    """Start this worker's kernel once (stderr to a log file); restart it if it died."""
    global _KM
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_core.utils import run_sync
    if _KM is not None and run_sync(_KM.is_alive)():
        return _KM
    km = AsyncKernelManager(kernel_name=KERNEL)
    log = (_LOG_DIR or Path(cwd)) / f"kernel-{os.getpid()}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    fh = open(log, "ab")  # noqa: SIM115 - the kernel writes to it for its whole life
    run_sync(km.start_kernel)(cwd=cwd, stdout=fh, stderr=fh)
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


def _reset_namespace(km) -> None:
    """Reset the reused kernel's namespace (and its execution counter), so that no variable of one notebook
    reaches the next (imported modules and their caches stay: that is the time saved)."""
    from jupyter_core.utils import run_sync

    async def go():
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=30)
            reply = await kc.execute_interactive("get_ipython().reset(new_session=True)", store_history=False,
                                                 timeout=30, output_hook=lambda msg: None)
            if reply["content"].get("status") != "ok":
                raise RuntimeError(f"kernel reset failed: {reply['content']}")
        finally:
            kc.stop_channels()
    run_sync(go)()


def _allotment(m: dict):
    from .views import run_allotment
    key = (m["body"], m["year"], m["base_year"], tuple(m["options"]), tuple(m["history"]), m["units"])
    if key not in _ALLOTMENTS:
        _ALLOTMENTS[key] = run_allotment(m["body"], m["year"], base_year=m["base_year"], options=m["options"],
                                         history=m["history"], units=m["units"])
    return _ALLOTMENTS[key]


def _error_text(e: Exception) -> str:
    ename = getattr(e, "ename", type(e).__name__)
    evalue = getattr(e, "evalue", str(e))
    cell = getattr(e, "exec_count", None)
    where = f" (cell In [{cell}])" if cell else ""
    return " ".join(f"{ename}: {evalue}{where}".split())


def run_task(task: Task) -> TaskResult:
    """Run one notebook with papermill, then write its HTML page and static maps (in a worker process)."""
    import papermill as pm
    start = time.perf_counter()
    res = TaskResult(task.key, task.kind, False, 0.0)
    cwd = str(Path(task.ipynb).parent)
    try:
        kw = {}
        if not _FRESH:
            km = _kernel(cwd)
            try:
                _reset_namespace(km)
            except Exception:  # noqa: BLE001 - a kernel that cannot be reset is replaced (fresh namespace)
                _stop_kernel()
                km = _kernel(cwd)
            kw["km"] = km
        pm.execute_notebook(task.notebook, task.ipynb, parameters=task.parameters, kernel_name=KERNEL,
                            progress_bar=False, log_output=False, cwd=cwd, execution_timeout=task.timeout,
                            start_timeout=120, request_save_on_cell_execute=False, **kw)
        res.files.append(Path(task.ipynb).name)
        static_png = None
        if task.maps:
            from .views import write_static_maps
            m = task.maps
            r = _allotment(m)
            for x in write_static_maps(r.table, m["stem"], division=m["division"], title=m["title"],
                                       engine=m["engine"], body=m["body"]):
                res.maps.append({"lang": x["lang"], "png": x["png"].name, "svg": x["svg"].name,
                                 "engine": x["engine"], "mode": x["mode"], "not_drawn": x["not_drawn"],
                                 "note": x["note"]})
                if x["lang"] == "en":
                    static_png = x["png"]
        if task.html:
            notebook_to_html(task.ipynb, task.html, title=task.title, plotlyjs=task.plotlyjs, static_map=static_png)
            res.files.append(Path(task.html).name)
        res.ok = True
    except Exception as e:  # noqa: BLE001 - reported to the parent, which fails the report
        res.error = _error_text(e)
    res.seconds = round(time.perf_counter() - start, 2)
    return res


# ================================================================================================ HTML

_TEMPLATE = r"""{%- extends 'index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{% block jupyter_widgets %}{% endblock jupyter_widgets %}
{% block extra_css %}
<style type="text/css">
  nav.reservation-nav { font-family: sans-serif; padding: 8px 16px; border-bottom: 1px solid #ddd; }
  .jp-RenderedHTMLCommon table { font-size: 12px; }
  .jp-RenderedHTMLCommon td { max-width: 60em; }
</style>
{{ resources.plotly_tag }}
{% endblock extra_css %}
{%- block body_header -%}
{{ super() }}
<nav class="reservation-nav"><a href="index.html">&larr; index</a> &middot; {{ resources.page_title | e }}</nav>
{%- endblock body_header -%}
"""


#: Cells tagged so are left out of the HTML pages (kept in the notebooks): nbval's reference prints and the
#: parameter documentation.
SKIP_TAG = "report-skip"

_DEVANAGARI_RANGE = "U+0900-097F, U+1CD0-1CFF, U+200C-200D, U+20B9, U+25CC, U+A8E0-A8FF"


@lru_cache(maxsize=1)
def devanagari_font_css() -> str:
    """An ``@font-face`` rule with Noto Sans Devanagari (the font the static maps use, from the PyPI package
    ``fontpkg-noto-sans-devanagari``, OFL-1.1) as a data URI, cut to the Devanagari block and to its regular
    weight (about 0.2 MB), so that the Hindi of a page renders on a machine without a Hindi font. Empty when the
    font package or fontTools is missing (the browser's own fonts are used)."""
    import base64
    import importlib.util
    import io
    spec = importlib.util.find_spec("fontpkg_noto_sans_devanagari")
    if spec is None or not spec.submodule_search_locations:
        return ""
    ttfs = sorted(Path(list(spec.submodule_search_locations)[0]).glob("files/*.ttf"))
    if not ttfs:
        return ""
    try:
        from fontTools import subset
        from fontTools.ttLib import TTFont
        font = TTFont(str(ttfs[0]))
        if "fvar" in font:
            from fontTools.varLib import instancer
            axes = {a.axisTag: (400 if a.axisTag == "wght" else a.defaultValue) for a in font["fvar"].axes}
            font = instancer.instantiateVariableFont(font, axes)
        opts = subset.Options()
        opts.layout_features = ["*"]
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=list(range(0x0900, 0x0980)) + list(range(0x1CD0, 0x1D00)) + list(range(0xA8E0, 0xA900))
                     + [0x200C, 0x200D, 0x20B9, 0x25CC])
        sub.subset(font)
        font.flavor = "woff"
        buf = io.BytesIO()
        font.save(buf)
    except Exception:  # noqa: BLE001 - a page without the font is still a page
        return ""
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return ('@font-face { font-family: "Reservation Devanagari"; font-weight: 100 900; '
            f'src: url(data:font/woff;base64,{data}) format("woff"); unicode-range: {_DEVANAGARI_RANGE}; }}')


_FONT_VARS = """
body {
  --jp-content-font-family: "Reservation Devanagari", system-ui, -apple-system, "Segoe UI", helvetica, arial,
    sans-serif;
  --jp-ui-font-family: "Reservation Devanagari", system-ui, -apple-system, "Segoe UI", helvetica, arial, sans-serif;
  --jp-code-font-family: "Reservation Devanagari", menlo, consolas, "DejaVu Sans Mono", monospace;
}
"""

_FALLBACK_SCRIPT = """<script type="text/javascript">
window.addEventListener("load", function () {
  setTimeout(function () {
    document.querySelectorAll("details.reservation-static").forEach(function (d) {
      var gd = document.getElementById(d.dataset.figure);
      var sp = gd && gd._fullLayout && gd._fullLayout.map && gd._fullLayout.map._subplot;
      var ok = sp && sp.map && sp.map.isStyleLoaded && sp.map.isStyleLoaded();
      if (!ok) { d.open = true; d.querySelector(".reservation-static-note").hidden = false; }
    });
  }, 8000);
});
</script>"""


def _exporter():
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter
    from traitlets.config import Config
    c = Config()
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = {SKIP_TAG}
    return HTMLExporter(config=c, template_name="lab",
                        extra_loaders=[DictLoader({"reservation_report.html.j2": _TEMPLATE})],
                        template_file="reservation_report.html.j2", exclude_input=True, exclude_input_prompt=True,
                        exclude_output_prompt=True)


def _static_block(fig_id: str, png: Path, plotlyjs: str) -> str:
    """The static map under an interactive one: closed, and opened by the page's script when the interactive
    map could not draw (Chrome and Chromium block MapLibre's worker in pages opened from disk, file://)."""
    import base64
    if plotlyjs == "inline":
        src = "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode("ascii")
    else:
        src = html.escape(png.name)
    name = html.escape(png.name)
    return (f'<details class="reservation-static" data-figure="{html.escape(fig_id)}">'
            f'<summary>Static map ({name}; SVG and the Hindi map beside this page)</summary>'
            f'<p class="reservation-static-note" hidden><b>The interactive map above could not be drawn</b> '
            f'(Chrome and Chromium do not run its map engine in a page opened from disk: open the page through a '
            f'web server, e.g. <code>python -m http.server</code> in its folder, or in Firefox). '
            f'The same map as a picture:</p>'
            f'<img src="{src}" alt="static map" style="max-width:100%"></details>')


def notebook_to_html(ipynb, html_path, *, title: str = "", plotlyjs: str = "inline", static_map=None) -> Path:
    """An executed notebook -> one HTML page without the code, that works offline.

    Plotly outputs (``application/vnd.plotly.v1+json``, which nbconvert cannot show) get an HTML form made by
    :func:`plotly.io.to_html` (deterministic element ids); plotly.js is inlined once per page (``inline``:
    the page stands alone, about 4.7 MB) or loaded from ``plotly.min.js`` beside the page (``directory``). No
    script or style is fetched from the network (MathJax, require.js and mermaid are left out), stderr
    streams (warnings) and cells tagged ``report-skip`` are dropped from the page (they stay in the notebook),
    and Hindi renders with an embedded Devanagari font (:func:`devanagari_font_css`). ``static_map``: a PNG
    shown under each interactive map, opened automatically when the map cannot draw (see :func:`_static_block`).
    """
    import nbformat
    import plotly.io as pio
    if plotlyjs not in PLOTLYJS_MODES:
        raise ValueError(f"plotlyjs must be one of {PLOTLYJS_MODES}")
    nb = nbformat.read(ipynb, as_version=4)
    n = 0
    for ci, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        kept = []
        for oi, out in enumerate(cell.get("outputs", [])):
            if out.get("output_type") == "stream" and out.get("name") == "stderr":
                continue
            data = out.get("data", {})
            if PLOTLY_MIME in data:
                n += 1
                fig_id = f"reservation-figure-{ci}-{oi}"
                fig = dict(data[PLOTLY_MIME])
                page = pio.to_html(fig, include_plotlyjs=False, full_html=False, div_id=fig_id, validate=False,
                                   config={"displaylogo": False, "responsive": True})
                if static_map is not None and "map" in fig.get("layout", {}):
                    page += _static_block(fig_id, Path(static_map), plotlyjs)
                data["text/html"] = page
                del data[PLOTLY_MIME]
            kept.append(out)
        cell.outputs = kept
    nb.metadata["title"] = title or nb.metadata.get("title", "")
    html_path = Path(html_path)
    if n == 0:
        tag = ""
    elif plotlyjs == "inline":
        from plotly.offline import get_plotlyjs
        tag = f'<script type="text/javascript">{get_plotlyjs()}</script>'
    else:
        tag = '<script type="text/javascript" src="plotly.min.js"></script>'
        target = html_path.parent / "plotly.min.js"
        if not target.exists():
            from plotly.offline import get_plotlyjs
            target.write_text(get_plotlyjs(), encoding="utf-8")
    if static_map is not None:
        tag += _FALLBACK_SCRIPT
    font = devanagari_font_css()
    css = f"<style type=\"text/css\">{font}{_FONT_VARS if font else ''}</style>"
    body, _ = _exporter().from_notebook_node(nb, resources={"plotly_tag": css + tag,
                                                            "page_title": nb.metadata["title"]})
    html_path.write_text(body, encoding="utf-8")
    return html_path


# ================================================================================================ index

def write_index(folder: Path, p: dict, result, pages: list, empty: list, seconds: float) -> tuple[Path, Path]:
    """``index.html`` (links to every page and map, with the counts per category of each division) and
    ``report.json`` (the same as data). Called only when every task succeeded."""
    from . import __version__
    from .categories import CODES, COLOURS, label
    from .views.maps import boundary_source
    from .views import assumptions_table, body_title, category_summary, divisions as division_table
    from .words import word

    table = result.table
    summary = category_summary(table, "division", "en", division=p["divisions"])
    hi = dict(zip(division_table()["division"], division_table()["division_hi"]))
    by_key = {r.key: r for r in pages}
    from .views import slug
    e = html.escape
    ext = "html" if p["fmt"] == "html" else "ipynb"

    def text_colour(c):
        r, g, b = (int(c[i:i + 2], 16) for i in (1, 3, 5))
        return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"

    head = "".join(f'<th style="background:{COLOURS[c]};color:{text_colour(COLOURS[c])}" title="{e(label(c))}">'
                   f'{e(c)}<br><small>{e(label(c, "hi"))}</small></th>' for c in CODES)
    rows = []
    for d in p["divisions"]:
        key = slug(d)
        if d in empty:
            rows.append(f"<tr><td>{e(d)}</td><td>{e(hi.get(d, d))}</td><td colspan='{len(CODES) + 2}'>"
                        f"no unit of this body in the division</td></tr>")
            continue
        r = summary.loc[d]
        cells = "".join(f"<td class='n'>{int(r[label(c)])}</td>" for c in CODES)
        page = by_key[key]
        links = [f'<a href="{e(key)}.{ext}">page</a>']
        for m in page.maps:
            links.append(f'map {m["lang"]}: <a href="{e(m["png"])}">PNG</a> <a href="{e(m["svg"])}">SVG</a>')
        rows.append(f"<tr><td>{e(d)}</td><td>{e(hi.get(d, d))}</td>{cells}<td class='n'>{int(r['Total'])}</td>"
                    f"<td>{' &middot; '.join(links)}</td></tr>")
    tot = summary.loc["Total"]
    rows.append(f"<tr class='total'><td>Total</td><td>{e(word('table.total', 'hi'))}</td>" + "".join(
        f"<td class='n'>{int(tot[label(c)])}</td>" for c in CODES) + f"<td class='n'>{int(tot['Total'])}</td><td></td></tr>")
    extra = ""
    if "state-counts" in by_key:
        extra = f'<p><a href="state-counts.{ext}">State counts of every body, {p["year"]}</a></p>'
    notes = assumptions_table(result)
    note_html = "".join(f"<li><b>{e(k)}</b> {e(i)} {e(v)}</li>" for k, i, v in notes.itertuples(index=False))
    src = boundary_source()
    title = f"{body_title(p['body'])} {p['year']} / {body_title(p['body'], 'hi')} {p['year']}"
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)}</title>
<style>
{devanagari_font_css()}
body {{ font-family: "Reservation Devanagari", "Noto Sans", "Noto Sans Devanagari", sans-serif; margin: 24px;
       color: #222; }}
table {{ border-collapse: collapse; font-size: 13px; }} th, td {{ border: 1px solid #ccc; padding: 4px 6px; }}
td.n {{ text-align: right; }} tr.total td {{ font-weight: bold; }} th small {{ font-weight: normal; }}
</style></head><body>
<h1>{e(title)}</h1>
<p>{len(table)} units ({e(str(result.meta.get('posts', len(table))))} posts); rotation against
{e(', '.join(map(str, result.meta.get('history_years', []))) or 'no history')} (base year {p['base_year']});
options: {e(', '.join(p['options']) or 'defaults')}.
Generated by reservation-workbench {e(__version__)} in {seconds:.1f} s.</p>
{extra}
<table><thead><tr><th>Division</th><th>{e(word('table.division', 'hi'))}</th>{head}<th>Total<br><small>{e(word('table.total', 'hi'))}</small></th><th>Pages and maps</th></tr>
</thead><tbody>
{''.join(rows)}
</tbody></table>
<h2>Assumptions and inputs</h2><ul>{note_html}</ul>
<p><small>Boundaries: {e(src['package'])} {e(src['version'])} ({e(Path(src['file']).name)}). Static maps:
{e(', '.join(sorted({m['engine'] for r in pages for m in r.maps})) or 'none')}.</small></p>
</body></html>
"""
    index = folder / "index.html"
    index.write_text(page, encoding="utf-8")
    manifest = folder / "report.json"
    manifest.write_text(json.dumps({
        "body": p["body"], "year": p["year"], "base_year": p["base_year"], "options": p["options"],
        "history": p["history"], "units": p["units"], "format": p["fmt"], "divisions": p["divisions"],
        "empty_divisions": empty, "seconds": round(seconds, 2), "version": __version__,
        "pages": [asdict(r) for r in pages],
        "counts": {d: {c: int(summary.loc[d, label(c)]) for c in CODES} for d in summary.index},
    }, ensure_ascii=False, indent=2, default=str) + "\n", encoding="utf-8")
    return index, manifest


# ================================================================================================ running

def _publish(tmp: Path, out: Path) -> None:
    """Replace ``out`` by ``tmp`` (same parent folder, so the final step is a rename)."""
    old = None
    if out.exists():
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        out.rename(old)
    tmp.rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def run_report(body, year, divisions="all", *, out=None, fmt="html", base_year=2015, options=(), history=(),
               units="", workers=2, static_engine="matplotlib", plotlyjs="inline", progress=True,
               fresh_kernels=False, state_page=True, notebook=None, timeout=600) -> ReportResult:
    """Validate, run every notebook, and publish the report at ``out`` (see the module docstring).

    Raises :class:`InputError` for a bad parameter (before anything runs) and :class:`ReportFailed` when a
    notebook fails (nothing is published at ``out``; the executed notebooks are kept in ``<out>.failed``)."""
    from tqdm import tqdm
    from .views import run_allotment
    start = time.perf_counter()
    p = validate(body, year, divisions, out=out, fmt=fmt, base_year=base_year, options=options, history=history,
                 units=units, workers=workers, static_engine=static_engine, plotlyjs=plotlyjs, notebook=notebook)
    result = run_allotment(p["body"], p["year"], base_year=p["base_year"], options=p["options"],
                           history=p["history"], units=p["units"])
    out = p["out"].resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    tasks, empty = plan(p, result, tmp, timeout=timeout, state_page=state_page)
    if not any(t.kind == "division" for t in tasks):
        shutil.rmtree(tmp, ignore_errors=True)
        raise InputError(f"{p['body']} has no unit in {', '.join(p['divisions'])}", column="division")
    _ALLOTMENTS[(p["body"], p["year"], p["base_year"], tuple(p["options"]), tuple(p["history"]), p["units"])] = result
    results: list[TaskResult] = []
    log_dir = tmp / "logs"
    n_workers = min(p["workers"], len(tasks))
    try:
        with ProcessPoolExecutor(max_workers=n_workers, initializer=_worker_init,
                                 initargs=(fresh_kernels, str(log_dir))) as pool:
            pending = {pool.submit(run_task, t): t for t in tasks}
            bar = tqdm(total=len(tasks), desc=f"{p['body']} {p['year']}", unit="notebook", file=sys.stderr,
                       disable=not progress, dynamic_ncols=True)
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
            bar.close()
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    failures = [r for r in results if not r.ok]
    cancelled = len(tasks) - len(results)
    if failures:
        kept = out.with_name(out.name + ".failed")
        if kept.exists():
            shutil.rmtree(kept, ignore_errors=True)
        tmp.rename(kept)
        msg = "; ".join(f"{r.key}: {r.error}" for r in failures)
        raise ReportFailed(f"{len(failures)} of {len(tasks)} notebooks failed ({msg})"
                           + (f"; {cancelled} not run" if cancelled else "")
                           + f"; no index written; executed notebooks kept in {kept}", failures, kept)
    order = {t.key: i for i, t in enumerate(tasks)}
    results.sort(key=lambda r: order[r.key])
    shutil.rmtree(log_dir, ignore_errors=True)
    seconds = time.perf_counter() - start
    index, manifest = write_index(tmp, p, result, results, empty, seconds)
    _publish(tmp, out)
    return ReportResult(out, results, round(time.perf_counter() - start, 2), out / index.name, out / manifest.name)
