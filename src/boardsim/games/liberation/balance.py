"""The questions of the race's balance page, docs/balance/liberation.md
(``boardsim balance docs liberation``)."""

from __future__ import annotations

from boardsim.core.game import BalanceQuestion, RestrictedPlay, StrengthLadder

# issue 38: why the seat question of game_end needs no sweep (both L13 questions say so)
END_OF_ROUND_NOTE = (
    " By construction game_end=end_of_round cannot change a result: VT are won only when "
    "a country becomes independent, and once every country is free the rest of the "
    "round wins no one a VT, so a game played the same way has the same winner under "
    "both readings and the seat question is answered without a sweep; where the cells "
    "differ, the agents played differently (a search that sees the round played out), "
    "not the rule."
)

BALANCE_QUESTIONS = (
    BalanceQuestion(
        "First-seat advantage across skill, 2 players",
        "Both seats played by the same agent at each rung of skill (random, the "
        "heuristic, MCTS at 10 and at 40 simulations, the shipped self-play network "
        "alone): does the first player win more than half the games, and does that hold "
        "as skill rises?",
        ("skill=rungs:10",),
        options={"num_players": 2},
    ),
    BalanceQuestion(
        "Seat advantage by the number of players",
        "The seat advantage by player count at every rung: 2 to 6 players, every seat the "
        "same agent at each rung of skill (random, the heuristic, MCTS at 10 and at 40 "
        "simulations; the self-play network plays 2 players only, so it is no rung here), "
        "each seat's win rate against the fair share, and whether the first seat's edge at "
        "each player count holds as skill rises.",
        ("num_players=2,3,4,5,6", "skill=rungs:10"),
        share=0.5,
    ),
    BalanceQuestion(
        "When the game ends (ledger L13)",
        "The two readings of the end (option game_end): at once, with the tuck that frees "
        "the last country (the default), or at the end of that round, every player having "
        "had as many turns; 2 players, both seats the same agent at each rung of skill."
        + END_OF_ROUND_NOTE,
        ("game_end=at_once,end_of_round", "skill=rungs:10"),
        options={"num_players": 2},
    ),
    BalanceQuestion(
        "When the game ends, by the number of players (ledger L13)",
        "Option game_end at_once or end_of_round, 2 to 6 players, every seat the same agent "
        "at each rung of skill (random, the heuristic, MCTS at 10 and at 40 "
        "simulations; the self-play network plays 2 players only, so it is no rung here): "
        "each seat's win rate against the fair share, whether the first seat's edge at each "
        "player count holds as skill rises, and whether ending at the end of the round "
        "removes it." + END_OF_ROUND_NOTE,
        ("game_end=at_once,end_of_round", "num_players=2,3,4,5,6", "skill=rungs:10"),
        share=0.5,
    ),
    BalanceQuestion(
        "Liberating a space just cleared (ledger L7)",
        "The two readings of a Royalist attack's landing (option cleared_space): the cleared "
        "space stays empty (the default) or the attacker may tuck a card there at once; "
        "2 players, both seats the same agent at each rung of skill.",
        ("cleared_space=left_empty,tuck", "skill=rungs:10"),
        options={"num_players": 2},
    ),
    BalanceQuestion(
        "Independent spaces on the way (ledger L4)",
        "The two readings of skipping an independent space (option independent_spaces): it "
        "uses no pip (the default) or one; 2 players, both seats the same agent at each rung "
        "of skill.",
        ("independent_spaces=not_counted,counted", "skill=rungs:10"),
        options={"num_players": 2},
    ),
)

# the game's strength ladder in docs/agents.md (python -m boardsim.research.ladder liberation)
RESTRICTED_PLAY = (
    RestrictedPlay(
        "Which mechanics the race turns on",
        "Jaffe's restricted play at two players: the shipped self-play network against "
        "itself forbidden each action family (families.py: rolling, the move cards, "
        "passing, the revolution, jumps, counters, tucks, exchanges, the royalists), seats "
        "rotated; and how much MCTS at 200 simulations gains over a one-move lookahead (the "
        "greedy agent). A family the network needs weighs much; one it never takes, 0.",
        "alphazero",
        gap="mcts:200",
        games=4000,
        gap_games=100,
        options={"num_players": 2},
    ),
)

STRENGTH_LADDER = StrengthLadder(options={"num_players": 2})
