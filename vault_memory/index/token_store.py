"""Token vectors for late-interaction recall: each memory's word-piece vectors, kept so a
recall can re-score its best candidates by MaxSim without running the model on them.

Why stored, and why so: the bundled model's token vectors, compared piece by piece
(MaxSim), find memories a single pooled vector misses (``docs/benchmarks.md``, late
interaction); running the model over 50 candidates at query time would cost most of a
second. They are most of an index's bytes, so each piece is kept compressed, in
append-only files per generation, by one of two codecs the generation records
(``tokens_codec`` in its catalog):

    product codes  tokens.pq: 48 one-byte codes a piece, each naming the nearest of 256
                   centroids for 8 of its 384 dimensions (a codebook shipped beside the
                   bundled model, trained on text of our own: ``benchmarks/codebook.py``).
                   48 bytes a piece, an eighth of int8, the same LoCoMo figures within .005
    int8           tokens.i8 (a row of ``dim`` int8 values) and tokens.scale (one float32
                   a row: the row times it is the piece): any other model, and
                   generations built before the codebook

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
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ..errors import IndexDamaged
from .catalog import Meta
from .embedder import BUNDLED_MODEL_ID, MODEL_FILES


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

#: rows whose last file's bytes the catalog keeps as the files' fingerprint
#: (``TokenFiles.fingerprint``)
TAIL_ROWS = 8


@dataclass(frozen=True)
class Codebook:
    """A codebook shipped beside a model (``MODEL_FILES / f"{name}.npy"``, its centroids:
    ``benchmarks/codebook.py``) and the affine map that puts a MaxSim over its decoded
    pieces back on the scale of the pieces' own (tuned on LoCoMo dev 0-2, confirmed on 3-4)."""

    name: str
    slope: float
    intercept: float


#: the codebook of each model that has one: a generation built with that model stores
#: product codes
CODEBOOKS = {BUNDLED_MODEL_ID: Codebook("token-codes-v1", slope=1.233, intercept=-0.016)}


class Int8Rows:
    """A piece as ``dim`` int8 values and one float32 scale (``quantize``)."""

    name = "int8"

    def __init__(self, dim: int):
        self.dim = dim
        self.files = (("tokens.i8", dim), ("tokens.scale", 4))

    def calibrate(self, maxsims: np.ndarray) -> np.ndarray:
        return maxsims  # int8 rows give the float MaxSim to a few thousandths

    def encode(self, vectors: np.ndarray) -> list[bytes]:
        quantized, scale = quantize(vectors)
        return [quantized.tobytes(), scale.tobytes()]

    def decode(self, blobs: Sequence[bytes], count: int) -> np.ndarray:
        """Float32 rows; a scale that is not finite counts as zero, so a NaN never reaches
        the ranking or its JSON."""
        scale = np.frombuffer(blobs[1], np.float32).copy()
        scale[~np.isfinite(scale)] = 0.0
        return np.frombuffer(blobs[0], np.int8).reshape(count, self.dim).astype(np.float32) * scale[:, None]


