"""The one output guard: what a command may write, checked before anything is computed (issues 18 and 19).

Every command that writes a file or a folder the user names (``allot``, ``audit``, ``diff`` and ``project
--out FILE``, ``report --out DIR``) and every library helper that writes one (:func:`reservation.output.tables.write_table`,
the views' CSV, GeoJSON and map writers) asks this module first. The rules, in the order they are checked:

1. **Never the package's own files or data**, even with ``--force``: a target whose real place (its folder with
   every link resolved) is inside the package folder, or inside a folder the package links to (``reservation/data``
   -> ``data/``, the tables every run reads; ``reservation/notebooks`` -> ``notebooks/``), is refused. A new file
   there is refused too: the package's folders hold what the package ships, and nothing else.
2. **Follow nothing the user did not ask to follow**: a target (a table, its meta file, a report folder) that is a
   symbolic link is refused, even with ``--force``; the link is neither replaced by a regular file nor written
   through. A folder on the path that is a link is followed (the user typed that path), but a link to nothing is
   refused: no file or folder is created through a dangling link.
3. **Never replace a file the tool did not write**: an existing table is ours, and may be replaced, only when the
   meta file beside it (``FILE.meta.json``) was written by this tool (:func:`ours`); an existing meta file only
   when it is ours. ``--force`` lets a command replace the user's regular files (never a folder, a device, a named
   pipe or a socket, and never rules 1-2). A report folder follows :mod:`reservation.report.folder`.
4. A target must be a regular file in a folder that exists (or can be created) and is writable, and no input file
   of the same run.

A refusal is an :class:`~reservation.base.errors.InputError` naming the flag (``--out``) and a short excerpt of the
path: one line, exit status 2, nothing written.
"""

from __future__ import annotations

import json
import os
import stat
from functools import lru_cache
from pathlib import Path

from ..base.errors import InputError

__all__ = ["FORCE_HELP", "add_force", "EXCEL_CSV_HELP", "add_excel_csv", "excel_csv", "excerpt", "protected_roots", "in_package", "ours", "check_file",
           "check_folders", "check_table", "input_files", "check_not_inputs", "check_new_file", "check_folder_target"]

#: The "software" field every meta file this tool writes begins with (see :func:`ours`).
SOFTWARE = "reservation-workbench"
_META_LIMIT = 1 << 28          # 256 MB: far above any meta the tool writes
_SHOWN = 160                   # a path longer than this is shown as its start and its end

FORCE_HELP = ("replace an existing file this tool did not write (never the package's own data, a symbolic link, "
              "a folder or a device)")


def add_force(sp, help: str = FORCE_HELP) -> None:
    """Add ``--force`` to a sub-command that writes."""
    sp.add_argument("--force", action="store_true", help=help)


EXCEL_CSV_HELP = ("write the CSV with a UTF-8 byte-order mark, so that Excel opens it (double-click) with its Hindi "
                  "intact; the meta file records the encoding (an .xlsx --out opens in Excel as it is)")


def add_excel_csv(sp) -> None:
    """Add ``--excel-csv`` to a sub-command that writes a CSV with ``--out FILE``."""
    sp.add_argument("--excel-csv", action="store_true", help=EXCEL_CSV_HELP)


def excel_csv(args) -> bool:
    """Whether a command writes its CSV for Excel (``--excel-csv``): refused, before anything runs, without
    ``--out FILE`` or with an ``--out`` that is not a ``.csv`` (an .xlsx or a .parquet has no byte-order mark)."""
    if not getattr(args, "excel_csv", False):
        return False
    out = getattr(args, "out", None)
    if out is None:
        raise InputError("needs --out FILE.csv (the table on stdout stays plain UTF-8)",
                         option="--excel-csv")
    if Path(str(out)).suffix.lower() != ".csv":
        raise InputError(f"{excerpt(out)!r} is not a .csv: the byte-order mark is for a CSV (an .xlsx opens in "
                         "Excel as it is)", option="--excel-csv")
    return True


def excerpt(path) -> str:
    """A path as typed, at most about :data:`_SHOWN` characters (its start and its end); InputError escapes any
    control character in it."""
    s = str(path)
    return s if len(s) <= _SHOWN else f"{s[:60]}...{s[-(_SHOWN - 63):]}"


def _refuse_control(path, flag: str) -> None:
    """A path with a control character (a newline, an escape sequence) is refused: the tool prints the paths it
    writes ("wrote ..."), and a name is one line of visible text."""
    s = str(path)
    bad = next((c for c in s if 0 < ord(c) < 32 or 0x7f <= ord(c) < 0xa0), None)   # NUL: its own message
    if bad is not None:
        raise InputError(f"{excerpt(s)} holds the control character U+{ord(bad):04X}: a path is one line of "
                         "visible text", option=flag)


