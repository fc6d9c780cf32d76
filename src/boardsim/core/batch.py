"""N game states in one 2-D array, stepped together by the game's compiled engine.

:class:`Batch` owns every array a batched step reads or writes, allocated once:
states, observations, masks, rewards, termination flags, the opponents'
generators. One call of ``step`` runs the whole batch in compiled code
(``prange`` over rows), auto-resetting finished games with seeds derived from
one master seed, so the games played do not depend on the thread count.

What a step writes (observations, masks, rewards, flags, the finished games' last
observations: :class:`Outputs`) lives in two sets of buffers used in turn, so that the
arrays of one step stay intact through the next step and are overwritten by the step
after it: a learner keeps ``obs`` and ``next_obs`` without a copy.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numba
import numpy as np

from boardsim.core.engine import BatchScratch, seats_scratch_size
from boardsim.core.errors import OptionError, StateFormatError
from boardsim.core.game import Game
from boardsim.core.header import (
    FLAG_TRUNCATED,
    H_ACTOR,
    POLICY_HEURISTIC,
    POLICY_MCTS,
    POLICY_RANDOM,
    TERMINAL,
)
from boardsim.core.seats import SeatLike, SeatTable, seat_table, uses_networks

# the compiled policies by name (``policies[p]`` codes of the engine)
COMPILED_POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}


def policy_codes(game: Game, policies: str | Sequence[str]) -> np.ndarray:
    """One compiled-policy code per player from a name (every player) or a name per player."""
    return seat_table(game, policies).codes


# the observation dtypes a batch writes: float32 always, uint8 for a game whose
# observation is binary (GameDefinition.binary_observation)
OBSERVATION_DTYPES = ("float32", "uint8")


def observation_dtype(game: Game, dtype: Any = "float32") -> np.dtype:
    """``dtype`` as the batch's observation dtype: float32 (every game), or uint8 where the
    game's observation is binary (every feature 0 or 1); anything else raises
    :class:`OptionError` saying what the game allows."""
    try:
        got = np.dtype(dtype)
    except TypeError:
        got = None
    allowed = OBSERVATION_DTYPES if game.definition.binary_observation else ("float32",)
    if got is None or got.name not in allowed:
        why = "" if game.definition.binary_observation else " (its observation is not binary)"
        raise OptionError(f"{game.name}: obs_dtype={dtype!r}; choose one of {allowed}{why}")
    return got


def available_memory() -> int:
    """Bytes of memory this process may still take: the kernel's estimate of what can be
    allocated without swapping (``MemAvailable``), else the free physical pages."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 2**62


