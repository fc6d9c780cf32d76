"""Compile every game's entry points into numba's on-disk cache, ahead of use.

A game's compiled code is built the first time it is called, one signature at a time,
which on a 2-core machine costs tens of seconds a game and more than a minute for
Hispania: a first ``boardsim play`` or ``train`` sits silent while it happens, and a test
suite run in parallel workers compiles the same code in each worker. This module calls
every compiled entry point a game offers, with the argument types the library itself
passes, so that numba compiles it once and caches it; afterwards every process only loads.

The work of a game is split into :data:`PARTS`, each a function that drives one family of
entry points through the public API, or where there is none (the engine's compiled policy,
self-play) through the library's own callers, with their argument types: the signatures
compiled are those the library and its users call, not types of the build's choosing.

- ``rules``: a :class:`~boardsim.core.game.State` played with its methods (steps, masks,
  observations, returns, chance nodes, saving and loading, which validates), the compiled
  heuristic and the agents that act from Python;
- ``envs``: the PettingZoo, Gymnasium and vector envs, with random, heuristic and network
  opponents;
- ``loops``: the compiled rollout, whole games between compiled seats (random, heuristic,
  a network) and the recorder of the balance metrics;
- ``search``: UCT as an agent and as a seat, the network-guided searches (PUCT, Gumbel),
  self-play and the relabelling of stored positions that training calls.

``rules`` comes first: the other parts link what it compiled, so that a game's parts
never compile the same callee twice. :func:`compile_games` runs one game a process, the
heaviest first; ``boardsim compile`` is its command. Where numba caches is numba's
choice (``NUMBA_CACHE_DIR``, else ``__pycache__`` beside each source); a stale entry is
never loaded (numba keys each file's entries by a hash of its contents, and each game's
kernels by a fingerprint of all the sources and data they are built from:
:mod:`boardsim.core.kernels`).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardsim import agents
from boardsim.agents import mcts
from boardsim.agents.network import NetworkAgent, NetworkSearchAgent, shipped_path
from boardsim.api import list_games, make_env, make_game, make_gym_env, make_vec_env, rollout
from boardsim.core.batch import play_games
from boardsim.core.compiles import counting_compiles
from boardsim.core.header import POLICY_HEURISTIC
from boardsim.core.network import Network
from boardsim.core.rng import rng_seed
from boardsim.core.seats import game_uct_seat, seat_table
from boardsim.games import definition
from boardsim.research.traces import play_traces
from boardsim.training.positions import heuristic_moves, search_positions
from boardsim.training.selfplay import selfplay_games

PARTS: tuple[str, ...] = ("rules", "envs", "loops", "search")
MAX_DECISIONS = 300  # a safety net for the few whole games a part plays


@dataclass
class PartReport:
    """One part of one game: how long it took and how many functions numba compiled (0
    when everything came from the cache)."""

    game: str
    part: str
    seconds: float
    compiled: int
    skipped: str = ""  # why the part (or some of it) did not run, or ""


@dataclass
class GameReport:
    """Every part of one game, compiled in one process."""

    game: str
    parts: list[PartReport] = field(default_factory=list)
    error: str = ""  # what failed, or ""

    @property
    def seconds(self) -> float:
        """The game's time, all parts."""
        return sum(p.seconds for p in self.parts)

    @property
    def compiled(self) -> int:
        """Functions numba compiled (cache misses), all parts."""
        return sum(p.compiled for p in self.parts)


# ------------------------------------------------------------------ the parts
def _game(name: str, **options: Any) -> Any:
    return make_game(name, max_decisions=MAX_DECISIONS, **options)


def _network_game(name: str) -> tuple[Any, Any]:
    """The game at its shipped network's options and that network, or the game at its
    defaults and None (a game without a network compiles no network code here; it
    compiles when a network first plays). The compiled code is the same for every option
    value: options are the ``params`` array's values, not types."""
    path = shipped_path(name, "alphazero")
    if not path.is_file():
        return _game(name), None
    net = Network.load(path)
    options = dict(net.meta.get("options", {}))
    options.pop("max_decisions", None)
    return _game(name, **options), net


