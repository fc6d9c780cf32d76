"""The variants: one test (at least) per rule sentence, and every combination playable."""

from __future__ import annotations

import boardsim
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
    from boardsim.games.hispania import rules as hr

    st = blank_roman(pirates=True)
    put(st, "Olisipo", revolts=1)
    put(st, "Mare Atlanticum", revolts=1)
    put(st, "Talabriga", revolts=2)
    assert hr.revolt_group(st.array, sp("Olisipo")) == 4
    st.array[hl.GEN_POS] = sp("Olisipo") - 0  # not allowed in revolt; just for the capital rule
    st.array[hl.REVOLTS + sp("Olisipo")] = 0
    st.array[hl.REVOLTS + sp("Talabriga")] = 0
    st.array[hl.RESERVE] += 3
    assert hl.A_GARRISON in legal(st)  # pirates belong to no province
    assert chance_kind(st) == 0
