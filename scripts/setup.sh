#!/usr/bin/env bash
# Create .venv (if missing) and install boardsim with its training, test, research, RLlib,
# OpenSpiel and docs extras (the test suite builds the documentation site and runs OpenSpiel's
# own tests on the games).
# torch is installed first and explicitly as the CPU build, so that nothing pulls a CUDA one.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$(command -v python3.11 || command -v python3)}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet "torch==2.13.0"
.venv/bin/python -m pip install --quiet -e ".[train,dev,research,rllib,openspiel,docs]"
# Headless Chromium and its driver, for the replay viewer's browser test
# (tests/replay/test_html_viewer.py); Debian packages, installed only when missing.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 \
           && apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1; } \
      || echo "setup: could not install chromium; the browser test will be skipped" >&2
  else
    echo "setup: chromium missing and apt-get not usable as root; the browser test will be skipped" >&2
  fi
fi
