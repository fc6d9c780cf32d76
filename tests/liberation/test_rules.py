"""The race's rules, sentence by sentence: this position, this roll, this result.

Each test names the rulebook sentence (rules file 000) or the ledger decision
(docs/rules/liberation.md, L-numbers) it checks.
"""

from __future__ import annotations

import numpy as np
import pytest

import boardsim
from boardsim.core.header import H_ACTOR
from boardsim.games.liberation import data as D
from boardsim.games.liberation import layout as L
from boardsim.games.liberation import rules
from tests.liberation.helpers import (
    card_total,
    chance_kind,
    empty_hand,
    give,
    hand,
    kind,
    liberate,
    new_state,
    phase,
    space,
)


def roll(st: boardsim.State, die: int) -> None:
    st.apply_action(L.A_ROLL)
    assert chance_kind(st) == L.CH_MOVE_DIE
    st.apply_action(die)


def draw(st: boardsim.State, k: int) -> None:
    assert st.is_chance_node()
    assert k in [o for o, _ in st.chance_outcomes()]
    st.apply_action(k)


# ---------------------------------------------------------------- the board and the deck
def test_track_has_41_spaces_and_8_countries_of_3_4_or_5_separated_by_revolutions() -> None:
    """'a circular track of 41 spaces. Eight countries ... of length 3, 4 or 5 ... separated
    from each other on the track by a revolution space'."""
    assert D.NUM_SPACES == 41
    assert D.NUM_COUNTRIES == 8
    assert sorted(set(D.COUNTRY_LENGTH.tolist())) == [3, 4, 5]
    assert int(D.COUNTRY_LENGTH.sum()) == 33
    assert [int(s) + 1 for s in D.REVOLUTION_SPACES] == [1, 5, 11, 16, 21, 25, 31, 36]
    for c in range(8):  # a revolution space on each side of every country (circular)
        before = (D.COUNTRY_FIRST[c] - 1) % 41
        after = (D.COUNTRY_FIRST[c] + D.COUNTRY_LENGTH[c]) % 41
        assert D.SPACE_REVOLUTION[before] >= 0 and D.SPACE_REVOLUTION[after] >= 0


def test_deck_has_five_liberation_types_and_royalists_with_force_1_to_8() -> None:
    """'5 types of Liberation Cards: Simon Bolivar, Leader, Troops, Battle, and Ideals.
    All cards have a force value between 1 and 8.'"""
    names = {
        D.DATA.type_names[int(t)]
        for t, r in zip(D.KIND_TYPE, D.KIND_ROYALIST, strict=True)
        if not r
    }
    assert names == {"Simon Bolivar", "Leader", "Troops", "Battle", "Ideals"}
    assert D.KIND_ROYALIST.any()
    assert D.KIND_FORCE.min() >= 1 and D.KIND_FORCE.max() <= 8
    assert int(D.KIND_COUNT.sum()) == 80


# ---------------------------------------------------------------- set-up and phase 1
@pytest.mark.parametrize("n", [2, 3, 6])
def test_players_start_with_two_cards_counters_and_pawns_on_space_1(n: int) -> None:
    """'Players start with two cards drawn from the deck and a set of counters'; the first
    player then draws its turn's card (phase 1)."""
    game = boardsim.make_game("liberation", num_players=n)
    st = game.new_initial_state(7)
    a = st.array
    sizes = [int(a[L.HAND + p * L.K : L.HAND + (p + 1) * L.K].sum()) for p in range(n)]
    assert sizes == [3] + [2] * (n - 1)
    assert all(a[L.POS + p] == space(1) for p in range(n))
    assert all(a[L.SUPPLY + p] == D.DEFAULT_COUNTERS for p in range(n))
    assert st.current_player() == 0 and a[L.PHASE] == L.PH_MOVE


def test_a_turn_begins_by_drawing_one_card() -> None:
    """'Draw 1 Card and place it in your hand.'"""
    st = new_state(2)
    empty_hand(st, 0)
    give(st, 0, kind("Troops", 1))
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 1))  # to space 2
    st.apply_action(L.A_PASS)  # decline to liberate: turn passes to player 1
    assert chance_kind(st) == L.CH_TURN_DRAW
    before = hand(st, 1).sum()
    draw(st, kind("Leader", 6))
    assert hand(st, 1).sum() == before + 1
    assert st.current_player() == 1 and phase(st) == L.PH_MOVE


