"""The ``boardsim`` command: bad arguments are refused (the demo's own tests: test_demo.py)."""

from __future__ import annotations

import pytest

from boardsim.cli import main


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--game", "chess"])
    assert main(["demo", "--games", "0"]) == 2
