"""Export and import: every memory as one JSON object per line, and back.

An export line is a memory's ``to_dict()``; import checks each line like a file's
frontmatter, writes new memories through ``Vault`` and never overwrites one that exists.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import safejson
from ..errors import VaultError
from .vault import Problem, Vault


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
                status, memory = vault.import_record(record, known=known, trashed=trashed)
                report.records.append({"line": n, "status": status, "id": memory.id if memory else None})
            except (ValueError, VaultError) as e:
                status = "error"
                report.records.append({"line": n, "status": status, "error": f"{source}:{n}: {e}"})
            report.counts[status] += 1
    return report
