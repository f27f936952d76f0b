"""Record every body's outputs under many option sets, and every command's files, to prove a rebuild changes
nothing it did not mean to (issue 19 item 5). A maintainer tool, not a test; notes/snapshot.md says more.

    python benchmarks/snapshot.py record DIR [--quick] [--only SUBSTRING ...] [--subprocess]
    python benchmarks/snapshot.py compare OLD NEW  # list the cases and files that differ (exit 1 if any)
    python benchmarks/snapshot.py list [--quick]   # the case names

Run ``record`` before a refactor (on the old commit: ``PYTHONPATH=/old/worktree python benchmarks/snapshot.py
record DIR``; ``PYTHONPATH`` chooses the code under test) and after it, then ``compare``. The cases:
``BODY-OPTION`` and ``*-toy-*``: an allotment through the Python API (table, trace, counts, extras, meta without
``inputs``); ``cli-*``: a command as a user runs it (forked from this process after ``import reservation.cli``,
or ``--subprocess``: ``python -m reservation.cli``), with every file it writes, its stdout, stderr and exit status
(an xlsx as its zip members, sheet XML and cells; a parquet as its table, schema and key-value metadata; both
with the raw file's SHA-256 beside); ``report-*``: the CSV tables beside the report's division pages, written as
its worker writes them (no notebooks, HTML or maps). Inputs are the files of the checkout under test (this
script's when it lacks one). Normalised: the checkouts (``<ROOT>``), the case's folder (``<OUT>``), the derived
inputs (``<INPUTS>``) and the version in a meta's ``software``. ``--quick`` leaves out the slowest cases. The real
gram panchayat case needs ../shared/data (skipped without it).
"""

from __future__ import annotations

import hashlib
import inspect
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("RESERVATION_SHARED", ROOT.parent / "shared"))
FIX = ROOT / "tests" / "fixtures"
INPUTS = "<INPUTS>"              # in a case's arguments: the folder of the inputs derived from shipped files


def code_root() -> Path:
    """The checkout whose ``reservation`` package runs."""
    import reservation
    return Path(reservation.__file__).resolve().parent.parent


# -- the allotments through the Python API (the original cases) ---------------------------------------------------

def _option_cases(body: str) -> list[tuple[str, list]]:
    """The default, then every non-default choice of every choice option, one at a time."""
    import reservation
    rows = reservation.option_table(body).to_dict("records")
    cases = [("default", [])]
    for r in rows:
        if r["choices"] in ("decimal", "path", "decimal_or_empty"):
            continue
        for choice in r["choices"].split(" | "):
            if choice != r["default"]:
                cases.append((f"{r['option']}={choice}", [f"{r['option']}={choice}"]))
    return cases


def _allot(body, year, options, **kw):
    """One allotment through whichever Python API this commit has (``units=`` arrived with the pipeline)."""
    import reservation
    from reservation.inputs.options import parse_assignments
    if "units" in inspect.signature(reservation.allot).parameters:
        return reservation.allot(body, year, options=options, **kw)
    pairs = parse_assignments(options)
    if "units" not in kw:
        return reservation.allot(body, year, options=pairs, **kw)
    from reservation.bodies import get_body          # a commit before the one pipeline (its compat module)
    b = get_body(body, year)
    return b.allot(year, units_path=kw["units"], history_paths=kw.get("history"), options=b.options(pairs))


def cases():
    out = []
    for body, year in (("zp-chair", 2021), ("kp-chair", 2021), ("pp-chair", 2023), ("np-chair", 2023),
                       ("mayor", 2023)):
        for name, opts in _option_cases(body):
            out.append((f"{body}-{name}", body, year, opts, {}))
    out += [
        ("zp-chair-base2010", "zp-chair", 2021, [], {"base_year": 2010}),
        ("zp-chair-obc40", "zp-chair", 2021, ["obc_state_share=40"], {}),
        ("pp-chair-toy", "pp-chair", 2023, [], {"units": str(FIX / "urban" / "toy_npp.csv")}),
    ]
    for body in ("gp-pradhan", "gp-ward", "kp-ward", "zp-ward"):
        for name, opts in _option_cases(body):
            out.append((f"{body}-toy-{name}", body, 2021, opts,
                        {"units": str(FIX / "units" / "pradhan_toy.csv"),
                         "history": [str(FIX / "units" / "pradhan_toy_2015.csv")]}))
    return out


