"""The keyword leg at query time: Whoosh's BM25F, computed with numpy over Whoosh's postings.

Whoosh holds the keyword index (analysis, segments, postings, field lengths). Scoring a
query through its pure-Python matchers costs 25–45 ms at 10,000 memories, more than the
rest of a recall together. Here the postings of each query term are read from each
segment once, as arrays, and scored with Whoosh's own formula and statistics: idf over
every document the segments hold (deleted-but-unmerged ones included, as Whoosh counts
them), average field lengths from the segment totals, per-document lengths as Whoosh
quantises them to a byte, term boosts as multipliers, ties broken by document number.
The results equal Whoosh's ``searcher.search`` up to rounding in the last bit of a score
(``tests/test_keyword_search.py`` checks both on indexes with several segments and
deletions).

A segment never changes once written; only its set of deleted documents does. So what
was read from one is kept in a ``SegmentCache`` that a long-lived process (the daemon)
carries across snapshots: a warm query costs well under a millisecond. Only the
postings of the terms queries ask for are read, when first asked (reading all of them
at a daemon's start took 11 s and 0.8 GB at 100,000 memories).
"""

from __future__ import annotations

import math
import threading
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from whoosh.matching.wrappers import FilterMatcher
from whoosh.reading import TermNotFound
from whoosh.util.numeric import byte_to_length

from ..errors import IndexDamaged
from .keyword_index import KeywordIndex, query_terms

#: byte stored by Whoosh → the field length it stands for
_BYTE_TO_LENGTH = np.array([byte_to_length(i) for i in range(256)], dtype=np.float64)
#: the fields a query scores (see ``keyword_index.query_terms``)
SCORED_FIELDS = tuple(KeywordIndex.FIELD_WEIGHTS)
#: the column naming each memory's conversation, and the field a conversation's text is scored in
SESSION_FIELD, SESSION_TEXT = "session", "body"

Postings = tuple[np.ndarray, np.ndarray]  # (document numbers, term frequencies or scores)


@dataclass
class SegmentData:
    """What has been read from one Whoosh segment: postings per term, lengths per field,
    paths per document. Valid for as long as the segment exists, whatever is deleted.

    What a query asks is read on demand, once, through the segment's own reader, opened
    once for the segment's life (its files never change): the snapshots after a write
    open only the new segment."""

    doc_count: int
    postings: dict[tuple[str, bytes], Postings | None] = field(default_factory=dict)
    lengths: dict[str, np.ndarray] = field(default_factory=dict)
    paths: dict[int, str] = field(default_factory=dict)
    #: each document's conversation as a number, and the conversations' names (-1: none);
    #: None when not yet read
    sessions: tuple[np.ndarray, list[str]] | None = None
    #: the segment's own reader for what is read on demand (``open``)
    source: Any = None
    #: one read at a time through ``source`` (Whoosh's readers seek in shared buffers)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def open(self, reader) -> Any:
        """The reader on-demand reads go through: for a snapshot's ``SegmentSource``, a twin
        of it opened the first time and kept (a damaged segment says so here); any other
        reader is used as it is."""
        if not isinstance(reader, SegmentSource):
            return reader
        if self.source is None:
            with self.lock:
                if self.source is None:
                    twin = reader.twin()
                    twin.open()
                    self.source = twin
        return self.source

    def close(self) -> None:
        with self.lock:  # not while a read goes through it
            if self.source is not None:
                self.source.close()
                self.source = None

    def term(self, reader, fieldname: str, btext: bytes) -> Postings | None:
        """(document numbers, term frequencies) of a term, or None when the segment lacks it."""
        key = (fieldname, btext)
        if key not in self.postings:
            source = self.open(reader)
            with self.lock:
                if key not in self.postings:
                    self.postings[key] = _read_postings(source, fieldname, btext)
        return self.postings[key]

    def field_lengths(self, reader, fieldname: str) -> np.ndarray:
        if fieldname not in self.lengths:
            source = self.open(reader)
            with self.lock:
                if fieldname not in self.lengths:
                    self.lengths[fieldname] = _read_lengths(source, fieldname, self.doc_count)
        return self.lengths[fieldname]

    def session_codes(self, reader) -> tuple[np.ndarray, list[str]]:
        """(each document's conversation number or -1, the conversations' names), from the
        ``session`` column in one read; no conversation at all in an index built before it."""
        if self.sessions is None:
            source = self.open(reader)
            with self.lock:
                if self.sessions is None:
                    self.sessions = _read_sessions(source, self.doc_count)
        return self.sessions

    def path(self, reader, docnum: int) -> str:
        if docnum not in self.paths:
            source = self.open(reader)
            with self.lock:
                self.paths[docnum] = source.stored_fields(docnum)["path"]
        return self.paths[docnum]


