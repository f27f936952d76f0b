"""A report's notebooks run in the worker's own Python instead of a Jupyter kernel: papermill does what it always
does (parameters, metadata, errors, writing the notebook) with an engine of its own kind (:class:`InProcessEngine`)
that runs each code cell in an IPython shell of this process and keeps what a kernel would have sent for it.

Why: a kernel is a second Python that imports pandas, plotly, the map libraries and this package again (1.4 s
of CPU per worker), and every output travels to papermill as messages (0.1 s of CPU a notebook on papermill's side
and more in the kernel): about a sixth of a report's CPU on two cores.

The outputs are the kernel's, made the way ipykernel makes them: the same IPython formatters; each display and
result cleaned and serialised as ipykernel and jupyter_client do, and turned into a notebook output by nbformat
as nbclient does; printed text kept per stream and flushed, stdout then stderr, before each display, each result,
each error and at the end of the cell (ipykernel flushes there too, and on a timer that makes its splits depend on
timing; the report joins consecutive stream outputs anyway); ``execution_count`` as the kernel counts; a failing
cell ends the run as nbclient ends it (:class:`nbclient.exceptions.CellExecutionError`, which papermill records).
``language_info`` is ipykernel's. Libraries that ask whether they run in a notebook front end look for "zmq" in
the shell's type (pandas does, for the width of a table's text): the shell carries that word, as the kernel's
does. Tested against a kernel's own output, byte for byte (tests/test_report_inprocess.py).

The shell is made once per worker; before each notebook its namespace is reset (as the kernel each worker reused
before this module was); papermill works in the notebook's folder while it runs. ``reservation report
--fresh-kernels`` still starts a kernel per notebook.
"""

from __future__ import annotations

import contextlib
import functools
import json
import signal
import sys

__all__ = ["ENGINE", "register", "warm", "shell"]

#: The name under which papermill knows this engine.
ENGINE = "reservation-inprocess"
_SHELL = None


class _Collector:
    """The outputs of the cell being run, in order, and the text printed since the last flush, per stream."""

    def __init__(self):
        self.outputs: list = []
        self.pending = {"stdout": [], "stderr": []}
        self.displays: dict = {}            # display_id -> outputs showing it (update_display_data)

    def flush(self) -> None:
        for name in ("stdout", "stderr"):       # ipykernel flushes stdout, then stderr
            text = "".join(self.pending[name])
            self.pending[name] = []
            if text:
                self.add("stream", {"name": name, "text": text})

    def add(self, msg_type: str, content: dict, display_id: str | None = None) -> None:
        """An output from a message as the kernel would have sent it: cleaned and serialised as ipykernel and
        jupyter_client do, read back, and made an output by nbformat (as nbclient makes it)."""
        from ipykernel.jsonutil import json_clean
        from jupyter_client.session import json_packer
        from nbformat.v4 import output_from_msg
        content = json.loads(json_packer(json_clean(content)))
        if msg_type == "update_display_data":
            new = output_from_msg({"header": {"msg_type": "display_data"}, "content": content})
            for out in self.displays.get(display_id, []):
                out["data"], out["metadata"] = new["data"], new["metadata"]
            return
        out = output_from_msg({"header": {"msg_type": msg_type}, "content": content})
        self.outputs.append(out)
        if display_id:
            self.displays.setdefault(display_id, []).append(out)


_CELL: _Collector | None = None


class _Stream:
    """``sys.stdout`` / ``sys.stderr`` while a cell runs: what is written waits for the next flush."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self, name: str):
        self.name = name

    def write(self, text) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if _CELL is not None and text:
            _CELL.pending[self.name].append(text)
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if _CELL is not None:
            _CELL.flush()

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError("a notebook's output has no file descriptor")


def _classes():
    """The shell, its display publisher and its display hook (IPython imported on first use)."""
    from IPython.core.displayhook import DisplayHook
    from IPython.core.displaypub import DisplayPublisher
    from IPython.core.interactiveshell import InteractiveShell
    from ipykernel.jsonutil import encode_images
    from traitlets import Type

    class Publisher(DisplayPublisher):
        """``display()``: a ``display_data`` output (streams flushed first)."""

        def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs):
            _CELL.flush()
            transient = transient or {}
            content = {"data": encode_images(data), "metadata": metadata or {}, "transient": transient}
            _CELL.add("update_display_data" if update else "display_data", content, transient.get("display_id"))

        def clear_output(self, wait=False):
            _CELL.flush()
            _CELL.outputs.clear()

    class Hook(DisplayHook):
        """A cell's last value: an ``execute_result`` output (streams flushed first)."""

        def start_displayhook(self):
            self.msg = {"data": {}, "metadata": {}}

        def write_output_prompt(self):
            self.msg["execution_count"] = self.prompt_count

        def write_format_data(self, format_dict, md_dict=None):
            self.msg["data"] = encode_images(format_dict)
            self.msg["metadata"] = md_dict

        def finish_displayhook(self):
            _CELL.flush()
            if self.msg and self.msg["data"]:
                _CELL.add("execute_result", self.msg)
            self.msg = None

    class InProcessZMQCompatibleShell(InteractiveShell):
        """The shell of a report's worker, standing for a kernel's (the name says "ZMQ" for the libraries that
        recognise a notebook front end by it: see the module's docstring)."""

        display_pub_class = Type(Publisher)
        displayhook_class = Type(Hook)

        def _showtraceback(self, etype, evalue, stb):
            _CELL.flush()
            _CELL.add("error", {"traceback": stb, "ename": str(etype.__name__), "evalue": str(evalue)})
            self._last_traceback = stb

    return InProcessZMQCompatibleShell


