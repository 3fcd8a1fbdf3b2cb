"""The time a question names (pure functions): "what did she start in October 2023?",
"when did Melanie go camping in June?", "¿qué pasó en mayo?", "in 2022". A memory dated
within it has the question's time on its side even when its text names no date (a turn
said in a session of that month), so recall lifts it (``RankingParams.date_weight``).

Months in English and Spanish, with or without a year, and a year alone. "May", "March"
and "August" are English words too: they name a month only when written with a capital or
beside a number ("may I ask" is no month).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

_EN = "january february march april may june july august september october november december".split()
_ES = "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split()
_MONTH = {name: n for n, name in enumerate(_EN, start=1)} | {name: n for n, name in enumerate(_ES, start=1)}
_MONTH["setiembre"] = 9
#: English month names that are also common words
_AMBIGUOUS = {"may", "march", "august"}
_WORD = re.compile(r"[A-Za-zÁÉÍÓÚáéíóúñÑ]+")
_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")


@dataclass(frozen=True)
class NamedTime:
    """A month (of ``year``, or of any year), or a whole ``year``."""

    month: int | None
    year: int | None

    def holds(self, when: dt.datetime | dt.date | None) -> bool:
        if when is None:
            return False
        if self.month is not None and when.month != self.month:
            return False
        return self.year is None or when.year == self.year


def named_time(question: str) -> NamedTime | None:
    """The month or year ``question`` names, or None (none, or more than one: "from May to
    July" names a span this rule does not read)."""
    years = {int(y) for y in _YEAR.findall(question)}
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
    if len(months) > 1 or len(years) > 1:
        return None
    if not months and not years:
        return None
    return NamedTime(next(iter(months), None), next(iter(years), None))


def _beside_number(text: str, match: re.Match[str]) -> bool:
    before, after = text[: match.start()].rstrip(), text[match.end() :].lstrip()
    return bool(re.search(r"\d[,.]?$", before) or re.match(r"\d", after))
