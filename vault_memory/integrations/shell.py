"""``vmem hooks install shell``: ``vmem-hook``, a command any agent or script can call with
a prompt (argument or stdin) to get the memory block, fail-open like the agent hooks:
nothing printed and exit 0 when there is no vault, no daemon or no vmem."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from ..vault.fsutil import atomic_write
from .hookfiles import HOOK_FILES, MARK, copy_script, python_command, remove_script

COMMAND_NAME = "vmem-hook"


def default_dir() -> Path:
    return Path.home() / ".local" / "bin"


def install(folder: Path, vault: Path | None) -> Path:
    """``folder/vmem-hook``: a two-line wrapper around the hook script copied beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    script = copy_script(folder / ".vmem-hook.d")
    command = [*python_command(), str(script), "shell", *(["--vault", str(vault)] if vault is not None else [])]
    wrapper = folder / COMMAND_NAME
    atomic_write(  # every path quoted for the shell: a folder named `$(…)` stays a name
        wrapper,
        f"#!/bin/sh\n# {MARK}: prints the vmem block for a prompt (argument or stdin); fails open\n"
        f'exec {shlex.join(command)} "$@"\n',
    )
    wrapper.chmod(0o755)
    return wrapper


def on_path(folder: Path, path_variable: str | None = None) -> bool:
    """Whether a command in ``folder`` runs by its name (``$PATH`` holds the folder)."""
    entries = (os.environ.get("PATH", "") if path_variable is None else path_variable).split(os.pathsep)
    wanted = folder.expanduser().resolve()
    return any(entry and Path(entry).expanduser().resolve() == wanted for entry in entries)


def uninstall(folder: Path) -> list[Path]:
    removed = []
    wrapper = folder / COMMAND_NAME
    if wrapper.is_file() and MARK in wrapper.read_text(errors="replace"):
        wrapper.unlink()
        removed.append(wrapper)
    script_dir = folder / ".vmem-hook.d"
    if script_dir.is_dir():
        removed += [script_dir / name for name in HOOK_FILES if (script_dir / name).is_file()]
        remove_script(script_dir)
        if not any(script_dir.iterdir()):
            script_dir.rmdir()
    return removed
