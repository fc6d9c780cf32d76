"""A self-play run with a convolutional network, on connect four (the plugin's game,
whose observation is two planes of its board): it trains, saves the network with its
convolutions, records the flag that asked for them, and resumes."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from boardsim.core import nn as cnn
from boardsim.core.game import Game
from boardsim.core.network import Network
from boardsim.training import alphazero
from boardsim.training.alphazero import AlphaZeroConfig, train_alphazero, train_command
from boardsim.training.checkpoint import read_entry
from tests.training.test_alphazero import TINY

PLUGIN = Path(__file__).resolve().parents[2] / "benchmarks" / "connect_four"


@pytest.fixture
def connect_four_by_name(monkeypatch):
    """``make_game("connect_four")`` inside the trainer, without installing the plugin."""
    if str(PLUGIN) not in sys.path:
        sys.path.insert(0, str(PLUGIN))
    from boardsim_connect_four import DEFINITION

    monkeypatch.setattr(alphazero, "make_game", lambda name, **options: Game(DEFINITION, **options))


def _config(run_dir: Path, iterations: int) -> AlphaZeroConfig:
    return AlphaZeroConfig(
        game="connect_four",
        run_dir=str(run_dir),
        iterations=iterations,
        **{**TINY, "conv": [4, 4], "hidden": [], "panel_positions": 0},
    )


@pytest.mark.slow
def test_a_convolutional_run_trains_saves_its_convolutions_and_resumes(
    tmp_path, connect_four_by_name
) -> None:
    quiet = {"log": lambda *_: None}
    # oneDNN off: once a larger convolution has run in the process (another test's), its
    # sums in the straight run and the resumed one may differ in the last bit
    with torch.backends.mkldnn.flags(enabled=False):
        straight = train_alphazero(_config(tmp_path / "a", 2), **quiet)
        train_alphazero(_config(tmp_path / "b", 1), **quiet)
        resumed = train_alphazero(_config(tmp_path / "b", 2), resume=True, **quiet)
    a = Network.from_bytes(read_entry(straight.checkpoint, "network.npz"))
    b = Network.from_bytes(read_entry(resumed.checkpoint, "network.npz"))
    np.testing.assert_array_equal(a.weights, b.weights)
    kinds = [int(row[cnn.L_KIND]) for row in a.layout[1:]]
    assert kinds[:2] == [cnn.KIND_CONV_PLANES, cnn.KIND_CONV]
    assert a.meta["architecture"]["conv"] == [4, 4]
    command = train_command(_config(tmp_path, 2))
    assert "--conv 4,4" in command and "--hidden none" in command
