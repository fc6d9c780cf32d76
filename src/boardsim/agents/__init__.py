"""Agents: one interface, ``act(observation, action_mask, state=None) -> action``.

Agents that look at the game itself (greedy, heuristic, MCTS) set
``needs_state = True`` and must be given ``state`` (a :class:`boardsim.State`;
the envs hold theirs as ``env.unwrapped.state_`` and pass it to such opponents
themselves); they read only what the player to move may know. Agents that only
need the observation (random, PPO) ignore ``state``.

``load(spec, game)`` makes one from a spec: ``"random"`` (uniform over legal
actions), ``"greedy"`` (one-step lookahead on the full state, ``act_state``),
``"heuristic"``, ``"mcts:SIMS"``, ``"ppo[:PATH]"``, ``"alphazero[:PATH]"`` (a network
alone), ``"alphazero-mcts:SIMS[:PATH]"`` (a network guiding the search), ``"net:PATH"``, and
``"restricted:FAMILY[+FAMILY]:SPEC"`` (``SPEC`` forbidden some of the game's mechanics,
:mod:`boardsim.agents.restricted`).
Each name maps to a factory in ``AGENT_FACTORIES``; its module is imported only when
asked for.

Agents that can play inside compiled code (random, heuristic, MCTS, every network)
have ``compiled_seat()`` (a :class:`boardsim.core.seats.Seat`): the batched engine,
``play_games``, ``boardsim eval`` and the balance sweeps then play them without a
Python call a decision.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from boardsim.api import make_game
from boardsim.core.errors import OptionError
from boardsim.core.game import Game, State
from boardsim.core.header import H_DECISIONS, H_RNG
from boardsim.core.rng import PyRng
from boardsim.core.seats import Seat


class RandomAgent:
    """Uniformly random over the legal actions."""

    name = "random"
    needs_state = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None
    ) -> int:
        """A uniformly random legal action of ``action_mask`` (``ValueError`` if none)."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        return int(self.rng.choice(legal))

    def act_state(self, state: State) -> int:
        """A uniformly random legal action of the player to move in ``state``."""
        return self.act(state.observation(state.current_player()), state.legal_actions_mask())

    def act_among(
        self, observation: np.ndarray, allowed: np.ndarray, state: State | None = None
    ) -> int:
        """Restricted play (:mod:`boardsim.agents.restricted`): uniformly among ``allowed``."""
        return self.act(observation, allowed)

    def compiled_seat(self) -> Seat:
        """This agent as a compiled seat (the engine's uniform random policy)."""
        return Seat.named("random")


def _position_key(state: State) -> bytes:
    """The position, without the decision counter (which grows even around a cycle)."""
    key = state.array.copy()
    key[H_DECISIONS] = 0
    return key.tobytes()


class GreedyAgent:
    """Tries each legal action on a copy (chance drawn at random) and keeps the best value.

    Chance after the decision is drawn from the agent's own generator (never the
    state's, which would reveal the real future rolls). The value is the game's
    ``evaluate`` (a player-perspective score of a position) where it has one, else
    the player's return so far; ties are broken at random. Positions it has
    already been in are avoided (a composite choice that is cancelled leads back
    to the same position, and a lookahead that sees no gain would otherwise
    choose and cancel forever).
    """

    name = "greedy"
    needs_state = True

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.rng = np.random.default_rng(seed)
        self._seen: set[bytes] = set()

    def value(self, state: State, player: int) -> float:
        """How good ``state`` is for ``player``: the game's ``evaluate`` when it has one,
        else the player's return so far.
        """
        evaluate = self.game.definition.evaluate
        if evaluate is not None:
            return float(evaluate(self.game.params, state.array, player))
        return float(state.returns()[player])

    def act_state(self, state: State, among: np.ndarray | None = None) -> int:
        """The legal action (of ``among``, a mask, when given) whose resulting position
        values best for the player to move.

        The dice after each candidate are drawn from the agent's own generator (the
        state's would let the lookahead see the real future rolls); ties are broken at
        random, and positions already seen this game are avoided while others remain.
        """
        player = state.current_player()
        legal = state.legal_actions()
        if among is not None:
            legal = [a for a in legal if among[a]]
        if len(self._seen) > 100_000:
            self._seen.clear()
        self._seen.add(_position_key(state))
        children = []
        for a in legal:
            child = state.clone()
            # the dice after this decision are drawn from the agent's own generator:
            # the state's generator would show the lookahead the real future rolls
            PyRng(child.array, H_RNG).seed(int(self.rng.integers(1 << 62)))
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

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None
    ) -> int:
        """Like :meth:`act_state`; the greedy agent looks ahead, so ``state`` is required."""
        if state is None:
            raise TypeError("GreedyAgent looks ahead on the game state: pass state=...")
        return self.act_state(state)

    def act_among(
        self, observation: np.ndarray, allowed: np.ndarray, state: State | None = None
    ) -> int:
        """Restricted play (:mod:`boardsim.agents.restricted`): the lookahead over the
        ``allowed`` actions alone."""
        if state is None:
            raise TypeError("GreedyAgent looks ahead on the game state: pass state=...")
        return self.act_state(state, among=allowed)


