"""Rewrite the README's demo output from a run of the demo (issue 19: "the README shows
what it prints").

    python scripts/readme_demo.py [--games N]

runs ``python -m boardsim demo --no-progress`` with this checkout's sources and puts
what it printed, with the commit and the machine's load, between the README's
``demo:begin`` and ``demo:end`` marks. ``tests/core/test_demo.py`` holds the block to the
demo's sections and table headings, so a change of the demo's output fails the suite
until this is run again.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BEGIN = "<!-- demo:begin (written by python scripts/readme_demo.py) -->"
END = "<!-- demo:end -->"


def demo_block(printed: str, command: str, commit: str, load: float, threads: str) -> str:
    """The README's block: a sentence saying how the output was made, then the output."""
    return "\n".join(
        [
            BEGIN,
            f"This is what `{command}` printed at commit {commit} on the 2-core machine "
            f"(load average {load:.1f} at the start, NUMBA_NUM_THREADS {threads}; the last "
            "line says how much of the time went to compiling or loading the engines), "
            "written into this file by `python scripts/readme_demo.py`:",
            "",
            "```text",
            printed.rstrip("\n"),
            "```",
            END,
        ]
    )


def replace_block(text: str, block: str) -> str:
    """``text`` with its demo block replaced; a README without the marks is refused."""
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{README} has no demo block: add the lines {BEGIN!r} and {END!r}")
    head, _, rest = text.partition(BEGIN)
    return head + block + rest.partition(END)[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=None, help="the demo's --games")
    args = parser.parse_args(argv)
    words = [sys.executable, "-m", "boardsim", "demo", "--no-progress"]
    shown = ["python", "-m", "boardsim", "demo"]
    if args.games is not None:
        words += ["--games", str(args.games)]
        shown += ["--games", str(args.games)]
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    load = os.getloadavg()[0]
    # this checkout's sources first, then the caller's path (a peer installed with
    # pip install --target, for the peers' table)
    path = [str(ROOT / "src"), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as work:
        done = subprocess.run(words, cwd=work, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        print(done.stderr[-4000:], file=sys.stderr)
        return done.returncode
    printed = done.stdout.replace(str(Path(work).resolve()), "$PWD")
    threads = os.environ.get("NUMBA_NUM_THREADS", "unset")
    block = demo_block(printed, " ".join(shown), commit, load, threads)
    from boardsim.files import atomic_write_text

    atomic_write_text(README, replace_block(README.read_text(encoding="utf-8"), block))
    print(f"{README} written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
