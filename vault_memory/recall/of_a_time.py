"""A question about a time ("what did I do yesterday?", "what happened in October?"): the
memories written then or telling of then, newest first, in place of a ranking by words, and
what to say of those the lifecycle left out."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from itertools import zip_longest

from ..index.snapshot import Snapshot
from .candidates import Candidates
from .dates import of_the_time, parts_of_span
from .told import Told

#: a question about a time also finds the memories that tell of it from up to this many
#: days before ("next month", said on the last day of the one before)
TELLS_AHEAD_DAYS = 31
#: and from up to this many days after ("anteontem fui ao cinema", "last week I started
#: physio", "el mes pasado…" said on the last day of the month after)
TELLS_AFTER_DAYS = 62


#: the newest memories of that span read for it, at most: a year of a busy vault is more
#: than a block shows, and the newest are the ones shown
DATED_READ = 2_000

#: what the lifecycle leaves out that a question about a time may want back, and how
_RECALLED_BY = {"expired": "--include-expired", "stale": "--include-stale", "archived": "--include-archived"}


def left_out_of_a_time(about: Told, reasons: Counter[str | None], found: int) -> list[str]:
    """What to say of a question about a time: that no memory is of it (``found`` 0), or
    how many of its memories the lifecycle left out, by ``reasons``, and how to recall them."""
    if not found:
        return [f"no memory was written on or tells of {about}"]
    notes = []
    for reason, flag in _RECALLED_BY.items():
        if n := reasons[reason]:
            many = n != 1
            notes.append(
                f"{n} memor{'ies' if many else 'y'} of {about} {'are' if many else 'is'} {reason}"
                f" and left out: {flag} recalls {'them' if many else 'it'}"
            )
    return notes


def of_a_time(snap: Snapshot, about: Told, depth: int) -> Candidates:
    """The memories of the days a question about a time asks about (``dates.about_a_time``):
    those written then, newest first, taken in turn from each part of a long span
    (``dates.parts_of_span``: October's weeks, a year's months), then those that tell of them,
    written after ("anteayer fui al teatro", written two days later) or before ("I have the
    dentist tomorrow", written the day before); at most ``depth``. Each
    candidate's score steps down from 1 to 0.5 by its place, so the lifecycle weighs
    them as it weighs ranked ones."""
    parts = parts_of_span(about)
    share = max(depth // len(parts), 1)
    why: dict[str, str] = {}
    each: list[list[str]] = []
    day = dt.timedelta(days=1)
    for first, last in parts:  # the span's first and last day a day wider in UTC: a memory's date is its zone's
        wider = (first - day if first == about.first else first, last + day if last == about.last else last)
        each.append(_dated(snap, about, *wider, share, why))
    order = [path for turn in zip_longest(*each) for path in turn if path is not None][:depth]
    if all(len(found) < share for found in each):  # the span read whole: what tells of it, written after or before
        after = about.last + dt.timedelta(days=TELLS_AFTER_DAYS)
        order += _dated(snap, about, about.last + 2 * day, after, depth - len(order), why)
        ahead = about.first - dt.timedelta(days=TELLS_AHEAD_DAYS + 1)
        order += _dated(snap, about, ahead, about.first - 2 * day, depth - len(order), why)
    step = 0.5 / max(len(order), 1)
    fused = {path: 1.0 - step * place for place, path in enumerate(order)}
    return Candidates([], [], {}, {}, None, fused, {}, dated={path: why[path] for path in order})


def _dated(snap: Snapshot, about: Told, first: dt.date, last: dt.date, most: int, why: dict[str, str]) -> list[str]:
    """At most ``most`` memories created from ``first`` to ``last`` that are of ``about``
    (``of_the_time``) and not in ``why`` yet, newest first; each put in ``why`` with why."""
    start = dt.datetime.combine(first, dt.time.min, dt.UTC)
    end = dt.datetime.combine(last, dt.time.max, dt.UTC)
    paths = [path for path in snap.paths_created(start, end, DATED_READ) if path not in why]
    found: list[str] = []
    chunk = most + 8  # most of those written then are of it: read as far as needed, the newest fill it
    for at in range(0, len(paths), chunk):
        for path, memory in snap.memories(paths[at : at + chunk]).items():
            if len(found) < most and (said := of_the_time(about, memory.written_at, memory.text)):
                why[path] = said
                found.append(path)
        if len(found) >= most:
            break
    return found
