"""Which packs are installed: vmem's own, then any another package registers under the
``vault_memory.lang_packs`` entry point (the way llm loads its plugins). A pack that fails
to load is left out with a warning; it never stops vmem."""

from __future__ import annotations

import functools
import importlib
import warnings
from importlib.metadata import entry_points

from .pack import Pack

#: the packs that ship with vmem, in the order a tie between them is read
BUILTIN = ("en", "es", "pt")
ENTRY_POINT_GROUP = "vault_memory.lang_packs"


@functools.cache
def all_packs() -> tuple[Pack, ...]:
    """Every installed pack, vmem's first (a later pack of the same code is left out)."""
    found: dict[str, Pack] = {}
    for code in BUILTIN:
        module = importlib.import_module(f".packs.{code}", __package__)
        found[code] = module.PACK
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = point.load()
        except Exception as exc:  # a broken plugin is reported and skipped
            warnings.warn(f"language pack {point.name!r} did not load: {exc}", stacklevel=2)
            continue
        if isinstance(loaded, Pack) and loaded.code not in found:
            found[loaded.code] = loaded
    return tuple(found.values())


def pack(code: str) -> Pack | None:
    """The installed pack of ``code`` ("en", "es", …), or None."""
    return next((p for p in all_packs() if p.code == code), None)
