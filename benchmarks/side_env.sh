#!/usr/bin/env bash
# The Python 3.12 side environment of the peers that need it (EnvPool 1.2.7 needs Python 3.12
# or newer; the project runs on 3.11): benchmarks/.side-py312, with EnvPool and numpy only.
# benchmarks/vector.py runs it when missing and steps EnvPool there
# (benchmarks/envpool_peers.py). Python 3.12 is found as python3.12 on the PATH, else in
# pyenv's versions; PYTHON312=/path/to/python3.12 overrides.
set -euo pipefail
cd "$(dirname "$0")"
works() { [ -n "$1" ] && "$1" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; }
PY=${PYTHON312:-}
if ! works "$PY"; then
  PY=""
  for candidate in "$(command -v python3.12 || true)" \
      $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3 2>/dev/null); do
    if works "$candidate"; then PY=$candidate; break; fi
  done
fi
if [ -z "$PY" ]; then
  echo "side_env: no working Python 3.12 found (python3.12 on the PATH, pyenv, or PYTHON312=...)" >&2
  exit 1
fi
if [ ! -x .side-py312/bin/python ]; then
  rm -rf .side-py312.tmp
  "$PY" -m venv .side-py312.tmp
  .side-py312.tmp/bin/python -m pip install --quiet --upgrade pip
  .side-py312.tmp/bin/python -m pip install --quiet "envpool==1.2.7" numpy
  mv .side-py312.tmp .side-py312
fi
.side-py312/bin/python -c "import envpool; print('side_env: envpool', envpool.__version__)"
