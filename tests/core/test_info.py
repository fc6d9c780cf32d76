"""``boardsim info GAME`` and ``boardsim.game_info``: what a game is and every option it takes."""

from __future__ import annotations

import json

import pytest

import boardsim
from boardsim.cli import main
from boardsim.core.options import COMMON_OPTIONS
from boardsim.games import definition


def test_game_info_tells_the_facts_a_user_needs() -> None:
    info = boardsim.game_info("farrapos")
    game = boardsim.make_game("farrapos")
    d = definition("farrapos")
    assert info.title == d.title and info.version == d.version
    assert info.num_players == 2 and info.agents == tuple(game.agent_names())
    assert info.num_actions == game.num_actions
    assert info.observation_size == game.observation_size
    assert info.decision_limit == d.decision_limit == 2000
    assert info.gym_id == "boardsim/Farrapos-v0"
    names = [o.name for o in info.options]
    assert names == [o.name for o in (*d.options, *COMMON_OPTIONS)]
    by_name = {o.name: o for o in info.options}
    assert by_name["siege"].default is False and by_name["siege"].allowed == "False, True"
    assert by_name["max_decisions"].default == 2000 and by_name["max_decisions"].common
    assert "from 0 to" in by_name["max_decisions"].allowed
    assert all(o.doc for o in info.options)


def test_game_info_describes_the_game_made_with_the_options_given() -> None:
    info = boardsim.game_info("liberation", num_players=3)
    assert info.num_players == 3 and len(info.agents) == 3
    assert "num_players: 2-6" in info.players_allowed
    num_players = {o.name: o for o in info.options}["num_players"]
    assert num_players.value == 3 and num_players.default == 4
    with pytest.raises(boardsim.OptionError, match="unknown option"):
        boardsim.game_info("liberation", colour="red")
    with pytest.raises(boardsim.OptionError, match="unknown game"):
        boardsim.game_info("chess")


def test_a_difficulty_option_lists_its_parameters() -> None:
    level = {o.name: o for o in boardsim.game_info("hispania").options}["level"]
    assert level.default == "6-4-3-4-2"
    assert "243 levels" in level.allowed and "denarii" in level.allowed


def test_the_players_say_when_they_share_a_side() -> None:
    assert "all on one side (cooperative)" in boardsim.game_info("hispania").players_allowed
    assert "on 2 sides" in boardsim.game_info("hispania", hispano=True).players_allowed
    assert "side" not in boardsim.game_info("farrapos").players_allowed


def test_boardsim_info_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "farrapos"]) == 0
    out = capsys.readouterr().out
    info = boardsim.game_info("farrapos")
    assert out.strip() == info.text()
    assert info.title in out and "boardsim/Farrapos-v0" in out and "2,000 decisions" in out
    assert f"float32[{info.observation_size}]" in out and f"{info.num_actions} (Discrete)" in out
    flat = " ".join(out.split())
    for option in info.options:
        assert f"  {option.name} = {option.value!r}" in out
        assert " ".join(option.doc.split()) in flat
        assert " ".join(f"allowed: {option.allowed}".split()) in flat


def test_boardsim_info_takes_options_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "liberation", "-o", "num_players=5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["num_players"] == 5 and data["gym_id"] == "boardsim/Liberation-v0"
    assert {o["name"]: o["value"] for o in data["options"]}["num_players"] == 5


def test_boardsim_info_json_gives_the_value_and_the_default_apart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 38: ``info hispania -o level=7-5-4-5-1 --json`` wrote the given value in the
    ``"default"`` field."""
    assert main(["info", "hispania", "-o", "level=7-5-4-5-1", "--json"]) == 0
    level = {o["name"]: o for o in json.loads(capsys.readouterr().out)["options"]}["level"]
    assert level["value"] == "7-5-4-5-1" and level["default"] == "6-4-3-4-2"
    assert main(["info", "hispania", "-o", "level=7-5-4-5-1"]) == 0
    assert "  level = '7-5-4-5-1' (default '6-4-3-4-2')" in capsys.readouterr().out
    assert main(["info", "liberation", "-o", "num_players=9"]) == 2
    assert "num_players" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["info", "chess"])
