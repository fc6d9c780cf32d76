"""Helpers for the Hispania tests: names to indices, scripted dice, hand-built positions."""

from __future__ import annotations

import numpy as np

import boardsim
from boardsim.core.header import CHANCE, H_ACTOR, H_CHANCE_KIND
from boardsim.games.hispania import data as hd
from boardsim.games.hispania import layout as hl

NAMES = hd.SPACE_NAMES


def sp(name: str) -> int:
    """Space index of a city or sea name."""
    return NAMES.index(name)


def link(a: str, b: str) -> int:
    li = int(hd.ADJ_LINK[sp(a), sp(b)])
    assert li >= 0, f"no link {a}-{b}"
    return li


def roll(state: boardsim.State, *dice: int) -> None:
    """Apply scripted chance outcomes (explicit_chance games)."""
    for d in dice:
        assert state.is_chance_node(), f"not a chance node, wanted die {d}"
        outs = [o for o, _ in state.chance_outcomes()]
        assert d in outs, (d, outs)
        state.apply_action(d)


def chance_kind(state: boardsim.State) -> int:
    return int(state.array[H_CHANCE_KIND]) if state.is_chance_node() else 0


def blank_roman(
    level: str = "6-4-3-4-2",
    turn: int = 0,
    generals: tuple[str | None, ...] = ("Gades", "Valentia", "Mare Ibericum"),
    denarii: int | None = None,
    fleets: tuple[int, ...] = (1, 2, 3),
    **options: object,
) -> boardsim.State:
    """A game at general ``turn``'s Roman phase on an empty board (no revolts or armies)."""
    g = boardsim.make_game(
        "hispania", level=level, explicit_chance=True, auto_setup=True, **options
    )
    st = g.new_initial_state(0)
    while st.is_chance_node() or st.current_player() == hl.HISPANO:
        if st.is_chance_node():
            st.apply_action([o for o, _ in st.chance_outcomes()][-1])
        else:
            st.apply_action(st.legal_actions()[-1])
    a = st.array
    a[hl.REVOLTS : hl.REVOLTS + hd.NUM_SPACES] = 0
    a[hl.ARMY_POS : hl.ARMY_POS + hl.NUM_ARMY_SLOTS] = -1
    a[hl.ARMY_POS + (2 if g.params[hl.P_TERROR] else hl.SPECIAL)] = hl.GONE
    a[hl.RESERVE] = hd.TOTAL_REVOLTS
    a[hl.FLEET : hl.FLEET + hd.NUM_SEAS] = 0
    a[hl.ROADS : hl.ROADS + hd.NUM_LINKS] = hd.INITIAL_ROADS
    for f in fleets:
        a[hl.FLEET + f - 1] = 1
    for i, name in enumerate(generals):
        a[hl.GEN_POS + i] = sp(name) if name else -1
    a[hl.TURN] = turn
    a[hl.PHASE] = hl.PH_ROMAN
    a[hl.DENARII] = int(level.split("-")[0]) if denarii is None else denarii
    a[hl.PEND_KIND] = 0
    a[H_ACTOR] = turn
    a[H_CHANCE_KIND] = 0
    return st


def put(
    state: boardsim.State,
    name: str,
    revolts: int = 0,
    garrisons: tuple[int, ...] = (),
    army: int = -1,
) -> None:
    """Put revolts (from the reserve), garrisons (colours 0-3) and an army slot on a space."""
    a = state.array
    s = sp(name)
    a[hl.REVOLTS + s] += revolts
    a[hl.RESERVE] -= revolts
    for i, col in enumerate(garrisons):
        a[hl.GARR + s * hl.STACK + i] = col + 1
        a[hl.GARR_RESERVE + col] -= 1
    if army >= 0:
        a[hl.ARMY_POS + army] = s


def to_hispanic(state: boardsim.State) -> None:
    """End the Roman phase (pass) so the revolt roll is the next chance node."""
    state.apply_action(hl.A_PASS)
    assert state.is_chance_node() and chance_kind(state) == hl.CK_REVOLT_PROV


def revolts(state: boardsim.State, name: str) -> int:
    return int(state.array[hl.REVOLTS + sp(name)])


def army_city(state: boardsim.State, slot: int) -> str | None:
    c = int(state.array[hl.ARMY_POS + slot])
    return NAMES[c] if c >= 0 else None


def garrisons(state: boardsim.State, name: str) -> list[int]:
    s = sp(name)
    return [int(x) - 1 for x in state.array[hl.GARR + s * 3 : hl.GARR + s * 3 + 3] if x]


def legal(state: boardsim.State) -> set[int]:
    return set(np.flatnonzero(state.legal_actions_mask()).tolist())


__all__ = ["CHANCE"]
