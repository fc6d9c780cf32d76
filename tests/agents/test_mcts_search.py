"""The compiled search itself: it finds the winning move of hand-built positions in every
game, it never sees the hidden cards or the real future dice, and the compiled sweeps
(``mcts_play_games``) play the same games as the engine's."""

from __future__ import annotations

import numpy as np
import pytest

import boardsim
from boardsim.agents.mcts import MCTSAgent, play_games
from boardsim.core.batch import play_games as engine_play_games
from boardsim.core.header import H_ACTOR, H_RNG
from boardsim.core.rng import PyRng
from boardsim.games.farrapos import layout as FL
from boardsim.games.farrapos import rules as farrapos_rules
from boardsim.games.farrapos.data import CITY_IDS, PIECE_SIDE
from boardsim.games.hispania import layout as hl
from boardsim.games.liberation import data as LD
from boardsim.games.liberation import layout as LL
from tests.hispania.helpers import blank_roman, put, sp


# ---------------------------------------------------------------- the winning move
def last_space_to_liberate() -> tuple[boardsim.State, int]:
    """Race, 2 players, 10 VT each: every country independent but the last, whose spaces
    player 0 holds except one; his pawn stands on that one with a Liberation card."""
    game = boardsim.make_game("liberation", num_players=2)
    st = game.new_initial_state(0)
    a = st.array
    c = LD.NUM_COUNTRIES - 1
    first, length = int(LD.COUNTRY_FIRST[c]), int(LD.COUNTRY_LENGTH[c])
    card = next(k for k in range(LL.K) if LD.KIND_ROYALIST[k] == 0)  # a Liberation card
    a[LL.INDEP : LL.INDEP + LD.NUM_COUNTRIES] = 1
    a[LL.INDEP + c] = 0
    for s in range(first, first + length - 1):
        a[LL.OWNER + s], a[LL.CARD + s], a[LL.COUNTERS + s] = 0, card, 1
    target = first + length - 1
    a[LL.VT], a[LL.VT + 1] = 10, 10
    a[LL.POS] = target
    a[LL.POS + 1] = LD.START_SPACE
    a[LL.HAND + card] += 1
    a[LL.PILE + card] -= 1
    a[LL.MOVER] = 0
    a[H_ACTOR] = 0
    a[LL.PHASE] = LL.PH_EMPTY
    return st, LL.A_TUCK + card


def test_race_liberates_the_last_space_and_wins() -> None:
    st, tuck = last_space_to_liberate()
    assert LL.A_PASS in st.legal_actions() and tuck in st.legal_actions()
    assert len(st.legal_actions()) >= 3  # passing, or moving on, does not win
    agent = MCTSAgent(st.game, seed=0, simulations=60)
    chosen = agent.act_state(st)
    assert LL.A_TUCK <= chosen < LL.A_EXCHANGE  # any Liberation card closes the country
    st.apply_action(chosen)
    assert st.is_terminal() and list(st.returns()) == [1.0, -1.0]


def test_farrapos_takes_the_city_that_reaches_the_victory_vp() -> None:
    """The Empire's garrison of Lages is gone (Republic 5 VP, Empire 6) and 7 VP win at the
    end of a turn: the Republic wins at once by taking a 2-VP city (Piratini, Rio Pardo,
    Caçapava...), not by a 1-VP one or by passing. MCTS plays its whole turn (city, unit,
    confirm) and wins."""
    game = boardsim.make_game("farrapos", victory_vp=7)
    st = game.new_initial_state(0)
    a = st.array
    for u in range(FL.P):
        if PIECE_SIDE[u] == 1 and a[FL.LOC + u] == CITY_IDS.index("lages"):
            a[FL.LOC + u] = FL.LOC_ELIMINATED
    farrapos_rules.recount(a, game.params)
    assert (int(a[FL.VP]), int(a[FL.VP + 1])) == (5, 6)
    agent = MCTSAgent(game, seed=0, simulations=200)
    while not st.is_terminal() and st.current_player() == 0:
        st.apply_action(agent.act_state(st))
    assert st.is_terminal() and list(st.returns()) == [1.0, -1.0]


