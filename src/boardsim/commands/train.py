"""``boardsim train GAME``: MaskablePPO on the batched engine (``--algo ppo``, the default),
self-play in the AlphaZero family on the compiled search (``--algo alphazero``), or RLlib
(``--backend rllib``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from boardsim.api import list_games


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["num_players=2", "level=6-4-3-4-2"]`` -> options; values read as JSON when they parse."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option takes KEY=VALUE, got {pair!r}")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def parse_net_arch(text: str | None) -> list[int] | None:
    """``"256,256"`` -> [256, 256]; None stays None (sized from the observation)."""
    if text is None:
        return None
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"--net-arch takes layer sizes like 256,256, got {text!r}") from None


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        metavar="KEY=VALUE",
        help="a game option, e.g. num_players=2 or level=6-4-3-4-2 (repeatable)",
    )


def add_parser(subparsers: Any) -> None:
    """Register ``boardsim train``."""
    p = subparsers.add_parser(
        "train",
        help="train an agent: PPO (MaskablePPO), AlphaZero self-play (--algo alphazero), "
        "or RLlib (--backend rllib)",
        description=__doc__,
    )
    p.add_argument("game", choices=list_games())
    p.add_argument(
        "--algo",
        choices=("ppo", "alphazero"),
        default="ppo",
        help="ppo: MaskablePPO against compiled opponents; alphazero: expert iteration by "
        "self-play with the compiled search guided by the network (default ppo)",
    )
    p.add_argument("--run-dir", default=None, help="run folder (default runs/GAME)")
    p.add_argument("--timesteps", type=int, default=200_000, help="learner decisions in all")
    p.add_argument("--resume", action="store_true", help="continue from the latest checkpoint")
    p.add_argument("--backend", choices=("sb3", "rllib"), default="sb3")
    add_option_argument(p)
    p.add_argument(
        "--opponents",
        default="random",
        help="ppo: compiled opponents: random, heuristic, pool (the run's own past policies), "
        "net:PATH (a fixed network), or several comma-separated (each seat's envs split "
        "evenly between them), e.g. heuristic,pool",
    )
    p.add_argument("--pool-swap", type=int, default=1, help="rollouts between pool draws")
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--n-steps", type=int, default=128, help="steps per env per rollout")
    p.add_argument("--batch-size", type=int, default=256, help="minibatch")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=None, help="default 3e-4 (ppo), 1e-3 (alphazero)")
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument(
        "--step-penalty",
        type=float,
        default=0.0,
        help="subtracted from the learner's reward at each of its decisions, so that stalling "
        "does not pay (default 0)",
    )
    p.add_argument(
        "--imitate",
        type=int,
        default=0,
        help="first fit the policy to this many decisions of the compiled heuristic in the "
        "learner's seats (and the value to their returns), then PPO (default 0: none)",
    )
    p.add_argument("--imitate-epochs", type=int, default=4, help="passes over those decisions")
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--net-arch", default=None, help="hidden layers, e.g. 256,256")
    p.add_argument("--checkpoint-every", type=int, default=50_000, help="steps between saves")
    p.add_argument("--keep", type=int, default=3, help="checkpoints kept")
    p.add_argument("--threads", type=int, default=None, help="numba threads for the envs")
    p.add_argument("--torch-threads", type=int, default=1, help="torch threads (default 1)")
    p.add_argument(
        "--export", default=None, help="also write the final policy, without training state, here"
    )
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--no-tensorboard", action="store_true")
    az = p.add_argument_group(
        "alphazero (--algo alphazero; --lr, --batch-size, --seed, --keep, "
        "--threads, --torch-threads, --export also apply)"
    )
    p.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="alphazero: self-play iterations (default 20); rllib: training iterations (10)",
    )
    az.add_argument("--games-per-iteration", type=int, default=64, help="self-play games")
    az.add_argument("--simulations", type=int, default=32, help="search budget a decision")
    az.add_argument("--search", choices=("gumbel", "puct"), default="gumbel")
    az.add_argument("--gumbel-m", type=int, default=16, help="root actions sampled (gumbel)")
    az.add_argument("--c-scale", type=float, default=0.1, help="gumbel's sigma scale")
    az.add_argument("--c-puct", type=float, default=1.5)
    az.add_argument("--mix", type=float, default=0.0, help="leaf value: weight of a rollout")
    az.add_argument("--rollout", choices=("random", "heuristic"), default="heuristic")
    az.add_argument("--rollout-depth", type=int, default=20)
    az.add_argument("--hidden", default="256,256", help="the trunk's hidden layers")
    az.add_argument("--value-hidden", type=int, default=64)
    az.add_argument("--weight-decay", type=float, default=1e-4)
    az.add_argument("--sample-reuse", type=float, default=4.0, help="times a position is seen")
    az.add_argument("--max-steps", type=int, default=2000, help="gradient steps an iteration")
    az.add_argument("--buffer-size", type=int, default=200_000, help="positions kept")
    az.add_argument(
        "--warmup-iterations",
        type=int,
        default=0,
        help="first iterations played by an expert instead of the network",
    )
    az.add_argument("--warmup-expert", choices=("heuristic", "mcts"), default="heuristic")
    az.add_argument("--warmup-simulations", type=int, default=200, help="the mcts expert's")
    az.add_argument("--gate-games", type=int, default=64, help="candidate against best")
    az.add_argument("--gate-threshold", type=float, default=0.55)
    az.add_argument("--gate-simulations", type=int, default=None)
    az.add_argument("--eval-games", type=int, default=200, help="network alone vs heuristic")
    az.add_argument("--max-seconds", type=float, default=None, help="stop after this wall time")
    rl = p.add_argument_group("rllib backend")
    rl.add_argument("--address", default=None, help="Ray cluster address (default: local Ray)")
    rl.add_argument("--num-cpus", type=int, default=None, help="CPUs of a local Ray")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        options = parse_options(args.option)
        net_arch = parse_net_arch(args.net_arch)
    except ValueError as exc:
        print(f"boardsim train: {exc}", file=sys.stderr)
        return 2
    run_dir = args.run_dir or f"runs/{args.game}"
    if args.backend == "rllib":
        return _run_rllib(args, options, run_dir)
    if args.algo == "alphazero":
        return _run_alphazero(args, options, run_dir)
    from boardsim.training.ppo import TrainConfig, train

    config = TrainConfig(
        game=args.game,
        run_dir=run_dir,
        options=options,
        total_timesteps=args.timesteps,
        num_envs=args.num_envs,
        opponents=args.opponents,
        pool_swap=args.pool_swap,
        seed=args.seed,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=3e-4 if args.lr is None else args.lr,
        gamma=args.gamma,
        step_penalty=args.step_penalty,
        imitate=args.imitate,
        imitate_epochs=args.imitate_epochs,
        ent_coef=args.ent_coef,
        net_arch=net_arch,
        checkpoint_every=args.checkpoint_every,
        keep_checkpoints=args.keep,
        threads=args.threads,
        torch_threads=args.torch_threads,
        tensorboard=not args.no_tensorboard,
        progress=not args.no_progress,
    )
    try:
        result = train(config, resume=args.resume)
    except ValueError as exc:
        print(f"boardsim train: {exc}", file=sys.stderr)
        return 2
    if args.export:
        from boardsim.training.checkpoint import export_policy

        export_policy(result.checkpoint, args.export)
        print(f"policy exported to {args.export}")
    print(
        f"trained {result.timesteps} steps ({result.games} games, recent win rate "
        f"{result.win_rate:.3f}) in {result.wall_seconds:.0f} s; checkpoint {result.checkpoint}"
    )
    return 0


def _run_rllib(args: argparse.Namespace, options: dict[str, Any], run_dir: str) -> int:
    from boardsim.training.rllib import RLlibConfig, train_rllib

    config = RLlibConfig(
        game=args.game,
        run_dir=run_dir,
        options=options,
        iterations=args.iterations or 10,
        seed=args.seed,
        address=args.address,
        num_cpus=args.num_cpus,
    )
    try:
        result = train_rllib(config, resume=args.resume)
    except ValueError as exc:
        print(f"boardsim train: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2))
    return 0


def _run_alphazero(args: argparse.Namespace, options: dict[str, Any], run_dir: str) -> int:
    from boardsim.training.alphazero import AlphaZeroConfig, train_alphazero

    try:
        hidden = parse_net_arch(args.hidden) or [256, 256]
        config = AlphaZeroConfig(
            game=args.game,
            run_dir=run_dir,
            options=options,
            iterations=20 if args.iterations is None else args.iterations,
            games_per_iteration=args.games_per_iteration,
            simulations=args.simulations,
            search=args.search,
            gumbel_m=args.gumbel_m,
            c_scale=args.c_scale,
            c_puct=args.c_puct,
            mix=args.mix,
            rollout=args.rollout,
            rollout_depth=args.rollout_depth,
            hidden=hidden,
            value_hidden=args.value_hidden,
            learning_rate=1e-3 if args.lr is None else args.lr,
            weight_decay=args.weight_decay,
            batch_size=args.batch_size,
            sample_reuse=args.sample_reuse,
            max_steps=args.max_steps,
            buffer_size=args.buffer_size,
            warmup_iterations=args.warmup_iterations,
            warmup_expert=args.warmup_expert,
            warmup_simulations=args.warmup_simulations,
            gate_games=args.gate_games,
            gate_threshold=args.gate_threshold,
            gate_simulations=args.gate_simulations,
            eval_games=args.eval_games,
            seed=args.seed,
            threads=args.threads,
            torch_threads=args.torch_threads,
            keep_checkpoints=args.keep,
            max_seconds=args.max_seconds,
            tensorboard=not args.no_tensorboard,
            progress=not args.no_progress,
        )
        result = train_alphazero(config, resume=args.resume)
    except ValueError as exc:
        print(f"boardsim train: {exc}", file=sys.stderr)
        return 2
    if args.export:
        from boardsim.training.alphazero import best_network

        best_network(result.checkpoint).save(args.export)
        print(f"best network exported to {args.export}")
    last = result.curve[-1] if result.curve else {}
    print(
        f"trained {result.iterations} iterations ({result.games} games, {result.positions} "
        f"positions) in {result.wall_seconds:.0f} s; best network from iteration "
        f"{result.best_iteration}; network alone vs heuristic "
        f"{last.get('best_vs_heuristic', float('nan'))}; checkpoint {result.checkpoint}"
    )
    return 0
