#!/usr/bin/env bash
# Quick start 2: set up, then lint, check formatting and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
set +e
.venv/bin/python -m pytest -q "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no test: the suite is broken" >&2
  exit 1
fi
exit "$status"
