"""The general's move search (``search_moves``, on bit sets a cost level at a time) gives
the same costs as the plain Dijkstra over (space, on a road chain) pairs of the reference
(``reference_board.travel_costs``, ``heapq``): every space's cost (``move_costs_within``), every
space reachable within the denarii (``move_reach``), and the cost of a target
(``move_cost_within``), in positions met in random games of the basic game and of every
scenario (the Lethe River's among them)."""

from __future__ import annotations

import numpy as np
import pytest

import boardsim
from boardsim.games.hispania import layout as hl
from boardsim.games.hispania import movement as hm
from boardsim.games.hispania.data import SCENARIO_IDS
from boardsim.games.hispania.reference_board import travel_costs

from .test_scenarios import LEVELS


def positions(scenario: str | None, count: int, seed: int) -> list[np.ndarray]:
    """Roman decision positions of random games (generals on the board)."""
    level = LEVELS[scenario] if scenario else "6-4-3-4-2"
    game = boardsim.make_game("hispania", scenario=scenario, level=level)
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    g = 0
    while len(out) < count:
        st = game.new_initial_state(seed * 1000 + g)
        g += 1
        while not st.is_terminal() and len(out) < count:
            if int(st.array[hl.PHASE]) == hl.PH_ROMAN:
                out.append(st.array.copy())
            st.apply_action(int(rng.choice(st.legal_actions())))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("scenario", [None, *SCENARIO_IDS])
def test_search_moves_agrees_with_dijkstra(scenario: str | None) -> None:
    costs = np.zeros(hl.NUM_SPACES, np.int64)
    found = np.zeros(hl.NUM_SPACES, np.int64)
    checked = 0
    for state in positions(scenario, 150, seed=7):
        for g in range(hl.NUM_GENERALS):
            start = int(state[hl.GEN_POS + g])
            if start < 0:
                continue
            dijkstra = travel_costs(state.tolist(), g)
            costs[:] = [dijkstra.get(s, hm.INF) for s in range(hl.NUM_SPACES)]
            hm.move_costs_within(state, g, start, hm.INF - 1, found)
            assert found.tolist() == costs.tolist(), (scenario, g, start)
            for limit in (0, 1, 2, 3, 5, 8, 40):
                hm.move_costs_within(state, g, start, limit, found)
                assert found.tolist() == np.where(costs <= limit, costs, hm.INF).tolist()
                reach = hm.move_reach(state, g, start, limit)
                want = {s for s in range(hl.NUM_SPACES) if s != start and costs[s] <= limit}
                got = {s for s in range(hl.NUM_SPACES) if (reach >> s) & 1}
                assert got == want, (scenario, g, start, limit)
                for target in range(0, hl.NUM_SPACES, 3):
                    cost = hm.move_cost_within(state, g, start, limit, target)
                    if target == start:
                        assert cost == 0
                    else:
                        assert cost == (costs[target] if costs[target] <= limit else hm.INF)
                checked += 1
    assert checked > 100
