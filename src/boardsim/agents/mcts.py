"""Monte Carlo tree search agents: the compiled UCT of ``core/search/tree.py``.

``load("mcts:200", game)`` (or :func:`make_agent`) gives an :class:`MCTSAgent`
searching 200 simulations a decision; settings other than the game's own follow the
budget in the spec, each ``:KEY=VALUE`` (``"mcts:800:prior=0:rollout=random"``), so that
a tournament, a sweep or a ladder can field one search at several settings. The search
runs entirely in numba on copies of the state: the given state is never changed, the dice
and draws it would meet are sampled from the agent's own generator (never the state's), and
in the liberation race the other players' hands are redealt for every
simulation from the cards the player has not seen (determinization).

:func:`play_games` plays whole games with MCTS seats inside compiled code (one
game a thread), for strength sweeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardsim.core.batch import play_games as play_seats
from boardsim.core.errors import OptionError
from boardsim.core.game import Game, State
from boardsim.core.header import POLICY_HEURISTIC, POLICY_RANDOM
from boardsim.core.seats import UCT_DEFAULTS, Seat, SeatLike
from boardsim.core.seats import uct_seat as make_uct_seat

ROLLOUT_POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}
DEFAULT_SIMULATIONS = 200
MAX_SIMULATIONS = 10_000_000

# the settings of a game that declares none (GameDefinition.mcts_defaults overrides them)
GENERIC_DEFAULTS = UCT_DEFAULTS
OPTION_NAMES = ("simulations", "c_uct", "rollout", "rollout_depth", "prior")


def parse_simulations(value: Any) -> int:
    """Simulations per decision from an int or a string (``"200"``); else :class:`OptionError`."""
    if isinstance(value, bool):
        raise OptionError(f"mcts: simulations must be a whole number, got {value!r}")
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise OptionError(
                f"mcts: simulations must be a whole number like 'mcts:200', got {value!r}"
            ) from None
    if not isinstance(value, int | np.integer) or not 1 <= int(value) <= MAX_SIMULATIONS:
        raise OptionError(f"mcts: simulations must be 1..{MAX_SIMULATIONS}, got {value!r}")
    return int(value)


def search_settings(game: Game, **options: Any) -> dict[str, Any]:
    """The game's defaults with ``options`` applied, each checked (:class:`OptionError`)."""
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise OptionError(f"mcts: unknown option(s) {unknown}; options: {', '.join(OPTION_NAMES)}")
    settings = {"simulations": DEFAULT_SIMULATIONS}
    settings.update(GENERIC_DEFAULTS)
    settings.update(game.definition.mcts_defaults)
    settings.update(options)
    settings["simulations"] = parse_simulations(settings["simulations"])
    c = settings["c_uct"]
    if isinstance(c, bool) or not isinstance(c, int | float) or not 0 <= float(c) < float("inf"):
        raise OptionError(f"mcts: c_uct must be a finite number >= 0, got {c!r}")
    settings["c_uct"] = float(c)
    prior = settings["prior"]
    if (
        isinstance(prior, bool)
        or not isinstance(prior, int | float)
        or not 0 <= float(prior) < float("inf")
    ):
        raise OptionError(
            f"mcts: prior (the heuristic's progressive bias) must be a finite number >= 0, "
            f"got {prior!r}"
        )
    settings["prior"] = float(prior)
    if settings["rollout"] not in ROLLOUT_POLICIES:
        raise OptionError(
            f"mcts: rollout must be one of {', '.join(ROLLOUT_POLICIES)}, got "
            f"{settings['rollout']!r}"
        )
    depth = settings["rollout_depth"]
    if isinstance(depth, bool) or not isinstance(depth, int | np.integer) or depth < -1:
        raise OptionError(f"mcts: rollout_depth must be -1 (to the end) or >= 0, got {depth!r}")
    settings["rollout_depth"] = int(depth)
    return settings


def uct_seat(game: Game, label: str = "mcts", **options: Any) -> Seat:
    """The compiled seat of UCT with the game's defaults and ``options`` (checked)."""
    s = search_settings(game, **options)
    return make_uct_seat(
        s["simulations"], s["c_uct"], s["rollout"], s["rollout_depth"], s["prior"], label
    )


