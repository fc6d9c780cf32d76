"""Random openings in self-play (``boardsim train --random-opening N``): a connect-four
game begins with ``k`` uniformly random moves, ``k`` in ``[0, N]``, that are neither
searched nor recorded; the games are the run's seed's alone, whatever the threads; the
setting is recorded in the run's command and a negative one refused."""

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


def _first_positions(opening: int, threads: int = 1) -> np.ndarray:
    """Each game's first recorded position (one kept a game) in ``GAMES`` self-play games
    of connect four by an 8-simulation Gumbel search with a random network, run seed 3."""
    game = _connect_four()
    agent = NetworkSearchAgent(game, random_network(game), 8, search="gumbel", gumbel_scale=1.0)
    table = seat_table(game, [agent, agent])
    record = np.ones(game.max_players, np.uint8)
    out = selfplay_games(game, table, record, 3, 0, GAMES, 1, threads, opening=opening)
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


def test_the_run_records_the_setting_and_refuses_a_negative_one(tmp_path) -> None:
    config = AlphaZeroConfig(game="connect_four", run_dir=str(tmp_path), random_opening=16)
    assert "--random-opening 16" in train_command(config)
    bad = AlphaZeroConfig(game="liberation", run_dir=str(tmp_path), random_opening=-1, **TINY)
    with pytest.raises(OptionError, match="random_opening must be >= 0"):
        bad.validate()