# ---------------------------------------------------------------- phase 2: the move
def test_move_by_die_roll() -> None:
    """'Roll 1 die and move forward that many spaces'."""
    st = new_state(2)
    roll(st, 4)
    assert st.array[L.POS] == space(5)  # 1 -> 5, a revolution space
    assert phase(st) == L.PH_REVOLUTION


def test_move_by_discarding_a_card_its_force() -> None:
    """'OR discard a card from your hand and move forward a number of spaces equal to its
    force value.'"""
    st = new_state(2)
    empty_hand(st, 0)
    leader = kind("Leader", 6)
    give(st, 0, leader)
    st.apply_action(L.A_MOVE_CARD + leader)
    assert st.array[L.POS] == space(7)
    assert hand(st, 0).sum() == 0 and st.array[L.DISCARD + leader] == 1
    assert phase(st) == L.PH_EMPTY


def test_royalist_card_may_be_discarded_to_move_unless_the_option_forbids_it() -> None:
    """Ledger L3: 'a card' includes a Royalist card; option royalist_moves=False forbids it."""
    royal = kind("Royalist", 2)
    for allowed in (True, False):
        st = new_state(2, royalist_moves=allowed)
        empty_hand(st, 0)
        give(st, 0, royal)
        assert bool(st.legal_actions_mask()[L.A_MOVE_CARD + royal]) is allowed


def test_independent_country_spaces_are_skipped_and_not_counted() -> None:
    """'If you land on a Country space that is Independent skip over it and go to the next
    space and resume your move.' (ledger L4: skipped spaces do not count)"""
    st = new_state(2)
    st.array[L.INDEP + 0] = 1  # Columbia (spaces 2-4) independent
    roll(st, 2)
    assert st.array[L.POS] == space(6)  # 1 -> 5 (1 step) -> 6 (2 steps)


def test_move_wraps_around_the_circular_track() -> None:
    st = new_state(2)
    st.array[L.POS] = space(40)
    roll(st, 3)
    assert st.array[L.POS] == space(2)


# ---------------------------------------------------------------- phase 3: revolution space
def test_revolution_space_offers_its_four_actions_and_nothing_else() -> None:
    """'If you land on a Revolution space you may do one of': roll again, move to any other
    revolution space, draw 1, place a counter on a space you liberated (ledger L1: four)."""
    st = new_state(2)
    liberate(st, 0, space(3), kind("Troops", 2))
    roll(st, 4)
    legal = set(st.legal_actions())
    jumps = {L.A_JUMP + r for r in range(8) if D.REVOLUTION_SPACES[r] != space(5)}
    expected = {L.A_PASS, L.A_REV_ROLL, L.A_REV_DRAW, L.A_COUNTER + int(D.SPACE_CSPACE[space(3)])}
    assert legal == expected | jumps


def test_revolution_roll_and_move_again_lands_with_effect() -> None:
    """Ledger L2: the second landing offers that space's action."""
    st = new_state(2)
    roll(st, 4)
    st.apply_action(L.A_REV_ROLL)
    assert chance_kind(st) == L.CH_REVOLUTION_DIE
    st.apply_action(2)
    assert st.array[L.POS] == space(7)
    assert phase(st) == L.PH_EMPTY and st.current_player() == 0


def test_revolution_move_to_another_revolution_space_ends_the_turn() -> None:
    """Ledger L2: the jump does not trigger the new revolution space."""
    st = new_state(2)
    roll(st, 4)
    r = int(np.flatnonzero(D.REVOLUTION_SPACES == space(31))[0])
    st.apply_action(L.A_JUMP + r)
    assert st.array[L.POS] == space(31)
    assert chance_kind(st) == L.CH_TURN_DRAW and int(st.array[L.MOVER]) == 1


