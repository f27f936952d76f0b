"""The DPC's input files, read strictly: every bad cell is one line naming file, row and column (exit 2).

A DPC count is decided by a handful of marks, so a file that a spreadsheet or a careless export has bent must
never be counted: this module reads the user's files (ballots, candidates, lots, body seats) with its own
reader rather than a forgiving CSV parser.

- **The file**: a name that is empty, missing, a directory or not a regular file (a FIFO, a device such as
  ``/dev/null``) is refused with that cause; over :data:`MAX_BYTES` is refused; the text must be UTF-8 (a
  byte-order mark is allowed).
- **The header** (spreadsheet row 1): every column has a name; no name appears twice (compared after NFC
  and stripping); names that reach an output (candidates on a ballot) may not look like a formula.
- **Every row has exactly one field per column.** A row with more fields (a trailing comma) would shift the
  marks to the wrong candidate; a row with fewer would leave marks out. Both are refused, naming the row and
  the first missing or surplus field. A completely empty line is skipped (spreadsheets write one at the end);
  rows keep the spreadsheet's numbers (the header is row 1, the empty line counts).
- **No formula.** A cell that reaches an output CSV (a candidate's name, a ballot's number, a lot's label)
  may not begin with ``=``, ``+``, ``@``, or ``-`` not followed by a digit: a spreadsheet would run it
  (CSV injection). Such names are refused at input rather than altered, so what is printed is what was given.
- **Whole numbers** (body seats) are ASCII digits, at most :data:`MAX_DIGITS` of them, within a stated range.
"""

from __future__ import annotations

import csv
import io
import re
import stat
from pathlib import Path

import pandas as pd

from ..law.categories import CODES
from ..base.errors import FlagError, InputError, excerpt  # noqa: F401 - FlagError re-exported
from ..inputs.units import nfc

__all__ = ["FlagError", "read_table", "check_file", "formula_like", "check_text", "parse_count", "load_ballots",
           "load_candidates", "load_lots", "CANDIDATE_CATEGORIES", "SEXES", "BALLOT_ID", "MAX_BYTES"]

MAX_BYTES = 64 * 1024 * 1024      # a district's ballots are a few thousand rows at most
MAX_DIGITS = 6
BALLOT_ID = "ballot"
#: A candidate's class as certified with the nomination (r.9(3)); GEN: none of the reserved classes.
CANDIDATE_CATEGORIES = ("SC", "ST", "OBC", "GEN")
_CATEGORY_ALIASES = {"sc": "SC", "st": "ST", "obc": "OBC", "bc": "OBC", "gen": "GEN", "general": "GEN",
                     "ur": "GEN", "अनुसूचित जाति": "SC", "अनुसूचित जनजाति": "ST", "अन्य पिछड़ा वर्ग": "OBC",
                     "पिछड़ा वर्ग": "OBC", "सामान्य": "GEN"}
#: Sex as given with the nomination: F (a woman) or M.
SEXES = ("F", "M")
_SEX_ALIASES = {"f": "F", "female": "F", "woman": "F", "w": "F", "महिला": "F", "स्त्री": "F",
                "m": "M", "male": "M", "man": "M", "पुरुष": "M"}
_FORMULA = re.compile(r"[=+@]|-(?![0-9])")


# --------------------------------------------------------------------------------------------- the file
def check_file(path, what: str) -> Path:
    """The path of a readable regular file, or an InputError naming the cause."""
    if path is None or str(path).strip() == "":
        raise InputError(f"the {what} file name is empty")
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InputError(f"{what} file not found", file=str(path)) from None
    except NotADirectoryError:
        raise InputError(f"{what} file not found: a part of the path is a file, not a folder",
                         file=str(path)) from None
    except OSError as e:
        raise InputError(f"{what} file cannot be read ({e.strerror})", file=str(path)) from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"is a folder, not a {what} file", file=str(path))
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"is not a regular file (a device, a pipe or a socket); give a {what} file",
                         file=str(path))
    if st.st_size > MAX_BYTES:
        raise InputError(f"{st.st_size:,} bytes: a {what} file over {MAX_BYTES // 2**20} MiB is refused",
                         file=str(path))
    return p


