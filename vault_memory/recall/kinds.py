"""Questions of a kind, and the facts that answer them whatever their words (pure rules).

Some questions are answered by what the user *is*, not by the words they share with a
memory: one about food by the user's diet and allergies ("should you suggest a steakhouse
for my dinner?" → "No como carne roja"), one about medicines by their allergies ("which
medicine must a doctor never give me?" → "I am allergic to penicillin"), one about the
user's own work or home by those facts ("what do I do for a living?" → "Trabajo como
enfermera"), one about the user's people by the facts about them ("what do my kids do?" →
"My daughter Ana plays the violin"). Each kind is one entry of ``KINDS``: what makes a
question of that kind, and how the index finds its facts (keyword questions and which of
their results answer, or the slot and people tags of ``vault.slots``). Recall lifts a kind's facts above the rest, in their own
order (those no leg found: by their likeness to the question), and counts them relevant
(``Engine._by_kind``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..lang import Question, fold_accents
from ..lang.concepts import (
    allergy_is_to_food,
    allergy_is_to_other,
    allergy_query,
    avoided_foods_query,
    diet_query,
    says_allergy,
    says_diet,
)
from ..lang.question import about_food, about_medicine, asked_subject
from ..lang.roles import people_answering
from ..vault.memory import Memory
from ..vault.sameness import key_and_text
from ..vault.slots import people_named, people_tags_of, subject_tag

__all__ = ["KINDS", "Kind", "Search", "about_food", "about_medicine", "asked_subject", "kinds_of"]


def whom_asked(question: Question) -> frozenset[str]:
    """The names of the user's people a question asks about (``people_answering``); empty
    for a question about the user."""
    return people_answering(question.people_asked)


def about_whom_asked(memory: Memory, whom: frozenset[str]) -> bool:
    """Whether a fact of a kind is about the people a question asks about (``whom_asked``):
    "can my daughter eat shrimp?" is answered by her allergy, not by the user's; a question
    about the user takes every fact of its kind, the family's too ("what should I cook
    tonight?" may be for all of them)."""
    return not whom or bool(people_named(memory.key, memory.text) & whom)


def names_people(memory: Memory) -> bool:
    """Whether a fact names any of the user's people ("My brother lives in Bordeaux")."""
    return bool(people_named(memory.key, memory.text))


def answers_food(memory: Memory) -> bool:
    """A fact found by the diet words that answers what the user may eat: all but an
    allergy to medicines or to what is around ("penicillin", "latex", "bee stings") that
    names no food."""
    text = _folded(memory)
    return not (says_allergy(text) and allergy_is_to_other(text) and not allergy_is_to_food(text))


def answers_medicine(memory: Memory) -> bool:
    """An allergy that answers what the user may be given: all but one to a food
    ("peanuts", "maní") that names no medicine or other allergen."""
    text = _folded(memory)
    return says_allergy(text) and not (allergy_is_to_food(text) and not allergy_is_to_other(text))


def dietary(memory: Memory) -> bool:
    """A fact about what the user can or will not eat: it names a diet or an allergy, or
    says the user does not eat or drink something."""
    return says_diet(_folded(memory))


def _folded(memory: Memory) -> str:
    """A memory's key and text, accents folded and lower case, as the fact patterns read it."""
    return fold_accents(key_and_text(memory.key, memory.text)).casefold()


#: of a kind's facts no leg found, the most recall reads and weighs (by their ids): those
#: that share a word or a likeness with the question are among the candidates already
UNFOUND_FACTS = 50


@dataclass(frozen=True)
class Search:
    """A keyword question for a kind's facts, and which of its results answer (None: all)."""

    query: str
    keeps: Callable[[Memory], bool] | None = None


@dataclass(frozen=True)
class Kind:
    """A kind of question (``asks``) and where its facts are: the results of ``searches``,
    and the facts under the catalog tags ``tags`` and ``tags_of`` the people the question
    asks about (``whom_asked``)."""

    name: str
    asks: Callable[[Question], bool]
    searches: tuple[Search, ...] = ()
    tags: tuple[str, ...] = ()
    tags_of: Callable[[frozenset[str]], list[str]] | None = None

    def tags_for(self, whom: frozenset[str]) -> list[str]:
        return [*self.tags, *(self.tags_of(whom) if self.tags_of else [])]


#: every kind, in the order recall lifts their facts
KINDS = (
    Kind("food", lambda q: q.food, (Search(diet_query(), answers_food), Search(avoided_foods_query(), dietary))),
    Kind("medicine", lambda q: q.medicine, (Search(allergy_query(), answers_medicine),)),
    Kind("work", lambda q: q.subject == "work", tags=(subject_tag("work"),)),
    Kind("residence", lambda q: q.subject == "residence", tags=(subject_tag("residence"),)),
    # last, so above the others: "can my son eat peanuts?" is answered by the son's allergy first
    Kind("people", lambda q: bool(q.people_asked), tags_of=people_tags_of),
)


def kinds_of(question: Question) -> list[Kind]:
    """The kinds ``question`` is of (most often none)."""
    return [kind for kind in KINDS if kind.asks(question)]
