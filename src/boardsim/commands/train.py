"""``boardsim train GAME``: MaskablePPO on the batched engine (``--algo ppo``, the default),
self-play in the AlphaZero family on the compiled search (``--algo alphazero``), or RLlib
(``--backend rllib``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from boardsim.api import list_games
from boardsim.commands.args import seed_argument
from boardsim.core.options import option_words
from boardsim.training.checkpoint import export_policy


def parse_net_arch(text: str | None, flag: str = "--net-arch") -> list[int] | None:
    """``"256,256"`` -> [256, 256], ``"none"`` -> []; None stays None (sized from the
    observation)."""
    if text is None:
        return None
    if text == "none":
        return []
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"{flag} takes layer sizes like 256,256, got {text!r}") from None


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        metavar="KEY=VALUE",
        help="a game option, e.g. num_players=2 or level=6-4-3-4-2 (repeatable)",
    )


# what the flags without a help of their own set (their defaults are added when printed)
FLAG_HELP = {
    "backend": "ppo: sb3 (the batched engine and SB3, the default) or rllib (RLlib on Ray); "
    "alphazero: local (the default) or ray (the self-play games on Ray actors, the learner "
    "here: the same run)",
    "num_envs": "ppo: games played side by side",
    "seed": "the run's seed, an integer in [0, 2**63)",
    "epochs": "ppo: passes over each rollout",
    "gamma": "discount",
    "ent_coef": "ppo: entropy bonus",
    "no_progress": "no progress bar",
    "no_tensorboard": "no TensorBoard log",
    "search": "the search: gumbel or puct",
    "c_puct": "puct's exploration",
    "rollout": "the policy of a leaf's rollout",
    "rollout_depth": "decisions a rollout plays",
    "value_hidden": "the value head's hidden width",
    "weight_decay": "the optimizer's weight decay",
    "gate_threshold": "score the candidate needs to become the best",
    "gate_simulations": "search budget of a gate game",
    "warmup_expert": "the warm-up iterations' expert",
}

# the defaults of the flags that no configuration field gives
OTHER_DEFAULTS = {
    "threads": "all cores",
    "export": "none",
    "address": "a local Ray",
    "num_cpus": "all",
    "opponents": "random",
    "max_seconds": "none",
    "net_arch": "sized to the observation",
    "seed": "0",
    "option": "none",
}


def _config_default(name: str, config: Any) -> Any:
    import dataclasses

    field = next(f for f in dataclasses.fields(config) if f.name == name)
    if field.default is not dataclasses.MISSING:
        return field.default
    return field.default_factory()  # type: ignore[misc]


def flag_default(dest: str) -> str | None:
    """What a ``train`` flag left out means: the PPO and AlphaZero configurations'
    defaults of the setting it sets (both where they differ), else :data:`OTHER_DEFAULTS`."""
    # deferred on purpose, here and below: the trainers import torch (seconds), which no
    # other command needs
    from boardsim.training.alphazero import AlphaZeroConfig
    from boardsim.training.ppo import TrainConfig

    if dest in OTHER_DEFAULTS:
        return OTHER_DEFAULTS[dest]
    found = []
    for label, settings, config in (
        ("ppo", PPO_SETTINGS, TrainConfig),
        ("alphazero", ALPHAZERO_SETTINGS, AlphaZeroConfig),
    ):
        if dest in settings:
            value = _config_default(settings[dest], config)
            if isinstance(value, list):
                value = ",".join(str(v) for v in value) or "none"
            found.append((label, value))
    if not found:
        return None
    if len(found) == 2 and found[0][1] != found[1][1]:
        return ", ".join(f"{v} ({label})" for label, v in found)
    return str(found[0][1])


class TrainHelpFormatter(argparse.HelpFormatter):
    """``train --help``: every flag says its default (read from the configurations when
    the help is printed, so that parsing a command line imports no training code)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or not action.option_strings or action.dest == "help":
            return text
        if isinstance(action, argparse._StoreTrueAction):
            default: str | None = "off"
        elif action.default not in (None, False):
            default = str(action.default)
        else:
            default = flag_default(action.dest)
        if default is None:
            return text
        return f"{text} (default {default})" if text.strip() else f"default {default}"


