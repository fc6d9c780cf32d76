#!/usr/bin/env bash
# Quick start 1: set up, then the tour of every game: speed, strength, balance, pictures
# (boardsim demo --help: --games N scales it, --out DIR names the pictures' folder).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh
exec .venv/bin/boardsim demo "$@"
