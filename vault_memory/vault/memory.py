"""The memory model: one Markdown file, seen as a typed record.

This module holds the ``Memory`` dataclass and the pure rules that turn raw frontmatter
values into typed ones (confidence levels, dates, id syntax). It does no I/O: reading and
writing files lives in ``fileformat`` and ``vault``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..config import ALL_TYPES, MEMORY_TYPES, NOTE_TYPE
from ..errors import InvalidId, InvalidInput, SecretRefused
from ..lang import fold_accents
from .markers import merge_conflict
from .secrets import before_secret, find_secret, masked, without_private

CONFIDENCE_LEVELS = ("low", "medium", "high")
#: the folder a new memory of each type is written to (its plural)
TYPE_FOLDERS = {t: {"summary": "summaries"}.get(t, f"{t}s") for t in ALL_TYPES}

#: Known frontmatter keys in the order vmem writes them: stable order, no git churn.
#: beside ``supersedes``: the digests (``same_text_digest``) of the hand-written files without
#: an id that a memory replaces, so the link survives a rename (a file's derived id and stem
#: change with its name)
SUPERSEDES_DIGEST = "supersedes_digest"
#: how a digest is written among the refs of the supersession graph
DIGEST_REF = "digest:"

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

#: letters and digits of any script, then also '.', '_' and '-': one safe path component
_ID_RE = re.compile(r"^[^\W_][\w.-]{0,127}$")
#: symbols that change what a text says ("C++" is not "C#", "€500" is not "$500")
SIGNIFICANT_SYMBOLS = "+#$€£¥₹%&@"
#: words people put before a colon that are labels, not keys ("Important: never deploy on Fridays")
LABEL_WORDS = frozenset(
    {
        "important",
        "importante",
        "note",
        "nota",
        "notes",
        "update",
        "reminder",
        "recordatorio",
        "todo",
        "warning",
        "aviso",
        "ojo",
        "fyi",
        "ps",
        "tip",
        "re",
        "fwd",
        "question",
        "pregunta",
        "idea",
        "ok",
        "also",
        "tambien",
        "btw",
        "edit",
        "correction",
        "correccion",
        "summary",
        "resumen",
        "context",
        "contexto",
    }
)
#: a value longer than this many words is a sentence, not the value of a key
MAX_VALUE_WORDS = 12
_WIKILINK_RE = re.compile(r"^\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$")


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


# ---------------------------------------------------------------- value rules (pure)


def jsonable(value: Any) -> Any:
    """Dates to ISO strings, recursively; everything else as is."""
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def first_line(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line
    return ""


def normalize_confidence(value: Any) -> str:
    """``high``/``medium``/``low``; a float 0–1 maps to ≥.8 high, ≥.5 medium, else low."""
    if isinstance(value, bool):
        raise InvalidInput(f"confidence must be high, medium, low or a number 0-1, not {value!r}")
    if isinstance(value, (int, float)):
        if not 0 <= value <= 1:
            raise InvalidInput(f"confidence {value} is outside 0-1")
        return "high" if value >= 0.8 else "medium" if value >= 0.5 else "low"
    if isinstance(value, str):
        v = value.strip().lower()
        if v in CONFIDENCE_LEVELS:
            return v
        try:
            return normalize_confidence(float(v))
        except ValueError:
            pass
    raise InvalidInput(f"confidence must be high, medium, low or a number 0-1, not {value!r}")


def normalize_type(value: Any) -> str:
    if isinstance(value, str) and value.strip().lower() in MEMORY_TYPES:
        return value.strip().lower()
    return NOTE_TYPE


def as_datetime(value: Any, *, default_tz: dt.tzinfo | None = None) -> dt.datetime:
    """A frontmatter date or datetime as an aware datetime (naive ones get local time)."""
    if isinstance(value, dt.datetime):
        result = value
    elif isinstance(value, dt.date):
        result = dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        result = _written_datetime(value)
    else:
        raise InvalidInput(f"{value!r} is not a date")
    if result.tzinfo is None:
        result = result.replace(tzinfo=default_tz) if default_tz else result.astimezone()
    return result


def _written_datetime(value: str) -> dt.datetime:
    text = value.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(f"{value!r} is not an ISO 8601 date or datetime") from None


def as_date_or_datetime(value: Any) -> dt.date | dt.datetime:
    """``expires`` keeps its precision: a date stays a date (it lasts the whole day)."""
    written = as_written(value)
    return as_datetime(written) if isinstance(written, dt.datetime) else written


def as_written(value: Any) -> dt.date | dt.datetime:
    """A date or datetime as ``as_date_or_datetime`` reads it, before a datetime without a
    zone is given the local one: what the person typed, to judge it by."""
    if isinstance(value, dt.date):  # a datetime too
        return value
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return dt.date.fromisoformat(text)
        return _written_datetime(text)
    raise InvalidInput(f"{value!r} is not a date")


def as_str_list(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        out = []
        for item in value:
            if isinstance(item, (dict, list)):
                raise InvalidInput(f"{what} must be a list of strings")
            out.append(str(item))
        return out
    raise InvalidInput(f"{what} must be a string or a list of strings, not {type(value).__name__}")


def normalize_tag(tag: str) -> str:
    """Obsidian wants tags without ``#``."""
    return tag.strip().lstrip("#").strip()


