"""Where a request is in a sentence and what it points at: where it opens (its word of
keeping and the glue before it, a place, time or condition said before it), where its fact
begins (a colon, an early comma, a "that"), whether it points back at what was said or
ahead at what follows, the asides and clauses around it, and what no rule reads of it.
Pure functions over the packs' words; what the fact keeps is ``request_facts``', the message
as a whole ``signals``'.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import NamedTuple

from ..lang import (
    all_packs,
    detect,
    ends_in_abbreviation,
    fold_accents,
    pack,
)
from ..lang.roles import either
from .request_facts import (
    _AND_WORDS,
    _ANY_USER_SUBJECT,
    _BACK_WORDS,
    _CUE_REACH,
    _CUE_WORDS,
    _I,
    _NOTHING_AFTER,
    _OF_THEIR_GROUP,
    _PLACE_LEADS,
    _POSSESSIVE_FIRST,
    _PRONOUN_TAILS,
    _REQUEST_LEAD,
    _SAYS_NOTHING,
    _SAYS_SOMETHING,
    _SHORT,
    _TASK_WORDS,
    _THAT_WORDS,
    _TODO_WORDS,
    _USER_GROUP,
    _USER_WORDS,
    DIRECTIVES,
    NOT_SIGNALS,
    REASON_OPENING,
    NotKept,
    Signal,
    _asks_by_its_verb,
    _cue_at,
    _cue_form,
    _cue_languages,
    _either_of,
    _ends_in_a_request,
    _first_cue,
    _is_cue,
    _kept,
    _only_a_tag,
    _past_fillers,
    _says_only_what_for,
    _tells_of_remembering,
    _theirs,
    _trailing_request,
    _trim,
    _words_of,
    refusal,
    speaks_to_you,
)

#: "…, and I live in Lima": a new clause of the user's after a conjunction (any way a pack
#: opens one: "…e trabalho remoto" is read, and written, as "o usuário trabalha remoto")
_CLAUSES = re.compile(
    rf"(?<!\s)\s*+(?:,\s*+|(?<=\s))(?:{_words_of('clause_joins')})\s++(?=(?:"
    + "|".join(p.user_opening for p in all_packs() if p.user_opening)
    + r")\b)",
    _I,
)


#: what opens an item of a list: a bullet or a number ("- I work at …", "2) my team is …")
_LIST_ITEM = re.compile(r"^(?:[-*•·+]|\d{1,2}[.)])\s+(?=\S)")


#: a quotation: in double quotes, curly or straight, guillemets, or single quotes, curly or
#: straight; a straight one opens before a word and closes after one, an apostrophe inside a
#: word is none of its marks ("'I'm vegan, remember it' she said")
_QUOTED = re.compile(
    r'"[^"\n]{1,400}+"|“[^”\n]{1,400}+”|«[^»\n]{1,400}+»|‘[^’\n]{1,400}+’'
    r"|(?<![\w'])'(?=\w)(?:[^'\n]|(?<=\w)'(?=\w)){1,400}?(?<=\S)'(?!\w)"
)
#: the marks a quotation opens with (``_QUOTED``)
_QUOTE_OPENINGS = "\"“«‘'"


#: where a clause of a message ends: a colon, a question mark, a comma, a semicolon, a
#: sentence's end, or a dash between spaces (each read once, from its first character: from
#: each of its marks, a run of 8,000 dots took 0.12 s, growing as its square)
_CLAUSE_END = re.compile(r"(?<![:?;,.!])[:?;,.!]++(?=\s)|(?<=\s)(?:[—–]|-{1,2})(?=\s)")
#: a lead or tail that may ask to keep the rest: at most this many words ("can this stick
#: across our chats?", "tenlos a mano para otras veces"); at 12, "Would be good if you knew
#: that the next time I ask about pet food" (14) was dropped without a word
_ASKING_MOST = 16
#: a colon before a space, or a new line: what a lead does not reach past
_LABEL = re.compile(r":\s|\n")
_ASKING_REACH = 120
#: what the rest must hold to be a fact the lead or tail may ask to keep: this many words
_REST_LEAST = 2


#: a lead's last word before what it says: "that", "que" ("I want you to always know *that* …",
#: "grava aí *que* …"); the judge reads the lead with it
_THAT_LEAD = re.compile(rf"(?<=\s)(?:{_words_of('that_words')})(?=\s)", _I)


class MayAsk(NamedTuple):
    """A short lead or tail of a message that may ask to keep the rest of it."""

    clause: str
    rest: str
    #: a lead that announces what follows (before a colon or a dash: "Para la próxima vez
    #: que hablemos: …"), the surest shape; a tail after a sentence ("… Look at this!")
    #: may point at anything
    announces: bool
    #: a tail: said after the rest ("…, hold that for the future")
    tail: bool = False
    #: said in one sentence with the rest, after or before a comma or a dash ("For all our
    #: future convos, my name's Dave…", "…y es de Cali, para cuando te hable de él"): it
    #: asks of that sentence, as a tail after a sentence's end ("… Look at this!") need not
    in_sentence: bool = False


def _clause_ends(said: str, start: int, stop: int | None = None) -> Iterator[re.Match[str]]:
    """Each ``_CLAUSE_END`` of ``said`` between ``start`` and ``stop``, less an
    abbreviation's full stop: "…es el Prof. Julián Oteiza y…, no lo pierdas de vista" had
    been cut after "Prof", and the name read as a tail that may ask."""
    for mark in _CLAUSE_END.finditer(said, start, len(said) if stop is None else stop):
        if mark.group() != "." or not ends_in_abbreviation(said[: mark.end()]):
            yield mark


def _in_a_quotation(said: str, part: MayAsk, quoted: list[tuple[int, int]]) -> bool:
    """Whether ``part``, a lead or a tail of ``said``, is said inside one of its quotations
    (``quoted``): someone else's words ("Mi amigo me dijo: 'tengo un Golf, que lo sepas para
    cuando…'")."""
    at = said.rfind(part.clause) if part.tail else said.find(part.clause)
    return at >= 0 and any(start < at < end for start, end in quoted)


def may_ask(said: str) -> list[MayAsk]:
    """Each lead of ``said`` before a mark near its start ("Para la próxima vez que
    hablemos: …") and tail after one near its end ("…, tenlos a mano para otras veces")
    that is short and may be what asks to keep the rest; a lead goes no further than its
    first colon or line (past it, the words are a label's: "Cliente: …"). Shapes only, no words: whether a
    clause asks is the judge's to say (``lang.judge``)."""
    out = []
    for mark in _clause_ends(said, 0, min(len(said), _ASKING_REACH)):
        lead, rest = said[: mark.start()].strip(), said[mark.end() :].strip()
        if _LABEL.search(lead):  # "Cliente: Para la próxima…: …": a label's words, someone else's
            break
        if 0 < len(lead.split()) <= _ASKING_MOST and len(rest.split()) >= _REST_LEAST:
            out.append(MayAsk(lead, rest, mark.group()[0] in ":—–-", in_sentence=mark.group()[0] in ",;"))
    for that in _THAT_LEAD.finditer(said, 0, min(len(said), _ASKING_REACH)):
        lead, rest = said[: that.end()].strip(), said[that.end() :].strip()
        if _LABEL.search(lead):
            break
        if rest.endswith("?") and rest.count("?") == 1:  # "¿te puedes quedar con el dato de que soy…?"
            rest = rest[:-1].rstrip()  # the question is the lead's, asked of the assistant
        if 1 < len(lead.split()) <= _ASKING_MOST and len(rest.split()) >= _REST_LEAST:
            out.append(MayAsk(lead, rest, True))  # "quero que saibas sempre que …": the rest is what it asks
    for mark in _clause_ends(said, max(0, len(said) - _ASKING_REACH)):
        rest, tail = said[: mark.start()].strip(), said[mark.end() :].strip(" .!?")
        if 0 < len(tail.split()) <= _ASKING_MOST and len(rest.split()) >= _REST_LEAST and "\n" not in tail:
            out.append(MayAsk(tail, rest, False, tail=True, in_sentence=mark.group()[0] in ",;—–-"))
    if any(q in said for q in _QUOTE_OPENINGS):
        quoted = [m.span() for m in _QUOTED.finditer(said)]
        out = [part for part in out if not _in_a_quotation(said, part, quoted)]
    return out


