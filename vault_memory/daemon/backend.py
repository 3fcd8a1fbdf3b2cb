"""Where a verb runs: the vault's daemon when one answers, else this process.

While a daemon serves a vault it is the only writer of the indexes and holds the model
warm, so syncs, recalls and similarity look-ups go to it; without one, an ``Engine`` is
built here on first use (loading the model only if something must be embedded). Every
adapter (CLI, MCP server, hooks, ingestion) goes through this one policy via the façade.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import errors
from ..config import STATE_DIR, Config
from ..errors import DaemonError, VaultError
from .client import DaemonClient
from .protocol import Op, query_to_wire, result_from_wire

if TYPE_CHECKING:  # the heavy layers are imported only when work runs in this process
    from ..index.embedder import Embedder
    from ..index.snapshot import Snapshot
    from ..index.sync import Progress, SyncReport
    from ..recall.engine import Engine
    from ..recall.results import RecallQuery, RecallResult
    from ..vault.vault import Vault


def raise_answer_error(answer: dict[str, Any]) -> None:
    """A failed answer as the error it names (``IndexStale``, …), else ``DaemonError``."""
    kind = getattr(errors, str(answer.get("kind")), None)
    cls = kind if isinstance(kind, type) and issubclass(kind, VaultError) else DaemonError
    raise cls(answer.get("error") or "the daemon could not answer")


class Backend:
    def __init__(
        self,
        root: Path,
        config: Config,
        *,
        embedder: Embedder | None = None,
        use_daemon: bool = True,
        daemon_timeout: float = 120.0,
    ):
        self.root = root
        self.config = config
        self.state_dir = root / STATE_DIR
        self.use_daemon = use_daemon
        self._embedder = embedder
        self._client = DaemonClient(self.state_dir, timeout=daemon_timeout)
        self._vault: Vault | None = None
        self._engine: Engine | None = None

    # ------------------------------------------------------------------ in this process

    @property
    def vault(self) -> Vault:
        if self._vault is None:
            from ..vault.vault import Vault

            self._vault = Vault(self.root, self.config)
        return self._vault

    @property
    def loaded_vault(self) -> Vault | None:
        """The vault if something has used it yet (reading it does not load it)."""
        return self._vault

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            from ..recall.engine import Engine

            self._engine = Engine(self.vault, embedder=self._embedder)
        return self._engine

    def snapshot(self) -> Snapshot:
        return self.engine.snapshot()

    # ------------------------------------------------------------------ daemon first

    def ask(self, op: Op, **payload: Any) -> dict[str, Any] | None:
        """The daemon's successful answer, None when no daemon serves the vault; a failed
        answer raises the error it names."""
        if not self.use_daemon:
            return None
        answer = self._client.request(op, **payload)
        if answer is not None and not answer.get("ok"):
            raise_answer_error(answer)
        return answer

    def recall(self, query: RecallQuery) -> RecallResult:
        started = time.perf_counter()
        answer = self.ask(Op.RECALL, query=query_to_wire(query))
        if answer is None:
            return self.engine.recall(query)
        result = result_from_wire(answer["result"])
        result.answered_by, result.server_ms = "daemon", result.took_ms
        result.took_ms = (time.perf_counter() - started) * 1000
        return result

    def ensure_fresh(self) -> None:
        """Bring the indexes up to date with the files before reading them."""
        if self.ask(Op.SYNC) is None:
            self.engine.ensure_fresh()

    def sync(self, progress: Progress | None = None, *, full: bool = False) -> tuple[SyncReport, str]:
        """(report, who did it: "daemon" or "in-process")."""
        from ..index.sync import SyncReport

        answer = self.ask(Op.REINDEX if full else Op.SYNC)
        if answer is not None:
            return SyncReport.from_dict(answer["report"]), "daemon"
        indexer = self.engine.indexer
        return (indexer.reindex(progress) if full else indexer.sync(progress)), "in-process"

    def nearest(self, text: str, limit: int, snapshot: Snapshot) -> list[tuple[str, float]]:
        """[(path, cosine)] of the memories nearest ``text``, best first: the daemon's warm
        model when it runs, else the model loaded here."""
        answer = self.ask(Op.NEAREST, text=text, limit=limit)
        if answer is not None:
            return [(path, float(similarity)) for path, similarity in answer["hits"]]
        return snapshot.vector_hits(self.engine.embedder.embed([text])[0], limit)

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Unit vectors for ``texts``: the daemon's warm model when it runs, else the model
        loaded here."""
        from .protocol import MAX_EMBED_TEXTS

        vectors: list[list[float]] = []
        for start in range(0, len(texts), MAX_EMBED_TEXTS):
            batch = texts[start : start + MAX_EMBED_TEXTS]
            answer = self.ask(Op.EMBED, texts=batch)
            if answer is None:
                return vectors + [list(map(float, v)) for v in self.engine.embedder.embed(texts[start:])]
            vectors += answer["vectors"]
        return vectors
