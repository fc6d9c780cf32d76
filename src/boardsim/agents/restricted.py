"""Restricted play (Jaffe et al. 2012, "Evaluating Competitive Game Balance with Restricted
Play"): an agent forbidden some of the game's mechanics.

A game names its mechanics as families of action ids (``GameDefinition.action_families``,
the race's in ``games/liberation/families.py``). The agent ``restricted:FAMILIES:SPEC``
plays as ``SPEC`` would, never taking an action of ``FAMILIES`` (one family, or several
joined by ``+``) while another action is legal; where every legal action is forbidden it
plays as usual (Jaffe's rule: the restriction takes choices away, never the turn).

How each agent chooses among the allowed actions (``act_among``):

- ``random``: uniformly among them;
- ``greedy``: its one-step lookahead over them alone;
- ``mcts:N``: the search as usual, then the most visited allowed action at the root (the
  search plans as if its later moves were free; only the moves played are restricted);
- ``alphazero`` / ``net:PATH``: the network's most likely allowed action (one that reads
  the heuristic's move as well decides from the state, as its compiled seat does).

The heuristic picks one move by its own logic and ranks none: it cannot be restricted,
and asking for it is refused.

Random, network and ``mcts:N`` (UCT) agents restricted also play in compiled code
(:meth:`RestrictedAgent.compiled_seat`: the seat's ``forbidden`` row of the seat table,
``core/seats.py``), deciding as in Python, so :mod:`boardsim.research.restricted` plays
thousands of games a mechanic; a network search restricted at its root decides in
Python only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

import numpy as np

from boardsim.core import header as hd
from boardsim.core.errors import OptionError
from boardsim.core.game import Game, State
from boardsim.core.seats import Seat


class Restrictable(Protocol):
    """An agent that can choose among a subset of the legal actions."""

    needs_state: bool

    def act_among(
        self, observation: np.ndarray, allowed: np.ndarray, state: State | None = None
    ) -> int:
        """An action of ``allowed`` (a mask, a subset of the legal one, not empty)."""
        ...


def family_mask(game: Game, families: Sequence[str]) -> np.ndarray:
    """``bool[num_actions]``: the actions of ``families`` (names the game declares);
    :class:`OptionError` naming the game's families for a name it lacks."""
    declared: Mapping[str, tuple[int, ...]] = game.definition.action_families
    if not declared:
        raise OptionError(
            f"{game.name} declares no action families (GameDefinition.action_families): "
            "restricted play needs the game's mechanics named"
        )
    if not families:
        raise OptionError(f"name at least one family to forbid: {', '.join(declared)}")
    unknown = [f for f in families if f not in declared]
    if unknown:
        raise OptionError(
            f"{game.name} has no action family {unknown[0]!r}; its families: {', '.join(declared)}"
        )
    mask = np.zeros(game.num_actions, bool)
    for name in families:
        mask[list(declared[name])] = True
    return mask


class RestrictedAgent:
    """``base`` forbidden the actions of ``families`` while another action is legal."""

    def __init__(self, game: Game, base: Any, families: Sequence[str], spec: str = "") -> None:
        if not callable(getattr(base, "act_among", None)):
            raise OptionError(
                f"{getattr(base, 'name', type(base).__name__)} cannot be restricted: it picks "
                "one move by its own logic and ranks none; restricted play takes random, "
                "greedy, mcts:N and networks"
            )
        self.game = game
        self.base = base
        self.families = tuple(families)
        self.forbidden = family_mask(game, self.families)
        self.name = spec or f"restricted:{'+'.join(self.families)}:{base.name}"
        self.needs_state = bool(base.needs_state)
        self.restricted_decisions = 0  # decisions where a legal action was forbidden

    def allowed(self, action_mask: np.ndarray) -> np.ndarray | None:
        """The legal actions left, when the restriction takes some away and leaves one;
        else None (nothing forbidden is legal, or everything legal is: play as usual)."""
        legal = np.asarray(action_mask, bool)
        if not (legal & self.forbidden).any():
            return None
        left = legal & ~self.forbidden
        return left if left.any() else None

    def compiled_seat(self) -> Seat:
        """The base agent's compiled seat, forbidden the families (``core/seats.py``): it
        plays whole games in compiled code, deciding as :meth:`act` does. Random, network
        and UCT seats only (:func:`boardsim.core.seats.forbidden_rows`); for the others a
        :class:`OptionError`, and the games are played in Python."""
        make = getattr(self.base, "compiled_seat", None)
        if make is None:
            raise OptionError(f"{self.name} plays in Python only: its agent has no compiled seat")
        seat = make()
        uct = seat.code == hd.POLICY_MCTS and seat.settings.get(hd.S_SEARCH, 0) == hd.SEARCH_UCT
        if seat.code not in (hd.POLICY_RANDOM, hd.POLICY_NETWORK) and not uct:
            raise OptionError(
                f"{self.name} plays in Python only: a network search restricted at its root "
                "is not compiled (random, networks and mcts:N are)"
            )
        return replace(seat, forbidden=self.forbidden.copy(), label=self.name)

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None
    ) -> int:
        """The base agent's choice among the allowed actions (its usual one where the
        restriction takes nothing away, or everything)."""
        left = self.allowed(action_mask)
        if left is None:
            return int(self.base.act(observation, action_mask, state=state))
        self.restricted_decisions += 1
        return int(self.base.act_among(observation, left, state=state))


def make_agent(game: Game, arg: str | None, seed: int | None, **options: Any) -> RestrictedAgent:
    """The ``"restricted:FAMILIES:SPEC"`` factory of ``boardsim.agents.load``:
    ``restricted:jump+tuck:mcts:200`` is ``mcts:200`` forbidden the jump and tuck
    families."""
    from boardsim.agents import load  # deferred: the agents package imports this factory

    families, _, spec = (arg or "").partition(":")
    if not families or not spec:
        raise OptionError(
            "restricted agent spec: restricted:FAMILY[+FAMILY...]:AGENT, e.g. "
            f"restricted:{next(iter(game.definition.action_families), 'FAMILY')}:random"
        )
    names = families.split("+")
    family_mask(game, names)  # the families' names checked before the agent is made
    base = load(spec, game, seed=seed, **options)
    return RestrictedAgent(game, base, names, f"restricted:{arg}")
