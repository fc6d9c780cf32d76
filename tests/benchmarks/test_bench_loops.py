"""The Python loops of ``boardsim bench`` (timing itself is never tested)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from boardsim.bench import bench_gymnasium, bench_pettingzoo, uniform_legal


def test_uniform_legal_draws_every_legal_action_and_nothing_else() -> None:
    mask = np.array([0, 1, 0, 1, 1, 0], np.int8)
    rng = random.Random(0)
    seen = Counter(uniform_legal(mask, rng) for _ in range(3000))
    assert set(seen) == {1, 3, 4}
    assert min(seen.values()) > 850  # about 1,000 each


def test_the_environment_loops_run_and_count_decisions() -> None:
    assert bench_pettingzoo("farrapos", 0.05) > 0
    assert bench_gymnasium("farrapos", 0.05) > 0


def test_game_length_comes_from_the_case_that_finished_most_games() -> None:
    from boardsim.bench import add_game_lengths

    res = {
        "rollout_n1_t1": {"decisions_per_second": 1e6, "decisions": 6000, "games_finished": 10},
        "rollout_n4096_t1": {"decisions_per_second": 2e6, "decisions": 9000, "games_finished": 1},
    }
    add_game_lengths(res)
    assert res["rollout_n4096_t1"]["mean_game_length"] == 600
    assert res["rollout_n4096_t1"]["games_per_second"] == 2e6 / 600


def test_the_legal_sampler_draws_every_legal_action_of_each_row_and_nothing_else() -> None:
    from boardsim.sampling import LegalSampler

    masks = np.zeros((3, 6), bool)
    masks[0, [1, 3, 4]] = True
    masks[1, 5] = True
    masks[2, :] = True
    sampler = LegalSampler(3, 6, seed=1)
    seen = [Counter() for _ in range(3)]
    for _ in range(3000):
        for row, action in enumerate(sampler.sample(masks)):
            seen[row][int(action)] += 1
    assert set(seen[0]) == {1, 3, 4} and min(seen[0].values()) > 700
    assert set(seen[1]) == {5}
    assert set(seen[2]) == set(range(6)) and min(seen[2].values()) > 300


def test_the_legal_sampler_is_uniform_over_many_actions_too() -> None:
    """More than 32 actions keep their keys row-major: the same draw, another layout."""
    from boardsim.sampling import LegalSampler

    masks = np.zeros((2, 338), np.uint8)
    masks[0, [0, 7, 200, 337]] = 1
    masks[1, 150] = 1
    sampler = LegalSampler(2, 338, seed=3)
    assert not sampler.action_major
    seen = Counter(int(a) for _ in range(4000) for a in sampler.sample(masks)[:1])
    assert set(seen) == {0, 7, 200, 337} and min(seen.values()) > 850
    assert (sampler.sample(masks)[1], sampler.sample(masks).dtype) == (150, np.int64)
    with pytest.raises(ValueError, match="rows and actions"):
        LegalSampler(0, 5)


def test_the_vector_harness_counts_steps_and_accounts_for_its_time() -> None:
    from boardsim.bench import bench_vector

    for sb3 in (False, True):
        r = bench_vector("farrapos", 64, threads=1, seconds=0.05, sb3=sb3, windows=1)
        assert r["steps_per_second"] > 0 and r["games_per_second"] >= 0
        shares = r["compiled_share"] + r["sampler_share"] + r["wrapper_share"]
        assert abs(shares - 1.0) < 1e-9 and 0 < r["compiled_share"] <= 1
        # the SB3 step's episode contract is timed inside the wrapper's own share
        assert ("infos_share" in r) == sb3
        assert 0 < r.get("infos_share", 1e-9) <= r["wrapper_share"]


def test_the_reference_bench_takes_the_twin_the_game_declares(monkeypatch) -> None:
    """Issue 38: ``bench_reference`` imported ``boardsim.games.<name>.reference``, a path
    only built-in games have, so a plugin game crashed ``benchmarks/run.py``; a game now
    declares its plain-Python twin (or none) in its definition."""
    import dataclasses

    import boardsim
    from boardsim import bench
    from boardsim.core.game import Game
    from boardsim.games import definition

    for name in ("farrapos", "hispania", "liberation"):
        module = definition(name).load_reference()
        assert module is not None and module.__name__ == f"boardsim.games.{name}.reference"
    assert bench.bench_reference("farrapos", 0.05) > 0

    plugin = dataclasses.replace(definition("farrapos"), name="outside", reference=None)
    monkeypatch.setattr(bench, "make_game", lambda name: Game(plugin))
    assert plugin.load_reference() is None
    assert bench.bench_reference("outside", 0.05) is None
    assert boardsim.make_game("farrapos").definition.reference is not None
