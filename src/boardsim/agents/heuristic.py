"""The rule-based player of each game, as an agent (``load("heuristic", game)``).

The strategy itself is compiled: each game's ``policy.py`` defines
``heuristic_action(state, params, mask, prng)`` (its strategy is written in a
player's words at the top of that file), the same function the batched engine
calls for ``opponents="heuristic"`` and ``play_games(..., policies=["heuristic", ...])``.
This agent calls it on the state of a :class:`boardsim.State`, so a heuristic seat
plays exactly the same in the PettingZoo and Gymnasium envs as inside the compiled
loops. It reads only what the player to move may know (hidden hands and the deck
order never enter its choices; the tests check it).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.api import list_games, make_game
from boardsim.core.batch import play_games
from boardsim.core.errors import OptionError
from boardsim.core.game import Game, Matchup, State
from boardsim.core.rng import rng_seed
from boardsim.core.seats import Seat
from boardsim.files import atomic_write_json
from boardsim.games import definition
from boardsim.intervals import wilson_interval


class HeuristicAgent:
    """The game's compiled rule-based player; its tie-breaks drawn from its own generator.

    ``needs_state = True``: ``act`` must be given the game state (the envs pass
    theirs to such opponents; ``env.unwrapped.state_`` otherwise).
    """

    name = "heuristic"
    needs_state = True

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self._mask = np.zeros(game.num_actions, np.uint8)
        self._prng = np.zeros(2, np.int32)
        seed = int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0] >> np.uint64(2))
        rng_seed(self._prng, 0, seed)

    def act_state(self, state: State) -> int:
        """The heuristic's action for the player to move in ``state`` (a decision node)."""
        if state.game.name != self.game.name:
            raise ValueError(f"a {self.game.name} heuristic cannot play {state.game.name}")
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("the heuristic acts at decision nodes only (not terminal, not chance)")
        # the compiled policy never writes the state, but it gets a copy all the same
        action = int(
            self.game.kernels.heuristic_action(
                state.array.copy(), self.game.params, self._mask, self._prng
            )
        )
        if action < 0:
            raise ValueError("the heuristic found no legal action")
        return action

    def compiled_seat(self) -> Seat:
        """This agent as a compiled seat (the game's ``heuristic_action``)."""
        return Seat.named("heuristic")

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None
    ) -> int:
        """The action in ``state`` (``observation`` and ``action_mask`` are not needed)."""
        if state is None:
            raise TypeError(
                "HeuristicAgent plays from the game state: pass state=... "
                "(the envs hold it as env.unwrapped.state_)"
            )
        return self.act_state(state)


def make_agent(game: Game, arg: str | None, seed: int | None, **options: Any) -> HeuristicAgent:
    """The ``"heuristic"`` factory of ``boardsim.agents.load`` (no argument, no option)."""
    if arg is not None or options:
        raise OptionError(f"the heuristic agent takes no argument, got {arg!r} {options or ''}")
    return HeuristicAgent(game, seed)


# ---------------------------------------------------------------- strength, measured

MAX_DECISIONS = 50_000  # the strength games' decision limit (no game has come near it)


def strength_matchups(game: str | None = None) -> list[tuple[str, Matchup]]:
    """Every game's strength table (``GameDefinition.strength_matchups``), with its game
    (``game``'s alone if given)."""
    names = list_games() if game is None else [game]
    return [(name, m) for name in names for m in definition(name).strength_matchups]


def strength_games() -> list[str]:
    """The games that declare a strength table."""
    return [g for g in list_games() if strength_matchups(g)]


def measure(game_name: str, matchup: Matchup, games: int, seed: int = 0) -> dict[str, Any]:
    """``matchup.seat``'s wins over ``games`` compiled games (a draw or a shared win is not
    a win): the count, the rate with its 95% Wilson interval, and the games cut by the
    decision limit."""
    game = make_game(game_name, max_decisions=MAX_DECISIONS, **matchup.options)
    out = play_games(game, games, list(matchup.policies), seed=seed)
    wins = int((out["returns"][:, matchup.seat] > 0).sum())
    low, high = wilson_interval(wins, games)
    return {
        "wins": wins,
        "games": games,
        "win_rate": wins / games,
        "ci_low": low,
        "ci_high": high,
        "truncated": int(out["truncated"].sum()),
    }


def _matchup_name(game_name: str, options: Mapping[str, Any]) -> str:
    words = ", ".join(f"{k}={v}" for k, v in options.items())
    return f"{game_name} ({words})" if words else game_name


def strength_table(games: int = 1000, seed: int = 0, game: str | None = None) -> str:
    """Every matchup of :func:`strength_matchups` as a Markdown table."""
    lines = ["| game | matchup | games | win rate | cut by the limit |", "|---|---|---|---|---|"]
    for game_name, m in strength_matchups(game):
        r = measure(game_name, m, games, seed)
        name = _matchup_name(game_name, m.options)
        lines.append(f"| {name} | {m.label} | {games} | {r['win_rate']:.1%} | {r['truncated']} |")
    return "\n".join(lines)


# ---------------------------------------------------------------- strength, recorded


def strength_path(game: str) -> Path:
    """``agents/GAME/heuristic-strength.json``: the game's strength table, measured."""
    return Path("agents") / game / "heuristic-strength.json"


def strength_command(game: str, games: int, seed: int) -> str:
    """The command that writes ``game``'s strength file."""
    words = ["python", "-m", "boardsim.agents.heuristic", "--game", game]
    return shlex.join([*words, "--games", str(games), "--seed", str(seed), "--write"])


def strength_record(game: str, games: int = 1000, seed: int = 0) -> dict[str, Any]:
    """``game``'s strength table played: every matchup with its counts and interval, the
    settings, the game's rules version and the command that makes it."""
    started = time.perf_counter()
    rows = []
    for _, m in strength_matchups(game):
        rows.append(
            {
                "label": m.label,
                "options": dict(m.options),
                "policies": list(m.policies),
                "seat": m.seat,
                **measure(game, m, games, seed),
            }
        )
    return {
        "game": game,
        "version": definition(game).version,
        "command": strength_command(game, games, seed),
        "games": games,
        "seed": seed,
        "max_decisions": MAX_DECISIONS,
        "rows": rows,
        "seconds": round(time.perf_counter() - started, 3),
    }


def read_strength(game: str) -> dict[str, Any]:
    """``agents/GAME/heuristic-strength.json``."""
    return json.loads(strength_path(game).read_text())


def write_strength(game: str, games: int = 1000, seed: int = 0) -> Path:
    """Play ``game``'s strength table and write its file (atomically); its path."""
    path = strength_path(game)
    atomic_write_json(path, strength_record(game, games, seed))
    return path


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m boardsim.agents.heuristic --games 1000``: print the strength table;
    with ``--write``, write each game's ``agents/GAME/heuristic-strength.json`` instead
    (from a checkout's root; ``python -m boardsim.research.agent_pages`` then writes the page)."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games per matchup")
    parser.add_argument("--seed", type=int, default=0, help="master seed of the games")
    parser.add_argument("--game", choices=strength_games(), default=None, help="one game only")
    parser.add_argument(
        "--write", action="store_true", help="write agents/GAME/heuristic-strength.json"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be >= 1")
    if not args.write:
        print(strength_table(args.games, args.seed, args.game))
        return
    if not Path("agents").is_dir():
        parser.error(f"--write runs from a boardsim checkout's root (no agents/ in {Path.cwd()})")
    for game in strength_games() if args.game is None else [args.game]:
        print(f"written {write_strength(game, args.games, args.seed)}", file=sys.stderr)


if __name__ == "__main__":
    main()
