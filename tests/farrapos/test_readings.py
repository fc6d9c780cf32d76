"""The other readings of contested rulings (docs/rules/farrapos.md) played both ways on
positions a player would recognise: this position, this choice (this roll), this result."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardsim
from boardsim.core.game import State
from boardsim.games.farrapos import layout as L
from boardsim.games.farrapos import rules
from boardsim.games.farrapos.data import PIECE_IDS
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


def farrapos(**options: object) -> boardsim.Game:
    return boardsim.make_game("farrapos", **options)


# ---------------------------------------------------------------- ruling 8: move destinations
def invade_piratini_from_bage(s: State) -> None:
    """The Republic's turn 1: the Bagé infantry R09 invades Piratini."""
    s.apply_action(act_city("piratini"))
    s.apply_action(act_unit("R09"))
    s.apply_action(L.A_CONFIRM)


@pytest.mark.parametrize("reading", ["one", "several"])
def test_a_move_goes_into_one_city_or_on_to_several(reading: str) -> None:
    """Ruling 8 (l.59-61): R09 invades Piratini. With move_destinations="one" that was the
    Republic's action and the Empire moves; with "several" the Republic goes on: R05 from
    Pelotas invades Camaquã, then it ends the move. R09, moved once, moves no more, and no
    attack may follow a move."""
    s = fresh(farrapos(move_destinations=reading))
    invade_piratini_from_bage(s)
    assert pieces_at(s, "piratini") == ["R09"] and vp(s) == (7, 7)
    if reading == "one":
        assert s.current_player() == 1 and int(s.array[L.MODE]) == L.M_MAIN
        return
    assert s.current_player() == 0 and int(s.array[L.MODE]) == L.M_MAIN
    acts = legal(s)
    assert act_city("camaqua") in acts and act_city("jaguarao") in acts and L.A_PASS in acts
    assert act_city("porto_alegre") not in acts and act_city("rio_grande") not in acts
    assert s.action_to_string(L.A_PASS) == "end the move (no more cities)"
    s.apply_action(act_city("jaguarao"))  # linked to Piratini, Bagé and Pelotas
    assert act_unit("R09") not in legal(s) and act_unit("R10") in legal(s)
    s = fresh(farrapos(move_destinations=reading))
    invade_piratini_from_bage(s)
    s.apply_action(act_city("camaqua"))
    s.apply_action(act_unit("R05"))
    s.apply_action(L.A_CONFIRM)
    assert pieces_at(s, "camaqua") == ["R05"] and vp(s) == (8, 7)
    assert s.current_player() == 0
    s.apply_action(L.A_PASS)  # the move ends; no empty city of the Republic's: no militia
    assert s.current_player() == 1 and int(s.array[L.TURN]) == 2
    assert not s.array[L.SEL_SLICE].any()


def test_a_move_to_several_cities_ends_when_no_unit_can_go_on() -> None:
    """Ruling 8, "several": the only Republican MU left free to move are R05 and R06 at
    Pelotas; once both have gone, the action ends by itself."""
    s = fresh(farrapos(move_destinations="several"))
    for p in ("R01", "R02", "R03", "R04", "R07", "R08", "R09", "R10", "R11", "R12"):
        place(s, p, L.LOC_ELIMINATED)
    place(s, "RM1", "triunfo")
    place(s, "RM2", "bage")
    s.apply_action(act_city("piratini"))
    s.apply_action(act_unit("R05"))
    s.apply_action(L.A_CONFIRM)
    assert s.current_player() == 0
    s.apply_action(act_city("jaguarao"))
    s.apply_action(act_unit("R06"))
    s.apply_action(L.A_CONFIRM)
    assert pieces_at(s, "piratini") == ["R05"] and pieces_at(s, "jaguarao") == ["R06"]
    assert s.current_player() == 0 and int(s.array[L.MODE]) == L.M_MILITIA  # emptied Pelotas


