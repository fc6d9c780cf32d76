"""One documentation page per game, written from the game's own code and data.

Every table here is read from what the rules use: the option declarations
(``GameDefinition.options`` and ``core/options.py``'s ``COMMON_OPTIONS``), the layout
module (state fields, action ranges, observation parts, with their comments), the
game's words (``names.describe_action`` on positions met in random play), the data
files (their header and provenance tags) and the rules ledger's spec table. So a page
follows the code: change an option's default and the page says the new one.
"""

from __future__ import annotations

import importlib
import io
import re
import tomllib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import sourceinfo as si

import boardsim
from boardsim.core.game import Game, GameDefinition, State
from boardsim.core.header import HEADER_SIZE
from boardsim.core.options import COMMON_OPTIONS, Option
from boardsim.games import definition, gym_id

REPO = Path(__file__).resolve().parents[2]
PROVENANCE = ("source", "derived", "reconstructed", "decision")
# the options that make a picture or the action examples show more of a game
EXPLORE: dict[str, tuple[dict[str, Any], ...]] = {
    "hispania": (
        {},
        {"auto_setup": True},
        {"ingenivm": True, "imperivm": True, "proconsvl": True, "legio_hispana": True},
        {"terror": True, "traitors": True, "pirates": True, "auto_setup": True},
        {"hispano": True},
    ),
    "liberation": ({"num_players": 2}, {"num_players": 5}),
    "farrapos": ({}, {"siege": True, "port_transport": True}),
}
PICTURE_OPTIONS = {"hispania": {"auto_setup": True}, "liberation": {"num_players": 4}}
MID_GAME = {"hispania": 12, "liberation": 160, "farrapos": 260}


def cell(value: Any) -> str:
    """A value as a table cell: code, with the table's bars escaped."""
    return "`" + repr(value).replace("|", "\\|") + "`"


def words(text: str) -> str:
    """Prose for a table cell (bars escaped, lines joined)."""
    return " ".join(str(text).split()).replace("|", "\\|")


def allowed(option: Option, d: GameDefinition) -> str:
    """The values an option takes, as its declaration says."""
    if option.choices is not None:
        return ", ".join(cell(c) for c in option.choices)
    if option.low is not None or option.high is not None:
        high = "2³¹ - 1" if option.high == 2**31 - 1 else option.high
        return f"int, {option.low} to {high}"
    if d.difficulty is not None and d.difficulty.option == option.name:
        parts = "-".join(d.difficulty.parameters)
        values = "; ".join(
            f"{p} {'/'.join(str(v) for v in vs)}"
            for p, vs in zip(d.difficulty.parameters, d.difficulty.values, strict=True)
        )
        return f"`{parts}`, each one of: {values} ({len(d.difficulty.levels())} levels)"
    return "checked when the game is made"


def options_table(d: GameDefinition) -> str:
    """Every option of the game, its own then the common ones."""
    rows = ["| option | default | allowed | what it does |", "|---|---|---|---|"]
    defaults = boardsim.make_game(d.name).options
    for option in (*d.options, *COMMON_OPTIONS):
        rows.append(
            f"| `{option.name}` | {cell(defaults[option.name])} | {allowed(option, d)} "
            f"| {words(option.doc)} |"
        )
    return "\n".join(rows)


def difficulty_table(d: GameDefinition) -> str:
    if d.difficulty is None:
        return ""
    diff = d.difficulty
    rows = [
        f"`{diff.option}` is made of {len(diff.parameters)} parameters, each from its easiest "
        f"value to its hardest ({len(diff.levels())} levels in all):",
        "",
        "| parameter | easiest | | hardest |",
        "|---|---|---|---|",
    ]
    for name, values in zip(diff.parameters, diff.values, strict=True):
        rows.append(f"| {name} | " + " | ".join(str(v) for v in values) + " |")
    return "\n".join(rows)


