"""Farrapos (Julio Trois, 2011): the Farroupilha war, Republic Rio-Grandense against the Empire.

Player 0 is the Republic (it always moves first), player 1 the Empire. Rules and
rulings: ``docs/rules/farrapos.md``; data: ``envs/farrapos/farrapos.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardsim.core.game import GameDefinition, Matchup, Payoffs
from boardsim.core.options import Option
from boardsim.games.farrapos import data, families, layout
from boardsim.games.farrapos.balance import (
    BALANCE_QUESTIONS,
    BALANCE_TUNINGS,
    RESTRICTED_PLAY,
    STRENGTH_LADDER,
)
from boardsim.games.farrapos.names import TEXT_LEGEND, describe_action, evaluate, render_text

REWARDS = ("win_loss", "vp_difference")
FINAL_TIES = ("draw", "empire")
ARRIVALS = ("before", "after")  # index = layout.ARRIVALS_*
EMPTY_CITIES = ("possessed", "neutral")  # index = layout.EMPTY_*
MOVE_DESTINATIONS = ("one", "several")  # index = layout.MOVES_*
ROUND_ATTACKERS = ("same", "rechosen")  # index = layout.ATTACKERS_*
ADVANCES = ("all", "chosen")  # index = layout.ADVANCE_*
SEA_PORTS = ("possessed", "conquered")  # index = layout.SEA_PORTS_*
EMPTY_ORIGINS = ("allowed", "forbidden")  # index = layout.ORIGIN_*


def _units_option(side: int, source: str, first: str) -> Option:
    """The option of the MU ``side`` has in the game (``republic_mu``, ``empire_mu``): fewer
    withholds its latest arrivals (``first`` says which), never its set-up units nor an
    arrival the rulebook prints (the Republic's 4 MU of 1836, l.79)."""
    who = ("republic", "empire")[side]
    units = data.SIDE_UNITS[side]
    fewest = data.SIDE_FEWEST_UNITS[side]
    kept = "set-up units" if fewest == data.SIDE_SET_UP_UNITS[side] else "printed units"
    return Option(
        f"{who}_mu",
        units,
        f"The {who.title()}'s MU in the game (the reconstructed {units}{source}): fewer "
        f"withholds its latest arrivals{first}, which never enter; at least its {fewest} "
        f"{kept}.",
        low=fewest,
        high=units,
    )


OPTIONS: tuple[Option, ...] = (
    Option(
        "siege",
        False,
        "Advanced rule: a city whose every path line leads to an enemy-held city is under "
        "siege and loses its extra defence (its VP).",
        choices=(False, True),
    ),
    Option(
        "port_transport",
        False,
        "Advanced rule: a side holding at least 2 ports may carry up to 2 MU a turn between "
        "its ports, as part of its move.",
        choices=(False, True),
    ),
    Option(
        "reward",
        "win_loss",
        "win_loss: +1/-1 at the end, 0 for a draw. vp_difference: also, densely, the change "
        "of the VP lead over the start, divided by 24.",
        choices=REWARDS,
    ),
    Option(
        "final_tie",
        "draw",
        "Equal VP after turn 4 of 1845: a draw, or the Empire wins (the rebellion failed).",
        choices=FINAL_TIES,
    ),
    Option(
        "victory_vp",
        data.VICTORY_VP,
        "VP that win at once before the last phase (the rulebook's 24).",
        low=1,
        high=200,
    ),
    Option(
        "arrivals",
        "before",
        "When arriving MU are placed (ruling 3). before: at the start of the side's turn, "
        'then it acts (l.79, "must include 4 MU ... in any city of his possession" then '
        '"repeats the procedures"). after: in the set-up step after the action, before the '
        'militia and the VP count (l.63, "Setup of new units if any, and the player computes '
        'his VP"); they cannot act in that turn.',
        choices=ARRIVALS,
    ),
    Option(
        "empty_city",
        "possessed",
        'What a city left with no MU or militia is (ruling 5; l.60: "it will be considered '
        'empty and its VP will be not recorded"). possessed: it scores nothing but stays its '
        "side's until the enemy enters, and may receive that side's new units and militia. "
        "neutral: when the turn ends (its VP recorded) it is no one's; only a militia placed "
        "in that turn's set-up step keeps it (l.113: militia \"retain possession of a city "
        'even if there is no MU").',
        choices=EMPTY_CITIES,
    ),
    Option(
        "move_destinations",
        "one",
        'Where one move action may go (ruling 8; l.61: "the player can move as many MU as '
        'desired"). one: into one city, from any cities (l.59-60, "go to the city which he '
        'desires invade"). several: after the units for one city have moved, the side may '
        "choose another city for MU that have not moved yet, and so on, then end the action; "
        "each MU moves once.",
        choices=MOVE_DESTINATIONS,
    ),
    Option(
        "round_attackers",
        "same",
        'Who attacks in a continued battle (ruling 14; l.105: "Continue the attack (repeating '
        'the previous procedure) or stop it"). same: the surviving attackers go on together. '
        "rechosen: before each further round the attacker may name the attacking MU anew "
        '(step 1 of the procedure, "All participating MU are identified"), among all its '
        "MU linked to the city, the others staying where they stand.",
        choices=ROUND_ATTACKERS,
    ),
    Option(
        "advance",
        "all",
        "Which attackers enter a city whose last defender falls (ruling 12; the rulebook is "
        "silent). all: every surviving attacker moves in. chosen: the attacker chooses which "
        "survivors move in, at least one; the others stay where they stand.",
        choices=ADVANCES,
    ),
    Option(
        "sea_ports",
        "possessed",
        'Which ports port transport counts (ruling 19; l.134: "If a player has conquered at '
        'least 2 port cities, he can carry up to 2 MU per turn between them"). possessed: '
        "every port the side possesses (the Empire qualifies from its first turn with its 2 "
        "ports of 1835). conquered: only ports it possesses that were not its at the start "
        "of the game (the state keeps no history: a home port lost and retaken does not "
        "count).",
        choices=SEA_PORTS,
    ),
    Option(
        "empty_origin",
        "allowed",
        'Whether a move may empty its city of origin (ruling 10; l.60-61: "leaving at least '
        'one MU or one Militia counter in the city of origin" / "If the home city is left '
        'without one MU or Militia, it will be considered empty"). allowed: it may, the city '
        "then being empty and scoring nothing. forbidden: an MU joins a move or invasion "
        "only if a MU or militia not moving stays in its city (attacks and the advance into "
        "a taken city are not moves).",
        choices=EMPTY_ORIGINS,
    ),
    _units_option(0, "; the rulebook prints only its 4 of 1836", ""),
    _units_option(1, "", " (Caxias' armies of 1842-1843 first)"),
    Option(
        "ports_bonus",
        data.PORTS_BONUS,
        f"VP for occupying every port (the reconstructed {data.PORTS_BONUS}); 0 switches off "
        "the all-ports bonus the rulebook states (l.112): a rule change, not a reconstruction.",
        low=0,
        high=24,
    ),
    Option(
        "region_bonus_shift",
        0,
        "Added to every colour region's bonus VP (the reconstructed "
        f"{', '.join(str(int(b)) for b in data.REGION_BONUS)}: its cities less 2, at least 1), "
        "none below 0; a region taken to 0 loses the bonus the rulebook states (l.112): a "
        "rule change, not a reconstruction.",
        low=-int(data.REGION_BONUS.max()),
        high=6,
    ),
)


def game_params(options: dict[str, Any]) -> list[int]:
    """The game's part of the params array (layout.P_*)."""
    return [
        int(options["siege"]),
        int(options["port_transport"]),
        REWARDS.index(options["reward"]),
        FINAL_TIES.index(options["final_tie"]),
        int(options["victory_vp"]),
        ARRIVALS.index(options["arrivals"]),
        EMPTY_CITIES.index(options["empty_city"]),
        MOVE_DESTINATIONS.index(options["move_destinations"]),
        ROUND_ATTACKERS.index(options["round_attackers"]),
        ADVANCES.index(options["advance"]),
        int(options["republic_mu"]),
        int(options["empire_mu"]),
        int(options["ports_bonus"]),
        int(options["region_bonus_shift"]),
        SEA_PORTS.index(options["sea_ports"]),
        EMPTY_ORIGINS.index(options["empty_origin"]),
    ]


# the heuristic's strength table (boardsim.agents.heuristic): each side against random,
# with the advanced rules and with the Empire winning a final tie too; random's own share;
# and each side in heuristic self-play (the Empire's edge between the two scripted players)
STRENGTH_MATCHUPS = (
    *(
        m
        for options in ({}, {"siege": True, "port_transport": True}, {"final_tie": "empire"})
        for m in (
            Matchup(options, ("heuristic", "random"), 0, "heuristic Republic vs random"),
            Matchup(options, ("random", "heuristic"), 1, "heuristic Empire vs random"),
        )
    ),
    Matchup({}, ("random", "random"), 0, "random Republic vs random"),
    Matchup({}, ("random", "random"), 1, "random Empire vs random"),
    Matchup({}, ("heuristic", "heuristic"), 0, "heuristic Republic vs heuristic"),
    Matchup({}, ("heuristic", "heuristic"), 1, "heuristic Empire vs heuristic"),
)

# both advanced rules, each reward and tie rule, the other reading of each contested
# ruling (docs/rules/farrapos.md), explicit chance (boardsim.fuzz's forged states, the
# validator's real ones)
SAMPLE_OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"siege": True, "port_transport": True},
    {"victory_vp": 14, "final_tie": "empire", "explicit_chance": True},
    {"port_transport": True, "reward": "vp_difference"},
    {"arrivals": "after", "empty_city": "neutral"},
    {"move_destinations": "several", "round_attackers": "rechosen", "advance": "chosen"},
    {"empire_mu": 20, "republic_mu": 16, "ports_bonus": 6, "region_bonus_shift": -1},
    {"port_transport": True, "sea_ports": "conquered", "empty_origin": "forbidden"},
)

