"""The balance report of a sweep folder: statistics, PNG plots and a Markdown page embedding them.

:func:`summarize` turns the tidy rows into the numbers (what "a win" means is chosen
by :func:`subject`: the agent under test when the sweep has a seat key, else the
side the game names as its subject (Rome in Hispania), else the first seat),
:func:`write_report` draws the plots with matplotlib (Agg, no display needed) into
``DIR/plots/`` and writes ``DIR/report.md``, both atomically.
"""

from __future__ import annotations

import io
import itertools
import json
import os
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.api import make_game
from boardsim.files import atomic_write_bytes, atomic_write_text
from boardsim.games import definition
from boardsim.research import metagame, metrics, skill, stats
from boardsim.research.cells import variants
from boardsim.research.precision import (
    CLUSTERS,
    cluster_wall_seconds,
    duration_words,
    half_width,
    is_search_cell,
)
from boardsim.research.skill import SKILL_KEY, is_pair
from boardsim.research.sweep_folder import (
    METRIC_COLUMNS,
    load_manifest,
    load_results,
    load_timings,
)

PLOTS_DIR = "plots"
REPORT = "report.md"
MAX_LABELED_CELLS = 60  # more cells than this: a ranked plot instead of one labeled bar each

Row = dict[str, Any]


# ------------------------------------------------------------------ what a win is
def subject(game: str, rows: Sequence[Row]) -> tuple[str, Callable[[Row], bool]]:
    """``(label, won)``: whose win rate the report is about.

    The agent under test when the sweep placed one (a ``seat``/``side`` key); else
    the side of seat 0 by the name the game gives it (``GameDefinition.subject``:
    Rome in Hispania, whose generals win or lose together); otherwise the first seat.
    """
    if rows and all(int(r.get("test_seat", -1)) >= 0 for r in rows):
        return ("agent under test", stats.test_agent_won)
    named = _definition(game).subject
    return (named or "first seat", lambda r: stats.seat_won(r, 0))


def whose(label: str, game: str) -> str:
    """The subject as a phrase: ``"the agent under test"``, ``"the first seat"``, or the
    game's own name for it as it stands (``"Rome"``: a name takes no article)."""
    return label if label == _definition(game).subject else f"the {label}"


def _definition(game: str) -> Any:
    return definition(game)


def grid_keys(manifest: Mapping[str, Any], rows: Sequence[Row]) -> list[str]:
    """The grid keys that vary (the columns that tell the cells apart)."""
    keys = [k for k in manifest.get("grid", {}) if rows and k in rows[0]]
    return [k for k in keys if len({r.get(k) for r in rows}) > 1] or keys


def cell_label(row: Row, keys: Sequence[str]) -> str:
    """A cell's label from the grid keys that vary: ``"num_players=3, seat=1"``."""
    return ", ".join(f"{k}={row.get(k)}" for k in keys) or "all games"


def _seatwise(game: str) -> bool:
    return _definition(game).team_of_player is None


def summarize(out: str | os.PathLike, only: Collection[str] | None = None) -> dict[str, Any]:
    """Every statistic of the report, as plain data (also saved as ``summary.json``):
    of every finished cell of the folder, or of the cells ``only`` names (their ids)."""
    manifest = load_manifest(out)
    rows = load_results(out)
    if only is not None:
        rows = [r for r in rows if r["cell"] in only]
    if not rows:
        raise ValueError(f"{out} has no finished cell yet")
    game = manifest["game"]
    keys = grid_keys(manifest, rows)
    label, won = subject(game, rows)
    by_network = set(manifest.get("valued_cells", []))
    timings = load_timings(out)
    cells = []
    for _, group in stats.group_rows(rows, ["cell"]).items():
        first = group[0]
        entry: dict[str, Any] = {
            "cell": first["cell"],
            "label": cell_label(first, keys),
            "point": {k: first.get(k) for k in keys},
            "num_players": first["num_players"],
            "agents": [first[f"agent_{s}"] for s in range(int(first["num_players"]))],
            "subject": stats.rate(sum(won(r) for r in group), len(group)).as_dict(),
            "seats": [s.as_dict() for s in stats.seat_win_rates(group)],
            "nobody_won": sum(1 for r in group if not stats.winners_of(r)) / len(group),
            "length": stats.length_summary(group),
            "margin": stats.score_margins(group),
            "values": "network" if first["cell"] in by_network else "progress",
            "half_width": half_width(group),
        }
        entry["search"] = is_search_cell(entry["agents"])
        timed = timings.get(first["cell"])
        if timed is not None:  # what its games cost where they were timed (core-seconds)
            entry["core_seconds_a_game"] = timed["core_seconds"] / timed["games"]
        entry["metrics"] = field_metrics(game, group)
        same_agents = len(set(entry["agents"])) == 1
        if same_agents and first["num_players"] > 1 and _seatwise(game):
            entry["first_seat"] = stats.first_seat_advantage(group)
        cells.append(entry)
    summary: dict[str, Any] = {
        "game": game,
        "agents": manifest["agents"],
        "games_per_cell": manifest["games_per_cell"],
        "precision": manifest.get("precision"),
        "max_games_per_cell": manifest.get("max_games_per_cell"),
        "search_precision": manifest.get("search_precision"),
        "seed": manifest["seed"],
        "base_options": manifest.get("base_options", {}),
        "grid_keys": keys,
        "subject": label,
        "whose": whose(label, game),
        "games": len(rows),
        "cells": cells,
        "overall": stats.rate(sum(won(r) for r in rows), len(rows)).as_dict(),
    }
    summary.update(_difficulty_and_variants(game, rows, won))
    summary.update(_skill_rungs(game, rows, keys, won, label))
    return summary


