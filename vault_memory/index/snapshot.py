"""A consistent read view of one generation's catalog, keyword and vector indexes."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Literal

import numpy as np

from ..errors import IndexDamaged, IndexUnavailable
from ..vault.memory import DIGEST_REF, Memory
from .catalog import COMMIT_SEQ, Catalog
from .generations import IndexLayout
from .keyword_search import KeywordSearcher, SegmentCache
from .locks import file_lock
from .token_store import TokenFiles, TokenReader
from .vector_index import Vectors

#: what ``Snapshot.preload`` read: (hashes, memories, label paths, neighbours)
Loaded = tuple[dict[str, str], dict[str, Memory | None], dict[int, str | None], dict[str, list[str]]]


class Snapshot:
    """A consistent read view of catalog, keyword and vector indexes of one generation.

    Nothing it reads can change while it is open, so what recall asks of the catalog
    (memories, neighbours, pinned and superseded paths, vector labels) is kept once read:
    the daemon holds one snapshot between syncs, and its recalls stop paying for SQL and
    JSON on every query."""

    def __init__(
        self,
        layout: IndexLayout,
        lock_timeout: float = 30.0,
        segments: SegmentCache | None = None,
        vectors: VectorCache | None = None,
    ):
        with file_lock(layout.snapshot_lock, shared=True, timeout=lock_timeout):
            generation = layout.current()
            if generation is None:
                raise IndexUnavailable(f"{layout.dir} holds no index yet: run `vmem sync`")
            self.generation = generation
            self.catalog = Catalog(generation.catalog_path)
            self.catalog.begin_read()
            self.meta = self.catalog.meta()
            self.live_chunks, chunked = self.catalog.chunk_counts()
            #: chunks beyond the first of each memory: how many more labels than memories a search needs
            self.extra_chunks = self.live_chunks - chunked
            self.keyword = KeywordSearcher(generation.keyword, segments)
            dim = int(self.meta.get("dim") or 0)
            loader = vectors.load if vectors is not None else Vectors.read
            self.vectors = (
                loader(generation.vectors_path, generation.vectors_delta_path, dim)
                if dim and generation.vectors_path.exists()
                else None
            )
        self._memories: dict[str, Memory | None] = {}
        self._shas: dict[str, str] = {}
        self._neighbours: dict[str, list[str]] = {}
        self._label_paths: dict[int, str | None] = {}
        self._pinned: list[str] | None = None
        self._superseded: set[str] | None = None
        self._personas: set[str] | None = None
        self._complete = False  # everything is in memory: a miss means "not there"
        self._tokens: TokenReader | Literal[False] | None = None  # opened on first use
        #: why a read of this generation failed (its token rows), for a long-lived reader
        #: to have it rebuilt; None while all reads succeed
        self.damage: str | None = None

    def preload(self, previous: Snapshot | None = None, commit: tuple[int, frozenset[str]] | None = None) -> None:
        """Read everything recall may need, now, so that no query waits on SQL, JSON or
        Whoosh (for a long-lived reader: the daemon). Memories already parsed by
        ``previous`` are reused for files whose path and content hash are unchanged, so
        after an edit only the edited files are parsed again. When this snapshot's catalog
        is ``previous``'s plus the one ``commit`` (its number and the paths it touched, a
        sync's ``SyncReport.commit``), only those paths are read: at 100,000 memories
        every hash and label again cost a third of a second after each write."""
        self.keyword.preload()
        if not (commit is not None and self._carry_over(previous, *commit)):
            self._read_whole(previous)
        self._pinned = [p for p, m in self._memories.items() if m is not None and m.pinned]
        self._superseded = self.catalog.superseded_targets()
        self._complete = True

    def _read_whole(self, previous: Snapshot | None) -> None:
        read = previous.loaded() if previous is not None else None
        old_shas, reuse = (read[0], read[1]) if read is not None else ({}, {})
        shas = self.catalog.shas()
        memories: dict[str, Memory | None] = {}
        stale = []
        for path, sha in shas.items():
            if old_shas.get(path) == sha and reuse.get(path) is not None:
                memories[path] = reuse[path]
            else:
                stale.append(path)
        for path, record in self.catalog.records(stale).items():
            memories[path] = Memory.from_record(record)
        self._memories, self._shas = memories, shas
        self._label_paths = dict(self.catalog.label_paths())
        self._neighbours = conversation_neighbours(memories)

    def _carry_over(self, previous: Snapshot | None, seq: int, touched: frozenset[str]) -> bool:
        """Take ``previous``'s reads and read again only ``touched``, when this catalog is
        exactly the commit after its own; False (nothing taken) otherwise."""
        read = self._follows(previous, seq)
        if read is None:
            return False
        names = sorted(touched)
        shas, memories, label_paths, neighbours = dict(read[0]), dict(read[1]), read[2], read[3]
        before = [memories.pop(path, None) for path in names]
        for path in names:
            shas.pop(path, None)
        fresh = self.catalog.shas(names)
        records = self.catalog.records(list(fresh))
        shas |= fresh
        memories |= {path: Memory.from_record(records[path]) if path in records else None for path in fresh}
        labels = {label: path for label, path in label_paths.items() if path not in touched}
        labels |= self.catalog.labels_of(names)
        self._memories, self._shas, self._label_paths = memories, shas, labels
        turns = [m for m in [*before, *(memories.get(path) for path in names)] if m is not None and m.conversation]
        self._neighbours = conversation_neighbours(memories) if turns else neighbours
        return True

    def _follows(self, previous: Snapshot | None, seq: int) -> Loaded | None:
        """``previous``'s reads when this catalog is its generation's commit ``seq`` and
        ``previous`` read the commit just before; else None."""
        if previous is None or previous.generation.folder != self.generation.folder:
            return None
        if previous.meta.get(COMMIT_SEQ) != str(seq - 1) or self.meta.get(COMMIT_SEQ) != str(seq):
            return None
        return previous.loaded()

    def loaded(self) -> Loaded | None:
        """(hashes, memories, label paths, neighbours) as ``preload`` read them; None before."""
        if not self._complete:
            return None
        return self._shas, self._memories, self._label_paths, self._neighbours

    def loaded_memories(self) -> dict[str, Memory | None]:
        """What ``preload`` read (empty before it): carried-over memories are the same objects
        as in the previous snapshot, so anything derived from one can be kept by identity."""
        return self._memories if self._complete else {}

    # ------------------------------------------------------------------ memoised catalog reads
    def memories(self, paths: list[str]) -> dict[str, Memory]:
        """The indexed memory of each path that has one."""
        missing = [] if self._complete else [p for p in paths if p not in self._memories]
        if missing:
            records = self.catalog.records(missing)
            for path in missing:
                record = records.get(path)
                self._memories[path] = Memory.from_record(record) if record is not None else None
        out = {}
        for path in paths:
            memory = self._memories.get(path)
            if memory is not None:
                out[path] = memory
        return out

    def memories_like(self, same_text: str | None, keys: frozenset[str] = frozenset()) -> dict[str, Memory]:
        """The indexed memories that say the same (``same_text_digest``) or carry one of
        ``keys`` (normalised): a new memory's possible twins and the values it may replace,
        found by the catalog's indexes instead of reading the whole vault."""
        return self._remember(self.catalog.records_like(same_text, sorted(keys)))

    def paths_claiming(self, memory_id: str) -> list[str]:
        return self.catalog.paths_with_id(memory_id)

    def memories_tagged(self, tags: list[str]) -> dict[str, Memory]:
        """The indexed facts under any of the slot ``tags`` (``vault.slots``): what a new
        fact may replace or contradict."""
        return self._remember(self.catalog.records_tagged(tags)) if tags else {}

    def successors(self, memories: list[Memory]) -> dict[str, list[Memory]]:
        """{id: the indexed memories that list it (or its file stem) in ``supersedes``}."""
        refs = {m.id: m for m in memories} | {m.path.stem: m for m in memories if m.path is not None}
        refs |= {m.content_ref: m for m in memories if m.content_ref}
        out: dict[str, list[Memory]] = {}
        for newer in self._remember(self.catalog.records_superseding(sorted(refs))).values():
            for ref in newer.supersession_refs:
                old = refs.get(ref)
                if old is not None and old.id != newer.id and newer not in out.get(old.id, []):
                    out.setdefault(old.id, []).append(newer)
        return out

    def facts_sharing_subjects(self) -> dict[str, Memory]:
        """Every indexed fact whose subject another fact shares: where conflicts can be."""
        paths = sorted({p for ps in self.catalog.tagged_paths("s:").values() for p in ps})
        return self.memories(paths) if paths else {}

    def memories_with_ids(self, ids: list[str]) -> dict[str, Memory]:
        return self._remember(self.catalog.records_with_ids(ids)) if ids else {}

    def token_files(self) -> TokenFiles | None:
        """This generation's token files, if it keeps any."""
        return TokenFiles.of(self.generation.folder, self.meta)

    def _token_reader(self) -> TokenReader | None:
        if self._tokens is None:
            rows, tail = int(self.meta.get("token_rows") or 0), self.meta.get("token_tail")
            try:
                files = self.token_files()
                self._tokens = files.reader(rows, tail) if files is not None and rows else False
            except IndexDamaged as e:
                self.damage = str(e)
                raise
        return self._tokens or None

    def token_vectors(self, paths: list[str]) -> dict[str, np.ndarray]:
        """Each memory's stored token vectors (all its chunks' pieces); empty when this
        generation keeps none."""
        reader = self._token_reader()
        if reader is None or not paths:
            return {}
        return {
            path: np.concatenate([reader.vectors(first, count) for first, count in spans])
            for path, spans in self.catalog.token_spans(paths).items()
        }

    def maxsims(self, query: np.ndarray, paths: list[str]) -> dict[str, float]:
        """Late interaction: each memory's MaxSim against the question's token vectors
        ``query`` (``token_store.maxsim``); memories without stored vectors are left out."""
        reader = self._token_reader()
        if reader is None or not paths:
            return {}
        try:
            return reader.maxsims(query, self.catalog.token_spans(paths))
        except IndexDamaged as e:  # cut short while in use
            self.damage = str(e)
            raise

    def memories_with_id_prefix(self, prefix: str, limit: int) -> dict[str, Memory]:
        return self._remember(self.catalog.records_with_id_prefix(prefix, limit))

    def memories_with_id_part(self, part: str, limit: int) -> dict[str, Memory]:
        return self._remember(self.catalog.records_with_id_part(part, limit))

    def supersession_linked(self, start: Memory) -> list[Memory]:
        """``start`` and every memory a supersession chain through it can reach: what each
        replaces and what replaces it, followed both ways, asked of the catalog a step at a
        time (``supersession_chain`` over these is the chain over the whole vault)."""
        found: dict[str, Memory] = {start.id: start}
        frontier = [start]
        while frontier:
            linked = self._replaced_by(frontier) | self._replacing(frontier)
            frontier = [m for m in linked.values() if m.id not in found]
            found.update((m.id, m) for m in frontier)
        return list(found.values())

    def _replaced_by(self, memories: list[Memory]) -> dict[str, Memory]:
        """What ``memories`` replace: by id, by file stem, or (a file with no id, renamed)
        by what it says."""
        refs = {ref for m in memories for ref in m.supersedes}
        digests = {ref for m in memories for ref in m.supersession_refs if ref.startswith(DIGEST_REF)}
        linked = self.memories_with_ids(sorted(refs))
        unnamed = refs - {m.id for m in linked.values()}
        if unnamed:
            linked |= self.memories(self.catalog.paths_with_stems(unnamed))
        for digest in sorted(digests):
            linked |= self.memories_like(digest.removeprefix(DIGEST_REF))
        return linked

    def _replacing(self, memories: list[Memory]) -> dict[str, Memory]:
        """What replaces ``memories``, named by id, file stem or content digest."""
        names = {m.id for m in memories} | {m.path.stem for m in memories if m.path is not None}
        names |= {m.content_ref for m in memories if m.content_ref}
        return self._remember(self.catalog.records_superseding(sorted(names)))

    def _remember(self, records: dict[str, dict]) -> dict[str, Memory]:
        """Memories for catalog records, the ones this snapshot already parsed reused."""
        out = {}
        for path, record in records.items():
            memory = self._memories.get(path)
            if memory is None:
                memory = self._memories[path] = Memory.from_record(record)
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

    def personas(self) -> set[str]:
        """The personas the vault's memories belong to (read once per snapshot)."""
        if self._personas is None:
            self._personas = self.catalog.personas()
        return self._personas

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
            known = self.catalog.label_paths(missing)
            for label in missing:
                self._label_paths[label] = known.get(label)
        best: dict[str, float] = {}
        for label, similarity in found:
            path = self._label_paths.get(label)
            if path is not None and similarity > best.get(path, -2.0):
                best[path] = similarity
        return sorted(best.items(), key=lambda kv: -kv[1])[:limit]

    def close(self) -> None:
        self.catalog.end_read()
        self.keyword.close()
        self.catalog.close()

    def __enter__(self) -> Snapshot:
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


class VectorCache:
    """The last vectors a process loaded for reading, kept while their files are the same
    (path, inode, size, mtime: a sync replaces a file with a new one, never edits it in
    place), so the snapshots of one process stop reading 150 MB from disk on every recall.
    Readers only query them; writers load their own copy."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._keys: tuple[tuple, tuple] | None = None
        self._vectors: Vectors | None = None

    def load(self, path: Path, delta_path: Path, dim: int) -> Vectors:
        with self._lock:
            keys = _file_key(path, dim), _file_key(delta_path, dim)
            if self._vectors is None or self._keys != keys:
                same_base = self._vectors is not None and self._keys is not None and self._keys[0] == keys[0]
                base = self._vectors.base if same_base and self._vectors is not None else None
                self._vectors, self._keys = Vectors.read(path, delta_path, dim, base), keys
            return self._vectors


def _file_key(path: Path, dim: int) -> tuple:
    try:
        st = path.stat()
    except FileNotFoundError:
        return (str(path), dim)
    return (str(path), dim, st.st_ino, st.st_size, st.st_mtime_ns)