def test_port_transport_counts_two_a_turn_over_several_cities() -> None:
    """Ruling 8, "several", with port transport (l.134, "up to 2 MU per turn"): R05 is
    carried from Pelotas to São José do Norte, R06 to Laguna; the third, R07, may not go
    by sea in that turn."""
    s = fresh(farrapos(move_destinations="several", port_transport=True))
    place(s, "R09", "sao_jose_norte")
    place(s, "R10", "laguna")
    s.apply_action(act_city("sao_jose_norte"))
    s.apply_action(act_unit("R05"))
    s.apply_action(L.A_CONFIRM)
    assert int(s.array[L.SEA_USED]) == 1 and int(s.array[L.SEL + piece("R05")]) == 4
    s.apply_action(act_city("laguna"))
    s.apply_action(act_unit("R06"))
    assert int(s.array[L.SEA_USED]) == 2 and act_unit("R07") not in legal(s)
    s.apply_action(L.A_CONFIRM)
    assert act_city("laguna") not in legal(s) and act_city("sao_jose_norte") not in legal(s)
    s.apply_action(L.A_PASS)
    assert pieces_at(s, "laguna") == ["R06", "R10"] and int(s.array[L.SEA_USED]) == 0


def test_moved_units_show_as_half_selected_in_the_observation() -> None:
    s = fresh(farrapos(move_destinations="several"))
    invade_piratini_from_bage(s)
    o = s.observation(0)
    selected = o[L.OBS_PIECE + 4 :: L.PIECE_FEATURES][: L.P]
    assert selected[piece("R09")] == 0.5 and np.count_nonzero(selected) == 1


# ---------------------------------------------------------------- ruling 14: round attackers
def roll(s: State, attack_die: int, defence_die: int) -> None:
    s.apply_action(attack_die)
    s.apply_action(defence_die)


def r01_wins_a_round_at_porto_alegre(s: State) -> None:
    """R01 alone (AF 2) attacks Porto Alegre (DF 3 + 3 + 2 + 4 VP = 12); dice 6 and 1:
    2 reads 5, 12 reads 4, the Empire loses a step and flips its artillery E03."""
    s.apply_action(act_city("porto_alegre"))
    s.apply_action(act_unit("R01"))
    s.apply_action(L.A_CONFIRM)
    roll(s, 6, 1)
    assert (int(s.array[L.IDX_A]), int(s.array[L.IDX_D])) == (5, 4)
    s.apply_action(act_unit("E03"))
    assert int(s.array[L.MODE]) == L.M_CONTINUE and s.current_player() == 0


@pytest.mark.parametrize("reading", ["same", "rechosen"])
def test_a_continued_attack_goes_on_with_the_same_units_or_units_named_anew(
    reading: str,
) -> None:
    """Ruling 14 (l.105, "Continue the attack (repeating the previous procedure)"): after
    the first round the Republic continues. With round_attackers="same" R01 attacks again
    (AF 2); with "rechosen" it names R03 and R04 instead (AF 5 + 4 = 9), R01 staying out;
    the second round's loss (dice 1 and 6: 9 reads 3, 11 reads 9) falls on one of them."""
    s = fresh(farrapos(explicit_chance=True, round_attackers=reading))
    r01_wins_a_round_at_porto_alegre(s)
    team = ("R01", "R02", "R03", "R04")
    if reading == "same":
        assert legal(s) == [L.A_CONTINUE, L.A_STOP]
        s.apply_action(L.A_CONTINUE)
        assert int(s.array[L.STR_A]) == 2 and int(s.array[L.ROUND]) == 2
        return
    assert legal(s) == [*[act_unit(p) for p in team], L.A_CONTINUE, L.A_STOP]
    s.apply_action(act_unit("R03"))
    assert int(s.array[L.MODE]) == L.M_ATTACK and int(s.array[L.ROUND]) == 1
    assert legal(s) == [act_unit("R01"), act_unit("R02"), act_unit("R04"), L.A_CONFIRM]
    s.apply_action(act_unit("R04"))
    s.apply_action(L.A_CONFIRM)
    assert (int(s.array[L.STR_A]), int(s.array[L.STR_D])) == (9, 3 + 3 + 1 + 4)
    assert int(s.array[L.ROUND]) == 2
    roll(s, 1, 6)
    assert (int(s.array[L.IDX_A]), int(s.array[L.IDX_D])) == (3, 9)
    assert legal(s) == [act_unit("R03"), act_unit("R04")]  # R01 is out of this round


