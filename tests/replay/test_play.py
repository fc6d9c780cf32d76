"""``boardsim play`` driven through scripted input: choices, wrong entries, undo, replays."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

import boardsim
from boardsim.core.header import H_RNG
from boardsim.replay import read_replay, reproduce
from tests.replay.helpers import run_command

SEED = 3


def play(monkeypatch: pytest.MonkeyPatch, entries: list[str], *argv: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(e + "\n" for e in entries)))
    return run_command(["play", *argv])


def test_play_and_replay_are_boardsim_subcommands() -> None:
    from boardsim.cli import COMMAND_MODULES

    assert {"boardsim.commands.play", "boardsim.commands.replay"} <= set(COMMAND_MODULES)


def test_a_wrong_entry_is_answered_with_the_legal_choices(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.jsonl"
    argv = ["liberation", "--seed", str(SEED), "-o", "num_players=2", "--replay", str(path)]
    assert play(monkeypatch, ["xyz", "999", "discard", "undo", "quit"], *argv) == 0  # quit: fine
    out = capsys.readouterr().out
    assert "'discard' could mean 3 actions; type one's number:" in out
    assert "'xyz' is not a legal choice here. Choose one of:" in out
    assert "'999' is not a legal choice here" in out
    assert "0  roll the die and move" in out  # listed by number and by name
    assert "your hand (player 0):" in out
    assert "nothing to take back" in out
    assert read_replay(path).moves == []  # saved, with nothing played


def test_a_finished_game_is_saved_and_reproduces(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "replays"
    argv = ["liberation", "--seed", "4", "-o", "num_players=3", "-o", "max_decisions=12"]
    argv += ["--vs", "random", "--vs", "greedy", "--replay-dir", str(directory)]
    # entries by name (a unique part of one) and by number, until the game is cut
    entries = ["roll the die", *["0", "26", "do nothing", "1", "2", "3"] * 20]
    assert play(monkeypatch, entries, *argv) == 0
    out = capsys.readouterr().out
    assert "game truncated after 12 decisions" in out
    (saved,) = directory.iterdir()
    replay = read_replay(saved)
    assert replay.header["seats"] == {
        "player_0": "human",
        "player_1": "random",
        "player_2": "greedy",
    }
    assert replay.moves[0].name == "roll the die and move"
    assert reproduce(replay).is_terminal()
    assert f"replay saved: {saved}" in out


def _undoable_first_move() -> int:
    """A first decision of player 0 after which no die is rolled and no card drawn."""
    game = boardsim.make_game("liberation", num_players=2)
    start = game.new_initial_state(SEED)
    for a in start.legal_actions():
        after = start.clone()
        after.apply_action(a)
        same_rng = np.array_equal(after.array[H_RNG : H_RNG + 2], start.array[H_RNG : H_RNG + 2])
        if same_rng and after.current_player() == 0:
            return a
    raise AssertionError("no such move at this seed")


def test_undo_takes_back_a_decision_until_a_die_is_rolled(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "u.jsonl"
    move = _undoable_first_move()
    argv = ["liberation", "--seed", str(SEED), "-o", "num_players=2", "--replay", str(path)]
    assert play(monkeypatch, [str(move), "undo", "0", "undo", "quit"], *argv) == 0
    out = capsys.readouterr().out
    assert "took back: discard" in out
    assert "cannot take back your last decision: a die was rolled" in out
    replay = read_replay(path)
    assert [m.action for m in replay.moves] == [0]  # the undone move is gone from the file


def test_bad_arguments_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["liberation", "-o", "num_players=3", "--replay", str(tmp_path / "x.jsonl")]
    assert play(monkeypatch, [], *base, "--seat", "5") == 2
    assert "--seat 5 out of range" in capsys.readouterr().err
    assert play(monkeypatch, [], *base, "--vs", "random", "--vs", "random", "--vs", "x") == 2
    assert "names 3 agents for 2 other player(s)" in capsys.readouterr().err
    assert play(monkeypatch, [], *base, "--vs", "nobody") == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert play(monkeypatch, [], "liberation", "-o", "num_players=9") == 2
    assert "num_players" in capsys.readouterr().err


class _IllegalAgent:
    needs_state = False

    def act(self, observation: object, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask == 0)[0])


def _make_illegal(game: boardsim.Game, arg: object, seed: object, **options: object) -> object:
    return _IllegalAgent()


def test_an_agent_choosing_an_illegal_action_stops_the_game_clearly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardsim.agents import AGENT_FACTORIES

    monkeypatch.setitem(AGENT_FACTORIES, "illegal", "tests.replay.test_play:_make_illegal")
    path = tmp_path / "a.jsonl"
    argv = ["liberation", "--seed", "1", "-o", "num_players=2", "--seat", "1"]
    assert play(monkeypatch, [], *argv, "--vs", "illegal", "--replay", str(path)) == 1
    err = capsys.readouterr().err
    assert "the agent 'illegal' of player 0 chose the illegal action" in err
    assert read_replay(path).moves == []


def test_play_says_what_the_player_may_see_of_chance(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The person's rolls and draws are told ("you rolled 3", "you drew Troops 3"); the
    opponent's rolls are told, its cards are not ("player 1 drew a card")."""
    import re

    from boardsim.games.liberation import layout as L
    from boardsim.games.liberation.names import card_name

    path = tmp_path / "c.jsonl"
    entries = ["roll the die", "do nothing", "0", "do nothing", "0", "0", "quit"]
    argv = ["liberation", "--seed", str(SEED), "-o", "num_players=2", "--replay", str(path)]
    assert play(monkeypatch, entries, *argv) == 0
    out = capsys.readouterr().out
    replay = read_replay(path)
    game = replay.make_game()
    states = [s for _, _, s in replay.states(game)]
    rolled = int(re.search(r"\(you rolled (\d)\)", out).group(1))
    moved = int(states[1].array[L.POS]) - int(states[0].array[L.POS])
    assert rolled == moved  # the roll told is the roll the pawn moved by
    assert "(player 1 drew a card)" in out
    drawn = re.findall(r"\(you drew (\w+ \d)\)", out)
    assert drawn
    kinds = {card_name(k) for k in range(L.K)}
    assert set(drawn) <= kinds
    # what player 1 holds is never named
    assert not re.search(r"player 1 (drew|was dealt) [A-Z]", out)


