"""The variants: one test (at least) per rule sentence, and every combination playable."""

from __future__ import annotations

import boardsim
from boardsim.core.header import H_ACTOR
from boardsim.games.hispania import layout as hl

from .helpers import blank_roman, chance_kind, legal, link, put, revolts, roll, sp


# ---------------------------------------------------------------- Ingenivm
def test_ingenivm_roads_may_be_kept_aside_at_setup() -> None:
    g = boardsim.make_game("hispania", explicit_chance=True, ingenivm=True)
    st = g.new_initial_state(0)
    roll(st, 4, 5, 2, 4, 3, 6)
    roll(st, 2, 5)
    assert hl.A_PASS in legal(st)
    st.apply_action(hl.A_PASS)  # praetor I keeps his road
    st.apply_action(hl.A_ROAD + link("Gades", "Emerita"))
    st.apply_action(hl.A_PASS)
    st.apply_action(hl.A_PASS)
    assert int(st.array[hl.HELD_ROADS]) == 3
    assert int(st.array[hl.PHASE]) == hl.PH_SETUP_PLACE


def test_ingenivm_builds_a_road_on_a_link_of_the_generals_city() -> None:
    st = blank_roman(ingenivm=True)
    st.array[hl.HELD_ROADS] = 1
    acts = legal(st)
    assert hl.A_ROAD + link("Gades", "Emerita") in acts  # 2 segments
    assert hl.A_ROAD + link("Corduba", "Regina") not in acts  # not a link of Gades
    st.apply_action(hl.A_ROAD + link("Gades", "Emerita"))
    assert int(st.array[hl.DENARII]) == 4 and int(st.array[hl.HELD_ROADS]) == 0
    assert int(st.array[hl.ROADS + link("Gades", "Emerita")]) == 1
    assert not any(a >= hl.A_ROAD for a in legal(st))


def test_ingenivm_respects_the_placement_rules() -> None:
    st = blank_roman(ingenivm=True, generals=("Ilerda", "Valentia", "Mare Ibericum"))
    st.array[hl.HELD_ROADS] = 2
    put(st, "Gerunda", revolts=1)
    acts = legal(st)
    assert hl.A_ROAD + link("Ilerda", "Osca") not in acts  # a capital
    assert hl.A_ROAD + link("Ilerda", "Gerunda") not in acts  # a revolt
    assert hl.A_ROAD + link("Ilerda", "Barcino") not in acts  # not on the network
    assert hl.A_ROAD + link("Ilerda", "Tarraco") in acts


def test_without_ingenivm_no_road_is_kept() -> None:
    st = blank_roman()
    st.array[hl.HELD_ROADS] = 1  # even if set, roads are only legal under the variant's count
    g = boardsim.make_game("hispania", explicit_chance=True)
    s2 = g.new_initial_state(0)
    roll(s2, 4, 5, 2, 4, 3, 6)
    roll(s2, 2, 5)
    assert hl.A_PASS not in legal(s2)


# ---------------------------------------------------------------- Pirates
def test_pirates_on_every_sea_without_a_fleet() -> None:
    for fleets, n in ((4, 1), (3, 2), (2, 3)):
        g = boardsim.make_game("hispania", level=f"6-4-{fleets}-4-2", pirates=True)
        st = g.new_initial_state(0)
        sea = [int(st.array[hl.REVOLTS + 44 + i]) for i in range(5)]
        assert sea == [0] * fleets + [1] * n


def test_pirates_block_fleets_and_are_besieged_with_the_sea_number_as_shield() -> None:
    st = blank_roman(pirates=True, generals=("Gades", "Valentia", "Fretum Gaditanum"), turn=2)
    put(st, "Mare Atlanticum", revolts=1)
    put(st, "Mare Cantabricum", revolts=1)
    assert hl.A_FLEET + 2 * 5 + 3 not in legal(st)  # sea 4 holds pirates
    assert hl.A_BESIEGE + sp("Mare Atlanticum") in legal(st)
    st.apply_action(hl.A_BESIEGE + sp("Mare Atlanticum"))
    st.apply_action(hl.A_SPEND)
    roll(st, 3)  # 3 + 1 = 4, not above shield 4 (sea 4)
    assert revolts(st, "Mare Atlanticum") == 1
    st.apply_action(hl.A_BESIEGE + sp("Mare Atlanticum"))
    st.apply_action(hl.A_SPEND + 1)
    roll(st, 3)  # 3 + 2 = 5 > 4
    assert revolts(st, "Mare Atlanticum") == 0
    assert hl.A_FLEET + 2 * 5 + 3 in legal(st)


