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


def for_a_person(text: str, stream) -> str:
    """``text`` as written to ``stream``: with its controls shown as ``?`` when a person's
    terminal reads it (an OSC in a memory can write the clipboard or retitle the window);
    as it is for a program (an agent's hook, a pipe), whose text it is."""
    isatty = getattr(stream, "isatty", None)
    return printable(text) if isatty is not None and isatty() else text