def module_of(d: GameDefinition, part: str) -> ModuleType | None:
    """The game's module ``part`` (``layout``, ``names``), beside its kernels."""
    package = d.load_kernels().package
    try:
        return importlib.import_module(f"{package}.{part}")
    except ImportError:
        return None


def docstring_fields(layout: ModuleType) -> dict[str, str]:
    """``NAME -> words`` from the layout docstring's field list (``PHASE  1..11 ...``)."""
    out: dict[str, str] = {}
    last = None
    for line in (layout.__doc__ or "").splitlines():
        m = re.match(r"\s{4}([A-Z][A-Z0-9_]*)(\[[^\]]*\])?(/[A-Z_]+)?\s{2,}(.*)", line)
        if m:
            last = m.group(1)
            out[last] = m.group(4).strip()
            if m.group(3):
                out[m.group(3)[1:]] = m.group(4).strip()
        elif last and line.startswith(" " * 10) and line.strip():
            out[last] += " " + line.strip()
        else:
            last = None
    return out


def state_table(game: Game, layout: ModuleType) -> str:
    """The state's fields after the engine header: offset, words, meaning."""
    consts = si.constants(layout)
    offsets = [c for c in si.chain(consts, {"HEADER_SIZE"}) if c.name != "STATE_SIZE"]
    fields = docstring_fields(layout)
    rows = [
        "| field | words | offset | what |",
        "|---|---|---|---|",
        f"| engine header | {HEADER_SIZE} | 0 | the random generator, the player to act, "
        "flags, decisions taken, the chance kind (`core/header.py`) |",
    ]
    for c, start, stop in si.ranges(offsets, game.state_size):
        if stop <= start:
            continue
        what = fields.get(c.name) or c.comment
        rows.append(f"| `{c.name}` | {stop - start} | {start} | {words(what)} |")
    return "\n".join(rows)


def _is_offset(name: str) -> bool:
    return not any(k in name for k in ("WIDTH", "FEATURES", "PER_", "SIZE"))


def observation_table(game: Game, layout: ModuleType) -> str:
    """The parts of the observation vector, from the ``OBS_*`` offsets of ``layout.py``."""
    consts = si.constants(layout)
    section = [
        c for c in consts if c.line >= min(c2.line for c2 in consts if c2.name.startswith("OBS_"))
    ]
    offsets = [c for c in section if c.name.startswith("OBS_") and _is_offset(c.name)]
    extra: dict[str, list[str]] = {c.name: [] for c in offsets}
    for c in section:
        if c in offsets or c.name == "OBS_SIZE" or not isinstance(c.value, int):
            continue
        owner = max((o for o in offsets if o.line < c.line), key=lambda o: o.line, default=None)
        owner = owner or min(offsets, key=lambda o: o.line)
        note = f"`{c.name}` = {c.value}" + (f": {c.comment}" if c.comment else "")
        extra[owner.name].append(note)
    rows = ["| part | floats | offset | sized by | what |", "|---|---|---|---|---|"]
    ends = {c.name: c for c in section if c.name.startswith("OBS_")}
    for c, start, stop in si.ranges(offsets, game.observation_size):
        if stop <= start:
            continue
        what = "; ".join(w for w in [c.comment, *extra[c.name]] if w)
        rows.append(
            f"| `{c.name}` | {stop - start} | {start} | {size_words(c.name, ends.values())} "
            f"| {words(what)} |"
        )
    return "\n".join(rows)


def size_words(name: str, consts: Iterable[si.Constant]) -> str:
    """How ``layout.py`` sizes the part starting at ``name``: the expression of the offset
    after it, less the ``name +`` (``OBS_TURN = OBS_PHASE + NUM_PHASES`` -> ``NUM_PHASES``)."""
    for c in consts:
        m = re.fullmatch(rf"{name}\s*\+\s*(.+)", c.source.strip())
        if m:
            return f"`{m.group(1)}`"
    return ""