@pytest.mark.parametrize("reading", ["ends_turn", "triggers"])
def test_a_jump_ends_the_turn_or_lands_on_the_revolution_space_by_option(reading: str) -> None:
    """Ledger L2, option revolution_jump: player 0 rolls a 4 onto revolution space 5 and
    moves to revolution space 31. With "ends_turn" (the default) his turn ends there; with
    "triggers" space 31 offers its actions again (roll again, draw 1, a counter on space 3,
    which he liberated, or pass) but no second jump, and rolling again (a 2) lands him on
    space 33, where he may tuck a card; the jump is offered again in his next turn."""
    st = new_state(2, revolution_jump=reading)
    liberate(st, 0, space(3), kind("Troops", 2))
    roll(st, 4)
    r = int(np.flatnonzero(D.REVOLUTION_SPACES == space(31))[0])
    st.apply_action(L.A_JUMP + r)
    assert st.array[L.POS] == space(31)
    if reading == "ends_turn":
        assert chance_kind(st) == L.CH_TURN_DRAW and int(st.array[L.MOVER]) == 1
        assert st.array[L.JUMPED] == 0
        return
    assert phase(st) == L.PH_REVOLUTION and st.current_player() == 0
    assert st.array[L.JUMPED] == 1
    counter = L.A_COUNTER + int(D.SPACE_CSPACE[space(3)])
    assert set(st.legal_actions()) == {L.A_PASS, L.A_REV_ROLL, L.A_REV_DRAW, counter}
    st.apply_action(L.A_REV_ROLL)
    assert chance_kind(st) == L.CH_REVOLUTION_DIE
    st.apply_action(2)
    assert st.array[L.POS] == space(33)
    assert phase(st) == L.PH_EMPTY and st.current_player() == 0
    st.apply_action(L.A_PASS)
    assert chance_kind(st) == L.CH_TURN_DRAW and int(st.array[L.MOVER]) == 1
    assert st.array[L.JUMPED] == 0  # a new turn: its player may jump again


def test_revolution_draw_one_card() -> None:
    st = new_state(2)
    roll(st, 4)
    before = hand(st, 0).sum()
    st.apply_action(L.A_REV_DRAW)
    assert chance_kind(st) == L.CH_REVOLUTION_DRAW
    draw(st, kind("Battle", 3))
    assert hand(st, 0).sum() == before + 1


def test_revolution_place_a_counter_on_a_space_you_liberated() -> None:
    st = new_state(2)
    sp = space(8)
    liberate(st, 0, sp, kind("Troops", 2))
    supply = int(st.array[L.SUPPLY])
    roll(st, 4)
    st.apply_action(L.A_COUNTER + int(D.SPACE_CSPACE[sp]))
    assert st.array[L.COUNTERS + sp] == 2 and st.array[L.SUPPLY] == supply - 1


# ---------------------------------------------------------------- phase 3: country spaces
def test_empty_country_space_tuck_a_liberation_card_and_place_a_counter() -> None:
    """'you may ... play a Liberation card to that space ... Place 1 of your counters'."""
    st = new_state(2)
    empty_hand(st, 0)
    troops, leader = kind("Troops", 1), kind("Leader", 7)
    give(st, 0, troops)
    give(st, 0, leader)
    st.apply_action(L.A_MOVE_CARD + troops)  # to space 2 (Columbia)
    assert set(st.legal_actions()) == {L.A_PASS, L.A_TUCK + leader}
    st.apply_action(L.A_TUCK + leader)
    a = st.array
    assert (a[L.OWNER + space(2)], a[L.CARD + space(2)], a[L.COUNTERS + space(2)]) == (0, leader, 1)
    assert a[L.SUPPLY] == D.DEFAULT_COUNTERS - 1


def test_royalist_cards_cannot_be_tucked() -> None:
    st = new_state(2)
    empty_hand(st, 0)
    give(st, 0, kind("Troops", 1))
    give(st, 0, kind("Royalist", 3))
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 1))
    assert st.legal_actions() == [L.A_PASS]


def test_no_counter_in_supply_no_liberation() -> None:
    """Ledger L8: tucking needs a counter to place."""
    st = new_state(2)
    empty_hand(st, 0)
    give(st, 0, kind("Troops", 1))
    give(st, 0, kind("Leader", 7))
    st.array[L.SUPPLY] = 0
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 1))
    assert st.legal_actions() == [L.A_PASS]


def own_space_state() -> tuple[boardsim.State, int]:
    st = new_state(2)
    empty_hand(st, 0)
    sp = space(3)
    liberate(st, 0, sp, kind("Troops", 2))
    give(st, 0, kind("Troops", 2))  # moved with: 1 -> 3
    give(st, 0, kind("Leader", 5))
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 2))
    assert phase(st) == L.PH_OWN
    return st, sp


