"""The ``boardsim`` command: ``bench`` and the subcommands of ``COMMAND_MODULES``."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from boardsim import __version__
from boardsim.api import list_games
from boardsim.bench import main as bench_main

DESCRIPTION = """boardsim: reinforcement-learning environments of three historical board games
(the liberation race, Hispania, Farrapos), numba-compiled, with PettingZoo, Gymnasium
and stable-baselines3 wrappers. The commands play, train, evaluate and study them."""
EPILOG = "`boardsim COMMAND --help` gives a command's options; `boardsim info GAME` a game's."

# Each further subcommand lives in its own module with
# ``add_parser(subparsers) -> None``, which registers the subcommand and sets
# ``func(args) -> int``; heavy imports (torch, ray) belong inside ``func``.
COMMAND_MODULES: tuple[str, ...] = (
    "boardsim.commands.info",
    "boardsim.commands.compile",
    "boardsim.commands.demo",
    "boardsim.commands.balance",
    "boardsim.commands.play",
    "boardsim.commands.replay",
    "boardsim.commands.train",
    "boardsim.commands.eval",
)


def cmd_bench(args: argparse.Namespace) -> int:
    return bench_main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardsim", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"boardsim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, title="commands", metavar="COMMAND")
    bench = sub.add_parser("bench", help="throughput of the compiled engine and the wrappers")
    bench.add_argument("--game", dest="games_list", action="append", choices=list_games())
    bench.add_argument("--seconds", type=float, default=2.0, help="timed window per case")
    bench.add_argument("--json", default=None, help="also write the results to this JSON file")
    bench.set_defaults(func=cmd_bench)
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).add_parser(sub)
    return parser


# what a shell reports for a program whose reader closed the pipe (128 + SIGPIPE)
BROKEN_PIPE_STATUS = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status. A reader that closes the pipe first
    (``boardsim info hispania | head -1``) ends the command quietly with
    :data:`BROKEN_PIPE_STATUS`, as ``cat`` would end, not with a traceback."""
    try:
        args = build_parser().parse_args(argv)
        if getattr(args, "games", 1) is not None and getattr(args, "games", 1) < 1:
            print(f"boardsim {args.command}: --games must be at least 1", file=sys.stderr)
            return 2
        status = int(args.func(args))
        sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
        return status
    except BrokenPipeError:
        # nothing more can be written: point stdout at nothing, so that Python's own flush
        # at exit does not raise again (the Python documentation's "Note on SIGPIPE")
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE_STATUS


if __name__ == "__main__":
    raise SystemExit(main())
