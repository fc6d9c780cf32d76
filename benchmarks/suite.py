"""The test suite's time by tier, one line a run appended to ``benchmarks/results/suite.csv``.

    .venv/bin/python benchmarks/suite.py            # numba's cache as it is (warm after a run)
    .venv/bin/python benchmarks/suite.py --cold     # a fresh, empty cache: what a first run pays

Times, in this order and as ``scripts/test.sh`` runs them: the build step (``boardsim
compile``: every game's entry points into numba's cache), the development tier (``pytest -m
"not slow and not subprocess"``) and the rest (``-m "slow or subprocess"``), each tier in
parallel workers with the suite's worker groups (``-n WORKERS --dist loadgroup``). The tests
counted and failed come from pytest's JUnit report. The CSV keeps every run, so the next
person sees the suite grow; ``--no-record`` only prints. Set-up (``scripts/setup.sh``) and
the lint are not timed here: the note of issue 31 gives a clean clone's whole CI run.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "suite.csv"
TIERS = {
    "development": "not slow and not subprocess",
    "slow or subprocess": "slow or subprocess",
}
FIELDS = [
    "date",
    "commit",
    "cache",
    "workers",
    "build_s",
    "development_s",
    "development_tests",
    "rest_s",
    "rest_tests",
    "total_s",
    "failed",
]


def _commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=ROOT).returncode != 0
    return done.stdout.strip() + ("+changes" if dirty else "")


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, int]:
    start = time.perf_counter()
    status = subprocess.run(cmd, cwd=ROOT, env=env).returncode
    return time.perf_counter() - start, status


def _junit_counts(path: Path) -> tuple[int, int]:
    """(tests, failed or errors) of a JUnit report."""
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root)
    tests = sum(int(s.get("tests", 0)) for s in suites)
    bad = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
    return tests, bad


def measure(cold: bool, workers: str) -> dict[str, object]:
    """Run the build step and both tiers; their seconds and counts."""
    env = dict(os.environ)
    scratch = tempfile.TemporaryDirectory(prefix="suite-")
    if cold:
        env["NUMBA_CACHE_DIR"] = str(Path(scratch.name) / "numba")
    python = sys.executable
    row: dict[str, object] = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M"),
        "commit": _commit(),
        "cache": "cold" if cold else "as found",
        "workers": workers,
    }
    build_s, status = _timed([python, "-m", "boardsim", "compile"], env)
    row["build_s"] = round(build_s)
    failed = int(status != 0)
    for key, (name, marks) in zip(("development", "rest"), TIERS.items(), strict=True):
        report = Path(scratch.name) / f"{key}.xml"
        cmd = [python, "-m", "pytest", "-q", "-m", marks, "-n", workers, "--dist", "loadgroup"]
        seconds, _ = _timed([*cmd, "-p", "no:cacheprovider", f"--junitxml={report}"], env)
        tests, bad = _junit_counts(report)
        row[f"{key}_s"] = round(seconds)
        row[f"{key}_tests"] = tests
        failed += bad
        print(f"{name}: {tests} tests in {seconds:.0f} s", flush=True)
    row["total_s"] = sum(int(row[k]) for k in ("build_s", "development_s", "rest_s"))  # type: ignore[call-overload]
    row["failed"] = failed
    scratch.cleanup()
    return row


def record(row: dict[str, object], path: Path = RESULTS) -> None:
    """Append ``row`` to the CSV (written whole to a temporary file, then renamed)."""
    rows = []
    if path.exists():
        with path.open(newline="") as f:
            rows = list(csv.DictReader(f))
    rows.append({k: str(row[k]) for k in FIELDS})
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cold", action="store_true", help="a fresh, empty numba cache")
    parser.add_argument("--workers", default="auto", help="pytest-xdist workers (default auto)")
    parser.add_argument("--no-record", action="store_true", help="print only, keep the CSV")
    args = parser.parse_args(argv)
    row = measure(args.cold, args.workers)
    print(", ".join(f"{k} {row[k]}" for k in FIELDS))
    if not args.no_record:
        record(row)
        print(f"appended to {RESULTS.relative_to(ROOT)}")
    return 1 if row["failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
