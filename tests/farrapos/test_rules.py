"""One test (at least) per rule sentence of the rulebook, plus the ledger's rulings."""

from __future__ import annotations

import pytest

import boardsim
from boardsim.core.errors import OptionError
from boardsim.core.game import Game, State
from boardsim.core.header import H_ACTOR
from boardsim.games.farrapos import layout as L
from boardsim.games.farrapos import rules
from boardsim.games.farrapos.data import BATTLE_TABLE, COLUMN_LOW, NUM_UNITS, PIECE_SIDE
from tests.farrapos.helpers import (
    act_city,
    act_unit,
    city,
    fresh,
    legal,
    piece,
    pieces_at,
    place,
    vp,
)


def empire_turn(s: State) -> None:
    """Pass the Republic's first turn."""
    s.apply_action(L.A_PASS)
    assert s.current_player() == 1


def roll(s: State, attack_die: int, defence_die: int) -> None:
    s.apply_action(attack_die)
    s.apply_action(defence_die)


# ---------------------------------------------------------------- a) attack
def test_attack_only_linked_enemy_cities(game: Game) -> None:
    s = fresh(game)
    acts = legal(s)
    assert act_city("porto_alegre") in acts and act_city("rio_grande") in acts
    assert act_city("lages") not in acts  # Empire-held, but no direct link
    s.apply_action(act_city("porto_alegre"))
    # the attacker informs which MU attack: only those in a linked city (an attack needs one)
    assert legal(s) == [act_unit(p) for p in ("R01", "R02", "R03", "R04")]


def test_a_chosen_attack_only_adds_units_then_is_made(game: Game) -> None:
    """Ledger F21 (issue 15): no withdraw-and-add or choose-and-cancel cycle. A unit once
    chosen stays chosen and a chosen city has no cancel, so the choice ends within one
    decision a unit plus the confirm."""
    s = fresh(game)
    s.apply_action(act_city("porto_alegre"))
    s.apply_action(act_unit("R01"))
    assert legal(s) == [*[act_unit(p) for p in ("R02", "R03", "R04")], L.A_CONFIRM]
    for p in ("R02", "R03", "R04"):
        s.apply_action(act_unit(p))
    assert legal(s) == [L.A_CONFIRM]


def test_no_limit_on_attacking_units_from_several_cities(dice_game: Game) -> None:
    s = fresh(dice_game)
    place(s, "R05", "camaqua")  # Camaquã is linked to Porto Alegre as well
    s.apply_action(act_city("porto_alegre"))
    for p in ("R01", "R02", "R03", "R04", "R05"):
        s.apply_action(act_unit(p))
    s.apply_action(L.A_CONFIRM)
    assert int(s.array[L.STR_A]) == 2 + 2 + 5 + 4 + 2


# ---------------------------------------------------------------- b) invade, c) move
def test_invade_a_linked_city_not_held_by_the_enemy(game: Game) -> None:
    s = fresh(game)
    s.apply_action(act_city("piratini"))
    assert int(s.array[L.MODE]) == L.M_MOVE
    acts = legal(s)
    assert act_unit("R05") in acts and act_unit("R09") in acts  # Pelotas, Bagé: linked
    assert act_unit("R04") in acts  # Triunfo cavalry: MF 3 via Camaquã and Pelotas
    assert act_unit("R01") not in acts and act_unit("R03") not in acts  # MF 2, MF 1: too far
    s.apply_action(act_unit("R05"))
    s.apply_action(L.A_CONFIRM)
    assert pieces_at(s, "piratini") == ["R05"]
    assert pieces_at(s, "pelotas") == ["R06", "R07", "R08"]
    assert vp(s) == (7, 7)  # Piratini is worth 2
    assert s.current_player() == 1


def test_move_many_units_from_several_cities_to_one_city(game: Game) -> None:
    s = fresh(game)
    s.apply_action(act_city("camaqua"))
    for p in ("R01", "R05", "R08"):
        s.apply_action(act_unit(p))
    s.apply_action(L.A_CONFIRM)
    assert pieces_at(s, "camaqua") == ["R01", "R05", "R08"]


