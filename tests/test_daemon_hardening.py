"""The daemon under hostile conditions: failed syncs, abusive clients, its state deleted,
and a model that cannot load (issue "Never lose a memory", items 7, 15, 21, 23)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

import pytest
from conftest import use_hash_embedder, write
from test_daemon import RunningDaemon, wait

import vault_memory as vmem
from vault_memory.backend.client import DaemonClient
from vault_memory.backend.protocol import Op
from vault_memory.config import StateLayout
from vault_memory.errors import EmbedderError


@pytest.fixture
def vault_dir(vault_dir):
    return use_hash_embedder(vault_dir)


def raw_request(vault_dir, payload: bytes, timeout: float = 20.0) -> dict | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.connect(str(vault_dir / ".vmem" / "daemon.sock"))
    try:
        try:
            sock.sendall(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the daemon stopped reading an oversized request: its answer is still there
        data = b""
        while not data.endswith(b"\n"):
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            data += chunk
    finally:
        sock.close()
    return json.loads(data) if data else None


def test_a_failed_sync_keeps_its_changes_and_is_retried(vault_dir):
    """Item 7: the pending count used to be cleared before the sync ran, so a change that
    arrived during a failing sync was never indexed."""
    from vault_memory.daemon.server import Daemon
    from vault_memory.index.locks import file_lock
    from vault_memory.recall.engine import Engine
    from vault_memory.vault.vault import Vault

    vault = Vault(vault_dir)
    daemon = Daemon(vault, debounce=0.05, engine=Engine(vault, lock_timeout=0.2))
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        assert wait(daemon.ready.is_set, 60)
        with file_lock(vault.state.index / "write.lock"):  # every sync fails meanwhile
            write(vault_dir / "facts" / "late.md", "---\nid: late\n---\nThe user plays the theremin\n")
            assert wait(lambda: daemon.failures >= 2, 30) and daemon.pending > 0
        assert wait(lambda: daemon.status()["memories_indexed"] == 7, 60)  # no new event needed
        assert daemon.failures == 0 and daemon.pending == 0
    finally:
        daemon.stop()
        thread.join(60)


def test_the_socket_bounds_what_one_client_may_cost(vault_dir):
    """Item 21: oversized and malformed requests get a clean error; idle connections are
    capped and let go; the daemon logs no traceback for any of it."""
    d = RunningDaemon(vault_dir).start()
    try:
        big = raw_request(vault_dir, b'{"op": "ping", "pad": "' + b"x" * (3 << 20) + b'"}\n')
        assert big == {"ok": False, "error": f"request over {1 << 20} bytes", "kind": "DaemonError"}
        for garbage in (b"not json\n", b"[1, 2]\n", b'{"op": "recall"}\n', b'{"op": "bogus"}\n'):
            answer = raw_request(vault_dir, garbage)
            assert answer is not None and answer["ok"] is False, garbage
        idle = []
        for _ in range(40):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(str(vault_dir / ".vmem" / "daemon.sock"))
            idle.append(s)
        time.sleep(0.5)
        threads = len(os.listdir(f"/proc/{d.proc.pid}/task"))
        assert threads < 32 + 20
        busy = raw_request(vault_dir, b'{"op": "ping"}\n')
        assert busy["ok"] is False and "busy" in busy["error"]
        assert wait(lambda: (raw_request(vault_dir, b'{"op": "ping"}\n') or {}).get("ok"), 30)  # idle ones let go
        for s in idle:
            s.close()
        assert d.proc.poll() is None
    finally:
        d.stop()
    assert "Traceback" not in (vault_dir / ".vmem" / "daemon.log").read_text()


def test_deleting_the_state_folder_stops_the_daemon_cleanly(vault_dir):
    """Item 23: with .vmem/ deleted, a second daemon could start beside the first, and the
    first could no longer be stopped."""
    d = RunningDaemon(vault_dir).start()
    shutil.rmtree(vault_dir / ".vmem")
    assert wait(lambda: d.proc.poll() is not None, 30)
    second = RunningDaemon(vault_dir).start()
    try:
        assert second.status()["pid"] == second.proc.pid
        assert vmem.open(vault_dir).recall("peanuts", include_pinned=False).answered_by == "daemon"
    finally:
        second.stop()


class UnloadableEmbedder:
    """The embedder of an index whose model can no longer be loaded (its files are gone)."""

    model_id = "hash-64"
    languages = None
    dim = 64

    def embed(self, texts):
        raise EmbedderError("embedding model 'x' is not available offline")

    def tokenizer(self):
        return None


def test_a_model_that_cannot_load_leaves_recall_keyword_only_and_says_so(vault_dir):
    """Item 15: every recall used to fail (after ~40 s of download retries)."""
    vmem.open(vault_dir).sync()
    result = vmem.open(vault_dir, embedder=UnloadableEmbedder(), use_daemon=False).recall("peanuts")
    assert "peanuts" in result.block
    assert any("keyword-only" in w for w in result.to_dict()["warnings"])


def test_an_uncached_model_fails_at_once_with_the_fix(tmp_path):
    from vault_memory.index.embedder import FastEmbedEmbedder

    started = time.monotonic()
    with pytest.raises(EmbedderError, match="downloads nothing at run time"):
        FastEmbedEmbedder("sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2", tmp_path).embed(["x"])
    assert time.monotonic() - started < 20


def test_racing_starts_leave_one_daemon_and_tell_the_truth(vault_dir):
    """Smaller defect: racing `daemon start` commands each printed "started" with their own,
    already-dead pid."""
    env = dict(os.environ, VMEM_VAULT=str(vault_dir))
    cmd = [sys.executable, "-m", "vault_memory", "daemon", "start"]
    procs = [
        subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    try:
        status = DaemonClient(StateLayout.of(vault_dir).daemon_socket).request(Op.STATUS)
        assert status and status["ok"]
        pid = status["status"]["pid"]
        for out, _err in outs:
            assert f"(pid {pid})" in out, outs
    finally:
        subprocess.run([sys.executable, "-m", "vault_memory", "daemon", "stop"], env=env, timeout=120)
