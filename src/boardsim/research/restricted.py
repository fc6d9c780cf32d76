"""Restricted play's measures (Jaffe et al. 2012): each mechanic's weight in win points,
and the greedy-against-search gap ("how strategic is the game").

Both are one measure, the **advantage** of an agent ``A`` over an opponent ``B``:

    advantage(A, B) = mean_g [ s_A(g | A vs B) - s_A(g | A vs A) ]

where ``s_A(g | ...)`` is A's score in game ``g`` (1 for a win, ``1/w`` for a win shared
by ``w`` seats, 0 for a loss), A sitting in seat ``g mod k`` and every other seat played
by the opponent (``k`` players; seats rotated, so a side's edge cancels). The games of
the two tables are the same deals and dice (seeds ``seed + g``) and the agents the same
seeds: common random numbers, so the difference is paired, and the 95% interval is the
mean's normal interval over the ``n`` paired differences, ``mean +- 1.96 sd / sqrt(n)``
(a difference identically 0 has the interval [0, 0]). Both tables of a measure play in
the same place (below), decided once for the measure, so the pairing holds for every
measure. Against itself A scores its fair share, ``1/k`` on average, so the advantage is
how many win points in a hundred A gains, over that share, from the opponent being who
it is.

- **A mechanic's weight** (Jaffe's restricted play): ``advantage(A, A without F)``, A the
  unrestricted agent and ``A without F`` the same agent forbidden the family ``F``
  (:mod:`boardsim.agents.restricted`: never an action of ``F`` while another is legal). A
  mechanic a good player never needs weighs 0; one the game turns on weighs much.
- **The greedy-against-search gap**: ``advantage(S, greedy)``, ``S`` a search
  (``mcts:N``) and ``greedy`` the one-step lookahead (``boardsim.agents.GreedyAgent``). A
  game where looking one move ahead is as good as searching has a gap of 0: it is not
  strategic; the larger the gap, the more planning pays.

In a **cooperative** game (Hispania: every seat on one side against the game) there is
no seat to rotate: the advantage is the side's win rate with ``A`` in every seat less its
win rate with ``B`` in every seat, game by game on the same seeds,

    advantage(A, B) = mean_g [ w(g | A in every seat) - w(g | B in every seat) ]

(``w`` 1 when the side wins), so a mechanic's weight is what the side loses when its
players may not use it, and the gap what a search wins over the greedy lookahead.

Where every agent of a measure plays in compiled code (random, networks and ``mcts:N``,
restricted or not: :func:`boardsim.research.players.plays_compiled`), both its tables are
played entirely compiled (:func:`boardsim.research.players.play_compiled`), game ``g``
of both tables the same game of the run ``seed``: thousands of games a mechanic. Where one
does not (``greedy``, a network search restricted at its root), both tables play in
Python, game by game (:func:`boardsim.research.players.play_lockstep`), on seeds
``seed + g``: the greedy-against-search gap plays its search against itself in Python
too, so the two tables share their deals. (Played apart, the search against itself
compiled and against greedy in Python, the tables would be independent samples and the
interval would lose the pairing's narrowing.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from boardsim.agents import load
from boardsim.agents.restricted import family_mask
from boardsim.core.errors import OptionError
from boardsim.core.game import Game
from boardsim.research.metrics import mean_estimate
from boardsim.research.players import compiled_together, play_compiled, play_lockstep
from boardsim.research.tournament import seat_scores

AgentMaker = Callable[[str, Game, int], Any]


@dataclass(frozen=True)
class Advantage:
    """``agent``'s advantage over ``opponent`` (module docstring): its mean score against
    the opponent and against itself over the same ``games``, their paired difference and
    its 95% interval. In a cooperative game, ``score_against`` is the side's win rate with
    the opponent in every seat and ``score_self`` with the agent, and the advantage is
    ``score_self - score_against``."""

    name: str  # what is measured: a family's name, or "greedy-against-search gap"
    agent: str
    opponent: str
    games: int
    score_against: float
    score_self: float
    advantage: float
    low: float
    high: float

    def row(self) -> str:
        """A table row: name, opponent, games, the two scores and the advantage [95%]."""
        return (
            f"| {self.name} | `{self.opponent}` | {self.games} | {self.score_against:.3f} | "
            f"{self.score_self:.3f} | {self.advantage:+.3f} [{self.low:+.3f}, {self.high:+.3f}] |"
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


TABLE_HEAD = (
    "| measured | opponent | games | score against it | score against itself | "
    "advantage [95%] |\n|---|---|---|---|---|---|"
)


def _loaded(spec: str, game: Game, seed: int) -> Any:
    return load(spec, game, seed=seed)


def _played_compiled(compiled: bool | None, specs: Sequence[str]) -> bool:
    """Where a table is played: ``compiled`` as its measure decided, by default whether
    every agent plays compiled; :class:`OptionError` for compiled play one cannot have."""
    if compiled is None:
        return compiled_together(specs)
    if compiled and not compiled_together(specs):
        raise OptionError(f"{' against '.join(map(repr, specs))} cannot play in compiled code")
    return compiled


def seat_rotated_scores(
    game: Game,
    agent: str,
    opponent: str,
    games: int,
    seed: int,
    make: AgentMaker = _loaded,
    compiled: bool | None = None,
) -> np.ndarray:
    """``agent``'s score in each of ``games`` games, in seat ``g mod k``, every other seat
    ``opponent``, and each seat's agents made with seeds of their own (the same for every
    opponent: common random numbers).

    ``compiled`` (by default: whether both agents play there; module docstring): game
    ``g`` is game ``seat * games + g // k`` of the run ``seed``, whoever the opponent; else
    in Python, game ``g`` the seed ``seed + g``. A measure passes the same ``compiled`` to
    both its tables, so that they share their deals."""
    k = game.num_players
    scores = np.zeros(games)
    compiled = _played_compiled(compiled, [agent, opponent])
    for seat in range(k):
        idx = np.arange(seat, games, k)
        if idx.size == 0:
            continue
        if compiled:
            policies = [opponent] * k
            policies[seat] = agent
            out = play_compiled(game, policies, idx.size, seed, seat * games, agent_maker=make)
            returns = out["returns"]
        else:
            mine = make(agent, game, seed + 7 * seat + 1)
            theirs = make(opponent, game, seed + 7 * seat + 2)
            seat_agents = [theirs] * k
            seat_agents[seat] = mine
            returns, _ = play_lockstep(game, seat_agents, [seed + int(g) for g in idx])
        scores[idx] = [seat_scores(r)[seat] for r in returns]
    return scores


def side_wins(
    game: Game,
    agent: str,
    games: int,
    seed: int,
    make: AgentMaker = _loaded,
    compiled: bool | None = None,
) -> np.ndarray:
    """A cooperative game's side's result (1 won, 0 lost) in each of ``games`` games,
    ``agent`` in every seat: ``compiled`` (by default: when it plays there) game ``g`` of
    the run ``seed``, else in Python (seeds ``seed + g``, the agent made with seed
    ``seed + 1``)."""
    k = game.num_players
    if _played_compiled(compiled, [agent]):
        returns = play_compiled(game, [agent] * k, games, seed, agent_maker=make)["returns"]
    else:
        player = make(agent, game, seed + 1)
        returns, _ = play_lockstep(game, [player] * k, [seed + g for g in range(games)])
    return (returns[:, 0] > 0).astype(float)


def self_scores(
    game: Game,
    agent: str,
    games: int,
    seed: int = 0,
    make: AgentMaker = _loaded,
    compiled: bool | None = None,
) -> np.ndarray:
    """``agent``'s scores against itself (a cooperative game: the side's results with it in
    every seat), game by game: the table every advantage of ``agent`` is paired with,
    played where (``compiled``) its opponents' tables are."""
    if game.is_cooperative():
        return side_wins(game, agent, games, seed, make, compiled)
    return seat_rotated_scores(game, agent, agent, games, seed, make, compiled)