def test_move_follows_path_lines_and_enemy_cities_block(game: Game) -> None:
    s = fresh(game)
    empire_turn(s)
    s.apply_action(act_city("camaqua"))
    acts = legal(s)
    assert act_unit("E01") in acts  # Porto Alegre is linked to Camaquã
    assert act_unit("E04") not in acts  # Rio Grande: the road runs through Republican Pelotas
    # an emptied city (possessed, not occupied) does not block
    s = fresh(game)
    empire_turn(s)
    for p in ("R05", "R06", "R07", "R08"):
        place(s, p, "triunfo")
    assert int(s.array[L.OWNER + city("pelotas")]) == 0
    assert int(s.array[L.OCC + city("pelotas")]) == -1
    s.apply_action(act_city("camaqua"))
    assert act_unit("E04") in legal(s)  # Rio Grande - Pelotas - Camaquã: 2 = infantry MF
    assert act_unit("E03") in legal(s)  # artillery MF 1, linked


def test_units_move_within_their_movement_factor(game: Game) -> None:
    """Triunfo - Rio Pardo - Cachoeira - Caçapava: 3 steps; only cavalry (MF 3) makes it."""
    s = fresh(game)
    s.apply_action(act_city("cacapava"))
    acts = legal(s)
    assert act_unit("R04") in acts  # cavalry
    assert act_unit("R01") not in acts and act_unit("R03") not in acts
    assert act_unit("R10") in acts and act_unit("R09") in acts  # Bagé - São Gabriel - Caçapava


def test_city_left_empty_scores_nothing_then_militia_keeps_it(game: Game) -> None:
    s = fresh(game)
    s.apply_action(act_city("piratini"))
    for p in ("R09", "R10", "R11", "R12"):
        s.apply_action(act_unit(p))
    s.apply_action(L.A_CONFIRM)
    # Bagé is left without MU or militia: empty, its 2 VP are not recorded
    assert vp(s) == (5, 7)
    assert int(s.array[L.OWNER + city("bage")]) == 0
    # the set-up step: a militia may be placed in an empty city of the side's possession
    assert int(s.array[L.MODE]) == L.M_MILITIA and s.current_player() == 0
    assert legal(s) == [act_city("bage"), L.A_PASS]
    s.apply_action(act_city("bage"))
    assert pieces_at(s, "bage") == ["RM1"]
    assert vp(s) == (7, 7)
    assert s.current_player() == 1


def test_empty_city_can_be_invaded_by_the_enemy(game: Game) -> None:
    s = fresh(game)
    s.apply_action(act_city("piratini"))
    for p in ("R05", "R06", "R07", "R08"):
        s.apply_action(act_unit(p))
    s.apply_action(L.A_CONFIRM)
    s.apply_action(L.A_PASS)  # no militia
    assert s.current_player() == 1
    assert s.action_to_string(act_city("pelotas")) == "invade Pelotas"
    s.apply_action(act_city("pelotas"))
    s.apply_action(act_unit("E04"))
    s.apply_action(L.A_CONFIRM)
    assert int(s.array[L.OWNER + city("pelotas")]) == 1
    # Pelotas' 2 VP go to the Empire; the Republic's Piratini (2) made up for leaving it
    assert vp(s) == (5, 7 + 2)


def test_militia_have_no_movement_and_at_most_four(game: Game) -> None:
    s = fresh(game)
    for i, name in enumerate(("viamao", "camaqua", "rio_pardo", "piratini", "cachoeira")):
        s.array[L.OWNER + city(name)] = 0  # possessed, empty
        if i < 4:
            place(s, f"RM{i + 1}", name)
    assert not rules.can_place_militia(s.array, 0)  # all 4 counters used
    s.apply_action(act_city("cachoeira"))
    militia_actions = set(range(L.A_UNIT + NUM_UNITS, L.A_UNIT + L.P))
    assert not militia_actions & set(legal(s))
    assert act_unit("R01") in legal(s)


