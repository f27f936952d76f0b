"""How the notebooks show plotly figures and tables so that an exported notebook keeps them:
:func:`figure_renderer` and :func:`notebook_display`.

``jupyter nbconvert --to html`` cannot show ``application/vnd.plotly.v1+json`` (what plotly's ``plotly_mimetype``
renderer gives): the figures of an exported notebook were lost. The renderer registered here keeps that mimetype
(JupyterLab and VS Code draw it) and adds what nbconvert shows:

- ``text/html``: the figure drawn by plotly.js in a ``<div>`` whose id is numbered (``reservation-figure-1``,
  ``-2``, ... from the call of :func:`figure_renderer`: the same bytes on every run), with plotly.js (4.7 MB)
  inlined once, in the first figure after that call, so that the page works offline;
- for a map (MapLibre: Chrome and Chromium do not draw it in a page opened from disk, nor in a PDF), a static
  picture of the same figure under it (``image/png``, also in the ``text/html``), drawn by matplotlib from the
  figure itself (its GeoJSON, colours, lines and points; no browser): :func:`static_png`.

``reservation report`` does not ask for these: its worker sets :data:`FIGURES_ENV` to ``json`` in its kernels, and
its pages give each figure their own HTML (:mod:`reservation.report.pages`), so the executed notebooks of a report
stay as small as before."""

from __future__ import annotations

import base64
import html
import io
import os
import re

__all__ = ["RENDERER", "FIGURES_ENV", "MAX_TABLE_ROWS", "figure_renderer", "notebook_display", "static_png",
           "figure_bundle"]

#: The name of the renderer in ``plotly.io.renderers``.
RENDERER = "reservation"
#: Environment variable: ``json`` gives the plotly mimetype alone (what ``plotly_mimetype`` gives).
FIGURES_ENV = "RESERVATION_FIGURES"
#: Rows of a table a notebook shows whole (pandas cuts a longer one to its first and last rows): more than the
#: 826 blocks of the state, fewer than its 58,000 gram panchayats.
MAX_TABLE_ROWS = 1000
PLOTLY_MIME = "application/vnd.plotly.v1+json"
_CONFIG = {"displaylogo": False, "responsive": True}


def notebook_display() -> None:
    """The pandas display options of every notebook: a table of up to :data:`MAX_TABLE_ROWS` rows is shown whole
    (in JupyterLab and in an exported page), a longer one cut as pandas cuts it."""
    import pandas as pd
    pd.set_option("display.max_rows", MAX_TABLE_ROWS)
    pd.set_option("display.min_rows", MAX_TABLE_ROWS)


def figure_renderer() -> str:
    """Register the renderer of this module in ``plotly.io.renderers`` (once; each call restarts its numbering, so
    a notebook run from the top gives the same ids and carries plotly.js again) and return its name, for the
    notebooks' ``pio.renderers.default = views.figure_renderer()``."""
    import plotly.io as pio
    pio.renderers[RENDERER] = _ExportRenderer()
    return RENDERER


def _renderer_base():
    from plotly.io._base_renderers import MimetypeRenderer
    return MimetypeRenderer


class _ExportRenderer(_renderer_base()):
    """The plotly mimetype plus, unless :data:`FIGURES_ENV` is ``json``, what nbconvert can show."""

    def __init__(self):
        self.shown = {"figures": 0}         # shared by the copies plotly makes of a renderer for each figure

    def to_mimebundle(self, fig_dict):
        return figure_bundle(fig_dict, self._next())

    def _next(self) -> int | None:
        if os.environ.get(FIGURES_ENV) == "json":
            return None
        self.shown["figures"] += 1
        return self.shown["figures"]


def figure_bundle(fig, number: int | None = None) -> dict:
    """The display bundle of a figure (a plotly Figure or its dict): the plotly mimetype, and when ``number`` is
    given the ``text/html`` of figure ``number`` (plotly.js inlined when it is 1) and, for a map, its ``image/png``.
    """
    import plotly.io as pio
    from plotly.io._base_renderers import PlotlyRenderer
    fig_dict = dict(fig) if isinstance(fig, dict) else fig.to_plotly_json()
    bundle = PlotlyRenderer().to_mimebundle(fig_dict)          # exactly what ``plotly_mimetype`` gives
    if number is None:
        return bundle
    data = bundle[PLOTLY_MIME]
    fig_id = f"reservation-figure-{number}"
    page = pio.to_html(data, include_plotlyjs=number == 1, full_html=False, div_id=fig_id, validate=False,
                       config=dict(_CONFIG))
    if "map" in data.get("layout", {}):
        png = static_png(data)
        bundle["image/png"] = png
        page += (f'<p class="reservation-static-note" style="font-size:small">The same map as a picture (for PDF, '
                 f'and for Chrome, which does not draw the map above in a page opened from disk):</p>'
                 f'<img src="data:image/png;base64,{png}" alt="static map of {fig_id}" style="max-width:100%">')
    bundle["text/html"] = page
    return bundle


def _plain_text(v) -> str:
    """Text of a plotly title or name without its HTML tags and entities."""
    if isinstance(v, dict):
        v = v.get("text")
    return html.unescape(re.sub(r"<br\s*/?>", "\n", re.sub(r"<(?!br)[^>]+>", "", str(v or "")))).strip()


def _colour(tr: dict, k: int) -> str:
    """Fill colour of location ``k`` of a choropleth trace: its colorscale at its z."""
    from plotly.colors import sample_colorscale
    scale = tr.get("colorscale") or [[0, "#cccccc"], [1, "#cccccc"]]
    if isinstance(scale, str):
        return "#cccccc"
    z = tr.get("z") or [0]
    lo, hi = tr.get("zmin", min(z)), tr.get("zmax", max(z))
    t = 0.0 if hi == lo else (z[k] - lo) / (hi - lo)
    return sample_colorscale(scale, [min(max(t, 0.0), 1.0)])[0]


