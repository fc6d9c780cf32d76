"""Replays: round trips for every game, line-numbered errors, GIF and HTML output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import boardsim
from boardsim.render.animate import frames_to_keep, html_page, write_gif, write_html
from boardsim.replay import (
    FORMAT_VERSION,
    Move,
    ReplayError,
    ReplayWriter,
    read_replay,
    reproduce,
)
from tests.replay.helpers import run_command, write_random_game

GAMES = {
    "liberation": {"num_players": 3},
    "farrapos": {},
    "hispania": {"max_decisions": 400},
}


@pytest.mark.parametrize("name", list(GAMES))
def test_round_trip_reproduces_the_final_state_byte_for_byte(name: str, tmp_path: Path) -> None:
    game = boardsim.make_game(name, **GAMES[name])
    path = tmp_path / "game.jsonl"
    final = write_random_game(path, game, seed=11)
    replay = read_replay(path)
    assert replay.game == name and replay.seed == 11
    assert replay.header["format_version"] == FORMAT_VERSION
    assert replay.header["boardsim_version"] == boardsim.__version__
    assert reproduce(replay).to_bytes() == final.to_bytes()


def test_explicit_chance_games_record_the_outcomes(tmp_path: Path) -> None:
    game = boardsim.make_game("liberation", num_players=2, explicit_chance=True)
    path = tmp_path / "chance.jsonl"
    final = write_random_game(path, game, seed=5, moves=120)
    replay = read_replay(path)
    assert any(m.player == boardsim.CHANCE for m in replay.moves)
    assert reproduce(replay).to_bytes() == final.to_bytes()


def test_an_interrupted_game_keeps_every_line_written(tmp_path: Path) -> None:
    game = boardsim.make_game("liberation", num_players=2)
    state = game.new_initial_state(3)
    path = tmp_path / "live.jsonl"
    writer = ReplayWriter(path, game, 3)
    for _ in range(6):
        a = state.legal_actions()[0]
        writer.record(Move(state.current_player(), a, state.action_to_string(a)))
        state.apply_action(a)
    # not closed: as after a crash, the file already holds the six moves
    assert len(read_replay(path).moves) == 6
    writer.truncate(4)  # taking back two moves rewrites the file
    assert [m.action for m in read_replay(path).moves] == [m.action for m in writer.moves[:4]]
    writer.close()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp file left


@pytest.fixture(scope="module")
def good_replay(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    game = boardsim.make_game("liberation", num_players=2)
    path = tmp_path_factory.mktemp("good") / "good.jsonl"
    write_random_game(path, game, seed=8, moves=30)
    return path.read_text().splitlines(keepends=True)


def _broken(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "broken.jsonl"
    path.write_text("".join(lines))
    return path


def _edit(line: str, **changes: object) -> str:
    record = json.loads(line)
    record.update(changes)
    return json.dumps(record) + "\n"


@pytest.mark.parametrize(
    ("mutate", "line", "words"),
    [
        (lambda ls: [*ls[:10], ls[10][:17]], 11, "truncated"),
        (lambda ls: [*ls[:5], "{not json\n", *ls[6:]], 6, "corrupted"),
        (lambda ls: [*ls[:5], "[1, 2]\n", *ls[6:]], 6, "JSON object"),
        (lambda ls: [*ls[:7], "\n", *ls[8:]], 8, "empty line"),
        (lambda ls: [_edit(ls[0], format_version=99), *ls[1:]], 1, "format version 99"),
        (lambda ls: [_edit(ls[0], format="other"), *ls[1:]], 1, "not a boardsim replay"),
        (lambda ls: [_edit(ls[0], game="chess"), *ls[1:]], 1, "unknown game 'chess'"),
        (lambda ls: [_edit(ls[0], game_version=0), *ls[1:]], 1, "version 0"),
        (lambda ls: [_edit(ls[0], options={"num_players": 99}), *ls[1:]], 1, "options"),
        (lambda ls: [*ls[:3], _edit(ls[3], action="x"), *ls[4:]], 4, "must be an integer"),
        (lambda ls: [*ls[:3], _edit(ls[3], action=9999), *ls[4:]], 4, "not legal"),
        (lambda ls: [*ls[:3], _edit(ls[3], n=77), *ls[4:]], 4, "move number 77"),
        (lambda ls: [*ls[:4], ls[5], ls[4], *ls[6:]], 5, ""),
        (lambda ls: [], 1, "empty"),
    ],
)
def test_bad_replays_are_refused_naming_the_line(
    good_replay: list[str], tmp_path: Path, mutate: object, line: int, words: str
) -> None:
    path = _broken(tmp_path, mutate(good_replay))  # type: ignore[operator]
    with pytest.raises(ReplayError, match=f"line {line}: .*{words}") as info:
        read_replay(path)
    assert info.value.line == line and isinstance(info.value, ValueError)


def test_a_move_for_the_wrong_player_is_refused(good_replay: list[str], tmp_path: Path) -> None:
    record = json.loads(good_replay[1])
    wrong = _edit(good_replay[1], player=1 - record["player"])
    with pytest.raises(ReplayError, match="line 2: recorded for player"):
        read_replay(_broken(tmp_path, [good_replay[0], wrong, *good_replay[2:]]))


def test_gif_and_html_are_written(good_replay: list[str], tmp_path: Path) -> None:
    from PIL import Image

    replay = read_replay(_broken(tmp_path, good_replay))
    gif = tmp_path / "out" / "game.gif"
    frames = write_gif(replay, gif, every=5, scale=0.3)
    assert frames == len(frames_to_keep(30, 5, 300)) == 7  # moves 0, 5, ..., 30
    with Image.open(gif) as img:
        assert img.format == "GIF" and img.n_frames == frames
    assert [p.name for p in gif.parent.iterdir()] == ["game.gif"]  # written atomically
    page = html_page(replay)
    assert page.count("<li data-step=") == 31  # the start and 30 moves
    assert "all hands shown" in page and "http://" not in page.replace(
        "http://www.w3.org/2000/svg", ""
    )  # self-contained: nothing fetched
    out = write_html(replay, tmp_path / "game.html")
    assert out.read_text() == page or out.stat().st_size > 0


def test_replay_command_prints_the_game(
    good_replay: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _broken(tmp_path, good_replay)
    assert run_command(["replay", str(path), "--html", str(tmp_path / "v.html")]) == 0
    out = capsys.readouterr().out
    # a picture written: what was written and how the game ended, not the game again
    assert "HTML viewer written" in out and "not finished" in out and "    1. " not in out
    assert run_command(["replay", str(path), "--html", str(tmp_path / "v.html"), "--moves"]) == 0
    out = capsys.readouterr().out
    first = json.loads(good_replay[1])
    assert f"    1. player_{first['player']}: {first['name']}" in out
    assert "   30. " in out and "not finished" in out and (tmp_path / "v.html").exists()
    bad = _broken(tmp_path, [*good_replay[:3], "{oops\n"])
    assert run_command(["replay", str(bad)]) == 2
    assert "line 4" in capsys.readouterr().err


def test_a_replay_page_of_1000_moves_stays_under_2_mb(tmp_path: Path) -> None:
    """The viewer stores what changes from one step to the next, not every picture."""
    # six players with 4 counters each and every draw and roll a move: a long game
    game = boardsim.make_game("liberation", num_players=6, counters=4, explicit_chance=True)
    write_random_game(tmp_path / "long.jsonl", game, seed=0, moves=1000)
    replay = read_replay(tmp_path / "long.jsonl")
    assert len(replay.moves) == 1000
    page = html_page(replay)
    assert page.count("<li data-step=") == 1001
    assert len(page.encode()) < 2_000_000, f"{len(page.encode()):,} bytes"


@pytest.mark.parametrize("name", ["liberation", "hispania", "farrapos"])
def test_a_replay_printed_to_a_file_is_plain_text(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``boardsim replay FILE > file`` writes no terminal colour codes (issue 38): the
    output read here is a pipe, as a redirected one is."""
    game = boardsim.make_game(name)
    write_random_game(tmp_path / "g.jsonl", game, seed=3, moves=60)
    assert run_command(["replay", str(tmp_path / "g.jsonl"), "--board"]) == 0
    out = capsys.readouterr().out
    assert "    1. " in out and "\x1b" not in out


def test_the_replay_tells_each_independence_and_who_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole random race: every country's independence is printed under its move."""
    game = boardsim.make_game("liberation", num_players=2)
    final = write_random_game(tmp_path / "g.jsonl", game, seed=5)
    assert run_command(["replay", str(tmp_path / "g.jsonl")]) == 0
    out = capsys.readouterr().out
    from boardsim.games.liberation import layout as L

    independent = int(final.array[L.INDEP : L.INDEP + L.NUM_COUNTRIES].sum())
    assert independent > 0
    assert out.count(" is independent") == independent
    assert " VT (now " in out
