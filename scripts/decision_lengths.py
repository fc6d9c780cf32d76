"""How long each game's games are, to choose and document its default decision limit.

Plays whole games in compiled code (``boardsim.core.batch.play_games``,
``boardsim.agents.mcts.play_games``) with random, heuristic and MCTS players under
every option set a game samples (``GameDefinition.sample_options``, chance implicit),
with no decision limit but a safety cap, and prints a Markdown table a game: the
decisions a game takes (mean, median, 99th percentile, longest) and how many games the
cap cut. Then the longest turn of the first-legal, last-legal players
(``boardsim.testing.play_turns``) and the limit the rule below gives::

    limit = the smallest multiple of 1,000 at least 3 x the longest game measured

Run it (a few minutes on one core)::

    python scripts/decision_lengths.py --games 1000 --mcts-games 8 --simulations 50
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

import boardsim
from boardsim.agents.mcts import play_games as mcts_games
from boardsim.core.batch import play_games
from boardsim.games import definition
from boardsim.testing import play_turns

SAFETY_CAP = 1_000_000  # decisions: a measured game is cut here (and counted) only if it never ends
HEADROOM = 3  # the limit is at least this many times the longest game measured
ROUND_TO = 1_000


def option_sets(game: str) -> list[dict[str, Any]]:
    """The game's sample option sets with chance implicit (compiled players draw it),
    the defaults first."""
    sets: list[dict[str, Any]] = [{}]
    for opts in definition(game).sample_options:
        o = {k: v for k, v in opts.items() if k != "explicit_chance"}
        if o not in sets:
            sets.append(o)
    return sets


def seatings(num_players: int) -> Iterator[tuple[str, list[str]]]:
    """Every player random, every player heuristic, the heuristic alone in each seat."""
    yield "random", ["random"] * num_players
    yield "heuristic", ["heuristic"] * num_players
    for seat in range(num_players):
        seats = ["random"] * num_players
        seats[seat] = "heuristic"
        yield f"heuristic seat {seat}, rest random", seats


def summary(decisions: np.ndarray, cut: np.ndarray) -> str:
    d = np.asarray(decisions, np.float64)
    return (
        f"{len(d)} | {d.mean():,.0f} | {np.median(d):,.0f} | {np.percentile(d, 99):,.0f} "
        f"| {int(d.max()):,} | {int(cut.sum())}"
    )


def measure(
    game_name: str, games: int, mcts_count: int, sims: int, cap: int = SAFETY_CAP
) -> tuple[list[str], int]:
    """The table's rows for one game, and the longest game measured (of those that
    ended: a game cut at ``cap`` never ends, the stall a limit is for)."""
    rows: list[str] = []
    longest = 0
    for opts in option_sets(game_name):
        game = boardsim.make_game(game_name, max_decisions=cap, **opts)
        shown = ", ".join(f"{k}={v}" for k, v in opts.items()) or "defaults"
        for label, seats in seatings(game.num_players):
            out = play_games(game, games, seats, seed=1, threads=1)
            longest = max(longest, ended_longest(out))
            rows.append(f"| {shown} | {label} | {summary(out['decisions'], out['truncated'])} |")
        if mcts_count:
            seats = ["heuristic"] * game.num_players
            seats[0] = "mcts"
            out = mcts_games(game, mcts_count, seats, seed=1, threads=1, simulations=sims)
            longest = max(longest, ended_longest(out))
            label = f"mcts:{sims} seat 0, rest heuristic"
            rows.append(f"| {shown} | {label} | {summary(out['decisions'], out['truncated'])} |")
    return rows, longest


def ended_longest(out: dict[str, np.ndarray]) -> int:
    """The longest game that ended by the rules (0 when none did)."""
    ended = np.asarray(out["decisions"])[~np.asarray(out["truncated"], bool)]
    return int(ended.max()) if ended.size else 0


def turn_rows(game_name: str) -> list[str]:
    """The first- and last-legal players' games: decisions, longest turn, truncated."""
    rows = []
    for opts in option_sets(game_name):
        game = boardsim.make_game(game_name, **opts)
        shown = ", ".join(f"{k}={v}" for k, v in opts.items()) or "defaults"
        for name, pick in (("first legal", min), ("last legal", max)):
            t = play_turns(game, pick)
            cut = "yes" if t.truncated else "no"
            rows.append(f"| {shown} | {name} | {t.decisions:,} | {t.longest_turn} | {cut} |")
    return rows


def chosen_limit(longest: int) -> int:
    return int(math.ceil(HEADROOM * longest / ROUND_TO) * ROUND_TO)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_", nargs="*", metavar="GAME", help="default: every game")
    parser.add_argument("--games", type=int, default=1000, help="games a seating")
    parser.add_argument("--mcts-games", type=int, default=8, help="MCTS games an option set")
    parser.add_argument("--simulations", type=int, default=50, help="MCTS simulations")
    parser.add_argument("--turns", action="store_true", help="also the deterministic players")
    parser.add_argument(
        "--cap", type=int, default=SAFETY_CAP, help="decisions a measured game is cut at"
    )
    args = parser.parse_args(argv)
    for name in args.games_ or boardsim.list_games():
        rows, longest = measure(name, args.games, args.mcts_games, args.simulations, args.cap)
        print(f"### {name}\n")
        print("| options | players | games | mean | median | 99 % | longest | cut |")
        print("|---|---|---|---|---|---|---|---|")
        print("\n".join(rows))
        print(
            f"\nlongest game measured (of those that ended): {longest:,} decisions; limit "
            f"(ceil({HEADROOM} x longest / {ROUND_TO:,}) x {ROUND_TO:,}): "
            f"{chosen_limit(longest):,}; current default max_decisions: "
            f"{boardsim.make_game(name).options['max_decisions']:,}\n"
        )
        if args.turns:
            print("| options | player | decisions | longest turn | truncated |")
            print("|---|---|---|---|---|")
            print("\n".join(turn_rows(name)) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
