"""The one check of every notebook's parameter cell: :func:`check_notebook`.

Each notebook's first code cell after its ``parameters`` cell calls ``views.check_notebook("07", **params)``
with the names of its parameter cell; nothing else in a notebook checks a value. A bad value raises
:class:`~reservation.base.errors.InputError` with one line naming the parameter and the bound (the same bounds as the
command line, :mod:`reservation.inputs.limits`): a year outside 1950-2100, ``samples`` above 100,000, an ``obc_sd`` that
is zero, negative, NaN, inf or '1e309', an empty division, a name with a control character or 10,000 characters
(quoted as a short excerpt).
"""

from __future__ import annotations

from pathlib import Path

from ..base.errors import InputError, NotebookParameterError, bounded, excerpt
from ..inputs.nearest import did_you_mean
from ..inputs.limits import MAX_OBC_SD, MAX_PATH, MIN_OBC_SD, check_count, check_decimal, check_text
from .figures import notebook_display

__all__ = ["check_notebook", "NOTEBOOK_PARAMETERS"]

#: notebook -> the names of its parameter cell (notebooks/NN_*.ipynb, the cell tagged ``parameters``).
NOTEBOOK_PARAMETERS: dict[str, tuple[str, ...]] = {
    "01": ("year",),
    "02": ("body", "year", "division", "base_year", "options", "history", "units"),
    "03": ("body", "year", "unit", "division", "base_year", "history"),
    "04": ("body",),
    "05": ("district", "year", "part", "category", "lot_winner"),
    "06": ("body", "year", "published", "base_year", "compare", "compare_base_year", "search_options"),
    "07": ("body", "year", "samples", "seed", "obc_sd", "history", "units", "options", "base_year"),
    "08": ("year", "base_year", "options", "district", "block", "readings"),
}

_YEARS = {"year": "year", "base_year": "base_year", "compare_base_year": "base_year"}
_COUNTS = ("samples", "seed")
#: text parameters that must name something (the others may be "": not given)
_NAMES = {"body", "division", "district", "published", "part", "category", "readings"}
_TEXTS = {"unit", "lot_winner", "block", "compare"}


def _one(name: str, value):
    """One parameter checked on its own (type, bound, printable text); returns it normalised."""
    if name in _YEARS:
        if value is None and name == "base_year":
            return None                             # notebook 07: the rulebook's base year
        return check_count(_YEARS[name], value, option=name)
    if name in _COUNTS:
        return check_count(name, value, option=name)
    if name == "obc_sd":
        return check_decimal("obc_sd", value, low=MIN_OBC_SD, high=MAX_OBC_SD, low_open=False, option=name)
    if name in _NAMES or name in _TEXTS:
        return check_text(value, option=name, empty_ok=name in _TEXTS,
                          longest=MAX_PATH if name == "published" else None)
    if name == "search_options":
        if not isinstance(value, bool):
            raise InputError(f"{excerpt(value)} is not True or False", option=name)
        return value
    if name == "history":
        items = [value] if isinstance(value, (str, Path)) else value
        if items is None or isinstance(items, (bytes, dict)) or not hasattr(items, "__iter__"):
            raise InputError(f"{excerpt(value)} is not a list of file paths", option=name)
        return [_path(name, h) for h in items if str(h) != ""]
    if name == "units":
        return "" if value in (None, "") else _path(name, value)
    if name == "options":
        from .params import option_assignments
        try:
            pairs = option_assignments(value)
        except InputError as e:
            raise InputError(e.message, option=name) from None
        for n, v in pairs:
            check_text(n, option=name)
            check_text(v, option=name, empty_ok=True)
        return [f"{n}={v}" for n, v in pairs]
    return value


def _path(name: str, value) -> str:
    if not isinstance(value, (str, Path)):
        raise InputError(f"{excerpt(value)} is not a file path", option=name)
    check_text(str(value), option=name, longest=MAX_PATH)
    if not Path(value).is_file():
        raise InputError(f"{excerpt(str(value))}: file not found", option=name)
    return str(value)


