"""``boardsim compile [GAME ...]``: compile every game's engine ahead of use.

numba compiles a game's code the first time it is called and keeps it in its on-disk
cache; this command does it for every entry point at once (the rules, the envs, the
compiled loops, the searches), one game a worker process, so that the first ``boardsim
play``, ``train`` or test run only loads. A second run finds everything cached and says so.
Where the cache lives is numba's choice: ``NUMBA_CACHE_DIR`` when set, else
``__pycache__`` beside each source. ``boardsim.build.compile_games`` in Python.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from boardsim.api import list_games
from boardsim.build import PARTS, GameReport, compile_games
from boardsim.commands.args import add_command


def add_parser(subparsers: Any) -> None:
    """Register ``boardsim compile``."""
    p = add_command(
        subparsers,
        "compile",
        "compile every game's engine into numba's cache (later runs only load it)",
        __doc__,
    )
    p.add_argument(
        "game", nargs="*", metavar="GAME", help=f"default: every game ({', '.join(list_games())})"
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="games compiled at once, one a process (default: the CPUs, at most the games)",
    )
    p.add_argument(
        "--part",
        action="append",
        choices=PARTS,
        help="only these parts of each game (repeatable; default: all, rules first)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Compile, printing a line a game as it finishes; status 1 when a game failed."""
    if args.workers is not None and args.workers < 1:
        print("boardsim compile: --workers must be at least 1", file=sys.stderr)
        return 2
    unknown = [g for g in args.game if g not in list_games()]
    if unknown:
        known = ", ".join(list_games())
        print(
            f"boardsim compile: unknown game {', '.join(unknown)}; games: {known}", file=sys.stderr
        )
        return 2
    start = time.perf_counter()

    def line(report: GameReport) -> None:
        if report.error:
            print(f"{report.game:<12} FAILED: {report.error}", flush=True)
            return
        parts = ", ".join(f"{p.part} {p.seconds:.0f} s" for p in report.parts)
        done = f"{report.compiled} functions compiled" if report.compiled else "all from the cache"
        print(f"{report.game:<12} {report.seconds:6.0f} s  {done}  ({parts})", flush=True)
        for p in report.parts:
            if p.skipped:
                print(f"{'':<12} {p.part}: {p.skipped}", flush=True)

    reports = compile_games(args.game or None, args.workers, args.part, report=line)
    print(f"{len(reports)} game(s) in {time.perf_counter() - start:.0f} s", flush=True)
    return 1 if any(r.error for r in reports) else 0
