"""The reservation workbench: compute, explain and audit UP local-body reservations.

From Python (a notebook needs no command line)::

    from reservation import allot, counts, explain_text
    result = allot("zp-chair", 2021)          # an Allotment: .table, .trace, .counts, .meta, .history
    allot("gp-pradhan", 2021, units="gps.csv", history=["gp_2015.csv"], options=["tie_break=code"])
    counts("zp-chair", 2021)                  # DataFrame: category, count, arithmetic, clause
    option_table("zp-chair")                  # the ambiguity switches, defaults and evidence
    print(explain_text(result, "Lucknow"))

Every body takes the same keyword arguments: ``units=``, ``history=``, ``population=``, ``pins=``,
``options=``, ``base_year=`` (see :func:`reservation.allotment.pipeline.allot`).
"""

from .base.version import __version__

__all__ = ["allot", "counts", "explain_text", "option_table", "bodies", "audit", "diff", "__version__"]


def allot(body: str, year: int, *, units=None, history=None, population=None, pins=None, options=(),
          base_year=None, published=None, samples: int = 0, seed: int = 0):
    """The allotment of a body for a year (an :class:`~reservation.allotment.result.Allotment`); the same inputs as
    ``reservation allot``. Its ``answer`` (published, status, possible) is computed on the first read of
    ``table`` or ``meta``; ``published``: the list to compare with (None: the shipped one). For an election not
    yet held, ``samples`` > 0 attaches the projection's probabilities (``reservation allot`` uses 1000 and seed 0,
    as ``reservation project``; 0, the default here, leaves them out: a notebook stays fast)."""
    from .answers.future import allot_answered
    return allot_answered(body, year, units=units, history=history, population=population, pins=pins,
                          options=options, base_year=base_year, published=published, samples=samples, seed=seed,
                          progress=False)


def counts(body: str, year: int, *, units=None, options=(), lang: str = "en"):
    """Counts per category for a body and year (rows ST_W ... UR, then TOTAL, with the arithmetic and clause,
    in ``lang``: "en" or "hi")."""
    from .allotment.pipeline import counts as _counts
    return _counts(body, year, units=units, options=options, lang=lang)


def option_table(body: str):
    """The named ambiguity switches of a body: option, ambiguity, default, choices, reading, evidence."""
    import pandas as pd
    from .rules.registry import get_rulebook
    return pd.DataFrame(get_rulebook(body).option_set().describe())


def bodies():
    """The registered bodies: id -> rulebook (title, unit kind, years, which inputs it takes)."""
    from .rules.registry import all_rulebooks
    return all_rulebooks()


def explain_text(result, unit, lang: str = "en") -> str:
    """What ``reservation explain`` prints for one unit of an allotment, in ``lang`` ("en" or "hi")."""
    from .allotment.explain import explain_text as _e
    return _e(result, unit, lang=lang)


def audit(body: str, year: int, published, **kw):
    """Compare a published list with the law and the computation (see :func:`reservation.auditing.audit.audit`)."""
    from .auditing.audit import audit as _audit
    return _audit(body, year, published, **kw)


def diff(body: str, year: int, a, b, **kw):
    """The units whose category differs between two scenarios (see :func:`reservation.auditing.scenarios.diff`)."""
    from .auditing.scenarios import diff as _diff
    return _diff(body, year, a, b, **kw)
