"""Views: what the notebooks and the HTML reports show, computed here so that tests can reach it.

The engine decides; this module only selects, groups, labels and draws (DESIGN.md: "Nothing downstream
recomputes what the engine decided"). Every number a notebook shows comes from a function of this module
(or of the engine), and tests/test_views.py tests each function.

Contents
--------
- Parameters: :func:`resolve_division`, :func:`resolve_divisions`, :func:`check_parameters`,
  :func:`run_allotment`, :func:`body_choices`.
- State counts of every registered body: :func:`state_counts_all`, :func:`state_counts_wide`.
- Division tables in English and Hindi: :func:`category_counts_table`, :func:`category_summary`,
  :func:`unit_list`, :func:`not_drawn_table`, :func:`style_categories`, :func:`report_heading`,
  :func:`assumptions_table`.
- Maps: :func:`map_mode` (district polygons, points, or district aggregation), :func:`district_aggregate`
  (units that have no polygon of their own, e.g. the 826 blocks of ``kp-chair``, counted per district),
  :func:`division_map` (interactive, offline), :func:`write_static_maps` (PNG + SVG).
- Rotation history: :func:`rotation_matrix` (unit x election, with the rotation verdict),
  :func:`rotation_summary`, :func:`rotation_heatmap`.
- The five-district toy state for teaching: :func:`toy_allotment`, :func:`toy_steps`, :func:`toy_state`,
  :func:`toy_figure`.
- District Planning Committees: :func:`dpc_composition`, :func:`dpc_reserved_seats`, :func:`dpc_sample_ballots`,
  :func:`dpc_sample_count`.
- The ipywidgets explorer of ``notebooks/04_explore.ipynb``: :class:`Explorer`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from .categories import CODES, COLOURS, by_code, label
from .errors import InputError
from .units import DATA_DIR, load_districts, load_divisions, loose_key, nfc

__all__ = [
    "LANGS", "TOY_DISTRICTS", "TOY_HISTORY", "BODY_TITLES_HI", "divisions", "resolve_division",
    "resolve_divisions", "check_parameters", "run_allotment", "body_choices", "body_title", "state_counts_all",
    "state_counts_wide", "category_counts_table", "category_summary", "unit_list", "not_drawn_table",
    "style_categories", "division_label", "report_heading", "assumptions_table", "map_mode", "district_aggregate",
    "aggregate_figure", "aggregate_static_figure", "unit_points", "points_figure", "points_static_figure",
    "division_map", "MapView", "write_static_maps", "fit_zoom",
    "rotation_matrix", "rotation_summary", "rotation_wide", "rotation_heatmap", "rotation_view", "VERDICTS", "toy_allotment",
    "toy_steps", "toy_state", "toy_figure", "dpc_composition", "dpc_reserved_seats", "dpc_sample_ballots",
    "dpc_sample_count", "Explorer", "slug",
]

LANGS = ("en", "hi")
#: The hand-checked five-district toy state (a copy of tests/fixtures/toy/five*.csv; a test keeps them equal).
TOY_DIR = DATA_DIR / "toy"
TOY_DISTRICTS = TOY_DIR / "five.csv"
TOY_HISTORY = TOY_DIR / "five_history_2015.csv"

#: Hindi titles of the bodies (the registry's titles are English). Unknown ids fall back to English.
BODY_TITLES_HI = {
    "zp-chair": "जिला पंचायत अध्यक्ष", "kp-chair": "क्षेत्र पंचायत प्रमुख", "gp-pradhan": "ग्राम प्रधान",
    "gp-ward": "ग्राम पंचायत सदस्य (वार्ड)", "kp-ward": "क्षेत्र पंचायत सदस्य (वार्ड)",
    "zp-ward": "जिला पंचायत सदस्य (वार्ड)", "mayor": "महापौर (नगर निगम)", "pp-chair": "नगर पालिका परिषद अध्यक्ष",
    "np-chair": "नगर पंचायत अध्यक्ष",
}

_WORDS = {
    "en": {"unit": "Unit", "district": "District", "division": "Division", "category": "Category",
           "code": "LGD code", "reason": "Reason", "clause": "Clause", "count": "Count", "state": "State",
           "total": "Total", "share": "Share", "why": "Why not drawn", "units": "Units", "reserved": "Reserved",
           "women": "Women", "all": "all divisions", "in_division": "in the division", "in_state": "in the State",
           "category_code": "Code"},
    "hi": {"unit": "इकाई", "district": "जनपद", "division": "मंडल", "category": "श्रेणी", "code": "एलजीडी कोड",
           "reason": "कारण (अंग्रेज़ी में)", "clause": "प्रावधान", "count": "संख्या", "state": "प्रदेश",
           "total": "योग", "share": "अनुपात", "why": "मानचित्र पर क्यों नहीं", "units": "इकाइयाँ",
           "reserved": "आरक्षित", "women": "महिला", "all": "सभी मंडल", "in_division": "मंडल में",
           "in_state": "प्रदेश में", "category_code": "कोड"},
}

_ALL = {"", "all", "*", "सभी", "सभी मंडल"}


def _check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise InputError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}", column="lang")
    return lang


def slug(text: str) -> str:
    """A file-name-safe ASCII slug: ``"Ayodhya (Faizabad)"`` -> ``"ayodhya-faizabad"``."""
    s = re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")
    return s or "x"


# ============================================================================================ parameters

@lru_cache(maxsize=1)
def _division_table() -> pd.DataFrame:
    d = load_districts()
    div = (d.groupby(["division", "division_hi"], sort=False).size().rename("n_districts").reset_index())
    order = {n: i for i, n in enumerate(load_divisions()["division"])}
    div["_o"] = div["division"].map(order).fillna(len(order))
    return div.sort_values(["_o", "division"]).drop(columns="_o").reset_index(drop=True)


def divisions() -> pd.DataFrame:
    """The 18 revenue divisions: ``division`` (as in the data), ``division_hi``, ``plain`` (the name before any
    parenthesis), ``n_districts``; in the order of data/divisions.csv."""
    d = _division_table().copy()
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
        known = _division_table()
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
    raise InputError(f"unknown division {value!r}; known divisions: {listing}", column="division")


def resolve_divisions(value, known: pd.DataFrame | None = None) -> list[str]:
    """``"all"`` (or ``""``, ``None``, ``"*"``) -> every division in order; a name or a list of names -> their
    names as in the data, in the order given, without repeats. See :func:`resolve_division`."""
    table = known if known is not None else _division_table()
    if value is None or (isinstance(value, str) and nfc(value).lower() in _ALL):
        return [str(x) for x in table["division"]]
    items = [value] if isinstance(value, str) else list(value)
    if not items:
        raise InputError("no division given", column="division")
    out: list[str] = []
    for item in items:
        if isinstance(item, str) and nfc(item).lower() in _ALL:
            return [str(x) for x in table["division"]]
        d = resolve_division(item, table)
        if d not in out:
            out.append(d)
    return out


def _assignments(options) -> list[tuple[str, str]]:
    """Options as ``["name=value", ...]``, ``[(name, value), ...]`` or ``{name: value}`` -> pairs."""
    from .options import parse_assignments
    if options is None:
        return []
    if isinstance(options, dict):
        return [(str(k), str(v)) for k, v in options.items()]
    if isinstance(options, str):
        raise InputError("options must be a list of NAME=VALUE strings, not one string", column="options")
    pairs = []
    for item in options:
        if isinstance(item, str):
            pairs += parse_assignments([item])
        elif isinstance(item, (tuple, list)) and len(item) == 2:
            pairs.append((str(item[0]), str(item[1])))
        else:
            raise InputError(f"option {item!r} is not NAME=VALUE", column="options")
    return pairs


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def check_parameters(body, year, *, division="all", base_year=2015, options=(), history=(), units="") -> dict:
    """Validate the parameters of a notebook or a report before anything runs; return them normalised.

    Checks types (``year`` and ``base_year`` integers, ``body`` text, ``options`` NAME=VALUE strings, ``history``
    file paths), that the body is registered, that it has rules for the year, every division (see
    :func:`resolve_divisions`), every option name and value, that history files exist and that a units file is
    given exactly when the body needs one. Raises :class:`InputError` with the parameter as ``column``.
    Returns ``{"body", "year", "divisions", "base_year", "options" (list of "n=v"), "history" (list of str),
    "units" (str)}``.
    """
    from .bodies import get_body
    if not isinstance(body, str):
        raise InputError(f"body must be text, not {type(body).__name__} {body!r}", column="body")
    if not _is_int(year):
        raise InputError(f"year must be an integer, not {type(year).__name__} {year!r}", column="year")
    if not _is_int(base_year):
        raise InputError(f"base_year must be an integer, not {type(base_year).__name__} {base_year!r}",
                         column="base_year")
    b = get_body(body, int(year))
    if int(base_year) > int(year):
        raise InputError(f"base_year {base_year} is after the election year {year}", column="base_year")
    pairs = _assignments(options)
    b.options(pairs)                                    # unknown names or values raise InputError
    if isinstance(history, str):
        history = [history] if history else []
    hist = []
    for h in history or ():
        if not isinstance(h, (str, Path)):
            raise InputError(f"history must be file paths, not {type(h).__name__}", column="history")
        if not Path(h).is_file():
            raise InputError("history file not found", file=str(h), column="history")
        hist.append(str(h))
    units = "" if units is None else units
    if not isinstance(units, (str, Path)):
        raise InputError(f"units must be a file path, not {type(units).__name__}", column="units")
    units = str(units)
    if b.needs_units and not units:
        raise InputError(f"{body} needs a units file (its units and populations are not shipped): give units=FILE",
                         column="units")
    if units and not (b.needs_units or getattr(b, "accepts_units", False)):
        raise InputError(f"{body} has its units built in; a units file is only for bodies that need or accept one",
                         column="units")
    if units and not Path(units).is_file():
        raise InputError("units file not found", file=units, column="units")
    return {"body": body, "year": int(year), "divisions": resolve_divisions(division), "base_year": int(base_year),
            "options": [f"{n}={v}" for n, v in pairs], "history": hist, "units": units}


def run_allotment(body: str, year: int, *, base_year: int = 2015, options=(), history=(), units="",
                  population=None, pins=None):
    """The allotment of any registered body (the same as :func:`reservation.allot`, plus a units file for the
    bodies that need one). ``options``: ``["name=value", ...]``, pairs or a dict."""
    from .bodies import get_body
    b = get_body(body, year)
    opts = b.options(_assignments(options))
    kw = {}
    if b.needs_units and not units:
        raise InputError(f"{body} needs a units file: give units=FILE", column="units")
    if units:
        if not (b.needs_units or getattr(b, "accepts_units", False)):
            raise InputError(f"{body} has its units built in; units= is only for bodies that need or accept one",
                             column="units")
        kw["units_path"] = str(units)
    if isinstance(history, str):
        history = [history] if history else []
    return b.allot(int(year), history_paths=list(history) or None, base_year=int(base_year),
                   population_path=population, pin_path=pins, options=opts, **kw)


def body_title(body: str, lang: str = "en") -> str:
    from .bodies import BODIES
    _check_lang(lang)
    b = BODIES.get(body)
    en = b.title if b is not None else body
    return BODY_TITLES_HI.get(body, en) if lang == "hi" else en


def body_choices(include_needs_units: bool = False) -> pd.DataFrame:
    """The registered bodies: ``body, title, title_hi, unit, years, needs_units`` (the registry, not a list)."""
    from .bodies import BODIES
    rows = [{"body": k, "title": b.title, "title_hi": body_title(k, "hi"), "unit": b.unit, "years": tuple(b.years),
             "needs_units": bool(b.needs_units)} for k, b in BODIES.items()
            if include_needs_units or not b.needs_units]
    return pd.DataFrame(rows, columns=["body", "title", "title_hi", "unit", "years", "needs_units"])


# ============================================================================================ state counts

def state_counts_all(year: int) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """The State counts of every registered body for ``year``.

    Returns ``(overview, counts)``: ``overview`` has one row per body (``body, title, unit, status, posts``,
    status ``ok``, ``no rules for YEAR`` or ``counted per PARENT: needs a units file``); ``counts`` maps each
    body with status ok to its counts table (``category, count, arithmetic, clause``; rows ST_W ... UR, TOTAL).
    """
    from .bodies import BODIES
    if not _is_int(year):
        raise InputError(f"year must be an integer, not {year!r}", column="year")
    rows, out = [], {}
    for k, b in BODIES.items():
        posts = None
        if int(year) not in b.years:
            status = f"no rules for {year} (years: {', '.join(map(str, b.years))})"
        elif b.needs_units or b.counts is None:
            status = f"counted inside each {getattr(b, 'unit', 'unit')}'s parent: needs a units file"
        else:
            c = b.counts(int(year), b.options(()))
            out[k] = c.reset_index(drop=True)
            posts = int(c.loc[c["category"] == "TOTAL", "count"].iat[0])
            status = "ok"
        rows.append({"body": k, "title": b.title, "unit": b.unit, "status": status,
                     "posts": pd.NA if posts is None else posts})
    ov = pd.DataFrame(rows, columns=["body", "title", "unit", "status", "posts"])
    ov["posts"] = ov["posts"].astype("Int64")
    return ov, out


def state_counts_wide(counts: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Bodies x categories (ST_W ... UR, TOTAL) from :func:`state_counts_all`'s ``counts``."""
    cols = list(CODES) + ["TOTAL"]
    rows = []
    for k, c in counts.items():
        m = dict(zip(c["category"], c["count"]))
        rows.append({"body": k, **{col: int(m.get(col, 0)) for col in cols}})
    return pd.DataFrame(rows, columns=["body"] + cols).set_index("body")


