"""What a conversation's turn is, read from its text (pure functions): who told it,
whether a question names them, and whether it only asks.

A transcript's turn opens with its speaker: "[1:14 pm on 25 May, 2023] Melanie: Thanks…",
"Ana: mañana llego tarde". A question that names a person ("what did Melanie paint?",
"¿qué estudió Ana?") is nearly always answered by what that person said (LoCoMo dev: 96%
of the evidence of a question naming one speaker is that speaker's turn, against 70% of
what ranked in the top 10), so recall lifts the turns of the speakers a question names
(``RankingParams.speaker_weight``). A question that names both ("what did Jon say about
Gina's store?") is most often about the one it names first, its subject: of the 67 LoCoMo
dev questions naming both speakers, 83 of 120 evidence turns are the first-named's. So the
first-named is the question's ``teller``, whose turns gain the whole lift, the other named
speakers' half; a question that names them together ("did Jon and Gina both…") is about
both alike. Only a memory of a conversation has a speaker: "Note: buy milk" in a vault
of facts is no one's turn.

A turn that only asks ("Wow! What got you into running?") tells nothing: what it asks is
answered by a turn after it. Its words are the question's, so it ranks among the best,
yet it is 12% of LoCoMo dev's evidence against 23% of what ranked in the top 10; recall
lowers it (``RankingParams.asking_weight``). A turn that tells something and then asks
back ("I joined a group last Tuesday. What's up with you?") is not lowered.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..lang import Question

#: an optional "[when]" and then one to three words before a colon, at the start of a turn
_OPENING = re.compile(r"(?:\[[^\]\n]{0,80}\]\s*)?((?<![\w'’.-])\w[\w'’.-]*(?: \w[\w'’.-]*){0,2}):\s")
#: a sentence that ends in a full stop (not an ellipsis)
_TOLD = re.compile(r"[^.]\.(?:\s|$)")


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


def named(question: Question, speakers: set[str]) -> list[str]:
    """The ``speakers`` (casefolded first names) that ``question`` names, as whole words, in
    the order it first names them."""
    words = list(question.tokens)
    return sorted(speakers.intersection(words), key=words.index)


def only_asks(text: str) -> bool:
    """Whether the turn ``text`` ends in a question mark and no sentence of it, after its
    opening ("[when] Name:"), ends in a full stop."""
    opening = _OPENING.match(text)
    said = text[opening.end() :] if opening else text
    return said.rstrip().endswith("?") and _TOLD.search(said) is None


@dataclass(frozen=True)
class TurnsRead:
    """What a question's candidate turns are: those told by a speaker it names ({path:
    speaker}), the speaker it names first (``teller``), and those that only ask."""

    told_by_named: dict[str, str] = field(default_factory=dict)
    asking: frozenset[str] = frozenset()
    teller: str | None = None

    def explain(self) -> dict[str, dict[str, object]]:
        """{path: what ``--explain`` shows of it}."""
        out: dict[str, dict[str, object]] = {path: {"told_by_named": who} for path, who in self.told_by_named.items()}
        for path in self.asking:
            out[path] = {**out.get(path, {}), "only_asks": True}
        return out


def read_turns(texts: Mapping[str, str], question: Question, speakers: bool = True, asking: bool = True) -> TurnsRead:
    """The turns of ``texts`` ({path: a conversation turn's text}) told by a speaker
    ``question`` names (when ``speakers``) and those that only ask (when ``asking``)."""
    told: dict[str, str] = {}
    asked: list[str] = []
    if speakers:
        speaker_of = {path: who for path, text in texts.items() if (who := speaker(text)) is not None}
        asked = named(question, set(speaker_of.values()))
        told = {path: who for path, who in speaker_of.items() if who in asked}
    asks = frozenset(path for path, text in texts.items() if only_asks(text)) if asking else frozenset()
    return TurnsRead(told, asks, teller(question, asked))


def teller(question: Question, asked: list[str]) -> str | None:
    """The speaker a question is about, of those it names (``asked``, in order): the one it
    names first, unless it names the first two together ("did Jon and Gina both…", "Ana y
    Tomás"), as one subject."""
    if len(asked) > 1 and question.names_together(asked[0], asked[1]):
        return None
    return asked[0] if asked else None
