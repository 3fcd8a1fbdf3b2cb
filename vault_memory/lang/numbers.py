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
    """Every pack's numbers as a code is said (each word folded to its value: a digit, a
    number of two, a ten), its words that repeat the next digit, and the pattern of one
    number said: a ten and its unit ("twenty-eight", "treinta y seis", "vinte e oito"), or one word."""
    packs = all_packs()
    values = {w.casefold(): n for p in packs for table in (p.digits, p.two_digits, p.tens) for w, n in table.items()}
    repeats = {w.casefold(): n for p in packs for w, n in p.digit_repeats.items()}
    if not values:
        return values, repeats, None
    tens = "|".join(re.escape(w) for w in longest_first([w for p in packs for w in p.tens]))
    units = "|".join(re.escape(w) for w in longest_first([w for p in packs for w, n in p.digits.items() if n]))
    joiners = "|".join(re.escape(p.tens_joiner) for p in packs if p.tens_joiner)
    either = "|".join(re.escape(w) for w in longest_first([*values, *repeats]))
    joined = rf"[ \t]*-[ \t]*|[ \t]+(?:(?:{joiners})[ \t]+)?" if joiners else r"[ \t]*-[ \t]*|[ \t]+"
    compound = rf"(?P<ten>{tens})(?:{joined})(?P<unit>{units})(?!\w)|" if tens and units else ""
    return values, repeats, re.compile(rf"(?<!\w)(?:{compound}(?:{either})(?!\w))", re.IGNORECASE)


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


def _said(match: re.Match[str], word: str, values: dict[str, int]) -> str:
    """The digits one number said says: "28" of "twenty-eight", "30" of "thirty", "7" of "seven"."""
    if "ten" in match.re.groupindex and match.group("ten") is not None:
        return str(values[match.group("ten").casefold()] + values[match.group("unit").casefold()])
    return str(values[word])


def _runs(
    text: str, pattern: re.Pattern[str], digits: dict[str, int], repeats: dict[str, int]
) -> list[tuple[int, int, list[tuple[str, tuple[int, int]]]]]:
    """(start, end, [(digit, its words' span)]) of each run of ``FEWEST`` digits or more: a
    number of two digits gives both, each with the whole number's words."""
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
        current.extend([(digit, (begins, match.end())) for digit in _said(match, word, digits) * count])
        times = None
        last_end = match.end()
    close()
    return runs
