"""Who plays each seat in compiled code: a policy code, a network, settings, per player.

The compiled loops (:mod:`boardsim.core.engine`'s batches and single steps,
:mod:`boardsim.core.search`'s whole games, searched or not, and self-play) take one
*seat table*, a named tuple of seven arrays of fixed types whatever is playing, so one
compiled specialization serves every mix of players (:class:`SeatTable`):

``(codes, nets, settings, teams, weights, layout, forbidden)``

- ``codes[p]``: the ``POLICY_*`` code of player ``p`` (``core/header.py``);
- ``nets[p]``: the header row of player ``p``'s network in ``layout`` (-1: none);
- ``settings[p, S_*]``: the player's settings (below), ``float64``;
- ``teams[p]``: the side of player ``p`` (a network with one value shares it with the side);
- ``weights``, ``layout``: every network of the table, concatenated
  (:func:`boardsim.core.nn.concatenate`);
- ``forbidden[p, a]``: 1 where player ``p`` may not take action ``a`` while another is
  legal (restricted play, :mod:`boardsim.agents.restricted`); a table where no seat is
  restricted has it ``[players, 0]``, and the compiled loops skip it.

:class:`Seat` describes one player from Python; :func:`seat_table` builds the table.
Names (``"random"``, ``"heuristic"``) are resolved here; agents that play in compiled
code (networks, searches) give their own :class:`Seat` (``agent.compiled_seat()``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from boardsim.core import header as hd
from boardsim.core.errors import OptionError
from boardsim.core.header import S_TEMPERATURE  # noqa: F401  (re-exported)
from boardsim.core.network import Network, concatenate

SEARCHES = {"uct": hd.SEARCH_UCT, "puct": hd.SEARCH_PUCT, "gumbel": hd.SEARCH_GUMBEL}

# the defaults of a network search (boardsim.agents.network documents each)
NETWORK_SEARCH_DEFAULTS: dict[str, Any] = {
    "search": "puct",
    "c_puct": 1.5,
    "mix": 0.0,
    "rollout": "heuristic",
    "rollout_depth": 20,
    "gumbel_m": 16,
    "c_visit": 50.0,
    "c_scale": 1.0,
    "gumbel_scale": 0.0,
    "noise": 0.0,
    "alpha": 0.3,
    "fpu": 0.2,
    "sample_moves": 0,
}

_NAMED = {"random": hd.POLICY_RANDOM, "heuristic": hd.POLICY_HEURISTIC}


class SeatTable(NamedTuple):
    """The compiled seat table (module docstring), by name: numba reads a named tuple's
    fields as it reads a tuple's items, at no cost."""

    codes: np.ndarray  # [players] POLICY_* code
    nets: np.ndarray  # [players] header row of the player's network in layout (-1: none)
    settings: np.ndarray  # [players, NUM_SETTINGS] S_* settings, float64
    teams: np.ndarray  # [players] side
    weights: np.ndarray  # every network's weights, concatenated
    layout: np.ndarray  # every network's layout, concatenated
    forbidden: np.ndarray  # [players, actions or 0] uint8: restricted play's forbidden actions


@dataclass
class Seat:
    """One player in compiled code: a policy code, a network (or None) and its settings."""

    code: int
    network: Network | None = None
    settings: Mapping[int, float] = field(default_factory=dict)
    label: str = ""
    # restricted play (boardsim.agents.restricted): bool[num_actions], the actions this
    # seat never takes while another is legal; None: unrestricted
    forbidden: np.ndarray | None = None

    @classmethod
    def named(cls, name: str) -> Seat:
        """``"random"`` or ``"heuristic"``."""
        if name not in _NAMED:
            raise ValueError(f"no compiled policy {name!r}; compiled policies: {', '.join(_NAMED)}")
        return cls(_NAMED[name], label=name)


SeatLike = str | Seat | Any  # a name, a Seat, or an agent with compiled_seat()


def as_seat(item: SeatLike) -> Seat:
    """A :class:`Seat` from a name, a Seat, or an agent that plays in compiled code."""
    if isinstance(item, Seat):
        return item
    if isinstance(item, str):
        return Seat.named(item)
    make = getattr(item, "compiled_seat", None)
    if make is None:
        raise ValueError(
            f"{item!r} does not play in compiled code: give 'random', 'heuristic', or an agent "
            "with compiled_seat() (a network, an MCTS agent)"
        )
    return make()


def seats_for(game: Any, players: SeatLike | Sequence[SeatLike]) -> list[Seat]:
    """One :class:`Seat` a player (``max_players`` of them; the seats past ``num_players``
    random) from one item for everyone or one item a player."""
    items = [players] * game.num_players if _single(players) else list(players)
    if len(items) != game.num_players and len(items) != game.max_players:
        raise ValueError(
            f"{len(items)} policies for {game.num_players} players: give one or one a player"
        )
    seats = [as_seat(x) for x in items]
    seats += [Seat.named("random")] * (game.max_players - len(seats))
    return seats


