"""The liberation race (rules file 000): 2-6 players around a 41-space track."""

from __future__ import annotations

from typing import Any

from boardsim.core.game import GameDefinition, Matchup, Payoffs
from boardsim.core.options import Option
from boardsim.games.liberation import data, families, layout, names
from boardsim.games.liberation.balance import BALANCE_QUESTIONS, RESTRICTED_PLAY, STRENGTH_LADDER

# the contested readings' choices, index = the params word (layout.GAME_END_*, CLEARED_*,
# INDEPENDENT_*); the first is the default, the reading before the option existed
GAME_ENDS = ("at_once", "end_of_round")
CLEARED_SPACES = ("left_empty", "tuck")
INDEPENDENT_SPACES = ("not_counted", "counted")
HAND_LIMITS = ("end_of_turn", "at_once")  # index = layout.HAND_LIMIT_*
REVOLUTION_JUMPS = ("ends_turn", "triggers")  # index = layout.REVOLUTION_JUMP_*

OPTIONS: tuple[Option, ...] = (
    Option(
        "num_players",
        4,
        "Players (the rulebook says 2-4+).",
        low=data.MIN_PLAYERS,
        high=data.MAX_PLAYERS,
    ),
    Option(
        "counters",
        data.DEFAULT_COUNTERS,
        "Counters each player starts with (ledger L8).",
        low=1,
        high=999,
    ),
    Option(
        "independence_counters",
        "stay",
        "'stay': counters remain on an independent country (literal reading); "
        "'return': they go back to their owners' supply (ledger L9).",
        choices=("stay", "return"),
    ),
    Option(
        "independence_ties",
        "share",
        "'share': tied players all take the best award they tie for; "
        "'demote': they all take the worst (ledger L10).",
        choices=("share", "demote"),
    ),
    Option(
        "reward",
        "win_loss",
        "'win_loss': +1 sole winner, 0 tied winners, -1 others at the end; "
        "'vt': each Victory Token as it is won (ledger L12).",
        choices=("win_loss", "vt"),
    ),
    Option(
        "royalist_moves",
        True,
        "A Royalist card may be discarded to move its force (ledger L3).",
        choices=(True, False),
    ),
    Option(
        "game_end",
        "at_once",
        "When the last country's independence ends the game (ledger L13). 'at_once': with "
        "that tuck ('The game ends when all countries have been liberated'); 'end_of_round': "
        "the players after its player in seat order still play their turns of that round, "
        "so every player has had as many turns; no VT can be won in them, so the winner is "
        "the same.",
        choices=GAME_ENDS,
    ),
    Option(
        "cleared_space",
        "left_empty",
        "The space a Royalist attack cleared (ledger L7). 'left_empty': the attack is the "
        "landing's one action; 'tuck': the attacker may then tuck a Liberation card there "
        "in the same landing, as on any space with no card.",
        choices=CLEARED_SPACES,
    ),
    Option(
        "independent_spaces",
        "not_counted",
        "Independent country spaces on the way (ledger L4), always skipped over. "
        "'not_counted': they use no pip ('skip over it ... and resume your move'); "
        "'counted': each uses a pip, and a move ending on one goes on to the next space "
        "that is not independent.",
        choices=INDEPENDENT_SPACES,
    ),
    Option(
        "hand_limit",
        "end_of_turn",
        "When 'Max hand size is 5 cards. Discard excess cards.' applies (ledger L6). "
        "'end_of_turn': at the end of the player's own turn (phase 5), so the turn's draw may "
        "make a sixth card that can still move the pawn; 'at_once': as soon as a hand is "
        "over the limit, so a sixth card drawn at the start of the turn is discarded down to "
        "5 before the move (a revolution draw ends the turn either way).",
        choices=HAND_LIMITS,
    ),
    Option(
        "revolution_jump",
        "ends_turn",
        "What 'Move to any other Revolution space' does (ledger L2). 'ends_turn': the pawn "
        "moves there and the turn ends; 'triggers': the space acts as a landing, so its "
        "actions are offered again (roll again, draw, a counter, pass), but not a second "
        "jump in the same turn, so no turn jumps for ever.",
        choices=REVOLUTION_JUMPS,
    ),
)


def _game_params(o: dict[str, Any]) -> list[int]:
    out = [0] * (layout.PARAMS_SIZE - layout.PR_COUNTERS)
    out[layout.PR_COUNTERS - layout.PR_COUNTERS] = o["counters"]
    out[layout.PR_RETURN_COUNTERS - layout.PR_COUNTERS] = int(
        o["independence_counters"] == "return"
    )
    out[layout.PR_TIE_RULE - layout.PR_COUNTERS] = (
        layout.TIE_DEMOTE if o["independence_ties"] == "demote" else layout.TIE_SHARE
    )
    out[layout.PR_REWARD - layout.PR_COUNTERS] = (
        layout.REWARD_VT if o["reward"] == "vt" else layout.REWARD_WIN_LOSS
    )
    out[layout.PR_ROYALIST_MOVES - layout.PR_COUNTERS] = int(bool(o["royalist_moves"]))
    out[layout.PR_GAME_END - layout.PR_COUNTERS] = GAME_ENDS.index(o["game_end"])
    out[layout.PR_CLEARED_SPACE - layout.PR_COUNTERS] = CLEARED_SPACES.index(o["cleared_space"])
    out[layout.PR_INDEPENDENT_SPACES - layout.PR_COUNTERS] = INDEPENDENT_SPACES.index(
        o["independent_spaces"]
    )
    out[layout.PR_HAND_LIMIT - layout.PR_COUNTERS] = HAND_LIMITS.index(o["hand_limit"])
    out[layout.PR_REVOLUTION_JUMP - layout.PR_COUNTERS] = REVOLUTION_JUMPS.index(
        o["revolution_jump"]
    )
    return out


