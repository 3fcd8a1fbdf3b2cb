"""A noun's phrase in a language that says its adjectives after the noun ("mi seguro médico",
"meu e-mail pessoal"): which of the words after a possessed noun are its own, so the user's
mark ("del usuario", "do usuário") is said after all of them (pure functions; each language
brings its words as ``Modifiers``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

#: a word as a noun's phrase is read: letters, a hyphen inside ("e-mail", "check-in")
PHRASE_WORD = r"[^\W\d_]+(?:-[^\W\d_]+)*"
_NEXT_WORD = re.compile(rf"\s+({PHRASE_WORD})(?![\w-])")
#: what closes a phrase whatever follows: a sign, or the text's end
_CLOSED = re.compile(r"(?<!\s)\s*+(?:[,.;:!?)\]]|$)")  # read after a word: from a run's start only


@dataclass(frozen=True)
class Modifiers:
    """What may follow a noun inside its phrase in a language that says its adjectives after
    the noun ("mi seguro médico", "meu e-mail pessoal"), in that language's words: what a
    possessive's noun brings along before "del usuario" / "do usuário"."""

    #: whether a word is a form of a known verb (a verb opens what is said of the noun)
    verb: Callable[[str], bool]
    #: words that open what is said of the noun: clitics, negations, adverbs, "que", joins
    closers: frozenset[str]
    #: of those, the ones that stand before a verb, never after one (clitics, "no"): the only
    #: ones that close after a word that may itself be a verb ("mi perro muerde siempre")
    before_a_verb: frozenset[str]
    #: words that bring a complement naming the thing ("número de teléfono", "time do coração")
    complements: frozenset[str]
    #: articles a complement may have after its word ("casa de la playa")
    articles: frozenset[str]
    #: words after "de" that make it an adverb, no name's complement ("de repente", "de novo")
    idioms: frozenset[str]
    #: words before an adjective inside the phrase ("más", "mais")
    degree: frozenset[str]
    #: words that are never a noun's adjective or a complement's noun (articles, pronouns,
    #: adverbs, prepositions; "repente" of "de repente")
    never: frozenset[str]
    #: the endings a verb's third person singular may have ("-a", "-e"): a word that ends so
    #: is an adjective only where what follows closes the phrase; any other is one wherever
    #: it stands ("médico", "personal", and every plural: a verb's plural ends in "-n"/"-m")
    verb_like: tuple[str, ...]
    #: endings only a verb's form has ("-ó", "-ou"): a verb no list holds is still no adjective
    verb_endings: tuple[str, ...]
    #: endings of an adjective that has one form for both genders ("-ista")
    invariable: tuple[str, ...] = ()
    #: pronouns a verb takes after a hyphen ("formou-se"): a word with one is a verb
    enclitics: tuple[str, ...] = ()

    def a_verb(self, low: str) -> bool:
        """Whether a lowercase word is a verb's form: by its list, an ending only a verb has,
        or a pronoun after a hyphen."""
        return (
            low.endswith(self.verb_endings) or (bool(self.enclitics) and low.endswith(self.enclitics)) or self.verb(low)
        )


@dataclass(frozen=True)
class Phrase:
    """What of the words after a noun belongs to its phrase."""

    #: how many characters of them
    length: int
    #: the gender its adjectives show (True: feminine), or None when none does
    feminine: bool | None


def modifiers_after(after: str, plural: bool, feminine: bool | None, said: Modifiers) -> Phrase:
    """How much of ``after`` (what follows a possessed noun of this number, and of this gender
    when known) belongs to the noun's phrase: its adjectives and a complement of "de", up to
    what is said of it. A word is the noun's adjective when it agrees with the noun (number;
    gender where its ending shows it) and is no verb's form; one that might be a verb's third
    person ("-a", "-e") only when what follows closes the phrase: a sign, a known verb, a
    clitic or an adverb (two such words in a row: a known verb). Anything else ends the phrase
    where it stood ("mi perro ladra mucho": "ladra" does not agree; "mi perra ladra mucho":
    nothing closes it): what is not read is left as said."""
    end = position = 0
    complement = graded = pending = False
    shown: bool | None = None
    for _ in range(6):
        m = _NEXT_WORD.match(after, position)
        if m is None:
            break
        word = m.group(1)
        low = word.lower()
        if low in said.complements and not complement and not pending:
            found = _complement(after, m.end(), said)
            if found is None:
                break
            position = end = found
            complement = True
            continue
        if low in said.degree:
            position, graded = m.end(), True
            continue
        if not _agrees(word, plural, feminine if feminine is not None else shown, said):
            break
        position = m.end()
        sure = graded or plural or not low.endswith(said.verb_like)
        graded = False
        if pending or not sure:  # maybe a verb no list holds: what follows must say it is not
            closed = _closes(after, position, said, unsure=True, by_a_verb=pending)
            pending = pending or not closed
            if not closed:
                continue
            pending = False
        end = position
        shown = shown if shown is not None else _gender_of(low, plural, said)
    return Phrase(end, shown)


def _complement(after: str, at: int, said: Modifiers) -> int | None:
    """Where a complement of "de" that names the thing ends ("de teléfono", "de la playa",
    "do coração"), or None: its noun is a lowercase word (after "de", a bare word names a
    thing: no verb's form stands there)."""
    m = _NEXT_WORD.match(after, at)
    if m is not None and m.group(1).lower() in said.articles:
        m = _NEXT_WORD.match(after, m.end())
    if m is None:
        return None
    word = m.group(1)
    return m.end() if word[0].islower() and word.lower() not in said.never | said.idioms else None


def _agrees(word: str, plural: bool, feminine: bool | None, said: Modifiers) -> bool:
    """Whether ``word`` may be an adjective of a noun of this number and gender (None: unknown)."""
    low = word.lower()
    if not word[0].islower() or len(low) < 3 or low in said.never:
        return False
    if said.a_verb(low):
        return False
    if plural and not low.endswith("s"):
        return False
    if not plural and low.endswith("s") and not low.endswith(("és", "ês", "is", "us")):  # "inglés", "gris"
        return False
    gender = _gender_of(low, plural, said)
    return feminine is None or gender is None or gender == feminine


def _gender_of(low: str, plural: bool, said: Modifiers) -> bool | None:
    """The gender an adjective's ending shows (True: feminine; "-a", "-o"), or None."""
    stem = low[:-1] if plural else low
    if stem.endswith(said.invariable):
        return None
    return True if stem.endswith("a") else False if stem.endswith("o") else None


def _closes(after: str, at: int, said: Modifiers, unsure: bool = False, by_a_verb: bool = False) -> bool:
    """Whether what follows ``at`` closes a noun's phrase: a sign, a known verb's form, a
    word that opens what is said of the noun. After a word that may be a verb no list holds
    (``unsure``), only a known verb or a word that stands before one ("Mi perro muerde." and
    "…muerde siempre" are not closed); after two such words (``by_a_verb``), only a known
    verb ("cuenta bancaria nueva está" is closed, "perra ladra fuerte y…" is not)."""
    if not unsure and _CLOSED.match(after, at):
        return True
    m = _NEXT_WORD.match(after, at)
    if m is None:
        return False
    low = m.group(1).lower()
    if said.a_verb(low):
        return True
    return not by_a_verb and low in (said.before_a_verb if unsure else said.closers)