def _single(players: Any) -> bool:
    return isinstance(players, str | Seat) or hasattr(players, "compiled_seat")


def seat_table(game: Any, players: SeatLike | Sequence[SeatLike]) -> SeatTable:
    """The compiled seat table of ``players`` in ``game`` (module docstring)."""
    seats = seats_for(game, players)
    codes = np.array([s.code for s in seats], np.int32)
    settings = np.zeros((len(seats), hd.NUM_SETTINGS), np.float64)
    networks: list[Network] = []
    index: dict[int, int] = {}
    owner = np.full(len(seats), -1, np.int32)
    for p, seat in enumerate(seats):
        for key, value in seat.settings.items():
            settings[p, int(key)] = float(value)
        if seat.network is not None:
            _check_network(game, seat.network)
            if id(seat.network) not in index:
                index[id(seat.network)] = len(networks)
                networks.append(seat.network)
            owner[p] = index[id(seat.network)]
        elif seat.code == hd.POLICY_NETWORK:
            raise ValueError(f"seat {p}: a network seat needs a network")
    weights, layout, bases = concatenate(networks)
    nets = np.array([bases[k] if k >= 0 else -1 for k in owner], np.int32)
    n = game.num_players
    teams = np.array([game.teams[p] if p < n else n + p for p in range(len(seats))], np.int32)
    return SeatTable(codes, nets, settings, teams, weights, layout, forbidden_rows(game, seats))


def forbidden_rows(game: Any, seats: Sequence[Seat]) -> np.ndarray:
    """The table's ``forbidden`` (module docstring): one row a seat, or none at all when no
    seat is restricted. A restriction needs a seat that chooses among its legal actions:
    a random one, a network, or UCT (the most visited allowed action at the root); the
    heuristic picks one move and a network search's root is not UCT's, so
    :class:`ValueError` for those."""
    if all(seat.forbidden is None for seat in seats):
        return np.zeros((len(seats), 0), np.uint8)
    rows = np.zeros((len(seats), game.num_actions), np.uint8)
    for p, seat in enumerate(seats):
        if seat.forbidden is None:
            continue
        forbidden = np.asarray(seat.forbidden)
        if forbidden.shape != (game.num_actions,):
            raise ValueError(
                f"seat {p}: forbidden must be one flag an action ({game.num_actions}), got "
                f"shape {forbidden.shape}"
            )
        uct = seat.code == hd.POLICY_MCTS and seat.settings.get(hd.S_SEARCH, 0) == hd.SEARCH_UCT
        if seat.code not in (hd.POLICY_RANDOM, hd.POLICY_NETWORK) and not uct:
            raise ValueError(
                f"seat {p} ({seat.label or seat.code}) cannot be restricted in compiled code: "
                "restricted seats are random, a network, or UCT"
            )
        rows[p] = forbidden != 0
    return rows


def _check_network(game: Any, network: Network) -> None:
    if network.observation_size != game.observation_size or network.num_actions != game.num_actions:
        raise ValueError(
            f"the network reads {network.observation_size} values and plays "
            f"{network.num_actions} actions; {game.name} has {game.observation_size} and "
            f"{game.num_actions}"
        )
    if network.value_size not in (1, game.num_players):
        raise ValueError(
            f"the network's value has {network.value_size} outputs; {game.name} with these "
            f"options has {game.num_players} players (give 1 or {game.num_players})"
        )


def search_simulations(table: SeatTable) -> int:
    """The most simulations any searching seat of the table uses (0: none searches)."""
    codes, settings = table.codes, table.settings
    sims = [int(settings[p, hd.S_SIMS]) for p in range(len(codes)) if codes[p] == hd.POLICY_MCTS]
    return max(sims, default=0)


def uses_networks(table: SeatTable) -> bool:
    """Whether a seat of the table plays by a network or searches with one (PUCT, Gumbel);
    without, ``search.games.play_plain_games`` plays its games (the same games, less to
    compile)."""
    codes, settings = table.codes, table.settings
    searching = codes == hd.POLICY_MCTS
    return bool(
        (codes == hd.POLICY_NETWORK).any()
        or (settings[searching, hd.S_SEARCH] != hd.SEARCH_UCT).any()
    )


# ---------------------------------------------------------------- network searches
ROLLOUTS = {"random": hd.POLICY_RANDOM, "heuristic": hd.POLICY_HEURISTIC}
MAX_SIMULATIONS = 10_000_000

