"""Invariants after every step of many random games: conservation, limits, a live mask."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardsim
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L
from tests.liberation.helpers import card_total


def check_invariants(st: boardsim.State, n: int, counters: int, mode: str) -> None:
    a = st.array
    for k in range(L.K):  # every card is somewhere, once
        assert card_total(st, k) == D.KIND_COUNT[k]
    for p in range(n):  # every counter is in a supply or on the board
        on_board = int(
            a[L.COUNTERS : L.COUNTERS + D.NUM_SPACES][
                a[L.OWNER : L.OWNER + D.NUM_SPACES] == p
            ].sum()
        )
        assert a[L.SUPPLY + p] >= 0
        assert a[L.SUPPLY + p] + on_board == counters
    for sp in range(D.NUM_SPACES):  # a card and an owner and counters go together
        owner, card, cnt = a[L.OWNER + sp], a[L.CARD + sp], a[L.COUNTERS + sp]
        if owner < 0:
            assert card == -1 and cnt == 0
        else:
            assert D.SPACE_REVOLUTION[sp] < 0 and not D.KIND_ROYALIST[card]
            independent = a[L.INDEP + D.SPACE_COUNTRY[sp]]
            assert cnt >= 1 or (independent and mode == "return")
    for c in range(D.NUM_COUNTRIES):  # independent countries are fully liberated
        if a[L.INDEP + c]:
            first = D.COUNTRY_FIRST[c]
            assert (a[L.OWNER + first : L.OWNER + first + D.COUNTRY_LENGTH[c]] >= 0).all()
    assert a[L.REMOVED : L.REMOVED + L.K][D.KIND_ROYALIST == 0].sum() == 0
    vt = a[L.VT : L.VT + n]
    # each independence gives 2 + at most 5 a player (all tied for first under 'share')
    assert vt.sum() <= a[L.INDEP : L.INDEP + D.NUM_COUNTRIES].sum() * (2 + 5 * n)
    if not st.is_terminal():
        assert st.legal_actions_mask().sum() >= 1
        # hands of players who are not to move respect the hand limit
        for p in range(n):
            if p != a[L.MOVER]:
                assert a[L.HAND + p * L.K : L.HAND + (p + 1) * L.K].sum() <= D.HAND_LIMIT


@pytest.mark.slow
@pytest.mark.parametrize(
    ("n", "mode", "counters"), [(2, "stay", 30), (4, "return", 30), (6, "stay", 12), (3, "stay", 4)]
)
def test_invariants_hold_after_every_step(n: int, mode: str, counters: int) -> None:
    game = boardsim.make_game(
        "liberation", num_players=n, independence_counters=mode, counters=counters
    )
    for seed in range(60):
        rng = random.Random(seed)
        st = game.new_initial_state(seed)
        check_invariants(st, n, counters, mode)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
            check_invariants(st, n, counters, mode)
        returns = st.returns()
        assert returns.max() in (0.0, 1.0) and (returns == 1.0).sum() <= 1
        assert np.isclose(returns.sum(), -(returns == -1).sum() + (returns == 1).sum())
