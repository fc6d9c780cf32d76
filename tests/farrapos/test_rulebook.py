"""The rulebook's set-up, worked examples and turn sequence, as tests."""

from __future__ import annotations

from collections import Counter

import boardsim
from boardsim.core.game import Game
from boardsim.core.header import CHANCE, H_ACTOR
from boardsim.games.farrapos import layout as L
from boardsim.games.farrapos.data import CITY_NAMES, NUM_UNITS, PIECE_IDS, PIECE_SIDE
from tests.farrapos.helpers import act_city, act_unit, city, fresh, legal, pieces_at, place, vp


def test_setup_as_the_rulebook(game: Game) -> None:
    """Empire 3 Porto Alegre, 5 Rio Grande, 8 Lages; Republic 4/4/4; VP 7 and 5; 1835."""
    s = fresh(game)
    count = Counter(
        (int(PIECE_SIDE[u]), CITY_NAMES[int(s.array[L.LOC + u])])
        for u in range(NUM_UNITS)
        if int(s.array[L.LOC + u]) >= 0
    )
    assert count == {
        (1, "Porto Alegre"): 3,
        (1, "Rio Grande"): 5,
        (1, "Lages"): 8,
        (0, "Triunfo"): 4,
        (0, "Pelotas"): 4,
        (0, "Bagé"): 4,
    }
    assert vp(s) == (5, 7)
    assert int(s.array[L.PHASE]) == 1 and int(s.array[L.TURN]) == 1
    assert s.current_player() == 0  # the Republic is always the first player
    assert game.agent_names() == ["republic", "empire"]
    # militia start off the board, unplaced; every other city is neutral
    assert all(int(s.array[L.LOC + u]) == L.LOC_RESERVE for u in range(NUM_UNITS, L.P))
    held = {c for c in range(L.C) if int(s.array[L.OWNER + c]) >= 0}
    names = {"porto_alegre", "rio_grande", "lages", "triunfo", "pelotas", "bage"}
    assert held == {city(n) for n in names}


def _attack_porto_alegre(s, attackers: list[str]) -> None:
    s.apply_action(act_city("porto_alegre"))
    assert int(s.array[L.MODE]) == L.M_ATTACK
    for pid in attackers:
        s.apply_action(act_unit(pid))
    s.apply_action(L.A_CONFIRM)


def test_worked_battle_defender_wins_attacker_flips_its_choice(dice_game: Game) -> None:
    """2+2+5+4 = 13, die 3 -> 6 against 3+3 + 4 VP = 10, die 5 -> 7: the defender wins."""
    s = fresh(dice_game)
    place(s, "E03", "viamao")  # the example has two defenders (E03 left before it)
    _attack_porto_alegre(s, ["R01", "R02", "R03", "R04"])
    assert s.current_player() == CHANCE and int(s.array[H_ACTOR]) == CHANCE
    assert [o for o, _ in s.chance_outcomes()] == [1, 2, 3, 4, 5, 6]
    s.apply_action(3)  # the Republic's die
    s.apply_action(5)  # the Empire's die
    a = s.array
    assert (int(a[L.STR_A]), int(a[L.STR_D])) == (13, 10)
    assert (int(a[L.IDX_A]), int(a[L.IDX_D])) == (6, 7)
    # the attacker must choose one of its MU and flip it (its decision)
    assert s.current_player() == 0 and int(a[L.MODE]) == L.M_LOSS
    assert legal(s) == [act_unit(p) for p in ("R01", "R02", "R03", "R04")]
    assert "flip R03" in s.action_to_string(act_unit("R03"))
    s.apply_action(act_unit("R03"))
    assert int(a[L.STEP + PIECE_IDS.index("R03")]) == 1
    assert all(int(a[L.STEP + PIECE_IDS.index(p)]) == 0 for p in ("E01", "E02"))
    # only the attacker may continue or stop
    assert s.current_player() == 0 and legal(s) == [L.A_CONTINUE, L.A_STOP]
    s.apply_action(L.A_STOP)
    # stopping keeps the MU on the positions they occupied before the attack
    assert pieces_at(s, "triunfo") == ["R01", "R02", "R03", "R04"]
    assert pieces_at(s, "porto_alegre") == ["E01", "E02"]
    assert s.current_player() == 1  # the Empire's turn


