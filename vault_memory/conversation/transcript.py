"""Reading a conversation: the formats ``vmem ingest`` and ``vmem context`` take, to one
list of turns per conversation.

- ``jsonl``        one ``{"role", "content", "timestamp"?}`` object per line
- ``claude-code``  the JSONL transcript Claude Code writes (``transcript_path`` in its hook
                   input): ``user``/``assistant`` entries whose ``message.content`` is a
                   string or a list of blocks. Only the user's own words are user turns: the
                   harness's entries dressed as the user (compaction summaries, task
                   notifications, slash commands and their output, shell output, system
                   reminders, interruption markers, meta and sidechain entries, tool
                   results) are not; a compaction summary is kept as what it is
                   (``Transcript.compactions``)
- ``openai``       a JSON list of ``{"role", "content"}`` (or ``{"messages": [...]}``)
- ``text``         ``User:`` / ``Assistant:`` lines (also ``Usuario:`` / ``Asistente:``,
                   ``Human:`` / ``AI:``); lines after a label continue its turn
- ``chatgpt``, ``claude-ai``, ``openai-jsonl``: exports that hold many conversations
                   (``exports``); ``parse_all`` reads every one, ``parse`` the only one

A line that cannot be read is reported with its number and skipped; the rest is read.
Pure: text in, turns out.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import safejson
from ..errors import InvalidInput, TranscriptError
from ..lang import ENGLISH, all_packs, fold_accents, pack
from ..lang import detect as language_of
from ..lang.text import longest_first
from ..vault.fsutil import NotRegular, read_regular
from ..vault.secrets import without_private
from ..vault.values import as_datetime
from .exports import EXPORT_FORMATS, content_text, detect_export, flag, read_export

ROLES = ("user", "assistant")
_ROLE_NAMES = {"user": "user", "human": "user", "assistant": "assistant", "ai": "assistant", "model": "assistant"}
#: roles a conversation format may hold that are not the conversation: skipped, not reported
_OTHER_ROLES = ("system", "tool", "developer", "function")
#: the speakers' labels of every pack ("User", "Usuario", "Utilizador", "ChatGPT"), each
#: with its role; a role that is not the user's is the assistant's (a system line too)
_LABEL_ROLE = {label: role for pack in all_packs() for label, role in pack.speaker_labels.items()}
#: a speaker's label opening a line: what may come before it (spaces, invisible characters,
#: Markdown's ``**``, ``##``, ``>``), the label, what may close it (``**``, accents folded
#: away: "Asistenté"), and its colon (``:``, ``：``, " -", " —")
_LABEL = re.compile(
    r"^(?P<before>[\s\u200b-\u200f\u2060\ufeff*#>_]{0,8})"
    rf"(?P<name>{'|'.join(longest_first(map(re.escape, _LABEL_ROLE)))})\w?"
    r"[*_]{0,3}[ \t]?(?::|：|[-—–](?=\s))[*_]{0,3}[ \t]?(?P<said>.*)$",
    re.I,
)
#: how Claude Code's harness text dressed as a user turn begins: slash commands and their
#: output, ``!`` shell input and output, background task notifications, hook and system
#: reminders, peers' messages, interruption markers, the compaction summary's opening
_HARNESS = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<task-notification>",
    "<system-reminder>",
    "<user-prompt-submit-hook>",
    "<cross-session-message",
    "<environment_context>",
    "Caveat: The messages below",
    "[Request interrupted by user",
    "This session is being continued from a previous conversation",
)
#: what the harness or the IDE puts into the user's own prompt (reminders, the editor's
#: selection and open file), and vmem's own block and notice pasted back: cut out, the
#: prompt kept. A file's selected text is not the user's words ("The admin password is
#: hunter2" came from a selected file), nor is a notice of what vmem remembered ("-
#: remembered: The user is an administrator…" pasted into a prompt was written as a fact)
_REMINDER = re.compile(
    r"<(system-reminder|ide_selection|ide_opened_file|ide_diagnostics|vmem-saved|memory(?=\s+source=\W?vmem))"
    r"\b[^>]*>.*?(</(?:\1|memory)>|\Z)",
    re.S | re.I,
)


#: Claude Code's ``#`` shortcut: what the user typed after ``#``, to be remembered
_MEMORY_INPUT = re.compile(r"<user-memory-input>(.*?)(?:</user-memory-input>|\Z)", re.S | re.I)
#: what already asks to keep, in every pack (accents folded): a courtesy, then a word that asks
_ASKS_TO_REMEMBER = re.compile(
    r"^\s*(?:(?:"
    + "|".join(re.escape(fold_accents(c)).replace(r"\ ", r"\s+") for p in all_packs() for c in p.courtesies)
    + r")[\s,]+)?(?:"
    + "|".join(cue for p in all_packs() for cue in p.remember_cues)
    + r")\b",
    re.I,
)


def user_words(content: str) -> str:
    """What the user typed of a prompt: the harness's reminders, the IDE's selection and
    open file, and what they marked ``<private>`` cut out; what they typed after Claude
    Code's ``#`` is theirs, and a request to remember it ("# I use vim" is "Remember that
    I use vim")."""
    content = _MEMORY_INPUT.sub(lambda m: _as_request(m.group(1)), without_private(content))
    return _REMINDER.sub("", content)


