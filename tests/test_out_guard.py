"""The one output guard (reservation/output/guard.py) behind every command that writes (issues 18 and 19).

For each writing command (allot, audit, diff and project --out FILE, report --out DIR) and the library writers:
a file the tool did not write is refused (a user's CSV with no meta beside it, a table whose meta is not ours),
the package's own data is refused (``--out data/districts.csv`` run from the checkout, by absolute path, through
``reservation/data`` and through a link the user made), also with ``--force``, and stays byte-identical; a target
that is a symbolic link is refused and the file it points at is unchanged; a previous output of ours (table + our
meta) is replaced; ``--force`` replaces a user's file. Each refusal: one line on stderr naming ``--out`` and a
short excerpt of the path, exit 2, nothing written.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pandas as pd
import pytest

from conftest import FIXTURES, ROOT, OutFolder, assert_refused, run_cli, snapshot
from reservation.output import tables as output, guard as outguard
from reservation.base.errors import InputError

AUDIT = FIXTURES / "audit"
DATA = ROOT / "data"

COMMANDS = {
    "allot": ["allot", "--body", "zp-chair", "--year", "2021"],
    "audit": ["audit", "--body", "zp-chair", "--year", "2021", "--published", AUDIT / "nine_match.csv",
              "--units", AUDIT / "nine.csv", "--history", AUDIT / "nine_history_2015.csv", "--no-option-search"],
    "diff": ["diff", "--body", "zp-chair", "--year", "2021", "--units", AUDIT / "nine.csv",
             "--history", AUDIT / "nine_history_2015.csv", "--a", "division_saturation=on", "--b",
             "division_saturation=off"],
    "project": ["project", "--body", "zp-chair", "--year", "2026", "--samples", "2", "--burn-in", "0", "--thin",
                "1", "--quiet"],
    "design": ["design", "--body", "zp-chair", "--year", "2021", "--no-probabilities"],
}
WRITERS = sorted(COMMANDS)
OUR_META = '{"software": "reservation-workbench 0.1.0"}\n'


def run(command, out, *extra):
    return run_cli([*COMMANDS[command], "--out", out, *extra])


def _digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.fixture
def shipped_data():
    """The package's data folder before the test; after it, every file byte-identical and no new file (a new file
    a failing test left is removed, a changed file restored, so that the repository is never left changed)."""
    def listing():                       # not the byte-code Python may write while the test imports a module
        return {p for d in (DATA, ROOT / "reservation", ROOT / "notebooks") for p in d.rglob("*")
                if "__pycache__" not in p.parts and ".ipynb_checkpoints" not in p.parts}
    before = {p: p.read_bytes() for p in DATA.rglob("*") if p.is_file() and not p.is_symlink()}
    names = listing()
    yield before
    changed = [p for p, b in before.items() if not p.exists() or p.read_bytes() != b]
    for p in changed:
        p.write_bytes(before[p])
    new = listing() - names
    for p in sorted(new, reverse=True):
        if p.is_dir() and not p.is_symlink():
            p.rmdir()
        else:
            p.unlink()
    assert not changed and not new, (changed, new)


# ------------------------------------------------------------------------------------------- files not ours

@pytest.mark.parametrize("command", WRITERS)
def test_a_users_csv_without_a_meta_of_ours_is_refused(tmp_path, command):
    mine = tmp_path / "mine.csv"
    mine.write_text("unit,category\nAgra,SC\n", encoding="utf-8")
    before = snapshot(tmp_path)
    assert_refused(run(command, mine), option="--out", words=["mine.csv", "not written by this tool", "--force"])
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", WRITERS)
def test_a_table_whose_meta_is_not_ours_is_refused(tmp_path, command):
    mine = tmp_path / "mine.csv"
    mine.write_text("unit,category\nAgra,SC\n", encoding="utf-8")
    (tmp_path / "mine.meta.json").write_text('{"software": "another-tool 2.0"}\n', encoding="utf-8")
    before = snapshot(tmp_path)
    assert_refused(run(command, mine), option="--out", words=["mine.csv", "not written by this tool"])
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", WRITERS)
def test_a_previous_output_of_ours_is_replaced(tmp_path, command):
    folder = OutFolder(tmp_path)                 # result.csv with our meta beside it, and the user's notes.txt
    code, out, err = run(command, folder.target)
    assert code == 0, err
    after = snapshot(folder.dir)
    assert after["notes.txt"] == folder.before["notes.txt"]
    assert after["result.csv"] != folder.before["result.csv"]
    meta = json.loads((folder.dir / "result.meta.json").read_text(encoding="utf-8"))
    assert meta["software"].startswith("reservation-workbench") and meta["body"] == "zp-chair"
    assert sorted(after) == sorted(folder.before)                   # no temporary file, no other file


@pytest.mark.parametrize("command", WRITERS)
def test_force_replaces_a_users_file(tmp_path, command):
    mine = tmp_path / "mine.csv"
    mine.write_text("unit,category\nAgra,SC\n", encoding="utf-8")
    (tmp_path / "mine.meta.json").write_text('{"my": "notes"}\n', encoding="utf-8")
    code, out, err = run(command, mine, "--force")
    assert code == 0, err
    assert mine.read_text(encoding="utf-8").startswith("unit_code,")
    assert json.loads((tmp_path / "mine.meta.json").read_text(encoding="utf-8"))["software"].startswith(
        "reservation-workbench")


# ------------------------------------------------------------------------------------------- the package's data

@pytest.mark.parametrize("command", WRITERS)
@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "force"])
def test_the_shipped_district_table_is_refused_from_the_checkout(command, force, monkeypatch, shipped_data):
    """The issue's case: ``--out data/districts.csv`` run from the checkout replaced the table every run reads."""
    monkeypatch.chdir(ROOT)
    assert (DATA / "districts.csv").is_file()
    assert_refused(run(command, "data/districts.csv", *force), option="--out",
                   words=["data/districts.csv", "package's own data folder", "even with --force"])
    assert run_cli(["counts", "--body", "zp-chair", "--year", "2021"])[0] == 0     # every run still reads it


