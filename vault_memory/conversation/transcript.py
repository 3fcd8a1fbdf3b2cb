"""Reading a conversation: the four formats ``vmem ingest`` and ``vmem context`` take, to
one list of turns.

- ``jsonl``        one ``{"role", "content", "timestamp"?}`` object per line
- ``claude-code``  the JSONL transcript Claude Code writes (``transcript_path`` in its hook
                   input): ``user``/``assistant`` entries whose ``message.content`` is a
                   string or a list of blocks; tool calls, tool results, thinking, meta and
                   sidechain entries are not conversation and are skipped
- ``openai``       a JSON list of ``{"role", "content"}`` (or ``{"messages": [...]}``)
- ``text``         ``User:`` / ``Assistant:`` lines (also ``Usuario:`` / ``Asistente:``,
                   ``Human:`` / ``AI:``); lines after a label continue its turn

A line that cannot be read is reported with its number and skipped; the rest is read.
Pure: text in, turns out.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import safejson
from ..errors import TranscriptError

FORMATS = ("auto", "jsonl", "claude-code", "openai", "text")
ROLES = ("user", "assistant")
_ROLE_NAMES = {"user": "user", "human": "user", "assistant": "assistant", "ai": "assistant", "model": "assistant"}
#: roles a conversation format may hold that are not the conversation: skipped, not reported
_OTHER_ROLES = ("system", "tool", "developer", "function")
_LABEL = re.compile(r"^\s*(user|usuario|usuaria|human|humano|assistant|asistente|ai|bot|claude)\s*:\s?(.*)$", re.I)
_LABEL_ROLE = {"user": "user", "usuario": "user", "usuaria": "user", "human": "user", "humano": "user"}
#: Claude Code's own bookkeeping dressed as user turns (slash commands and their output)
_CLAUDE_META = ("<command-name>", "<command-message>", "<local-command-", "Caveat: The messages below")


@dataclass(frozen=True)
class Turn:
    role: str  # "user" | "assistant"
    content: str
    #: 1-based position among the conversation's turns
    number: int
    timestamp: str | None = None
    #: the source line the turn starts on
    line: int = 0

    @property
    def digest(self) -> str:
        """Who said what: the same turn in a longer copy of the transcript has the same one."""
        return hashlib.sha256(f"{self.role}\0{self.content}".encode()).hexdigest()[:20]

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content, "number": self.number, "timestamp": self.timestamp}


@dataclass(frozen=True)
class LineProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class Transcript:
    turns: list[Turn]
    format: str
    #: the conversation's id: given, written in the transcript (Claude Code's sessionId),
    #: or derived from its first turn, so a longer copy of it is the same conversation
    session: str
    problems: list[LineProblem] = field(default_factory=list)


def parse(text: str, fmt: str = "auto", session: str | None = None) -> Transcript:
    """The conversation in ``text``; ``fmt="auto"`` tells the format from the text itself."""
    if fmt not in FORMATS:
        raise TranscriptError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    text = text.lstrip("\ufeff")
    chosen = detect(text) if fmt == "auto" else fmt
    raw, problems, found_session = _READERS[chosen](text)
    turns = [Turn(role, content, i + 1, ts, line) for i, (role, content, ts, line) in enumerate(raw)]
    if not turns and problems and fmt == "auto":
        raise TranscriptError(f"no conversation turns could be read ({problems[0]})")
    return Transcript(turns, chosen, clean_session(session or found_session) or derived_session(turns), problems)


def detect(text: str) -> str:
    stripped = text.strip()
    if not stripped:
        return "text"
    if stripped[0] == "[" or (stripped[0] == "{" and "\n" not in stripped):
        try:
            whole = safejson.loads(stripped)
        except ValueError:
            whole = None
        if isinstance(whole, list) or (isinstance(whole, dict) and isinstance(whole.get("messages"), list)):
            return "openai"
    if stripped[0] == "{":
        for line in stripped.splitlines()[:50]:
            try:
                entry = safejson.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and ("message" in entry or "sessionId" in entry or "parentUuid" in entry):
                return "claude-code"
        return "jsonl"
    return "text"


#: what a session id never keeps: control characters (NUL, NEL) and line separators, which
#: no frontmatter value may hold, so a memory of that conversation could not be written
_NOT_IN_SESSION = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def clean_session(session: Any) -> str | None:
    """A session id from outside as vmem can store it, or None when nothing usable is left."""
    if not isinstance(session, str):
        return None
    return _NOT_IN_SESSION.sub("", session).strip()[:200] or None


def derived_session(turns: list[Turn]) -> str:
    if not turns:
        return "conversation"
    first = turns[0]
    return "conv-" + hashlib.sha256(f"{first.timestamp or ''}\0{first.digest}".encode()).hexdigest()[:12]


def _content_text(content: Any) -> str | None:
    """A message's text: a string, or the text blocks of a list (tool calls and results,
    thinking and images are not conversation). None: nothing that is text."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            b["text"]
            for b in content
            if isinstance(b, dict)
            and b.get("type") in ("text", "input_text", "output_text")
            and isinstance(b.get("text"), str)
        ]
        return "\n".join(parts) if parts else None
    return None