def test_own_space_add_a_counter() -> None:
    st, sp = own_space_state()
    st.apply_action(L.A_COUNTER + int(D.SPACE_CSPACE[sp]))
    assert st.array[L.COUNTERS + sp] == 2


def test_own_space_exchange_the_tucked_card() -> None:
    """'Exchange the tucked card with one from your hand'."""
    st, sp = own_space_state()
    leader = kind("Leader", 5)
    st.apply_action(L.A_EXCHANGE + leader)
    assert st.array[L.CARD + sp] == leader
    assert hand(st, 0)[kind("Troops", 2)] == 1 and hand(st, 0)[leader] == 0


def test_own_space_draw_one_then_discard_one_possibly_the_same() -> None:
    """'Draw 1 card and discard 1 card (It may be the same card)'."""
    st, _ = own_space_state()
    st.apply_action(L.A_DRAW_DISCARD)
    assert chance_kind(st) == L.CH_OWN_DRAW
    ideals = kind("Ideals", 4)
    draw(st, ideals)
    assert phase(st) == L.PH_DRAW_DISCARD
    assert L.A_DISCARD + ideals in st.legal_actions()
    st.apply_action(L.A_DISCARD + ideals)
    assert hand(st, 0)[ideals] == 0 and st.array[L.DISCARD + ideals] >= 1


def enemy_space_state(counters: int) -> tuple[boardsim.State, int]:
    st = new_state(2)
    empty_hand(st, 0)
    sp = space(3)
    liberate(st, 1, sp, kind("Battle", 4), counters=counters)
    give(st, 0, kind("Troops", 2))
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 2))
    assert phase(st) == L.PH_ENEMY
    return st, sp


def test_royalist_attack_with_enough_force_clears_the_space() -> None:
    """'play 1 or more Royalist cards with a combined force value equal to or greater than the
    number of counters ... discard all the counters on the space and the card tucked under it.
    Remove the Royalist cards from the game.'"""
    st, sp = enemy_space_state(counters=3)
    r1, r2 = kind("Royalist", 1), kind("Royalist", 2)
    give(st, 0, r1)
    give(st, 0, r2)
    supply1 = int(st.array[L.SUPPLY + 1])
    st.apply_action(L.A_ROYALIST + r1)
    assert L.A_CONFIRM not in st.legal_actions()  # force 1 < 3 counters
    st.apply_action(L.A_ROYALIST + r2)
    assert L.A_CONFIRM in st.legal_actions()  # 1 + 2 >= 3
    st.apply_action(L.A_CONFIRM)
    a = st.array
    assert (a[L.OWNER + sp], a[L.CARD + sp], a[L.COUNTERS + sp]) == (-1, -1, 0)
    assert a[L.REMOVED + r1] == 1 and a[L.REMOVED + r2] == 1
    assert a[L.DISCARD + kind("Battle", 4)] == 1
    assert a[L.SUPPLY + 1] == supply1 + 3  # ledger L7: counters go home
    for k in range(L.K):
        assert card_total(st, k) == D.KIND_COUNT[k]


def test_royalist_attack_may_be_declined_and_cards_stay_in_hand() -> None:
    """'you can either do nothing or play ...'"""
    st, sp = enemy_space_state(counters=1)
    r = kind("Royalist", 5)
    give(st, 0, r)
    st.apply_action(L.A_ROYALIST + r)
    st.apply_action(L.A_PASS)
    assert hand(st, 0)[r] == 1 and st.array[L.OWNER + sp] == 1


def test_without_royalist_cards_nothing_can_be_done_on_another_players_space() -> None:
    st, _ = enemy_space_state(counters=1)
    assert st.legal_actions() == [L.A_PASS]


# ---------------------------------------------------------------- independence
def columbia_almost_free(st: boardsim.State) -> None:
    """Columbia (2-4): P1 holds 2 (Leader 7, 1 counter), P0 holds 3 (Troops 1, 1 counter);
    space 4 is empty; P0 to move with Troops 3 (1 -> 4) and Ideals 2 to tuck."""
    empty_hand(st, 0)
    liberate(st, 1, space(2), kind("Leader", 7), 1)
    liberate(st, 0, space(3), kind("Troops", 1), 1)
    give(st, 0, kind("Troops", 3))
    give(st, 0, kind("Ideals", 2))


