"""Game traces for the balance metrics, played in compiled code.

A :class:`Traces` holds ``n`` finished games: their returns, lengths and
truncation flags (what a sweep row has), and for each decision the player who
decided, how many actions were legal and every player's value estimate of the
position: a network's value head (``play_traces(values=network)``: the learned value,
from the viewpoint of the player to move) or the game's progress measure
``evaluate_position``.

:func:`play_traces` plays them with :func:`boardsim.core.record.play_recorded`:
the same games a sweep's cell plays (game ``first_game + k`` of the run ``seed``),
so the metrics of a cell describe the very games its win rates count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from boardsim.core import record
from boardsim.core.batch import COMPILED_POLICIES, threads_used
from boardsim.core.bound import BoundFunction
from boardsim.core.errors import OptionError
from boardsim.core.game import Game
from boardsim.core.header import FLAG_TRUNCATED, POLICY_MCTS, POLICY_NETWORK
from boardsim.core.network import Network
from boardsim.core.seats import Seat, seat_table
from boardsim.research.players import any_options_maker, compiled_seats

DEFAULT_MAX_LEN = 4096  # decisions recorded a game (a longer game is cut in its trace only)


@dataclass
class Traces:
    """Finished games, one row a game, with their per-decision records.

    ``actors``, ``legal`` are ``[games, max_len]``, ``values`` ``[games, max_len, players]``;
    game ``k`` has ``recorded[k] = min(decisions[k], max_len)`` valid entries.
    """

    returns: np.ndarray  # [games, players], final returns
    decisions: np.ndarray  # [games], decisions taken
    truncated: np.ndarray  # [games], cut by max_decisions
    actors: np.ndarray
    legal: np.ndarray
    values: np.ndarray

    @property
    def games(self) -> int:
        """How many games."""
        return int(self.returns.shape[0])

    @property
    def players(self) -> int:
        """Players a game."""
        return int(self.returns.shape[1])

    @property
    def recorded(self) -> np.ndarray:
        """Decisions recorded per game (the trace of a game longer than the buffers is cut)."""
        return np.minimum(self.decisions, self.legal.shape[1])

    def game(self, k: int) -> dict[str, np.ndarray]:
        """Game ``k``'s valid records: ``actors``, ``legal``, ``values`` and ``returns``."""
        n = int(self.recorded[k])
        return {
            "actors": self.actors[k, :n],
            "legal": self.legal[k, :n],
            "values": self.values[k, :n],
            "returns": self.returns[k],
        }


def from_games(games: Iterable[Any], players: int) -> Traces:
    """Traces from plain per-game records (for tests and other sources).

    Each game is a mapping with ``legal`` (one count a decision), ``values`` (one row
    of ``players`` numbers a decision), ``returns`` (``players`` numbers), and
    optionally ``actors`` (default: the seats in turn) and ``truncated``.
    """
    games = list(games)
    length = max([len(g["legal"]) for g in games] + [1])
    n = len(games)
    out = Traces(
        returns=np.zeros((n, players)),
        decisions=np.zeros(n, np.int64),
        truncated=np.zeros(n, bool),
        actors=np.zeros((n, length), np.int8),
        legal=np.zeros((n, length), np.int32),
        values=np.zeros((n, length, players), np.float32),
    )
    for k, g in enumerate(games):
        t = len(g["legal"])
        out.returns[k] = g["returns"]
        out.decisions[k] = t
        out.truncated[k] = bool(g.get("truncated", False))
        out.actors[k, :t] = g.get("actors", [i % players for i in range(t)])
        out.legal[k, :t] = g["legal"]
        if t:
            out.values[k, :t] = np.asarray(g["values"], dtype=np.float32).reshape(t, players)
    return out


def play_traces(
    game: Game,
    num_games: int,
    seats: Sequence[Any],
    seed: int = 0,
    first_game: int = 0,
    threads: int | None = None,
    max_len: int = DEFAULT_MAX_LEN,
    values: Network | None = None,
) -> Traces:
    """Play ``num_games`` whole games in compiled code, recording every decision.

    ``seats``: one a player, a spec that plays in compiled code (``random``, ``heuristic``,
    ``mcts:64`` against ``mcts:32``, a network) or a :class:`~boardsim.core.seats.Seat`.
    The games are the ones ``boardsim.core.batch.play_games`` plays for the same seed.
    ``values``: the network whose value head values each position (it must fit the
    game: a :class:`ValueError` says why not), or None for the game's progress measure.
    """
    if num_games < 0 or first_game < 0:
        raise ValueError("num_games and first_game must be >= 0")
    if max_len < 1:
        raise ValueError("max_len must be at least 1")
    if len(seats) != game.num_players:
        raise ValueError(f"{len(seats)} seats for {game.num_players} players")
    specs = [s for s in seats if not isinstance(s, Seat)]
    try:
        made = iter(compiled_seats(game, specs, any_options_maker))
    except OptionError as exc:
        raise ValueError(f"{exc}; choose mcts, mcts:SIMS, {', '.join(COMPILED_POLICIES)}") from None
    table = seat_table(game, [s if isinstance(s, Seat) else next(made) for s in seats])
    judge_seat = "random" if values is None else Seat(POLICY_NETWORK, values, label="values")
    judge = seat_table(game, [judge_seat] * game.num_players)
    n, p = num_games, game.max_players
    returns = np.zeros((n, p), np.float64)
    decisions = np.zeros(n, np.int64)
    flags = np.zeros(n, np.int32)
    actors = np.zeros((n, max_len), np.int8)
    legal = np.zeros((n, max_len), np.int32)
    values = np.zeros((n, max_len, p), np.float32)
    play = BoundFunction(record.play_recorded, game.kernels)
    searched = bool((table[0] == POLICY_MCTS).any())
    with threads_used(threads), numba.parallel_chunksize(1 if searched else 0):
        play(
            game.params,
            table,
            judge,
            np.int64(seed),
            np.int64(first_game),
            returns,
            decisions,
            flags,
            actors,
            legal,
            values,
        )
    k = game.num_players
    return Traces(
        returns=returns[:, :k],
        decisions=decisions,
        truncated=(flags & FLAG_TRUNCATED) != 0,
        actors=actors,
        legal=legal,
        values=values[:, :, :k],
    )
