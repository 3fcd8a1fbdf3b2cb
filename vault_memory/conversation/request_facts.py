"""What a request to remember keeps, or why not: the fact it names read as the user's (or
their group's, or of their world), cut of what is not the fact (a lead, a courtesy, the
request said after it, an order for the task), written in the third person with a key and
a domain (``Signal``); else the reason it is not kept (a to-do, the task at hand, a secret,
nothing of the user's). The request tables' rows and statements are read here too
(``refusal``, ``_statement``). Pure functions over the packs' words; where a request *is*
in a message, and what it points at, is ``signals``'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..lang import (
    Pack,
    all_packs,
    detect,
    ends_in_abbreviation,
    fold_accents,
    in_third_person,
    pack,
    told_alike,
)


@dataclass(frozen=True)
class Signal:
    text: str  # third person: "The user's sister is called Ana"
    key: str
    domain: str
    lang: str  # "en" | "es"
    #: which table row fired, for --json and for tuning the table
    rule: str


@dataclass(frozen=True)
class NotKept:
    """A sentence that asked to remember something and is not kept, and why: the ingest
    report and the hook's log name it, so no request is dropped without a word."""

    sentence: str
    reason: str
    #: what it would keep, when the rules refused it by its words of the task alone (files,
    #: code, "deploy"): a judge of the message's meaning may keep it (``read_requests``)
    would_keep: Signal | None = field(default=None, compare=False)


@dataclass(frozen=True)
class _ByItsWords:
    """A refusal by words of the task alone: what the request keeps may still be of the
    user's world ("remember our branch names are feature/JIRA-…")."""

    reason: str


@dataclass(frozen=True)
class _Doubt:
    """A request refused by its words of the task alone, and what it would keep."""

    reason: str
    kept: Signal


_TASK = "about the task at hand (code, files, tests), not the user"


#: why a fact that only points at what it is about is not kept ("this is broken", "the new
#: one is…"): nothing in it says whose it is
_POINTED = "it points at what it is about (this, the new …) and does not say whose it is"


_I = re.IGNORECASE


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _I)


#: (language, rule name, pattern): a sentence any of these match is not a signal (each
#: pack's ``signal_refusals``)
NOT_SIGNALS: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (pack.code, rule, _rx(pattern)) for pack in all_packs() for rule, pattern in pack.signal_refusals
)


def _first_then(pattern: str) -> str:
    """``pattern`` of the shape "X.*Y" as one that finds whether a line holds an X with a Y
    after it from that line's first X alone (an atomic group holds it): what a search of it
    says, in linear time. Tried from every X, a line of many ("…to… to… to…", a Portuguese
    "tô") and no Y took time as its square. Any other pattern is as written."""
    first, star, then = pattern.partition(".*")
    if not star or ".*" in then or first.count("(") != first.count(")"):
        return pattern
    return f"^(?>.*?{first}).*{then}"


#: a clause that is a passing state, not something to keep ("hoy estoy cansado")
PASSING_STATE = re.compile(
    "|".join(f"(?:{_first_then(p)})" for pack in all_packs() for p in pack.passing_states) or r"(?!)",
    _I | re.MULTILINE,
)
#: "from now on X", "always X": an instruction that lasts
DIRECTIVES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (pack.code, rule, _rx(pattern)) for pack in all_packs() for rule, pattern in pack.signal_directives
)
#: a word that places what is said now or today, in every pack (``Pack.now_words``): a fact
#: said with one may be of the moment only, which the judge of passing reads
SAID_NOW = _rx(r"\b(?:" + ("|".join(p.now_words for p in all_packs() if p.now_words) or "(?!)") + r")\b")


def _either_of(field: str) -> str:
    """An alternation of every pack's ``field``, each a pattern as the pack writes it."""
    return "|".join(w for p in all_packs() for w in getattr(p, field))


def _words_of(field: str, space: str = r"\s+") -> str:
    r"""An alternation of every pack's ``field``, each word escaped and its spaces any run of
    spaces (``space``: "por favor" → ``por\s+favor``)."""
    return "|".join(re.escape(w).replace(r"\ ", space) for p in all_packs() for w in getattr(p, field))


#: (lang, rule, pattern, key, domain, template): facts about the user, said outright
STATEMENTS: tuple[tuple[str, str, re.Pattern[str], str, str, str], ...] = tuple(
    (pack.code, rule, _rx(pattern), key, domain, template)
    for pack in all_packs()
    for rule, pattern, key, domain, template, _ in pack.signal_statements
)


#: rule → how the fact opens (up to its first slot) when the user speaks of herself in the
#: feminine ("La usuaria es")
_FEMININE = {
    rule: (template.split(" {", 1)[0], feminine)
    for pack in all_packs()
    for rule, _, _, _, template, feminine in pack.signal_statements
    if feminine
}


#: an emoji, with its variation and skin-tone marks
_EMOJI = r"[\u2600-\u27bf\U0001f000-\U0001faff][\ufe0f\u200d\U0001f3fb-\U0001f3ff]*"


#: openers that do not change what follows ("btw, my name is…", "che, acordate que…")
#: (a word joined by a hyphen is no opener: "Well-done steak is what I order")
_FILLER = _rx(
    r"^(?:(?:"
    + "|".join(o for pack in all_packs() for o in pack.openers)
    # an emoji after an opener ends it as a comma does: "hey there 👋 just got a…"
    + rf")(?:\s*{_EMOJI}\s*|[,!:.]+\s*|\s+(?:[-–—]+\s+)?))+"
)


_MAX_CHARS = 300


_POSSESSIVE_SPACE = r"\s++"


_STOP_AT = re.compile(
    rf"(?<!\s)\s*+(?:[.;!]\s*+|(?<=\s)(?:{_words_of('clause_joins')})\s++|,?+\s*+(?<=[\s,])"
    rf"(?:{_words_of('end_courtesies', _POSSESSIVE_SPACE)})\s*+)$",
    _I,
)


#: what makes a request a to-do ("remember *to*…"), in every pack
_TODO_WORDS = frozenset(w for p in all_packs() for w in p.todo_words)


def _ends_in_a_request(said: str) -> bool:
    """Whether ``said`` ends in a request to keep what it says before ("…, no lo olvides
    porque…", "…, grava os dois")."""
    tail = max(0, len(said) - _TRAILING_CHARS)  # a request said after its fact is short
    return any(_trailing_request(said[split.end() :].split()) is not None for split in _marks_after(said, tail))


#: how far from its end a request said after its fact may begin
_TRAILING_CHARS = 160


def _theirs(clauses: str) -> bool:
    """Whether what a request keeps opens with the user or their group ("my dog is Toby and
    …", not "you said Java is better and …", nor "Good morning" after "Save this.")."""
    said = clauses.strip()
    return bool(_ANY_USER_SUBJECT.match(said) or _USER_GROUP.match(said))


#: the possessives of every pack ("my", "mi", "minha") opening a text, an article before
#: them or not ("a minha prima")
_POSSESSIVE_FIRST = r"^(?:\w{1,3}\s+)?(?:" + "|".join(p.possessives for p in all_packs() if p.possessives) + ")"


#: the user's words in every pack, wherever they are ("los viernes *no trabajo*")
_USER_WORDS = re.compile("|".join(f"(?:{p.user_opening})\\b" for p in all_packs() if p.user_opening), _I)


#: a few words and a dash or a colon before what the user says of themselves ("quick thing —
#: my daughter Priya starts…", "ah, e outra coisa: a minha sogra…"): a lead, not the fact; an
#: aside a request's own dash opens is one too ("remember that — honestly — my dog is Rex")
_LEAD = re.compile(r"^(?:(?:[—–]|--?)\s+)?(?:[^\s—–:]+\s+){0,3}?[^\s—–:]+\s*(?:[—–]|:|\s-)\s+")