def _skill_rungs(
    game: str, rows: Sequence[Row], keys: Sequence[str], won: Callable[[Row], bool], label: str
) -> dict[str, Any]:
    """The skill ladder's verdicts and the skill depth (a sweep with a ``skill`` key)."""
    if skill.SKILL_KEY not in rows[0]:
        return {}
    out: dict[str, Any] = {}
    rungs = {str(r[skill.SKILL_KEY]) for r in rows}
    if len([g for g in rungs if not skill.is_pair(g)]) > 1:
        keys = [k for k in keys if k in rows[0]]
        if skill.SKILL_KEY not in keys:
            keys = [*keys, skill.SKILL_KEY]
        out["rungs"] = skill.rung_questions(
            rows, keys, won, whose(label, game), _seatwise(game), _definition(game).difficulty
        )
    population = metagame.population_agents(rows)
    if population is not None:
        out["metagame"] = metagame.analyse(rows, population)
    elif any(skill.is_pair(g) for g in rungs):
        out["depth"] = skill.skill_depth(rows)
    return out


def field_metrics(game: str, rows: Sequence[Row]) -> dict[str, Any]:
    """The metrics of the field (:mod:`boardsim.research.metrics`) over one cell's rows:
    the outcome ones always, the shape and tension ones when the sweep recorded them
    (``--metrics``)."""
    first = rows[0]
    players = int(first["num_players"])
    options = json.loads(first["options"]) if first.get("options") else {}
    teams = make_game(game, **options).teams
    returns = np.array([[float(r[f"return_{s}"]) for s in range(players)] for r in rows])
    truncated = np.array([stats.truthy(r.get("truncated")) for r in rows])
    decisions = np.array([float(r["decisions"]) for r in rows])
    per_game = None
    if "branching" in first:  # a sweep with metrics (an older one lacks the later series)
        per_game = {k: np.array([float(r[k]) for r in rows]) for k in METRIC_COLUMNS if k in first}
    return metrics.summarize_cell(returns, truncated, decisions, per_game, teams)


def _difficulty_and_variants(
    game: str, rows: Sequence[Row], won: Callable[[Row], bool]
) -> dict[str, Any]:
    """Each difficulty parameter's effect (a game with a composite difficulty option whose
    value varies) and each variant's (a sweep over ``variant`` with ``none`` in it)."""
    definition = _definition(game)
    out: dict[str, Any] = {}
    difficulty = definition.difficulty
    varied = difficulty is not None and difficulty.option in rows[0]
    if varied and len({r[difficulty.option] for r in rows}) > 1:
        out["difficulty"] = {
            "option": difficulty.option,
            "parameters": list(difficulty.parameters),
            "values": [list(v) for v in difficulty.values],
        }
        by_skill = _self_play_rungs(rows)
        if len(by_skill) > 1:  # one table a rung: pooled over skills they would mislead
            out["parameters_by_skill"] = {
                rung: stats.parameter_effects(
                    group,
                    won,
                    difficulty.parameters,
                    difficulty.values,
                    level_of=lambda r: difficulty.split(r[difficulty.option]),
                )
                for rung, group in by_skill.items()
            }
        else:
            out["parameters"] = stats.parameter_effects(
                rows,
                won,
                difficulty.parameters,
                difficulty.values,
                level_of=lambda r: difficulty.split(r[difficulty.option]),
            )
    if "variant" in rows[0] and "none" in {r["variant"] for r in rows}:
        order = variants(make_game(game))
        order += sorted({str(r["variant"]) for r in rows} - {*order, "none"})
        by_skill = _self_play_rungs(rows)
        if len(by_skill) > 1:  # one table a rung, as the parameters
            out["variants_by_skill"] = {
                rung: stats.variant_effects(group, won, order) for rung, group in by_skill.items()
            }
        else:
            out["variants"] = stats.variant_effects(rows, won, order)
    return out


def level_ranking(summary: Mapping[str, Any]) -> dict[str, Any] | None:
    """The levels of a difficulty sweep ranked by the subject's win rate at each rung
    (the cells' agents), the easiest first by the first rung: ``{"rungs", "levels":
    [{"level", "rates": {rung: rate}, "ranks": {rung: rank}}]}``; None for another sweep."""
    difficulty = summary.get("difficulty")
    if not difficulty:
        return None
    option = difficulty["option"]
    levels: dict[str, dict[str, Any]] = {}
    rungs: list[str] = []
    for c in summary["cells"]:
        if option not in c["point"]:
            return None
        rung = rung_of(c)
        rungs += [rung] if rung not in rungs else []
        levels.setdefault(str(c["point"][option]), {})[rung] = c["subject"]
    ranks = {
        rung: {
            level: i + 1
            for i, level in enumerate(
                sorted(
                    (lv for lv in levels if rung in levels[lv]),
                    key=lambda lv, rung=rung: -levels[lv][rung]["rate"],
                )
            )
        }
        for rung in rungs
    }
    order = sorted(levels, key=lambda lv: ranks[rungs[0]].get(lv, len(levels) + 1))
    return {
        "rungs": rungs,
        "levels": [
            {
                "level": lv,
                "rates": levels[lv],
                "ranks": {r: ranks[r].get(lv) for r in rungs},
            }
            for lv in order
        ],
    }


def ranking_lines(s: Mapping[str, Any]) -> list[str]:
    """The table of :func:`level_ranking`: every level, its win rate at each rung with
    its interval and its rank there, the easiest first at the first rung."""
    ranking = level_ranking(s)
    if ranking is None or len(ranking["levels"]) < 2:
        return []
    rungs = ranking["rungs"]
    lines = [
        "",
        f"## The levels ranked by the win rate of {s['whose']}",
        "",
        f"Every level of `{s['difficulty']['option']}`, from the easiest to the hardest by "
        f"the win rate at {rungs[0]}, with its 95% interval and its rank at each rung: a "
        "level whose rank moves between rungs is easier or harder for one skill than for "
        "the other.",
        "",
        "| level | " + " | ".join(f"{r} [95%] | rank at {r}" for r in rungs) + " |",
        "|---|" + "---|---|" * len(rungs),
    ]
    for e in ranking["levels"]:
        cells = " | ".join(
            (_rate_cell(e["rates"][r]) if r in e["rates"] else "-")
            + f" | {e['ranks'][r] if e['ranks'][r] is not None else '-'}"
            for r in rungs
        )
        lines.append(f"| {e['level']} | {cells} |")
    return lines


