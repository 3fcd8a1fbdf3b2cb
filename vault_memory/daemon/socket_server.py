"""Where the daemon listens: one JSON request line in, one answer line out, on a thread per
connection. Every client is bounded (its request whole within a deadline and a size, at
most ``MAX_CONNECTIONS`` at once, an answer it never reads let go); what a request means is
the daemon's (``handle``).

Two transports (``daemonlink.ipc``): a Unix socket born readable by its owner alone
(``posix``), or a loopback TCP port any local user could reach (``portable``, what Windows
has), where each request proves it knows the key in an address file only this user reads,
and each answer proves it back (``daemonlink.proof``)."""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import secrets
import socket
import socketserver
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import safejson
from ..backend.protocol import BUSY, Op, error_answer
from ..daemonlink import MAX_SOCKET_PATH, PORTABLE, at_address, dumps, proof
from ..errors import VaultError
from ..vault.fsutil import atomic_write

log = logging.getLogger("vmem.daemon")

#: bounds on what one client may cost the daemon
MAX_REQUEST_BYTES = 1 << 20
MAX_CONNECTIONS = 32
#: a request must arrive whole within this (a slow or idle client is let go, not kept)
REQUEST_TIMEOUT_SECONDS = 10.0
#: how long a connection over MAX_CONNECTIONS is read, to answer a ping or a status anyway
BUSY_READ_SECONDS = 0.5

Handle = Callable[[dict[str, Any]], dict[str, Any]]


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = MAX_CONNECTIONS


class _TcpServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    #: never: on Windows it would let another program bind the same port
    allow_reuse_address = False
    request_queue_size = MAX_CONNECTIONS


class Listening:
    """A running server and what it published: the socket, or the address file (with the
    port and the key requests prove)."""

    def __init__(self, server: socketserver.BaseServer, path: Path, port: int | None = None, key: str | None = None):
        self.server, self.path, self.port, self.key = server, path, port, key


def serve(path: Path, handle: Handle, transport: str = "posix", address: Path | None = None) -> Listening:
    """Listen (``posix``: on the Unix socket ``path``, replacing a stale one; ``portable``:
    on a loopback port, published in ``address``) and answer each request with ``handle``,
    on a thread of its own; returns what is listening (``stop`` ends it)."""
    slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
    key = secrets.token_hex(32) if transport == PORTABLE else None

    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            busy = not slots.acquire(blocking=False)
            try:
                # full: a quick look at what is asked; ping and status are answered anyway
                # (they cost nothing), anything else is told to work elsewhere
                request = _read_request(self.request, BUSY_READ_SECONDS if busy else REQUEST_TIMEOUT_SECONDS)
                if request is None:
                    return
                nonce = None
                if key is not None and not request.get("bad"):
                    nonce = _admitted(request, key)
                    if nonce is None:
                        _answer(
                            self.request, {"ok": False, "error": "no proof of this vault's key", "kind": "DaemonError"}
                        )
                        return
                if request.pop("bad", False):
                    answer: dict[str, Any] | None = request
                elif busy and request.get("op") not in (Op.PING, Op.STATUS):
                    answer = {"ok": False, "error": "the daemon is busy (too many connections)", "kind": BUSY}
                else:
                    answer = _handled(request, handle)
                if answer is not None and nonce is not None and key is not None:
                    answer["proof"] = proof(key, "daemon", nonce)
                _answer(self.request, answer)
            finally:
                if not busy:
                    slots.release()

    if transport == PORTABLE:
        assert address is not None and key is not None
        tcp = _TcpServer(("127.0.0.1", 0), Handler)
        port = int(tcp.server_address[1])
        # readable by its owner alone (born so: an old one is removed, not replaced, so its
        # mode is not kept): whoever reads the key may ask for the memories
        address.unlink(missing_ok=True)
        record = dumps({"port": port, "key": key, "pid": os.getpid()}) + "\n"
        atomic_write(address, record, new_mode=0o600, durable=False)
        threading.Thread(target=tcp.serve_forever, name="vmem-socket", daemon=True).start()
        return Listening(tcp, address, port, key)
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    old_umask = os.umask(0o177)  # the socket is born 0600: other users cannot read memories
    try:
        server = at_address(lambda address: _Server(address, Handler), path)
    finally:
        os.umask(old_umask)
    os.chmod(path, 0o600)
    threading.Thread(target=server.serve_forever, name="vmem-socket", daemon=True).start()
    return Listening(server, path)


