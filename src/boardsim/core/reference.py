"""The plain-Python twin of the generic engine, driving a game's ``reference`` module.

A game's ``reference.py`` provides, over a plain ``list`` of ints laid out exactly
as the compiled state: ``init(state, params, seed)``, ``legal_actions(state, params)
-> list[int]``, ``apply_action(state, params, action)``, ``chance_weights(state,
params) -> (outcomes, weights)``, ``apply_chance(state, params, outcome)``,
``returns(state, params) -> list[float]``. This module adds what the compiled
engine adds (seeding, chance resolution, decision count, truncation), so a whole
game can be compared with the core word by word.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from boardsim.core import header as hd
from boardsim.core.rng import PyRng


class ReferenceEngine:
    """Seeding, chance and truncation around a game's plain-Python rules."""

    def __init__(self, rules: ModuleType, state_size: int, params: Sequence[int]) -> None:
        self.rules = rules
        self.state_size = state_size
        self.params = [int(p) for p in params]

    def new_game(self, seed: int) -> list[int]:
        """A fresh game as a list: seeded, set up, chance drawn (the engine's ``new_game``)."""
        state = [0] * self.state_size
        state[hd.H_GAME] = self.params[hd.P_GAME_TAG]
        PyRng(state, hd.H_RNG).seed(seed)
        self.rules.init(state, self.params, seed)
        self.resolve_chance(state)
        return state

    def resolve_chance(self, state: list[int]) -> None:
        """Draw every pending chance node from the state's generator, unless explicit."""
        if self.params[hd.P_EXPLICIT_CHANCE]:
            return
        rng = PyRng(state, hd.H_RNG)
        while state[hd.H_ACTOR] == hd.CHANCE:
            outcomes, weights = self.rules.chance_weights(state, self.params)
            self.rules.apply_chance(state, self.params, outcomes[rng.weighted(weights)])

    def is_terminal(self, state: list[int]) -> bool:
        """Whether the game in ``state`` is over."""
        return bool(state[hd.H_FLAGS] & hd.FLAG_TERMINAL)

    def legal_actions(self, state: list[int]) -> list[int]:
        """The legal actions of the player to move (none at chance or the end)."""
        if self.is_terminal(state) or state[hd.H_ACTOR] == hd.CHANCE:
            return []
        return self.rules.legal_actions(state, self.params)

    def step(self, state: list[int], action: int) -> list[float]:
        """Apply a decision (or chance outcome); return each player's reward."""
        before = self.rules.returns(state, self.params)
        if state[hd.H_ACTOR] == hd.CHANCE:
            self.rules.apply_chance(state, self.params, action)
        else:
            self.rules.apply_action(state, self.params, action)
            state[hd.H_DECISIONS] += 1
        self.resolve_chance(state)
        limit = self.params[hd.P_MAX_DECISIONS]
        if limit > 0 and state[hd.H_DECISIONS] >= limit and not self.is_terminal(state):
            state[hd.H_FLAGS] |= hd.FLAG_TERMINAL | hd.FLAG_TRUNCATED
            state[hd.H_ACTOR] = hd.TERMINAL
        after = self.rules.returns(state, self.params)
        return [a - b for a, b in zip(after, before, strict=True)]