def _parameter_table(effects: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = [
        "| parameter | values | Low | Medium | High | drop [95%] | ordering |",
        "|---|---|---|---|---|---|---|",
    ]
    for e in effects:
        r = e["rates"]
        lines.append(
            f"| {e['parameter']} | {'/'.join(map(str, e['values']))} | {_rate_cell(r[0])} | "
            f"{_rate_cell(r[1])} | {_rate_cell(r[2])} | {100 * e['drop']:+.1f} pts "
            f"[{100 * e['drop_low']:+.1f}, {100 * e['drop_high']:+.1f}] | {e['ordering']} |"
        )
    return lines


def _self_play_rungs(rows: Sequence[Row]) -> dict[str, list[Row]]:
    """A sweep's rows by ``skill`` rung (every seat one agent; no TEST/FIELD pairs), in
    the grid's order; ``{}`` without a skill key."""
    if not rows or SKILL_KEY not in rows[0]:
        return {}
    out: dict[str, list[Row]] = {}
    for r in rows:
        if not is_pair(r[SKILL_KEY]):
            out.setdefault(str(r[SKILL_KEY]), []).append(r)
    return out


# ------------------------------------------------------------------ plots
def pyplot() -> Any:
    """matplotlib's pyplot, drawing to files (imported here: matplotlib is optional)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    pyplot().close(fig)
    atomic_write_bytes(path, buf.getvalue())
    return f"{PLOTS_DIR}/{path.name}"


def _bars(value: np.ndarray, low: np.ndarray, high: np.ndarray) -> list[np.ndarray]:
    """Error bars below and above each value, never negative (a Wilson bound of 0 wins can
    sit a rounding error above the rate 0)."""
    return [np.clip(value - low, 0.0, None), np.clip(high - value, 0.0, None)]


def plot_interval_bars(summary: Mapping[str, Any], path: Path) -> str:
    """The subject's win rate per cell with its 95% Wilson interval."""
    plt = pyplot()
    cells = summary["cells"]
    rates = np.array([c["subject"]["rate"] for c in cells])
    low = np.array([c["subject"]["low"] for c in cells])
    high = np.array([c["subject"]["high"] for c in cells])
    if len(cells) <= MAX_LABELED_CELLS:
        fig, ax = plt.subplots(figsize=(7, 0.8 + 0.32 * len(cells)))
        y = np.arange(len(cells))[::-1]
        ax.errorbar(rates, y, xerr=_bars(rates, low, high), fmt="o", capsize=3)
        ax.set_yticks(y, [c["label"] for c in cells])
    else:
        order = np.argsort(rates)
        fig, ax = plt.subplots(figsize=(8, 4))
        x = np.arange(len(cells))
        ax.fill_between(x, low[order], high[order], alpha=0.3, label="95% Wilson interval")
        ax.plot(x, rates[order], ".", label="win rate")
        ax.set_xlabel("cells, ranked by win rate")
        ax.legend(loc="upper left")
        ax.set_ylabel("win rate")
    if len(cells) <= MAX_LABELED_CELLS:
        ax.set_xlabel(f"win rate of {summary['whose']} (95% Wilson interval)")
        ax.set_xlim(0, 1)
    ax.set_title(f"{summary['game']}: {summary['subject']} win rate per cell")
    ax.grid(alpha=0.3)
    return _save(fig, path)


def plot_heatmap(summary: Mapping[str, Any], path: Path) -> str | None:
    """The subject's win rate over the first two varying grid keys (mean over the others).

    For a composite difficulty option (Hispania's levels): its first two parameters'
    values as rows, the others' as columns (a 9 x 27 map for Hispania's 243 levels), each
    from easiest to hardest.
    """
    cells = summary["cells"]
    keys = summary["grid_keys"]
    difficulty = summary.get("difficulty")
    if difficulty and difficulty["option"] in keys and len(cells) > 9:
        return _level_heatmap(summary, path)
    if len(keys) < 2:
        return None
    ka, kb = keys[0], keys[1]
    va = list(dict.fromkeys(c["point"][ka] for c in cells))
    vb = list(dict.fromkeys(c["point"][kb] for c in cells))
    total = np.zeros((len(va), len(vb)))
    count = np.zeros((len(va), len(vb)))
    for c in cells:
        i, j = va.index(c["point"][ka]), vb.index(c["point"][kb])
        total[i, j] += c["subject"]["wins"]
        count[i, j] += c["subject"]["games"]
    grid = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return _draw_heatmap(grid, [str(v) for v in va], [str(v) for v in vb], ka, kb, summary, path)


def _level_heatmap(summary: Mapping[str, Any], path: Path) -> str:
    difficulty = summary["difficulty"]
    option, values = difficulty["option"], difficulty["values"]
    rows_l = ["-".join(map(str, c)) for c in itertools.product(*values[:2])]
    cols_l = ["-".join(map(str, c)) for c in itertools.product(*values[2:])]
    total = np.zeros((len(rows_l), len(cols_l)))
    count = np.zeros((len(rows_l), len(cols_l)))
    for c in summary["cells"]:
        level = [int(x) for x in str(c["point"][option]).split("-")]
        i = rows_l.index("-".join(map(str, level[:2])))
        j = cols_l.index("-".join(map(str, level[2:])))
        total[i, j] += c["subject"]["wins"]
        count[i, j] += c["subject"]["games"]
    grid = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    names = difficulty["parameters"]
    return _draw_heatmap(
        grid, rows_l, cols_l, "-".join(names[:2]), "-".join(names[2:]), summary, path
    )


def _draw_heatmap(grid, ylabels, xlabels, ykey, xkey, summary, path: Path) -> str:
    plt = pyplot()
    # at least wide and tall enough for the two-line title and the colour bar's label
    width = max(5.0, 2.4 + 0.42 * len(xlabels))
    fig, ax = plt.subplots(figsize=(width, max(3.0, 1.6 + 0.42 * len(ylabels))))
    im = ax.imshow(grid, vmin=0, vmax=1, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(xlabels)), xlabels, rotation=90)
    ax.set_yticks(range(len(ylabels)), ylabels)
    ax.set_xlabel(xkey)
    ax.set_ylabel(ykey)
    if grid.size <= 150:
        for (i, j), v in np.ndenumerate(grid):
            if not np.isnan(v):
                ax.text(
                    j,
                    i,
                    f"{v:.2f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if v < 0.5 else "black",
                )
    fig.colorbar(im, ax=ax, label="win rate")
    ax.set_title(f"{summary['game']}:\nwin rate of {summary['whose']}")
    return _save(fig, path)


