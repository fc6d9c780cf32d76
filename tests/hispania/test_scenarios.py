"""The five scenarios: set-up, time, variants, special rules; played to the end."""

from __future__ import annotations

import random

import pytest

import boardsim
from boardsim.core.header import H_ACTOR
from boardsim.games.hispania import combat as hc
from boardsim.games.hispania import layout as hl

from .helpers import army_city, chance_kind, garrisons, legal, revolts, roll, sp
from .invariants import check_invariants
from .test_differential import compare_game

LEVELS = {
    "first_repression": "6-4-3-4-2",
    "numantia": "6-4-3-4-3",
    "terror": "6-4-3-4-2",
    "river_of_oblivion": "6-4-3-4-3",
    "new_empire": "6-4-3-5-2",
}


def game(sid: str, **kw: object) -> boardsim.Game:
    return boardsim.make_game(
        "hispania", scenario=sid, level=kw.pop("level", LEVELS[sid]), explicit_chance=True, **kw
    )


def to_first_decision_after_setup(st: boardsim.State, dice: int = 6) -> None:
    """Roll the set-up dice (highest allowed) and place the roads with the first legal link."""
    while int(st.array[hl.PHASE]) <= hl.PH_SETUP_PLACE and not st.is_terminal():
        if st.is_chance_node():
            outs = [o for o, _ in st.chance_outcomes()]
            st.apply_action(max(o for o in outs if o <= dice) if min(outs) <= dice else outs[0])
        else:
            st.apply_action(st.legal_actions()[0])


def test_first_repression_setup_and_time() -> None:
    st = game("first_repression").new_initial_state(0)
    a = st.array
    assert chance_kind(st) == hl.CK_SETUP_REVOLT and int(a[hl.COUNTER]) == 3  # IV first
    assert revolts(st, "Gerunda") == 3 and revolts(st, "Puciala") == 2
    assert revolts(st, "Castulo") == 2 and revolts(st, "Toletum") == 1
    assert army_city(st, 0) == "Puciala" and army_city(st, 1) == "Castulo"
    assert garrisons(st, "Baecula") == [2]
    assert int(a[hl.GEN_POS]) == sp("Corduba") and int(a[hl.GEN_POS + 2]) == sp("Baecula")
    roll(st, 1, 1, 1)  # IV, V, VI
    assert int(a[hl.PHASE]) == hl.PH_SETUP_ROAD  # 2 armies already: none rolled
    to_first_decision_after_setup(st)
    assert st.current_player() == 2 and int(a[hl.PHASE]) == hl.PH_ROMAN  # Cato's turn
    assert int(a[hl.TRACK]) == 0 and int(a[hl.DISPLAY]) == 1
    with pytest.raises(boardsim.OptionError, match="initial armies at least 2"):
        boardsim.make_game("hispania", scenario="first_repression", level="6-4-3-4-1")


def test_display_of_power_limits_the_hispanic_value_in_the_consuls_first_turn() -> None:
    st = game("first_repression").new_initial_state(0)
    to_first_decision_after_setup(st)
    # Cato in Baecula attacks the army of Castulo: 2 revolts + Puciala's group would count
    assert hl.A_ATTACK + sp("Castulo") in legal(st)
    st.apply_action(hl.A_ATTACK + sp("Castulo"))
    st.apply_action(hl.A_SPEND)
    roll(st, 2, 3)  # Roman 2 + 1 + 1 garrison = 4 > bare die 3 (not 3 + 2 revolts)
    assert army_city(st, 1) is None
    # after his turn the rule lapses
    a = st.array
    a[hl.DENARII] = 0
    st2 = game("first_repression").new_initial_state(0)
    to_first_decision_after_setup(st2)
    st2.apply_action(hl.A_PASS)
    while st2.current_player() != 0:
        st2.apply_action(next(o for o, _ in st2.chance_outcomes()))
    assert int(st2.array[hl.DISPLAY]) == 0 and int(st2.array[hl.TRACK]) == 1


