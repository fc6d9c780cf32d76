"""The questions of Farrapos's balance page, docs/balance/farrapos.md
(``boardsim balance docs farrapos``)."""

from __future__ import annotations

from boardsim.core.game import (
    BalanceQuestion,
    BalanceTuning,
    RestrictedPlay,
    RuleSource,
    StrengthLadder,
)
from boardsim.games.farrapos import data

BALANCE_QUESTIONS = (
    BalanceQuestion(
        "Side win rates across skill",
        "The Empire's edge at every rung: both sides played by the same agent at each rung "
        "of skill (random, the heuristic, MCTS at 10 and at 40 simulations, the shipped "
        "self-play network alone). Is the Empire's edge between the heuristics the game's, "
        "or the bots'? A verdict the two strongest rungs agree on is the game's; where they "
        "disagree, the players' skill decides it.",
        ("skill=rungs:10",),
    ),
    BalanceQuestion(
        "The victory threshold (victory_vp)",
        "The VP that win at once (option victory_vp: the rulebook's 24, against 16, 20, 28 "
        "and 32), both sides the same agent at each rung of skill: does a threshold "
        "within reach of the Republic balance the game, and does that hold as skill rises? "
        "Each value's effect is on the Republic's win rate, against 24.",
        ("victory_vp=24,16,20,28,32", "skill=rungs:10"),
        share=0.5,
    ),
    BalanceQuestion(
        "The Empire's army (empire_mu)",
        "The Empire's MU in the game (option empire_mu: the reconstructed 28, against 24, 20 "
        "and 16, its latest arrivals withheld: Caxias' armies of 1842-1843 first, then those "
        "of 1839-1841; 16 is its set-up alone), both sides the same agent at each rung of "
        "skill: is the Empire's edge its reconstructed reinforcements? Each value's effect is "
        "on the Republic's win rate, against 28.",
        ("empire_mu=28,24,20,16", "skill=rungs:10"),
        share=0.5,
    ),
    BalanceQuestion(
        "The all-ports bonus (ports_bonus)",
        "The VP for occupying every port (option ports_bonus: the reconstructed 3, against 0, "
        "6 and 9), both sides the same agent at each rung of skill. The Empire starts "
        "with two of the five ports, the Republic with one.",
        ("ports_bonus=3,0,6,9", "skill=rungs:10"),
        share=0.5,
    ),
    BalanceQuestion(
        "The region bonuses (region_bonus_shift)",
        "Every colour region's bonus moved together (option region_bonus_shift: the "
        "reconstructed bonuses 2, 1, 2, 2, 3, 3 shifted by -3 (none), +2 and +4), both sides "
        "the same agent at each rung of skill.",
        ("region_bonus_shift=0,-3,2,4", "skill=rungs:10"),
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
        "both sides the same agent at each rung of skill.",
        ("arrivals=before,after", "skill=rungs:10"),
    ),
    BalanceQuestion(
        "Who holds an emptied city (ruling 5)",
        "The two readings of a city left without units (option empty_city): still its "
        "side's, scoring nothing (the default), or no one's at the end of the turn unless a "
        "militia keeps it (l.60 'considered empty', l.113), at each rung of skill.",
        ("empty_city=possessed,neutral", "skill=rungs:10"),
    ),
    BalanceQuestion(
        "Where one move goes (ruling 8)",
        "The two readings of 'the player can move as many MU as desired' (l.61, option "
        "move_destinations): a move action into one city (the default) or on to several "
        "cities, each MU moving once, at each rung of skill.",
        ("move_destinations=one,several", "skill=rungs:10"),
    ),
    BalanceQuestion(
        "Who enters a city taken (ruling 12)",
        "The two readings of who moves into a city whose last defender falls (option "
        "advance): every surviving attacker (the default) or those the attacker chooses, at "
        "least one, at each rung of skill.",
        ("advance=all,chosen", "skill=rungs:10"),
    ),
    BalanceQuestion(
        "Who attacks in a continued battle (ruling 14)",
        "The two readings of 'Continue the attack (repeating the previous procedure)' (l.105, "
        "option round_attackers): the surviving attackers go on (the default) or the attacker "
        "names the attacking MU anew before each round, at each rung of skill.",
        ("round_attackers=same,rechosen", "skill=rungs:10"),
    ),
)

# where each number the tuning moves comes from: the rulebook prints the threshold
# (l.128); the Empire's arrivals after its set-up (the unit split) and the bonuses are
# reconstructed, though the rulebook states that the bonuses exist (l.112); rulings 5
# and 8 are readings of its text (docs/rules/farrapos.md)
TUNING_SOURCES = {
    "victory_vp": RuleSource(True, data.VICTORY_VP, "rulebook l.128"),
    "empire_mu": RuleSource(
        False,
        data.SIDE_UNITS[1],
        "reconstructed: the Empire's arrivals after its set-up (the unit split)",
    ),
    "ports_bonus": RuleSource(
        False,
        data.PORTS_BONUS,
        "reconstructed value of the all-ports bonus the rulebook states, l.112",
        off_at=0,
    ),
    "region_bonus_shift": RuleSource(
        False,
        0,
        "reconstructed region bonuses 2, 1, 2, 2, 3, 3, which the rulebook states, l.112; "
        "a shift of -1 takes a region's bonus to 0",
        off_at=-1,
    ),
    "move_destinations": RuleSource(False, "one", "ruling 8, a reading of l.61"),
    "empty_city": RuleSource(False, "possessed", "ruling 5, a reading of l.60 and l.113"),
}

BALANCE_TUNINGS = (
    BalanceTuning(
        "Tuning the sides even",
        "Which levers balance the Empire's edge, at which values, at two skills at once: "
        "the threshold (victory_vp, printed), the Empire's reconstructed army (empire_mu, "
        "the unit split), the VP values of the bonuses (ports_bonus, region_bonus_shift), "
        "ruling 8 (move_destinations) and ruling 5 (empty_city), searched (Optuna's TPE; "
        "each trial plays the same games) for the designers' band: the Republic wins "
        "48-52%, within one point, both when every seat is the heuristic and when every "
        "seat is the shipped self-play network. A trial that moves the printed threshold, "
        "or switches off a bonus the rulebook states, is a rule change, reported apart "
        "from the tunings of reconstructed numbers.",
        (
            "republic=0.48-0.52@heuristic",
            "republic=0.48-0.52@alphazero",
        ),
        (
            "victory_vp=16:32",
            "empire_mu=16:28",
            "ports_bonus=0:9",
            "region_bonus_shift=-3:4",
            "move_destinations=one,several",
            "empty_city=possessed,neutral",
        ),
        trials=100,
        sources=TUNING_SOURCES,
        precision=0.01,
        max_games=10000,
    ),
)

# the game's strength ladder in docs/agents.md (python -m boardsim.research.ladder farrapos)
RESTRICTED_PLAY = (
    RestrictedPlay(
        "Which mechanics the game turns on",
        "Jaffe's restricted play at the top rung: the shipped self-play network against "
        "itself forbidden each action family (families.py: passing, pressing or breaking "
        "off an attack, and the steps of every order), sides rotated; and how much MCTS at "
        "200 simulations gains over a one-move lookahead (the greedy agent). A family the "
        "network needs weighs much; a negative weight is a family the network uses worse "
        "than not at all, a flaw of the network rather than of the game.",
        "alphazero",
        # cancel is never legal (ruling 25)
        families=("city", "unit", "confirm", "pass", "continue", "stop"),
        gap="mcts:200",
        games=4000,
        gap_games=100,
    ),
)

STRENGTH_LADDER = StrengthLadder()
