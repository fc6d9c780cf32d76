"""The compiled core against the plain-Python reference, state by state, over random games."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardsim
from boardsim.core.reference import ReferenceEngine
from boardsim.games.liberation import layout as L
from boardsim.games.liberation import reference

# (options, games): 2,940 whole games in all
CONFIGS = [
    ({"num_players": 2}, 400),
    ({"num_players": 3, "independence_ties": "demote"}, 400),
    ({"num_players": 4, "independence_counters": "return", "reward": "vt"}, 400),
    ({"num_players": 5, "royalist_moves": False, "counters": 12}, 400),
    ({"num_players": 6}, 400),
    ({"num_players": 2, "counters": 6}, 40),  # a small supply: long games, stalls, attacks
    # the other readings of L13, L7 and L4, together and each alone
    (
        {
            "num_players": 3,
            "game_end": "end_of_round",
            "cleared_space": "tuck",
            "independent_spaces": "counted",
        },
        200,
    ),
    ({"num_players": 4, "game_end": "end_of_round"}, 100),
    ({"num_players": 2, "cleared_space": "tuck", "counters": 8}, 100),
    ({"num_players": 5, "independent_spaces": "counted", "reward": "vt"}, 100),
    # the other reading of L6
    ({"num_players": 3, "hand_limit": "at_once"}, 100),
    # the other reading of L2 (random players jump often), alone and with the others
    ({"num_players": 2, "revolution_jump": "triggers"}, 200),
    (
        {
            "num_players": 4,
            "revolution_jump": "triggers",
            "hand_limit": "at_once",
            "game_end": "end_of_round",
        },
        100,
    ),
]


def play_both(game: boardsim.Game, seed: int) -> int:
    """One random game in core and reference; assert equality after every step."""
    rng = random.Random(seed)
    engine = ReferenceEngine(reference, L.STATE_SIZE, game.params)
    ref = engine.new_game(seed)
    st = game.new_initial_state(seed)
    mask = np.zeros(L.NUM_ACTIONS, np.uint8)
    rewards = np.zeros(L.P, np.float32)
    assert st.array.tolist() == ref
    steps = 0
    while not engine.is_terminal(ref):
        legal = engine.legal_actions(ref)
        game.kernels.legal_mask(st.array, game.params, mask)
        assert np.flatnonzero(mask).tolist() == legal, (seed, steps)
        action = rng.choice(legal)
        expected = engine.step(ref, action)
        game.engine.step(st.array, game.params, action, rewards)
        assert st.array.tolist() == ref, (seed, steps, action)
        assert rewards.tolist() == expected, (seed, steps)
        steps += 1
    assert st.is_terminal()
    return steps


@pytest.mark.slow
@pytest.mark.parametrize(("config", "games"), CONFIGS, ids=lambda c: str(c))
def test_core_equals_reference_over_random_games(config: dict[str, object], games: int) -> None:
    game = boardsim.make_game("liberation", **config)
    total = sum(play_both(game, 1000 * i + 17) for i in range(games))
    assert total > games * 20


def test_core_equals_reference_with_explicit_chance_and_truncation() -> None:
    game = boardsim.make_game("liberation", num_players=3, explicit_chance=True, max_decisions=120)
    for seed in range(40):
        rng = random.Random(seed)
        engine = ReferenceEngine(reference, L.STATE_SIZE, game.params)
        ref = engine.new_game(seed)
        st = game.new_initial_state(seed)
        while not st.is_terminal():
            if st.is_chance_node():
                outs, weights = reference.chance_weights(ref, list(game.params))
                assert [o for o, _ in st.chance_outcomes()] == outs
                probs = [p for _, p in st.chance_outcomes()]
                assert np.allclose(probs, np.array(weights) / sum(weights))
                action = rng.choices(outs, weights)[0]
            else:
                action = rng.choice(st.legal_actions())
            st.apply_action(action)
            engine.step(ref, action)
            assert st.array.tolist() == ref
        assert st.is_truncated() or st.decisions() < 120
