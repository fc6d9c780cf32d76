"""``boardsim info GAME``: what a game is and every option it takes.

Prints the title, the players, the action count, the observation size, the default
decision limit and the Gymnasium id, then each option with its default, the values it
allows and what it does (``boardsim.game_info(GAME)`` in Python). ``-o NAME=VALUE``
describes the game made with those options (``-o num_players=3``); ``--json`` prints
the same as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from boardsim.api import game_info, list_games
from boardsim.commands.args import add_command
from boardsim.commands.train import add_option_argument
from boardsim.core.options import option_words


def add_parser(subparsers: Any) -> None:
    """Register ``boardsim info``."""
    p = add_command(
        subparsers,
        "info",
        "a game's title, players, options (defaults, allowed values), sizes, Gymnasium id",
        __doc__,
    )
    p.add_argument("game", choices=list_games())
    add_option_argument(p)
    p.add_argument("--json", action="store_true", help="print it as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the game's description; a bad option exits with status 2, saying why."""
    try:
        info = game_info(args.game, **option_words(args.option))
    except ValueError as exc:
        print(f"boardsim info: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(info.to_dict(), indent=2, default=repr) if args.json else info.text())
    return 0