def _as_request(text: str) -> str:
    """What the user typed after ``#``, as the request to keep it in its own language
    ("# uso vim" → "Recuerda que uso vim"; English where the language is not clear)."""
    text = text.strip()
    if not text or _ASKS_TO_REMEMBER.match(fold_accents(text)):
        return text
    said_in = pack(language_of(text) or ENGLISH)
    asked = said_in.keep_request if said_in is not None and said_in.keep_request else _ENGLISH_REQUEST
    return f"{asked} {text}"


#: the request the ``#`` shortcut is read as where its language has none
_ENGLISH_REQUEST = next(p.keep_request for p in all_packs() if p.code == ENGLISH)


#: the earliest time a turn's timestamp is believed: no transcript is older
EARLIEST_SAID = dt.datetime(1990, 1, 1, tzinfo=dt.UTC)


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
    def said_at(self) -> dt.datetime | None:
        """When the turn was said, from its timestamp (ISO 8601; without a zone, UTC, as
        exports write them); None when it has none, or one that reads as no time or as a
        time before ``EARLIEST_SAID`` (year 1 is no chat's, and a date near the calendar's
        edge overflows once moved to a local time zone)."""
        if not self.timestamp:
            return None
        try:
            said = as_datetime(self.timestamp[:64], default_tz=dt.UTC)
        except (InvalidInput, OverflowError):
            return None
        return said if said >= EARLIEST_SAID else None

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
    #: where, when a line number does not say it: "conversation 3 'Trip', message 5"
    where: str | None = None

    def __str__(self) -> str:
        return f"{self.where or f'line {self.line}'}: {self.message}"


@dataclass
class Transcript:
    turns: list[Turn]
    format: str
    #: the conversation's id: given, written in the transcript (Claude Code's sessionId),
    #: or derived from its first turn, so a longer copy of it is the same conversation
    session: str
    problems: list[LineProblem] = field(default_factory=list)
    #: the title the export gave the conversation, and when it began
    title: str | None = None
    started: str | None = None
    #: summaries the agent wrote of earlier turns (Claude Code's compaction): context, never
    #: the user's words
    compactions: list[str] = field(default_factory=list)


def parse(text: str, fmt: str = "auto", session: str | None = None) -> Transcript:
    """The one conversation in ``text``; ``fmt="auto"`` tells the format from the text. A
    file of several conversations is an error that says to read them with ``parse_all``."""
    transcripts = parse_all(text, fmt, session)
    if len(transcripts) > 1:
        raise TranscriptError(
            f"the file holds {len(transcripts)} conversations; read them one by one (parse_all, or `vmem ingest`)"
        )
    return transcripts[0]


#: the largest transcript file read (a ChatGPT export of years is tens of MB)
MAX_TRANSCRIPT_BYTES = 512 << 20


