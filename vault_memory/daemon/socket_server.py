"""The daemon's Unix socket: one JSON request line in, one answer line out, on a thread per
connection. Every client is bounded (its request whole within a deadline and a size, at
most ``MAX_CONNECTIONS`` at once, an answer it never reads let go), and the socket is born
readable by its owner alone; what a request means is the daemon's (``handle``)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import socketserver
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import safejson
from ..backend.protocol import BUSY, Op, error_answer
from ..daemonlink import MAX_SOCKET_PATH, at_address
from ..errors import VaultError

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


def serve(path: Path, handle: Handle) -> socketserver.BaseServer:
    """Listen on ``path`` (replacing a stale socket) and answer each request with
    ``handle``, on a thread of its own; returns the running server (``shutdown`` ends it)."""
    slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            if not slots.acquire(blocking=False):
                # full: a quick look at what is asked; ping and status are answered anyway
                # (they cost nothing), anything else is told to work elsewhere
                request = _read_request(self.request, BUSY_READ_SECONDS)
                if isinstance(request, dict) and request.get("op") in (Op.PING, Op.STATUS):
                    _answer(self.request, handle(request))
                else:
                    _answer(
                        self.request, {"ok": False, "error": "the daemon is busy (too many connections)", "kind": BUSY}
                    )
                return
            try:
                _answer(self.request, _serve_one(self.request, handle))
            finally:
                slots.release()

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
    return server


def stop(server: socketserver.BaseServer, path: Path) -> None:
    """End ``serve``'s server. socketserver's ``shutdown`` waits for its loop's next poll
    (half a second, most of a `vmem daemon stop`); a connection of our own wakes the loop
    at once (an empty one: nothing is answered). A path too long to connect to without
    changing folder (``at_address``) is waited for as before."""
    ending = threading.Thread(target=server.shutdown, name="vmem-socket-stop")
    ending.start()
    while ending.is_alive() and len(os.fspath(path)) <= MAX_SOCKET_PATH:
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as waker:
            waker.settimeout(0.5)
            waker.connect(os.fspath(path))
        ending.join(0.05)
    ending.join()
    server.server_close()


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


def _serve_one(sock: Any, handle: Handle) -> dict[str, Any] | None:
    """One request's answer; a request that fails is an error answer, never a dead thread."""
    request = _read_request(sock, REQUEST_TIMEOUT_SECONDS)
    if request is None or request.pop("bad", False):
        return request
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
