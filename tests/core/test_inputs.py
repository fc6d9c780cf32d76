"""Actions, seeds and seats get a clear answer on every surface (issue 15)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import boardsim
from boardsim import IllegalActionError, OptionError
from boardsim.core import header as hd

NOT_ACTIONS: list[tuple[Any, str]] = [
    (3.5, "float"),
    ("0", "str"),
    (True, "bool"),
    (None, "NoneType"),
    (np.float64(1.0), "float64"),
    (np.array([0]), "ndarray"),
]


def race() -> boardsim.State:
    return boardsim.make_game("liberation", num_players=2).new_initial_state(0)


@pytest.mark.parametrize(("value", "kind"), NOT_ACTIONS, ids=lambda x: repr(x))
def test_the_state_refuses_what_is_not_an_integer_action(value: Any, kind: str) -> None:
    """``step(3.5)`` played action 3, ``'0'`` and ``True`` were accepted, None was a
    TypeError."""
    state = race()
    before = state.array.copy()
    with pytest.raises(IllegalActionError, match=f"a {kind}, not an integer"):
        state.apply_action(value)
    assert np.array_equal(state.array, before)


@pytest.mark.parametrize("value", [0, np.int64(0), np.int32(0), np.array(0)], ids=repr)
def test_python_and_numpy_integers_are_actions(value: Any) -> None:
    state = race()
    state.apply_action(value)
    assert state.decisions() == 1


@pytest.mark.parametrize(("value", "kind"), NOT_ACTIONS[:4], ids=lambda x: repr(x))
def test_the_gymnasium_env_refuses_what_is_not_an_integer_action(value: Any, kind: str) -> None:
    env = boardsim.make_gym_env("liberation", num_players=2)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=f"a {kind}, not an integer"):
        env.step(value)


@pytest.mark.parametrize(("value", "kind"), NOT_ACTIONS[:4], ids=lambda x: repr(x))
def test_pettingzoo_refuses_what_is_not_an_integer_action(value: Any, kind: str) -> None:
    """None for a live agent said 'illegal action -1'."""
    env = boardsim.make_env("liberation", num_players=2)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=f"a {kind}, not an integer"):
        env.step(value)


def test_the_vector_env_refuses_float_actions() -> None:
    venv = boardsim.make_vec_env("liberation", 2, threads=1, num_players=2)
    venv.reset(seed=0)
    with pytest.raises(IllegalActionError, match="float64 actions, not integers"):
        venv.step(np.array([0.0, 0.5]))
    venv.step(np.zeros(2, np.int32))


def test_pettingzoo_step_before_reset_says_reset_first() -> None:
    env = boardsim.make_env("liberation", num_players=2)
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        env.step(0)


def test_an_unseeded_new_game_draws_fresh_entropy() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    a, b = game.new_initial_state(None), game.new_initial_state(None)
    assert not np.array_equal(a.array[hd.H_RNG : hd.H_RNG + 2], b.array[hd.H_RNG : hd.H_RNG + 2])
    assert game.new_initial_state(2**63 - 1) == game.new_initial_state(2**63 - 1)


@pytest.mark.parametrize(
    ("seed", "words"),
    [(2**70, "out of range"), (-(2**63) - 1, "out of range"), (1.5, "integer"), ("3", "integer")],
    ids=repr,
)
def test_a_bad_seed_is_a_clear_value_error(seed: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        boardsim.make_game("liberation").new_initial_state(seed)


def test_a_seat_outside_the_game_is_an_option_error_for_both_single_agent_envs() -> None:
    """``make_vec_env(seat=-1)`` was accepted (its rewards always 0) and
    ``make_gym_env(seat=5)`` raised a plain ValueError."""
    with pytest.raises(OptionError, match=r"seat -1 is out of range; choose one of 0\.\.1"):
        boardsim.make_vec_env("liberation", 2, num_players=2, seat=-1)
    with pytest.raises(OptionError, match=r"seat 5 is out of range; choose one of 0\.\.1"):
        boardsim.make_gym_env("liberation", num_players=2, seat=5)
    with pytest.raises(OptionError, match="seat must be an int"):
        boardsim.make_gym_env("liberation", num_players=2, seat=True)


SEED_RULE = r"seed -5 is out of range: a seed is an integer in \[0, 2\*\*63\)"


def test_one_seed_rule_for_the_core_and_every_env() -> None:
    """Issue 38: the core took -5, Gymnasium said "Seed must be greater or equal to zero"
    and ``train`` "between 0 and 2**32 - 1"; now one rule, one message, everywhere."""
    game = boardsim.make_game("liberation", num_players=2)
    with pytest.raises(ValueError, match=SEED_RULE):
        game.new_initial_state(-5)
    with pytest.raises(ValueError, match=SEED_RULE):
        boardsim.make_gym_env("liberation", num_players=2).reset(seed=-5)
    with pytest.raises(ValueError, match=SEED_RULE):
        boardsim.make_env("liberation", num_players=2).reset(seed=-5)
    with pytest.raises(ValueError, match=SEED_RULE):
        boardsim.make_vec_env("liberation", 2, num_players=2).reset(seed=-5)
    with pytest.raises(ValueError, match="integer"):
        game.new_initial_state(True)
    top = np.int64(2**63 - 1)  # numpy integers are seeds, up to the rule's top
    assert game.new_initial_state(top) == game.new_initial_state(2**63 - 1)
    env = boardsim.make_gym_env("liberation", num_players=2)
    assert np.array_equal(env.reset(seed=top)[0], env.reset(seed=2**63 - 1)[0])


def test_train_states_the_same_seed_rule(capsys: pytest.CaptureFixture[str]) -> None:
    from boardsim.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["train", "liberation", "--seed", "-5"])
    assert exit_info.value.code == 2
    assert "seed -5 is out of range: a seed is an integer in [0, 2**63)" in (
        capsys.readouterr().err
    )


def test_numpy_integers_are_integer_options() -> None:
    """Issue 38: ``num_players=np.int64(3)`` (what a sweep over np.arange gives) was
    refused."""
    game = boardsim.make_game("liberation", num_players=np.int64(3))
    assert game.num_players == 3
    assert type(game.options["num_players"]) is int
    assert repr(game) == repr(boardsim.make_game("liberation", num_players=3))


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("random", "liberation"),
        ("heuristic", "liberation"),
        ("greedy", "hispania"),
        ("ppo", "farrapos"),
    ],
)
def test_agents_load_takes_a_game_name_as_make_env_does(spec: str, name: str) -> None:
    """Issue 38: ``agents.load("heuristic", "liberation")`` failed with an AttributeError
    deep inside."""
    from boardsim import agents

    agent = agents.load(spec, name, seed=1)
    state = boardsim.make_game(name).new_initial_state(0)
    mask = state.legal_actions_mask()
    action = agent.act(state.observation(state.current_player()), mask, state)
    assert mask[action]
    with pytest.raises(OptionError, match="unknown game"):
        agents.load(spec, "chess")
    with pytest.raises(OptionError, match="a Game or a game's name"):
        agents.load(spec, 42)
