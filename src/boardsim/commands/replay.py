"""``boardsim replay FILE``: print a saved game move by move, or turn it into pictures.

FILE may be a folder (the newest replay in it, ``*.jsonl``) or several files (what a
shell glob such as ``replays/liberation-*.jsonl`` gives: the newest of them); the
replay shown is named first.

``--board`` prints the board after every move; ``--gif OUT`` writes an animated
GIF; ``--html OUT`` writes one self-contained page that steps forward and back
through the game (board as SVG, the action log beside it); with either, only the
outcome is printed (``--moves`` prints the game too). A truncated or
corrupted replay, or one of an unknown format version, is refused with the
number of the line at fault.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boardsim.commands.args import add_command
from boardsim.render.animate import move_label, write_gif, write_html
from boardsim.replay import ReplayError, read_replay

REPLAY_PATTERN = "*.jsonl"


def newest(paths: Sequence[Path]) -> Path:
    """The most recently written of ``paths`` (by time, then by name: the names
    ``boardsim play`` gives carry the time)."""
    return max(paths, key=lambda p: (p.stat().st_mtime, p.name))


def pick_replay(given: Sequence[str]) -> Path:
    """The replay ``boardsim replay`` shows: the one file given, the newest replay of a
    folder, or the newest of several files. ``FileNotFoundError`` saying what is missing."""
    paths = [Path(g) for g in given]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise FileNotFoundError(f"no such file: {', '.join(missing)}")
    files = []
    for p in paths:
        if p.is_dir():
            found = sorted(p.glob(REPLAY_PATTERN))
            if not found and len(paths) == 1:
                raise FileNotFoundError(f"no replay ({REPLAY_PATTERN}) in the folder {p}")
            files += found
        else:
            files.append(p)
    if not files:
        raise FileNotFoundError(f"no replay ({REPLAY_PATTERN}) in {', '.join(given)}")
    return files[0] if len(files) == 1 else newest(files)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        path = pick_replay(args.file)
        replay = read_replay(path)
    except FileNotFoundError as exc:
        print(f"boardsim replay: {exc}", file=sys.stderr)
        return 2
    except ReplayError as exc:
        print(f"boardsim replay: {exc}", file=sys.stderr)
        return 2
    if len(args.file) > 1:
        print(f"replay {path}: the newest of the {len(args.file)} given")
    elif Path(args.file[0]).is_dir():
        print(f"replay {path}: the newest in {args.file[0]}")
    game = replay.make_game()
    h = replay.header
    print(
        f"{game.definition.title}\nseed {replay.seed}; options {replay.options}; "
        f"boardsim {h.get('boardsim_version', '?')}; {len(replay.moves)} moves"
        + (f"; seats {h['seats']}" if "seats" in h else "")
    )
    # writing a picture prints what it wrote and how the game ended, not the whole game
    # again (--moves asks for it too)
    listing = args.moves or not (args.gif or args.html)
    events = game.definition.move_events
    before = None
    final = None
    for step, move, state in replay.states(game):
        if listing and move is not None and before is not None:
            print(f"{step:>5}. {move_label(game, before, move)}")
            if events is not None:  # what the move brought about (the race's independences)
                for words in events(game.params, before.array, state.array):
                    print(f"         {words}")
            if args.board:
                print(str(state))
        before = final = state
    assert final is not None
    if listing:
        print()
        print(str(final))
    if final.is_terminal():
        ret = ", ".join(f"player {p}: {r:+g}" for p, r in enumerate(final.returns()))
        print(f"game {'truncated' if final.is_truncated() else 'over'}; returns {ret}")
    else:
        print("(the game was not finished)")
    if args.gif:
        frames = write_gif(replay, args.gif, every=args.every, scale=args.scale)
        print(f"GIF written: {args.gif} ({frames} frames)")
    if args.html:
        write_html(replay, args.html)
        print(f"HTML viewer written: {args.html}")
    return 0


def add_parser(subparsers: Any) -> None:
    """Register ``boardsim replay``."""
    p = add_command(
        subparsers, "replay", "print a saved game move by move; --gif / --html pictures", __doc__
    )
    p.add_argument(
        "file",
        nargs="+",
        metavar="FILE",
        help="a replay (JSON Lines) written by boardsim play; a folder or several files: "
        "the newest replay",
    )
    p.add_argument("--board", action="store_true", help="print the board after every move")
    p.add_argument("--gif", metavar="OUT", help="write an animated GIF")
    p.add_argument("--html", metavar="OUT", help="write a self-contained HTML replay viewer")
    p.add_argument(
        "--moves",
        action="store_true",
        help="with --gif or --html, print the moves and the final board too",
    )
    p.add_argument(
        "--every",
        type=int,
        default=None,
        help="GIF: one frame every N moves (default: at most 300 frames)",
    )
    p.add_argument("--scale", type=float, default=0.6, help="GIF: picture scale (default 0.6)")
    p.set_defaults(func=cmd_replay)
