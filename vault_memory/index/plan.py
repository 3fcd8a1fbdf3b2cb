"""What a sync must do, found by comparing a ``stat`` walk with the catalog (``Plan``),
and what it did (``SyncReport``): the data the planning and the applying of a sync pass
between them, with the pure functions that compare stamps and rows."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..errors import MemoryFileError
from ..vault.memory import Memory
from ..vault.scanner import FileEntry, Scan, Stamp
from ..vault.vault import Problem
from .catalog import FileRow

Progress = Callable[[str, int, int], None]


@dataclass
class SyncReport:
    added: int = 0
    updated: int = 0
    deleted: int = 0
    renamed: int = 0
    unchanged: int = 0
    embedded_chunks: int = 0
    problems: list[Problem] = field(default_factory=list)
    #: files of the vault that are no memory now (broken, too large, a duplicate id), read by
    #: this sync or left as they were: a sync of the whole vault counts them, never as unchanged
    unreadable: int = 0
    seconds: float = 0.0
    rebuilt: bool = False
    #: why the live index was rebuilt instead of updated (it was damaged, or of an old format)
    repaired: str | None = None
    #: the catalog commit this sync made (``Meta.COMMIT_SEQ``) and the paths it touched there: a
    #: reader of the commit before keeps what it read of the others (``Snapshot.carry_over``)
    commit: tuple[int, frozenset[str]] | None = field(default=None, repr=False, compare=False)

    @property
    def changed(self) -> int:
        return self.added + self.updated + self.deleted + self.renamed

    @classmethod
    def from_dict(cls, data: dict) -> SyncReport:
        """A report as ``to_dict`` gave it (the daemon's answer to a sync)."""
        fields = {
            k: data[k]
            for k in (
                "added",
                "updated",
                "deleted",
                "renamed",
                "unchanged",
                "embedded_chunks",
                "seconds",
                "rebuilt",
                "unreadable",
            )
            if k in data
        }
        return cls(**fields, problems=[Problem(**p) for p in data.get("problems", [])])

    def to_dict(self) -> dict:
        return {
            "added": self.added,
            "updated": self.updated,
            "deleted": self.deleted,
            "renamed": self.renamed,
            "unchanged": self.unchanged,
            "unreadable": self.unreadable,
            "embedded_chunks": self.embedded_chunks,
            "seconds": round(self.seconds, 3),
            "rebuilt": self.rebuilt,
            "problems": [p.to_dict() for p in self.problems],
        }


#: a file read for a sync: (its stat entry, its bytes, their hash, or the error that stopped the read)
Read = tuple[FileEntry, "bytes | None", str, "MemoryFileError | None"]
#: a changed file after parsing: (its stat entry, content hash, the memory or the error)
Parsed = tuple[FileEntry, str, "Memory | None", "MemoryFileError | None"]


@dataclass
class Plan:
    """What a sync must do, found by comparing a ``stat`` walk with the catalog."""

    changed: list[Read] = field(default_factory=list)
    touched: list[FileEntry] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    renamed: list[tuple[str, FileEntry]] = field(default_factory=list)
    unchanged: int = 0
    #: changed paths the catalog already had (updated rather than added)
    known: set[str] = field(default_factory=set)

    @property
    def empty(self) -> bool:
        return not (self.changed or self.touched or self.deleted or self.renamed)

    def touched_paths(self) -> set[str]:
        """Every path the plan writes a row for, both ends of a move included."""
        touched = {entry.relpath for entry, *_ in self.changed} | {entry.relpath for entry in self.touched}
        return (
            touched
            | set(self.deleted)
            | {old for old, _ in self.renamed}
            | {entry.relpath for _, entry in self.renamed}
        )


def content_hash(raw: bytes) -> str:
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def named_changes(
    paths: Iterable[str] | None, walked: Scan | None, known: tuple[str, bool, list[Stamp]] | None
) -> tuple[Iterable[str] | None, int]:
    """The paths a targeted sync looks at (those given, else those whose stamps differ
    from the recorded ones when there is a walk and a record), and how many files of the
    walk it knows unchanged without a look."""
    if paths is not None or walked is None or known is None:
        return paths, 0
    changed = changed_paths(walked, known[2])  # the walk against the stamps names the changes
    if changed is None:
        return None, 0
    if not changed:
        return changed, len(walked.stamps)
    return changed, len(walked.stamps) - len(changed & {stamp[0] for stamp in walked.stamps})


def stat_changes(entries: list[FileEntry], rows: dict[str, FileRow]) -> tuple[list[FileEntry], list[str]]:
    """(entries whose size, mtime, ctime or inode differ from the catalog, or are new;
    catalog paths now gone)."""
    present = {e.relpath for e in entries}
    suspects = [e for e in entries if (r := rows.get(e.relpath)) is None or r.stamp != e.stamp]
    gone = [p for p in rows if p not in present]
    return suspects, gone


def file_row(
    entry: FileEntry, sha: str, memory: Memory | None, error: MemoryFileError | None, skipped: str | None = None
) -> FileRow:
    """The catalog row of a file read in a sync: its stamp, hash, id, and why it is not
    indexed (its error, or ``skipped`` for a duplicate)."""
    return FileRow(
        entry.relpath,
        entry.size,
        entry.mtime_ns,
        sha,
        memory.id if memory else None,
        skipped or (error.reason if error else None),
        error.line if error else None,
        entry.ctime_ns,
        entry.inode,
    )


def changed_paths(walked: Scan, indexed: list[Stamp]) -> set[str] | None:
    """The paths whose stamps in a walk differ from the stamps the last sync recorded
    (created, edited, touched, deleted, both ends of a move); None when one of them is a
    file a path cannot name to a sync (a symlink out of the vault, a name that is not
    UTF-8: the whole vault is synced, which reports them)."""
    if walked.stamps == indexed:  # nothing changed, listed in the same order: one C-level compare
        return set()
    changed = {stamp[0] for stamp in set(walked.stamps).symmetric_difference(indexed)}
    if any(entry.relpath in changed for entry in walked.special):
        return None
    return changed
