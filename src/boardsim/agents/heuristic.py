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
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardsim.core.errors import OptionError
from boardsim.core.game import Game, Matchup, State
from boardsim.core.rng import rng_seed
from boardsim.core.seats import Seat


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


def strength_matchups() -> list[tuple[str, Matchup]]:
    """Every game's strength table (``GameDefinition.strength_matchups``), with its game."""
    from boardsim.api import list_games
    from boardsim.games import definition

    return [(name, m) for name in list_games() for m in definition(name).strength_matchups]


def measure(game_name: str, matchup: Matchup, games: int, seed: int = 0) -> dict[str, float]:
    """Win rate of ``matchup.seat`` over ``games`` compiled games (a draw or a shared win
    is not a win), with the number of games cut by the decision limit."""
    from boardsim.api import make_game
    from boardsim.core.batch import play_games

    game = make_game(game_name, max_decisions=50_000, **matchup.options)
    out = play_games(game, games, list(matchup.policies), seed=seed)
    wins = float((out["returns"][:, matchup.seat] > 0).mean())
    return {"wins": wins, "truncated": int(out["truncated"].sum())}


def strength_table(games: int = 1000, seed: int = 0) -> str:
    """Every matchup of :func:`strength_matchups` as a Markdown table."""
    lines = ["| game | matchup | games | win rate | cut by the limit |", "|---|---|---|---|---|"]
    for game_name, m in strength_matchups():
        r = measure(game_name, m, games, seed)
        options = ", ".join(f"{k}={v}" for k, v in m.options.items())
        name = f"{game_name} ({options})" if options else game_name
        lines.append(f"| {name} | {m.label} | {games} | {r['wins']:.1%} | {r['truncated']} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m boardsim.agents.heuristic --games 1000``: print the strength table."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games per matchup")
    parser.add_argument("--seed", type=int, default=0, help="master seed of the games")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be >= 1")
    print(strength_table(args.games, args.seed))


if __name__ == "__main__":
    main()
