"""Roman phase: one test (at least) per rule sentence of Move, Garrison, Besiege and Attack."""

from __future__ import annotations

from boardsim.games.hispania import combat as hc
from boardsim.games.hispania import layout as hl

from .helpers import blank_roman, chance_kind, garrisons, legal, put, revolts, roll, sp

GEN = hl.GEN_POS


def den(st) -> int:
    return int(st.array[hl.DENARII])


def pos(st, g: int) -> int:
    return int(st.array[GEN + g])


# ---------------------------------------------------------------- move
def test_move_costs_one_denarius_per_segment() -> None:
    st = blank_roman()
    st.apply_action(hl.A_SPACE + sp("Emerita"))  # Gades-Emerita has 2 segments
    assert pos(st, 0) == sp("Emerita") and den(st) == 4
    st.apply_action(hl.A_SPACE + sp("Ebora"))  # 1 segment
    assert den(st) == 3


def test_a_continuous_chain_of_roads_counts_as_one_segment() -> None:
    st = blank_roman()
    assert hl.A_SPACE + sp("Baecula") in legal(st)
    st.apply_action(hl.A_SPACE + sp("Baecula"))  # Gades-Corduba-Castulo-Baecula, all road
    assert den(st) == 5


def test_cannot_enter_a_city_in_revolt_and_not_beyond_budget() -> None:
    st = blank_roman(denarii=1)
    put(st, "Sisapo", revolts=1)
    acts = legal(st)
    assert hl.A_SPACE + sp("Emerita") not in acts  # 2 segments, 1 denarius
    st2 = blank_roman()
    put(st2, "Emerita", revolts=1)
    assert hl.A_SPACE + sp("Emerita") not in legal(st2)
    # a revolt also cuts the road chain through it
    put(st2, "Castulo", revolts=1)
    st2.array[GEN] = sp("Corduba")
    assert hl.A_SPACE + sp("Baecula") not in legal(st2)


def test_seas_only_with_a_fleet() -> None:
    st = blank_roman(fleets=(2, 3))
    acts = legal(st)
    assert hl.A_SPACE + sp("Fretum Gaditanum") in acts
    assert hl.A_SPACE + sp("Mare Atlanticum") not in acts
    st.apply_action(hl.A_SPACE + sp("Fretum Gaditanum"))
    assert den(st) == 5


def test_cross_but_never_stop_on_another_general() -> None:
    st = blank_roman(generals=("Dertosa", "Valentia", "Mare Ibericum"))
    acts = legal(st)
    assert hl.A_SPACE + sp("Valentia") not in acts
    assert hl.A_SPACE + sp("Carthago Nova") in acts  # road chain through Valentia
    st.apply_action(hl.A_SPACE + sp("Carthago Nova"))
    assert den(st) == 5
    assert hl.A_SPACE + sp("Mare Ibericum") not in legal(st)  # the consul's fleet


def test_fleet_moves_over_sea_carrying_its_general() -> None:
    st = blank_roman()
    a = hl.A_FLEET + 1 * 5 + 3  # Mare Ibericum -> Mare Atlanticum, crossing sea 3's fleet
    assert a in legal(st)
    assert hl.A_FLEET + 1 * 5 + 2 not in legal(st)  # sea 3 holds a fleet
    st.apply_action(a)
    assert den(st) == 4
    assert list(st.array[hl.FLEET : hl.FLEET + 5]) == [1, 0, 1, 1, 0]
    assert pos(st, 2) == sp("Mare Atlanticum")


# ---------------------------------------------------------------- garrison
def test_garrison_place_and_remove_cost_one_each() -> None:
    st = blank_roman()
    st.apply_action(hl.A_GARRISON)
    assert garrisons(st, "Gades") == [0] and den(st) == 5
    assert int(st.array[hl.GARR_RESERVE]) == 3
    st.apply_action(hl.A_UNGARRISON)
    assert garrisons(st, "Gades") == [] and den(st) == 4
    assert int(st.array[hl.GARR_RESERVE]) == 4


