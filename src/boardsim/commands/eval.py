"""``boardsim eval GAME --agents random,heuristic,ppo:PATH --games N``: a round-robin tournament.

The agents are comma-separated or the flag repeated (``--agents random --agents
heuristic``), as ``boardsim play --vs`` takes them.

Prints the win-rate matrix with 95% Wilson intervals and Elo ratings and writes
them as CSV and JSON (``--out PREFIX``: PREFIX.csv and PREFIX.json, written
atomically). A cooperative game (Hispania) reports instead each agent's win
rate for the side, at each of ``--levels``.

``--backend ray [--address ADDR]`` plays the games that play in compiled code (every
agent but ``ppo`` and Python agents) as Ray tasks, all pairs at once, with the same
result as locally; a worker that dies has its games played again from their seeds.

Pairs already played are not played again: when PREFIX.json exists (or with ``--reuse
FILE.json``), every pair (a cooperative game's agent at a level) recorded there with
exactly the same settings (game, options, rules version, games, seed, the deals, and each
agent's spec and what it plays: a network's weights, a search's settings) is read back,
and only the others are played; the results are the same as a full replay's. A file
written before settings were recorded is not reused (a strength ladder's can be adopted:
``boardsim ladder GAME --adopt``). ``--no-reuse`` plays everything.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardsim.api import list_games
from boardsim.commands.args import (
    add_backend_arguments,
    add_command,
    add_list_argument,
    seed_argument,
    split_list,
)
from boardsim.commands.train import add_option_argument
from boardsim.core.errors import DataError
from boardsim.research.evaluation import (
    ANY_OPTIONS,
    DETERMINISTIC,
    EvalRequest,
    prior_results,
    run_eval,
)
from boardsim.research.reuse import PriorResults
from boardsim.research.tournament import TournamentResult


def add_parser(subparsers: Any) -> None:
    """Register ``boardsim eval``."""
    p = add_command(
        subparsers,
        "eval",
        "round-robin tournament: win-rate matrix, 95%% intervals, Elo (CSV + JSON)",
        __doc__,
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
        ANY_OPTIONS,
        action="store_true",
        help="let ppo checkpoints (and the other networks: alphazero, alphazero-mcts, net) "
        "play with other option values than they were trained with",
    )
    p.add_argument(
        DETERMINISTIC,
        action="store_true",
        help="ppo agents play their most likely action (default: sampled from the policy)",
    )
    add_option_argument(p)
    add_backend_arguments(p)
    p.set_defaults(func=run)


def request_of(args: argparse.Namespace) -> EvalRequest:
    """The evaluation ``args`` ask for."""
    return EvalRequest(
        game=args.game,
        agents=tuple(split_list(args.agents)),
        games=args.games,
        seed=args.seed,
        levels=args.levels,
        options=tuple(args.option or ()),
        max_decisions=args.max_decisions,
        any_options=args.ppo_any_options,
        ppo_deterministic=args.ppo_deterministic,
        out=args.out,
    )


def say_playing(text: str) -> None:
    """A tournament's progress, on stderr: ``  playing heuristic against random ...``."""
    print(f"  playing {text} ...", file=sys.stderr, flush=True)


def print_result(command: str, result: TournamentResult, prior: PriorResults | None) -> None:
    """What was read back (on stderr), then the result's table and time."""
    if prior is not None:
        what = "cells" if result.mode == "cooperative" else "pairs"
        print(f"boardsim {command}: {prior.summary(what)}", file=sys.stderr)
    print(result.table())
    print(f"({result.seconds:.0f} s)")


def run(args: argparse.Namespace) -> int:
    request = request_of(args)
    try:
        request.game_options()
        prior = prior_results(args.out, args.reuse, args.no_reuse)
    except DataError as exc:
        print(f"boardsim eval: {exc} (--no-reuse plays every pair)", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"boardsim eval: {exc}", file=sys.stderr)
        return 2
    if prior is not None and not prior.usable:
        print(f"boardsim eval: {prior.reason}", file=sys.stderr)
        prior = None

    try:
        result = run_eval(request, say_playing, prior, args.backend, args.address)
    except ValueError as exc:
        print(f"boardsim eval: {exc}", file=sys.stderr)
        return 2
    print_result("eval", result, prior)
    if args.out:
        json_path, csv_path = result.write(args.out)
        print(f"written {csv_path} and {json_path}")
    return 0
