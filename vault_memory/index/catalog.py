"""The catalog: what the indexes hold, in SQLite. One row per vault file (path, size,
mtime, content hash, the parsed memory) and one per vector label.

The catalog is how sync knows what changed without reading unchanged files, how recall
filters (superseded, expired, persona, pinned) without opening every file, and where the
index's model id and format version are recorded. It is the only module that speaks SQL:
everything else asks it questions by name.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..vault.memory import Memory, derived_id

FORMAT_VERSION = 1

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


@dataclass
class FileRow:
    path: str
    size: int
    mtime_ns: int
    sha: str
    id: str | None
    error: str | None
    error_line: int | None = None


class Catalog:
    def __init__(self, path: Path):
        self.path = path
        self._db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    # -------------------------------------------------------------- meta
    def meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM meta"))

    def set_meta(self, **values: Any) -> None:
        self._db.executemany(
            "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [(k, str(v)) for k, v in values.items()]
        )

    # -------------------------------------------------------------- files
    def stat_rows(self) -> set[tuple[str, int, int]]:
        """(path, size, mtime_ns) of every file the catalog knows: the no-change check."""
        return set(self._db.execute("SELECT path, size, mtime_ns FROM files"))

    def shas(self) -> dict[str, str]:
        """Content hash of every indexed memory, by path."""
        return dict(self._db.execute("SELECT path, sha FROM files WHERE record IS NOT NULL"))

    def files(self) -> dict[str, FileRow]:
        rows = self._db.execute("SELECT path, size, mtime_ns, sha, id, error, error_line FROM files")
        return {r[0]: FileRow(*r) for r in rows}

    def upsert_file(self, row: FileRow, memory: Memory | None) -> None:
        record = (
            json.dumps(memory.to_dict() | {"id_derived": memory.id_derived}, ensure_ascii=False) if memory else None
        )
        self._db.execute(
            "INSERT OR REPLACE INTO files(path, size, mtime_ns, sha, id, error, error_line, pinned, conversation, turn, record)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                row.path,
                row.size,
                row.mtime_ns,
                row.sha,
                row.id,
                row.error,
                row.error_line,
                int(bool(memory and memory.pinned)),
                memory.conversation if memory else None,
                memory.turn if memory else None,
                record,
            ),
        )
        self._db.execute("DELETE FROM supersedes WHERE path = ?", (row.path,))
        if memory:
            self._db.executemany(
                "INSERT INTO supersedes(path, target) VALUES (?, ?)", [(row.path, t) for t in memory.supersedes]
            )

    def touch_file(self, path: str, size: int, mtime_ns: int) -> None:
        self._db.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?", (size, mtime_ns, path))

    def rename_file(self, old: str, new: str, size: int, mtime_ns: int) -> None:
        """A moved file keeps its vectors: only its path changes."""
        row = self._db.execute("SELECT record FROM files WHERE path = ?", (old,)).fetchone()
        record = row[0] if row else None
        if record:
            data = json.loads(record)
            data["path"] = new
            if data.get("id_derived"):  # a derived id follows the path
                data["id"] = derived_id(Path(new))
            record = json.dumps(data, ensure_ascii=False)
        self._db.execute("DELETE FROM files WHERE path = ?", (new,))
        self._db.execute(
            "UPDATE files SET path = ?, size = ?, mtime_ns = ?, record = ?, id = COALESCE(json_extract(?, '$.id'), id) WHERE path = ?",
            (new, size, mtime_ns, record, record, old),
        )
        self._db.execute("UPDATE supersedes SET path = ? WHERE path = ?", (new, old))
        self._db.execute("UPDATE chunks SET path = ? WHERE path = ?", (new, old))

    def delete_file(self, path: str) -> list[int]:
        """Forget a file; returns the vector labels it held."""
        self._db.execute("DELETE FROM files WHERE path = ?", (path,))
        self._db.execute("DELETE FROM supersedes WHERE path = ?", (path,))
        return self.release_labels(path)

    # -------------------------------------------------------------- chunks / labels
    def release_labels(self, path: str) -> list[int]:
        """Drop a file's chunk rows; returns their labels, for the vector index to delete."""
        labels = [r[0] for r in self._db.execute("SELECT label FROM chunks WHERE path = ?", (path,))]
        self._db.execute("DELETE FROM chunks WHERE path = ?", (path,))
        return labels

    def add_chunks(self, path: str, labels: Iterable[int]) -> None:
        self._db.executemany(
            "INSERT INTO chunks(label, path, chunk) VALUES (?,?,?)", [(lab, path, i) for i, lab in enumerate(labels)]
        )

    def label_paths(self, labels: Iterable[int] | None = None) -> dict[int, str]:
        """The file of every vector label (or of just ``labels``)."""
        if labels is None:
            return dict(self._db.execute("SELECT label, path FROM chunks"))
        wanted = list(labels)
        out: dict[int, str] = {}
        for i in range(0, len(wanted), 500):
            part = wanted[i : i + 500]
            marks = ",".join("?" * len(part))
            out.update(self._db.execute(f"SELECT label, path FROM chunks WHERE label IN ({marks})", part))
        return out

    def chunk_counts(self) -> tuple[int, int]:
        """(vector labels in use, files they belong to)."""
        return self._db.execute("SELECT COUNT(*), COUNT(DISTINCT path) FROM chunks").fetchone()

    # -------------------------------------------------------------- reads for recall
    def records(self, paths: Iterable[str]) -> dict[str, dict[str, Any]]:
        paths = list(paths)
        out: dict[str, dict[str, Any]] = {}
        for i in range(0, len(paths), 500):
            part = paths[i : i + 500]
            marks = ",".join("?" * len(part))
            for path, record in self._db.execute(
                f"SELECT path, record FROM files WHERE record IS NOT NULL AND path IN ({marks})", part
            ):
                out[path] = json.loads(record)
        return out

    def persona_records(self, persona: str) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT record FROM files WHERE json_extract(record, '$.persona') = ?", (persona,))
        return [json.loads(r[0]) for r in rows]

    def all_records(self) -> dict[str, dict[str, Any]]:
        return {
            p: json.loads(r) for p, r in self._db.execute("SELECT path, record FROM files WHERE record IS NOT NULL")
        }

    def neighbours(self, paths: list[str]) -> dict[str, list[str]]:
        """For each path, the paths of the turns just before and after it in its conversation."""
        out: dict[str, list[str]] = {}
        for i in range(0, len(paths), 500):
            part = paths[i : i + 500]
            marks = ",".join("?" * len(part))
            rows = self._db.execute(
                "SELECT f.path, n.path FROM files f JOIN files n ON n.conversation = f.conversation "
                f"AND n.turn IN (f.turn - 1, f.turn + 1) WHERE f.path IN ({marks}) AND n.record IS NOT NULL",
                part,
            )
            for path, near in rows:
                out.setdefault(path, []).append(near)
        return out

    def pinned_paths(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT path FROM files WHERE pinned = 1 AND record IS NOT NULL")]

    def superseded_targets(self) -> set[str]:
        return {r[0] for r in self._db.execute("SELECT DISTINCT target FROM supersedes")}

    def errors(self) -> list[FileRow]:
        return [f for f in self.files().values() if f.error]

    def count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM files WHERE record IS NOT NULL").fetchone()[0]

    def begin_read(self) -> None:
        """Pin what this connection sees until ``end_read``: a reader's consistent snapshot."""
        self._db.execute("BEGIN")
        self._db.execute("SELECT 1 FROM meta LIMIT 1").fetchall()

    def end_read(self) -> None:
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error:
            pass

    def begin(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def commit(self) -> None:
        self._db.execute("COMMIT")

    def rollback(self) -> None:
        self._db.execute("ROLLBACK")
