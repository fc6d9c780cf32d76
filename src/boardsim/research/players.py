"""Agents at the table: agent specs made into agents and compiled seats, and games played.

The research floor's one door to play. A sweep's cells, a tournament's pairs, the
recorder's traces and the tuner all come through here:

- :func:`make_agent` makes an agent from its spec (``random``, ``heuristic``,
  ``mcts:SIMS``, ``ppo:PATH``, ``alphazero[:PATH]``, ``alphazero-mcts:SIMS[:PATH]``,
  ``net:PATH``, and the Python agents such as ``greedy``); :func:`any_options_maker`
  makes the networks play at options other than they were trained with (a sweep plays
  a Hispania network at every level).
- :data:`COMPILED_FAMILIES` are the specs whose agents play in compiled code
  (``compiled_seat()``); :func:`compiled_seats` turns specs, agents or seats into the
  compiled seats, every search with its own settings.
- :func:`play_compiled` plays whole games with them entirely compiled: the batched
  engine's :func:`boardsim.core.batch.play_games`, or, with a searching seat, the
  compiled search's :func:`boardsim.agents.mcts.play_games` (one game a thread), in
  chunks so a long run reports its progress. Game ``k`` depends only on the seed and
  ``k``, never on the chunking or the threads.
- :func:`play_batched` and :func:`play_lockstep` play the agents that decide in Python:
  an ``act_batch`` agent against a compiled policy in the batched engine, anything else
  through the :class:`boardsim.State` API, many games in lockstep.

One meaning of a search's budget: :func:`mcts_simulations` is the simulations an
``mcts``/``mcts:SIMS`` spec searches (the default for a bare ``mcts``), read by the one
parser of ``SIMS`` (:func:`boardsim.agents.mcts.parse_simulations`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from boardsim.agents import load, mcts
from boardsim.core.batch import COMPILED_POLICIES, Batch, play_games
from boardsim.core.errors import OptionError
from boardsim.core.game import Game, State
from boardsim.core.header import POLICY_MCTS
from boardsim.core.seats import Seat

AgentMaker = Callable[[str, Game, int], Any]

# agent families that play in compiled code (their agents have compiled_seat())
COMPILED_FAMILIES = ("random", "heuristic", "mcts", "ppo", "alphazero", "alphazero-mcts", "net")
# the families whose agents, restricted (``restricted:FAMILIES:SPEC``), still play in
# compiled code (boardsim.agents.restricted.RestrictedAgent.compiled_seat)
RESTRICTED_COMPILED = ("random", "mcts", "ppo", "alphazero", "net")
# the network families, which may play at options other than their training's
NETWORK_FAMILIES = ("ppo", "alphazero", "alphazero-mcts", "net")
SEARCH_CHUNK = 20  # games a compiled search call (progress is reported after each)
LOCKSTEP_GAMES = 64  # games played side by side through the State API


# ------------------------------------------------------------------ specs and agents
def family(spec: str) -> str:
    """The family of a spec: ``mcts`` of ``mcts:200``, ``ppo`` of ``ppo:run.zip``."""
    return spec.partition(":")[0]


def seat_family(spec: str) -> str:
    """The family of the agent that decides for a spec: :func:`family`, but that of
    ``SPEC`` for a restricted agent (``alphazero`` of ``restricted:pass:alphazero``)."""
    if family(spec) == "restricted":
        return family(spec.split(":", 2)[-1])
    return family(spec)


def plays_compiled(spec: str) -> bool:
    """Whether a spec's agent plays in compiled code (a restricted one as well, when its
    agent is of :data:`RESTRICTED_COMPILED`)."""
    if family(spec) == "restricted":
        return spec.count(":") >= 2 and seat_family(spec) in RESTRICTED_COMPILED
    return family(spec) in COMPILED_FAMILIES


def make_agent(spec: str, game: Game, seed: int, **options: Any) -> Any:
    """An agent from its spec, as :func:`boardsim.agents.load` makes it."""
    return load(spec, game, seed, **options)


def any_options_maker(spec: str, game: Game, seed: int) -> Any:
    """An agent from its spec; a network plays at any options of the game (not only those
    it was trained with), as a sweep plays it at every cell's."""
    extra = {"strict_options": False} if seat_family(spec) in NETWORK_FAMILIES else {}
    return make_agent(spec, game, seed, **extra)