def test_independence_scores_2_for_the_last_card_5_for_highest_3_for_second() -> None:
    """'You gain 2 VT for playing the final card ... highest combined total ... 5 VT ...
    second highest ... 3 VT'."""
    st = new_state(2)
    columbia_almost_free(st)
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 3))
    st.apply_action(L.A_TUCK + kind("Ideals", 2))
    a = st.array
    assert a[L.INDEP + 0] == 1
    # P1: 7 + 1 = 8 (highest, 5 VT); P0: (1 + 1) + (2 + 1) = 5 (second, 3 VT) + 2 final card
    assert a[L.VT + 1] == 5
    assert a[L.VT + 0] == 3 + 2


def test_independence_gives_1_vt_to_every_other_player_present() -> None:
    """'All other players with at least 1 card and counter in the country get 1 VT each.'"""
    st = new_state(3)
    empty_hand(st, 0)
    liberate(st, 1, space(2), kind("Leader", 7), 1)  # 8
    liberate(st, 2, space(3), kind("Troops", 1), 1)  # 2
    give(st, 0, kind("Troops", 3))
    give(st, 0, kind("Ideals", 3))
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 3))
    st.apply_action(L.A_TUCK + kind("Ideals", 3))  # P0: 4
    a = st.array
    assert [int(a[L.VT + p]) for p in range(3)] == [2 + 3, 5, 1]


@pytest.mark.parametrize(("rule", "expected"), [("share", [2 + 5, 5]), ("demote", [2 + 3, 3])])
def test_independence_ties_follow_the_option(rule: str, expected: list[int]) -> None:
    """Ledger L10: 'share' gives tied players the better award, 'demote' the worse."""
    st = new_state(2, independence_ties=rule)
    empty_hand(st, 0)
    liberate(st, 1, space(2), kind("Leader", 5), 1)  # 6
    liberate(st, 0, space(3), kind("Troops", 1), 1)  # 2
    give(st, 0, kind("Troops", 3))
    give(st, 0, kind("Troops", 3))
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 3))
    st.apply_action(L.A_TUCK + kind("Troops", 3))  # P0: 2 + 4 = 6, a tie
    assert [int(st.array[L.VT + p]) for p in range(2)] == expected


def test_counters_stay_or_return_at_independence_by_option() -> None:
    """Ledger L9."""
    for mode, home in (("stay", False), ("return", True)):
        st = new_state(2, independence_counters=mode)
        columbia_almost_free(st)
        st.apply_action(L.A_MOVE_CARD + kind("Troops", 3))
        st.apply_action(L.A_TUCK + kind("Ideals", 2))
        on_board = int(st.array[L.COUNTERS + space(2) : L.COUNTERS + space(5)].sum())
        assert (on_board == 0) is home
        assert int(st.array[L.SUPPLY]) == D.DEFAULT_COUNTERS - (0 if home else 2)


def test_no_more_counters_on_an_independent_country() -> None:
    st = new_state(2)
    columbia_almost_free(st)
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 3))
    st.apply_action(L.A_TUCK + kind("Ideals", 2))
    st.array[L.POS] = space(5)
    st.array[L.MOVER] = 0
    st.array[L.PHASE] = L.PH_REVOLUTION
    st.array[2] = 0  # H_ACTOR
    assert not any(L.A_COUNTER <= a < L.A_TUCK for a in st.legal_actions())


# ---------------------------------------------------------------- phase 5 and the end
def test_hand_limit_five_the_player_chooses_the_discards() -> None:
    """'Max hand size is 5 cards. Discard excess cards.' (ledger L6: end of turn, own choice)"""
    st = new_state(2)
    empty_hand(st, 0)
    for f in (1, 2, 3, 4):
        give(st, 0, kind("Troops", f))
    give(st, 0, kind("Ideals", 1))
    give(st, 0, kind("Ideals", 2))
    give(st, 0, kind("Battle", 3))  # 7 cards
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 1))  # 6 left; to space 2
    st.apply_action(L.A_PASS)
    assert phase(st) == L.PH_HAND_LIMIT and st.current_player() == 0
    st.apply_action(L.A_DISCARD + kind("Battle", 3))
    assert hand(st, 0).sum() == 5
    assert chance_kind(st) == L.CH_TURN_DRAW and int(st.array[L.MOVER]) == 1


