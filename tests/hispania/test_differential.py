"""The compiled core against the plain-Python reference, word by word, over random games."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardsim
from boardsim.core.reference import ReferenceEngine
from boardsim.games.hispania import layout as hl
from boardsim.games.hispania import reference

GAMES_PER_SET = 150  # whole games per option set (a count, never a time budget)


def compare_game(game: boardsim.Game, seed: int, max_steps: int = 5000) -> int:
    ref = ReferenceEngine(reference, hl.STATE_SIZE, game.params)
    st = game.new_initial_state(seed)
    rs = ref.new_game(seed)
    assert list(st.array) == rs, f"seed {seed}: initial states differ"
    rng = random.Random(seed)
    steps = 0
    while not st.is_terminal() and steps < max_steps:
        if st.is_chance_node():
            outs = [o for o, _ in st.chance_outcomes()]
            ro, rw = reference.chance_weights(rs, ref.params)
            assert outs == ro and all(w == 1 for w in rw)
            a = rng.choice(outs)
        else:
            legal = st.legal_actions()
            assert legal == ref.legal_actions(rs), f"seed {seed} step {steps}: masks differ"
            a = rng.choice(legal)
        st.apply_action(a)
        rewards = ref.step(rs, a)
        if list(st.array) != rs:
            diff = [i for i in range(len(rs)) if rs[i] != st.array[i]]
            raise AssertionError(f"seed {seed} step {steps} action {a}: words {diff} differ")
        assert np.allclose(st.last_rewards[: len(rewards)], rewards)
        steps += 1
    assert ref.is_terminal(rs) == st.is_terminal()
    return steps


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"auto_setup": True, "level": "7-5-4-5-1"},
        {"level": "5-3-2-3-3"},
        {"explicit_chance": True, "level": "6-5-4-3-1"},
        {"ingenivm": True, "pirates": True, "level": "6-4-2-5-2"},
        {"imperivm": True, "proconsvl": True, "legio_hispana": True, "level": "7-4-3-4-2"},
        {"terror": True, "traitors": True, "pirates": True, "level": "6-4-3-4-3"},
        {"hispano": True, "terror": True, "traitors": True, "level": "6-4-3-4-2"},
        {"reward": "progress", "hispano": True, "level": "6-4-3-4-2"},
        {"combat_ties": "attacker", "level": "7-5-4-5-1", "auto_setup": True},
        {"hispanic_revolts": "city", "pirates": True, "hispano": True, "level": "6-4-3-4-2"},
        {"beaten_army": "revolt_removed", "terror": True, "level": "7-5-4-5-1"},
        {"beaten_garrison": "lost", "legio_hispana": True, "level": "7-5-4-5-1"},
        {"assassination": "while_in_game", "terror": True, "traitors": True, "level": "7-5-4-5-1"},
        {"hispano_attacks": "any_step", "hispano": True, "terror": True, "level": "6-4-3-4-2"},
        {
            "scenario": "first_repression",
            "display_of_power": "named_only",
            "hispano": True,
            "level": "6-4-3-4-2",
        },
    ],
    ids=[
        "medium",
        "easy-auto",
        "hard",
        "explicit",
        "variants1",
        "variants2",
        "variants3",
        "hispano",
        "progress-reward",
        "ties-attacker",
        "revolts-city",
        "beaten-army",
        "beaten-garrison",
        "assassination-while-in-game",
        "hispano-attacks-any-step",
        "display-named-only",
    ],
)
@pytest.mark.slow
def test_core_equals_reference(options: dict) -> None:
    game = boardsim.make_game("hispania", **options)
    for seed in range(GAMES_PER_SET):
        compare_game(game, seed)


def test_reference_roman_biased_games_match() -> None:
    """Games that reach garrisons, sieges and attacks (random play rarely does)."""
    game = boardsim.make_game("hispania", level="7-5-4-5-1", auto_setup=True)
    for seed in range(40):
        ref = ReferenceEngine(reference, hl.STATE_SIZE, game.params)
        st = game.new_initial_state(seed)
        rs = ref.new_game(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            assert legal == ref.legal_actions(rs)
            good = [a for a in legal if a == hl.A_GARRISON or hl.A_BESIEGE <= a < hl.A_CANCEL]
            moves = [a for a in legal if hl.A_SPACE <= a < hl.A_GARRISON]
            if good and rng.random() < 0.85:
                a = rng.choice(good)
            elif moves and rng.random() < 0.8:
                a = rng.choice(moves)
            else:
                a = rng.choice(legal)
            st.apply_action(a)
            ref.step(rs, a)
            assert list(st.array) == rs, f"seed {seed}"


def test_reference_variant_biased_games_match() -> None:
    """Every variant on, a policy that prefers the variants' actions and combats."""
    game = boardsim.make_game(
        "hispania",
        level="7-4-3-4-2",
        imperivm=True,
        proconsvl=True,
        legio_hispana=True,
        terror=True,
        traitors=True,
        pirates=True,
        ingenivm=True,
    )
    hisp = boardsim.make_game(
        "hispania", level="6-4-3-4-2", hispano=True, proconsvl=True, terror=True, legio_hispana=True
    )
    _biased_compare(game, range(40))
    _biased_compare(hisp, range(40))


