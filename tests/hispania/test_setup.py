"""Set-up: the rulebook's example at level 6-4-3-4-2, the level option, each set-up sentence."""

from __future__ import annotations

import itertools

import pytest

import boardsim
from boardsim.games.hispania import layout as hl

from .helpers import army_city, chance_kind, legal, link, revolts, roll, sp


def test_setup_example_6_4_3_4_2() -> None:
    """Rolls 4-5-2-4-3-6, armies II and V, roads to Emerita, Capara, Ilerda, Basti."""
    g = boardsim.make_game("hispania", level="6-4-3-4-2", explicit_chance=True)
    st = g.new_initial_state(7)
    a = st.array
    # 1. fleets in seas 1-2-3; 4 garrisons per general
    assert list(a[hl.FLEET : hl.FLEET + 5]) == [1, 1, 1, 0, 0]
    assert list(a[hl.GARR_RESERVE : hl.GARR_RESERVE + 3]) == [4, 4, 4]
    # 2. the revolt dice, province I to VI
    assert chance_kind(st) == hl.CK_SETUP_REVOLT
    roll(st, 4, 5, 2, 4, 3, 6)
    expected = {
        "Salduba": 2,
        "Segobriga": 1,
        "Regina": 3,
        "Conimbriga": 2,
        "Asturica": 2,
        "Flaviobriga": 1,
    }
    for city, n in expected.items():
        assert revolts(st, city) == n, city
    assert int(a[hl.REVOLTS : hl.REVOLTS + 49].sum()) == 11
    assert int(a[hl.RESERVE]) == 22 - 11
    # 3. armies rolled II and V
    assert chance_kind(st) == hl.CK_SETUP_ARMY
    roll(st, 2)
    assert [o for o, _ in st.chance_outcomes()] == [1, 3, 4, 5, 6]  # II is rerolled
    roll(st, 5)
    assert {army_city(st, 0), army_city(st, 1)} == {"Segobriga", "Asturica"}
    assert army_city(st, 2) is None
    # 4. four roads by I, II, III, I
    steps = [
        ("Gades", "Emerita"),
        ("Emerita", "Capara"),
        ("Tarraco", "Ilerda"),
        ("Basti", "Carthago Nova"),
    ]
    assert hl.A_ROAD + link("Emerita", "Capara") not in legal(st)  # Emerita must come first
    for i, (x, y) in enumerate(steps):
        assert st.current_player() == i % 3
        assert hl.A_ROAD + link(x, y) in legal(st)
        st.apply_action(hl.A_ROAD + link(x, y))
    # 5. praetors in Gades and Valentia, consul on the Mare Ibericum fleet
    assert st.current_player() == 0
    assert hl.A_SPACE + sp("Valentia") not in legal(st)
    st.apply_action(hl.A_SPACE + sp("Gades"))
    assert st.current_player() == 1
    st.apply_action(hl.A_SPACE + sp("Valentia"))
    assert st.current_player() == 2
    assert legal(st) == {
        hl.A_SPACE + sp(s) for s in ("Mare Balearicum", "Mare Ibericum", "Fretum Gaditanum")
    }
    st.apply_action(hl.A_SPACE + sp("Mare Ibericum"))
    # the turn of praetor I begins
    assert st.current_player() == 0
    assert int(a[hl.PHASE]) == hl.PH_ROMAN and int(a[hl.DENARII]) == 6
    assert int(a[hl.GEN_POS]) == sp("Gades") and int(a[hl.GEN_POS + 2]) == sp("Mare Ibericum")


def test_level_validation_lists_the_allowed_form() -> None:
    for bad in ("7-4-3-4-2-1", "8-4-3-4-2", "6-4-3-4", "medium", "6-4-3-4-0"):
        with pytest.raises(boardsim.OptionError) as info:
            boardsim.make_game("hispania", level=bad)
        msg = str(info.value)
        assert "denarii-garrisons-fleets-roads-armies" in msg and "7/6/5" in msg
    with pytest.raises(boardsim.OptionError):
        boardsim.make_game("hispania", colour="green")


