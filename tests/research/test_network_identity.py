"""A sweep or a tuning played by one network is not read back as another's: replacing the
shipped network (Farrapos's, 2026-12-06) makes its balance sections play again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from boardsim import OptionError
from boardsim.research import sweep
from boardsim.research.pages import set_aside_other_networks
from boardsim.research.reuse import networks_played
from boardsim.research.sweep_folder import MANIFEST, cells_networks, retire_network_cells
from boardsim.research.tune import MANIFEST as TUNE_MANIFEST
from boardsim.research.tune import _manifest, parse_target

ROOT = Path(__file__).resolve().parents[2]
WARMUP = ROOT / "benchmarks" / "results" / "farrapos-selfplay" / "warmup.npz"


@pytest.fixture
def other_network(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped Farrapos networks replaced by the warm-up network (the one shipped
    before 2026-12-06)."""
    root = tmp_path / "agents"
    shutil.copytree(ROOT / "agents" / "farrapos", root / "farrapos")
    shutil.copy(WARMUP, root / "farrapos" / "alphazero.npz")
    monkeypatch.setenv("BOARDSIM_AGENTS", str(root))


def _seats(*specs: str, **options) -> list:
    return [(s, options) for s in specs]


def test_the_networks_the_seats_play_are_named_by_their_weights() -> None:
    plays = networks_played("farrapos", _seats("heuristic", "mcts:10", "alphazero"))
    assert list(plays) == ["alphazero"] and len(plays["alphazero"][0]) == 64
    both = networks_played("farrapos", _seats("alphazero", "alphazero-mcts:4", "alphazero"))
    assert both == {"alphazero": plays["alphazero"], "alphazero-mcts:4": plays["alphazero"]}
    assert networks_played("farrapos", _seats("random", "heuristic", "ignored")) == {}
    # the race ships a network for two players only: at four, none is played
    race = [("alphazero", {"num_players": 2}), ("alphazero", {"num_players": 4})]
    assert len(networks_played("liberation", race)["alphazero"]) == 1


def test_a_sweep_records_the_networks_its_grid_s_skills_play(tmp_path: Path) -> None:
    """The page's questions name their skills in the grid (skill=alphazero), not --agents."""
    grid = sweep.parse_grid("farrapos", ["skill=heuristic,alphazero"])
    sweep.run_sweep("farrapos", grid, ["ignored"], 4, tmp_path / "s", seed=1)
    manifest = json.loads((tmp_path / "s" / MANIFEST).read_text())
    assert manifest["plays"] == networks_played("farrapos", _seats("alphazero"))


def test_another_shipped_network_is_another_sweep(tmp_path: Path, request) -> None:
    out = tmp_path / "s"
    grid = {"victory_vp": [20]}
    sweep.run_sweep("farrapos", grid, ["alphazero"], 4, out, seed=1)
    assert sweep.finished_sweep("farrapos", grid, ["alphazero"], 4, out, 1)
    request.getfixturevalue("other_network")
    assert not sweep.finished_sweep("farrapos", grid, ["alphazero"], 4, out, 1)
    with pytest.raises(OptionError, match="different sweep \\(plays differ\\)"):
        sweep.run_sweep("farrapos", grid, ["alphazero"], 4, out, seed=1)


def test_a_folder_written_before_the_networks_were_recorded(tmp_path: Path) -> None:
    grid = {"victory_vp": [20]}
    for agent, still in (("heuristic", True), ("alphazero", False)):
        out = tmp_path / agent
        sweep.run_sweep("farrapos", grid, [agent], 4, out, seed=1)
        manifest = json.loads((out / MANIFEST).read_text())
        del manifest["plays"]
        (out / MANIFEST).write_text(json.dumps(manifest))
        # without a network nothing it played is unknown; with one, which is
        assert sweep.finished_sweep("farrapos", grid, [agent], 4, out, 1) is still