def _play_examples(d: GameDefinition, groups: list[tuple[str, int, int]]) -> dict[str, list[str]]:
    """For each action range, the words of up to two different actions met in random play."""
    found: dict[str, list[str]] = {name: [] for name, _, _ in groups}
    sizes = {name: stop - start for name, start, stop in groups}

    def group_of(a: int) -> str | None:
        for name, start, stop in groups:
            if start <= a < stop:
                return name
        return None

    for options in EXPLORE.get(d.name, ({},)):
        game = boardsim.make_game(d.name, max_decisions=2000, **options)
        rng = np.random.default_rng(0)
        for seed in range(30):
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                for a in state.legal_actions():
                    g = group_of(a)
                    if g is not None and len(found[g]) < 2 and len(found[g]) < sizes[g]:
                        text = f"`{a}`: {state.action_to_string(a)}"
                        if all(not t.endswith(text.split(": ", 1)[1]) for t in found[g]):
                            found[g].append(text)
                state.apply_action(int(rng.choice(state.legal_actions())))
            if all(len(found[n]) >= min(2, stop - start) for n, start, stop in groups):
                return found
    return found


def unmet_words(comment: str) -> str:
    """What the examples column says of a range random play did not meet: a retired range
    (its layout comment says "never legal": kept so that the action numbers stay) says
    so; any other was merely not met."""
    if "never legal" in comment:
        return "(never legal: a retired range, kept so that the action numbers stay)"
    return "(not met in random play)"


def actions_table(game: Game, layout: ModuleType) -> str:
    """The action ranges (``A_*`` of ``layout.py``), with words for actions met in play."""
    consts = si.constants(layout)
    offsets = [c for c in consts if c.name.startswith("A_") and isinstance(c.value, int)]
    groups = [
        (c.name, start, stop)
        for c, start, stop in si.ranges(offsets, game.num_actions)
        if stop > start
    ]
    examples = _play_examples(game.definition, groups)
    by_name = {c.name: c for c in offsets}
    rows = ["| actions | range | what | examples (met in random play) |", "|---|---|---|---|"]
    for name, start, stop in groups:
        span = f"{start}" if stop == start + 1 else f"{start}-{stop - 1}"
        said = "<br>".join(words(e) for e in examples[name]) or unmet_words(by_name[name].comment)
        rows.append(f"| `{name}` | {span} | {words(by_name[name].comment)} | {said} |")
    return "\n".join(rows)


def ledger_rows(name: str, keys: Iterable[str]) -> list[tuple[str, str]]:
    """The rows of the rules ledger's spec table whose label contains one of ``keys``."""
    path = REPO / "docs" / "rules" / f"{name}.md"
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*([^|]+?)\s*\|\s*(.+?)\s*\|\s*$", line)
        if m and any(k in m.group(1).lower() for k in keys):
            out.append((m.group(1), m.group(2)))
    return out


