"""Talking to a vault's daemon over its Unix socket: newline-delimited JSON, one request
per connection. Standard library only, so a `vmem recall` answered by the daemon starts
fast. Every call returns None when no daemon answers; callers then do the work in-process.
"""

from __future__ import annotations

import json
import os
import socket
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

SOCKET_NAME = "daemon.sock"
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
    def __init__(self, state_dir: Path, timeout: float = 300.0):
        self.path = state_dir / SOCKET_NAME
        self.timeout = timeout

    def request(self, op: str, **payload: Any) -> dict[str, Any] | None:
        """The daemon's answer, or None when no daemon is listening."""
        if not self.path.exists():
            return None
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            with socket_address(self.path) as address:
                sock.connect(address)
            sock.sendall(json.dumps({"op": op, **payload}).encode("utf-8") + b"\n")
            chunks = []
            while True:
                chunk = sock.recv(1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
                if chunk.endswith(b"\n"):
                    break
        except (ConnectionRefusedError, FileNotFoundError, socket.timeout, OSError):
            return None
        finally:
            sock.close()
        if not chunks:
            return None
        return json.loads(b"".join(chunks))

    def available(self) -> bool:
        answer = self.request("ping")
        return bool(answer and answer.get("ok"))
