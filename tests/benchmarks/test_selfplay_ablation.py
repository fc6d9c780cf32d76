"""benchmarks/selfplay_ablation.py's table: runs of different budgets compared at equal
wall time (the reading of their curves, not a training)."""

from __future__ import annotations

from types import ModuleType

from tests.benchmarks.scripts import load_script


def _ablation() -> ModuleType:
    return load_script("selfplay_ablation")


def _row(iteration: int, wall: float, mistakes: float | None) -> dict:
    panel = {}
    if mistakes is not None:
        panel = {
            "mistake_rate": {"mean": mistakes, "low": mistakes - 0.05, "high": mistakes + 0.05},
            "score/heuristic": {"mean": 0.5, "low": 0.4, "high": 0.6},
        }
    return {"iteration": iteration, "wall_seconds": wall, "panel": panel}


def test_a_run_is_read_at_its_last_panel_by_the_time_asked() -> None:
    ablation = _ablation()
    curve = [
        _row(10, 90.0, 0.30),
        _row(15, 140.0, None),
        _row(20, 190.0, 0.25),
        _row(30, 260.0, 0.2),
    ]
    assert ablation.at_second(curve, "mistake_rate", 200) == "0.250 [0.200, 0.300] (it 20)"
    assert ablation.at_second(curve, "mistake_rate", 50) == "-"  # nothing measured yet
    assert ablation.at_second(curve, "mistake_rate", 400) == "-"  # the run stopped before
    result = {"name": "x", "iterations": 30, "games": 1920, "wall": 260.0, "curve": curve}
    result["command"] = "boardsim train connect_four"
    text = ablation.table([result], [200.0])
    head, rule, line = text.splitlines()[:3]
    assert head.endswith("mistakes at 200 s | vs heuristic at 200 s |")
    assert rule.count("---") == 12
    assert line.endswith("0.250 [0.200, 0.300] (it 20) | 0.500 [0.400, 0.600] (it 20) |")
