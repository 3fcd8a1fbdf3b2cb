"""What a fact is about: its *slot* (subject and relation), its value and whether it is
said or withdrawn, read from free text in English and Spanish and from profile keys.

Two facts with the same slot may contradict each other: "The user lives in Leeds" and "The
user moved to Bristol" (``residence``), ``partner: Robin`` and "The user's partner is Kim"
(``partner``), "The user likes jazz" and "The user does not like jazz anymore" (the same
act, withdrawn). ``judge`` says what a newer fact does to an older one; the write rules act
on it and recall shows what it cannot settle. Pure functions, no model, no I/O.

The rules are conservative on purpose: a false supersession loses a true fact, a missed one
leaves two facts side by side, so whatever is not recognised keeps both. What can be several
at once (sisters, pets, friends) is never replaced, only marked as a possible conflict; what
can be many (languages, allergies, likes) is only withdrawn by its own negation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from ..lang import all_packs, borrowed, fold_accents, sentences
from ..lang.roles import (
    FAMILY,
    GRAMMARS,
    GROUP_NAMES,
    ROLE_OF_NAME,
    SUBJECT_NAMES,
    either,
    normal_form,
    people_of,
    role_of,
    words_of,
)
from .keyvalue import split_key_value

#: how many values a slot can hold at once: ``one`` (a new value replaces the old), ``unsure``
#: (maybe several: two sisters, two dogs; a new value is a possible conflict), ``many`` (only
#: a negation of the same value withdraws it)
Cardinality = Literal["one", "unsure", "many"]

#: what a newer fact does to an older one of the same slot
Verdict = Literal["same", "supersede", "conflict", "compatible"]


@dataclass(frozen=True)
class Slot:
    """What a fact says: ``subject`` ("residence", "partner", "sister/residence", "fav
    colour", "act:jazz lik"), ``value`` (its words), ``negated`` ("no longer…"),
    ``cardinality`` and, for work, the ``facet`` (employer or role; "" for either)."""

    subject: str
    value: frozenset[str]
    negated: bool = False
    cardinality: Cardinality = "one"
    facet: str = ""
    #: "switched from X to Y": what the fact withdraws wherever it is a value
    withdraws: frozenset[str] = frozenset()

    @property
    def mentions(self) -> frozenset[str]:
        """The stems of what the fact names as current: its value, or an act's words."""
        words = self.value | (frozenset(self.subject[4:].split()) if self.subject.startswith("act:") else frozenset())
        return frozenset() if self.negated else frozenset(stem(w) for w in words)

    @property
    def tags(self) -> list[str]:
        """What the catalog indexes the fact by: its subject, and each stem it names
        (a later "switched from X" finds every current fact that names X)."""
        return [subject_tag(self.subject), *sorted(f"v:{w}" for w in self.mentions)]

    def lookup(self) -> list[str]:
        """The tags of the facts this one may replace or contradict: those of its subject,
        and, for a withdrawal, those that name what it withdraws ("no longer plays tennis"
        finds "plays tennis on Sundays")."""
        named = set(self.withdraws)
        if self.negated and self.subject.startswith("act:"):
            named |= set(self.subject[4:].split())
        return [subject_tag(self.subject), *sorted(f"v:{stem(w)}" for w in named)]


# ---------------------------------------------------------------------- words

_WORD = re.compile(r"[^\W_]+(?:[.,][0-9]+)?|[€$£]")

#: words that carry no value ("the", "a", "de", "los"); a possessive in any person ("with
#: my partner" and "with their partner" are one value)
_STOP = words_of("stop_words")

#: the words a period of time is said in after a fact ("…last month", "…desde 2020"): not the value
_TRAILING_TIME = re.compile(r"(?<!\s)\s+(?:" + "|".join(t for g in GRAMMARS for t in g.trailing_times) + r")$")

#: what a subject's name can start with and still be the same subject
_ARTICLES = words_of("articles")

#: the numbers of the packs these rules read (a pack that ``reads_as`` another is read in its
#: forms) said as one word, up to ten ("two", "dos" → "2"): "a", "un" and "una" are articles
_NUMBER_WORDS = {
    word: str(n)
    for p in all_packs()
    if not p.reads_as
    for word, n in p.numbers.items()
    if n <= 10 and " " not in word and word not in _ARTICLES
}

_STEM_SUFFIXES = tuple(dict.fromkeys(s for g in GRAMMARS for s in g.stem_suffixes))


def stem(word: str) -> str:
    """A light stem that one verb's forms share in both languages: smokes/smoking/smoke →
    smok, fuma/fumar/fumo → fum, likes/like → lik."""
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    for suffix in _STEM_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def value_words(text: str) -> frozenset[str]:
    """The words of a value that say it: "a Pixel 8" → {pixel, 8}; "dos" → {2}; a word of now
    that opens it is no time said after it ("is now Mrs. Duarte" was read as no value)."""
    cut = _TRAILING_TIME.sub("", " " + _LEADING_NOW.sub("", normal_form(text))).strip()
    words = [_NUMBER_WORDS.get(w, w) for w in _WORD.findall(cut)]
    return frozenset(w for w in words if w not in _STOP)


# ---------------------------------------------------------------------- who the fact is about

#: roles and things a person can have several of: a new value is a possible conflict, never a replacement
_SEVERAL = words_of("several_people") | words_of("several_things")


#: how a people tag begins (``people_tags``)
PEOPLE_TAG = "p:"
#: how the tag of a fact's subject begins (a slot's or a stance's: ``subject_tag``)
SUBJECT_TAG = "s:"
#: how much of a fact its people tags are read from: whose a fact is, it says first (a
#: pasted 900 KB fact of "my my my…" took 1.9 s more to index, read whole)
PEOPLE_TAG_CHARS = 2_000


def people_named(key: str | None, text: str) -> frozenset[str]:
    """The people of the user's a fact is about, as a question about them reads it: those
    of its first ``PEOPLE_TAG_CHARS`` (``people_of``), and a key that names one
    (``partner: Robin``)."""
    key_words = re.findall(r"[^\W_]+", normal_form((key or "")[:PEOPLE_TAG_CHARS]))
    return people_of(text[:PEOPLE_TAG_CHARS]) | {role for role in map(role_of, key_words) if role}


def family_role(key: str | None) -> str | None:
    """The role of the user's family a fact's key names ("sister", "Hermano", "wife" →
    partner, "hijos" → child), or None."""
    words = re.findall(r"[^\W_]+", normal_form((key or "")[:100]))
    return next((role for role in map(role_of, words) if role in FAMILY), None)


#: the key a fact's subject would be kept under, for one written without a key ("I live in
#: Leeds", "Mi pareja se llama Robin"): it says who the user is as much as one under the key
_SUBJECT_KEYS = {
    "name": "name",
    "surname": "surname",
    "residence": "location",
    "work": "work",
    "birthday": "birthday",
    "pronouns": "pronouns",
    "partner": "partner",
}


#: a word every fact ``subject_key`` reads holds (its people, its verb): a fact with none
#: ("I prefer tea", most of a vault) is not parsed for it; listing a whole vault asks each
_SUBJECT_HINTS = frozenset(
    [
        *FAMILY,
        *GROUP_NAMES,
        *(w for w, role in SUBJECT_NAMES.items() if role in FAMILY or role.split("/")[0] in _SUBJECT_KEYS),
    ]
    + sorted(words_of("hints"))
)


#: the stems of an allergy's words in the packs these rules read ("allergic", "alergia")
_ALLERGY_STEMS = frozenset(stem(fold_accents(w)) for p in all_packs() if not p.reads_as for w in p.allergy_words)


def subject_key(text: str) -> str | None:
    """The key a fact written without one would be kept under, by what it says (``slot_of``):
    "I live in Leeds" → location, "I am allergic to shellfish" → allergies, "My sister is
    called Ana" → family; None for anything else, and for what it says no longer holds."""
    if _SUBJECT_HINTS.isdisjoint(re.findall(r"[^\W_]+", fold_accents(borrowed(text[:300])).casefold())):
        return None
    slot = slot_of(text)
    if slot is None or slot.negated:
        return None
    if slot.subject.startswith("act:"):
        return "allergies" if _ALLERGY_STEMS & set(slot.subject[4:].split()) else None
    whose, _, _ = slot.subject.partition("/")
    if whose in FAMILY and whose != "partner":
        return "family"
    return _SUBJECT_KEYS.get(whose)


def people_tags(key: str | None, text: str) -> list[str]:
    """What the catalog indexes a fact by for the people it is about (``people_named``):
    the facts a question about the user's son, kids or family is answered by
    (``recall.kinds``)."""
    return people_tags_of(people_named(key, text))


def people_tags_of(roles: Iterable[str]) -> list[str]:
    """The catalog tags of the facts about any of ``roles``."""
    return sorted(f"{PEOPLE_TAG}{role}" for role in set(roles))


_NEW_WORDS = words_of("new_words")


def _subject_phrase(words: str) -> str:
    """The subject a possessive names, one spelling: "favourite weekend trip" → "fav weekend
    trip", "color favorito" → "fav colour", "boyfriend" → "partner"."""
    out: list[str] = []
    for w in re.findall(r"[^\W_]+", words):
        w = SUBJECT_NAMES.get(w, w)
        if w in ("fav",):
            out.insert(0, w)
        elif w not in _ARTICLES and w not in _NEW_WORDS:  # "my new dentist" is my dentist, now another
            out.append(w)
    if len(out) > 1 and out[-1] in ("name", "residence") and out[0] != "fav":
        return " ".join(out[:-1]) + "/" + out[-1]
    return " ".join(dict.fromkeys(out))


def _several(subject: str) -> bool:
    head = subject.split("/")[0].split()
    return bool(head) and (head[-1] in _SEVERAL or head[0] in _SEVERAL)


#: the subjects in "-s" that name one thing ("pronouns", "series")
_NOT_PLURAL = {"pronouns"} | words_of("unchanging_plurals")


def _plural(subject: str) -> bool:
    head = subject.split("/")[0].split()
    last = head[-1] if head else ""
    return last.endswith("s") and not last.endswith(("ss", "us", "is")) and last not in _NOT_PLURAL


# ---------------------------------------------------------------------- saying and withdrawing

#: each grammar's denials: a stopped act (group 1: what was stopped), a negated copula and
#: what it says positively, negated modals (``m0``, ``m1``… each with its positive), a
#: negation and the auxiliaries it leaves ("does"), as compiled patterns
_STOPPED = tuple(re.compile(g.stopped) for g in GRAMMARS if g.stopped)
_NEGATED_COPULA = tuple((re.compile(g.negated_copula), g.copula) for g in GRAMMARS if g.negated_copula)
_NEGATED_MODAL = tuple(
    (
        re.compile(r"\b(?:" + "|".join(f"(?P<m{i}>{n})" for i, n in enumerate(g.negated_modals)) + r")\b"),
        tuple(g.negated_modals.values()),
    )
    for g in GRAMMARS
    if g.negated_modals
)
_NEGATION = tuple(
    (re.compile(g.negation), re.compile(g.auxiliaries) if g.auxiliaries else None) for g in GRAMMARS if g.negation
)
_ANYMORE = re.compile(rf"(?<!\s)\s*+\b(?:{either('anymore')})\b")


def _withdrawn(text: str) -> tuple[str, bool]:
    """``text`` with its negation taken out, and whether there was one: "the user no longer
    lives in leeds" → ("the user lives in leeds", True); "dejo de fumar" → "fum", True."""
    stopped = next(filter(None, (p.search(text) for p in _STOPPED)), None)
    if stopped:
        return text[: stopped.start()] + stopped.group(1) + text[stopped.end() :], True
    for pattern, copula in _NEGATED_COPULA:
        found = pattern.search(text)
        if found:
            return _ANYMORE.sub("", text[: found.start()] + copula + text[found.end() :]).strip(), True
    for pattern, positives in _NEGATED_MODAL:
        modal = pattern.search(text)
        if modal:  # "can't drive at night" denies "can drive at night", not "drives at night"
            said = positives[int(str(modal.lastgroup)[1:])]
            return _ANYMORE.sub("", text[: modal.start()] + said + text[modal.end() :]).strip(), True
    for negation, auxiliaries in _NEGATION:
        found = negation.search(text)
        if found:
            rest = text[: found.start()] + text[found.end() :]
            rest = auxiliaries.sub("", rest) if auxiliaries is not None else rest
            return _ANYMORE.sub("", rest).strip(), True
    return text, False


# ---------------------------------------------------------------------- relations

#: each diet by every name a pack gives it ("vegana" → vegan)
_DIETS = {name: diet for g in GRAMMARS for name, diet in g.diets.items()}
#: the numbers a count is said in, beside digits ("two", "dos")
_COUNTS = "|".join(w for w, n in _NUMBER_WORDS.items() if int(n) >= 2)


def _relation(name: str) -> tuple[re.Pattern[str], ...]:
    """Every grammar's pattern of the relation ``name``, in the packs' order."""
    return tuple(
        re.compile(g.relations[name].replace("{diets}", "|".join(_DIETS)).replace("{counts}", _COUNTS))
        for g in GRAMMARS
        if name in g.relations
    )


#: "lives in", "moved to", "vive en", "se mudo a": where someone lives; work at an employer
#: (a verb of working and its preposition: "works long hours", "trabajo con Python" say how,
#: not where) or as a role; a name, an age, a diet, a partner, a count, a switch; "is" and
#: "costs" of something of the user's
_RELATIONS = {
    name: _relation(name)
    for name in (
        "residence", "work_at", "joined", "work_as", "called", "age", "diet", "eats_meat", "partner", "count", "switch",
        "swapped", "is", "costs",
    )
}  # fmt: skip


def _match(relation: str, text: str) -> re.Match[str] | None:
    """The first grammar's match of ``relation`` at the start of ``text``."""
    return next(filter(None, (p.match(text) for p in _RELATIONS[relation])), None)


_LIKE = re.compile(rf"\b(?:{either('like')})\b")
#: verbs whose number is a measure that changes (weighs 70 kg, runs 5 km, pays 900 €)
_MEASURES = words_of("measure_stems")
#: verbs of a past event or a plan: what happened or will happen once is never replaced
_EVENT = re.compile(either("event") + r"|\b\d{4}\b")

#: a fact about a time gone by: "from 2015 to 2018", "in 2012", a Spanish preterite that is
#: no change of state ("trabajó", "vivió"; "se mudó" and "dejó de" are changes)
_PAST = re.compile(either("past") + r"|\b\d{4}\s*[-–]\s*\d{4}\b")

#: the start of a sentence with no subject: the verb speaks of the user ("vivo en Lima")
_VERB_FIRST = re.compile(either("verb_first") or r"(?!)")


def _clean(value: str) -> str:
    return _TRAILING_TIME.sub("", " " + value).strip()


_NOW = re.compile(rf"^(?:{either('now')})\s+")
#: the same, opening a fact before its subject ("Now the user lives in Nantes", "Ahora el
#: usuario vive en Vigo", "These days the user works at Shopify"): no slot was read
_LEADING_NOW = re.compile(rf"^(?:{either('now')})\s*,?\s+")
_LEADING_NOW_AS_WRITTEN = re.compile(_LEADING_NOW.pattern, re.IGNORECASE)  # "is now Tom Becker"


#: the subjects read by one pattern each, in the order they are tried: (pattern, subject,
#: the value a match gives)
_ONE_PATTERN: tuple[tuple[str, str, Callable[[re.Match[str]], frozenset[str]]], ...] = (
    ("called", "name", lambda m: value_words(m.group("x"))),
    ("age", "age", lambda m: frozenset({m.group("x")})),
    ("diet", "diet", lambda m: frozenset({_DIETS[m.group("x")]})),
)


def _self_slot(rest: str, negated: bool) -> Slot | None:
    """The slot of what the user is, does or has (``rest`` is what follows the subject):
    a switch, a residence, work, then the subjects read by one pattern each, in order."""
    rest = _NOW.sub("", rest)
    switched = _switch_slot(rest, negated)
    if switched is not None:
        return switched
    residence = _residence_slot(rest, negated)
    if residence is not None:
        return residence
    work = _work_slot(rest, negated)
    if work is not None:
        return work
    for relation, subject, value in _ONE_PATTERN:
        m = _match(relation, rest)
        if m:
            return Slot(subject, value(m), negated)
    if _match("eats_meat", rest):
        return None if negated else Slot("diet", frozenset({"omnivore"}))
    m = _match("partner", rest)
    if m:
        return Slot("partner", value_words(m.group("x")), negated)
    m = _match("count", rest)
    if m:
        n = _NUMBER_WORDS.get(m.group("n"), m.group("n"))
        counted = role_of(m.group("x")) or stem(m.group("x"))  # "1 son", "1 daughter": two counts, not one
        return Slot(f"count:{counted}", frozenset({n}), negated)
    if _EVENT.search(rest):
        return None
    return _act(rest, negated)


def _residence_slot(rest: str, negated: bool) -> Slot | None:
    """Where the user lives, when ``rest`` (what follows the subject) says it: said of the
    user ("lives in Leeds", "moved from Lyon to Nantes") or of their household ("we live in
    Nantes", "vivimos en Vigo": ``SlotGrammar.household``, read for this alone)."""
    m = _match("residence", _NOW.sub("", rest))
    if m is None:
        return None
    withdraws = value_words(m.group("from")) if m.group("from") else frozenset()
    return Slot("residence", value_words(m.group("x")), negated, withdraws=withdraws)


_MOVE_VERBS = tuple(v for g in GRAMMARS for v in g.move_verbs)


def _switch_slot(rest: str, negated: bool) -> Slot | None:
    """ "switched from X to Y", "swapped X for Y": Y, withdrawing X (a move, when it is
    about where the user lives)."""
    if negated:
        return None
    for relation in ("switch", "swapped"):
        m = _match(relation, rest)
        if m:
            new, old = value_words(m.group("x")), value_words(m.group("from"))
            if new and old:
                residence = bool(_match("residence", rest)) or rest.startswith(_MOVE_VERBS)
                return Slot("residence" if residence else "switch", new, withdraws=old, cardinality="many")
    return None


#: where one works that is not an employer ("works on the parser", "works from home"),
#: and when ("works weekends")
_NOT_AN_EMPLOYER = re.compile(rf"^(?:{either('not_an_employer')})\b")
_NOT_AN_EMPLOYER_WHEN = re.compile(rf"^(?:{either('not_an_employer_when')})\b")


def _work_slot(rest: str, negated: bool) -> Slot | None:
    """Work: a role ("works as …") or an employer ("works at …")."""
    m = _match("work_as", rest)
    if m:
        return Slot("work", value_words(m.group("x")), negated, facet="role")
    m = _match("work_at", rest)
    if m and not _NOT_AN_EMPLOYER.match(m.group("x")) and not _NOT_AN_EMPLOYER_WHEN.match(m.group("x")):
        return Slot("work", value_words(m.group("x")), negated, facet="employer")
    m = _match("joined", rest)
    found = m.groupdict() if m else {}  # "joined X", "signed with X as a …"
    joined = found.get("x") or found.get("with")
    if not joined or _SOME.match(joined):  # "joined the gym", "joined a choir", "joined Acme's hiking club"
        return None
    return Slot("work", value_words(joined), negated, facet="employer")


#: what opens something joined that is no employer, in every grammar: an article (a named
#: employer has none: "joined Initech"), or a name's possessive ("Acme's hiking club")
_SOME = re.compile(
    rf"^(?:(?:{'|'.join(sorted(words_of('indefinite_articles') | words_of('articles')))})\s|[^\W_]+'s\s)"
)


#: how often something is done: not part of what is done ("drinks coffee every morning" is
#: the act a later "no longer drinks coffee" withdraws)
_OFTEN = words_of("often")


def _act(rest: str, negated: bool) -> Slot | None:
    """Anything else the user does, likes or is: withdrawn only by its own negation; a
    measure that changes (runs 5 km → 10 km) is one value."""
    rest = _LIKE.sub("like", rest)
    words = [w for w in _WORD.findall(_clean(rest)) if w not in _STOP and w not in _OFTEN]
    if not words:
        return None
    numbers = [w for w in words if w[0].isdigit()]
    stems = sorted({stem(_NUMBER_WORDS.get(w, w)) for w in words if not w[0].isdigit()})
    if not stems:
        return None
    if numbers and any(s in _MEASURES for s in stems):
        return Slot("act:" + " ".join(stems), frozenset(numbers), negated, cardinality="one")
    return Slot("act:" + " ".join(sorted({*stems, *numbers})), frozenset(), negated, cardinality="many")


#: what a fact says of something of the user's, by the relation its pattern reads
_OF_A_THING = {"called": "name", "residence": "residence", "work_at": "work", "age": "age"}


def _first_match(relations: Iterable[str], text: str) -> tuple[str, re.Match[str]] | None:
    """The first of ``relations`` whose pattern matches at the start of ``text``, and its match."""
    return next(((r, m) for r in relations if (m := _match(r, text))), None)


def _possessed_slot(subject: str, rest: str, negated: bool) -> Slot | None:
    """The slot of something of the user's ("the user's phone is…", "su pareja se llama…")."""
    if not subject or _plural(subject):
        return None
    subject = ROLE_OF_NAME.get(subject, subject)  # one subject whatever the language or the word
    rest = _NOW.sub("", rest)  # "el jefe del usuario ahora es Bruno", as "the user's boss is now Bruno"
    cardinality: Cardinality = "unsure" if _several(subject) else "one"
    found = _first_match(_OF_A_THING, rest)
    if found:
        relation, m = _OF_A_THING[found[0]], found[1]
        name = f"{subject}/{relation}" if subject not in ("name", "partner") or relation != "name" else subject
        return Slot(name, value_words(m.group("x")), negated, cardinality)
    found = _first_match(("is", "costs"), rest)
    if found is None:
        return None
    subject = f"{subject}/price" if found[0] == "costs" else subject
    value = value_words(found[1].group("x"))
    if subject.startswith("work/"):
        return Slot("work", value, negated, facet=subject.split("/")[1])
    return None if subject == "name" and cardinality == "unsure" else Slot(subject, value, negated, cardinality)


#: a fact about something of the user's ("my phone is…", "su pareja se llama…"), one about
#: the user ("the user lives…", "yo vivo…"), and how the first person is said as the
#: third ("i'm" → "i is"), each grammar's
_POSSESSED_BY_USER = tuple(re.compile(g.possessed) for g in GRAMMARS if g.possessed)
_SELF = tuple(re.compile(g.self_subject) for g in GRAMMARS if g.self_subject)
_HOUSEHOLD = tuple(re.compile(g.household) for g in GRAMMARS if g.household)
_FIRST_PERSON = tuple((re.compile(g.first_person[0]), g.first_person[1]) for g in GRAMMARS if g.first_person[0])
#: a name told of its owner, said with a naming word ("my dog's name is rex" → "my dog is called rex")
_NAMED_AS = tuple((re.compile(pattern), said) for g in GRAMMARS for pattern, said in g.named_as)
#: a second clause in a fact ("…, and works at Siemens"): the fact says more than its slot
#: a fact that says it adds ("also", "too", "también"): one more value, not a new one
_ALSO = re.compile(rf"\b(?:{either('also')})\b")
_MORE = re.compile(either("more"))


def subject_tag(subject: str) -> str:
    """The catalog's tag of the facts about ``subject`` ("s:residence", "s:said: deploy friday we")."""
    return f"{SUBJECT_TAG}{subject}"


def _first_sentence(text: str) -> str:
    """What a fact says first, as vmem writes facts: its first sentence or line ("The
    user's landlord is Mr. Okafor." is one: ``lang.sentences``)."""
    found = sentences(text[:2000])
    return found[0] if found else ""


@lru_cache(maxsize=8192)  # pure, and asked again for the same facts by every write of a batch
def slot_of(text: str, key: str | None = None) -> Slot | None:
    """The slot of a fact, or None when no rule reads it (then nothing replaces it).

    ``key`` first: a profile key names the subject (``partner: Robin``, ``trabajo: Acme``);
    then the text, first sentence only, as vmem writes facts ("The user lives in Leeds",
    "El usuario se mudó a Sevilla") or as people type them ("I live in Leeds", "vivo en Lima",
    "my phone is a Pixel")."""
    sentence = written = _first_sentence(text)
    more = sentence != text.strip()
    sentence = borrowed(sentence)  # Portuguese in the Spanish rules' forms
    if key is None:
        key, sentence = split_key_value(sentence)
    if _PAST.search(sentence.casefold()):
        return None  # "worked at Google from 2015 to 2018", "trabajó en Accenture": past, never replaced
    said = normal_form(sentence)
    named = _named_people(key) if key else set()
    slot = _keyed_slot(key, said, named) if key else None
    if slot is None and said and len(said) <= 300 and "?" not in said and not named:
        slot = _sentence_slot(said)
    if slot is not None and not slot.facet and _HAS_A_FACET.fullmatch(slot.subject):
        slot = replace(slot, facet=_facet(written))  # "is Pedro" names, "is very demanding" describes
    if slot is not None and slot.subject == "residence" and _A_HOME.search(said) and not _names_a_place(written):
        return None  # "moro num apartamento no décimo andar": what the home is, and no place named
    if slot is not None and slot.cardinality == "one" and (more or _MORE.search(said) or _ALSO.search(said)):
        # "lives in Leeds and works at Siemens": a new city must not take the job with it
        return replace(slot, cardinality="unsure")
    return slot


#: a home said with its article where a place would be ("lives in *a* flat", "vive en *un*
#: piso", Portuguese "num" read as "en un"), each grammar's residence prepositions and articles
_A_HOME = re.compile(
    rf"\b(?:{'|'.join(sorted(words_of('residence_prepositions')))})\s+"
    rf"(?:{'|'.join(sorted(words_of('indefinite_articles')))})\s"
)


def _names_a_place(written: str) -> bool:
    """Whether a fact as written names a place after its first word (a capital: "a small flat
    in Leeds", "un piso en Sevilla"); one written in lower case throughout is read as naming one."""
    rest = written.split()[1:]
    return written.islower() or any(w[:1].isupper() for w in rest)


#: a subject of something of the user's said to *be* something ("boss", "phone", "fav
#: colour", "partner": "my partner is a nurse" names no one): not a relation
#: ("sister/residence"), an act, a count, work or the user's name
_HAS_A_FACET = re.compile(r"(?!act:|count:|work|name$|residence$|age$|diet$|birthday$)[^/:]+")
#: what a fact says its subject is, in the words as written: after the copula
_COPULA_VALUE = re.compile(
    r"(?<![^\W_])(?:" + "|".join(re.escape(c) for p in all_packs() for c in p.copulas) + r")\s+(?P<v>\S.*)$",
    re.IGNORECASE,
)


def _facet(sentence: str) -> str:
    """Whether a fact names what its subject is ("My boss is Pedro", "My phone is a Pixel
    6": a capital or a digit) or describes it ("My boss is very demanding", "my dentist is
    expensive"): a description replaces no name, nor a name a description. "" when the
    sentence cannot tell (written in lower case throughout)."""
    value = _COPULA_VALUE.search(sentence)
    if value is None or sentence.islower():
        return ""
    words = _LEADING_NOW_AS_WRITTEN.sub("", value.group("v")).split() or value.group("v").split()
    while len(words) > 1 and words[0].casefold() in _VALUE_ARTICLES:  # "a Pixel 6", "el Dr. Ruiz"
        words = words[1:]
    if words[0].casefold() in _STATE_OPENINGS:  # "My manager is on leave until May": where or how it is, not who
        return "described"
    if _proper_adjective(words):  # "My landlord is Indian", "…is Korean-American": who they are, not their name
        return "described"
    # a name is what the value opens with ("Pedro", "Dr. Okafor", "iPhone 15"), what a naming
    # word says ("a company called Greystar") or what an apposition does ("una inmobiliaria,
    # Foncasa"); "closed on Mondays", "parked on level 3" describe, whatever comes later
    if re.search(r"[A-ZÀ-Ý0-9]", words[0]) or any(
        (w.casefold() in _NAMING or w.endswith(",")) and re.search(r"[A-ZÀ-Ý0-9]", n[:1])
        for w, n in zip(words, words[1:])
    ):
        return "named"
    return "described"


def _proper_adjective(words: list[str]) -> bool:
    """Whether a value opens with an adjective written with a capital (``Pack.
    proper_adjectives``: "Indian", "South African", "Korean-American", "Catholic"), each
    part of a hyphenated one too."""
    opening = [w.strip(".,;:!?").casefold() for w in words[:2]]
    return any(
        all(part in _PROPER_ADJECTIVES for part in said.split("-"))
        for said in (opening[0], " ".join(opening))  # "Korean-American", "Sri Lankan-British"
        if said
    )


#: the adjectives written with a capital, in every pack, lower-cased
_PROPER_ADJECTIVES = frozenset(w for p in all_packs() for w in p.proper_adjectives)
#: the words that open where or how a thing is, not what it is ("is *on* leave", "é *de*
#: Braga"), in every pack (``Pack.state_openings``)
_STATE_OPENINGS = frozenset(w for p in all_packs() for w in p.state_openings)
#: the articles a name may follow, and the words that say what something is called, in every pack
_VALUE_ARTICLES = frozenset(w for p in all_packs() for w in p.value_articles)
_NAMING = frozenset(w for p in all_packs() for w in p.naming_words)


#: a key's value longer than this is a sentence about something, not the key's new value
#: (as the write rules' ``SINGLE_VALUE_WORDS``)
_KEY_VALUE_WORDS = 5


def _named_people(key: str) -> set[str]:
    """The roles of the user's people a key names ("Minha irmã", "my sister")."""
    return {role for role in map(role_of, re.findall(r"[^\W_]+", normal_form(borrowed(key)))) if role}


def _keyed_slot(key: str, said: str, named: set[str]) -> Slot | None:
    """The slot of a fact said under ``key``; ``named``: the user's people the key names."""
    from_text = _sentence_slot(said) if said else None
    if named and from_text is not None and not any(from_text.subject.startswith(role) for role in named):
        return None  # "my sister: lives in Faro" is where the sister lives, not the user
    if from_text is not None and not from_text.subject.startswith("act:"):
        return from_text  # "sister: The user's sister is called Ana": the sentence says more than its key
    if len(said.split()) > _KEY_VALUE_WORDS:
        return from_text  # "City: Porto is where my sister lives" is a sentence, not a city
    subject = _subject_phrase(normal_form(key).replace("_", " "))
    if subject in ("name", "residence", "partner", "birthday", "pronouns", "age", "diet", "surname"):
        return Slot(subject, value_words(said))
    if subject.startswith("work"):  # job, trabajo, employer, empleador: one subject; a job key can name either
        return Slot("work", value_words(said), facet="employer" if subject == "work/employer" else "")
    if subject.startswith("fav "):
        return Slot(subject, value_words(said))
    return from_text


def _sentence_slot(said: str) -> Slot | None:
    for pattern, said_so in (*_FIRST_PERSON, *_NAMED_AS):
        said = pattern.sub(said_so, said)
    bare, negated = _withdrawn(_LEADING_NOW.sub("", said))
    home = next(filter(None, (p.match(bare) for p in _HOUSEHOLD)), None)
    if home is not None and (where := _residence_slot(home.group("r").strip(), negated)) is not None:
        return where  # "we live in Nantes", "we packed up and moved to Nantes", "my husband and I live in Graz"
    m = next(filter(None, (p.match(bare) for p in _POSSESSED_BY_USER)), None)
    if m:
        groups = m.groupdict()
        subject = _subject_phrase(groups.get("s") or groups.get("s1") or groups.get("s2") or "")
        rest = m.group("r")
        if rest.startswith("'s "):
            rest = "is " + rest[3:]
        return _possessed_slot(subject, rest, negated)
    m = next(filter(None, (p.match(bare) for p in _SELF)), None)
    if m:
        rest = m.group("r").strip()
    elif _VERB_FIRST.match(_NOW.sub("", bare)):
        rest = bare
    else:
        return None
    if not rest:
        return None
    return _self_slot(rest, negated)


#: how a stance's subject begins ("said: deploy friday we"), beside the slots' subjects
STANCE = "said: "


@lru_cache(maxsize=8192)  # pure, and asked for every recalled fact by every recall
def stance_of(text: str) -> tuple[str, bool] | None:
    """The subject of a fact no slot reads (``STANCE`` and the stems of its first sentence's
    words, order and negation aside), and whether it denies it: "We don't deploy on Fridays"
    and "We deploy on Fridays" say one thing, the first denying it, so they contradict each
    other. None for a question, a sentence of fewer than two such words (too little to
    tell), or one longer than a fact's (as ``slot_of``)."""
    sentence = borrowed(_first_sentence(text))
    if "?" in sentence or len(sentence) > 300:
        return None
    bare, denied = _withdrawn(normal_form(sentence))
    words = {stem(w) for w in value_words(bare)}
    return (STANCE + " ".join(sorted(words)), denied) if len(words) >= 2 else None


# ---------------------------------------------------------------------- judging two facts


#: stems of when and how often something is done: "plays tennis on Sundays" is still
#: "plays tennis" for a "no longer plays tennis"
_WHEN = frozenset(stem(w) for w in words_of("when"))


def _same_act_but_when(new: str, old: str) -> bool:
    if not (new.startswith("act:") and old.startswith("act:")):
        return False
    mine, theirs = set(new[4:].split()), set(old[4:].split())
    return bool(mine) and mine < theirs and theirs - mine <= _WHEN


def judge(new: Slot, old: Slot) -> Verdict:
    """What ``new`` (said later) does to ``old``: says it again (``same``), replaces it
    (``supersede``), may contradict it (``conflict``: vmem cannot tell, so both stay and
    recall says so), or leaves it be (``compatible``). The rules, in order: a withdrawal
    (``_withdraws``); another subject or facet; a change of polarity (``_polarity``); the
    same value; then how many values the subject may hold."""
    if _withdraws(new, old):
        return "supersede"
    if new.subject != old.subject:
        return "compatible"
    if new.facet and old.facet and new.facet != old.facet:
        return "compatible"  # works at Siemens, works as an engineer: both
    if new.negated != old.negated:
        return _polarity(new, old)
    return _one_polarity(new, old)


def _one_polarity(new: Slot, old: Slot) -> Verdict:
    """One subject and facet, both said negated or both not: the same value, or how many
    values the subject may hold."""
    if new.value == old.value:
        # one act said twice in other words is for the restatement rule to find, not this one
        return "same" if new.value and not new.subject.startswith("act:") else "compatible"
    if new.negated:
        return "compatible"  # no longer A, no longer B: both withdrawals stand
    if not new.value or not old.value or new.cardinality == "many" or old.cardinality == "many":
        return "compatible"
    if new.cardinality == "unsure" or old.cardinality == "unsure":
        return "conflict"
    return "supersede"


def _withdraws(new: Slot, old: Slot) -> bool:
    """``new`` ends ``old`` whatever its subject is called: "switched from Vim to Neovim"
    ends every current "… Vim"; "no longer drinks coffee" ends "drinks coffee every morning"."""
    if new.withdraws and {stem(w) for w in new.withdraws} <= old.mentions:
        return True
    return new.negated and not old.negated and _same_act_but_when(new.subject, old.subject)


def _polarity(new: Slot, old: Slot) -> Verdict:
    """One subject, said once negated and once not."""
    if new.negated and new.value and old.value and not new.value <= old.value:
        return "compatible"  # "no longer lives in Leeds" says nothing of Bristol
    if old.negated and new.cardinality != "one" and new.value != old.value and new.value and old.value:
        return "compatible"
    return "supersede"
