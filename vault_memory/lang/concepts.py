"""The kinds of question that what the user *is* answers, and the facts of those kinds, in
every installed pack's words: a question about food is answered by the user's diet and
allergies, one about medicines by their allergies, one about their work or home by those
facts (``recall.kinds`` finds them). Each reading is one pattern of all packs' words, built
once; the names it returns ("work", "residence") do not depend on the language. A question
is read in the words of its own language's pack (of every pack when its language is not
clear): "como" asks what to eat in Spanish and how in Portuguese."""

from __future__ import annotations

import functools
import re

from .pack import Pack
from .registry import all_packs, pack
from .text import fold_accents


def _fragments(field: str, language: str | None = None) -> list[str]:
    return [fragment for p in _packs(language) for fragment in getattr(p, field)]


def _packs(language: str | None) -> tuple[Pack, ...]:
    """The pack of ``language``, or every pack (None, or a language with no pack)."""
    own = pack(language) if language else None
    return (own,) if own is not None else all_packs()


@functools.cache
def _pattern(
    fields: tuple[str, ...], *, whole: bool = True, ignore_case: bool = True, language: str | None = None
) -> re.Pattern[str]:
    """One pattern of the fragments of ``fields`` in the pack of ``language`` (None: every
    pack), as whole words (``whole``: a word boundary after, too) or as openings."""
    fragments = [f for field in fields for f in _fragments(field, language)] or ["(?!)"]
    end = r"\b" if whole else ""
    return re.compile(rf"\b(?:{'|'.join(fragments)}){end}", re.IGNORECASE if ignore_case else 0)


def asks_about_food(question: str, language: str | None) -> bool:
    """A question about what the user may eat, which their diet and allergies answer: one
    with a word of meals ("dinner", "restaurant", "comer"), or one that asks whether a
    dish is safe or allowed ("can I order the chicken wings?", "¿puedo pedir milanesa?";
    not "who taught me to make empanadas?"); not one that recalls what they eat or like
    ("what hot drink do I have at breakfast?", "what's my favourite restaurant?"),
    answered by that memory itself. ``language``: the question's (``lang.detect``), whose
    pack's words are read (None: every pack's)."""
    may_i_have = _pattern(("dishes",)).search(question) and _pattern(  # a dish's name travels: "empanadas", "sushi"
        ("may_i_have",), language=language
    ).search(question)
    asks = _pattern(("food_questions",), language=language).search(question) or may_i_have
    return bool(asks) and not _pattern(("recalls_a_habit",), whole=False, language=language).search(question)


def asks_about_medicine(question: str, language: str | None) -> bool:
    """A question about which medicines are safe for the user to take ("which medicine must
    a doctor never give me?"; not "what medication do I take every morning?", answered by
    the medicine itself)."""
    medicine = _pattern(("medicine_words",), language=language).search(question) or _pattern(("drugs",)).search(
        question
    )
    return bool(medicine and _pattern(("may_i_have",), language=language).search(question))


@functools.cache
def _subject_questions(language: str | None) -> tuple[tuple[str, re.Pattern[str]], ...]:
    packs = _packs(language)
    subjects = list(dict.fromkeys(s for p in packs for s in p.subject_questions))
    return tuple(
        (s, re.compile(rf"\b(?:{'|'.join(f for p in packs for f in p.subject_questions.get(s, ()))})\b", re.I))
        for s in subjects
    )


def subject_asked(question: str, language: str | None) -> str | None:
    """The slot subject ("work", "residence") a question about the user's work or home asks
    about, if it is one ("what do I do for a living?", "¿dónde vivo?")."""
    found = _subject_questions(language)
    return next((subject for subject, asks in found if asks.search(question)), None)


def _folded_words(field: str) -> list[str]:
    return list(dict.fromkeys(fold_accents(w) for w in _fragments(field)))


def _written(*fields: str) -> list[str]:
    """The words of ``fields`` as written, where folding changed them ("alérgico")."""
    return list(dict.fromkeys(w for field in fields for w in _fragments(field) if fold_accents(w) != w))


@functools.cache
def _fact_words(*fields: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(w for field in fields for w in _folded_words(field)) + r")\b")


def says_allergy(folded: str) -> bool:
    """A fact (folded, lower case) that names an allergy."""
    return bool(_fact_words("allergy_words").search(folded))


def says_diet(folded: str) -> bool:
    """A fact (folded, lower case) about what the user can or will not eat: it names a diet
    or an allergy, or says the user does not eat or drink something."""
    return bool(
        _fact_words("allergy_words", "diet_words").search(folded)
        or _pattern(("not_eating",), ignore_case=False).search(folded)
    )


def allergy_is_to_food(folded: str) -> bool:
    """What an allergy of the fact (folded, lower case) is to names a food."""
    return bool(_pattern(("food_allergens",), ignore_case=False).search(folded))


def allergy_is_to_other(folded: str) -> bool:
    """What an allergy of the fact (folded, lower case) is to names a medicine or something
    around the user (pollen, latex, bee stings)."""
    return bool(_pattern(("medicine_words", "drugs", "other_allergens"), ignore_case=False).search(folded))


def allergy_query() -> str:
    """The keyword question that finds the user's allergies, in every pack's spellings."""
    return " ".join([*_folded_words("allergy_words"), *_written("allergy_words")])


def diet_query() -> str:
    """The keyword question that finds the user's allergies and diet."""
    words = [*_folded_words("allergy_words"), *_folded_words("diet_words")]
    return " ".join([*words, *_written("allergy_words", "diet_words")])


def avoided_foods_query() -> str:
    """The keyword question of the foods a diet most often leaves out ("I don't eat pork",
    "No como carne roja" name no diet), each word once."""
    return " ".join(dict.fromkeys(_fragments("avoided_foods")))


def compiled() -> list[re.Pattern[str]]:
    """Every pattern this module builds from the installed packs (the linear-time test
    reads them all)."""
    fields = ("food_questions", "dishes", "medicine_words", "may_i_have", "drugs")
    out = [_pattern((f,), language=code) for f in fields for code in (None, *(p.code for p in all_packs()))]
    out += [
        _pattern(("recalls_a_habit",), whole=False, language=code) for code in (None, *(p.code for p in all_packs()))
    ]
    out += [_pattern(("not_eating",), ignore_case=False), _pattern(("food_allergens",), ignore_case=False)]
    out += [_pattern(("medicine_words", "drugs", "other_allergens"), ignore_case=False)]
    out += [_fact_words("allergy_words"), _fact_words("allergy_words", "diet_words")]
    out += [asks for code in (None, *(p.code for p in all_packs())) for _, asks in _subject_questions(code)]
    return out