# ============================================================================================ tables

def _in_division(table: pd.DataFrame, division) -> pd.DataFrame:
    if division is None or (isinstance(division, str) and nfc(division).lower() in _ALL):
        return table
    names = [division] if isinstance(division, str) else list(division)
    return table[table["division"].isin(names)]


def _names(df: pd.DataFrame, lang: str) -> pd.Series:
    first, second = ("unit_name_hi", "unit_name_en") if lang == "hi" else ("unit_name_en", "unit_name_hi")
    a = df[first].astype(object).where(df[first].notna(), "").astype(str) if first in df else pd.Series("", index=df.index)
    b = df[second].astype(object).where(df[second].notna(), "").astype(str) if second in df else pd.Series("", index=df.index)
    out = a.where(a.str.strip() != "", b)
    return out.where(out.str.strip() != "", df["unit_code"].astype(str))


@lru_cache(maxsize=1)
def _hindi_places() -> tuple[dict, dict]:
    d = load_districts()
    return dict(zip(d["unit_name_en"], d["unit_name_hi"])), dict(zip(d["division"], d["division_hi"]))


def _place(series: pd.Series, kind: str, lang: str) -> pd.Series:
    s = series.astype(object).where(series.notna(), "").astype(str)
    if lang != "hi":
        return s
    dmap, vmap = _hindi_places()
    m = dmap if kind == "district" else vmap
    return s.map(lambda x: m.get(x, x))


def category_counts_table(table: pd.DataFrame, division=None, lang: str = "en") -> pd.DataFrame:
    """One row per category (GO order) and a total: the code, its label in ``lang``, the number of units of the
    division(s) with it, and the number in the whole table (the State). ``division=None``/"all": the State only."""
    _check_lang(lang)
    w = _WORDS[lang]
    sub = _in_division(table, division)
    n_sub = sub["category"].value_counts()
    n_all = table["category"].value_counts()
    rows = [{w["category_code"]: c, w["category"]: label(c, lang), "_d": int(n_sub.get(c, 0)),
             "_s": int(n_all.get(c, 0))} for c in CODES]
    rows.append({w["category_code"]: "TOTAL", w["category"]: w["total"], "_d": int(len(sub)), "_s": int(len(table))})
    out = pd.DataFrame(rows)
    whole = division is None or (isinstance(division, str) and nfc(division).lower() in _ALL)
    if whole:
        return out.drop(columns="_d").rename(columns={"_s": f"{w['count']} ({w['in_state']})"})
    return out.rename(columns={"_d": f"{w['count']} ({w['in_division']})", "_s": f"{w['count']} ({w['in_state']})"})


def category_summary(table: pd.DataFrame, by: str = "division", lang: str = "en", division=None) -> pd.DataFrame:
    """Rows = divisions (or districts), columns = the eight category labels in ``lang`` and the total; a total row.
    ``division`` limits the rows to that division (or list)."""
    _check_lang(lang)
    if by not in ("division", "district"):
        raise InputError(f"by must be 'division' or 'district', not {by!r}", column="by")
    w = _WORDS[lang]
    sub = _in_division(table, division)
    keys = sub[by].astype(object).where(sub[by].notna(), "").astype(str)
    t = pd.crosstab(keys, sub["category"])
    for c in CODES:
        if c not in t.columns:
            t[c] = 0
    t = t[list(CODES)]
    if by == "division":
        order = {n: i for i, n in enumerate(_division_table()["division"])}
        t = t.loc[sorted(t.index, key=lambda n: (order.get(n, len(order)), n))]
    t[w["total"]] = t.sum(axis=1)
    t.loc[w["total"]] = t.sum(axis=0)
    t.index = list(_place(pd.Series(t.index[:-1]), by, lang)) + [w["total"]]
    t.index.name = w[by]
    t.columns = [label(c, lang) for c in CODES] + [w["total"]]
    t.columns.name = None
    return t.astype(int)


def unit_list(table: pd.DataFrame, division=None, lang: str = "en", reasons: bool = True) -> pd.DataFrame:
    """The units of the division(s) with their category and, with ``reasons``, the engine's reason and clause,
    sorted by division, district and name; column headers, names and category labels in ``lang`` (reasons stay in
    English: the engine writes them in English). The district column is left out when every unit is a district."""
    _check_lang(lang)
    w = _WORDS[lang]
    sub = _in_division(table, division)
    order = {n: i for i, n in enumerate(_division_table()["division"])}
    sub = sub.assign(_o=sub["division"].map(order).fillna(len(order)),
                     _n=sub["unit_name_en"].astype(str)).sort_values(["_o", "division", "district", "_n", "unit_code"],
                                                                      kind="stable")
    is_district = bool(len(sub)) and bool((sub["district"].astype(str) == sub["unit_name_en"].astype(str)).all())
    out = pd.DataFrame({w["unit"]: _names(sub, lang).to_numpy(), w["code"]: sub["unit_code"].to_numpy()})
    if not is_district:
        out[w["district"]] = _place(sub["district"], "district", lang).to_numpy()
    out[w["division"]] = _place(sub["division"], "division", lang).to_numpy()
    out[w["category"]] = [label(c, lang) for c in sub["category"]]
    out[w["category_code"]] = sub["category"].to_numpy()
    if reasons:
        out[w["reason"]] = sub["reason"].to_numpy()
        out[w["clause"]] = sub["clause"].to_numpy()
    return out.reset_index(drop=True)