def test_vp_example_republic_takes_porto_alegre(dice_game: Game) -> None:
    """The Republic wins Porto Alegre: 5 -> 9 VP, and the Empire 7 -> 3."""
    s = fresh(dice_game)
    assert vp(s) == (5, 7)
    _attack_porto_alegre(s, ["R01", "R03", "R04"])  # R02 stays to keep Triunfo
    rounds = 0
    while int(s.array[L.MODE]) != L.M_MAIN or s.current_player() != 1:
        mode = int(s.array[L.MODE])
        if s.is_chance_node():
            attack_die = int(s.array[L.DIE_A]) == 0
            s.apply_action(6 if attack_die else 1)
        elif mode == L.M_LOSS:
            assert s.current_player() == 1  # the defender picks its own loss
            s.apply_action(legal(s)[0])
        elif mode == L.M_CONTINUE:
            rounds += 1
            s.apply_action(L.A_CONTINUE)
        else:
            raise AssertionError(f"unexpected mode {mode}")
    assert rounds >= 1
    assert pieces_at(s, "porto_alegre") == ["R01", "R03", "R04"]  # the attackers moved in
    assert pieces_at(s, "triunfo") == ["R02"]
    assert int(s.array[L.OWNER + city("porto_alegre")]) == 0
    assert vp(s) == (9, 3)


def test_turn_sequence_republic_empire_alternate_then_new_phase(game: Game) -> None:
    """Turns 1-4 alternate Republic, Empire, Republic, Empire; then phase 2 (1836)."""
    s = fresh(game)
    seen = []
    for _ in range(4):
        seen.append((int(s.array[L.PHASE]), int(s.array[L.TURN]), s.current_player()))
        s.apply_action(L.A_PASS)  # d) take no action
    assert seen == [(1, 1, 0), (1, 2, 1), (1, 3, 0), (1, 4, 1)]
    assert (int(s.array[L.PHASE]), int(s.array[L.TURN])) == (2, 1)
    # 1836: the Republic must include 4 MU in any city of its possession
    assert s.current_player() == 0 and int(s.array[L.MODE]) == L.M_REINFORCE
    own = [act_city(n) for n in ("triunfo", "bage", "pelotas")]
    assert sorted(legal(s)) == sorted(own)
    for n in ("triunfo", "bage", "pelotas", "pelotas"):
        s.apply_action(act_city(n))
    assert int(s.array[L.MODE]) == L.M_MAIN and s.current_player() == 0
    assert len(pieces_at(s, "pelotas")) == 6
    s.apply_action(L.A_PASS)
    # the Empire has no 1836 units: straight to its action
    assert s.current_player() == 1 and int(s.array[L.MODE]) == L.M_MAIN


def test_game_lasts_11_phases_of_4_turns(game: Game) -> None:
    s = fresh(game)
    turns = 0
    while not s.is_terminal():
        if int(s.array[L.MODE]) == L.M_REINFORCE:
            s.apply_action(legal(s)[0])
            continue
        s.apply_action(L.A_PASS)
        turns += 1
    assert turns == 44
    assert (int(s.array[L.PHASE]), int(s.array[L.TURN])) == (11, 4)
    # all reinforcements came in; the Empire has more VP (nobody moved): it wins
    assert all(int(s.array[L.LOC + u]) >= 0 for u in range(NUM_UNITS))
    assert vp(s) == (5, 7) and list(s.returns()) == [-1.0, 1.0]


def test_make_game_registry_and_describe(game: Game) -> None:
    assert "farrapos" in boardsim.list_games()
    s = fresh(game)
    assert s.action_to_string(act_city("porto_alegre")) == "attack Porto Alegre from Triunfo"
    assert s.action_to_string(act_city("rio_grande")) == "attack Rio Grande from Pelotas"
    assert s.action_to_string(act_city("piratini")) == "invade Piratini"
    assert s.action_to_string(act_city("rio_pardo")) == "invade Rio Pardo"
    assert s.action_to_string(L.A_PASS) == "take no action"
    text = str(s)
    assert "phase 1 (1835)" in text and "Republic 5" in text and "Empire 7" in text
    assert "Porto Alegre" in text and "R01" in text
