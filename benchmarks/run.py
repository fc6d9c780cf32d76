"""Run the throughput benchmark of every game and write benchmarks/results/latest.json.

    .venv/bin/python benchmarks/run.py [--seconds 2] [--game liberation]

Targets and first readings are in benchmarks/README.md.
"""

from __future__ import annotations

import sys

from boardsim.cli import main

if __name__ == "__main__":
    argv = ["bench", "--json", "benchmarks/results/latest.json", *sys.argv[1:]]
    raise SystemExit(main(argv))
