"""The two commands a new user types (`make demo`, `make test`) show what they do, phase by phase (issue 22).

`make -n` prints the recipes without running them (a venv folder that does not exist makes every install step due);
scripts/install.sh runs here with a stand-in for the venv's python and for uv that record what they were asked, so
which installer runs, in which order, and what happens on failure is checked without a registry.
"""
import os
import shutil
import stat
import subprocess
import sys
import tomllib

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")

INSTALL = ROOT / "scripts" / "install.sh"


def make_n(target, tmp_path):
    out = subprocess.run(["make", "-n", target, f"VENV={tmp_path / 'v'}"], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    return out.stdout


def test_demo_installs_the_runtime_only_then_answers_a_question_phase_by_phase(tmp_path):
    out = make_n("demo", tmp_path)
    install = [line for line in out.splitlines() if "scripts/install.sh" in line]
    assert len(install) == 1 and " . " in install[0] and "[test]" not in install[0], install
    phases = ["install: the project and its runtime packages", "demo 1/3", "demo 2/3", "demo 3/3", "demo done"]
    at = [out.index(p) for p in phases]
    assert at == sorted(at), "the phases are announced in order"
    assert out.index("demo 3/3") < out.index("reservation explain --body zp-chair --year 2021 --unit") \
        < out.index("demo done")
    for expect in ("first clone: 2-5 minutes", "make test (about 5 minutes"):
        assert expect in out


def test_test_installs_the_test_packages_in_one_pass_and_says_how_long(tmp_path):
    out = make_n("test", tmp_path)
    install = [line for line in out.splitlines() if "scripts/install.sh" in line]
    assert len(install) == 1 and "'.[test]'" in install[0], install
    assert "about 5 minutes" in out and "-m pytest" in out
    assert out.index("scripts/install.sh") < out.index("-m pytest")


def stub(path, body):
    path.write_text("#!/usr/bin/env bash\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def fake_venv(tmp_path, offline_ok=True, download_ok=True):
    """A venv whose python records each pip call in calls.txt. `pip install --no-index` succeeds when offline_ok
    (True, False, or "after_download": once a download ran, as when the wheel folder lacked a pin); `-c` runs the
    real Python."""
    venv = tmp_path / "v"
    (venv / "bin").mkdir(parents=True)
    offline = {True: "exit 0", False: "exit 1", "after_download": f"[ -e {tmp_path}/downloaded ]; exit $?"}[offline_ok]
    stub(venv / "bin" / "python", f"""[ "$1" = -c ] && exec {sys.executable} "$@"
echo "$*" >> {tmp_path}/calls.txt
case "$*" in
  *download*) echo "Collecting pandas==3.1.1 (from reservation-workbench==0.1.0)"; echo "Processing /opt/x/tqdm-4.70.1-py3-none-any.whl (from reservation-workbench==0.1.0)"; touch {tmp_path}/downloaded; {'exit 0' if download_ok else 'echo "ERROR: no such version"; exit 1'};;
  *--no-index*) echo "Installing collected packages: pandas"; {offline};;
esac
""")
    return venv


def install(tmp_path, venv, path=None, spec="."):
    e = {**os.environ, "WHEELS": str(tmp_path / "wheels"), "PATH": path or "/usr/bin:/bin"}
    e.pop("NO_UV", None)
    r = subprocess.run(["bash", str(INSTALL), str(venv), spec, "the runtime packages"], cwd=ROOT,
                       capture_output=True, text=True, env=e, stdin=subprocess.DEVNULL)
    calls = (tmp_path / "calls.txt").read_text().splitlines() if (tmp_path / "calls.txt").exists() else []
    return r, calls


@pytest.fixture
def no_uv():
    if shutil.which("uv", path="/usr/bin:/bin"):
        pytest.skip("uv is installed in /usr/bin or /bin: the pip path cannot be chosen by PATH here")


def test_first_install_fetches_into_the_wheel_folder_then_installs_offline_and_shows_each_package(tmp_path, no_uv):
    r, calls = install(tmp_path, fake_venv(tmp_path))
    assert r.returncode == 0, r.stderr
    assert [c.split()[3] for c in calls] == ["download", "install"], calls
    assert "--no-index" in calls[1] and str(tmp_path / "wheels") in calls[1]
    assert "    Collecting pandas==3.1.1\n" in r.stdout  # one line per package, without pip's "(from ...)"
    assert "    Processing /opt/x/tqdm-4.70.1-py3-none-any.whl\n" in r.stdout  # a wheel from a local index
    lines = [line for line in r.stdout.splitlines() if line.startswith("[install")]
    assert "fetching the runtime packages" in lines[0] and "done: the runtime packages" in lines[-1], lines
    assert (tmp_path / "v" / "install.log").read_text().count("Collecting") == 1


def test_second_install_is_offline_from_the_wheel_folder(tmp_path, no_uv):
    (tmp_path / "wheels").mkdir()
    r, calls = install(tmp_path, fake_venv(tmp_path))
    assert r.returncode == 0, r.stderr
    assert len(calls) == 1 and "--no-index" in calls[0], calls
    assert "offline from the wheel folder" in r.stdout and "fetching" not in r.stdout


def test_a_wheel_folder_lacking_a_pin_falls_back_to_the_registry(tmp_path, no_uv):
    (tmp_path / "wheels").mkdir()
    r, calls = install(tmp_path, fake_venv(tmp_path, offline_ok=False))
    assert r.returncode == 1  # the stand-in's offline install fails every time, the one after download too
    assert [c.split()[3] for c in calls] == ["install", "download", "install"], calls
    assert "lacks a pin; fetching from the registry" in r.stdout


def test_test_after_demo_fetches_only_the_test_pins_then_installs_offline(tmp_path, no_uv):
    (tmp_path / "wheels").mkdir()
    r, calls = install(tmp_path, fake_venv(tmp_path, offline_ok="after_download"), spec=".[test]")
    assert r.returncode == 0, r.stdout + r.stderr
    assert [c.split()[3] for c in calls] == ["install", "download", "install"], calls
    test_pins = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    assert calls[1].split()[-len(test_pins):] == test_pins  # the extras' pins alone, not the project's 19
    assert "fetching the extras' pins only" in r.stdout


def test_a_failed_download_exits_1_with_the_log_tail(tmp_path, no_uv):
    r, calls = install(tmp_path, fake_venv(tmp_path, download_ok=False))
    assert r.returncode == 1
    assert "FAILED" in r.stdout and "ERROR: no such version" in r.stderr
    assert len(calls) == 1


def test_uv_is_used_where_it_is_installed(tmp_path):
    venv = fake_venv(tmp_path)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    stub(bindir / "uv", f'echo "uv $*" >> {tmp_path}/calls.txt\necho "Resolved 120 packages in 1.0s"\n')
    r, calls = install(tmp_path, venv, path=f"{bindir}:/usr/bin:/bin")
    assert r.returncode == 0, r.stderr
    assert calls == [f"uv pip install --python {venv}/bin/python -e ."], calls
    assert "    Resolved 120 packages" in r.stdout and "with uv" in r.stdout
