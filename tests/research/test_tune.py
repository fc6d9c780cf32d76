"""Tuning a game to a target: targets and search keys, the search, resuming a killed one."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from boardsim import OptionError
from boardsim.cli import main
from boardsim.core.game import RuleSource
from boardsim.research import tune


def test_targets_read_a_seat_or_subject_a_value_or_range_and_a_skill() -> None:
    t = tune.parse_target("farrapos", "republic=0.5@heuristic")
    assert (t.what, t.low, t.high, t.skill) == ("republic", 0.5, 0.5, "heuristic")
    r = tune.parse_target("hispania", "rome=40-60%@mcts:25")
    assert (r.what, r.low, r.high, r.skill) == ("rome", 0.4, 0.6, "mcts:25")
    assert tune.parse_target("liberation", "balance=0.9-1").skill == "heuristic"
    assert r.distance(0.5) == 0.0 and r.distance(0.3) == pytest.approx(0.1)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("navy=0.5", "not one of"),
        ("republic=1.7", "not a rate"),
        ("republic=0.6-0.4", "low end"),
        ("republic=0.5@greedy", "compiled policies"),
        ("republic", "WHAT=VALUE"),
    ],
)
def test_a_bad_target_is_refused_with_what_is_allowed(text: str, words: str) -> None:
    with pytest.raises(OptionError, match=words):
        tune.parse_target("farrapos", text)


def test_search_keys_are_int_ranges_within_the_declared_bounds_or_choices() -> None:
    k = tune.parse_search("farrapos", "victory_vp=12:40")
    assert (k.low, k.high, k.choices) == (12, 40, None)
    assert tune.parse_search("farrapos", "siege=false,true").choices == (False, True)
    with pytest.raises(OptionError, match="out of range"):
        tune.parse_search("farrapos", "victory_vp=0:500")
    with pytest.raises(OptionError, match="no grid key"):
        tune.parse_search("farrapos", "navy=1:3")


def test_every_trial_plays_the_same_games_common_random_numbers() -> None:
    target = [tune.parse_target("farrapos", "republic=0.5@heuristic")]
    a = tune.measure("farrapos", {"victory_vp": 24}, target, 6, seed=3)
    b = tune.measure("farrapos", {"victory_vp": 24}, target, 6, seed=3)
    assert a == b


def test_a_killed_search_resumes_and_replays_the_killed_trials_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    targets, keys = _threshold_search()
    out = tmp_path / "t"
    real = tune.measure
    calls = {"n": 0}

    def dies_on_the_third(*args, **kw):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(tune, "measure", dies_on_the_third)
    with pytest.raises(KeyboardInterrupt):
        tune.run_tune("farrapos", targets, keys, 4, 4, out, seed=1, confirm=False)
    monkeypatch.setattr(tune, "measure", real)
    study = tune.open_study(out, tune._check_out(out, _manifest(targets, keys)), 1)
    killed = [t for t in study.trials if t.state.name == "RUNNING"]
    assert len(killed) == 1
    result = tune.run_tune("farrapos", targets, keys, 4, 4, out, seed=1)
    assert (result.trials, result.ran) == (4, 2)
    study = tune.open_study(out, tune._check_out(out, _manifest(targets, keys)), 1)
    redone = [t for t in study.trials if t.state.name == "COMPLETE"][-2]
    assert redone.params == killed[0].params
    with open(out / "trials.csv") as f:
        assert len(list(csv.DictReader(f))) == 4
    page = (out / "tune.md").read_text()
    assert "## Best settings" in page and "fresh games" in page
    # the closest trials, best first: the best trial's row leads the table
    closest = page.split("## The closest trials")[1].splitlines()
    rows = [line for line in closest if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == 4 and rows[0].startswith(f"| {result.best['number']} |")
    assert (out / "search.png").stat().st_size > 1000


def _threshold_search() -> tuple[list, list]:
    """The Republic at 50% with the heuristic, searched over the victory threshold."""
    targets = [tune.parse_target("farrapos", "republic=0.5@heuristic")]
    return targets, [tune.parse_search("farrapos", "victory_vp=12:40")]


def _manifest(targets, keys):
    return tune._manifest("farrapos", targets, keys, 4, 1, {})


def test_the_command_tunes_and_a_different_search_in_the_same_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "c")
    args = ["balance", "tune", "farrapos", "--target", "republic=0.5@heuristic"]
    args += ["--search", "siege=false,true", "--trials", "2", "--games-per-trial", "3"]
    assert main([*args, "--out", out, "--no-progress"]) == 0
    assert "2 trials" in capsys.readouterr().out
    other = [*args[:-4], "--trials", "2", "--games-per-trial", "5", "--out", out]
    assert main(other) == 2
    assert "different search" in capsys.readouterr().err


def test_a_trial_to_a_precision_plays_rounds_of_the_same_games_within_its_budget() -> None:
    target = [tune.parse_target("farrapos", "republic=0.4-0.6@heuristic")]
    fixed = tune.measure("farrapos", {"victory_vp": 24}, target, 40, seed=3)
    precise = tune.measure("farrapos", {"victory_vp": 24}, target, 10, 3, precision=0.08)
    (m,) = precise["targets"]
    assert m["games"] > 10 and m["games"] % 10 == 0 and m["half_width"] <= 0.08
    assert fixed["targets"][0]["games"] == 40
    # rounds of games 0, 1, 2, ...: the trial at 40 games is the fixed trial of 40
    capped = tune.measure("farrapos", {"victory_vp": 24}, target, 10, 3, 0.01, 40)
    assert capped == fixed
    assert capped["targets"][0]["half_width"] > 0.01  # its budget stopped it
    assert not tune.in_band(target, capped["targets"], 0.01)


def test_a_printed_number_moved_is_a_rule_change_and_reported_apart(tmp_path: Path) -> None:
    printed = RuleSource(True, 24, "rulebook l.128")
    bonus = RuleSource(False, 3, "reconstructed", off_at=0)
    assert printed.changes_rule(20) and not printed.changes_rule(24)
    assert bonus.changes_rule(0) and not bonus.changes_rule(5)
    assert not RuleSource(False, 28, "reconstructed").changes_rule(16)
    targets = [tune.parse_target("farrapos", "republic=0.4-0.6@heuristic")]
    keys = [tune.parse_search("farrapos", k) for k in ("victory_vp=23:24", "ports_bonus=0:6")]
    budget = tune.TrialBudget(0.2, 40, {"victory_vp": printed, "ports_bonus": bonus})
    out = tmp_path / "t"
    tune.run_tune("farrapos", targets, keys, 8, 10, out, seed=1, budget=budget)
    text = (out / tune.REPORT).read_text()
    assert "## The closest tunings of reconstructed numbers" in text
    assert "## The closest rule changes" in text
    assert "`victory_vp` printed (24, rulebook l.128)" in text
    assert "| in the band |" in text and "in rounds from 10, at most 40 games" in text
    assert "On the search's games the best settings are " in text
    assert "; on fresh games they are " in text
    moved, kept = text.split("## The closest rule changes")[1], text.split("## The closest")[1]
    for line in (x for x in kept.splitlines() if x.startswith("| ") and x[2].isdigit()):
        assert line.split(" | ")[1] == "24" and line.split(" | ")[2] != "0"
    for line in (x for x in moved.splitlines() if x.startswith("| ") and x[2].isdigit()):
        assert line.split(" | ")[1] == "23" or line.split(" | ")[2] == "0"
    assert tune.finished_tune("farrapos", targets, keys, 8, 10, out, 1, budget=budget)
    assert not tune.finished_tune("farrapos", targets, keys, 8, 10, out, 1)  # another search
    with pytest.raises(OptionError, match="goes with a precision"):
        tune.run_tune(
            "farrapos", targets, keys, 1, 10, tmp_path / "u", budget=tune.TrialBudget(most=40)
        )


def test_a_time_budget_begins_no_trial_after_it_and_a_run_again_continues_the_study(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    targets, keys = _threshold_search()
    out = tmp_path / "t"
    clock = {"now": 100.0}
    real = tune.measure

    def one_minute_a_trial(*args, **kw):
        clock["now"] += 60.0
        return real(*args, **kw)

    monkeypatch.setattr(tune.time, "perf_counter", lambda: clock["now"])
    monkeypatch.setattr(tune, "measure", one_minute_a_trial)
    cut = tune.run_tune("farrapos", targets, keys, 5, 4, out, seed=1, confirm=False, seconds=150)
    assert (cut.trials, cut.ran) == (3, 3)  # begun at 0, 60 and 120 s; none at 180 s
    report = (out / "tune.md").read_text()
    assert "The time budget stopped the search at 3 of the 5 trials asked" in report
    assert report.startswith("# Tuning farrapos\n\n**The time budget")
    done = tune.run_tune("farrapos", targets, keys, 5, 4, out, seed=1, confirm=False)
    assert (done.trials, done.ran) == (5, 2)
    assert "time budget stopped" not in (out / "tune.md").read_text()
