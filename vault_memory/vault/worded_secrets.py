"""Secrets whose value is words, not a code (pure rules): a password of letters alone
("the wifi password is sunflower", "marmelada é a senha do wifi"), a passphrase or a
wallet's seed phrase, a security question's answer, a login said with its password.

Such a value is told by how it is said, not by its shape, so each reading is bounded by the
words around it: what a password is like ("my password is weak") is none, nor is whom an
"is" names after a clause that holds the password ("the person who knows the password is
Maria"). The words are each installed pack's (``password_words``, ``password_states`` and
the fields beside them); ``vault.secrets`` asks ``find_worded`` with the rest of its rules.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache

from ..lang.registry import all_packs
from ..lang.text import longest_first

#: a value found by reading, as a match of itself alone (``vault.secrets`` reads with it too)
WHOLE = re.compile(r"(?P<value>.+)", re.S)
#: a word as typed
TYPED = re.compile(r"\S+")


def spaced(words: str) -> str:
    """A pack's words as a pattern of text: a space in them reads any run of spaces, and " ?"
    none or any ("user ?names?" is "username" and "user name"; it had read "user" then a
    lazy run of spaces, so "username" was no login's word, nor "apikey" a key's)."""
    return words.replace(" ?", r"\s*").replace(" ", r"\s+")


def _either(words: Callable[..., Iterable[str]]) -> str:
    """The pattern of any of every pack's ``words(pack)``, the longest first (``spaced``)."""
    return spaced("|".join(longest_first({w for p in all_packs() for w in words(p)})))


def find_worded(
    read: str, caseless: Callable[[re.Pattern[str]], re.Pattern[str]]
) -> Iterator[tuple[str, re.Match[str]]]:
    """(kind, the match of its value) of each secret of words ``read`` holds: passphrases
    first (their words whole), then a security question's answer, then a password of
    letters. ``read`` is the text as ``caseless`` reads it (``vault.secrets._caseless``)."""
    # a lock's word names no password ("the safe opens with the word Rosebud"): read apart
    yield from (("a password or a code", m) for m in _opening_words(read, caseless))
    if not caseless(_named()).search(read):
        return  # most facts name none: read once, not by every rule
    yield from (("a passphrase", m) for m in _passphrases(read, caseless))
    yield from (("a security answer or a seed phrase", m) for m in _security_answers(read, caseless))
    yield from (("a password or a code", m) for m in _worded_passwords(read, caseless))
    yield from (("a password or a code", m) for m in _spelled(read, caseless))
    yield from (("a password or a code", m) for m in _label_pairs(read, caseless))


@cache
def _named() -> re.Pattern[str]:
    """Any word every reading here starts from: a password's, a code's that may be a word,
    a passphrase's, a security question's, a thing a password opens, an answer's verb or
    label."""
    return re.compile(
        _either(
            lambda p: (
                *p.password_words,
                *p.word_codes,
                *p.passphrase_words,
                *p.answered_secrets,
                *p.keyed_things,
                *p.answer_verbs,
                *(label for label in p.answer_labels if len(label) > 2),  # "Resposta: …", not "a"
            )
        )
        or "(?!)"
    )


def _any_word(words: Callable[..., Iterable[str]]) -> re.Pattern[str]:
    """Any of every pack's ``words(pack)`` as a whole word (no letter, digit or hyphen beside it)."""
    found = _either(words)
    return re.compile(rf"(?<![\w-])(?:{found})(?![\w-])") if found else re.compile("(?!)")


@cache
def open_things() -> re.Pattern[str]:
    """The words that make a password's word another thing's ("password manager"), of every pack."""
    return _any_word(lambda p: p.open_things)


