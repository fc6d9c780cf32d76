"""What the training tests share: the smallest PPO settings that still train."""

from __future__ import annotations

from typing import Any

TINY: dict[str, Any] = {
    "num_envs": 4,
    "n_steps": 32,
    "batch_size": 64,
    "n_epochs": 2,
    "net_arch": [32, 32],
    "progress": False,
    "tensorboard": False,
    "torch_threads": 1,
    "threads": 1,
}
