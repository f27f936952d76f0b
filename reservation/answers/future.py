"""An election not yet held: the allotment's table and ``explain`` carry the projection's probabilities.

For a year after the last election held (``rb.years.is_next``), :func:`allot_answered` runs the allotment and the
projection (:func:`reservation.projection.project.project`) with the same inputs and the ``reservation project``
defaults (:data:`SAMPLES` samples, seed :data:`SEED`, the prior's spread ``DEFAULT_OBC_SD``, the past lists as
constraints), and attaches the probabilities to the allotment (:meth:`reservation.allotment.result.Allotment.
attach_probabilities`): its table gains ``P_ST_W ... P_UR`` right after the answer's columns, its meta the
projection's samples and seed (``answer.probabilities``), and ``explain`` prints them. The numbers are the
projection's own (its tallies divided by the samples), so ``explain`` and ``project`` agree exactly.

A body the projection refuses (a RuleError: e.g. a past list no OBC figures can give) keeps its answer without
probabilities, and the reason is recorded (``answer.probabilities.refused``); ``samples=0`` asks for none.
"""

from __future__ import annotations

from ..allotment.pipeline import allot
from ..base.errors import RuleError
from ..projection.defaults import CONSTRAINTS, DEFAULT_OBC_SD
from ..projection.project import project
from ..rules.registry import get_rulebook

__all__ = ["SAMPLES", "SEED", "allot_answered", "is_future"]

#: The defaults of ``reservation project`` (its command line says the same): what ``allot`` and ``explain`` use.
SAMPLES = 1000
SEED = 0


def is_future(body: str, year: int) -> bool:
    """Whether ``year`` is an election not yet held for ``body`` (after the last election held)."""
    return get_rulebook(body).years.is_next(int(year))


def allot_answered(body: str, year: int, *, units=None, history=None, population=None, pins=None, options=(),
                   base_year: int | None = None, published=None, samples: int = SAMPLES, seed: int = SEED,
                   progress=None, jobs: int = 1):
    """The allotment of ``body`` at ``year`` (arguments as :func:`reservation.allotment.pipeline.allot`); for an
    election not yet held, with the projection's probabilities attached (``samples`` > 0; ``seed``;
    ``progress``: a progress bar on stderr, None = when stderr is a terminal; ``jobs``: processes for the samples)."""
    a = allot(body, year, units=units, history=history, population=population, pins=pins, options=options,
              base_year=base_year, published=published)
    if samples and is_future(body, year):
        try:
            p = project(body, year, units=units, history=history, population=population, pins=pins,
                        options=options, base_year=base_year, samples=int(samples), seed=int(seed),
                        obc_sd=DEFAULT_OBC_SD, constraint=CONSTRAINTS[0], progress=progress,
                        jobs=jobs)
        except RuleError as e:
            a.attach_probabilities(None, {"samples": int(samples), "seed": int(seed), "refused": str(e)})
            return a
        a.attach_probabilities(p.tallies / p.samples, {"samples": p.samples, "seed": int(seed),
                                                       "command": "reservation project (same defaults)"})
    return a