def _first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def compile_rules(name: str) -> str:
    """A State played with its methods; chance nodes made explicit; saved and loaded
    (validated); the compiled heuristic; the agents that act from Python."""
    game = _game(name)
    state = game.new_initial_state(0)
    for _ in range(3):
        if state.is_terminal():
            break
        mask = state.legal_actions_mask()
        state.observation(state.current_player())
        state.apply_action(_first_legal(mask))
    state.returns()
    copy = game.state_from_bytes(state.clone().to_bytes())
    copy.legal_actions_mask()
    chance = _game(name, explicit_chance=True).new_initial_state(0)
    for _ in range(6):
        if chance.is_terminal():
            break
        if chance.is_chance_node():
            outcomes, _probs = zip(*chance.chance_outcomes(), strict=True)
            chance.apply_action(int(outcomes[0]))
        else:
            chance.apply_action(_first_legal(chance.legal_actions_mask()))
    prng = np.zeros(2, np.int32)
    rng_seed(prng, 0, 1)
    mask = np.zeros(game.num_actions, np.uint8)
    start = game.new_initial_state(0)
    game.engine.policy_action(start.array, game.params, np.int32(POLICY_HEURISTIC), mask, prng)
    for spec in ("random", "heuristic"):
        agent = agents.load(spec, game, seed=0)
        agent.act(
            start.observation(start.current_player()), start.legal_actions_mask(), state=start
        )
    return ""


def compile_envs(name: str) -> str:
    """The PettingZoo, Gymnasium and vector envs, with random, heuristic and network
    opponents."""
    aec = make_env(name, max_decisions=MAX_DECISIONS)
    aec.reset(seed=0)
    for _ in range(3):
        _obs, _r, term, trunc, _info = aec.last()
        if term or trunc:
            break
        aec.step(_first_legal(aec.observe(aec.agent_selection)["action_mask"]))
    game, net = _network_game(name)
    opponents: list[Any] = ["random", "heuristic"]
    if net is not None:
        opponents.append(NetworkAgent(game, net, seed=0))
    for opponent in opponents:
        env = make_gym_env(name, opponents=opponent, **game.options)
        _obs, info = env.reset(seed=0)
        env.step(_first_legal(info["action_mask"]))
    for opponent in ("random", "heuristic"):
        vec = make_vec_env(name, 2, opponents=opponent, max_decisions=MAX_DECISIONS)
        vec.reset(seed=0)
        for _ in range(2):
            actions = [_first_legal(m) for m in vec.action_masks()]
            vec.step(np.asarray(actions, np.int64))
        vec.close()
    return "" if net is not None else "no shipped network: network opponents not compiled"


def compile_loops(name: str) -> str:
    """The compiled rollout, whole games between compiled seats, the recorder."""
    game, net = _network_game(name)
    rollout(name, 2, 2)
    seats: list[Any] = ["random", "heuristic"]
    if net is not None:
        seats.append(NetworkAgent(game, net, seed=0))
    for seat in seats:
        play_games(game, 1, [seat] * game.num_players, threads=1)
    play_traces(game, 1, ["heuristic"] * game.num_players, threads=1)
    if net is not None:
        play_traces(game, 1, ["heuristic"] * game.num_players, threads=1, values=net)
    return "" if net is not None else "no shipped network: network seats not compiled"


def compile_search(name: str) -> str:
    """UCT as an agent and a seat; the network searches, self-play and relabelling."""
    game, net = _network_game(name)
    agent = mcts.MCTSAgent(game, seed=0, simulations=2)
    state = game.new_initial_state(0)
    agent.act_state(state)
    agent.root_statistics()
    others = ["heuristic"] * (game.num_players - 1)
    mcts.play_games(game, 1, ["mcts", *others], simulations=1)
    if net is None:
        return "no shipped network: the network searches not compiled"
    for search in ("puct", "gumbel"):
        guided = NetworkSearchAgent(game, net, 2, search=search)
        guided.act(
            state.observation(state.current_player()), state.legal_actions_mask(), state=state
        )
        play_games(game, 1, [guided, *others], threads=1)
    guided = NetworkSearchAgent(game, net, 2, search="gumbel")
    table = seat_table(game, [guided] * game.num_players)
    record = np.ones(game.max_players, np.uint8)
    selfplay_games(game, table, record, 0, 0, 1, game.options["max_decisions"], 1)
    states = state.array[None, :].copy()
    for seat in (game_uct_seat(game, 2), guided):
        search_positions(game, seat_table(game, [seat] * game.num_players), states, 0, 1)
    heuristic_moves(game, states, 1)
    return ""


