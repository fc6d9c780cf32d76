"""Self-play games for the AlphaZero-family trainer, played here or on a Ray cluster.

Game ``k`` of a run is seeded by the run's seed and ``k`` alone
(:func:`boardsim.core.search.games.selfplay`), so an iteration's games can be cut into
pieces of whole games anywhere: the games, and the buffer they fill in game order, are the
same. :func:`local_selfplay` plays them here in chunks of :data:`SELFPLAY_CHUNK` (progress
between chunks); :class:`RaySelfPlay` plays them on Ray.

**On Ray** (``boardsim train GAME --algo alphazero --backend ray``): the self-play
workers are Ray actors, one core and one thread each, each holding the compiled game. The
driver is the learner: it trains, gates and publishes networks. Each iteration's seat
table (the network that plays, with its search) goes to the object store once; each piece
of whole games goes to a worker with it, and comes back tagged with the digest of the
table it was played with, which the driver checks. So a worker takes a new network only
between games, never inside one. The schedule is synchronous: an iteration's games are all
finished before the learner trains on them, and the driver adds the pieces in game order,
so a run equals the local one bit for bit.

A worker that dies is restarted by Ray and its piece played again from its seeds
(``max_task_retries``). The driver keeps one result a piece, so nothing is lost or
counted twice.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import numba
import numpy as np

from boardsim.api import make_game
from boardsim.core.batch import threads_used
from boardsim.core.cluster import _require_ray, init_ray
from boardsim.core.errors import OptionError
from boardsim.core.seats import SeatTable

SELFPLAY_CHUNK = 16  # games a compiled self-play call here (progress between calls)
PIECE = 32  # games a piece on Ray at most
PIECES_A_WORKER = 4  # pieces a worker gets at least, when the games allow: the load evens out
RETRIES = 3  # times Ray runs a piece again whose worker died
BACKENDS: Sequence[str] = ("local", "ray")  # where a run's self-play games are played


def selfplay_games(
    game: Any,
    table: SeatTable,
    record: np.ndarray,
    seed: int,
    first: int,
    n: int,
    cap: int,
    threads: int | None,
    cheap: SeatTable | None = None,
    full_share: float = 1.0,
    opening: int = 0,
    opening_share: float = 1.0,
) -> dict[str, np.ndarray]:
    """``n`` self-play games from game ``first`` of the run ``seed``; the recorded
    positions flattened (each with its game's returns). ``cheap``, ``full_share``: the
    playout cap (None: off); ``opening``: the random openings' most moves (0: none),
    ``opening_share``: the share of the games that have one
    (:func:`boardsim.core.search.games.selfplay`)."""
    g = game
    states = np.zeros((n, cap, g.state_size), np.int32)
    targets = np.zeros((n, cap, g.num_actions), np.float32)
    values = np.zeros((n, cap, g.max_players), np.float64)
    count = np.zeros(n, np.int64)
    returns = np.zeros((n, g.max_players), np.float64)
    decisions = np.zeros(n, np.int64)
    flags = np.zeros(n, np.int32)
    with threads_used(threads), numba.parallel_chunksize(1):
        g.mcts.selfplay(
            g.params, table, table if cheap is None else cheap, float(full_share), record,
            int(opening), float(opening_share), int(seed), int(first), states, targets, values,
            count, returns, decisions, flags,
        )  # fmt: skip
    keep = np.arange(cap)[None, :] < count[:, None]
    game_of = np.repeat(np.arange(n), count)
    return {
        "states": states[keep],
        "policies": targets[keep].astype(np.float16),
        "values": values[keep][:, : g.num_players],
        "position_returns": returns[game_of][:, : g.num_players],
        "returns": returns[:, : g.num_players],
        "decisions": decisions,
    }


def table_digest(table: SeatTable) -> str:
    """A short digest of a seat table (its seats, settings and every network's weights):
    which network, searching how, played a piece."""
    h = hashlib.sha256()
    for part in table:
        h.update(np.ascontiguousarray(part).tobytes())
    return h.hexdigest()[:16]


class Deal(NamedTuple):
    """What an iteration's self-play games are played with, whichever games they are."""

    table: SeatTable  # the seats
    cheap: SeatTable | None  # the playout cap's cheap seats (None: no cap)
    share: float  # the decisions searched by ``table`` under the cap
    record: np.ndarray  # the players whose decisions are kept
    seed: int  # the run's
    cap: int  # positions kept a game at most
    opening: int = 0  # a game's random opening moves at most (0: none)
    opening_share: float = 1.0  # the share of the games that have a random opening


def local_selfplay(
    game: Any, deal: Deal, first: int, games: int, threads: int | None
) -> Iterator[dict[str, np.ndarray]]:
    """Games ``first`` to ``first + games`` of the run, dealt by ``deal``, here, a chunk
    at a time in game order."""
    for done in range(0, games, SELFPLAY_CHUNK):
        n = min(SELFPLAY_CHUNK, games - done)
        yield play_dealt(game, deal, first + done, n, threads)


def play_dealt(
    game: Any, deal: Deal, first: int, games: int, threads: int | None
) -> dict[str, np.ndarray]:
    """:func:`selfplay_games` of ``games`` games from ``first``, dealt by ``deal``."""
    d = deal
    return selfplay_games(
        game,
        d.table,
        d.record,
        d.seed,
        first,
        games,
        d.cap,
        threads,
        d.cheap,
        d.share,
        d.opening,
        d.opening_share,
    )


class SelfPlayWorker:
    """A self-play worker (a Ray actor's body): the compiled game, one thread."""

    def __init__(self, game_name: str, options: Mapping[str, Any]) -> None:
        self.game = make_game(game_name, **dict(options))
        numba.set_num_threads(1)

    def play(self, deal: Deal, first: int, games: int) -> dict[str, Any]:
        """Games ``first`` onwards (``games`` of them), whole, as :func:`play_dealt` gives
        them; with the digest of the table that played them and ``first``."""
        out: dict[str, Any] = play_dealt(self.game, deal, first, games, 1)
        out["network"] = table_digest(deal.table)
        out["first"] = first
        return out

    def pid(self) -> int:
        """The worker's process id (for tests that stop a worker)."""
        return os.getpid()


def pieces(first: int, games: int, workers: int, most: int = PIECE) -> list[tuple[int, int]]:
    """An iteration's games ``first`` to ``first + games`` cut into ``(first, games)``
    pieces of at most ``most``, and small enough that each of ``workers`` gets
    :data:`PIECES_A_WORKER` of them when the games allow."""
    if games < 1:
        return []
    size = max(1, min(most, -(-games // (PIECES_A_WORKER * max(1, workers)))))
    return [(first + s, min(size, games - s)) for s in range(0, games, size)]


class RaySelfPlay:
    """Self-play workers on Ray (module docstring): ``workers`` actors (None: one a CPU
    of the cluster), on the cluster at ``address`` or a local Ray (``num_cpus``: its
    CPUs, None all) started here and stopped by :meth:`close`."""

    def __init__(
        self,
        game_name: str,
        options: Mapping[str, Any],
        workers: int | None = None,
        address: str | None = None,
        num_cpus: int | None = None,
    ) -> None:
        if workers is not None and (isinstance(workers, bool) or workers < 1):
            raise OptionError(f"--workers must be at least 1, got {workers!r}")
        ray = _require_ray()
        local = {} if num_cpus is None else {"num_cpus": num_cpus}
        self._started_here = init_ray(address, **local)
        self._ray = ray
        cpus = int(ray.cluster_resources().get("CPU", 1))
        if workers is not None and workers > cpus:
            if self._started_here:
                ray.shutdown()
            raise OptionError(
                f"--workers {workers}: the Ray cluster has {cpus} CPUs, and a worker takes one"
            )
        self.workers = workers or max(1, cpus)
        actor = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=RETRIES)(SelfPlayWorker)
        self.actors = [actor.remote(game_name, dict(options)) for _ in range(self.workers)]
        self.pieces_played: list[tuple[int, int, str]] = []  # (first, games, network)

    def play(self, deal: Deal, first: int, games: int) -> Iterator[dict[str, np.ndarray]]:
        """As :func:`local_selfplay`, on the workers: every piece sent at once, a worker's
        next piece when it is free, the results given back in game order."""
        ray = self._ray
        digest = table_digest(deal.table)
        ref = ray.put(deal)
        queue = pieces(first, games, len(self.actors))
        free = list(self.actors)
        running: dict[Any, tuple[Any, int]] = {}  # object ref -> (actor, piece index)
        done: dict[int, dict[str, Any]] = {}
        sent = given = 0
        while given < len(queue):
            while free and sent < len(queue):
                actor = free.pop(0)
                start, n = queue[sent]
                running[actor.play.remote(ref, start, n)] = (actor, sent)
                sent += 1
            ready, _ = ray.wait(list(running), num_returns=1)
            for r in ready:
                actor, index = running.pop(r)
                out = ray.get(r)
                if out["network"] != digest:
                    raise RuntimeError(
                        f"the piece of games {queue[index][0]}+ was played by network "
                        f"{out['network']}, not the published {digest}"
                    )
                done[index] = out
                free.append(actor)
            while given in done:
                out = done.pop(given)
                self.pieces_played.append((queue[given][0], queue[given][1], out["network"]))
                yield {k: v for k, v in out.items() if k not in ("network", "first")}
                given += 1

    def pids(self) -> list[int]:
        """The workers' process ids."""
        return list(self._ray.get([a.pid.remote() for a in self.actors]))

    def close(self) -> None:
        """Stop the workers, and Ray when it was started here."""
        for a in self.actors:
            self._ray.kill(a)
        self.actors = []
        if self._started_here:
            self._ray.shutdown()


def workers_for(
    backend: str,
    game_name: str,
    options: Mapping[str, Any],
    workers: int | None,
    address: str | None,
) -> RaySelfPlay | None:
    """The self-play workers of ``backend``: none for ``"local"``, Ray's for ``"ray"``."""
    if backend == "local":
        return None
    return RaySelfPlay(game_name, options, workers, address)


def check_backend(backend: str, workers: int | None, address: str | None) -> None:
    """Refuse a backend, or Ray's settings without it, with the reason."""
    if backend not in BACKENDS:
        raise OptionError(f"backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if backend == "local" and (workers is not None or address is not None):
        raise OptionError("--workers and --address go with --backend ray")
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise OptionError(f"--workers must be a positive integer, got {workers!r}")
