"""Hispania's validator (games/hispania/validate.py): forged positions are refused naming
the field and the value; real ones are accepted (tests/core/test_untrusted_states.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardsim
from boardsim import StateFormatError
from boardsim.core.header import H_ACTOR
from boardsim.games.hispania import data as hd
from boardsim.games.hispania import layout as hl


def position(phase: int = hl.PH_ROMAN, **options: object) -> np.ndarray:
    """A live position of random play in ``phase``."""
    g = boardsim.make_game("hispania", **options)
    for seed in range(200):
        state = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.array[hl.PHASE] == phase:
                return state.array.copy()
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError(f"no position in phase {phase}")


def refused(a: np.ndarray, **options: object) -> str:
    with pytest.raises(StateFormatError) as info:
        boardsim.State(boardsim.make_game("hispania", **options), a)
    return str(info.value)


def test_a_general_off_the_board_map() -> None:
    a = position()
    a[hl.GEN_POS + 1] = 60
    assert "GEN_POS[1] = 60" in refused(a)


def test_a_general_on_a_revolt() -> None:
    a = position()
    c = int(np.flatnonzero(a[hl.REVOLTS : hl.REVOLTS + hd.NUM_CITIES])[0])
    g = int(a[hl.TURN])
    a[hl.GEN_POS + g] = c
    assert f"general {g} stands on space {c}, which has a revolt" in refused(a)


def test_the_22_revolts_are_all_somewhere() -> None:
    a = position()
    a[hl.RESERVE] -= 1
    assert "revolts on the board, in the reserve and on the track, not 22" in refused(a)


def test_an_army_stands_on_a_revolt() -> None:
    a = position()
    k = int(np.flatnonzero(a[hl.ARMY_POS : hl.ARMY_POS + 3] >= 0)[0])
    city = int(a[hl.ARMY_POS + k])
    a[hl.RESERVE] += a[hl.REVOLTS + city]
    a[hl.REVOLTS + city] = 0
    assert f"army {k} stands on city {city}, which has no revolt" in refused(a)


def test_garrison_stacks_are_packed() -> None:
    a = position()
    c = int(np.flatnonzero(a[hl.REVOLTS : hl.REVOLTS + hd.NUM_CITIES] == 0)[0])
    a[hl.GARR + c * 3 + 1] = 1
    a[hl.GARR_RESERVE] -= 1
    assert f"city {c}: its garrison stack has a gap" in refused(a)


def test_the_proconsul_only_under_proconsvl() -> None:
    a = position()
    a[hl.GEN_POS + hl.PROCONSUL] = hd.FIRST_SEA
    assert f"GEN_POS[3] = {hd.FIRST_SEA}" in refused(a)


def test_hispano_denarii_only_under_hispano() -> None:
    a = position(hispano=True)
    a[hl.HDENARII] = 2
    assert "HDENARII = 2" in refused(a)


def test_an_automated_step_never_waits() -> None:
    a = position()
    a[hl.PHASE] = hl.PH_TURN_START
    assert "PHASE = 5: an automated step" in refused(a)


def test_the_roman_phase_is_the_turns_generals() -> None:
    a = position()
    a[H_ACTOR] = (int(a[hl.TURN]) + 1) % 3
    assert "not who decides in this step" in refused(a)


def test_a_combat_outside_its_step() -> None:
    a = position()
    a[hl.COMBAT_KIND] = hl.CB_SIEGE
    assert "COMBAT_KIND" in refused(a) or "set outside the step" in refused(a)


def test_a_chosen_attack_needs_an_army_there() -> None:
    a = position()
    a[hl.PEND_KIND] = hl.PK_ATTACK
    a[hl.PEND_TARGET] = int(a[hl.GEN_POS + int(a[hl.TURN])])
    assert "PEND_KIND" in refused(a)
