"""The keys that say who the user is, whatever the language they are named in.

``nombre: Lucas``, ``name: Lucas`` and ``nome: Lucas`` are one profile key: each pack names
its keys by a concept (``Pack.key_names``), and the concept is the key's one name.
"""

from __future__ import annotations

import functools
import re

from .registry import all_packs
from .subjects import tells_of_the_user
from .text import fold_accents


@functools.cache
def _concepts() -> dict[str, str]:
    return {name: concept for p in all_packs() for concept, names in p.key_names.items() for name in (concept, *names)}


def key_concept(normalized: str) -> str | None:
    """The concept a normalised key names in any pack ("nombre", "nome" → "name"), or None."""
    return _concepts().get(normalized)


@functools.cache
def key_names(concept: str) -> frozenset[str]:
    """Every name of ``concept`` in every pack, the concept's own included."""
    return frozenset(name for name, of in _concepts().items() if of == concept)


@functools.cache
def value_wrapping() -> frozenset[str]:
    """The words a profile fact wraps its value in, in any pack ("the user's name is", "se
    llama", "se chama"): not its value."""
    return frozenset(word for p in all_packs() for word in p.value_wrapping)


@functools.cache
def colon_labels() -> frozenset[str]:
    """The words of any pack that label what follows a colon, no key ("Important:", "Ojo:")."""
    return frozenset(word for p in all_packs() for word in p.colon_labels)


@functools.cache
def _asking_to_keep() -> re.Pattern[str]:
    """Every pack's words that ask to keep what follows ("remember", "anota aí", "no te
    olvides", "jot this down"), as one pattern of whole words."""
    cues = [cue for p in all_packs() for cue in (*p.remember_cues, *p.forget_requests)]
    cues += [idiom for p in all_packs() for idiom, _ in p.request_idioms]
    cues += [re.escape(verb) for p in all_packs() for verb in p.request_verbs]
    return re.compile(rf"(?<!\w)(?:{'|'.join(cues)})(?!\w)", re.IGNORECASE)


@functools.cache
def _glue() -> frozenset[str]:
    """The words a request to keep may say beside its own ("please remember", "anota aí",
    "guarda isto"): every pack's function words and request fillers, folded."""
    words = {
        w
        for p in all_packs()
        for field in (p.function_words, p.request_fillers, p.back_refs, p.near_refs, p.polite_openers, p.end_courtesies)
        for phrase in field
        for w in phrase.split()
    }
    return frozenset(fold_accents(w).casefold() for w in words)


def _asks_to_keep(words: str) -> bool:
    """Whether the ``words`` before a colon ask to keep what follows: a request of two words
    or more ("Keep in mind", "Anota aí", "No te olvides") or a pack's verb of asking alone
    ("Remember", "Lembra"), with no word of a thing of their own ("Nota final", "Cuenta
    bancaria", "Remember the Milk account" are keys; "Record", "Registro" alone are too)."""
    found = _asking_to_keep().search(words)
    if found is None:
        return False
    rest = (words[: found.start()] + " " + words[found.end() :]).split()
    alone = not rest and " " not in found.group(0).strip()
    if alone and fold_accents(found.group(0)).casefold() not in _request_verbs():
        return False
    return all(fold_accents(w.strip(".,!")).casefold() in _glue() for w in rest)


@functools.cache
def _request_verbs() -> frozenset[str]:
    return frozenset(fold_accents(v).casefold() for p in all_packs() for v in p.request_verbs)


def a_label(words: str, value: str) -> bool:
    """Whether the ``words`` before a colon label what follows, no key of the user's whose
    value it is: a pack's label ("Important:", "Ojo:"), a request to keep it ("Remember:",
    "Anota aí:", "No te olvides:"), or a lead-in to a clause that tells of the user ("Fun
    fact: I was born on a leap day", "Em suma: estou grávida"). "Remember: I live in Braga"
    had made "Remember" one more key, whose next value would replace this one."""
    return (
        fold_accents(words).casefold().replace(".", "") in colon_labels()  # "P.S.", "N.B."
        or _asks_to_keep(words)
        or (len(value.split()) > 1 and not _a_title(value) and tells_of_the_user(value))
    )  # "son's name: Leo" ("leo": I read), "Favorite book: I Am Malala"


def _a_title(value: str) -> bool:
    """Whether ``value`` is a name in title case ("I Am Malala", "My Chemical Romance", "Eu e
    Meu Guarda-Chuva"), no clause of the user's: three of its words in four open capitalised."""
    said = value.split()
    return sum(word[:1].isupper() for word in said) * 4 >= len(said) * 3