PART_FUNCTIONS: dict[str, Callable[[str], str]] = {
    "rules": compile_rules,
    "envs": compile_envs,
    "loops": compile_loops,
    "search": compile_search,
}


# ------------------------------------------------------------------ one game, many games
def compile_part(name: str, part: str) -> PartReport:
    """Compile (or load from the cache) part ``part`` of game ``name`` in this process."""
    if part not in PART_FUNCTIONS:
        raise ValueError(f"unknown part {part!r}; parts: {', '.join(PARTS)}")
    start = time.perf_counter()
    with counting_compiles() as compiled:
        skipped = PART_FUNCTIONS[part](name)
    return PartReport(name, part, time.perf_counter() - start, len(compiled), skipped)


def compile_game(name: str, parts: Sequence[str] | None = None) -> GameReport:
    """Every part of game ``name`` (``rules`` first), in this process."""
    if name not in list_games():
        raise ValueError(f"unknown game {name!r}; games: {', '.join(list_games())}")
    chosen = list(parts or PARTS)
    unknown = [p for p in chosen if p not in PART_FUNCTIONS]
    if unknown:
        raise ValueError(f"unknown parts {unknown}; parts: {', '.join(PARTS)}")
    order = [p for p in PARTS if p in chosen]
    return GameReport(name, [compile_part(name, p) for p in order])


def _compile_in_worker(name: str, parts: Sequence[str] | None) -> GameReport:
    try:
        return compile_game(name, parts)
    except Exception as exc:  # reported, not raised across the process boundary
        return GameReport(name, error=f"{type(exc).__name__}: {exc}")


def _die_with_parent(parent: int) -> None:
    """A compile worker's initializer: a thread that ends the worker once ``parent`` is
    gone. A worker compiles for minutes at a time and only reads its next task between
    two; a parent killed by a signal would leave it compiling, an orphan, to the end."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


def compile_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` fresh processes for compiling (spawned: numba and threads do
    not survive a fork), each of which ends when the process that made the pool does."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        workers, mp_context=context, initializer=_die_with_parent, initargs=(os.getpid(),)
    )


def compile_weight(name: str) -> int:
    """How much a game has to compile: the size of its kernels' sources (Hispania's are
    the largest, and its engine takes the longest)."""
    return sum(Path(p).stat().st_size for p in definition(name).load_kernels().sources)


def compile_games(
    names: Sequence[str] | None = None,
    workers: int | None = None,
    parts: Sequence[str] | None = None,
    report: Callable[[GameReport], None] | None = None,
) -> list[GameReport]:
    """Compile ``names`` (default: every installed game), one game a process, at most
    ``workers`` at once (default: the CPUs, at most the games), the heaviest game first.
    ``report(game_report)`` is called as each game finishes. A game that fails is reported
    with its error, not raised; the others go on."""
    chosen = list(dict.fromkeys(names or list_games()))
    unknown = [n for n in chosen if n not in list_games()]
    if unknown:
        raise ValueError(f"unknown games {unknown}; games: {', '.join(list_games())}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    count = min(workers or os.cpu_count() or 1, len(chosen)) or 1
    chosen.sort(key=compile_weight, reverse=True)
    reports: dict[str, GameReport] = {}
    with compile_pool(count) as pool:
        running = {pool.submit(_compile_in_worker, n, parts): n for n in chosen}
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                name = running.pop(future)
                exc = future.exception()
                found = (
                    GameReport(name, error=f"{type(exc).__name__}: {exc}")
                    if exc is not None
                    else future.result()
                )
                reports[name] = found
                if report is not None:
                    report(found)
    return [reports[n] for n in chosen]