def test_at_most_three_garrisons_a_city_any_colour_removable_when_covered() -> None:
    st = blank_roman()
    put(st, "Gades", garrisons=(0, 1))
    st.apply_action(hl.A_GARRISON)
    assert garrisons(st, "Gades") == [0, 1, 0]
    assert hl.A_GARRISON not in legal(st)
    st.apply_action(hl.A_UNGARRISON)  # his top one
    assert garrisons(st, "Gades") == [0, 1]
    st.apply_action(hl.A_UNGARRISON)  # covered by yellow, still removable
    assert garrisons(st, "Gades") == [1]
    assert hl.A_UNGARRISON not in legal(st)  # yellow is not his


def test_capital_garrison_only_when_its_province_is_free_of_revolt() -> None:
    st = blank_roman(generals=("Ilerda", "Valentia", "Mare Ibericum"))
    put(st, "Barcino", revolts=1)
    st.apply_action(hl.A_SPACE + sp("Osca"))  # the capital may be entered
    assert pos(st, 0) == sp("Osca")
    assert hl.A_GARRISON not in legal(st)
    st.array[hl.REVOLTS + sp("Barcino")] = 0
    assert hl.A_GARRISON in legal(st)


def test_general_supply_limits_garrisons() -> None:
    st = blank_roman(level="6-3-3-4-2")
    st.array[hl.GARR_RESERVE] = 0
    assert hl.A_GARRISON not in legal(st)


# ---------------------------------------------------------------- besiege
def test_besiege_is_a_composite_choice_with_cancel() -> None:
    st = blank_roman(generals=("Corduba", "Valentia", "Mare Ibericum"), denarii=2)
    put(st, "Regina", revolts=2)
    assert hl.A_BESIEGE + sp("Regina") in legal(st)
    assert hl.A_BESIEGE + sp("Emerita") not in legal(st)  # not in revolt / not connected
    st.apply_action(hl.A_BESIEGE + sp("Regina"))
    assert legal(st) == {hl.A_SPEND, hl.A_SPEND + 1, hl.A_CANCEL}  # 3 denarii unaffordable
    st.apply_action(hl.A_CANCEL)
    assert den(st) == 2 and hl.A_PASS in legal(st)


def test_siege_success_removes_one_revolt() -> None:
    st = blank_roman(generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=2)
    st.apply_action(hl.A_BESIEGE + sp("Regina"))
    st.apply_action(hl.A_SPEND)  # 1 denarius
    assert chance_kind(st) == hl.CK_ROMAN_DIE
    roll(st, 1)  # 1 + 1 + "+1" disc = 3 > shield 2
    assert revolts(st, "Regina") == 1 and den(st) == 5
    assert int(st.array[hl.RESERVE]) == 22 - 1


def test_siege_tie_fails_and_consul_has_no_plus_one() -> None:
    st = blank_roman(generals=("Gades", "Valentia", "Corduba"), turn=2)
    put(st, "Regina", revolts=1)
    st.apply_action(hl.A_BESIEGE + sp("Regina"))
    st.apply_action(hl.A_SPEND)
    # consul: die 1 + 1 denarius = 2; Gades' praetor is connected to Regina: x2 -> 4 > 2
    roll(st, 1)
    assert revolts(st, "Regina") == 0
    st = blank_roman(generals=("Castulo", "Valentia", "Corduba"), turn=2)
    put(st, "Regina", revolts=1)
    st.apply_action(hl.A_BESIEGE + sp("Regina"))
    st.apply_action(hl.A_SPEND)
    roll(st, 1)  # 2 vs 2: the defender holds
    assert revolts(st, "Regina") == 1


