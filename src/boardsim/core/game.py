"""Game and State: the OpenSpiel-style face of a compiled game core.

A :class:`GameDefinition` ties a game's pieces together (its bundle of compiled
kernels, options, words for actions and states). :class:`Game` is one game with
its options fixed (the ``params`` array); :class:`State` is one position, a
flat ``int32`` array, with the methods search and analysis code expects.
"""

from __future__ import annotations

import importlib
import itertools
import json
import struct
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from boardsim.core import header as hd
from boardsim.core.bound import BoundEngine, BoundSearch
from boardsim.core.errors import IllegalActionError, OptionError, StateFormatError, as_action
from boardsim.core.kernels import GameKernels, is_game_package
from boardsim.core.options import Option, resolve_options, with_later_defaults
from boardsim.core.validation import check_array, register_tag

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BalanceQuestion",
    "BalanceTuning",
    "Difficulty",
    "Game",
    "GameDefinition",
    "Matchup",
    "Payoffs",
    "State",
]

CHANCE: int = -1
"""``-1``: the chance player, ``state.current_player()`` at a chance node (a die roll or a
card draw, reached with ``explicit_chance=True``); ``state.chance_outcomes()`` lists what
it may do."""
TERMINAL: int = -4
"""``-4``: ``state.current_player()`` once the game is over (``state.is_terminal()``)."""
assert (CHANCE, TERMINAL) == (hd.CHANCE, hd.TERMINAL)

SAVE_MAGIC = b"BSIMSTAT"
SAVE_FORMAT = 1