def _worded_passwords(read: str, caseless: Callable[[re.Pattern[str]], re.Pattern[str]]) -> Iterator[re.Match[str]]:
    """The passwords of letters alone told right after a password's word and what links
    them ("the wifi password is sunflower", "a senha do spotify: familiasilva"), or opening
    the clause before it ("marmelada é a senha do wifi"): a word that says what the password
    is like ("weak", "caducada"), when ("tomorrow"), a word of the language ("la misma",
    "practicar") or a password manager's name is none. A word right after a password's word
    with no link is not read ("wifi password hint", "contraseña pajarito": one cannot tell)."""
    linked, set_to, after_login, before, states, verbs, adjective_of = _worded()
    set_words = _set_words()
    others = open_things()
    for pattern in (linked, *set_to, *after_login, before):
        for m in caseless(pattern).finditer(read):
            named, value = m["name"].lower(), m["value"].lower()
            clause = _clause_before(read, m.start("name"))
            around = f"{' '.join(clause[-3:])} {named} {read[m.end('name') : m.end('name') + 24]}"
            if states.fullmatch(value) or caseless(others).search(around) or clause[-1:] in ([w] for w in adjective_of):
                continue  # "my password is weak", "mi gestor de contraseñas", "el nombre clave es Jade" (a code name)
            told_after = m.start("name") < m.start("value")  # "the password is X", not "X is the password"
            if told_after and pattern not in after_login and _not_its_subject(clause[-6:]):
                continue  # "the person who knows the password is Maria", "la persona que cambió la contraseña es …"
            # a verb of the password word's own language ("la clave es practicar"; "sunflower" is no verb in English)
            if any(name.fullmatch(named) and verb.fullmatch(value) for name, verb in verbs):
                continue
            loose = pattern is linked and not set_words.fullmatch(m["link"] or "")  # "password to protect my account"
            if told_after and not _ends_there(read, m.end("value"), loose):
                continue  # "the password is case sensitive", "changed my password to protect my account": it goes on
            yield m


def _passphrases(read: str, caseless: Callable[[re.Pattern[str]], re.Pattern[str]]) -> Iterator[re.Match[str]]:
    """The words of a passphrase or a seed phrase told after its word ("the passphrase is
    purple monkey dishwasher", "a frase semente começa com lobo neve piano, …"), up to where
    the clause ends: none when they say what it is like ("the passphrase is too long", "la
    frase de paso es la de siempre": a word of ``password_states`` first, or function words
    for half of them)."""
    told, states = _phrase()
    function_words = _subjects()[2]
    between = _worded_ends()[2]
    for m in caseless(told).finditer(read):
        words = m["value"].lower().split()
        if states.fullmatch(words[0]) or 2 * sum(w in function_words for w in words) >= len(words):
            continue  # what it is like opens it ("too long …"), not a word of it ("vento forte sobre a serra")
        if not between.isdisjoint(read[m.start() : m.start("value")].lower().split()):
            continue  # "a passphrase for my ssh key or is a password fine": another clause's "is"
        yield m


@cache
def _phrase() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A passphrase's words after its word and a link, of every pack (read lower-cased), and
    the words that say what it is like (``password_states``)."""
    packs = all_packs()
    names, links = _either(lambda p: p.passphrase_words), _either(lambda p: (*p.secret_links, *p.passphrase_links))
    states = re.compile(r"\A(?:" + "|".join(f"(?:{w})" for p in packs for w in p.password_states) + r")\Z")
    if not names:
        return re.compile("(?!)"), states
    whose = _either(lambda p: p.secret_whose)
    joins = _either(lambda p: (*p.and_words, *p.clause_joins))  # not "o" ("or" in Spanish, "the" in Portuguese)
    return re.compile(
        rf"(?<![\w-])(?:{names})(?![\w-])(?:\s+(?:{whose})(?:\s+[^\s:=→]*[^\s:=→.!?;,]){{1,4}}?)?"
        rf"(?:\s*(?:[:=→]|->)\s*|\s+[-–—]\s+|\s+(?:{links})\s+)[\"'`“‘«]?"
        r"(?P<value>[^\W\d_]{1,40}(?:[ \t]+[^\W\d_]{1,40}){1,23}?)"
        rf"(?=[\"'`”’»]?\s*(?:$|[.,;!?)\n])|\s+(?:{joins})\b)"
    ), states


def _security_answers(read: str, caseless: Callable[[re.Pattern[str]], re.Pattern[str]]) -> Iterator[re.Match[str]]:
    """In a text that names a security question, the answer told after a verb of answering
    or an answer's label ("mother's maiden name for the bank security q, i put Kowalski", "la
    pregunta secreta era … y puse joaquin", "… Resposta: Sebastiao"): its words up to a
    function word or the clause's end, none that says what it is like."""
    asked, answered = _answering()
    question = caseless(asked).search(read)
    account = caseless(_accounts()).search(read) is not None
    if question or account or caseless(_topics()).search(read):  # not "banana as the answer to the riddle"
        yield from _answered_as(read, caseless)
    # a security question named, or a question quoted before the answer ("for 'name of your
    # first school' i answered …", "en 'tu primera escuela' contesté …")
    quoted = None if question else _QUOTED_QUESTION.search(read)
    # a quoted question is a form's where an account is named ("… on the bank site"), a quiz's else
    if quoted is not None and not (account or caseless(_topics()).search(quoted.group())):
        quoted = None  # "for 'capital of Peru' i answered Lima": a quiz's, not a form's
    if question is None and quoted is None:
        return
    function_words, states = _subjects()[2], _phrase()[1]
    after = question or quoted
    assert after is not None
    # told after it: not "I wrote down my recovery phrase"; right after a quoted question
    for m in caseless(answered).finditer(read, after.end(), after.end() + _ANSWERED_REACH if quoted else len(read)):
        words = [(m.start("value") + w.start(), m.start("value") + w.end()) for w in TYPED.finditer(m["value"])]
        kept = list(itertools.takewhile(lambda w: read[w[0] : w[1]].lower() not in function_words, words))
        if not kept or any(states.fullmatch(read[s:e].lower()) for s, e in kept):
            continue
        if len(kept) == len(words) and not _ends_there(read, kept[-1][1], loose=True):
            continue  # the answer goes on past four words: no answer of a question
        yield WHOLE.match(read, kept[0][0], kept[-1][1])  # type: ignore[misc]  # a match of the value alone


