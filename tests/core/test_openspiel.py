"""Every game inside OpenSpiel (issue 35), checked by OpenSpiel's own tests:
``pyspiel.random_sim_test`` with serialisation on each game and several option sets,
``MCTSBot`` through a whole game of each, ``ISMCTSBot`` through a whole race; and where
OpenSpiel and the library could disagree (an observation, a return, a chance
distribution, the hidden hands), that they do not."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import numpy as np
import pytest

import boardsim
from boardsim.agents import load as load_agent
from boardsim.core.game import Payoffs

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from boardsim.wrappers import openspiel as bo  # noqa: E402

# (game, options): each game's defaults, its dense reward, more players, a scenario whose
# level goes through the game string; the longer ones are slow
QUICK = [
    ("farrapos", {}),
    ("farrapos", {"reward": "vp_difference", "siege": True, "port_transport": True}),
    ("hispania", {"hispano": True, "reward": "progress"}),
    ("liberation", {"num_players": 2}),
]
SLOW = [
    ("hispania", {}),
    ("hispania", {"scenario": "numantia", "level": "6-4-3-4-3", "terror": True}),
    ("liberation", {"num_players": 4}),
    ("liberation", {"num_players": 3, "reward": "vt", "counters": 12}),
    ("farrapos", {"move_destinations": "several", "final_tie": "empire"}),
]


def load(game: str, options: dict[str, Any]) -> Any:
    return bo.load_game(game, **options)


def test_every_game_is_registered_with_its_facts() -> None:
    registered = set(pyspiel.registered_names())
    for game in boardsim.list_games():
        assert bo.openspiel_name(game) in registered
    race = pyspiel.load_game("boardsim_liberation(num_players=4)")
    kind = race.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (kind.min_num_players, kind.max_num_players) == (2, 6)
    assert race.num_players() == 4 and race.max_game_length() == 41_000
    war = pyspiel.load_game("boardsim_farrapos")
    assert war.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert war.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert war.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    dense = bo.load_game("farrapos", reward="vp_difference")
    assert dense.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert dense.max_utility() > 1.0
    rome = bo.load_game("hispania")
    assert rome.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    assert bo.load_game("hispania", hispano=True).num_players() == 4
    # an option whose default follows another's follows it (not frozen at its default)
    assert bo.load_game("farrapos", move_destinations="several").max_game_length() == 4000


@pytest.mark.parametrize(("game", "options"), QUICK, ids=lambda x: str(x))
def test_openspiel_random_sim_test(game: str, options: dict[str, Any]) -> None:
    pyspiel.random_sim_test(load(game, options), num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), SLOW, ids=lambda x: str(x))
def test_openspiel_random_sim_test_more_options(game: str, options: dict[str, Any]) -> None:
    pyspiel.random_sim_test(load(game, options), num_sims=3, serialize=True, verbose=False)


def _play(game: Any, bots: list[Any], seed: int) -> Any:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize(
    ("game", "options", "simulations"),
    [("farrapos", {}, 4), ("hispania", {}, 4), ("liberation", {"num_players": 2}, 16)],
)
def test_openspiel_mcts_plays_a_whole_game(
    game: str, options: dict[str, Any], simulations: int
) -> None:
    spiel_game = load(game, options)
    rng = np.random.RandomState(1)
    evaluator = bo.RolloutEvaluator("heuristic", seed=1)
    bots = [
        mcts.MCTSBot(spiel_game, 2.0, simulations, evaluator, random_state=rng)
        for _ in range(spiel_game.num_players())
    ]
    end = _play(spiel_game, bots, 1)
    assert end.is_terminal()
    assert end.returns() == list(end.boardsim_state.returns())


@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_ismcts_plays_a_whole_race(players: int) -> None:
    # max_decisions: a race whose leader stalls it (no counters left, an attack that
    # would free one only helps the other) runs to the limit, and every leaf of every
    # search with it; a limit 3-5 times a whole game's length makes that a quick failure
    race = bo.load_game("liberation", num_players=players, max_decisions=2000)
    rng = np.random.RandomState(2)
    evaluator = bo.RolloutEvaluator("heuristic", seed=2)
    bots = [ismcts.ISMCTSBot(race, evaluator, 2.0, 16, random_state=rng) for _ in range(players)]
    for seat, bot in enumerate(bots):
        bot._resampler_cb = bo.seeded_resampler(10 + seat)
    end = _play(race, bots, 2)
    assert end.is_terminal() and not end.boardsim_state.is_truncated()


def test_a_seeded_resampler_makes_ismcts_searches_repeat() -> None:
    """OpenSpiel's ISMCTSBot draws its worlds from an unseeded sampler (the CI run of
    2026-12-04 played another race than the machine before it, one that stalled)."""

    def first_moves(seed: int | None) -> list[int]:
        race = bo.load_game("liberation", num_players=3)
        bot = ismcts.ISMCTSBot(
            race,
            bo.RolloutEvaluator("heuristic", seed=5),
            2.0,
            24,
            random_state=np.random.RandomState(5),
        )
        if seed is not None:
            bot._resampler_cb = bo.seeded_resampler(seed)
        rng = np.random.default_rng(5)
        state, moves = race.new_initial_state(), []
        while len(moves) < 8:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
            else:
                moves.append(bot.step(state))
                state.apply_action(moves[-1])
        return moves

    assert first_moves(3) == first_moves(3)


def test_observations_returns_and_chance_are_the_librarys() -> None:
    race = bo.load_game("liberation", num_players=3)
    state = race.new_initial_state()
    rng = np.random.default_rng(0)
    chance_seen = 0
    for _ in range(300):
        if state.is_terminal():
            break
        ours = state.boardsim_state
        for p in range(3):
            assert np.array_equal(state.observation_tensor(p), ours.observation(p))
        assert state.returns() == list(ours.returns())
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes == sorted(ours.chance_outcomes())
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            chance_seen += 1
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            assert state.legal_actions() == ours.legal_actions()
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert chance_seen > 0


def test_the_races_hidden_hands_stay_hidden() -> None:
    race = bo.load_game("liberation", num_players=3)
    state = race.new_initial_state()
    rng = np.random.default_rng(3)
    while state.is_chance_node() or state.current_player() != 0 or len(state.history()) < 40:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others_differ = False
    for _ in range(10):
        world = state.resample_from_infostate(0, sampler)
        # player 0 cannot tell the worlds apart: the same observation and information state
        assert world.observation_string(0) == state.observation_string(0)
        assert np.array_equal(world.observation_tensor(0), state.observation_tensor(0))
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.legal_actions() == state.legal_actions()
        seen_by_1 = world.observation_tensor(1)
        others_differ |= not np.array_equal(seen_by_1, state.observation_tensor(1))
    assert others_differ, "the other hands were never redealt"
    # and the information state is the history: another move, another string
    after = state.clone()
    after.apply_action(after.legal_actions()[0])
    assert after.information_state_string(0) != state.information_state_string(0)


def test_boardsim_agents_play_openspiel_bots_in_evaluate_bots() -> None:
    war = pyspiel.load_game("boardsim_farrapos")
    heuristic = load_agent("heuristic", war.boardsim_game, seed=0)
    bots = [bo.BoardsimBot(war, heuristic), pyspiel.make_uniform_random_bot(1, 5)]
    returns = evaluate_bots.evaluate_bots(war.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == 2 and sum(returns) == 0.0


def test_bad_parameters_are_refused_clearly() -> None:
    with pytest.raises(Exception, match="max_decisions=0"):
        bo.load_game("farrapos", max_decisions=0)
    with pytest.raises(Exception, match="explicit_chance"):
        bo.load_game("farrapos", explicit_chance=False)
    with pytest.raises(Exception, match="Unknown parameter 'no_such_option'"):
        pyspiel.load_game("boardsim_farrapos(no_such_option=1)")
    with pytest.raises(boardsim.OptionError, match="reward='nope' is not allowed"):
        bo.load_game("farrapos", reward="nope")
    with pytest.raises(boardsim.OptionError, match="unknown game"):
        bo.load_game("chess")
    with pytest.raises(TypeError, match="act_state"):
        bo.BoardsimBot(pyspiel.load_game("boardsim_farrapos"), "heuristic")
    with pytest.raises(ValueError, match="not provided"):
        pyspiel.load_game("boardsim_farrapos").make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
            )
        )


def test_without_openspiel_the_bridge_says_how_to_install_it(monkeypatch: Any) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    spec = importlib.util.spec_from_file_location("bridge_without_pyspiel", bo.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with pytest.raises(ImportError, match=r"boardsim\[openspiel\]"):
        spec.loader.exec_module(module)


def test_payoffs_are_checked() -> None:
    with pytest.raises(ValueError, match="kind"):
        Payoffs(-1.0, 1.0, "zero")
    with pytest.raises(ValueError, match="low < high"):
        Payoffs(1.0, 1.0, "general_sum")


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("farrapos", {"reward": "vp_difference"}),
        ("liberation", {"reward": "vt"}),
        ("hispania", {"reward": "progress"}),
    ],
)
def test_dense_returns_are_the_sum_of_the_rewards_paid(game: str, options: dict[str, Any]) -> None:
    """OpenSpiel's invariant (returns = the rewards summed from the start), on the core:
    the rewards the envs pay (``State.last_rewards``) add up to ``State.returns()``."""
    made = boardsim.make_game(game, **options, max_decisions=400)
    state = made.new_initial_state(0)
    paid = np.zeros(made.num_players)
    rng = np.random.default_rng(0)
    assert np.allclose(state.returns(), paid)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
        paid += state.last_rewards[: made.num_players]
        assert np.allclose(state.returns(), paid, atol=1e-5)


def test_a_serialized_state_continues_identically() -> None:
    """``pyspiel.serialize_game_and_state`` goes through the state's own saved bytes (the
    pickled ``boardsim.State``): the loaded state is the same position, with the same
    information states (strings and tensors), and plays on identically."""
    race = bo.load_game("liberation", num_players=3, counters=12)
    state = race.new_initial_state()
    rng = np.random.default_rng(4)
    for _ in range(60):
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(race, state)
    game_again, again = pyspiel.deserialize_game_and_state(text)
    assert str(game_again) == str(race) and again.history() == state.history()
    assert again.boardsim_state == state.boardsim_state
    for _ in range(60):
        if state.is_terminal():
            break
        for p in range(3):
            assert again.information_state_string(p) == state.information_state_string(p)
            assert np.array_equal(
                again.information_state_tensor(p), state.information_state_tensor(p)
            )
            assert np.array_equal(again.observation_tensor(p), state.observation_tensor(p))
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        again.apply_action(action)
        assert again.rewards() == state.rewards() and again.returns() == state.returns()


def _random_walk(game: Any, seed: int, steps: int) -> Any:
    """States along one random play of ``game`` (chance from its distribution)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        yield state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize(("game", "options"), [("farrapos", {}), ("hispania", {"hispano": True})])
