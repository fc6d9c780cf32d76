"""Argument conventions shared by the subcommands.

A list of agents (``play --vs``, ``eval --agents``) is given comma-separated, repeated,
or both: ``--vs random,greedy`` is ``--vs random --vs greedy``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from boardsim.core.game import checked_seed

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


def seed_argument(text: str) -> int:
    """``--seed``'s type: an integer by the library's one seed rule
    (:func:`boardsim.core.game.checked_seed`), else argparse's usage error saying so."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be an integer, got {text!r}") from None
    try:
        return checked_seed(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_command(subparsers: Any, name: str, help: str, doc: str | None) -> argparse.ArgumentParser:
    """Register the subcommand ``name``: ``help`` in ``boardsim --help``, its module's
    docstring ``doc`` as its own ``--help`` text, kept as written."""
    return subparsers.add_parser(
        name,
        help=help,
        description=doc,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def add_backend_arguments(p: argparse.ArgumentParser) -> None:
    """``--backend local|ray`` and ``--address``: where a tournament's games are played."""
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="ray: the games played in compiled code go to a Ray cluster as tasks, every "
        "pair at once, with the local result (default local)",
    )
    p.add_argument(
        "--address",
        default=None,
        help="with --backend ray: the cluster (auto, host:6379, ray://host:10001); "
        "default: a local Ray",
    )
