"""Meta-game analysis: equilibria and α-Rank on games whose answers are known, then a
population sweep's report."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardsim import OptionError
from boardsim.research import metagame, sweep
from boardsim.research.report import summarize, write_report

# rock, paper, scissors: each beats one and loses to the other
RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])


def test_rock_paper_scissors_has_the_uniform_equilibrium_and_alpharank() -> None:
    x, y, v = metagame.zero_sum_nash(RPS - RPS.T)
    np.testing.assert_allclose(x, [1 / 3] * 3, atol=1e-6)
    np.testing.assert_allclose(y, [1 / 3] * 3, atol=1e-6)
    assert v == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(metagame.alpharank([RPS]), [1 / 3] * 3, atol=1e-6)


def test_a_strategy_that_beats_everyone_takes_every_weight() -> None:
    # agent 0 beats 1 and 2; 1 beats 2
    m = np.array([[0.5, 0.8, 0.9], [0.2, 0.5, 0.7], [0.1, 0.3, 0.5]])
    x, _, _ = metagame.zero_sum_nash(m - m.T)
    np.testing.assert_allclose(x, [1, 0, 0], atol=1e-6)
    ranks = metagame.alpharank([m])
    assert ranks[0] > 0.99


def test_matching_pennies_between_two_sides_mixes_half_and_half() -> None:
    # the first seat wins when the sides match
    r = np.array([[1.0, 0.0], [0.0, 1.0]])
    x, y, v = metagame.zero_sum_nash(r)
    np.testing.assert_allclose(x, [0.5, 0.5], atol=1e-6)
    np.testing.assert_allclose(y, [0.5, 0.5], atol=1e-6)
    assert v == pytest.approx(0.5)
    ranks = metagame.alpharank([r, 1 - r])  # a cycle through the four profiles
    np.testing.assert_allclose(ranks, np.full((2, 2), 0.25), atol=1e-6)


def test_a_side_that_wins_whatever_it_plays_gives_the_other_side_its_best_reply() -> None:
    # the first seat wins 90% with agent 0, whatever the second seat plays; 1 is weaker
    r = np.array([[0.9, 0.95], [0.6, 0.7]])
    x, y, v = metagame.zero_sum_nash(r)
    np.testing.assert_allclose(x, [1, 0], atol=1e-6)
    np.testing.assert_allclose(y, [1, 0], atol=1e-6)  # the second seat's best reply
    assert v == pytest.approx(0.9)
    ranks = metagame.alpharank([r, 1 - r])
    assert ranks[0, 0] > 0.99


def test_fixation_is_neutral_at_equal_payoffs_and_sure_for_a_much_fitter_mutant() -> None:
    assert metagame.fixation(0.0, 50, 50) == pytest.approx(1 / 50)
    assert metagame.fixation(1.0, 50, 50) == pytest.approx(1.0)
    assert metagame.fixation(-1.0, 50, 50) == pytest.approx(0.0, abs=1e-12)
    assert 0 < metagame.fixation(0.01, 50, 50) < 1


def test_a_population_is_at_least_two_different_agents() -> None:
    assert metagame.population_pairs(["a", "b"]) == ["a/a", "a/b", "b/a", "b/b"]
    with pytest.raises(OptionError):
        metagame.population_pairs(["a", "a"])


def test_a_population_sweep_reports_its_matrices_and_who_carries_weight(tmp_path: Path) -> None:
    grid = sweep.parse_grid("farrapos", ["skill=population:random+heuristic", "seat=all"])
    sweep.run_sweep("farrapos", grid, ["ignored"], 6, tmp_path / "p", seed=5)
    meta = summarize(tmp_path / "p")["metagame"]
    assert meta["agents"] == ["random", "heuristic"]
    games = np.array(meta["symmetric"]["games"])
    assert (games == 12).all()  # 6 games in each of the two seats
    two = np.array(meta["two_sided"]["games"])
    assert (two == 12).all()  # every game seen from the first seat's view
    assert sum(meta["alpharank"]) == pytest.approx(1.0)
    page = write_report(tmp_path / "p").read_text()
    assert "## Meta-game of the population" in page and "Dominant agent" in page
