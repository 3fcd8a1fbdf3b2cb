"""``LocalBackend``: the work done in this process. Vault, engine and model are built on
first use, so opening a vault costs nothing and a recall with nothing new to embed never
loads the model's weights twice."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..config import Config, StateLayout
from ..errors import EmbedderError, IndexDamaged, IndexLocked, StorageError
from .base import Where

if TYPE_CHECKING:
    from ..index.embedder import Embedder
    from ..index.plan import Progress, SyncReport
    from ..index.snapshot import Snapshot
    from ..index.store import Index
    from ..lifecycle import Rules
    from ..recall.engine import Engine
    from ..recall.results import RecallQuery, RecallResult
    from ..vault.vault import Vault


class Freshness(Protocol):
    """How fresh the index a verb reads is, chosen once for a ``LocalBackend``: in this
    process a ``stat`` walk and a sync when a file changed (``WalkFreshness``); in the
    daemon, the file events it has noted and the snapshot it publishes (``daemon``)."""

    def ensure(self) -> SyncReport | None:
        """Bring the index up to what the files say; None when nothing changed."""
        ...

    def reading(self) -> AbstractContextManager[Snapshot]:
        """The snapshot a recall ranks on (after ``ensure``)."""
        ...

    def notes(self) -> list[str]:
        """What every answer says about the index's settings (empty when all is well)."""
        ...

    def sync(self, progress: Progress | None, full: bool) -> SyncReport:
        """A sync someone asked for (``full``: rebuild from the files)."""
        ...


class WalkFreshness:
    """The in-process policy: a ``stat`` walk, a sync only when a file changed, and a
    damaged index rebuilt when a recall meets it."""

    def __init__(self, backend: LocalBackend):
        self.backend = backend

    def ensure(self) -> SyncReport | None:
        return self.backend.index.ensure_fresh(self.backend.progress)

    @contextmanager
    def reading(self) -> Iterator[Snapshot]:
        index = self.backend.index
        try:
            snap = index.snapshot()
        except IndexDamaged:  # a damaged index is derived: rebuilt from the files, then read
            index.indexer.sync()
            snap = index.snapshot()
        with snap:
            yield snap

    def notes(self) -> list[str]:
        return []

    def sync(self, progress: Progress | None, full: bool) -> SyncReport:
        indexer = self.backend.index.indexer
        return indexer.reindex(progress) if full else indexer.sync(progress)


class LocalBackend:
    where: Where = "in-process"

    def __init__(
        self,
        root: Path,
        config: Config,
        *,
        embedder: Embedder | None = None,
        engine: Engine | None = None,
        freshness: Callable[[LocalBackend], Freshness] = WalkFreshness,
        progress: Progress | None = None,
    ):
        self.root = root
        self.config = config
        self.state = StateLayout.of(root)
        self._embedder = embedder
        self._engine = engine
        self._index: Index | None = engine.index if engine is not None else None
        self._vault: Vault | None = engine.vault if engine is not None else None
        #: the freshness policy, chosen once (``Freshness``)
        self.freshness = freshness(self)
        #: hears the sync a verb needs first, when it is long (the first recall of a vault
        #: nothing indexed yet): ("build" | "embed" | "commit", done, total)
        self.progress = progress

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
    def index(self) -> Index:
        """The vault's derived indexes: the embedder, the indexer, the snapshots."""
        if self._index is None:
            from ..index.store import Index

            self._index = Index(self.vault, self._embedder)
        return self._index

    @property
    def engine(self) -> Engine:
        """Recall's ranking, on ``index``."""
        if self._engine is None:
            from ..recall.engine import Engine

            self._engine = Engine(self.index)
        return self._engine

    @cached_property
    def rules(self) -> Rules:
        from ..lifecycle import rules_for

        return rules_for(self.config)  # without building the engine: listing needs no model

    # ------------------------------------------------------------------ freshness

    def ensure_fresh(self) -> SyncReport | None:
        """The index brought up to what the files say (``freshness``); None when nothing
        changed."""
        return self.freshness.ensure()

    def fresh_snapshot(self) -> AbstractContextManager[Snapshot]:
        self.ensure_fresh()
        return self.index.snapshot()

    # ------------------------------------------------------------------ the verbs

    def recall(self, query: RecallQuery) -> RecallResult:
        started = time.perf_counter()
        warnings: list[str] = []
        report = None
        try:
            report = self.ensure_fresh()
        except EmbedderError as e:  # the index cannot take new text: recall from what it holds
            warnings.append(f"the index could not be brought up to date: {e}")
        except OSError as e:  # a read-only vault, a full disk: answer from the index as it is
            warnings.append(
                f"the index could not be brought up to date ({e.strerror or e}); it may be behind the files"
            )
        except (IndexLocked, StorageError) as e:  # held by another program, a full disk: the same
            warnings.append(f"the index could not be brought up to date; it may be behind the files: {e}")
        with self.freshness.reading() as snap:
            return self.engine.recall(
                query, snap, sync=report, warnings=[*self.freshness.notes(), *warnings], started=started
            )

    def sync(self, progress: Progress | None = None, *, full: bool = False) -> SyncReport:
        report = self.freshness.sync(progress, full)
        self.vault.sweep_temps()  # an asked-for sync also clears what killed writes left behind
        return report

    def embed(self, texts: list[str], *, keep: bool = False) -> list[list[float]]:
        if not texts:
            return []
        return [list(map(float, v)) for v in self.index.embedder.embed(texts, keep=keep)]

    def close(self) -> None:
        """Nothing is held open between verbs: indexes are opened per snapshot."""