# ------------------------------------------------------------------------------------------- the package's own

@lru_cache(maxsize=1)
def protected_roots() -> tuple[Path, ...]:
    """The package folder and every folder it links to (``data``, ``notebooks``), each resolved."""
    pkg = Path(__file__).resolve().parent.parent
    roots = [pkg]
    try:
        entries = sorted(Path(__file__).parent.parent.iterdir())
    except OSError:
        entries = []
    for e in entries:
        if e.is_symlink() and e.is_dir():
            roots.append(e.resolve())
    return tuple(dict.fromkeys(roots))


def _real(path) -> Path:
    """Where ``path`` really is: its folder with every link resolved (``..`` after a link too), then its name (a
    link as the last part is refused elsewhere, so it is not followed here)."""
    s = os.fspath(path)
    head, name = os.path.split(s)
    if name in ("", ".", ".."):
        return Path(os.path.realpath(s))
    return Path(os.path.realpath(head or ".")) / name


def _place(path, folder: bool) -> Path:
    return Path(os.path.realpath(path)) if folder else _real(path)


def _within(real: Path, root: Path) -> bool:
    return real == root or root in real.parents


def in_package(path, *, folder: bool = False) -> Path | None:
    """The protected root (:func:`protected_roots`) that ``path`` is in, or None. ``folder``: ``path`` is a
    folder, resolved whole (the folder itself may be the root)."""
    real = _place(path, folder)
    for root in protected_roots():
        if _within(real, root):
            return root
    return None


def _refuse_package(path, flag: str, *, folder: bool = False) -> None:
    if "\x00" in os.fspath(path):
        raise InputError(f"{excerpt(path)}: a path cannot hold a NUL character", option=flag)
    root = in_package(path, folder=folder)
    if root is not None:
        data = (Path(__file__).parent.parent / "data").resolve()
        what = "data folder" if _within(_place(path, folder), data) else "folder"
        raise InputError(f"{excerpt(path)} is in the package's own {what} ({excerpt(root)}), which every run reads: "
                         "refusing to write there, even with --force; write it somewhere else", option=flag)


# ------------------------------------------------------------------------------------------- what a target is

def _kind(mode: int) -> str:
    """What a path is, in words: the strict reader's words for what is not a regular file, else "a file"."""
    from ..inputs.units import _file_kind        # here, not at the top: the command line starts without pandas
    return _file_kind(mode) or "a file"


def _link_target(path: Path) -> str:
    """What a symbolic link points at, in words (for the refusal)."""
    try:
        return _kind(os.stat(path).st_mode)
    except OSError:
        return "nothing"


