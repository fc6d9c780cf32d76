"""Self-play training in the AlphaZero family (expert iteration), on the compiled search.

Each iteration of :func:`train_alphazero`:

1. **Self-play**: ``games_per_iteration`` whole games, every seat the compiled search
   guided by the *best* network so far (:func:`boardsim.core.search.games.selfplay`, one game a
   thread, on every core), Gumbel AlphaZero's search by default (``search="gumbel"``:
   Gumbel-top-k and sequential halving at the root, made for small budgets) or
   AlphaZero's PUCT with Dirichlet noise and moves drawn in proportion to the visits in
   a game's first decisions (``search="puct"``). Dice and draws come from the game's own
   generator; hidden hands (the race) are redealt for every simulation by the game's
   ``determinize``; every seat uses the one network (Hispania's generals all; the
   Hispano seat too when it is a player), each from its own observation. The first
   ``warmup_iterations`` are played by an *expert* instead (``warmup_expert``: the game's
   compiled heuristic, targets its moves; or ``"mcts"``: today's UCT with the game's
   settings, targets its visits), so the network starts from the teacher. The next
   ``refine_iterations`` are **policy improvement on the network's own positions**
   (DAgger, Ross et al. 2011): the best network alone (its most likely move) plays
   each side against the heuristic, ``refine_games`` games; UCT with the game's
   settings at ``refine_simulations`` searches every position the network decided
   afresh (:func:`boardsim.core.search.relabel.search_positions`), and the target is the
   heuristic's move unless a searched move, visited at least ``refine_min_share`` of
   the time, has a mean value higher by more than ``refine_margin``: then that move
   (:func:`improvement_targets`); ``refine_baseline="network"`` keeps the network's own
   move instead, ``refine_expert="network"`` relabels with its own search. A search's
   visits in a game of dice are noise where moves are close: only a clearly better move
   moves a target. The buffer is emptied when refinement starts (the network learns
   where its own play takes it); refinement iterations are not gated.
2. Every decision with a choice becomes a position of the replay buffer
   (:mod:`.replay`): the state, the search's policy target (the improved policy, or the
   visit distribution) and the game's result.
3. **Training** (torch, CPU): ``steps`` minibatches drawn uniformly from the buffer (enough
   for every new position to be seen ``sample_reuse`` times): cross-entropy of the masked
   policy against the target, squared error of the value against the result, AdamW.
4. **Gating**: the trained network plays the best one ``gate_games`` games with the same
   search (seats rotated; in a cooperative game, the same deals, the side's wins
   compared); it becomes the best when it scores at least ``gate_threshold``.
5. **The curve**: the network alone (no search, its most likely move) against the
   game's heuristic, ``eval_games`` games, seats rotated; and the best network's.
6. A **checkpoint** (:func:`write_alphazero_checkpoint`): both networks, the torch model
   and optimizer, the replay buffer, every generator, the curve; ``--resume`` continues
   exactly (same games, same batches, same weights).

Everything runs in compiled code but the gradient steps: a network is exported to the
compiled format (:meth:`boardsim.training.networks.LayoutNet.export`) for every
self-play, gating and evaluation.
"""

from __future__ import annotations

import io
import json
import math
import time
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from boardsim import __version__
from boardsim.api import make_game
from boardsim.core import header as hd
from boardsim.core.batch import play_games, threads_used
from boardsim.core.compiles import compiling_notice
from boardsim.core.errors import OptionError
from boardsim.core.game import SEED_LIMIT, checked_seed
from boardsim.core.network import Network
from boardsim.core.rng import derive_seed
from boardsim.core.seats import (
    NETWORK_SEARCH_DEFAULTS,
    S_TEMPERATURE,
    Seat,
    game_uct_seat,
    search_seat,
    search_settings,
    seat_table,
)
from boardsim.training.checkpoint import (
    atomic_write_text,
    game_metadata,
    latest_checkpoint,
    read_entry,
    read_metadata,
    read_resume_arrays,
    resume_settings,
    set_by_caller,
    write_checkpoint,
)
from boardsim.training.panel import (
    Panel,
    make_panel,
    panel_row,
    rotated_scores,
    side_scores,
)
from boardsim.training.positions import heuristic_moves, search_positions
from boardsim.training.replay import ReplayBuffer
from boardsim.training.run_log import (
    finite_row,
    iteration_line,
    log_row,
    progress_bar,
    tensorboard_writer,
    train_command,
    write_curve_csv,
)
from boardsim.training.selfplay import (
    SELFPLAY_CHUNK,
    Deal,
    RaySelfPlay,
    check_backend,
    local_selfplay,
    selfplay_games,
    workers_for,
)
from boardsim.training.targets import (
    improvement_targets,
    policy_cross_entropy,
    symmetric_forms,
    symmetry_maps,
    value_targets,
)

ALGORITHM = "alphazero"
EXPERTS = ("heuristic", "mcts")
# what a refinement target is when the search finds no clearly better move
REFINE_BASELINES = ("heuristic", "network")
# who relabels a refinement's positions: UCT with the game's settings, or the best
# network's own search (the run's search settings, no noise), which grows with it
REFINE_EXPERTS = ("uct", "network")
RELABELLERS = {"uct": "mcts", "network": "alphazero-mcts"}  # as the agents are named
GATES = ("search", "none")
CURVE_CSV = "curve.csv"
PANEL_SEED_OFFSET = 424_242_424_243  # the panel's deals and positions: no self-play game's


