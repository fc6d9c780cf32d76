"""The questions of Farrapos's balance page, docs/balance/farrapos.md
(``boardsim balance docs farrapos``)."""

from __future__ import annotations

from boardsim.core.game import BalanceQuestion

BALANCE_QUESTIONS = (
    BalanceQuestion(
        "Side win rates across skill",
        "Both sides played by the same agent at each rung of the ladder (random, the "
        "heuristic, MCTS at 10 and at 40 simulations): is the Empire's edge between the "
        "heuristics the game's, or the bots'? A verdict that holds as skill rises is the "
        "game's.",
        ("skill=ladder:10",),
    ),
    BalanceQuestion(
        "The advanced rules",
        "The Republic's win rate with each of the rulebook's advanced rules (siege, port "
        "transport) and both, every seat the heuristic.",
        ("variant=all",),
    ),
)