# spec name -> "module:factory"; the factory is called as factory(game, arg, seed, **options),
# ``arg`` being what follows the colon in the spec ("mcts:200" -> "200"), or None.
# Agent modules are imported only when asked for (torch, for instance, only for "ppo").
AGENT_FACTORIES: dict[str, str] = {
    "random": "boardsim.agents:_make_random",
    "greedy": "boardsim.agents:_make_greedy",
    "heuristic": "boardsim.agents.heuristic:make_agent",
    "mcts": "boardsim.agents.mcts:make_agent",
    "ppo": "boardsim.agents.ppo:make_agent",
    "alphazero": "boardsim.agents.network:make_agent",
    "alphazero-mcts": "boardsim.agents.network:make_search_agent",
    "net": "boardsim.agents.network:make_net_agent",
    "restricted": "boardsim.agents.restricted:make_agent",
}


def _make_random(game: Game, arg: str | None, seed: int | None, **options: Any) -> RandomAgent:
    if arg is not None or options:
        raise OptionError(f"the random agent takes no argument, got {arg!r} {options or ''}")
    return RandomAgent(seed)


def _make_greedy(game: Game, arg: str | None, seed: int | None, **options: Any) -> GreedyAgent:
    if arg is not None or options:
        raise OptionError(f"the greedy agent takes no argument, got {arg!r} {options or ''}")
    return GreedyAgent(game, seed)


def available() -> list[str]:
    """The agent names ``load`` knows (``"mcts"`` takes ``:SIMS``, ``"ppo"`` and
    ``"alphazero"`` ``:PATH``, ``"alphazero-mcts"`` ``:SIMS[:PATH]``)."""
    return list(AGENT_FACTORIES)


def load(spec: str, game: Game | str, seed: int | None = None, **options: Any) -> Any:
    """An agent from its spec: ``"random"``, ``"greedy"``, ``"heuristic"``, ``"mcts:200"``,
    ``"ppo[:PATH]"``, ``"alphazero[:PATH]"``, ``"alphazero-mcts:200[:PATH]"``, ``"net:PATH"``.

    ``game`` is a :class:`Game` or, as for ``make_env``, a game's name (made with its
    default options). Raises :class:`OptionError` for an unknown agent name, naming the
    known ones, and for a ``game`` that is neither.
    """
    if isinstance(game, str):
        game = make_game(game)
    elif not isinstance(game, Game):
        raise OptionError(f"game must be a Game or a game's name, got {game!r}")

    if not isinstance(spec, str) or not spec:
        raise OptionError(f"agent spec must be a non-empty string, got {spec!r}")
    name, _, arg = spec.partition(":")
    if name not in AGENT_FACTORIES:
        raise OptionError(f"unknown agent {spec!r}; available: {', '.join(AGENT_FACTORIES)}")
    module_name, _, factory_name = AGENT_FACTORIES[name].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("boardsim"):
            raise OptionError(f"agent {name!r} is not available in this build") from None
        raise
    factory = getattr(module, factory_name)
    return factory(game, arg if arg else None, seed, **options)
