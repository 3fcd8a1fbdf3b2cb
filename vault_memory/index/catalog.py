"""The catalog: what the indexes hold, in SQLite. One row per vault file (path, size,
mtime, content hash, the parsed memory) and one per vector label.

The catalog is how sync knows what changed without reading unchanged files, how recall
filters (superseded, expired, persona, pinned) without opening every file, and where the
index's model id and format version are recorded.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

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


def memory_from_catalog(record: dict[str, Any]) -> Memory:
    """Catalog records were validated when their file was parsed: no need to check again."""
    return Memory.from_record(record)


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
        self.db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    # -------------------------------------------------------------- meta
    def meta(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT key, value FROM meta"))

    def set_meta(self, **values: Any) -> None:
        self.db.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [(k, str(v)) for k, v in values.items()])

    # -------------------------------------------------------------- files
    def files(self) -> dict[str, FileRow]:
        rows = self.db.execute("SELECT path, size, mtime_ns, sha, id, error, error_line FROM files")
        return {r[0]: FileRow(*r) for r in rows}

    def upsert_file(self, row: FileRow, memory: Memory | None) -> None:
        record = json.dumps(memory.to_dict() | {"id_derived": memory.id_derived}, ensure_ascii=False) if memory else None
        self.db.execute(
            "INSERT OR REPLACE INTO files(path, size, mtime_ns, sha, id, error, error_line, pinned, conversation, turn, record)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (row.path, row.size, row.mtime_ns, row.sha, row.id, row.error, row.error_line, int(bool(memory and memory.pinned)),
             memory.conversation if memory else None, memory.turn if memory else None, record),
        )
        self.db.execute("DELETE FROM supersedes WHERE path = ?", (row.path,))
        if memory:
            self.db.executemany("INSERT INTO supersedes(path, target) VALUES (?, ?)", [(row.path, t) for t in memory.supersedes])

    def touch_file(self, path: str, size: int, mtime_ns: int) -> None:
        self.db.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?", (size, mtime_ns, path))

    def rename_file(self, old: str, new: str, size: int, mtime_ns: int) -> None:
        """A moved file keeps its vectors: only its path changes."""
        row = self.db.execute("SELECT record FROM files WHERE path = ?", (old,)).fetchone()
        record = row[0] if row else None
        if record:
            data = json.loads(record)
            data["path"] = new
            if data.get("id_derived"):  # a derived id follows the path
                data["id"] = derived_id(Path(new))
            record = json.dumps(data, ensure_ascii=False)
        self.db.execute("DELETE FROM files WHERE path = ?", (new,))
        self.db.execute(
            "UPDATE files SET path = ?, size = ?, mtime_ns = ?, record = ?, id = COALESCE(json_extract(?, '$.id'), id) WHERE path = ?",
            (new, size, mtime_ns, record, record, old),
        )
        self.db.execute("UPDATE supersedes SET path = ? WHERE path = ?", (new, old))
        self.db.execute("UPDATE chunks SET path = ? WHERE path = ?", (new, old))

    def delete_file(self, path: str) -> list[int]:
        """Forget a file; returns the vector labels it held."""
        self.db.execute("DELETE FROM files WHERE path = ?", (path,))
        self.db.execute("DELETE FROM supersedes WHERE path = ?", (path,))
        return self.release_labels(path)

    # -------------------------------------------------------------- chunks / labels
    def release_labels(self, path: str) -> list[int]:
        """Drop a file's chunk rows; returns their labels, for the vector index to delete."""
        labels = [r[0] for r in self.db.execute("SELECT label FROM chunks WHERE path = ?", (path,))]
        self.db.execute("DELETE FROM chunks WHERE path = ?", (path,))
        return labels

    def add_chunks(self, path: str, labels: Iterable[int]) -> None:
        self.db.executemany("INSERT INTO chunks(label, path, chunk) VALUES (?,?,?)", [(lab, path, i) for i, lab in enumerate(labels)])

    def label_paths(self) -> dict[int, str]:
        return dict(self.db.execute("SELECT label, path FROM chunks"))

    # -------------------------------------------------------------- reads for recall
    def records(self, paths: Iterable[str]) -> dict[str, dict[str, Any]]:
        paths = list(paths)
        out: dict[str, dict[str, Any]] = {}
        for i in range(0, len(paths), 500):
            part = paths[i : i + 500]
            marks = ",".join("?" * len(part))
            for path, record in self.db.execute(f"SELECT path, record FROM files WHERE record IS NOT NULL AND path IN ({marks})", part):
                out[path] = json.loads(record)
        return out

    def all_records(self) -> dict[str, dict[str, Any]]:
        return {p: json.loads(r) for p, r in self.db.execute("SELECT path, record FROM files WHERE record IS NOT NULL")}

    def neighbours(self, paths: list[str]) -> dict[str, list[str]]:
        """For each path, the paths of the turns just before and after it in its conversation."""
        out: dict[str, list[str]] = {}
        for i in range(0, len(paths), 500):
            part = paths[i : i + 500]
            marks = ",".join("?" * len(part))
            rows = self.db.execute(
                "SELECT f.path, n.path FROM files f JOIN files n ON n.conversation = f.conversation "
                f"AND n.turn IN (f.turn - 1, f.turn + 1) WHERE f.path IN ({marks}) AND n.record IS NOT NULL",
                part,
            )
            for path, near in rows:
                out.setdefault(path, []).append(near)
        return out

    def pinned_paths(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT path FROM files WHERE pinned = 1 AND record IS NOT NULL")]

    def superseded_targets(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT DISTINCT target FROM supersedes")}

    def errors(self) -> list[FileRow]:
        return [f for f in self.files().values() if f.error]

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM files WHERE record IS NOT NULL").fetchone()[0]

    def begin(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def commit(self) -> None:
        self.db.execute("COMMIT")

    def rollback(self) -> None:
        self.db.execute("ROLLBACK")
