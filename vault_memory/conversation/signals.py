"""Explicit signals: what the *user* asks, in so many words, to be remembered.

"Remember that my sister is called Ana", "a partir de ahora respondeme en español", "I'm
allergic to peanuts": each becomes a fact in the third person, with a key and a domain,
``source: explicit`` and ``confidence: high``, with no model and no network. Questions
("can you remember…?"), reminiscing ("remember when…"), negations ("don't remember that",
"no anotes eso"), "I don't remember…" and passing states ("hoy estoy cansado") are not
signals; neither is anything the assistant says (the caller passes user turns only).

The tables are the packs': ``REQUESTS`` (remember that…) and ``DIRECTIVES`` (from now on…,
always…) here, ``STATEMENTS`` (my name is…, vivo en…) and ``NOT_SIGNALS`` with what a
request keeps and why not (``request_facts``). A sentence is checked against the refusals
first, then the tables in that order. Where a request is in a sentence and what it points
at is ``request_shapes``'; this module reads a message as a whole. Pure functions only.
"""

from __future__ import annotations

import functools
import itertools
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..lang import (
    ENGLISH,
    all_packs,
    detect,
    fold_accents,
    in_one_gender,
    in_third_person,
    normalize_space,
    not_utf8,
    of_the_user,
    pack,
    plain_apostrophes,
    says_contrast,
    sentences,
    tells_of_the_user,
    told_alike,
    with_apostrophes,
)
from ..lang import judge as meaning
from ..lang.grammar import as_typed_kept, guarded
from ..lang.text import longest_first
from ..vault.secrets import find_secret, find_secrets, masked, names_a_secret
from ..vault.values import NOT_IN_FRONTMATTER
from .request_facts import (
    _AND_WORDS,
    _ANY_CUE,
    _ANY_USER_SUBJECT,
    _ASKS_A_VALUE,
    _BACK_WORDS,
    _BARE_POSSESSIVE,
    _COURTESY_TAIL,
    _COURTESY_WORDS,
    _CUE_REACH,
    _DEICTIC,
    _DEICTIC_OPENINGS,
    _EMOJI_OPENING,
    _FILLER,
    _I,
    _MAX_CHARS,
    _NOTHING_AFTER,
    _OF_THEIR_GROUP,
    _OTHERS,
    _PASSING,
    _PLACE_LEADS,
    _POINTED,
    _SAYS_SOMETHING,
    _TASK_WORDS,
    _THAT_WORDS,
    _TODO_WORDS,
    _UNNAMED,
    _USER_GROUP,
    _USER_SUBJECT,
    _USER_WORDS,
    DIRECTIVES,
    FOR_A_SHORT_WHILE,
    FOR_A_WHILE,
    FOR_NOW_ONLY,
    GROUP_OPENING,
    ORDER_AFTER,
    PASSING_STATE,
    SAID_NOW,
    WRITTEN_AS_CODE,
    NotKept,
    Signal,
    _a_todo_word,
    _a_word_of_the_request,
    _as_said,
    _asked_after_a_story,
    _asks_by_its_verb,
    _ByItsWords,
    _cue_at,
    _cue_form,
    _cue_languages,
    _Doubt,
    _either_of,
    _ends_in_a_request,
    _first_cue,
    _for_now_only,
    _is_cue,
    _kept,
    _marks_after,
    _of_user_or_group,
    _only_a_tag,
    _past_the_scope,
    _rx,
    _says_nothing,
    _says_of_it,
    _says_only_what_for,
    _sentence,
    _statement,
    _task_refusal,
    _tells_of_remembering,
    _their_world,
    _theirs,
    _trailing_request,
    _trim,
    _unfinished,
    _what_to_do_with_it,
    _without_its_reason,
    _without_lead,
    _without_opening_aside,
    _without_task_tail,
    _without_trailing_request,
    _words_of,
    a_reason_to_you,
    refusal,
    speaks_to_you,
    task_tail,
    without_address,
)
from .request_shapes import (
    _ADDRESSEE,
    _ASIDE_END,
    _ASIDE_REACH,
    _ASKS_IF_REMEMBERED,
    _ATTACHED,
    _CUE_NOUNS,
    _DASHES,
    _LEAD_MOST,
    _LIST_ITEM,
    _ORDER_OPENERS,
    _POSSESSIVE_WORDS,
    _QUOTED,
    _SELF_WORDS,
    MayAsk,
    _a_place_before,
    _a_pronoun,
    _a_time_before,
    _announces_a_list,
    _aside,
    _asks_if_remembered,
    _asks_to_keep,
    _carries_its_object,
    _clause_spans,
    _points_ahead,
    _points_back_alone,
    _points_before,
    _quoted,
    _request_start,
    _requests_after_a_lead,
    _said_after,
    _said_of_someone,
    _unread,
    _with_its_aside,
    _without_request_aside,
    asking_tail,
    given_to_work_on,
    may_ask,
    why_after_a_request,
)
from .request_shapes import _names_the_user as _names_them  # the user or their group, by any word


class Judge(Protocol):
    """Reads a message by its meaning (``lang.judge``)."""

    def __call__(self, message: str) -> float:
        """The probability that ``message`` asks to keep something of the user's world
        rather than give an instruction for the task at hand."""
        ...

    def asks(self, clauses: Sequence[str]) -> list[float]:
        """Each clause's probability that it asks to keep what the rest of its message says."""
        ...

    def goes_on(self, sentence: str) -> float:
        """The probability that ``sentence``, said right after a kept request, is a detail of
        its fact rather than something else."""
        ...

    def secret(self, texts: Sequence[str]) -> list[float]:
        """Each text's probability that it gives the value of a secret said in words."""
        ...

    def passing(self, facts: Sequence[str]) -> list[float]:
        """Each fact's probability that it holds for the moment only ("I'm half asleep
        now"), not from now on ("I'm vegan now")."""
        ...


#: why a request the rules kept is not, when the judge reads its message as the task's
_BY_MEANING = "an instruction for the task at hand, by what the message says (not the user's world)"


#: "remember that X": X is what to keep (and may itself be a statement: "remember that I live in Lima")
REQUESTS: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (pack.code, rule, _rx(pattern)) for pack in all_packs() for rule, pattern in pack.signal_requests
)


#: a "sentence" longer than this is pasted material (a log, a file), not a fact said: no
#: pattern runs over it (over a 20 MB paste they took 10 s)
_MAX_SENTENCE = 2000
#: what a terminal paste leaves in a message (colour codes, NUL, backspaces): not words,
#: and what no memory file can hold; a tab or a newline stays
_TERMINAL_NOISE = re.compile(rf"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]|{NOT_IN_FRONTMATTER.pattern}")


#: what opens an instruction that lasts, in every pack ("always", "nunca", "sempre"):
#: "remember to always…" is one, not a to-do
_LASTING = _rx(r"(?:" + _either_of("lasting_words") + r")\b")
#: the most items of one list a request keeps
_LIST_MOST = 20


def explicit_signals(utterance: str) -> list[Signal]:
    """The facts a user's turn asks to keep, in the order it says them (often none)."""
    return read_requests(utterance)[0]


def not_kept_note(not_kept: NotKept) -> str:
    """How a report or a log names a request that is not kept."""
    said = not_kept.sentence
    if not_kept.reason == _SECRET_IN_WORDS:  # what the judge read as a secret is quoted nowhere
        return f"not remembered: a sentence not quoted here ({not_kept.reason})"
    if names_a_secret(said):  # no secret reaches a log, even one whose value reads as no secret
        return f"not remembered: a sentence that names a password or a code ({not_kept.reason})"
    return f"not remembered: {masked(said)[:80]!r} ({not_kept.reason})"


#: the most requests not kept one message names; the rest are counted in one more line (a
#: message of 5,000 to-dos wrote 5,000 lines to the hook's log)
_MOST_NOTES = 5


def not_kept_notes(not_kept: list[NotKept]) -> list[str]:
    """How a report or a log names the requests of one message that are not kept: each of
    the first few, then how many more."""
    unread = [n for n in not_kept if n.reason.startswith(_NOT_READ)]  # of the message, each said
    said = [n for n in not_kept if not n.reason.startswith(_NOT_READ)]
    notes = [not_kept_note(n) for n in said[:_MOST_NOTES]]
    if len(said) > _MOST_NOTES:
        notes.append(f"not remembered: {len(said) - _MOST_NOTES} more requests of the same message")
    return notes + [not_kept_note(n) for n in unread]


def read_requests(
    utterance: str, seconds: float | None = None, judge: Judge | None = None
) -> tuple[list[Signal], list[NotKept]]:
    """The facts a user's turn asks to keep, and the requests it makes that are not kept,
    each with its reason (``_read_requests``); a word of address said at a fact's start or
    end ("bro", "pô") is no word of it (``request_facts.without_address``)."""
    # a pasted block is no one's request wherever the reach cuts it (a fence that opened in
    # the part not read had closed in the tail read as one that opens)
    within, past = _within_reach(_without_code_blocks(utterance) if len(utterance) > READ_AT_MOST else utterance)
    found, declined = _read_requests(within, seconds, judge)
    if past:
        declined = declined + [NotKept(_unread_part(past), _PAST_REACH)]
    found = [f if (text := without_address(f.text, f.lang)) == f.text else replace(f, text=text) for f in found]
    # a request whose only word is one of address keeps nothing ("remember: dude", "lembra: mano")
    tags = [f for f in found if _only_a_tag(f.text)]
    if tags:
        declined += [NotKept(f.text, _NOTHING_AFTER) for f in tags]
        found = [f for f in found if f not in tags]
    found, declined = _for_a_while_only(found, declined, within)
    found, declined = _no_secret_in_words(found, declined, judge)
    return found, declined + _said_beside(within, found, declined)


#: why a sentence said with a kept request, that no fact kept holds, is named
BESIDE = "said with a request, but not read as part of what it keeps; the agent's remember tool can keep it"
#: the words that say nothing of a fact in any pack: its function words (folded)
_FUNCTION_WORDS = frozenset(fold_accents(w.casefold()) for p in all_packs() for w in p.function_words)
#: how many letters of a word tell it from another across a rewrite in the third person
#: ("corro" → "corre", "live" → "lives")
_STEM = 4
#: the fewest such words a sentence named beside a request says ("Yes.", "Keep going." say nothing)
_STEMS_LEAST = 2


def _said_beside(said: str, found: list[Signal], declined: list[NotKept]) -> list[NotKept]:
    """Each sentence of ``said`` that a request kept nothing of, named as not kept: "Remember
    that I don't fly. Any trip is by train or car." kept the first and dropped the second
    without a word, and the agent answered "noted" of both. Said only when a request was
    kept (a message that asks nothing names nothing), and not of a sentence that asks
    (its request was read), a question, a thanks or an order to the assistant."""
    if not any(map(_asked, found)):
        return []
    held = _stems(" ".join([*(f.text for f in found), *(n.sentence for n in declined)]))
    out = []
    for sentence in sentences(_not_said(said), detect(said)) if len(said) <= READ_AT_MOST else []:
        words = sentence.split()
        if (
            sentence.endswith("?")
            or (sentence.endswith("!") and not tells_of_the_user(sentence))  # "Rock on!", "Wow, Jon!"
            or any(map(_is_cue, words))
            or _said_to_the_chat(sentence)
            or _an_order_to_you(words)
        ):
            continue
        # what a lead announces after its colon is what was read ("consider this known: I don't fly")
        own = _stems(_past_a_directive(sentence.partition(":")[2] or sentence))
        if len(own) < _STEMS_LEAST or 2 * len(own & held) >= len(own):
            continue
        kind = find_secret(sentence) or ("a password or a code" if names_a_secret(sentence) else None)
        if kind is not None:  # never one the agent is told it may keep
            out.append(_secret_not_kept(sentence[:_MAX_CHARS], kind))
        else:
            out.append(NotKept(sentence[:_MAX_CHARS], BESIDE))
    return out


def _past_a_directive(sentence: str) -> str:
    """What ``sentence`` says past its "from now on" and a phrase of where or when ("going
    forward, in all our chats, I work nights": "I work nights"), as a request reads it."""
    match = next((m for _, _, pattern in DIRECTIVES if (m := pattern.match(sentence.strip()))), None)
    return _past_an_occasion(match.group("x")) if match else sentence


def _an_order_to_you(words: list[str]) -> bool:
    """Whether a sentence of ``words`` orders the assistant: it opens with a verb of the task
    past the function words and words of now before it ("Now refactor the parser.", "Ahora
    arregla el test"), or names the assistant among its first words ("Be concise in your
    answers.")."""
    first = next(
        (
            w
            for w in words
            if _first_word(w) not in _FUNCTION_WORDS
            and _first_word(w) not in _ORDER_OPENERS  # "please", "go ahead and"
            and not SAID_NOW.fullmatch(_first_word(w))
        ),
        "",
    )
    verb = _first_word(first)
    # a verb of a workflow ("rebase", "sube", "roda") orders where its language's third person
    # is another form ("rebases"); elsewhere only about a thing of the task: "Roda Unraid" tells
    workflow = verb in _BARE_ORDERS or (verb in _TASK_ORDERS and _TASK_WORDS.search(" ".join(words)) is not None)
    return verb in _TASK_IMPERATIVES or workflow or speaks_to_you(words)


#: the verbs of a workflow in every pack ("push", "rebase", "sube", "roda"; ``Pack.task_orders``),
#: and those of the packs whose third person marks its verb (``Pack.third_person_ending``:
#: English "rebases"), which opening a sentence can only order
_TASK_ORDERS = frozenset(fold_accents(w.casefold()) for p in all_packs() for w in p.task_orders)
_BARE_ORDERS = frozenset(
    fold_accents(w.casefold()) for p in all_packs() if p.third_person_ending for w in p.task_orders
)


def _stems(text: str) -> set[str]:
    """The first letters of each word of ``text`` that is no function word of a pack."""
    return {w[:_STEM] for w in _content_words(text, 3) if w not in _FUNCTION_WORDS}


def _for_a_while_only(found: list[Signal], declined: list[NotKept], said: str) -> tuple[list[Signal], list[NotKept]]:
    """``found`` less each fact a request kept that the message says holds for a while only
    (``Pack.for_a_while``), in words that are no part of any fact kept ("for the time being,
    remember I'm on the guest network", "…, tenlo presente mientras tanto") or that lead it
    ("For the time being the user is…"), or a span of hours or of this conversation anywhere
    ("…I'm tethering off my phone for the next hour"): named as not kept. "From now on",
    "desde hoy" and "today" say when a lasting fact began."""
    asked = [f for f in found if _asked(f)]
    if not asked or FOR_A_WHILE.search(fold_accents(said.casefold())) is None:
        return found, declined  # most messages: one search, no sentence split
    phrases = [
        m.group()
        for sentence in sentences(said)
        if not sentence.rstrip().endswith("?") and any(map(_is_cue, sentence.split()))
        for m in FOR_A_WHILE.finditer(fold_accents(sentence.casefold()))
    ]  # said in a sentence that asks to keep ("…? also a lunch idea for today" asks nothing)
    if not phrases:
        return found, declined
    facts = [fold_accents(f.text.casefold()) for f in found]
    outside = any(all(p not in fact for fact in facts) for p in phrases)
    held = [
        f
        for f, fact in zip(found, facts, strict=True)
        if f in asked and (outside or fact.startswith(tuple(phrases)) or FOR_A_SHORT_WHILE.search(fact) is not None)
    ]  # "…I'm on my phone for the next hour": a span of hours in a fact makes it passing wherever it is
    if not held:
        return found, declined
    return [f for f in found if f not in held], declined + [NotKept(f.text, FOR_NOW_ONLY) for f in held]


#: the most of one message the rules read: its first half and its last (a request said after
#: a paste is read), and what lies between is named as not read. A request is a sentence
#: or a list: a message longer than this is a paste (a log, a file, a dump), over which the
#: reading is linear and still long (a pasted 4 MB log took 90 s through ``ingest``, which
#: gives no seconds); 20,000 characters take about a third of a second
READ_AT_MOST = 20_000
#: how the reason of a part of a message no rule read opens
_NOT_READ = "not read:"
_PAST_REACH = f"{_NOT_READ} a long message is read for its first and last {READ_AT_MOST // 2:,} characters"
#: the most sentences of one message the rules read, the first half and the last (each costs
#: about .3 ms however short: 50,000 lines of one letter, 100 KB, took 14 s)
MOST_SENTENCES = 1_000
_PAST_SENTENCES = f"{_NOT_READ} a long message is read for its first and last {MOST_SENTENCES // 2:,} sentences"


def _within_reach(utterance: str) -> tuple[str, str]:
    """``utterance`` as the rules read it: its first and its last ``READ_AT_MOST`` / 2
    characters, each to a line's or a sentence's end (a sentence cut in two is read as two:
    "please do not | remember that I smoke" had kept that the user smokes), a paragraph's
    break between them; and what lies between ("" for most)."""
    if len(utterance) <= READ_AT_MOST:
        return utterance, ""
    half = READ_AT_MOST // 2
    head = max((m.end() for m in _A_BREAK.finditer(utterance, 0, half)), default=0)
    after = _A_BREAK.search(utterance, len(utterance) - half)
    tail = after.end() if after is not None else len(utterance)
    return f"{utterance[:head]}\n\n{utterance[tail:]}", utterance[head:tail]


#: where a line or a sentence ends, the break itself included
_A_BREAK = re.compile(r"\n|(?<=[.!?])[ \t]")


def _without_code_blocks(text: str) -> str:
    """``text`` with each fenced block a line break (``_not_said``'s first step)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # a bare carriage return ends a line too
    return _CODE_BLOCK.sub("\n", text) if "```" in text or "~~~" in text else text


def _unread_part(text: str) -> str:
    """How a note names a part of a message not read: by its size, never its words (a
    secret no rule reads may be among them)."""
    return f"[{len(text):,} characters not read]"


#: why a fact is not kept when the judge reads a secret's value in it that no rule found
_SECRET_IN_WORDS = (
    "it may give a secret in words (a password, a code, a security answer), which is never kept; "
    "say it again without the value to keep the rest"
)


def _no_secret_in_words(
    found: list[Signal], declined: list[NotKept], judge: Judge | None
) -> tuple[list[Signal], list[NotKept]]:
    """``found`` less each fact the judge reads as giving a secret's value in words that no
    rule of ``vault.secrets`` found ("la del router la cambié a elefanterosa"): named as not
    kept. A fact a rule finds one in is the write's to refuse, as it is now."""
    doubted = [f for f in found if find_secret(f.text) is None]
    if judge is None or not doubted:
        return found, declined
    held = {
        id(f) for f, p in zip(doubted, judge.secret([f.text for f in doubted]), strict=True) if p >= meaning.SECRET_AT
    }
    if not held:
        return found, declined
    return [f for f in found if id(f) not in held], declined + [
        NotKept(f.text, _SECRET_IN_WORDS) for f in found if id(f) in held
    ]


