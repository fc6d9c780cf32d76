"""The strength ladders: each game's file is its ladder command's, and the page is the files'."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from boardsim.cli import main as cli_main
from boardsim.research import ladder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("game", ladder.ladder_games())
def test_each_ladder_file_is_its_command_with_every_agent_the_game_fields(game: str) -> None:
    data = ladder.read_ladder(game)
    assert data["agents"] == ladder.ladder_agents(game), (
        f"agents/{game}/ladder.json is not the game's ladder now: "
        f"run python -m boardsim.research.ladder {game} and --docs"
    )
    n = data["games_per_pair"]
    assert data["command"] == shlex.join(["boardsim", "eval", *ladder.eval_arguments(game, n)])
    assert data["seed"] == ladder.ladder_setting(game).seed
    if data["mode"] == "round_robin":
        for a in data["agents"]:
            assert data["elo_low"][a] < data["elo"][a] < data["elo_high"][a]
        by_pair = {(p["agent"], p["opponent"]): p for p in data["pairs"]}
        # the ladder climbs where it must: the game's own player over random moves
        assert by_pair[("heuristic", "random")]["win_rate"] > 0.5
        assert data["elo"]["heuristic"] > data["elo"]["random"]
    else:
        levels = {r["level"] for r in data["solo"]}
        assert levels == set(ladder.ladder_setting(game).levels.split(","))
    assert ladder.ladder_path(game).with_suffix(".csv").is_file()


def test_the_page_section_is_the_ladder_files() -> None:
    text = ladder.DOCS_PAGE.read_text()
    _, _, rest = text.partition(ladder.BEGIN)
    section = ladder.BEGIN + rest.partition(ladder.END)[0] + ladder.END
    assert section == ladder.ladder_section(), (
        "docs/agents.md's ladders differ from agents/*/ladder.json: "
        "run python -m boardsim.research.agent_pages"
    )
    for game in ladder.ladder_games():
        assert ladder.read_ladder(game)["command"] in section


def test_eval_records_its_command_and_elo_intervals(tmp_path: Path) -> None:
    out = tmp_path / "league"
    argv = ["eval", "liberation", "--agents", "random,heuristic", "--games", "6"]
    argv += ["--seed", "3", "-o", "num_players=2", "--out", str(out)]
    assert cli_main(argv) == 0
    data = json.loads(out.with_suffix(".json").read_text())
    assert data["command"] == shlex.join(["boardsim", *argv])
    assert data["elo_low"]["heuristic"] < data["elo"]["heuristic"] < data["elo_high"]["heuristic"]


def test_ladder_refuses_a_game_without_one_and_a_folder_outside_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError, match="no ladder for 'chess'"):
        ladder.eval_arguments("chess")
    monkeypatch.chdir(tmp_path)
    assert cli_main(["ladder", "--docs"]) == 2
    assert "root of a boardsim checkout" in capsys.readouterr().err