#: the words of keeping that say where or when to keep, not the act, in every pack
#: (``Pack.cue_nouns``: "in *mind*", "for *later*", "em *conta*")
_CUE_NOUNS = re.compile("|".join(f"(?:{p.cue_nouns})" for p in all_packs() if p.cue_nouns) or "(?!)", _I)
#: the words that make the word after them a thing pointed at ("in *this* file", "*esas*
#: notas"), in every pack: a word of keeping after one, or after a possessive, asks nothing
_DEMONSTRATIVES = frozenset(w for p in all_packs() for w in p.demonstratives)
#: the words a subject opens with in every pack ("I", "I'd"): capitals that name no one
_SUBJECT_WORDS = frozenset(w for p in all_packs() for w in p.user_subjects)
#: the most words a last clause's own lead says before its word of keeping ("Te pido por
#: favor que no se te | olvide", "it would really help me if you | noted that")
_TAIL_LEAD_MOST = 8


def _a_lead_of_its_own(lead: list[str]) -> bool:
    """Whether ``lead``, the words of a last clause before its word of keeping, say nothing
    of their own: a few words, with no name, number or emoji and no one's possessive ("me
    gustaría que lo", "Eu ficaria muito agradecida se você"), not "due in March 🎉 keep that
    in", "mi novia Camila es vegana asi que cuando te pida recetas para dos tenelo en"."""
    if len(lead) > _TAIL_LEAD_MOST:
        return False
    for i, word in enumerate(lead):
        plain = word.strip(",.!?¿¡\"'()").casefold()
        if not plain.replace("'", "").replace("’", "").replace("-", "").isalpha():
            return False  # a number, an emoji, a handle
        if _POSSESSIVE_WORDS.fullmatch(plain) or (i and word[:1].isupper() and plain not in _SUBJECT_WORDS):
            return False
    return True


def asking_tail(said: str) -> MayAsk | None:
    """The last clause of ``said`` when it may ask to keep what came before it in words no
    pack's glue holds ("…, me gustaría que lo recordaras", "…. Any chance you could note
    that?", "…, agradecia que não te esquecesses"): it holds a word of keeping that points
    back, a verb or a noun after a back word ("…isso em conta"), with nothing new after it,
    and it is no story of remembering. The shortest tail with a word of keeping is the one
    read, and none is after an abbreviation's full stop ("…is Dr. Lindqvist and I'd love it
    if you'd remember that"). Whether it asks is the judge's to say (``lang.judge``)."""
    for part in sorted((p for p in may_ask(said) if p.tail), key=lambda p: len(p.clause)):
        words = part.clause.split()
        cue = next((i for i in range(len(words)) if _cue_at(words, i)), None)
        if cue is None:
            continue  # "…, por favor": a courtesy after the request
        if not {detect(part.clause), detect(said)} & set(_cue_languages(words[cue])):
            return None  # "Brings back sweet memories": a word of keeping in another language
        before = said[: said.rfind(part.clause)].rstrip(" ¿¡\"'(")
        if before.endswith(".") and ends_in_abbreviation(before):
            return None
        plain = [w.strip(",.!?¿¡").casefold() for w in words]
        back = next((i for i in range(cue) if _points_with(words[i])), None)
        noun = _CUE_NOUNS.fullmatch(_cue_form(words[cue])) is not None
        if noun and back is None:
            return None  # "Talk to you later", "Create those memories"
        to_you = any(piece in _ADDRESSEE for w in plain[:cue] for piece in w.split("-"))  # "Importas-te"
        if not (back is not None or to_you or _points_with(words[cue]) or any(w in _BACK_WORDS for w in plain[cue:])):
            return None  # "…, so I prefer written summaries over voice notes": no request points back
        named = cue and (words[cue - 1].casefold() in _DEMONSTRATIVES or _POSSESSIVE_WORDS.fullmatch(words[cue - 1]))
        # the lead of "…keep that in mind" ends at its back word: "I'd love it if you could keep"
        if named or not _a_lead_of_its_own(words[: back if noun and back is not None else cue]):
            return None  # "…, update the callers in this file": a thing named, not a request
        if _trailing_request(words) is not None or _trailing_request(words[cue:]) is None:
            return None  # the glue reads it as it is, or something new follows its word
        if refusal(part.clause) not in (None, "question"):
            return None  # "…, one I'll always remember": a story, not a request
        return part
    return None


def _unread(sentence: str) -> Signal | None:
    """What a request no rule read would keep (``_UNCLEAR``): the sentence without the
    request's own words ("my neighbor Gary waters my plants when I travel, just remember
    he's the one to ask" → "…, he's the one to ask"), when what is left is a fact of the
    user's. Kept only when a judge of the message's meaning is sure (``read_requests``)."""
    words = sentence.rstrip(".!").split()
    unmarked = _unmarked_request(words)
    if unmarked is not None:  # "my landlord is Mrs. Haddad please remember": the words before it
        rest = " ".join(words[:unmarked])
        kept = _kept(rest, words[unmarked], "", detect(rest)) if len(rest.split()) >= _SHORT else None
        return replace(kept, rule="unread") if isinstance(kept, Signal) else None
    cue = _first_cue(words, _LEAD_MOST + _CUE_REACH)
    if cue is None:
        return None
    start, end = _request_start(words, cue), cue + 1
    while (
        end < len(words) and fold_accents(words[end].strip(",:").casefold()) in _THAT_WORDS | _BACK_WORDS | _TODO_WORDS
    ):
        end += 1
    before = [] if start and words[start - 1].endswith(":") else words[:start]  # a lead before a colon is none of it
    rest = " ".join([*before, *words[end:]]).strip(" ,;:—–-")
    kept = _kept(rest, words[cue], "", detect(rest)) if len(rest.split()) >= _SHORT else None
    return replace(kept, rule="unread") if isinstance(kept, Signal) else None


#: an aside inside a sentence: between dashes, or in brackets
_ASIDE = re.compile(
    r"(?<!\s)\s++(?:[—–]|-{1,2})\s++([^—–()\n]{1,60}?)(?<!\s)\s++(?:[—–]|-{1,2})\s++|(?<!\s)\s*+\(([^()\n]{1,60})\)"
)  # each whitespace run read once, from its first character (a run of spaces made it quadratic)


def _without_request_aside(sentence: str) -> str | None:
    """``sentence`` without the request said as an aside inside it, when one is ("I'm on
    the payments team — please remember this — reporting to Marcus", "Mi hermana (anótalo)
    vive en Oporto"): what is left is what it asks to keep. None when no aside asks."""
    for aside in _ASIDE.finditer(sentence):
        words = (aside.group(1) or aside.group(2)).strip(" !.").split()
        if words and _trailing_request(words) is not None:
            return f"{sentence[: aside.start()]} {sentence[aside.end() :]}".strip()
    if _theirs(sentence):  # "My sister, remember, lives in Porto"
        for aside in _COMMA_ASIDE.finditer(sentence):
            words = aside.group(1).split()
            before = sentence[: aside.start()]
            said = _SAYS_SOMETHING.search(before) is not None
            subject = len(before.split()) <= _COMMA_ASIDE_WORDS + 1 and not said
            # after a fact, a bare request is of the whole ("…a la leche, y recuerda, tiene 4
            # años"); one that points back ("…is 6, note that, she…") keeps what came before
            bare = said and not any(fold_accents(w.casefold()) in _BACK_WORDS for w in words)
            if (subject or bare) and len(words) <= _COMMA_ASIDE_WORDS and _trailing_request(words):
                return f"{before}{' ' if subject else ', '}{sentence[aside.end() :]}".strip()
    return None


