"""Someone else's settings file (Claude Code's, an MCP client's), edited without loss.

Read as a JSON object or refused with the reason (vmem never overwrites a file it cannot
parse); written atomically, with a backup of the previous bytes beside it, and only when
something changed, so installing twice is a no-op.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from .. import safejson
from ..errors import ConfigError
from ..vault.fsutil import atomic_write

BACKUP_SUFFIX = ".vmem-backup"


def read_object(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; ``{}`` for a missing or blank file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read {path} ({e}); vmem will not overwrite it") from None
    try:
        data = safejson.loads(text) if text.strip() else {}
    except ValueError as e:
        raise ConfigError(f"{path} is not valid JSON ({e}); fix it first, vmem will not overwrite it") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a JSON object; vmem will not overwrite it")
    return data


def write_text(path: Path, old: str | None, new: str) -> tuple[bool, Path | None]:
    """Write ``new`` unless it equals ``old`` (the file's text, None when it did not exist);
    back up the previous bytes first. Returns (changed, backup)."""
    if old is not None and new == old:
        return False, None
    backup = None
    if path.exists():
        backup = free_backup_path(path)
        atomic_write(backup, path.read_bytes())
        os.chmod(backup, stat.S_IMODE(path.stat().st_mode))  # a 0600 file holding a key stays 0600
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, new)
    return True, backup


def free_backup_path(path: Path) -> Path:
    """``<file>.vmem-backup``, or the next free ``<file>.vmem-backup.N``: a backup is never
    overwritten (the first one holds what the file was before vmem ever touched it)."""
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    n = 1
    while backup.exists():
        backup = path.with_name(f"{path.name}{BACKUP_SUFFIX}.{n}")
        n += 1
    return backup


def write_object(path: Path, old: dict[str, Any], new: dict[str, Any]) -> tuple[bool, Path | None]:
    """``new`` as indented JSON, unless it equals ``old`` (what :func:`read_object` gave)."""
    if new == old and path.exists():
        return False, None
    return write_text(path, None, json.dumps(new, indent=2, ensure_ascii=False) + "\n")
