"""The ``boardsim`` command: ``demo``, ``bench`` and the subcommands of ``COMMAND_MODULES``."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Sequence

import numpy as np

from boardsim.agents import GreedyAgent, RandomAgent
from boardsim.api import list_games, make_game

# Each further subcommand lives in its own module with
# ``add_parser(subparsers) -> None``, which registers the subcommand and sets
# ``func(args) -> int``; heavy imports (torch, ray) belong inside ``func``.
COMMAND_MODULES: tuple[str, ...] = (
    "boardsim.commands.balance",
    "boardsim.commands.play",
    "boardsim.commands.replay",
    "boardsim.commands.train",
    "boardsim.commands.eval",
)

DEMO_MAX_DECISIONS = 20_000  # a safety net: a game this long is cut and counted as truncated


def play_demo_game(game_name: str, games: int, seed: int) -> dict[str, object]:
    """``games`` games of ``game_name``: a greedy player in each seat in turn, random elsewhere."""
    game = make_game(game_name, max_decisions=DEMO_MAX_DECISIONS)
    n = game.num_players
    wins_by_seat = np.zeros(n)
    games_by_seat = np.zeros(n)
    random_wins = 0.0
    random_seats = 0
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        greedy_seat = g % n
        state = game.new_initial_state(seed + g)
        greedy = GreedyAgent(game, seed + g)
        rnd = RandomAgent(seed + g)
        while not state.is_terminal():
            player = state.current_player()
            if player < 0:  # explicit chance is off in the demo
                raise RuntimeError("unexpected chance node")
            agent = greedy if player == greedy_seat else rnd
            state.apply_action(agent.act_state(state))
            decisions += 1
        ret = state.returns()
        winners = np.flatnonzero(ret == ret.max())
        if ret.max() == ret.min() and ret.max() <= 0:
            winners = winners[:0]  # a shared loss (Hispania's Romans) or a draw: nobody won
        share = 1.0 / max(len(winners), 1)
        games_by_seat[greedy_seat] += 1
        if greedy_seat in winners:
            wins_by_seat[greedy_seat] += share
        for p in range(n):
            if p != greedy_seat:
                random_seats += 1
                random_wins += share if p in winners else 0.0
    seconds = time.perf_counter() - start
    return {
        "game": game_name,
        "players": n,
        "games": games,
        "greedy_win_rate_by_seat": (wins_by_seat / np.maximum(games_by_seat, 1)).tolist(),
        "random_win_rate": random_wins / max(random_seats, 1),
        "fair_share": 1.0 / n,
        "decisions": decisions,
        "decisions_per_second": decisions / seconds,
    }


def cmd_demo(args: argparse.Namespace) -> int:
    names = args.games_list or list_games()
    print(f"boardsim demo: {args.games} games per game, greedy (one seat) against random players\n")
    header = (
        f"{'game':<11} {'players':>7} {'greedy win rate by seat':<34} "
        f"{'random':>7} {'fair':>6} {'decisions/s':>12}"
    )
    print(header)
    print("-" * len(header))
    for name in names:
        r = play_demo_game(name, args.games, args.seed)
        seats = " ".join(f"{w:5.2f}" for w in r["greedy_win_rate_by_seat"])  # type: ignore[union-attr]
        print(
            f"{name:<11} {r['players']:>7} {seats:<34} {r['random_win_rate']:>7.2f} "
            f"{r['fair_share']:>6.2f} {r['decisions_per_second']:>12,.0f}"
        )
    print(
        "\n(decisions/s here is the Python State API with a lookahead agent; "
        "`boardsim bench` measures the compiled engine)"
    )
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from boardsim.bench import main as bench_main

    return bench_main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardsim", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser(
        "demo", help="play every game: greedy against random, win rates and speed"
    )
    demo.add_argument("--games", type=int, default=200, help="games per game (default 200)")
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument(
        "--game",
        dest="games_list",
        action="append",
        choices=list_games(),
        help="only this game (repeatable)",
    )
    demo.set_defaults(func=cmd_demo)
    bench = sub.add_parser("bench", help="throughput of the compiled engine and the wrappers")
    bench.add_argument("--game", dest="games_list", action="append", choices=list_games())
    bench.add_argument("--seconds", type=float, default=2.0, help="timed window per case")
    bench.add_argument("--json", default=None, help="also write the results to this JSON file")
    bench.set_defaults(func=cmd_bench)
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "games", 1) is not None and getattr(args, "games", 1) < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