#: how far after a quoted question its answer is told ("'…' i answered …", "'…': …")
_ANSWERED_REACH = 40
#: a question quoted as a form asks it, a few words between quotes ("'name of your first
#: school'", "“cidade onde nasceu”"): an answer told after it is a security question's
_QUOTED_QUESTION = re.compile(r"(?<![\w])[\"'`“‘«][¿¡]?[^\W\d_][^\n\"“”«»]{2,78}?[\"'`”’»](?![\w])")


@cache
def _topics() -> re.Pattern[str]:
    """Any word of what a security question asks of one's past, of every pack (``security_topics``)."""
    return _any_word(lambda p: p.security_topics)


@cache
def _accounts() -> re.Pattern[str]:
    """Any word of an account a form's answer is given to, of every pack (``account_words``)."""
    return _any_word(lambda p: p.account_words)


def _answered_as(read: str, caseless: Callable[[re.Pattern[str]], re.Pattern[str]]) -> Iterator[re.Match[str]]:
    """A value said to be given as an answer, before the words that say so ("used Maplewood
    as the answer", "coloquei Augusta como resposta"): its words, none that says what it is
    like, nor a function word."""
    function_words, states = _subjects()[2], _phrase()[1]
    for m in caseless(_answer_as()).finditer(read):
        words = m["value"].lower().split()
        if any(w in function_words or states.fullmatch(w) for w in words):
            continue
        yield m


@cache
def _answer_as() -> re.Pattern[str]:
    """A value after a verb of answering or using and before an answer's "as" (``answer_as``),
    of every pack."""
    verbs, told_as = _either(lambda p: p.answer_verbs), _either(lambda p: p.answer_as)
    if not verbs or not told_as:
        return re.compile("(?!)")
    return re.compile(
        rf"(?<![\w-])(?:{verbs})\s+[\"'`“‘«]?(?P<value>[^\W\d_]{{2,40}}(?:[ \t]+[^\W\d_]{{1,40}}){{0,2}}?)"
        rf"[\"'`”’»]?\s+(?:{told_as})(?![\w-])"
    )


