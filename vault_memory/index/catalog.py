"""The catalog: what the indexes hold, in SQLite. One row per vault file (path, size,
mtime, content hash, the parsed memory) and one per vector label.

The catalog is how sync knows what changed without reading unchanged files, how recall
filters (superseded, expired, persona, pinned) without opening every file, and where the
index's model id and format version are recorded. It is the only module that speaks SQL:
everything else asks it questions by name.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import IndexDamaged, IndexLocked, StorageError, VaultError
from ..lang import ENGLISH, detect, says_change
from ..vault.dating import dated
from ..vault.links import LINK_TAG, NOTE_TAG, aliases_of, link_tags
from ..vault.memory import Memory, claim_order, derived_id, normalize_key, same_text_digest
from ..vault.secrets import has_private
from ..vault.slots import PEOPLE_TAG, people_tags, slot_of, stance_of, subject_tag
from ..vault.supersession import with_digest_marker

#: the layout of the index files; an index of another format is rebuilt by the next sync
#: (2: tags analysed as words, like queries)
FORMAT_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    sha TEXT NOT NULL,
    id TEXT,
    error TEXT,
    error_line INTEGER,
    pinned INTEGER NOT NULL DEFAULT 0,
    conversation TEXT,
    turn INTEGER,
    record TEXT
);
CREATE INDEX IF NOT EXISTS files_conversation ON files(conversation, turn);
CREATE INDEX IF NOT EXISTS files_id ON files(id);
CREATE INDEX IF NOT EXISTS files_sha ON files(sha);
CREATE TABLE IF NOT EXISTS supersedes (path TEXT NOT NULL, target TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS supersedes_path ON supersedes(path);
CREATE TABLE IF NOT EXISTS chunks (label INTEGER PRIMARY KEY, path TEXT NOT NULL, chunk INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
"""


class Fills:
    """What a migration's fill may do to the catalog, inside the migration's transaction:
    read rows, run a statement, write many rows."""

    def __init__(self, sql: Callable[..., sqlite3.Cursor], sql_many: Callable[..., None]):
        self._sql, self._sql_many = sql, sql_many

    def rows(self, sql: str, params: Any = ()) -> list[Any]:
        return self._sql(sql, params).fetchall()

    def run(self, sql: str, params: Any = ()) -> None:
        self._sql(sql, params)

    def write(self, sql: str, rows: Iterable[Any]) -> None:
        self._sql_many(sql, rows)


def fill_match_columns(db: Fills) -> None:
    """``same_text`` and ``key_norm`` of every indexed memory, from its record (once)."""
    filled = []
    for path, record in db.rows("SELECT path, record FROM files WHERE record IS NOT NULL"):
        data = json.loads(record)
        filled.append((*_match_columns(data.get("key"), data.get("text")), path))
    db.write("UPDATE files SET same_text = ?, key_norm = ? WHERE path = ?", filled)


def fill_slots(db: Fills, prefix: str = "") -> None:
    """The tags of every indexed fact that start with ``prefix``, from its record (once)."""
    rows = db.rows("SELECT path, record FROM files WHERE record IS NOT NULL")
    tags = [(path, tag) for path, record in rows for tag in record_tags(json.loads(record)) if tag.startswith(prefix)]
    db.write("INSERT INTO slots(path, tag) VALUES (?, ?)", tags)


def fill_people(db: Fills) -> None:
    """The people tags of every indexed fact, from its record (once; a catalog whose slots
    were filled by today's ``record_tags`` has them already)."""
    db.run("DELETE FROM slots WHERE tag >= ? AND tag < ?", (PEOPLE_TAG, PEOPLE_TAG + "\uffff"))
    fill_slots(db, PEOPLE_TAG)


def fill_tags_again(db: Fills) -> None:
    """Every indexed fact's tags, from its record, by today's rules (once)."""
    db.run("DELETE FROM slots")
    fill_slots(db)


def fill_created(db: Fills) -> None:
    """``created`` of every indexed memory, from its record (once)."""
    rows = db.rows("SELECT path, record FROM files WHERE record IS NOT NULL")
    db.write(
        "UPDATE files SET created = ? WHERE path = ?",
        [(created_column(json.loads(r).get("created")), p) for p, r in rows],
    )


def fill_dated(db: Fills) -> None:
    """Each indexed memory without ``created``, dated (once; ``vault.dating``)."""
    filled = []
    for path, mtime_ns, record in db.rows(
        "SELECT path, mtime_ns, record FROM files WHERE record IS NOT NULL AND created IS NULL"
    ):
        memory = dated(Memory.from_record(json.loads(record)), mtime_ns)
        if memory.dated is not None:
            record = json.dumps(memory.to_dict() | {"id_derived": memory.id_derived}, ensure_ascii=False)
            filled.append((record, created_column(memory.dated), path))
    db.write("UPDATE files SET record = ?, created = ? WHERE path = ?", filled)


@dataclass(frozen=True)
class Migration:
    """One schema change after the first: its SQL, and what fills the new columns or
    tables from the records already there (``fill``, a function of the migration's
    ``Fills``)."""

    name: str
    sql: str
    fill: Callable[[Fills], None] | None = None


