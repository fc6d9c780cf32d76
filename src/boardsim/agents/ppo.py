"""The PPO agent: a MaskablePPO checkpoint of ``boardsim train`` that acts from observation + mask.

``boardsim.agents.load("ppo:PATH", game)``: PATH is a checkpoint file or a run
folder (its latest checkpoint). The checkpoint says which game, options,
observation size and action count it was trained for; a mismatch is refused with
an :class:`~boardsim.OptionError` naming it (``strict_options=False`` lets a
policy play the same game with other option values, e.g. another Hispania
difficulty level; the game, observation size and action count must still match).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from boardsim.core.errors import OptionError
from boardsim.core.game import Game, State
from boardsim.training.checkpoint import check_compatible, read_metadata, resolve_checkpoint


def load_policy(checkpoint: Path) -> Any:
    """The policy network of a checkpoint (full or exported), in evaluation mode, on the CPU."""
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


# a small MLP on a few observations gains nothing from more threads, and loses much when the
# cores are shared (torch's threads wait for each other)
INFERENCE_THREADS = 1


class PPOAgent:
    """Acts with a trained policy: the most likely legal action (``deterministic=True``),
    or a sample from the masked policy (``deterministic=False``, seeded by ``seed``)."""

    name = "ppo"
    needs_state = False

    def __init__(
        self,
        game: Game,
        path: str | Path,
        seed: int | None = None,
        deterministic: bool = True,
        strict_options: bool = True,
    ) -> None:
        import torch

        checkpoint = resolve_checkpoint(path)
        self.metadata = read_metadata(checkpoint)
        check_compatible(
            self.metadata,
            game.name,
            game.options,
            game.observation_size,
            game.num_actions,
            strict_options=strict_options,
            where=f"checkpoint {checkpoint}",
        )
        self.path = checkpoint
        self.policy = load_policy(checkpoint)
        self.deterministic = deterministic
        self.generator = torch.Generator().manual_seed(0 if seed is None else int(seed))

    def action_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Masked logits for a batch of observations (illegal actions at -inf)."""
        import torch
        from stable_baselines3.common.policies import BaseModel

        before = torch.get_num_threads()
        torch.set_num_threads(INFERENCE_THREADS)
        try:
            with torch.no_grad():
                obs = torch.as_tensor(np.asarray(observations, np.float32))
                # the policy's own layers, without building a distribution (its checks are slow)
                features = BaseModel.extract_features(
                    self.policy, obs, self.policy.pi_features_extractor
                )
                latent = self.policy.mlp_extractor.forward_actor(features)
                logits = self.policy.action_net(latent).numpy()
            return np.where(np.asarray(masks, bool), logits, -np.inf)
        finally:
            torch.set_num_threads(before)

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One action a row of ``observations`` / ``masks`` (for evaluating many games at once)."""
        import torch

        masks = np.asarray(masks, bool)
        if not masks.any(axis=1).all():
            raise ValueError("no legal action in a mask")
        logits = self.action_logits(observations, masks)
        if self.deterministic:
            return np.where(masks, logits, -np.inf).argmax(axis=1)
        probs = torch.softmax(torch.as_tensor(logits, dtype=torch.float64), dim=1)
        return torch.multinomial(probs, 1, generator=self.generator)[:, 0].numpy()

    def act(
        self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None
    ) -> int:
        """The policy's action for one observation, only among the legal ones of
        ``action_mask`` (the most likely one, or a sample with ``deterministic=False``).
        """
        return int(self.act_batch(observation[None, :], np.asarray(action_mask)[None, :])[0])

    def act_state(self, state: State) -> int:
        """The policy's action for the player to move in ``state``."""
        player = state.current_player()
        return self.act(state.observation(player), state.legal_actions_mask())


def make_agent(
    game: Game,
    arg: str | None,
    seed: int | None,
    deterministic: bool = True,
    strict_options: bool = True,
    **options: Any,
) -> PPOAgent:
    """The ``"ppo:PATH"`` factory of :func:`boardsim.agents.load`."""
    if not arg:
        raise OptionError("the ppo agent needs a checkpoint: 'ppo:PATH' (a .zip or a run folder)")
    if options:
        raise OptionError(
            f"the ppo agent takes deterministic= and strict_options=, not {sorted(options)}"
        )
    return PPOAgent(game, arg, seed, deterministic=deterministic, strict_options=strict_options)