@pytest.mark.parametrize("command", WRITERS)
@pytest.mark.parametrize("target", [
    lambda tmp: DATA / "districts.csv",                                   # by absolute path
    lambda tmp: ROOT / "reservation" / "data" / "districts.csv",          # through the package's link
    lambda tmp: DATA / "a-new-table.csv",                                 # a new file in the data folder
    lambda tmp: DATA / "history" / "new" / "x.parquet",                   # a new folder in it
    lambda tmp: ROOT / "reservation" / "mine.xlsx",                       # the package's own folder
    lambda tmp: tmp / "to-data" / "districts.csv",                        # a link of the user's to data/
], ids=["absolute", "through-reservation-data", "new-file", "new-folder", "package", "users-link"])
def test_the_package_data_is_refused_by_any_path_even_with_force(tmp_path, command, target, shipped_data):
    (tmp_path / "to-data").symlink_to(DATA)
    for force in ((), ("--force",)):
        assert_refused(run(command, target(tmp_path), *force), option="--out", words=["package's own"])


def test_the_guard_knows_the_package_folders():
    roots = outguard.protected_roots()
    assert (ROOT / "reservation").resolve() in roots and DATA.resolve() in roots
    assert outguard.in_package(ROOT / "reservation" / "data" / "districts.csv") == DATA.resolve()
    assert outguard.in_package(ROOT / "README.csv") is None and outguard.in_package(ROOT / "out" / "x.csv") is None


# ------------------------------------------------------------------------------------------- links

@pytest.mark.parametrize("command", WRITERS)
@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "force"])
def test_a_symlink_target_is_refused_and_its_file_unchanged(tmp_path, command, force):
    real = tmp_path / "real.csv"
    real.write_text("unit,category\nAgra,SC\n", encoding="utf-8")
    (tmp_path / "real.meta.json").write_text(OUR_META, encoding="utf-8")      # even a table of ours
    out = tmp_path / "out"
    out.mkdir()
    (out / "link.csv").symlink_to(real)
    before = snapshot(tmp_path)
    assert_refused(run(command, out / "link.csv", *force), option="--out", words=["link.csv", "symbolic link"])
    assert snapshot(tmp_path) == before and (out / "link.csv").is_symlink()