def _read_requests(
    utterance: str, seconds: float | None = None, judge: Judge | None = None
) -> tuple[list[Signal], list[NotKept]]:
    """The facts a user's turn asks to keep, and the requests to remember it makes that are
    not kept, each with its reason ("remember to run the linter": a to-do for the task).
    Read for ``seconds`` at most, when given: what is left is named as not read (no text
    holds a daemon's thread for longer, whatever a rule turns out to cost).

    Sentences end where ``lang.sentences`` says ("my landlord is Mr. Okafor" is one), and a
    sentence that goes on about what a request named ("my wife's name is Ana. She is a
    nurse.") is part of that request: the request is kept whole. A request said after its
    fact ("My landlord is Mr. Patel. Remember it please", "…, guarda isso na memória") keeps
    what was said before it.

    ``judge``, when given, reads the meaning of a message it can read whole where the rules
    are in doubt: what they refused by words of the task alone, and what they kept
    (``_judged``); and a sentence after a kept request that no word of it joins, kept with
    it when the judge reads it as a detail of its fact (``_gone_on``)."""
    where = not_utf8(utterance)
    if where is not None:  # lone surrogates from a JSON escape: no rule can read it, nothing can write it
        return [], [NotKept(utterance[:_MAX_CHARS], f"{_NOT_READ} the text is not UTF-8 ({where})")]
    deadline = None if seconds is None else time.monotonic() + seconds  # the whole reading's, not one stage's
    # "I’m", as phones type it, and "im", as chat does, are the "I'm" every rule reads
    said = _past_a_lasting_scope(
        _as_written(with_apostrophes(plain_apostrophes(normalize_space(_not_said(utterance)))).strip(), deadline)
    )
    given = given_to_work_on(said)
    if given is not None:  # "Summarize this email:\n…", "Sam wrote: …": not the user's request
        return _past_a_given_text(said, given, deadline, judge)
    if judge is not None and len(said) <= _JUDGED_CHARS:
        said = _tail_read_plainly(said, judge)
    listed = _a_list_then_its_request(said, judge if len(said) <= _JUDGED_CHARS else None)
    if listed is not None:  # "- OS: Fedora 40\n- shell: fish\nsave all of this about me"
        found, declined, may_go_on = _read_by_rules(listed[0], seconds, listed[1], deadline)
    else:
        found, declined, may_go_on = _read_by_rules(said, seconds, deadline=deadline)
    if judge is None or len(said) > _JUDGED_CHARS:  # the judge decides only what it reads whole
        return found, declined
    doubts = [n.would_keep for n in declined if isinstance(n.would_keep, Signal)]
    read = _past_an_asking_lead(said, found + doubts, judge, seconds, deadline)
    if read is not None:
        found, declined, may_go_on = read
    found = _gone_on(found, may_go_on, judge)
    found, declined = _of_the_moment(found, declined, judge)
    if any(map(_asked, found)) or any(n.would_keep for n in declined):
        return _judged(found, declined, judge(said), judge)
    if not found and not declined:
        return _asked_in_words_unread(said, judge, seconds)
    if found and all(n.reason == ORDER_AFTER for n in declined):  # no request refused
        return _without_asking_tail(said, found, judge), declined
    return found, declined


#: why what a text given to work on asks is not kept
_GIVEN_TEXT = "a text given to work on, or someone else's words: not the user's own request"


def _past_a_given_text(
    said: str, given: tuple[int, int], deadline: float | None, judge: Judge | None
) -> tuple[list[Signal], list[NotKept]]:
    """What a message that gives a text to work on (``given``: its span, ``request_shapes.
    given_to_work_on``) asks to keep: nothing of the text, which is named when the rules
    would have read a request in it ("Summarize this email:\nHi Bob, remember that I moved
    to Denver…" had replaced the user's own home), and what the user says after a quoted
    text, read as a message of its own."""
    start, end = given
    text = said[start:end]
    seconds = None if deadline is None else max(0.0, deadline - time.monotonic())
    found, declined, _ = _read_by_rules(text, seconds, deadline=deadline)
    if found or declined:
        named = [NotKept(text[:_MAX_CHARS], _GIVEN_TEXT)]
    else:  # what the whole names, nothing of it kept ("O Tiago perguntou: lembra que…?": his question)
        named = _read_by_rules(said, seconds, deadline=deadline)[1]
    after = said[end:].lstrip(" .,;:!?—–-")
    if not after:
        return [], named
    found, declined = _read_requests(after, seconds, judge)
    return found, named + declined


#: the fewest items a list said before the request that asks to keep it holds
_LIST_LEAST = 2


def _a_list_then_its_request(said: str, judge: Judge | None) -> tuple[str, bool] | None:
    """A list the user wrote first and then asked, on the line after it, to keep ("- distro:
    Arch\n- WM: i3\nese es mi setup de siempre, guárdalo"), as the rules read a list a request
    announces: the plainest request of the last line's language, a colon, the items; with
    whether that line says the items are the user's ("…about me"). The line asks when the
    rules read it as a request of what came before it (``_trailing_request``), or when it
    holds a word of keeping and the judge of asking reads it so (``ASKS_KEEP``: "esse é meu
    ambiente de sempre, memoriza tudo"). None for any other message: a list then a question
    or an order ("- a\n- b\nfix these before merging") asks nothing kept."""
    lines = [line.strip() for line in said.split("\n") if line.strip()]
    if len(lines) <= _LIST_LEAST or not all(_LIST_ITEM.match(line) for line in lines[:-1]):
        return None
    last = _without_question_tag(lines[-1])  # "…, dale?", "…, tá?": it says, it does not ask
    words = last.rstrip(" .!").split()
    if _LIST_ITEM.match(last) or not words or last.endswith("?"):
        return None
    asks = _trailing_request(words) is not None or (
        judge is not None and _first_cue(words, len(words)) is not None and judge.asks([last])[0] >= meaning.ASKS_KEEP
    )
    language = pack(detect(last) or detect(said) or ENGLISH) or pack(ENGLISH)
    if not asks or language is None or not language.plain_request:
        return None
    return f"{language.plain_request}:\n" + "\n".join(lines[:-1]), _names_the_user(last) or _names_them(last)


def _past_a_lasting_scope(said: str) -> str:
    """A message past the phrase it opens with that says it is for every conversation ("in
    all our future chats, remember that…", "en todas nuestras conversaciones, recuerda
    que…"): the request that follows is read as said alone, and no fact keeps the phrase.
    A phrase with no request after it is the request, and stays; so does one for this
    conversation only, to be read as such (``FOR_NOW_ONLY``)."""
    rest = _past_the_scope(said)
    if rest == said or _for_now_only(said[: len(said) - len(rest)].split(), -1) or not _asks_to_keep(rest):
        return said  # "Para futuras conversas: sou diabético": the phrase is the request
    return rest


def _tail_read_plainly(said: str, judge: Judge) -> str:
    """``said`` with a last clause that asks to keep what came before it in words no pack
    holds whole ("…, me gustaría que lo recordaras", "…. Importas-te de memorizar?";
    ``request_shapes.asking_tail``) said as the plainest request of its language that points
    back ("…, recuérdalo"), when the judge of asking reads it so (``ASKS_BACK``): the rules
    then keep what they keep of that request, its sentences and its refusals. The clause's
    lead had been written into the fact ("…, me gustaría"), or nothing was kept."""
    tail = asking_tail(said)
    if tail is None:
        return said
    language = pack(detect(tail.clause) or detect(said) or ENGLISH) or pack(ENGLISH)
    if language is None or not language.plain_back_request or judge.asks([tail.clause])[0] < meaning.ASKS_BACK:
        return said
    return said[: said.rfind(tail.clause)] + language.plain_back_request


def _past_an_asking_lead(
    said: str, read: list[Signal], judge: Judge, seconds: float | None, deadline: float | None
) -> tuple[list[Signal], list[NotKept], list[tuple[Signal, str]]] | None:
    """What the rules keep of ``said`` read as the plainest request of its language before
    its first colon, when nothing was kept of it as said and the lead before that colon holds
    a word of keeping that the judge of asking reads as a request ("Toma nota, que luego se
    me olvida: uso Arch Linux…", "ugh I always forget this myself so you hold it: my car
    is…"): the reason or the story said in the lead had been read as the fact, or as a story
    of forgetting, and nothing was read, or the reason was read as the fact's opening
    ("Apúntalo, que siempre se me olvida: calzo un 43" → "Siempre se me olvida: calzo…").
    Only a lead that says why it asks or tells of forgetting is read so: what else a lead
    says may be what it keeps ("for now", "about this PR"). What is kept is judged as any
    request is. None when no such lead, or nothing kept."""
    lead, colon, rest = said.partition(":")
    words = lead.split()
    if not colon or not rest.strip() or "\n" in lead or not 1 < len(words) <= _COLON_LEAD_MOST:
        return None
    told_of = refusal(lead)
    if not any(_cue_at(words, i) for i in range(len(words))) or told_of not in _A_LEAD_MAY_BE:
        return None
    if refusal(rest.strip()) is not None or _QUOTED_WORDS.search(rest):
        return None  # what follows is a story, a question, someone's words: no plainer request keeps it
    reason = lead[len(_without_its_reason(lead)) :].strip(" ,")
    if told_of is None and not reason:
        return None  # a lead's other words say what it keeps ("for now", "of this PR", "my wifi's")
    told = fold_accents(" ".join(reason.split()[1:]).casefold())  # less its "que", "because"
    if read and not (told and all(told in fold_accents(f.text.casefold()) for f in read)):
        return None  # read as said (kept, or a doubt the judge settles): the reason is no part of it
    language = pack(detect(said) or ENGLISH) or pack(ENGLISH)
    if language is None or not language.plain_request or judge.asks([lead])[0] < meaning.ASKS_KEEP:
        return None
    remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
    read_plainly = _read_by_rules(f"{language.plain_request}:{rest}", remaining, deadline=deadline)
    return read_plainly if read_plainly[0] else None


#: a quotation's mark: what follows a lead in quotes is someone's words
_QUOTED_WORDS = re.compile('["“”«»]')
#: the most words of a lead before a colon read as asking (``_past_an_asking_lead``)
_COLON_LEAD_MOST = 12
#: what the packs may read in such a lead: nothing, a question's mark, a story of forgetting
#: ("I always forget this myself so you hold it"): the judge of asking says whether it asks
_A_LEAD_MAY_BE = (None, "question", "tells-of-remembering")


def _without_asking_tail(said: str, found: list[Signal], judge: Judge) -> list[Signal]:
    """``found``, the facts a message tells without asking (a statement the rules read: "I
    prefer window seats on flights, …"), less a tail that asks to keep them in words no
    rule reads ("…, hold that for the future"), when the judge of asking reads it so
    (``ASKS_NAME``): it had been written as part of the fact. What is left was asked."""
    tails = [p.clause for p in may_ask(said) if p.tail and tells_of_the_user(p.rest)]
    ends = [(f, t) for f in found for t in tails if _ends_with(f.text, t)]
    if not ends:
        return found
    asks = judge.asks([t for _, t in ends])
    cut = {f: t for (f, t), p in zip(ends, asks, strict=True) if p >= meaning.ASKS_NAME}
    return [_cut_tail(f, cut[f]) if f in cut else f for f in found]


def _ends_with(fact: str, tail: str) -> bool:
    return fact.rstrip(" .!").casefold().endswith(tail.rstrip(" .!").casefold())


def _cut_tail(fact: Signal, tail: str) -> Signal:
    text = fact.text.rstrip(" .!")
    kept = text[: len(text) - len(tail.rstrip(" .!"))].rstrip(" ,;—–-")
    return replace(fact, text=kept, rule=f"asked-by-meaning+{fact.rule}")


def _read_by_rules(
    said: str, seconds: float | None, of_the_user: bool = False, deadline: float | None = None
) -> tuple[list[Signal], list[NotKept], list[tuple[Signal, str]]]:
    """What the rules read of ``said`` (a message as written, its idioms of asking read as
    the requests they ask): its facts, its requests not kept with why, and the sentences
    that may go on about a fact kept just before them (``_Reading.may_go_on``).
    ``of_the_user``: a list announced is the user's, as its lead said ("things to know
    about me:", read as the plainest request). Read for ``seconds`` from now, or until
    ``deadline`` when the reading began before (the whole message's)."""
    if deadline is None and seconds is not None:
        deadline = time.monotonic() + seconds
    reading = _Reading(of_the_user=of_the_user)
    reading.language = detect(said) if said else None
    parts = _sentences_of(said, reading.language, deadline)
    if len(parts) > MOST_SENTENCES:  # a pasted log of short lines: each sentence costs its reading
        half = MOST_SENTENCES // 2
        reading.declined.append(NotKept(_unread_part(" ".join(parts[half:-half])), _PAST_SENTENCES))
        parts = parts[:half] + parts[-half:]
    _read_all(reading, parts, seconds, deadline)
    found, declined = reading.found, reading.declined + [NotKept(s, _UNCLEAR, _unread(s)) for s in reading.unclear]
    may_go_on = [(found[n], sentence) for n, sentence in reading.may_go_on if n < len(found)]
    found, declined = _of_the_work_at_hand(found, declined, said)
    declined = declined + _left_out_of_its_fact(parts, found, declined, task_tail, ORDER_AFTER)
    return found, declined + _left_out_of_its_fact(parts, found, declined, _reason_after, _WHY_ASKED), may_go_on


#: the most words a request before a spaced dash has (``_SPACED_DASH``)
_DASHED_REQUEST_MOST = 9


def _dash_after_pointing_back(sentence: str) -> int | None:
    """Where what follows the dash begins, when ``sentence`` opens with a request that points
    at what was said before it and a spaced dash ends it: "keep that in memory — I'll be
    asking about it", "Recuérdalo – luego te pregunto", or any request before a dash and a
    question ("Recuerda esto — ¿qué le regalo?": a question is never what a request keeps).
    None for a dash that opens an aside ("remember that — honestly — my dog is Rex")."""
    dash = _SPACED_DASH.search(sentence)
    if dash is None or _SPACED_DASH.search(" ".join(sentence[dash.end() :].split()[:5])) is not None:
        return None
    words = sentence[: dash.start()].split()
    cue = _first_cue(words, len(words)) if 0 < len(words) <= _DASHED_REQUEST_MOST else None
    if cue is None:
        return None
    # the back word after the request's word, or before it where that word comes last
    # ("keep *that* in memory —": the word of keeping is "memory")
    back = any(
        fold_accents(w.strip(",.!?").casefold()) in _BACK_WORDS and _points_back_alone(w)
        for w in words[max(0, cue - 3) :]
    )
    asked = sentence.rstrip().endswith("?")
    return dash.end() if back or _carries_its_object(words[cue]) or asked else None


_AFTER_POINTING_BACK = "said after a request that keeps what was said before it"
#: why a reason said after a request that points back is not kept
_WHY_ASKED = "why it was asked, said after a request that keeps what was said before it"


def _names_the_user(said: str) -> bool:
    """Whether ``said`` names the user as what a list it announces is about ("these about
    *me*", "datos *míos*": ``Pack.self_words``)."""
    return bool(_SELF_WORDS & {w.strip(",.:!?¿¡").casefold() for w in said.split()})


def _left_out_of_its_fact(
    sentences: list[str], found: list[Signal], declined: list[NotKept], tail_of: Callable[[str], str | None], why: str
) -> list[NotKept]:
    """Each part said after a kept fact that the fact was cut before (``tail_of`` a sentence:
    an order for the task, ``task_tail``: "remember I'm on call and restart the worker if it
    stalls"; why the assistant will need it, ``_reason_after``: "remember that my mom is Helen,
    because you'll help me write to her"), named as not kept with ``why``: a request is kept
    whole or what is left of it is said out loud. A part is one left out when none of its words
    is in a fact kept of its sentence, and something of that sentence was."""
    if not found:  # nothing kept: nothing was cut
        return []
    named = " ".join(n.sentence for n in declined).casefold()
    out: list[NotKept] = []
    for sentence in sentences:
        part = tail_of(sentence)
        if part is None or part.casefold() in named:
            continue
        before = _content_words(sentence.split(part, 1)[0], 3)
        own = _content_words(part) - before
        of_it = [f for f in found if _content_words(f.text, 3) & before]
        if own and of_it and not any(own & _content_words(f.text) for f in of_it):
            out.append(NotKept(part, why))
    return out


def _reason_after(sentence: str) -> str | None:
    """The clause after ``sentence``'s last comma when it is why the assistant will need the
    fact before it ("…, because you'll help me write to her"), else None."""
    cut = sentence.rfind(",")
    reason = sentence[cut + 1 :].strip(" .!") if cut > 0 else ""
    return reason if a_reason_to_you(reason) else None


def _content_words(text: str, shortest: int = 4) -> set[str]:
    """The words of ``text`` of ``shortest`` letters or more, folded: what tells two texts
    apart (four: not an article or a joining word; three: a name such as "zsh" too)."""
    return {w for w in re.findall(r"[^\W\d_]+", fold_accents(text.casefold())) if len(w) >= shortest}


#: how many sentences in a row after a kept request the judge may join to its fact
_GOING_ON_MOST = 2


def _gone_on(found: list[Signal], may_go_on: list[tuple[Signal, str]], judge: Judge) -> list[Signal]:
    """``found`` with each fact joined by the sentences after it that the judge reads as going
    on about it ("Remember I take sertraline. My psychiatrist, Dr. Okafor, may change the
    dose."), in order, up to the first it does not: no word of them said so, and a request
    is kept whole."""
    gone_on: dict[int, list[str]] = {}
    stopped: set[int] = set()
    for fact, sentence in may_go_on:
        if id(fact) in stopped:
            continue
        if judge.goes_on(sentence) >= meaning.GOES_ON:
            gone_on.setdefault(id(fact), []).append(sentence)
        else:
            stopped.add(id(fact))
    out = []
    for fact in found:
        for sentence in gone_on.get(id(fact), []):
            fact = _joined(fact, sentence)
        out.append(fact)
    return out


#: why a message the judge read as asking, in words no rule reads, is not kept
_ASKED_UNREAD = (
    "it may ask to keep this in words vmem does not read, so it is not kept; the agent's remember tool can keep it"
)


#: why a message the judge read as asking, of what reads as the work at hand, is not kept
_ASKED_OF_THE_TASK = (
    "it may ask to keep this, but it reads as about the work at hand, so it is not kept; "
    "the agent's remember tool can keep it"
)


#: where a sentence ends, as far as its last mark says: a question's is "?"
_SENTENCE_MARK = re.compile(r"[.!?]++(?=\s|$)")


def _asks_first(said: str) -> bool:
    """Whether the first sentence of ``said`` is a question ("…: what's my wife's name?"):
    what a lead asks to keep is never a question."""
    mark = _SENTENCE_MARK.search(said)
    return mark is not None and "?" in mark.group()


def _secret_not_kept(said: str, kind: str) -> NotKept:
    """``said`` named as not kept for the secret of ``kind`` it holds."""
    return NotKept(said, f"it holds {kind}, which is never kept")


def _announces_in_sentence(part: MayAsk) -> bool:
    """Whether a lead before a comma is what announces the rest of its sentence: it holds
    none of the user's own words ("For all our future convos, my name's Dave and…"); "A
    partir de agora vou na academia todo dia, me deseja sorte!" holds its fact in the lead
    (its language's third person rewrites it), and the rest is chat."""
    lang = detect(f"{part.clause} {part.rest}") or ENGLISH
    return in_third_person(part.clause, lang) == part.clause