class MCTSAgent:
    """UCT over sampled dice (and determinized hidden cards), compiled per game.

    Options: ``simulations`` per decision, ``c_uct`` (UCB1 exploration, on the
    returns' win/loss scale), ``rollout`` (``"random"`` or ``"heuristic"``: the
    game's compiled ``heuristic_action``), ``rollout_depth`` (decisions a rollout
    plays before the game's evaluation; -1 to the end), ``prior`` (>= 0: the weight of
    the progressive bias toward the heuristic's move at every tree node, which is also
    expanded first; 0: plain UCT), ``seed`` (the same seed
    and the same positions give the same moves).
    """

    name = "mcts"
    needs_state = True

    def __init__(self, game: Game, seed: int | None = None, **options: Any) -> None:
        self.game = game
        self.settings = search_settings(game, **options)
        self.simulations: int = self.settings["simulations"]
        self.c_uct: float = self.settings["c_uct"]
        self.rollout: str = self.settings["rollout"]
        self.rollout_depth: int = self.settings["rollout_depth"]
        self.prior: float = self.settings["prior"]
        self.rng = np.random.default_rng(seed)
        self._workspace = game.mcts.workspace(self.simulations + 1)
        self._last_player = -1

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.settings.items())
        return f"MCTSAgent({self.game.name!r}, {shown})"

    def compiled_seat(self) -> Seat:
        """This search as a compiled seat (whole games in ``play_games``, sweeps, eval)."""
        return uct_seat(self.game, self.label(), **self.settings)

    def label(self) -> str:
        """This search's spec: ``mcts:SIMS``, then each setting that is not the game's own
        (``mcts:800:prior=0.0``)."""
        own = search_settings(self.game)
        changed = [
            f":{k}={v}" for k, v in self.settings.items() if k != "simulations" and own[k] != v
        ]
        return f"mcts:{self.simulations}" + "".join(changed)

    def act_state(self, state: State) -> int:
        """The action the search picks for the player to move in ``state`` (left unchanged)."""
        if not isinstance(state, State):
            raise TypeError(f"MCTSAgent searches a boardsim State, got {type(state).__name__}")
        if state.game.name != self.game.name:
            raise ValueError(f"this MCTS agent plays {self.game.name}, not {state.game.name}")
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("MCTS chooses for a player to move: the game is over or at chance")
        player = state.current_player()
        root = np.ascontiguousarray(state.array, dtype=np.int32).copy()
        action = self.game.mcts.search(
            root,
            self.game.params,
            np.int64(self.simulations),
            np.float64(self.c_uct),
            np.int64(ROLLOUT_POLICIES[self.rollout]),
            np.int64(self.rollout_depth),
            np.float64(self.prior),
            np.int64(self.rng.integers(1 << 62)),
            self._workspace,
        )
        self._last_player = player
        if action < 0:
            raise RuntimeError("MCTS found no legal action at a decision node")
        return int(action)

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None
    ) -> int:
        """Env interface: the observation and mask are not enough, the search needs ``state``."""
        if state is None:
            raise TypeError("MCTSAgent searches the game state: pass state=... to act()")
        action = self.act_state(state)
        if action_mask is not None and not action_mask[action]:
            raise ValueError(f"the state given does not match the mask: {action} is masked out")
        return action

    def act_among(
        self, observation: np.ndarray, allowed: np.ndarray, state: State | None = None
    ) -> int:
        """Restricted play (:mod:`boardsim.agents.restricted`): the search as usual, then
        its choice when ``allowed``, else the allowed root action it visited most (the
        higher mean value breaking a tie; the first allowed one if it visited none)."""
        if state is None:
            raise TypeError("MCTSAgent searches the game state: pass state=... to act_among()")
        action = self.act_state(state)
        if allowed[action]:
            return action
        visits, values = self.root_statistics()
        ok = np.flatnonzero(allowed)
        best = max(ok, key=lambda a: (visits[a], values[a] if visits[a] else -np.inf))
        return int(best)

    def root_statistics(self) -> tuple[np.ndarray, np.ndarray]:
        """After a search: visits and mean value (for the player who moved) of each root action.

        Both are zero everywhere when the last decision had a single legal action
        (no search was needed).
        """
        visits = np.zeros(self.game.num_actions, np.int64)
        values = np.zeros(self.game.num_actions, np.float64)
        if self._last_player >= 0:
            self.game.mcts.root_stats(self._workspace, self._last_player, visits, values)
        return visits, values


