"""A replay as pictures: an animated GIF, and one self-contained HTML page to step through.

Both show every hand (a replay is watched after the game), and say so on the picture.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import os
from pathlib import Path

from boardsim.core.game import CHANCE, Game, State
from boardsim.files import atomic_write
from boardsim.render import scene
from boardsim.render.scene import layer_to_svg, scene_to_image
from boardsim.replay import Move, Replay

DEFAULT_MAX_FRAMES = 300


def player_label(game: Game, player: int) -> str:
    """``"player_0"``, ``"consul"``, ``"chance"``: who made a move, in the game's words."""
    if player == CHANCE:
        return "chance"
    names = game.agent_names()
    mapper = game.definition.agent_of_player
    index = mapper(game.options, player) if mapper else player
    return names[index] if 0 <= index < len(names) else f"player {player}"


def move_label(game: Game, before: State, move: Move) -> str:
    """``"player_1: roll the die and move"``."""
    return f"{player_label(game, move.player)}: {before.action_to_string(move.action)}"


def state_digest(state: State) -> str:
    """A short fingerprint of a position (its array), to check a picture shows that state."""
    return hashlib.sha1(state.array.tobytes()).hexdigest()[:16]


def frames_to_keep(total_moves: int, every: int | None, max_frames: int) -> list[int]:
    """The steps (0 = start) that get a frame; the last one always does."""
    if every is None:
        every = max(1, math.ceil((total_moves + 1) / max(max_frames, 1)))
    if every < 1:
        raise ValueError(f"every must be at least 1, got {every}")
    steps = list(range(0, total_moves + 1, every))
    if steps[-1] != total_moves:
        steps.append(total_moves)
    return steps


def write_gif(
    replay: Replay,
    out: str | os.PathLike[str],
    every: int | None = None,
    max_frames: int = DEFAULT_MAX_FRAMES,
    scale: float = 0.6,
    frame_ms: int = 400,
) -> int:
    """Write the replay as an animated GIF (atomically); returns the number of frames.

    One frame every ``every`` moves (by default as many as fit in ``max_frames``);
    the final position is shown twice as long.
    """
    game = replay.make_game()
    keep = set(frames_to_keep(len(replay.moves), every, max_frames))
    images = []
    for step, _move, state in replay.states(game):
        if step in keep:
            img = scene_to_image(scene(game, state, show_hands=True), scale)
            images.append(img.convert("P", palette=1, colors=255))  # 1: Image.Palette.ADAPTIVE
    durations = [frame_ms] * len(images)
    durations[-1] = frame_ms * 4

    def save(tmp: str) -> None:
        images[0].save(
            tmp,
            format="GIF",
            save_all=True,
            append_images=images[1:],
            duration=durations,
            loop=0,
            disposal=1,
        )

    atomic_write(Path(out), save)
    return len(images)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: DejaVu Sans, Arial, sans-serif; margin: 12px; background: #eee9dc;
       color: #222; }}
h1 {{ font-size: 18px; margin: 0 0 4px 0; }}
.meta {{ font-size: 12px; color: #6b6354; margin-bottom: 8px; }}
#controls {{ margin: 6px 0; }}
#controls button {{ font-size: 14px; padding: 3px 10px; }}
#counter {{ display: inline-block; min-width: 140px; text-align: center; font-size: 14px; }}
#main {{ display: flex; gap: 12px; align-items: flex-start; }}
#board-wrap svg {{ max-width: 100%; height: auto; border: 1px solid #b9ae95; background: #fff; }}
#log {{ height: {log_height}px; overflow-y: auto; min-width: 340px; max-width: 460px; margin: 0;
        padding: 4px 4px 4px 48px; background: #fbf8ef; border: 1px solid #b9ae95;
        font-size: 12px; }}