def test_board_shows_the_board_and_the_choices_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["liberation", "--seed", str(SEED), "-o", "num_players=2"]
    argv += ["--replay", str(tmp_path / "b.jsonl")]
    assert play(monkeypatch, ["board", "quit"], *argv) == 0
    out = capsys.readouterr().out
    after = out.split("> ", 1)[1]  # what the entry "board" printed
    assert "your hand (player 0):" in after and "0  roll the die and move" in after


def test_help_explains_the_board_and_an_empty_line_asks_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 38: help gives the board's notation, not only the commands; an empty line is
    not answered "'' is not a legal choice"; a named side is named."""
    argv = ["farrapos", "--seed", "1", "--seat", "1", "--replay", str(tmp_path / "r.jsonl")]
    assert play(monkeypatch, ["", "help", "quit"], *argv) == 0
    out = capsys.readouterr().out
    assert "you play Empire (player 1)" in out
    assert "type help for the commands and the board's notation" in out
    assert "'' is not a legal choice" not in out
    assert "type an action's number or name (help: the commands and the board)" in out
    assert "The board's notation:" in out and "an MU on its reduced face" in out
    assert "undo takes back your" in out and "board shows the board again" in out


@pytest.mark.parametrize("game", ["liberation", "hispania", "farrapos"])
def test_the_board_is_wrapped_to_the_terminal_between_tokens(
    game: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """At 80 columns no line of the board or the legend is longer than the terminal, and a
    line is broken between tokens (``P1/Ideals 3/x1[1]`` stays whole)."""
    monkeypatch.setenv("COLUMNS", "80")
    argv = [game, "--seed", "2", "--replay", str(tmp_path / "r.jsonl")]
    if game == "liberation":  # a played board: liberated spaces on long lines
        argv += ["-o", "num_players=2"]
    assert play(monkeypatch, ["help", "quit"], *argv) == 0
    out = capsys.readouterr().out
    board = out[out.index("\n\n") :]
    too_long = [line for line in board.splitlines() if len(line) > 79 and "replay" not in line]
    assert not too_long, too_long
    if game == "liberation":
        assert "P0: VT 0, counters" in out


def test_a_countrys_independence_is_told_with_who_scored() -> None:
    """The race says which country became independent and the VT each player scored."""
    from boardsim.games.liberation import layout as L
    from boardsim.games.liberation import names

    game = boardsim.make_game("liberation", num_players=3)
    before = game.new_initial_state(seed=0).array
    after = before.copy()
    after[L.INDEP + 0] = 1
    after[L.VT + 1] += 5
    after[L.VT + 2] += 2
    assert names.move_events(game.params, before, after) == [
        "Colombia is independent: player 1 +5 VT (now 5), player 2 +2 VT (now 2)"
    ]
    assert names.move_events(game.params, before, before) == []
    text = str(game.new_initial_state(seed=0))
    assert " cards, " in text or " card, " in text
    assert " 1 cards" not in text
