"""Text for a terminal: a file name or a daemon's warning may hold escape sequences (an
OSC that retitles the window, a cursor move that hides a line); what vmem prints of text it
did not write goes through ``printable`` first. Standard library only (the fast path)."""

from __future__ import annotations

import re

#: C0 and C1 controls but tab and newline, and DEL
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with every control character shown as ``?``."""
    return _CONTROLS.sub("?", text)
