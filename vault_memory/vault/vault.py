"""The vault: a folder of memory files, and the only code that reads or writes them.

``Vault`` finds, parses and writes memories. It never rewrites a file behind the user's
back: new memories get new files, forgetting moves a file to the vault's ``.trash/``
(``trash``), and the few explicit edits (``confirm``) change single frontmatter lines. It
applies no write rules: those live in ``vault_memory.writing.rules``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ..config import CONFIG_NAME, Config, StateLayout, default_vault_path, locate_vault  # noqa: F401 (re-exported)
from ..errors import (
    AmbiguousId,
    EncodingError,
    FileTooLarge,
    InvalidId,
    MemoryFileError,
    NotFound,
    OutsideVault,
    VaultNotFound,
    WriteRefused,
)
from . import gitops
from .confirmations import Confirmations
from .dating import dated
from .fileformat import parse_memory, serialize_memory, set_frontmatter_keys
from .fsutil import (
    MEMORY_FILE_MODE,
    STALE_TEMP_SECONDS,
    NotRegular,
    atomic_write,
    move_no_clobber,
    read_regular,
    replace_if_unchanged,
    sweep_stale_temps,
    sync_filesystem,
)
from .gitops import added_dates
from .ids import new_id, validate_id
from .keyvalue import split_key_value
from .memory import TYPE_FOLDERS, Memory, claims_by_id, duplicate_message
from .scanner import FileEntry, IgnoreRules, Scan, Stamp, scan, visible
from .trash import TRASH_DIR, TRASH_MANIFEST, Trash, TrashEntry, check_trashed_id, digest_of  # noqa: F401 (TrashEntry re-exported)
from .values import as_date_or_datetime, check_new, check_writable, normalize_confidence, normalize_tag


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
        path = visible(self.path)  # a name with a newline in it forges no line of its own
        where = f"{path}:{self.line}" if self.line else path
        return f"{where}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "kind": self.kind, "message": self.message}


_ERROR_KINDS = {
    "FrontmatterError": "frontmatter",
    "EncodingError": "encoding",
    "FileTooLarge": "too_large",
    "MergeConflict": "merge_conflict",
    "OutsideVault": "outside_vault",
    "MemoryFileError": "unreadable",
}


def problem_from_error(err: MemoryFileError) -> Problem:
    return Problem(err.path.as_posix(), err.reason, _ERROR_KINDS.get(type(err).__name__, "unreadable"), err.line)


@dataclass
class ScanResult:
    memories: list[Memory] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


#: how long a single-key edit keeps retrying while someone else keeps saving the file
EDIT_RETRY_SECONDS = 10.0


class _HasId(Protocol):
    id: str


_Found = TypeVar("_Found", bound=_HasId)


def _partial_matches(ref: str, found: list[_Found]) -> list[_Found]:
    """The memories (or trash entries) whose id starts with ``ref``, else those whose id
    holds it anywhere (the hash at the end is what people copy)."""
    return [m for m in found if m.id.startswith(ref)] or [m for m in found if ref in m.id]


#: the ids an ambiguous reference lists before it says there are more
AMBIGUOUS_SHOWN = 5


def _ambiguous(ref: str, ids: list[str], what: str) -> AmbiguousId:
    """``ref`` matches each of ``ids``: all of them named, or the first few and "…" when
    there are more (an index's answer stops at one past what is shown)."""
    cut = len(ids) > AMBIGUOUS_SHOWN
    listed = ", ".join(ids[:AMBIGUOUS_SHOWN]) + (", …" if cut else "")
    count = f"more than {AMBIGUOUS_SHOWN}" if cut else str(len(ids))
    return AmbiguousId(f"{ref!r} matches {count} {what} ({listed}); give more of the id")


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
        self._swept: dict[Path, float] = {}
        #: what the latest ``files()`` found (the folders ``sweep_temps`` visits)
        self._last_walk: list[FileEntry] | None = None
        self._last_folders: tuple[str, ...] = ()  # the folders that walk listed
        #: the stamps of the last ``files()`` walk, in its order (what a sync recorded)
        self.last_stamps: list[Stamp] | None = None
        #: when each memory was last confirmed outside its file (``vault.confirmations``)
        self.confirmations = Confirmations(self.root, StateLayout.of(self.root).root)
        #: per thread: whether new files wait for one flush at the end of a batch (``flushed_together``)
        self._batch = threading.local()
        #: when each file was added, by git (``gitops.added_dates``), with the stamp of
        #: ``.git``'s HEAD and index it was read at
        self._added_cache: tuple[tuple[int, ...], dict[str, dt.datetime]] | None = None

    def __repr__(self) -> str:
        return f"Vault({str(self.root)!r})"

    @property
    def state(self) -> StateLayout:
        """vmem's own files under .vmem/ (``config.StateLayout``)."""
        return StateLayout.of(self.root)

    @property
    def trash_dir(self) -> Path:
        """Forgotten memories: inside the vault, where a person and git see them (Obsidian's
        own trash folder), never in the derived state under .vmem/."""
        return self.root / TRASH_DIR

    # ------------------------------------------------------------------ reading

    def files(self, walked: Scan | None = None) -> list[FileEntry]:
        """Every candidate memory file, sorted by path: from a new walk, or from ``walked``
        (one the caller has just made, as the no-change check that found a change has)."""
        walked = walked if walked is not None else self.walk()
        self._last_walk, self.last_stamps, self._last_folders = walked.entries(), walked.stamps, walked.folders
        return self._last_walk

    def walk(self) -> Scan:
        """One ``stat`` walk of the vault (``scanner.scan``), nothing read."""
        return scan(self.root, self.ignore_rules)

    def stamps(self) -> list[Stamp]:
        """What :meth:`files` would find, as (path, size, mtime_ns, ctime_ns, inode) in the
        order the file system gives them: the no-change check's walk, without building and
        sorting the entries."""
        return self.walk().stamps

    def read_bytes(self, relpath: str | Path, entry: FileEntry | None = None) -> bytes:
        """A file's bytes, after the checks that must come before reading: symlinks that
        leave the vault and files over the size limit raise instead of being read."""
        rel = Path(relpath)
        if entry is not None and entry.outside:
            raise OutsideVault(rel, "symlink leads outside the vault; not read")
        if entry is not None and entry.bad_name:
            raise EncodingError(rel, "the file name is not UTF-8; rename it to be read as a memory")
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
            raw = read_regular(full, limit + 1)
        except NotRegular as e:
            raise MemoryFileError(rel, f"{e}; only regular files are read, skipped") from None
        except OSError as e:
            raise MemoryFileError(rel, f"cannot be read: {e.strerror or e}") from None
        if len(raw) > limit:
            raise FileTooLarge(rel, f"{len(raw):,} bytes is over the {limit:,}-byte limit; skipped")
        return raw

    def read(self, relpath: str | Path, entry: FileEntry | None = None) -> Memory:
        """Parse one file, dated when it says no ``created`` (``dating``). Raises a
        ``MemoryFileError`` subclass naming the file."""
        memory = parse_memory(self.read_bytes(relpath, entry), Path(relpath))
        if memory.created is not None:
            return memory
        if entry is None:
            try:
                mtime: int | None = (self.root / relpath).stat().st_mtime_ns
            except OSError:
                mtime = None
        else:
            mtime = entry.mtime_ns
        return self.dated(memory, mtime)

    def dated(self, memory: Memory, mtime_ns: int | None) -> Memory:
        """``dating.dated``, with the commit that added the file when the vault is a
        repository (its history read once while ``.git``'s HEAD and index stay as they were)."""
        return dated(memory, mtime_ns, lambda path: self._added().get(path))

    def _added(self) -> dict[str, dt.datetime]:
        stamp = tuple(_mtime(self.root / ".git" / name) for name in ("HEAD", "index"))
        if self._added_cache is None or self._added_cache[0] != stamp:
            self._added_cache = (stamp, added_dates(self.root))
        return self._added_cache[1]

    def scan(self, progress: Callable[[str, int, int], None] | None = None) -> ScanResult:
        """Every memory that parses, and a ``Problem`` for every file that does not.

        When two files claim one id, the first by path wins and the other is reported.
        ``progress`` hears ("read", files read, files) as it goes.
        """
        result = ScanResult()
        claims: list[tuple[Memory, str]] = []
        files = self.files()
        for n, entry in enumerate(files, start=1):
            if progress is not None and (n % 500 == 0 or n == len(files)):
                progress("read", n, len(files))
            try:
                memory = self.read(entry.relpath, entry)
            except MemoryFileError as e:
                result.problems.append(problem_from_error(e))
                continue
            claims.append((memory, entry.relpath))
        for (memory, first), *others in claims_by_id(claims).values():  # one memory an id
            result.memories.append(memory)
            result.problems += [
                Problem(path, duplicate_message(memory.id, first), "duplicate_id") for _, path in others
            ]
        latest = self.confirmations.latest()
        if latest:  # confirmed since its file says: decay and the rules read the later time
            result.memories = [self.confirmations.apply(m, latest) for m in result.memories]
        return result

    def __iter__(self) -> Iterator[Memory]:
        return iter(self.scan().memories)

    def get(self, ref: str, *, prefix: bool = False, locate: Callable[[str, bool], list[str]] | None = None) -> Memory:
        """A memory by its exact id; with ``prefix`` (an id a person typed), also by a unique
        prefix of at least 4 characters. Read from its file, found by its name when it is
        named after the id; else among the files ``locate`` names (an index's answer,
        ``writing.rules.find``), or by reading every file when there is no index to ask."""
        ref = validate_id(ref)
        named = self._named_after(ref)
        if named is not None:
            return named
        memories = self.scan().memories if locate is None else self._read_found(locate(ref, prefix))
        for memory in memories:
            if memory.id == ref:
                return memory
        matches = _partial_matches(ref, memories) if prefix and len(ref) >= 4 else []
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise _ambiguous(ref, [m.id for m in matches], "memories")
        raise NotFound(f"no memory with id {ref!r} in {self.root} (see `vmem list`)")

    def _named_after(self, ref: str) -> Memory | None:
        """The memory whose file is named after ``ref`` (in a type folder, its archive, or
        the vault's top), when its id is ``ref``."""
        for folder in (*TYPE_FOLDERS.values(), *(f"archive/{f}" for f in TYPE_FOLDERS.values()), ""):
            candidate = Path(folder) / f"{ref}.md" if folder else Path(f"{ref}.md")
            if (self.root / candidate).is_file():
                try:
                    memory = self.read(candidate)
                except MemoryFileError:
                    return None
                return memory if memory.id == ref else None
        return None

    def _read_found(self, paths: list[str]) -> list[Memory]:
        found = []
        for path in paths:
            try:
                found.append(self.read(Path(path)))
            except MemoryFileError:
                continue  # gone or broken since it was indexed: not this memory
        return found

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
        conversation: str | None = None,
        turn: int | None = None,
        extra: dict[str, Any] | None = None,
        split_key: bool = True,
        now: dt.datetime | None = None,
        message: str = "vmem: remember {id}",
        allow_secret: bool = False,
    ) -> Memory:
        """Write a new memory file and return it: a bare write, with none of the write rules
        (dedup, supersession, persona cap) of ``VaultMemory.remember``. ``"key: value"``
        text is split when no key is given; what looks like a secret is refused unless
        ``allow_secret``."""
        check_new(text, type, importance, allow_secret=allow_secret)
        if key is None and split_key:
            key, text = split_key_value(text)
        text = text.strip()
        check_new(text, type, allow_secret=allow_secret)  # "key:" alone leaves no text
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
            conversation=conversation or None,
            turn=turn,
            extra=dict(extra or {}),
        )
        written = self.write_new(memory, message=message)
        return written

    @contextlib.contextmanager
    def flushed_together(self) -> Iterator[None]:
        """New memory files written inside (by this thread) reach the disk together at the
        end, with one ``syncfs``, instead of two fsyncs each: 300 facts of an export cost
        600. Each is still written atomically; a crash before the end may lose some whole,
        never half of one, and the caller has not been told they were written."""
        if getattr(self._batch, "active", False):
            yield
            return
        self._batch.active, self._batch.wrote = True, False
        try:
            yield
        finally:
            self._batch.active = False
            if self._batch.wrote:
                sync_filesystem(self.root)

    def write_new(
        self,
        memory: Memory,
        *,
        relpath: str | Path | None = None,
        message: str | None = None,
        trashed: set[str] | None = None,
    ) -> Memory:
        """Write ``memory`` to a new file (never over an existing one). ``trashed``: the
        forgotten ids, when the caller has them already."""
        validate_id(memory.id)
        check_writable(memory)
        memory.id = self.unused_id(memory.id, trashed)
        rel = Path(relpath) if relpath else Path(TYPE_FOLDERS.get(memory.type, "notes")) / f"{memory.id}.md"
        self._check_inside(rel)
        batched = getattr(self._batch, "active", False)
        data = serialize_memory(memory)
        atomic_write(self.root / rel, data, overwrite=False, new_mode=MEMORY_FILE_MODE, durable=not batched)
        if batched:
            self._batch.wrote = True
        self._sweep((self.root / rel).parent)
        memory.path = rel
        memory.id_derived = False
        self._autocommit([self.root / rel], (message or "vmem: add {id}").format(id=memory.id))
        return memory

    def update_frontmatter(self, ref: str | Memory, updates: dict[str, Any], message: str) -> Memory:
        """Change single frontmatter keys in place (explicit commands only, e.g. ``confirm``).

        Only those keys' lines change. A symlinked memory has its target edited (when the
        target is inside the vault); the file keeps its mode and its hard links; a change
        someone else saves meanwhile is never overwritten (the edit is redone on top of it).
        ``ref``: an id, or the memory already found."""
        memory = ref if isinstance(ref, Memory) else self.get(ref)
        link = self.root / memory.file
        path = Path(os.path.realpath(link))
        if not path.is_relative_to(self.root):
            raise OutsideVault(memory.file, "symlink leads outside the vault; not changed")
        deadline = time.monotonic() + EDIT_RETRY_SECONDS
        base = on_disk = path.read_bytes()
        while True:
            data = set_frontmatter_keys(base.decode("utf-8"), updates, memory.file).encode("utf-8")
            replaced, late = replace_if_unchanged(path, on_disk, data)
            if replaced and late is None:
                self._sweep(path.parent)
                break
            if replaced and late is not None:  # a write reached the old file in the last instant: redo on it
                base, on_disk = late, data
                continue
            if time.monotonic() > deadline:
                raise WriteRefused(f"{memory.file} kept changing while vmem tried to update it; nothing was written")
            time.sleep(random.uniform(0.0005, 0.005))  # let the other writer finish its save
            base = on_disk = path.read_bytes()
        self._autocommit([link], message)
        return self.read(memory.file)

    def confirm(self, memory: Memory, at: dt.datetime) -> Memory:
        """Record that ``memory`` is known true at ``at``, in this clone's confirmation
        journal; its file is not touched (``vault.confirmations``)."""
        self.confirmations.record(memory.id, at)
        self._autocommit([self.confirmations.folder], f"vmem: confirm {memory.id}")
        return self.confirmations.apply(memory)

    def forget(self, ref: str | Memory, *, prefix: bool = False) -> TrashEntry:
        """Move the memory's file to the trash folder (``restore`` brings it back). ``ref``:
        an id, or the memory already found."""
        memory = ref if isinstance(ref, Memory) else self.get(ref, prefix=prefix)
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
        trashed = self.trash_dir / f"{stamp}-{memory.file.name}"
        sha = digest_of((self.root / memory.file).read_bytes())
        entry = TrashEntry(memory.id, memory.file.as_posix(), trashed.name, now_local().isoformat(), sha)
        # the record first: a record whose file never arrived names nothing (``Trash.entries``),
        # a file moved without one could not be restored (a full disk between the two)
        Trash(self.trash_dir).record(entry)
        move_no_clobber(self.root / memory.file, trashed)
        self._autocommit(
            [self.root / memory.file, trashed, self.trash_dir / TRASH_MANIFEST], f"vmem: forget {memory.id}"
        )
        return entry

    def archive(self, memory: Memory, *, commit: bool = True) -> Path:
        """Move a memory's file under ``archive/`` (same relative path): still in the vault and
        in git, still listed, no longer recalled. Returns the new relative path. With
        ``commit=False`` the caller commits a batch at once (``commit_paths``)."""
        if memory.path is None or memory.path.parts[:1] == ("archive",):
            raise WriteRefused(f"{memory.id} is already archived")
        target = Path("archive") / memory.path
        move_no_clobber(self.root / memory.path, self.root / target)
        if commit:
            self._autocommit([self.root / memory.path, self.root / target], f"vmem: archive {memory.id}")
        return target

    def find_file_of(self, memory_id: str) -> Memory | None:
        """The memory written under ``memory_id`` in a type folder, if that file exists."""
        for folder in TYPE_FOLDERS.values():
            path = Path(folder) / f"{memory_id}.md"
            if (self.root / path).is_file():
                try:
                    return self.read(path)
                except MemoryFileError:
                    return None
        return None

    def commit_paths(self, paths: list[Path], message: str) -> None:
        """One git autocommit for a batch of changes (when autocommit is on)."""
        if paths:
            self._autocommit([p if p.is_absolute() else self.root / p for p in paths], message)

    def trash(self) -> list[TrashEntry]:
        """Forgotten memories that can still be restored, newest first (``trash``)."""
        return Trash(self.trash_dir).entries()

    def restore(self, ref: str, *, prefix: bool = False) -> Memory:
        """Put a forgotten memory back where it was. ``ref`` is its id; with ``prefix`` (an
        id a person typed) also a unique prefix of at least 4 characters or a part of it
        (the hash at the end), as ``forget`` and ``show`` take them."""
        ref = validate_id(ref)
        entries = self.trash()
        matches = [e for e in entries if e.id == ref]
        if not matches and prefix and len(ref) >= 4:  # as ``get`` takes them: a prefix, or the hash part
            matches = _partial_matches(ref, entries)
        if not matches:
            raise NotFound(f"no forgotten memory with id {ref!r} in {self.trash_dir}")
        ids = sorted({e.id for e in matches})
        if len(ids) > 1:
            raise _ambiguous(ref, ids, "forgotten memories")
        entry = matches[0]  # the newest, when one id was forgotten more than once
        target = self.root / entry.original
        self._check_inside(Path(entry.original))
        if target.exists():
            raise WriteRefused(
                f"{entry.original} exists again; move it away first, the forgotten copy is in {self.trash_dir / entry.trashed}"
            )
        trashed = self.trash_dir / entry.trashed
        if not Path(os.path.realpath(trashed)).is_relative_to(self.root):
            raise OutsideVault(trashed.relative_to(self.root), "leads outside the vault; not restored")
        check_trashed_id(trashed, entry.id, self.config["vault"]["max_file_bytes"])
        move_no_clobber(trashed, target)
        self._autocommit([target, trashed], f"vmem: restore {entry.id}")
        return self.read(entry.original)

    # ------------------------------------------------------------------ helpers

    def unused_id(self, wanted: str, trashed: set[str] | None = None) -> str:
        """Ids are never reused, not even those of forgotten memories (``trashed``, read
        from the trash when not given)."""
        taken = {e.id for e in self.trash()} if trashed is None else trashed
        candidate, n = wanted, 1
        while candidate in taken or any((self.root / f / f"{candidate}.md").exists() for f in TYPE_FOLDERS.values()):
            n += 1
            candidate = f"{wanted}-{n}"
        return candidate

    def sweep_temps(self) -> None:
        """Remove what killed writes left anywhere in the vault: every folder that holds a
        memory (and the type folders), each at most once a minute. A sync does this, so a
        temp file left where no remember writes again does not stay for ever; the folders
        are those the walk the sync has just made listed, not a second walk."""
        if self._last_walk is None:
            self.files()
        folders = {self.root} | {self.root / f for f in TYPE_FOLDERS.values()}
        folders |= {self.root / folder for folder in self._last_folders}  # the walk's list: not a look at every file
        for folder in folders:
            self._sweep(folder)

    def _sweep(self, folder: Path) -> None:
        """Remove what killed writes left in ``folder``: at most once a minute per folder, so
        writing many memories does not list a large folder again and again."""
        now = time.monotonic()
        if now - self._swept.get(folder, -STALE_TEMP_SECONDS) >= STALE_TEMP_SECONDS:
            self._swept[folder] = now
            sweep_stale_temps(folder)

    def _check_inside(self, rel: Path) -> None:
        if rel.is_absolute() or ".." in rel.parts:
            raise InvalidId(f"{rel} is not a path inside the vault")
        real = Path(os.path.realpath(self.root / rel))
        if not real.is_relative_to(self.root):
            raise InvalidId(f"{rel} leads outside the vault")

    def _autocommit(self, paths: list[Path], message: str) -> None:
        if self.config["git"]["autocommit"] and gitops.is_git_repo(self.root):
            error = gitops.commit_paths(self.root, paths, message)
            if error:
                self.warnings.append(f"git autocommit failed (the file is written): {error}")


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0
