"""Skill ladders: the verdict of each question across the rungs, and the skill depth."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardsim import OptionError
from boardsim.cli import main
from boardsim.research import skill, sweep
from boardsim.research.report import summarize


def test_the_ladder_climbs_from_random_to_mcts_at_n_and_4n_then_the_shipped_network() -> None:
    assert skill.skill_rungs("farrapos", 10) == [
        "random",
        "heuristic",
        "mcts:10",
        "mcts:40",
        "alphazero",
    ]
    # Hispania's network was trained at the medium level; it plays the others too
    assert skill.skill_rungs("hispania", 10) == [
        "random",
        "heuristic",
        "mcts:10",
        "mcts:40",
        "alphazero",
    ]
    assert skill.learned_rungs("hispania", [{"level": "7-5-4-5-1"}, {"terror": True}]) == [
        "alphazero"
    ]
    assert skill.depth_pairs(4, 3) == ["mcts:8/mcts:4", "mcts:16/mcts:8", "mcts:32/mcts:16"]
    words = skill.expand_skill_words(["rungs:5", "depth:2"], "farrapos")
    assert words == ["random", "heuristic", "mcts:5", "mcts:20", "alphazero", *skill.depth_pairs(2)]


def test_the_older_grid_word_ladder_still_reads_as_rungs_with_a_deprecation_warning() -> None:
    with pytest.warns(DeprecationWarning, match="skill=rungs:5"):
        words = skill.expand_skill_words(["ladder:5"], "farrapos")
    assert words == skill.expand_skill_words(["rungs:5"], "farrapos")
    with pytest.warns(DeprecationWarning, match="write skill=rungs"):
        grid = sweep.parse_grid("liberation", ["num_players=2,3", "skill=ladder"])
    assert grid == sweep.parse_grid("liberation", ["num_players=2,3", "skill=rungs"])


def test_the_network_is_a_rung_only_where_it_plays_every_cell(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # the race's network was made for 2 players: no rung of a sweep over 2 and 3 players
    assert skill.learned_rungs("liberation", [{"num_players": 2}]) == ["alphazero"]
    assert skill.learned_rungs("liberation", [{"num_players": 2}, {"num_players": 3}]) == []
    grid = sweep.parse_grid("liberation", ["num_players=2,3", "skill=rungs:10"])
    assert grid["skill"] == ["random", "heuristic", "mcts:10", "mcts:40"]
    # the grid's keys keep their order, the skill key expanded where it stands
    grid = sweep.parse_grid(
        "liberation", ["skill=rungs:10", "game_end=at_once,end_of_round"], {"num_players": 2}
    )
    assert list(grid) == ["skill", "game_end"] and grid["skill"][-1] == "alphazero"
    monkeypatch.setenv("BOARDSIM_AGENTS", str(tmp_path))  # no network shipped: no rung
    assert skill.skill_rungs("farrapos", 10)[-1] == "mcts:40"


def test_a_verdict_significant_the_same_way_everywhere_holds() -> None:
    effects = [(0.2, 0.1, 0.3), (0.21, 0.12, 0.3), (0.19, 0.1, 0.28)]
    assert skill.verdict(["a", "b", "c"], effects)["verdict"] == "holds"


def test_a_verdict_that_rises_significantly_with_skill_grows_and_one_that_falls_shrinks() -> None:
    assert skill.verdict(["a", "b"], [(0.1, 0.05, 0.15), (0.4, 0.35, 0.45)])["verdict"] == "grows"
    assert skill.verdict(["a", "b"], [(-0.4, -0.45, -0.35), (-0.1, -0.15, -0.05)])["verdict"] == (
        "shrinks"
    )


def test_a_verdict_found_at_one_skill_only_is_flagged() -> None:
    out = skill.verdict(
        ["random", "heuristic", "mcts:25"],
        [(0.3, 0.2, 0.4), (0.0, -0.1, 0.1)] * 1 + [(0.02, -0.08, 0.12)],
    )
    assert out["verdict"] == "one skill only" and out["flag"] and out["at"] == "random"


def test_verdicts_that_change_sign_reverse_and_none_at_all_is_no_effect() -> None:
    assert skill.verdict(["a", "b"], [(0.2, 0.1, 0.3), (-0.2, -0.3, -0.1)])["verdict"] == "reverses"
    assert (
        skill.verdict(["a", "b"], [(0.0, -0.1, 0.1), (0.05, -0.1, 0.2)])["verdict"] == "no effect"
    )


def test_a_pair_needs_a_seat_key_to_place_the_agent_under_test() -> None:
    grid = sweep.parse_grid("farrapos", ["skill=mcts:4/mcts:2"])
    with pytest.raises(OptionError, match="seat key"):
        sweep.plan_cells("farrapos", grid, ["heuristic"])


def test_skill_values_are_checked_agents() -> None:
    with pytest.raises(OptionError, match="compiled policies"):
        sweep.parse_grid("farrapos", ["skill=random,greedy"])


def test_a_ladder_sweep_plays_every_seat_with_the_rungs_agent(tmp_path: Path) -> None:
    grid = sweep.parse_grid("farrapos", ["skill=random,heuristic,mcts:4"])
    cells, _ = sweep.plan_cells("farrapos", grid, ["ignored"])
    assert [c.policies for c in cells] == [
        ("random", "random"),
        ("heuristic", "heuristic"),
        ("mcts:4", "mcts:4"),
    ]
    sweep.run_sweep("farrapos", grid, ["heuristic"], 4, tmp_path / "s", seed=1)
    summary = summarize(tmp_path / "s")
    questions = summary["rungs"]
    assert questions[0]["question"].startswith("first-seat advantage")
    assert questions[0]["rungs"] == ["random", "heuristic", "mcts:4"]
    assert len(questions[0]["effects"]) == 3


def test_the_depth_rungs_play_the_doubled_budget_in_every_seat(tmp_path: Path) -> None:
    grid = sweep.parse_grid("farrapos", ["skill=depth:2", "seat=all"])
    cells, _ = sweep.plan_cells("farrapos", grid, ["ignored"])
    assert [c.policies for c in cells[:2]] == [("mcts:4", "mcts:2"), ("mcts:2", "mcts:4")]
    out = tmp_path / "d"
    args = ["balance", "farrapos", "--grid", "skill=mcts:4/mcts:2", "--grid", "seat=all"]
    assert (
        main([*args, "--games-per-cell", "2", "--out", str(out), "--no-progress", "--report"]) == 0
    )
    depth = summarize(out)["depth"]
    assert depth[0]["pair"] == "mcts:4/mcts:2" and depth[0]["games"] == 4
    assert "## Skill depth" in (out / "report.md").read_text()


def test_a_grid_of_many_points_asks_the_side_question_once_pooled() -> None:
    rows = [
        {"skill": g, "level": lv, "num_players": 2, "winners": "0" if k % 2 else "1"}
        for g in ("random", "heuristic")
        for lv in range(30)
        for k in range(4)
    ]
    questions = skill.rung_questions(
        rows, ["level", "skill"], lambda r: r["winners"] == "0", "Rome", seatwise=True
    )
    sides = [q for q in questions if q["question"].startswith("first-seat")]
    assert [q["question"] for q in sides] == ["first-seat advantage (all)"]
    assert sides[0]["effects"][0][0] == 0.0  # seat 0 wins half: no advantage


def test_a_verdict_gone_at_the_strongest_rung_fades_and_is_flagged() -> None:
    # the ladder of Farrapos: the Empire's edge at heuristic and MCTS 10, none at MCTS 40
    effects = [
        (-0.1, -0.21, 0.03),
        (-0.37, -0.43, -0.26),
        (-0.27, -0.36, -0.15),
        (0.02, -0.1, 0.14),
    ]
    out = skill.verdict(["random", "heuristic", "mcts:10", "mcts:40"], effects)
    assert out["verdict"] == "fades" and out["flag"]


def test_an_answer_is_the_games_only_where_the_two_strongest_rungs_agree() -> None:
    # the Farrapos sides at 2,000 games a cell (issue 36): the heuristic's Empire wins
    # 90.7%, the network's Republic 63.3%: the strongest rungs disagree
    split = skill.verdict(
        ["heuristic", "alphazero"], [(-0.407, -0.42, -0.394), (0.133, 0.112, 0.154)]
    )
    assert split["settled"] is False and split["disagree"] == ["heuristic", "alphazero"]
    agree = skill.verdict(
        ["random", "mcts:10", "mcts:40"], [(0.3, 0.2, 0.4)] + [(0.1, 0.0, 0.2)] * 2
    )
    assert agree["settled"] is True
    assert skill.verdict(["heuristic"], [(0.1, 0.05, 0.15)])["settled"] is None


def test_p_values_read_off_an_interval_and_holm_keeps_what_survives_the_family() -> None:
    assert skill.p_value((0.0, -0.1, 0.1)) == 1.0
    assert abs(skill.p_value((0.1, 0.0, 0.2)) - 0.05) < 1e-3  # 0 at the interval's edge
    assert skill.p_value((float("nan"), float("nan"), float("nan"))) == 1.0
    # Holm: 0.01 <= 0.05/4, 0.02 > 0.05/3 stops there, whatever comes after
    assert skill.holm([0.04, 0.01, 0.02, 0.9]) == [False, True, False, False]
    assert skill.holm([0.001, 0.01, 0.02]) == [True, True, True]


def test_a_significant_hit_lost_among_many_comparisons_is_no_effect() -> None:
    """One question of twenty just past 0 at one rung: alone it counts, corrected over the
    family it does not."""
    hit = [(0.1, 0.001, 0.2), (0.0, -0.1, 0.1)]
    alone = skill.verdict(["a", "b"], hit)
    assert alone["verdict"] == "one skill only"
    asked = [("hit", hit)] + [(f"q{i}", [(0.0, -0.1, 0.1)] * 2) for i in range(19)]
    out = skill.corrected_verdicts(["a", "b"], asked)
    assert out[0]["verdict"] == "no effect" and out[0]["significant"] == [False, False]
    assert {q["family"] for q in out} == {40} and {q["correction"] for q in out} == {"holm"}
    strong = skill.corrected_verdicts(["a", "b"], [("big", [(0.3, 0.25, 0.35)] * 2), *asked[1:]])
    assert strong[0]["verdict"] == "holds"  # a clear effect survives the correction