class SegmentSource:
    """One segment of a table of contents, read through a Whoosh ``SegmentReader`` opened
    only when something not yet cached is asked of it: opening one copies the segment's
    term file into memory (130 ms over every segment at 100,000 memories), which a
    daemon whose ``SegmentData`` holds all of a segment never needs."""

    def __init__(self, storage, schema, segment, generation: int):
        self.schema = schema
        self._storage, self._segment, self._generation = storage, segment, generation
        self._reader: Any = None

    def segment(self):
        return self._segment

    def twin(self) -> SegmentSource:
        """Another source of the same segment, closed: a reader of its own."""
        return SegmentSource(self._storage, self.schema, self._segment, self._generation)

    def has_deletions(self) -> bool:
        return bool(self._segment.has_deletions())

    def doc_count_all(self) -> int:
        return int(self._segment.doc_count_all())

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.open(), name)

    def open(self) -> Any:
        """The segment's Whoosh reader, opened on first use; damage is ``IndexDamaged``."""
        if self._reader is None:
            from whoosh.reading import SegmentReader

            try:
                self._reader = SegmentReader(self._storage, self.schema, self._segment, generation=self._generation)
            except Exception as e:  # Whoosh reports a damaged segment with many kinds of error (EOFError…)
                raise IndexDamaged(
                    f"the keyword index cannot be read ({type(e).__name__}: {e}); `vmem sync` rebuilds it"
                ) from None
        return self._reader

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None


class TocReader:
    """What a snapshot asks of Whoosh's multi-segment reader, answered from one read of
    the table of contents (documents, deletions, field totals), with each segment a
    ``SegmentSource``."""

    def __init__(self, ix):
        toc = ix._read_toc()
        self._generation = toc.generation
        self._segments = [SegmentSource(ix.storage, toc.schema, seg, toc.generation) for seg in toc.segments]

    def generation(self) -> int:
        return self._generation

    def leaf_readers(self) -> list[tuple[SegmentSource, int]]:
        out, offset = [], 0
        for source in self._segments:
            out.append((source, offset))
            offset += source.doc_count_all()
        return out

    def doc_count_all(self) -> int:
        return sum(source.doc_count_all() for source in self._segments)

    def doc_count(self) -> int:
        return sum(int(source.segment().doc_count()) for source in self._segments)

    def field_length(self, fieldname: str) -> int:
        """The field's total length over every document (deleted ones included), as each
        whoosh3 segment keeps it in the table of contents; another codec's from its reader."""
        total = 0
        for source in self._segments:
            kept = getattr(source.segment(), "_fieldlengths", None)
            total += kept.get(fieldname, 0) if kept is not None else source.field_length(fieldname)
        return total

    def close(self) -> None:
        for source in self._segments:
            source.close()