def reference_target(ref: str) -> str:
    """``[[2026-01-01-foo]]``, ``[[facts/foo.md|alias]]`` or a bare id → the id or file stem."""
    ref = ref.strip()
    m = _WIKILINK_RE.match(ref)
    if m:
        ref = m.group(1).strip()
        ref = ref.rsplit("/", 1)[-1]
        if ref.endswith(".md"):
            ref = ref[:-3]
    return ref


def supersedes_value(refs: list[str]) -> str | list[str] | None:
    """As vmem writes ``supersedes``: quoted wikilinks, so Obsidian shows a link, a backlink
    and a graph edge (``reference_target`` reads them back as ids)."""
    if not refs:
        return None
    links = [f"[[{ref}]]" for ref in refs]
    return links[0] if len(links) == 1 else links


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: what undecodable bytes become when read with ``surrogateescape`` (Python's stdin, argv)
_NOT_UTF8 = re.compile("[\ud800-\udfff]")
#: in a frontmatter value YAML also turns C1 controls and Unicode line and paragraph
#: separators into something else (NEL, U+0085, reads back as a space)
NOT_IN_FRONTMATTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")


def _check_storable(name: str, value: Any) -> None:
    """Refuse a control character in a memory's ``name`` field (its text, or a frontmatter
    value, where YAML rewrites more), and bytes that were not UTF-8 (read as lone
    surrogates: ``vmem remember -`` of a Latin-1 file), which no Markdown file can hold
    as written."""
    if isinstance(value, str) and (_CONTROL if name == "text" else NOT_IN_FRONTMATTER).search(value):
        raise InvalidInput(
            f"the memory's {name} holds a control character (e.g. NUL); it cannot be stored in a Markdown file"
        )
    if isinstance(value, str) and _NOT_UTF8.search(value):
        raise InvalidInput(f"the memory's {name} holds bytes that are not UTF-8; convert it to UTF-8 and try again")


def check_new(
    text: Any, type: str, importance: float | None = None, key: str | None = None, *, allow_secret: bool = False
) -> None:
    """What no memory can be written with: an unknown type, no text, a control character
    in its text or key, a secret (``secrets``), an importance outside 0–1. The one check both the bare write
    (``Vault.add``) and the write rules use, before anything of a batch is written."""
    if type not in MEMORY_TYPES:
        raise InvalidInput(f"type must be one of {', '.join(MEMORY_TYPES)}, not {type!r}")
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("a memory needs some text")
    _check_storable("text", text)
    _check_storable("key", key)
    secret = None if allow_secret else find_secret(f"{key}: {text}" if key else text)
    if secret is not None:
        raise SecretRefused(secret)
    if merge_conflict(text) is not None:  # the file would be refused at its next read
        raise InvalidInput(
            "the text holds git conflict markers (<<<<<<< ======= >>>>>>> lines): the file would be read as "
            "a merge left half-done; put them in a ``` code block, or keep one side"
        )
    if importance is not None and not 0 <= importance <= 1:
        raise InvalidInput("importance must be from 0 to 1")


def check_writable(memory: Memory) -> None:
    """Refuse what could not be read back from a file as written: control characters (NUL
    above all) in the text, and in frontmatter values also the characters YAML rewrites.
    ValueError names the field."""
    for name in ("text", "key", "domain", "persona", "scope", "source", "conversation"):
        _check_storable(name, getattr(memory, name))
    for tag in memory.tags:
        if NOT_IN_FRONTMATTER.search(tag):
            raise InvalidInput("a tag holds a control character (e.g. NUL); it cannot be stored in a Markdown file")


def validate_id(value: str) -> str:
    """An id is a single safe path component: no ``/``, no ``..``, no leading dot."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidId("an id cannot be empty")
    v = value.strip()
    if "/" in v or "\\" in v or ".." in v or not _ID_RE.match(v):
        raise InvalidId(
            f"{value!r} is not a valid memory id: ids are letters and digits (any script), '.', '_' and '-' "
            "(no '/', no '..', at most 128 characters)"
        )
    return v


def is_valid_id(value: Any) -> bool:
    try:
        validate_id(value)
    except InvalidId:
        return False
    return True


def normalize_text(text: str) -> str:
    """For exact-duplicate checks: case, Latin accents, punctuation and spacing do not
    count; letters of every script and the symbols that change a meaning (``C++``/``C#``,
    ``€``/``$``) do. A text with none of them normalises to "" and matches nothing."""
    # ASCII has no accents and is its own NFKC: the fast path of most texts (recall asks
    # for every hit it weighs, to show copies of one text once)
    folded = (text if text.isascii() else fold_accents(unicodedata.normalize("NFKC", text))).casefold()
    return " ".join(_NORMAL_WORD.findall(folded))


_NORMAL_WORD = re.compile(rf"[^\W_]+|[{re.escape(SIGNIFICANT_SYMBOLS)}]")


@lru_cache(maxsize=4096)  # called for every recall candidate; a vault has few distinct keys
def normalize_key(key: str | None) -> str:
    """``Ubicación`` → ``ubicacion``; ``proyecto actual`` → ``proyecto_actual``."""
    if not key:
        return ""
    folded = fold_accents(unicodedata.normalize("NFKC", key)).casefold()
    return re.sub(r"[\W_]+", "_", folded).strip("_")


def key_and_text(key: str | None, text: str) -> str:
    """All a memory says, its key first ("health User is allergic to peanuts"): what the
    rules that compare two memories read."""
    return f"{key or ''} {text}"


def said_in_full(normalized: str) -> str:
    """A ``normalize_text`` result with English contractions said in full ("i m" → "i am",
    "we don t" → "we do not", "can t" and "cannot" → "can not"): two texts that differ
    only there say the same to a reader. "'d" (had or would) is left as it is."""
    words = normalized.split(" ")
    if _CONTRACTED.isdisjoint(words):  # most texts: nothing to say in full
        return normalized
    out: list[str] = []
    for word in words:
        before = out[-1] if out else ""
        if word == "t" and len(before) > 1 and before.endswith("n"):  # "don t", "isn t", "won t"
            out[-1:] = [_NEGATED_VERBS.get(before, before[:-1]), "not"]
        elif word == "cannot":
            out += ["can", "not"]
        elif word == "s" and before == "let":
            out.append("us")
        elif word in _ENDINGS and before in _ENDINGS[word][1]:
            out.append(_ENDINGS[word][0])
        else:
            out.append(word)
    return " ".join(out)


#: what each contracted ending says in full, after the words it follows ("i m", "we re")
_ENDINGS = {
    "m": ("am", frozenset({"i"})),
    "re": ("are", frozenset({"you", "we", "they", "who", "what"})),
    "ve": ("have", frozenset({"i", "you", "we", "they", "who", "could", "should", "would"})),
    "ll": ("will", frozenset({"i", "you", "he", "she", "it", "we", "they", "that", "there", "who", "what"})),
    "s": ("is", frozenset({"it", "that", "there", "he", "she", "what", "who", "here", "where", "how"})),
}
#: "won t" is "will not", "can t" "can not", "shan t" "shall not"; any other "…n t" drops its n
_NEGATED_VERBS = {"won": "will", "can": "can", "shan": "shall"}
_CONTRACTED = frozenset({"t", "cannot", *_ENDINGS})


@lru_cache(maxsize=4096)  # asked for every recalled memory and its rivals, by every recall
def same_words(key: str | None, text: str) -> str | None:
    """What a memory says as a reader hears it (``normalize_text``, contractions said in
    full): recall shows one memory of each. Not a stored digest: ``same_text_digest`` stays
    what users' ``supersedes_digest`` fields and the catalog hold."""
    return said_in_full(normalize_text(key_and_text(key, text))) or None


def same_text_digest(key: str | None, text: str) -> str | None:
    """What two memories share when they say the same as a person reads them (key and
    text through ``normalize_text``), as a short digest the catalog indexes; None for a
    text that normalises to nothing (it is the same as nothing)."""
    normalized = normalize_text(key_and_text(key, text))
    return hashlib.blake2b(normalized.encode(), digest_size=12).hexdigest() if normalized else None


def slugify(text: str, max_len: int = 40) -> str:
    """A slug for ids and file names that still says something in any script: Latin
    accents folded (``ubicación`` → ``ubicacion``), other letters kept (``москва``)."""
    folded = fold_accents(unicodedata.normalize("NFKC", text)).casefold()
    slug = re.sub(r"[\W_]+", "-", folded).strip("-")
    if len(slug) > max_len:
        slug = slug[:max_len].rsplit("-", 1)[0] or slug[:max_len]
    return slug or "memory"


def short_hash(*parts: str, length: int = 6) -> str:
    h = hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()
    return h[:length]


def new_id(text: str, key: str | None, created: dt.datetime, length: int = 6) -> str:
    """``2026-11-22-nombre-lucas-3f9a1c``: readable, date-sorted, and the same for the same
    memory written at the same instant (so a retried write produces the same bytes)."""
    label = before_secret(f"{key} {first_line(text)}" if key else first_line(text))  # no secret in a file name
    return f"{created.date().isoformat()}-{slugify(label, 32)}-{short_hash(label, created.isoformat(), length=length)}"


def claim_order(memory: Memory, path: str) -> tuple[bool, float, str]:
    """Which of the files that claim one id is the memory (the smallest): a person's before
    the agent's, then the one written first (a person's move of the agent's file keeps its
    ``created``; an editor's copy or the agent's second ``create`` of the name is later),
    then by path. Every reader of the vault picks by it."""
    written = memory.created or memory.dated
    try:
        when = written.timestamp() if written is not None else float("inf")
    except (OverflowError, ValueError, OSError):
        when = float("inf")
    return memory.source == "agent", when, path


def derived_id(relpath: Path) -> str:
    """Id of a hand-written file without one: its file name plus a hash of its path, so two
    ``notes.md`` in different folders never collide and the file is never rewritten."""
    stem = slugify(relpath.stem, 48)
    return f"{stem}-{short_hash(relpath.as_posix(), length=4)}"


def split_key_value(text: str, max_value_words: int = MAX_VALUE_WORDS) -> tuple[str | None, str]:
    """``"nombre: Lucas"`` → ``("nombre", "Lucas")``. Only text that looks like a key and its
    value is split: a key of at most three words that is not a label (``Important:``,
    ``Nota:``) and a value on one line of at most ``max_value_words`` words (the write rules
    allow fewer where a key would replace an old value: ``"City: Porto is where my sister
    lives"`` is a sentence, not a new city)."""
    m = re.match(r"^\s*([^\W\d_][\w .\-/]{0,30}?)\s*:\s+(\S.*)$", text, flags=re.S)
    if m is None:
        return None, text.strip()
    key, value = m.group(1).strip(), m.group(2).strip()
    if (
        "\n" in key
        or "\n" in value
        or len(key.split()) > 3
        or len(value.split()) > max_value_words
        or key.lower().startswith(("http", "https"))
        or fold_accents(key).casefold() in LABEL_WORDS
    ):
        return None, text.strip()
    return key, value