def test_a_page_replays_only_the_cells_another_network_played(tmp_path: Path, request) -> None:
    """The shipped network replaced: the section's skill=alphazero cells move aside and are
    played again; the heuristic's cells are read back, not played."""
    out, grid = tmp_path / "section", sweep.parse_grid("farrapos", ["skill=heuristic,alphazero"])
    cells, _ = sweep.plan_cells("farrapos", grid, ["ignored"], {}, False)
    first = sweep.run_sweep("farrapos", grid, ["ignored"], 4, out, seed=1)
    assert first.played == 2
    heuristic = next(f for f in (out / "cells").iterdir() if "heuristic" in f.name)
    stamp = heuristic.stat().st_mtime_ns
    assert retire_network_cells(out, cells, cells_networks("farrapos", cells)) is None
    request.getfixturevalue("other_network")
    later = cells_networks("farrapos", cells)
    aside = retire_network_cells(out, cells, later)
    assert aside == tmp_path / "section.other-network"
    assert [f.name for f in (aside / "cells").iterdir()] == [
        c.cell_id + ".csv" for c in cells if "alphazero" in c.policies
    ]
    assert json.loads((out / MANIFEST).read_text())["plays"] == later
    again = sweep.run_sweep("farrapos", grid, ["ignored"], 4, out, seed=1)
    assert (again.played, again.skipped) == (1, 1)
    assert heuristic.stat().st_mtime_ns == stamp  # read back, not played
    assert retire_network_cells(out, cells, later) is None  # nothing left to move


def test_a_tuning_played_by_another_network_is_set_aside_whole(tmp_path: Path) -> None:
    out = tmp_path / "tuning"
    out.mkdir()
    (out / TUNE_MANIFEST).write_text(json.dumps({"plays": {"alphazero": ["0" * 64]}}))
    now = networks_played("farrapos", _seats("alphazero"))
    aside = set_aside_other_networks(out, TUNE_MANIFEST, now)
    assert aside == tmp_path / "tuning.other-network" and not out.exists()
    assert (aside / TUNE_MANIFEST).is_file()
    assert set_aside_other_networks(out, TUNE_MANIFEST, now) is None


def test_a_tuning_with_a_network_skill_records_the_network() -> None:
    targets = [parse_target("farrapos", "republic=0.48-0.52@alphazero")]
    manifest = _manifest("farrapos", targets, [], 40, 0, {})
    assert manifest["plays"] == networks_played("farrapos", _seats("alphazero"))
    heuristic = [parse_target("farrapos", "republic=0.5@heuristic")]
    assert "plays" not in _manifest("farrapos", heuristic, [], 40, 0, {})


def test_a_grid_may_grow_a_network_skill_and_the_folder_records_it(tmp_path: Path) -> None:
    out = tmp_path / "s"
    sweep.run_sweep("farrapos", sweep.parse_grid("farrapos", ["skill=heuristic"]), ["x"], 4, out)
    assert json.loads((out / MANIFEST).read_text())["plays"] == {}
    grown = sweep.parse_grid("farrapos", ["skill=heuristic,alphazero"])
    result = sweep.run_sweep("farrapos", grown, ["x"], 4, out)
    assert (result.played, result.skipped) == (1, 1)
    plays = json.loads((out / MANIFEST).read_text())["plays"]
    assert plays == networks_played("farrapos", _seats("alphazero"))
    # the heuristic's cells alone, read back from a folder that also holds the network's
    again = sweep.run_sweep(
        "farrapos", sweep.parse_grid("farrapos", ["skill=heuristic"]), ["x"], 4, out
    )
    assert again.played == 0
    assert json.loads((out / MANIFEST).read_text())["plays"] == plays


def test_a_restricted_play_section_names_the_network_its_agent_plays(request) -> None:
    """Farrapos's "Which mechanics the game turns on" plays the shipped network: its measures
    of another network are not read back."""
    from boardsim.games import definition
    from boardsim.research.pages import PageRun, _restricted_settings

    (play,) = definition("farrapos").restricted_play
    now = _restricted_settings("farrapos", play, PageRun(40))
    assert now["plays"] == networks_played("farrapos", _seats("alphazero"))
    request.getfixturevalue("other_network")
    assert _restricted_settings("farrapos", play, PageRun(40)) != now
