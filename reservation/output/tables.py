"""Writing results: a table (CSV, Excel or Parquet) and its sidecar JSON, checked first, published together.

``write_table(df, "out/zp-chair-2021.csv", meta)`` writes the table and ``out/zp-chair-2021.meta.json`` beside
it (body, year, base year, history years, every option with its value and ambiguity, input files with their
SHA-256, assumptions, counts). The format follows the extension: ``.csv`` (UTF-8, ``\\n`` line ends),
``.xlsx`` (one sheet, a bold header row with a filter drop-down on every column, frozen below the header, and
``category_hi`` beside ``category``: :func:`with_hindi_labels`) or ``.parquet`` (for big tables); any other
extension is refused. ``excel_csv=True`` (``--excel-csv``) begins a CSV with the UTF-8 byte-order mark
(:data:`BOM`), which Excel needs to read a double-clicked CSV as UTF-8 (without it the Hindi garbles); the meta
records ``"encoding": "utf-8-sig"``; such a CSV carries ``category_hi`` as the .xlsx does. The .xlsx needs no
mark.

Safe output:

- **Formulas.** Every text cell of a CSV or Excel file that a spreadsheet could run as a formula (it begins
  with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return and is not a plain number) is written with a
  leading ``'`` (:func:`neutralise`, the one function every writer uses). The readers refuse such cells in
  the user's files already; this is the backstop. Parquet stores values as they are.
- **Targets are checked before anything is written** (:func:`check_output`, through the one output guard of
  every command, :mod:`reservation.output.guard`): never the package's own files or data (``reservation/data`` ->
  ``data/``, resolved), not even with ``--force``; never a symbolic link (refused, not replaced or followed), not
  even with ``--force``; never a folder, a named pipe, a device or a socket; never an input file of the same run;
  and never a file this tool did not write: an existing table is replaced only when the ``FILE.meta.json`` beside
  it is ours (a JSON object whose ``"software"`` is this tool's), an existing meta file only when it is ours,
  unless the user says ``--force`` (``force=True``). The folder must be a folder (or creatable, not through a
  dangling link) and writable.
- **Together or not at all** (:func:`publish`): both files are written to temporary files in the target folder
  and renamed only when both are complete; if the second rename fails the first is rolled back (the previous
  file is restored). Temporary files, and folders created for the output, are removed on any failure and on
  Ctrl-C. Outputs get the mode the umask gives (as any new file).
- **Deterministic**: the same table gives byte-identical files (no timestamps: the Excel file's dates are fixed
  at 2000-01-01, its zip entries at 1980-01-01; sorted JSON keys).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import secrets
import zipfile
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np
import pandas as pd

from ..base.version import __version__
from ..base.errors import InputError
from .guard import SOFTWARE as _SOFTWARE
from .guard import check_not_inputs, check_table, excerpt, ours
from ..inputs.units import formula_like

__all__ = ["FORMATS", "neutralise", "table_csv", "table_bytes", "table_pieces", "csv_bytes", "csv_chunks", "check_output", "publish", "write_table",
           "write_allotment", "meta_path", "sha256", "BOM", "CATEGORY_COLUMNS", "with_hindi_labels"]

#: The UTF-8 byte-order mark that begins a CSV written for Excel (``--excel-csv``).
BOM = b"\xef\xbb\xbf"

#: Extensions ``write_table`` writes, and what they are.
FORMATS = {".csv": "CSV", ".xlsx": "Excel workbook", ".parquet": "Parquet"}
#: Excel's limit: 1,048,576 rows in a sheet, one of them the header.
EXCEL_MAX_ROWS = 1_048_575
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def sha256(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def meta_path(out: Path) -> Path:
    out = Path(out)
    return out.with_name(out.stem + ".meta.json")


# ------------------------------------------------------------------------------------------- formulas

def neutralise(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with a ``'`` before every text cell (and column name) that a spreadsheet could run as a formula.

    See :func:`reservation.inputs.units.formula_like`. Returns ``df`` itself when nothing needs it (the usual case),
    else a copy; numbers are never touched.
    """
    out = df
    for c in df.columns:
        col = df[c]
        if isinstance(col.dtype, pd.StringDtype) or col.dtype == object:
            hit = [i for i in _formula_candidates(col) if formula_like(col.iat[i])]
            if hit:
                if out is df:
                    out = df.copy()
                fixed = col.astype(object).copy()
                for i in hit:
                    fixed.iat[i] = "'" + col.iat[i]
                out[c] = fixed.astype(col.dtype)
    names = ["'" + c if formula_like(c) else c for c in out.columns]
    if names != list(out.columns):
        out = out.copy() if out is df else out
        out.columns = names
    return out


