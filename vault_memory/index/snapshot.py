"""A consistent read view of one generation's catalog, keyword and vector indexes."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Literal

import numpy as np

from ..errors import IndexDamaged, IndexUnavailable
from ..vault.memory import DIGEST_REF, Memory
from ..vault.slots import SUBJECT_TAG
from .catalog import CHANGE_TAG, LANGUAGE_TAG, Catalog, Meta
from .embedder import Part
from .generations import IndexLayout, side_path_of
from .keyword_index import ANALYSIS
from .keyword_search import KeywordSearcher, SegmentCache
from .locks import file_lock
from .token_store import TokenFiles, TokenReader
from .vector_index import Vectors, split_of


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
            dim = int(self.meta.get(Meta.DIM) or 0)
            split = split_of(self.meta.get(Meta.VECTOR_SPLIT))
            self.vectors = (
                (vectors or VectorCache()).load(generation.vectors_path, generation.vectors_delta_path, dim, split)
                if dim and generation.vectors_path.exists()
                else None
            )
        self._memories: dict[str, Memory | None] = {}
        self._neighbours: dict[str, list[str]] = {}
        self._label_paths: dict[int, str | None] = {}
        self._pinned: list[str] | None = None
        self._superseded: set[str] | None = None
        self._personas: set[str] | None = None
        self._foreign_labels: frozenset[int] | None | Literal[False] = False  # False: not asked yet
        self._holds_changes: bool | None = None
        self._conversations: bool | None = None
        self._holds_links: bool | None = None
        self._tokens: TokenReader | Literal[False] | None = None  # opened on first use
        #: what a recall stage worked out from this snapshot alone, by the stage's name, for
        #: the next recall on it (the daemon's recalls share one snapshot between syncs);
        #: work that can tell what a commit changed of it is kept for the next (``Carried``)
        self.worked_out: dict[str, dict] = {}
        #: why a read of this generation failed (its token rows), for a long-lived reader
        #: to have it rebuilt; None while all reads succeed
        self.damage: str | None = None

    def carry_over(self, previous: Snapshot | None, commit: tuple[int, frozenset[str]] | None) -> None:
        """For a long-lived reader (the daemon): keep what ``previous`` read on demand
        (memories, vector labels, conversation neighbours) wherever ``commit`` (its number
        and the paths it touched, a sync's ``SyncReport.commit``) did not touch it, when
        this catalog is exactly the commit after ``previous``'s; else start empty. Nothing
        is read whole: at 100,000 memories reading the catalog and the keyword postings
        whole took 14 s and 1.1 GB, and queries on them were no faster than on reads made
        on demand (docs/benchmarks.md)."""
        if commit is None or not self._follows(previous, commit[0]):
            return
        assert previous is not None
        touched = commit[1]
        memories, label_paths, neighbours = previous.reads()
        self._memories = {path: m for path, m in memories.items() if path not in touched}
        self._label_paths = {
            label: path for label, path in label_paths.items() if path is not None and path not in touched
        }
        names = sorted(touched)
        turns = [*previous.catalog.records(names).values(), *self.catalog.records(names).values()]
        if not any(Memory.from_record(record).conversation for record in turns):  # no turn moved: neighbours hold
            self._neighbours = {path: near for path, near in neighbours.items() if path not in touched}
        for name, work in previous.worked_out.items():
            kept = work.after(touched, self) if isinstance(work, Carried) else None
            if kept is not None:
                self.worked_out[name] = kept

    def _follows(self, previous: Snapshot | None, seq: int) -> bool:
        """Whether this catalog is ``previous``'s generation's commit ``seq`` and
        ``previous`` read the commit just before."""
        if previous is None or previous.generation.folder != self.generation.folder:
            return False
        return previous.meta.get(Meta.COMMIT_SEQ) == str(seq - 1) and self.meta.get(Meta.COMMIT_SEQ) == str(seq)

    def reads(self) -> tuple[dict[str, Memory | None], dict[int, str | None], dict[str, list[str]]]:
        """What this snapshot has read so far: memories, vector labels' paths, neighbours.
        Memories carried over are the same objects as in the previous snapshot, so anything
        derived from one can be kept by identity."""
        return self._memories, self._label_paths, self._neighbours

    # ------------------------------------------------------------------ memoised catalog reads
    def memories(self, paths: list[str]) -> dict[str, Memory]:
        """The indexed memory of each path that has one."""
        missing = [p for p in paths if p not in self._memories]
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

    def holds_foreign(self) -> bool:
        """Whether any indexed memory is written in a language other than English
        (``catalog.LANGUAGE_TAG``; not known: yes): an English question on a vault without
        one needs no multilingual model."""
        return self.foreign_labels() != frozenset()

    def holds_conversations(self) -> bool:
        """Whether any indexed memory is a conversation's (asked once a snapshot)."""
        if self._conversations is None:
            self._conversations = self.catalog.holds_conversations()
        return self._conversations

    def session_scores(self, text: str) -> dict[str, float]:
        """{conversation: the question's BM25 over its whole text} (``KeywordSearcher``); a
        vault with no memory from a conversation reads no column."""
        return self.keyword.session_scores(text) if self.holds_conversations() else {}

    def may_hold_words(self, terms: frozenset[str]) -> bool:
        """Whether some indexed memory may hold each of ``terms`` (``keyword_index.body_terms``).
        False only when one is in no memory's ``body`` postings and those postings are
        every word of every memory by today's analysis: the generation recorded the
        analysis it was built with, and no ``<private>`` span was cut out of them."""
        if self.meta.get(Meta.KEYWORD_ANALYSIS) != ANALYSIS or self.meta.get(Meta.PRIVATE_SPANS):
            return True
        return all(self.keyword.holds("body", term) for term in terms)

    def holds_changes(self) -> bool:
        """Whether any indexed fact tells of a change (``catalog.CHANGE_TAG``; once per
        snapshot): where none does, recall looks for no newer fact that replaced another."""
        if self._holds_changes is None:
            self._holds_changes = self.catalog.holds_tag(CHANGE_TAG)
        return self._holds_changes

    def foreign_labels(self) -> frozenset[int] | None:
        """The vector labels of the memories written in a language other than English (once
        per snapshot): where an English question's multilingual half may look (None: not
        known, anywhere)."""
        if self._foreign_labels is False:
            self._foreign_labels = self.catalog.labels_tagged(LANGUAGE_TAG)
        return self._foreign_labels

    def memories_tagged(self, tags: list[str]) -> dict[str, Memory]:
        """The indexed facts under any of the slot ``tags`` (``vault.slots``): what a new
        fact may replace or contradict."""
        return self._remember(self.catalog.records_tagged(tags)) if tags else {}

    def newest_tagged(self, tags: list[str], limit: int) -> set[str]:
        """The paths of the newest ``limit`` indexed facts under each of ``tags``."""
        return self.catalog.newest_under(tags, limit)

    def paths_tagged(self, tags: list[str]) -> set[str]:
        """The paths of the indexed facts under any of ``tags``, their records not read."""
        return self.catalog.paths_under(tags) if tags else set()

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
        paths = sorted({p for ps in self.catalog.tagged_paths(SUBJECT_TAG).values() for p in ps})
        return self.memories(paths) if paths else {}

    def facts_by_importance(self, limit: int) -> dict[str, Memory]:
        """Up to ``limit`` facts, the most important first (``Catalog.facts_by_importance``)."""
        return self._remember(self.catalog.facts_by_importance(limit))

    def memories_with_ids(self, ids: list[str]) -> dict[str, Memory]:
        return self._remember(self.catalog.records_with_ids(ids)) if ids else {}

    def token_files(self) -> TokenFiles | None:
        """This generation's token files, if it keeps any."""
        return TokenFiles.of(self.generation.folder, self.meta)

    def _token_reader(self) -> TokenReader | None:
        if self._tokens is None:
            rows, tail = int(self.meta.get(Meta.TOKEN_ROWS) or 0), self.meta.get(Meta.TOKEN_TAIL)
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

    def replacing(self, targets: list[str]) -> dict[str, list[str]]:
        """The files replacing each of ``targets`` (``Catalog.replacing``)."""
        return self.catalog.replacing(targets) if targets else {}

    def linked(self, paths: list[str]) -> dict[str, list[str]]:
        """The files each of ``paths`` links to and those linking to it (Obsidian's links);
        nothing is asked of a vault whose files link nowhere (asked once a snapshot)."""
        if self._holds_links is None:
            self._holds_links = self.catalog.holds_links()
        return self.catalog.linked(paths) if self._holds_links and paths else {}

    def neighbours(self, paths: list[str]) -> dict[str, list[str]]:
        """Conversation neighbours (the turns before and after) of each path that has any."""
        missing = [p for p in paths if p not in self._neighbours]
        if missing:
            found = self.catalog.neighbours(missing)
            for path in missing:
                self._neighbours[path] = found.get(path, [])
        return {p: self._neighbours[p] for p in paths if self._neighbours.get(p)}

    def paths_created(self, first: dt.datetime, last: dt.datetime, limit: int) -> list[str]:
        """At most ``limit`` memories created from ``first`` to ``last``, newest first."""
        return self.catalog.paths_created(first, last, limit)

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

    def vector_hits(
        self, vector, limit: int, part: Part | None = None, only: AbstractSet[int] | None = None
    ) -> list[tuple[str, float]]:
        """[(path, cosine)] of the memories nearest ``vector``, best first: a memory's score is
        that of its best chunk. ``part``: as that one of the vector's models (``embedder.Part``)
        alone judges them: the vector with the other parts zeroed scores ``part.weight`` ×
        that model's cosine. ``only``: among these vector labels alone."""
        if self.vectors is None or not self.live_chunks:
            return []
        if part is not None and (part.start, part.stop) != (0, None):
            alone = np.zeros_like(vector)
            alone[part.start : part.stop] = vector[part.start : part.stop]
            return [(path, score / part.weight) for path, score in self.vector_hits(alone, limit, only=only)]
        # the best `limit` memories are among the best `limit + extra_chunks` chunks
        found = self.vectors.search(vector, limit + min(self.extra_chunks, limit), self.live_chunks, only)
        missing = [label for label, _ in found if label not in self._label_paths]
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

    def vectors_of(self, paths: list[str]) -> dict[str, np.ndarray]:
        """{path: its stored vector} (its first chunk's: a fact is one), for the paths the
        vectors hold."""
        if self.vectors is None or not paths:
            return {}
        first = self._first_labels(paths)
        stored = self.vectors.stored(list(first.values()))
        return {path: stored[label] for path, label in first.items() if label in stored}

    def _first_labels(self, paths: list[str]) -> dict[str, int]:
        """{path: the label of its first chunk} (a fact is one chunk)."""
        first: dict[str, int] = {}
        for label, path in sorted(self.catalog.path_labels(paths).items()):
            first.setdefault(path, label)
        return first

    def part_vectors_of(self, paths: list[str], part: Part) -> dict[str, np.ndarray]:
        """``vectors_of``, of ``part``'s columns alone, as stored (not of unit length): read
        at once from the side rows where they are those columns (``Vectors.side_of``)."""
        if self.vectors is None or not paths:
            return {}
        split = self.vectors.split
        if split is None or split[0] != part.start or part.stop not in (None, self.vectors.dim):
            return {path: vector[part.start : part.stop] for path, vector in self.vectors_of(paths).items()}
        first = self._first_labels(paths)
        side = self.vectors.side_of(list(first.values()))
        return {path: side[label] for path, label in first.items() if label in side}

    def similarities(self, vector, paths: list[str], part: Part | None = None) -> dict[str, float]:
        """{path: cosine} of each of ``paths`` to ``vector`` (its best chunk), as ``part``
        judges (``vector_hits``): memories no search brought, compared one by one."""
        if self.vectors is None or not paths:
            return {}
        labels = frozenset(self.catalog.path_labels(paths))
        return dict(self.vector_hits(vector, len(paths), part, only=labels)) if labels else {}

    def close(self) -> None:
        self.catalog.end_read()
        self.keyword.close()
        self.catalog.close()

    def __enter__(self) -> Snapshot:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Carried(dict):
    """Work a recall stage did on one snapshot that it can carry to the next commit's
    (``Snapshot.carry_over``): ``after`` gives what of it holds once ``touched`` changed, or
    None when none of it does."""

    def after(self, touched: frozenset[str], snap: Snapshot) -> Carried | None:
        return None


class VectorCache:
    """The last vectors a process loaded for reading, kept while their files are the same
    (path, inode, size, mtime: a sync replaces a file with a new one, never edits it in
    place), so the snapshots of one process stop reading 150 MB from disk on every recall.
    Readers only query them; writers load their own copy."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._keys: tuple[tuple, tuple, tuple] | None = None
        self._vectors: Vectors | None = None

    def load(self, path: Path, delta_path: Path, dim: int, split: tuple[int, float] | None = None) -> Vectors:
        """``split``: as the generation's catalog records it (``Meta.VECTOR_SPLIT``)."""
        with self._lock:
            keys = _file_key(path, dim), _file_key(delta_path, dim), _file_key(side_path_of(path), split)
            if self._vectors is None or self._keys != keys:
                held, known = self._vectors, self._keys
                base = held.base if held is not None and known is not None and known[0] == keys[0] else None
                side = held.side if held is not None and known is not None and known[2] == keys[2] else None
                self._vectors, self._keys = Vectors.read(path, delta_path, dim, base, split, side), keys
            return self._vectors


def _file_key(path: Path, dim: object) -> tuple:
    try:
        st = path.stat()
    except FileNotFoundError:
        return (str(path), dim)
    return (str(path), dim, st.st_ino, st.st_size, st.st_mtime_ns)
