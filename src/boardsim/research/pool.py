"""One pair's evaluations on several seeds, pooled: ``python -m boardsim.research.pool FILE...``.

A strength claim sometimes needs more games than one ``boardsim eval`` run gave: a
second run on another unused seed adds games, and the two are read together. This module
pools the pairs of ``boardsim eval`` JSON files (round robins) that played the same thing
on different seeds: the same game, options, rules version, decision limit and way of
dealing, and agents that play the same (their fingerprints,
:func:`boardsim.research.reuse.agent_fingerprint`: a network named by two paths is one
network), in either order. Scores are summed and the 95% Wilson interval is taken over
all the games, each seat's split (``by_seat``) likewise when every file has it.

Two files that played the pair on the same seed share their deals (the games are seeded
by the seed, the seat and the game's number), so pooling them would count games twice:
refused. A pair an agent of which has no fingerprint (a Python agent) cannot be matched
and is refused too. ``--agent SPEC`` keeps the pairs in which an agent so named (in any of
the files) plays.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardsim.core.errors import DataError
from boardsim.research.reuse import PriorResults
from boardsim.research.stats import wilson_interval

# a record's settings that must agree for two runs to be one experiment on more games
SAME = ("game", "version", "options", "players", "decision_limit", "deals")


@dataclass
class PooledPair:
    """``agent`` against ``opponent`` over several files (named as the first file names
    them; ``names``: every spec each was given)."""

    agent: str
    opponent: str
    games: int
    score: float
    win_rate: float
    ci_low: float
    ci_high: float
    files: list[str]
    seeds: list[int]
    names: tuple[list[str], list[str]]
    by_seat: list[dict[str, Any]] = field(default_factory=list)
    opponent_by_seat: list[dict[str, Any]] = field(default_factory=list)

    def flipped(self) -> PooledPair:
        """The same games seen from the opponent's side."""
        low, high = wilson_interval(self.games - self.score, self.games)
        return PooledPair(
            agent=self.opponent,
            opponent=self.agent,
            games=self.games,
            score=round(self.games - self.score, 6),
            win_rate=(self.games - self.score) / self.games,
            ci_low=low,
            ci_high=high,
            files=self.files,
            seeds=self.seeds,
            names=(self.names[1], self.names[0]),
            by_seat=self.opponent_by_seat,
            opponent_by_seat=self.by_seat,
        )

    def line(self) -> str:
        """``alphazero-mcts:200 against mcts:200: 0.699 [0.678, 0.718], 2,000 games ...``."""
        seeds = ", ".join(str(s) for s in self.seeds)
        text = (
            f"{self.agent} against {self.opponent}: {self.win_rate:.4f} "
            f"[{self.ci_low:.3f}, {self.ci_high:.3f}], {self.games:,} games from "
            f"{len(self.files)} file{'s' if len(self.files) > 1 else ''} "
            f"(seed{'s' if len(self.seeds) > 1 else ''} {seeds})"
        )
        sides = [
            f"{s['name']} {s['win_rate']:.3f} [{s['ci_low']:.3f}, {s['ci_high']:.3f}] "
            f"({s['games']:,})"
            for s in self.by_seat
        ]
        return text + (f"; {', '.join(sides)}" if sides else "")


def _experiment(settings: dict[str, Any], where: str) -> tuple[str, list[str]]:
    """The settings two runs must share, as a key, and the agents' fingerprints in order."""
    plays = []
    for agent in settings["agents"]:
        if agent.get("plays") is None:
            raise DataError(
                where, "pair_records", f"{agent['spec']} has no fingerprint: cannot be pooled"
            )
        plays.append(json.dumps(agent["plays"], sort_keys=True))
    return json.dumps({k: settings[k] for k in SAME}, sort_keys=True), plays


def pool(paths: Sequence[str | Path]) -> list[PooledPair]:
    """The round-robin pairs of ``paths`` pooled over the files that played them."""
    groups: dict[tuple[str, tuple[str, str]], list[tuple[str, dict[str, Any], list[Any]]]] = {}
    for path in paths:
        prior = PriorResults.load(path)
        if not prior.usable:
            raise DataError(str(path), "pair_records", "missing: written before records")
        for n, record in enumerate(prior.records):
            settings = record["settings"]
            if "level" in record:
                raise DataError(str(path), f"pair_records[{n}]", "a cooperative cell: not pooled")
            key, plays = _experiment(settings, str(path))
            specs = [a["spec"] for a in settings["agents"]]
            rows = [prior.results[(specs[0], specs[1])], prior.results[(specs[1], specs[0])]]
            if plays[0] > plays[1]:  # one orientation for both orders
                plays, specs, rows = plays[::-1], specs[::-1], rows[::-1]
            groups.setdefault((key, (plays[0], plays[1])), []).append(
                (str(path), settings, [specs, rows])
            )
    return [_pooled(runs) for runs in groups.values()]


def _pooled(runs: list[tuple[str, dict[str, Any], list[Any]]]) -> PooledPair:
    seen: dict[int, str] = {}
    for path, settings, _ in runs:
        seed = int(settings["seed"])
        if seed in seen:
            raise DataError(
                path,
                "seed",
                f"{seed} is also {seen[seed]}'s for this pair: the same deals, counted twice",
            )
        seen[seed] = path
    rows = [row for _, _, (_, (row, _)) in runs]
    theirs = [row for _, _, (_, (_, row)) in runs]
    games = sum(int(r["games"]) for r in rows)
    score = sum(float(r["score"]) for r in rows)
    low, high = wilson_interval(score, games)
    first_specs = runs[0][2][0]
    return PooledPair(
        agent=first_specs[0],
        opponent=first_specs[1],
        games=games,
        score=round(score, 6),
        win_rate=score / games,
        ci_low=low,
        ci_high=high,
        files=[path for path, _, _ in runs],
        seeds=list(seen),
        names=(
            sorted({specs[0] for _, _, (specs, _) in runs}),
            sorted({specs[1] for _, _, (specs, _) in runs}),
        ),
        by_seat=_seats(rows),
        opponent_by_seat=_seats(theirs),
    )


def _seats(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each seat's games and score summed over the files (empty unless all split them)."""
    if not all(r.get("by_seat") for r in rows):
        return []
    out: dict[int, dict[str, Any]] = {}
    for row in rows:
        for s in row["by_seat"]:
            seat = out.setdefault(s["seat"], {"seat": s["seat"], "name": s["name"]})
            seat["games"] = seat.get("games", 0) + int(s["games"])
            seat["score"] = round(seat.get("score", 0.0) + float(s["score"]), 6)
    for seat in out.values():
        seat["win_rate"] = seat["score"] / seat["games"]
        seat["ci_low"], seat["ci_high"] = wilson_interval(seat["score"], seat["games"])
    return [out[k] for k in sorted(out)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m boardsim.research.pool",
        description="Pool boardsim eval files' pairs played on different seeds.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE.json")
    parser.add_argument("--agent", default=None, help="only the pairs an agent so named plays")
    args = parser.parse_args(argv)
    try:
        pairs = pool(args.files)
    except DataError as exc:
        print(f"pool: {exc}", file=sys.stderr)
        return 2
    if args.agent:  # its pairs, seen from its side
        pairs = [
            p if args.agent in p.names[0] else p.flipped()
            for p in pairs
            if any(args.agent in names for names in p.names)
        ]
        for pair in pairs:
            pair.agent = args.agent
    for pair in pairs:
        print(pair.line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
