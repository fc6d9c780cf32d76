"""N game states in one 2-D array, stepped together by the game's compiled engine.

:class:`Batch` owns every array a batched step reads or writes, allocated once:
states, observations, masks, rewards, termination flags, the opponents'
generators. One call of ``step`` runs the whole batch in compiled code
(``prange`` over rows), auto-resetting finished games with seeds derived from
one master seed, so the games played do not depend on the thread count.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numba
import numpy as np

from boardsim.core.engine import seats_scratch_size
from boardsim.core.errors import StateFormatError
from boardsim.core.game import Game
from boardsim.core.header import (
    FLAG_TRUNCATED,
    H_ACTOR,
    POLICY_HEURISTIC,
    POLICY_MCTS,
    POLICY_RANDOM,
    TERMINAL,
)
from boardsim.core.seats import SeatLike, seat_table, uses_networks

# the compiled policies by name (``policies[p]`` codes of the engine)
COMPILED_POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}


def policy_codes(game: Game, policies: str | Sequence[str]) -> np.ndarray:
    """One compiled-policy code per player from a name (every player) or a name per player."""
    return seat_table(game, policies)[0]


@contextmanager
def threads_used(threads: int | None) -> Iterator[None]:
    """Run compiled parallel loops on ``threads`` threads inside the block (None: all)."""
    if threads is None:
        yield
        return
    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads={threads}: choose 1..{numba.config.NUMBA_NUM_THREADS}")
    before = numba.get_num_threads()
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
    """

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seat: int = 0,
        seed: int = 0,
        threads: int | None = None,
        opponents: SeatLike | Sequence[SeatLike] = "random",
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        if game.options.get("explicit_chance"):
            raise ValueError("the batched engine resolves chance itself: use explicit_chance=False")
        if not -1 <= seat < game.num_players:
            raise ValueError(f"seat {seat} out of range [-1, {game.num_players})")
        self.game = game
        self.num_envs = num_envs
        self.seat = seat
        self.threads = threads
        n, p = num_envs, game.max_players
        self.states = np.zeros((n, game.state_size), np.int32)
        self.obs = np.zeros((n, game.observation_size), np.float32)
        self.final_obs = np.zeros((n, game.observation_size), np.float32)
        self.masks = np.zeros((n, game.num_actions), np.uint8)
        self.rewards = np.zeros((n, p), np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        self.game_index = np.zeros(n, np.int64)
        self.policy_rngs = np.zeros((n, 2), np.int32)
        self.learners = game.teammates(max(seat, 0))
        self.scratch: tuple[np.ndarray, ...] = ()
        self.set_opponents(opponents)
        self.seed = seed
        self.next_game = 0
        self.reset(seed)

    def set_opponents(self, opponents: SeatLike | Sequence[SeatLike]) -> None:
        """Who plays the other seats from the next step on (the games go on as they are)."""
        seats = seat_table(self.game, opponents)
        if (seats[0] == POLICY_MCTS).any():
            raise ValueError(
                "the batched engine plays no search: opponents are random, heuristic or networks"
            )
        self.seats = seats
        slots, width = (int(x) for x in seats_scratch_size(self.seats))
        have = self.scratch[8].shape[1:] if self.scratch else (0, 0)
        if have[0] < slots or have[1] < width:
            self.scratch = self.game.engine.new_scratch(self.num_envs, slots, width)

    @property
    def policies(self) -> np.ndarray:
        """The opponents' policy codes, one a player."""
        return self.seats[0]

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
        self.terminated[:] = False
        self.truncated[:] = False

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
        """One action a row; results land in ``obs``, ``rewards``, ``terminated``, ..."""
        acts = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        engine = self.game.engine
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
                    self.rewards,
                    self.terminated,
                    self.truncated,
                    self.final_obs,
                    self.obs,
                    self.masks,
                    self.scratch,
                )
            )


def random_rollout(
    game: Game, num_envs: int, num_steps: int, seed: int = 0, threads: int | None = None
) -> dict[str, float]:
    """Uniform-random self-play, entirely compiled: ``num_steps`` decisions in each of ``num_envs``.

    Returns decisions, games finished, seconds and decisions per second (the
    compile is done before the clock starts).
    """
    if num_envs < 1 or num_steps < 0:
        raise ValueError("num_envs must be >= 1 and num_steps >= 0")
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
    searched = bool((seats[0] == POLICY_MCTS).any())
    play = game.engine.play_games
    if searched:  # without networks, the search's games compile without the network code
        play = game.mcts.play_games if uses_networks(seats) else game.mcts.play_plain_games
    with threads_used(threads), numba.parallel_chunksize(1 if searched else 0):
        play(game.params, seats, int(seed), int(first_game), out_returns, decisions, flags)
    return {
        "returns": out_returns[:, : game.num_players],
        "decisions": decisions,
        "truncated": (flags & FLAG_TRUNCATED) != 0,
    }
