"""Loading and validating unit tables, Unicode NFC, and the district crosswalk.

Every table is validated once, at the edge: a missing file or column, a duplicate code, a
negative or inconsistent population (SC + ST > total), a name that does not resolve. Errors are
:class:`~reservation.base.errors.InputError` naming the file, the row and the column. **Rows are counted as a
spreadsheet shows them: the header is row 1, the first data row is row 2.**

Names are compared only after NFC normalisation, and joined through codes (LGD district codes), never
through raw spellings: :func:`crosswalk` (a :class:`reservation.inputs.names.NameIndex`) resolves an LGD code, the English or Hindi name, a former
name (Allahabad, Faizabad, ...) or a spelling variant met in the SEC-UP result files.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
import stat
import unicodedata
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ..base.errors import InputError, excerpt
from .limits import MAX_INPUT_BYTES, MAX_INPUT_ROWS
from .text import ascii_digits, name_key

__all__ = ["DATA_DIR", "nfc", "loose_key", "read_csv", "read_input_bytes", "int_column", "int_kind", "INT_KINDS",
           "ascii_digits", "formula_like", "load_districts", "load_divisions",
           "DISTRICT_COLUMNS", "check_populations", "require_rows"]

from ..base.paths import DATA_DIR  # noqa: E402 - re-exported


def nfc(s: str) -> str:
    """NFC-normalised, stripped text (Hindi names mix precomposed and decomposed nukta letters)."""
    return unicodedata.normalize("NFC", str(s)).strip()


def loose_key(s: str) -> str:
    """The comparison key of a name: :func:`reservation.inputs.names.name_key` (the one normalisation for lookups:
    case, spaces, punctuation, nukta, chandrabindu/anusvara, the nasal half-letter, vowel length, halant)."""
    return name_key(s)


#: The first characters with which a spreadsheet may run a cell as a formula (OWASP "CSV injection").
FORMULA_START = "=+-@\t\r"
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: The longest cell a user file may hold (no name, code or number is longer; Excel holds 32,767).
MAX_CELL = 4096
_CONTROL_RE = "[\\x00-\\x1f\\x7f-\\x9f\u202a-\u202e\u2066-\u2069]"   # C0/C1 controls, bidi overrides
_CONTROL = re.compile(_CONTROL_RE)
_BOM = b"\xef\xbb\xbf"


def formula_like(value) -> bool:
    """True for a text that a spreadsheet could run as a formula.

    It begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return and is not a plain number (``-5``,
    ``+3.5`` and ``1e3`` are numbers: a spreadsheet reads them as such). Non-text values are never formulas.
    """
    if not isinstance(value, str) or not value or value[0] not in FORMULA_START:
        return False
    return _PLAIN_NUMBER.fullmatch(ascii_digits(value)) is None


def _file_kind(mode: int) -> str:
    """What a path that is not a regular file is, in words ("" for a regular file)."""
    if stat.S_ISREG(mode):
        return ""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device (such as /dev/null)"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _file_on_path(path: str) -> str:
    """The first part of ``path`` that exists and is not a folder (for "a/b.csv/c.csv" -> "a/b.csv")."""
    p = Path(path)
    for parent in reversed(p.parents):
        if str(parent) not in ("", ".") and parent.exists() and not parent.is_dir():
            return str(parent)
    return str(p.parent)


def read_input_bytes(path, what: str = "input") -> bytes:
    """The bytes of a user's input file, or an InputError that says what the path is instead.

    A missing file, a path through a regular file, a folder, a named pipe, a device (``/dev/null``) or a
    socket, an unreadable file: each gets its own one-line message. Pipes are opened without blocking, so a
    FIFO given by mistake is refused at once instead of waiting for a writer.
    """
    if path is None or str(path).strip() == "":
        raise InputError(f"{what} file: the path is empty")
    name = str(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputError(f"{what} file not found", file=name) from None
    except NotADirectoryError:
        raise InputError(f"{what} file not found: {_file_on_path(name)} is a file, not a folder",
                         file=name) from None
    except PermissionError:
        raise InputError(f"{what} file cannot be read: permission denied", file=name) from None
    except OSError as e:
        try:
            kind = _file_kind(os.stat(name).st_mode)
        except OSError:
            kind = ""
        if kind:
            raise InputError(f"{what} file is {kind}, not a regular file", file=name) from None
        raise InputError(f"{what} file cannot be opened: {e.strerror or e}", file=name) from None
    try:
        st = os.fstat(fd)
        kind = _file_kind(st.st_mode)
        if kind:
            raise InputError(f"{what} file is {kind}, not a regular file", file=name)
        if st.st_size > MAX_INPUT_BYTES:               # refused from its size, before it is read
            raise InputError(f"{what} file of {st.st_size:,} bytes: at most {MAX_INPUT_BYTES:,} "
                             f"({MAX_INPUT_BYTES // 2**20} MiB) are read", file=name)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = -1
            data = f.read(MAX_INPUT_BYTES + 1)         # a file that grows while it is read is still bounded
        if len(data) > MAX_INPUT_BYTES:
            raise InputError(f"{what} file of more than {MAX_INPUT_BYTES:,} bytes: at most "
                             f"{MAX_INPUT_BYTES // 2**20} MiB are read", file=name)
        return data
    except OSError as e:
        raise InputError(f"{what} file cannot be read: {e.strerror or e}", file=name) from None
    finally:
        if fd >= 0:
            os.close(fd)


def _has_blank_line(data: bytes) -> bool:
    """True when the text may have an empty or blank line before its last row (the fast reader skips such
    lines and so would number the rows after them wrongly)."""
    d = data.rstrip(b"\r\n")
    if d[:1] in (b"\r", b"\n", b" ", b"\t"):
        return True
    if b"\n\n" in d or b"\r\r" in d or b"\n\r\n" in d:
        return True
    if not any(x in d for x in (b"\n ", b"\n\t", b"\r ", b"\r\t")):
        return False
    d = d.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return re.search(rb"\n[ \t]*(?:\n|\Z)", d) is not None


def _parse_fast(data: bytes):
    """pyarrow's CSV reader: ``(header, columns, rows)``, or None when it declines (anything unusual: the exact
    reader then finds and names the problem)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    if _has_blank_line(data):
        return None
    try:
        table = pacsv.read_csv(
            pa.py_buffer(data),
            read_options=pacsv.ReadOptions(autogenerate_column_names=True, use_threads=True),
            parse_options=pacsv.ParseOptions(newlines_in_values=True, ignore_empty_lines=True),
            convert_options=pacsv.ConvertOptions(column_types=_AllStrings(), strings_can_be_null=False,
                                                 quoted_strings_can_be_null=False))
    except (pa.ArrowInvalid, pa.ArrowException, ValueError):
        return None
    if table.num_rows == 0 or not 2 <= table.num_columns <= 4096:
        return None
    header = [table.column(i)[0].as_py() for i in range(table.num_columns)]
    body = table.slice(1)
    columns = [body.column(i).to_pandas() for i in range(table.num_columns)]
    return header, columns, np.arange(2, body.num_rows + 2)


