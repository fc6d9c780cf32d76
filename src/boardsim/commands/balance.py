"""``boardsim balance``: sweep an option grid, and ``boardsim balance report DIR``.

::

    boardsim balance hispania --grid level=all --agents heuristic --games-per-cell 200 --out runs/h
    boardsim balance liberation --grid num_players=2,3,4 --grid seat=all \\
        --agents heuristic,random --games-per-cell 1000 --out runs/race
    boardsim balance farrapos --grid side=republic,empire --grid variant=none,siege \\
        --agents heuristic,random --out runs/f --backend ray --address auto
    boardsim balance report runs/h
    boardsim balance farrapos --grid skill=rungs --metrics --games-per-cell 200 --out runs/l
    boardsim balance tune farrapos --target republic=0.5@heuristic \\
        --search victory_vp=12:40 --trials 30 --games-per-trial 200 --out runs/t
    boardsim balance docs farrapos --games-per-cell 200   # docs/balance/farrapos.md
    boardsim balance docs farrapos --precision 0.01 --plan   # its games and hours, first
    boardsim balance restricted liberation --agent mcts:50 --gap mcts:200 --games 400
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardsim.api import list_games, make_game
from boardsim.commands.args import seed_argument
from boardsim.core.batch import COMPILED_POLICIES
from boardsim.core.errors import OptionError
from boardsim.files import atomic_write_text
from boardsim.research.page_plan import describe_plan, plan_page
from boardsim.research.pages import PAGES_DIR, PageRun, write_page
from boardsim.research.precision import default_search_precision
from boardsim.research.report import write_report
from boardsim.research.restricted import greedy_search_gap, mechanic_weights, restricted_report
from boardsim.research.sweep import describe_cells, parse_grid, plan_cells, run_sweep
from boardsim.research.tune import (
    TrialBudget,
    declared_sources,
    parse_search,
    parse_target,
    run_tune,
)

EPILOG = """grid keys: the game's options (typed; 'all' lists every value, Hispania's
level=all the 243 levels), seat/side (where the agent under test sits: a number, a
seat name such as empire or hispano, or all; give --agents TEST,FIELD) and variant
(none, or on/off options joined by '+'; variant=all: the rulebook's variants) and
skill (the agent every seat plays: skill=rungs for random, heuristic, mcts:N, mcts:4N
and the shipped self-play network where it plays every cell (skill=ladder, its older
name, is deprecated); skill=depth for
mcts:2N/mcts:N pairs; skill=population:A+B+C for the meta-game; pairs TEST/FIELD need
seat=all).
Results: DIR/cells/*.csv (one row a game, one file a finished cell), DIR/results.csv,
DIR/sweep.json; a re-run with the same DIR resumes. `boardsim balance report DIR`
writes DIR/report.md with DIR/plots/*.png."""


def _flags(parser: argparse.ArgumentParser, *names: str) -> None:
    """Add the flags ``names`` (the sweep's, tune's and docs' shared ones) to ``parser``."""
    for name in names:
        FLAGS[name](parser)


def _add_out(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", default=None, help="the sweep folder (created; resumed if present)"
    )


FLAGS: dict[str, Any] = {
    "seed": lambda q: q.add_argument(
        "--seed", type=seed_argument, default=0, help="the run's seed (default 0)"
    ),
    "option": lambda q: q.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a fixed game option for every cell (repeatable)",
    ),
    "backend": lambda q: (
        q.add_argument(
            "--backend", choices=("local", "ray"), default="local", help="(default local)"
        ),
        q.add_argument(
            "--address",
            default=None,
            help="with --backend ray: the cluster (auto, host:6379, ray://host:10001); "
            "default: a local Ray",
        ),
    ),
    "threads": lambda q: q.add_argument(
        "--threads", type=int, default=None, help="local backend: cores (default all)"
    ),
    "no-progress": lambda q: q.add_argument(
        "--no-progress", action="store_true", help="no progress bar"
    ),
    "games-per-cell": lambda q: q.add_argument(
        "--games-per-cell",
        dest="games_per_cell",
        type=int,
        default=1000,
        help="games played in each cell (default 1000); with --precision, the first round's",
    ),
    "precision": lambda q: (
        q.add_argument(
            "--precision",
            type=float,
            default=None,
            metavar="H",
            help="play each cell in rounds until its seats' win rates have a 95%% half-width "
            "of at most H (0.01: one point), instead of a fixed number of games",
        ),
        _max_games_argument(
            q, "cell", "a cell stops at N games, precise or not (default: no limit)"
        ),
        _time_budget_argument(
            q,
            "with --precision: start no cell's round after this long (a run again "
            "continues); the report names the cells it left short",
        ),
        q.add_argument(
            "--search-precision",
            dest="search_precision",
            type=float,
            default=None,
            metavar="H",
            help="with --precision: the half-width asked of search cells (any seat mcts), "
            "the dear ones (default 3 times --precision)",
        ),
    ),
}


def search_precision(args: argparse.Namespace) -> float | None:
    """The half-width asked of the search cells: ``--search-precision``, else 3 times
    ``--precision`` (None without a precision; a search precision alone is refused later)."""
    if args.search_precision is not None:
        return args.search_precision
    return default_search_precision(args.precision)


def add_parser(subparsers: Any) -> None:
    """Register ``balance`` on the ``boardsim`` command: one subcommand a game (the
    sweep), ``report``, ``tune`` and ``docs``, each with its own usage and flags."""
    p = subparsers.add_parser(
        "balance",
        help="balance sweep over an option grid, `balance report DIR`, `balance tune GAME`",
        description=__doc__,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(func=run)
    sub = p.add_subparsers(
        dest="target",
        required=True,
        title="subcommands",
        metavar="GAME|report|tune|docs|restricted",
    )
    for game in list_games():
        _add_sweep(sub, game)
    report = sub.add_parser(
        "report",
        help="write DIR/report.md and DIR/plots/*.png from a sweep folder",
        description="Write DIR/report.md and DIR/plots/*.png from the sweep in DIR.",
    )
    report.add_argument("dir", metavar="DIR", help="the sweep folder")
    _add_tune(sub)
    _add_docs(sub)
    _add_restricted(sub)


def _add_sweep(sub: Any, game: str) -> None:
    q = sub.add_parser(
        game,
        help=f"sweep {game}'s options over a grid",
        description=f"Sweep {game}'s options over a grid of cells, each played by --agents.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    q.set_defaults(dir=None)
    q.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="KEY=V1,V2,...",
        help="a grid key and its values (repeatable; cells are every combination)",
    )
    q.add_argument(
        "--agents",
        default="heuristic",
        help="compiled policies (" + ", ".join(COMPILED_POLICIES) + ", mcts:SIMS, ppo:PATH, "
        "alphazero[:PATH], alphazero-mcts:SIMS[:PATH]): one for "
        "every seat, one per seat, or TEST,FIELD with a seat/side key "
        "(default heuristic)",
    )
    _flags(q, "games-per-cell", "precision")
    _add_out(q)
    _flags(q, "seed", "option", "backend", "threads")
    q.add_argument(
        "--skip-invalid",
        action="store_true",
        help="skip grid points the game refuses (listed in sweep.json) instead of stopping",
    )
    q.add_argument(
        "--metrics",
        action="store_true",
        help="record every decision (the same games, in compiled code) for the shape and "
        "tension metrics: branching factor, real choices, lead change, drama, decisiveness "
        "(positions valued by the game's shipped self-play network where it plays the cell, "
        "else by its progress measure)",
    )
    q.add_argument("--dry-run", action="store_true", help="list the cells and stop")
    _flags(q, "no-progress")
    q.add_argument("--report", action="store_true", help="write the report after the sweep")


def _where(args: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any]:
    """What a sweep and a tuning both take from the flags: the seed, the fixed options, and
    where the games are played (the backend, its cluster, the cores)."""
    return {
        "seed": args.seed,
        "base_options": options,
        "backend": args.backend,
        "address": args.address,
        "threads": args.threads,
    }


def _game_command(sub: Any, name: str, help: str, description: str) -> argparse.ArgumentParser:
    """A ``balance`` subcommand that takes a GAME (``tune``, ``docs``)."""
    q = sub.add_parser(name, help=help, description=description)
    q.add_argument("dir", metavar="GAME", help=f"the game ({', '.join(list_games())})")
    return q


def _add_tune(sub: Any) -> None:
    q = _game_command(
        sub,
        "tune",
        "search option values that meet win-rate targets",
        "Search the values of --search options until the game meets every --target win "
        "rate; the study and its results go to --out.",
    )
    q.add_argument(
        "--target",
        dest="targets",
        action="append",
        default=[],
        metavar="WHAT=VALUE[@SKILL]",
        help="a target (republic=0.5@heuristic, rome=40-60%%@mcts:25, balance=0.9-1); repeatable",
    )
    q.add_argument(
        "--search",
        action="append",
        default=[],
        metavar="KEY=LOW:HIGH|KEY=V1,V2",
        help="an option to search (victory_vp=12:40, siege=false,true); repeatable",
    )
    q.add_argument("--trials", type=int, default=30, help="complete trials wanted (default 30)")
    q.add_argument(
        "--games-per-trial",
        dest="games_per_trial",
        type=int,
        default=200,
        help="games played to measure each trial (default 200)",
    )
    q.add_argument(
        "--precision",
        type=float,
        default=None,
        metavar="H",
        help="play each trial at each skill in rounds from --games-per-trial until its seats' "
        "win rates have a 95%% half-width of at most H (0.01: one point); a trial is in the "
        "band when its targets are met at that precision",
    )
    _max_games_argument(q, "trial", "a trial's budget, the most games at each skill")
    _time_budget_argument(
        q,
        "begin no trial after this long (a run again continues the same study); the "
        "report says how many of the trials asked it let finish",
    )
    q.add_argument(
        "--workers", type=int, default=1, help="trials asked and played at once (Ray; default 1)"
    )
    q.add_argument("--out", default=None, help="the study's folder (required)")
    _flags(q, "seed", "option", "backend", "threads", "no-progress")


def _add_docs(sub: Any) -> None:
    q = _game_command(
        sub,
        "docs",
        "sweep every question of a game's balance page and write the page",
        "Play every question (and tuning) the game's balance page declares and write the "
        "page, GAME.md, into the --out folder (default docs/balance).",
    )
    _flags(q, "games-per-cell", "precision")
    q.add_argument(
        "--out",
        default=None,
        metavar="FOLDER",
        help="the folder the page GAME.md is written into (default docs/balance)",
    )
    q.add_argument(
        "--work",
        default="runs/balance-docs",
        help="where each question's sweep goes, resumed when run again (default runs/balance-docs)",
    )
    q.add_argument(
        "--question",
        dest="questions",
        action="append",
        default=[],
        metavar="TITLE",
        help="play only this question (or tuning) of the page (repeatable); the others "
        "are read back from --work, and those not found there are left out, with a warning",
    )
    _add_plan(q)
    _flags(q, "seed", "backend", "threads", "no-progress")


PLAN_HELP = (
    "play a few pilot games of each rung and print, per question, the cells, the games each "
    "needs for the precision, the seconds on this machine, the total and what a Ray cluster "
    "of 8, 32 and 128 cores would take; write no page"
)


def _add_plan(q: argparse.ArgumentParser) -> None:
    """``balance docs --plan``: price the page before playing it."""
    q.add_argument("--plan", "--dry-run", action="store_true", help=PLAN_HELP)
    q.add_argument(
        "--pilot-games", type=int, default=8, metavar="K", help="pilot games a cell (default 8)"
    )


def _add_restricted(sub: Any) -> None:
    q = _game_command(
        sub,
        "restricted",
        "restricted play: each mechanic's weight, and the greedy-against-search gap",
        "Jaffe's restricted play: AGENT against itself forbidden each of the game's action "
        "families (its mechanics), and with --gap SEARCH, SEARCH against the greedy agent; "
        "each as the advantage in win points over the agent's share against itself, seats "
        "rotated, with a 95% interval (docs/guides/balance-metrics.md).",
    )
    q.add_argument("--agent", default="random", help="the agent restricted (default random)")
    q.add_argument(
        "--families",
        default=None,
        metavar="F1,F2",
        help="the families to forbid one at a time (default: every family the game declares)",
    )
    q.add_argument(
        "--gap",
        default=None,
        metavar="SEARCH",
        help="also the greedy-against-search gap, SEARCH against the greedy agent (mcts:200)",
    )
    q.add_argument("--games", type=int, default=200, help="games a measure (default 200)")
    q.add_argument(
        "--gap-games",
        type=int,
        default=None,
        metavar="N",
        help="games of the gap, whose search plays in Python (default: --games)",
    )
    q.add_argument("--out", default=None, metavar="FILE", help="also write the table there")
    _flags(q, "seed", "option", "no-progress")


def _restricted(args: argparse.Namespace) -> int:
    if args.dir not in list_games():
        raise ValueError(f"balance restricted GAME: choose one of {', '.join(list_games())}")
    game = make_game(args.dir, **base_options(args.dir, args.option))
    families = args.families.split(",") if args.families else None
    if args.gap_games is not None and not args.gap:
        raise OptionError("--gap-games goes with --gap SEARCH")
    say = None if args.no_progress else (lambda line: print(line, flush=True))
    rows = mechanic_weights(game, args.agent, args.games, args.seed, families, progress=say)
    if args.gap:
        gap_games = args.games if args.gap_games is None else args.gap_games
        rows.append(greedy_search_gap(game, args.gap, gap_games, args.seed))
    table = restricted_report(game, args.agent, rows, args.seed)
    print(table)
    if args.out:
        atomic_write_text(args.out, table + "\n")
    return 0


def base_options(game: str, specs: list[str]) -> dict[str, Any]:
    """``["siege=true"]`` -> ``{"siege": True}``, typed like grid values."""
    out: dict[str, Any] = {}
    for spec in specs:
        _, sep, value = spec.partition("=")
        if not sep or "," in value:
            raise ValueError(f"--option {spec!r} is not KEY=VALUE (one value)")
        out.update({k: v[0] for k, v in parse_grid(game, [spec]).items()})
    return out


def run(args: argparse.Namespace) -> int:
    """Run the sweep or write the report; errors in the arguments exit with status 2."""
    try:
        if args.target == "report":
            return _report(args)
        if args.target == "tune":
            return _tune(args)
        if args.target == "docs":
            return _docs(args)
        if args.target == "restricted":
            return _restricted(args)
        return _sweep(args)
    except (ValueError, FileNotFoundError) as exc:
        print(f"boardsim balance: {exc}", file=sys.stderr)
        return 2


def _tune(args: argparse.Namespace) -> int:
    game = args.dir
    if game not in list_games():
        raise ValueError(f"balance tune GAME: choose one of {', '.join(list_games())}")
    if args.out is None:
        raise ValueError("give --out DIR (the study and its results go there)")
    options = base_options(game, args.option)
    targets = [parse_target(game, t, options) for t in args.targets]
    keys = [parse_search(game, k, options) for k in args.search]
    say = None if args.no_progress else (lambda line: print(line, flush=True))
    result = run_tune(
        game,
        targets,
        keys,
        args.trials,
        args.games_per_trial,
        args.out,
        **_where(args, options),
        workers=args.workers,
        progress=say,
        budget=TrialBudget(args.precision, args.max_games_per_trial, declared_sources(game, keys)),
        seconds=args.time_budget,
    )
    best = result.best
    print(
        f"{result.trials} trials ({result.ran} this run, {result.seconds:.1f} s); best "
        f"{best.get('params')} loss {best.get('loss', float('nan')):.4f}; "
        f"report in {result.out / 'tune.md'}"
    )
    return 0


def _docs(args: argparse.Namespace) -> int:
    if args.dir not in list_games():
        raise ValueError(f"balance docs GAME: choose one of {', '.join(list_games())}")
    run = PageRun(
        args.games_per_cell,
        seed=args.seed,
        threads=args.threads,
        precision=args.precision,
        max_games_per_cell=args.max_games_per_cell,
        seconds=args.time_budget,
        search_precision=search_precision(args),
        backend=args.backend,
        address=args.address,
    )
    say = None if args.no_progress else (lambda line: print(line, flush=True))
    if args.plan:
        return _plan(args, run, say)
    try:
        path = write_page(
            args.dir,
            run,
            out_dir=args.out or PAGES_DIR,
            work=args.work,
            only=args.questions,
            progress=not args.no_progress,
            say=say,
            warn=lambda line: print(f"warning: {line}", file=sys.stderr),
        )
    except OptionError as exc:
        raise ValueError(str(exc)) from exc
    print(f"wrote {path}")
    return 0


def _plan(args: argparse.Namespace, run: PageRun, say: Any) -> int:
    """Print the plan of the page ``balance docs`` would write (no page written)."""
    if args.pilot_games < 1:
        raise ValueError("--pilot-games must be at least 1")
    try:
        plans = plan_page(args.dir, run, args.pilot_games, args.questions, say)
    except OptionError as exc:
        raise ValueError(str(exc)) from exc
    print(describe_plan(args.dir, plans, args.pilot_games))
    return 0


def _report(args: argparse.Namespace) -> int:
    if args.dir is None:
        raise ValueError("give the sweep folder: boardsim balance report DIR")
    print(f"wrote {write_report(args.dir)}")
    return 0


def _sweep(args: argparse.Namespace) -> int:
    if args.dir is not None:
        raise ValueError(f"unexpected {args.dir!r}; the folder goes in --out")
    options = base_options(args.target, args.option)
    grid = parse_grid(args.target, args.grid, options)
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if args.dry_run:
        cells, skipped = plan_cells(args.target, grid, agents, options, args.skip_invalid)
        print(describe_cells(cells))
        for s in skipped:
            print(f"skipped {s['point']}: {s['reason']}")
        return 0
    if args.out is None:
        raise ValueError("give --out DIR (the folder the results go to)")
    result = run_sweep(
        args.target,
        grid,
        agents,
        args.games_per_cell,
        args.out,
        **_where(args, options),
        skip_invalid=args.skip_invalid,
        progress=not args.no_progress,
        metrics=args.metrics,
        precision=args.precision,
        max_games_per_cell=args.max_games_per_cell,
        seconds=args.time_budget,
        search_precision=search_precision(args),
    )
    print(
        f"{result.cells} cells: {result.played} played ({result.games} games, "
        f"{result.seconds:.1f} s), {result.skipped} already done"
        + (f", {len(result.invalid)} invalid skipped" if result.invalid else "")
        + f"; results in {result.out / 'results.csv'}"
    )
    if result.short:
        widest = max(result.short.values())
        print(
            f"{len(result.short)} cells short of the precision {args.precision} (the widest "
            f"at {widest:.4f}): run again, with a larger --time-budget or "
            "--max-games-per-cell, to continue"
        )
    if args.report:
        print(f"wrote {write_report(args.out)}")
    return 0


def _time_budget_argument(q: argparse.ArgumentParser, meaning: str) -> Any:
    """``--time-budget SECONDS`` (a sweep's, a page's or a search's)."""
    return q.add_argument(
        "--time-budget", dest="time_budget", type=float, default=None, metavar="SECONDS",
        help=meaning,
    )  # fmt: skip


def _max_games_argument(q: argparse.ArgumentParser, unit: str, meaning: str) -> None:
    """``--max-games-per-UNIT N``: with --precision, where a cell's (a trial's) rounds stop."""
    q.add_argument(
        f"--max-games-per-{unit}", type=int, default=None, metavar="N",
        help=f"with --precision: {meaning}",
    )  # fmt: skip
