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
