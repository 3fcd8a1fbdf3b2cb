"""The vector leg: an hnswlib cosine index of memory chunks, saved atomically.

Labels are integers handed out by the catalog (``chunks`` table maps them to files).
Deleted chunks are marked deleted and their slots reused by later additions; the index
grows (doubling) before it fills.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import hnswlib
import numpy as np

from ..errors import IndexDamaged
from ..vault.fsutil import fsync_dir

M = 16
EF_CONSTRUCTION = 100
EF_SEARCH = 128


class VectorIndex:
    def __init__(self, path: Path, dim: int):
        self.path = path
        self.dim = dim
        self.index: hnswlib.Index = None  # set by create() or load()
        #: slots marked deleted and free for reuse (hnswlib does not report this number)
        self.deleted = 0

    @classmethod
    def create(cls, path: Path, dim: int, capacity: int = 1024) -> VectorIndex:
        vi = cls(path, dim)
        vi.index = hnswlib.Index(space="cosine", dim=dim)
        vi.index.init_index(
            max_elements=max(capacity, 16), ef_construction=EF_CONSTRUCTION, M=M, allow_replace_deleted=True
        )
        vi.index.set_ef(EF_SEARCH)
        return vi

    @classmethod
    def load(cls, path: Path, dim: int, live: int | None = None) -> VectorIndex:
        """``live``, the number of vectors the catalog maps, tells how many slots are free."""
        if not path.exists():
            return cls.create(path, dim)
        vi = cls(path, dim)
        vi.index = hnswlib.Index(space="cosine", dim=dim)
        try:
            vi.index.load_index(str(path), allow_replace_deleted=True)
        except (RuntimeError, OSError, ValueError, MemoryError) as e:
            raise IndexDamaged(f"{path} cannot be read ({e}): `vmem sync` rebuilds it") from None
        vi.index.set_ef(EF_SEARCH)
        if live is not None:
            vi.deleted = max(0, vi.index.get_current_count() - live)
        return vi

    def stored_labels(self) -> set[int]:
        """Every label in the file, deleted ones included (for crash reconciliation)."""
        return set(self.index.get_ids_list())

    def add(self, labels: list[int], vectors: np.ndarray) -> None:
        """Add vectors, filling deleted slots first and growing (doubling) only when needed."""
        if not labels:
            return
        reused = min(self.deleted, len(labels))
        needed = self.index.get_current_count() + len(labels) - reused
        if needed > self.index.get_max_elements():
            self.index.resize_index(max(needed, 2 * self.index.get_max_elements()))
        data, ids = vectors.astype(np.float32), np.asarray(labels, dtype=np.int64)
        try:
            self.index.add_items(data, ids, replace_deleted=True)
        except RuntimeError:  # fewer free slots than counted (e.g. after a crash): grow and retry
            self.index.resize_index(self.index.get_current_count() + len(labels) + self.index.get_max_elements())
            self.index.add_items(data, ids, replace_deleted=True)
        self.deleted -= reused

    def delete(self, labels: list[int]) -> None:
        for label in labels:
            try:
                self.index.mark_deleted(label)
                self.deleted += 1
            except RuntimeError:
                pass  # already deleted or never added (e.g. after a crash): nothing to do

    def search(self, vector: np.ndarray, k: int, live: int) -> list[tuple[int, float]]:
        """[(label, cosine similarity)], best first. ``live`` bounds k (hnswlib needs it)."""
        k = min(k, live)
        if k <= 0:
            return []
        self.index.set_ef(max(EF_SEARCH, k * 2))
        try:
            labels, distances = self.index.knn_query(vector.reshape(1, -1), k=k)
        except RuntimeError:
            labels, distances = self.index.knn_query(vector.reshape(1, -1), k=max(1, k // 2))
        return [(int(lab), 1.0 - float(d)) for lab, d in zip(labels[0], distances[0])]

    def save(self, path: Path | None = None) -> None:
        """Write to a temp file beside the target, then ``os.replace``."""
        target = path or self.path
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        self.index.save_index(str(tmp))
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, target)
        fsync_dir(target.parent)


class VectorCache:
    """The last vectors file a process loaded for reading, kept while the file is the same
    (path, inode, size, mtime: a sync replaces it with a new file, never edits it in place),
    so the snapshots of one process stop reading 150 MB from disk on every recall. Readers
    only query it; writers load their own copy."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple[str, int, int, int] | None = None
        self._index: VectorIndex | None = None

    def load(self, path: Path, dim: int) -> VectorIndex:
        st = path.stat()
        key = (str(path), st.st_ino, st.st_size, st.st_mtime_ns)
        with self._lock:
            if self._key != key or self._index is None or self._index.dim != dim:
                self._index, self._key = VectorIndex.load(path, dim), key
            return self._index
