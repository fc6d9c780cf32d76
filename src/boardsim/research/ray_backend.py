"""Run a sweep's cells, and a tournament's compiled games, as Ray tasks, on an existing
Ray cluster or a local one.

Each round of a cell (the whole cell, or one round of a sweep to a precision) is one task
(``num_cpus=1``) that plays its games on one thread with
:func:`boardsim.core.batch.play_games`; since game ``k`` of a run depends only on the
seed and ``k``, the rows equal the local backend's. The driver writes each cell's
rows as soon as its task finishes (so an interrupted cluster run keeps every finished
cell), and advances the progress bar per finished cell.

A tournament (``boardsim eval``, the strength ladders) walks its pairs one after another;
on Ray, :func:`play_ahead_on_ray` plays every compiled share the walk will ask for at
once, in pieces of at most ``piece`` games, each a task (``num_cpus=1``, one thread), and
the walk reads them back (:class:`boardsim.research.tournament.GamesAhead`). A worker that
dies has its task run again by Ray (``max_retries``): its games are played again from
their seeds and kept once, since the driver keeps each piece by what it is.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from boardsim.api import make_game
from boardsim.core.cluster import _require_ray, init_ray
from boardsim.research.cells import Round, play_cell
from boardsim.research.players import AgentMaker, joined, make_agent, play_compiled
from boardsim.research.tournament import GamesAhead, Share

PIECE = 50  # games a task of a tournament (a search's chunk; scripted seats are as cheap)
RETRIES = 3  # times Ray runs a task again whose worker died
PIECES_A_CORE = 4  # pieces a core gets at least (when the games allow): the load evens out


def play_round_task(
    game_name: str, played: Round, seed: int, chunk: int, metrics: bool = False
) -> dict[str, np.ndarray]:
    """The body of a Ray task: one round of a cell's games on one thread."""
    return play_cell(
        game_name, played.cell, played.games, seed, 1, chunk, None, metrics, played.first
    )


def run_cells_on_ray(
    game_name: str,
    rounds: Sequence[Round],
    seed: int,
    finish: Callable[[Round, Mapping[str, np.ndarray]], None],
    advance: Callable[[int], None],
    address: str | None = None,
    chunk: int = 2048,
    metrics: bool = False,
) -> None:
    """Play ``rounds`` as Ray tasks; ``finish(round, played)`` as each completes.

    Connects to ``address`` (``"auto"``, ``"ray://host:10001"``, ``"host:6379"``) or,
    when Ray is not running yet and no address is given, starts a local Ray that is
    shut down at the end (:func:`init_ray`). An already initialised Ray (a test's, a
    notebook's) is used as it is and left running.
    """
    ray = _require_ray()
    started_here = init_ray(address)
    try:
        task = ray.remote(num_cpus=1)(play_round_task)
        pending = {task.remote(game_name, r, seed, chunk, metrics): r for r in rounds}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                done = pending.pop(ref)
                finish(done, ray.get(ref))
                advance(done.games)
    finally:
        if started_here:
            ray.shutdown()


def play_piece_task(
    game_name: str, share: Share, start: int, size: int, seed: int, agent_maker: AgentMaker
) -> tuple[dict[str, np.ndarray], float]:
    """The body of a Ray task: games ``share.first + start`` onwards (``size`` of them) of
    a tournament's share, on one thread; the games and the seconds they took."""
    game = make_game(game_name, **json.loads(share.options))
    clock = time.perf_counter()
    out = play_compiled(
        game, list(share.policies), size, seed, share.first + start, 1, agent_maker=agent_maker
    )
    return out, time.perf_counter() - clock


def play_ahead_on_ray(
    game_name: str,
    ahead: GamesAhead,
    seed: int,
    agent_maker: AgentMaker = make_agent,
    address: str | None = None,
    progress: Callable[[str], None] | None = None,
    piece: int | None = None,
) -> None:
    """Play every share ``ahead`` has asked for, as Ray tasks of at most ``piece`` games,
    and keep them in ``ahead`` (then no longer asking). ``piece`` None: at most
    :data:`PIECE` (read at the call), and small enough that the cluster's cores get
    :data:`PIECES_A_CORE` pieces each, since a share's cost is uneven (a search's seat, a
    long game). ``progress`` is told the games played so far as pieces finish. Ray is
    joined or started as :func:`init_ray` says."""
    if piece is not None and piece < 1:
        raise ValueError(f"a piece is at least one game, got {piece}")
    shares = list(dict.fromkeys(ahead.asked))
    ahead.asking = False
    if not shares:
        return
    ray = _require_ray()
    started_here = init_ray(address)
    try:
        if piece is None:
            total = sum(s.games for s in shares)
            cores = max(1, int(ray.cluster_resources().get("CPU", 1)))
            piece = max(1, min(PIECE, -(-total // (PIECES_A_CORE * cores))))
        task = ray.remote(num_cpus=1, max_retries=RETRIES)(play_piece_task)
        pending = {}
        for share in shares:
            for start in range(0, share.games, piece):
                size = min(piece, share.games - start)
                ref = task.remote(game_name, share, start, size, seed, agent_maker)
                pending[ref] = (share, start)
        total = sum(s.games for s in shares)
        parts: dict[Share, dict[int, dict[str, np.ndarray]]] = {s: {} for s in shares}
        spent = dict.fromkeys(shares, 0.0)
        done = 0
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                share, start = pending.pop(ref)
                out, seconds = ray.get(ref)
                parts[share][start] = out
                spent[share] += seconds
                done += len(out["truncated"])
                if progress:
                    progress(f"on Ray: {done}/{total} games")
                if sum(len(p["truncated"]) for p in parts[share].values()) == share.games:
                    game = make_game(game_name, **json.loads(share.options))
                    whole = joined(game, [parts[share][k] for k in sorted(parts[share])])
                    ahead.keep(share, whole["returns"], whole["truncated"], spent[share])
    finally:
        if started_here:
            ray.shutdown()
