"""``vmem mcp`` as the console script starts it: a standard-library relay in front of the
SDK's server, so a client's handshake is answered at once.

An agent (headless Claude Code above all) waits for every MCP server to answer
``initialize`` and its lists (tools, prompts, resources) before it begins; importing the ``mcp`` SDK alone took
0.57 s of the 0.66 s ``vmem mcp`` needed for that. The SDK's server builds the same
answers every time, so the relay keeps them, as the SDK wrote them, in
``$XDG_CACHE_HOME/vmem/mcp-handshake.json`` (keyed by the files of vmem and of the SDK
that make them, so an upgrade or an edit makes new ones), answers those from there,
and starts the SDK's server (``python -m vault_memory mcp``) beside it at once. The server
is handed the same ``initialize`` (its answer is dropped) and every other message, and its
answers go back to the client as they are: tool calls keep the SDK's behaviour, schemas and
errors. With no answers kept yet the relay passes everything through and keeps the
server's. SIGINT and SIGTERM end both at once; the server's end ends the relay.

Standard library only, imported before anything else (``fastpath``); it lives beside the
server it fronts (``mcp_server``).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO

#: the answers kept, by method: the handshake and the lists a client asks for before it
#: begins (Claude Code: tools, prompts and resources); none depends on the vault's memories
#: (memories are a resource template, ``memory://{id}``, never listed)
KEPT = ("initialize", "tools/list", "prompts/list", "resources/list", "resources/templates/list")
#: the vault_memory package: every source file of it is in the fingerprint, and its parent is
#: where the server imports vmem from
_PACKAGE = Path(__file__).resolve().parent.parent


def cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "vmem" / "mcp-handshake.json"


def fingerprint() -> str:
    """What the kept answers were made by: every source file of vmem and the SDK's own
    (their sizes and times); another version or an edit gives another fingerprint."""
    digest = hashlib.blake2b(digest_size=12)
    roots = [_PACKAGE]
    try:
        import importlib.util

        spec = importlib.util.find_spec("mcp")
        if spec is not None and spec.origin:
            roots.append(Path(spec.origin).parent)
    except (ImportError, ValueError):
        pass
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            try:
                stat = path.stat()
            except OSError:
                continue
            digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def load_kept(key: str) -> dict[str, Any]:
    """{"initialize <protocolVersion>": result, "tools/list": result} made by these files."""
    try:
        data = json.loads(cache_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("fingerprint") != key or not isinstance(data.get("answers"), dict):
        return {}
    return data["answers"]


def save_kept(key: str, answers: dict[str, Any]) -> None:
    path = cache_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_text(json.dumps({"fingerprint": key, "answers": answers}), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass  # nothing kept: the next start passes the handshake through again


def _name(message: dict[str, Any]) -> str | None:
    """Which kept answer a request asks for: "initialize <version>", "tools/list", or None."""
    method, params = message.get("method"), message.get("params") or {}
    if method == "initialize" and isinstance(params, dict):
        return f"initialize {params.get('protocolVersion')}"
    if method in KEPT and not (isinstance(params, dict) and params.get("cursor")):
        return str(method)
    return None


class Relay:
    def __init__(self, server: subprocess.Popen, out: BinaryIO, key: str):
        self.server = server
        self.out = out
        self.key = key
        self.kept = load_kept(key)
        self.writing = threading.Lock()
        #: ids of requests answered here whose server answer is dropped
        self.dropped: set[Any] = set()
        #: ids of requests whose server answer is kept for the next start, by name
        self.keeping: dict[Any, str] = {}
        self.watching = threading.Lock()

    def write(self, line: bytes) -> None:
        with self.writing:
            self.out.write(line if line.endswith(b"\n") else line + b"\n")
            self.out.flush()

    def from_client(self, line: bytes) -> None:
        """One message from the client: answered here when it is a kept answer's question
        (and, for ``initialize``, passed on too: the server needs its handshake), else
        passed on."""
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        name = _name(message) if isinstance(message, dict) and "id" in message else None
        if name is not None and name in self.kept:
            assert isinstance(message, dict)
            answer = {"jsonrpc": "2.0", "id": message["id"], "result": self.kept[name]}
            self.write(json.dumps(answer, separators=(",", ":")).encode())
            if name.startswith("initialize"):
                with self.watching:
                    self.dropped.add(message["id"])
                self.to_server(line)
            return
        if name is not None and isinstance(message, dict):
            with self.watching:
                self.keeping[message["id"]] = name
        self.to_server(line)

    def to_server(self, line: bytes) -> None:
        stdin = self.server.stdin
        assert stdin is not None
        try:
            stdin.write(line if line.endswith(b"\n") else line + b"\n")
            stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # the server is gone: its end ends the relay

    def from_server(self, line: bytes) -> None:
        """One message from the server: passed on, unless its question was answered here;
        an answer worth keeping is kept."""
        with self.watching:
            watched = bool(self.dropped or self.keeping)
        if watched:
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            if isinstance(message, dict) and "id" in message and "method" not in message:
                with self.watching:
                    if message["id"] in self.dropped:
                        self.dropped.discard(message["id"])
                        return
                    name = self.keeping.pop(message["id"], None)
                if name is not None and isinstance(message.get("result"), dict):
                    self.kept[name] = message["result"]
                    save_kept(self.key, dict(self.kept))
        self.write(line)


def server_command(args: list[str]) -> list[str]:
    """The SDK's server, in a Python that imports vmem from where this relay came from."""
    return [sys.executable, "-m", "vault_memory", "mcp", *args]


def relay(args: list[str]) -> int:
    """Serve ``vmem mcp ARGS`` over this process's stdio: the exit status."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_PACKAGE.parent), env.get("PYTHONPATH")) if p)
    server = subprocess.Popen(server_command(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    out = sys.stdout.buffer

    def stop(signum: int, frame: Any) -> None:
        """SIGINT / SIGTERM: the server ends too, and neither waits (a client's grace period
        is short: Claude Code gives 100 ms)."""
        try:
            server.terminate()
        except OSError:
            pass
        os._exit(0)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    bridge = Relay(server, out, fingerprint())

    def pump() -> None:
        assert server.stdout is not None
        for line in iter(server.stdout.readline, b""):
            bridge.from_server(line)
        code = server.wait()
        out.flush()
        os._exit(code)  # the server ended (its stderr said why): so does the relay

    threading.Thread(target=pump, name="vmem-mcp-relay", daemon=True).start()
    stdin = sys.stdin.buffer
    for line in iter(stdin.readline, b""):
        if line.strip():
            bridge.from_client(line)
    try:  # the client closed its end: the server finishes what it was asked, then ends
        assert server.stdin is not None
        server.stdin.close()
    except OSError:
        pass
    try:
        return server.wait(timeout=5)
    except subprocess.TimeoutExpired:
        server.terminate()
        return 0