def spec_settings(pairs: Sequence[str]) -> dict[str, Any]:
    """A search spec's settings after its budget (``["prior=0", "rollout=random"]`` of
    ``"mcts:800:prior=0:rollout=random"``), each read as its option's type (checked later
    by :func:`search_settings`); :class:`OptionError` for a pair that is not one."""
    kinds = {"c_uct": float, "prior": float, "rollout_depth": int, "rollout": str}
    settings: dict[str, Any] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or key not in kinds or not value:
            raise OptionError(
                f"mcts: {pair!r} is not a setting; after the simulations give KEY=VALUE, "
                f"each after a colon, KEY one of {', '.join(kinds)} "
                "(e.g. 'mcts:800:prior=0:rollout=random')"
            )
        if key in settings:
            raise OptionError(f"mcts: {key} given twice in the spec")
        try:
            settings[key] = kinds[key](value)
        except ValueError:
            kind = "a whole number" if kinds[key] is int else "a number"
            raise OptionError(f"mcts: {key} must be {kind}, got {value!r}") from None
    return settings


def spec_options(arg: str) -> dict[str, Any]:
    """What follows ``mcts:`` in a spec, read: the simulations (``"800"``), then any
    settings (``"800:prior=0"``: :func:`spec_settings`), each checked."""
    sims, *pairs = arg.split(":")
    return {"simulations": parse_simulations(sims), **spec_settings(pairs)}


def make_agent(game: Game, arg: str | None, seed: int | None, **options: Any) -> MCTSAgent:
    """Factory of ``AGENT_FACTORIES["mcts"]``: ``arg`` is the simulations (``"mcts:200"``),
    then any settings (``"mcts:800:prior=0"``: :func:`spec_options`)."""
    if arg is not None:
        given = spec_options(arg)
        twice = sorted(set(given) & set(options))
        if twice:
            raise OptionError(
                f"mcts: {', '.join(twice)} given twice (in the spec and as an option)"
            )
        options.update(given)
    return MCTSAgent(game, seed=seed, **options)


def play_games(
    game: Game,
    num_games: int,
    seats: Sequence[SeatLike],
    seed: int = 0,
    first_game: int = 0,
    threads: int | None = None,
    **options: Any,
) -> dict[str, np.ndarray]:
    """Whole games in compiled code, each player ``"mcts"`` (UCT with ``options``, one
    setting for every such seat), ``"random"``, ``"heuristic"``, or any agent or
    :class:`~boardsim.core.seats.Seat` that plays in compiled code (a network, a network
    search, an :class:`MCTSAgent` with its own settings).

    Game ``first_game + k`` of the run ``seed`` is the same game whatever the
    batch and the threads (as ``boardsim.core.batch.play_games``; with no searching seat
    the games are exactly its games). Returns ``returns`` ``[num_games, num_players]``,
    ``decisions`` and ``truncated``.
    """
    if num_games < 0 or first_game < 0:
        raise ValueError("num_games and first_game must be >= 0")
    if len(seats) != game.num_players:
        raise ValueError(f"{len(seats)} seats for {game.num_players} players")
    uct = uct_seat(game, **options) if any(s == "mcts" for s in seats) else None
    try:
        return play_seats(
            game, num_games, [uct if s == "mcts" else s for s in seats], seed, first_game, threads
        )
    except ValueError as exc:
        if "compiled" not in str(exc):
            raise
        raise ValueError(
            f"{exc}; choose mcts, random, heuristic or an agent that plays compiled"
        ) from None
