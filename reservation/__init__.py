"""The reservation workbench: compute, explain and audit UP local-body reservations.

From Python (a notebook needs no command line)::

    from reservation import allot, counts, explain_text
    result = allot("zp-chair", 2021)          # an Allotment: .table, .trace, .counts, .meta, .history
    counts("zp-chair", 2021)                  # DataFrame: category, count, arithmetic, clause
    option_table("zp-chair")                  # the ambiguity switches, defaults and evidence
    print(explain_text(result, "Lucknow"))
"""

__version__ = "0.1.0"

__all__ = ["allot", "counts", "explain_text", "option_table", "BODIES", "__version__"]


def _body(body_id, year=None):
    from .bodies import get_body
    return get_body(body_id, year)


def counts(body: str, year: int, options=()):
    """State counts per category for a body and year (rows ST_W ... UR, then TOTAL)."""
    b = _body(body, year)
    return b.counts(year, b.options(list(options)))


def allot(body: str, year: int, *, history=None, base_year: int = 2015, population=None, pins=None, options=()):
    """The allotment of a body for a year; the same arguments as ``reservation allot``."""
    b = _body(body, year)
    return b.allot(year, history_paths=history, base_year=base_year, population_path=population, pin_path=pins,
                   options=b.options(list(options)))


def option_table(body: str):
    """The named ambiguity switches of a body: option, ambiguity, default, choices, reading, evidence."""
    import pandas as pd
    return pd.DataFrame(_body(body).options(()).describe())


def explain_text(result, unit) -> str:
    from .explain import explain_text as _e
    return _e(result, unit)


def __getattr__(name):
    if name == "BODIES":
        from .bodies import BODIES
        return BODIES
    raise AttributeError(name)