class SegmentCache:
    """What one process has read of the keyword index, shared by its snapshots: each
    segment's ``SegmentData``, and the last Whoosh reader while the index stays at its
    generation (a commit writes a new table of contents and new segment files and never
    edits old ones, so one generation is one set of documents). Opening a reader copies
    every segment's term file into memory: 175 ms at 100,000 memories, on every in-process
    recall before this cache. A reader serves one snapshot at a time (Whoosh's readers
    seek in shared buffers): a second snapshot opening while one holds it gets its own."""

    def __init__(self) -> None:
        self._segments: dict[tuple[str, str], SegmentData] = {}
        self._lock = threading.Lock()
        #: (index folder, the reader, its generation) not in use by any snapshot
        self._idle: tuple[str, Any, int] | None = None
        self._lent: set[int] = set()  # id() of the readers snapshots hold that came from here

    def reader(self, ix, folder: str):
        """A reader of ``ix`` at its latest generation: the idle one when it is that, else new."""
        with self._lock:
            idle, self._idle = self._idle, None
        if idle is not None:
            if idle[0] == folder and idle[2] == ix.latest_generation():
                with self._lock:
                    self._lent.add(id(idle[1]))
                return idle[1]
            idle[1].close()
        reader = TocReader(ix)
        with self._lock:
            self._lent.add(id(reader))
        return reader

    def release(self, ix, folder: str, reader) -> None:
        """A snapshot is done with ``reader``: kept for the next one while it is of the
        index's latest generation, else closed (a daemon does not hold two generations)."""
        try:
            current = reader.generation() == ix.latest_generation()
        except OSError:  # the generation's folder was pruned after a rebuild
            current = False
        with self._lock:
            lent = id(reader) in self._lent
            self._lent.discard(id(reader))
            keep = lent and current and self._idle is None
            if keep:
                self._idle = (folder, reader, reader.generation())
        if not keep:
            reader.close()

    @staticmethod
    def key(folder: str, reader) -> tuple[str, str]:
        """A segment's identity: its index folder and Whoosh's segment id."""
        return folder, reader.segment().segment_id()

    def get(self, folder: str, reader) -> SegmentData:
        key = self.key(folder, reader)
        data = self._segments.get(key)
        if data is None:
            data = self._segments[key] = SegmentData(reader.doc_count_all())
        return data

    def keep_only(self, live: set[tuple[str, str]]) -> None:
        """Forget segments a merge or a rebuild has retired (and close their readers)."""
        for key in list(self._segments):
            if key not in live:
                self._segments.pop(key).close()

    def __len__(self) -> int:
        return len(self._segments)


def _read_postings(reader, fieldname: str, btext: bytes) -> Postings | None:
    try:
        matcher = reader.postings(fieldname, btext)
    except TermNotFound:
        return None
    if isinstance(matcher, FilterMatcher):  # deleted documents still count in Whoosh's statistics
        matcher = matcher.child
    matcher.reset()  # the filter has already stepped over the leading deleted documents
    found = block_postings(matcher)
    if found is None:
        found = posting_by_posting(matcher)
    return found if len(found[0]) else None


def block_postings(matcher) -> Postings | None:
    """All postings of a whoosh3 matcher, a block at a time; None for another codec."""
    if not all(hasattr(matcher, a) for a in ("_read_ids", "_read_weights", "_next_block", "_ids", "_weights")):
        return None
    ids, weights = [], []
    while matcher.is_active():
        if matcher._ids is None:
            matcher._read_ids()
        if matcher._weights is None:
            matcher._read_weights()
        ids.append(np.asarray(matcher._ids, dtype=np.int64))
        weights.append(np.asarray(matcher._weights, dtype=np.float64))
        matcher._next_block()
    if not ids:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    return np.concatenate(ids), np.concatenate(weights)


def posting_by_posting(matcher) -> Postings:
    """The public, slower way, for any codec."""
    ids, weights = [], []
    while matcher.is_active():
        ids.append(matcher.id())
        weights.append(matcher.weight())
        matcher.next()
    return np.asarray(ids, dtype=np.int64), np.asarray(weights, dtype=np.float64)


def _read_lengths(reader, fieldname: str, doc_count: int) -> np.ndarray:
    lengths = raw_lengths(reader, fieldname, doc_count)
    return lengths if lengths is not None else lengths_by_document(reader, fieldname, doc_count)


def raw_lengths(reader, fieldname: str, doc_count: int) -> np.ndarray | None:
    """A field's per-document lengths as Whoosh quantised them, from the whoosh3 codec's
    length column in one read; None for another codec."""
    perdoc = getattr(reader, "_perdoc", None)
    if perdoc is None or not hasattr(perdoc, "_cached_reader"):
        return None
    try:
        from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield
    except ImportError:
        return None
    column = perdoc._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
    raw = np.zeros(doc_count, dtype=np.uint8)
    if column is None:  # no document has the field
        return _BYTE_TO_LENGTH[raw]
    if not all(hasattr(column, a) for a in ("_dbfile", "_basepos", "_count")):
        return None
    stored = np.frombuffer(column._dbfile.get(column._basepos, column._count), dtype=np.uint8)
    raw[: len(stored)] = stored[:doc_count]
    return _BYTE_TO_LENGTH[raw]


def _read_sessions(reader, doc_count: int) -> tuple[np.ndarray, list[str]]:
    codes = np.full(doc_count, -1, dtype=np.int64)
    if not reader.has_column(SESSION_FIELD):
        return codes, []
    number: dict[str, int] = {}
    for docnum, value in enumerate(reader.column_reader(SESSION_FIELD)):
        if value and docnum < doc_count:
            name = value.decode("utf-8") if isinstance(value, bytes) else str(value)
            codes[docnum] = number.setdefault(name, len(number))
    return codes, list(number)


