"""What answers a vector query: an exact search over the vectors with numpy (``Exact``) up
to ``EXACT_MAX`` of them, and past that hnswlib's graph when a build of it is installed,
behind the few calls of ``hnswlib.Index`` the vector leg makes.

Which one: ``$VMEM_VECTOR_INDEX`` (``hnswlib`` or ``exact``), else hnswlib when it imports.
hnswlib needs a C++ compiler where no wheel exists (CPython 3.13); at a personal vault's size
the exact search is as good an answer (1.3 ms at 10,000 vectors, 13 ms at 100,000, one
thread; docs/benchmarks.md). Below ``EXACT_MAX`` it is the answer even where the graph is
installed: a graph's walk misses near vectors (on a LoCoMo conversation of 629 turns, the
eighth nearest was found only when 300 were asked for), and a small matrix costs less.

The vectors are the truth of a vector file, the graph is derived from them: each build reads
a file another build wrote (hnswlib 0.8 and Chroma's 0.7 write level 0 alike but refuse each
other's files, ``Exact`` writes no graph), taking its vectors (``read_rows``) and building its
own index from them, never embedding a text again.
"""

from __future__ import annotations

import functools
import importlib
import os
import struct
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from ..errors import ConfigError

#: the environment variable that chooses, and what it may say
ENV = "VMEM_VECTOR_INDEX"
HNSWLIB, EXACT = "hnswlib", "exact"
KINDS = (HNSWLIB, EXACT)

#: up to this many vectors the search is exact whatever is installed (a millisecond)
EXACT_MAX = 4096

#: how a file ``Exact`` writes begins (hnswlib's begins with its level-0 offset, 8 zero bytes)
EXACT_MAGIC = b"VMEMVEC1"
#: hnswlib's header: offsetLevel0, max_elements, cur_element_count, size_data_per_element,
#: label_offset, offsetData, maxlevel, enterpoint_node, maxM, maxM0, M, mult, ef_construction
_HNSW_HEADER = struct.Struct("<6Q i I 3Q d Q")
#: in hnswlib's level 0, the byte of an element's link count that holds its "deleted" mark
_DELETED_BYTE, _DELETED_MARK = 2, 0x01


@functools.cache
def _hnswlib() -> ModuleType | None:
    """The hnswlib module, or None when no build of it imports (not installed, or built for
    another numpy)."""
    try:
        return importlib.import_module("hnswlib")
    except ImportError:
        return None


def chosen(env: Mapping[str, str] | None = None) -> str:
    """``hnswlib`` or ``exact``: what ``$VMEM_VECTOR_INDEX`` asks for, else hnswlib when it
    imports. Asking for what cannot be had is a ConfigError that says so."""
    asked = (os.environ if env is None else env).get(ENV, "").strip().lower()
    if asked and asked not in KINDS:
        raise ConfigError(f"{ENV}={asked!r}: it may be {' or '.join(KINDS)}")
    if asked == EXACT or (not asked and _hnswlib() is None):
        return EXACT
    if _hnswlib() is None:
        raise ConfigError(f"{ENV}=hnswlib, but hnswlib is not installed (`pip install hnswlib` needs a C++ compiler)")
    return HNSWLIB


def described(env: Mapping[str, str] | None = None) -> str:
    """The index in use past ``EXACT_MAX`` vectors, as `vmem doctor` names it."""
    try:
        kind = chosen(env)
    except ConfigError as e:
        return str(e)
    if kind == EXACT:
        why = f"{ENV}=exact" if (os.environ if env is None else env).get(ENV) else "hnswlib is not installed"
        return f"exact search with numpy ({why})"
    build = _distribution()
    return f"exact up to {EXACT_MAX:,} vectors, then hnswlib's graph" + (f" ({build})" if build else "")


def _distribution() -> str:
    """Which package installed the ``hnswlib`` module: hnswlib itself or Chroma's build."""
    from importlib import metadata

    for name in ("chroma-hnswlib", "hnswlib"):
        try:
            return f"{name} {metadata.version(name)}"
        except metadata.PackageNotFoundError:
            continue
    return ""