def test_continue_keeps_the_same_units_under_either_reading() -> None:
    """Ruling 14, "rechosen": continue still goes on with the last round's survivors."""
    s = fresh(farrapos(explicit_chance=True, round_attackers="rechosen"))
    r01_wins_a_round_at_porto_alegre(s)
    s.apply_action(L.A_CONTINUE)
    assert int(s.array[L.STR_A]) == 2 and int(s.array[L.ROUND]) == 2
    assert s.array[L.SEL + piece("R01")] == L.SEL_LAND


# ---------------------------------------------------------------- ruling 12: the advance
def triunfo_takes_camaqua(s: State, attackers: tuple[str, ...]) -> None:
    """A lone Empire militia holds Camaquã (DF 1 + 1 VP); the Republic attacks it from
    Triunfo; dice 6 and 1: the militia is eliminated and Camaquã falls."""
    place(s, "EM1", "camaqua")
    assert vp(s) == (5, 8)
    s.apply_action(act_city("camaqua"))
    for p in attackers:
        s.apply_action(act_unit(p))
    s.apply_action(L.A_CONFIRM)
    roll(s, 6, 1)
    s.apply_action(act_unit("EM1"))


@pytest.mark.parametrize("reading", ["all", "chosen"])
def test_every_survivor_enters_the_taken_city_or_those_chosen(reading: str) -> None:
    """Ruling 12: all four Triunfo MU take Camaquã. With advance="all" they all move in and
    Triunfo is left empty (it scores nothing; the set-up step offers it a militia); with
    "chosen" the Republic sends R01, R02 and R04 and keeps the artillery R03 in Triunfo."""
    s = fresh(farrapos(explicit_chance=True, advance=reading))
    triunfo_takes_camaqua(s, ("R01", "R02", "R03", "R04"))
    if reading == "all":
        assert pieces_at(s, "camaqua") == ["R01", "R02", "R03", "R04"]
        assert vp(s) == (5, 7) and int(s.array[L.MODE]) == L.M_MILITIA
        return
    assert int(s.array[L.MODE]) == L.M_MOVE and s.current_player() == 0
    assert legal(s) == [act_unit(p) for p in ("R01", "R02", "R03", "R04")]  # one at least
    assert s.action_to_string(act_unit("R01")).startswith("advance R01 infantry")
    for p in ("R01", "R02", "R04"):
        s.apply_action(act_unit(p))
    assert legal(s) == [act_unit("R03"), L.A_CONFIRM]
    s.apply_action(L.A_CONFIRM)
    assert pieces_at(s, "camaqua") == ["R01", "R02", "R04"] and pieces_at(s, "triunfo") == ["R03"]
    assert vp(s) == (6, 7) and s.current_player() == 1


def test_the_advance_ends_when_the_last_survivor_enters() -> None:
    s = fresh(farrapos(explicit_chance=True, advance="chosen"))
    triunfo_takes_camaqua(s, ("R01", "R02"))
    s.apply_action(act_unit("R02"))
    s.apply_action(act_unit("R01"))
    assert pieces_at(s, "camaqua") == ["R01", "R02"] and s.current_player() == 1


def test_a_lone_survivor_enters_without_a_choice() -> None:
    """Ruling 12, "chosen": with one survivor there is nothing to choose (one at least)."""
    s = fresh(farrapos(explicit_chance=True, advance="chosen"))
    triunfo_takes_camaqua(s, ("R04",))
    assert pieces_at(s, "camaqua") == ["R04"] and s.current_player() == 1


