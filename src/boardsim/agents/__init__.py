"""Agents: one interface, ``act(observation, action_mask) -> action``.

``load("random", game)`` gives a uniform-random agent; ``load("greedy", game)``
a one-step-lookahead agent that needs the full state (``act_state``), used by
``boardsim demo``. Heuristics, MCTS and PPO come with the agents issue.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardsim.core.errors import OptionError
from boardsim.core.game import Game, State


class RandomAgent:
    """Uniformly random over the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        return int(self.rng.choice(legal))

    def act_state(self, state: State) -> int:
        return self.act(state.observation(state.current_player()), state.legal_actions_mask())


class GreedyAgent:
    """Tries each legal action on a copy (chance drawn at random) and keeps the best value.

    The value is the game's ``evaluate`` (a player-perspective score of a
    position) where it has one, else the player's return so far; ties are
    broken at random.
    """

    name = "greedy"

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.rng = np.random.default_rng(seed)

    def value(self, state: State, player: int) -> float:
        evaluate = self.game.definition.evaluate
        if evaluate is not None:
            return float(evaluate(self.game.params, state.array, player))
        return float(state.returns()[player])

    def act_state(self, state: State) -> int:
        player = state.current_player()
        legal = state.legal_actions()
        best: list[int] = []
        best_value = -np.inf
        for a in legal:
            child = state.clone()
            child.apply_action(a)
            v = self.value(child, player)
            if v > best_value + 1e-9:
                best, best_value = [a], v
            elif abs(v - best_value) <= 1e-9:
                best.append(a)
        return int(self.rng.choice(best))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise TypeError("GreedyAgent looks ahead on the full state: call act_state(state)")


def load(spec: str, game: Game, seed: int | None = None, **options: Any) -> Any:
    """An agent from its spec: ``"random"`` or ``"greedy"``."""
    if spec == "random":
        return RandomAgent(seed)
    if spec == "greedy":
        return GreedyAgent(game, seed)
    raise OptionError(f"unknown agent {spec!r}; available: random, greedy")