def _write(df, path: Path):
    path.write_text(df.to_csv(index=False, lineterminator="\n"), encoding="utf-8")


def _record_api(folder: Path, only) -> None:
    import warnings

    import pandas as pd
    for name, body, year, opts, kw in cases():
        if not _wanted(name, only):
            continue
        d = folder / name
        d.mkdir(exist_ok=True)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")      # the CLI cases record what a user is told
                a = _allot(body, year, opts, **kw)
        except Exception as e:  # noqa: BLE001 - a refusal is an outcome too
            (d / "error.txt").write_text(f"{type(e).__name__}: {e}\n", encoding="utf-8")
            continue
        _write(a.table, d / "table.csv")
        _write(a.trace, d / "trace.csv")
        _write(a.counts, d / "counts.csv")
        for k, v in sorted(a.extra.items()):
            if isinstance(v, pd.DataFrame):
                _write(v, d / f"extra-{k}.csv")
        meta = {k: v for k, v in a.meta.items() if k != "inputs"}
        (d / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1, sort_keys=True, default=str),
                                     encoding="utf-8")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _record_real_gp(folder: Path) -> None:
    """The real 2015 gram panchayat list (with generated populations). Its names hold a few control characters
    (U+008F in a Hindi name) that the tool refuses as input since the red team's round: they are removed here,
    in the benchmark's input, so that the allotment itself is compared."""
    if not (SHARED / "data" / "history" / "gp_pradhan_2015.csv.gz").is_file():
        return
    import pandas as pd

    from reservation.rules import synthetic
    gps, hist = synthetic.gram_panchayats_2015(SHARED / "data" / "history" / "gp_pradhan_2015.csv.gz")
    for col in gps.columns:
        if not pd.api.types.is_numeric_dtype(gps[col]):
            gps[col] = gps[col].map(lambda v: _CONTROL.sub("", v) if isinstance(v, str) else v)
    d = folder / "gp-pradhan-real2015"
    d.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as t:
        u, h = Path(t) / "u.csv", Path(t) / "h.csv"
        gps.to_csv(u, index=False)
        hist.to_csv(h, index=False)
        try:
            a = _allot("gp-pradhan", 2021, [], units=str(u), history=[str(h)])
        except Exception as e:  # noqa: BLE001 - a refusal is an outcome too
            (d / "error.txt").write_text(_normalise(f"{type(e).__name__}: {e}\n", Path(t)), encoding="utf-8")
            return
    digest = hashlib.sha256(a.table.to_csv(index=False, lineterminator="\n").encode()).hexdigest()
    (d / "table.sha256").write_text(digest + "\n")
    _write(a.table.head(300), d / "table-head.csv")
    _write(a.counts, d / "counts.csv")


# -- the commands, as a user runs them -----------------------------------------------------------------------------

def _p(*parts) -> str:
    """An input file of the checkout under test (as a user names a shipped list, so that the meta shows the path
    the tool gives a shipped file), or of this script's checkout when the code under test has no such file."""
    p = code_root().joinpath(*parts)
    return str(p if p.is_file() else ROOT.joinpath(*parts))


def _pub(name: str) -> str:
    return _p("data", "published", name)


def _hist(name: str) -> str:
    return _p("data", "history", name)


def _nine() -> list[str]:
    return ["--units", _p("tests", "fixtures", "audit", "nine.csv"),
            "--history", _p("tests", "fixtures", "audit", "nine_history_2015.csv")]


def _toy_gp() -> list[str]:
    return ["--units", _p("tests", "fixtures", "units", "pradhan_toy.csv"),
            "--history", _p("tests", "fixtures", "units", "pradhan_toy_2015.csv")]


