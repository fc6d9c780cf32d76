"""Argument conventions shared by the subcommands.

A list of agents (``play --vs``, ``eval --agents``) is given comma-separated, repeated,
or both: ``--vs random,greedy`` is ``--vs random --vs greedy``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

LIST_HELP = "comma-separated, or the flag repeated"


def add_list_argument(
    parser: argparse.ArgumentParser,
    flag: str,
    help: str,
    metavar: str = "A,B,...",
    required: bool = False,
) -> None:
    """Add ``flag`` taking a list the commands' one way: ``a,b`` or ``a`` then ``b``."""
    parser.add_argument(
        flag, action="append", metavar=metavar, required=required, help=f"{help} ({LIST_HELP})"
    )


def split_list(values: Sequence[str] | None) -> list[str]:
    """``["random,greedy", "mcts:50"]`` -> ``["random", "greedy", "mcts:50"]`` (blanks dropped)."""
    return [item.strip() for value in values or [] for item in value.split(",") if item.strip()]
