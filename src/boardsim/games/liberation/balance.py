"""The questions of the race's balance page, docs/balance/liberation.md
(``boardsim balance docs liberation``)."""

from __future__ import annotations

from boardsim.core.game import BalanceQuestion

BALANCE_QUESTIONS = (
    BalanceQuestion(
        "First-seat advantage across skill, 2 players",
        "Both seats played by the same agent at each rung of the ladder (random, the "
        "heuristic, MCTS at 10 and at 40 simulations): does the first player win more "
        "than half the games, and does that hold as skill rises?",
        ("skill=ladder:10",),
        options={"num_players": 2},
    ),
    BalanceQuestion(
        "Seat advantage by the number of players",
        "Every seat the heuristic, 2 to 6 players: each seat's win rate against the fair share.",
        ("num_players=2,3,4,5,6",),
    ),
)
