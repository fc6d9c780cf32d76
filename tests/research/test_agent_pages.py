"""docs/agents.md's figures: each generated block is what its files say now, and each file
is what its command writes."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from boardsim.agents import heuristic
from boardsim.cli import build_parser
from boardsim.commands.args import split_list
from boardsim.commands.eval import request_of
from boardsim.core.network import Network
from boardsim.core.options import option_words
from boardsim.research import agent_pages as pages
from boardsim.research import ladder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("name", list(pages.BLOCKS))
def test_each_block_of_the_page_is_its_files(name: str) -> None:
    block = pages.page_block(pages.DOCS_PAGE.read_text(), name)
    assert block, f"docs/agents.md has no {name} block: add its marks {pages.marks(name)}"
    assert block == pages.BLOCKS[name](), (
        f"docs/agents.md's {name} block differs from its files: run {pages.COMMAND}"
    )


def test_the_ladder_marks_are_the_pages_marks() -> None:
    assert (ladder.BEGIN, ladder.END) == pages.marks("ladder")


@pytest.mark.parametrize("prefix", list(pages.evaluations(ROOT / "agents")))
def test_each_eval_file_is_its_command(prefix: str) -> None:
    evaluation = pages.evaluations()[prefix]
    data = evaluation.read()
    words = shlex.split(evaluation.command)
    assert words[:2] == ["boardsim", "eval"]
    args = build_parser().parse_args(words[1:])
    # spelled as boardsim eval records its command, so a file that has one matches
    assert request_of(args).command() == evaluation.command
    assert data.get("command", evaluation.command) == evaluation.command
    assert args.out == prefix and Path(prefix + ".csv").is_file()
    assert args.game == data["game"]
    assert split_list(args.agents) == data["agents"]
    assert (args.games, args.seed) == (data["games_per_pair"], data["seed"])
    for key, value in option_words(args.option).items():
        assert data["options"][key] == value, f"{prefix}.json: {key}"
    if data["mode"] == "cooperative":
        levels = {r["level"] for r in data["solo"]}
        assert levels == (set(args.levels.split(",")) if args.levels else {"-"})
    # the rules version: from the file once boardsim eval records it, else declared
    assert ("version" in data) != (evaluation.version is not None)
    assert pages.evaluation_version(evaluation, data) >= 1


@pytest.mark.parametrize("game", heuristic.strength_games())
def test_each_heuristic_strength_file_is_the_games_table_now(game: str) -> None:
    data = heuristic.read_strength(game)
    assert data["command"] == heuristic.strength_command(game, data["games"], data["seed"])
    lines = [(r["label"], r["options"], r["policies"], r["seat"]) for r in data["rows"]]
    declared = [
        (m.label, dict(m.options), list(m.policies), m.seat)
        for _, m in heuristic.strength_matchups(game)
    ]
    rerun = f"run {data['command']} and {pages.COMMAND}"
    assert lines == declared, f"{game}'s strength matchups changed: {rerun}"
    assert data["version"] == pages._game_version(game), f"{game}'s rules changed: {rerun}"
    for r in data["rows"]:
        assert r["games"] == data["games"] and 0 <= r["wins"] <= r["games"]
        assert r["ci_low"] - 1e-12 <= r["win_rate"] <= r["ci_high"] + 1e-12


def test_the_strength_file_is_written_by_its_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):  # outside a checkout
        heuristic.main(["--game", "liberation", "--games", "2", "--write"])
    (tmp_path / "agents").mkdir()
    heuristic.main(["--game", "liberation", "--games", "2", "--seed", "3", "--write"])
    data = json.loads((tmp_path / "agents/liberation/heuristic-strength.json").read_text())
    assert data["command"] == heuristic.strength_command("liberation", 2, 3)
    assert data["command"].split()[:3] == ["python", "-m", "boardsim.agents.heuristic"]
    assert len(data["rows"]) == len(heuristic.strength_matchups("liberation"))
    assert all(r["games"] == 2 for r in data["rows"])


def test_the_page_names_every_command_behind_its_figures() -> None:
    text = pages.DOCS_PAGE.read_text()
    for evaluation in pages.evaluations().values():
        assert evaluation.command in text
    for game in heuristic.strength_games():
        assert heuristic.read_strength(game)["command"] in text


def test_write_docs_refuses_a_page_without_the_marks(tmp_path: Path) -> None:
    page = tmp_path / "agents.md"
    page.write_text("# Agents\n" + pages.marks("ladder")[0] + "\n" + pages.marks("ladder")[1])
    with pytest.raises(ValueError, match="no heuristic, ppo, mcts, depth, alphazero, speed block"):
        pages.write_docs(page)


def test_every_game_declares_its_figures() -> None:
    games = pages.figure_games()
    assert games == sorted(heuristic.strength_games()) and len(games) == 3
    for figures in pages.all_figures():
        assert figures.bar is not None and figures.ppo is not None and figures.mcts


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[evaluations.e]\narguments = '--games 2'\ncolour = 1\n", "unknown keys ['colour']"),
        ("[evaluations.e]\nversion = 1\n", "missing keys ['arguments']"),
        ("[evaluations.e]\narguments = 'x'\n[ppo]\nevaluation = 'other'\n", "'other' is not"),
        (
            "[evaluations.e]\narguments = 'x'\n"
            "[depth]\nevaluations = [{file = 'f', agents = []}]\n",
            "'f' is not one of the file's [evaluations]",
        ),
        ("[evaluations]\n[depth]\nfiles = 1\n", "unknown keys ['files']"),
        ("[evaluations]\n[[alphazero.targets]]\nfile = 1\n", "missing keys"),
        ("[evaluations.e]\narguments = 'x'\nversion = 'one'\n", "whole number"),
        ("[evaluations\n", "Expected"),
        ("evaluations = 3\n", "must be a table"),
        ("[evaluations.'../x']\narguments = 'x'\n", "a file's name"),
        (
            "[evaluations]\n[heuristic]\nbar = 'b'\nlines = [{label = 'l', options = 1}]\n",
            "options must be a table",
        ),
    ],
)
def test_a_malformed_figures_file_is_refused_with_its_fault(
    tmp_path: Path, text: str, says: str
) -> None:
    (tmp_path / "somegame").mkdir()
    (tmp_path / "somegame" / pages.FIGURES).write_text(text)
    with pytest.raises(pages.FiguresError, match=r"figures\.toml") as err:
        pages.read_figures("somegame", tmp_path)
    assert says in str(err.value)


def test_the_speed_block_is_the_benchmarks_file(tmp_path: Path) -> None:
    data = json.loads(pages.SPEED_RESULTS.read_text())
    data["games"]["liberation"]["mlp_2x256"]["decisions_per_second"] = 12345.6
    data["games"]["liberation"].pop("mcts_200")
    data["started_utc"] = "2026-12-02 20:00 UTC"
    path = tmp_path / "networks.json"
    path.write_text(json.dumps(data))
    block = pages.speed_block(path)
    row = next(line for line in block.splitlines() if line.startswith("| liberation |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[0] == "liberation" and cells[1] == "12,346" and cells[4] == "not measured"
    assert "2026-12-02 20:00 UTC" in block


def _pair(agent: str, opponent: str, rate: float, low: float, high: float) -> dict:
    wins = round(400 * rate)
    return {
        "agent": agent,
        "opponent": opponent,
        "games": 400,
        "wins": wins,
        "draws": 0,
        "losses": 400 - wins,
        "win_rate": rate,
        "ci_low": low,
        "ci_high": high,
    }


def _depth_file(root: Path, game: str, extra: str, version: int, data: dict) -> None:
    """A game's figures under ``root`` declaring one depth file, and the file's ``data``."""
    folder = root / "agents" / game
    folder.mkdir(parents=True)
    (folder / pages.FIGURES).write_text(
        "[evaluations.depth-eval]\n"
        f'arguments = "--agents mcts:200,mcts:800 --games 400 --seed 4{extra}"\n'
        f"version = {version}\n"
        '[depth]\nevaluations = [{ file = "depth-eval", agents = ["mcts:800"] }]\n'
    )
    data = {"game": game, "options": {}, "seconds": 60.0, **data}
    (folder / "depth-eval.json").write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("rate", "low", "high", "says"),
    [
        (0.6, 0.55, 0.65, "more search plays better (the interval above 50%)"),
        (0.4, 0.35, 0.45, "**more search plays worse** (the interval below 50%)"),
        (0.52, 0.47, 0.57, "**not apart** at 400 games (the interval holds 50%)"),
    ],
)
def test_the_depth_block_reads_more_search_against_less_off_the_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rate: float, low: float, high: float, says: str
) -> None:
    pairs = [_pair("mcts:800", "mcts:200", rate, low, high)]
    _depth_file(tmp_path, "farrapos", "", 2, {"mode": "round_robin", "pairs": pairs})
    monkeypatch.chdir(tmp_path)
    block = pages.depth_block()
    assert "| farrapos | `mcts:800` | `mcts:200` | 400 |" in block
    assert "More search against less: farrapos: `mcts:800` scores " in block
    assert block.rstrip().endswith(pages.marks("depth")[1]) and says in block


def test_the_depth_block_reads_a_cooperative_game_s_two_win_rates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    def solo(agent: str, wins: int, low: float, high: float) -> dict:
        rate = wins / 400
        return {"agent": agent, "level": "6-4-3-4-2", "games": 400, "wins": wins} | {
            "win_rate": rate,
            "ci_low": low,
            "ci_high": high,
        }

    rows = [solo("mcts:200", 92, 0.19, 0.27), solo("mcts:800", 96, 0.20, 0.28)]
    _depth_file(
        tmp_path, "hispania", " --levels 6-4-3-4-2", 1, {"mode": "cooperative", "solo": rows}
    )
    monkeypatch.chdir(tmp_path)
    block = pages.depth_block()
    assert "| hispania (level=6-4-3-4-2) | `mcts:800` (every Roman general) | the game |" in block
    assert (
        "hispania: Rome wins 24.0% with `mcts:800` and 23.0% with `mcts:200`: **not apart** "
        "at 400 games (the intervals overlap)"
    ) in block


def test_a_network_trained_from_another_shows_the_training_it_started_from(
    tmp_path: Path,
) -> None:
    """Farrapos's shipped network is self-play from the warm-up network: the page gives the
    warm-up's command and budget too, read from that file's own record."""
    warmup = "benchmarks/results/farrapos-selfplay/warmup.npz"
    for command in (f"boardsim train farrapos --init {warmup}", f"boardsim train --init={warmup}"):
        lines = pages._started_from({"command": command})
        assert lines[0] == f"It started from `{warmup}`, itself trained by:"
        assert "--warmup-iterations 3" in "\n".join(lines)
        assert (
            "(3 iterations, 384 self-play games, 50 minutes; its iteration 3.) This run:" in lines
        )
    assert pages._started_from({"command": "boardsim train farrapos --seed 1"}) == []
    assert pages._started_from({"command": f"boardsim train --init {tmp_path}/none.npz"}) == []
    bare = Network.load(warmup)
    bare.meta = {k: v for k, v in bare.meta.items() if k != "training"}
    bare.save(tmp_path / "bare.npz")
    assert pages._started_from({"command": f"boardsim train --init {tmp_path}/bare.npz"}) == []
    assert "itself trained by" in pages.alphazero_block()


def test_a_network_trained_in_stages_shows_each_stage_earliest_first(tmp_path: Path) -> None:
    """Warm-up, then a first self-play stage from it, then the shipped run from that one:
    the page gives both earlier stages, the warm-up first; a chain that loops back on
    itself stops where it repeats."""
    warmup = "benchmarks/results/farrapos-selfplay/warmup.npz"
    middle = Network.load(warmup)
    record = dict(middle.meta["training"])
    record["command"] = f"boardsim train farrapos --init {warmup} --seed 7"
    record["iterations"], record["games"], record["wall_seconds"] = 5, 320, 600.0
    middle.meta = {**middle.meta, "training": record}
    middle.save(tmp_path / "middle.npz")
    lines = pages._started_from({"command": f"boardsim train --init {tmp_path}/middle.npz"})
    text = "\n".join(lines)
    assert lines[0] == f"Its first stage, `{warmup}`, was trained by:"
    assert f"Then `{tmp_path}/middle.npz`, from the stage before, by:" in lines
    assert text.index("--warmup-iterations 3") < text.index("--seed 7")
    assert "(5 iterations, 320 self-play games, 10 minutes; its iteration 3.) This run:" in lines
    assert text.count("This run:") == 1
    looped = Network.load(warmup)
    looped.meta = {
        **looped.meta,
        "training": {**record, "command": f"boardsim train --init {tmp_path}/loop.npz"},
    }
    looped.save(tmp_path / "loop.npz")
    lines = pages._started_from({"command": f"boardsim train --init {tmp_path}/loop.npz"})
    assert lines[0] == f"It started from `{tmp_path}/loop.npz`, itself trained by:"
