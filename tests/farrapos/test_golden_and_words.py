"""A golden seeded trace (any behaviour change shows here), and words for every action."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import numpy as np

import boardsim
from boardsim.core.game import Game
from boardsim.games.farrapos import DEFINITION
from boardsim.games.farrapos.names import evaluate

GOLDEN = Path(__file__).with_name("golden_trace.json")


def test_golden_trace_replays_exactly() -> None:
    """Regenerate (and review the diff) only when the rules change and the version is bumped."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden["version"] == DEFINITION.version
    game = boardsim.make_game("farrapos", **golden["options"])
    s = game.new_initial_state(golden["seed"])
    chooser = random.Random(golden["seed"])
    digests = []
    for i, action in enumerate(golden["actions"], start=1):
        legal = s.legal_actions()
        assert chooser.choice(legal) == action  # same legal actions, in the same order
        s.apply_action(action)
        if i % 100 == 0:
            digests.append(hashlib.sha256(s.array.astype("<i4").tobytes()).hexdigest()[:16])
    assert digests == golden["digest_every_100"]
    assert s.is_terminal()
    assert s.array.tolist() == golden["final_state"]
    assert s.returns().tolist() == golden["returns"]


def test_every_legal_action_has_words_and_every_state_renders(game: Game) -> None:
    for seed in range(3):
        s = game.new_initial_state(seed)
        chooser = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            words = [s.action_to_string(a) for a in legal]
            assert all(w and "out of range" not in w for w in words)
            assert len(set(words)) == len(words)  # no two legal actions read alike
            assert "Farrapos" in str(s)
            value = evaluate(game.params, s.array, 0)
            assert value == -evaluate(game.params, s.array, 1)
            s.apply_action(chooser.choice(legal))
        assert "wins" in str(s) or "draw" in str(s)
        assert abs(evaluate(game.params, s.array, 0)) in (0.0, 1000.0)


def test_observation_is_bounded(game: Game) -> None:
    s = game.new_initial_state(4)
    chooser = random.Random(4)
    for _ in range(300):
        if s.is_terminal():
            break
        for p in (0, 1):
            o = s.observation(p)
            assert np.all(np.isfinite(o)) and o.min() >= -1.0 and o.max() <= 20.0
        s.apply_action(chooser.choice(s.legal_actions()))


def test_the_text_board_is_coloured_only_for_a_terminal(monkeypatch) -> None:
    """str(state) in a file, a pipe or a notebook has no escape codes (issue 38: boardsim
    replay FILE > file wrote them); a terminal still sees the sides in colour."""
    import io

    import boardsim
    from boardsim.games.farrapos import names

    game = boardsim.make_game("farrapos")
    state = game.new_initial_state(seed=1)
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert "\x1b" not in str(state)
    assert "\x1b[32m" in names.render_text(game.params, state.array, colour=True)
    monkeypatch.setattr(names, "colour_wanted", lambda: True)
    assert "\x1b[33m" in str(state)
