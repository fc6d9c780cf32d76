"""The questions of Hispania's balance page, docs/balance/hispania.md
(``boardsim balance docs hispania``)."""

from __future__ import annotations

from boardsim.core.game import BalanceQuestion, RestrictedPlay, StrengthLadder


def _reading_question(title: str, readings: str, grid: str) -> BalanceQuestion:
    """A reading the rulebook leaves open, played both ways (``grid``, an option's two
    values): Rome's win rate at the medium level at each rung of skill."""
    return BalanceQuestion(
        title,
        readings + "; Rome's win rate at 6-4-3-4-2 at each rung of skill.",
        (grid, "skill=rungs:10"),
        options={"level": "6-4-3-4-2"},
        share=0.5,
    )


BALANCE_QUESTIONS = (
    BalanceQuestion(
        "Rome across skill at the medium level",
        "Rome's win rate at 6-4-3-4-2 with the Romans played by each rung of skill "
        "(random, the heuristic, MCTS at 10 and at 40 simulations, the shipped self-play "
        "network alone) against the dice-driven "
        "Hispanic system: is the medium level winnable, and how much does skill buy?",
        ("skill=rungs:10",),
        options={"level": "6-4-3-4-2"},
        share=0.5,
    ),
    BalanceQuestion(
        "The 243 levels",
        "The 243 levels ranked by Rome's win rate at two skills, with their intervals: the "
        "Romans the heuristic and then the shipped self-play network alone, two players of "
        "different kinds and of about the same strength (docs/agents.md). MCTS at 200 "
        "simulations, the stronger Roman, is far dearer a game: `balance docs hispania "
        "--plan` prices the levels at it, here and on Ray. Do the five parameters order "
        "difficulty as the rulebook says, "
        "which matters most, and do the ranking and the order hold for both players?",
        ("level=all", "skill=heuristic,alphazero"),
        share=0.1,
    ),
    BalanceQuestion(
        "The variants",
        "Rome's win rate with each of the rulebook's variants at 6-5-4-5-1 (the easiest "
        "level with 6 denarii, which the Hispano variant requires), every seat the "
        "heuristic and then MCTS at 200 simulations: which variants matter, does each make "
        "the game harder, in the rulebook's order, and does that hold at both skills?",
        ("variant=all", "skill=heuristic,mcts:200"),
        options={"level": "6-5-4-5-1"},
        share=0.5,
    ),
    _reading_question(
        "Who wins a tied combat (rows 10, 11, 19)",
        "The rulebook's two readings of a tie between the attacker's and the defender's "
        "values (option combat_ties): the defender's (the default) or the attacker's, in "
        "every combat",
        "combat_ties=defender,attacker",
    ),
    _reading_question(
        "Which revolts add to the Hispanic value (rows 11, 19)",
        "The whole connected group of revolts around the army's city (option "
        "hispanic_revolts, the default, as the Pirates text reads) or the army's own city's "
        "alone",
        "hispanic_revolts=group,city",
    ),
    _reading_question(
        "What a beaten army leaves (row 11)",
        "An army beaten by a general leaves its revolt in the city (option beaten_army, the "
        "default) or takes one revolt back to the reserve with it",
        "beaten_army=revolts_stay,revolt_removed",
    ),
    _reading_question(
        "Where a beaten garrison goes (row 19)",
        "A garrison beaten by an army goes back to its general's reserve (option "
        "beaten_garrison, the default) or is lost for the rest of the game",
        "beaten_garrison=reserve,lost",
    ),
    BalanceQuestion(
        "How often Rome may buy the traitors (V9)",
        "Terror's optional rule 'Rome does not pay traitors', 'once in the game': one "
        "attempt on the special army's leader in the whole game (option assassination, the "
        "default) or an attempt whenever a general is linked to it while it is in the game; "
        "Rome's win rate at 6-4-3-4-2 with Terror and the rule on, at each rung of "
        "skill (the heuristic never makes the attempt).",
        ("assassination=once_per_game,while_in_game", "skill=rungs:10"),
        options={"level": "6-4-3-4-2", "terror": True, "traitors": True},
        share=0.5,
    ),
    BalanceQuestion(
        "When the Hispano player attacks (V17)",
        "The Hispano player's attacks 'during the Hispanic phase': after the move step only "
        "(option hispano_attacks, the default) or at any step of it, before the revolt roll "
        "and before the move too; Rome's win rate at 6-5-4-5-1 (the easiest level with the "
        "6 denarii Hispano requires: at 6-4-3-4-2 Rome won none of 40 games at any rung) "
        "with the Hispano variant, both sides played by each rung of skill.",
        ("hispano_attacks=after_move,any_step", "skill=rungs:10"),
        options={"level": "6-5-4-5-1", "hispano": True},
        share=0.5,
    ),
)

RESTRICTED_PLAY = (
    RestrictedPlay(
        "Which mechanics Rome's victory turns on",
        "Jaffe's restricted play for the cooperative game: Rome's win rate at the default "
        "level with the shipped self-play network in every seat, against the same network "
        "forbidden each action family (families.py: moving generals, fleets, garrisons, "
        "sieges, attacks, spending, roads, the Legio Hispana, the Proconsul, ...); and how "
        "much MCTS at 200 simulations wins over a one-move lookahead (the greedy agent). A "
        "family that weighs 0 is one the network never takes, or never needs.",
        "alphazero",
        # the Roman's families: the Hispano player's play only in the Hispano variant
        families=(
            "pass",
            "general",
            "fleet",
            "garrison",
            "besiege",
            "attack",
            "spend",
            "road",
            "select_general",
            "legio_hispana",
            "proconsul",
            "assassination",
        ),
        gap="mcts:200",
        games=4000,
        gap_games=100,
    ),
)

# the game's strength ladder in docs/agents.md (python -m boardsim.research.ladder hispania)
STRENGTH_LADDER = StrengthLadder(
    levels="7-5-4-5-1,6-4-3-4-2",
    games=30,
    # the shipped PPO policy was trained at the medium level; it plays the easy one too
    any_options=True,
)
