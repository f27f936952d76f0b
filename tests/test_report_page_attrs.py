"""A report page is nbconvert's page without its BeautifulSoup pass (reservation/report/pages.py, _unparsed and
_accessible): the attributes that pass adds are added by the report itself, so that the page, read by an HTML
parser, is exactly the page nbconvert would have printed (the golden is nbconvert's own output)."""

from __future__ import annotations

import contextlib

import nbformat
from bs4 import BeautifulSoup

import reservation.report.pages as pages


def _notebook(path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A heading\n\n![a map](map.png) and <img src=\"x.png\" alt=\"given\">"),
                nbformat.v4.new_code_cell("x", outputs=[
                    nbformat.v4.new_output("display_data", data={"text/html": "<b>one</b><img src='y.png'>"}),
                    nbformat.v4.new_output("stream", name="stdout", text="two\n")]),
                nbformat.v4.new_markdown_cell("text")]
    nbformat.write(nb, path)


def test_the_page_is_the_one_nbconvert_prints_with_its_attributes(tmp_path, monkeypatch):
    _notebook(tmp_path / "n.ipynb")
    pages.notebook_to_html(tmp_path / "n.ipynb", tmp_path / "ours.html", title="t", plotlyjs="directory")
    monkeypatch.setattr(pages, "_unparsed", contextlib.nullcontext)       # nbconvert as it is
    monkeypatch.setattr(pages, "_accessible", lambda page: page)
    pages.notebook_to_html(tmp_path / "n.ipynb", tmp_path / "theirs.html", title="t", plotlyjs="directory")
    ours, theirs = (tmp_path / "ours.html").read_text(), (tmp_path / "theirs.html").read_text()
    assert str(BeautifulSoup(ours, features="html.parser")) == theirs
    assert ours.count('tabindex="0"') == theirs.count('tabindex="0"') >= 4     # 2 markdown inputs, 2 outputs
    assert ours.count(f'alt="{pages.NO_ALT}"') == theirs.count(f'alt="{pages.NO_ALT}"') == 1
    assert 'alt="given"' in ours and 'alt="a map"' in ours


def test_the_exporter_parses_nothing_while_a_page_is_made(tmp_path, monkeypatch):
    from nbconvert.exporters import html as exporter_module
    real = exporter_module.BeautifulSoup
    _notebook(tmp_path / "n.ipynb")
    calls = []
    monkeypatch.setattr(exporter_module, "BeautifulSoup", lambda *a, **k: calls.append(a) or real(*a, **k))
    pages.notebook_to_html(tmp_path / "n.ipynb", tmp_path / "p.html", title="t", plotlyjs="directory")
    assert calls == [] and exporter_module.BeautifulSoup is not pages._Unparsed     # put back afterwards
