"""The sync daemon as a real process on a temporary vault.

Timeouts below bound how long a test waits before it fails; they are not speed claims
(those live in benchmarks/daemon.py).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import VMEM, Cli, RunningDaemon, proved, raw_connect, use_hash_embedder, wait, write

import vault_memory as vmem
from vault_memory.backend.client import DaemonClient
from vault_memory.backend.control import is_running
from vault_memory.backend.protocol import Op, query_to_wire
from vault_memory.config import StateLayout
from vault_memory.errors import EmbedderError
from vault_memory.index.generations import IndexLayout
from vault_memory.index.snapshot import Snapshot
from vault_memory.recall.results import RecallQuery
from vault_memory.vault.template import create_vault

PEANUTS = "2026-10-02-allergy-peanuts-4be810"


@pytest.fixture
def vault_dir(vault_dir):
    """These tests exercise watching, syncing and serving: the deterministic embedder will
    do (the ones that need the real model ask for ``model_vault_dir``)."""
    return use_hash_embedder(vault_dir)


@pytest.fixture(scope="module")
def model_vault_dir(tmp_path_factory):
    return create_vault(tmp_path_factory.mktemp("model") / "model-vault")


@pytest.fixture(scope="module")
def model_daemon(model_vault_dir):
    """One daemon on the real model, shared by the tests that only add to its vault."""
    d = RunningDaemon(model_vault_dir).start()
    yield d
    d.stop()


@pytest.fixture(scope="module")
def shared_vault_dir(tmp_path_factory):
    return use_hash_embedder(create_vault(tmp_path_factory.mktemp("shared") / "vault"))


@pytest.fixture(scope="module")
def shared_daemon(shared_vault_dir):
    """One daemon shared by the tests that only read."""
    d = RunningDaemon(shared_vault_dir).start()
    yield d
    d.stop()


@pytest.fixture
def daemon(vault_dir):
    d = RunningDaemon(vault_dir).start()
    yield d
    d.stop()


def eventually_recalled(daemon: RunningDaemon, query: str, needle: str, present: bool = True) -> bool:
    """Writes are picked up by the watcher alone: poll status until the queue drains, then ask."""

    def check():
        found = any(needle in t for t in daemon.texts(query))
        return found is present

    return wait(check)


def test_in_place_write(daemon, vault_dir):
    path = vault_dir / "facts" / f"{PEANUTS}.md"
    with open(path, "r+", encoding="utf-8") as f:
        text = f.read().replace("allergic to peanuts", "allergic to kiwi fruit")
        f.seek(0)
        f.write(text)
        f.truncate()
    assert eventually_recalled(daemon, "kiwi allergy", "kiwi fruit")


def test_atomic_rename_save(daemon, vault_dir):
    path = vault_dir / "facts" / f"{PEANUTS}.md"
    tmp = path.with_name(f".{path.name}.tmp123")
    tmp.write_text(path.read_text().replace("allergic to peanuts", "allergic to sesame"))
    os.replace(tmp, path)
    assert eventually_recalled(daemon, "sesame allergy", "sesame")
    assert not any("allergic to peanuts" in t for t in daemon.texts("peanuts allergy"))


def test_vim_backup_and_rename_dance(daemon, vault_dir):
    path = vault_dir / "facts" / f"{PEANUTS}.md"
    content = path.read_text()
    backup = path.with_name(path.name + "~")
    os.rename(path, backup)
    (vault_dir / "facts" / "4913").write_text("")  # vim's write test
    os.unlink(vault_dir / "facts" / "4913")
    path.write_text(content.replace("allergic to peanuts", "allergic to mustard"))
    os.unlink(backup)
    assert eventually_recalled(daemon, "mustard allergy", "mustard")


def test_delete_rename_file_and_folder_and_new_folder(daemon, vault_dir):
    peanuts = vault_dir / "facts" / f"{PEANUTS}.md"
    moved = vault_dir / "facts" / "health.md"
    os.rename(peanuts, moved)
    assert wait(lambda: any(m["path"] == "facts/health.md" for m in daemon.recall("peanut allergy")))
    os.rename(vault_dir / "facts", vault_dir / "known")
    assert wait(lambda: any(m["path"] == "known/health.md" for m in daemon.recall("peanut allergy")))
    (vault_dir / "known" / "health.md").unlink()
    assert eventually_recalled(daemon, "peanut allergy", "allergic to peanuts", present=False)
    write(
        vault_dir / "projects" / "vmem" / "plan.md",
        "---\nid: plan-1\ntype: fact\n---\nThe vmem launch is planned for March\n",
    )
    assert eventually_recalled(daemon, "when is the launch?", "planned for March")


def test_ignored_paths_do_not_become_memories(daemon, vault_dir):
    (vault_dir / ".gitignore").write_text(".vmem/\nprivate/\n")
    write(vault_dir / "private" / "secret.md", "---\nid: secret-1\n---\nThe safe code is 4321\n")
    write(vault_dir / ".obsidian" / "workspace.md", "The safe code is 9999\n")
    write(vault_dir / "facts" / "visible.md", "---\nid: visible-1\n---\nThe bike lock code is 1234\n")
    assert eventually_recalled(daemon, "what is the code?", "bike lock code")
    assert not any("safe code" in t for t in daemon.texts("what is the safe code?"))


def test_burst_is_coalesced_into_few_batches(daemon, vault_dir):
    for i in range(300):
        write(
            vault_dir / "episodes" / f"burst-{i:03d}.md",
            f"---\nid: burst-{i}\ntype: fact\n---\nBurst memory number {i} about topic {i % 7}\n",
        )
    assert wait(
        lambda: (daemon.status() or {}).get("memories_indexed") == 306 and daemon.status()["queue_length"] == 0, 120
    )
    log = (vault_dir / ".vmem" / "daemon.log").read_text()
    batches = [line for line in log.splitlines() if "synced:" in line]
    assert 1 < len(batches) < 30  # the initial reconcile, then the burst in a few batches, not 300


@pytest.mark.slow
def test_restart_after_sigkill_during_a_batch_recovers(vault_dir):
    d = RunningDaemon(vault_dir).start()
    for i in range(200):
        write(
            vault_dir / "episodes" / f"k-{i:03d}.md",
            f"---\nid: k-{i}\ntype: fact\n---\nKill test memory {i} mentions token zq{i}x\n",
        )
    time.sleep(0.4)  # the batch is being embedded now
    d.kill()
    assert not is_running(StateLayout.of(vault_dir))
    d = RunningDaemon(vault_dir).start()
    try:
        files = len(list(vault_dir.rglob("*.md"))) - 1  # README.md is not a memory
        assert wait(lambda: (d.status() or {}).get("memories_indexed") == files, 120)
        with Snapshot(IndexLayout(StateLayout.of(vault_dir))) as snap:
            assert snap.catalog.count() == files
            assert snap.keyword.doc_count() == files
            assert snap.live_chunks == files
            labels = list(snap.catalog.label_paths())
            assert len(set(labels)) == len(labels)
        for i in (0, 99, 199):
            hits = [m["id"] for m in d.recall(f"zq{i}x", legs=("keyword",))]
            assert hits[:1] == [f"k-{i}"] and hits.count(f"k-{i}") == 1
    finally:
        d.stop()


def test_stale_pid_file_does_not_block_and_one_daemon_per_vault(vault_dir):
    (vault_dir / ".vmem").mkdir(exist_ok=True)
    (vault_dir / ".vmem" / "daemon.pid").write_text("999999\n")
    d = RunningDaemon(vault_dir).start()
    try:
        second = subprocess.run(
            [sys.executable, "-m", "vault_memory", "daemon", "run", "--quiet", "--vault", str(vault_dir)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1 and "already running" in second.stderr
        assert d.status()["pid"] == d.proc.pid
    finally:
        d.stop()
    assert not (vault_dir / ".vmem" / "daemon.pid").exists() and not (vault_dir / ".vmem" / "daemon.sock").exists()


def test_recall_through_the_socket_equals_in_process(model_daemon, model_vault_dir):
    cli = Cli(model_vault_dir)
    # recency decays with the clock: both paths judge at one moment, or seconds apart round differently
    at = ("--as-of", "2026-11-20T09:00:00+00:00")
    for query in ("what should I avoid eating?", "where does the user work?", "Lisbon trip"):
        daemon_answer = json.loads(cli("recall", query, *at, "--json", "--explain").stdout)
        local_answer = json.loads(cli("recall", query, *at, "--json", "--explain", "--no-daemon").stdout)
        assert (daemon_answer["answered_by"], local_answer["answered_by"]) == ("daemon", "in-process")
        assert 0 < daemon_answer["server_ms"] <= daemon_answer["took_ms"] and "server_ms" not in local_answer
        for answer in (daemon_answer, local_answer):  # where the time went, on either path
            t = answer["timings"]
            assert t["embed_ms"] > 0 and t["keyword_ms"] > 0 and t["rank_ms"] >= t["embed_ms"] + t["keyword_ms"]
            stages = ("candidates_ms", "turns_ms", "links_ms", "kinds_ms", "select_ms", "complete_ms")
            assert all(t[stage] >= 0 for stage in stages) and t["rank_ms"] >= sum(t[s] for s in stages), t
        via_daemon, in_process = daemon_answer["results"], local_answer["results"]
        assert [(r["id"], r["score"]) for r in via_daemon] == [(r["id"], r["score"]) for r in in_process]
        assert cli("recall", query, *at).stdout == cli("recall", query, *at, "--no-daemon").stdout


def test_the_daemon_reads_its_generations_token_vectors_into_the_page_cache(model_daemon, model_vault_dir):
    """Late interaction reads ~50 memories' rows from random places of the token files;
    cold, at 100k memories, a recall waited 150-200 ms on them instead of 15-25 ms."""
    from vault_memory.index.generations import IndexLayout

    log = model_vault_dir / ".vmem" / "daemon.log"
    assert wait(lambda: "token vectors read into the page cache" in log.read_text(), 60)
    folder = IndexLayout(StateLayout.of(model_vault_dir)).current().folder
    expected = sum(path.stat().st_size for path in folder.glob("tokens.*"))
    line = next(x for x in log.read_text().splitlines() if "token vectors read into the page cache" in x)
    assert expected > 0 and f"{expected / 1e6:.0f} MB" in line


def test_socket_is_private(shared_daemon, shared_vault_dir):
    """The socket, or the portable transport's address file (it holds the key), is its
    owner's alone."""
    state = StateLayout.of(shared_vault_dir)
    published = [p for p in (state.daemon_socket, state.daemon_address) if p.exists()]
    assert len(published) == 1 and stat.S_IMODE(os.stat(published[0]).st_mode) == 0o600