#: schema changes after the first, applied in order, once each, each in one transaction
#: with its fill (``PRAGMA user_version`` counts those applied), so a new column never
#: forces a full re-embed. Append only: a catalog's version is its place in this list.
MIGRATIONS: tuple[Migration, ...] = (
    # freshness by size, mtime, ctime and inode, as git checks its index
    Migration(
        "stamps",
        "ALTER TABLE files ADD COLUMN ctime_ns INTEGER NOT NULL DEFAULT 0;"
        "ALTER TABLE files ADD COLUMN inode INTEGER NOT NULL DEFAULT 0;",
    ),
    # what every snapshot asks, without counting every row (76 ms a recall at 100,000
    # memories): the chunk totals kept by triggers, the pinned files by a partial index
    Migration(
        "chunk_totals",
        "CREATE TABLE chunk_totals (labels INTEGER NOT NULL, files INTEGER NOT NULL);"
        "INSERT INTO chunk_totals SELECT COUNT(*), COALESCE(SUM(chunk = 0), 0) FROM chunks;"
        "CREATE TRIGGER chunk_added AFTER INSERT ON chunks BEGIN"
        " UPDATE chunk_totals SET labels = labels + 1, files = files + (NEW.chunk = 0); END;"
        "CREATE TRIGGER chunk_removed AFTER DELETE ON chunks BEGIN"
        " UPDATE chunk_totals SET labels = labels - 1, files = files - (OLD.chunk = 0); END;"
        "CREATE INDEX files_pinned ON files(path) WHERE pinned = 1;",
    ),
    # what the write rules look a new memory's likes up by (``same_text_digest``, the
    # normalised key), instead of reading every memory of the vault on every remember
    # (19 s at 100,000 memories)
    Migration(
        "match_columns",
        "ALTER TABLE files ADD COLUMN same_text TEXT;"
        "ALTER TABLE files ADD COLUMN key_norm TEXT;"
        "CREATE INDEX files_same_text ON files(same_text) WHERE same_text IS NOT NULL;"
        "CREATE INDEX files_key_norm ON files(key_norm) WHERE key_norm IS NOT NULL;",
        fill=fill_match_columns,
    ),
    # where each chunk's token vectors are in the generation's token files
    # (``token_store``): the rows a late-interaction re-scoring reads
    Migration(
        "token_rows",
        "ALTER TABLE chunks ADD COLUMN tok_first INTEGER;ALTER TABLE chunks ADD COLUMN tok_rows INTEGER;",
    ),
    # what each fact is about (``lifecycle.slots``): the facts a new one may replace or
    # contradict, found by their subject or by a value it withdraws
    Migration(
        "slots",
        "CREATE TABLE slots (path TEXT NOT NULL, tag TEXT NOT NULL);"
        "CREATE INDEX slots_tag ON slots(tag);"
        "CREATE INDEX slots_path ON slots(path);",
        fill=fill_slots,
    ),
    # the files a sync could not read, which every recall counts (``Catalog.unreadable``)
    Migration("unreadable", "CREATE INDEX files_unreadable ON files(path) WHERE error IS NOT NULL;"),
    # the people of the user's each fact is about (``vault.slots.people_tags``): the facts
    # a question about the user's kids or family is answered by
    Migration("people", "", fill=fill_people),
    # when each memory was written, in UTC (``created_column``): the memories a question
    # about a time is answered by ("what did I do yesterday?", ``recall.dates``)
    Migration(
        "created",
        "ALTER TABLE files ADD COLUMN created TEXT;"
        "CREATE INDEX files_created ON files(created) WHERE created IS NOT NULL;",
        fill=fill_created,
    ),
    # what a fact no slot reads says, and a negation kept beside its modal ("can't drive" is
    # "can drive", denied; ``vault.slots.stance_of``): every fact's tags read again, so "We
    # deploy on Fridays" finds the "We don't deploy on Fridays" it contradicts
    Migration("stances", "", fill=fill_tags_again),
    # a third language (``lang.packs``): a Portuguese fact, once read as Spanish or as no
    # language, is tagged "lang:pt", so the multilingual model judges it for an English
    # question; and a fact that tells of a change is tagged ``CHANGE_TAG``
    Migration("languages", "", fill=fill_tags_again),
    # a hand-written file without ``created`` dated by what its person did (``vault.dating``):
    # its record and its ``created`` column, from the record and the file's recorded mtime
    Migration("dated", "", fill=fill_dated),
    # Obsidian's links as relations (``vault.links.link_tags``): every file tagged by the name
    # a link reaches it by and the names it links to, so recall follows a link either way
    Migration("links", "", fill=fill_tags_again),
    # a note's Obsidian aliases reach it as its name does (``vault.links.aliases_of``)
    Migration("aliases", "", fill=fill_tags_again),
)


def schema_with(name: str) -> int:
    """The first schema version that has migration ``name``."""
    return next(number for number, m in enumerate(MIGRATIONS, start=1) if m.name == name)


#: the first schema with ``chunk_totals``, with ``same_text``/``key_norm``, with ``slots``
_CHUNK_TOTALS = schema_with("chunk_totals")
_MATCH_COLUMNS = schema_with("match_columns")
_SLOTS = schema_with("slots")
_CREATED = schema_with("created")


#: how the error of a file skipped for its id begins (``duplicate_message``)
DUPLICATE = "duplicate id"


class Meta:
    """Every key of the catalog's ``meta`` table, named once: what a generation's index
    says of itself, read by the sync, the snapshots, the checks and recall."""

    #: the catalog's schema (``FORMAT_VERSION``) and the model its vectors are of
    FORMAT_VERSION = "format_version"
    #: what each forgotten memory had replaced (``Trash.superseded``), as JSON: replaced
    #: still when a live memory replaces the forgotten one (a merge of a forget and a
    #: correction brings no old value back)
    FORGOTTEN_SUPERSEDED = "forgotten_superseded"
    #: the forgotten memories edited since they were forgotten (``Trash.edited``): {id: where
    #: it came from}; what they replaced stays replaced, as a live memory's would
    EDITED_FORGOTTEN = "edited_forgotten"
    MODEL_ID = "model_id"
    #: the vectors' dimension, and the next vector label to hand out
    DIM = "dim"
    NEXT_LABEL = "next_label"
    #: the syncs committed to this catalog: a reader of commit N keeps what commit N + 1
    #: did not touch (``Catalog.touched``, ``Snapshot.carry_over``)
    COMMIT_SEQ = "commit_seq"
    #: the token files (``token_store``): their dimension and codec, the rows the catalog
    #: references and a fingerprint of the last of them
    TOKENS_DIM = "tokens_dim"
    TOKENS_CODEC = "tokens_codec"
    TOKEN_ROWS = "token_rows"
    TOKEN_TAIL = "token_tail"
    #: the vector files' sizes at the last commit (``checkup.vector_files``)
    VECTORS_BYTES = "vectors_bytes"
    DELTA_BYTES = "delta_bytes"
    SIDE_BYTES = "side_bytes"
    #: where a generation splits its vectors between hnswlib and ``SideRows`` ("columns:
    #: weight", ``vector_index.split_of``); absent: all in hnswlib (built before, or one model)
    VECTOR_SPLIT = "vector_split"
    #: the stamps file that speaks for this catalog (``generations.write_stamps``)
    STAMPS_TOKEN = "stamps_token"
    #: ``stamps_digest`` of the recorded stamps: a walk with the same digest changed
    #: nothing, known without reading the stamps file; cleared in every sync's own
    #: transaction, so it is never older than the catalog
    STAMPS_DIGEST = "stamps_digest"
    #: the keyword folder's files and sizes at the last commit (``KeywordIndex.file_sizes``)
    KEYWORD_FILES = "keyword_files"
    #: the keyword analysis the generation was built with (``keyword_index.ANALYSIS``;
    #: absent: built before it was recorded), and "1" once any memory it indexed has a
    #: ``<private>`` span (cut out of its postings): what ``Snapshot.may_hold_words`` trusts
    KEYWORD_ANALYSIS = "keyword_analysis"
    PRIVATE_SPANS = "private_spans"


