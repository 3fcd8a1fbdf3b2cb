"""``DaemonBackend``: the vault's daemon does the work, warm, over its Unix socket.

Files are still read and written in this process (``vault``), and a snapshot for the
write rules is opened here on indexes the daemon has just brought up to date; ranking,
syncing and embedding go to the daemon. A daemon that stops answering raises
``DaemonGone``; the façade then switches to a ``LocalBackend`` for good.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from .. import errors
from ..errors import DaemonError, VaultError
from .base import DaemonGone, Where
from .client import DaemonClient
from .local import LocalBackend
from .protocol import BUSY, MAX_EMBED_TEXTS, Op, query_to_wire, result_from_wire

if TYPE_CHECKING:
    from ..index.plan import Progress, SyncReport
    from ..index.snapshot import Snapshot
    from ..lifecycle import Rules
    from ..recall.results import RecallQuery, RecallResult
    from ..vault.vault import Vault


def raise_answer_error(answer: dict[str, Any]) -> None:
    """A failed answer as the error it names (``IndexStale``, …), else ``DaemonError``."""
    kind = getattr(errors, str(answer.get("kind")), None)
    cls = kind if isinstance(kind, type) and issubclass(kind, VaultError) else DaemonError
    raise cls(answer.get("error") or "the daemon could not answer")


class DaemonBackend:
    where: Where = "daemon"

    def __init__(self, local: LocalBackend, client: DaemonClient):
        #: what the façade switches to when the daemon stops answering; it also reads and
        #: writes the files and opens snapshots meanwhile
        self.local = local
        self.root, self.config, self.state = local.root, local.config, local.state
        self._client = client

    @property
    def vault(self) -> Vault:
        return self.local.vault

    @property
    def loaded_vault(self) -> Vault | None:
        return self.local.loaded_vault

    @property
    def rules(self) -> Rules:
        return self.local.rules

    def ask(self, op: Op, **payload: Any) -> dict[str, Any]:
        """The daemon's successful answer; a failed one raises the error it names, and a
        daemon that is not there raises ``DaemonGone``."""
        answer = self._client.request(op, **payload)
        if answer is None:
            raise DaemonGone(f"no daemon answers on {self.state.daemon_socket}", self.local)
        if not answer.get("ok"):
            if answer.get("kind") == BUSY:
                raise DaemonGone(str(answer["error"]), self.local)  # busy: this process does the work
            raise_answer_error(answer)
        return answer

    def recall(self, query: RecallQuery) -> RecallResult:
        started = time.perf_counter()
        answer = self.ask(Op.RECALL, query=query_to_wire(query))
        return result_from_wire(answer["result"], query, (time.perf_counter() - started) * 1000)

    def sync(self, progress: Progress | None = None, *, full: bool = False) -> SyncReport:
        from ..index.plan import SyncReport

        return SyncReport.from_dict(self.ask(Op.REINDEX if full else Op.SYNC)["report"])

    def fresh_snapshot(self) -> AbstractContextManager[Snapshot]:
        # the daemon is the only writer of the indexes: it syncs what its events named since
        # its last sync (nothing walked), this process reads
        self.ask(Op.SYNC, scope="pending")
        return self.local.index.snapshot()

    def embed(self, texts: list[str], *, keep: bool = False) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), MAX_EMBED_TEXTS):
            vectors += self.ask(Op.EMBED, texts=texts[start : start + MAX_EMBED_TEXTS], keep=keep)["vectors"]
        return vectors

    def close(self) -> None:
        self.local.close()
