"""Replays: a game saved as JSON Lines, one header line then one action a line.

The header names the game and its version, the options, the seed, the
boardsim version and this format's version; every further line is one action
``{"n": 1, "player": 0, "action": 12, "name": "roll the die and move"}``. The
seed reproduces every die and draw, so chance outcomes appear as lines (player
``-1``) only when the game was played with ``explicit_chance=True``. ``name``
is for people reading the file; ``action`` (and ``player``, when present) are
what is checked on reading.

:class:`ReplayWriter` writes the header atomically (a temporary file renamed
into place) and then appends and flushes each action as it is played, so an
interrupted game keeps every line written before the interruption. Taking moves
back rewrites the file atomically. :func:`read_replay` refuses a truncated or
corrupted file, or one of an unknown format version, with a :class:`ReplayError`
naming the line; :func:`reproduce` replays the actions, checks each one's
legality and names the line of the first that does not fit.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from boardsim import __version__
from boardsim.api import list_games, make_game
from boardsim.core.errors import IllegalActionError, OptionError, StateFormatError
from boardsim.core.game import CHANCE, Game, State
from boardsim.files import atomic_write_text

FORMAT_NAME = "boardsim-replay"
FORMAT_VERSION = 1

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "Move",
    "Replay",
    "ReplayError",
    "ReplayWriter",
    "read_replay",
    "reproduce",
    "write_replay",
]


class ReplayError(StateFormatError):
    """A replay file that cannot be read or does not reproduce; names the file and line."""

    def __init__(self, path: str | os.PathLike[str], line: int, reason: str) -> None:
        self.path = str(path)
        self.line = line
        self.reason = reason
        super().__init__(f"{self.path}: line {line}: {reason}")


@dataclass(frozen=True)
class Move:
    """One recorded action: who acted (``CHANCE`` for a chance outcome) and what."""

    player: int
    action: int
    name: str = ""


@dataclass
class Replay:
    """A replay read from a file (or about to be written)."""

    game: str
    options: dict[str, Any]
    seed: int
    moves: list[Move] = field(default_factory=list)
    header: dict[str, Any] = field(default_factory=dict)
    path: str = "<memory>"

    def make_game(self) -> Game:
        """The game with the recorded options."""
        return make_game(self.game, **self.options)

    def states(self, game: Game | None = None) -> Iterator[tuple[int, Move | None, State]]:
        """``(step, move, state after it)`` from the start (step 0, move None) to the end.

        Each move is checked against the state it is applied to (see :func:`reproduce`).
        """
        game = game or self.make_game()
        state = game.new_initial_state(self.seed)
        yield 0, None, state.clone()
        for i, move in enumerate(self.moves):
            _apply_checked(state, move, self.path, _line_of_move(i))
            yield i + 1, move, state.clone()


def _line_of_move(index: int) -> int:
    return index + 2  # line 1 is the header


def _apply_checked(state: State, move: Move, path: str, line: int) -> None:
    if state.is_terminal():
        raise ReplayError(path, line, "an action after the end of the game")
    actor = state.current_player()
    if move.player != actor:
        who = "chance" if actor == CHANCE else f"player {actor}"
        raise ReplayError(
            path, line, f"recorded for player {move.player}, but {who} is to act here"
        )
    try:
        state.apply_action(move.action)
    except IllegalActionError as exc:
        raise ReplayError(path, line, f"action {move.action} is not legal here: {exc}") from None


def reproduce(replay: Replay, game: Game | None = None) -> State:
    """The final state of the replay; every action's legality is checked on the way."""
    game = game or replay.make_game()
    state = game.new_initial_state(replay.seed)
    for i, move in enumerate(replay.moves):
        _apply_checked(state, move, replay.path, _line_of_move(i))
    return state


# ------------------------------------------------------------------ writing
def make_header(game: Game, seed: int, seats: dict[str, str] | None = None) -> dict[str, Any]:
    """The first line of a replay of ``game`` started with ``seed``."""
    header: dict[str, Any] = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "game": game.name,
        "game_version": game.definition.version,
        "options": dict(game.options),
        "seed": int(seed),
        "boardsim_version": __version__,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    if seats:
        header["seats"] = dict(seats)
    return header


def move_line(n: int, move: Move) -> str:
    record: dict[str, Any] = {"n": n, "player": move.player, "action": move.action}
    if move.name:
        record["name"] = move.name
    return json.dumps(record, ensure_ascii=False) + "\n"


def write_replay(path: str | os.PathLike[str], header: dict[str, Any], moves: list[Move]) -> Path:
    """Write a whole replay atomically (temporary file, then rename)."""
    out = Path(path)
    text = json.dumps(header, ensure_ascii=False) + "\n"
    text += "".join(move_line(i + 1, m) for i, m in enumerate(moves))
    atomic_write_text(out, text)
    return out