def _of_them_or_their_group(said: str) -> bool:
    """Whether ``said`` tells of the user, or of their group in its first words ("O nosso
    servidor de staging é…", "ok so our main project is…"): what a request in words no
    rule reads may ask to keep; whether it is of the work at hand is the judge's to say."""
    return tells_of_the_user(said) or bool(_USER_GROUP.match(said)) or _of_their_group(said)


def _a_verb_of_keeping(clause: str, said: str) -> bool:
    """Whether ``clause`` holds a word of keeping of the language of ``said``, its message,
    that is no noun ("deixa *salvo*", "worth keeping on *file*"): "Talk to you *later*!"
    asks nothing, nor does "…my favorite *memories*" (a Portuguese stem's)."""
    lang = detect(said) or ENGLISH
    return any(lang in _cue_languages(w) and not _CUE_NOUNS.fullmatch(_cue_form(w)) for w in clause.split())


def _asked_in_words_unread(said: str, judge: Judge, seconds: float | None) -> tuple[list[Signal], list[NotKept]]:
    """A message no rule read a request in, read by its meaning: when a short lead or tail
    of it asks to keep what the rest tells of the user ("can this stick across our chats?
    I'm training for…", "…, tenlos a mano para otras veces"; ``request_shapes.may_ask``),
    by the judge of asking at ``ASKS_NAME`` and of the user's world at ``KEEP``, it is named
    as a request not kept, so the agent knows. When the judge is surer (``ASKS_KEEP``,
    ``KEEP_UNREAD``) of a lead that announces the rest ("Para la próxima vez que hablemos:
    vivo en Valparaíso"), or surer still of a tail (``ASKS_KEEP_TAIL``: "mi novio se llama
    Andrés, para cuando te hable de él"), the rest is read by the rules as the plainest request of its
    language would ask it (``Pack.plain_request``: "recuerda esto: vivo en Valparaíso"), so
    what they keep of a request, its clauses, its sentences and its refusals, they keep of
    this one. A tail such as "Look at this!" asks nothing of what came before; a rest that
    asks a question keeps nothing; a message of no such shape loads no model."""
    parts = [
        p
        for p in may_ask(said)
        if not _asks_first(p.rest)
        and (_of_them_or_their_group(p.rest) or _names_a_thing_first(p.rest))
        and refusal(p.clause) in (None, "question")
        and not any(q.match(p.clause.lstrip("¿¡")) for q in _ASKS_IF_REMEMBERED)
    ]  # "…. I will always remember that day", "Do you remember that…?": the packs' refusals
    # ("¿me lo guardas?" is a question that asks; "¿te acordás de que…?" asks whether it was kept)
    if not parts:
        return [], []
    asks = judge.asks([part.clause for part in parts])
    if max(asks) < meaning.ASKS_NAME:
        return [], []
    world = judge(said)
    if world < meaning.KEEP:
        # asked, but of the work at hand as the judge of meaning reads it: named, not kept
        # ("…, fica a saber daqui para a frente" after a staging host had been passed over)
        return [], ([NotKept(said, _ASKED_OF_THE_TASK)] if max(asks) >= meaning.ASKS_KEEP else [])
    secrets = find_secrets(said)
    a_list = any(part.announces and _LIST_ITEM.match(part.rest.lstrip()) for part in parts)
    if secrets and not a_list:  # the judge alone read it: none of it is kept
        return [], [_secret_not_kept(said, secrets[0].kind)]
    # of the tails, only the last clause asks: a longer one holds more than its asking ("…, ri-te
    # de mim, pra quando esse dia chegar": an order, then when)
    last = min((part for part in parts if part.tail), key=lambda part: len(part.clause), default=None)
    sure = [
        part
        for part, p in zip(parts, asks, strict=True)
        if (p >= meaning.ASKS_KEEP and part.announces)
        or (p >= meaning.ASKS_KEEP_IN_SENTENCE and part.in_sentence and not part.tail and _announces_in_sentence(part))
        or (p >= meaning.ASKS_KEEP_TAIL and part is last)
        or (p >= meaning.ASKS_KEEP_WORDED_TAIL and part is last and _a_verb_of_keeping(part.clause, said))
    ]
    sure.sort(key=lambda part: part.tail)  # a lead first
    language = (pack(detect(sure[0].rest) or detect(said) or ENGLISH) or pack(ENGLISH)) if sure else None
    request = language.plain_request if language is not None else ""
    if sure and request and world >= meaning.KEEP_UNREAD:
        rest = sure[0].rest.lstrip()
        # a list the lead announces is read as the list a request announces, the user's
        # when the lead said so ("things to know about me going forward:\n- …")
        listed = _LIST_ITEM.match(rest) is not None
        asked = f"{request}:\n{rest}" if listed else f"{request}: {sure[0].rest}"
        found, declined, _ = _read_by_rules(asked, seconds, listed and _names_the_user(sure[0].clause))
        # a list's items are each their own: one that holds a secret is named, the others kept
        values = [said[secret.start : secret.end] for secret in secrets]
        held = [f for f in found if find_secret(f.text) is not None or _holds_any(f.text, values)]
        declined += [_secret_not_kept(f.text, secrets[0].kind if secrets else "a secret") for f in held]
        found = [f for f in found if f not in held]
        if found:
            return [replace(f, rule=f"asked-by-meaning+{f.rule}") for f in found], declined
    if secrets:
        return [], [_secret_not_kept(said, secrets[0].kind)]
    return [], [NotKept(said, _ASKED_UNREAD)]


#: a thing of the task pointed at as the one at hand ("on *this repo*", "en *este PR*",
#: "para *este cambio*"), in every pack (``Pack.demonstratives``, ``Pack.task_words``)
_THIS_WORK = re.compile(
    rf"\b(?:{_words_of('demonstratives')})\s+(?:\w+\s+)?(?:" + _either_of("task_words") + r")\b",
    _I,
)
_AT_HAND = "about the work at hand (a thing of the task it points at), not the user's world"


def _of_the_work_at_hand(found: list[Signal], declined: list[NotKept], said: str) -> tuple[list[Signal], list[NotKept]]:
    """``found`` less the facts a message asks to keep about the work at hand: a fact that
    names a thing of the task, in a message that points at one as the one at hand ("i always
    run make lint before committing on this repo, do the same", "para este cambio ten en
    cuenta que siempre hago rebase"). Each is named in doubt: a judge of the message's
    meaning may keep it (``_judged``), as one refused by its words of the task alone."""
    if not found or _THIS_WORK.search(said) is None:
        return found, declined
    doubted = [f for f in found if _asked(f) and _TASK_WORDS.search(f.text)]
    if not doubted:
        return found, declined
    return [f for f in found if f not in doubted], declined + [NotKept(f.text, _AT_HAND, f) for f in doubted]


def _as_written(said: str, deadline: float | None = None) -> str:
    """``said`` with what each pack reads as written ("im" → "I'm": ``Pack.as_written``) and
    its idioms of asking as the request they ask ("hang on to that" → "remember that"); past
    ``deadline``, no more idioms (over a pasted 240 KB they took a second: the reading that
    follows names what it has no time for as not read)."""
    for p in all_packs():
        if p.as_written is not None:
            said = p.as_written(said)
    for pattern, request in _IDIOMS:
        if deadline is not None and time.monotonic() > deadline:
            break
        said = pattern.sub(request, said)
    return said


#: each pack's idioms of asking (``Pack.request_idioms``), compiled
_IDIOMS = tuple(
    (re.compile(pattern, re.I | re.M), request) for p in all_packs() for pattern, request in p.request_idioms
)


#: where a question begins inside a sentence that ends in "?": after a comma or a join (and
#: an aside: "and also", "y de paso"), at a "¿", a word that asks or a request's asking
#: ("…, and how do I rebase?", "… y ¿cómo…?", "…, can you fix the test?"), in every pack
_ASKED_AFTER = (
    r"(?:,\s*+(?:(?:" + "|".join(a for p in all_packs() for a in p.asides) + r")\s*+,?\s*+)?"
    r"|(?<!\s)\s++(?:" + "|".join(a for p in all_packs() for a in p.asides) + r")\s*+,?\s*+|(?<!\s)\s++(?=¿))"
)
_QUESTION_AFTER = _rx(
    _ASKED_AFTER + rf"(?=¿|(?:{_words_of('interrogatives')}|{_words_of('polite_requests')})" + r"(?![\w'’]))"
)
#: the same for a sentence with no question mark: only where the assistant is asked to do
#: something ("…, and can you write a poem about her")
_REQUEST_OF_THE_ASSISTANT = _rx(_ASKED_AFTER + rf"(?=(?:{_words_of('polite_requests')})" + r"(?![\w'’]))")


def _apart_from_its_question(sentence: str) -> list[str]:
    """A request and a question asked in one sentence, read apart: "remember that my gym is
    Ironworks, and how do I rebase?" was refused whole as a question (its mark ends the
    sentence), and "can you save that my gym is Ironworks and also what time is it?" kept
    the question in the fact; so did a request of the assistant with no question mark
    ("…, and can you write a poem about her"). Split only where what comes before the
    question is a request kept on its own, or one that points back at what was said before
    it ("I don't eat pork. Please keep that in mind, and could you suggest a dinner?"); else
    the sentence as it was."""
    if len(sentence) > _MAX_SENTENCE:
        return [sentence]
    question = sentence.rstrip().endswith("?")
    asked = _QUESTION_AFTER if question else _REQUEST_OF_THE_ASSISTANT
    for split in asked.finditer(sentence):
        head = sentence[: split.start()].rstrip(" ,")
        if head and (_kept_alone(head) or _trailing_request(head.split()) is not None):
            return [head, sentence[split.end() :]]
    dash = _last(_SPACED_DASH.finditer(sentence)) if question else None
    if dash is not None:  # "remember that my sister lives in Leeds — do you know any good restaurants there?"
        head = sentence[: dash.start()].rstrip(" ,")
        if head and _kept_alone(head):
            return [head, sentence[dash.end() :]]
    return [sentence]


#: a dash with a space on each side ("…in memory — I'll…", "Recuérdalo – …", "… -- …"), where
#: a question may follow a request whatever word it opens with
_SPACED_DASH = re.compile(r"(?<!\s)\s++(?:[—–]|-{1,2})\s++")


def _last(matches: Iterator[re.Match[str]]) -> re.Match[str] | None:
    last = None
    for last in matches:  # noqa: B007
        pass
    return last


def _asked_after_the_fact(sentence: str) -> str | None:
    """What ``sentence`` says before the task said after it, when only that task asks ("write
    down that my standup is at 9:30, then help me write a cron…?", "lembra que o meu voo é dia
    3 e depois me diz o que levar?"), else None."""
    tail = task_tail(sentence)
    at = sentence.rfind(tail) if tail else -1
    before = sentence[:at].rstrip(" ,;") if at > 0 else ""
    return before if before and refusal(before) is None else None


def _kept_alone(sentence: str) -> bool:
    """Whether ``sentence``, read as a message of its own, keeps a fact."""
    reading = _Reading()
    reading.sentence(sentence, "")
    return bool(reading.found)


#: the words a request is asked with, spelt right, by their first letter (``Pack.request_verbs``)
_REQUEST_VERBS: dict[str, tuple[str, ...]] = {
    first: tuple(sorted({v for p in all_packs() for v in p.request_verbs if fold_accents(v)[0] == first}))
    for first in {fold_accents(v)[0] for p in all_packs() for v in p.request_verbs}
}
#: a word that may be one of them mistyped: letters (and a hyphen), four or more
_MAYBE_MISTYPED = re.compile(r"(?<![\w@./-])[^\W\d_][\w-]{3,13}(?![\w@./-])")


def _typos_mended(sentence: str) -> str:
    """``sentence`` with a request's word typed close to how it is spelt read as it is
    ("rememebr that my daughter's school is…", "rember my dog's name is…", "lemrba que…"):
    they were dropped without a word. A word is mended when no cue reads it, it opens with
    the same letter as a request's word and is that word with one letter wrong, missing,
    added or two swapped, or with two letters missing ("rember"); a name (capitalized but
    first) is left as it is. "member", "renumber", "reminder" are none."""

    def mended(m: re.Match[str]) -> str:
        word = m.group()
        if m.start() and word[0].isupper():
            return word
        if not _glue_after().match(sentence, m.end()):  # "Rember told me…": a name, not a request
            return word
        folded = fold_accents(word.casefold())
        verbs = _REQUEST_VERBS.get(folded[0], ())
        if not verbs or _ANY_CUE.fullmatch(folded):
            return word
        for verb in verbs:
            if _close(folded, fold_accents(verb)):
                return verb.capitalize() if word[0].isupper() else verb
        return word

    return _MAYBE_MISTYPED.sub(mended, sentence) if len(sentence) <= _MAX_SENTENCE else sentence


@functools.cache
def _glue_after() -> re.Pattern[str]:
    """What follows a request's word: the end, a mark, a "that", a pointer, or the user."""
    return re.compile(
        r"\s*+(?:$|[,:;.!?—–-]|(?:"
        + "|".join(re.escape(w) for w in sorted(_THAT_WORDS | _BACK_WORDS | _TODO_WORDS | _SELF_WORDS))
        + "|"
        + "|".join(p.user_opening for p in all_packs() if p.user_opening)
        + r")(?![^\W_]))",
        _I,
    )


def _close(typed: str, word: str) -> bool:
    """Whether ``typed`` is ``word`` with one edit (a letter wrong, missing or added, or two
    swapped), or with two letters missing, or its consonants alone as chat writes it
    ("rmbr"); the same word is not."""
    if len(typed) >= 4 and typed == _consonants(word) and _consonants(typed) == typed:
        return True
    if typed == word or abs(len(typed) - len(word)) > 2 or len(word) < 6:
        return False
    if len(typed) == len(word) - 2:
        it = iter(word)
        return all(c in it for c in typed)  # a subsequence: letters only dropped
    return _one_edit(typed, word)


#: the vowels of every pack's words, accents folded (``Pack.vowels``)
_VOWELS = frozenset(c for p in all_packs() for c in p.vowels)