@pytest.mark.parametrize("command", ["allot", "audit"])
def test_a_symlink_meta_file_is_refused(tmp_path, command):
    real = tmp_path / "real.meta.json"
    real.write_text(OUR_META, encoding="utf-8")
    (tmp_path / "t.meta.json").symlink_to(real)
    before = snapshot(tmp_path)
    assert_refused(run(command, tmp_path / "t.csv", "--force"), option="--out", words=["t.meta.json", "symbolic"])
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", ["allot", "project"])
def test_no_file_is_created_through_a_dangling_link(tmp_path, command):
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
    assert_refused(run(command, tmp_path / "gone" / "sub" / "x.csv"), option="--out",
                   words=["gone", "symbolic link to nothing"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gone"] and not (tmp_path / "nowhere").exists()
    (tmp_path / "x.csv").symlink_to(tmp_path / "nowhere.csv")                # the target itself dangles
    assert_refused(run(command, tmp_path / "x.csv", "--force"), option="--out", words=["symbolic link"])
    assert not (tmp_path / "nowhere.csv").exists()


def test_a_linked_folder_the_user_gave_is_followed(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path / "real")
    code, _, err = run("allot", tmp_path / "linked" / "zp.csv")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["zp.csv", "zp.meta.json"]


def test_a_long_path_is_quoted_as_a_short_excerpt(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    long = blocker / "/".join(["d" * 200] * 15) / "x.csv"           # 3 KB of path under a regular file
    line = assert_refused(run("allot", long), option="--out", words=["not a folder"])
    assert len(line) < 600 and "..." in line


# ------------------------------------------------------------------------------------------- report --out DIR

REPORT = ["report", "--body", "zp-chair", "--year", "2021", "--division", "Lucknow", "--no-progress"]


@pytest.mark.parametrize("out", ["data", "data/report", "reservation/data/report", "reservation", "notebooks/r"])
def test_a_report_into_the_package_folders_is_refused_even_with_force(out, monkeypatch, shipped_data):
    monkeypatch.chdir(ROOT)
    for force in ((), ("--force",)):
        assert_refused(run_cli([*REPORT, "--out", out, *force]), option="--out", words=["package's own"])


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "force"])
def test_a_report_folder_that_is_a_link_is_refused(tmp_path, force):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "notes.txt").write_text("mine")
    (tmp_path / "rep").symlink_to(tmp_path / "real")
    before = snapshot(tmp_path)
    assert_refused(run_cli([*REPORT, "--out", tmp_path / "rep", *force]), option="--out",
                   words=["rep", "symbolic link"])
    assert snapshot(tmp_path) == before


def test_a_report_folder_of_the_users_is_refused_with_the_flag_named(tmp_path):
    (tmp_path / "rep").mkdir()
    (tmp_path / "rep" / "notes.txt").write_text("mine")
    before = snapshot(tmp_path)
    assert_refused(run_cli([*REPORT, "--out", tmp_path / "rep"]), option="--out",
                   words=["holds no report of this tool", "--force"])
    assert snapshot(tmp_path) == before


def _small_notebook(path: Path) -> Path:
    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell('body = "zp-chair"\nyear = 2021\ndivision = "all"\nbase_year = 2015\n'
                                       'options = []\nhistory = []\nunits = ""')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell('print("ran", division)')]
    nbformat.write(nb, path)
    return path


def test_report_force_writes_into_a_users_folder_and_keeps_its_files(tmp_path, monkeypatch):
    from reservation import report
    monkeypatch.setattr(report, "DIVISION_NOTEBOOK", _small_notebook(tmp_path / "small.ipynb"))
    out = tmp_path / "rep"
    (out / "sub").mkdir(parents=True)
    (out / "notes.txt").write_text("mine")
    (out / "sub" / "keep.csv").write_text("a,b\n")
    mine = {k: v for k, v in snapshot(out).items() if k != "sub"}
    argv = [*REPORT, "--out", out, "--format", "ipynb", "--no-state-page", "--workers", "1"]
    code, _, err = run_cli([*argv, "--force"])
    assert code == 0, err
    after = snapshot(out)
    assert {k: after[k] for k in mine} == mine                       # the user's files untouched
    assert (out / report.MARKER).is_file() and (out / "index.html").is_file()
    assert not [p for p in out.iterdir() if ".tmp" in p.name]
    assert_refused(run_cli(argv), option="--out", words=["--force"])  # without it: still the user's folder