def measured_compiled(agent: str, opponents: Sequence[str]) -> bool:
    """Whether a measure of ``agent`` against ``opponents`` plays its tables compiled: only
    when every one of them plays there, so that all its tables share their deals."""
    return compiled_together([agent, *opponents])


def advantage(
    game: Game,
    agent: str,
    opponent: str,
    games: int,
    seed: int = 0,
    name: str = "",
    make: AgentMaker = _loaded,
    itself: np.ndarray | None = None,
    compiled: bool | None = None,
) -> Advantage:
    """``agent``'s advantage over ``opponent`` in win points (module docstring);
    ``itself``: :func:`self_scores` of the same ``games`` and ``seed``, when already
    played (:func:`mechanic_weights` plays them once for every family), where
    ``compiled`` says (by default :func:`measured_compiled` of the two: both tables are
    played in the same place)."""
    if games < 2:
        raise OptionError(f"games must be at least 2, got {games}")
    if compiled is None:
        if itself is not None:
            raise ValueError("give compiled with itself: where its table was played")
        compiled = measured_compiled(agent, [opponent])
    if itself is None:
        itself = self_scores(game, agent, games, seed, make, compiled)
    elif itself.shape != (games,):
        raise ValueError(f"itself must hold one score a game ({games}), got {itself.shape}")
    if game.is_cooperative():
        against = side_wins(game, opponent, games, seed, make, compiled)
        diff = itself - against
    else:
        against = seat_rotated_scores(game, agent, opponent, games, seed, make, compiled)
        diff = against - itself
    paired = mean_estimate(diff)
    return Advantage(
        name or opponent,
        agent,
        opponent,
        games,
        float(against.mean()),
        float(itself.mean()),
        paired.value,
        paired.low,
        paired.high,
    )


