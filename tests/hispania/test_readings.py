"""The readings the rulebook leaves open, as options (docs/rules/hispania.md rows 10, 11,
19, 28, V9, V17): who wins a tie (``combat_ties``), which revolts count in an army's value
(``hispanic_revolts``), whether a beaten army takes a revolt with it (``beaten_army``),
where a beaten garrison goes (``beaten_garrison``),
how often the assassination may be tried (``assassination``) and when the Hispano player
attacks (``hispano_attacks``). Each reading on a constructed position and roll."""

from __future__ import annotations

import numpy as np
import pytest

import boardsim
from boardsim.core.errors import OptionError
from boardsim.games.hispania import heuristic
from boardsim.games.hispania import layout as hl
from tests.agents.heuristic_positions import heuristic_move, positions

from .helpers import (
    NAMES,
    army_city,
    blank_roman,
    chance_kind,
    garrisons,
    legal,
    put,
    revolts,
    roll,
    sp,
)


def hispanic(**kw: object) -> boardsim.State:
    """The Roman phase of praetor I, ready to pass into the Hispanic phase."""
    st = blank_roman(**kw)  # type: ignore[arg-type]
    put(st, "Lancia", garrisons=(2,))  # the revolt roll 5-6 lands here: protected
    return st


def attack_regina(**options: object) -> boardsim.State:
    """Praetor I at Corduba attacks the army on Regina (2 revolts, Sisapo's 1 linked):
    1 denarius, Roman die 2: 2 + 1 + his "+1" disc = 4; Hispanic die 1: 1 + the revolts."""
    st = blank_roman(generals=("Corduba", "Valentia", "Mare Ibericum"), **options)
    put(st, "Regina", revolts=2, army=0)
    put(st, "Sisapo", revolts=1)
    put(st, "Lancia", garrisons=(2,))
    st.apply_action(hl.A_ATTACK + sp("Regina"))
    st.apply_action(hl.A_SPEND)
    roll(st, 2, 1)
    return st


def army_beaten(st: boardsim.State) -> bool:
    """The general stays, the army is gone, its revolts stay, his phase goes on."""
    return (
        int(st.array[hl.GEN_POS]) == sp("Corduba")
        and army_city(st, 0) is None
        and revolts(st, "Regina") == 2
        and st.current_player() == 0
        and int(st.array[hl.DENARII]) == 5
    )


def general_beaten(st: boardsim.State) -> bool:
    """The general leaves the board, the army stays, the Roman phase is over."""
    return (
        int(st.array[hl.GEN_POS]) == -1
        and army_city(st, 0) == "Regina"
        and chance_kind(st) == hl.CK_REVOLT_PROV
    )


# ---------------------------------------------------------------- combat_ties
@pytest.mark.parametrize(("ties", "left"), [("defender", 1), ("attacker", 0)])
def test_a_siege_tie_keeps_the_revolt_unless_ties_go_to_the_attacker(ties: str, left: int) -> None:
    """The consul at Corduba (no "+1" disc, no other general linked to Regina) besieges
    Regina (shield 2) with 1 denarius and rolls 1: 2 against 2."""
    st = blank_roman(generals=("Castulo", "Valentia", "Corduba"), turn=2, combat_ties=ties)
    put(st, "Regina", revolts=1)
    st.apply_action(hl.A_BESIEGE + sp("Regina"))
    st.apply_action(hl.A_SPEND)
    roll(st, 1)
    assert revolts(st, "Regina") == left
    assert int(st.array[hl.RESERVE]) == 22 - left
    assert int(st.array[hl.DENARII]) == 5 and st.current_player() == 2  # spent either way


def test_a_tied_attack_on_an_army_beats_the_general_or_the_army() -> None:
    """4 (Roman) against 1 + 3 revolts (Regina's group) = 4."""
    assert general_beaten(attack_regina())
    assert army_beaten(attack_regina(combat_ties="attacker"))


@pytest.mark.parametrize(("ties", "kept"), [("defender", [0]), ("attacker", [])])
def test_a_tied_army_attack_on_a_garrison(ties: str, kept: list[int]) -> None:
    """The army on Talabriga (1 revolt) walks into Conimbriga (shield 4, praetor I's
    garrison): Hispanic die 3, 3 + 1 = 4 against 4. The army never advances."""
    st = hispanic(combat_ties=ties)
    put(st, "Talabriga", revolts=1, army=0)
    put(st, "Conimbriga", garrisons=(0,))
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6, 3)  # the revolt roll on Lancia (protected), then the attack's die
    assert garrisons(st, "Conimbriga") == kept
    assert int(st.array[hl.GARR_RESERVE]) == 4 - len(kept)  # a beaten one goes home
    assert army_city(st, 0) == "Talabriga"