class ProductCodes:
    """A piece as one byte per group of dimensions: the nearest of that group's 256
    centroids (product quantization). Decoded rows are put back to unit length, as the
    model gives them. Decoding pulls close pieces apart (a near-copy's cosine drops by
    about the codec's .86), so a MaxSim is put back on the scale of the pieces'
    own by the codebook's affine ``calibration``: the relevance floor keeps its meaning,
    and every ranking (which compares MaxSims of one question) stays as it is."""

    def __init__(self, name: str, centroids: np.ndarray, calibration: tuple[float, float] = (1.0, 0.0)):
        self.name = name
        self.centroids = np.asarray(centroids, np.float32)  # (groups, 256, width)
        self.calibration = calibration
        groups, per_group, width = self.centroids.shape
        self.dim = groups * width
        self.files = (("tokens.pq", groups),)
        squares = (self.centroids**2).sum(axis=2)  # (groups, centroids): each one's squared length
        self._half_norms = 0.5 * squares
        # decoding reads one table by one index a byte (``decode``): the centroids one after
        # the other, each group's first at ``_offsets``, and each one's squared length
        self._table = np.ascontiguousarray(self.centroids.reshape(groups * per_group, width))
        self._offsets = np.arange(groups, dtype=np.intp) * per_group
        self._squares = squares.reshape(-1)

    @classmethod
    def shipped(cls, book: Codebook, dim: int) -> ProductCodes:
        """The codec of a shipped codebook, for pieces of ``dim``."""
        codes = _shipped_codes(book)
        if codes.dim != dim:
            raise IndexDamaged(
                f"codebook {book.name} is for {codes.dim} dimensions, the index holds {dim}: `vmem reindex`"
            )
        return codes

    def calibrate(self, maxsims: np.ndarray) -> np.ndarray:
        slope, intercept = self.calibration
        return maxsims * slope + intercept

    def encode(self, vectors: np.ndarray) -> list[bytes]:
        groups, _, width = self.centroids.shape
        parts = vectors.reshape(len(vectors), groups, width).transpose(1, 0, 2)
        closeness = np.matmul(parts, self.centroids.transpose(0, 2, 1)) - self._half_norms[:, None, :]
        return [closeness.argmax(axis=2).T.astype(np.uint8).tobytes()]

    def decode(self, blobs: Sequence[bytes], count: int) -> np.ndarray:
        """Unit rows. A row's length is the sum of its centroids' squared lengths (the
        groups are disjoint dimensions), so it is read from a table, not worked out from
        the row: at 2,700 rows (a recall's 50 candidates) 3.6 ms became under 1 ms."""
        at = np.frombuffer(blobs[0], np.uint8).reshape(count, len(self.centroids)) + self._offsets
        rows = np.take(self._table, at, axis=0).reshape(count, self.dim)
        lengths = np.sqrt(np.take(self._squares, at).sum(axis=1, dtype=np.float32))
        rows /= np.maximum(lengths, 1e-12)[:, None]
        return rows


@cache
def _shipped_codes(book: Codebook) -> ProductCodes:
    """One codec a process per shipped codebook: every no-change check asks for it, and
    making it works out each centroid's norm again."""
    return ProductCodes(book.name, _centroids(book.name), (book.slope, book.intercept))


@cache
def _centroids(name: str) -> np.ndarray:
    """A shipped codebook's centroids (groups, 256, width) as float32, read once a process."""
    try:
        return np.load(MODEL_FILES / f"{name}.npy", allow_pickle=False).astype(np.float32)
    except (OSError, ValueError) as e:
        raise IndexDamaged(f"the token codebook {name} cannot be read ({e}): reinstall vmem") from None


Codec = Int8Rows | ProductCodes


def codec_for(model_id: str, dim: int) -> Codec:
    """How a new generation built with ``model_id`` stores its token vectors."""
    book = CODEBOOKS.get(model_id)
    return ProductCodes.shipped(book, dim) if book else Int8Rows(dim)


def codec_named(name: str | None, dim: int) -> Codec:
    """The codec a generation recorded (none recorded: int8, the only one before)."""
    if not name or name == Int8Rows.name:
        return Int8Rows(dim)
    book = next((book for book in CODEBOOKS.values() if book.name == name), None)
    if book is None:
        raise IndexDamaged(f"the index stores token vectors as {name!r}, which this vmem does not know: `vmem reindex`")
    return ProductCodes.shipped(book, dim)


