"""benchmarks/vector.py's reading of the SB3 VecEnv: what it adds to a step of the vector
env, per game that ended in it (the arithmetic, not a timing)."""

from __future__ import annotations

import math
from types import ModuleType

import pytest

from tests.benchmarks.scripts import load_script


def _vector() -> ModuleType:
    return load_script("vector")


def test_the_sb3_cost_is_its_extra_step_time_over_the_games_that_ended() -> None:
    vector = _vector()
    # 4,096 envs: 4.096M steps/s is a 1,000 us step; 2.048M is 2,000 us
    fast = {"steps_per_second": 4.096e6, "games_per_second": 0.0}
    sb3 = {"steps_per_second": 2.048e6, "games_per_second": 2.048e5}  # 409.6 games a step
    got = vector.sb3_cost_of_finished_games(fast, sb3, 4096)
    assert got["sb3_extra_us_a_step"] == pytest.approx(1000.0)
    assert got["sb3_finished_a_step"] == pytest.approx(409.6)
    assert got["sb3_extra_us_a_finished_game"] == pytest.approx(1000.0 / 409.6)
    # 0.9 of the vector env's speed leaves a ninth of its step for the SB3 wrapper
    assert got["sb3_allowed_us_a_step"] == pytest.approx(1000.0 / 9)
    assert got["sb3_episode_dicts_us_a_step"] > 0
    assert math.isnan(got["sb3_infos_us_a_step"])  # the harness did not time them in place
    # timed in place: a tenth of the SB3 step (2,000 us) went to the finished envs' infos
    got = vector.sb3_cost_of_finished_games(fast, {**sb3, "infos_share": 0.1}, 4096)
    assert got["sb3_infos_us_a_step"] == pytest.approx(200.0)
    assert "timed in place, the finished envs' returns, lengths and dicts took 200 us" in (
        vector._in_place(got)
    )
    assert vector._in_place({}) == ""


def test_no_game_ended_gives_no_cost_a_game() -> None:
    vector = _vector()
    same = {"steps_per_second": 1e6, "games_per_second": 0.0}
    got = vector.sb3_cost_of_finished_games(same, same, 64)
    assert got["sb3_finished_a_step"] == 0 and math.isnan(got["sb3_extra_us_a_finished_game"])


def test_the_envs_own_scaling_leaves_the_harnesss_sampler_out() -> None:
    """One thread: 1,000 us a step, 300 of them the sampler's; two threads: 650 us, the
    same 300 the sampler's. The harness scales 1.54x, the env's own 700 us -> 350 us 2x."""
    vector = _vector()

    def window(step_us: float, sampler_us: float) -> dict[str, float]:
        return {
            "steps_per_second": 4096 / (step_us * 1e-6),
            "sampler_share": sampler_us / step_us,
            "compiled_share": 0.9 * (step_us - sampler_us) / step_us,
            "wrapper_share": 0.1 * (step_us - sampler_us) / step_us,
        }

    t1, t2 = window(1000.0, 300.0), window(650.0, 300.0)
    assert t2["steps_per_second"] / t1["steps_per_second"] == pytest.approx(1000 / 650)
    ratio = vector.env_seconds_a_step(t1) / vector.env_seconds_a_step(t2)
    assert ratio == pytest.approx(2.0)


def test_the_report_says_when_sb3s_own_dicts_exceed_what_09_allows() -> None:
    """375 finished games of 4,096 a step build 375 info and 375 episode dicts: when they
    alone cost more than the ninth of the vector env's step that 0.9 leaves, the line
    says the target is beyond any VecEnv that builds them in Python."""
    vector = _vector()
    over = {"sb3_episode_dicts_us_a_step": 80.0, "sb3_allowed_us_a_step": 36.0}
    under = {"sb3_episode_dicts_us_a_step": 13.0, "sb3_allowed_us_a_step": 305.0}
    assert "own dicts alone take more" in vector._beyond_contract(over)
    assert vector._beyond_contract(under) == ""
    # more finished games, more dicts: the floor grows with them
    assert vector.episode_dicts_us(400, repeats=50) > vector.episode_dicts_us(4, repeats=50)