def formula_like(value: str) -> bool:
    """True when a spreadsheet would take ``value`` for a formula: it begins with ``=``, ``+``, ``@``, or
    ``-`` not followed by a digit."""
    return bool(_FORMULA.match(value))


def check_text(value: str, path, row: int | None, column: str | None, what: str = "name") -> str:
    if formula_like(value):
        raise InputError(f"{what} {excerpt(value)} begins with {excerpt(value[0])}: a spreadsheet would run it as a formula; "
                         f"a {what} may not begin with =, +, @ or - (other than a negative number)",
                         file=None if path is None else str(path), row=row, column=column)
    return value


def _no_controls(cells, path, row: int, columns) -> None:
    """A cell with a control character (a line break, a tab, an escape, a bidirectional override) is refused,
    never cleaned: names reach the tables and the terminal as they are."""
    from ..base.errors import control_character
    for value, column in zip(cells, columns):
        c = control_character(value)
        if c is not None:
            raise InputError(f"{excerpt(value)} holds the control character U+{ord(c):04X}; names and marks are "
                             "one line of visible text", file=str(path), row=row, column=column)


def read_table(path, required=(), *, what: str = "table", header_names_are: str | None = None) -> pd.DataFrame:
    """The CSV as a DataFrame of NFC-normalised, stripped ``str`` cells and an int column ``_row`` (the
    spreadsheet row). ``header_names_are``: what the column names are (e.g. "candidate"), when they reach an
    output and so may not look like a formula."""
    p = check_file(path, what)
    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text ({e.reason} at byte {e.start})", file=str(path)) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        raise InputError("the file holds a NUL byte: not a CSV text file", file=str(path))
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        records = list(reader)
    except csv.Error as e:
        raise InputError(f"not a readable CSV ({e})", file=str(path), row=reader.line_num) from None
    if not records or not any(c.strip() for c in records[0]):
        raise InputError("empty file: a header row is needed", file=str(path), row=1)
    header = [nfc(h).strip() for h in records[0]]
    _no_controls(header, path, 1, [f"column {i + 1}" for i in range(len(header))])
    seen: set[str] = set()
    for i, h in enumerate(header):
        if h == "":
            raise InputError(f"column {i + 1} of the header has no name", file=str(path), row=1)
        if h in seen:
            raise InputError(f"column {excerpt(h)} appears twice in the header", file=str(path), row=1, column=h)
        if h == "_row":
            raise InputError("'_row' is not a column name this tool accepts (it numbers the rows)", file=str(path),
                             row=1, column=h)
        seen.add(h)
        if header_names_are and h not in required and h != BALLOT_ID:
            check_text(h, path, 1, h, header_names_are)
    missing = [c for c in required if c not in seen]
    if missing:
        raise InputError(f"missing column(s) {', '.join(repr(c) for c in missing)}; found "
                         f"{', '.join(repr(c) for c in header)}", file=str(path), row=1, column=missing[0])
    rows, numbers = [], []
    for n, rec in enumerate(records[1:], start=2):
        if not rec:                                   # an empty line
            continue
        if len(rec) != len(header):
            if len(rec) > len(header):
                col = f"field {len(header) + 1}"
                why = (f"{len(rec)} fields but the header has {len(header)} columns (a trailing comma or a "
                       f"name with a comma and no quotes?)")
            else:
                col = header[len(rec)]
                why = f"{len(rec)} field(s) but the header has {len(header)} columns"
            raise InputError(f"{why}: every row needs exactly one field per column", file=str(path), row=n,
                             column=col)
        rows.append([nfc(c).strip() for c in rec])
        _no_controls(rows[-1], path, n, header)
        numbers.append(n)
    df = pd.DataFrame(rows, columns=header, dtype=object) if rows else pd.DataFrame(columns=header, dtype=object)
    df["_row"] = pd.array(numbers, dtype="int64")
    df.attrs["path"] = str(path)
    return df