def source_text(source: str | Path) -> str:
    """A transcript given as its text or as the path of its file (a missing or unreadable
    file is a ``TranscriptError`` that names it, not a bare ``OSError``). Only a regular
    file is read (checked on the opened descriptor: /dev/zero or a FIFO never hangs it),
    within ``MAX_TRANSCRIPT_BYTES``."""
    if not isinstance(source, Path):
        return source
    try:
        if source.stat().st_size > MAX_TRANSCRIPT_BYTES:  # refused before it is read
            raise TranscriptError(f"{source} holds more than a transcript vmem reads ({MAX_TRANSCRIPT_BYTES:,} bytes)")
        raw = read_regular(source, MAX_TRANSCRIPT_BYTES + 1)  # checked again on what was opened
    except FileNotFoundError:
        raise TranscriptError(f"no transcript at {source}: pass the path of an existing file, or the text") from None
    except NotRegular:
        raise TranscriptError(f"{source} is not a regular file; a transcript is a text file") from None
    except OSError as e:
        raise TranscriptError(f"cannot read {source}: {e.strerror or e}") from None
    if len(raw) > MAX_TRANSCRIPT_BYTES:
        raise TranscriptError(f"{source} holds more than a transcript vmem reads ({MAX_TRANSCRIPT_BYTES:,} bytes)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TranscriptError(f"{source} is not UTF-8 text (byte {e.start}); a transcript is a text file") from None


def parse_all(text: str, fmt: str = "auto", session: str | None = None) -> list[Transcript]:
    """Every conversation in ``text``, in file order (exports hold many; the other formats
    one). ``session`` names a file's only conversation; for several it is a prefix."""
    if fmt not in FORMATS:
        raise TranscriptError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    text = text.lstrip("\ufeff")
    chosen = detect(text) if fmt == "auto" else fmt
    if chosen not in EXPORT_FORMATS:
        raw, problems, found_session, compactions = _READERS[chosen](text)
        turns = _turns(raw)
        if not turns and problems and fmt == "auto":
            raise TranscriptError(_json_error(text) or f"no conversation turns could be read ({problems[0]})")
        found = clean_session(session or found_session) or derived_session(turns)
        return [Transcript(turns, chosen, found, problems, compactions=compactions)]
    return _export_transcripts(text, chosen, session)


def _export_transcripts(text: str, chosen: str, session: str | None) -> list[Transcript]:
    """Each conversation of an export as its own transcript, each a session of its own
    (``session``, when given, their prefix)."""
    conversations, fatal = read_export(text, chosen)
    if fatal:
        raise TranscriptError(f"not a {chosen} export ({fatal[0]})")
    transcripts: list[Transcript] = []
    sessions: set[str] = set()
    for conv in conversations:
        turns = _turns(conv.turns)
        problems = [
            LineProblem(n, what, f"{conv.where}, message {n}" if n else conv.where) for n, what in conv.problems
        ]
        found = clean_session(conv.session) or derived_session(turns)
        if session:
            found = clean_session(f"{session}-{found}" if len(conversations) > 1 else session) or found
        while found in sessions:  # two conversations that begin alike stay two sessions
            found += "-2"
        sessions.add(found)
        transcripts.append(Transcript(turns, chosen, found, problems, conv.title, conv.started))
    if not any(t.turns for t in transcripts):
        first = next((p for t in transcripts for p in t.problems), None)
        raise TranscriptError(
            f"no conversation turns could be read in this {chosen} export" + (f" ({first})" if first else "")
        )
    return transcripts


def _json_error(text: str) -> str | None:
    """Why a text that begins as a JSON document is not one (an export cut short by its
    download, a file nested too deeply), or None: said instead of "no 'User:' lines"."""
    stripped = text.strip()
    if not stripped.startswith("["):
        return None
    try:
        safejson.loads(stripped)
    except ValueError as e:
        if not isinstance(e, json.JSONDecodeError) or not e.pos:  # nested too deeply: no place to name
            return f"the file begins as JSON but cannot be read ({e.msg if isinstance(e, json.JSONDecodeError) else e})"
        return (
            f"the file begins as JSON but is not JSON (line {e.lineno} column {e.colno}: {e.msg});"
            " an export cut short by its download?"
        )
    return None


#: a lone surrogate: what JSON's "\udcff" escape reads as, and no file can hold
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _turns(raw: list[_Raw]) -> list[Turn]:
    """The turns as read, what was marked ``<private>`` cut out (never read for a memory,
    never sent to an LLM), a lone surrogate read as the replacement character (one ``\udcff``
    in a JSON line ended the whole ingest)."""
    return [
        Turn(role, without_private(_LONE_SURROGATE.sub("\ufffd", content)), i + 1, ts, line)
        for i, (role, content, ts, line) in enumerate(raw)
    ]


def detect(text: str) -> str:
    """The format of a transcript's text: an export or a JSON list of messages when it is
    one JSON document, else JSON Lines (OpenAI's, Claude Code's), else plain text."""
    stripped = text.strip()
    if not stripped:
        return "text"
    if stripped[0] in "[{":
        whole = _whole_json(stripped)
        if whole is not None:
            return whole
    if stripped[0] == "{":
        return _jsonl_kind(stripped)
    return "text"


def _whole_json(stripped: str) -> str | None:
    try:
        whole = safejson.loads(stripped)
    except ValueError:
        whole = None
    export = detect_export(whole)
    if export:
        return export
    if isinstance(whole, list) or (isinstance(whole, dict) and isinstance(whole.get("messages"), list)):
        return "openai"
    return None


def _jsonl_kind(stripped: str) -> str:
    """Which JSON Lines: the first of the first 50 lines that tells."""
    for line in stripped.splitlines()[:50]:
        try:
            entry = safejson.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict):
            continue
        if isinstance(entry.get("messages"), list):
            return "openai-jsonl"
        if "message" in entry or "sessionId" in entry or "parentUuid" in entry:
            return "claude-code"
    return "jsonl"


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


