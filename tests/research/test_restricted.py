"""Restricted play (Jaffe et al. 2012): an agent forbidden a mechanic, each mechanic's weight
in win points, and the greedy-against-search gap, on games whose answers are known."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

import boardsim
from boardsim.agents import load
from boardsim.agents.restricted import RestrictedAgent, family_mask
from boardsim.cli import main
from boardsim.core.errors import OptionError
from boardsim.core.game import Game
from boardsim.games import definition
from boardsim.research.restricted import advantage, greedy_search_gap, mechanic_weights

PLUGIN = Path(__file__).resolve().parents[2] / "benchmarks" / "connect_four"


@pytest.fixture(scope="module")
def connect_four() -> Game:
    """The connect-four plugin: its families are the centre column, the two beside it and
    the four outer ones."""
    if str(PLUGIN) not in sys.path:
        sys.path.insert(0, str(PLUGIN))
    from boardsim_connect_four import DEFINITION

    return Game(DEFINITION)


def test_forbidding_every_action_forbids_nothing_so_it_weighs_exactly_zero(
    connect_four: Game,
) -> None:
    # Jaffe's rule: where every legal action is forbidden the agent plays as usual, so an
    # agent forbidden every column plays the very games of the unrestricted one
    every = "restricted:centre+beside_centre+outer:random"
    result = advantage(connect_four, "random", every, 40, seed=1, name="every column")
    assert result.score_against == result.score_self
    assert (result.advantage, result.low, result.high) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:20"])
def test_a_restricted_agent_never_takes_a_forbidden_move_while_another_is_legal(
    connect_four: Game, spec: str
) -> None:
    agent = load(f"restricted:centre+beside_centre:{spec}", connect_four, seed=2)
    forbidden = family_mask(connect_four, ["centre", "beside_centre"])
    assert np.flatnonzero(forbidden).tolist() == [2, 3, 4]
    choices = 0  # decisions where a forbidden column and an allowed one were both open
    for seed in range(6):
        state = connect_four.new_initial_state(seed)
        while not state.is_terminal():
            mask = state.legal_actions_mask().astype(bool)
            a = agent.act(state.observation(state.current_player()), mask, state=state)
            assert mask[a]
            if (mask & ~forbidden).any():
                assert not forbidden[a]  # an outer column was open: it played one
            choices += bool((mask & forbidden).any() and (mask & ~forbidden).any())
            state.apply_action(a)
    assert agent.restricted_decisions == choices > 20
    # with the outer columns full, only the forbidden ones are legal: it plays them
    state = connect_four.new_initial_state(0)
    for column in [0] * 6 + [1] * 6 + [5] * 6 + [6] * 6:  # each column's colours alternate
        state.apply_action(column)
    mask = state.legal_actions_mask().astype(bool)
    assert np.flatnonzero(mask).tolist() == [2, 3, 4]
    assert agent.act(state.observation(state.current_player()), mask, state=state) in (2, 3, 4)


def test_the_race_s_restricted_random_player_never_jumps_while_it_may_do_otherwise() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    agent = load("restricted:jump+counter:random", game, seed=0)
    forbidden = family_mask(game, ["jump", "counter"])
    rng = np.random.default_rng(0)
    restricted = 0
    for seed in range(4):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            mask = state.legal_actions_mask().astype(bool)
            if state.current_player() == 0:
                a = agent.act(state.observation(0), mask)
                if (mask & forbidden).any() and (mask & ~forbidden).any():
                    assert not forbidden[a]
                    restricted += 1
            else:
                a = int(rng.choice(np.flatnonzero(mask)))
            state.apply_action(a)
    assert restricted > 0


def test_the_centre_column_weighs_much_and_search_beats_a_one_move_lookahead(
    connect_four: Game,
) -> None:
    # connect four turns on the centre (the only winning first move, Allis 1988): a searcher
    # forbidden it loses many points to the same searcher free to take it
    centre, outer = mechanic_weights(
        connect_four, "mcts:50", 100, seed=3, families=["centre", "outer"]
    )
    assert centre.name == "centre" and centre.low > 0.1
    assert outer.name == "outer" and outer.advantage < centre.advantage
    # connect four is strategic: a search beats the greedy one-move lookahead
    gap = greedy_search_gap(connect_four, "mcts:50", 100, seed=5)
    assert gap.opponent == "greedy" and gap.low > 0.2
    assert 0.0 <= gap.score_self <= 1.0 and gap.score_against > gap.score_self


def test_a_measure_against_a_python_agent_plays_both_its_tables_in_python_on_shared_deals(
    connect_four: Game,
) -> None:
    # "copy" is the random agent made in Python (no compiled seat plays it): the agent's table
    # against itself must then be played in Python too, on the same deals and agent seeds,
    # so that the two tables are identical game by game and the difference is exactly 0
    def make(spec: str, game: Game, seed: int) -> object:
        return load("random" if spec == "copy" else spec, game, seed=seed)

    result = advantage(connect_four, "random", "copy", 40, seed=4, make=make)
    assert result.score_against == result.score_self
    assert (result.advantage, result.low, result.high) == (0.0, 0.0, 0.0)
    # the same in a family's measure: its self table is played where its opponents play
    with pytest.raises(ValueError, match="give compiled with itself"):
        advantage(connect_four, "random", "copy", 4, itself=np.zeros(4))
    with pytest.raises(OptionError, match="cannot play in compiled code"):
        advantage(connect_four, "random", "greedy", 4, compiled=True)


def test_restricted_play_refuses_what_it_cannot_do_with_a_clear_error(
    connect_four: Game,
) -> None:
    with pytest.raises(OptionError, match="no action family 'middle'; its families: centre"):
        load("restricted:middle:random", connect_four)
    with pytest.raises(OptionError, match="heuristic cannot be restricted"):
        load("restricted:centre:heuristic", connect_four)
    with pytest.raises(OptionError, match="restricted:FAMILY"):
        load("restricted:centre", connect_four)
    nameless = Game(dataclasses.replace(definition("farrapos"), action_families={}))
    with pytest.raises(OptionError, match="declares no action families"):
        load("restricted:move:random", nameless)
    with pytest.raises(OptionError, match="declares no action families"):
        mechanic_weights(nameless, "random", 4)
    with pytest.raises(OptionError, match="at least 2"):
        advantage(connect_four, "random", "greedy", 1)
    assert isinstance(load("restricted:outer:greedy", connect_four), RestrictedAgent)


def test_the_command_prints_each_mechanic_s_weight_and_the_gap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "weights.md"
    argv = ["balance", "restricted", "liberation", "--agent", "random", "--families"]
    argv += ["jump,tuck", "--gap", "mcts:4", "--games", "6", "--seed", "2", "--out", str(out)]
    assert main([*argv, "--option", "num_players=2", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "| jump | `restricted:jump:random` | 6 |" in text
    assert "| tuck |" in text and "| greedy-against-search gap | `greedy` | 6 |" in text
    assert out.read_text() == text
    assert main(["balance", "restricted", "liberation", "--families", "nope", "--games", "4"]) == 2
    assert "no action family 'nope'" in capsys.readouterr().err


def test_in_hispania_a_mechanic_s_weight_is_what_the_side_loses_without_it() -> None:
    from boardsim.research.restricted import restricted_report

    game = boardsim.make_game("hispania", level="7-5-4-5-1")
    assert game.is_cooperative() and "garrison" in game.definition.action_families
    # random Romans lose every game, restricted or not: the side loses nothing, exactly
    (row,) = mechanic_weights(game, "random", 6, seed=1, families=["garrison"])
    assert (row.score_self, row.score_against, row.advantage) == (0.0, 0.0, 0.0)
    text = restricted_report(game, "random", [row], 1)
    assert "the side's win rate with `random` in every seat" in text
    assert "| garrison | `restricted:garrison:random` | 6 | 0.000 | 0.000 | +0.000" in text
