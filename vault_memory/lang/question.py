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
from typing import TYPE_CHECKING

from .concepts import asks_about_food, asks_about_medicine, subject_asked
from .detect import detect
from .registry import all_packs
from .subjects import about_the_user, people, served_by
from .text import fold_accents

if TYPE_CHECKING:
    from .times import TimesSaid

_WORD = re.compile(r"[^\W_]+")
_TOKEN = re.compile(r"\w+")
#: what joins two names into one subject, in every pack, and "&"
_AND = "|".join([*dict.fromkeys(re.escape(w) for p in all_packs() for w in p.and_words), "&"])


@dataclass(frozen=True)
class Question:
    """What a question says, as the rules read it: each reading made when a stage first
    asks for it, and once (a question's time and its subject are read from different
    texts: the time from the question as asked, the rest from what is left once a time
    relative to today is taken out, ``recall.dates.without_time``)."""

    #: as asked
    text: str

    @functools.cached_property
    def words(self) -> frozenset[str]:
        """Its words, accents folded and case folded ("Qué" → "que")."""
        return frozenset(_WORD.findall(fold_accents(self.text).casefold()))

    @functools.cached_property
    def tokens(self) -> tuple[str, ...]:
        """Its words as said, case folded, in order ("Did Jon…" → "did", "jon"…): names
        are matched on these, accents and all."""
        return tuple(word.casefold() for word in _TOKEN.findall(self.text))

    def names_together(self, first: str, second: str) -> bool:
        """Whether it names ``first`` and ``second`` joined, as one subject ("did Jon and
        Gina both…", "Ana y Tomás")."""
        return (
            re.search(rf"\b{re.escape(first)}\s+(?:{_AND})\s+{re.escape(second)}\b", self.text, re.IGNORECASE)
            is not None
        )

    @functools.cached_property
    def language(self) -> str | None:
        """The language it is in (``detect``), or None where unsure."""
        return detect(self.text)

    @functools.cached_property
    def people(self) -> frozenset[str]:
        """The roles of the user's people it names (``people``: "my sister" → {sister})."""
        return people(self.text)

    @functools.cached_property
    def served_by(self) -> frozenset[str]:
        """The roles of the people who serve the user it names (``served_by``: "my dentist")."""
        return served_by(self.text)

    @functools.cached_property
    def about_the_user(self) -> bool:
        """Whether it asks about the user as a whole ("what do you know about me?")."""
        return about_the_user(self.text)

    # the kinds of question it is, which what the user *is* answers (``recall.kinds``)

    @functools.cached_property
    def food(self) -> bool:
        """Whether it asks what the user may eat."""
        return asks_about_food(self.text, self.language)

    @functools.cached_property
    def medicine(self) -> bool:
        """Whether it asks which medicines the user may take."""
        return asks_about_medicine(self.text, self.language)

    @functools.cached_property
    def subject(self) -> str | None:
        """The user's work or home, when it asks about one ("work", "residence"), else None."""
        return subject_asked(self.text, self.language)

    @functools.cached_property
    def people_asked(self) -> frozenset[str]:
        """The roles of the user's own people it asks about (``lang.roles.people_asked``:
        "what do my kids like?" → {kid}; not "her son")."""
        from .roles import people_asked  # its patterns are compiled when a question is first read

        return people_asked(self.text)

    @functools.cached_property
    def times(self) -> TimesSaid:
        """The times it says, without a calendar (``lang.times``); days in ``recall.dates``."""
        from .times import times_said

        return times_said(self.text)


@functools.lru_cache(maxsize=64)
def read_question(text: str) -> Question:
    """``text`` as a question, each reading of it made once (and once per process for the
    same words: a recall asks several stages, the daemon the same question again)."""
    return Question(text)


def about_food(question: str) -> bool:
    """Whether ``question`` asks what the user may eat (``Question.food``)."""
    return read_question(question).food


def about_medicine(question: str) -> bool:
    """Whether ``question`` asks which medicines the user may take (``Question.medicine``)."""
    return read_question(question).medicine


def asked_subject(question: str) -> str | None:
    """The slot subject a question about the user's work or home asks about (``Question.subject``)."""
    return read_question(question).subject
