"""The command-line reference page: every ``boardsim`` subcommand's own ``--help``."""

from __future__ import annotations

import argparse
import os


def _parser() -> argparse.ArgumentParser:
    os.environ["COLUMNS"] = "100"  # the width argparse wraps help at
    from boardsim import cli

    return cli.build_parser()


def page() -> str:
    """``boardsim --help`` and each subcommand's help, as the parser prints them."""
    parser = _parser()
    out = [
        "# Command line",
        "",
        "Generated from the argument parsers of `boardsim` when the site was built: what "
        "`boardsim COMMAND --help` prints.",
        "",
        "```text",
        parser.format_help().rstrip(),
        "```",
        "",
    ]
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in subparsers.choices.items():
        if any(
            sub is seen
            for seen in list(subparsers.choices.values())[: list(subparsers.choices).index(name)]
        ):
            continue  # an alias
        out += [f"## `boardsim {name}`", "", "```text", sub.format_help().rstrip(), "```", ""]
    return "\n".join(out)