#: an aside between commas, of a few words, after the few words of a subject ("My sister,
#: remember, lives in Porto"), and how many words such a request and its subject may take
_COMMA_ASIDE = re.compile(r"(?<!\s),\s++([^,\n]{1,30}?),\s++")


_COMMA_ASIDE_WORDS = 3


def _asks_to_keep(sentence: str) -> bool:
    """Whether a sentence no rule read still asks to keep something of the user's: it opens
    with a request (a word that asks to keep, after nothing but a request's glue: "Ten
    presente…", "can you store…") or ends with one ("…, grava os dois"), and names the user
    or their group ("for future reference my project is called Lighthouse"). It is named,
    not kept: no rule can tell which of its words are the fact. A word of keeping inside a
    story ("I'll always remember our trip", "my mind") asks nothing."""
    words = sentence.rstrip(".!?").split()
    opening = _first_cue(words, _CUE_REACH)
    # "I remember when…", "Eu anoto tudo": the user tells of their own keeping, asks nothing
    asks = (
        opening is not None
        and _request_start(words, opening) == 0
        and not any(map(_USER_WORDS.fullmatch, words[:opening]))
    )
    ends = _ends_in_a_request(sentence) or _unmarked_request(words) is not None
    return (asks or ends or _opens_a_clause(words)) and _names_the_user(sentence)


#: the most words of a request said after its fact with no mark between them
_UNMARKED_MOST = 6
#: a word that forbids, in every pack ("don't", "no", "não"): before a word of forgetting it asks
_PROHIBITION = re.compile(_either_of("prohibitions"), _I)
#: how far before such a word of keeping a subject makes it a statement ("I will always remember")
_SUBJECT_REACH = 3


def _unmarked_request(words: list[str]) -> int | None:
    """Where a request about what the sentence says before it begins, said at its end with no
    comma or dash between ("el gimnasio me queda en Chamberí anota eso", "my landlord is Mrs.
    Haddad please remember"), or None: what the rules could not read of such a sentence is
    named, or kept less the request (``_unread``), not dropped without a word. A word of
    keeping with a subject just before it tells of remembering ("…, one I'll always
    remember"); after a mark, the rules that read marks have spoken."""
    for cue in range(max(3, len(words) - _UNMARKED_MOST), len(words)):
        if not (_is_cue(words[cue]) and _asks_alone(words, cue)) or _trailing_request(words[cue:]) is None:
            continue
        if any(_a_subject(w) for w in words[max(0, cue - _SUBJECT_REACH) : cue]):
            return None
        start = cue  # and the request's lead just before its word ("please remember")
        while start > 3 and fold_accents(words[start - 1].casefold().strip(",.!?¿¡")) in _REQUEST_LEAD:
            start -= 1
        marked = words[start - 1].endswith((",", ";", ":")) or words[start - 1] in _DASHES
        return None if marked else start
    return None


def _asks_alone(words: list[str], cue: int) -> bool:
    """Whether the word of keeping ``words[cue]`` asks with nothing after it: a verb that asks
    by itself ("remember", "anota"), or one of forgetting after a word that forbids ("no te
    olvides", "don't forget", "não esquece")."""
    return _asks_by_its_verb(words[cue]) or any(_PROHIBITION.fullmatch(w) for w in words[max(0, cue - 2) : cue])


def _a_subject(word: str) -> bool:
    """Whether ``word`` may be the subject of a verb after it: a pronoun that is no article
    when its accent is folded ("él" is "el") or the user's own opening ("I'll", "we")."""
    plain = word.strip(",.!?¿¡")
    return fold_accents(plain.casefold()) in _SUBJECTS_NOT_ARTICLES or _USER_WORDS.fullmatch(plain) is not None


def _requests_after_a_lead(words: list[str]) -> Iterator[tuple[int, int]]:
    """(its word, where it opens) of each request among a sentence's first words that opens a
    clause after a lead: its glue and its word of keeping, after a comma, a colon or a dash
    ("For my dad's party, remember…", "Antes de seguir con el merge: anota que…")."""
    for n in range(min(len(words), _LEAD_MOST + _CUE_REACH)):
        if n < 2 or not _cue_at(words, n):
            continue
        start = _request_start(words, n)
        mark = words[start - 1] if 0 < start <= _LEAD_MOST else ""
        if mark.endswith((",", ":")) or mark in _DASHES:
            yield n, start


def _opens_a_clause(words: list[str]) -> bool:
    """Whether a request opens a clause after a lead, a comma, colon or dash before it ("For
    my mom's birthday, remember she loves orchids"): a word of keeping there asks, as at the
    start of a sentence, not within a story ("I'll always remember")."""
    for n, start in _requests_after_a_lead(words):
        if not any(map(_USER_WORDS.fullmatch, words[start:n])):
            # not "Yeah, I saved some", "En la boda, recuerdo que…": the user tells of their own keeping
            return not _tells_of_remembering(" ".join(words[start:]))
    return False


def _names_the_user(said: str) -> bool:
    """Whether ``said`` names the user or their group, at the start or as a word anywhere."""
    if _ANY_USER_SUBJECT.match(said) or _USER_GROUP.match(said):
        return True
    starts = [m.start() for m in re.finditer(r"(?<!\w)\w", said)]
    return any(_USER_WORDS.match(said, i) or _POSSESSIVE_WORDS.match(said, i) for i in starts)


def _announces_a_list(sentence: str, declined: list[NotKept], following: str) -> bool:
    """Whether a request names what to keep in the list below it: a request not kept (what
    it named is said below) that opens with its word (after "please", "could you"…), points
    at what follows ("these", "the following", "estos datos") and ends in a colon, and a
    list's item follows ("Guarda estos datos sobre mí:\n- trabajo en remoto"); or a heading
    that names what it keeps first, then asks ("Things to remember about me:", "Cosas que
    quiero que recuerdes:"). "Release notes:", "Remember to do these:", "Things to remember
    to do:" and "I will remember the following:" announce none."""
    head = sentence.rstrip()
    if not head.endswith(":") or not declined or _LIST_ITEM.match(following) is None or _TASK_WORDS.search(head):
        return False
    if all(
        n.reason == _NOTHING_AFTER for n in declined
    ):  # "For future reference:", read as asking with nothing after it
        return True
    words = [w.strip(",.!?¿¡:").casefold() for w in head[:-1].split()]
    cue = _first_cue(words, _CUE_REACH)
    if cue is None:
        return False
    after = _past_fillers(words[cue + 1 :])  # "grava aí:"
    if words[0] in _BACK_NOUNS:  # the heading names its items: what follows the ask says whose
        return not after or after[0] not in _TODO_WORDS
    if any(w not in _LIST_LEADS for w in words[:cue]):
        return False
    if not after:  # "memoriza:", "Save:" and the list below it
        return True
    # "Remember to do these:" is none; "acuérdate de estas dos cosas:" is one
    todo = after[0] in _TODO_WORDS and not (len(after) > 1 and after[1] in _LIST_WORDS)
    return not todo and bool(_LIST_WORDS & set(after))


#: what may come before the word of a request that announces a list ("please", "could you")
_LIST_LEADS = frozenset(w for p in all_packs() for w in p.list_leads)


#: what names the user in such a request, and what a question opens with, in every pack
_SELF_WORDS = frozenset(w for p in all_packs() for w in p.self_words)


#: what such a request points at what follows with ("these", "the following", "estos")
_LIST_WORDS = frozenset(w for p in all_packs() for w in p.list_words)


def _clause_spans(sentence: str) -> list[tuple[int, int]]:
    """Where each clause of ``sentence`` is, (start, end): split where the user opens a
    clause of their own (``_CLAUSES``), never inside quotes ('my band is called "Me and My
    Monkey"' is one clause)."""
    quoted = [m.span() for m in _QUOTED.finditer(sentence)] if any(q in sentence for q in _QUOTE_OPENINGS) else []
    out, start = [], 0
    for join in _CLAUSES.finditer(sentence):
        if not any(a < join.start() < b for a, b in quoted) and not _one_subject(sentence[start : join.start()]):
            out.append((start, join.start()))
            start = join.end()
    return [*out, (start, len(sentence))]


_POSSESSIVE_OPENING = re.compile(_POSSESSIVE_FIRST + r"\b", _I)


def _one_subject(before: str) -> bool:
    """Whether what comes before "and I" is the first half of one subject: a few words
    after the request's "that", saying nothing, that are not the user ("Mike and I are
    cofounders", "my wife and I live in Cork": one clause; it was written "Mike. The user
    ares cofounders"); "I'm vegan and I have two cats" is two clauses."""
    words = before.split()
    cut = max((i for i, w in enumerate(words) if w.casefold() in _THAT_WORDS or w.endswith(":")), default=-1)
    subject = words[cut + 1 :]
    if not subject or len(subject) > 3 or _SAYS_SOMETHING.search(" ".join(subject)):
        return False
    rests = [" ".join(subject[i:]) for i in range(1, len(subject))]
    if any(_ANY_USER_SUBJECT.match(rest) and not _POSSESSIVE_OPENING.match(rest) for rest in rests):
        return False  # "soy daltónico y uso…": the user's verb in it, two clauses
    said = " ".join(subject)
    return bool(_POSSESSIVE_OPENING.match(said)) or not _ANY_USER_SUBJECT.match(said)


#: every pack's aside's words ("and btw", "y de paso", "aliás"), and them at the end of the
#: task before a request made in it ("…, and btw")
_ASIDES = "|".join(a for p in all_packs() for a in p.asides)
_ASIDE_END = re.compile(rf"(?<![^\s,])(?:{_ASIDES})$", _I)


#: how much of the words before a request's word show it is made in an aside
_ASIDE_REACH = 40


#: "do you remember…", "¿te acordás…", "você lembra…": a question whether the assistant
#: remembers, in every pack (its ``signal_refusals`` row "asks-if-remembered")
_ASKS_IF_REMEMBERED = tuple(pattern for _, rule, pattern in NOT_SIGNALS if rule == "asks-if-remembered")


def _asks_if_remembered(words: list[str], cue: int) -> bool:
    """Whether the few words before a request's word ``words[cue]`` make it a question
    whether the assistant remembers ("fix it and btw, do you remember that my husband is…?"
    had been kept as asked)."""
    return any(
        pattern.match(" ".join(words[cue - k :]).lstrip("¿¡"))
        for k in range(1, min(3, cue) + 1)
        for pattern in _ASKS_IF_REMEMBERED
    )


def _aside(sentence: str) -> int:
    """Where a request said in an aside after a task begins ("fix the import error, and btw
    remember I'm on Python 3.12 at work": at "remember"), or 0: a cue word past the opening
    of the sentence with an aside's words just before it ("and btw", "y de paso"; a comma
    alone may report what someone said: "Le dije, acuérdate que…"), none after a colon."""
    words = list(re.finditer(r"\S+", sentence))
    said = [w.group() for w in words]
    for n, word in enumerate(words):
        if n < 2 or not _cue_at(said, n):
            continue
        after = [w.strip(",.!?¿¡").casefold() for w in said[n + 1 :]]
        if all(w in _BACK_WORDS for w in after) and (after or _carries_its_object(said[n])):
            return 0  # "…Porto Alegre btw, remember that": it points back at what was said, no aside
        if ":" in sentence[: word.start()]:
            return 0  # after a colon: what is quoted ("Reply to this email: Hi team, remember…")
        if _asks_if_remembered([w.group() for w in words], n):
            return 0  # "…and btw, do you remember that…?": asked, not a request
        before = sentence[max(0, word.start() - _ASIDE_REACH) : word.start()].rstrip(" ,")
        if _ASIDE_END.search(before) is not None:
            return word.start()
        # the aside before the request's own opening ("…y de paso *no se te* olvide que…")
        start = words[_request_start([w.group() for w in words[: n + 1]], n)].start()
        before = sentence[max(0, start - _ASIDE_REACH) : start].rstrip(" ,")
        if start < word.start() and _ASIDE_END.search(before) is not None:
            return start
        # "…but anyway could you remember that I…"
        asked = _POLITE_END.search(sentence, max(0, word.start() - _ASIDE_REACH), word.start())
        if asked is not None:
            return asked.start()
    return 0


#: the most words a lead before a request may have ("Before we continue with the refactor —")
_LEAD_MOST = 24


#: a request's asking just before its word ("…, can you", "…, ¿puedes"), in every pack
_POLITE_END = re.compile(
    r"(?<=[\s,;])¿?(?:" + _words_of("polite_requests") + r")\s+$",
    _I,
)


def _request_start(words: list[str], cue: int) -> int:
    """Where the request around the cue word ``words[cue]`` opens: its glue and back words
    before the cue ("please keep *that*", "y guardalo") are the request's, not the fact's."""
    start = cue
    while start > 0 and words[start - 1].strip(",.!?¿¡").casefold() in _REQUEST_LEAD:
        start -= 1
    return start


def _with_its_aside(words: list[str], start: int) -> int:
    """Where a request said after its fact opens (``start``: its glue's first word) with the
    aside's words just before it, which are no more the fact's than the glue ("…, y de paso
    recuérdalo", "…Lyon y de paso recuérdalo", "…btw, remember that")."""
    # what is left before it must be more than a request's own short lead ("I'm vegetarian,
    # btw remember that": two words are read as one, so the aside stays for the later trim)
    for n in range(max(_ASIDE_FACT_LEAST, start - _ASIDE_WORDS), start):
        aside = " ".join(words[n:start]).strip(" ,")
        if n and any(w[:1].isupper() for w in words[n:start]):
            continue  # "…album is By the Way, remember that": a name, not an aside
        opens = n == 0 or words[n - 1].endswith(",") or words[n].casefold() in _AND_WORDS
        if opens and _ASIDE_WORDS_ALONE.fullmatch(aside):
            return n
    return start


#: an aside's words in every pack, alone ("btw", "de paso", "aliás"), and the most words one takes
_ASIDE_WORDS_ALONE = re.compile(rf"(?:{_ASIDES})", _I)
_ASIDE_WORDS = 4
_ASIDE_FACT_LEAST = 3


#: the pronouns a request's verb carries its object in, in every pack ("guárda*lo*")
_ATTACHED = tuple(w for p in all_packs() for w in p.attached_objects)


def _points_with(word: str) -> bool:
    """Whether ``word`` points back: a back word ("that", "lo", "isso"), or a request's verb
    with its pronoun on it ("tenlo", "guárdalo")."""
    return fold_accents(word.casefold().strip(",.")) in _BACK_WORDS or _carries_its_object(word)


def _carries_its_object(word: str) -> bool:
    """Whether a request's word carries what it keeps ("guárdalo", "anótala")."""
    return fold_accents(word.casefold()).rstrip(",.!?").endswith(_ATTACHED)


_WHEN_CLAUSE = re.compile(r"(?:" + ("|".join(r for p in all_packs() for r in p.request_when) or "(?!)") + ")", _I)


def _said_of_someone(words: list[str], cue: int) -> bool:
    """Whether the word of keeping ``words[cue]`` is a verb said of someone: a subject just
    before it, or before one word more ("we save that data", "I always save that kind of
    stuff"), or a form only a statement takes ("guardan", "anotei": ``Pack.statement_endings``).
    A subject is of the verb's own clause: a word before a comma, a colon or a dash is not
    ("Antes de seguir con el merge, anota que…": "el merge" is no "él")."""
    opening = max(0, cue - 2)
    for i in range(cue - 1, opening - 1, -1):
        if words[i].endswith((",", ";", ":")) or words[i] in _DASHES:
            opening = i + 1
            break
    before = [_cue_form(w) for w in words[opening:cue]]
    if before and before[-1] in _STATEMENT_SUBJECTS:
        return True
    if len(before) == 2 and before[0] in _STATEMENT_SUBJECTS and before[1] not in _REQUEST_LEAD_OR_THAT:
        return True
    folded = _cue_form(words[cue])
    # the ending follows the whole stem: "gravava", "anotei" tell; "grava", "graba" ask
    return any(
        folded.endswith(ends) and pattern.fullmatch(folded[: -len(ends)])
        for pattern, code in _CUE_WORDS
        if pattern.fullmatch(folded)
        for ends in _ENDINGS[code]
    )