@pytest.mark.parametrize("reading", ["bare_die", "named_only"])
def test_display_of_power_drops_the_bare_die_or_only_what_it_names(reading: str) -> None:
    """Ledger S5, option display_of_power: in Cato's first turn the Hispano player has put
    2 denarii on an army's die of 3. "bare_die": its value is 3, and 3 for the special army
    too; "named_only": the revolts and the x2 of linked armies go, not the rest: 3 + 2 = 5,
    and the special army doubles its own, 10 (the reference agrees: test_differential's
    display sets). The option needs the scenario."""
    g = game("first_repression", display_of_power=reading, hispano=True)
    st = g.new_initial_state(0)
    to_first_decision_after_setup(st)
    a = st.array.copy()
    assert int(a[hl.DISPLAY]) == 1
    a[hl.HISP_BONUS] = 2
    want = (3, 3) if reading == "bare_die" else (5, 10)
    got = tuple(int(hc.display_value(a, g.params, k, 3)) for k in (0, hl.SPECIAL))
    assert got == want
    with pytest.raises(boardsim.OptionError, match="first_repression"):
        boardsim.make_game("hispania", display_of_power="named_only")


def test_numantia_carpetania_cities_1_3_5_and_no_army_in_ilergetia() -> None:
    st = game("numantia").new_initial_state(0)
    a = st.array
    assert int(a[hl.TRACK]) == 2 and int(a[hl.COUNTER]) == 2
    assert [o for o, _ in st.chance_outcomes()] == [1, 3, 5]
    roll(st, 3, 1, 1, 1)  # Cauca (III-3), then IV, V, VI
    assert revolts(st, "Cauca") == 2
    # the level has 3 armies; Numantia's counts; I is barred, II taken
    assert [o for o, _ in st.chance_outcomes()] == [3, 4, 5, 6]
    assert garrisons(st, "Regina") == [0] and int(a[hl.GEN_POS + 2]) == sp("Toletum")


def test_terror_starts_in_the_hispanic_phase_with_viriatus() -> None:
    st = game("terror").new_initial_state(0)
    to_first_decision_after_setup(st)
    a = st.array
    assert st.is_chance_node() and chance_kind(st) == hl.CK_REVOLT_PROV
    assert int(a[hl.TURN]) == 0 and int(a[hl.TRACK]) == 3
    assert int(a[hl.ARMY_POS + hl.SPECIAL]) == sp("Abula") and revolts(st, "Abula") == 3
    g = game("terror")
    assert int(g.params[hl.P_TERROR]) == 1


def test_river_of_oblivion_pirates_and_level_limits() -> None:
    g = game("river_of_oblivion")
    assert int(g.params[hl.P_PIRATES]) == 1
    st = g.new_initial_state(0)
    assert revolts(st, "Mare Atlanticum") == 1 and revolts(st, "Mare Cantabricum") == 1
    assert revolts(st, "Lucus") == 1 and army_city(st, 0) == "Lucus"
    with pytest.raises(boardsim.OptionError, match="fleets at least 3"):
        boardsim.make_game("hispania", scenario="river_of_oblivion", level="6-4-2-4-2")
    with pytest.raises(boardsim.OptionError, match="roads at most 4"):
        boardsim.make_game("hispania", scenario="river_of_oblivion", level="6-4-3-5-2")
    # no other revolts; armies only in II, V, VI (V taken)
    assert chance_kind(st) == hl.CK_SETUP_ARMY
    assert [o for o, _ in st.chance_outcomes()] == [2, 6]


def test_lethe_river_only_brutus_crosses_and_it_opens_the_north() -> None:
    st = game("river_of_oblivion").new_initial_state(0)
    to_first_decision_after_setup(st)
    a = st.array
    assert st.current_player() == 0 and int(a[hl.LETHE]) == 1
    # Brutus in Conimbriga; Talabriga (revolt) stands between him and Bracara: move him
    a[hl.GEN_POS] = sp("Salmantica")
    a[hl.REVOLTS + sp("Salmantica")] = 0
    a[hl.RESERVE] += 1
    acts = legal(st)
    assert hl.A_SPACE + sp("Asturica") not in acts  # in revolt
    a[hl.REVOLTS + sp("Asturica")] = 0
    a[hl.RESERVE] += 1
    acts = legal(st)
    assert hl.A_SPACE + sp("Asturica") in acts  # across the Durius (Salmantica-Asturica)
    assert hl.A_SPACE + sp("Bracara") not in acts  # no going on once across
    # the consul may not enter; combat support towards the north is nil
    a[hl.GEN_POS + 2] = sp("Cauca")
    assert hc.attack_support(a, 2, sp("Pallantia")) == 0
    st.apply_action(hl.A_SPACE + sp("Asturica"))
    assert int(a[hl.LETHE]) == 0
    a[hl.TURN] = 2
    a[H_ACTOR] = 2
    a[hl.DENARII] = 6
    assert hl.A_SPACE + sp("Lancia") in legal(st) or revolts(st, "Lancia") > 0


