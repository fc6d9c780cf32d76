"""Tournaments: statistics on known inputs, seats rotated, files written, both kinds of game."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest

import boardsim
from boardsim.agents import RandomAgent
from boardsim.agents.mcts import MCTSAgent
from boardsim.agents.mcts import play_games as mcts_play_games
from boardsim.core.errors import OptionError
from boardsim.games import definition
from boardsim.research.players import (
    compiled_together,
    mcts_simulations,
    play_compiled,
    play_lockstep,
)
from boardsim.research.tournament import (
    bradley_terry_elo,
    bradley_terry_intervals,
    cooperative,
    round_robin,
    seat_scores,
)


def test_elo_of_a_three_to_one_score_is_log10_3_times_400() -> None:
    # no prior: the maximum likelihood gap is exactly 400 log10(3) ~ 190.8 points
    elo = bradley_terry_elo(np.array([[0, 75], [25, 0]]), np.array([[0, 100], [100, 0]]), 0.0)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3), abs=1e-3)
    assert elo.mean() == pytest.approx(1000.0)


def test_elo_orders_a_transitive_league_and_keeps_an_unbeaten_agent_finite() -> None:
    # a beats b 70%, b beats c 70%, a beats c every time
    scores = np.array([[0, 70, 100], [30, 0, 70], [0, 30, 0]], float)
    games = np.array([[0, 100, 100], [100, 0, 100], [100, 100, 0]], float)
    elo = bradley_terry_elo(scores, games)
    assert elo[0] > elo[1] > elo[2]
    assert np.all(np.isfinite(elo))


def test_elo_interval_of_two_agents_is_the_log_odds_standard_error() -> None:
    # 75-25 over 100 games with the prior draw: p = 75.5 / 101; each rating carries half
    # the gap's error, 0.5 / sqrt(101 p (1 - p)) in log-odds, 400 / ln 10 Elo a unit
    scores, games = np.array([[0, 75], [25, 0]], float), np.array([[0, 100], [100, 0]], float)
    elo = bradley_terry_elo(scores, games)
    low, high = bradley_terry_intervals(scores, games, elo)
    p = 75.5 / 101
    half = 1.959964 * 400 / math.log(10) * 0.5 / math.sqrt(101 * p * (1 - p))
    assert high - elo == pytest.approx([half, half], rel=1e-4)
    assert elo - low == pytest.approx([half, half], rel=1e-4)


def test_elo_intervals_narrow_with_games_and_widen_for_an_agent_that_met_few() -> None:
    scores = np.array([[0, 70, 100], [30, 0, 70], [0, 30, 0]], float)
    games = np.array([[0, 100, 100], [100, 0, 100], [100, 100, 0]], float)
    elo = bradley_terry_elo(scores, games)
    low, high = bradley_terry_intervals(scores, games, elo)
    low4, high4 = bradley_terry_intervals(
        scores * 4, games * 4, bradley_terry_elo(scores * 4, games * 4)
    )
    assert np.all(low < elo) and np.all(elo < high)
    assert np.all(high4 - low4 < high - low)
    # c meets only b, 10 games: its rating is the least certain
    scores = np.array([[0, 50, 0], [50, 0, 5], [0, 5, 0]], float)
    games = np.array([[0, 100, 0], [100, 0, 10], [0, 10, 0]], float)
    elo = bradley_terry_elo(scores, games)
    low, high = bradley_terry_intervals(scores, games, elo)
    assert np.argmax(high - low) == 2


def test_elo_refuses_results_that_do_not_add_up() -> None:
    with pytest.raises(ValueError, match="add up"):
        bradley_terry_elo(np.array([[0, 60], [60, 0]]), np.array([[0, 100], [100, 0]]))


def test_seat_scores_split_a_shared_win() -> None:
    assert seat_scores(np.array([1.0, -1.0])).tolist() == [1.0, 0.0]
    assert seat_scores(np.array([0.0, 0.0])).tolist() == [0.5, 0.5]
    assert seat_scores(np.array([1.0, 1.0, -1.0])).tolist() == [0.5, 0.5, 0.0]


def test_heuristic_beats_random_in_a_rotated_round_robin_and_files_are_written(tmp_path) -> None:
    result = round_robin("liberation", ["random", "heuristic"], 60, seed=3, num_players=2)
    by_pair = {(r.agent, r.opponent): r for r in result.pairs}
    h, r = by_pair[("heuristic", "random")], by_pair[("random", "heuristic")]
    assert h.games == r.games == 60
    assert h.wins == r.losses and h.draws == r.draws
    assert h.win_rate + r.win_rate == pytest.approx(1.0)
    assert h.ci_low < h.win_rate < h.ci_high or h.win_rate in (0.0, 1.0)
    assert h.win_rate > 0.8 and result.elo["heuristic"] > result.elo["random"]
    matrix = result.win_rate_matrix()
    assert np.isnan(matrix[0, 0]) and matrix[1, 0] == pytest.approx(h.win_rate)
    for a in result.agents:
        assert result.elo_low[a] < result.elo[a] < result.elo_high[a]
    text = result.table()
    assert "heuristic" in text and "Elo [95%]" in text
    assert f"{result.elo['heuristic']:.0f} [{result.elo_low['heuristic']:.0f}, " in text
    json_path, csv_path = result.write(tmp_path / "league")
    data = json.loads(json_path.read_text())
    assert data["agents"] == ["random", "heuristic"] and data["games_per_pair"] == 60
    assert data["elo_low"] == result.elo_low and data["elo_high"] == result.elo_high
    assert data["version"] == definition("liberation").version  # the rules it was played at
    rows = list(csv.DictReader(csv_path.open()))
    assert {(row["agent"], row["opponent"]) for row in rows} == set(by_pair)
    assert float(rows[0]["elo_low"]) == result.elo_low[rows[0]["agent"]]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_same_seed_same_tournament() -> None:
    a = round_robin("liberation", ["random", "heuristic"], 20, seed=5, num_players=2)
    b = round_robin("liberation", ["random", "heuristic"], 20, seed=5, num_players=2)
    assert [p.score for p in a.pairs] == [p.score for p in b.pairs]


def test_python_agents_play_every_seat_in_lockstep() -> None:
    """A Python agent's games (lockstep) against itself: every game ends, the wins add up."""
    made = []

    def maker(spec: str, game, seed: int) -> RandomAgent:
        made.append(spec)
        return RandomAgent(seed)

    result = round_robin(
        "liberation", ["py_a", "py_b"], 12, seed=1, agent_maker=maker, num_players=3
    )
    assert set(made) == {"py_a", "py_b"}
    for pair in result.pairs:
        assert pair.games == 12 and pair.wins + pair.draws + pair.losses == 12
    # one seat against two: a random seat wins about a third, not a half
    assert {p.agent for p in result.pairs} == {"py_a", "py_b"}