#: the verbs that say whose words follow, in every pack (``Pack.attributions``)
_ATTRIBUTIONS = frozenset(fold_accents(w) for p in all_packs() for w in p.attributions)


def _quoted(before: list[str]) -> bool:
    """Whether the words before a request's word say someone else said it: a verb that says
    whose words follow, with a subject that is not the user ("Sam wrote —", "Pedro dice:";
    not "as I said,", "I wrote:")."""
    plain = [fold_accents(w.strip(",.:;!?—–-\"'").casefold()) for w in before]
    return any(word in _ATTRIBUTIONS and i > 0 and plain[i - 1] not in _THE_USER_SAYING for i, word in enumerate(plain))


#: the user's own words, in every pack (``Pack.user_speakers``): "I said…" is theirs; "me
#: dijo que recuerde…" is someone else's
_THE_USER_SAYING = frozenset(fold_accents(w) for p in all_packs() for w in p.user_speakers)


#: each pack's statement endings (``Pack.statement_endings``), by its code
_ENDINGS = {p.code: p.statement_endings for p in all_packs()}


#: the subjects that make a word of keeping a statement, in every pack (accents folded)
_STATEMENT_SUBJECTS = frozenset(fold_accents(w) for p in all_packs() for w in p.statement_subjects)
#: of those, the ones no pack also writes as an article ("el", folded from "él", is one)
_SUBJECTS_NOT_ARTICLES = _STATEMENT_SUBJECTS - {fold_accents(a) for p in all_packs() for a in p.value_articles}


#: the days of the week and the months of every pack, as a time said before a request names
#: them ("On Fridays,", "Los viernes,", "Às sextas,", "In August,")
_DAYS_AND_MONTHS = frozenset(
    fold_accents(w).casefold() for p in all_packs() for w in (*p.weekdays, *p.months) if isinstance(w, str)
)


#: the most words such a time may have ("de lunes a viernes,")
_TIME_LEAD_MOST = 5


def _a_time_before(words: list[str], cue: int) -> str | None:
    """The time said before a request and a comma, when it names a day or a month and
    nothing else of the sentence comes before it ("On Fridays, remember that I work from
    home": the fact is of Fridays), else None."""
    start = _request_start(words, cue)
    if not 0 < start <= _TIME_LEAD_MOST or not words[start - 1].endswith(","):
        return None
    lead = words[:start]
    named = [fold_accents(w.strip(",").casefold()) for w in lead]
    if not any(w in _DAYS_AND_MONTHS or (w.endswith("s") and w[:-1] in _DAYS_AND_MONTHS) for w in named):
        return None
    return " ".join(lead).rstrip(",")


#: the words that open a condition of the user's before a request, in every pack ("When I
#: visit my grandmother, remember…", ``Pack.condition_leads``)
_CONDITION_LEADS = frozenset(fold_accents(w) for p in all_packs() for w in p.condition_leads)


#: the most words such a lead may have ("For my kid's school play on Thursday,")
_PLACE_LEAD_MOST = 8


def _a_place_before(words: list[str], cue: int) -> str | None:
    """The place or occasion said before a request and a comma, when nothing else of the
    sentence comes before it ("At my parents' place, remember there's no wifi", "Para la boda
    de mi prima, recuerda que…"): the fact is of it, else None. Not a lead of the task ("In
    this repo, remember…"), nor one that quotes."""
    start = _request_start(words, cue)
    if not 1 < start <= _PLACE_LEAD_MOST or not words[start - 1].endswith(","):
        return None
    lead = words[:start]
    opening = fold_accents(lead[0].casefold())
    if any(w.endswith((",", ":", ";")) for w in lead[:-1]):
        return None
    if opening not in _PLACE_LEADS and not (opening in _CONDITION_LEADS and _names_the_user(" ".join(lead))):
        return None  # a condition of the user's is the fact's: "Cuando visito a mis padres, recuerda que…"
    if all(w.strip(",").casefold() in _SELF_WORDS for w in lead[1:]):
        return None  # "Sobre mim, guarda isso:": about the user, what follows says it
    said = " ".join(lead).rstrip(",")
    return None if _TASK_WORDS.search(said) or _quoted(lead) else said


def _said_after(words: list[str], cue: int) -> tuple[str | None, int]:
    """What a request keeps after its word ``words[cue]``: what follows a colon, a dash or an
    early comma, or a "that" close to it (not the "que" of "…de poner el await, que si
    no…"), and the place of that mark; (None, where the look stopped) when there is none."""
    i = cue
    for i in range(cue, min(len(words), cue + _CUE_REACH)):
        word = words[i]
        if word in _DASHES or word.endswith(":") or (word.endswith(",") and _asks_up_to(words, cue, i)):
            return (None if _a_comma_that_points_back(words, cue, i) else " ".join(words[i + 1 :])), i
        if i > cue and fold_accents(word.casefold()) in _THAT_WORDS:
            if _a_pronoun(words, i):
                return None, i  # "save that somewhere": the fact was said before the request
            if _WHEN_CLAUSE.match(" ".join(_past_fillers(words[cue + 1 : i]))):
                return None, i  # "tenlo presente cuando te diga que…": the "que" of what it is for
            between = [w for w in words[cue + 1 : i] if fold_accents(w.casefold().strip(",.")) not in _BACK_WORDS]
            told = " ".join([*_past_fillers(between), word])
            # it points back: a back word after the request's word, or before it or on it
            # ("lo tienes presente cada vez que…", "tenlo presente cada vez que…")
            pointed = len(between) < i - cue - 1 or any(_points_with(w) for w in words[max(0, cue - 2) : cue + 1])
            when = _WHEN_CLAUSE.search(told) if pointed else None
            if when is not None and when.end() == len(told):
                return None, i  # "lembra disso sempre que sugerir comida": it points back; "que" is of when
            phrase = word.casefold() in _THAT_WORDS and _a_phrase_of_when(words[cue + 1 : i])  # not "qué"
            if not phrase and _a_thing_before(words, cue, i):
                if _says_what_it_is(words, cue, i):  # "remember the password manager that I use is Bitwarden"
                    return " ".join(words[cue + 1 :]), cue
                return None, i  # "faz o app lembrar a última aba que o usuário abriu": of the aba
            near = i - cue <= _THAT_REACH or (
                (phrase or _FOR_LATER.fullmatch(" ".join(words[cue + 1 : i])) is not None)
                and not any(fold_accents(w.casefold()) in _THAT_WORDS for w in words[i + 1 :])
                and not _ADDRESSEE & {w.casefold().strip(",.") for w in words[i + 1 : i + 1 + _ADDRESSEE_REACH]}
            )  # not "para la próxima vez que te pregunte por vinos, que…", nor "…las próximas veces
            # que te pida ejercicios": that "que" is of when, the assistant is asked
            if near and (phrase or not any(w.endswith(",") for w in words[cue:i])):
                return " ".join(words[i + 1 :]), i
            return None, i
    return None, i


def _a_thing_before(words: list[str], cue: int, that: int) -> bool:
    """Whether a thing is named between a request's word and its "that", by an article of the
    word's language ("make the page remember *the last tab* that…", "que el carrito recuerde
    *los productos* que…", "lembrar *o* que o usuário digitou"), and no colon follows: the
    "that" is of the thing, not what to keep; not "the fact that", a phrase of when it is
    for ("for the next time that…"), nor of where ("en la memoria que…", "en la agenda
    que…")."""
    between = [w.casefold().strip(",.") for w in words[cue + 1 : that]]  # "lá" is no "la"
    if not between or _FOR_LATER.fullmatch(" ".join(words[cue + 1 : that])):
        return False
    packs = [p for code in _cue_languages(words[cue]) if (p := pack(code)) is not None]
    articles = {a for p in packs for a in p.value_articles}
    if not articles.intersection(between) or {n for p in packs for n in p.that_nouns}.intersection(between):
        return False
    if any(_is_cue(w) for w in words[cue + 1 : that]) or fold_accents(between[0]) in _PLACE_LEADS:
        return False  # "guardar en la memoria que…", "anota en la agenda que…": where to keep it
    return not any(w.endswith(":") for w in words[that:])  # "…the day that X: …" says it after