def plot_seats(summary: Mapping[str, Any], path: Path) -> str | None:
    """Each seat's win rate per cell (when the seats are separate players)."""
    cells = [c for c in summary["cells"] if "first_seat" in c]
    if not cells:
        return None
    plt = pyplot()
    width = max(c["num_players"] for c in cells)
    grid = np.full((len(cells), width), np.nan)
    for i, c in enumerate(cells):
        for s, seat in enumerate(c["seats"]):
            grid[i, s] = seat["rate"]
    # wide enough for the two-line title and the colour bar's label, whatever the seats
    fig, ax = plt.subplots(figsize=(max(5.0, 2.8 + 0.8 * width), 1.6 + 0.35 * len(cells)))
    top = max(0.5, float(np.nanmax(grid)))
    im = ax.imshow(grid, vmin=0, vmax=top, cmap="magma", aspect="auto")
    ax.set_xticks(range(width), [f"seat {s}" for s in range(width)])
    ax.set_yticks(range(len(cells)), [c["label"] for c in cells])
    for (i, j), v in np.ndenumerate(grid):
        if not np.isnan(v):  # light text on magma's dark low end, dark text on its light top
            colour = "white" if v < 0.6 * top else "black"
            ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7, color=colour)
    fig.colorbar(im, ax=ax, label="win rate")
    ax.set_title(f"{summary['game']}: win rate by seat\n(the same agent in every seat)")
    return _save(fig, path)


def plot_lengths(out: Path, summary: Mapping[str, Any], path: Path) -> str:
    """Game length in decisions per cell (box plots) or overall (a histogram)."""
    plt = pyplot()
    rows = load_results(out)
    by_cell = stats.group_rows(rows, ["cell"])
    labels = {c["cell"]: c["label"] for c in summary["cells"]}
    if len(by_cell) <= 30:
        fig, ax = plt.subplots(figsize=(7, 0.8 + 0.32 * len(by_cell)))
        data = [[r["decisions"] for r in g] for g in by_cell.values()]
        ax.boxplot(data[::-1], orientation="horizontal", showfliers=False)
        ax.set_yticks(range(1, len(data) + 1), [labels[k[0]] for k in by_cell][::-1])
        ax.set_xlabel("decisions per game")
    else:
        fig, ax = plt.subplots(figsize=(7, 3.5))
        ax.hist([r["decisions"] for r in rows], bins=50)
        ax.set_xlabel("decisions per game (every cell)")
        ax.set_ylabel("games")
    ax.set_title(f"{summary['game']}: game length")
    return _save(fig, path)


def plot_parameters(summary: Mapping[str, Any], path: Path) -> str | None:
    """The subject's win rate at each value of each difficulty parameter."""
    effects = summary.get("parameters")
    if not effects:
        return None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 3.8))
    names = [e["parameter"] for e in effects]
    steps = len(effects[0]["values"])
    words = ("low", "medium", "high") if steps == 3 else [f"value {j + 1}" for j in range(steps)]
    for j, word in enumerate(words):
        r = np.array([e["rates"][j]["rate"] for e in effects])
        lo = np.array([e["rates"][j]["low"] for e in effects])
        hi = np.array([e["rates"][j]["high"] for e in effects])
        width = 0.75 / steps
        x = np.arange(len(effects)) + (j - (steps - 1) / 2) * width
        ax.bar(x, r, width=width, label=f"{word} difficulty", yerr=_bars(r, lo, hi), capsize=2)
    ax.set_xticks(
        range(len(effects)),
        [f"{n}\n({'/'.join(map(str, e['values']))})" for n, e in zip(names, effects, strict=True)],
    )
    ax.set_ylabel(f"{summary['subject']} win rate")
    ax.set_title(
        f"{summary['game']}: each difficulty parameter, easiest to hardest (95% intervals)"
    )
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    return _save(fig, path)


def plot_variants(summary: Mapping[str, Any], path: Path) -> str | None:
    """Each variant's effect on the subject's win rate, with its interval."""
    v = summary.get("variants")
    if not v or not v["effects"]:
        return None
    plt = pyplot()
    eff = v["effects"]
    fig, ax = plt.subplots(figsize=(7, 0.8 + 0.4 * len(eff)))
    y = np.arange(len(eff))[::-1]
    d = np.array([e["effect"] for e in eff])
    lo = np.array([e["effect_low"] for e in eff])
    hi = np.array([e["effect_high"] for e in eff])
    ax.errorbar(d, y, xerr=_bars(d, lo, hi), fmt="o", capsize=3)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y, [e["variant"] for e in eff])
    ax.set_xlabel(
        f"change of the win rate of {summary['whose']} against no variant (95% Newcombe interval)"
    )
    ax.set_title(f"{summary['game']}: variants, in the rulebook's order")
    return _save(fig, path)


# ------------------------------------------------------------------ markdown
def _pct(x: float) -> str:
    return "-" if x != x else f"{100 * x:.1f}%"


def _points(x: float) -> str:
    """A half-width in points of a percentage."""
    return f"{100 * x:.1f}"


def _rate_cell(r: Mapping[str, Any]) -> str:
    return f"{_pct(r['rate'])} [{_pct(r['low'])}, {_pct(r['high'])}]"


def _estimate(e: Mapping[str, Any] | None, pct: bool = False, points: bool = False) -> str:
    """``0.42 [0.38, 0.46]`` (or in percent, or in signed points); ``-`` when undefined."""
    if e is None or e["value"] != e["value"]:
        return "-"
    if points:
        v, lo, hi = (100 * e[k] for k in ("value", "low", "high"))
        return f"{v:+.1f} [{lo:+.1f}, {hi:+.1f}]"
    fmt = _pct if pct else (lambda x: "-" if x != x else f"{x:.2f}")
    if e["low"] != e["low"]:
        return fmt(e["value"])
    return f"{fmt(e['value'])} [{fmt(e['low'])}, {fmt(e['high'])}]"


