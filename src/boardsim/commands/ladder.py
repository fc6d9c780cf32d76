"""``boardsim ladder GAME [--games N]``: play a game's strength ladder into ``agents/GAME/``.

Each game's agents (random, the heuristic, the shipped networks, MCTS at 50, 200 and 800
simulations) in one ``boardsim eval`` round robin, seats rotated, written to
``agents/GAME/ladder.json`` and ``ladder.csv``; the pairs the file already holds with the
same settings are read back (``--no-reuse`` plays them all). ``GAME --adopt
--rules-version N`` writes the records of a file written before records, from its own
results, without playing. ``--docs`` writes ``docs/agents.md``'s generated blocks. Run
from the root of a boardsim checkout (the files are the checkout's).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardsim.commands.args import add_backend_arguments, add_command
from boardsim.commands.eval import print_result, say_playing
from boardsim.research import agent_pages
from boardsim.research.adopt import AdoptionError
from boardsim.research.ladder import (
    DOCS_PAGE,
    adopt_ladder,
    check_checkout,
    ladder_games,
    ladder_path,
    play_ladder,
)


def add_parser(subparsers: Any) -> None:
    """Register ``boardsim ladder``."""
    p = add_command(
        subparsers,
        "ladder",
        "play a game's strength ladder (agents/GAME/ladder.json) or write docs/agents.md",
        __doc__,
    )
    p.add_argument("game", nargs="?", choices=ladder_games())
    p.add_argument("--games", type=int, default=None, help="games a pair (a level)")
    p.add_argument(
        "--no-reuse",
        action="store_true",
        help="play every pair again (default: read back those the ladder file holds with "
        "the same settings)",
    )
    p.add_argument(
        "--adopt",
        action="store_true",
        help="write the records of the pairs a ladder file written before records holds, "
        "from its own results, without playing (with --rules-version)",
    )
    p.add_argument(
        "--rules-version",
        type=int,
        default=None,
        metavar="N",
        help="--adopt: the version of the game's rules the ladder file was played at (you "
        "vouch for it; it must be today's)",
    )
    p.add_argument(
        "--docs",
        action="store_true",
        help="write docs/agents.md's generated blocks (python -m boardsim.research.agent_pages)",
    )
    add_backend_arguments(p)
    p.set_defaults(func=run, parser=p)


def _misused(args: argparse.Namespace) -> str | None:
    """What is wrong with the flags given together, or None."""
    if args.game is None and not args.docs:
        return "name a game, or --docs"
    if args.adopt and (args.game is None or args.rules_version is None):
        return "--adopt needs a game and --rules-version N"
    if args.adopt and (args.games is not None or args.no_reuse):
        return "--adopt plays nothing: drop --games and --no-reuse"
    if args.rules_version is not None and not args.adopt:
        return "--rules-version is for --adopt"
    return None


def _adopt(args: argparse.Namespace) -> int:
    try:
        adoption = adopt_ladder(args.game, args.rules_version)
    except AdoptionError as exc:
        print(f"ladder: not adopted: {exc}", file=sys.stderr)
        return 2
    what = "cells" if adoption.result.mode == "cooperative" else "pairs"
    print(
        f"{ladder_path(args.game)}.json: adopted {len(adoption.adopted)} {what} "
        f"(rules version {args.rules_version})",
        file=sys.stderr,
    )
    for line in adoption.refused:
        print(f"  not adopted (played again by the next run): {line}", file=sys.stderr)
    return 0


def _play(args: argparse.Namespace) -> int:
    try:
        result, prior = play_ladder(
            args.game, args.games, not args.no_reuse, say_playing, args.backend, args.address
        )
    except ValueError as exc:
        print(f"boardsim ladder: {exc}", file=sys.stderr)
        return 2
    print_result("ladder", result, prior)
    path = ladder_path(args.game)
    print(f"written {path}.csv and {path}.json")
    return 0


def run(args: argparse.Namespace) -> int:
    misused = _misused(args)
    if misused:
        args.parser.error(misused)
    try:
        check_checkout()
    except FileNotFoundError as exc:
        print(f"boardsim ladder: {exc}", file=sys.stderr)
        return 2
    if args.adopt:
        status = _adopt(args)
    elif args.game is not None:
        status = _play(args)
    else:
        status = 0
    if status == 0 and args.docs:
        changed = agent_pages.write_docs()
        print(f"{DOCS_PAGE} {'written' if changed else 'unchanged'}", file=sys.stderr)
    return status