@dataclass
class AlphaZeroConfig:
    """One self-play run. Searches are in simulations a decision."""

    game: str
    run_dir: str
    options: dict[str, Any] = field(default_factory=dict)
    iterations: int = 20
    games_per_iteration: int = 64
    simulations: int = 32
    search: str = "gumbel"  # "gumbel" or "puct"
    gumbel_m: int = 16
    c_visit: float = 50.0
    # sigma's scale of the completed Q (Gumbel), as core/seats.py's and Gumbel MuZero's
    c_scale: float = 1.0
    c_puct: float = 1.5
    noise: float = 0.25  # puct: Dirichlet noise on the root prior in self-play
    alpha: float = 0.3
    sample_moves: int = 30  # puct: a game's first decisions drawn in proportion to visits
    fpu: float = 0.2
    mix: float = 0.0  # leaf value: (1 - mix) network + mix rollout
    rollout: str = "heuristic"
    rollout_depth: int = 20
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    value_hidden: int = 64
    # 3x3 convolutions of these channels before the hidden layers, over a game whose
    # observation is board planes (its ``board_planes``); with no hidden layers, the heads
    # start from 1x1 convolutions of the board (AlphaZero's). []: a dense network
    conv: list[int] = field(default_factory=list)
    hint: bool = False  # the input: the observation, then the heuristic's move (NET_HINT)
    # a network the run starts from (an .npz an alphazero run exported, e.g. a shipped
    # one): its weights, and its layers and hint in place of conv/hidden/value_hidden/hint
    init: str | None = None
    hint_weight: float = 3.0  # the hinted move's starting logit bonus (the skip layer's)
    learning_rate: float = 1e-3
    # the learning rate's step drops (AlphaZero's and KataGo's schedule), "ITER:RATE,...":
    # from iteration ITER on (counted from 1, the warm-up's among them) the rate is RATE;
    # None: learning_rate throughout
    lr_drops: str | None = None
    weight_decay: float = 1e-4
    batch_size: int = 256
    sample_reuse: float = 4.0
    max_steps: int = 2000  # gradient steps an iteration at most
    value_weight: float = 1.0
    # the value target: (1 - w) the game's result + w the search's value of the position
    # (its mean over the simulations: far less noisy than one game's result in a game of
    # dice and hidden cards); positions no search chose keep the result
    search_value_weight: float = 0.0
    buffer_size: int = 200_000
    # no gradient step until the buffer holds this many positions: the iterations before
    # play and store their games with the network they started from (a run from --init
    # then first trains on several iterations of its own games, not on one's); 0: from
    # the first iteration
    min_buffer: int = 0
    # each position of a minibatch in one of its symmetric forms, drawn at random (the
    # identity among them): a game that declares symmetries (GameDefinition.symmetries:
    # connect four's mirror) learns them from every game at no cost of self-play
    symmetries: bool = False
    # playout-cap randomization (KataGo), "FULL:CHEAP:P": a self-play decision is searched
    # with FULL simulations with probability P and trained on for the policy, else with
    # CHEAP and not (its values kept); None: every decision with --simulations
    playout_cap: str | None = None
    # a self-play game begins with k uniformly random moves, k uniform in [0, N], neither
    # searched nor recorded: it learns the positions random play reaches (0: none); only
    # a share of the games when random_opening_share < 1 (the others from the start)
    random_opening: int = 0
    random_opening_share: float = 1.0
    max_positions_per_game: int = 4096
    warmup_iterations: int = 0
    warmup_expert: str = "heuristic"
    warmup_simulations: int = 200
    refine_iterations: int = 0  # after the warm-up: DAgger on the network's own positions
    refine_games: int | None = None  # games a refinement iteration; None: games_per_iteration
    refine_simulations: int | None = None  # the relabelling UCT's; None: warmup_simulations
    refine_margin: float = 0.05  # how much better a searched move's mean value must be
    refine_min_share: float = 0.1  # ... among the moves visited this share of the time
    refine_learning_rate: float | None = None  # None: the schedule's (learning_rate_at)
    # the target where no searched move is clearly better: the heuristic's move (DAgger
    # towards the teacher) or the network's own (policy improvement on itself alone)
    refine_baseline: str = "heuristic"
    refine_expert: str = "uct"  # the relabelling search: "uct" or the network's ("network")
    gate: str = "search"  # "search": the candidate must beat the best; "none": no gate
    gate_games: int = 64
    gate_threshold: float = 0.55
    gate_simulations: int | None = None  # None: the self-play budget
    # a gate game's first decisions sampled (puct: in proportion to the visits; gumbel:
    # every move by the Gumbel noise), so that a game without chance gives distinct games
    gate_openings: int = 4
    # the fixed panel (.panel): the network alone against these, every panel_every
    # iterations, panel_games games each; on connect four also the solver's mistake rate
    # on panel_positions positions; panel_seed None: one derived from the seed
    panel: list[str] = field(default_factory=lambda: ["random", "heuristic", "mcts:200"])
    panel_games: int = 20
    panel_every: int = 1
    panel_positions: int = 200
    panel_seed: int | None = None
    eval_games: int = 200
    seed: int = 0
    # where the self-play games are played: "local" (threads here) or "ray" (Ray actors,
    # the learner here; the same run bit for bit); workers None: one a CPU of the cluster
    backend: str = "local"
    workers: int | None = None
    address: str | None = None
    threads: int | None = None
    torch_threads: int | None = 1
    keep_checkpoints: int = 3
    max_seconds: float | None = None  # stop after the iteration that passes it
    tensorboard: bool = True
    progress: bool = True

    def validate(self) -> None:
        """Refuse settings that cannot work, with the reason."""
        try:
            self.seed = checked_seed(self.seed)
        except ValueError as exc:
            raise OptionError(str(exc)) from None
        counts = (
            "iterations",
            "games_per_iteration",
            "simulations",
            "gumbel_m",
            "batch_size",
            "max_steps",
            "buffer_size",
            "max_positions_per_game",
            "keep_checkpoints",
            "warmup_simulations",
            "panel_every",
        )
        _refuse_below(self, counts, 1, "at least 1")
        _refuse_below(self, ("refine_games", "refine_simulations"), 1, "at least 1", optional=True)
        if self.refine_margin < 0 or not 0 <= self.refine_min_share <= 1:
            raise OptionError(
                "refine_margin must be >= 0 and refine_min_share in [0, 1], got "
                f"{self.refine_margin}, {self.refine_min_share}"
            )
        if self.refine_learning_rate is not None and self.refine_learning_rate <= 0:
            raise OptionError(f"refine_learning_rate must be > 0, got {self.refine_learning_rate}")
        zeros = (
            "gate_games",
            "gate_openings",
            "panel_games",
            "panel_positions",
            "eval_games",
            "warmup_iterations",
            "refine_iterations",
            "value_hidden",
            "random_opening",
            "min_buffer",
        )
        _refuse_below(self, zeros, 0, ">= 0")
        if self.min_buffer > self.buffer_size:
            raise OptionError(
                f"min_buffer ({self.min_buffer}) must not exceed buffer_size "
                f"({self.buffer_size}): the buffer never holds more, so no step would be taken"
            )
        if self.gate not in GATES:
            raise OptionError(f"gate must be one of {GATES}, got {self.gate!r}")
        if self.search not in ("gumbel", "puct"):
            raise OptionError(f"search must be gumbel or puct, got {self.search!r}")
        if self.refine_baseline not in REFINE_BASELINES:
            raise OptionError(
                f"refine_baseline must be one of {REFINE_BASELINES}, got {self.refine_baseline!r}"
            )
        if self.refine_expert not in REFINE_EXPERTS:
            raise OptionError(
                f"refine_expert must be one of {REFINE_EXPERTS}, got {self.refine_expert!r}"
            )
        if self.warmup_expert not in EXPERTS:
            raise OptionError(f"warmup_expert must be one of {EXPERTS}, got {self.warmup_expert!r}")
        if any(int(h) < 1 for h in self.hidden) or not (self.hidden or self.conv):
            raise OptionError(f"hidden must be positive layer sizes, got {self.hidden}")
        if any(int(c) < 1 for c in self.conv):
            raise OptionError(f"conv must be positive numbers of channels, got {self.conv}")
        if self.conv and self.hint:
            raise OptionError("conv reads the board planes alone: it cannot take --hint")
        if self.symmetries and self.hint:
            raise OptionError(
                "--symmetries cannot take --hint: the heuristic's move in a symmetric position "
                "is not always the symmetric move (its ties are broken one way)"
            )
        if self.learning_rate <= 0 or self.sample_reuse <= 0 or self.value_weight < 0:
            raise OptionError("learning_rate and sample_reuse must be > 0, value_weight >= 0")
        self.learning_rate_drops()  # checked there
        if not 0 <= self.search_value_weight <= 1:
            raise OptionError(
                f"search_value_weight must be in [0, 1], got {self.search_value_weight}"
            )
        if not 0 <= self.noise <= 1 or self.sample_moves < 0:  # puct's, refused with gumbel too
            raise OptionError(
                f"noise must be in [0, 1] and sample_moves >= 0, got {self.noise}, "
                f"{self.sample_moves}"
            )
        for name in ("gate_threshold", "random_opening_share"):
            if not 0 <= getattr(self, name) <= 1:
                raise OptionError(f"{name} must be in [0, 1], got {getattr(self, name)}")
        if self.random_opening_share < 1 and self.random_opening == 0:
            raise OptionError("random_opening_share needs random_opening (--random-opening N)")
        if self.gate_simulations is not None and self.gate_simulations < 1:
            raise OptionError("gate_simulations must be at least 1")
        search_settings(None, self.simulations, **self.search_options())  # checked there
        self.playout_budgets()  # checked there
        check_backend(self.backend, self.workers, self.address)

    def playout_budgets(self) -> tuple[int, int, float] | None:
        """``(full, cheap, share)`` of ``playout_cap`` (None: off); an
        :class:`OptionError` when it is not ``FULL:CHEAP:P`` with ``1 <= CHEAP <= FULL``
        and ``0 < P <= 1``."""
        if self.playout_cap is None:
            return None
        words = str(self.playout_cap).split(":")
        try:
            full, cheap, share = int(words[0]), int(words[1]), float(words[2])
        except (ValueError, IndexError):
            full, cheap, share = 0, 0, 0.0
        if len(words) != 3 or not 1 <= cheap <= full or not 0 < share <= 1:
            raise OptionError(
                "playout_cap must be FULL:CHEAP:P (simulations, 1 <= CHEAP <= FULL, and the "
                f"share 0 < P <= 1 searched fully), got {self.playout_cap!r}"
            )
        return full, cheap, share

    def learning_rate_drops(self) -> list[tuple[int, float]]:
        """``lr_drops`` as ``(iteration, rate)`` pairs ([] when off); an
        :class:`OptionError` when it is not ``ITER:RATE,...`` with iterations of at least 1
        rising from one drop to the next and finite rates above 0."""
        if self.lr_drops is None:
            return []
        drops: list[tuple[int, float]] = []
        for word in str(self.lr_drops).split(","):
            parts = word.split(":")
            try:
                iteration, rate = int(parts[0]), float(parts[1])
            except (ValueError, IndexError):
                iteration, rate = 0, 0.0
            after = drops[-1][0] if drops else 0
            if len(parts) != 2 or iteration <= after or not 0 < rate < math.inf:
                raise OptionError(
                    "lr_drops must be ITER:RATE,... (from iteration ITER on, counted from 1, "
                    f"the learning rate RATE > 0; iterations rising), got {self.lr_drops!r}"
                )
            drops.append((iteration, rate))
        return drops

    def learning_rate_at(self, iteration: int) -> float:
        """The learning rate iteration ``iteration`` (counted from 1) trains at: the
        last of ``lr_drops`` at or before it, else ``learning_rate``."""
        rate = self.learning_rate
        for start, dropped in self.learning_rate_drops():
            if start <= iteration:
                rate = dropped
        return rate

    def search_options(self, training: bool = True, openings: int = 0) -> dict[str, Any]:
        """The network search's settings (``core/seats.py``), with training's noise or not;
        ``openings`` (without training's noise): a game's first decisions sampled (puct:
        in proportion to the visits; gumbel: its noise on, the move sampled every time)."""
        gumbel = self.search == "gumbel"
        sample = self.sample_moves if training else openings
        return {
            "search": self.search,
            "gumbel_m": self.gumbel_m,
            "c_visit": self.c_visit,
            "c_scale": self.c_scale,
            "gumbel_scale": 1.0 if gumbel and (training or openings > 0) else 0.0,
            "c_puct": self.c_puct,
            "noise": self.noise if training and not gumbel else 0.0,
            "alpha": self.alpha,
            "sample_moves": 0 if gumbel else sample,
            "fpu": self.fpu,
            "mix": self.mix,
            "rollout": self.rollout,
            "rollout_depth": self.rollout_depth,
        }