def _spelled(read: str, caseless: Callable[[re.Pattern[str]], re.Pattern[str]]) -> Iterator[re.Match[str]]:
    """A value said with how its letters are typed, right before the words that say so or
    after them and a colon ("it's trombone, all lowercase", "Thunderbolt with a capital T
    is the office wifi", "todo en minúsculas: mariposa", "feijoadadomingo (sem espaço)"),
    in a text that names a password, a code or what a password opens (``find_worded``): no
    one spells a word out that is not typed. None that is a word of the language, says what
    the value is like or is the password's own word, nor one in a clause that names
    something ("my wifi network is called HomeNet, all one word": a name, not its key)."""
    if not caseless(_typed_things()).search(read):
        return
    before, after = _spelling()
    states, function_words = _worded()[4], _subjects()[2]
    names, naming, others = caseless(_named()), _naming(), open_things()
    for pattern in (before, after):
        for m in caseless(pattern).finditer(read):
            value = m["value"].lower()
            if value in function_words or states.fullmatch(value) or names.fullmatch(value):
                continue
            clause = re.split(r"[.,;:!?\n(]", read[max(0, m.start("value") - 60) : m.start("value")])[-1]
            if any(naming.match(w) for w in clause.lower().split()) or caseless(others).search(clause):
                continue  # a name ("… is called HomeNet"), or another thing's ("my password manager is …")
            yield m


@cache
def _typed_things() -> re.Pattern[str]:
    """What a value spelled out may be typed into, of every pack: a password's word, a code's,
    a thing a password opens, a security question."""
    return _any_word(lambda p: (*p.password_words, *p.word_codes, *p.keyed_things, *p.answered_secrets))


