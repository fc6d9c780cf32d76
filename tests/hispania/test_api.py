"""The generic wrappers and engine over Hispania: PettingZoo, Gymnasium, batch, rollouts,
words for every action, a golden seeded trace."""

from __future__ import annotations

import hashlib
import json
import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import boardsim
from boardsim.core.errors import IllegalActionError, StateFormatError
from boardsim.games.hispania import DEFINITION
from boardsim.games.hispania import layout as hl
from boardsim.testing import assert_batch_equals_single

GOLDEN = Path(__file__).with_name("golden_trace.json")
GOLDEN_OPTIONS = {"level": "6-4-3-4-2", "imperivm": True, "terror": True, "hispano": True}


@pytest.mark.parametrize(
    "options",
    [{}, {"explicit_chance": True}, {"agents": "rome", "hispano": True, "proconsvl": True}],
    ids=["generals", "explicit", "rome-hispano"],
)
def test_pettingzoo_api(options: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(boardsim.make_env("hispania", **options), num_cycles=200)


def test_pettingzoo_seed() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: boardsim.make_env("hispania"), num_cycles=100)


def test_gymnasium_plays_a_whole_game_for_rome() -> None:
    """(Gymnasium's ``check_env`` at the defaults: the conformance test's.)"""
    env = boardsim.make_gym_env("hispania", agents="rome")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    done, total = False, 0.0
    while not done:
        assert np.array_equal(info["action_mask"], env.action_masks())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        done = terminated or truncated
    assert total in (-1.0, 1.0)


def test_batch_equals_single_states() -> None:
    game = boardsim.make_game("hispania", imperivm=True, pirates=True)
    assert_batch_equals_single(game, 3, 200, 77)


def test_compiled_rollout_is_reproducible() -> None:
    game = boardsim.make_game("hispania", hispano=True, terror=True, traitors=True)

    def run() -> tuple[np.ndarray, ...]:
        states = np.zeros((4, game.state_size), np.int32)
        decisions = np.zeros(4, np.int64)
        games = np.zeros(4, np.int64)
        game.engine.rollout_random(states, game.params, 2000, 42, decisions, games)
        return states, decisions, games

    a, b = run(), run()
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)
    assert a[2].sum() >= 4
    out = boardsim.rollout("hispania", num_envs=4, num_steps=500, seed=1)
    assert out["decisions"] == 2000


def test_save_load_and_illegal_action() -> None:
    game = boardsim.make_game("hispania", scenario="numantia")
    s = game.new_initial_state(5)
    back = game.state_from_bytes(s.to_bytes())
    assert back == s
    with pytest.raises(StateFormatError):
        boardsim.make_game("hispania").state_from_bytes(s.to_bytes())
    with pytest.raises(IllegalActionError):
        s.apply_action(hl.A_UNLEGIO)


def test_every_legal_action_has_distinct_words_and_states_render() -> None:
    game = boardsim.make_game(
        "hispania",
        ingenivm=True,
        imperivm=True,
        proconsvl=True,
        legio_hispana=True,
        pirates=True,
        terror=True,
        traitors=True,
        hispano=True,
    )
    for seed in range(4):
        s = game.new_initial_state(seed)
        chooser = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            words = [s.action_to_string(a) for a in legal]
            assert all(w and "out of range" not in w for w in words)
            assert len(set(words)) == len(words), words
            assert "Hispania" in str(s)
            obs = s.observation(s.current_player())
            assert np.isfinite(obs).all() and obs.min() >= 0.0 and obs.max() <= 2.0
            s.apply_action(chooser.choice(legal))
        assert "VICTORY" in str(s)


def _play_golden() -> dict:
    game = boardsim.make_game("hispania", **GOLDEN_OPTIONS)
    seed = 2026
    s = game.new_initial_state(seed)
    chooser = random.Random(seed)
    actions, digests = [], []
    while not s.is_terminal():
        a = chooser.choice(s.legal_actions())
        s.apply_action(a)
        actions.append(a)
        if len(actions) % 25 == 0:
            digests.append(hashlib.sha256(s.array.astype("<i4").tobytes()).hexdigest()[:16])
    return {
        "version": DEFINITION.version,
        "options": GOLDEN_OPTIONS,
        "seed": seed,
        "actions": actions,
        "digest_every_25": digests,
        "final_state": s.array.tolist(),
        "returns": s.returns().tolist(),
    }


def test_golden_trace_replays_exactly() -> None:
    """Regenerate (``python -m tests.hispania.test_api``) only when the rules change and the
    version is bumped; review the diff."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden["version"] == DEFINITION.version
    assert _play_golden() == golden


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(_play_golden()) + "\n", encoding="utf-8")


def test_single_agent_envs_train_the_whole_roman_side() -> None:
    """Issue 3: the Gymnasium env trains the Roman side: the learner plays every general."""
    env = boardsim.make_gym_env("hispania")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    played, done = set(), False
    while not done:
        played.add(env.state_.current_player())
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = term or trunc
    assert played <= {0, 1, 2} and len(played) >= 2
    venv = boardsim.make_vec_env("hispania", 4, hispano=True, level="6-4-3-4-2")
    assert venv.batch.learners.tolist()[:4] == [1, 1, 1, 0]


def test_the_text_board_names_the_hispano_player_when_it_acts() -> None:
    """Issue 38: with the Hispano variant, player 3 is the Hispano player: at its first
    decision (the initial revolts, before any turn) the text board says "to act: Hispano",
    not "proconsul"; at a Roman general's decision it names that general."""
    game = boardsim.make_game("hispania", hispano=True)
    s = game.new_initial_state(0)
    chooser = random.Random(0)
    seen = set()
    while not s.is_terminal() and len(seen) < 2:
        if s.current_player() >= 0:
            header = str(s).splitlines()[0]
            if s.current_player() == hl.HISPANO:
                assert "to act: Hispano |" in header and "proconsul" not in header
                seen.add("hispano")
            elif s.current_player() == 0:
                assert "to act: praetor of Ulterior |" in header
                seen.add("roman")
        s.apply_action(chooser.choice(s.legal_actions()))
    assert seen == {"hispano", "roman"}