def test_pirates_add_to_connected_revolt_groups_but_not_to_provinces() -> None:
    from boardsim.games.hispania import combat as hc

    st = blank_roman(pirates=True)
    put(st, "Olisipo", revolts=1)
    put(st, "Mare Atlanticum", revolts=1)
    put(st, "Talabriga", revolts=2)
    assert hc.revolt_group(st.array, sp("Olisipo")) == 4
    st.array[hl.GEN_POS] = sp("Olisipo") - 0  # not allowed in revolt; just for the capital rule
    st.array[hl.REVOLTS + sp("Olisipo")] = 0
    st.array[hl.REVOLTS + sp("Talabriga")] = 0
    st.array[hl.RESERVE] += 3
    assert hl.A_GARRISON in legal(st)  # pirates belong to no province
    assert chance_kind(st) == 0


# ---------------------------------------------------------------- Imperivm
def test_imperivm_consul_pays_to_move_the_praetors() -> None:
    st = blank_roman(imperivm=True, turn=2)
    acts = legal(st)
    assert {hl.A_SELECT, hl.A_SELECT + 1} <= acts and hl.A_SELECT + 2 not in acts
    st.apply_action(hl.A_SELECT)
    assert hl.A_SPACE + sp("Baecula") in legal(st) and hl.A_CANCEL in legal(st)
    assert hl.A_PASS not in legal(st)
    st.apply_action(hl.A_SPACE + sp("Baecula"))  # praetor I along the Baetis road
    assert int(st.array[hl.GEN_POS]) == sp("Baecula") and int(st.array[hl.DENARII]) == 5
    assert int(st.array[hl.MOVER]) == -1 and int(st.array[hl.GEN_POS + 2]) == sp("Mare Ibericum")
    st2 = blank_roman(imperivm=True, turn=0)
    assert not any(hl.A_SELECT <= a < hl.A_SELECT + 4 for a in legal(st2))
    st3 = blank_roman(turn=2)
    assert not any(hl.A_SELECT <= a < hl.A_SELECT + 4 for a in legal(st3))


def test_imperivm_citerior_adds_one_to_his_sieges() -> None:
    for imperivm, die, left in ((False, 3, 1), (True, 3, 0), (True, 2, 1)):
        st = blank_roman(imperivm=imperivm, turn=1)
        put(st, "Segobriga", revolts=1)
        st.apply_action(hl.A_BESIEGE + sp("Segobriga"))
        st.apply_action(hl.A_SPEND)
        roll(st, die)  # die (+1) + 1 denarius + "+1" disc against shield 5
        assert revolts(st, "Segobriga") == left, (imperivm, die)


def test_imperivm_ulterior_moves_one_link_free_after_his_hispanic_phase() -> None:
    st = blank_roman(imperivm=True, turn=0)
    put(st, "Lancia", garrisons=(2,))
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6)
    assert int(st.array[hl.PHASE]) == hl.PH_FREE_MOVE and st.current_player() == 0
    want = {"Regina", "Ebora", "Emerita", "Corduba", "Fretum Gaditanum"}
    assert legal(st) == {hl.A_PASS} | {hl.A_SPACE + sp(c) for c in want}
    st.apply_action(hl.A_SPACE + sp("Emerita"))
    assert int(st.array[hl.GEN_POS]) == sp("Emerita") and st.current_player() == 1
    assert int(st.array[hl.DENARII]) == 6


