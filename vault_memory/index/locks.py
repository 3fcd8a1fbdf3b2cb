"""Advisory file locks (``fcntl.flock``) with waiting, for processes sharing one vault.

Two locks guard the indexes: ``write.lock`` (one writer at a time: sync, reindex, daemon)
and ``snapshot.lock`` (held shared by readers while they open a consistent snapshot, and
exclusively by a writer for the short moment it publishes a change).
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import IndexUnavailable
from ..vault.fsutil import private_dir


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
    mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    try:
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.005
        while True:
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
                break
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if deadline is not None and time.monotonic() >= deadline:
                    raise IndexUnavailable(
                        f"{what} is busy (another vmem process holds {path.name}); try again"
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def try_lock(path: Path) -> int | None:
    """Take an exclusive lock without waiting and keep it; returns the fd, or None if held."""
    _state_folder(path.parent)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd
