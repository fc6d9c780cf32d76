"""Objects that travel (issue 15): games, states and every env pickle (and deep-copy),
to subprocesses, Ray workers or a file, and continue exactly where they were. They used
to fail with "Can't pickle <lambda>" (a game's definition) or a module object (its
kernels): a game now pickles as its name, version and options, a state as its saved
bytes (checked on loading, as ``Game.state_from_bytes``)."""

from __future__ import annotations

import copy
import functools
import pickle
from typing import Any

import numpy as np
import pytest

import boardsim
from boardsim.core.errors import StateFormatError
from boardsim.core.game import game_from_pickle, state_from_pickle

GAME = "farrapos"


def round_trip(obj: Any) -> Any:
    return pickle.loads(pickle.dumps(obj))


def played(game: Any, seed: int, decisions: int) -> Any:
    """Game ``seed`` after ``decisions`` uniform-random steps (and chance outcomes)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    while state.decisions() < decisions and not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def assert_same_from_here(a: Any, b: Any, steps: int = 40) -> None:
    """Two states give the same legal actions, observations and next positions."""
    for k in range(steps):
        assert a == b and a.legal_actions() == b.legal_actions()
        if a.is_terminal():
            return
        if not a.is_chance_node():
            assert np.array_equal(a.observation(0), b.observation(0))
        action = a.legal_actions()[k % len(a.legal_actions())]
        a.apply_action(action)
        b.apply_action(action)
        assert np.array_equal(a.last_rewards, b.last_rewards)


@pytest.mark.parametrize(
    "options", [{}, {"siege": True, "explicit_chance": True, "max_decisions": 900}]
)
def test_a_game_pickles_by_name_and_options(options: dict[str, Any]) -> None:
    game = boardsim.make_game(GAME, **options)
    back = round_trip(game)
    assert back.name == GAME and back.options == game.options
    assert np.array_equal(back.params, game.params)
    assert back.new_initial_state(3) == game.new_initial_state(3)
    assert copy.deepcopy(game).options == game.options


@pytest.mark.parametrize("options", [{}, {"explicit_chance": True}])
def test_a_pickled_state_continues_identically(options: dict[str, Any]) -> None:
    state = played(boardsim.make_game(GAME, **options), 5, 60)
    back = round_trip(state)
    assert np.array_equal(back.last_rewards, state.last_rewards)
    assert_same_from_here(state, back)


def test_deepcopy_of_a_state_is_independent() -> None:
    state = played(boardsim.make_game(GAME), 2, 30)
    twin = copy.deepcopy(state)
    assert twin == state and twin.array is not state.array
    twin.apply_action(twin.legal_actions()[0])
    assert twin != state
    assert_same_from_here(played(boardsim.make_game(GAME), 2, 30), state)


def test_a_pickled_state_is_checked_like_saved_bytes() -> None:
    state = played(boardsim.make_game(GAME), 1, 20)
    data = bytearray(state.to_bytes())
    data[-10] ^= 0xFF
    with pytest.raises(StateFormatError, match="checksum"):
        state_from_pickle(state.game, bytes(data), state.last_rewards.tolist())


def test_a_game_pickled_by_another_version_is_refused() -> None:
    version = boardsim.make_game(GAME).definition.version
    with pytest.raises(StateFormatError, match=f"version {version + 1}; this is version"):
        game_from_pickle(GAME, version + 1, {})


def gym_steps(env: Any, info: dict[str, Any], steps: int) -> list[tuple[Any, ...]]:
    out = []
    for k in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, term, trunc, info = env.step(int(legal[k % len(legal)]))
        out.append((obs, reward, term, trunc))
        if term or trunc:
            break
    return out


def same_steps(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> bool:
    return len(a) == len(b) and all(
        all(np.array_equal(x, y) for x, y in zip(p, q, strict=True))
        for p, q in zip(a, b, strict=True)
    )


@pytest.mark.parametrize(
    "opponents_options",
    [("heuristic", {}), ("random", {"explicit_chance": True})],
    ids=["compiled", "python"],
)
def test_a_pickled_gymnasium_env_continues_identically(
    opponents_options: tuple[str, dict[str, Any]],
) -> None:
    opponents, options = opponents_options
    env = boardsim.make_gym_env(GAME, opponents=opponents, **options)
    _, info = env.reset(seed=4)
    gym_steps(env, info, 15)
    info = {"action_mask": env.action_masks()}
    twin = round_trip(env)
    assert np.array_equal(twin.action_masks(), env.action_masks())
    assert same_steps(gym_steps(env, info, 40), gym_steps(twin, info, 40))
    # and the next games, unseeded, are the same too (the env's generator travelled)
    _, info = env.reset()
    _, twin_info = twin.reset()
    assert np.array_equal(info["action_mask"], twin_info["action_mask"])
    assert same_steps(gym_steps(env, info, 40), gym_steps(twin, info, 40))


def test_a_pickled_pettingzoo_env_continues_identically() -> None:
    env = boardsim.make_env(GAME, explicit_chance=True)
    env.reset(seed=8)
    for _ in range(25):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    twin = round_trip(env)
    for k in range(40):
        assert twin.agent_selection == env.agent_selection
        obs, reward, term, trunc, _ = env.last()
        other = twin.last()
        assert np.array_equal(obs["observation"], other[0]["observation"])
        assert np.array_equal(obs["action_mask"], other[0]["action_mask"])
        assert (reward, term, trunc) == other[1:4]
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[k % len(legal)])
        env.step(action)
        twin.step(action)


def test_a_pickled_vector_env_continues_identically() -> None:
    venv = boardsim.make_vec_env(GAME, 4, threads=1, seed=3)
    rng = np.random.default_rng(0)

    def actions(masks: np.ndarray) -> np.ndarray:
        return np.argmax(masks * rng.random(masks.shape), axis=1)

    for _ in range(30):
        venv.step(actions(venv.action_masks()))
    twin = round_trip(venv)
    for _ in range(200):
        acts = actions(venv.action_masks())
        assert np.array_equal(twin.action_masks(), venv.action_masks())
        mine, theirs = venv.step(acts), twin.step(acts)
        for x, y in zip(mine[:4], theirs[:4], strict=True):
            assert np.array_equal(x, y)


@pytest.mark.subprocess
def test_maskable_ppo_trains_over_sb3_subprocesses() -> None:
    """SB3's ``SubprocVecEnv`` sends each process the env factory and asks for the
    masks through ``env_method("action_masks")``: the env's own mask, as the README."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import SubprocVecEnv

    make = functools.partial(boardsim.make_gym_env, GAME, opponents="random")
    venv = SubprocVecEnv([make, make])
    try:
        model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0)
        model.learn(256)
        assert model.num_timesteps >= 256
    finally:
        venv.close()