def _effect_cell(e: Sequence[float]) -> str:
    v, lo, hi = e
    return "-" if v != v else f"{100 * v:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def _correction_line(questions: Sequence[Mapping[str, Any]]) -> str:
    """How significance was read: corrected for the family of comparisons, or not."""
    family = questions[0].get("family")
    if questions[0].get("correction") != "holm" or family is None:
        return "Each interval read alone (no correction for multiple comparisons)."
    return (
        f"Significance is corrected for multiple comparisons (Holm, over the {family} "
        "comparisons of this sweep: every question at every rung), so a verdict is not one "
        "chance hit among many. *The game's?* asks whether the two strongest rungs agree "
        "within their intervals: where they do not, the answer is not settled, the "
        "players' skill decides it, and stronger play than the strongest rung is needed "
        "to call it the game's."
    )


def _settled_cell(q: Mapping[str, Any]) -> str:
    if q.get("settled") is None:
        return "-"
    if q["settled"]:
        return "yes"
    weaker, stronger = q["disagree"]
    return f"**not settled**: {weaker} and {stronger} differ"


def rungs_section(s: Mapping[str, Any]) -> list[str]:
    """The verdicts across the skill ladder, and the skill depth, when the sweep has them."""
    lines: list[str] = []
    if s.get("rungs"):
        rungs = s["rungs"][0]["rungs"]
        lines += [
            "",
            "## Across the skill ladder",
            "",
            "Each question asked at every rung (every seat played by that agent), in points "
            "with 95% intervals. Verdict: *holds* (significant the same way at every rung), "
            "*grows* / *shrinks* (the strongest rung minus the weakest is significant), "
            "*reverses*, **fades** (significant at weaker rungs, not at the strongest), "
            "*unclear* (significant at some rungs, the strongest among them, no significant "
            "trend), *no effect*; **one skill only** flags a verdict found at a single rung. "
            "Flagged verdicts may be the bots', not the game's.",
            "",
            _correction_line(s["rungs"]),
            "",
            "| question | " + " | ".join(rungs) + " | verdict | the game's? |",
            "|---|" + "---|" * len(rungs) + "---|---|",
        ]
        for q in s["rungs"]:
            word = f"**{q['verdict']}**" if q["flag"] else q["verdict"]
            if q.get("at"):
                word += f" ({q['at']})"
            cells = " | ".join(_effect_cell(e) for e in q["effects"])
            lines.append(f"| {q['question']} | {cells} | {word} | {_settled_cell(q)} |")
    if s.get("depth"):
        d = s["depth"]
        lines += [
            "",
            "## Skill depth",
            "",
            "The win rate of a doubled search budget against the budget, rung by rung, "
            "with the stronger agent in every seat in turn: how much skill the game "
            f"rewards. The doubled budget wins significantly more than its fair share at "
            f"{sum(e['above'] for e in d)} of {len(d)} rungs; depth (consecutive such rungs "
            f"from the weakest up): {d[0]['depth']}.",
            "",
            "| stronger / weaker | games | win rate [95%] | fair share |",
            "|---|---|---|---|",
        ]
        for e in d:
            lines.append(
                f"| {e['pair']} | {e['games']} | {_rate_cell(e)} | {_pct(e['fair_share'])} |"
            )
    return lines


def _matrix_rows(m: Mapping[str, Any], first: str, second: str) -> list[str]:
    agents = m["agents"]
    lines = [
        f"| {first} (rows), {second} (columns) | " + " | ".join(agents) + " |",
        "|---|" + "---|" * len(agents),
    ]
    for i, a in enumerate(agents):
        cells = []
        for j in range(len(agents)):
            r, lo, hi = m["rate"][i][j], m["low"][i][j], m["high"][i][j]
            cells.append("-" if r != r else f"{_pct(r)} [{_pct(lo)}, {_pct(hi)}]")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return lines


def _weights(agents: Sequence[str], w: Sequence[float]) -> str:
    return ", ".join(f"{a} {100 * x:.0f}%" for a, x in zip(agents, w, strict=True) if x > 0.005)


def metagame_section(meta: Mapping[str, Any] | None) -> list[str]:
    """The meta-game of a population sweep: matrices, Nash weights, α-Rank, dominance."""
    if not meta:
        return []
    agents = meta["agents"]
    lines = [
        "",
        "## Meta-game of the population",
        "",
        "Every ordered pair of agents, the first in one seat against a table of the second, "
        "in every seat in turn. Score: 1 a win, 1/2 a two-player draw; 95% Wilson "
        f"intervals; the fair share is {_pct(meta['fair_share'])}.",
        "",
        *_matrix_rows(meta["symmetric"], "agent", "against a table of"),
        "",
        f"- Nash averaging (the maximin mixture of the game `S - S^T`): "
        f"{_weights(agents, meta['nash_averaging'])}.",
        f"- α-Rank (one population; α = 50, m = 50): {_weights(agents, meta['alpharank'])}.",
        "- Dominant agent (its score against every other one above the fair share): "
        + (", ".join(meta["dominant"]) if meta["dominant"] else "none")
        + ".",
    ]
    two = meta.get("two_sided")
    if two:
        lines += [
            "",
            "The two sides: the first seat's score with the row's agent in it against the "
            "column's agent in the second seat (each game counted from both views).",
            "",
            *_matrix_rows(two, "first seat", "second seat"),
            "",
            f"- Nash equilibrium of the two sides (value to the first seat "
            f"{_pct(two['value'])}): first seat {_weights(agents, two['nash_first'])}; "
            f"second seat {_weights(agents, two['nash_second'])}.",
            f"- α-Rank (one population a side): first seat "
            f"{_weights(agents, two['alpharank_first'])}; second seat "
            f"{_weights(agents, two['alpharank_second'])}.",
        ]
    return lines


