"""Whether a fact is about the user, by how it opens in any installed pack."""

from __future__ import annotations

import functools
import re

from .detect import detect, told_alike
from .registry import all_packs
from .text import fold_accents, longest_first


@functools.cache
def _opening() -> re.Pattern[str]:
    phrases = longest_first({s for p in all_packs() for s in p.user_subjects})
    return re.compile(rf"^(?:{'|'.join(re.escape(s) for s in phrases)})(?![^\W_])", re.IGNORECASE)


def of_the_user(text: str) -> bool:
    """ "The user is lactose intolerant", "My standup is at 9:30", "O usuário mora no
    Porto": a fact that opens with the user as its subject."""
    return bool(_opening().match(text.lstrip(" \t\"'“«-*")))


@functools.cache
def _telling() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """How a fact opens when it is the user's (every pack's ``user_opening`` and
    ``elided_user_opening``), and the user's own words anywhere in it (``user_subjects``)."""
    packs = all_packs()
    openings = [p.user_opening for p in packs if p.user_opening]
    openings += [p.elided_user_opening for p in packs if p.elided_user_opening]
    words = longest_first({s for p in packs for s in p.user_subjects})
    return (
        re.compile(rf"^(?:{'|'.join(openings) or '(?!)'})(?![^\W_])", re.IGNORECASE),
        # a word on its own, not a piece of a typed name ("ci-cache-eu", "me.example.com")
        re.compile(rf"(?<![\w./@-])(?:{'|'.join(re.escape(w) for w in words)})(?![\w./@-])", re.IGNORECASE),
    )


def tells_of_the_user(text: str) -> bool:
    """Whether a fact tells of the user, not only of a thing of their work: it opens with
    them ("soy vegetariana", "tenho uma gata"), with their subject left out ("born in
    Montevideo"), or names them anywhere ("shellfish makes my throat close up", "folks
    call me Jules"); "the billing service runs on port 8443" does not."""
    said = text.lstrip(" \t\"'“«-*")
    opening, anywhere = _telling()
    return of_the_user(said) or bool(opening.match(said)) or bool(anywhere.search(said))


@functools.cache
def _about_me() -> re.Pattern[str]:
    """Every pack's questions about the user as a whole, after any of its openers."""
    packs = all_packs()
    openers = "|".join(o for p in packs for o in p.openers)
    questions = "|".join(q for p in packs for q in p.about_me)
    return re.compile(rf"^[\s¿¡]*(?:(?:{openers})[\s,]+)?(?:{questions})\b[\s?!.¿¡]*$", re.IGNORECASE)


#: the longest message a question about the user as a whole is read in by its shape: the
#: prompt hook reads a whole prompt, where "on me" may be of something else
SELF_TOPIC_WORDS = 60


