"""A small balance study run when the site is built: the race's seats, heuristic vs random.

It is ``boardsim balance liberation --grid num_players=2,3,4 --grid seat=all --agents
heuristic,random --games-per-cell 200`` then ``boardsim balance report``, in a temporary
folder; the report's Markdown and plots go into the balance guide.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

GAME = "liberation"
GRID = ["num_players=2,3,4", "seat=all"]
AGENTS = ["heuristic", "random"]
GAMES_PER_CELL = 200
SEED = 0


def run() -> tuple[str, dict[str, bytes]]:
    """The study as Markdown (images under ``img/``) and its PNG plots by file name."""
    from boardsim.research.report import write_report
    from boardsim.research.sweep import parse_grid, run_sweep

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "study"
        run_sweep(GAME, parse_grid(GAME, GRID), AGENTS, GAMES_PER_CELL, out, seed=SEED)
        report = write_report(out).read_text(encoding="utf-8")
        images = {
            f"balance-{p.name}": p.read_bytes() for p in sorted((out / "plots").glob("*.png"))
        }
    report = re.sub(r"\]\(plots/([^)]+)\)", r"](img/balance-\1)", report)
    report = re.sub(r"^# ", "### ", report, flags=re.M)
    report = re.sub(r"^## ", "#### ", report, flags=re.M)
    command = (
        f"boardsim balance {GAME} "
        + " ".join(f"--grid {g}" for g in GRID)
        + f" --agents {','.join(AGENTS)} --games-per-cell {GAMES_PER_CELL} --seed {SEED} "
        "--out runs/race-seats\nboardsim balance report runs/race-seats"
    )
    head = (
        "\n## A study made when this site was built\n\n"
        "The heuristic in each seat of the race against random players, 2 to 4 players: "
        "does a seat matter, and how much better than random is the rule-based player? "
        "The numbers and plots below were computed by the build itself, exactly as\n\n"
        f"```bash\n{command}\n```\n\nwould compute them (same seed, same games):\n\n"
    )
    return head + report, images
