"""The catalog's questions by name (``Catalog``'s reads): the records, paths and labels
recall, the write rules and the checks ask for, each one SQL statement or a few, over the
catalog's one connection (``Catalog._sql``).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from ..vault.links import LINK_TAG, NOTE_TAG
from ..vault.supersession import with_digest_marker
from .catalog_schema import (
    _CHUNK_TOTALS,
    _CREATED,
    _FILE_ROW,
    _MATCH_COLUMNS,
    _SLOTS,
    FileRow,
    Meta,
    _match_columns,
    created_column,
    record_tags,
)


class CatalogReads:
    """What the catalog answers: a mixin of ``Catalog``, which owns the connection and every
    write; each read here asks ``_sql``."""

    def _sql(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        raise NotImplementedError  # the connection's: ``Catalog._sql``

    def _where_in(self, select: str, column: str, values: Iterable[Any], also: str = "") -> Iterator[Any]:
        """The rows of ``select`` whose ``column`` is one of ``values`` (and ``also``), asked
        500 values at a time: SQLite bounds the parameters of one statement."""
        wanted = list(values)
        for i in range(0, len(wanted), 500):
            part = wanted[i : i + 500]
            yield from self._sql(f"{select} WHERE {also}{column} IN ({','.join('?' * len(part))})", part)

    def meta(self) -> dict[str, str]:
        return dict(self._sql("SELECT key, value FROM meta"))

    def schema_version(self) -> int:
        return int(self._sql("PRAGMA user_version").fetchone()[0])

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


def _edited_forgotten(meta: dict[str, str]) -> dict[str, str]:
    """``Meta.EDITED_FORGOTTEN`` as recorded: {id: where it came from}; nothing for a value
    that is not one."""
    edited = json.loads(meta.get(Meta.EDITED_FORGOTTEN) or "{}")
    return {k: v for k, v in edited.items() if isinstance(v, str)} if isinstance(edited, dict) else {}