# the heuristic's strength table (boardsim.agents.heuristic): each seat of four against
# random, and random's own share; then seat 0 against random at the other player counts
STRENGTH_MATCHUPS = (
    *(
        Matchup(
            {"num_players": 4},
            tuple("heuristic" if p == seat else "random" for p in range(4)),
            seat,
            f"heuristic seat {seat} vs 3 random",
        )
        for seat in range(4)
    ),
    Matchup({"num_players": 4}, ("random",) * 4, 0, "random seat 0 vs 3 random"),
    *(
        Matchup(
            {"num_players": n},
            ("heuristic",) + ("random",) * (n - 1),
            0,
            f"heuristic seat 0 vs {n - 1} random",
        )
        for n in (2, 3, 5, 6)
    ),
)

# every option in play (boardsim.fuzz's forged states, the validator's real ones)
SAMPLE_OPTIONS: tuple[dict[str, Any], ...] = (
    {"num_players": 2},
    {"num_players": 3, "independence_counters": "return", "counters": 4},
    {"num_players": 4, "explicit_chance": True},
    {"num_players": 5, "royalist_moves": False, "independence_ties": "demote"},
    {"num_players": 6, "reward": "vt", "counters": 12},
    # the other reading of each contested ruling (L2, L4, L7, L13; L6)
    {
        "num_players": 3,
        "game_end": "end_of_round",
        "cleared_space": "tuck",
        "independent_spaces": "counted",
        "revolution_jump": "triggers",
    },
    {"num_players": 4, "hand_limit": "at_once"},
)


def payoffs(options: dict[str, Any]) -> Payoffs:
    """``win_loss``: +1 a sole winner, 0 tied winners (and everyone in a game cut short),
    -1 the others, zero-sum between two players only; ``vt``: each VT as won, at most a
    country's closing card and its best award in every country."""
    if options["reward"] == "vt":
        best = max(int(data.PLACE_VT.max()), int(data.OTHER_VT))
        most = data.NUM_COUNTRIES * (data.CLOSING_CARD_VT + best)
        return Payoffs(0.0, float(most), "general_sum", dense=True)
    return Payoffs(-1.0, 1.0, "zero_sum" if options["num_players"] == 2 else "general_sum")


# the default max_decisions and the longest turn (docs/rules/liberation.md, ruling L23 and
# "Game length"): 3 x the longest game that ended, 13,511 decisions, rounded up to 1,000
DECISION_LIMIT = 41_000
MAX_TURN_DECISIONS = 12

DEFINITION = GameDefinition(
    name="liberation",
    version=2,
    title="The liberation race (Latin American wars of independence, 1809-1826)",
    kernels=__name__,  # built from this package's modules on first use
    options=OPTIONS,
    game_params=_game_params,
    num_players=lambda o: int(o["num_players"]),
    agent_names=lambda o: [f"player_{i}" for i in range(int(o["num_players"]))],
    describe_action=names.describe_action,
    render_text=names.render_text,
    text_legend=names.TEXT_LEGEND,
    move_events=names.move_events,
    evaluate=names.evaluate,
    drawer="boardsim.games.liberation.render",
    reference="boardsim.games.liberation.reference",
    observation_bounds="boardsim.games.liberation.bounds",
    # chosen at 200 simulations against the compiled heuristic (docs/agents.md, "MCTS"):
    # 555 of 800 two-player games won with these
    mcts_defaults={"c_uct": 1.0, "rollout": "heuristic", "rollout_depth": 40, "prior": 1.0},
    strength_matchups=STRENGTH_MATCHUPS,
    balance_questions=BALANCE_QUESTIONS,
    strength_ladder=STRENGTH_LADDER,
    sample_options=SAMPLE_OPTIONS,
    hands=(layout.HAND, layout.P, layout.K),
    decision_limit=DECISION_LIMIT,
    action_families=families.ACTION_FAMILIES,
    restricted_play=RESTRICTED_PLAY,
    turn_of=lambda state: int(state[layout.TURN]),
    max_turn_decisions=MAX_TURN_DECISIONS,
    # the draws are chance; the hands and the pile are hidden (ledger L17)
    chance=True,
    perfect_information=False,
    payoffs=payoffs,
)
