"""The ``boardsim train`` and ``boardsim eval`` commands, end to end, with tiny sizes."""

from __future__ import annotations

import csv
import json

from boardsim.cli import main
from boardsim.training.checkpoint import read_metadata

TINY = [
    "--num-envs", "4", "--n-steps", "32", "--batch-size", "64", "--epochs", "1",
    "--net-arch", "16", "--no-progress", "--threads", "1", "-o", "num_players=2",
]  # fmt: skip


def test_train_then_resume_then_eval_the_exported_policy(tmp_path, capsys) -> None:
    run, policy = tmp_path / "run", tmp_path / "policy.zip"
    args = ["train", "liberation", "--run-dir", str(run), "--checkpoint-every", "64", *TINY]
    assert main([*args, "--timesteps", "128"]) == 0
    assert main([*args, "--timesteps", "256", "--resume", "--export", str(policy)]) == 0
    out = capsys.readouterr().out
    assert "resuming" in out and "trained 256 steps" in out
    assert read_metadata(run)["timesteps"] == 256
    assert read_metadata(policy)["policy_only"] is True
    assert list((run / "tb").rglob("events.out.tfevents.*")), "TensorBoard logs written"
    prefix = tmp_path / "league"
    code = main(
        ["eval", "liberation", "--agents", f"random,ppo:{policy}", "--games", "10",
         "-o", "num_players=2", "--out", str(prefix)]
    )  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "Elo" in out and "random" in out
    rows = list(csv.DictReader((tmp_path / "league.csv").open()))
    assert len(rows) == 2 and all(int(r["games"]) == 10 for r in rows)
    assert json.loads((tmp_path / "league.json").read_text())["mode"] == "round_robin"


def test_commands_refuse_bad_arguments_with_a_message(tmp_path, capsys) -> None:
    assert main(["train", "liberation", "--run-dir", str(tmp_path), "-o", "oops"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
    code = main(["train", "liberation", "--run-dir", str(tmp_path), "--timesteps", "0", *TINY])
    assert code == 2 and "total_timesteps" in capsys.readouterr().err
    assert main(["eval", "liberation", "--agents", "random,nobody", "--games", "2"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    code = main(["eval", "farrapos", "--agents", "random,heuristic", "--levels", "6-4-3-4-2"])
    assert code == 2 and "--levels" in capsys.readouterr().err
    missing = tmp_path / "nothing.zip"
    assert main(["eval", "farrapos", "--agents", f"random,ppo:{missing}", "--games", "2"]) == 2
    assert "no checkpoint" in capsys.readouterr().err


def test_an_interrupted_training_says_how_to_resume_it(tmp_path, capsys, monkeypatch) -> None:
    """Ctrl-C during a run: no traceback, the status a shell gives an interrupted command,
    and a sentence naming the run folder and --resume."""
    from boardsim.training import alphazero

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(alphazero, "train_alphazero", interrupted)
    run_dir = tmp_path / "az"
    argv = ["train", "liberation", "--algo", "alphazero", "--run-dir", str(run_dir)]
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and str(run_dir) in err and "--resume" in err


def test_a_ppo_run_refuses_the_flags_only_alphazero_reads(tmp_path, capsys) -> None:
    run_dir = tmp_path / "ppo"
    argv = ["train", "liberation", "--timesteps", "1", "--run-dir", str(run_dir)]
    assert main([*argv, "--hidden", "8", "--conv", "4"]) == 2
    err = capsys.readouterr().err
    assert "--conv, --hidden are alphazero flags" in err and "--net-arch" in err
    assert main([*argv, "--max-seconds", "60"]) == 2
    assert "--max-seconds is an alphazero flag" in capsys.readouterr().err
    assert main([*argv, "--hidden", "not,sizes"]) == 2  # refused, malformed or not
    assert "--hidden is an alphazero flag" in capsys.readouterr().err
    assert not run_dir.exists()
