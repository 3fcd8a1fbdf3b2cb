"""Where the derived indexes live: generations, the pointer to the live one, and the locks.

Layout under ``<vault>/.vmem/index/``::

    CURRENT            name of the live generation, replaced atomically
    gen-000001/        one generation: catalog.sqlite, keyword/ (Whoosh), vectors.hnsw
    write.lock         held by the one process that writes (sync, reindex, daemon)
    snapshot.lock      shared by readers while opening; exclusive while a writer publishes

A full reindex builds a new generation beside the live one and switches ``CURRENT``, so
recalls keep working during a rebuild. Everything here can be deleted and rebuilt.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ..config import StateLayout
from ..errors import IndexStale
from ..vault.fsutil import atomic_write, private_dir
from .catalog import FORMAT_VERSION
from .keyword_index import KeywordIndex

#: the file a generation gets once it is built to the end
COMPLETE = "COMPLETE"


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
    built_with = meta.get("model_id")
    version = meta.get("format_version")
    if version is not None and version != str(FORMAT_VERSION):
        raise IndexStale(f"the index has format version {version}, this vmem uses {FORMAT_VERSION}: run `vmem reindex`")
    if built_with is not None and built_with != model_id:
        raise IndexStale(
            f"the index was built with embedding model {built_with!r} but vmem.toml selects {model_id!r}; "
            "vectors of two models cannot be mixed: run `vmem reindex`"
        )
