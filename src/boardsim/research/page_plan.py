"""A plan before a page's run: the games each cell needs and what they cost, measured.

::

    boardsim balance docs farrapos --precision 0.01 --plan

:func:`plan_page` plays a few pilot games of each rung of each question of a game's
balance page (and of each skill a tuning's targets play) on one core, and from them
estimates, per question and rung, the games a cell needs for its precision (its seats'
win rates as the pilot measured them, :func:`games_for`) and the seconds they cost on
this machine; then the total, and the hours a Ray cluster of N cores would take
(:func:`cluster_seconds`). The lead sizes a run with it before spending the hour.

The pilot of a rung plays the first :data:`PILOT_CELLS` of its cells (a level sweep's 243
cells share their rung's cost and rates), each ``pilot`` games after one game that loads
the compiled code; a pilot of a few games is noisy, so a rate is smoothed (``(w + 1) /
(n + 2)``) before it sizes a cell, and the estimate is the plan's, not the run's.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardsim.api import make_game
from boardsim.core.game import BalanceQuestion, BalanceTuning, RestrictedPlay
from boardsim.research.cells import Cell, make_cell, parse_grid, plan_cells, play_cell
from boardsim.research.metrics import winners
from boardsim.research.pages import (
    PageRun,
    check_titles,
    question_agents,
    questions,
    restricted,
    restricted_games,
    trial_precision,
    tunings,
)
from boardsim.research.precision import (
    CLUSTERS,
    cell_precision,
    cluster_time,
    duration_words,
    is_search_cell,
)
from boardsim.research.restricted import advantage, greedy_search_gap
from boardsim.research.stats import Z95
from boardsim.research.tune import parse_target

PILOT_CELLS = 3  # cells of a rung a pilot plays; the rung's other cells share their measure


@dataclass
class RungPlan:
    """One rung of one section: its cells, the games each needs, and their cost."""

    section: str
    rung: str
    search: bool
    cells: int
    precision: float | None
    games_per_cell: int
    seconds_per_game: float
    longest_cell: float = field(default=0.0)  # seconds of its dearest cell (Ray's floor)

    @property
    def games(self) -> int:
        """Every cell's games."""
        return self.cells * self.games_per_cell

    @property
    def seconds(self) -> float:
        """The rung's estimated seconds on one core."""
        return self.games * self.seconds_per_game


def games_for(
    wins: Sequence[int], pilot: int, precision: float, first: int, most: int | None
) -> int:
    """The games a cell needs for ``precision``: its seats' rates (``wins`` of ``pilot``
    games, smoothed) in the normal approximation, in whole first rounds of ``first``,
    at least one, at most ``most``."""
    spread = max(((w + 1) / (pilot + 2)) * (1 - (w + 1) / (pilot + 2)) for w in wins)
    needed = max(Z95**2 * spread / precision**2, Z95**2 / (2 * precision))
    games = max(first, math.ceil(needed / first) * first)
    return games if most is None else min(games, most)


def cluster_seconds(plans: Sequence[RungPlan], cores: int) -> float:
    """The seconds a Ray cluster of ``cores`` would take: the work shared evenly, but no
    less than the dearest cell (a cell's rounds follow one another, one task each)."""
    dearest = max((p.longest_cell for p in plans), default=0.0)
    return cluster_time(sum(p.seconds for p in plans), dearest, cores)


def pilot(
    game_name: str, cells: Sequence[Cell], games: int, seed: int
) -> tuple[float, list[list[int]]]:
    """Play ``games`` games of each of ``cells`` on one core (after one that loads the
    compiled code); the seconds a game and each cell's wins by seat."""
    spent, played, wins = 0.0, 0, []
    for cell in cells:
        play_cell(game_name, cell, 1, seed, threads=1)
        start = time.process_time()
        out = play_cell(game_name, cell, games, seed, threads=1, first_game=1)
        spent += time.process_time() - start
        played += games
        counts = [0] * cell.num_players
        for returns in np.asarray(out["returns"], float):
            for s in winners(returns):
                counts[s] += 1
        wins.append(counts)
    return spent / max(played, 1), wins


def plan_question(
    game_name: str, question: BalanceQuestion, run: PageRun, games: int
) -> list[RungPlan]:
    """The plan of one question: per rung, its cells, the games each needs, their cost."""
    options = dict(question.options)
    grid = parse_grid(game_name, list(question.grid), options)
    cells, _ = plan_cells(game_name, grid, question_agents(question), options)
    by_rung: dict[str, list[Cell]] = {}
    for c in cells:
        by_rung.setdefault(",".join(dict.fromkeys(c.policies)), []).append(c)
    return [
        _rung_plan(game_name, question.title, rung, group, run, run.games(question), games)
        for rung, group in by_rung.items()
    ]


def _rung_plan(
    game_name: str,
    section: str,
    rung: str,
    cells: Sequence[Cell],
    run: PageRun,
    first: int,
    games: int,
) -> RungPlan:
    cost, wins = pilot(game_name, cells[:PILOT_CELLS], games, run.seed)
    precision = None
    if run.precision is None:
        per_cell = first
    else:
        precision = cell_precision(cells[0].policies, run.precision, run.search_precision)
        per_cell = max(games_for(w, games, precision, first, run.max_games_per_cell) for w in wins)
    plan = RungPlan(
        section, rung, is_search_cell(cells[0].policies), len(cells), precision, per_cell, cost
    )
    plan.longest_cell = per_cell * cost
    return plan


