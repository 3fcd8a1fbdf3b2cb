"""Which language a memory or a question is written in, or not known.

Recall needs this to know which evidence a leg can give: the keyword leg cannot match a
Spanish memory to an English question (its silence there says nothing), and an English-
only embedding model cannot judge a Spanish pair at all. A guess that is unsure says
``None``, and ``None`` changes nothing, so an unusual text is ranked as before.

Each pack votes with its frequent function words that are rare in the others ("the",
"what" / "el", "qué"), plus the characters only it writes (¿ ¡ ñ), its accents and how only
it spells ("minha", "lembre-se"). The
most votes win; a tie is not known. It runs on every memory indexed and every question,
in microseconds and with no model to load.
"""

from __future__ import annotations

import functools
import re

from .registry import all_packs
from .text import words

ENGLISH = "en"
SPANISH = "es"
PORTUGUESE = "pt"


#: a pack's vote (``_voters``): its code, its words, its own words, its marks, their
#: weight, its own accents, its shared accents, its own spellings
_Voter = tuple[
    str,
    frozenset[str],
    frozenset[str],
    re.Pattern[str] | None,
    int,
    re.Pattern[str] | None,
    re.Pattern[str] | None,
    re.Pattern[str] | None,
]


@functools.cache
def _voters() -> tuple[_Voter, ...]:
    """Each pack's vote: its words, those of them no earlier pack lists (its own), its marks
    and its accents (those of an earlier pack removed)."""

    def chars(text: str) -> re.Pattern[str] | None:
        return re.compile(f"[{re.escape(text)}]") if text else None

    voters = []
    earlier_words: set[str] = set()
    earlier_accents: set[str] = set()
    for p in all_packs():
        own_accents = "".join(ch for ch in p.accents if ch not in earlier_accents)
        shared_accents = "".join(ch for ch in p.accents if ch in earlier_accents)
        spellings = re.compile(p.spellings, re.IGNORECASE) if p.spellings else None
        voters.append((p.code, p.function_words, p.function_words - earlier_words, chars(p.marks), p.mark_weight,
                       chars(own_accents), chars(shared_accents), spellings))  # fmt: skip
        earlier_words |= p.function_words
        earlier_accents |= set(p.accents)
    return tuple(voters)


def detect(text: str) -> str | None:
    """The code of the language ``text`` is in ("en", "es", …), or None when it gives no
    clear sign (a name, a number, a mix).

    A word an earlier pack lists too ("que", "como" of Spanish and Portuguese) votes for a
    later pack only beside evidence of its own (a word, a mark or an accent no earlier pack
    has): "Trabajo como enfermera" stays Spanish, "Eu trabalho como enfermeira" is not."""
    found = words(text)
    best: str | None = None
    best_votes = top_tie = 0
    for voter in _voters():
        votes = _votes(voter, text, found)
        if votes > best_votes:
            best, best_votes, top_tie = voter[0], votes, 0
        elif votes == best_votes:
            top_tie = votes
    return best if best_votes > 0 and top_tie < best_votes else None


def _votes(voter: _Voter, text: str, found: list[str]) -> int:
    """How many votes one pack gives ``text`` (its ``found`` words): its own evidence, and
    the words and accents it shares with an earlier pack only beside some of its own."""
    _, function_words, own_words, marks, weight, own_accents, shared_accents, spellings = voter
    own = sum(1 for w in found if w in own_words)
    own += weight * bool(marks and marks.search(text)) + bool(own_accents and own_accents.search(text))
    shared = sum(1 for w in found if w in function_words and w not in own_words)
    # a spelling votes beside a word of the pack: "the greenhouse roof" spells "nh" too
    own += bool(spellings and (own or shared) and spellings.search(text))
    shared += bool(shared_accents and shared_accents.search(text))
    return own + shared if own or own_words == function_words else 0


def languages() -> tuple[str, ...]:
    """The codes of the installed packs."""
    return tuple(p.code for p in all_packs())


@functools.cache
def told_alike(language: str | None) -> frozenset[str]:
    """The languages whose short texts are often told as ``language``, itself included
    (``Pack.told_as``, both ways): "uso óculos", said among Portuguese, is Portuguese."""
    if language is None:
        return frozenset()
    own = next((p.told_as for p in all_packs() if p.code == language), frozenset())
    return frozenset({language, *own, *(p.code for p in all_packs() if language in p.told_as)})


__all__ = ["ENGLISH", "PORTUGUESE", "SPANISH", "detect", "languages", "told_alike"]
