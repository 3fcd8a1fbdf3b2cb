"""When a hand-written file was written, for one without ``created:`` (pure rules).

A note a person wrote in Obsidian often has no ``created:``; read as undated it counted as
the oldest memory of all, so "I live in Hamburg", written after "I live in Berlin", was
marked "older — may be outdated". Such a file is dated by what the person did, the first
that says: its frontmatter's own ``date:`` (what Obsidian users and their templates
write), a date in its file name (``2026-11-26.md``, ``2026-11-26 Standup.md``, a daily
note), the commit that added it when the vault is a git repository (``gitops.added_dates``),
else when it was last modified. ``list --json`` and ``show`` say which
(``Memory.dated_by``). The file is never changed: the date is derived, like an index.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable

from .memory import Memory

#: a calendar date in a file name, not inside a longer number
_NAMED_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
#: the frontmatter keys people date a note with, first found wins
DATE_KEYS = ("date", "created_at", "date created")


#: the years a person's note is dated within: a ``date: 0001-01-01`` or a file touched to
#: the year 2400 says nothing of when it was written (and year 1 overflowed every read)
YEARS = range(1900, 2200)


def dated(memory: Memory, mtime_ns: int | None, added: Callable[[str], dt.datetime | None] | None = None) -> Memory:
    """``memory`` with ``dated``/``dated_by`` set when its file has no ``created``; the
    same memory when it has one, or when nothing dates it within ``YEARS``. ``added``: when
    the commit that added a file (by its path) was written, asked only when nothing the file
    says dates it (it reads the repository's history)."""
    if memory.created is not None:
        return memory
    when, by = (
        _from_frontmatter(memory)
        or _from_name(memory)
        or _from_git(memory, added)
        or _from_mtime(mtime_ns)
        or (None, None)
    )
    if when is None:
        return memory
    return dataclasses.replace(memory, dated=when, dated_by=by)


def _from_frontmatter(memory: Memory) -> tuple[dt.datetime, str] | None:
    for key in DATE_KEYS:
        value = memory.extra.get(key)
        when = _as_time(value)
        if when is not None:
            return when, f"its {key}: field"
    return None


def _from_name(memory: Memory) -> tuple[dt.datetime, str] | None:
    if memory.path is None:
        return None
    for m in _NAMED_DATE.finditer(memory.path.stem):
        try:
            when = _local_midnight(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
        except (ValueError, OverflowError, OSError):
            continue
        if when.year in YEARS:
            return when, "its file name"
    return None


def _from_git(memory: Memory, added: Callable[[str], dt.datetime | None] | None) -> tuple[dt.datetime, str] | None:
    when = added(memory.path.as_posix()) if added is not None and memory.path is not None else None
    return (when, "the commit that added it") if when is not None and when.year in YEARS else None


def _from_mtime(mtime_ns: int | None) -> tuple[dt.datetime, str] | None:
    if not mtime_ns:
        return None
    try:
        when = dt.datetime.fromtimestamp(mtime_ns / 1e9).astimezone()
    except (ValueError, OverflowError, OSError):
        return None
    return (when, "when it was last modified") if when.year in YEARS else None


def _as_time(value: object) -> dt.datetime | None:
    """A date or time a person wrote, in the local zone when it names none; None for one
    that is none, or out of ``YEARS``."""
    try:
        if isinstance(value, str):
            value = dt.datetime.fromisoformat(value.strip())
        if isinstance(value, dt.datetime):
            when = value if value.tzinfo else value.astimezone()
        elif isinstance(value, dt.date):
            when = _local_midnight(value)
        else:
            return None
    except (ValueError, OverflowError, OSError):
        return None
    return when if when.year in YEARS else None


def _local_midnight(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time()).astimezone()
