"""Issue 18's fault classes "Unbounded work", "Numbers that mean nothing", "Echoes" and "Header-only and empty
inputs": one case per (command, option, class). Each is refused at once (in-process `run_cli`, so a case that
would run for days fails by hanging, not by a wrong assertion): exit 2, one line, no traceback, the option or
file/row named, nothing written. The bounds come from one table, reservation.inputs.limits.LIMITS."""
from pathlib import Path

import pytest

from conftest import FIXTURES, OutFolder, assert_refused, run_cli
from reservation.base.errors import InputError, bounded, excerpt
from reservation.inputs.limits import LIMITS, MAX_INPUT_BYTES, MAX_SWEEPS

PROJECT = ["project", "--body", "zp-chair", "--year", "2026", "--quiet"]
REPORT = ["report", "--body", "zp-chair", "--year", "2021"]
PUBLISHED = FIXTURES.parent.parent / "data" / "published" / "zp_adhyaksh_2021_final.csv"
BALLOTS = FIXTURES / "dpc" / "rural_tie_ballots.csv"
LONG = "x" * 10_000
HUGE = "1000000000000"


def refused(argv, out_folder=None, **expect):
    line = assert_refused(run_cli(argv), **expect)
    assert len(line) < 1000, len(line)            # never an echo of what was typed
    if out_folder is not None:
        assert out_folder.unchanged()
    return line


# ------------------------------------------------------------------------------------------- unbounded work
@pytest.mark.parametrize("argv, option", [
    (PROJECT + ["--samples", HUGE], "--samples"),
    (PROJECT + ["--samples", str(LIMITS["samples"][1] + 1)], "--samples"),
    (PROJECT + ["--burn-in", HUGE], "--burn-in"),
    (PROJECT + ["--thin", HUGE], "--thin"),
    (PROJECT + ["--check-every", HUGE], "--check-every"),
    (PROJECT + ["--seed", "1" + "0" * 40], "--seed"),
    (PROJECT + ["--samples", "100000", "--thin", "1000"], "--samples"),          # the sweeps in all
    (REPORT + ["--projection", "--projection-samples", HUGE], "--projection-samples"),
    (REPORT + ["--workers", "100000"], "--workers"),
    (REPORT + ["--timeout", HUGE], "--timeout"),
    (["dpc", "seats", "--district", "Mirzapur", "--elected", HUGE], "--elected"),
    (["dpc", "count", "--district", "Mirzapur", "--ballots", BALLOTS, "--seats", HUGE], "--seats"),
    (["dpc", "count", "--district", "Mirzapur", "--ballots", BALLOTS, "--seats", "1", "--electors", HUGE],
     "--electors"),
])
def test_counts_are_bounded(argv, option):
    line = refused(argv, option=option)
    assert "at most" in line or "outside" in line, line


def test_the_sweeps_bound_is_stated():
    line = refused(PROJECT + ["--samples", "100000", "--thin", "1000"])
    assert f"{MAX_SWEEPS:,}" in line


@pytest.mark.parametrize("rows, cols, words", [(LIMITS["ballots"][1] + 1, 2, ["ballots"]),
                                               (1, LIMITS["candidates"][1] + 1, ["candidate"])])
def test_dpc_ballots_and_candidates_are_bounded(tmp_path, rows, cols, words):
    p = tmp_path / "ballots.csv"
    names = [f"C{i}" for i in range(cols)]
    p.write_text("ballot," + ",".join(names) + "\n" + "".join(f"{i}," + ",".join(["0"] * cols) + "\n"
                                                              for i in range(rows)), encoding="utf-8")
    refused(["dpc", "count", "--district", "Mirzapur", "--ballots", p, "--seats", "1"], file=p, words=words)


def test_a_file_over_the_byte_bound_is_refused_before_it_is_read(tmp_path, monkeypatch):
    import reservation.inputs.units as units
    p = tmp_path / "history.csv"
    p.write_text("unit,year,category\n" + "Agra,2015,SC\n" * 20, encoding="utf-8")
    monkeypatch.setattr(units, "MAX_INPUT_BYTES", 100)
    calls = []
    real = units.os.fdopen
    monkeypatch.setattr(units.os, "fdopen", lambda *a, **k: calls.append(a) or real(*a, **k))
    refused(["allot", "--body", "zp-chair", "--year", "2021", "--history", p], file=p, words=["bytes"])
    assert calls == []                              # refused from its size: never opened for reading
    assert MAX_INPUT_BYTES >= 64 * 2**20            # far above any real file


