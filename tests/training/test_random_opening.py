"""Random openings in self-play (``boardsim train --random-opening N``): a connect-four
game begins with ``k`` uniformly random moves, ``k`` in ``[0, N]``, that are neither
searched nor recorded; with ``--random-opening-share P`` only a share ``P`` of the games
has one; the games are the run's seed's alone, whatever the threads; the settings are
recorded in the run's command and ones out of range refused."""

from __future__ import annotations

import numpy as np
import pytest

from boardsim.agents.network import NetworkSearchAgent
from boardsim.core import header as hd
from boardsim.core.errors import OptionError
from boardsim.core.seats import seat_table
from boardsim.training.alphazero import AlphaZeroConfig
from boardsim.training.run_log import train_command
from boardsim.training.selfplay import selfplay_games
from tests.agents.test_networks import random_network
from tests.training.test_alphazero import TINY
from tests.training.test_symmetries import _connect_four

GAMES = 32


def _first_positions(opening: int, threads: int = 1, share: float = 1.0) -> np.ndarray:
    """Each game's first recorded position (one kept a game) in ``GAMES`` self-play games
    of connect four by an 8-simulation Gumbel search with a random network, run seed 3."""
    game = _connect_four()
    agent = NetworkSearchAgent(game, random_network(game), 8, search="gumbel", gumbel_scale=1.0)
    table = seat_table(game, [agent, agent])
    record = np.ones(game.max_players, np.uint8)
    out = selfplay_games(
        game, table, record, 3, 0, GAMES, 1, threads, opening=opening, opening_share=share
    )
    assert len(out["states"]) == GAMES  # every connect-four position has a choice
    return out["states"]


def test_without_an_opening_every_game_is_recorded_from_the_empty_board() -> None:
    stones = _first_positions(0)[:, hd.H_DECISIONS]
    assert np.all(stones == 0)


def test_a_random_opening_of_up_to_eight_moves_starts_the_games_apart() -> None:
    """The first position searched and recorded has ``k`` stones on the board (every
    connect-four move is a decision with a choice until the board fills), ``k`` between 0
    and 8 and not the same in every game; the positions are many, not one."""
    first = _first_positions(8)
    stones = first[:, hd.H_DECISIONS]
    assert stones.min() >= 0 and stones.max() <= 8
    assert len(set(stones.tolist())) >= 4
    assert len({row.tobytes() for row in first}) >= GAMES // 2


def test_the_random_openings_are_the_seeds_whatever_the_threads() -> None:
    np.testing.assert_array_equal(_first_positions(8, threads=1), _first_positions(8, threads=2))


def test_a_share_of_none_plays_every_game_from_the_empty_board() -> None:
    assert np.all(_first_positions(8, share=0.0)[:, hd.H_DECISIONS] == 0)


def test_a_share_of_one_is_every_game_as_without_a_share() -> None:
    np.testing.assert_array_equal(_first_positions(8, share=1.0), _first_positions(8))


def test_a_half_share_opens_some_games_and_not_others() -> None:
    """With a share of 0.5, about half of the 32 games begin from the empty board (those
    without an opening, and the openings of 0 moves), the rest with up to 8 stones; a game
    that has an opening has the same one as when every game has one (its own draw)."""
    half = _first_positions(8, share=0.5)
    every = _first_positions(8)
    stones = half[:, hd.H_DECISIONS]
    assert 8 <= int(np.sum(stones == 0)) <= 26 and stones.max() <= 8
    opened = stones > 0
    np.testing.assert_array_equal(half[opened], every[opened])


def test_the_run_records_the_settings_and_refuses_ones_out_of_range(tmp_path) -> None:
    config = AlphaZeroConfig(
        game="connect_four", run_dir=str(tmp_path), random_opening=16, random_opening_share=0.5
    )
    assert "--random-opening 16 --random-opening-share 0.5" in train_command(config)
    bad = AlphaZeroConfig(game="liberation", run_dir=str(tmp_path), random_opening=-1, **TINY)
    with pytest.raises(OptionError, match="random_opening must be >= 0"):
        bad.validate()
    bad = AlphaZeroConfig(
        game="liberation", run_dir=str(tmp_path), random_opening_share=1.5, **TINY
    )
    with pytest.raises(OptionError, match=r"random_opening_share must be in \[0, 1\]"):
        bad.validate()
    bad = AlphaZeroConfig(game="liberation", run_dir=str(tmp_path), random_opening_share=0.5)
    with pytest.raises(OptionError, match="random_opening_share needs random_opening"):
        bad.validate()
