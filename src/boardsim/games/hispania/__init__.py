"""HISPANIA (Miguel Marqués, Draco Ideas 2024): the Roman conquest of Hispania.

Cooperative: the Roman generals (praetor of Ulterior, praetor of Citerior, consul)
against the game system. See ``docs/rules/hispania.md`` for the spec and the decisions
taken where the rulebook is silent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardsim.core.errors import OptionError
from boardsim.core.game import Difficulty, GameDefinition, Matchup, Payoffs
from boardsim.core.options import Option
from boardsim.games.hispania import data as D
from boardsim.games.hispania import families, names
from boardsim.games.hispania import layout as L
from boardsim.games.hispania.balance import BALANCE_QUESTIONS, RESTRICTED_PLAY, STRENGTH_LADDER

# the params order of the variant switches (layout.P_INGENIVM ...): the rulebook's order;
# the Hispano variant has a params word of its own (layout.P_HISPANO)
IMPLEMENTED_VARIANTS_ORDER = tuple(v for v in D.VARIANT_IDS if v != "hispano")
REWARDS = ("win_loss", "progress")
# readings the rulebook leaves open (docs/rules/hispania.md rows 10, 11, 19): the params
# word holds the index, 0 the default reading
COMBAT_TIES = ("defender", "attacker")
HISPANIC_REVOLTS = ("group", "city")
BEATEN_ARMY = ("revolts_stay", "revolt_removed")
BEATEN_GARRISON = ("reserve", "lost")
DISPLAY_OF_POWER = ("bare_die", "named_only")  # ledger S5
ASSASSINATION = ("once_per_game", "while_in_game")  # ledger V9
HISPANO_ATTACKS = ("after_move", "any_step")  # ledger V17
PLAYER_NAMES = ("praetor_ulterior", "praetor_citerior", "consul")
LEVEL_FORM = "denarii-garrisons-fleets-roads-armies, each one of " + "; ".join(
    f"{k} {'/'.join(str(int(v)) for v in D.LEVEL_VALUES[i])}"
    for i, k in enumerate(("denarii", "garrisons", "fleets", "roads", "armies"))
)


def parse_level(level: str) -> tuple[int, int, int, int, int]:
    """``"6-4-3-4-2"`` -> (6, 4, 3, 4, 2); anything else raises :class:`OptionError`."""
    if not isinstance(level, str):
        raise OptionError(f"hispania: level must be a string like '6-4-3-4-2' ({LEVEL_FORM})")
    parts = level.split("-")
    try:
        values = tuple(int(x) for x in parts)
    except ValueError:
        values = ()
    if len(values) != 5 or any(
        values[i] not in [int(v) for v in D.LEVEL_VALUES[i]] for i in range(5)
    ):
        raise OptionError(
            f"hispania: level {level!r} is not allowed; use {LEVEL_FORM} (e.g. '6-4-3-4-2')"
        )
    return values  # type: ignore[return-value]


def _check_level(value: Any) -> str | None:
    try:
        parse_level(value)
    except OptionError as exc:
        return str(exc)
    return None


def _switch(name: str, doc: str) -> Option:
    """An on/off option (a variant, a rule of one), off by default."""
    return Option(name, False, doc, choices=(False, True))


def _reading(name: str, readings: tuple[str, ...], doc: str) -> Option:
    """A reading the rulebook leaves open: its params word holds the reading's index, so
    the default is the first (index 0)."""
    return Option(name, readings[0], doc, choices=readings)


OPTIONS = (
    Option(
        "level",
        "6-4-3-4-2",
        "Difficulty: denarii-garrisons-fleets-roads-armies (243 levels; medium 6-4-3-4-2).",
        check=_check_level,
    ),
    _switch(
        "auto_setup",
        "Place the set-up roads and generals by a fixed rule instead of as decisions "
        "(roads: the lowest-numbered legal link; praetors on their '+1' city; consul on "
        "the lowest-numbered fleet).",
    ),
    _switch(
        "ingenivm",
        "Variant Ingenivm: roads may be kept aside at set-up and built in play "
        "(1 denarius a segment, on a link of the general's city).",
    ),
    _switch(
        "imperivm",
        "Variant Imperivm: the praetor of Ulterior moves 1 link free after his Hispanic "
        "phase; the praetor of Citerior adds 1 to his sieges; the consul may pay to move "
        "the praetors.",
    ),
    _switch(
        "proconsvl",
        "Variant Proconsvl: 3 denarii put the proconsul on the Mare Balearicum fleet; then "
        "anyone may spend denarii with him (no garrisons; he dies when defeated).",
    ),
    _switch(
        "legio_hispana",
        "Variant Legio Hispana: a purple joker garrison in the consul's reserve.",
    ),
    _switch(
        "pirates",
        "Variant Pirates: a revolt (pirates) on every sea without a fleet at set-up.",
    ),
    _switch(
        "terror",
        "Variant Terror: the special army replaces an army and doubles its own value.",
    ),
    _switch(
        "traitors",
        "Terror's optional rule 'Rome does not pay traitors' (needs terror=True).",
    ),
    _switch(
        "hispano",
        "Variant Hispano: a fourth player leads the Hispanic side with 2 denarii a turn "
        "(needs 6 denarii in the level).",
    ),
    Option(
        "scenario",
        None,
        "A scenario of the rulebook: " + ", ".join(D.SCENARIO_IDS) + " (None: the basic game). "
        "Its set-up, time and special rules apply; the variants it uses are switched on, "
        "but for those given False (the rulebook: 'you can use the ones you want').",
        choices=(None, *D.SCENARIO_IDS),
    ),
    Option(
        "reward",
        "win_loss",
        "win_loss: +1 to every general if Rome wins, -1 if it loses (the Hispano player the "
        "opposite). progress: also 0.5 x the standing Rome gained since the first position "
        "(standing 0-1: capitals garrisoned, revolts in the reserve, Roman provinces clear), "
        "paid densely as it changes; any win still outranks any loss.",
        choices=REWARDS,
    ),
    _reading(
        "combat_ties",
        COMBAT_TIES,
        "Who wins a combat whose two values are equal (the rulebook is silent; ledger "
        "rows 10, 11, 19). 'defender' (default): the attacker must beat the defender, so "
        "a tie leaves a besieged revolt or an attacked garrison in place, and a general "
        "attacking an army, or an army attacking a general, loses. 'attacker': a tie is "
        "the attacker's win in all four combats (a general's siege or attack, an army's "
        "attack on a garrison or a general, Hispano's attacks included).",
    ),
    _reading(
        "hispanic_revolts",
        HISPANIC_REVOLTS,
        "The revolts in an army's Hispanic value (ledger rows 11, 19): 'group' (default): "
        "the revolt discs of the whole connected group of revolt spaces containing the "
        "army's city, pirate seas included; 'city': only the discs on the army's own city "
        "(pirates then never add to an army's value).",
    ),
    _reading(
        "beaten_army",
        BEATEN_ARMY,
        "An army beaten by a general (ledger rows 11, 19): 'revolts_stay' (default): it "
        "goes back to the reserve and the revolts of its city stay; 'revolt_removed': one "
        "revolt of its city goes back to the reserve with it.",
    ),
    _reading(
        "beaten_garrison",
        BEATEN_GARRISON,
        "A garrison beaten by an army (ledger row 19): 'reserve' (default): it goes back to "
        "its general's reserve, to be placed again; 'lost': it leaves the game. The Legio "
        "Hispana disc goes back to the consul's reserve either way (the RB's V6).",
    ),
    _reading(
        "display_of_power",
        DISPLAY_OF_POWER,
        "The First Repression's 'Display of Power' (scenario=first_repression; ledger S5): "
        "'the Hispanic value is limited to the die result (Hispanic armies do not add "
        "revolts or multiply x2)' read as 'bare_die' (default): the die alone; or as "
        "'named_only': only what the parenthesis names goes (the revolts, the x2 per linked "
        "army), the Hispano player's denarii still adding to the die and the special army "
        "still doubling its own value (Terror).",
    ),
    _reading(
        "assassination",
        ASSASSINATION,
        "'Rome does not pay traitors' (traitors=True; ledger V9): 'Once in the game, a "
        "Roman general connected to the special army may ...' read as 'once_per_game' "
        "(default): one attempt in the whole game, failed or not; or as 'while_in_game': "
        "'once [the special army is] in the game', an attempt whenever a general is linked "
        "to it, again after a failure (each costs its denarii, a failure a revolt roll).",
    ),
    _reading(
        "hispano_attacks",
        HISPANO_ATTACKS,
        "When the Hispano player (hispano=True) may attack with an army 'during the "
        "Hispanic phase of the turn' (ledger V17): 'after_move' (default): once the move "
        "step is over; 'any_step': before the revolt roll, between the roll and the move "
        "step, and after the move step.",
    ),
    Option(
        "agents",
        "generals",
        "'generals': one agent per general; 'rome': one agent plays every general.",
        choices=("generals", "rome"),
    ),
)


def places_special_army(scenario: dict[str, Any]) -> bool:
    """Whether a scenario's set-up brings in the special army (a piece of its set-up, or a
    face of its army die), a piece only the Terror variant has."""
    faces = [kind for _, kind in scenario.get("army_die", [])]
    pieces = [pc.get("army") for pc in scenario.get("pieces", [])]
    return "special" in faces + pieces


def settle_options(given: Mapping[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The options a game is played with: a scenario's variants switched on, except those
    given False (rulebook line 276: a scenario lists "the variants used or suggested
    (although you can use the ones you want)"; docs/rules/hispania.md ruling 27); its
    forbidden variants and its level limits checked."""
    sid = options.get("scenario")
    if not sid:
        return dict(options)
    sc = D.SCENARIOS[sid]
    out = dict(options)
    for v in sc.get("variants", []):
        if v not in given or options[v]:
            out[v] = True
        elif v == "terror" and places_special_army(sc):
            raise OptionError(
                f"hispania: scenario {sid} sets up the special army, a piece of the Terror "
                "variant: it cannot be played with terror=False"
            )
    for v in sc.get("forbidden_variants", []):
        if options.get(v):
            raise OptionError(f"hispania: scenario {sid} cannot be played with {v}=True")
    _, _, f, r, a = parse_level(options["level"])
    checks = [
        ("min_armies", a, a >= sc.get("min_armies", 0), "initial armies at least"),
        ("min_fleets", f, f >= sc.get("min_fleets", 0), "fleets at least"),
        ("max_roads", r, r <= sc.get("max_roads", 9), "roads at most"),
        ("roads", r, r == sc.get("roads", r), "roads exactly"),
        ("armies", a, a == sc.get("armies", a), "initial armies exactly"),
    ]
    for key, got, ok, words in checks:
        if not ok:
            raise OptionError(
                f"hispania: scenario {sid} needs {words} {sc[key]} in the level, not {got}"
            )
    return out