# ---------------------------------------------------------------- Proconsvl
def test_proconsul_enters_on_the_balearicum_fleet_for_three_denarii() -> None:
    st = blank_roman(proconsvl=True)
    assert hl.A_PROCONSUL in legal(st)
    st.apply_action(hl.A_PROCONSUL)
    assert int(st.array[hl.GEN_POS + 3]) == sp("Mare Balearicum")
    assert int(st.array[hl.DENARII]) == 3 and hl.A_PROCONSUL not in legal(st)
    st.apply_action(hl.A_SELECT + 3)
    st.apply_action(hl.A_SPACE + sp("Tarraco"))  # any player spends with him
    assert int(st.array[hl.GEN_POS + 3]) == sp("Tarraco") and int(st.array[hl.DENARII]) == 2
    assert hl.A_PROCONSUL not in legal(blank_roman())
    assert hl.A_PROCONSUL not in legal(blank_roman(proconsvl=True, fleets=(2, 3)))


def test_proconsul_has_no_garrisons_and_dies_when_defeated() -> None:
    st = blank_roman(proconsvl=True, generals=("Gades", "Valentia", "Mare Ibericum"))
    st.array[hl.GEN_POS + 3] = sp("Corduba")
    put(st, "Regina", revolts=2, army=0)
    put(st, "Castulo", garrisons=(0,))
    put(st, "Lancia", garrisons=(2,))
    from boardsim.games.hispania import combat as hc

    assert hc.garrison_support(st.array, 3) == 0
    st.apply_action(hl.A_SELECT + 3)
    assert hl.A_GARRISON not in legal(st) and hl.A_ATTACK + sp("Regina") in legal(st)
    st.apply_action(hl.A_ATTACK + sp("Regina"))
    st.apply_action(hl.A_SPEND)
    roll(st, 1, 6)  # 1 + 1 (x2, praetor I at Gades links Regina) = 4 against 6 + 2
    assert int(st.array[hl.GEN_POS + 3]) == hl.GONE
    assert chance_kind(st) == hl.CK_REVOLT_PROV  # the Roman phase is over
    roll(st, 5, 6)
    assert st.current_player() == 1 and int(st.array[hl.DENARII]) == 6  # nothing blocked


# ---------------------------------------------------------------- Legio Hispana
def test_legio_hispana_is_placed_by_the_consul_and_removed_by_anyone() -> None:
    st = blank_roman(legio_hispana=True, generals=("Gades", "Valentia", "Carthago Nova"), turn=2)
    assert hl.A_LEGIO in legal(st)
    st.apply_action(hl.A_LEGIO)
    assert int(st.array[hl.GARR + sp("Carthago Nova") * 3]) == hl.LEGIO_COLOUR
    assert int(st.array[hl.LEGIO_OWNER]) == -1 and int(st.array[hl.DENARII]) == 5
    from boardsim.games.hispania import combat as hc

    st.array[hl.GEN_POS + 1] = sp("Puciala")
    assert hc.garrison_support(st.array, 1) == 1 + 1  # the joker counts as his, + "+1"
    st.array[hl.GEN_POS + 2] = sp("Mare Ibericum")
    st.array[hl.GEN_POS + 1] = sp("Carthago Nova")
    st.array[hl.TURN] = 1
    st.array[H_ACTOR] = 1
    assert hl.A_UNLEGIO in legal(st) and hl.A_UNGARRISON not in legal(st)
    st.apply_action(hl.A_UNLEGIO)
    assert int(st.array[hl.LEGIO_OWNER]) == 1 and hl.A_LEGIO in legal(st)
    assert hl.A_LEGIO not in legal(blank_roman(turn=2))


def test_legio_beaten_by_an_army_goes_to_the_consuls_reserve() -> None:
    st = blank_roman(legio_hispana=True, turn=0)
    put(st, "Lancia", garrisons=(2,))
    put(st, "Talabriga", revolts=1, army=0)
    s = sp("Conimbriga")
    st.array[hl.GARR + s * 3] = 1
    st.array[hl.GARR + s * 3 + 1] = hl.LEGIO_COLOUR
    st.array[hl.GARR_RESERVE] -= 1
    st.array[hl.LEGIO_OWNER] = -1
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6, 6)
    assert int(st.array[hl.LEGIO_OWNER]) == 2
    assert int(st.array[hl.GARR + s * 3 + 1]) == 0


