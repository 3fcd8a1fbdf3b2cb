"""``Index``: a vault's derived indexes as one object, the one owner of everything that
reads or writes them in a process: the embedder, the indexer that writes them (``sync``),
the snapshots that read them (with what snapshots share: the keyword segments and the
vectors read once), and the in-process freshness check. Recall (``recall.Engine``) is
given one and ranks on its snapshots; backends and the daemon ask it, not the engine."""

from __future__ import annotations

import contextlib

from ..errors import VaultError
from ..vault.vault import Vault
from .embedder import Embedder, embedder_from_config
from .generations import IndexLayout
from .keyword_search import SegmentCache
from .plan import Progress, SyncReport
from .snapshot import Snapshot, VectorCache
from .sync import Indexer


class Index:
    def __init__(self, vault: Vault, embedder: Embedder | None = None, lock_timeout: float = 60.0):
        self.vault = vault
        self.embedder = embedder or embedder_from_config(
            vault.config["embedding"]["model"], vault.config["embedding"]["cache_dir"] or None
        )
        self.indexer = Indexer(vault, self.embedder, lock_timeout=lock_timeout)
        self.layout = IndexLayout(vault.state)
        self.lock_timeout = lock_timeout
        #: what was read from the keyword index's segments, kept across snapshots (see keyword_search)
        self.segments = SegmentCache()
        #: the live vectors file, loaded once per process while it stays the same file
        self.vectors = VectorCache()

    def ensure_fresh(self, progress: Progress | None = None) -> SyncReport | None:
        """Sync if any file changed since the last sync; None when nothing changed (the
        in-process freshness policy: ``backend.local``). ``progress`` hears a long sync."""
        walked = self.vault.walk()
        if self.indexer.is_fresh(walked):
            if self.indexer.stale_digest:  # known the slow way: recorded again, once
                with contextlib.suppress(VaultError, OSError):
                    self.indexer.sync(walked=walked)
            return None
        return self.indexer.sync(progress, walked=walked)

    def snapshot(self) -> Snapshot:
        """A consistent read view of the live generation (close it, or use ``with``)."""
        snap = Snapshot(self.layout, lock_timeout=self.lock_timeout, segments=self.segments, vectors=self.vectors)
        self.segments.keep_only(snap.keyword.segment_keys)
        return snap
