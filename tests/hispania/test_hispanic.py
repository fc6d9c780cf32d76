"""Hispanic phase, end of round and the two victories: one test (at least) per rule sentence."""

from __future__ import annotations

import numpy as np

from boardsim.games.hispania import layout as hl

from .helpers import army_city, blank_roman, chance_kind, garrisons, put, revolts, roll, sp


def hispanic(**kw: object) -> object:
    st = blank_roman(**kw)  # type: ignore[arg-type]
    put(st, "Lancia", garrisons=(2,))  # a safe target for rolls that should do nothing
    return st


def start_phase(st) -> None:
    st.apply_action(hl.A_PASS)
    assert chance_kind(st) == hl.CK_REVOLT_PROV


# ---------------------------------------------------------------- revolt roll
def test_revolt_roll_protected_by_garrison_or_general() -> None:
    st = hispanic(generals=("Osca", "Valentia", "Mare Ibericum"))
    put(st, "Ilerda", garrisons=(0,))
    start_phase(st)
    roll(st, 1, 5)  # Ilerda: garrison
    assert revolts(st, "Ilerda") == 0
    st = hispanic(generals=("Osca", "Valentia", "Mare Ibericum"))
    start_phase(st)
    roll(st, 1, 6)  # Osca: general
    assert revolts(st, "Osca") == 0


def test_revolt_roll_on_an_empty_city_places_a_revolt() -> None:
    st = hispanic()
    start_phase(st)
    roll(st, 1, 5)
    assert revolts(st, "Ilerda") == 1 and int(st.array[hl.RESERVE]) == 21


def test_revolt_roll_on_a_revolt_places_an_army_if_none_in_the_province() -> None:
    st = hispanic()
    put(st, "Gerunda", revolts=1)
    put(st, "Barcino", revolts=1)
    put(st, "Ilerda", revolts=1)  # Gerunda's only neighbours: the army cannot spread
    start_phase(st)
    roll(st, 1, 2)
    assert army_city(st, 0) == "Gerunda" and revolts(st, "Gerunda") == 1


def test_revolt_roll_adds_a_revolt_when_the_province_has_an_army() -> None:
    st = hispanic()
    put(st, "Gerunda", revolts=1)
    put(st, "Lucus", revolts=1, army=0)
    put(st, "Noega", revolts=1)
    put(st, "Brigantium", revolts=1)
    put(st, "Bracara", revolts=1)
    put(st, "Asturica", revolts=1)
    put(st, "Lancia", revolts=0)
    st.array[hl.GARR + sp("Lancia") * 3] = 0
    put(st, "Barcino", garrisons=(0,))
    put(st, "Ilerda", garrisons=(0,))
    st.array[hl.ARMY_POS + 1] = sp("Gerunda")  # province I has an army
    start_phase(st)
    roll(st, 1, 2)
    assert revolts(st, "Gerunda") == 2
    assert army_city(st, 2) is None


def test_revolt_roll_respects_three_discs_and_the_army_reserve() -> None:
    st = hispanic()
    put(st, "Barcino", garrisons=(0,))
    put(st, "Ilerda", garrisons=(0,))
    put(st, "Gerunda", revolts=3, army=0)
    start_phase(st)
    roll(st, 1, 2)  # army already there, 3 discs: nothing happens (Example 5)
    assert revolts(st, "Gerunda") == 3 and int(st.array[hl.RESERVE]) == 19
    # no army left in the reserve: another revolt instead
    st = hispanic()
    put(st, "Barcino", garrisons=(0,))
    put(st, "Ilerda", garrisons=(0,))
    put(st, "Gerunda", revolts=1)
    for k, c in enumerate(("Talabriga", "Numantia", "Pallantia")):
        put(st, c, revolts=3, army=k)
    for c in (
        "Conimbriga",
        "Bilbilis",
        "Segontia",
        "Calagurris",
        "Deobriga",
        "Lancia",
        "Aracillum",
        "Cauca",
    ):
        st.array[hl.GARR + sp(c) * 3] = 1
    start_phase(st)
    roll(st, 1, 2)
    assert revolts(st, "Gerunda") == 2


# ---------------------------------------------------------------- army move
def test_army_with_one_connected_city_of_its_province_moves_there() -> None:
    st = hispanic()
    put(st, "Talabriga", revolts=1, army=0)
    start_phase(st)
    roll(st, 5, 6)
    assert army_city(st, 0) == "Conimbriga"
    assert revolts(st, "Conimbriga") == 1 and revolts(st, "Talabriga") == 1
    assert int(st.array[hl.RESERVE]) == 20


def test_priority_to_cities_without_revolt() -> None:
    st = hispanic()
    put(st, "Gerunda", revolts=1, army=0)
    put(st, "Barcino", revolts=1)
    start_phase(st)
    roll(st, 5, 6)
    assert army_city(st, 0) == "Ilerda"