def _memory_of(record: str) -> Memory:
    """A catalog record as a memory, for ``claim_order`` (an unreadable one sorts last)."""
    try:
        return Memory.from_record(json.loads(record))
    except (ValueError, TypeError, AttributeError):
        return Memory(id="", type="note", text="", source="agent")


def duplicate_message(memory_id: str, first: str) -> str:
    """Why a file that claims an id already claimed by ``first`` (first by ``claim_order``) is skipped."""
    return f"{DUPLICATE} {memory_id!r}, also used by {first}; skipped"


def _match_columns(key: str | None, text: Any) -> tuple[str | None, str | None]:
    """(``same_text``, ``key_norm``) of a memory: what the write rules look its likes up by."""
    return same_text_digest(key, str(text or "")), normalize_key(key) or None


#: the tags of a memory written in a language other than English ("lang:es", "lang:pt";
#: ``lang.detect``): whether an English question needs a bilingual vector's multilingual
#: half at all, and where it looks (``Snapshot.foreign_labels``)
LANGUAGE_TAG = "lang:"
#: the tag of a fact that tells of a change ("now", "ya no", "mudei": ``lang.says_change``):
#: the facts recall looks among for what replaced a recalled one (``recall.related``)
CHANGE_TAG = "c:change"


def created_column(created: Any) -> str | None:
    """A memory's ``created`` as the catalog keeps it: UTC, to the second, in one format,
    so a range of them is a range of strings (a date without a time zone is local)."""
    if not isinstance(created, dt.datetime):
        try:
            created = dt.datetime.fromisoformat(str(created)) if created else None
        except ValueError:
            return None
    if created is None:
        return None
    try:
        return created.astimezone(dt.UTC).strftime(_CREATED_FORMAT)
    except (OverflowError, ValueError, OSError):  # a year 1 in a zone east of UTC
        return None


_CREATED_FORMAT = "%Y-%m-%dT%H:%M:%S"


def memory_tags(memory: Memory) -> list[str]:
    """The tags a memory is indexed by: its slot and people tags (facts only: an episode is
    never replaced, nor a fact of the user's), its language's (``LANGUAGE_TAG``), and its
    links' (``vault.links.link_tags``: the name it is reached by, the names it links to)."""
    path = memory.path.as_posix() if memory.path is not None else None
    return _tags(memory.type, memory.text, memory.key) + link_tags(path, memory.text, aliases_of(memory.extra))


def record_tags(record: dict[str, Any]) -> list[str]:
    """``memory_tags`` of a catalog record."""
    text = str(record.get("text") or "")
    return _tags(record.get("type", "fact"), text, record.get("key")) + link_tags(
        record.get("path"), text, aliases_of(record)
    )


def _tags(kind: str | None, text: str, key: str | None) -> list[str]:
    slot = slot_of(text, key) if kind == "fact" else None
    stance = stance_of(text) if kind == "fact" and slot is None else None
    tags = list(slot.tags) if slot is not None else [subject_tag(stance[0])] if stance is not None else []
    if kind == "fact":
        tags += people_tags(key, text)
    language = detect(text)
    if kind == "fact" and says_change(text):
        tags.append(CHANGE_TAG)
    return [*tags, LANGUAGE_TAG + language] if language not in (None, ENGLISH) else tags


def in_cycles(rows: list[tuple[str, str, str | None]]) -> set[str]:
    """Of (path, target ref, the path's id) supersedes rows, the target refs that lie on a
    cycle (a memory reached again by following what replaces what), by id or file stem."""
    edges = _supersedes_edges(rows)
    cyclic: set[str] = set()
    state: dict[str, int] = {}
    for start in edges:
        if start in state:
            continue
        stack: list[tuple[str, int]] = [(start, 0)]
        trail: list[str] = []
        while stack:
            node, i = stack.pop()
            if i == 0:
                state[node] = 1
                trail.append(node)
            out = edges.get(node, [])
            if i < len(out):
                stack.append((node, i + 1))
                _, to = out[i]
                if state.get(to) == 1:  # back to the trail: every step from ``to`` on is a cycle
                    loop = trail[trail.index(to) :]
                    cyclic |= {ref for p in loop for ref, t in edges.get(p, []) if t in loop}
                elif to not in state:
                    stack.append((to, 0))
            else:
                state[node] = 2
                trail.pop()
    return cyclic


def _supersedes_edges(rows: list[tuple[str, str, str | None]]) -> dict[str, list[tuple[str, str]]]:
    """path → (target ref, target path) for each ``supersedes`` row whose target is a
    memory the rows name (by id or file stem) other than itself."""
    names: dict[str, str] = {}  # id or file stem → path
    for path, _, memory_id in rows:
        if memory_id:
            names[memory_id] = path
        names.setdefault(os.path.splitext(os.path.basename(path))[0], path)  # Path.stem, without a Path each
    edges: dict[str, list[tuple[str, str]]] = {}
    for path, target, _ in rows:
        to = names.get(target)
        if to is not None and to != path:
            edges.setdefault(path, []).append((target, to))
    # a step to a memory that replaces nothing cannot be on a cycle: most chains end there,
    # and the search that follows (every snapshot asks it) then has almost nothing to walk
    return {p: kept for p, out in edges.items() if (kept := [(t, to) for t, to in out if to in edges])}


#: how long a statement waits on a database another program holds, in seconds (vmem's own
#: writers take turns by ``write.lock``: only a foreign program is waited for; 30 s had a
#: recall wait half a minute and then die; a recall answers from the index it has)
BUSY_SECONDS = 2.0


