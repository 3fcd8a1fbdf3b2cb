"""``LocalBackend``: the work done in this process. Vault, engine and model are built on
first use, so opening a vault costs nothing and a recall with nothing new to embed never
loads the model's weights twice."""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Config, StateLayout
from ..errors import EmbedderError, IndexDamaged
from .base import Where

if TYPE_CHECKING:
    from ..index.embedder import Embedder
    from ..index.snapshot import Snapshot
    from ..index.sync import Progress, SyncReport
    from ..lifecycle import Rules
    from ..recall.engine import Engine
    from ..recall.results import RecallQuery, RecallResult
    from ..vault.vault import Vault


class LocalBackend:
    where: Where = "in-process"

    def __init__(self, root: Path, config: Config, *, embedder: Embedder | None = None, engine: Engine | None = None):
        self.root = root
        self.config = config
        self.state = StateLayout.of(root)
        self._embedder = embedder
        self._engine = engine
        self._vault: Vault | None = engine.vault if engine is not None else None

    @property
    def vault(self) -> Vault:
        if self._vault is None:
            from ..vault.vault import Vault

            self._vault = Vault(self.root, self.config)
        return self._vault

    @property
    def loaded_vault(self) -> Vault | None:
        """The vault if something has used it yet (asking does not load it)."""
        return self._vault

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            from ..recall.engine import Engine

            self._engine = Engine(self.vault, embedder=self._embedder)
        return self._engine

    @cached_property
    def rules(self) -> Rules:
        from ..lifecycle import rules_for

        return rules_for(self.config)  # without building the engine: listing needs no model

    # ------------------------------------------------------------------ freshness

    def ensure_fresh(self) -> SyncReport | None:
        """The in-process freshness policy: a ``stat`` walk, and a sync only when a file
        changed. None when nothing did."""
        return self.engine.ensure_fresh()

    def fresh_snapshot(self) -> AbstractContextManager[Snapshot]:
        self.ensure_fresh()
        return self.engine.snapshot()

    # ------------------------------------------------------------------ the verbs

    def recall(self, query: RecallQuery) -> RecallResult:
        started = time.perf_counter()
        notes: list[str] = []
        report = None
        try:
            report = self.ensure_fresh()
        except EmbedderError as e:  # the index cannot take new text: recall from what it holds
            notes.append(f"the index could not be brought up to date: {e}")
        except OSError as e:  # a read-only vault, a full disk: answer from the index as it is
            notes.append(f"the index could not be brought up to date ({e.strerror or e}); it may be behind the files")
        try:
            snap = self.engine.snapshot()
        except IndexDamaged:  # a damaged index is derived: rebuilt from the files, then read
            report = self.engine.indexer.sync()
            snap = self.engine.snapshot()
        with snap:
            return self.engine.recall(query, snap, sync=report, notes=notes, started=started)

    def sync(self, progress: Progress | None = None, *, full: bool = False) -> SyncReport:
        indexer = self.engine.indexer
        report = indexer.reindex(progress) if full else indexer.sync(progress)
        self.vault.sweep_temps()  # an asked-for sync also clears what killed writes left behind
        return report

    def nearest(self, text: str, limit: int, snapshot: Snapshot) -> list[tuple[str, float]]:
        return snapshot.vector_hits(self.engine.embedder.embed([text])[0], limit)

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return [list(map(float, v)) for v in self.engine.embedder.embed(texts)]

    def close(self) -> None:
        """Nothing is held open between verbs: indexes are opened per snapshot."""
