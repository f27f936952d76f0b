# Two commands for a new user (README): `make demo` and `make test`. Both create .venv and install the project
# (scripts/install.sh: uv where it is installed, else python3 -m venv + pip through a shared wheel folder; no conda
# needed), printing each phase with its elapsed time and each package as it is fetched. The demo installs only the
# runtime packages (.venv/.installed-run); `make test` adds the test packages (.venv/.installed-test) in one pass.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
T0 := $(shell date +%s)
# prints "[make Ns] words": N seconds since make started
say = @printf '[make %3ss] %s\n' "$$(( $$(date +%s) - $(T0) ))" $(1)

.PHONY: demo test install install-test bench clean

$(RUN_STAMP): pyproject.toml scripts/install.sh
	$(call say,"install: the project and its runtime packages (first clone: 2-5 minutes; a second clone: 1-3; progress below)")
	@PYTHON=$(PYTHON) EXPECT="2-5 minutes for a first clone" scripts/install.sh $(VENV) . "the runtime packages"
	@touch $@

$(TEST_STAMP): pyproject.toml scripts/install.sh
	$(call say,"install: the project with its runtime and test packages (first clone: 2-5 minutes; progress below)")
	@PYTHON=$(PYTHON) EXPECT="2-5 minutes for a first clone" scripts/install.sh $(VENV) '.[test]' "the runtime and test packages"
	@touch $@ $(RUN_STAMP)

install: $(RUN_STAMP)
install-test: $(TEST_STAMP)

# One question answered from a fresh clone: the State's counts, the allotment, then why one named district's chair
# is what it is and what that depends on.
DEMO_UNIT ?= Lucknow
demo: $(RUN_STAMP)
	$(call say,"demo 1/3: how many Zila Panchayat chairs of 2021 each category gets (reservation counts)")
	@$(BIN)/reservation counts --body zp-chair --year 2021
	$(call say,"demo 2/3: which district's chair gets which category (reservation allot)")
	@$(BIN)/reservation allot --body zp-chair --year 2021 --out out/zp-chair-2021.csv
	$(call say,"demo 3/3: why $(DEMO_UNIT)'s chair is what it is and what it depends on (reservation explain)")
	@$(BIN)/reservation explain --body zp-chair --year 2021 --unit "$(DEMO_UNIT)"
	$(call say,"demo done. Next: the table and its meta in out/zp-chair-2021.csv and .meta.json;")
	@echo "    another unit: $(BIN)/reservation explain --body zp-chair --year 2021 --unit Varanasi"
	@echo "    every open reading of the law: $(BIN)/reservation options --body zp-chair"
	@echo "    the notebooks: $(BIN)/jupyter lab notebooks/   (README: Commands, Notebooks; docs/README.md)"
	@echo "    the tests: make test (about 5 minutes on an idle 2-core machine)"

# Two workers (pytest-xdist), none on a one-core machine (`make test WORKERS=0` runs in one process). --dist loadfile
# keeps each file (its module fixtures) and each notebook (its cells, in order, in one kernel, then its key-table
# check, which reads that run) in one worker; tests/conftest.py hands the heaviest of them out first, and starts the
# browser test (which mostly waits for JupyterLab and Chromium) in its own process beside the workers, whose copy of
# it reports that process's verdict.
WORKERS ?= $(shell n=$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1); [ "$$n" -ge 2 ] && echo 2 || echo 0)

test: $(TEST_STAMP)
	$(call say,"test: pytest in $(WORKERS) workers (WORKERS=0: one process); about 5 minutes on an idle 2-core machine (9 of CPU)")
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadfile

bench: $(RUN_STAMP)
	$(BIN)/python benchmarks/bench_allot.py

clean:
	rm -rf out .pytest_cache
