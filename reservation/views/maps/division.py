"""The map of any allotment, or of one division of it: which kind of map a table gets (:func:`map_mode`), the
interactive map (:func:`division_map`) and the static PNG/SVG files (:func:`write_static_maps`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ...base.errors import InputError
from ...inputs.units import load_districts
from ...law.words import LANGS, check_lang, word
from ..places import division_names, in_division
from .aggregate import aggregate_figure, aggregate_static_figure, aggregate_static_figures, district_aggregate
from .boundaries import join_allotment
from .districts import choropleth, static_figures, static_map
from .points import points_figure, points_static_figure, points_static_figures, unit_points, urban_body_id
from .style import chromium_path, save_figure, system_has_devanagari

__all__ = ["map_mode", "MapView", "division_map", "write_static_maps", "STATIC_ENGINES", "map_geojson",
           "write_geojson", "GEOJSON_UNIT_PROPERTIES"]

STATIC_ENGINES = ("matplotlib", "kaleido", "auto")


def map_mode(table: pd.DataFrame, body: str | None = None) -> str:
    """How a table is mapped:

    - ``"district"``: every row is a district: one polygon each, coloured by category (:func:`choropleth`);
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
    if urban_body_id(table, body) is not None:
        return "district-points"
    return "aggregate"


@dataclass
class MapView:
    """What :func:`division_map` returns: the figure, how units were mapped, and who is not on the map."""
    figure: object
    mode: str                         # district | points | district-points | aggregate | empty
    not_drawn: pd.DataFrame           # rows of the allotment with no shape, with ``why``
    drawn: int                        # rows on the map (polygons, points, or counted in a district)
    aggregate: pd.DataFrame | None = None
    lang: str = "en"

    @property
    def units(self) -> int:
        """Rows of the allotment in the view: on the map or not drawn."""
        return int(self.drawn + len(self.not_drawn))

    @property
    def caption(self) -> str:
        return word("map.caption", self.lang, drawn=self.drawn, units=self.units,
                    mode=word(f"map.mode.{self.mode}", self.lang), not_drawn=len(self.not_drawn))


def division_map(table: pd.DataFrame, division=None, lang: str = "en", title: str | None = None,
                 height: int = 650, body: str | None = None) -> MapView:
    """The interactive map of an allotment, or of its division(s), by :func:`map_mode`: districts coloured by
    category (divisions outlined); units with coordinates, and urban bodies around their district's centre, as
    points sized by population; other units counted per district. A division zooms the map onto it; the rest of
    the State stays as context. Every row of the division's table is on the map or in ``not_drawn``."""
    check_lang(lang)
    sub = in_division(table, division).reset_index(drop=True)
    if not len(sub):                       # no unit of the body here: the districts, empty
        empty = sub.assign(lon=pd.Series(dtype=float), lat=pd.Series(dtype=float), pop=pd.Series(dtype="Int64"),
                           placed=pd.Series(dtype=str))
        return MapView(points_figure(empty, title=title, lang=lang, division=division, height=height), "empty",
                       sub.assign(why=pd.Series(dtype=str)), 0, lang=lang)
    mode = map_mode(sub, body)
    if mode == "aggregate":
        agg, nd = district_aggregate(sub)
        fig = aggregate_figure(agg, title=title, lang=lang, division=division, height=height)
        return MapView(fig, mode, nd, int(agg["units"].sum()), agg, lang=lang)
    if mode in ("points", "district-points"):
        pts, nd = unit_points(sub, body)
        fig = points_figure(pts, title=title, lang=lang, division=division, height=height)
        return MapView(fig, mode, nd, int(len(pts)), lang=lang)
    drawn, nd = join_allotment(sub)
    fig = choropleth(table, title=title, lang=lang, height=height, division=division)
    return MapView(fig, mode, nd, int(len(drawn)), lang=lang)


