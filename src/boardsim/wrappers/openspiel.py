"""Every installed game as an OpenSpiel game: ``pyspiel.load_game("boardsim_farrapos")``.

Importing this module registers each game found (plugins included) with
``pyspiel.register_game`` under ``boardsim_<game>``; its options are the game's
OpenSpiel parameters (``pyspiel.load_game("boardsim_liberation(num_players=4)")``), an
option whose default is None taking ``"none"`` for None, and a value of digits and
dashes written with slashes (Hispania's ``level=6/4/3/4/2``: :func:`to_parameter`).
OpenSpiel hands a game every parameter, defaults included; the game is made with those
that differ from the defaults, as :func:`boardsim.make_game` with the options changed (so
an option whose default follows another's, Farrapos's ``max_decisions`` under
``move_destinations="several"``, follows it). Nothing is compiled until a game is
loaded. OpenSpiel is an optional dependency (``pip install "boardsim[openspiel]"``);
without it, importing this module raises an ``ImportError`` saying so.

What OpenSpiel is told, from the game's definition (:class:`~boardsim.core.game.GameDefinition`'s
``chance``, ``perfect_information`` and ``payoffs``): sequential dynamics; explicit
chance where the rules have dice or draws (the game is always played with
``explicit_chance=True``, so every die and draw is an OpenSpiel chance node with the
core's own distribution); perfect or imperfect information; the utility (zero-sum,
general-sum, identical for a cooperative game) and its range; terminal rewards or, for
the dense reward options, rewards along the way; the longest game, ``max_decisions``
(which must not be 0 here: OpenSpiel needs a bound). The games bound no count of chance
events, so ``max_chance_nodes_in_history`` is OpenSpiel's default (the longest game), a
figure no algorithm the suite runs reads.

Observations go through OpenSpiel's observer interface:

- the default observation (``perfect_recall=False``, public and the player's own private
  information) is the library's own: the tensor is ``State.observation(player)``, so the
  race's hidden hands stay hidden as in every other env; the string is that tensor's
  non-zero entries (``index:value``).
- the information state (``perfect_recall=True``), as a string, is the player's
  action-observation history, OpenSpiel's definition of a perfect-recall information
  state: each of the player's own actions and every observation it was shown after every
  step, chance outcomes included, kept step by step as a SHA-256 digest, so equal strings
  are equal histories (tabular algorithms key on it: CFR, MCCFR, best response).
- the information state as a tensor (``state.information_state_tensor(player)``,
  ``provides_information_state_tensor`` True), ``float32``, fixed size
  (:func:`information_state_size`), always the observation first
  (``[0, observation_size)``, as above) and then:

  * a perfect-information game (Farrapos, Hispania, connect four: the definition's
    ``perfect_information``): the position's state words, every word of the state array
    but the generator's two (unused: every die and draw is a chance node), the game's
    tag and the reserved word, in the array's order (:func:`_position_words`:
    ``H_ACTOR, H_FLAGS, H_DECISIONS, H_CHANCE_KIND``, then the game's own layout), as
    floats (exact below 2**24, which these counts and indices stay under). In a
    perfect-information game the position is all a player can know, so two states have
    the same tensor exactly when they are the same position (the decision count
    included). The observation alone was never seen shared by two positions along random
    play, but nothing guarantees it (it is made for networks, not to be injective),
    hence the words. It is the position, not the history: two
    move orders reaching one position share the tensor, while their strings differ.
  * the race (``liberation``, hidden hands): after the observation, two blocks of
    ``MAX_PLAYERS x NUM_KINDS`` (6 x 25) card counts by kind, a row a player listed from
    the observer on as in the observation (row 0 the observer, rows past
    ``num_players`` zero): first the cards seen leaving that player's hand (moved with,
    tucked, exchanged onto the board, discarded, spent in a Royalist attack), then the
    cards it is known to still hold (a card taken back from the board by an exchange,
    L14, less the cards of that kind it has shown since, never below 0: a lower bound,
    never a guess). Both are counted from the hands before and after each
    decision, which moves cards only in the open (no decision draws: every draw is a
    chance node, and its card stays hidden), so the tensor never depends on a hand the
    player cannot see. This is the public record the observation forgets (it shows the
    discards by kind, not who discarded them, and no hand but one's own). It is not
    perfect recall: two histories with the same position and the same record (moves in
    another order, a die roll the board no longer shows) share a tensor. A perfect-recall
    tensor of fixed size would have to hold the whole history, up to ``max_decisions``
    (41,000) decisions and the chance outcomes between them, millions of entries: no
    useful size. The tensor is a sufficient-statistic summary for the networks of
    OpenSpiel's neural algorithms (NFSP, Deep CFR, R-NaD, policy gradient and DQN through
    ``rl_environment``'s ``info_state``), not a key for the tabular ones, which take the
    string. A world redealt by ``resample_from_infostate`` (below) keeps the record,
    which is the player's knowledge, even where the redeal contradicts it.
  * another imperfect-information game (a plugin): no tensor, only the string
    (``provides_information_state_tensor`` False).
- other observation types (public-only, all players' private information) are refused
  with a ``ValueError`` naming the two above.

``state.resample_from_infostate(player, sampler)`` (OpenSpiel's ``ISMCTSBot`` calls it)
redeals what the player cannot see with the game's own ``determinize`` kernel (the race:
the pile and the other hands; a no-op for a game without hidden information). That
redeal is consistent with the player's current observation, as the library's own MCTS
assumes (the race's ledger, L22), not with all it has seen: a card an opponent took back
into hand by an exchange (L14), seen by everyone, may be dealt elsewhere. The resampled
world keeps the player's information-state string all the same (ISMCTS keys its nodes by
it); the others' become a digest of that one and of their own observations from there
on, so no search keys a node by what the player cannot know.

OpenSpiel's ``ISMCTSBot`` draws its worlds with an unseeded
``pyspiel.UniformProbabilitySampler``, so its searches differ from run to run whatever
``random_state`` it is given. :func:`seeded_resampler` makes them reproducible:
``bot._resampler_cb = seeded_resampler(seed)`` (the bot's own hook for a resampler).

:class:`BoardsimBot` plays one of the library's agents (``"heuristic"``, ``"mcts:200"``,
a network) as a ``pyspiel.Bot``, for ``evaluate_bots`` against OpenSpiel's own bots.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - exercised by the extra's absence
    raise ImportError(
        "boardsim.wrappers.openspiel needs OpenSpiel: pip install 'boardsim[openspiel]' "
        "(or pip install open-spiel)"
    ) from exc

from open_spiel.python.algorithms import mcts as _mcts

from boardsim.core import header as hd
from boardsim.core.errors import OptionError
from boardsim.core.game import Game, GameDefinition, Payoffs, State, checked_seed
from boardsim.core.options import COMMON_OPTIONS, resolve_options
from boardsim.core.rng import rng_seed
from boardsim.games import definition, names

__all__ = [
    "PREFIX",
    "BoardsimBot",
    "BoardsimObserver",
    "OpenSpielGame",
    "OpenSpielState",
    "RolloutEvaluator",
    "game_type",
    "information_state_size",
    "load_game",
    "openspiel_name",
    "register_games",
    "seeded_resampler",
    "to_parameter",
]

PREFIX = "boardsim_"
# an option whose default is None, as an OpenSpiel parameter (a game string cannot hold "")
NONE = "none"
# the options OpenSpiel does not set: every die and draw is an OpenSpiel chance node
FIXED_OPTIONS = {"explicit_chance": True}
_UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
    "identical": pyspiel.GameType.Utility.IDENTICAL,
}


def openspiel_name(game: str) -> str:
    """The OpenSpiel short name of game ``game``: ``farrapos`` -> ``boardsim_farrapos``."""
    return PREFIX + game


def to_parameter(value: Any) -> Any:
    """An option's value as an OpenSpiel parameter: None as ``"none"``, and a string of
    digits and dashes (Hispania's ``level="6-4-3-4-2"``) with slashes, ``"6/4/3/4/2"``
    (OpenSpiel reads a game string's digits-and-dashes value as an int, and fails)."""
    if value is None:
        return NONE
    if isinstance(value, str) and re.fullmatch(r"[0-9+]+(-[0-9+]+)+", value):
        return value.replace("-", "/")
    return value


def _parameter_defaults(d: GameDefinition) -> dict[str, Any]:
    """The game's options as OpenSpiel parameters and their defaults (:func:`to_parameter`)."""
    out: dict[str, Any] = {}
    for option in (*d.options, *COMMON_OPTIONS):
        if option.name in FIXED_OPTIONS:
            continue
        default = d.decision_limit if option.name == "max_decisions" else option.default
        out[option.name] = to_parameter(default)
    return out


def _options(d: GameDefinition, params: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters -> the game's options (:func:`to_parameter` undone), refusing
    the fixed ones."""
    declared = {o.name: o for o in (*d.options, *COMMON_OPTIONS)}
    out: dict[str, Any] = {}
    for name, value in params.items():
        if name in FIXED_OPTIONS:
            raise OptionError(
                f"{d.name}: {name} is fixed to {FIXED_OPTIONS[name]!r} in OpenSpiel "
                "(every die and draw is a chance node)"
            )
        option = declared.get(name)
        if option is not None and option.default is None and value == NONE:
            value = None
        elif isinstance(value, str) and re.fullmatch(r"[0-9+]+(/[0-9+]+)+", value):
            value = value.replace("/", "-")
        out[name] = value
    return {**out, **FIXED_OPTIONS}


def _player_counts(d: GameDefinition) -> tuple[int, int]:
    """The fewest and most players the game takes: its ``num_players`` range, or the
    counts of its defaults and sample option sets (Hispania: 3, or 4 with Hispano)."""
    count = next((o for o in d.options if o.name == "num_players"), None)
    if count is not None and count.low is not None and count.high is not None:
        return int(count.low), int(count.high)
    counts = {int(d.num_players(_resolved(d, o))) for o in ({}, *d.sample_options)}
    return min(counts), max(counts)


def _resolved(d: GameDefinition, given: Any) -> dict[str, Any]:
    """The options a game made with ``given`` plays (no kernels loaded)."""
    options = resolve_options(d.name, d.options, dict(given), {"max_decisions": d.decision_limit})
    if d.settle_options is not None:
        options = d.settle_options(given, options)
    return options


def _payoffs(d: GameDefinition, options: dict[str, Any]) -> Payoffs:
    if d.payoffs is None:
        raise OptionError(
            f"{d.name}: its definition declares no payoffs (GameDefinition.payoffs): "
            "OpenSpiel needs the range and the kind of its returns"
        )
    return d.payoffs(options)


def game_type(d: GameDefinition, options: dict[str, Any] | None = None) -> Any:
    """The ``pyspiel.GameType`` of a game: the one registered (``options`` None, the
    defaults' utility and reward model) or that of a game made with resolved ``options``."""
    low, high = _player_counts(d)
    pay = _payoffs(d, _resolved(d, {}) if options is None else options)
    return pyspiel.GameType(
        short_name=openspiel_name(d.name),
        long_name=f"boardsim: {d.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if d.chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if d.perfect_information
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=_UTILITY[pay.kind],
        reward_model=(
            pyspiel.GameType.RewardModel.REWARDS
            if pay.dense
            else pyspiel.GameType.RewardModel.TERMINAL
        ),
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=_has_information_tensor(d),
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_defaults(d),
    )


class OpenSpielGame(pyspiel.Game):
    """One boardsim game with its options fixed, as an OpenSpiel game (made by
    ``pyspiel.load_game``; ``.boardsim_game`` is the library's :class:`Game`)."""

    game_name = ""  # set by each game's subclass, the class OpenSpiel makes it with

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        d = definition(self.game_name)
        defaults = _parameter_defaults(d)
        changed = {k: v for k, v in (params or {}).items() if defaults.get(k, NONE) != v}
        given = _options(d, changed)
        game = Game(d, **given)
        if int(game.options["max_decisions"]) <= 0:
            raise OptionError(
                f"{d.name}: max_decisions=0 (no limit) cannot be played in OpenSpiel, "
                "which needs the longest game; give a limit"
            )
        pay = _payoffs(d, game.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            # chance outcomes are numbered as actions are (the PettingZoo chance agent's
            # mask): the core's MAX_CHANCE_OUTCOMES counts one node's outcomes, not their
            # ids (Farrapos's die: 6 outcomes, 1-6), and OpenSpiel needs ids below this
            max_chance_outcomes=max(game.max_chance_outcomes, game.num_actions),
            num_players=game.num_players,
            min_utility=float(pay.low),
            max_utility=float(pay.high),
            utility_sum=(float(pay.total) if pay.kind in ("zero_sum", "constant_sum") else None),
            max_game_length=int(game.options["max_decisions"]),
        )
        super().__init__(game_type(d, game.options), info, dict(params or {}))
        self.boardsim_game = game

    def new_initial_state(self) -> OpenSpielState:
        """The start of a game (its chance events are OpenSpiel chance nodes)."""
        return OpenSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BoardsimObserver:
        """The observer of ``iig_obs_type`` (default: the player's own observation)."""
        return BoardsimObserver(self.boardsim_game, iig_obs_type, params)


# the header words that say nothing of the position: the generator (unused with explicit
# chance, every die and draw an OpenSpiel chance node), the game's tag and the reserved word
_NOT_POSITION = (hd.H_RNG, hd.H_RNG + 1, hd.H_GAME, hd.H_RESERVED)


def _position_words(state_size: int) -> np.ndarray:
    """The indices of the state words that make up a position (all but :data:`_NOT_POSITION`)."""
    return np.array([i for i in range(state_size) if i not in _NOT_POSITION], np.int64)


class _Hands:
    """Where an imperfect-information game keeps its hands: ``hand`` the first word of
    ``rows`` rows of ``kinds`` card counts, one a player (the race: ``HAND[p, k]``)."""

    def __init__(self, hand: int, rows: int, kinds: int) -> None:
        self.hand, self.rows, self.kinds = hand, rows, kinds

    def of(self, array: np.ndarray) -> np.ndarray:
        """Every player's hand, ``(rows, kinds)``, a copy."""
        return array[self.hand : self.hand + self.rows * self.kinds].reshape(self.rows, -1).copy()


def _hands(d: GameDefinition) -> _Hands | None:
    """The hands of an imperfect-information game that declares them
    (``GameDefinition.hands``: the race), else None."""
    if d.hands is None:
        return None
    return _Hands(*d.hands)


def _has_information_tensor(d: GameDefinition) -> bool:
    """Whether the bridge gives game ``d`` an information-state tensor: every
    perfect-information game (its position) and the race (its summary, :class:`_Hands`)."""
    return bool(d.perfect_information) or _hands(d) is not None


def information_state_size(game: Game) -> int:
    """The length of the information-state tensor of ``game`` (the module's docstring):
    the observation and the position's words, or the observation and the hands' summary."""
    d = game.definition
    if d.perfect_information:
        return int(game.observation_size) + len(_position_words(game.state_size))
    hands = _hands(d)
    if hands is None:
        raise ValueError(f"{d.name}: no information-state tensor (only the string)")
    return int(game.observation_size) + 2 * hands.rows * hands.kinds


def _digest(*parts: bytes) -> bytes:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(4, "little"))
        h.update(part)
    return h.digest()


class OpenSpielState(pyspiel.State):
    """One position, as an OpenSpiel state, over a :class:`boardsim.State`
    (``.boardsim_state``). Cloning deep-copies it, serialising pickles it (its saved
    bytes, checked on loading as ``Game.state_from_bytes``)."""

    def __init__(self, game: OpenSpielGame) -> None:
        super().__init__(game)
        g = game.boardsim_game
        self.boardsim_state = g.new_initial_state(0)
        # every player's return when the last decision was taken: rewards() is what came
        # since (the decision and the chance events after it)
        self._base = np.zeros(g.num_players)
        # each player's action-observation history, as a running digest
        self._aoh = [
            _digest(b"start", self.boardsim_state.observation(p).tobytes())
            for p in range(g.num_players)
        ]
        # the race's public record of the hands (the information-state tensor): per player
        # and kind, the cards seen leaving its hand, and how many it is known to still hold
        hands = self._hands = _hands(g.definition)
        rows = (hands.rows, hands.kinds) if hands is not None else (0, 0)
        self._shown = np.zeros(rows, np.int64)
        self._known = np.zeros(rows, np.int64)

    # -- queries
    def current_player(self) -> int:
        """The player to move, ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL``."""
        st = self.boardsim_state
        if st.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if st.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return st.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.boardsim_state.legal_actions_mask())]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the die or draw to come and their probabilities (the core's)."""
        st = self.boardsim_state
        if not st.is_chance_node():
            return []
        found = self.get_game().get_type().chance_mode
        if found == pyspiel.GameType.ChanceMode.DETERMINISTIC:
            raise RuntimeError(
                f"{st.game.name} declares no chance (GameDefinition.chance=False) but "
                "reached a chance node: its definition is wrong"
            )
        return sorted(st.chance_outcomes())

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return self.boardsim_state.action_to_string(action)

    def is_terminal(self) -> bool:
        """Whether the game is over (won, drawn, lost or cut by ``max_decisions``)."""
        return self.boardsim_state.is_terminal()

    def returns(self) -> list[float]:
        """Each player's return so far (the core's)."""
        return [float(r) for r in self.boardsim_state.returns()]

    def rewards(self) -> list[float]:
        """What each player received since the last decision (that decision and the chance
        events after it); their sum over the decisions and the end is the return."""
        return [float(r) for r in self.boardsim_state.returns() - self._base]

    def _apply_action(self, action: int) -> None:
        st = self.boardsim_state
        actor = st.current_player()
        decision = not st.is_chance_node()
        if decision:
            self._base = st.returns()
        hands = self._hands
        before = hands.of(st.array) if hands is not None and decision else None
        st.apply_action(int(action))
        if before is not None:
            # a decision moves cards between hands and the table only in the open (the
            # kinds named by the actions, a tucked card taken back, an attack's cards): no
            # decision draws, every draw being a chance node, whose cards stay hidden
            change = hands.of(st.array) - before
            self._shown += np.maximum(-change, 0)
            self._known = np.maximum(self._known + change, 0)
        mine = b"a%d" % int(action)
        self._aoh = [
            _digest(h, mine if p == actor else b"", st.observation(p).tobytes())
            for p, h in enumerate(self._aoh)
        ]

    def __str__(self) -> str:
        return str(self.boardsim_state)

    # -- information
    def information_state_digest(self, player: int) -> str:
        """``player``'s action-observation history as a hex digest."""
        return self._aoh[player].hex()

    def resample_from_infostate(self, player: int, sampler: Any) -> OpenSpielState:
        """A state ``player`` cannot tell from this one: what it cannot see redealt by the
        game's ``determinize`` kernel, seeded from ``sampler`` (OpenSpiel's probability
        sampler, a callable giving a float in [0, 1))."""
        out = self.clone()
        st = out.boardsim_state
        g = st.game
        prng = np.zeros(2, np.int32)
        rng_seed(prng, 0, int(float(sampler()) * 2.0**62))
        g.kernels.determinize(st.array, g.params, int(player), prng)
        root = self._aoh[player]
        out._aoh = [
            root if q == player else _digest(b"resampled", root, st.observation(q).tobytes())
            for q in range(g.num_players)
        ]
        return out


class BoardsimObserver:
    """OpenSpiel's ``PyObserver`` interface over the library's observations (see the
    module's docstring for the two observation types it provides)."""

    def __init__(self, game: Game, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"boardsim observers take no parameters; got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        own = (
            iig_obs_type.public_info
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        )
        if not own:
            raise ValueError(
                f"{game.name}: observation type {iig_obs_type} is not provided; boardsim "
                "provides the player's own observation (public_info=True, private_info="
                "SINGLE_PLAYER), with perfect_recall=False (a tensor and a string) or True "
                "(the information state: a string)"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.dict: dict[str, np.ndarray]
        if self.perfect_recall:
            if not _has_information_tensor(game.definition):
                self.tensor = None
                self.dict = {}
            else:
                self.tensor = np.zeros(information_state_size(game), np.float32)
                self.dict = {"info_state": self.tensor}
            self._words = _position_words(game.state_size)
            self._split = int(game.observation_size)
        else:
            self.tensor = np.zeros(game.observation_size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        """Write ``player``'s observation of ``state``, or its information state (the
        module's docstring), into ``tensor``."""
        if self.tensor is None:
            return
        st = state.boardsim_state
        if not self.perfect_recall:
            self.tensor[:] = st.observation(player)
            return
        cut = self._split
        self.tensor[:cut] = st.observation(player)
        if st.game.definition.perfect_information:
            self.tensor[cut:] = st.array[self._words]
            return
        # the hands' public record, players listed from ``player`` on (as the observation)
        n = st.game.num_players
        rows, kinds = state._shown.shape
        order = [(player + j) % n for j in range(n)]
        shown = np.zeros((rows, kinds), np.float32)
        known = np.zeros((rows, kinds), np.float32)
        shown[:n] = state._shown[order]
        known[:n] = state._known[order]
        self.tensor[cut : cut + rows * kinds] = shown.ravel()
        self.tensor[cut + rows * kinds :] = known.ravel()

    def string_from(self, state: OpenSpielState, player: int) -> str:
        """``player``'s observation (its non-zero entries) or information state (a digest
        of its action-observation history) as a string."""
        if self.perfect_recall:
            return f"p{player} aoh:{state.information_state_digest(player)}"
        obs = state.boardsim_state.observation(player)
        nz = np.flatnonzero(obs)
        return f"p{player} " + " ".join(f"{i}:{float(obs[i])!r}" for i in nz)


class BoardsimBot(pyspiel.Bot):
    """One of the library's agents as an OpenSpiel bot, for OpenSpiel's states of its game:
    ``agent`` any agent of :mod:`boardsim.agents` (``load("heuristic", game.boardsim_game)``,
    ``"mcts:200"``, a network...), one with ``act_state(state)`` (``needs_state``) or
    ``act(observation, action_mask, state)``; it reads only what the player to move may
    know, as in the library's own envs."""

    def __init__(self, game: OpenSpielGame, agent: Any) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game, OpenSpielGame):
            raise TypeError(f"BoardsimBot plays boardsim games loaded in OpenSpiel, not {game}")
        if not (hasattr(agent, "act_state") or hasattr(agent, "act")):
            raise TypeError(
                f"BoardsimBot needs an agent with act_state() or act() (boardsim.agents.load("
                f"spec, game.boardsim_game)), got {agent!r}"
            )
        self.agent = agent

    def step(self, state: OpenSpielState) -> int:
        """The agent's action for the player to move in ``state``."""
        st = state.boardsim_state
        if getattr(self.agent, "needs_state", False):
            return int(self.agent.act_state(st))
        obs = st.observation(st.current_player())
        return int(self.agent.act(obs, st.legal_actions_mask(), st))

    def restart_at(self, state: OpenSpielState) -> None:
        """Nothing to forget: the agent decides from the position alone."""

    def inform_action(self, state: OpenSpielState, player_id: int, action: int) -> None:
        """Nothing to record."""


class RolloutEvaluator(_mcts.Evaluator):
    """An evaluator for OpenSpiel's ``MCTSBot`` and ``ISMCTSBot`` that plays each leaf out
    in the library's own code, not through OpenSpiel's states: ``policy`` ``"heuristic"``
    (the game's compiled rule-based player; short, informed games) or ``"random"``
    (uniform over the legal actions, as OpenSpiel's ``RandomRolloutEvaluator``), dice and
    draws from their distribution, ``n_rollouts`` times; the value is the mean return.
    The prior is uniform over the legal actions (the outcomes' probabilities at chance)."""

    def __init__(self, policy: str = "heuristic", n_rollouts: int = 1, seed: int | None = None):
        if policy not in ("heuristic", "random"):
            raise ValueError(f"policy {policy!r}; choose 'heuristic' or 'random'")
        if isinstance(n_rollouts, bool) or not isinstance(n_rollouts, int) or n_rollouts < 1:
            raise ValueError(f"n_rollouts must be a positive int, got {n_rollouts!r}")
        self.policy = policy
        self.n_rollouts = n_rollouts
        self._rng = np.random.default_rng(seed)
        self._prng = np.zeros(2, np.int32)
        rng_seed(self._prng, 0, int(self._rng.integers(0, 2**62)))

    def evaluate(self, state: OpenSpielState) -> np.ndarray:
        """The mean of ``n_rollouts`` play-outs' returns from ``state``."""
        total = np.zeros(state.get_game().num_players())
        for _ in range(self.n_rollouts):
            total += self._play_out(state.boardsim_state.clone())
        return total / self.n_rollouts

    def _play_out(self, st: State) -> np.ndarray:
        g = st.game
        mask = np.zeros(g.num_actions, np.uint8)
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes, probs = zip(*st.chance_outcomes(), strict=True)
                action = int(outcomes[self._rng.choice(len(outcomes), p=probs)])
            elif self.policy == "heuristic":
                action = int(g.kernels.heuristic_action(st.array, g.params, mask, self._prng))
            else:
                action = int(self._rng.choice(np.flatnonzero(st.legal_actions_mask())))
            st.apply_unchecked(action)
        return st.returns()

    def prior(self, state: OpenSpielState) -> list[tuple[int, float]]:
        """Uniform over the legal actions; at a chance node, the outcomes' probabilities."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def seeded_resampler(seed: int) -> Callable[[OpenSpielState, int], OpenSpielState]:
    """A resampler for OpenSpiel's ``ISMCTSBot`` (``bot._resampler_cb``) that redeals each
    world from a generator seeded with ``seed``, where the bot's own draws from an
    unseeded ``pyspiel.UniformProbabilitySampler`` and differs from run to run."""
    rng = np.random.default_rng(checked_seed(seed))

    def resample(state: OpenSpielState, player: int) -> OpenSpielState:
        return state.resample_from_infostate(player, rng.random)

    return resample


def load_game(game: str, **options: Any) -> Any:
    """``pyspiel.load_game(openspiel_name(game), options)``: the OpenSpiel game of ``game``
    with ``options`` (as :func:`boardsim.make_game` takes them; :func:`to_parameter`)."""
    if game not in names():
        raise OptionError(f"unknown game {game!r}; choose one of {', '.join(names())}")
    params = {k: to_parameter(v) for k, v in options.items()}
    return pyspiel.load_game(openspiel_name(game), params)


def _game_class(name: str) -> type[OpenSpielGame]:
    """The class OpenSpiel makes game ``name`` with (a class, not a closure: OpenSpiel
    keeps its factories until the interpreter has finalized, and dropping a function
    then aborts it)."""
    return type(f"OpenSpielGame_{name}", (OpenSpielGame,), {"game_name": name})


def register_games() -> list[str]:
    """Register every game found with OpenSpiel (once; safe to call again); returns their
    OpenSpiel names. A game whose definition declares no payoffs is left out."""
    done = []
    registered = set(pyspiel.registered_names())
    for name in names():
        d = definition(name)
        if d.payoffs is None:
            continue
        if openspiel_name(name) not in registered:
            pyspiel.register_game(game_type(d), _game_class(name))
        done.append(openspiel_name(name))
    return done


register_games()
