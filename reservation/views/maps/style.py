"""What every map shares: the font (Hindi and Latin), the zoom, GeoJSON, line traces, the division outline,
point sizes, the notes under a map, saving a matplotlib figure, and whether chromium (kaleido) is there."""

from __future__ import annotations

import html
import importlib.util
import math
import re
import shutil
import textwrap
import warnings
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ...law.categories import CODES
from ...law.words import DEVANAGARI_SAMPLE, word
from ..places import division_names, place_names, unit_names
from .boundaries import (DEFAULT_SIMPLIFY_TOLERANCE, _districts, boundary_source, district_boundaries,
                         division_boundaries, division_lines)

__all__ = ["FONT_FAMILY", "ZOOM_MARGIN", "devanagari_font", "devanagari_font_file", "font_rc", "chromium_path",
           "system_has_devanagari", "geojson", "fit_zoom", "lines_lonlat", "division_outline", "view_bounds",
           "center", "visible_box", "in_box", "clip_view", "sizes", "size_key", "not_drawn_note", "source_note",
           "present_codes", "hover_text", "hover_wrap", "save_figure", "LABEL_BOX", "map_axes", "map_title", "division_column",
           "COLOUR_ABSENT", "COLOUR_OUTSIDE", "EDGE_ABSENT", "EDGE_OUTSIDE"]

#: Fill of a district that is not in the allotment (hatched in static maps), of a district outside the division
#: shown as context (white: no fill, so that it never looks like the light grey of "unreserved"), their edges.
COLOUR_ABSENT = "#ffffff"
COLOUR_OUTSIDE = "#ffffff"
EDGE_ABSENT = "#9e9e9e"
EDGE_OUTSIDE = "#c8c8c8"
#: Share of the frame a zoomed map fills (one value for every map).
ZOOM_MARGIN = 0.9

# ------------------------------------------------------------------------------------------------ fonts

#: Devanagari fonts tried, in order, when the PyPI font package is absent.
_SYSTEM_DEVANAGARI = ("Noto Sans Devanagari", "Lohit Devanagari", "Mukta", "Nirmala UI", "Mangal")
#: The family name under which the chosen font *file* is registered with matplotlib. A name of our own: the PyPI
#: font and Debian's fonts-noto-core are both called "Noto Sans Devanagari", and matplotlib, asked for that family,
#: picks the system file, which has no Latin letters (English text then disappears from every map).
FONT_FAMILY = "Reservation Devanagari"
#: Characters a map font must have: Latin (names, numbers, the English maps) and Devanagari (the Hindi maps).
_LATIN_SAMPLE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789(),.:%"


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
    deva = {ord(c) for c in DEVANAGARI_SAMPLE}
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


def font_rc(lang: str) -> dict:
    """matplotlib rc parameters of every static map: the chosen font with DejaVu Sans as fallback, SVG text as
    paths (Hindi shows without the font installed) and a fixed hash salt (byte-identical SVGs)."""
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


#: Where the parts of a static map sit on its page (figure fractions: left, bottom, width, height). Fixed
#: places instead of matplotlib's constrained layout, which took a third of the time of every map.
PANEL_MAP = (0.01, 0.05, 0.70, 0.88)
PANEL_SIDE = (0.73, 0.40, 0.26, 0.53)
PANEL_LOCATOR = (0.75, 0.06, 0.22, 0.30)
PANEL_STATE = (0.01, 0.05, 0.98, 0.88)


def map_axes(fig, with_side: bool, with_locator: bool):
    """The axes of a static map: ``(map, legend_anchor, locator)``. ``legend_anchor`` is the figure point (x, y)
    where the legends beside the map start (None: the legend goes on the map, top right); ``locator`` is None
    unless asked for. Axes without ticks; titles are figure texts (:func:`map_title`): an axes title makes
    matplotlib measure tick labels on every draw, a fifth of a map's time."""
    from .draw import panel_axes
    ax = panel_axes(fig, PANEL_MAP if with_side else PANEL_STATE)
    anchor = (PANEL_SIDE[0], PANEL_SIDE[1] + PANEL_SIDE[3]) if with_side else None
    loc = None
    if with_locator:
        loc = panel_axes(fig, PANEL_LOCATOR)
    return ax, anchor, loc


def map_title(fig, ax, text: str, size: float = 14, pad: float = 0.012, colour: str = "#000000"):
    """A title centred over ``ax``, as a figure text (returned)."""
    box = ax.get_position()
    return fig.text(box.x0 + box.width / 2, box.y1 + pad, text, ha="center", va="bottom", fontsize=size,
                    color=colour)


