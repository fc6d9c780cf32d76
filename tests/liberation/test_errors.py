"""Bad input gets a clear error, never a silent wrong state."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardsim
from boardsim.games.liberation import data as D


@pytest.mark.parametrize("n", [1, 9, 0, -2])
def test_player_count_outside_2_to_6_is_refused(n: int) -> None:
    with pytest.raises(boardsim.OptionError, match=r"num_players=.* out of range \[2, 6\]"):
        boardsim.make_game("liberation", num_players=n)


def test_unknown_option_and_bad_choice_are_refused() -> None:
    with pytest.raises(boardsim.OptionError, match=r"unknown option.*colour"):
        boardsim.make_game("liberation", colour="red")
    with pytest.raises(boardsim.OptionError, match="'stay', 'return'"):
        boardsim.make_game("liberation", independence_counters="keep")
    with pytest.raises(boardsim.OptionError, match="unknown game 'chess'"):
        boardsim.make_game("chess")


def test_errors_are_value_errors() -> None:
    for cls in (boardsim.IllegalActionError, boardsim.OptionError, boardsim.DataError):
        assert issubclass(cls, ValueError)


def test_illegal_action_on_state_names_it_and_the_legal_ones() -> None:
    st = boardsim.make_game("liberation", num_players=2).new_initial_state(0)
    with pytest.raises(boardsim.IllegalActionError) as err:
        st.apply_action(9999)
    assert "9999 (out of range)" in str(err.value) and "0 (roll the die and move)" in str(err.value)
    assert err.value.legal == st.legal_actions()


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (("spaces = 41", "spaces = 40"), "37-41 do not make length 5"),
        (("first = 6\nlast = 10\nlength = 5", "first = 6\nlast = 10\nlength = 4"), "length 4"),
        (
            (
                "count = 8\nforce = { 5 = 3, 6 = 3, 7 = 2 }",
                "count = 9\nforce = { 5 = 3, 6 = 3, 7 = 2 }",
            ),
            "count says 9",
        ),
        (("force = { 8 = 1 }", "force = { 9 = 1 }"), "force 9 outside"),
        (("total = 80", "total = 81"), "hold 80 cards"),
        (("[scoring]", "[scoringx]"), "missing field 'scoring'"),
        (("hand_limit = 5", 'hand_limit = "five"'), "hand_limit"),
        (("[track]", "[track"), "syntax"),
    ],
)
def test_malformed_data_file_names_file_entry_and_reason(
    tmp_path: Path, edit: tuple[str, str], match: str
) -> None:
    text = Path(D.data_path("liberation", D.FILE)).read_text()
    assert edit[0] in text
    bad = tmp_path / "liberation.toml"
    bad.write_text(text.replace(edit[0], edit[1], 1))
    with pytest.raises(boardsim.DataError, match=match) as err:
        D.load(bad)
    assert str(bad) in str(err.value)


def test_missing_data_file() -> None:
    with pytest.raises(boardsim.DataError, match="not found"):
        D.load("/nonexistent/liberation.toml")


def test_corrupted_truncated_or_foreign_saved_state_is_refused() -> None:
    game = boardsim.make_game("liberation", num_players=2)
    data = game.new_initial_state(0).to_bytes()
    with pytest.raises(boardsim.StateFormatError, match="magic"):
        game.state_from_bytes(b"hello world, not a state")
    with pytest.raises(boardsim.StateFormatError, match="truncated or corrupted"):
        game.state_from_bytes(data[:-10])
    flipped = bytearray(data)
    flipped[40] ^= 0xFF
    with pytest.raises(boardsim.StateFormatError, match="corrupted"):
        game.state_from_bytes(bytes(flipped))
    other = boardsim.make_game("liberation", num_players=3)
    with pytest.raises(boardsim.StateFormatError, match="options"):
        other.state_from_bytes(data)
    with pytest.raises(boardsim.StateFormatError, match="bytes"):
        game.state_from_bytes("text")  # type: ignore[arg-type]