def stop(listening: Listening) -> None:
    """End ``serve``'s server. socketserver's ``shutdown`` waits for its loop's next poll
    (half a second, most of a `vmem daemon stop`); a connection of our own wakes the loop
    at once (an empty one: nothing is answered). A path too long to connect to without
    changing folder (``at_address``) is waited for as before."""
    server, path = listening.server, listening.path
    ending = threading.Thread(target=server.shutdown, name="vmem-socket-stop")
    ending.start()
    while ending.is_alive() and (listening.port is not None or len(os.fspath(path)) <= MAX_SOCKET_PATH):
        with contextlib.suppress(OSError):
            if listening.port is not None:
                socket.create_connection(("127.0.0.1", listening.port), timeout=0.5).close()
            else:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as waker:
                    waker.settimeout(0.5)
                    waker.connect(os.fspath(path))
        ending.join(0.05)
    ending.join()
    server.server_close()


def _admitted(request: dict[str, Any], key: str) -> str | None:
    """The request's nonce when it proves it knows ``key`` (the proof taken off), else None."""
    nonce, given = request.pop("nonce", None), request.pop("proof", None)
    if not isinstance(nonce, str) or not isinstance(given, str) or not 16 <= len(nonce) <= 128:
        return None
    return nonce if hmac.compare_digest(given, proof(key, "client", nonce)) else None


def _read_request(sock: Any, seconds: float) -> dict[str, Any] | None:
    """The request line, whole within ``seconds`` (a client trickling a byte at a time is
    let go at the deadline, not kept forever), parsed; an error answer for a bad one
    (marked ``bad``); None when nothing came."""
    deadline = time.monotonic() + seconds
    data = bytearray()
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or len(data) > MAX_REQUEST_BYTES:
            break
        sock.settimeout(left)
        try:
            chunk = sock.recv(1 << 16)
        except OSError:  # timed out, or the client went away
            break
        if not chunk:
            break
        data += chunk
    if not data:
        return None
    if len(data) > MAX_REQUEST_BYTES or not data.endswith(b"\n"):
        why = f"request over {MAX_REQUEST_BYTES} bytes" if len(data) > MAX_REQUEST_BYTES else "request cut short"
        return {"ok": False, "error": why, "kind": "DaemonError", "bad": True}
    try:
        request = safejson.loads(bytes(data))
        if not isinstance(request, dict):
            raise ValueError("not a JSON object")
    except ValueError as e:
        log.warning("malformed request: %s", e)
        return {"ok": False, "error": f"malformed request: {e}", "kind": "DaemonError", "bad": True}
    return request


def _handled(request: dict[str, Any], handle: Handle) -> dict[str, Any]:
    """One request's answer; a request that fails is an error answer, never a dead thread."""
    try:
        return handle(request)
    except VaultError as e:
        return error_answer(e)
    except (KeyError, TypeError, ValueError) as e:
        log.warning("bad request %r: %s", request.get("op"), e)
        return {"ok": False, "error": f"bad request: {e}", "kind": "DaemonError"}
    except Exception as e:
        log.exception("request failed")
        return error_answer(e)


def _answer(sock: Any, answer: dict[str, Any] | None) -> None:
    if answer is None:
        return
    try:
        sock.settimeout(REQUEST_TIMEOUT_SECONDS)  # a client that never reads is let go
        sock.sendall(json.dumps(answer, ensure_ascii=False).encode("utf-8") + b"\n")
    except OSError:
        pass  # the client went away
