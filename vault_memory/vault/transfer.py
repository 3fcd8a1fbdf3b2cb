"""Export and import: every memory as one JSON object per line, and back.

An export line is a memory's ``to_dict()``; import checks each line like a file's
frontmatter, writes new memories through ``Vault`` and never overwrites one that exists.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import safejson
from ..errors import FileTooLarge, NotFound, SecretRefused, VaultError
from .fileformat import parse_record, serialize_memory
from .ids import new_id
from .memory import TYPE_FOLDERS, Memory
from .secrets import find_secret
from .vault import Problem, Vault, now_local


def export_lines(vault: Vault) -> tuple[list[str], list[Problem]]:
    """(one JSON line per memory, the files that could not be read)."""
    result = vault.scan()
    lines = [json.dumps(m.portable(), ensure_ascii=False, sort_keys=True) for m in result.memories]
    return lines, result.problems


@dataclass
class ImportReport:
    counts: dict[str, int] = field(default_factory=lambda: {"added": 0, "unchanged": 0, "conflict": 0, "error": 0})
    #: one entry per line: {"line", "status", "id"} or {"line", "status": "error", "error"}
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.counts["error"] or self.counts["conflict"])

    def to_dict(self) -> dict[str, Any]:
        return {"counts": self.counts, "records": self.records}


def import_lines(
    vault: Vault,
    lines: Iterable[str],
    source: str = "import",
    progress: Callable[[str, int, int], None] | None = None,
) -> ImportReport:
    """Import JSON Lines; a bad line is reported with its number and the rest goes on. The
    vault is read once, not once a line (each record asked for its id among every file:
    154 ms a record at 1,000). ``progress``: ("import", lines done, lines) as it goes."""
    report = ImportReport()
    known = {memory.id: memory for memory in vault.scan().memories}
    trashed = {entry.id for entry in vault.trash()}
    total = len(lines) if isinstance(lines, Sequence) else 0
    with vault.flushed_together():  # one syncfs at the end, not two fsyncs a record
        for n, line in enumerate(lines, start=1):
            if progress is not None and (n % 50 == 0 or n == total):
                progress("import", n, total)
            if not line.strip():
                continue
            try:
                record = safejson.loads(line)
                if not isinstance(record, dict):
                    raise ValueError("not a JSON object")
                status, memory = import_record(vault, record, known=known, trashed=trashed)
                report.records.append({"line": n, "status": status, "id": memory.id if memory else None})
            except (ValueError, VaultError) as e:
                status = "error"
                report.records.append({"line": n, "status": status, "error": f"{source}:{n}: {e}"})
            report.counts[status] += 1
    return report


def import_record(
    vault: Vault, record: dict[str, Any], *, known: dict[str, Memory] | None = None, trashed: set[str] | None = None
) -> tuple[str, Memory | None]:
    """Import one exported memory. Returns (``"added"`` | ``"unchanged"`` | ``"conflict"``, memory).

    Only memory files are written, under the type folders (or ``archive/`` and its type
    folder for an archived one), named by vmem: a record's own ``path`` is never a
    place to write. A record without an id gets one from its text, like ``remember``.
    ``known`` (every memory by id) and ``trashed`` (the forgotten ids), read once by an
    import of many records, stand for reading the vault again; ``known`` gains what is added."""
    memory = parse_record(record)
    secret = find_secret(memory.text)
    if secret is not None:
        raise SecretRefused(secret, "the record")
    if memory.id_derived:  # no id in the record: name it by its content and date
        memory.id = new_id(memory.text, memory.key, memory.created or now_local())
        memory.id_derived = False
    if known is not None:
        existing = known.get(memory.id)
    else:
        try:
            existing = vault.get(memory.id)
        except NotFound:
            existing = None
    if existing is not None:
        same = existing.portable() | {"path": None} == memory.portable() | {"path": None}
        return ("unchanged" if same else "conflict"), existing
    size = len(serialize_memory(memory).encode("utf-8"))
    limit = vault.config["vault"]["max_file_bytes"]
    if size > limit:
        raise FileTooLarge(Path(f"{memory.id}.md"), f"{size:,} bytes is over the {limit:,}-byte limit; not imported")
    memory.id = vault.unused_id(memory.id, trashed)
    folder = Path(TYPE_FOLDERS.get(memory.type, "notes"))
    archived = str(record.get("path") or "").startswith("archive/")
    relpath = (Path("archive") / folder if archived else folder) / f"{memory.id}.md"
    written = vault.write_new(memory, relpath=relpath, message="vmem: import {id}", trashed=trashed)
    if known is not None:
        known[written.id] = written
    return "added", written
