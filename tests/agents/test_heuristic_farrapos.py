"""Farrapos's compiled heuristic: legal and repeatable under every rule option, never stuck
choosing and cancelling, and much stronger than random play from either side."""

from __future__ import annotations

import pytest

import boardsim
from boardsim.agents import load
from boardsim.core.batch import play_games
from boardsim.games.farrapos import layout as F

from .heuristic_positions import check_legal_and_pure, positions

OPTION_SETS = [
    {},
    {"siege": True, "port_transport": True},
    {"final_tie": "empire", "reward": "vp_difference", "victory_vp": 18},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["basic", "advanced", "scoring"])
def test_actions_are_legal_leave_the_state_alone_and_repeat(options: dict) -> None:
    game = boardsim.make_game("farrapos", **options)
    assert check_legal_and_pure(game, games=6) > 300


def test_a_chosen_attack_or_march_is_carried_out_not_cancelled() -> None:
    game = boardsim.make_game("farrapos", siege=True, port_transport=True)
    agent = load("heuristic", game)
    chosen = cancelled = 0
    for state in positions(game, games=10, explore=0.0, seed=4):
        mode = int(state.array[F.MODE])
        if mode in (F.M_ATTACK, F.M_MOVE):
            a = agent.act_state(state)
            chosen += a == F.A_CONFIRM
            cancelled += a == F.A_CANCEL
    assert chosen > 50 and cancelled == 0


@pytest.mark.parametrize("seat", [0, 1], ids=["republic", "empire"])
def test_it_beats_random_play_from_either_side(seat: int) -> None:
    # the issue asks for 70%; measured at 1,000 games a seat: 100% (docs/agents.md)
    game = boardsim.make_game("farrapos", max_decisions=20_000)
    policies = ["random", "random"]
    policies[seat] = "heuristic"
    out = play_games(game, 300, policies, seed=21)
    assert not out["truncated"].any(), "a game did not finish"
    wins = (out["returns"][:, seat] > 0).mean()
    assert wins >= 0.85, f"heuristic as player {seat} won only {wins:.0%} of 300 games"


def test_heuristic_self_play_finishes_every_game() -> None:
    game = boardsim.make_game("farrapos", siege=True, port_transport=True, max_decisions=20_000)
    out = play_games(game, 200, "heuristic", seed=3)
    assert not out["truncated"].any()