# ---------------------------------------------------------------- Terror
def test_terror_special_army_placement_odds() -> None:
    g = boardsim.make_game("hispania", level="6-4-3-4-3", terror=True, explicit_chance=True)
    st = g.new_initial_state(0)
    roll(st, 1, 1, 1, 1, 1, 1)
    roll(st, 1)
    assert chance_kind(st) == hl.CK_TERROR  # three left: the special army on 5-6
    roll(st, 4)
    assert int(st.array[hl.ARMY_POS]) == 0 and int(st.array[hl.ARMY_POS + 3]) == -1
    roll(st, 2)
    roll(st, 4)  # two left: 4-6
    assert int(st.array[hl.ARMY_POS + 3]) == 6
    roll(st, 3)  # only an ordinary army left: no die
    assert int(st.array[hl.ARMY_POS + 1]) == 12 and int(st.array[hl.ARMY_POS + 2]) == hl.GONE
    g2 = boardsim.make_game("hispania", level="6-4-3-4-1", terror=True, explicit_chance=True)
    st2 = g2.new_initial_state(0)
    roll(st2, 1, 1, 1, 1, 1, 1, 1)
    roll(st2, 5)
    assert int(st2.array[hl.ARMY_POS + 3]) == 0


def test_special_army_doubles_its_own_value() -> None:
    st = blank_roman(terror=True, generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=2, army=3)
    st.apply_action(hl.A_ATTACK + sp("Regina"))
    st.apply_action(hl.A_SPEND + 2)
    roll(st, 4, 2)  # 4 + 3 + 1 = 8 against (2 + 2) x 2 = 8: the defender holds
    assert int(st.array[hl.GEN_POS]) == -1
    st = blank_roman(generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=2, army=0)
    st.apply_action(hl.A_ATTACK + sp("Regina"))
    st.apply_action(hl.A_SPEND + 2)
    roll(st, 4, 2)  # an ordinary army: 8 > 4
    assert int(st.array[hl.ARMY_POS]) == -1


def test_rome_does_not_pay_traitors() -> None:
    base = {"terror": True, "generals": ("Corduba", "Valentia", "Mare Ibericum")}
    st = blank_roman(**base)
    put(st, "Regina", revolts=2, army=3)
    assert hl.A_ASSASSINATE not in legal(st)  # the optional rule is off
    st = blank_roman(traitors=True, **base)
    put(st, "Regina", revolts=2, army=3)
    st.apply_action(hl.A_ASSASSINATE)
    st.apply_action(hl.A_SPEND + 1)
    assert chance_kind(st) == hl.CK_HISP_DIE
    roll(st, 2)  # 2 <= 2 denarii: murdered, a third army takes his place
    assert int(st.array[hl.ARMY_POS + 3]) == hl.GONE
    assert int(st.array[hl.ARMY_POS + 2]) == sp("Regina")
    assert hl.A_ASSASSINATE not in legal(st) and int(st.array[hl.DENARII]) == 4
    st = blank_roman(traitors=True, **base)
    put(st, "Regina", revolts=2, army=3)
    put(st, "Lancia", garrisons=(2,))
    st.apply_action(hl.A_ASSASSINATE)
    st.apply_action(hl.A_SPEND)
    roll(st, 6)  # failed: an exceptional revolt roll, then the Roman phase goes on
    assert chance_kind(st) == hl.CK_REVOLT_PROV
    roll(st, 1, 5)
    assert revolts(st, "Ilerda") == 1 and st.current_player() == 0
    assert int(st.array[hl.PHASE]) == hl.PH_ROMAN and hl.A_ASSASSINATE not in legal(st)


def test_traitors_needs_terror() -> None:
    import pytest

    with pytest.raises(boardsim.OptionError, match="terror"):
        boardsim.make_game("hispania", traitors=True)


# ---------------------------------------------------------------- Hispano
def hispano_state(**kw: object) -> boardsim.State:
    st = blank_roman(hispano=True, **kw)  # type: ignore[arg-type]
    st.array[hl.HDENARII] = 2
    put(st, "Lancia", garrisons=(2,))
    return st


