"""The exports people have: files that hold many conversations, each read on its own.

- ``chatgpt``       ChatGPT's data export (``conversations.json``): a list of conversations,
                    each a ``mapping`` tree of message nodes. Only the branch the user saw last
                    is read: from ``current_node`` up to the root (or from the newest leaf when
                    there is no current node), so an edited message's abandoned branch is not.
                    System, tool and hidden messages, the assistant's tool calls
                    (``recipient`` other than ``all``), thoughts and code output are not turns.
- ``claude-ai``     Claude.ai's data export (``conversations.json``): a list of conversations
                    with ``chat_messages`` (``sender`` human | assistant, ``content`` blocks or
                    ``text``). Attachments are file contents, not the user's words: not read.
- ``openai-jsonl``  OpenAI chat JSONL (the fine-tuning format): one ``{"messages": [...]}``
                    conversation per line; ``system`` and ``tool`` messages skipped.

A conversation that cannot be read is reported with its number and title, a message with
its number inside it, and skipped; the rest is read. Pure: text in, conversations out.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from .. import safejson

EXPORT_FORMATS = ("chatgpt", "claude-ai", "openai-jsonl")

#: (role, content, timestamp, message number within its conversation)
RawTurn = tuple[str, str, "str | None", int]

_ROLES = {"user": "user", "human": "user", "assistant": "assistant"}
#: roles that are not the conversation: skipped, never reported
_SILENT_ROLES = ("system", "tool", "developer", "function")
#: ChatGPT content types that hold what the user or the assistant wrote
_CHATGPT_TEXT = ("text", "multimodal_text")
#: ChatGPT content types that are not the conversation: skipped without a word (another
#: type is reported, so a new kind of message is seen rather than silently dropped)
_CHATGPT_NOT_TEXT = (
    "thoughts",
    "reasoning_recap",
    "code",
    "execution_output",
    "tether_browsing_display",
    "tether_quote",
    "system_error",
    "user_editable_context",
    "model_editable_context",
    "sonic_webpage",
    "computer_output",
    "app_pairing_content",
)


@dataclass
class RawConversation:
    #: where it is in the file: "conversation 3 'Trip to Lisbon'" or "line 7"
    where: str
    turns: list[RawTurn] = field(default_factory=list)
    #: (message number, what is wrong); 0 = the conversation as a whole
    problems: list[tuple[int, str]] = field(default_factory=list)
    session: str | None = None
    title: str | None = None
    started: str | None = None


def detect_export(whole: Any) -> str | None:
    """The export format of an already decoded JSON document, or None."""
    first = whole[0] if isinstance(whole, list) and whole else whole
    if isinstance(whole, dict) and isinstance(whole.get("conversations"), list):
        return detect_export(whole["conversations"])
    if not isinstance(first, dict):
        return None
    if isinstance(first.get("mapping"), dict):
        return "chatgpt"
    if isinstance(first.get("chat_messages"), list):
        return "claude-ai"
    return None


def read_export(text: str, fmt: str) -> tuple[list[RawConversation], list[str]]:
    """Every conversation of ``text`` in format ``fmt``, and what made the file unreadable."""
    if fmt == "openai-jsonl":
        return _read_openai_jsonl(text), []
    try:
        whole = safejson.loads(text)
    except json.JSONDecodeError as e:
        return [], [f"line {e.lineno}: not JSON ({e.msg})"]
    if isinstance(whole, dict) and isinstance(whole.get("conversations"), list):
        whole = whole["conversations"]
    items = whole if isinstance(whole, list) else [whole]
    reader = _chatgpt if fmt == "chatgpt" else _claude_ai
    conversations = []
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict):
            conversations.append(RawConversation(f"conversation {number}", problems=[(0, "not a JSON object")]))
            continue
        title = item.get("title") if fmt == "chatgpt" else item.get("name")
        title = title.strip()[:200] if isinstance(title, str) and title.strip() else None
        where = f"conversation {number}" + (f" {title!r}" if title else "")
        conversations.append(reader(item, RawConversation(where, title=title)))
    return conversations, []


def _chatgpt(item: dict[str, Any], conv: RawConversation) -> RawConversation:
    conv.session = _text(item.get("conversation_id")) or _text(item.get("id"))
    conv.started = _when(item.get("create_time"))
    mapping = item.get("mapping")
    if not isinstance(mapping, dict):
        conv.problems.append((0, "no 'mapping' of messages"))
        return conv
    current = item.get("current_node")
    if current is not None and not (isinstance(current, str) and isinstance(mapping.get(current), dict)):
        conv.problems.append(
            (0, f"current_node {str(current)[:40]!r} is not a message of the mapping; read the newest branch")
        )
    for number, node in enumerate(_current_branch(mapping, current), 1):
        message = node.get("message")
        if not isinstance(message, dict):
            continue  # the root, or a node whose message was deleted
        author = message.get("author")
        role_name = author.get("role") if isinstance(author, dict) else None
        role = _role(conv, number, role_name, "author role", "user or assistant")
        metadata = message.get("metadata")
        hidden = isinstance(metadata, dict) and flag(metadata.get("is_visually_hidden_from_conversation"))
        if role is None or hidden or message.get("recipient") not in (None, "all"):
            continue  # context the UI hides, the assistant calling a tool
        words = _chatgpt_words(message, number, conv)
        if words is not None:
            _add(conv, role, words, _when(message.get("create_time")), number)
    return conv


def _chatgpt_words(message: dict[str, Any], number: int, conv: RawConversation) -> str | None:
    """A ChatGPT message's text, or None for content that is not words said (thoughts,
    code, execution output, browsing, custom instructions); an unknown kind is reported."""
    content = message.get("content")
    if not isinstance(content, dict):
        conv.problems.append((number, "no content"))
        return None
    kind = content.get("content_type")
    if kind not in _CHATGPT_TEXT:
        if kind not in _CHATGPT_NOT_TEXT:
            conv.problems.append((number, f"content type {kind!r} is not read"))
        return None
    parts = content.get("parts")
    return "\n".join(p for p in parts if isinstance(p, str)) if isinstance(parts, list) else ""


def _current_branch(mapping: dict[str, Any], current: Any) -> list[dict[str, Any]]:
    """The nodes from the root down to ``current`` (or the newest leaf). A cycle or a
    missing parent ends the walk instead of looping or failing."""
    nodes = {key: node for key, node in mapping.items() if isinstance(node, dict)}
    if not (isinstance(current, str) and current in nodes):
        leaves = [
            (_created(node), order, key) for order, (key, node) in enumerate(nodes.items()) if not node.get("children")
        ]
        if not leaves:
            return []
        current = max(leaves)[2]  # the newest; of equally old ones, the last in the file
    branch: list[dict[str, Any]] = []
    seen: set[str] = set()
    key: Any = current
    while isinstance(key, str) and key in nodes and key not in seen:
        seen.add(key)
        branch.append(nodes[key])
        key = nodes[key].get("parent")
    return branch[::-1]


def _created(node: dict[str, Any]) -> float:
    message = node.get("message")
    value = message.get("create_time") if isinstance(message, dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _role(conv: RawConversation, number: int, said: Any, field: str, allowed: str) -> str | None:
    """The turn role a message's ``field`` value names; a value that is neither a turn nor
    a known non-conversation role (system, tool, …) is reported."""
    role = _ROLES.get(str(said))
    if role is None and said not in _SILENT_ROLES:
        conv.problems.append((number, f"{field} must be {allowed}, not {said!r}"))
    return role


def _claude_ai(item: dict[str, Any], conv: RawConversation) -> RawConversation:
    conv.session = _text(item.get("uuid"))
    conv.started = _when(item.get("created_at"))
    messages = item.get("chat_messages")
    if not isinstance(messages, list):
        conv.problems.append((0, "no 'chat_messages' list"))
        return conv
    for number, message in enumerate(messages, 1):
        if not isinstance(message, dict):
            conv.problems.append((number, "not a JSON object"))
            continue
        role = _role(conv, number, message.get("sender"), "sender", "human or assistant")
        if role is None:
            continue
        blocks = message.get("content")
        words = (content_text(blocks) if isinstance(blocks, list) else None) or _text(message.get("text")) or ""
        _add(conv, role, words, _when(message.get("created_at")), number)
    return conv


def _read_openai_jsonl(text: str) -> list[RawConversation]:
    conversations = []
    for line_number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        conv = RawConversation(f"line {line_number}")
        conversations.append(conv)
        try:
            entry = safejson.loads(line)
        except json.JSONDecodeError as e:
            conv.problems.append((0, f"not JSON ({e.msg})"))
            continue
        messages = entry.get("messages") if isinstance(entry, dict) else None
        if not isinstance(messages, list):
            conv.problems.append((0, 'expected {"messages": [...]}'))
            continue
        for number, message in enumerate(messages, 1):
            if not isinstance(message, dict):
                conv.problems.append((number, "not a JSON object"))
                continue
            role = _role(conv, number, message.get("role"), "role", "user or assistant")
            if role is not None:
                words = content_text(message.get("content")) or ""
                _add(conv, role, words, _when(message.get("timestamp")), number)
    return conversations


def content_text(content: Any) -> str | None:
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


def _add(conv: RawConversation, role: str, words: str, when: str | None, number: int) -> None:
    words = words.strip()
    if words:
        conv.turns.append((role, words, when, number))


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _when(value: Any) -> str | None:
    """An ISO time from an ISO string or epoch seconds (ChatGPT writes floats)."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 4e10:
        return dt.datetime.fromtimestamp(value, dt.UTC).isoformat(timespec="seconds")
    return None


def flag(value: Any) -> bool:
    """A transcript's boolean as written, or as a string ("false" is not true: a turn marked
    so was dropped)."""
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return value is True or (isinstance(value, int) and value == 1)