class TokenFiles:
    """The files of one generation, appended to by the one writer, read by any."""

    def __init__(self, folder: Path, codec: Codec):
        self.codec = codec
        self.dim = codec.dim
        self.paths = [(folder / name, width) for name, width in codec.files]
        self.rows_path = self.paths[0][0]

    @classmethod
    def of(cls, folder: Path, meta: Mapping[str, str]) -> TokenFiles | None:
        """The token files a generation's catalog ``meta`` describes, or None when it keeps none."""
        dim = int(meta.get(Meta.TOKENS_DIM) or 0)
        return cls(folder, codec_named(meta.get(Meta.TOKENS_CODEC), dim)) if dim else None

    def _sizes(self) -> list[int]:
        return [path.stat().st_size for path, _ in self.paths]

    def size(self) -> int:
        """The files' bytes together (one missing counts nothing)."""
        return sum(path.stat().st_size if path.exists() else 0 for path, _ in self.paths)

    def _whole_rows(self, sizes: Sequence[int]) -> int:
        return min(size // width for size, (_, width) in zip(sizes, self.paths, strict=True))

    def row_count(self) -> int:
        """Whole rows in every file (a write killed half-way leaves a torn tail)."""
        try:
            return self._whole_rows(self._sizes())
        except FileNotFoundError:
            return 0

    def append(self, pieces: list[np.ndarray]) -> list[tuple[int, int]]:
        """Append each memory's pieces; returns (first row, rows) of each, in order. A torn
        tail of an earlier append is cut first, so rows stay aligned. Written memory by
        memory: a build's batch of pieces is never copied whole."""
        first = self.row_count()
        spans, start = [], first
        with ExitStack() as stack:
            files = [stack.enter_context(open(path, "ab")) for path, _ in self.paths]
            for f, (_, width) in zip(files, self.paths, strict=True):
                f.truncate(first * width)
            for vectors in pieces:
                spans.append((start, len(vectors)))
                if not len(vectors):
                    continue
                if vectors.shape[1] != self.dim:
                    raise ValueError(f"token vectors of {vectors.shape[1]} dimensions, the files hold {self.dim}")
                for f, blob in zip(files, self.codec.encode(np.asarray(vectors, dtype=np.float32)), strict=True):
                    f.write(blob)
                start += len(vectors)
            for f in files:
                f.flush()
                os.fsync(f.fileno())
        return spans

    def fingerprint(self, rows: int) -> str:
        """The last file's bytes of the last ``TAIL_ROWS`` of the first ``rows`` rows, as
        hex: what the catalog keeps (``token_tail``) so files of another generation, or
        rewritten ones, are told from this generation's with one small read. '' when there
        are none."""
        path, width = self.paths[-1]
        first = max(0, rows - TAIL_ROWS)
        try:
            with open(path, "rb", buffering=0) as f:
                f.seek(first * width)
                return f.read((rows - first) * width).hex()
        except OSError:
            return ""

    def problem(self, rows: int, tail: str | None) -> tuple[str, str] | None:
        """(file, what is wrong) with these files for a catalog that references ``rows``
        rows ending in ``tail`` (``fingerprint``; None: an index from before it was kept),
        or None. Sizes and the tail only: cheap enough for every sync."""
        if rows <= 0:
            return None
        for path, _ in self.paths:
            if not path.exists():
                return path.name, "is missing"
        short = self.shortage(self._sizes(), rows)
        if short:
            return self.rows_path.name, short
        if tail is not None and self.fingerprint(rows) != tail:
            return self.rows_path.name, "holds rows this index did not write (another generation's, or rewritten)"
        return None

    def shortage(self, sizes: Sequence[int], rows: int) -> str | None:
        """What is short when the files, of these sizes, hold fewer than ``rows`` whole rows."""
        held = self._whole_rows(sizes)
        return None if held >= rows else f"holds fewer rows than the catalog references ({held:,} of {rows:,})"

    def warm(self, chunk: int = 8 << 20) -> int:
        """Read the files through once, front to back, so the page cache holds them: a
        recall reads ~50 memories' rows from random places, and at 100,000 memories
        those reads, cold, cost 150-200 ms a query against 15-25 ms warm (int8 rows,
        docs/benchmarks.md). For a long-lived reader; returns the bytes read."""
        done = 0
        buffer = bytearray(chunk)
        for path, _ in reversed(self.paths):
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
    damaged index, said as one."""

    def __init__(self, files: TokenFiles, rows: int, tail: str | None = None):
        self.dim = files.dim
        self.rows = rows
        self.path = files.rows_path
        self.codec = files.codec
        self._widths = [width for _, width in files.paths]
        self._scratch = threading.local()  # each thread's float32 buffer for ``maxsims``
        self._fds: list[int] = []
        if rows == 0:
            return
        try:
            for path, _ in files.paths:
                self._fds.append(os.open(path, os.O_RDONLY))
        except OSError as e:
            self.close()
            raise IndexDamaged(f"{files.rows_path} cannot be read ({e}): `vmem sync` rebuilds it") from None
        short = files.shortage([os.fstat(fd).st_size for fd in self._fds], rows)  # the files opened
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
        for fd in self._fds:
            os.close(fd)
        self._fds = []

    def __del__(self) -> None:
        self.close()

    def vectors(self, first: int, count: int) -> np.ndarray:
        """Float32 rows ``first``… ``first + count``."""
        return self.gathered([(first, count)])

    def gathered(self, spans: Sequence[tuple[int, int]]) -> np.ndarray:
        """Float32 rows of each (first row, rows) of ``spans``, one after the other, decoded
        at once (each row is decoded alone, so the numbers are those of ``vectors``): a
        decode a memory cost about 1 ms of numpy calls for the 30 a recall reads."""
        spans = [(first, count) for first, count in spans if count > 0]
        total = sum(count for _, count in spans)
        if not total:
            return np.zeros((0, self.dim), np.float32)
        if not self._fds or any(first < 0 or first + count > self.rows for first, count in spans):
            raise IndexDamaged(f"{self.path}: rows asked are not in it: `vmem sync` rebuilds it")
        blobs = []
        for fd, width in zip(self._fds, self._widths, strict=True):
            parts = [os.pread(fd, count * width, first * width) for first, count in spans]
            if any(len(part) != count * width for part, (_, count) in zip(parts, spans, strict=True)):
                raise IndexDamaged(f"{self.path} was cut short while in use: `vmem sync` rebuilds it")
            blobs.append(b"".join(parts))
        return self.codec.decode(blobs, total)

    def maxsims(self, query: np.ndarray, spans: Mapping[str, Sequence[tuple[int, int]]]) -> dict[str, float]:
        """``maxsim(query, pieces)`` of every memory in ``spans`` (its (first row, rows) of
        each chunk), on the scale of the pieces as the model gave them (``calibrate``), in one pass: the candidates' rows are gathered into a float32
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
        buffer[:total] = self.gathered([span for _, spans_of, _ in kept for span in spans_of])
        similarity = np.empty((len(query), total), np.float32)
        step = max(16, PRODUCT_SIZE // (len(query) * self.dim))
        for at in range(0, total, step):
            end = min(at + step, total)
            np.matmul(query, buffer[at:end].T, out=similarity[:, at:end])
        starts = np.cumsum([0] + [rows for _, _, rows in kept[:-1]])
        best = np.maximum.reduceat(similarity, starts, axis=1)  # (query pieces, memories)
        scores = self.codec.calibrate(best.mean(axis=0))
        return {key: float(value) for (key, _, _), value in zip(kept, scores, strict=True)}


def maxsim(query: np.ndarray, pieces: np.ndarray) -> float:
    """Late interaction: the mean over the query's pieces of each one's best cosine among
    a memory's pieces (rows of unit length in, as ``FastEmbedEmbedder.token_vectors``
    gives; the int8 rows are compared as stored, their norms barely off 1)."""
    if not len(query) or not len(pieces):
        return 0.0
    return float((query @ pieces.T).max(axis=1).mean())
