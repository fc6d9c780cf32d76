"""The conformance checks every game passes: the built-in ones and a plugin's.

They use only the generic engine and the ``Game``/``State`` API, so they hold for any
game found by :mod:`boardsim.games`. A new game's tests call :func:`check_game`
(``docs/adding-a-game.md``)::

    from boardsim.testing import check_game

    def test_conformance():
        check_game("connect_four")

Each ``check_*`` function can also be called on its own; every one raises
``AssertionError`` saying what does not hold.
"""

from __future__ import annotations

import json
import struct
import warnings
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from boardsim.agents import load
from boardsim.api import make_env, make_game, make_gym_env, make_vec_env
from boardsim.core.batch import Batch, play_games, threads_used
from boardsim.core.errors import StateFormatError
from boardsim.core.game import SAVE_MAGIC, Game, GameDefinition, State, action_family_problems
from boardsim.core.rng import py_derive_seed
from boardsim.render import to_rgb_array, to_svg
from boardsim.wrappers.spaces import observation_bounds

DEFAULT_LIMIT = 5_000  # decisions a random game of the checks may take before it is cut


def _limited(game_name: str, options: Mapping[str, Any], limit: int) -> Game:
    opts = dict(options)
    opts.setdefault("max_decisions", limit)
    return make_game(game_name, **opts)


class NoDecisionLimitWarning(UserWarning):
    """A game declares no ``decision_limit``: ``max_decisions`` defaults to 0 (never), so an
    episode whose players loop (choose and cancel, or roll and pass for ever) never ends."""


def no_decision_limit(definition: GameDefinition) -> str | None:
    """What :func:`check_game` warns of when ``definition`` has no ``decision_limit``, else
    None."""
    if definition.decision_limit:
        return None
    return (
        f"game {definition.name!r} declares no decision_limit: max_decisions defaults to 0 "
        "(no limit) and boardsim info shows 'decision limit: none', so an episode whose "
        "players never finish (a choose-and-cancel loop, a race nobody wins) never ends "
        "and a training loop waiting for it hangs. Measure the game's lengths "
        "(python scripts/decision_lengths.py GAME) and set GameDefinition.decision_limit "
        "well above the longest (docs/adding-a-game.md, section 7)"
    )


def check_definition(game: Game) -> None:
    """Sizes, players, agents, options and action families agree with one another."""
    d = game.definition
    assert d.name and d.title, "a game needs a name and a title"
    assert 1 <= game.num_players <= game.max_players, (game.num_players, game.max_players)
    assert len(game.agent_names()) >= 1
    assert game.params.dtype == np.int32 and game.params[0] == game.num_players
    for name in ("state_size", "num_actions", "observation_size", "max_chance_outcomes"):
        assert getattr(game, name) >= 1, f"{name} must be positive"
    for option in d.options:
        assert option.doc, f"option {option.name} has no description"
    problems = action_family_problems(d.action_families, game.num_actions)
    assert not problems, "; ".join(problems)


def check_random_games(game: Game, games: int = 3, seed: int = 0) -> None:
    """Random games from fresh seeds: masks and legal actions agree, a legal action exists
    until the end, observations are finite float32 of the declared size, every decision
    can be described, clones replay identically, saved states load back, the game's
    validator accepts every position (and refuses a five-word array), every player's
    observation lies within the envs' bounds (:func:`check_observation_bounds`), and the
    game ends (or is cut by ``max_decisions``) with finite returns, within the
    definition's ``payoffs`` where it declares them (:func:`check_payoffs`)."""
    _assert_refused(game, np.zeros(5, np.int32), "a five-word array")
    bounds = observation_bounds(game)
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = game.new_initial_state(seed + g)
        again = game.new_initial_state(seed + g)
        assert state == again, "the same seed must give the same game"
        steps = 0
        while not state.is_terminal():
            _check_position(game, state, bounds)
            legal = state.legal_actions()
            assert legal, f"no legal action at decision {steps} of a live game"
            action = int(rng.choice(legal))
            if steps % 17 == 0:
                clone = state.clone()
                clone.apply_action(action)
                state.apply_action(action)
                assert clone == state, "a clone must replay the same action identically"
            else:
                state.apply_action(action)
            steps += 1
            check_payoffs(game, state)
        _assert_accepted(game, state)
        check_observation_bounds(game, state, bounds)
        returns = state.returns()
        assert returns.shape == (game.num_players,) and np.all(np.isfinite(returns))
        assert state.legal_actions_mask().sum() == 0, "a finished game has no legal action"


