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


#: the largest answer read (a recall of 1,000 whole memories is a few MB): a peer that
#: sends more without a newline is not a daemon answering a question
MAX_ANSWER_BYTES = 64 << 20


class CutShort(OSError):
    """The daemon stopped answering, or the deadline came, after part of an answer."""


class ForeignSocket(OSError):
    """A socket (or its ``.vmem`` folder) that another user owns: never asked (a shared
    ``/tmp`` or project folder could hold anyone's)."""


def check_owner(path: str) -> None:
    """Refuse a daemon socket, or the folder it is in, that is not this user's."""
    me = os.getuid()
    for where in (path, os.path.dirname(path) or "."):
        owner = os.stat(where).st_uid
        if owner != me:
            raise ForeignSocket(f"{where} belongs to uid {owner}, not to this user; not asked")


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
    check_owner(os.fspath(path))
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
            if sum(len(c) for c in chunks) > MAX_ANSWER_BYTES:
                raise CutShort(f"an answer over {MAX_ANSWER_BYTES >> 20} MiB; not read")
    except OSError as e:
        if chunks:
            raise CutShort(str(e)) from e
        raise
    finally:
        sock.close()
    return b"".join(chunks)
