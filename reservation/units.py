"""Loading and validating unit tables, Unicode NFC, and the district crosswalk.

Every table is validated once, at the edge (DESIGN.md): a missing file or column, a duplicate code, a
negative or inconsistent population (SC + ST > total), a name that does not resolve. Errors are
:class:`~reservation.errors.InputError` naming the file, the row and the column. **Rows are counted as a
spreadsheet shows them: the header is row 1, the first data row is row 2.**

Names are compared only after NFC normalisation, and joined through codes (LGD district codes), never
through raw spellings: :class:`DistrictCrosswalk` resolves an LGD code, the English or Hindi name, a former
name (Allahabad, Faizabad, ...) or a spelling variant met in the SEC-UP result files.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from .errors import InputError

__all__ = ["DATA_DIR", "nfc", "loose_key", "read_csv", "int_column", "load_districts", "load_divisions",
           "DistrictCrosswalk", "crosswalk", "DISTRICT_COLUMNS", "check_populations"]

from .paths import DATA_DIR  # noqa: E402 - re-exported


def nfc(s: str) -> str:
    """NFC-normalised, stripped text (Hindi names mix precomposed and decomposed nukta letters)."""
    return unicodedata.normalize("NFC", str(s)).strip()


_LOOSE_DROP = re.compile(r"[\s.\-_,'’()\[\]/]+")


def loose_key(s: str) -> str:
    """A comparison key that forgives the spelling variants met in the sources.

    NFC, lower case, nukta (U+093C) removed, candrabindu (U+0901) read as anusvara (U+0902), spaces and
    punctuation removed: आज़मगढ़ = आजमगढ़, बाँदा = बांदा, बुलंद शहर = बुलंदशहर, Rae Bareli = Raebareli.
    Used only to look a name up; the crosswalk refuses a key that would match two districts.
    """
    k = unicodedata.normalize("NFD", nfc(s).lower())
    k = k.replace("\u093c", "").replace("\u0901", "\u0902")
    k = unicodedata.normalize("NFC", k)
    return _LOOSE_DROP.sub("", k)


def read_csv(path, required: list[str] | tuple[str, ...] = (), *, what: str = "table") -> pd.DataFrame:
    """Read a CSV as text (no type guessing), NFC-normalise every cell, check the required columns.

    Returns a DataFrame of ``str`` with an extra integer column ``_row`` (the spreadsheet row number).
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{what} file not found", file=str(path))
    try:
        df = pd.read_csv(p, dtype=str, keep_default_na=False, encoding="utf-8", comment=None)
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text ({e.reason})", file=str(path)) from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise InputError(f"not a readable CSV: {str(e).splitlines()[0]}", file=str(path)) from None
    df.columns = [nfc(c) for c in df.columns]
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise InputError(f"missing column(s) {', '.join(repr(c) for c in missing)}; "
                         f"found {', '.join(repr(c) for c in df.columns)}", file=str(path), row=1,
                         column=missing[0])
    for c in df.columns:
        col = df[c]
        if col.str.isascii().all():            # ASCII needs no normalising: only strip (fast path)
            df[c] = col.str.strip()
        else:
            df[c] = col.map(nfc)
    df["_row"] = np.arange(2, len(df) + 2)
    return df


def int_column(df: pd.DataFrame, column: str, path, *, allow_blank: bool = False) -> pd.Series:
    """Parse a column of non-negative integers; a bad cell is an InputError with its row."""
    raw = df[column]
    blank = raw == ""
    ok = raw.str.fullmatch(r"[+-]?\d+") | (blank & allow_blank)
    if not ok.all():
        i = int(np.flatnonzero(~ok.to_numpy())[0])
        raise InputError(f"{raw.iat[i]!r} is not a whole number", file=str(path), row=int(df["_row"].iat[i]),
                         column=column)
    values = pd.to_numeric(raw.where(~blank, None), errors="raise").astype("Int64")
    neg = (values < 0).fillna(False).to_numpy(dtype=bool)
    if neg.any():
        i = int(np.flatnonzero(neg)[0])
        raise InputError(f"negative population or count {values.iat[i]}", file=str(path),
                         row=int(df["_row"].iat[i]), column=column)
    return values if allow_blank else values.astype("int64")