@pytest.mark.parametrize("reading", ["end_of_turn", "at_once"])
def test_a_sixth_card_drawn_moves_the_pawn_or_is_discarded_first(reading: str) -> None:
    """Ledger L6, option hand_limit: player 0 holds Troops 1-4 and Ideals 1 and draws Battle
    3 at the start of its turn: 6 cards. With "end_of_turn" it may move with any of them at
    once (Battle 3 included) and discards at the end of its turn; with "at_once" it must
    first discard down to 5 (its choice, here Ideals 1), and then moves."""
    st = new_state(2, hand_limit=reading)
    empty_hand(st, 0)
    for f in (1, 2, 3, 4):
        give(st, 0, kind("Troops", f))
    give(st, 0, kind("Ideals", 1))
    give(st, 0, kind("Battle", 3))  # the turn's draw: 6 cards
    assert phase(st) == L.PH_MOVE and st.current_player() == 0
    acts = st.legal_actions()
    if reading == "end_of_turn":
        assert L.A_ROLL in acts and L.A_MOVE_CARD + kind("Battle", 3) in acts
        assert not any(L.A_DISCARD <= a < L.A_ROYALIST for a in acts)
        return
    assert L.A_ROLL not in acts and not any(L.A_MOVE_CARD <= a < L.A_PASS for a in acts)
    assert L.A_DISCARD + kind("Battle", 3) in acts and L.A_DISCARD + kind("Ideals", 1) in acts
    assert st.action_to_string(L.A_DISCARD + kind("Ideals", 1))
    st.apply_action(L.A_DISCARD + kind("Ideals", 1))
    assert hand(st, 0).sum() == 5 and phase(st) == L.PH_MOVE and st.current_player() == 0
    assert int(st.array[L.DISCARD + kind("Ideals", 1)]) >= 1
    acts = st.legal_actions()
    assert L.A_ROLL in acts and L.A_MOVE_CARD + kind("Battle", 3) in acts


def test_empty_draw_pile_takes_the_reshuffled_discards() -> None:
    """Research liberation.md section 3: 'If the deck runs out, shuffle the discard'."""
    st = new_state(2)
    a = st.array
    a[L.DISCARD : L.DISCARD + L.K] += a[L.PILE : L.PILE + L.K]
    a[L.PILE : L.PILE + L.K] = 0
    roll(st, 4)
    st.apply_action(L.A_REV_DRAW)
    assert a[L.PILE : L.PILE + L.K].sum() > 0 and a[L.DISCARD : L.DISCARD + L.K].sum() == 0


def test_game_ends_when_every_country_is_independent_most_vt_wins() -> None:
    """'The game ends when all countries have been liberated. The player with the most VT at
    the end of the game wins.'"""
    st = new_state(2)
    st.array[L.INDEP : L.INDEP + 7] = 1  # all but Mexico
    empty_hand(st, 0)
    for sp in range(37, 41):
        liberate(st, 1, space(sp), kind("Troops", 1), 1)
    give(st, 0, kind("Leader", 5))
    st.array[L.POS] = space(36)
    give(st, 0, kind("Ideals", 5))
    st.apply_action(L.A_MOVE_CARD + kind("Ideals", 5))  # 36 -> 41
    assert st.array[L.POS] == space(41)
    st.apply_action(L.A_TUCK + kind("Leader", 5))
    assert st.is_terminal() and not st.is_truncated()
    # P1: 4 x (1 + 1) = 8 -> 5 VT; P0: 5 + 1 = 6 -> 3 + 2 = 5 VT: a tie, both 0
    assert list(st.returns()) == [0.0, 0.0]
    assert st.legal_actions() == []


def test_stalled_game_ends_scored_as_it_stands() -> None:
    """Ledger L9: no counter in any supply and every Royalist out of the game."""
    st = new_state(2)
    a = st.array
    a[L.SUPPLY] = 0
    a[L.SUPPLY + 1] = 0
    for k in range(L.K):
        if D.KIND_ROYALIST[k]:
            moved = D.KIND_COUNT[k] - a[L.REMOVED + k]
            a[L.PILE + k] = 0
            for p in range(2):
                a[L.HAND + p * L.K + k] = 0
            a[L.REMOVED + k] += moved
    a[L.VT] = 3
    roll(st, 1)
    st.apply_action(L.A_PASS)
    assert st.is_terminal() and a[L.STALLED] == 1
    assert list(st.returns()) == [1.0, -1.0]