#: Label background (instead of a stroked halo, which doubles every glyph's outline in an SVG).
LABEL_BOX = {"boxstyle": "round,pad=0.12", "facecolor": "#ffffff", "edgecolor": "none", "alpha": 0.72}
_SVG_NUMBER = re.compile(r"(\d+\.\d\d)\d+")


def save_figure(fig, png=None, svg=None, dpi: int = 100, lang: str = "en", *, force: bool = False) -> None:
    """Save a matplotlib figure of this package as PNG and/or SVG, small and byte-identical for the same figure.

    PNG: drawn by Agg at ``dpi`` and stored with a 256-colour palette (maps have few colours; a quarter of the
    bytes of matplotlib's RGBA PNG). SVG: no date, text as outlines, coordinates rounded to 0.01 pt.
    The targets are checked first (:func:`reservation.output.guard.check_new_file`: never the package's own folders
    or a symbolic link; an existing file only with ``force``) and both files are published together
    (:func:`reservation.output.tables.publish`)."""
    import io

    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from ...output.guard import check_new_file
    from ...output.tables import publish
    png = check_new_file(png, flag="png", force=force) if png is not None else None
    svg = check_new_file(svg, flag="svg", force=force) if svg is not None else None
    files = {}
    rc = getattr(fig, "_reservation_rc", None) or font_rc(lang)
    with matplotlib.rc_context(rc), _shared_text_metrics(fig):
        if png is not None:
            from PIL import Image
            fig.set_dpi(dpi)
            fig.patch.set_facecolor("white")
            canvas = FigureCanvasAgg(fig)
            canvas.draw()
            img = Image.fromarray(np.asarray(canvas.buffer_rgba())).convert("RGB")
            buf = io.BytesIO()
            img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(buf, "PNG")
            files[png] = buf.getvalue()
        if svg is not None:
            buf = io.StringIO()
            fig.savefig(buf, format="svg", facecolor="white", metadata={"Date": None})
            # split, not sub: the pieces between the numbers and each number's kept group, joined, are the text
            # with every number cut to 2 decimals, and no Python code runs per match (a map has ~50,000 numbers;
            # the template r"\1" cost a tenth of a kp-chair map's time; a function per match is 1.6 times split)
            files[svg] = "".join(_SVG_NUMBER.split(buf.getvalue())).encode("utf-8")
    publish(files)


#: Text extents the renderers of this package's maps measured, shared by every render in this process (see
#: :func:`_shared_text_metrics`), and how many are kept.
_TEXT_METRICS: dict = {}
_TEXT_METRICS_MAX = 8192
#: The settings a text's extent depends on besides its font properties (those present in this matplotlib).
_TEXT_RC = ("font.family", "font.sans-serif", "font.serif", "font.monospace", "font.cursive", "font.fantasy",
            "font.size", "font.style", "font.variant", "font.weight", "font.stretch", "text.hinting",
            "text.hinting_factor", "text.kerning_factor", "text.antialiased", "text.usetex")


@contextmanager
def _shared_text_metrics(fig):
    """While saving ``fig``: the renderer of each draw measures a text (width, height, descent) only if no render
    of this process measured it before with the same renderer kind, dpi, font properties and text settings.
    matplotlib caches the extents per renderer, and every save makes a new one (PNG and SVG, each language, each
    map), so the same legend, names and notes were measured again by each: about 40 texts a map, a tenth of its
    time. The extents are those the renderer computes (a pure function of the key); math text is not shared."""
    import matplotlib
    rc_key = tuple(_hashable(matplotlib.rcParams[k]) for k in _TEXT_RC if k in matplotlib.rcParams)
    draw = fig.draw

    def draw_sharing(renderer):
        measure = renderer.get_text_width_height_descent
        kind = (type(renderer).__name__, type(getattr(renderer, "_renderer", renderer)).__name__,
                getattr(renderer, "dpi", None), rc_key)

        def shared(s, prop, ismath):
            if ismath:
                return measure(s, prop, ismath)
            key = (kind, s, tuple(prop.get_family()), prop.get_slant(), prop.get_variant(), prop.get_weight(),
                   prop.get_stretch(), prop.get_size(), prop.get_file(), prop.get_math_fontfamily())
            got = _TEXT_METRICS.get(key)
            if got is None:
                if len(_TEXT_METRICS) >= _TEXT_METRICS_MAX:
                    _TEXT_METRICS.clear()
                got = _TEXT_METRICS[key] = measure(s, prop, ismath)
            return got

        renderer.get_text_width_height_descent = shared
        try:
            return draw(renderer)
        finally:
            del renderer.get_text_width_height_descent

    fig.draw = draw_sharing
    try:
        yield
    finally:
        del fig.draw


