"""The pending queue ingestion keeps under ``.vmem/pending/`` (the ledger of turns read:
``ledger``).

``.vmem/pending/`` is *state*: a transcript is written there (atomically) before anything
reads it, and leaves only when every memory it yields is written; deleting the folder
loses those conversations. One conversation waits in a file of its own; the conversations
of an export read without a model wait together in one ``batch-*.json`` (one durable
write for hundreds, not two each), which a later reading of the queue splits into files
of their own if a kill left it behind.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import safejson
from ..config import PENDING_BATCH_PREFIX, StateLayout
from ..vault.fsutil import atomic_write, private_dir
from .transcript import Turn, clean_session

#: the longest wait between two automatic retries of one transcript
MAX_BACKOFF = dt.timedelta(hours=6)
FIRST_BACKOFF = dt.timedelta(minutes=1)


def file_stem(session: str) -> str:
    """A file name for any session id (ids come from outside: keep them inside the folder)."""
    safe = re.sub(r"[^\w.-]+", "_", session)[:60].strip("._") or "session"
    return f"{safe}-{hashlib.sha256(session.encode()).hexdigest()[:8]}"


@dataclass
class PendingEntry:
    session: str
    turns: list[Turn]
    persona: str | None = None
    created: str = ""
    attempts: int = 0
    last_error: str | None = None
    next_attempt: str | None = None
    path: Path | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "persona": self.persona,
            "created": self.created,
            "attempts": self.attempts,
            "last_error": self.last_error,
            "next_attempt": self.next_attempt,
            "turns": [t.to_dict() | {"line": t.line} for t in self.turns],
        }

    @classmethod
    def from_dict(cls, data: Any, path: Path) -> PendingEntry:
        """An entry read back from ``.vmem/pending/``, checked field by field: a file someone
        edited or a disk damaged raises ``ValueError`` naming what is wrong."""
        if not isinstance(data, dict) or not isinstance(data.get("turns"), list):
            raise ValueError("not a pending transcript (no list of turns)")
        session = clean_session(data.get("session"))
        if session is None:
            raise ValueError("no session id")
        turns = []
        for t in data["turns"]:
            if not (
                isinstance(t, dict) and t.get("role") in ("user", "assistant") and isinstance(t.get("content"), str)
            ):
                raise ValueError("a turn that is not {role: user|assistant, content: text}")
            turns.append(
                Turn(t["role"], t["content"], int(t["number"]), _text(t.get("timestamp")), int(t.get("line") or 0))
            )
        persona = data.get("persona")
        if persona is not None and not (isinstance(persona, str) and clean_session(persona) == persona):
            raise ValueError("persona is not a plain name")
        return cls(
            session=session,
            turns=turns,
            persona=persona or None,
            created=str(data.get("created") or ""),
            attempts=int(data.get("attempts") or 0),
            last_error=_text(data.get("last_error")),
            next_attempt=_moment(data.get("next_attempt")),
            path=path,
        )

    def due(self, now: dt.datetime) -> bool:
        return self.next_attempt is None or dt.datetime.fromisoformat(self.next_attempt) <= now


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _created(value: str) -> dt.datetime:
    """When a queued transcript was queued, or now for a date that cannot be read."""
    try:
        moment = dt.datetime.fromisoformat(value) if value else None
    except ValueError:
        moment = None
    return moment or dt.datetime.now().astimezone()


def _moment(value: Any) -> str | None:
    """An aware ISO datetime, or None (due now) for anything else: a naive or garbled
    ``next_attempt`` made ``--retry-pending --due-only`` crash."""
    try:
        moment = dt.datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None
    return moment.isoformat() if moment is not None and moment.tzinfo is not None else None


class PendingQueue:
    def __init__(self, vault_root: Path):
        self.state = StateLayout.of(vault_root)
        self.folder = self.state.pending

    def put(self, session: str, turns: list[Turn], persona: str | None, now: dt.datetime) -> PendingEntry:
        """Queue a transcript. A session already waiting gets the turns it lacks (a longer
        copy of the same conversation), keeping what it had."""
        path = self.folder / f"{file_stem(session)}.json"
        entry = self._read(path)
        if entry is None:
            entry = PendingEntry(session, list(turns), persona, now.isoformat(timespec="seconds"), path=path)
        else:
            have = {t.digest for t in entry.turns}
            extra = [t for t in turns if t.digest not in have]
            if len(turns) >= len(entry.turns) and all(t.digest in {u.digest for u in turns} for t in entry.turns):
                entry.turns = list(turns)  # the usual case: the same conversation, grown
            else:
                entry.turns += extra
            entry.persona = persona or entry.persona
        self.write(entry)
        return entry

    def put_batch(
        self, conversations: list[tuple[str, list[Turn]]], persona: str | None, now: dt.datetime
    ) -> tuple[Path, list[PendingEntry]]:
        """Queue many conversations in one file, with one durable write: (the file, an entry
        for each). ``done_batch`` dequeues them all at once; a kill in between leaves the
        file for ``recover`` to split."""
        created = now.isoformat(timespec="seconds")
        entries = [PendingEntry(session, list(turns), persona, created) for session, turns in conversations]
        private_dir(self.folder)
        path = self.folder / f"{PENDING_BATCH_PREFIX}{uuid.uuid4().hex}.json"
        atomic_write(path, json.dumps({"batch": [e.to_dict() for e in entries]}, ensure_ascii=False) + "\n")
        return path, entries

    def done_batch(self, path: Path) -> None:
        path.unlink(missing_ok=True)

    def recover(self) -> list[str]:
        """Split each batch a kill left behind into an entry of its own per conversation
        (merged with one already waiting, as ``put`` merges), then remove the batch: what
        was queued stays queued, and ``holds`` sees it with one stat. A batch that cannot
        be read, or holds a transcript that cannot, is quarantined whole and named; the
        transcripts of it that can be read wait on their own."""
        problems = []
        for path in sorted(self.folder.glob(f"{PENDING_BATCH_PREFIX}*.json")) if self.folder.is_dir() else []:
            problem = self._recover_batch(path)
            if problem is not None:
                problems.append(f"{path}: {problem}; {self.quarantine(path)}")
        return problems

    def _recover_batch(self, path: Path) -> str | None:
        """One batch of ``recover``: what is wrong with it (then it is kept), or None (gone)."""
        try:
            data = safejson.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (ValueError, UnicodeDecodeError) as e:
            return f"cannot be read ({e})"
        items = data.get("batch") if isinstance(data, dict) else None
        if not isinstance(items, list):
            return "not a batch of pending transcripts"
        bad = []
        for item in items:
            try:
                entry = PendingEntry.from_dict(item, path)
            except (ValueError, KeyError, TypeError) as e:
                bad.append(str(e))
                continue
            self.put(entry.session, entry.turns, entry.persona, _created(entry.created))
        if bad:
            return f"{len(bad)} of its {len(items)} transcripts cannot be read ({bad[0]}); the others wait on their own"
        path.unlink(missing_ok=True)
        return None

    def write(self, entry: PendingEntry) -> None:
        private_dir(self.folder)
        path = entry.path or self.folder / f"{file_stem(entry.session)}.json"
        atomic_write(path, json.dumps(entry.to_dict(), ensure_ascii=False, indent=1) + "\n")
        entry.path = path

    def failed(self, entry: PendingEntry, error: str, now: dt.datetime) -> None:
        """Keep the entry, and say when to try again: one minute, doubling, at most six hours."""
        entry.attempts += 1
        entry.last_error = error
        wait = min(FIRST_BACKOFF * 2 ** (entry.attempts - 1), MAX_BACKOFF)
        entry.next_attempt = (now + wait).isoformat(timespec="seconds")
        self.write(entry)

    def holds(self, session: str) -> bool:
        """Whether ``session`` is waiting in the queue (one stat)."""
        return (self.folder / f"{file_stem(session)}.json").exists()

    def done(self, entry: PendingEntry) -> None:
        if entry.path is not None:
            entry.path.unlink(missing_ok=True)

    def entries(self) -> tuple[list[PendingEntry], list[str]]:
        """(the queue, oldest first; the files that could not be read, named)."""
        entries: list[PendingEntry] = []
        problems = self.recover()
        for path in sorted(self.folder.glob("*.json")) if self.folder.is_dir() else []:
            try:
                entry = self._read(path)
            except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
                problems.append(f"{path}: cannot be read ({e}); {self.quarantine(path)}")
                continue
            if entry is not None:
                entries.append(entry)
        entries.sort(key=lambda e: e.created)
        return entries, problems

    def quarantine(self, path: Path) -> str:
        """Move an entry that cannot be processed out of the queue's way, into
        ``pending/quarantine/`` (kept: it may hold a conversation), and say where."""
        target = self.state.quarantine / path.name
        try:
            private_dir(target.parent)
            os.replace(path, target)
        except OSError as e:
            return f"left where it is ({e.strerror or e})"
        return f"moved to {target}; the other transcripts go on"

    def __len__(self) -> int:
        return self.state.waiting_transcripts()

    @staticmethod
    def _read(path: Path) -> PendingEntry | None:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        return PendingEntry.from_dict(safejson.loads(text), path)