def _formula_candidates(col: pd.Series) -> np.ndarray:
    """The rows of a text column whose cell starts with a character a formula can start with (``=+-@``, tab, CR):
    the first byte of every cell read from the pyarrow buffers at once (those characters are one byte in UTF-8;
    no regex, no Python string per cell: a blockwise write calls this for every column of every block), one test
    per value for an object column."""
    if col.dtype == object:
        starts = col.map(lambda v: isinstance(v, str) and v[:1] in "=+-@\t\r")
        return np.flatnonzero(starts.to_numpy(dtype=bool, na_value=False))
    import pyarrow as pa
    arr = pa.array(col.array)
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)) or len(arr) == 0:
        import pyarrow.compute as pc
        m = pc.fill_null(pc.match_substring_regex(pc.cast(arr, pa.string()), "^[=+@\t\r-]"), False)
        return np.flatnonzero(m.to_numpy(zero_copy_only=False))
    first, nonempty = _first_bytes(arr)
    hit = nonempty & np.isin(first, _FORMULA_BYTES)
    if arr.null_count:
        hit &= arr.is_valid().to_numpy(zero_copy_only=False)
    return np.flatnonzero(hit)


#: The bytes a formula can start with (``=``, ``+``, ``-``, ``@``, tab, carriage return).
_FORMULA_BYTES = np.frombuffer(b"=+-@\t\r", dtype=np.uint8)


def _first_bytes(arr) -> tuple[np.ndarray, np.ndarray]:
    """The first byte of each cell of a pyarrow string array (0 for an empty cell) and whether it has one."""
    import pyarrow as pa
    bufs = arr.buffers()
    width = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    offsets = np.frombuffer(bufs[1], dtype=width)[arr.offset:arr.offset + len(arr) + 1]
    nonempty = offsets[1:] > offsets[:-1]
    first = np.zeros(len(arr), dtype=np.uint8)
    if bufs[2] is not None and nonempty.any():
        data = np.frombuffer(bufs[2], dtype=np.uint8)
        first[nonempty] = data[offsets[:-1][nonempty]]
    return first, nonempty


def table_csv(df: pd.DataFrame) -> str:
    """The CSV text of a table as every command writes it (neutralised, ``\\n`` line ends, no index)."""
    return csv_bytes(neutralise(df)).decode("utf-8")


def _pandas_csv(df: pd.DataFrame, header: bool = True) -> bytes:
    return df.to_csv(index=False, header=header, lineterminator="\n").encode("utf-8")


def csv_bytes(df: pd.DataFrame) -> bytes:
    """``df.to_csv(index=False, lineterminator="\\n")`` as UTF-8 bytes (see :func:`csv_chunks`)."""
    return b"".join(csv_chunks(df))


#: Rows per piece of a CSV written by :func:`csv_chunks` (732,000 rows with reasons: about 30 MB a piece).
CSV_CHUNK_ROWS = 65_536


#: Rows rendered at a time by :func:`write_allotment` (words and CSV bytes of 16,384 units: ~10 MB of text, ~50 MB
#: of intermediates; 65,536 rows took ~200 MB at a time, for no gain in speed).
RENDER_BLOCK_ROWS = 16_384


def csv_chunks(df: pd.DataFrame, rows: int = CSV_CHUNK_ROWS, header: bool = True) -> Iterator[bytes]:
    """The bytes of ``df.to_csv(index=False, lineterminator="\\n")`` in pieces of ``rows`` rows (the header
    first), written with pyarrow's string kernels for tables of whole numbers and text (the same bytes: minimal
    quoting, empty cells for missing values; checked by tests/test_output_csv.py), by pandas for anything else.
    732,000 rows with their reasons take seconds instead of a minute, without one Python string per cell, and a
    piece at a time: the whole file is never in memory twice. ``header=False``: the rows only (a later block of
    a table written in blocks)."""
    import pyarrow as pa
    kinds = []
    for c in df.columns:
        dt = df[c].dtype
        kinds.append("T" if isinstance(dt, pd.StringDtype) else "i" if isinstance(dt, pd.Int64Dtype) else dt.kind)
    if len(df.columns) < 2 or len(df) == 0 or any(k not in "iuTO" for k in kinds):
        yield _pandas_csv(df, header)
        return
    columns = []
    for c, k in zip(df.columns, kinds):
        col = df[c]
        if k == "O":
            values = col.tolist()
            if not all(v is None or isinstance(v, str) or v is pd.NA or (isinstance(v, float) and v != v)
                       for v in values):
                yield _pandas_csv(df, header)
                return
            columns.append(pa.array([v if isinstance(v, str) else None for v in values], type=pa.string()))
        else:
            columns.append(pa.array(col, from_pandas=True))
    if header:
        head = io.StringIO()
        csv.writer(head, lineterminator="\n").writerow([str(c) for c in df.columns])
        yield head.getvalue().encode("utf-8")
    for start in range(0, len(df), rows):
        yield _csv_rows([a.slice(start, rows) for a in columns], kinds)