def test_lockstep_games_equal_one_by_one_games() -> None:
    # first-legal players never liberate anything: the race would go round forever uncapped
    game = boardsim.make_game("liberation", num_players=2, max_decisions=1500)
    seeds = [11, 12, 13]

    class FirstLegal:
        needs_state = False

        def act(self, observation, action_mask, state=None) -> int:
            return int(np.flatnonzero(action_mask)[0])

    agent = FirstLegal()
    together, _ = play_lockstep(game, [agent, agent], seeds, parallel=3)
    alone = np.stack([play_lockstep(game, [agent, agent], [s], parallel=1)[0][0] for s in seeds])
    assert np.array_equal(together, alone)


def test_round_robin_refuses_bad_input() -> None:
    with pytest.raises(boardsim.OptionError):
        round_robin("liberation", ["random"], 10, num_players=2)
    with pytest.raises(boardsim.OptionError):
        round_robin("liberation", ["random", "random"], 10, num_players=2)
    with pytest.raises(boardsim.OptionError):
        round_robin("liberation", ["random", "heuristic"], 0, num_players=2)


def test_hispania_reports_the_roman_win_rate_at_each_level() -> None:
    result = cooperative("hispania", ["random", "heuristic"], 40, levels=["6-4-3-4-2", "7-5-4-5-1"])
    assert result.mode == "cooperative" and result.version == definition("hispania").version
    assert {(r.agent, r.level) for r in result.solo} == {
        (a, lv) for a in ("random", "heuristic") for lv in ("6-4-3-4-2", "7-5-4-5-1")
    }
    for r in result.solo:
        assert r.games == 40 and 0 <= r.wins <= 40
        assert r.ci_low <= r.win_rate <= r.ci_high
    assert "7-5-4-5-1" in result.table()
    with pytest.raises(boardsim.OptionError):
        round_robin("hispania", ["random", "heuristic"], 4)


