# Two commands for a new user (README): `make demo` and `make test`.
# Both create .venv with python3 -m venv and install the project with pip (no conda needed).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/reservation counts --body zp-chair --year 2021
	$(BIN)/reservation allot --body zp-chair --year 2021 --out out/zp-chair-2021.csv

# Two workers (pytest-xdist), none on a one-core machine (`make test WORKERS=0` runs in one process). --dist loadfile
# keeps each file (its module fixtures) and each notebook (its cells, in order, in one kernel, then its key-table
# check, which reads that run) in one worker; tests/conftest.py hands the heaviest of them out first, and starts the
# browser test (which mostly waits for JupyterLab and Chromium) in its own process beside the workers, whose copy of
# it reports that process's verdict.
WORKERS ?= $(shell n=$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1); [ "$$n" -ge 2 ] && echo 2 || echo 0)

test: $(STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadfile

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_allot.py

clean:
	rm -rf out .pytest_cache