def metrics_section(cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """The metrics of the field per cell: outcomes always, shape and tension when recorded."""
    lines = [
        "",
        "## Metrics of the field",
        "",
        "Each metric is defined, with its formula and source, in the guide *Balance "
        "metrics* (`docs/guides/balance-metrics.md`); 95% intervals in brackets. "
        "Advantage is seat 0's win rate over its fair share, in points.",
        "",
        "| cell | balance | first-player adv. | side gap | draws | lost to the game | "
        "truncated | completion |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for c in cells:
        m = c["metrics"]
        lines.append(
            f"| {c['label']} | {_estimate(m['balance'])} | "
            f"{_estimate(m['first_player_advantage'], points=True)} | "
            f"{_estimate(m['side_gap'])} | {_estimate(m['draws'], pct=True)} | "
            f"{_estimate(m['lost_to_game'], pct=True)} | {_estimate(m['truncations'], pct=True)} "
            f"| {_estimate(m['completion'], pct=True)} |"
        )
    traced = [c for c in cells if "branching" in c["metrics"]]
    if not traced:
        lines += [
            "",
            "Shape and tension (branching factor, lead change, drama, decisiveness) need "
            "the per-decision traces: sweep with `--metrics`.",
        ]
        return lines
    lines += [
        "",
        "Shape and tension, from every decision of the cell's games. The value of a "
        "position (column *values*): *network*, the value head of the self-play network "
        "shipped for the game (`agents/<game>/alphazero.npz`), in the cells whose options "
        "it plays; *progress*, the game's progress measure (`evaluate_position`), elsewhere.",
        "",
        "| cell | values | length | spread | branching | real choice | lead change | drama | "
        "winner behind | decisiveness |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in traced:
        m = c["metrics"]
        lines.append(
            f"| {c['label']} | {c.get('values', 'progress')} | {m['length']['value']:.0f} "
            f"| {m['length_spread']['value']:.0f} "
            f"| {_estimate(m['branching'])} | {_estimate(m['real_choice'], pct=True)} | "
            f"{_estimate(m['lead_change'])} | {_estimate(m['drama'])} | "
            f"{_estimate(m['winner_behind'], pct=True)} | {_estimate(m['decisiveness'])} |"
        )
    return lines + series_lines(traced)


def series_lines(cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """Ludii's series metrics per cell (those its games recorded), and outcome uniformity."""
    keys = [k for k in metrics.SERIES if all(k in c["metrics"] for c in cells)]
    if not keys:
        return []
    titles = {m.key: m.source.removeprefix("Ludii ") for m in metrics.METRICS}
    lines = [
        "",
        "Ludii's series metrics (the legal actions and the positions' values of each game "
        "summed up, then averaged over the games; names as Ludii's) and its outcome "
        "uniformity.",
        "",
        "| cell | " + " | ".join(titles[k] for k in keys) + " | OutcomeUniformity |",
        "|---|" + "---|" * (len(keys) + 1),
    ]
    for c in cells:
        m = c["metrics"]
        values = " | ".join(_estimate(m[k]) for k in keys)
        lines.append(f"| {c['label']} | {values} | {_estimate(m.get('outcome_uniformity'))} |")
    return lines


def asked_precision(s: Mapping[str, Any], cell: Mapping[str, Any]) -> float:
    """The half-width a sweep to a precision asked of ``cell``: the search precision for a
    search cell (when the sweep gave one), else the precision."""
    search = s.get("search_precision")
    return search if search is not None and cell.get("search") else s["precision"]


def _stopped_by(s: Mapping[str, Any], cell: Mapping[str, Any]) -> str:
    """What ended a cell of a sweep to a precision: the precision, the most games a cell,
    or the time budget."""
    if cell["half_width"] <= asked_precision(s, cell):
        return "the precision"
    most = s.get("max_games_per_cell")
    games = cell["subject"]["games"]
    return "the most games a cell" if most is not None and games >= most else "the time budget"


def precision_lines(s: Mapping[str, Any]) -> list[str]:
    """What a sweep to a precision reached: every cell as precise as asked, or the cells
    short of it and what stopped each (the most games a cell, else the time budget); then
    each rung's games, half-width reached and what stopped it."""
    target = s["precision"]
    short = [c for c in s["cells"] if c["half_width"] > asked_precision(s, c)]
    if not short:
        lines = [
            f"Every cell reached the precision asked: its seats' win rates within "
            f"{_asked_words(s)} (95%).",
            "",
        ]
        return [*lines, *rung_precision_lines(s)]
    lines = [
        f"**{len(short)} of {len(s['cells'])} cells fell short of the precision asked** "
        f"({_points(target)} points"
        + (f", {_points(s['search_precision'])} for search cells" if _looser(s) else "")
        + "): read their rates with their wider intervals.",
        "",
        "| cell | games | half-width reached | stopped by |",
        "|---|---|---|---|",
    ]
    for c in short:
        games = c["subject"]["games"]
        lines.append(
            f"| {c['label']} | {games} | {_points(c['half_width'])} | {_stopped_by(s, c)} |"
        )
    return [*lines, "", *rung_precision_lines(s)]


def _looser(s: Mapping[str, Any]) -> bool:
    """Whether the sweep asked its search cells for a looser half-width than the others."""
    search = s.get("search_precision")
    return (
        search is not None and search != s["precision"] and any(c.get("search") for c in s["cells"])
    )


def _asked_words(s: Mapping[str, Any]) -> str:
    if _looser(s):
        return (
            f"{_points(s['precision'])} points ({_points(s['search_precision'])} for search cells)"
        )
    return f"{_points(s['precision'])} points"


def rung_of(cell: Mapping[str, Any]) -> str:
    """A cell's rung: its agents, each named once (``mcts:10``; ``heuristic,random``)."""
    return ",".join(dict.fromkeys(cell["agents"]))


def games_still_wanted(s: Mapping[str, Any], cell: Mapping[str, Any]) -> float:
    """The more games a cell short of its asked half-width needs to reach it: a half-width
    shrinks as one over the root of the games (the normal approximation), so ``n`` games
    at half-width ``w`` want ``n (w / asked)**2`` in all."""
    asked, reached = asked_precision(s, cell), cell["half_width"]
    games = cell["subject"]["games"]
    return max(0.0, games * (reached / asked) ** 2 - games) if reached > asked else 0.0


def rung_precision(s: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per rung (the cells' agents), in the sweep's order: its kind (search, or scripted and
    network), the half-width asked, its cells, games, the widest half-width reached and
    what stopped it (the precision when every cell reached it, else what stopped the
    cells short of it); the games its cells still want (:func:`games_still_wanted`) and,
    where its games were timed, their cost (``core_seconds_a_game``: the timed cells'
    mean, None where none was; ``wanted_seconds``: each short cell's games still wanted
    at its own cost, or the rung's where it was not timed)."""
    out: dict[str, dict[str, Any]] = {}
    costs: dict[str, list[float]] = {}  # per rung, its timed cells' costs a game
    short: dict[str, list[tuple[float, float | None]]] = {}  # (games wanted, own cost)
    for c in s["cells"]:
        e = out.setdefault(
            rung_of(c),
            {
                "rung": rung_of(c),
                "search": bool(c.get("search")),
                "asked": asked_precision(s, c),
                "cells": 0,
                "games": 0,
                "widest": 0.0,
                "stopped": [],
            },
        )
        e["cells"] += 1
        e["games"] += c["subject"]["games"]
        e["widest"] = max(e["widest"], c["half_width"])
        e["stopped"].append(_stopped_by(s, c))
        own = c.get("core_seconds_a_game")
        more = games_still_wanted(s, c)
        if more:
            short.setdefault(e["rung"], []).append((more, own))
        if own is not None:
            costs.setdefault(e["rung"], []).append(own)
    for e in out.values():
        stops = sorted({w for w in e["stopped"] if w != "the precision"})
        e["stopped"] = " and ".join(stops) if stops else "the precision"
        timed, wanted = costs.get(e["rung"]), short.get(e["rung"], [])
        cost = e["core_seconds_a_game"] = sum(timed) / len(timed) if timed else None
        e["wanted"] = sum(games for games, _ in wanted)
        e["wanted_seconds"] = (
            None if cost is None else [g * (cost if own is None else own) for g, own in wanted]
        )
    return list(out.values())


def wanted_cost_lines(rungs: Sequence[Mapping[str, Any]]) -> list[str]:
    """For each rung short of its precision: the games its cells still want and, where its
    games were timed, what they cost on one core and on Ray clusters of
    :data:`~boardsim.research.precision.CLUSTERS` cores (``--backend ray`` plays each
    cell's round as a task: no less than the dearest cell's time)."""
    lines = []
    for e in rungs:
        if e["wanted"] < 1:
            continue
        line = (
            f"- {e['rung']}: about {round(e['wanted'])} more games to reach "
            f"{_points(e['asked'])} points"
        )
        if e["core_seconds_a_game"] is None:
            line += " (its games were not timed here: no cost to give)."
        else:
            seconds = e["wanted_seconds"]
            clusters = ", ".join(
                f"{duration_words(cluster_wall_seconds(seconds, n))} on {n}" for n in CLUSTERS
            )
            line += (
                f", at the {e['core_seconds_a_game']:.3g} core-seconds a game measured here: "
                f"{duration_words(sum(seconds))} of one core; a Ray cluster of N cores: "
                f"{clusters}."
            )
        lines.append(line)
    if not lines:
        return []
    intro = (
        "What the cells short of their precision would take (a half-width shrinks as one "
        "over the root of the games; costs are the rounds timed on this machine, wall "
        "seconds times threads):"
    )
    return [intro, "", *lines, ""]


def rung_precision_lines(s: Mapping[str, Any]) -> list[str]:
    """The table of :func:`rung_precision`: per rung, the games played, the half-width
    reached and whether the precision or the budget stopped it."""
    rungs = rung_precision(s)
    lines = [
        "Per rung: the half-width asked (a search rung's budget is set by its cost: "
        "a search plays hundreds of times slower than a scripted or network seat, so it is "
        "asked a looser half-width when the sweep gives one), the games played, the widest "
        "half-width reached, in points, and what stopped its cells.",
        "",
        "| rung | kind | asked | cells | games | widest reached | stopped by | core-s a game |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in rungs:
        kind = "search" if e["search"] else "scripted or network"
        cost = e["core_seconds_a_game"]
        lines.append(
            f"| {e['rung']} | {kind} | {_points(e['asked'])} | {e['cells']} | {e['games']} | "
            f"{_points(e['widest'])} | {e['stopped']} "
            f"| {'not timed' if cost is None else f'{cost:.3g}'} |"
        )
    return [*lines, "", *wanted_cost_lines(rungs)]


def skill_tables(s: Mapping[str, Any], key: str) -> dict[str, Any]:
    """A summary's ``key`` table, or its ``<key>_by_skill`` tables labelled
    ``skill=<rung>``: one a rung, where pooled over skills they would mislead."""
    by_skill = s.get(f"{key}_by_skill")
    if by_skill:
        return {f"skill={rung}": table for rung, table in by_skill.items()}
    return {"": s.get(key)}


def _image(images: Mapping[str, str | None], key: str) -> list[str]:
    """The Markdown lines of plot ``key`` (none when it was not drawn)."""
    return [f"![{key}]({images[key]})", ""] if images.get(key) else []


def variants_lines(s: Mapping[str, Any], images: Mapping[str, str | None]) -> list[str]:
    """The variants' effects against no variant: one table, or one a rung of skill."""
    tables = skill_tables(s, "variants")
    if not any(tables.values()):
        return []
    intro = (
        "Against no variant, in the rulebook's order. Kendall's tau between that order and "
        "the effects (-1: each later variant is harder, the order of a rulebook that lists "
        "them from easier to harder)."
    )
    lines = ["", "## Variants", "", intro, "", *_image(images, "variants")]
    for label, v in tables.items():
        lines += [
            (f"At `{label}`: a" if label else "A")
            + f"gainst no variant {_rate_cell(v['baseline'])}; Kendall's tau "
            f"{v['tau']:+.2f}.",
            "",
            "| variant | win rate [95%] | effect [95%] | reading |",
            "|---|---|---|---|",
        ]
        for e in v["effects"]:
            lines.append(
                f"| {e['variant']} | {_rate_cell(e)} | {100 * e['effect']:+.1f} pts "
                f"[{100 * e['effect_low']:+.1f}, {100 * e['effect_high']:+.1f}] | {e['reading']} |"
            )
        lines.append("")
    return lines[:-1]


def markdown(summary: Mapping[str, Any], images: Mapping[str, str | None]) -> str:
    """The report page: what was swept, then each statistic with its plot."""
    s = summary
    precise = s.get("precision") is not None
    per_cell = (
        f"each to a half-width of {_asked_words(s)}, in rounds from {s['games_per_cell']} games"
        if precise
        else f"{s['games_per_cell']} a cell"
    )
    lines = [
        f"# Balance report: {s['game']}",
        "",
        f"{s['games']} games in {len(s['cells'])} cells ({per_cell}, seed "
        f"{s['seed']}); agents {', '.join(s['agents'])}; base options "
        f"{json.dumps(s['base_options']) if s['base_options'] else 'the defaults'}. "
        f"A win is a win for **{s['whose']}**; intervals are 95% Wilson intervals.",
        "",
        f"Overall: {_rate_cell(s['overall'])}.",
        "",
        "## Win rate per cell",
        "",
    ]
    if images.get("interval_bars"):
        lines += [f"![win rate per cell]({images['interval_bars']})", ""]
    if images.get("heatmap"):
        lines += [f"![win rate heatmap]({images['heatmap']})", ""]
    if precise:
        lines += precision_lines(s)
    lines += [
        "| cell | players | agents | games | win rate [95%] | nobody won |"
        + (" half-width |" if precise else ""),
        "|---|---|---|---|---|---|" + ("---|" if precise else ""),
    ]
    for c in s["cells"]:
        lines.append(
            f"| {c['label']} | {c['num_players']} | {','.join(c['agents'])} | "
            f"{c['subject']['games']} | {_rate_cell(c['subject'])} | {_pct(c['nobody_won'])} |"
            + (f" {_points(c['half_width'])} |" if precise else "")
        )
    seat_cells = [c for c in s["cells"] if "first_seat" in c]
    if seat_cells:
        lines += [
            "",
            "## First-seat advantage",
            "",
            "Seat 0's win rate against the fair share 1/players, with every seat on the "
            "same agent (difference and its 95% interval).",
            "",
        ]
        if images.get("seats"):
            lines += [f"![win rate by seat]({images['seats']})", ""]
        lines += [
            "| cell | seat 0 | fair share | advantage [95%] | every seat |",
            "|---|---|---|---|---|",
        ]
        for c in seat_cells:
            f = c["first_seat"]
            seats = " / ".join(_pct(x) for x in f["seat_rates"])
            lines.append(
                f"| {c['label']} | {_pct(f['first_seat_rate'])} | {_pct(f['fair_share'])} | "
                f"{100 * f['advantage']:+.1f} pts [{100 * f['low']:+.1f}, "
                f"{100 * f['high']:+.1f}] | {seats} |"
            )
    tables = skill_tables(s, "parameters")
    if any(tables.values()):
        lines += [
            "",
            f"## The difficulty parameters of `{s['difficulty']['option']}`",
            "",
            "The rulebook orders each parameter's values from the easiest to the hardest "
            f"(Low, Medium, High). Drop: the win rate of {s['whose']} at the easiest value "
            "minus at the hardest (95% Newcombe interval). Verdict: *holds* (the drop is "
            "significant and no step goes the wrong way significantly), *violated* (a "
            f"harder step leaves {s['whose']} significantly better off), *not resolved* "
            "(the sample cannot tell). Sorted by the size of the drop: the first matters "
            "most.",
            "",
            *_image(images, "parameters"),
        ]
        for label, effects in tables.items():
            if label:
                lines += [f"At `{label}`:", ""]
            lines += _parameter_table(effects)
            lines.append("")
        lines.pop()
    lines += ranking_lines(s)
    lines += variants_lines(s, images)
    lines += rungs_section(s)
    lines += metagame_section(s.get("metagame"))
    lines += metrics_section(s["cells"])
    lines += ["", "## Game length and margins", ""]
    if images.get("lengths"):
        lines += [f"![game length]({images['lengths']})", ""]
    lines += [
        "| cell | mean decisions | median | 5%-95% | truncated | mean margin |",
        "|---|---|---|---|---|---|",
    ]
    for c in s["cells"]:
        ln, m = c["length"], c["margin"]
        margin = "-" if m["mean"] != m["mean"] else f"{m['mean']:.2f}"
        lines.append(
            f"| {c['label']} | {ln['mean']:.0f} | {ln['q50']:.0f} | {ln['q05']:.0f}-"
            f"{ln['q95']:.0f} | {_pct(ln['truncated'])} | "
            f"{margin} |"
        )
    lines += [
        "",
        "Margins are the winner's return minus the best loser's: 2 with win/loss "
        "rewards; sweep with a scoring reward option (the race's `reward=vt`) for "
        "margins in points.",
        "",
    ]
    return "\n".join(lines)


def write_report(out: str | os.PathLike) -> Path:
    """Write ``DIR/plots/*.png``, ``DIR/summary.json`` and ``DIR/report.md``; return its path."""
    out = Path(out)
    summary = summarize(out)
    plots = out / PLOTS_DIR
    images = {
        "interval_bars": plot_interval_bars(summary, plots / "win_rates.png"),
        "heatmap": plot_heatmap(summary, plots / "heatmap.png"),
        "seats": plot_seats(summary, plots / "seats.png"),
        "lengths": plot_lengths(out, summary, plots / "lengths.png"),
        "parameters": plot_parameters(summary, plots / "parameters.png"),
        "variants": plot_variants(summary, plots / "variants.png"),
    }
    atomic_write_text(out / "summary.json", json.dumps(summary, indent=1, default=float) + "\n")
    path = out / REPORT
    atomic_write_text(path, markdown(summary, images))
    return path
