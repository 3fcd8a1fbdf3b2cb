"""Keeping the derived indexes in step with the vault's files.

``Indexer.sync`` is incremental: a ``stat`` walk finds what may have changed, only those
files are hashed, only files whose content hash changed are parsed and re-embedded, a
moved file keeps its vectors, and a deleted one leaves every index. Given the paths a
daemon's file events named, it ``stat``s only those (``plan_paths``) and patches the
stamps file, so one edit costs the same at any vault size. ``Indexer.reindex``
builds everything anew in a fresh generation and switches to it when done. Broken files
are recorded (for ``doctor``/``status``) and skipped; they never stop a sync.

Order of a publish: vectors file, then the Whoosh commit, then the catalog commit (the
catalog is the record of what is done), all under the exclusive snapshot lock so a reader
sees the whole batch or none of it. A crash before the catalog commit is repaired by the
next sync, which finds the same files changed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import IndexDamaged, MemoryFileError
from ..vault.fileformat import parse_memory
from ..vault.fsutil import sweep_stale_temps
from ..vault.memory import Memory
from ..vault.scanner import FileEntry, Scan, Stamp, stat_entry
from ..vault.trash import Trash
from ..vault.vault import Problem, Vault, problem_from_error
from .catalog import FORMAT_VERSION, Catalog, FileRow, Meta, duplicate_message
from .checkup import file_problems, record_vector_sizes, vector_files, vector_sizes_differ
from .chunking import chunk_text, embedding_text
from .embedder import Embedder, token_model, vector_split
from .generations import Generation, IndexLayout, check_compatible, read_stamps, stamps_digest, write_stamps
from .keyword_index import ANALYSIS, document
from .locks import file_lock
from .token_store import TokenFiles, codec_for
from .vector_index import BuiltVectors, Vectors, split_of, split_text

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


def _sha(raw: bytes) -> str:
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def _named_changes(
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


def _stamps_of(generation: Generation, meta: dict[str, str]) -> tuple[str, bool, list[Stamp]] | None:
    """The recorded stamps, when they speak for this catalog commit (``Meta.STAMPS_TOKEN``)."""
    known = read_stamps(generation.stamps_path)
    return known if known is not None and known[0] == meta.get(Meta.STAMPS_TOKEN) else None


def _recorded(
    generation: Generation, catalog: Catalog, meta: dict[str, str]
) -> tuple[bool, list[Stamp] | set[Stamp] | None]:
    """(the catalog holds vectors, its file stamps) for a no-change check: None for the
    stamps when their digest is kept (``Meta.STAMPS_DIGEST``: a walk is compared with it
    first), else the stamps file when it speaks for this catalog, else the catalog's rows."""
    if meta.get(Meta.STAMPS_DIGEST):
        return bool(catalog.chunk_counts()[0]), None
    known = _stamps_of(generation, meta)
    if known is not None:
        return known[1], known[2]
    return bool(catalog.chunk_counts()[0]), catalog.stat_rows()


def _same_stamps(walked: list[Stamp], indexed: list[Stamp] | set[Stamp]) -> bool:
    """The same list when nothing changed and the folders list their files as before;
    else the same set (a folder may list its files in another order after a restore)."""
    if isinstance(indexed, set):
        return len(walked) == len(indexed) and set(walked) == indexed
    return walked == indexed or (len(walked) == len(indexed) and set(walked) == set(indexed))


def _record_sizes(catalog: Catalog, generation: Generation, moves: list[tuple[Path, Path | None]]) -> None:
    """Keep in the catalog the size each vector file will have once published, so a sync
    tells a truncated or replaced file (``checkup.file_problems``) without reading it."""
    keys = vector_files(generation)
    catalog.set_meta(**{keys[target]: staged.stat().st_size if staged else 0 for target, staged in moves})


def stat_changes(entries: list[FileEntry], rows: dict[str, FileRow]) -> tuple[list[FileEntry], list[str]]:
    """(entries whose size, mtime, ctime or inode differ from the catalog, or are new;
    catalog paths now gone)."""
    present = {e.relpath for e in entries}
    suspects = [e for e in entries if (r := rows.get(e.relpath)) is None or r.stamp != e.stamp]
    gone = [p for p in rows if p not in present]
    return suspects, gone


#: files read, parsed, embedded and written per step of a build: the build holds one batch
BUILD_BATCH = 512
#: memories per keyword segment of a build: Whoosh sorts a segment's postings when it
#: commits, in memory up to its pool's 128 MB (about 13,000 memories) and by spilled runs
#: and an external merge beyond, which made the one segment of 100,000 memories commit in
#: 168 s against 8 s for 10,000; a segment this size sorts in memory, so the keyword
#: index costs the same per memory at any size (13 segments at 100,000)
BUILD_SEGMENT = 8192


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


class _Damaged(Exception):
    """The live generation cannot be read: it is rebuilt from the files."""