def check_payoffs(game: Game, state: State) -> None:
    """``state``'s returns are what the definition's ``payoffs`` say of them (nothing to
    check when it declares none): within ``[low, high]``, adding up to 0 (zero-sum) or to
    ``total`` (constant-sum), equal (identical), and all 0 before the end unless dense.
    Other libraries' game descriptions (OpenSpiel's utility range and kind) are these."""
    if game.definition.payoffs is None:
        return
    pay = game.definition.payoffs(game.options)
    returns = state.returns()
    eps = 1e-6
    assert np.all(returns >= pay.low - eps) and np.all(returns <= pay.high + eps), (
        f"returns {returns} outside the declared payoffs [{pay.low}, {pay.high}]"
    )
    if pay.kind in ("zero_sum", "constant_sum"):
        assert abs(returns.sum() - pay.total) < eps, f"{pay.kind} returns {returns}"
    if pay.kind == "identical":
        assert np.all(np.abs(returns - returns[0]) < eps), f"identical returns {returns}"
    if not pay.dense and not state.is_terminal():
        assert not np.any(returns), f"terminal payoffs, yet {returns} before the end"


def _assert_accepted(game: Game, state: State) -> None:
    try:
        game.check_array(state.array.copy())
    except StateFormatError as exc:
        raise AssertionError(
            f"a position of real play is refused by the validator: {exc}"
        ) from None


def _assert_refused(game: Game, array: np.ndarray, what: str) -> None:
    try:
        game.check_array(array)
    except StateFormatError:
        return
    raise AssertionError(f"{what} is accepted as a state")


def check_observation_bounds(
    game: Game, state: State, bounds: tuple[np.ndarray, np.ndarray] | None = None
) -> None:
    """Every player's observation of ``state`` lies within ``bounds`` (default: the
    envs' :func:`~boardsim.wrappers.spaces.observation_bounds`, what the game declares),
    so that the envs' ``Box`` contains it."""
    low, high = bounds if bounds is not None else observation_bounds(game)
    for player in range(game.num_players):
        obs = state.observation(player)
        outside = np.flatnonzero((obs < low) | (obs > high))
        if outside.size:
            f = int(outside[0])
            raise AssertionError(
                f"{game!r}, decision {state.decisions()}: feature {f} of player {player}'s "
                f"observation is {obs[f]}, outside its bounds [{low[f]}, {high[f]}] "
                f"({outside.size} features outside)"
            )


def _check_position(
    game: Game, state: State, bounds: tuple[np.ndarray, np.ndarray] | None = None
) -> None:
    _assert_accepted(game, state)
    check_observation_bounds(game, state, bounds)
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node must have outcomes"
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9, "chance probabilities sum to 1"
        return
    mask = state.legal_actions_mask()
    assert mask.dtype == np.uint8 and mask.shape == (game.num_actions,)
    assert list(np.flatnonzero(mask)) == state.legal_actions()
    player = state.current_player()
    assert 0 <= player < game.num_players, f"player to move {player} out of range"
    obs = state.observation(player)
    assert obs.dtype == np.float32 and obs.shape == (game.observation_size,)
    assert np.all(np.isfinite(obs)), "observations must be finite"
    for a in state.legal_actions()[:5]:
        assert isinstance(state.action_to_string(a), str)
    if state.decisions() % 23 == 0:
        loaded = game.state_from_bytes(state.to_bytes())
        assert loaded == state, "a saved state must load back equal"
    assert str(state)


def check_explicit_chance(game_name: str, options: Mapping[str, Any] = {}, seed: int = 3) -> None:
    """With ``explicit_chance=True`` the chance player acts; drawing its outcomes by their
    probabilities plays whole games too."""
    game = _limited(game_name, {**options, "explicit_chance": True}, DEFAULT_LIMIT)
    bounds = observation_bounds(game)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=np.asarray(probs))))
        else:
            _check_position(game, state, bounds)
            state.apply_action(int(rng.choice(state.legal_actions())))