# the default max_decisions and the longest turn (docs/rules/farrapos.md, rulings 25-26)
DECISION_LIMIT = 2_000
# random play sends a move on to city after city with move_destinations="several": its
# games are longer, so that reading has its own default limit (the same rule, its games)
SEVERAL_DESTINATIONS_DECISION_LIMIT = 4_000
# the longest turn under any reading (419 under the default readings; ruling 25)
MAX_TURN_DECISIONS = 5410


def settle_options(given: Mapping[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The options a game is played with: with ``move_destinations="several"`` and no
    ``max_decisions`` given, that reading's own default limit (docs/rules/farrapos.md,
    "Game length"); the default game keeps ``DECISION_LIMIT``."""
    out = dict(options)
    if options["move_destinations"] == "several" and "max_decisions" not in given:
        out["max_decisions"] = SEVERAL_DESTINATIONS_DECISION_LIMIT
    return out


def payoffs(options: dict[str, Any]) -> Payoffs:
    """+1 / -1, 0 for a draw (or a game cut short), zero-sum; ``vp_difference`` adds the
    change of the Republic's VP lead / 24 densely, a lead at most every VP a side can hold
    (every city, every region's bonus, the ports' bonus)."""
    if options["reward"] != "vp_difference":
        return Payoffs(-1.0, 1.0, "zero_sum")
    shift = int(options["region_bonus_shift"])
    most = (
        int(data.CITY_VP.sum())
        + sum(max(0, int(b) + shift) for b in data.REGION_BONUS)
        + int(options["ports_bonus"])
    )
    swing = (most + abs(int(data.START_VP[0]) - int(data.START_VP[1]))) / 24.0
    return Payoffs(-1.0 - swing, 1.0 + swing, "zero_sum", dense=True)


# Positions reached by legal play that random play seldom reaches (boardsim.fuzz starts
# some tries from them). Issue 38: with empty_city="neutral", phase 7 turn 2, a tie (dice 4
# and 4) removes the Empire's last attacker (E03) and Triunfo's last defender (R03); the
# Empire's militia step follows with Triunfo empty (once kept as the Republic's there,
# which the validator refused). Seed 23, explicit chance, the actions from the start.
TIE_LINE = (
    "14 61 62 81 6 39 40 37 35 34 36 38 81 0 54 81 1 1 54 85 7 25 81 6 6 25 85 7 14 7 "
    "17 10 64 61 81 6 33 81 83 21 57 81 2 6 57 85 3 35 36 39 37 81 10 20 5 64 81 7 25 "
    "81 3 5 25 20 56 53 65 67 68 63 54 81 17 2 33 40 36 35 39 34 26 38 37 81 3 6 17 "
    "61 53 57 81 4 26 36 33 39 38 34 40 35 81 19 57 53 56 61 67 70 60 81 4 37 81 2 17 "
    "17 83 2 21 8 40 35 37 26 38 34 33 39 81 17 69 56 66 70 62 54 60 81 14 83 18 37 "
    "26 81 13 56 60 62 81 18 4 5 36 81 5 6 36 84 5 4 64 85 0 55 81 1 2 55 84 6 1 27 "
    "85 16 26 43 81 21 68 81 6 5 68 85 6 2 7 27 81 4 4 27 55"
)
KNOWN_LINES = (
    (
        {"empty_city": "neutral", "explicit_chance": True},
        23,
        tuple(int(a) for a in TIE_LINE.split()),
    ),
)

DEFINITION = GameDefinition(
    name="farrapos",
    version=2,
    title="Farrapos: the Farroupilha Revolution, 1835-1845",
    kernels=__name__,  # built from this package's modules on first use
    options=OPTIONS,
    game_params=game_params,
    num_players=lambda o: 2,
    agent_names=lambda o: ["republic", "empire"],
    describe_action=describe_action,
    render_text=render_text,
    text_legend=TEXT_LEGEND,
    evaluate=evaluate,
    drawer="boardsim.games.farrapos.render",
    reference="boardsim.games.farrapos.reference",
    observation_bounds="boardsim.games.farrapos.bounds",
    # chosen at 200 simulations against the compiled heuristic (docs/agents.md, "MCTS"):
    # 44.5% (c 1, prior 1; 200 games), 50% (c 0.5, prior 3), 64% (c 0.5, prior 5; 100 games)
    mcts_defaults={"c_uct": 0.5, "rollout": "heuristic", "rollout_depth": 20, "prior": 5.0},
    # balance reports speak of seat 0's win rate as the Republic's
    subject="the Republic",
    strength_matchups=STRENGTH_MATCHUPS,
    balance_questions=BALANCE_QUESTIONS,
    balance_tunings=BALANCE_TUNINGS,
    action_families=families.ACTION_FAMILIES,
    restricted_play=RESTRICTED_PLAY,
    strength_ladder=STRENGTH_LADDER,
    sample_options=SAMPLE_OPTIONS,
    known_lines=KNOWN_LINES,
    decision_limit=DECISION_LIMIT,
    turn_of=lambda state: int(state[layout.PHASE]) * 8 + int(state[layout.TURN]),
    max_turn_decisions=MAX_TURN_DECISIONS,
    settle_options=settle_options,
    # dice decide the battles; nothing is hidden (search.py)
    chance=True,
    perfect_information=True,
    payoffs=payoffs,
)

__all__ = ["DEFINITION", "OPTIONS", "game_params"]