def new_index(dim: int, kind: str | None = None) -> Any:
    """An empty index of ``dim`` cosine dimensions, of ``kind`` or else the chosen one
    (hnswlib.Index or Exact: the same calls)."""
    picked = chosen()  # a setting that cannot be is refused whatever the size
    if (kind or picked) == EXACT:
        return Exact(dim)
    module = _hnswlib()
    assert module is not None
    return module.Index(space="cosine", dim=dim)


def loaded(path: Path, dim: int, capacity_of: Callable[[int], int], live: int | None = None) -> Any:
    """The index in ``path``, whichever build wrote it: exact while it holds at most
    ``EXACT_MAX`` vectors (``live``, else the file's count), else of the chosen kind.
    ``capacity_of`` tells the room a rebuilt graph needs for its number of vectors.
    ValueError, OSError or RuntimeError: no build can read it."""
    small = (live if live is not None else stored_count(path)) <= EXACT_MAX
    index = new_index(dim, EXACT if small else None)
    if isinstance(index, Exact):
        index.load_index(str(path))
        return index
    try:
        index.load_index(str(path), allow_replace_deleted=True)
        return index
    except (RuntimeError, ValueError) as refused:
        try:
            labels, rows, deleted = read_rows(path, dim)
        except ValueError:
            raise refused from None
    return _graph_of(dim, labels[~deleted], rows[~deleted], capacity_of)


def grown(index: Any, dim: int, capacity_of: Callable[[int], int]) -> Any:
    """``index`` as its number of vectors wants it: an ``Exact`` past ``EXACT_MAX`` becomes
    hnswlib's graph of the same vectors, where hnswlib is the chosen kind."""
    if not isinstance(index, Exact) or index.live() <= EXACT_MAX or chosen() != HNSWLIB:
        return index
    labels, rows = index.live_rows()
    return _graph_of(dim, labels, rows, capacity_of)


def _graph_of(dim: int, labels: np.ndarray, rows: np.ndarray, capacity_of: Callable[[int], int]) -> Any:
    index = new_index(dim, HNSWLIB)
    index.init_index(max_elements=capacity_of(len(labels)), ef_construction=100, M=16, allow_replace_deleted=True)
    if len(labels):
        index.add_items(rows, labels)
    return index


def stored_count(path: Path) -> int:
    """How many vectors (deleted ones included) a vector file of either kind holds; 0 for
    one too short to say."""
    with open(path, "rb") as f:
        head = f.read(max(len(EXACT_MAGIC) + 16, _HNSW_HEADER.size))
    if head.startswith(EXACT_MAGIC) and len(head) >= len(EXACT_MAGIC) + 16:
        return int(struct.unpack_from("<QQ", head, len(EXACT_MAGIC))[1])
    if len(head) >= _HNSW_HEADER.size:
        return int(_HNSW_HEADER.unpack_from(head)[2])
    return 0


