"""A resumed run trains on as it began: changed settings are refused by name, config.json
tells the settings used, and TensorBoard shows every step once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardsim import OptionError
from boardsim.cli import main
from boardsim.files import atomic_write_text
from boardsim.training.checkpoint import CHECKPOINT_DIR, LATEST_NAME, checkpoint_name
from boardsim.training.ppo import TrainConfig, train
from tests.training.helpers import TINY

FLAGS = [
    "--num-envs", "4", "--n-steps", "32", "--batch-size", "64", "--epochs", "1",
    "--net-arch", "16", "--no-progress", "--threads", "1", "--checkpoint-every", "64",
    "--no-tensorboard",
]  # fmt: skip


def _saved_config(run: Path) -> dict:
    return json.loads((run / "config.json").read_text())


def test_resume_refuses_changed_hyperparameters_naming_each_flag(tmp_path, capsys) -> None:
    run = tmp_path / "run"
    args = ["train", "farrapos", "--run-dir", str(run), *FLAGS]
    assert main([*args, "--timesteps", "128"]) == 0
    capsys.readouterr()
    code = main([*args, "--timesteps", "256", "--resume", "--lr", "0.1", "--num-envs", "2"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--lr: 0.0003 -> 0.1" in err and "--num-envs: 4 -> 2" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert _saved_config(run)["total_timesteps"] == 128  # nothing was trained nor written


def test_resume_without_the_flags_trains_on_with_the_run_s_own_and_says_so(
    tmp_path, capsys
) -> None:
    run = tmp_path / "run"
    args = ["train", "farrapos", "--run-dir", str(run)]
    assert main([*args, *FLAGS, "--lr", "0.001", "--timesteps", "128"]) == 0
    # the same flags again, or none: both continue the run as it began
    assert main([*args, *FLAGS, "--lr", "0.001", "--timesteps", "256", "--resume"]) == 0
    assert main([*args, "--timesteps", "384", "--resume", "--no-progress"]) == 0
    assert "trained 384 steps" in capsys.readouterr().out
    saved = _saved_config(run)
    assert saved["total_timesteps"] == 384  # what the last session trained to
    assert saved["learning_rate"] == 0.001 and saved["num_envs"] == 4 and saved["n_steps"] == 32
    assert saved["net_arch"] == [16]


def test_resume_without_timesteps_trains_to_the_run_s_own_budget(tmp_path, capsys) -> None:
    """``--timesteps`` left out on ``--resume`` is the run's own total, not the 200,000 of a
    fresh run: a run trained to its 128 steps has nothing left to train."""
    run = tmp_path / "run"
    args = ["train", "farrapos", "--run-dir", str(run), *FLAGS]
    assert main([*args, "--timesteps", "128"]) == 0
    capsys.readouterr()
    saved = sorted((run / CHECKPOINT_DIR).glob("step_*.zip"))
    assert main([*args, "--resume"]) == 0
    out = capsys.readouterr().out
    assert "already at 128 steps" in out and "nothing to train" in out  # issue 38
    assert "trained" not in out
    assert _saved_config(run)["total_timesteps"] == 128
    assert sorted((run / CHECKPOINT_DIR).glob("step_*.zip")) == saved  # nothing rewritten


def test_a_budget_between_rollouts_is_rounded_up_and_said_so(tmp_path, capsys) -> None:
    """Issue 38: ``--timesteps 20000`` trained 20,480 without a word and the bar ran past
    100%; the rounding is said up front and the bar sized to it."""
    from boardsim.training.ppo import planned_timesteps

    assert planned_timesteps(0, 20_000, 16, 128) == 20_480
    assert planned_timesteps(0, 2048, 16, 128) == 2048
    assert planned_timesteps(2048, 2049, 16, 128) == 4096
    run = tmp_path / "run"
    assert main(["train", "farrapos", "--run-dir", str(run), *FLAGS, "--timesteps", "100"]) == 0
    out = capsys.readouterr().out
    assert "training to 128 steps" in out and "so 100 is rounded up" in out
    assert "--num-envs 4 x --n-steps 32" in out
    assert "trained 128 steps" in out


def test_the_library_refuses_a_setting_given_otherwise_than_the_run_s(tmp_path) -> None:
    def config(**kw) -> TrainConfig:
        settings = {**TINY, "checkpoint_every": 64, "total_timesteps": 128, **kw}
        return TrainConfig(game="farrapos", run_dir=str(tmp_path), **settings)

    train(config(learning_rate=1e-3), log=lambda *_: None)
    with pytest.raises(OptionError, match=r"n_epochs: 2 -> 3; learning_rate: 0\.001 -> 0\.1"):
        train(config(learning_rate=0.1, n_epochs=3), resume=True, log=lambda *_: None)
    # a setting left at its default is the run's own; how far it goes may change
    done = train(config(total_timesteps=256), resume=True, log=lambda *_: None)
    assert done.timesteps == 256
    assert _saved_config(tmp_path)["learning_rate"] == 1e-3


def test_tensorboard_shows_each_step_once_after_a_resume_from_an_earlier_checkpoint(
    tmp_path,
) -> None:
    """The run reaches 256 steps, then (as if killed after 256) resumes from its checkpoint
    at 128: the steps 192 and 256 are logged twice, in two event files, and shown once."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    settings = {**TINY, "n_steps": 16, "checkpoint_every": 64, "keep_checkpoints": 10}
    settings["tensorboard"] = True
    cfg = TrainConfig(game="farrapos", run_dir=str(tmp_path), total_timesteps=256, **settings)
    train(cfg, log=lambda *_: None)
    folder = tmp_path / CHECKPOINT_DIR
    atomic_write_text(folder / LATEST_NAME, checkpoint_name(128) + "\n")
    resumed = train(cfg, resume=True, log=lambda *_: None)
    assert resumed.timesteps == 256
    logs = tmp_path / "tb" / "ppo_1"
    assert len(list(logs.glob("events.out.tfevents.*"))) == 2
    events = EventAccumulator(str(logs))
    events.Reload()
    tags = events.Tags()["scalars"]
    assert "games/finished" in tags and "train/loss" in tags
    for tag in tags:
        steps = [e.step for e in events.Scalars(tag)]
        assert len(steps) == len(set(steps)), f"{tag}: steps {steps}"
    assert [e.step for e in events.Scalars("games/finished")] == [64, 128, 192, 256]


def test_a_resumed_event_file_is_made_in_a_later_second_than_the_ones_before(tmp_path) -> None:
    """TensorBoard reads event files in name order (the second, then an unpadded counter:
    "...9" sorts after "...10"), so a resumed run waits out the second of the interrupted
    run's file before making its own; a file of long ago costs no wait."""
    import time

    from boardsim.training.run_log import after_earlier_event_files

    now = int(time.time())
    (tmp_path / f"events.out.tfevents.{now:010d}.host.42.9").write_text("")
    after_earlier_event_files(tmp_path)
    assert time.time() >= now + 1
    old = tmp_path / "old"
    old.mkdir()
    (old / "events.out.tfevents.0000000001.host.42.10").write_text("")
    clock = time.perf_counter()
    after_earlier_event_files(old)
    after_earlier_event_files(tmp_path / "missing")
    assert time.perf_counter() - clock < 0.5
