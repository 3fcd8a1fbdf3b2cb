"""Confirmations outside the memory files: when a memory was last known true, kept in
per-machine journals in the vault, so confirming never rewrites the user's file.

``vmem confirm`` and a restatement that reconfirms used to rewrite the memory's
``last_confirmed`` line: a concurrent edit could be lost, and two machines confirming one
memory made a git conflict in a file the user never touched. Now each clone of a vault
appends ``{"id", "at"}`` lines to its own journal, ``confirmations/<clone>.jsonl`` (the
clone's name is kept in ``.vmem/clone-id``, which git does not carry): two clones never
write the same file, so ``git pull`` merges them without a conflict. A memory's last
confirmation is the latest of its file's ``last_confirmed`` (hand-written ones keep
working) and every journal's lines for its id.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import secrets
from pathlib import Path

from .memory import Memory
from .values import as_datetime

#: the folder of the journals, at the vault's top
JOURNAL_DIR = "confirmations"
#: the journal line a memory id may take at most (ids are short; a longer line is not ours)
MAX_LINE = 1024


@dataclasses.dataclass
class Confirmations:
    """The vault's journals: ``record`` appends to this clone's, ``latest`` reads them all
    (again only when one changed)."""

    root: Path
    state_dir: Path
    _seen: tuple = ()
    _latest: dict[str, dt.datetime] = dataclasses.field(default_factory=dict)
    #: journal lines that could not be read, as (file, line number, why), for doctor
    problems: list[tuple[str, int, str]] = dataclasses.field(default_factory=list)

    @property
    def folder(self) -> Path:
        return self.root / JOURNAL_DIR

    def clone_id(self) -> str:
        """This clone's name: made once, kept in the derived state git does not carry."""
        path = self.state_dir / "clone-id"
        try:
            name = path.read_text(encoding="ascii").strip()
            if name and name.isalnum():
                return name
        except (OSError, UnicodeDecodeError):
            pass
        name = secrets.token_hex(6)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(name + "\n", encoding="ascii")
        except OSError:
            pass
        return name

    def record(self, memory_id: str, at: dt.datetime) -> None:
        """Append one confirmation to this clone's journal (one ``write`` of one line, with
        O_APPEND: concurrent writers of one clone never interleave within a line)."""
        self.folder.mkdir(exist_ok=True)
        line = json.dumps({"id": memory_id, "at": at.isoformat()}, ensure_ascii=False) + "\n"
        fd = os.open(self.folder / f"{self.clone_id()}.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    def latest(self) -> dict[str, dt.datetime]:
        """{memory id: its latest confirmation in any journal}."""
        try:
            files = sorted(p for p in self.folder.glob("*.jsonl") if p.is_file())
            seen = tuple((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in files)
        except OSError:
            return {}
        if seen == self._seen:
            return self._latest
        latest: dict[str, dt.datetime] = {}
        problems: list[tuple[str, int, str]] = []
        for path in files:
            try:
                lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError as e:
                problems.append((path.name, 0, str(e)))
                continue
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                try:
                    memory_id, at = _confirmation(line)
                except (ValueError, TypeError, KeyError) as e:
                    problems.append((f"{JOURNAL_DIR}/{path.name}", number, f"not a confirmation line ({e})"))
                    continue
                if memory_id not in latest or at > latest[memory_id]:
                    latest[memory_id] = at
        self._seen, self._latest, self.problems = seen, latest, problems
        return latest

    def apply(self, memory: Memory, latest: dict[str, dt.datetime] | None = None) -> Memory:
        """``memory`` as last confirmed by its file or by a journal, whichever is later (the
        same object when the journals say nothing newer)."""
        at = (self.latest() if latest is None else latest).get(memory.id)
        return with_confirmation(memory, at)


def _confirmation(line: str) -> tuple[str, dt.datetime]:
    """One journal line's (memory id, when, aware); ValueError, TypeError or KeyError for a
    line that is not one."""
    if len(line) > MAX_LINE:
        raise ValueError(f"longer than {MAX_LINE} characters")
    data = json.loads(line)
    memory_id, at = data["id"], as_datetime(dt.datetime.fromisoformat(data["at"]))
    if not isinstance(memory_id, str):
        raise TypeError("id is not text")
    return memory_id, at if at.tzinfo is not None else at.astimezone()


def with_confirmation(memory: Memory, at: dt.datetime | None) -> Memory:
    """``memory`` with ``last_confirmed`` at ``at`` when that is later than its own."""
    if at is None:
        return memory
    own = memory.last_confirmed
    if own is not None and as_datetime(own) >= at:
        return memory
    return dataclasses.replace(memory, last_confirmed=at)