def lengths_by_document(reader, fieldname: str, doc_count: int) -> np.ndarray:
    return np.array([reader.doc_field_length(d, fieldname, 0) or 0 for d in range(doc_count)], dtype=np.float64)


class KeywordSearcher:
    """A consistent read snapshot of the keyword index (open it under the snapshot lock)."""

    def __init__(
        self, keyword_index: KeywordIndex, cache: SegmentCache | None = None, k1: float = 1.2, b: float = 0.75
    ):
        self.k1, self.b = k1, b
        self.cache = cache if cache is not None else SegmentCache()
        self.folder = folder = str(keyword_index.folder)
        try:
            self.ix = keyword_index.open()
            self.reader = self.cache.reader(self.ix, folder)
        except Exception as e:  # Whoosh reports a damaged segment with many kinds of error (EOFError…)
            raise IndexDamaged(
                f"the keyword index cannot be read ({type(e).__name__}: {e}); `vmem sync` rebuilds it"
            ) from None
        self.schema = self.ix.schema
        self.doc_count_all = self.reader.doc_count_all()
        #: (segment reader, what was read from it, first global document number)
        self.segments = (
            [(r, self.cache.get(folder, r), offset) for r, offset in self.reader.leaf_readers() if r.doc_count_all()]
            if self.doc_count_all
            else []
        )
        self.segment_keys = {SegmentCache.key(folder, r) for r, _, _ in self.segments}
        for r, data, _ in self.segments:  # what may still be read: opened now, so damage shows here
            data.open(r)
        self._deleted: np.ndarray | None = None
        self._avg_length: dict[str, float] = {}
        self._scored: dict[tuple[str, str], Postings | None] = {}
        self._sessions: tuple[np.ndarray, list[str], np.ndarray] | None = None

    def doc_count(self) -> int:
        """Documents that are not deleted."""
        return self.reader.doc_count()

    def search(self, text: str, limit: int) -> list[tuple[str, float]]:
        """[(path, score)], best first; ties in document order, as Whoosh orders them."""
        terms = query_terms(text)
        if not terms or not self.segments or limit <= 0:
            return []
        scores = np.zeros(self.doc_count_all)
        matched = np.zeros(self.doc_count_all, dtype=bool)
        for fieldname, term, boost in terms:
            found = self._term_scores(fieldname, term)
            if found is None:
                continue
            docs, score = found
            scores[docs] += score if boost == 1.0 else score * boost
            matched[docs] = True
        return self._top(scores, matched, limit)

    def _term_scores(self, fieldname: str, term: str) -> Postings | None:
        """(global document numbers, BM25F score) of one term; the statistics cannot change
        within a snapshot, so each term is scored once per snapshot."""
        key = (fieldname, term)
        if key in self._scored:
            return self._scored[key]
        result = None
        if fieldname in self.schema:
            found = self._postings(fieldname, term)
            df = sum(len(docs) for docs, _, _, _, _ in found)
            if df:
                idf = math.log(self.doc_count_all / (df + 1)) + 1  # WeightingModel.idf
                avgfl = self._avg_field_length(fieldname)
                k1, b = self.k1, self.b
                all_docs, all_scores = [], []
                for docs, tf, data, r, offset in found:
                    fl = data.field_lengths(r, fieldname)[docs]
                    all_scores.append(idf * ((tf * (k1 + 1)) / (tf + k1 * ((1 - b) + b * fl / avgfl))))  # scoring.bm25
                    all_docs.append(docs + offset)
                result = (np.concatenate(all_docs), np.concatenate(all_scores))
        self._scored[key] = result
        return result

    def holds(self, fieldname: str, term: str) -> bool:
        """Whether some document (deleted ones too) has ``term`` in ``fieldname``."""
        return fieldname in self.schema and bool(self._postings(fieldname, term))

    def _avg_field_length(self, fieldname: str) -> float:
        if fieldname not in self._avg_length:
            self._avg_length[fieldname] = (self.reader.field_length(fieldname) / (self.doc_count_all or 1)) or 1
        return self._avg_length[fieldname]

    def session_scores(self, text: str) -> dict[str, float]:
        """{conversation: BM25 of the question over the conversation's text}, for the
        conversations some question term is in: each conversation is one document, its
        term frequencies and length the sums over its memories (the memories outside any
        conversation are not counted). Evidence for a memory from the rest of its
        conversation (``ranking.lift_sessions``); {} for an index built before the column."""
        terms = [term for fieldname, term, _ in query_terms(text) if fieldname == SESSION_TEXT]
        if not terms or not self.segments or SESSION_FIELD not in self.schema:
            return {}
        codes, names, lengths = self._session_table()
        if not names:
            return {}
        live = np.flatnonzero(lengths > 0)
        count, average = len(live), float(lengths[live].mean()) if len(live) else 1.0
        k1, b = self.k1, self.b
        norm = k1 * ((1 - b) + b * lengths / (average or 1.0))
        scores = np.zeros(len(names))
        for term in terms:
            held = self._postings(SESSION_TEXT, term)
            if not held:
                continue
            docs = np.concatenate([segment_docs + offset for segment_docs, _, _, _, offset in held])
            tf = np.concatenate([segment_tf for _, segment_tf, _, _, _ in held])
            keep = codes[docs] >= 0
            per_session = np.bincount(codes[docs[keep]], weights=tf[keep], minlength=len(names))
            present = np.flatnonzero(per_session)
            df = len(present)
            idf = math.log(1 + (count - df + 0.5) / (df + 0.5))
            scores[present] += idf * per_session[present] * (k1 + 1) / (per_session[present] + norm[present])
        return {names[i]: float(scores[i]) for i in np.flatnonzero(scores > 0)}

    def _session_table(self) -> tuple[np.ndarray, list[str], np.ndarray]:
        """(each live document's conversation number or -1, the conversations' names, each
        conversation's length in ``SESSION_TEXT`` words), once a snapshot."""
        if self._sessions is None:
            codes = np.full(self.doc_count_all, -1, dtype=np.int64)
            lengths = np.zeros(self.doc_count_all)
            number: dict[str, int] = {}
            for r, data, offset in self.segments:
                local, local_names = data.session_codes(r)
                if local_names:
                    to_global = np.array([number.setdefault(name, len(number)) for name in local_names], dtype=np.int64)
                    present = local >= 0
                    codes[offset : offset + len(local)][present] = to_global[local[present]]
                lengths[offset : offset + data.doc_count] = data.field_lengths(r, SESSION_TEXT)
            codes[self._deleted_mask()] = -1
            inside = codes >= 0
            per_session = np.bincount(codes[inside], weights=lengths[inside], minlength=len(number))
            self._sessions = (codes, list(number), per_session)
        return self._sessions

    def _postings(self, fieldname: str, term: str) -> list[tuple[np.ndarray, np.ndarray, SegmentData, Any, int]]:
        """(document numbers, term frequencies, the segment's data, its reader, its first
        global document number) of one term, for each segment that holds it."""
        btext = self.schema[fieldname].to_bytes(term)
        out = []
        for r, data, offset in self.segments:
            found = data.term(r, fieldname, btext)
            if found is not None:
                out.append((found[0], found[1], data, r, offset))
        return out

    def _deleted_mask(self) -> np.ndarray:
        if self._deleted is None:
            self._deleted = np.zeros(self.doc_count_all, dtype=bool)
            for r, _, offset in self.segments:
                if r.has_deletions():
                    gone = np.fromiter(r.segment().deleted_docs(), dtype=np.int64)
                    self._deleted[gone + offset] = True
        return self._deleted

    def _top(self, scores: np.ndarray, matched: np.ndarray, limit: int) -> list[tuple[str, float]]:
        candidates = np.flatnonzero(matched & ~self._deleted_mask())
        if len(candidates) > limit:  # keep everything tied with the limit-th score, then order exactly
            kth = np.partition(scores[candidates], len(candidates) - limit)[len(candidates) - limit]
            candidates = candidates[scores[candidates] >= kth]
        order = candidates[np.lexsort((candidates, -scores[candidates]))][:limit]
        starts = [offset for _, _, offset in self.segments]
        out = []
        for docnum in order.tolist():
            i = bisect_right(starts, docnum) - 1
            r, data, offset = self.segments[i]
            out.append((data.path(r, docnum - offset), float(scores[docnum])))
        return out

    def close(self) -> None:
        self.cache.release(self.ix, self.folder, self.reader)
