"""Training on a position's symmetric forms (``boardsim train --symmetries``): connect
four's declared mirror is the board seen in a mirror (checked against its engine, move by
move), a minibatch row turns whole into one of its forms, and a game that declares none,
or a map that is no permutation, is refused by name."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from boardsim.api import make_game
from boardsim.core.errors import OptionError
from boardsim.core.game import Game
from boardsim.training import alphazero
from boardsim.training.alphazero import AlphaZeroConfig, AlphaZeroTrainer
from boardsim.training.run_log import train_command
from boardsim.training.targets import symmetric_forms, symmetry_maps
from tests.training.test_alphazero import TINY

PLUGIN = Path(__file__).resolve().parents[2] / "benchmarks" / "connect_four"


def _connect_four() -> Game:
    if str(PLUGIN) not in sys.path:
        sys.path.insert(0, str(PLUGIN))
    from boardsim_connect_four import DEFINITION

    return Game(DEFINITION)


def test_connect_fours_mirror_is_the_board_seen_in_a_mirror() -> None:
    """Column ``c`` played in one game and ``6 - c`` in the other, from the first move to
    the last: at every position the second's observation is the first's through the
    observation map, its legal moves the first's through the action map, and the results
    are the same."""
    game = _connect_four()
    ((observation_map, action_map),) = symmetry_maps(game)
    np.testing.assert_array_equal(action_map, [6, 5, 4, 3, 2, 1, 0])
    rng = np.random.default_rng(7)
    for _ in range(100):
        left, right = game.new_initial_state(0), game.new_initial_state(0)
        while not left.is_terminal():
            player = left.current_player()
            assert right.current_player() == player
            np.testing.assert_array_equal(
                right.observation(player), left.observation(player)[observation_map]
            )
            np.testing.assert_array_equal(
                right.legal_actions_mask(), left.legal_actions_mask()[action_map]
            )
            column = int(rng.choice(left.legal_actions()))
            left.apply_action(column)
            right.apply_action(6 - column)
        assert right.is_terminal()
        np.testing.assert_array_equal(right.returns(), left.returns())


def test_a_minibatch_row_turns_whole_into_the_form_drawn_for_it() -> None:
    """Three features and two moves, one symmetry swapping the first two features and the
    moves: the rows drawn for it are swapped in their observation (the features past the
    map's width, a hint's, untouched), legal mask and policy target; the others stay."""
    symmetries = ((np.array([1, 0, 2]), np.array([1, 0])),)
    n = 64
    obs = np.tile(np.array([1.0, 2.0, 3.0, 9.0], np.float32), (n, 1))
    masks = np.tile(np.array([1, 0], np.uint8), (n, 1))
    policies = np.tile(np.array([0.75, 0.25], np.float32), (n, 1))
    forms = symmetric_forms(obs, masks, policies, symmetries, np.random.default_rng(3))
    mirrored, kept = forms == 1, forms == 0
    assert mirrored.any() and kept.any() and (mirrored | kept).all()
    np.testing.assert_array_equal(obs[mirrored], [[2.0, 1.0, 3.0, 9.0]] * mirrored.sum())
    np.testing.assert_array_equal(obs[kept], [[1.0, 2.0, 3.0, 9.0]] * kept.sum())
    np.testing.assert_array_equal(masks[mirrored], [[0, 1]] * mirrored.sum())
    np.testing.assert_array_equal(policies[mirrored], [[0.25, 0.75]] * mirrored.sum())
    np.testing.assert_array_equal(policies[kept], [[0.75, 0.25]] * kept.sum())


def test_a_game_without_symmetries_and_a_map_that_is_no_permutation_are_refused() -> None:
    with pytest.raises(OptionError, match="farrapos declares no symmetries"):
        symmetry_maps(make_game("farrapos"))
    broken = SimpleNamespace(
        name="broken",
        options={},
        observation_size=3,
        num_actions=2,
        definition=SimpleNamespace(
            symmetries=lambda options: ((np.array([0, 0, 2]), np.array([1, 0])),)
        ),
    )
    with pytest.raises(OptionError, match="symmetry 0's observation map is not a permutation"):
        symmetry_maps(broken)
    with pytest.raises(OptionError, match="cannot take --hint"):
        AlphaZeroConfig(game="connect_four", run_dir="x", symmetries=True, hint=True).validate()
    config = AlphaZeroConfig(
        game="liberation",
        run_dir="x",
        options={"num_players": 2},
        symmetries=True,
        **TINY,
    )
    with pytest.raises(OptionError, match="liberation declares no symmetries"):
        AlphaZeroTrainer(config)


def test_the_run_records_the_flag_and_trains_on_mirrored_positions(tmp_path, monkeypatch) -> None:
    """A connect-four trainer with ``--symmetries``: its command says so, and a minibatch
    of mirrored positions is what it learns from (one gradient step, finite losses)."""
    game = _connect_four()
    monkeypatch.setattr(alphazero, "make_game", lambda name, **options: game)
    config = AlphaZeroConfig(
        game="connect_four",
        run_dir=str(tmp_path),
        symmetries=True,
        **{**TINY, "panel": [], "panel_positions": 0},
    )
    assert "--symmetries" in train_command(config)
    trainer = AlphaZeroTrainer(config)
    assert len(trainer.symmetries) == 1
    state = game.new_initial_state(0)
    for column in (0, 0, 1):
        state.apply_action(column)
    states = np.tile(state.array, (8, 1)).astype(np.int32)
    policies = np.zeros((8, game.num_actions), np.float32)
    policies[:, 2] = 1.0  # the move that makes three in the bottom row
    trainer.buffer.add(states, policies, np.tile([1.0, -1.0], (8, 1)).astype(np.float32))
    losses = trainer.train_network()
    assert losses["steps"] >= 1 and np.isfinite(losses["policy"]) and np.isfinite(losses["value"])
