"""The race's validator (games/liberation/validate.py): forged positions are refused naming
the field and the value; real ones are accepted (tests/core/test_untrusted_states.py)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

import boardsim
from boardsim import StateFormatError
from boardsim.core.header import H_ACTOR
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L


def position(
    num_players: int = 3, steps: int = 120, seed: int = 4, **options: object
) -> np.ndarray:
    game = boardsim.make_game("liberation", num_players=num_players, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    return state.array.copy()


def refused(a: np.ndarray, num_players: int = 3, **options: object) -> str:
    game = boardsim.make_game("liberation", num_players=num_players, **options)
    with pytest.raises(StateFormatError) as info:
        boardsim.State(game, a)
    return str(info.value)


def random_position_where(
    game: boardsim.Game, reached: Callable[[np.ndarray], bool], failure: str
) -> np.ndarray:
    """The first position where ``reached`` holds, the game still on, in random games
    (seeds 0-39) of ``game``; ``failure`` when none reaches one."""
    for seed in range(40):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and not reached(state.array):
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return state.array.copy()
    raise AssertionError(failure)


def test_a_pawn_off_the_track() -> None:
    a = position()
    a[L.POS + 1] = 41
    assert "POS[1] = 41: not a space (0..40)" in refused(a)


def test_a_card_out_of_nowhere() -> None:
    a = position()
    a[L.HAND + 2 * L.K + 3] += 1
    assert "card kind 3:" in refused(a) and "not the deck's count" in refused(a)


def test_a_counter_out_of_nowhere() -> None:
    a = position()
    a[L.SUPPLY + 0] += 1
    assert "player 0:" in refused(a) and "counters option" in refused(a)


def test_a_revolution_space_cannot_be_liberated() -> None:
    a = position()
    s = int(D.REVOLUTION_SPACES[0])
    k = int(np.flatnonzero(a[L.PILE : L.PILE + L.K] * (D.KIND_ROYALIST == 0))[0])
    a[L.PILE + k] -= 1
    a[L.OWNER + s], a[L.CARD + s], a[L.COUNTERS + s] = 0, k, 1
    a[L.SUPPLY] -= 1
    assert f"space {s} is a revolution space but has owner 0" in refused(a)


def test_an_independent_country_is_fully_liberated() -> None:
    a = position()
    a[L.INDEP + 2] = 1
    assert "country 2: INDEP = 1" in refused(a)


def test_a_player_waiting_holds_no_more_than_the_hand_limit() -> None:
    a = position()
    waiting = (int(a[L.MOVER]) + 1) % 3
    hand = L.HAND + waiting * L.K
    while a[hand : hand + L.K].sum() <= D.HAND_LIMIT:
        k = int(np.flatnonzero(a[L.PILE : L.PILE + L.K])[0])
        a[L.PILE + k] -= 1
        a[hand + k] += 1
    assert f"player {waiting} holds" in refused(a)


def test_the_player_to_move_is_whose_turn_it_is() -> None:
    a = position()
    a[H_ACTOR] = (int(a[L.MOVER]) + 1) % 3
    assert "but it is player" in refused(a)


def test_a_landing_decision_where_the_pawn_does_not_stand() -> None:
    a = position()
    a[L.PHASE] = L.PH_REVOLUTION
    s = int(a[L.POS + int(a[L.MOVER])])
    if D.SPACE_REVOLUTION[s] >= 0:
        a[L.PHASE] = L.PH_EMPTY if a[L.OWNER + s] >= 0 else L.PH_OWN
    assert "which does not allow PHASE" in refused(a)


def test_royalist_cards_selected_outside_an_attack() -> None:
    a = position()
    k = int(np.flatnonzero(D.KIND_ROYALIST)[0])
    a[L.SELECTED + k] = 1
    if a[L.PHASE] != L.PH_ENEMY:
        assert f"Royalist card {k} is selected (1) outside a Royalist attack" in refused(a)


def test_a_state_of_four_players_handed_to_a_game_of_three() -> None:
    a = position(num_players=4)
    message = refused(a, num_players=3)
    assert "not a player of this game" in message or "player 3 is not in this game" in message


def test_counters_gone_home_are_refused_where_they_stay() -> None:
    """An independent country's spaces with no counter: the 'return' option's rule, not the
    'stay' one's."""
    game = boardsim.make_game("liberation", num_players=2, independence_counters="return")
    rng = random.Random(1)
    for seed in range(40):
        state = game.new_initial_state(seed)
        while (
            not state.is_terminal() and not state.array[L.INDEP : L.INDEP + D.NUM_COUNTRIES].any()
        ):
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            assert "liberated with 0 counters" in refused(state.array.copy(), 2)
            return
    pytest.fail("no independence met")


def test_a_round_played_out_after_the_last_independence_only_under_end_of_round() -> None:
    """Ledger L13: every country free and the game still on is a real position with
    game_end='end_of_round' (the rest of the round), a forged one with 'at_once'."""
    game = boardsim.make_game("liberation", num_players=3, game_end="end_of_round")
    a = random_position_where(
        game,
        lambda s: all(s[L.INDEP : L.INDEP + 8]),
        "no game left a round to play after the last independence",
    )
    boardsim.State(game, a)  # accepted
    assert "every country is independent but the game goes on" in refused(a, 3)


def test_a_jump_made_this_turn_only_under_revolution_jump_triggers() -> None:
    """Ledger L2: ``JUMPED`` set after a jump is a real position with
    revolution_jump='triggers', a forged one by default or before the turn's move."""
    game = boardsim.make_game("liberation", num_players=3, revolution_jump="triggers")
    a = random_position_where(game, lambda s: s[L.JUMPED] != 0, "no random game jumped")
    boardsim.State(game, a)  # accepted
    assert "JUMPED = 1: not 0 or 1, or set without" in refused(a, 3)
    b = a.copy()
    b[L.JUMPED] = 2
    assert "JUMPED = 2" in refused(b, 3, revolution_jump="triggers")
    a[L.PHASE] = L.PH_MOVE  # a new turn clears it
    assert "before the turn's move (in PHASE 1)" in refused(a, 3, revolution_jump="triggers")