def assert_batch_equals_single(
    game: Game, num_envs: int = 4, steps: int = 300, seed: int = 77
) -> None:
    """Rows of a multi-agent batch (``seat=-1``) equal single games, masks and restarts included.

    Row ``i`` plays game ``derive_seed(seed, k)`` for the game number ``k`` the
    batch gives it; random legal actions are drawn from the batch's masks.
    """
    batch = Batch(game, num_envs, seat=-1, seed=seed)
    singles = [game.new_initial_state(py_derive_seed(seed, i)) for i in range(num_envs)]
    rng = np.random.default_rng(seed)
    for step in range(steps):
        for i, single in enumerate(singles):
            assert np.array_equal(batch.states[i], single.array), (step, i)
            assert np.array_equal(batch.masks[i], single.legal_actions_mask()), (step, i)
        actions = np.argmax(batch.masks * rng.random(batch.masks.shape), axis=1)
        batch.step(actions)
        for i, single in enumerate(singles):
            single.apply_action(int(actions[i]))
            done = single.is_terminal()
            assert done == bool(batch.terminated[i] or batch.truncated[i]), (step, i)
            if done:
                singles[i] = game.new_initial_state(py_derive_seed(seed, int(batch.game_index[i])))


def assert_rollout_thread_invariant(
    game: Game, num_envs: int = 5, steps: int = 700, seed: int = 4
) -> None:
    """The compiled random rollout ends in the same states on 1 and on 2 threads."""
    finals = []
    for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
        states = np.zeros((num_envs, game.state_size), np.int32)
        decisions = np.zeros(num_envs, np.int64)
        games = np.zeros(num_envs, np.int64)
        with threads_used(threads):
            game.engine.rollout_random(states, game.params, steps, seed, decisions, games)
        finals.append((states, decisions, games))
    for a, b in zip(finals[0], finals[-1], strict=True):
        assert np.array_equal(a, b)
    assert int(finals[0][1].sum()) == num_envs * steps


def check_compiled_players(game: Game, games: int = 4, seed: int = 5) -> None:
    """The compiled random and heuristic players finish whole games, the heuristic picks
    legal actions, and a small MCTS search picks a legal action."""
    for policies in ("random", "heuristic"):
        out = play_games(game, games, policies, seed=seed)
        assert out["returns"].shape == (games, game.num_players)
        assert np.all(np.isfinite(out["returns"]))
    state = game.new_initial_state(seed)
    heuristic = load("heuristic", game, seed=seed)
    search = load("mcts:16", game, seed=seed)
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        legal = state.legal_actions()
        obs = state.observation(state.current_player())
        mask = state.legal_actions_mask()
        assert heuristic.act(obs, mask, state=state) in legal, "the heuristic played illegally"
        choice = search.act(obs, mask, state=state)
        assert choice in legal, "MCTS played illegally"
        state.apply_action(choice)


NO_LIMIT_CAP = 100_000  # decisions a game without a decision limit may take in the checks


@dataclass(frozen=True)
class TurnLengths:
    """One game played by a deterministic player: its decisions, its longest turn (in
    decisions, when the game numbers its turns) and whether it was truncated."""

    decisions: int
    longest_turn: int
    truncated: bool


