"""``boardsim replay FILE``: print a saved game move by move, or turn it into pictures.

``--board`` prints the board after every move; ``--gif OUT`` writes an animated
GIF; ``--html OUT`` writes one self-contained page that steps forward and back
through the game (board as SVG, the action log beside it). A truncated or
corrupted replay, or one of an unknown format version, is refused with the
number of the line at fault.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def cmd_replay(args: argparse.Namespace) -> int:
    from boardsim.render.animate import move_label, write_gif, write_html
    from boardsim.replay import ReplayError, read_replay

    try:
        replay = read_replay(args.file)
    except FileNotFoundError:
        print(f"boardsim replay: no such file: {args.file}", file=sys.stderr)
        return 2
    except ReplayError as exc:
        print(f"boardsim replay: {exc}", file=sys.stderr)
        return 2
    game = replay.make_game()
    h = replay.header
    print(
        f"{game.definition.title}\nseed {replay.seed}; options {replay.options}; "
        f"boardsim {h.get('boardsim_version', '?')}; {len(replay.moves)} moves"
        + (f"; seats {h['seats']}" if "seats" in h else "")
    )
    before = None
    final = None
    for step, move, state in replay.states(game):
        if move is not None and before is not None:
            print(f"{step:>5}. {move_label(game, before, move)}")
            if args.board:
                print(str(state))
        before = final = state
    assert final is not None
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
    p = subparsers.add_parser(
        "replay",
        help="print a saved game move by move; --gif / --html pictures",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="a replay (JSON Lines) written by boardsim play")
    p.add_argument("--board", action="store_true", help="print the board after every move")
    p.add_argument("--gif", metavar="OUT", help="write an animated GIF")
    p.add_argument("--html", metavar="OUT", help="write a self-contained HTML replay viewer")
    p.add_argument(
        "--every",
        type=int,
        default=None,
        help="GIF: one frame every N moves (default: at most 300 frames)",
    )
    p.add_argument("--scale", type=float, default=0.6, help="GIF: picture scale (default 0.6)")
    p.set_defaults(func=cmd_replay)