class ReplayWriter:
    """Writes a replay while a game is played: header first, then one flushed line a move."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        game: Game,
        seed: int,
        seats: dict[str, str] | None = None,
    ) -> None:
        self.path = Path(path)
        self.header = make_header(game, seed, seats)
        self.moves: list[Move] = []
        write_replay(self.path, self.header, [])
        self._file: IO[str] | None = open(self.path, "a", encoding="utf-8")  # noqa: SIM115

    def record(self, move: Move) -> None:
        """Append one move and push it to the disk."""
        if self._file is None:
            raise ValueError(f"replay {self.path} is closed")
        self.moves.append(move)
        self._file.write(move_line(len(self.moves), move))
        self._file.flush()
        os.fsync(self._file.fileno())

    def truncate(self, keep: int) -> None:
        """Keep the first ``keep`` moves (taking moves back); rewrites the file atomically."""
        if self._file is not None:
            self._file.close()
        self.moves = self.moves[:keep]
        write_replay(self.path, self.header, self.moves)
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115

    def close(self) -> None:
        """Close the file (every recorded move is already on the disk)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> ReplayWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ------------------------------------------------------------------ reading
def _parse_line(path: str, n: int, text: str, last: bool) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        what = "truncated" if last and not text.endswith("\n") else "corrupted"
        raise ReplayError(path, n, f"{what}: not a JSON object ({exc.msg})") from None
    if not isinstance(value, dict):
        raise ReplayError(path, n, f"corrupted: expected a JSON object, got {type(value).__name__}")
    return value


def _check_header(path: str, header: dict[str, Any]) -> None:
    if header.get("format") != FORMAT_NAME:
        raise ReplayError(path, 1, f"not a boardsim replay (format {header.get('format')!r})")
    version = header.get("format_version")
    if version != FORMAT_VERSION:
        raise ReplayError(
            path,
            1,
            f"replay format version {version!r} is not supported "
            f"(this boardsim reads version {FORMAT_VERSION})",
        )
    for key, kind in (("game", str), ("options", dict), ("seed", int), ("game_version", int)):
        if not isinstance(header.get(key), kind) or isinstance(header.get(key), bool):
            raise ReplayError(path, 1, f"header field {key!r} is missing or not a {kind.__name__}")


def _check_game(path: str, header: dict[str, Any]) -> None:
    name = header["game"]
    if name not in list_games():
        raise ReplayError(path, 1, f"unknown game {name!r}; known: {', '.join(list_games())}")
    try:
        game = make_game(name, **header["options"])
    except OptionError as exc:
        raise ReplayError(path, 1, f"options not accepted: {exc}") from None
    if header["game_version"] != game.definition.version:
        raise ReplayError(
            path,
            1,
            f"replay of {name} version {header['game_version']}; this boardsim has version "
            f"{game.definition.version} (the rules changed, the game would not reproduce)",
        )


def _parse_move(path: str, n: int, record: dict[str, Any], index: int) -> Move:
    action = record.get("action")
    if not isinstance(action, int) or isinstance(action, bool):
        raise ReplayError(path, n, f"corrupted: 'action' must be an integer, got {action!r}")
    player = record.get("player")
    if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
        raise ReplayError(path, n, f"corrupted: 'player' must be an integer, got {player!r}")
    if "n" in record and record["n"] != index + 1:
        raise ReplayError(path, n, f"corrupted: move number {record['n']!r}, expected {index + 1}")
    name = record.get("name", "")
    return Move(int(player) if player is not None else -99, int(action), str(name))


def read_replay(path: str | os.PathLike[str], check: bool = True) -> Replay:
    """Read a replay file; with ``check`` (default) also reproduce it, checking every line.

    Raises :class:`ReplayError` (a ``ValueError``) naming the line of the problem.
    """
    where = str(path)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except UnicodeDecodeError as exc:
        raise ReplayError(where, 1, f"corrupted: not UTF-8 text ({exc.reason})") from None
    if not lines or not lines[0].strip():
        raise ReplayError(where, 1, "empty: no header line")
    header = _parse_line(where, 1, lines[0], len(lines) == 1)
    _check_header(where, header)
    _check_game(where, header)
    moves = []
    for i, text in enumerate(lines[1:]):
        n = i + 2
        if not text.strip():
            raise ReplayError(where, n, "corrupted: an empty line")
        record = _parse_line(where, n, text, n == len(lines))
        moves.append(_parse_move(where, n, record, i))
    replay = Replay(header["game"], header["options"], header["seed"], [], header, where)
    game = replay.make_game()
    state = game.new_initial_state(replay.seed)
    for i, move in enumerate(moves):
        # a line without "player" is taken as the player to act
        actor = state.current_player() if move.player == -99 else move.player
        move = Move(actor, move.action, move.name)
        if check:
            _apply_checked(state, move, where, _line_of_move(i))
        replay.moves.append(move)
    return replay
