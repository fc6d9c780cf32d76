#!/usr/bin/env bash
# Quick start 2: set up, then lint, check formatting, compile every game's engine into numba's
# cache (boardsim compile) and run the whole test suite in parallel workers (pytest-xdist),
# which then only load the compiled code. Arguments go to pytest: `bash scripts/test.sh -m
# "not slow and not subprocess"` is the development tier (README, "Development").
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/python -m boardsim compile
set +e
.venv/bin/python -m pytest -q -n "${BOARDSIM_TEST_WORKERS:-auto}" --dist loadgroup --durations=25 "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no test: the suite is broken" >&2
  exit 1
fi
exit "$status"
