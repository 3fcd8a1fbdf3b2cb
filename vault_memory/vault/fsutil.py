"""Atomic file writes: a reader (or a crash) sees the old file or the new one, never half."""

from __future__ import annotations

import itertools
import os
import stat
import time
from pathlib import Path

from ..errors import WriteRefused

TEMP_SUFFIX = ".tmp-vmem"


#: the temp files of this process, numbered (a name another process left is skipped)
_TEMP_NUMBERS = itertools.count()


def _open_temp(folder: Path, name: str) -> tuple[int, str]:
    """A new temp file beside ``name``, created 0666 less the umask (or the folder's default
    ACL) as any new file is: ``tempfile.mkstemp`` made a random name and a 0600 file to
    widen again, a third of the cost of writing a conversation's small ledger."""
    while True:
        tmp = os.path.join(folder, f".{name}.{os.getpid()}-{next(_TEMP_NUMBERS)}{TEMP_SUFFIX}")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), tmp
        except FileExistsError:
            continue  # left by a killed process that had this pid


def _write_temp(folder: Path, name: str, data: bytes, mode: int | None = None, durable: bool = True) -> Path:
    """A temp file beside the target; ``mode`` is the target's (None: a new file's)."""
    fd, tmp = _open_temp(folder, name)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if durable:
                os.fsync(f.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    return Path(tmp)


def sync_filesystem(folder: Path) -> None:
    """Everything written to ``folder``'s filesystem, on disk: one ``syncfs`` (Linux) for a
    batch of files written without their own fsyncs, ``os.sync`` where there is none."""
    import ctypes

    try:
        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        os.sync()
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        if syncfs(fd) != 0:
            os.sync()
    finally:
        os.close(fd)


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(
    path: Path, data: bytes | str, *, overwrite: bool = True, new_mode: int | None = None, durable: bool = True
) -> None:
    """Temp file in the same folder, fsync, then ``os.replace`` (or a no-clobber link). A
    file replaced keeps its mode; a new one gets ``new_mode`` (None: the umask's).
    ``durable=False`` leaves out both fsyncs: still all or nothing for a reader and for a
    killed process, but a power cut may lose it (for files that only save work)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = os.stat(path).st_mode & 0o7777 if overwrite else new_mode
    except FileNotFoundError:
        mode = new_mode
    tmp = _write_temp(path.parent, path.name, data, mode, durable)
    moved = False
    try:
        if overwrite:
            os.replace(tmp, path)
            moved = True
        else:
            try:
                os.link(tmp, path)  # fails if the target exists: never clobbers a user's file
            except FileExistsError:
                raise WriteRefused(f"{path} already exists; nothing was written") from None
            except OSError:  # filesystems without hard links
                if path.exists():
                    raise WriteRefused(f"{path} already exists; nothing was written") from None
                os.replace(tmp, path)
                moved = True
    finally:
        if not moved:
            tmp.unlink(missing_ok=True)
    if durable:
        fsync_dir(path.parent)


#: a memory file vmem writes new: its owner's alone, as ``~/.ssh`` keeps keys (one it
#: replaces keeps its own mode)
MEMORY_FILE_MODE = 0o600
#: a vault ``vmem init`` makes
VAULT_DIR_MODE = 0o700


def private_dir(path: Path) -> Path:
    """A folder only its owner can read (vmem's state holds the text of every memory):
    created 0700, and tightened to 0700 if an older version made it wider. The folders it
    has to make above it are made 0700 too (``mkdir(parents=True)`` gives them the umask's
    mode: a first ``vmem ingest`` made a fresh vault's ``.vmem`` 0755 for ``.vmem/pending``)."""
    missing = []
    folder = path
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    for folder in reversed(missing):
        folder.mkdir(mode=0o700, exist_ok=True)
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


#: a temp file vmem left this long ago belongs to a write that was killed
STALE_TEMP_SECONDS = 60


def sweep_stale_temps(folder: Path, suffix: str = TEMP_SUFFIX, max_age: float = STALE_TEMP_SECONDS) -> int:
    """Remove what killed writes left in ``folder`` (temp files older than ``max_age``)."""
    removed = 0
    cutoff = time.time() - max_age
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        try:
            if entry.name.endswith(suffix) and entry.is_file(follow_symlinks=False) and entry.stat().st_mtime < cutoff:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


#: after replacing a file, how long to keep watching the old one for a writer that had it
#: open (an editor appending a line): its write is then redone on the new file. 12 ms lost
#: an append now and then when the writer was descheduled on a loaded machine (1 in about
#: 10 suite runs of test_confirm_never_loses_a_concurrent_append); 62 ms in all narrows
#: that window. A writer paused longer than that between opening and writing can still
#: lose its write: only cooperating writers (a lock they honour) could close it.
LATE_WRITE_CHECKS = (0.0, 0.002, 0.01, 0.05)


def replace_if_unchanged(path: Path, expected: bytes, data: bytes) -> tuple[bool, bytes | None]:
    """Replace ``path`` with ``data`` only if it still holds ``expected``.

    Returns (replaced, late): ``replaced`` is False (nothing written) when someone changed
    the file meanwhile; ``late`` is what the replaced file held at the end if a writer
    reached it in the instant between the last check and the replace (its change is in
    ``late``, for the caller to redo the edit on). Keeps the file's mode; a file with other
    hard links is rewritten in place, so every link sees the change."""
    st = os.stat(path)
    if st.st_nlink > 1:
        with open(path, "r+b") as f:
            if f.read() != expected:
                return False, None
            f.seek(0)
            f.write(data)
            f.truncate()
            f.flush()
            os.fsync(f.fileno())
        return True, None
    tmp = _write_temp(path.parent, path.name, data, st.st_mode & 0o7777)
    try:
        with open(path, "rb") as old:  # held open: it still shows the old file after the replace
            if old.read() != expected:  # an editor saved meanwhile: its change wins, we retry
                return False, None
            os.replace(tmp, path)
            for pause in LATE_WRITE_CHECKS:  # a writer that opened the old file just before may still write
                time.sleep(pause)
                old.seek(0)
                late = old.read()
                if late != expected:
                    break
    finally:
        if tmp.exists():
            tmp.unlink()
    fsync_dir(path.parent)
    return True, (late if late != expected else None)


def move_no_clobber(src: Path, dst: Path) -> None:
    """Rename ``src`` to ``dst`` unless ``dst`` exists."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst)
    except FileExistsError:
        raise WriteRefused(f"{dst} already exists; {src} was left where it is") from None
    except OSError:
        if dst.exists():
            raise WriteRefused(f"{dst} already exists; {src} was left where it is") from None
        os.replace(src, dst)
        fsync_dir(dst.parent)
        return
    os.unlink(src)
    fsync_dir(dst.parent)
    fsync_dir(src.parent)


class NotRegular(OSError):
    """A path that is no regular file: a FIFO, a socket, a device."""


def read_regular(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file. Checked on the opened descriptor (a file
    swapped for a FIFO after a ``stat`` cannot slip through), opened without blocking: a
    FIFO named like a memory once held a sync, and the index's write lock, for ever."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a regular file"
            raise NotRegular(f"{path.name} is {kind}")
        chunks, left = [], limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
