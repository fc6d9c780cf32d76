"""A balance page's restricted-play sections (``GameDefinition.restricted_play``): each
mechanic's weight and the greedy-against-search gap, played into the page's work folder
a measure at a time, read back rather than played again, and the section's command plays
the very same table alone."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from boardsim.cli import main
from boardsim.core.errors import OptionError
from boardsim.core.game import RestrictedPlay
from boardsim.research import pages
from boardsim.research.page_plan import plan_restricted
from boardsim.research.pages import (
    RESTRICTED_FILE,
    PageRun,
    finished_restricted,
    play_restricted,
    restricted_command,
    restricted_games,
    restricted_section,
    slug,
)
from boardsim.research.restricted import Advantage

PLAY = RestrictedPlay(
    "Race mechanics",
    "What the race turns on, at two players.",
    "alphazero",
    families=("roll", "pass"),
    gap="mcts:8",
    games=4000,
    gap_games=100,
    options={"num_players": 2},
)
RUN = PageRun(6)  # a page of fixed cells: 6 games a measure and for the gap


def test_a_section_plays_the_page_s_games_or_its_own_on_a_page_to_a_precision() -> None:
    assert restricted_games(PLAY, RUN) == (6, 6)
    assert restricted_games(PLAY, PageRun(40, precision=0.01)) == (4000, 100)
    assert restricted_command("liberation", PLAY, PageRun(40, precision=0.01)) == (
        "boardsim balance restricted liberation --agent alphazero --families roll,pass "
        "--games 4000 --gap mcts:8 --gap-games 100 -o num_players=2 --seed 0"
    )


def test_a_section_is_kept_a_measure_at_a_time_and_read_back_not_played_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = play_restricted("liberation", PLAY, RUN, tmp_path)
    assert [r.name for r in rows] == ["roll", "pass", "greedy-against-search gap"]
    assert all(r.games == 6 for r in rows)
    # a player forbidden to roll can only move cards: the network beats it every time
    assert rows[0].score_against == 1.0 and rows[0].advantage > 0.3
    path = tmp_path / slug(PLAY.title) / RESTRICTED_FILE
    assert finished_restricted("liberation", PLAY, RUN, tmp_path) == rows
    assert finished_restricted("liberation", PLAY, PageRun(8), tmp_path) is None  # other games

    # stopped after the first family: the rest is played, to the very same table
    data = json.loads(path.read_text())
    data["rows"] = data["rows"][:1]
    path.write_text(json.dumps(data))
    assert finished_restricted("liberation", PLAY, RUN, tmp_path) is None
    assert play_restricted("liberation", PLAY, RUN, tmp_path) == rows

    # finished: nothing is played again
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("played again")

    monkeypatch.setattr(pages, "mechanic_weights", refuse)
    monkeypatch.setattr(pages, "greedy_search_gap", refuse)
    assert play_restricted("liberation", PLAY, RUN, tmp_path) == rows
    monkeypatch.undo()

    # the section: its command, the table and the measures clear of 0
    text = restricted_section("liberation", PLAY, rows, RUN)
    command = restricted_command("liberation", PLAY, RUN)
    assert text.startswith("## Race mechanics\n\nWhat the race turns on, at two players.")
    assert f"Alone: `{command}`." in text
    assert "| roll | `restricted:roll:alphazero` | 6 |" in text
    assert "Clear of 0 with Holm's correction over the 3 measures of this section" in text
    # ... and that command prints the very same rows
    assert main([*shlex.split(command)[1:], "--no-progress"]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert printed[1:] == [r.row() for r in rows]


def test_a_measures_file_that_is_not_one_is_refused_with_its_path(tmp_path: Path) -> None:
    path = tmp_path / slug(PLAY.title) / RESTRICTED_FILE
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    with pytest.raises(OptionError, match="is not a restricted-play section's measures"):
        play_restricted("liberation", PLAY, RUN, tmp_path)
    path.write_text(json.dumps({"settings": {}, "rows": []}))  # other settings: played anew
    assert finished_restricted("liberation", PLAY, RUN, tmp_path) is None


def test_the_gap_s_games_go_with_the_gap(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["balance", "restricted", "liberation", "--games", "4", "--gap-games", "2"]
    assert main([*args, "--no-progress"]) == 2
    assert "--gap-games goes with --gap SEARCH" in capsys.readouterr().err


def test_a_section_is_priced_table_by_table() -> None:
    mechanics, gap = plan_restricted("liberation", PLAY, RUN, 2)
    assert (mechanics.cells, mechanics.games_per_cell, mechanics.search) == (3, 6, False)
    assert (gap.cells, gap.games_per_cell, gap.search) == (2, 6, True)
    assert mechanics.seconds_per_game > 0 and gap.seconds_per_game > 0


def test_a_section_reads_its_measures_with_holm_s_correction_over_their_number() -> None:
    # four measures: p-values (normal approximation) of about 1e-13, 0.04 and 0.31, and one
    # identically 0. Holm keeps the first (1e-13 < 0.05/4); the second is clear of 0 in its
    # own interval but not against 0.05/3; the third holds 0; the fourth changed no game
    def measure(name: str, value: float, half: float) -> Advantage:
        return Advantage(name, "a", "b", 4000, 0.5 + value, 0.5, value, value - half, value + half)

    rows = [
        measure("small", 0.02, 0.0193),
        measure("large", 0.3, 0.08),
        measure("even", 0.01, 0.0196),
        measure("never", 0.0, 0.0),
    ]
    text = restricted_section("liberation", PLAY, rows, RUN)
    assert (
        "Clear of 0 with Holm's correction over the 4 measures of this section (largest "
        "first): large (+30.0 points). Clear of 0 in its own 95% interval only: small (+2.0 "
        "points). Within their intervals of 0: even. Not one game changed (the agent never "
        "takes the family while another action is legal): never."
    ) in text
