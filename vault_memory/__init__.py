"""vmem: filesystem-first memory for AI agents.

``from vault_memory import Vault`` is the library; ``vmem`` (``vault_memory.cli``) is a thin
command line over it. Where things live:

- ``memory``      the Memory dataclass and the rules for its values
- ``fileformat``  parsing and writing one Markdown file
- ``scanner``     which files in a vault are memories
- ``vault``       reading and writing the vault's files
- ``lifecycle``   expiry, supersession (pure rules)
- ``doctor``      vault checks
"""

from .errors import (
    AmbiguousId,
    ConfigError,
    DuplicateId,
    EmbedderError,
    EncodingError,
    FileTooLarge,
    FrontmatterError,
    IndexError_,
    IndexStale,
    InvalidId,
    MemoryFileError,
    NotFound,
    OutsideVault,
    VaultError,
    VaultNotFound,
    WriteRefused,
)

__version__ = "0.1.0"

# The rest is imported on first use: `vmem recall` answered by a daemon never parses a
# memory file, so it should not pay for importing the YAML and frontmatter stack.
_LAZY = {"Config": "config", "locate_vault": "config", "Memory": "vault.memory", "Problem": "vault.vault", "Vault": "vault.vault"}


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "AmbiguousId",
    "Config",
    "ConfigError",
    "DuplicateId",
    "EmbedderError",
    "EncodingError",
    "FileTooLarge",
    "FrontmatterError",
    "IndexError_",
    "IndexStale",
    "InvalidId",
    "Memory",
    "MemoryFileError",
    "NotFound",
    "OutsideVault",
    "Problem",
    "Vault",
    "VaultError",
    "VaultNotFound",
    "WriteRefused",
    "locate_vault",
]