@functools.cache
def _about_me_by_its_shape() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Every pack's user as what is asked about (``self_topic``), a word of knowing
    (``knowing_words``), what makes that another question (``not_about_me``), and how a
    clause asks: a word a question opens with, or a verb that asks to be told
    (``telling_verbs``), past an opener."""
    packs = all_packs()
    # not a lead that announces what follows ("Things to remember about me:\n- …")
    topic = "(?:" + ("|".join(f"(?:{p.self_topic})" for p in packs if p.self_topic) or "(?!)") + r")(?!\s*:)"
    knowing = "|".join(f"(?:{p.knowing_words})" for p in packs if p.knowing_words) or "(?!)"
    other = "|".join(f"(?:{p.not_about_me})" for p in packs if p.not_about_me) or "(?!)"
    openers = "|".join(o for p in packs for o in p.openers)
    words = longest_first({w for p in packs for w in (*p.question_openings, *p.interrogatives)})
    asks = "|".join([*(re.escape(w) for w in words), *(p.telling_verbs for p in packs if p.telling_verbs)])
    asking = rf"(?:^|[,.:;!?—-])[\s¿¡]*(?:(?:{openers})[\s,]+)?(?:{asks})(?![^\W_])"
    flags = re.IGNORECASE
    return re.compile(topic, flags), re.compile(knowing, flags), re.compile(other, flags), re.compile(asking, flags)


def about_the_user(question: str) -> bool:
    """A question about the user as a whole, with no subject of its own ("what do you know
    about me?", "¿qué sabés de mí?"): as a whole question a pack names, or by its shape
    wherever it is said in a short message ("can you give me a quick summary of me", "o que
    consta sobre mim aí?", "antes de seguir, ¿me dices qué sabes de mí?"): the user as what
    it asks about, in a question or a request to be told, and no operation on what is kept
    ("delete what you know about me") nor a count. The whole-question patterns alone read
    26 of 64 such questions a helper wrote (``benchmarks/language_eval.py``, row
    ``profile_read``, held half)."""
    said = question.strip()
    if len(said.split()) > SELF_TOPIC_WORDS:
        return bool(_about_me().match(said))
    topic, knowing, other, asking = _about_me_by_its_shape()
    own = _QUOTED.sub(" ", said)  # "why doesn't the 'remember me' box stay checked?": a label's words
    asked = bool(_about_me().match(said)) or (
        topic.search(own) is not None
        and knowing.search(own) is not None
        and ("?" in own or asking.search(own) is not None)
    )
    # not what someone of theirs knows ("what does my wife know about me?", "¿qué sabe de mí mi
    # jefe?"): the people it names read only of a question that asks so, not of every recall's
    return asked and other.search(own) is None and not people(own) and not served_by(own)


#: a span in quotes or backticks: someone's words, a label, code (an apostrophe inside a word,
#: "what's … I'm", opens or closes none)
_QUOTED = re.compile(r"(?<![^\W_])'[^'\n]{1,80}'(?![^\W_])|\"[^\"\n]{1,80}\"|`[^`\n]{1,80}`|[“«][^”»\n]{1,80}[”»]")


@functools.cache
def _kin() -> dict[str, str]:
    return {fold_accents(word).casefold(): role for p in all_packs() for word, role in p.kin.items()}


@functools.cache
def _kin_of(languages: frozenset[str]) -> dict[str, str]:
    """The kinship words of the packs of ``languages``."""
    return {fold_accents(w).casefold(): role for p in all_packs() if p.code in languages for w, role in p.kin.items()}


def _kin_read_in(text: str) -> dict[str, str]:
    """The kinship words ``text`` is read with: its language's and those told alike
    (Spanish and Portuguese), or every pack's when its language is not clear ("¿quiénes son
    mis hermanas?": "son" is a verb there, no son)."""
    language = detect(text)
    return _kin() if language is None else _kin_of(told_alike(language))


@functools.cache
def _owning() -> tuple[frozenset[str], frozenset[str], tuple[tuple[str, ...], ...], frozenset[str]]:
    """The words of kin that are a role only when owned (as written, accents kept), their
    owners, what owns them after them (folded, as ``people`` reads words) and the words a
    name follows (``Pack.kin_owned``, ``Pack.naming_words``)."""
    packs = all_packs()

    def read(word: str) -> str:
        return fold_accents(word).casefold().removesuffix("'s")

    owned = frozenset(w.casefold() for p in packs for w in p.kin_owned)
    owners = frozenset(read(w) for p in packs for w in p.kin_owners)
    after = tuple(tuple(read(w) for w in phrase.split()) for p in packs for phrase in p.kin_owned_by)
    naming = frozenset(read(w) for p in packs for w in p.naming_words)
    return owned, owners, after, naming


#: how much of a fact says whose it is: its opening
PEOPLE_CHARS = 120
#: a word as ``people`` reads it, its case and accents kept (a name's words are capitalized)
_CASED_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
#: how many words may come between an owner and what it owns ("my little sis", "mi querida mama")
_OWNER_REACH = 3


def people(text: str) -> frozenset[str]:
    """The roles of the user's people and animals a fact names in its opening, whatever the
    language ("My wife traded in her car" → {partner}, "Meu irmão se mudou" → {brother});
    empty for a fact about the user alone. A role's word inside a name is no role ("a band
    called The Loud Neighbours"), nor is a word that is one only when owned and is not ("la
    cuenta vieja"; "mi vieja" is the mother)."""
    kin = _kin_read_in(text[:PEOPLE_CHARS])
    owned, owners, owned_by, naming = _owning()
    cased = [(m.group(), m.start()) for m in _CASED_WORD.finditer(text[:PEOPLE_CHARS].replace("’", "'"))]
    found = [fold_accents(w).casefold().removesuffix("'s") for w, _ in cased]
    roles = set()
    for i, word in enumerate(found):
        if word not in kin or _in_a_name(cased, found, i, naming):
            continue
        as_written = cased[i][0]
        if (
            as_written.casefold().removesuffix("'s") in owned
            and not (
                as_written[:1].isupper()
                and not as_written.isupper()  # "Nan is 90", "Mama cooks": named as a name is
                or any(w in owners for w in found[max(0, i - _OWNER_REACH) : i])
                or any(tuple(found[i + 1 : i + 1 + len(o)]) == o for o in owned_by)
            )
        ):
            continue
        roles.add(kin[word])
    return frozenset(roles)


def served_by(text: str) -> frozenset[str]:
    """The roles of the people who serve the user that a fact or a question names in its
    opening, owned ("my dentist", "mi jefa", "o meu senhorio" → dentist, boss, landlord):
    "who is my dermatologist?" is not answered by "My dentist is Dr. Nolan". "I'm a
    dentist" names none (``Pack.serving``)."""
    serving = _serving()
    owners = _owning()[1]
    found = [fold_accents(m.group()).casefold().removesuffix("'s") for m in _CASED_WORD.finditer(text[:PEOPLE_CHARS])]
    return frozenset(
        serving[word]
        for i, word in enumerate(found)
        if word in serving and any(w in owners for w in found[max(0, i - _SERVED_REACH) : i])
    )


#: how many words may come between an owner and whom it owns ("my family doctor", "o meu novo chefe")
_SERVED_REACH = 2


@functools.cache
def _serving() -> dict[str, str]:
    return {fold_accents(word).casefold(): role for p in all_packs() for word, role in p.serving.items()}


def _in_a_name(cased: list[tuple[str, int]], found: list[str], i: int, naming: frozenset[str]) -> bool:
    """Whether the word ``cased[i]`` is in a name after its first word: the words from a
    naming word ("called", "se llama") to it all capitalized ("a band called The Loud
    Neighbours", "una banda que se llama Los Vecinos Ruidosos"; not "I called Mom")."""
    for start in range(i - 2, max(-1, i - 6), -1):
        if found[start] in naming:
            return all(w[:1].isupper() for w, _ in cased[start + 1 : i + 1])
        if not cased[start][0][:1].isupper():
            return False
    return False


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
    # a specialist is a doctor: "who is my doctor?" may be answered by "my cardiologist is…"
    **dict.fromkeys(
        ("dentist", "dermatologist", "cardiologist", "gynecologist", "pediatrician", "psychiatrist", "eye_doctor"),
        "doctor",
    ),
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


def of_no_one_else(new: frozenset[str], old: frozenset[str]) -> bool:
    """Whether two facts are of the same people (``of_the_same_people``) and the newer names
    no one the older may not be: "El vecino de mi papá se mudó" is of the father's
    neighbour, not of "Mi papá vive en Guadalajara"."""
    return of_the_same_people(new, old) and all(may_be_about(frozenset({n}), old) for n in new)


def of_the_same_people(new: frozenset[str], old: frozenset[str]) -> bool:
    """Whether two facts are of the same people (``people``'s roles): both of the user
    alone, or of people one may be the other (``may_be_about``). A judge that says "My
    sister moved to Porto" replaces "I live in Lyon" is not believed."""
    return new == old or (bool(new) and bool(old) and may_be_about(new, old))
