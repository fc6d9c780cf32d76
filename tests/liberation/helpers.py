"""Building race positions by hand, and scripting dice and draws."""

from __future__ import annotations

import numpy as np

import boardsim
from boardsim.core.header import H_ACTOR, H_CHANCE_KIND
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L


def kind(type_name: str, force: int) -> int:
    """The card kind of ``type_name`` with ``force``."""
    t = D.DATA.type_names.index(type_name)
    for k in range(L.K):
        if D.KIND_TYPE[k] == t and D.KIND_FORCE[k] == force:
            return k
    raise KeyError((type_name, force))


def space(number: int) -> int:
    """The 0-based index of rulebook space ``number`` (1..41)."""
    return number - 1


def new_state(num_players: int = 2, seed: int = 0, **options: object) -> boardsim.State:
    """A game stopped at the first player's move decision, chance explicit."""
    game = boardsim.make_game(
        "liberation", num_players=num_players, explicit_chance=True, **options
    )
    st = game.new_initial_state(seed)
    while st.is_chance_node():  # deal and the first draw: take the first outcome
        st.apply_action(st.chance_outcomes()[0][0])
    return st


def give(st: boardsim.State, player: int, k: int, n: int = 1) -> None:
    """Put ``n`` cards of kind ``k`` from the draw pile into ``player``'s hand."""
    a = st.array
    assert a[L.PILE + k] >= n
    a[L.PILE + k] -= n
    a[L.HAND + player * L.K + k] += n


def empty_hand(st: boardsim.State, player: int) -> None:
    a = st.array
    for k in range(L.K):
        a[L.PILE + k] += a[L.HAND + player * L.K + k]
        a[L.HAND + player * L.K + k] = 0


def liberate(st: boardsim.State, player: int, sp: int, k: int, counters: int = 1) -> None:
    """Set space ``sp`` as liberated by ``player`` with card ``k`` from the pile."""
    a = st.array
    a[L.PILE + k] -= 1
    a[L.OWNER + sp] = player
    a[L.CARD + sp] = k
    a[L.COUNTERS + sp] = counters
    a[L.SUPPLY + player] -= counters


def hand(st: boardsim.State, player: int) -> np.ndarray:
    return st.array[L.HAND + player * L.K : L.HAND + (player + 1) * L.K].copy()


def phase(st: boardsim.State) -> int:
    return int(st.array[L.PHASE])


def chance_kind(st: boardsim.State) -> int:
    assert st.array[H_ACTOR] == boardsim.CHANCE
    return int(st.array[H_CHANCE_KIND])


def card_total(st: boardsim.State, k: int) -> int:
    """Every card of kind ``k``, wherever it is."""
    a = st.array
    n = int(a[L.PILE + k] + a[L.DISCARD + k] + a[L.REMOVED + k])
    n += int(sum(a[L.HAND + p * L.K + k] for p in range(L.P)))
    n += int(np.sum(a[L.CARD : L.CARD + D.NUM_SPACES] == k))
    return n
