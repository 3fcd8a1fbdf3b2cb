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
from collections.abc import Iterable
from dataclasses import dataclass

from ..lang.times import FEW, NUMBERS, UNITS, WEEKDAYS, Said, TimesSaid, relative_times

#: at most this many told times on one line: a long text tells more, and each costs tokens
MAX_TOLD = 3


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
    it tells them, each phrase once, at most ``MAX_TOLD``, from its first characters
    (``lang.times.READ_CHARS``); [] without a date."""
    if written is None:
        return []
    return _resolved(relative_times(text), written)


def _resolved(said: Iterable[Said], written: dt.date | dt.datetime) -> list[Told]:
    """The relative times ``said``, read against ``written``: each phrase once, at most
    ``MAX_TOLD``."""
    day = written.date() if isinstance(written, dt.datetime) else written
    told: list[Told] = []
    seen: set[str] = set()
    for one in said:
        if one.phrase.casefold() in seen:
            continue
        when = _resolve(one.rule, dict(one.groups), day, one.phrase)
        if when is not None:
            seen.add(one.phrase.casefold())
            told.append(when)
            if len(told) >= MAX_TOLD:
                break
    return told


RECENT_DAYS = 14
#: a few of a unit, as days ago: from 2 to 6 of them back ("a few weeks ago": 14 to 42 days)
_FEW_ROUGHLY = (2, 6)
_FEW_UPTO = 3
_UNIT_DAYS = {"hour": 0, "day": 1, "week": 7, "month": 30, "year": 365}


def asked_time(times: TimesSaid, today: dt.date) -> Told | None:
    """The one time a question names relative to ``today`` ("what did I do yesterday?",
    "what happened last week?", "¿qué hice esta semana?", "in the last few days"), or
    None: none, or more than one ("yesterday or today?" asks no one time). ``times``: the
    question's, as ``lang.times`` read them."""
    told = _resolved(times.relative, today)
    # "esta semana" is Spanish and Portuguese: one time, read once
    present = list({(p.start, p.end): _period(p.phrase, today, p.rule, 0) for p in times.present}.values())
    recent = [Told(r.phrase, today - dt.timedelta(days=RECENT_DAYS - 1), today, "days") for r in times.recent]
    found = told + present + recent + _spans(times.spans, today)
    return found[0] if len(found) == 1 else None


def _spans(spans: tuple[Said, ...], today: dt.date) -> list[Told]:
    """The spans a question names, as days: "the last few days" said on 27 November is 24
    to 27 November; "a few weeks ago" 16 October to 13 November."""
    found: list[Told] = []
    taken: list[tuple[int, int]] = []
    for match in spans:
        if any(start < match.end and match.start < end for start, end in taken):
            continue  # "los últimos días" is read once
        span = _span(match, today)
        if span is not None:
            taken.append((match.start, match.end))
            found.append(span)
    return found


def _span(said: Said, today: dt.date) -> Told | None:
    """The days one span means, read against ``today``; None out of range."""
    groups = dict(said.groups)
    unit_said = (groups["unit"] or "").casefold()
    unit = UNITS.get(unit_said, unit_said)
    days = _UNIT_DAYS.get(unit)
    if days is None:
        return None
    try:
        if groups.get("ago"):
            first = today - dt.timedelta(days=_FEW_ROUGHLY[1] * days)
            last = today - dt.timedelta(days=_FEW_ROUGHLY[0] * days)
        else:
            n = groups.get("n")
            plural = unit_said.endswith("s")  # "los últimos días": a few of them
            count = _FEW_UPTO if (n and re.fullmatch(FEW, n, re.IGNORECASE)) or (not n and plural) else _count(n)
            back = -(-count // 24) if unit == "hour" else count * days
            first, last = today - dt.timedelta(days=back), today
    except (ValueError, OverflowError):  # "the last 99 years" before year 1
        return None
    return Told(said.phrase, first, last, "days")


def _count(n: str | None) -> int:
    """A span's number: "two", "3", "a couple of"; 1 when none is said ("the past week")."""
    if not n:
        return 1
    return NUMBERS.get(n.casefold()) or int(n)


#: the step of each period rule: "last week" is one week back
_STEP = {"last": -1, "next": 1, "this": 0}


def _resolve(rule: str, groups: dict[str, str | None], day: dt.date, phrase: str) -> Told | None:
    """What one matched rule tells, read against ``day``; None for a date out of range."""
    kind, _, arg = rule.partition(":")
    try:
        if kind == "ago":
            said = groups["n"] or ""
            n = NUMBERS.get(said.casefold()) or int(said)
            return _period(phrase, day, UNITS[(groups["unit"] or "").casefold()], -n)
        if kind == "weekday":
            return _weekday(phrase, day, WEEKDAYS[(groups["weekday"] or "").casefold()], int(arg))
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