def sqlite_failure(path: Path, error: sqlite3.OperationalError, verb: str = "written") -> VaultError | None:
    """What a failed statement on one of vmem's databases means to its caller: locked by
    another program (try again), or not writable (a full disk, a read-only one: free space);
    None for any other failure."""
    said = str(error).lower()
    if "locked" in said or "busy" in said:
        return IndexLocked(
            f"{path} is held by another program ({error}; waited {BUSY_SECONDS:g} s): close it (`fuser {path}` "
            "names it), then try again"
        )
    if any(word in said for word in ("readonly", "read-only", "disk is full", "disk i/o", "unable to open")):
        return StorageError(
            f"{path} cannot be {verb} ({error}): the disk may be full or read-only; nothing was half-written. "
            "Free some space, then run `vmem sync`"
        )
    return None


def damaged(path: Path, error: sqlite3.DatabaseError, verb: str = "read") -> IndexDamaged:
    """What every failed statement on a damaged catalog becomes: one error, one fix."""
    return IndexDamaged(f"{path} cannot be {verb} ({error}): `vmem sync` rebuilds it")


@dataclass
class FileRow:
    path: str
    size: int
    mtime_ns: int
    sha: str
    id: str | None
    error: str | None
    error_line: int | None = None
    ctime_ns: int = 0
    inode: int = 0

    @property
    def stamp(self) -> tuple[int, int, int, int]:
        return self.size, self.mtime_ns, self.ctime_ns, self.inode


#: the columns of a ``FileRow``
_FILE_ROW = "SELECT path, size, mtime_ns, sha, id, error, error_line, ctime_ns, inode FROM files"