def mechanic_weights(
    game: Game,
    agent: str,
    games: int,
    seed: int = 0,
    families: Sequence[str] | None = None,
    make: AgentMaker = _loaded,
    progress: Callable[[str], None] | None = None,
    on_row: Callable[[Advantage], None] | None = None,
) -> list[Advantage]:
    """Each family's weight (``families``, by default every family the game declares):
    ``agent``'s advantage over itself forbidden that family, every family paired with the
    one table of ``agent`` against itself (played once, compiled only if every restricted
    opponent plays compiled too). ``on_row`` is told each family's measure as soon as it is
    known (a page keeps them, to resume)."""
    chosen = list(families) if families else list(game.definition.action_families)
    family_mask(game, chosen)  # every name checked before a game is played
    if games < 2:
        raise OptionError(f"games must be at least 2, got {games}")
    opponents = {family: f"restricted:{family}:{agent}" for family in chosen}
    compiled = measured_compiled(agent, list(opponents.values()))
    if progress is not None:
        progress(f"{agent} against itself")
    itself = self_scores(game, agent, games, seed, make, compiled)
    out = []
    for family in chosen:
        if progress is not None:
            progress(f"{agent} without {family}")
        row = advantage(game, agent, opponents[family], games, seed, family, make, itself, compiled)
        out.append(row)
        if on_row is not None:
            on_row(row)
    return out


def greedy_search_gap(
    game: Game,
    search: str = "mcts:200",
    games: int = 200,
    seed: int = 0,
    make: AgentMaker = _loaded,
) -> Advantage:
    """The greedy-against-search gap: ``search``'s advantage over the greedy agent."""
    return advantage(game, search, "greedy", games, seed, "greedy-against-search gap", make)


COOPERATIVE_HEAD = (
    "| measured | in every seat instead | games | side's win rate with it | with the agent | "
    "advantage [95%] |\n|---|---|---|---|---|---|"
)


def restricted_report(game: Game, agent: str, rows: Sequence[Advantage], seed: int) -> str:
    """The measures as a markdown table, with what they mean."""
    if game.is_cooperative():
        text = (
            f"Restricted play in {game.name}: the side's win rate with `{agent}` in every "
            "seat against the same agent forbidden each mechanic (the same deals, dice and "
            f"agent seeds: common random numbers; seed {seed}). A mechanic's weight is the "
            "advantage: the win points in a hundred the side loses when its players may not "
            "use the mechanic; 95% intervals of the paired differences."
        )
        head = COOPERATIVE_HEAD
    else:
        text = (
            f"Restricted play in {game.name}: `{agent}` against itself forbidden each "
            "mechanic (seats rotated, the same deals and seeds in both tables: common random "
            f"numbers; seed {seed}). A mechanic's weight is the advantage: the win points in a "
            "hundred the unrestricted agent gains, over its share against itself, when the "
            "other seats cannot use the mechanic; 95% intervals of the paired differences."
        )
        head = TABLE_HEAD
    return "\n".join([text, "", head, *(r.row() for r in rows)])