@pytest.mark.parametrize(("reading", "home"), [("reserve", 4), ("lost", 3)])
def test_a_beaten_garrison_goes_home_or_is_lost(reading: str, home: int) -> None:
    """The army on Talabriga (1 revolt) walks into Conimbriga (shield 4, praetor I's
    garrison): Hispanic die 6, 6 + 1 = 7 against 4, the garrison is beaten. It goes back to
    praetor I's reserve (4 there again) or leaves the game (3 left to him for the rest of
    it); the position stays valid either way, the army where it stood."""
    st = hispanic(beaten_garrison=reading)
    put(st, "Talabriga", revolts=1, army=0)
    put(st, "Conimbriga", garrisons=(0,))
    assert int(st.array[hl.GARR_RESERVE]) == 3
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6, 6)  # the revolt roll on Lancia (protected), then the attack's die
    assert garrisons(st, "Conimbriga") == [] and army_city(st, 0) == "Talabriga"
    assert int(st.array[hl.GARR_RESERVE]) == home
    boardsim.State(st.game, st.array.copy())  # a valid position under its own reading
    if reading == "lost":  # the same board is short of a garrison under the default
        with pytest.raises(boardsim.StateFormatError, match="garrisons on the board and in"):
            boardsim.State(boardsim.make_game("hispania"), st.array.copy())


@pytest.mark.parametrize(
    ("ties", "general", "army"), [("defender", "Conimbriga", None), ("attacker", None, "Talabriga")]
)
def test_a_tied_army_attack_on_a_general(ties: str, general: str | None, army: str | None) -> None:
    """Praetor I stands on Conimbriga (no garrisons, no "+1" there): Hispanic die 1,
    1 + 1 revolt = 2; Roman die 2: 2 against 2."""
    st = hispanic(generals=("Conimbriga", "Valentia", "Mare Ibericum"), combat_ties=ties)
    put(st, "Talabriga", revolts=1, army=0)
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6, 1, 2)
    g = int(st.array[hl.GEN_POS])
    assert (NAMES[g] if g >= 0 else None) == general
    assert army_city(st, 0) == army


# ---------------------------------------------------------------- hispanic_revolts
def test_only_the_armys_own_city_counts_under_the_city_reading() -> None:
    """The same attack: 1 + Regina's 2 revolts = 3 without Sisapo's, so 4 beats it."""
    assert general_beaten(attack_regina(hispanic_revolts="group"))
    assert army_beaten(attack_regina(hispanic_revolts="city"))


@pytest.mark.parametrize(("reading", "kept"), [("group", []), ("city", [0])])
def test_pirates_add_to_an_armys_value_only_in_the_group_reading(
    reading: str, kept: list[int]
) -> None:
    """Pirates on Mare Atlanticum, linked to the army's Talabriga (1 revolt): Hispanic
    die 3 against Conimbriga's shield 4 is 3 + 2 = 5 with the group, 3 + 1 = 4 (a tie,
    the city holds) with the army's city only: a sea is never an army's city."""
    st = hispanic(pirates=True, hispanic_revolts=reading)
    put(st, "Talabriga", revolts=1, army=0)
    put(st, "Mare Atlanticum", revolts=1)
    put(st, "Conimbriga", garrisons=(0,))
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6, 3)
    assert garrisons(st, "Conimbriga") == kept
    assert army_city(st, 0) == "Talabriga"


# ---------------------------------------------------------------- beaten_army
@pytest.mark.parametrize(("reading", "left"), [("revolts_stay", 2), ("revolt_removed", 1)])
def test_an_army_beaten_by_a_general_may_take_a_revolt_with_it(reading: str, left: int) -> None:
    """Praetor I attacks Regina's army: Roman die 6, 6 + 1 + 1 = 8 against 1 + 3 = 4."""
    st = blank_roman(generals=("Corduba", "Valentia", "Mare Ibericum"), beaten_army=reading)
    put(st, "Regina", revolts=2, army=0)
    put(st, "Sisapo", revolts=1)
    st.apply_action(hl.A_ATTACK + sp("Regina"))
    st.apply_action(hl.A_SPEND)
    roll(st, 6, 1)
    assert army_city(st, 0) is None and int(st.array[hl.GEN_POS]) == sp("Corduba")
    assert revolts(st, "Regina") == left and revolts(st, "Sisapo") == 1
    assert int(st.array[hl.RESERVE]) == 22 - 1 - left


