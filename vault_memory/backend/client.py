"""Talking to a vault's daemon over its Unix socket (see ``protocol``). Standard library
only, so a `vmem recall` answered by the daemon starts fast. ``request`` returns None when
no daemon is listening; callers then do the work in-process.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .. import safejson
from ..errors import DaemonError
from .protocol import Op

#: sun_path holds 107 bytes on Linux; longer paths are reached through the folder instead
_MAX_SOCKET_PATH = 100


@contextmanager
def socket_address(path: Path) -> Iterator[str]:
    """An address for ``path`` that fits in sun_path: the path itself, or its name relative
    to its folder while the process sits in that folder (the CLI and the daemon's start-up
    are single-threaded when they bind or connect)."""
    if len(str(path)) <= _MAX_SOCKET_PATH:
        yield str(path)
        return
    previous = os.getcwd()
    os.chdir(path.parent)
    try:
        yield path.name
    finally:
        os.chdir(previous)


class DaemonClient:
    """``timeout`` bounds a whole request: a daemon that trickles its answer a byte at a
    time is given up on at the deadline, not kept for as long as it keeps trickling."""

    def __init__(self, socket_path: Path, timeout: float = 300.0):
        self.path = socket_path
        self.timeout = timeout

    def request(self, op: Op, **payload: Any) -> dict[str, Any] | None:
        """The daemon's answer, or None when no daemon is listening. An answer cut short or
        unreadable raises ``DaemonError``."""
        if not self.path.exists():
            return None
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        deadline = time.monotonic() + self.timeout  # for the whole answer, not each read
        chunks: list[bytes] = []
        try:
            with socket_address(self.path) as address:
                sock.connect(address)
            sock.sendall(json.dumps({"op": op.value, **payload}).encode("utf-8") + b"\n")
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no whole answer within {self.timeout:g} s")
                sock.settimeout(left)
                chunk = sock.recv(1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
                if chunk.endswith(b"\n"):
                    break
        except (ConnectionRefusedError, FileNotFoundError):
            return None
        except OSError as e:  # timeouts included
            if not chunks:
                return None
            raise DaemonError(f"the daemon stopped answering: {e}") from None
        finally:
            sock.close()
        if not chunks:
            return None
        try:
            answer = safejson.loads(b"".join(chunks))
        except ValueError:
            raise DaemonError(
                f"the daemon's answer to {op.value!r} was cut short or unreadable; see .vmem/daemon.log"
            ) from None
        if not isinstance(answer, dict):
            raise DaemonError(f"the daemon answered {op.value!r} with something that is not an answer")
        return answer

    def available(self) -> bool:
        try:
            answer = self.request(Op.PING)
        except DaemonError:
            return False
        return bool(answer and answer.get("ok"))
