"""The seam between the verbs and where their work runs: one ``Backend`` protocol.

httpx's ``Client`` takes one transport at construction and never asks "is there a
transport?" in each method; vmem's façade and write rules likewise take one backend,
chosen once by ``vault_memory.open()`` (``backend.choose``):

- ``LocalBackend`` (``local``): the index and the engine in this process; the model is loaded
  on first use. The daemon hosts one too, given its own freshness policy (``Freshness``:
  the events it noted, the snapshot it publishes; ``daemon.EventFreshness``).
- ``DaemonBackend`` (``remote``): the vault's daemon over its socket, warm. When the
  daemon stops answering it raises ``DaemonGone`` once, and the façade carries on with
  the ``LocalBackend`` it holds for that moment: a whole switch, never per method.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from ..config import Config, StateLayout
from ..errors import DaemonError

if TYPE_CHECKING:
    from ..index.plan import Progress, SyncReport
    from ..index.snapshot import Snapshot
    from ..lifecycle import Rules
    from ..recall.results import RecallQuery, RecallResult
    from ..vault.vault import Vault

#: who did the work
Where = Literal["daemon", "in-process"]


class DaemonGone(DaemonError):
    """The daemon this backend spoke to stopped answering (no socket, refused, silent,
    busy). Caught by the façade, which carries on with ``fallback`` for good; never
    reaches a caller."""

    def __init__(self, message: str, fallback: Backend):
        super().__init__(message)
        self.fallback = fallback


class Backend(Protocol):
    """Where a vault's indexes are read and written, and where its model runs."""

    root: Path
    config: Config
    state: StateLayout
    where: Where

    @property
    def vault(self) -> Vault:
        """The vault's files (the same in every backend: files are read and written here)."""
        ...

    @property
    def loaded_vault(self) -> Vault | None:
        """The vault if something has used it yet (asking does not load it)."""
        ...

    @property
    def rules(self) -> Rules:
        """The lifecycle rules of this vault's vmem.toml."""
        ...

    def recall(self, query: RecallQuery) -> RecallResult:
        """``query`` ranked on indexes brought up to date with the files."""
        ...

    def sync(self, progress: Progress | None = None, *, full: bool = False) -> SyncReport:
        """Bring the indexes up to date (``full``: rebuild them from the files)."""
        ...

    def fresh_snapshot(self) -> AbstractContextManager[Snapshot]:
        """A consistent read view of indexes that match the files (the write rules read it)."""
        ...

    def embed(self, texts: list[str], *, keep: bool = False) -> list[list[float]]:
        """Unit vectors of ``texts`` in the vault's embedding space; ``keep``: texts about to
        be written, whose token vectors the next sync may take instead of embedding again."""
        ...

    def close(self) -> None:
        """Release what was loaded."""
        ...