# ---------------------------------------------------------------- reinforcements
def test_reinforcements_enter_in_own_cities_one_decision_each(game: Game) -> None:
    s = fresh(game)
    s.array[L.PHASE] = 5  # 1839: Republic R19, R20 (and 1836/1837 units not yet placed)
    rules.begin_turn(s.array, game.params)
    assert int(s.array[L.MODE]) == L.M_REINFORCE
    placed = 0
    while int(s.array[L.MODE]) == L.M_REINFORCE:
        assert set(legal(s)) == {act_city(n) for n in ("triunfo", "pelotas", "bage")}
        s.apply_action(act_city("bage"))
        placed += 1
    assert placed == 8
    assert len(pieces_at(s, "bage")) == 12


def republic_in_1836(g: Game) -> State:
    """1836 (phase 2), turn 1: the Republic's 4 MU of 1836 (R13-R16) arrive."""
    s = fresh(g)
    s.array[L.PHASE] = 2
    rules.begin_turn(s.array, g.params)
    return s


def test_arrivals_before_the_action_can_act_at_once(game: Game) -> None:
    """Ruling 3, arrivals="before" (default, l.79): "must include 4 MU ... in any city of
    his possession", then "repeats the procedures"."""
    s = republic_in_1836(game)
    assert int(s.array[L.MODE]) == L.M_REINFORCE and s.current_player() == 0
    for _ in range(4):
        s.apply_action(act_city("bage"))
    assert pieces_at(s, "bage") == ["R09", "R10", "R11", "R12", "R13", "R14", "R15", "R16"]
    assert int(s.array[L.MODE]) == L.M_MAIN  # then the action, with the new units in it
    s.apply_action(act_city("piratini"))
    assert act_unit("R13") in legal(s)
    s.apply_action(act_unit("R13"))
    s.apply_action(L.A_CONFIRM)
    assert pieces_at(s, "piratini") == ["R13"]
    assert s.current_player() == 1


def test_arrivals_after_the_action_enter_in_the_set_up_step() -> None:
    """Ruling 3, arrivals="after" (l.63): the action, then "Setup of new units if any, and
    the player computes his VP". The new units miss the action; they may fill the city it
    emptied before the VP are counted."""
    g = boardsim.make_game("farrapos", arrivals="after")
    s = republic_in_1836(g)
    assert int(s.array[L.MODE]) == L.M_MAIN  # the action first: R13-R16 are not on the map
    s.apply_action(act_city("piratini"))
    assert act_unit("R13") not in legal(s)
    for p in ("R09", "R10", "R11", "R12"):
        s.apply_action(act_unit(p))
    s.apply_action(L.A_CONFIRM)  # Bagé is left empty
    assert int(s.array[L.MODE]) == L.M_REINFORCE and s.current_player() == 0
    assert set(legal(s)) == {act_city(n) for n in ("triunfo", "pelotas", "bage", "piratini")}
    for _ in range(4):
        s.apply_action(act_city("bage"))
    assert pieces_at(s, "bage") == ["R13", "R14", "R15", "R16"]
    # no militia step (Bagé is occupied again): the VP are counted with Bagé kept
    assert s.current_player() == 1 and int(s.array[L.MODE]) == L.M_MAIN
    assert vp(s) == (7, 7)


def republic_leaves_bage(g: Game) -> State:
    """The Republic's turn 1: Bagé's four MU invade Piratini; Bagé is left empty."""
    s = fresh(g)
    s.apply_action(act_city("piratini"))
    for p in ("R09", "R10", "R11", "R12"):
        s.apply_action(act_unit(p))
    s.apply_action(L.A_CONFIRM)
    return s


@pytest.mark.parametrize(("empty_city", "owner"), [("possessed", 0), ("neutral", -1)])
def test_a_city_left_empty_stays_possessed_or_is_no_ones(empty_city: str, owner: int) -> None:
    """Ruling 5 (l.60 "considered empty", l.113 militia "retain possession"): either way the
    emptied Bagé scores nothing and this turn's set-up step may keep it with a militia. Not
    kept: with empty_city="possessed" it is still the Republic's, for a militia on turn 3;
    with "neutral" it is no one's once the turn ends, and turn 3 has no militia step."""
    g = boardsim.make_game("farrapos", empty_city=empty_city)
    s = republic_leaves_bage(g)
    assert int(s.array[L.MODE]) == L.M_MILITIA and legal(s) == [act_city("bage"), L.A_PASS]
    s.apply_action(L.A_PASS)  # no militia
    assert int(s.array[L.OWNER + city("bage")]) == owner and vp(s) == (5, 7)
    s.apply_action(L.A_PASS)  # the Empire's turn 2
    s.apply_action(L.A_PASS)  # the Republic's turn 3: no action
    if empty_city == "possessed":
        assert s.current_player() == 0 and legal(s) == [act_city("bage"), L.A_PASS]
    else:
        assert s.current_player() == 1 and int(s.array[L.TURN]) == 4