def not_drawn_table(not_drawn: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """The units that have no shape on a map (from :func:`division_map` or :func:`reservation.maps.join_allotment`),
    with name, code, district, category and why; headers in ``lang``."""
    _check_lang(lang)
    w = _WORDS[lang]
    if not len(not_drawn):
        return pd.DataFrame(columns=[w["unit"], w["code"], w["district"], w["category"], w["why"]])
    dist = not_drawn["district"] if "district" in not_drawn else pd.Series("", index=not_drawn.index)
    return pd.DataFrame({w["unit"]: _names(not_drawn, lang).to_numpy(), w["code"]: not_drawn["unit_code"].to_numpy(),
                         w["district"]: _place(dist, "district", lang).to_numpy(),
                         w["category"]: [label(c, lang) for c in not_drawn["category"]],
                         w["why"]: not_drawn["why"].to_numpy()})


def _text_colour(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def style_categories(df: pd.DataFrame, lang: str = "en"):
    """A pandas Styler that paints the category column of :func:`unit_list` in the category's map colour
    (the same colours as every map and legend: :data:`reservation.categories.COLOURS`). Display only."""
    _check_lang(lang)
    w = _WORDS[lang]
    codes = df[w["category_code"]] if w["category_code"] in df.columns else None

    def paint(col):
        if codes is None:
            return [""] * len(col)
        return [f"background-color: {COLOURS[c]}; color: {_text_colour(COLOURS[c])}" if c in COLOURS else ""
                for c in codes]
    st = df.style.hide(axis="index")
    if w["category"] in df.columns:
        st = st.apply(paint, subset=[w["category"]])
    return st.set_properties(**{"text-align": "left", "vertical-align": "top"}).set_table_styles(
        [{"selector": "th", "props": [("text-align", "left")]}])


def division_label(division: str) -> str:
    """``"Lucknow / लखनऊ"``: a division's name as in the data and in Hindi."""
    hi = dict(zip(_division_table()["division"], _division_table()["division_hi"])).get(division, "")
    return f"{division} / {hi}" if hi else str(division)


def report_heading(result, division=None, lang: str = "en") -> str:
    """The page heading in Markdown: body, year, division, number of units, the history used."""
    _check_lang(lang)
    meta = result.meta
    body = meta.get("body", "")
    years = ", ".join(map(str, meta.get("history_years", []))) or ("no history" if lang == "en" else "कोई इतिहास नहीं")
    sub = _in_division(result.table, division)
    whole = division is None or (isinstance(division, str) and nfc(division).lower() in _ALL)
    if lang == "hi":
        where = _WORDS["hi"]["all"] if whole else ", ".join(_place(pd.Series(
            [division] if isinstance(division, str) else list(division)), "division", "hi"))
        return (f"## {body_title(body, 'hi')} {meta.get('year', '')}: {where}\n\n"
                f"{len(sub)} इकाइयाँ; चक्रानुक्रम का आधार: {years} (आधार वर्ष {meta.get('base_year', '')})")
    where = "all divisions" if whole else (division if isinstance(division, str) else ", ".join(division))
    return (f"## {body_title(body)} {meta.get('year', '')}: {where}\n\n"
            f"{len(sub)} units; rotation against {years} (base year {meta.get('base_year', '')})")


def assumptions_table(result) -> pd.DataFrame:
    """What the run assumed and which options differ from their defaults: ``kind, item, value``."""
    rows = [{"kind": "assumption", "item": "", "value": a} for a in result.meta.get("assumptions", [])]
    for name, o in result.meta.get("options", {}).items():
        if str(o.get("value")) != str(o.get("default")):
            rows.append({"kind": "option (not the default)", "item": name,
                         "value": f"{o.get('value')} (default {o.get('default')}): {o.get('reading', '')}"})
    for item in result.meta.get("inputs", {}).get("history", []):
        rows.append({"kind": "history file", "item": item.get("path", ""), "value": item.get("sha256", "")[:16]})
    return pd.DataFrame(rows, columns=["kind", "item", "value"])


# ============================================================================================ maps

def _urban_body_id(table: pd.DataFrame, body: str | None = None) -> str | None:
    """The urban body id of a table (``pp-chair``, ``np-chair``, ``mayor``), from ``body`` or ``body_type``."""
    try:
        from .rulebooks.municipal import URBAN_BODIES
    except ImportError:  # pragma: no cover - before the urban rulebook existed
        return None
    if body in URBAN_BODIES:
        return body
    if "body_type" in table.columns and len(table):
        kinds = set(table["body_type"].astype(str))
        for k, spec in URBAN_BODIES.items():
            if kinds <= {str(spec.get("unit", "")), str(spec.get("type", "")), str(spec.get("short", ""))}:
                return k
    return None


def map_mode(table: pd.DataFrame, body: str | None = None) -> str:
    """How a table is mapped:

    - ``"district"``: every row is a district: one polygon each, coloured by category (:func:`reservation.maps.choropleth`);
    - ``"points"``: rows carry ``lon``/``lat``: points in the category's colour, sized by population;
    - ``"district-points"``: urban bodies (``pp-chair``, ``np-chair``, ``mayor``), which have no polygon and no
      coordinates in the data: points sized by population, placed around their district's centre (the position
      is the district, not the town; every map says so);
    - ``"aggregate"``: other units without a polygon (the blocks of ``kp-chair``, ward and gram panchayat units):
      counted per district and shaded by share (:func:`district_aggregate`).
    """
    codes = pd.to_numeric(table["unit_code"], errors="coerce")
    dcodes = set(load_districts()["unit_code"].astype(int))
    if len(table) and codes.notna().all() and codes.astype(int).isin(dcodes).all() and \
            (table["district"].astype(str) == table["unit_name_en"].astype(str)).all():
        return "district"
    if "lon" in table.columns and "lat" in table.columns:
        return "points"
    if _urban_body_id(table, body) is not None:
        return "district-points"
    return "aggregate"


_GOLDEN_ANGLE = math.pi * (3 - math.sqrt(5))
#: Spacing (degrees) of the points placed around a district's centre: the i-th lies at SPACING * sqrt(i).
POINT_SPACING = 0.06


@lru_cache(maxsize=4)
def _urban_population(body: str) -> dict[int, int]:
    from .rulebooks.municipal import load_bodies
    b, _ = load_bodies(body)
    pop = pd.to_numeric(b["pop"], errors="coerce")
    return {int(c): int(p) for c, p in zip(b["unit_code"], pop) if pd.notna(p)}


def unit_points(table: pd.DataFrame, body: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The units of a table as points: ``(points, not_drawn)``.

    With ``lon``/``lat`` columns the points are where the table says (``placed`` = ``coordinates``; outside Uttar
    Pradesh or blank -> not drawn). Otherwise (urban bodies) each unit is placed around its district's centre
    (a point inside the district polygon), the most populous at the centre and the others on a sunflower spiral
    (``placed`` = ``district``); a unit whose district is unknown is not drawn. ``pop`` is the population used
    for the size: the table's ``pop_total``/``pop`` column, or the shipped urban-body list (Census 2011 town
    figures, :func:`reservation.rulebooks.municipal.load_bodies`); missing -> NA (drawn at the smallest size).
    Every row is in exactly one of the two frames.
    """
    from . import maps
    from .units import crosswalk
    t = table.reset_index(drop=True).copy()
    if "pop_total" in t.columns:
        pop = pd.to_numeric(t["pop_total"], errors="coerce")
    elif "pop" in t.columns:
        pop = pd.to_numeric(t["pop"], errors="coerce")
    else:
        bid = _urban_body_id(t, body)
        pmap = _urban_population(bid) if bid else {}
        pop = pd.Series([pmap.get(int(c), np.nan) for c in t["unit_code"]], dtype="float")
    t["pop"] = pd.array([None if pd.isna(v) else int(v) for v in pop], dtype="Int64")
    if "lon" in t.columns and "lat" in t.columns:
        lon = pd.to_numeric(t["lon"], errors="coerce")
        lat = pd.to_numeric(t["lat"], errors="coerce")
        inside = lon.between(76.5, 85.0) & lat.between(23.5, 31.0)
        why = np.where(lon.isna() | lat.isna(), "no lon/lat", "lon/lat outside Uttar Pradesh")
        pts = t[inside].assign(lon=lon[inside], lat=lat[inside], placed="coordinates")
        nd = t[~inside].assign(why=why[~inside.to_numpy()])
        return pts.reset_index(drop=True), nd.reset_index(drop=True)
    cw = crosswalk()
    b = maps.district_boundaries().set_index("unit_code")
    centre = {int(c): g.representative_point() for c, g in zip(b.index, b.geometry)}
    dcode = []
    for n in t["district"].astype(object).where(t["district"].notna(), "").astype(str):
        try:
            dcode.append(cw.resolve(n) if n.strip() else -1)
        except KeyError:
            dcode.append(-1)
    t["_d"] = dcode
    ok = t["_d"] >= 0
    nd = t[~ok].drop(columns="_d").assign(why="no coordinates and no known district").reset_index(drop=True)
    pts = t[ok].copy()
    pts["_p"] = pts["pop"].fillna(-1).astype("int64")
    pts = pts.sort_values(["_d", "_p", "unit_code"], ascending=[True, False, True], kind="stable")
    pts["_i"] = pts.groupby("_d").cumcount()
    r = POINT_SPACING * np.sqrt(pts["_i"].to_numpy(dtype=float))
    a = pts["_i"].to_numpy(dtype=float) * _GOLDEN_ANGLE
    cx = np.array([centre[d].x for d in pts["_d"]])
    cy = np.array([centre[d].y for d in pts["_d"]])
    pts["lon"] = np.round(cx + r * np.cos(a) / math.cos(math.radians(27)), 5)
    pts["lat"] = np.round(cy + r * np.sin(a), 5)
    pts["placed"] = "district"
    pts = pts.drop(columns=["_d", "_p", "_i"]).sort_values("unit_code", kind="stable").reset_index(drop=True)
    return pts, nd


_POINT_TEXT = {
    "en": {"district_note": "Position: the district's centre (the data have no coordinates for these units); "
                            "size: population (Census 2011).", "coord_note": "Size: population.",
           "division_line": "Division boundary", "category": "Category"},
    "hi": {"district_note": "स्थिति: जनपद का केंद्र (इन इकाइयों के निर्देशांक उपलब्ध नहीं); आकार: जनसंख्या (जनगणना 2011)।",
           "coord_note": "आकार: जनसंख्या।", "division_line": "मंडल की सीमा", "category": "श्रेणी"},
}


def _sizes(pop: pd.Series, small: float, big: float) -> np.ndarray:
    v = pd.to_numeric(pop, errors="coerce").astype(float)
    top = v.max() if v.notna().any() else 0
    if not top or top <= 0:
        return np.full(len(v), small)
    return (small + (big - small) * np.sqrt(v.fillna(0).to_numpy() / top)).round(1)


def points_figure(points: pd.DataFrame, title: str | None = None, lang: str = "en", division=None,
                  height: int = 650):
    """Interactive map of :func:`unit_points`: districts white with grey edges, division boundaries dark, one
    point per unit in its category's colour, sized by population; hover: name, district, category, reason.
    Offline (MapLibre ``white-bg``; no text on the map)."""
    import plotly.graph_objects as go
    from . import maps
    _check_lang(lang)
    t = _POINT_TEXT[lang]
    b = maps.district_boundaries()
    fig = go.Figure()
    name_col = "unit_name_hi" if lang == "hi" else "unit_name_en"
    fig.add_trace(go.Choroplethmap(
        geojson=_geojson(b), locations=b["unit_code"].astype(int).astype(str).tolist(), z=[0] * len(b),
        colorscale=[[0, "#ffffff"], [1, "#ffffff"]], showscale=False, marker={"line": {"color": "#9e9e9e",
                                                                                      "width": 0.6}},
        customdata=b[[name_col]].to_numpy().tolist(), hovertemplate="%{customdata[0]}<extra></extra>",
        showlegend=False))
    lons, lats = _division_outline()
    fig.add_trace(go.Scattermap(lon=lons, lat=lats, mode="lines", line={"color": "#303030", "width": 1.6},
                                name=t["division_line"], hoverinfo="skip", showlegend=True))
    size = _sizes(points["pop"], 5, 22) if len(points) else np.zeros(0)
    names = _names(points, lang) if len(points) else pd.Series(dtype=str)
    dist = _place(points["district"], "district", lang) if len(points) else pd.Series(dtype=str)
    reason = points["reason"].astype(str).map(lambda x: "<br>".join(re.findall(r".{1,70}(?:\s|$)", x))) \
        if "reason" in points.columns else pd.Series("", index=points.index)
    for c in CODES:
        sel = (points["category"] == c).to_numpy() if len(points) else np.zeros(0, dtype=bool)
        if not sel.any():
            continue
        p = points[sel]
        pop_txt = [f"{int(v):,}" if pd.notna(v) else "?" for v in p["pop"]]
        fig.add_trace(go.Scattermap(
            lon=p["lon"].tolist(), lat=p["lat"].tolist(), mode="markers",
            marker={"color": COLOURS[c], "size": size[sel].tolist(), "opacity": 0.9},
            name=f"{label(c, lang)} ({int(sel.sum())})",
            customdata=np.column_stack([names[sel], dist[sel], [label(c, lang)] * int(sel.sum()), pop_txt,
                                        reason[sel]]).tolist(),
            hovertemplate="<b>%{customdata[0]}</b> (%{customdata[1]})<br>%{customdata[2]}<br>%{customdata[3]}"
                          "<br>%{customdata[4]}<extra></extra>"))
    placed = set(points["placed"]) if len(points) else set()
    note = t["district_note"] if "district" in placed else t["coord_note"]
    bounds = _division_bounds(division) or tuple(b.total_bounds)
    top = 60 if title else 10
    fig.update_layout(
        title={"text": title} if title else None, height=height,
        map={"style": "white-bg", "center": {"lon": round((bounds[0] + bounds[2]) / 2, 4),
                                             "lat": round((bounds[1] + bounds[3]) / 2, 4)},
             "zoom": fit_zoom(bounds, 700, height - top - 40)},
        legend={"title": {"text": t["category"]}, "itemsizing": "constant", "bgcolor": "rgba(255,255,255,0.85)"},
        margin={"l": 10, "r": 10, "t": top, "b": 40},
        annotations=[{"text": note, "xref": "paper", "yref": "paper", "x": 0, "y": -0.01, "yanchor": "top",
                      "xanchor": "left", "showarrow": False, "font": {"size": 11}}])
    return fig


def points_static_figure(points: pd.DataFrame, title: str | None = None, lang: str = "en", division=None):
    """The static counterpart of :func:`points_figure` (matplotlib): legend with category labels and counts."""
    import matplotlib
    from matplotlib import patheffects
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from . import maps
    _check_lang(lang)
    t = _POINT_TEXT[lang]
    b = maps.district_boundaries()
    divs = maps.division_boundaries()
    rc = _font_rc(lang)
    with matplotlib.rc_context(rc):
        fig = Figure(figsize=(11, 9), layout="constrained")
        ax = fig.add_subplot()
        ax.set_axis_off()
        bounds = _division_bounds(division) or tuple(b.total_bounds)
        pad = 0.04 * max(bounds[2] - bounds[0], bounds[3] - bounds[1])
        ax.set_aspect(1 / math.cos(math.radians((bounds[1] + bounds[3]) / 2)))
        b.plot(ax=ax, facecolor="#ffffff", edgecolor="#9e9e9e", linewidth=0.4)
        divs.boundary.plot(ax=ax, color="#303030", linewidth=1.1)
        handles = []
        if len(points):
            size = _sizes(points["pop"], 10, 160)
            order = np.argsort(-size, kind="stable")          # big points first, small ones on top
            p = points.iloc[order]
            ax.scatter(p["lon"], p["lat"], s=size[order], c=[COLOURS[c] for c in p["category"]],
                       edgecolors="#202020", linewidths=0.4, zorder=5)
            for c in CODES:
                n = int((points["category"] == c).sum())
                if n:
                    handles.append(Line2D([], [], marker="o", linestyle="", markersize=8, markerfacecolor=COLOURS[c],
                                          markeredgecolor="#202020", label=f"{label(c, lang)} ({n})"))
        handles.append(Line2D([], [], color="#303030", linewidth=1.1, label=t["division_line"]))
        ax.set_xlim(bounds[0] - pad, bounds[2] + pad)
        ax.set_ylim(bounds[1] - pad, bounds[3] + pad)
        if _division_names(division) and len(points):
            lab = points.groupby("district").agg(lon=("lon", "mean"), lat=("lat", "min")).reset_index()
            for _, r in lab.iterrows():
                ax.annotate(_place(pd.Series([r["district"]]), "district", lang).iat[0], (r["lon"], r["lat"] - 0.05),
                            ha="center", va="top", fontsize=8, color="#303030",
                            path_effects=[patheffects.withStroke(linewidth=2, foreground="#ffffff")])
        ax.legend(handles=handles, title=t["category"], loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9,
                  framealpha=0.95)
        if title:
            ax.set_title(title, fontsize=14)
        placed = set(points["placed"]) if len(points) else set()
        fig.text(0.01, 0.005, t["district_note"] if "district" in placed else t["coord_note"], fontsize=8,
                 color="#404040")
    fig._reservation_rc = rc
    return fig


#: Columns of :func:`district_aggregate` besides the eight category codes.
AGGREGATE_COLUMNS = {
    "unit_code": "LGD district code", "unit_name_en": "district", "unit_name_hi": "district, Hindi",
    "division": "division", "division_hi": "division, Hindi", "units": "number of units in the district",
    "reserved": "units reserved for any category (all but UR)", "women": "units reserved for women (ST_W SC_W OBC_W W)",
    "share_reserved": "reserved / units (Fraction, exact)", "share_women": "women / units (Fraction)",
}


def district_aggregate(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Count the units of an allotment per district, for a district-level map of bodies whose units have no
    polygon (blocks of ``kp-chair``, urban bodies without coordinates).

    Returns ``(aggregate, not_drawn)``: ``aggregate`` has one row per district that has units, with the columns of
    :data:`AGGREGATE_COLUMNS` and one count column per category code (``ST_W`` ... ``UR``); ``not_drawn`` holds the
    rows whose ``district`` does not resolve to a district of Uttar Pradesh, with a ``why``. Every row of
    ``table`` is counted in exactly one district or listed in ``not_drawn``.
    """
    from .units import crosswalk
    cw = crosswalk()
    names = table["district"].astype(object).where(table["district"].notna(), "").astype(str)
    cache: dict[str, int] = {}
    codes = []
    for n in names:
        if n not in cache:
            try:
                cache[n] = cw.resolve(n) if n.strip() else -1
            except KeyError:
                cache[n] = -1
        codes.append(cache[n])
    codes = np.asarray(codes, dtype=np.int64)
    ok = codes >= 0
    not_drawn = table[~ok].assign(why=[f"district {n!r} is not a district of Uttar Pradesh" if n.strip() else
                                       "no district given" for n in names[~ok]]).reset_index(drop=True)
    sub = table[ok].assign(_d=codes[ok])
    t = pd.crosstab(sub["_d"], sub["category"])
    for c in CODES:
        if c not in t.columns:
            t[c] = 0
    t = t[list(CODES)].astype(int)
    d = load_districts().set_index("unit_code")
    agg = pd.DataFrame({"unit_code": t.index.astype(int)})
    agg["unit_name_en"] = [d.at[c, "unit_name_en"] for c in agg["unit_code"]]
    agg["unit_name_hi"] = [d.at[c, "unit_name_hi"] for c in agg["unit_code"]]
    agg["division"] = [d.at[c, "division"] for c in agg["unit_code"]]
    agg["division_hi"] = [d.at[c, "division_hi"] for c in agg["unit_code"]]
    for c in CODES:
        agg[c] = t[c].to_numpy()
    agg["units"] = t.sum(axis=1).to_numpy()
    agg["reserved"] = agg["units"] - agg["UR"]
    agg["women"] = agg[["ST_W", "SC_W", "OBC_W", "W"]].sum(axis=1)
    agg["share_reserved"] = [Fraction(int(r), int(u)) for r, u in zip(agg["reserved"], agg["units"])]
    agg["share_women"] = [Fraction(int(r), int(u)) for r, u in zip(agg["women"], agg["units"])]
    agg = agg.sort_values("unit_code").reset_index(drop=True)
    return agg, not_drawn


def fit_zoom(bounds, width: float, height: float, margin: float = 0.9) -> float:
    """The MapLibre zoom at which lon/lat ``bounds`` (minx, miny, maxx, maxy) fill ``width`` x ``height`` pixels
    (Web Mercator, 512-pixel tiles), with ``margin`` of the frame used."""
    minx, miny, maxx, maxy = (float(b) for b in bounds)
    merc = lambda lat: math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))  # noqa: E731
    dy = max(merc(maxy) - merc(miny), 1e-9)
    dx = max(maxx - minx, 1e-9)
    zy = math.log2(margin * height * 2 * math.pi / (512 * dy))
    zx = math.log2(margin * width * 360 / (512 * dx))
    return round(min(zx, zy), 2)


