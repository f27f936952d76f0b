"""Where a report is written, and how, without ever deleting what the tool did not write (issue 9).

A report folder carries a marker file, :data:`MARKER`, listing every file the report wrote. ``reservation report
--out DIR`` writes into:

- a folder that does not exist (created; the finished report is renamed into place in one step), or
- an empty folder, or
- a folder holding a previous report of this tool and nothing else: the files of the new report replace it file by
  file (each an atomic rename), and of the old report's files only those it listed and the new one does not
  write again are removed. Anything else in the folder (a file the marker does not list, a sub-folder, a folder
  with no marker or with a marker this tool cannot read) makes the command refuse with one line, exit status 2,
  before anything runs, unless the user says ``--force``: the report is then written into the folder, its files
  replace files of the same name, and nothing else there is touched (a folder or a link where a file of the
  report goes is refused even then; a previous report's own files are still the only ones removed).

Always refused, even with ``--force`` (:func:`reservation.output.guard.check_folder_target`, the one output guard): a
folder inside the package's own folders (``reservation/``, ``data/``, ``notebooks/``), an ``--out`` that is a
symbolic link, or a path through a file or a dangling link.

Work in progress lives in a temporary folder (beside a new folder, inside an existing one) that is removed whatever
happens (success, a failing notebook, an error, Ctrl-C). Folders get the mode the umask gives (``mkdtemp`` alone
would leave them 0700).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..base.errors import InputError
from ..output.guard import check_folder_target, excerpt

__all__ = ["MARKER", "Target", "check_target", "make_workdir", "publish", "keep_failed", "umask", "read_marker"]

#: The marker file of a report folder: which tool wrote it, and every file it wrote.
MARKER = ".reservation-report.json"
_TOOL = "reservation-workbench report"


def umask() -> int:
    """The process's umask (read without changing it for longer than a moment)."""
    old = os.umask(0o022)
    os.umask(old)
    return old


def read_marker(folder: Path) -> dict | None:
    """The marker of a report folder, or None when there is none or it is not this tool's."""
    p = Path(folder) / MARKER
    if not p.is_file() or p.is_symlink():
        return None
    try:
        m = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(m, dict) or m.get("tool") != _TOOL or not isinstance(m.get("files"), list) or \
            not all(isinstance(f, str) and f and "/" not in f and f not in (".", "..") for f in m["files"]):
        return None
    return m


@dataclass(frozen=True)
class Target:
    path: Path            # absolute
    state: str            # "new" | "empty" | "ours" | "forced" (a folder holding other files, with --force)
    previous: tuple = ()  # files of the previous report (state "ours", or "forced" over a previous report)
    force: bool = False   # --force: the folder may hold other files (kept; a file of the same name is replaced)


def _listing(names, limit: int = 3) -> str:
    names = sorted(names)
    shown = ", ".join(excerpt(n) for n in names[:limit]) + (f" and {len(names) - limit} more"
                                                            if len(names) > limit else "")
    return shown


def _refuse(message: str, out: Path) -> InputError:
    return InputError(message, option="--out", file=excerpt(out))


def check_target(out, *, kind: str = "report", ignore=(), force: bool = False) -> Target:
    """Whether ``out`` may receive a report (see the module docstring); raise InputError (``--out``) if not.
    ``ignore``: names in the folder that are this run's own (its work folder). ``force``: a folder holding other
    files may receive it (they are kept; only a previous report's own files are removed)."""
    check_folder_target(Path(out), flag="--out")       # the package's folders, links, files, unwritable folders
    out = Path(out).absolute()
    if not out.exists():
        return Target(out, "new", force=force)
    try:
        entries = set(os.listdir(out)) - set(ignore)
    except OSError as e:
        raise _refuse(f"the output folder cannot be read ({e.strerror})", out) from None
    if not entries:
        return Target(out, "empty", force=force)
    marker = read_marker(out)
    if marker is None or marker.get("kind", "report") != kind:
        if force:
            return Target(out, "forced", force=True)
        raise _refuse(f"the output folder is not empty and holds no {kind} of this tool ({_listing(entries)}); "
                      f"give a new or empty folder (or --force to write into it, keeping its files): a report "
                      "never deletes what it did not write", out)
    listed = set(marker["files"])
    extra = entries - listed - {MARKER}
    odd = [f for f in listed & entries if (out / f).is_symlink() or not (out / f).is_file()]
    if odd or (extra and not force):
        raise _refuse(f"the output folder holds a previous report and also {len(extra) + len(odd)} entr"
                      f"{'y' if len(extra) + len(odd) == 1 else 'ies'} it did not write "
                      f"({_listing(extra | set(odd))}); move them away or give another folder"
                      + ("" if odd else " (or --force to keep them)"), out)
    return Target(out, "forced" if extra else "ours", tuple(sorted(listed)), force=force)


