"""Whether a fact is about the user, by how it opens in any installed pack."""

from __future__ import annotations

import functools
import re

from .registry import all_packs
from .text import fold_accents, words


@functools.cache
def _opening() -> re.Pattern[str]:
    phrases = sorted({s for p in all_packs() for s in p.user_subjects}, key=len, reverse=True)
    return re.compile(rf"^(?:{'|'.join(re.escape(s) for s in phrases)})(?![^\W_])", re.IGNORECASE)


def of_the_user(text: str) -> bool:
    """ "The user is lactose intolerant", "My standup is at 9:30", "O usuário mora no
    Porto": a fact that opens with the user as its subject."""
    return bool(_opening().match(text.lstrip(" \t\"'“«-*")))


@functools.cache
def _about_me() -> re.Pattern[str]:
    """Every pack's questions about the user as a whole, after any of its openers."""
    packs = all_packs()
    openers = "|".join(o for p in packs for o in p.openers)
    questions = "|".join(q for p in packs for q in p.about_me)
    return re.compile(rf"^[\s¿¡]*(?:(?:{openers})[\s,]+)?(?:{questions})\b[\s?!.¿¡]*$", re.IGNORECASE)


def about_the_user(question: str) -> bool:
    """A question about the user as a whole, with no subject of its own ("what do you know
    about me?", "¿qué sabés de mí?")."""
    return bool(_about_me().match(question.strip()))


@functools.cache
def _kin() -> dict[str, str]:
    return {fold_accents(word).casefold(): role for p in all_packs() for word, role in p.kin.items()}


#: how much of a fact says whose it is: its opening
PEOPLE_CHARS = 120


def people(text: str) -> frozenset[str]:
    """The roles of the user's people and animals a fact names in its opening, whatever the
    language ("My wife traded in her car" → {partner}, "Meu irmão se mudou" → {brother});
    empty for a fact about the user alone."""
    kin = _kin()
    found = [w.removesuffix("'s") for w in words(fold_accents(text[:PEOPLE_CHARS]).replace("’", "'"))]
    return frozenset(kin[w] for w in found if w in kin)


#: the role that covers a narrower one, whatever the language: a question about the user's
#: children may be answered by a fact about their son, one about their son by a fact about
#: their children; never one about their daughter
WIDER = {
    **dict.fromkeys(("son", "daughter"), "child"),
    **dict.fromkeys(("mother", "father"), "parent"),
    **dict.fromkeys(("sister", "brother"), "sibling"),
    **dict.fromkeys(("grandmother", "grandfather"), "grandparent"),
    **dict.fromkeys(("grandson", "granddaughter"), "grandchild"),
    **dict.fromkeys(("dog", "cat", "bird", "fish", "horse", "small_pet"), "pet"),
}


#: a role a question names by its parts ("my mother's mother", "a mãe da minha mulher"):
#: a fact about the one may answer a question that names the other
THROUGH = {
    **dict.fromkeys(("grandmother", "grandfather", "grandparent", "aunt", "uncle"), "parent"),
    **dict.fromkeys(("grandson", "granddaughter", "grandchild"), "child"),
    **dict.fromkeys(("nephew", "niece"), "sibling"),
    **dict.fromkeys(("mother_in_law", "father_in_law"), "partner"),
}


def may_be_about(asked: frozenset[str], named: frozenset[str]) -> bool:
    """Whether a fact that names the roles ``named`` (``people``) may be about someone a
    question names (``asked``): the same role, one that covers the other, or one the
    question names by its parts. "What is my son's name?" is not answered by "My sister is
    called Clara" nor by "My dog is Rex"."""
    wider = {WIDER.get(a, a) for a in asked} | asked
    return any(a == n or WIDER.get(n) == a or WIDER.get(a) == n for a in asked for n in named) or any(
        THROUGH.get(n) in wider for n in named
    )


def of_the_same_people(new: frozenset[str], old: frozenset[str]) -> bool:
    """Whether two facts are of the same people (``people``'s roles): both of the user
    alone, or of people one may be the other (``may_be_about``). A judge that says "My
    sister moved to Porto" replaces "I live in Lyon" is not believed."""
    return new == old or (bool(new) and bool(old) and may_be_about(new, old))
