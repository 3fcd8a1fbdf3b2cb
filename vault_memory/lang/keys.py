"""The keys that say who the user is, whatever the language they are named in.

``nombre: Lucas``, ``name: Lucas`` and ``nome: Lucas`` are one profile key: each pack names
its keys by a concept (``Pack.key_names``), and the concept is the key's one name.
"""

from __future__ import annotations

import functools
import re

from .registry import all_packs
from .subjects import tells_of_the_user
from .text import fold_accents


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


@functools.cache
def _asking_to_keep() -> re.Pattern[str]:
    """Every pack's words that ask to keep what follows ("remember", "anota aí", "no te
    olvides", "jot this down"), as one pattern."""
    cues = [cue for p in all_packs() for cue in (*p.remember_cues, *p.forget_requests)]
    cues += [idiom for p in all_packs() for idiom, _ in p.request_idioms]
    return re.compile("|".join(f"(?:{cue})" for cue in cues), re.IGNORECASE)


def a_label(words: str, value: str) -> bool:
    """Whether the ``words`` before a colon label what follows, no key of the user's whose
    value it is: a pack's label ("Important:", "Ojo:"), a request to keep it ("Remember:",
    "Anota aí:", "No te olvides:"), or a lead-in to a clause that tells of the user ("Fun
    fact: I was born on a leap day", "Em suma: estou grávida"). "Remember: I live in Braga"
    had made "Remember" one more key, whose next value would replace this one."""
    return (
        fold_accents(words).casefold() in colon_labels()
        or _asking_to_keep().search(words) is not None
        or (len(value.split()) > 1 and tells_of_the_user(value))  # "son's name: Leo" ("leo": I read)
    )