def plan_tuning(game_name: str, tuning: BalanceTuning, run: PageRun, games: int) -> list[RungPlan]:
    """The plan of one tuning: per skill of its targets, every trial's games (and the
    fresh games of the best settings) at the game's default options."""
    skills = list(dict.fromkeys(parse_target(game_name, t).skill for t in tuning.targets))
    plans = []
    for skill in skills:
        cell = make_cell(game_name, {"skill": skill}, (skill,))
        cost, wins = pilot(game_name, [cell], games, run.seed)
        first = run.games(tuning)
        precision, most = trial_precision(tuning, run)
        per_trial = first
        if precision is not None:
            per_trial = games_for(wins[0], games, precision, first, most)
        plan = RungPlan(
            tuning.title,
            skill,
            is_search_cell(cell.policies),
            tuning.trials + 1,
            precision,
            per_trial,
            cost,
        )
        plan.longest_cell = per_trial * cost
        plans.append(plan)
    return plans


def _timed(measure: Callable[[int, int], Any], games: int) -> float:
    """The seconds a game of ``measure(games, seed)``'s two tables, on this core (after a
    call of 2 games that loads the compiled code)."""
    measure(2, 0)
    start = time.process_time()
    measure(max(2, games), 1)
    return (time.process_time() - start) / (2 * max(2, games))


def plan_restricted(
    game_name: str, play: RestrictedPlay, run: PageRun, games: int
) -> list[RungPlan]:
    """The plan of one restricted-play section: its tables (the agent against itself and
    against itself forbidden each family; the gap's two) of a fixed number of games, each
    table's cost from ``games`` pilot games of one family's measure (of the gap's)."""
    game = make_game(game_name, **play.options)
    families = list(play.families) or list(game.definition.action_families)
    per_measure, per_gap = restricted_games(play, run)
    first = f"restricted:{families[0]}:{play.agent}"
    cost = _timed(lambda n, seed: advantage(game, play.agent, first, n, seed), games)
    plans = [RungPlan(play.title, play.agent, False, len(families) + 1, None, per_measure, cost)]
    if play.gap is not None:
        gap = play.gap
        cost = _timed(lambda n, seed: greedy_search_gap(game, gap, n, seed), games)
        plans.append(RungPlan(play.title, f"{gap} and greedy", True, 2, None, per_gap, cost))
    for plan in plans:
        plan.longest_cell = plan.games_per_cell * plan.seconds_per_game
    return plans


def plan_page(
    game_name: str,
    run: PageRun,
    games: int = 8,
    only: Sequence[str] = (),
    say: Callable[[str], None] | None = None,
) -> list[RungPlan]:
    """The plan of ``game_name``'s page (or of the sections ``only`` names): every rung of
    every question and tuning, and every restricted-play section's tables, priced from
    ``games`` pilot games on this machine."""
    check_titles(game_name, only)
    plans: list[RungPlan] = []
    for q in questions(game_name):
        if not only or q.title in only:
            if say is not None:
                say(f"{game_name}: piloting {q.title}")
            plans += plan_question(game_name, q, run, games)
    for t in tunings(game_name):
        if not only or t.title in only:
            if say is not None:
                say(f"{game_name}: piloting {t.title}")
            plans += plan_tuning(game_name, t, run, games)
    for r in restricted(game_name):
        if not only or r.title in only:
            if say is not None:
                say(f"{game_name}: piloting {r.title}")
            plans += plan_restricted(game_name, r, run, games)
    return plans


def describe_plan(
    game_name: str, plans: Sequence[RungPlan], games: int, clusters: Sequence[int] = CLUSTERS
) -> str:
    """The plan as text: one line a rung (its cells, the games each needs, its seconds
    on one core of this machine), each section's total, the page's, and a Ray cluster's."""
    lines = [
        f"plan of the {game_name} page ({games} pilot games a cell, one core of this machine; "
        "a tuning's cells are its trials and the fresh games of the best):"
    ]
    sections: dict[str, list[RungPlan]] = {}
    for p in plans:
        sections.setdefault(p.section, []).append(p)
    for title, group in sections.items():
        lines.append(f"{title}: {duration_words(sum(p.seconds for p in group))}")
        for p in group:
            asked = "fixed" if p.precision is None else f"±{100 * p.precision:g} pts"
            kind = "search" if p.search else "scripted/network"
            lines.append(
                f"  {p.rung} ({kind}, {asked}): {p.cells} cells x {p.games_per_cell} games, "
                f"{1000 * p.seconds_per_game:.2f} ms a game, {duration_words(p.seconds)}"
            )
    total = sum(p.seconds for p in plans)
    lines.append(f"total: {sum(p.games for p in plans)} games, {duration_words(total)} on one core")
    for cores in clusters:
        lines.append(
            f"  a Ray cluster of {cores} cores: {duration_words(cluster_seconds(plans, cores))}"
        )
    lines.append(
        "(a cluster's figure prices the same work as Ray tasks, one a cell's round, a "
        "tuning's trials as parallel workers; a cell's rounds follow one another, so its "
        "dearest cell is its floor)"
    )
    return "\n".join(lines)


def plan_summary(plans: Sequence[RungPlan]) -> Mapping[str, Any]:
    """The plan's totals as plain data: games, seconds on one core, per cluster size."""
    return {
        "games": sum(p.games for p in plans),
        "seconds": sum(p.seconds for p in plans),
        "clusters": {n: cluster_seconds(plans, n) for n in CLUSTERS},
    }