@dataclass(frozen=True)
class GameDefinition:
    """Everything the generic layers need to know about one game."""

    name: str
    version: int
    title: str
    # the compiled kernels, or the name of the module whose ``KERNELS`` they are, or of
    # the game's package laid out the usual way ("boardsim.games.farrapos": the bundle
    # GameKernels.from_package builds): imported when the first Game is made, so that
    # finding, listing and registering games compiles and loads no kernels
    kernels: GameKernels | str
    options: tuple[Option, ...]
    # options (resolved, common ones included) -> the game's part of params (after the header)
    game_params: Callable[[dict[str, Any]], list[int]]
    num_players: Callable[[dict[str, Any]], int]
    agent_names: Callable[[dict[str, Any]], list[str]]
    describe_action: Callable[[np.ndarray, np.ndarray, int], str]
    render_text: Callable[[np.ndarray, np.ndarray], str]
    # player index -> the agent (seat) that plays it; identity unless a game maps several
    # players onto one agent (Hispania's agents="rome").
    agent_of_player: Callable[[dict[str, Any], int], int] | None = None
    # player index -> its side; players of one side win or lose together (Hispania's
    # generals). Single-agent envs let the learner play every player of its side.
    # None: every player is its own side.
    team_of_player: Callable[[dict[str, Any], int], int] | None = None
    # (params, state, player) -> a score of the position for that player, higher is better;
    # used by simple search agents (greedy); None: the player's return so far.
    evaluate: Callable[[np.ndarray, np.ndarray, int], float] | None = None

    # -- what the generic floors (agents, research, render) read about the game; each
    # -- optional, so that a new game needs none of them to play
    # every feature of the observation is 0 or 1: the vector env offers obs_dtype=uint8
    binary_observation: bool = False
    # the module of the observation's bounds, whose ``observation_bounds(options)`` gives
    # (low, high): float32 arrays of the observation's size, the least and the most each
    # feature can be in a position of that game, 0 included (the envs' Box spaces,
    # boardsim.wrappers.spaces), e.g. "boardsim.games.farrapos.bounds"; imported on first
    # use. None: unbounded features (0 and 1 where binary_observation)
    observation_bounds: str | None = None
    # the observation as board planes, ``(planes, rows, columns)``, plane after plane and
    # row after row in each: a convolutional network can read it
    # (``boardsim train --conv``); None: the observation is no board (a dense network)
    board_planes: tuple[int, int, int] | None = None
    # options -> the game's symmetries besides the identity, each a pair of index maps
    # ``(observation_map, action_map)``: the symmetric position's observation is
    # ``obs[observation_map]``, and its move ``b`` is the original's move ``action_map[b]``
    # (legal exactly where that one is; every player's value unchanged). Self-play training
    # may learn each position in a form drawn at random (``boardsim train --symmetries``;
    # connect four's mirror). None: no symmetry
    symmetries: Callable[[dict[str, Any]], tuple[tuple[np.ndarray, np.ndarray], ...]] | None = None
    # the module of the game's plain-Python twin, driven by
    # boardsim.core.reference.ReferenceEngine (the differential tests and the benchmarks'
    # core / reference ratio), e.g. "boardsim.games.farrapos.reference"; None: the game
    # has none, and the generic tools that use one skip it
    reference: str | None = None
    # the module drawing the board: draw(game, state, viewer, show_hands) -> Scene, and
    # optionally private_text(game, state, player) (boardsim.render); None: the text board
    drawer: str | None = None
    # MCTS settings found best for the game (boardsim.agents.mcts: c_uct, rollout,
    # rollout_depth, prior); the missing ones take the search's generic defaults
    mcts_defaults: Mapping[str, Any] = field(default_factory=dict)
    # the boolean options that are the rulebook's variants, in its order (a sweep's
    # variant=all, the balance report's variant effects)
    variants: tuple[str, ...] = ()
    # a composite difficulty option such as Hispania's level (sweeps, reports)
    difficulty: Difficulty | None = None
    # whose win rate a balance report is about when no seat is tested: the side of seat 0,
    # by its name as a sentence says it ("Rome", "the Republic"; None: "first seat")
    subject: str | None = None
    # the heuristic's strength table (boardsim.agents.heuristic, docs/agents.md)
    strength_matchups: tuple[Matchup, ...] = ()
    # the questions of the game's balance page, docs/balance/<game>.md
    # (``boardsim balance docs GAME`` plays and writes it)
    balance_questions: tuple[BalanceQuestion, ...] = ()
    # the page's tuning sections, after the questions
    balance_tunings: tuple[BalanceTuning, ...] = ()
    # how the game's strength ladder is played (``python -m boardsim.research.ladder GAME``)
    strength_ladder: StrengthLadder | None = None
    # option sets that together cover the game's variants and scenarios (explicit chance
    # in some), for generic tests that play every one (boardsim.fuzz's forged states,
    # the validator's real ones); empty: the defaults only
    sample_options: tuple[Mapping[str, Any], ...] = ()
    # where a game with hidden hands keeps them: (the first word of the hands, rows (one a
    # player), card kinds), counts of each kind a player holds; the OpenSpiel bridge's
    # information-state tensor summarises what each player saw leave or enter them.
    # None: no hands (or none the bridge should read)
    hands: tuple[int, int, int] | None = None
    # positions reached by legal play that random play seldom reaches, each one a
    # validator once refused: (options, seed, the actions from the start, chance outcomes
    # included); boardsim.fuzz starts some of its tries from them
    known_lines: tuple[tuple[Mapping[str, Any], int, tuple[int, ...]], ...] = ()
    # the game's mechanics as named families of action ids (Jaffe et al. 2012's restricted
    # play: an agent asked to play without one family), each a tuple of ids in
    # [0, num_actions), no id in two families (:func:`action_family_problems`); ids in no
    # family belong to no mechanic that can be forbidden. Empty: the game declares none,
    # and no restricted agent can be asked of it
    action_families: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    # the restricted-play sections of the balance page, after its tunings
    restricted_play: tuple[RestrictedPlay, ...] = ()
    # the default of ``max_decisions``: a cap on a game's length well above the longest
    # games its random, heuristic and MCTS players play, measured and documented in its
    # rules ledger (scripts/decision_lengths.py); also the Gymnasium id's
    # max_episode_steps. 0: no default limit
    decision_limit: int = 0
    # what the text board's notation means (``render_text``'s abbreviations and marks),
    # shown by ``boardsim play``'s ``help``; empty: the board needs none
    text_legend: str = ""
    # (params, state before, state after a move) -> sentences of what the move brought
    # about that the move's own words do not say (a country's independence and who
    # scored), for ``boardsim play``; None: nothing more to say
    move_events: Callable[[np.ndarray, np.ndarray, np.ndarray], list[str]] | None = None
    # (state) -> the number of the turn in play (it changes whenever a turn ends), and the
    # most decisions one turn can take (documented in the rules ledger): no player can
    # stall inside a turn (boardsim.testing.check_turn_bounds plays the first and the last
    # legal action against it). None: the game makes no such promise
    turn_of: Callable[[np.ndarray], int] | None = None
    max_turn_decisions: int = 0
    # (options as the user gave them, the resolved options) -> the options the game is
    # played with, when one option's default depends on another's value (Hispania: a
    # scenario switches on its variants, but a variant given False is honoured); their
    # result is ``Game.options``, so a game remade from them is the same game. None: the
    # resolved options as they are
    settle_options: Callable[[Mapping[str, Any], dict[str, Any]], dict[str, Any]] | None = None
    # -- the rulebook's facts other libraries' game descriptions state (OpenSpiel's GameType
    # -- and GameInfo, boardsim.openspiel); the defaults are the cautious answers
    # whether the rules have dice or draws (chance nodes under explicit_chance=True)
    chance: bool = True
    # whether every player sees the whole position (no hidden hands, no hidden pile)
    perfect_information: bool = False
    # (resolved options) -> what the returns can be (:class:`Payoffs`); None: undeclared
    payoffs: Callable[[dict[str, Any]], Payoffs] | None = None

    def load_reference(self) -> ModuleType | None:
        """The module of the game's plain-Python twin (``reference``, imported the first
        time), or None if the game declares none."""
        if self.reference is None:
            return None
        return importlib.import_module(self.reference)

    def load_kernels(self) -> GameKernels:
        """The game's :class:`GameKernels` (importing their module the first time)."""
        if not isinstance(self.kernels, str):
            return self.kernels
        found = getattr(importlib.import_module(self.kernels), "KERNELS", None)
        if found is None and is_game_package(self.kernels):
            return GameKernels.from_package(self.kernels)
        if not isinstance(found, GameKernels):
            raise TypeError(f"game {self.name!r}: {self.kernels}.KERNELS is not a GameKernels")
        return found


