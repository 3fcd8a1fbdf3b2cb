"""The vault: a folder of memory files, and the only code that reads or writes them.

``Vault`` finds, parses and writes memories. It never rewrites a file behind the user's
back: new memories get new files, corrections supersede, forgetting moves a file to
``.vmem/trash/``, and the few explicit edits (``confirm``) change single frontmatter lines.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import CONFIG_NAME, STATE_DIR, Config, default_vault_path, locate_vault  # noqa: F401 (re-exported)
from ..errors import (
    AmbiguousId,
    FileTooLarge,
    InvalidId,
    MemoryFileError,
    NotFound,
    OutsideVault,
    VaultNotFound,
    WriteRefused,
)
from . import gitops
from .fileformat import parse_memory, parse_record, serialize_memory, set_frontmatter_keys
from .fsutil import atomic_write, move_no_clobber
from .memory import (
    MEMORY_TYPES,
    TYPE_FOLDERS,
    Memory,
    as_date_or_datetime,
    new_id,
    normalize_confidence,
    normalize_tag,
    split_key_value,
    validate_id,
)
from .scanner import FileEntry, IgnoreRules, walk


def now_local() -> dt.datetime:
    return dt.datetime.now().astimezone().replace(microsecond=0)


@dataclass
class Problem:
    """Something wrong with one file, as ``doctor`` and the scans report it."""

    path: str
    message: str
    kind: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "kind": self.kind, "message": self.message}


_ERROR_KINDS = {
    "FrontmatterError": "frontmatter",
    "EncodingError": "encoding",
    "FileTooLarge": "too_large",
    "OutsideVault": "outside_vault",
    "MemoryFileError": "unreadable",
}


def problem_from_error(err: MemoryFileError) -> Problem:
    return Problem(err.path.as_posix(), err.reason, _ERROR_KINDS.get(type(err).__name__, "unreadable"), err.line)


@dataclass
class ScanResult:
    memories: list[Memory] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def by_id(self) -> dict[str, Memory]:
        return {m.id: m for m in self.memories}


@dataclass
class TrashEntry:
    id: str
    original: str
    trashed: str
    at: str


class Vault:
    """A vault folder. Cheap to create; every method reads the files fresh."""

    def __init__(self, root: str | Path, config: Config | None = None):
        self.root = Path(root).expanduser().resolve()
        if not self.root.is_dir():
            raise VaultNotFound(f"{self.root} is not a folder")
        self.config = config or Config.load(self.root)
        self.ignore_rules = IgnoreRules.for_vault(self.root, self.config["vault"]["ignore"])
        #: warnings from the last write (e.g. a failed git autocommit), for the CLI to show
        self.warnings: list[str] = []

    def __repr__(self) -> str:
        return f"Vault({str(self.root)!r})"

    @property
    def state_dir(self) -> Path:
        return self.root / STATE_DIR

    @property
    def trash_dir(self) -> Path:
        return self.state_dir / "trash"

    # ------------------------------------------------------------------ reading

    def files(self) -> list[FileEntry]:
        return walk(self.root, self.ignore_rules)

    def read_bytes(self, relpath: str | Path, entry: FileEntry | None = None) -> bytes:
        """A file's bytes, after the checks that must come before reading: symlinks that
        leave the vault and files over the size limit raise instead of being read."""
        rel = Path(relpath)
        if entry is not None and entry.outside:
            raise OutsideVault(rel, "symlink leads outside the vault; not read")
        full = self.root / rel
        real = Path(os.path.realpath(full))
        if not real.is_relative_to(self.root):
            raise OutsideVault(rel, "symlink leads outside the vault; not read")
        limit = self.config["vault"]["max_file_bytes"]
        try:
            size = entry.size if entry is not None else full.stat().st_size
            if size > limit:
                raise FileTooLarge(
                    rel, f"{size:,} bytes is over the {limit:,}-byte limit ([vault] max_file_bytes); skipped"
                )
            raw = full.read_bytes()
        except OSError as e:
            raise MemoryFileError(rel, f"cannot be read: {e.strerror or e}") from None
        if len(raw) > limit:
            raise FileTooLarge(rel, f"{len(raw):,} bytes is over the {limit:,}-byte limit; skipped")
        return raw

    def read(self, relpath: str | Path, entry: FileEntry | None = None) -> Memory:
        """Parse one file. Raises a ``MemoryFileError`` subclass naming the file."""
        return parse_memory(self.read_bytes(relpath, entry), Path(relpath))

    def scan(self) -> ScanResult:
        """Every memory that parses, and a ``Problem`` for every file that does not.

        When two files claim one id, the first by path wins and the other is reported.
        """
        result = ScanResult()
        seen: dict[str, str] = {}
        for entry in self.files():
            try:
                memory = self.read(entry.relpath, entry)
            except MemoryFileError as e:
                result.problems.append(problem_from_error(e))
                continue
            if memory.id in seen:
                result.problems.append(
                    Problem(
                        entry.relpath,
                        f"duplicate id {memory.id!r}, also used by {seen[memory.id]}; skipped",
                        "duplicate_id",
                    )
                )
                continue
            seen[memory.id] = entry.relpath
            result.memories.append(memory)
        return result

    def __iter__(self) -> Iterator[Memory]:
        return iter(self.scan().memories)

    def get(self, ref: str) -> Memory:
        """A memory by id, or by a unique id prefix (at least 4 characters)."""
        ref = validate_id(ref)
        for folder in (*TYPE_FOLDERS.values(), *(f"archive/{f}" for f in TYPE_FOLDERS.values()), ""):
            candidate = Path(folder) / f"{ref}.md" if folder else Path(f"{ref}.md")
            if (self.root / candidate).is_file():
                try:
                    memory = self.read(candidate)
                except MemoryFileError:
                    break
                if memory.id == ref:
                    return memory
                break
        memories = self.scan().memories
        for memory in memories:
            if memory.id == ref:
                return memory
        matches = [m for m in memories if m.id.startswith(ref)] if len(ref) >= 4 else []
        if len(matches) == 1:
            return matches[0]
        if matches:
            listed = ", ".join(m.id for m in matches[:5])
            raise AmbiguousId(f"{ref!r} matches {len(matches)} memories ({listed}…); give more of the id")
        raise NotFound(f"no memory with id {ref!r} in {self.root} (see `vmem list`)")

    # ------------------------------------------------------------------ writing

    def add(
        self,
        text: str,
        *,
        type: str = "fact",
        key: str | None = None,
        domain: str | None = None,
        confidence: Any = "high",
        source: str | None = "explicit",
        expires: Any = None,
        persona: str | None = None,
        scope: str | None = None,
        importance: float | None = None,
        pinned: bool = False,
        tags: list[str] | tuple[str, ...] = (),
        supersedes: list[str] | tuple[str, ...] = (),
        extra: dict[str, Any] | None = None,
        split_key: bool = True,
        now: dt.datetime | None = None,
    ) -> Memory:
        """Write a new memory file and return it. ``"key: value"`` text is split when no key is given."""
        if type not in MEMORY_TYPES:
            raise ValueError(f"type must be one of {', '.join(MEMORY_TYPES)}, not {type!r}")
        if key is None and split_key:
            key, text = split_key_value(text)
        text = text.strip()
        if not text:
            raise ValueError("a memory needs some text")
        if importance is not None and not 0 <= importance <= 1:
            raise ValueError("importance must be from 0 to 1")
        created = now or now_local()
        memory = Memory(
            id=new_id(text, key, created),
            text=text,
            type=type,
            key=key or None,
            domain=domain or None,
            confidence=normalize_confidence(confidence),
            source=source,
            created=created,
            expires=as_date_or_datetime(expires) if expires is not None else None,
            supersedes=[validate_id(s) for s in supersedes],
            persona=persona or None,
            scope=scope or None,
            importance=importance,
            pinned=pinned,
            tags=[normalize_tag(t) for t in tags if normalize_tag(t)],
            extra=dict(extra or {}),
        )
        return self.write_new(memory, message=f"vmem: remember {memory.id}")

    def write_new(self, memory: Memory, *, relpath: str | Path | None = None, message: str | None = None) -> Memory:
        """Write ``memory`` to a new file (never over an existing one)."""
        validate_id(memory.id)
        memory.id = self._unused_id(memory.id)
        rel = Path(relpath) if relpath else Path(TYPE_FOLDERS.get(memory.type, "notes")) / f"{memory.id}.md"
        self._check_inside(rel)
        atomic_write(self.root / rel, serialize_memory(memory), overwrite=False)
        memory.path = rel
        memory.id_derived = False
        self._autocommit([self.root / rel], message or f"vmem: add {memory.id}")
        return memory

    def correct(self, ref: str, text: str, *, now: dt.datetime | None = None) -> Memory:
        """A new memory that supersedes ``ref``; the old file is left byte-for-byte as it was."""
        old = self.get(ref)
        key, value = split_key_value(text)
        if key is None or (old.key and key != old.key):
            key, value = old.key, text.strip()
        return self.add(
            value,
            type=old.type if old.type in MEMORY_TYPES else "fact",
            key=key,
            domain=old.domain,
            confidence="high",
            source="explicit",
            persona=old.persona,
            scope=old.scope,
            importance=old.importance,
            pinned=old.pinned,
            tags=old.tags,
            supersedes=[old.id],
            split_key=False,
            now=now,
        )

    def update_frontmatter(self, ref: str, updates: dict[str, Any], message: str) -> Memory:
        """Change single frontmatter keys in place (explicit commands only, e.g. ``confirm``)."""
        memory = self.get(ref)
        if memory.id_derived:
            updates = {"id": memory.id, **updates}  # pin the id so it survives a rename
        path = self.root / memory.file
        raw = path.read_bytes()
        text = raw.decode("utf-8")
        new_text = set_frontmatter_keys(text, updates, memory.file)
        atomic_write(path, new_text)
        self._autocommit([path], message)
        return self.read(memory.file)

    def forget(self, ref: str) -> TrashEntry:
        """Move the memory's file to ``.vmem/trash/`` (``restore`` brings it back)."""
        memory = self.get(ref)
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
        trashed = self.trash_dir / f"{stamp}-{memory.file.name}"
        move_no_clobber(self.root / memory.file, trashed)
        entry = TrashEntry(memory.id, memory.file.as_posix(), trashed.name, now_local().isoformat())
        self._append_manifest(entry)
        self._autocommit([self.root / memory.file], f"vmem: forget {memory.id}")
        return entry

    def archive(self, memory: Memory) -> Path:
        """Move a memory's file under ``archive/`` (same relative path): still in the vault and
        in git, still listed, no longer recalled. Returns the new relative path."""
        if memory.path is None or memory.path.parts[:1] == ("archive",):
            raise WriteRefused(f"{memory.id} is already archived")
        target = Path("archive") / memory.path
        move_no_clobber(self.root / memory.path, self.root / target)
        self._autocommit([self.root / memory.path, self.root / target], f"vmem: archive {memory.id}")
        return target

    def trash(self) -> list[TrashEntry]:
        """Forgotten memories that can still be restored, newest first."""
        manifest = self.trash_dir / "manifest.jsonl"
        if not manifest.is_file():
            return []
        entries = []
        for line in manifest.read_text(encoding="utf-8").splitlines():
            try:
                entries.append(TrashEntry(**json.loads(line)))
            except (ValueError, TypeError):
                continue
        live = [e for e in entries if (self.trash_dir / e.trashed).is_file()]
        return sorted(live, key=lambda e: e.trashed, reverse=True)

    def restore(self, ref: str) -> Memory:
        ref = validate_id(ref)
        entries = self.trash()
        matches = [e for e in entries if e.id == ref] or [e for e in entries if e.id.startswith(ref) and len(ref) >= 4]
        if not matches:
            raise NotFound(f"no forgotten memory with id {ref!r} in {self.trash_dir}")
        if len({e.id for e in matches}) > 1:
            raise AmbiguousId(
                f"{ref!r} matches several forgotten memories: {', '.join(sorted({e.id for e in matches}))}"
            )
        entry = matches[0]
        target = self.root / entry.original
        self._check_inside(Path(entry.original))
        if target.exists():
            raise WriteRefused(
                f"{entry.original} exists again; move it away first, the forgotten copy is in {self.trash_dir / entry.trashed}"
            )
        move_no_clobber(self.trash_dir / entry.trashed, target)
        self._autocommit([target], f"vmem: restore {entry.id}")
        return self.read(entry.original)

    def import_record(self, record: dict[str, Any]) -> tuple[str, Memory | None]:
        """Import one exported memory. Returns (``"added"`` | ``"unchanged"`` | ``"conflict"``, memory)."""
        memory = parse_record(record)
        if memory.id_derived:
            memory.id = validate_id(memory.id)
        rel = Path(record.get("path") or "")
        try:
            existing = self.get(memory.id)
        except NotFound:
            existing = None
        if existing is not None:
            same = existing.to_dict() | {"path": None} == memory.to_dict() | {"path": None}
            return ("unchanged" if same else "conflict"), existing
        target = None
        if record.get("path"):
            try:
                self._check_inside(rel)
                if not (self.root / rel).exists():
                    target = rel
            except InvalidId:
                target = None
        written = self.write_new(memory, relpath=target, message=f"vmem: import {memory.id}")
        return "added", written

    # ------------------------------------------------------------------ helpers

    def _unused_id(self, wanted: str) -> str:
        """Ids are never reused, not even those of forgotten memories."""
        taken = {e.id for e in self.trash()}
        candidate, n = wanted, 1
        while candidate in taken or any((self.root / f / f"{candidate}.md").exists() for f in TYPE_FOLDERS.values()):
            n += 1
            candidate = f"{wanted}-{n}"
        return candidate

    def _check_inside(self, rel: Path) -> None:
        if rel.is_absolute() or ".." in rel.parts:
            raise InvalidId(f"{rel} is not a path inside the vault")
        real = Path(os.path.realpath(self.root / rel))
        if not real.is_relative_to(self.root):
            raise InvalidId(f"{rel} leads outside the vault")

    def _append_manifest(self, entry: TrashEntry) -> None:
        self.trash_dir.mkdir(parents=True, exist_ok=True)
        with open(self.trash_dir / "manifest.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(entry.__dict__, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def _autocommit(self, paths: list[Path], message: str) -> None:
        if self.config["git"]["autocommit"] and gitops.is_git_repo(self.root):
            error = gitops.commit_paths(self.root, paths, message)
            if error:
                self.warnings.append(f"git autocommit failed (the file is written): {error}")
