"""The questions of Farrapos's balance page, docs/balance/farrapos.md
(``boardsim balance docs farrapos``)."""

from __future__ import annotations

from boardsim.core.game import BalanceQuestion, StrengthLadder

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
    BalanceQuestion(
        "When arrivals enter (ruling 3)",
        "The rulebook's two readings of when a side's new units enter (option arrivals): "
        "before its action (l.79-80, the default) or in the set-up step after it (l.63), "
        "both sides the same agent at each rung of the ladder.",
        ("arrivals=before,after", "skill=ladder:10"),
    ),
    BalanceQuestion(
        "Who holds an emptied city (ruling 5)",
        "The two readings of a city left without units (option empty_city): still its "
        "side's, scoring nothing (the default), or no one's at the end of the turn unless a "
        "militia keeps it (l.60 'considered empty', l.113), at each rung of the ladder.",
        ("empty_city=possessed,neutral", "skill=ladder:10"),
    ),
)

# the game's strength ladder in docs/agents.md (python -m boardsim.agents.ladder farrapos)
STRENGTH_LADDER = StrengthLadder()
