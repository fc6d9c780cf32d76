"""A PettingZoo AEC environment over any boardsim game.

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``;
the mask is all zero for an agent that is not to move. With the game option
``explicit_chance=True`` a ``"chance"`` agent acts at every die roll and card
draw, its mask marking the possible outcomes (``infos["chance"]`` gives their
probabilities).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from boardsim.core.errors import IllegalActionError, as_action
from boardsim.core.game import CHANCE, Game, State, checked_seed
from boardsim.core.header import TERMINAL
from boardsim.render import to_rgb_array
from boardsim.wrappers.spaces import observation_space

CHANCE_AGENT = "chance"


class BoardsimAECEnv(AECEnv):
    """Turn-based multi-agent env: one agent per seat (per ``Game.agent_names``)."""

    metadata = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "render_fps": 2,
        "name": "boardsim",
        "is_parallelizable": False,
    }

    def __init__(self, game: Game, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r}; choose one of {self.metadata['render_modes']}"
            )
        self.game = game
        self.render_mode = render_mode
        self.metadata = {
            **self.metadata,
            "name": f"boardsim_{game.name}_v{game.definition.version}",
        }
        names = game.agent_names()
        mapper = game.definition.agent_of_player
        self._agent_of_player = [
            names[mapper(game.options, p) if mapper else p] for p in range(game.num_players)
        ]
        self._first_player = {a: self._agent_of_player.index(a) for a in names}
        self.explicit_chance = bool(game.options["explicit_chance"])
        self.possible_agents = list(names) + ([CHANCE_AGENT] if self.explicit_chance else [])
        obs_space = spaces.Dict(
            {
                "observation": observation_space(game),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self.state_: State | None = None
        self._rng = np.random.default_rng()
        self._actor = ""
        self._mask = np.zeros(game.num_actions, np.uint8)

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent``: a dict of ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of ``agent``: ``Discrete(num_actions)``."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------ helpers
    def _actor_agent(self) -> str:
        assert self.state_ is not None
        p = self.state_.current_player()
        if p == CHANCE:
            return CHANCE_AGENT
        return self._agent_of_player[max(p, 0)]

    def _refresh(self) -> None:
        """Recompute who acts and their mask, once per change of the state."""
        assert self.state_ is not None
        mask = np.zeros(self.game.num_actions, np.uint8)
        if self.state_.is_terminal():
            self._actor = ""
        else:
            self._actor = self._actor_agent()
            if self._actor == CHANCE_AGENT:
                for outcome, _ in self.state_.chance_outcomes():
                    mask[outcome] = 1
            else:
                self.game.kernels.legal_mask(self.state_.array, self.game.params, mask)
        self._mask = mask

    def _mask_for(self, agent: str) -> np.ndarray:
        if agent == self._actor:
            return self._mask.astype(np.int8)
        return np.zeros(self.game.num_actions, np.int8)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees: ``{"observation": float32, "action_mask": uint8}``."""
        assert self.state_ is not None, "call reset() first"
        if agent == CHANCE_AGENT:
            obs = np.zeros(self.game.observation_size, np.float32)
        else:
            obs = self.state_.observation(self._first_player[agent])
        return {"observation": obs, "action_mask": self._mask_for(agent)}

    # ------------------------------------------------------------ API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (seeded by ``seed`` when given)."""
        if seed is not None:
            game_seed = checked_seed(seed)  # the one seed rule, before numpy's own
            self._rng = np.random.default_rng(game_seed)
        else:
            game_seed = int(self._rng.integers(0, 2**62))
        self.state_ = self.game.new_initial_state(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._actor_agent()
        self._refresh()
        self._update_chance_info()

    def _update_chance_info(self) -> None:
        if self.explicit_chance and self.state_ is not None and self.state_.is_chance_node():
            self.infos[CHANCE_AGENT] = {"chance": self.state_.chance_outcomes()}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's ``action`` (``None`` for an agent that is done);
        an illegal one raises :class:`~boardsim.IllegalActionError` naming the legal ones.
        """
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if agent != self._actor:
            raise IllegalActionError(-1, [], f"{agent} is not to move")
        action = as_action(action, self.state_.legal_actions)
        if not 0 <= action < self.game.num_actions or not self._mask[action]:
            self.state_.raise_illegal(action)
        self._cumulative_rewards[agent] = 0.0
        # the step and the next actor's mask in one compiled call
        rewards = np.zeros(self.game.max_players, np.float32)
        # the mask buffer is reused (step_and_mask clears it): observe() hands out copies
        actor = self.game.fast_kernel("step_and_mask")(
            self.state_.array, self.game.params, np.int64(action), rewards, self._mask
        )
        self.state_.last_rewards = rewards
        if actor == TERMINAL:
            self._actor = ""
        else:
            self._actor = CHANCE_AGENT if actor == CHANCE else self._agent_of_player[actor]
        for a in self.agents:
            self.rewards[a] = 0.0 if a == CHANCE_AGENT else float(rewards[self._first_player[a]])
        if self.state_.is_terminal():
            truncated = self.state_.is_truncated()
            for a in self.agents:
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
        else:
            self.agent_selection = self._actor
            self._update_chance_info()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the text board; ``rgb_array``: the board as seen by everyone (no hand
        is drawn: the picture is shared by all agents); ``human``: the text board printed."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            if self.state_ is None:
                raise RuntimeError("call reset() before render()")
            return to_rgb_array(self.game, self.state_, viewer=None)
        text = str(self.state_) if self.state_ is not None else "(not reset)"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
        pass
