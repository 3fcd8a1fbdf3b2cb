"""Where the derived indexes live: generations, the pointer to the live one, and the locks.

Layout under ``<vault>/.vmem/index/``::

    CURRENT            name of the live generation, replaced atomically
    gen-000001/        one generation: catalog.sqlite, keyword/ (Whoosh), vectors.hnsw,
                       vectors.side (the columns hnswlib does not hold) and vectors.delta (what
                       changed since), tokens (late interaction), stamps.marshal (the catalog's
                       file stamps, for the no-change check)
    write.lock         held by the one process that writes (sync, reindex, daemon)
    snapshot.lock      shared by readers while opening; exclusive while a writer publishes

A full reindex builds a new generation beside the live one and switches ``CURRENT``, so
recalls keep working during a rebuild. Everything here can be deleted and rebuilt.
"""

from __future__ import annotations

import hashlib
import marshal
import shutil
from dataclasses import dataclass
from pathlib import Path

from ..config import StateLayout
from ..errors import IndexStale
from ..vault.fsutil import atomic_write, private_dir
from .catalog import FORMAT_VERSION, MIGRATIONS, Meta
from .keyword_index import KeywordIndex

#: the file a generation gets once it is built to the end
COMPLETE = "COMPLETE"
#: the columns of each vector hnswlib does not hold, beside its file (``vector_index.SideRows``)
SIDE_FILE = "vectors.side"


def side_path_of(vectors_path: Path) -> Path:
    """The side rows' file of an hnswlib file: beside it, whatever the folder."""
    return vectors_path.with_name(SIDE_FILE)


#: what a stamps file must say it was written for (the stamp's shape, the catalog's format)
_STAMPS_FORMAT = (1, FORMAT_VERSION, len(MIGRATIONS))


def write_stamps(path: Path, token: str, has_vectors: bool, stamps: list[tuple[str, int, int, int, int]]) -> None:
    """The catalog's file stamps, for a no-change check that reads one file instead of
    querying every row (``marshal``: the fastest exact round trip of 100,000 tuples), in
    the order a walk gives them, so an unchanged vault compares as two equal lists.
    ``token`` is also in the catalog's meta: the file speaks for that catalog only."""
    atomic_write(path, marshal.dumps((_STAMPS_FORMAT, token, has_vectors, stamps)))


def stamps_digest(stamps: list[tuple[str, int, int, int, int]]) -> str:
    """A digest of a stamps list, order included: two walks that list the same files in
    the same order have the same one. Cheaper than reading 100,000 recorded stamps back
    (~30 ms at 100k, against 40-80 ms to load the file). marshal version 0: the later
    versions write references to objects seen before and mark interned strings, so two
    equal lists built apart could differ in their bytes. SHA-1, not BLAKE2b: twice as fast
    here (a fifth of a no-change sync's overhead over its walk), and no one chooses stamps
    to collide."""
    return hashlib.sha1(marshal.dumps(stamps, 0), usedforsecurity=False).hexdigest()


def read_stamps(path: Path) -> tuple[str, bool, list[tuple[str, int, int, int, int]]] | None:
    """(token, the catalog holds vectors, its file stamps); None when the file is missing,
    from another format, or unreadable: the check then asks the catalog."""
    try:
        data = marshal.loads(path.read_bytes())
        if not (isinstance(data, tuple) and len(data) == 4 and data[0] == _STAMPS_FORMAT and isinstance(data[3], list)):
            return None
        return str(data[1]), bool(data[2]), data[3]
    except (OSError, ValueError, EOFError, TypeError):
        return None


@dataclass(order=True)
class Generation:
    folder: Path

    @property
    def catalog_path(self) -> Path:
        return self.folder / "catalog.sqlite"

    @property
    def keyword(self) -> KeywordIndex:
        return KeywordIndex(self.folder / "keyword")

    @property
    def vectors_path(self) -> Path:
        return self.folder / "vectors.hnsw"

    @property
    def vectors_delta_path(self) -> Path:
        """Vectors added and labels deleted since ``vectors.hnsw`` was written
        (``vector_index.Vectors``)."""
        return self.folder / "vectors.delta"

    @property
    def vectors_side_path(self) -> Path:
        """The columns of each vector hnswlib does not hold (``vector_index.SideRows``)."""
        return side_path_of(self.vectors_path)

    @property
    def stamps_path(self) -> Path:
        """The catalog's file stamps as of its last commit, for the no-change check."""
        return self.folder / "stamps.marshal"

    @property
    def complete(self) -> bool:
        """Built to the end (a reindex killed half-way leaves a generation without this)."""
        return (self.folder / COMPLETE).is_file()

    def mark_complete(self) -> None:
        atomic_write(self.folder / COMPLETE, "")


class IndexLayout:
    def __init__(self, state: StateLayout):
        self.dir = state.index
        self.write_lock = self.dir / "write.lock"
        self.snapshot_lock = self.dir / "snapshot.lock"

    def current(self) -> Generation | None:
        try:
            name = (self.dir / "CURRENT").read_text().strip()
        except OSError:
            return None
        folder = self.dir / name
        return Generation(folder) if name and folder.is_dir() else None

    def new_generation(self) -> Generation:
        private_dir(self.dir.parent)
        private_dir(self.dir)
        numbers = [int(p.name[4:]) for p in self.dir.glob("gen-*") if p.name[4:].isdigit()]
        folder = self.dir / f"gen-{max(numbers, default=0) + 1:06d}"
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
        return Generation(folder)

    def publish(self, generation: Generation) -> None:
        """Make ``generation`` live (call under the exclusive snapshot lock)."""
        atomic_write(self.dir / "CURRENT", generation.folder.name + "\n")

    def prune(self) -> None:
        """Delete what no reader can need (call under the write lock, so nothing is being
        built): every unfinished generation and every finished one except the live one
        and the newest finished one before it (a reader may still be using it). The
        generation ``CURRENT`` names is never deleted."""
        current = self.current()
        gens = sorted(Generation(p) for p in self.dir.glob("gen-*") if p.is_dir())
        older = [g for g in gens if g.complete and (current is None or g.folder != current.folder)]
        keep = {current.folder} if current is not None else set()
        if current is not None:
            before = [g for g in older if g.folder.name < current.folder.name]
            keep |= {before[-1].folder} if before else set()
        for generation in gens:
            if generation.folder not in keep:
                shutil.rmtree(generation.folder, ignore_errors=True)


def check_compatible(meta: dict[str, str], model_id: str) -> None:
    """Refuse to mix vectors of two models or read an index of another format."""
    built_with = meta.get(Meta.MODEL_ID)
    version = meta.get(Meta.FORMAT_VERSION)
    if version is not None and version != str(FORMAT_VERSION):
        raise IndexStale(f"the index has format version {version}, this vmem uses {FORMAT_VERSION}: run `vmem reindex`")
    if built_with is not None and built_with != model_id:
        raise IndexStale(
            f"the index was built with embedding model {built_with!r} but vmem.toml selects {model_id!r}; "
            "vectors of two models cannot be mixed: run `vmem reindex`"
        )
