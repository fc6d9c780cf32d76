"""Every episode ends (issue 15): a default decision limit a game, reported as truncation
by every surface, and no turn a player can stall in."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import boardsim
from boardsim.games import definition, gym_id
from boardsim.testing import check_turn_bounds, play_turns

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("farrapos", "hispania", "liberation")


def every_variant() -> list[tuple[str, dict[str, Any]]]:
    """Every sample option set of every game (its variants, scenarios, player counts,
    explicit chance); the defaults are the conformance test's (``check_turn_bounds``)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for game in GAMES:
        for opts in definition(game).sample_options:
            if opts and (game, opts) not in out:
                out.append((game, opts))
    return out


@pytest.mark.parametrize(("game", "options"), every_variant(), ids=lambda x: str(x))
def test_first_and_last_legal_players_end_every_turn_within_the_documented_bound(
    game: str, options: dict[str, Any]
) -> None:
    """Deterministic players used to loop inside a turn: Hispania "cancel the combat /
    besiege Olisipo", Farrapos "withdraw / add" a unit."""
    check_turn_bounds(game, options)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_documented_default_decision_limit(game: str) -> None:
    d = definition(game)
    made = boardsim.make_game(game)
    assert d.decision_limit > 0 and made.options["max_decisions"] == d.decision_limit
    ledger = (ROOT / "docs/rules" / f"{game}.md").read_text(encoding="utf-8")
    assert f"{d.decision_limit:,}" in ledger and "scripts/decision_lengths.py" in ledger
    assert f"{d.max_turn_decisions}" in ledger
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(rf"`{game}`[^\n]*{d.decision_limit:,}", readme), "README names the limit"


@pytest.mark.parametrize("game", GAMES)
def test_the_gymnasium_id_has_the_same_bound(game: str) -> None:
    assert gym.spec(gym_id(game)).max_episode_steps == definition(game).decision_limit


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_the_first_legal_race_is_truncated_at_its_default_limit(num_players: int) -> None:
    """The README's PettingZoo loop (first legal action for every agent) stood at turn
    16,671 after 50,000 steps, every player on 0 VT."""
    game = boardsim.make_game("liberation", num_players=num_players)
    out = play_turns(game, min)
    limit = definition("liberation").decision_limit
    assert out.truncated and out.decisions == limit


def test_max_decisions_zero_still_means_no_limit() -> None:
    game = boardsim.make_game("liberation", num_players=2, max_decisions=0)
    state = game.new_initial_state(0)
    while state.decisions() < 5000:
        state.apply_action(state.legal_actions()[0])
    assert not state.is_terminal() and not state.is_truncated()


def first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_truncation_is_reported_by_pettingzoo() -> None:
    env = boardsim.make_env("liberation", num_players=3, max_decisions=300)
    env.reset(seed=0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else first_legal(obs["action_mask"]))
    assert env.state_.is_truncated()
    assert not env.agents  # every agent stepped out after its truncation


def test_truncation_is_reported_by_pettingzoo_to_every_agent() -> None:
    env = boardsim.make_env("liberation", num_players=3, max_decisions=300)
    env.reset(seed=0)
    while not env.state_.is_terminal():
        obs, *_ = env.last()
        env.step(first_legal(obs["action_mask"]))
    assert all(env.truncations.values()) and not any(env.terminations.values())


class FirstLegal:
    """An opponent that always takes the first legal action (it never wins the race)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return first_legal(action_mask)


def test_truncation_is_reported_by_gymnasium() -> None:
    env = gym.make(gym_id("liberation"), num_players=2, opponents=FirstLegal(), max_decisions=300)
    _, info = env.reset(seed=0)
    term = trunc = False
    while not (term or trunc):
        _, _, term, trunc, info = env.step(first_legal(info["action_mask"]))
    state = env.unwrapped.state_
    assert trunc and not term
    assert state.is_truncated() and state.decisions() == 300


def test_truncation_is_reported_by_the_vector_env() -> None:
    venv = boardsim.make_vec_env("liberation", 2, threads=1, num_players=2, max_decisions=40)
    venv.reset(seed=0)
    seen = np.zeros(2, bool)
    for _ in range(60):
        masks = venv.action_masks()
        _, _, term, trunc, _ = venv.step(np.argmax(masks, axis=1))
        assert not np.any(term & trunc)
        seen |= trunc
    assert seen.all()