def _division_bounds(division) -> tuple | None:
    from . import maps
    names = _division_names(division)
    if names is None:
        return None
    b = maps.division_boundaries()
    b = b[b["division"].isin(names)]
    return tuple(b.total_bounds) if len(b) else None


def _division_names(division):
    if division is None or (isinstance(division, str) and nfc(division).lower() in _ALL):
        return None
    return [division] if isinstance(division, str) else list(division)


@lru_cache(maxsize=1)
def _division_outline() -> tuple[list, list]:
    import shapely
    from . import maps
    divs = maps.division_boundaries()
    return maps._lines_lonlat(shapely.union_all(shapely.boundary(np.asarray(divs.geometry.values, dtype=object))))


def _geojson(gdf, ndigits: int = 5) -> dict:
    import shapely
    geoms = shapely.set_precision(np.asarray(gdf.geometry.values, dtype=object), 10.0 ** -ndigits)
    return {"type": "FeatureCollection",
            "features": [{"type": "Feature", "id": str(int(c)), "properties": {},
                          "geometry": shapely.geometry.mapping(g)} for c, g in zip(gdf["unit_code"], geoms)]}


def _pct(x: Fraction) -> str:
    from .rounding import half_up
    tenths = half_up(Fraction(x) * 1000)
    return f"{tenths // 10}.{tenths % 10} %"


_MEASURES_TEXT = {
    "en": {"reserved": "Share of units reserved (any category)", "women": "Share of units reserved for women",
           "share_of": "Share of units: {label}", "units": "units", "of": "of", "absent": "No units here",
           "division_line": "Division boundary"},
    "hi": {"reserved": "आरक्षित इकाइयों का अनुपात (कोई भी श्रेणी)", "women": "महिलाओं के लिए आरक्षित इकाइयों का अनुपात",
           "share_of": "इकाइयों का अनुपात: {label}", "units": "इकाइयाँ", "of": "में से", "absent": "यहाँ कोई इकाई नहीं",
           "division_line": "मंडल की सीमा"},
}


def _measure(agg: pd.DataFrame, measure: str) -> list[Fraction]:
    if measure == "reserved":
        return list(agg["share_reserved"])
    if measure == "women":
        return list(agg["share_women"])
    return [Fraction(int(k), int(u)) for k, u in zip(agg[measure], agg["units"])]


def _measure_title(measure: str, lang: str) -> str:
    t = _MEASURES_TEXT[lang]
    return t[measure] if measure in ("reserved", "women") else t["share_of"].format(label=label(measure, lang))


def _measure_max(values) -> float:
    """Top of a panel's colour scale (a share, 0-1): the largest value rounded up to a tenth (at least 0.1), so
    that categories holding a tenth of the units are not washed out on a 0-100 % scale."""
    top = max((float(v) for v in values), default=0.0)
    return max(0.1, math.ceil(round(top * 10, 9)) / 10)


def _measure_colour(measure: str) -> str:
    return {"reserved": "#252525", "women": "#762a83"}.get(measure, COLOURS.get(measure, "#252525"))


def aggregate_figure(agg: pd.DataFrame, title: str | None = None, lang: str = "en", division=None,
                     height: int = 650):
    """Interactive district map of :func:`district_aggregate`: districts shaded by the share of their units that
    are reserved; buttons switch to the share of women's offices or of any one category, each shaded from white
    to the category's own map colour. Hover: the count of every category. Offline (MapLibre ``white-bg``, no
    text on the map). Districts without units are white with a grey edge; division boundaries are dark lines."""
    import plotly.graph_objects as go
    from . import maps
    _check_lang(lang)
    t = _MEASURES_TEXT[lang]
    b = maps.district_boundaries()
    agg = agg.copy()
    if _division_names(division):
        agg = agg[agg["division"].isin(_division_names(division))]
    present = b[b["unit_code"].isin(agg["unit_code"])].set_index("unit_code").loc[agg["unit_code"]].reset_index()
    absent = b[~b["unit_code"].isin(agg["unit_code"])]
    name_col = "unit_name_hi" if lang == "hi" else "unit_name_en"
    div_col = "division_hi" if lang == "hi" else "division"
    fig = go.Figure()
    if len(absent):
        fig.add_trace(go.Choroplethmap(
            geojson=_geojson(absent), locations=absent["unit_code"].astype(int).astype(str).tolist(),
            z=[0] * len(absent), colorscale=[[0, "#ffffff"], [1, "#ffffff"]], showscale=False,
            marker={"line": {"color": "#9e9e9e", "width": 0.6}}, name=t["absent"], showlegend=True,
            customdata=np.column_stack([absent[name_col], absent[div_col]]).tolist(),
            hovertemplate=f"<b>%{{customdata[0]}}</b><br>%{{customdata[1]}}<br>{t['absent']}<extra></extra>"))
    detail = []
    for _, r in agg.iterrows():
        parts = [f"{label(c, lang)}: {int(r[c])}" for c in CODES if int(r[c])]
        detail.append("<br>".join(parts))
    measures = ["reserved", "women"] + [c for c in CODES if c != "UR" and int(agg[c].sum())]
    zs = {m: [float(x) * 100 for x in _measure(agg, m)] for m in measures}   # colour only; text is exact
    custom = [[n, d, int(u), det] for n, d, u, det in zip(agg[name_col], agg[div_col], agg["units"], detail)]
    hover = (f"<b>%{{customdata[0]}}</b><br>%{{customdata[1]}}<br>%{{customdata[2]}} {t['units']}; "
             f"%{{z:.1f}} %<br>%{{customdata[3]}}<extra></extra>")

    def scale(m):
        return [[0, "#ffffff"], [1, _measure_colour(m)]]
    fig.add_trace(go.Choroplethmap(
        geojson=_geojson(present), locations=agg["unit_code"].astype(int).astype(str).tolist(), z=zs["reserved"],
        zmin=0, zmax=100, colorscale=scale("reserved"), marker={"line": {"color": "#bdbdbd", "width": 0.6}},
        colorbar={"title": {"text": "%"}, "ticksuffix": " %", "len": 0.6}, customdata=custom,
        hovertemplate=hover, name=_measure_title("reserved", lang), showlegend=False))
    idx = len(fig.data) - 1
    lons, lats = _division_outline()
    fig.add_trace(go.Scattermap(lon=lons, lat=lats, mode="lines", line={"color": "#303030", "width": 1.6},
                                name=t["division_line"], hoverinfo="skip", showlegend=True))
    zmax = {m: _measure_max(_measure(agg, m)) * 100 for m in measures}
    fig.data[idx].zmax = zmax["reserved"]
    buttons = [{"label": _measure_title(m, lang), "method": "update",
                "args": [{"z": [zs[m]], "colorscale": [scale(m)], "zmax": [zmax[m]]},
                         {"title.text": _title_with(title, m, lang)}, [idx]]}
               for m in measures]
    bounds = _division_bounds(division) or tuple(b.total_bounds)
    top = 90 if title else 50
    fig.update_layout(
        title={"text": _title_with(title, "reserved", lang)}, height=height,
        map={"style": "white-bg", "center": {"lon": round((bounds[0] + bounds[2]) / 2, 4),
                                             "lat": round((bounds[1] + bounds[3]) / 2, 4)},
             "zoom": fit_zoom(bounds, 700, height - top - 30)},
        margin={"l": 10, "r": 10, "t": top, "b": 30},
        updatemenus=[{"type": "dropdown", "buttons": buttons, "x": 0.0, "xanchor": "left", "y": 1.0,
                      "yanchor": "bottom", "showactive": True}],
        legend={"x": 0.99, "xanchor": "right", "y": 0.01, "yanchor": "bottom", "bgcolor": "rgba(255,255,255,0.85)"})
    return fig


