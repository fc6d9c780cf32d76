"""Every game's ``legal_mask`` returns exactly the number of actions it marks.

The compiled random policy draws the k-th legal action from that count: a count
one short (as the race's once was, in its own-space phase) silently makes the last
legal action unreachable for every random player and skews every random baseline.
"""

from __future__ import annotations

import numpy as np
import pytest

import boardsim


@pytest.mark.parametrize("name", boardsim.list_games())
def test_legal_mask_count_matches_the_marks(name: str) -> None:
    game = boardsim.make_game(name, max_decisions=400)
    rng = np.random.default_rng(7)
    mask = np.zeros(game.num_actions, np.uint8)
    checked = 0
    for seed in range(30):
        st = game.new_initial_state(seed)
        while not st.is_terminal():
            mask[:] = 0
            n = game.kernels.legal_mask(st.array, game.params, mask)
            assert n == int(mask.sum()), f"{name} seed {seed}: count {n}, marked {mask.sum()}"
            checked += 1
            st.apply_action(int(rng.choice(np.flatnonzero(mask))))
    assert checked > 100
