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

from .config import Config
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
from .memory import Memory
from .vault import Problem, Vault, locate_vault

__version__ = "0.1.0"

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
