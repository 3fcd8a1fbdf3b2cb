"""``.vmem/ingested/``: the ledger of turns already turned into memories, one file per
conversation. It only saves work: without it, a re-ingest reconfirms what the vault holds
instead of writing it twice.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .. import safejson
from ..config import StateLayout
from ..vault.fsutil import atomic_write, private_dir
from .queue import file_stem


class Ledger:
    """The turns of one conversation already read for explicit signals, and by the LLM."""

    def __init__(self, vault_root: Path, session: str):
        self.path = StateLayout.of(vault_root).ingested / f"{file_stem(session)}.json"
        self.session = session
        self.explicit: set[str] = set()
        self.llm: set[str] = set()
        self.summary: str | None = None  # the id of the session's newest summary
        #: facts and episodes the LLM has written for this conversation so far
        self.inferred = 0
        try:
            data = safejson.loads(self.path.read_text(encoding="utf-8"))
            self.explicit = set(data.get("explicit", []))
            self.llm = set(data.get("llm", []))
            self.summary = data.get("summary")
            self.inferred = int(data.get("inferred") or 0)
        except (FileNotFoundError, ValueError, AttributeError, TypeError):
            pass  # no ledger, or a broken one: start over (the write rules keep it from duplicating)

    def save(self, *, durable: bool = True) -> None:
        """``durable=False`` for a ledger with no model's reading in it (no summary to
        supersede, no cap to keep): losing it to a power cut costs a second reading, which
        the write rules turn into reconfirmations."""
        private_dir(self.path.parent)
        data: dict[str, Any] = {"session": self.session, "explicit": sorted(self.explicit), "llm": sorted(self.llm)}
        if self.summary:
            data["summary"] = self.summary
        if self.inferred:
            data["inferred"] = self.inferred
        atomic_write(self.path, json.dumps(data, ensure_ascii=False) + "\n", durable=durable)