def _title_with(title, measure, lang):
    m = _measure_title(measure, lang)
    return f"{title}<br><sub>{m}</sub>" if title else m


def aggregate_static_figure(agg: pd.DataFrame, title: str | None = None, lang: str = "en", division=None):
    """The static counterpart of :func:`aggregate_figure` (matplotlib, no browser): small multiples, one panel
    for the share of reserved units and one per category present, each shaded from white to the category's map
    colour (the scale's top is the panel's largest share rounded up to a tenth), division boundaries dark,
    districts without units light grey. A division view names its districts on the first panel."""
    import matplotlib
    from matplotlib import patheffects
    from matplotlib.colors import LinearSegmentedColormap, Normalize
    from matplotlib.figure import Figure
    from . import maps
    _check_lang(lang)
    t = _MEASURES_TEXT[lang]
    name_col = "unit_name_hi" if lang == "hi" else "unit_name_en"
    b = maps.district_boundaries()
    divs = maps.division_boundaries()
    names = _division_names(division)
    if names:
        agg = agg[agg["division"].isin(names)]
    measures = ["reserved"] + [c for c in CODES if c != "UR" and int(agg[c].sum())]
    ncol = 3
    nrow = math.ceil(len(measures) / ncol)
    bounds = _division_bounds(division) or tuple(b.total_bounds)
    pad = 0.04 * max(bounds[2] - bounds[0], bounds[3] - bounds[1])
    view = (bounds[0] - pad, bounds[1] - pad, bounds[2] + pad, bounds[3] + pad)
    # draw only what is in view (a division's map need not draw the other 60 districts)
    b = b.cx[view[0]:view[2], view[1]:view[3]]
    divs = divs.cx[view[0]:view[2], view[1]:view[3]]
    absent = b[~b["unit_code"].isin(agg["unit_code"])]
    g = maps.district_boundaries().set_index("unit_code").loc[agg["unit_code"]].reset_index()
    aspect = 1 / math.cos(math.radians((bounds[1] + bounds[3]) / 2))
    rc = _font_rc(lang)
    with matplotlib.rc_context(rc):
        fig = Figure(figsize=(12, 3.9 * nrow + 0.9))
        gs = fig.add_gridspec(nrow, ncol, left=0.01, right=0.93, top=1 - 0.9 / (3.9 * nrow + 0.9), bottom=0.02,
                              wspace=0.25, hspace=0.28)
        for i, m in enumerate(measures):
            r_, c_ = divmod(i, ncol)
            ax = fig.add_subplot(gs[r_, c_])
            cax = ax.inset_axes([1.03, 0.2, 0.045, 0.6])     # follows the map's box after its aspect is applied
            ax.set_axis_off()
            ax.set_aspect(aspect)
            cmap = LinearSegmentedColormap.from_list(m, ["#ffffff", _measure_colour(m)])
            if len(absent):
                absent.plot(ax=ax, facecolor="#eeeeee", edgecolor="#bdbdbd", linewidth=0.3)
            vals = [float(x) for x in _measure(agg, m)]
            top = _measure_max(vals)
            g.plot(ax=ax, color=[cmap(v / top) for v in vals], edgecolor="#9e9e9e", linewidth=0.3)
            divs.boundary.plot(ax=ax, color="#303030", linewidth=0.8)
            ax.set_xlim(view[0], view[2])
            ax.set_ylim(view[1], view[3])
            total = int(agg["reserved"].sum()) if m == "reserved" else int(agg[m].sum())
            ax.set_title(f"{_measure_title(m, lang)}\n({total} {t['of']} {int(agg['units'].sum())} {t['units']})",
                         fontsize=9)
            if i == 0 and names and len(agg) <= 12:
                for (_, r), g_ in zip(agg.iterrows(), g.geometry):
                    pt = g_.representative_point()
                    ax.annotate(r[name_col], (pt.x, pt.y), ha="center", va="center", fontsize=7, color="#000000",
                                path_effects=[patheffects.withStroke(linewidth=2, foreground="#ffffff")])
            sm = matplotlib.cm.ScalarMappable(norm=Normalize(0, top * 100), cmap=cmap)
            cb = fig.colorbar(sm, cax=cax, ticks=[0, top * 50, top * 100])
            cb.ax.set_yticklabels([f"{x:g} %" for x in (0, top * 50, top * 100)], fontsize=7)
        if title:
            fig.suptitle(title, fontsize=13)
    fig._reservation_rc = rc
    return fig


def _font_rc(lang: str) -> dict:
    from . import maps
    return maps._font_rc(lang)


@dataclass
class MapView:
    """What :func:`division_map` returns: the figure, how units were mapped, and who is not on the map."""
    figure: object
    mode: str                         # district | points | district-points | aggregate | empty
    not_drawn: pd.DataFrame           # rows of the allotment with no shape, with ``why``
    drawn: int                        # rows on the map (polygons, points, or counted in a district)
    aggregate: pd.DataFrame | None = None

    @property
    def units(self) -> int:
        """Rows of the allotment in the view: on the map or not drawn."""
        return int(self.drawn + len(self.not_drawn))

    @property
    def caption(self) -> str:
        return f"{self.drawn} of {self.units} units on the map ({self.mode}); not drawn: {len(self.not_drawn)}"


def division_map(table: pd.DataFrame, division=None, lang: str = "en", title: str | None = None,
                 height: int = 650, body: str | None = None) -> MapView:
    """The interactive map of an allotment, or of its division(s), by :func:`map_mode`: districts coloured by
    category (divisions outlined); units with coordinates, and urban bodies around their district's centre, as
    points sized by population; other units counted per district. A division zooms the map onto it; the rest of
    the State stays as context. Every row of the division's table is on the map or in ``not_drawn``."""
    from . import maps
    _check_lang(lang)
    sub = _in_division(table, division).reset_index(drop=True)
    if not len(sub):                       # no unit of the body here: the districts, empty
        empty = sub.assign(lon=pd.Series(dtype=float), lat=pd.Series(dtype=float), pop=pd.Series(dtype="Int64"),
                           placed=pd.Series(dtype=str))
        return MapView(points_figure(empty, title=title, lang=lang, division=division, height=height), "empty",
                       sub.assign(why=pd.Series(dtype=str)), 0)
    mode = map_mode(sub, body)
    if mode == "aggregate":
        agg, nd = district_aggregate(sub)
        fig = aggregate_figure(agg, title=title, lang=lang, division=division, height=height)
        return MapView(fig, mode, nd, int(agg["units"].sum()), agg)
    if mode in ("points", "district-points"):
        pts, nd = unit_points(sub, body)
        fig = points_figure(pts, title=title, lang=lang, division=division, height=height)
        return MapView(fig, mode, nd, int(len(pts)))
    drawn, nd = maps.join_allotment(sub)
    fig = maps.choropleth(sub, title=title, lang=lang, height=height)
    bounds = _division_bounds(division)
    if bounds is not None:
        top = 60 if title else 10
        fig.update_layout(map_center={"lon": round((bounds[0] + bounds[2]) / 2, 4),
                                      "lat": round((bounds[1] + bounds[3]) / 2, 4)},
                          map_zoom=fit_zoom(bounds, 700, height - top - 60))
    return MapView(fig, mode, nd, int(len(drawn)))


