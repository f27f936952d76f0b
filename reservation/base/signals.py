"""The signals that stop a run, held back while a process pool is handed work.

Ctrl-C (SIGINT to the whole process group) and a scheduler's SIGTERM (which the command turns into an exception)
may arrive at any moment. Two moments are unsafe: inside ``ProcessPoolExecutor.submit``, which forks the
processes at its first call and holds the executor's lock (an exception raised there can leave the lock held, and
the shutdown that cleans up then waits for ever), and in a just-forked process before its initializer has set
its handlers. :func:`held` blocks both signals for the length of a block (a signal that comes meanwhile is
delivered when it ends); a forked process inherits the block, and its initializer calls :func:`release` once its
handlers are set.
"""

from __future__ import annotations

import contextlib
import signal

__all__ = ["STOPS", "held", "release"]

#: Ctrl-C, and a scheduler's stop.
STOPS = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def held():
    """Within the block, SIGINT and SIGTERM wait (this thread's signal mask); they are delivered at its end."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def release() -> None:
    """Let SIGINT and SIGTERM through again (a forked process, once its handlers are set)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
