"""Pooling one pair's evaluations on several seeds: sums, intervals, sides, and refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardsim.core.errors import DataError
from boardsim.research.pool import main, pool
from boardsim.research.stats import wilson_interval
from boardsim.research.tournament import cooperative, round_robin


def _written(result, path: Path) -> Path:
    json_path, _ = result.write(path)
    return json_path


def test_two_seeds_of_the_heuristic_against_random_are_one_pair_of_their_games(
    tmp_path: Path,
) -> None:
    a = round_robin("farrapos", ["random", "heuristic"], 10, seed=1)
    # the other order, on another seed: the same pair, seen from the heuristic's side first
    b = round_robin("farrapos", ["heuristic", "random"], 6, seed=2)
    (pair,) = pool([_written(a, tmp_path / "a"), _written(b, tmp_path / "b")])
    h_a = next(p for p in a.pairs if p.agent == "heuristic")
    h_b = next(p for p in b.pairs if p.agent == "heuristic")
    mine = pair if pair.agent == "heuristic" else pair.flipped()
    assert (mine.games, mine.score) == (16, pytest.approx(h_a.score + h_b.score))
    assert (mine.ci_low, mine.ci_high) == pytest.approx(wilson_interval(mine.score, 16))
    assert mine.seeds == [1, 2] and len(mine.files) == 2
    # the Republic's games and the Empire's, each summed over both files
    assert [s["name"] for s in mine.by_seat] == ["republic", "empire"]
    assert [s["games"] for s in mine.by_seat] == [8, 8]
    assert sum(s["score"] for s in mine.by_seat) == pytest.approx(mine.score)
    theirs = mine.flipped()
    assert theirs.agent == "random" and theirs.score == pytest.approx(16 - mine.score)


def test_one_network_named_by_two_paths_is_one_agent(tmp_path: Path) -> None:
    net = "alphazero:agents/farrapos/alphazero.npz"
    a = round_robin("farrapos", ["heuristic", "alphazero"], 4, seed=5)
    b = round_robin("farrapos", ["heuristic", net], 4, seed=6)
    (pair,) = pool([_written(a, tmp_path / "a"), _written(b, tmp_path / "b")])
    assert pair.games == 8 and set(pair.names[0] + pair.names[1]) == {"heuristic", "alphazero", net}


def test_other_agents_or_options_stay_apart(tmp_path: Path) -> None:
    a = round_robin("farrapos", ["random", "heuristic"], 4, seed=1)
    b = round_robin("farrapos", ["random", "heuristic"], 4, seed=2, victory_vp=20)
    c = round_robin("farrapos", ["random", "mcts:2"], 4, seed=3)
    pooled = pool([_written(r, tmp_path / n) for r, n in ((a, "a"), (b, "b"), (c, "c"))])
    assert sorted(p.games for p in pooled) == [4, 4, 4]


def test_the_same_seed_twice_is_refused_as_games_counted_twice(tmp_path: Path) -> None:
    a = round_robin("farrapos", ["random", "heuristic"], 4, seed=1)
    b = round_robin("farrapos", ["random", "heuristic"], 8, seed=1)
    second = _written(b, tmp_path / "b")
    with pytest.raises(DataError, match="counted twice") as info:
        pool([_written(a, tmp_path / "a"), second])
    assert str(second) in str(info.value)


def test_a_cooperative_file_and_an_unrecorded_one_are_refused(tmp_path: Path) -> None:
    levels = ["6-4-3-4-2"]
    coop = _written(cooperative("hispania", ["random"], 2, levels=levels), tmp_path / "c")
    with pytest.raises(DataError, match="cooperative"):
        pool([coop])
    old = _written(round_robin("farrapos", ["random", "heuristic"], 2, seed=1), tmp_path / "o")
    data = json.loads(old.read_text())
    del data["pair_records"]
    old.write_text(json.dumps(data))
    with pytest.raises(DataError, match="written before records"):
        pool([old])


def test_the_command_prints_an_agents_pairs_from_its_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _written(round_robin("farrapos", ["random", "heuristic"], 4, seed=1), tmp_path / "a")
    b = _written(round_robin("farrapos", ["random", "heuristic"], 4, seed=2), tmp_path / "b")
    assert main([str(a), str(b), "--agent", "heuristic"]) == 0
    out = capsys.readouterr().out
    assert (
        out.startswith("heuristic against random: ") and "8 games from 2 files (seeds 1, 2)" in out
    )
    assert "republic" in out and "empire" in out
    assert main([str(a), str(a)]) == 2
    assert "counted twice" in capsys.readouterr().err
