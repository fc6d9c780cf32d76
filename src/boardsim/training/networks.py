"""The torch twins of the compiled networks (:mod:`boardsim.core.nn`), and the exports.

- :class:`LayoutNet`: a torch module that computes exactly what a compiled network's
  layout says (the same layers, slots and activations), so a network is trained in torch
  and played in numba from the same weights (:meth:`LayoutNet.export`), and any compiled
  network can be brought back into torch (:meth:`LayoutNet.from_network`).
- :func:`alphazero_layers`: the shared-trunk policy/value MLP of the self-play trainer.
- :func:`from_sb3_policy` / :func:`export_ppo_checkpoint`: a MaskablePPO ``MlpPolicy``
  (separate policy and value MLPs, tanh or ReLU, linear heads) as a compiled network.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from boardsim.core import nn as cnn
from boardsim.core.errors import OptionError
from boardsim.core.network import LayerSpec, Network, build_layout, row_spec
from boardsim.training.checkpoint import read_metadata, resolve_checkpoint

_TORCH_ACTIVATIONS = {nn.Tanh: "tanh", nn.ReLU: "relu"}
HEAD_PLANES = 2  # the planes a convolutional trunk's 1x1 head convolutions keep


class LayoutNet(nn.Module):
    """A torch module laid out like a compiled network: one ``nn.Linear`` a layer."""

    def __init__(
        self,
        layers: Sequence[LayerSpec],
        policy_slot: int,
        value_slot: int,
        prune: bool = False,
        meta: dict[str, Any] | None = None,
        hint: bool = False,
    ) -> None:
        super().__init__()
        self.specs = list(layers)
        self.policy_slot = policy_slot
        self.value_slot = value_slot
        self.prune = prune
        self.hint = hint
        self.meta = dict(meta or {})
        # one module a layer (named ``linears`` since the dense networks, whose checkpoints
        # carry the name): ``nn.Linear``, or ``nn.Conv2d`` for a convolution
        self.linears = nn.ModuleList(_module(s) for s in self.specs)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits, value)`` for a batch of observations ``[batch, observation_size]``."""
        slots: dict[int, torch.Tensor] = {0: obs}
        for spec, linear in zip(self.specs, self.linears, strict=True):
            y = _apply(spec, linear, slots[spec.src])
            if spec.activation == "relu":
                y = torch.relu(y)
            elif spec.activation == "tanh":
                y = torch.tanh(y)
            elif spec.activation == "add":
                y = slots[spec.dst] + y
            slots[spec.dst] = y
        return slots[self.policy_slot], slots[self.value_slot]

    def export(self, meta: dict[str, Any] | None = None) -> Network:
        """The compiled network with these weights (``[in, out]`` per layer, then biases)."""
        layout, size = build_layout(
            self.specs, self.policy_slot, self.value_slot, self.prune, self.hint
        )
        weights = np.zeros(size, np.float32)
        with torch.no_grad():
            for k, (spec, linear) in enumerate(zip(self.specs, self.linears, strict=True)):
                row = layout[1 + k]
                n_weights, n_biases = spec.sizes()
                w = linear.weight.detach().cpu().numpy().astype(np.float32)
                # dense: [in, out]; convolution: [in channel, kernel row, kernel column, out]
                w = w.T if spec.kind == "dense" else w.transpose(1, 2, 3, 0)
                weights[row[cnn.L_W] : row[cnn.L_W] + n_weights] = w.reshape(-1)
                b = linear.bias.detach().cpu().numpy()
                weights[row[cnn.L_B] : row[cnn.L_B] + n_biases] = b
        return Network(weights, layout, {**self.meta, **(meta or {})})

    @classmethod
    def from_network(cls, network: Network) -> LayoutNet:
        """The torch twin of a compiled network, with its weights."""
        layout = network.layout
        head = layout[0]
        specs = [row_spec(r) for r in layout[1 : 1 + int(head[cnn.H_LAYERS])]]
        module = cls(
            specs,
            int(head[cnn.H_POLICY_SLOT]),
            int(head[cnn.H_VALUE_SLOT]),
            network.prune,
            network.meta,
            network.hint,
        )
        with torch.no_grad():
            for spec, linear, row in zip(specs, module.linears, layout[1:], strict=False):
                n_weights, n_biases = spec.sizes()
                w = network.weights[row[cnn.L_W] : row[cnn.L_W] + n_weights]
                if spec.kind == "dense":
                    w = w.reshape(spec.n_in, spec.n_out).T
                else:
                    c_in, c_out = spec.channels
                    w = w.reshape(c_in, spec.kernel, spec.kernel, c_out).transpose(3, 0, 1, 2)
                linear.weight.copy_(torch.from_numpy(w.copy()))
                b = network.weights[row[cnn.L_B] : row[cnn.L_B] + n_biases]
                linear.bias.copy_(torch.from_numpy(b.copy()))
        return module


