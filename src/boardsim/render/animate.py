"""A replay as pictures: an animated GIF, and one self-contained HTML page to step through.

Both show every hand (a replay is watched after the game), and say so on the picture.
"""

from __future__ import annotations

import difflib
import hashlib
import html
import json
import math
import os
from pathlib import Path

from boardsim.core.game import CHANCE, Game, State
from boardsim.files import atomic_write
from boardsim.render import scene
from boardsim.render.placement import shape_box
from boardsim.render.scene import Scene, Shape, layer_to_svg, scene_to_image, shape_to_svg
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
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
html, body {{ height: 100%; margin: 0; }}
body {{ font-family: DejaVu Sans, Arial, sans-serif; background: #eee9dc; color: #222;
       display: flex; flex-direction: column; }}
header {{ padding: 8px 12px 4px 12px; }}
h1 {{ font-size: 18px; margin: 0 0 2px 0; }}
.meta {{ font-size: 12px; color: #6b6354; }}
#controls {{ margin: 6px 0 0 0; display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }}
#controls button {{ font-size: 14px; padding: 3px 10px; }}
#counter {{ display: inline-block; min-width: 150px; text-align: center; font-size: 14px; }}
#zoom-level {{ display: inline-block; min-width: 52px; text-align: center; font-size: 13px; }}
#main {{ flex: 1; display: flex; gap: 10px; padding: 4px 12px 12px 12px; min-height: 0; }}
#board-wrap {{ flex: 1; min-width: 0; overflow: auto; border: 1px solid #b9ae95;
              background: {background}; }}
#board-svg {{ display: block; }}
#side {{ flex: 0 0 {side_width}px; display: flex; flex-direction: column; gap: 8px;
        min-height: 0; }}
#panel-svg {{ display: block; border: 1px solid #b9ae95; flex: 0 0 auto; }}
#log {{ flex: 1; min-height: 120px; overflow-y: auto; margin: 0; padding: 4px 4px 4px 48px;
        background: #fbf8ef; border: 1px solid #b9ae95; font-size: 13px; }}
#log li {{ padding: 1px 4px; cursor: pointer; }}
#log li.current {{ background: #f5cf6b; font-weight: bold; }}
</style>
</head>
<body>
<header>
<h1>{title}</h1>
<div class="meta">{meta}</div>
<div id="controls">
<button id="first" title="start (Home)">&laquo; start</button>
<button id="prev" title="back one move (left arrow)">&#x25C0; back</button>
<span id="counter"></span>
<button id="next" title="forward one move (right arrow)">forward &#x25B6;</button>
<button id="last" title="end (End)">end &raquo;</button>
<span style="width: 16px"></span>
<button id="zoom-out" title="zoom out (-)">&minus;</button>
<span id="zoom-level">fit</span>
<button id="zoom-in" title="zoom in (+)">+</button>
<button id="zoom-fit" title="fit the board to the window (0)">fit</button>
</div>
</header>
<div id="main">
<div id="board-wrap">
<svg id="board-svg" xmlns="http://www.w3.org/2000/svg"
 width="{board_width}" height="{height}" viewBox="0 0 {board_width} {height}"
 data-step="0" data-digest="">