def _has_devanagari_system_font() -> bool:
    import shutil
    import subprocess
    fc = shutil.which("fc-list")
    if fc is None:
        return False
    try:
        return bool(subprocess.run([fc, ":lang=hi", "family"], capture_output=True, text=True, timeout=20).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return False


def _save(fig, png: Path, svg: Path, dpi: int) -> None:
    import matplotlib
    with matplotlib.rc_context(fig._reservation_rc):
        fig.savefig(png, dpi=dpi, facecolor="white")
        fig.savefig(svg, facecolor="white", metadata={"Date": None})


def write_static_maps(table: pd.DataFrame, stem, division=None, title: str | dict | None = None,
                      langs=LANGS, engine: str = "matplotlib", dpi: int = 150, body: str | None = None) -> list[dict]:
    """PNG and SVG of the map of ``table`` (or of its division), one pair per language: ``{stem}-{lang}.png/.svg``.

    ``engine``: ``matplotlib`` (default: geopandas + matplotlib, vector SVG with text as outlines, Hindi shaped
    with the shipped font), ``kaleido`` (the plotly figure through Debian's chromium; MapLibre draws a bitmap, so
    the SVG holds an image, and each map costs 2-5 s of CPU) or ``auto`` (kaleido when chromium is installed).
    Hindi through kaleido needs a system Devanagari font; without one that language falls back to matplotlib and
    the row says so. Only district maps (:func:`map_mode` ``district``) go through kaleido; points and district
    aggregates are always drawn with matplotlib. ``title``: text, or ``{lang: text}``.
    Returns one dict per language: ``lang, png, svg, engine, mode, not_drawn (int), note``.
    """
    from . import maps
    if engine not in ("matplotlib", "kaleido", "auto"):
        raise InputError(f"engine must be matplotlib, kaleido or auto, not {engine!r}", column="engine")
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    sub = _in_division(table, division).reset_index(drop=True)
    mode = map_mode(sub, body) if len(sub) else "district"
    out = []
    for lang in langs:
        _check_lang(lang)
        tt = title.get(lang) if isinstance(title, dict) else title
        png, svg = Path(f"{stem}-{lang}.png"), Path(f"{stem}-{lang}.svg")
        note = ""
        if mode in ("aggregate", "points", "district-points"):
            if mode == "aggregate":
                agg, nd = district_aggregate(sub)
                fig = aggregate_static_figure(agg, title=tt, lang=lang, division=division)
            else:
                pts, nd = unit_points(sub, body)
                fig = points_static_figure(pts, title=tt, lang=lang, division=division)
            _save(fig, png, svg, dpi)
            used, n_nd = "matplotlib", len(nd)
            if engine != "matplotlib":
                note = f"{mode} maps are drawn with matplotlib"
        else:
            use = engine
            if use == "auto":
                use = "kaleido" if maps.chromium_path() else "matplotlib"
            if use == "kaleido" and lang == "hi" and not _has_devanagari_system_font():
                use, note = "matplotlib", "no system Devanagari font for chromium: Hindi drawn with matplotlib"
            r = maps.static_map(sub, png, svg, title=tt, lang=lang, engine=use, dpi=dpi)
            used, n_nd = r.engine, len(r.not_drawn)
        out.append({"lang": lang, "png": png, "svg": svg, "engine": used, "mode": mode, "not_drawn": int(n_nd),
                    "note": note})
    return out


# ============================================================================================ rotation

#: Verdict codes of :func:`rotation_matrix`: code -> (symbol shown in the heatmap, words).
VERDICTS = {
    "first": ("○", "no earlier election in the history since the base year: nothing to rotate from"),
    "unreserved": ("·", "unreserved: no rotation question"),
    "never": ("✓", "rotated: never reserved for this group in the earlier elections"),
    "not_last": ("✓", "rotated: not reserved for this group at the last election (held it earlier)"),
    "repeat": ("!", "repeat: reserved for this group at the last election too"),
    "repeat_allowed": ("!", "repeat, allowed: tiers 1-2 could not fill the posts ('as far as possible')"),
    "pinned": ("P", "fixed by a pin file, not by the rules"),
    "no_record": ("?", "no record for this unit in this election"),
}


def _option_value(result, name: str, default: str) -> str:
    return str(result.meta.get("options", {}).get(name, {}).get("value", default))


def rotation_matrix(result, units=None, division=None) -> pd.DataFrame:
    """Each unit's category at every election of the history files, then the computed allotment, with the
    rotation rule's verdict for each.

    One row per unit and election: ``unit_code, unit_name_en, unit_name_hi, district, division, election``
    (``"2015"`` or ``"2021 computed"``), ``year``, ``source`` (``history``/``computed``), ``category``, ``group``,
    ``tier`` (1 never reserved for the group in earlier elections since the base year, 2 not at the last one,
    3 at the last one; as :mod:`reservation.rotation` computes it), ``verdict`` (a code of :data:`VERDICTS`),
    ``verdict_text``. ``units``: unit codes (or names) to keep; ``division``: a division to keep.
    """
    from .rotation import RotationView, group_codes
    table = result.table
    base = int(result.meta.get("base_year", 2015))
    year = int(result.meta.get("year", 0))
    women = _option_value(result, "women_history", "general_only")
    mode = _option_value(result, "rotation_history", "since_base")
    if mode not in ("since_base", "last_only"):
        mode = "since_base"
    sel = _in_division(table, division)
    if units is not None:
        from .explain import resolve_unit
        items = [units] if isinstance(units, (str, int, np.integer)) else list(units)
        codes = [resolve_unit(result, u) for u in items]
        sel = sel[sel["unit_code"].isin(codes)]
    info = sel[["unit_code", "unit_name_en", "unit_name_hi", "district", "division"]].reset_index(drop=True)
    ucodes = info["unit_code"].to_numpy(dtype=np.int64)
    hist = result.history if result.history is not None else pd.DataFrame(columns=["unit_code", "year", "category"])
    hist = hist[["unit_code", "year", "category"]].copy()
    hist["year"] = hist["year"].astype(int)
    frames = []
    for y in sorted(int(x) for x in hist["year"].unique()):
        h = hist[hist["year"] == y].drop_duplicates("unit_code").set_index("unit_code")["category"]
        cat = pd.Series(ucodes).map(h)
        view = RotationView(hist, y, base, mode)
        tier = np.full(len(ucodes), -1, dtype=np.int64)
        verdict = np.full(len(ucodes), "no_record", dtype=object)
        for i, c in enumerate(cat):
            if pd.isna(c):
                continue
            if c == "UR":
                verdict[i] = "unreserved"
                continue
            if view.last_year is None:
                verdict[i] = "first"
                continue
            t = int(view.tiers(np.asarray([ucodes[i]]), group_codes(by_code(c).group, women))[0])
            tier[i] = t
            verdict[i] = {1: "never", 2: "not_last", 3: "repeat"}[t]
        frames.append(info.assign(election=str(y), year=y, source="history",
                                  category=cat.astype(object).where(cat.notna(), "").to_numpy(),
                                  tier=tier, verdict=verdict))
    comp = table.set_index("unit_code").loc[ucodes]
    tier = pd.array(comp["tier"].to_numpy(), dtype="Int64")
    verdict = []
    for c, t, cl in zip(comp["category"], tier, comp["clause"].astype(str)):
        if cl.startswith("pinned"):
            verdict.append("pinned")
        elif c == "UR":
            verdict.append("unreserved")
        elif pd.isna(t):
            verdict.append("first")
        else:
            prev = [y for y in hist["year"].unique() if base <= y < year]
            verdict.append("first" if not prev else {1: "never", 2: "not_last", 3: "repeat_allowed"}[int(t)])
    frames.append(info.assign(election=f"{year} computed", year=year, source="computed",
                              category=comp["category"].to_numpy(),
                              tier=np.where(pd.isna(tier), -1, tier.to_numpy(dtype="float", na_value=-1)).astype(int),
                              verdict=verdict))
    out = pd.concat(frames, ignore_index=True)
    out["group"] = [by_code(c).group if c else "" for c in out["category"]]
    out["tier"] = pd.array(np.where(out["tier"] < 0, None, out["tier"]), dtype="Int64")
    out["verdict_text"] = out["verdict"].map(lambda v: VERDICTS[v][1])
    cols = ["unit_code", "unit_name_en", "unit_name_hi", "district", "division", "election", "year", "source",
            "category", "group", "tier", "verdict", "verdict_text"]
    return out[cols]


def rotation_summary(matrix: pd.DataFrame) -> pd.DataFrame:
    """Elections x verdicts: how many units got each verdict at each election (columns in :data:`VERDICTS`
    order, only those that occur), plus the number of units."""
    order = [v for v in VERDICTS if v in set(matrix["verdict"])]
    elections = list(dict.fromkeys(matrix.sort_values(["year", "source"], kind="stable")["election"]))
    t = pd.crosstab(matrix["election"], matrix["verdict"]).reindex(index=elections, columns=order, fill_value=0)
    t["units"] = t.sum(axis=1)
    t.columns.name = None
    return t.astype(int)


def rotation_wide(matrix: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """One row per unit, one column per election: ``"SC_W ✓"`` (category code and the verdict's symbol, see
    :data:`VERDICTS`); the unit's name in ``lang`` and its district."""
    _check_lang(lang)
    w = _WORDS[lang]
    elections = list(dict.fromkeys(matrix.sort_values(["year", "source"], kind="stable")["election"]))
    cell = matrix["category"].where(matrix["category"] != "", "—") + " " + matrix["verdict"].map(lambda v: VERDICTS[v][0])
    t = matrix.assign(_cell=cell).pivot_table(index="unit_code", columns="election", values="_cell", aggfunc="first")
    t = t.reindex(columns=elections).fillna("")
    info = matrix.drop_duplicates("unit_code").set_index("unit_code")
    order = {n: i for i, n in enumerate(_division_table()["division"])}
    info = info.assign(_o=info["division"].map(order).fillna(len(order))).sort_values(
        ["_o", "district", "unit_name_en"], kind="stable")
    out = pd.DataFrame({w["unit"]: _names(info.reset_index(), lang).to_numpy(),
                        w["district"]: _place(info["district"], "district", lang).to_numpy()})
    for e in elections:
        out[e] = t.loc[info.index, e].to_numpy()
    return out


def rotation_heatmap(matrix: pd.DataFrame, lang: str = "en", title: str | None = None, max_units: int = 200):
    """A heatmap: units (rows) x elections (columns), each cell in its category's map colour with the verdict's
    symbol (✓ rotated, ! repeat, · unreserved, ○ first election, ? no record). Hover: category and verdict.
    More than ``max_units`` units raise an InputError (choose a division or a unit)."""
    import plotly.graph_objects as go
    _check_lang(lang)
    units = matrix.drop_duplicates("unit_code")
    if len(units) > max_units:
        raise InputError(f"{len(units)} units are too many for one heatmap (at most {max_units}): choose a division "
                         f"or a unit", column="division")
    order = {n: i for i, n in enumerate(_division_table()["division"])}
    units = units.assign(_o=units["division"].map(order).fillna(len(order))).sort_values(
        ["_o", "district", "unit_name_en"], kind="stable")
    ynames = _names(units, lang).tolist()
    if not (units["district"].astype(str) == units["unit_name_en"].astype(str)).all():
        dist = _place(units["district"], "district", lang).tolist()
        ynames = [f"{n} ({d})" for n, d in zip(ynames, dist)]
    elections = list(dict.fromkeys(matrix.sort_values(["year", "source"], kind="stable")["election"]))
    idx = {c: i for i, c in enumerate(CODES)}
    m = matrix.set_index(["unit_code", "election"])
    z, text, custom = [], [], []
    for code in units["unit_code"]:
        zr, tr, cr = [], [], []
        for e in elections:
            if (code, e) in m.index:
                r = m.loc[(code, e)]
                c = r["category"]
                zr.append(idx[c] if c else None)
                tr.append(VERDICTS[r["verdict"]][0])
                cr.append([label(c, lang) if c else "—", r["verdict_text"]])
            else:
                zr.append(None)
                tr.append("")
                cr.append(["—", ""])
        z.append(zr)
        text.append(tr)
        custom.append(cr)
    n = len(CODES)
    scale = []
    for i, c in enumerate(CODES):
        scale += [[i / n, COLOURS[c]], [(i + 1) / n, COLOURS[c]]]
    fig = go.Figure(go.Heatmap(z=z, x=elections, y=ynames, text=text, texttemplate="%{text}", textfont={"size": 13},
                               customdata=custom, colorscale=scale, zmin=-0.5, zmax=n - 0.5, showscale=False,
                               xgap=2, ygap=1, hovertemplate="<b>%{y}</b><br>%{x}: %{customdata[0]}<br>"
                                                             "%{customdata[1]}<extra></extra>"))
    present = [c for c in CODES if c in set(matrix["category"])]
    for c in present:
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", marker={"size": 12, "color": COLOURS[c],
                                                                             "symbol": "square"},
                                 name=label(c, lang), showlegend=True))
    fig.update_layout(title={"text": title} if title else None, height=max(260, 120 + 22 * len(units)),
                      yaxis={"autorange": "reversed", "type": "category"}, xaxis={"side": "top", "type": "category"},
                      plot_bgcolor="#ffffff", margin={"l": 10, "r": 10, "t": 90 if title else 60, "b": 10},
                      legend={"title": {"text": _WORDS[lang]["category"]}})
    return fig


def rotation_view(result, unit: str = "", division="all", lang: str = "en") -> dict:
    """Everything notebook 03 shows: ``matrix``, ``summary``, ``figure`` (None when too many units, with
    ``message``), ``explain`` (the engine's explanation when one unit is asked for)."""
    unit = str(unit or "").strip()
    if unit:
        matrix = rotation_matrix(result, units=[unit])
    else:
        names = None if nfc(str(division)).lower() in _ALL else resolve_divisions(division)
        matrix = rotation_matrix(result, division=names)
    out = {"matrix": matrix, "summary": rotation_summary(matrix), "figure": None, "message": "", "explain": ""}
    try:
        out["figure"] = rotation_heatmap(matrix, lang=lang)
    except InputError as e:
        out["message"] = str(e)
    if unit:
        from .explain import explain_text
        out["explain"] = explain_text(result, unit)
    return out


# ============================================================================================ toy state

def toy_allotment(options=(), districts=None, history=None):
    """The five-district toy state (data/toy/, README in tests/fixtures/toy/) through the real Zila Panchayat
    chair rules: Alpha OBC_W, Beta SC_W, Gamma, Delta, Epsilon UR with the default options."""
    from .rulebooks.panchayat import allot_zp_chair
    from .units import load_districts as _ld
    d = _ld(districts or TOY_DISTRICTS)
    return allot_zp_chair(2021, districts=d, history_paths=[history or TOY_HISTORY], options=_assignments(options))


_NO_POSTS = "no posts in this pass"