def _hashable(v):
    return tuple(v) if isinstance(v, list) else v


# ------------------------------------------------------------------------------------------------ chromium

def chromium_path() -> str | None:
    """The chromium/chrome executable that kaleido would drive, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


@lru_cache(maxsize=1)
def system_has_devanagari() -> bool:
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


# ------------------------------------------------------------------------------------------------ geometry

def geojson(gdf, ndigits: int = 5, properties: pd.DataFrame | None = None) -> dict:
    """A FeatureCollection keyed by ``id`` = str(unit_code), coordinates rounded to ``ndigits`` decimals (shared
    edges stay identical). ``properties``: a frame aligned with ``gdf`` whose columns become each feature's
    properties (default: ``unit_code`` only)."""
    import shapely
    geoms = shapely.set_precision(np.asarray(gdf.geometry.values, dtype=object), 10.0 ** -ndigits)
    codes = pd.to_numeric(gdf["unit_code"]).astype(int).tolist() if "unit_code" in gdf.columns else \
        list(range(len(gdf)))
    props = (properties.to_dict("records") if properties is not None else [{"unit_code": c} for c in codes])
    feats = [{"type": "Feature", "id": str(c), "properties": p, "geometry": shapely.geometry.mapping(g)}
             for c, p, g in zip(codes, props, geoms)]
    return {"type": "FeatureCollection", "features": feats}


def fit_zoom(bounds, width: float | None, height: float, margin: float = ZOOM_MARGIN) -> float:
    """The MapLibre zoom at which lon/lat ``bounds`` (minx, miny, maxx, maxy) fill ``width`` x ``height`` pixels
    (Web Mercator, 512-pixel tiles: at zoom z the world is 512 * 2**z pixels wide), with ``margin`` of the frame
    used. Without a width only the height counts."""
    minx, miny, maxx, maxy = (float(b) for b in bounds)
    merc = lambda lat: math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))  # noqa: E731
    dy = max(merc(maxy) - merc(miny), 1e-9)
    zy = math.log2(margin * height * 2 * math.pi / (512 * dy))
    if width is None:
        return round(zy, 2)
    dx = max(maxx - minx, 1e-9)
    zx = math.log2(margin * width * 360 / (512 * dx))
    return round(min(zx, zy), 2)


def center(bounds) -> dict:
    return {"lon": round((bounds[0] + bounds[2]) / 2, 4), "lat": round((bounds[1] + bounds[3]) / 2, 4)}


def lines_lonlat(geom, ndigits: int = 5) -> tuple[list, list]:
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


@lru_cache(maxsize=64)
def division_outline(simplify_tolerance: float = DEFAULT_SIMPLIFY_TOLERANCE, box: tuple | None = None
                     ) -> tuple[list, list]:
    """The division boundaries as lon/lat lists for a plotly line trace, cut to ``box`` (minx, miny, maxx, maxy)
    when given (a division's map carries only what can be seen). Cached."""
    import shapely
    lines = division_lines(float(simplify_tolerance))
    if box is not None:
        lines = shapely.clip_by_rect(lines, *box)
        if lines.is_empty:
            return [], []
    return lines_lonlat(lines)


def visible_box(division, width: float, height: float, zoom: float, extra: float = 0.15) -> tuple | None:
    """What a map of ``width`` x ``height`` pixels at ``zoom``, centred on the division, shows (lon/lat, with a
    margin of ``extra``); None for the whole State (nothing is left out)."""
    if division_names(division) is None:
        return None
    c = center(view_bounds(division))
    half_lon = width * 360 / (512 * 2 ** zoom) / 2 * (1 + extra)
    merc = math.log(math.tan(math.pi / 4 + math.radians(c["lat"]) / 2))
    half = height * 2 * math.pi / (512 * 2 ** zoom) / 2 * (1 + extra)
    lat = lambda m: math.degrees(2 * math.atan(math.exp(m)) - math.pi / 2)  # noqa: E731
    return (round(c["lon"] - half_lon, 3), round(lat(merc - half), 3), round(c["lon"] + half_lon, 3),
            round(lat(merc + half), 3))


def clip_view(gdf, view):
    """A GeoDataFrame (or GeoSeries) cut to the rectangle ``view`` (minx, miny, maxx, maxy): a static map of a
    division then stores only what it shows (matplotlib writes every vertex of a clipped shape into an SVG)."""
    import shapely
    sub = gdf.cx[view[0]:view[2], view[1]:view[3]]
    geoms = shapely.clip_by_rect(np.asarray(sub.geometry.values, dtype=object), *view)
    out = sub.copy()
    out = out.set_geometry(list(geoms)) if hasattr(out, "set_geometry") else type(out)(list(geoms), crs=out.crs)
    return out[~shapely.is_empty(np.asarray(out.geometry.values if hasattr(out, "geometry") else out.values,
                                            dtype=object))]


def in_box(gdf, box):
    """The rows of a GeoDataFrame whose shape meets ``box`` (all rows for None)."""
    return gdf if box is None else gdf.cx[box[0]:box[2], box[1]:box[3]]


def view_bounds(division=None) -> tuple:
    """The lon/lat bounds of the division(s), or of the State for every division (or an unknown one)."""
    names = division_names(division)
    if names is not None:
        b = division_boundaries()
        b = b[b["division"].isin(names)]
        if len(b):
            return tuple(float(x) for x in b.total_bounds)
    return tuple(float(x) for x in district_boundaries().total_bounds)


# ------------------------------------------------------------------------------------------------ text

def sizes(pop: pd.Series, small: float, big: float, top: float | None = None) -> np.ndarray:
    """Marker sizes from populations: area-true (size grows with the square root), ``small`` for a population of
    0 or unknown, ``big`` for ``top`` (default: the largest population given)."""
    v = pd.to_numeric(pd.Series(pop), errors="coerce").astype(float)
    top = float(top) if top else (float(v.max()) if v.notna().any() else 0.0)
    if not top or top <= 0:
        return np.full(len(v), float(small))
    return (small + (big - small) * np.sqrt(v.fillna(0).clip(lower=0).to_numpy() / top)).round(1)


def size_key(top: float, n: int = 3) -> list[int]:
    """Populations for the key of a map's dot sizes: up to ``n`` round numbers (1, 2 or 5 times a power of ten),
    the largest not above ``top`` (the largest population drawn), each about a tenth of the one before."""
    if not top or not math.isfinite(top) or top < 1:
        return []
    nice = [m * 10 ** e for e in range(0, 9) for m in (1, 2, 5)]
    first = max(v for v in nice if v <= top)
    out = [first]
    while len(out) < n:
        nxt = max((v for v in nice if v <= out[-1] / 8), default=None)
        if nxt is None:
            break
        out.append(nxt)
    return out


def division_column(df: pd.DataFrame, lang: str) -> pd.Series:
    """Each row's division in ``lang`` (from its ``division`` column, or from the district code)."""
    if "division" in df.columns:
        return place_names(df["division"], "division", lang)
    d = _districts()
    en_by_code = dict(zip(d["unit_code"].astype(int), d["division"]))
    en = pd.to_numeric(df["unit_code"]).astype(int).map(en_by_code).fillna("")
    return place_names(en, "division", lang)


def not_drawn_note(not_drawn: pd.DataFrame, lang: str, limit: int = 4) -> str:
    if not len(not_drawn):
        return ""
    names = unit_names(not_drawn, lang).tolist()
    shown = ", ".join(names[:limit]) + (" …" if len(names) > limit else "")
    return word("map.not_drawn", lang, n=len(names), names=shown)


def source_note(lang: str, tol: float = DEFAULT_SIMPLIFY_TOLERANCE) -> str:
    s = boundary_source()
    return word("map.source", lang, package=s["package"], version=s["version"], file=Path(s["file"]).name,
                tol=f"{tol:g}")


def present_codes(df: pd.DataFrame) -> list[str]:
    present = set(df["category"].astype(str))
    return [c for c in CODES if c in present]


def hover_text(values) -> list[str]:
    """Text for plotly hover labels, tick labels and annotations, HTML-escaped (``html.escape``): plotly reads
    those strings as its own small HTML (``<b>``, ``<br>``, ``<a href>``...), so a name from an input file such as
    ``<img src=x onerror=...>`` must reach it as ``&lt;img ...&gt;``, which plotly shows as text."""
    return [html.escape("" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)) for v in values]


def hover_wrap(s, width: int = 60) -> str:
    """Hover text wrapped into lines of ``width`` characters, each line HTML-escaped, joined with ``<br>``."""
    if s is None or str(s) == "":
        return ""
    return "<br>".join(html.escape(line) for line in textwrap.wrap(str(s), width, break_long_words=False))
