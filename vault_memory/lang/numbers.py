"""Digits said as words, read as the digits they say.

A code is dictated one digit at a time ("the shed padlock opens with seven three seven
three", "o cadeado abre com um nove nove zero", "double four seven two"): the rules that
read a secret's value read digits, so such a code was stored as a fact. Here each run of
three digits or more said as words, with nothing but spaces, commas, dashes or slashes
between them, is read as its digits, and every character read is mapped back to the words
it came from, so a span found in what is read is a span of the text as written. Counts said
apart ("nine, seven and five", "two dogs and three cats") are no run. Each pack says its
digits (``Pack.digits``, ``Pack.digit_repeats``).
"""

from __future__ import annotations

import functools
import re

from .registry import all_packs
from .text import longest_first

#: the fewest digits a run says before it is read as a number
FEWEST = 3
#: what may stand between two digits of one run ("seven-three", "nine nine, four one")
_BETWEEN = re.compile(r"[ \t,/\-–]{1,3}")


@functools.cache
def _words() -> tuple[dict[str, int], dict[str, int], re.Pattern[str] | None]:
    digits = {w.casefold(): n for p in all_packs() for w, n in p.digits.items()}
    repeats = {w.casefold(): n for p in all_packs() for w, n in p.digit_repeats.items()}
    if not digits:
        return digits, repeats, None
    either = "|".join(re.escape(w) for w in longest_first([*digits, *repeats]))
    return digits, repeats, re.compile(rf"(?<!\w)(?:{either})(?!\w)", re.IGNORECASE)


def digits_said(text: str) -> tuple[str, list[int], list[int]]:
    """``text`` with each run of digits said as words read as its digits ("opens with 7373"),
    and for each character of it where it starts and ends in ``text``; ``text`` and two
    empty lists when it says no such run (the common case: one search)."""
    digits, repeats, pattern = _words()
    if pattern is None:
        return text, [], []
    runs = _runs(text, pattern, digits, repeats)
    if not runs:
        return text, [], []
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    at = 0
    for start, end, said in runs:
        out.append(text[at:start])
        starts += range(at, start)
        ends += range(at + 1, start + 1)
        for digit, (word_start, word_end) in said:
            out.append(digit)
            starts.append(word_start)
            ends.append(word_end)
        at = end
    out.append(text[at:])
    starts += range(at, len(text))
    ends += range(at + 1, len(text) + 1)
    return "".join(out), starts, ends


def _runs(
    text: str, pattern: re.Pattern[str], digits: dict[str, int], repeats: dict[str, int]
) -> list[tuple[int, int, list[tuple[str, tuple[int, int]]]]]:
    """(start, end, [(digit, its words' span)]) of each run of ``FEWEST`` digits or more."""
    runs = []
    current: list[tuple[str, tuple[int, int]]] = []
    run_start = last_end = -1
    times: tuple[int, int] | None = None  # a "double" said before the digit it repeats: its count, where it starts

    def close() -> None:
        if len(current) >= FEWEST:
            runs.append((run_start, last_end, list(current)))
        current.clear()

    for match in pattern.finditer(text):
        word = match.group().casefold()
        joined = last_end >= 0 and _BETWEEN.fullmatch(text, last_end, match.start()) is not None
        if not joined:
            close()
            times = None
            run_start = match.start()
        if word in repeats:  # "double", said before the digit it repeats
            times = (repeats[word], match.start())
            last_end = match.end()
            continue
        count, begins = times if times is not None else (1, match.start())
        current.extend([(str(digits[word]), (begins, match.end()))] * count)
        times = None
        last_end = match.end()
    close()
    return runs