def _without_lead(said: str) -> str:
    """``said`` without a lead of a few words before a dash or a colon, when what follows
    opens with the user or their group; else as it was."""
    lead = _LEAD.match(said)
    if lead is None or not _theirs(said[lead.end() :]):
        return said
    return said[lead.end() :]


def _without_opening_aside(said: str) -> str:
    """``said`` without an aside its request's own dash opens ("— la verdad — mi coche es…",
    "— sinceramente — meu carro é…"), when what follows is of the user."""
    return _without_lead(said) if said[:1] in "—–-" else said


#: what a request points back with ("remember *that*", "guárdalo", "guarda *isso*"), in every pack
_BACK_WORDS = frozenset(w for p in all_packs() for w in p.back_refs)


#: the words said with a request's verb that say nothing ("anota *aí*"), and what opens what a
#: request is for ("pra quando…", "for when…"), in every pack
_REQUEST_FILLERS = frozenset(fold_accents(w) for p in all_packs() for w in p.request_fillers)


_FOR_WHAT = re.compile(
    r"(?:" + ("|".join(r for p in all_packs() for r in (*p.request_purposes, *p.request_when)) or "(?!)") + ")", _I
)


def _says_only_what_for(rest: list[str]) -> bool:
    """Whether what follows a request's word says nothing of its own: courtesies, a word said
    with the verb, or what the request is for ("guarda aí 🚴", "anota pra quando eu pedir
    ajuda com eles", "tenlo presente cuando te diga…")."""
    said = _trim(" ".join(_past_fillers(rest)).lstrip(",;:"))
    return not said or _FOR_WHAT.match(said) is not None


def _past_fillers(rest: list[str]) -> list[str]:
    """``rest`` from its first word that is neither a word said with a request's verb nor a
    courtesy ("aí", "porfa", "pls")."""
    i = 0
    while i < len(rest) and fold_accents(rest[i].casefold().strip(",.!?;:")) in _SAYS_NOTHING:
        i += 1
    return rest[i:]


#: the courtesies of one word, in every pack (accents folded)
_COURTESY_WORDS = frozenset(fold_accents(c) for p in all_packs() for c in p.courtesies if " " not in c)


#: the question tags of one word, in every pack (accents folded): said after a request
#: without a question mark, they ask nothing ("…don't forget that ok", "…lembra disso beleza")
_TAG_WORDS = frozenset(fold_accents(t) for p in all_packs() for t in p.question_tags if " " not in t)


#: the words of address of every pack, accents folded ("bro", "guey", "mano"), and of each
_VOCATIVES_OF = {p.code: frozenset(fold_accents(w) for w in p.vocatives) for p in all_packs()}
_VOCATIVES = frozenset().union(*_VOCATIVES_OF.values())


#: what a request may say after its word that says nothing: a word said with it, a courtesy,
#: a tag, a word of address
_SAYS_NOTHING = _REQUEST_FILLERS | _COURTESY_WORDS | _TAG_WORDS | _VOCATIVES
#: what a request may keep that is no fact, said alone: a tag or a word of address
_TAG_OR_ADDRESS = _TAG_WORDS | _VOCATIVES


#: how the verbs a request is asked with open ("remem", "lembr", "recue"): a cue that is one
#: of them asks by itself; "later", "memory", "mind" ask only with a request's glue
_ASKING_STEMS = tuple(sorted({fold_accents(v.casefold())[:5] for p in all_packs() for v in p.request_verbs}))


def _asks_by_its_verb(word: str) -> bool:
    return _cue_form(word).startswith(_ASKING_STEMS)


def _a_word_of_the_request(lead: list[str]) -> bool:
    """Whether the one or two words before a request's word that is all its sentence say
    nothing of their own ("*Worth* remembering.", "*Vale* lembrar.", "*Para* recordar."):
    the request is still the whole sentence. "I'll remember", "my notes" say something, and
    "Hard *to* remember" judges, it asks nothing."""
    said = " ".join(lead)
    return (
        0 < len(lead) <= 2
        and not any(map(_is_cue, lead))
        and not any(
            w.strip(",.!?¿¡").casefold() in _TODO_WORDS for w in lead
        )  # "Hard to remember.", "Fácil de olvidar."
        and not (_ANY_USER_SUBJECT.match(said) or _USER_GROUP.match(said) or _USER_WORDS.search(said))
        and not (_SAYS_SOMETHING.search(said) or _TASK_WORDS.search(said))
    )


#: words that open a request said after its fact ("…, please keep that in mind", "y guardalo"), in every pack
_REQUEST_GLUE = frozenset(w for p in all_packs() for w in p.request_glue)


#: what may come before a request's word when it is said after its fact: its glue and its back words
_REQUEST_LEAD = _REQUEST_GLUE | _BACK_WORDS


#: the refusals of a story of remembering or not: a request may follow one ("I never
#: remember it, so keep it: …", "no me acuerdo nunca, así que apúntalo: …")
_STORIES = frozenset({"tells-of-remembering", "not-remembering"})


def refusal(sentence: str) -> str | None:
    """The ``NOT_SIGNALS`` rule that refuses ``sentence``, if one does (for tests and --json)."""
    for _, rule, pattern in NOT_SIGNALS:
        if pattern.search(sentence.strip()) and not (rule in _STORIES and _asked_after_a_story(sentence)):
            return rule
    return None


#: where a clause opens after a story of remembering: after a comma or a dash, a join or a
#: word that says what follows from it ("…, so keep it: …", "… — store it: …", "…, así que
#: guárdalo: …", "…sizes so note this down: …")
_CLAUSE_OPENS = _rx(
    rf"(?:[,;]|\s[—–-])\s*+(?:(?:{_words_of('clause_joins')}|{_either_of('consequences')})\s++)?"
    rf"|\s(?:{_words_of('clause_joins')}|{_either_of('consequences')})\s++"
)


def _asked_after_a_story(sentence: str) -> str | None:
    """What is said from the first clause after a story of remembering that opens with a
    request, to the sentence's end, or None: "I remember you said so, but please remember my
    name is Dev", "Eu lembro que já falamos disso, mas lembre que minha filha se chama Bia",
    "…so save this, the car is a 2017 Honda Civic" (what follows its comma too)."""
    said = sentence.strip()
    for opening in _CLAUSE_OPENS.finditer(said):
        rest = said[opening.end() :]
        words = _past_fillers(rest.split())
        if words and _is_cue(words[0]):
            return rest.strip()
    return None


_PASSING = "a passing state, not a lasting fact"


#: the words of a request's opening before what to keep is said (``_cued``)
_CUE_REACH = 8


#: the words after a "that" that make it a pronoun, in every pack (``Pack.pronoun_tails``)
_PRONOUN_TAILS = frozenset(w for p in all_packs() for w in p.pronoun_tails)


#: what the assistant is told to do next, after a note about the code ("…, agrega una validación")
_DO_NEXT = re.compile(
    rf"(?:[,;.]|\b(?:{_words_of('code_then')}))\s+(?:"
    + "|".join(re.escape(w) for p in all_packs() for w in p.task_imperatives)
    + r")\b",
    _I,
)


#: where a clause opens after a note about the code, and its first word ("…, así que *actualizá*…")
_CLAUSE_OPENING = re.compile(
    rf"(?:[,;.]|\b(?:{_words_of('code_then')}))\s+(?:(?:{_either_of('consequences')})\s+)?([^\W\d_]+)", _I
)
#: each pack's reading of a form only an order takes (``Pack.order_form``: "actualizá")
_ORDER_FORMS = tuple(p.order_form for p in all_packs() if p.order_form is not None)


def _told_next(whole: str) -> bool:
    """Whether ``whole`` tells the assistant what to do next: a task's imperative after a
    mark ("…, agrega una validación"), or a clause that opens with a form only an order
    takes, whatever its verb ("…, así que actualizá el lockfile")."""
    return _DO_NEXT.search(whole) is not None or _order_form_tail(whole) is not None


