"""Same seed and actions, same game: core, clones, saves, batches and threads."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardsim
from boardsim.core.batch import Batch, random_rollout, threads_used
from boardsim.core.rng import derive_seed


def random_game(game: boardsim.Game, seed: int) -> list[boardsim.State]:
    rng = random.Random(seed)
    st = game.new_initial_state(seed)
    trace = [st.clone()]
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
        trace.append(st.clone())
    return trace


def test_same_seed_same_game_different_seed_different_game() -> None:
    game = boardsim.make_game("liberation", num_players=3)
    a, b = random_game(game, 5), random_game(game, 5)
    assert len(a) == len(b) and all(x == y for x, y in zip(a, b, strict=True))
    assert game.new_initial_state(5) != game.new_initial_state(6)


def test_clone_and_replay_equals_the_original() -> None:
    game = boardsim.make_game("liberation", num_players=4)
    rng = random.Random(1)
    st = game.new_initial_state(1)
    for _ in range(50):
        st.apply_action(rng.choice(st.legal_actions()))
    snapshot = st.clone()
    actions = []
    while not st.is_terminal():
        a = rng.choice(st.legal_actions())
        actions.append(a)
        st.apply_action(a)
    for a in actions:
        snapshot.apply_action(a)
    assert snapshot == st


def test_save_and_load_round_trip_mid_game() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    st = random_game(game, 3)[40]
    loaded = game.state_from_bytes(st.to_bytes())
    assert loaded == st
    assert loaded.legal_actions() == st.legal_actions()


def test_batch_rows_equal_single_games_with_derived_seeds() -> None:
    """Row i of a batch plays game ``derive_seed(master, i)`` exactly as a single game would."""
    game = boardsim.make_game("liberation", num_players=2)
    batch = Batch(game, 8, seat=-1, seed=99)
    singles = [game.new_initial_state(int(derive_seed(99, i))) for i in range(8)]
    for i in range(8):
        assert np.array_equal(batch.states[i], singles[i].array)
    rng = np.random.default_rng(0)
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in batch.masks])
        live = [not s.is_terminal() for s in singles]
        for i, s in enumerate(singles):
            if live[i]:
                s.apply_action(int(actions[i]))
        batch.step(actions)
        for i, s in enumerate(singles):
            if live[i] and not s.is_terminal():
                assert np.array_equal(batch.states[i], s.array)


@pytest.mark.parametrize("n", [1, 5, 64])
def test_rollout_is_the_same_on_one_and_two_threads(n: int) -> None:
    import numba

    game = boardsim.make_game("liberation", num_players=3)
    finals = []
    for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
        states = np.zeros((n, game.state_size), np.int32)
        decisions = np.zeros(n, np.int64)
        games = np.zeros(n, np.int64)
        with threads_used(threads):
            game.rules.rollout_random(states, game.params, 700, 4, decisions, games)
        finals.append((states, games))
    assert np.array_equal(finals[0][0], finals[1][0])
    assert np.array_equal(finals[0][1], finals[1][1])
    assert finals[0][1].sum() >= 1
    assert random_rollout(game, n, 10, seed=4)["decisions"] == 10 * n
