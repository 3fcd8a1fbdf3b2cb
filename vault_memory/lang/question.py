"""A question read once: what every stage of a recall reads of its words.

Recall's stages each read the question for something of their own (its language, its
words with accents folded, the people it names, whether it asks about the user as a
whole); each read it again, and accent folding alone ran three times a recall. Here it is
read once, by the language layer, and the stages take the reading.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .detect import detect
from .subjects import about_the_user, people
from .text import fold_accents

_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Question:
    """What a question says, as the rules read it."""

    #: as asked
    text: str
    #: its words, accents folded and case folded ("Qué" → "que")
    words: frozenset[str]
    #: the language it is in (``detect``), or None where unsure
    language: str | None
    #: the roles of the user's people it names (``people``: "my sister" → {sister})
    people: frozenset[str]
    #: it asks about the user as a whole ("what do you know about me?")
    about_the_user: bool


@functools.lru_cache(maxsize=64)
def read_question(text: str) -> Question:
    """``text`` read once (and once per process for the same words: a recall asks several
    stages, the daemon the same question again)."""
    return Question(
        text=text,
        words=frozenset(_WORD.findall(fold_accents(text).casefold())),
        language=detect(text),
        people=people(text),
        about_the_user=about_the_user(text),
    )
