"""The verbs of a language, from a maintained lexicon: simplemma's lemma lists (Wiktionary
and Měchura's lists, about 900,000 forms a language), so a verb the grammar's short lists
never named ("abasteço", "descubrí", "friego") is still known for what it is.

Only a word's own entry decides: "piso", "seguro", "curso" are nouns there (their lemma is
themselves), so a sentence that opens with one is not read as the user's verb; a form the
lexicon gives to a verb ("abasteço" → "abastecer") is. The lists load once a process and a
language, on the first word that needs them (about a second; the daemon loads them in the
background, 30 s after it starts), read from the compressed stream with no dictionary built (13 MB,
not 100). Without simplemma, nothing is known here and the grammar's lists decide alone."""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping

from .text import fold_accents

#: the endings of an infinitive, by language: a lemma with one is a verb's
_INFINITIVE = {"es": ("ar", "er", "ir", "ír"), "pt": ("ar", "er", "ir", "or", "ôr")}
#: the longest word looked up: longer than any verb's form ("desconstitucionalizaríamos", 26)
LONGEST_WORD = 40
_LOCK = threading.Lock()
_LOADED: dict[str, Mapping[str, str] | None] = {}


def verb_lemma(word: str, lang: str) -> str | None:
    """The infinitive of the verb ``word`` is a form of, as the lexicon of ``lang`` gives
    it ("abasteço" → "abastecer", "perdí" → "perder"), or None: a noun or adjective there
    ("piso", "seguro"), a word it does not hold, or a language it has no verbs of. A word
    typed without the accent of its past ("perdi", es) is looked up with it too."""
    endings = _INFINITIVE.get(lang)
    if endings is None or len(word) > LONGEST_WORD:
        return None  # no verb's form is longer; a pasted run of letters is not looked up vowel by vowel
    forms = _forms(lang)
    if forms is None:
        return None
    if word[:1].isupper() and not (own := forms.get(word) or "").endswith(endings) and own:
        return None  # a name the lexicon holds as one ("Mateo", not "mateo" of "matear")
    low = word.casefold()
    if low in _function_words(lang) or _spelt_as_another(low, forms, endings):
        return None  # "pelo" (by the); "numero" typed for "número"
    for spelt in (low, *([low[:-1] + "í"] if lang == "es" and low.endswith("i") else [])):
        lemma = forms.get(spelt)
        if lemma is not None and lemma != spelt and lemma.endswith(endings):
            return lemma
    return None


def of_a_verb(word: str, lang: str) -> bool:
    """Whether the lexicon of ``lang`` holds ``word`` as a verb's form, its infinitive too
    ("mudar", "mudando", "aposentar"; not "fir" of "firme"): a word a pronoun may be put on."""
    endings = _INFINITIVE.get(lang)
    if endings is None or len(word) > LONGEST_WORD:
        return False
    forms = _forms(lang)
    if forms is None:
        return False
    low = word.casefold()
    return any((forms.get(w) or "").endswith(endings) for w in dict.fromkeys((low, fold_accents(low))))


def verb_lemmas(word: str, lang: str) -> frozenset[str]:
    """``verb_lemma`` as the grammars' lists hold an infinitive, as written and folded
    ("abastecer"; "reír" and "reir"), or none: the one set a list's test reads either from."""
    lemma = verb_lemma(word, lang)
    return frozenset({lemma, fold_accents(lemma)}) if lemma else frozenset()


#: the accents a vowel may have lost as typed
_ACCENTED = {"a": "áâ", "e": "éê", "i": "í", "o": "óô", "u": "ú"}


def _spelt_as_another(low: str, forms: Mapping[str, str], endings: tuple[str, ...]) -> bool:
    """Whether ``low`` with one accent more is a word of its own that is no verb's: the user
    typed "numero de tarjeta" for "número", not "numerar"'s first person."""
    for at, vowel in enumerate(low):
        for accented in _ACCENTED.get(vowel, ""):
            lemma = forms.get(low[:at] + accented + low[at + 1 :])
            if lemma is not None and not lemma.endswith(endings):
                return True
    return False


@functools.cache
def _function_words(lang: str) -> frozenset[str]:
    """The pack's function words, which no lexicon's rare verb reads ("pelo" is "by the")."""
    from .registry import pack  # the packs' grammars use this module: read once they are loaded

    found = pack(lang)
    return frozenset(found.function_words) if found is not None else frozenset()


def prepare() -> list[str]:
    """Load every language's lexicon now, the languages it has verbs of (a daemon's warm-up:
    a prompt is read for a second at most, and the first one to need a lexicon would spend
    it loading)."""
    return [lang for lang in _INFINITIVE if _forms(lang) is not None]


def _forms(lang: str) -> Mapping[str, str] | None:
    if lang not in _LOADED:
        with _LOCK:  # one load, when the warm-up and a first prompt ask at once
            if lang not in _LOADED:
                _LOADED[lang] = _load(lang)
    return _LOADED[lang]


def _load(lang: str) -> Mapping[str, str] | None:
    try:
        from simplemma.strategies import StreamDictionaryFactory
    except ImportError:  # an install without it: the grammar's lists decide alone
        return None
    try:
        return StreamDictionaryFactory(cache_max_size=0).get_dictionary(lang)
    except (OSError, ValueError):
        return None