def test_a_militia_placed_keeps_the_city_under_either_reading() -> None:
    g = boardsim.make_game("farrapos", empty_city="neutral")
    s = republic_leaves_bage(g)
    s.apply_action(act_city("bage"))
    assert pieces_at(s, "bage") == ["RM1"] and vp(s) == (7, 7)
    assert int(s.array[L.OWNER + city("bage")]) == 0


@pytest.mark.parametrize(("empty_city", "cities"), [
    ("possessed", ("triunfo", "pelotas", "bage", "piratini")),
    ("neutral", ("triunfo", "pelotas", "piratini")),
])  # fmt: skip
def test_arrivals_enter_a_city_left_empty_only_while_it_is_possessed(
    empty_city: str, cities: tuple[str, ...]
) -> None:
    """Bagé emptied in 1835's last Republican turn: in 1836 the new units may enter it only
    if it is still the Republic's (ruling 4: "any city of his possession", l.79)."""
    g = boardsim.make_game("farrapos", empty_city=empty_city)
    s = republic_leaves_bage(g)
    s.apply_action(L.A_PASS)  # no militia; the turn ends
    s.array[L.PHASE] = 2
    s.array[L.TURN] = 1
    rules.begin_turn(s.array, g.params)
    assert set(legal(s)) == {act_city(n) for n in cities}


# ---------------------------------------------------------------- battles
def test_battle_table_rows(game: Game) -> None:
    row1 = [0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7]
    assert list(BATTLE_TABLE[0]) == row1
    for die in range(1, 7):
        assert list(BATTLE_TABLE[die - 1]) == [v + die - 1 for v in row1]
    for strength in range(0, 40):
        for die in range(1, 7):
            cols = [i for i, low in enumerate(COLUMN_LOW) if strength >= low]
            want = row1[cols[-1]] + die - 1 if cols else 0
            assert rules.read_battle_table(strength, die) == want
    assert rules.read_battle_table(13, 3) == 6 and rules.read_battle_table(10, 5) == 7
    assert rules.read_battle_table(3, 1) == 0  # "-": no result
    assert rules.read_battle_table(30, 6) == 12  # +25 column


def test_tie_both_sides_lose_attacker_chooses_first(dice_game: Game) -> None:
    s = fresh(dice_game)
    s.apply_action(act_city("porto_alegre"))
    s.apply_action(act_unit("R01"))
    s.apply_action(L.A_CONFIRM)
    assert (int(s.array[L.STR_A]), int(s.array[L.STR_D])) == (2, 3 + 3 + 2 + 4)
    roll(s, 6, 2)  # 2 with die 6 -> 5; 12 with die 2 -> 5: a tie
    assert int(s.array[L.IDX_A]) == int(s.array[L.IDX_D]) == 5
    assert s.current_player() == 0 and legal(s) == [act_unit("R01")]
    s.apply_action(act_unit("R01"))
    assert s.current_player() == 1  # the defender picks its loss, even on the attacker's turn
    assert legal(s) == [act_unit(p) for p in ("E01", "E02", "E03")]
    s.apply_action(act_unit("E03"))
    assert int(s.array[L.STEP + piece("E03")]) == 1 and int(s.array[L.STEP + piece("R01")]) == 1
    assert s.current_player() == 0 and int(s.array[L.MODE]) == L.M_CONTINUE
    # continue: the reduced R01 attacks with AF 1; a second loss eliminates it
    s.apply_action(L.A_CONTINUE)
    assert int(s.array[L.STR_A]) == 1 and int(s.array[L.STR_D]) == 3 + 3 + 1 + 4
    roll(s, 1, 6)
    s.apply_action(act_unit("R01"))
    assert int(s.array[L.LOC + piece("R01")]) == L.LOC_ELIMINATED
    # no attacker left: the battle ends and so does the turn
    assert s.current_player() == 1 and int(s.array[L.MODE]) == L.M_MAIN


