"""How strong the compiled MCTS is: MCTS seats against compiled opponents, whole games in numba.

For the default search settings ``boardsim eval GAME --agents heuristic,mcts:200`` plays
the same compiled games (docs/agents.md's 1,000-game results); this script is for sweeps
of the search's settings (``--c``, ``--prior``, ``--depth``, ``--rollout``) and for one
MCTS player at a table of several opponents. Examples::

    python scripts/mcts_strength.py liberation --players 2 --opponent heuristic --games 200
    python scripts/mcts_strength.py farrapos --opponent random --games 100 --depth 20
    python scripts/mcts_strength.py hispania --opponent none --games 200  # Rome's win rate

The MCTS player takes each seat in turn (game ``k`` puts it in seat ``k % players``);
in Hispania every general is MCTS (the Roman side plays the game system) and
``--opponent none`` is the only choice. Prints one JSON line: games, wins, draws,
losses of the MCTS side, its mean return, a 95% Wilson interval of the win rate, its
wins and games in each seat,
the settings and the seconds taken; ``--out FILE`` also writes it there (atomically).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import boardsim
from boardsim.agents.mcts import play_games, search_settings
from boardsim.files import atomic_write_text
from boardsim.research.stats import wilson_interval


def play_in_chunks(
    game: boardsim.Game,
    count: int,
    seats: list[str],
    seed: int,
    first_game: int,
    threads: int | None,
    chunk: int,
    **search: Any,
) -> dict[str, np.ndarray]:
    """``play_games`` in chunks of ``chunk`` games (the same games: game numbers are kept),
    printing the games played and the MCTS side's wins so far to stderr after each chunk."""
    parts: list[dict[str, np.ndarray]] = []
    for start in range(0, count, chunk):
        size = min(chunk, count - start)
        parts.append(
            play_games(
                game,
                size,
                seats,
                seed=seed,
                first_game=first_game + start,
                threads=threads,
                **search,
            )
        )
        done = sum(len(p["decisions"]) for p in parts)
        side = seats.index("mcts")
        won = sum(int((p["returns"][:, side] > 0.5).sum()) for p in parts)
        print(f"  {seats}: {done}/{count} games, MCTS won {won}", file=sys.stderr, flush=True)
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def measure(
    game_name: str,
    game_options: dict[str, Any],
    opponent: str,
    games: int,
    seed: int,
    threads: int | None,
    chunk: int = 10,
    **search: Any,
) -> dict[str, Any]:
    """Play ``games`` games of MCTS against ``opponent``; the MCTS side's results."""
    game = boardsim.make_game(game_name, **game_options)
    n = game.num_players
    team = game.teams
    started = time.perf_counter()
    wins = draws = losses = 0
    total = 0.0
    decisions = 0
    if game_name == "hispania":
        if opponent != "none":
            raise SystemExit("hispania: every general is MCTS; use --opponent none")
        seats = ["mcts" if team[p] == 0 else "heuristic" for p in range(n)]
        out = play_in_chunks(game, games, seats, seed, 0, threads, chunk, **search)
        mine = out["returns"][:, 0]
        decisions = int(out["decisions"].sum())
    else:
        mine = np.zeros(games)
        for seat in range(n):
            count = len(range(seat, games, n))
            if count == 0:
                continue
            seats = [opponent] * n
            seats[seat] = "mcts"
            # every seat plays its own slice of the run's games (first_game = seat * games)
            out = play_in_chunks(game, count, seats, seed, seat * games, threads, chunk, **search)
            mine[seat::n] = out["returns"][:, seat]
            decisions += int(out["decisions"].sum())
    wins = int((mine > 0.5).sum())
    losses = int((mine < -0.5).sum())
    draws = games - wins - losses
    total = float(mine.sum())
    low, high = wilson_interval(wins, games) if games else (0.0, 1.0)
    seat_wins = [int((mine[seat::n] > 0.5).sum()) for seat in range(n)]
    seat_games = [len(mine[seat::n]) for seat in range(n)]
    if game_name == "hispania":  # the Roman side plays every game
        seat_wins, seat_games = [wins], [games]
    settings = search_settings(game, **search)
    return {
        "game": game_name,
        "options": game_options,
        "players": n,
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / games if games else 0.0,
        "win_rate_95": [round(low, 4), round(high, 4)],
        "mean_return": total / games if games else 0.0,
        "wins_by_seat": seat_wins,
        "games_by_seat": seat_games,
        "decisions": decisions,
        "settings": settings,
        "seed": seed,
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=boardsim.list_games())
    parser.add_argument("--players", type=int, default=None, help="liberation: 2-6")
    parser.add_argument("--level", default=None, help="hispania: e.g. 6-4-3-4-2")
    parser.add_argument("--opponent", default="heuristic", choices=("heuristic", "random", "none"))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--c", type=float, default=None, help="UCB exploration constant")
    parser.add_argument("--rollout", choices=("random", "heuristic"), default=None)
    parser.add_argument("--depth", type=int, default=None, help="rollout cap (-1: to the end)")
    parser.add_argument("--prior", type=float, default=None, help="heuristic progressive bias")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--chunk", type=int, default=10, help="games a compiled call")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    if args.players is not None:
        options["num_players"] = args.players
    if args.level is not None:
        options["level"] = args.level
    search: dict[str, Any] = {"simulations": args.sims}
    for key, value in (
        ("c_uct", args.c),
        ("rollout", args.rollout),
        ("rollout_depth", args.depth),
        ("prior", args.prior),
    ):
        if value is not None:
            search[key] = value
    result = measure(
        args.game, options, args.opponent, args.games, args.seed, args.threads, args.chunk, **search
    )
    line = json.dumps(result)
    print(line)
    if args.out is not None:
        atomic_write_text(args.out, line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
