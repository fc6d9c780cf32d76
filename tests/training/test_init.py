"""A self-play run that starts from a network (``--init``): its weights, layers and hint
are the run's first network; a resume does not read it again; what cannot be a start is
refused, named."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import numpy as np
import pytest

from boardsim.core.errors import OptionError, StateFormatError
from boardsim.training.alphazero import (
    AlphaZeroConfig,
    AlphaZeroTrainer,
    _init_network,
    best_network,
    train_alphazero,
    train_command,
)
from tests.training.test_alphazero import TINY

AGENTS = Path(__file__).resolve().parents[2] / "agents"
QUIET = {"log": lambda *_: None}
# TINY without its layers: a run started from a network takes the network's
UNSHAPED = {k: v for k, v in TINY.items() if k not in ("hidden", "value_hidden")}


def _config(run_dir: Path, iterations: int, game: str = "liberation", **kw) -> AlphaZeroConfig:
    return AlphaZeroConfig(
        game=game,
        run_dir=str(run_dir),
        options={"num_players": 2, "max_decisions": 2000},
        iterations=iterations,
        **kw,
    )


@pytest.fixture(scope="module")
def small_network(tmp_path_factory) -> Path:
    """A one-iteration run's network (16 hidden units, a value head of 8; no gate, so
    trained, not the fresh one), saved."""
    run = tmp_path_factory.mktemp("first")
    train_alphazero(_config(run, 1, **{**TINY, "gate": "none"}), **QUIET)
    path = run / "first.npz"
    best_network(run).save(path)
    return path


def test_a_run_starts_from_the_networks_weights_and_takes_its_layers(
    tmp_path, small_network
) -> None:
    start, config = _init_network(_config(tmp_path, 1, init=str(small_network), **UNSHAPED), None)
    assert (config.hidden, config.value_hidden, config.hint, config.conv) == ([16], 8, False, [])
    trainer = AlphaZeroTrainer(config)
    assert not np.array_equal(trainer.best.weights, start.weights)  # a fresh model's
    trainer.start_from(start)
    np.testing.assert_array_equal(trainer.best.weights, start.weights)
    # the command that trains it names the start
    words = shlex.split(train_command(config))
    assert words[words.index("--init") + 1] == str(small_network)


def test_a_started_run_trains_and_resumes_without_reading_its_start_again(
    tmp_path, small_network
) -> None:
    start = tmp_path / "start.npz"
    start.write_bytes(small_network.read_bytes())
    run = tmp_path / "run"
    train_alphazero(_config(run, 1, init=str(start), **UNSHAPED), **QUIET)
    saved = json.loads((run / "config.json").read_text())
    assert (saved["init"], saved["hidden"], saved["value_hidden"]) == (str(start), [16], 8)
    start.unlink()  # the checkpoint holds the network now
    result = train_alphazero(_config(run, 2, **UNSHAPED), resume=True, **QUIET)
    assert result.iterations == 2


def test_the_shipped_race_network_is_a_start_whatever_its_slots_numbers(tmp_path) -> None:
    # exported before the convolutions came, its value head's slots are numbered otherwise
    path = AGENTS / "liberation" / "alphazero.npz"
    start, config = _init_network(_config(tmp_path, 1, init=str(path)), None)
    assert (config.hidden, config.value_hidden, config.hint) == ([256, 256], 64, True)
    trainer = AlphaZeroTrainer(config)
    trainer.start_from(start)
    np.testing.assert_array_equal(trainer.best.weights, start.weights)


def test_what_cannot_start_a_run_is_refused_by_name(tmp_path, small_network) -> None:
    def refused(match: str, error: type[Exception] = OptionError, explicit=None, **kw) -> None:
        config = _config(tmp_path / "r", 1, **{**UNSHAPED, **kw})
        with pytest.raises(error, match=match):
            start, config = _init_network(config, explicit)
            AlphaZeroTrainer(config).start_from(start)

    refused("no such file", init=str(tmp_path / "none.npz"))
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a network")
    refused("is not a boardsim network", StateFormatError, init=str(garbage))
    refused("not of 'farrapos'", init=str(small_network), game="farrapos")
    refused("not exported by an alphazero run", init=str(AGENTS / "liberation" / "ppo.npz"))
    # a layer setting the caller gave otherwise than the network's, named as given
    refused(
        "leave out --hidden", init=str(small_network), explicit={"hidden": "--hidden"}, hidden=[32]
    )
    refused("leave out hidden", init=str(small_network), hidden=[32])
    # three players: another observation, so other layers
    three = _config(tmp_path / "r3", 1, init=str(small_network), **UNSHAPED)
    three.options = {"num_players": 3}
    start, three = _init_network(three, None)
    with pytest.raises(OptionError, match="its layers differ"):
        AlphaZeroTrainer(three).start_from(start)


def test_a_run_from_a_network_searches_as_it_does_unless_told_otherwise(tmp_path) -> None:
    """Hispania's shipped network searches with PUCT at ``c_scale`` 0.1: a run from it
    keeps those settings (its exports then search as the network it started from), not the
    trainer's defaults (Gumbel, ``c_scale`` 1); a setting the command gives wins; the leaf
    mix is the run's own."""
    path = str(AGENTS / "hispania" / "alphazero.npz")
    hispania = {"game": "hispania", "run_dir": str(tmp_path), "init": path}
    _, kept = _init_network(AlphaZeroConfig(**hispania), None)
    assert (kept.search, kept.c_scale, kept.rollout, kept.rollout_depth) == (
        "puct",
        0.1,
        "heuristic",
        20,
    )
    assert kept.mix == AlphaZeroConfig.mix  # the network records its export's mix, not a run's
    _, told = _init_network(AlphaZeroConfig(**hispania, search="gumbel"), {"search": "--search"})
    assert (told.search, told.c_scale) == ("gumbel", 0.1)