def _csv_rows(columns: list, kinds: list[str]) -> bytes:
    """The CSV lines of some rows, one pyarrow array per column (text: "T"/"O", whole numbers: "i"/"u")."""
    import pyarrow as pa
    import pyarrow.compute as pc
    cells = []
    for arr, k in zip(columns, kinds):
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
        if k in "TO":
            arr = _quoted_text(arr)
        else:
            arr = pc.fill_null(pc.cast(arr, pa.string()), "")
        cells.append(arr)
    cells[-1] = pc.binary_join_element_wise(cells[-1], "\n", "")      # the line end, on the last cell only
    lines = pc.binary_join_element_wise(*cells, ",")
    if isinstance(lines, pa.ChunkedArray):
        lines = lines.combine_chunks()
    bufs = lines.buffers()
    width = np.int64 if pa.types.is_large_string(lines.type) else np.int32
    offsets = np.frombuffer(bufs[1], dtype=width)[lines.offset:lines.offset + len(lines) + 1]
    return bytes(memoryview(bufs[2])[int(offsets[0]):int(offsets[-1])])


#: A text column whose first :data:`_SAMPLE` rows hold at most this many distinct texts is quoted once per
#: distinct text (a clause, a step: a few texts over thousands of rows), else cell by cell (the reasons).
_FEW = 64
_SAMPLE = 1024


def _quoted_text(arr):
    """A text column's cells as the CSV writes them: missing -> empty, a cell holding ``,`` ``"`` or a line end
    in quotes with its quotes doubled (the csv module's minimal quoting, as ``DataFrame.to_csv``). A column of a
    few distinct texts is quoted once per text (dictionary-encoded, then taken back)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    if not pa.types.is_string(arr.type):
        arr = pc.cast(arr, pa.string())
    if len(arr) > _SAMPLE and len(pc.unique(arr.slice(0, _SAMPLE))) <= _FEW:
        enc = arr.dictionary_encode()
        texts = _quote_cells(pc.fill_null(enc.dictionary, ""))
        out = pc.take(texts, enc.indices)
        return pc.fill_null(out, "") if out.null_count else out
    return _quote_cells(pc.fill_null(arr, "") if arr.null_count else arr)


def _quote_cells(arr):
    """Minimal quoting of a string array without missing values: the cells holding ``,`` ``"`` or ``\\n`` found
    from the bytes at once (numpy compares over the data buffer; pyarrow's substring kernels test cell by cell
    and cost several times more), then quoted."""
    import pyarrow as pa
    import pyarrow.compute as pc
    bufs = arr.buffers()
    width = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    offsets = np.frombuffer(bufs[1], dtype=width)[arr.offset:arr.offset + len(arr) + 1]
    if bufs[2] is None or offsets[-1] == offsets[0]:
        return arr
    data = np.frombuffer(bufs[2], dtype=np.uint8)[offsets[0]:offsets[-1]]
    hit = np.equal(data, 44)                                # ,  (two buffers for the three tests: each new
    other = np.equal(data, 10)                              # \n  buffer of a block's bytes costs page faults)
    hit |= other
    np.equal(data, 34, out=other)                           # "
    quote = other.any()
    hit |= other
    at = np.flatnonzero(hit)
    if not len(at):
        return arr
    special = np.zeros(len(arr), dtype=bool)
    special[np.searchsorted(offsets, at + offsets[0], side="right") - 1] = True
    body = pc.replace_substring(arr, '"', '""') if quote else arr
    quoted = pc.binary_join_element_wise('"', body, '"', "")
    return quoted if special.all() else pc.if_else(pa.array(special), quoted, arr)


# ------------------------------------------------------------------------------------------- for Excel

#: The columns that hold a category code. A table written for Excel (an .xlsx, or a CSV with ``--excel-csv``)
#: carries the Hindi label of each beside it (``category`` -> ``category_hi``): the file a newsroom opens.
CATEGORY_COLUMNS = ("category", "published", "computed", "most_likely")


def with_hindi_labels(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with ``NAME_hi`` after each :data:`CATEGORY_COLUMNS` column it has (and lacks the ``_hi`` of): the
    Hindi label of the code (``OBC_W`` -> "अन्य पिछड़ा वर्ग महिला", :mod:`reservation.law.words`), empty where
    the cell is not a category code (unknown, not in the list). ``df`` itself when it has none."""
    from ..law.categories import CODES, label
    todo = [c for c in CATEGORY_COLUMNS if c in df.columns and f"{c}_hi" not in df.columns]
    if not todo:
        return df
    hindi = {code: label(code, "hi") for code in CODES}
    out = df.copy()
    for c in todo:
        out.insert(out.columns.get_loc(c) + 1, f"{c}_hi", [hindi.get(v, "") if isinstance(v, str) else ""
                                                            for v in out[c].to_numpy()])
    return out


