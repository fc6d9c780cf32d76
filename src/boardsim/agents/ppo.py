"""The PPO agent: a MaskablePPO policy of ``boardsim train``, played by the compiled network.

``boardsim.agents.load("ppo:PATH", game)``: PATH is a checkpoint file, a run folder (its
latest checkpoint) or an exported network (``.npz``); ``"ppo"`` alone is the policy
shipped for the game. The policy's MLP is exported to a compiled network
(:func:`boardsim.training.networks.from_sb3_policy`: the same outputs as the torch
policy within 1e-5), so a PPO seat plays inside every compiled loop (batch opponents,
``play_games``, ``boardsim eval``, balance sweeps) without a Python call a decision.

The checkpoint says which game, options, observation size and action count it was
trained for; a mismatch is refused with an :class:`~boardsim.OptionError` naming it
(``strict_options=False`` lets a policy play the same game with other option values,
e.g. another Hispania difficulty level; the game, observation size and action count
must still match).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from boardsim.agents.network import NetworkAgent, check_network, shipped_network
from boardsim.core.errors import OptionError
from boardsim.core.game import Game
from boardsim.core.network import Network
from boardsim.core.nn import network_logits_batch
from boardsim.training.checkpoint import resolve_checkpoint


def ppo_network(path: str | Path) -> Network:
    """The compiled network of a PPO checkpoint (file or run folder) or an exported ``.npz``."""
    p = Path(path)
    if p.suffix == ".npz":
        return Network.load(p)
    from boardsim.training.networks import export_ppo_checkpoint  # deferred: torch, heavy

    return export_ppo_checkpoint(resolve_checkpoint(p))


class PPOAgent(NetworkAgent):
    """Acts with a trained policy: the most likely legal action (``deterministic=True``),
    or a sample from the masked policy (``deterministic=False``, seeded by ``seed``)."""

    name = "ppo"

    def __init__(
        self,
        game: Game,
        path: str | Path | None = None,
        seed: int | None = None,
        deterministic: bool = True,
        strict_options: bool = True,
    ) -> None:
        if path is None:
            network = shipped_network(game.name, "ppo")
            where = f"the PPO policy shipped for {game.name}"
        else:
            network = ppo_network(path)
            where = f"checkpoint {path}"
        check_network(game, network, strict_options=strict_options, where=where)
        super().__init__(
            game,
            network,
            seed,
            temperature=0.0 if deterministic else 1.0,
            label=f"ppo:{path}" if path else "ppo",
        )
        self.path = Path(path) if path is not None else None
        self.metadata = network.meta
        self.deterministic = deterministic

    def action_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Masked logits for a batch of observations (illegal actions at -inf)."""
        obs = np.ascontiguousarray(observations, np.float32)
        out = np.zeros((len(obs), self.game.num_actions), np.float32)
        net = self.network
        network_logits_batch(net.weights, net.layout, 0, obs, self._act, out)
        return np.where(np.asarray(masks, bool), out, -np.inf)


def make_agent(
    game: Game,
    arg: str | None,
    seed: int | None,
    deterministic: bool = True,
    strict_options: bool = True,
    **options: Any,
) -> PPOAgent:
    """The ``"ppo[:PATH]"`` factory of :func:`boardsim.agents.load`."""
    if options:
        raise OptionError(
            f"the ppo agent takes deterministic= and strict_options=, not {sorted(options)}"
        )
    return PPOAgent(game, arg, seed, deterministic=deterministic, strict_options=strict_options)
