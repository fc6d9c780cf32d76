"""Pictures of every game: SVG, rgb_array, ansi; hidden hands stay hidden; env render modes."""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET

import gymnasium as gym
import numpy as np
import pytest

import boardsim
from boardsim import render

GAMES = ["liberation", "farrapos", "hispania"]
SVG = "{http://www.w3.org/2000/svg}"


def played(game: boardsim.Game, moves: int, seed: int = 1) -> boardsim.State:
    """A position after up to ``moves`` random legal moves."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> boardsim.Game:
    options = {"num_players": 3} if request.param == "liberation" else {}
    return boardsim.make_game(request.param, **options)


def test_rgb_array_is_an_image_that_follows_the_board(game: boardsim.Game) -> None:
    start = game.new_initial_state(1)
    later = played(game, 40)
    a = render.to_rgb_array(game, start)
    b = render.to_rgb_array(game, later)
    assert a.dtype == np.uint8 and a.ndim == 3 and a.shape[2] == 3
    assert a.shape == b.shape and a.shape[0] > 300 and a.shape[1] > 600
    assert not np.array_equal(a, b)  # the board moved, the picture too
    assert np.array_equal(
        render.to_rgb_array(game, later.clone()), b
    )  # same position, same picture
    half = render.to_rgb_array(game, later, scale=0.5)
    assert abs(half.shape[0] - a.shape[0] / 2) <= 1


def test_svg_parses_as_xml_with_board_and_pieces(game: boardsim.Game) -> None:
    state = played(game, 25)
    svg = render.to_svg(game, state)
    assert isinstance(svg, str) and svg._repr_svg_() == svg  # notebooks show it as a picture
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    groups = {g.get("id"): g for g in root.iter(f"{SVG}g")}
    assert len(groups["board"]) > 40  # spaces, links, labels
    assert len(groups["pieces"]) > 5  # pieces, scores, whose turn
    turn = [e for e in root.iter() if e.get("data-kind") == "turn"]
    assert turn, "whose turn is shown"


def test_svg_draws_the_links_and_where_pieces_are() -> None:
    game = boardsim.make_game("farrapos")
    state = game.new_initial_state(0)
    root = ET.fromstring(render.to_svg(game, state))
    # the paths (a label's leader line, thinner, is not one)
    lines = [e for e in root.iter(f"{SVG}polyline") if float(e.get("stroke-width", 1)) > 1.0]
    assert len(lines) == len(boardsim.games.farrapos.data.DATA.raw["path"])
    units = [e for e in root.iter() if e.get("data-kind") == "unit"]
    from boardsim.games.farrapos import data as D
    from boardsim.games.farrapos import layout as L

    on_board = sorted(str(D.PIECE_IDS[u]) for u in range(L.P) if state.array[L.LOC + u] >= 0)
    drawn = sorted(u for e in units for u in e.get("data-units").split())
    assert drawn == on_board  # every unit on the board, in one chip of its city, once


def test_hispania_draws_link_segments_and_roads() -> None:
    from boardsim.games.hispania import data as D
    from boardsim.games.hispania import layout as L

    game = boardsim.make_game("hispania", auto_setup=True)
    state = game.new_initial_state(2)
    root = ET.fromstring(render.to_svg(game, state))
    board = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "board")
    marks = sum(int(s) - 1 for s in D.LINK_SEGMENTS)
    dots = [c for c in board.iter(f"{SVG}circle") if c.get("r") == "2.6"]
    assert len(dots) == marks
    roads = [e for e in root.iter() if e.get("data-kind") == "road"]
    assert len(roads) == int(state.array[L.ROADS : L.ROADS + D.NUM_LINKS].sum())


def _cards(svg: str) -> dict[str, list[str]]:
    """The cards drawn, by player: ``{"0": ["Leader 6", ...]}``."""
    out: dict[str, list[str]] = {}
    for e in ET.fromstring(svg).iter():
        if e.get("data-kind") == "card":
            out.setdefault(e.get("data-player", "?"), []).append(e.get("data-card", "?"))
    return out


def test_liberation_hands_are_drawn_only_for_their_owner() -> None:
    from boardsim.games.liberation import layout as L
    from boardsim.games.liberation.names import card_name

    game = boardsim.make_game("liberation", num_players=3)
    state = played(game, 10)
    hand0 = sorted(card_name(k) for k in range(L.K) for _ in range(int(state.array[L.HAND + k])))
    assert hand0
    assert {p: sorted(c) for p, c in _cards(render.to_svg(game, state, viewer=0)).items()} == {
        "0": hand0
    }
    assert set(_cards(render.to_svg(game, state, viewer=1))) == {"1"}
    assert _cards(render.to_svg(game, state)) == {}
    everyone = render.to_svg(game, state, show_hands=True)
    assert set(_cards(everyone)) == {"0", "1", "2"} and "all hands shown" in everyone
    assert not np.array_equal(
        render.to_rgb_array(game, state, viewer=0), render.to_rgb_array(game, state)
    )


def test_ansi_is_the_text_board_and_bad_input_is_refused() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    state = game.new_initial_state(0)
    assert render.to_text(game, state) == str(state)
    with pytest.raises(ValueError, match="viewer 5 out of range"):
        render.to_svg(game, state, viewer=5)
    with pytest.raises(ValueError, match="words"):
        render.to_svg(game, np.zeros(3, np.int32))


def test_a_game_without_a_drawer_is_drawn_as_its_text(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    game = boardsim.make_game("liberation", num_players=2)
    monkeypatch.setattr(game, "definition", dataclasses.replace(game.definition, drawer=None))
    state = game.new_initial_state(0)
    assert str(state).splitlines()[0] in render.to_svg(game, state)
    assert render.to_rgb_array(game, state).dtype == np.uint8


# ------------------------------------------------------------------ the envs
def test_pettingzoo_render_modes() -> None:
    from pettingzoo.test import api_test, render_test

    env = boardsim.make_env("liberation", num_players=2)
    assert set(env.metadata["render_modes"]) == {"ansi", "human", "rgb_array"}
    render_test(
        lambda render_mode=None: boardsim.make_env(
            "liberation", num_players=2, max_decisions=30, render_mode=render_mode
        )
    )
    api_test(boardsim.make_env("farrapos", render_mode="rgb_array"), num_cycles=60)
    with pytest.raises(ValueError, match="render_mode"):
        boardsim.make_env("liberation", render_mode="video")


def test_pettingzoo_rgb_array_is_the_public_view() -> None:
    env = boardsim.make_env("liberation", num_players=3, render_mode="rgb_array")
    env.reset(seed=4)
    frame = env.render()
    assert np.array_equal(frame, render.to_rgb_array(env.game, env.state_, viewer=None))
    assert not np.array_equal(frame, render.to_rgb_array(env.game, env.state_, viewer=0))


def test_gymnasium_render_modes_pass_the_env_checker() -> None:
    from gymnasium.utils.env_checker import check_env

    for mode in ("rgb_array", "ansi"):
        env = gym.make(
            "boardsim/Liberation-v0",
            num_players=2,
            illegal_action="terminate",
            render_mode=mode,
        )
        assert mode in env.metadata["render_modes"]
        check_env(env.unwrapped)
    env = boardsim.make_gym_env("liberation", num_players=3, seat=1, render_mode="rgb_array")
    env.reset(seed=2)
    frame = env.render()
    assert np.array_equal(frame, render.to_rgb_array(env.game, env.state_, viewer=1))


def test_vector_env_renders_one_frame_per_env() -> None:
    venv = boardsim.make_vec_env("liberation", num_envs=3, num_players=2, render_mode="rgb_array")
    assert "rgb_array" in venv.metadata["render_modes"]
    venv.reset(seed=5)
    frames = venv.render()
    assert len(frames) == 3
    for row, frame in zip(venv.batch.states, frames, strict=True):
        assert np.array_equal(frame, render.to_rgb_array(venv.game, row, viewer=0))
    texts = gym.make_vec(
        "boardsim/Liberation-v0",
        num_envs=2,
        vectorization_mode="vector_entry_point",
        num_players=2,
        render_mode="ansi",
    )
    texts.reset(seed=1)
    assert all(t.startswith("turn 1") for t in texts.render())
    with pytest.raises(boardsim.OptionError, match="render_mode"):
        boardsim.make_vec_env("liberation", num_envs=2, render_mode="human")


@pytest.mark.parametrize("name", GAMES)
def test_chance_text_says_a_roll_to_everyone_and_a_card_to_its_taker(name: str) -> None:
    options = {"num_players": 2} if name == "liberation" else {}
    game = boardsim.make_game(name, explicit_chance=True, **options)
    rng = np.random.default_rng(3)
    seen: list[str] = []
    for seed in range(3):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and len(seen) < 40:
            if state.is_chance_node():
                outcome = state.legal_actions()[0]
                words = [render.chance_text(game, state, outcome, p) for p in (0, 1)]
                assert all(words), "every outcome is told, at least as 'a card'"
                seen.extend(words)
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert any("rolled" in w or "die" in w for w in seen)
    if name == "liberation":
        from boardsim.games.liberation import layout as L
        from boardsim.games.liberation.names import card_name

        drawn = [w for w in seen if w.startswith("you drew ")]
        hidden = [w for w in seen if w.endswith(" a card")]
        assert drawn and hidden  # the taker sees the card, the other player does not
        assert all(w.removeprefix("you drew ") in map(card_name, range(L.K)) for w in drawn)


@pytest.mark.parametrize("name", ["liberation", "hispania", "farrapos"])
def test_every_board_has_a_legend(name: str) -> None:
    """Each picture explains its marks (issue 38: the race's had no legend for R, the
    numbers, ×N and the pawn dots)."""
    game = boardsim.make_game(name)
    svg = html.unescape(str(render.to_svg(game, game.new_initial_state(seed=1))))
    words = {
        "liberation": ("R: revolution space", "the track's spaces", "×N", "pawns"),
        "hispania": ("red disc: revolts",),
        "farrapos": ("I infantry",),
    }[name]
    for w in words:
        assert w in svg, w
