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

The words of time are read in ``lang.times``, once with the question (``Question.times``);
here they become days.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..lang import pack, read_question
from ..lang.times import MONTHS, NO_SUBJECT, NamedTime, TimesSaid, named_time, says_part_of_day, time_words
from .told import Told, asked_time, told_times

__all__ = ["NamedTime", "named_time"]  # read in ``lang.times``; resolved here

#: how a month is named in what vmem says: its English name
_EN_MONTHS = english.months if (english := pack("en")) else {}
_EN = sorted(_EN_MONTHS, key=lambda name: _EN_MONTHS[name])


#: days either side of a named day that still hold it: what happened "on May 3" is often
#: told a day or a few later ("yesterday", "last Friday"). LoCoMo dev: 1, 3 and 7 rank
#: alike (docs/benchmarks.md)
DAY_WINDOW = 3


def holds(named: NamedTime, when: dt.datetime | dt.date | None) -> bool:
    """Whether ``when`` is within the time ``named``: its month (of its year, or of any),
    its year, or for a day the days within ``DAY_WINDOW`` of it, not the whole month."""
    if when is None:
        return False
    if named.day is not None and named.month is not None:
        try:
            day = dt.date(named.year or when.year, named.month, named.day)
        except ValueError:
            return False
        on = when.date() if isinstance(when, dt.datetime) else when
        return abs((on - day).days) <= DAY_WINDOW
    if named.month is not None and when.month != named.month:
        return False
    return named.year is None or when.year == named.year


@dataclass(frozen=True)
class TimesAsked:
    """What a question says of time, read once for a ranking: the month, year or day it
    names (``named_time``), the days it names relative to today (``asked_time``), and,
    for a question about a time alone, the days it asks about (``about_a_time``)."""

    named: NamedTime | None
    told: Told | None
    about: Told | None


def times_asked(times: TimesSaid, today: dt.date) -> TimesAsked:
    """A question's times (``TimesAsked``), as ``lang.times`` read them, resolved against
    ``today``."""
    told = asked_time(times, today)
    return TimesAsked(times.named, told, _about(times, today, told, times.named))


def about_a_time(question: str, today: dt.date) -> Told | None:
    """The days a question about a time asks about, when it has no subject of its own:
    "what did I do yesterday?" (one day), "what happened last week?" (Monday to Sunday),
    "what did I do in October?" (the last October up to ``today``), "¿qué hice en
    2025?". None for a question with a subject ("what did we decide yesterday?"), or
    that names no one time."""
    return times_asked(read_question(question).times, today).about


def _about(times: TimesSaid, today: dt.date, told: Told | None, named: NamedTime | None) -> Told | None:
    """``about_a_time`` from the question's relative time (``told``), else the time it
    names (``named``)."""
    by_name = told is None and named is not None
    if told is None and named is not None:
        told = _latest(named, today)
    if told is None or _has_subject(times.words, told, by_name):
        return None
    return told


def _has_subject(words: tuple[str, ...], told: Told, named: bool) -> bool:
    """Whether a question's ``words`` hold one beside its time (``told``, or a ``named``
    month, year or day) that is not one a question about a time alone says."""
    phrase = set(time_words(told.phrase))
    rest = [w for w in words if w not in phrase]
    if named:  # its month, year and day: "in October", "on 3 June, 2025", "el 3 de mayo"
        rest = [w for w in rest if not w.isdigit() and w not in MONTHS and w not in ("st", "nd", "rd", "th")]
    return not all(w in NO_SUBJECT for w in rest)


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


def without_time(question: str, told: Told) -> str:
    """``question`` without the words of its time: "what did we decide about the database
    yesterday?" is ranked by "what did we decide about the database ?", since a memory that
    says "yesterday" says it of another day. A part of the day stays (``lang.times.says_part_of_day``)."""
    if says_part_of_day(told.phrase):
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