def _derive_inputs(folder: Path) -> None:
    """Inputs cut from shipped files: the 2005 rows of the block history, as the published list and the history
    (kp-chair 2005 with the whole shipped history is refused: its 2010 row of Karaudikala names a block that was
    not a Kshetra Panchayat in 2005; that refusal is a case too, ``cli-audit-kp-chair-2005``)."""
    lines = Path(_hist("kp-chair.csv")).read_text(encoding="utf-8").splitlines(keepends=True)
    (folder / "kp-chair-2005.csv").write_text(lines[0] + "".join(x for x in lines[1:] if x.split(",")[1] == "2005"),
                                              encoding="utf-8")
BODIES = ("zp-chair", "kp-chair", "gp-pradhan", "gp-ward", "kp-ward", "zp-ward", "pp-chair", "np-chair", "mayor")
SLOW = {"cli-audit-kp-chair-2015", "cli-audit-kp-chair-2010", "cli-audit-kp-chair-2005",
        "cli-audit-kp-chair-2005-rows",
        "cli-project-kp-chair-2026", "gp-pradhan-real2015"}


def _audit_cases() -> list[tuple[str, list]]:
    zf, zp = _pub("zp_adhyaksh_2021_final.csv"), _pub("zp_adhyaksh_2021_provisional.csv")
    a, k5 = "audit --out audit.csv --body", f"{INPUTS}/kp-chair-2005.csv"
    out = [
        ("cli-audit-zp-chair-2021-final", f"{a} zp-chair --year 2021 --published {zf}"),
        ("cli-audit-zp-chair-2021-provisional", f"{a} zp-chair --year 2021 --published {zp}"),
        ("cli-audit-zp-chair-2021-provisional-base1995", f"{a} zp-chair --year 2021 --published {zp} --base-year 1995"),
        ("cli-audit-zp-chair-2021-final-ceil",
         f"{a} zp-chair --year 2021 --published {zf} --option sc_st_rounding=ceil --no-option-search"),
        ("cli-audit-zp-chair-2021-final-json",
         f"audit --body zp-chair --year 2021 --published {zf} --format json --no-option-search"),
        ("cli-audit-zp-chair-2015", f"{a} zp-chair --year 2015 --published {_hist('zp_adhyaksh_2015.csv')}"),
        ("cli-audit-mayor-2023", f"{a} mayor --year 2023 --published {_pub('mayor_2023.csv')}"),
        ("cli-audit-mayor-2017-refused", f"{a} mayor --year 2017 --published {_pub('mayor_2017.csv')}"),
        ("cli-audit-mayor-2023-tie-code",
         f"{a} mayor --year 2023 --published {_pub('mayor_2023.csv')} --option tie_break=code"),
    ]
    out += [(f"cli-audit-kp-chair-{y}", f"{a} kp-chair --year {y} --base-year {y} --published "
             f"{_hist('kp-chair.csv')} --no-option-search") for y in (2015, 2010, 2005)]
    out.append(("cli-audit-kp-chair-2005-rows", f"{a} kp-chair --year 2005 --base-year 2005 --published {k5} "
                f"--history {k5} --no-option-search"))
    out += [(f"cli-audit-nine-{f}", f"{a} zp-chair --year 2021 --published "
             f"{_p('tests', 'fixtures', 'audit', f'nine_{f}.csv')} {' '.join(_nine())}")
            for f in ("match", "count", "order", "rotation", "women", "obc")]
    return _split(out)


def _split(cases) -> list[tuple[str, list]]:
    import shlex
    return [(name, shlex.split(line)) for name, line in cases]


def _diff_cases() -> list[tuple[str, list]]:
    zf, zp = _pub("zp_adhyaksh_2021_final.csv"), _pub("zp_adhyaksh_2021_provisional.csv")
    d = "diff --out diff.csv --body"
    return _split([
        ("cli-diff-zp-chair-2021-published", f"{d} zp-chair --year 2021 --a-published {zf} --b-published {zp}"),
        ("cli-diff-zp-chair-2021-published-noexplain",
         f"{d} zp-chair --year 2021 --a-published {zf} --b-published {zp} --no-explain"),
        ("cli-diff-zp-chair-2021-options",
         f"{d} zp-chair --year 2021 --a sc_st_rounding=floor --b sc_st_rounding=ceil"),
        ("cli-diff-zp-chair-2021-computed-vs-final", f"{d} zp-chair --year 2021 --b-published {zf}"),
        ("cli-diff-kp-chair-2021-base", f"{d} kp-chair --year 2021 --a-base-year 2015 --b-base-year 2005"),
        ("cli-diff-mayor-2023-tie",
         "diff --body mayor --year 2023 --a tie_break=population --b tie_break=code --format json"),
        ("cli-diff-pp-chair-2023-women", f"{d} pp-chair --year 2023 --b general_women=third_of_rest"),
    ])


