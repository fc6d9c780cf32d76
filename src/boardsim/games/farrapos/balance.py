"""The questions of Farrapos's balance page, docs/balance/farrapos.md
(``boardsim balance docs farrapos``)."""

from __future__ import annotations

from boardsim.core.game import BalanceQuestion, BalanceTuning, StrengthLadder

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
        "The Empire's army (empire_mu)",
        "The Empire's MU in the game (option empire_mu: the reconstructed 28, against 24, 20 "
        "and 16, its latest arrivals withheld: Caxias' armies of 1842-1843 first, then those "
        "of 1839-1841; 16 is its set-up alone), both sides the same agent at each rung of the "
        "ladder: is the Empire's edge its reconstructed reinforcements? Each value's effect is "
        "on the Republic's win rate, against 28.",
        ("empire_mu=28,24,20,16", "skill=ladder:10"),
        share=0.5,
    ),
    BalanceQuestion(
        "The all-ports bonus (ports_bonus)",
        "The VP for occupying every port (option ports_bonus: the reconstructed 3, against 0, "
        "6 and 9), both sides the same agent at each rung of the ladder. The Empire starts "
        "with two of the five ports, the Republic with one.",
        ("ports_bonus=3,0,6,9", "skill=ladder:10"),
        share=0.5,
    ),
    BalanceQuestion(
        "The region bonuses (region_bonus_shift)",
        "Every colour region's bonus moved together (option region_bonus_shift: the "
        "reconstructed bonuses 2, 1, 2, 2, 3, 3 shifted by -3 (none), +2 and +4), both sides "
        "the same agent at each rung of the ladder.",
        ("region_bonus_shift=0,-3,2,4", "skill=ladder:10"),
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

BALANCE_TUNINGS = (
    BalanceTuning(
        "Tuning the sides even",
        "Settings of the threshold, the Empire's army, the bonuses and ruling 8 under which "
        "the Republic wins 45-55% both when every seat is the heuristic and when every seat "
        "is MCTS at 40 simulations (Optuna's TPE over the five options; each trial plays the "
        "same games). The closest trials show whether one lever or several do it.",
        (
            "republic=0.45-0.55@heuristic",
            "republic=0.45-0.55@mcts:40",
        ),
        (
            "victory_vp=16:32",
            "empire_mu=16:28",
            "ports_bonus=0:9",
            "region_bonus_shift=-3:4",
            "move_destinations=one,several",
        ),
        trials=40,
    ),
)

# the game's strength ladder in docs/agents.md (python -m boardsim.research.ladder farrapos)
STRENGTH_LADDER = StrengthLadder()
