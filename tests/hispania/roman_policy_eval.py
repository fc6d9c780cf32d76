"""Roman win rate of the scripted policy (``heuristic.choose_action``); not a test.

Run from the repository root (level, number of games)::

    /work/venv-dev/bin/python -m tests.hispania.roman_policy_eval 7-5-4-5-1 300
"""

from __future__ import annotations

import random
import sys
from collections import Counter

import boardsim
from boardsim.games.hispania import layout as hl
from boardsim.games.hispania.heuristic import choose_action


def play(game: boardsim.Game, seed: int) -> tuple[int, int]:
    """One game: (winner, time-track spaces covered)."""
    st = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not st.is_terminal():
        if st.is_chance_node():
            outs = st.chance_outcomes()
            st.apply_action(rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
        else:
            st.apply_action(choose_action(game.params, st.array))
    return int(st.array[hl.WINNER]), int(st.array[hl.TRACK])


def win_rate(
    level: str, games: int, first_seed: int = 0, **options: object
) -> tuple[float, Counter]:
    game = boardsim.make_game(
        "hispania", level=level, explicit_chance=True, auto_setup=True, **options
    )
    wins = 0
    rounds: Counter = Counter()
    for seed in range(first_seed, first_seed + games):
        w, track = play(game, seed)
        wins += w == hl.W_ROME
        rounds[(w, track)] += 1
    return wins / games, rounds


if __name__ == "__main__":
    level = sys.argv[1] if len(sys.argv) > 1 else "7-5-4-5-1"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rate, rounds = win_rate(level, n)
    print(f"{level}: Rome wins {rate:.3f} of {n}")
    print(sorted(rounds.items()))