def game_params(options: dict[str, Any]) -> list[int]:
    """The game's part of the params array, from the settled options (settle_options)."""
    if options.get("traitors") and not options.get("terror"):
        raise OptionError("hispania: traitors=True ('Rome does not pay traitors') needs terror")
    if options.get("assassination", "once_per_game") != "once_per_game" and not options.get(
        "traitors"
    ):
        raise OptionError(
            "hispania: assassination reads 'Rome does not pay traitors': it needs traitors=True"
        )
    if options.get("hispano_attacks", "after_move") != "after_move" and not options.get("hispano"):
        raise OptionError(
            "hispania: hispano_attacks times the Hispano player's attacks: it needs hispano=True"
        )
    if options.get("display_of_power", "bare_die") != "bare_die" and (
        options.get("scenario") != "first_repression"
    ):
        raise OptionError(
            "hispania: display_of_power reads The First Repression's 'Display of Power': it "
            "needs scenario='first_repression'"
        )
    d, g, f, r, a = parse_level(options["level"])
    out = [d, g, f, r, a, int(bool(options["auto_setup"])), int(options["agents"] == "rome")]
    out += [int(bool(options.get(v, False))) for v in IMPLEMENTED_VARIANTS_ORDER]
    if options.get("hispano") and d != 6:
        raise OptionError(
            f"hispania: the Hispano variant is always played with 6 denarii, not {d} "
            "(level '6-...')"
        )
    sid = options.get("scenario")
    scenario = D.SCENARIO_IDS.index(sid) + 1 if sid else 0
    out += [int(bool(options.get("traitors"))), int(bool(options.get("hispano"))), scenario]
    out += [REWARDS.index(options.get("reward", "win_loss"))]
    out += [COMBAT_TIES.index(options.get("combat_ties", "defender"))]
    out += [HISPANIC_REVOLTS.index(options.get("hispanic_revolts", "group"))]
    out += [BEATEN_ARMY.index(options.get("beaten_army", "revolts_stay"))]
    out += [ASSASSINATION.index(options.get("assassination", "once_per_game"))]
    out += [HISPANO_ATTACKS.index(options.get("hispano_attacks", "after_move"))]
    out += [BEATEN_GARRISON.index(options.get("beaten_garrison", "reserve"))]
    out += [DISPLAY_OF_POWER.index(options.get("display_of_power", "bare_die"))]
    assert len(out) == L.PARAMS_SIZE - 4
    return out