<g id="picture">
<rect x="0" y="0" width="{width}" height="{height}" fill="{background}"/>
<g id="board">
{static}
</g>
<g id="pieces"></g>
</g>
</svg>
</div>
<div id="side">
{panel}
<ol id="log" start="0">
{log}
</ol>
</div>
</div>
<script>
// The pictures are stored as what changes: TABLE holds every distinct SVG element of the
// pieces layer once; STEPS[0] lists the start's elements (indices into TABLE), and each
// later entry the edits from the step before, [from, to, ...new] each (splice order).
const TABLE = {table};
const STEPS = {steps};
const DIGESTS = {digests};
const BOARD_W = {board_width}, BOARD_H = {height};
const FRAMES = [];
(function build() {{
  let cur = STEPS[0].slice();
  FRAMES.push(cur);
  for (let k = 1; k < STEPS.length; k++) {{
    const next = cur.slice();
    const edits = STEPS[k];
    for (let e = edits.length - 1; e >= 0; e--) {{
      const [from, to, ...ids] = edits[e];
      next.splice(from, to - from, ...ids);
    }}
    FRAMES.push(next);
    cur = next;
  }}
}})();
let step = 0;
let zoom = 1;
const svg = document.getElementById("board-svg");
const wrap = document.getElementById("board-wrap");
const side = document.getElementById("side");
const pieces = document.getElementById("pieces");
const items = document.querySelectorAll("#log li");
function show(k) {{
  step = Math.max(0, Math.min(FRAMES.length - 1, k));
  pieces.innerHTML = FRAMES[step].map((i) => TABLE[i]).join("");
  svg.setAttribute("data-step", String(step));
  svg.setAttribute("data-digest", DIGESTS[step]);
  document.getElementById("counter").textContent = "move " + step + " / " + (FRAMES.length - 1);
  items.forEach((li, i) => li.classList.toggle("current", i === step));
  items[step].scrollIntoView({{block: "nearest"}});
}}
function fitScale() {{
  const w = wrap.clientWidth - 2, h = wrap.clientHeight - 2;
  return Math.max(0.1, Math.min(w / BOARD_W, h / BOARD_H));
}}
function layout() {{
  // measure the room with the board out of the way (no scroll bars), then fill it
  wrap.style.flex = "";
  wrap.style.alignSelf = "";
  side.style.flexGrow = "";
  svg.setAttribute("width", "1");
  svg.setAttribute("height", "1");
  const k = fitScale() * zoom;
  const w = Math.round(BOARD_W * k);
  svg.setAttribute("width", String(w));
  svg.setAttribute("height", String(Math.round(BOARD_H * k)));
  if (zoom <= 1) {{
    // the frame hugs the board (no blank strip beside it); the log takes the room left
    wrap.style.flex = "0 0 " + w + "px";
    wrap.style.alignSelf = "flex-start";
    side.style.flexGrow = "1";
  }}
  svg.setAttribute("data-scale", k.toFixed(3));
  document.getElementById("zoom-level").textContent =
    zoom === 1 ? "fit" : Math.round(zoom * 100) + "%";
}}
function setZoom(z) {{ zoom = Math.max(0.5, Math.min(6, z)); layout(); }}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(step - 1);
document.getElementById("next").onclick = () => show(step + 1);
document.getElementById("last").onclick = () => show(FRAMES.length - 1);
document.getElementById("zoom-in").onclick = () => setZoom(zoom * 1.25);
document.getElementById("zoom-out").onclick = () => setZoom(zoom / 1.25);
document.getElementById("zoom-fit").onclick = () => setZoom(1);
items.forEach((li, i) => li.addEventListener("click", () => show(i)));
document.addEventListener("keydown", (e) => {{
  if (e.key === "ArrowRight") show(step + 1);
  else if (e.key === "ArrowLeft") show(step - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(FRAMES.length - 1);
  else if (e.key === "+" || e.key === "=") setZoom(zoom * 1.25);
  else if (e.key === "-") setZoom(zoom / 1.25);
  else if (e.key === "0") setZoom(1);
}});
wrap.addEventListener("wheel", (e) => {{
  if (!e.ctrlKey) return;
  e.preventDefault();
  setZoom(zoom * (e.deltaY < 0 ? 1.1 : 1 / 1.1));
}}, {{passive: false}});
window.addEventListener("resize", layout);
layout();
show(0);
</script>
</body>
</html>
"""

_PANEL = (
    '<svg id="panel-svg" xmlns="http://www.w3.org/2000/svg" '
    'width="{w}" height="{h}" '
    'viewBox="{x} 0 {w} {h}"><use href="#picture"/></svg>'
)


def _script_json(value: object) -> str:
    """JSON safe inside a ``<script>`` element."""
    return json.dumps(value, separators=(",", ":")).replace("</", "<\\/")


def frame_edits(before: list[int], after: list[int]) -> list[list[int]]:
    """The edits that turn one step's elements into the next's: ``[from, to, *new]`` each,
    replacing ``before[from:to]`` by ``new`` (applied last first, indices stay valid)."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [
        [i1, i2, *after[j1:j2]] for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]


