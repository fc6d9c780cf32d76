"""Networks as agents: alone (their policy), or guiding the compiled search.

The network is evaluated inside numba (:mod:`boardsim.core.nn`), so a network seat plays
in every compiled loop: batch opponents, whole games, ``boardsim eval``, balance sweeps,
and the search itself (prior and leaf value). Specs of :func:`boardsim.agents.load`:

- ``"alphazero"``: the game's shipped self-play network, alone (its most likely action);
  ``"alphazero:PATH"`` (also ``"net:PATH"``): a network file (``.npz``), a
  ``boardsim train --algo alphazero`` run folder or checkpoint (its best network), or a
  MaskablePPO checkpoint (exported on the fly);
- ``"alphazero-mcts:SIMS"``, ``"alphazero-mcts:SIMS:PATH"``: that network guiding a search
  of SIMS simulations a decision: PUCT (AlphaZero) or Gumbel (sequential halving at the
  root), the network's prior and value, optionally mixed with rollouts. The settings are
  those the network was trained with (its metadata ``search``) unless given.

Shipped networks are package data (``boardsim/shipped/<game>/<kind>.npz`` in a wheel,
``agents/<game>/<kind>.npz`` in a checkout): :func:`shipped_network`.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.core import header as hd
from boardsim.core.errors import OptionError, StateFormatError
from boardsim.core.game import Game, State
from boardsim.core.network import Network, new_scratch
from boardsim.core.nn import network_act, network_act_batch
from boardsim.core.options import with_later_defaults
from boardsim.core.rng import rng_seed
from boardsim.core.seats import (
    S_TEMPERATURE,
    Seat,
    SeatTable,
    search_seat,
    search_settings,
    seat_table,
)
from boardsim.training.checkpoint import (
    check_compatible,
    read_entry,
    read_metadata,
    resolve_checkpoint,
)

_PACKAGED = Path(__file__).resolve().parents[1] / "shipped"
_REPO = Path(__file__).resolve().parents[3] / "agents"


def _seed_words(seed: int | None) -> np.ndarray:
    prng = np.zeros(2, np.int32)
    word = int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0] >> np.uint64(2))
    rng_seed(prng, 0, word)
    return prng


# ---------------------------------------------------------------- finding networks
def shipped_root() -> Path:
    """Where shipped networks live: ``$BOARDSIM_AGENTS``, the wheel's copy, or the checkout."""
    env = os.environ.get("BOARDSIM_AGENTS")
    if env:
        return Path(env)
    return _PACKAGED if _PACKAGED.is_dir() else _REPO


def shipped_path(game_name: str, kind: str) -> Path:
    """The file of the ``kind`` network (``alphazero``, ``ppo``) shipped for ``game_name``."""
    return shipped_root() / game_name / f"{kind}.npz"


def shipped_network(game_name: str, kind: str = "alphazero") -> Network:
    """The network of ``kind`` shipped for ``game_name``; :class:`OptionError` if none."""
    path = shipped_path(game_name, kind)
    if not path.is_file():
        raise OptionError(f"no {kind} network is shipped for {game_name} (looked for {path})")
    return Network.load(path)


def shipped_network_for(game: Game, kind: str = "alphazero") -> Network | None:
    """The ``kind`` network shipped for ``game`` when there is one and it plays ``game``'s
    options (observations, actions, one value a player: :func:`check_network`, other
    option values allowed), else None."""
    path = shipped_path(game.name, kind)
    if not path.is_file():
        return None
    network = Network.load(path)
    try:
        check_network(game, network, strict_options=False)
    except OptionError:
        return None
    return network


def load_network(path: str | os.PathLike[str]) -> Network:
    """A network from a file: ``.npz`` (a network), a ``boardsim train`` checkpoint or run
    folder (an alphazero run's best network; a MaskablePPO policy, exported)."""
    p = Path(path)
    if p.suffix == ".npz" and p.is_file():
        return Network.load(p)
    checkpoint = resolve_checkpoint(p)
    meta = read_metadata(checkpoint)
    if meta.get("algorithm") == "alphazero":
        return Network.from_bytes(read_entry(checkpoint, "best.npz"), where=str(checkpoint))
    if meta.get("algorithm") == "MaskablePPO":
        from boardsim.training.networks import export_ppo_checkpoint  # deferred: torch, heavy

        return export_ppo_checkpoint(checkpoint)
    raise StateFormatError(f"{checkpoint}: no network in a {meta.get('algorithm')!r} checkpoint")


def check_network(
    game: Game, network: Network, strict_options: bool = True, where: str = "network"
) -> None:
    """Refuse a network made for another game (or other options), saying why."""
    trained = network.meta.get("options", game.options)
    if isinstance(trained, dict):  # trained before an option existed: its default (the old rule)
        trained = with_later_defaults(game.definition.options, trained)
    meta = {
        "game": network.meta.get("game", game.name),
        "observation_size": network.observation_size,
        "num_actions": network.num_actions,
        "options": trained,
    }
    check_compatible(
        meta,
        game.name,
        game.options,
        game.observation_size,
        game.num_actions,
        strict_options=strict_options,
        where=where,
    )
    if network.value_size not in (1, game.num_players):
        raise OptionError(
            f"{where} values {network.value_size} players; this {game.name} has {game.num_players}"
        )


