"""reservation.law.words holds every bilingual string; the views package holds all map code; modules stay small.

These are structure tests: they read the source (ast), so they fail when a Hindi string, a second copy of a map
helper or a 700-line module creeps back in."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

import reservation
from reservation.law import categories, words
from reservation.base.errors import InputError

PKG = Path(reservation.__file__).resolve().parent
#: The presentation layer (this brief's files): views, words, report, the report command, the category labels.
PRESENTATION = sorted([*(PKG / "views").rglob("*.py"), PKG / "law" / "words.py", PKG / "law" / "categories.py", PKG / "cli" / "report.py",
                       *([PKG / "report.py"] if (PKG / "report.py").is_file() else []),
                       *((PKG / "report").rglob("*.py") if (PKG / "report").is_dir() else [])])
DEVANAGARI = re.compile("[\u0900-\u097f\ua8e0-\ua8ff]")


def _strings(path: Path) -> list[tuple[int, str]]:
    """Every string constant of a module except docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_entry_has_both_languages_with_the_same_placeholders():
    tables = {"TEXT": words.TEXT, "CATEGORY_LABELS": words.CATEGORY_LABELS, "VERDICT_TEXT": words.VERDICT_TEXT}
    for name, table in tables.items():
        for key, entry in table.items():
            assert set(entry) == set(words.LANGS), (name, key)
            assert entry["hi"].strip(), (name, key)
            assert DEVANAGARI.search(entry["hi"]) or entry["hi"] == entry["en"], (name, key)
            if entry["en"]:
                assert not DEVANAGARI.search(entry["en"]), (name, key)
                assert _fields(entry["en"]) == _fields(entry["hi"]), (name, key)
    from reservation.rules.registry import MODULES
    assert set(words.BODY_TITLES_HI) <= set(MODULES)


def test_no_hindi_text_outside_the_words_module():
    found = [(p.relative_to(PKG.parent).as_posix(), line, s) for p in PRESENTATION if p.name != "words.py"
             for line, s in _strings(p) if DEVANAGARI.search(s)]
    assert found == []


def test_other_backward_classes_in_both_languages():
    assert categories.label("OBC") == "Other Backward Classes" and categories.label("OBC", "hi") == "अन्य पिछड़ा वर्ग"
    assert categories.label("OBC_W") == "Other Backward Classes (women)"
    assert [c.label_en for c in categories.CATEGORIES] == [words.CATEGORY_LABELS[c]["en"] for c in categories.CODES]


def test_hindi_caption_reads_n_out_of_total():
    """Hindi says "62 में से 42" for "42 of 62": the total comes first (the bug: "(42 में से 62 इकाइयाँ)")."""
    assert words.word("map.n_of_total", "en", n=42, total=62) == "(42 of 62 units)"
    assert words.word("map.n_of_total", "hi", n=42, total=62) == "(62 में से 42 इकाइयाँ)"


def test_the_engines_words_have_both_languages_with_the_same_placeholders():
    for table in (words.TIER_WORDS, words.DECISION_WORDS, words.ALLOTMENT_WORDS):
        assert set(table) == set(words.LANGS) and set(table["en"]) == set(table["hi"])
        for k, en in table["en"].items():
            assert _fields(en) == _fields(table["hi"][k]), k


def test_unknown_language_is_an_input_error():
    with pytest.raises(InputError) as e:
        words.word("table.unit", "fr")
    assert e.value.column == "lang"


@pytest.mark.parametrize("path", PRESENTATION, ids=lambda p: p.relative_to(PKG).as_posix())
def test_no_module_over_700_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 700


def test_all_map_code_is_in_the_views_maps_package():
    """Map drawing (MapLibre traces, geopandas, shapely) lives only in reservation/views/maps/."""
    maps_dir = PKG / "views" / "maps"
    assert not (PKG / "maps.py").exists()
    pattern = re.compile(r"\b(Choroplethmap|Scattermap|geopandas|shapely|coverage_clean)\b")
    outside = [p.relative_to(PKG).as_posix() for p in PRESENTATION
               if maps_dir not in p.parents and pattern.search(p.read_text(encoding="utf-8"))]
    assert outside == []


def test_no_helper_is_defined_twice_in_the_views_package():
    """One fit_zoom, one geojson, one font_rc, one check_lang: top-level functions have one home."""
    seen: dict[str, str] = {}
    dup = []
    for p in [*(PKG / "views").rglob("*.py"), PKG / "law" / "words.py"]:
        for node in ast.parse(p.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef):
                if node.name in seen:
                    dup.append((node.name, seen[node.name], p.name))
                seen[node.name] = p.name
    assert dup == []


def test_every_package_is_declared_in_pyproject():
    """A wheel carries only the packages pyproject.toml lists: every folder of reservation/ with an __init__.py."""
    import tomllib
    declared = set(tomllib.loads((PKG.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(PKG.parent).parts) for p in PKG.rglob("__init__.py")
             if "notebooks" not in p.parts and "data" not in p.parts}
    assert found <= declared