def num_players(options: dict[str, Any]) -> int:
    return len(PLAYER_NAMES) + (1 if options.get("hispano") else 0)


def agent_names(options: dict[str, Any]) -> list[str]:
    rome = ["rome"] if options["agents"] == "rome" else list(PLAYER_NAMES)
    return [*rome, "hispano"] if options.get("hispano") else rome


def team_of_player(options: dict[str, Any], player: int) -> int:
    """The generals are one side (Rome), the Hispano player the other."""
    return 0 if player < len(PLAYER_NAMES) else 1


def agent_of_player(options: dict[str, Any], player: int) -> int:
    if options["agents"] != "rome":
        return player
    return 0 if player < len(PLAYER_NAMES) else 1


# the heuristic's strength table (boardsim.agents.heuristic): Romans of each policy at two
# levels, and both sides of the Hispano variant
HISPANO_MATCHES = (("heuristic", "random"), ("heuristic", "heuristic"), ("random", "heuristic"))
STRENGTH_MATCHUPS = (
    *(
        Matchup({"level": level}, (pol,) * 3, 0, f"{pol} Romans, level {level}")
        for level in ("6-4-3-4-2", "7-5-4-5-1")
        for pol in ("random", "heuristic")
    ),
    *(
        Matchup(
            {"level": "6-4-3-4-2", "hispano": True},
            (romans,) * 3 + (hispano,),
            0,
            f"{romans} Romans vs {hispano} Hispano, 6-4-3-4-2",
        )
        for romans, hispano in HISPANO_MATCHES
    ),
)