def _rgba(colour: str, alpha=None) -> tuple:
    """A plotly colour (``#hex``, a name, ``rgb(r, g, b)``, ``rgba(r, g, b, a)``) as matplotlib's RGBA."""
    from matplotlib.colors import to_rgba
    m = re.fullmatch(r"\s*rgba?\(([^)]*)\)\s*", str(colour))
    if m:
        v = [float(x) for x in m.group(1).split(",")]
        rgba = (v[0] / 255, v[1] / 255, v[2] / 255, v[3] if len(v) > 3 else 1.0)
        return rgba if alpha is None else (*rgba[:3], alpha)
    return to_rgba(colour, alpha)


def _rings(geometry: dict) -> list:
    polys = geometry.get("coordinates", []) if geometry.get("type") == "MultiPolygon" else \
        [geometry.get("coordinates", [])] if geometry.get("type") == "Polygon" else []
    return [ring for poly in polys for ring in poly]


def _choropleth(ax, tr: dict) -> None:
    from matplotlib.collections import PolyCollection
    key = (tr.get("featureidkey") or "id").split(".")
    feats = {}
    for f in (tr.get("geojson") or {}).get("features", []):
        v = f
        for part in key:
            v = v.get(part, {}) if isinstance(v, dict) else {}
        feats[str(v)] = f["geometry"]
    marker = tr.get("marker", {})
    line = marker.get("line", {})
    opacity = marker.get("opacity", 1.0)
    polys, colours, alphas = [], [], []
    for k, loc in enumerate(tr.get("locations") or []):
        for ring in _rings(feats.get(str(loc), {})):
            polys.append(ring)
            colours.append(_colour(tr, k))
            alphas.append(opacity[k] if isinstance(opacity, list) else opacity)
    if polys:
        ax.add_collection(PolyCollection(polys, facecolors=[_rgba(c, a) for c, a in zip(colours, alphas)],
                                         edgecolors=_rgba(line.get("color", "#9e9e9e")), linewidths=0.4))


def _scatter(ax, tr: dict) -> None:
    lon = [float("nan") if x is None else x for x in tr.get("lon") or []]
    lat = [float("nan") if x is None else x for x in tr.get("lat") or []]
    mode = tr.get("mode", "markers")
    if "lines" in mode:
        ln = tr.get("line", {})
        ax.plot(lon, lat, color=_rgba(ln.get("color", "#303030")), linewidth=ln.get("width", 1) * 0.6)
    if "markers" in mode and lon:
        m = tr.get("marker", {})
        size, colour, alpha = m.get("size", 6), m.get("color", "#303030"), m.get("opacity", 1.0)
        n = len(lon)
        size = [(s or 0) ** 2 / 4 for s in (size if isinstance(size, list) else [size] * n)]
        colour = colour if isinstance(colour, list) else [colour] * n
        alpha = alpha if isinstance(alpha, list) else [alpha] * n
        ax.scatter(lon, lat, s=size, c=[_rgba(c, a) for c, a in zip(colour, alpha)], linewidths=0)


def _scatter_handle(tr: dict):
    """The key of a ``scattermap`` trace: a line, or a dot in its (first) colour and opacity."""
    from matplotlib.lines import Line2D
    label = _plain_text(tr.get("name"))
    if "markers" not in tr.get("mode", "markers"):
        return Line2D([], [], color=_rgba(tr.get("line", {}).get("color", "#303030")), label=label)
    m = tr.get("marker", {})
    first = [v[0] if isinstance(v, list) and v else v for v in (m.get("color", "#303030"), m.get("opacity", 1.0))]
    return Line2D([], [], marker="o", linestyle="", markersize=6, label=label,
                  color=_rgba(first[0], first[1] if isinstance(first[1], (int, float)) else None))


def static_png(fig_dict: dict, dpi: int = 80) -> str:
    """A static picture (PNG, base64) of a plotly map figure drawn by matplotlib from the figure's own traces: the
    GeoJSON of each ``choroplethmap`` in its colour and opacity, the lines and points of each ``scattermap``, the
    title and a key of the named traces. No basemap (the workbench's maps have none). Same bytes on every run."""
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from .maps.style import font_rc
    with matplotlib.rc_context({**font_rc("en"), "path.simplify": True}):
        fig = Figure(figsize=(9, 6.5))
        ax = fig.add_axes((0.01, 0.01, 0.68, 0.90))
        ax.set_axis_off()
        handles = []
        for tr in fig_dict.get("data", []):
            if tr.get("type") == "choroplethmap":
                _choropleth(ax, tr)
                if tr.get("showlegend") and tr.get("locations"):
                    handles.append(Patch(facecolor=_rgba(_colour(tr, 0)), edgecolor="#808080",
                                         label=_plain_text(tr.get("name"))))
            elif tr.get("type") == "scattermap":
                _scatter(ax, tr)
                if tr.get("showlegend", True) and tr.get("name"):
                    handles.append(_scatter_handle(tr))
        ax.autoscale_view()
        ax.set_aspect(1.1)
        title = _plain_text(fig_dict.get("layout", {}).get("title"))
        if title:
            fig.suptitle(title, x=0.01, ha="left", fontsize=11)
        if handles:
            fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.7, 0.9), fontsize=8, frameon=False)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return base64.b64encode(buf.getvalue()).decode("ascii")
