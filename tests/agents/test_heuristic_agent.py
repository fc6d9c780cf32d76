"""The heuristic as an agent (``load("heuristic", game)``): the one interface of every
agent, playing whole games in the PettingZoo and Gymnasium envs, exactly as the
compiled loops play it."""

from __future__ import annotations

import numpy as np
import pytest

import boardsim
from boardsim.agents import load
from boardsim.agents.heuristic import HeuristicAgent
from boardsim.core.errors import OptionError

GAMES = [("liberation", {"num_players": 3}), ("farrapos", {}), ("hispania", {"hispano": True})]


@pytest.fixture(scope="module", params=GAMES, ids=[g for g, _ in GAMES])
def game(request: pytest.FixtureRequest) -> boardsim.Game:
    name, options = request.param
    return boardsim.make_game(name, **options)


def test_load_gives_the_heuristic_and_checks_its_arguments(game: boardsim.Game) -> None:
    agent = load("heuristic", game, seed=1)
    assert isinstance(agent, HeuristicAgent) and agent.needs_state
    with pytest.raises(OptionError):
        load("heuristic:3", game)
    with pytest.raises(OptionError):
        load("heuristic", game, depth=2)


def test_act_needs_the_state_and_a_decision_node(game: boardsim.Game) -> None:
    agent = load("heuristic", game)
    state = game.new_initial_state(0)
    obs = state.observation(state.current_player())
    with pytest.raises(TypeError, match="state="):
        agent.act(obs, state.legal_actions_mask())
    a = agent.act(obs, state.legal_actions_mask(), state=state)
    assert state.legal_actions_mask()[a]
    while not state.is_terminal():
        state.apply_action(agent.act_state(state))
    with pytest.raises(ValueError, match="decision nodes"):
        agent.act_state(state)
    other = boardsim.make_game("farrapos" if game.name != "farrapos" else "liberation")
    with pytest.raises(ValueError, match="cannot play"):
        agent.act_state(other.new_initial_state(0))


def test_the_agent_plays_as_the_compiled_loops_do(game: boardsim.Game) -> None:
    # the same prng words and state give the same action as the kernel the batch calls
    agent = HeuristicAgent(game, seed=4)
    state = game.new_initial_state(2)
    mask = np.zeros(game.num_actions, np.uint8)
    for _ in range(60):
        if state.is_terminal():
            break
        words = agent._prng.copy()
        expected = int(game.kernels.heuristic_action(state.array.copy(), game.params, mask, words))
        assert agent.act_state(state) == expected
        state.apply_action(expected)


def test_every_seat_of_a_pettingzoo_game(game: boardsim.Game) -> None:
    env = boardsim.make_env(game.name, **game.options)
    env.reset(seed=3)
    agent = load("heuristic", env.unwrapped.game, seed=3)
    moves = 0
    for _name in env.agent_iter(max_iter=20_000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            action = None
        else:
            action = agent.act(obs["observation"], obs["action_mask"], state=env.unwrapped.state_)
            assert obs["action_mask"][action]
            moves += 1
        env.step(action)
    assert moves > 10 and env.unwrapped.state_.is_terminal()


def test_as_the_opponents_of_a_gymnasium_learner(game: boardsim.Game) -> None:
    env = boardsim.make_gym_env(game.name, opponents=load("heuristic", game), **game.options)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert env.unwrapped.state_.is_terminal()


def test_the_strength_table_has_a_row_per_matchup(capsys: pytest.CaptureFixture[str]) -> None:
    from boardsim.agents.heuristic import main, strength_matchups

    main(["--games", "3", "--seed", "1"])
    rows = capsys.readouterr().out.strip().splitlines()
    assert len(rows) == 2 + len(strength_matchups())
    assert all(row.startswith("| ") and row.count("|") == 6 for row in rows[2:])
    with pytest.raises(SystemExit):
        main(["--games", "0"])
