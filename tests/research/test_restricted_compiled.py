"""Restricted play in compiled code: a seat's ``forbidden`` row of the seat table
(``core/seats.py``) makes random, network and UCT seats decide as the restricted agents
do in Python, so a mechanic's weight is measured on thousands of games."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

import boardsim
from boardsim.agents import load
from boardsim.agents.restricted import family_mask
from boardsim.core.bound import BoundFunction
from boardsim.core.game import Game, action_family_problems
from boardsim.core.header import POLICY_RANDOM
from boardsim.core.search import games as search_games
from boardsim.core.seats import Seat, seat_table
from boardsim.games import definition
from boardsim.games.farrapos import layout as FL
from boardsim.research.players import play_compiled, plays_compiled
from boardsim.research.restricted import advantage, mechanic_weights

PLUGIN = Path(__file__).resolve().parents[2] / "benchmarks" / "connect_four"


@pytest.fixture(scope="module")
def connect_four() -> Game:
    if str(PLUGIN) not in sys.path:
        sys.path.insert(0, str(PLUGIN))
    from boardsim_connect_four import DEFINITION

    return Game(DEFINITION)


def _positions(game: Game, games: int, seed: int) -> list:
    """Every decision node of ``games`` random games."""
    rng = np.random.default_rng(seed)
    found = []
    for g in range(games):
        state = game.new_initial_state(seed + g)
        while not state.is_terminal():
            if not state.is_chance_node():
                found.append(state.clone())
            state.apply_action(int(rng.choice(np.flatnonzero(state.legal_actions_mask()))))
    return found


def test_a_restricted_random_seat_never_takes_a_forbidden_column_while_another_is_open(
    connect_four: Game,
) -> None:
    forbidden = family_mask(connect_four, ["centre", "beside_centre"])  # columns 2, 3, 4
    free = seat_table(connect_four, "random")
    held = seat_table(connect_four, Seat(POLICY_RANDOM, forbidden=forbidden))
    assert free.forbidden.shape == (2, 0) and held.forbidden.shape == (2, 7)
    mask = np.zeros(connect_four.num_actions, np.uint8)
    restricted = 0
    for state in _positions(connect_four, 8, seed=1):
        legal = state.legal_actions_mask().astype(bool)
        words = np.array([11, 7], np.int32)
        a = connect_four.engine.seat_action(
            state.array.copy(), connect_four.params, held, mask, words.copy(), None
        )
        assert legal[a]
        if (legal & ~forbidden).any():
            assert not forbidden[a]
        if not (legal & forbidden).any():  # nothing to forbid: the very move of a free seat
            b = connect_four.engine.seat_action(
                state.array.copy(), connect_four.params, free, mask, words.copy(), None
            )
            assert a == b
        restricted += bool((legal & forbidden).any() and (legal & ~forbidden).any())
    assert restricted > 20


def test_forbidding_every_column_in_compiled_games_plays_the_very_same_games(
    connect_four: Game,
) -> None:
    # Jaffe's rule in compiled code: where every legal action is forbidden the seat plays
    # as usual, from the same random words, so the games are the unrestricted ones
    every = "restricted:centre+beside_centre+outer:"
    for spec in ("random", "mcts:8"):
        assert plays_compiled(every + spec)
        free = play_compiled(connect_four, [spec, "random"], 30, seed=4)
        held = play_compiled(connect_four, [every + spec, "random"], 30, seed=4)
        assert np.array_equal(free["returns"], held["returns"])
        assert np.array_equal(free["decisions"], held["decisions"])
    result = advantage(connect_four, "random", every + "random", 200, seed=1)
    assert (result.advantage, result.low, result.high) == (0.0, 0.0, 0.0)


def test_a_restricted_uct_seat_plays_the_allowed_root_action_it_visited_most(
    connect_four: Game,
) -> None:
    g = connect_four.engine.kernels
    pick = BoundFunction(search_games.allowed_search_move, g)
    ws = connect_four.mcts.workspace(201)
    forbidden = np.zeros((2, 7), np.uint8)
    mask = np.zeros(7, np.uint8)
    visits = np.zeros(7, np.int64)
    values = np.zeros(7, np.float64)
    state = connect_four.new_initial_state(0)
    for _ in range(4):
        state.apply_action(3)  # the centre, half full
    a = connect_four.mcts.search(state.array, connect_four.params, 200, 1.0, 0, -1, 0.0, 5, ws)
    connect_four.mcts.root_stats(ws, state.current_player(), visits, values)
    assert visits[a] == visits.max() > 0
    forbidden[:, a] = 1  # the search's own move forbidden: the next most visited
    b = pick(state.array, connect_four.params, forbidden, 0, a, ws, mask)
    others = np.arange(7) != a
    assert b != a and visits[b] == visits[others].max()
    forbidden[:, a] = 0
    forbidden[:, (a + 1) % 7] = 1  # a move it did not choose: its own move stands
    assert pick(state.array, connect_four.params, forbidden, 0, a, ws, mask) == a
    # a table without restrictions: nothing read
    assert pick(state.array, connect_four.params, forbidden[:, :0].copy(), 0, a, ws, mask) == a


def test_the_centre_weighs_much_when_measured_in_compiled_games(connect_four: Game) -> None:
    (centre,) = mechanic_weights(connect_four, "mcts:50", 200, seed=3, families=["centre"])
    assert centre.games == 200 and centre.low > 0.1


def test_only_seats_that_choose_among_their_actions_are_restricted_in_compiled_code(
    connect_four: Game,
) -> None:
    forbidden = np.ones(7, bool)
    heuristic = Seat.named("heuristic")
    with pytest.raises(ValueError, match="cannot be restricted in compiled code"):
        seat_table(connect_four, dataclasses.replace(heuristic, forbidden=forbidden))
    with pytest.raises(ValueError, match="one flag an action"):
        seat_table(connect_four, Seat(0, forbidden=np.ones(3, bool)))
    assert not plays_compiled("restricted:centre:heuristic")
    assert not plays_compiled("restricted:centre:alphazero-mcts:20")
    assert not plays_compiled("restricted:centre:greedy")
    assert plays_compiled("restricted:centre+outer:alphazero")


def test_farrapos_puts_every_action_in_exactly_one_family() -> None:
    game = Game(definition("farrapos"))
    families = game.definition.action_families
    assert action_family_problems(families, game.num_actions) == []
    ids = sorted(a for family in families.values() for a in family)
    assert ids == list(range(game.num_actions))
    assert families["pass"] == (FL.A_PASS,) and families["stop"] == (FL.A_STOP,)


def test_the_farrapos_network_forbidden_to_break_off_presses_every_attack() -> None:
    # the shipped network reads the heuristic's move: restricted, it decides from the
    # state, in Python and in compiled code alike
    game = boardsim.make_game("farrapos")
    agent = load("restricted:stop:alphazero", game, seed=0)
    assert agent.needs_state and plays_compiled("restricted:stop:alphazero")
    seen = 0
    for state in _positions(game, 6, seed=2):
        legal = state.legal_actions_mask().astype(bool)
        if legal[FL.A_STOP] and legal[FL.A_CONTINUE]:
            obs = state.observation(state.current_player())
            assert agent.act(obs, legal, state=state) != FL.A_STOP
            seen += 1
    assert seen > 0
    weights = mechanic_weights(game, "alphazero", 40, seed=1, families=["cancel", "stop"])
    cancel, stop = weights
    assert (cancel.advantage, cancel.low, cancel.high) == (0.0, 0.0, 0.0)  # never legal
    assert stop.games == 40 and -1.0 <= stop.advantage <= 1.0
