"""The catalog: what the indexes hold, in SQLite. One row per vault file (path, size,
mtime, content hash, the parsed memory) and one per vector label.

The catalog is how sync knows what changed without reading unchanged files, how recall
filters (superseded, expired, persona, pinned) without opening every file, and where the
index's model id and format version are recorded. It is the only module that speaks SQL
(with its two parts: ``catalog_schema``, the tables and their migrations, and
``catalog_reads``, its questions): everything else asks it questions by name. This module
owns the connection, the transactions and every write.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import IndexDamaged, IndexLocked, StorageError, VaultError
from ..vault.ids import derived_id
from ..vault.memory import DUPLICATE, Memory, claims_by_id
from ..vault.secrets import has_private
from .catalog_reads import CatalogReads
from .catalog_schema import (  # noqa: F401 (re-exported: what a catalog is made of)
    _CREATED,
    _FILE_ROW,
    _SCHEMA,
    _SLOTS,
    CHANGE_TAG,
    FORMAT_VERSION,
    LANGUAGE_TAG,
    MIGRATIONS,
    FileRow,
    Fills,
    Meta,
    _match_columns,
    created_column,
    memory_tags,
    record_tags,
    schema_with,
)


def _file_columns(row: FileRow, memory: Memory | None, version: int) -> dict[str, Any]:
    """The ``files`` columns of a row and its memory, for a catalog of schema ``version``
    (a sync migrates the catalog before it writes to it)."""
    record = json.dumps(memory.to_dict() | {"id_derived": memory.id_derived}, ensure_ascii=False) if memory else None
    columns: dict[str, Any] = {
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
    if version >= _CREATED:
        columns["created"] = created_column(memory.written_at) if memory else None
    return columns


def _memory_of(record: str, memory_id: str) -> Memory:
    """A catalog record as a memory, for ``claim_order`` (an unreadable one sorts last)."""
    try:
        return Memory.from_record(json.loads(record))
    except (ValueError, TypeError, AttributeError, KeyError):
        return Memory(id=memory_id, type="note", text="", source="agent")


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


class Catalog(CatalogReads):
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

    # -------------------------------------------------------------- meta

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
        """A file's row as a sync read it, and what its memory replaces and is tagged by
        (``memory`` None: a file that is no memory, or a skipped duplicate)."""
        self.touched.add(row.path)
        version = self.schema_version()  # one schema query a file: a build upserts every file
        columns = _file_columns(row, memory, version)
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
        """(id, its paths, the memory first: ``claim_order``) for every id that more than one
        indexed file claims (of the ids ``among`` only: those a sync of a few files wrote,
        found by the id index instead of grouping every row)."""
        if among is None:
            rows: Iterable[Any] = self._sql(
                "SELECT id, path, record FROM files WHERE record IS NOT NULL AND id IN "
                "(SELECT id FROM files WHERE record IS NOT NULL GROUP BY id HAVING COUNT(*) > 1)"
            )
        else:
            rows = self._where_in("SELECT id, path, record FROM files", "id", among, also="record IS NOT NULL AND ")
        claims = claims_by_id((_memory_of(record, memory_id), path) for memory_id, path, record in rows)
        return [
            (memory_id, [path for _, path in claimed])
            for memory_id, claimed in sorted(claims.items())
            if len(claimed) > 1
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