def test_several_destinations_have_their_own_default_decision_limit() -> None:
    """Game length (docs/rules/farrapos.md): random play is longest when a move goes on to
    several cities; that reading's default max_decisions is 4,000, the default game's
    2,000, and a limit given is kept."""
    assert farrapos().options["max_decisions"] == 2_000
    assert farrapos(round_attackers="rechosen", advance="chosen").options["max_decisions"] == 2_000
    assert farrapos(move_destinations="several").options["max_decisions"] == 4_000
    assert farrapos(move_destinations="several", max_decisions=300).options["max_decisions"] == 300
    g = farrapos(move_destinations="several")
    s = g.new_initial_state(1)
    assert g.state_from_bytes(s.to_bytes()) == s


def test_every_legal_action_of_the_readings_has_its_own_words() -> None:
    """The readings' decisions (a further city, attackers named anew, the advance) read
    as what they do, no two legal actions alike, and every position renders."""
    g = farrapos(move_destinations="several", round_attackers="rechosen", advance="chosen")
    seen: set[str] = set()
    for seed in range(3):
        s = g.new_initial_state(seed)
        chooser = random.Random(seed)
        while not s.is_terminal():
            words = [s.action_to_string(a) for a in s.legal_actions()]
            assert all(w and "out of range" not in w for w in words)
            assert len(set(words)) == len(words)
            assert "Farrapos" in str(s)
            seen.update(w.split(" ")[0] for w in words)
            s.apply_action(chooser.choice(s.legal_actions()))
    assert {"end", "advance", "continue"} <= seen


# ---------------------------------------------------------------- reconstructed numbers
@pytest.mark.parametrize(("shift", "bonus"), [(0, 2), (2, 4), (-1, 1), (-3, 0)])
def test_a_region_bonus_moves_with_region_bonus_shift(shift: int, bonus: int) -> None:
    """The yellow region (Porto Alegre, Viamão, Santo Antônio, Torres; bonus 2 in the data)
    held whole by the Empire: its bonus is 2 + region_bonus_shift, never below 0."""
    s = fresh(farrapos(region_bonus_shift=shift))
    for p, where in (("E17", "viamao"), ("E18", "santo_antonio"), ("E19", "torres")):
        place(s, p, where)
    assert vp(s) == (5, 7 + 3 + bonus)


@pytest.mark.parametrize("bonus", [0, 3, 8])
def test_holding_every_port_scores_ports_bonus(bonus: int) -> None:
    """The Empire holds the five ports (Porto Alegre, Rio Grande, São José do Norte,
    Pelotas, Laguna) and Lages: 4+2+2+1+2+1 VP of cities and the ports_bonus."""
    s = fresh(farrapos(ports_bonus=bonus))
    for r in ("R05", "R06", "R07", "R08"):
        place(s, r, L.LOC_RESERVE)
    for p, where in (("E17", "pelotas"), ("E18", "sao_jose_norte"), ("E19", "laguna")):
        place(s, p, where)
    assert vp(s)[1] == 4 + 2 + 2 + 1 + 2 + 1 + bonus


def empire_turn_of(game: boardsim.Game, phase: int) -> State:
    """The Empire's first turn of ``phase`` (1-based; 1839 = 5), its units in reserve
    that the phase brings still unplaced."""
    s = fresh(game)
    s.array[L.PHASE] = phase
    s.array[L.TURN] = 2
    rules.begin_turn(s.array, game.params)
    return s


