"""Published reservation lists: what a government announced, read as an input to compare with.

A published list is a UTF-8 CSV with a header and one row per unit:

- the unit, in the first of these columns that the file has: ``unit``, ``unit_code``, ``district_lgd_code``,
  ``block_lgd_code``, ``district_en``, ``district_hi`` (a code, or a name in English or Hindi; names resolve
  through the body's resolver, so former names and spelling variants work as in every other input);
- ``category``: a code (``ST_W ST SC_W SC OBC_W OBC W UR``), or the words a list prints for it in English or
  Hindi (``अनुसूचित जाति स्त्री``, ``पिछड़ा वर्ग``, ``स्त्री``, ``अनारक्षित``, "Scheduled Castes (women)" ...).

Other columns (``district_en``, ``category_as_written``, ``list_date`` ...) are kept by the caller if it wants
them and otherwise ignored. Bad input (missing column, unknown unit or category, a unit listed twice) is an
:class:`~reservation.base.errors.InputError` naming the file, the spreadsheet row (header = row 1) and the column.

The shipped block pramukh lists (``data/history``) are read here too (:func:`pramukh_history`,
:func:`pramukh_list`), for every module that compares with them: the 2015 test (:mod:`reservation.history.backtest`),
its district step and the block timelines (:mod:`reservation.history.block_timeline`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..law.categories import CATEGORIES, CODES
from ..base.errors import InputError, excerpt
from ..base.paths import DATA_DIR
from .units import loose_key, read_csv, require_rows

__all__ = ["UNIT_COLUMNS", "load_published", "category_of", "published_from_frame", "PRAMUKH_YEARS", "pramukh_history",
           "pramukh_list", "SHIPPED", "ListSource", "published_list"]

#: The columns that may name the unit, in order of preference.
UNIT_COLUMNS = ("unit", "unit_code", "district_lgd_code", "block_lgd_code", "district_en", "district_hi")

# The words the published lists print (the GO 2021's own words, and the 2021 lists), besides the labels of
# reservation.law.categories (and the shorter English labels of its earlier versions, 'Backward Classes').
# Keys are compared with loose_key (case, spaces, nukta and punctuation forgiven).
_WORDS = {
    "ST_W": ("अनुसूचित जनजाति स्त्री", "अनुसूचित जनजाति महिला", "ST women", "ST-W", "ST (W)",
             "Scheduled Tribe women", "ST woman"),
    "ST": ("अनुसूचित जनजाति", "Scheduled Tribe"),
    "SC_W": ("अनुसूचित जाति स्त्री", "अनुसूचित जाति महिला", "SC women", "SC-W", "SC (W)", "Scheduled Caste women",
             "SC woman"),
    "SC": ("अनुसूचित जाति", "Scheduled Caste"),
    "OBC_W": ("पिछड़ा वर्ग स्त्री", "पिछड़ा वर्ग महिला", "अन्य पिछड़ा वर्ग स्त्री", "पिछड़ी जाति स्त्री", "OBC women",
              "OBC-W", "OBC (W)", "BC women", "Backward Classes (women)", "Backward Class women",
              "Other Backward Class women", "OBC woman"),
    "OBC": ("पिछड़ा वर्ग", "अन्य पिछड़ा वर्ग", "पिछड़ी जाति", "BC", "Backward Class", "Backward Classes",
            "Other Backward Class"),
    "W": ("स्त्री", "महिला", "Women", "Woman", "general women"),
    "UR": ("अनारक्षित", "Unreserved", "general"),
}


def _word_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for c in CATEGORIES:
        for w in (c.code, c.label_en, c.label_hi) + _WORDS[c.code]:
            table[loose_key(w)] = c.code
    return table


_BY_WORD = _word_table()


def category_of(value: str) -> str:
    """The category code of a code or of the words a list prints for it; KeyError when unknown."""
    s = str(value).strip()
    if s in CODES:
        return s
    code = _BY_WORD.get(loose_key(s))
    if code is None:
        raise KeyError(f"unknown category {excerpt(s)}; expected a code ({' '.join(CODES)}) or its words")
    return code


def _unit_column(columns, path) -> str:
    for c in UNIT_COLUMNS:
        if c in columns:
            return c
    raise InputError(f"no unit column: expected one of {', '.join(UNIT_COLUMNS)}; found "
                     f"{', '.join(repr(c) for c in columns if c != '_row')}", file=str(path), row=1,
                     column=UNIT_COLUMNS[0])


def published_from_frame(raw: pd.DataFrame, resolve, path) -> pd.DataFrame:
    """A published list already read as text (with ``_row``) -> ``unit_code, category, _row`` (validated)."""
    col = _unit_column(raw.columns, path)
    if "category" not in raw.columns:
        raise InputError("missing column 'category'", file=str(path), row=1, column="category")
    codes, cats = [], []
    seen: dict[int, int] = {}
    for value, cat, row in zip(raw[col], raw["category"], raw["_row"]):
        if str(value).strip() == "":
            raise InputError("empty unit", file=str(path), row=int(row), column=col)
        try:
            code = int(resolve(value))
        except KeyError as e:
            raise InputError(str(e.args[0]), file=str(path), row=int(row), column=col) from None
        if code in seen:
            raise InputError(f"unit {excerpt(value)} is listed twice (first at row {seen[code]})", file=str(path),
                             row=int(row), column=col)
        seen[code] = int(row)
        try:
            cats.append(category_of(cat))
        except KeyError as e:
            raise InputError(str(e.args[0]), file=str(path), row=int(row), column="category") from None
        codes.append(code)
    out = pd.DataFrame({"unit_code": np.asarray(codes, dtype=np.int64), "category": cats,
                        "_row": raw["_row"].to_numpy(dtype=np.int64)})
    out.attrs["path"] = str(path)
    out.attrs["unit_column"] = col
    out.attrs["columns"] = [c for c in raw.columns if c != "_row"]
    return out


def load_published(path, resolve, year: int | None = None) -> pd.DataFrame:
    """Read a published list: ``unit_code, category, _row`` (one row per unit, in file order). ``year``: a file
    with a ``year`` column (a history file, ``data/history/kp-chair.csv``) gives the rows of that year."""
    if isinstance(path, pd.DataFrame):
        df = path.copy()
        if "unit_code" in df.columns and "_row" not in df.columns:
            df = df.assign(_row=np.arange(2, len(df) + 2))
        if "unit_code" in df.columns:
            df = df.assign(unit=df["unit_code"].astype(str)).drop(columns=["unit_code"])
        df = df.astype({c: str for c in df.columns if c != "_row"})
        if "_row" not in df.columns:
            df["_row"] = np.arange(2, len(df) + 2)
        return published_from_frame(df, resolve, "published table")
    raw = read_csv(path, (), what="published list")
    require_rows(raw, path, "published list", "a published list gives one row per unit (unit, category)")
    if year is not None and "year" in raw.columns:
        raw = raw[raw["year"].str.strip() == str(int(year))]
    return published_from_frame(raw, resolve, Path(path))


# --- the shipped block pramukh lists ---------------------------------------------------------------------------

_HISTORY = DATA_DIR / "history"
#: The years of the SEC pramukh lists shipped in data/history (crosswalked to LGD blocks).
PRAMUKH_YEARS = (2005, 2010, 2015)


def pramukh_history() -> pd.DataFrame:
    """The block pramukh history of the three elections, ``unit_code, year, category``: the shipped
    ``data/history/kp-chair.csv`` and the 2005 and 2010 records it leaves out because their block is no Kshetra
    Panchayat in 2021 (Dankaur, Gautam Buddh Nagar: OBC_W in both; a Kshetra Panchayat of 2015). Blank 2005
    categories stay out (unknown stays unknown)."""
    h = pd.read_csv(_HISTORY / "kp-chair.csv", usecols=["unit", "year", "category"])
    h = h.rename(columns={"unit": "unit_code"})
    extra = []
    for y in (2005, 2010):
        src = pd.read_csv(_HISTORY / f"kp_pramukh_{y}.csv", dtype=str, keep_default_na=False)
        src = src[(src["block_lgd_code"] != "") & (src["category"] != "")]
        have = set(h.loc[h["year"] == y, "unit_code"].astype(int))
        add = src[~src["block_lgd_code"].astype(int).isin(have)]
        extra.append(pd.DataFrame({"unit_code": add["block_lgd_code"].astype(int), "year": y,
                                   "category": add["category"]}))
    out = pd.concat([h] + extra, ignore_index=True)
    out["unit_code"] = out["unit_code"].astype("int64")
    out["year"] = out["year"].astype("int64")
    return out.sort_values(["unit_code", "year"], kind="stable").reset_index(drop=True)


def pramukh_list(year: int = 2015) -> pd.Series:
    """The published list of ``year`` as a Series ``unit_code -> category`` (2015: 816 blocks)."""
    h = pramukh_history()
    h = h[h["year"] == int(year)]
    if not len(h):
        raise ValueError(f"no published pramukh list for {year} (lists: {', '.join(map(str, PRAMUKH_YEARS))})")
    return h.set_index("unit_code")["category"].rename("published")


# --- the published list of one body and election ------------------------------------------------------------

from dataclasses import dataclass  # noqa: E402


@dataclass(frozen=True)
class ListSource:
    """Where a published list comes from: ``file`` (a path under the package data, or the user's file),
    ``date`` (of the list, as the data README gives it; "" when not given) and ``shipped`` (the project ships it)."""

    file: str
    date: str = ""
    shipped: bool = True


#: The published lists the project ships, by (body, year): the file under ``data/`` and the list's date (the
#: data README's). The block pramukh lists are read by :func:`pramukh_list` (their crosswalked history).
SHIPPED = {
    ("zp-chair", 2015): ListSource("history/zp_adhyaksh_2015.csv"),
    ("zp-chair", 2021): ListSource("published/zp_adhyaksh_2021_final.csv", "2021-03-17"),
    ("kp-chair", 2005): ListSource("history/kp_pramukh_2005.csv"),
    ("kp-chair", 2010): ListSource("history/kp_pramukh_2010.csv"),
    ("kp-chair", 2015): ListSource("history/kp_pramukh_2015.csv"),
    ("mayor", 2017): ListSource("published/mayor_2017.csv"),
    ("mayor", 2023): ListSource("published/mayor_2023.csv", "2023-04-09"),
}


def published_list(body: str, year: int, resolve, path=None) -> tuple[pd.Series, ListSource] | None:
    """The published list of ``body`` at the election of ``year`` as ``unit_code -> category`` with its source:
    the user's file ``path`` (a CSV or a table, read by :func:`load_published`: its errors are InputErrors naming
    file, row and column) when given, else the list the project ships (:data:`SHIPPED`), else None."""
    if path is not None:
        df = load_published(path, resolve)
        name = "published table" if isinstance(path, pd.DataFrame) else str(path)
        return df.set_index("unit_code")["category"], ListSource(name, "", shipped=False)
    src = SHIPPED.get((body, int(year)))
    if src is None:
        return None
    if body == "kp-chair":
        return pramukh_list(year).rename(None), src
    df = load_published(DATA_DIR / src.file, resolve)
    return df.set_index("unit_code")["category"], src