def test_mcts_specs_play_compiled_only_with_compiled_company() -> None:
    assert mcts_simulations("mcts:30") == 30 and mcts_simulations("mcts") == 200
    assert mcts_simulations("heuristic") is None
    assert compiled_together(["mcts:30", "heuristic"]) and compiled_together(["random", "mcts"])
    # every searching seat plays with its own settings; networks (ppo too) play compiled
    assert compiled_together(["mcts:30", "mcts:40"])
    assert compiled_together(["mcts:30", "ppo:x.zip", "alphazero-mcts:8"])
    assert not compiled_together(["mcts:30", "greedy"])
    with pytest.raises(OptionError, match="simulations"):
        mcts_simulations("mcts:lots")
    # a search with settings of its own: its budget is read, its settings checked
    assert mcts_simulations("mcts:800:prior=0:rollout=random") == 800
    assert compiled_together(["mcts:30:prior=0", "mcts:30"])
    with pytest.raises(OptionError, match="not a setting"):
        mcts_simulations("mcts:30:deep")


def test_one_search_at_two_settings_plays_each_with_its_own() -> None:
    # a spec's settings reach its compiled seat: the games are those of the seat made by hand
    game = boardsim.make_game("liberation", num_players=2)
    out = play_compiled(game, ["mcts:20:prior=0:rollout=random", "mcts:20"], 6, seed=2)
    plain = MCTSAgent(game, simulations=20, prior=0.0, rollout="random").compiled_seat()
    by_hand = play_compiled(game, [plain, "mcts:20"], 6, seed=2)
    assert np.array_equal(out["returns"], by_hand["returns"])
    assert plain.label == "mcts:20:rollout=random:prior=0.0"


def test_a_compiled_mcts_run_is_the_mcts_modules_games_in_chunks() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    told: list[int] = []
    out = play_compiled(
        game, ["mcts:6", "heuristic"], 5, seed=4, first_game=2, on_chunk=told.append, chunk=2
    )
    direct = mcts_play_games(game, 5, ["mcts", "heuristic"], seed=4, first_game=2, simulations=6)
    assert np.array_equal(out["returns"], direct["returns"])
    assert np.array_equal(out["truncated"], direct["truncated"])
    assert told == [2, 2, 1]


def test_round_robin_with_mcts_reports_progress_and_scores_every_game() -> None:
    told: list[str] = []
    result = round_robin(
        "liberation", ["heuristic", "mcts:6"], 4, seed=1, progress=told.append, num_players=2
    )
    pair = next(r for r in result.pairs if r.agent == "mcts:6")
    assert pair.games == 4 and pair.wins + pair.draws + pair.losses == 4
    # two players: the pair is played once, the first agent in each seat in turn
    assert told == [
        "heuristic against mcts:6",
        "heuristic in seat 0: 2/2 games",
        "heuristic in seat 1: 2/2 games",
    ]


def test_farrapos_pairs_tell_the_republic_from_the_empire(tmp_path) -> None:
    """Seats rotated: each agent plays the Republic in the games it sits first, the Empire in
    the others; the split adds up to the pair, is the opponent's mirror, is written to the
    JSON (not the flat CSV) and printed under the matrix."""
    result = round_robin("farrapos", ["random", "heuristic"], 24, seed=4)
    by_pair = {(r.agent, r.opponent): r for r in result.pairs}
    h, r = by_pair[("heuristic", "random")], by_pair[("random", "heuristic")]
    assert [s["name"] for s in h.by_seat] == ["republic", "empire"]
    assert [s["games"] for s in h.by_seat] == [12, 12]
    assert sum(s["score"] for s in h.by_seat) == pytest.approx(h.score)
    # random in game g sits in seat g mod 2, the heuristic in the other seat
    for mine, theirs in zip(r.by_seat, reversed(h.by_seat), strict=True):
        assert mine["score"] + theirs["score"] == pytest.approx(mine["games"])
    for side in h.by_seat:
        assert side["ci_low"] <= side["win_rate"] <= side["ci_high"]
    assert "random against heuristic: republic" in result.table()
    json_path, csv_path = result.write(tmp_path / "sides")
    assert json.loads(json_path.read_text())["pairs"][0]["by_seat"] == result.pairs[0].by_seat
    assert "by_seat" not in csv_path.read_text()


def test_a_race_has_no_sides_to_print() -> None:
    result = round_robin("liberation", ["random", "heuristic"], 8, seed=1, num_players=2)
    assert [s["name"] for s in result.pairs[0].by_seat] == ["player_0", "player_1"]
    assert "each side" not in result.table()
