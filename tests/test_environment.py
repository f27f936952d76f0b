"""environment.yml (conda users) and pyproject.toml (pip) pin the same packages at the same versions."""
import re
import tomllib

from conftest import ROOT

CONDA_NAMES = {"kaleido": "python-kaleido"}


def pins_pyproject():
    p = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = p["dependencies"] + [r for extra in p["optional-dependencies"].values() for r in extra]
    return dict(r.split("==") for r in reqs)


def pins_environment():
    conda, pip = {}, {}
    for line in (ROOT / "environment.yml").read_text().splitlines():
        m = re.match(r"^\s*-\s+([A-Za-z0-9_.-]+)\s*(==|=)\s*([0-9][^\s]*)\s*$", line)
        if m:
            (pip if m.group(2) == "==" else conda)[m.group(1)] = m.group(3)
    return conda, pip


def test_every_pyproject_pin_is_in_environment_yml_with_the_same_version():
    conda, pip = pins_environment()
    for name, version in pins_pyproject().items():
        got = conda.get(CONDA_NAMES.get(name, name), pip.get(name))
        assert got == version, f"{name}: pyproject {version}, environment.yml {got}"


def test_environment_yml_has_nothing_pyproject_lacks():
    conda, pip = pins_environment()
    known = {CONDA_NAMES.get(n, n) for n in pins_pyproject()} | set(pins_pyproject())
    extra = (set(conda) - {"python"} | set(pip)) - known
    assert not extra, extra


def test_environment_yml_installs_the_project_itself():
    assert re.search(r"^\s*-\s+-e\s+\.\s*$", (ROOT / "environment.yml").read_text(), re.M)