PAYOFF_KINDS = ("zero_sum", "constant_sum", "general_sum", "identical")


def action_family_problems(families: Mapping[str, Sequence[int]], num_actions: int) -> list[str]:
    """What is wrong with a game's ``action_families`` for a game of ``num_actions``
    actions: a family without a name or without ids, an id out of range, an id in two
    families. Empty: well-formed."""
    problems = []
    owner: dict[int, str] = {}
    for name, ids in families.items():
        if not name or not ids:
            problems.append(f"family {name!r} needs a name and at least one action id")
        for a in ids:
            if not 0 <= int(a) < num_actions:
                problems.append(f"family {name!r}: action {a} is not in [0, {num_actions})")
            elif int(a) in owner and owner[int(a)] != name:
                problems.append(f"action {a} is in families {owner[int(a)]!r} and {name!r}")
            else:
                owner[int(a)] = name
    return problems


@dataclass(frozen=True)
class Payoffs:
    """What a game's returns can be under given options: every player's return lies in
    ``[low, high]`` (truncated games included); ``kind`` says how they relate (one of
    ``zero_sum``, ``constant_sum`` (they add up to ``total``), ``general_sum``,
    ``identical`` (every player gets the same)); ``dense``: rewards come during the game,
    not only at its end."""

    low: float
    high: float
    kind: str
    dense: bool = False
    total: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in PAYOFF_KINDS:
            raise ValueError(f"payoff kind {self.kind!r}; choose one of {', '.join(PAYOFF_KINDS)}")
        if not self.low < self.high:
            raise ValueError(f"payoffs need low < high, got [{self.low}, {self.high}]")
        if self.kind == "zero_sum" and self.total != 0.0:
            raise ValueError("zero-sum payoffs add up to 0 (total=0.0)")


@dataclass(frozen=True)
class Difficulty:
    """A difficulty option made of several parameters (Hispania's ``level="6-4-3-4-2"``).

    ``values[i]`` lists parameter ``i``'s allowed values from the easiest to the
    hardest; a level is one value of each, joined by ``-``. Sweeps expand
    ``option=all`` to every level; the balance report measures each parameter's effect.
    """

    option: str
    parameters: tuple[str, ...]
    values: tuple[tuple[int, ...], ...]

    def split(self, level: Any) -> tuple[int, ...]:
        """``"6-4-3-4-2"`` -> ``(6, 4, 3, 4, 2)``."""
        return tuple(int(x) for x in str(level).split("-"))

    def join(self, values: Sequence[int]) -> str:
        """``(6, 4, 3, 4, 2)`` -> ``"6-4-3-4-2"``."""
        return "-".join(str(int(v)) for v in values)

    def levels(self) -> list[str]:
        """Every level, each parameter from its easiest to its hardest value."""
        return [self.join(combo) for combo in itertools.product(*self.values)]