def write_static_maps(table: pd.DataFrame, stem, division=None, title: str | dict | None = None,
                      langs=LANGS, engine: str = "matplotlib", dpi: int = 100, body: str | None = None,
                      force: bool = False) -> list[dict]:
    """PNG and SVG of the map of ``table`` (or of its division), one pair per language: ``{stem}-{lang}.png/.svg``.

    ``engine``: ``matplotlib`` (default: geopandas + matplotlib, vector SVG with text as outlines, Hindi shaped
    with the shipped font), ``kaleido`` (the plotly figure through Debian's chromium; MapLibre draws a bitmap, so
    the SVG holds an image, and each map costs 2-5 s of CPU) or ``auto`` (kaleido when chromium is installed).
    Hindi through kaleido needs a system Devanagari font; without one that language falls back to matplotlib and
    the row says so. Only district maps (:func:`map_mode` ``district``) go through kaleido; points and district
    aggregates are always drawn with matplotlib. ``title``: text, or ``{lang: text}``.
    Returns one dict per language: ``lang, png, svg, engine, mode, not_drawn (int), note``. Every target is
    checked before anything is drawn (:func:`reservation.output.guard.check_new_file`; ``force`` replaces an existing
    file).
    """
    if engine not in STATIC_ENGINES:
        raise InputError(f"engine must be matplotlib, kaleido or auto, not {engine!r}", column="engine")
    stem = Path(stem)
    langs = [check_lang(x) for x in langs]
    from ...output.guard import check_new_file
    for lang in langs:
        for ext in ("png", "svg"):
            check_new_file(Path(f"{stem}-{lang}.{ext}"), flag="stem", force=force)
    sub = in_division(table, division).reset_index(drop=True)
    mode = map_mode(sub, body) if len(sub) else "district"
    out = []
    if mode == "district" and engine == "matplotlib" and len(langs) > 1:
        return _district_static_maps(table if division_names(division) else sub, stem, division, title, langs, dpi,
                                     force)
    if mode in ("aggregate", "points", "district-points") and len(langs) > 1:   # one figure, each language's words
        if mode == "aggregate":
            agg, nd = district_aggregate(sub)
            figures = aggregate_static_figures(agg, title, langs, division=division)
        else:
            pts, nd = unit_points(sub, body)
            figures = points_static_figures(pts, title, langs, division=division)
        for lang, fig in figures:
            png, svg = Path(f"{stem}-{lang}.png"), Path(f"{stem}-{lang}.svg")
            save_figure(fig, png, svg, dpi=dpi, lang=lang, force=force)
            out.append({"lang": lang, "png": png, "svg": svg, "engine": "matplotlib", "mode": mode,
                        "not_drawn": int(len(nd)),
                        "note": f"{mode} maps are drawn with matplotlib" if engine != "matplotlib" else ""})
        return out
    for lang in langs:
        check_lang(lang)
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
            save_figure(fig, png, svg, dpi=dpi, lang=lang, force=force)
            used, n_nd = "matplotlib", len(nd)
            if engine != "matplotlib":
                note = f"{mode} maps are drawn with matplotlib"
        else:
            use = engine
            if use == "auto":
                use = "kaleido" if chromium_path() else "matplotlib"
            if use == "kaleido" and lang == "hi" and not system_has_devanagari():
                use, note = "matplotlib", "no system Devanagari font for chromium: Hindi drawn with matplotlib"
            r = static_map(table if division_names(division) else sub, png, svg, title=tt, lang=lang,
                           engine=use, dpi=dpi, division=division, force=force)
            used, n_nd = r.engine, len(r.not_drawn)
        out.append({"lang": lang, "png": png, "svg": svg, "engine": used, "mode": mode, "not_drawn": int(n_nd),
                    "note": note})
    return out


def _district_static_maps(table: pd.DataFrame, stem: Path, division, title, langs, dpi: int,
                          force: bool = False) -> list[dict]:
    """:func:`write_static_maps` of a district map with matplotlib: every language drawn on one figure
    (:func:`static_figures`: the shapes once), each saved as PNG and SVG."""
    _, nd = join_allotment(table)
    names = division_names(division)
    if names is not None and "division" in nd.columns:
        nd = nd[nd["division"].isin(names)]
    out = []
    for lang, fig in static_figures(table, title, langs, division=division):
        png, svg = Path(f"{stem}-{lang}.png"), Path(f"{stem}-{lang}.svg")
        save_figure(fig, png, svg, dpi=dpi, lang=lang, force=force)
        out.append({"lang": lang, "png": png, "svg": svg, "engine": "matplotlib", "mode": "district",
                    "not_drawn": int(len(nd)), "note": ""})
    return out


def _jsonable(v):
    import math
    from fractions import Fraction

    import numpy as np
    if v is None or v is pd.NA or v is pd.NaT:
        return None
    if isinstance(v, Fraction):
        return f"{v.numerator}/{v.denominator}"
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if math.isnan(float(v)) else float(v)
    if isinstance(v, (np.bool_,)):
        return bool(v)
    return v if isinstance(v, (str, int, bool)) else str(v)