def is_mcts(spec: str) -> bool:
    """Whether ``spec`` is the compiled MCTS player (``mcts`` or ``mcts:SIMS``)."""
    return family(spec) == "mcts"


def mcts_simulations(spec: str) -> int | None:
    """The simulations an ``mcts``/``mcts:SIMS[:KEY=VALUE...]`` spec searches (checked,
    its settings too; the default for a bare ``mcts``); None for any other agent."""
    if not is_mcts(spec):
        return None
    arg = spec.partition(":")[2]
    return mcts.spec_options(arg)["simulations"] if arg else mcts.DEFAULT_SIMULATIONS


def compiled_together(specs: Sequence[Any]) -> bool:
    """Whether seats with these specs can play whole games in compiled code: each is a
    compiled policy, a search or a network (every one plays with its own settings)."""
    return all(isinstance(s, str) and plays_compiled(s) for s in specs)


def check_compiled(specs: Sequence[str]) -> tuple[str, ...]:
    """The specs, each one that plays in compiled code (a search's budget checked), or
    :class:`OptionError` saying which does not."""
    if not specs:
        raise OptionError("give at least one agent")
    for spec in specs:
        mcts_simulations(spec)  # a search's budget, checked
        if not plays_compiled(spec):
            raise OptionError(
                f"sweeps play compiled policies ({', '.join(COMPILED_POLICIES)}, mcts:SIMS, "
                f"ppo:PATH, alphazero[:PATH], alphazero-mcts:SIMS, and restricted:FAMILY:SPEC "
                f"of random, mcts, ppo, alphazero or net); {spec!r} is not one (Python agents "
                "such as greedy are for `boardsim eval`/tournaments)"
            )
    return tuple(specs)


def compiled_seat(
    item: Any, game: Game, agent_maker: AgentMaker = make_agent, seed: int = 0
) -> Seat:
    """The compiled seat of a spec (its agent made by ``agent_maker``), of an agent with
    ``compiled_seat()``, or a seat itself; :class:`OptionError` for an agent that plays in
    Python only."""
    if isinstance(item, Seat):
        return item
    agent = agent_maker(item, game, seed) if isinstance(item, str) else item
    if not hasattr(agent, "compiled_seat"):
        raise OptionError(
            f"{item!r} plays in Python only; compiled games need compiled seats: choose "
            "mcts[:SIMS], random, heuristic, ppo:PATH, alphazero[:PATH], "
            "alphazero-mcts:SIMS[:PATH] or net:PATH"
        )
    return agent.compiled_seat()


def compiled_seats(
    game: Game, items: Sequence[Any], agent_maker: AgentMaker = make_agent, seed: int = 0
) -> list[Seat]:
    """:func:`compiled_seat` of every item (networks loaded; each search its own)."""
    return [compiled_seat(item, game, agent_maker, seed) for item in items]


def searches(seats: Sequence[Seat]) -> bool:
    """Whether a seat searches (its games go one a thread, through the compiled search)."""
    return any(s.code == POLICY_MCTS for s in seats)


# ------------------------------------------------------------------ compiled games
def play_compiled(
    game: Game,
    seats: Sequence[Any],
    num_games: int,
    seed: int,
    first_game: int = 0,
    threads: int | None = None,
    on_chunk: Callable[[int], None] | None = None,
    agent_maker: AgentMaker = make_agent,
    chunk: int = SEARCH_CHUNK,
) -> dict[str, np.ndarray]:
    """Games ``first_game`` to ``first_game + num_games - 1`` of ``game``, played
    entirely in compiled code by ``seats`` (specs made by ``agent_maker``, agents with
    ``compiled_seat()``, or seats, one a player): ``returns``, ``decisions`` and
    ``truncated``.

    With a searching seat the games go ``chunk`` at a time through the compiled search,
    ``on_chunk(games)`` told after each; otherwise all in one call of the batched engine.
    The games are the same either way.
    """
    table = compiled_seats(game, seats, agent_maker, seed)
    if not searches(table):
        return play_games(game, num_games, table, seed, first_game, threads)
    parts = []
    for start in range(0, num_games, chunk):
        size = min(chunk, num_games - start)
        parts.append(mcts.play_games(game, size, table, seed, first_game + start, threads))
        if on_chunk is not None:
            on_chunk(size)
    return joined(game, parts)