#log li {{ padding: 1px 4px; cursor: pointer; }}
#log li.current {{ background: #f5cf6b; font-weight: bold; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div class="meta">{meta}</div>
<div id="controls">
<button id="first" title="start (Home)">&laquo; start</button>
<button id="prev" title="back one move (left arrow)">&#x25C0; back</button>
<span id="counter"></span>
<button id="next" title="forward one move (right arrow)">forward &#x25B6;</button>
<button id="last" title="end (End)">end &raquo;</button>
</div>
<div id="main">
<div id="board-wrap">
<svg id="board-svg" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"
 viewBox="0 0 {width} {height}" data-step="0" data-digest="">
<rect x="0" y="0" width="{width}" height="{height}" fill="{background}"/>
<g id="board">
{static}
</g>
<g id="pieces"></g>
</svg>
</div>
<ol id="log" start="0">
{log}
</ol>
</div>
<script>
const FRAMES = {frames};
const DIGESTS = {digests};
let step = 0;
const svg = document.getElementById("board-svg");
const pieces = document.getElementById("pieces");
const items = document.querySelectorAll("#log li");
function show(k) {{
  step = Math.max(0, Math.min(FRAMES.length - 1, k));
  pieces.innerHTML = FRAMES[step];
  svg.setAttribute("data-step", String(step));
  svg.setAttribute("data-digest", DIGESTS[step]);
  document.getElementById("counter").textContent = "move " + step + " / " + (FRAMES.length - 1);
  items.forEach((li, i) => li.classList.toggle("current", i === step));
  items[step].scrollIntoView({{block: "nearest"}});
}}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(step - 1);
document.getElementById("next").onclick = () => show(step + 1);
document.getElementById("last").onclick = () => show(FRAMES.length - 1);
items.forEach((li, i) => li.addEventListener("click", () => show(i)));
document.addEventListener("keydown", (e) => {{
  if (e.key === "ArrowRight") show(step + 1);
  else if (e.key === "ArrowLeft") show(step - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(FRAMES.length - 1);
}});
show(0);
</script>
</body>
</html>
"""


def _script_json(value: object) -> str:
    """JSON safe inside a ``<script>`` element."""
    return json.dumps(value).replace("</", "<\\/")


def html_page(replay: Replay) -> str:
    """The replay as one self-contained HTML page (see :func:`write_html`)."""
    game = replay.make_game()
    frames, digests, log = [], [], []
    board_layer, first = "", None
    before: State | None = None
    for step, move, state in replay.states(game):
        pic = scene(game, state, show_hands=True)
        if first is None:
            first = pic
            board_layer = layer_to_svg(pic.static)
        frames.append(layer_to_svg(pic.dynamic))
        digests.append(state_digest(state))
        words = "start" if move is None or before is None else move_label(game, before, move)
        log.append(f'<li data-step="{step}">{html.escape(words)}</li>')
        before = state
    assert first is not None
    h = replay.header
    options = ", ".join(f"{k}={v}" for k, v in replay.options.items())
    meta = (
        f"seed {replay.seed} &middot; options {html.escape(options)} &middot; "
        f"boardsim {html.escape(str(h.get('boardsim_version', '?')))} &middot; "
        f"{len(replay.moves)} moves &middot; all hands shown (replay view) &middot; "
        "keys: &larr; &rarr; Home End"
    )
    return _PAGE.format(
        title=html.escape(f"{game.definition.title}: replay"),
        meta=meta,
        width=first.width,
        height=first.height,
        background=first.background,
        static=board_layer,
        log="\n".join(log),
        frames=_script_json(frames),
        digests=_script_json(digests),
        log_height=first.height,
    )


def write_html(replay: Replay, out: str | os.PathLike[str]) -> Path:
    """Write the replay viewer page atomically: board as SVG, the action log beside it,
    buttons and arrow keys to step forward and back, the current move highlighted."""
    page = html_page(replay)
    path = Path(out)

    def save(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(page)

    atomic_write(path, save)
    return path