def play_turns(game: Game, pick: Callable[[list[int]], int], seed: int = 0) -> TurnLengths:
    """Play one game of ``game`` (its own options, so its decision limit) with ``pick``
    choosing every decision and chance outcome (``min``: the first legal, ``max``: the
    last) and measure its turns (``GameDefinition.turn_of``). Refuses a turn longer than
    the game's ``max_turn_decisions`` and a game longer than its limit as soon as they
    happen, so a stalling player fails instead of looping."""
    d = game.definition
    bound = d.max_turn_decisions if d.turn_of is not None else 0
    cap = int(game.options["max_decisions"]) or NO_LIMIT_CAP
    state = game.new_initial_state(seed)
    key = d.turn_of(state.array) if d.turn_of is not None else 0
    run = longest = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(pick([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(pick(state.legal_actions()))
            run += 1
            assert state.decisions() <= cap, f"{game!r}: not over after {cap} decisions"
        now = d.turn_of(state.array) if d.turn_of is not None else key
        longest = max(longest, run)
        assert not bound or run <= bound, (
            f"{game!r}, seed {seed}: a turn took more than {bound} decisions "
            f"(max_turn_decisions) at decision {state.decisions()}"
        )
        if now != key:
            key, run = now, 0
    return TurnLengths(state.decisions(), longest, state.is_truncated())


def check_turn_bounds(game_name: str, options: Mapping[str, Any] = {}, seed: int = 0) -> None:
    """The first-legal and the last-legal player, in every seat, end every turn within the
    game's ``max_turn_decisions`` (no choose-and-cancel or add-and-withdraw cycle inside a
    turn), and end the game by its rules or at its default decision limit (truncated)."""
    game = make_game(game_name, **options)
    for pick in (min, max):
        out = play_turns(game, pick, seed)
        limit = int(game.options["max_decisions"])
        assert not out.truncated or out.decisions == limit, (out, limit)


# what Gymnasium's and PettingZoo's checkers warn of an observation space without bounds
# (or with a feature whose low is its high, or an observation outside its space): an error
# here where the game declares its bounds
BOUNDS_WARNINGS = (
    r".*observation space (minimum|maximum) value is -?infinity",
    r".*observation space maximum and minimum values are equal",
    r".*is not within the observation space",
)


def check_envs(game_name: str, options: Mapping[str, Any] = {}, cycles: int = 60) -> None:
    """PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's ``check_env``, and a short
    run of the vector env with its masks; where the game declares its observation's
    bounds (or its observation is binary), a checker's warning of an unbounded space or
    of an observation outside it fails the check."""
    opts = {"max_decisions": DEFAULT_LIMIT, **options}
    d = make_game(game_name, **opts).definition
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if d.observation_bounds is not None or d.binary_observation:
            for pattern in BOUNDS_WARNINGS:
                warnings.filterwarnings("error", message=pattern)
        api_test(make_env(game_name, **opts), num_cycles=cycles)
        seed_test(lambda: make_env(game_name, **opts), num_cycles=cycles)
        check_env(make_gym_env(game_name, illegal_action="terminate", **opts).unwrapped)
    venv = make_vec_env(game_name, 4, threads=1, **opts)
    venv.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(cycles):
        masks = venv.action_masks()
        assert masks.shape == (4, venv.single_action_space.n) and masks.any(axis=1).all()
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        obs, _, _, _, _ = venv.step(actions)
        assert obs.shape[0] == 4


def check_picture(game: Game, seed: int = 2) -> None:
    """A position draws as an SVG document and an RGB frame (the text board at least)."""
    state = game.new_initial_state(seed)
    frame = to_rgb_array(game, state)
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert "<svg" in str(to_svg(game, state))


CHECKS: tuple[str, ...] = (
    "definition",
    "random games",
    "explicit chance",
    "batch equals single",
    "thread invariance",
    "compiled players",
    "envs",
    "picture",
    "turn bounds",
)


def check_game(
    game_name: str,
    options: Mapping[str, Any] | None = None,
    skip: tuple[str, ...] = (),
    report: Callable[[str], None] | None = None,
) -> list[str]:
    """Run every conformance check (:data:`CHECKS`, less ``skip``) on ``game_name`` with
    ``options``; returns the names of the checks that ran. ``report(name)`` is called
    before each. A game without a ``decision_limit`` gets a
    :class:`NoDecisionLimitWarning`: its episodes may never end."""
    unknown = sorted(set(skip) - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown checks {unknown}; checks: {', '.join(CHECKS)}")
    opts = dict(options or {})
    game = _limited(game_name, opts, DEFAULT_LIMIT)
    warning = no_decision_limit(game.definition)
    if warning is not None:
        warnings.warn(NoDecisionLimitWarning(warning), stacklevel=2)
    runs: dict[str, Callable[[], None]] = {
        "definition": lambda: check_definition(game),
        "random games": lambda: check_random_games(game),
        "explicit chance": lambda: check_explicit_chance(game_name, opts),
        "batch equals single": lambda: assert_batch_equals_single(game, steps=120),
        "thread invariance": lambda: assert_rollout_thread_invariant(game, steps=300),
        "compiled players": lambda: check_compiled_players(game),
        "envs": lambda: check_envs(game_name, opts),
        "picture": lambda: check_picture(game),
        "turn bounds": lambda: check_turn_bounds(game_name, opts),
    }
    done = []
    for name in CHECKS:
        if name in skip:
            continue
        if report is not None:
            report(name)
        runs[name]()
        done.append(name)
    return done


def saved_without(data: bytes, game: Game, names: tuple[str, ...]) -> bytes:
    """``data`` (``State.to_bytes``) as the library wrote it before options ``names``
    existed: its options header without them, the checksum made again (for the tests
    that a save from before an option loads by its default)."""
    body = data[len(SAVE_MAGIC) : -4]
    now = json.dumps(game.options, sort_keys=True).encode()
    kept = {k: v for k, v in game.options.items() if k not in names}
    then = json.dumps(kept, sort_keys=True).encode()
    at = body.index(now)
    body = body[: at - 4] + struct.pack("<I", len(then)) + then + body[at + len(now) :]
    return SAVE_MAGIC + body + struct.pack("<I", zlib.crc32(body))