def test_hispano_needs_six_denarii_and_is_a_fourth_player() -> None:
    import pytest

    with pytest.raises(boardsim.OptionError, match="6 denarii"):
        boardsim.make_game("hispania", level="7-4-3-4-2", hispano=True)
    g = boardsim.make_game("hispania", hispano=True)
    assert g.num_players == 4
    assert g.agent_names() == ["praetor_ulterior", "praetor_citerior", "consul", "hispano"]
    g2 = boardsim.make_game("hispania", hispano=True, agents="rome")
    assert g2.agent_names() == ["rome", "hispano"]
    assert [g2.definition.agent_of_player(g2.options, p) for p in range(4)] == [0, 0, 0, 1]


def test_hispano_chooses_the_initial_revolts_and_armies() -> None:
    g = boardsim.make_game("hispania", hispano=True, explicit_chance=True)
    st = g.new_initial_state(0)
    assert st.current_player() == hl.HISPANO and not st.is_chance_node()
    assert legal(st) == {hl.A_H_FACE + i for i in range(6)}
    for face in (4, 5, 2, 4, 3, 6):
        st.apply_action(hl.A_H_FACE + face - 1)
    assert revolts(st, "Salduba") == 2 and revolts(st, "Regina") == 3
    st.apply_action(hl.A_H_FACE + 1)  # province II
    assert hl.A_H_FACE + 1 not in legal(st)
    st.apply_action(hl.A_H_FACE + 4)  # province V
    assert int(st.array[hl.ARMY_POS]) == sp("Segobriga")
    assert int(st.array[hl.ARMY_POS + 1]) == sp("Asturica")
    assert st.current_player() == 0  # roads follow


def test_hispano_gets_two_denarii_a_turn_and_may_reroll_a_revolt_die() -> None:
    st = hispano_state()
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6)  # Lancia, protected
    assert st.current_player() == hl.HISPANO
    assert legal(st) == {hl.A_H_ACCEPT, hl.A_H_REROLL_R, hl.A_H_REROLL_H}
    st.apply_action(hl.A_H_REROLL_H)
    roll(st, 5)  # Bracara
    st.apply_action(hl.A_H_REROLL_R)
    roll(st, 1)  # Ilerda (I-5); no denarius left: the roll takes effect
    assert revolts(st, "Ilerda") == 1 and revolts(st, "Bracara") == 0
    assert st.current_player() == 1 and int(st.array[hl.HDENARII]) == 2


def test_hispano_chooses_an_army_destination_for_one_denarius() -> None:
    st = hispano_state()
    put(st, "Gerunda", revolts=1, army=0)
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6)
    st.apply_action(hl.A_H_ACCEPT)  # keep the revolt roll
    assert int(st.array[hl.PHASE]) == hl.PH_H_MOVE
    assert legal(st) == {hl.A_H_ACCEPT, hl.A_H_CITY + sp("Barcino"), hl.A_H_CITY + sp("Ilerda")}
    st.apply_action(hl.A_H_CITY + sp("Ilerda"))
    assert army_city_is(st, 0, "Ilerda")  # (the next turn has begun: 2 denarii again)


def army_city_is(st: boardsim.State, slot: int, name: str) -> bool:
    return int(st.array[hl.ARMY_POS + slot]) == sp(name)


def test_hispano_reinforces_a_declared_siege() -> None:
    st = hispano_state(generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=1)
    st.apply_action(hl.A_BESIEGE + sp("Regina"))
    st.apply_action(hl.A_SPEND + 2)
    assert st.current_player() == hl.HISPANO
    assert legal(st) == {hl.A_H_ACCEPT, hl.A_H_SPEND, hl.A_H_SPEND + 1}
    st.apply_action(hl.A_H_SPEND + 1)  # shield 2 + 2
    roll(st, 1)  # 1 + 3 + 1 = 5 > 4
    assert revolts(st, "Regina") == 0
    st = hispano_state(generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=1)
    st.apply_action(hl.A_BESIEGE + sp("Regina"))
    st.apply_action(hl.A_SPEND)
    st.apply_action(hl.A_H_SPEND + 1)
    roll(st, 2)  # 2 + 1 + 1 = 4, not above 4
    assert revolts(st, "Regina") == 1 and int(st.array[hl.HISP_BONUS]) == 0