def check_populations(df: pd.DataFrame, path, total: str, parts: tuple[str, ...]) -> None:
    """Each part is at most the total, and the parts together too (SC + ST <= total)."""
    s = sum(df[p] for p in parts)
    bad = df[s > df[total]]
    if len(bad):
        r = bad.iloc[0]
        raise InputError(f"{' + '.join(parts)} = {int(s[bad.index[0]])} exceeds {total} = {int(r[total])}",
                         file=str(path), row=int(r["_row"]), column=parts[0])


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
    df = pd.DataFrame({k: raw[v] for k, v in _DISTRICT_SOURCE.items()})
    df["_row"] = raw["_row"]
    for c in _INT_COLUMNS:
        df[c] = int_column(df.rename(columns={c: c}), c, path) if c in df else None
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
        raise InputError(f"duplicate {r[column]!r} (first at row {int(first['_row'])})", file=str(path),
                         row=int(r["_row"]), column=source_column or column)


def load_divisions(path=None) -> pd.DataFrame:
    """The 18 revenue divisions: ``division``, ``division_hi``, ``headquarters``, ``n_districts``."""
    path = Path(path) if path is not None else DATA_DIR / "divisions.csv"
    raw = read_csv(path, ["division_en", "division_hi", "headquarters", "n_districts"], what="division table")
    df = pd.DataFrame({"division": raw["division_en"], "division_hi": raw["division_hi"],
                       "headquarters": raw["headquarters"], "n_districts": int_column(raw, "n_districts", path)})
    return df


class DistrictCrosswalk:
    """Resolve a district given as an LGD code, an English or Hindi name, a former name or a variant.

    Built from the district table plus ``data/district_aliases.csv`` (alias, district_lgd_code, kind, source);
    aliases of codes absent from the table are ignored (a toy state uses its own codes).
    ``resolve`` raises KeyError for an unknown name; callers turn that into an InputError with the row.
    """

    def __init__(self, districts: pd.DataFrame, aliases_path=None):
        self.districts = districts
        self.codes = set(int(c) for c in districts["unit_code"])
        self._exact: dict[str, int] = {}
        self._loose: dict[str, int] = {}
        clash: dict[str, set[int]] = {}
        names = []
        for _, r in districts.iterrows():
            code = int(r["unit_code"])
            names += [(r["unit_name_en"], code), (r["unit_name_hi"], code)]
        aliases_path = Path(aliases_path) if aliases_path else DATA_DIR / "district_aliases.csv"
        if aliases_path.is_file():
            al = read_csv(aliases_path, ["alias", "district_lgd_code"], what="alias table")
            for a, c in zip(al["alias"], int_column(al, "district_lgd_code", aliases_path)):
                if int(c) in self.codes:
                    names.append((a, int(c)))
        for name, code in names:
            self._exact[nfc(name)] = code
            self._exact[nfc(name).lower()] = code
            clash.setdefault(loose_key(name), set()).add(code)
        self.ambiguous = {k: v for k, v in clash.items() if len(v) > 1}
        self._loose = {k: next(iter(v)) for k, v in clash.items() if len(v) == 1}
        self.name_en = dict(zip(districts["unit_code"].astype(int), districts["unit_name_en"]))

    def resolve(self, value) -> int:
        s = nfc(str(value))
        if re.fullmatch(r"\d+", s):
            code = int(s)
            if code in self.codes:
                return code
            raise KeyError(f"unknown LGD district code {code}")
        for key in (s, s.lower()):
            if key in self._exact:
                return self._exact[key]
        k = loose_key(s)
        if k in self._loose:
            return self._loose[k]
        if k in self.ambiguous:
            raise KeyError(f"district name {s!r} is ambiguous")
        raise KeyError(f"unknown district {s!r}")


_CROSSWALK: DistrictCrosswalk | None = None


def crosswalk() -> DistrictCrosswalk:
    """The crosswalk over the shipped district table (built once)."""
    global _CROSSWALK
    if _CROSSWALK is None:
        _CROSSWALK = DistrictCrosswalk(load_districts())
    return _CROSSWALK
