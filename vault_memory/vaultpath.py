"""Where a vault is, with the standard library only: the rule ``config.locate_vault``
applies (and words the errors of), and that `vmem recall`'s fast path applies before
anything else is imported. (``hooks/vmem_hook.py`` keeps its own copy: it is a script
copied beside an agent's settings and imports nothing of vmem.)"""

from __future__ import annotations

import os
from collections.abc import Callable

#: the file that makes a folder a vault
CONFIG_NAME = "vmem.toml"


def data_home() -> str:
    """``$XDG_DATA_HOME/vmem`` (``~/.local/share/vmem`` without it): the per-user vault and
    the record of the vaults the user chose."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "vmem")


def default_vault_path() -> str:
    """The per-user vault: ``$XDG_DATA_HOME/vmem/vault`` (``~/.local/share`` without it)."""
    return os.path.join(data_home(), "vault")


def vaults_above(cwd: str) -> list[str]:
    """Every folder at or above ``cwd`` holding vmem.toml, nearest first."""
    here = os.path.realpath(cwd)
    found = []
    while True:
        if os.path.isfile(os.path.join(here, CONFIG_NAME)):
            found.append(here)
        parent = os.path.dirname(here)
        if parent == here:
            return found
        here = parent


def nearest_vault(cwd: str, accept: Callable[[str], bool] | None = None) -> str | None:
    """The nearest folder at or above ``cwd`` holding vmem.toml (of those ``accept`` takes,
    when given), else the per-user default when it is a vault; None when neither is."""
    for folder in vaults_above(cwd):
        if accept is None or accept(folder):
            return folder
    default = default_vault_path()
    return default if os.path.isfile(os.path.join(default, CONFIG_NAME)) else None
