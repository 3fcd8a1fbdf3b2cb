"""vmem: filesystem-first memory for AI agents.

Three lines embed it::

    import vault_memory as vmem
    mem = vmem.open("~/memory")              # or vmem.open(): $VMEM_VAULT / nearest vmem.toml
    mem.remember("nombre: Lucas")            # the write-time rules, not a bare file write
    print(mem.recall("what is the user's name?").block)
    vmem.ingest(mem, Path("session.jsonl"))  # a conversation → memories (vmem ingest)
    vmem.ingest_all(mem, Path("conversations.json"))  # every conversation of an export

``open`` returns a ``VaultMemory`` (``api``) that carries every verb: remember, recall,
correct, confirm, history, forget, restore, list, show, gc, stats, export, import_, doctor,
sync, reindex, daemon. The ``vmem`` command (``cli``) is a thin layer over it. The layers,
top to bottom (each imports only those below it; ``lint-imports`` checks it):

- ``cli``          parse arguments, call the façade, print
- ``daemon``       the sync daemon, an application hosting a ``VaultMemory``
- ``integrations`` Claude Code hooks, git hooks, the shell hook, the MCP server
- ``conversation`` ingest conversations, ``vmem context`` (adapters over the façade)
- ``api``        the façade, on one backend chosen at ``open()``
- ``writing``    every write rule (reconfirm, supersede, persona cap, correct, confirm, gc)
- ``backend``    where the work runs: this process or the vault's daemon (protocol, client)
- ``recall``     engine, ranking, results, rendering the block
- ``index``      the Index (store): catalog, keyword and vector indexes, embedder, generations, snapshots, sync
- ``lifecycle``  expiry, decay, dedup, importance (pure rules)
- ``vault``      the memory model, the file format, the files
- ``errors``, ``config``
"""

TYPE_CHECKING = False  # not `from typing import`: the fast path would pay for importing typing

if TYPE_CHECKING:  # for type checkers; at run time they load on first use like the rest
    from .errors import *  # noqa: F403

__version__ = "0.1.0"

#: the public names, each once, by the module that holds it. Everything is imported on
#: first use: `vmem recall` answered by a daemon never parses a memory file, so it should
#: not pay for importing the YAML and frontmatter stack (nor, in its fast path, pathlib).
_PUBLIC = {
    # the façade
    "api": ("open", "init", "VaultMemory", "Listing", "Checkup"),
    "conversation": ("ingest", "ingest_all", "retry_pending", "context", "IngestReport", "ContextBlock"),
    # data types
    "writing.rules": (
        "Archived",
        "Correction",
        "Created",
        "Declined",
        "Reconfirmed",
        "RememberOutcome",
        "Remembering",
        "Superseded",
    ),
    "vault.memory": ("Memory",),
    "vault.vault": ("Problem",),
    "vault.trash": ("TrashEntry",),
    "vault.transfer": ("ImportReport",),
    "recall.results": ("RecallResult", "Hit"),
    "index.sync": ("SyncReport",),
    # errors (their tree: ``errors``)
    "errors": (
        "VaultError",
        "CallError",
        "ContentError",
        "TemporaryError",
        "MachineError",
        "AlreadyRunning",
        "AmbiguousId",
        "ConfigError",
        "DaemonError",
        "EmbedderError",
        "EncodingError",
        "FileTooLarge",
        "FrontmatterError",
        "IndexDamaged",
        "IndexLocked",
        "IndexStale",
        "IndexUnavailable",
        "InvalidId",
        "InvalidInput",
        "LLMError",
        "MemoryFileError",
        "MergeConflict",
        "NotFound",
        "OutsideVault",
        "SecretRefused",
        "StorageError",
        "TranscriptError",
        "VaultNotFound",
        "WriteRefused",
    ),
}
_LAZY = {name: module for module, names in _PUBLIC.items() for name in names}
__all__ = list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