#: an order about the work after a note about the code, and what it is about ("…, push
#: there", "…, sube ahí los cambios", "…, no corras el seed", "…, não roda o seed")
_ORDER = re.compile(
    r"(?:[,;.]|\s[—–])\s+(?:(?:"
    + _either_of("consequences")
    + r")\s+)?(?P<not>(?:"
    + _either_of("prohibitions")
    + r")\s+)?(?:"
    + _words_of("task_orders")
    + r")\b(?P<rest>[^,;.]*)",
    _I,
)


_THERE = re.compile(rf"\b(?:{_words_of('there_words')})\b", _I)


def _what_to_do_with_it(said: str, whole: str, about_user: bool) -> bool:
    """Whether a request's fact comes with what the assistant is to do about it (``whole``:
    the words after the request) and is the task's: a note of someone's or something's
    ("our API returns 404…, handle it"), or of a thing of the user's that names the task,
    ordered about ("my branch is feat/billing, push there", "o meu .env aponta pro banco de
    dev, não roda o seed"). A fact of the user themselves stays theirs ("I'm colorblind, so
    don't use only colours"), as does a thing of theirs that names nothing of the task ("my
    daughter is allergic to nuts, check the labels")."""
    told_next = _told_next(whole)
    if told_next and not about_user:
        return True
    theirs = _OF_THEIRS.match(said) is not None
    if not ((about_user or theirs) and _TASK_WORDS.search(said)):
        return False
    if not theirs:
        # the user's own state that names the task ("I'm on the old laptop so the build is
        # slow, skip the e2e tests", "estoy en la rama fix/x, no toques main"): the task's
        # when an order follows a mark; one joined by "and" is cut from a fact kept ("I work
        # on the billing service and rerun the failed tests")
        told_next = any(m.group()[0] in ",;." for m in _DO_NEXT.finditer(whole))
    order = _ORDER.search(whole)
    # a task's verb forbidden ("…, no corras el seed", "…, não roda o seed") is an order about
    # the work whatever it names
    return told_next or (
        order is not None
        and bool(order.group("not") or _TASK_WORDS.search(order.group("rest")) or _THERE.search(order.group("rest")))
    )


#: where a fact may end and the request to keep it begin, in one sentence ("…, anotalo", "… — tenlo presente")
#: (an emoji ends a clause as a comma does: "mi cumple es el 17 de agosto 🎂 que no se te olvide");
#: a run of marks is read from its first (from each of its marks, 20,000 dots took 0.75 s,
#: growing as its square)
_REQUEST_AFTER = re.compile(r"(?<![,;.!])[,;.!]++\s+|\s[-–—]\s+|\s" + _EMOJI + r"\s+")


def _marks_after(said: str, start: int = 0) -> list[re.Match[str]]:
    """Where a request said after its fact may begin in ``said`` (``_REQUEST_AFTER``), not
    at the full stop of an abbreviation: "my dentist is Dr. Alves remember that" had kept
    "The user's dentist is Dr"."""
    return [
        m
        for m in _REQUEST_AFTER.finditer(said, start)
        if not (m.group().startswith(".") and ends_in_abbreviation(said[: m.start() + 1]))
    ]


#: the emoji a sentence opens with, that the one before it ended on ("…esto? 🙂 mi proyecto")
_EMOJI_OPENING = re.compile(r"^(?:" + _EMOJI + r"\s*)+")


#: how far into what follows the fact a request's word may be ("…, and please do keep that", "…, y que no
#: se te vaya a olvidar"): every word before it is a request's glue
_TRAILING_CUE_REACH = 7


def _trailing_request(words: list[str]) -> str | None:
    """The word that asks to keep, when ``words`` are a request about what was said before
    them, else None: its lead ("please", "y que no se te") and the word, then what it keeps
    pointed at ("that", "isso"), then nothing, a courtesy, or a phrase that says where or
    when to keep it ("in mind", "siempre", "pras próximas conversas")."""
    plain = [w.strip(",.:!?¿¡").casefold() for w in words]
    if _tells_of_remembering(" ".join(words)):
        return None  # "…, I will never forget it", "…, nunca lo olvidaré": the user's own memory, not a request
    cue = _first_cue(words, _TRAILING_CUE_REACH)
    if cue is None:
        return None
    if any(w not in _REQUEST_LEAD for w in plain[:cue]) and not (
        _asks_by_its_verb(words[cue]) and _a_word_of_the_request(words[:cue])  # "— worth remembering when…"
    ):
        return None
    rest = plain[cue + 1 :]
    while rest and rest[0] in _BACK_WORDS:
        rest = rest[1:]
    if len(rest) > 1 and _a_todo_word(rest[0], rest[1]):
        return None  # "…!! acordate de hacer push": a to-do of its own, not a request of what came before
    if not rest or rest[0] in _PRONOUN_TAILS or not _trim(" ".join(rest)) or _says_only_what_for(rest):
        return words[cue]  # "…, please remember that", "— worth remembering when I ask about…"
    back = len(plain) - len(rest) - 1  # where the last back word is
    if back > cue and (words[back].endswith((",", ";")) or rest[0] in _AND_WORDS):
        return words[cue]  # "— remember this, it's a team rule", "…, remember that and stop suggesting…"
    return None


#: each pack's words a to-do opens with ("to", "de"), and the infinitive that must follow one
#: (none: any word does, "to *tag*"; "de *hacer*", not "de acá")
_TODO_OPENINGS = tuple(
    (p.todo_words, re.compile(rf"^(?:{p.infinitive})$", _I) if p.infinitive else None)
    for p in all_packs()
    if p.todo_words
)


def _a_todo_word(word: str, following: str) -> bool:
    """Whether ``word`` then ``following`` open a to-do ("to tag", "de hacer", "de ligar")."""
    return any(word in words and (verb is None or verb.match(following)) for words, verb in _TODO_OPENINGS)


#: what joins two clauses, in every pack (``Pack.and_words``)
_AND_WORDS = frozenset(w for p in all_packs() for w in p.and_words)


def _kept(said: str, cue_word: str, between: str, said_in: str | None) -> Signal | str | _Doubt:
    """What a request read by its cue keeps (``said``), or why not."""
    if _TASK_WORDS.search(between):  # "anotá los tests que fallan": a relative "que"
        return _TASK
    of_the_request = _cue_languages(cue_word)
    lang = said_in or next(iter(of_the_request), "en")
    if of_the_request and lang not in of_the_request:
        # what the whole was read as, no language of the request's word says ("odeio coentro,
        # lembra disso sempre que sugerir comida" votes Spanish): the fact's own words, else
        # the request's
        # whose short words another language of its family also writes ("tomo topiramato
        # todo dia, salva isso" votes Spanish): the request's word, which only one writes
        told = detect(said)
        lang = of_the_request[0] if told is None or told in told_alike(of_the_request[0]) else told
    whole = said.strip()
    said = _past_the_scope(
        _without_its_reason(
            _without_trailing_request(_without_lead(_FILLER.sub("", _trim(_without_task_tail(said))).strip()))
        )
    )
    if not said or _only_a_tag(said):  # "…remember that ok": the request points back
        return _NOTHING_AFTER
    why_not = _why_not_kept(said, whole, lang)
    written_in = lang if pack(lang) is not None else "en"
    if isinstance(why_not, _ByItsWords):
        return _Doubt(why_not.reason, _as_said(said, written_in, "keep-this"))
    return why_not or _as_said(said, written_in, "keep-this")


#: what the user and the assistant have together, in every pack ("conversations", "sesión", "papo")
_SESSION_NOUNS = frozenset(fold_accents(w) for p in all_packs() for w in p.session_nouns)
#: the most words of a phrase that says which conversations a request is for
_SCOPE_MOST = 6
#: the most words after its noun ("todas las conversaciones *futuras*,")
_AFTER_THE_NOUN = 2