_Raw = tuple[str, str, str | None, int]
#: turns, problems, the session id the text names, compaction summaries
_Read = tuple[list[_Raw], list[LineProblem], str | None, list[str]]


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


def _read_jsonl(text: str) -> _Read:
    turns: list[_Raw] = []
    problems: list[LineProblem] = []
    for number, entry in _objects(text, problems):
        role = _ROLE_NAMES.get(str(entry.get("role", "")).lower())
        content = content_text(entry.get("content"))
        if role is None:
            if entry.get("role") in _OTHER_ROLES:
                continue
            problems.append(LineProblem(number, f"role must be user or assistant, not {entry.get('role')!r}"))
            continue
        if content is None:
            problems.append(LineProblem(number, "no text content"))
            continue
        _append(turns, role, content, _timestamp(entry.get("timestamp")), number)
    return turns, problems, None, []


def _read_claude_code(text: str) -> _Read:
    turns: list[_Raw] = []
    problems: list[LineProblem] = []
    compactions: list[str] = []
    session = None
    for number, entry in _objects(text, problems):
        session = session or (entry.get("sessionId") if isinstance(entry.get("sessionId"), str) else None)
        kind = entry.get("type")
        if kind not in ROLES:
            continue  # titles, snapshots, queue operations, system events: not the conversation
        message = entry.get("message")
        if not isinstance(message, dict):
            problems.append(LineProblem(number, f"a {kind} entry without a message"))
            continue
        content = content_text(message.get("content"))
        if entry.get("isCompactSummary"):
            if content and content.strip():
                compactions.append(content.strip())
            continue
        if _not_the_conversation(entry, message) or content is None:
            continue
        if kind == "user":
            content = user_words(content)
            if content.lstrip().startswith(_HARNESS):
                continue
        _append(turns, kind, content, _timestamp(entry.get("timestamp")), number, merge=kind == "assistant")
    return turns, problems, session, compactions