def shell():
    """This process's shell (made on first use; the history is kept in memory, never in a file)."""
    global _SHELL
    if _SHELL is None:
        from traitlets.config import Config
        cfg = Config()
        cfg.HistoryManager.enabled = False
        from IPython.core.interactiveshell import InteractiveShell
        InteractiveShell.clear_instance()       # one this process inherited (a test runner's) is set aside
        _SHELL = _classes().instance(config=cfg)
        # pandas sets one default by where it is first imported: display.max_columns is 0 (fit the terminal)
        # outside a kernel and 20 inside one (pandas.core.config_init.is_terminal); this process imported it
        # outside, so a wide table's text would be cut where the kernel's is wrapped
        import pandas as pd
        pd.set_option("display.max_columns", KERNEL_MAX_COLUMNS)
    return _SHELL


#: pandas' display.max_columns when it is imported in a Jupyter kernel.
KERNEL_MAX_COLUMNS = 20


def warm(code: str) -> None:
    """Make the shell and run ``code`` (imports) in a namespace of its own, before any notebook."""
    shell()
    exec(compile(code, "<report warm-up>", "exec"), {})


def register() -> None:
    """Make :class:`InProcessEngine` known to papermill as :data:`ENGINE` (once)."""
    from papermill.engines import papermill_engines
    if ENGINE not in papermill_engines._engines:
        papermill_engines.register(ENGINE, _engine_class())


@contextlib.contextmanager
def _kernel_warnings():
    """While a notebook runs, warnings as in a new kernel: none counted as shown before (``catch_warnings`` makes
    every module's record of the warnings it showed stale), and not the filter the command line sets for its own
    process (it prints every assumption itself and hides BaseYearWarning; a notebook shows it, as in Jupyter),
    shown on the notebook's stderr.
    Each notebook's output is then the same whichever notebooks its worker ran before."""
    import warnings

    from ..rules.rulebook import BaseYearWarning
    def show(message, category, filename, lineno, file=None, line=None):    # what Python's default does
        (file or sys.stderr).write(warnings.formatwarning(message, category, filename, lineno, line))

    with warnings.catch_warnings():
        warnings.filters[:] = [f for f in warnings.filters if f[2] is not BaseYearWarning]
        warnings.onceregistry.clear()
        warnings.showwarning = show       # not whatever the process had (a test runner records them)
        yield


def _timeout(signum, frame):
    raise TimeoutError("the cell ran longer than the report's limit")


@contextlib.contextmanager
def _cell(seconds):
    """While a cell runs: its collector, the streams replaced, and (``seconds``) an alarm that stops it."""
    global _CELL
    _CELL = _Collector()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Stream("stdout"), _Stream("stderr")
    alarm = signal.signal(signal.SIGALRM, _timeout) if seconds else None
    if seconds:
        signal.setitimer(signal.ITIMER_REAL, float(seconds))
    try:
        yield _CELL
    finally:
        if seconds:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, alarm)
        _CELL.flush()
        sys.stdout, sys.stderr = old
        _CELL = None


def _run_cell(sh, cell, seconds) -> dict | None:
    """Run a code cell; its outputs and execution count set as nbclient sets them. Returns the error content
    (ename, evalue, traceback) when it failed, else None."""
    count = sh.execution_count
    cell["execution_count"] = count              # what the kernel's execute_input says
    with _cell(seconds) as c:
        result = sh.run_cell(cell.source, store_history=True)
    cell.outputs = c.outputs
    if result.success:
        return None
    err = next((o for o in c.outputs if o.get("output_type") == "error"), None)
    if err is None:
        e = result.error_in_exec or result.error_before_exec
        return {"ename": type(e).__name__, "evalue": str(e), "traceback": []}
    return {"ename": err["ename"], "evalue": err["evalue"], "traceback": list(err["traceback"])}


@functools.lru_cache(maxsize=1)
def _engine_class():
    from papermill.engines import Engine

    class InProcessEngine(Engine):
        """Papermill's engine that runs a notebook in this process (see the module's docstring)."""

        @classmethod
        def execute_managed_notebook(cls, nb_man, kernel_name, execution_timeout=None, **kwargs):
            import gc

            from ipykernel.ipkernel import IPythonKernel
            sh = shell()
            sh.reset(new_session=True)
            gc.freeze()         # what survives (modules, caches) is not walked by later collections
            nb = nb_man.nb                    # papermill works in the notebook's folder (its cwd) meanwhile
            with _kernel_warnings():
                _run_cells(nb_man, sh, execution_timeout)
            nb.metadata["language_info"] = json.loads(json.dumps(IPythonKernel.language_info))
            return nb

    return InProcessEngine


def _run_cells(nb_man, sh, seconds) -> None:
    """Run the notebook's code cells in order, as papermill's client does: each cell's start, exception and
    completion recorded by papermill's manager; the first failing cell ends the run."""
    from nbclient.exceptions import CellExecutionError
    nb = nb_man.nb
    for index, cell in enumerate(nb.cells):
        try:
            nb_man.cell_start(cell, index)
            if cell.cell_type != "code" or not cell.source.strip():
                continue
            err = _run_cell(sh, cell, seconds)
            if err is not None:
                raise CellExecutionError.from_cell_and_msg(cell, err)
        except CellExecutionError as ex:
            nb_man.cell_exception(nb.cells[index], cell_index=index, exception=ex)
            break
        finally:
            nb_man.cell_complete(nb.cells[index], cell_index=index)


def __getattr__(name):
    if name == "InProcessEngine":
        return _engine_class()
    raise AttributeError(name)
