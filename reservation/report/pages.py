"""Executed notebooks -> HTML pages without code that work offline: plotly figures given an HTML form, the static
map under each interactive one, and the shared parts (plotly.js, JupyterLab's style sheet, the Devanagari font)
either written once beside the pages (``directory``, the default: small pages) or inlined in each page
(``inline``: a page stands alone, about 5 MB)."""

from __future__ import annotations

import html
import re
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

__all__ = ["notebook_to_html", "devanagari_font_css", "site_css", "write_shared_files", "set_font_css", "SKIP_TAG",
           "PLOTLYJS_MODES", "PLOTLY_MIME", "SHARED_FILES"]

PLOTLYJS_MODES = ("directory", "inline")
#: The files a report in ``directory`` mode writes once beside its pages (the font and its licence only when the
#: font package is installed).
SHARED_FILES = ("plotly.min.js", "lab.css", "reservation.css", "reservation-devanagari.ttf",
                "reservation-devanagari-OFL.txt")
PLOTLY_MIME = "application/vnd.plotly.v1+json"

_TEMPLATE = r"""{%- extends 'index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{% block jupyter_widgets %}{% endblock jupyter_widgets %}
{% block notebook_css %}
{%- if resources.shared -%}
<link rel="stylesheet" href="lab.css">
{%- else -%}
{{ super() }}
{%- endif -%}
{% endblock notebook_css %}
{% block extra_css %}
<style type="text/css">
  nav.reservation-nav { font-family: sans-serif; padding: 8px 16px; border-bottom: 1px solid #ddd; }
  .jp-RenderedHTMLCommon table { font-size: 12px; }
  .jp-RenderedHTMLCommon td { max-width: 60em; }
</style>
{{ resources.plotly_tag }}
{% endblock extra_css %}
{%- block body_header -%}
{{ super() }}
<nav class="reservation-nav"><a href="index.html">&larr; index</a> &middot; {{ resources.page_title | e }}</nav>
{%- endblock body_header -%}
"""


#: Cells tagged so are left out of the HTML pages (kept in the notebooks): nbval's reference prints and the
#: parameter documentation.
SKIP_TAG = "report-skip"

_DEVANAGARI_RANGE = "U+0900-097F, U+1CD0-1CFF, U+200C-200D, U+20B9, U+25CC, U+A8E0-A8FF"


_FONT_CSS: str | None = None


def set_font_css(css: str | None) -> None:
    """Give this process the font rule computed once by the report's parent (subsetting takes seconds)."""
    global _FONT_CSS
    _FONT_CSS = css


def devanagari_font_css() -> str:
    """:func:`_font_css`, or the rule handed over by :func:`set_font_css`."""
    return _FONT_CSS if _FONT_CSS is not None else _font_css()


def _font_file() -> Path | None:
    """The TTF of the PyPI package ``fontpkg-noto-sans-devanagari`` (found without importing it), or None."""
    import importlib.util
    spec = importlib.util.find_spec("fontpkg_noto_sans_devanagari")
    if spec is None or not spec.submodule_search_locations:
        return None
    ttfs = sorted(Path(list(spec.submodule_search_locations)[0]).glob("files/*.ttf"))
    return ttfs[0] if ttfs else None


def _linked_font_css() -> str:
    """The ``@font-face`` rule of a report folder: the unmodified font file beside the pages (copied, no work)."""
    return ('@font-face { font-family: "Reservation Devanagari"; font-weight: 100 900; '
            'src: url("reservation-devanagari.ttf") format("truetype"); '
            f'unicode-range: {_DEVANAGARI_RANGE}; }}')


@lru_cache(maxsize=1)
def _font_css() -> str:
    """An ``@font-face`` rule with Noto Sans Devanagari (the font the static maps use, from the PyPI package
    ``fontpkg-noto-sans-devanagari``, OFL-1.1) as a data URI, cut to the Devanagari block and to its regular
    weight (about 0.2 MB), so that the Hindi of a page renders on a machine without a Hindi font. Empty when the
    font package or fontTools is missing (the browser's own fonts are used). The font keeps the package's
    modification time (fontTools would write the current time into its ``head`` table): same bytes every run."""
    import base64
    import io
    ttf = _font_file()
    if ttf is None:
        return ""
    try:
        from fontTools import subset
        from fontTools.ttLib import TTFont
        font = TTFont(str(ttf), recalcTimestamp=False)     # else save() stamps the time: same font, other bytes
        if "fvar" in font:
            from fontTools.varLib import instancer
            axes = {a.axisTag: (400 if a.axisTag == "wght" else a.defaultValue) for a in font["fvar"].axes}
            font = instancer.instantiateVariableFont(font, axes)
        opts = subset.Options()
        opts.layout_features = ["*"]
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=list(range(0x0900, 0x0980)) + list(range(0x1CD0, 0x1D00)) + list(range(0xA8E0, 0xA900))
                     + [0x200C, 0x200D, 0x20B9, 0x25CC])
        sub.subset(font)
        font.flavor = "woff"
        buf = io.BytesIO()
        font.save(buf)
    except Exception:  # noqa: BLE001 - a page without the font is still a page
        return ""
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return ('@font-face { font-family: "Reservation Devanagari"; font-weight: 100 900; '
            f'src: url(data:font/woff;base64,{data}) format("woff"); unicode-range: {_DEVANAGARI_RANGE}; }}')