def test_hispania_garrisons_the_last_capital() -> None:
    """Every other capital garrisoned and the Roman provinces clear: the general standing in
    the last capital wins by garrisoning it (dice explicit in this position)."""
    st = blank_roman(generals=("Flaviobriga", "Valentia", "Mare Ibericum"))
    for c in ("Osca", "Numantia", "Toletum", "Olisipo"):
        put(st, c, garrisons=(1,))
    put(st, "Lancia", garrisons=(2,))
    assert hl.A_GARRISON in st.legal_actions() and len(st.legal_actions()) > 2
    agent = MCTSAgent(st.game, seed=0, simulations=100)
    a = agent.act_state(st)
    st.apply_action(a)
    assert st.is_terminal() and list(st.returns()) == [1.0, 1.0, 1.0]
    assert int(st.array[hl.GARR + sp("Flaviobriga") * hl.STACK]) != 0


def test_farrapos_search_never_cancels_or_unchooses() -> None:
    """While a composite attack or march is composed, the rules only let units join or
    the choice be confirmed (ledger row 25), so the search has nothing to prune; its games end
    like the heuristic's."""
    game = boardsim.make_game("farrapos")
    st = game.new_initial_state(0)
    kernels, params = game.kernels, game.params
    scratch = np.zeros(game.num_actions, np.uint8)
    prng = np.ones(2, np.int32)
    while int(st.array[FL.MODE]) not in (FL.M_ATTACK, FL.M_MOVE):
        st.apply_action(int(kernels.heuristic_action(st.array, params, scratch, prng)))
    unit = next(a for a in st.legal_actions() if FL.A_UNIT <= a < FL.A_CONFIRM)
    st.apply_action(unit)  # one unit chosen
    mask = st.legal_actions_mask().astype(np.uint8)
    assert not mask[FL.A_CANCEL] and not mask[unit] and mask[FL.A_CONFIRM]
    before = mask.copy()
    kernels.search_prune(st.array, params, mask)
    assert np.array_equal(mask, before)
    out = play_games(game, 2, ["mcts", "heuristic"], seed=0, threads=1, simulations=30)
    assert np.all(out["decisions"] < 2000)


def test_hispania_search_never_undoes_a_roman_step() -> None:
    """Roman phase: a garrison is never taken back by the search (a chosen combat has no
    cancel in the rules, ledger row 25)."""
    st = blank_roman(generals=("Toletum", "Valentia", "Mare Ibericum"), denarii=3)
    kernels, params = st.game.kernels, st.game.params
    mask = st.legal_actions_mask().astype(np.uint8)
    assert mask[hl.A_PASS]
    mask[hl.A_UNGARRISON] = 1  # as if one of his garrisons stood there
    kernels.search_prune(st.array, params, mask)
    assert not mask[hl.A_UNGARRISON] and mask[hl.A_PASS]
    st.array[hl.PEND_KIND] = 1  # a combat chosen, its denarii not yet spent
    mask = st.legal_actions_mask().astype(np.uint8)
    assert not mask[hl.A_CANCEL] and mask[hl.A_SPEND]


# ---------------------------------------------------------------- determinization
def midgame_race(seed: int = 4) -> boardsim.State:
    """A 3-player race after 40 random decisions, at a decision of the player to move."""
    game = boardsim.make_game("liberation", num_players=3)
    st = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(40):
        st.apply_action(int(rng.choice(st.legal_actions())))
    while len(st.legal_actions()) < 2:
        st.apply_action(st.legal_actions()[0])
    return st


def swap_hidden_card(st: boardsim.State) -> boardsim.State:
    """The same information set for the player to move: one card of an opponent's hand
    traded with a different card of the draw pile."""
    other = st.clone()
    a = other.array
    me = st.current_player()
    for q in range(st.game.num_players):
        if q == me:
            continue
        for k in range(LL.K):
            for j in range(LL.K):
                if k != j and a[LL.HAND + q * LL.K + k] > 0 and a[LL.PILE + j] > 0:
                    a[LL.HAND + q * LL.K + k] -= 1
                    a[LL.PILE + k] += 1
                    a[LL.HAND + q * LL.K + j] += 1
                    a[LL.PILE + j] -= 1
                    return other
    raise AssertionError("no hidden card to swap")