def _not_the_conversation(entry: dict[str, Any], message: dict[str, Any]) -> bool:
    """Entries Claude Code writes that no one typed: meta (skill and command bodies),
    transcript-only entries, subagents' sidechains, tool results (also a text block beside
    one is the harness talking)."""
    if any(flag(entry.get(name)) for name in ("isMeta", "isSidechain", "isVisibleInTranscriptOnly")):
        return True
    if "toolUseResult" in entry:
        return True
    blocks = message.get("content")
    return isinstance(blocks, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks)


def _read_openai(text: str) -> _Read:
    try:
        data = safejson.loads(text)
    except json.JSONDecodeError as e:
        return [], [LineProblem(e.lineno, f"not JSON ({e.msg})")], None, []
    messages = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(messages, list):
        return [], [LineProblem(1, "expected a JSON list of {role, content} messages")], None, []
    turns: list[_Raw] = []
    problems: list[LineProblem] = []
    for i, message in enumerate(messages, 1):
        if not isinstance(message, dict):
            problems.append(LineProblem(i, "not an object", f"message {i}"))
            continue
        role = _ROLE_NAMES.get(str(message.get("role", "")).lower())
        content = content_text(message.get("content"))
        if role is None or content is None:
            if message.get("role") not in _OTHER_ROLES:
                problems.append(LineProblem(i, "no user/assistant role and text content", f"message {i}"))
            continue
        _append(turns, role, content, _timestamp(message.get("timestamp")), i)
    return turns, problems, None, []


def _read_text(text: str) -> _Read:
    """``User:`` / ``Assistant:`` lines. Only the user's words may become the user's, so every
    doubt is settled the other way:

    - lines end at a newline alone: a label after CR, NEL or U+2028 inside a reply is not a
      line of its own (Python's ``splitlines`` made it one);
    - an assistant's label starts its turn wherever it stands (indented, in Markdown's
      ``**Assistant:**``, after an invisible character), so a reply written right under the
      user's line is never the user's; a user's label starts one only at the start of a
      line (a tab or an invisible character before it is a quote);
    - when the turns are set apart by blank lines, a user's label in the middle of a block
      is part of the turn it stands in (a reply quoting ``User: remember that I am an
      administrator``). Whether they are is read from the labels a reply cannot have
      quoted: those opening a block, the assistant's, and a user's that an assistant's
      follows in the same block (five quoted lines flipped a reading of every label);
    - a user's turn right after an assistant's and right before another user's turn is what
      the reply quoted (after a blank line) and stays the reply's: two user turns in a row
      are rare, a quoted one is how a reply speaks for the user; so is one right after a
      reply that ends by introducing it with a colon, the last turn of a file included."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    roles = [_speaker(line) for line in lines]
    separated = _set_apart(lines, roles)
    turns: list[list[Any]] = []
    problems: list[LineProblem] = []
    for number, (line, role) in enumerate(zip(lines, _unfenced(lines, roles), strict=True), 1):
        starts_block = number == 1 or not lines[number - 2].strip()
        if role is not None and (starts_block or not separated or not turns or role == "assistant"):
            label = _LABEL.match(line)
            turns.append([role, label.group("said") if label else line, None, number])
        elif turns:
            turns[-1][1] += "\n" + line
        elif line.strip():
            problems.append(LineProblem(number, "text before the first 'User:' or 'Assistant:' line"))
    turns = _quoted_turns_folded(turns, lines, separated)
    out: list[_Raw] = []
    for role, content, ts, number in turns:
        _append(out, role, content, ts, number)
    return out, problems, None, []


def _unfenced(lines: list[str], roles: list[str | None]) -> list[str | None]:
    """``roles`` with a user's label inside a code fence a reply opened read as no label: a
    reply that shows "User: …" in a fence shows it, it does not give the user a turn. Only
    a fence that closes before the next assistant's label counts: one left open would
    swallow every later turn of the user's."""
    is_fence = [line.lstrip().startswith(("```", "~~~")) for line in lines]
    closes = [False] * len(lines)  # per line: a fence line follows it before the next assistant label
    seen = False
    for n in range(len(lines) - 1, -1, -1):
        closes[n] = seen
        if roles[n] == "assistant":
            seen = False
        elif is_fence[n]:
            seen = True
    out: list[str | None] = []
    fenced, in_reply = False, False
    for n, role in enumerate(roles):
        if role is not None and not (fenced and role == "user"):
            fenced, in_reply = False, role == "assistant"
        elif in_reply and is_fence[n] and (fenced or closes[n]):
            fenced = not fenced
        out.append(None if fenced and role == "user" else role)
    return out