def _project_cases() -> list[tuple[str, list]]:
    p = "project --quiet --seed 7 --out project.csv --body"
    return _split([
        ("cli-project-zp-chair-2026", f"{p} zp-chair --year 2026 --samples 20"),
        ("cli-project-zp-chair-2026-none", f"{p} zp-chair --year 2026 --samples 10 --constraint none --obc-sd 5"),
        ("cli-project-kp-chair-2026", f"{p} kp-chair --year 2026 --samples 10"),
        ("cli-project-mayor-2028", f"{p} mayor --year 2028 --samples 20"),
        ("cli-project-pp-chair-2028", f"{p} pp-chair --year 2028 --samples 10"),
        ("cli-project-zp-chair-2026-json",
         "project --quiet --seed 3 --body zp-chair --year 2026 --samples 5 --format json"),
    ])


def _allot_cases() -> list[tuple[str, list]]:
    out = [(f"cli-allot-{body}-{year}-{ext}", f"allot --body {body} --year {year} --out allot.{ext}")
           for body, year in (("zp-chair", 2021), ("kp-chair", 2021), ("mayor", 2023))
           for ext in ("csv", "xlsx", "parquet")]
    out += [
        ("cli-allot-zp-chair-2021-hi", "allot --body zp-chair --year 2021 --lang hi --out allot.csv"),
        ("cli-allot-zp-chair-2026-xlsx-hi", "allot --body zp-chair --year 2026 --lang hi --out allot.xlsx"),
        ("cli-allot-zp-chair-2021-stdout", "allot --body zp-chair --year 2021"),
        ("cli-allot-gp-pradhan-toy-parquet",
         f"allot --body gp-pradhan --year 2021 {' '.join(_toy_gp())} --out allot.parquet"),
        ("cli-allot-np-chair-2023-xlsx", "allot --body np-chair --year 2023 --out allot.xlsx"),
    ]
    return _split(out)


def _view_cases() -> list[tuple[str, list]]:
    out = [(f"cli-explain-{body}-{year}-{key}", f"explain --body {body} --year {year} --unit '{unit}'")
           for body, year, unit, key in (
               ("zp-chair", 2021, "Agra", "agra"), ("zp-chair", 2021, "Baghpat", "baghpat"),
               ("zp-chair", 2021, "मिर्ज़ापुर", "mirzapur-hi"), ("kp-chair", 2021, "Chinhat, Lucknow", "chinhat"),
               ("mayor", 2023, "Lucknow", "lucknow"), ("pp-chair", 2023, "Nawabganj, Bareilly", "nawabganj"),
               ("zp-chair", 2026, "Agra", "agra"))]
    out.append(("cli-explain-gp-pradhan-toy", f"explain --body gp-pradhan --year 2021 {' '.join(_toy_gp())} --unit 1"))
    for body, year in (("zp-chair", 2021), ("zp-chair", 2026), ("kp-chair", 2021), ("pp-chair", 2023),
                       ("np-chair", 2023), ("mayor", 2023)):
        out.append((f"cli-counts-{body}-{year}", f"counts --body {body} --year {year}"))
        out.append((f"cli-counts-{body}-{year}-json-arithmetic",
                    f"counts --body {body} --year {year} --format json --arithmetic"))
    out.append(("cli-counts-gp-pradhan-toy", "counts --body gp-pradhan --year 2021 --arithmetic --units "
                + _p("tests", "fixtures", "units", "pradhan_toy.csv")))
    out += [(f"cli-districts-kp-chair-{y}", f"districts --body kp-chair --year {y}") for y in (2021, 2015)]
    out += [(f"cli-divisions-{b}-2023", f"divisions --body {b} --year 2023") for b in ("pp-chair", "np-chair")]
    out += [(f"cli-options-{b}", f"options --body {b}") for b in BODIES]
    return _split(out)