def _consonants(word: str) -> str:
    """``word`` without its vowels, a letter said twice in a row once ("remember" → "rmbr")."""
    kept = [c for c in word if c not in _VOWELS]
    return "".join(c for i, c in enumerate(kept) if not i or c != kept[i - 1])


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one edit (optimal string alignment distance 1)."""
    if abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :] or (a[i : i + 2] == b[i : i + 2][::-1] and a[i + 2 :] == b[i + 2 :])
    return a[i:] == b[i + 1 :] if len(a) < len(b) else a[i + 1 :] == b[i:]


def _sentences_of(said: str, language: str | None, deadline: float | None = None) -> list[str]:
    """The sentences of a message as the reader takes them: a request's word with a slip
    mended, a request and a question in one sentence apart (past ``deadline``, as split)."""
    if not said:
        return []
    split = sentences(said, language)
    if deadline is not None and time.monotonic() > deadline:
        return split  # read no further: ``_read_all`` names them as not read
    return _named_then_told(
        [part for s in split for part in _apart_from_its_question(_typos_mended(s))], language, deadline
    )


#: the most words of a thing a request names before the sentence after it tells its value
_NAMED_MOST = 6


def _named_then_told(parts: list[str], language: str | None, deadline: float | None = None) -> list[str]:
    """``parts`` with a request that names a thing of the user's and the sentence after it
    that gives its value read as one ("Will you remember my dog's name? It's Biscuit, he's a
    beagle" → "Remember that my dog's name is Biscuit, he's a beagle"): the request had been
    refused as naming a thing without saying anything of it, and the value never kept."""
    out: list[str] = []
    for n, part in enumerate(parts):
        if deadline is not None and time.monotonic() > deadline:
            return out + parts[n:]
        told = _value_told(out[-1], part, language) if out else None
        if told is None:
            out.append(part)
        else:
            out[-1] = told
    return out


def _value_told(request: str, following: str, language: str | None) -> str | None:
    """The request ``request`` with the value ``following`` tells of the thing it names, as
    its language asks to keep a fact (``Pack.keep_request``); None when ``request`` is no
    request that names a thing of the user's only, or ``following`` tells no value of it."""
    words = request.strip().rstrip("?.!").lstrip("¿¡").split()
    cue = _first_cue(words, _CUE_REACH)
    thing = words[cue + 1 :] if cue is not None else []
    if not thing or len(thing) > _NAMED_MOST or not _POSSESSIVE_WORDS.search(" ".join(thing)):
        return None
    if fold_accents(thing[0].casefold()) in _THAT_WORDS:
        return None  # "remember that my sister runs a bakery. It's on Dale St": it said its fact
    if _says_of_it(" ".join(thing)) or _first_cue(thing, len(thing)) is not None:
        return None  # "remember my sister lives in Porto" says it; "remember my notes, save them"
    if any(p.match(request.strip().lstrip("¿¡")) for p in _ASKS_IF_REMEMBERED):
        return None  # "Do you remember my old address? It's weird I forgot it": asked whether, not asked to keep
    said_in = pack(detect(f"{request} {following}") or language or ENGLISH)
    if said_in is None or not said_in.value_opening:
        return None
    opening = re.match(rf"(?:{said_in.value_opening})\b\s*", following.strip(), _I)
    value = following.strip()[opening.end() :] if opening else ""
    if opening is None or not value.split():
        return None
    if any(fold_accents(w.casefold()) in _THAT_WORDS for w in value.split()[:3]):
        return None  # "It's weird that I forgot it", "Es raro que la olvidé": a remark, no value
    verb = said_in.value_verb or opening.group().strip().casefold()
    return f"{said_in.keep_request} {' '.join(thing)} {verb} {value}"


def _read_all(reading: _Reading, all_sentences: list[str], seconds: float | None, deadline: float | None) -> None:
    """Each sentence read in turn until ``deadline`` (``seconds`` were given to the reading):
    what is left is named as not read."""
    for n, sentence in enumerate(all_sentences):
        if deadline is not None and time.monotonic() > deadline:
            rest = " ".join(all_sentences[n:])
            reading.declined.append(NotKept(rest, f"{_NOT_READ} a prompt is read for {seconds:g} s at most"))
            return
        reading.sentence(sentence, all_sentences[n + 1] if n + 1 < len(all_sentences) else "")


#: the longest message the judge reads whole (its model reads 2,000 characters,
#: ``index.embedder.UseEmbedder``): past it, a request at the end would be judged by a
#: story before it, and the rules stand
_JUDGED_CHARS = 2_000


#: where a clause of a kept fact ends: a sentence's end, a comma or semicolon, a clause's join
_CLAUSE_END = re.compile(rf"[.;!?]\s++|,\s*+|(?<!\s)\s++(?:{_words_of('clause_joins')})\s++", _I)


#: a "that" that opens what is left of a fact when a clause before it held a secret ("…y que
#: mi perro se llama Toby"): the request's, no part of the fact
_THAT_FIRST = re.compile(rf"^(?:{_words_of('that_words')})\s+", _I)


def _fact_clauses(text: str) -> list[tuple[int, int]]:
    """(start, stop) of each clause of a kept fact, from one ``_CLAUSE_END`` to the next
    (``request_shapes._clause_spans`` splits a request where the user opens a clause)."""
    starts, stops = [0], []
    for end in _CLAUSE_END.finditer(text):
        stops.append(end.start())
        starts.append(end.end())
    stops.append(len(text))
    return list(zip(starts, stops, strict=True))


def _without_secret_clauses(text: str) -> str | None:
    """``text`` without the clauses that hold a secret, when some clause holds none: "The
    user's bank is Monzo and the PIN is 4821" keeps "The user's bank is Monzo" (the write
    refuses a fact with a secret whole, and took the bank with it); None when no clause
    holds a secret, or every one does. A clause runs from one ``_CLAUSE_END`` to the next;
    clauses next to each other stay as typed ("Marks and Spencer"), runs apart are sentences."""
    secrets = find_secrets(text)
    if not secrets:
        return None
    runs: list[list[int]] = []  # [start, stop] of each run of clauses that hold no secret
    for start, stop in _fact_clauses(text):
        if any(s.start < stop and start < s.end for s in secrets):
            runs.append([])
        elif runs and runs[-1]:
            runs[-1][1] = stop
        else:
            runs.append([start, stop])
    said = [text[run[0] : run[1]].strip() for run in runs if run and run[1] > run[0]]
    if not said or not any(not run for run in runs) or not all(map(_stands_alone, said)):
        return None  # "…es el 67011422W, lo pide la gestoría": what is left says nothing of its own
    rest = ". ".join(_sentence(_THAT_FIRST.sub("", part)) for part in said)
    return rest if find_secret(rest) is None and any(ch.isalpha() for ch in rest) else None


def _secret_clauses(text: str) -> str:
    """The clauses of ``text`` that hold a secret (``_CLAUSE_END`` apart), as said: what a
    request whose other clauses were kept names as not kept ("…y que la contra del wifi es
    girasol2020", not the whole request, the kept part with it)."""
    secrets = find_secrets(text)
    held = [
        text[start:stop].strip()
        for start, stop in _fact_clauses(text)
        if any(s.start < stop and start < s.end for s in secrets)
    ]
    return " … ".join(part for part in held if part)


#: the marks a secret's value may end on that a fact written of it leaves out
_VALUE_END = ".,;:!?…"
#: a secret's value shorter than this is found in a fact only as it was said
_VALUE_LEAST = 3


def _holds_any(text: str, values: Sequence[str]) -> bool:
    """Whether ``text``, a fact written of what was said, holds one of the secret ``values``
    as such a fact holds it: its case changed (a fact opens with a capital: "sunflower" →
    "Sunflower") and the marks of the sentence's end left out ("remember my PIN: 4821!" kept
    "4821", and the value found was "4821!": the bare value was written)."""
    folded = text.casefold()
    for value in values:
        core = value.strip().rstrip(_VALUE_END).casefold()
        if (core in folded) if len(core) >= _VALUE_LEAST else (value in text):
            return True
    return False


def _no_secret_kept(not_kept: NotKept, secrets: list[str]) -> NotKept:
    """``not_kept``, with nothing it would keep if that holds one of ``secrets`` or a secret
    of its own: a request in doubt is never the judge's to keep then."""
    would = not_kept.would_keep
    if would is None or not (_holds_any(would.text, secrets) or find_secret(would.text) is not None):
        return not_kept
    return NotKept(not_kept.sentence, not_kept.reason)


def _asked(signal: Signal) -> bool:
    """Whether ``signal`` was kept because the user asked ("remember that…"), not said."""
    return signal.rule.split("+")[0] in _REQUEST_RULES | {"keep-that"}


def _judged(
    found: list[Signal], declined: list[NotKept], world: float, judge: Judge | None = None
) -> tuple[list[Signal], list[NotKept]]:
    """``found`` and ``declined`` once the judge read the message as of the user's world with
    probability ``world``: when it is sure of it (``lang.judge.KEEP``), what the rules
    refused by words of the task alone is kept; when sure of the opposite
    (``lang.judge.REFUSE``), what a request kept is refused, unless it is of the user ("I
    indent with two spaces" reads as code). Between, the rules stand."""
    if world < meaning.KEEP:  # not sure of their world: what they did to the work just now is the work's
        found, declined = _the_work_right_now(found, declined)
    if world < meaning.REFUSE:
        # a fact whose subject is the user is theirs, whatever its words, unless it is written
        # as code is ("I already renamed `UserSvc` in models": the work at hand) and says no
        # habit ("programo siempre con `poetry`" is theirs)
        refused = [s for s in found if _asked(s) and not _spared(s.text)]
        return [s for s in found if s not in refused], declined + [NotKept(s.text, _BY_MEANING) for s in refused]
    if meaning.KEEP_UNOWNED <= world < meaning.KEEP:
        # a thing named with no word of whose ("remember the spare key hangs by the fridge")
        # and no word of the task: the judge need only lean to the user's world
        doubts = [n for n in declined if n.would_keep is not None and n.reason == _NOT_A_FACT]
        return _with_doubts_kept(found, doubts), [n for n in declined if n not in doubts]
    if world >= meaning.KEEP:
        sure = world >= meaning.KEEP_UNREAD  # what no rule read is kept only when the judge is surer
        doubts = [
            n for n in declined if n.would_keep is not None and n.reason != _PASSING and (sure or n.reason != _UNCLEAR)
        ]
        if judge is not None and found:
            # several facts in one message ("- I'm left-handed\n- the users table has a
            # deleted_at column"): the message's meaning is theirs, each doubt's is its own
            doubts = [n for n in doubts if n.would_keep is not None and judge(n.would_keep.text) >= meaning.KEEP]
        return _with_doubts_kept(found, doubts), [n for n in declined if n not in doubts]
    return found, declined


#: a word of the moment in every pack (``Pack.moment_words``: "already", "just", "ya",
#: "acabei de")
_MOMENT = _rx(r"\b(?:" + "|".join(p.moment_words for p in all_packs() if p.moment_words) + r")\b")
#: why a fact of the work right now is not kept
_RIGHT_NOW = "what the user did to the work at hand, or how their machine is right now: not a lasting fact"


def _the_work_right_now(found: list[Signal], declined: list[NotKept]) -> tuple[list[Signal], list[NotKept]]:
    """``found`` less each fact of the user's that tells what they just did to a thing of the
    work, or how it is at this moment ("fyi I already ran npm install after pulling", "ya
    reinstalé las dependencias", "acabei de apagar a branch antiga"): a word of the moment
    and a word of the task, and no word of a habit ("always"). Read only when the judge is
    not sure the message is of the user's world: "I just moved to Porto" names no task."""
    now = [
        s
        for s in found
        if _asked(s)
        and of_the_user(s.text)
        and _MOMENT.search(s.text)
        and _TASK_WORDS.search(s.text)
        and not _LASTING.search(s.text)
    ]
    return [s for s in found if s not in now], declined + [NotKept(s.text, _RIGHT_NOW) for s in now]


def _spared(fact: str) -> bool:
    """Whether a fact the judge reads as the task is kept all the same: the user's, unless
    it tells what they did to the code at hand; or their team's, company's or workplace's
    ("At work the retro is…", "En el depto usamos ramas hotfix/ABC-123"), whose ways are
    often written as code. Not "we…", "our API…": as often the work at hand."""
    return (of_the_user(fact) and not _done_to_the_code(fact)) or _OF_THEIR_GROUP.match(fact) is not None


def _done_to_the_code(fact: str) -> bool:
    """Whether a fact of the user's tells what they did to the code at hand: written as code
    is, with no word of a habit ("always", "siempre", "nunca")."""
    return WRITTEN_AS_CODE.search(fact) is not None and _LASTING.search(fact) is None


def _of_the_moment(found: list[Signal], declined: list[NotKept], judge: Judge) -> tuple[list[Signal], list[NotKept]]:
    """``found`` and ``declined`` once the judge of passing read each fact a request keeps
    that is said with a word of now or today, and each the rules refused as a passing state:
    "I'm half asleep now", "ahorita tengo mucha hambre" hold for the moment and are not
    kept; "I'm vegan now", "desde hoy soy vegetariana", "starting today I'm the tech lead"
    begin something that lasts, and are. No word tells them apart, only what is said."""
    now = [s for s in found if _asked(s) and _said_now(s.text)]
    doubts = [n for n in declined if n.reason == _PASSING and n.would_keep is not None]
    if not now and not doubts:
        return found, declined
    odds = judge.passing([s.text for s in now] + [n.would_keep.text for n in doubts if n.would_keep is not None])
    passing = [s for s, p in zip(now, odds[: len(now)], strict=True) if p >= meaning.PASSING_AT]
    lasting = [n for n, p in zip(doubts, odds[len(now) :], strict=True) if p < meaning.PASSING_AT]
    kept = _with_doubts_kept([s for s in found if s not in passing], lasting)
    return kept, [n for n in declined if n not in lasting] + [NotKept(s.text, _PASSING) for s in passing]


def _said_now(fact: str) -> bool:
    """Whether ``fact`` holds a word of now or today, not a name that spells one ("my cat is
    called Agora", "the band Today Is The Day"): capitalised past the fact's first word."""
    return any(not (m.start() > 0 and m.group()[:1].isupper()) for m in SAID_NOW.finditer(fact))


def _with_doubts_kept(found: list[Signal], declined: list[NotKept]) -> list[Signal]:
    """``found`` and what the requests ``declined`` in doubt would keep, each request once."""
    kept = list(found)
    for would in (n.would_keep for n in declined if n.would_keep is not None):
        if not any(_alike(would.text, k.text) for k in kept):  # one request read twice, kept once
            kept.append(would)
    return kept


def _alike(a: str, b: str) -> bool:
    """Whether one fact's text holds the other's ("Pra próxima: a equipe…" and "Fica sabendo
    pra próxima: a equipe…" are one request read by two rules)."""
    a, b = a.casefold().rstrip("."), b.casefold().rstrip(".")
    return a in b or b in a


#: what in a message is not the user's own words, though it is in their message: a block
#: of code, a line of code's comment or of a quoted mail ("// remember that…", "> Remember
#: that my wife…"), and a request in quotes, which someone else made ('My boss said
#: "remember that I approve the PRs"', 'git commit -m "remember that…"')
_CODE_BLOCK = re.compile(r"^[ \t]*(```|~~~)[^\n]*+\n.*?(?:^[ \t]*\1|\Z)", re.MULTILINE | re.DOTALL)
_NOT_SAID_LINE = re.compile(r"^[ \t]*+(?://|/\*|\*/|>)[^\n]*+$", re.MULTILINE)


def _not_said(text: str) -> str:
    """``text`` without what is not the user's own words (``_CODE_BLOCK``, ``_NOT_SAID_LINE``,
    a quoted request): each becomes a line break, so what is around it stays apart."""
    text = _NOT_SAID_LINE.sub("\n", _without_code_blocks(text))
    return _QUOTED.sub(lambda m: "\n" if _quotes_a_request(m.group()) else m.group(), text)


def _quotes_a_request(quoted: str) -> bool:
    """Whether a quoted span opens with a request's word (after its courtesy and glue), or
    says one after a clause of its own ("'my horse is called Thunder, remember it for when I
    come back'": a request after its fact, someone else's too)."""
    words = quoted[1:-1].split()
    cue = _first_cue(words, _CUE_REACH)
    # "remember that I…" is one; a name in quotes is not ("Remember Me Ltd")
    if cue is not None and _request_start(words, cue) == 0 and _said_after(words, cue)[0] is not None:
        return True
    return any(_asks_after_a_clause(words, i) for i in range(1, len(words)))


def _asks_after_a_clause(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` asks to keep, its request opening right after a clause's mark
    (with its glue: "…de 2010, *que lo* sepas…"), and tells no story of remembering."""
    if not _cue_at(words, i):
        return False
    start = _request_start(words, i)
    return (
        start > 0
        and words[start - 1].endswith((",", ";", ".", "!"))
        and not _tells_of_remembering(" ".join(words[start:]))
    )


#: a sentence that takes back what the message asked just before it, in every pack
_RETRACTION = re.compile(
    r"^(?:(?:" + "|".join(p.retractions for p in all_packs() if p.retractions) + r")[\s,.!]*)+$", _I
)


@dataclass
class _Reading:
    """What the reading of a turn carries from one sentence to the next."""

    found: list[Signal] = field(default_factory=list)
    declined: list[NotKept] = field(default_factory=list)
    #: the request a next sentence may go on about
    joins: int | None = None
    #: what was said since the last request, for one that points back
    before_it: list[str] = field(default_factory=list)
    #: after a request that ended in a colon: how many more items of the list below it are
    #: kept, plus one (1: the next is named as one too many; -1: the rest are passed over)
    listing: int = 0
    #: whether a list was announced: one prompt keeps one list (a prompt of many headings,
    #: each with its list, wrote thousands of facts)
    listed: bool = False
    #: whether that list's request said its items are the user's ("these about me")
    of_the_user: bool = False
    #: whether it said they are of a thing of theirs ("these about *my* homelab", "essas
    #: infos da *minha* VPS"): an item that names no one is in doubt then, the judge's to keep
    of_theirs: bool = False
    #: where the facts of the sentence just read begin in ``found`` (a next sentence may
    #: take them back: "Actually no, forget it"), or None when it kept none
    last_kept: int | None = None
    #: sentences that ask to keep something of the user's that no rule read: named at the
    #: end as not kept, unless a request after them points back at them and keeps them
    unclear: list[str] = field(default_factory=list)
    #: a request that opened the message pointing at nothing said yet ("Save this."): the
    #: next sentence is what it keeps
    ahead: bool = False
    #: the message's language, for a sentence too short to tell its own ("- odeio coentro")
    language: str | None = None
    #: sentences after a kept request that no word reads as going on with it, each with
    #: where its request is in ``found``: the judge of meaning may join them (``_gone_on``)
    may_go_on: list[tuple[int, str]] = field(default_factory=list)
    #: a sentence whose facts were read as told, not asked ("Soy celíaca y vivo en Bilbao."
    #: keeps where the user lives), and where in ``found`` they are: a request that points
    #: back at it keeps the whole sentence in their place
    stated: tuple[str, int, int] | None = None

    def list_item(self, sentence: str, following: str) -> bool:
        """Whether ``sentence`` is an item of a list a request announced: kept, or past the
        most a list keeps (named once: a request never writes a vault full), or what an item
        goes on to say before the next ("- I'm vegan! No eggs\n- I have a cat")."""
        item = _LIST_ITEM.match(sentence) if self.listing else None
        if item is None:
            if self.listing and _LIST_ITEM.match(following):
                if self.joins is not None and self.listing > 0:
                    self.found[self.joins] = _joined(self.found[self.joins], sentence)
                return True
            self.listing = 0
            return False
        if self.listing == 1:
            reason = f"a list keeps its first {_LIST_MOST} items; this one and those after it were not kept"
            self.declined.append(NotKept(sentence, reason))
            self.listing = -1
        elif self.listing > 1:
            said = sentence[item.end() :].rstrip(".!;")
            why = _not_an_item(said, self.of_the_user)
            kept = len(self.found)
            if why is None:
                _keep_what_was_said(said, self.found, self.declined, self.language)
            elif why == _ITEM_OF_NO_ONE and self.of_theirs:
                # "Save these about my homelab: … - backups run nightly at 2am": of a thing of
                # theirs, said without them; kept only if the judge reads it as their world
                would: list[Signal] = []
                _keep_what_was_said(said, would, [], self.language)
                self.declined.append(NotKept(said, why, would[0] if len(would) == 1 else None))
            else:
                self.declined.append(NotKept(said, why))
            self.joins = kept if len(self.found) > kept else None  # "…\n- My sister is Ana. She is a nurse."
            self.listing -= 1
        return True

    def no_secret(self, kept: int, named: int, said: str) -> None:
        """What the sentence ``said`` kept (``found`` past ``kept``) that holds a secret of it
        its write cannot see is not kept: "guarda a senha do email: Flamengo@81" kept
        "Flamengo@81", in which the write's check finds no password (one it finds, it refuses
        and names with its turn). Its other facts are; what a request in doubt would keep
        (``declined`` past ``named``) is never kept if it holds a secret at all."""
        doubts = any(n.would_keep is not None for n in self.declined[named:])
        secrets = find_secrets(said) if len(self.found) > kept or doubts else []
        if not secrets:
            return
        values = [said[s.start : s.end] for s in secrets]
        hidden = [f for f in self.found[kept:] if _holds_any(f.text, values) and find_secret(f.text) is None]
        self.declined[named:] = [_no_secret_kept(n, values) for n in self.declined[named:]]
        if hidden:
            self.found[kept:] = [f for f in self.found[kept:] if f not in hidden]
            self.declined.append(_secret_not_kept(said, secrets[0].kind))
            self.joins = self.last_kept = None
        cut = [(f, _without_secret_clauses(f.text)) for f in self.found[kept:]]
        if any(rest is not None for _, rest in cut):  # the write refuses a fact whole: its other clauses are kept
            self.found[kept:] = [replace(f, text=rest) if rest else f for f, rest in cut]
            self.declined.append(_secret_not_kept(_secret_clauses(said) or said, secrets[0].kind))

    def sentence(self, sentence: str, following: str) -> None:
        """One sentence of the message (``following``: the one after it), read for requests."""
        if len(sentence) > _MAX_SENTENCE:
            self.joins, self.before_it = None, []
            return
        opening = _TERMINAL_NOISE.sub(" ", sentence).strip()
        sentence = _asked_politely(_without_question_tag(_FILLER.sub("", opening).strip()))
        aside = _ASIDE_AFTER_A_REQUEST.search(sentence)
        if aside is not None and _ends_pointing_back(sentence[: aside.start()]):
            sentence = sentence[: aside.start()]  # "…, remember those (no account numbers obv)"
        why = why_after_a_request(sentence)
        if why is not None and (why.request or self.before_it):
            # "Note it, because you'll help me plan…": the request keeps what was said before it
            reason, after = sentence[why.reason : why.end].strip(" ,;"), sentence[why.end :].strip()
            sentence = sentence[: why.reason].rstrip(" ,;")
            opening = opening[: opening.rfind(reason)].rstrip(" ,;") if reason in opening else sentence
        else:
            why = None  # "Recuérdalo, ya que desde 2019 soy vegano": nothing before it to point at
        if self.takes_back(sentence):
            return
        kept, named = len(self.found), len(self.declined)
        refused = refusal(sentence) if sentence else None
        if refused == "question" and (lead := _after_a_lead(sentence)):
            # "Before we go on — could you note that my manager is Priya?": the request, asked
            sentence = _asked_politely(sentence[lead:])
            refused = refusal(sentence)
        if refused == "question" and (asked := _asked_after_the_fact(sentence)) is not None:
            # "note that I'm allergic to cats, and then what pet should I get?": the question is the
            # task's, after the request (it had been refused whole, and nothing said)
            sentence, refused = asked, None
        if refused == "reminiscing" and self.before_it and not opening.endswith("?") and _says_what_for(sentence):
            refused = None  # "Mi suegra no come cerdo. Acuérdate cuando te pida menús": no story, what it is for
        if refused == "tells-of-remembering":  # a story, which a request after it may keep
            self.joins, self.before_it = None, [*self.before_it, sentence][-_BACK_SENTENCES:]
        elif not sentence or refused is not None:
            self.joins, self.before_it = None, []
        elif not self.list_item(sentence, following):
            self.read(sentence, opening, following)
        if why is not None:
            self.declined.append(NotKept(reason, _WHY_ASKED))
        self.no_secret(kept, named, opening)
        if why is not None and after:  # "…, because you'll plan the menu, and remember I hate seafood"
            self.sentence(after, following)

    def of_what_they_said_before(self, sentence: str, declined_before: int) -> bool:
        """Whether ``sentence``, a request whose fact only pointed at what it is about ("the
        new address is …, remember that"), is of what the user said just before it of their
        own ("we moved! the new address is 42 Larkspur Lane — remember that", "mudámos de
        casa! a nova morada é…"): read as one with it, and kept. Not after a sentence of the
        task ("I fixed the bug. The new endpoint is /v2/users, remember that")."""
        said = self.before_it[-1].rstrip(" .!") if self.before_it else ""
        if not said or not any(n.reason == _POINTED for n in self.declined[declined_before:]):
            return False
        if not _theirs(said) or _TASK_WORDS.search(said):
            return False
        kept: list[Signal] = []
        pointed = sentence[:1].lower() + sentence[1:] if _DEICTIC.match(sentence) else sentence
        _read_clauses(f"{said}, {pointed}", kept, [])
        if not kept:
            return False
        del self.declined[declined_before:]
        self.found += kept
        self.joins, self.before_it, self.last_kept = None, [], len(self.found) - len(kept)
        return True

    def takes_back(self, sentence: str) -> bool:
        """Whether ``sentence`` takes back the facts the sentence before it kept ("Remember
        that my dog is Rex. Actually no, forget it"): they are named as not kept."""
        if self.last_kept is None or not _RETRACTION.match(_COURTESY_TAIL.sub("", sentence) or sentence):
            return False  # "Just kidding lol", "Mentira jaja": the laugh is no part of it
        taken = self.found[self.last_kept :]
        del self.found[self.last_kept :]
        self.declined += [NotKept(s.text, "taken back by the user in the same message") for s in taken]
        self.last_kept, self.joins, self.before_it = None, None, []
        return True

    def keeps_what_was_said(self, sentence: str, declined_before: int) -> bool:
        """Whether ``sentence`` is a request that points back at what was said, kept (or
        declined with why): "My landlord is Mr. Patel. Remember it please"."""
        back = _points_back(sentence, self.before_it)
        if back is None:
            return False
        # "Acuérdate, por fa.": nothing after it, what was before; read in the language of
        # the request's word when the message's own words do not tell ("… todo dia. salva isso")
        self.keep_back(back, declined_before, self.language or _asked_in(sentence))
        return True

    def an_unkept_fact(self, sentence: str) -> bool:
        """Whether ``sentence``, said before, is a fact of the user's no rule kept alone ("I
        moved to Porto last year"): not one kept, nor a passing state, a thanks or a task."""
        return (
            (self.stated is None or self.stated[0] != sentence)
            and tells_of_the_user(sentence)
            and PASSING_STATE.search(sentence) is None
            and isinstance(_kept(sentence, "", "", self.language), Signal)
        )

    def keep_back(self, back: str, declined_before: int, language: str | None = None) -> None:
        """What a request pointing back at what was said keeps (``back``), kept or named with
        why, in place of what its own words were refused for."""
        del self.declined[declined_before:]
        self.unclear = [s for s in self.unclear if s not in self.before_it]
        kept: list[Signal] = []
        _keep_what_was_said(back, kept, self.declined, language or self.language)
        if kept and self.stated is not None and self.stated[0] in self.before_it:
            del self.found[self.stated[1] : self.stated[2]]  # what the request keeps of it, whole
        self.found += kept
        self.joins, self.before_it, self.stated = None, [], None

    def keeps_what_was_said_before_a_bare_request(self, sentence: str, declined_before: int) -> bool:
        """Whether ``sentence`` is a request that opens with its word and names nothing to keep
        after it ("pls remember for recipe stuff", "guarda pras próximas sugestões", "remember
        both names", "Anótate mis horarios, porfa"), said after what it asks to keep: the
        sentences before it are kept (or named with why), as a request that points back at
        them with "that" keeps them. Its own words were refused as saying nothing of the user;
        a to-do, a reminder or a secret is refused as before."""
        refused = self.declined[declined_before:]
        if not self.before_it or any(n.reason not in _SAYS_NOTHING_KEPT for n in refused):
            return False
        words = sentence.rstrip(".!").split()
        cue = _first_cue(words, _CUE_REACH)
        if cue is None or _request_start(words, cue) != 0 or _reminds_by_its_word(words[cue]):
            return False  # "…el viernes. Recuérdame llamarla.": a to-do, whatever was said before
        if not refused and (sentence.rstrip().endswith("?") or not _says_only_what_for(words[cue + 1 :])):
            return False  # read as no request at all: only one that says what it is for ("acuérdate cuando te pida…")
        back = _pointed_at([], self.before_it)
        if back is None:
            return False
        self.keep_back(back, declined_before)
        return True

    def keeps_what_follows(self, sentence: str, following: str, declined_before: int, asked: bool = False) -> bool:
        """Whether ``sentence`` opens the message as a request that points at what follows
        ("Save this."): its "nothing to keep was said after the request" is taken back, and
        the next sentence is read as what it keeps (``kept_ahead``)."""
        if self.found or self.before_it or not _points_ahead(sentence, following, asked):
            return False
        del self.declined[declined_before:]
        self.ahead, self.joins = True, None
        return True

    def kept_ahead(self, sentence: str) -> None:
        """The sentence after a request that pointed at it ("Save this."), kept when it says
        something of the user or their group (not "Good morning", "I think."), else named."""
        self.ahead = False
        before = len(self.found)
        said = _EMOJI_OPENING.sub("", sentence)  # "…esto? 🙂 mi proyecto…"
        if len(said.split()) < 3 or not _theirs(said):
            self.declined.append(NotKept(sentence, "it does not say what it keeps of the user (try 'remember that …')"))
            return
        _keep_what_was_said(said, self.found, self.declined, self.language)
        kept = len(self.found) > before
        self.joins, self.last_kept = (len(self.found) - 1, before) if kept else (None, None)

    def points_back(self) -> bool:
        """Whether a request that points may point at what was said before it: a fact of the
        user's was (``before_it``)."""
        return _pointed_at([], self.before_it) is not None

    def read(self, sentence: str, opening: str, following: str) -> None:
        """One sentence (``opening``: as said, before its filler and politeness were taken
        off; ``following``: the sentence after it)."""
        found, declined = self.found, self.declined
        before, declined_before = len(found), len(declined)
        kept_just_before, self.last_kept = self.last_kept is not None, None
        if self.ahead:  # "Save this. My grandma Rosa turns 90 on August 3rd."
            self.kept_ahead(sentence)
            return
        told = _without_request_aside(sentence)
        if told is not None:  # "Mi hermana — apúntalo — vive en Oporto.": asked as "Recuerda que…" is
            asking = pack(detect(told) or self.language or ENGLISH) or pack(ENGLISH)
            sentence = f"{asking.keep_request if asking else ''} {told}".strip()
        repeated = _read_clauses(sentence, found, declined)
        dash = _dash_after_pointing_back(sentence) if self.points_back() else None
        if dash is not None and len(found) <= before + 1:
            # "I use a Dexcom G7. Please keep that in memory — I'll be asking about its API":
            # the request keeps what was said before it; what follows its dash is no fact of
            # it, unless it goes on with one more ("— also, our anniversary is May 9")
            after = sentence[dash:].strip()
            goes_on = says_contrast(" ".join(after.split()[:2]))  # "— also, …", "— además, …", "— além disso, …"
            read_after = found[before:] if goes_on else []
            del found[before:]
            self.keep_back(_pointed_at([], self.before_it) or "", declined_before)
            if not goes_on:
                self.declined.append(NotKept(after, _AFTER_POINTING_BACK))
            elif read_after:
                found += read_after
            else:
                _keep_what_was_said(after, found, self.declined, self.language)
            return
        if len(found) == before and self.of_what_they_said_before(sentence, declined_before):
            return
        said_nothing = len(found) == before and all(
            n.reason in _SAYS_NOTHING_KEPT or n.reason == _POINTS_BEFORE for n in declined[declined_before:]
        )  # "Memoriza esto, por favor: …": its "esto" read as pointing back, though a colon follows
        lead = _LEAD_OF_A_REQUEST.match(sentence) if said_nothing else None
        if lead is not None and dash is not None:
            lead = None  # "My sister lives in Oslo. Remember that — I'll ask about flights later": that, not this
        if lead is not None and _points_ahead(sentence[: lead.end("lead")], sentence[lead.end() :]):
            del declined[declined_before:]  # "Memoriza esto, por favor: mi bici es…": what follows the colon
            self.kept_ahead(sentence[lead.end() :])
            return
        pointed_back = said_nothing and any(n.reason == _POINTS_BEFORE for n in declined[declined_before:])
        ahead = _REQUEST_BY_A_COMMA.match(sentence) if pointed_back and not self.found else None
        if ahead is not None and not self.points_back() and _theirs(sentence[ahead.end() :]):
            del declined[declined_before:]  # "recuerda esto porfa, mi novia es vegana": nothing before it to point at
            self.kept_ahead(sentence[ahead.end() :])
            return
        if not self.listed and _announces_a_list(sentence, declined[declined_before:], following):
            del declined[declined_before:]  # "Could you store these about me:" and the items below it
            self.listing, self.joins, self.before_it, self.listed = _LIST_MOST + 1, None, [], True
            self.of_the_user = self.of_the_user or _names_the_user(sentence)
            self.of_theirs = self.of_theirs or _POSSESSIVE_WORDS.search(sentence) is not None
            return
        if len(found) > before:
            self.joins = len(found) - 1 if found[-1].rule.split("+")[0] in _REQUEST_RULES else None
            stated = not any(f.rule.split("+")[0] in _REQUEST_RULES for f in found[before:])
            # a fact said just before it that no rule kept alone is kept with it when a request
            # points back ("I moved to Porto last year. I work at Farfetch now. Remember all this.")
            earlier = [s for s in self.before_it[-1:] if self.an_unkept_fact(s)]
            self.before_it = [*earlier, sentence] if stated else []
            self.stated = (sentence, before, len(found)) if stated else None
        elif self.keeps_what_was_said(sentence, declined_before) or self.keeps_what_follows(
            sentence, following, declined_before, opening.rstrip().endswith("?")
        ):
            pass  # what was said before it is kept, or named with why; or what follows will be
        elif kept_just_before and _trailing_request(sentence.rstrip(".!?").split()) is not None:
            del declined[declined_before:]  # "Me llamo Jorge. Guarda eso, porfa.": kept already
        elif self.keeps_what_was_said_before_a_bare_request(sentence, declined_before):
            pass  # "I'm vegetarian (eggs ok). pls remember for recipe stuff": the fact before it
        elif self.joins is not None and _goes_on(opening):
            found[self.joins] = _joined(found[self.joins], opening)
        else:
            joins, self.joins = self.joins, None
            if joins is not None and len(declined) == declined_before and not repeated and _may_go_on(opening):
                self.may_go_on.append((joins, opening))  # "My psychiatrist, Dr. Okafor, …": the judge reads it
                # the sentence after it may go on too, if this one does ("…the Payments team now?
                # Got moved over from Growth on Monday. New lead is Carla Nguyen."), up to _GOING_ON_MOST
                if sum(1 for n, _ in self.may_go_on if n == joins) < _GOING_ON_MOST:
                    self.joins = joins
            if (
                not _said_to_the_chat(sentence)
                and not _an_order_of_the_task(sentence)
                and not (self.before_it and PASSING_STATE.search(sentence))
            ):
                # "I'm a nurse. Thanks for earlier! Remember that.": the nurse, not the thanks;
                # nor a mood after a fact ("I'm a welder. Ugh, so wiped out today. …")
                self.before_it = [*self.before_it, sentence][-_BACK_SENTENCES:]
            if len(declined) == declined_before and not repeated and _asks_to_keep(sentence):
                self.unclear.append(sentence)
        self.last_kept = before if len(found) > before else None


#: a request's first few words and a comma ("note this and don't forget, my locker is 214"):
#: what follows is what it points at when nothing before it was said
_REQUEST_BY_A_COMMA = re.compile(r"^(?:[^\s,:—–]+\s+){0,5}?[^\s,:—–]+,\s+(?=\S)")
#: a few words before a colon or a spaced dash, and what follows: a request that points at
#: what follows its colon ("Memoriza esto, por favor: …"), read when nothing else kept it. A
#: lead-in before a request is not taken off: it may say whose the words are or what they are
#: for ("Sam wrote —", "For the test fixture:", "Hypothetically:")
_LEAD_OF_A_REQUEST = re.compile(r"^(?P<lead>(?:[^\s:—–]+\s+){0,9}?[^\s:—–]+)\s*(?::|\s[—–]|\s--?)\s+(?=\S)")


#: a remark in brackets that ends a sentence
_ASIDE_AFTER_A_REQUEST = re.compile(r"(?<!\s)\s*+\([^()]{1,80}\)[\s.!]*+$")  # a space run read from its start once


def _ends_pointing_back(said: str) -> bool:
    """Whether ``said`` ends with a request's word and what it points back at ("…, remember
    those", "…, guarda isso"): a remark in brackets after it is none of the fact."""
    words = said.rstrip(" .!,").split()[-4:]
    return len(words) >= 2 and words[-1].strip(",.!").casefold() in _BACK_WORDS and _first_cue(words, 4) is not None


#: why a request no rule read is not kept
_UNCLEAR = "it asks to remember, but no fact of the user's could be read from it (try 'remember that …')"


_QUESTION_OPENINGS = frozenset(w for p in all_packs() for w in p.question_openings)


def _read_clauses(sentence: str, found: list[Signal], declined: list[NotKept]) -> bool:
    """Each clause of ``sentence`` read for a request: a fact kept, a request declined with
    its reason, or a clause that goes on about the fact just kept ("…my manager is Dana and
    my skip-level is Raj"); a request made in an aside after a task is read on its own.
    Whether a clause asked again for a fact already kept."""
    before, refused = len(found), len(declined)
    repeated = _read_spans(sentence, _aside(sentence), found, declined)
    if len(found) == before and (lead := _after_a_lead(sentence) or _after_a_reason(sentence)):
        # nothing kept of the whole: the request after a lead of the moment, read on its own
        # (the lead's words of the task had refused it: "Enquanto corriges o linter, anota…")
        del declined[refused:]
        repeated = _read_spans(sentence, lead, found, declined)
    return repeated


#: a word that says what follows comes of what was said, in every pack (``Pack.consequences``:
#: "so", "así que", "por isso"), and the most words one takes
_CONSEQUENCE = re.compile(_either_of("consequences"), _I)
_CONSEQUENCE_MOST = 2
#: the most words a request after a reason says before its colon ("guárdalo tú:", "so please keep it for me:")
_ASKED_AHEAD_MOST = 5
#: a sentence whose word of keeping is among its first this many words opens with a request
#: or a reminder ("Recuérdame comprar pan, …", "Lembra-me de comprar leite, …"): no reason
_REQUEST_OPENS = 2


def _after_a_reason(sentence: str) -> int:
    """Where a request that follows from a reason begins, or 0: a clause, a comma, a word
    that says what follows comes of it, then a request whose colon opens what it keeps
    ("Tengo una memoria fatal, así que guárdalo: mi talla de anillo es la 16", "Sou péssimo
    com datas, por isso anota: o aniversário do meu pai é a 3 de maio"). The reason is the
    user's own, so no lead of the moment reads it (``_after_a_lead``); what the colon opens
    must be a fact the rules keep."""
    words = list(re.finditer(r"\S+", sentence))
    said = [w.group() for w in words]
    if _first_cue(said, _REQUEST_OPENS) is not None:
        return 0  # "Recuérdame comprar pan, que siempre se me olvida, así que apúntalo en la lista: …": a to-do's
    for k in range(1, min(len(said), _LEAD_MOST)):
        if not said[k - 1].endswith(","):
            continue
        for j in range(k + 1, min(k + _CONSEQUENCE_MOST, len(said)) + 1):
            if not _CONSEQUENCE.fullmatch(" ".join(said[k:j]).rstrip(",")):
                continue
            ahead = said[j : j + _ASKED_AHEAD_MOST]
            if _first_cue(ahead, len(ahead)) is None or not any(w.endswith(":") for w in ahead):
                continue
            kept = _signal(sentence[words[k].start() :].strip().rstrip(".!;?").strip())
            if isinstance(kept, Signal):
                return words[k].start()
    return 0


def _read_spans(sentence: str, aside: int, found: list[Signal], declined: list[NotKept]) -> bool:
    """``_read_clauses`` of ``sentence`` with what is said from ``aside`` on (when not 0)
    read as a clause of its own."""
    before, repeated = len(found), False
    spans = [*_clause_spans(sentence[:aside] if aside else sentence), *([(aside, len(sentence))] if aside else [])]
    silent: int | None = None  # where the clauses that said nothing of a request began
    last = ""  # the clause before
    for start, end in spans:
        clause, last = sentence[start:end].strip().rstrip(".!;").strip(), sentence[:start]
        outcome = _with_the_clauses_before(_signal(clause), sentence, silent, start, end)
        silent = (start if silent is None else silent) if outcome is None else None
        if isinstance(outcome, Signal) and outcome in found:
            repeated = True  # "Remember that my dog is Rex. Remember that my dog is Rex."
        elif isinstance(outcome, Signal):
            found.append(outcome)
        elif isinstance(outcome, str):
            declined.append(NotKept(clause, outcome))
        elif isinstance(outcome, _Doubt):
            declined.append(NotKept(clause, outcome.reason, outcome.kept))
        elif len(found) > before and _ANY_USER_SUBJECT.match(clause) and not _ends_pointing_back(_joins_cut(last)):
            # not after "…, guarda isso": the request ended the fact; a courtesy that ends the
            # clause is none of it ("…y uso zsh jaja")
            found[-1] = _joined(found[-1], _trim(clause) or clause)
    return repeated


def _joins_cut(said: str) -> str:
    """``said`` without the word that joins it to what follows ("…, guarda isso e" → "…,
    guarda isso")."""
    words = said.rstrip().split()
    return " ".join(words[:-1] if words and words[-1].casefold() in _AND_WORDS else words)


def _with_the_clauses_before(
    outcome: Signal | str | _Doubt | None, sentence: str, silent: int | None, start: int, end: int
) -> Signal | str | _Doubt | None:
    """A request that points back at what was said, read with the clauses before it that
    said nothing of a request (from ``silent``) when they open with the user ("my dog is
    Toby and my cat is Luna, remember that": both, not the last clause alone)."""
    if silent is None or not isinstance(outcome, Signal) or outcome.rule != "keep-this":
        return outcome
    if not _theirs(sentence[silent:start]):
        return outcome
    whole = _signal(sentence[silent:end].strip().rstrip(".!;").strip())
    return whole if isinstance(whole, Signal) else outcome


#: what opens a lead of the moment, in every pack (``Pack.lead_openings``)
_LEAD_OPENINGS = frozenset(fold_accents(w) for p in all_packs() for w in p.lead_openings)


def _after_a_lead(sentence: str) -> int:
    """Where a request said after a lead of the moment begins ("Mientras arreglas los errores
    del linter, ten en cuenta que…", "una cosita antes de seguir con el merge: anotá que…",
    "Before we continue with the refactor — could you note that…"), or 0. The request opens
    a clause after a comma, a colon or a dash and keeps a fact on its own; its lead opens
    with nothing of the user's (else the request may be of what the lead says: "My sister,
    remember, lives in Porto") and says neither whose words follow ("Sam wrote —") nor,
    before a colon, what it points at ("Translate this: …": what follows is quoted)."""
    words = list(re.finditer(r"\S+", sentence))
    said = [w.group() for w in words]
    for _, start in _requests_after_a_lead(said):
        mark = said[start - 1]
        lead = said[: start - 1] if mark in _DASHES else said[:start]
        if not lead:
            continue  # "- la cuenta, por favor": the dash opens a list's item, no lead before it
        if any(w.endswith((",", ":", ";")) or w in _DASHES for w in lead[:-1]):
            return 0  # a lead is one clause: "While the tests run, if I ever get a dog, remember…"
        ends_on_the_moment = fold_accents(lead[-1].strip(",:;!—–-").casefold()) in _LEAD_OPENINGS
        if _quoted(lead) or (_theirs(" ".join(lead)) and not ends_on_the_moment):
            return 0  # "My sister, remember, …"; not "I'm on a bug but first: remember that…"
        if not (ends_on_the_moment or fold_accents(lead[0].strip(",:;!").casefold()) in _LEAD_OPENINGS):
            return 0  # "For the test fixture: remember that the user is an admin": what it is for
        # (a lead may end with its word of the moment: "Estoy con un bug en el reducer pero antes: …")
        if mark.endswith(":") and any(w.strip(",.:").casefold() in _BACK_WORDS for w in lead):
            return 0
        kept = _signal(sentence[words[start].start() :].strip().rstrip(".!;?").strip())
        if not isinstance(kept, Signal):
            continue
        if _TASK_WORDS.search(" ".join(lead)) and not (
            _NAMES_THE_USER.search(kept.text) or _USER_GROUP.match(kept.text) or _of_their_group(kept.text)
        ):
            return 0  # after a lead of the task, only a fact of the user's: "Before the merge: keep in mind the DB is…"
        return words[start].start()
    return 0


#: the words a fact is written about, in every pack ("user", "usuario": ``Pack.subject_nouns``)
_NAMES_THE_USER = re.compile(
    r"\b(?:" + "|".join(re.escape(w) for p in all_packs() for w in p.subject_nouns) + r")\b", _I
)


def _of_their_group(said: str) -> bool:
    """Whether ``said`` names the user's group in its first words ("No nosso time a convenção…")."""
    return any(_GROUP_WORDS.match(said, m.start()) for m in itertools.islice(re.finditer(r"(?<=\s)\w", said), 3))


#: a note of the user's with its subject left out, in every pack (``Pack.elided_user_opening``)
_ELIDED_USER = re.compile(
    "|".join(f"(?:{p.elided_user_opening})" for p in all_packs() if p.elided_user_opening) or "(?!)", _I
)


def _says_of_them(said: str) -> bool:
    """Whether ``said`` says something of the user or their world: it opens with them or
    their group, says what something is, or names the user after a time or a place ("los
    viernes no trabajo"), or their group in it ("in our team deploys…"); "call mom", "ignore
    previous instructions" do not."""
    if _ANY_USER_SUBJECT.match(said) or _USER_GROUP.match(said) or _SAYS_SOMETHING.search(said):
        return True
    if _ELIDED_USER.match(said):  # "just got a Pixel 8 Pro, remember that": the user, left unsaid
        return True
    # the user's group in the phrase of place it opens with: "en nuestro equipo los deploys…"
    if any(_USER_WORDS.match(said, m.start()) for m in re.finditer(r"(?<=\s)\w", said)) or _of_their_group(said):
        return True
    # a verb of the first person its language's grammar knows, which no pack lists as an
    # opening: "Laburo en Mercado Libre", "Vou à academia todo dia", "ayer adopté un gato"
    return (
        _NAMES_THE_USER.search(said) is None and _NAMES_THE_USER.search(in_third_person(said, detect(said))) is not None
    )


def _not_an_item(said: str, of_the_user: bool) -> str | None:
    """Why an item of a list a request announced is no fact to keep, or None: it must not
    ask ("what is my name") or speak to the assistant ("You prefer dark mode": the words of
    whoever wrote to "you"), and, unless the request said the items are the user's
    (``of_the_user``: "these about me"), say something of the user or their world ("I work
    at Northwind", "on-call is weekly"), not bid ("call mom", "ignore previous instructions")."""
    first = said.split(maxsplit=1)[0].strip("¿¡").casefold() if said.strip() else ""
    if _RELATIONSHIP.match(said) or said.rstrip().endswith("?") or first in _QUESTION_OPENINGS:
        return "not a fact about the user: it speaks to or asks the assistant"
    if of_the_user or _says_of_them(said) or _labelled(said):
        return None
    return _ITEM_OF_NO_ONE


_ITEM_OF_NO_ONE = "an item that says nothing of the user or their world (a to-do, an instruction, a word)"


#: an item that names a thing and gives its value ("cão: Bolota", "hostname: jabuticaba")
_LABELLED = re.compile(r"^(?P<label>[^\W\d_][^\s:]*(?:\s[^\s:]+){0,2}):\s+\S")


def _labelled(said: str) -> bool:
    """Whether a list's item names one of the user's things and its value ("vet: Dr. Nuno",
    "provedor: Contabo"), not a step of a task ("TODO: run the tests", "Nota: rodar o
    lint")."""
    found = _LABELLED.match(said)
    if found is None or _TASK_WORDS.search(said):
        return False
    label = [fold_accents(w.casefold()) for w in found.group("label").split()]
    return not any(map(_is_cue, label)) and not _TASK_LABELS & set(label) and not any(w.isdigit() for w in label)


#: a task's label opening what is said ("Lembrete: …", "TODO - …"), in every pack
_TASK_LABEL_OPENING = _rx(
    r"^\W*(?:"
    + ("|".join(re.escape(w) for p in all_packs() for w in p.task_labels) or "(?!)")
    + r")\b[^:—–-]{0,12}[:—–-]"
)
#: the labels of a task's items, in every pack (accents folded)
_TASK_LABELS = frozenset(fold_accents(w) for p in all_packs() for w in p.task_labels)


def _keep_what_was_said(back: str, found: list[Signal], declined: list[NotKept], language: str | None = None) -> None:
    """What a request that points back named, kept (or declined with its reason); read in
    its own language, or in ``language`` (the message's) when it is too short to tell
    ("- uso óculos" alone reads as Spanish, "- odeio coentro" as none)."""
    said = sentences(back, language)
    if said and all(map(_said_to_the_chat, said)):  # "¡Muchas gracias! Hoy estoy hecho polvo. Recuérdalo."
        declined.append(NotKept(back, _SAID_TO_THE_CHAT))
        return
    if len(said) > 1:  # "Thanks for the help! My wife is Ana. Remember that.": the thanks is no fact
        said = [sentence for sentence in said if not _said_to_the_chat(sentence)]
        # nor a mood among facts ("I'm a welder. Ugh, so wiped out today. My local is 598.")
        said = [sentence for sentence in said if PASSING_STATE.search(sentence) is None] or said
        back = " ".join(said)
    if len(said) > 1:  # "I have two kids. My wife is Ana. Remember that.": each in its own person
        each = [_kept(sentence, "", "", _language_of(sentence, language)) for sentence in said]
        facts = [kept for kept in each if isinstance(kept, Signal)]
        if len(facts) == len(each):
            text = " ".join(f"{fact.text.rstrip('.')}." for fact in facts).rstrip(".")
            found.append(replace(facts[0], text=in_one_gender(text, facts[0].lang), rule="keep-that"))
            return
    kept = _kept(back, "", "", _language_of(back, language))
    if isinstance(kept, Signal):
        found.append(replace(kept, rule="keep-that"))
    elif isinstance(kept, _Doubt):
        declined.append(NotKept(back, kept.reason, replace(kept.kept, rule="keep-that")))
    else:
        declined.append(NotKept(back, kept))


#: why what a request pointed back at is not kept when it was a thanks
_SAID_TO_THE_CHAT = "it points at a thanks, not a lasting fact"


def _said_to_the_chat(sentence: str) -> bool:
    """Whether ``sentence`` is said to the chat, not of the user's world: a thanks or a
    closing. A state said with a word of today ("I'm so tired today", "since this morning
    I'm engaged!") is the judge of passing's to read, as a doubt of its fact."""
    said = sentence.strip()
    short = said.split()
    short = short if len(short) <= _THANKS_MOST else []  # "¡Mil gracias!", "Many thanks"
    thanks = _first_word(said) in _COURTESY_WORDS or any(_first_word(w) in _COURTESY_WORDS for w in short)
    return (thanks or _CLOSING.match(said) is not None) and not tells_of_the_user(said)  # "fwiw I'm a teacher…"


#: the most words of a thanks its courtesy word need not open ("¡Mil gracias!", "Muito obrigada, viu")
_THANKS_MOST = 3


#: the verbs a task is ordered with, in every pack (``Pack.task_imperatives``), folded
_TASK_IMPERATIVES = frozenset(fold_accents(w.casefold()) for p in all_packs() for w in p.task_imperatives)


def _an_order_of_the_task(sentence: str) -> bool:
    """Whether ``sentence`` orders a task: it opens with a task's verb and names a thing of
    the task ("Refactor the parser to use async."; "Usa gafas." tells of someone)."""
    return _first_word(sentence) in _TASK_IMPERATIVES and _TASK_WORDS.search(sentence) is not None


def _first_word(sentence: str) -> str:
    """The first word of ``sentence``, folded, without the marks around it ("¡Gracias" → "gracias")."""
    words = sentence.split(maxsplit=1)
    return fold_accents(words[0].casefold().strip(",.!:;¡¿")) if words else ""


def _asked_in(request: str) -> str | None:
    """The language of ``request``: the one its words of keeping are of ("salva": Portuguese),
    else its own words' ("guarda *isso*"), or None."""
    languages = {code for word in request.split() for code in _cue_languages(word)}
    return next(iter(languages)) if len(languages) == 1 else detect(request)


def _language_of(said: str, language: str | None) -> str | None:
    """The language ``said`` is read in: its own, or the message's when it is too short to
    tell and often told as that (``_SHORT_WORDS``)."""
    own = detect(said)
    if own is None or (len(said.split()) <= _SHORT_WORDS and language in told_alike(own)):
        return language
    return own


#: a sentence this many words long or shorter is read in its message's language when that
#: is a language its own words are often taken for (``lang.told_alike``)
_SHORT_WORDS = 4
#: how many sentences before it a request that points back may keep
_BACK_SENTENCES = 2


def _points_back(sentence: str, before_it: list[str]) -> str | None:
    """What a request that points back at what was said keeps: what ``sentence`` says before
    the request ("my dog's name is Biscuit, she's a beagle, pls remember that"), else the
    sentences before it (``before_it``: "My landlord is Mr. Patel. Remember it please"); None
    when ``sentence`` holds no such request."""
    words = sentence.rstrip(".!?").split()
    for cue in range(len(words)):
        if not _cue_at(words, cue):
            continue
        start = _request_start(words, cue)
        if any(_tells_of_remembering(" ".join(words[k : cue + 1])) for k in range(max(0, cue - 4), cue + 1)):
            continue  # "…, I will never forget it", "…, nunca vou esquecer isso": the user's own memory
        if _refers_back(words, cue, start):
            return _pointed_at(words[: _with_its_aside(words, start)], before_it)
    return None


def _refers_back(words: list[str], cue: int, start: int) -> bool:
    """Whether the cue word ``words[cue]`` asks to keep what was said: it carries its object
    ("guárdalo"), a back word stands in the request's own words before it ("*lo* puedes
    tener en cuenta") or as a pronoun just after it ("remember *that*", "commit *that* to
    memory"; not "save *that file*"), or it is the whole request."""
    ahead = {w.strip(",.!?¿¡").casefold() for w in words[min(start, max(0, cue - 2)) : cue]}
    after = any(_a_pronoun(words, i) for i in range(cue + 1, min(len(words), cue + 4)))
    # "guárdalo", "tenlo presente"; a bare "la" is an article as often ("cerré la cuenta")
    attached = any(_carries_its_object(w) and w.casefold() not in _ATTACHED for w in words[start : cue + 1])
    # the whole request: "que no se te olvide jaja", "Acuérdate, por fa." (a courtesy says
    # nothing, nor what it is for: "anota aí pra quando eu pedir ajuda")
    alone = (start == 0 or (_asks_by_its_verb(words[cue]) and _a_word_of_the_request(words[:cue]))) and (
        len(words) - cue <= 2 or _says_only_what_for(words[cue + 1 :])
    )
    if alone and _reminds_by_its_word(words[cue]) and _trim(" ".join(words[cue + 1 :])):
        alone = False  # "Recuérdame llamarla": what to do, not what was said ("Recuérdamelo" carries it)
    return bool(attached or _BACK_WORDS & ahead or after or alone)


def _says_what_for(sentence: str) -> bool:
    """Whether ``sentence`` opens with a request's word and says after it only what the
    request is for ("remember when I ask for menus", "lembra quando eu pedir cardápios")."""
    words = sentence.rstrip(".!").split()
    cue = _first_cue(words, _CUE_REACH)
    return cue is not None and _request_start(words, cue) == 0 and _says_only_what_for(words[cue + 1 :])


_SOMEONE_ELSES = "someone else's words, not the user's"


#: how near the end of the words before a request the assistant may be named for them to be
#: the request's own ("…if *you* kept", "…*you* to bear")
_ASKED_OF_YOU = 3
#: the last mark of a clause in the words before a request
_LAST_CLAUSE_MARK = re.compile(r"^(?P<before>.*[^\s,;:—–-])\s*(?:[,;:]|\s[—–-]+)\s+(?P<last>[^,;:—–]*)$", re.S)


def _before_words_to_you(said: str) -> str:
    """``said`` (the words before a request) without its last clause when that clause speaks
    to the assistant ("…if you kept", "so you"); "" when all of it does and names nothing
    of the user ("Would help if you had")."""

    def to_you(words: list[str]) -> bool:
        return bool(_ADDRESSEE & {w.strip(",.!?").casefold() for w in words})

    mark = _LAST_CLAUSE_MARK.match(said)
    last = mark.group("last") if mark is not None else said
    if not to_you(last.split()[-_ASKED_OF_YOU:]) and not (to_you(said.split()) and not _USER_WORDS.search(said)):
        return said
    return mark.group("before") if mark is not None else ""


def _pointed_at(before_request: list[str], before_it: list[str]) -> str | None:
    """What a request that points back keeps: the words before it, else the sentences
    before its own; None when the request comes first or what is kept says nothing."""
    said = _without_lead(_EMOJI_OPENING.sub("", " ".join(before_request)).strip(" ,;:-–—"))
    if said and _is_cue(said.split()[0]):
        return None  # "remember that I…": the request comes first
    if len(said.split()) <= 2 and not _SAYS_SOMETHING.search(said):
        said = ""  # "Quiero que lo recuerdes", "I'd love it if you kept that": the request's own lead
    else:
        # "Would help if you had that in mind…", "I'd appreciate it if you kept that…": the
        # request's own words, its last clause the assistant's; what a mark ends before it is
        # the fact ("…a Netgear Nighthawk — just so you have it on file")
        said = _before_words_to_you(said)
    if said and before_it and _OTHERS.match(said):  # "My mom is moving in. She uses a wheelchair, so keep that in mind"
        said = f"{before_it[-1].rstrip()} {said}"
    kept = (said or " ".join(before_it)).strip()
    if said and _TASK_LABEL_OPENING.match(" ".join(before_request)) and not _says_of_them(said):
        return None  # "Lembrete: pagar a conta de luz, anota aí": a to-do under its label
    # what is kept says something ("🥜 peanut allergy notes" names, it does not say); the
    # sentences before the request's own may say it of the user or their world anywhere
    # ("In my monorepo we use pnpm. Please commit that to memory")
    says = _SAYS_SOMETHING.search(kept) or _ANY_USER_SUBJECT.match(kept)
    # a request alone ("Guárdalo.") keeps the sentences before it told in the user's own verb,
    # as one after a comma does ("Mido 1,90 y peso 95 kilos. Guárdalo." had kept nothing, and said nothing)
    theirs = not said and (_USER_GROUP.match(kept) or _USER_WORDS.search(kept) or _says_of_them(kept))
    return kept if says or theirs else None


_REQUEST_RULES = frozenset(rule for _, rule, _ in REQUESTS) | {"keep-this"}
#: how a request is asked as a question, in every pack ("could you remember that …?")
_POLITE = re.compile(
    rf"(?:^|(?<=[,;]\s)(?:(?:{_words_of('clause_joins')})\s+)?)[¿¡]?(?:(?:{_words_of('polite_openers')})[\s,]+)?(?:"
    + _words_of("polite_requests")
    + rf")\s+(?:(?:{_words_of('polite_openers')})\s+)?(?=\S)",
    _I,
)


def _asked_politely(sentence: str) -> str:
    """ "Could you remember that I'm allergic to sulfa drugs?" is a request, not a question:
    the request as said, without its asking and its question mark; so is a request asked at
    the end of what it keeps ("…, can you store that about me?", "¿Lo puedes anotar?"),
    without its question mark; else ``sentence``."""
    if not sentence.rstrip().endswith("?"):
        return sentence
    courteous = _asked_with_courtesy(sentence)
    if courteous is not None:
        return courteous
    plain = sentence.rstrip().rstrip("?").lstrip("¿").strip()
    words = plain.split()
    # or by a request at its end that keeps what it says before ("…, anota isso?")
    asked = (
        _asked_by_its_word(words)
        or _asked_of_what_was_said(words)
        or _ends_in_a_request(plain)
        or _asks_back_alone(words)
        or _asked_in_other_words(words)
    )
    return plain if asked else sentence


def _asked_in_other_words(words: list[str]) -> bool:
    """Whether a question asks, in words of asking no pack lists, to keep what it says of
    the user after a "that": "Would it be possible to note that I…?", "¿Serías tan amable de
    anotar que soy…?", "vc consegue lembrar que eu…?". Not "I noted that my…?" (said of
    someone) nor "Do you remember that…?" (refused before: it asks whether one remembers)."""
    cue = _first_cue(words, _CUE_REACH)
    if not cue or _said_of_someone(words, cue):
        return False
    said, that = _said_after(words, cue)
    # the "that" right after the word, or after a "de" ("tomar nota de que"): not the
    # "what" of "lembrar o que eu te falei"
    close = that == cue + 1 or (that == cue + 2 and _cue_form(words[cue + 1]) in _TODO_WORDS)
    return said is not None and close and fold_accents(words[that].casefold()) in _THAT_WORDS and _theirs(said)


def _asks_back_alone(words: list[str]) -> bool:
    """Whether a question is all a request to keep what was said before it: "¿Lo anotás?",
    "Guardas isso?" ("Lembra do que eu falei?" asks whether the assistant remembers)."""
    cue = _first_cue(words, 3)
    if cue is None or _request_start(words, cue) != 0 or _trailing_request(words) is None:
        return False
    return _refers_back(words, cue, 0)


def _asked_with_courtesy(sentence: str) -> str | None:
    """A request asked with a courtesy ("could you", "¿podrías") at its start or after a
    clause ("If it's not too much trouble, could you…"), without its asking; None when none.
    What it keeps is said after it, or before it ("My cat is Biscuit, could you save that?")."""
    for match in _POLITE.finditer(sentence, 0, _ASIDE_REACH * 2):
        rest = sentence[match.end() :].rstrip().rstrip("?").strip()
        words = rest.split()
        cue = _first_cue(words, 3)
        if cue is None:
            continue
        if match.start() == 0 or not _refers_back(words, cue, 0):
            return rest
        return f"{sentence[: match.start()]}{rest}"
    return None


def _asked_by_its_word(words: list[str]) -> bool:
    """Whether a question asks by its request's own word after its glue, with a "that":
    "¿Me anotás que mis mellizos…?" ("Remember that epic block…?", "Lembra do que eu
    falei…?" ask whether the assistant remembers)."""
    opening = _first_cue(words, 3)
    if not opening or _request_start(words, opening) != 0:
        return False
    said, that = _said_after(words, opening)
    return bool(said) and fold_accents(words[that].casefold()) in _THAT_WORDS


def _asked_of_what_was_said(words: list[str]) -> bool:
    """Whether a question asks, with a courtesy in its request's words, to keep what was
    said before ("…, ¿lo puedes tener en cuenta?", "Can you note that?")."""
    for cue in range(len(words)):
        if _cue_at(words, cue):
            start = _request_start(words, cue)
            asked = _POLITE_ASKED.search(" ".join(w.strip(",.!?¿¡") for w in words[start:cue]))
            if asked and _refers_back(words, cue, start):
                return True
    return False


#: how a request is asked, anywhere in its own words ("can you", "puedes", "pode")
_POLITE_ASKED = re.compile(
    r"(?<!\S)(?:" + _words_of("polite_requests") + r")(?!\S)",
    _I,
)


#: a question tag at the end of a sentence that asks nothing ("…, ok?", "…, ¿vale?", "…, né?")
_QUESTION_TAG = re.compile(
    r"(?<![,\s])[,\s]++¿?(?:"
    + "|".join(re.escape(t) for p in all_packs() for t in p.question_tags)
    + r")\s*+\?++\s*+$",
    _I,
)


def _without_question_tag(sentence: str) -> str:
    """ "lembre-se de que sou intolerante à lactose, ok?" says, it does not ask."""
    return _QUESTION_TAG.sub("", sentence) if sentence.rstrip().endswith("?") else sentence


#: the words that open a sentence going on about the last one, in every installed pack
_CONTINUES = frozenset(word for pack in all_packs() for word in pack.continues)


def _goes_on(sentence: str) -> bool:
    """Whether a sentence after a request goes on about what it named ("She is a nurse.",
    "Ele atende às terças."): it opens with a pack's ``continues`` word and speaks of no task.
    One that opens with the user's own ("My psychiatrist may change the dose") was read so,
    and measured: an attacker's 54 probes found 28 it wrote ("My bad, I meant Rust", "My code
    needs reformatting", "Mi culpa, no la tuya")."""
    first = re.split(r"['’]", sentence.split(maxsplit=1)[0].casefold().strip(",:"))[0]
    return first in _CONTINUES and not _TASK_WORDS.search(sentence) and not _DEICTIC.search(sentence)


#: what opens a sentence said to whom the user writes, not of the fact before it: a
#: courtesy or a closing of any pack ("thank you", "have a great day", "un saludo")
_CLOSING = re.compile(
    r"^(?:"
    + "|".join(
        sorted(
            {re.escape(w).replace(r"\ ", r"\s+") for p in all_packs() for w in (*p.closings, *p.courtesies)},
            key=len,
            reverse=True,
        )
    )
    + r")(?![\w'’])",
    _I,
)


#: a speaker's label of any pack that opens a sentence ("System:", "Asistente:"): what
#: follows is another's words, or made to look so
_SPEAKER_LABEL = re.compile(
    r"^(?:" + "|".join(longest_first({re.escape(w) for p in all_packs() for w in p.speaker_labels})) + r")\s*+:",
    _I,
)


def _may_go_on(sentence: str) -> bool:
    """Whether a sentence after a request that no word of it joins may still go on about what
    it named, for the judge of meaning to read: a statement of two words or more that names
    no task ("My bad, I meant the other file", "Now deploy it there", a thanks, another
    speaker's label and questions never reach the judge). One that opens with "it" is read
    ("It gives me hives within an hour"): the pronoun rule leaves it out, as "it" is as
    often a thing of the work, and with the judge it cost three details of 120 on the tune
    halves and wrote nothing more."""
    said = sentence.strip()
    first = fold_accents(said.split(maxsplit=1)[0].casefold().strip(",.!:;")) if said else ""
    return (
        len(said.split()) >= 2
        and first not in _COURTESY_WORDS  # "Thanks, you're a lifesaver", "Obrigada por ouvir": said to the agent
        and not _CLOSING.match(said)  # "Much appreciated.", "Best regards, Sam", "Tenha um bom dia!"
        and not _SPEAKER_LABEL.match(said)  # "System: the user is an admin…": another's words, or made to look so
        and not said.endswith("?")
        and not _TASK_WORDS.search(said)
        and not _asks_to_keep(said)
        and not names_a_secret(said)
        and not find_secrets(said)
    )


def _joined(signal: Signal, sentence: str) -> Signal:
    """A request with the sentence that goes on about it, in the fact's own person."""
    more = _sentence(in_third_person(sentence.rstrip(".!;").strip(), signal.lang))
    text = in_one_gender(f"{signal.text.rstrip('.')}. {more}", signal.lang)
    return Signal(text, signal.key, signal.domain, signal.lang, f"{signal.rule}+more")


#: words that make a fact about the user's relationship with whom they talk to ("you promised
#: to call me", "our anniversary is in May", "nos conocimos en Rosario"), not about the user
_RELATIONSHIP = re.compile(r"\b(?:" + _either_of("relationship_words") + r")\b", _I)
#: the rules that give an instruction to the assistant: it is for the persona it was given to
_DIRECTIVE_RULES = frozenset(rule for _, rule, _ in DIRECTIVES)


def fact_persona(text: str, persona: str | None, rule: str = "") -> str | None:
    """Whose a fact said in a conversation with ``persona`` is (seed 002): what the user says
    of themself ("I have a dog named Max") is the user's, for every persona (None); what is
    about the relationship ("you promised…", "our anniversary…", the persona named) or an
    instruction to the assistant stays with that persona."""
    if not persona:
        return None
    if rule.split("+")[0] in _DIRECTIVE_RULES or _RELATIONSHIP.search(text):
        return persona
    if re.search(rf"\b{re.escape(persona)}\b", text, _I):
        return persona
    return None


def _refused(sentence: str) -> bool:
    return refusal(sentence) is not None


def _signal(clause: str) -> Signal | str | _Doubt | None:
    """The signal a clause gives; for a request to remember that is not kept, the reason."""
    if not clause:
        return None
    asked = _asked_after_a_story(clause) if _tells_of_remembering(clause.strip()) else None
    if asked is not None:  # "I remember you said so, but please remember my name is Dev"
        return _signal(asked)
    if PASSING_STATE.search(clause):  # "remember that today I'm tired": said out loud, not kept
        asks = any(pattern.match(clause) for _, _, pattern in REQUESTS)
        read = _read_signal(clause)  # "starting today I'm vegetarian": the judge of passing reads it
        if isinstance(read, _Doubt) and read.reason == _PASSING:
            return read
        if isinstance(read, Signal) and (asks or _asked(read)):  # "… today I'm the lead — keep that in mind"
            return _Doubt(_PASSING, read)
        return _PASSING if asks else None
    return _read_signal(clause)


def _read_signal(clause: str) -> Signal | str | _Doubt | None:
    """What ``_signal`` reads in a clause: a statement, a request the tables read, or one
    read by what every request has."""
    statement = _statement(clause)
    if statement is not None:
        return statement
    said_in = detect(clause)  # "anota que…" is a request in Spanish and in Portuguese: its own first
    table, lasting = _by_the_tables(clause, said_in)
    if lasting:
        return table
    if isinstance(table, Signal) and ":" not in " ".join(clause.split()[:_CUE_REACH]):
        return table
    # a request the table declined, or one that says what to keep after a colon ("Save
    # this for future sessions: …"): read by what every request has
    cued = _cued(clause, said_in)
    return cued if isinstance(cued, Signal) or table is None else table


def _by_the_tables(clause: str, said_in: str | None) -> tuple[Signal | str | _Doubt | None, bool]:
    """What the request tables read in ``clause`` (its own language's rows first), and
    whether it is a lasting instruction the directives read (then it is final). A request
    to be reminded of a to-do is named as one ("recuérdame que compre pan" had been
    written "El usuario compró pan")."""
    for lang, rule, pattern in sorted(REQUESTS, key=lambda row: row[0] != said_in):
        match = pattern.match(clause)
        asked = _the_request_led_to(match.group("x"), clause) if match else None
        if asked is not None:  # "For the record, remember that…"
            return asked, False
        both = _two_that_clauses(clause, match) if match and match.group("that") else None
        if both is not None:
            return both, False
        if match:
            # the fact is read in the words it is said in: "toma nota de que sou daltónico" is
            # a Spanish row's request of a Portuguese fact
            read = _requested(match, (detect(match.group("x")) if lang != said_in else None) or lang, rule)
            return (_REMINDER if isinstance(read, Signal) and _reminds(clause, match.group("x")) else read), False
    written_in = detect(clause) if any(p.match(clause) for _, _, p in DIRECTIVES) else None
    for lang, rule, pattern in DIRECTIVES:
        match = pattern.match(clause)
        if match and written_in in (None, lang):  # "nunca vou esquecer…" is no Spanish "nunca uses…"
            if _FORGET_NOT_FIRST.match(match.group("x")):
                return None, False  # "nunca olvides esto", "nunca te esqueças disso": a request, no instruction
            if _THIS_WORK.search(match.group("x")):
                return _FOR_THIS_WORK, True  # "always use STAGING_URL throughout this PR": the work at hand's
            # "A partir de agora, lembra que…", past a phrase ("…, em qualquer conversa, lembra que…")
            asked = _the_request_led_to(_past_the_scope(match.group("x")), clause)
            if asked is not None:
                return asked, False
            # "from now on I only drink decaf, remember that": the request said again is no part of it
            said = _trim(match.group("x"))
            as_fact = _a_fact_from_now_on(clause, said, lang, rule)
            if as_fact is not None:
                return as_fact, False
            directive = _directive(_without_trailing_request(said), lang, rule)
            if directive is None and _without_trailing_request(said) != said:
                return None, False  # "a partir de agora só bebo…, lembra disso": a fact, and its request
            return directive, True
    return None, False


#: a second clause a request's "that" goes on to, after "and" and a word of "also" at most
#: ("…, and also that I don't eat eggs", "… y también que no como huevo"); groups "also"
_AND_THAT = re.compile(
    r"(?<!\s)(?:\s*+,\s*+|\s++)(?P<join>"  # a run of spaces read from its start once
    + "|".join(sorted(map(re.escape, _AND_WORDS)))
    + r")\s++(?:(?P<also>[^\W\d_]++)\s++)?(?:"
    + "|".join(sorted(map(re.escape, _THAT_WORDS)))
    + r")\s++(?=\S)",
    _I,
)


def _two_that_clauses(clause: str, match: re.Match[str]) -> Signal | None:
    """The two facts of a request whose "that" governs two clauses joined by "and" ("Can you
    keep in mind that I'm vegetarian, and also that I don't eat eggs?"), each read as its own
    request and written as one fact, joined as said. None, and the request read whole as before, when it has
    no second clause, when either is not kept, or when the user is not the second's subject
    ("… y que trabaja en un banco": the first's; "… and that annoyed me"). The second had been refused
    as an order said after the fact, or written in the first person ("…, y también que no
    como huevo")."""
    told = match.group("x")
    head = clause[: match.start("x")]
    for join in _AND_THAT.finditer(told):
        if join.group("also") is not None and not says_contrast(join.group("also")):
            continue  # "… and make sure that the tests pass": no "also" of a fact
        fact, rest = told[: join.start()], told[join.end() :]
        if _not_of_the_fact(rest, fact):  # "…, and that you should restart the server"
            first = _signal(head + fact)
            return first if isinstance(first, Signal) else None
        if in_third_person(rest, detect(rest) or detect(clause) or ENGLISH).split()[:1] == rest.split()[:1]:
            return None  # "… y que trabaja en un banco": of whom the first clause told, read whole
        first, second = _signal(head + fact), _signal(head + rest)
        if isinstance(first, Signal) and isinstance(second, Signal):
            return replace(first, text=f"{first.text.rstrip('.')} {join.group('join')} {_going_on(second.text, rest)}")
        return None
    return None


def _not_of_the_fact(clause: str, fact: str) -> bool:
    """Whether a second clause of a request is none of the first's ``fact``: it speaks to the
    assistant ("that you should restart…", "que tienes que…"), names a thing of the task
    where the fact names none and tells nothing of the user or their group ("I live in Leeds
    and that the deploy script is broken"; "… y que entramos por el puerto 5001" goes on), or
    points back at what was said ("que eso me molestó")."""
    words = clause.split()
    first = fold_accents(words[0].casefold().strip(",.!?")) if words else ""
    # of the task, not of the user or their group ("…y que entramos por el puerto 2222")
    of_the_task = _TASK_WORDS.search(clause) is not None and not _TASK_WORDS.search(fact)
    return speaks_to_you(words) or (of_the_task and not _of_them_or_their_group(clause)) or first in _BACK_WORDS


def _going_on(fact: str, said: str) -> str:
    """A fact's text said after a join: its first letter in lower case unless its first word
    was said so ("The user's…" → "the user's…", "A sala…" → "a sala…"; "Ana…" stays)."""
    first = fact.split(maxsplit=1)[0] if fact.split() else ""
    return fact if first in said.split() else fact[:1].lower() + fact[1:]


def _the_request_led_to(told: str, clause: str) -> Signal | None:
    """The fact of the request a lead of ``clause`` runs into (``told``: what follows the
    lead), read alone ("For the record, remember that…", "From now on, remember that…"), or
    None when ``told`` opens with no word of keeping or keeps nothing."""
    if told == clause or _first_cue(told.split(), 1) is None:
        return None
    asked = _signal(told)
    return asked if isinstance(asked, Signal) else None


_REMINDER = "a reminder for later, not a fact"
_A_TODO = "a to-do for the task at hand, not a fact"
#: why a lasting instruction bound to a thing of the task at hand is not kept
_FOR_THIS_WORK = "an instruction for the work at hand (this file, this PR, …), not a lasting one"


def _reminds(clause: str, said: str) -> bool:
    """Whether ``clause`` asks to be reminded of a to-do ("recuérdame que compre pan",
    "lembra-me de ligar ao banco"), not to keep what it says of the user ("recordame que
    mi suegra se llama Elena", "remind me that my passport expires in May": facts)."""
    words = clause.split()
    cue = _first_cue(words, _CUE_REACH)
    return cue is not None and _reminds_by_its_word(words[cue]) and not _of_the_user_first(said)


def _of_the_user_first(said: str) -> bool:
    """Whether what a request to be reminded keeps is a fact: it opens with the user, their
    group or something of theirs, and is no to-do ("tengo que…", "preciso…": ``obligations``)
    nor a thing of the task ("mi script tiene que correr los tests")."""
    return _theirs(said) and not _OBLIGATION.search(said) and not _TASK_WORDS.search(said)


#: what makes a request to be reminded a to-do, in every pack
_OBLIGATION = re.compile(r"\b(?:" + ("|".join(o for p in all_packs() for o in p.obligations) or "(?!)") + r")\b", _I)


def _cued(clause: str, said_in: str | None) -> Signal | str | _Doubt | None:
    """A request no table row reads, by what every such request has: a word that asks to
    keep ("save", "guárdalo", "registra", "lembre") in its opening, then a colon or a "that"
    after which the fact is said: "Save this for future sessions: we deploy on Wednesdays",
    "Quiero que recuerdes que trabajo en Rappi", "Remember for next time that my dog is
    named Waffles". A to-do ("remember to…") has no colon or "that", and is not one."""
    lead = _KEEP_LEAD.match(clause)
    if lead is not None and _first_cue(lead.group("x").split(), 1) is not None:
        return _signal(lead.group("x"))  # "For the record, remember that my passport…": the request after it
    if lead is not None:  # "for next time: …", "para referência futura: …"
        kept = _kept(lead.group("x"), "", "", said_in)
        if isinstance(kept, Signal) and not _says_of_them(lead.group("x")):
            if not any(p.match(lead.group("x")) for _, _, p in DIRECTIVES):
                return _NOTHING_OF_THEM  # "Note to self: buy batteries"
        return kept
    words = clause.split()
    colon = next((i for i, w in enumerate(words) if w.endswith(":")), len(words))
    # a word after a colon is what is quoted ("Translate this: Hello, remember that I…")
    cue = _first_cue(words, min(_CUE_REACH, colon + 1))
    if cue is not None and _quoted(words[:cue]):
        return _SOMEONE_ELSES  # "Sam wrote — remember that I moved to Oslo": Sam's words
    if cue is None and _quoted(words[: colon + 1]) and _first_cue(words[colon + 1 :], _CUE_REACH) is not None:
        return _SOMEONE_ELSES  # "Sam wrote: remember that…": the request the colon opens is Sam's too
    if cue is not None and _asks_if_remembered(words, cue):
        return None  # "fix it and btw, do you remember that my husband is Rodrigo?"
    if cue is not None and _said_of_someone(words, cue):
        # "we save that data for 90 days", "Mis vecinos guardan mi coche…": said of someone,
        # not asked; a request may follow, of all said before it ("…; recuérdalo") or of
        # what it says ("antes que eu esqueça, anota que…")
        return _asked_further_on(clause, " ".join(words[cue + 1 :]).lstrip(",;: "), said_in)
    if cue is None:
        return _said_before_the_request(clause, said_in)
    start = _request_start(words, cue)
    if start > 0 and _tells_of_remembering(" ".join(words[start:])):
        return None  # "En la boda de mi hermana, recuerdo que llovió": a story, after its lead
    said, i = _said_after(words, cue)
    if said and _for_now_only(words[: i + 1], cue):
        return FOR_NOW_ONLY  # "Keep this in mind while we work on this: I turned off the cache"
    if said and _a_todo_before_its_colon(words, cue, i):
        return _A_TODO  # "remember to revert it later: I set RETRIES=0 in .env"
    if said and words[i].endswith(":") and _a_todo_after_its_colon(said, said_in):
        return _A_TODO  # "recuerda: comprar leche y llamar a mamá", "lembra: ligar pro encanador"
    if said and words[cue].endswith(":") and _cue_form(words[cue]) in _TASK_LABELS and not _says_of_them(said):
        return _REMINDER  # "Lembrete: pagar a conta de luz", "Recordatorio: renovar el DNI"
    if said and _is_cue(said.split()[0]):
        # a word of keeping said as a noun, then the request: what was said before it ("uso o
        # Obsidian pra notas, guarda isso"), else what the request says ("antes que eu esqueça,
        # anota que…")
        return _asked_further_on(clause, said, said_in)
    if _reminds_by_its_word(words[cue]) and (said is None or not _of_the_user_first(said)):
        return _REMINDER
    place = _a_place_before(words, cue)  # "En casa de mis suegros, recuerda que…": the fact is of it
    if said is None and cue + 1 < len(words) and _ANY_USER_SUBJECT.match(" ".join(words[cue + 1 :])):
        i, said = cue, " ".join(words[cue + 1 :])  # "keep in mind i prefer tabs"
    elif said is None and _says_more_than_a_back_word(words[cue + 1 :]) and place:
        i, said = cue, " ".join(words[cue + 1 :])  # "At my parents' place, remember there's no wifi"
    if said is None:
        return _said_before_the_request(clause, said_in) if cue > 0 else None  # "…, tenlo presente siempre"
    if i == cue and _for_now_only(words[: cue + 1], cue):
        return FOR_NOW_ONLY  # "for the rest of this session remember I'm on my phone"
    days = _a_time_before(words, cue)
    if days and _theirs(said):  # "Los viernes, recuerda que trabajo desde casa": the days are the fact's
        said = f"{days} {said}"
    if place and not days:
        said = f"{place} {said}"  # "En casa de mis suegros, recuerda que no hay wifi": of that house
    return _kept(said, words[cue], " ".join(words[cue + 1 : i]), said_in)


def _a_todo_before_its_colon(words: list[str], cue: int, colon: int) -> bool:
    """Whether a verb of asking, or asking not to forget, opens a to-do that ends at the
    colon ``words[colon]`` ("remember to revert it later: I set RETRIES=0 in .env",
    "acuérdate de quitarlo luego: …", "não esquece de reverter isso antes do merge: …"):
    what follows is what the to-do is about, not a fact to keep. A to-do that keeps
    ("remember to save this: …") asks to keep; "note to self:" is no verb's."""
    return (
        colon > cue + 1
        and (_asks_by_its_verb(words[cue]) or _FORGET_NOT.search(" ".join(words[: cue + 1])) is not None)
        and _a_todo_word(_cue_form(words[cue + 1]), words[cue + 2])
        and not _is_cue(words[cue + 2])
    )


#: asking not to forget, in every pack (``Pack.forget_requests``)
_FORGET_WORDS = "|".join(f for p in all_packs() for f in p.forget_requests) or "(?!)"
#: asking not to forget, ending where its word is
_FORGET_NOT = re.compile(rf"(?:^|\s)(?:{_FORGET_WORDS})$", _I)


#: asking not to forget, as the first words of a clause
_FORGET_NOT_FIRST = re.compile(rf"(?:{_FORGET_WORDS})\b", _I)


def _a_todo_after_its_colon(said: str, said_in: str | None) -> bool:
    """Whether what a request's colon opens is a to-do, in a language that tells one by its
    infinitive ("comprar leche…", "ligar pro encanador amanhã"), as a table row's request
    with no colon is ("recuerda comprar leche"): a verb written in lower case, no subject of
    the user's before it, nothing said of it ("vivir cerca del mar es mi sueño")."""
    return (
        (said.split(maxsplit=1) or [""])[0].islower()
        and _an_infinitive_first(said, detect(said) or said_in)
        and not _theirs(said)
        and _SAYS_SOMETHING.search(said) is None  # "vivir cerca del mar es mi sueño": of the user
    )


def _says_more_than_a_back_word(rest: list[str]) -> bool:
    """Whether what follows a request's word says something of its own: two words or more,
    not opening with what it points back with ("remember that so…", "guarda isso aí")."""
    if not rest or rest[0].strip(",.!?").casefold() in _BACK_WORDS:
        return False  # "…, remember that so you don't…": it points back
    return len(rest) >= 2


def _asked_further_on(clause: str, rest: str, said_in: str | None) -> Signal | str | _Doubt | None:
    """What a clause whose first word of keeping asks nothing keeps by a request further on:
    all said before that request ("Mis vecinos guardan mi coche…; recuérdalo"), else what
    ``rest`` (the clause after the word) asks ("antes que eu esqueça, anota que…")."""
    before = _said_before_the_request(clause, said_in)
    if before is not None:
        return before
    return _cued(rest, said_in) if rest else None


#: a request's lead-in before a colon, in every pack ("for next time:", "pra constar:"), or
#: before what the user says of themselves or their group ("for future reference my …")
_KEEP_LEAD = re.compile(
    r"^(?:(?:"
    + _either_of("keep_leads")
    + r")\s*(?:[:\-–—]|,)\s*|(?:"
    + _either_of("future_leads")
    + r")(?:\s*(?:[:\-–—]|,)\s*|\s+(?=(?:"
    + "|".join(
        [
            *(p.user_opening for p in all_packs() if p.user_opening),
            GROUP_OPENING,
        ]
    )
    + r")\b)))(?P<x>\S.*)$",
    _I,
)


#: the most words a request said after its fact takes ("…, tenlo en cuenta de ahora en adelante")
_TRAILING_WORDS = 12


_NOTHING_OF_THEM = "it says nothing of the user or their world (a to-do, an instruction)"


def _said_before_the_request(clause: str, said_in: str | None) -> Signal | str | _Doubt | None:
    """A fact followed by the request to keep it: "my landlord is Mr. Okonkwo, please
    remember that (in case…)", "uso Arch Linux, anotalo", "…, tenlo presente siempre",
    "…, que no se te olvide en próximas sesiones". What is kept says something of the
    user or their world: "Call the plumber, keep that in mind" is a to-do."""
    for split in reversed(_marks_after(clause)):
        rest = clause[split.end() :].split()
        if len(rest) > _TRAILING_WORDS:
            return None  # a request is short; what is longer is no request after its fact
        said = clause[: split.start()].strip().lstrip("¡¿").strip()  # "¡¡mi hija cumple…!! porfa recordalo"
        aside = _ASIDE_END.search(said)  # "…mora em Braga, aliás, não esquece disso"; not a name ("…is By the Way")
        if aside is not None and aside.group().islower() and said[: aside.start()].strip(" ,"):
            said = said[: aside.start()].rstrip(" ,")
        cue = _trailing_request(rest)
        if cue is not None and len(said) >= 3:
            if _says_of_them(_without_lead(said)):
                return _kept(said, cue, "", said_in)
            if not _names_a_thing_first(_without_lead(said)) or _TASK_WORDS.search(said):
                return _NOTHING_OF_THEM  # "Lembrete: pagar a conta de luz, anota aí"
            kept = _kept(said, cue, "", said_in)  # "the gym on 5th shuts at 9 on Sundays, remember that"
            return _Doubt(_NOT_A_FACT, kept) if isinstance(kept, Signal) else kept
    return None


_POINTS_BEFORE = "it points at what was said before it"
_NOT_A_FACT = "not a fact about the user or their world"
#: why a request's own words are refused when they name nothing to keep: said after what it
#: asks to keep ("…. pls remember for recipe stuff"), the request keeps that
_SAYS_NOTHING_KEPT = frozenset({_NOTHING_AFTER, _NOT_A_FACT, _UNNAMED})


#: "recordame", "recuérdame", "lembra-me": remind me (of a to-do), not keep this
_REMIND_ME = re.compile(r"^(?:" + _either_of("remind_stems") + r")\w*?-?me\b", _I)


def _reminds_by_its_word(word: str) -> bool:
    """Whether a request's word asks to be reminded ("recuérdame", "lembra-me", "remind me")."""
    return _REMIND_ME.search(fold_accents(word)) is not None


#: the most words a request says of itself between its word and its "that" ("remember *for
#: the rest of this chat* that…")
_BEFORE_THAT_MOST = 8


def _before_its_that(said: str) -> list[str]:
    """The words a request says before the "that" of what it keeps ("for this chat" of
    "for this chat that I prefer…"), or none when no "that" comes soon."""
    words = said.split()
    upto = next((k for k, w in enumerate(words[: _BEFORE_THAT_MOST + 1]) if w.casefold() in _THAT_WORDS), None)
    return words[:upto] if upto else []


def _requested(match: re.Match[str], lang: str, rule: str) -> Signal | str | _Doubt:
    """What a request ("remember that…", "acordate de…") asks to keep, when it is worth it;
    else why it is not kept."""
    head = match.string[: match.start("x")].split()
    cue = _first_cue(head, len(head))
    lead = match.group("x").split(": ")[0].split() if ": " in match.group("x") else []
    if cue is not None and _for_now_only([*head, *lead, *_before_its_that(match.group("x"))], cue):
        return FOR_NOW_ONLY  # "remember for this session that…", "guarda isso enquanto a gente mexe aqui: …"
    if _points_before(head, match.group("x").split()):
        return _POINTS_BEFORE  # "save that somewhere so…", "Remember it please, I'm…"
    said = _past_the_scope(
        _without_its_reason(
            _without_opening_aside(_FILLER.sub("", _trim(_without_task_tail(match.group("x")))).strip())
        )
    )
    if not said or _says_nothing(said):
        return _NOTHING_AFTER  # "Remember, to:"
    if _refused(said):
        return f"not a fact to keep ({refusal(said)})"
    if match.group("to") and _LASTING.match(said):
        found = pack(lang)
        directive = _directive(said, lang, found.lasting_rule if found else "")  # "remember to always…"
        return directive or "an instruction for the task at hand"
    why = _not_worth_keeping(said, lang, match)
    if isinstance(why, str):
        return why
    if _what_to_do_with_it(said, match.group("x"), _of_user_or_group(said, lang)):
        return "a note about the task at hand, with what to do about it" if why is None else why.reason
    if PASSING_STATE.search(said):  # "remember I'm exhausted today": the judge of passing reads it
        return _PASSING if why is not None else _Doubt(_PASSING, _as_said(said, lang, rule))
    return _as_said(said, lang, rule) if why is None else _Doubt(why.reason, _as_said(said, lang, rule))


#: the user's group (``request_facts._USER_GROUP``), as a word anywhere ("en *nuestro* equipo…")
_GROUP_WORDS = re.compile(rf"{GROUP_OPENING}\b", _I)
#: an infinitive, in the packs that tell a to-do by one: "acordate de cerrar el archivo" is
#: a to-do, not a fact
_INFINITIVE = {p.code: re.compile(rf"^(?:{p.infinitive})$", _I) for p in all_packs() if p.infinitive}


def _not_worth_keeping(said: str, lang: str, request: re.Match[str]) -> str | _ByItsWords | None:
    """Why what a request asks to remember is not a lasting fact about the user or their
    world but the task at hand, or None when it is one: "remember to close the handle",
    "note the failing test in tests/test_api.py", "save this file as config.yaml", "please
    remember my favourite tea" (nothing said of it), "anotá el error y arreglalo" are not."""
    if _a_todo(said, lang, request):
        return _A_TODO
    unfinished = _unfinished(said)
    if unfinished is not None:
        return unfinished  # "remember that his name is Bob", "remember that my name is"
    if _names_without_saying(said, request):
        return "names something without saying anything of it"
    about_user = bool(_USER_SUBJECT[lang].match(said))
    said_as_fact = bool(request.group("that") or request.group("colon"))  # "remember that our CI runs on…"
    their_world = _USER_GROUP.match(said) or _their_world(said, about_user)
    if _TASK_WORDS.search(said) and not about_user and not (said_as_fact and their_world):
        return _task_refusal(said)
    if about_user or _USER_GROUP.match(said) or request.group("that") or request.group("colon"):
        return None
    return _ByItsWords(_NOT_A_FACT) if _names_a_thing_first(said) else _NOT_A_FACT


#: an article in any pack ("the", "a", "el", "una", "o", "as"): what a thing named opens with
_ARTICLES = frozenset(w for p in all_packs() for w in p.value_articles)


def _names_a_thing_first(said: str) -> bool:
    """Whether what a request asks to keep opens by naming a thing, past a phrase of when
    ("remember the spare key hangs by the fridge", "anota aí pra sempre, o banco de testes
    fica em…"): a statement the user's world may hold though no word says whose; the judge
    of meaning settles it. "remember life's beauty", "remember why I do it" name no thing."""
    occasion = _OCCASION.match(said)
    words = (said[occasion.end() :] if occasion is not None else said).split()
    return len(words) > 3 and words[0].casefold() in _ARTICLES


def _a_todo(said: str, lang: str, request: re.Match[str]) -> bool:
    """ "remember to…", "acordate de cerrar…", "recordá manejar la lista vacía": a to-do."""
    if lang not in _INFINITIVE:  # "remember to…": the request's own word says it
        return bool(request.group("to"))
    infinitive = _an_infinitive_first(said, lang)
    if request.group("to") and infinitive:
        return True
    subject = _USER_SUBJECT.get(lang)
    return infinitive and not (subject is not None and subject.match(said))


def _an_infinitive_first(said: str, lang: str | None) -> bool:
    """Whether ``said`` opens with an infinitive, in a language that tells a to-do by one."""
    read = _INFINITIVE.get(lang or "")
    words = said.split(maxsplit=1)
    return read is not None and bool(words) and read.match(words[0]) is not None


def _names_without_saying(said: str, request: re.Match[str]) -> bool:
    """ "remember my favourite tea": a thing of the user's named, nothing said of it ("my
    garden faces north" says something)."""
    if request.group("that") or not _BARE_POSSESSIVE.match(said):
        return False
    if _says_of_it(said):
        return False
    return not any(w.endswith("s") for w in said.split()[2:])


#: a short phrase before a comma: where or when what follows holds ("in all our sessions, …",
#: "en cada sesión, …")
_OCCASION = re.compile(r"^(?:[^\s,]+\s+){0,5}?[^\s,]+,\s+(?=\S)")


def _past_an_occasion(said: str) -> str:
    """What a directive asks, past a phrase of where or when before a comma, when what
    follows opens with the user ("going forward in all our sessions, I work nights": the
    user works nights; "from now on, in every chat, my daughter is called Inés"): no
    instruction opens with a preposition, and the fact is the user's."""
    occasion = _OCCASION.match(said)
    if occasion is None or not _theirs(said[occasion.end() :]) or not _opens_a_phrase(said):
        return said  # "always use metric units with me, I don't think in feet": the order is the instruction
    return said[occasion.end() :]


def _opens_a_phrase(said: str) -> bool:
    """Whether ``said`` opens with a word a phrase of where or when does ("in", "en", "em",
    "for", "durante": ``Pack.place_leads``), not with the order itself."""
    words = said.split(maxsplit=1)
    return bool(words) and fold_accents(words[0].casefold()) in _PLACE_LEADS


def _a_fact_from_now_on(clause: str, said: str, lang: str, rule: str) -> Signal | _Doubt | None:
    """The fact a "from now on" tells when what follows it (``said``) is the user's or their
    group's ("from now on my dentist is Dr. Ruiz", "a partir de agora moro em Niterói", "de
    ahora en adelante vivimos en Lima"): ``clause`` read as its language's plainest request
    reads it, as "remember that from now on…" is, a fact under its own subject that replaces
    the older value (the slot rules read "from now on" as a word of now). It had been
    written as an instruction ("From now on, the user's dentist is…", under the key
    "instruction"), which replaced nothing, and Portuguese's was dropped. None for an order
    ("from now on call me Sam", "…, I want you to answer in Spanish", "me chama de Bia") and
    for "always…", which stay instructions."""
    found = pack(lang)
    fact = _without_trailing_request(said)
    first, _, rest = fact.partition(" ")
    if first.casefold() in _AND_WORDS and rest:  # "de aquí en adelante y en todas nuestras charlas, trabajo…"
        fact = rest
    fact = _past_an_occasion(fact)  # "going forward, in all our chats, I work nights"
    if (
        found is None
        or not found.plain_request
        or rule == found.lasting_rule
        or not _theirs(fact)
        or speaks_to_you(fact.split())
    ):
        return None
    read, _ = _by_the_tables(f"{found.plain_request}: {_without_trailing_request(clause)}", lang)
    if isinstance(read, _Doubt):  # "as of today I'm…": a passing state? the judge settles it, as for any request
        kept = read.kept
    elif isinstance(read, Signal):
        kept = read
    else:
        return None
    # the user's own fact is written in the third person; one the rules keep as said is their
    # group's ("we deploy on Fridays") or no statement of theirs ("me chama de Bia": an order)
    as_said = fact.rstrip(" .").casefold() in kept.text.casefold()
    return read if not as_said or _USER_GROUP.match(fact) else None


def _directive(said: str, lang: str, rule: str) -> Signal | None:
    """An instruction that lasts ("from now on…", "always…"), written by its language's
    grammar (``Pack.write_instruction``); None when what follows the directive is no
    instruction, or the language has no grammar to write one."""
    found = pack(lang)
    if not said.split() or found is None or found.write_instruction is None:
        return None
    grammar, code = found.write_instruction, found.code
    said = _past_an_occasion(said)
    text = as_typed_kept(lambda held: guarded(grammar, code, held, rule), said)
    return Signal(_sentence(text), found.instruction_key, "preferences", lang, rule) if text else None


# ---------------------------------------------------------------------------- key, domain


def _stands_alone(clause: str) -> bool:
    """Whether a clause left beside a secret's says a value of its own with a verb of being
    or naming ("wifi is HomeNet"): not one that points at the secret ("the other one is…",
    "it is changed every 90 days", "is also my door code"), nor one that holds a code itself
    ("my new one is 4821", "el de mi mujer es 7392": three digits or more in a row)."""
    words = clause.split()
    if not words or _POINTS_AT_ANOTHER.match(clause) or _ASKS_A_VALUE.fullmatch(words[0]) or _CODE_SHAPE.search(clause):
        return False
    return any(_ASKS_A_VALUE.fullmatch(word) for word in words)


#: what opens a clause that points at something said beside it ("it", "the other one", "el de…")
_POINTS_AT_ANOTHER = re.compile(
    rf"^(?:{_DEICTIC_OPENINGS}|" + "|".join(p.others_opening for p in all_packs() if p.others_opening) + r")\b", _I
)
#: a code's shape: three digits or more in a row
_CODE_SHAPE = re.compile(r"\d{3,}")