@cache
def _spelling() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A value before the words that say how it is typed (``spelling_hints``), and one after
    them and a colon, of every pack."""
    hints = _either(lambda p: p.spelling_hints)
    if not hints:
        return re.compile("(?!)"), re.compile("(?!)")
    value = r"[\"'`“‘«]?(?<![\w-])(?P<value>[^\W_][^\s,;:()\"'`“”‘’«».!?]{2,39})[\"'`”’»]?"
    return (
        # "…, all lowercase", "… (no spaces)": a list in brackets says no value ("typed casually (lowercase, …")
        re.compile(rf"{value}(?:\s*+[,\-–—]?\s*+(?:{hints})(?![\w-])|\s*+\(\s*+(?:{hints})\s*+\))"),
        re.compile(rf"(?<![\w-])(?:{hints})\s*+[:=]\s*+{value}"),
    )


@cache
def _naming() -> re.Pattern[str]:
    """A word that says a name is told, of every pack (``naming_words``, ``name_nouns``, a
    login's word), read whole: a value said in its clause is a name, not a key."""
    named = _either(lambda p: (*p.naming_words, *p.name_nouns, *p.login_words))
    return re.compile(rf"\A(?:{named})\Z") if named else re.compile("(?!)")


def _label_pairs(read: str, caseless: Callable[[re.Pattern[str]], re.Pattern[str]]) -> Iterator[re.Match[str]]:
    """A password told as a label and its value, the label opening its clause and the value
    ending it ("network HendersonHome, key brightmorning", "vpn del curro, clave limonada",
    "rede CasaSilva, senha feijoadadomingo (sem espaço)"): a key's word is a password's only
    where a thing a password opens is named. None that is a word of the language or says
    what the password is like ("password reset, …")."""
    plain, keyed = _pairs()
    states, others = _worded()[4], open_things()
    patterns = (plain, keyed) if caseless(_keyed()).search(read) else (plain,)
    for pattern in patterns:
        for m in caseless(pattern).finditer(read):
            value = m["value"].lower()
            if states.fullmatch(value) or caseless(others).fullmatch(value):
                continue
            yield m


@cache
def _pairs() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A label that opens its clause (a password's word or a code's; a key's) and the one
    word that ends it, of every pack."""
    names = _either(lambda p: (*p.password_words, *p.word_codes))
    keys = _either(lambda p: p.key_words)
    # letters, or letters and digits as typed ("key purplemonkey42"), not a number alone
    word = r"[\"'`“‘«*]{0,2}(?P<value>(?=\d*[^\W\d_])[^\W_]{4,40})(?![\w-])[\"'`”’»*]{0,2}"
    ends = r"(?=\s*(?:$|[.,;!?)(\n]))"
    opens = r"(?:\A|[,;:\n])[ \t]*"
    return (
        re.compile(rf"{opens}(?P<name>{names})(?![\w-])[ \t]+{word}{ends}") if names else re.compile("(?!)"),
        re.compile(rf"{opens}(?P<name>{keys})(?![\w-])[ \t]+{word}{ends}") if keys else re.compile("(?!)"),
    )


def _opening_words(read: str, caseless: Callable[[re.Pattern[str]], re.Pattern[str]]) -> Iterator[re.Match[str]]:
    """The words a lock or an alarm opens with (``_opened_with``), none that is a word of the
    language, says what it is like or is a courtesy ("opens with the word please")."""
    states, function_words, ends = _worded()[4], _subjects()[2], _worded_ends()[0]
    for m in caseless(_opened_with()).finditer(read):
        first = m["value"].split()[0].lower()
        if first not in function_words and first not in ends and not states.fullmatch(first):
            yield m


@cache
def _opened_with() -> re.Pattern[str]:
    """A word a lock or an alarm is said to open with, said as a word or in quotes ("the safe
    opens with the word Rosebud", "la caja fuerte se abre con 'naranja'", "o cofre abre com a
    palavra Saudade"), of every pack: "opens with a push", "with my fingerprint" say none."""
    things, opens, with_, nouns = (
        _either(lambda p, f=f: getattr(p, f)) for f in ("code_things", "code_opens", "code_with", "word_nouns")
    )
    if not (things and opens and with_ and nouns):
        return re.compile("(?!)")
    gap = r"(?:[,;:]?\s+[^\s\d]+)"  # a word, maybe after a comma: no number between
    value = (
        rf"(?:(?:{nouns})\s+[\"'`“‘«]?|[\"'`“‘«])"
        r"(?P<value>[^\W\d_]{3,40}(?:[ \t][^\W\d_]{1,40}){0,3}?)[\"'`”’»]?(?![\w-])"
    )
    return re.compile(
        rf"(?<![\w-])(?:{things})(?![\w-]){gap}{{0,5}}?\s+(?:{opens})(?![\w-]){gap}{{0,2}}?\s+(?:{with_})\s+{value}"
    )


@cache
def _keyed() -> re.Pattern[str]:
    """Any thing a password opens, of every pack (``keyed_things``)."""
    return _any_word(lambda p: p.keyed_things)


@cache
def _answering() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(the words of a security question, a value told after a verb of answering or an
    answer's label), of every pack."""
    asked, verbs = _either(lambda p: p.answered_secrets), _either(lambda p: p.answer_verbs)
    labels = _either(lambda p: p.answer_labels)
    if not asked or not verbs:
        return re.compile("(?!)"), re.compile("(?!)")
    told = rf"(?:{verbs})\s+|(?:{labels})\s*[:=→]\s*" if labels else rf"(?:{verbs})\s+"
    told += r"|(?<=[\"'`”’»])[ \t]*[:=→][ \t]*"  # after a quoted question: "respuesta a '…': valparaiso"
    return re.compile(rf"\b(?:{asked})\b"), re.compile(
        rf"(?<![\w-])(?:{told})[\"'`“‘«]?(?P<value>[^\W\d_]{{2,40}}(?:[ \t]+[^\W\d_]{{1,40}}){{0,3}})"
    )


def _clause_before(read: str, at: int) -> list[str]:
    """The words before ``at`` in its clause, which a mark or a join ("and", "y", "e") ends:
    "mi usuario de Steam es elmatador y la clave es …" → ["la"]."""
    words = re.split(r"[.,;:!?\n]", read[max(0, at - 60) : at])[-1].split()
    joins = _subjects()[3]
    after = [i for i, w in enumerate(words) if w.lower() in joins]
    return words[after[-1] + 1 :] if after else words


def _not_its_subject(clause: list[str]) -> bool:
    """Whether the words before a password's word in its clause make it no subject of the
    "is" after it: a word of ``password_not_subject`` ("who knows the password", "el dueño
    de la contraseña"), or a "that"/"que" right before a verb ("que cambió la contraseña";
    not "dijo que la contraseña del servidor es …", nor "remember that my password is …")."""
    not_subject, that, function_words, _ = _subjects()
    if not not_subject.isdisjoint(clause):
        return True
    said = [i for i, w in enumerate(clause) if w in that]
    return bool(said) and said[-1] + 1 < len(clause) and clause[said[-1] + 1] not in function_words


@cache
def _subjects() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """(every pack's ``password_not_subject``, "that" words, function words with articles,
    words that join two clauses)."""
    packs = all_packs()
    return (
        frozenset(w for p in packs for w in p.password_not_subject),
        frozenset(w for p in packs for w in p.that_words),
        frozenset(w for p in packs for w in (*p.function_words, *p.value_articles)),
        frozenset(w for p in packs for w in (*p.and_words, *p.clause_joins)),
    )


@cache
def _set_words() -> re.Pattern[str]:
    """The words a password is said to be set to a value with ("to", "a", "para"), of every pack."""
    return re.compile("|".join(f"(?:{p.password_set_to})" for p in all_packs() if p.password_set_to) or "(?!)")


def _ends_there(read: str, at: int, loose: bool) -> bool:
    """Whether what is said ends at ``at``: the text's end, a mark, a word that opens the
    next clause or a laugh ("pikachu jaja no le digas"), or, ``loose``, any function word
    ("sunflower so tell the guests"; not after "to": "changed it to protect my account")."""
    rest = read[at : at + 40].lstrip(" \t\"'`”’»*")
    if not rest or not (rest[0].isalnum() or rest[0] == "_"):
        return True
    ends, function_words, _ = _worded_ends()
    word = rest.split(None, 1)[0]
    return word in ends or loose and word in function_words


@cache
def _worded_ends() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The words that may follow a password said at a clause's end: the words that open
    the next clause, a courtesy or a laugh of one word ("jaja", "kkkk", "thanks"), a word
    of when ("yesterday", "ayer"); every pack's function words; and the words that open
    the next clause alone."""
    packs = all_packs()
    said = (w for p in packs for w in (*p.courtesies, *p.closings) if " " not in w)
    # a word of when ("I changed my password to quicksilver yesterday")
    told = (
        *(t for p in packs for t, _ in (*p.relative_times, *p.present_times)),
        *(t for p in packs for t in p.recent_times),
    )
    when = (w for times in told for w in times.split("|") if re.fullmatch(r"[^\W\d_]+", w))
    joins = frozenset(w for p in packs for w in (*p.code_then, *p.clause_joins))
    return frozenset((*said, *when, *joins)), frozenset(w for p in packs for w in p.function_words), joins


@cache
def _worded() -> tuple[
    re.Pattern[str],
    tuple[re.Pattern[str], ...],
    tuple[re.Pattern[str], ...],
    re.Pattern[str],
    re.Pattern[str],
    tuple[tuple[re.Pattern[str], re.Pattern[str]], ...],
    frozenset[str],
]:
    """(a password's value of letters after its word and a link, one it was set to, one
    right after its word after a login's, one before it; the words that are no password:
    each pack's ``password_states``, function words, numbers and words of when; each pack's
    password words with its infinitive; the nouns that make a password's word an
    adjective)."""
    packs = all_packs()
    whose = _either(lambda p: p.secret_whose)
    keys, keyed = _either(lambda p: p.key_words), _either(lambda p: p.keyed_things)
    # a key of a thing a password opens is its password: "la llave del wifi", "a chave da rede"
    key_of = rf"|(?:{keys})\s+(?:{whose})\s+(?:[^\W\d]+\s+){{0,2}}?(?:{keyed})" if keys and keyed else ""
    names = _either(lambda p: (*p.password_words, *p.word_codes)) + key_of
    links = _either(lambda p: p.secret_links)
    word = r"[\"'`“‘«*]{0,2}(?<![\w-])(?P<value>[^\W\d_]{4,40})(?![\w-])[\"'`”’»*]{0,2}"
    name = rf"(?<![\w-])(?P<name>{names})(?![\w-])(?:\s+(?:{whose})(?:\s+[^\s:=→]*[^\s:=→.!?;,]){{1,7}}?)?[*_`]{{0,3}}"
    openers = _either(lambda p: p.password_clause_openers)
    asides = _either(lambda p: p.asides)
    word_nouns = _either(lambda p: p.word_nouns)
    said_a_word = rf"(?:(?:{word_nouns})\s+)?" if word_nouns else ""  # "the passcode is the word dinosaur"
    # what is said of the password between its word and "is": "the password I use for everything is …",
    # "the wifi password here is …"; an aside between commas: "my password, by the way, is …"
    clause = rf"(?:\s+(?:{openers})(?:\s+[^\W\d]+){{0,6}}?)?" if openers else ""
    aside = rf"(?:\s*,\s*(?:{asides})\s*,)?" if asides else ""
    linked = re.compile(
        rf"{name}{clause}{aside}(?:(?:\s+[^\W\d]+){{0,2}}?\s*(?:[:=→]|->)[*_`]{{0,3}}\s*"  # "clave wifi: …"
        rf"|\s+(?P<link>{links})(?=[\s:\"'`“‘«])\s*:?\s*{said_a_word}|(?P<own>['’]s)\s+){word}"  # "my password's …"
    )
    set_to = (
        tuple(
            re.compile(
                rf"\b(?:{p.password_set_verbs})[^\W\d]*\s+(?:[^\W\d]+\s+){{0,2}}?{name}\s+"
                rf"(?:{p.password_set_to})\s+{word}"
            )
            for p in packs
            if p.password_set_verbs
        )
        + tuple(  # the password named first: "la contraseña de netflix la cambié a …", "a senha do wifi a gente trocou pra …"
            re.compile(
                rf"{name}(?:\s+[^\W\d]+){{0,3}}?\s+(?:{p.password_set_verbs})[^\W\d]*\s+(?:{p.password_set_to})\s+{word}"
            )
            for p in packs
            if p.password_set_verbs
        )
        + tuple(  # "use elephant as the password", "usa murciélago como contraseña"
            re.compile(
                rf"\b(?:{'|'.join(v for v in (p.password_set_verbs, p.password_use_verbs) if v)})[^\W\d]*\s+{word}\s+"
                rf"(?:{p.password_set_as})\s+(?:[^\W\d]+\s+){{0,2}}?"
                rf"(?P<name>{names})(?![\w-])"
            )
            for p in packs
            if p.password_set_verbs and p.password_set_as
        )
    )
    logins = _either(lambda p: p.login_words)
    # after a login said in its sentence, a word right after the password's word: "user is the family email, password X"
    joins = _either(lambda p: (*p.and_words, *p.clause_joins))
    value_ends = r"(?=\s*(?:$|[.,;!)\n]))"
    after_login = (
        (  # the pair's parts joined by a comma or an "and", or "user jsmith pw hummingbird"
            re.compile(
                rf"(?<![\w-])(?:{logins})(?![\w-])(?:[^.!?\n]|\.(?=\S)){{0,80}}?(?:[,;]\s*|\s+(?:{joins})\s+)"
                rf"(?P<name>{names})\s+{word}{value_ends}"
            ),
            re.compile(
                rf"(?<![\w-])(?:{logins})\s*[:=]?\s*[^\s,;:]{{1,60}}\s+(?P<name>{names})\s*[:=]?\s*{word}{value_ends}"
            ),
        )
        if logins
        else ()
    )
    # between the link and the password's word, its words ("the wifi", "my laptop"), no "and" of another clause
    gap = rf"(?:(?!(?:{joins})\s)[^\W\d]+\s+){{0,3}}?"
    before = re.compile(rf"(?:\A|(?<=[.;:!?\n]\s)|(?<=\n)){word}\s+(?:{links})\s+{gap}(?P<name>{names})(?![\w-])")
    no_value = [
        *(w for p in packs for w in p.password_states),
        *(re.escape(w) for p in packs for w in (*p.function_words, *p.numbers, *p.weekdays, *p.months)),
        *(w for p in packs for w in p.login_words),  # "login é o email e senha …": the login's word
        *(when for p in packs for when, _ in p.relative_times if "{" not in when),
    ]
    states = re.compile(r"\A(?:" + "|".join(f"(?:{w})" for w in no_value) + r")\Z")  # read whole: linear
    verbs = tuple(
        (re.compile(spaced("|".join(p.password_words))), re.compile(rf"\A(?:{p.infinitive})\Z"))
        for p in packs
        if p.infinitive and p.password_words
    )
    adjective_of = frozenset(w for p in packs for w in p.password_adjective_of)
    return linked, set_to, after_login, before, states, verbs, adjective_of
