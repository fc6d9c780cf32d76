"""Differential: the compiled core against ``reference.py``, word by word after every step."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardsim
from boardsim.core.reference import ReferenceEngine
from boardsim.games.farrapos import layout, reference, rules

# a fixed number of whole games per option set (never a time budget: the machines are shared)


def compare_games(game, seeds: range) -> tuple[int, int]:
    """Play random legal games in both engines; return (games, steps) compared."""
    engine = ReferenceEngine(reference, game.state_size, game.params)
    mask = np.zeros(game.num_actions, np.uint8)
    rewards = np.zeros(2, np.float32)
    games = steps = 0
    for seed in seeds:
        s = game.new_initial_state(seed)
        core = s.array  # driven straight through the compiled kernels
        ref = engine.new_game(seed)
        assert core.tolist() == ref, f"seed {seed}: initial states differ"
        chooser = random.Random(seed)
        while not engine.is_terminal(ref):
            rules.legal_mask(core, game.params, mask)
            legal = np.flatnonzero(mask).tolist()
            assert engine.legal_actions(ref) == legal, f"seed {seed} step {steps}: legal actions"
            action = chooser.choice(legal)
            game.engine.step(core, game.params, np.int64(action), rewards)
            reward = engine.step(ref, action)
            steps += 1
            if core.tolist() != ref:
                bad = [i for i, (x, y) in enumerate(zip(core.tolist(), ref, strict=True))
                       if x != y]  # fmt: skip
                raise AssertionError(f"seed {seed} step {steps} action {action}: words {bad}")
            assert abs(rewards[0] - reward[0]) < 1e-6 and abs(rewards[1] - reward[1]) < 1e-6
        assert s.is_terminal()
        assert np.allclose(s.returns(), rules_returns(game, ref))
        games += 1
    return games, steps


def rules_returns(game, ref: list[int]) -> list[float]:
    return reference.returns(ref, [int(p) for p in game.params])


@pytest.mark.parametrize(
    ("options", "games"),
    [
        ({"max_decisions": 80}, 600),
        (
            {
                "max_decisions": 400,
                "siege": True,
                "port_transport": True,
                "reward": "vp_difference",
            },
            40,
        ),
        ({"final_tie": "empire", "victory_vp": 16}, 50),
        ({}, 30),
        ({"max_decisions": 400, "arrivals": "after"}, 40),
        ({"max_decisions": 400, "empty_city": "neutral", "port_transport": True}, 40),
        ({"max_decisions": 400, "move_destinations": "several", "port_transport": True}, 40),
        ({"max_decisions": 400, "round_attackers": "rechosen", "siege": True}, 40),
        ({"max_decisions": 400, "advance": "chosen", "round_attackers": "rechosen"}, 40),
        ({"max_decisions": 400, "port_transport": True, "sea_ports": "conquered"}, 40),
        (
            {
                "max_decisions": 400,
                "empty_origin": "forbidden",
                "move_destinations": "several",
                "port_transport": True,
            },
            40,
        ),
        (
            {
                "max_decisions": 400,
                "empire_mu": 20,
                "republic_mu": 18,
                "ports_bonus": 7,
                "region_bonus_shift": -2,
            },
            40,
        ),
    ],
    ids=[
        "short",
        "advanced",
        "sudden-death",
        "full",
        "arrivals-after",
        "neutral-cities",
        "several-destinations",
        "rechosen-attackers",
        "chosen-advance",
        "conquered-ports",
        "origin-kept",
        "units-and-bonuses",
    ],
)
@pytest.mark.slow
def test_core_equals_reference(options: dict, games: int) -> None:
    game = boardsim.make_game("farrapos", **options)
    played, steps = compare_games(game, range(games))
    assert played == games and steps > 1000


def test_core_equals_reference_with_explicit_dice() -> None:
    """At explicit chance nodes the outcome is an action: both engines take it alike."""
    game = boardsim.make_game("farrapos", explicit_chance=True, max_decisions=300)
    engine = ReferenceEngine(reference, game.state_size, game.params)
    for seed in range(10):
        s = game.new_initial_state(seed)
        ref = engine.new_game(seed)
        chooser = random.Random(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, _ = reference.chance_weights(ref, engine.params)
                assert [o for o, _ in s.chance_outcomes()] == outcomes
                action = chooser.choice(outcomes)
            else:
                action = chooser.choice(s.legal_actions())
            s.apply_action(action)
            engine.step(ref, action)
            assert s.array.tolist() == ref


def test_reference_state_size_matches() -> None:
    assert boardsim.make_game("farrapos").state_size == layout.STATE_SIZE