def test_attacker_wins_defender_flips_then_city_falls(dice_game: Game) -> None:
    s = fresh(dice_game)
    place(s, "EM1", "camaqua")  # a lone Empire militia: DF 1 + 1 VP
    assert int(s.array[L.OWNER + city("camaqua")]) == 1
    assert vp(s) == (5, 8)
    s.apply_action(act_city("camaqua"))
    s.apply_action(act_unit("R01"))
    s.apply_action(L.A_CONFIRM)
    assert int(s.array[L.STR_D]) == 2
    roll(s, 6, 1)
    assert s.current_player() == 1 and legal(s) == [act_unit("EM1")]
    s.apply_action(act_unit("EM1"))
    # a defeated militia is eliminated (no reduced face); the city falls to the attacker
    assert int(s.array[L.LOC + piece("EM1")]) == L.LOC_ELIMINATED
    assert pieces_at(s, "camaqua") == ["R01"]
    assert vp(s) == (6, 7)
    assert s.current_player() == 1


def test_defender_chooses_between_unit_and_militia(dice_game: Game) -> None:
    s = fresh(dice_game)
    place(s, "EM1", "porto_alegre")
    s.apply_action(act_city("porto_alegre"))
    for p in ("R01", "R02", "R03", "R04"):
        s.apply_action(act_unit(p))
    s.apply_action(L.A_CONFIRM)
    assert int(s.array[L.STR_D]) == 3 + 3 + 2 + 1 + 4
    roll(s, 6, 1)
    assert legal(s) == [act_unit(p) for p in ("E01", "E02", "E03", "EM1")]
    s.apply_action(act_unit("E02"))
    assert int(s.array[L.STEP + piece("E02")]) == 1
    assert legal(s) == [L.A_CONTINUE, L.A_STOP]


def test_only_the_attacker_decides_to_continue(dice_game: Game) -> None:
    s = fresh(dice_game)
    s.apply_action(act_city("rio_grande"))
    s.apply_action(act_unit("R08"))
    s.apply_action(L.A_CONFIRM)
    roll(s, 6, 1)  # 4 -> 6 against 15 + 2 -> 4: the attacker wins
    s.apply_action(legal(s)[0])
    assert int(s.array[H_ACTOR]) == 0 and legal(s) == [L.A_CONTINUE, L.A_STOP]


# ---------------------------------------------------------------- VP: regions and ports
def test_region_bonus_added_and_lost(game: Game) -> None:
    s = fresh(game)
    for p, where in (("E17", "viamao"), ("E18", "santo_antonio"), ("E19", "torres")):
        place(s, p, where)
    assert vp(s) == (5, 7 + 3 + 2)  # three 1-VP cities and the yellow region's 2
    place(s, "E19", L.LOC_RESERVE)
    assert vp(s) == (5, 7 + 2)


def test_all_ports_bonus(game: Game) -> None:
    s = fresh(game)
    for p, where in (("E17", "pelotas"), ("E18", "sao_jose_norte"), ("E19", "laguna")):
        for r in ("R05", "R06", "R07", "R08"):
            place(s, r, L.LOC_RESERVE)
        place(s, p, where)
    # cities 4+2+2+1+2 (+1 Lages) and the ports bonus 3; no region is complete
    assert vp(s)[1] == 4 + 2 + 1 + 2 + 1 + 2 + 3


# ---------------------------------------------------------------- victory
def republic_everywhere(s: State, names: list[str]) -> None:
    units = [u for u in range(NUM_UNITS) if PIECE_SIDE[u] == 0]
    for u, name in zip(units, names, strict=False):
        s.array[L.LOC + u] = city(name)
    rules.recount(s.array, s.game.params)


BIG = ["livramento", "sao_gabriel", "cacapava", "piratini", "bage", "cruz_alta", "sao_borja",
       "uruguaiana", "alegrete", "triunfo", "rio_pardo", "cachoeira", "santa_maria", "pelotas",
       "jaguarao", "camaqua"]  # fmt: skip


