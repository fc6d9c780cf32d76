"""Reusing pairs already played: a run that reads back part of an earlier file finds what a
full replay finds, and a pair whose settings changed in any way is played again."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import boardsim
from boardsim.agents import load
from boardsim.cli import main as cli_main
from boardsim.core.errors import DataError
from boardsim.core.network import LayerSpec, Network, build_layout
from boardsim.research.reuse import PriorResults, agent_fingerprint
from boardsim.research.tournament import TournamentResult, cooperative, round_robin

TWO = {"num_players": 2}
LEVELS = ["6-4-3-4-2", "7-5-4-5-1"]


def _written(result: TournamentResult, path: Path) -> PriorResults:
    result.write(path)
    return PriorResults.load(path.with_name(path.name + ".json"))


def _numbers(result: TournamentResult) -> dict[str, Any]:
    """The result as its JSON, without the times it took."""
    data = json.loads(result.to_json())
    del data["seconds"]
    for record in data["pair_records"]:
        del record["seconds"]
    return data


def test_a_run_reusing_part_of_an_earlier_one_is_the_full_replay(tmp_path: Path) -> None:
    agents = ["random", "heuristic", "mcts:4"]
    full = round_robin("liberation", agents, 4, seed=3, **TWO)
    prior = _written(round_robin("liberation", agents[:2], 4, seed=3, **TWO), tmp_path / "a")
    told: list[str] = []
    reused = round_robin("liberation", agents, 4, seed=3, progress=told.append, reuse=prior, **TWO)
    assert (prior.reused, prior.played, prior.replayed) == (1, 2, 0)
    assert f"random against heuristic: read back from {prior.path}" in told
    assert _numbers(reused) == _numbers(full)
    assert reused.elo == full.elo and reused.elo_low == full.elo_low
    # the search's resolved settings are part of what it plays
    plays = full.pair_records[1]["settings"]["agents"][1]["plays"]
    assert plays["seat"]["policy"] == "POLICY_MCTS" and plays["seat"]["settings"]["S_SIMS"] == 4
    # everything read back: nothing is played, the same numbers again
    again = _written(full, tmp_path / "b")
    assert _numbers(round_robin("liberation", agents, 4, seed=3, reuse=again, **TWO)) == _numbers(
        full
    )
    assert (again.reused, again.played) == (3, 0)


def test_a_file_written_before_the_split_by_seat_is_still_read_back(tmp_path: Path) -> None:
    data = json.loads(
        round_robin("liberation", ["random", "heuristic"], 4, seed=3, **TWO).to_json()
    )
    for pair in data["pairs"]:
        del pair["by_seat"]
    path = tmp_path / "before.json"
    path.write_text(json.dumps(data))
    prior = PriorResults.load(path)
    again = round_robin("liberation", ["random", "heuristic"], 4, seed=3, reuse=prior, **TWO)
    assert (prior.reused, prior.played) == (1, 0)
    assert [p.by_seat for p in again.pairs] == [[], []]


@pytest.mark.slow
def test_the_eval_command_reads_back_its_out_file_and_says_what_it_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "league"
    argv = ["eval", "liberation", "--games", "4", "--seed", "2", "-o", "num_players=2"]
    assert cli_main([*argv, "--agents", "random,heuristic", "--out", str(out)]) == 0
    capsys.readouterr()
    assert cli_main([*argv, "--agents", "random,heuristic,greedy", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"reused 1 pairs of {out}.json, played 2" in err
    reused = json.loads(out.with_suffix(".json").read_text())
    full = tmp_path / "full"
    assert cli_main([*argv, "--agents", "random,heuristic,greedy", "--out", str(full)]) == 0
    replayed = json.loads(full.with_suffix(".json").read_text())
    for data in (reused, replayed):
        del data["seconds"], data["command"]
        for record in data["pair_records"]:
            del record["seconds"]
    assert reused == replayed
    # --no-reuse plays everything; --reuse FILE reads another file
    assert cli_main([*argv, "--agents", "random,heuristic", "--out", str(out), "--no-reuse"]) == 0
    assert "pairs of" not in capsys.readouterr().err
    other = tmp_path / "other"
    argv += ["--agents", "heuristic,greedy", "--out", str(other), "--reuse", str(full) + ".json"]
    assert cli_main(argv) == 0
    assert f"reused 1 pairs of {full}.json, played 0" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"seed": 4}, "seed"),
        ({"games": 6}, "games"),
        ({"counters": 20}, "options"),
        ({"max_decisions": 5000}, "decision_limit"),
        ({"agents": ["heuristic", "random"]}, "the agents' order"),
    ],
)
def test_a_pair_played_with_other_settings_is_played_again(
    tmp_path: Path, change: dict[str, Any], why: str
) -> None:
    settings: dict[str, Any] = {"agents": ["random", "heuristic"], "games": 4, "seed": 3, **TWO}
    prior = _written(round_robin("liberation", **settings), tmp_path / "a")
    settings.update(change)
    result = round_robin("liberation", reuse=prior, **settings)
    assert (prior.reused, prior.played, prior.replayed) == (0, 1, 1)
    assert why in prior.summary()
    assert _numbers(result) == _numbers(round_robin("liberation", **settings))


def test_with_more_players_the_agents_order_does_not_change_a_pair(tmp_path: Path) -> None:
    # both arrangements (one A against Bs, one B against As) are played either way
    three = {"games": 3, "seed": 1, "num_players": 3}
    prior = _written(round_robin("liberation", ["random", "heuristic"], **three), tmp_path / "a")
    result = round_robin("liberation", ["heuristic", "random"], reuse=prior, **three)
    assert (prior.reused, prior.played) == (1, 0)
    assert _numbers(result) == _numbers(round_robin("liberation", ["heuristic", "random"], **three))


def test_a_search_with_other_settings_is_played_again(tmp_path: Path) -> None:
    def maker(c_uct: float) -> Any:
        def make(spec: str, game: boardsim.Game, seed: int) -> Any:
            extra = {"c_uct": c_uct} if spec.startswith("mcts") else {}
            return load(spec, game, seed, **extra)

        return make

    settings: dict[str, Any] = {"agents": ["random", "mcts:4"], "games": 2, "seed": 0, **TWO}
    prior = _written(round_robin("liberation", agent_maker=maker(1.0), **settings), tmp_path / "a")
    round_robin("liberation", agent_maker=maker(1.0), reuse=prior, **settings)
    assert (prior.reused, prior.played) == (1, 0)
    round_robin("liberation", agent_maker=maker(3.0), reuse=prior, **settings)
    assert (prior.reused, prior.played, prior.replayed) == (1, 1, 1)
    assert "what an agent plays" in prior.summary()


def _tiny_network(game: boardsim.Game, seed: int) -> Network:
    n, a = game.observation_size, game.num_actions
    layout, size = build_layout([LayerSpec(0, 1, n, a), LayerSpec(0, 2, n, 1, "tanh")], 1, 2)
    weights = np.random.default_rng(seed).normal(size=size).astype(np.float32)
    return Network(weights, layout, {"game": game.name, "options": game.options})


def test_a_network_is_known_by_its_weights_not_its_file_name(tmp_path: Path) -> None:
    game = boardsim.make_game("liberation", **TWO)
    path = tmp_path / "net.npz"
    _tiny_network(game, 0).save(path)
    agents = ["random", f"alphazero:{path}"]
    fingerprint = agent_fingerprint(load(agents[1], game))
    assert fingerprint is not None and len(fingerprint["seat"]["network_sha256"]) == 64
    prior = _written(round_robin("liberation", agents, 2, **TWO), tmp_path / "a")
    round_robin("liberation", agents, 2, reuse=prior, **TWO)
    assert (prior.reused, prior.played) == (1, 0)
    _tiny_network(game, 1).save(path)  # the same file, other weights
    assert agent_fingerprint(load(agents[1], game)) != fingerprint
    round_robin("liberation", agents, 2, reuse=prior, **TWO)
    assert (prior.reused, prior.played, prior.replayed) == (1, 1, 1)


def test_a_cooperative_games_cells_are_read_back_one_by_one(tmp_path: Path) -> None:
    agents = ["random", "heuristic"]
    full = cooperative("hispania", agents, 3, levels=LEVELS, seed=2)
    earlier = cooperative("hispania", ["heuristic"], 3, levels=LEVELS[:1], seed=2)
    prior = _written(earlier, tmp_path / "a")
    told: list[str] = []
    result = cooperative(
        "hispania", agents, 3, levels=LEVELS, seed=2, progress=told.append, reuse=prior
    )
    assert (prior.reused, prior.played) == (1, 3)
    assert any("heuristic at level 6-4-3-4-2: read back" in t for t in told)
    assert _numbers(result) == _numbers(full)
    assert "cells" in prior.summary("cells")


def test_an_option_added_later_takes_its_default(tmp_path: Path) -> None:
    result = round_robin("liberation", ["random", "heuristic"], 2, seed=1, **TWO)
    data = json.loads(result.to_json())
    # written before "independent_spaces" existed (its default is the game it was then)
    for record in data["pair_records"]:
        del record["settings"]["options"]["independent_spaces"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    prior = PriorResults.load(path)
    round_robin("liberation", ["random", "heuristic"], 2, seed=1, reuse=prior, **TWO)
    assert (prior.reused, prior.played) == (1, 0)


def test_a_file_without_settings_per_pair_is_not_reused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "old"
    argv = ["eval", "liberation", "--agents", "random,heuristic", "--games", "2"]
    argv += ["-o", "num_players=2", "--out", str(out)]
    assert cli_main(argv) == 0
    data = json.loads(out.with_suffix(".json").read_text())
    del data["pair_records"]  # as the ladders were written before reuse
    out.with_suffix(".json").write_text(json.dumps(data))
    assert not PriorResults.load(out.with_suffix(".json")).usable
    capsys.readouterr()
    assert cli_main(argv) == 0
    err = capsys.readouterr().err
    assert "records no settings per pair" in err and "every pair is played" in err
    assert "pairs of" not in err
    assert "pair_records" in json.loads(out.with_suffix(".json").read_text())


def _broken(tmp_path: Path, edit: Any) -> Path:
    data = json.loads(round_robin("liberation", ["random", "heuristic"], 2, **TWO).to_json())
    edit(data)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("edit", "entry"),
    [
        (lambda d: d.update(pair_records={}), "pair_records"),
        (lambda d: d["pair_records"][0].pop("scores"), "pair_records[0].scores"),
        (lambda d: d["pair_records"][0]["settings"].pop("seed"), "pair_records[0].settings"),
        (lambda d: d["pair_records"][0].update(seconds="x"), "pair_records[0].seconds"),
        (lambda d: d["pairs"].pop(), "pair_records[0]"),
        (lambda d: d["pairs"][0].update(wins="1"), "pairs[0].wins"),
        (lambda d: d.update(mode="league"), "mode"),
        (lambda d: d["pairs"][0].update(by_seat={}), "pairs[0].by_seat"),
        (lambda d: d["pairs"][0]["by_seat"][0].update(games="1"), "pairs[0].by_seat[0].games"),
        (lambda d: d["pairs"][0]["by_seat"][0].pop("name"), "pairs[0].by_seat[0]"),
        (lambda d: d["pairs"][0]["by_seat"][0].update(score=9.0), "pairs[0].by_seat"),
    ],
)
def test_a_malformed_file_is_refused_naming_it(tmp_path: Path, edit: Any, entry: str) -> None:
    path = _broken(tmp_path, edit)
    with pytest.raises(DataError, match=re.escape(f"{path}: {entry}:")):
        PriorResults.load(path)


def test_the_eval_command_refuses_a_bad_reuse_file_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    argv = ["eval", "liberation", "--agents", "random,heuristic", "--games", "2"]
    argv += ["-o", "num_players=2"]
    assert cli_main([*argv, "--reuse", str(bad)]) == 2
    assert f"{bad}: file: is not JSON" in capsys.readouterr().err
    assert cli_main([*argv, "--reuse", str(tmp_path / "none.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert cli_main([*argv, "--reuse", str(bad), "--no-reuse"]) == 2
    assert "contradict" in capsys.readouterr().err


def test_the_ladder_reads_back_its_own_file_unless_told_not_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from boardsim.research import ladder

    seen: list[tuple[Any, ...]] = []

    class Played:
        mode = "round_robin"

        def write(self, prefix: Any) -> None:
            seen.append(("write", str(prefix)))

    def prior_results(out: str, reuse: Any = None, no_reuse: bool = False) -> None:
        seen.append(("prior", out, no_reuse))

    def run_eval(
        request: Any,
        progress: Any = None,
        prior: Any = None,
        backend: str = "local",
        address: Any = None,
    ) -> Played:
        assert (backend, address) == ("local", None)  # the ladder plays here unless told
        seen.append(("run", request))
        return Played()

    monkeypatch.setattr(ladder, "prior_results", prior_results)
    monkeypatch.setattr(ladder, "run_eval", run_eval)
    ladder.play_ladder("liberation", 2)
    ladder.play_ladder("liberation", 2, reuse=False)
    request = ladder.ladder_request("liberation", 2)
    # the ladder's file is eval's --out: its pairs are read back (the command stays the same)
    assert request.words()[2:] == ladder.eval_arguments("liberation", 2)
    assert seen[:3] == [("prior", request.out, False), ("run", request), ("write", request.out)]
    assert seen[3:] == [("prior", request.out, True), ("run", request), ("write", request.out)]
