"""``vmem.toml``: the vault's settings, merged over defaults and checked once at load; and
finding the vault (the folder that holds it). Standard library only, so a command that
needs no more than these (a recall the daemon answers) stays light."""

from __future__ import annotations

import copy
import os
import tomllib
from pathlib import Path
from typing import Any

from .errors import ConfigError, VaultNotFound

CONFIG_NAME = "vmem.toml"

DEFAULTS: dict[str, Any] = {
    "vault": {
        # gitignore-style patterns, relative to the vault root, of Markdown files that are not memories
        "ignore": ["README.md"],
        # larger files are reported and skipped rather than read
        "max_file_bytes": 1_048_576,
    },
    "recall": {
        "budget": 400,  # tokens the memory block may take
        "k": 10,  # memories considered for the block
    },
    "embedding": {
        # "bundled" (offline all-MiniLM-L6-v2 int8), a fastembed model name, or a local model directory
        "model": "bundled",
        "cache_dir": "",
    },
    "git": {"autocommit": False},
    # lifecycle rules; every key optional, defaults in vault_memory/lifecycle.py (docs/lifecycle.md)
    "lifecycle": {},
}


class Config:
    """Read-only view of the merged settings: ``config["recall"]["budget"]``."""

    def __init__(self, data: dict[str, Any], path: Path | None = None):
        self.data = data
        self.path = path

    def __getitem__(self, section: str) -> dict[str, Any]:
        return self.data[section]

    def get(self, section: str, key: str, default: Any = None) -> Any:
        return self.data.get(section, {}).get(key, default)

    @classmethod
    def load(cls, vault_root: Path) -> "Config":
        path = vault_root / CONFIG_NAME
        data = copy.deepcopy(DEFAULTS)
        if path.is_file():
            try:
                user = tomllib.loads(path.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
                raise ConfigError(f"{path}: {e}") from None
            _merge(data, user, path, "")
        _check(data, path)
        return cls(data, path if path.is_file() else None)


def _merge(base: dict[str, Any], user: dict[str, Any], path: Path, prefix: str) -> None:
    for key, value in user.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value, path, f"{prefix}{key}.")
        else:
            base[key] = value


def _check(data: dict[str, Any], path: Path) -> None:
    def want(section: str, key: str, kind: type, what: str) -> None:
        value = data.get(section, {}).get(key)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ConfigError(f"{path}: [{section}] {key} must be {what}, not {value!r}")

    want("vault", "ignore", list, "a list of patterns")
    want("vault", "max_file_bytes", int, "a number of bytes")
    want("recall", "budget", int, "a number of tokens")
    want("recall", "k", int, "a whole number")
    want("embedding", "model", str, "a model name or path")
    want("git", "autocommit", bool, "true or false")
    if data["recall"]["budget"] < 1 or data["recall"]["k"] < 1:
        raise ConfigError(f"{path}: [recall] budget and k must be positive")


STATE_DIR = ".vmem"


def default_vault_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "vmem" / "vault"


def locate_vault(explicit: str | Path | None = None, cwd: Path | None = None) -> Path:
    """``--vault``, else ``VMEM_VAULT``, else the nearest parent with vmem.toml, else the
    per-user default. Raises ``VaultNotFound`` with what was tried."""
    for source, value in (("--vault", explicit), ("VMEM_VAULT", os.environ.get("VMEM_VAULT"))):
        if value:
            path = Path(value).expanduser()
            if not path.is_dir():
                raise VaultNotFound(f"{source} points to {path}, which is not a folder (create one with `vmem init {path}`)")
            return path.resolve()
    here = (cwd or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / CONFIG_NAME).is_file():
            return folder
    default = default_vault_path()
    if (default / CONFIG_NAME).is_file():
        return default
    raise VaultNotFound(
        "no vault found: pass --vault PATH, set VMEM_VAULT, run inside a folder holding vmem.toml, "
        f"or create the default one with `vmem init {default}`"
    )