def toy_steps(result) -> pd.DataFrame:
    """The rule steps of a (small) allotment, one per row, in the order the rules applied them.

    Step 1 is the State counts; then each trace row (a unit ranked in a pass and what the pass decided), except
    that the units of a pass with no posts form one step, and the units left unreserved form the last step.
    Columns: ``step, pass, unit_codes`` (tuple), ``units`` (names), ``decision``, ``category`` (given in this step,
    or ""), ``clause``, ``text`` (a sentence for the reader).
    """
    counts = result.counts
    arith = "; ".join(f"{c} {int(n)}" for c, n in zip(counts["category"], counts["count"]) if c != "TOTAL")
    rows = [{"pass": "counts", "unit_codes": (), "units": "", "decision": "State counts", "category": "",
             "clause": "; ".join(dict.fromkeys(str(c) for c in counts["clause"] if str(c))),
             "text": f"State counts for {int(counts['count'].iat[-1])} offices: {arith}."}]
    tr = result.trace
    i = 0
    while i < len(tr):
        r = tr.iloc[i]
        if r["decision"] in (_NO_POSTS, "unreserved"):
            j = i
            while j < len(tr) and tr.iloc[j]["pass"] == r["pass"] and tr.iloc[j]["decision"] == r["decision"]:
                j += 1
            grp = tr.iloc[i:j]
            names = ", ".join(grp["unit_name_en"])
            if r["decision"] == _NO_POSTS:
                text = f"Pass {r['pass']}: no posts of this group to fill, so no unit is ranked ({names})."
                cat = ""
            else:
                text = f"Every unit not reached by a category pass is unreserved (UR): {names}."
                cat = "UR"
            rows.append({"pass": r["pass"], "unit_codes": tuple(int(c) for c in grp["unit_code"]), "units": names,
                         "decision": r["decision"], "category": cat, "clause": str(r["clause"]), "text": text})
            i = j
            continue
        text = f"Pass {r['pass']}: {r['unit_name_en']}"
        if not pd.isna(r["rank"]):
            text += f" is number {int(r['rank'])} of {int(r['pool'])} by {r['key']}"
        if not pd.isna(r["tier"]):
            text += f"; rotation tier {int(r['tier'])} ({r['tier_reason']})"
        text += f" -> {r['decision']}."
        if r["tie_break"]:
            text += f" Tie: {r['tie_break']}."
        cat = r["category"] if str(r["decision"]).startswith(("allotted", "pinned")) else ""
        rows.append({"pass": r["pass"], "unit_codes": (int(r["unit_code"]),), "units": r["unit_name_en"],
                     "decision": r["decision"], "category": cat or "", "clause": str(r["clause"]), "text": text})
        i += 1
    out = pd.DataFrame(rows)
    out.insert(0, "step", np.arange(1, len(out) + 1))
    return out


def toy_state(result, steps: pd.DataFrame, step: int) -> pd.DataFrame:
    """The units after ``step`` (1-based) of :func:`toy_steps`: ``unit_code, unit_name_en, unit_name_hi, division,
    category`` (given so far, "" while undecided), ``current`` (touched in this step), ``final`` (the category at
    the end, for checking)."""
    if not 1 <= int(step) <= len(steps):
        raise InputError(f"step {step} is not between 1 and {len(steps)}", column="step")
    t = result.table[["unit_code", "unit_name_en", "unit_name_hi", "division", "category"]].rename(
        columns={"category": "final"}).copy()
    got: dict[int, str] = {}
    for _, s in steps.iloc[:int(step)].iterrows():
        if s["category"]:
            for u in s["unit_codes"]:
                got[int(u)] = s["category"]
    cur = set(int(u) for u in steps.iloc[int(step) - 1]["unit_codes"])
    t["category"] = [got.get(int(u), "") for u in t["unit_code"]]
    t["current"] = [int(u) in cur for u in t["unit_code"]]
    return t[["unit_code", "unit_name_en", "unit_name_hi", "division", "category", "current", "final"]]


def toy_figure(state: pd.DataFrame, lang: str = "en", title: str | None = None):
    """A schematic 'map' of a small state: one box per unit, grouped by division, filled with its category's
    colour once decided (white while undecided), the unit of the current step outlined in black."""
    import plotly.graph_objects as go
    _check_lang(lang)
    fig = go.Figure()
    divs = list(dict.fromkeys(state["division"]))
    x0 = 0.0
    ann = []
    names = _names(state, lang)
    for d in divs:
        part = state[state["division"] == d]
        ann.append({"x": x0 + len(part) / 2 - 0.05, "y": 1.32, "text": f"<b>{d}</b>", "showarrow": False,
                    "font": {"size": 13}})
        for k, (_, r) in enumerate(part.iterrows()):
            x = x0 + k
            fill = COLOURS[r["category"]] if r["category"] else "#ffffff"
            fig.add_shape(type="rect", x0=x, x1=x + 0.9, y0=0, y1=1, fillcolor=fill,
                          line={"color": "#000000" if r["current"] else "#9e9e9e", "width": 4 if r["current"] else 1})
            cat = r["category"] or "?"                    # the code fits the box; the legend has the label
            ann.append({"x": x + 0.45, "y": 0.5, "text": f"{names.loc[_]}<br>{cat}", "showarrow": False,
                        "font": {"size": 12, "color": _text_colour(fill)}})
        x0 += len(part) + 0.5
    for c in CODES:
        if c in set(state["category"]):
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=label(c, lang),
                                     marker={"size": 12, "color": COLOURS[c], "symbol": "square"}))
    fig.update_layout(annotations=ann, height=260, xaxis={"visible": False, "range": [-0.2, x0]},
                      yaxis={"visible": False, "range": [-0.1, 1.5]}, plot_bgcolor="#ffffff",
                      margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
                      title={"text": title} if title else None, showlegend=True)
    return fig


# ============================================================================================ DPC

def dpc_composition(district, year: int = 2021) -> pd.DataFrame:
    """The members of a district's planning committee from the Schedule (r.3(1)): ``part, members, clause``
    (elected under s.4(2); s.4(4)(a),(b),(d); s.4(4)(e); the total), with the elected count the rules use."""
    from .rulebooks import dpc
    from .rulebooks.dpc_schedule import load_schedule
    code = dpc._district_code(district)
    sch = load_schedule()
    r = sch[sch["district_lgd_code"] == code].iloc[0]
    e = dpc.elected_members(code, int(year))
    rows = [
        {"part": "elected from the Zila Panchayat and the municipalities (s.4(2), column 3)",
         "members": int(e["count"]), "note": e["note"] or e["arithmetic"]},
        {"part": "ex officio and nominated: s.4(4)(a), (b), (d) (column 4)", "members": int(r["s4_4_abd"]),
         "note": ""},
        {"part": "nominated: s.4(4)(e) (column 5)", "members": pd.NA if pd.isna(r["s4_4_e"]) else int(r["s4_4_e"]),
         "note": "blank in the Schedule" if pd.isna(r["s4_4_e"]) else ""},
        {"part": "members under s.4(4) (column 6)", "members": int(r["s4_4"]), "note": ""},
        {"part": "total (column 7)", "members": int(r["total"]), "note": r["check"] if r["check"] != "ok" else ""},
    ]
    out = pd.DataFrame(rows)
    out["members"] = out["members"].astype("Int64")
    out.attrs["clause"] = str(r["clause"])
    out.attrs["serial"] = int(r["serial"])
    out.attrs["district"] = str(r["district"])
    return out


def dpc_reserved_seats(district, year: int = 2021, lang: str = "en") -> pd.DataFrame:
    """Elected seats of the committee by category and part: rows the eight categories and a total, columns
    ``rural`` (members from the Zila Panchayat) and ``urban`` (from the municipalities), labels in ``lang``."""
    from .rulebooks import dpc
    _check_lang(lang)
    s = dpc.seats(district, int(year))
    cat = s[s["row"] == "category"]
    t = cat.pivot_table(index="category", columns="part", values="count", aggfunc="sum").reindex(list(CODES))
    t = t.fillna(0).astype(int)
    for p in ("rural", "urban"):
        if p not in t.columns:
            t[p] = 0
    t = t[["rural", "urban"]]
    t["all"] = t["rural"] + t["urban"]
    t.loc["TOTAL"] = t.sum(axis=0)
    w = _WORDS[lang]
    t.insert(0, w["category"], [label(c, lang) for c in CODES] + [w["total"]])
    t.index.name = w["category_code"]
    t.columns.name = None
    return t


def dpc_sample_ballots(seats: int, *, candidates: int | None = None, electors: int | None = None,
                       tie: bool = True) -> pd.DataFrame:
    """A made-up, deterministic set of ballots for a block vote with ``seats`` seats (for teaching: no real
    votes). Candidates ``Candidate 1`` ... ``Candidate k`` (k = seats + 3 by default). Each valid ballot marks at
    most ``seats`` candidates. With ``tie``, the last seat is tied between Candidates ``seats`` and ``seats+1`` so
    that a lot decides it (r.26(1)); two extra ballots are invalid: one blank (r.25(3)(a)) and one with more marks
    than seats (r.25(3)(b)). Returns 0/1 ints, one column per candidate, index = ballot label."""
    seats = int(seats)
    if seats < 1:
        raise InputError("a contest needs at least one seat", column="seats")
    k = int(candidates or seats + 3)
    if k < seats + 1:
        raise InputError("a sample contest needs more candidates than seats", column="candidates")
    # target votes: distinct for the first seats-1, a tie at the cut-off, fewer for the rest; the total fits in
    # the ballots (each marks at most `seats` candidates), and each candidate's marks go to the least-filled ballots
    n = int(electors or 10 + 3 * k)
    high = n * seats // k - 1
    tied = high - seats
    target = [high - j for j in range(seats - 1)] + [tied, tied if tie else tied - 1]
    target += [max(0, tied - 2 - j) for j in range(k - seats - 1)]
    if min(target[:seats + 1]) < 1 or sum(target) > n * seats or max(target) > n:
        raise InputError("too few electors for the sample contest", column="electors")
    marks = np.zeros((n, k), dtype=np.int64)
    load = np.zeros(n, dtype=np.int64)
    for c, v in enumerate(target):
        chosen = np.argsort(load, kind="stable")[:v]
        marks[chosen, c] = 1
        load[chosen] += 1
    assert load.max() <= seats
    names = [f"Candidate {i + 1}" for i in range(k)]
    df = pd.DataFrame(marks, columns=names)
    df.index = [f"{i + 1}" for i in range(n)]
    if tie:
        extra = pd.DataFrame([[0] * k, [1] * min(k, seats + 1) + [0] * (k - min(k, seats + 1))], columns=names,
                             index=[f"{n + 1}", f"{n + 2}"])
        df = pd.concat([df, extra])
    df.index.name = "ballot"
    df.attrs["path"] = "(sample ballots)"
    return df.astype("int64")


