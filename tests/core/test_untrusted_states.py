"""Untrusted states (issue 15): arrays and saved bytes from outside are checked before any
kernel reads them; a refused one raises StateFormatError naming the field and the value.

The game-specific checks are pinned in ``tests/<game>/test_validate.py``; here: the form
of the array, which game it belongs to, the engine's header, saves made before game
tags, the batch and the training env adopting arrays, real states all accepted, and the
forged-state fuzz (in child processes, so a crash is counted).
"""

from __future__ import annotations

import json
import random
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardsim
from boardsim import StateFormatError
from boardsim.core import header as hd
from boardsim.core.batch import Batch
from boardsim.core.game import SAVE_MAGIC
from boardsim.core.validation import game_tag
from boardsim.fuzz import configs, fuzz, make, play_out, read_everything, resave

DATA = Path(__file__).with_name("data")


def played(game: boardsim.Game, seed: int = 0, steps: int = 30) -> boardsim.State:
    """A real position: ``steps`` random decisions into game ``seed``."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def refusal(game: boardsim.Game, array: object) -> str:
    with pytest.raises(StateFormatError) as info:
        boardsim.State(game, array)  # type: ignore[arg-type]
    return str(info.value)


# ---------------------------------------------------------------- the array's form and game
def test_another_games_array_is_refused_by_its_shape() -> None:
    farrapos = boardsim.make_game("farrapos").new_initial_state(1).array
    message = refusal(boardsim.make_game("liberation"), farrapos)
    assert "liberation state has shape (414,), not (244,)" in message


def test_a_five_word_array_is_refused() -> None:
    message = refusal(boardsim.make_game("hispania"), np.zeros(5, np.int32))
    assert "shape (348,), not (5,)" in message


@pytest.mark.parametrize(
    ("array", "words"),
    [
        (np.zeros(414, np.int64), "an int32 array, not int64"),
        (np.zeros((2, 414), np.int32)[:, 0], "shape (414,), not (2,)"),
        (np.zeros(828, np.int32)[::2], "not contiguous"),
        ([0] * 414, "not list"),
    ],
)
def test_arrays_of_the_wrong_form_are_refused(array: object, words: str) -> None:
    assert words in refusal(boardsim.make_game("liberation"), array)


def test_a_read_only_array_is_refused() -> None:
    a = boardsim.make_game("liberation").new_initial_state(0).array.copy()
    a.setflags(write=False)
    assert "read-only" in refusal(boardsim.make_game("liberation"), a)


def test_the_game_tag_names_the_game_an_array_belongs_to() -> None:
    lib = boardsim.make_game("liberation")
    boardsim.make_game("farrapos")  # the games made here are named
    a = lib.new_initial_state(0).array.copy()
    assert a[hd.H_GAME] == lib.tag == game_tag("liberation", 2) != 0
    a[hd.H_GAME] = game_tag("farrapos", 2)
    assert "a farrapos state (version 2), not liberation" in refusal(lib, a)
    a[hd.H_GAME] = game_tag("liberation", 7)
    assert "a liberation state of version 7, not 2" in refusal(lib, a)
    a[hd.H_GAME] = 12345
    assert "H_GAME (word 6) = 12345: the tag of no game made here" in refusal(lib, a)


def test_every_game_has_its_own_tag() -> None:
    tags = {boardsim.make_game(g).tag for g in boardsim.list_games()}
    assert len(tags) == len(boardsim.list_games())


def test_state_wraps_the_accepted_array_itself() -> None:
    game = boardsim.make_game("farrapos")
    a = game.new_initial_state(3).array.copy()
    state = boardsim.State(game, a)
    state.apply_action(state.legal_actions()[0])
    assert state.array is a and a[hd.H_DECISIONS] == 1


# ---------------------------------------------------------------- the header
@pytest.mark.parametrize(
    ("word", "value", "words"),
    [
        (hd.H_FLAGS, 8, "FLAGS (word 3) = 8"),
        (hd.H_FLAGS, hd.FLAG_TRUNCATED, "truncated but not terminal"),
        (hd.H_FLAGS, hd.FLAG_TERMINAL, "the terminal flag and TERMINAL (-4) go together"),
        (hd.H_ACTOR, 2, "ACTOR (word 2) = 2: not a player of this game"),
        (hd.H_ACTOR, hd.CHANCE, "this game resolves chance itself"),
        (hd.H_DECISIONS, -3, "DECISIONS (word 4) = -3"),
        (hd.H_RESERVED, 9, "word 7 = 9: reserved"),
    ],
)
def test_a_forged_header_is_refused_naming_the_word(word: int, value: int, words: str) -> None:
    game = boardsim.make_game("farrapos")
    a = played(game, 2, 10).array.copy()
    a[word] = value
    assert words in refusal(game, a)


def test_a_stuck_random_generator_is_refused() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    a = played(game, 1).array.copy()
    a[hd.H_RNG : hd.H_RNG + 2] = 0
    assert "generator's words (0, 1) are both 0" in refusal(game, a)


def test_a_live_state_without_a_legal_action_is_refused() -> None:
    """Liberation: a player to discard (phase 6, after drawing on his own space) with an
    empty hand: every field in range, no legal action."""
    from boardsim.games.liberation import layout as L

    game = boardsim.make_game("liberation", num_players=2)
    for seed in range(200):
        state = played(game, seed, 200)
        a = state.array
        if state.is_terminal() or a[L.PHASE] != L.PH_DRAW_DISCARD:
            continue
        a = a.copy()
        p = int(a[L.MOVER])
        a[L.DISCARD : L.DISCARD + L.K] += a[L.HAND + p * L.K : L.HAND + (p + 1) * L.K]
        a[L.HAND + p * L.K : L.HAND + (p + 1) * L.K] = 0
        assert f"player {p} is to move but has no legal action" in refusal(game, a)
        return
    pytest.fail("no draw-and-discard decision met")


# ---------------------------------------------------------------- saved states
def test_a_forged_save_with_a_valid_checksum_is_refused_naming_the_field() -> None:
    from boardsim.games.farrapos import layout as L

    game = boardsim.make_game("farrapos")
    state = played(game, 4, 40)
    a = state.array.copy()
    a[L.LOC + 3] = 99
    with pytest.raises(StateFormatError, match=r"LOC\[3\] = 99: not -2 \(eliminated\)"):
        game.state_from_bytes(resave(state.to_bytes(), a))


def test_the_checksum_is_still_checked_first() -> None:
    game = boardsim.make_game("liberation")
    data = bytearray(game.new_initial_state(0).to_bytes())
    data[-10] ^= 1
    with pytest.raises(StateFormatError, match="checksum"):
        game.state_from_bytes(bytes(data))


def _saved_word(data: bytes, index: int) -> int:
    """Word ``index`` of the array in saved bytes, placed by the state size the save's header
    names (after magic, format, name, version and options): a later version of the game may
    have another size."""
    pos = len(SAVE_MAGIC) + 2
    (name_len,) = struct.unpack_from("<H", data, pos)
    pos += 2 + name_len + 2
    (opts_len,) = struct.unpack_from("<I", data, pos)
    pos += 4 + opts_len
    (size,) = struct.unpack_from("<I", data, pos)
    return struct.unpack_from("<i", data, len(data) - 4 - 4 * size + 4 * index)[0]


def _saved_before_tags() -> list[dict]:
    return json.loads((DATA / "saved_before_tags.json").read_text(encoding="utf-8"))["states"]


@pytest.mark.parametrize("case", _saved_before_tags(), ids=lambda c: f"{c['game']}-{c['label']}")
def test_states_saved_before_game_tags_still_load(case: dict) -> None:
    """Bytes written by the library before states carried a game tag (main at 0c35d90,
    ``tests/core/data/saved_before_tags.json``) load, stamped with the game's tag, equal to
    the same position made now, and play on."""
    # saved when no game had a default decision limit: the options they were saved with
    game = boardsim.make_game(case["game"], **{"max_decisions": 0, **case["options"]})
    old = bytes.fromhex(case["bytes"])
    assert _saved_word(old, hd.H_GAME) == 0
    if game.definition.version != 1:  # the rules changed since (no cancel, issue 15)
        with pytest.raises(StateFormatError, match=r"version 1; this is version [234]"):
            game.state_from_bytes(old)
        return
    loaded = game.state_from_bytes(old)
    assert loaded.array[hd.H_GAME] == game.tag
    now = game.new_initial_state(case["seed"])
    for a in case["actions"]:
        now.apply_action(a)
    assert loaded == now
    assert loaded.to_bytes() == now.to_bytes()
    rng = np.random.default_rng(0)
    steps, refusals = play_out(loaded, rng)
    assert not refusals and (loaded.is_terminal() or steps > 0)


def test_an_untagged_array_is_stamped_when_adopted() -> None:
    game = boardsim.make_game("hispania")
    a = played(game, 5, 6).array.copy()
    a[hd.H_GAME] = 0
    assert boardsim.State(game, a).array[hd.H_GAME] == game.tag


# ---------------------------------------------------------------- the batch and the training env
def test_a_batch_adopts_checked_rows_and_recomputes_masks() -> None:
    game = boardsim.make_game("liberation", num_players=3)
    source = Batch(game, 3, seat=0, seed=9)
    for _ in range(5):
        source.step(np.argmax(source.masks, axis=1))
    batch = Batch(game, 3, seat=0, seed=1)
    batch.adopt_states(source.states, source.policy_rngs)
    assert np.array_equal(batch.states, source.states)
    assert np.array_equal(batch.masks, source.masks) and np.array_equal(batch.obs, source.obs)


def test_a_batch_refuses_a_forged_row_and_keeps_its_games() -> None:
    from boardsim.games.liberation import layout as L

    game = boardsim.make_game("liberation", num_players=3)
    batch = Batch(game, 3, seat=0, seed=1)
    before = batch.states.copy()
    rows = batch.states.copy()
    rows[2, L.POS + 1] = 77
    with pytest.raises(StateFormatError, match=r"row 2 refused: POS\[1\] = 77"):
        batch.adopt_states(rows)
    rows = batch.states.copy()
    rows[1] = played(game, 3, 500).array  # over, or another seat to move
    with pytest.raises(StateFormatError, match="row 1 refused"):
        batch.adopt_states(rows)
    with pytest.raises(StateFormatError, match="generator words are both 0"):
        batch.adopt_states(batch.states, np.zeros((3, 2), np.int32))
    assert np.array_equal(batch.states, before)


def test_a_batch_refuses_a_row_whose_player_is_not_the_learner() -> None:
    game = boardsim.make_game("farrapos")
    batch = Batch(game, 2, seat=0, seed=1)
    other = game.new_initial_state(0)
    rng = random.Random(0)
    while other.current_player() != 1:
        other.apply_action(rng.choice(other.legal_actions()))
    rows = batch.states.copy()
    rows[0] = other.array
    with pytest.raises(StateFormatError, match="player 1 is to move, not the learning side"):
        batch.adopt_states(rows)


def test_a_training_env_refuses_a_tampered_saved_game() -> None:
    from boardsim.training.vec import SidesVecEnv

    game = boardsim.make_game("farrapos")
    env = SidesVecEnv(game, 4, seats=[0, 1], seed=3)
    env.reset()
    saved = env.state_arrays()
    again = SidesVecEnv(game, 4, seats=[0, 1], seed=0)
    again.restore(saved)
    assert np.array_equal(again.parts[1].batch.masks, env.parts[1].batch.masks)
    from boardsim.games.farrapos import layout as L

    saved["env1_states"][0, L.MODE] = 40
    with pytest.raises(StateFormatError, match=r"env1_states: .*row 0 refused: MODE = 40"):
        again.restore(saved)


# ---------------------------------------------------------------- real states are all accepted
@pytest.mark.parametrize(("name", "options"), configs(), ids=lambda x: str(x))
def test_every_state_of_random_games_is_accepted(name: str, options: dict) -> None:
    """A refused state of real play is a validator bug: every state of random games of every
    game, variant and scenario (chance nodes too, where explicit) is accepted."""
    game = make(name, json.dumps(options, sort_keys=True))
    rng = np.random.default_rng(7)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        while True:
            game.check_array(state.array.copy())
            checked += 1
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                probs = np.array([p for _, p in outcomes])
                state.apply_action(outcomes[int(rng.choice(len(outcomes), p=probs))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked > 6


@pytest.mark.parametrize("name", ["farrapos", "hispania"])
def test_every_state_of_the_golden_traces_is_accepted(name: str) -> None:
    golden = json.loads(
        (Path(__file__).parents[1] / name / "golden_trace.json").read_text(encoding="utf-8")
    )
    game = boardsim.make_game(name, **golden["options"])
    state = game.new_initial_state(golden["seed"])
    for action in golden["actions"]:
        boardsim.State(game, state.array.copy())
        state.apply_action(action)
    boardsim.State(game, state.array.copy())
    assert state.is_terminal()


# ---------------------------------------------------------------- forged states
@pytest.mark.subprocess
def test_forged_states_never_crash_and_accepted_ones_play_out() -> None:
    """The fuzz of ``scripts/fuzz_states.py`` at CI size: 1500 forged saves, in a child
    process (a segfault counts as a crash): none but refusals and clean play-outs."""
    summary = fuzz(1500, seed=15, timeout=120.0)
    assert summary["tries"] == 1500
    assert summary["errors"] == summary["crashes"] == summary["hangs"] == 0, summary["failures"]
    assert summary["refused"] + summary["played"] == 1500
    assert summary["played"] > 50 and summary["refused"] > 500


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    which=st.integers(0, 10_000),
    seed=st.integers(0, 2**31 - 1),
    depth=st.integers(0, 400),
    changes=st.lists(
        st.tuples(
            st.integers(0, 10_000),
            st.one_of(
                st.integers(-3, 64),
                st.sampled_from([-(2**31), 2**31 - 1, 100, 255, 1000]),
                st.integers(-(2**31), 2**31 - 1),
            ),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_any_forged_save_is_refused_or_plays_out(
    which: int, seed: int, depth: int, changes: list[tuple[int, int]]
) -> None:
    table = configs()
    name, options = table[which % len(table)]
    game = make(name, json.dumps(options, sort_keys=True))
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    for _ in range(depth):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    a = state.array.copy()
    for word, value in changes:
        a[word % a.size] = value
    data = resave(state.to_bytes(), a)
    assert zlib.crc32(data[8:-4]) == struct.unpack("<I", data[-4:])[0]
    try:
        loaded = game.state_from_bytes(data)
    except StateFormatError:
        with pytest.raises(StateFormatError):
            boardsim.State(game, a.copy())
        return
    read_everything(loaded)
    play_out(loaded, rng)
