"""Where a text's sentences end: at a full stop, but not after "Mr.", "Dra." or "Av.".

The boundaries come from ``sentencex`` (Wikimedia's segmenter: abbreviations of ~300
languages, compiled, a microsecond a sentence); a break it makes after an abbreviation of
any installed pack is joined again (it reads "Av." as an end in Portuguese). A newline
always ends a sentence: a prompt's lines are its user's sentences; a list's number ("2.")
opens the sentence after it, it is not one.
"""

from __future__ import annotations

import functools
import re

import sentencex

from .registry import all_packs

#: a list's number, which a segmenter takes for a sentence of its own ("1." before "my cat is Tom")
_LIST_NUMBER = re.compile(r"^\(?\d{1,2}[.)]$")
#: the last word of a piece before a break, with its full stop
_LAST_WORD = re.compile(r"(?:^|[\s(«\"'“])([^\s(«\"'“]+)\.\s*$")


@functools.cache
def _abbreviations() -> frozenset[str]:
    return frozenset(a.casefold().rstrip(".") for p in all_packs() for a in p.abbreviations)


def sentences(text: str, lang: str | None = None) -> list[str]:
    """The sentences of ``text``, stripped, in order (none for blank text); ``lang`` is the
    text's language when known (English rules otherwise)."""
    out: list[str] = []
    for line in text.splitlines():
        joined: list[str] = []
        for piece in sentencex.segment(lang or "en", line):
            piece = piece.strip()
            if not piece:
                continue
            if joined and (_ends_in_abbreviation(joined[-1]) or _LIST_NUMBER.match(joined[-1])):
                joined[-1] = f"{joined[-1]} {piece}"
            else:
                joined.append(piece)
        out += joined
    return out


def _ends_in_abbreviation(piece: str) -> bool:
    match = _LAST_WORD.search(piece)
    return match is not None and match.group(1).casefold() in _abbreviations()