# the alphazero group's flags, in the order --help lists them, each with its argparse
# keywords (every default None: a flag not given leaves the setting to the configuration,
# or on --resume to the run's own); a flag without help takes FLAG_HELP's
ALPHAZERO_FLAGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("--games-per-iteration", {"type": int, "help": "self-play games"}),
    ("--simulations", {"type": int, "help": "search budget a decision"}),
    ("--search", {"choices": ("gumbel", "puct")}),
    ("--gumbel-m", {"type": int, "help": "root actions sampled (gumbel)"}),
    ("--c-scale", {"type": float, "help": "gumbel's sigma scale"}),
    ("--c-puct", {"type": float}),
    (
        "--sample-moves",
        {
            "type": int,
            "help": "puct: a self-play game's first decisions drawn in proportion to the "
            "visits, the rest the most visited",
        },
    ),
    ("--noise", {"type": float, "help": "puct: Dirichlet noise's share of the root prior"}),
    ("--mix", {"type": float, "help": "leaf value: weight of a rollout"}),
    ("--rollout", {"choices": ("random", "heuristic")}),
    ("--rollout-depth", {"type": int}),
    (
        "--conv",
        {
            "help": "3x3 convolutions' channels before the hidden layers, e.g. 32,32 (a game "
            "whose observation is board planes; with --hidden none the heads start from "
            "1x1 convolutions)"
        },
    ),
    ("--hidden", {"help": "the trunk's hidden layers"}),
    ("--value-hidden", {"type": int}),
    (
        "--hint",
        {
            "action": "store_true",
            "help": "the network also reads the heuristic's move (a residual policy over it)",
        },
    ),
    ("--hint-weight", {"type": float, "help": "the hint's starting logit"}),
    (
        "--init",
        {
            "metavar": "NETWORK",
            "help": "start from this network (an .npz an alphazero run exported, e.g. "
            "agents/GAME/alphazero.npz): its weights, layers and hint, and its search "
            "settings where none is given (default none: from scratch)",
        },
    ),
    (
        "--lr-drops",
        {
            "metavar": "ITER:RATE,...",
            "help": "the learning rate's step drops: from iteration ITER on (counted from 1) "
            "the rate is RATE, e.g. 800:3e-4,1000:1e-4 (default none: --lr throughout)",
        },
    ),
    ("--weight-decay", {"type": float}),
    (
        "--search-value-weight",
        {
            "type": float,
            "help": "value target: this share the search's value of the position, the rest the "
            "game's result (default 0)",
        },
    ),
    ("--sample-reuse", {"type": float, "help": "times a position is seen"}),
    ("--max-steps", {"type": int, "help": "gradient steps an iteration"}),
    ("--buffer-size", {"type": int, "help": "positions kept"}),
    (
        "--min-buffer",
        {
            "type": int,
            "help": "no gradient step until the buffer holds this many positions (default 0)",
        },
    ),
    (
        "--symmetries",
        {
            "action": "store_true",
            "help": "learn each position in one of its symmetric forms drawn at random (a game "
            "that declares them: connect four's mirror)",
        },
    ),
    (
        "--playout-cap",
        {
            "metavar": "FULL:CHEAP:P",
            "help": "playout-cap randomization (KataGo): a share P of the self-play decisions "
            "searched with FULL simulations and trained on for the policy, the rest with CHEAP "
            "and trained on for the value only (default off)",
        },
    ),
    (
        "--random-opening",
        {
            "type": int,
            "metavar": "N",
            "help": "a self-play game begins with up to N uniformly random moves (how many: "
            "uniform in 0..N), not searched or trained on (default 0: none)",
        },
    ),
    (
        "--random-opening-share",
        {
            "type": float,
            "metavar": "P",
            "help": "the share of the self-play games that begin with a random opening, the "
            "others played from the start (default 1: every game)",
        },
    ),
    (
        "--warmup-iterations",
        {"type": int, "help": "first iterations played by an expert instead of the network"},
    ),
    ("--warmup-expert", {"choices": ("heuristic", "mcts")}),
    ("--warmup-simulations", {"type": int, "help": "the mcts expert's"}),
    (
        "--refine-iterations",
        {
            "type": int,
            "help": "after the warm-up: iterations of DAgger on the network's own positions (the "
            "network plays the heuristic, UCT relabels where it clearly does better)",
        },
    ),
    ("--refine-games", {"type": int, "help": "games a refinement iteration"}),
    ("--refine-simulations", {"type": int, "help": "the relabelling UCT's"}),
    ("--refine-margin", {"type": float, "help": "mean value a move must gain (0.05)"}),
    ("--refine-min-share", {"type": float, "help": "visit share of such a move (0.1)"}),
    ("--refine-lr", {"type": float, "help": "the refinement's lr"}),
    (
        "--refine-expert",
        {
            "choices": ("uct", "network"),
            "help": "who relabels a refinement's positions: UCT with the game's settings, or "
            "the network's own search (the run's settings, no noise), which improves with it",
        },
    ),
    (
        "--refine-baseline",
        {
            "choices": ("heuristic", "network"),
            "help": "a refinement target where no searched move is clearly better: the "
            "heuristic's move (DAgger towards the teacher) or the network's own (policy "
            "improvement on itself alone)",
        },
    ),
    (
        "--gate",
        {
            "choices": ("search", "none"),
            "help": "search: the candidate plays the best network, both searching, and replaces it "
            "when it scores --gate-threshold; none: no gate, the latest network plays the "
            "self-play",
        },
    ),
    ("--gate-games", {"type": int, "help": "candidate against best"}),
    ("--gate-threshold", {"type": float}),
    ("--gate-simulations", {"type": int}),
    (
        "--gate-openings",
        {
            "type": int,
            "help": "a gate game's first decisions sampled (puct: by the visits; gumbel: its noise "
            "on every move), so a game without chance plays distinct gate games",
        },
    ),
    (
        "--panel",
        {
            "help": "the fixed panel the network alone plays every --panel-every iterations: "
            "random, heuristic or mcts:SIMS, comma-separated, or none"
        },
    ),
    ("--panel-games", {"type": int, "help": "games against each"}),
    ("--panel-every", {"type": int, "help": "iterations between panels"}),
    (
        "--panel-positions",
        {"type": int, "help": "connect four: positions of the solver's mistake rate (0: none)"},
    ),
    (
        "--panel-seed",
        {
            "type": seed_argument,
            "help": "the panel's deals and positions (default: derived from --seed, no "
            "self-play game's)",
        },
    ),
    ("--eval-games", {"type": int, "help": "network alone vs heuristic"}),
    ("--max-seconds", {"type": float, "help": "stop after this wall time"}),
    (
        "--export-mix",
        {
            "type": float,
            "help": "the exported network's search: this share of a heuristic rollout's return in "
            "the leaf value, the rest its value (AlphaGo's lambda; default the run's --mix)",
        },
    ),
)