@dataclass(frozen=True)
class Matchup:
    """One line of a game's strength table: a compiled policy per seat, whose wins count."""

    options: Mapping[str, Any]
    policies: tuple[str, ...]
    seat: int  # the seat whose wins are counted (its side's, where players share a side)
    label: str


@dataclass(frozen=True)
class BalanceQuestion:
    """One section of a game's balance page: a sweep (``boardsim balance`` grid specs,
    agents and fixed options) and what it asks, in a sentence."""

    title: str
    asks: str
    grid: tuple[str, ...]
    agents: str = "heuristic"
    options: Mapping[str, Any] = field(default_factory=dict)
    # the share of the page's games a cell that this question plays (Hispania's 243
    # levels take a small share each)
    share: float = 1.0


@dataclass(frozen=True)
class RuleSource:
    """Where the value of an option a tuning moves comes from: ``printed`` in the rulebook
    (``where``: its line) or reconstructed (``where``: what the reconstruction is). A
    trial that moves a printed number away from ``value`` changes a rule; so does one
    that takes a reconstructed number to ``off_at`` or below, where it switches off a
    rule the rulebook states (Farrapos's all-ports bonus at 0)."""

    printed: bool
    value: Any
    where: str
    off_at: int | None = None

    def changes_rule(self, value: Any) -> bool:
        """Whether a trial setting the option to ``value`` changes a printed rule."""
        if self.printed and value != self.value:
            return True
        return self.off_at is not None and isinstance(value, int) and value <= self.off_at


@dataclass(frozen=True)
class BalanceTuning:
    """A tuning section of a game's balance page: a ``boardsim balance tune`` search of
    options for settings that meet targets (:mod:`boardsim.research.tune`), and what it
    asks, in a sentence."""

    title: str
    asks: str
    targets: tuple[str, ...]  # WHAT=VALUE@SKILL, as --target
    search: tuple[str, ...]  # KEY=LOW:HIGH or KEY=V1,V2, as --search
    trials: int = 30
    # the share of the page's games a cell that a trial plays at each target's skill
    share: float = 1.0
    # each searched option's source (printed in the rulebook or reconstructed): the
    # report keeps the trials that change a printed rule apart
    sources: Mapping[str, RuleSource] = field(default_factory=dict)
    # the half-width a trial's cells are played to (rounds from its first games), and
    # the most games a trial plays at each skill (its budget); None: a fixed size
    precision: float | None = None
    max_games: int | None = None


@dataclass(frozen=True)
class RestrictedPlay:
    """A restricted-play section of a game's balance page (``boardsim balance restricted``,
    :mod:`boardsim.research.restricted`): each family's weight for ``agent`` (``families``;
    empty: every family the game declares) and, with ``gap``, that search's advantage over
    the greedy agent, in a game with ``options``, and what it asks, in a sentence.

    A page played to a precision plays ``games`` games a measure and ``gap_games`` for the
    gap (the gap's search plays in Python against the greedy agent, so it gets fewer); a
    page of fixed cells plays its games per cell for each."""

    title: str
    asks: str
    agent: str
    families: tuple[str, ...] = ()
    gap: str | None = None
    games: int = 2000
    gap_games: int = 200
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StrengthLadder:
    """How a game's strength ladder is played (one ``boardsim eval`` round robin of the
    ladder's agents, :mod:`boardsim.research.ladder`): its options, a cooperative game's
    levels, the games a pair (a level) and the seed."""

    options: Mapping[str, Any] = field(default_factory=dict)
    levels: str | None = None
    games: int = 40
    seed: int = 100  # not a seed the agents were tuned or trained on
    any_options: bool = False  # networks play options they were not trained with


