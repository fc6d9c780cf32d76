"""The vector env hands the batch's own arrays to the learner (issue 33): no copy of the
observations, masks as booleans without conversion, ``final_obs`` written only in the rows
that ended, two sets of buffers used in turn so a step's arrays survive the next step; and
the SB3 ``VecEnv`` of several batches reads one joint array. Everything a user checks stays
as it was: the same games, the same values, ``copy=True`` for fresh arrays. Sizes and
action counts are refused up front (issue 38)."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import boardsim
from boardsim.core.batch import Batch
from boardsim.core.errors import IllegalActionError, OptionError
from boardsim.training.vec import SidesVecEnv
from boardsim.wrappers.vector import BoardsimVectorEnv

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.calibration import connect_four  # noqa: E402

RACE = {"num_players": 2}


def race_env(n: int = 16, **options: Any) -> BoardsimVectorEnv:
    return boardsim.make_vec_env("liberation", n, threads=1, seed=11, **RACE, **options)


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(masks * rng.random(masks.shape), axis=1)


def play(venv: BoardsimVectorEnv, steps: int) -> list[tuple[Any, ...]]:
    """Copies of everything each step returned (final_obs and its marks included)."""
    rng = np.random.default_rng(5)
    obs, info = venv.reset(seed=11)
    seen: list[tuple[Any, ...]] = [(obs.copy(), info["action_mask"].copy())]
    for _ in range(steps):
        obs, rew, term, trunc, info = venv.step(random_actions(venv.action_masks(), rng))
        final = info.get("final_obs")
        marks = info.get("_final_obs")
        seen.append(
            (
                obs.copy(),
                rew.copy(),
                term.copy(),
                trunc.copy(),
                info["action_mask"].copy(),
                None if final is None else final.copy(),
                None if marks is None else marks.copy(),
            )
        )
    return seen


def same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is b
    return bool(np.array_equal(a, b)) and np.asarray(a).dtype == np.asarray(b).dtype


def test_zero_copy_and_copy_true_play_the_same_games_value_for_value() -> None:
    views, copies = play(race_env(), 300), play(race_env(copy=True), 300)
    ended = 0
    for mine, theirs in zip(views, copies, strict=True):
        assert all(same(x, y) for x, y in zip(mine, theirs, strict=True))
        if len(mine) > 5 and mine[6] is not None:
            ended += int(mine[6].sum())
    assert ended > 10  # games did end, so final_obs was exercised


def test_a_step_returns_the_batch_own_arrays_valid_through_the_next_step() -> None:
    venv = race_env()
    rng = np.random.default_rng(0)
    venv.reset(seed=3)
    obs1, rew1, term1, _, info1 = venv.step(random_actions(venv.action_masks(), rng))
    assert obs1 is venv.batch.obs and np.shares_memory(info1["action_mask"], venv.batch.masks)
    kept = obs1.copy(), rew1.copy(), term1.copy(), info1["action_mask"].copy()
    obs2, *_ = venv.step(random_actions(venv.action_masks(), rng))
    assert not np.shares_memory(obs1, obs2)  # the other set of buffers
    assert np.array_equal(obs1, kept[0]) and np.array_equal(rew1, kept[1])
    assert np.array_equal(term1, kept[2]) and np.array_equal(info1["action_mask"], kept[3])
    obs3, *_ = venv.step(random_actions(venv.action_masks(), rng))
    assert obs3 is obs1  # the step after the next writes the first set again


def test_copy_true_returns_fresh_arrays() -> None:
    venv = race_env(copy=True)
    obs, info = venv.reset(seed=3)
    step = venv.step(np.argmax(venv.action_masks(), axis=1))
    for array in (obs, info["action_mask"], *step[:4], venv.action_masks()):
        assert not np.shares_memory(array, venv.batch.buffers[0].obs)
        assert not np.shares_memory(array, venv.batch.buffers[1].obs)
        assert not np.shares_memory(array, venv.batch.masks)


def test_masks_are_booleans_and_final_obs_is_zero_outside_the_finished_rows() -> None:
    venv = race_env(64)
    rng = np.random.default_rng(1)
    venv.reset(seed=2)
    finished = 0
    for _ in range(400):
        _, _, term, trunc, info = venv.step(random_actions(venv.action_masks(), rng))
        assert info["action_mask"].dtype == np.bool_ and venv.action_masks().dtype == np.bool_
        done = term | trunc
        if not done.any():
            assert "final_obs" not in info
            continue
        finished += int(done.sum())
        assert np.array_equal(info["_final_obs"], done)
        assert not info["final_obs"][~done].any()
        assert info["final_obs"][done].any(axis=1).all()
    assert finished > 20


def test_a_pickled_vector_env_keeps_its_buffers_apart_and_its_views_joined() -> None:
    venv = race_env()
    rng = np.random.default_rng(2)
    for _ in range(7):
        venv.step(random_actions(venv.action_masks(), rng))
    twin = pickle.loads(pickle.dumps(venv))
    assert np.shares_memory(twin.action_masks(), twin.batch.masks)
    acts = random_actions(venv.action_masks(), rng)
    for mine, theirs in zip(venv.step(acts)[:4], twin.step(acts)[:4], strict=True):
        assert np.array_equal(mine, theirs)


def test_the_sb3_vec_env_of_several_batches_reads_one_joint_array() -> None:
    game = boardsim.make_game("liberation", **RACE)
    sides = SidesVecEnv(game, 8, seats=[0, 1], seed=4, threads=1)
    obs = sides.reset()
    assert obs.shape == (8, game.observation_size)
    for k, part in enumerate(sides.parts):
        assert np.shares_memory(part.batch.obs, obs)
        assert np.array_equal(part.batch.obs, obs[4 * k : 4 * k + 4])
    rng = np.random.default_rng(3)
    for _ in range(200):
        sides.step_async(random_actions(sides.action_masks(), rng))
        obs, rewards, dones, infos = sides.step_wait()
        for k, part in enumerate(sides.parts):
            rows = slice(4 * k, 4 * k + 4)
            assert np.array_equal(part.batch.obs, obs[rows])
            assert np.array_equal(part.batch.learner_rewards, rewards[rows])
        for i in np.flatnonzero(dones):
            part = sides.parts[i // 4]
            assert np.array_equal(infos[i]["terminal_observation"], part.batch.final_obs[i % 4])
    twin = pickle.loads(pickle.dumps(sides))
    acts = random_actions(sides.action_masks(), rng)
    sides.step_async(acts)
    twin.step_async(acts)
    mine, theirs = sides.step_wait(), twin.step_wait()
    assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[2], theirs[2])
    assert np.shares_memory(twin.parts[1].batch.obs, theirs[0])


def test_a_binary_observation_comes_as_bytes_on_request() -> None:
    c4 = connect_four()
    floats = BoardsimVectorEnv(c4, 32, threads=1, seed=9)
    small = BoardsimVectorEnv(c4, 32, threads=1, seed=9, obs_dtype="uint8")
    assert small.single_observation_space.dtype == np.uint8
    assert small.observation_space.contains(small.reset(seed=9)[0])
    floats.reset(seed=9)
    rng = np.random.default_rng(4)
    for _ in range(60):
        acts = random_actions(floats.action_masks(), rng)
        a, b = floats.step(acts), small.step(acts)
        assert b[0].dtype == np.uint8 and np.array_equal(a[0], b[0])
        if "final_obs" in a[4]:
            assert np.array_equal(a[4]["final_obs"], b[4]["final_obs"])


def test_bytes_are_refused_where_the_observation_is_not_binary() -> None:
    with pytest.raises(OptionError, match="not binary"):
        race_env(obs_dtype="uint8")
    with pytest.raises(OptionError, match="obs_dtype='float16'"):
        race_env(obs_dtype="float16")


def test_a_size_that_cannot_fit_is_refused_with_what_it_would_take() -> None:
    with pytest.raises(OptionError, match=r"GiB in all.*at most [\d,]+ fit"):
        boardsim.make_vec_env("liberation", 10**9)
    with pytest.raises(OptionError, match=r"at most [\d,]+ fit"):
        boardsim.rollout("liberation", 10**11, 1)
    game = boardsim.make_game("farrapos")
    with pytest.raises(OptionError, match=r"at most [\d,]+ fit"):
        SidesVecEnv(game, 10**9, seats=[0, 1])
    assert Batch.bytes_per_env(game, np.dtype(np.float32)) > game.state_size * 4


@pytest.mark.parametrize("count", [2.5, "4", True, 0, -3])
def test_a_count_of_envs_is_a_positive_integer(count: Any) -> None:
    with pytest.raises(OptionError, match="num_envs must be"):
        boardsim.make_vec_env("liberation", count)


def test_numpy_integer_counts_are_counts() -> None:
    assert race_env(np.int64(3)).num_envs == 3


def test_a_wrong_number_of_actions_says_how_many_were_expected() -> None:
    venv = race_env(4)
    venv.reset(seed=0)
    with pytest.raises(IllegalActionError, match="expected 4 actions, one an env, got 2"):
        venv.step(np.array([0, 0]))
    with pytest.raises(IllegalActionError) as refused:
        venv.step(np.array([0.0, 0.5, 1.0, 2.0]))
    assert "legal actions" not in str(refused.value)
    assert "float64 actions, not integers" in str(refused.value)


def test_an_illegal_action_names_its_env_and_that_env_legal_actions() -> None:
    venv = race_env(4)
    venv.reset(seed=0)
    acts = np.argmax(venv.action_masks(), axis=1)
    illegal = int(np.flatnonzero(~venv.action_masks()[2])[0])
    acts[2] = illegal
    legal = ", ".join(str(a) for a in np.flatnonzero(venv.action_masks()[2]))
    with pytest.raises(IllegalActionError, match=f"in env 2.*legal actions: {legal}"):
        venv.step(acts)
    acts[2] = 10_000
    with pytest.raises(IllegalActionError, match=r"illegal action 10000 \(in env 2"):
        venv.step(acts)
