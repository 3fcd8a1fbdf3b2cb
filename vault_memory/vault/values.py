"""Frontmatter values (pure rules): raw YAML values turned into typed ones (confidence,
types, dates, lists, tags, supersession refs) and what no memory can be stored with."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any

from ..config import MEMORY_TYPES, NOTE_TYPE
from ..errors import InvalidInput, SecretRefused
from .markers import merge_conflict
from .secrets import find_secret

if TYPE_CHECKING:
    from .memory import Memory

#: a wikilink to a memory: ``[[id]]``, ``[[facts/foo.md|alias]]``
_WIKILINK_RE = re.compile(r"^\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$")

CONFIDENCE_LEVELS = ("low", "medium", "high")


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
    if result.tzinfo is None and default_tz is not None:
        result = result.replace(tzinfo=default_tz)
    elif result.tzinfo is None:
        try:
            result = result.astimezone()
        except (OverflowError, ValueError):  # the calendar's edge (year 1, 9999): today's offset
            result = result.replace(tzinfo=dt.datetime.now().astimezone().tzinfo)
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
