"""The times a text says, read without a calendar: "yesterday", "last week", "two days ago",
"hace tres días", "esta semana", "lately", "the last few days", "in October 2023", "on 3
June". What each phrase means in days depends on the day it was said (a memory's date, or
today for a question); that is resolved in ``recall.told`` and ``recall.dates``, from what
is read here. A question's times are read once, with the question (``Question.times``).

Months in every pack's words, with or without a year or a day, and a year alone. "May",
"March" and "August" are English words too: they name a month only when written with a
capital or beside a number ("may I ask" is no month).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from .registry import all_packs
from .text import fold_accents, longest_first

#: the words of time of every installed pack (``lang.Pack``), as the rules below read them
NUMBERS: dict[str, int] = {w: n for pack in all_packs() for w, n in pack.numbers.items()}
WEEKDAYS: dict[str, int] = {w: n for pack in all_packs() for w, n in pack.weekdays.items()}
UNITS: dict[str, str] = {w: unit for pack in all_packs() for w, unit in pack.units.items()}
_COUNT = r"\d{1,2}|" + "|".join(longest_first(NUMBERS))
_N = rf"(?P<n>{_COUNT})"
_DAY_NAME = r"(?P<weekday>" + "|".join(longest_first(WEEKDAYS)) + r")"

#: "the last year", "the next week": a span of time ("over the last year"), not a date; a
#: lookbehind per rule keeps them out
#: (pattern, what it tells): "shift:N" days from the memory's date; "last:week" the
#: calendar period before the memory's; "next:month" the one after; "ago:unit" N units
#: back; "weekday:-1" the named weekday before the date, "weekday:+1" after it. A pack's
#: longer phrase comes before the shorter one it holds ("antes de ayer" before "ayer")
_RULES: tuple[tuple[str, str], ...] = tuple(
    (pattern.replace("{N}", _N).replace("{DAY}", _DAY_NAME), rule)
    for pack in all_packs()
    for pattern, rule in pack.relative_times
)

#: a word every rule holds: a text with none of them (most texts) is not read by the rules
_TRIGGERS = tuple(trigger for pack in all_packs() for trigger in pack.time_triggers)
#: any of them, in one pass over the casefolded text (one ``in`` a trigger cost a recall
#: at 10,000 memories about 1 ms: every candidate's text, and every line of the block)
_TRIGGERED = re.compile("|".join(re.escape(trigger) for trigger in longest_first(set(_TRIGGERS))))


@cache
def _patterns() -> tuple[re.Pattern[str], tuple[tuple[re.Pattern[str], str], ...]]:
    """All the rules as one pattern read in one pass (the first rule that matches at a
    place wins: a longer phrase's rule comes before the shorter one it holds, "antes de
    ayer" before "ayer"), and each rule alone, to tell which one a phrase is and read its
    number or weekday. Compiled at first use, not at import (the prompt hook's client
    imports the renderer and never reads a told time)."""
    unnamed = "|".join(re.sub(r"\(\?P<\w+>", "(?:", pattern) for pattern, _ in _RULES)
    every = re.compile(rf"\b(?:{unnamed})\b", re.IGNORECASE)
    return every, tuple((re.compile(pattern, re.IGNORECASE), rule) for pattern, rule in _RULES)


@dataclass(frozen=True)
class Said:
    """A phrase of a text that tells a time, as read without a calendar: which rule read it
    (a relative time's: "shift:-1", "ago:unit", "weekday:-1", "last:week"; the present's
    unit: "week"; or "recent", "span") and the words its rule took apart (a number, a
    weekday, a unit), and where it stands in the text."""

    phrase: str
    rule: str
    groups: tuple[tuple[str, str | None], ...] = ()
    start: int = 0
    end: int = 0

    def group(self, name: str) -> str | None:
        return dict(self.groups).get(name)


def _said(match: re.Match[str], rule: str) -> Said:
    return Said(match.group(0), rule, tuple(match.groupdict().items()), match.start(), match.end())


#: the characters of a text read for its relative times: more than a block's line ever
#: shows (its budget is a few hundred tokens), and a pasted megabyte is read in
#: microseconds, not a second
READ_CHARS = 4000


def relative_times(text: str) -> Iterator[Said]:
    """The times ``text`` tells relative to the day it was said ("yesterday", "hace tres
    días", "last Friday"), in the order it tells them, each as often as it says it, from
    its first ``READ_CHARS`` characters."""
    text = text[:READ_CHARS]
    if not _TRIGGERED.search(text.casefold()):
        return
    every, rules = _patterns()
    for match in every.finditer(text):
        phrase = match.group(0)
        yield next(_said(m, rule) for pattern, rule in rules if (m := pattern.fullmatch(phrase)))


#: what a question names of the present, which a memory's own text never needs resolved
#: (its "today" is its date): "what did I do today?", "¿qué hice esta semana?"
_PRESENT: tuple[tuple[str, str], ...] = tuple(row for pack in all_packs() for row in pack.present_times)
#: what a question calls the recent past, as days up to today: "what have I been up to
#: lately?", "¿qué hice últimamente?"
_RECENT = "|".join(pattern for pack in all_packs() for pattern in pack.recent_times)
#: what a question calls a span up to today or a while back, as days: "in the last few
#: days", "over the past two weeks", "the last 48 hours", "a few weeks ago", "en los
#: últimos días", "hace unas semanas". Loose times ("days"): no one date
FEW = "|".join(word for pack in all_packs() for word in pack.few)
_SPAN_UNITS = "|".join(longest_first(UNITS))
_SPANS = tuple(
    pattern.replace("{FEW}", FEW).replace("{COUNT}", _COUNT).replace("{UNITS}", _SPAN_UNITS)
    for pack in all_packs()
    for pattern in pack.spans
)
#: "the last few days *of* the trip", "los últimos días *del* viaje": of something, not of today
_SPAN_OF = "|".join(word for pack in all_packs() for word in pack.span_of)


# ---------------------------------------------------------------------------- named times

#: the month names of every installed pack (``lang.Pack.months``)
MONTHS: dict[str, int] = {name: n for pack in all_packs() for name, n in pack.months.items()}
#: month names that are also common words ("may I ask" is no month)
_AMBIGUOUS = frozenset(word for p in all_packs() for word in p.ambiguous_months)
_WORD = re.compile(r"[^\W\d_]+")
_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
#: a day written as numbers, year first: "2026-11-25" (ISO 8601, Obsidian's daily notes),
#: "2026/11/25"
_NUMBERED_DAY = re.compile(r"(?<![\d/-])(19[5-9]\d|20\d\d)([-/])(0?[1-9]|1[0-2])\2(0?[1-9]|[12]\d|3[01])(?![\d/-])")
_MONTH_NAMES = "|".join(longest_first(MONTHS))


@cache
def _day() -> re.Pattern[str]:
    """A day beside its month: "13 October", "8th December", "3 de mayo", "October 13",
    "May 3rd" (compiled at first use: the renderer imports this module, and reads no month)."""
    return re.compile(
        rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:de\s+)?(?:{_MONTH_NAMES})\b|\b(?:{_MONTH_NAMES})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\d)",
        re.IGNORECASE,
    )


@dataclass(frozen=True)
class NamedTime:
    """A month (of ``year``, or of any year), a whole ``year``, or a ``day`` of a month."""

    month: int | None
    year: int | None
    day: int | None = None


def named_time(text: str) -> NamedTime | None:
    """The month, year or day ``text`` names, or None (none, or more than one: "from May
    to July" names a span this rule does not read)."""
    numbered = {(int(y), int(m), int(d)) for y, _, m, d in _NUMBERED_DAY.findall(text)}
    if numbered:  # "what happened on 2026-11-25?" names a day, not the year 2026
        if len(numbered) > 1:
            return None
        (on,) = numbered
        return NamedTime(on[1], on[0], on[2])
    years = {int(y) for y in _YEAR.findall(text)}
    months = _months(text)
    if len(months) > 1 or len(years) > 1:
        return None
    if not months and not years:
        return None
    days = {int(a or b) for a, b in _day().findall(text) if 1 <= int(a or b) <= 31} if months else set()
    day = next(iter(days)) if len(days) == 1 else None
    return NamedTime(next(iter(months), None), next(iter(years), None), day)


def _months(text: str) -> set[int]:
    """The months ``text`` names."""
    months = set()
    for match in _WORD.finditer(text):
        word = match.group()
        month = MONTHS.get(word.lower())
        if month is None:
            continue
        if word.lower() in _AMBIGUOUS and not (word[0].isupper() and match.start() > 0 or _beside_number(text, match)):
            continue  # "may I", a question that begins "March…": a word, not a month
        months.add(month)
    return months


def _beside_number(text: str, match: re.Match[str]) -> bool:
    before, after = text[: match.start()].rstrip(), text[match.end() :].lstrip()
    return bool(re.search(r"\d[,.]?$", before) or re.match(r"\d", after))


# ---------------------------------------------------------------------------- a question's times

#: the words a question about a time holds besides its time: asking words, pronouns and the
#: verbs that name no subject ("what did I do yesterday?", "¿qué pasó ayer?"). A question
#: with any other word ("what did we decide yesterday?") has a subject, and is ranked by it
NO_SUBJECT = frozenset(word for p in all_packs() for word in p.no_subject)
_WORDS = re.compile(r"[^\W\d_]+|\d+")
#: a part of the day says what, not only when: "can I drive you home after the party
#: tonight?" asks about driving at night ("no manejo de noche"), so its words stay
_PART_OF_DAY = r"\b(?:" + "|".join(re.escape(w) for p in all_packs() for w in p.parts_of_day) + r")\b"


def time_words(text: str) -> list[str]:
    """``text``'s words and numbers, accents and case folded, as the time rules count them."""
    return _WORDS.findall(fold_accents(text).casefold())


def says_part_of_day(phrase: str) -> bool:
    """Whether a time's ``phrase`` names a part of the day ("tonight", "esta noche")."""
    return re.search(_PART_OF_DAY, phrase, re.IGNORECASE) is not None


@dataclass(frozen=True)
class TimesSaid:
    """What a question says of time, read once and without a calendar: its relative times
    in the order it says them, what it names of the present, of the recent past and of a
    span up to today (each rule's phrases in the rules' order), the month, year or day it
    names, and its words as the time rules count them."""

    relative: tuple[Said, ...]
    present: tuple[Said, ...]
    recent: tuple[Said, ...]
    spans: tuple[Said, ...]
    named: NamedTime | None
    words: tuple[str, ...]


def times_said(text: str) -> TimesSaid:
    """``text``'s times (``TimesSaid``), each rule read once."""
    present = tuple(
        _said(match, unit)
        for pattern, unit in _PRESENT
        for match in re.finditer(rf"\b(?:{pattern})\b", text, re.IGNORECASE)
    )
    recent = tuple(_said(m, "recent") for m in re.finditer(rf"\b(?:{_RECENT})\b", text, re.IGNORECASE))
    spans = tuple(
        _said(match, "span")
        for pattern in _SPANS
        for match in re.finditer(rf"\b(?:{pattern})\b(?! (?:{_SPAN_OF})\b)", text, re.IGNORECASE)
    )
    return TimesSaid(tuple(relative_times(text)), present, recent, spans, named_time(text), tuple(time_words(text)))
