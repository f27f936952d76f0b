"""A notebook exported with nbconvert keeps its figures and its whole tables (issue 22).

The notebooks set ``pio.renderers.default = views.figure_renderer()``. The outputs below are made as the kernel
makes them (IPython asks a figure for ``_repr_mimebundle_``, a DataFrame for ``_repr_html_`` after the notebook's
``check_notebook``) and exported in this process by nbconvert's HTMLExporter, as ``jupyter nbconvert --to html``
does: no kernel, about a second."""
from __future__ import annotations

import base64
import io
import re

import nbformat
import numpy as np
import pandas as pd
import plotly.io as pio
import pytest

import reservation
from reservation import views
from reservation.views import figures

NOT_SHOWN = "not able to be represented"


@pytest.fixture(scope="module")
def zp():
    return reservation.allot("zp-chair", 2021)


@pytest.fixture
def renderer():
    """The notebooks' renderer as their first cell sets it; plotly's default restored afterwards."""
    before = pio.renderers.default
    pio.renderers.default = views.figure_renderer()
    try:
        yield
    finally:
        pio.renderers.default = before


def _display(obj) -> nbformat.NotebookNode:
    data = obj._repr_mimebundle_({}, {}) if hasattr(obj, "_repr_mimebundle_") else {
        "text/html": obj._repr_html_(), "text/plain": repr(obj)}
    return nbformat.v4.new_output("display_data", data=data)


def _notebook(*outputs) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    for i, out in enumerate(outputs):
        cell = nbformat.v4.new_code_cell(f"cell {i}", execution_count=i + 1)
        cell.outputs = [out]
        nb.cells.append(cell)
    return nb


def _export(nb) -> tuple[str, list[str]]:
    """The page nbconvert makes, and its warnings (an output it cannot show is a warning, not an error)."""
    import warnings

    from nbconvert import HTMLExporter
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    return body, [str(w.message) for w in caught]


def _whole_table_html(df: pd.DataFrame) -> str:
    with pd.option_context("display.max_rows", 60, "display.min_rows", 10):      # pandas' defaults, restored
        views.check_notebook("03", body="zp-chair", year=2021)                     # what the notebook calls
        return df._repr_html_()


def test_an_exported_notebook_keeps_its_figures_its_map_picture_and_whole_tables(zp, renderer):
    heat = views.rotation_heatmap(views.rotation_matrix(zp))
    view = views.division_map(zp.table, None, "en", title="ZP chairs 2021", body="zp-chair")
    wide = views.rotation_wide(views.rotation_matrix(zp), "en")
    assert len(wide) == 75 > 60          # pandas' default display.max_rows: pandas alone would cut it to 10 rows
    # (not read from pd.get_option: an earlier test in this process may have run a notebook check, which sets it)
    body, said = _export(_notebook(_display(heat), _display(view.figure), _display(_TableOutput(wide))))
    assert not [w for w in said if NOT_SHOWN in w]
    for n in (1, 2):
        assert len(re.findall(rf'<div class="plotly-graph-div" id="reservation-figure-{n}"', body)) == 1
    from plotly.offline import get_plotlyjs
    assert body.count(get_plotlyjs()[-2000:]) == 1                 # plotly.js once, for both figures
    pictures = [re.search(r'alt="static map of reservation-figure-(\d)"', tag).group(1)
                for tag in re.findall(r"<img [^>]*>", body)
                if 'src="data:image/png;base64,' in tag and "static map of" in tag]
    assert pictures == ["2"]                                        # a picture under the map, not the heatmap
    assert body.count("<tr>") >= 75 and "<td>...</td>" not in body
    for name in wide["Unit"]:
        assert f">{name}<" in body


class _TableOutput:
    """A DataFrame shown as the last expression of a cell after ``check_notebook``."""

    def __init__(self, df):
        self.df = df

    def _repr_html_(self):
        return _whole_table_html(self.df)

    def __repr__(self):
        return repr(self.df)


def test_without_the_renderer_nbconvert_drops_the_figure(zp):
    fig = views.rotation_heatmap(views.rotation_matrix(zp))
    before = pio.renderers.default
    pio.renderers.default = "plotly_mimetype"
    try:
        body, said = _export(_notebook(_display(fig)))
    finally:
        pio.renderers.default = before
    assert [w for w in said if NOT_SHOWN in w] and "plotly-graph-div" not in body


def test_the_map_picture_is_drawn_from_the_figure_in_its_colours(zp):
    fig = views.division_map(zp.table, None, "en", title="ZP chairs 2021", body="zp-chair").figure.to_plotly_json()
    png = base64.b64decode(figures.static_png(fig))
    import matplotlib.image as mpimg
    px = (mpimg.imread(io.BytesIO(png))[..., :3] * 255).round().astype(int).reshape(-1, 3)
    seen = {tuple(p) for p in np.unique(px, axis=0)}
    fills = {tr["colorscale"][0][1] for tr in fig["data"] if tr["type"] == "choroplethmap" and tr.get("showlegend")
             and tr.get("locations")}
    assert len(fills) >= 4
    for c in fills:                         # every category's fill is on the picture (the legend's swatch at least)
        rgb = figures._rgba(c)[:3]
        assert tuple(round(v * 255) for v in rgb) in seen, c
    assert figures.static_png(fig) == figures.static_png(fig)          # same bytes on every run


def test_same_bytes_on_every_run_and_numbering_restarts_with_the_notebook(zp, renderer):
    fig = views.rotation_heatmap(views.rotation_matrix(zp))
    first = fig._repr_mimebundle_({}, {})
    again = fig._repr_mimebundle_({}, {})
    assert 'id="reservation-figure-1"' in first["text/html"] and 'id="reservation-figure-2"' in again["text/html"]
    assert len(first["text/html"]) > 3_000_000 > len(again["text/html"])        # plotly.js in the first only
    pio.renderers.default = views.figure_renderer()                     # the notebook run again from the top
    assert fig._repr_mimebundle_({}, {}) == first


def test_report_kernels_get_plotlys_json_alone(zp, renderer, monkeypatch):
    """The report's worker sets RESERVATION_FIGURES=json in its kernels: their executed notebooks hold what
    ``plotly_mimetype`` gives, byte for byte (the report's pages draw the figures themselves)."""
    fig = views.rotation_heatmap(views.rotation_matrix(zp))
    monkeypatch.setenv(figures.FIGURES_ENV, "json")
    ours = fig._repr_mimebundle_({}, {})
    pio.renderers.default = "plotly_mimetype"
    assert ours == fig._repr_mimebundle_({}, {})
    assert list(ours) == [figures.PLOTLY_MIME]