def test_stall_with_royalists_too_weak_to_clear_any_space() -> None:
    """Ledger L9: a Royalist 1 left in play cannot clear spaces holding 2 counters."""
    st = new_state(2)
    a = st.array
    for k in range(L.K):
        if D.KIND_ROYALIST[k]:
            a[L.PILE + k] = 0
            for p in range(2):
                a[L.HAND + p * L.K + k] = 0
            a[L.REMOVED + k] = D.KIND_COUNT[k]
    royal1 = kind("Royalist", 1)
    a[L.REMOVED + royal1] -= 1
    a[L.PILE + royal1] += 1
    liberate(st, 1, space(27), kind("Battle", 4), counters=2)
    a[L.SUPPLY] = 0
    a[L.SUPPLY + 1] = 0
    roll(st, 1)
    st.apply_action(L.A_PASS)
    assert st.is_terminal() and a[L.STALLED] == 1


def test_no_stall_while_a_royalist_can_still_clear_a_space() -> None:
    st = new_state(2)
    a = st.array
    liberate(st, 1, space(27), kind("Battle", 4), counters=1)
    a[L.SUPPLY] = 0
    a[L.SUPPLY + 1] = 0
    roll(st, 1)
    st.apply_action(L.A_PASS)
    assert not st.is_terminal()


# ---------------------------------------------------------------- the contested readings
def test_independent_spaces_use_no_pip_or_one_by_option() -> None:
    """Ledger L4, option independent_spaces: Columbia (2-4) independent, the pawn on space 1.
    A roll of 2: 'not_counted' skips 2-4 for nothing (5, 6); 'counted' spends the 2 pips on
    2 and 3 and the move, ending on an independent space, goes on to space 5."""
    for reading, die, lands in (
        ("not_counted", 2, 6),
        ("counted", 2, 5),
        ("not_counted", 4, 8),
        ("counted", 4, 5),
        ("counted", 5, 6),
    ):
        st = new_state(2, independent_spaces=reading)
        st.array[L.INDEP + 0] = 1
        roll(st, die)
        assert st.array[L.POS] == space(lands), (reading, die)
        expected = L.PH_REVOLUTION if lands == 5 else L.PH_EMPTY
        assert phase(st) == expected, (reading, die)


def test_the_heuristic_foresees_its_landing_by_the_independent_spaces_option() -> None:
    """Ledger L4: the heuristic weighs each move at the space ``rules.landing_space`` gives,
    the rules' own count: Troops 2 from space 1 over independent Columbia reaches Venezuela's
    space 6 ('not_counted') or revolution space 5 ('counted')."""
    for reading, lands in (("not_counted", space(6)), ("counted", space(5))):
        st = new_state(2, independent_spaces=reading)
        st.array[L.INDEP + 0] = 1
        assert rules.landing_space(st.array, st.game.params, space(1), 2) == lands


def test_cleared_space_stays_empty_or_takes_the_attackers_card_by_option() -> None:
    """Ledger L7, option cleared_space: P0 lands on P1's space 3 (1 counter) holding a
    Royalist 1 and a Leader 5 and clears it. 'left_empty': the turn passes to P1 at once;
    'tuck': P0 may tuck the Leader there in the same landing (or pass)."""
    royal, leader = kind("Royalist", 1), kind("Leader", 5)
    for reading in ("left_empty", "tuck"):
        st = new_state(2, cleared_space=reading)
        empty_hand(st, 0)
        sp = space(3)
        liberate(st, 1, sp, kind("Battle", 4), counters=1)
        give(st, 0, kind("Troops", 2))
        give(st, 0, royal)
        give(st, 0, leader)
        st.apply_action(L.A_MOVE_CARD + kind("Troops", 2))
        st.apply_action(L.A_ROYALIST + royal)
        st.apply_action(L.A_CONFIRM)
        assert st.array[L.OWNER + sp] == -1
        if reading == "left_empty":
            assert chance_kind(st) == L.CH_TURN_DRAW and int(st.array[L.MOVER]) == 1
            continue
        assert phase(st) == L.PH_EMPTY and st.current_player() == 0
        assert set(st.legal_actions()) == {L.A_PASS, L.A_TUCK + leader}
        st.apply_action(L.A_TUCK + leader)
        a = st.array
        assert (a[L.OWNER + sp], a[L.CARD + sp], a[L.COUNTERS + sp]) == (0, leader, 1)
        assert chance_kind(st) == L.CH_TURN_DRAW and int(a[L.MOVER]) == 1


