"""A griffe extension for the API reference: Sphinx roles in docstrings as code.

boardsim's docstrings name other objects the Sphinx way (``:class:`Game```,
``:func:`~boardsim.agents.load```); the reference is Markdown, so each role becomes
inline code of the name as it would show (``Game``, ``load``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")


def plain(text: str) -> str:
    """Sphinx roles replaced by code spans (``~`` keeps only the last part of the name)."""

    def one(m: re.Match[str]) -> str:
        name = m.group(2)
        return f"`{name.rsplit('.', 1)[-1] if m.group(1) else name}`"

    return ROLE.sub(one, text)


class SphinxRoles(griffe.Extension):
    """Rewrite the roles of every docstring griffe loads."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