def _dpc_cases() -> list[tuple[str, list]]:
    f = Path(_p("tests", "fixtures", "dpc", "rural_tie_ballots.csv")).parent
    c = "dpc count --district Mirzapur --ballots"
    return _split([
        ("cli-dpc-schedule", "dpc schedule"),
        ("cli-dpc-schedule-json", "dpc schedule --format json"),
        ("cli-dpc-seats-all", "dpc seats --district all"),
        ("cli-dpc-seats-mirzapur-json", "dpc seats --district Mirzapur --format json --option women_rounding=floor"),
        ("cli-dpc-count-lot", f"{c} {f}/rural_tie_ballots.csv --seats 2 --lots {f}/rural_tie_lots.csv"),
        ("cli-dpc-count-needs-lot", f"{c} {f}/rural_tie_ballots.csv --seats 2"),
        ("cli-dpc-count-urban-json", f"{c} {f}/mirzapur_urban_ballots.csv --candidates "
                                     f"{f}/mirzapur_urban_candidates_classes.csv --format json"),
        ("cli-dpc-timeline", "dpc timeline --notification 2021-07-01 --poll 2021-07-20 --completed 2021-07-03"),
    ])


def cli_cases() -> list[tuple[str, list]]:
    return _audit_cases() + _diff_cases() + _project_cases() + _allot_cases() + _view_cases() + _dpc_cases()


_DERIVED: list[Path] = []      # the folder of the derived inputs while record runs


def _normalise(text: str, out: Path | None = None) -> str:
    if out is not None:
        text = text.replace(str(out), "<OUT>")
    for d in _DERIVED:
        text = text.replace(str(d), INPUTS)
    for root in sorted({str(code_root()), str(ROOT)}, key=len, reverse=True):
        text = text.replace(root, "<ROOT>")
    return text


def _meta(text: str) -> str:
    """A meta file with its volatile field (the version in ``software``) normalised; its keys in their order."""
    meta = json.loads(text)
    if isinstance(meta.get("software"), str):
        meta["software"] = meta["software"].split(" ")[0]
    return json.dumps(meta, ensure_ascii=False, indent=1) + "\n"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest() + "\n"


def _xlsx(data: bytes, dest: Path, stem: str) -> None:
    """An xlsx as its zip members (name, SHA-256 of the inflated bytes), its sheets' XML and its cells."""
    import openpyxl
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        members = [f"{i.filename} {hashlib.sha256(z.read(i)).hexdigest()}" for i in z.infolist()]
        for i in z.infolist():
            if i.filename.startswith("xl/worksheets/") and i.filename.endswith(".xml"):
                (dest / f"{stem}.{Path(i.filename).stem}.xml").write_bytes(z.read(i))
    (dest / f"{stem}.members.txt").write_text("\n".join(members) + "\n", encoding="utf-8")
    wb = openpyxl.load_workbook(io.BytesIO(data))
    lines = []
    for ws in wb.worksheets:
        lines.append(f"# sheet {ws.title} dims {ws.dimensions} freeze {ws.freeze_panes}")
        for row in ws.iter_rows(values_only=True):
            lines.append(json.dumps(list(row), ensure_ascii=False, default=str))
    (dest / f"{stem}.cells.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _parquet(data: bytes, dest: Path, stem: str) -> None:
    """A parquet file as its table read back (CSV), its schema and its key-value metadata."""
    import pyarrow.parquet as pq
    t = pq.read_table(io.BytesIO(data))
    meta = {}
    for k, v in (t.schema.metadata or {}).items():
        try:
            meta[k.decode()] = json.loads(v)           # pandas' own metadata is JSON: kept readable
        except ValueError:
            meta[k.decode()] = v.decode("utf-8", "backslashreplace")
    schema = t.schema.remove_metadata()
    (dest / f"{stem}.schema.txt").write_text(schema.to_string() + "\n", encoding="utf-8")
    (dest / f"{stem}.kv.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    _write(t.to_pandas(), dest / f"{stem}.table.csv")


def _keep(src: Path, dest: Path, work: Path) -> None:
    """One file a command wrote, in its canonical form."""
    name, data = src.name, src.read_bytes()
    if name.endswith((".xlsx", ".parquet")):
        (dest / f"{name}.raw.sha256").write_text(_sha(data))
        (_xlsx if name.endswith(".xlsx") else _parquet)(data, dest, name)
        return
    try:
        text = _normalise(data.decode("utf-8"), work)
    except UnicodeDecodeError:
        (dest / f"{name}.sha256").write_text(_sha(data))
        return
    if name.endswith(".meta.json"):
        text = _meta(text)
    (dest / name).write_text(text, encoding="utf-8")


def _child(argv: list, work: Path, out: Path, err: Path) -> int:
    """In the forked child: ``python -m reservation.cli ARGV`` in ``work``, stdout and stderr on files."""
    os.chdir(work)
    for fd, path in ((1, out), (2, err)):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(f, fd)
        os.close(f)
    sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), encoding="utf-8")
    sys.stderr = io.TextIOWrapper(open(2, "wb", closefd=False), encoding="utf-8", errors="backslashreplace")
    sys.argv = [str(code_root() / "reservation" / "cli" / "__main__.py"), *argv]
    from reservation.cli import main
    try:
        return int(main() or 0)
    except SystemExit as e:                            # as the interpreter turns it into an exit status
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1


