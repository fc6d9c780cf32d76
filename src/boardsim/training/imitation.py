"""Imitation before PPO: fit the policy to the compiled heuristic's decisions.

Where random play never wins (Hispania's Romans lose every random game, so PPO's
return is the same in every game and there is nothing to learn from), a run can
start from the heuristic instead: :func:`collect_heuristic_decisions` plays the
training envs with the game's compiled ``heuristic_action`` in the learner's seats
and records what the learner would have seen (observation, mask), what the
heuristic chose and the discounted return that followed (the learner's rewards,
step penalty included, exactly as PPO will see them); :func:`imitate` then fits the
policy's action distribution to those choices (cross-entropy over the legal
actions) and its value head to those returns. PPO continues from there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from boardsim.core.errors import OptionError
from boardsim.core.header import POLICY_HEURISTIC
from boardsim.core.rng import RNG_WORDS, derive_seed, rng_seed


@dataclass
class Demonstrations:
    """The heuristic's decisions in the learner's seats, one row a decision."""

    obs: np.ndarray  # float32 [n, observation_size]
    masks: np.ndarray  # bool [n, num_actions]
    actions: np.ndarray  # int64 [n]
    returns: np.ndarray  # float32 [n], discounted return from the decision on
    games: int  # games finished while collecting
    # of them, won by the learner's side: the game's return (step penalty left out) above 0
    wins: int


def heuristic_actions(env: Any, prngs: np.ndarray) -> np.ndarray:
    """The compiled heuristic's action for the player to move in each of ``env``'s games."""
    game = env.game
    mask = np.zeros(game.num_actions, np.uint8)
    actions = np.zeros(env.num_envs, np.int64)
    row = 0
    for part in env.parts:
        for state in part.batch.states:
            actions[row] = game.engine.policy_action(
                state, game.params, np.int32(POLICY_HEURISTIC), mask, prngs[row]
            )
            row += 1
    return actions


def collect_heuristic_decisions(
    env: Any, decisions: int, gamma: float, seed: int = 0
) -> Demonstrations:
    """Play ``env`` (a :class:`~.vec.SidesVecEnv`) by the heuristic for ``decisions`` steps
    of all its games together (at least that many rows) and record them.

    Returns are discounted by ``gamma`` within each game; a game still running at the
    end is completed by more heuristic steps so that every row's return is exact.
    Memory: about twice ``decisions x observation size x 4`` bytes at the peak (Hispania,
    400,000 decisions: about 3 GB).
    """
    if decisions < 1:
        raise OptionError(f"imitate at least one decision, got {decisions}")
    n = env.num_envs
    prngs = np.zeros((n, RNG_WORDS), np.int32)  # the heuristic's own generator, a game each
    for row in range(n):
        rng_seed(prngs[row], 0, derive_seed(seed, row))
    obs = env.reset()
    rows_obs: list[np.ndarray] = []
    rows_mask: list[np.ndarray] = []
    rows_act: list[np.ndarray] = []
    rows_rew: list[np.ndarray] = []
    rows_done: list[np.ndarray] = []
    rows_keep: list[np.ndarray] = []
    recording = np.ones(n, bool)  # a game started before the budget ran out is kept whole
    running = np.zeros(n)
    games = wins = 0
    steps = 0
    while recording.any():
        masks = env.action_masks()
        actions = heuristic_actions(env, prngs)
        if not masks[np.arange(n), actions].all():
            raise RuntimeError("the heuristic chose an illegal action")
        # copies: the env's arrays are its own, overwritten by the step after the next
        rows_obs.append(np.array(obs, np.float32))
        rows_mask.append(masks.copy())
        next_obs, rewards, dones, _ = env.step(actions)
        rows_keep.append(recording.copy())
        rows_act.append(actions)
        rows_rew.append(rewards.astype(np.float64))
        rows_done.append(dones.copy())
        running += rewards + env.step_penalty  # the game's own return: a win is above zero
        for i in np.flatnonzero(dones & recording):
            games += 1
            wins += int(running[i] > 0)
        running[dones] = 0.0
        steps += 1
        if steps * n >= decisions:
            recording &= ~dones  # stop each game at its end
        obs = next_obs
    obs_arr = np.stack(rows_obs)  # [T, n, obs]: the bulk (decisions x observation x 4 bytes)
    del rows_obs
    mask_arr = np.stack(rows_mask)
    act_arr = np.stack(rows_act)
    rew_arr = np.stack(rows_rew)
    done_arr = np.stack(rows_done)
    ret_arr = np.zeros_like(rew_arr)
    following = np.zeros(n)
    for t in range(len(rew_arr) - 1, -1, -1):
        following = rew_arr[t] + gamma * following * ~done_arr[t]
        ret_arr[t] = following
    keep = np.stack(rows_keep)
    return Demonstrations(
        obs=obs_arr[keep],
        masks=mask_arr[keep],
        actions=act_arr[keep].astype(np.int64),
        returns=ret_arr[keep].astype(np.float32),
        games=games,
        wins=wins,
    )


def imitate(
    model: Any,
    demos: Demonstrations,
    epochs: int = 4,
    batch_size: int = 512,
    learning_rate: float = 1e-3,
    value_weight: float = 0.5,
    seed: int = 0,
) -> dict[str, float]:
    """Fit ``model.policy`` (sb3-contrib's masked actor-critic) to the demonstrations:
    cross-entropy of the heuristic's action under the masked policy, plus
    ``value_weight`` x the squared error of the value head against the returns.

    Its own Adam optimizer (PPO's keeps its state). Returns the last epoch's mean loss,
    the share of decisions where the policy's most likely action is the heuristic's, and
    the value's mean squared error.
    """
    import torch

    if epochs < 1 or batch_size < 1:
        raise OptionError("imitation needs at least one epoch and a positive batch size")
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    rng = np.random.default_rng(seed)
    n = len(demos.actions)
    obs = torch.as_tensor(demos.obs)
    masks = demos.masks
    actions = torch.as_tensor(demos.actions)
    returns = torch.as_tensor(demos.returns)
    report: dict[str, float] = {}
    for _ in range(epochs):
        order = rng.permutation(n)
        losses, agree, value_errors = [], 0, []
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            dist = policy.get_distribution(obs[idx], action_masks=masks[idx])
            log_prob = dist.log_prob(actions[idx])
            values = policy.predict_values(obs[idx]).flatten()
            value_error = torch.mean((values - returns[idx]) ** 2)
            loss = -log_prob.mean() + value_weight * value_error
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            with torch.no_grad():
                best = dist.distribution.probs.argmax(dim=1)
                agree += int((best == actions[idx]).sum())
            losses.append(loss.item())
            value_errors.append(value_error.item())
        report = {
            "loss": float(np.mean(losses)),
            "agreement": agree / n,
            "value_mse": float(np.mean(value_errors)),
        }
    policy.set_training_mode(False)
    return report