class _AllStrings(dict):
    """``column_types`` for pyarrow that reads every autogenerated column (f0, f1, ...) as text."""

    def __init__(self):
        import pyarrow as pa
        super().__init__({f"f{i}": pa.string() for i in range(4096)})


def _parse_exact(data: bytes, path):
    """Python's csv reader, record by record: every problem named with its spreadsheet row."""
    name = str(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        row = data[:e.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text (byte 0x{data[e.start]:02x}): save the file as 'CSV UTF-8'", file=name,
                         row=row) from None
    nul = text.find("\x00")
    if nul >= 0:
        raise InputError("holds a NUL character: a binary file, not CSV text", file=name,
                         row=text.count("\n", 0, nul) + 1)
    reader = csv.reader(io.StringIO(text, newline=""), strict=False)
    header, width, rows, numbers, n = None, 0, [], [], 0
    try:
        for rec in reader:
            n += 1
            if not rec or (len(rec) == 1 and rec[0].strip(" \t") == ""):
                if header is None:
                    raise InputError("row 1 is empty: the first row must be the header (column names)",
                                     file=name, row=n)
                continue                     # an empty line holds no value: skipped, but counted
            if header is None:
                header, width = rec, len(rec)
                continue
            if len(rec) != width:
                raise InputError(_ragged(rec, header), file=name, row=n,
                                 column=header[len(rec)] if len(rec) < width else None)
            rows.append(rec)
            numbers.append(n)
    except csv.Error as e:
        raise InputError(f"not a readable CSV: {e}", file=name, row=n + 1) from None
    if header is None:
        raise InputError("empty file: the header row (column names) is missing", file=name, row=1)
    columns = [pd.Series(list(c), dtype="str") for c in zip(*rows)] if rows else \
        [pd.Series([], dtype="str") for _ in header]
    return header, columns, np.asarray(numbers, dtype=np.int64)


def _ragged(rec: list, header: list) -> str:
    got, want = len(rec), len(header)
    if got < want:
        hint = " (a quote left open?)" if any("\n" in v or "," in v for v in rec) else ""
        return (f"{got} field{'s' if got != 1 else ''} where the header has {want}: the row ends before column "
                f"{_letter(got)} ({excerpt(header[got])}){hint}; every row needs as many fields as the header")
    extra = ", ".join(repr(v) if v else "empty" for v in rec[want:want + 3]) + (", ..." if got - want > 3 else "")
    return (f"{got} fields where the header has {want}: column{'s' if got - want > 1 else ''} "
            f"{_letter(want)}{'-' + _letter(got - 1) if got - want > 1 else ''} ({extra}) "
            f"{'have' if got - want > 1 else 'has'} no header (a stray comma shifts every value after it)")


def _letter(i: int) -> str:
    """Spreadsheet column letter of the 0-based column ``i`` (0 -> A, 26 -> AA)."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def _first_bad(masks: list[tuple[str, np.ndarray]], rows: np.ndarray):
    """The first (row, column) flagged in reading order: ``(position, column)`` or None."""
    best = None
    for col, mask in masks:
        hit = np.flatnonzero(mask)
        if len(hit) and (best is None or rows[hit[0]] < rows[best[0]]):
            best = (int(hit[0]), col)
    return best


def _cell_problem(raw: str, value: str) -> str:
    if raw[:1] in ("\t", "\r"):
        return (f"{excerpt(raw)} begins with a {'tab' if raw[0] == chr(9) else 'carriage return'}: a spreadsheet "
                "could read it as a formula")
    if len(value) > MAX_CELL:
        return f"a cell of {len(value):,} characters (at most {MAX_CELL:,})"
    m = _CONTROL.search(value)
    if m:
        what = ("a line break (a quote left open?)" if m.group() in "\r\n"
                else f"the control character U+{ord(m.group()):04X}")
        return f"{excerpt(value)} holds {what}; names and numbers are one line of visible text"
    if formula_like(value):
        return (f"{excerpt(value)} begins with {excerpt(value[0])}: a spreadsheet would run it as a formula; "
                "names and codes may not begin with = + - @ (negative or signed numbers are fine)")
    return ""


_C0 = bytes(range(0, 9)) + b"\x0b\x0c" + bytes(range(14, 32)) + b"\x7f"
_NOT_C0 = bytes(b for b in range(256) if b not in _C0)


def _may_hold_controls(data: bytes) -> bool:
    """False when no cell of the file can hold a control character. A fast test on the bytes: no quote (so
    line breaks only end rows), no tab or other C0 control, and no lead bytes of the C1 controls (U+0080-009F)
    or of the bidirectional overrides (U+202A-202E, U+2066-2069)."""
    if b'"' in data or b"\t" in data or data.translate(None, _NOT_C0):
        return True
    return b"\xc2" in data or b"\xe2\x80" in data or b"\xe2\x81" in data


def _check_cells(name: str, raws: list[pd.Series], values: list[pd.Series], header: list[str], rows: np.ndarray,
                 controls: bool = True):
    """Refuse, in reading order, the first cell that is formula-like, holds a control character or is too long."""
    import pyarrow as pa
    import pyarrow.compute as pc
    masks = []
    for col, raw, val in zip(header, raws, values):
        if len(val) == 0:
            continue
        bad = np.zeros(len(val), dtype=bool)
        if controls:
            bad |= raw.str.contains(_CONTROL_RE, regex=True).to_numpy(dtype=bool, na_value=False)
        if pc.max(pc.binary_length(pa.array(val))).as_py() > MAX_CELL:
            bad |= val.str.len().to_numpy(dtype=np.int64, na_value=0) > MAX_CELL
        cand = np.array(val.str.startswith(("=", "+", "@", "-")).to_numpy(dtype=bool, na_value=False))
        if cand.any():
            idx = np.flatnonzero(cand)
            cand[idx] = [formula_like(v) for v in val.iloc[idx]]
            bad |= cand
        if bad.any():
            masks.append((col, bad))
    hit = _first_bad(masks, rows)
    if hit is not None:
        i, col = hit
        j = header.index(col)
        raise InputError(_cell_problem(raws[j].iat[i], values[j].iat[i]), file=name, row=int(rows[i]), column=col)


def _clean(col: pd.Series) -> pd.Series:
    if col.str.isascii().all():            # ASCII needs no normalising: only strip (fast path)
        return col.str.strip()
    return col.map(nfc).astype("str")


#: Tables of small CSV files read in this process, by (path, what, required columns, SHA-256 of the bytes), each
#: caller given a copy: never keyed by a file's time or size; a refusal is never kept (raised again on each read).
_PARSED: dict = {}
_PARSED_SIZE, _PARSED_BYTES = 64, 1 << 20


def read_csv(path, required: list[str] | tuple[str, ...] = (), *, what: str = "table") -> pd.DataFrame:
    """Read a user's (or a shipped) CSV as text, check its shape and every cell, NFC-normalise every cell.

    The one reader of CSV files. Returns a DataFrame of ``str`` with an extra integer column ``_row``: the row
    as a spreadsheet numbers it (header = row 1; an empty line is skipped but keeps its number). Refused, each
    with one line naming file, row and column: a path that is not a readable regular file (a folder, a
    named pipe, a device such as /dev/null: said as such), an empty file, text that is not UTF-8 (a UTF-8
    byte-order mark is accepted), a NUL byte, a row with more or fewer fields than the header (a stray comma
    would shift every value after it), an empty or duplicate column name (a column without a name is allowed
    only when all its cells are empty), a missing required column, and any cell that begins with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return unless it is a plain number (a spreadsheet would run it as a
    formula), holds a control character or line break, or is longer than :data:`MAX_CELL` characters.
    Quoted fields may hold commas.
    """
    data = read_input_bytes(path, what)
    key = (str(path), what, tuple(required), hashlib.sha256(data).digest()) if len(data) <= _PARSED_BYTES else None
    if key in _PARSED:                       # a small file read before with the same bytes: its table again
        _PARSED[key] = _PARSED.pop(key)      # the most recently used last
        return _PARSED[key].copy()
    df = _read_csv(str(path), data, path, required, what)
    if key is not None:
        _PARSED[key] = df.copy()
        if len(_PARSED) > _PARSED_SIZE:
            del _PARSED[next(iter(_PARSED))]
    return df


def _read_csv(name: str, data: bytes, path, required, what: str) -> pd.DataFrame:
    """:func:`read_csv` of the bytes ``data`` of the file ``name``."""
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    if not data.strip():
        raise InputError(f"{what} file is empty: the header row (column names) is missing", file=name, row=1)
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    if lines > MAX_INPUT_ROWS:
        raise InputError(f"{what} file of {lines:,} lines: at most {MAX_INPUT_ROWS:,} rows are read", file=name)
    parsed = None if b"\x00" in data else _parse_fast(data)
    header, raws, rows = parsed if parsed is not None else _parse_exact(data, path)
    header_raw = [str(h) for h in header]
    header = [nfc(h) for h in header_raw]
    for j, (raw, h) in enumerate(zip(header_raw, header)):
        problem = _cell_problem(raw, h) if raw else ""
        if problem:
            raise InputError(f"column name {problem}", file=name, row=1, column=_letter(j))
        if h and h in header[:j]:
            raise InputError(f"the column name {excerpt(h)} appears twice (columns {_letter(header.index(h))} and "
                             f"{_letter(j)}); each column needs its own name", file=name, row=1, column=h)
    values = [_clean(c) for c in raws]
    keep = []
    for j, h in enumerate(header):
        if h == "":
            full = np.flatnonzero((values[j] != "").to_numpy(dtype=bool))
            if len(full):
                raise InputError(f"column {_letter(j)} has no name in the header but holds "
                                 f"{excerpt(values[j].iat[full[0]])}", file=name, row=int(rows[full[0]]),
                                 column=_letter(j))
            continue                           # a nameless, empty column (trailing commas): ignored
        keep.append(j)
    _check_cells(name, [raws[j] for j in keep], [values[j] for j in keep], [header[j] for j in keep], rows,
                 controls=_may_hold_controls(data))
    df = pd.DataFrame({header[j]: values[j].reset_index(drop=True) for j in keep})
    if not keep:
        df = pd.DataFrame(index=range(len(rows)))
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise InputError(f"missing column(s) {', '.join(repr(c) for c in missing)}; "
                         f"found {', '.join(repr(c) for c in df.columns)}", file=name, row=1,
                         column=missing[0])
    df["_row"] = rows
    return df


def require_rows(df: pd.DataFrame, path, what: str, needed: str) -> None:
    """A file that holds only its header row (or only empty lines after it) is refused in one line naming the
    file and row 2, where the first data row belongs: ``needed`` says what rows it must give."""
    if len(df) == 0:
        raise InputError(f"{what} file holds only the header row: {needed}", file=str(path), row=2)


#: Bounds of the whole numbers a user file may hold, by kind: (smallest, largest, what it is called).
INT_KINDS = {
    "population": (0, 10**10, "population"),
    "count": (0, 10**10, "count"),
    "year": (1950, 2100, "year"),
    "lot": (0, 10**9, "lot"),
    "code": (0, 10**15 - 1, "code"),
}
_COUNT_COLUMNS = {"seats", "n_districts", "lgd_gp_count", "gps", "count", "members", "elected"}


def int_kind(column: str) -> str:
    """The kind of a whole-number column from its name (see :data:`INT_KINDS`): ``year``, ``lot``, ``code``
    (``unit`` and ``*code``), ``count`` (seats, numbers of units) or ``population`` (everything else)."""
    c = column.lower()
    if c == "year" or c.endswith("_year"):
        return "year"
    if c == "lot":
        return "lot"
    if c == "unit" or c.endswith("code"):
        return "code"
    if c in _COUNT_COLUMNS:
        return "count"
    return "population"


def int_column(df: pd.DataFrame, column: str, path, *, allow_blank: bool = False,
               kind: str | None = None) -> pd.Series:
    """Parse a column of bounded whole numbers; a bad cell is an InputError naming file, row and column.

    ``kind`` (default: from the column name, :func:`int_kind`) sets the range and the word used in messages:
    populations and counts 0 to 10**10 (so that sums over a million units stay exact in int64), years
    1950-2100, lots 0 to 10**9, codes 0 to 10**15 - 1. Devanagari (०-९) and full-width (０-９) digits are
    accepted and read as ASCII digits; a leading ``+`` is accepted; anything else (decimals, thousands
    separators, exponents, more than 18 digits) is not a whole number.
    """
    kind = kind or int_kind(column)
    lo, hi, noun = INT_KINDS[kind]
    raw = df[column]
    if not raw.str.isascii().all():
        raw = raw.map(ascii_digits).astype("str")
    blank = (raw == "").to_numpy(dtype=bool)
    ok = raw.str.fullmatch(r"[+-]?[0-9]{1,18}").to_numpy(dtype=bool, na_value=False) | (blank & allow_blank)
    rows = df["_row"]
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        v = raw.iat[i]
        if v == "":
            msg = f"empty cell: a {noun} is needed"
        elif re.fullmatch(r"[+-]?[0-9]+", v):
            shown = f"{v[:24]}{'...' if len(v) > 24 else ''}"
            msg = (f"negative {noun} {shown}" if v.startswith("-") else
                   f"{noun} {shown} has {len(v.lstrip('+'))} digits: too large (at most {hi:,})")
        else:
            msg = f"{excerpt(df[column].iat[i])} is not a whole number (a {noun})"
        raise InputError(msg, file=str(path), row=int(rows.iat[i]), column=column)
    values = _whole_numbers(raw, blank)
    out = ((values < lo) | (values > hi)).fillna(False).to_numpy(dtype=bool)
    if out.any():
        i = int(np.flatnonzero(out)[0])
        x = int(values.iat[i])
        if x < 0:
            msg = f"negative {noun} {x}"
        elif x < lo:
            msg = f"{noun} {x} is before {lo}"
        elif kind == "year":
            msg = f"{noun} {x} is after {hi}"
        else:
            msg = f"{noun} {x:,} is too large (at most {hi:,})"
        if kind == "year":
            msg += f" (years {lo}-{hi} are accepted)"
        raise InputError(msg, file=str(path), row=int(rows.iat[i]), column=column)
    return values if allow_blank else values.astype("int64")


def _whole_numbers(raw: pd.Series, blank: np.ndarray) -> pd.Series:
    """The checked whole numbers of ``raw`` (each ``[+-]?[0-9]{1,18}``, or blank: missing) as Int64, with its index
    and name: parsed by pyarrow (no Python object per cell) when the text is pyarrow's, else by pandas."""
    if isinstance(raw.dtype, pd.StringDtype) and raw.dtype.storage == "pyarrow" and not blank.any():
        import pyarrow as pa
        import pyarrow.compute as pc
        arr = pa.array(raw.array)
        if pc.any(pc.starts_with(arr, "+")).as_py():
            arr = pc.replace_substring_regex(arr, r"^\+", "")
        nums = pc.cast(arr, pa.int64()).to_numpy(zero_copy_only=False)
        return pd.Series(pd.arrays.IntegerArray(nums, np.zeros(len(nums), dtype=bool)), index=raw.index,
                         name=raw.name)
    return pd.to_numeric(raw.where(~blank, None), errors="raise").astype("Int64")


def check_populations(df: pd.DataFrame, path, total: str, parts: tuple[str, ...], *, each: bool = False) -> None:
    """The parts together are at most the total (SC + ST <= total); with ``each=True`` every part on its own
    (women <= total, OBC <= total). Columns absent from ``df`` are left out; the first bad row is an
    InputError naming file, row and column."""
    parts = tuple(p for p in parts if p in df.columns)
    if total not in df.columns or not parts:
        return
    groups = [(p,) for p in parts] if each else [parts]
    masks = []
    for g in groups:
        s = sum(df[p] for p in g)
        masks.append((g, (s > df[total]).fillna(False).to_numpy(dtype=bool)))
    rows = df["_row"].to_numpy()
    hit = _first_bad([(g, m) for g, m in masks], rows)
    if hit is not None:
        i, g = hit
        s = int(sum(df[p].iat[i] for p in g))
        raise InputError(f"{' + '.join(g)} = {s} exceeds {total} = {int(df[total].iat[i])}",
                         file=str(path), row=int(rows[i]), column=g[0])


#: Columns of the district table returned by :func:`load_districts`.
DISTRICT_COLUMNS = {
    "unit_code": "LGD district code (int)",
    "unit_name_en": "English name (canonical, as in data/districts.csv)",
    "unit_name_hi": "Hindi name (SEC-UP spelling, NFC)",
    "district": "= unit_name_en (a district is its own district)",
    "division": "revenue division, English (data/divisions.csv)",
    "division_hi": "revenue division, Hindi",
    "census2011_code": "Census 2011 district code ('' for the four districts created after 2011)",
    "pop_total": "Census 2011 total population", "pop_rural": "rural", "pop_urban": "urban",
    "sc_total": "Scheduled Castes, total", "sc_rural": "rural", "sc_urban": "urban",
    "st_total": "Scheduled Tribes, total", "st_rural": "rural", "st_urban": "urban",
}

_DISTRICT_SOURCE = {
    "unit_code": "district_lgd_code", "unit_name_en": "district_en", "unit_name_hi": "district_hi",
    "division": "division_en", "division_hi": "division_hi", "census2011_code": "census2011_district_code",
    "pop_total": "tot_p", "pop_rural": "tot_p_rural", "pop_urban": "tot_p_urban",
    "sc_total": "sc", "sc_rural": "sc_rural", "sc_urban": "sc_urban",
    "st_total": "st", "st_rural": "st_rural", "st_urban": "st_urban",
}
_INT_COLUMNS = ("unit_code", "pop_total", "pop_rural", "pop_urban", "sc_total", "sc_rural", "sc_urban",
                "st_total", "st_rural", "st_urban")


def load_districts(path=None) -> pd.DataFrame:
    """The 75 districts with codes, names, division and Census 2011 populations (see DISTRICT_COLUMNS).

    The shipped table is read once per process; every call returns a fresh copy."""
    if path is None:
        return _shipped_districts().copy()
    return _load_districts(Path(path))


@lru_cache(maxsize=1)
def _shipped_districts() -> pd.DataFrame:
    return _load_districts(DATA_DIR / "districts.csv")


def _load_districts(path: Path) -> pd.DataFrame:
    raw = read_csv(path, list(_DISTRICT_SOURCE.values()), what="district table")
    df = pd.DataFrame({**{k: raw[v] for k, v in _DISTRICT_SOURCE.items()}, "_row": raw["_row"]})
    for c in _INT_COLUMNS:
        df[c] = int_column(df, c, path)
    df["district"] = df["unit_name_en"]
    _check_unique(df, "unit_code", path, source_column="district_lgd_code")
    _check_unique(df, "unit_name_en", path, source_column="district_en")
    check_populations(df, path, "pop_total", ("sc_total", "st_total"))
    check_populations(df, path, "pop_rural", ("sc_rural", "st_rural"))
    check_populations(df, path, "pop_urban", ("sc_urban", "st_urban"))
    bad = df[df["pop_rural"] + df["pop_urban"] != df["pop_total"]]
    if len(bad):
        r = bad.iloc[0]
        raise InputError("rural + urban population differs from the total", file=str(path),
                         row=int(r["_row"]), column="tot_p")
    cols = list(DISTRICT_COLUMNS)
    return df[cols].sort_values("unit_code", kind="stable").reset_index(drop=True)


def _check_unique(df, column, path, source_column=None):
    dup = df[df[column].duplicated(keep="first")]
    if len(dup):
        r = dup.iloc[0]
        first = df[df[column] == r[column]].iloc[0]
        raise InputError(f"duplicate {excerpt(r[column])} (first at row {int(first['_row'])})", file=str(path),
                         row=int(r["_row"]), column=source_column or column)


def load_divisions(path=None) -> pd.DataFrame:
    """The 18 revenue divisions: ``division``, ``division_hi``, ``headquarters``, ``n_districts``."""
    path = Path(path) if path is not None else DATA_DIR / "divisions.csv"
    raw = read_csv(path, ["division_en", "division_hi", "headquarters", "n_districts"], what="division table")
    df = pd.DataFrame({"division": raw["division_en"], "division_hi": raw["division_hi"],
                       "headquarters": raw["headquarters"], "n_districts": int_column(raw, "n_districts", path)})
    return df