# every variant and scenario, with and without Hispano, explicit chance in some
# (boardsim.fuzz's forged states, the validator's real ones); a scenario at a level it takes
SCENARIO_LEVELS = {
    "first_repression": "6-4-3-4-2",
    "numantia": "6-4-3-4-3",
    "terror": "6-4-3-4-2",
    "river_of_oblivion": "6-4-3-4-3",
    "new_empire": "6-4-3-5-2",
}
ALL_VARIANTS = {v: True for v in IMPLEMENTED_VARIANTS_ORDER} | {"traitors": True}
SAMPLE_OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"hispano": True},
    {**ALL_VARIANTS, "explicit_chance": True},
    {"hispano": True, "terror": True, "traitors": True, "explicit_chance": True},
    {"level": "7-5-4-5-1", "auto_setup": True, "ingenivm": True},
    {"level": "5-3-2-3-3", "imperivm": True, "proconsvl": True, "agents": "rome"},
    *({"scenario": sid, "level": level} for sid, level in SCENARIO_LEVELS.items()),
    {"scenario": "new_empire", "level": "6-4-3-5-2", "hispano": True, "explicit_chance": True},
    {"scenario": "river_of_oblivion", "level": "6-4-3-4-3", "explicit_chance": True},
    # the open readings (ledger rows 10, 11, 19), with the combats' variants
    {
        "combat_ties": "attacker",
        "hispanic_revolts": "city",
        "beaten_army": "revolt_removed",
        "beaten_garrison": "lost",
        "pirates": True,
        "hispano": True,
        "explicit_chance": True,
    },
    # the open readings of the variants (ledger V9, V17)
    {
        "terror": True,
        "traitors": True,
        "assassination": "while_in_game",
        "hispano": True,
        "hispano_attacks": "any_step",
        "explicit_chance": True,
    },
)