def add_parser(subparsers: Any) -> None:
    """Register ``boardsim train``."""
    p = subparsers.add_parser(
        "train",
        help="train an agent: PPO (MaskablePPO), AlphaZero self-play (--algo alphazero), "
        "or RLlib (--backend rllib)",
        description=__doc__,
        formatter_class=TrainHelpFormatter,
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
    p.add_argument(
        "--timesteps",
        type=int,
        default=None,
        help="ppo: learner decisions in all (default 200,000; on --resume, the run's own)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue from the latest checkpoint with the run's own settings (a flag giving "
        "one another value is refused; --timesteps, --iterations, --max-seconds, --threads, "
        "--torch-threads, --keep, --no-tensorboard, --no-progress may change)",
    )
    p.add_argument("--backend", choices=("sb3", "rllib", "local", "ray"), default=None)
    add_option_argument(p)
    p.add_argument(
        "--opponents",
        default=None,
        help="ppo: compiled opponents: random, heuristic, pool (the run's own past policies), "
        "net:PATH (a fixed network), or several comma-separated (each seat's envs split "
        "evenly between them), e.g. heuristic,pool",
    )
    p.add_argument("--pool-swap", type=int, default=None, help="rollouts between pool draws")
    p.add_argument("--num-envs", type=int, default=None)
    p.add_argument("--seed", type=seed_argument, default=None)
    p.add_argument("--n-steps", type=int, default=None, help="steps per env per rollout")
    p.add_argument("--batch-size", type=int, default=None, help="minibatch")
    p.add_argument("--epochs", type=int, default=None)
    p.add_argument("--lr", type=float, default=None, help="default 3e-4 (ppo), 1e-3 (alphazero)")
    p.add_argument("--gamma", type=float, default=None)
    p.add_argument(
        "--step-penalty",
        type=float,
        default=None,
        help="subtracted from the learner's reward at each of its decisions, so that stalling "
        "does not pay (default 0)",
    )
    p.add_argument(
        "--imitate",
        type=int,
        default=None,
        help="first fit the policy to this many decisions of the compiled heuristic in the "
        "learner's seats (and the value to their returns), then PPO (default 0: none)",
    )
    p.add_argument("--imitate-epochs", type=int, default=None, help="passes over those decisions")
    p.add_argument("--ent-coef", type=float, default=None)
    p.add_argument("--net-arch", default=None, help="hidden layers, e.g. 256,256")
    p.add_argument("--checkpoint-every", type=int, default=None, help="steps between saves")
    p.add_argument("--keep", type=int, default=None, help="checkpoints kept")
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
    for flag, keywords in ALPHAZERO_FLAGS:
        az.add_argument(flag, default=None, **keywords)
    rl = p.add_argument_group("on Ray (--backend rllib, or alphazero's --backend ray)")
    rl.add_argument(
        "--address", default=None, help="Ray cluster address (auto, host:6379, ray://host:10001)"
    )
    rl.add_argument(
        "--workers",
        type=int,
        default=None,
        help="alphazero --backend ray: self-play workers, a CPU each (default: one a CPU)",
    )
    rl.add_argument("--num-cpus", type=int, default=None, help="CPUs of a local Ray")
    for action in p._actions:
        if action.help is None and action.option_strings:  # argparse lists only a help
            action.help = FLAG_HELP[action.dest]
    p.set_defaults(func=run)


# the flags (argparse dests) that set a run's settings, and the settings they set; a flag
# left out is left to the configuration's default, or on --resume to the run's own
PPO_SETTINGS = {
    "opponents": "opponents",
    "pool_swap": "pool_swap",
    "num_envs": "num_envs",
    "seed": "seed",
    "n_steps": "n_steps",
    "batch_size": "batch_size",
    "epochs": "n_epochs",
    "lr": "learning_rate",
    "gamma": "gamma",
    "step_penalty": "step_penalty",
    "imitate": "imitate",
    "imitate_epochs": "imitate_epochs",
    "ent_coef": "ent_coef",
    "net_arch": "net_arch",
    "checkpoint_every": "checkpoint_every",
    "keep": "keep_checkpoints",
    "no_tensorboard": "tensorboard",
}
ALPHAZERO_SETTINGS = {
    "iterations": "iterations",
    "games_per_iteration": "games_per_iteration",
    "simulations": "simulations",
    "search": "search",
    "gumbel_m": "gumbel_m",
    "c_scale": "c_scale",
    "c_puct": "c_puct",
    "sample_moves": "sample_moves",
    "noise": "noise",
    "mix": "mix",
    "rollout": "rollout",
    "rollout_depth": "rollout_depth",
    "conv": "conv",
    "hidden": "hidden",
    "value_hidden": "value_hidden",
    "hint": "hint",
    "hint_weight": "hint_weight",
    "init": "init",
    "lr": "learning_rate",
    "lr_drops": "lr_drops",
    "weight_decay": "weight_decay",
    "search_value_weight": "search_value_weight",
    "batch_size": "batch_size",
    "sample_reuse": "sample_reuse",
    "max_steps": "max_steps",
    "buffer_size": "buffer_size",
    "min_buffer": "min_buffer",
    "symmetries": "symmetries",
    "playout_cap": "playout_cap",
    "random_opening": "random_opening",
    "random_opening_share": "random_opening_share",
    "warmup_iterations": "warmup_iterations",
    "warmup_expert": "warmup_expert",
    "warmup_simulations": "warmup_simulations",
    "refine_iterations": "refine_iterations",
    "refine_games": "refine_games",
    "refine_simulations": "refine_simulations",
    "refine_margin": "refine_margin",
    "refine_min_share": "refine_min_share",
    "refine_lr": "refine_learning_rate",
    "refine_baseline": "refine_baseline",
    "refine_expert": "refine_expert",
    "gate_games": "gate_games",
    "gate_threshold": "gate_threshold",
    "gate_simulations": "gate_simulations",
    "gate": "gate",
    "gate_openings": "gate_openings",
    "panel": "panel",
    "panel_games": "panel_games",
    "panel_every": "panel_every",
    "panel_positions": "panel_positions",
    "panel_seed": "panel_seed",
    "eval_games": "eval_games",
    "seed": "seed",
    "keep": "keep_checkpoints",
    "max_seconds": "max_seconds",
    "no_tensorboard": "tensorboard",
}
LAYER_FLAGS = ("net_arch", "hidden", "conv")  # "256,256" -> [256, 256]; "none" -> []
LIST_FLAGS = ("panel",)  # "random,mcts:200" -> ["random", "mcts:200"]; "none" -> []


def parse_list(text: str) -> list[str]:
    """``"random,mcts:200"`` -> ``["random", "mcts:200"]``; ``"none"`` -> ``[]``."""
    return [] if text == "none" else [x for x in text.split(",") if x]


def given_settings(
    args: argparse.Namespace, settings: dict[str, str]
) -> tuple[dict[str, Any], dict[str, str]]:
    """The settings the command line gives, and the flag that gave each (for messages).

    A flag left out is not among them (its default is None); ``--no-X`` flags give
    ``X=False`` when present.
    """
    values: dict[str, Any] = {}
    flags: dict[str, str] = {}
    for dest, name in settings.items():
        value = getattr(args, dest)
        if dest.startswith("no_"):
            if not value:
                continue
            value = False
        elif value is None:
            continue
        elif dest in LAYER_FLAGS:
            value = parse_net_arch(value, "--" + dest.replace("_", "-"))
        elif dest in LIST_FLAGS:
            value = parse_list(value)
        values[name] = value
        flags[name] = "--" + dest.replace("_", "-")
    return values, flags


INTERRUPTED_STATUS = 130  # a shell's status for a command ended by Ctrl-C (128 + SIGINT)


def run(args: argparse.Namespace) -> int:
    """Train; a Ctrl-C ends it with a sentence saying how to go on, not a traceback (every
    checkpoint is written whole before it counts, so the last one is intact)."""
    try:
        return _train(args)
    except KeyboardInterrupt:
        run_dir = args.run_dir or f"runs/{args.game}"
        print(
            f"\nboardsim train: interrupted; {run_dir} keeps the checkpoint of the last "
            f"finished iteration (or rollout): the same command with --resume continues it",
            file=sys.stderr,
        )
        return INTERRUPTED_STATUS


def _train(args: argparse.Namespace) -> int:
    try:
        options = option_words(args.option)
        ppo_values, ppo_flags = given_settings(args, PPO_SETTINGS)
    except ValueError as exc:
        print(f"boardsim train: {exc}", file=sys.stderr)
        return 2
    run_dir = args.run_dir or f"runs/{args.game}"
    if args.export_mix is not None and (args.algo != "alphazero" or args.backend == "rllib"):
        print("boardsim train: --export-mix is an alphazero flag", file=sys.stderr)
        return 2
    problem = _backend_problem(args) or _foreign_flags(args)
    if problem:
        print(f"boardsim train: {problem}", file=sys.stderr)
        return 2
    if args.backend == "rllib":
        return _run_rllib(args, options, run_dir)
    if args.algo == "alphazero":
        return _run_alphazero(args, options, run_dir)
    from boardsim.training.ppo import TrainConfig, train

    if args.timesteps is not None:
        ppo_flags["total_timesteps"] = "--timesteps"
    config = TrainConfig(
        game=args.game,
        run_dir=run_dir,
        options=options,
        total_timesteps=args.timesteps if args.timesteps is not None else 200_000,
        threads=args.threads,
        torch_threads=args.torch_threads,
        progress=not args.no_progress,
        **ppo_values,
    )
    try:
        result = train(config, resume=args.resume, explicit=ppo_flags)
    except ValueError as exc:
        print(f"boardsim train: {exc}", file=sys.stderr)
        return 2
    if args.export:
        export_policy(result.checkpoint, args.export)
        print(f"policy exported to {args.export}")
    if result.trained == 0:
        print(f"already at {result.timesteps} steps; checkpoint {result.checkpoint}")
        return 0
    print(
        f"trained {result.timesteps} steps ({result.games} games, recent win rate "
        f"{result.win_rate:.3f}) in {result.wall_seconds:.0f} s; checkpoint {result.checkpoint}"
    )
    return 0


def _foreign_flags(args: argparse.Namespace) -> str | None:
    """The alphazero flags given to a ppo run (which would ignore them), or None; RLlib's
    backend reads ``--iterations``."""
    if args.algo == "alphazero" and args.backend != "rllib":
        return None
    allowed = set(PPO_SETTINGS) | ({"iterations"} if args.backend == "rllib" else set())
    given = [
        "--" + dest.replace("_", "-")
        for dest in ALPHAZERO_SETTINGS
        if dest not in allowed and getattr(args, dest) not in (None, False)
    ]  # read as typed: a malformed value is as foreign as a well-formed one
    if not given:
        return None
    verb = "is an alphazero flag" if len(given) == 1 else "are alphazero flags"
    return f"{', '.join(given)} {verb}: a ppo run would ignore it (its layers: --net-arch)"


def _backend_problem(args: argparse.Namespace) -> str | None:
    """Why ``--backend`` (and Ray's flags) do not go with ``--algo``, or None."""
    if args.algo == "alphazero":
        if args.backend == "sb3":
            return "--backend sb3 is ppo's; alphazero runs --backend local or ray"
        if args.backend not in ("ray", "rllib") and (
            args.workers is not None or args.address is not None
        ):
            return "--workers and --address go with --backend ray"
    elif args.backend == "ray":
        return "ppo on Ray is --backend rllib (--backend ray is alphazero's self-play)"
    elif args.workers is not None:
        return "--workers is alphazero's (--backend ray)"
    return None


def _run_rllib(args: argparse.Namespace, options: dict[str, Any], run_dir: str) -> int:
    from boardsim.training.rllib import RLlibConfig, train_rllib

    config = RLlibConfig(
        game=args.game,
        run_dir=run_dir,
        options=options,
        iterations=args.iterations or 10,
        seed=0 if args.seed is None else args.seed,
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

    if args.export_mix is not None and not (args.export and 0 <= args.export_mix <= 1):
        print("boardsim train: --export-mix takes a share in [0, 1] and --export", file=sys.stderr)
        return 2
    try:
        values, flags = given_settings(args, ALPHAZERO_SETTINGS)
        config = AlphaZeroConfig(
            game=args.game,
            run_dir=run_dir,
            options=options,
            threads=args.threads,
            torch_threads=args.torch_threads,
            progress=not args.no_progress,
            backend=args.backend or "local",
            workers=args.workers,
            address=args.address,
            **values,
        )
        result = train_alphazero(config, resume=args.resume, explicit=flags)
    except ValueError as exc:
        print(f"boardsim train: {exc}", file=sys.stderr)
        return 2
    if args.export:
        from boardsim.training.alphazero import export_best

        export_best(result.checkpoint, args.export, mix=args.export_mix)
        print(f"best network exported to {args.export} (with its training record)")
    last = result.curve[-1] if result.curve else {}
    print(
        f"trained {result.iterations} iterations ({result.games} games, {result.positions} "
        f"positions) in {result.wall_seconds:.0f} s; best network from iteration "
        f"{result.best_iteration}; network alone vs heuristic "
        f"{last.get('best_vs_heuristic', float('nan'))}; checkpoint {result.checkpoint}"
    )
    return 0