# ---------------------------------------------------------------- the network alone
class NetworkAgent:
    """A network's policy: its most likely legal action (``temperature=0``), or one drawn
    from ``softmax(logits / temperature)``.

    ``act(observation, mask)`` is one compiled call; given ``state`` too, it plays exactly
    as the compiled seat does (the mask then also loses what the game's ``search_prune``
    clears, for networks trained on the search's targets). A network that reads the
    heuristic's move (``Network.hint``) needs the state: its ``needs_state`` is true.
    """

    name = "network"

    def __init__(
        self,
        game: Game,
        network: Network,
        seed: int | None = None,
        temperature: float = 0.0,
        label: str = "network",
    ) -> None:
        if not 0 <= float(temperature) < float("inf"):
            raise OptionError(f"temperature must be a finite number >= 0, got {temperature!r}")
        self.game = game
        self.network = network
        self.needs_state = network.hint
        self.temperature = float(temperature)
        self.label = label
        self._prng = _seed_words(seed)
        self._act = new_scratch(network.layout)
        self._probs = np.zeros(game.num_actions, np.float64)
        self._table: SeatTable | None = None
        self._among_table: SeatTable | None = None  # restricted play's (act_among)

    def __repr__(self) -> str:
        return f"NetworkAgent({self.game.name!r}, {self.label!r}, T={self.temperature})"

    def act_among(
        self, observation: np.ndarray, allowed: np.ndarray, state: State | None = None
    ) -> int:
        """Restricted play (:mod:`boardsim.agents.restricted`): the network's most likely
        action of ``allowed`` (drawn at its temperature), from the observation. A network
        that reads the heuristic's move decides from ``state``, as its compiled seat does
        forbidden every action outside ``allowed`` (where the game's ``search_prune`` leaves
        none of them, that seat plays its usual move)."""
        if state is None or not self.network.hint:
            return self.act(observation, allowed)  # which refuses a hint without the state
        table = self._seats()
        table.forbidden[:] = ~np.asarray(allowed, bool)
        return self._seat_action(state, table)

    def compiled_seat(self) -> Seat:
        """This network as a compiled seat, at this agent's temperature."""
        return Seat(hd.POLICY_NETWORK, self.network, {S_TEMPERATURE: self.temperature}, self.label)

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None
    ) -> int:
        """The network's legal action for ``observation`` (one compiled call); given
        ``state``, exactly the compiled seat's (:meth:`act_state`)."""
        if state is not None:
            return self.act_state(state)
        self._refuse_hint()
        mask = np.ascontiguousarray(action_mask, np.uint8)
        if not mask.any():
            raise ValueError("no legal action in the mask")
        obs = np.ascontiguousarray(observation, np.float32)
        net = self.network
        return int(
            network_act(
                net.weights, net.layout, 0, obs, mask, self.temperature, self._prng, self._act,
                self._probs,
            )
        )  # fmt: skip

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One action a row (for evaluating many games at once)."""
        self._refuse_hint()
        masks = np.ascontiguousarray(masks, np.uint8)
        if not masks.any(axis=1).all():
            raise ValueError("no legal action in a mask")
        obs = np.ascontiguousarray(observations, np.float32)
        out = np.zeros(len(obs), np.int64)
        net = self.network
        network_act_batch(
            net.weights, net.layout, 0, obs, masks, self.temperature, self._prng, self._act,
            self._probs, out,
        )  # fmt: skip
        return out

    def _refuse_hint(self) -> None:
        if self.network.hint:
            raise TypeError(
                f"{self.label} reads the heuristic's move as well as the observation: "
                "pass state=... to act() (envs give it as env.unwrapped.state_)"
            )

    def act_state(self, state: State) -> int:
        """The compiled seat's action for the player to move in ``state`` (left unchanged)."""
        if self._table is None:
            self._table = seat_table(self.game, [self.compiled_seat()] * self.game.max_players)
        return self._seat_action(state, self._table)

    def _seats(self) -> SeatTable:
        """This network in every seat, each with a row of restrictions to fill in."""
        if self._among_table is None:
            seat = replace(self.compiled_seat(), forbidden=np.zeros(self.game.num_actions, bool))
            self._among_table = seat_table(self.game, [seat] * self.game.max_players)
        return self._among_table

    def _seat_action(self, state: State, table: SeatTable) -> int:
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("a network acts at decision nodes only (not terminal, not chance)")
        nn = self.game.engine.net_scratch(*self._act.shape)
        mask = np.zeros(self.game.num_actions, np.uint8)
        return int(
            self.game.engine.seat_action(
                state.array.copy(), self.game.params, table, mask, self._prng, nn
            )
        )

    def evaluate(self, observation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(logits, value)`` of the network for one observation."""
        return self.network.evaluate(observation)


# ---------------------------------------------------------------- the network searching
class NetworkSearchAgent:
    """A network guiding the compiled search (:func:`boardsim.core.search.games.seat_search`).

    ``needs_state = True``: the search runs on copies of the state (dice and hidden
    cards sampled from the agent's own generator, never the state's).
    """

    name = "alphazero-mcts"
    needs_state = True

    def __init__(
        self,
        game: Game,
        network: Network,
        simulations: int,
        seed: int | None = None,
        label: str = "alphazero-mcts",
        **options: Any,
    ) -> None:
        check_network(game, network, strict_options=False)
        self.game = game
        self.network = network
        self.settings = search_settings(network, simulations, **options)
        self.simulations = int(self.settings["simulations"])
        self.label = label
        self.rng = np.random.default_rng(seed)
        self._seat = search_seat(network, self.settings, label)
        self._table = seat_table(game, [self._seat] * game.max_players)
        self._ws = game.mcts.workspace(self.simulations + 1)
        slots, width = new_scratch(network.layout).shape
        self._nws = game.mcts.net_workspace(
            self.simulations + 1, self.simulations + 1, slots, width
        )
        self._root_mask = np.zeros(game.num_actions, np.uint8)
        self.last_policy = np.zeros(game.num_actions, np.float32)

    def __repr__(self) -> str:
        return f"NetworkSearchAgent({self.game.name!r}, {self.label!r}, {self.settings})"

    def compiled_seat(self) -> Seat:
        """This search as a compiled seat (its network and settings)."""
        return self._seat

    def act_state(self, state: State) -> int:
        """The searched move for the player to move in ``state`` (left unchanged); the
        search's policy target is kept in ``last_policy``."""
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("the search chooses for a player to move: over, or at chance")
        root = np.ascontiguousarray(state.array, np.int32).copy()
        action = self.game.mcts.seat_search(
            root,
            self.game.params,
            self._table,
            np.int64(state.current_player()),
            np.int64(self.rng.integers(1 << 62)),
            self._ws,
            self._nws,
            self._root_mask,
            self.last_policy,
        )
        if action < 0:
            raise RuntimeError("the search found no legal action at a decision node")
        return int(action)

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None
    ) -> int:
        """The searched move for ``state`` (required: the search runs on the state);
        ``action_mask`` is checked against it."""
        if state is None:
            raise TypeError("NetworkSearchAgent searches the game state: pass state=... to act()")
        action = self.act_state(state)
        if action_mask is not None and not action_mask[action]:
            raise ValueError(f"the state given does not match the mask: {action} is masked out")
        return action


