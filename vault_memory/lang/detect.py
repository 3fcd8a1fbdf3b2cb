"""Which language a memory or a question is written in, or not known.

Recall needs this to know which evidence a leg can give: the keyword leg cannot match a
Spanish memory to an English question (its silence there says nothing), and an English-
only embedding model cannot judge a Spanish pair at all. A guess that is unsure says
``None``, and ``None`` changes nothing, so an unusual text is ranked as before.

Each pack votes with its frequent function words that are rare in the others ("the",
"what" / "el", "qué"), plus the characters only it writes (¿ ¡ ñ) and its accents. The
most votes win; a tie is not known. It runs on every memory indexed and every question,
in microseconds and with no model to load.
"""

from __future__ import annotations

import functools
import re

from .pack import Pack
from .registry import packs
from .text import words

ENGLISH = "en"
SPANISH = "es"
PORTUGUESE = "pt"


@functools.cache
def _voters() -> tuple[tuple[str, frozenset[str], re.Pattern[str] | None, int, re.Pattern[str] | None], ...]:
    def chars(text: str) -> re.Pattern[str] | None:
        return re.compile(f"[{re.escape(text)}]") if text else None

    return tuple((p.code, p.function_words, chars(p.marks), p.mark_weight, chars(p.accents)) for p in packs())


def detect(text: str) -> str | None:
    """The code of the language ``text`` is in ("en", "es", …), or None when it gives no
    clear sign (a name, a number, a mix)."""
    found = words(text)
    best: str | None = None
    best_votes = top_tie = 0
    for code, function_words, marks, weight, accents in _voters():
        votes = sum(1 for w in found if w in function_words)
        votes += weight * bool(marks and marks.search(text)) + bool(accents and accents.search(text))
        if votes > best_votes:
            best, best_votes, top_tie = code, votes, 0
        elif votes == best_votes:
            top_tie = votes
    return best if best_votes > 0 and top_tie < best_votes else None


def languages() -> tuple[str, ...]:
    """The codes of the installed packs."""
    return tuple(p.code for p in packs())


__all__ = ["ENGLISH", "PORTUGUESE", "SPANISH", "Pack", "detect", "languages"]
