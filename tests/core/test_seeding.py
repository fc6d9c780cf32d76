"""Seeding follows Gymnasium in every env (issue 15): a seeded reset replays exactly the
same games; an unseeded reset, and a new env never seeded, play new games (fresh
entropy, as ``np.random.default_rng()``). The vector env's unseeded reset used to replay
the games of its last seed, and every new ``make_vec_env`` played the same games."""

from __future__ import annotations

from typing import Any

import numpy as np

import boardsim

RACE = {"num_players": 2}


def first_legal(masks: np.ndarray) -> np.ndarray:
    return np.argmax(masks, axis=1)


def vector_games(venv: Any, obs: np.ndarray, steps: int = 20) -> list[np.ndarray]:
    """The observations of ``steps`` first-legal steps after ``obs``: the games played
    (copied: a step's arrays are the env's own, overwritten two steps later)."""
    seen = [obs.copy()]
    for _ in range(steps):
        seen.append(venv.step(first_legal(venv.action_masks()))[0].copy())
    return seen


def same(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def make_venv(**options: Any) -> Any:
    return boardsim.make_vec_env("liberation", 8, threads=1, **RACE, **options)


def test_two_new_vector_envs_play_different_games() -> None:
    one, two = make_venv(), make_venv()
    assert not same(vector_games(one, one.reset()[0]), vector_games(two, two.reset()[0])), (
        "two unseeded make_vec_env played the same games"
    )
    assert not np.array_equal(one.batch.states, two.batch.states)


def test_an_unseeded_vector_reset_plays_new_games() -> None:
    venv = make_venv()
    first = vector_games(venv, venv.reset(seed=4)[0])
    assert not same(first, vector_games(venv, venv.reset()[0]))


def test_a_seeded_vector_reset_replays_exactly() -> None:
    venv = make_venv()
    first = vector_games(venv, venv.reset(seed=4)[0])
    venv.reset()
    assert same(first, vector_games(venv, venv.reset(seed=4)[0]))
    made = make_venv(seed=4)  # seeded when made: its first reset replays run 4
    assert same(first, vector_games(made, made.reset()[0]))
    assert not same(first, vector_games(made, made.reset()[0]))  # then new games


def test_unseeded_vector_resets_after_a_seed_are_reproducible() -> None:
    """As a Gymnasium env: the resets after ``reset(seed=s)`` draw from a generator that
    seed started, so a whole run is reproduced from one seed."""
    runs = []
    for _ in range(2):
        venv = make_venv()
        venv.reset(seed=9)
        runs.append(vector_games(venv, venv.reset()[0]))
    assert same(*runs)


def test_the_sb3_vec_env_unseeded_plays_new_games() -> None:
    one, two = make_venv().to_sb3(), make_venv().to_sb3()
    assert not np.array_equal(one.reset(), two.reset())
    one.seed(3)
    two.seed(3)
    assert np.array_equal(one.reset(), two.reset())


def gym_trajectory(env: Any, seed: int | None, steps: int = 30) -> list[np.ndarray]:
    obs, info = env.reset(seed=seed)
    seen = [obs]
    for _ in range(steps):
        obs, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        seen.append(obs)
        if term or trunc:
            break
    return seen


def test_the_gymnasium_env_follows_the_same_rule() -> None:
    one = boardsim.make_gym_env("liberation", **RACE)
    two = boardsim.make_gym_env("liberation", **RACE)
    assert not same(gym_trajectory(one, None), gym_trajectory(two, None))
    assert same(gym_trajectory(one, 6), gym_trajectory(two, 6))


def test_a_seeded_gymnasium_reset_replays_named_opponents_drawn_in_python() -> None:
    """With explicit chance the env plays its named opponents from Python; their
    generators are drawn afresh at each reset, so a seeded reset replays them too."""
    env = boardsim.make_gym_env("liberation", opponents="heuristic", explicit_chance=True, **RACE)
    first = gym_trajectory(env, 2, steps=60)
    gym_trajectory(env, None, steps=60)
    assert same(first, gym_trajectory(env, 2, steps=60))


def pettingzoo_trajectory(env: Any, seed: int | None, steps: int = 30) -> list[np.ndarray]:
    env.reset(seed=seed)
    seen = []
    for _ in range(steps):
        obs, *_ = env.last()
        seen.append(obs["observation"])
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return seen


def test_the_pettingzoo_env_follows_the_same_rule() -> None:
    one = boardsim.make_env("liberation", **RACE)
    two = boardsim.make_env("liberation", **RACE)
    assert not same(pettingzoo_trajectory(one, None), pettingzoo_trajectory(two, None))
    assert same(pettingzoo_trajectory(one, 6), pettingzoo_trajectory(two, 6))