def _module(spec: LayerSpec) -> nn.Module:
    """The torch layer of ``spec``: ``nn.Linear``, or a zero-padded ``nn.Conv2d``
    initialised for its ReLU (:func:`_he_initialised`)."""
    if spec.kind == "dense":
        return nn.Linear(spec.n_in, spec.n_out)
    c_in, c_out = spec.channels
    conv = nn.Conv2d(c_in, c_out, spec.kernel, padding=spec.kernel // 2)
    return _he_initialised(conv) if spec.activation == "relu" else conv


def _he_initialised(conv: nn.Conv2d) -> nn.Conv2d:
    """He's initialisation (weights of variance 2 / fan-in, zero biases): a stack of
    ReLU convolutions keeps its activations' scale. Torch's default (variance 1 / (3
    fan-in)) shrinks them about threefold a layer, so behind three convolutions the
    heads' two-plane 1x1 convolutions read almost nothing and their ReLUs die: the policy
    and value come out the same for every position and no gradient reaches them (a
    ``--conv 32,32,32`` connect-four run learnt nothing in 1,300 s)."""
    nn.init.kaiming_normal_(conv.weight, nonlinearity="relu")
    nn.init.zeros_(conv.bias)
    return conv


def _apply(spec: LayerSpec, module: nn.Module, x: torch.Tensor) -> torch.Tensor:
    """``module`` on a batch of flat slots ``x``; a convolution reads them as board planes
    (``conv_planes``) or cell-major (``conv``), and writes them cell-major, as
    :func:`boardsim.core.nn.conv` does."""
    if spec.kind == "dense":
        return module(x)
    rows, cols = spec.board
    c_in, _ = spec.channels
    if spec.kind == "conv_planes":
        planes = x.reshape(-1, c_in, rows, cols)
    else:
        planes = x.reshape(-1, rows, cols, c_in).permute(0, 3, 1, 2)
    return module(planes).permute(0, 2, 3, 1).reshape(x.shape[0], -1)


def board_planes(game: Any, conv: Sequence[int]) -> tuple[int, int, int] | None:
    """The game's observation as board planes (its ``board_planes``), for a network with
    convolutions; an :class:`OptionError` when they are asked of a game whose observation
    is no board."""
    planes = game.definition.board_planes
    if conv and planes is None:
        raise OptionError(
            f"{game.name}: its observation is no board of planes (no board_planes), so "
            "--conv cannot read it; train a dense network (--hidden)"
        )
    return planes


def alphazero_layers(
    observation_size: int,
    num_actions: int,
    value_size: int,
    hidden: Sequence[int] = (256, 256),
    value_hidden: int = 64,
    activation: str = "relu",
    skip: bool = False,
    conv: Sequence[int] = (),
    board: tuple[int, int, int] | None = None,
) -> tuple[list[LayerSpec], int, int]:
    """A shared trunk, a linear policy head, and a value head of one hidden layer and a
    tanh output of ``value_size`` values; returns ``(layers, policy_slot, value_slot)``.

    The trunk: with ``conv``, 3x3 convolutions of those channels over the observation's
    ``board`` (``(planes, rows, columns)``, the game's ``board_planes``), then the dense
    ``hidden`` layers (none allowed after convolutions). With ``skip``, a linear layer from
    the input straight to the logits is added to the head's (for a hinted input, the path
    by which the heuristic's move reaches the policy)."""
    if any(int(h) < 1 for h in hidden) or not (hidden or conv):
        raise ValueError(f"hidden layers must be positive sizes, got {list(hidden)}")
    if any(int(c) < 1 for c in conv):
        raise ValueError(f"convolutions need a positive number of channels, got {list(conv)}")
    layers: list[LayerSpec] = []
    width = observation_size
    if conv:
        if board is None or board[0] * board[1] * board[2] != observation_size or skip:
            raise ValueError(
                "convolutions read an observation of board planes without a hint: the "
                f"game's board_planes is {board}, its observation {observation_size} values"
            )
        cells = board[1] * board[2]
        for k, channels in enumerate(conv):
            kind = "conv_planes" if k == 0 else "conv"
            n_out = cells * int(channels)
            layers.append(
                LayerSpec(k, k + 1, width, n_out, activation, cnn.USE_BOTH, kind, board[1:], 3)
            )
            width = n_out
    for h in hidden:
        k = len(layers)
        layers.append(LayerSpec(k, k + 1, width, int(h), activation, cnn.USE_BOTH))
        width = int(h)
    trunk = len(layers)
    board_out = bool(conv) and not hidden  # the heads read the convolutions' cells

    def head_input(use: int) -> tuple[int, int]:
        """The slot and width a head starts from: the trunk, or (after convolutions) a
        1x1 convolution of it to ``HEAD_PLANES`` planes, AlphaZero's head."""
        if not board_out:
            return trunk, width
        assert board is not None
        slot = len(layers) + 1
        n_out = board[1] * board[2] * HEAD_PLANES
        layers.append(LayerSpec(trunk, slot, width, n_out, activation, use, "conv", board[1:], 1))
        return slot, n_out

    src, n_in = head_input(cnn.USE_POLICY)
    policy_slot = len(layers) + 1
    layers.append(LayerSpec(src, policy_slot, n_in, num_actions, "none", cnn.USE_POLICY))
    if skip:
        layers.append(
            LayerSpec(0, policy_slot, observation_size, num_actions, "add", cnn.USE_POLICY)
        )
    src, n_in = head_input(cnn.USE_VALUE)
    slot = len(layers) + 1
    if value_hidden > 0:
        layers.append(LayerSpec(src, slot, n_in, value_hidden, activation, cnn.USE_VALUE))
        layers.append(LayerSpec(slot, slot + 1, value_hidden, value_size, "tanh", cnn.USE_VALUE))
        return layers, policy_slot, slot + 1
    layers.append(LayerSpec(src, slot, n_in, value_size, "tanh", cnn.USE_VALUE))
    return layers, policy_slot, slot


def start_from_hint(model: Any, observation_size: int, weight: float) -> None:
    """Make the skip layer of a hinted model (:func:`alphazero_layers` with ``skip``) add
    ``weight`` to the logit of the heuristic's move, so the untrained network already
    plays mostly as the heuristic and learns where to leave it."""
    skip = next(
        lin
        for spec, lin in zip(model.specs, model.linears, strict=True)
        if spec.activation == "add"
    )
    with torch.no_grad():
        skip.weight.zero_()
        skip.bias.zero_()
        n = skip.weight.shape[0]
        skip.weight[:, observation_size : observation_size + n] = weight * torch.eye(n)


def start_network(path: str | Path, game: str) -> tuple[Network, dict[str, Any]]:
    """The network a self-play run starts from (``--init``) and its architecture (the
    settings ``conv``, ``hidden``, ``value_hidden`` and ``hint`` it was trained with, as
    its metadata's ``architecture`` records them): a compiled network of ``game``
    exported by an alphazero run; an :class:`OptionError` saying what is wrong otherwise
    (a missing or malformed file, another game, a network without that record)."""
    if not Path(path).is_file():
        raise OptionError(f"--init {path}: no such file (a network .npz of an alphazero run)")
    network = Network.load(path)  # a malformed file: StateFormatError, named
    meta = network.meta
    if meta.get("game") != game:
        raise OptionError(f"--init {path} is a network of {meta.get('game')!r}, not of {game!r}")
    arch = meta.get("architecture")
    if meta.get("source") != "alphazero" or not isinstance(arch, dict):
        raise OptionError(
            f"--init {path} was not exported by an alphazero run (its metadata has no "
            "architecture): a run starts only from a network of its own layout"
        )
    return network, {
        "conv": [int(c) for c in arch.get("conv", [])],
        "hidden": [int(h) for h in arch.get("hidden", [])],
        "value_hidden": int(arch.get("value_hidden", 0)),
        "hint": bool(arch.get("hint", network.hint)),
    }


# the search settings a run from --init keeps from its network unless told otherwise (not
# the leaf mix: a network records the mix its searches export with, not its run's)
INIT_SEARCH = (
    "search",
    "gumbel_m",
    "c_visit",
    "c_scale",
    "c_puct",
    "fpu",
    "rollout",
    "rollout_depth",
)


def recorded_search(network: Network, config: Any) -> dict[str, Any]:
    """The settings of :data:`INIT_SEARCH` that ``network``'s metadata records, each of
    the type of ``config``'s (an ``AlphaZeroConfig``) field of that name."""
    recorded = network.meta.get("search", {})
    return {k: type(getattr(config, k))(recorded[k]) for k in INIT_SEARCH if k in recorded}


def _mlp_specs(
    sequential: nn.Module, src: int, first_slot: int, use: int
) -> tuple[list[LayerSpec], list[nn.Linear], int]:
    """The Linear (+ activation) pairs of an SB3 ``policy_net``/``value_net`` Sequential."""
    specs: list[LayerSpec] = []
    linears: list[nn.Linear] = []
    slot = src
    modules = list(sequential)
    for i, m in enumerate(modules):
        if isinstance(m, nn.Linear):
            following = modules[i + 1] if i + 1 < len(modules) else None
            kind = _TORCH_ACTIVATIONS.get(type(following), "none")
            if following is not None and kind == "none" and not isinstance(following, nn.Linear):
                raise ValueError(f"unsupported activation {type(following).__name__}")
            dst = first_slot + len(specs)
            specs.append(LayerSpec(slot, dst, m.in_features, m.out_features, kind, use))
            linears.append(m)
            slot = dst
        elif type(m) not in _TORCH_ACTIVATIONS:
            raise ValueError(f"unsupported layer {type(m).__name__} in an SB3 MLP")
    return specs, linears, slot


def from_sb3_policy(policy: Any, meta: dict[str, Any] | None = None) -> Network:
    """A MaskablePPO / PPO ``MlpPolicy`` (flat observations) as a compiled network.

    The policy MLP, its action head, the value MLP and its value head, each in its own
    slots; the value is stable-baselines3's critic (one value, the observer's).
    """
    from stable_baselines3.common.torch_layers import FlattenExtractor  # deferred: optional

    for extractor in {id(policy.pi_features_extractor): policy.pi_features_extractor}.values():
        if not isinstance(extractor, FlattenExtractor):
            raise ValueError(f"only flat observations: {type(extractor).__name__}")
    if not isinstance(policy.vf_features_extractor, FlattenExtractor):
        raise ValueError("only flat observations")
    mlp = policy.mlp_extractor
    pi_specs, pi_lin, pi_out = _mlp_specs(mlp.policy_net, 0, 1, cnn.USE_POLICY)
    policy_slot = 1 + len(pi_specs)
    head = policy.action_net
    pi_specs.append(
        LayerSpec(pi_out, policy_slot, head.in_features, head.out_features, "none", cnn.USE_POLICY)
    )
    pi_lin.append(head)
    vf_specs, vf_lin, vf_out = _mlp_specs(mlp.value_net, 0, policy_slot + 1, cnn.USE_VALUE)
    value_slot = policy_slot + 1 + len(vf_specs)
    vhead = policy.value_net
    vf_specs.append(
        LayerSpec(vf_out, value_slot, vhead.in_features, vhead.out_features, "none", cnn.USE_VALUE)
    )
    vf_lin.append(vhead)
    # a value MLP of no layers reads the observation directly: its slot is 0 then
    module = LayoutNet(pi_specs + vf_specs, policy_slot, value_slot, False, meta)
    with torch.no_grad():
        for target, source in zip(module.linears, pi_lin + vf_lin, strict=True):
            target.weight.copy_(source.weight)
            target.bias.copy_(source.bias)
    return module.export()


def load_policy(checkpoint: str | Path) -> Any:
    """The policy network of a MaskablePPO checkpoint (full or exported), in evaluation
    mode, on the CPU."""
    # deferred on purpose: stable_baselines3 is heavy and optional
    from stable_baselines3.common.save_util import load_from_zip_file

    data, params, _ = load_from_zip_file(checkpoint, device="cpu")
    if data is None or params is None or "policy" not in params:
        raise OptionError(f"{checkpoint} holds no policy")
    policy = data["policy_class"](
        data["observation_space"],
        data["action_space"],
        lambda _: 0.0,  # the learning rate: this policy is not trained further
        **data.get("policy_kwargs", {}),
    )
    policy.load_state_dict(params["policy"])
    policy.set_training_mode(False)
    return policy


def export_ppo_checkpoint(checkpoint: str | Path) -> Network:
    """The policy of a ``boardsim train`` MaskablePPO checkpoint as a compiled network,
    with the checkpoint's metadata (game, options, sizes)."""
    path = resolve_checkpoint(checkpoint)
    meta = read_metadata(path)
    policy = load_policy(path)
    keep = ("game", "game_version", "options", "observation_size", "num_actions", "num_players")
    return from_sb3_policy(
        policy,
        {
            **{k: meta[k] for k in keep if k in meta},
            "source": "ppo",
            "checkpoint": path.name,
            "timesteps": meta.get("timesteps"),
            "net_arch": meta.get("net_arch"),
        },
    )
