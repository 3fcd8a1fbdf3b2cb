"""A settings file's JSON edited in place: one member set or removed, every other byte
(indentation, key order, line endings, and comments where the program that owns the file
reads them, as the Gemini CLI does) left as it was.

Parsing is strict where a rewrite could change a value: ``NaN``, ``Infinity`` and numbers
too large for a float (``1e400``, read as infinity and written back as ``Infinity``, which
is not JSON) are refused with the reason, and vmem writes nothing.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ..errors import ConfigError

#: a comment (// to the end of the line, or /* … */) or a string, which may hold either
_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/', re.S)


def without_comments(text: str) -> str:
    """``text`` with each comment replaced by spaces (its newlines kept), so every other
    character stays at its place."""

    def blank(match: re.Match[str]) -> str:
        token = match.group(0)
        return token if token.startswith('"') else re.sub(r"[^\n]", " ", token)

    return _TOKENS.sub(blank, text)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"holds {name}, which is not JSON")


def _finite(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise ValueError(f"holds {literal}, a number too large to write back as it is")
    return value


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite)


def loads(text: str, *, comments: bool = False) -> Any:
    """The data in ``text``; ``ValueError`` with the reason for anything vmem could not
    write back unchanged."""
    source = without_comments(text) if comments else text
    try:
        value, end = _DECODER.raw_decode(source, _skip(source, 0))
    except RecursionError:
        raise ValueError("nested too deeply to read") from None
    if _skip(source, end) != len(source):
        raise ValueError(f"extra data after the JSON value (character {end})")
    return value


def set_member(text: str, path: list[str], key: str, value: Any, *, comments: bool = False) -> str:
    """``text`` with ``path`` + ``key`` set to ``value`` (objects on ``path`` created as
    needed); the member's old value, if any, is the only text replaced."""
    source = without_comments(text) if comments else text
    parent, missing = _deepest(source, path)
    open_at, members, close_at = parent
    nested: Any = value
    for name in reversed([*missing, key][1:]):
        nested = {name: nested}
    name = ([*missing, key])[0]
    newline = "\r\n" if "\r\n" in text else "\n"
    existing = [m for m in members if m[0] == name]
    if existing:
        _, key_at, value_at, end = existing[-1]
        indent = _indent_of(text, key_at)
        return text[:value_at] + _dump(nested, indent, newline) + text[end:]
    indent = _indent_of(text, members[0][1]) if members else _indent_of(text, open_at) + "  "
    member = f"{json.dumps(name, ensure_ascii=False)}: {_dump(nested, indent, newline)}"
    line_start = text.rfind("\n", 0, close_at) + 1
    if members:
        last_end = members[-1][3]
        if text[line_start:close_at].strip() == "" and line_start > last_end:
            # the closing brace on a line of its own: the new member on the line before it
            return text[:last_end] + "," + text[last_end:line_start] + indent + member + newline + text[line_start:]
        return text[:last_end] + ", " + member + text[last_end:]
    if text[line_start:close_at].strip() == "" and line_start > open_at:
        return text[:line_start] + indent + member + newline + text[line_start:]
    close_indent = _indent_of(text, open_at)
    return text[: open_at + 1] + newline + indent + member + newline + close_indent + text[close_at:]


def remove_member(text: str, path: list[str], key: str, *, comments: bool = False) -> str:
    """``text`` without the member ``path`` + ``key`` (and the comma that joined it);
    ``text`` as it was when there is none."""
    source = without_comments(text) if comments else text
    parent, missing = _deepest(source, path)
    if missing:
        return text
    _, members, _ = parent
    for i, (name, key_at, _, end) in enumerate(members):
        if name != key:
            continue
        line_start = text.rfind("\n", 0, key_at) + 1
        alone = text[line_start:key_at].strip() == ""  # the member starts its line
        start = line_start if alone else key_at
        after = _skip(source, end)
        if source[after] == ",":  # the comma after it goes with it
            stop = _line_end(text, after + 1) if alone else after + 1
            return text[:start] + text[stop:]
        stop = _line_end(text, end) if alone else end
        if i:  # the last member: the comma before it goes (what stands between stays)
            comma = source.index(",", members[i - 1][3])
            return text[:comma] + text[comma + 1 : start] + text[stop:]
        return text[:start] + text[stop:]
    return text


# ---------------------------------------------------------------------------- reading positions

Members = list[tuple[str, int, int, int]]  # (key, where its key starts, where its value starts, ends)


def _deepest(source: str, path: list[str]) -> tuple[tuple[int, Members, int], list[str]]:
    """The innermost object on ``path`` that exists ((where it opens, its members, where
    it closes)) and the names of ``path`` below it that do not."""
    at = _skip(source, 0)
    if source[at : at + 1] != "{":
        raise ConfigError("the file must hold a JSON object")
    current = (at, *_members(source, at))
    for depth, name in enumerate(path):
        found = [m for m in current[1] if m[0] == name]
        if not found:
            return current, path[depth:]
        value_at = found[-1][2]
        if source[value_at] != "{":
            raise ConfigError(f"{'.'.join(path[: depth + 1])} must be a JSON object")
        current = (value_at, *_members(source, value_at))
    return current, []


def _members(source: str, open_at: int) -> tuple[Members, int]:
    members: Members = []
    i = _skip(source, open_at + 1)
    if source[i] == "}":
        return members, i
    while True:
        key_at = i
        key, i = _DECODER.raw_decode(source, i)
        i = _skip(source, i)
        if source[i] != ":":
            raise ValueError(f"expected ':' at character {i}")
        value_at = _skip(source, i + 1)
        _, end = _DECODER.raw_decode(source, value_at)
        members.append((key, key_at, value_at, end))
        i = _skip(source, end)
        if source[i] == ",":
            i = _skip(source, i + 1)
            if source[i] == "}":  # a trailing comma, where the owner allows it
                return members, i
            continue
        if source[i] == "}":
            return members, i
        raise ValueError(f"expected ',' or '}}' at character {i}")


def _skip(source: str, i: int) -> int:
    while i < len(source) and source[i] in " \t\r\n":
        i += 1
    return i


def _indent_of(text: str, at: int) -> str:
    line_start = text.rfind("\n", 0, at) + 1
    line = text[line_start:at]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _line_end(text: str, at: int) -> int:
    """Past the end of the line ``at`` is on, when only blanks follow it there."""
    end = text.find("\n", at)
    if end == -1 or text[at:end].strip():
        return at
    return end + 1


def _dump(value: Any, indent: str, newline: str) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", newline + indent)
