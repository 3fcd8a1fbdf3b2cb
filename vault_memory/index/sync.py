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

import time
from collections.abc import Iterable

from ..errors import IndexDamaged, MemoryFileError
from ..vault.fsutil import sweep_stale_temps
from ..vault.scanner import FileEntry, Scan, Stamp, stat_entry
from ..vault.vault import Vault
from .apply import Applier
from .build import BUILD_BATCH, Builder
from .catalog import FORMAT_VERSION, Catalog, FileRow, Meta
from .checkup import file_problems, record_vector_sizes, vector_sizes_differ
from .embedder import Embedder, vector_split
from .filework import FileWork
from .generations import Generation, IndexLayout, check_compatible
from .keyword_index import ANALYSIS
from .locks import file_lock
from .plan import Plan, Progress, SyncReport, content_hash, named_changes, stat_changes
from .stamps import Stamps, stamps_of
from .vector_index import split_text


class _Damaged(Exception):
    """The live generation cannot be read: it is rebuilt from the files."""


class Indexer:
    """Writes the indexes of one vault: plans each sync from a walk and the catalog, and has
    the plan applied (``Applier``) or the whole vault built (``Builder``). Only one process
    writes at a time (``write.lock``)."""

    def __init__(self, vault: Vault, embedder: Embedder, lock_timeout: float = 60.0, build_batch: int = BUILD_BATCH):
        self.vault = vault
        self.embedder = embedder
        self.layout = IndexLayout(vault.state)
        self.lock_timeout = lock_timeout
        self.stamps = Stamps(vault, self.layout)
        work = FileWork(vault, embedder)
        self.builder = Builder(work, lock_timeout, build_batch)
        self.applier = Applier(work, self.layout, lock_timeout)
        self.work = work

    # ------------------------------------------------------------------ planning

    def is_fresh(self, walked: Scan | None = None) -> bool:
        """Does the index match the files? (``Stamps.is_fresh``)"""
        return self.stamps.is_fresh(walked)

    @property
    def stale_digest(self) -> bool:
        """The last ``is_fresh`` found the files unchanged without the recorded digest."""
        return self.stamps.stale_digest

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
            _, raw, sha, error = self.work.read(entry)
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
            plan.changed.append((found, raw, content_hash(raw), None))
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
            paths, outside_paths = named_changes(paths, walked, known)
            targeted = paths is not None and known is not None and catalog.up_to_date and not leftover
            plan = self._live_plan(generation, catalog, paths if targeted else None, walked, check_keyword=whole)
            plan.unchanged += outside_paths if targeted else 0
            report = SyncReport(unchanged=plan.unchanged)
            if plan.empty:
                if known is None or (whole and not matched):  # listed in another order, or an older digest
                    self.stamps.record(generation, catalog)  # the next check: one digest, no file read
                return self._counted_unreadable(report, catalog) if whole else report
            self._apply_live(generation, catalog, plan, report, progress, known if targeted else None, walked)
            return self._counted_unreadable(report, catalog) if whole else report
        finally:
            catalog.close()

    def _apply_live(
        self,
        generation: Generation,
        catalog: Catalog,
        plan: Plan,
        report: SyncReport,
        progress: Progress | None,
        known: tuple[str, bool, list[Stamp]] | None,
        walked: Scan | None,
    ) -> None:
        """A plan applied to the live generation, and its stamps brought along: patched for
        the paths of a targeted sync (``known``: the stamps it started from), else recorded
        anew."""
        generation.stamps_path.unlink(missing_ok=True)  # never older than the catalog
        try:
            self.applier.apply(generation, catalog, plan, report, progress, whole=known is None)
        except IndexDamaged as e:
            raise _Damaged(str(e)) from None
        if known is not None:
            self.stamps.patch(generation, catalog, plan, known[2], walked)
        else:
            self.stamps.record(generation, catalog)

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
        if whole and walked is not None and digest and digest == self.stamps.digest(walked.stamps):
            return (meta[Meta.STAMPS_TOKEN], True, walked.stamps), walked, True
        known = stamps_of(generation, meta)
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
            self.builder.build(generation, catalog, self.vault.files(walked), report, progress)
            report.unreadable = catalog.unreadable()
            catalog.set_meta(**{Meta.KEYWORD_FILES: generation.keyword.file_sizes()})
            self.stamps.record(generation, catalog)
        finally:
            catalog.close()
        generation.mark_complete()
        with file_lock(self.layout.snapshot_lock, timeout=self.lock_timeout):
            self.layout.publish(generation)
        self.layout.prune()
        return report