def test_die_picks_the_nearest_shield_and_equidistance_means_no_move() -> None:
    for die, where in (
        (1, "Barcino"),
        (2, "Barcino"),
        (3, "Gerunda"),
        (5, "Ilerda"),
        (6, "Ilerda"),
    ):
        st = hispanic()
        put(st, "Gerunda", revolts=1, army=0)
        start_phase(st)
        roll(st, 5, 6)
        assert chance_kind(st) == hl.CK_MOVE_DIE
        roll(st, die)
        assert army_city(st, 0) == where, die


def test_an_army_leaves_a_province_entirely_in_revolt_for_one_without_army() -> None:
    st = hispanic()
    for c in ("Capara", "Ebora", "Conimbriga", "Emerita", "Olisipo"):
        put(st, c, revolts=1)
    put(st, "Talabriga", revolts=1, army=0)
    start_phase(st)
    roll(st, 5, 6)
    assert army_city(st, 0) == "Bracara"  # Conimbriga (in revolt) loses the priority
    # Bracara's province (V) now has an army: another full-province army may not go there
    st = hispanic()
    for c in ("Capara", "Ebora", "Conimbriga", "Emerita", "Olisipo"):
        put(st, c, revolts=1)
    put(st, "Talabriga", revolts=1, army=0)
    put(st, "Lucus", revolts=1, army=1)
    put(st, "Noega", revolts=1)
    put(st, "Brigantium", revolts=1)
    put(st, "Bracara", revolts=1)
    start_phase(st)
    roll(st, 5, 6)
    assert army_city(st, 0) == "Conimbriga"


def test_armies_move_in_province_order_and_roman_provinces_last() -> None:
    st = hispanic()
    put(st, "Corduba", revolts=1, army=0)
    put(st, "Talabriga", revolts=1, army=1)
    start_phase(st)
    roll(st, 5, 6)
    # Talabriga's army (IV) moved first; then Corduba's: Sisapo/Regina are not Ulterior,
    # Castulo and Gades are (no revolt): the die chooses
    assert army_city(st, 1) == "Conimbriga"
    assert chance_kind(st) == hl.CK_MOVE_DIE
    assert list(st.array[hl.ARMY_ORDER : hl.ARMY_ORDER + 2]) == [1, 0]


def test_a_garrison_blocking_the_move_is_attacked_and_the_army_never_advances() -> None:
    st = hispanic(generals=("Gades", "Valentia", "Mare Ibericum"))
    put(st, "Talabriga", revolts=1, army=0)
    put(st, "Conimbriga", garrisons=(0, 1))
    start_phase(st)
    roll(st, 5, 6)
    assert chance_kind(st) == hl.CK_HISP_DIE
    roll(st, 6)  # 6 + 1 revolt = 7 > shield 4
    assert garrisons(st, "Conimbriga") == [0]  # the top one goes back to its reserve
    assert int(st.array[hl.GARR_RESERVE + 1]) == 4
    assert army_city(st, 0) == "Talabriga"
    st = hispanic()
    put(st, "Talabriga", revolts=1, army=0)
    put(st, "Conimbriga", garrisons=(0,))
    start_phase(st)
    roll(st, 5, 6)
    roll(st, 3)  # 4 vs 4: the city holds
    assert garrisons(st, "Conimbriga") == [0] and army_city(st, 0) == "Talabriga"


def test_a_general_blocking_the_move_is_attacked() -> None:
    st = hispanic(generals=("Conimbriga", "Valentia", "Mare Ibericum"))
    put(st, "Talabriga", revolts=1, army=0)
    start_phase(st)
    roll(st, 5, 6)
    roll(st, 6)  # Hispanic 7
    assert chance_kind(st) == hl.CK_ROMAN_DIE
    roll(st, 1)  # Roman 1 (no garrisons, far from Ulterior)
    assert int(st.array[hl.GEN_POS]) == -1 and army_city(st, 0) == "Talabriga"
    st = hispanic(generals=("Conimbriga", "Valentia", "Mare Ibericum"))
    put(st, "Talabriga", revolts=1, army=0)
    start_phase(st)
    roll(st, 5, 6)
    roll(st, 1)  # Hispanic 2
    roll(st, 6)  # Roman 6: the army is beaten and leaves the board
    assert int(st.array[hl.GEN_POS]) == sp("Conimbriga") and army_city(st, 0) is None


# ---------------------------------------------------------------- end of round, victories
def test_end_of_round_adds_a_revolt_to_the_time_track() -> None:
    st = hispanic(turn=2)
    start_phase(st)
    roll(st, 5, 6)
    assert int(st.array[hl.TRACK]) == 1 and int(st.array[hl.RESERVE]) == 21
    assert st.current_player() == 0 and int(st.array[hl.TURN]) == 0
    assert int(st.array[hl.DENARII]) == 6