#: "while" in every pack, and the determiners that point at a thing at hand ("this", "esta")
_WHILE_WORDS = frozenset(fold_accents(w) for p in all_packs() for w in p.while_words)
_THIS_WORDS = frozenset(fold_accents(w) for p in all_packs() for w in p.demonstratives)
#: the words of what is left of a time, in every pack ("rest", "resto")
_REST_WORDS = frozenset(fold_accents(w) for p in all_packs() for w in p.rest_words)
#: how many words after one may name the conversation ("rest of the session", "resto da sessão")
_REST_REACH = 3
#: the words that open a lead of place or occasion, in every pack (``Pack.place_leads``:
#: "for", "durante"; "neste" opens one itself)
_PLACE_LEADS = frozenset(fold_accents(w) for p in all_packs() for w in p.place_leads)
#: why a request bound to the work at hand is not kept
FOR_NOW_ONLY = "asked to keep only while the work at hand lasts, not a lasting fact"


#: what says a request holds for a while only, in every pack (``Pack.for_a_while``: "for
#: now", "por el momento", "pela próxima hora"), accents folded as a request's words are read
FOR_A_WHILE = re.compile(
    r"\b(?:" + ("|".join(fold_accents(p.for_a_while) for p in all_packs() if p.for_a_while) or "(?!)") + r")\b"
)
#: of those, the spans of a few hours or of this conversation (``Pack.for_a_short_while``)
FOR_A_SHORT_WHILE = re.compile(
    r"\b(?:"
    + ("|".join(fold_accents(p.for_a_short_while) for p in all_packs() if p.for_a_short_while) or "(?!)")
    + r")\b"
)


def _for_now_only(words: list[str], cue: int) -> bool:
    """Whether a request's own words (``words`` up to what it keeps; ``words[cue]``, its
    word of keeping) bind it to the work at hand: a clause of "while" after its word ("keep
    this in mind *while we work on this*:", "guarda isso *enquanto a gente mexe aqui*:"), or
    this one conversation anywhere in them ("*for this session*, remember that…", "en esta
    charla", "para el resto de la sesión"), or this piece of work after its word ("pro resto
    *desse refactor*:"). A lead of "while" before the request says when it is said, not for
    how long ("While you fix the linter, note that my manager is Priya")."""
    plain = [fold_accents(w.strip(",.:;!?¿¡()").casefold()) for w in words]
    if any(w in _WHILE_WORDS for w in plain[cue + 1 :]):
        return True
    if FOR_A_WHILE.search(" ".join(plain)):
        return True  # "remember for now that…", "por enquanto, lembra:", "lembra só por hoje que…"
    pairs = list(zip(plain, plain[1:], strict=False))
    if any(a in _THIS_WORDS and b in _SESSION_NOUNS for a, b in pairs):
        return True  # "for this session", anywhere
    if any(
        w in _REST_WORDS and _SESSION_NOUNS.intersection(plain[k + 1 : k + 1 + _REST_REACH])
        for k, w in enumerate(plain)
    ):
        return True  # "for the rest of the session", "pro resto da conversa"
    # "pro resto desse refactor", after its word, or in a lead of place or occasion before
    # it ("for the rest of this refactor, remember…", "neste ficheiro lembra…"); not the task
    # a message leads with ("revisa essa query e, ah, lembra que…")
    lead = plain[0] in _PLACE_LEADS or plain[0] in _THIS_WORDS
    return any(
        a in _THIS_WORDS and _TASK_WORDS.fullmatch(b) is not None and (k > cue or lead)
        for k, (a, b) in enumerate(pairs)
    )


#: why a request is asked, at a clause's start (``Pack.request_reasons``: "because", "ya que", "pois")
REASON_OPENING = re.compile(r"(?:" + ("|".join(r for p in all_packs() for r in p.request_reasons) or "(?!)") + ")", _I)
#: the words naming the assistant in every pack, accents folded ("you", "te", "você")
TO_YOU = frozenset(fold_accents(w).casefold() for p in all_packs() for w in p.addressee)
#: how many words after a reason's opening may name the assistant ("because *you'll*…")
TO_YOU_REACH = 4


def speaks_to_you(words: list[str]) -> bool:
    """Whether ``words`` name the assistant ("you'll", "você", "te") among their first ones."""
    return any(fold_accents(w.strip(",.!?;:")).casefold().split("'")[0] in TO_YOU for w in words[:TO_YOU_REACH])


def _without_its_reason(said: str) -> str:
    """What a request keeps, less the reason said after it: that the user forgets ("…, que
    siempre se me olvida", "…, eu sempre esqueço", "…, i always forget"), or why the assistant
    will need it ("remember that my mom is Helen, because you'll help me write to her", "…,
    já que você vai…"): it tells why the request was made, not the fact."""
    cut = said.rfind(",")
    if cut < 0:
        return said
    words = said[cut + 1 :].split()
    while words and fold_accents(words[0].casefold()) in _THAT_WORDS:
        words = words[1:]
    if not words:
        return said
    told = " ".join(words)
    return said[:cut].rstrip() if a_reason_to_you(told) or _tells_of_remembering(told) else said


def a_reason_to_you(told: str) -> bool:
    """Whether ``told`` opens with a reason (``REASON_OPENING``) that speaks to the assistant
    ("because you'll help me…", "já que você vai…"): why a request is made, not its fact."""
    reason = REASON_OPENING.match(told)
    return reason is not None and speaks_to_you(told[reason.end() :].split())


def _past_the_scope(said: str) -> str:
    """What a request keeps, past a phrase that says which conversations it is for ("em
    todas as nossas conversas, eu trabalho de madrugada", "in every future session: I'm…"):
    a short phrase opening with a word a pronoun's tail does ("in", "em", "para") and ending
    in a conversation's noun (``Pack.session_nouns``) before a comma, a colon or a "that".
    "On Mondays, I work from home" keeps its phrase: Mondays are the user's, not the chat's."""
    words = said.split()
    if not words or fold_accents(words[0].casefold()) not in _PRONOUN_TAILS:
        return said
    for j in range(1, min(len(words), _SCOPE_MOST + 1)):
        noun = fold_accents(words[j - 1].casefold())
        if noun.rstrip(",:") not in _SESSION_NOUNS:
            continue
        # the phrase ends at the noun, or a word or two after it ("conversaciones futuras,")
        for end in range(j, min(j + _AFTER_THE_NOUN + 1, len(words))):
            last = words[end - 1]
            that = fold_accents(words[end].casefold()) in _THAT_WORDS
            if that or last.endswith((",", ":")):
                rest = words[end + that :]
                return " ".join(rest) if len(rest) >= 2 else said
        return said
    return said


def _only_a_tag(said: str) -> bool:
    """Whether all ``said`` says is a question tag ("ok", "vale", "beleza"), a question mark or
    not, or a word of address ("mano", "po", "bro")."""
    return fold_accents(said.strip(" ,.!?¿¡").casefold()) in _TAG_OR_ADDRESS


def _without_trailing_request(said: str) -> str:
    """``said`` without a request said again at its end, after a comma or a dash ("before i
    forget: my locker is 212, remember that" keeps "my locker is 212")."""
    marks = _marks_after(said)
    if marks and _trailing_request(said[marks[-1].end() :].split()) is not None:
        return said[: marks[-1].start()].rstrip()
    return said


def _as_said(said: str, lang: str, rule: str) -> Signal:
    """The fact a request keeps: a known statement's, else ``said`` in the third person."""
    inner = _statement(said)
    if inner is not None:
        return Signal(inner.text, inner.key, inner.domain, inner.lang, f"{rule}+{inner.rule}")
    return _generic(said, lang, rule)


