"""Open conflicts: two current facts about one subject that may not both be true, and that
no ``supersedes`` settles (two sisters' names, a city in a hand-written file beside a newer
one). vmem does not pick one: recall shows the newer first and marks the older, ``vmem
conflicts`` lists them. A pair the user said is fine ("both true") is recorded in the newer
file's ``compatible_with`` and never asked again. Pure functions of the memories."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from ..lang import of_the_same_people, people
from ..vault.memory import COMPATIBLE_KEY, Memory
from ..vault.sameness import same_words
from ..vault.slots import Slot, judge, slot_of, stance_of
from ..vault.values import as_datetime, reference_target
from .rules import reference_time

#: at most this many texts of one subject are weighed against each other (``open_conflicts``)
RIVALS = 64


@dataclass(frozen=True)
class Conflict:
    newer: Memory
    older: Memory
    #: what both are about ("sister/name", "residence")
    subject: str
    #: read by meaning and the newer's words of change, not by a subject the rules name
    #: (``recall.related``): recall marks the older "newer related memory above"
    related: bool = False

    def to_dict(self) -> dict[str, str | bool]:
        return {"newer": self.newer.id, "older": self.older.id, "subject": self.subject, "related": self.related}


#: what a judge of a pair may answer, and what each settles: the newer replaces the older,
#: both are true, the newer says the older again (no conflict either), or it cannot tell
JUDGED = ("replaces", "both", "same", "unsure")


def judged_settlements(newer: Memory, olders: list[Memory], answers: list[str]) -> list[str]:
    """What an LLM's ``answers`` (one of ``JUDGED`` per older fact, in order) settle of the
    pairs ``newer`` makes with ``olders``, as the write path believes a judge: one answer of
    "replaces" or "same" for every one of several pairs is no reading of them (all
    "unsure"); one person's news replaces nothing of another's, and an inferred fact nothing
    stated ("unsure"); any other answer is "unsure" too."""
    said = [a if a in JUDGED else "unsure" for a in (*answers, *["unsure"] * len(olders))][: len(olders)]
    if len(olders) > 1 and len(set(said)) == 1 and said[0] in ("replaces", "same"):
        return ["unsure"] * len(olders)
    whose = people(newer.text)
    for n, older in enumerate(olders):
        if said[n] != "replaces":
            continue
        if not of_the_same_people(whose, people(older.text)) or (
            newer.source == "inferred" and older.source != "inferred"
        ):
            said[n] = "unsure"
    return said


def fact_slot(memory: Memory) -> Slot | None:
    """What a fact is about (None for anything but a fact: an episode is never replaced)."""
    return slot_of(memory.text, memory.key) if memory.type == "fact" else None


def fact_subject(memory: Memory) -> str | None:
    """The subject a fact may conflict on: its slot's, else its stance's (``slots.stance_of``)."""
    slot = fact_slot(memory)
    if slot is not None:
        return slot.subject
    stance = stance_of(memory.text) if memory.type == "fact" else None
    return stance[0] if stance is not None else None


def settled(memory: Memory) -> set[str]:
    """The ids this memory was said to be compatible with (``compatible_with``)."""
    value = memory.extra.get(COMPATIBLE_KEY)
    refs = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    return {reference_target(str(r)) for r in refs if r}


def said_order(memory: Memory) -> tuple[dt.datetime, str]:
    """The order two facts were last said in: created, or confirmed since (the user said it
    again, or `vmem confirm`), else last known true; then id. "We do not deploy on Fridays",
    restating an older "We don't deploy on Fridays" after "We deploy on Fridays", makes the
    older one the newer of the two."""
    return _when(memory), memory.id


def _when(memory: Memory) -> dt.datetime:
    created, confirmed = memory.created, memory.last_confirmed
    if created is None:
        return reference_time(memory) or dt.datetime.min.replace(tzinfo=dt.UTC)
    said = as_datetime(created)
    return max(said, as_datetime(confirmed)) if confirmed is not None else said


def open_conflicts(memories: Iterable[Memory]) -> list[Conflict]:
    """Every pair of ``memories`` (all current) that share a subject and may contradict
    each other, newer first in each pair; pairs the user settled are left out. A fact no
    slot reads contradicts one that says the same words and denies them
    (``slots.stance_of``: "We deploy on Fridays" and "We don't deploy on Fridays").

    Of copies of one text (``same_words``) the first given speaks for the others, as of
    its newest copy's date, and of a subject the first ``RIVALS`` texts given are weighed
    against each other: a subject said 2,000 times, an import run again and again, was two
    million pairs and seconds of every recall. Callers give the recalled facts first."""
    out: list[Conflict] = []
    for subject, facts in sorted(_texts_by_subject(memories).items()):
        for i, older in enumerate(facts):
            for newer in facts[i + 1 :]:
                if _may_conflict(newer, older) and _contradict(newer, older):
                    out.append(Conflict(newer, older, subject))
    return out


def _texts_by_subject(memories: Iterable[Memory]) -> dict[str, list[Memory]]:
    """Each subject's facts, one per text (the first given of its copies), at most ``RIVALS``
    texts, in the order they were last said (a text as late as its newest copy)."""
    texts: dict[str, dict[str | None, tuple[Memory, tuple[dt.datetime, str]]]] = {}
    seen: set[str] = set()
    for memory in memories:
        if memory.type != "fact" or memory.id in seen:
            continue
        seen.add(memory.id)
        subject = fact_subject(memory)
        if subject is None:
            continue
        said = texts.setdefault(subject, {})
        words = same_words(memory.key, memory.text)
        if words in said:  # a copy
            first, latest = said[words]
            said[words] = (first, max(latest, said_order(memory)))
        elif len(said) < RIVALS:
            said[words] = (memory, said_order(memory))
    return {
        subject: [first for first, _ in sorted(said.values(), key=lambda f: f[1])] for subject, said in texts.items()
    }


def _contradict(newer: Memory, older: Memory) -> bool:
    """Whether ``newer`` may replace or contradict ``older`` (one subject): by their slots
    (``slots.judge``), or, for facts no slot reads, one denies what the other says."""
    new_slot, old_slot = fact_slot(newer), fact_slot(older)
    if new_slot is not None and old_slot is not None:
        return judge(new_slot, old_slot) in ("conflict", "supersede")
    new_stance, old_stance = stance_of(newer.text), stance_of(older.text)
    return new_stance is not None and old_stance is not None and new_stance[1] != old_stance[1]


def _may_conflict(newer: Memory, older: Memory) -> bool:
    """Two facts of one persona the user has not settled as both true."""
    return older.persona == newer.persona and older.id not in settled(newer) and newer.id not in settled(older)