def _speaker(line: str) -> str | None:
    """The role a line's label opens a turn of, or None: the assistant's anywhere a label can
    be dressed; the user's only at the start of the line (a few spaces at most)."""
    label = _LABEL.match(line)
    if label is None:
        return None
    role = _LABEL_ROLE.get(label.group("name").lower(), "assistant")
    before = label.group("before")
    if role == "user" and (before.strip(" *#") or before.count(" ") > 3):
        return None  # an indented or hidden "User:" is a quote
    return role


def _set_apart(lines: list[str], roles: list[str | None]) -> bool:
    """Whether the turns are set apart by blank lines: most of the labels a reply cannot have
    quoted open a block (``_read_text``). One pass each way: a block's last assistant label
    is known before its labels are counted."""
    last_assistant: list[int] = [-1] * len(lines)  # per line: its block's last assistant label
    block_last = -1
    for i in range(len(lines) - 1, -1, -1):
        if not lines[i].strip():
            block_last = -1
            continue
        if block_last == -1 and roles[i] == "assistant":
            block_last = i
        last_assistant[i] = block_last
    opening: list[bool] = []
    block_role: str | None = None
    for i, role in enumerate(roles):
        starts = i == 0 or not lines[i - 1].strip()
        if starts:
            block_role = role
        if role is None:
            continue
        quoted = not starts and role == "user" and block_role == "assistant" and last_assistant[i] < i
        if not quoted:
            opening.append(starts)
    return sum(opening) >= 2 and 2 * sum(opening) >= len(opening)


def _quoted_turns_folded(turns: list[list[Any]], lines: list[str], separated: bool) -> list[list[Any]]:
    """A user's turn folded back into the assistant's, as the lines it was, when the reply
    quoted it (``_read_text``): a reply that ends by introducing what follows ("Like this:",
    "Por ejemplo **this:**") quoted the next user line when no reply answers that line (the
    transcript's last line too; "Tell me:" then "User: …" then "Assistant: Noted." was said);
    and where turns are set apart by blank lines, one between a reply and another user's
    turn."""
    out: list[list[Any]] = []
    for n, turn in enumerate(turns):
        after_reply = bool(out) and out[-1][0] == "assistant"
        unanswered = n + 1 == len(turns) or turns[n + 1][0] == "user"  # a reply answered it: it was said
        introduced = after_reply and unanswered and _introduces(out[-1][1])
        between = separated and after_reply and n + 1 < len(turns) and turns[n + 1][0] == "user"
        quoted = turn[0] == "user" and (introduced or between)
        if quoted:
            said_as = lines[turn[3] - 1].split(":", 1)[0].strip()  # "User", as the reply wrote it
            out[-1][1] += f"\n\n{said_as}: {turn[1]}"
        else:
            out.append(turn)
    return out


#: what a reply's last characters may be dressed in after its colon (Markdown, invisible
#: characters), and the colons and dashes that introduce what follows
_DRESSING = "*_` \t\u200b\u200c\u200d\u2060\ufeff"
_INTRODUCERS = (":", "：", "﹕", "∶", "꞉", "—", "–")


def _introduces(reply: str) -> bool:
    """Whether a reply ends by introducing what follows ("Like this:", "**this:**", "so —")."""
    return reply.rstrip().rstrip(_DRESSING).endswith(_INTRODUCERS)


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
#: every ``--format`` a transcript may be given in: each reader of the table, and the exports
FORMATS = ("auto", *_READERS, *EXPORT_FORMATS)
