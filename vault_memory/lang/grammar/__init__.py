"""What of a language is code, not words: each pack may bring its grammar's functions
(``Pack.third_person``), written here one module per language, and the rules call them
through the pack of the text's language. A language whose pack brings none leaves the text
as it was said."""

from __future__ import annotations

import warnings
from collections.abc import Callable

from ..registry import pack


def in_third_person(text: str, lang: str | None) -> str:
    """``text`` as a fact about the user, in the language it is written in (``lang``, as
    ``lang.detect`` tells it; English when it could not): "I live in Lima" → "the user lives
    in Lima", "mi hermana" → "la hermana del usuario". What a fact already in the third
    person says stays."""
    found = pack(lang or "en")
    if found is None or found.third_person is None:
        return text
    said = guarded(found.third_person, found.code, text)
    return said if isinstance(said, str) else text


def guarded(function: Callable[..., str | None], code: str, *args: str) -> str | None:
    """A pack's grammar called, or None when it fails: a pack from another package is code
    vmem did not write, and one that raises must not stop a request from being read (it is
    warned of, and the words are kept as said)."""
    try:
        return function(*args)
    except Exception as exc:  # a plugin's bug, whatever it is
        warnings.warn(f"language pack {code!r}: its grammar failed ({type(exc).__name__}: {exc})", stacklevel=2)
        return None
