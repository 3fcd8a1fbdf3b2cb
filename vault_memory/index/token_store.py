"""Token vectors for late-interaction recall: each memory's word-piece vectors, kept so a
recall can re-score its best candidates by MaxSim without running the model on them.

Why stored, and why so: the bundled model's token vectors, compared piece by piece
(MaxSim), find memories a single pooled vector misses (``docs/benchmarks.md``, late
interaction); running the model over 50 candidates at query time would cost most of a
second. Each piece is kept as int8 with one float32 scale (a quarter of float32, the
same ranking), in two append-only files per generation that readers memory-map:

    tokens.i8       rows of ``dim`` int8 values, one row per word piece
    tokens.scale    one float32 per row: the row times it is the piece's vector

The catalog records which rows are whose (``Catalog.token_rows``), in the same
transaction as everything else a sync changes, so a reader sees rows of committed
memories only; rows a sync appended before it was killed, or of memories since changed
or deleted, are never referenced again and cost only disk until ``vmem reindex``
rewrites the files.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ..errors import IndexDamaged


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 rows, float32 scale per row) of float ``vectors``; 0 scales become 1."""
    scale = np.abs(vectors).max(axis=1) / 127.0
    scale = np.where(scale > 0, scale, 1.0).astype(np.float32)
    return np.round(vectors / scale[:, None]).astype(np.int8), scale


#: multiply-adds of one product in ``TokenReader.maxsims``: below what makes OpenBLAS run a
#: product on its threads, which then spin on the core the model's next question needs
#: (one product for 50 candidates made embedding the next question 4.5 -> 9 ms at 100,000
#: memories; ``docs/benchmarks.md``)
PRODUCT_SIZE = 1 << 18

#: rows whose scales the catalog keeps as the files' fingerprint (``TokenFiles.fingerprint``)
TAIL_ROWS = 8


