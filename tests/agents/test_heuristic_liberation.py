"""The race's compiled heuristic: legal and repeatable everywhere, blind to hidden cards,
and much stronger than random play."""

from __future__ import annotations

import numpy as np
import pytest

import boardsim
from boardsim.core.batch import play_games
from boardsim.core.header import H_ACTOR, H_RNG
from boardsim.games.liberation import layout as L

from .heuristic_positions import check_legal_and_pure, heuristic_move, positions

OPTION_SETS = [
    {"num_players": 2},
    {"num_players": 3, "independence_counters": "return"},
    {"num_players": 4, "independence_ties": "demote", "royalist_moves": False},
    {"num_players": 6, "counters": 8, "reward": "vt"},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_actions_are_legal_leave_the_state_alone_and_repeat(options: dict) -> None:
    game = boardsim.make_game("liberation", **options)
    assert check_legal_and_pure(game, games=6) > 300


def _reshuffle_hidden(state: boardsim.State, rng: np.random.Generator) -> np.ndarray:
    """The same position as the player to move sees it, with the other hands and the draw
    pile dealt anew from the cards it cannot see (hand sizes and pile size kept)."""
    a = state.array.copy()
    me = int(a[H_ACTOR])
    n = state.game.num_players
    K = L.K
    unseen: list[int] = []
    for p in range(n):
        if p != me:
            for k in range(K):
                unseen += [k] * int(a[L.HAND + p * K + k])
    for k in range(K):
        unseen += [k] * int(a[L.PILE + k])
    rng.shuffle(unseen)
    i = 0
    for p in range(n):
        if p == me:
            continue
        size = int(a[L.HAND + p * K : L.HAND + (p + 1) * K].sum())
        a[L.HAND + p * K : L.HAND + (p + 1) * K] = np.bincount(unseen[i : i + size], minlength=K)
        i += size
    a[L.PILE : L.PILE + K] = np.bincount(unseen[i:], minlength=K)
    a[H_RNG : H_RNG + 2] = rng.integers(-(2**31), 2**31, 2)  # the future draws, too
    return a


@pytest.mark.parametrize("num_players", [2, 4])
def test_the_choice_depends_only_on_what_the_player_may_see(num_players: int) -> None:
    game = boardsim.make_game("liberation", num_players=num_players)
    rng = np.random.default_rng(5)
    mask = np.zeros(game.num_actions, np.uint8)
    checked = differs = 0
    for state in positions(game, games=8, seed=2):
        me = state.current_player()
        prng = np.array([3, 4], np.int32)
        mine = heuristic_move(game, state, prng.copy())
        for _ in range(3):
            other = _reshuffle_hidden(state, rng)
            seen = boardsim.State(game, other).observation(me)
            assert np.array_equal(seen, state.observation(me)), "the player's view changed"
            differs += not np.array_equal(other, state.array)
            a = int(game.kernels.heuristic_action(other, game.params, mask, prng.copy()))
            assert a == mine, "the heuristic read a hidden card"
        checked += 1
    assert checked > 300 and differs > checked  # the hidden cards really were moved


@pytest.mark.parametrize("seat", [0, 3])
def test_it_wins_far_more_than_its_share_against_three_random_players(seat: int) -> None:
    # fair share 25%; the issue asks for twice that. Measured at 1,000 games a seat:
    # about 99% (docs/agents.md); 300 games at >= 60% is a margin of many deviations.
    game = boardsim.make_game("liberation", num_players=4, max_decisions=20_000)
    policies = ["random"] * 4
    policies[seat] = "heuristic"
    out = play_games(game, 300, policies, seed=11)
    assert not out["truncated"].any(), "a game did not finish"
    wins = (out["returns"][:, seat] > 0).mean()
    assert wins >= 0.6, f"heuristic at seat {seat} won only {wins:.0%} of 300 games"


def test_heuristic_self_play_finishes_every_game() -> None:
    game = boardsim.make_game("liberation", num_players=5, max_decisions=20_000)
    out = play_games(game, 200, "heuristic", seed=3)
    assert not out["truncated"].any()
