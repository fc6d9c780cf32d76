"""The report at two skills: the levels ranked at each rung with their intervals, and the
variants' effects one table a rung (pooled over skills they would mislead)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardsim.research import sweep
from boardsim.research.report import level_ranking, markdown, ranking_lines, summarize


def _cell(level: str, agent: str, wins: int, games: int = 10) -> dict[str, Any]:
    rate = wins / games
    subject = {"wins": wins, "games": games, "rate": rate, "low": rate - 0.1, "high": rate + 0.1}
    return {"point": {"level": level, "skill": agent}, "agents": [agent], "subject": subject}


def test_the_levels_are_ranked_at_each_rung_the_easiest_first() -> None:
    summary = {
        "whose": "Rome",
        "difficulty": {"option": "level", "parameters": [], "values": []},
        "cells": [
            _cell("a", "heuristic", 2),
            _cell("a", "mcts:200", 9),
            _cell("b", "heuristic", 7),
            _cell("b", "mcts:200", 5),
            _cell("c", "heuristic", 5),
            _cell("c", "mcts:200", 8),
        ],
    }
    ranking = level_ranking(summary)
    assert ranking is not None and ranking["rungs"] == ["heuristic", "mcts:200"]
    assert [e["level"] for e in ranking["levels"]] == ["b", "c", "a"]
    assert [e["ranks"]["mcts:200"] for e in ranking["levels"]] == [3, 2, 1]
    text = "\n".join(ranking_lines(summary))
    assert "## The levels ranked by the win rate of Rome" in text
    assert (
        "| level | heuristic [95%] | rank at heuristic | mcts:200 [95%] | rank at mcts:200 |"
        in text
    )
    assert "| b | 70.0% [60.0%, 80.0%] | 1 | 50.0% [40.0%, 60.0%] | 3 |" in text
    assert level_ranking({"cells": summary["cells"]}) is None  # no difficulty swept


def test_the_variants_get_one_table_a_rung(tmp_path: Path) -> None:
    grid = sweep.parse_grid("hispania", ["variant=none,ingenivm", "skill=random,heuristic"])
    out = tmp_path / "v"
    sweep.run_sweep("hispania", grid, ["heuristic"], 2, out, base_options={"level": "6-5-4-5-1"})
    summary = summarize(out)
    assert set(summary["variants_by_skill"]) == {"random", "heuristic"}
    assert "variants" not in summary
    text = markdown(summary, {})
    assert "## Variants" in text
    assert "At `skill=random`: against no variant" in text
    assert "At `skill=heuristic`: against no variant" in text