def test_armies_connected_to_the_general_double_the_shield() -> None:
    st = blank_roman(generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=1)
    put(st, "Sisapo", revolts=1, army=0)  # connected to Corduba: shield 2 -> 4
    st.apply_action(hl.A_BESIEGE + sp("Regina"))
    st.apply_action(hl.A_SPEND)
    roll(st, 2)  # 2 + 1 + 1 = 4, not above 4
    assert revolts(st, "Regina") == 1
    st.apply_action(hl.A_BESIEGE + sp("Regina"))
    st.apply_action(hl.A_SPEND)
    roll(st, 3)
    assert revolts(st, "Regina") == 0


def test_garrison_groups_connected_to_him_and_the_plus_one_disc() -> None:
    st = blank_roman(generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Castulo", garrisons=(0, 0))
    put(st, "Baecula", garrisons=(0,))  # same group, through Castulo
    put(st, "Osca", garrisons=(0,))  # not connected
    put(st, "Sisapo", garrisons=(1,))  # another colour
    assert hc.garrison_support(st.array, 0) == 3 + 1
    # the consul has no "+1" disc; praetor II away from Citerior has none either
    assert hc.garrison_support(st.array, 2) == 0
    assert hc.garrison_support(st.array, 1) == 1  # at Valentia, in Citerior
    st.array[GEN + 1] = sp("Regina")
    assert hc.garrison_support(st.array, 1) == 1  # his Sisapo disc, not linked to Citerior
    st.array[GEN + 1] = sp("Osca")
    assert hc.garrison_support(st.array, 1) == 0


# ---------------------------------------------------------------- attack
def test_attack_won_removes_the_army_not_its_revolts() -> None:
    st = blank_roman(generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=2, army=0)
    assert hl.A_ATTACK + sp("Regina") in legal(st)
    assert hl.A_BESIEGE + sp("Regina") not in legal(st)  # a siege is on a revolt without army
    st.apply_action(hl.A_ATTACK + sp("Regina"))
    st.apply_action(hl.A_SPEND + 2)
    roll(st, 6)  # Roman die: 6 + 3 + 1 = 10
    assert chance_kind(st) == hl.CK_HISP_DIE
    roll(st, 1)  # 1 + 2 revolts = 3
    assert int(st.array[hl.ARMY_POS]) == -1 and revolts(st, "Regina") == 2
    assert den(st) == 3 and st.current_player() == 0


def test_attack_lost_removes_the_general_ends_the_phase_and_blocks_a_denarius() -> None:
    st = blank_roman(generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=2, army=0)
    put(st, "Sisapo", revolts=1)  # the revolt group around the army: 3
    put(st, "Lancia", garrisons=(2,))  # the revolt roll below lands there: protected
    st.apply_action(hl.A_ATTACK + sp("Regina"))
    st.apply_action(hl.A_SPEND)
    roll(st, 2)  # 2 + 1 + 1 = 4
    roll(st, 1)  # 1 + 3 = 4: the defender holds
    assert pos(st, 0) == -1 and int(st.array[hl.ARMY_POS]) == sp("Regina")
    assert chance_kind(st) == hl.CK_REVOLT_PROV  # the Roman phase is over
    roll(st, 5, 6)  # Lancia, protected
    # the army moves: Sisapo in revolt, Emerita... only in-province candidate is Sisapo
    assert st.current_player() == 1
    assert den(st) == 5  # praetor I blocks one denarius


def test_defeated_praetor_reenters_in_a_free_city_of_his_province() -> None:
    st = blank_roman(generals=(None, "Valentia", "Mare Ibericum"), turn=2)
    put(st, "Lancia", garrisons=(2,))
    put(st, "Corduba", revolts=1)
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6)  # protected
    # end of round, then praetor I's turn: he re-enters
    assert int(st.array[hl.TRACK]) == 1
    assert int(st.array[hl.PHASE]) == hl.PH_REENTER and st.current_player() == 0
    assert legal(st) == {hl.A_SPACE + sp(c) for c in ("Baecula", "Castulo", "Gades")}
    st.apply_action(hl.A_SPACE + sp("Gades"))
    assert int(st.array[hl.PHASE]) == hl.PH_ROMAN and den(st) == 6


