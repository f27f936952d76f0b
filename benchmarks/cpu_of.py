"""The CPU time of a command and of every process it starts, and its time on the clock (a maintainer tool).

    python benchmarks/cpu_of.py make test

``/usr/bin/time`` counts only the processes that their parents wait for: a process whose parent exits first (the
children of a Chromium or a kernel stopped by its process group, a report worker's kernel) is reaped by init, and
its CPU is lost. Here this process is a child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``), so every orphan of the
command comes back to it and is counted. After the command ends, the orphans still running get 60 seconds, then
are named and left alone. Prints one line on stderr; exits with the command's status. notes/testspeed2.md.
"""
from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("cpu_of: not a Linux that allows a child subreaper; the orphans' CPU is not counted", file=sys.stderr)
    start = time.monotonic()
    status = subprocess.call(argv)
    wall = time.monotonic() - start
    deadline = time.monotonic() + 60
    left: list[int] = []
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            if time.monotonic() > deadline:
                left = [int(p) for p in os.listdir("/proc") if p.isdigit() and _parent(int(p)) == os.getpid()]
                break
            time.sleep(0.2)
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"cpu_of: {r.ru_utime:.1f} s user + {r.ru_stime:.1f} s sys = {r.ru_utime + r.ru_stime:.1f} CPU-s; "
          f"{wall:.1f} s on the clock; exit {status}"
          + (f"; still running, not counted: {left}" if left else ""), file=sys.stderr)
    return status


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