def test_a_perfect_information_state_tensor_is_the_position(
    game: str, options: dict[str, Any]
) -> None:
    """Different positions, different tensors (and the same position, the same tensor),
    over a few hundred positions of random play; the tensor starts with the observation."""
    spiel_game = load(game, options)
    assert spiel_game.get_type().provides_information_state_tensor
    size = spiel_game.information_state_tensor_size()
    words = bo._position_words(spiel_game.boardsim_game.state_size)
    seen: dict[bytes, bytes] = {}
    for seed in (0, 1):
        for state in _random_walk(spiel_game, seed, 200):
            ours = state.boardsim_state
            for p in range(spiel_game.num_players()):
                tensor = np.asarray(state.information_state_tensor(p), np.float32)
                assert tensor.shape == (size,)
                obs = ours.observation(p)
                assert np.array_equal(tensor[: obs.size], obs)
                key = bytes([p]) + tensor.tobytes()
                position = bytes([p]) + ours.array[words].tobytes()
                assert seen.setdefault(key, position) == position
    assert len(seen) > 300


def test_the_races_information_state_tensor_hides_the_other_hands() -> None:
    """The race's tensor: the observation, then per player (from the observer on) the cards
    seen leaving its hand and those it is known to hold, by kind. It never depends on a
    hand the player cannot see: redealing the others' hands leaves it as it was."""
    race = bo.load_game("liberation", num_players=3)
    assert race.get_type().provides_information_state_tensor
    obs_size = race.boardsim_game.observation_size
    hands = bo._hands(race.boardsim_game.definition)
    assert hands is not None
    block = hands.rows * hands.kinds
    assert race.information_state_tensor_size() == obs_size + 2 * block
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    shown_any = known_any = False
    for state in _random_walk(race, 5, 1500):
        held = hands.of(state.boardsim_state.array)
        # what is known to be held is held (a lower bound, never a guess)
        assert np.all(state._known <= held)
        tensors = [np.asarray(state.information_state_tensor(p)) for p in range(3)]
        for p in range(3):
            assert np.array_equal(tensors[p][:obs_size], state.observation_tensor(p))
            # players listed from the observer on: row 0 is p's own record
            mine = tensors[p][obs_size : obs_size + hands.kinds]
            assert np.array_equal(mine, state._shown[p])
        shown_any |= bool(state._shown.any())
        known_any |= bool(state._known.any())
        if len(state.history()) % 97 == 0 and not state.is_chance_node():
            for _ in range(3):
                world = state.resample_from_infostate(0, sampler)
                assert np.array_equal(world.information_state_tensor(0), tensors[0])
    assert shown_any and known_any, "the record was never filled"


