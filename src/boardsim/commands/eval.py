"""``boardsim eval GAME --agents random,heuristic,ppo:PATH --games N``: a round-robin tournament.

The agents are comma-separated or the flag repeated (``--agents random --agents
heuristic``), as ``boardsim play --vs`` takes them.

Prints the win-rate matrix with 95% Wilson intervals and Elo ratings and writes
them as CSV and JSON (``--out PREFIX``: PREFIX.csv and PREFIX.json, written
atomically). A cooperative game (Hispania) reports instead each agent's win
rate for the side, at each of ``--levels``.

Pairs already played are not played again: when PREFIX.json exists (or with ``--reuse
FILE.json``), every pair (a cooperative game's agent at a level) recorded there with
exactly the same settings (game, options, rules version, games, seed, the deals, and each
agent's spec and what it plays: a network's weights, a search's settings) is read back,
and only the others are played; the results are the same as a full replay's. A file
written before settings were recorded is not reused (a strength ladder's can be adopted:
``python -m boardsim.research.ladder GAME --adopt``). ``--no-reuse`` plays everything.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardsim.api import list_games
from boardsim.commands.args import add_list_argument, seed_argument, split_list
from boardsim.commands.train import add_option_argument, parse_options
from boardsim.core.errors import DataError, OptionError

if TYPE_CHECKING:
    from boardsim.research.reuse import PriorResults

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
    p.add_argument("--seed", type=seed_argument, default=0)
    p.add_argument(
        "--levels",
        default=None,
        help="Hispania: comma-separated difficulty levels, e.g. 6-4-3-4-2,5-5-2-3-3",
    )
    p.add_argument("--out", default=None, help="write PREFIX.csv and PREFIX.json")
    p.add_argument(
        "--reuse",
        metavar="FILE.json",
        default=None,
        help="read back the pairs FILE.json played with exactly these settings "
        "(default: PREFIX.json of --out, when it exists)",
    )
    p.add_argument(
        "--no-reuse", action="store_true", help="play every pair, even those already played"
    )
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
    out (recorded in the results, so a ladder or a card names the command that made it).
    ``--reuse`` and ``--no-reuse`` are left out: they change what is played again, not
    the results."""
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


def reuse_source(args: argparse.Namespace) -> PriorResults | None:
    """The earlier results ``args`` ask to read back: ``--reuse FILE``, else PREFIX.json of
    ``--out`` when it exists; None with ``--no-reuse``, without either, or for a file that
    records no settings per pair (said in one line on stderr). :class:`DataError` for a
    malformed file, :class:`OptionError` for a ``--reuse`` file that is not there."""
    from boardsim.research.reuse import PriorResults

    if args.no_reuse:
        if args.reuse:
            raise OptionError("--reuse and --no-reuse contradict each other: give one")
        return None
    if args.reuse:
        path = Path(args.reuse)
        if not path.is_file():
            raise OptionError(f"--reuse {path}: no such file")
    elif args.out:
        prefix = Path(args.out)
        path = prefix.with_name(prefix.name + ".json")
        if not path.is_file():
            return None
    else:
        return None
    prior = PriorResults.load(path)
    if not prior.usable:
        print(f"boardsim eval: {prior.reason}", file=sys.stderr)
        return None
    return prior


def eval_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's options ``args`` give (``-o``, and ``--max-decisions`` unless ``-o`` sets
    it); :class:`ValueError` for a malformed ``-o``."""
    options = parse_options(args.option)
    if args.max_decisions is not None:
        options.setdefault("max_decisions", args.max_decisions)
    return options


def agent_maker(args: argparse.Namespace) -> Callable[[str, Any, int], Any]:
    """How ``boardsim eval`` makes the agents ``args`` name (a ppo agent's sampling, the
    networks' check of the options they were trained with): ``(spec, game, seed) -> agent``."""
    from boardsim.research.sweep import NETWORK_FAMILIES
    from boardsim.research.tournament import default_agent_maker

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

    return make


def run(args: argparse.Namespace) -> int:
    from boardsim.research.tournament import cooperative, round_robin

    try:
        options = eval_options(args)
        prior = reuse_source(args)
    except DataError as exc:
        print(f"boardsim eval: {exc} (--no-reuse plays every pair)", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"boardsim eval: {exc}", file=sys.stderr)
        return 2
    agents = split_list(args.agents)
    levels = [x.strip() for x in args.levels.split(",")] if args.levels else None
    make = agent_maker(args)

    def progress(text: str) -> None:
        print(f"  playing {text} ...", file=sys.stderr, flush=True)

    try:
        import boardsim

        game = boardsim.make_game(args.game, **options)
        if game.is_cooperative():
            result = cooperative(
                args.game, agents, args.games, levels, args.seed, make, progress, prior, **options
            )
        else:
            if levels:
                raise ValueError(f"--levels is for cooperative games; {args.game} is not one")
            result = round_robin(
                args.game, agents, args.games, args.seed, make, progress, prior, **options
            )
    except ValueError as exc:
        print(f"boardsim eval: {exc}", file=sys.stderr)
        return 2
    if prior is not None:
        what = "cells" if result.mode == "cooperative" else "pairs"
        print(f"boardsim eval: {prior.summary(what)}", file=sys.stderr)
    result.command = command_line(args)
    print(result.table())
    print(f"({result.seconds:.0f} s)")
    if args.out:
        json_path, csv_path = result.write(args.out)
        print(f"written {csv_path} and {json_path}")
    return 0