def _check_names(out: Path, files) -> None:
    """With --force the folder may hold other entries: none that the report writes may be a folder or a link."""
    odd = [f for f in files if os.path.lexists(out / f) and ((out / f).is_symlink() or not (out / f).is_file())]
    if odd:
        raise _refuse(f"the output folder holds {len(odd)} entr{'y' if len(odd) == 1 else 'ies'} of the same name "
                      f"as a file of the report that are not regular files ({_listing(odd)}): refusing to replace "
                      "them, even with --force", out)


def make_workdir(target: Target) -> Path:
    """A temporary folder for the work: beside a new folder (renamed into place at the end), inside an existing one
    (its files are moved in one by one). Created with the umask's mode."""
    if target.state == "new":
        target.path.parent.mkdir(parents=True, exist_ok=True)
        where = target.path.parent
    else:
        where = target.path
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.path.name}.tmp-", dir=where))
    os.chmod(tmp, 0o777 & ~umask())
    return tmp


def _write_marker(folder: Path, files, kind: str, extra: dict | None = None) -> None:
    data = {"tool": _TOOL, "kind": kind, "files": sorted(files), **(extra or {})}
    tmp = folder / f"{MARKER}.tmp-{os.getpid()}"
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, folder / MARKER)


def publish(work: Path, target: Target, *, kind: str = "report", extra: dict | None = None) -> list[str]:
    """Move the finished report from ``work`` to ``target`` (see the module docstring); returns the file names.

    ``work`` must hold only regular files. The target is checked again first (it may have changed while the
    notebooks ran)."""
    files = sorted(p.name for p in work.iterdir() if p.name != MARKER)
    if any(not (work / f).is_file() for f in files):
        raise RuntimeError(f"{work} holds something other than files")
    own = {work.name} if work.parent == target.path else set()
    now = check_target(target.path, kind=kind, ignore=own, force=target.force)
    if now.state == "new":
        _write_marker(work, files, kind, extra)
        try:
            os.rename(work, target.path)          # one step; replaces nothing but an empty folder
            return files
        except OSError:
            now = check_target(target.path, kind=kind, ignore=own, force=target.force)
            if now.state == "new":
                raise
    out = now.path
    if now.state == "forced":
        _check_names(out, files + [MARKER])
    if work.parent != out:                        # the work folder was made beside a folder that now exists
        inner = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out))
        for f in files:
            shutil.move(str(work / f), str(inner / f))
        shutil.rmtree(work, ignore_errors=True)
        work = inner
    previous = set(now.previous)
    _write_marker(out, previous | set(files), kind, extra)      # covers every file present at every moment
    for f in files:
        os.replace(work / f, out / f)
    for f in sorted(previous - set(files)):
        p = out / f
        if p.is_file() or p.is_symlink():
            p.unlink()
    _write_marker(out, files, kind, extra)
    (work / MARKER).unlink(missing_ok=True)
    work.rmdir()
    return files


def keep_failed(work: Path, out: Path) -> Path:
    """Keep the executed notebooks of a failed report for inspection: in ``OUT.failed`` if that is new, empty or a
    previous failed report of this tool (replaced the same way as a report), else in a new folder beside it."""
    failed = out.with_name(out.name + ".failed")
    logs = work / "logs"
    if logs.is_dir():
        shutil.rmtree(logs, ignore_errors=True)
    for p in list(work.iterdir()):
        if not p.is_file():
            shutil.rmtree(p, ignore_errors=True)
    try:
        target = check_target(failed, kind="failed")
    except InputError:
        alt = Path(tempfile.mkdtemp(prefix=f"{out.name}.failed-", dir=out.parent))
        os.chmod(alt, 0o777 & ~umask())
        target = Target(alt.absolute(), "empty")
    publish(work, target, kind="failed")
    return target.path