def _refuse_below(
    config: Any, names: tuple[str, ...], least: int, words: str, optional: bool = False
) -> None:
    """:class:`OptionError` for the first of the settings ``names`` of ``config`` below
    ``least`` (``words`` says the bound; ``optional``: None is allowed)."""
    for name in names:
        value = getattr(config, name)
        if optional and value is None:
            continue
        if int(value) < least:
            raise OptionError(f"{name} must be {words}, got {value}")


@dataclass
class AlphaZeroResult:
    """What a finished run reports."""

    run_dir: str
    checkpoint: str
    iterations: int
    games: int
    positions: int
    best_iteration: int
    curve: list[dict[str, Any]]
    wall_seconds: float


# ---------------------------------------------------------------- games in compiled code
def rotated_score(game: Any, a: Seat, b: Seat, games: int, seed: int, threads: int | None) -> float:
    """``a``'s mean score against ``b`` (:func:`boardsim.training.panel.rotated_scores`;
    NaN without games)."""
    if games < 1:
        return float("nan")
    return float(rotated_scores(game, a, b, games, seed, threads).mean())


def side_win_rate(game: Any, seat: Seat, games: int, seed: int, threads: int | None) -> float:
    """The win rate of ``seat`` (every seat of its side) against the heuristic (seats
    rotated over the sides; a cooperative game: the side's win rate)."""
    if game.is_cooperative():
        out = play_games(game, games, [seat] * game.num_players, seed, 0, threads)
        return float((out["returns"][:, 0] > 0).mean())
    return rotated_score(game, seat, Seat.named("heuristic"), games, seed, threads)