def test_all_243_levels_are_accepted() -> None:
    levels = [
        "-".join(map(str, v))
        for v in itertools.product((7, 6, 5), (5, 4, 3), (4, 3, 2), (5, 4, 3), (1, 2, 3))
    ]
    assert len(set(levels)) == 243
    for lv in levels:
        g = boardsim.make_game("hispania", level=lv)
        d, gar, f, r, a = map(int, lv.split("-"))
        assert list(g.params[hl.P_DENARII : hl.P_ARMIES + 1]) == [d, gar, f, r, a]


@pytest.mark.parametrize("fleets", [2, 3, 4])
def test_fleets_in_consecutive_seas_from_1(fleets: int) -> None:
    g = boardsim.make_game("hispania", level=f"6-4-{fleets}-4-2")
    st = g.new_initial_state(1)
    assert list(st.array[hl.FLEET : hl.FLEET + 5]) == [1] * fleets + [0] * (5 - fleets)


@pytest.mark.parametrize("die,count", [(1, 3), (2, 3), (3, 2), (4, 2), (5, 1), (6, 1)])
def test_setup_revolts_by_die(die: int, count: int) -> None:
    g = boardsim.make_game("hispania", explicit_chance=True)
    st = g.new_initial_state(0)
    roll(st, die)
    assert revolts(st, boardsim.games.hispania.data.SPACE_NAMES[die - 1]) == count


def test_initial_army_reroll_and_count() -> None:
    g = boardsim.make_game("hispania", level="6-4-3-4-3", explicit_chance=True)
    st = g.new_initial_state(0)
    roll(st, 1, 1, 1, 1, 1, 1)
    roll(st, 6)
    assert [o for o, _ in st.chance_outcomes()] == [1, 2, 3, 4, 5]
    roll(st, 1, 3)
    assert not st.is_chance_node()
    assert sorted(int(x) for x in st.array[hl.ARMY_POS : hl.ARMY_POS + 3]) == [0, 12, 30]


def test_roads_never_reach_a_revolt_or_capital_and_extend_the_network() -> None:
    g = boardsim.make_game("hispania", explicit_chance=True)
    st = g.new_initial_state(0)
    roll(st, 5, 5, 1, 5, 5, 5)  # Ilerda (I-5) and Sisapo (III-1) among the revolts
    roll(st, 1, 2)
    acts = legal(st)
    from boardsim.games.hispania import data as hd

    for a in acts:
        li = a - hl.A_ROAD
        x, y = int(hd.LINK_A[li]), int(hd.LINK_B[li])
        assert hd.LINK_SEA[li] == 0
        for c in (x, y):
            assert st.array[hl.REVOLTS + c] == 0 and hd.CITY_CAPITAL[c] == 0
        assert any(
            hd.INITIAL_ROADS[hd.ADJ_LINK[c, t]]
            for c in (x, y)
            for t in hd.NEIGHBOURS[c, : hd.DEGREE[c]]
        )
    assert hl.A_ROAD + link("Corduba", "Sisapo") not in acts  # Sisapo in revolt
    assert hl.A_ROAD + link("Corduba", "Regina") in acts
    assert hl.A_ROAD + link("Tarraco", "Ilerda") not in acts  # Ilerda in revolt
    assert hl.A_ROAD + link("Tarraco", "Barcino") in acts


def test_auto_setup_places_roads_and_generals() -> None:
    g = boardsim.make_game("hispania", auto_setup=True)
    st = g.new_initial_state(3)
    a = st.array
    assert st.current_player() == 0 and int(a[hl.PHASE]) == hl.PH_ROMAN
    assert int(a[hl.ROADS : hl.ROADS + 97].sum()) == 6 + 4
    assert int(a[hl.GEN_POS]) == sp("Corduba") and int(a[hl.GEN_POS + 1]) == sp("Tarraco")
    assert int(a[hl.GEN_POS + 2]) == sp("Mare Balearicum")


def test_agents_rome_maps_every_general_to_one_agent() -> None:
    g = boardsim.make_game("hispania", agents="rome")
    assert g.agent_names() == ["rome"]
    assert [g.definition.agent_of_player(g.options, p) for p in range(3)] == [0, 0, 0]
    g2 = boardsim.make_game("hispania")
    assert g2.agent_names() == ["praetor_ulterior", "praetor_citerior", "consul"]
