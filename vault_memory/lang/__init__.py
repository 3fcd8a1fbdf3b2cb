"""Reading people's words: the one package that knows a language.

Everything vmem reads in a text (which language it is in, where its sentences end, its
words with accents folded) goes through here, and the words of each language live in one
*pack* of data (``lang.packs``): adding a language is adding a pack, from this package or
from another installed one (the ``vault_memory.lang_packs`` entry point). This package is
the ground floor: it imports nothing else of vmem.
"""

from .borrow import borrowed
from .cues import says_change, says_contrast
from .detect import ENGLISH, PORTUGUESE, SPANISH, detect, languages, told_alike
from .grammar import in_one_gender, in_third_person
from .keys import a_label, key_concept, key_names, value_wrapping
from .lexicon import prepare as prepare_lexicons
from .marks import conflict_marks
from .pack import Pack
from .question import Question, read_question
from .registry import all_packs, pack
from .sentences import ends_in_abbreviation, sentences
from .subjects import (
    about_the_user,
    may_be_about,
    of_no_one_else,
    of_the_same_people,
    of_the_user,
    people,
    served_by,
    tells_of_the_user,
)
from .text import fold_accents, normalize_space, not_utf8, plain_apostrophes, words
from .typed import with_apostrophes

__all__ = [
    "a_label",
    "Question",
    "about_the_user",
    "borrowed",
    "conflict_marks",
    "read_question",
    "ENGLISH",
    "PORTUGUESE",
    "SPANISH",
    "Pack",
    "detect",
    "told_alike",
    "fold_accents",
    "in_one_gender",
    "in_third_person",
    "key_concept",
    "key_names",
    "languages",
    "prepare_lexicons",
    "may_be_about",
    "normalize_space",
    "plain_apostrophes",
    "with_apostrophes",
    "not_utf8",
    "of_no_one_else",
    "of_the_same_people",
    "of_the_user",
    "tells_of_the_user",
    "pack",
    "people",
    "served_by",
    "says_change",
    "says_contrast",
    "all_packs",
    "ends_in_abbreviation",
    "sentences",
    "value_wrapping",
    "words",
]
