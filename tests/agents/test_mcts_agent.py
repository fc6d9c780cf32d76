"""The MCTS agent as a player sees it: legal moves, the state left alone, repeatable with a
seed, options checked, and the env interface (``act`` with ``state=``)."""

from __future__ import annotations

import numpy as np
import pytest

import boardsim
from boardsim.agents import load
from boardsim.agents.mcts import MCTSAgent
from boardsim.core.errors import OptionError

GAMES = [("liberation", {"num_players": 3}), ("farrapos", {}), ("hispania", {})]


@pytest.fixture(scope="module", params=GAMES, ids=[g for g, _ in GAMES])
def game(request: pytest.FixtureRequest) -> boardsim.Game:
    name, options = request.param
    return boardsim.make_game(name, **options)


def play(game: boardsim.Game, agent: MCTSAgent, decisions: int, seed: int = 3) -> list[int]:
    """``decisions`` moves of the agent (every seat) from game ``seed``; checks each move."""
    state = game.new_initial_state(seed)
    moves = []
    for _ in range(decisions):
        if state.is_terminal():
            break
        before = state.array.copy()
        mask = state.legal_actions_mask()
        a = agent.act_state(state)
        assert mask[a], f"illegal move {a} ({state.action_to_string(a)})"
        assert np.array_equal(state.array, before), "the search changed the given state"
        moves.append(a)
        state.apply_action(a)
    return moves


def test_moves_are_legal_the_state_is_untouched_and_a_seed_repeats(game: boardsim.Game) -> None:
    first = play(game, load("mcts:12", game, seed=5), 12)
    again = play(game, load("mcts:12", game, seed=5), 12)
    assert len(first) >= 5 and first == again


def test_act_needs_the_state_and_matches_the_mask(game: boardsim.Game) -> None:
    agent = load("mcts:8", game, seed=0)
    state = game.new_initial_state(1)
    obs = state.observation(state.current_player())
    mask = state.legal_actions_mask()
    with pytest.raises(TypeError, match="state="):
        agent.act(obs, mask)
    a = agent.act(obs, mask, state=state)
    assert mask[a]
    assert agent.needs_state


def test_search_statistics_cover_the_simulations(game: boardsim.Game) -> None:
    agent = MCTSAgent(game, seed=1, simulations=40)
    state = game.new_initial_state(2)
    while len(state.legal_actions()) < 2:  # a real choice (a forced move is not searched)
        state.apply_action(state.legal_actions()[0])
    a = agent.act_state(state)
    visits, values = agent.root_statistics()
    assert visits.sum() == 40
    assert visits[a] == visits.max()
    assert set(np.flatnonzero(visits)) <= set(state.legal_actions())
    assert np.all(np.abs(values) <= 1.0 + 1e-9)


@pytest.mark.parametrize("spec", ["mcts:0", "mcts:-3", "mcts:abc", "mcts:2.5", "mcts: "])
def test_bad_simulation_counts_are_refused(spec: str) -> None:
    game = boardsim.make_game("liberation", num_players=2)
    with pytest.raises(OptionError, match="simulations"):
        load(spec, game)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"c_uct": -1.0}, "c_uct"),
        ({"c_uct": float("nan")}, "c_uct"),
        ({"rollout": "greedy"}, "rollout"),
        ({"rollout_depth": -2}, "rollout_depth"),
        ({"rollout_depth": 1.5}, "rollout_depth"),
        ({"temperature": 1.0}, "unknown option"),
        ({"simulations": True}, "simulations"),
        ({"prior": -0.5}, "prior"),
        ({"prior": float("inf")}, "prior"),
        ({"prior": "1"}, "prior"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], words: str) -> None:
    game = boardsim.make_game("liberation", num_players=2)
    with pytest.raises(OptionError, match=words):
        MCTSAgent(game, **options)


def test_the_spec_and_an_option_cannot_both_set_the_simulations() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    with pytest.raises(OptionError, match="twice"):
        load("mcts:10", game, simulations=20)
    assert load("mcts", game, simulations=20).simulations == 20
    assert load("mcts", game).simulations == 200


def test_a_spec_carries_the_search_s_settings_after_its_budget() -> None:
    farrapos = boardsim.make_game("farrapos")  # its own: c_uct 0.5, heuristic rollouts, prior 5
    agent = load("mcts:80:prior=0:rollout=random:rollout_depth=-1:c_uct=1.4", farrapos)
    assert agent.settings == {
        "simulations": 80,
        "c_uct": 1.4,
        "rollout": "random",
        "rollout_depth": -1,
        "prior": 0.0,
    }
    # its compiled seat is named by what differs from the game's own settings
    assert agent.compiled_seat().label == (
        "mcts:80:c_uct=1.4:rollout=random:rollout_depth=-1:prior=0.0"
    )
    assert load("mcts:80:prior=5", farrapos).compiled_seat().label == "mcts:80"
    # the setting plays: no prior, the search does not expand the heuristic's move first
    state = farrapos.new_initial_state(1)
    plain = load("mcts:40:prior=0", farrapos, seed=1)
    assert plain.prior == 0.0 and plain.act_state(state) in state.legal_actions()


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("mcts:80:prior", "'prior' is not a setting"),
        ("mcts:80:depth=3", "'depth=3' is not a setting"),
        ("mcts:80:prior=", "is not a setting"),
        ("mcts:80:prior=much", "prior must be a number"),
        ("mcts:80:rollout_depth=1.5", "rollout_depth must be a whole number"),
        ("mcts:80:prior=1:prior=2", "prior given twice"),
        ("mcts:80:rollout=greedy", "rollout must be one of"),
        ("mcts:80:c_uct=-1", "c_uct must be a finite number"),
    ],
)
def test_a_spec_s_bad_settings_are_refused_by_name(spec: str, words: str) -> None:
    game = boardsim.make_game("liberation", num_players=2)
    with pytest.raises(OptionError, match=words):
        load(spec, game)
    with pytest.raises(OptionError, match="prior given twice"):
        load("mcts:10:prior=1", game, prior=2.0)


def test_no_decision_to_search_is_a_clear_error() -> None:
    game = boardsim.make_game("liberation", num_players=2, explicit_chance=True)
    state = game.new_initial_state(0)
    assert state.is_chance_node()
    with pytest.raises(ValueError, match="chance"):
        load("mcts:5", game).act_state(state)
    other = boardsim.make_game("farrapos").new_initial_state(0)
    with pytest.raises(ValueError, match="plays liberation"):
        load("mcts:5", game).act_state(other)


def test_the_heuristic_prior_expands_the_heuristics_move_first(game: boardsim.Game) -> None:
    """With ``prior > 0`` the first simulation goes through the heuristic's move; with 0 the
    search is plain UCT (the move expanded first is drawn at random)."""
    state = game.new_initial_state(2)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    mask = np.zeros(game.num_actions, np.uint8)
    wanted = game.kernels.heuristic_action(
        state.array.copy(), game.params, mask, np.ones(2, np.int32)
    )
    for seed in range(3):
        agent = MCTSAgent(game, seed=seed, simulations=1, prior=1.0)
        agent.act_state(state)
        visits, _ = agent.root_statistics()
        assert visits[wanted] == 1 and visits.sum() == 1
    assert MCTSAgent(game, prior=0).prior == 0.0
