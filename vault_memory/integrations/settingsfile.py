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

from ..errors import ConfigError
from ..vault.fsutil import atomic_write
from . import jsonc

BACKUP_SUFFIX = ".vmem-backup"


def read_text(path: Path) -> str | None:
    """The file's text; None when it does not exist."""
    try:
        with open(path, encoding="utf-8", newline="") as f:  # line endings as they are
            return f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read {path} ({e}); vmem will not overwrite it") from None


def parse_object(path: Path, text: str | None, *, comments: bool = False) -> dict[str, Any]:
    """The JSON object ``text`` holds (``{}`` for none or a blank file), read as strictly
    as vmem can write it back (``jsonc.loads``); ``comments``: where the file's program
    reads them."""
    try:
        data = jsonc.loads(text, comments=comments) if text and text.strip() else {}
    except ValueError as e:
        raise ConfigError(f"{path} is not valid JSON ({e}); fix it first, vmem will not overwrite it") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a JSON object; vmem will not overwrite it")
    return data


def read_object(path: Path, *, comments: bool = False) -> dict[str, Any]:
    """The JSON object in ``path``; ``{}`` for a missing or blank file."""
    return parse_object(path, read_text(path), comments=comments)


def write_text(path: Path, old: str | None, new: str, *, backup: bool = True) -> tuple[bool, Path | None]:
    """Write ``new`` unless it equals ``old`` (the file's text, None when it did not exist);
    back up the previous bytes first (unless not ``backup``: an uninstall, whose previous
    bytes are vmem's own entries). Returns (changed, backup). A symlinked file is written
    where the link points (the link, and the dotfile it leads to, stay as they were); a
    file its owner made read-only is refused, not replaced."""
    if old is not None and new == old:
        return False, None
    kept = None
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if target.exists():
        mode = stat.S_IMODE(target.stat().st_mode)
        if not mode & stat.S_IWUSR:
            raise ConfigError(
                f"{path} is read-only (mode {mode:o}); vmem will not replace it: make it writable, or make the change "
                "by hand"
            )
        if backup:
            kept = free_backup_path(path)
            atomic_write(kept, target.read_bytes())
            os.chmod(kept, mode)  # a 0600 file holding a key stays 0600
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, new)
    return True, kept


def backups_of(path: Path) -> list[Path]:
    """The backups vmem made of ``path`` (``<file>.vmem-backup``, then ``.vmem-backup.N``),
    oldest first."""
    base = path.name + BACKUP_SUFFIX
    try:
        names = [p.name for p in path.parent.iterdir()]
    except OSError:
        return []
    numbered = {-1 if name == base else int(name[len(base) + 1 :]): name for name in names if _is_backup(name, base)}
    return [path.with_name(numbered[n]) for n in sorted(numbered)]


def _is_backup(name: str, base: str) -> bool:
    return name == base or (name.startswith(base + ".") and name[len(base) + 1 :].isdigit())


def free_backup_path(path: Path) -> Path:
    """``<file>.vmem-backup``, or the next free ``<file>.vmem-backup.N``: a backup is never
    overwritten (the first one holds what the file was before vmem ever touched it)."""
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    n = 1
    while backup.exists():
        backup = path.with_name(f"{path.name}{BACKUP_SUFFIX}.{n}")
        n += 1
    return backup


def write_object(
    path: Path, old: dict[str, Any], new: dict[str, Any], *, backup: bool = True
) -> tuple[bool, Path | None]:
    """``new`` as indented JSON, unless it equals ``old`` (what :func:`read_object` gave);
    the file's line endings are kept."""
    if new == old and path.exists():
        return False, None
    text = read_text(path)
    newline = "\r\n" if text and "\r\n" in text else "\n"
    new_text = (json.dumps(new, indent=2, ensure_ascii=False) + "\n").replace("\n", newline)
    return write_text(path, None, new_text, backup=backup)