# ------------------------------------------------------------------------------------------- formats

def _format_of(path, flag: str = "--out") -> str:
    ext = Path(path).suffix.lower()
    if ext not in FORMATS:
        shown = f"not {excerpt(ext)!r}" if ext else "and the name has no extension"
        raise InputError(f"{excerpt(path)}: the table is written as {', '.join(FORMATS)} "
                         f"({', '.join(FORMATS.values())}), {shown}", option=flag)
    return ext


def table_bytes(df: pd.DataFrame, fmt: str) -> bytes:
    """The bytes of ``df`` as a ``.csv``, ``.xlsx`` or ``.parquet`` file (deterministic)."""
    if fmt == ".csv":
        return csv_bytes(neutralise(df))
    if fmt == ".xlsx":
        return _xlsx(df)
    if fmt == ".parquet":
        return _parquet(df)
    raise ValueError(fmt)


def table_pieces(df: pd.DataFrame, fmt: str) -> Iterable[bytes]:
    """The bytes of :func:`table_bytes` in pieces (a CSV a block of rows at a time; the other formats whole)."""
    if fmt == ".csv":
        return csv_chunks(neutralise(df))
    return [table_bytes(df, fmt)]


def _cell(v):
    """A value as openpyxl takes it: Python int/float/bool/str, None for a missing value."""
    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return None
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, str):
        from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
        return ILLEGAL_CHARACTERS_RE.sub("\ufffd", v)
    if isinstance(v, (int, float, bool)):
        return v
    return str(v)


def _xlsx(df: pd.DataFrame) -> bytes:
    if len(df) > EXCEL_MAX_ROWS:
        raise InputError(f"{len(df):,} rows do not fit in an Excel sheet (at most {EXCEL_MAX_ROWS:,}); write "
                         ".csv or .parquet instead", option="--out")
    import datetime

    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font
    from openpyxl.writer.excel import ExcelWriter

    df = neutralise(with_hindi_labels(df))
    wb = Workbook(write_only=True)
    fixed = datetime.datetime(2000, 1, 1)
    wb.properties.created = wb.properties.modified = fixed
    wb.properties.creator = _SOFTWARE
    ws = wb.create_sheet("table")
    ws.freeze_panes = "A2"
    from openpyxl.utils import get_column_letter
    if len(df.columns):                                 # the filter row: a drop-down on every header cell
        ws.auto_filter.ref = f"A1:{get_column_letter(len(df.columns))}{len(df) + 1}"
    for j, c in enumerate(df.columns, 1):         # width from the header and the first rows, 8 to 60 characters
        sample = [len(str(v)) for v in map(_cell, df[c].iloc[:200]) if v is not None]
        ws.column_dimensions[get_column_letter(j)].width = min(60, max(8, len(str(c)) + 2, *sample, 0) + 1)
    bold = Font(bold=True)
    header = []
    for c in df.columns:
        cell = WriteOnlyCell(ws, value=_cell(str(c)))
        cell.font = bold
        header.append(cell)
    ws.append(header)
    columns = [df[c].astype(object).to_numpy() for c in df.columns]
    for values in zip(*columns):
        ws.append([_cell(v) for v in values])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as archive:
        ExcelWriter(wb, archive).save()                 # not save_workbook: it stamps the time of saving
    return _fixed_zip_times(buf.getvalue())


