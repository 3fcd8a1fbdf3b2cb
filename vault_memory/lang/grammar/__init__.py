"""What of a language is code, not words: each pack may bring its grammar's functions
(``Pack.third_person``), written here one module per language, and the rules call them
through the pack of the text's language. A language whose pack brings none leaves the text
as it was said."""

from __future__ import annotations

from ..registry import pack


def in_third_person(text: str, lang: str | None) -> str:
    """``text`` as a fact about the user, in the language it is written in (``lang``, as
    ``lang.detect`` tells it; English when it could not): "I live in Lima" → "the user lives
    in Lima", "mi hermana" → "la hermana del usuario". What a fact already in the third
    person says stays."""
    found = pack(lang or "en")
    return found.third_person(text) if found is not None and found.third_person is not None else text