class _Elements:
    """Every distinct SVG element of the pieces layer, numbered as first seen."""

    def __init__(self) -> None:
        self.table: list[str] = []
        self._index: dict[str, int] = {}

    def ids(self, shapes: list[Shape]) -> list[int]:
        out = []
        for shape in shapes:
            text = shape_to_svg(shape)
            if text not in self._index:
                self._index[text] = len(self.table)
                self.table.append(text)
            out.append(self._index[text])
        return out


def _panel_bottom(pic: Scene) -> float:
    """How far down the side panel's text reaches in this picture."""
    if pic.board_width is None:
        return 0.0
    boxes = [shape_box(s) for s in pic.dynamic if shape_box(s)[0] >= pic.board_width]
    return max((b[3] for b in boxes), default=0.0)


def html_page(replay: Replay) -> str:
    """The replay as one self-contained HTML page (see :func:`write_html`)."""
    game = replay.make_game()
    elements = _Elements()
    steps: list[list] = []
    digests, log = [], []
    first: Scene | None = None
    previous: list[int] = []
    before: State | None = None
    panel_bottom = 0.0
    for step, move, state in replay.states(game):
        pic = scene(game, state, show_hands=True)
        first = first or pic
        ids = elements.ids(pic.dynamic)
        steps.append(ids if step == 0 else frame_edits(previous, ids))
        previous = ids
        panel_bottom = max(panel_bottom, _panel_bottom(pic))
        digests.append(state_digest(state))
        words = "start" if move is None or before is None else move_label(game, before, move)
        log.append(f'<li data-step="{step}">{html.escape(words)}</li>')
        before = state
    assert first is not None
    board_width = first.board_width or first.width
    panel = ""
    if first.board_width is not None:
        h = min(first.height, math.ceil(panel_bottom + 16))
        panel = _PANEL.format(x=board_width, w=first.width - board_width, h=h)
    h = replay.header
    options = ", ".join(f"{k}={v}" for k, v in replay.options.items())
    meta = (
        f"seed {replay.seed} &middot; options {html.escape(options)} &middot; "
        f"boardsim {html.escape(str(h.get('boardsim_version', '?')))} &middot; "
        f"{len(replay.moves)} moves &middot; all hands shown (replay view) &middot; "
        "keys: &larr; &rarr; Home End, + &minus; 0 to zoom (or ctrl + wheel)"
    )
    return _PAGE.format(
        title=html.escape(f"{game.definition.title}: replay"),
        meta=meta,
        width=first.width,
        board_width=board_width,
        height=first.height,
        background=first.background,
        side_width=max(first.width - board_width + 4, 360),
        static=layer_to_svg(first.static),
        panel=panel,
        log="\n".join(log),
        table=_script_json(elements.table),
        steps=_script_json(steps),
        digests=_script_json(digests),
    )


def write_html(replay: Replay, out: str | os.PathLike[str]) -> Path:
    """Write the replay viewer page atomically.

    The board is an SVG scaled to fit the window (zoom with the buttons, + and -, or
    ctrl and the wheel; scroll when zoomed in); beside it the picture's side panel at
    its own size, so its text stays readable, and the action log with the current move
    highlighted; buttons and arrow keys step forward and back. The page stores each
    distinct element of the pieces layer once and each step as the edits from the
    step before, so a game of 1,000 moves makes a page of a few hundred kilobytes.
    """
    page = html_page(replay)
    path = Path(out)

    def save(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(page)

    atomic_write(path, save)
    return path
