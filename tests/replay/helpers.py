"""Shared helpers of the replay tests: random games written as replays, the CLI commands."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import boardsim
from boardsim.replay import Move, ReplayWriter


def write_random_game(
    path: Path, game: boardsim.Game, seed: int, moves: int | None = None
) -> boardsim.State:
    """Play random legal moves (chance outcomes too, when explicit) and record them."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    with ReplayWriter(path, game, seed) as writer:
        n = 0
        while not state.is_terminal() and (moves is None or n < moves):
            player = state.current_player()
            action = int(rng.choice(state.legal_actions()))
            name = state.action_to_string(action)
            state.apply_action(action)
            writer.record(Move(player, action, name))
            n += 1
    return state


def run_command(argv: list[str]) -> int:
    """``boardsim play|replay ...`` through the commands' own parsers."""
    from boardsim.commands import play, replay

    parser = argparse.ArgumentParser(prog="boardsim")
    sub = parser.add_subparsers(dest="command", required=True)
    play.add_parser(sub)
    replay.add_parser(sub)
    args = parser.parse_args(argv)
    return int(args.func(args))