def test_consul_reenters_on_a_free_fleet_and_praetor_skips_when_province_in_revolt() -> None:
    st = blank_roman(generals=("Gades", None, None), turn=0)
    put(st, "Lancia", garrisons=(2,))
    for c in ("Dertosa", "Valentia", "Carthago Nova", "Tarraco"):
        put(st, c, revolts=1)
    assert den(st) == 6  # set by hand; a real turn start would give 6 - 2
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6)
    # praetor II cannot enter: his Hispanic phase follows directly
    assert chance_kind(st) == hl.CK_REVOLT_PROV
    roll(st, 5, 6)
    assert int(st.array[hl.PHASE]) == hl.PH_REENTER and st.current_player() == 2
    assert legal(st) == {hl.A_SPACE + hl.FIRST_SEA_SPACE + k for k in range(3)}
    st.apply_action(hl.A_SPACE + sp("Fretum Gaditanum"))
    assert den(st) == 6 - 1  # praetor II still off the board


def test_pass_ends_the_roman_phase_and_zero_denarii_too() -> None:
    st = blank_roman(denarii=1)
    st.apply_action(hl.A_SPACE + sp("Corduba"))
    assert chance_kind(st) == hl.CK_REVOLT_PROV


def test_reentering_on_another_generals_space_he_must_leave_it_first() -> None:
    st = blank_roman(generals=(None, "Valentia", "Corduba"), turn=2)
    put(st, "Lancia", garrisons=(2,))
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6)
    assert int(st.array[hl.PHASE]) == hl.PH_REENTER
    assert hl.A_SPACE + sp("Corduba") in legal(st)  # the consul's city
    st.apply_action(hl.A_SPACE + sp("Corduba"))
    acts = legal(st)
    assert acts and all(hl.A_SPACE <= a < hl.A_FLEET for a in acts)  # only moves of his
    assert hl.A_PASS not in acts and hl.A_GARRISON not in acts
    st.apply_action(hl.A_SPACE + sp("Castulo"))
    assert hl.A_PASS in legal(st) and hl.A_GARRISON in legal(st)


def test_no_reentry_on_a_shared_space_he_could_not_leave() -> None:
    st = blank_roman(generals=(None, "Gades", "Corduba"), turn=2, fleets=(1, 2))
    put(st, "Lancia", garrisons=(2,))
    for c in ("Castulo", "Sisapo", "Regina", "Ebora", "Emerita"):
        put(st, c, revolts=1)
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6)
    # Gades and Corduba are held and lead nowhere else (crossing each other's only)
    assert legal(st) == {hl.A_SPACE + sp("Baecula")}
    st2 = blank_roman(generals=(None, "Gades", "Corduba"), turn=2, fleets=(1, 2))
    put(st2, "Lancia", garrisons=(2,))
    for c in ("Castulo", "Sisapo", "Regina"):
        put(st2, c, revolts=1)
    st2.apply_action(hl.A_PASS)
    roll(st2, 5, 6)
    # from Corduba he may cross Gades to Ebora: both held cities are offered
    want = {sp("Baecula"), sp("Gades"), sp("Corduba")}
    assert legal(st2) == {hl.A_SPACE + c for c in want}


def test_generals_fight_from_sea_spaces() -> None:
    st = blank_roman(turn=2)  # the consul on the Mare Ibericum fleet
    put(st, "Carthago Nova", revolts=1)
    assert hl.A_BESIEGE + sp("Carthago Nova") in legal(st)
    st.apply_action(hl.A_BESIEGE + sp("Carthago Nova"))
    st.apply_action(hl.A_SPEND + 2)
    roll(st, 1)  # 1 + 3, x2 for praetor II at Valentia (linked) = 8 > shield 3
    assert revolts(st, "Carthago Nova") == 0