def test_turn_passes_to_the_next_general() -> None:
    st = hispanic(turn=0)
    start_phase(st)
    roll(st, 5, 6)
    assert st.current_player() == 1 and int(st.array[hl.DENARII]) == 6


def test_hispanic_victory_when_the_track_ends() -> None:
    st = hispanic(turn=2)
    st.array[hl.TRACK] = 10
    start_phase(st)
    roll(st, 5, 6)
    assert st.is_terminal() and int(st.array[hl.WINNER]) == hl.W_HISPANIA
    assert list(st.returns()) == [-1.0, -1.0, -1.0]


def test_hispanic_victory_when_a_revolt_cannot_be_placed() -> None:
    st = hispanic()
    st.array[hl.RESERVE] = 0
    start_phase(st)
    roll(st, 1, 5)
    assert st.is_terminal() and int(st.array[hl.WINNER]) == hl.W_HISPANIA
    st = hispanic(turn=2)
    st.array[hl.RESERVE] = 0
    start_phase(st)
    roll(st, 5, 6)  # protected, but the end of round needs a revolt
    assert st.is_terminal()


def test_roman_victory_the_moment_all_capitals_hold_a_garrison() -> None:
    st = hispanic(generals=("Flaviobriga", "Valentia", "Mare Ibericum"))
    for c in ("Osca", "Numantia", "Toletum", "Olisipo"):
        put(st, c, garrisons=(1,))
    put(st, "Dertosa", revolts=1)
    st.apply_action(hl.A_GARRISON)
    assert not st.is_terminal()  # a revolt remains in Citerior
    st.array[hl.REVOLTS + sp("Dertosa")] = 0
    st.array[hl.RESERVE] += 1
    st.apply_action(hl.A_UNGARRISON)
    st.apply_action(hl.A_GARRISON)
    assert st.is_terminal() and int(st.array[hl.WINNER]) == hl.W_ROME
    assert list(st.returns()) == [1.0, 1.0, 1.0]
    assert not st.legal_actions_mask().any()
    assert np.all(st.array[hl.GARR + sp("Flaviobriga") * 3] == 1)


def test_the_province_an_army_moves_into_becomes_its_province() -> None:
    st = hispanic()
    for c in ("Capara", "Ebora", "Conimbriga", "Emerita", "Olisipo"):
        put(st, c, revolts=1)
    put(st, "Talabriga", revolts=1, army=0)
    put(st, "Noega", revolts=1)
    start_phase(st)
    roll(st, 5, 6)
    assert army_city(st, 0) == "Bracara"  # now Gallaecia's army
    # a revolt roll on Noega (already in revolt) no longer brings a new army to V
    st2 = hispanic(turn=1)
    for c in ("Capara", "Ebora", "Conimbriga", "Emerita", "Olisipo", "Talabriga"):
        put(st2, c, revolts=1)
    put(st2, "Bracara", revolts=1, army=0)
    put(st2, "Noega", revolts=1)
    start_phase(st2)
    roll(st2, 5, 1)
    assert revolts(st2, "Noega") == 2 and army_city(st2, 1) is None


# ---------------------------------------------------------------- the victory condition's reach
# RB: "Hispanic victory if you need to place a revolt (during a Hispanic phase or at the end
# of the round) and there are none left". A roll that places nothing (protected city, or 3
# discs with no army to place) needs no revolt, so an empty reserve does not end the game;
# nor does placing an army, which stands on the revolt already there.
def test_an_empty_reserve_loses_only_when_a_revolt_is_needed_protected_city() -> None:
    st = hispanic()
    put(st, "Ilerda", garrisons=(0,))
    st.array[hl.RESERVE] = 0
    start_phase(st)
    roll(st, 1, 5)  # Ilerda: protected by its garrison
    assert not st.is_terminal() and st.current_player() == 1


def test_an_empty_reserve_loses_only_when_a_revolt_is_needed_three_discs() -> None:
    st = hispanic()
    put(st, "Barcino", garrisons=(0,))
    put(st, "Ilerda", garrisons=(0,))
    put(st, "Gerunda", revolts=3, army=0)
    st.array[hl.RESERVE] = 0
    start_phase(st)
    roll(st, 1, 2)  # Gerunda: 3 discs and its province has an army: nothing happens
    assert not st.is_terminal() and revolts(st, "Gerunda") == 3
    assert chance_kind(st) == hl.CK_MOVE_DIE  # the army moves on (towards a garrison)


def test_an_empty_reserve_still_lets_an_army_be_placed() -> None:
    st = hispanic()
    for c in ("Gerunda", "Barcino", "Ilerda"):
        put(st, c, revolts=1)
    st.array[hl.RESERVE] = 0
    start_phase(st)
    roll(st, 1, 2)  # Gerunda in revolt, province I without army: an army, no revolt taken
    assert not st.is_terminal() and army_city(st, 0) == "Gerunda"
    assert int(st.array[hl.RESERVE]) == 0