def test_a_file_over_the_row_bound_is_refused(tmp_path, monkeypatch):
    import reservation.inputs.units as units
    p = tmp_path / "history.csv"
    p.write_text("unit,year,category\n" + "Agra,2015,SC\n" * 20, encoding="utf-8")
    monkeypatch.setattr(units, "MAX_INPUT_ROWS", 10)
    refused(["allot", "--body", "zp-chair", "--year", "2021", "--history", p], file=p, words=["lines"])


# ------------------------------------------------------------------------------- numbers that mean nothing
YEAR_COMMANDS = [
    ["allot", "--body", "zp-chair"], ["explain", "--body", "zp-chair", "--unit", "Agra"],
    ["districts", "--body", "kp-chair"], ["counts", "--body", "zp-chair"],
    ["audit", "--body", "zp-chair", "--published", PUBLISHED], ["diff", "--body", "zp-chair"],
    ["project", "--body", "zp-chair", "--quiet"], ["report", "--body", "zp-chair"],
]


@pytest.mark.parametrize("cmd", YEAR_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("year", ["0", "-5", "2150", "99999999999999999999", "nan", "1e309", ""])
def test_years_that_mean_nothing(cmd, year):
    refused(cmd + ["--year", year], option="--year")


@pytest.mark.parametrize("cmd, flag", [
    (["allot", "--body", "zp-chair", "--year", "2021"], "--base-year"),
    (["project", "--body", "zp-chair", "--year", "2026", "--quiet"], "--base-year"),
    (["audit", "--body", "zp-chair", "--year", "2021", "--published", PUBLISHED], "--base-year"),
    (["diff", "--body", "zp-chair", "--year", "2021"], "--a-base-year"),
    (["diff", "--body", "zp-chair", "--year", "2021"], "--b-base-year"),
    (REPORT, "--base-year"),
], ids=lambda v: v if isinstance(v, str) else v[0])
@pytest.mark.parametrize("year", ["0", "-5", "2150", "inf"])
def test_base_years_that_mean_nothing(cmd, flag, year):
    refused(cmd + [flag, year], option=flag)


@pytest.mark.parametrize("sd", ["0", "0.0", "-1", "nan", "NaN", "inf", "-inf", "1e309", "1e-200", "", "7,5",
                                LONG])
def test_obc_sd_that_means_nothing(sd):
    refused(PROJECT + ["--samples", "5", "--obc-sd", sd], option="--obc-sd")


@pytest.mark.parametrize("argv, option", [
    (REPORT + ["--division", ""], "--division"),
    (REPORT + ["--division", "   "], "--division"),
    (["explain", "--body", "zp-chair", "--year", "2021", "--unit", ""], "--unit"),
    (["dpc", "seats", "--district", ""], "--district"),
    (["allot", "--body", "", "--year", "2021"], "--body"),
    (PROJECT + ["--samples", "0"], "--samples"), (PROJECT + ["--samples", "-1"], "--samples"),
    (PROJECT + ["--samples", "nan"], "--samples"), (PROJECT + ["--samples", "1e3"], "--samples"),
    (PROJECT + ["--thin", "0"], "--thin"), (PROJECT + ["--burn-in", "-1"], "--burn-in"),
    (REPORT + ["--projection", "--projection-samples", "0"], "--projection-samples"),
    (REPORT + ["--workers", "0"], "--workers"), (REPORT + ["--timeout", "0"], "--timeout"),
    (REPORT + ["--projection", "--seed", "-1"], "--seed"),
])
def test_empty_and_zero_values(argv, option):
    refused(argv, option=option)


# --------------------------------------------------------------------------------------------------- echoes
@pytest.mark.parametrize("argv, option", [
    (["allot", "--body", LONG, "--year", "2021"], "--body"),
    (["explain", "--body", "zp-chair", "--year", "2021", "--unit", LONG], "--unit"),
    (["dpc", "seats", "--district", LONG], "--district"),
    (REPORT + ["--division", LONG], "--division"),
    (["allot", "--body", "zp-chair", "--year", "2021", "--option", LONG + "=1"], "--option"),
    (["allot", "--body", "zp-chair", "--year", "2021", "--option", "rank_base=" + LONG], "--option"),
    (["allot", "--body", "zp-chair", "--year", "2021", "--option", "lots=/tmp/" + LONG], "--option"),
    (["allot", "--body", "zp-chair", "--year", "2021", "--history", "/tmp/" + LONG], None),
    (["counts", "--body", "zp-chair", "--year", "2021", "--format", LONG], "--format"),
    (["allot", "--body", "zp-chair", "--year", LONG], "--year"),
    (PROJECT + ["--obc-sd", LONG], "--obc-sd"),
    (PROJECT + ["--samples", "9" * 10_000], "--samples"),
])
def test_a_long_value_is_quoted_as_a_short_excerpt(argv, option):
    line = refused(argv, option=option)
    assert "x" * 100 not in line and "9" * 100 not in line, line


@pytest.mark.parametrize("name", ["Agra\x07", "Ag\x1b[31mra", "Agra\u202e", "Agra\x85", "Agra\x7f"])
@pytest.mark.parametrize("flag, cmd", [
    ("--unit", ["explain", "--body", "zp-chair", "--year", "2021"]),
    ("--district", ["dpc", "seats"]),
    ("--division", REPORT),
], ids=lambda v: v if isinstance(v, str) else v[0])
def test_control_characters_in_a_typed_name_are_refused(flag, cmd, name):
    line = refused(cmd + [flag, name], option=flag, words=["control character"])
    assert all(c not in line for c in "\x07\x1b\u202e\x85\x7f"), repr(line)


@pytest.mark.parametrize("flag, header, row", [
    ("--history", "unit,year,category", "{name},2015,SC"),
    ("--pin", "unit,category", "{name},SC"),
    ("--population", "unit,pop,sc,st", "{name},100,1,1"),
])
@pytest.mark.parametrize("name", ['"Agra\x07"', '"Ag\x1b[31mra"', "Agra\u202e", '"A\x85gra"', LONG])
def test_a_file_cell_is_refused_with_file_row_column(tmp_path, out_folder, flag, header, row, name):
    p = tmp_path / "in.csv"
    p.write_text(f"{header}\n{row.format(name=name)}\n", encoding="utf-8")
    line = refused(["allot", "--body", "zp-chair", "--year", "2021", flag, p, "--out", out_folder.target],
                   out_folder, file=p, row=2, column="unit")
    assert "x" * 100 not in line and all(c not in line for c in "\x07\x1b\u202e\x85"), repr(line)


@pytest.mark.parametrize("text, row", [('ballot,"Candidate\x07 A",Candidate B\n1,1,0\n', 1),
                                       ('ballot,Candidate A,Candidate B\n"1\x1b",1,0\n', 2),
                                       ('ballot,Candidate A,Candidate\u202e B\n1,1,0\n', 1)])
def test_dpc_ballots_refuse_control_characters(tmp_path, text, row):
    p = tmp_path / "ballots.csv"
    p.write_text(text, encoding="utf-8")
    refused(["dpc", "count", "--district", "Mirzapur", "--ballots", p, "--seats", "1"], file=p, row=row,
            words=["control character"])


def test_dpc_candidates_refuse_control_characters(tmp_path):
    p = tmp_path / "candidates.csv"
    p.write_text('candidate,municipality\nCandidate A,"Chu\x07nar"\nCandidate B,Chunar\n', encoding="utf-8")
    b = FIXTURES / "dpc" / "mirzapur_urban_ballots.csv"
    refused(["dpc", "count", "--district", "Mirzapur", "--part", "urban", "--ballots", b, "--candidates", p],
            file=p, row=2, column="municipality")


def test_excerpt_and_bounded():
    assert excerpt("x" * 1000) == repr("x" * 60) + "…"
    assert excerpt("a\x07b") == "'a\\x07b'"
    assert excerpt(118) == "118"
    assert len(bounded("y" * 10_000)) < 100 and "\n" not in bounded("a\nb")
    assert len(bounded("ab " * 5000)) <= 600
    e = InputError("unknown " + "ab " * 4000, file="f.csv", row=2, column="unit")
    assert len(str(e)) < 1000 and str(e).startswith("f.csv, row 2")


# ------------------------------------------------------------------------------- header-only and empty inputs
GP = "unit,parent,pop,sc,st,name_en\n"
VARIANTS = {"empty": b"", "header": None, "bom-header": "bom", "whitespace": b"  \n \t\n", "header-blank-lines": "blank"}


def _variant(header: str, kind) -> bytes:
    if kind is None:
        return header.encode()
    if kind == "bom":
        return b"\xef\xbb\xbf" + header.encode()
    if kind == "blank":
        return header.encode() + b"\n\n"
    return kind


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
@pytest.mark.parametrize("cmd", [
    ["allot", "--body", "gp-pradhan", "--year", "2021"], ["counts", "--body", "gp-pradhan", "--year", "2021"],
    ["allot", "--body", "gp-ward", "--year", "2021"], ["allot", "--body", "kp-ward", "--year", "2021"],
    ["allot", "--body", "zp-ward", "--year", "2021"], ["explain", "--body", "gp-pradhan", "--year", "2021",
                                                        "--unit", "1"],
    ["project", "--body", "gp-pradhan", "--year", "2026", "--samples", "5", "--quiet"],
], ids=lambda c: f"{c[0]}-{c[2]}")
def test_header_only_and_empty_units_files(tmp_path, cmd, variant):
    p = tmp_path / "units.csv"
    p.write_bytes(_variant(GP, VARIANTS[variant]))
    line = refused(cmd + ["--units", p], file=p)
    assert ("header" in line) or ("empty" in line), line


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
@pytest.mark.parametrize("cmd, flag", [
    (["audit", "--body", "zp-chair", "--year", "2021"], "--published"),
    (["diff", "--body", "zp-chair", "--year", "2021", "--b-published", PUBLISHED], "--a-published"),
], ids=lambda v: v if isinstance(v, str) else v[0])
def test_header_only_and_empty_published_lists(tmp_path, cmd, flag, variant):
    p = tmp_path / "published.csv"
    p.write_bytes(_variant("unit,category\n", VARIANTS[variant]))
    refused(cmd + [flag, p], file=p)


@pytest.mark.parametrize("flag, header", [("--history", "unit,year,category\n"), ("--pin", "unit,category\n"),
                                          ("--population", "unit,pop,sc,st\n")])
@pytest.mark.parametrize("cmd", [["allot", "--body", "zp-chair", "--year", "2021"],
                                 ["project", "--body", "zp-chair", "--year", "2026", "--samples", "5", "--quiet"]],
                         ids=lambda c: c[0])
@pytest.mark.parametrize("variant", ["empty", "whitespace"])
def test_empty_input_files(tmp_path, out_folder, cmd, flag, header, variant):
    p = tmp_path / "in.csv"
    p.write_bytes(_variant(header, VARIANTS[variant]))
    refused(cmd + [flag, p, "--out", out_folder.target], out_folder, file=p, row=1, words=["empty"])


@pytest.mark.parametrize("flag, header", [("--history", "unit,year,category\n"), ("--pin", "unit,category\n"),
                                          ("--population", "unit,pop,sc,st\n")])
def test_header_only_history_pins_population_are_an_empty_table(tmp_path, flag, header):
    """A header-only history, pin or population file is the sensible empty answer: no history (the run says
    "no history" where the history would be named), no pins, no replaced populations; never a traceback."""
    p = tmp_path / "in.csv"
    p.write_text(header, encoding="utf-8")
    code, out, err = run_cli(["allot", "--body", "zp-chair", "--year", "2021", flag, p])
    assert code == 0 and "Traceback" not in err and out.startswith("unit_code"), err


@pytest.mark.parametrize("variant", ["empty", "whitespace"])
@pytest.mark.parametrize("flag, extra", [("--ballots", []), ("--candidates", ["--part", "urban"]),
                                         ("--lots", [])])
def test_empty_dpc_files(tmp_path, flag, extra, variant):
    p = tmp_path / "in.csv"
    p.write_bytes(VARIANTS[variant])
    argv = ["dpc", "count", "--district", "Mirzapur", "--seats", "1"] + extra
    if flag != "--ballots":
        argv += ["--ballots", BALLOTS]
    refused(argv + [flag, p], file=p)


@pytest.mark.parametrize("variant", ["empty", "whitespace"])
def test_empty_lots_option_file(tmp_path, variant):
    p = tmp_path / "lots.csv"
    p.write_bytes(VARIANTS[variant])
    refused(["allot", "--body", "zp-chair", "--year", "2021", "--option", f"lots={p}"], file=p)


# ------------------------------------------------------------------------- the notebooks' parameter check
@pytest.mark.parametrize("bad", [dict(samples=10**12), dict(samples=0), dict(samples=5.0), dict(obc_sd="0"),
                                 dict(obc_sd=float("nan")), dict(obc_sd=float("inf")), dict(obc_sd="1e309"),
                                 dict(obc_sd=-1), dict(year=0), dict(base_year=-5), dict(seed=True),
                                 dict(body="x" * 10_000)], ids=lambda d: next(iter(d)))
def test_notebook_07_parameters_are_refused_as_its_first_cell_calls_them(bad):
    from reservation import views
    p = dict(body="zp-chair", year=2026, samples=500, seed=0, obc_sd="7.5", history=[], units="", options=[],
             base_year=None)
    p.update(bad)
    with pytest.raises(InputError) as e:
        views.check_notebook("07", **p)
    line = str(e.value)
    assert "\n" not in line and len(line) < 300 and line.startswith(next(iter(bad))), line


@pytest.mark.parametrize("key, bad", [("02", dict(division="")), ("02", dict(base_year=0)),
                                      ("03", dict(unit="Agra\x07")), ("01", dict(year=2150)),
                                      ("05", dict(district="")), ("06", dict(compare_base_year=-5)),
                                      ("08", dict(year=float("nan")))])
def test_every_notebook_parameter_cell_has_the_same_bounds(key, bad):
    import json

    from reservation import views
    nb = next(Path(__file__).resolve().parent.parent.glob(f"notebooks/{key}_*.ipynb"))
    cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    i = next(i for i, c in enumerate(cells) if "parameters" in c.get("metadata", {}).get("tags", []))
    params: dict = {}
    exec("".join(cells[i]["source"]), params)
    params.pop("__builtins__")
    first = next(c for c in cells[i + 1:] if c["cell_type"] == "code")
    assert f'views.check_notebook("{key}"' in "".join(first["source"])        # the notebook calls the check
    views.check_notebook(key, **params)                                       # its defaults pass
    params.update(bad)
    with pytest.raises(InputError) as e:
        views.check_notebook(key, **params)
    assert "\n" not in str(e.value) and str(e.value).startswith(next(iter(bad))), str(e.value)


# ------------------------------------------------------------------------------------ option files (kind path)
@pytest.mark.parametrize("data, words, row", [(b"", ["empty"], 1), (b" \n\t\n", ["empty"], 1),
                                              ('unit\n"Ag\x1bra"\n'.encode(), ["control character"], 2),
                                              (("unit\n" + "y" * 5000 + "\n").encode(), ["at most 4,096"], 2)],
                         ids=["empty", "whitespace", "control", "long"])
def test_the_obc_above_state_option_file(tmp_path, data, words, row):
    p = tmp_path / "above.csv"
    p.write_bytes(data)
    line = refused(["allot", "--body", "kp-chair", "--year", "2021", "--option", f"obc_above_state={p}"],
                   file=p, row=row, words=words)
    assert "\x1b" not in line and "y" * 100 not in line


def test_a_header_only_obc_above_state_file_means_no_district_above_and_says_so(tmp_path):
    p = tmp_path / "above.csv"
    p.write_text("unit\n", encoding="utf-8")
    code, out, err = run_cli(["allot", "--body", "kp-chair", "--year", "2021", "--option", f"obc_above_state={p}"])
    assert code == 0 and "Traceback" not in err and "no group has a share above the State share" in err, err