def _says_what_it_is(words: list[str], cue: int, that: int) -> bool:
    """Whether the clause a thing's "that" opens is followed by a copula of the request
    word's language that says what the thing is: the whole is the fact ("remember the
    password manager that I use *is* Bitwarden"), not what the "that" says."""
    copulas = {c for code in _cue_languages(words[cue]) if (p := pack(code)) is not None for c in p.copulas}
    return any(w.casefold().strip(",.") in copulas for w in words[that + 2 :])


#: the most words of a phrase of when or where between a request's word and its "that"
_WHEN_MOST = 6


def _a_phrase_of_when(between: list[str]) -> bool:
    """Whether the words between a request's word and its "that" are a phrase of when or
    where it is for, whole or between commas ("don't forget *in our next conversations*
    that…", "recordá *de acá en más* que…", "tenha sempre em mente*, nas próximas conversas,*
    que…"): it opens with a word a pronoun's tail does ("in", "de", "nas"), is short, says
    nothing of the task and holds no mark but the commas around it."""
    plain = [fold_accents(w.strip(",").casefold()) for w in between]
    if not 0 < len(plain) <= _WHEN_MOST or plain[0] not in _PRONOUN_TAILS:
        return False
    if any(w in _SAYS_NOTHING or w in _AND_WORDS or w in _ADDRESSEE or w in _BACK_WORDS for w in plain):
        return False  # "guárdalo en tu memoria porfa que…", "acordate de eso, que…": where to keep it, then why
    inner = between[:-1]
    return not any(w.endswith((",", ".", ";", ":", "!", "?")) for w in inner) and not _TASK_WORDS.search(
        " ".join(between)
    )


def _asks_up_to(words: list[str], cue: int, i: int) -> bool:
    """Whether an early comma at ``words[i]`` ends a request's words ("Remember, …", "anota
    porfa, …", "note this, …"): what is said between says nothing of its own ("guarda
    silencio, que estoy pensando" keeps quiet, no fact)."""
    if i + 1 >= len(words):
        return False
    between = [fold_accents(w.strip(",.!?").casefold()) for w in words[cue + 1 : i + 1]]
    if i - cue >= 3:  # "tomá nota y no te olvides, mi depto…": two requests joined, then the fact
        joined = any(w in _AND_WORDS for w in between) and any(map(_is_cue, words[cue + 1 : i + 1]))
        return joined and all(
            w in _BACK_WORDS or w in _SAYS_NOTHING or w in _REQUEST_LEAD or w in _AND_WORDS or _is_cue(w)
            for w in between
        )
    after = [fold_accents(w.strip(",.!?").casefold()) for w in words[i + 1 :]]
    return all(w in _BACK_WORDS or w in _SAYS_NOTHING or w in _REQUEST_LEAD for w in between) or all(
        w in _SAYS_NOTHING for w in after
    )  # "Anótate mis horarios, porfa": a courtesy after it


def _a_comma_that_points_back(words: list[str], cue: int, i: int) -> bool:
    """Whether the comma or dash at ``words[i]``, after the request's word ``words[cue]``, ends
    a request that points back: "Remember it please, I'm …", "keep that in mind — I'll ask…"
    (what follows is another clause),
    "Memorízalo, que a veces te pregunto…" (a reason; the fact was said before)."""
    if not (words[i].endswith(",") or words[i] in _DASHES):
        return False
    if _points_before(words[cue + 1 : i + 1], words[i + 1 :]):
        return True
    return i == cue and _carries_its_object(words[i]) and fold_accents(words[i + 1].casefold()) in _THAT_WORDS


#: why a request is asked, at the start of what follows it (``Pack.request_reasons``), at a word's start
_WHY_ASKED = re.compile(
    r"(?<![^\s,;])(?:" + "|".join([REASON_OPENING.pattern, *(r for p in all_packs() for r in p.request_aims)]) + ")", _I
)
#: a mark that opens what a request keeps ("save this for later: my dog…", "— my gym is…")
_OPENS_THE_FACT = re.compile(r":(?:\s|$)|\s[—–-]{1,2}\s")
#: the most words between a request's word and why it is asked ("keep that in mind please, …")
_ASKED_BACK_MOST = 5
#: a clause's end, before a request said after its fact ("…, write that down bc…", "…!! no te olvides")
_CLAUSE_MARKS = (",", ";", ".", "!", "?", ":", "—", "–")


class Why(NamedTuple):
    """Where, in a sentence, a request that points back begins, and where why it is asked
    begins and ends (before a request said after it: "…, and remember I hate seafood")."""

    request: int
    reason: int
    end: int


def why_after_a_request(sentence: str) -> Why | None:
    """Why a request is asked, when a request that points back at what was said ends just
    before it ("Note it, because you'll plan the menu", "…, write that down cuz you'll…",
    "Apúntalo, pues me vas a…", "Anota isso caso eu precise…"): the request keeps what was
    said before it, and why is no fact of it (it had been written as one: "Because you'll help
    the user plan Thanksgiving"). None when a "that" right before it may open the fact instead
    ("remember that since March I work from home"), unless the reason speaks to the assistant
    ("remember that bc you'll…"), or when a colon or a dash after it opens the fact."""
    words = sentence.split()
    plain = [fold_accents(w.strip(",.!?;:¡¿\"'")).casefold() for w in words]  # read once for every reason
    starts = list(_word_starts(sentence))
    for found in _WHY_ASKED.finditer(sentence):
        at = bisect.bisect_left(starts, found.start())
        if at == 0 or at >= len(starts) or starts[at] != found.start():
            continue
        request = _asks_back(words, plain, at)
        if request is None:
            continue
        end = _next_request(words, plain, at)
        stop = starts[end] if end < len(words) else len(sentence)
        if _OPENS_THE_FACT.search(sentence, found.start(), stop):
            return None
        return Why(starts[request], found.start(), stop)
    return None


def _word_starts(text: str) -> Iterator[int]:
    return (m.start() for m in re.finditer(r"\S+", text))


def _next_request(words: list[str], plain: list[str], reason: int) -> int:
    """Where a request said after the reason at ``words[reason]`` begins (its join, "and",
    "y", or its word after a mark: "…, and remember I hate seafood"), else the words' end;
    ``plain``: the words folded."""
    for j in range(reason + 2, len(words)):
        if not _cue_at(words, j):
            continue
        if plain[j - 1] in _AND_WORDS:
            return j - 1
        if words[j - 1].endswith(_CLAUSE_MARKS):
            return j
    return len(words)


def _asks_back(words: list[str], plain: list[str], end: int) -> int | None:
    """Where a request begins whose words end ``words[:end]``, at a clause's start, and that
    points back at what was said: a word of it carries what it keeps ("guárdalo", "*tenlo* en
    cuenta"), or a back word follows its word ("note *it*", "anota *isso*") or comes just
    before it ("no *lo* olvides"); nothing but its glue after it. A bare one ("Remember, since
    2019 I've been vegan") may as well open its fact, unless what follows speaks to the
    assistant ("Não esquece, pra você me lembrar…"): else None. ``plain``: the words folded."""
    cue = next((i for i in range(max(0, end - 1 - _ASKED_BACK_MOST), end) if _cue_at(words, i)), None)
    if cue is None or any(w not in _ASKED_WITH for w in plain[cue + 1 : end]) or words[end - 1].endswith(":"):
        return None  # "Save this: since 2019 I've…": what a colon opens is the fact
    if any(w in _THAT_WORDS and w not in _BACK_WORDS for w in plain[cue + 1 : end]):
        return None  # "Apunta que, ya que soy…": its "que" opens the fact, a reason and all
    start = cue
    while start and not words[start - 1].endswith(_CLAUSE_MARKS):
        start -= 1  # "…, *please don't* forget it", "…!! *no te* olvides", "*Tenlo* en cuenta"
        if plain[start] not in _ASKED_WITH and not _carries_its_object(words[start]):
            return None  # "I always save that because…": a story of the user's, no request
    if any(_carries_its_object(w) for w in words[start : cue + 1]):
        return start
    # what follows may open the fact, unless it speaks to the assistant ("…, bc you'll help me…")
    to_you = speaks_to_you(words[end + 1 :])
    backs = [i for i in range(start, end) if plain[i] in _BACK_WORDS and i != cue]
    if not backs:  # "Remember, since 2019 I've been vegan"; "Não esquece, pra você me lembrar…"
        return start if to_you and words[end - 1].endswith((",", ";")) else None
    last = backs[-1]
    if last == end - 1 and plain[last] in _THAT_WORDS and not words[last].endswith((",", ";")) and not to_you:
        return None  # "remember that since March…": a "that" right before may open the fact
    return start


