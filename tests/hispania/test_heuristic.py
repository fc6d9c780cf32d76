"""The scripted Roman policy (``heuristic.choose_action``): legal, sensible, and able to win."""

from __future__ import annotations

import boardsim
from boardsim.games.hispania import layout as hl
from boardsim.games.hispania.heuristic import choose_action

from .helpers import blank_roman, put, sp
from .roman_policy_eval import play, win_rate


def test_its_actions_are_legal_and_deterministic() -> None:
    game = boardsim.make_game("hispania", level="6-4-3-4-2", explicit_chance=True)
    for seed in range(3):
        assert play(game, seed) == play(game, seed)  # apply_action refuses illegal actions


def test_a_capital_whose_province_is_free_is_garrisoned_at_once() -> None:
    st = blank_roman(generals=("Gades", "Valentia", "Mare Ibericum"), turn=1)
    st.array[hl.GEN_POS + 1] = sp("Osca")
    assert choose_action(st.game.params, st.array) == hl.A_GARRISON


def test_a_revolt_in_a_roman_province_next_to_him_is_besieged() -> None:
    st = blank_roman(turn=1)  # praetor of Citerior in Valentia
    put(st, "Dertosa", revolts=1)
    a = choose_action(st.game.params, st.array)
    assert a == hl.A_BESIEGE + sp("Dertosa")
    st.apply_action(a)
    assert choose_action(st.game.params, st.array) in (hl.A_SPEND, hl.A_SPEND + 1, hl.A_SPEND + 2)


def test_rome_can_win_at_the_easiest_level() -> None:
    # the red flag of version 1 ("Rome never wins") came from weak test policies, not rules
    rate, _ = win_rate("7-5-4-5-1", 20)
    assert rate >= 0.25


def test_it_plays_through_the_variants_and_a_scenario() -> None:
    variants = {
        "imperivm": True,
        "proconsvl": True,
        "legio_hispana": True,
        "pirates": True,
        "terror": True,
        "traitors": True,
        "ingenivm": True,
    }
    for options in (variants, {"scenario": "numantia"}):
        game = boardsim.make_game("hispania", explicit_chance=True, **options)
        winner, _ = play(game, 1)
        assert winner in (hl.W_ROME, hl.W_HISPANIA)
