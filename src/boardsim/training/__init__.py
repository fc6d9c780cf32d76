"""Training: MaskablePPO runs with atomic checkpoints and exact resume (``ppo``); RLlib self-play
(``rllib``, optional extra)."""
