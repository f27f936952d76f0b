"""`make test` must never skip its browser test silently: tests/conftest.py's pytest_terminal_summary hook
names, at the end of the run, every test skipped for want of Chromium."""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

TESTS = '''
import pytest

@pytest.mark.skipif(True, reason="Chromium is not installed (apt-get install -y chromium)")
def test_in_a_browser():
    pass

def test_plain():
    pass

@pytest.mark.skip(reason="something else")
def test_other():
    pass
'''


def run(tmp_path, text, *args):
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_x.py").write_text(text, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args, "--rootdir",
                        str(tmp_path), "-c", str(tmp_path / "none.ini"), str(tmp_path)], capture_output=True, text=True,
                       timeout=300, cwd=tmp_path, env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    return r.stdout


def test_a_chromium_skip_is_announced_at_the_end(tmp_path):
    (tmp_path / "none.ini").write_text("[pytest]\n")
    out = run(tmp_path, TESTS)
    tail = out[out.index("browser tests skipped"):]
    assert "test_x.py::test_in_a_browser" in tail and "Chromium is not installed" in tail
    assert "test_other" not in tail and "1 browser test(s) did not run" in tail


def test_a_chromium_skip_in_a_worker_is_announced_at_the_end(tmp_path):
    """`make test` runs the tests in pytest-xdist workers: the skip comes back to the controller as a report, and
    the hook must still name it."""
    pytest.importorskip("xdist", reason="pytest-xdist (the test extra) is not installed")
    (tmp_path / "none.ini").write_text("[pytest]\n")
    out = run(tmp_path, TESTS, "-p", "xdist", "-n", "1")
    tail = out[out.index("browser tests skipped"):]
    assert "test_x.py::test_in_a_browser" in tail and "Chromium is not installed" in tail
    assert "test_other" not in tail and "1 browser test(s) did not run" in tail


def test_no_announcement_without_such_a_skip(tmp_path):
    (tmp_path / "none.ini").write_text("[pytest]\n")
    out = run(tmp_path, "def test_plain():\n    pass\n")
    assert "browser tests skipped" not in out and "1 passed" in out