@pytest.mark.parametrize(("mu", "arriving"), [(28, ["E17", "E18"]), (16, [])])
def test_empire_mu_withholds_the_latest_arrivals(mu: int, arriving: list[str]) -> None:
    """1839 (phase 5) brings the Empire E17 and E18 (its 17th and 18th MU by arrival). With
    the data's 28 it places them, one decision each, before its action; with empire_mu=16
    (its set-up units only) nothing arrives and it acts at once."""
    game = farrapos(empire_mu=mu)
    s = empire_turn_of(game, 5)
    placed = []
    while int(s.array[L.MODE]) == L.M_REINFORCE:
        before = s.array[L.LOC_SLICE].copy()
        words = s.action_to_string(act_city("porto_alegre"))
        s.apply_action(act_city("porto_alegre"))
        (u,) = np.flatnonzero(before != s.array[L.LOC_SLICE])
        assert words.startswith(f"place the arriving {PIECE_IDS[u]} ")
        placed.append(PIECE_IDS[u])
    assert placed == arriving and int(s.array[L.MODE]) == L.M_MAIN


def test_empire_mu_twenty_fields_four_reinforcements_of_twelve() -> None:
    """By 1843 (phase 9) all 12 of the Empire's arrivals have come; with empire_mu=20 only
    its first 4 by arrival (E17-E20, 1839-1840) enter, and E21-E28 stay in reserve."""
    game = farrapos(empire_mu=20)
    s = empire_turn_of(game, 9)
    placed = []
    while int(s.array[L.MODE]) == L.M_REINFORCE:
        before = s.array[L.LOC_SLICE].copy()
        s.apply_action(act_city("porto_alegre"))
        placed += [PIECE_IDS[u] for u in np.flatnonzero(before != s.array[L.LOC_SLICE])]
    assert placed == ["E17", "E18", "E19", "E20"]
    assert all(int(s.array[L.LOC + piece(f"E{k}")]) == L.LOC_RESERVE for k in range(21, 29))


@pytest.mark.parametrize(("mu", "arriving"), [(20, 8), (18, 6), (16, 4)])
def test_republic_mu_withholds_its_latest_arrivals(mu: int, arriving: int) -> None:
    """The Republic's 8 arrivals (1836 x4, 1837 x2, 1839 x2), none placed yet at its first
    turn of 1839 (phase 5): it places all 8 with the data's 20 MU, 6 without the 1839 pair
    with republic_mu=18, the printed four of 1836 only with republic_mu=16, its fewest."""
    game = farrapos(republic_mu=mu)
    s = fresh(game)
    s.array[L.PHASE] = 5
    rules.begin_turn(s.array, game.params)
    placed = 0
    while int(s.array[L.MODE]) == L.M_REINFORCE:
        s.apply_action(act_city("pelotas"))
        placed += 1
    assert placed == arriving and int(s.array[L.MODE]) == L.M_MAIN


@pytest.mark.parametrize(
    ("option", "bad"),
    [("empire_mu", 15), ("empire_mu", 29), ("republic_mu", 15), ("ports_bonus", -1)],
)
def test_unit_counts_and_bonuses_out_of_range_are_refused(option: str, bad: int) -> None:
    """republic_mu=15 would withhold one of the Republic's 4 MU of 1836, which the rulebook
    prints (l.79): its fewest is 16, its 12 set-up units and those four."""
    with pytest.raises(boardsim.OptionError, match=f"option {option}={bad} is out of range"):
        farrapos(**{option: bad})


def test_withheld_units_are_shown_apart_from_the_reserve() -> None:
    """With empire_mu=20 the text and the picture count E21-E28 as withheld, not as units
    waiting in reserve."""
    from boardsim import render

    game = farrapos(empire_mu=20)
    st = fresh(game)
    text = game.definition.render_text(game.params, st.array, False)
    empire = next(line for line in text.splitlines() if line.strip().startswith("Empire:"))
    assert "reserve E17 E18 E19 E20 EM1" in empire
    assert empire.endswith("withheld " + " ".join(f"E{k}" for k in range(21, 29)))
    assert "Empire: 8 in reserve, 0 eliminated, 8 withheld" in render.to_svg(game, st)
    default = farrapos()
    assert "Empire: 16 in reserve, 0 eliminated<" in render.to_svg(default, fresh(default))


