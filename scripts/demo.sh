#!/usr/bin/env bash
# Quick start 1: set up, then play a few hundred games of every game (random vs greedy).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/boardsim demo "$@"
