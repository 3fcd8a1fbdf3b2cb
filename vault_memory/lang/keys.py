"""The keys that say who the user is, whatever the language they are named in.

``nombre: Lucas``, ``name: Lucas`` and ``nome: Lucas`` are one profile key: each pack names
its keys by a concept (``Pack.key_names``), and the concept is the key's one name.
"""

from __future__ import annotations

import functools

from .registry import all_packs


@functools.cache
def _concepts() -> dict[str, str]:
    return {name: concept for p in all_packs() for concept, names in p.key_names.items() for name in (concept, *names)}


def key_concept(normalized: str) -> str | None:
    """The concept a normalised key names in any pack ("nombre", "nome" → "name"), or None."""
    return _concepts().get(normalized)


@functools.cache
def key_names(concept: str) -> frozenset[str]:
    """Every name of ``concept`` in every pack, the concept's own included."""
    return frozenset(name for name, of in _concepts().items() if of == concept)


@functools.cache
def value_wrapping() -> frozenset[str]:
    """The words a profile fact wraps its value in, in any pack ("the user's name is", "se
    llama", "se chama"): not its value."""
    return frozenset(word for p in all_packs() for word in p.value_wrapping)


@functools.cache
def colon_labels() -> frozenset[str]:
    """The words of any pack that label what follows a colon, no key ("Important:", "Ojo:")."""
    return frozenset(word for p in all_packs() for word in p.colon_labels)