def test_24_vp_before_phase_11_wins_at_the_end_of_the_turn(game: Game) -> None:
    s = fresh(game)
    republic_everywhere(s, BIG)
    assert vp(s)[0] >= 24 and not s.is_terminal()
    s.apply_action(L.A_PASS)
    assert s.is_terminal() and list(s.returns()) == [1.0, -1.0]
    assert int(s.array[L.WINNER]) == 0


def test_24_vp_in_phase_11_does_not_end_the_game(game: Game) -> None:
    s = fresh(game)
    s.array[L.PHASE] = 11
    republic_everywhere(s, BIG)
    s.apply_action(L.A_PASS)
    assert not s.is_terminal()


def _last_turn(s: State) -> None:
    s.array[L.PHASE] = 11
    s.array[L.TURN] = 4
    s.array[L.SIDE] = 1
    s.array[H_ACTOR] = 1
    s.array[L.MODE] = L.M_MAIN
    for u in range(NUM_UNITS):
        if int(s.array[L.LOC + u]) == L.LOC_RESERVE:
            s.array[L.LOC + u] = L.LOC_ELIMINATED


def test_most_vp_at_the_end_of_phase_11_wins(game: Game) -> None:
    s = fresh(game)
    _last_turn(s)
    s.apply_action(L.A_PASS)
    assert s.is_terminal() and list(s.returns()) == [-1.0, 1.0]


@pytest.mark.parametrize(("final_tie", "expected"), [("draw", [0.0, 0.0]), ("empire", [-1.0, 1.0])])
def test_equal_vp_at_the_end(final_tie: str, expected: list[float]) -> None:
    g = boardsim.make_game("farrapos", final_tie=final_tie)
    s = fresh(g)
    place(s, "R01", "rio_pardo")  # 5 + 2 = 7 against 7
    _last_turn(s)
    assert vp(s) == (7, 7)
    s.apply_action(L.A_PASS)
    assert s.is_terminal() and list(s.returns()) == expected


def test_dense_vp_difference_reward() -> None:
    g = boardsim.make_game("farrapos", reward="vp_difference")
    s = fresh(g)
    assert list(s.returns()) == [0.0, 0.0]
    s.apply_action(act_city("piratini"))
    s.apply_action(act_unit("R05"))
    s.apply_action(L.A_CONFIRM)
    assert list(s.last_rewards) == pytest.approx([2 / 24, -2 / 24])


# ---------------------------------------------------------------- advanced rules
def _surround_porto_alegre(s: State) -> None:
    place(s, "R05", "viamao")
    place(s, "R06", "camaqua")  # with Triunfo: every line from Porto Alegre is Republican


@pytest.mark.parametrize(("siege", "defence"), [(False, 3 + 3 + 2 + 4), (True, 3 + 3 + 2)])
def test_siege_removes_extra_defence(siege: bool, defence: int) -> None:
    g = boardsim.make_game("farrapos", explicit_chance=True, siege=siege)
    s = fresh(g)
    _surround_porto_alegre(s)
    assert rules.is_under_siege(s.array, city("porto_alegre"))
    assert not rules.is_under_siege(s.array, city("rio_grande"))
    s.apply_action(act_city("porto_alegre"))
    s.apply_action(act_unit("R01"))
    s.apply_action(L.A_CONFIRM)
    assert int(s.array[L.STR_D]) == defence


@pytest.mark.parametrize("transport", [False, True])
def test_port_transport_two_units_between_held_ports(transport: bool) -> None:
    g = boardsim.make_game("farrapos", port_transport=transport)
    s = fresh(g)
    place(s, "R09", "sao_jose_norte")  # a second port: Pelotas and São José do Norte
    target = act_city("sao_jose_norte")
    assert (target in legal(s)) == transport  # no land route: only by sea
    if not transport:
        return
    s.apply_action(target)
    acts = legal(s)
    assert {act_unit(p) for p in ("R05", "R06", "R07", "R08")} <= set(acts)
    assert act_unit("R10") not in acts  # Bagé is not a port
    s.apply_action(act_unit("R05"))
    s.apply_action(act_unit("R06"))
    assert int(s.array[L.SEA_USED]) == 2
    assert act_unit("R07") not in legal(s)  # up to 2 MU a turn
    assert legal(s) == [L.A_CONFIRM]  # the chosen two stay chosen (ruling 25)
    s.apply_action(L.A_CONFIRM)
    assert pieces_at(s, "sao_jose_norte") == ["R05", "R06", "R09"]