_FONT_VARS = """
body {
  --jp-content-font-family: "Reservation Devanagari", system-ui, -apple-system, "Segoe UI", helvetica, arial,
    sans-serif;
  --jp-ui-font-family: "Reservation Devanagari", system-ui, -apple-system, "Segoe UI", helvetica, arial, sans-serif;
  --jp-code-font-family: "Reservation Devanagari", menlo, consolas, "DejaVu Sans Mono", monospace;
}
"""

def site_css(linked: bool = False) -> str:
    """``reservation.css``, written once beside the pages: the Devanagari font (``linked``: the font file beside
    the pages; else embedded, cut to the Devanagari block) and the font variables."""
    font = (_linked_font_css() if _font_file() else "") if linked else devanagari_font_css()
    return font + (_FONT_VARS if font else "") + "\n"


@lru_cache(maxsize=1)
def _lab_css() -> str:
    """JupyterLab's style sheet as nbconvert's lab template inlines it in every page (about 0.26 MB). Made once per
    process: the report's parent makes it before forking its workers, whose pages then find the templates
    compiled."""
    import re

    import nbformat
    body, _ = _exporter().from_notebook_node(nbformat.v4.new_notebook(), resources={"plotly_tag": "",
                                                                                    "shared": False,
                                                                                    "page_title": ""})
    head = body.split("</head>", 1)[0]
    return "\n".join(re.findall(r"<style[^>]*>(.*?)</style>", head, flags=re.S)) + "\n"


def write_shared_files(folder) -> list[str]:
    """Write :data:`SHARED_FILES` into ``folder`` once (``directory`` mode): plotly.js, JupyterLab's style sheet and
    the Devanagari font. Returns their names."""
    import shutil

    from plotly.offline import get_plotlyjs
    folder = Path(folder)
    (folder / "plotly.min.js").write_text(get_plotlyjs(), encoding="utf-8")
    (folder / "lab.css").write_text(_lab_css(), encoding="utf-8")
    (folder / "reservation.css").write_text(site_css(linked=True), encoding="utf-8")
    written = ["plotly.min.js", "lab.css", "reservation.css"]
    ttf = _font_file()
    if ttf is not None:                # redistributed unmodified, with its licence (OFL-1.1)
        shutil.copyfile(ttf, folder / "reservation-devanagari.ttf")
        written.append("reservation-devanagari.ttf")
        lic = ttf.parent.parent / "LICENSE"
        if lic.is_file():
            shutil.copyfile(lic, folder / "reservation-devanagari-OFL.txt")
            written.append("reservation-devanagari-OFL.txt")
    return written


_FALLBACK_SCRIPT = """<script type="text/javascript">
window.addEventListener("load", function () {
  setTimeout(function () {
    document.querySelectorAll("details.reservation-static").forEach(function (d) {
      var gd = document.getElementById(d.dataset.figure);
      var sp = gd && gd._fullLayout && gd._fullLayout.map && gd._fullLayout.map._subplot;
      var ok = sp && sp.map && sp.map.isStyleLoaded && sp.map.isStyleLoaded();
      if (!ok) { d.open = true; d.querySelector(".reservation-static-note").hidden = false; }
    });
  }, 8000);
});
</script>"""


@lru_cache(maxsize=1)
def _exporter():
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    c = Config()
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = {SKIP_TAG}
    # the notebook is validated once after all the preprocessors, not after each of the dozen (0.03 s a page)
    c.Exporter.optimistic_validation = True
    return HTMLExporter(config=c, template_name="lab",
                        extra_loaders=[DictLoader({"reservation_report.html.j2": _TEMPLATE})],
                        template_file="reservation_report.html.j2", exclude_input=True, exclude_input_prompt=True,
                        exclude_output_prompt=True)


def _static_block(fig_id: str, png: Path, plotlyjs: str) -> str:
    """The static map under an interactive one: closed, and opened by the page's script when the interactive
    map could not draw (Chrome and Chromium block MapLibre's worker in pages opened from disk, file://)."""
    import base64
    if plotlyjs == "inline":
        src = "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode("ascii")
    else:
        src = html.escape(png.name)
    name = html.escape(png.name)
    return (f'<details class="reservation-static" data-figure="{html.escape(fig_id)}">'
            f'<summary>Static map ({name}; SVG and the Hindi map beside this page)</summary>'
            f'<p class="reservation-static-note" hidden><b>The interactive map above could not be drawn</b> '
            f'(Chrome and Chromium do not run its map engine in a page opened from disk: open the page through a '
            f'web server, e.g. <code>python -m http.server</code> in its folder, or in Firefox). '
            f'The same map as a picture:</p>'
            f'<img src="{src}" alt="static map" style="max-width:100%"></details>')