def _forked(argv: list, work: Path) -> tuple[int, bytes, bytes]:
    """``python -m reservation.cli ARGV`` in a child forked from this process (the package already imported, so
    no second of imports per case; every case still starts from the same state, in its own process)."""
    out, err = work.parent / f"{work.name}.stdout", work.parent / f"{work.name}.stderr"
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:                                       # the child: never returns
        rc = 1
        try:
            rc = _child(argv, work, out, err)
        except BaseException:  # noqa: BLE001 - a traceback, as the interpreter prints it
            import traceback
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(rc)
    rc = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    data = out.read_bytes(), err.read_bytes()
    out.unlink()
    err.unlink()
    return rc, *data


def _spawned(argv: list, work: Path) -> tuple[int, bytes, bytes]:
    """``python -m reservation.cli ARGV`` in a new interpreter (``--subprocess``: exactly as a user runs it)."""
    env = {**os.environ, "PYTHONPATH": str(code_root()), "PYTHONHASHSEED": "0", "COLUMNS": "120",
           "PYTHONIOENCODING": "utf-8"}
    p = subprocess.run([sys.executable, "-m", "reservation.cli", *argv], cwd=work, env=env,
                       capture_output=True, timeout=900)
    return p.returncode, p.stdout, p.stderr


SPAWN = not hasattr(os, "fork")


def _run_cli(name: str, argv: list, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="snap-") as t:
        work = Path(t).resolve() / "work"
        work.mkdir()
        argv = [a.replace(INPUTS, str(_DERIVED[0])) if _DERIVED else a for a in argv]
        rc, stdout, stderr = (_spawned if SPAWN else _forked)(argv, work)
        (dest / "command.txt").write_text(_normalise(" ".join(argv)) + "\n", encoding="utf-8")
        (dest / "exit.txt").write_text(f"{rc}\n")
        for stream, data in (("stdout", stdout), ("stderr", stderr)):
            if data:
                (dest / f"{stream}.txt").write_text(_normalise(data.decode("utf-8", "replace"), work),
                                                    encoding="utf-8")
        for f in sorted(work.rglob("*")):
            if f.is_file():
                _keep(f, dest, work)


# -- the report's tables -------------------------------------------------------------------------------------------

REPORTS = (("zp-chair", 2021, "all"), ("kp-chair", 2021, ("Lucknow", "Mirzapur (Vindhyachal)")),
           ("pp-chair", 2023, ("Agra",)))