def test_options_are_validated() -> None:
    with pytest.raises(OptionError):
        boardsim.make_game("farrapos", siege="yes")
    with pytest.raises(OptionError):
        boardsim.make_game("farrapos", victory_vp=0)
    with pytest.raises(OptionError):
        boardsim.make_game("farrapos", reward="score")
    with pytest.raises(OptionError):
        boardsim.make_game("farrapos", sieges=True)
    with pytest.raises(OptionError, match="sea_ports"):
        boardsim.make_game("farrapos", sea_ports="won")
    with pytest.raises(OptionError, match="empty_origin"):
        boardsim.make_game("farrapos", empty_origin=True)
    g = boardsim.make_game("farrapos", siege=True, port_transport=True, victory_vp=30)
    # the readings' words, then ruling 27's numbers (the data's: 20 and 28 MU, 3, +0),
    # then rulings 19 and 10 (sea_ports, empty_origin)
    expected = [1, 1, 0, 0, 30, 0, 0, 0, 0, 0, 20, 28, 3, 0, 0, 0]
    assert list(g.params[L.P_SIEGE : L.PARAMS_SIZE]) == expected
    g = boardsim.make_game("farrapos", sea_ports="conquered", empty_origin="forbidden")
    assert (g.params[L.P_SEA_PORTS], g.params[L.P_EMPTY_ORIGIN]) == (1, 1)


# ---------------------------------------------------------------- more rulings of the ledger
def test_move_to_an_own_city_regroups(game: Game) -> None:
    s = fresh(game)
    assert act_city("pelotas") in legal(s)  # Bagé - Piratini - Pelotas: 2 steps
    s.apply_action(act_city("pelotas"))
    assert act_unit("R09") in legal(s) and act_unit("R05") not in legal(s)
    s.apply_action(act_unit("R10"))
    s.apply_action(L.A_CONFIRM)
    assert pieces_at(s, "pelotas") == ["R05", "R06", "R07", "R08", "R10"]


def test_reinforcements_wait_while_the_side_possesses_no_city(game: Game) -> None:
    s = fresh(game)
    for u in range(NUM_UNITS):
        if PIECE_SIDE[u] == 0 and int(s.array[L.LOC + u]) >= 0:
            s.array[L.LOC + u] = L.LOC_ELIMINATED
    for name in ("triunfo", "pelotas", "bage"):
        s.array[L.OWNER + city(name)] = -1
    rules.recount(s.array, s.game.params)
    s.array[L.PHASE] = 2
    rules.begin_turn(s.array, game.params)
    assert int(s.array[L.MODE]) == L.M_MAIN and legal(s) == [L.A_PASS]
    assert int(s.array[L.LOC + piece("R13")]) == L.LOC_RESERVE


def test_both_sides_wiped_out_leaves_the_city_empty_in_the_defenders_possession(
    dice_game: Game,
) -> None:
    s = fresh(dice_game)
    place(s, "EM1", "camaqua")
    s.array[L.STEP + piece("R01")] = 1  # a reduced attacker
    s.apply_action(act_city("camaqua"))
    s.apply_action(act_unit("R01"))
    s.apply_action(L.A_CONFIRM)
    assert (int(s.array[L.STR_A]), int(s.array[L.STR_D])) == (1, 2)
    roll(s, 1, 1)  # "-" against "-": a tie, both lose
    s.apply_action(act_unit("R01"))
    s.apply_action(act_unit("EM1"))
    assert int(s.array[L.OCC + city("camaqua")]) == -1
    assert int(s.array[L.OWNER + city("camaqua")]) == 1
    assert s.current_player() == 1  # the Republic had no militia step: no empty city of its own
