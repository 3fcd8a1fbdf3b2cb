"""Words as chat types them, read as they are written: a contraction without its apostrophe
("dont forget the bakery on Dufferin…", "im allergic to latex"). The rules read "don't"
and "I'm"; typed bare, a request was dropped without a word. Each pack lists its own
(``Pack.typed_contractions``)."""

from __future__ import annotations

import functools
import re

from .detect import detect
from .registry import all_packs
from .sentences import ends_in_abbreviation


@functools.cache
def _contractions() -> dict[str, tuple[dict[str, str], re.Pattern[str]]]:
    """Each pack's contractions as typed, with the pattern that finds them, by language."""
    out = {}
    for p in all_packs():
        if p.typed_contractions:
            words = sorted(p.typed_contractions, key=lambda w: (-len(w), w))
            out[p.code] = (
                dict(p.typed_contractions),
                re.compile(rf"(?<![\w'@./-])(?:{'|'.join(words)})(?![\w'@./-])", re.IGNORECASE),
            )
    return out


def with_apostrophes(text: str, lang: str | None = None) -> str:
    """``text`` with each contraction of its language (``lang``, or read from it; every
    pack's when that is not clear) typed without its apostrophe written with it ("dont" →
    "don't"). One written in capitals is a contraction only in a text typed all in capitals
    ("DONT FORGET" → "DON'T FORGET"; "IM Global" is a name), and one capitalized inside a
    sentence is a name ("Mr. Im", "my friend Im")."""
    contractions = _contractions()
    if not any(pattern.search(text) for _, pattern in contractions.values()):
        return text  # most prompts: no language read for none
    language = lang or detect(text)
    if language is not None and language not in contractions:
        return text  # "recuerda que im es mi apodo": no contraction of Spanish
    for code in [language] if language is not None else list(contractions):
        text = _restored(text, *contractions[code])
    return text


def _restored(text: str, written: dict[str, str], pattern: re.Pattern[str]) -> str:
    """``text`` with the contractions ``pattern`` finds written as ``written`` says."""
    shouted = not any(c.islower() for c in text)

    def restored(m: re.Match[str]) -> str:
        typed = m.group()
        if typed.isupper() and len(typed) > 1:
            return written[typed.casefold()].upper() if shouted else typed
        if typed[0].isupper() and not _opens_a_sentence(text, m.start()):
            return typed
        said = written[typed.casefold()]
        return said[0].upper() + said[1:] if typed[0].isupper() else said

    return pattern.sub(restored, text)


def _opens_a_sentence(text: str, at: int) -> bool:
    """Whether the word at ``at`` opens its line or its sentence (not after an abbreviation)."""
    before = text[:at].rstrip()
    return (
        not before
        or "\n" in text[len(before) : at]
        or (before[-1] in '.!?:;-•*("“' and not ends_in_abbreviation(before))
    )
