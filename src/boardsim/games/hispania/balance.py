"""The questions of Hispania's balance page, docs/balance/hispania.md
(``boardsim balance docs hispania``)."""

from __future__ import annotations

from boardsim.core.game import BalanceQuestion

BALANCE_QUESTIONS = (
    BalanceQuestion(
        "Rome across skill at the medium level",
        "Rome's win rate at 6-4-3-4-2 with the Romans played by each rung of the ladder "
        "(random, the heuristic, MCTS at 10 and at 40 simulations) against the dice-driven "
        "Hispanic system: is the medium level winnable, and how much does skill buy?",
        ("skill=ladder:10",),
        options={"level": "6-4-3-4-2"},
        share=0.5,
    ),
    BalanceQuestion(
        "The 243 levels",
        "Rome's win rate at every level, the Romans the heuristic: do the five parameters "
        "order difficulty as the rulebook says, and which matters most?",
        ("level=all",),
        share=0.1,
    ),
    BalanceQuestion(
        "The variants",
        "Rome's win rate with each of the rulebook's variants at 6-5-4-5-1 (the easiest "
        "level with 6 denarii, which the Hispano variant requires), the Romans the "
        "heuristic: does each variant make the game harder, in the rulebook's order?",
        ("variant=all",),
        options={"level": "6-5-4-5-1"},
        share=0.5,
    ),
)