def header_comment(path: Path) -> str:
    """The comment block a data file starts with."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].removeprefix(" "))
    return "\n".join(lines).strip()


def provenance_counts(data: Any) -> dict[str, Counter]:
    """Per top-level table of a TOML file: how many of its values are tagged each way."""
    out: dict[str, Counter] = {}

    def walk(x: Any, into: Counter) -> None:
        if isinstance(x, dict):
            for v in x.values():
                walk(v, into)
        elif isinstance(x, list):
            for v in x:
                walk(v, into)
        elif isinstance(x, str) and x in PROVENANCE:
            into[x] += 1

    for key, value in data.items():
        counts: Counter = Counter()
        walk(value, counts)
        if counts:
            out[key] = counts
    return out


def provenance_section(game: Game) -> str:
    """Each data file: where it is, its own account of its sources, and the tag counts."""
    parts = []
    for path in game.kernels.data_files:
        path = Path(path)
        try:
            shown = path.resolve().relative_to(REPO)
        except ValueError:
            shown = Path("envs") / path.parent.name / path.name
        parts.append(f"### `{shown}`\n")
        head = header_comment(path)
        if head:
            parts.append("```text\n" + head + "\n```\n")
        counts = provenance_counts(tomllib.loads(path.read_text(encoding="utf-8")))
        if counts:
            parts.append("| table | " + " | ".join(PROVENANCE) + " |")
            parts.append("|---|" + "---|" * len(PROVENANCE))
            total: Counter = Counter()
            for key, c in counts.items():
                total.update(c)
                parts.append(f"| `[{key}]` | " + " | ".join(str(c[p]) for p in PROVENANCE) + " |")
            parts.append("| **all** | " + " | ".join(f"**{total[p]}**" for p in PROVENANCE) + " |")
            parts.append("")
            parts.append("Counted: the values tagged with one of the file's provenance words "
                         "(an entry's `provenance`/`src` and its per-field tags).")  # fmt: skip
        parts.append("")
    return "\n".join(parts)


def players_text(d: GameDefinition) -> str:
    """Who plays, for the default options and for each player count the options allow."""
    game = boardsim.make_game(d.name)
    names = game.agent_names()
    teams = game.teams
    sides = {}
    for p, t in enumerate(teams):
        sides.setdefault(t, []).append(p)
    side_words = "; ".join(
        "side " + str(t) + ": players " + ", ".join(str(p) for p in ps) for t, ps in sides.items()
    )
    count = next((o for o in d.options if o.name == "num_players"), None)
    if count is not None:
        span = f"{count.low}-{count.high} players (`num_players`, default {count.default})"
    else:
        span = f"{game.num_players} players by default (at most {game.max_players})"
    return f"{span}; agents with the defaults: {', '.join(f'`{n}`' for n in names)}; " + (
        side_words if len(sides) < len(teams) else "every player is its own side"
    )


def pictures(name: str) -> dict[str, bytes]:
    """PNG pictures of the board at the start and in mid-game, drawn by ``boardsim.render``."""
    from PIL import Image

    from boardsim import render

    game = boardsim.make_game(name, **PICTURE_OPTIONS.get(name, {}))
    start = game.new_initial_state(1)
    mid = _mid_game(game, MID_GAME.get(name, 100))
    out = {}
    for label, state in (("start", start), ("mid", mid)):
        buf = io.BytesIO()
        Image.fromarray(render.to_rgb_array(game, state)).save(buf, format="PNG", optimize=True)
        out[f"{name}-{label}.png"] = buf.getvalue()
    return out


def _mid_game(game: Game, moves: int) -> State:
    rng = np.random.default_rng(1)
    state = game.new_initial_state(1)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def page(name: str) -> str:
    """The whole page of game ``name`` (Markdown)."""
    d = definition(name)
    game = boardsim.make_game(name)
    package = importlib.import_module(d.load_kernels().package)
    layout = module_of(d, "layout")
    limit = int(game.options["max_decisions"])
    limit_words = (
        f"{limit:,} decisions (`max_decisions`)"
        if limit
        else "none: `max_decisions=0`, a game is never truncated unless you set it"
    )
    picture = PICTURE_OPTIONS.get(name, {})
    shown_options = ", ".join(f"{k}={v}" for k, v in picture.items()) or "default options"
    out = [
        f"# {d.title}",
        "",
        words(package.__doc__ or "").replace("\\|", "|"),
        "",
        f"![{name} at the start](img/{name}-start.png)",
        "",
        f"*At the start (seed 1, {shown_options}); below, after {MID_GAME.get(name, 100)} "
        "random decisions. Drawn by `boardsim.render.to_rgb_array` when this site was built.*",
        "",
        f"![{name} in mid-game](img/{name}-mid.png)",
        "",
        "## Spec",
        "",
        "| | |",
        "|---|---|",
        f"| game id | `{name}`, version {d.version} (bumped only when behaviour changes) |",
        f"| Gymnasium id | `{gym_id(name)}` |",
        f"| players | {words(players_text(d))} |",
        f"| actions | `Discrete({game.num_actions})`, with a legal-action mask (below) |",
        f"| observation | `float32[{game.observation_size}]` (below), with `action_mask` "
        f"`uint8[{game.num_actions}]` |",
        f"| state | `int32[{game.state_size}]` ({game.state_size * 4:,} bytes) |",
        f"| chance | at most {game.max_chance_outcomes} outcomes a chance node; drawn inside "
        "`step` unless `explicit_chance=True` |",
        f"| default decision limit | {limit_words} |",
    ]
    for key, value in ledger_rows(name, ("termination", "hidden")):
        out.append(f"| {key} | {value} |")
    out += [
        "",
        f"The rules, every decision taken where the rulebook is silent, and which test checks "
        f"which rule sentence: [the rules ledger](../rules/{name}.md).",
        "",
        "```python",
        "import boardsim",
        "",
        f'env = boardsim.make_env("{name}")  # PettingZoo AEC',
        f'gym_env = boardsim.make_gym_env("{name}")  # Gymnasium, seat 0 learns',
        f'venv = boardsim.make_vec_env("{name}", num_envs=64)  # batched; .to_sb3() for SB3',
        "```",
        "",
        "## Options",
        "",
        "Generated from the option declarations (`GameDefinition.options` and the common "
        "`COMMON_OPTIONS`): a value outside *allowed* raises `OptionError` naming the allowed "
        "ones. Every option is a number in the `params` array: nothing recompiles.",
        "",
        options_table(d),
        "",
        difficulty_table(d),
        "",
    ]
    if layout is not None:
        out += [
            "## Observation",
            "",
            f"`float32[{game.observation_size}]`, from the `OBS_*` offsets of `{layout.__name__}` "
            "and their comments; `observe(state, params, player, out)` writes it (what that "
            "player may see, nothing more).",
            "",
            observation_table(game, layout),
            "",
            "## Actions",
            "",
            f"`Discrete({game.num_actions})`: the `A_*` ranges of `{layout.__name__}`. A "
            "composite decision is a short sequence of these, each with its own mask. The "
            "examples are `State.action_to_string` (the game's `names.describe_action`) on "
            "positions met in random play.",
            "",
            actions_table(game, layout),
            "",
            "## Rewards",
            "",
            *(f"- **{k}**: {v}" for k, v in ledger_rows(name, ("reward",))),
            "",
            "## State layout",
            "",
            f"One flat `int32[{game.state_size}]` array; a clone is `state.copy()`, a batch a "
            f"2-D array. The fields after the engine header, from `{layout.__name__}`:",
            "",
            state_table(game, layout),
            "",
        ]
    out += [
        "## Data and its provenance",
        "",
        "The board, the pieces and the tables are data, validated on load (`DataError` "
        "names the file, the entry and the reason). Each file says for every entry whether "
        "it is *source* (printed in the rulebook), *derived* (follows from sourced facts) or "
        "*reconstructed* (our choice, to be replaced when the printed component is seen). "
        "Edit the file to correct it; to use a copy elsewhere, point `BOARDSIM_ENVS` at a "
        "folder holding `<game>/<file>.toml` (the compiled kernels are rebuilt when a data "
        "file changes).",
        "",
        provenance_section(game),
    ]
    return "\n".join(out) + "\n"


def index_page(names: list[str]) -> str:
    """The games at a glance."""
    rows = [
        "# Games",
        "",
        "Every game is a numba-compiled core over one flat `int32` array with a legal-action "
        "mask; each page below is generated from the game's code and data when the site is "
        "built.",
        "",
        "| game | title | players | actions | observation | Gymnasium id |",
        "|---|---|---|---|---|---|",
    ]
    for name in names:
        d = definition(name)
        game = boardsim.make_game(name)
        count = next((o for o in d.options if o.name == "num_players"), None)
        players = f"{count.low}-{count.high}" if count else str(game.num_players)
        rows.append(
            f"| [`{name}`]({name}.md) | {d.title} | {players} | {game.num_actions} "
            f"| {game.observation_size} | `{gym_id(name)}` |"
        )
    return "\n".join(rows) + "\n"
