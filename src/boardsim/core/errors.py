"""The library's error classes. Every one is a ``ValueError``: bad input, clearly named."""

from __future__ import annotations

__all__ = ["DataError", "IllegalActionError", "OptionError", "StateFormatError"]


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the current state.

    The message names the action (number and words) and lists the legal ones.
    """

    def __init__(self, action: int, legal: list[int], described: str = "", names: str = "") -> None:
        self.action = action
        self.legal = list(legal)
        what = f"{action}" + (f" ({described})" if described else "")
        shown = names or ", ".join(str(a) for a in self.legal[:40])
        if not names and len(self.legal) > 40:
            shown += f", ... ({len(self.legal)} in all)"
        super().__init__(f"illegal action {what}; legal actions: {shown}")


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