def test_new_empire_setup_time_and_guerrilla() -> None:
    with pytest.raises(boardsim.OptionError, match="pirates"):
        boardsim.make_game("hispania", scenario="new_empire", level="6-4-3-5-2", pirates=True)
    with pytest.raises(boardsim.OptionError, match="roads exactly 5"):
        boardsim.make_game("hispania", scenario="new_empire", level="6-4-3-4-2")
    g = game("new_empire")
    for v in (hl.P_IMPERIVM, hl.P_LEGIO, hl.P_TERROR):
        assert int(g.params[v]) == 1
    st = g.new_initial_state(0)
    a = st.array
    assert list(a[hl.FLEET : hl.FLEET + 5]) == [1, 0, 0, 1, 1]
    assert int(a[hl.TRACK]) == 3 and int(a[hl.RESERVE]) == 22 - 3 - 6
    # the army on a Gallaecia revolt (Noega 1, Asturica 3, Lancia 6), then the special one
    assert [o for o, _ in st.chance_outcomes()] == [1, 3, 6]
    roll(st, 3)
    assert [o for o, _ in st.chance_outcomes()] == [3, 5, 6]
    roll(st, 6)
    assert army_city(st, 0) == "Asturica" and army_city(st, 3) == "Flaviobriga"
    to_first_decision_after_setup(st)
    assert st.current_player() == 2 and int(a[hl.LEGIO_OWNER]) == 2
    st.apply_action(hl.A_PASS)
    roll(st, 3)  # odd: Gallaecia
    assert int(a[hl.REVOLT_PROV]) == 4
    roll(st, 1)  # Noega: a revolt there already, V has an army: another revolt
    assert revolts(st, "Noega") == 2


def test_new_empire_ends_after_three_revolts_on_18() -> None:
    st = game("new_empire").new_initial_state(0)
    to_first_decision_after_setup(st)
    a = st.array
    a[hl.TRACK] = 8
    a[hl.RESERVE] -= 5
    st.apply_action(hl.A_PASS)
    roll(st, 2, 6)  # Flaviobriga (protected? no: it holds the special army: another revolt)
    while not st.is_terminal() and st.is_chance_node():
        st.apply_action(next(o for o, _ in st.chance_outcomes()))
    assert st.is_terminal() and int(a[hl.WINNER]) == hl.W_HISPANIA and int(a[hl.TRACK]) == 9


@pytest.mark.parametrize("sid", list(LEVELS))
def test_scenarios_play_to_the_end_with_invariants_and_match_the_reference(sid: str) -> None:
    for options in ({}, {"hispano": True}):
        g = boardsim.make_game("hispania", scenario=sid, level=LEVELS[sid], **options)
        for seed in range(8):
            st = g.new_initial_state(seed)
            rng = random.Random(seed)
            while not st.is_terminal():
                check_invariants(st.array, g.params)
                st.apply_action(rng.choice(st.legal_actions()))
            check_invariants(st.array, g.params)
            compare_game(g, seed + 100)


def test_a_scenario_s_variant_given_false_is_honoured() -> None:
    """Rulebook line 276: a scenario lists "the variants used or suggested (although you
    can use the ones you want)" (ledger ruling 27): The River of Oblivion without its
    pirates has no revolt on the seas; The New Empire without Imperivm and the Legio
    Hispana plays without them. Unset, the scenario's variants are on."""
    without = game("river_of_oblivion", pirates=False)
    assert without.options["pirates"] is False and int(without.params[hl.P_PIRATES]) == 0
    st = without.new_initial_state(0)
    assert revolts(st, "Mare Atlanticum") == 0 and revolts(st, "Mare Cantabricum") == 0
    assert revolts(st, "Lucus") == 1  # the scenario's own set-up stands
    assert game("river_of_oblivion").options["pirates"] is True
    empire = game("new_empire", imperivm=False, legio_hispana=False)
    assert empire.options["imperivm"] is False and empire.options["legio_hispana"] is False
    assert int(empire.params[hl.P_IMPERIVM]) == 0 and int(empire.params[hl.P_LEGIO]) == 0
    assert empire.options["terror"] is True
    # the options say what is played: a game remade from them is the same game
    assert (boardsim.make_game("hispania", **without.options).params == without.params).all()


@pytest.mark.parametrize("sid", ["terror", "new_empire"])
def test_terror_given_false_is_refused_where_the_set_up_has_the_special_army(sid: str) -> None:
    with pytest.raises(boardsim.OptionError, match=r"special army.*terror=False"):
        game(sid, terror=False)