# ---------------------------------------------------------------- the trainer
class AlphaZeroTrainer:
    """The parts of one run: the game, the torch model, the buffer, the best network."""

    def __init__(self, config: AlphaZeroConfig) -> None:
        import torch  # deferred on purpose: torch is heavy, and only the trainer needs it

        # deferred with torch, which it imports
        from boardsim.training.networks import (
            LayoutNet,
            alphazero_layers,
            board_planes,
            start_from_hint,
        )

        config.validate()
        self.config = config
        self.run_dir = Path(config.run_dir)
        self.game = make_game(config.game, **config.options)
        if self.game.options.get("explicit_chance"):
            raise OptionError("self-play draws chance inside the game: explicit_chance=False")
        g = self.game
        torch.manual_seed(config.seed)
        self.input_size = g.observation_size + (g.num_actions if config.hint else 0)
        layers, policy_slot, value_slot = alphazero_layers(
            self.input_size,
            g.num_actions,
            g.num_players,
            config.hidden,
            config.value_hidden,
            skip=config.hint,
            conv=config.conv,
            board=board_planes(self.game, config.conv),
        )
        self.model = LayoutNet(layers, policy_slot, value_slot, prune=True, hint=config.hint)
        if config.hint:
            start_from_hint(self.model, g.observation_size, config.hint_weight)
        self.optimizer = torch.optim.AdamW(
            self.model.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay
        )
        self.buffer = ReplayBuffer(config.buffer_size, g.state_size, g.num_actions, g.num_players)
        self.symmetries = symmetry_maps(g) if config.symmetries else ()
        self.rng = np.random.default_rng(config.seed)  # minibatches
        self._trained_upto = 0  # positions of the buffer the training has taken in
        self.iteration = 0
        self.games = 0
        self.best = self.export(0)
        self.best_iteration = 0
        self.curve: list[dict[str, Any]] = []
        self.panel: Panel | None = None
        self.panel_seconds = 0.0  # the last panel's wall time
        self.wall_before = 0.0
        self.session_start = time.perf_counter()
        self.workers: RaySelfPlay | None = None  # self-play on Ray (train_alphazero sets it)

    # ------------------------------------------------------------ networks and seats
    def start_from(self, network: Network) -> None:
        """Start from ``network``'s weights (``--init``): a network of this run's layout,
        which becomes the best network and the first self-play's player."""
        from boardsim.training.networks import LayoutNet  # imports torch

        # the same layers, sizes and weights' places (the slots between them were numbered
        # otherwise before the convolutions came, so the wiring's numbers are not compared)
        mine = self.export(0).layout
        if mine.shape != network.layout.shape or not np.array_equal(
            mine[1:, 2:], network.layout[1:, 2:]
        ):
            raise OptionError(
                f"--init {self.config.init}: its layers differ from this run's (another "
                "observation or action count, from other game options?)"
            )
        self.model.load_state_dict(LayoutNet.from_network(network).state_dict())
        self.best = self.export(0)

    def export(self, iteration: int) -> Network:
        """The model as a compiled network, with what it is and how it searches."""
        return self.model.export(
            {
                **game_metadata(self.game),
                "source": ALGORITHM,
                "iteration": iteration,
                "architecture": {
                    "conv": list(self.config.conv),
                    "hidden": list(self.config.hidden),
                    "value_hidden": self.config.value_hidden,
                    "activation": "relu",
                    "hint": self.config.hint,
                },
                "search": self.config.search_options(training=False),
                "boardsim_version": __version__,
            }
        )

    def search(
        self,
        network: Network,
        training: bool,
        simulations: int | None = None,
        openings: int = 0,
    ) -> Seat:
        """``network`` searching with the run's settings (self-play noise when training;
        ``openings``: :meth:`AlphaZeroConfig.search_options`)."""
        c = self.config
        settings = search_settings(
            network, simulations or c.simulations, **c.search_options(training, openings)
        )
        return search_seat(network, settings, "alphazero")

    def expert(self) -> Seat:
        """The warm-up's expert: the heuristic, or UCT with the game's settings."""
        c = self.config
        if c.warmup_expert == "heuristic":
            return Seat.named("heuristic")
        return game_uct_seat(self.game, c.warmup_simulations)

    @staticmethod
    def alone(network: Network) -> Seat:
        """The network alone: its most likely move."""
        return Seat(hd.POLICY_NETWORK, network, {S_TEMPERATURE: 0.0}, "network")

    # ------------------------------------------------------------ self-play
    def selfplay(self, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
        """One iteration's games, into the buffer; returns their statistics."""
        c = self.config
        g = self.game
        if self.refining(self.iteration + 1):
            return self.refine(progress)
        # the schedule's rate (:meth:`AlphaZeroConfig.learning_rate_at`); the
        # refinement's own, when it has one, ends with it
        self.set_learning_rate(c.learning_rate_at(self.iteration + 1))
        warm = self.iteration < c.warmup_iterations
        budgets = None if warm else c.playout_budgets()
        full_sims = budgets[0] if budgets else None
        seat = self.expert() if warm else self.search(self.best, True, full_sims)
        table = seat_table(g, [seat] * g.num_players)
        cheap, share = None, 1.0
        if budgets is not None:  # playout-cap randomization: the cheap searches' table
            cheap = seat_table(g, [self.search(self.best, True, budgets[1])] * g.num_players)
            share = budgets[2]
        record = np.zeros(g.max_players, np.uint8)
        record[: g.num_players] = 1
        cap = min(c.max_positions_per_game, int(g.options.get("max_decisions") or 10**9))
        first = self.iteration * c.games_per_iteration
        start = time.perf_counter()
        positions = with_policy = 0
        returns_all, lengths = [], []
        opening = (c.random_opening, c.random_opening_share)
        deal = Deal(table, cheap, share, record, c.seed, cap, *opening)
        n_games = c.games_per_iteration
        if self.workers is None:
            played = local_selfplay(g, deal, first, n_games, c.threads)
        else:  # the same games, on Ray
            played = self.workers.play(deal, first, n_games)
        for out in played:
            n = len(out["decisions"])
            self.buffer.add(out["states"], out["policies"], out["position_returns"], out["values"])
            positions += len(out["states"])
            with_policy += int((out["policies"].astype(np.float32).sum(axis=1) > 0).sum())
            returns_all.append(out["returns"])
            lengths.append(out["decisions"])
            if progress is not None:
                progress(n)
        self.games += c.games_per_iteration
        returns = np.concatenate(returns_all)
        lengths_all = np.concatenate(lengths)
        return {
            "games": c.games_per_iteration,
            "positions": positions,
            "policy_positions": with_policy,  # those with a policy target (playout cap)
            "seconds": time.perf_counter() - start,
            "decisions_mean": float(lengths_all.mean()),
            "first_side_wins": float((returns[:, 0] > 0).mean()),
            "expert": seat.label if warm else "",
        }

    def set_learning_rate(self, rate: float) -> None:
        """The optimizer's learning rate from now on."""
        for group in self.optimizer.param_groups:
            group["lr"] = rate

    def refining(self, iteration: int) -> bool:
        """Whether ``iteration`` (counted from 1) is one of the refinement's."""
        c = self.config
        return c.warmup_iterations < iteration <= c.warmup_iterations + c.refine_iterations

    def refine(self, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
        """One refinement iteration (DAgger): the best network alone plays each side
        against the heuristic; UCT at ``refine_simulations`` searches each of its
        positions afresh; the targets (:func:`improvement_targets`) and the search's
        values go into the buffer, emptied at the first refinement iteration."""
        c = self.config
        g = self.game
        if self.iteration == c.warmup_iterations:
            self.buffer.clear()  # from here on, the positions the network reaches itself
            self._trained_upto = self.buffer.added
        own = c.refine_learning_rate
        self.set_learning_rate(own if own is not None else c.learning_rate_at(self.iteration + 1))
        sims = c.refine_simulations or c.warmup_simulations
        expert = seat_table(g, [self.relabeller(sims)] * g.num_players)
        network = self.alone(self.best)
        heuristic = Seat.named("heuristic")
        total = c.refine_games or c.games_per_iteration
        sides = sorted(set(g.teams))
        cap = min(c.max_positions_per_game, int(g.options.get("max_decisions") or 10**9))
        first = self.iteration * total
        start = time.perf_counter()
        positions, deviations, off_teacher, score = 0, 0, 0, 0.0
        lengths = []
        for k, side in enumerate(sides):
            mine = np.array([t == side for t in g.teams])
            table = seat_table(g, [network if m else heuristic for m in mine])
            record = np.zeros(g.max_players, np.uint8)
            record[: g.num_players] = mine
            games = total // len(sides) + (1 if k < total % len(sides) else 0)
            for done in range(0, games, SELFPLAY_CHUNK):
                n = min(SELFPLAY_CHUNK, games - done)
                out = selfplay_games(g, table, record, c.seed, first + done, n, cap, c.threads)
                states = np.ascontiguousarray(out["states"])
                seed = derive_seed(c.seed, first + done)
                searched = search_positions(g, expert, states, seed, c.threads)
                baseline = self.refine_baseline_moves(states)
                targets = improvement_targets(
                    baseline, searched["q"], searched["visits"], c.refine_margin, c.refine_min_share
                )
                chosen = targets.argmax(axis=1)
                deviations += int((chosen != baseline).sum())
                if c.refine_baseline != "heuristic":
                    off_teacher += int((chosen != heuristic_moves(g, states, c.threads)).sum())
                self.buffer.add(
                    states,
                    targets.astype(np.float16),
                    out["position_returns"],
                    searched["values"][:, : g.num_players],
                )
                positions += len(states)
                lengths.append(out["decisions"])
                score += float(side_scores(g, out["returns"], mine).sum())
                if progress is not None:
                    progress(n)
            first += games
        self.games += total
        lengths_all = np.concatenate(lengths)
        return {
            "games": total,
            "positions": positions,
            "seconds": time.perf_counter() - start,
            "decisions_mean": float(lengths_all.mean()),
            "first_side_wins": float("nan"),
            "expert": f"network, relabelled by {RELABELLERS[c.refine_expert]}:{sims}"
            + ("" if c.refine_baseline == "heuristic" else ", else its own move"),
            # its games against the heuristic (a cooperative side's: its win rate)
            "network_score": score / max(total, 1),
            # targets off the baseline's move (refine_baseline), and off the heuristic's
            "off_baseline": deviations / max(positions, 1),
            "off_heuristic": (deviations if c.refine_baseline == "heuristic" else off_teacher)
            / max(positions, 1),
        }

    def relabeller(self, simulations: int) -> Seat:
        """The search that relabels a refinement's positions: UCT with the game's settings,
        or (``refine_expert="network"``) the best network's, the run's settings, no noise."""
        if self.config.refine_expert == "network":
            return self.search(self.best, training=False, simulations=simulations)
        return game_uct_seat(self.game, simulations)

    def refine_baseline_moves(self, states: np.ndarray) -> np.ndarray:
        """The move a refinement target keeps where the search finds none clearly better:
        the heuristic's, or (``refine_baseline="network"``) the model's most likely move,
        the best network's while refining (every refined candidate is taken)."""
        if self.config.refine_baseline == "network":
            return self.greedy_moves(states)
        return heuristic_moves(self.game, states, self.config.threads)

    # ------------------------------------------------------------ training
    def train_network(self) -> dict[str, float]:
        """Gradient steps on minibatches of the buffer; returns the mean losses."""
        import torch  # deferred on purpose: heavy, and only training needs it

        c = self.config
        g = self.game
        if self.buffer.size < c.min_buffer:
            # still filling: no step, and the positions wait for the first training
            nan = float("nan")
            rate = float(self.optimizer.param_groups[0]["lr"])
            return dict(policy=nan, value=nan, entropy_target=nan, steps=0, learning_rate=rate)
        new = self.buffer.added - self._trained_upto
        steps = int(min(c.max_steps, max(1, math.ceil(new * c.sample_reuse / c.batch_size))))
        self._trained_upto = self.buffer.added
        obs = np.zeros((c.batch_size, self.input_size), np.float32)
        masks = np.zeros((c.batch_size, g.num_actions), np.uint8)
        self.model.train()
        totals = {"policy": 0.0, "value": 0.0, "entropy_target": 0.0}
        for _ in range(steps):
            idx = self.buffer.sample(self.rng, c.batch_size)
            states = np.ascontiguousarray(self.buffer.states[idx])
            with threads_used(c.threads):
                g.mcts.batch_positions(states, g.params, c.hint, obs, masks)
            policies = self.buffer.policies[idx].astype(np.float32)
            if self.symmetries:
                symmetric_forms(obs, masks, policies, self.symmetries, self.rng)
            x = torch.from_numpy(obs)
            legal = torch.from_numpy(masks.astype(bool))
            target = torch.from_numpy(policies)
            target = target * legal
            target = target / target.sum(dim=1, keepdim=True).clamp_min(1e-12)
            z = torch.from_numpy(value_targets(self.buffer, idx, c.search_value_weight))
            logits, value = self.model(x)
            logp = torch.log_softmax(logits.masked_fill(~legal, -1e9), dim=1)
            policy_loss = policy_cross_entropy(target, logp.masked_fill(~legal, 0.0))
            value_loss = ((value - z) ** 2).mean(dim=1).mean()
            loss = policy_loss + c.value_weight * value_loss
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            ent = -(target * torch.log(target.clamp_min(1e-12))).sum(dim=1).mean()
            totals["policy"] += policy_loss.item()
            totals["value"] += value_loss.item()
            totals["entropy_target"] += ent.item()
        self.model.eval()
        rate = float(self.optimizer.param_groups[0]["lr"])
        return {k: v / steps for k, v in totals.items()} | {"steps": steps, "learning_rate": rate}

    # ------------------------------------------------------------ gating and the curve
    def gate(self, candidate: Network) -> float:
        """The candidate's score against the best network, both searching alike."""
        c = self.config
        sims = c.gate_simulations or c.simulations
        a = self.search(candidate, training=False, simulations=sims, openings=c.gate_openings)
        b = self.search(self.best, training=False, simulations=sims, openings=c.gate_openings)
        seed = (c.seed + 1_000_003 * (self.iteration + 1)) % SEED_LIMIT
        return rotated_score(self.game, a, b, c.gate_games, seed, c.threads)

    def evaluate(self, network: Network) -> float:
        """The network alone against the heuristic (a fixed set of deals every iteration)."""
        c = self.config
        return side_win_rate(
            self.game, self.alone(network), c.eval_games, (c.seed + 7) % SEED_LIMIT, c.threads
        )

    def panel_seed(self) -> int:
        """The seed of the panel's deals and positions (never a self-play game's)."""
        c = self.config
        return (
            c.panel_seed if c.panel_seed is not None else (c.seed + PANEL_SEED_OFFSET) % SEED_LIMIT
        )

    def measure_panel(self, network: Network) -> dict[str, Any] | None:
        """``network`` alone against the fixed panel (:mod:`.panel`) at an iteration the
        panel is due (every ``panel_every``), else None; its wall time goes to
        ``panel_seconds`` (not into the curve, which a resumed run continues exactly)."""
        c = self.config
        if self.iteration % c.panel_every != 0 or not (c.panel or c.panel_positions):
            return None
        start = time.perf_counter()
        self.panel_seconds = 0.0
        if self.panel is None:  # made once a run: the positions solved or read back
            self.panel = make_panel(
                self.game, c.panel, c.panel_games, c.panel_positions, self.panel_seed(),
                self.run_dir,
            )  # fmt: skip
        row = panel_row(self.game, self.panel, self.alone(network), self.greedy_moves, c.threads)
        self.panel_seconds = time.perf_counter() - start
        return row

    def greedy_moves(self, states: np.ndarray) -> np.ndarray:
        """The model's most likely legal move at each of ``states`` (the network alone)."""
        import torch  # deferred on purpose: heavy, and only training needs it

        g = self.game
        obs = np.zeros((len(states), self.input_size), np.float32)
        masks = np.zeros((len(states), g.num_actions), np.uint8)
        with threads_used(self.config.threads):
            g.mcts.batch_positions(
                np.ascontiguousarray(states), g.params, self.config.hint, obs, masks
            )
        with torch.no_grad():
            logits, _ = self.model(torch.from_numpy(obs))
        legal = torch.from_numpy(masks.astype(bool))
        return logits.masked_fill(~legal, -torch.inf).argmax(dim=1).numpy()

    def heuristic_reference(self) -> float:
        """In a cooperative game, the heuristic's own win rate on the evaluation's deals."""
        c = self.config
        g = self.game
        out = play_games(g, c.eval_games, "heuristic", (c.seed + 7) % SEED_LIMIT, 0, c.threads)
        return float((out["returns"][:, 0] > 0).mean())

    # ------------------------------------------------------------ checkpoints
    def wall_seconds(self) -> float:
        """Wall time of the run, the sessions before a resume included."""
        return self.wall_before + time.perf_counter() - self.session_start

    def metadata(self) -> dict[str, Any]:
        """The checkpoint's metadata: the game, the configuration, the counters, the curve."""
        return {
            **game_metadata(self.game),
            "algorithm": ALGORITHM,
            "config": asdict(self.config),
            "timesteps": self.iteration,  # the checkpoint's name counts iterations
            "iteration": self.iteration,
            "games": self.games,
            "positions": int(self.buffer.added),
            "best_iteration": self.best_iteration,
            "curve": self.curve,
            "wall_seconds": round(self.wall_seconds(), 3),
            "boardsim_version": __version__,
        }

    def save(self) -> Path:
        """Write a checkpoint of the run as it is now (between two iterations)."""
        import torch  # deferred on purpose: heavy, and only training needs it

        buffer = io.BytesIO()
        torch.save(
            {
                "model": self.model.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "torch_rng": torch.get_rng_state(),
            },
            buffer,
        )
        arrays = {
            **self.buffer.arrays(),
            "trained_upto": np.array([self._trained_upto], np.int64),
            "rng_state": np.frombuffer(json.dumps(self.rng.bit_generator.state).encode(), np.uint8),
        }
        entries = {
            "network.npz": self.export(self.iteration).to_bytes(),
            "best.npz": self.best.to_bytes(),
            "torch.pt": buffer.getvalue(),
        }
        return write_checkpoint(
            self.run_dir,
            _zip_entries(entries),
            self.metadata(),
            arrays,
            keep=self.config.keep_checkpoints,
            name=f"iter_{self.iteration:06d}.zip",
        )

    def load(self, checkpoint: Path) -> None:
        """Continue from ``checkpoint``: model, optimizer, buffer, generators, counters."""
        import torch  # deferred on purpose: heavy, and only training needs it

        meta = read_metadata(checkpoint)
        state = torch.load(io.BytesIO(read_entry(checkpoint, "torch.pt")), weights_only=False)
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        torch.set_rng_state(state["torch_rng"])
        arrays = read_resume_arrays(checkpoint)
        self.buffer.restore(arrays)
        self._trained_upto = int(arrays["trained_upto"][0])
        self.rng.bit_generator.state = json.loads(bytes(arrays["rng_state"]).decode())
        self.best = Network.from_bytes(read_entry(checkpoint, "best.npz"))
        self.iteration = int(meta["iteration"])
        self.games = int(meta["games"])
        self.best_iteration = int(meta["best_iteration"])
        self.curve = list(meta["curve"])
        self.wall_before = float(meta.get("wall_seconds", 0.0))


def _zip_entries(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


# ---------------------------------------------------------------- the run
def train_alphazero(
    config: AlphaZeroConfig,
    resume: bool = False,
    log: Callable[..., Any] = print,
    explicit: Mapping[str, str] | None = None,
) -> AlphaZeroResult:
    """Run (or, with ``resume``, continue) the self-play run in ``config.run_dir``.

    On resume the saved configuration is used, except :data:`RESUME_MAY_CHANGE`
    (``iterations``, ``max_seconds``, where the games are played (``backend``, ``workers``,
    ``address``), ``progress``, ``threads``, ``torch_threads``, ``tensorboard``,
    ``keep_checkpoints``: from ``config``; the budget, ``iterations`` and
    ``max_seconds``, only when the caller gives it, else the run's own); any other setting given
    otherwise than the saved one is refused with an :class:`OptionError` naming each
    (``explicit``: the settings the caller set, with their names for the message; by
    default those that differ from :class:`AlphaZeroConfig`'s defaults). ``config.json``
    is written with the configuration the run trains with.
    """
    import torch  # deferred on purpose: heavy, and only training needs it

    run_dir = Path(config.run_dir)
    checkpoint = latest_checkpoint(run_dir) if resume else None
    if resume and checkpoint is None:
        log(f"no checkpoint in {run_dir}: starting a new run")
    if checkpoint is not None:
        config = _resumed_config(config, read_metadata(checkpoint), explicit)
    elif (run_dir / "checkpoints").exists() and any((run_dir / "checkpoints").glob("*.zip")):
        raise OptionError(
            f"{run_dir} already holds a run: pass resume=True (--resume) to continue it, "
            "or choose another run folder"
        )
    if config.torch_threads is not None:
        torch.set_num_threads(config.torch_threads)
    start = None
    if checkpoint is None and config.init is not None:
        start, config = _init_network(config, explicit)
    trainer = AlphaZeroTrainer(config)
    if start is not None:
        trainer.start_from(start)
    atomic_write_text(run_dir / "config.json", json.dumps(asdict(config), indent=2) + "\n")
    if checkpoint is not None:
        trainer.load(checkpoint)
        log(f"resuming {checkpoint} after iteration {trainer.iteration}")
    writer = tensorboard_writer(trainer) if config.tensorboard else None
    bar = progress_bar(trainer) if config.progress else None
    # the first run compiles the search and the self-play for tens of seconds: say so
    notice = compiling_notice(log, f"the self-play search for {trainer.game.name}")
    path = checkpoint
    try:
        notice.__enter__()
        trainer.workers = workers_for(
            config.backend, config.game, config.options, config.workers, config.address
        )
        reference = trainer.heuristic_reference() if trainer.game.is_cooperative() else None
        while trainer.iteration < config.iterations:
            if config.max_seconds is not None and trainer.wall_seconds() >= config.max_seconds:
                log(f"time budget of {config.max_seconds:.0f} s reached")
                break
            row = run_iteration(trainer, bar, reference)
            log_row(writer, row, trainer.panel_seconds)
            write_curve_csv(run_dir / CURVE_CSV, trainer.curve)
            log(iteration_line(row, trainer.panel_seconds))
            path = trainer.save()
            if bar is not None:
                bar.update(1)
                bar.set_postfix(
                    vs_heuristic=f"{row['candidate_vs_heuristic']:.3f}",
                    gate=f"{row['gate_score']:.2f}",
                    best=trainer.best_iteration,
                )
    finally:
        notice.__exit__(None, None, None)
        if trainer.workers is not None:
            trainer.workers.close()
        if bar is not None:
            bar.close()
        if writer is not None:
            writer.close()
    if path is None:
        path = trainer.save()
    return AlphaZeroResult(
        run_dir=str(run_dir),
        checkpoint=str(path),
        iterations=trainer.iteration,
        games=trainer.games,
        positions=int(trainer.buffer.added),
        best_iteration=trainer.best_iteration,
        curve=trainer.curve,
        wall_seconds=trainer.wall_seconds(),
    )


def run_iteration(
    trainer: AlphaZeroTrainer, bar: Any = None, reference: float | None = None
) -> dict[str, Any]:
    """One iteration: self-play, training, gating, the curve; returns the curve's row."""
    c = trainer.config
    start = time.perf_counter()
    play = trainer.selfplay()
    losses = trainer.train_network()
    trainer.iteration += 1
    candidate = trainer.export(trainer.iteration)
    warm = trainer.iteration <= c.warmup_iterations or trainer.refining(trainer.iteration)
    if warm:
        # the expert played, or relabelled the network's own games: taken as it is
        score = float("nan")
        accepted = True
    elif c.gate == "none" or c.gate_games == 0:
        # no gate: every candidate is taken, so the latest network generates the data
        score = float("nan")
        accepted = True
    else:
        score = trainer.gate(candidate)
        accepted = score >= c.gate_threshold
    if accepted:
        trainer.best = candidate
        trainer.best_iteration = trainer.iteration
    row = {
        "iteration": trainer.iteration,
        "games": trainer.games,
        "positions": int(trainer.buffer.added),
        "selfplay": play,
        "losses": losses,
        "gate_score": score,
        "accepted": accepted,
        "best_iteration": trainer.best_iteration,
        "candidate_vs_heuristic": trainer.evaluate(candidate),
        "best_vs_heuristic": trainer.evaluate(trainer.best),
        "heuristic_reference": reference,
        "panel": trainer.measure_panel(candidate),
        "seconds": time.perf_counter() - start,
        "wall_seconds": trainer.wall_seconds(),
    }
    trainer.curve.append(finite_row(row))
    return row


# how long the run trains: kept from the run on a resume unless the caller gives another
RESUME_KEEPS_BUDGET = ("iterations", "max_seconds")
# what a resumed run may change: how far and how it runs, not what it learns
RESUME_MAY_CHANGE = (
    "iterations",
    "max_seconds",
    "backend",
    "workers",
    "address",
    "progress",
    "threads",
    "torch_threads",
    "tensorboard",
    "keep_checkpoints",
)


def _init_network(
    config: AlphaZeroConfig, explicit: Mapping[str, str] | None
) -> tuple[Network, AlphaZeroConfig]:
    """The network ``config.init`` names, and ``config`` with its architecture and the
    search settings it records that the caller did not set (``recorded_search``); a
    layer setting given otherwise than the network's is refused, named."""
    from boardsim.training.networks import recorded_search, start_network  # imports torch

    network, arch = start_network(config.init or "", config.game)
    caller = set_by_caller(config, explicit)
    clash = [caller[k] for k in arch if k in caller and getattr(config, k) != arch[k]]
    if clash:
        raise OptionError(
            f"--init {config.init} has its own layers ({arch}): leave out {', '.join(clash)}"
        )
    search = {k: v for k, v in recorded_search(network, config).items() if k not in caller}
    return network, replace(config, **arch, **search)


def _resumed_config(
    given: AlphaZeroConfig, meta: dict[str, Any], explicit: Mapping[str, str] | None = None
) -> AlphaZeroConfig:
    """The saved configuration of a run, with the few settings a resume may change; any
    other setting ``given`` asks to change is refused, named."""
    if meta.get("algorithm") != ALGORITHM:
        raise OptionError(f"{given.run_dir} is a {meta.get('algorithm')} run, not {ALGORITHM}")
    saved = saved_config(meta["config"])
    return resume_settings(given, saved, RESUME_MAY_CHANGE, explicit, RESUME_KEEPS_BUDGET)


# what a setting added since was in effect in a run recorded before it (the gate's games
# had no sampled openings)
LEGACY_SETTINGS = {"gate_openings": 0}


def saved_config(settings: Mapping[str, Any]) -> AlphaZeroConfig:
    """The configuration a checkpoint records; a setting added since it was written takes
    the value that was in effect then (:data:`LEGACY_SETTINGS`), not today's default."""
    return AlphaZeroConfig(**{**LEGACY_SETTINGS, **settings})


def curve_markdown(path: str | Path | Mapping[str, Any]) -> str:
    """The learning curve of an alphazero checkpoint or run folder (or of an exported
    network's ``training`` record) as a Markdown table: per iteration the games and
    positions so far, whether the expert (the warm-up) or the search played, the gate's
    score and verdict, the network alone against the heuristic (the candidate's and the
    best's win rate on the run's fixed evaluation deals), the losses and the wall time (a
    model card's curve is this table)."""
    meta = path if isinstance(path, Mapping) else read_metadata(path)
    head = (
        "| iteration | games | positions | self-play by | mean decisions | gate | accepted "
        "| candidate vs heuristic | best vs heuristic | policy loss | value loss | wall (min) |"
    )
    lines = [head, "|" + "---|" * 12]
    for r in meta.get("curve", []):
        play = r["selfplay"]
        gate = "" if r["gate_score"] is None else f"{r['gate_score']:.3f}"
        lines.append(
            f"| {r['iteration']} | {r['games']:,} | {r['positions']:,} "
            f"| {play.get('expert') or 'search'} | {play['decisions_mean']:.0f} | {gate} "
            f"| {'yes' if r['accepted'] else 'no'} | {r['candidate_vs_heuristic']:.3f} "
            f"| {r['best_vs_heuristic']:.3f} | {r['losses']['policy']:.3f} "
            f"| {r['losses']['value']:.3f} | {r['wall_seconds'] / 60:.1f} |"
        )
    return "\n".join(lines)


def best_network(path: str | Path) -> Network:
    """The best network of an alphazero checkpoint or run folder."""
    return Network.from_bytes(read_entry(path, "best.npz"), where=str(path))


def training_record(path: str | Path) -> dict[str, Any]:
    """How the run at ``path`` (checkpoint or folder) trained: the command that makes it,
    its settings, its budget (iterations, games, positions, wall time) and its curve: what
    an exported network carries in its metadata (``training``) for its card."""
    meta = read_metadata(path)
    # the run stopped at (or is read at) iteration meta["iteration"]: the command that
    # makes this checkpoint runs that many iterations
    config = replace(saved_config(meta["config"]), iterations=int(meta["iteration"]))
    return {
        "command": train_command(config),
        "config": meta["config"],
        "iterations": meta["iteration"],
        "best_iteration": meta["best_iteration"],
        "games": meta["games"],
        "positions": meta["positions"],
        "wall_seconds": meta["wall_seconds"],
        "curve": meta["curve"],
    }


def export_best(path: str | Path, out: str | Path, mix: float | None = None) -> Network:
    """Write the best network of the run at ``path`` to ``out`` (``.npz``, atomically),
    with its training record (:func:`training_record`) in its metadata. ``mix``: the
    share of a rollout's return in the leaf value of the searches it guides by default
    (``alphazero-mcts``; AlphaGo's lambda), in place of the run's own ``mix``; the record
    keeps it (``export``) so the exporting command can be given again."""
    network = best_network(path)
    record = training_record(path)
    search = dict(network.meta["search"])
    if mix is not None:
        if not 0 <= mix <= 1:
            raise OptionError(f"mix must be in [0, 1], got {mix}")
        search["mix"] = float(mix)
        record["export"] = {"mix": float(mix)}
    network.meta = {**network.meta, "search": search, "training": record}
    network.save(out)
    return network


SEARCH_DEFAULTS = NETWORK_SEARCH_DEFAULTS  # re-exported for the command's help
