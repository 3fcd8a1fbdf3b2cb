"""What a conversation's turn is, read from its text (pure functions): who told it, and
whether a question names them.

A transcript's turn opens with its speaker: "[1:14 pm on 25 May, 2023] Melanie: Thanks…",
"Ana: mañana llego tarde". A question that names a person ("what did Melanie paint?",
"¿qué estudió Ana?") is nearly always answered by what that person said (LoCoMo dev: 96%
of the evidence of a question naming one speaker is that speaker's turn, against 70% of
what ranked in the top 10), so recall lifts the turns of the speakers a question names
(``RankingParams.speaker_weight``). Only a memory of a conversation has a speaker: "Note:
buy milk" in a vault of facts is no one's turn.
"""

from __future__ import annotations

import re

#: an optional "[when]" and then one to three words before a colon, at the start of a turn
_OPENING = re.compile(r"(?:\[[^\]\n]{0,80}\]\s*)?(\w[\w'’.-]*(?: \w[\w'’.-]*){0,2}):\s")
_WORD = re.compile(r"\w+")


def speaker(text: str) -> str | None:
    """The first name of whoever told ``text`` (casefolded), when it opens as a transcript's
    turn does and each word of the name starts with a capital; else None."""
    opening = _OPENING.match(text)
    if opening is None:
        return None
    words = opening.group(1).split()
    if not all(word[0].isupper() for word in words):
        return None
    return words[0].casefold()


def named(question: str, speakers: set[str]) -> set[str]:
    """The ``speakers`` (casefolded first names) that ``question`` names, as whole words."""
    return speakers & {word.casefold() for word in _WORD.findall(question)}
