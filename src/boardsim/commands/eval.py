"""``boardsim eval GAME --agents random,heuristic,ppo:PATH --games N``: a round-robin tournament.

The agents are comma-separated or the flag repeated (``--agents random --agents
heuristic``), as ``boardsim play --vs`` takes them.

Prints the win-rate matrix with 95% Wilson intervals and Elo ratings and writes
them as CSV and JSON (``--out PREFIX``: PREFIX.csv and PREFIX.json, written
atomically). A cooperative game (Hispania) reports instead each agent's win
rate for the side, at each of ``--levels``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardsim.api import list_games
from boardsim.commands.args import add_list_argument, split_list
from boardsim.commands.train import add_option_argument, parse_options
from boardsim.core.errors import OptionError

# what the library's checkpoint check tells a Python caller, and the flag that says the same
CLI_ANY_OPTIONS = "--ppo-any-options"


def add_parser(subparsers: Any) -> None:
    """Register ``boardsim eval``."""
    p = subparsers.add_parser(
        "eval",
        help="round-robin tournament: win-rate matrix, 95%% intervals, Elo (CSV + JSON)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", choices=list_games())
    add_list_argument(
        p,
        "--agents",
        "agent specs: random, greedy, heuristic, mcts:SIMS, ppo:PATH",
        metavar="AGENT[,AGENT...]",
        required=True,
    )
    p.add_argument("--games", type=int, default=100, help="games a pair (a level) (default 100)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--levels",
        default=None,
        help="Hispania: comma-separated difficulty levels, e.g. 6-4-3-4-2,5-5-2-3-3",
    )
    p.add_argument("--out", default=None, help="write PREFIX.csv and PREFIX.json")
    p.add_argument(
        "--max-decisions",
        type=int,
        default=None,
        help="cut a game after this many decisions (counted as truncated; 0: never; "
        "default: the game's decision limit)",
    )
    p.add_argument(
        CLI_ANY_OPTIONS,
        action="store_true",
        help="let ppo checkpoints (and the other networks: alphazero, alphazero-mcts, net) "
        "play with other option values than they were trained with",
    )
    p.add_argument(
        "--ppo-deterministic",
        action="store_true",
        help="ppo agents play their most likely action (default: sampled from the policy)",
    )
    add_option_argument(p)
    p.set_defaults(func=run)


def in_cli_words(error: OptionError) -> OptionError:
    """The library's refusal of a network trained with other options, naming the flag
    (``--ppo-any-options``) instead of the Python argument (``strict_options=False``)."""
    from boardsim.training.checkpoint import TrainedOptionsError

    if isinstance(error, TrainedOptionsError):
        return error.with_remedy(CLI_ANY_OPTIONS)
    return error


def command_line(args: argparse.Namespace) -> str:
    """The ``boardsim eval`` command that plays what ``args`` ask, every setting spelled
    out (recorded in the results, so a ladder or a card names the command that made it)."""
    import shlex

    words = ["boardsim", "eval", args.game, "--agents", ",".join(split_list(args.agents))]
    words += ["--games", str(args.games), "--seed", str(args.seed)]
    if args.levels:
        words += ["--levels", args.levels]
    for option in args.option or []:
        words += ["-o", option]
    if args.max_decisions is not None:
        words += ["--max-decisions", str(args.max_decisions)]
    if args.ppo_any_options:
        words.append(CLI_ANY_OPTIONS)
    if args.ppo_deterministic:
        words.append("--ppo-deterministic")
    if args.out:
        words += ["--out", str(args.out)]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    from boardsim.research.sweep import NETWORK_FAMILIES
    from boardsim.research.tournament import cooperative, default_agent_maker, round_robin

    try:
        options = parse_options(args.option)
    except ValueError as exc:
        print(f"boardsim eval: {exc}", file=sys.stderr)
        return 2
    if args.max_decisions is not None:
        options.setdefault("max_decisions", args.max_decisions)
    agents = split_list(args.agents)
    levels = [x.strip() for x in args.levels.split(",")] if args.levels else None

    def make(spec: str, game: Any, seed: int) -> Any:
        extra: dict[str, Any] = {}
        family = spec.partition(":")[0]
        if family == "ppo":
            # sampled from the policy: a deterministic one can choose and cancel a composite
            # decision forever (the same observation, the same argmax)
            extra["deterministic"] = args.ppo_deterministic
        if family in NETWORK_FAMILIES and args.ppo_any_options:
            extra["strict_options"] = False
        try:
            return default_agent_maker(spec, game, seed, **extra)
        except OptionError as exc:
            raise in_cli_words(exc) from exc

    def progress(text: str) -> None:
        print(f"  playing {text} ...", file=sys.stderr, flush=True)

    try:
        import boardsim

        game = boardsim.make_game(args.game, **options)
        if game.is_cooperative():
            result = cooperative(
                args.game, agents, args.games, levels, args.seed, make, progress, **options
            )
        else:
            if levels:
                raise ValueError(f"--levels is for cooperative games; {args.game} is not one")
            result = round_robin(
                args.game, agents, args.games, args.seed, make, progress, **options
            )
    except ValueError as exc:
        print(f"boardsim eval: {exc}", file=sys.stderr)
        return 2
    result.command = command_line(args)
    print(result.table())
    print(f"({result.seconds:.0f} s)")
    if args.out:
        json_path, csv_path = result.write(args.out)
        print(f"written {csv_path} and {json_path}")
    return 0
