"""Starting, stopping and asking after a vault's daemon from another process.

One daemon per vault, enforced by an flock on ``.vmem/daemon.lock``: the kernel drops it
when the process dies, so a stale pid file never blocks a new start, and "is it running?"
is answered by the lock, never by the pid file alone.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DaemonError
from ..index.locks import try_lock
from ..vault.fsutil import private_dir
from .client import DaemonClient
from .protocol import SOCKET_NAME, Op


class DaemonPaths:
    def __init__(self, state_dir: Path):
        self.state_dir = state_dir
        self.lock = state_dir / "daemon.lock"
        self.pid = state_dir / "daemon.pid"
        self.socket = state_dir / SOCKET_NAME
        self.log = state_dir / "daemon.log"


def read_pid(paths: DaemonPaths) -> int | None:
    try:
        return int(paths.pid.read_text().strip())
    except (OSError, ValueError):
        return None


def is_running(paths: DaemonPaths) -> bool:
    """True when some process holds the daemon lock (a pid file alone proves nothing)."""
    fd = try_lock(paths.lock)
    if fd is None:
        return True
    os.close(fd)
    return False


def wait_until(predicate, timeout: float, interval: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


@dataclass
class Started:
    pid: int
    already_running: bool
    log: Path


def start(vault_root: Path, state_dir: Path, timeout: float = 60.0) -> Started:
    """Start the daemon in the background and wait until it answers."""
    paths = DaemonPaths(state_dir)
    if is_running(paths):  # perhaps still starting: report it once it answers
        client = DaemonClient(state_dir, timeout=5)
        if wait_until(lambda: _answering_pid(client) is not None, timeout):
            return Started(_answering_pid(client) or 0, True, paths.log)
        raise DaemonError(f"a daemon holds {paths.lock} but did not answer within {timeout:.0f}s; see {paths.log}")
    private_dir(state_dir)
    with open(paths.log, "ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "vault_memory", "daemon", "run", "--quiet", "--vault", str(vault_root)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    client = DaemonClient(state_dir, timeout=5)
    if not wait_until(lambda: proc.poll() is not None or client.available(), timeout):
        raise DaemonError(f"the daemon did not answer within {timeout:.0f}s; see {paths.log}")
    # another `start` may have won the race: the daemon that answers is the one to report
    answering = _answering_pid(client)
    if answering is not None and answering != proc.pid:
        return Started(answering, True, paths.log)
    if proc.poll() is not None:
        if is_running(paths) and wait_until(lambda: _answering_pid(client) is not None, timeout):
            return Started(_answering_pid(client) or 0, True, paths.log)
        raise DaemonError(f"the daemon exited at start (code {proc.returncode}); see {paths.log}")
    return Started(proc.pid, False, paths.log)


def _answering_pid(client: DaemonClient) -> int | None:
    try:
        answer = client.request(Op.PING)
    except DaemonError:
        return None
    return int(answer["pid"]) if answer and answer.get("ok") else None


def stop(state_dir: Path, timeout: float = 60.0) -> int | None:
    """Stop the daemon cleanly (SIGTERM: it finishes the batch in progress first); the pid
    it had, or None when none was running."""
    paths = DaemonPaths(state_dir)
    pid = read_pid(paths)
    if not is_running(paths) or pid is None:
        return None
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    if not wait_until(lambda: not is_running(paths), timeout):
        raise DaemonError(f"the daemon (pid {pid}) did not stop within {timeout:.0f}s")
    return pid


def status(vault_root: Path, state_dir: Path) -> dict[str, Any]:
    """What the daemon says of itself, or ``{"running": …, "answering": False}``."""
    try:
        answer = DaemonClient(state_dir, timeout=10).request(Op.STATUS)
    except DaemonError:
        answer = None
    if answer is None or not answer.get("ok"):
        return {"running": is_running(DaemonPaths(state_dir)), "vault": str(vault_root), "answering": False}
    return dict(answer["status"]) | {"answering": True}