def payoffs(options: dict[str, Any]) -> Payoffs:
    """Every general gets Rome's result (+1, -1, 0 cut short), the Hispano player its
    opposite; ``progress`` adds 0.5 x the standing (0-1) Rome gained since the first
    position, at every moment, paid densely: within +-1.5 either way."""
    progress = options["reward"] == "progress"
    bound = 1.5 if progress else 1.0
    kind = "general_sum" if options["hispano"] else "identical"
    return Payoffs(-bound, bound, kind, dense=progress)


# the default max_decisions and the longest turn (docs/rules/hispania.md, rulings 25-26)
DECISION_LIMIT = 2_000
MAX_TURN_DECISIONS = 100

DEFINITION = GameDefinition(
    name="hispania",
    version=4,
    title="Hispania",
    kernels=__name__,  # built from this package's modules on first use
    options=OPTIONS,
    game_params=game_params,
    num_players=num_players,
    agent_names=agent_names,
    describe_action=names.describe_action,
    render_text=names.render_text,
    text_legend=names.TEXT_LEGEND,
    agent_of_player=agent_of_player,
    team_of_player=team_of_player,
    drawer="boardsim.games.hispania.render",
    reference="boardsim.games.hispania.reference",
    observation_bounds="boardsim.games.hispania.bounds",
    # chosen at 200 simulations against the compiled heuristic (docs/agents.md, "MCTS"):
    # Romans 5 of 60 (c 1, prior 1), 42 of 200 (c 0.5, prior 5; the heuristic 14.7%)
    mcts_defaults={"c_uct": 0.5, "rollout": "heuristic", "rollout_depth": 20, "prior": 5.0},
    variants=D.VARIANT_IDS,
    difficulty=Difficulty(
        "level",
        ("denarii", "garrisons", "fleets", "roads", "armies"),
        tuple(tuple(int(v) for v in row) for row in D.LEVEL_VALUES),
    ),
    subject="Rome",
    strength_matchups=STRENGTH_MATCHUPS,
    balance_questions=BALANCE_QUESTIONS,
    strength_ladder=STRENGTH_LADDER,
    sample_options=SAMPLE_OPTIONS,
    decision_limit=DECISION_LIMIT,
    settle_options=settle_options,
    turn_of=lambda state: int(state[L.TRACK]) * 4 + int(state[L.TURN]),
    max_turn_decisions=MAX_TURN_DECISIONS,
    # dice decide combats, revolts and the armies' moves; nothing is hidden (search.py)
    chance=True,
    perfect_information=True,
    payoffs=payoffs,
    action_families=families.ACTION_FAMILIES,
    restricted_play=RESTRICTED_PLAY,
)