# ---------------------------------------------------------------- ruling 19: which ports carry
@pytest.mark.parametrize("reading", ["possessed", "conquered"])
def test_port_transport_counts_possessed_ports_or_only_conquered_ones(reading: str) -> None:
    """Ruling 19 (l.134, "If a player has conquered at least 2 port cities"), with the
    advanced rule on. The Empire's turn 1 (1835): it holds Porto Alegre and Rio Grande, its
    ports since the start. With sea_ports="possessed" it may move to either by sea; with
    "conquered" it has conquered no port and may not. The Republic, with São José do Norte
    and Laguna entered, may carry between those two under either reading, and from its own
    Pelotas only under "possessed"."""
    g = farrapos(port_transport=True, sea_ports=reading)
    s = fresh(g)
    s.apply_action(L.A_PASS)  # the Republic takes no action
    assert s.current_player() == 1
    assert (act_city("rio_grande") in legal(s)) == (reading == "possessed")
    assert (act_city("porto_alegre") in legal(s)) == (reading == "possessed")
    s = fresh(g)
    place(s, "R09", "sao_jose_norte")  # conquered: no one's at the start
    assert (act_city("sao_jose_norte") in legal(s)) == (reading == "possessed")  # Pelotas
    place(s, "R10", "laguna")
    s.apply_action(act_city("sao_jose_norte"))
    acts = legal(s)
    assert act_unit("R10") in acts  # from Laguna, by sea
    assert (act_unit("R05") in acts) == (reading == "possessed")  # from Pelotas, by sea
    s.apply_action(act_unit("R10"))
    assert int(s.array[L.SEA_USED]) == 1


# ---------------------------------------------------------------- ruling 10: the city of origin
@pytest.mark.parametrize("reading", ["allowed", "forbidden"])
def test_a_move_may_empty_its_city_of_origin_or_must_leave_one(reading: str) -> None:
    """Ruling 10 (l.60-61, "leaving at least one MU or one Militia counter in the city of
    origin"). The Republic's turn 1: R01-R04 stand in Triunfo. With empty_origin="allowed"
    all four may invade Rio Pardo and Triunfo is left empty (its VP not recorded); with
    "forbidden" the fourth may not join, one stays."""
    s = fresh(farrapos(empty_origin=reading))
    s.apply_action(act_city("rio_pardo"))
    for p in ("R01", "R02", "R03"):
        s.apply_action(act_unit(p))
    assert (act_unit("R04") in legal(s)) == (reading == "allowed")
    if reading == "allowed":
        s.apply_action(act_unit("R04"))
    s.apply_action(L.A_CONFIRM)
    left = [] if reading == "allowed" else ["R04"]
    assert pieces_at(s, "triunfo") == left
    assert int(s.array[L.OCC + city("triunfo")]) == (-1 if reading == "allowed" else 0)


@pytest.mark.parametrize("reading", ["allowed", "forbidden"])
def test_a_lone_mu_leaves_its_city_only_if_a_militia_stays(reading: str) -> None:
    """Ruling 10, "forbidden": R01, the Republic's only MU, alone in Triunfo may move nowhere
    (it may still attack); a militia placed beside it lets it go, the militia keeping the
    city. With "allowed" it may move either way."""
    s = fresh(farrapos(empty_origin=reading))
    for p in ("R02", "R03", "R04", "R05", "R06", "R07", "R08", "R09", "R10", "R11", "R12"):
        place(s, p, L.LOC_ELIMINATED)
    moves = [a for a in legal(s) if a < L.A_UNIT and int(s.array[L.OCC + a]) != 1]
    assert bool(moves) == (reading == "allowed")
    place(s, "RM1", "triunfo")
    moves = [a for a in legal(s) if a < L.A_UNIT and int(s.array[L.OCC + a]) != 1]
    assert moves
    s.apply_action(moves[0])
    s.apply_action(act_unit("R01"))
    s.apply_action(L.A_CONFIRM)
    assert pieces_at(s, "triunfo") == ["RM1"]