@pytest.mark.parametrize(
    "readings",
    [
        {"combat_ties": "attacker"},
        {"hispanic_revolts": "city"},
        {"beaten_army": "revolt_removed"},
        {"beaten_garrison": "lost"},
        {"combat_ties": "attacker", "hispanic_revolts": "city", "beaten_army": "revolt_removed"},
        {"assassination": "while_in_game"},
        {"hispano_attacks": "any_step"},
        {
            "combat_ties": "attacker",
            "assassination": "while_in_game",
            "hispano_attacks": "any_step",
        },
    ],
    ids=[
        "ties-attacker",
        "revolts-city",
        "beaten-army",
        "beaten-garrison",
        "all",
        "assassination",
        "attacks",
        "variants",
    ],
)
def test_reference_readings_biased_games_match(readings: dict) -> None:
    """The open readings (ledger rows 10, 11, 19, V9, V17) in games full of combats: sieges
    and attacks preferred, the assassination, the Hispano player's attacks, pirates joining
    revolt groups. The Roman game plays all but hispano_attacks (Hispano's), the Hispano
    game all but assassination (its game has no traitors rule)."""
    roman = {k: v for k, v in readings.items() if k != "hispano_attacks"}
    hispano = {k: v for k, v in readings.items() if k != "assassination"}
    traitors = {"traitors": True} if "assassination" in readings else {}
    game = boardsim.make_game(
        "hispania",
        level="7-5-4-5-1",
        auto_setup=True,
        pirates=True,
        terror=True,
        **traitors,
        **roman,
    )
    hisp = boardsim.make_game("hispania", level="6-4-3-4-2", hispano=True, pirates=True, **hispano)
    _biased_compare(game, range(30))
    _biased_compare(hisp, range(30))


def _biased_compare(game: boardsim.Game, seeds: range) -> None:
    for seed in seeds:
        ref = ReferenceEngine(reference, hl.STATE_SIZE, game.params)
        st = game.new_initial_state(seed)
        rs = ref.new_game(seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            assert legal == ref.legal_actions(rs), f"seed {seed}"
            pref = [
                a
                for a in legal
                if a >= hl.A_SELECT or a == hl.A_GARRISON or hl.A_BESIEGE <= a < hl.A_CANCEL
            ]
            if hl.A_SPEND + 2 in legal:
                pref = [hl.A_SPEND + 2]
            a = rng.choice(pref) if pref and rng.random() < 0.7 else rng.choice(legal)
            st.apply_action(a)
            ref.step(rs, a)
            assert list(st.array) == rs, f"seed {seed}"


@pytest.mark.parametrize("reading", ["bare_die", "named_only"])
def test_reference_display_of_power_biased_games_match(reading: str) -> None:
    """The First Repression's Display of Power (ledger S5) both ways, in games full of
    combats in the consul's first turn, the Hispano player's attacks included."""
    game = boardsim.make_game(
        "hispania",
        scenario="first_repression",
        display_of_power=reading,
        hispano=True,
        level="6-4-3-4-2",
    )
    _biased_compare(game, range(30))
