"""The questions of Farrapos's balance page, docs/balance/farrapos.md
(``boardsim balance docs farrapos``)."""

from __future__ import annotations

from boardsim.core.game import BalanceQuestion, StrengthLadder

BALANCE_QUESTIONS = (
    BalanceQuestion(
        "Side win rates across skill",
        "Both sides played by the same agent at each rung of the ladder (random, the "
        "heuristic, MCTS at 10 and at 40 simulations, the shipped self-play network "
        "alone): is the Empire's edge between the heuristics the game's, or the bots'? A "
        "verdict that holds as skill rises is the game's.",
        ("skill=ladder:10",),
    ),
    BalanceQuestion(
        "The victory threshold (victory_vp)",
        "The VP that win at once (option victory_vp: the rulebook's 24, against 16, 20, 28 "
        "and 32), both sides the same agent at each rung of the ladder: does a threshold "
        "within reach of the Republic balance the game, and does that hold as skill rises? "
        "Each value's effect is on the Republic's win rate, against 24.",
        ("victory_vp=24,16,20,28,32", "skill=ladder:10"),
        share=0.5,
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
    BalanceQuestion(
        "Where one move goes (ruling 8)",
        "The two readings of 'the player can move as many MU as desired' (l.61, option "
        "move_destinations): a move action into one city (the default) or on to several "
        "cities, each MU moving once, at each rung of the ladder.",
        ("move_destinations=one,several", "skill=ladder:10"),
    ),
    BalanceQuestion(
        "Who enters a city taken (ruling 12)",
        "The two readings of who moves into a city whose last defender falls (option "
        "advance): every surviving attacker (the default) or those the attacker chooses, at "
        "least one, at each rung of the ladder.",
        ("advance=all,chosen", "skill=ladder:10"),
    ),
    BalanceQuestion(
        "Who attacks in a continued battle (ruling 14)",
        "The two readings of 'Continue the attack (repeating the previous procedure)' (l.105, "
        "option round_attackers): the surviving attackers go on (the default) or the attacker "
        "names the attacking MU anew before each round, at each rung of the ladder.",
        ("round_attackers=same,rechosen", "skill=ladder:10"),
    ),
)

# the game's strength ladder in docs/agents.md (python -m boardsim.research.ladder farrapos)
STRENGTH_LADDER = StrengthLadder()