def _records(df: pd.DataFrame, columns) -> list[dict]:
    cols = [c for c in columns if c in df.columns]
    return [{c: _jsonable(v) for c, v in zip(cols, row)} for row in df[cols].itertuples(index=False, name=None)]


#: Properties of a unit's feature in :func:`map_geojson` (those the table has).
#: ``published``, ``status``, ``possible``: how sure the category is (issue 20), when the table has them.
GEOJSON_UNIT_PROPERTIES = ("unit_code", "unit_name_en", "unit_name_hi", "district", "division", "body_type",
                           "category", "published", "status", "possible", "category_en", "category_hi", "tier", "rank",
                           "pool", "key", "clause", "reason", "tie_break", "pop", "placed", "why")


def map_geojson(table: pd.DataFrame, division=None, body: str | None = None, ndigits: int = 5) -> dict:
    """The data of a map as GeoJSON (a FeatureCollection, EPSG:4326, coordinates rounded to ``ndigits``): the units
    of ``table`` (or of its division) with their category in both languages, reason and clause.

    By :func:`map_mode`: districts are polygons; units with coordinates, and urban bodies placed around their
    district's centre (``placed`` = ``district``: the position is the district's, not the town's), are points;
    other units are counted per district (one polygon per district with the count of every category, the units,
    the reserved and the women, and the shares as exact fractions ``"a/b"``). Units that have no shape are features
    without geometry, with ``why``, so that every unit of the view is in the file once."""
    from ...law.categories import label
    from .style import geojson
    sub = in_division(table, division).reset_index(drop=True)
    mode = map_mode(sub, body) if len(sub) else "empty"
    feats: list[dict] = []

    def with_labels(df):
        return df.assign(category_en=[label(c, "en") for c in df["category"]],
                         category_hi=[label(c, "hi") for c in df["category"]])

    if mode == "aggregate":
        from .boundaries import district_boundaries
        agg, nd = district_aggregate(sub)
        b = district_boundaries().set_index("unit_code").loc[agg["unit_code"]].reset_index()
        cols = ["unit_code", "unit_name_en", "unit_name_hi", "division", "units", "reserved", "women",
                "share_reserved", "share_women", "undetermined", "share_undetermined",
                *[c for c in agg.columns if c.isupper() or "_W" in c]]
        props = pd.DataFrame(_records(agg, dict.fromkeys(cols)))
        feats += geojson(b, ndigits, properties=props)["features"]
    elif mode in ("points", "district-points"):
        pts, nd = unit_points(sub, body)
        pts = with_labels(pts)
        for rec, x, y in zip(_records(pts, GEOJSON_UNIT_PROPERTIES), pts["lon"], pts["lat"]):
            feats.append({"type": "Feature", "id": str(rec["unit_code"]), "properties": rec,
                          "geometry": {"type": "Point", "coordinates": [round(float(x), ndigits),
                                                                        round(float(y), ndigits)]}})
    elif mode == "district":
        drawn, nd = join_allotment(sub)
        drawn = with_labels(drawn)
        props = pd.DataFrame(_records(drawn, GEOJSON_UNIT_PROPERTIES))
        feats += geojson(drawn, ndigits, properties=props)["features"]
    else:
        nd = sub.assign(why="no unit here")
    if len(nd):
        nd = with_labels(nd)
        feats += [{"type": "Feature", "id": str(r["unit_code"]), "properties": r, "geometry": None}
                  for r in _records(nd, GEOJSON_UNIT_PROPERTIES)]
    return {"type": "FeatureCollection", "properties": {"mode": mode, "body": body,
                                                        "division": division_names(division)},
            "features": feats}


def write_geojson(table: pd.DataFrame, path, division=None, body: str | None = None, *,
                  force: bool = False) -> Path:
    """:func:`map_geojson` written to ``path`` (UTF-8, compact, the same bytes for the same inputs). The target is
    checked first (:func:`reservation.output.guard.check_new_file`; ``force`` replaces an existing file) and published
    atomically."""
    import json

    from ...output.guard import check_new_file
    from ...output.tables import publish
    path = check_new_file(path, flag="path", force=force)
    publish({path: (json.dumps(map_geojson(table, division, body), ensure_ascii=False, separators=(",", ":"))
                    + "\n").encode("utf-8")})
    return path