def test_hispano_rerolls_the_hispanic_die_of_an_attack() -> None:
    st = hispano_state(generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=2, army=0)
    st.apply_action(hl.A_ATTACK + sp("Regina"))
    st.apply_action(hl.A_SPEND + 2)
    st.apply_action(hl.A_H_ACCEPT)  # no reinforcement
    roll(st, 4, 1)  # Roman 4 + 3 + 1 = 8, Hispanic 1 + 2 = 3
    assert legal(st) == {hl.A_H_ACCEPT, hl.A_H_REROLL_H}
    st.apply_action(hl.A_H_REROLL_H)
    roll(st, 6)  # 8 against 8: the army holds
    st.apply_action(hl.A_H_ACCEPT)
    assert int(st.array[hl.GEN_POS]) == -1 and army_city_is(st, 0, "Regina")


def test_hispano_attacks_with_an_army_in_the_hispanic_phase() -> None:
    st = hispano_state(generals=("Castulo", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=2, army=0)
    put(st, "Corduba", garrisons=(0, 1))
    st.array[hl.PHASE] = hl.PH_H_ATTACK  # straight to the attack step of the Hispanic phase
    st.array[H_ACTOR] = hl.HISPANO
    assert legal(st) == {hl.A_H_ACCEPT, hl.A_H_ARMY}
    st.apply_action(hl.A_H_ARMY)
    assert legal(st) == {hl.A_CANCEL, hl.A_H_CITY + sp("Corduba")}
    st.apply_action(hl.A_H_CITY + sp("Corduba"))
    assert legal(st) == {hl.A_CANCEL, hl.A_H_SPEND, hl.A_H_SPEND + 1}
    st.apply_action(hl.A_H_SPEND + 1)  # 2 denarii on the die
    roll(st, 1)  # 1 + 2 + 2 revolts = 5 > shield 4 (no general linked to Regina)
    assert garrisons_of(st, "Corduba") == [1]  # the top (yellow) garrison goes back
    assert int(st.array[hl.GARR_RESERVE + 1]) == 4
    assert army_city_is(st, 0, "Regina")  # the victor does not advance
    assert st.current_player() == 1  # no denarius left: the turn passes


def garrisons_of(st: boardsim.State, name: str) -> list[int]:
    s = sp(name)
    return [int(x) for x in st.array[hl.GARR + s * 3 : hl.GARR + s * 3 + 3] if x]


def test_hispano_wins_when_rome_loses() -> None:
    st = hispano_state(turn=2)
    st.array[hl.TRACK] = 10
    st.array[hl.HDENARII] = 0
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6)
    assert st.is_terminal() and list(st.returns()) == [-1.0, -1.0, -1.0, 1.0]


def test_hispano_sees_what_his_decision_is_about() -> None:
    st = hispano_state(generals=("Corduba", "Valentia", "Mare Ibericum"))
    put(st, "Regina", revolts=2, army=0)
    st.apply_action(hl.A_ATTACK + sp("Regina"))
    st.apply_action(hl.A_SPEND + 2)
    st.apply_action(hl.A_H_ACCEPT)
    roll(st, 4, 1)
    obs = st.observation(hl.HISPANO)
    assert obs[hl.OBS_CONTEXT + sp("Regina")] == 1.0  # the attacked army's city
    assert obs[hl.OBS_EXTRA] == 4 / 6 and obs[hl.OBS_EXTRA + 1] == 1 / 6  # the dice
    assert obs[hl.OBS_EXTRA + 5 + hl.CB_ATTACK] == 1.0
    st2 = hispano_state()
    st2.apply_action(hl.A_PASS)
    roll(st2, 1, 5)
    obs = st2.observation(hl.HISPANO)
    assert obs[hl.OBS_CONTEXT + 2 * 49 + sp("Ilerda")] == 1.0  # the revolt roll's city