class Indexer:
    """Writes the indexes of one vault. Only one process writes at a time (``write.lock``)."""

    def __init__(self, vault: Vault, embedder: Embedder, lock_timeout: float = 60.0, build_batch: int = BUILD_BATCH):
        self.vault = vault
        self.embedder = embedder
        self.layout = IndexLayout(vault.state)
        self.lock_timeout = lock_timeout
        self.build_batch = build_batch
        #: whether the model gives token vectors from the pass that embeds (``token_store``)
        self.gives_tokens = callable(getattr(embedder, "embed_with_tokens", None))
        #: (Python's hash of the last stamps digested, their digest): see ``_digest``
        self._digested: tuple[int, str] | None = None
        #: the last ``is_fresh`` found the files unchanged without the recorded digest (of
        #: an earlier kind, or of another order): a whole sync records one again
        self.stale_digest = False

    # ------------------------------------------------------------------ planning

    def is_fresh(self, walked: Scan | None = None) -> bool:
        """Does the index match the files? A ``stat`` walk compared with the file stamps the
        catalog holds: read from ``stamps.marshal`` when its token is the catalog's (written
        after each commit, under the write lock), else from the catalog's rows.

        Size, mtime, ctime and inode of every file, and the set of paths: an edit in place
        that keeps size and mtime still changes ctime; a create, delete or rename changes the
        set. The walk is compared by the digest the catalog recorded (``stamps_digest``, a
        SHA-1: two walks alike in it are taken for the same), else exactly with the stamps."""
        generation = self.layout.current()
        self.stale_digest = False
        if generation is None:
            return False
        try:
            catalog = Catalog(generation.catalog_path)
            try:
                meta = catalog.meta()
                if not catalog.up_to_date or meta.get(Meta.FORMAT_VERSION) != str(FORMAT_VERSION):
                    return False
                has_vectors, indexed = _recorded(generation, catalog, meta)
            finally:
                catalog.close()
        except IndexDamaged:
            return False  # the sync that follows rebuilds it
        if has_vectors and not generation.vectors_path.exists():
            return False  # the vectors file was deleted: the sync that follows rebuilds it
        if file_problems(generation, meta, verify=False):
            return False  # truncated, deleted or another generation's: the sync that follows rebuilds it
        walked_stamps = walked.stamps if walked is not None else self.vault.stamps()
        if indexed is None:
            if self._digest(walked_stamps) == meta[Meta.STAMPS_DIGEST]:
                return True
            known = _stamps_of(generation, meta)  # another order, or a change: the stamps say which
            if known is None:
                return False  # unreadable: the sync that follows finds out
            indexed = known[2]
        self.stale_digest = _same_stamps(walked_stamps, indexed)
        return self.stale_digest

    def _digest(self, stamps: list[Stamp]) -> str:
        """``stamps_digest``, remembered for the last stamps: a walk of an unchanged vault
        has the same 64-bit hash as the one before, which Python computes in a third of the
        digest's time (0.75 against 2.2 ms at 10,000 files; a tenth of a no-change sync's
        cost over its walk). Two walks that differ and hash alike: one in 2**64."""
        key = hash(tuple(stamps))
        if self._digested is None or self._digested[0] != key:
            self._digested = (key, stamps_digest(stamps))
        return self._digested[1]

    def _record_stamps(self, generation: Generation, catalog: Catalog) -> None:
        """What the committed catalog knows, for the next no-change check (under the write
        lock; a failure only makes the next check read the catalog's rows)."""
        rows = catalog.stat_rows()
        walked = self.vault.last_stamps  # the plan's walk: in the order the next walk will give
        order = walked if walked is not None and len(walked) == len(rows) and set(walked) == rows else sorted(rows)
        self._write_stamps(generation, catalog, order)

    def _patch_stamps(
        self, generation: Generation, catalog: Catalog, plan: Plan, known: list[Stamp], walked: Scan | None
    ) -> None:
        """The stamps file after a sync of named paths: the paths the plan touched take the
        catalog's new stamps in place (a new file at the end), the rest are kept as they
        were, so a vault of 100,000 files is not queried row by row for one edit. When they
        are the stamps of the walk the sync planned from, they are kept in its order (the
        next no-change check compares lists before it compares sets)."""
        touched = {entry.relpath for entry, *_ in plan.changed} | {entry.relpath for entry in plan.touched}
        touched |= set(plan.deleted) | {old for old, _ in plan.renamed} | {entry.relpath for _, entry in plan.renamed}
        fresh = {stamp[0]: stamp for stamp in catalog.stat_rows(touched)}
        stamps: list[Stamp] = []
        for stamp in known:
            if stamp[0] not in touched:
                stamps.append(stamp)
            elif (now := fresh.pop(stamp[0], None)) is not None:
                stamps.append(now)
        stamps += fresh.values()
        if walked is not None and len(walked.stamps) == len(stamps) and set(walked.stamps) == set(stamps):
            stamps = walked.stamps
        self._write_stamps(generation, catalog, stamps)

    def _write_stamps(self, generation: Generation, catalog: Catalog, stamps: list[Stamp]) -> None:
        token = os.urandom(8).hex()
        try:
            catalog.set_meta(**{Meta.STAMPS_TOKEN: token, Meta.STAMPS_DIGEST: self._digest(stamps)})
            write_stamps(generation.stamps_path, token, bool(catalog.chunk_counts()[0]), stamps)
        except OSError:
            pass

    def plan(self, catalog: Catalog, entries: list[FileEntry] | None = None) -> Plan:
        """What a sync of the whole vault must do: a walk's files against every catalog row."""
        entries = self.vault.files() if entries is None else entries
        return self._plan(catalog, entries, catalog.files())

    def plan_paths(self, catalog: Catalog, paths: Iterable[str]) -> Plan:
        """What a sync of just ``paths`` must do: each path ``stat``ed and its catalog row
        read, nothing walked. A created, edited or deleted file names itself, a moved one
        both its paths (so a rename is still seen as one and keeps its vectors)."""
        named = sorted(set(paths))
        root, rules = self.vault.root, self.vault.ignore_rules
        entries = [entry for path in named if (entry := stat_entry(root, path, rules)) is not None]
        return self._plan(catalog, entries, catalog.files(named))

    def _plan(self, catalog: Catalog, entries: list[FileEntry], rows: dict[str, FileRow]) -> Plan:
        """Compare files with the catalog rows of the same paths: a stamp that differs is
        read, and its hash tells an edit from a touch, a move from a new file."""
        suspects, gone = stat_changes(entries, rows)
        plan = Plan(unchanged=len(entries) - len(suspects))
        gone_by_sha: dict[str, list[str]] = {}
        for path in gone:
            if rows[path].sha:
                gone_by_sha.setdefault(rows[path].sha, []).append(path)
        renamed_from: set[str] = set()
        for entry in suspects:
            _, raw, sha, error = self._read(entry)
            row = rows.get(entry.relpath)
            if row is not None and sha and row.sha == sha and not row.error:
                plan.touched.append(entry)
            elif row is None and sha and gone_by_sha.get(sha):
                old = gone_by_sha[sha].pop()
                renamed_from.add(old)
                plan.renamed.append((old, entry))
            else:
                plan.changed.append((entry, raw, sha, error))
                if row is not None:
                    plan.known.add(entry.relpath)
        plan.deleted = [p for p in gone if p not in renamed_from]
        if not plan.empty:  # files skipped as duplicates may be unique now: read them again
            self._recheck_duplicates(catalog, plan)
        return plan

    def _recheck_duplicates(self, catalog: Catalog, plan: Plan) -> None:
        """Add to ``plan`` the files skipped as duplicate ids that it does not already hold
        (one that is gone is the next walk's to find)."""
        planned = {entry.relpath for entry, *_ in plan.changed} | set(plan.deleted)
        root, rules = self.vault.root, self.vault.ignore_rules
        for path in catalog.duplicate_paths():
            found = stat_entry(root, path, rules) if path not in planned else None
            if found is None:
                continue
            try:
                raw = self.vault.read_bytes(found.relpath, found)
            except MemoryFileError:
                continue
            plan.changed.append((found, raw, _sha(raw), None))
            plan.known.add(found.relpath)

    # ------------------------------------------------------------------ public

    def sync(
        self, progress: Progress | None = None, walked: Scan | None = None, paths: Iterable[str] | None = None
    ) -> SyncReport:
        """Bring the live generation up to date with the files (creating it if needed).
        ``walked``: a walk just made (the no-change check's), planned from instead of a
        second one (a second walk was a fifth of a one-file sync at 100,000 memories); a
        file that changes after it is found by the next check, as after any walk.
        ``paths``: only these may have changed (the files a daemon's events named; given a
        walk, the paths whose stamps differ from the recorded ones), so nothing else is
        walked or read and the stamps file is patched, not rewritten; the
        whole vault is synced instead when the stamps file does not speak for the catalog
        (after a crash, a first sync, an older vmem), since only a whole sync repairs."""
        started = time.perf_counter()
        with file_lock(
            self.layout.write_lock, timeout=self.lock_timeout, what="the index (another sync or reindex is running)"
        ):
            generation = self.layout.current()
            try:
                if generation is None:
                    raise _Damaged("no index yet")
                report = self._sync_live(generation, progress, walked, paths)
            except _Damaged as why:
                report = self._rebuild(progress, walked)
                if generation is not None:
                    report.repaired = str(why)
        report.seconds = time.perf_counter() - started
        return report

    def _sync_live(
        self, generation: Generation, progress: Progress | None, walked: Scan | None, paths: Iterable[str] | None
    ) -> SyncReport:
        """Apply what changed to the live generation; ``_Damaged`` when it cannot be read,
        or was written in an older format (an index is derived: it is rebuilt, not repaired)."""
        sweep_stale_temps(generation.keyword.folder, suffix=".tmp", max_age=0)  # no writer runs: we hold the lock
        try:
            catalog = Catalog(generation.catalog_path)
            meta = catalog.meta()
        except IndexDamaged as e:
            raise _Damaged(str(e)) from None
        try:
            leftover = self._check_live(generation, catalog, meta)
            whole = paths is None  # asked for the whole vault (`vmem sync`, a reconcile)
            known, walked, matched = self._recorded_and_walk(generation, meta, whole, walked)
            paths, outside_paths = _named_changes(paths, walked, known)
            targeted = paths is not None and known is not None and catalog.up_to_date and not leftover
            plan = self._live_plan(generation, catalog, paths if targeted else None, walked, check_keyword=whole)
            plan.unchanged += outside_paths if targeted else 0
            report = SyncReport(unchanged=plan.unchanged)
            if plan.empty:
                if known is None or (whole and not matched):  # listed in another order, or an older digest
                    self._record_stamps(generation, catalog)  # the next check: one digest, no file read
                return self._counted_unreadable(report, catalog) if whole else report
            generation.stamps_path.unlink(missing_ok=True)  # never older than the catalog
            try:
                self._apply(generation, catalog, plan, report, progress, whole=not targeted)
            except IndexDamaged as e:
                raise _Damaged(str(e)) from None
            if targeted and known is not None:
                self._patch_stamps(generation, catalog, plan, known[2], walked)
            else:
                self._record_stamps(generation, catalog)
            return self._counted_unreadable(report, catalog) if whole else report
        finally:
            catalog.close()

    @staticmethod
    def _counted_unreadable(report: SyncReport, catalog: Catalog) -> SyncReport:
        """``report`` with the vault's unreadable files counted apart: those this sync read
        are its problems, the others were counted unchanged."""
        report.unreadable = catalog.unreadable()
        report.unchanged = max(0, report.unchanged - max(0, report.unreadable - len(report.problems)))
        return report

    def _recorded_and_walk(
        self, generation: Generation, meta: dict[str, str], whole: bool, walked: Scan | None
    ) -> tuple[tuple[str, bool, list[Stamp]] | None, Scan | None, bool]:
        """(the recorded stamps, when they speak for this catalog; the walk to plan from;
        whether its digest is the recorded one). A sync of the whole vault walks once, and
        the stamps name what changed in it; a walk whose digest is the recorded one
        (``Meta.STAMPS_DIGEST``) changed nothing, known without reading the stamps file."""
        digest = meta.get(Meta.STAMPS_DIGEST)
        if whole and walked is None and digest:
            walked = self.vault.walk()
        if whole and walked is not None and digest and digest == self._digest(walked.stamps):
            return (meta[Meta.STAMPS_TOKEN], True, walked.stamps), walked, True
        known = _stamps_of(generation, meta)
        if whole and walked is None and known is not None:
            walked = self.vault.walk()
        return known, walked, False

    def _check_live(self, generation: Generation, catalog: Catalog, meta: dict[str, str]) -> bool:
        """``_Damaged`` for a generation a sync must not add to: another format, damaged
        files (``checkup.file_problems``); another model is the user's to decide (``vmem
        reindex``). True when whole vector files a killed sync left are there (they load;
        the whole sync that follows sweeps them)."""
        if meta.get(Meta.FORMAT_VERSION) not in (None, str(FORMAT_VERSION)):
            raise _Damaged(f"the index has format {meta.get('format_version')}, this vmem writes {FORMAT_VERSION}")
        check_compatible(meta, self.embedder.model_id)
        damaged = file_problems(generation, meta)
        if damaged:
            raise _Damaged("; ".join(f"{name} {what}" for name, what in damaged))
        leftover = bool(vector_sizes_differ(generation, meta))
        if leftover:
            record_vector_sizes(catalog, generation)
        return leftover

    def _live_plan(
        self,
        generation: Generation,
        catalog: Catalog,
        paths: Iterable[str] | None,
        walked: Scan | None,
        check_keyword: bool = False,
    ) -> Plan:
        """What to apply: the files ``paths`` names (a targeted sync), else the whole vault.
        A sync asked for the whole vault also checks what a targeted one trusts (every
        keyword segment opens, the vectors file is there), even when the stamps of its
        walk name the few files it reads: a sync with nothing changed costs the walk and
        those checks, not a comparison with every catalog row. The keyword segments are
        opened only when the folder is not as the last commit left it (``Meta.KEYWORD_FILES``:
        its files and sizes): opening them copies every term file (130 ms at 100k)."""
        try:
            catalog.migrate()
            plan = (
                self.plan_paths(catalog, paths) if paths is not None else self.plan(catalog, self.vault.files(walked))
            )
        except IndexDamaged as e:
            raise _Damaged(str(e)) from None
        as_committed = check_keyword and catalog.meta().get(Meta.KEYWORD_FILES) == generation.keyword.file_sizes()
        if paths is None or (check_keyword and not as_committed):
            try:
                with generation.keyword.open().reader() as reader:  # opens every segment
                    reader.doc_count_all()
            except Exception as e:  # Whoosh reports a damaged segment with many kinds of error
                raise _Damaged(f"the keyword index cannot be read ({type(e).__name__}: {e})") from None
        if catalog.chunk_counts()[0] and not generation.vectors_path.exists():
            raise _Damaged(f"{generation.vectors_path.name} is missing")
        return plan

    def reindex(self, progress: Progress | None = None) -> SyncReport:
        """Rebuild every index from the files into a new generation, then switch to it."""
        started = time.perf_counter()
        with file_lock(
            self.layout.write_lock, timeout=self.lock_timeout, what="the index (another sync or reindex is running)"
        ):
            report = self._rebuild(progress)
        report.seconds = time.perf_counter() - started
        return report

    # ------------------------------------------------------------------ work

    def _rebuild(self, progress: Progress | None, walked: Scan | None = None) -> SyncReport:
        generation = self.layout.new_generation()
        generation.keyword.create()
        catalog = Catalog(generation.catalog_path)
        try:
            catalog.migrate()
            catalog.set_meta(
                **{
                    Meta.FORMAT_VERSION: FORMAT_VERSION,
                    Meta.MODEL_ID: self.embedder.model_id,
                    Meta.KEYWORD_ANALYSIS: ANALYSIS,
                }
            )
            split = vector_split(self.embedder.model_id)
            if split is not None:  # chosen once for the generation's life
                catalog.set_meta(**{Meta.VECTOR_SPLIT: split_text(split)})
            report = SyncReport(rebuilt=True)
            self._build(generation, catalog, self.vault.files(walked), report, progress)
            report.unreadable = catalog.unreadable()
            catalog.set_meta(**{Meta.KEYWORD_FILES: generation.keyword.file_sizes()})
            self._record_stamps(generation, catalog)
        finally:
            catalog.close()
        generation.mark_complete()
        with file_lock(self.layout.snapshot_lock, timeout=self.lock_timeout):
            self.layout.publish(generation)
        self.layout.prune()
        return report

    def _build(
        self,
        generation: Generation,
        catalog: Catalog,
        entries: list[FileEntry],
        report: SyncReport,
        progress: Progress | None,
    ) -> None:
        """Fill a new, unpublished generation from every file, streamed in path-ordered batches:
        read, parse, embed and write one batch, then drop it, so the build's memory is the
        model, the indexes and one batch, whatever the vault's size. One Whoosh writer and one
        vector index take every batch; the catalog commits per batch (nobody reads it before
        ``publish``). The keyword index is committed a segment every ``BUILD_SEGMENT``
        memories. In path order, the first file to claim an id is the memory and a later
        one is skipped as a duplicate before it is embedded, as a live sync decides it."""
        dim = self.embedder.dim
        split = split_of(catalog.meta().get(Meta.VECTOR_SPLIT))
        vector_index = BuiltVectors(generation, dim, split, capacity=len(entries) + 16) if dim else None
        keeps_tokens = self.gives_tokens and bool(self.vault.config["recall"]["late_interaction"])
        pieces_of, pieces_dim = token_model(self.embedder)
        tokens = (
            TokenFiles(generation.folder, codec_for(pieces_of, pieces_dim)) if keeps_tokens and pieces_dim else None
        )
        keyword = generation.keyword.open()
        writer = keyword.writer(timeout=self.lock_timeout)
        in_segment = 0
        claimed: dict[str, str] = {}  # id -> the first path that claims it
        next_label = 0
        try:
            for start in range(0, len(entries), self.build_batch):
                if in_segment >= BUILD_SEGMENT:
                    writer.commit(merge=False)  # never merged into one: that is the sort it avoids
                    writer, in_segment = keyword.writer(timeout=self.lock_timeout), 0
                batch = entries[start : start + self.build_batch]
                catalog.begin()
                kept = self._catalog_batch(catalog, writer, batch, claimed, report)
                in_segment += len(kept)
                labels, vectors = self._embed_batch(catalog, kept, next_label, tokens, report)
                next_label += len(labels)
                catalog.commit()
                if vector_index is not None and labels:
                    vector_index.add(labels, vectors)
                if progress:
                    progress("build", start + len(batch), len(entries))
            report.embedded_chunks = next_label
            self._finish_build(generation, catalog, dim, tokens, vector_index, progress)
            self._record_forgotten(catalog)
            writer.commit(merge=False)
        except BaseException:
            writer.cancel()
            catalog.rollback()
            raise
        if progress:
            progress("commit", 1, 1)

    def _catalog_batch(
        self, catalog: Catalog, writer: Any, batch: list[FileEntry], claimed: dict[str, str], report: SyncReport
    ) -> list[Parsed]:
        """Read and parse one batch of a build into the catalog and the keyword writer; the
        memories kept (a later file claiming an id already claimed is skipped, said)."""
        kept: list[Parsed] = []
        for entry, sha, memory, error in self._parse([self._read(entry) for entry in batch], report):
            first = claimed.setdefault(memory.id, entry.relpath) if memory is not None else None
            if memory is not None and first != entry.relpath:
                message = duplicate_message(memory.id, first or "")
                catalog.upsert_file(file_row(entry, sha, memory, None, message), None)
                report.problems.append(Problem(entry.relpath, message, "duplicate_id"))
                continue
            catalog.upsert_file(file_row(entry, sha, memory, error), memory)
            if memory is not None:
                kept.append((entry, sha, memory, error))
                writer.add_document(**document(memory, writer.schema))
        return kept

    def _embed_batch(
        self,
        catalog: Catalog,
        kept: list[Parsed],
        next_label: int,
        tokens: TokenFiles | None,
        report: SyncReport,
    ) -> tuple[list[int], np.ndarray]:
        """Embed one batch of a build: its chunks' labels (from ``next_label`` on) and token
        rows into the catalog; returns the labels and their vectors, for the vector index
        once the catalog has committed them."""
        chunk_texts, vectors, pieces = self._embed_changes(kept, report, None, tokens is not None)
        spans = iter(tokens.append(pieces)) if tokens is not None and pieces is not None else None
        labels: list[int] = []
        for (entry, *_), chunks in zip(kept, chunk_texts):
            mine = list(range(next_label, next_label + len(chunks)))
            next_label += len(chunks)
            catalog.add_chunks(entry.relpath, mine, [next(spans) for _ in mine] if spans else None)
            labels += mine
        report.added += len(kept)
        catalog.set_meta(**{Meta.NEXT_LABEL: next_label})
        return labels, vectors

    def _record_forgotten(self, catalog: Catalog) -> None:
        """What forgotten memories had replaced, in the catalog (``Meta.FORGOTTEN_SUPERSEDED``)."""
        forgotten = Trash(self.vault.trash_dir).superseded()
        catalog.set_meta(**{Meta.FORGOTTEN_SUPERSEDED: json.dumps(forgotten, sort_keys=True)})

    @staticmethod
    def _finish_build(
        generation: Generation,
        catalog: Catalog,
        dim: int | None,
        tokens: TokenFiles | None,
        vector_index: BuiltVectors | None,
        progress: Progress | None,
    ) -> None:
        """What a whole build records once: the dimensions, the token rows and their tail,
        the vector file (saved) and its size, and commit 0 (``Meta.COMMIT_SEQ``: a reader of the
        build reads only what the first sync after it touches)."""
        catalog.set_meta(**{Meta.COMMIT_SEQ: 0})
        if dim:
            catalog.set_meta(**{Meta.DIM: dim})
        if tokens is not None:
            rows = tokens.row_count()
            catalog.set_meta(
                **{
                    Meta.TOKENS_DIM: tokens.dim,
                    Meta.TOKENS_CODEC: tokens.codec.name,
                    Meta.TOKEN_ROWS: rows,
                    Meta.TOKEN_TAIL: tokens.fingerprint(rows),
                }
            )
        if progress:
            progress("commit", 0, 1)
        if vector_index is not None:
            vector_index.save()
            record_vector_sizes(catalog, generation)

    def _read(self, entry: FileEntry) -> Read:
        """One file read for a sync; a file that cannot be read is an error in the result."""
        try:
            raw = self.vault.read_bytes(entry.relpath, entry)
        except MemoryFileError as e:
            return entry, None, "", e
        return entry, raw, _sha(raw), None

    def _apply(
        self,
        generation: Generation,
        catalog: Catalog,
        plan: Plan,
        report: SyncReport,
        progress: Progress | None,
        whole: bool,
    ) -> None:
        """Parse and embed what changed, stage it in all three indexes, then publish. A sync
        of a few files (not ``whole``) writes its vectors to the delta, not the hnswlib file."""
        parsed = self._parse(plan.changed, report)
        # a generation built with token vectors keeps them for every chunk it holds
        keeps_tokens = self.gives_tokens and bool(catalog.meta().get(Meta.TOKENS_DIM))
        chunk_texts, vectors, pieces = self._embed_changes(parsed, report, progress, keeps_tokens)  # before any lock
        dim = self.embedder.dim or (int(catalog.meta()[Meta.DIM]) if catalog.meta().get(Meta.DIM) else None)
        live = catalog.chunk_counts()[0]
        vector_stage = (
            Vectors.for_sync(
                generation.vectors_path,
                generation.vectors_delta_path,
                dim,
                whole=whole,
                live=live,
                adding=len(vectors),
                split=split_of(catalog.meta().get(Meta.VECTOR_SPLIT)),
            )
            if dim
            else None
        )
        # a new file needs no delete in the keyword index (which opens a reader over every
        # segment: 160 ms at 100,000 memories) unless a killed sync left documents the
        # catalog does not know: then the counts differ, and every added path is deleted first
        keyword_agrees = not whole and generation.keyword.document_count() == catalog.count()
        catalog.begin()
        try:
            spans = self._stage_tokens(generation, catalog, pieces)
            stale_labels, new_labels, skipped = self._stage_catalog(
                catalog, plan, parsed, chunk_texts, spans, vector_stage, dim, report, whole
            )
            writer = self._stage_keyword(generation, catalog, plan, parsed, skipped, keyword_agrees)
            try:
                moves = self._stage_vectors(catalog, vector_stage, stale_labels, new_labels, vectors)
                _record_sizes(catalog, generation, moves)
                seq = int(catalog.meta().get(Meta.COMMIT_SEQ, 0)) + 1
                catalog.set_meta(**{Meta.COMMIT_SEQ: seq, Meta.STAMPS_DIGEST: ""})
                if whole or plan.deleted or plan.renamed:  # a forget, a restore, a merge or pull: read the trash
                    self._record_forgotten(catalog)
            except BaseException:
                writer.cancel()
                raise
            # publish: readers see all of it or none of it
            if progress:
                progress("commit", 0, 1)
            with file_lock(self.layout.snapshot_lock, timeout=self.lock_timeout):
                for target, staged in moves:
                    if staged is None:
                        target.unlink(missing_ok=True)
                    else:
                        os.replace(staged, target)
                writer.commit()
                catalog.set_meta(**{Meta.KEYWORD_FILES: generation.keyword.file_sizes()})
                catalog.commit()
        except BaseException:
            catalog.rollback()
            raise
        report.commit = (seq, frozenset(catalog.touched))
        if progress:
            progress("commit", 1, 1)

    def _parse(self, changed: list[Read], report: SyncReport) -> list[Parsed]:
        parsed: list[Parsed] = []
        for entry, raw, sha, error in changed:
            memory = None
            if error is None:
                try:
                    memory = self.vault.dated(parse_memory(raw or b"", Path(entry.relpath)), entry.mtime_ns)
                except MemoryFileError as e:
                    error = e
            if error is not None:
                report.problems.append(problem_from_error(error))
            parsed.append((entry, sha, memory, error))
        return parsed

    def _embed_changes(
        self, parsed: list[Parsed], report: SyncReport, progress: Progress | None, with_tokens: bool
    ) -> tuple[list[list[str]], np.ndarray, list[np.ndarray] | None]:
        """The chunks of every parsed memory, their vectors, and (``with_tokens``) their
        token vectors, all in the same order."""
        tokenizer = getattr(self.embedder, "tokenizer", lambda: None)()
        chunk_texts = [
            chunk_text(embedding_text(m.key, m.shared_text), tokenizer) for _, _, m, _ in parsed if m is not None
        ]
        flat = [c for chunks in chunk_texts for c in chunks]
        report.embedded_chunks = len(flat)
        vectors, pieces = self._embed(flat, progress, with_tokens)
        return chunk_texts, vectors, pieces

    @staticmethod
    def _stage_moves(catalog: Catalog, plan: Plan, report: SyncReport) -> list[int]:
        """Record the plan's deletions, renames and touches; returns the labels freed."""
        stale_labels: list[int] = []
        for path in plan.deleted:
            stale_labels += catalog.delete_file(path)
            report.deleted += 1
        for old, entry in plan.renamed:
            catalog.rename_file(old, entry.relpath, entry.stamp)
            report.renamed += 1
        for entry in plan.touched:
            catalog.touch_file(entry.relpath, entry.stamp)
        return stale_labels

    def _stage_catalog(
        self,
        catalog: Catalog,
        plan: Plan,
        parsed: list[Parsed],
        chunk_texts: list[list[str]],
        spans: list[tuple[int, int]] | None,
        vector_stage: Vectors | None,
        dim: int | None,
        report: SyncReport,
        whole: bool,
    ) -> tuple[list[int], list[int], set[str]]:
        """Record deletions, renames, touches and changed files (with fresh chunk labels) in
        the open catalog transaction; returns (labels to drop, labels to add, paths skipped
        as duplicates). Only a ``whole`` sync looks for duplicate ids among every file; a
        sync of a few looks among the ids it wrote (no other can have become one)."""
        stale_labels = self._stage_moves(catalog, plan, report)
        new_labels: list[int] = []
        chunk_counts = iter(len(chunks) for chunks in chunk_texts)
        token_spans = iter(spans) if spans is not None else None
        stored = vector_stage.stored_labels() if vector_stage is not None else set()
        next_label = max(int(catalog.meta().get(Meta.NEXT_LABEL, "0")), max(stored, default=-1) + 1)
        for entry, sha, memory, error in parsed:
            stale_labels += catalog.release_labels(entry.relpath)
            catalog.upsert_file(file_row(entry, sha, memory, error), memory)
            if memory is None:
                continue
            n = next(chunk_counts)
            labels = list(range(next_label, next_label + n))
            next_label += n
            catalog.add_chunks(entry.relpath, labels, [next(token_spans) for _ in labels] if token_spans else None)
            new_labels += labels
            if entry.relpath in plan.known:
                report.updated += 1
            else:
                report.added += 1
        skipped = self._skip_duplicates(catalog, plan, parsed, report, stale_labels, whole)
        catalog.set_meta(
            **{Meta.NEXT_LABEL: next_label, Meta.FORMAT_VERSION: FORMAT_VERSION, Meta.MODEL_ID: self.embedder.model_id}
        )
        if dim:
            catalog.set_meta(**{Meta.DIM: dim})
        return stale_labels, new_labels, skipped

    @staticmethod
    def _skip_duplicates(
        catalog: Catalog, plan: Plan, parsed: list[Parsed], report: SyncReport, stale_labels: list[int], whole: bool
    ) -> set[str]:
        """Two files claiming one id: the first by path is the memory, the others are skipped
        (as `doctor` and every scan see it), until they are unique again. Their labels join
        ``stale_labels``; returns their paths."""
        skipped: set[str] = set()
        written = [m.id for _, _, m, _ in parsed if m is not None]
        moved = catalog.files([entry.relpath for _, entry in plan.renamed]).values()  # a derived id follows its path
        among = None if whole else [*written, *(row.id for row in moved if row.id)]
        for memory_id, paths in catalog.duplicate_ids(among):
            for path in paths[1:]:
                message = duplicate_message(memory_id, paths[0])
                stale_labels += catalog.skip_file(path, message)
                skipped.add(path)
                report.problems.append(Problem(path, message, "duplicate_id"))
        return skipped

    def _stage_tokens(
        self, generation: Generation, catalog: Catalog, pieces: list[np.ndarray] | None
    ) -> list[tuple[int, int]] | None:
        """Append the changed chunks' token vectors to the generation's token files (when it
        keeps them: a build by a vmem that stores them, of a vault that asks for it); their
        spans, chunk by chunk. Rows appended and never committed are never referenced."""
        files = TokenFiles.of(generation.folder, catalog.meta())
        if pieces is None or files is None:
            return None
        spans = files.append(pieces)
        rows = files.row_count()
        catalog.set_meta(**{Meta.TOKEN_ROWS: rows, Meta.TOKEN_TAIL: files.fingerprint(rows)})
        return spans

    def _stage_keyword(
        self,
        generation: Generation,
        catalog: Catalog,
        plan: Plan,
        parsed: list[Parsed],
        skipped: set[str],
        keyword_agrees: bool = False,
    ):
        """A Whoosh writer holding the batch, not yet committed. ``keyword_agrees``: the
        keyword index holds exactly the catalog's memories, so a path the catalog does
        not know is in neither and is added without a delete."""
        moved = []
        for _, entry in plan.renamed:
            record = catalog.records([entry.relpath]).get(entry.relpath)
            if record is not None:
                moved.append(Memory.from_record(record))
        writer = generation.keyword.open().writer(timeout=self.lock_timeout)
        try:
            for path in [*plan.deleted, *(old for old, _ in plan.renamed), *skipped]:
                writer.delete_by_term("path", path)
            for entry, _, memory, _ in parsed:
                if not (keyword_agrees and entry.relpath not in plan.known):
                    writer.delete_by_term("path", entry.relpath)
                if memory is not None and entry.relpath not in skipped:
                    writer.add_document(**document(memory, writer.schema))
            for memory in moved:
                if memory.file.as_posix() not in skipped:
                    writer.add_document(**document(memory, writer.schema))
        except BaseException:
            writer.cancel()
            raise
        return writer

    def _stage_vectors(
        self,
        catalog: Catalog,
        vector_stage: Vectors | None,
        stale_labels: list[int],
        new_labels: list[int],
        vectors: np.ndarray,
    ) -> list[tuple[Path, Path | None]]:
        """Apply the batch to the vectors and stage the files; returns the moves the publish
        makes (none without vectors)."""
        if vector_stage is None:
            return []
        stored = vector_stage.stored_labels()
        folded = vector_stage.base is not None  # every label is in view: ask for all at once
        mapped = set(catalog.label_paths() if folded else catalog.label_paths(sorted(stored | set(new_labels))))
        orphans = stored - mapped  # left by a sync killed before its catalog commit
        vector_stage.delete(sorted(set(stale_labels) | orphans))
        keep = [i for i, label in enumerate(new_labels) if label in mapped]  # not those skipped as duplicates
        if keep:
            vector_stage.add([new_labels[i] for i in keep], vectors[keep])
        return vector_stage.stage(catalog.chunk_counts()[0])

    def _embed(
        self, texts: list[str], progress: Progress | None, with_tokens: bool = False
    ) -> tuple[np.ndarray, list[np.ndarray] | None]:
        """Embed in batches of similar length: the model pads each batch to its longest text,
        so sorting by length saves most of the padding work. ``with_tokens``: each text's
        token vectors too, from the same pass."""
        pieces: list[np.ndarray] | None = [np.empty(0)] * len(texts) if with_tokens else None
        if not texts:
            return np.zeros((0, self.embedder.dim or 1), dtype=np.float32), pieces
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), 0), dtype=np.float32)
        batch = 32
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            if pieces is not None:
                vectors, tokens = self.embedder.embed_with_tokens([texts[i] for i in idx])  # type: ignore[attr-defined]
                for i, token_vectors in zip(idx, tokens):
                    pieces[i] = token_vectors
            else:
                vectors = self.embedder.embed([texts[i] for i in idx])
            if out.shape[1] == 0:
                out = np.zeros((len(texts), vectors.shape[1]), dtype=np.float32)
            out[idx] = vectors
            if progress:
                progress("embed", min(start + batch, len(texts)), len(texts))
        return out, pieces
