"""``--address`` with no Ray cluster there: one line saying what to do, not a traceback.

Ray's own ``ray.init`` is replaced by one that fails as it does with no cluster (a
real ``address="auto"`` would join any Ray another process on this machine runs)."""

from __future__ import annotations

import pytest

from boardsim import OptionError
from boardsim.cli import main
from boardsim.research.ray_backend import init_ray

pytestmark = pytest.mark.subprocess

ray = pytest.importorskip("ray")

RAY_MESSAGE = (
    "Could not find any running Ray instance. Please specify the one to connect to by "
    "setting `--address` flag or `RAY_ADDRESS` environment variable."
)


@pytest.fixture
def no_cluster(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    calls: list[dict] = []

    def init(**kwargs):
        calls.append(kwargs)
        raise ConnectionError(RAY_MESSAGE)

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    return calls


def test_no_cluster_at_the_address_says_to_start_one_or_drop_the_address(no_cluster) -> None:
    with pytest.raises(OptionError, match=r"ray start --head.*drop --address") as caught:
        init_ray("auto")
    assert "no Ray cluster at --address auto" in str(caught.value)
    assert no_cluster == [{"address": "auto", "log_to_driver": False}]


def test_balance_on_a_missing_cluster_prints_one_line(tmp_path, no_cluster, capsys) -> None:
    args = ["balance", "farrapos", "--grid", "victory_vp=14", "--agents", "random"]
    args += ["--games-per-cell", "2", "--out", str(tmp_path), "--no-progress"]
    assert main([*args, "--backend", "ray", "--address", "auto"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("boardsim balance: no Ray cluster at --address auto")
    assert "ray start --head" in err


def test_balance_docs_on_a_missing_cluster_prints_one_line(tmp_path, no_cluster, capsys) -> None:
    args = ["balance", "docs", "farrapos", "--question", "The advanced rules"]
    args += ["--games-per-cell", "2", "--out", str(tmp_path / "pages"), "--no-progress"]
    args += ["--work", str(tmp_path / "work"), "--backend", "ray", "--address", "auto"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "no Ray cluster at --address auto" in err and "ray start --head" in err
    assert not (tmp_path / "pages" / "farrapos.md").exists()


def test_tune_on_a_missing_cluster_prints_one_line(tmp_path, no_cluster, capsys) -> None:
    args = ["balance", "tune", "farrapos", "--target", "republic=0.5@heuristic"]
    args += ["--search", "siege=false,true", "--trials", "2", "--games-per-trial", "2"]
    args += ["--out", str(tmp_path), "--no-progress", "--backend", "ray", "--address", "auto"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "no Ray cluster at --address auto" in err and "ray start --head" in err


@pytest.mark.parametrize(
    "words",
    [
        ["eval", "liberation", "--agents", "random,heuristic", "--games", "2"],
        ["ladder", "liberation", "--games", "2", "--no-reuse"],
    ],
)
def test_eval_and_the_ladder_on_a_missing_cluster_print_one_line(
    words: list[str], no_cluster, capsys, monkeypatch
) -> None:
    from boardsim.research.tournament import TournamentResult

    # the ladder writes its file in the checkout: a failure must come before any write
    monkeypatch.setattr(TournamentResult, "write", lambda *a: pytest.fail("written"))
    assert main([*words, "--backend", "ray", "--address", "auto"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "Traceback" not in "\n".join(err)
    assert err[-1].startswith(f"boardsim {words[0]}: no Ray cluster at --address auto")
    assert "ray start --head" in err[-1]


def test_self_play_training_on_a_missing_cluster_prints_one_line(
    no_cluster, capsys, tmp_path
) -> None:
    words = ["train", "liberation", "--algo", "alphazero", "-o", "num_players=2"]
    words += ["--iterations", "1", "--no-progress", "--no-tensorboard"]
    words += ["--run-dir", str(tmp_path / "run"), "--backend", "ray", "--address", "auto"]
    assert main(words) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "Traceback" not in "\n".join(err)
    assert err[-1].startswith("boardsim train: no Ray cluster at --address auto")
    assert "ray start --head" in err[-1]
    assert not list((tmp_path / "run").glob("checkpoints/*.zip"))  # nothing trained
