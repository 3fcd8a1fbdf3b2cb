"""The time a question names (pure functions): "what did she start in October 2023?",
"when did Melanie go camping in June?", "¿qué pasó en mayo?", "in 2022", "on 3 June". A
memory dated within it has the question's time on its side even when its text names no
date (a turn said in a session of that month), so recall lifts it
(``RankingParams.date_weight``).

A question with a subject and a time relative to today ("what did we decide about the
database yesterday?") is ranked by its subject alone (``without_time``), and the memories
of that time are lifted: above the rest when the time is a day to a month (``is_precise``),
first among those about as relevant when it is loose ("recently", "last year";
``RankingParams.told_weight``).

A question about a time with no subject of its own ("what did I do yesterday?", "what
happened in October?", "¿qué hice la semana pasada?") is answered by the memories of that
time instead (``about_a_time``): its words match nothing a memory says.

Months in English and Spanish, with or without a year or a day, and a year alone. "May",
"March" and "August" are English words too: they name a month only when written with a
capital or beside a number ("may I ask" is no month).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from ..lang import all_packs, fold_accents, pack
from .told import Told, asked_time, told_times

#: the month names of every installed pack (``lang.Pack.months``)
_MONTH: dict[str, int] = {name: n for pack in all_packs() for name, n in pack.months.items()}
#: how a month is named in what vmem says: its English name
_EN_MONTHS = english.months if (english := pack("en")) else {}
_EN = sorted(_EN_MONTHS, key=lambda name: _EN_MONTHS[name])
#: month names that are also common words ("may I ask" is no month)
_AMBIGUOUS = frozenset(word for p in all_packs() for word in p.ambiguous_months)
_WORD = re.compile(r"[^\W\d_]+")
_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
#: a day written as numbers, year first: "2026-11-25" (ISO 8601, Obsidian's daily notes),
#: "2026/11/25"
_NUMBERED_DAY = re.compile(r"(?<![\d/-])(19[5-9]\d|20\d\d)([-/])(0?[1-9]|1[0-2])\2(0?[1-9]|[12]\d|3[01])(?![\d/-])")
_MONTHS = "|".join(sorted(_MONTH, key=len, reverse=True))
#: a day beside its month: "13 October", "8th December", "3 de mayo", "October 13", "May 3rd"
_DAY = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:de\s+)?(?:{_MONTHS})\b|\b(?:{_MONTHS})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\d)",
    re.IGNORECASE,
)


#: days either side of a named day that still hold it: what happened "on May 3" is often
#: told a day or a few later ("yesterday", "last Friday"). LoCoMo dev: 1, 3 and 7 rank
#: alike (docs/benchmarks.md)
DAY_WINDOW = 3


@dataclass(frozen=True)
class NamedTime:
    """A month (of ``year``, or of any year), a whole ``year``, or a ``day`` of a month:
    then the days within ``DAY_WINDOW`` of it, not the whole month."""

    month: int | None
    year: int | None
    day: int | None = None

    def holds(self, when: dt.datetime | dt.date | None) -> bool:
        if when is None:
            return False
        if self.day is not None and self.month is not None:
            try:
                named = dt.date(self.year or when.year, self.month, self.day)
            except ValueError:
                return False
            on = when.date() if isinstance(when, dt.datetime) else when
            return abs((on - named).days) <= DAY_WINDOW
        if self.month is not None and when.month != self.month:
            return False
        return self.year is None or when.year == self.year


def named_time(question: str) -> NamedTime | None:
    """The month, year or day ``question`` names, or None (none, or more than one: "from May
    to July" names a span this rule does not read)."""
    numbered = {(int(y), int(m), int(d)) for y, _, m, d in _NUMBERED_DAY.findall(question)}
    if numbered:  # "what happened on 2026-11-25?" names a day, not the year 2026
        if len(numbered) > 1:
            return None
        (on,) = numbered
        return NamedTime(on[1], on[0], on[2])
    years = {int(y) for y in _YEAR.findall(question)}
    months = _months(question)
    if len(months) > 1 or len(years) > 1:
        return None
    if not months and not years:
        return None
    days = {int(a or b) for a, b in _DAY.findall(question) if 1 <= int(a or b) <= 31} if months else set()
    day = next(iter(days)) if len(days) == 1 else None
    return NamedTime(next(iter(months), None), next(iter(years), None), day)


def _months(question: str) -> set[int]:
    """The months ``question`` names."""
    months = set()
    for match in _WORD.finditer(question):
        word = match.group()
        month = _MONTH.get(word.lower())
        if month is None:
            continue
        if word.lower() in _AMBIGUOUS and not (
            word[0].isupper() and match.start() > 0 or _beside_number(question, match)
        ):
            continue  # "may I", a question that begins "March…": a word, not a month
        months.add(month)
    return months


def _beside_number(text: str, match: re.Match[str]) -> bool:
    before, after = text[: match.start()].rstrip(), text[match.end() :].lstrip()
    return bool(re.search(r"\d[,.]?$", before) or re.match(r"\d", after))


#: the words a question about a time holds besides its time: asking words, pronouns and the
#: verbs that name no subject ("what did I do yesterday?", "¿qué pasó ayer?"). A question
#: with any other word ("what did we decide yesterday?") has a subject, and is ranked by it
_NO_SUBJECT = frozenset(word for p in all_packs() for word in p.no_subject)
_WORDS = re.compile(r"[^\W\d_]+|\d+")


@dataclass(frozen=True)
class TimesAsked:
    """What a question says of time, read once for a ranking: the month, year or day it
    names (``named_time``), the days it names relative to today (``asked_time``), and,
    for a question about a time alone, the days it asks about (``about_a_time``)."""

    named: NamedTime | None
    told: Told | None
    about: Told | None


def times_asked(question: str, today: dt.date) -> TimesAsked:
    """``question``'s times (``TimesAsked``), each rule read once."""
    told = asked_time(question, today)
    named = named_time(question)
    return TimesAsked(named, told, _about(question, today, told, named))


def about_a_time(question: str, today: dt.date) -> Told | None:
    """The days a question about a time asks about, when it has no subject of its own:
    "what did I do yesterday?" (one day), "what happened last week?" (Monday to Sunday),
    "what did I do in October?" (the last October up to ``today``), "¿qué hice en
    2025?". None for a question with a subject ("what did we decide yesterday?"), or
    that names no one time."""
    return times_asked(question, today).about


def _about(question: str, today: dt.date, told: Told | None, named: NamedTime | None) -> Told | None:
    """``about_a_time`` from the question's relative time (``told``), else the time it
    names (``named``)."""
    by_name = told is None and named is not None
    if told is None and named is not None:
        told = _latest(named, today)
    if told is None or _has_subject(question, told, by_name):
        return None
    return told


def _has_subject(question: str, told: Told, named: bool) -> bool:
    """Whether ``question`` holds a word beside its time (``told``, or a ``named`` month,
    year or day) that is not one of ``_NO_SUBJECT``."""
    time_words = set(_WORDS.findall(fold_accents(told.phrase).casefold()))
    words = [w for w in _WORDS.findall(fold_accents(question).casefold()) if w not in time_words]
    if named:  # its month, year and day: "in October", "on 3 June, 2025", "el 3 de mayo"
        words = [w for w in words if not w.isdigit() and w not in _MONTH and w not in ("st", "nd", "rd", "th")]
    return not all(w in _NO_SUBJECT for w in words)


def _latest(named: NamedTime, today: dt.date) -> Told | None:
    """``named`` as days: the day, month or year itself, or the last of it up to ``today``
    when the question gives no year ("in October", asked in November: this year's)."""
    try:
        if named.month is None:
            year = named.year or today.year
            return Told(str(year), dt.date(year, 1, 1), dt.date(year, 12, 31), "year")
        year = named.year or (
            today.year if (named.month, named.day or 1) <= (today.month, today.day) else today.year - 1
        )
        name = _EN[named.month - 1].capitalize()
        if named.day is not None:
            day = dt.date(year, named.month, named.day)
            return Told(f"{name} {named.day}", day, day, "day")
        first = dt.date(year, named.month, 1)
        following = dt.date(year + named.month // 12, named.month % 12 + 1, 1)
        return Told(name, first, following - dt.timedelta(days=1), "month")
    except ValueError:  # "31 February"
        return None


#: a span longer than this many days is answered from each of its parts (``parts_of_span``)
SPREAD_DAYS = 28


def parts_of_span(about: Told) -> list[tuple[dt.date, dt.date]]:
    """The parts a long span is answered from, newest first: "what did I do in October?"
    by its weeks, "in 2025?" by its months, so the block tells the whole span and not its
    last days ("the last 10 years" by its years). A span of up to ``SPREAD_DAYS`` days is one
    part."""
    days = (about.last - about.first).days
    if days < SPREAD_DAYS:
        return [(about.first, about.last)]
    parts: list[tuple[dt.date, dt.date]] = []
    end = about.last
    while end >= about.first:
        if days > 2 * 366:  # "the last 10 years": by year
            start = end.replace(month=1, day=1)
        elif days > 2 * SPREAD_DAYS + 6:  # a year, "the last 3 months": by month
            start = end.replace(day=1)
        else:  # a month, "the past two weeks"... by week
            start = end - dt.timedelta(days=end.weekday())
        parts.append((max(start, about.first), end))
        if start <= dt.date.min:
            break
        end = start - dt.timedelta(days=1)
    return parts


#: the times a question names precisely enough that it looks there: its memories come first
PRECISE_UNITS = frozenset({"day", "weekend", "week", "month"})


def is_precise(told: Told) -> bool:
    """Whether ``told`` is a day, weekend, week or month ("yesterday", "last week", "this
    month"), not a loose time ("recently", "last year", "4 years ago")."""
    return told.unit in PRECISE_UNITS


#: a part of the day says what, not only when: "can I drive you home after the party
#: tonight?" asks about driving at night ("no manejo de noche"), so its words stay
_PART_OF_DAY = re.compile(
    r"\b(?:" + "|".join(re.escape(w) for p in all_packs() for w in p.parts_of_day) + r")\b", re.IGNORECASE
)


def without_time(question: str, told: Told) -> str:
    """``question`` without the words of its time: "what did we decide about the database
    yesterday?" is ranked by "what did we decide about the database ?", since a memory that
    says "yesterday" says it of another day. A part of the day stays (``_PART_OF_DAY``)."""
    if _PART_OF_DAY.search(told.phrase):
        return question
    return question.replace(told.phrase, " ", 1)


def of_the_time(about: Told, created: dt.datetime | None, text: str) -> str | None:
    """Why a memory is of the days a question about a time asks about: it was written then
    ("written 2026-11-26"), or it tells of them ("tells tomorrow = 2026-11-28", written the
    day before); None when neither."""
    if created is None:
        return None
    if about.first <= created.date() <= about.last:
        return f"written {created.date().isoformat()}"
    tells = [t for t in told_times(text, created) if t.first <= about.last and t.last >= about.first]
    return f"tells {tells[0]}" if tells else None
