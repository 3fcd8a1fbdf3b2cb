"""One request line to a vault's daemon and its one answer line, over its Unix socket,
with the standard library only: the CLI's client (``backend.client``) and `vmem recall`'s
fast path both speak through it."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager

#: sun_path holds 107 bytes on Linux; longer paths are reached through the folder instead
_MAX_SOCKET_PATH = 100


class CutShort(OSError):
    """The daemon stopped answering, or the deadline came, after part of an answer."""


@contextmanager
def socket_address(path: str | os.PathLike[str]) -> Iterator[str]:
    """An address for ``path`` that fits in sun_path: the path itself, or its name relative
    to its folder while the process sits in that folder (the CLI and the daemon's start-up
    are single-threaded when they bind or connect)."""
    full = os.fspath(path)  # no pathlib: the fast path does not import it
    if len(full) <= _MAX_SOCKET_PATH:
        yield full
        return
    previous = os.getcwd()
    os.chdir(os.path.dirname(full))
    try:
        yield os.path.basename(full)
    finally:
        os.chdir(previous)


def exchange(path: str | os.PathLike[str], request: bytes, seconds: float) -> bytes:
    """Send ``request`` (one line) and return the answer's bytes (up to its newline, or all
    the peer sent before closing), within ``seconds`` for the whole exchange: a peer that
    trickles bytes is let go at the deadline. Raises ``OSError`` when nobody answers
    (``ConnectionRefusedError``, ``FileNotFoundError``, ``TimeoutError``) and ``CutShort``
    when the answer stopped part-way."""
    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(seconds)
        with socket_address(path) as address:
            sock.connect(address)
        sock.sendall(request)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no whole answer within {seconds:g} s")
            sock.settimeout(left)
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            if chunk.endswith(b"\n"):
                break
    except OSError as e:
        if chunks:
            raise CutShort(str(e)) from e
        raise
    finally:
        sock.close()
    return b"".join(chunks)