def _record_report(folder: Path, only) -> None:
    """The CSV files beside a division page of ``reservation report`` (as its worker writes them)."""
    from reservation.views import division_tables, run_allotment, write_csv
    from reservation.views.places import slug
    for body, year, divisions in REPORTS:
        name = f"report-{body}-{year}"
        if not _wanted(name, only):
            continue
        d = folder / name
        d.mkdir(exist_ok=True)
        r = run_allotment(body, year)
        known = sorted(set(r.table["division"].dropna()))
        for div in known if divisions == "all" else [k for k in known if k in divisions]:
            for part, df in division_tables(r, div).items():
                write_csv(df, d / f"{slug(div)}-{part}.csv")


# -- record, compare -----------------------------------------------------------------------------------------------

def _wanted(name: str, only) -> bool:
    return not only or any(s in name for s in only)


def case_names(quick: bool = False) -> list[str]:
    names = [c[0] for c in cases()] + ["gp-pradhan-real2015"] + [c[0] for c in cli_cases()]
    names += [f"report-{b}-{y}" for b, y, _ in REPORTS]
    return [n for n in names if not (quick and n in SLOW)]


MARKER = "SNAPSHOT"


def _prepare(folder: Path, names: list[str]) -> None:
    """A new folder, or one this script recorded (its marker file): the case folders about to be recorded are
    emptied first (only those, and only in a folder of ours)."""
    import shutil
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        sys.exit(f"snapshot: {folder} is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARKER).is_file():
        sys.exit(f"snapshot: {folder} holds files and no {MARKER} marker: not a snapshot of this script")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MARKER).write_text("recorded by benchmarks/snapshot.py\n")
    for n in names:
        d = folder / n
        if d.is_dir() and not d.is_symlink():
            shutil.rmtree(d)


def record(folder: Path, quick: bool = False, only=()) -> None:
    import time
    _prepare(folder, [n for n in case_names(quick) if _wanted(n, only)])
    start = time.perf_counter()
    import reservation.cli  # noqa: F401 - imported once, before any case runs, for the forked children
    print(f"code under test: {code_root()}; inputs of {ROOT}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="snap-inputs-") as t:
        _DERIVED[:] = [Path(t).resolve()]
        _derive_inputs(_DERIVED[0])
        for name, argv in cli_cases():                 # first: forked from a process that has run nothing yet
            if _wanted(name, only) and not (quick and name in SLOW):
                t0 = time.perf_counter()
                _run_cli(name, argv, folder / name)
                print(f"{name}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        _DERIVED.clear()
    print(f"cli cases: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    _record_api(folder, only)
    if _wanted("gp-pradhan-real2015", only) and not quick:
        _record_real_gp(folder)
    print(f"api cases: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    _record_report(folder, only)
    n = sum(p.is_dir() for p in folder.iterdir())
    print(f"recorded {n} cases in {folder} ({time.perf_counter() - start:.0f} s)")


def compare(old: Path, new: Path) -> int:
    bad = 0
    for d in sorted(p for p in old.iterdir() if p.is_dir()):
        n = new / d.name
        for f in sorted(d.iterdir()):
            g = n / f.name
            if not g.is_file():
                print(f"missing: {d.name}/{f.name}")
                bad += 1
            elif f.read_bytes() != g.read_bytes():
                print(f"differs: {d.name}/{f.name}")
                bad += 1
        if n.is_dir():
            for g in sorted(n.iterdir()):
                if not (d / g.name).exists():
                    print(f"new: {d.name}/{g.name}")
    for n in sorted(p for p in new.iterdir() if p.is_dir() and not (old / p.name).is_dir()):
        print(f"new case: {n.name}")
    print(f"{bad} file(s) differ")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("record", "compare", "list"):
        sys.exit(__doc__)
    global SPAWN
    cmd, rest = argv[0], argv[1:]
    quick = "--quick" in rest
    SPAWN = SPAWN or "--subprocess" in rest
    rest = [a for a in rest if a not in ("--quick", "--subprocess")]
    only = []
    while "--only" in rest:
        i = rest.index("--only")
        only.append(rest[i + 1])
        del rest[i:i + 2]
    if cmd == "record":
        record(Path(rest[0]), quick, only)
    elif cmd == "list":
        print("\n".join(n for n in case_names(quick) if _wanted(n, only)))
    else:
        return compare(Path(rest[0]), Path(rest[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
