"""Times a memory tells relative to its own date (pure functions): "yesterday", "last
week", "two days ago", "a couple of weeks ago", "next month", "last Friday", "ayer", "la
semana pasada", "hace tres días", "hace un par de días", "el viernes pasado". An agent
reading "I went to the support group yesterday" in a memory written months ago reads it
against today, or does the arithmetic wrong; the block names the time it means,
resolved against the memory's date (``render.memory_line``).
Nothing is written into the user's file.

Only what one date resolves: "a few days ago", "recently", "on Friday" (which one?) and
"next weekend" (this coming one or the one after?) are left as written.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import cache

from ..lang import all_packs

#: at most this many told times on one line: a long text tells more, and each costs tokens
MAX_TOLD = 3
#: the characters of a text read for them: more than a block's line ever shows (its budget
#: is a few hundred tokens), and a pasted megabyte is read in microseconds, not a second
TOLD_CHARS = 4000

#: the words of time of every installed pack (``lang.Pack``), as the rules below read them
_NUMBERS: dict[str, int] = {w: n for pack in all_packs() for w, n in pack.numbers.items()}
_WEEKDAYS: dict[str, int] = {w: n for pack in all_packs() for w, n in pack.weekdays.items()}
_UNITS: dict[str, str] = {w: unit for pack in all_packs() for w, unit in pack.units.items()}
_COUNT = r"\d{1,2}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True))
_N = rf"(?P<n>{_COUNT})"
_DAY_NAME = r"(?P<weekday>" + "|".join(sorted(_WEEKDAYS, key=len, reverse=True)) + r")"

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
class Told:
    """A phrase of the text and the days it means, first to last (inclusive)."""

    phrase: str
    first: dt.date
    last: dt.date
    #: how to name it: "day", "week" (Monday to Sunday), "weekend", "month", "year", or
    #: "days" (from the first to the last: "lately", asked)
    unit: str

    def __str__(self) -> str:
        if self.unit == "week":
            when = f"week of {self.first.isoformat()}"
        elif self.unit == "weekend":
            when = f"weekend of {self.first.isoformat()}"
        elif self.unit == "month":
            when = f"{self.first.year:04d}-{self.first.month:02d}"
        elif self.unit == "year":
            when = f"{self.first.year:04d}"
        elif self.unit == "days":
            when = f"{self.first.isoformat()} to {self.last.isoformat()}"
        else:
            when = self.first.isoformat()
        return f"{self.phrase} = {when}"


def told_times(text: str, written: dt.date | dt.datetime | None) -> list[Told]:
    """The times ``text`` tells relative to ``written`` (the memory's date), in the order
    it tells them, each phrase once, at most ``MAX_TOLD``, from its first ``TOLD_CHARS``
    characters; [] without a date."""
    if written is None:
        return []
    day = written.date() if isinstance(written, dt.datetime) else written
    text = text[:TOLD_CHARS]
    folded = text.casefold()
    if not any(word in folded for word in _TRIGGERS):
        return []
    every, rules = _patterns()
    told: list[Told] = []
    seen: set[str] = set()
    for match in every.finditer(text):
        phrase = match.group(0)
        if phrase.casefold() in seen:
            continue
        rule, groups = next((rule, m.groupdict()) for pattern, rule in rules if (m := pattern.fullmatch(phrase)))
        when = _resolve(rule, groups, day, phrase)
        if when is not None:
            seen.add(phrase.casefold())
            told.append(when)
            if len(told) >= MAX_TOLD:
                break
    return told


#: what a question names of the present, which a memory's own text never needs resolved
#: (its "today" is its date): "what did I do today?", "¿qué hice esta semana?"
_PRESENT: tuple[tuple[str, str], ...] = tuple(row for pack in all_packs() for row in pack.present_times)
#: what a question calls the recent past, as days up to today: "what have I been up to
#: lately?", "¿qué hice últimamente?"
_RECENT = "|".join(pattern for pack in all_packs() for pattern in pack.recent_times)
RECENT_DAYS = 14


#: what a question calls a span up to today or a while back, as days: "in the last few
#: days", "over the past two weeks", "the last 48 hours", "a few weeks ago", "en los
#: últimos días", "hace unas semanas". Loose times ("days"): no one date
_FEW = "|".join(word for pack in all_packs() for word in pack.few)
_SPAN_UNITS = "|".join(sorted(_UNITS, key=len, reverse=True))
_SPANS = tuple(
    pattern.replace("{FEW}", _FEW).replace("{COUNT}", _COUNT).replace("{UNITS}", _SPAN_UNITS)
    for pack in all_packs()
    for pattern in pack.spans
)
#: "the last few days *of* the trip", "los últimos días *del* viaje": of something, not of today
_SPAN_OF = "|".join(word for pack in all_packs() for word in pack.span_of)
#: a few of a unit, as days ago: from 2 to 6 of them back ("a few weeks ago": 14 to 42 days)
_FEW_ROUGHLY = (2, 6)
_FEW_UPTO = 3
_UNIT_DAYS = {"hour": 0, "day": 1, "week": 7, "month": 30, "year": 365}


def asked_time(question: str, today: dt.date) -> Told | None:
    """The one time ``question`` names relative to ``today`` ("what did I do yesterday?",
    "what happened last week?", "¿qué hice esta semana?", "in the last few days"), or
    None: none, or more than one ("yesterday or today?" asks no one time)."""
    told = told_times(question, today)
    present = list(  # "esta semana" is Spanish and Portuguese: one time, read once
        {
            match.span(): _period(match.group(0), today, unit, 0)
            for pattern, unit in _PRESENT
            for match in re.finditer(rf"\b(?:{pattern})\b", question, re.IGNORECASE)
        }.values()
    )
    recent = [
        Told(match.group(0), today - dt.timedelta(days=RECENT_DAYS - 1), today, "days")
        for match in re.finditer(rf"\b(?:{_RECENT})\b", question, re.IGNORECASE)
    ]
    times = told + present + recent + _spans(question, today)
    return times[0] if len(times) == 1 else None


def _spans(question: str, today: dt.date) -> list[Told]:
    """The spans ``question`` names (``_SPANS``), as days: "the last few days" said on
    27 November is 24 to 27 November; "a few weeks ago" 16 October to 13 November."""
    found: list[Told] = []
    taken: list[tuple[int, int]] = []
    for pattern in _SPANS:
        for match in re.finditer(rf"\b(?:{pattern})\b(?! (?:{_SPAN_OF})\b)", question, re.IGNORECASE):
            if any(start < match.end() and match.start() < end for start, end in taken):
                continue  # "los últimos días" is read once
            span = _span(match, today)
            if span is not None:
                taken.append(match.span())
                found.append(span)
    return found


def _span(match: re.Match[str], today: dt.date) -> Told | None:
    """The days one matched span means, read against ``today``; None out of range."""
    groups = match.groupdict()
    said = groups["unit"].casefold()
    unit = _UNITS.get(said, said)
    days = _UNIT_DAYS.get(unit)
    if days is None:
        return None
    try:
        if groups.get("ago"):
            first = today - dt.timedelta(days=_FEW_ROUGHLY[1] * days)
            last = today - dt.timedelta(days=_FEW_ROUGHLY[0] * days)
        else:
            n = groups.get("n")
            plural = said.endswith("s")  # "los últimos días": a few of them
            count = _FEW_UPTO if (n and re.fullmatch(_FEW, n, re.IGNORECASE)) or (not n and plural) else _count(n)
            back = -(-count // 24) if unit == "hour" else count * days
            first, last = today - dt.timedelta(days=back), today
    except (ValueError, OverflowError):  # "the last 99 years" before year 1
        return None
    return Told(match.group(0), first, last, "days")


def _count(n: str | None) -> int:
    """A span's number: "two", "3", "a couple of"; 1 when none is said ("the past week")."""
    if not n:
        return 1
    return _NUMBERS.get(n.casefold()) or int(n)


#: the step of each period rule: "last week" is one week back
_STEP = {"last": -1, "next": 1, "this": 0}


def _resolve(rule: str, groups: dict[str, str], day: dt.date, phrase: str) -> Told | None:
    """What one matched rule tells, read against ``day``; None for a date out of range."""
    kind, _, arg = rule.partition(":")
    try:
        if kind == "ago":
            n = _NUMBERS.get(groups["n"].casefold()) or int(groups["n"])
            return _period(phrase, day, _UNITS[groups["unit"].casefold()], -n)
        if kind == "weekday":
            return _weekday(phrase, day, _WEEKDAYS[groups["weekday"].casefold()], int(arg))
        if kind == "shift":
            return _period(phrase, day, "day", int(arg))
        return _period(phrase, day, arg, _STEP[kind])
    except (ValueError, OverflowError, KeyError):  # a date out of range, a number not read
        return None


def _period(phrase: str, day: dt.date, unit: str, step: int) -> Told:
    """The day, week (Monday to Sunday), weekend, month or year ``step`` of them from
    ``day``'s own."""
    if unit == "day":
        when = day + dt.timedelta(days=step)
        return Told(phrase, when, when, "day")
    if unit in ("week", "weekend"):
        start = day - dt.timedelta(days=day.weekday()) + dt.timedelta(weeks=step)
        if unit == "weekend":
            return Told(phrase, start + dt.timedelta(days=5), start + dt.timedelta(days=6), "weekend")
        return Told(phrase, start, start + dt.timedelta(days=6), "week")
    if unit == "month":
        return _month(phrase, day.year, day.month + step)
    return Told(phrase, dt.date(day.year + step, 1, 1), dt.date(day.year + step, 12, 31), "year")


def _weekday(phrase: str, day: dt.date, target: int, direction: int) -> Told:
    """The named weekday before ``day`` (``direction`` < 0) or after it, never ``day`` itself:
    "last Monday" said on a Monday is the one a week before."""
    if direction < 0:
        when = day - dt.timedelta(days=(day.weekday() - target) % 7 or 7)
    else:
        when = day + dt.timedelta(days=(target - day.weekday()) % 7 or 7)
    return Told(phrase, when, when, "day")


def _month(phrase: str, year: int, month: int) -> Told:
    """The month ``month`` of ``year``, either beyond 1–12 carried into the year."""
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    first = dt.date(year, month, 1)
    following = dt.date(year + month // 12, month % 12 + 1, 1)
    return Told(phrase, first, following - dt.timedelta(days=1), "month")