def checked_count(name: str, value: Any, bytes_each: int, what: str) -> int:
    """``value`` as a count of ``what`` (an integer >= 1, numpy integers too, bools not)
    whose ``bytes_each`` bytes apiece fit in the memory available; else
    :class:`OptionError` saying what it would take and the largest count that fits."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise OptionError(f"{name} must be an integer, got {value!r}")
    count = int(value)
    if count < 1:
        raise OptionError(f"{name} must be at least 1, got {count}")
    free = available_memory()
    if count * bytes_each > free:
        raise OptionError(
            f"{name}={count:,}: {what} take about {bytes_each:,} bytes each, "
            f"{_gib(count * bytes_each)} in all, and {_gib(free)} is available: at most "
            f"{max(free // bytes_each, 0):,} fit"
        )
    return count


def _gib(n: int) -> str:
    return f"{n / 2**30:,.1f} GiB"


class Outputs:
    """What one batched step writes for ``n`` rows: ``obs`` and ``final_obs`` (the last
    observation of the rows whose game ended at this step, zeros elsewhere), ``masks``
    (0/1 bytes; ``bool_masks`` is the same memory as booleans), every player's
    ``rewards``, ``terminated``, ``truncated``, ``done`` (either), and
    ``learner_rewards`` (the learning seat's column, contiguous)."""

    NAMES = (
        "obs",
        "final_obs",
        "masks",
        "rewards",
        "terminated",
        "truncated",
        "done",
        "learner_rewards",
    )

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self._take(arrays)
        # how many rows' games ended in the step that wrote these outputs last; their
        # final_obs rows are the ones terminated/truncated mark, which the compiled step
        # zeroes before it writes these outputs again
        self.finished = 0
        # the outputs these are rows ``span`` of (Outputs.rows), else None
        self.parent: Outputs | None = None
        self.span = (0, len(self.obs))

    def _take(self, arrays: dict[str, np.ndarray]) -> None:
        self.obs = arrays["obs"]
        self.final_obs = arrays["final_obs"]
        self.masks = arrays["masks"]
        self.rewards = arrays["rewards"]
        self.terminated = arrays["terminated"]
        self.truncated = arrays["truncated"]
        self.done = arrays["done"]
        self.learner_rewards = arrays["learner_rewards"]
        self.bool_masks = self.masks.view(np.bool_)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled as the arrays themselves, or, for rows of other outputs, as the parent
        and the span, so that an unpickled copy still shares the parent's memory."""
        state: dict[str, Any] = {"finished": self.finished, "parent": self.parent}
        state["span"] = self.span
        if self.parent is None:
            state["arrays"] = {name: getattr(self, name) for name in self.NAMES}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.parent = state["parent"]
        self.span = state["span"]
        self.finished = int(state.get("finished", len(state.get("final_rows", ()))))
        if self.parent is None:
            self._take(state["arrays"])
        else:
            start, stop = self.span
            self._take({name: getattr(self.parent, name)[start:stop] for name in self.NAMES})

    @classmethod
    def allocate(cls, game: Game, n: int, obs_dtype: np.dtype) -> Outputs:
        """Zeroed outputs for ``n`` rows of ``game``."""
        width, players = game.observation_size, game.max_players
        return cls(
            {
                "obs": np.zeros((n, width), obs_dtype),
                "final_obs": np.zeros((n, width), obs_dtype),
                "masks": np.zeros((n, game.num_actions), np.uint8),
                "rewards": np.zeros((n, players), np.float32),
                "terminated": np.zeros(n, np.bool_),
                "truncated": np.zeros(n, np.bool_),
                "done": np.zeros(n, np.bool_),
                "learner_rewards": np.zeros(n, np.float32),
            }
        )

    @staticmethod
    def bytes_per_row(game: Game, obs_dtype: np.dtype) -> int:
        """Bytes a row of one set of outputs takes."""
        return (
            2 * game.observation_size * obs_dtype.itemsize
            + game.num_actions
            + game.max_players * 4
            + 3
            + 4
        )

    def rows(self, start: int, stop: int) -> Outputs:
        """Rows ``start:stop`` of these outputs: views, the same memory."""
        view = Outputs({name: getattr(self, name)[start:stop] for name in self.NAMES})
        view.parent = self
        view.span = (start, stop)
        return view

    def copy_from(self, other: Outputs) -> None:
        """Take ``other``'s values (the same shapes), its count of ended games included."""
        for name in self.NAMES:
            getattr(self, name)[...] = getattr(other, name)
        self.finished = other.finished


@contextmanager
def threads_used(threads: int | None) -> Iterator[None]:
    """Run compiled parallel loops on ``threads`` threads inside the block (None: all)."""
    if threads is None:
        yield
        return
    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads={threads}: choose 1..{numba.config.NUMBA_NUM_THREADS}")
    before = numba.get_num_threads()
    if before == threads:  # a step of a batch on its usual threads: no switch to pay
        yield
        return
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(before)


class Batch:
    """``num_envs`` games of ``game`` stepped in one compiled call.

    ``seat >= 0``: single-agent stepping; the learner plays ``seat`` and every
    player on its side (``Game.teams``); after each action the other players play
    by their compiled seat (``opponents``: ``"random"``, ``"heuristic"``, a
    :class:`~boardsim.core.seats.Seat` or an agent with ``compiled_seat()`` such as a
    network; one for all or one a player) inside the compiled loop until a learner is
    to decide again. ``seat = -1``: one decision a row, whoever is to move.

    ``obs``, ``final_obs``, ``masks``, ``rewards``, ``terminated``, ``truncated``,
    ``done`` and ``learner_rewards`` are the arrays of the last step (or reset): two
    sets of buffers (:class:`Outputs`) are written in turn, so a step's arrays are
    overwritten by the step after the next. ``obs_dtype``: float32, or uint8 for a game
    whose observation is binary.
    """

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seat: int = 0,
        seed: int = 0,
        threads: int | None = None,
        opponents: SeatLike | Sequence[SeatLike] = "random",
        obs_dtype: Any = "float32",
    ) -> None:
        dtype = observation_dtype(game, obs_dtype)
        num_envs = checked_count("num_envs", num_envs, self.bytes_per_env(game, dtype), "envs")
        if game.options.get("explicit_chance"):
            raise ValueError("the batched engine resolves chance itself: use explicit_chance=False")
        if not -1 <= seat < game.num_players:
            raise ValueError(f"seat {seat} out of range [-1, {game.num_players})")
        self.game = game
        self.num_envs = num_envs
        self.seat = seat
        self.threads = threads
        n = num_envs
        self.obs_dtype = dtype
        self.states = np.zeros((n, game.state_size), np.int32)
        self.buffers = (Outputs.allocate(game, n, dtype), Outputs.allocate(game, n, dtype))
        self._bind(0)
        self.game_index = np.zeros(n, np.int64)
        self.policy_rngs = np.zeros((n, 2), np.int32)
        self.learners = game.teammates(max(seat, 0))
        self.scratch: BatchScratch | None = None
        self.set_opponents(opponents)
        self.seed = seed
        self.next_game = 0
        self.reset(seed)

    @staticmethod
    def bytes_per_env(game: Game, obs_dtype: np.dtype) -> int:
        """Bytes one row takes: its state, two sets of outputs, the generators, and the
        scratch of the compiled step without networks."""
        scratch = game.max_players * (8 + 8 + 4 + 4) + game.max_chance_outcomes * 12
        scratch += game.num_actions + 4 + 4 + 8
        return game.state_size * 4 + 2 * Outputs.bytes_per_row(game, obs_dtype) + 8 + 8 + scratch

    def _bind(self, k: int) -> None:
        """Make buffer set ``k`` the batch's current arrays."""
        self.current = k
        out = self.buffers[k]
        self.out = out
        self.obs = out.obs
        self.final_obs = out.final_obs
        self.masks = out.masks
        self.rewards = out.rewards
        self.terminated = out.terminated
        self.truncated = out.truncated
        self.done = out.done
        self.learner_rewards = out.learner_rewards

    # the names _bind sets: aliases of the current outputs, not pickled
    _ALIASES = ("out", *Outputs.NAMES)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._ALIASES}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind(self.current)

    def use_outputs(self, buffers: tuple[Outputs, Outputs]) -> None:
        """Write into ``buffers`` from now on (views of a larger batch's outputs, so that
        several batches side by side fill one array without a copy); their values are
        taken from the batch's own first."""
        for mine, theirs in zip(self.buffers, buffers, strict=True):
            theirs.copy_from(mine)
        self.buffers = tuple(buffers)
        self._bind(self.current)

    def set_opponents(self, opponents: SeatLike | Sequence[SeatLike]) -> None:
        """Who plays the other seats from the next step on (the games go on as they are)."""
        seats = seat_table(self.game, opponents)
        if (seats.codes == POLICY_MCTS).any():
            raise ValueError(
                "the batched engine plays no search: opponents are random, heuristic or networks"
            )
        self.seats: SeatTable = seats
        slots, width = (int(x) for x in seats_scratch_size(self.seats))
        have = self.scratch.net_layers.shape[1:] if self.scratch is not None else (0, 0)
        if have[0] < slots or have[1] < width:
            self.scratch = self.game.engine.new_scratch(self.num_envs, slots, width)

    @property
    def policies(self) -> np.ndarray:
        """The opponents' policy codes, one a player."""
        return self.seats.codes

    def reset(self, seed: int | None = None) -> None:
        """Start fresh games in every row (game numbers 0..N-1 of the run ``seed``)."""
        if seed is not None:
            self.seed = int(seed)
        self.game_index[:] = np.arange(self.num_envs)
        self.next_game = self.num_envs
        engine = self.game.engine
        with threads_used(self.threads):
            engine.batch_reset(
                self.states,
                self.game.params,
                self.seed,
                self.game_index,
                self.policy_rngs,
                self.seat,
                self.learners,
                self.seats,
                self.scratch,
            )
            engine.batch_observe(
                self.states, self.game.params, self.seat, self.learners, self.obs, self.masks
            )
        for out in self.buffers:
            out.final_obs[...] = 0
            out.finished = 0
            out.rewards[...] = 0
            out.learner_rewards[...] = 0
            out.terminated[...] = False
            out.truncated[...] = False
            out.done[...] = False

    def check_states(
        self, states: np.ndarray, policy_rngs: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(states, policy_rngs)`` as copies this batch can continue from, else
        :class:`StateFormatError`: every row checked as ``State(game, row)`` is
        (:meth:`Game.check_array`), a live game whose player to move is a learner
        (``seat >= 0``: the batch's side) or anyone (``seat = -1``); the opponents'
        generators two words a row, not both 0 (``None``: the batch's own)."""
        game = self.game
        shape = (self.num_envs, game.state_size)
        if not isinstance(states, np.ndarray) or states.shape != shape:
            got = getattr(states, "shape", type(states).__name__)
            raise StateFormatError(f"{game.name}: batch states must have shape {shape}, not {got}")
        rows = np.array(states, dtype=np.int32, copy=True, order="C")
        if not np.array_equal(rows, states):
            raise StateFormatError(f"{game.name}: batch states must be int32 words")
        for i in range(self.num_envs):
            game.check_array(rows[i], f"row {i}")
            actor = int(rows[i, H_ACTOR])
            if actor < 0:
                what = "over" if actor == TERMINAL else "at a chance node"
                raise StateFormatError(f"{game.name}: row {i} refused: the game is {what}")
            if self.seat >= 0 and not self.learners[actor]:
                raise StateFormatError(
                    f"{game.name}: row {i} refused: player {actor} is to move, not the "
                    f"learning side of seat {self.seat}"
                )
        rngs = self.policy_rngs if policy_rngs is None else policy_rngs
        if not isinstance(rngs, np.ndarray) or rngs.shape != (self.num_envs, 2):
            raise StateFormatError(f"policy generators must have shape ({self.num_envs}, 2)")
        rngs = np.array(rngs, dtype=np.int32, copy=True, order="C")
        stuck = np.flatnonzero((rngs[:, 0] == 0) & (rngs[:, 1] == 0))
        if stuck.size:
            raise StateFormatError(
                f"row {int(stuck[0])}: the opponents' generator words are both 0 (it would "
                "never change)"
            )
        return rows, rngs

    def adopt_states(self, states: np.ndarray, policy_rngs: np.ndarray | None = None) -> None:
        """Continue from ``states`` (one row an env, from a user or a saved run) instead of
        the games in the rows, once :meth:`check_states` accepts them (else the batch is
        left as it was); observations and masks are computed afresh from the states."""
        rows, rngs = self.check_states(states, policy_rngs)
        self.policy_rngs[...] = rngs
        self.states[...] = rows
        with threads_used(self.threads):
            self.game.engine.batch_observe(
                self.states, self.game.params, self.seat, self.learners, self.obs, self.masks
            )

    def step(self, actions: np.ndarray) -> None:
        """One action a row; results land in ``obs``, ``rewards``, ``terminated``, ...
        (the other set of buffers than the last step's)."""
        acts = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        engine = self.game.engine
        k = 1 - self.current
        out = self.buffers[k]
        first = self.next_game
        with threads_used(self.threads):
            self.next_game = int(
                engine.batch_step(
                    self.states,
                    self.game.params,
                    acts,
                    self.seat,
                    self.learners,
                    self.seats,
                    self.seed,
                    self.game_index,
                    self.next_game,
                    self.policy_rngs,
                    out.rewards,
                    out.terminated,
                    out.truncated,
                    out.final_obs,
                    out.obs,
                    out.masks,
                    self.scratch,
                )
            )
        np.logical_or(out.terminated, out.truncated, out=out.done)
        out.finished = self.next_game - first
        if self.seat >= 0:
            np.copyto(out.learner_rewards, out.rewards[:, self.seat])
        self._bind(k)


def random_rollout(
    game: Game, num_envs: int, num_steps: int, seed: int = 0, threads: int | None = None
) -> dict[str, float]:
    """Uniform-random self-play, entirely compiled: ``num_steps`` decisions in each of ``num_envs``.

    Returns decisions, games finished, seconds and decisions per second (the
    compile is done before the clock starts).
    """
    num_envs = checked_count("num_envs", num_envs, game.state_size * 4 + 16, "envs")
    if num_steps < 0:
        raise ValueError("num_steps must be >= 0")
    states = np.zeros((num_envs, game.state_size), np.int32)
    decisions = np.zeros(num_envs, np.int64)
    games = np.zeros(num_envs, np.int64)
    with threads_used(threads):
        game.engine.rollout_random(states[:1], game.params, 1, seed, decisions[:1], games[:1])
        start = time.perf_counter()
        game.engine.rollout_random(states, game.params, num_steps, seed, decisions, games)
        seconds = time.perf_counter() - start
    total = int(decisions.sum())
    return {
        "decisions": total,
        "games": int(games.sum()),
        "seconds": seconds,
        "decisions_per_second": total / seconds if seconds > 0 else float("inf"),
    }


def play_games(
    game: Game,
    num_games: int,
    policies: SeatLike | Sequence[SeatLike] = "random",
    seed: int = 0,
    first_game: int = 0,
    threads: int | None = None,
) -> dict[str, np.ndarray]:
    """Whole games with every player on a compiled seat (a name, a
    :class:`~boardsim.core.seats.Seat`, or an agent with ``compiled_seat()``: a network, a
    search), in parallel (one game a thread, handed out one at a time), entirely compiled.

    Game ``first_game + k`` of the run ``seed`` is the same game whatever the
    batch and thread count (so a sweep can be split and resumed). Returns arrays
    ``returns`` ``[num_games, num_players]``, ``decisions`` and ``truncated``.
    """
    if num_games < 0 or first_game < 0:
        raise ValueError("num_games and first_game must be >= 0")
    seats = seat_table(game, policies)
    out_returns = np.zeros((num_games, game.max_players), np.float64)
    decisions = np.zeros(num_games, np.int64)
    flags = np.zeros(num_games, np.int32)
    searched = bool((seats.codes == POLICY_MCTS).any())
    play = game.mcts.play_policy_games
    if searched:  # without networks, the search's games compile without the network code
        play = game.mcts.play_games if uses_networks(seats) else game.mcts.play_plain_games
    with threads_used(threads), numba.parallel_chunksize(1 if searched else 0):
        play(game.params, seats, int(seed), int(first_game), out_returns, decisions, flags)
    return {
        "returns": out_returns[:, : game.num_players],
        "decisions": decisions,
        "truncated": (flags & FLAG_TRUNCATED) != 0,
    }
