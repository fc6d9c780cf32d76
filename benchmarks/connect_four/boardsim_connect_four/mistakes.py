"""The mistake rate of an agent at connect four, measured with the perfect solver.

On random positions (``min_plies``..``max_plies`` uniformly random moves from the empty
board, the game not over, drawn from a stated seed) an agent's move is a mistake when it
lowers the game-theoretic class of the position (win > draw > loss) for the player to
move: a won position left for a draw or a loss, a drawn one for a loss. The rate is the
share of the positions where the agent's move is a mistake, with a 95% Wilson interval.

``python -m boardsim_connect_four.mistakes --positions 1000 --seed 2026 random heuristic
mcts:200`` prints the table; agents are boardsim's agent specs (``boardsim.agents.load``).
With ``--by-kind`` it also splits each agent's mistakes by what the position asks for
(:data:`KINDS`): a win at once, a one-move threat to block, or neither (a quiet position),
which tells a player that misses tactics from one that misjudges quiet positions.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from boardsim.intervals import wilson_interval
from boardsim_connect_four.solver import Solver

WIN_AT_ONCE = "win at once"
BLOCK = "block"
QUIET = "quiet"
# what a position asks of the player to move, the first that applies: a move of theirs
# makes four; else a move of the opponent's would make four next (a threat to block, or
# two: then the position is lost whatever the move); else nothing at once
KINDS = (WIN_AT_ONCE, BLOCK, QUIET)


@dataclass(frozen=True)
class Position:
    """A live position: its moves, each legal column's class for the player to move
    (1 win, 0 draw, -1 loss), the position's class (the best of them) and its kind
    (:data:`KINDS`; None where it was not classified, as :func:`random_positions` does)."""

    moves: tuple[int, ...]
    outcomes: dict[int, int]
    kind: str | None = None

    @property
    def value(self) -> int:
        return max(self.outcomes.values())

    def can_err(self) -> bool:
        """Whether some legal move lowers the class."""
        return min(self.outcomes.values()) < self.value


@dataclass(frozen=True)
class MistakeRate:
    """``mistakes`` out of ``positions``, with the 95% Wilson interval ``[low, high]``."""

    agent: str
    mistakes: int
    positions: int
    low: float
    high: float
    seconds: float
    # each kind of position (:data:`KINDS`) -> (mistakes, positions) among those of it
    # (positions of no kind are counted in the total only)
    by_kind: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.mistakes / self.positions


def position_kind(solver: Solver, moves: Sequence[int]) -> str:
    """What the live position after ``moves`` asks of the player to move (:data:`KINDS`)."""
    current, mask, _n = solver.position(moves)
    if solver.winning_columns(current, mask):
        return WIN_AT_ONCE
    if solver.winning_columns(current ^ mask, mask):
        return BLOCK
    return QUIET


def random_positions(
    count: int,
    seed: int,
    min_plies: int = 10,
    max_plies: int = 16,
    solver: Solver | None = None,
) -> list[Position]:
    """``count`` live positions of the standard board, each ``min_plies``..``max_plies``
    uniformly random moves deep (a draw that ends the game is drawn again), solved."""
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    if not 0 <= min_plies <= max_plies:
        raise ValueError(f"plies must satisfy 0 <= min <= max, got {min_plies}..{max_plies}")
    solver = solver or Solver()
    if max_plies >= solver.cells:
        raise ValueError(f"max_plies must be below {solver.cells}, got {max_plies}")
    rng = np.random.default_rng(seed)
    out: list[Position] = []
    while len(out) < count:
        plies = int(rng.integers(min_plies, max_plies + 1))
        moves: list[int] = []
        over = False
        for _ in range(plies):
            current, mask, _n = solver.position(moves)
            children = solver.children(current, mask)
            col = int(rng.choice(sorted(children)))
            moves.append(col)
            if children[col][2]:
                over = True
                break
        if over:
            continue
        kind = position_kind(solver, moves)
        out.append(Position(tuple(moves), solver.move_outcomes(moves), kind))
    return out


def mistake_rate(agent_spec: str, positions: Sequence[Position], seed: int = 0) -> MistakeRate:
    """The share of ``positions`` where the agent ``agent_spec`` (``"random"``,
    ``"heuristic"``, ``"mcts:200"``, ``"alphazero:PATH"``, ...) plays a move that lowers
    the position's class, with its 95% interval."""
    from boardsim import agents
    from boardsim.core.game import Game
    from boardsim_connect_four import DEFINITION

    if not positions:
        raise ValueError("no positions to measure on")
    game = Game(DEFINITION)  # not by name: under ``python -m`` the entry point is mid-import
    agent = agents.load(agent_spec, game, seed=seed)
    start = time.perf_counter()
    mistakes = 0
    by_kind = {kind: [0, 0] for kind in KINDS}
    for position in positions:
        state = game.new_initial_state(seed)
        for col in position.moves:
            state.apply_action(col)
        move = int(agent.act_state(state))
        if move not in position.outcomes:
            raise ValueError(f"{agent_spec} played illegal column {move} at {position.moves}")
        wrong = position.outcomes[move] < position.value
        mistakes += wrong
        if position.kind in by_kind:
            by_kind[position.kind][0] += wrong
            by_kind[position.kind][1] += 1
    low, high = wilson_interval(mistakes, len(positions))
    seconds = time.perf_counter() - start
    kinds = {kind: (m, n) for kind, (m, n) in by_kind.items()}
    return MistakeRate(agent_spec, mistakes, len(positions), low, high, seconds, kinds)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m boardsim_connect_four.mistakes",
        description="Each agent's share of moves that lower the position's game-theoretic "
        "class (win > draw > loss), on random positions solved perfectly.",
    )
    parser.add_argument("agents", nargs="+", help="agent specs: random heuristic mcts:200 ...")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026, help="seed of the positions")
    parser.add_argument("--agent-seed", type=int, default=0)
    parser.add_argument("--min-plies", type=int, default=10)
    parser.add_argument("--max-plies", type=int, default=16)
    parser.add_argument(
        "--by-kind",
        action="store_true",
        help="also each agent's mistakes among the positions with a win at once, with a "
        "threat to block, and the quiet rest",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        positions = random_positions(args.positions, args.seed, args.min_plies, args.max_plies)
    except ValueError as exc:
        parser.error(str(exc))
    solved = time.perf_counter() - start
    erring = sum(p.can_err() for p in positions)
    classes = [sum(p.value == v for p in positions) for v in (1, 0, -1)]
    print(
        f"{len(positions)} positions (seed {args.seed}, {args.min_plies}-{args.max_plies} "
        f"random plies), solved in {solved:.0f} s: {classes[0]} won, {classes[1]} drawn, "
        f"{classes[2]} lost for the player to move; {erring} allow a mistake"
    )
    if args.by_kind:
        counts = ", ".join(f"{sum(p.kind == k for p in positions)} {k}" for k in KINDS)
        print(f"kinds (what the position asks of the player to move): {counts}")
    head = f"{'agent':<28} {'mistakes':>9} {'rate':>7} {'95% interval':>16} {'seconds':>8}"
    if args.by_kind:
        head += "".join(f" {k:>14}" for k in KINDS)
    print(head)
    for spec in args.agents:
        r = mistake_rate(spec, positions, args.agent_seed)
        line = (
            f"{spec:<28} {r.mistakes:>9} {r.rate:>7.3f} "
            f"{f'[{r.low:.3f}, {r.high:.3f}]':>16} {r.seconds:>8.1f}"
        )
        if args.by_kind:
            line += "".join(f" {by_kind_cell(*r.by_kind.get(k, (0, 0))):>14}" for k in KINDS)
        print(line)
    return 0


def by_kind_cell(mistakes: int, positions: int) -> str:
    """``mistakes/positions`` of one kind, with the rate (``-`` where there were none)."""
    if positions == 0:
        return "-"
    return f"{mistakes}/{positions} {mistakes / positions:.2f}"


if __name__ == "__main__":
    sys.exit(main())