def joined(game: Game, parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The played games of consecutive calls, as one call's (none: an empty result)."""
    if not parts:
        return {
            "returns": np.zeros((0, game.num_players)),
            "decisions": np.zeros(0, np.int64),
            "truncated": np.zeros(0, bool),
        }
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


# ------------------------------------------------------------------ games in Python
def batchable(agent: Any) -> bool:
    """Whether ``agent`` decides for a batch of observations without the state."""
    return hasattr(agent, "act_batch") and not getattr(agent, "needs_state", False)


def play_lockstep(
    game: Game, seat_agents: Sequence[Any], seeds: Sequence[int], parallel: int = LOCKSTEP_GAMES
) -> tuple[np.ndarray, np.ndarray]:
    """Play one game a seed with ``seat_agents[p]`` in seat ``p``; returns ``(returns, truncated)``.

    Up to ``parallel`` games advance together; agents with ``act_batch`` (and no
    need of the state) decide for all their waiting games in one call.
    """
    if game.options.get("explicit_chance"):
        raise OptionError("tournaments resolve chance inside the game: explicit_chance=False")
    n = len(seeds)
    returns = np.zeros((n, game.num_players))
    truncated = np.zeros(n, bool)
    for start in range(0, n, parallel):
        idx = list(range(start, min(start + parallel, n)))
        states = {i: game.new_initial_state(int(seeds[i])) for i in idx}
        while states:
            waiting: dict[int, list[tuple[int, State, np.ndarray, np.ndarray]]] = {}
            for i, st in states.items():
                agent = seat_agents[st.current_player()]
                mask = st.legal_actions_mask()
                obs = st.observation(st.current_player())
                waiting.setdefault(id(agent), []).append((i, st, obs, mask))
            for rows in waiting.values():
                agent = seat_agents[rows[0][1].current_player()]
                if batchable(agent):
                    actions = agent.act_batch(
                        np.stack([r[2] for r in rows]), np.stack([r[3] for r in rows])
                    )
                else:
                    actions = [
                        agent.act(obs, mask, state=st if agent.needs_state else None)
                        for _, st, obs, mask in rows
                    ]
                for (i, st, _, _), a in zip(rows, actions, strict=True):
                    st.apply_action(int(a))
                    if st.is_terminal():
                        returns[i] = st.returns()
                        truncated[i] = st.is_truncated()
                        del states[i]
    return returns, truncated


def play_batched(
    game: Game, agent: Any, seat: int, opponents: str, num_games: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """An ``act_batch`` agent in ``seat`` (and its side) against a compiled policy, batched.

    ``num_games`` games side by side in the batched engine, one a row; the agent
    decides for every row in one call. Each row's first game counts (later games
    of a row that finished early are played but ignored, so short games are not
    over-counted). Returns ``(returns, truncated)`` like :func:`play_lockstep`.
    """
    batch = Batch(game, num_games, seat=seat, seed=seed, opponents=opponents)
    players = game.num_players
    returns = np.zeros((num_games, players))
    truncated = np.zeros(num_games, bool)
    done = np.zeros(num_games, bool)
    while not done.all():
        batch.step(np.asarray(agent.act_batch(batch.obs, batch.masks.astype(bool))))
        live = ~done
        returns[live] += batch.rewards[live, :players]
        finished = (batch.terminated | batch.truncated) & live
        truncated[finished] = batch.truncated[finished]
        done |= finished
    return returns, truncated