class TokenFiles:
    """The two files of one generation, appended to by the one writer, read by any."""

    def __init__(self, folder: Path, dim: int):
        self.rows_path = folder / "tokens.i8"
        self.scale_path = folder / "tokens.scale"
        self.dim = dim

    def row_count(self) -> int:
        """Whole rows in both files (a write killed half-way leaves a torn tail)."""
        try:
            return min(self.rows_path.stat().st_size // self.dim, self.scale_path.stat().st_size // 4)
        except FileNotFoundError:
            return 0

    def append(self, pieces: list[np.ndarray]) -> list[tuple[int, int]]:
        """Append each memory's pieces; returns (first row, rows) of each, in order. A torn
        tail of an earlier append is cut first, so rows stay aligned. Written memory by
        memory: a build's batch of pieces is never copied whole."""
        first = self.row_count()
        spans, start = [], first
        with open(self.rows_path, "ab") as rows, open(self.scale_path, "ab") as scales:
            rows.truncate(first * self.dim)
            scales.truncate(first * 4)
            for vectors in pieces:
                spans.append((start, len(vectors)))
                if not len(vectors):
                    continue
                if vectors.shape[1] != self.dim:
                    raise ValueError(f"token vectors of {vectors.shape[1]} dimensions, the files hold {self.dim}")
                quantized, scale = quantize(np.asarray(vectors, dtype=np.float32))
                rows.write(quantized.tobytes())
                scales.write(scale.tobytes())
                start += len(vectors)
            for f in (rows, scales):
                f.flush()
                os.fsync(f.fileno())
        return spans

    def fingerprint(self, rows: int) -> str:
        """The scales of the last ``TAIL_ROWS`` of the first ``rows`` rows, as hex: what the
        catalog keeps (``token_tail``) so files of another generation, or rewritten ones,
        are told from this generation's with one small read. '' when there are none."""
        first = max(0, rows - TAIL_ROWS)
        try:
            with open(self.scale_path, "rb", buffering=0) as f:
                f.seek(first * 4)
                return f.read((rows - first) * 4).hex()
        except OSError:
            return ""

    def problem(self, rows: int, tail: str | None) -> tuple[str, str] | None:
        """(file, what is wrong) with these files for a catalog that references ``rows``
        rows ending in ``tail`` (``fingerprint``; None: an index from before it was kept),
        or None. Sizes and the tail only: cheap enough for every sync."""
        if rows <= 0:
            return None
        sizes = []
        for path in (self.rows_path, self.scale_path):
            try:
                sizes.append(path.stat().st_size)
            except FileNotFoundError:
                return path.name, "is missing"
        short = self.shortage(sizes[0], sizes[1], rows)
        if short:
            return self.rows_path.name, short
        if tail is not None and self.fingerprint(rows) != tail:
            return self.rows_path.name, "holds rows this index did not write (another generation's, or rewritten)"
        return None

    def shortage(self, rows_bytes: int, scale_bytes: int, rows: int) -> str | None:
        """What is short when the files, of these sizes, hold fewer than ``rows`` whole rows."""
        if rows_bytes >= rows * self.dim and scale_bytes >= rows * 4:
            return None
        held = min(rows_bytes // max(1, self.dim), scale_bytes // 4)
        return f"holds fewer rows than the catalog references ({held:,} of {rows:,})"

    def warm(self, chunk: int = 8 << 20) -> int:
        """Read both files through once, front to back, so the page cache holds them: a
        recall reads ~50 memories' rows from random places, and at 100,000 memories (1.9
        GB of rows) those reads, cold, cost 150-200 ms a query against 15-25 ms warm
        (docs/benchmarks.md). For a long-lived reader; returns the bytes read."""
        done = 0
        buffer = bytearray(chunk)
        for path in (self.scale_path, self.rows_path):
            try:
                with open(path, "rb", buffering=0) as f:
                    while read := f.readinto(buffer):
                        done += read
            except OSError:  # gone with its generation, or unreadable: the reads it would help fail alike
                continue
        return done

    def reader(self, rows: int, tail: str | None = None) -> TokenReader:
        """A read view of the first ``rows`` rows (all a committed catalog references),
        refused when they do not end in ``tail`` (``fingerprint``)."""
        return TokenReader(self, rows, tail)


class TokenReader:
    """The rows a committed catalog references, read with ``pread`` (a memory's pieces as
    float32 from ``vectors(first, count)``). Not a memory map: a token file truncated while
    mapped ended the daemon with SIGBUS, before any check could run; a short read here is a
    damaged index, said as one. Scales that are not finite count as zero, so a NaN never
    reaches the ranking or its JSON."""

    def __init__(self, files: TokenFiles, rows: int, tail: str | None = None):
        self.dim = files.dim
        self.rows = rows
        self.path = files.rows_path
        self._scratch = threading.local()  # each thread's float32 buffer for ``maxsims``
        self._fds: tuple[int, int] | None = None
        if rows == 0:
            return
        try:
            fds = os.open(files.rows_path, os.O_RDONLY), os.open(files.scale_path, os.O_RDONLY)
        except OSError as e:
            raise IndexDamaged(f"{files.rows_path} cannot be read ({e}): `vmem sync` rebuilds it") from None
        self._fds = fds
        short = files.shortage(os.fstat(fds[0]).st_size, os.fstat(fds[1]).st_size, rows)  # the files opened
        if short:
            self.close()
            raise IndexDamaged(f"{files.rows_path} {short}: `vmem sync` rebuilds it")
        if tail is not None and files.fingerprint(rows) != tail:
            self.close()
            raise IndexDamaged(
                f"{files.rows_path} holds rows this index did not write (another generation's, or rewritten): "
                "`vmem sync` rebuilds it"
            )

    def close(self) -> None:
        if self._fds is not None:
            for fd in self._fds:
                os.close(fd)
            self._fds = None

    def __del__(self) -> None:
        self.close()

    def _read(self, first: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """(int8 rows, float32 scales) of rows ``first``… ``first + count``."""
        if count <= 0:
            return np.zeros((0, self.dim), np.int8), np.zeros(0, np.float32)
        if self._fds is None or first < 0 or first + count > self.rows:
            raise IndexDamaged(f"{self.path}: rows {first}..{first + count} are not in it: `vmem sync` rebuilds it")
        rows = os.pread(self._fds[0], count * self.dim, first * self.dim)
        scales = os.pread(self._fds[1], count * 4, first * 4)
        if len(rows) != count * self.dim or len(scales) != count * 4:
            raise IndexDamaged(f"{self.path} was cut short while in use: `vmem sync` rebuilds it")
        scale = np.frombuffer(scales, np.float32).copy()
        scale[~np.isfinite(scale)] = 0.0
        return np.frombuffer(rows, np.int8).reshape(count, self.dim), scale

    def vectors(self, first: int, count: int) -> np.ndarray:
        rows, scale = self._read(first, count)
        return rows.astype(np.float32) * scale[:, None]

    def maxsims(self, query: np.ndarray, spans: Mapping[str, Sequence[tuple[int, int]]]) -> dict[str, float]:
        """``maxsim(query, pieces)`` of every memory in ``spans`` (its (first row, rows) of
        each chunk), in one pass: the candidates' rows are gathered into a float32
        buffer kept between calls, multiplied by the query a few hundred rows at a time
        (``PRODUCT_SIZE``), and each memory's best cosines are taken per slice. A product
        per memory cost ~3 ms for 50 candidates at 100,000 memories, mostly in numpy calls;
        a fresh 4 MB buffer per query cost page faults. Memories without rows are left out."""
        kept = [(key, spans_of, sum(count for _, count in spans_of)) for key, spans_of in spans.items()]
        kept = [item for item in kept if item[2]]
        total = sum(rows for _, _, rows in kept)
        if not total or not len(query):
            return {}
        buffer = getattr(self._scratch, "buffer", None)
        if buffer is None or len(buffer) < total:
            buffer = self._scratch.buffer = np.empty((max(total, 4096), self.dim), np.float32)
        scale = np.empty(total, np.float32)
        at = 0
        for _, spans_of, _ in kept:
            for first, count in spans_of:
                rows, scales = self._read(first, count)
                np.copyto(buffer[at : at + count], rows, casting="unsafe")
                scale[at : at + count] = scales
                at += count
        similarity = np.empty((len(query), total), np.float32)
        step = max(16, PRODUCT_SIZE // (len(query) * self.dim))
        for at in range(0, total, step):
            end = min(at + step, total)
            np.matmul(query, buffer[at:end].T, out=similarity[:, at:end])
        similarity *= scale
        starts = np.cumsum([0] + [rows for _, _, rows in kept[:-1]])
        best = np.maximum.reduceat(similarity, starts, axis=1)  # (query pieces, memories)
        return {key: float(value) for (key, _, _), value in zip(kept, best.mean(axis=0), strict=True)}


def maxsim(query: np.ndarray, pieces: np.ndarray) -> float:
    """Late interaction: the mean over the query's pieces of each one's best cosine among
    a memory's pieces (rows of unit length in, as ``FastEmbedEmbedder.token_vectors``
    gives; the int8 rows are compared as stored, their norms barely off 1)."""
    if not len(query) or not len(pieces):
        return 0.0
    return float((query @ pieces.T).max(axis=1).mean())