def test_cleared_space_tuck_needs_a_liberation_card_and_a_counter() -> None:
    """Ledger L7, cleared_space='tuck': with only Royalist cards left the turn just ends."""
    st = new_state(2, cleared_space="tuck")
    empty_hand(st, 0)
    liberate(st, 1, space(3), kind("Battle", 4), counters=1)
    give(st, 0, kind("Troops", 2))
    give(st, 0, kind("Royalist", 1))
    give(st, 0, kind("Royalist", 2))
    st.apply_action(L.A_MOVE_CARD + kind("Troops", 2))
    st.apply_action(L.A_ROYALIST + kind("Royalist", 1))
    st.apply_action(L.A_CONFIRM)
    assert chance_kind(st) == L.CH_TURN_DRAW and int(st.array[L.MOVER]) == 1


def mexico_closed_by(st: boardsim.State, closer: int) -> None:
    """Every country but Mexico (37-41) independent; P1 holds 37-40 (Troops 1, 1 counter
    each); ``closer`` moves Ideals 5 from 36 to 41 and tucks a Leader 5 there."""
    st.array[L.INDEP : L.INDEP + 7] = 1
    for sp in range(37, 41):
        liberate(st, 1, space(sp), kind("Troops", 1), 1)
    st.array[L.MOVER] = closer
    st.array[H_ACTOR] = closer
    empty_hand(st, closer)
    give(st, closer, kind("Leader", 5))
    give(st, closer, kind("Ideals", 5))
    st.array[L.POS + closer] = space(36)
    st.apply_action(L.A_MOVE_CARD + kind("Ideals", 5))
    st.apply_action(L.A_TUCK + kind("Leader", 5))
    # P1: 4 x (1 + 1) = 8 -> 5 VT; the closer: 5 + 1 = 6 -> 3 + 2 = 5 VT


def test_game_ends_at_once_or_at_the_end_of_the_round_by_option() -> None:
    """Ledger L13, option game_end, 3 players: P0 makes Mexico, the last country,
    independent. 'at_once': the game is over with that tuck. 'end_of_round': P1 and P2
    still play their turns (a roll of 3 takes P1 from space 1 over the independent
    countries to revolution space 16, where he passes); the game ends after P2's turn,
    with the same VT and the same result: no VT can be won once every country is free."""
    at_once = new_state(3)
    mexico_closed_by(at_once, 0)
    assert at_once.is_terminal() and not at_once.is_truncated()
    st = new_state(3, game_end="end_of_round")
    mexico_closed_by(st, 0)
    assert not st.is_terminal()
    for player in (1, 2):
        assert chance_kind(st) == L.CH_TURN_DRAW and int(st.array[L.MOVER]) == player
        st.apply_action(st.chance_outcomes()[0][0])
        roll(st, 3)
        assert st.array[L.POS + player] == space(16) and phase(st) == L.PH_REVOLUTION
        assert not st.is_terminal()
        st.apply_action(L.A_PASS)
    assert st.is_terminal() and not st.is_truncated() and st.array[L.STALLED] == 0
    assert list(st.array[L.VT : L.VT + 3]) == list(at_once.array[L.VT : L.VT + 3]) == [5, 5, 0]
    assert list(st.returns()) == list(at_once.returns()) == [0.0, 0.0, -1.0]


def test_end_of_round_closed_by_the_last_seat_ends_with_his_turn() -> None:
    """Ledger L13, game_end='end_of_round': when the last seat (P1 of 2) makes the last
    country independent, the round is complete and the game ends with his turn."""
    st = new_state(2, game_end="end_of_round")
    mexico_closed_by(st, 1)
    assert st.is_terminal() and not st.is_truncated()