# ---------------------------------------------------------------- factories
def _network_for(game: Game, arg: str | None, kind: str, strict: bool) -> tuple[Network, str]:
    if arg:
        network = load_network(arg)
        where = f"network {arg}"
    else:
        network = shipped_network(game.name, kind)
        where = f"the {kind} network shipped for {game.name}"
    check_network(game, network, strict_options=strict, where=where)
    return network, where


def make_agent(
    game: Game,
    arg: str | None,
    seed: int | None,
    temperature: float = 0.0,
    strict_options: bool = True,
    **options: Any,
) -> NetworkAgent:
    """The ``"alphazero[:PATH]"`` / ``"net:PATH"`` factory: the network alone."""
    if options:
        raise OptionError(
            f"a network agent takes temperature= and strict_options=, not {sorted(options)}"
        )
    network, _ = _network_for(game, arg, "alphazero", strict_options)
    label = f"alphazero:{arg}" if arg else "alphazero"
    return NetworkAgent(game, network, seed, temperature=temperature, label=label)


def make_net_agent(game: Game, arg: str | None, seed: int | None, **options: Any) -> NetworkAgent:
    """The ``"net:PATH"`` factory."""
    if not arg:
        raise OptionError("the net agent needs a file: 'net:PATH' (.npz, or a checkpoint)")
    return make_agent(game, arg, seed, **options)


def make_search_agent(
    game: Game, arg: str | None, seed: int | None, strict_options: bool = True, **options: Any
) -> NetworkSearchAgent:
    """The ``"alphazero-mcts:SIMS[:PATH]"`` factory: the network guiding a search."""
    sims_text, _, path = (arg or "").partition(":")
    try:
        sims = int(sims_text) if sims_text else 200
    except ValueError:
        raise OptionError(
            f"alphazero-mcts: simulations must be a whole number like "
            f"'alphazero-mcts:200', got {sims_text!r}"
        ) from None
    network, _ = _network_for(game, path or None, "alphazero", strict_options)
    label = f"alphazero-mcts:{arg}" if arg else "alphazero-mcts"
    return NetworkSearchAgent(game, network, sims, seed, label=label, **options)
