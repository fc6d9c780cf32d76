"""Untrusted states: the checks between a user's array (or saved bytes) and the kernels.

The compiled kernels index arrays with the words of a state and trust them; a state
from outside (``State(game, array)``, ``Game.state_from_bytes``, a batch adopting
arrays, a checkpoint) is checked here first, and refused with a
:class:`~boardsim.core.errors.StateFormatError` naming the field and the value:

1. its form: a C-contiguous, writable, one-dimensional ``int32`` numpy array of the
   game's ``state_size`` words;
2. its game: word ``H_GAME`` holds the tag of the game that made it (:func:`game_tag`:
   the game's name and version), stamped by ``new_game``. A state saved before tags
   existed holds 0 there: it is accepted when everything else holds, and stamped;
3. its contents: ``engine.validate_state`` (compiled), the header, then the game's own
   ``validate`` kernel (``games/<game>/validate.py``: every field in its range and
   coherent with the others and with the options), then a legal action (or chance
   outcomes) for a live state.

The game's messages come with its kernels (``GameKernels.state_errors``, the
``STATE_ERRORS`` of its validate module): templates of ``{index}`` and ``{value}``.

States the library builds itself (``new_initial_state``, ``clone``, the wrappers, the
batch) are not checked again: they come from the kernels.
"""

from __future__ import annotations

import zlib
from typing import Any, Protocol

import numpy as np

from boardsim.core import header as hd
from boardsim.core.errors import StateFormatError

__all__ = ["HEADER_ERRORS", "check_array", "check_contents", "describe", "game_tag", "register_tag"]

UNTAGGED = 0  # H_GAME of a state made before game tags

HEADER_ERRORS: dict[int, str] = {
    hd.V_RNG_STUCK: "the random generator's words (0, 1) are both 0: it would never change",
    hd.V_FLAGS: "FLAGS (word 3) = {value}: only 1 (terminal) and 2 (truncated) exist",
    hd.V_TRUNCATED_LIVE: "FLAGS (word 3) = {value}: truncated but not terminal",
    hd.V_TERMINAL_ACTOR: "ACTOR (word 2) = {value}: the terminal flag and TERMINAL (-4) go "
    "together",
    hd.V_ACTOR: "ACTOR (word 2) = {value}: not a player of this game, CHANCE (-1) or TERMINAL (-4)",
    hd.V_IMPLICIT_CHANCE: "ACTOR (word 2) = CHANCE, but this game resolves chance itself "
    "(explicit_chance=False)",
    hd.V_DECISIONS: f"DECISIONS (word 4) = {{value}}: not 0..{hd.MAX_DECISIONS}",
    hd.V_RESERVED: "word 7 = {value}: reserved, always 0",
    hd.V_NO_LEGAL_ACTION: "player {value} is to move but has no legal action",
    hd.V_NO_OUTCOME: "a chance node with {value} outcomes",
    hd.V_OUTCOME_WEIGHT: "chance outcome {index} has weight {value}",
    hd.V_OUTCOME_RANGE: "chance outcome #{index} is {value}, not an action number",
}


class CheckedGame(Protocol):
    """What the checks read of a game: :class:`boardsim.core.game.Game` has it all. A
    protocol rather than that class, since ``core/game.py`` calls these checks: the arrow
    goes one way, from the game to its checks."""

    @property
    def name(self) -> str: ...

    @property
    def tag(self) -> int: ...

    @property
    def state_size(self) -> int: ...

    @property
    def params(self) -> np.ndarray: ...

    @property
    def kernels(self) -> Any: ...  # its GameKernels: state_errors, the game's messages

    @property
    def engine(self) -> Any: ...  # its BoundEngine: validate_state, compiled


def game_tag(name: str, version: int) -> int:
    """The word stamped into ``H_GAME`` of every state of game ``name`` at ``version``:
    23 bits of the name's CRC-32 then 8 bits of the version, positive and never 0."""
    high = (zlib.crc32(name.encode()) & 0x7FFFFF) or 1
    return (high << 8) | (int(version) & 0xFF)


_KNOWN: dict[int, tuple[str, int]] = {}  # the tags of the games made in this process


def register_tag(name: str, version: int) -> int:
    """The tag of game ``name`` at ``version``, remembered to name it in messages."""
    tag = game_tag(name, version)
    _KNOWN[tag] = (name, int(version))
    return tag


def _tag_owner(tag: int) -> str:
    """Words for the game whose states carry ``tag`` (among the games made here)."""
    if tag in _KNOWN:
        name, version = _KNOWN[tag]
        return f"a {name} state (version {version})"
    for known, (name, version) in _KNOWN.items():
        if known >> 8 == tag >> 8:
            return f"a {name} state of version {tag & 0xFF}, not {version}"
    return "the tag of no game made here"


def describe(game: CheckedGame, code: int, where: np.ndarray) -> str:
    """The message of check ``code`` that failed at ``where`` (index, value)."""
    table = HEADER_ERRORS if code < 0 else game.kernels.state_errors
    template = table.get(code, "check {code} failed at {index} (value {value})")
    return template.format(code=code, index=int(where[0]), value=int(where[1]))


def _form_error(game: CheckedGame, array: object) -> str | None:
    """Why ``array`` cannot be a state of ``game`` by its type, dtype, shape or memory."""
    size = game.state_size
    fix = f"np.ascontiguousarray(a, dtype=np.int32) of shape ({size},)"
    if not isinstance(array, np.ndarray):
        return f"a state is a numpy int32 array, not {type(array).__name__} (use {fix})"
    if array.dtype != np.int32:
        return f"a state is an int32 array, not {array.dtype} (use {fix})"
    if array.ndim != 1 or array.shape[0] != size:
        return f"a {game.name} state has shape ({size},), not {array.shape}"
    if not array.flags.c_contiguous:
        return f"the array is not contiguous (use {fix})"
    if not array.flags.writeable:
        return "the array is read-only (a state is updated in place; pass a copy)"
    return None


def check_contents(game: CheckedGame, array: np.ndarray) -> str | None:
    """Why the words of ``array`` (of the right form) are not a state of ``game``, else None."""
    tag = int(array[hd.H_GAME])
    if tag not in (UNTAGGED, game.tag):
        return f"H_GAME (word {hd.H_GAME}) = {tag}: {_tag_owner(tag)}, not {game.name}"
    where = np.zeros(2, np.int64)
    code = int(game.engine.validate_state(array, game.params, where))
    if code != 0:
        return describe(game, code, where)
    return None


def check_array(game: CheckedGame, array: object, what: str = "state") -> np.ndarray:
    """``array`` itself if it is a state of ``game`` the kernels handle safely (an
    untagged one, saved before tags, is stamped with the game's tag); otherwise
    :class:`StateFormatError` saying what is wrong (``what`` names it: "state", "row 3")."""
    reason = _form_error(game, array)
    if reason is None:
        assert isinstance(array, np.ndarray)
        reason = check_contents(game, array)
    if reason is not None:
        raise StateFormatError(f"{game.name}: {what} refused: {reason}")
    assert isinstance(array, np.ndarray)
    array[hd.H_GAME] = game.tag
    return array
