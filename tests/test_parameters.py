"""The law's figures and the options' evidence as data (rules/params/*.toml, read by rules/parameters.py).

The golden values are the instruments' own figures, not the code's: the GO 2021 quotes the State SC share as
20.6982 % and caps OBC at 27 %; the 2023 Dedicated Commission's statewide OBC shares are 25.58 / 42.29 / 49.55 %
(docs/urban.md); the Mayors' rotation starts with the 2023 Act; the High Court order of 15 Mar 2021 fixed the
panchayat base year 2015.
"""

from __future__ import annotations

import ast
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from reservation.rules import parameters
from reservation.rules.parameters import ParameterError, evidence, parameter, value, written
from reservation.rules.registry import MODULES, all_rulebooks

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "reservation" / "rules"


def test_the_law_figures_are_exact_and_dated():
    assert value("kp_chair.sc_cap", 2021) == Fraction(206982, 1000000)
    assert value("kp_chair.obc_cap", 2021) == Fraction(27, 100)
    assert value("panchayat.women", 2021) == Fraction(1, 3)
    assert value("urban.obc_cap", 2023) == 27
    assert [value(f"{b}.obc_share", 2023) for b in ("mayor", "pp_chair", "np_chair")] == [
        Fraction("25.58"), Fraction("42.29"), Fraction("49.55")]
    assert value("mayor.base_year", 2023) == 2023 and isinstance(value("mayor.base_year", 2023), int)
    assert value("panchayat.base_year", 2021) == 2015
    assert written("panchayat.obc_state_share", 2021) == "53.33"
    # a later election takes the latest value at or before it; an earlier one has none (an error, not a guess)
    assert value("kp_chair.sc_cap", 2027) == Fraction(206982, 1000000)
    with pytest.raises(ParameterError, match="no value for the election of 2015"):
        value("kp_chair.sc_cap", 2015)


def test_every_figure_is_a_string_or_a_year_never_a_float():
    with open(RULES / "params" / "law.toml", "rb") as f:
        law = tomllib.load(f)
    n = 0
    for scope, table in law.items():
        for figure, spec in table.items():
            p = parameter(f"{scope}.{figure}")
            assert p.source and p.description, p.name
            for year, v in spec["values"].items():
                assert isinstance(v, int) if p.unit == "year" else isinstance(v, str), (p.name, year, v)
                n += 1
    assert n >= 12


def test_a_missing_or_malformed_parameter_is_a_clear_error(tmp_path, monkeypatch):
    with pytest.raises(ParameterError, match="no parameter 'kp_chair.nothing'"):
        value("kp_chair.nothing", 2021)
    with pytest.raises(ParameterError, match="no option catalogue.nothing"):
        evidence("catalogue", "nothing")
    for text, message in [
        ('[a.b]\nunit = "fraction"\nvalues = { 2021 = 0.27 }\n', "not an exact number written as a string"),
        ('[a.b]\nunit = "fraction"\nvalues = { 2021 = "1e3" }\n', "not an exact number"),
        ('[a.b]\nunit = "share"\nvalues = { 2021 = "1/3" }\n', "unit 'share' is not one of"),
        ('[a.b]\nunit = "year"\nvalues = { 21 = 2015 }\n', "'21' is not an election year"),
        ('[a.b]\nunit = "fraction"\n', "needs a table 'values'"),
        ('[a.b\n', "cannot be read"),
    ]:
        (tmp_path / "law.toml").write_text(text, encoding="utf-8")
        monkeypatch.setattr(parameters, "PARAMS_DIR", tmp_path)
        parameters._law.cache_clear()
        try:
            with pytest.raises(ParameterError, match=message):
                value("a.b", 2021)
        finally:
            monkeypatch.undo()
            parameters._law.cache_clear()
    assert value("kp_chair.obc_cap", 2021) == Fraction(27, 100)     # the shipped file again


def test_every_option_takes_its_evidence_from_the_file_and_every_entry_is_used():
    with open(RULES / "params" / "evidence.toml", "rb") as f:
        data = tomllib.load(f)
    texts = {(s, n): e["evidence"] for s, table in data.items() for n, e in table.items()}
    used = set()
    for body, book in all_rulebooks().items():
        for name, o in book.options.items():
            found = [k for k, t in texts.items() if k[1] == name and t == o.evidence
                     and data[k[0]][name]["ambiguity"] == o.ambiguity]
            assert found, f"{body}: option {name}'s evidence is not in evidence.toml"
            used.update(found)
    assert used == set(texts), f"entries no option uses: {sorted(set(texts) - used)}"


def test_each_body_has_its_own_module_and_the_registry_is_one_table():
    assert {b: m.rsplit(".", 1)[1] for b, m in MODULES.items()} == {b: b.replace("-", "_") for b in MODULES}
    books = all_rulebooks()
    assert list(books) == list(MODULES) and all(b.id == k for k, b in books.items())
    for p in RULES.glob("*.py"):        # nothing registers itself: the table is the only list
        tree = ast.parse(p.read_text(encoding="utf-8"))
        calls = [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
        assert "register" not in calls, p.name


def test_the_parameter_files_ship_with_the_package():
    with open(ROOT / "pyproject.toml", "rb") as f:
        data = tomllib.load(f)["tool"]["setuptools"]["package-data"]["reservation"]
    assert "rules/params/*.toml" in data
    assert sorted(p.name for p in (RULES / "params").glob("*.toml")) == ["elections.toml", "evidence.toml", "law.toml"]


def test_no_count_arithmetic_is_read_back_from_its_words():
    for p in list(RULES.glob("*.py")) + list((ROOT / "reservation" / "law").glob("*.py")):
        assert "; of these\")" not in p.read_text(encoding="utf-8"), p.name


def test_a_broken_parameter_file_is_one_line_from_the_command_not_a_traceback(tmp_path, monkeypatch):
    from conftest import assert_refused, run_cli
    (tmp_path / "law.toml").write_text('[pp_chair.obc_share]\nunit = "percent"\nvalues = { 2023 = 42.29 }\n',
                                       encoding="utf-8")
    monkeypatch.setattr(parameters, "PARAMS_DIR", tmp_path)
    parameters._law.cache_clear()
    try:
        line = assert_refused(run_cli(["counts", "--body", "pp-chair", "--year", "2023"]), status=1,
                              words=("pp_chair.obc_share", "not an exact number"))
        assert "installed package is broken" in line
    finally:
        monkeypatch.undo()
        parameters._law.cache_clear()
