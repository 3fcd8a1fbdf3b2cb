"""The vector leg: an hnswlib cosine index of memory chunks (``VectorIndex``), saved
atomically, and a generation's vectors as readers and syncs see them (``Vectors``).

Labels are integers handed out by the catalog (``chunks`` table maps them to files),
never handed out twice. Deleted chunks are marked deleted and their slots reused by later
additions; the index grows (doubling) before it fills.

A sync of a few files does not rewrite the hnswlib file (150 MB at 100,000 memories, a
second per edit): it writes what changed to a delta, a small file of added vectors and deleted labels that
readers search beside it by brute force (both are ``Vectors``). The delta
is folded into the hnswlib file when it passes ``DELTA_MAX`` changes, or by a sync of the
whole vault.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Set as AbstractSet
from pathlib import Path

import hnswlib
import numpy as np

from ..errors import IndexDamaged
from ..vault.fsutil import fsync_dir

M = 16
EF_CONSTRUCTION = 100
EF_SEARCH = 128
#: changes (vectors added, labels deleted) kept in the delta before it is folded into the
#: hnswlib file: searched by brute force, 4,096 384-d vectors cost about a millisecond
DELTA_MAX = 4096


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

    def search(
        self, vector: np.ndarray, k: int, live: int, only: AbstractSet[int] | None = None
    ) -> list[tuple[int, float]]:
        """[(label, cosine similarity)], best first. ``live`` bounds k (hnswlib needs it);
        ``only``: the labels that may be found (the graph is walked as a whole)."""
        k = min(k, live, len(only) if only is not None else k)
        if k <= 0:
            return []
        if only is not None and len(only) <= DELTA_MAX:  # a few: exactly (a filtered walk may visit the whole graph)
            return self._exact(vector, k, only)
        self.index.set_ef(max(EF_SEARCH, k * 2))
        within = {} if only is None else {"filter": only.__contains__, "num_threads": 1}
        while True:
            try:
                labels, distances = self.index.knn_query(vector.reshape(1, -1), k=k, **within)
                break
            except RuntimeError:  # fewer reachable than k (a small graph with deletions): fewer
                if k == 1:
                    return []
                k = max(1, k // 2)
        return [(int(lab), 1.0 - float(d)) for lab, d in zip(labels[0], distances[0])]

    def _exact(self, vector: np.ndarray, k: int, only: AbstractSet[int]) -> list[tuple[int, float]]:
        """The best ``k`` of the ``only`` labels the file holds, by their stored vectors."""
        labels = sorted(only)
        try:
            items = self.index.get_items(labels)
        except RuntimeError:  # some are not in this file (in the delta, or deleted): one by one
            held = []
            for label in labels:
                with contextlib.suppress(RuntimeError):
                    held.append((label, self.index.get_items([label])[0]))
            labels, items = [label for label, _ in held], [row for _, row in held]
        if not labels:
            return []
        rows = np.asarray(items, dtype=np.float32)
        rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
        query = vector.astype(np.float32).ravel()
        scores = rows @ (query / (np.linalg.norm(query) or 1.0))
        return [(labels[i], float(scores[i])) for i in np.argsort(-scores)[:k]]

    def save(self, path: Path | None = None) -> None:
        """Write to a temp file beside the target, then ``os.replace``."""
        target = path or self.path
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        self.index.save_index(str(tmp))
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, target)
        fsync_dir(target.parent)


class Vectors:
    """A generation's vectors: the hnswlib file and the delta beside it (vectors added and
    labels deleted since the file was last written), searched as one index by a reader and
    changed by a sync, which stages its changes beside the live files until its publish:
    into the delta alone (``base`` None: a sync of a few files, the hnswlib file is not
    even read), or into the hnswlib index with the delta folded in (a sync of the whole
    vault, or a delta past ``DELTA_MAX``)."""

    def __init__(self, base_path: Path, delta_path: Path, dim: int, base: VectorIndex | None = None):
        self.base_path, self.delta_path, self.dim = base_path, delta_path, dim
        self.base = base
        self.labels = np.empty(0, np.int64)  #: the delta's vectors' labels [n]
        self.vectors = np.empty((0, dim), np.float32)  #: [n, dim], unit length (cosine is their dot product)
        self.deleted = np.empty(0, np.int64)  #: labels of the hnswlib file that are gone [m]

    @classmethod
    def read(cls, base_path: Path, delta_path: Path, dim: int, base: VectorIndex | None = None) -> Vectors:
        """The vectors of a generation, read now (``base``: the hnswlib file already read)."""
        vectors = cls(base_path, delta_path, dim, base or VectorIndex.load(base_path, dim))
        vectors._read_delta()
        return vectors

    @classmethod
    def for_sync(cls, base_path: Path, delta_path: Path, dim: int, *, whole: bool, live: int, adding: int) -> Vectors:
        """``whole``: fold the delta into the hnswlib index now; ``live``: the vectors the
        catalog maps; ``adding``: how many this sync adds (sizes a new index)."""
        base = None
        if not base_path.exists():
            base = VectorIndex.create(base_path, dim, capacity=max(1024, 2 * adding))
        vectors = cls(base_path, delta_path, dim, base)
        vectors._read_delta()
        if whole or base is not None:
            vectors.fold(live)
        return vectors

    def _read_delta(self) -> None:
        try:
            with np.load(self.delta_path, allow_pickle=False) as data:
                labels, vectors, deleted = data["labels"], data["vectors"], data["deleted"]
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, EOFError) as e:
            raise IndexDamaged(f"{self.delta_path} cannot be read ({e}): `vmem sync` rebuilds it") from None
        if vectors.shape != (len(labels), self.dim):
            raise IndexDamaged(f"{self.delta_path} holds vectors of another shape: `vmem sync` rebuilds it")
        self.labels, self.vectors, self.deleted = labels, vectors, deleted

    @property
    def changes(self) -> int:
        """What the delta holds: vectors added and labels deleted."""
        return len(self.labels) + len(self.deleted)

    def search(
        self, vector: np.ndarray, k: int, live: int, only: AbstractSet[int] | None = None
    ) -> list[tuple[int, float]]:
        """[(label, cosine similarity)], best first, at most ``k``; ``live``: the vectors the
        catalog maps; ``only``: the labels that may be found."""
        deleted = self.deleted
        in_base = max(0, live - len(self.labels))
        found = (
            self.base.search(vector, k + len(deleted), in_base + len(deleted), only)
            if self.base is not None and in_base
            else []
        )
        if len(deleted):
            gone = set(deleted.tolist())
            found = [hit for hit in found if hit[0] not in gone]
        best = dict(found)
        if len(self.labels) and k > 0:  # the delta, by brute force
            query = vector.astype(np.float32).ravel()
            scores = self.vectors @ (query / (np.linalg.norm(query) or 1.0))
            if only is not None:
                scores[[int(label) not in only for label in self.labels]] = -np.inf
            for i in np.argsort(-scores)[:k]:
                if not np.isfinite(scores[i]):
                    break
                best[int(self.labels[i])] = float(scores[i])  # (after a fold killed half-way, both hold it)
        return sorted(best.items(), key=lambda hit: -hit[1])[:k]

    def stored_labels(self) -> set[int]:
        """The labels this sync can see stored: all of them once folded, else the delta's
        (a crash is followed by a sync of the whole vault, which folds and sees all)."""
        mine = {int(label) for label in self.labels}
        return mine | self.base.stored_labels() if self.base is not None else mine

    def fold(self, live: int) -> None:
        """Apply the delta to the hnswlib index and empty it (safe to repeat: a re-added
        label takes its vector again, a re-deleted one is already gone)."""
        if self.base is None:
            in_base = live - len(self.labels) + len(self.deleted)  # not yet marked deleted
            self.base = VectorIndex.load(self.base_path, self.dim, live=in_base)
        self.base.delete([int(label) for label in self.deleted])
        if len(self.labels):
            self.base.add([int(label) for label in self.labels], self.vectors)
        self.labels, self.vectors = np.empty(0, np.int64), np.empty((0, self.dim), np.float32)
        self.deleted = np.empty(0, np.int64)

    def delete(self, labels: list[int]) -> None:
        """From the hnswlib index once read; else a label added since the last fold leaves
        the delta and one of the hnswlib file is listed as deleted."""
        if self.base is not None:
            self.base.delete(labels)
            return
        gone = np.asarray(sorted(set(labels)), np.int64)
        mine = np.isin(self.labels, gone)
        older = np.setdiff1d(gone, self.labels[mine])
        self.labels, self.vectors = self.labels[~mine], self.vectors[~mine]
        self.deleted = np.union1d(self.deleted, older)

    def add(self, labels: list[int], vectors: np.ndarray) -> None:
        if self.base is not None:
            self.base.add(labels, vectors)
            return
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit = (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)
        self.labels = np.concatenate([self.labels, np.asarray(labels, np.int64)])
        self.vectors = np.concatenate([self.vectors, unit])

    def stage(self, live: int) -> list[tuple[Path, Path | None]]:
        """Write the staged files; returns (live file, staged file or None to remove it) in
        the order the publish must apply them: the hnswlib file before the delta, so a
        reader never sees a delta emptied into a file not yet in place."""
        if self.base is None and self.changes > DELTA_MAX:
            self.fold(live)
        moves: list[tuple[Path, Path | None]] = []
        if self.base is not None:
            staged = self.base_path.with_name(f".{self.base_path.name}.staged")
            self.base.save(staged)
            moves.append((self.base_path, staged))
        if self.changes:
            staged = self.delta_path.with_name(f".{self.delta_path.name}.staged")
            self._save_delta(staged)
            moves.append((self.delta_path, staged))
        else:
            moves.append((self.delta_path, None))
        return moves

    def _save_delta(self, path: Path) -> None:
        """Write to a temp file beside the target, then ``os.replace``."""
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            np.savez(f, labels=self.labels, vectors=self.vectors, deleted=self.deleted)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        fsync_dir(path.parent)
