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
        joined: list[str] = []  # each as said, its spaces kept: a join adds none ("3.º andar")
        for piece in sentencex.segment(lang or "en", line):
            if not piece.strip():
                if joined:
                    joined[-1] += piece
                continue
            last = joined[-1].strip() if joined else ""
            # no space before it: no sentence begins there ("3.º andar", a segmenter's break);
            # the segmenter's pieces keep their spaces, so a piece joined again is added as is
            glued = bool(joined) and not joined[-1][-1:].isspace()
            if joined and (glued or ends_in_abbreviation(last) or _LIST_NUMBER.match(last)):
                joined[-1] += piece
            else:
                joined.append(piece)
        out += [sentence.strip() for sentence in joined]
    return out


def ends_in_abbreviation(piece: str) -> bool:
    """Whether ``piece`` ends with an abbreviation and its full stop ("…is Dr.", "Mr."): no
    sentence or clause ends there."""
    match = _LAST_WORD.search(piece)
    return match is not None and match.group(1).casefold() in _abbreviations()
