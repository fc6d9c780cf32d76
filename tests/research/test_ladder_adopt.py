"""Adopting a ladder file written before pair records: its records are written from its own
results without playing, when it can be trusted, and a later run reads every pair back."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from boardsim.cli import main as cli_main
from boardsim.core.network import Network
from boardsim.research import ladder
from boardsim.research.adopt import AdoptionError, adopt_results

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ["random", "heuristic", "ppo"]  # the first of the race's ladder
LADDER = Path("agents/liberation/ladder")
GAMES = 2


def _git(where: Path, *words: str) -> str:
    out = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *words],
        cwd=where,
        capture_output=True,
        check=True,
        text=True,
    )
    return out.stdout.strip()


def _commit(where: Path) -> str:
    _git(where, "add", "-A")
    _git(where, "commit", "-q", "-m", "x")
    return _git(where, "rev-parse", "HEAD")


def _before_records(data: dict[str, Any]) -> dict[str, Any]:
    """A file as boardsim eval wrote it before it recorded settings and versions."""
    return {k: v for k, v in data.items() if k not in ("pair_records", "version")}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The first three agents of the race's ladder, two games a pair, as boardsim eval writes
    them today (with records)."""
    where = tmp_path_factory.mktemp("played")
    (where / "agents" / "liberation").mkdir(parents=True)
    shutil.copy(ROOT / "agents" / "liberation" / "ppo.npz", where / "agents" / "liberation")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(where)
        mp.setenv("BOARDSIM_AGENTS", str(where / "agents"))
        assert cli_main(["eval", *ladder.eval_arguments("liberation", GAMES, AGENTS)]) == 0
    return {
        "json": json.loads((where / LADDER).with_suffix(".json").read_text()),
        "csv": (where / LADDER).with_suffix(".csv").read_text(),
    }


@dataclass
class Checkout:
    root: Path
    commit: str

    @property
    def file(self) -> Path:
        return self.root / LADDER.with_suffix(".json")

    def read(self) -> dict[str, Any]:
        return json.loads(self.file.read_text())

    def edit(self, change: Callable[[dict[str, Any]], Any]) -> None:
        data = self.read()
        change(data)
        self.file.write_text(json.dumps(data, indent=2) + "\n")
        self.commit = _commit(self.root)


@pytest.fixture
def checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, played: dict[str, Any]
) -> Iterator[Checkout]:
    """A git checkout holding the ladder file as it was written before records, and the
    race's shipped network."""
    folder = tmp_path / "agents" / "liberation"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "agents" / "liberation" / "ppo.npz", folder / "ppo.npz")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "agents.md").write_text("# Agents\n")
    (tmp_path / LADDER).with_suffix(".json").write_text(
        json.dumps(_before_records(played["json"]), indent=2) + "\n"
    )
    (tmp_path / LADDER).with_suffix(".csv").write_text(played["csv"])
    _git(tmp_path, "init", "-q")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOARDSIM_AGENTS", str(tmp_path / "agents"))
    yield Checkout(tmp_path, _commit(tmp_path))


def _without_times(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k != "seconds"}
    out["pair_records"] = [
        {k: v for k, v in r.items() if k not in ("seconds", "adopted")}
        for r in data["pair_records"]
    ]
    return out


