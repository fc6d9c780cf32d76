"""Positions for the heuristic tests: decision nodes reached by a mix of the heuristic and
random play (so the positions are both typical and odd), and whole-game helpers."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import boardsim


def heuristic_move(game: boardsim.Game, state: boardsim.State, prng: np.ndarray) -> int:
    """The compiled heuristic's action in ``state`` (on a copy; ``prng`` advances)."""
    mask = np.zeros(game.num_actions, np.uint8)
    return int(game.kernels.heuristic_action(state.array.copy(), game.params, mask, prng))


def positions(
    game: boardsim.Game, games: int, explore: float = 0.3, seed: int = 0
) -> Iterator[boardsim.State]:
    """Every decision node of ``games`` games, each move the heuristic's or (with
    probability ``explore``) a uniformly random legal one. Chance is drawn by the state."""
    rng = np.random.default_rng(seed)
    prng = np.array([seed + 1, 7], np.int32)
    for g in range(games):
        state = game.new_initial_state(seed * 1000 + g)
        while not state.is_terminal():
            yield state
            if rng.random() < explore:
                action = int(rng.choice(state.legal_actions()))
            else:
                action = heuristic_move(game, state, prng)
            state.apply_action(action)


def check_legal_and_pure(game: boardsim.Game, games: int, seed: int = 0) -> int:
    """At every position: the action is legal, the state is left untouched, and the same
    generator words give the same action. Returns the number of positions checked."""
    n = 0
    mask = np.zeros(game.num_actions, np.uint8)
    for state in positions(game, games, seed=seed):
        before = state.array.copy()
        legal = state.legal_actions_mask()
        words = np.array([n, 12345], np.int32)
        a = int(game.kernels.heuristic_action(state.array, game.params, mask, words.copy()))
        assert legal[a], f"illegal heuristic action {a} ({state.action_to_string(a)})"
        assert np.array_equal(state.array, before), "the heuristic wrote into the state"
        again = int(game.kernels.heuristic_action(state.array, game.params, mask, words.copy()))
        assert again == a, "same position, same generator: a different action"
        n += 1
    return n
