"""What a report runs: one :class:`Task` per notebook, and what each produced."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Task", "TaskResult", "ReportResult", "ReportFailed", "KERNEL"]

KERNEL = "python3"


class ReportFailed(RuntimeError):
    """A notebook of the report failed; ``failures`` lists ``TaskResult`` of the failed tasks."""

    def __init__(self, message: str, failures: list, kept: Path | None):
        super().__init__(message)
        self.failures = failures
        self.kept = kept


@dataclass(frozen=True)
class Task:
    """One unit of work: a notebook run (with its page and maps), or maps alone (``notebook`` None: the
    State-wide map of the index). Paths are inside the work folder."""
    key: str                       # file stem, e.g. "lucknow"
    kind: str                      # "division", "state" (counts page), "projection" or "map" (State-wide map)
    title: str
    notebook: str | None
    parameters: dict
    ipynb: str | None
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
    timings: dict = field(default_factory=dict)    # seconds per phase (benchmarks; not in report.json)


@dataclass
class ReportResult:
    out: Path
    pages: list                    # TaskResult of every task
    seconds: float
    index: Path
    manifest: Path