#: the words a request that points back is said with, before why it is asked: its glue, the
#: back words, fillers and courtesies, and the nouns and prepositions of where to keep it
#: ("in mind", "en cuenta", "em conta", "por favor")
_ASKED_WITH = (
    _REQUEST_LEAD
    | _SAYS_NOTHING
    | _PRONOUN_TAILS
    | frozenset(fold_accents(w).casefold() for p in all_packs() for w in (*p.negations, *p.addressee))
    | frozenset(w for p in all_packs() for w in re.findall(r"[^\W\d_]+", p.cue_nouns))
)


def _points_before(request: list[str], rest: list[str]) -> bool:
    """Whether a request's words (``request``, up to what a table row took as its fact,
    ``rest``) point back: a back word that is a pronoun ("save that somewhere"), or one a
    comma or a dash ends the request after ("Remember it please, I'm terrible with dates",
    "remember that — I'll ask about it later")."""
    backs = [i for i, w in enumerate(request) if w.strip(",.!?").casefold() in _BACK_WORDS]
    if not backs or not rest:
        return False
    last = backs[-1]
    dashed = _points_back_alone(request[last]) and (rest[0] in _DASHES or any(w in _DASHES for w in request[last:]))
    return (
        dashed
        or any(w.endswith(",") for w in request[last:])
        or (last == len(request) - 1 and _a_pronoun([*request, *rest[: _PHRASE_MOST + 3]], last))
    )


#: the back words that point at what follows as often as at what was said ("this", "esto")
_NEAR_REFS = frozenset(w for p in all_packs() for w in p.near_refs)


def _opens_an_aside(words: list[str], i: int) -> bool:
    """Whether the dash at ``words[i]`` opens an aside another closes a few words on
    ("remember that — honestly — my dog is Rex")."""
    return any(w in _DASHES for w in words[i + 1 : i + 6])


def _points_back_alone(word: str) -> bool:
    """Whether the back word ``word`` points at what was said, not at what follows a dash
    after it ("remember *that* — I'll ask later"; "remember *this* — my dog is Rex")."""
    return word.strip(",.!?").casefold() not in _NEAR_REFS


def _a_pronoun(words: list[str], i: int) -> bool:
    """Whether the back word ``words[i]`` ("that") points at what was said, not at a clause
    it opens: it ends the request ("remember that.") or a pronoun's tail follows it ("save
    that somewhere so…", "commit that to memory")."""
    if fold_accents(words[i].casefold().rstrip(",.!?")) not in _BACK_WORDS:
        return False
    if i + 2 < len(words) and _NOW_WORD.fullmatch(words[i + 1]) and _theirs(" ".join(words[i + 2 :])):
        return False  # "remember that now I live in Nantes": a time, then the user's clause it opens
    if i + 2 < len(words) and _after_a_lasting_lead(" ".join(words[i + 1 :])):
        return False  # "remember that from now on I only drink decaf": the lead of a lasting fact
    if _opens_a_clause_after_a_phrase(words, i):
        return False  # "remember that on Mondays I have therapy": a time or a place, then the clause
    return (
        _ends_at(words, i)
        or (words[i + 1] in _DASHES and _points_back_alone(words[i]) and not _opens_an_aside(words, i + 1))
        or (words[i + 1].casefold().strip(",.!?") in _BACK_NOUNS and not _a_number_of_a_noun(words, i + 1))
    )


def _ends_at(words: list[str], i: int) -> bool:
    """Whether a request's words end at ``words[i]``: its mark, its last word, a pronoun's
    tail after it ("…that somewhere so…"), nothing said after it ("don't forget that lol",
    "…that 🙏") or a tag ("…don't forget that ok": a tag asks nothing)."""
    return (
        words[i].endswith((",", ".", "!", "?"))
        or i + 1 == len(words)
        or words[i + 1].casefold().strip(",.!?") in _PRONOUN_TAILS
        or not _trim(" ".join(words[i + 1 : i + 4]))
        or _only_a_tag(" ".join(words[i + 1 :]))
    )


#: the back nouns that are numbers too, in every pack ("one": "that *one* branch of my family")
_NUMBER_WORDS = frozenset(w for p in all_packs() for w in p.numbers)


def _a_number_of_a_noun(words: list[str], i: int) -> bool:
    """Whether the back noun at ``words[i]`` is a number before the noun it counts: "remember
    that one branch of my family is…" opens the user's clause, "remember that one for later"
    and "…that one, ok?" point back."""
    return words[i].casefold() in _NUMBER_WORDS and not _ends_at(words, i) and words[i + 1] not in _DASHES


#: the most words of a time, a place, a case or a cause between a "that" and the user's
#: clause it opens ("remember that *since my surgery in January* I can't lift…")
_PHRASE_MOST = 8


def _opens_a_clause_after_a_phrase(words: list[str], i: int) -> bool:
    """Whether the "that" at ``words[i]`` opens the user's clause after a phrase of time,
    place, case or cause ("remember that *on Mondays* I have therapy", "…that *since my
    surgery in January* I can't lift…", "…that *since I'm the only one who drives,* I do the
    pickups"): the phrase opens with a word a pronoun's tail does ("on", "since", "in") and
    the user or their group follows it, or follows its comma. It points back when the phrase
    says where or when to keep it ("in mind", "for later,"), what for ("…that in case I need
    it", "…somewhere so I can…": a joining word right before the user) or a dash ends it."""
    if fold_accents(words[i].casefold()) not in _THAT_WORDS:
        return False  # "write *it* down and don't forget, …": no "that", no clause it opens
    if i + 3 >= len(words) or words[i + 1].casefold() not in _PRONOUN_TAILS or _says_only_what_for(words[i + 1 :]):
        return False  # "…that when I ask", "…that in case I need it": what the request is for
    group = _OF_THEIR_GROUP.match(" ".join(words[i + 1 :]))
    if group is not None and len(group.group().split()) + 1 < len(words) - i:
        return True  # "remember that on my team PR titles start with…": a clause of their team's
    # "since I'm the only one who drives, …", "if I ever ask…": a clause of the user's opens it,
    # and only one after its comma is what it keeps
    first = words[i + 2].strip(",").casefold()
    a_clause = first in _SUBJECT_WORDS and not _POSSESSIVE_WORDS.fullmatch(first)  # not "since my surgery …"
    for j in range(i + 2, min(i + 2 + _PHRASE_MOST, len(words))):
        word = words[j - 1]
        if words[j] in _DASHES or _CUE_NOUNS.fullmatch(word.strip(",.;:!?").casefold()):
            return False  # "keep that in memory — I'll…", "keep that in mind when I…", "…for later, I'm…"
        if _ADDRESSEE & {w.strip(",.;:!?").casefold() for w in words[i + 1 : j + 3]}:
            return False  # "…that so the recipes you give me…", "…that if I ever ask you…": why, to the assistant
        if word.endswith(",") and j - 1 > i + 1:
            # the clause after the phrase's comma, when the phrase says something: a clause of
            # the user's or a word of its own ("in case of emergency,"), not where ("somewhere safe,")
            said = a_clause or any(_a_word_of_its_own(w) for w in words[i + 2 : j])
            return said and _theirs(" ".join(words[j:]))
        if word.endswith((",", ".", ";", ":", "!", "?")):
            return False
        if j - 1 > i + 1 and word.casefold() in _PRONOUN_TAILS and _theirs(" ".join(words[j:])):
            return False  # "save that somewhere so I can…": a clause of what it is for
        if j > i + 2 and not a_clause and _theirs(" ".join(words[j:])):
            return True
    return False