def check_notebook(notebook: str, **params) -> dict:
    """Check the parameter cell of ``notebook`` ("01" ... "08", or a file name such as "07_projection.ipynb")
    before anything runs; return the values normalised (years and counts as int, texts checked, file lists).

    Every parameter goes through the same bounds as the command line (:mod:`reservation.inputs.limits`); then the
    notebook's own checks run (a registered body with rules for the year, known divisions, units, districts and
    option values: :func:`reservation.views.check_parameters`; notebook 08:
    :func:`reservation.history.backtest.check_parameters`). A bad value raises
    :class:`~reservation.base.errors.NotebookParameterError` (an InputError): one line naming the parameter as the
    parameter cell does, with the nearest valid value where one is near (``division: unknown division 'Varansi';
    did you mean 'Varanasi'?``); in Jupyter and papermill its traceback is that one line. Then sets the notebook's
    table display (:func:`reservation.views.figures.notebook_display`)."""
    key = str(notebook)[:2]
    if key not in NOTEBOOK_PARAMETERS:
        raise NotebookParameterError(f"unknown notebook {excerpt(notebook)}; known: {', '.join(NOTEBOOK_PARAMETERS)}",
                                     parameter="notebook")
    names = NOTEBOOK_PARAMETERS[key]
    unknown = [n for n in params if n not in names]
    if unknown:
        raise NotebookParameterError(f"notebook {key} has no parameter {excerpt(unknown[0])}"
                                     f"{did_you_mean(str(unknown[0]), list(names))} (its parameters: "
                                     f"{', '.join(names)})", parameter=bounded(unknown[0], 60))
    out = {}
    for n, v in params.items():
        try:
            out[n] = _one(n, v)
        except NotebookParameterError:
            raise
        except InputError as e:
            raise _named(e, names, n) from None
    try:
        out.update(_semantics(key, out))
    except NotebookParameterError:
        raise
    except InputError as e:
        raise _named(e, names, None) from None
    notebook_display()                   # tables up to MAX_TABLE_ROWS rows shown whole (and exported whole)
    return out


#: what the command line or a reader calls a value -> the notebook's parameter
_FLAGS = {"--body": "body", "--year": "year", "--option": "options", "--division": "division",
          "--base-year": "base_year", "--district": "district", "--history": "history", "--units": "units",
          "--unit": "unit", "--block": "block", "--samples": "samples", "--seed": "seed", "--obc-sd": "obc_sd"}


def _named(e: InputError, names: tuple[str, ...], given: str | None) -> NotebookParameterError:
    """An InputError raised by a check the command line shares -> the same message naming the notebook's
    parameter (``division``), not a column or a flag; an option's own name (``tie_break``) stays in the message
    of ``options``; a file keeps its name (and row)."""
    where = [w for w in (e.option, e.column) if w is not None]
    param = next((w for w in where if w in names), None) or next(
        (_FLAGS[w] for w in where if w in _FLAGS and _FLAGS[w] in names), None)
    message = e.message
    if param is None and e.column is not None and "options" in names:
        param, message = "options", f"{e.column}: {message}"         # an option's value: tie_break: 'cod' ...
    if e.file is not None and not message.startswith(excerpt(str(e.file))):
        row = f", row {e.row}" if e.row is not None else ""
        message = f"{excerpt(str(e.file))}{row}: {message}"
    return NotebookParameterError(message, parameter=param or given or "parameters")


def _semantics(key: str, p: dict) -> dict:
    """What a value means beyond its bound: the body and its years, the divisions, the units, the options.
    Returns what the notebook's own check adds (``divisions``; notebook 08: its normalised parameters and
    ``grid``)."""
    from .params import check_parameters
    if key in ("02", "03", "07"):
        base = p.get("base_year")
        kw = {k: p[k] for k in ("division", "options", "history", "units") if k in p}
        got = check_parameters(p["body"], p["year"], base_year=p["year"] if base is None else base, **kw)
        if p.get("unit"):
            _check_unit(p["body"], p["year"], p["unit"])
        return {"divisions": got["divisions"]} if "division" in p else {}
    elif key in ("04", "06"):
        from ..rules.registry import get_rulebook
        b = get_rulebook(p["body"])
        if "year" in p:
            b.years.check(p["body"], p["year"])
        for y in ("base_year", "compare_base_year"):
            if y in p and p[y] > p["year"]:
                raise InputError(f"{p[y]} is after the election year {p['year']}", option=y)
    elif key == "05":
        from ..dpc.seats import check_year
        from ..inputs.names import crosswalk
        from .dpc import check_contest
        check_year(p["year"])
        try:
            crosswalk().resolve(p["district"])
        except KeyError as e:
            raise InputError(str(e.args[0]), option="district") from None
        check_contest(p["part"], p["category"])
    elif key == "08":
        from ..history.backtest import check_parameters as backtest_parameters
        return backtest_parameters(p["year"], p["base_year"], p["options"], p["district"], p["block"],
                                   p["readings"])
    return {}


def _check_unit(body: str, year: int, unit: str) -> None:
    """A unit of a body whose units are shipped (notebook 03's ``unit``), by code or name, refused as
    ``reservation explain`` refuses it (:func:`reservation.allotment.explain.resolve_unit`: the nearest names, or
    the bodies that hold a unit of that name). A body that reads its units from a file is checked when the notebook
    reads it."""
    from types import SimpleNamespace

    from ..allotment.explain import resolve_unit
    from ..rules.registry import get_rulebook
    b = get_rulebook(body)
    if not b.needs_units:
        units = b.load_units(None, year, b.option_set())
        resolve_unit(SimpleNamespace(resolve=units.resolve, body=body, year=year), unit)
