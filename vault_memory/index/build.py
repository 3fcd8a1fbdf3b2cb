"""A whole build: every file read, parsed, embedded and written into a new generation in
path-ordered batches, so its memory is the model, the indexes and one batch."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..vault.memory import claim_order, duplicate_message
from ..vault.scanner import FileEntry
from ..vault.vault import Problem
from .catalog import Catalog, Meta
from .checkup import record_vector_sizes
from .embedder import token_model
from .filework import FileWork, record_forgotten
from .generations import Generation
from .keyword_index import document
from .plan import Parsed, Progress, SyncReport, file_row
from .token_store import TokenFiles, codec_for
from .vector_index import BuiltVectors, split_of

#: files read, parsed, embedded and written per step of a build: the build holds one batch
BUILD_BATCH = 512
#: memories per keyword segment of a build: Whoosh sorts a segment's postings when it
#: commits, in memory up to its pool's 128 MB (about 13,000 memories) and by spilled runs
#: and an external merge beyond, which made the one segment of 100,000 memories commit in
#: 168 s against 8 s for 10,000; a segment this size sorts in memory, so the keyword
#: index costs the same per memory at any size (13 segments at 100,000)
BUILD_SEGMENT = 8192


class Builder:
    """A whole build of a new, unpublished generation from every file."""

    def __init__(self, work: FileWork, lock_timeout: float, build_batch: int = BUILD_BATCH):
        self.work, self.vault, self.embedder = work, work.vault, work.embedder
        self.lock_timeout = lock_timeout
        self.build_batch = build_batch

    def build(
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
        keeps_tokens = self.work.gives_tokens and bool(self.vault.config["recall"]["late_interaction"])
        pieces_of, pieces_dim = token_model(self.embedder)
        tokens = (
            TokenFiles(generation.folder, codec_for(pieces_of, pieces_dim)) if keeps_tokens and pieces_dim else None
        )
        keyword = generation.keyword.open()
        writer = keyword.writer(timeout=self.lock_timeout)
        in_segment = 0
        claimed: dict[str, tuple[Any, str]] = {}  # id -> (``claim_order``, the first path that claims it)
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
            record_forgotten(self.vault, catalog)
            writer.commit(merge=False)
        except BaseException:
            writer.cancel()
            catalog.rollback()
            raise
        if progress:
            progress("commit", 1, 1)

    def _catalog_batch(
        self,
        catalog: Catalog,
        writer: Any,
        batch: list[FileEntry],
        claimed: dict[str, tuple[Any, str]],
        report: SyncReport,
    ) -> list[Parsed]:
        """Read and parse one batch of a build into the catalog and the keyword writer; the
        memories kept (a later file claiming an id already claimed is skipped, said; one that
        is the memory by ``claim_order`` is left for the next sync, which swaps the two)."""
        kept: list[Parsed] = []
        for entry, sha, memory, error in self.work.parse([self.work.read(entry) for entry in batch], report):
            order = claim_order(memory, entry.relpath) if memory is not None else None
            first = claimed.setdefault(memory.id, (order, entry.relpath)) if memory is not None else None
            if memory is not None and first is not None and first[1] != entry.relpath:
                message = duplicate_message(memory.id, first[1])
                row = file_row(entry, sha, memory, None, message)
                if order is not None and order < first[0]:  # it is the memory: the next sync reads it again
                    row = dataclasses.replace(row, size=-1)  # and settles the clash (``Applier``)
                catalog.upsert_file(row, None)
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
        chunk_texts, vectors, pieces = self.work.embed_changes(kept, report, None, tokens is not None)
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