def test_a_broken_file_is_reported_and_others_keep_being_indexed(daemon, vault_dir):
    write(vault_dir / "facts" / "broken.md", "---\nid: [oops\n---\nbroken\n")
    write(vault_dir / "facts" / "fine.md", "---\nid: fine-1\n---\nThe user collects vintage fountain pens\n")
    assert eventually_recalled(daemon, "fountain pens", "fountain pens")
    problems = daemon.status()["problems"]
    assert [p["path"] for p in problems] == ["facts/broken.md"] and problems[0]["line"]
    assert daemon.proc.poll() is None


@pytest.mark.slow
def test_cli_start_status_stop(vault_dir):
    cli = Cli(vault_dir)
    env = dict(os.environ, VMEM_VAULT=str(vault_dir))
    started = subprocess.run([VMEM, "daemon", "start"], env=env, capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    try:
        status = json.loads(
            subprocess.run([VMEM, "daemon", "status", "--json"], env=env, capture_output=True, text=True).stdout
        )
        assert status["running"] and status["pid"] > 0
        assert wait(
            lambda: (
                json.loads(
                    subprocess.run([VMEM, "daemon", "status", "--json"], env=env, capture_output=True, text=True).stdout
                )["memories_indexed"]
                == 6
            ),
            60,
        )
        again = subprocess.run([VMEM, "daemon", "start"], env=env, capture_output=True, text=True)
        assert "already running" in again.stdout
        # writes go to files; sync and remember go through the daemon
        assert cli.json("sync")["unchanged"] == 6
        assert "allergic to peanuts" in cli("recall", "peanuts allergy").stdout
    finally:
        stopped = subprocess.run([VMEM, "daemon", "stop"], env=env, capture_output=True, text=True, timeout=120)
    assert stopped.returncode == 0 and "stopped" in stopped.stdout
    after = subprocess.run([VMEM, "daemon", "status"], env=env, capture_output=True, text=True)
    assert after.returncode == 1 and "not running" in after.stdout


def test_remember_uses_the_daemon_for_restatements(model_daemon, model_vault_dir):
    daemon, cli = model_daemon, Cli(model_vault_dir)
    first = cli.json("remember", "Prefers window seats on long flights")
    assert eventually_recalled(daemon, "window seats", "window seats")
    answer = daemon.client.request(Op.NEAREST, text="The user prefers window seats on long flights", limit=3)
    assert answer["ok"] and answer["hits"][0][0] == first["path"] and answer["hits"][0][1] >= 0.85
    again = cli.json("remember", "The user prefers window seats on long flights")
    assert again["status"] == "reconfirmed" and again["id"] == first["id"]


def test_a_recall_the_daemon_answers_parses_no_memory_file(shared_daemon, shared_vault_dir):
    """The client stays light: no YAML/frontmatter stack, no model, no index is loaded."""
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('LOADED', sorted(m for m in ('yaml', 'frontmatter', 'fastembed', 'whoosh', 'hnswlib')"
        " if m in sys.modules), file=sys.stderr))\n"
        "from vault_memory.cli.app import main\n"
        f"sys.argv = ['vmem', 'recall', 'peanuts', '--json', '--vault', {str(shared_vault_dir)!r}]\n"
        "main()\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["answered_by"] == "daemon"
    assert "LOADED []" in out.stderr


@pytest.mark.slow
def test_a_failed_sync_keeps_its_changes_and_is_retried(vault_dir):
    """Item 7: the pending count used to be cleared before the sync ran, so a change that
    arrived during a failing sync was never indexed."""
    from vault_memory.daemon.server import Daemon
    from vault_memory.index.locks import file_lock
    from vault_memory.index.store import Index
    from vault_memory.recall.engine import Engine
    from vault_memory.vault.vault import Vault

    vault = Vault(vault_dir)
    daemon = Daemon(vault, debounce=0.05, engine=Engine(Index(vault, lock_timeout=0.2)))
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        assert wait(daemon.ready.is_set, 60)
        with file_lock(vault.state.index / "write.lock"):  # every sync fails meanwhile
            write(vault_dir / "facts" / "late.md", "---\nid: late\n---\nThe user plays the theremin\n")
            assert wait(lambda: daemon.failures >= 2, 30) and daemon.pending > 0
        assert wait(lambda: daemon.requests.status()["memories_indexed"] == 7, 60)  # no new event needed
        assert daemon.failures == 0 and daemon.pending == 0
    finally:
        daemon.stop()
        thread.join(60)


def test_the_daemon_syncs_the_files_its_events_name_and_reads_its_writes(vault_dir):
    """A one-file edit cost the daemon a walk of the vault and a read of every catalog row
    (seconds at 100,000 memories); now the sync looks at the named files only. A recall or
    a writer's freshness check right after a write passes a fence first, so the write's
    events are in before the sync (read-your-writes without a walk); a folder event still
    asks for the whole vault."""
    from vault_memory.daemon.server import Daemon
    from vault_memory.recall.results import RecallQuery
    from vault_memory.vault.vault import Vault

    vault = Vault(vault_dir)
    daemon = Daemon(vault, debounce=30.0, max_delay=30.0, reconcile_every=3600)  # the worker stays out of it
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        assert wait(daemon.ready.is_set, 60)
        for i in range(5):
            write(vault_dir / "facts" / f"new-{i}.md", f"---\nid: new-{i}\n---\nThe user grows tomato number {i}\n")
            hits = daemon.mem.backend.recall(RecallQuery(f"tomato number {i}", include_pinned=False)).hits
            assert hits and hits[0].memory.id == f"new-{i}"
            assert daemon.last_sync["added"] == 1 and daemon.last_sync["unchanged"] == 0  # nothing else looked at
        client = DaemonClient(vault.state.daemon_socket)
        write(vault_dir / "facts" / "new-0.md", "---\nid: new-0\n---\nThe user grows basil\n")
        assert client.request(Op.SYNC, scope="pending")["report"]["updated"] == 1
        (vault_dir / "archive-me").mkdir()
        os.rename(vault_dir / "facts" / "new-1.md", vault_dir / "archive-me" / "new-1.md")
        shutil.move(vault_dir / "archive-me", vault_dir / "moved")
        hits = daemon.mem.backend.recall(RecallQuery("tomato number 1", include_pinned=False)).hits
        assert hits[0].memory.file.as_posix() == "moved/new-1.md"
        assert daemon.last_sync["renamed"] == 1 and daemon.last_sync["unchanged"] >= 6  # the whole vault walked
    finally:
        daemon.stop()
        thread.join(60)


@pytest.mark.slow
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
            idle.append(raw_connect(vault_dir))
        time.sleep(0.5)
        threads = len(os.listdir(f"/proc/{d.proc.pid}/task"))
        assert threads < 32 + 20
        busy = raw_request(vault_dir, b'{"op": "sync"}\n')
        assert busy["ok"] is False and "busy" in busy["error"]
        # full, it still says how it is: ping and status are answered
        assert (raw_request(vault_dir, b'{"op": "ping"}\n') or {}).get("ok")
        assert wait(lambda: (raw_request(vault_dir, b'{"op": "sync"}\n') or {}).get("ok"), 30)  # idle ones let go
        for s in idle:
            s.close()
        assert d.proc.poll() is None
    finally:
        d.stop()
    assert "Traceback" not in (vault_dir / ".vmem" / "daemon.log").read_text()


@pytest.mark.slow
def test_deleting_the_state_folder_stops_the_daemon_cleanly(vault_dir):
    """Item 23: with .vmem/ deleted, a second daemon could start beside the first, and the
    first could no longer be stopped."""
    d = RunningDaemon(vault_dir).start()
    shutil.rmtree(vault_dir / ".vmem")
    assert wait(lambda: d.proc.poll() is not None, 30)
    d.stop()  # gone already: its pipes closed
    second = RunningDaemon(vault_dir).start()
    try:
        assert second.status()["pid"] == second.proc.pid
        assert vmem.open(vault_dir).recall("peanuts", include_pinned=False).answered_by == "daemon"
    finally:
        second.stop()


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


@pytest.mark.slow
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


def raw_request(vault_dir, payload: bytes, timeout: float = 20.0) -> dict | None:
    sock = raw_connect(vault_dir, timeout)
    try:
        try:
            sock.sendall(proved(vault_dir, payload))
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


class UnloadableEmbedder:
    """The embedder of an index whose model can no longer be loaded (its files are gone)."""

    model_id = "hash-64"
    languages = None
    dim = 64

    def embed(self, texts):
        raise EmbedderError("embedding model 'x' is not available offline")

    def tokenizer(self):
        return None


def test_a_vault_opened_on_a_daemon_carries_on_in_process_once_it_stops(vault_dir):
    """The backend is chosen once, at open(); when the daemon stops answering, the façade
    switches to this process as a whole and stays there."""
    import vault_memory as vmem

    d = RunningDaemon(vault_dir).start()
    mem = vmem.open(vault_dir)
    try:
        assert mem.backend.where == "daemon"
        assert mem.recall("peanuts", include_pinned=False).answered_by == "daemon"
    finally:
        d.stop()
    result = mem.recall("peanuts", include_pinned=False)
    assert result.answered_by == "in-process" and PEANUTS in [h.memory.id for h in result.hits]
    assert mem.backend.where == "in-process"
    assert mem.remember("Prefers aisle seats").status == "created"  # the write rules run here too


def test_a_deeply_nested_request_gets_a_clean_error(shared_daemon, shared_vault_dir):
    answer = raw_request(shared_vault_dir, b"[" * 100_000 + b"\n")
    assert answer is not None and not answer["ok"] and "nested too deeply" in answer["error"]
    assert shared_daemon.status()["running"]


@pytest.mark.slow
def test_clients_trickling_bytes_never_lock_the_others_out(vault_dir):
    """40 clients sending a byte every second kept the daemon answering "busy" for ever, and
    `vmem recall` then exited 1. A request must now arrive whole within its deadline, a
    full daemon still answers status, and a recall the daemon cannot take is done in-process."""
    d = RunningDaemon(vault_dir).start()
    stop = threading.Event()

    def trickle() -> None:
        while not stop.is_set():
            s = None
            try:
                s = raw_connect(vault_dir)
                for _ in range(30):
                    if stop.wait(1.0):
                        break
                    s.sendall(b"{")
            except OSError:
                pass  # let go by the daemon: come back
            finally:
                if s is not None:
                    s.close()

    threads = [threading.Thread(target=trickle, daemon=True) for _ in range(40)]
    try:
        for t in threads:
            t.start()
        time.sleep(1.5)
        cli = Cli(vault_dir)
        recalled = cli("recall", "peanuts", "--json")
        assert recalled.exit_code == 0, recalled.output
        assert PEANUTS in [r["id"] for r in json.loads(recalled.stdout)["results"]]
        status = cli("daemon", "status", "--json")
        assert status.exit_code == 0 and json.loads(status.stdout)["answering"]
    finally:
        stop.set()
        for t in threads:
            t.join(5)
        d.stop()


def test_a_typo_in_vmem_toml_under_a_running_daemon_is_said_with_every_answer(daemon, vault_dir):
    """With a typo in vmem.toml the daemon answered with its old settings, silently, while
    `vmem recall --no-daemon` stopped on the error. The daemon keeps serving and says so
    with every answer (stderr, --json warnings, status) until the file is fixed."""
    toml = vault_dir / "vmem.toml"
    good = toml.read_text()
    env = dict(os.environ, VMEM_VAULT=str(vault_dir))

    def recall(*extra: str) -> subprocess.CompletedProcess:
        ask = [VMEM, "recall", "peanuts allergy", *extra]
        return subprocess.run(ask, env=env, capture_output=True, text=True, timeout=120)

    toml.write_text(good.replace("[recall]", "[recall]\nbudgte = 300", 1))
    assert wait(lambda: "budgte" in ((daemon.status() or {}).get("config_warning") or ""), 30)
    served = recall()
    assert served.returncode == 0 and "peanuts" in served.stdout
    assert "budgte" in served.stderr and "keeps the settings it started with" in served.stderr
    assert any("budgte" in w for w in json.loads(recall("--json").stdout)["warnings"])
    status = subprocess.run([VMEM, "daemon", "status"], env=env, capture_output=True, text=True, timeout=60)
    assert "budgte" in status.stderr
    alone = recall("--no-daemon")
    assert alone.returncode == 1 and "budgte" in alone.stderr
    toml.write_text(good)
    assert wait(lambda: (daemon.status() or {}).get("config_warning") is None, 30)
    assert "warning" not in recall().stderr


def test_an_idle_daemon_gives_the_model_back_and_loads_it_for_the_next_recall(tmp_path):
    """A daemon runs beside every session, one per vault, and held its model (about 150 MB)
    while nothing asked it anything. With no request for ``[daemon] release_model_after``
    seconds it drops the model and returns the memory; the next recall loads it again and
    answers as before."""
    vault_dir = create_vault(tmp_path / "vault")  # the bundled model
    toml = vault_dir / "vmem.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("release_model_after = 600.0", "release_model_after = 1"), encoding="utf-8")
    d = RunningDaemon(vault_dir).start()
    try:
        first = d.texts("what should I avoid eating?")
        log = StateLayout.of(vault_dir).daemon_log

        def rss() -> int:
            status = (Path("/proc") / str(d.proc.pid) / "status").read_text().splitlines()
            return int(next(line for line in status if line.startswith("VmRSS")).split()[1])

        loaded = rss()
        assert wait(lambda: "model released after" in log.read_text(encoding="utf-8"), 30)
        assert rss() < loaded - 50_000  # kB: the model's memory went back to the system
        assert d.texts("what should I avoid eating?") == first  # loaded again for it
    finally:
        d.stop()


def test_an_idle_daemon_gives_back_the_model_it_read_a_prompts_request_with(tmp_path):
    """A prompt that asks to keep something is read with the multilingual model (the
    request judge) whatever model the vault embeds with; a daemon whose vault embeds with
    another gave back its own model when idle and held that one (about 100 MB) for as
    long as it ran. Idle, it now gives back both."""
    from vault_memory.conversation.request_judge import prepare
    from vault_memory.index.embedder import USE_MULTILINGUAL, embedder_from_config

    prepare()  # a machine that ran vmem before: the judge's model loads from its copy
    embedder_from_config(USE_MULTILINGUAL).release()  # this test process holds none of it
    vault_dir = create_vault(tmp_path / "vault", with_examples=False)
    toml = vault_dir / "vmem.toml"
    text = toml.read_text(encoding="utf-8").replace('model = "bilingual"', 'model = "bundled"')
    toml.write_text(text.replace("release_model_after = 600.0", "release_model_after = 3"), encoding="utf-8")
    d = RunningDaemon(vault_dir).start()
    try:

        def rss() -> int:  # kB
            status = (Path("/proc") / str(d.proc.pid) / "status").read_text().splitlines()
            return int(next(line for line in status if line.startswith("VmRSS")).split()[1])

        own_model = rss()
        said = "please keep in mind that the office wifi is called Gecko-5G"
        answer = d.client.request(Op.RECALL, query=query_to_wire(RecallQuery("which wifi?")), said=said)
        assert answer and answer["ok"] and "Gecko-5G" in answer.get("saved", ""), answer
        log = StateLayout.of(vault_dir).daemon_log
        seen = len(log.read_text(encoding="utf-8"))
        assert wait(lambda: "model released after" in log.read_text(encoding="utf-8")[seen:], 30)
        assert rss() < own_model - 60_000  # less than with its own model alone: both went back
        assert "Gecko-5G" in " ".join(d.texts("what is the office wifi called?"))  # loaded again for it
    finally:
        d.stop()


def test_the_first_daemon_on_a_machine_prepares_the_request_judges_model(tmp_path, monkeypatch):
    """The judge's model first loads from its package (1.4 s, then 0.25 s from the copy
    that load keeps): a first prompt asking to keep something, on a machine that had never
    run vmem, outlasted the prompt hook's wait once the machine was busy, and the agent was
    never told the fact was kept. The first daemon makes the copy in the background once
    ready; the prompt that comes meanwhile waits for that load instead of starting its own;
    a daemon that finds the copy loads nothing it was not asked for."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    vault_dir = create_vault(tmp_path / "vault", with_examples=False)
    log = StateLayout.of(vault_dir).daemon_log
    d = RunningDaemon(vault_dir).start()
    try:
        said = "remember that my bike lock code is in the blue notebook"
        answer = d.client.request(Op.RECALL, query=query_to_wire(RecallQuery("bike lock")), said=said)
        assert answer and answer["ok"] and "blue notebook" in answer.get("saved", ""), answer
        assert wait(lambda: "request judge's model prepared" in log.read_text(encoding="utf-8"), 60)
        assert list((tmp_path / "cache" / "vmem" / "models").glob("use-multilingual-v3-*/loaded.pickle"))
    finally:
        d.stop()
    d = RunningDaemon(vault_dir).start()
    try:
        seen = len(log.read_text(encoding="utf-8"))
        assert d.texts("bike lock code")  # a while for a background load to have said so
        time.sleep(1.0)
        assert "request judge's model prepared" not in log.read_text(encoding="utf-8")[seen:]
    finally:
        d.stop()


def test_a_writer_of_an_earlier_vmem_still_gets_its_nearest_memories(shared_daemon):
    """A writer now embeds a batch of texts through the daemon; one started before an
    upgrade still asks for each text's nearest memories, and gets them."""
    answer = shared_daemon.client.request(Op.NEAREST, text="allergic to peanuts", limit=3)
    assert answer is not None and answer["ok"], answer
    paths = [path for path, _ in answer["hits"]]
    assert paths and all(isinstance(p, str) and p.endswith(".md") for p in paths)
    assert [round(s, 6) for _, s in answer["hits"]] == sorted((round(s, 6) for _, s in answer["hits"]), reverse=True)


def test_a_start_waits_for_a_daemon_that_keeps_reporting_progress_and_gives_up_on_one_that_stalls():
    """Rebuilding a large vault's index takes longer than a start's timeout, each step of it
    far less: `vmem daemon start` said the daemon had failed while it went on building
    (a 10,000-memory vault whose keyword index could not be read). The timeout now counts
    from the last progress the daemon reported; a daemon that reports nothing new for that
    long has stalled."""
    from vault_memory.backend import control

    class Starting:
        """A daemon's status as a start polls it: a new step every 0.1 s, ready after 1 s."""

        def __init__(self, moving: bool):
            self.began, self.moving, self.seen = time.monotonic(), moving, None

        def ready(self) -> bool:
            elapsed = time.monotonic() - self.began
            if self.moving:
                self.seen = ("indexing", int(elapsed * 10), 10)
            return elapsed > 1.0

    moving = Starting(moving=True)
    assert control._wait_while_it_moves(moving, moving.ready, timeout=0.3)  # type: ignore[arg-type]
    stalled = Starting(moving=False)
    assert not control._wait_while_it_moves(stalled, stalled.ready, timeout=0.3)  # type: ignore[arg-type]


def test_a_change_said_after_a_recall_is_read_by_the_daemons_next_recall(empty_vault_dir):
    """What the daemon worked out of an older fact for one recall (no newer fact changed it)
    is not what it answers after a newer fact arrives: the change is read on the next one."""
    import datetime as dt

    now = dt.datetime.now().astimezone()
    question = "where are the build artifacts stored?"
    daemon = RunningDaemon(empty_vault_dir).start()
    try:
        with vmem.open(empty_vault_dir) as mem:
            mem.remember(
                "Our build artifacts are stored on Backblaze.", now=now - dt.timedelta(days=30), force_new=True
            )
            mem.remember(
                "I switched my phone plan to Mint Mobile now.", now=now - dt.timedelta(days=20), force_new=True
            )
            assert any("Backblaze" in t for t in daemon.texts(question))
            said = "We migrated the build artifacts to Cloudflare R2 now."
            mem.remember(said, now=now - dt.timedelta(days=1), force_new=True)

        def hits() -> list[dict]:
            return daemon.client.request(Op.RECALL, query=query_to_wire(RecallQuery(question)))["result"]["hits"]

        def read_as_changed() -> bool:
            older = [h for h in hits() if "Backblaze" in h["memory"]["text"]]
            newer = [h for h in hits() if "Cloudflare" in h["memory"]["text"]]
            return bool(newer) and (not older or bool(older[0].get("outdated_by")))

        assert wait(read_as_changed), [(h["memory"]["text"], h.get("outdated_by")) for h in hits()]
    finally:
        daemon.stop()
