"""Whether a new text says anything an existing memory does not: the rules behind
reconfirming instead of writing a duplicate (pure functions)."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Rules


@dataclass(frozen=True)
class Said:
    """What a restatement is judged by: a text's content words (``content_terms``) and the
    people of the user's it is about (``lang.roles.people_of``; empty: the user)."""

    terms: frozenset[str]
    people: frozenset[str] = frozenset()
    #: it says no, never or not ("I can't drive at night"): a text that drops that says the opposite
    denies: bool = False


def is_restatement(new: Said, old: Said, similarity: float, rules: Rules = Rules()) -> bool:
    """A new text restates an existing memory when their meanings are close (cosine at or
    above ``dedup_similarity``), it adds no content word of its own, and it is about the
    same one. Similarity alone cannot tell "backend engineer" from "frontend engineer"
    (0.98 with the bundled model); the word check catches what changed, and the people
    check whose it is ("I am allergic to peanuts" is 0.88 from "My son is allergic to
    peanuts" and adds no word), so a new fact is never swallowed."""
    return similarity >= rules.dedup_similarity and may_restate(new, old)


def may_restate(new: Said, old: Said) -> bool:
    """Whether any similarity would make ``new`` a restatement of ``old``: it adds no
    content word, is about the same one, and denies what ``old`` denies (no model need be
    asked when it is not). "I can drive at night" adds no word to "I can't drive at night"
    and is 0.88 from it: it was taken for the old fact, which was reconfirmed."""
    return bool(new.terms) and new.terms <= old.terms and new.people == old.people and new.denies == old.denies
