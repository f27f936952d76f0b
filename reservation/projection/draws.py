"""The samples of a projection (:mod:`reservation.projection.project`): the Gibbs sampler restricted by what the
published past lists reveal, its first state, the sweeps, and the engine run on each sample.

:func:`start` numbers the past lists' constraints across the lists and starts the sampler
(:class:`reservation.projection.priors.ConstrainedSampler`) at its greatest state; :func:`sample` draws the samples
(after the burn-in sweeps, ``thin`` sweeps apart; from the prior alone when no list constrains them) and tallies
each sample's categories. Every state meets the constraints (exact integer check), and the first and every
``check_every``-th recompute each past election with the engine (:func:`_check_past`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..base import signals
from ..law.categories import CODES
from ..engine.passes import RuleError
from ..allotment.pipeline import Prepared
from .priors import Alternative, ConstrainedSampler
from .orders import PastList

__all__ = ["start", "sample"]


def _check_past(pc: Prepared, past: PastList, obc: np.ndarray) -> None:
    got = pc.categories(obc)
    if not np.array_equal(got, past.published):
        bad = np.flatnonzero(got != past.published)
        names = pc.frame["unit_name_en"].to_numpy(dtype=object)[bad][:5]
        raise AssertionError(f"a sample does not reproduce the {past.year} list ({', '.join(map(str, names))}): "
                             f"the constraints are incomplete")


def _empty_units(frame: pd.DataFrame, e: ValueError) -> str:
    """The words for units of no population that a past list ranks by a share (none: "")."""
    pos = getattr(e, "units", None)
    if pos is None:
        return ""
    names = frame["unit_name_en"].to_numpy(dtype=object)[pos]
    return (f"{len(pos)} unit(s) it ranks by a share have 0 persons ({', '.join(map(str, names[:3]))}"
            f"{', ...' if len(pos) > 3 else ''}): a share of no persons is not defined")


def start(prior, pasts, pop: np.ndarray, room: np.ndarray, frame: pd.DataFrame):
    """The Gibbs sampler on the prior restricted by the past lists' constraints (numbered across the lists) and
    its first state, checked against every past list; (None, None) when nothing constrains the draws. Returns
    (sampler, first state, the second ways of the division rule in words)."""
    constraints, alts = [], []
    for _, p in pasts:
        off = len(constraints)
        constraints += p.constraints
        alts += [Alternative(a.victim, a.post + off, a.division, tuple(i + off for i in a.drop), a.what)
                 for a in p.alternatives]
    alternatives = [a.what for a in alts]
    if prior is None or not pasts:
        return None, None, alternatives
    try:
        sampler = ConstrainedSampler(prior, pop, room, constraints, alts)
        x = sampler.greatest()
    except ValueError as e:
        raise RuleError(f"the published past list(s) cannot be reproduced for any OBC figures: "
                        f"{_empty_units(frame, e) or e}") from None
    for pc, past in pasts:
        _check_past(pc, past, x)
    return sampler, x, alternatives


@dataclass
class _Draws:
    """What the samples gave: ``tallies`` (units x categories), the samples kept (``keep_samples``), each
    category's lowest and highest count over the samples, the first sample's run, how many samples recomputed
    the past lists (``checked``) and the Gibbs sweeps made."""

    tallies: np.ndarray
    kept: np.ndarray | None
    kept_obc: np.ndarray | None
    low: np.ndarray
    high: np.ndarray
    first_result: object = None
    checked: int = 0
    sweeps: int = 0


def sample(target: Prepared, prior, sampler, x, pasts, rng, pop, room, bar, *, given: bool, samples: int,
           burn_in: int, thin: int, check_every: int, keep_samples: bool, jobs: int = 1) -> _Draws:
    """Draw ``samples`` OBC populations (after ``burn_in`` sweeps when a past list constrains them, ``thin``
    sweeps apart; from the prior alone when none does; none when the OBC population is given) and run the
    engine on each. ``jobs`` > 1: the engine runs on the samples in that many forked processes (the draws are made
    here, in order, so the samples and every figure are the same whatever ``jobs``)."""
    frame = target.frame
    n = len(frame)
    d = _Draws(np.zeros((n, len(CODES)), dtype=np.int64),
               np.zeros((samples, n), dtype=np.int8) if keep_samples else None,
               np.zeros((samples, n), dtype=np.int64) if keep_samples else None,
               np.full(len(CODES), n, dtype=np.int64), np.zeros(len(CODES), dtype=np.int64))
    if sampler is not None:
        for _ in range(burn_in):
            x = sampler.sweep(x, rng)
            d.sweeps += 1
            bar.update(1)
    if samples < 1:
        return d
    draws = _drawn(prior, sampler, x, pasts, rng, pop, room, d, given, samples, thin, check_every)
    obc = next(draws)
    d.first_result = target.run(obc)        # the first sample's run, with its words (the meta reads them)
    _tally(d, 0, d.first_result.engine.category, obc, frame, keep_samples)
    bar.update(1)
    if given:                               # nothing is unknown: every sample is the first
        rest = ((None, d.first_result.engine.category) for _ in draws)
    elif jobs > 1 and samples > 1:
        rest = _categories_forked(target, draws, jobs)
    else:                                   # the others: the categories alone (the same numbers, no words)
        rest = ((o, target.categories(o)) for o in draws)
    for s, (obc, cat) in enumerate(rest, start=1):
        _tally(d, s, cat, obc, frame, keep_samples)
        bar.update(1)
    return d


def _drawn(prior, sampler, x, pasts, rng, pop, room, d: _Draws, given: bool, samples: int, thin: int,
           check_every: int):
    """The samples' OBC populations, one after the other (None when the OBC population is given)."""
    for s in range(samples):
        if given:
            yield None
        elif sampler is not None:
            x = _next_state(sampler, x, rng, d, pasts, thin, s % check_every == 0)
            yield x
        else:
            yield prior.sample_persons(rng, pop, room)