class Catalog:
    def __init__(self, path: Path):
        self.path = path
        #: every path whose memory, content hash or vector labels this connection changed:
        #: what a reader of the previous commit must read again (``Snapshot.carry_over``)
        self.touched: set[str] = set()
        self._private_noted = False
        try:
            self._db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.OperationalError as e:
            # a read-only vault (a read-only mount, a backup): read the catalog as it is
            self._db = self._read_only(path, e)
        except sqlite3.DatabaseError as e:
            raise damaged(path, e) from None

    @staticmethod
    def _read_only(path: Path, why: sqlite3.OperationalError) -> sqlite3.Connection:
        if not path.exists() or "locked" in str(why):
            raise sqlite_failure(path, why, "opened") or why
        try:
            db = sqlite3.connect(
                f"{path.as_uri()}?immutable=1", uri=True, isolation_level=None, check_same_thread=False
            )
            db.execute("SELECT 1 FROM meta LIMIT 1").fetchall()
        except sqlite3.DatabaseError as e:
            raise damaged(path, e) from None
        return db

    def close(self) -> None:
        self._db.close()

    def _sql(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, params)
        except sqlite3.OperationalError as e:
            raise sqlite_failure(self.path, e) or e from None
        except sqlite3.DatabaseError as e:
            raise damaged(self.path, e) from None

    def _sql_many(self, sql: str, rows: Iterable[Any]) -> None:
        try:
            self._db.executemany(sql, rows)
        except sqlite3.OperationalError as e:
            raise sqlite_failure(self.path, e) or e from None
        except sqlite3.DatabaseError as e:
            raise damaged(self.path, e) from None

    def _script(self, script: str) -> None:
        try:
            self._db.executescript(script)
        except sqlite3.OperationalError as e:
            raise sqlite_failure(self.path, e) or damaged(self.path, e, "changed") from None
        except sqlite3.DatabaseError as e:
            raise damaged(self.path, e, "changed") from None

    def _where_in(self, select: str, column: str, values: Iterable[Any], also: str = "") -> Iterator[Any]:
        """The rows of ``select`` whose ``column`` is one of ``values`` (and ``also``), asked
        500 values at a time: SQLite bounds the parameters of one statement."""
        wanted = list(values)
        for i in range(0, len(wanted), 500):
            part = wanted[i : i + 500]
            yield from self._sql(f"{select} WHERE {also}{column} IN ({','.join('?' * len(part))})", part)

    # -------------------------------------------------------------- meta
    def meta(self) -> dict[str, str]:
        return dict(self._sql("SELECT key, value FROM meta"))

    def set_meta(self, **values: Any) -> None:
        self._sql_many(
            "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [(k, str(v)) for k, v in values.items()]
        )

    # -------------------------------------------------------------- files
    def migrate(self) -> None:
        """Apply the schema changes this catalog has not had yet (writers only)."""
        done = self.schema_version()
        for number, migration in enumerate(MIGRATIONS[done:], start=done + 1):
            self._script(f"BEGIN IMMEDIATE; {migration.sql}")  # one transaction with what follows
            try:
                if migration.fill is not None:
                    migration.fill(Fills(self._sql, self._sql_many))
                self._sql(f"PRAGMA user_version = {number}")
                self._sql(f"DELETE FROM meta WHERE key = '{Meta.COMMIT_SEQ}'")  # no reader carries rows over this
                self._sql("COMMIT")
            except BaseException:
                self.rollback()
                raise

    def schema_version(self) -> int:
        return int(self._sql("PRAGMA user_version").fetchone()[0])

    @property
    def up_to_date(self) -> bool:
        return self.schema_version() == len(MIGRATIONS)

    def stat_rows(self, paths: Iterable[str] | None = None) -> set[tuple[str, int, int, int, int]]:
        """(path, size, mtime_ns, ctime_ns, inode) of every file the catalog knows (or of
        just ``paths``): the no-change check."""
        select = "SELECT path, size, mtime_ns, ctime_ns, inode FROM files"
        if paths is None:
            return set(self._sql(select))
        return set(self._where_in(select, "path", paths))

    def shas(self, paths: Iterable[str] | None = None) -> dict[str, str]:
        """Content hash of every indexed memory (or of those of ``paths``), by path."""
        if paths is None:
            return dict(self._sql("SELECT path, sha FROM files WHERE record IS NOT NULL"))
        return dict(self._where_in("SELECT path, sha FROM files", "path", paths, also="record IS NOT NULL AND "))

    def files(self, paths: Iterable[str] | None = None) -> dict[str, FileRow]:
        """The row of every file (or of just ``paths``, those the catalog has)."""
        rows = self._sql(_FILE_ROW) if paths is None else self._where_in(_FILE_ROW, "path", paths)
        return {r[0]: FileRow(*r) for r in rows}

    def duplicate_paths(self) -> list[str]:
        """Files skipped because an earlier one claims their id: unique again after the
        other one changes, so every sync that changes anything reads them again."""
        rows = self._sql("SELECT path FROM files WHERE substr(error, 1, ?) = ?", (len(DUPLICATE), DUPLICATE))
        return [r[0] for r in rows]

    def upsert_file(self, row: FileRow, memory: Memory | None) -> None:
        self.touched.add(row.path)
        record = (
            json.dumps(memory.to_dict() | {"id_derived": memory.id_derived}, ensure_ascii=False) if memory else None
        )
        version = self.schema_version()  # one schema query a file: a build upserts every file
        columns = {
            "path": row.path,
            "size": row.size,
            "mtime_ns": row.mtime_ns,
            "ctime_ns": row.ctime_ns,
            "inode": row.inode,
            "sha": row.sha,
            "id": row.id,
            "error": row.error,
            "error_line": row.error_line,
            "pinned": int(bool(memory and memory.pinned)),
            "conversation": memory.conversation if memory else None,
            "turn": memory.turn if memory else None,
            "record": record,
        }
        columns["same_text"], columns["key_norm"] = _match_columns(memory.key, memory.text) if memory else (None, None)
        if version >= _CREATED:  # a sync migrates the catalog before it writes to it
            columns["created"] = created_column(memory.written_at) if memory else None
        self._sql(
            f"INSERT OR REPLACE INTO files({', '.join(columns)}) VALUES ({','.join('?' * len(columns))})",
            tuple(columns.values()),
        )
        if memory is not None and not self._private_noted and has_private(memory.text):
            self.set_meta(**{Meta.PRIVATE_SPANS: "1"})  # never unset: a rebuild starts without it
            self._private_noted = True
        self._sql("DELETE FROM supersedes WHERE path = ?", (row.path,))
        has_slots = version >= _SLOTS
        if has_slots:
            self._sql("DELETE FROM slots WHERE path = ?", (row.path,))
        if memory:
            self._sql_many(
                "INSERT INTO supersedes(path, target) VALUES (?, ?)", [(row.path, t) for t in memory.supersession_refs]
            )
            if has_slots:
                self._sql_many(
                    "INSERT INTO slots(path, tag) VALUES (?, ?)", [(row.path, t) for t in memory_tags(memory)]
                )

    def touch_file(self, path: str, stamp: tuple[int, int, int, int]) -> None:
        self._sql("UPDATE files SET size = ?, mtime_ns = ?, ctime_ns = ?, inode = ? WHERE path = ?", (*stamp, path))

    def rename_file(self, old: str, new: str, stamp: tuple[int, int, int, int]) -> None:
        """A moved file keeps its vectors: only its path changes."""
        self.touched |= {old, new}
        row = self._sql("SELECT record FROM files WHERE path = ?", (old,)).fetchone()
        record = row[0] if row else None
        if record:
            data = json.loads(record)
            data["path"] = new
            if data.get("id_derived"):  # a derived id follows the path
                data["id"] = derived_id(Path(new))
            record = json.dumps(data, ensure_ascii=False)
        self._sql("DELETE FROM files WHERE path = ?", (new,))
        self._sql(
            "UPDATE files SET path = ?, size = ?, mtime_ns = ?, ctime_ns = ?, inode = ?, record = ?,"
            " id = COALESCE(json_extract(?, '$.id'), id) WHERE path = ?",
            (new, *stamp, record, record, old),
        )
        self._sql("UPDATE supersedes SET path = ? WHERE path = ?", (new, old))
        self._sql("UPDATE chunks SET path = ? WHERE path = ?", (new, old))
        if self._has_slots:
            self._sql("DELETE FROM slots WHERE path = ?", (new,))
            self._sql("UPDATE slots SET path = ? WHERE path = ?", (new, old))

    def duplicate_ids(self, among: Iterable[str] | None = None) -> list[tuple[str, list[str]]]:
        """(id, its paths, the memory first: ``claim_order``) for every id that more than one indexed file claims (of
        the ids ``among`` only: those a sync of a few files wrote, found by the id index
        instead of grouping every row)."""
        if among is None:
            rows: Iterable[Any] = self._sql(
                "SELECT id, path, record FROM files WHERE record IS NOT NULL AND id IN "
                "(SELECT id FROM files WHERE record IS NOT NULL GROUP BY id HAVING COUNT(*) > 1)"
            )
        else:
            rows = self._where_in("SELECT id, path, record FROM files", "id", among, also="record IS NOT NULL AND ")
        out: dict[str, list[tuple[str, str]]] = {}
        for memory_id, path, record in rows:
            out.setdefault(memory_id, []).append((path, record))
        return [
            (memory_id, [path for _, path in sorted((claim_order(_memory_of(r), p), p) for p, r in claims)])
            for memory_id, claims in sorted(out.items())
            if len(claims) > 1
        ]

    def skip_file(self, path: str, error: str) -> list[int]:
        """Keep a file's row but take its memory out of the index (a duplicate id): returns
        the vector labels it held."""
        self.touched.add(path)
        self._sql(
            "UPDATE files SET record = NULL, error = ?, error_line = NULL, pinned = 0, conversation = NULL,"
            " turn = NULL, same_text = NULL, key_norm = NULL WHERE path = ?",
            (error, path),
        )
        self._sql("DELETE FROM supersedes WHERE path = ?", (path,))
        if self._has_slots:
            self._sql("DELETE FROM slots WHERE path = ?", (path,))
        return self.release_labels(path)

    def delete_file(self, path: str) -> list[int]:
        """Forget a file; returns the vector labels it held."""
        self.touched.add(path)
        self._sql("DELETE FROM files WHERE path = ?", (path,))
        self._sql("DELETE FROM supersedes WHERE path = ?", (path,))
        if self._has_slots:
            self._sql("DELETE FROM slots WHERE path = ?", (path,))
        return self.release_labels(path)

    # -------------------------------------------------------------- chunks / labels
    def release_labels(self, path: str) -> list[int]:
        """Drop a file's chunk rows; returns their labels, for the vector index to delete."""
        self.touched.add(path)
        labels = [r[0] for r in self._sql("SELECT label FROM chunks WHERE path = ?", (path,))]
        self._sql("DELETE FROM chunks WHERE path = ?", (path,))
        return labels

    def add_chunks(self, path: str, labels: Iterable[int], tokens: Iterable[tuple[int, int]] | None = None) -> None:
        """A file's chunks: their vector labels, and (first row, rows) of each one's token
        vectors in the generation's token files (``token_store``), when it keeps them."""
        self.touched.add(path)
        labels = list(labels)
        spans: list[tuple[int, int] | tuple[None, None]] = (
            list(tokens) if tokens is not None else [(None, None)] * len(labels)
        )
        self._sql_many(
            "INSERT INTO chunks(label, path, chunk, tok_first, tok_rows) VALUES (?,?,?,?,?)",
            [(lab, path, i, *span) for i, (lab, span) in enumerate(zip(labels, spans, strict=True))],
        )

    def token_spans(self, paths: Iterable[str]) -> dict[str, list[tuple[int, int]]]:
        """(first row, rows) of each file's token vectors, chunk by chunk (files without any
        are left out)."""
        select = "SELECT path, chunk, tok_first, tok_rows FROM chunks"
        out: dict[str, list[tuple[int, int]]] = {}
        for path, _, first, rows in sorted(self._where_in(select, "path", paths, also="tok_first IS NOT NULL AND ")):
            out.setdefault(path, []).append((first, rows))
        return out

    def label_paths(self, labels: Iterable[int] | None = None) -> dict[int, str]:
        """The file of every vector label (or of just ``labels``)."""
        if labels is None:
            return dict(self._sql("SELECT label, path FROM chunks"))
        return dict(self._where_in("SELECT label, path FROM chunks", "label", labels))

    def path_labels(self, paths: Iterable[str]) -> dict[int, str]:
        """The vector labels of ``paths``, each with its file."""
        return dict(self._where_in("SELECT label, path FROM chunks", "path", paths))

    def chunk_counts(self) -> tuple[int, int]:
        """(vector labels in use, files they belong to); counted in a catalog of an older
        schema (a reader does not migrate)."""
        if self.schema_version() >= _CHUNK_TOTALS:
            return self._sql("SELECT labels, files FROM chunk_totals").fetchone()
        return self._sql("SELECT COUNT(*), COUNT(DISTINCT path) FROM chunks").fetchone()

    # -------------------------------------------------------------- reads for recall
    def records(self, paths: Iterable[str]) -> dict[str, dict[str, Any]]:
        return self._records_where("path", paths)

    def records_with_ids(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        return self._records_where("id", ids)

    def records_with_id_prefix(self, prefix: str, limit: int) -> dict[str, dict[str, Any]]:
        """{path: record} of at most ``limit`` indexed memories whose id begins with
        ``prefix`` (by the id index: a range, not a scan)."""
        rows = self._sql(
            "SELECT path, record FROM files WHERE id >= ? AND id < ? AND record IS NOT NULL ORDER BY id LIMIT ?",
            (prefix, prefix + "\U0010ffff", limit),
        )
        return {path: json.loads(record) for path, record in rows}

    def records_with_id_part(self, part: str, limit: int) -> dict[str, dict[str, Any]]:
        """{path: record} of at most ``limit`` indexed memories whose id holds ``part``
        anywhere (the hash at the end of an id is what people copy): a scan of the ids, for
        a reference no prefix matched."""
        escaped = part.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        rows = self._sql(
            "SELECT path, record FROM files WHERE id LIKE ? ESCAPE '\\' AND record IS NOT NULL ORDER BY id LIMIT ?",
            (f"%{escaped}%", limit),
        )
        return {path: json.loads(record) for path, record in rows}

    def records_superseding(self, refs: Iterable[str]) -> dict[str, dict[str, Any]]:
        """{path: record} of the indexed memories that list one of ``refs`` in ``supersedes``."""
        select = "SELECT f.path, f.record FROM supersedes s JOIN files f ON f.path = s.path"
        rows = self._where_in(select, "s.target", refs, also="f.record IS NOT NULL AND ")
        return {path: json.loads(record) for path, record in rows}

    def paths_with_stems(self, stems: Iterable[str]) -> list[str]:
        """The indexed files named ``<stem>.md`` in any folder (a ``supersedes`` may name a
        file instead of an id, as a wikilink does); reads every path: for the rare ref that
        is no id."""
        wanted = {f"{stem}.md" for stem in stems}
        rows = self._sql("SELECT path FROM files WHERE record IS NOT NULL")
        return [path for (path,) in rows if path.rsplit("/", 1)[-1] in wanted]

    def _records_where(self, column: str, values: Iterable[str]) -> dict[str, dict[str, Any]]:
        """{path: record} of the indexed memories whose ``column`` is one of ``values``."""
        rows = self._where_in("SELECT path, record FROM files", column, values, also="record IS NOT NULL AND ")
        return {path: json.loads(record) for path, record in rows}

    def records_like(self, same_text: str | None, keys: Iterable[str] = ()) -> dict[str, dict[str, Any]]:
        """The records that say the same (``same_text_digest``) or have one of ``keys``
        (normalised): what a new memory may repeat or replace. A catalog of an older schema
        (a reader does not migrate) is searched record by record."""
        keys = [k for k in keys if k]
        if self.schema_version() < _MATCH_COLUMNS:
            wanted = set(keys)
            out = {}
            for path, data in self.all_records().items():
                digest, key = _match_columns(data.get("key"), data.get("text"))
                if (same_text is not None and digest == same_text) or key in wanted:
                    out[path] = data
            return out
        marks = ",".join("?" * len(keys))
        by_key = f" OR key_norm IN ({marks})" if keys else ""
        rows = self._sql(
            f"SELECT path, record FROM files WHERE record IS NOT NULL AND (same_text = ?{by_key})", (same_text, *keys)
        )
        return {path: json.loads(record) for path, record in rows}

    def paths_created(self, first: dt.datetime, last: dt.datetime, limit: int) -> list[str]:
        """The paths of at most ``limit`` indexed memories created from ``first`` up to
        ``last`` (inclusive), newest first: by the ``created`` index, a range and not a scan
        (a catalog of an older schema, a reader does not migrate: record by record)."""
        low, high = created_column(first), created_column(last)
        if low is None or high is None:
            return []
        if self.schema_version() < _CREATED:
            when = {p: created_column(d.get("created")) for p, d in self.all_records().items()}
            dated = sorted(((c, p) for p, c in when.items() if c is not None and low <= c <= high), reverse=True)
            return [p for _, p in dated[:limit]]
        rows = self._sql(
            "SELECT path FROM files WHERE created >= ? AND created <= ? AND record IS NOT NULL"
            " ORDER BY created DESC, path LIMIT ?",
            (low, high, limit),
        )
        return [r[0] for r in rows]

    def paths_with_id(self, memory_id: str) -> list[str]:
        """Every file that claims ``memory_id``, indexed or skipped as a duplicate: more than
        one is a copy (an editor's "duplicate file") that no command must guess between."""
        return sorted(r[0] for r in self._sql("SELECT path FROM files WHERE id = ?", (memory_id,)))

    def replacing(self, targets: Iterable[str]) -> dict[str, list[str]]:
        """For each of ``targets`` (ids, or file stems), the indexed files whose ``supersedes``
        names it: more than one is a fork (two clones that corrected one memory each)."""
        out: dict[str, list[str]] = {}
        for path, target in self._where_in("SELECT path, target FROM supersedes", "target", list(targets)):
            out.setdefault(target, []).append(path)
        return out

    def holds_links(self) -> bool:
        """Whether any indexed file links to another (``vault.links``)."""
        if not self._has_slots:
            return False
        row = self._sql("SELECT 1 FROM slots WHERE tag >= ? AND tag < ? LIMIT 1", (LINK_TAG, LINK_TAG + "\uffff"))
        return row.fetchone() is not None

    def linked(self, paths: Iterable[str]) -> dict[str, list[str]]:
        """For each of ``paths``, the indexed files it links to and those that link to it."""
        wanted = list(paths)
        if not wanted or not self._has_slots:
            return {}
        rows = list(self._where_in("SELECT path, tag FROM slots", "path", wanted))
        out: dict[str, set[str]] = {p: set() for p in wanted}
        by_tag: dict[str, list[str]] = {}
        for path, tag in rows:  # what each links to is reached by its name; what links to it, by its own
            if tag.startswith(LINK_TAG):
                by_tag.setdefault(NOTE_TAG + tag[len(LINK_TAG) :], []).append(path)
            elif tag.startswith(NOTE_TAG):
                by_tag.setdefault(LINK_TAG + tag[len(NOTE_TAG) :], []).append(path)
        for tag, other in self._where_in("SELECT tag, path FROM slots", "tag", list(by_tag)):
            for path in by_tag[tag]:
                if other != path:
                    out[path].add(other)
        return {p: sorted(found) for p, found in out.items() if found}

    def records_tagged(self, tags: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The records of the facts indexed under any of ``tags`` (``lifecycle.slots``): what
        a new fact may replace or contradict. A catalog of an older schema (a reader does
        not migrate) is searched record by record."""
        if not self._has_slots:
            wanted = set(tags)
            return {p: d for p, d in self.all_records().items() if wanted & set(record_tags(d))}
        paths = self.paths_under(tags)
        return self.records(paths) if paths else {}

    def paths_under(self, tags: Iterable[str]) -> set[str]:
        """The paths of the facts indexed under any of ``tags``, without their records (a
        catalog of an older schema: searched record by record)."""
        wanted = set(tags)
        if not wanted:
            return set()
        if not self._has_slots:
            return {p for p, d in self.all_records().items() if wanted & set(record_tags(d))}
        return {path for path, _ in self._where_in("SELECT path, tag FROM slots", "tag", sorted(wanted))}

    def newest_under(self, tags: list[str], limit: int) -> set[str]:
        """The paths of at most ``limit`` facts indexed under each of ``tags``, the newest: a
        subject said 2,000 times (an import run again and again) is not read whole for a
        recall. One query; a catalog of an older schema: record by record."""
        if not tags:
            return set()
        if self.schema_version() < _CREATED:  # (slots came before ``created``)
            out: set[str] = set()
            for tag in tags:
                records = self.records(self.paths_under([tag]))
                dated = sorted(
                    records, key=lambda p: (created_column(records[p].get("created")) or "", p), reverse=True
                )
                out |= set(dated[:limit])
            return out
        under: dict[str, list[str]] = {}
        for path, tag in self._where_in("SELECT path, tag FROM slots", "tag", sorted(set(tags))):
            under.setdefault(tag, []).append(path)
        out = set()
        for tag, paths in under.items():  # most subjects are one or two facts: no order needed
            if len(paths) > limit:
                paths = [
                    r[0]
                    for r in self._sql(
                        "SELECT s.path FROM slots s JOIN files f ON f.path = s.path WHERE s.tag = ?"
                        " ORDER BY f.created DESC, s.path LIMIT ?",
                        (tag, limit),
                    )
                ]
            out.update(paths)
        return out

    def tagged_paths(self, prefix: str) -> dict[str, list[str]]:
        """{tag: paths} of every tag that starts with ``prefix`` and names more than one file:
        the subjects with several facts, for ``vmem conflicts``."""
        if not self._has_slots:
            out: dict[str, list[str]] = {}
            for path, data in sorted(self.all_records().items()):
                for tag in record_tags(data):
                    if tag.startswith(prefix):
                        out.setdefault(tag, []).append(path)
            return {t: ps for t, ps in out.items() if len(ps) > 1}
        rows = self._sql(
            "SELECT tag, path FROM slots WHERE tag >= ? AND tag < ? AND tag IN "
            "(SELECT tag FROM slots WHERE tag >= ? AND tag < ? GROUP BY tag HAVING COUNT(*) > 1) ORDER BY tag, path",
            (prefix, prefix + "\uffff", prefix, prefix + "\uffff"),
        )
        grouped: dict[str, list[str]] = {}
        for tag, path in rows:
            grouped.setdefault(tag, []).append(path)
        return grouped

    def holds_tag(self, tag: str) -> bool:
        """Whether any indexed memory is under ``tag`` (a catalog of an older schema: yes,
        not known)."""
        if not self._has_slots:
            return True
        return self._sql("SELECT 1 FROM slots WHERE tag = ? LIMIT 1", (tag,)).fetchone() is not None

    def labels_tagged(self, prefix: str) -> frozenset[int] | None:
        """The vector labels of every chunk of the memories under a tag that starts with
        ``prefix`` (a catalog of an older schema: None, not known)."""
        if not self._has_slots:
            return None
        rows = self._sql(
            "SELECT label FROM chunks WHERE path IN (SELECT path FROM slots WHERE tag >= ? AND tag < ?)",
            (prefix, prefix + "\uffff"),
        )
        return frozenset(r[0] for r in rows)

    @property
    def _has_slots(self) -> bool:
        return self.schema_version() >= _SLOTS

    def personas(self) -> set[str]:
        """Every persona some indexed memory belongs to."""
        rows = self._sql(
            "SELECT DISTINCT json_extract(record, '$.persona') FROM files "
            "WHERE record IS NOT NULL AND json_extract(record, '$.persona') IS NOT NULL"
        )
        return {str(r[0]) for r in rows}

    def persona_records(self, persona: str) -> list[dict[str, Any]]:
        rows = self._sql("SELECT record FROM files WHERE json_extract(record, '$.persona') = ?", (persona,))
        return [json.loads(r[0]) for r in rows]

    def facts_by_importance(self, limit: int) -> dict[str, dict[str, Any]]:
        """The records of up to ``limit`` facts, the most important first, then the newest
        (a question about the user as a whole: the rare recall that reads this wide)."""
        rows = self._sql(
            "SELECT path, record FROM files WHERE record IS NOT NULL AND json_extract(record, '$.type') = 'fact' "
            "ORDER BY COALESCE(json_extract(record, '$.importance'), 0.5) DESC, created DESC LIMIT ?",
            (limit,),
        )
        return {p: json.loads(r) for p, r in rows}

    def all_records(self) -> dict[str, dict[str, Any]]:
        return {p: json.loads(r) for p, r in self._sql("SELECT path, record FROM files WHERE record IS NOT NULL")}

    def neighbours(self, paths: list[str]) -> dict[str, list[str]]:
        """For each path, the paths of the turns just before and after it in its conversation."""
        rows = self._where_in(
            "SELECT f.path, n.path FROM files f JOIN files n ON n.conversation = f.conversation"
            " AND n.turn IN (f.turn - 1, f.turn + 1)",
            "f.path",
            paths,
            also="n.record IS NOT NULL AND ",
        )
        out: dict[str, list[str]] = {}
        for path, near in rows:
            out.setdefault(path, []).append(near)
        return out

    def holds_conversations(self) -> bool:
        """Whether some memory was taken from a conversation (one indexed lookup)."""
        return (
            self._sql("SELECT 1 FROM files WHERE conversation IS NOT NULL AND record IS NOT NULL LIMIT 1").fetchone()
            is not None
        )

    def pinned_paths(self) -> list[str]:
        return [r[0] for r in self._sql("SELECT path FROM files WHERE pinned = 1 AND record IS NOT NULL")]

    def superseded_targets(self) -> set[str]:
        """The refs some memory replaces, but those inside a ``supersedes`` cycle: A and B
        replacing each other hid both from recall (neither can be the current one; doctor
        and history name the cycle)."""
        rows = self._sql("SELECT s.path, s.target, f.id FROM supersedes s JOIN files f ON f.path = s.path").fetchall()
        replaced = {r[1] for r in rows} - in_cycles(rows)
        meta = self.meta()
        forgotten = json.loads(meta.get(Meta.FORGOTTEN_SUPERSEDED) or "{}")
        through = {f: t for f, t in forgotten.items() if isinstance(t, list)} if isinstance(forgotten, dict) else {}
        replaced |= {t for f in _edited_forgotten(meta) for t in through.get(f, [])}  # its person's newest words
        while True:  # a chain through forgotten memories that a live one replaced holds
            reached = {target for f, targets in through.items() if f in replaced for target in targets} - replaced
            if not reached:
                return with_digest_marker(replaced)
            replaced |= reached

    def edited_forgotten(self) -> dict[str, str]:
        """{id: where it came from} of the forgotten memories edited since (``Meta.EDITED_FORGOTTEN``)."""
        return _edited_forgotten(self.meta())

    def errors(self) -> list[FileRow]:
        """The files that are not indexed, and why (found without reading every row)."""
        return [FileRow(*r) for r in self._sql(f"{_FILE_ROW} WHERE error IS NOT NULL ORDER BY path")]

    def unreadable(self) -> int:
        """How many memory files are indexed as unreadable (broken, too large, a duplicate
        id): left out of every recall, which says so (a partial index: no scan)."""
        return int(self._sql("SELECT COUNT(*) FROM files WHERE error IS NOT NULL").fetchone()[0])

    def integrity_problems(self) -> list[str]:
        """What SQLite's own quick check finds wrong (empty: nothing)."""
        rows = [r[0] for r in self._sql("PRAGMA quick_check")]
        return [] if rows == ["ok"] else rows

    def count(self) -> int:
        """The memories indexed: every file but the unreadable ones (which alone have no
        record), counted on two indexes; counting the records read the whole table (69 MB
        at 100,000 memories, on every `vmem daemon status`)."""
        row = self._sql(
            "SELECT (SELECT COUNT(*) FROM files) - (SELECT COUNT(*) FROM files WHERE error IS NOT NULL)"
        ).fetchone()
        return int(row[0])

    def begin_read(self) -> None:
        """Pin what this connection sees until ``end_read``: a reader's consistent snapshot."""
        self._sql("BEGIN")
        self._sql("SELECT 1 FROM meta LIMIT 1").fetchall()

    def end_read(self) -> None:
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error:
            pass

    def begin(self) -> None:
        self._sql("BEGIN IMMEDIATE")

    def commit(self) -> None:
        self._sql("COMMIT")

    def rollback(self) -> None:
        """Undo the open transaction, if any: called on the way out of a failed write, it
        never hides that write's own error behind one of its own."""
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def _edited_forgotten(meta: dict[str, str]) -> dict[str, str]:
    """``Meta.EDITED_FORGOTTEN`` as recorded: {id: where it came from}; nothing for a value
    that is not one."""
    edited = json.loads(meta.get(Meta.EDITED_FORGOTTEN) or "{}")
    return {k: v for k, v in edited.items() if isinstance(v, str)} if isinstance(edited, dict) else {}
