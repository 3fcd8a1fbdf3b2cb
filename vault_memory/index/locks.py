"""Advisory file locks with waiting, for processes sharing one vault: ``fcntl.flock``
(``posix``), or portalocker (``portable``: LockFileEx or msvcrt on Windows, flock here),
as ``daemonlink.ipc`` chooses. Either is released by the system when its process ends.

Two locks guard the indexes: ``write.lock`` (one writer at a time: sync, reindex, daemon)
and ``snapshot.lock`` (held shared by readers while they open a consistent snapshot, and
exclusively by a writer for the short moment it publishes a change).
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..daemonlink import PORTABLE, ipc
from ..errors import ConfigError, IndexUnavailable
from ..vault.fsutil import private_dir


def _portable() -> bool:
    try:
        return ipc() == PORTABLE
    except ValueError as e:
        raise ConfigError(str(e)) from None


def _take(fd: int, shared: bool) -> bool:
    """Take the lock on ``fd`` without waiting: False when another process holds it."""
    if _portable():
        import portalocker

        flags = portalocker.LockFlags.SHARED if shared else portalocker.LockFlags.EXCLUSIVE
        try:
            portalocker.lock(fd, flags | portalocker.LockFlags.NON_BLOCKING)
        except portalocker.exceptions.AlreadyLocked:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno not in (errno.EAGAIN, errno.EACCES):
            raise
        return False
    return True


def _release(fd: int) -> None:
    """Let the lock go and close ``fd`` (closing alone releases flock; Windows asks for
    the unlock first)."""
    try:
        if _portable():
            import portalocker

            portalocker.unlock(fd)
    except (OSError, ImportError, ConfigError):
        pass
    finally:
        os.close(fd)


def _open_lock_file(path: Path, shared: bool) -> int:
    """The lock file's descriptor; a reader of a read-only vault opens the existing file
    read-only (flock works on it), so a recall still answers from the index."""
    try:
        _state_folder(path.parent)
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as e:
        if shared and e.errno in (errno.EROFS, errno.EACCES, errno.EPERM) and path.exists():
            return os.open(path, os.O_RDONLY)
        raise


def _state_folder(folder: Path) -> None:
    """Lock files live under .vmem/ (and .vmem/index/): both private to their owner."""
    if folder.name == "index":
        private_dir(folder.parent)
    private_dir(folder)


@contextmanager
def file_lock(
    path: Path, *, shared: bool = False, timeout: float | None = 30.0, what: str = "the index"
) -> Iterator[None]:
    """Hold the lock for the ``with`` block. ``timeout=None`` waits forever; 0 does not wait."""
    fd = _open_lock_file(path, shared)
    try:
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.005
        while not _take(fd, shared):
            if deadline is not None and time.monotonic() >= deadline:
                raise IndexUnavailable(f"{what} is busy (another vmem process holds {path.name}); try again") from None
            time.sleep(delay)
            delay = min(delay * 2, 0.1)
        yield
    finally:
        _release(fd)


def try_lock(path: Path) -> int | None:
    """Take an exclusive lock without waiting and keep it; returns the fd, or None if held."""
    _state_folder(path.parent)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        taken = _take(fd, shared=False)
    except BaseException:
        os.close(fd)
        raise
    if not taken:
        os.close(fd)
        return None
    return fd


def release(fd: int) -> None:
    """Let go of a lock ``try_lock`` took."""
    _release(fd)
