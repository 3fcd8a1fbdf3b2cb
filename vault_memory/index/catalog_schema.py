"""The catalog's tables, their migrations and the names of its meta keys, and the tags and
columns a memory's row is filled with: what the catalog's writes (``catalog``) and reads
(``catalog_reads``) both rest on, and what a migration fills from the rows already there.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..lang import ENGLISH, detect, says_change
from ..vault.dating import dated
from ..vault.links import aliases_of, link_tags
from ..vault.memory import Memory
from ..vault.sameness import normalize_key, same_text_digest
from ..vault.slots import PEOPLE_TAG, people_tags, slot_of, stance_of, subject_tag

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
    # a Portuguese fact read by the slot rules through the Spanish forms (``lang.borrowed``),
    # and a count of the user's people by their role ("1 son" and "1 daughter" are two
    # counts): every fact's slot and people tags read again
    Migration("borrowed forms", "", fill=fill_tags_again),
    # the slot rules' number words come from the packs, and "una" is an article there, not
    # "1" ("abrí una cuenta" says no count): every fact's stance read again
    Migration("numbers of the packs", "", fill=fill_tags_again),
    # the user's people and things of one of each by one name in every language and gender
    # ("Mi dentista", "My dentist"; "mi abogado", "mi abogada"; "my *new* dentist"), a schedule that is no trade
    # ("trabajo de 8 a 5"), a home's description that is no residence ("vivo en un cuarto
    # piso"), where or how someone is that names no one ("is on leave", "is closed on
    # Mondays"), and a fact that opens with its time ("Now the user lives in…"): every fact's
    # slot read again
    Migration("subjects in every language", "", fill=fill_tags_again),
    # a name told of its owner ("my partner's name is Jordan", "o nome da minha namorada é
    # Carla") is the subject a naming word says ("my partner is called…"), and who someone is
    # in a word English writes with a capital ("my landlord is Indian") names no one: every
    # fact's slot read again
    Migration("names told of their owner", "", fill=fill_tags_again),
    # where the user lives and works in more of the words people use ("I'm based in Lyon", "we
    # packed up and moved to Nantes", "desde junio alquilamos un depa en…", "just signed with
    # Hooli", "empecé en Globant"), and what one joins that is no employer ("joined a choir"):
    # every fact's slot read again
    Migration("homes and employers in more words", "", fill=fill_tags_again),
    # a change told by what was done, whoever did it ("vendió", "se jubiló", "trocaram",
    # "retired": ``Pack.change_verbs``), a fact that opens with "ya", "já", "finally" read as
    # one that opens with "now", and the user's people by their role ("hermana", "grandma" →
    # sister, grandmother): every fact's tags read again
    Migration("changes told by their verbs", "", fill=fill_tags_again),
)


def schema_with(name: str) -> int:
    """The first schema version that has migration ``name``."""
    return next(number for number, m in enumerate(MIGRATIONS, start=1) if m.name == name)


#: the first schema with ``chunk_totals``, with ``same_text``/``key_norm``, with ``slots``
_CHUNK_TOTALS = schema_with("chunk_totals")


_MATCH_COLUMNS = schema_with("match_columns")


_SLOTS = schema_with("slots")


_CREATED = schema_with("created")


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
