"""Divisions and names: resolving a division given in any of its spellings, and a unit's, district's or
division's name in English or Hindi. Shared by the tables, the maps and the reports."""

from __future__ import annotations

import re
from functools import lru_cache

import pandas as pd

from ..base.errors import InputError
from ..inputs.nearest import did_you_mean
from ..inputs.units import load_districts, load_divisions, loose_key, nfc
from ..law.words import ALL_DIVISIONS, LANGS, check_lang

__all__ = ["LANGS", "check_lang", "slug", "divisions", "resolve_division", "resolve_divisions", "division_label",
           "is_all", "in_division", "division_names", "unit_names", "place_names", "division_table",
           "division_order", "district_rows"]


def slug(text: str) -> str:
    """A file-name-safe ASCII slug: ``"Ayodhya (Faizabad)"`` -> ``"ayodhya-faizabad"``."""
    s = re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")
    return s or "x"


@lru_cache(maxsize=1)
def division_table() -> pd.DataFrame:
    """``division, division_hi, n_districts`` in the order of data/divisions.csv (cached; do not modify)."""
    d = load_districts()
    div = (d.groupby(["division", "division_hi"], sort=False).size().rename("n_districts").reset_index())
    order = {n: i for i, n in enumerate(load_divisions()["division"])}
    div["_o"] = div["division"].map(order).fillna(len(order))
    return div.sort_values(["_o", "division"]).drop(columns="_o").reset_index(drop=True)


def division_order() -> dict[str, int]:
    return {n: i for i, n in enumerate(division_table()["division"])}


def divisions() -> pd.DataFrame:
    """The 18 revenue divisions: ``division`` (as in the data), ``division_hi``, ``plain`` (the name before any
    parenthesis), ``n_districts``; in the order of data/divisions.csv."""
    d = division_table().copy()
    d["plain"] = d["division"].map(lambda s: s.split("(")[0].strip())
    return d[["division", "division_hi", "plain", "n_districts"]]


def _name_variants(name: str) -> list[str]:
    """A division name, the part before a parenthesis and the part inside it."""
    out = [name]
    m = re.fullmatch(r"\s*(.*?)\s*\((.*?)\)\s*", name)
    if m:
        out += [m.group(1), m.group(2)]
    return [x for x in out if x.strip()]


def _division_keys(names_en, names_hi) -> tuple[dict[str, str], dict[str, set[str]]]:
    keys: dict[str, set[str]] = {}
    for en, hi in zip(names_en, names_hi):
        for name in _name_variants(str(en)) + _name_variants(str(hi or "")):
            keys.setdefault(loose_key(name), set()).add(str(en))
    unique = {k: next(iter(v)) for k, v in keys.items() if len(v) == 1}
    return unique, {k: v for k, v in keys.items() if len(v) > 1}


def resolve_division(value, known: pd.DataFrame | None = None) -> str:
    """A division given as in the data (``"Ayodhya (Faizabad)"``), in Hindi (``"अयोध्या"``), by the plain name
    before the parenthesis (``"Ayodhya"``) or by the name inside it (``"Faizabad"``), in any case or spacing ->
    the division's name as in the data. ``known``: a frame with ``division`` (and ``division_hi``) columns to
    resolve against instead of the 18 divisions of Uttar Pradesh (e.g. a toy state).

    Raises :class:`InputError` (column ``division``) naming the known divisions for an unknown or ambiguous name.
    """
    if not isinstance(value, str):
        raise InputError(f"division must be text, not {type(value).__name__} {value!r}", column="division")
    if known is None:
        known = division_table()
    en = [str(x) for x in known["division"]]
    hi = [str(x) for x in known["division_hi"]] if "division_hi" in known.columns else [""] * len(en)
    s = nfc(value)
    if s in en:
        return s
    unique, ambiguous = _division_keys(en, hi)
    k = loose_key(s)
    if k in unique:
        return unique[k]
    listing = "; ".join(en)
    if k in ambiguous:
        raise InputError(f"division {value!r} is ambiguous ({' or '.join(sorted(ambiguous[k]))}); known: {listing}",
                         column="division")
    near = did_you_mean(s, en, hindi=hi)          # "Varansi" -> "; did you mean 'Varanasi'?"
    raise InputError(f"unknown division {value!r}" + (near or f"; known divisions: {listing}"), column="division")


def is_all(value) -> bool:
    """Whether a division parameter means every division (None, "all", "", "*", "सभी", ...)."""
    return value is None or (isinstance(value, str) and nfc(value).lower() in ALL_DIVISIONS)


def resolve_divisions(value, known: pd.DataFrame | None = None) -> list[str]:
    """``"all"`` (or ``""``, ``None``, ``"*"``) -> every division in order; a name or a list of names -> their
    names as in the data, in the order given, without repeats. See :func:`resolve_division`."""
    table = known if known is not None else division_table()
    if is_all(value):
        return [str(x) for x in table["division"]]
    items = [value] if isinstance(value, str) else list(value)
    if not items:
        raise InputError("no division given", column="division")
    out: list[str] = []
    for item in items:
        if is_all(item):
            return [str(x) for x in table["division"]]
        d = resolve_division(item, table)
        if d not in out:
            out.append(d)
    return out


def division_names(division) -> list[str] | None:
    """None for every division, else the list of division names (a name or a list)."""
    if is_all(division):
        return None
    return [division] if isinstance(division, str) else list(division)


def in_division(table: pd.DataFrame, division) -> pd.DataFrame:
    """The rows of ``table`` in the division(s); all rows for every division."""
    names = division_names(division)
    return table if names is None else table[table["division"].isin(names)]


def division_label(division: str) -> str:
    """``"Lucknow / लखनऊ"``: a division's name as in the data and in Hindi."""
    hi = dict(zip(division_table()["division"], division_table()["division_hi"])).get(division, "")
    return f"{division} / {hi}" if hi else str(division)


def _text(series: pd.Series) -> pd.Series:
    return series.astype(object).where(series.notna(), "").astype(str)


def unit_names(df: pd.DataFrame, lang: str) -> pd.Series:
    """Each row's name in ``lang`` (``unit_name_hi`` / ``unit_name_en``), falling back to the other language and
    then to the code."""
    first, second = ("unit_name_hi", "unit_name_en") if lang == "hi" else ("unit_name_en", "unit_name_hi")
    empty = pd.Series("", index=df.index, dtype=object)
    a = _text(df[first]) if first in df.columns else empty
    b = _text(df[second]) if second in df.columns else empty
    out = a.where(a.str.strip() != "", b)
    return out.where(out.str.strip() != "", df["unit_code"].astype(str))


@lru_cache(maxsize=1)
def _hindi_places() -> tuple[dict, dict]:
    d = load_districts()
    return dict(zip(d["unit_name_en"], d["unit_name_hi"])), dict(zip(d["division"], d["division_hi"]))


def place_names(series: pd.Series, kind: str, lang: str) -> pd.Series:
    """District (``kind="district"``) or division names as in the data -> in ``lang`` (unknown names unchanged)."""
    s = _text(series)
    if lang != "hi":
        return s
    dmap, vmap = _hindi_places()
    m = dmap if kind == "district" else vmap
    return s.map(lambda x: m.get(x, x))


def district_rows(table: pd.DataFrame) -> bool:
    """Whether every row is a district (a district is its own district, the contract of load_districts)."""
    return bool(len(table)) and bool((table["district"].astype(str) == table["unit_name_en"].astype(str)).all())