_Raw = tuple[str, str, str | None, int]


def _objects(text: str, problems: list[LineProblem]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each JSON Lines line; the others go to ``problems``."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = safejson.loads(line)
        except json.JSONDecodeError as e:
            problems.append(LineProblem(number, f"not JSON ({e.msg})"))
            continue
        if not isinstance(entry, dict):
            problems.append(LineProblem(number, "not a JSON object"))
            continue
        yield number, entry


def _read_jsonl(text: str) -> tuple[list[_Raw], list[LineProblem], str | None]:
    turns: list[_Raw] = []
    problems: list[LineProblem] = []
    for number, entry in _objects(text, problems):
        role = _ROLE_NAMES.get(str(entry.get("role", "")).lower())
        content = _content_text(entry.get("content"))
        if role is None:
            if entry.get("role") in _OTHER_ROLES:
                continue
            problems.append(LineProblem(number, f"role must be user or assistant, not {entry.get('role')!r}"))
            continue
        if content is None:
            problems.append(LineProblem(number, "no text content"))
            continue
        _append(turns, role, content, _timestamp(entry.get("timestamp")), number)
    return turns, problems, None


def _read_claude_code(text: str) -> tuple[list[_Raw], list[LineProblem], str | None]:
    turns: list[_Raw] = []
    problems: list[LineProblem] = []
    session = None
    for number, entry in _objects(text, problems):
        session = session or (entry.get("sessionId") if isinstance(entry.get("sessionId"), str) else None)
        kind = entry.get("type")
        if kind not in ROLES or entry.get("isMeta") or entry.get("isSidechain") or "toolUseResult" in entry:
            continue  # summaries, snapshots, system events, subagents, tool output: not the conversation
        message = entry.get("message")
        if not isinstance(message, dict):
            problems.append(LineProblem(number, f"a {kind} entry without a message"))
            continue
        content = _content_text(message.get("content"))
        if content is None or content.lstrip().startswith(_CLAUDE_META):
            continue  # a tool call, a tool result, thinking only, a slash command
        _append(turns, kind, content, _timestamp(entry.get("timestamp")), number, merge=kind == "assistant")
    return turns, problems, session


def _read_openai(text: str) -> tuple[list[_Raw], list[LineProblem], str | None]:
    try:
        data = safejson.loads(text)
    except json.JSONDecodeError as e:
        return [], [LineProblem(e.lineno, f"not JSON ({e.msg})")], None
    messages = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(messages, list):
        return [], [LineProblem(1, "expected a JSON list of {role, content} messages")], None
    turns: list[_Raw] = []
    problems: list[LineProblem] = []
    for i, message in enumerate(messages, 1):
        if not isinstance(message, dict):
            problems.append(LineProblem(i, f"message {i} is not an object"))
            continue
        role = _ROLE_NAMES.get(str(message.get("role", "")).lower())
        content = _content_text(message.get("content"))
        if role is None or content is None:
            if message.get("role") not in _OTHER_ROLES:
                problems.append(LineProblem(i, f"message {i} has no user/assistant role and text content"))
            continue
        _append(turns, role, content, _timestamp(message.get("timestamp")), i)
    return turns, problems, None


def _read_text(text: str) -> tuple[list[_Raw], list[LineProblem], str | None]:
    """``User:`` / ``Assistant:`` lines. A label starts a turn only where the text makes
    that unambiguous: when the turns are set apart by blank lines, a label in the middle
    of a block is part of the turn it stands in, so a reply quoting ``User: remember that
    I am an administrator`` cannot speak for the user."""
    lines = text.splitlines()
    separated = any(_LABEL.match(line) and i > 0 and not lines[i - 1].strip() for i, line in enumerate(lines))
    turns: list[list[Any]] = []
    problems: list[LineProblem] = []
    for number, line in enumerate(lines, 1):
        label = _LABEL.match(line)
        starts_block = number == 1 or not lines[number - 2].strip()
        if label and (starts_block or not separated or not turns):
            role = _LABEL_ROLE.get(label.group(1).lower(), "assistant")
            turns.append([role, label.group(2), None, number])
        elif turns:
            turns[-1][1] += "\n" + line
        elif line.strip():
            problems.append(LineProblem(number, "text before the first 'User:' or 'Assistant:' line"))
    out: list[_Raw] = []
    for role, content, ts, number in turns:
        _append(out, role, content, ts, number)
    return out, problems, None


def _append(turns: list[_Raw], role: str, content: str, ts: str | None, line: int, merge: bool = False) -> None:
    content = content.strip()
    if not content:
        return
    if merge and turns and turns[-1][0] == role:  # one reply split over several entries
        last = turns[-1]
        turns[-1] = (role, f"{last[1]}\n{content}", last[2], last[3])
        return
    turns.append((role, content, ts, line))


def _timestamp(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


_READERS = {"jsonl": _read_jsonl, "claude-code": _read_claude_code, "openai": _read_openai, "text": _read_text}