def ours(meta: Path) -> bool:
    """Whether an existing meta file was written by this tool (a regular file, not a link, holding a JSON object
    whose "software" is ours). A meta of ours holds every flag of its run (6.6 MB for 732,000 ward seats), so up
    to :data:`_META_LIMIT` is read; a larger file is not ours."""
    try:
        if not stat.S_ISREG(os.lstat(meta).st_mode):
            return False
        with open(meta, "rb") as f:
            data = f.read(_META_LIMIT + 1)
        if len(data) > _META_LIMIT:
            return False
        doc = json.loads(data.decode("utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and str(doc.get("software", "")).startswith(SOFTWARE)


def check_file(path: Path, *, flag: str, force: bool, replaceable: bool, why: str = "") -> None:
    """One file target: not a link, a regular file if it exists, and replaceable (ours) unless ``force``.
    ``why``: what would make it ours, said in the refusal."""
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return                                            # the folder check names the file in the way
    except OSError as e:
        raise InputError(f"{excerpt(path)}: cannot be reached ({e.strerror})", option=flag) from None
    if stat.S_ISLNK(st.st_mode):
        raise InputError(f"{excerpt(path)} is a symbolic link (to {_link_target(path)}): refusing to replace or "
                         "follow it, even with --force; give the real path", option=flag)
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{excerpt(path)} is {_kind(st.st_mode)}, not a regular file: refusing to write there",
                         option=flag)
    if not replaceable and not force:
        raise InputError(f"{excerpt(path)} exists and was not written by this tool{why}: refusing to replace it "
                         "(give another name, or --force to replace it)", option=flag)


def check_folders(path: Path, *, flag: str) -> None:
    """The folders above ``path``: the nearest that exists is a writable folder; none is a link to nothing (a
    file would be created through it)."""
    probe = Path(path).parent
    while True:
        try:
            st = os.stat(probe)
        except (FileNotFoundError, NotADirectoryError) as e:
            if os.path.islink(probe):
                raise InputError(f"{excerpt(probe)} is a symbolic link to nothing: refusing to create "
                                 f"{excerpt(path)} through it", option=flag) from None
            if isinstance(e, FileNotFoundError) and probe.parent == probe:
                return
            probe = probe.parent
            continue
        except OSError as e:
            raise InputError(f"{excerpt(probe)}: cannot be reached ({e.strerror})", option=flag) from None
        if not stat.S_ISDIR(st.st_mode):
            raise InputError(f"{excerpt(probe)} is {_kind(st.st_mode)}, not a folder: cannot write "
                             f"{excerpt(path)}", option=flag)
        if not os.access(probe, os.W_OK | os.X_OK):
            raise InputError(f"the folder {excerpt(probe)} is not writable: cannot write {excerpt(path)}",
                             option=flag)
        return


def check_table(table: Path, meta: Path, *, flag: str = "--out", force: bool = False) -> None:
    """A table and its meta file (see the module docstring): the table is ours when the meta beside it is."""
    _refuse_control(table, flag)
    for p in (table, meta):
        _refuse_package(p, flag)
    for p in (table, meta):                               # what each is, before whose it is
        check_file(p, flag=flag, force=force, replaceable=True)
    meta_ours = ours(meta)
    check_file(table, flag=flag, force=force, replaceable=meta_ours,
               why=f" (no meta file of this tool beside it, {excerpt(meta.name)})")
    check_file(meta, flag=flag, force=force, replaceable=meta_ours)
    check_folders(table, flag=flag)


def check_new_file(path, *, flag: str = "path", force: bool = False) -> Path:
    """A file a library helper writes with no meta beside it (a view's CSV, GeoJSON, PNG or SVG): the same rules,
    and an existing file is replaced only with ``force`` (nothing marks it as ours)."""
    p = Path(path)
    if str(path).strip() == "":
        raise InputError("the path is empty", option=flag)
    _refuse_control(p, flag)
    _refuse_package(p, flag)
    check_file(p, flag=flag, force=force, replaceable=False)
    check_folders(p, flag=flag)
    return p


def check_folder_target(out: Path, *, flag: str = "--out") -> None:
    """A folder target (a report): not in the package, not a link, not a file, no file or dangling link above."""
    _refuse_control(out, flag)
    _refuse_package(out, flag, folder=not os.path.islink(out))
    try:
        st = os.lstat(out)
    except (FileNotFoundError, NotADirectoryError):
        st = None
    except OSError as e:
        raise InputError(f"{excerpt(out)}: cannot be reached ({e.strerror})", option=flag) from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise InputError(f"{excerpt(out)} is a symbolic link (to {_link_target(out)}): refusing to follow or "
                         "replace it, even with --force; give the real folder", option=flag)
    if st is None:
        check_folders(out, flag=flag)
    elif not stat.S_ISDIR(st.st_mode):
        raise InputError(f"{excerpt(out)}: the output path exists and is not a folder ({_kind(st.st_mode)})",
                         option=flag)
    elif not os.access(out, os.W_OK | os.X_OK):
        raise InputError(f"the folder {excerpt(out)} is not writable", option=flag)


# ------------------------------------------------------------------------------------------- inputs

def _same_file(a, b) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


#: The arguments of the sub-commands that name input files (one file, or a list of them).
INPUT_ARGUMENTS = ("history", "a_history", "b_history", "population", "pin", "units", "published", "a_published",
                   "b_published")


def input_files(args) -> list:
    """Every input file a command line names (:data:`INPUT_ARGUMENTS`, and ``lots=FILE`` in its options)."""
    files = []
    for name in INPUT_ARGUMENTS:
        v = getattr(args, name, None)
        files += list(v) if isinstance(v, (list, tuple)) else [v]
    for name in ("option", "a", "b"):
        for v in getattr(args, name, None) or ():
            if str(v).strip().startswith("lots="):
                files.append(str(v).split("=", 1)[1].strip())
    return [f for f in files if f]


def check_not_inputs(targets, inputs, *, flag: str = "--out") -> None:
    """No target is one of the run's input files (it would be read and replaced by the same run)."""
    for t in targets:
        for i in inputs:
            if i and _same_file(t, i):
                raise InputError(f"{excerpt(t)} is also an input file ({excerpt(i)}): write the result under "
                                 "another name", option=flag)