def _rerun(capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert cli_main(["eval", *ladder.eval_arguments("liberation", GAMES, AGENTS)]) == 0
    return capsys.readouterr().err


def test_an_adopted_ladder_is_read_back_whole_with_the_same_numbers(
    checkout: Checkout, played: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    adoption = ladder.adopt_ladder("liberation", 2)
    assert adoption.adopted == [
        "random against heuristic",
        "random against ppo",
        "heuristic against ppo",
    ]
    assert adoption.refused == []
    adopted = checkout.read()
    # the records boardsim eval writes when it plays the pairs, each marked adopted
    assert _without_times(adopted) == _without_times(played["json"])
    assert (checkout.root / LADDER).with_suffix(".csv").read_text() == played["csv"]
    for record in adopted["pair_records"]:
        assert record["adopted"] == {"from_commit": checkout.commit, "rules_version": 2}
    # the file's time, shared out among its pairs
    assert adopted["seconds"] == played["json"]["seconds"]
    total = sum(r["seconds"] for r in adopted["pair_records"])
    assert total == pytest.approx(adopted["seconds"], abs=0.01)
    # the next run plays nothing and writes the same file, the marks kept
    assert f"reused 3 pairs of {LADDER}.json, played 0" in _rerun(capsys)
    again = checkout.read()
    assert again["pair_records"] == adopted["pair_records"]
    assert {**again, "seconds": 0} == {**adopted, "seconds": 0}
    with pytest.raises(AdoptionError, match="already records its pairs' settings"):
        ladder.adopt_ladder("liberation", 2)


def test_the_command_adopts_and_says_what_it_refuses(
    checkout: Checkout, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["ladder", "liberation", "--adopt", "--rules-version", "3"]) == 2
    err = capsys.readouterr().err
    assert "not adopted: liberation's rules are at version 2 today, not 3" in err
    assert "pair_records" not in checkout.read()
    assert cli_main(["ladder", "liberation", "--adopt", "--rules-version", "2"]) == 0
    assert "adopted 3 pairs (rules version 2)" in capsys.readouterr().err
    for argv in (["liberation", "--adopt"], ["liberation", "--rules-version", "2"]):
        with pytest.raises(SystemExit):
            cli_main(["ladder", *argv])


def _drop_pair(data: dict[str, Any]) -> None:
    data["pairs"] = [
        p for p in data["pairs"] if (p["agent"], p["opponent"]) != ("ppo", "heuristic")
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["options"].update(counters=20), "other options than today's: counters=20"),
        (lambda d: d.update(seed=7), "seed is 7 but its command says 100"),
        (lambda d: d.update(games_per_pair=3), "not by today's ladder command"),
        (
            lambda d: d.update(command=d["command"].replace("--seed 100", "--seed 7"), seed=7),
            "not by today's ladder command",
        ),
        (_drop_pair, "incomplete: no result for ppo / heuristic"),
        # (a file written before the split by seat, which would not add up either)
        (lambda d: d["pairs"][0].update(games=1, by_seat=[]), "has 1 games, not 2"),
        (lambda d: d["elo"].update(ppo=2000.0), "its elo are not what its pairs' results give"),
        (lambda d: d.update(agents=["random", "ppo"]), "are not the first of today's ladder"),
    ],
    ids=[
        "option",
        "seed",
        "games",
        "command",
        "incomplete",
        "games-of-a-pair",
        "elo",
        "agents",
    ],
)
def test_a_file_that_is_not_todays_ladder_is_refused(
    checkout: Checkout, change: Callable[[dict[str, Any]], Any], message: str
) -> None:
    checkout.edit(change)
    with pytest.raises(AdoptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ladder.adopt_ladder("liberation", 2)
    assert "pair_records" not in checkout.read()


def test_a_ladder_played_with_other_settings_today_is_refused(
    checkout: Checkout, monkeypatch: pytest.MonkeyPatch
) -> None:
    setting = ladder.ladder_setting("liberation")
    for changed in (replace(setting, seed=101), replace(setting, options={"num_players": 3})):
        monkeypatch.setattr(ladder, "ladder_setting", lambda game, s=changed: s)
        with pytest.raises(AdoptionError, match="not by today's ladder command"):
            ladder.adopt_ladder("liberation", 2)


def test_the_wrong_rules_version_an_edited_or_uncommitted_file_are_refused(
    checkout: Checkout,
) -> None:
    with pytest.raises(AdoptionError, match="version 2 today, not 0"):
        ladder.adopt_ladder("liberation", 0)
    checkout.file.write_text(checkout.file.read_text() + "\n")
    with pytest.raises(AdoptionError, match="differs from the one its last commit"):
        ladder.adopt_ladder("liberation", 2)
    shutil.rmtree(checkout.root / ".git")
    with pytest.raises(AdoptionError, match="not a committed file"):
        ladder.adopt_ladder("liberation", 2)


def test_a_pair_whose_network_changed_is_not_adopted_and_is_played_again(
    checkout: Checkout, capsys: pytest.CaptureFixture[str]
) -> None:
    path = checkout.root / "agents" / "liberation" / "ppo.npz"
    network = Network.load(path)
    weights = network.weights.copy()
    weights[0] += 1.0
    Network(weights, network.layout, network.meta).save(path)
    since = _commit(checkout.root)
    adoption = ladder.adopt_ladder("liberation", 2)
    assert adoption.adopted == ["random against heuristic"]
    assert len(adoption.refused) == 2
    assert all(
        f"ppo's network {path} is not the agents/liberation/ppo.npz of {checkout.commit[:12]} "
        f"(changed since: {since[:7]}" in line
        for line in adoption.refused
    )
    assert len(checkout.read()["pair_records"]) == 1
    assert f"reused 1 pairs of {LADDER}.json, played 2" in _rerun(capsys)


def test_an_uncommitted_network_is_a_changed_one_and_no_pair_left_is_refused(
    checkout: Checkout,
) -> None:
    path = checkout.root / "agents" / "liberation" / "ppo.npz"
    network = Network.load(path)
    Network(network.weights * 2, network.layout, network.meta).save(path)
    adoption = ladder.adopt_ladder("liberation", 2)
    assert [line.endswith("(changed since: uncommitted)") for line in adoption.refused] == [
        True,
        True,
    ]
    data = _before_records(checkout.read())
    with pytest.raises(AdoptionError, match="no pair can be adopted"):
        adopt_results(data, "the file", 2, checkout.commit, refuse=lambda specs: "no")


def test_a_cooperative_ladder_is_adopted_cell_by_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOARDSIM_AGENTS", str(tmp_path / "agents"))  # no network shipped
    arguments = ladder.eval_arguments("hispania", 2, ["random", "heuristic"])
    assert cli_main(["eval", *arguments]) == 0
    prefix = tmp_path / "agents" / "hispania" / "ladder"
    played = json.loads(prefix.with_suffix(".json").read_text())
    prefix.with_suffix(".json").write_text(json.dumps(_before_records(played), indent=2))
    _git(tmp_path, "init", "-q")
    commit = _commit(tmp_path)
    adoption = ladder.adopt_ladder("hispania", 4)
    levels = ladder.ladder_setting("hispania").levels
    assert levels is not None
    assert adoption.adopted == [
        f"{a} at level {lv}" for lv in levels.split(",") for a in ("random", "heuristic")
    ]
    adopted = json.loads(prefix.with_suffix(".json").read_text())
    assert _without_times(adopted) == _without_times(played)
    assert all(r["adopted"]["from_commit"] == commit for r in adopted["pair_records"])
    capsys.readouterr()
    assert cli_main(["eval", *arguments]) == 0
    assert "reused 4 cells of agents/hispania/ladder.json, played 0" in capsys.readouterr().err
