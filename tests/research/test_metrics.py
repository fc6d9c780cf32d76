"""The balance metrics on constructed game traces whose values are known by hand."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from boardsim.research import metrics
from boardsim.research.traces import from_games

DOC = Path(__file__).resolve().parents[2] / "docs" / "guides" / "balance-metrics.md"


def two_player(values: list[tuple[float, float]], returns: tuple[float, float], **kw) -> dict:
    return {"legal": kw.pop("legal", [2] * len(values)), "values": values, "returns": returns, **kw}


# ------------------------------------------------------------------ outcomes
def test_balance_is_one_minus_the_largest_gap_between_seats() -> None:
    # three players: seat 0 wins 6 of 10, seat 1 wins 3, seat 2 wins 1 -> 1 - (0.6 - 0.1)
    returns = [[1, -1, -1]] * 6 + [[-1, 1, -1]] * 3 + [[-1, -1, 1]]
    out = metrics.outcome_metrics(np.array(returns), np.zeros(10, bool))
    assert out["balance"]["value"] == pytest.approx(0.5)
    assert out["balance"]["low"] <= 0.5 <= out["balance"]["high"]
    assert [s["value"] for s in out["seats"]] == pytest.approx([0.6, 0.3, 0.1])


def test_a_game_every_seat_wins_equally_often_has_balance_one() -> None:
    returns = [[1, -1], [-1, 1]] * 5
    out = metrics.outcome_metrics(np.array(returns), np.zeros(10, bool))
    assert out["balance"]["value"] == 1.0
    assert out["first_player"]["value"] == 0.5
    assert out["first_player_advantage"]["value"] == 0.0


def test_first_player_advantage_is_seat_0s_rate_over_its_fair_share() -> None:
    # four players, seat 0 wins half the games: 0.5 - 0.25
    returns = [[1, 0, 0, 0], [0, 1, 0, 0]] * 4
    out = metrics.outcome_metrics(np.array(returns), np.zeros(8, bool))
    assert out["first_player"]["value"] == 0.5
    assert out["first_player_advantage"]["value"] == pytest.approx(0.25)
    lo, hi = metrics.proportion(4, 8).low, metrics.proportion(4, 8).high
    assert out["first_player_advantage"]["low"] == pytest.approx(lo - 0.25)
    assert out["first_player_advantage"]["high"] == pytest.approx(hi - 0.25)


def test_outcomes_tell_draws_losses_to_the_game_truncations_and_completion_apart() -> None:
    returns = np.array(
        [
            [1, 1, -1],  # players 0 and 1 share a win
            [0, 0, 0],  # a draw
            [-1, -1, -1],  # everybody lost to the game
            [0, 0, 0],  # cut by max_decisions
            [-1, 1, -1],
        ]
    )
    truncated = np.array([False, False, False, True, False])
    out = metrics.outcome_metrics(returns, truncated)
    assert out["draws"]["value"] == pytest.approx(1 / 5)
    assert out["lost_to_game"]["value"] == pytest.approx(1 / 5)
    assert out["truncations"]["value"] == pytest.approx(1 / 5)
    assert out["completion"]["value"] == pytest.approx(3 / 5)
    assert [s["value"] for s in out["seats"]] == pytest.approx([0.2, 0.4, 0.0])


def test_side_advantage_counts_a_side_won_when_any_of_its_players_won() -> None:
    # players 0 and 1 are one side, player 2 the other: the side of 0/1 wins 3 of 4
    returns = np.array([[1, -1, -1], [-1, 1, -1], [1, 1, -1], [-1, -1, 1]])
    out = metrics.outcome_metrics(returns, np.zeros(4, bool), teams=[0, 0, 1])
    assert out["sides"]["0"]["value"] == 0.75 and out["sides"]["1"]["value"] == 0.25
    assert out["side_gap"]["value"] == pytest.approx(0.5)


def test_a_lone_side_has_no_side_gap_and_a_lone_player_no_balance() -> None:
    out = metrics.outcome_metrics(np.array([[1.0], [-1.0]]), np.zeros(2, bool))
    assert out["balance"] is None and out["side_gap"] is None
    assert out["seats"][0]["value"] == 0.5 and out["lost_to_game"]["value"] == 0.5


# ------------------------------------------------------------------ shape
def test_length_branching_and_real_choice_average_each_game_then_the_games() -> None:
    traces = from_games(
        [
            {"legal": [1, 1, 4, 6], "values": np.zeros((4, 2)), "returns": (1, -1)},
            {"legal": [3, 1], "values": np.zeros((2, 2)), "returns": (-1, 1)},
        ],
        players=2,
    )
    out = metrics.shape_metrics(traces.decisions, metrics.per_game_metrics(traces))
    assert out["length"]["value"] == 3.0
    assert out["length_spread"]["value"] == pytest.approx(math.sqrt(2))
    # per game: (1+1+4+6)/4 = 3 and (3+1)/2 = 2
    assert out["branching"]["value"] == pytest.approx(2.5)
    # per game: 2/4 and 1/2
    assert out["real_choice"]["value"] == pytest.approx(0.5)


def test_a_game_of_forced_moves_has_no_real_choice() -> None:
    assert metrics.real_choice(np.array([1, 1, 1])) == 0.0
    assert metrics.branching(np.array([1, 1, 1])) == 1.0


# ------------------------------------------------------------------ tension
def test_lead_change_counts_the_positions_where_the_leader_changes() -> None:
    # leaders: {0}, {1}, {1}, {0, 1} (a tie), {0}: 3 changes in 4 steps
    values = np.array([[0.2, 0.1], [0.0, 0.3], [0.1, 0.4], [0.2, 0.2], [0.5, 0.1]])
    assert metrics.lead_change(values) == pytest.approx(3 / 4)


def test_a_game_led_by_one_player_throughout_has_no_lead_change() -> None:
    values = np.array([[0.1, 0.0], [0.3, -0.3], [0.6, -0.6]])
    assert metrics.lead_change(values) == 0.0
    assert metrics.lead_change(values[:1]) != metrics.lead_change(values[:1])  # nan


def test_drama_is_how_far_the_eventual_winner_trailed_on_average() -> None:
    # player 1 wins; it trails by 0.4, then 0.2, then leads: (0.4 + 0.2 + 0) / 3
    values = np.array([[0.4, 0.0], [0.1, -0.1], [-0.5, 0.5]])
    assert metrics.drama(values, (1,)) == pytest.approx(0.2)
    assert metrics.winner_behind(values, (1,)) == pytest.approx(2 / 3)
    assert metrics.drama(values, ()) != metrics.drama(values, ())  # nan: nobody won


def test_a_winner_that_always_led_gives_no_drama() -> None:
    values = np.array([[0.1, -0.1], [0.5, -0.5]])
    assert metrics.drama(values, (0,)) == 0.0
    assert metrics.winner_behind(values, (0,)) == 0.0


def test_decisiveness_is_where_the_winner_first_beats_the_losers_best() -> None:
    # the loser's best is 0.3 (position 1); the winner first exceeds it at position 3 of 5
    values = np.array([[0.0, 0.0], [0.2, 0.3], [0.3, -0.1], [0.4, -0.2], [0.9, -0.9]])
    assert metrics.decisiveness(values, (0,)) == pytest.approx(3 / 5)


def test_a_game_won_from_the_start_is_decided_at_once_and_a_comeback_late() -> None:
    ahead = np.array([[0.5, -0.5], [0.6, -0.6], [0.7, -0.7], [0.8, -0.8]])
    assert metrics.decisiveness(ahead, (0,)) == 0.0
    # the winner never beats the loser's best position: open to the end
    comeback = np.array([[-0.5, 0.5], [-0.9, 0.9], [0.1, -0.1], [0.2, -0.2]])
    assert metrics.decisiveness(comeback, (0,)) == 1.0


def test_tension_of_a_cell_averages_its_finished_games_and_skips_the_cut_ones() -> None:
    games = [
        two_player([(0.4, 0.0), (0.1, -0.1), (-0.5, 0.5)], (-1, 1)),
        two_player([(0.1, -0.1), (0.5, -0.5)], (1, -1)),
        two_player([(0.9, 0.0), (0.0, 0.9)], (0, 0), truncated=True),
    ]
    out = metrics.tension_metrics(metrics.per_game_metrics(from_games(games, players=2)))
    assert out["drama"]["n"] == 2
    assert out["drama"]["value"] == pytest.approx((0.2 + 0.0) / 2)
    assert out["lead_change"]["value"] == pytest.approx((1 / 2 + 0) / 2)
    assert out["decisiveness"]["value"] == pytest.approx((2 / 3 + 0.0) / 2)


def test_a_cell_reports_every_metric_the_docs_define() -> None:
    traces = from_games([two_player([(0.1, -0.1)], (1, -1)), two_player([], (-1, 1))], 2)
    out = metrics.cell_metrics(traces)
    assert set(metrics.METRIC_KEYS) <= set(out)


# ------------------------------------------------------------------ the docs
def test_every_metric_is_defined_once_in_the_docs_with_its_source() -> None:
    text = DOC.read_text()
    for m in metrics.METRICS:
        headings = re.findall(rf"^### {re.escape(m.title)} \(`{m.key}`\)$", text, re.M)
        assert len(headings) == 1, m.key
        section = text.split(f"### {m.title} (`{m.key}`)")[1].split("\n### ")[0]
        assert m.source.split(";")[0].split(" ")[0] in section, m.key


def test_a_shares_interval_stays_within_zero_and_one() -> None:
    e = metrics.mean_estimate([1.0, 1.0, 0.9, 1.0], bounds=metrics.SHARE)
    assert e.high == 1.0 and e.low < e.value < 1.0


# ------------------------------------------------------------------ Ludii's series
def test_the_branching_series_of_a_known_game() -> None:
    out = metrics.branching_series(np.array([1, 3, 2, 5, 5, 1]))
    assert out["branching_median"] == 3  # sorted 1 1 2 3 5 5, the value at 6 // 2
    assert out["branching_max"] == 5
    assert out["branching_variance"] == pytest.approx(np.var([1, 3, 2, 5, 5, 1]))
    assert out["branching_change"] == 0.0  # (1 - 1) / 5
    assert out["branching_change_sign"] == 0.0  # steps +2 -1 +3 0 -4
    assert out["branching_change_times"] == pytest.approx(4 / 5)  # up, down, up, (flat), down
    assert (out["branching_max_increase"], out["branching_max_decrease"]) == (3.0, -4.0)
    assert out["decision_factor"] == pytest.approx((3 + 2 + 5 + 5) / 6)  # over every decision
    assert out["decision_factor_max"] == 5
    forced = metrics.branching_series(np.array([1, 1, 1]))
    assert forced["decision_factor"] == 0.0 and forced["decision_factor_max"] == 0.0
    assert forced["branching_max_increase"] == 0.0 and forced["branching_change_times"] == 0.0


def test_the_evaluation_series_of_a_known_game() -> None:
    values = np.array([(0.1, -0.1), (0.5, -0.5), (-0.2, 0.2)])
    out = metrics.evaluation_series(values, (1,))  # seat 1 won from behind
    assert out["evaluation_difference"] == pytest.approx((0.2 + 1.0 + 0.4) / 3)
    assert out["evaluation_difference_max"] == pytest.approx(1.0)
    assert out["stability"] == pytest.approx(2 * np.var([0.1, 0.5, -0.2]))
    assert out["decisiveness_threshold"] == pytest.approx(0.5)  # the loser's best
    assert math.isnan(metrics.evaluation_series(values, ())["decisiveness_threshold"])


def test_outcome_uniformity_is_one_minus_the_players_outcome_variance() -> None:
    assert metrics.outcome_uniformity(np.array([(1.0, -1.0), (-1.0, 1.0)])) == 0.0
    assert metrics.outcome_uniformity(np.array([(1.0, -1.0)] * 3)) == 1.0
    cell = metrics.outcome_metrics(np.array([(1.0, -1.0)] * 3 + [(-1.0, 1.0)]), np.zeros(4, bool))
    assert cell["outcome_uniformity"]["value"] == pytest.approx(1 - 0.75)


def test_ludiis_advantage_p1_and_balance_are_the_raw_seat_win_rates() -> None:
    rng = np.random.default_rng(3)
    winner = rng.integers(0, 3, 200)
    returns = np.where(np.arange(3) == winner[:, None], 1.0, -1.0)
    cell = metrics.outcome_metrics(returns, np.zeros(200, bool))
    rates = [np.mean(winner == s) for s in range(3)]
    assert cell["first_player"]["value"] == pytest.approx(rates[0])
    assert cell["balance"]["value"] == pytest.approx(1 - (max(rates) - min(rates)))


def test_a_traced_cell_reports_ludiis_series_and_at_least_twenty_ludii_metrics() -> None:
    traces = from_games([two_player([(0.1, -0.1), (0.3, -0.3)], (1, -1))] * 2, 2)
    out = metrics.cell_metrics(traces)
    assert set(metrics.SERIES) <= set(out)
    ludii = {s for m in metrics.METRICS for s in m.source.split("; ") if s.startswith("Ludii ")}
    assert len(ludii) >= 20
