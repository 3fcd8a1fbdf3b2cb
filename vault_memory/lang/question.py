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

from .concepts import asks_about_food, asks_about_medicine, subject_asked
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
    #: the kinds of question it is, which what the user *is* answers (``recall.kinds``):
    #: about what they may eat, about which medicines they may take, about their work or
    #: home ("work", "residence", or None), and the roles of their own people it asks about
    #: (``lang.roles.people_asked``: "what do my kids like?" → {kid}; not "her son")
    food: bool = False
    medicine: bool = False
    subject: str | None = None
    people_asked: frozenset[str] = frozenset()


@functools.lru_cache(maxsize=64)
def read_question(text: str) -> Question:
    """``text`` read once (and once per process for the same words: a recall asks several
    stages, the daemon the same question again)."""
    from .roles import people_asked  # its patterns are compiled when a question is first read

    language = detect(text)
    return Question(
        text=text,
        words=frozenset(_WORD.findall(fold_accents(text).casefold())),
        language=language,
        people=people(text),
        about_the_user=about_the_user(text),
        food=asks_about_food(text, language),
        medicine=asks_about_medicine(text, language),
        subject=subject_asked(text, language),
        people_asked=people_asked(text),
    )


def about_food(question: str) -> bool:
    """Whether ``question`` asks what the user may eat (``Question.food``)."""
    return read_question(question).food


def about_medicine(question: str) -> bool:
    """Whether ``question`` asks which medicines the user may take (``Question.medicine``)."""
    return read_question(question).medicine


def asked_subject(question: str) -> str | None:
    """The slot subject a question about the user's work or home asks about (``Question.subject``)."""
    return read_question(question).subject
