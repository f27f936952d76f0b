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


def test_the_attributes_are_those_nbconvert_adds_on_awkward_tags():
    """An image whose only "alt" is part of another attribute's name, one with an empty alt, a self-closing one,
    an output div already focusable: the same attributes as nbconvert's own pass (BeautifulSoup) gives."""
    page = ('<main class="jp-Notebook"><img data-alt="x" src="a.png"><img alt="" src="b.png"><img src="c.png"/>'
            '<div class="jp-Cell-inputWrapper" id="i"></div><div class="jp-OutputArea-output" tabindex="0"></div>'
            '<div class="jp-OutputArea-outputs"></div><div class="x jp-OutputArea-output y" data-mime-type="t"></div>'
            '</main>')
    soup = BeautifulSoup(page, features="html.parser")
    for elem in soup.select("img:not([alt])"):
        elem.attrs["alt"] = pages.NO_ALT
    for selector in (".jp-Notebook div.jp-Cell-inputWrapper", ".jp-Notebook div.jp-OutputArea-output"):
        for elem in soup.select(selector):
            elem.attrs["tabindex"] = "0"
    assert str(BeautifulSoup(pages._accessible(page), features="html.parser")) == str(soup)
