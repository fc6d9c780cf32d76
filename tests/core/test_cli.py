"""The ``boardsim`` command: its help and version, the arguments every subcommand takes
the same way, and bad arguments refused (the demo's own tests: test_demo.py; play and
replay: tests/replay/; ``boardsim info``: test_info.py)."""

from __future__ import annotations

import argparse
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import boardsim
from boardsim.cli import BROKEN_PIPE_STATUS, build_parser, main
from boardsim.replay import read_replay

ROOT = Path(__file__).resolve().parents[2]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--game", "chess"])
    assert main(["demo", "--games", "0"]) == 2


def test_version_is_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"boardsim {boardsim.__version__}"


def boardsim_command(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m boardsim ARGV`` in a child process, as a user runs it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-m", "boardsim", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


@pytest.mark.subprocess
def test_python_dash_m_boardsim_prints_the_version() -> None:
    done = boardsim_command("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"boardsim {boardsim.__version__}"


def test_the_top_level_help_says_what_boardsim_is_and_lists_the_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "COMMAND_MODULES" not in out  # no internal docstring
    assert "reinforcement-learning environments" in out and "--version" in out
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    listed = {choice.dest: choice.help for choice in sub._choices_actions}
    assert {"bench", "info", "demo", "balance", "play", "replay", "train", "eval"} <= set(listed)
    flat = " ".join(out.split())
    for name, text in listed.items():
        assert text, f"{name} has no one-line help"
        assert re.search(rf"\b{name}\b", out), f"{name} is not listed"
        assert " ".join(text.replace("%%", "%").split()) in flat, f"{name}'s help is not shown"


def play(monkeypatch: pytest.MonkeyPatch, entries: list[str], *argv: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(e + "\n" for e in entries)))
    return main(["play", *argv])


@pytest.mark.subprocess
def test_quit_in_play_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "quit.jsonl"
    argv = ["play", "farrapos", "--seed", "1", "--replay", str(path)]
    done = boardsim_command(*argv, stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert "game left unfinished" in done.stdout
    assert read_replay(path).header["game"] == "farrapos"


@pytest.mark.parametrize("vs", [["--vs", "random,greedy"], ["--vs", "random", "--vs", "greedy"]])
def test_play_vs_takes_a_list_comma_separated_or_repeated(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, vs: list[str]
) -> None:
    path = tmp_path / "r.jsonl"
    argv = ["liberation", "--seed", "3", "-o", "num_players=3", *vs, "--replay", str(path)]
    assert play(monkeypatch, ["quit"], *argv) == 0
    assert read_replay(path).header["seats"] == {
        "player_0": "human",
        "player_1": "random",
        "player_2": "greedy",
    }


def test_play_vs_says_how_many_agents_it_needs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["farrapos", "--vs", "random,greedy", "--replay", str(tmp_path / "x.jsonl")]
    assert play(monkeypatch, [], *argv) == 2
    assert "--vs names 2 agents for 1 other player(s) [1]" in capsys.readouterr().err


def _table(capsys: pytest.CaptureFixture[str]) -> str:
    """The tournament's table, without the line of its time."""
    return "\n".join(line for line in capsys.readouterr().out.splitlines() if " s)" not in line)


def test_eval_agents_takes_a_list_comma_separated_or_repeated(
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = ["eval", "farrapos", "--games", "2", "-o", "max_decisions=60"]
    assert main([*base, "--agents", "random,heuristic"]) == 0
    comma = _table(capsys)
    assert main([*base, "--agents", "random", "--agents", "heuristic"]) == 0
    assert _table(capsys) == comma and "heuristic" in comma


def test_eval_option_mismatch_names_the_command_line_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["eval", "farrapos", "--agents", "ppo,random", "--games", "1", "-o", "siege=true"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "trained with other options" in err and "siege" in err
    assert "pass --ppo-any-options" in err and "strict_options" not in err


def test_balance_takes_dash_o_like_the_other_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["balance", "liberation", "-o", "num_players=3", "--dry-run"]) == 0
    short = capsys.readouterr().out
    assert "players=3" in short
    assert main(["balance", "liberation", "--option", "num_players=3", "--dry-run"]) == 0
    assert capsys.readouterr().out == short
    assert main(["balance", "liberation", "-o", "num_players=9", "--dry-run"]) == 2
    assert "num_players" in capsys.readouterr().err


# ------------------------------------------------------------------ replay: which file
def _write_replays(folder: Path, count: int) -> list[Path]:
    """``count`` short Farrapos replays in ``folder``, the last written the newest."""
    from tests.replay.helpers import write_random_game

    folder.mkdir(parents=True, exist_ok=True)
    game = boardsim.make_game("farrapos")
    paths = []
    for i in range(count):
        path = folder / f"farrapos-2026120{i}T000000-seed{i}.jsonl"
        write_random_game(path, game, seed=i, moves=4 + i)
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
        paths.append(path)
    return paths


def test_replay_of_a_folder_or_several_files_shows_the_newest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _write_replays(tmp_path / "replays", 3)
    assert main(["replay", str(tmp_path / "replays")]) == 0
    out = capsys.readouterr().out
    assert f"replay {paths[-1]}: the newest in" in out and "6 moves" in out
    assert main(["replay", *map(str, paths)]) == 0  # what a shell glob gives
    out = capsys.readouterr().out
    assert f"replay {paths[-1]}: the newest of the 3 given" in out and "6 moves" in out
    assert main(["replay", str(paths[0])]) == 0
    single = capsys.readouterr().out
    assert "newest" not in single and "4 moves" in single
    (tmp_path / "empty").mkdir()
    assert main(["replay", str(tmp_path / "empty")]) == 2
    assert "no replay (*.jsonl) in the folder" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "nothing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_the_readme_replay_command_works_with_several_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (line,) = re.findall(r"^boardsim replay [^\n#]*", readme, re.MULTILINE)
    argv = shlex.split(line)[1:]
    folder = next(a for a in argv[1:] if not a.startswith("-") and "." not in a)
    _write_replays(tmp_path / folder, 2)
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 0
    for written in (a for a in argv if a.endswith((".html", ".gif"))):
        assert (tmp_path / written).stat().st_size > 0
    assert "the newest" in capsys.readouterr().out


@pytest.mark.subprocess
@pytest.mark.parametrize("argv", [["info", "hispania"], ["info", "liberation", "--json"]])
def test_a_reader_that_closes_the_pipe_first_ends_the_command_quietly(argv: list[str]) -> None:
    """``boardsim info hispania | true``: the reader is gone before the command writes; it
    ends with the shell's status for a closed pipe, without a traceback (issue 38)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardsim", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader closes first, as `| true` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == BROKEN_PIPE_STATUS
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


@pytest.mark.parametrize("name", boardsim.list_games())
def test_the_demo_plays_and_records_each_game_at_its_own_decision_limit(name: str) -> None:
    """Issue 38: the demo recorded its games with ``max_decisions: 20000`` rather than
    each game's default."""
    from boardsim.commands import demo
    from boardsim.games import definition
    from boardsim.replay import make_header

    game = boardsim.make_game(name, **demo.strength_options(name))
    assert game.options["max_decisions"] == definition(name).decision_limit
    assert make_header(game, 0)["options"]["max_decisions"] == definition(name).decision_limit


def _subparser(parser: Any, *names: str) -> Any:
    for name in names:
        parser = next(
            a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
        ).choices[name]
    return parser


def test_every_train_flag_shows_its_default() -> None:
    """Issue 38: most ``train --help`` flags did not say what leaving them out means."""
    train = _subparser(build_parser(), "train")
    formatter = train.formatter_class(prog="boardsim train")
    missing = [
        a.dest
        for a in train._actions
        if a.option_strings and a.dest != "help" and "default" not in formatter._get_help_string(a)
    ]
    assert missing == []


def test_every_train_flag_default_is_the_configuration_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    flat = " ".join(capsys.readouterr().out.split())
    assert "games played side by side (default 16)" in flat  # TrainConfig.num_envs
    assert "the trunk's hidden layers (default 256,256)" in flat  # AlphaZeroConfig.hidden
    assert "in [0, 2**63) (default 0)" in flat


@pytest.mark.parametrize(
    ("command", "has", "lacks"),
    [
        (
            "tune",
            ["usage: boardsim balance tune", "(default 30)", "--games-per-trial", "(default 200)"],
            ["--grid", "--dry-run"],
        ),
        (
            "docs",
            ["usage: boardsim balance docs", "--out FOLDER", "GAME.md is written into"],
            ["--grid", "--trials"],
        ),
        ("report", ["usage: boardsim balance report", "DIR"], ["--grid", "--trials"]),
    ],
)
def test_balance_subcommands_have_their_own_usage_and_flags(
    capsys: pytest.CaptureFixture[str], command: str, has: list[str], lacks: list[str]
) -> None:
    """Issue 38: ``balance tune --help`` and ``balance docs --help`` printed the sweep's
    generic usage."""
    with pytest.raises(SystemExit) as exit_info:
        main(["balance", command, "--help"])
    assert exit_info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for words in has:
        assert words in out
    for words in lacks:
        assert words not in out


def test_balance_sweeps_a_game_with_its_flags(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["balance", "farrapos", "--grid", "side=republic,empire", "--dry-run"]
    args += ["--agents", "heuristic,random"]
    assert main(args) == 0
    assert "republic" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["balance", "farrapos", "--trials", "3"])  # tune's flag, not the sweep's


def test_a_zero_games_count_is_refused_with_the_command_prefix(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 38: ``eval --games 0`` said "--games must be at least 1" without the prefix."""
    assert main(["eval", "farrapos", "--agents", "random,heuristic", "--games", "0"]) == 2
    assert capsys.readouterr().err == "boardsim eval: --games must be at least 1\n"


def _fresh_compile() -> int:
    """Compile a function numba has never seen (no cache): a first run's compilation."""
    import numba

    def add(x: int) -> int:
        return x + 1

    return int(numba.njit(add)(1))


def test_compiling_is_said_once_and_only_when_something_compiles() -> None:
    from boardsim.core.compiles import compiling_notice

    said: list[str] = []
    with compiling_notice(said.append, "the thing"):
        _fresh_compile()
        _fresh_compile()
    assert said == ["compiling the thing (first run only) ..."]
    said.clear()
    with compiling_notice(said.append, "the thing"):
        pass  # nothing compiles: nothing said
    assert said == []


def test_play_says_compiling_at_its_first_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 38: play's first move was silent for tens of seconds while numba compiled."""
    from boardsim.commands.play import Session

    run = Session.run
    monkeypatch.setattr(Session, "run", lambda self: (_fresh_compile(), run(self))[1])
    assert play(monkeypatch, ["quit"], "farrapos", "--replay", str(tmp_path / "r.jsonl")) == 0
    out = capsys.readouterr().out
    assert "compiling farrapos (first run only) ..." in out
    assert out.count("(first run only)") == 1
