"""The learning rate's step drops (``boardsim train --algo alphazero --lr-drops
ITER:RATE,...``): from iteration ITER on the optimizer trains at RATE; the curve records
each iteration's rate, a resumed run keeps the schedule, the command records it and a
malformed schedule is refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from boardsim.core.errors import OptionError
from boardsim.training.alphazero import AlphaZeroConfig, train_alphazero
from boardsim.training.run_log import train_command
from tests.training.test_alphazero import _config, _networks


def test_the_rate_is_the_last_drop_at_or_before_the_iteration() -> None:
    config = AlphaZeroConfig(
        game="liberation", run_dir="", learning_rate=1e-3, lr_drops="800:3e-4,1000:1e-4"
    )
    assert config.learning_rate_drops() == [(800, 3e-4), (1000, 1e-4)]
    rates = [config.learning_rate_at(i) for i in (1, 799, 800, 999, 1000, 5000)]
    assert rates == [1e-3, 1e-3, 3e-4, 3e-4, 1e-4, 1e-4]
    assert AlphaZeroConfig(game="liberation", run_dir="").learning_rate_drops() == []
    plain = AlphaZeroConfig(game="liberation", run_dir="", learning_rate=2e-3)
    assert plain.learning_rate_at(9) == 2e-3


@pytest.mark.parametrize(
    "drops",
    ["800", "800:", ":1e-4", "800:0", "800:-1e-4", "0:1e-4", "a:b", "900:1e-4,800:3e-4",
     "800:1e-4,800:3e-5", "800:1e-4:2", "800:1e-4,", "800:inf", "800:nan"],
)  # fmt: skip
def test_a_malformed_schedule_is_refused_by_name(drops: str) -> None:
    config = AlphaZeroConfig(game="liberation", run_dir="", lr_drops=drops)
    with pytest.raises(OptionError, match="lr_drops must be ITER:RATE"):
        config.validate()


def test_a_run_trains_each_iteration_at_its_rate_and_a_resume_keeps_the_schedule(
    tmp_path,
) -> None:
    """Three iterations, the rate dropping at the second and again at the third: the
    curve's rows say 1e-3, 3e-4, 1e-4; stopped after two and resumed, the third trains
    at 1e-4 as in the straight run, its losses and networks the same."""
    quiet = {"log": lambda *_: None}
    drops = {"learning_rate": 1e-3, "lr_drops": "2:3e-4,3:1e-4"}
    straight = train_alphazero(_config(tmp_path / "a", 3, **drops), **quiet)
    rates = [row["losses"]["learning_rate"] for row in straight.curve]
    assert rates == pytest.approx([1e-3, 3e-4, 1e-4])
    train_alphazero(_config(tmp_path / "b", 2, **drops), **quiet)
    resumed = train_alphazero(_config(tmp_path / "b", 3), resume=True, **quiet)
    assert resumed.curve[-1]["losses"] == straight.curve[-1]["losses"]
    for x, y in zip(_networks(straight.checkpoint), _networks(resumed.checkpoint), strict=True):
        np.testing.assert_array_equal(x.weights, y.weights)
    with pytest.raises(OptionError, match="lr_drops"):  # what it learns is not changed
        train_alphazero(_config(tmp_path / "b", 4, lr_drops="4:1e-5"), resume=True, **quiet)


def test_the_command_records_the_schedule(tmp_path) -> None:
    config = AlphaZeroConfig(game="connect_four", run_dir=str(tmp_path), lr_drops="800:3e-4")
    assert "--lr-drops 800:3e-4" in train_command(config)