def _why_not_kept(said: str, whole: str, lang: str) -> str | _ByItsWords | None:
    """Why what a request keeps (``said``, ``whole`` before its trimming) is no lasting
    fact of the user: a passing state, a bare name, the task at hand; else None."""
    refused = refusal(said)
    # what a request keeps may tell of remembering ("remember that my dad forgets names"),
    # unless that is all it says ("…, keep that in mind, I always forget lol")
    if refused == "tells-of-remembering" and _only_remembering(said):
        return "it tells of remembering; it says nothing to keep"
    if refused not in (None, "tells-of-remembering"):
        return _PASSING
    why = _says_no_fact(said)
    if why is not None:
        return why
    about_user = _of_user_or_group(said, lang)
    if _what_to_do_with_it(said, whole, about_user):
        return "a note about the task at hand, with what to do about it"
    if _POINTING.search(said) or _points_at(said):
        return _POINTED  # "this", "here", "the new one": what it is about is not said
    # a word of today alone ("hoy", "right now") may tell of the moment or of when a lasting
    # fact began ("desde hoy soy vegetariana"): a doubt the judge of passing settles
    of_today = _TODAY.search(said) is not None
    if _TASK_WORDS.search(said) and not _their_world(said, about_user):
        return _task_refusal(said)
    return _ByItsWords(_PASSING) if of_today or PASSING_STATE.search(said) else None


#: how someone tells of remembering, in every pack (the ``tells-of-remembering`` refusals)
_REMEMBERING = tuple(pattern for _, rule, pattern in NOT_SIGNALS if rule == "tells-of-remembering")


def _tells_of_remembering(said: str) -> bool:
    """Whether ``said`` opens with a story of remembering or forgetting ("I'll always
    remember", "nunca lo olvidaré", "nunca vou esquecer"): said after a fact, it tells, it
    does not ask."""
    return any(pattern.match(said) for pattern in _REMEMBERING)


def _only_remembering(said: str) -> bool:
    """Whether ``said`` tells of someone's remembering and little else: "I'll never forget",
    "i always forget lol", "I remember it" (two words more at most)."""
    for pattern in _REMEMBERING:
        told = pattern.match(said.strip())
        if told is not None and len(said.strip()[told.end() :].split()) <= 2:
            return True
    return False


def _says_no_fact(said: str) -> str | None:
    """Why what a request keeps says no fact, whoever it is of: about someone unnamed ("his
    name is Bob"), cut off before its value ("my name is"), pointing at what it does not
    name ("I refactored it"), naming a thing with nothing said of it ("my favourite tea"),
    or nothing at all ("Remember, to:"); else None."""
    unfinished = _unfinished(said)
    if unfinished is not None:
        return unfinished
    if _says_nothing(said):
        return _NOTHING_AFTER
    if len(said.split()) <= _SHORT and said.split()[-1].strip(".,!?").casefold() in _BACK_WORDS:
        return "it points at something it does not name (it, this, that)"  # "I refactored it, can you save that?"
    if _BARE_POSSESSIVE.match(said) and not _says_of_it(said):
        return "names something without saying anything of it"
    return None


#: a fact about someone the message does not name ("his name is Bob", "ella vive en Lima"),
#: in every pack: kept alone, it would not say whom it is about
_OTHERS = re.compile(r"^(?:" + "|".join(p.others_opening for p in all_packs() if p.others_opening) + r")\b", _I)


_UNNAMED = "it does not say whom it is about (he, she, they: name them)"


#: why a request is not kept when nothing follows its word, or what follows says nothing of the user
_NOTHING_AFTER = "nothing to keep was said after the request"


#: the most words of a fact that stops where its value should be said: "my name is", "mi
#: perro se llama" ("I take the train to work" ends in a saying verb, and says it)
_SHORT = 4


def _unfinished(said: str) -> str | None:
    """Why a fact cannot stand alone: it is about someone unnamed ("his name is Bob") or
    stops where its value should be said ("my name is"); else None."""
    if _OTHERS.match(said):
        return _UNNAMED
    if _unsaid(said) or said.rstrip().endswith(":"):  # "sobre mí:": what it keeps is below
        return _NOTHING_AFTER
    last = said.rstrip(" .,;!?").rsplit(None, 1)[-1:]
    if last and (own := pack(detect(said) or "")) is not None and last[0] in own.dangling:
        return _CUT  # "Would love it if", "I'm vegan and": it stops where its clause begins
    return None


#: why a fact that stops where a clause begins is not kept
_CUT = "it stops where a clause begins ('… if', '… and'): say the whole of it"


def _unsaid(said: str) -> bool:
    """Whether a fact stops where its value should be said ("my name is", "lembra que meu")."""
    return len(said.split()) <= _SHORT and _UNSAID_END.match(said) is not None


#: a fact that stops where its value should be said: a possessive alone, or with what it
#: names and a saying verb ("my favourite band is", "mi perro se llama"; not "I cycle to work")
_UNSAID_END = re.compile(
    r"^(?:"
    + "|".join(
        rf"(?:{p.possessives})(?:(?:\s+\S+){{1,2}}\s+(?:{p.saying_verbs}))?"
        for p in all_packs()
        if p.possessives and p.saying_verbs
    )
    + r")$",
    _I,
)


#: where a thing of the user's world is reached: a URL, a host of two dots or more, a host
#: with its port, a domain with a path ("github.com/acme/api"); not a file ("utils.py")
_AN_ADDRESS = re.compile(
    r"\bhttps?://\S|(?<![\w.-])(?:[a-z0-9][\w-]*+(?:\.[a-z0-9][\w-]*+){2,}|[a-z0-9][\w.-]*+:\d{2,5}\b|"
    r"[a-z0-9][\w-]*+\.(?:com|org|net|io|dev|app)/\w)",
    _I,
)


#: a saying verb just before an address, maybe with one short word between ("is at", "es un")
_SAYS_BEFORE = re.compile(
    r"\b(?:" + "|".join(p.saying_verbs for p in all_packs() if p.saying_verbs) + r")(?:\s+\w{1,3})?\s+$", _I
)


#: how a fact of the user's team, company or office opens, in every pack: "on my team…",
#: "our team's…", "na minha equipe…", "en mi empresa…", and where they work said with an
#: article ("at work", "en la pega", "na empresa": theirs) (``Pack.group_nouns``)
def _their_group_opening(pack: Pack) -> str:
    """One pack's opening of a fact of the user's team or workplace: a place and its article
    or possessive ("on my", "en la", "at"), or a possessive alone, then a group noun."""
    article = rf"(?:(?:{'|'.join(sorted(pack.value_articles))})\s+)?"
    owner = rf"(?:{pack.possessives})\s+"
    place = rf"(?:{'|'.join(sorted(pack.place_leads))})\s+"
    return rf"(?:{place}{article}(?:{owner})?|{article}{owner})(?:{'|'.join(sorted(pack.group_nouns))})(?:['’]s)?\b"


_OF_THEIR_GROUP = re.compile(
    "|".join(_their_group_opening(p) for p in all_packs() if p.group_nouns and p.possessives) or "(?!)", _I
)


def _their_world(said: str, about_user: bool) -> bool:
    """Whether what a request keeps is of the user's world, words of code in it or not: it
    opens with them, their group or their team ("na minha equipe o code review precisa de 2
    aprovações"), or says what a thing of theirs is and where it is reached ("el servidor
    de pruebas es qa-01.miempresa.com")."""
    if about_user or _OF_THEIR_GROUP.match(said):
        return True
    address = _AN_ADDRESS.search(said)
    # what it is, then where: "…es qa-01.miempresa.com", "…fica em github.com/…", "…is at
    # db.example.net:5433"; not "fetch_user() is broken on staging.example.com"
    return address is not None and _SAYS_BEFORE.search(said[max(0, address.start() - 40) : address.start()]) is not None


def _of_user_or_group(said: str, lang: str) -> bool:
    """Whether what a request keeps opens with the user or their group ("I…", "our CI…")."""
    return bool(_USER_SUBJECT.get(lang, _USER_SUBJECT["en"]).match(said) or _USER_GROUP.match(said))