# search option -> (settings column, kind)
SEARCH_COLUMNS: dict[str, tuple[int, str]] = {
    "simulations": (hd.S_SIMS, "int"),
    "search": (hd.S_SEARCH, "search"),
    "c_puct": (hd.S_C, "float"),
    "mix": (hd.S_MIX, "unit"),
    "rollout": (hd.S_ROLLOUT, "rollout"),
    "rollout_depth": (hd.S_DEPTH, "depth"),
    "gumbel_m": (hd.S_GUMBEL_M, "int"),
    "c_visit": (hd.S_C_VISIT, "float"),
    "c_scale": (hd.S_C_SCALE, "float"),
    "gumbel_scale": (hd.S_GUMBEL_SCALE, "float"),
    "noise": (hd.S_NOISE, "unit"),
    "alpha": (hd.S_ALPHA, "positive"),
    "fpu": (hd.S_FPU, "float"),
    "sample_moves": (hd.S_SAMPLE_MOVES, "count"),
}


def search_settings(network: Network | None, simulations: int, **options: Any) -> dict[str, Any]:
    """The network search's settings: the defaults, then what the network was trained with
    (its metadata ``search``), then ``options``; each checked (:class:`OptionError`)."""
    unknown = sorted(set(options) - set(SEARCH_COLUMNS))
    if unknown:
        raise OptionError(
            f"network search: unknown option(s) {unknown}; options: {', '.join(SEARCH_COLUMNS)}"
        )
    settings: dict[str, Any] = dict(NETWORK_SEARCH_DEFAULTS)
    if network is not None:
        settings.update(
            {k: v for k, v in network.meta.get("search", {}).items() if k in SEARCH_COLUMNS}
        )
    settings.update(options)
    settings["simulations"] = simulations
    for key, value in settings.items():
        settings[key] = _checked(key, value)
    return settings


def _checked(key: str, value: Any) -> Any:
    kind = SEARCH_COLUMNS[key][1]
    if kind == "search":
        if value not in SEARCHES or value == "uct":
            raise OptionError(f"network search: search must be puct or gumbel, got {value!r}")
        return value
    if kind == "rollout":
        if value not in ROLLOUTS:
            raise OptionError(f"network search: rollout must be random or heuristic: {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise OptionError(f"network search: {key} must be a number, got {value!r}")
    x = float(value)
    if not np.isfinite(x):
        raise OptionError(f"network search: {key} must be finite, got {value!r}")
    checks = {
        "int": (x >= 1 and x == int(x) and x <= MAX_SIMULATIONS, "a whole number >= 1"),
        "count": (x >= 0 and x == int(x), "a whole number >= 0"),
        "depth": (x >= -1 and x == int(x), "-1 (to the end) or a whole number >= 0"),
        "unit": (0 <= x <= 1, "in [0, 1]"),
        "positive": (x > 0, "positive"),
        "float": (x >= 0, ">= 0"),
    }
    ok, what = checks[kind]
    if not ok:
        raise OptionError(f"network search: {key} must be {what}, got {value!r}")
    return int(x) if kind in ("int", "count", "depth") else x


def search_seat(network: Network, settings: dict[str, Any], label: str = "") -> Seat:
    """The compiled searching seat of ``network`` with ``settings`` (:func:`search_settings`)."""
    columns: dict[int, float] = {}
    for key, value in settings.items():
        column = SEARCH_COLUMNS[key][0]
        if key == "search":
            columns[column] = SEARCHES[value]
        elif key == "rollout":
            columns[column] = ROLLOUTS[value]
        else:
            columns[column] = float(value)
    return Seat(hd.POLICY_MCTS, network, columns, label)


# ---------------------------------------------------------------- UCT
# UCT's settings for a game that declares none (GameDefinition.mcts_defaults overrides them)
UCT_DEFAULTS: dict[str, Any] = {
    "c_uct": 1.0,
    "rollout": "random",
    "rollout_depth": 40,
    "prior": 0.0,
}


def uct_seat(
    simulations: int,
    c_uct: float,
    rollout: str,
    rollout_depth: int,
    prior: float,
    label: str = "mcts",
) -> Seat:
    """The compiled seat of UCT with rollouts (the settings already checked:
    ``boardsim.agents.mcts.search_settings``)."""
    return Seat(
        hd.POLICY_MCTS,
        None,
        {
            hd.S_SEARCH: hd.SEARCH_UCT,
            hd.S_SIMS: int(simulations),
            hd.S_C: float(c_uct),
            hd.S_ROLLOUT: ROLLOUTS[rollout],
            hd.S_DEPTH: int(rollout_depth),
            hd.S_PRIOR: float(prior),
        },
        label,
    )


def game_uct_seat(game: Any, simulations: int, label: str = "mcts") -> Seat:
    """UCT with the game's own settings (``GameDefinition.mcts_defaults``)."""
    s = {**UCT_DEFAULTS, **game.definition.mcts_defaults}
    return uct_seat(simulations, s["c_uct"], s["rollout"], s["rollout_depth"], s["prior"], label)
