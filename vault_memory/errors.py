"""Every error vmem raises, in one tree, and grouped by what the caller can do about it.

    VaultError                      base class; catch this to handle anything vmem raises
    ├── VaultNotFound               no vault could be located (--vault, VMEM_VAULT, parents, default)
    ├── ConfigError                 vmem.toml is unreadable or holds a bad value
    ├── MemoryFileError             one file cannot be used as a memory; names file (and line)
    │   ├── FrontmatterError        the YAML block is broken or holds wrong types
    │   ├── EncodingError           the file is binary or not UTF-8
    │   ├── FileTooLarge            the file is over the configured size limit
    │   ├── MergeConflict           git left the file mid-merge, with conflict markers
    │   └── OutsideVault            a symlink (or path) leads outside the vault
    ├── InvalidInput                a value a verb cannot take (a type, empty text, a date); also a ValueError
    │   └── SecretRefused           the text holds a secret (a key, a token, a password): never stored
    ├── InvalidId                   an id that could escape the vault (``../``, ``/``) or is empty
    ├── NotFound                    no memory (or trashed memory) with that id
    ├── AmbiguousId                 an id prefix matches several memories
    ├── WriteRefused                a write would overwrite or corrupt something; nothing was written
    ├── StorageError                the disk said no (full, read-only, permission); nothing half-written
    ├── IndexUnavailable            the derived indexes cannot serve the request (busy, missing)
    │   ├── IndexDamaged            an index file cannot be read: sync rebuilds it (or `vmem reindex`)
    │   ├── IndexStale              the index was built by another model: run `vmem reindex`
    │   └── IndexLocked             another program holds a catalog or the ledger: try again
    ├── EmbedderError               the embedding model cannot be loaded or run
    ├── DaemonError                 the vault's daemon failed or answered something unreadable
    │   └── AlreadyRunning          a daemon already serves this vault
    ├── TranscriptError             the input is not a conversation vmem can read
    └── LLMError                    the LLM endpoint is down, slow, or answered something unusable

What the caller can do, as four groups every error above belongs to (as httpx groups its
errors), so a caller catches "try again later" apart from "fix your input":

    CallError       change the call: the same arguments fail again (VaultNotFound, InvalidInput,
                    InvalidId, NotFound, AmbiguousId, WriteRefused, TranscriptError)
    ContentError    a person fixes a file or a setting of the vault (ConfigError, MemoryFileError)
    TemporaryError  the same call may work later: something is busy, starting or away
                    (IndexLocked, DaemonError, LLMError)
    MachineError    the machine or the derived state needs a hand: free space, a sync or a
                    reindex, a model (StorageError, IndexDamaged, IndexStale, EmbedderError)

Messages are written for the person at the terminal: they say which file, which line,
and what to do next.
"""

from __future__ import annotations

from pathlib import Path


class VaultError(Exception):
    """Base class of every error vmem raises. ``exit_code`` is the `vmem` command's exit
    status for it (click's way): 1, the command could not proceed; 2, bad usage."""

    exit_code = 1


class CallError(VaultError):
    """Change the call: the same arguments fail again."""


class ContentError(VaultError):
    """A person fixes a file or a setting of the vault; the error names which."""


class TemporaryError(VaultError):
    """The same call may work later: something is busy, starting, or away."""


class MachineError(VaultError):
    """The machine or vmem's derived state needs a hand: free space, a sync, a reindex, a model."""


class VaultNotFound(CallError):
    pass


class ConfigError(ContentError):
    pass


class MemoryFileError(ContentError):
    """A file that cannot be read as a memory. ``path`` and ``line`` locate the problem."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        self.path = Path(path)
        self.line = line
        self.reason = message
        where = f"{self.path}:{line}" if line else f"{self.path}"
        super().__init__(f"{where}: {message}")


class FrontmatterError(MemoryFileError):
    """``more``: the file's other wrong fields, (line, message) each, so one run of
    ``doctor`` names them all instead of one per run."""

    def __init__(self, path: Path | str, message: str, line: int | None = None, more: list | None = None):
        super().__init__(path, message, line)
        self.more: list[tuple[int | None, str]] = more or []


class EncodingError(MemoryFileError):
    pass


class FileTooLarge(MemoryFileError):
    pass


class MergeConflict(MemoryFileError):
    """A file git left mid-merge, with ``<<<<<<<``/``=======``/``>>>>>>>`` markers: two
    versions at once, neither of them a memory until a person keeps one."""


class OutsideVault(MemoryFileError):
    pass


class InvalidInput(CallError, ValueError):
    """A value a verb cannot take; a ``ValueError`` too, so argument-checking callers
    written against plain Python conventions still catch it."""

    exit_code = 2


class SecretRefused(InvalidInput):
    """The text holds what looks like a secret (``vault.secrets``): a vault is plain files,
    often pushed somewhere, so nothing of it was written. ``kind`` says which."""

    def __init__(self, kind: str, where: str = "the text"):
        self.kind = kind
        super().__init__(
            f"{where} holds what looks like {kind}: secrets are never stored in memory (a vault is plain "
            "files, often pushed with git). Keep it in a password manager; to keep the rest, wrap the secret "
            "in <private>…</private> (`vmem remember --allow-secret` stores it as it is)"
        )


class InvalidId(CallError):
    pass


class NotFound(CallError):
    pass


class AmbiguousId(CallError):
    pass


class WriteRefused(CallError):
    pass


class StorageError(MachineError):
    pass


class IndexUnavailable(VaultError):
    pass


class IndexDamaged(IndexUnavailable, MachineError):
    pass


class IndexStale(IndexUnavailable, MachineError):
    pass


class IndexLocked(IndexUnavailable, TemporaryError):
    """Another program holds one of vmem's databases (a catalog, the ledger) in a
    transaction: try again once it lets go. vmem's own writers take turns by a lock file,
    so this is never two vmem processes."""


class EmbedderError(MachineError):
    pass


class DaemonError(TemporaryError):
    pass


class AlreadyRunning(DaemonError):
    pass


class TranscriptError(CallError, ValueError):
    pass


class LLMError(TemporaryError):
    pass
