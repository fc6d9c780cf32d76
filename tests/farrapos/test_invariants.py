"""Invariants after every step of many seeded random games, driven through the compiled core."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardsim
from boardsim.core.header import CHANCE, H_ACTOR, TERMINAL
from boardsim.games.farrapos import layout as L
from boardsim.games.farrapos import rules
from boardsim.games.farrapos.data import (
    CITY_PORT,
    CITY_REGION,
    CITY_VP,
    NUM_REGIONS,
    NUM_UNITS,
    PIECE_ARRIVAL,
    PIECE_SIDE,
    PIECE_TYPE,
    PORTS_BONUS,
    REGION_BONUS,
)


def expected_vp(occ: np.ndarray, side: int) -> int:
    """The VP model written once more, from scratch, for the check."""
    total = int(CITY_VP[occ == side].sum())
    for r in range(NUM_REGIONS):
        if np.all(occ[r == CITY_REGION] == side):
            total += int(REGION_BONUS[r])
    if np.all(occ[CITY_PORT == 1] == side):
        total += PORTS_BONUS
    return total


def check_invariants(a: np.ndarray, eliminated_before: set[int]) -> None:
    loc = a[L.LOC_SLICE]
    step = a[L.STEP_SLICE]
    # every piece is on the map, in reserve or eliminated: nothing else
    assert np.all((loc >= L.LOC_ELIMINATED) & (loc < L.C))
    assert np.all((step == 0) | (step == 1))
    assert np.all(step[NUM_UNITS:] == 0)  # militia have no reduced face
    # conservation: 28 + 20 MU and 4 + 4 militia, each in exactly one state
    for side in (0, 1):
        mine = side == PIECE_SIDE
        on_board = np.sum(mine & (loc >= 0))
        reserve = np.sum(mine & (loc == L.LOC_RESERVE))
        gone = np.sum(mine & (loc == L.LOC_ELIMINATED))
        assert on_board + reserve + gone == np.sum(mine)
    # eliminated pieces never come back
    now_gone = set(np.flatnonzero(loc == L.LOC_ELIMINATED).tolist())
    assert eliminated_before <= now_gone
    eliminated_before |= now_gone
    # a reserve MU has not yet arrived, or its side awaits placement this phase
    for u in range(NUM_UNITS):
        if loc[u] == L.LOC_RESERVE:
            assert PIECE_ARRIVAL[u] >= 2
    # no city holds both sides; occupation and possession agree with the pieces
    occ = a[L.OCC_SLICE]
    for c in range(L.C):
        sides = set(PIECE_SIDE[loc == c].tolist())
        assert len(sides) <= 1
        assert occ[c] == (sides.pop() if sides else -1)
        if occ[c] >= 0:
            assert a[L.OWNER + c] == occ[c]  # every occupied city is held by its occupant
    # VP consistent with the cities occupied and the bonuses
    for side in (0, 1):
        assert a[L.VP + side] == expected_vp(occ, side)
    # militia never move: once placed they stay where they were put (checked by type)
    assert np.all(PIECE_TYPE[NUM_UNITS:] == 3)


def play(game, seed: int, chooser: random.Random) -> int:
    state = np.zeros(game.state_size, np.int32)
    outcomes = np.zeros(game.max_chance_outcomes, np.int32)
    weights = np.zeros(game.max_chance_outcomes, np.int64)
    game.engine.new_game(state, game.params, np.int64(seed), outcomes, weights)
    mask = np.zeros(game.num_actions, np.uint8)
    rewards = np.zeros(2, np.float32)
    gone: set[int] = set()
    militia_at: dict[int, int] = {}
    steps = 0
    turn = (1, 1)
    while True:
        check_invariants(state, gone)
        if (int(state[L.PHASE]), int(state[L.TURN])) != turn:  # a turn has just ended
            turn = (int(state[L.PHASE]), int(state[L.TURN]))
            if game.options["empty_city"] == "neutral":  # ruling 5: empty is no one's
                assert np.array_equal(state[L.OWNER_SLICE], state[L.OCC_SLICE])
        for u in range(NUM_UNITS, L.P):
            if state[L.LOC + u] >= 0:
                assert militia_at.setdefault(u, int(state[L.LOC + u])) == state[L.LOC + u]
        actor = int(state[H_ACTOR])
        if actor == TERMINAL:
            assert int(state[L.WINNER]) in (0, 1, 2)
            assert rules.legal_mask(state, game.params, mask) == 0
            return steps
        assert actor in (0, 1)
        assert actor != CHANCE  # chance is resolved inside step
        n = rules.legal_mask(state, game.params, mask)
        assert n > 0  # the mask is never empty until the game ends
        action = chooser.choice(np.flatnonzero(mask).tolist())
        game.engine.step(state, game.params, np.int64(action), rewards)
        steps += 1


@pytest.mark.parametrize(
    "options",
    [
        ({}, 12),
        ({"siege": True, "port_transport": True}, 12),
        ({"victory_vp": 14}, 20),
        ({"arrivals": "after", "empty_city": "neutral"}, 12),
        ({"empty_city": "neutral"}, 12),
        ({"move_destinations": "several", "round_attackers": "rechosen", "advance": "chosen"}, 8),
    ],
    ids=["basic", "advanced", "short", "readings", "neutral", "more-readings"],
)
def test_invariants_hold_after_every_step(options: tuple[dict, int]) -> None:
    kwargs, games = options
    game = boardsim.make_game("farrapos", **kwargs)
    total = 0
    for seed in range(games):
        total += play(game, seed, random.Random(1000 + seed))
    assert total > 0


def test_random_games_end_and_returns_are_zero_sum() -> None:
    game = boardsim.make_game("farrapos")
    results = set()
    for seed in range(20):
        s = game.new_initial_state(seed)
        r = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(r.choice(s.legal_actions()))
        ret = s.returns()
        assert ret.sum() == 0 and set(ret.tolist()) <= {-1.0, 0.0, 1.0}
        results.add(int(s.array[L.WINNER]))
    assert results & {0, 1}