def test_the_races_tensor_is_the_same_for_worlds_differing_in_an_opponents_hand() -> None:
    """Two states differing only in an opponent's hidden cards (one card of player 1's
    hand swapped for one of the pile) give player 0 the same information-state tensor."""
    race = bo.load_game("liberation", num_players=3)
    hands = bo._hands(race.boardsim_game.definition)
    assert hands is not None
    from boardsim.games.liberation import layout

    swapped = 0
    for state in _random_walk(race, 6, 400):
        if state.is_chance_node() or state.current_player() != 0:
            continue
        arr = state.boardsim_state.array
        held = hands.of(arr)[1]
        pile = arr[layout.PILE : layout.PILE + hands.kinds]
        have = np.flatnonzero(held > 0)
        free = np.flatnonzero(pile > 0)
        pairs = [(a, b) for a in have for b in free if a != b]
        if not pairs:
            continue
        a, b = pairs[0]
        other = state.clone()
        o = other.boardsim_state.array
        o[layout.HAND + hands.kinds + a] -= 1
        o[layout.HAND + hands.kinds + b] += 1
        o[layout.PILE + a] += 1
        o[layout.PILE + b] -= 1
        assert not np.array_equal(
            other.information_state_tensor(1), state.information_state_tensor(1)
        )
        assert np.array_equal(other.information_state_tensor(0), state.information_state_tensor(0))
        assert np.array_equal(other.information_state_tensor(2), state.information_state_tensor(2))
        swapped += 1
    assert swapped > 10