#: what is on the screen, said anywhere in what to keep ("revert this later"): the task at hand
#: what follows a pointing word that makes it a time ("this *year*", "essa *semana*")
_NOT_A_TIME = (
    r"(?!\s+(?:"
    + "|".join(
        re.escape(w) for p in all_packs() for w in (*p.units, *p.weekdays, *p.months, *p.parts_of_day, *p.periods)
    )
    + r")\b)"
)


#: a word that points at a thing of the task ("fix *this*"), not at a time ("this year", "essa semana")
_POINTS_AT = re.compile(
    r"\b(?:" + "|".join(p.pointing_words for p in all_packs() if p.pointing_words) + rf")\b{_NOT_A_TIME}", _I
)
#: a phrase a pointing word only links clauses in ("por isso", "because of this"), in every pack
_POINTING_IDIOM = re.compile(
    r"\b(?:" + ("|".join(p.pointing_idioms for p in all_packs() if p.pointing_idioms) or "(?!)") + r")\b", _I
)


def _points_at(said: str) -> bool:
    """Whether ``said`` points at a thing of the task ("revert this later"), not at a time
    ("this fall", "nesse horário") nor at what it said itself ("…, por isso não como pão")."""
    return _POINTS_AT.search(_POINTING_IDIOM.sub(" ", said)) is not None


_CUES = tuple((cue, pack.code) for pack in all_packs() for cue in pack.remember_cues)


_THAT_WORDS = frozenset(word for pack in all_packs() for word in pack.that_words)


#: the words of a request's own that say nothing kept after it ("Remember, to:")
_REQUEST_WORDS = _TODO_WORDS | _THAT_WORDS | _BACK_WORDS


def _says_nothing(said: str) -> bool:
    """Whether what a request keeps is one of its own words ("to:", "that"), not a fact."""
    return said.rstrip(":;,.").casefold() in _REQUEST_WORDS


#: each pack's words that ask to keep, as one pattern a word is matched whole against; and
#: all of them as one, what every word of a prompt is matched against (one pattern a cue was
#: 2.6 ms a 1 KB prompt on the hook's path)
_CUE_WORDS = tuple((re.compile(rf"(?:{cue})", _I), code) for cue, code in _CUES)


_ANY_CUE = re.compile("|".join(f"(?:{cue})" for cue, _ in _CUES) or "(?!)", _I)


def _cue_form(word: str) -> str:
    return fold_accents(word.casefold()).strip(",.!:;\"'()¿¡?")


def _is_cue(word: str) -> bool:
    return _ANY_CUE.fullmatch(_cue_form(word)) is not None