#: the words that say nothing of their own in every pack: its function words and a pronoun's tails
_SAYS_NOTHING_ALONE = frozenset(w for p in all_packs() for w in p.function_words) | _PRONOUN_TAILS


def _a_word_of_its_own(word: str) -> bool:
    """Whether ``word`` says something of its own: no function word or pronoun's tail."""
    plain = word.strip(",.;:!?").casefold()
    return bool(plain) and plain not in _SAYS_NOTHING_ALONE


def _after_a_lasting_lead(said: str) -> bool:
    """Whether ``said`` opens with a lead of what lasts ("from now on", "de ahora en
    adelante", "daqui pra frente": the directives that open with one) and the user's clause
    after it."""
    for _, _, lead in DIRECTIVES:
        m = lead.match(said)
        if m is not None and m.start("x") > 0 and _theirs(m.group("x")):
            return True
    return False


#: a word that says now, as the slot rules read it ("now", "currently", "ahora")
_NOW_WORD = re.compile(rf"(?:{either('now')})", _I)


#: the nouns a back word points at what was said with, in every pack ("save that info")
_BACK_NOUNS = frozenset(w for p in all_packs() for w in p.back_nouns)


#: how far after its word a request's "that" may be ("Remember for next time that …")
_THAT_REACH = 4


#: or further, after a phrase of when it is for ("Registrá para las próximas sesiones que…",
#: "Ten presente de ahora en adelante que…"), in every pack (``Pack.future_leads``)
_FOR_LATER = re.compile(_either_of("future_leads"), _I)
#: the words naming the assistant in every pack, and how close after a "que" of when they
#: say the clause is of when ("que yo te pida…")
_ADDRESSEE = frozenset(w for p in all_packs() for w in p.addressee)
_ADDRESSEE_REACH = 3


#: a dash between a request and what it keeps, as a colon ("memorize this - home wifi is …")
_DASHES = frozenset({"-", "–", "—", "--"})


def _points_ahead(sentence: str, following: str, asked: bool = False) -> bool:
    """Whether ``sentence`` is a request that says nothing but what it points at ("Save
    this.", "Anotá esto, porfa", "¿me lo guardas?"): said first, it keeps what is said next
    (``following``). "Acordate de revisar el ticket" says what it asks; "Ten en cuenta esto
    para el refactor:" is about the task, and a list after a colon is the list's to read.
    ``asked``: the sentence was said as a question ("Remember?" may ask whether)."""
    words = sentence.rstrip(".!?").split()
    if not following or _TASK_WORDS.search(sentence) or _LIST_ITEM.match(following):
        return False
    cue_word = _trailing_request(words)
    if cue_word is None:
        return False
    cue = words.index(cue_word)
    after = words[cue + 1].strip(",.:!?¿¡").casefold() if cue + 1 < len(words) else ""
    # "remember:" or "lembra" on a line of its own, the fact on the next: its verb asks alone
    alone = cue + 1 == len(words) and _asks_alone(words, cue) and not (asked or sentence.rstrip().endswith("?"))
    return (
        alone
        or after in _BACK_WORDS
        or _carries_its_object(words[cue])
        or any(_carries_its_object(w) for w in words[:cue])
    )


#: what may stand between a subject and a word of keeping that asks ("I'd like you to keep…")
_REQUEST_LEAD_OR_THAT = _REQUEST_LEAD | _THAT_WORDS


#: a possessive of the user's or their group's, as a word anywhere ("…que no *nosso* time…")
_POSSESSIVE_WORDS = re.compile(r"(?:" + "|".join(p.possessives for p in all_packs() if p.possessives) + r")\b", _I)


#: the verbs that order work on a text the message gives, and the words a polite order
#: opens with before its verb, in every pack (accents folded)
_TEXT_ORDERS = frozenset(fold_accents(w.casefold()) for p in all_packs() for w in p.text_orders)
_ORDER_OPENERS = frozenset(fold_accents(w.casefold()) for p in all_packs() for w in p.order_openers)
#: a lead that gives a text to work on is one clause: at most this many words before its colon
_GIVING_MOST = 12
#: where it may end: this far into the message
_GIVING_REACH = 160
#: the most letters a verb's attached pronouns take ("reescríbe*lo*", "pása*melo*", "traduz*-me*")
_ATTACHED_MOST = 5
#: the fewest letters of a verb read without its attached pronouns
_VERB_LEAST = 4


def _orders_a_text(word: str) -> int | None:
    """How many letters of ``word`` (folded) are the pronouns it carries, when it is a verb
    that orders work on a text, as said or with them ("reescribelo", "pasamelo",
    "traduz-me"); else None."""
    plain, hyphen = word.split("-")[0], "-" in word
    for cut in range(_ATTACHED_MOST + 1):
        if len(plain) - cut >= _VERB_LEAST and plain[: len(plain) - cut] in _TEXT_ORDERS:
            return cut or int(hyphen)
    return None


def _a_text_order(words: list[str], pointing_back: bool = False) -> bool:
    """Whether ``words`` open, past a polite order's opening ("can you", "¿me lo…"), with a
    verb that orders work on a text and say what it works on ("Summarize *this email*",
    "Conviértelo en un tuit"): a word alone is a label ("Answer: …"). ``pointing_back``:
    the order must point at what was said before it ("turn *that* into…", "tradúce*lo*")."""
    plain = [fold_accents(w.strip(",.!?¿¡\"'").casefold()) for w in words]
    verb = next((i for i, w in enumerate(plain) if w not in _ORDER_OPENERS), len(plain))
    carried = _orders_a_text(plain[verb]) if verb + 1 < len(plain) else None
    if carried is None:
        return False
    return not pointing_back or carried > 0 or bool(_BACK_WORDS & set(plain))


def given_to_work_on(said: str) -> tuple[int, int] | None:
    """The span of ``said`` that is a text given to the agent to work on, not the user's own
    words: what follows a first clause that orders work on a text and ends in a colon
    ("Summarize this email:\n…", "traduce al portugués: …", "can you proofread this: …"),
    or that says someone else's words follow ("Here's what my landlord texted me:", "Sam
    wrote: …"), and what comes before a last line that orders work on it ("…\n\nturn that
    into a formal letter", "…\nConviértelo en un tuit"). A quotation right after the colon
    is the text, and what follows it is the user's again ("Translate to French: 'good
    morning'. Also remember that my partner is French"); else the text runs to the message's
    end. None when the lead asks to keep ("For future reference: …", "Anota aí: …") or there
    is no such lead or last line."""
    last = said.rstrip().rfind("\n")
    if last > 0 and ":" not in said[last:] and _a_text_order(said[last:].split()[:_GIVING_MOST], pointing_back=True):
        return 0, last  # the order comes after the text it works on
    colon = said.find(":", 0, _GIVING_REACH)
    if colon <= 0 or (colon + 1 < len(said) and not said[colon + 1].isspace()):
        return None  # "https://…", "10:30"
    lead = said[:colon].split()
    if not lead or len(lead) > _GIVING_MOST or "\n" in said[:colon].strip():
        return None
    if not _a_text_order(lead) and (not _quoted(lead) or _first_cue(lead, len(lead)) is not None):
        return None  # "Save this for later: …", "Sam wrote down for me: …"
    start = colon + 1
    while start < len(said) and said[start].isspace():
        start += 1
    quoted = _QUOTED.match(said, start)
    return (start, quoted.end()) if quoted is not None else (start, len(said))