def test_determinize_keeps_what_the_player_sees() -> None:
    st = midgame_race()
    me = st.current_player()
    kernels, params = st.game.kernels, st.game.params
    n, K = st.game.num_players, LL.K
    a = st.array
    prng = np.zeros(2, np.int32)
    PyRng(prng, 0).seed(11)
    changed = False
    for _ in range(20):
        d = a.copy()
        kernels.determinize(d, params, me, prng)
        hands, dhands = a[LL.HAND : LL.HAND + n * K], d[LL.HAND : LL.HAND + n * K]
        assert np.array_equal(dhands.reshape(n, K)[me], hands.reshape(n, K)[me])  # my hand
        assert np.array_equal(dhands.reshape(n, K).sum(1), hands.reshape(n, K).sum(1))  # sizes
        unseen = a[LL.PILE : LL.PILE + K] + hands.reshape(n, K).sum(0) - hands.reshape(n, K)[me]
        dunseen = d[LL.PILE : LL.PILE + K] + dhands.reshape(n, K).sum(0) - dhands.reshape(n, K)[me]
        assert np.array_equal(unseen, dunseen)  # the same unseen cards, dealt again
        public = np.ones(a.shape[0], bool)
        public[LL.HAND : LL.HAND + n * K] = False
        public[LL.PILE : LL.PILE + K] = False
        assert np.array_equal(d[public], a[public])  # the board, discards, VT, dice: untouched
        assert np.array_equal(
            st.observation(me), rules_observation(st.game, d, me)
        )  # the player cannot tell the determinization from the real state
        changed |= not np.array_equal(d, a)
    assert changed


def rules_observation(game: boardsim.Game, array: np.ndarray, player: int) -> np.ndarray:
    out = np.zeros(game.observation_size, np.float32)
    game.kernels.observe(array, game.params, player, out)
    return out


def test_the_search_does_not_depend_on_the_hidden_cards_or_the_real_dice() -> None:
    st = midgame_race()
    same_information = swap_hidden_card(st)
    other_future = st.clone()
    PyRng(other_future.array, H_RNG).seed(987654321)  # different real dice and draws ahead
    assert not np.array_equal(same_information.array, st.array)
    results = []
    for position in (st, same_information, other_future):
        agent = MCTSAgent(st.game, seed=3, simulations=150)
        action = agent.act_state(position)
        visits, values = agent.root_statistics()
        results.append((action, visits, values))
    for action, visits, values in results[1:]:
        assert action == results[0][0]
        assert np.array_equal(visits, results[0][1])
        assert np.allclose(values, results[0][2])


def test_farrapos_and_hispania_hide_nothing() -> None:
    for name in ("farrapos", "hispania"):
        game = boardsim.make_game(name)
        st = game.new_initial_state(0)
        d = st.array.copy()
        game.kernels.determinize(d, game.params, st.current_player(), np.ones(2, np.int32))
        assert np.array_equal(d, st.array)


# ---------------------------------------------------------------- compiled sweeps
def test_compiled_games_without_mcts_are_the_engines_games() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    ours = play_games(game, 3, ["random", "heuristic"], seed=5, threads=1, simulations=4)
    theirs = engine_play_games(game, 3, ["random", "heuristic"], seed=5, threads=1)
    assert np.array_equal(ours["returns"], theirs["returns"])
    assert np.array_equal(ours["decisions"], theirs["decisions"])


@pytest.mark.slow
def test_compiled_mcts_seat_beats_random_and_ignores_threads() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    one = play_games(game, 6, ["mcts", "random"], seed=1, threads=1, simulations=50)
    two = play_games(game, 6, ["mcts", "random"], seed=1, threads=2, simulations=50)
    assert np.array_equal(one["returns"], two["returns"])
    assert (one["returns"][:, 0] > 0).sum() >= 5


def test_compiled_sweep_arguments_are_checked() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    with pytest.raises(ValueError, match="seats"):
        play_games(game, 1, ["mcts"])
    with pytest.raises(ValueError, match="greedy"):
        play_games(game, 1, ["mcts", "greedy"])
    with pytest.raises(boardsim.OptionError, match="simulations"):
        play_games(game, 1, ["mcts", "random"], simulations=0)


def test_a_table_without_networks_plays_the_same_games_with_less_compiled() -> None:
    """``mcts.play_plain_games`` (what ``play_games`` runs when no seat has a network: the
    network searches are not compiled) plays ``mcts.play_games``' games exactly."""
    from boardsim.agents.mcts import uct_seat
    from boardsim.core.seats import seat_table, uses_networks

    game = boardsim.make_game("liberation", num_players=2)
    seats = seat_table(game, [uct_seat(game, simulations=6), "heuristic"])
    assert not uses_networks(seats)
    results = []
    for play in (game.mcts.play_games, game.mcts.play_plain_games):
        returns = np.zeros((3, game.max_players), np.float64)
        decisions = np.zeros(3, np.int64)
        flags = np.zeros(3, np.int32)
        play(game.params, seats, 7, 2, returns, decisions, flags)
        results.append((returns, decisions, flags))
    for ours, theirs in zip(results[0], results[1], strict=True):
        assert np.array_equal(ours, theirs)
