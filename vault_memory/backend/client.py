"""Talking to a vault's daemon over whichever transport it published (see ``protocol``; the
exchange itself is ``daemonlink``). Standard library only, so a `vmem recall` answered by the daemon starts
fast. ``request`` returns None when no daemon is listening; callers then do the work
in-process.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..daemonlink import CutShort, ask, published
from ..errors import DaemonError
from .protocol import WRONG_VAULT, Op


class DaemonClient:
    """``timeout`` bounds a whole request: a daemon that trickles its answer a byte at a
    time is given up on at the deadline, not kept for as long as it keeps trickling."""

    def __init__(self, socket_path: Path, timeout: float = 300.0):
        """``socket_path``: the vault's ``.vmem/daemon.sock`` (``StateLayout.daemon_socket``),
        which names the vault; a daemon on the portable transport is found beside it."""
        self.path = socket_path
        self.vault = socket_path.parent.parent
        self.timeout = timeout

    def request(self, op: Op, **payload: Any) -> dict[str, Any] | None:
        """The daemon's answer, or None when no daemon is listening. An answer cut short or
        unreadable raises ``DaemonError``."""
        if not published(self.vault):
            return None
        try:  # it names the vault it asks about: a socket linked to another vault's daemon is told apart
            answer = ask(self.vault, {"op": op.value, **payload}, self.timeout)
        except CutShort as e:
            raise DaemonError(f"the daemon stopped answering: {e}") from None
        except OSError:  # nobody listening, one that is not the daemon, or no answer before the deadline
            return None
        except ValueError:
            raise DaemonError(
                f"the daemon's answer to {op.value!r} was cut short or unreadable; see .vmem/daemon.log"
            ) from None
        if not isinstance(answer, dict):
            raise DaemonError(f"the daemon answered {op.value!r} with something that is not an answer")
        if answer.get("kind") == WRONG_VAULT:
            return None  # another vault's daemon: none serves this vault
        return answer