def dpc_sample_count(district, year: int = 2021, part: str = "rural", category: str = "UR",
                     lot_winner: str = "") -> dict:
    """A sample count for one contest of the district's committee: the seats of ``category`` in ``part`` from
    :func:`reservation.rulebooks.dpc.seats`, made-up ballots (:func:`dpc_sample_ballots`) with a tie at the
    last seat, the count stopping for the lot (r.26(1)), the lot as an input (``lot_winner``, by default the first
    of those who must draw) and the count completed with it.

    Returns ``{"seats", "ballots", "first" (CountResult, status lot_needed), "lots" (the lot input),
    "final" (CountResult), "contest" (text)}``.
    """
    from .rulebooks import dpc
    from .rulebooks.dpc_count import count_election
    if part not in ("rural", "urban"):
        raise InputError(f"part must be rural or urban, not {part!r}", column="part")
    if category not in CODES:
        raise InputError(f"unknown category {category!r}; expected one of {' '.join(CODES)}", column="category")
    s = dpc.seats(district, int(year))
    row = s[(s["row"] == "category") & (s["part"] == part) & (s["category"] == category)]
    n = int(row["count"].iat[0]) if len(row) else 0
    if n < 1:
        raise InputError(f"{s['district'].iat[0]}: no {part} {category} seat in {year}; choose another category",
                         column="category")
    ballots = dpc_sample_ballots(n)
    first = count_election(ballots, n)
    lots = pd.DataFrame(columns=["label", "winner", "among", "row"])
    final = first
    if first.status == "lot_needed":
        w = lot_winner or first.must_draw[0]
        if w not in first.must_draw:
            raise InputError(f"the lot can only fall on one of {', '.join(first.must_draw)}, not {w!r}",
                             column="lot_winner")
        lots = pd.DataFrame([{"label": "lot drawn by the Returning Officer", "winner": w,
                              "among": tuple(first.must_draw), "row": 1}])
        lots.attrs["path"] = "(lot input)"
        final = count_election(ballots, n, lots=lots)
    contest = (f"{s['district'].iat[0]} {year}: {part} members, category {category} "
               f"({label(category)}), {n} seat(s), {len(ballots)} ballots (made up for the example)")
    return {"seats": n, "ballots": ballots, "first": first, "lots": lots, "final": final, "contest": contest}


# ============================================================================================ explorer

def _option_rows(body: str) -> pd.DataFrame:
    """The body's ambiguity options (as :func:`reservation.options` gives them; that name is shadowed by the
    submodule ``reservation.options`` once the submodule is imported, so the registry is asked directly)."""
    from .bodies import get_body
    return pd.DataFrame(get_body(body).options(()).describe())


@dataclass
class ExplorerState:
    """What the explorer shows (and what tests check)."""
    mode: str = "real"                 # real | toy
    body: str = ""
    year: int = 0
    base_year: int = 2015
    options: list = field(default_factory=list)
    division: str = "all"
    lang: str = "en"
    error: str = ""
    table: pd.DataFrame | None = None  # the rows shown
    counts: pd.DataFrame | None = None
    figure: object = None
    not_drawn: pd.DataFrame | None = None
    step: int = 0
    steps: pd.DataFrame | None = None
    step_text: str = ""


class Explorer:
    """The ipywidgets explorer of notebook 04: pick body, year, base year, division, language and the ambiguity
    options; the map and the table update. ``Toy state`` switches to the five-district toy state and a step
    slider that shows each rule step in turn. Every number comes from the functions above; the widgets only pass
    parameters. ``render=False`` (tests) computes without displaying."""

    def __init__(self, body: str = "zp-chair", year: int | None = None, render: bool = True):
        import ipywidgets as W
        self.W = W
        self.render_enabled = render
        self.state = ExplorerState()
        bodies = body_choices()
        self.body = W.Dropdown(options=[(f"{b} — {t}", b) for b, t in zip(bodies["body"], bodies["title"])],
                               value=body, description="Body", layout=W.Layout(width="420px"))
        self.year = W.Dropdown(description="Year", layout=W.Layout(width="180px"))
        self.base_year = W.BoundedIntText(value=2015, min=1990, max=2100, description="Base year",
                                          layout=W.Layout(width="180px"))
        self.division = W.Dropdown(options=[("all divisions", "all")] + [(d, d) for d in divisions()["division"]],
                                   value="all", description="Division", layout=W.Layout(width="320px"))
        self.lang = W.ToggleButtons(options=[("English", "en"), ("हिन्दी", "hi")], value="en", description="Language")
        self.toy = W.Checkbox(value=False, description="Toy state (five districts, step by step)", indent=False)
        self.step = W.IntSlider(value=1, min=1, max=1, description="Step", continuous_update=False,
                                layout=W.Layout(width="520px"))
        self.prev_button = W.Button(description="◀ previous", layout=W.Layout(width="110px"))
        self.next_button = W.Button(description="next ▶", layout=W.Layout(width="110px"))
        self.options_box = W.VBox()
        self.option_widgets: dict[str, object] = {}
        self.status = W.HTML()
        self.step_html = W.HTML()
        self.map_out = W.Output()
        self.table_out = W.Output()
        self.counts_out = W.Output()
        self._busy = False
        self._set_years(year)
        self._build_options()
        for w in (self.year, self.base_year, self.division, self.lang):
            w.observe(self._changed, names="value")
        self.body.observe(self._body_changed, names="value")
        self.toy.observe(self._toy_changed, names="value")
        self.step.observe(self._step_changed, names="value")
        self.prev_button.on_click(lambda _: self._move(-1))
        self.next_button.on_click(lambda _: self._move(1))
        self.toy_box = W.HBox([self.prev_button, self.step, self.next_button])
        self.toy_box.layout.display = "none"
        self.widget = W.VBox([
            W.HBox([self.body, self.year, self.base_year]), W.HBox([self.division, self.lang]),
            W.Accordion(children=[self.options_box], titles=("Ambiguity options (RULES.md §8)",)),
            self.toy, self.toy_box, self.status, self.step_html, self.counts_out, self.map_out, self.table_out])
        self.widget.add_class("reservation-explorer")
        self.refresh()

    # -- widgets -----------------------------------------------------------------------------------------------
    def _set_years(self, year=None):
        from .bodies import get_body
        years = list(get_body(self.body.value).years)
        self._busy = True
        self.year.options = years
        self.year.value = year if year in years else years[0]
        self.base_year.max = self.year.value
        self._busy = False

    def _build_options(self):
        W = self.W
        rows = _option_rows(self.body.value)
        widgets = {}
        for _, r in rows.iterrows():
            if r["choices"] == "path":
                continue
            if r["choices"] in ("decimal",):
                w = W.Text(value=str(r["default"]), description=r["option"], continuous_update=False)
            else:
                w = W.Dropdown(options=[c.strip() for c in str(r["choices"]).split("|")], value=str(r["default"]),
                               description=r["option"])
            w.style = {"description_width": "170px"}
            w.layout = W.Layout(width="460px")
            w.tooltip = f"{r['ambiguity']}: {r['reading_of_default']}"
            w.observe(self._changed, names="value")
            widgets[r["option"]] = w
        self.option_widgets = widgets
        self.options_box.children = list(widgets.values())

    def _body_changed(self, _):
        self._set_years()
        self._build_options()
        self.refresh()

    def _toy_changed(self, _):
        on = self.toy.value
        for w in (self.body, self.year, self.base_year, self.division):
            w.disabled = on
        self.toy_box.layout.display = "" if on else "none"
        self.refresh()

    def _changed(self, _):
        if not self._busy:
            self.refresh()

    def _step_changed(self, _):
        if self.toy.value and not self._busy:
            self._show_step()

    def _move(self, delta: int):
        self.step.value = min(max(self.step.value + delta, self.step.min), self.step.max)

    def option_assignments(self) -> list[str]:
        """The options that differ from their defaults, as ``name=value``."""
        rows = _option_rows(self.body.value)
        defaults = dict(zip(rows["option"], rows["default"]))
        return [f"{k}={w.value}" for k, w in self.option_widgets.items() if str(w.value) != str(defaults.get(k))]

    # -- computing ---------------------------------------------------------------------------------------------
    def refresh(self):
        """Recompute for the current widget values (and display, when rendering)."""
        s = self.state
        s.error = ""
        s.lang = self.lang.value
        s.options = self.option_assignments()
        try:
            if self.toy.value:
                s.mode = "toy"
                self._toy_result = toy_allotment(s.options if self.body.value == "zp-chair" else ())
                s.steps = toy_steps(self._toy_result)
                self._busy = True
                self.step.max = len(s.steps)
                self.step.value = min(max(self.step.value, 1), len(s.steps))
                self._busy = False
                self._show_step()
                return
            s.mode = "real"
            s.body, s.year, s.base_year = self.body.value, int(self.year.value), int(self.base_year.value)
            s.division = self.division.value
            check_parameters(s.body, s.year, division=s.division, base_year=s.base_year, options=s.options)
            result = run_allotment(s.body, s.year, base_year=s.base_year, options=s.options)
            s.table = unit_list(result.table, s.division, s.lang)
            s.counts = category_counts_table(result.table, s.division, s.lang)
            mv = division_map(result.table, s.division, s.lang, title=f"{body_title(s.body, s.lang)} {s.year}",
                              height=600, body=s.body)
            s.figure, s.not_drawn = mv.figure, not_drawn_table(mv.not_drawn, s.lang)
            s.step_text = ""
        except InputError as e:
            s.error = str(e)
        self._render()

    def _show_step(self):
        s = self.state
        s.step = int(self.step.value)
        st = toy_state(self._toy_result, s.steps, s.step)
        row = s.steps.iloc[s.step - 1]
        s.step_text = f"Step {s.step} of {len(s.steps)}: {row['text']} [{row['clause']}]"
        s.table = st
        s.counts = self._toy_result.counts[["category", "count", "arithmetic"]]
        s.figure = toy_figure(st, s.lang, title="Toy state: East (Alpha, Beta, Gamma), West (Delta, Epsilon)")
        s.not_drawn = None
        self._render()

    # -- display -----------------------------------------------------------------------------------------------
    def _render(self):
        import html
        s = self.state
        self.status.value = (f"<p style='color:#b00020'><b>Error:</b> {html.escape(s.error)}</p>" if s.error else
                             f"<p>{'Toy state' if s.mode == 'toy' else html.escape(body_title(s.body, s.lang))}"
                             f"{'' if s.mode == 'toy' else ' ' + str(s.year)}; options changed: "
                             f"{html.escape(', '.join(s.options) or 'none')}</p>")
        self.step_html.value = (f"<div class='reservation-step' style='padding:6px;border-left:4px solid #2166ac'>"
                                f"{html.escape(s.step_text)}</div>" if s.mode == "toy" else "")
        if not self.render_enabled or s.error:
            return
        # The outputs are set as the Output widgets' state (not captured with `with out: display(...)`): the same
        # in JupyterLab, and nbclient (papermill, nbval) does not have to echo a large map back to the kernel,
        # which stalls it.
        from IPython.core.interactiveshell import InteractiveShell
        from IPython.display import HTML
        fmt = InteractiveShell.instance().display_formatter.format

        def bundle(obj):
            if hasattr(obj, "to_plotly_json"):          # JSON only (plotly keeps numpy arrays in its own bundle)
                import json
                return {"output_type": "display_data", "metadata": {},
                        "data": {"application/vnd.plotly.v1+json": json.loads(obj.to_json()),
                                 "text/plain": f"<plotly figure: {len(obj.data)} traces>"}}
            data, metadata = fmt(obj)
            return {"output_type": "display_data", "data": data, "metadata": metadata}
        self.counts_out.outputs = (bundle(HTML(s.counts.to_html(index=False, classes="reservation-counts"))),)
        self.map_out.outputs = (bundle(s.figure),)
        t = s.table
        rows = []
        if s.mode == "toy":
            shown = t.drop(columns=["unit_code"] + ([] if s.step == len(s.steps) else ["final"]))
            rows.append(bundle(HTML(shown.to_html(index=False, classes="reservation-table"))))
        else:
            rows.append(bundle(HTML(style_categories(t.head(300), s.lang).to_html(
                table_attributes='class="reservation-table"'))))
            if len(t) > 300:
                rows.append(bundle(HTML(f"<p>… {len(t) - 300} more rows: choose a division.</p>")))
        if s.not_drawn is not None and len(s.not_drawn):
            rows.append(bundle(HTML("<h4>Not drawn</h4>" + s.not_drawn.to_html(index=False))))
        self.table_out.outputs = tuple(rows)
