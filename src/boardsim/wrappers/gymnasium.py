"""A single-agent Gymnasium environment: one seat learns, the other seats are played for it.

``opponents`` is ``None`` or ``"random"`` (uniform random over legal actions),
``"heuristic"`` (the game's rule-based player), one such name a player, one agent
with ``act(observation, action_mask) -> int`` for every other seat, or a dict
``{seat: agent}``. Named policies, and agents that play in compiled code (a network,
``boardsim.agents.load("alphazero", game)``: they have ``compiled_seat()``), are
compiled: a whole step (the learner's action, every opponent decision after it, the
next observation and mask) is one call into compiled code. An agent that reads the
game state (``needs_state``: greedy, heuristic, MCTS) is given it:
``act(observation, action_mask, state=...)``.
Chance nodes are always resolved inside ``step``. The mask
of the learner's legal actions is in ``info["action_mask"]`` and in
:meth:`action_masks` (what sb3-contrib's MaskablePPO calls).

An illegal action raises :class:`IllegalActionError`; with
``illegal_action="terminate"`` it instead ends the episode with
``illegal_reward`` (PettingZoo's TerminateIllegal style, for code that samples
unmasked actions, such as Gymnasium's own ``check_env``).
"""

from __future__ import annotations

from typing import Any, Protocol

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from boardsim.core.batch import policy_codes
from boardsim.core.bound import BoundFunction
from boardsim.core.engine import seats_scratch_size
from boardsim.core.errors import OptionError, as_action
from boardsim.core.game import Game, State, checked_seed
from boardsim.core.header import FLAG_TERMINAL, FLAG_TRUNCATED, H_FLAGS, POLICY_MCTS
from boardsim.core.rng import derive_seed, rng_seed
from boardsim.core.seats import seat_table
from boardsim.render import to_rgb_array
from boardsim.wrappers.spaces import observation_space


class Policy(Protocol):
    """An opponent: anything with ``act(observation, action_mask) -> int``."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action for ``observation`` (``action_mask[a] == 1``)."""
        ...


def act_with_state(agent: Any, observation: np.ndarray, mask: np.ndarray, state: State) -> int:
    """``agent``'s action; agents that declare ``needs_state`` also get the state."""
    if getattr(agent, "needs_state", False):
        return int(agent.act(observation, mask, state=state))
    return int(agent.act(observation, mask))


class _UniformRandom:
    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(action_mask)))


class _CompiledPolicy:
    """A named compiled policy (``heuristic``) played from Python, for the explicit-chance
    path where the env draws chance itself; its tie-breaks from its own generator."""

    needs_state = True

    def __init__(self, game: Game, code: int, rng: np.random.Generator) -> None:
        self.game = game
        self.code = np.int32(code)
        self.mask = np.zeros(game.num_actions, np.uint8)
        self.prng = np.zeros(2, np.int32)
        rng_seed(self.prng, 0, int(rng.integers(0, 2**62)))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: State) -> int:
        return int(
            self.game.engine.policy_action(
                state.array.copy(), self.game.params, self.code, self.mask, self.prng
            )
        )