class Game:
    """One game with its options fixed. Make it with :func:`boardsim.make_game`."""

    def __init__(self, definition: GameDefinition, **options: Any) -> None:
        self.definition = definition
        self.options = resolve_options(
            definition.name,
            definition.options,
            options,
            {"max_decisions": definition.decision_limit},
        )
        if definition.settle_options is not None:
            self.options = definition.settle_options(options, self.options)
        kernels = definition.load_kernels()
        n_players = definition.num_players(self.options)
        head = [0] * hd.PARAMS_HEADER
        head[hd.P_NUM_PLAYERS] = n_players
        head[hd.P_EXPLICIT_CHANCE] = int(bool(self.options["explicit_chance"]))
        head[hd.P_MAX_DECISIONS] = int(self.options["max_decisions"])
        self.tag = register_tag(definition.name, definition.version)
        head[hd.P_GAME_TAG] = self.tag
        self.params = np.asarray(head + list(definition.game_params(self.options)), np.int32)
        self.params.setflags(write=False)
        self.kernels = kernels  # the game's compiled kernels (legal_mask, observe, ...)
        self.engine = BoundEngine(kernels)  # core/engine.py with them bound
        self.mcts = BoundSearch(kernels)  # core/search/ with them bound
        self._direct: dict[str, Callable[..., Any]] = {}  # (fast_kernel)
        self.num_players = n_players
        self.num_actions = kernels.NUM_ACTIONS
        self.state_size = kernels.STATE_SIZE
        self.observation_size = kernels.OBS_SIZE
        self.max_chance_outcomes = kernels.MAX_CHANCE_OUTCOMES
        self.max_players = kernels.MAX_PLAYERS
        team = definition.team_of_player
        self.teams = [team(self.options, p) if team else p for p in range(n_players)]

    def is_cooperative(self) -> bool:
        """Every player is on one side (Hispania's generals without the Hispano player)."""
        return len(set(self.teams)) == 1

    def check_seat(self, seat: Any) -> None:
        """A learner's seat: an int in ``[0, num_players)``, else :class:`OptionError`
        (one rule, one error class, for the single and the vector env)."""
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
            raise OptionError(f"{self.name}: seat must be an int, got {seat!r}")
        if not 0 <= seat < self.num_players:
            raise OptionError(
                f"{self.name}: seat {seat} is out of range; choose one of 0..{self.num_players - 1}"
            )

    def teammates(self, seat: int) -> np.ndarray:
        """``uint8[max_players]``: 1 for ``seat`` and every player on its side."""
        out = np.zeros(self.max_players, np.uint8)
        for p, t in enumerate(self.teams):
            out[p] = t == self.teams[seat]
        return out

    @property
    def name(self) -> str:
        return self.definition.name

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"boardsim.make_game({self.name!r}, {shown})"

    def agent_names(self) -> list[str]:
        """The agents' names, one a seat: ``["player_0", ...]``, ``["republic", "empire"]``."""
        return self.definition.agent_names(self.options)

    def fast_kernel(self, name: str) -> Callable[..., Any]:
        """``self.engine.<name>`` for a hot path whose argument types never change (a
        state's own C-contiguous int32 array, the params, an int64 action, float32
        rewards...): after its first call, its compiled entry point, called with no
        Python frame and no type dispatch (the bound engine's frame saved a decision)."""
        found = self._direct.get(name)
        if found is None:
            bound = getattr(self.engine, name)
            found = bound.direct()
            if found is None:  # not called yet (or not compiled): dispatch by type
                return bound
            self._direct[name] = found
        return found

    def new_initial_state(self, seed: int | None = 0) -> State:
        """A new game, its dice and draws seeded by ``seed``: an integer in
        ``[-2**63, 2**63)``, or None for fresh entropy from the operating system (as
        numpy's ``default_rng()``); anything else raises ``ValueError``."""
        arr = np.zeros(self.state_size, np.int32)
        self.engine.new_game(
            arr,
            self.params,
            np.int64(checked_seed(seed)),
            np.zeros(self.max_chance_outcomes, np.int32),
            np.zeros(self.max_chance_outcomes, np.int64),
        )
        return State._adopt(self, arr)

    def check_array(self, array: Any, what: str = "state") -> np.ndarray:
        """``array`` if it is a state of this game that its kernels handle safely (form,
        game tag, every field: :mod:`boardsim.core.validation`), else
        :class:`StateFormatError` naming the field and the value. An array saved before
        game tags existed is stamped with this game's tag."""
        return check_array(self, array, what)

    # ------------------------------------------------------------ pickling
    def __reduce__(self) -> tuple[Callable[..., Game], tuple[str, int, dict[str, Any]]]:
        """A game pickles (and deep-copies) as its name, version and options: unpickling
        makes it again with :func:`game_from_pickle`, in any process where the game is
        installed (its kernels and functions are never pickled)."""
        return (game_from_pickle, (self.name, self.definition.version, dict(self.options)))

    # ------------------------------------------------------------ saving
    def _options_json(self) -> bytes:
        return json.dumps(self.options, sort_keys=True).encode()

    def state_to_bytes(self, state: State) -> bytes:
        """``state`` as bytes: a header (game, version, options), the array, a checksum."""
        name = self.name.encode()
        opts = self._options_json()
        body = (
            struct.pack("<HH", SAVE_FORMAT, len(name))
            + name
            + struct.pack("<HI", self.definition.version, len(opts))
            + opts
            + struct.pack("<I", self.state_size)
            + state.array.astype("<i4").tobytes()
        )
        return SAVE_MAGIC + body + struct.pack("<I", zlib.crc32(body))

    def state_from_bytes(self, data: bytes) -> State:
        """Load a state saved by :meth:`State.to_bytes`; refuse anything else clearly."""
        if not isinstance(data, bytes | bytearray | memoryview):
            raise StateFormatError(f"expected bytes, got {type(data).__name__}")
        data = bytes(data)
        if not data.startswith(SAVE_MAGIC):
            raise StateFormatError("not a boardsim saved state (bad magic bytes)")
        body, tail = data[len(SAVE_MAGIC) : -4], data[-4:]
        if len(data) < len(SAVE_MAGIC) + 8 or struct.unpack("<I", tail)[0] != zlib.crc32(body):
            raise StateFormatError("saved state is truncated or corrupted (checksum mismatch)")
        try:
            fmt, n = struct.unpack_from("<HH", body, 0)
            pos = 4
            if fmt != SAVE_FORMAT:
                raise StateFormatError(f"saved state format {fmt} is not supported ({SAVE_FORMAT})")
            name = body[pos : pos + n].decode()
            pos += n
            version, m = struct.unpack_from("<HI", body, pos)
            pos += 6
            opts = json.loads(body[pos : pos + m].decode())
            pos += m
            (size,) = struct.unpack_from("<I", body, pos)
            pos += 4
        except (struct.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise StateFormatError(f"saved state header is malformed: {exc}") from None
        if name != self.name:
            raise StateFormatError(f"saved state is of game {name!r}, not {self.name!r}")
        if version != self.definition.version:
            raise StateFormatError(
                f"saved state is from {name} version {version}; this is version "
                f"{self.definition.version}"
            )
        if isinstance(opts, dict):  # saved before an option existed: its default (the old rule)
            opts = with_later_defaults(self.definition.options, opts)
        if opts != json.loads(self._options_json()):
            raise StateFormatError(f"saved state was made with options {opts}, not {self.options}")
        if size != self.state_size or len(body) - pos != 4 * size:
            raise StateFormatError(f"saved state has {len(body) - pos} bytes, not {4 * size}")
        arr = np.frombuffer(body[pos:], dtype="<i4").astype(np.int32)
        return State._adopt(self, self.check_array(arr, "saved state"))


# the registry's lookup of a game by id (``boardsim.games.definition``, which installs it
# when it is imported, as ``import boardsim`` does): how an unpickled Game finds its
# definition without the core importing the layer above it
_find_definition: Callable[[str], GameDefinition] | None = None


def use_registry(find: Callable[[str], GameDefinition]) -> None:
    """Install the game registry's lookup (``boardsim.games`` calls this once)."""
    global _find_definition
    _find_definition = find


def game_from_pickle(name: str, version: int, options: dict[str, Any]) -> Game:
    """The game a pickle names: ``make_game(name, **options)``, refused with
    :class:`StateFormatError` when the installed game is another version (its states and
    options may mean something else) and with :class:`OptionError` when the game or an
    option is unknown here."""
    if _find_definition is None:  # pragma: no cover - importing boardsim.core imports boardsim
        raise StateFormatError(f"pickled {name} game: no game registry (import boardsim)")
    found = _find_definition(name)
    if found.version != version:
        raise StateFormatError(
            f"pickled {name} game is version {version}; this is version {found.version}"
        )
    return Game(found, **options)


def state_from_pickle(game: Game, data: bytes, last_rewards: Any) -> State:
    """The state a pickle holds: ``game.state_from_bytes(data)`` (so checked like any
    saved state) with the rewards of its last step."""
    state = game.state_from_bytes(data)
    rewards = np.array(last_rewards, dtype=np.float32)
    if rewards.shape != state.last_rewards.shape:
        raise StateFormatError(
            f"pickled state's last rewards have shape {rewards.shape}, "
            f"not {state.last_rewards.shape}"
        )
    state.last_rewards = rewards
    return state


SEED_LIMIT = 2**63
"""Seeds are the integers in ``[0, SEED_LIMIT)``: see :func:`checked_seed`."""


def checked_seed(seed: Any) -> int:
    """``seed`` as a seed, by boardsim's one seed rule.

    A seed is an integer in ``[0, 2**63)``: a Python ``int``, a numpy integer or a 0-d
    integer array (not a bool, a float or a string); ``None`` draws one from fresh
    operating-system entropy. The same rule holds everywhere a seed is taken: the core
    (``Game.new_initial_state``), the PettingZoo, Gymnasium and vector envs' ``reset``
    and ``boardsim train --seed``; anything else raises ``ValueError`` saying so.
    """
    if seed is None:
        return int(np.random.default_rng().integers(0, SEED_LIMIT))
    if isinstance(seed, np.ndarray) and seed.ndim == 0:
        seed = seed[()]
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, int | np.integer):
        raise ValueError(f"seed must be an integer or None, got {seed!r}")
    if not 0 <= int(seed) < SEED_LIMIT:
        raise ValueError(f"seed {seed} is out of range: a seed is an integer in [0, 2**63)")
    return int(seed)


