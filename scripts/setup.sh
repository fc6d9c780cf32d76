#!/usr/bin/env bash
# Create .venv (if missing) and install boardsim with its training and test extras.
# torch is installed first and explicitly as the CPU build, so that nothing pulls a CUDA one.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$(command -v python3.11 || command -v python3)}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet "torch==2.13.0"
.venv/bin/python -m pip install --quiet -e ".[train,dev,research]"
