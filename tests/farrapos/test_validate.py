"""Farrapos's validator (games/farrapos/validate.py): forged positions are refused naming
the field and the value; real ones are accepted (tests/core/test_untrusted_states.py)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

import boardsim
from boardsim import StateFormatError
from boardsim.core.header import H_ACTOR
from boardsim.games.farrapos import layout as L
from boardsim.games.farrapos.data import CITY_PORT, NUM_UNITS, PIECE_IDS, PIECE_SIDE
from tests.farrapos.helpers import city, piece


def game(**options: object) -> boardsim.Game:
    return boardsim.make_game("farrapos", **options)


def position(mode: int | None = None, seed: int = 3, **options: object) -> np.ndarray:
    """A live position (in ``mode``, if given) of random play."""
    g = game(**options)
    for s in range(seed, seed + 50):
        state = g.new_initial_state(s)
        rng = random.Random(s)
        for _ in range(2000):
            if state.is_terminal():
                break
            if (mode is None and state.decisions() >= 60) or state.array[L.MODE] == mode:
                return state.array.copy()
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError(f"no position in mode {mode}")


def position_where(
    found: Callable[[np.ndarray], bool], seed: int = 3, **options: object
) -> np.ndarray:
    """A live position of random play where ``found`` holds."""
    g = game(**options)
    for s in range(seed, seed + 100):
        state = g.new_initial_state(s)
        rng = random.Random(s)
        for _ in range(2000):
            if state.is_terminal():
                break
            if found(state.array):
                return state.array.copy()
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no such position")


def accepted(a: np.ndarray, **options: object) -> bool:
    boardsim.State(game(**options), a.copy())  # raises StateFormatError if refused
    return True


def refused(a: np.ndarray, **options: object) -> str:
    with pytest.raises(StateFormatError) as info:
        boardsim.State(game(**options), a)
    return str(info.value)


def test_a_piece_off_the_map() -> None:
    a = position()
    a[L.LOC + 7] = 99
    assert "LOC[7] = 99: not -2 (eliminated), -1 (reserve) or a city (0..24)" in refused(a)


def test_a_unit_on_a_third_face() -> None:
    a = position()
    a[L.STEP + 2] = 2
    assert "STEP[2] = 2: not 0 (full) or 1 (reduced)" in refused(a)


def test_a_militia_has_one_face() -> None:
    a = position()
    a[L.STEP + NUM_UNITS] = 1
    assert f"militia {NUM_UNITS}: STEP 1" in refused(a)


def test_occupation_agrees_with_the_pieces() -> None:
    a = position()
    empty = int(np.flatnonzero(a[L.OCC_SLICE] == -1)[0])
    a[L.OCC + empty] = 0
    assert f"OCC[{empty}] = 0: not the side whose pieces are there" in refused(a)


def test_victory_points_agree_with_the_cities() -> None:
    a = position()
    a[L.VP + 1] += 3
    assert "VP[1] =" in refused(a)


def test_two_sides_in_one_city() -> None:
    a = position()
    republic = int(np.flatnonzero((a[L.LOC_SLICE] >= 0) & (PIECE_SIDE == 0))[0])
    empire = int(np.flatnonzero((a[L.LOC_SLICE] >= 0) & (PIECE_SIDE == 1))[0])
    a[L.LOC + empire] = a[L.LOC + republic]
    assert "holds pieces of both sides" in refused(a)


def test_a_mode_that_does_not_exist() -> None:
    a = position()
    a[L.MODE] = 40
    assert "MODE = 40: not a mode (0..8)" in refused(a)


def test_the_loser_picks_his_loss() -> None:
    a = position(L.M_LOSS)
    a[H_ACTOR] = 1 - a[H_ACTOR]
    assert "not the player who decides in this mode" in refused(a)


def test_a_loss_without_a_battle_lost() -> None:
    a = position(L.M_LOSS)
    a[L.LOSS_A] = a[L.LOSS_D] = 0
    assert "loss word" in refused(a)


def test_a_sea_move_without_port_transport() -> None:
    a = position(L.M_MOVE, port_transport=True)
    unit = int(np.flatnonzero(a[L.SEL_SLICE][:NUM_UNITS] == 0)[0])
    a[L.SEL + unit] = L.SEL_SEA
    a[L.SEA_USED] = 1
    assert "selected" in refused(a)


def test_a_winner_while_the_game_goes_on() -> None:
    a = position()
    a[L.WINNER] = 1
    assert "exactly in mode 8, with a winner" in refused(a)


# ---------------------------------------------------------------- the options' own modes
def moving_on(a: np.ndarray) -> bool:
    """A move to several cities under way: its next city to choose, units marked moved."""
    return int(a[L.MODE]) == L.M_MAIN and bool((a[L.SEL_SLICE] >= L.SEL_MOVED_LAND).any())


def test_units_marked_moved_only_in_a_move_to_several_cities() -> None:
    """move_destinations="several" (ruling 8): a real position with moved units is
    accepted; the same marks under the default reading, or on an enemy unit, are not."""
    a = position_where(moving_on, move_destinations="several")
    assert accepted(a, move_destinations="several")
    assert "marked as moved in this action" in refused(a)
    enemy = int(np.flatnonzero((a[L.LOC_SLICE] >= 0) & (PIECE_SIDE != a[L.SIDE]))[0])
    a[L.SEL + enemy] = L.SEL_MOVED_LAND
    assert f"unit {enemy} is marked as moved" in refused(a, move_destinations="several")


def test_a_unit_marked_carried_by_sea_stands_in_a_port() -> None:
    def inland(a: np.ndarray) -> bool:
        moved = np.flatnonzero(a[L.SEL_SLICE] >= L.SEL_MOVED_LAND)
        return moving_on(a) and CITY_PORT[a[L.LOC + moved[0]]] == 0

    a = position_where(inland, move_destinations="several", port_transport=True)
    moved = int(np.flatnonzero(a[L.SEL_SLICE] >= L.SEL_MOVED_LAND)[0])
    a[L.SEL + moved] = L.SEL_MOVED_SEA
    a[L.SEA_USED] += 1
    assert "no port" in refused(a, move_destinations="several", port_transport=True)


def rechoosing(a: np.ndarray) -> bool:
    """Attackers named anew between two rounds (round_attackers="rechosen")."""
    return int(a[L.MODE]) == L.M_ATTACK and int(a[L.ROUND]) >= 1


def test_attackers_named_anew_only_between_rounds_of_that_reading() -> None:
    """round_attackers="rechosen" (ruling 14): a real position composing a later round's
    attackers is accepted; under the default reading its round is refused, and with no
    attacker named yet it is refused too (the first one is named with the choice)."""
    a = position_where(rechoosing, round_attackers="rechosen")
    assert accepted(a, round_attackers="rechosen")
    assert f"ROUND = {a[L.ROUND]}: not 0.." in refused(a)
    a[L.SEL_SLICE] = 0
    assert "a battle with 0 attackers" in refused(a, round_attackers="rechosen")


def advancing(a: np.ndarray) -> bool:
    """The attacker chooses the survivors entering a taken city (advance="chosen")."""
    return int(a[L.MODE]) == L.M_MOVE and int(a[L.ROUND]) >= 1


def test_an_advance_only_under_its_reading_and_with_a_survivor_to_choose() -> None:
    """advance="chosen" (ruling 12): a real advance is accepted; under the default reading
    its round is refused, and with no survivor left to choose it is refused too."""
    a = position_where(advancing, advance="chosen")
    assert accepted(a, advance="chosen")
    assert f"ROUND = {a[L.ROUND]}: not 0.." in refused(a)
    a[L.SEL_SLICE] = 0
    assert f"TARGET = {a[L.TARGET]}: an advance into a city" in refused(a, advance="chosen")


def test_an_empty_city_of_the_enemy_is_no_ones_under_the_neutral_reading() -> None:
    """empty_city="neutral" (ruling 5): when a turn ends every empty city is no one's, so at
    a decision an empty city may still be possessed only by the side to move, which emptied
    it in this turn. A position where the other side possesses one is forged; the same
    position is a real one under the default reading."""
    a = position(seed=5, empty_city="neutral")
    empty = int(np.flatnonzero(a[L.OCC_SLICE] == -1)[0])
    a[L.OWNER + empty] = 1 - a[L.SIDE]
    assert accepted(a)
    message = refused(a, empty_city="neutral")
    assert f"city {empty} is empty but possessed by side {1 - a[L.SIDE]}" in message


def test_a_withheld_unit_never_leaves_the_reserve() -> None:
    """With empire_mu=20 the Empire's last 8 MU by arrival (E21..E28) never enter: a saved
    position of the full game with E21 on the map is refused under empire_mu=20."""
    on_map = position_where(lambda a: int(a[L.LOC + PIECE_IDS.index("E21")]) >= 0)
    assert accepted(on_map)
    assert "unit 20 is withheld" in refused(on_map, empire_mu=20)


def test_a_city_both_sides_lose_in_a_tie_is_no_ones_at_once_and_the_game_saves() -> None:
    """empty_city="neutral" (ruling 5), issue 38: in phase 7 (1841), turn 2, the Empire's
    E03 alone attacks Triunfo, held by the Republic's reduced R03 alone; both dice read 4,
    a tie, and both lose their last piece. No one enters; the Empire's militia step
    follows. Triunfo is no one's from then on (it would be at the turn's end anyway), so the
    position validates, saves, loads and pickles (boardsim.fuzz starts tries from it)."""
    import pickle

    from boardsim.fuzz import known_position
    from boardsim.games import definition

    options, seed, actions = definition("farrapos").known_lines[0]
    g = game(**options)
    before = known_position(g, seed, actions[:-2])  # the attacker's loss, then the defender's
    triunfo = city("triunfo")
    assert before.array[L.TARGET] == triunfo and before.array[L.OWNER + triunfo] == 0
    state = known_position(g, seed, actions)
    a = state.array
    assert (a[L.PHASE], a[L.TURN], a[L.SIDE], a[L.MODE]) == (7, 2, 1, L.M_MILITIA)
    assert a[L.LOC + piece("E03")] == L.LOC_ELIMINATED
    assert a[L.LOC + piece("R03")] == L.LOC_ELIMINATED
    assert (a[L.OCC + triunfo], a[L.OWNER + triunfo]) == (-1, -1)
    assert accepted(a, **options)
    assert np.array_equal(g.state_from_bytes(state.to_bytes()).array, a)
    assert np.array_equal(pickle.loads(pickle.dumps(state)).array, a)


def test_the_text_board_names_the_deciding_side_at_a_loss_decision() -> None:
    """Issue 38: on the Empire's turn, after the tie at Triunfo (phase 7, turn 2), the
    Republic chooses its loss: the header says the Empire moves and the Republic decides."""
    from boardsim.fuzz import known_position
    from boardsim.games import definition

    options, seed, actions = definition("farrapos").known_lines[0]
    state = known_position(game(**options), seed, actions[:-1])
    assert state.array[L.MODE] == L.M_LOSS and state.current_player() == 0
    header = str(state).splitlines()[0]
    assert "Empire to move, Republic decides (loss)" in header
    state.apply_action(actions[-1])
    assert "Empire to move (militia)" in str(state).splitlines()[0]


def test_a_move_that_empties_its_city_is_forged_when_a_piece_must_stay() -> None:
    """empty_origin="forbidden" (ruling 10): the Republic's move to Rio Pardo with all four
    of Triunfo's MU chosen is a real position by default and a forged one under that
    reading (the fourth could not have joined)."""
    g = game()
    state = g.new_initial_state(0)
    state.apply_action(L.A_CITY + city("rio_pardo"))
    for p in ("R01", "R02", "R03", "R04"):
        state.apply_action(L.A_UNIT + piece(p))
    a = state.array.copy()
    assert accepted(a)
    assert "is selected to move" in refused(a, empty_origin="forbidden")
