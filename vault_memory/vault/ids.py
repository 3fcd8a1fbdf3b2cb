"""Memory ids (pure rules): their syntax, one safe path component; a new memory's id from
its date, its words and a short hash; a hand-written file's id from its path."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import unicodedata
from pathlib import Path
from typing import Any

from ..errors import InvalidId
from ..lang import fold_accents
from .secrets import before_secret
from .values import first_line

#: letters and digits of any script, then also '.', '_' and '-': one safe path component
_ID_RE = re.compile(r"^[^\W_][\w.-]{0,127}$")


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


def derived_id(relpath: Path) -> str:
    """Id of a hand-written file without one: its file name plus a hash of its path, so two
    ``notes.md`` in different folders never collide and the file is never rewritten."""
    stem = slugify(relpath.stem, 48)
    return f"{stem}-{short_hash(relpath.as_posix(), length=4)}"