def parse_count(value: str, path, row: int, column: str, *, low: int = 0, high: int = 1000) -> int:
    """A whole number from a cell: ASCII digits only, between ``low`` and ``high``."""
    s = value.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,%d}" % MAX_DIGITS, s):
        raise InputError(f"{excerpt(value)} is not a whole number" + (" of at most six digits" if s.isdigit() else ""),
                         file=str(path), row=row, column=column)
    n = int(s)
    if not low <= n <= high:
        raise InputError(f"{n} is outside {low}..{high}", file=str(path), row=row, column=column)
    return n


# ------------------------------------------------------------------------------------------- DPC files
def _bounded(n: int, name: str, path, what: str, row: int | None = None) -> None:
    """At most reservation.inputs.limits.LIMITS[name] of them in a file."""
    from ..inputs.limits import LIMITS
    most = LIMITS[name][1]
    if n > most:
        raise InputError(f"{n:,} {what}: at most {most:,}", file=str(path), row=row)


def load_ballots(path) -> pd.DataFrame:
    """Ballots -> DataFrame of 0/1 ints, one column per candidate (in file order), index = ballot label
    (the ``ballot`` column, or "row N"); ``attrs['rows']`` the spreadsheet rows, ``attrs['path']``."""
    df = read_table(path, what="ballots", header_names_are="candidate")
    cands = [h for h in df.columns if h not in (BALLOT_ID, "_row")]   # none at all: no candidate (r.15)
    _bounded(len(df), "ballots", path, "rows (ballots)")
    _bounded(len(cands), "candidates", path, "candidate columns", row=1)
    marks = {}
    for c in cands:
        col = []
        for value, row in zip(df[c], df["_row"]):
            if value in ("", "0"):
                col.append(0)
            elif value == "1":
                col.append(1)
            else:
                raise InputError(f"ballot mark {excerpt(value)} is not 1 (mark), 0 or blank (no mark)", file=str(path),
                                 row=int(row), column=c)
        marks[c] = col
    out = pd.DataFrame(marks, columns=cands, dtype="int64")
    labels = [f"row {int(r)}" for r in df["_row"]]
    if BALLOT_ID in df.columns:
        seen: dict[str, int] = {}
        for i, (b, row) in enumerate(zip(df[BALLOT_ID], df["_row"])):
            if not b:
                continue
            check_text(b, path, int(row), BALLOT_ID, "ballot number")
            if b in seen:
                raise InputError(f"ballot {excerpt(b)} appears twice (first in row {seen[b]})", file=str(path),
                                 row=int(row), column=BALLOT_ID)
            seen[b] = int(row)
            labels[i] = b
    out.index = pd.Index(labels, name="ballot")
    out.attrs["rows"] = [int(r) for r in df["_row"]]
    out.attrs["path"] = str(path)
    return out


def _code(value: str, aliases: dict, allowed, path, row, column, what) -> str:
    if value == "":
        return ""
    key = value if value in allowed else aliases.get(value.lower(), aliases.get(value))
    if key is None:
        raise InputError(f"{what} {excerpt(value)} is not one of {', '.join(allowed)}", file=str(path), row=row,
                         column=column)
    return key


