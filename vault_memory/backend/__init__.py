"""Where a verb's work runs: the ``Backend`` protocol (``base``), in this process
(``local``) or in the vault's daemon (``remote``), and everything a client needs to speak
to a daemon: the wire protocol, the socket client, starting and stopping it (``control``).

``choose`` picks one backend for a vault, once, when it is opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Config, StateLayout
from .base import Backend, DaemonGone, Where
from .local import LocalBackend

if TYPE_CHECKING:
    from ..index.embedder import Embedder
    from ..index.plan import Progress

__all__ = ["Backend", "DaemonGone", "LocalBackend", "Where", "choose"]

#: how long a request may wait on the daemon (a reindex of a large vault takes minutes)
DAEMON_TIMEOUT_SECONDS = 120.0


def choose(
    root: Path,
    config: Config,
    *,
    embedder: Embedder | None = None,
    use_daemon: bool = True,
    progress: Progress | None = None,
) -> Backend:
    """The daemon's backend when its socket is there (asking it costs a request; whether it
    answers is learned on the first one), else this process's (``progress``: see
    ``LocalBackend``)."""
    local = LocalBackend(root, config, embedder=embedder, progress=progress)
    state = StateLayout.of(root)
    if use_daemon and state.daemon_published():
        from .client import DaemonClient
        from .remote import DaemonBackend

        return DaemonBackend(local, DaemonClient(state.daemon_socket, timeout=DAEMON_TIMEOUT_SECONDS))
    return local