# ------------------------------------------------------------------------------------------- the library writers

TABLE = pd.DataFrame({"unit_code": [1, 2], "category": ["SC", "UR"]})


def test_write_table_follows_the_same_rules(tmp_path, shipped_data):
    for target in (DATA / "districts.csv", ROOT / "reservation" / "data" / "x.parquet"):
        with pytest.raises(InputError, match="package's own"):
            output.write_table(TABLE, target, {}, force=True)
    (tmp_path / "real.csv").write_text("mine\n")
    (tmp_path / "link.csv").symlink_to(tmp_path / "real.csv")
    with pytest.raises(InputError, match="symbolic link"):
        output.write_table(TABLE, tmp_path / "link.csv", {}, force=True)
    with pytest.raises(InputError, match="not written by this tool"):
        output.write_table(TABLE, tmp_path / "real.csv", {})
    assert (tmp_path / "real.csv").read_text() == "mine\n"
    with pytest.raises(InputError, match="NUL"):
        output.write_table(TABLE, str(tmp_path / "a\x00b.csv"), {})
    output.write_table(TABLE, tmp_path / "real.csv", {}, force=True)
    output.write_table(TABLE, tmp_path / "real.csv", {"again": 1})           # now ours: no force needed
    assert (tmp_path / "real.csv").read_text().startswith("unit_code,")


def _writers(tmp_path):
    """Each library writer that takes a path, as (name, write(path, force)); refusals come before any drawing,
    so the map writers are given no real table."""
    from matplotlib.figure import Figure

    from reservation import views
    from reservation.views import maps
    from reservation.views.maps.style import save_figure

    def figure(p, force):
        fig = Figure(figsize=(1, 1))
        fig.add_subplot().plot([0, 1], [0, 1])
        save_figure(fig, png=p, force=force)
    return [("write_csv", lambda p, force: views.write_csv(TABLE, p, force=force)),
            ("write_geojson", lambda p, force: views.write_geojson(None, p, force=force)),
            ("static_map", lambda p, force: maps.static_map(None, png_path=p, force=force)),
            ("write_static_maps", lambda p, force: views.write_static_maps(None, str(p)[:-len("-en.png")],
                                                                           force=force)),
            ("save_figure", figure)]


def test_the_view_writers_refuse_package_files_links_and_existing_files(tmp_path, shipped_data):
    for name, write in _writers(tmp_path):
        for target in (DATA / "districts-en.png", ROOT / "reservation" / "x-en.png"):
            with pytest.raises(InputError, match="package's own"):
                write(target, True)
        real = tmp_path / f"{name}-real-en.png"
        real.write_bytes(b"the user's picture")
        link = tmp_path / f"{name}-link-en.png"
        link.symlink_to(real)
        with pytest.raises(InputError, match="symbolic link"):
            write(link, True)
        with pytest.raises(InputError, match="not written by this tool"):
            write(real, False)
        assert real.read_bytes() == b"the user's picture" and link.is_symlink()


def test_the_view_writers_replace_a_file_with_force(tmp_path):
    from matplotlib.figure import Figure

    from reservation import views
    from reservation.views.maps.style import save_figure
    p = tmp_path / "t.csv"
    p.write_text("old\n")
    views.write_csv(TABLE, p, force=True)
    assert p.read_bytes() == "\ufeffunit_code,category\n1,SC\n2,UR\n".encode("utf-8")
    png = tmp_path / "f.png"
    png.write_bytes(b"old")
    fig = Figure(figsize=(1, 1))
    save_figure(fig, png=png, force=True)
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["f.png", "t.csv"]         # no temporary file left
