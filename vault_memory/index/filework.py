"""The work a sync does on files, whatever its plan: read, parse, embed (in batches of
similar length), and what it records of the trash and the vector files' sizes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..errors import MemoryFileError
from ..vault.fileformat import parse_memory
from ..vault.scanner import FileEntry
from ..vault.trash import Trash
from ..vault.vault import Vault, problem_from_error
from .catalog import Catalog, Meta
from .checkup import vector_files
from .chunking import chunk_text, embedding_text
from .embedder import Embedder
from .generations import Generation
from .plan import Parsed, Progress, Read, SyncReport, content_hash


class FileWork:
    """Files read and parsed for a sync, and their chunks embedded: what a build and the
    application of a plan both do."""

    def __init__(self, vault: Vault, embedder: Embedder):
        self.vault = vault
        self.embedder = embedder
        #: whether the model gives token vectors from the pass that embeds (``token_store``)
        self.gives_tokens = callable(getattr(embedder, "embed_with_tokens", None))

    def read(self, entry: FileEntry) -> Read:
        """One file read for a sync; a file that cannot be read is an error in the result."""
        try:
            raw = self.vault.read_bytes(entry.relpath, entry)
        except MemoryFileError as e:
            return entry, None, "", e
        return entry, raw, content_hash(raw), None

    def parse(self, changed: list[Read], report: SyncReport) -> list[Parsed]:
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

    def embed_changes(
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
        vectors, pieces = self.embed(flat, progress, with_tokens)
        return chunk_texts, vectors, pieces

    def embed(
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


def record_forgotten(vault: Vault, catalog: Catalog) -> None:
    """What forgotten memories had replaced, in the catalog (``Meta.FORGOTTEN_SUPERSEDED``)."""
    trash = Trash(vault.trash_dir)
    edited = {entry.id: entry.original for entry in trash.edited()}
    catalog.set_meta(
        **{
            Meta.FORGOTTEN_SUPERSEDED: json.dumps(trash.superseded(), sort_keys=True),
            Meta.EDITED_FORGOTTEN: json.dumps(edited, sort_keys=True),
        }
    )


def record_sizes(catalog: Catalog, generation: Generation, moves: list[tuple[Path, Path | None]]) -> None:
    """Keep in the catalog the size each vector file will have once published, so a sync
    tells a truncated or replaced file (``checkup.file_problems``) without reading it."""
    keys = vector_files(generation)
    catalog.set_meta(**{keys[target]: staged.stat().st_size if staged else 0 for target, staged in moves})
