"""Git's conflict markers in a text (a pure rule): a file git left mid-merge holds two
versions at once, and neither is a memory until a person keeps one (``MergeConflict``);
a write that would leave such markers in a file is refused."""

from __future__ import annotations

import re


def merge_conflict(text: str) -> tuple[int, str, str] | None:
    """Where git's conflict markers in ``text`` begin, and the two sides they name ("HEAD",
    "11aa6c2", "origin/main"): a ``<<<<<<<`` line, then a ``=======`` line, then a
    ``>>>>>>>`` line, in that order; None when the text holds no such run (a Markdown rule
    of ``=======`` alone is none)."""
    if "<<<<<<<" not in text:
        return None
    opened: tuple[int, str] | None = None
    middle = fenced = False
    for number, line in enumerate(text.splitlines(), 1):  # every line break recall reads as one
        if line.lstrip().startswith(("```", "~~~")):  # markers quoted in a code block are text
            fenced = not fenced
        elif fenced:
            continue
        elif _MARKER_OPEN.match(line):
            opened, middle = (number, line.lstrip("<").strip() or "one side"), False
        elif opened is not None and _MARKER_MIDDLE.match(line):
            middle = True
        elif opened is not None and middle and _MARKER_CLOSE.match(line):
            return opened[0], opened[1], line.lstrip(">").strip() or "the other side"
    return None


#: git's conflict markers, seven or more characters (``merge.conflictStyle``'s
#: ``conflict-marker-size`` may set more)
_MARKER_OPEN = re.compile(r"<{7,}(?:\s|$)")
_MARKER_MIDDLE = re.compile(r"={7,}\s*$")
_MARKER_CLOSE = re.compile(r">{7,}(?:\s|$)")
