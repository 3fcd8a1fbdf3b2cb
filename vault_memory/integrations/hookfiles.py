"""The hook script every agent integration runs, and how it is copied into place.

The script (``hooks/vmem_hook.py`` in the source tree, ``vault_memory/_hooks/`` in the
wheel) imports only the standard library, so a prompt hook costs a Python start and one
socket round trip, and it is *copied* next to the agent's settings: a vmem uninstalled or
moved leaves a hook that still runs, logs why, and exits 0 instead of breaking the agent.
It is three files: the launcher agents run, the code it imports (Python caches the
bytecode of an import, never of the script it runs: a few milliseconds on every prompt),
and the way to the daemon that code speaks through (a copy of ``daemonlink``).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from ..vault.fsutil import atomic_write

SCRIPT_NAME = "vmem_hook.py"
#: the modules the launcher imports; copied, replaced and removed with it
CORE_NAME = "vmem_hook_core.py"
LINK_NAME = "vmem_daemonlink.py"
#: every file of the hook, in the order they are copied: what is imported before what
#: imports it, the launcher last (it never runs without its code)
HOOK_FILES = (LINK_NAME, CORE_NAME, SCRIPT_NAME)
#: every line vmem writes into someone else's file carries this, so uninstall finds its own
MARK = "vmem-hook"
_PACKAGE = Path(__file__).resolve().parent.parent


def script_source(name: str = SCRIPT_NAME) -> Path:
    packaged = _PACKAGE / "_hooks" / name
    return packaged if packaged.is_file() else _PACKAGE.parent / "hooks" / name


def copy_script(folder: Path) -> Path:
    """The hook script and its code in ``folder`` (each replaced when vmem's copy differs),
    the launcher executable; returns the launcher."""
    for name in HOOK_FILES:
        target = folder / name
        text = script_source(name).read_bytes()
        if not target.is_file() or target.read_bytes() != text:
            atomic_write(target, text)
    target.chmod(0o755)
    return target


def remove_script(folder: Path) -> None:
    """Take the hook's files out of ``folder``: the launcher, its code and the code's cached
    bytecode (a ``__pycache__`` shared with other scripts keeps theirs)."""
    for name in reversed(HOOK_FILES):
        (folder / name).unlink(missing_ok=True)
    cache = folder / "__pycache__"
    for module in (CORE_NAME, LINK_NAME):
        for compiled in cache.glob(f"{Path(module).stem}.*.pyc") if cache.is_dir() else []:
            compiled.unlink(missing_ok=True)
    if cache.is_dir() and not any(cache.iterdir()):
        cache.rmdir()


def vmem_executable() -> str:
    """The ``vmem`` command beside this interpreter (what the user installed), else PATH's."""
    beside = Path(sys.executable).with_name("vmem")
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("vmem") or "vmem"


def python_executable() -> str:
    """Any Python 3 runs the script; this one is known to exist now."""
    return sys.executable or shutil.which("python3") or "python3"


#: how the script is started: without the site module (``-S``). The script imports only the
#: standard library, and a Python's site reads every ``.pth`` file of every installed package
#: before the first line runs: half of a bare start's 35 ms in vmem's own environment, paid
#: by every prompt (docs/benchmarks.md, "The prompt hook without the site module")
PYTHON_FLAGS = ("-S",)


def python_command() -> list[str]:
    """The interpreter and its flags that run the hook script."""
    return [python_executable(), *PYTHON_FLAGS]
