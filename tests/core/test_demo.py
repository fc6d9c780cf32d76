"""``boardsim demo`` at a tiny size: every section is printed for every game, and every
picture, replay and the index are written where it says."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

import boardsim
from boardsim.agents import AGENT_FACTORIES
from boardsim.cli import main
from boardsim.commands import demo
from boardsim.replay import read_replay, reproduce

pytestmark = pytest.mark.subprocess

SECTIONS = ("SPEED", "STRENGTH", "BALANCE", "PICTURES")


@pytest.fixture(scope="module")
def tour(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp("demo") / "pictures"
    capture = pytest.MonkeyPatch()
    lines: list[str] = []
    shown = print

    def printed(*a: object, **k: object) -> None:  # what the demo prints to stdout
        if k.get("file") is None:
            lines.append(" ".join(map(str, a)))
        else:  # numba prints a compiled function's types to a string when it caches one
            shown(*a, **k)

    capture.setattr("builtins.print", printed)
    try:
        code = main(
            ["demo", "--games", "2", "--seconds", "0.01", "--out", str(out), "--no-progress"]
        )
    finally:
        capture.undo()
    assert code == 0
    return "\n".join(lines), out


def section(text: str, title: str) -> str:
    """One section's text: from its first title to the next section's (``STRENGTH`` has two
    tables, the competitive and the cooperative games)."""
    start = text.index(title)
    ends = [text.find(t, start) for t in SECTIONS if t != title and text.find(t, start) > start]
    return text[start : min(ends, default=len(text))]


def test_every_section_is_printed_in_order(tour: tuple[str, Path]) -> None:
    text, _ = tour
    positions = [text.index(title) for title in SECTIONS]
    assert positions == sorted(positions)


@pytest.mark.parametrize("title", SECTIONS)
def test_every_game_is_in_every_section(tour: tuple[str, Path], title: str) -> None:
    text, _ = tour
    part = section(text, title)
    for name in boardsim.list_games():
        assert name in part, f"{name} missing from {title}"


def test_the_ladder_has_its_rungs_with_intervals(tour: tuple[str, Path]) -> None:
    text, _ = tour
    assert "heuristic" in text and f"mcts:{demo.SEARCH_SIMULATIONS}" in text
    assert "--simulations 200" in text  # where to look for a stronger search
    assert "95% Wilson" in text and "[0." in text


def test_a_cooperative_game_is_shown_at_an_easy_and_the_medium_level(
    tour: tuple[str, Path],
) -> None:
    text, _ = tour
    for name in boardsim.list_games():
        for word, level in demo.easy_and_medium(name):
            assert f"{word} {level}" in text


def test_balance_points_to_the_command_that_does_it_properly(tour: tuple[str, Path]) -> None:
    text, _ = tour
    part = section(text, "BALANCE")
    for name in boardsim.list_games():
        assert f"properly: boardsim balance {name} " in part


def test_every_picture_and_replay_is_written(tour: tuple[str, Path]) -> None:
    text, out = tour
    index = (out / "index.html").read_text()
    for name in boardsim.list_games():
        png, page, saved = (
            out / f"{name}-midgame.png",
            out / f"{name}.html",
            out / f"{name}.jsonl",
        )
        with Image.open(png) as image:
            assert image.format == "PNG" and min(image.size) > 100
        assert page.read_text().lstrip().lower().startswith("<!doctype html")
        assert reproduce(read_replay(saved)).is_terminal()
        assert png.name in index and page.name in index
    assert f"python -m webbrowser file://{(out / 'index.html').resolve()}" in text


def test_a_learned_network_is_a_rung_once_the_build_loads_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = boardsim.make_game(boardsim.list_games()[0])
    learned = [agent for agent, _ in demo.rungs(game) if agent == demo.LEARNED]
    assert learned == ([] if demo.learned_agent(game) is None else [demo.LEARNED])
    monkeypatch.setitem(AGENT_FACTORIES, demo.LEARNED, AGENT_FACTORIES["random"])
    assert (demo.LEARNED, "heuristic") in demo.rungs(game)


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    afile = tmp_path / "file"
    afile.write_text("")
    assert main(["demo", "--games", "0"]) == 2
    assert main(["demo", "--seconds", "0"]) == 2
    assert main(["demo", "--simulations", "0"]) == 2
    assert main(["demo", "--out", str(afile)]) == 2


def table_headings(text: str) -> set[str]:
    """The column headings of every table (the line above a rule of dashes), spaces folded."""
    lines = text.splitlines()
    return {
        " ".join(lines[i - 1].split())
        for i in range(1, len(lines))
        if lines[i].strip() and set(lines[i].replace(" ", "")) == {"-"}
    }


def test_the_readme_shows_what_the_demo_prints_now(tour: tuple[str, Path]) -> None:
    """The README's demo output (written by ``scripts/readme_demo.py``) has the sections and
    tables the demo prints today: a change of the demo's output needs that script run."""
    text, _ = tour
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    begin = readme.index("<!-- demo:begin")
    block = readme[begin : readme.index("<!-- demo:end -->", begin)]
    assert "python scripts/readme_demo.py" in block
    for title in SECTIONS:
        assert f"\n{title}" in block, f"the README's demo output has no {title} section"
    assert text.splitlines()[0].split(":")[0] == "boardsim demo"
    assert "\nboardsim demo: " in block
    now, shown = table_headings(text), table_headings(block)
    peers = {h for h in shown if h.startswith("peer")}  # printed where a peer is installed
    assert now - peers == shown - peers, "run python scripts/readme_demo.py"
