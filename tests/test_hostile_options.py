"""Hostile values typed on the command line: `--option NAME=VALUE`, `--year`, `--base-year`, `--body`,
`--unit`. Exit 2, one line naming the flag (never "column 'body'"), no traceback, nothing written; a decimal
option has a bounded parse (no exponent, at most 10 characters), so nothing typed can make a run take long."""
import re
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import INSTALLED, ROOT, OutFolder, assert_refused, run_cli
from reservation.base.errors import InputError
from reservation.rules.registry import get_rulebook


def zp_chair_options(pairs):
    return get_rulebook("zp-chair").option_set(pairs)


HYP = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
ALLOT = ["allot", "--body", "zp-chair", "--year", "2021"]


def refuse(tmp_path, argv, **expect):
    folder = OutFolder(tmp_path)
    line = assert_refused(run_cli([*argv, "--out", folder.target]), **expect)
    assert folder.unchanged()
    return line


@pytest.mark.parametrize("value", ["1e-999999", "1e5", "53.33e0", "0x10", "1_0", "NaN", "inf", "5/3", "53.3333333333",
                                   " ", "53,33", "१e९", "--5"])
def test_decimal_options_take_plain_decimals_only(tmp_path, value):
    line = refuse(tmp_path, [*ALLOT, "--option", f"obc_state_share={value}"], option="--option obc_state_share")
    assert "column" not in line


@pytest.mark.parametrize("value", ["-1", "100.01", "101"])
def test_decimal_options_are_percentages(tmp_path, value):
    refuse(tmp_path, [*ALLOT, "--option", f"obc_state_share={value}"], option="--option obc_state_share",
           words=["between 0 and 100"])


def test_devanagari_digits_in_a_decimal_option_are_read_as_ascii():
    opts = zp_chair_options([("obc_state_share", "५३.३३")])
    assert opts["obc_state_share"] == "53.33" and opts.fraction("obc_state_share") == Fraction(5333, 100)


@HYP
@given(st.text(max_size=30))
def test_any_text_as_a_decimal_option_is_a_bounded_parse(value):
    try:
        opts = zp_chair_options([("obc_state_share", value)])
    except InputError as e:                 # from Python the option is named as the column; the CLI names the flag
        assert e.column == "obc_state_share" and "\n" not in str(e)
    else:
        v = opts["obc_state_share"]
        assert len(v) <= 10 and re.fullmatch(r"-?[0-9.]+", v) and 0 <= Fraction(v) <= 100


@HYP
@given(st.sampled_from(["tie_break", "sc_st_rounding", "category_order", "nope"]), st.text(max_size=20))
def test_any_text_as_a_choice_option(name, value):
    try:
        zp_chair_options([(name, value)])
    except InputError as e:
        assert (e.column == name or e.option == "--option") and "\n" not in str(e)


@pytest.mark.parametrize("argv, flag, words", [
    (["allot", "--body", "zp-chairs", "--year", "2021"], "--body", "unknown"),
    (["allot", "--body", "zp-chair", "--year", "2020"], "--year", "2020"),
    ([*ALLOT, "--base-year", "2026"], "--base-year", "after the election year"),
    (["allot", "--body", "gp-ward", "--year", "2021", "--units", ROOT / "tests" / "fixtures" / "units" /
      "pradhan_toy.csv", "--population", "p.csv"], "--population", "not --population"),   # gp-pradhan takes it
    ([*ALLOT, "--option", "nope=1"], "--option", "unknown option"),
    ([*ALLOT, "--option", "nope"], "--option", "NAME=VALUE"),
])
def test_flags_are_named_as_flags(tmp_path, argv, flag, words):
    line = refuse(tmp_path, argv, option=flag, words=[words])
    assert "column" not in line and line.startswith(f"reservation: error: {flag}")


def test_explain_names_the_unit_flag(capsys):
    line = assert_refused(run_cli(["explain", "--body", "zp-chair", "--year", "2021", "--unit", "Atlantis"]))
    assert "--unit" in line and "column" not in line


@pytest.mark.parametrize("year", ["1" * 30, "-2021", "20 21", "2021.0", "३०००", "１９４９", ""])
def test_hostile_years_are_argparse_errors_naming_the_flag(tmp_path, year):
    for argv in (["allot", "--body", "zp-chair", "--year", year], [*ALLOT, "--base-year", year]):
        line = refuse(tmp_path, argv, words=["--year" if argv[-2] == "--year" else "--base-year"])
        assert "Traceback" not in line


def test_a_year_in_devanagari_or_full_width_digits_gives_the_same_allotment(tmp_path):
    outs = []
    for i, year in enumerate(["2021", "२०२१", "２０２１"]):
        code, _, err = run_cli(["allot", "--body", "zp-chair", "--year", year, "--base-year", "२०१५",
                                "--out", tmp_path / f"{i}.csv"])
        assert code == 0, err
        outs.append((tmp_path / f"{i}.csv").read_bytes())
    assert outs[0] == outs[1] == outs[2]


def test_version_through_the_installed_command():
    cmd = [str(INSTALLED)] if INSTALLED.exists() else [sys.executable, "-m", "reservation.cli"]
    r = subprocess.run([*cmd, "--version"], capture_output=True, text=True, timeout=120)
    from reservation import __version__
    assert r.returncode == 0 and r.stdout.strip() == f"reservation (reservation-workbench) {__version__}"


def test_the_command_lines_year_bounds_are_the_readers():
    from reservation.cli.commands import YEARS
    from reservation.inputs.units import INT_KINDS
    assert YEARS == INT_KINDS["year"][:2]


@pytest.mark.parametrize("cmd", [["counts", "--body", "zp-chair", "--year", "2021"],
                                 ["allot", "--body", "zp-chair", "--year", "2021"],
                                 ["districts", "--body", "kp-chair", "--year", "2021"]], ids=lambda c: c[0])
@pytest.mark.parametrize("data", [b"", b"  \n\t\n", b"\xef\xbb\xbf"], ids=["empty", "whitespace", "bom"])
def test_an_empty_lots_file_is_refused_by_every_command(tmp_path, cmd, data):
    p = tmp_path / "lots.csv"
    p.write_bytes(data)
    assert_refused(run_cli(cmd + ["--option", f"lots={p}"]), file=p, row=1, option="--option lots",
                   words=["empty"])


@pytest.mark.parametrize("a, b, flag", [("obc_state_share=50", "obc_state_share=150", "--b obc_state_share"),
                                        ("obc_state_share=150", "obc_state_share=50", "--a obc_state_share"),
                                        ("tie_break=code", "tie_break=bogus", "--b tie_break"),
                                        ("tie_break=bogus", "tie_break=code", "--a tie_break")])
def test_diff_names_the_flag_that_carried_the_refused_value(a, b, flag):
    """The same option in --a and --b: the line names the flag whose value was refused, found by the value the
    error carries (InputError.value), not by looking for it in the message (a percentage out of range is not
    quoted there: the first flag used to be named whichever was wrong)."""
    assert_refused(run_cli(["diff", "--body", "zp-chair", "--year", "2021", "--a", a, "--b", b]), option=flag)
