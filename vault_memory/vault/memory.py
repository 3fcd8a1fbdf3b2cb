"""The memory model: one Markdown file, seen as a typed record.

This module holds the ``Memory`` dataclass, its known keys and how it goes to and from a
record. Its pure rules live beside it by job: ``values`` (raw frontmatter values into typed
ones, and what cannot be stored), ``ids``, ``sameness`` (when two texts say the same) and
``keyvalue``. It does no I/O: reading and writing files lives in ``fileformat`` and
``vault``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import ALL_TYPES
from ..errors import InvalidInput
from .sameness import same_text_digest
from .secrets import masked, without_private
from .values import first_line, jsonable, supersedes_value

#: the folder a new memory of each type is written to (its plural)
TYPE_FOLDERS = {t: {"summary": "summaries"}.get(t, f"{t}s") for t in ALL_TYPES}

#: Known frontmatter keys in the order vmem writes them: stable order, no git churn.
#: beside ``supersedes``: the digests (``same_text_digest``) of the hand-written files without
#: an id that a memory replaces, so the link survives a rename (a file's derived id and stem
#: change with its name)
SUPERSEDES_DIGEST = "supersedes_digest"
#: how a digest is written among the refs of the supersession graph
DIGEST_REF = "digest:"
#: the frontmatter key that records pairs the user settled as both true (`vmem conflicts
#: --both-true`): an id or a list of ids, kept among the unknown keys as written
COMPATIBLE_KEY = "compatible_with"


def names_memories(value: object) -> bool:
    """Whether a ``compatible_with`` as written names memories the way `vmem conflicts
    --both-true` writes it: an id, or a list of them."""
    items = value if isinstance(value, list) else [value]
    return all(isinstance(item, str) and item.strip() and len(item) <= 300 for item in items)


KNOWN_KEYS = (
    "id",
    "type",
    "key",
    "domain",
    "confidence",
    "source",
    "created",
    "updated",
    "last_confirmed",
    "expires",
    "supersedes",
    "persona",
    "scope",
    "importance",
    "pinned",
    "tags",
    "conversation",
    "turn",
)


@dataclass
class Memory:
    """One memory. ``text`` is the Markdown body; ``extra`` keeps unknown keys in file order."""

    id: str
    text: str
    type: str = "fact"
    key: str | None = None
    domain: str | None = None
    confidence: str = "medium"
    source: str | None = None
    created: dt.datetime | None = None
    updated: dt.datetime | None = None
    last_confirmed: dt.datetime | None = None
    expires: dt.date | dt.datetime | None = None
    supersedes: list[str] = field(default_factory=list)
    persona: str | None = None
    scope: str | None = None
    importance: float | None = None
    pinned: bool = False
    tags: list[str] = field(default_factory=list)
    #: the conversation (thread) a memory was taken from, and its position in it
    conversation: str | None = None
    turn: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: Where the file lives, relative to the vault root (None before it is written).
    path: Path | None = None
    #: True when the file has no ``id`` and the id was derived from its path.
    id_derived: bool = False
    #: for a file without ``created``: when its person wrote it, and what says so
    #: (``vault.dating``); derived, never written to the file
    dated: dt.datetime | None = None
    dated_by: str | None = None

    @property
    def file(self) -> Path:
        """Where the file is, relative to the vault: for a memory read from or written to one."""
        if self.path is None:
            raise InvalidInput(f"memory {self.id!r} has no file yet")
        return self.path

    @property
    def written_at(self) -> dt.datetime | None:
        """When the memory was written: its ``created``, else when its person wrote the file
        (``vault.dating``: a ``date:`` field, a date in its name, its modification)."""
        return self.created if self.created is not None else self.dated

    @property
    def shared_text(self) -> str:
        """The text as it may leave the vault (a prompt, a tool's answer, the indexes): what
        a person marked ``<private>`` in the file cut out (``secrets.without_private``), the
        value of a secret a person wrote in it left out (``secrets.masked``). The file keeps
        every byte; the user's own `vmem show` shows all of it."""
        text = without_private(self.text)
        if self.key:  # "wifi password" as the key, the value as the text: a secret together
            said = f"{self.key}: {text}"
            shown = masked(said)
            if shown != said:
                return shown.removeprefix(f"{self.key}: ") if shown.startswith(f"{self.key}: ") else masked(text)
        return masked(text)

    @property
    def supersession_refs(self) -> list[str]:
        """What this memory replaces: its ``supersedes`` (ids, or file stems for files with no
        id) and, for those, the digest of what they said (``supersedes_digest``, as
        ``digest:…``), which still finds a file renamed in any editor."""
        digests = self.extra.get(SUPERSEDES_DIGEST)
        listed = digests if isinstance(digests, list) else [digests] if isinstance(digests, str) else []
        return [*self.supersedes, *(f"{DIGEST_REF}{d}" for d in listed if isinstance(d, str) and d)]

    @property
    def content_ref(self) -> str | None:
        """How a ``supersedes_digest`` names this memory: by what it says."""
        digest = same_text_digest(self.key, self.text)
        return f"{DIGEST_REF}{digest}" if digest else None

    @property
    def title(self) -> str:
        """A one-line label: ``key: first line of text``."""
        first = first_line(self.text)
        return f"{self.key}: {first}" if self.key else first

    def frontmatter(self) -> dict[str, Any]:
        """Frontmatter as vmem writes it: known keys in fixed order, empty ones left out,
        unknown keys after them in the order they were found."""
        values: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "key": self.key,
            "domain": self.domain,
            "confidence": self.confidence,
            "source": self.source,
            "created": self.created,
            "updated": self.updated,
            "last_confirmed": self.last_confirmed,
            "expires": self.expires,
            "supersedes": supersedes_value(self.supersedes),
            "persona": self.persona,
            "scope": self.scope,
            "importance": self.importance,
            "pinned": True if self.pinned else None,
            "tags": list(self.tags) or None,
            "conversation": self.conversation,
            "turn": self.turn,
        }
        out = {k: v for k, v in values.items() if v is not None}
        for k, v in self.extra.items():
            if k not in out:
                out[k] = v
        return out

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Memory:
        """A memory from its ``to_dict()`` form, without re-validating: for records vmem wrote
        itself (the index catalog, the daemon's answers), where speed matters."""
        expires = record.get("expires")
        if expires:
            expires = dt.date.fromisoformat(expires) if len(expires) == 10 else dt.datetime.fromisoformat(expires)
        return cls(
            id=record["id"],
            text=record.get("text") or "",
            type=record.get("type") or "note",
            key=record.get("key"),
            domain=record.get("domain"),
            confidence=record.get("confidence") or "medium",
            source=record.get("source"),
            created=_when(record.get("created")),
            updated=_when(record.get("updated")),
            last_confirmed=_when(record.get("last_confirmed")),
            expires=expires or None,
            supersedes=list(record.get("supersedes") or []),
            persona=record.get("persona"),
            scope=record.get("scope"),
            importance=record.get("importance"),
            pinned=bool(record.get("pinned")),
            tags=list(record.get("tags") or []),
            conversation=record.get("conversation"),
            turn=record.get("turn"),
            extra={k: v for k, v in record.items() if k not in KNOWN_KEYS and k not in _RECORD_ONLY},
            path=Path(record["path"]) if record.get("path") else None,
            id_derived=bool(record.get("id_derived")),
            dated=_when(record.get("dated")),
            dated_by=record.get("dated_by"),
        )

    def portable(self) -> dict[str, Any]:
        """``to_dict`` without what vmem derives (``DERIVED_KEYS``): what an export carries."""
        return {k: v for k, v in self.to_dict().items() if k not in DERIVED_KEYS}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (dates as ISO strings) used by ``--json`` and ``export``."""
        data: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "key": self.key,
            "text": self.text,
            "path": self.path.as_posix() if self.path else None,
        }
        for k, v in self.frontmatter().items():
            if k not in data:
                data[k] = v
        data.setdefault("confidence", self.confidence)
        data.setdefault("created", None)
        data["supersedes"] = list(self.supersedes)
        data["tags"] = list(self.tags)
        data["pinned"] = self.pinned
        if self.dated is not None:  # a hand-written file's date, and what says so (``vault.dating``)
            data["dated"], data["dated_by"] = self.dated, self.dated_by
        return jsonable(data)


#: what vmem derives about a file and never writes in it (``vault.dating``): carried in
#: records and shown by ``list --json``, left out of an export and of what an import compares
DERIVED_KEYS = frozenset({"dated", "dated_by"})
_RECORD_ONLY = {"text", "path", "id_derived", "state", *DERIVED_KEYS}


def _when(value: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(value) if value else None


#: how the problem of a file skipped for its id begins (``duplicate_message``)
DUPLICATE = "duplicate id"


def duplicate_message(memory_id: str, first: str) -> str:
    """Why a file that claims an id ``first`` claims too (the memory, by ``claim_order``) is
    skipped: the same words from the scan, the sync and a build."""
    return f"{DUPLICATE} {memory_id!r}, also used by {first}; skipped"


def claims_by_id(claims: Iterable[tuple[Memory, str]]) -> dict[str, list[tuple[Memory, str]]]:
    """The files (memory, path) that claim each id, the memory first (``claim_order``)."""
    out: dict[str, list[tuple[Memory, str]]] = {}
    for memory, path in claims:
        out.setdefault(memory.id, []).append((memory, path))
    for claimed in out.values():
        claimed.sort(key=lambda pair: claim_order(*pair))
    return out


def claim_order(memory: Memory, path: str) -> tuple[bool, float, str]:
    """Which of the files that claim one id is the memory (the smallest): a person's before
    the agent's, then the one whose ``created`` is first (a person's move of the agent's file
    keeps it; an editor's copy or the agent's second ``create`` of the name is later), then
    by path. Never by a date read from the file system: an edit would hand the id to the
    stale copy. Every reader of the vault picks by it."""
    written = memory.created
    try:
        when = written.timestamp() if written is not None else float("inf")
    except (OverflowError, ValueError, OSError):
        when = float("inf")
    return memory.source == "agent", when, path