@pytest.mark.parametrize(("reading", "left"), [("revolts_stay", 1), ("revolt_removed", 0)])
def test_an_army_beaten_attacking_a_general_may_take_a_revolt_with_it(
    reading: str, left: int
) -> None:
    """The army on Talabriga (1 revolt) attacks praetor I on Conimbriga: Hispanic die 1,
    1 + 1 = 2, against Roman die 6: the army goes back to the reserve."""
    st = hispanic(generals=("Conimbriga", "Valentia", "Mare Ibericum"), beaten_army=reading)
    put(st, "Talabriga", revolts=1, army=0)
    st.apply_action(hl.A_PASS)
    roll(st, 5, 6, 1, 6)
    assert army_city(st, 0) is None and int(st.array[hl.GEN_POS]) == sp("Conimbriga")
    assert revolts(st, "Talabriga") == left


# ---------------------------------------------------------------- assassination
@pytest.mark.parametrize(("reading", "again"), [("once_per_game", False), ("while_in_game", True)])
def test_a_failed_assassination_is_tried_again_only_while_in_game(
    reading: str, again: bool
) -> None:
    """Praetor I at Corduba, linked to the special army on Regina, spends 1 denarius and
    the Hispanic die shows 6: failed, an exceptional revolt roll (5, 6: Lancia, protected),
    then his Roman phase goes on with 5 denarii."""
    st = blank_roman(
        generals=("Corduba", "Valentia", "Mare Ibericum"),
        terror=True,
        traitors=True,
        assassination=reading,
    )
    put(st, "Regina", revolts=2, army=hl.SPECIAL)
    put(st, "Lancia", garrisons=(2,))
    st.apply_action(hl.A_ASSASSINATE)
    st.apply_action(hl.A_SPEND)
    roll(st, 6, 5, 6)
    assert int(st.array[hl.PHASE]) == hl.PH_ROMAN and int(st.array[hl.DENARII]) == 5
    assert (hl.A_ASSASSINATE in legal(st)) == again
    if again:  # 3 denarii and a 3 this time: murdered, a third army in his place
        st.apply_action(hl.A_ASSASSINATE)
        st.apply_action(hl.A_SPEND + 2)
        roll(st, 3)
        assert int(st.array[hl.ARMY_POS + hl.SPECIAL]) == hl.GONE
        assert army_city(st, 2) == "Regina" and hl.A_ASSASSINATE not in legal(st)


# ---------------------------------------------------------------- hispano_attacks
def hispano_turn(reading: str) -> boardsim.State:
    """Praetor I at Castulo passes; the Hispano player (2 denarii) has the army on Regina
    (2 revolts), linked to Corduba's two garrisons (shield 4); the revolt roll 5-6 lands
    on Lancia (protected); Regina's one city of its province to move to is Sisapo, also
    linked to Corduba."""
    st = blank_roman(
        generals=("Castulo", "Valentia", "Mare Ibericum"), hispano=True, hispano_attacks=reading
    )
    st.array[hl.HDENARII] = 2
    put(st, "Lancia", garrisons=(2,))
    put(st, "Regina", revolts=2, army=0)
    put(st, "Corduba", garrisons=(0, 1))
    st.apply_action(hl.A_PASS)
    return st


@pytest.mark.parametrize(("reading", "steps"), [("after_move", 1), ("any_step", 3)])
def test_hispanos_attack_steps_in_one_hispanic_phase(reading: str, steps: int) -> None:
    """Hispano passes at every attack step: after the move only, or also before the roll
    and between the roll and the move; each pass goes on, and the turn passes."""
    st = hispano_turn(reading)
    seen = []
    while st.current_player() != 1:
        if st.is_chance_node():
            roll(st, {hl.CK_REVOLT_PROV: 5, hl.CK_REVOLT_CITY: 6}[chance_kind(st)])
            continue
        assert st.current_player() == hl.HISPANO
        if int(st.array[hl.PHASE]) == hl.PH_H_ATTACK:
            assert legal(st) == {hl.A_H_ACCEPT, hl.A_H_ARMY}
            seen.append(army_city(st, 0))
        st.apply_action(hl.A_H_ACCEPT)
    assert seen == ["Regina"] * (steps - 1) + ["Sisapo"]


