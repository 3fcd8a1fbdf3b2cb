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
from typing import Any

import numpy as np

from ..errors import IndexDamaged
from ..vault.fsutil import atomic_write, fsync_dir
from . import ann
from .generations import Generation, side_path_of

M = 16
EF_CONSTRUCTION = 100
EF_SEARCH = 128
#: changes (vectors added, labels deleted) kept in the delta before it is folded into the
#: hnswlib file: searched by brute force, 4,096 384-d vectors cost about a millisecond
DELTA_MAX = 4096


def split_of(recorded: str | None) -> tuple[int, float] | None:
    """(columns hnswlib holds, the weight of their part) from ``Meta.VECTOR_SPLIT``."""
    if not recorded:
        return None
    columns, weight = recorded.split(":")
    return int(columns), float(weight)


def split_text(split: tuple[int, float]) -> str:
    """``Meta.VECTOR_SPLIT`` of a split."""
    return f"{split[0]}:{split[1]!r}"


def _room(vectors: int) -> int:
    """The slots a graph built for ``vectors`` starts with: room to grow before resizing."""
    return max(2 * vectors, 1024)


def _unit(rows: Any) -> np.ndarray:
    """``rows`` as float64 vectors of unit length."""
    out = np.asarray(rows, np.float64)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


class VectorIndex:
    def __init__(self, path: Path, dim: int):
        self.path = path
        self.dim = dim
        #: hnswlib.Index or ann.Exact (the same calls); set by create() or load()
        self.index: Any = None
        #: slots marked deleted and free for reuse (hnswlib does not report this number)
        self.deleted = 0
        #: the file's vectors read in place (``ann.FileRows``): None until first asked, False
        #: where they are not this index's (not an hnswlib file, or the index changed since)
        self._file_rows: ann.FileRows | None | bool = None
        self._rows_checked = False

    @classmethod
    def create(cls, path: Path, dim: int, capacity: int = 1024) -> VectorIndex:
        vi = cls(path, dim)
        vi.index = ann.new_index(dim, ann.EXACT)  # a graph once it passes ann.EXACT_MAX (add)
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
        try:  # whichever build wrote it (ann.loaded)
            vi.index = ann.loaded(path, dim, _room, live)
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
        self._file_rows = False
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
        grown = ann.grown(self.index, self.dim, _room)
        if grown is not self.index:
            self.index, self.deleted = grown, 0

    def delete(self, labels: list[int]) -> None:
        self._file_rows = False
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
            return self.exact(vector, k, only)
        # more candidates than asked, scored again exactly (``rescored``): the answer does not
        # depend on which index found them, nor on near misses of a graph's walk
        asked = min(live, max(2 * k, k + 10))
        self.index.set_ef(max(EF_SEARCH, asked * 2))
        # one thread: for one question hnswlib's default (all cores) starts threads that find nothing more
        within = {} if only is None else {"filter": only.__contains__}
        while True:
            try:
                labels, _ = self.index.knn_query(vector.reshape(1, -1), k=asked, num_threads=1, **within)
                break
            except RuntimeError:  # fewer reachable than asked (a small graph with deletions): fewer
                if asked == 1:
                    return []
                asked = max(1, asked // 2)
        return self.rescored([int(label) for label in labels[0]], vector, k)

    def exact(self, vector: np.ndarray, k: int, only: AbstractSet[int]) -> list[tuple[int, float]]:
        """The best ``k`` (label, cosine) of the ``only`` labels the file holds, by their
        stored vectors."""
        return self.rescored(sorted(only), vector, k)

    def rescored(self, labels: list[int], vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The best ``k`` of ``labels`` held in the file, as (label, cosine of its stored
        vector with ``vector``), in float64 and ties by label: the same numbers and order
        whichever index (hnswlib's builds, the exact one) holds the same vectors."""
        labels, items = self.items(labels)
        if not labels:
            return []
        rows = _unit(items)  # of unit length again: Chroma's build gives back the vectors as they were added
        query = vector.astype(np.float64).ravel()
        # row by row (not a matrix product, whose sums are ordered by the batch's shape): a
        # vector's score does not depend on which others were scored with it
        scores = (rows * (query / (np.linalg.norm(query) or 1.0))).sum(axis=1)
        order = np.lexsort((np.asarray(labels), -scores))[:k]
        return [(labels[i], float(scores[i])) for i in order]

    def items(self, labels: list[int]) -> tuple[list[int], Any]:
        """(the ``labels`` this index holds live, in their order; their vectors as stored),
        read in place from the file the index was loaded from where they are the same."""
        rows = self._rows_in_file(labels)
        if rows is not None:
            return rows.rows(labels)
        try:
            return labels, self.index.get_items(labels)
        except RuntimeError:  # some are not in this file (in the delta, or deleted): one by one
            held = []
            for label in labels:
                with contextlib.suppress(RuntimeError):
                    held.append((label, self.index.get_items([label])[0]))
            return [label for label, _ in held], [row for _, row in held]

    def _rows_in_file(self, labels: list[int]) -> ann.FileRows | None:
        """The file's rows, once checked against the graph on the first labels it holds: an
        index rebuilt from another build's file, or changed since, answers from the graph."""
        if self._file_rows is False:
            return None
        if self._file_rows is None:
            opened = None if isinstance(self.index, ann.Exact) else ann.FileRows.open(self.path, self.dim)
            self._file_rows = opened if opened is not None else False
            self._rows_checked = False
        rows = self._file_rows
        if not isinstance(rows, ann.FileRows):
            return None
        if not self._rows_checked:
            held, found = rows.rows(labels)
            if not held:
                return None  # checked on a later question
            try:  # the same directions: Chroma's build hands back each vector at the length it was added
                same = np.allclose(_unit(found), _unit(self.index.get_items(held)), rtol=0, atol=1e-6)
            except RuntimeError:  # the file holds what the graph does not
                same = False
            if not same:
                self._file_rows = False
                return None
            self._rows_checked = True
        return rows

    def save(self, path: Path | None = None) -> None:
        """Write to a temp file beside the target, then ``os.replace``."""
        target = path or self.path
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        self.index.save_index(str(tmp))
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, target)
        fsync_dir(target.parent)


class SideRows:
    """The columns of a joined vector past those hnswlib holds (a bilingual index keeps
    the multilingual model's half here): int8 rows with a scale each, by label, sorted, in
    one file read through a memory map. A float32 column in hnswlib costs 4 bytes a memory
    and is read whole when a daemon starts; a row here costs one, and only a question that
    needs it reads it, scored exactly (a few milliseconds at 10,000 memories)."""

    MAGIC = b"VMSIDE01"
    HEADER = 24  # magic, rows, columns
    #: rows scored at a time (each turned into float32 once)
    BLOCK = 4096

    def __init__(self, labels: np.ndarray, scales: np.ndarray, rows: np.ndarray):
        self.labels, self.scales, self.rows = labels, scales, rows

    @classmethod
    def empty(cls, dim: int) -> SideRows:
        return cls(np.empty(0, np.int64), np.empty(0, np.float32), np.empty((0, dim), np.int8))

    @classmethod
    def read(cls, path: Path, dim: int) -> SideRows:
        """The rows of ``path``, mapped, not read; a missing, short or foreign file is
        ``IndexDamaged`` (it is written whenever its hnswlib file is)."""
        import mmap

        try:
            with open(path, "rb") as f:
                mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as e:
            raise IndexDamaged(f"{path} cannot be read ({e}): `vmem sync` rebuilds it") from None
        head = np.frombuffer(mapped, np.int64, 2, 8) if len(mapped) >= cls.HEADER else None
        count = int(head[0]) if head is not None else -1
        if (
            head is None
            or mapped[:8] != cls.MAGIC
            or int(head[1]) != dim
            or count < 0
            or len(mapped) != cls.HEADER + count * (12 + dim)
        ):
            raise IndexDamaged(f"{path} is not this index's side vectors: `vmem sync` rebuilds it")
        labels = np.frombuffer(mapped, np.int64, count, cls.HEADER)
        scales = np.frombuffer(mapped, np.float32, count, cls.HEADER + 8 * count)
        rows = np.frombuffer(mapped, np.int8, count * dim, cls.HEADER + 12 * count).reshape(count, dim)
        return cls(labels, scales, rows)

    @classmethod
    def quantized(cls, labels: list[int], vectors: np.ndarray) -> SideRows:
        """Rows for ``labels`` from their columns as floats: each scaled to its largest
        value, rounded to int8."""
        vectors = np.asarray(vectors, np.float32).reshape(len(labels), -1)
        peak = np.abs(vectors).max(axis=1) if len(vectors) else np.empty(0, np.float32)
        scales = np.where(peak > 0, peak / 127, 1).astype(np.float32)
        return cls(np.asarray(labels, np.int64), scales, np.round(vectors / scales[:, None]).astype(np.int8))

    @classmethod
    def joined(cls, parts: list[SideRows], dim: int) -> SideRows:
        """The rows of ``parts`` (no label in two), sorted by label."""
        if not parts:
            return cls.empty(dim)
        labels = np.concatenate([part.labels for part in parts])
        order = np.argsort(labels, kind="stable")
        scales = np.concatenate([part.scales for part in parts])
        rows = np.concatenate([part.rows.reshape(len(part.labels), dim) for part in parts])
        return cls(labels[order], scales[order], rows[order])

    def changed(self, added: SideRows, deleted: AbstractSet[int]) -> SideRows:
        """These rows without ``deleted`` and with ``added`` (a label added again takes its
        new row)."""
        gone = np.isin(self.labels, np.union1d(added.labels, np.asarray(sorted(deleted), np.int64)))
        kept = SideRows(self.labels[~gone], self.scales[~gone], self.rows[~gone])
        return SideRows.joined([kept, added], self.rows.shape[1])

    def save(self, path: Path) -> None:
        """All or nothing (``fsutil.atomic_write``)."""
        header = self.MAGIC + np.array([len(self.labels), self.rows.shape[1]], np.int64).tobytes()
        parts = (self.labels.astype(np.int64), self.scales.astype(np.float32), self.rows.astype(np.int8))
        atomic_write(path, b"".join([header, *(np.ascontiguousarray(part).tobytes() for part in parts)]))

    def dots(self, query: np.ndarray, at: np.ndarray) -> np.ndarray:
        """The dot product of ``query`` with the rows at positions ``at``."""
        out = np.empty(len(at), np.float32)
        for start in range(0, len(at), self.BLOCK):
            chunk = at[start : start + self.BLOCK]
            out[start : start + len(chunk)] = (self.rows[chunk].astype(np.float32) @ query) * self.scales[chunk]
        return out

    def scored(self, query: np.ndarray, at: np.ndarray) -> np.ndarray:
        """``dots`` for a few rows, in float64 and row by row: a row's number does not depend
        on which others were scored with it (``VectorIndex.rescored``)."""
        rows = self.rows[at].astype(np.float64)
        return (rows * query.astype(np.float64)).sum(axis=1) * self.scales[at].astype(np.float64)

    def positions(self, labels: AbstractSet[int] | list[int]) -> np.ndarray:
        """Where each of ``labels`` that has a row is."""
        wanted = np.asarray(sorted(labels), np.int64)
        at = np.searchsorted(self.labels, wanted)
        at = at[at < len(self.labels)]
        return at[np.isin(self.labels[at], wanted)]

    def search(
        self, query: np.ndarray, k: int, only: AbstractSet[int] | None, gone: np.ndarray
    ) -> list[tuple[int, float]]:
        """The best ``k`` (label, dot product with ``query``) of the rows, among ``only``,
        without the labels ``gone``."""
        at = np.arange(len(self.labels)) if only is None else self.positions(only)
        if len(gone):
            at = at[~np.isin(self.labels[at], gone)]
        if not len(at) or k <= 0:
            return []
        scores = self.dots(query.astype(np.float32), at)
        best = np.argsort(-scores)[:k]
        return [(int(self.labels[at[i]]), float(scores[i])) for i in best]


class Vectors:
    """A generation's vectors: the hnswlib file and the delta beside it (vectors added and
    labels deleted since the file was last written), searched as one index by a reader and
    changed by a sync, which stages its changes beside the live files until its publish:
    into the delta alone (``base`` None: a sync of a few files, the hnswlib file is not
    even read), or into the hnswlib index with the delta folded in (a sync of the whole
    vault, or a delta past ``DELTA_MAX``).

    ``split`` (columns, their weight): a joined vector (``embedder.BilingualEmbedder``)
    whose first ``columns`` go to hnswlib, each of those parts of unit length × ``weight``;
    the rest are ``SideRows`` in ``side_path``, written whenever the hnswlib file is. The
    delta keeps whole vectors. Scores stay the cosine of the whole vectors."""

    def __init__(
        self,
        base_path: Path,
        delta_path: Path,
        dim: int,
        base: VectorIndex | None = None,
        split: tuple[int, float] | None = None,
    ):
        self.base_path, self.delta_path, self.dim = base_path, delta_path, dim
        self.base = base
        self.split = split
        self.base_dim = split[0] if split else dim
        self.side_path = side_path_of(base_path)
        #: the side rows as the hnswlib file's (None: not read; a sync reads them when it folds)
        self.side: SideRows | None = None
        self.labels = np.empty(0, np.int64)  #: the delta's vectors' labels [n]
        self.vectors = np.empty((0, dim), np.float32)  #: [n, dim], unit length (cosine is their dot product)
        self.deleted = np.empty(0, np.int64)  #: labels of the hnswlib file that are gone [m]
        #: what a folding sync changed in the side rows since they were read
        self._side_added: dict[int, np.ndarray] = {}
        self._side_deleted: set[int] = set()

    @classmethod
    def read(
        cls,
        base_path: Path,
        delta_path: Path,
        dim: int,
        base: VectorIndex | None = None,
        split: tuple[int, float] | None = None,
        side: SideRows | None = None,
    ) -> Vectors:
        """The vectors of a generation, read now (``base``, ``side``: the files already read)."""
        vectors = cls(base_path, delta_path, dim, None, split)
        vectors.base = base or VectorIndex.load(base_path, vectors.base_dim)
        if split:
            vectors.side = side or SideRows.read(vectors.side_path, dim - split[0])
        vectors._read_delta()
        return vectors

    @classmethod
    def for_sync(
        cls,
        base_path: Path,
        delta_path: Path,
        dim: int,
        *,
        whole: bool,
        live: int,
        adding: int,
        split: tuple[int, float] | None = None,
    ) -> Vectors:
        """``whole``: fold the delta into the hnswlib index now; ``live``: the vectors the
        catalog maps; ``adding``: how many this sync adds (sizes a new index)."""
        vectors = cls(base_path, delta_path, dim, None, split)
        if not base_path.exists():
            vectors.base = VectorIndex.create(base_path, vectors.base_dim, capacity=max(1024, 2 * adding))
            vectors.side = SideRows.empty(dim - split[0]) if split else None
        vectors._read_delta()
        if whole or vectors.base is not None:
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
        query = vector.astype(np.float32).ravel()
        norm = float(np.linalg.norm(query)) or 1.0
        if self.split is None:
            found = (
                self.base.search(query, k + len(deleted), in_base + len(deleted), only)
                if self.base is not None and in_base
                else []
            )
        else:
            found = self._split_search(query, norm, k + len(deleted), in_base + len(deleted), only)
        if len(deleted):
            gone = set(deleted.tolist())
            found = [hit for hit in found if hit[0] not in gone]
        best = dict(found)
        if len(self.labels) and k > 0:  # the delta, by brute force
            scores = self.vectors @ (query / norm)
            if only is not None:
                scores[[int(label) not in only for label in self.labels]] = -np.inf
            for i in np.argsort(-scores)[:k]:
                if not np.isfinite(scores[i]):
                    break
                best[int(self.labels[i])] = float(scores[i])  # (after a fold killed half-way, both hold it)
        return sorted(best.items(), key=lambda hit: -hit[1])[:k]

    def _split_search(
        self, query: np.ndarray, norm: float, k: int, in_base: int, only: AbstractSet[int] | None
    ) -> list[tuple[int, float]]:
        """``search`` of the hnswlib file and the side rows: each part of ``query`` where
        its columns are (hnswlib holds its part of unit length: × its weight), and a label
        one part found scored for the other part too."""
        assert self.split is not None
        columns, weight = self.split
        head, tail = query[:columns], query[columns:]
        head_norm, tail_norm = float(np.linalg.norm(head)), float(np.linalg.norm(tail))
        pool = k if head_norm == 0 or tail_norm == 0 else 4 * k  # both asked: the best of each part, and more
        found: dict[int, float] = {}
        if head_norm > 0 and self.base is not None and in_base:
            for label, cosine in self.base.search(head, pool, in_base, only):
                found[label] = cosine * head_norm * weight / norm
        if tail_norm > 0 and self.side is not None:
            side = self.side.search(tail, pool, only, self.deleted)
            if head_norm > 0:  # both parts asked: each label found by either scored by both, alike
                wanted = set(found) | {label for label, _ in side}
                heads = dict(self.base.exact(head, len(wanted), wanted)) if self.base is not None else {}
                rows = self.side.positions(sorted(wanted))
                tails = dict(zip(self.side.labels[rows].tolist(), self.side.scored(tail, rows).tolist()))
                scores = {
                    label: (heads.get(label, 0.0) * head_norm * weight + tails.get(label, 0.0)) / norm
                    for label in wanted
                }
                return sorted(scores.items(), key=lambda hit: (-hit[1], hit[0]))[:k]
            for label, dot in side:
                found[label] = dot / norm
        return sorted(found.items(), key=lambda hit: (-hit[1], hit[0]))[:k]

    def stored(self, labels: list[int]) -> dict[int, np.ndarray]:
        """The unit vectors of ``labels`` as stored (a joined vector's side columns read back
        from their int8 rows): a memory compared with others by its vector, not by
        embedding its text again (25 ms for eight facts on the bundled model). Read at
        once: the file's rows of all of them, then the side rows of all of them."""
        in_delta = {int(label): i for i, label in enumerate(self.labels)}
        gone = set(self.deleted.tolist())
        wanted = [label for label in labels if label not in in_delta and label not in gone]
        heads: dict[int, Any] = {}
        if wanted and self.base is not None:
            held, items = self.base.items(wanted)
            heads = dict(zip(held, items, strict=True))
        tails: dict[int, np.ndarray] = {}
        if heads and self.split is not None and self.side is not None:
            at = self.side.positions(list(heads))
            tails = {
                int(label): row.astype(np.float32) * scale
                for label, row, scale in zip(
                    self.side.labels[at], self.side.rows[at], self.side.scales[at], strict=True
                )
            }
        out: dict[int, np.ndarray] = {}
        for label in labels:
            if label in in_delta:
                out[label] = self.vectors[in_delta[label]]
                continue
            if label not in heads:  # deleted, or not in the file
                continue
            head = np.array(heads[label], np.float32)
            head /= float(np.linalg.norm(head)) or 1.0
            if self.split is None:
                out[label] = head
                continue
            columns, weight = self.split
            tail = tails.get(label)
            out[label] = np.concatenate(
                [head * weight, tail if tail is not None else np.zeros(self.dim - columns, np.float32)]
            )
        return out

    def side_of(self, labels: list[int]) -> dict[int, np.ndarray]:
        """The columns past the hnswlib file's of ``labels`` (a joined vector's second
        model, ``split``), as stored and not of unit length, read at once; empty when the
        vectors are not joined. A reader of that model alone reads no more."""
        if self.split is None:
            return {}
        columns, _ = self.split
        in_delta = dict(zip(self.labels.tolist(), range(len(self.labels)), strict=True))
        gone = set(self.deleted.tolist())
        out = {label: self.vectors[in_delta[label], columns:] for label in labels if label in in_delta}
        rest = [label for label in labels if label not in in_delta and label not in gone]
        if rest and self.side is not None:
            at = self.side.positions(rest)
            rows = self.side.rows[at].astype(np.float32) * self.side.scales[at, None]
            out.update(zip(self.side.labels[at].tolist(), rows, strict=True))
        return out

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
            self.base = VectorIndex.load(self.base_path, self.base_dim, live=in_base)
        if self.split and self.side is None:
            self.side = SideRows.read(self.side_path, self.dim - self.split[0])
        self._to_base_delete([int(label) for label in self.deleted])
        if len(self.labels):
            self._to_base_add([int(label) for label in self.labels], self.vectors)
        self.labels, self.vectors = np.empty(0, np.int64), np.empty((0, self.dim), np.float32)
        self.deleted = np.empty(0, np.int64)

    def _to_base_add(self, labels: list[int], vectors: np.ndarray) -> None:
        assert self.base is not None
        if self.split is None:
            self.base.add(labels, vectors)
            return
        columns = self.split[0]
        self.base.add(labels, vectors[:, :columns])
        for label, row in zip(labels, vectors[:, columns:]):
            self._side_added[label] = np.asarray(row, np.float32)
            self._side_deleted.discard(label)

    def _to_base_delete(self, labels: list[int]) -> None:
        assert self.base is not None
        self.base.delete(labels)
        if self.split is not None:
            for label in labels:
                self._side_added.pop(label, None)
                self._side_deleted.add(label)

    def delete(self, labels: list[int]) -> None:
        """From the hnswlib index once read; else a label added since the last fold leaves
        the delta and one of the hnswlib file is listed as deleted."""
        if self.base is not None:
            self._to_base_delete(labels)
            return
        gone = np.asarray(sorted(set(labels)), np.int64)
        mine = np.isin(self.labels, gone)
        older = np.setdiff1d(gone, self.labels[mine])
        self.labels, self.vectors = self.labels[~mine], self.vectors[~mine]
        self.deleted = np.union1d(self.deleted, older)

    def add(self, labels: list[int], vectors: np.ndarray) -> None:
        if self.base is not None and self.split is None:  # hnswlib makes its own unit vectors
            self._to_base_add(labels, vectors)
            return
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit = (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)
        if self.base is not None:  # the side rows are the unit vector's columns
            self._to_base_add(labels, unit)
            return
        self.labels = np.concatenate([self.labels, np.asarray(labels, np.int64)])
        self.vectors = np.concatenate([self.vectors, unit])

    def stage(self, live: int) -> list[tuple[Path, Path | None]]:
        """Write the staged files; returns (live file, staged file or None to remove it) in
        the order the publish must apply them: the hnswlib file and its side rows before
        the delta, so a reader never sees a delta emptied into a file not yet in place."""
        if self.base is None and self.changes > DELTA_MAX:
            self.fold(live)
        moves: list[tuple[Path, Path | None]] = []
        if self.base is not None:
            staged = self.base_path.with_name(f".{self.base_path.name}.staged")
            self.base.save(staged)
            moves.append((self.base_path, staged))
            if self.split is not None and self.side is not None:
                added = sorted(self._side_added)
                rows = (  # none added (a file only taken away): no rows, of the side's width
                    SideRows.quantized(added, np.stack([self._side_added[label] for label in added]))
                    if added
                    else SideRows.empty(self.side.rows.shape[1])
                )
                side = self.side.changed(rows, self._side_deleted)
                staged = self.side_path.with_name(f".{self.side_path.name}.staged")
                side.save(staged)
                moves.append((self.side_path, staged))
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


class BuiltVectors:
    """The vectors a whole build writes into a new generation: every batch added to one
    hnswlib index (the first ``split`` columns, or all) and, split, the rest kept for the
    ``SideRows`` file; both saved once at the end."""

    def __init__(self, generation: Generation, dim: int, split: tuple[int, float] | None, capacity: int):
        columns = split[0] if split else dim
        self.split = split
        self.index = VectorIndex.create(generation.vectors_path, columns, capacity=capacity)
        self.side_path, self.width = generation.vectors_side_path, dim - columns
        #: each batch's side rows, quantized as it comes (a quarter of its floats)
        self._side: list[SideRows] = []

    def add(self, labels: list[int], vectors: np.ndarray) -> None:
        if self.split is None:
            self.index.add(labels, vectors)
            return
        columns = self.split[0]
        self.index.add(labels, vectors[:, :columns])
        self._side.append(SideRows.quantized(labels, vectors[:, columns:]))

    def save(self) -> None:
        self.index.save()
        if self.split is not None:
            SideRows.joined(self._side, self.width).save(self.side_path)