def read_rows(path: Path, dim: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(labels, unit vectors, deleted marks) of a vector file ``Exact`` or any hnswlib build
    wrote. ValueError when the file is neither, or not of ``dim`` dimensions."""
    with open(path, "rb") as f:
        head = f.read(max(len(EXACT_MAGIC) + 16, _HNSW_HEADER.size))
        if head.startswith(EXACT_MAGIC):
            return _read_exact(f, head, dim)
        return _read_hnsw(f, head, dim, os.fstat(f.fileno()).st_size)


def _read_exact(f: Any, head: bytes, dim: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    file_dim, count = struct.unpack_from("<QQ", head, len(EXACT_MAGIC))
    if file_dim != dim:
        raise ValueError(f"vectors of {file_dim} dimensions where {dim} were expected")
    f.seek(len(EXACT_MAGIC) + 16)
    labels = np.fromfile(f, np.int64, count)
    deleted = np.fromfile(f, np.bool_, count)
    rows = np.fromfile(f, np.float32, count * dim)
    if len(labels) != count or len(deleted) != count or len(rows) != count * dim:
        raise ValueError("the file ends before its vectors do")
    return labels, rows.reshape(count, dim), deleted


def _read_hnsw(f: Any, head: bytes, dim: int, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if len(head) < _HNSW_HEADER.size:
        raise ValueError("too short for a vector file")
    offset0, _, count, per_element, label_at, data_at, *_ = _HNSW_HEADER.unpack_from(head)
    if offset0 != 0 or data_at <= _DELETED_BYTE or data_at + 4 * dim != label_at or label_at + 8 > per_element:
        raise ValueError(f"not a vector file of {dim} dimensions")
    if _HNSW_HEADER.size + count * per_element > size:
        raise ValueError("the file ends before its vectors do")
    f.seek(_HNSW_HEADER.size)
    raw = np.fromfile(f, np.uint8, count * per_element).reshape(count, per_element)
    rows = np.ascontiguousarray(raw[:, data_at:label_at]).view("<f4").astype(np.float32)
    labels = np.ascontiguousarray(raw[:, label_at : label_at + 8]).view("<u8").ravel().astype(np.int64)
    deleted = (raw[:, _DELETED_BYTE] & _DELETED_MARK).astype(bool)
    return labels, rows.reshape(count, dim), deleted


class FileRows:
    """The vectors of an hnswlib file as it lies on disk, by label, through a memory map: a
    reader's graph was loaded from that file and is never changed, so its vectors are these
    bytes. ``get_items`` hands back each vector as a Python list (200 candidates of a
    question, 1.7 ms to fetch and turn into numbers at 10,000 memories, most of the vector
    leg's rescoring); a slice of the map is a copy of the same float32 numbers."""

    def __init__(self, raw: np.ndarray, data_at: int, label_at: int, labels: np.ndarray, at: np.ndarray):
        self._raw, self._data_at, self._label_at = raw, data_at, label_at
        self._labels, self._at = labels, at  # sorted live labels, and the element of each

    @classmethod
    def open(cls, path: Path, dim: int) -> FileRows | None:
        """The rows of the hnswlib file ``path``; None when it is not one of ``dim``
        dimensions this reading understands (the graph's ``get_items`` answers then)."""
        try:
            with open(path, "rb") as f:
                head = f.read(_HNSW_HEADER.size)
                size = os.fstat(f.fileno()).st_size
            if len(head) < _HNSW_HEADER.size or head.startswith(EXACT_MAGIC):
                return None
            offset0, _, count, per_element, label_at, data_at, *_ = _HNSW_HEADER.unpack_from(head)
            if offset0 != 0 or data_at <= _DELETED_BYTE or data_at + 4 * dim != label_at or label_at + 8 > per_element:
                return None
            if count == 0 or _HNSW_HEADER.size + count * per_element > size:
                return None
            raw = np.memmap(path, np.uint8, "r", offset=_HNSW_HEADER.size, shape=(count, per_element))
        except (OSError, ValueError, struct.error):
            return None
        labels = np.ascontiguousarray(raw[:, label_at : label_at + 8]).view("<u8").ravel().astype(np.int64)
        live = np.flatnonzero((raw[:, _DELETED_BYTE] & _DELETED_MARK) == 0)
        order = np.argsort(labels[live], kind="stable")
        return cls(raw, data_at, label_at, labels[live][order], live[order])

    def rows(self, labels: list[int]) -> tuple[list[int], np.ndarray]:
        """(the ``labels`` the file holds live, in their order; their float32 vectors)."""
        wanted = np.asarray(labels, np.int64)
        where = np.minimum(np.searchsorted(self._labels, wanted), len(self._labels) - 1)
        held = self._labels[where] == wanted
        elements = self._at[where[held]]
        block = np.ascontiguousarray(self._raw[elements, self._data_at : self._label_at])
        return wanted[held].tolist(), block.view("<f4")


class Exact:
    """The calls of ``hnswlib.Index`` the vector leg makes, answered exactly: every vector
    (of unit length, as hnswlib's cosine space keeps them) in one matrix, a query one
    product. Deleted slots are reused, as hnswlib's ``replace_deleted`` does, so the counts
    the vector leg keeps mean the same."""

    def __init__(self, dim: int):
        self.dim = dim
        self._rows = np.empty((0, dim), np.float32)
        self._labels = np.empty(0, np.int64)
        self._deleted = np.empty(0, bool)
        self._count = 0
        self._max = 0
        self._at: dict[int, int] = {}

    # -- the hnswlib calls -------------------------------------------------------------
    def init_index(self, max_elements: int, **_: Any) -> None:
        self.resize_index(max_elements)

    def set_ef(self, ef: int) -> None:
        """A graph's breadth of search: an exact search has none."""

    def get_current_count(self) -> int:
        return self._count

    def live(self) -> int:
        """Vectors held and not deleted (hnswlib counts deleted slots too)."""
        return self._count - int(self._deleted[: self._count].sum())

    def live_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """(labels, unit vectors) of the vectors not deleted."""
        keep = ~self._deleted[: self._count]
        return self._labels[: self._count][keep].copy(), self._rows[: self._count][keep].copy()

    def get_max_elements(self) -> int:
        return self._max

    def resize_index(self, max_elements: int) -> None:
        grow = max(max_elements, self._count) - len(self._labels)
        if grow > 0:
            self._rows = np.concatenate([self._rows, np.zeros((grow, self.dim), np.float32)])
            self._labels = np.concatenate([self._labels, np.full(grow, -1, np.int64)])
            self._deleted = np.concatenate([self._deleted, np.zeros(grow, bool)])
        self._max = max(max_elements, self._count)

    def add_items(self, data: np.ndarray, ids: Any, replace_deleted: bool = False, **_: Any) -> None:
        rows = np.asarray(data, np.float32).reshape(-1, self.dim)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        unit = (rows / np.where(norms == 0, 1, norms)).astype(np.float32)
        free = [int(i) for i in np.flatnonzero(self._deleted[: self._count])] if replace_deleted else []
        for label, row in zip(np.asarray(ids, np.int64).ravel().tolist(), unit):
            at = self._at.get(label)
            if at is None:
                if free:
                    at = free.pop()
                    del self._at[int(self._labels[at])]
                elif self._count < self._max:
                    at, self._count = self._count, self._count + 1
                else:
                    raise RuntimeError("The number of elements exceeds the specified limit")
                self._labels[at], self._at[label] = label, at
            self._rows[at], self._deleted[at] = row, False

    def mark_deleted(self, label: int) -> None:
        at = self._at.get(int(label))
        if at is None or self._deleted[at]:
            raise RuntimeError(
                "Label not found" if at is None else "The requested to delete element is already deleted"
            )
        self._deleted[at] = True

    def get_ids_list(self) -> list[int]:
        return list(self._at)

    def get_items(self, ids: Any) -> np.ndarray:
        at = [self._at.get(int(label)) for label in ids]
        if any(i is None or self._deleted[i] for i in at):
            raise RuntimeError("Label not found")
        return self._rows[np.asarray(at, np.int64)].copy()

    def knn_query(
        self, data: np.ndarray, k: int = 1, num_threads: int = -1, filter: Callable[[int], bool] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` nearest (fewer when fewer are live), as hnswlib answers: labels and
        cosine distances, each of shape (queries, k)."""
        queries = np.asarray(data, np.float32).reshape(-1, self.dim)
        queries = queries / np.maximum(np.linalg.norm(queries, axis=1, keepdims=True), 1e-12)
        n = self._count
        labels = self._labels[:n]
        allowed = ~self._deleted[:n]
        if filter is not None:
            allowed &= np.fromiter((filter(int(label)) for label in labels), bool, n)
        positions = np.flatnonzero(allowed)
        k = min(k, len(positions))
        scores = queries @ self._rows[positions].T
        out_labels = np.empty((len(queries), k), np.uint64)
        out_distances = np.empty((len(queries), k), np.float32)
        for q, row in enumerate(scores):
            best = np.argpartition(-row, k - 1)[:k] if 0 < k < len(row) else np.arange(k)
            best = best[np.lexsort((labels[positions[best]], -row[best]))]
            out_labels[q] = labels[positions[best]]
            out_distances[q] = 1.0 - row[best]
        return out_labels, out_distances

    def save_index(self, path: str) -> None:
        n = self._count
        with open(path, "wb") as f:
            f.write(EXACT_MAGIC + struct.pack("<QQ", self.dim, n))
            f.write(self._labels[:n].astype("<i8").tobytes())
            f.write(self._deleted[:n].tobytes())
            f.write(self._rows[:n].astype("<f4").tobytes())

    def load_index(self, path: str, **_: Any) -> None:
        labels, rows, deleted = read_rows(Path(path), self.dim)
        n = len(labels)
        self._rows, self._labels, self._deleted = rows.copy(), labels.copy(), deleted.copy()
        self._count = self._max = n
        self._at = {int(label): i for i, label in enumerate(labels.tolist())}