def _tally(d: _Draws, s: int, cat: np.ndarray, obc, frame: pd.DataFrame, keep_samples: bool) -> None:
    n = len(cat)
    d.tallies[np.arange(n), cat] += 1
    got = np.bincount(cat, minlength=len(CODES))
    d.low, d.high = np.minimum(d.low, got), np.maximum(d.high, got)
    if keep_samples:
        d.kept[s] = cat
        d.kept_obc[s] = obc if obc is not None else frame["obc"].to_numpy(dtype=np.int64)


#: Samples sent to a forked process at a time, and the batches drawn ahead of those finished (per process).
BATCH, AHEAD = 25, 2
_FORKED: Prepared | None = None          # the target the forked processes run (set just before they are forked)


def _categories_of(batch: list) -> list:
    return [_FORKED.categories(obc) for obc in batch]


def _ignore_interrupt() -> None:
    """A forked process's first act: Ctrl-C is the parent's to handle (it stops these). The signals were held back
    across the fork (:func:`_submit`), so none reached this process before it could ignore it."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signals.release()


def _submit(ex, batch: list):
    """``ex.submit`` with Ctrl-C and SIGTERM held back until it returns (:func:`reservation.base.signals.held`:
    the processes are forked inside the first call, and the executor holds its lock there)."""
    with signals.held():
        return ex.submit(_categories_of, batch)


def _stop(ex) -> None:
    """End the forked processes now (the run was stopped or failed): no waiting for the batches they hold."""
    procs = list((getattr(ex, "_processes", None) or {}).values())      # the executor cannot stop its workers
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    ex.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        proc.join(5)


def _categories_forked(target: Prepared, draws, jobs: int):
    """``(obc, categories)`` of each draw, in order, the engine run in ``jobs`` forked processes while this one
    draws the next batches (at most :data:`AHEAD` per process ahead). Stopped or failed, the processes are ended
    at once (:func:`_stop`)."""
    import multiprocessing
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from itertools import islice
    global _FORKED
    _FORKED = target
    pending: deque = deque()
    ex = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=_ignore_interrupt)
    finished = False
    try:
        while batch := list(islice(draws, BATCH)):
            pending.append((batch, _submit(ex, batch)))
            while len(pending) > AHEAD * jobs:
                yield from _done(pending.popleft())
        while pending:
            yield from _done(pending.popleft())
        finished = True
    finally:
        _FORKED = None
        if finished:
            ex.shutdown(wait=True)
        else:
            _stop(ex)


def _done(item):
    batch, future = item
    yield from zip(batch, future.result())


def _next_state(sampler, x, rng, d: _Draws, pasts, thin: int, check: bool) -> np.ndarray:
    """``thin`` Gibbs sweeps from ``x``; the state must meet the constraints, and (``check``) must reproduce
    every past list when the engine recomputes it."""
    for _ in range(thin):
        x = sampler.sweep(x, rng)
        d.sweeps += 1
    if not sampler.satisfied(x):
        raise AssertionError("a sample left the admissible set")
    if check:
        for pc, past in pasts:
            _check_past(pc, past, x)
        d.checked += 1
    return x