def _cue_at(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` asks to keep: a word of keeping that is not a name. A word
    written with a capital inside a sentence names something ("soy de *Salvador*", "trabajo
    en *Registro* Civil", "my son *Saber*"), whatever a word of keeping it begins like."""
    return _is_cue(words[i]) and not _a_name(words, i)


def _a_name(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` is a name by its capital: not the sentence's or a clause's
    first word, nor shouted ("REMEMBER")."""
    word = words[i].lstrip("\"'(¿¡*_")
    if i == 0 or not word[:1].isupper() or word.isupper():
        return False
    return not words[i - 1].endswith((".", "!", "?", ":", ";", ",", "—", "–", "-", '"', "'", ")"))


def _first_cue(words: list[str], reach: int) -> int | None:
    """Where the first word that asks to keep is among the first ``reach`` of ``words``."""
    return next((i for i in range(min(reach, len(words))) if _cue_at(words, i)), None)


def _cue_languages(word: str) -> list[str]:
    """The languages whose words of keeping ``word`` is one of."""
    folded = _cue_form(word)
    return [code for pattern, code in _CUE_WORDS if pattern.fullmatch(folded)]


#: what follows a fact in a prompt that goes on with the task: "…, then check it", "… and
#: fix it", "… y arreglalo": the fact ends before it, never mid-clause
_TASK_TAIL_ALWAYS = re.compile(
    r"(?<!\s)(?:\s*[,;]\s*|\s+)(?:" + "|".join(t for p in all_packs() for t in p.task_tails) + r")\b.*$", _I
)


#: a task said after a fact by its verb alone ("…, and fix the failing test"): a task only
#: when a word of the task follows (``Pack.task_verb_tails``)
_TASK_VERB_TAIL = re.compile(
    r"(?<!\s)(?:\s*[,;]\s*|\s+)(?:" + "|".join(t for p in all_packs() for t in p.task_verb_tails) + r")\b.*$", _I
)


#: a verb after a fact that tells a habit as often as it orders (``Pack.habit_verb_tails``)
_HABIT_VERB_TAIL = re.compile(
    r"(?<!\s)(?:\s*[,;]\s*|\s+)(?:" + (_either_of("habit_verb_tails") or "(?!)") + r")\b.*$", _I
)
#: a habit's verb said of a thing pointed at: an order (``Pack.habit_verb_orders``)
_HABIT_VERB_ORDER = re.compile(r"^\W*\w+\s+\w+\s+(?:" + (_words_of("habit_verb_orders") or "(?!)") + r")\b", _I)
#: the user in the first person where its verb has the order's form (``Pack.habit_verb_subjects``)
_HABIT_SUBJECT = re.compile(r"^(?:" + (_words_of("habit_verb_subjects") or "(?!)") + r")(?=\s)", _I)


#: a fact about someone or something of the user's, by its opening ("my dad…", "a minha mãe…")
_OF_THEIRS = re.compile(_POSSESSIVE_FIRST + r"\s", _I)


def _without_task_tail(said: str) -> str:
    """``said`` without a task said after its fact ("I use pnpm, and now fix the test"). A
    clause that opens with a task's verb is the task when it names a part of the task, or
    when the fact is the user's own in the first person ("uso pnpm y prueba de nuevo": the
    verb cannot go on with "uso"); after a fact of someone of theirs it goes on with it ("mi
    hermana vive en Lima y usa lentes", "my dad lives in Hull and runs marathons"). After the
    user's own English "I …" it is cut too: "I'm left-handed and use a split keyboard" and
    "I'm on call and restart the worker if it crashes" read alike."""
    said = _TASK_TAIL_ALWAYS.sub("", said)
    order = _order_form_tail(said)
    if order is not None:
        said = said[:order]  # "…, así que mirá los vuelos": a form only an order takes
    tail, habit = _TASK_VERB_TAIL.search(said), False
    if tail is None:
        tail, habit = _HABIT_VERB_TAIL.search(said), True
    if tail is None or _TASK_WORDS.search(tail.group()) is not None:
        return said if tail is None else said[: tail.start()]
    if _OF_THEIRS.match(said) and _agrees(tail.group()):
        return said
    if habit and _HABIT_SUBJECT.match(said) and not _HABIT_VERB_ORDER.match(tail.group()):
        return said
    return said[: tail.start()]


def task_tail(sentence: str) -> str | None:
    """The order for the task said after a fact in ``sentence``, as said ("and restart the
    worker if it stalls", "y revisalo antes"), when one opens there: what a request that
    keeps the fact leaves out (``_without_task_tail``), to be named as not kept."""
    tail = _TASK_TAIL_ALWAYS.search(sentence) or _TASK_VERB_TAIL.search(sentence) or _HABIT_VERB_TAIL.search(sentence)
    if tail is not None:
        return tail.group().strip(" ,;.!")
    order = _order_form_tail(sentence)
    return sentence[order:].strip(" ,;.!") if order is not None else None


def _order_form_tail(said: str) -> int | None:
    """Where a clause that opens with a form only an order takes begins in ``said`` (its
    mark or join: "…, así que *actualizá* el lockfile", "… y *borrá* la caché"), or None."""
    return next(
        (m.start() for m in _CLAUSE_OPENING.finditer(said) if any(form(m.group(1)) for form in _ORDER_FORMS)), None
    )


#: why an order said after a kept fact is not kept with it
ORDER_AFTER = "an instruction for the task at hand, said after the fact"


def _agrees(tail: str) -> bool:
    """Whether the verb after "and" in a fact of someone of the user's goes on with them: in
    a language whose third person marks its verb (``Pack.third_person_ending``: English
    "-s"), "my dad lives in Hull and runs marathons" does, "my boss is Pedro and make the
    header sticky" is an order; elsewhere it is read as going on."""
    ending = _THIRD_PERSON_ENDINGS.get(detect(tail) or "")
    if ending is None:
        return True
    verb = next((w for w in tail.split() if w.casefold() not in _TAIL_JOINS), "")
    return verb.casefold().endswith(ending)


#: the words that join a verb to the fact before it ("and", "y", "e", "then"), in every pack
_TAIL_JOINS = frozenset(w for p in all_packs() for w in (*p.clause_joins, *p.and_words))


#: the ending each language's third person puts on its verb, where it has one (``Pack.third_person_ending``)
_THIRD_PERSON_ENDINGS = {p.code: p.third_person_ending for p in all_packs() if p.third_person_ending}


#: a semicolon as code ends a statement ("x = 1;", "import os;import sys"), not as prose
#: goes on to a word ("formo parte de la junta; soy la tesorera hasta 2026" had been code)
_CODE_SEMICOLON = r";(?!\s+[^\W\d_])"
#: the words of a task at hand (files, tests, code, commands) in both languages: a request
#: to remember one of these is an instruction about the work, not a fact about the user
#: (a path has more than two short words and a slash: "they/them", "and/or", "km/h" are
#: none; nor are numbers alone, a date or a share: "prova dia 20/09", "24/7", "50/50")
_AS_CODE = (
    r"`|\b\w+\(\)|(?<![\w.-])(?![^\W\d_]{1,4}/[^\W\d_]{1,4}(?![\w./-]))(?!\d++(?:/\d++)++(?![\w./-]))"
    r"[\w.-]++/[\w./-]+|\b\w+\.(?:py|js|ts|tsx|jsx|json|ya?ml|toml|md|txt|csv|sql|sh|go|rs|java|"
    r"c|h|cpp|rb|php|html|css|lock|cfg|ini|env|log)\b|(?:^|\s)\.\w+\b|[{}=]|" + _CODE_SEMICOLON
)
_TASK_WORDS = re.compile(_AS_CODE + r"|#\d+|\b(?:" + _either_of("task_words") + r")\b", _I)
#: what is written as code is (a backtick, a path, a file, "run()", "x = 1"), not said: "I
#: renamed `UserSvc`…" tells of the work at hand, "I indent with two spaces" of the user
WRITTEN_AS_CODE = re.compile(_AS_CODE, _I)


#: what only code is written with ("x = 1;", "{…}", "run()"): no judge of meaning keeps it
#: ("contraseña = limonada_22" is a secret's line as much as a config's)
_CODE_MARKS = re.compile(r"[{}=]|" + _CODE_SEMICOLON + r"|\b\w+\(\)")


def _task_refusal(said: str) -> str | _ByItsWords:
    """Why ``said``, which names things of the task, is not kept: by those words alone (a
    judge of the message's meaning may keep it), unless it is written as only code is."""
    return _TASK if _CODE_MARKS.search(said) else _ByItsWords(_TASK)


#: how a fact about the user or their world begins: its subject is them
_USER_SUBJECT = {pack.code: re.compile(rf"^(?:{pack.user_opening})\b", _I) for pack in all_packs() if pack.user_opening}


#: the opening of a fact about the user in any pack ("…and my skip-level is Raj")
_ANY_USER_SUBJECT = re.compile("|".join(f"(?:{p.pattern})" for p in _USER_SUBJECT.values()), _I)


#: a possessive with nothing said of it ("my favourite tea"): what to remember is missing
#: the user's group ("we deploy on Thursdays", "nuestra oficina está en Rosario"): their world,
#: unless it speaks of the task ("we are on the feature branch")
#: how a fact of the user's group opens, in every pack ("we", "nuestro", "vivimos"), none
#: with a verb of the talk with the assistant ("hablamos al principio: …")
GROUP_OPENING = (
    r"(?!(?:"
    + ("|".join(v for p in all_packs() for v in p.talk_verbs_we) or "(?!)")
    + r")\b)(?:"
    + "|".join(p.group_opening for p in all_packs() if p.group_opening)
    + ")"
)
_USER_GROUP = re.compile(rf"^{GROUP_OPENING}\b", _I)


_BARE_POSSESSIVE = re.compile(
    r"^(?:" + "|".join(p.possessives for p in all_packs() if p.possessives) + r")(?:\s+[\w'-]+){1,3}$", _I
)


_SAYS_SOMETHING = re.compile(r"\b(?:" + "|".join(p.saying_verbs for p in all_packs() if p.saying_verbs) + r")\b", _I)


def _says_of_it(named: str) -> bool:
    """Whether a thing of the user's named (``named``: "my garden faces north") has
    something said of it: a saying verb, not a possessive's "'s" ("my dog's name")."""
    return _SAYS_SOMETHING.search(re.sub(r"(?<=\w)['’]s\b", "", named)) is not None


#: what opens a value or a clause that points at something else ("this one", "la otra"), in every pack
_DEICTIC_OPENINGS = "|".join(p.deictic_openings for p in all_packs() if p.deictic_openings)


#: a value that points at what is on the screen ("I prefer this one", "the second approach",
#: "la segunda opción"), or holds only for now: a choice in the task, not a lasting fact
#: what points at a thing on the screen ("this", "the new one"), and a word of today ("hoy",
#: "right now"): what a fact of the task at hand is said with
_POINTING_WORDS = (
    r"^(?!(?:" + ("|".join(p.renewal_openings for p in all_packs() if p.renewal_openings) or "(?!)") + r")\s+"
    rf"(?!(?:{_words_of('back_nouns')})\s)[^\W\d_]+\s+(?:{_words_of('copulas')})\s)"  # "the new address is…", not "…one is"
    rf"(?:{_DEICTIC_OPENINGS})\b{_NOT_A_TIME}"
)
_TODAY_WORDS = r"\b(?:" + "|".join(p.for_now for p in all_packs() if p.for_now) + r")\b"
_DEICTIC = re.compile(f"{_POINTING_WORDS}|{_TODAY_WORDS}", _I)
#: ``_DEICTIC``'s two halves
_POINTING = re.compile(_POINTING_WORDS, _I)
_TODAY = re.compile(_TODAY_WORDS, _I)


def _statement(clause: str) -> Signal | None:
    for lang, rule, pattern, key, domain, template in STATEMENTS:
        match = pattern.match(clause)
        if match:
            value = _trim(match.group("x"))
            if _TASK_WORDS.search(value) or _DEICTIC.search(value):
                return None  # "I prefer the second approach", "trabajo en el parser hoy": the task at hand
            if any(_is_cue(w) for w in value.split()[:_CUE_REACH]) or _ends_in_a_request(value):
                return None  # "I want you to remember that…", "…, no lo olvides": a request, read as one
            if key in ("name", "nombre"):
                value = " ".join(value.split()[:4])
            if not value:
                return None
            # the template's other slots are the user's words as typed ("alergico", not "alérgico")
            typed = {name: said for name, said in match.groupdict().items() if name != "x" and said is not None}
            text = template.format(**typed, x=value)
            if rule in _FEMININE and (match.groupdict().get("g") or "").lower() == "a":
                text = text.replace(*_FEMININE[rule], 1)
            # the value is the user's words: "…lives in Leeds with my wife" → "…with their wife"
            return Signal(_sentence(in_third_person(text, lang)), key, domain, lang, rule)
    return None


#: a "that" said again after a clause's join, before who the next clause is of: "recuerda
#: que mi casa es azul y *que* mi perro se llama Toby" asks to keep two facts, not a "que"
_THAT_AGAIN = _rx(
    rf"(?<=\s)((?:{_words_of('clause_joins')})\s+)(?:{_words_of('that_words')})\s+"
    rf"(?=(?:{_words_of('user_subjects')})\b)"
)


def _generic(said: str, lang: str, rule: str) -> Signal:
    """ "Remember that X" where X is no known statement: X in the third person, keyed by
    what it is about ("my sister is called Ana": sister)."""
    text = in_third_person(_THAT_AGAIN.sub(r"\1", said), lang)
    key = _subject_key(said, lang)
    return Signal(_sentence(text), key, _domain(said), lang, rule)


#: the domains a fact is filed under, in the order they are tried, each with the words of
#: every pack that file a fact there
_DOMAIN_WORDS: dict[str, re.Pattern[str]] = {
    domain: _rx("|".join(w for p in all_packs() for d, w in p.domain_words if d == domain))
    for domain in dict.fromkeys(d for p in all_packs() for d, _ in p.domain_words)
}


_KEY_POSSESSIVE = _rx(rf"\b(?:{_words_of('key_possessives')})\s+(?:(?:{_words_of('key_adjectives')})\s+)?(\w+)")


def _domain(text: str) -> str:
    return next((domain for domain, pattern in _DOMAIN_WORDS.items() if pattern.search(text)), "personal")


def _subject_key(said: str, lang: str) -> str:
    possessive = _KEY_POSSESSIVE.search(said)
    if possessive:
        return possessive.group(1).lower()
    found = pack(lang)
    return found.note_key if found is not None else "note"


def _trim(value: str) -> str:
    value = _unwrapped(_EMOJI_OPENING.sub("", value.strip()))  # "🎂 my son turns 7…"
    head, tail = value[:-_TAIL_READ], _SYMBOLS_TAIL.sub("", value[-_TAIL_READ:])
    courtesy = _COURTESY_TAIL.search(tail)
    if courtesy is not None and _is_the_value(head + tail[: courtesy.start()], tail[courtesy.start() :]):
        return (head + tail).rstrip(" ,;.!")[:_MAX_CHARS].rstrip()  # "my sign-off is cheers"
    value = _STOP_AT.sub("", value).strip()
    for _ in range(3):  # "…, please, thanks! 🙏"
        head, tail = value[:-_TAIL_READ], _SYMBOLS_TAIL.sub("", value[-_TAIL_READ:])  # its end, read in a bounded tail
        courtesy = _COURTESY_TAIL.search(tail)
        if courtesy is not None and _is_the_value(head + tail[: courtesy.start()], tail[courtesy.start() :]):
            return (head + tail).rstrip(" ,;.!")[:_MAX_CHARS].rstrip()  # "my bar is called Cheers, thanks"
        value = head + (tail[: courtesy.start()] if courtesy else tail).rstrip(" ,;")
    return value[:_MAX_CHARS].rstrip() if any(ch.isalnum() for ch in value) else ""


#: a word after which a fact says its value: a verb of being or saying, a naming word
_ASKS_A_VALUE = re.compile(
    r"(?:"
    + "|".join(
        [
            *(p.saying_verbs for p in all_packs() if p.saying_verbs),
            *(_words_of(words) for words in ("naming_words", "value_leads", "clause_joins", "and_words")),
        ]
    )
    + r")",
    _I,
)


def without_address(fact: str, lang: str) -> str:
    """``fact`` without a word of address of its language said at its start or end, which is
    no word of it ("Bro the user's blood type is O negative", "O usuário não bebe álcool pô"):
    at the start unless a verb of being or naming follows ("Mano é o nome do gato…"), at the
    end after a comma ("…, parce"; "my husband calls me mate" keeps its value). Another
    language's is a word of the fact ("só chá mate")."""
    words = fact.split()
    vocatives = _VOCATIVES_OF.get(lang, frozenset())
    if len(words) < 3 or not vocatives:
        return fact
    if fold_accents(words[0].strip(",.!?:;").casefold()) in vocatives and not _ASKS_A_VALUE.fullmatch(
        words[1].strip(",.!?:;")
    ):
        rest = fact[len(words[0]) :].lstrip(" ,;:")
        fact = rest[:1].upper() + rest[1:] if fact[:1].isupper() else rest
    last = fact.rstrip(" .!?").rsplit(None, 1)
    if len(last) == 2 and last[0].endswith(",") and fold_accents(last[1].casefold()) in vocatives:
        fact = last[0].rstrip(" ,;")  # "…, parce"; not "my husband calls me mate"
    return fact


def _is_the_value(before: str, courtesy: str) -> bool:
    """Whether the courtesy that ends a request is its value, not said beside it: said
    straight after a verb of being, saying or naming ("my sign-off is cheers", "la perra se
    llama Gracias", "my signature says Cheers"); a comma or a full stop before it, or a value
    before it ("…on Elm St thanks", "I'm vegan Thanks"), make it a courtesy."""
    if not before or not before[-1].isspace():
        return False
    words = before.split()
    if not words:
        return False
    return _ASKS_A_VALUE.fullmatch(words[-1]) is not None


#: the quotes that may wrap all a request keeps: (opening, closing)
_WRAPS = (('"', '"'), ("'", "'"), ("“", "”"), ("«", "»"))


def _unwrapped(value: str) -> str:
    """``value`` without the quotes around all of it ("remember: 'I love tea'"); a quote
    that only opens or closes a name in it stays ('my nickname is "Bubbles"')."""
    for opening, closing in _WRAPS:
        if len(value) > 1 and value.startswith(opening) and value.endswith(closing):
            inner = value[1:-1]
            if opening not in inner and closing not in inner:
                return inner.strip()
    return value


#: a courtesy that ends what a request keeps, or is all of it ("por fa"), in every pack:
#: it opens after a separator or at the start (a run of separators is read once)
_COURTESY_TAIL = re.compile(
    r"(?<![^\s,;])(?:"
    + "|".join(
        re.escape(w).replace(r"\ ", r"\s+") + f"(?:{re.escape(w[-2:])})*+" for p in all_packs() for w in p.courtesies
    )
    + r")[\s.!,]*+$",
    _I,
)  # a courtesy with its last two letters said again ("jajajaja", "kkkkkkk", "hahahaha") is the same courtesy


#: how much of a text's end the courtesy and symbol patterns read
_TAIL_READ = 60


#: what ends a text and says nothing: pictographs and emoticons ("🙏", ":)", ";-P")
_SYMBOLS_TAIL = re.compile(
    r"(?<![\s,;.!\u2190-\u2bff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d])"  # a run is read from its start once
    r"(?:[\s,;.!]|[:;]-?[()DPp]\B|[\u2190-\u2bff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d])++$"
)


#: a dash, colon, semicolon or comma apart from the words at a text's start ("-5 °C",
#: ":wq", "C:" are words); read after spaces are one. Its end is read as the start of the
#: text turned round (a pattern anchored at the end is tried from every place: slow), where
#: a comma or semicolon glued to the last word is a pause too, and a hyphen a word's ("bullet
#: style is -")
_EDGE_PAUSE = re.compile(r"^(?:[—–-] |[:;,] )+")


_EDGE_PAUSE_END = re.compile(r"^(?:[,;]|[—–:] )+")


def _sentence(text: str) -> str:
    """The text as one sentence, its first word capitalised when it is a plain word: a
    key's shape ("ghp_…", "sk-…") is left as typed, where the secret rules know it. A pause
    the request left at an edge ("guarda esto — mi…", "…is Dr. Park — thanks") is no part
    of the fact."""
    text = _EDGE_PAUSE.sub("", re.sub(r"\s+", " ", text).strip())
    text = _EDGE_PAUSE_END.sub("", text[::-1])[::-1].rstrip()
    first = text.split(" ", 1)[0]
    return text[:1].upper() + text[1:] if first.isalpha() else text