def notebook_to_html(ipynb, html_path, *, title: str = "", plotlyjs: str = "inline", static_map=None,
                     published_map=None) -> Path:
    """An executed notebook -> one HTML page without the code, that works offline.

    Plotly outputs (``application/vnd.plotly.v1+json``, which nbconvert cannot show) get an HTML form made by
    :func:`plotly.io.to_html` (deterministic element ids); plotly.js is inlined once per page (``inline``:
    the page stands alone, about 4.7 MB) or loaded from ``plotly.min.js`` beside the page (``directory``). No
    script or style is fetched from the network (MathJax, require.js and mermaid are left out), stderr
    streams (warnings) and cells tagged ``report-skip`` are dropped from the page (they stay in the notebook),
    and Hindi renders with an embedded Devanagari font (:func:`devanagari_font_css`). ``static_map``: a PNG
    shown under each interactive map, opened automatically when the map cannot draw (see :func:`_static_block`);
    ``published_map``: the PNG of the published list beside the computed one, shown so under the figure of two
    maps (:func:`reservation.views.published_figure`, whose layout has ``map2``) instead of ``static_map``.
    """
    import nbformat
    import plotly.io as pio
    if plotlyjs not in PLOTLYJS_MODES:
        raise ValueError(f"plotlyjs must be one of {PLOTLYJS_MODES}")
    nb = nbformat.read(ipynb, as_version=4)
    n = 0
    for ci, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        kept = []
        for oi, out in enumerate(cell.get("outputs", [])):
            if out.get("output_type") == "stream" and out.get("name") == "stderr":
                continue
            data = out.get("data", {})
            if PLOTLY_MIME in data:
                n += 1
                fig_id = f"reservation-figure-{ci}-{oi}"
                fig = dict(data[PLOTLY_MIME])
                page = pio.to_html(fig, include_plotlyjs=False, full_html=False, div_id=fig_id, validate=False,
                                   config={"displaylogo": False, "responsive": True})
                layout = fig.get("layout", {})
                png = published_map if "map2" in layout else static_map if "map" in layout else None
                if png is not None:
                    page += _static_block(fig_id, Path(png), plotlyjs)
                data["text/html"] = page
                del data[PLOTLY_MIME]
            kept.append(out)
        cell.outputs = kept
    nb.metadata["title"] = title or nb.metadata.get("title", "")
    html_path = Path(html_path)
    shared = plotlyjs == "directory"
    if shared:
        tag = ('<link rel="stylesheet" href="reservation.css">'
               + ('<script type="text/javascript" src="plotly.min.js"></script>' if n else ""))
    else:
        font = devanagari_font_css()
        tag = f"<style type=\"text/css\">{font}{_FONT_VARS if font else ''}</style>"
        if n:
            from plotly.offline import get_plotlyjs
            tag += f'<script type="text/javascript">{get_plotlyjs()}</script>'
    if static_map is not None or published_map is not None:
        tag += _FALLBACK_SCRIPT
    with _unparsed():
        body, _ = _exporter().from_notebook_node(nb, resources={"plotly_tag": tag, "shared": shared,
                                                                "page_title": nb.metadata["title"]})
    html_path.write_text(_accessible(body), encoding="utf-8")
    return html_path


class _Unparsed:
    """What nbconvert's HTML exporter takes for BeautifulSoup while :func:`_unparsed` holds: the page as the
    template wrote it, and no element to change (:func:`_accessible` adds the attributes instead)."""

    def __init__(self, markup: str, features=None):
        self.markup = markup

    def select(self, selector: str) -> list:
        return []

    def __str__(self) -> str:
        return self.markup


@contextmanager
def _unparsed():
    """While held, nbconvert's HTML exporter does not parse the page it made with BeautifulSoup and print it again
    (it does so to give images without one an alternative text and the cells' inputs and outputs a tabindex):
    0.1 s of a report page's 0.12-0.18 s of CPU, measured. :func:`_accessible` adds those attributes."""
    from nbconvert.exporters import html as exporter_module
    soup = exporter_module.BeautifulSoup
    exporter_module.BeautifulSoup = _Unparsed
    try:
        yield
    finally:
        exporter_module.BeautifulSoup = soup


_IMG_WITHOUT_ALT = re.compile(r"<img(?![^>]*(?<![\w-])alt=)([^>]*?)(/?)>")
_FOCUSABLE_DIV = re.compile(r'<div class="[^"]*(?<![\w-])(?:jp-OutputArea-output|jp-Cell-inputWrapper)(?![\w-])[^"]*"'
                            r'[^>]*?(?<!tabindex="0")>')
NO_ALT = "No description has been provided for this image"


def _accessible(page: str) -> str:
    """What nbconvert's exporter adds to a page (see :func:`_unparsed`): an alternative text for every image
    without one, and ``tabindex="0"`` on each cell's input wrapper and output, so a keyboard reaches them."""
    page = _IMG_WITHOUT_ALT.sub(lambda m: f'<img{m.group(1)} alt="{NO_ALT}"{m.group(2)}>', page)
    return _FOCUSABLE_DIV.sub(lambda m: m.group(0)[:-1] + ' tabindex="0">', page)
