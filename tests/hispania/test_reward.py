"""The ``reward`` option: +1/-1 at the end, or also Rome's standing as it changes (the
standing gained since the first position: returns are the rewards paid)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardsim
from boardsim.core.errors import OptionError
from boardsim.games.hispania import data as hd
from boardsim.games.hispania import layout as hl
from boardsim.games.hispania import reference

ROMAN_CITY = next(c for c in range(hd.NUM_CITIES) if hd.CITY_PROVINCE[c] >= hd.NUM_HISPANIC)


def _play(game: boardsim.Game, seed: int) -> tuple[boardsim.State, list[np.ndarray], list]:
    """A random game; the state, each step's rewards and Rome's standing before each step
    and at the end."""
    st = game.new_initial_state(seed)
    rng = random.Random(seed)
    rewards, standing = [], []
    while not st.is_terminal():
        standing.append(reference.rome_standing(list(st.array), list(game.params)))
        st.apply_action(rng.choice(st.legal_actions()))
        rewards.append(st.last_rewards[: game.num_players].copy())
    standing.append(reference.rome_standing(list(st.array), list(game.params)))
    return st, rewards, standing


def test_standing_is_rome_s_share_of_its_aims_at_a_known_position() -> None:
    game = boardsim.make_game("hispania", auto_setup=True)
    st = game.new_initial_state(0)
    s = list(st.array)
    params = list(game.params)
    for p in range(4):  # four of the six Hispanic capitals garrisoned
        s[hl.GARR + (p * 6 + 5) * hl.STACK] = 1
    s[hl.RESERVE] = 11  # half the revolt counters in the reserve
    for c in range(hl.NUM_SPACES):
        s[hl.REVOLTS + c] = 0
    s[hl.TRACK] = 3  # time does not count
    expected = (0.45 * 4 / 6 + 0.25 * 11 / 22 + 0.15 * 1.0) / 0.85
    assert reference.rome_standing(s, params) == pytest.approx(expected)
    s[hl.REVOLTS + ROMAN_CITY] = 2  # two revolts in a Roman province
    expected = (0.45 * 4 / 6 + 0.25 * 11 / 22 + 0.15 / 3) / 0.85
    assert reference.rome_standing(s, params) == pytest.approx(expected)


def test_progress_rewards_add_up_to_the_result_and_the_standing_gained() -> None:
    game = boardsim.make_game("hispania", reward="progress", level="7-5-4-5-1")
    for seed in range(5):
        st, rewards, standing = _play(game, seed)
        total = np.sum(rewards, axis=0)
        result = 1.0 if st.returns()[0] > 0 else -1.0
        # the return is the rewards paid (version 4): the standing gained since the start
        assert st.returns()[0] == pytest.approx(result + 0.5 * (standing[-1] - standing[0]))
        assert total[0] == pytest.approx(result + 0.5 * (standing[-1] - standing[0]))
        assert np.allclose(total, st.returns(), atol=1e-5)
        assert np.allclose(total, total[0])  # every general shares Rome's reward
        assert any(abs(r[0]) > 1e-9 for r in rewards[:-1])  # dense before the end
        # each decision is paid the standing it gained
        for r, before, after in zip(rewards[:-1], standing, standing[1:], strict=False):
            assert r[0] == pytest.approx(0.5 * (after - before))


def test_any_win_outranks_any_loss() -> None:
    assert -1.0 + hl.PROGRESS_WEIGHT * 1.0 < 1.0 + hl.PROGRESS_WEIGHT * 0.0


def test_win_loss_pays_only_at_the_end_and_is_the_default() -> None:
    game = boardsim.make_game("hispania", level="7-5-4-5-1")
    assert game.options["reward"] == "win_loss"
    _, rewards, _ = _play(game, 3)
    assert all(not r.any() for r in rewards[:-1])
    assert abs(rewards[-1][0]) == 1.0


def test_the_hispano_player_is_paid_the_opposite() -> None:
    game = boardsim.make_game("hispania", reward="progress", hispano=True)
    _, rewards, _ = _play(game, 1)
    for r in rewards:
        assert r[hl.HISPANO] == pytest.approx(-r[0])


def test_an_unknown_reward_is_refused() -> None:
    with pytest.raises(OptionError, match="reward"):
        boardsim.make_game("hispania", reward="shaped")
