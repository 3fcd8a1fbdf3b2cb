"""A sync's plan applied to the live generation: what changed parsed and embedded, staged
in all three indexes in one catalog transaction, then published so a reader sees the whole
batch or none of it (vectors file, then the Whoosh commit, then the catalog commit)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..vault.memory import Memory, duplicate_message
from ..vault.vault import Problem
from .catalog import FORMAT_VERSION, Catalog, Meta
from .filework import FileWork, record_forgotten, record_sizes
from .generations import Generation, IndexLayout
from .keyword_index import document
from .locks import file_lock
from .plan import Parsed, Plan, Progress, SyncReport, file_row
from .token_store import TokenFiles
from .vector_index import Vectors, split_of


class Applier:
    """A plan applied to the live generation: parsed and embedded before any lock, staged
    in the catalog, Whoosh and the vectors, then published under the snapshot lock."""

    def __init__(self, work: FileWork, layout: IndexLayout, lock_timeout: float):
        self.work, self.vault, self.embedder = work, work.vault, work.embedder
        self.layout = layout
        self.lock_timeout = lock_timeout

    def apply(
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
        parsed = self.work.parse(plan.changed, report)
        # a generation built with token vectors keeps them for every chunk it holds
        keeps_tokens = self.work.gives_tokens and bool(catalog.meta().get(Meta.TOKENS_DIM))
        chunk_texts, vectors, pieces = self.work.embed_changes(
            parsed, report, progress, keeps_tokens
        )  # before any lock
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
                record_sizes(catalog, generation, moves)
                seq = int(catalog.meta().get(Meta.COMMIT_SEQ, 0)) + 1
                catalog.set_meta(**{Meta.COMMIT_SEQ: seq, Meta.STAMPS_DIGEST: ""})
                if whole or plan.deleted or plan.renamed:  # a forget, a restore, a merge or pull: read the trash
                    record_forgotten(self.vault, catalog)
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