class State:
    """One position of a game: a flat ``int32`` array plus OpenSpiel-style methods.

    ``State(game, array)`` wraps ``array`` itself (no copy: the state is updated in place)
    after checking it (:meth:`Game.check_array`): a C-contiguous, writable ``int32`` array
    of ``game.state_size`` words, of this game, every field in range and coherent, a legal
    action when the game is live; anything else raises :class:`StateFormatError`.
    """

    def __init__(self, game: Game, array: np.ndarray) -> None:
        self.game = game
        self.array = game.check_array(array)
        self.last_rewards = np.zeros(game.max_players, np.float32)

    @classmethod
    def _adopt(cls, game: Game, array: np.ndarray) -> State:
        """A state over ``array`` without checking it: only for arrays the library's own
        kernels made (new games, clones, checked loads), never for a user's."""
        st = cls.__new__(cls)
        st.game = game
        st.array = array
        st.last_rewards = np.zeros(game.max_players, np.float32)
        return st

    # ------------------------------------------------------------ queries
    def current_player(self) -> int:
        """The player to decide; ``CHANCE`` (-1) at a chance node; ``TERMINAL`` (-4) when over."""
        if self.array[hd.H_FLAGS] & hd.FLAG_TERMINAL:
            return hd.TERMINAL
        return int(self.array[hd.H_ACTOR])

    def is_terminal(self) -> bool:
        """Whether the game is over (won, drawn, lost or truncated)."""
        return bool(self.array[hd.H_FLAGS] & hd.FLAG_TERMINAL)

    def is_truncated(self) -> bool:
        """Whether the game was cut by ``max_decisions``."""
        return bool(self.array[hd.H_FLAGS] & hd.FLAG_TRUNCATED)

    def is_chance_node(self) -> bool:
        """Whether chance acts next (only with ``explicit_chance=True``)."""
        return not self.is_terminal() and int(self.array[hd.H_ACTOR]) == hd.CHANCE

    def decisions(self) -> int:
        """Decisions taken so far (chance outcomes not counted)."""
        return int(self.array[hd.H_DECISIONS])

    def legal_actions_mask(self) -> np.ndarray:
        """A ``uint8`` mask over the game's actions (all zero at chance and terminal nodes)."""
        mask = np.zeros(self.game.num_actions, np.uint8)
        if not self.is_terminal() and not self.is_chance_node():
            self.game.kernels.legal_mask(self.array, self.game.params, mask)
        return mask

    def legal_actions(self) -> list[int]:
        """The legal actions (at a chance node: the possible outcomes)."""
        if self.is_chance_node():
            return [o for o, _ in self.chance_outcomes()]
        return [int(a) for a in np.flatnonzero(self.legal_actions_mask())]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, ``(outcome, probability)`` pairs; empty elsewhere."""
        if not self.is_chance_node():
            return []
        k = self.game.max_chance_outcomes
        outcomes = np.zeros(k, np.int32)
        probs = np.zeros(k, np.float64)
        n = self.game.engine.chance_outcomes(self.array, self.game.params, outcomes, probs)
        return [(int(outcomes[i]), float(probs[i])) for i in range(n)]

    def observation(self, player: int) -> np.ndarray:
        """What ``player`` may see, as a float32 vector."""
        if not 0 <= player < self.game.num_players:
            raise ValueError(f"player {player} out of range [0, {self.game.num_players})")
        out = np.zeros(self.game.observation_size, np.float32)
        self.game.kernels.observe(self.array, self.game.params, player, out)
        return out

    def returns(self) -> np.ndarray:
        """Each player's cumulative return so far."""
        out = np.zeros(self.game.max_players, np.float64)
        self.game.kernels.returns(self.array, self.game.params, out)
        return out[: self.game.num_players].copy()

    # ------------------------------------------------------------ moves
    def apply_action(self, action: int) -> None:
        """Apply a decision (or, at a chance node, an outcome); refuse illegal ones (and
        anything but an integer: :func:`~boardsim.core.errors.as_action`)."""
        a = as_action(action, self.legal_actions)
        if self.is_terminal():
            raise IllegalActionError(a, [], "the game is over")
        if self.is_chance_node():
            ok = any(o == a for o, _ in self.chance_outcomes())
        else:
            ok = 0 <= a < self.game.num_actions and bool(self.legal_actions_mask()[a])
        if not ok:
            self.raise_illegal(a)
        self.apply_unchecked(a)

    def apply_unchecked(self, action: int) -> None:
        """Apply an action already known to be legal (wrappers that checked their own mask)."""
        rewards = np.zeros(self.game.max_players, np.float32)
        self.game.fast_kernel("step")(self.array, self.game.params, np.int64(action), rewards)
        self.last_rewards = rewards

    def raise_illegal(self, action: int) -> None:
        """Raise :class:`IllegalActionError` for ``action``, naming it and the legal ones."""
        legal = self.legal_actions()
        words = (
            self.action_to_string(action)
            if 0 <= action < self.game.num_actions or self.is_chance_node()
            else "out of range"
        )
        names = ", ".join(f"{x} ({self.action_to_string(x)})" for x in legal[:30])
        if len(legal) > 30:
            names += f", ... ({len(legal)} in all)"
        raise IllegalActionError(action, legal, words, names)

    def clone(self) -> State:
        """An independent copy of the position."""
        st = State._adopt(self.game, self.array.copy())
        st.last_rewards = self.last_rewards.copy()
        return st

    def action_to_string(self, action: int) -> str:
        """``action`` in the game's words here ("roll the die and move")."""
        if self.is_chance_node():
            return f"chance outcome {action}"
        return self.game.definition.describe_action(self.game.params, self.array, int(action))

    def to_bytes(self) -> bytes:
        """The position as bytes (:meth:`Game.state_from_bytes` reads them back)."""
        return self.game.state_to_bytes(self)

    def __reduce__(self) -> tuple[Callable[..., State], tuple[Game, bytes, list[float]]]:
        """A state pickles as its game (by name and options) and its saved bytes, loaded
        back through :meth:`Game.state_from_bytes` and its checks."""
        return (state_from_pickle, (self.game, self.to_bytes(), self.last_rewards.tolist()))

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """``copy.deepcopy(state)``: an independent copy, as :meth:`clone` (same game)."""
        return self.clone()

    def __str__(self) -> str:
        return self.game.definition.render_text(self.game.params, self.array)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and other.game.name == self.game.name
            and np.array_equal(other.array, self.array)
        )

    def __hash__(self) -> int:
        return hash((self.game.name, self.array.tobytes()))
