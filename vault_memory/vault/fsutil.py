"""Atomic file writes: a reader (or a crash) sees the old file or the new one, never half."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import WriteRefused


def _write_temp(folder: Path, name: str, data: bytes) -> Path:
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp-vmem", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    return Path(tmp)


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


def atomic_write(path: Path, data: bytes | str, *, overwrite: bool = True) -> None:
    """Temp file in the same folder, fsync, then ``os.replace`` (or a no-clobber link)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _write_temp(path.parent, path.name, data)
    try:
        if overwrite:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)  # fails if the target exists: never clobbers a user's file
            except FileExistsError:
                raise WriteRefused(f"{path} already exists; nothing was written") from None
            except OSError:  # filesystems without hard links
                if path.exists():
                    raise WriteRefused(f"{path} already exists; nothing was written") from None
                os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    fsync_dir(path.parent)


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
