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
from boardsim.core.network import LayerSpec, Network, build_layout
from boardsim.training.checkpoint import read_metadata, resolve_checkpoint

_TORCH_ACTIVATIONS = {nn.Tanh: "tanh", nn.ReLU: "relu"}


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
        self.linears = nn.ModuleList(nn.Linear(s.n_in, s.n_out) for s in self.specs)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits, value)`` for a batch of observations ``[batch, observation_size]``."""
        slots: dict[int, torch.Tensor] = {0: obs}
        for spec, linear in zip(self.specs, self.linears, strict=True):
            y = linear(slots[spec.src])
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
            for k, linear in enumerate(self.linears):
                row = layout[1 + k]
                n_in, n_out = int(row[cnn.L_IN]), int(row[cnn.L_OUT])
                w = linear.weight.detach().cpu().numpy().astype(np.float32).T
                weights[row[cnn.L_W] : row[cnn.L_W] + n_in * n_out] = w.reshape(-1)
                weights[row[cnn.L_B] : row[cnn.L_B] + n_out] = linear.bias.detach().cpu().numpy()
        return Network(weights, layout, {**self.meta, **(meta or {})})

    @classmethod
    def from_network(cls, network: Network) -> LayoutNet:
        """The torch twin of a compiled network, with its weights."""
        layout = network.layout
        head = layout[0]
        inverse = {v: k for k, v in cnn.ACTIVATIONS.items()}
        specs = [
            LayerSpec(
                int(r[cnn.L_SRC]),
                int(r[cnn.L_DST]),
                int(r[cnn.L_IN]),
                int(r[cnn.L_OUT]),
                inverse[int(r[cnn.L_ACT])],
                int(r[cnn.L_USE]),
            )
            for r in layout[1 : 1 + int(head[cnn.H_LAYERS])]
        ]
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
                w = network.weights[row[cnn.L_W] : row[cnn.L_W] + spec.n_in * spec.n_out]
                linear.weight.copy_(torch.from_numpy(w.reshape(spec.n_in, spec.n_out).T.copy()))
                b = network.weights[row[cnn.L_B] : row[cnn.L_B] + spec.n_out]
                linear.bias.copy_(torch.from_numpy(b.copy()))
        return module


def alphazero_layers(
    observation_size: int,
    num_actions: int,
    value_size: int,
    hidden: Sequence[int] = (256, 256),
    value_hidden: int = 64,
    activation: str = "relu",
    skip: bool = False,
) -> tuple[list[LayerSpec], int, int]:
    """A shared trunk (``hidden`` layers), a linear policy head, and a value head of one
    hidden layer and a tanh output of ``value_size`` values; returns
    ``(layers, policy_slot, value_slot)``. With ``skip``, a linear layer from the input
    straight to the logits is added to the head's (for a hinted input, the path by which
    the heuristic's move reaches the policy)."""
    if not hidden or any(int(h) < 1 for h in hidden):
        raise ValueError(f"hidden layers must be positive sizes, got {list(hidden)}")
    layers: list[LayerSpec] = []
    width = observation_size
    for k, h in enumerate(hidden):
        layers.append(LayerSpec(k, k + 1, width, int(h), activation, cnn.USE_BOTH))
        width = int(h)
    trunk = len(hidden)
    policy_slot = trunk + 1
    layers.append(LayerSpec(trunk, policy_slot, width, num_actions, "none", cnn.USE_POLICY))
    if skip:
        layers.append(
            LayerSpec(0, policy_slot, observation_size, num_actions, "add", cnn.USE_POLICY)
        )
    slot = trunk + 2
    if value_hidden > 0:
        layers.append(LayerSpec(trunk, slot, width, value_hidden, activation, cnn.USE_VALUE))
        layers.append(LayerSpec(slot, slot + 1, value_hidden, value_size, "tanh", cnn.USE_VALUE))
        return layers, policy_slot, slot + 1
    layers.append(LayerSpec(trunk, slot, width, value_size, "tanh", cnn.USE_VALUE))
    return layers, policy_slot, slot


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
