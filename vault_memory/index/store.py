"""Where the derived indexes live, and how readers get a consistent snapshot of them.

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

from .catalog import FORMAT_VERSION, Catalog, memory_from_catalog
from ..errors import IndexStale
from ..vault.fsutil import atomic_write
from .keyword_index import KeywordIndex
from .keyword_search import KeywordSearcher, SegmentCache
from ..lifecycle.rules import Rules, Timeline, timeline
from .locks import file_lock
from ..vault.memory import Memory
from .vector_index import VectorIndex


@dataclass
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


class IndexLayout:
    def __init__(self, state_dir: Path):
        self.dir = state_dir / "index"
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
        self.dir.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.name[4:]) for p in self.dir.glob("gen-*") if p.name[4:].isdigit()]
        folder = self.dir / f"gen-{max(numbers, default=0) + 1:06d}"
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
        return Generation(folder)

    def publish(self, generation: Generation) -> None:
        """Make ``generation`` live (call under the exclusive snapshot lock)."""
        atomic_write(self.dir / "CURRENT", generation.folder.name + "\n")

    def prune(self, keep: int = 2) -> None:
        """Delete old generations, keeping the live one and the one before it (a reader may
        still be using it)."""
        current = self.current()
        gens = sorted(p for p in self.dir.glob("gen-*") if p.is_dir())
        for folder in gens[:-keep]:
            if current is None or folder != current.folder:
                shutil.rmtree(folder, ignore_errors=True)


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


class Snapshot:
    """A consistent read view of catalog, keyword and vector indexes of one generation.

    Nothing it reads can change while it is open, so what recall asks of the catalog
    (memories, neighbours, pinned and superseded paths, vector labels) is kept once read:
    the daemon holds one snapshot between syncs, and its recalls stop paying for SQL and
    JSON on every query."""

    def __init__(self, layout: IndexLayout, lock_timeout: float = 30.0, segments: SegmentCache | None = None):
        with file_lock(layout.snapshot_lock, shared=True, timeout=lock_timeout):
            generation = layout.current()
            if generation is None:
                raise FileNotFoundError("no index yet")
            self.generation = generation
            self.catalog = Catalog(generation.catalog_path)
            self.catalog.db.execute("BEGIN")
            self.meta = self.catalog.meta()  # first read pins the SQLite snapshot
            self.live_chunks, chunked = self.catalog.db.execute("SELECT COUNT(*), COUNT(DISTINCT path) FROM chunks").fetchone()
            #: chunks beyond the first of each memory: how many more labels than memories a search needs
            self.extra_chunks = self.live_chunks - chunked
            self.keyword = KeywordSearcher(generation.keyword, segments)
            dim = int(self.meta.get("dim") or 0)
            self.vectors = VectorIndex.load(generation.vectors_path, dim) if dim and generation.vectors_path.exists() else None
        self._memories: dict[str, Memory | None] = {}
        self._shas: dict[str, str] = {}
        self._neighbours: dict[str, list[str]] = {}
        self._label_paths: dict[int, str | None] = {}
        self._pinned: list[str] | None = None
        self._superseded: set[str] | None = None
        self._complete = False  # everything is in memory: a miss means "not there"
        self._timelines: dict[str, tuple[Memory, Rules, Timeline]] = {}

    def preload(self, previous: "Snapshot | None" = None) -> None:
        """Read everything recall may need, now, so that no query waits on SQL, JSON or
        Whoosh (for a long-lived reader: the daemon). Memories already parsed by
        ``previous`` are reused for files whose path and content hash are unchanged, so
        after an edit only the edited files are parsed again."""
        self.keyword.preload()
        reuse = previous._memories if previous is not None and previous._complete else {}
        old_shas = previous._shas if reuse else {}
        shas = dict(self.catalog.db.execute("SELECT path, sha FROM files WHERE record IS NOT NULL"))
        memories: dict[str, Memory | None] = {}
        stale = []
        for path, sha in shas.items():
            if old_shas.get(path) == sha and reuse.get(path) is not None:
                memories[path] = reuse[path]
            else:
                stale.append(path)
        for path, record in self.catalog.records(stale).items():
            memories[path] = memory_from_catalog(record)
        self._memories, self._shas = memories, shas
        self._label_paths = dict(self.catalog.label_paths())
        self._pinned = [p for p, m in memories.items() if m is not None and m.pinned]
        self._superseded = self.catalog.superseded_targets()
        self._neighbours = conversation_neighbours(memories)
        if previous is not None:  # a carried-over memory keeps its timeline
            self._timelines = {p: t for p, t in previous._timelines.items() if memories.get(p) is t[0]}
        self._complete = True

    def timeline(self, path: str, memory: Memory, rules: Rules) -> Timeline:
        """The lifecycle timeline of an indexed memory, worked out once per snapshot."""
        known = self._timelines.get(path)
        if known is not None and known[0] is memory and known[1] is rules:
            return known[2]
        tl = timeline(memory, rules)
        self._timelines[path] = (memory, rules, tl)
        return tl

    # ------------------------------------------------------------------ memoised catalog reads
    def memories(self, paths: list[str]) -> dict[str, Memory]:
        """The indexed memory of each path that has one."""
        missing = [] if self._complete else [p for p in paths if p not in self._memories]
        if missing:
            records = self.catalog.records(missing)
            for path in missing:
                record = records.get(path)
                self._memories[path] = memory_from_catalog(record) if record is not None else None
        out = {}
        for path in paths:
            memory = self._memories.get(path)
            if memory is not None:
                out[path] = memory
        return out

    def neighbours(self, paths: list[str]) -> dict[str, list[str]]:
        """Conversation neighbours (the turns before and after) of each path that has any."""
        missing = [] if self._complete else [p for p in paths if p not in self._neighbours]
        if missing:
            found = self.catalog.neighbours(missing)
            for path in missing:
                self._neighbours[path] = found.get(path, [])
        return {p: self._neighbours[p] for p in paths if self._neighbours.get(p)}

    def pinned_paths(self) -> list[str]:
        if self._pinned is None:
            self._pinned = self.catalog.pinned_paths()
        return self._pinned

    def superseded_targets(self) -> set[str]:
        if self._superseded is None:
            self._superseded = self.catalog.superseded_targets()
        return self._superseded

    def vector_hits(self, vector, limit: int) -> list[tuple[str, float]]:
        """[(path, cosine)] of the memories nearest ``vector``, best first: a memory's score is
        that of its best chunk."""
        if self.vectors is None or not self.live_chunks:
            return []
        # the best `limit` memories are among the best `limit + extra_chunks` chunks
        found = self.vectors.search(vector, limit + min(self.extra_chunks, limit), self.live_chunks)
        missing = [] if self._complete else [label for label, _ in found if label not in self._label_paths]
        if missing:
            marks = ",".join("?" * len(missing))
            known = dict(self.catalog.db.execute(f"SELECT label, path FROM chunks WHERE label IN ({marks})", missing))
            for label in missing:
                self._label_paths[label] = known.get(label)
        best: dict[str, float] = {}
        for label, similarity in found:
            path = self._label_paths.get(label)
            if path is not None and similarity > best.get(path, -2.0):
                best[path] = similarity
        return sorted(best.items(), key=lambda kv: -kv[1])[:limit]

    def close(self) -> None:
        try:
            self.catalog.db.execute("COMMIT")
        except Exception:
            pass
        self.keyword.close()
        self.catalog.close()

    def __enter__(self) -> "Snapshot":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def conversation_neighbours(memories: dict[str, Memory | None]) -> dict[str, list[str]]:
    """For each memory in a conversation, the paths of the turns just before and after it
    (what ``Catalog.neighbours`` answers per path, for all at once)."""
    at: dict[tuple[str, int], list[str]] = {}
    for path, m in memories.items():
        if m is not None and m.conversation and m.turn is not None:
            at.setdefault((m.conversation, m.turn), []).append(path)
    out: dict[str, list[str]] = {}
    for (conversation, turn), paths in at.items():
        around = at.get((conversation, turn - 1), []) + at.get((conversation, turn + 1), [])
        if around:
            for path in paths:
                out[path] = around
    return out
