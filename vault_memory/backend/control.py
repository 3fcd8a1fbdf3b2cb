"""Starting, stopping and asking after a vault's daemon from another process.

One daemon per vault, enforced by an flock on ``.vmem/daemon.lock``: the kernel drops it
when the process dies, so a stale pid file never blocks a new start, and "is it running?"
is answered by the lock, never by the pid file alone. ``start`` returns once the daemon
is *ready*: model loaded, indexes read and up to date, so the first recall after it is
answered warm.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import StateLayout
from ..errors import DaemonError
from ..index.locks import release, try_lock
from ..vault.fsutil import private_dir
from .client import DaemonClient
from .protocol import Op

#: what a starting daemon says it is doing: (stage, done, total)
Progress = Callable[[str, int, int], None]


def read_pid(state: StateLayout) -> int | None:
    try:
        return int(state.daemon_pid.read_text().strip())
    except (OSError, ValueError):
        return None


def is_running(state: StateLayout) -> bool:
    """True when some process holds the daemon lock (a pid file alone proves nothing)."""
    fd = try_lock(state.daemon_lock)
    if fd is None:
        return True
    release(fd)
    return False


def _wait_while_it_moves(watch: _Watch, predicate: Callable[[], bool], timeout: float) -> bool:
    """``wait_until`` a daemon is ready, the ``timeout`` counted from the last progress it
    reported: rebuilding 100,000 memories' index takes minutes, each step of it seconds, and a
    start that gave up while the daemon went on building said it had failed when it had not.
    A start that reports nothing new for ``timeout`` seconds has stalled; none waits past
    ``MOST_START_SECONDS``."""
    stop = time.monotonic() + MOST_START_SECONDS
    while time.monotonic() < stop:
        if not wait_until(_ready_or_moved(predicate, watch, watch.seen), min(timeout, stop - time.monotonic())):
            return False
        if predicate():
            return True  # else it moved: the timeout starts again
    return predicate()


def _ready_or_moved(predicate: Callable[[], bool], watch: _Watch, seen: object) -> Callable[[], bool]:
    """Whether the daemon is ready, or ``watch`` has heard progress other than ``seen``."""
    return lambda: predicate() or watch.seen != seen


#: the longest a start waits for a daemon that keeps reporting progress
MOST_START_SECONDS = 30 * 60


def wait_until(predicate: Callable[[], bool], timeout: float, interval: float = 0.05) -> bool:
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


class _Watch:
    """Polls a starting daemon: its pid once it answers, and whether it is ready yet."""

    def __init__(self, state: StateLayout, progress: Progress | None):
        self.client = DaemonClient(state.daemon_socket, timeout=5)
        self.progress = progress
        self.pid: int | None = None
        #: the last progress the daemon reported: a start that still moves is still starting
        self.seen: object = None

    def ready(self) -> bool:
        try:
            answer = self.client.request(Op.STATUS)
        except DaemonError:
            return False
        if not answer or not answer.get("ok"):
            return False
        status = answer["status"]
        self.pid = int(status["pid"])
        if status.get("progress"):
            self.seen = tuple(status["progress"])
            if self.progress is not None:
                stage, done, total = status["progress"]
                self.progress(str(stage), int(done), int(total))
        return bool(status.get("ready", True))


def start(vault_root: Path, state: StateLayout, timeout: float = 60.0, progress: Progress | None = None) -> Started:
    """Start the daemon in the background; return when it is ready to answer a recall warm
    (``progress`` hears what it is doing meanwhile)."""
    watch = _Watch(state, progress)
    if is_running(state):  # perhaps still starting: report it once it is ready
        if _wait_while_it_moves(watch, watch.ready, timeout):
            return Started(watch.pid or 0, True, state.daemon_log)
        raise DaemonError(
            f"a daemon holds {state.daemon_lock} but was not ready within {timeout:.0f}s; see {state.daemon_log}"
        )
    private_dir(state.root)
    with open(state.daemon_log, "ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "vault_memory", "daemon", "run", "--quiet", "--vault", str(vault_root)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    if not _wait_while_it_moves(watch, lambda: proc.poll() is not None or watch.ready(), timeout):
        raise DaemonError(f"the daemon was not ready within {timeout:.0f}s; see {state.daemon_log}")
    # another `start` may have won the race: the daemon that answers is the one to report
    if watch.pid is not None and watch.pid != proc.pid:
        return Started(watch.pid, True, state.daemon_log)
    if proc.poll() is not None:
        if is_running(state) and wait_until(watch.ready, timeout):
            return Started(watch.pid or 0, True, state.daemon_log)
        raise DaemonError(f"the daemon exited at start (code {proc.returncode}); see {state.daemon_log}")
    return Started(proc.pid, False, state.daemon_log)


def stop(state: StateLayout, timeout: float = 60.0) -> int | None:
    """Stop the daemon cleanly (SIGTERM: it finishes the batch in progress first); the pid
    it had, or None when none was running."""
    pid = read_pid(state)
    if not is_running(state) or pid is None:
        return None
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    if not wait_until(lambda: not is_running(state), timeout):
        raise DaemonError(f"the daemon (pid {pid}) did not stop within {timeout:.0f}s")
    return pid


def status(vault_root: Path, state: StateLayout) -> dict[str, Any]:
    """What the daemon says of itself, or ``{"running": …, "answering": False}``."""
    try:
        answer = DaemonClient(state.daemon_socket, timeout=10).request(Op.STATUS)
    except DaemonError:
        answer = None
    if answer is None or not answer.get("ok"):
        return {"running": is_running(state), "vault": str(vault_root), "answering": False}
    return dict(answer["status"]) | {"answering": True}