def _fixed_zip_times(data: bytes) -> bytes:
    """The same zip archive with every entry dated 1980-01-01 (openpyxl dates them at the time of writing)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as dst:
        for info in src.infolist():
            z = zipfile.ZipInfo(info.filename, date_time=_FIXED_TIME)
            z.compress_type = zipfile.ZIP_DEFLATED
            z.external_attr = 0o644 << 16
            dst.writestr(z, src.read(info.filename))
    return out.getvalue()


def _parquet(df: pd.DataFrame) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pa.Table.from_pandas(df, preserve_index=False)
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd")
    return buf.getvalue()


# ------------------------------------------------------------------------------------------- targets

_ours = ours                 # the test of a meta file of ours (reservation.output.guard.ours)


def check_output(path, *, flag: str = "--out", force: bool = False, inputs=()) -> tuple[Path, Path]:
    """Check a table's target and its meta file before anything is computed or written (the one output guard,
    :mod:`reservation.output.guard`).

    Returns ``(table path, meta path)``; an InputError (exit 2) names the flag and says what is wrong: an
    empty path, an extension that is not ``.csv``/``.xlsx``/``.parquet``, a target in the package's own folders
    (even with ``force``), a target that is a symbolic link (even with ``force``), a folder, a named pipe, a
    device or a socket, a path under a regular file or through a dangling link, an unwritable folder, an existing
    table without a meta file of ours beside it or an existing meta file that this tool did not write (unless
    ``force``), or one of ``inputs`` (the run's input files).
    """
    if path is None or str(path).strip() == "":
        raise InputError("the path is empty: give a file name ending in .csv, .xlsx or .parquet", option=flag)
    p = Path(str(path))
    _format_of(p, flag)
    mp = meta_path(p)
    check_not_inputs((p, mp), inputs, flag=flag)
    check_table(p, mp, flag=flag, force=force)
    return p, mp


# ------------------------------------------------------------------------------------------- publishing

def _temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


def _make_folders(folder: Path, created: list[Path]) -> None:
    missing = []
    p = folder
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        os.mkdir(d)                                      # mode 0o777 less the umask, as mkdir -p
        created.append(d)


def publish(files: dict) -> None:
    """Write ``{path: bytes}`` (or ``{path: pieces of bytes}``, written one after the other) so that either every
    file is replaced or none is.

    Each file goes to a temporary file beside its target (created with mode 0o666 less the umask, like any new
    file), is flushed to disk, and is renamed over its target only when all are complete. If a rename fails, or
    Ctrl-C arrives between two renames, the targets already renamed are restored (from a hard link to the
    previous file, or removed when there was none). Temporary files, backups and the folders created for the
    output are removed on any failure. Every name is recorded before the step that creates it, so that an
    interruption at any point leaves nothing behind.
    """
    files = {Path(p): data for p, data in files.items()}
    created: list[Path] = []
    temps: dict[Path, Path] = {}
    backups: dict[Path, Path] = {}
    had: dict[Path, bool] = {}
    renamed: list[Path] = []
    target = None
    try:
        for target in files:
            _make_folders(target.parent, created)
        for target, data in files.items():
            temps[target] = tmp = _temp_name(target)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            with os.fdopen(fd, "wb") as f:
                for piece in ([data] if isinstance(data, (bytes, bytearray, memoryview)) else data):
                    f.write(piece)
                f.flush()
                os.fsync(f.fileno())
        for target, tmp in temps.items():
            had[target] = os.path.lexists(target)
            if had[target]:
                backups[target] = b = _temp_name(target).with_suffix(".bak")
                _link_or_copy(target, b)
            renamed.append(target)                           # before the rename: an interrupt may come after it
            os.replace(tmp, target)
    except BaseException as e:
        for t in reversed(renamed):
            if had.get(t) and t in backups:
                _quietly(os.replace, backups[t], t)
            elif not had.get(t):
                _quietly(os.unlink, t)
        for p in list(temps.values()) + list(backups.values()):
            _quietly(os.unlink, p)
        for d in reversed(created):
            _quietly(os.rmdir, d)
        if isinstance(e, OSError) and target is not None:      # name the target, not a temporary file
            raise OSError(e.errno, e.strerror or str(e), str(target)) from e
        raise
    for p in backups.values():
        _quietly(os.unlink, p)


def _quietly(fn, *args) -> None:
    """One clean-up step: an OSError ends it (the file is already gone), a second Ctrl-C does not."""
    for _ in range(3):
        try:
            fn(*args)
            return
        except OSError:
            return
        except KeyboardInterrupt:
            continue


def _link_or_copy(target: Path, backup: Path) -> None:
    """A hard link to the file a rename is about to replace (a copy where links are not possible)."""
    try:
        os.link(target, backup, follow_symlinks=False)
    except OSError:
        import shutil
        shutil.copy2(target, backup, follow_symlinks=False)


# ------------------------------------------------------------------------------------------- entry points

def write_table(df: pd.DataFrame, path, meta: dict | None = None, *, force: bool = False,
                flag: str = "--out", excel_csv: bool = False) -> tuple[Path, Path | None]:
    """Write ``df`` to ``path`` (``.csv``, ``.xlsx`` or ``.parquet``) and, when ``meta`` is given, its
    ``.meta.json`` beside it: every target checked first (:func:`check_output`; ``force`` replaces a file this
    tool did not write), both files published together or not at all. ``excel_csv``: a CSV begins with the
    byte-order mark (:func:`for_excel`). Returns the paths written."""
    p, mp = check_output(path, flag=flag, force=force)
    return _write(p, mp, table_pieces(with_hindi_labels(df) if excel_csv else df, _format_of(p)), meta, excel_csv)


def for_excel(p: Path, pieces, meta: dict | None):
    """The pieces of a CSV with the byte-order mark before them, and the meta saying so (``--excel-csv``)."""
    if _format_of(p) != ".csv":
        raise InputError(f"{excerpt(p)!r} is not a .csv: the byte-order mark is for a CSV", option="--excel-csv")
    meta = None if meta is None else {**meta, "encoding": "utf-8-sig"}
    return (piece for first in ([BOM], pieces) for piece in first), meta


def _write(p: Path, mp: Path, pieces, meta: dict | None, excel_csv: bool = False) -> tuple[Path, Path | None]:
    if excel_csv:
        pieces, meta = for_excel(p, pieces, meta)
    files = {p: pieces}
    if meta is not None:
        meta = dict(meta)
        meta["software"] = f"{_SOFTWARE} {__version__}"
        files[mp] = (json.dumps(meta, ensure_ascii=False, indent=2, sort_keys=True, default=str) + "\n").encode()
    publish(files)
    return p, (mp if meta is not None else None)


def write_allotment(allotment, out, lang: str = "en", *, force: bool = False,
                    flag: str = "--out", excel_csv: bool = False) -> tuple[Path, Path]:
    """Write the allotment table (its words in ``lang``, "en" or "hi") and its ``.meta.json``; returns both
    paths. A Hindi table's meta says so (``"lang": "hi"``).

    A CSV is rendered and written a block of :data:`CSV_CHUNK_ROWS` rows at a time
    (:meth:`reservation.allotment.result.Allotment.table_blocks`: the same bytes as ``write_table(allotment.table,
    ...)``, without holding the words of every unit); the other formats, and objects without ``table_blocks``
    (a projection, an audit's table), write the whole table as before. The targets are checked again
    (:func:`check_output`, ``force`` as there) just before writing: a file may have appeared while the result was
    computed. ``excel_csv``: a CSV begins with the byte-order mark (``--excel-csv``, :func:`for_excel`)."""
    if not hasattr(allotment, "table_blocks"):             # a projection, an audit's table: as before
        if lang == "en":
            return write_table(allotment.table, out, allotment.meta, force=force, flag=flag, excel_csv=excel_csv)
        return write_table(allotment.table_in(lang), out, {**allotment.meta, "lang": lang}, force=force, flag=flag,
                           excel_csv=excel_csv)
    p, mp = check_output(out, flag=flag, force=force)
    meta = allotment.meta if lang == "en" else {**allotment.meta, "lang": lang}
    if _format_of(p) != ".csv":
        return _write(p, mp, table_pieces(allotment.table if lang == "en" else allotment.table_in(lang),
                                          _format_of(p)), meta, excel_csv)
    blocks = allotment.table_blocks(lang, RENDER_BLOCK_ROWS)
    if excel_csv:                                          # for Excel: the Hindi label of each category too
        blocks = (with_hindi_labels(b) for b in blocks)
    return _write(p, mp, _blocks_csv(blocks), meta, excel_csv)


def _blocks_csv(blocks) -> Iterator[bytes]:
    """The CSV bytes of a table given as blocks of rows (the header once, from the first block)."""
    for i, block in enumerate(blocks):
        yield from csv_chunks(neutralise(block), header=i == 0)
