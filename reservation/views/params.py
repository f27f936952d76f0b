"""Parameters of the notebooks, the reports and the explorer: checked once, and the one place where a view asks
for an allotment (:func:`run_allotment`, through the one pipeline :func:`reservation.allotment.pipeline.allot`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..base.errors import InputError
from ..law.words import BODY_TITLES_HI, check_lang
from .places import resolve_divisions

__all__ = ["check_parameters", "run_allotment", "body_title", "body_choices", "option_rows", "option_assignments",
           "body_needs_units", "REPORT_CACHE_ENV", "allotment_file", "save_allotment", "saved_allotment"]

#: Set by ``reservation report`` in its workers (hence their kernels): the folder where the report's parent left
#: what every page would otherwise compute again: the allotment (:func:`save_allotment`; 0.05 s of CPU per page for
#: zp-chair, 0.35 s for kp-chair) and the cleaned district boundaries
#: (:func:`reservation.views.maps.boundaries.save_cleaned`; 0.5 s per kernel). Unset, as when a notebook is run by
#: hand, they are computed.
REPORT_CACHE_ENV = "RESERVATION_REPORT_CACHE"


def option_assignments(options) -> list[tuple[str, str]]:
    """Options as ``["name=value", ...]``, ``[(name, value), ...]`` or ``{name: value}`` -> pairs."""
    from ..inputs.options import parse_assignments
    if options is None:
        return []
    if isinstance(options, dict):
        return [(str(k), str(v)) for k, v in options.items()]
    if isinstance(options, str):
        raise InputError("options must be a list of NAME=VALUE strings, not one string", column="options")
    pairs = []
    for item in options:
        if isinstance(item, str):
            pairs += parse_assignments([item])
        elif isinstance(item, (tuple, list)) and len(item) == 2:
            pairs.append((str(item[0]), str(item[1])))
        else:
            raise InputError(f"option {item!r} is not NAME=VALUE", column="options")
    return pairs


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def body_needs_units(body: str) -> tuple[bool, bool]:
    """``(needs, accepts)``: whether the body needs a units file, and whether it accepts one."""
    from ..rules.registry import get_rulebook
    b = get_rulebook(body)
    return b.needs_units, b.accepts_units


def check_parameters(body, year, *, division="all", base_year=2015, options=(), history=(), units="") -> dict:
    """Validate the parameters of a notebook or a report before anything runs; return them normalised.

    Checks types (``year`` and ``base_year`` integers, ``body`` text, ``options`` NAME=VALUE strings, ``history``
    file paths), that the body is registered, that it has rules for the year, every division (see
    :func:`resolve_divisions`), every option name and value, that history files exist and that a units file is
    given exactly when the body needs one. Raises :class:`InputError` with the parameter as ``column``.
    Returns ``{"body", "year", "divisions", "base_year", "options" (list of "n=v"), "history" (list of str),
    "units" (str)}``.
    """
    from ..rules.registry import get_rulebook
    if not isinstance(body, str):
        raise InputError(f"body must be text, not {type(body).__name__} {body!r}", column="body")
    if not _is_int(year):
        raise InputError(f"year must be an integer, not {type(year).__name__} {year!r}", column="year")
    if not _is_int(base_year):
        raise InputError(f"base_year must be an integer, not {type(base_year).__name__} {base_year!r}",
                         column="base_year")
    try:
        b = get_rulebook(body)
        b.years.check(body, int(year))
    except InputError as e:
        raise InputError(e.message, column="body" if e.option == "--body" else "year") from None
    if int(base_year) > int(year):
        raise InputError(f"base_year {base_year} is after the election year {year}", column="base_year")
    pairs = option_assignments(options)
    b.option_set(pairs)                                    # unknown names or values raise InputError
    if isinstance(history, str):
        history = [history] if history else []
    hist = []
    for h in history or ():
        if not isinstance(h, (str, Path)):
            raise InputError(f"history must be file paths, not {type(h).__name__}", column="history")
        if not Path(h).is_file():
            raise InputError("history file not found", file=str(h), column="history")
        hist.append(str(h))
    units = "" if units is None else units
    if not isinstance(units, (str, Path)):
        raise InputError(f"units must be a file path, not {type(units).__name__}", column="units")
    units = str(units)
    needs, accepts = body_needs_units(body)
    if needs and not units:
        raise InputError(f"{body} needs a units file (its units and populations are not shipped): give units=FILE "
                         f"(--units FILE on the command line)", column="units")
    if units and not accepts:
        raise InputError(f"{body} has its units built in; a units file is only for bodies that need or accept one",
                         column="units")
    if units and not Path(units).is_file():
        raise InputError("units file not found", file=units, column="units")
    return {"body": body, "year": int(year), "divisions": resolve_divisions(division), "base_year": int(base_year),
            "options": [f"{n}={v}" for n, v in pairs], "history": hist, "units": units}


def allotment_file(folder, body: str, year: int, *, base_year: int = 2015, options=(), history=(),
                   units="") -> Path:
    """Where :func:`save_allotment` keeps the allotment of these parameters in ``folder``: a name made from the
    parameters and the size and time of each input file named (an edited file is another allotment)."""
    import hashlib
    import json
    if isinstance(history, str):
        history = [history] if history else []

    def stamp(f):
        st = Path(f).stat() if Path(f).is_file() else None
        return [str(f), st.st_size if st else None, st.st_mtime_ns if st else None]
    key = json.dumps([body, int(year), int(base_year), [f"{n}={v}" for n, v in option_assignments(options)],
                      [stamp(h) for h in history], stamp(units) if units else ""])
    return Path(folder) / f"allotment-{hashlib.sha256(key.encode()).hexdigest()[:24]}.pickle"


def save_allotment(result, folder, body: str, year: int, **params) -> Path:
    """Keep ``result`` (the allotment of these parameters) in ``folder`` for the kernels of a report (see
    :data:`REPORT_CACHE_ENV`)."""
    import pickle
    path = allotment_file(folder, body, year, **params)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    return path


def saved_allotment(folder, body: str, year: int, *, base_year: int = 2015, options=(), history=(), units=""):
    """The allotment :func:`save_allotment` kept in ``folder`` for these parameters, or None when there is none."""
    import pickle
    path = allotment_file(folder, body, year, base_year=base_year, options=options, history=history,
                          units=str(units) if units else "")
    return pickle.loads(path.read_bytes()) if path.is_file() else None


def run_allotment(body: str, year: int, *, base_year: int = 2015, options=(), history=(), units="",
                  population=None, pins=None):
    """The allotment of any registered body (:func:`reservation.allotment.pipeline.allot`, the one pipeline; a units file
    for the bodies that need or accept one). ``options``: ``["name=value", ...]``, pairs or a dict.

    In a kernel of ``reservation report`` (:data:`REPORT_CACHE_ENV` set) the allotment its parent computed with
    the same parameters is loaded instead (a pickle the report wrote in its own work folder)."""
    import os

    from ..allotment.pipeline import allot
    if isinstance(history, str):
        history = [history] if history else []
    cache = os.environ.get(REPORT_CACHE_ENV)
    if cache and population is None and pins is None:
        saved = saved_allotment(cache, body, year, base_year=base_year, options=options, history=history,
                                units=units)
        if saved is not None:
            return saved
    return allot(body, int(year), units=str(units) if units else None, history=list(history) or None,
                 base_year=int(base_year), population=population, pins=pins, options=option_assignments(options))


def body_title(body: str, lang: str = "en") -> str:
    from ..rules.registry import MODULES, get_rulebook
    check_lang(lang)
    en = get_rulebook(body).title if body in MODULES else body
    return BODY_TITLES_HI.get(body, en) if lang == "hi" else en


def body_choices(include_needs_units: bool = False) -> pd.DataFrame:
    """The registered bodies: ``body, title, title_hi, unit, years, needs_units`` (the registry, not a list)."""
    from ..rules.registry import all_rulebooks
    rows = [{"body": k, "title": b.title, "title_hi": body_title(k, "hi"), "unit": b.unit_kind,
             "years": b.offered_years, "needs_units": b.needs_units} for k, b in all_rulebooks().items()
            if include_needs_units or not b.needs_units]
    return pd.DataFrame(rows, columns=["body", "title", "title_hi", "unit", "years", "needs_units"])


def option_rows(body: str) -> pd.DataFrame:
    """The body's ambiguity options (``option, ambiguity, default, choices, reading_of_default, evidence``)."""
    from ..rules.registry import get_rulebook
    return pd.DataFrame(get_rulebook(body).option_set().describe())
