"""The library's error classes. Every one is a ``ValueError``: bad input, clearly named."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["DataError", "IllegalActionError", "OptionError", "StateFormatError"]


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the current state.

    The message names the action (number and words) and lists the legal ones; ``legal``
    None when the refusal is about the form of the actions, not a position (a float, a
    count that does not match the envs), and the message lists none.
    """

    def __init__(
        self, action: Any, legal: list[int] | None, described: str = "", names: str = ""
    ) -> None:
        self.action = action
        self.legal = list(legal) if legal is not None else []
        shown_action = str(action) if isinstance(action, int | np.integer) else repr(action)
        what = shown_action + (f" ({described})" if described else "")
        if legal is None and not names:
            super().__init__(f"illegal action {what}")
            return
        shown = names or ", ".join(str(a) for a in self.legal[:40])
        if not names and len(self.legal) > 40:
            shown += f", ... ({len(self.legal)} in all)"
        super().__init__(f"illegal action {what}; legal actions: {shown}")


def as_action(value: Any, legal: Any = ()) -> int:
    """``value`` as an action number: a Python or numpy integer, or a 0-d integer array.
    Anything else (a float such as 3.5, a string, a bool, None) raises
    :class:`IllegalActionError` saying what was given; ``legal`` (the legal actions, or a
    callable giving them) goes into the message."""
    if type(value) is int:  # the common case, first
        return value
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_):
        return int(value)
    shown = list(legal() if callable(legal) else legal)
    kind = type(value).__name__
    raise IllegalActionError(value, shown, f"a {kind}, not an integer: actions are integers")


class OptionError(ValueError):
    """An unknown option, or a value outside the allowed ones (the message lists them)."""


class DataError(ValueError):
    """A malformed data file: names the file, the entry and the reason."""

    def __init__(self, file: str, entry: str, reason: str) -> None:
        self.file = file
        self.entry = entry
        self.reason = reason
        super().__init__(f"{file}: {entry}: {reason}")


class StateFormatError(ValueError):
    """A saved state (bytes) that is corrupted, truncated or from another game or format."""
