"""The in-state generator: compiled and plain-Python twins draw the same numbers."""

from __future__ import annotations

import numpy as np
import pytest

from boardsim.core.rng import (
    PyRng,
    derive_seed,
    py_derive_seed,
    rng_below,
    rng_next,
    rng_seed,
    rng_weighted,
)


@pytest.mark.parametrize("seed", [0, 1, 2**31 - 1, 2**40 + 5, 2**62 - 1])
def test_compiled_and_python_generators_agree(seed: int) -> None:
    state = np.zeros(4, np.int32)
    twin = [0, 0, 0, 0]
    rng_seed(state, 1, seed)
    PyRng(twin, 1).seed(seed)
    assert state.tolist() == twin
    py = PyRng(twin, 1)
    for n in (1, 2, 6, 25, 1000, 2**31):
        for _ in range(50):
            assert rng_below(state, 1, n) == py.below(n)
    for _ in range(100):
        assert rng_next(state, 1) == py.next()
    weights = np.array([3, 0, 5, 1], np.int64)
    for _ in range(100):
        assert rng_weighted(state, 1, weights, 4) == py.weighted([3, 0, 5, 1])
    assert state.tolist() == twin
    assert state[0] == 0 and state[3] == 0  # only its two words are touched


def test_draws_are_uniform_enough() -> None:
    state = np.zeros(2, np.int32)
    rng_seed(state, 0, 123)
    counts = np.bincount([rng_below(state, 0, 6) for _ in range(60_000)], minlength=6)
    assert counts.min() > 9_500 and counts.max() < 10_500


def test_weighted_draw_never_picks_a_zero_weight() -> None:
    state = np.zeros(2, np.int32)
    rng_seed(state, 0, 9)
    weights = np.array([0, 4, 0, 1], np.int64)
    picks = {rng_weighted(state, 0, weights, 4) for _ in range(2000)}
    assert picks == {1, 3}


def test_derived_seeds_match_and_differ() -> None:
    seeds = [derive_seed(7, i) for i in range(100)]
    assert seeds == [py_derive_seed(7, i) for i in range(100)]
    assert len(set(seeds)) == 100 and all(0 <= s < 2**62 for s in seeds)
