"""The hook script every agent integration runs, and how it is copied into place.

The script (``hooks/vmem_hook.py`` in the source tree, ``vault_memory/_hooks/`` in the
wheel) imports only the standard library, so a prompt hook costs a Python start and one
socket round trip, and it is *copied* next to the agent's settings: a vmem uninstalled or
moved leaves a hook that still runs, logs why, and exits 0 instead of breaking the agent.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from ..vault.fsutil import atomic_write

SCRIPT_NAME = "vmem_hook.py"
#: every line vmem writes into someone else's file carries this, so uninstall finds its own
MARK = "vmem-hook"
_PACKAGE = Path(__file__).resolve().parent.parent


def script_source() -> Path:
    packaged = _PACKAGE / "_hooks" / SCRIPT_NAME
    return packaged if packaged.is_file() else _PACKAGE.parent / "hooks" / SCRIPT_NAME


def copy_script(folder: Path) -> Path:
    """The hook script in ``folder`` (replaced when vmem's copy is newer), executable."""
    target = folder / SCRIPT_NAME
    text = script_source().read_bytes()
    if not target.is_file() or target.read_bytes() != text:
        atomic_write(target, text)
    target.chmod(0o755)
    return target


def vmem_executable() -> str:
    """The ``vmem`` command beside this interpreter (what the user installed), else PATH's."""
    beside = Path(sys.executable).with_name("vmem")
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("vmem") or "vmem"


def python_executable() -> str:
    """Any Python 3 runs the script; this one is known to exist now."""
    return sys.executable or shutil.which("python3") or "python3"