class BoardsimGymEnv(gym.Env):
    """Seat ``seat`` of ``game`` against fixed policies, as a Gymnasium env."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: Game,
        opponents: str | list[str] | Policy | dict[int, Policy] | None = None,
        seat: int = 0,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(f"illegal_action {illegal_action!r}; choose 'raise' or 'terminate'")
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r}; choose one of {self.metadata['render_modes']}"
            )
        game.check_seat(seat)
        self.game = game
        self._num_actions = game.num_actions
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space = observation_space(game)
        self.action_space = spaces.Discrete(game.num_actions)
        self._opponents = opponents
        self.state_: State | None = None
        self._ended_illegally = False
        self._named_agents: dict[str, Any] = {}
        self._compiled = self._compiled_policies(opponents)
        if self._compiled is not None:
            n, p = game.num_actions, game.max_players
            self._learners = game.teammates(seat)
            self._rewards = np.zeros(p, np.float32)
            self._opponents_rng = np.zeros(2, np.int32)  # the compiled opponents' generator
            self._obs_buf = np.zeros(game.observation_size, np.float32)
            self._mask_buf = np.zeros(n, np.uint8)
            self._play_step = game.engine.play_step
            self._nn = game.engine.net_scratch(*seats_scratch_size(self._compiled))

    def __getstate__(self) -> dict[str, Any]:
        """Everything but the bound compiled step (the game pickles by name and options,
        the state as its bytes): a pickled env continues the same game with the same
        draws."""
        out = self.__dict__.copy()
        out.pop("_play_step", None)
        return out

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__dict__.update(saved)
        if self._compiled is not None:
            self._play_step = self.game.engine.play_step

    def _compiled_policies(self, opponents: Any) -> tuple[np.ndarray, ...] | None:
        """The seat table when every opponent plays in compiled code (a name, or an agent
        with ``compiled_seat()`` that does not search), else None."""
        if opponents is None:
            opponents = "random"
        items = list(opponents) if isinstance(opponents, list | tuple) else [opponents]
        if not all(isinstance(o, str) or hasattr(o, "compiled_seat") for o in items):
            return None
        try:
            seats = seat_table(self.game, opponents)
        except ValueError as exc:
            raise OptionError(str(exc)) from None
        if self.game.options.get("explicit_chance"):
            return None  # chance is drawn here in Python: the opponents play here too
        if (seats[0] == POLICY_MCTS).any():
            return None  # a search: the agents search on the state, from Python
        return seats

    def _policy(self, player: int) -> Policy:
        name = self._opponents
        if isinstance(name, list | tuple):
            name = name[player]
        if name is None or name == "random":
            return _UniformRandom(self.np_random)
        if isinstance(name, str):
            if name not in self._named_agents:
                code = int(policy_codes(self.game, name)[0])
                self._named_agents[name] = _CompiledPolicy(self.game, code, self.np_random)
            return self._named_agents[name]
        if isinstance(self._opponents, dict):
            return self._opponents.get(player) or _UniformRandom(self.np_random)
        return name  # an agent: for every seat, or this player's of a list

    def _learner(self, player: int) -> bool:
        """The learner plays its seat and every player on the same side (``Game.teams``)."""
        return self.game.teams[player] == self.game.teams[self.seat]

    def _advance(self) -> float:
        """Resolve chance and play the other seats until the learner decides; its reward."""
        assert self.state_ is not None
        reward = 0.0
        st = self.state_
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                probs = np.array([p for _, p in outcomes])
                i = int(self.np_random.choice(len(outcomes), p=probs / probs.sum()))
                st.apply_unchecked(outcomes[i][0])
            elif self._learner(st.current_player()):
                break
            else:
                p = st.current_player()
                mask = st.legal_actions_mask()
                a = act_with_state(self._policy(p), st.observation(p), mask, st)
                if not 0 <= a < self.game.num_actions or not mask[a]:
                    st.raise_illegal(a)  # the opponent policy chose an illegal action
                st.apply_unchecked(a)
            reward += float(st.last_rewards[self.seat])
        return reward

    def _compiled_step(self, action: int) -> tuple[float, np.ndarray, dict[str, Any]]:
        """The learner's action (-1: none), the opponents, the next view: one compiled call."""
        assert self.state_ is not None and self._compiled is not None
        self._play_step(
            self.state_.array,
            self.game.params,
            action,
            self.seat,
            self._learners,
            self._compiled,
            self._opponents_rng,
            self._rewards,
            self._obs_buf,
            self._mask_buf,
            self._nn,
        )
        if isinstance(self._play_step, BoundFunction):  # the next calls go direct
            self._play_step = self._play_step.direct() or self._play_step
        rewards = self._rewards.copy()
        self.state_.last_rewards = rewards
        info = {"action_mask": self._mask_buf.astype(np.int8)}
        return float(rewards[self.seat]), self._obs_buf.copy(), info

    def _obs(self) -> tuple[np.ndarray, dict[str, Any]]:
        assert self.state_ is not None
        mask = self.state_.legal_actions_mask()
        player = self.state_.current_player()
        viewer = player if player >= 0 and self._learner(player) else self.seat
        return self.state_.observation(viewer), {"action_mask": mask.astype(np.int8)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game; the opponents play until it is the learner's turn.
        ``info["action_mask"]`` holds its legal actions.
        """
        if seed is not None:
            seed = checked_seed(seed)  # the one seed rule, before Gymnasium's own
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**62))
        self.state_ = self.game.new_initial_state(game_seed)
        self._ended_illegally = False
        self._named_agents.clear()  # named opponents draw their generators afresh
        if self._compiled is not None:
            rng_seed(self._opponents_rng, 0, derive_seed(game_seed, 1))
            _, obs, info = self._compiled_step(-1)
            return obs, info
        self._advance()
        return self._obs()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents until the learner's next
        decision or the end: observation, reward, terminated, truncated, info.
        """
        state = self.state_
        if state is None:
            raise RuntimeError("call reset() first")
        flags = int(state.array[H_FLAGS])
        if flags & FLAG_TERMINAL or self._ended_illegally:
            raise RuntimeError("the game is over: call reset()")
        a = as_action(action, state.legal_actions)
        mask = self._mask_buf if self._compiled is not None else state.legal_actions_mask()
        if not 0 <= a < self._num_actions or not mask[a]:
            if self.illegal_action == "terminate":
                obs, info = self._obs()
                info["illegal_action"] = True
                self._ended_illegally = True
                return obs, self.illegal_reward, True, False, info
            self.state_.raise_illegal(a)
        if self._compiled is not None:
            reward, obs, info = self._compiled_step(a)
        else:
            state.apply_unchecked(a)
            reward = float(state.last_rewards[self.seat]) + self._advance()
            obs, info = self._obs()
        flags = int(state.array[H_FLAGS])
        truncated = (flags & FLAG_TRUNCATED) != 0
        terminated = (flags & FLAG_TERMINAL) != 0 and not truncated
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (sb3-contrib's MaskablePPO calls this)."""
        assert self.state_ is not None, "call reset() first"
        if self._compiled is not None:
            return self._mask_buf.astype(bool)
        return self.state_.legal_actions_mask().astype(bool)

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the text board; ``rgb_array``: the board as the learner's seat sees it
        (its own hand drawn, nobody else's); ``human``: the text board printed."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            if self.state_ is None:
                raise RuntimeError("call reset() before render()")
            return to_rgb_array(self.game, self.state_, viewer=self.seat)
        text = str(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text