def load_candidates(path, ballot_candidates: list[str], resolve_municipality=None) -> pd.DataFrame:
    """Candidates -> DataFrame ``candidate, municipality, municipality_lgd_code, category, sex`` in ballot
    order (``attrs['rows']``: candidate -> spreadsheet row).

    Columns: ``candidate`` (needed), ``municipality`` (for urban members), ``category`` (SC, ST, OBC or GEN,
    as certified with the nomination, r.9(3); needed when reserved seats are filled in the poll) and ``sex``
    (F or M; needed for women's seats). ``resolve_municipality(value) -> (lgd_code, name)`` (raising KeyError)
    checks each municipality against the district's list; without it names are kept as given."""
    df = read_table(path, ["candidate"], what="candidates")
    _bounded(len(df), "candidates", path, "rows (candidates)")
    has = {c: c in df.columns for c in ("municipality", "category", "sex")}
    rows = {}
    sheet = {}
    for i, (cand, row) in enumerate(zip(df["candidate"], df["_row"])):
        row = int(row)
        if cand == "":
            raise InputError("empty candidate name", file=str(path), row=row, column="candidate")
        check_text(cand, path, row, "candidate", "candidate name")
        if cand in rows:
            raise InputError(f"candidate {excerpt(cand)} is listed twice", file=str(path), row=row, column="candidate")
        if cand not in ballot_candidates:
            raise InputError(f"candidate {excerpt(cand)} is not a column of the ballot file", file=str(path), row=row,
                             column="candidate")
        m = df["municipality"].iat[i] if has["municipality"] else ""
        code = None
        if m and resolve_municipality is not None:
            try:
                code, m = resolve_municipality(m)
            except KeyError as e:
                raise InputError(str(e.args[0]), file=str(path), row=row, column="municipality") from None
        elif m:
            check_text(m, path, row, "municipality", "municipality")
        cat = _code(df["category"].iat[i], _CATEGORY_ALIASES, CANDIDATE_CATEGORIES, path, row, "category",
                    "category") if has["category"] else ""
        sex = _code(df["sex"].iat[i], _SEX_ALIASES, SEXES, path, row, "sex", "sex") if has["sex"] else ""
        rows[cand] = (m, code, cat, sex)
        sheet[cand] = row
    missing = [c for c in ballot_candidates if c not in rows]
    if missing:
        raise InputError(f"ballot candidate {excerpt(missing[0])} has no row in the candidates file", file=str(path),
                         column="candidate")
    out = pd.DataFrame({"candidate": ballot_candidates,
                        "municipality": [rows[c][0] for c in ballot_candidates],
                        "municipality_lgd_code": pd.array([rows[c][1] for c in ballot_candidates], dtype="Int64"),
                        "category": [rows[c][2] for c in ballot_candidates],
                        "sex": [rows[c][3] for c in ballot_candidates]})
    out.attrs["path"] = str(path)
    out.attrs["rows"] = sheet
    out.attrs["columns"] = [c for c in df.columns if c != "_row"]
    return out


def load_lots(path, candidates: list[str]) -> pd.DataFrame:
    """Lots -> DataFrame ``label, winner, among (tuple or None), row`` in file order."""
    df = read_table(path, ["winner"], what="lots")
    out = []
    for i, (w, row) in enumerate(zip(df["winner"], df["_row"])):
        row = int(row)
        if w not in candidates:
            raise InputError(f"unknown candidate {excerpt(w)}", file=str(path), row=row, column="winner")
        among = None
        if "among" in df.columns and df["among"].iat[i]:
            among = tuple(nfc(a).strip() for a in df["among"].iat[i].split(";") if nfc(a).strip())
            for a in among:
                if a not in candidates:
                    raise InputError(f"unknown candidate {excerpt(a)}", file=str(path), row=row, column="among")
            if w not in among:
                raise InputError(f"winner {excerpt(w)} is not among {'; '.join(among)}", file=str(path), row=row,
                                 column="among")
        label = df["lot"].iat[i] if "lot" in df.columns and df["lot"].iat[i] else f"row {row}"
        check_text(label, path, row, "lot", "lot label")
        out.append({"label": label, "winner": w, "among": among, "row": row})
    res = pd.DataFrame(out, columns=["label", "winner", "among", "row"])
    res.attrs["path"] = str(path)
    return res


def seat_code(value: str, path, row, column) -> str:
    if value not in CODES:
        raise InputError(f"unknown category code {excerpt(value)}; expected one of {' '.join(CODES)}", file=str(path),
                         row=row, column=column)
    return value
