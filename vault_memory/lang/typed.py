"""Words as chat types them, read as they are written: a contraction without its apostrophe
("dont forget the bakery on Dufferin…", "im allergic to latex"). The rules read "don't"
and "I'm"; typed bare, a request was dropped without a word. Each pack lists its own
(``Pack.typed_contractions``)."""

from __future__ import annotations

import functools
import re

from .registry import all_packs
from .sentences import ends_in_abbreviation


@functools.cache
def _contractions() -> tuple[dict[str, str], re.Pattern[str]]:
    written = {typed: said for p in all_packs() for typed, said in p.typed_contractions.items()}
    words = sorted(written, key=lambda w: (-len(w), w))
    return written, re.compile(rf"(?<![\w'@./-])(?:{'|'.join(words) or '(?!)'})(?![\w'@./-])", re.IGNORECASE)


def with_apostrophes(text: str) -> str:
    """``text`` with each contraction typed without its apostrophe written with it, in the
    case it was typed ("Dont" → "Don't", "DONT" → "DON'T"). A capitalized word that does
    not open its sentence is a name and stays ("Mr. Im", "Shes Lane")."""
    written, pattern = _contractions()

    def restored(m: re.Match[str]) -> str:
        typed = m.group()
        before = text[: m.start()].rstrip()
        opens = (
            not before
            or "\n" in text[len(before) : m.start()]
            or (before[-1] in '.!?:;-•*("“' and not ends_in_abbreviation(before))
        )
        if typed[0].isupper() and not typed.isupper() and not opens:
            return typed
        said = written[typed.casefold()]
        if typed.isupper() and len(typed) > 1:
            return said.upper()
        return said[0].upper() + said[1:] if typed[0].isupper() else said

    return pattern.sub(restored, text)
