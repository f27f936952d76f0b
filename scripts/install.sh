#!/usr/bin/env bash
# Make's install step (`make demo`, `make test`): creates the venv and installs the project into it, printing one
# line per phase with its elapsed time and one line per package fetched. The whole installer output is kept in
# VENV/install.log; on failure its last lines are printed.
#   scripts/install.sh VENV SPEC WHAT      SPEC: '.' (the demo's runtime) or '.[test]'; WHAT: words for the phase
# With uv installed (and NO_UV unset): `uv venv` + `uv pip install` (uv keeps its own cache of wheels). Otherwise
# python3 -m venv + pip, through a wheel folder shared by every clone (WHEELS, default
# ~/.cache/reservation-workbench/wheels): a registry that sends no caching headers leaves pip's own HTTP cache
# empty, so a second clone would download everything again; with the folder it installs offline from it, and
# falls back to the registry when a pin is missing there (a changed pyproject.toml). `rm -r` the folder to free it.
set -euo pipefail
venv=$1 spec=$2 what=$3
python=${PYTHON:-python3}
wheels=${WHEELS:-${XDG_CACHE_HOME:-${HOME:-$venv}/.cache}/reservation-workbench/wheels}
start=$(date +%s)
phase() { printf '[install %3ss] %s\n' "$(( $(date +%s) - start ))" "$*"; }
log=$venv/install.log
if command -v uv >/dev/null 2>&1 && [ -z "${NO_UV:-}" ]; then tool=uv; else tool=pip; fi
if [ ! -x "$venv/bin/python" ]; then
  phase "creating $venv ($tool)"
  if [ "$tool" = uv ]; then uv venv --quiet --python "$python" "$venv"; else "$python" -m venv "$venv"; fi
fi
: >"$log"
# Only the lines that say what is happening (one per package fetched, the builds, the final install); the rest,
# warnings included, is in the log.
show() {
  grep --line-buffered -E '^(Collecting|Processing /|  Downloading|  Using cached|  File was already|Building|Installing collected|Successfully|Resolved|Prepared|Installed|Audited|ERROR|error)' \
    | sed -u -e 's/ (from [^)]*)//' -e 's/^/    /' || true
}
installed() { ls -d "$venv"/lib/python*/site-packages/*.dist-info 2>/dev/null | wc -l; }
attempt() {  # run CMD..., output to the log and, filtered, to the screen; returns its status
  # pip is silent while it unpacks: every 20 s a line says how many packages the venv and the folder hold (1 s sleeps, so
  # that no sleep outlives the script holding its output open)
  ( n=0; while sleep 1; do n=$((n + 1)); [ $((n % 20)) = 0 ] && phase "    ... still working: $(installed) packages in $venv, $(ls "$wheels" 2>/dev/null | wc -l) wheels in the folder"; done ) &
  local ticker=$! ok=0
  "$@" 2>&1 | tee -a "$log" | show || ok=$?
  kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null || true
  return "$ok"
}
run() { attempt "$@" || { phase "FAILED: $*; the last lines of $log:"; tail -n 25 "$log" >&2; exit 1; }; }
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
extra_pins() {  # the requirements of SPEC's extras ('.[test]' -> pytest==..., ...), read from pyproject.toml
  "$venv/bin/python" -c 'import sys, tomllib
extras = sys.argv[1].partition("[")[2].rstrip("]").split(",")
opt = tomllib.load(open("pyproject.toml", "rb"))["project"].get("optional-dependencies", {})
print(" ".join(r for e in extras if e for r in opt.get(e.strip(), [])))' "$spec"
}
if [ "$tool" = uv ]; then
  phase "installing $what with uv: -e $spec (${EXPECT:-})"
  run uv pip install --python "$venv/bin/python" -e "$spec"
elif [ -d "$wheels" ] && phase "installing $what offline from the wheel folder $wheels (pip install --no-index)" \
    && attempt "${pip[@]}" install --progress-bar off --no-index --find-links "$wheels" -e "$spec"; then
  :
elif [ -d "$wheels" ] && [ "$spec" != . ] && extras=$(extra_pins) && [ -n "$extras" ] \
    && phase "the wheel folder lacks a pin; fetching the extras' pins only: $(echo $extras)" \
    && attempt "${pip[@]}" download --progress-bar off --dest "$wheels" $extras \
    && phase "installing $what offline from the wheel folder $wheels (pip install --no-index)" \
    && attempt "${pip[@]}" install --progress-bar off --no-index --find-links "$wheels" -e "$spec"; then
  :  # `make test` after `make demo`: only the test packages were missing (one small resolver pass, not 139)
else
  [ -d "$wheels" ] && phase "the wheel folder $wheels lacks a pin; fetching from the registry"
  phase "fetching $what into $wheels with pip: $spec (${EXPECT:-}); one line per package"
  mkdir -p "$wheels"
  run "${pip[@]}" download --progress-bar off --dest "$wheels" "$spec" "setuptools>=68"
  phase "installing $what from $wheels (pip install --no-index)"
  run "${pip[@]}" install --progress-bar off --no-index --find-links "$wheels" -e "$spec"
fi
phase "done: $what (full log: $log)"
