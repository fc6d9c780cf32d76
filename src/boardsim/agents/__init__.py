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
from boardsim.core.header import H_DECISIONS


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


def _position_key(state: State) -> bytes:
    """The position, without the decision counter (which grows even around a cycle)."""
    key = state.array.copy()
    key[H_DECISIONS] = 0
    return key.tobytes()


class GreedyAgent:
    """Tries each legal action on a copy (chance drawn at random) and keeps the best value.

    The value is the game's ``evaluate`` (a player-perspective score of a
    position) where it has one, else the player's return so far; ties are
    broken at random. Positions it has already been in are avoided (a composite
    choice that is cancelled leads back to the same position, and a lookahead
    that sees no gain would otherwise choose and cancel forever).
    """

    name = "greedy"

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.rng = np.random.default_rng(seed)
        self._seen: set[bytes] = set()

    def value(self, state: State, player: int) -> float:
        evaluate = self.game.definition.evaluate
        if evaluate is not None:
            return float(evaluate(self.game.params, state.array, player))
        return float(state.returns()[player])

    def act_state(self, state: State) -> int:
        player = state.current_player()
        legal = state.legal_actions()
        if len(self._seen) > 100_000:
            self._seen.clear()
        self._seen.add(_position_key(state))
        children = []
        for a in legal:
            child = state.clone()
            child.apply_action(a)
            children.append((a, child))
        fresh = [(a, c) for a, c in children if _position_key(c) not in self._seen]
        best: list[int] = []
        best_value = -np.inf
        for a, child in fresh or children:
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
