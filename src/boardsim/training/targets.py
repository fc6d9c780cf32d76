"""What a self-play network learns from a position: the refinement's improvement targets,
the value targets, the policy loss, and the position's symmetric forms (``--symmetries``).

Pure functions of arrays (the policy loss of torch tensors, imported by the caller), used
by the trainer (:mod:`boardsim.training.alphazero`) at each minibatch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardsim.core.errors import OptionError
from boardsim.training.replay import ReplayBuffer


def improvement_targets(
    baseline: np.ndarray, q: np.ndarray, visits: np.ndarray, margin: float, min_share: float
) -> np.ndarray:
    """One-hot policy targets: at each position the ``baseline`` move (the heuristic's),
    unless a move the search visited at least ``min_share`` of its simulations has a mean
    value (``q``, for the player to move) above the baseline's by more than ``margin``:
    then the best such move. A baseline the search never visited stays (no value to
    compare)."""
    n = len(baseline)
    rows = np.arange(n)
    share = visits / np.maximum(visits.sum(axis=1, keepdims=True), 1)
    eligible = np.where(share >= min_share, q, -np.inf)
    best = eligible.argmax(axis=1)
    better = (eligible[rows, best] - q[rows, baseline] > margin) & (visits[rows, baseline] > 0)
    pick = np.where(better, best, baseline)
    out = np.zeros(q.shape, np.float32)
    out[rows, pick] = 1.0
    return out


def symmetry_maps(game: Any) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The game's symmetries (``GameDefinition.symmetries``) as checked index maps: each a
    permutation of the observation's features and one of the actions; a clear error for a
    game that declares none or a map that is not such a permutation."""
    declared = game.definition.symmetries
    if declared is None:
        raise OptionError(f"{game.name} declares no symmetries: leave out --symmetries")
    maps = []
    for k, (observation_map, action_map) in enumerate(declared(dict(game.options))):
        pair = (np.asarray(observation_map, np.int64), np.asarray(action_map, np.int64))
        for what, index, size in zip(
            ("observation", "action"), pair, (game.observation_size, game.num_actions), strict=True
        ):
            if index.shape != (size,) or not np.array_equal(np.sort(index), np.arange(size)):
                raise OptionError(
                    f"{game.name}: symmetry {k}'s {what} map is not a permutation of its "
                    f"{size} {what} indices"
                )
        maps.append(pair)
    return tuple(maps)


def symmetric_forms(
    obs: np.ndarray,
    masks: np.ndarray,
    policies: np.ndarray,
    symmetries: Sequence[tuple[np.ndarray, np.ndarray]],
    rng: np.random.Generator,
) -> np.ndarray:
    """Turn each row of a minibatch, in place, into one of its forms drawn uniformly: the
    identity or one of ``symmetries`` (:func:`symmetry_maps`), its observation, legal mask
    and policy target alike (its value target is the same in every form). Returns the form
    of each row (0: the identity, ``k``: ``symmetries[k - 1]``)."""
    forms = rng.integers(0, len(symmetries) + 1, size=len(obs))
    width = len(symmetries[0][0]) if symmetries else 0
    for k, (observation_map, action_map) in enumerate(symmetries, start=1):
        rows = np.flatnonzero(forms == k)
        if rows.size:
            obs[rows, :width] = obs[rows][:, observation_map]
            masks[rows] = masks[rows][:, action_map]
            policies[rows] = policies[rows][:, action_map]
    return forms


def policy_cross_entropy(target: Any, logp: Any) -> Any:
    """The mean cross-entropy of the rows with a policy target (a row all zero has none:
    a cheap search of the playout cap); every row's when all have one."""
    per_row = -(target * logp).sum(dim=1)
    has = target.sum(dim=1) > 0
    if bool(has.all()):
        return per_row.mean()
    return per_row.sum() / has.sum().clamp_min(1).to(per_row.dtype)


def value_targets(buffer: ReplayBuffer, idx: np.ndarray, weight: float) -> np.ndarray:
    """The value targets of positions ``idx``: the game's result, mixed with weight
    ``weight`` with the search's value where a search chose there."""
    z = buffer.values[idx]
    if weight <= 0:
        return z
    searched = buffer.search_values[idx]
    return np.where(np.isnan(searched), z, (1.0 - weight) * z + weight * searched).astype(
        np.float32
    )
