"""Same seed and actions, same game: core, clones, saves, batches and threads."""

from __future__ import annotations

import random

import pytest

import boardsim
from boardsim.core.batch import random_rollout
from boardsim.core.errors import StateFormatError
from boardsim.testing import (
    assert_batch_equals_single,
    assert_rollout_thread_invariant,
    saved_without,
)


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


# the options of the contested readings (docs/rules/liberation.md L4, L7, L13), added after
# states of this version were saved: a save that does not name them was played by their
# defaults
READINGS = ("game_end", "cleared_space", "independent_spaces")


def test_a_state_saved_before_the_readings_options_loads_by_their_defaults() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    st = random_game(game, 3)[40]
    old = saved_without(st.to_bytes(), game, READINGS)
    assert all(name.encode() not in old for name in READINGS)
    back = game.state_from_bytes(old)
    assert back == st and back.legal_actions() == st.legal_actions()
    other = boardsim.make_game("liberation", num_players=2, cleared_space="tuck")
    with pytest.raises(StateFormatError, match="made with options"):
        other.state_from_bytes(old)


def test_batch_rows_equal_single_games_with_derived_seeds() -> None:
    """Row i of a batch plays game ``derive_seed(master, k)`` exactly as a single game would."""
    assert_batch_equals_single(boardsim.make_game("liberation", num_players=2), 8, 1500, 99)


@pytest.mark.parametrize("n", [1, 5, 64])
def test_rollout_is_the_same_on_one_and_two_threads(n: int) -> None:
    game = boardsim.make_game("liberation", num_players=3)
    assert_rollout_thread_invariant(game, n, 700, 4)
    assert random_rollout(game, n, 10, seed=4)["decisions"] == 10 * n