@pytest.mark.parametrize("reading", ["after_move", "any_step"])
def test_hispano_attacks_before_the_revolt_roll_only_at_any_step(reading: str) -> None:
    """At any step he attacks Corduba before the revolt roll: 2 denarii, die 1, 1 + 2 + 2
    revolts = 5 > 4, the top garrison goes. After the move only, the roll comes first."""
    st = hispano_turn(reading)
    if reading == "after_move":
        assert chance_kind(st) == hl.CK_REVOLT_PROV
        return
    st.apply_action(hl.A_H_ARMY)
    st.apply_action(hl.A_H_CITY + sp("Corduba"))
    st.apply_action(hl.A_H_SPEND + 1)
    roll(st, 1)
    assert garrisons(st, "Corduba") == [0] and army_city(st, 0) == "Regina"
    assert chance_kind(st) == hl.CK_REVOLT_PROV  # no denarius left: the roll


# ---------------------------------------------------------------- options and policies
def test_the_options_take_their_readings_and_refuse_others() -> None:
    game = boardsim.make_game("hispania")
    assert game.options["combat_ties"] == "defender"
    assert game.options["hispanic_revolts"] == "group"
    assert game.params[hl.P_COMBAT_TIES] == 0 and game.params[hl.P_HISPANIC_REVOLTS] == 0
    game = boardsim.make_game("hispania", combat_ties="attacker", hispanic_revolts="city")
    assert game.params[hl.P_COMBAT_TIES] == 1 and game.params[hl.P_HISPANIC_REVOLTS] == 1
    with pytest.raises(OptionError, match="'defender', 'attacker'"):
        boardsim.make_game("hispania", combat_ties="draw")
    with pytest.raises(OptionError, match="'group', 'city'"):
        boardsim.make_game("hispania", hispanic_revolts="province")
    assert boardsim.make_game("hispania").params[hl.P_BEATEN_ARMY] == 0
    game = boardsim.make_game("hispania", beaten_army="revolt_removed")
    assert game.params[hl.P_BEATEN_ARMY] == 1
    with pytest.raises(OptionError, match="'revolts_stay', 'revolt_removed'"):
        boardsim.make_game("hispania", beaten_army="all")
    assert boardsim.make_game("hispania").params[hl.P_BEATEN_GARRISON] == 0
    assert boardsim.make_game("hispania", beaten_garrison="lost").params[hl.P_BEATEN_GARRISON] == 1
    with pytest.raises(OptionError, match="'reserve', 'lost'"):
        boardsim.make_game("hispania", beaten_garrison="returned")
    game = boardsim.make_game("hispania", level="6-4-3-4-2", hispano=True, terror=True)
    assert game.params[hl.P_ASSASSINATION] == 0 and game.params[hl.P_HISPANO_ATTACKS] == 0
    game = boardsim.make_game(
        "hispania",
        hispano=True,
        terror=True,
        traitors=True,
        assassination="while_in_game",
        hispano_attacks="any_step",
    )
    assert game.params[hl.P_ASSASSINATION] == 1 and game.params[hl.P_HISPANO_ATTACKS] == 1
    with pytest.raises(OptionError, match="needs traitors=True"):
        boardsim.make_game("hispania", terror=True, assassination="while_in_game")
    with pytest.raises(OptionError, match="needs hispano=True"):
        boardsim.make_game("hispania", hispano_attacks="any_step")


@pytest.mark.parametrize(
    ("options", "wins"),
    [
        ({}, 10),  # the Roman die must beat the Hispanic die by 2
        ({"combat_ties": "attacker"}, 15),  # by 1
        ({"hispanic_revolts": "city"}, 15),  # by 1
        ({"combat_ties": "attacker", "hispanic_revolts": "city"}, 21),  # match it
    ],
)
def test_the_heuristic_estimates_its_odds_under_the_reading_played(
    options: dict, wins: int
) -> None:
    """Before attacking Regina with 1 denarius: Roman die + 2 against Hispanic die + 3
    (group) or + 2 (city), out of 36 rolls."""
    st = blank_roman(generals=("Corduba", "Valentia", "Mare Ibericum"), **options)
    put(st, "Regina", revolts=2, army=0)
    put(st, "Sisapo", revolts=1)
    p = heuristic._attack_p(st.array, st.game.params, 0, sp("Regina"), 1)
    assert p == pytest.approx(wins / 36)


def test_the_compiled_heuristic_chooses_as_the_python_one_under_both_readings() -> None:
    game = boardsim.make_game(
        "hispania",
        level="7-5-4-5-1",
        combat_ties="attacker",
        hispanic_revolts="city",
        beaten_army="revolt_removed",
    )
    prng = np.zeros(2, np.int32)
    compared = 0
    for state in positions(game, games=4, explore=0.25, seed=3):
        expected = heuristic.choose_action(game.params, state.array)
        assert heuristic_move(game, state, prng) == expected, state.action_to_string(expected)
        compared += 1
    assert compared > 100
