"""The trained policies in ``agents/`` load and play the games their cards describe."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import boardsim
from boardsim.agents import load
from boardsim.research.players import play_batched

AGENTS = Path(__file__).resolve().parents[2] / "agents"
CASES = {
    "liberation": {"num_players": 2},
    "farrapos": {},
    "hispania": {"level": "6-4-3-4-2"},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_shipped_policy_plays_legal_whole_games(name: str) -> None:
    game = boardsim.make_game(name, **CASES[name])
    agent = load(f"ppo:{AGENTS / name / 'ppo.zip'}", game, seed=0)
    returns, truncated = play_batched(game, agent, 0, "random", 4, seed=5)
    assert returns.shape == (4, game.num_players) and not truncated.any()  # all played out
    assert np.all(np.isfinite(returns))


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_card_and_its_evaluation_sit_beside_the_policy(name: str) -> None:
    folder = AGENTS / name
    card = (folder / "CARD.md").read_text(encoding="utf-8")
    assert "boardsim train" in card and "boardsim eval" in card
    result = json.loads((folder / "eval.json").read_text(encoding="utf-8"))
    assert result["game"] == name
    games = [r["games"] for r in result["pairs"] + result["solo"]]
    assert games and min(games) >= 1000  # the 1,000 games a measurement


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_shipped_compiled_policy_is_the_export_of_the_checkpoint(name: str) -> None:
    """``agents/<game>/ppo.npz`` (what the wheel ships and ``load("ppo", game)`` plays) is
    ``ppo.zip`` exported: the same weights, the same game."""
    from boardsim.core.network import Network
    from boardsim.training.networks import export_ppo_checkpoint

    shipped = Network.load(AGENTS / name / "ppo.npz")
    fresh = export_ppo_checkpoint(AGENTS / name / "ppo.zip")
    np.testing.assert_array_equal(shipped.weights, fresh.weights)
    np.testing.assert_array_equal(shipped.layout, fresh.layout)
    game = boardsim.make_game(name, **CASES[name])
    agent = load("ppo", game, seed=0)
    st = game.new_initial_state(3)
    assert st.legal_actions_mask()[agent.act_state(st)]
