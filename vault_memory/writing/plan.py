"""What a new memory does to those the vault holds, decided from what was fetched (pure).

The write path plans, then acts: ``writing.rules`` fetches what the vault holds near a new
memory (``Evidence``: the memories of its text or key, the facts of its slot with the
slots' verdicts; later, as the decision asks for it, which of those the vault has known
true since, a restatement by meaning, a judge's answers), ``decide`` turns it into a plan
(``Reconfirm``, ``Decline`` or ``Write``, or ``Need`` when it must see more first), and
only then does the batch act under its lock. ``decide`` reads no file, index or model:
its rules are tested from tables (``tests/test_writing.py``).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from ..lang import of_the_same_people, people
from ..lifecycle import canonical_key, same_value
from ..vault.memory import Memory
from ..vault.sameness import key_and_text, normalize_text
from ..vault.slots import Slot, Verdict, judge, slot_of
from ..vault.values import first_line

if TYPE_CHECKING:
    from .rules import Remembering

#: what a judge says of each older fact a new one may contradict: the new one makes it no
#: longer true, both are true, it says the same, or it cannot tell
JudgeAnswer = Literal["replaces", "both", "same", "unsure"]


@dataclass
class Prepared:
    """An item with its key settled (given, or read from "key: value" text)."""

    item: Remembering
    key: str | None
    text: str
    key_inferred: bool
    importance: float
    single: bool  # the key is single-valued: a new value replaces the old
    #: what the fact is about (facts only), for the free-text supersession
    slot: Slot | None = None

    @property
    def inferred(self) -> bool:
        """Said by a model (ingestion's LLM), not by the user: it never beats what the user said."""
        return self.item.fields.get("source") == "inferred"


@dataclass
class Decision:
    """What a new memory written does to those the vault holds."""

    replaced: list[Memory] = field(default_factory=list)
    conflicts: list[Memory] = field(default_factory=list)
    compatible: list[Memory] = field(default_factory=list)
    #: why ``replaced`` are replaced: "key", or the subject of the fact
    why: str | None = None


#: a restatement not looked for yet (``Evidence.restated``)
NOT_READ = "not read"


@dataclass(frozen=True)
class Evidence:
    """What the vault holds near a new memory, fetched before anything is decided; the
    fields after ``slot`` are fetched when ``decide`` asks (``Need``), None until then."""

    #: the current memories of its scope with its text or its key (under any name)
    current: list[Memory]
    #: the current facts of its slot, oldest first, each with what the new fact does to it
    slot: list[tuple[Memory, Verdict]]
    #: the judge's answers on the possible conflicts, by answer
    settled: dict[str, list[Memory]] | None = None
    #: the ids of the memories it would replace that the vault has known true since it was said
    known_after: frozenset[str] | None = None
    #: a current memory that says the same in other words, with how alike (None: none)
    restated: tuple[Memory, float] | None | str = NOT_READ
    #: the facts near it in meaning that no rule related to it, and the judge's answers on them
    nearby: tuple[list[Memory], dict[str, list[Memory]]] | None = None


@dataclass(frozen=True)
class Need:
    """What ``decide`` must see before it can decide: the judge's answers on possible
    conflicts ("settle"), which memories were known true later ("known_after"), a
    restatement ("restatement"), the judged neighbours ("neighbours")."""

    what: Literal["settle", "known_after", "restatement", "neighbours"]
    memories: list[Memory] = field(default_factory=list)


@dataclass(frozen=True)
class Reconfirm:
    """Said before: the memory known true again (with how alike, for one in other words)."""

    memory: Memory
    similarity: float | None = None


@dataclass(frozen=True)
class Decline:
    """Not written: ``kept`` (of ``replaced``) stays, for the reason the note gives."""

    kept: Memory
    replaced: list[Memory]
    note: str


@dataclass(frozen=True)
class Write:
    """A new file, doing ``decision`` to the memories the vault holds."""

    decision: Decision


Plan = Reconfirm | Decline | Write


def decide(p: Prepared, ev: Evidence, when: dt.datetime, *, judging: bool) -> Plan | Need:
    """The steps, in order, each deciding or passing on: the same memory already known →
    reconfirm; a single-valued key stated with the value it has → reconfirm; its old values
    → replaced; a fact of its slot said again → reconfirm, those it supersedes → replaced,
    its possible conflicts settled by the judge (``judging``: one is configured); a value
    older than what it replaces, or an inferred one over what the user stated → declined;
    a restatement by meaning → reconfirm; with a judge, the neighbours no rule related to it
    judged; else a new file."""
    d = Decision()
    return (
        _known(p, ev, d)
        or _conflicts_judged(p, ev, d, judging)
        or _declined(p, d.replaced, ev, when)
        or _restated(ev, d)
        or _neighbours(p, ev, d, judging)
        or Write(d)
    )


def _known(p: Prepared, ev: Evidence, d: Decision) -> Plan | None:
    """What the rules read of the memories of its text, key and slot: said again (the plan),
    or ``d`` saying what it replaces and may contradict."""
    same = same_text(p, ev.current)
    if same is not None:
        return Reconfirm(same)
    d.replaced = (
        [m for m in ev.current if canonical_key(m.key) == canonical_key(p.key) and _key_replaces(p, m)]
        if p.single
        else []
    )
    unchanged = [m for m in d.replaced if same_value(m.text, p.text, p.key)]
    if unchanged:  # "name: Lucas" then "My name is Lucas": one fact, said again
        return Reconfirm(unchanged[0])
    d.why = "key" if d.replaced else None
    said_again = [m for m, v in ev.slot if v == "same"]
    if said_again and not d.replaced:  # "lives in Leeds" then "I live in Leeds"
        return Reconfirm(said_again[0])
    _supersede_by_slot(p, d, ev.slot)
    d.conflicts = [m for m, v in ev.slot if v == "conflict" and m not in d.replaced]
    return None


def _key_replaces(p: Prepared, old: Memory) -> bool:
    """Whether a new value of a single-valued key replaces ``old``: not when the slot rules
    read the two as about different things ("my partner's mom's name is Rosa", "my partner is
    a nurse" beside "my partner is Alex": the reader keyed all three "partner")."""
    if people(p.text) != people(old.text) or _OF_ONE_OF_THEIRS.search(p.text):
        return False  # "my partner's mom's name…", "…partner's ex's name…": about someone of theirs
    if p.slot is None:
        return True
    said = slot_of(old.text, old.key)
    return said is None or judge(p.slot, said) != "compatible"


#: a possessive of a possessive ("the user's partner's ex's name"): the fact is of the last one
_OF_ONE_OF_THEIRS = re.compile(r"['’]s\s+[^\W\d_]+['’]s\s")


def _conflicts_judged(p: Prepared, ev: Evidence, d: Decision, judging: bool) -> Need | None:
    """With a judge, its answers on the possible conflicts (asked for, or applied to ``d``)."""
    if not (d.conflicts and judging):
        return None
    if ev.settled is None:
        return Need("settle", d.conflicts)
    _settle(p, d, ev.settled)
    return None


def _restated(ev: Evidence, d: Decision) -> Reconfirm | Need | None:
    """When nothing is replaced: a memory that says it in other words (looked for first)."""
    if d.replaced:
        return None
    if ev.restated == NOT_READ:
        return Need("restatement")
    return Reconfirm(*ev.restated) if isinstance(ev.restated, tuple) else None


def _neighbours(p: Prepared, ev: Evidence, d: Decision, judging: bool) -> Reconfirm | Need | None:
    """With a judge, when no rule related the fact to anything: its nearest facts judged
    (asked for first); the one it says again is reconfirmed."""
    if d.replaced or d.conflicts or d.compatible or not judging or p.item.type != "fact":
        return None
    if ev.nearby is None:
        return Need("neighbours")
    said = _neighbours_judged(p, d, *ev.nearby)
    return Reconfirm(said) if said is not None else None  # the judge read it as said before


def same_text(p: Prepared, current: list[Memory]) -> Memory | None:
    """A current memory with the same key and text, as a person reads them."""
    wanted = normalize_text(key_and_text(p.key, p.text))  # "" (emoji only) is never the same as anything
    if not wanted:
        return None
    return next((m for m in current if normalize_text(key_and_text(m.key, m.text)) == wanted), None)


def _settle(p: Prepared, d: Decision, settled: dict[str, list[Memory]]) -> None:
    """The judge's answer on the possible conflicts: those it replaces join ``replaced``,
    those both true are ``compatible``, the rest stay conflicts."""
    if settled["replaces"] and p.slot is not None:
        d.why = d.why or p.slot.subject
    d.replaced = [*d.replaced, *settled["replaces"]]
    d.compatible, d.conflicts = [*settled["both"], *settled["same"]], settled["unsure"]


def _declined(p: Prepared, replaced: list[Memory], ev: Evidence, when: dt.datetime) -> Decline | Need | None:
    """Not written, with why: a value said before the vault last knew the one it would
    replace true (an old transcript's: which were is asked for first), or an inferred value
    over one the user stated."""
    if replaced and ev.known_after is None:
        return Need("known_after", replaced)
    later = [m for m in replaced if m.id in (ev.known_after or frozenset())]
    if later:
        return Decline(later[0], later, _said_before_note(p, when, later[0]))
    stated = [m for m in replaced if m.source != "inferred"] if p.inferred else []
    if stated:  # inferred never beats explicit
        return Decline(stated[0], stated, _declined_note(p, stated[0]))
    return None


def _neighbours_judged(
    p: Prepared, d: Decision, nearby: list[Memory], settled: dict[str, list[Memory]]
) -> Memory | None:
    """The judge's answers on the current facts nearest the new one in meaning that no rule
    related to it: those it replaces join ``d.replaced`` ("We packed up and moved to Nantes"
    after "I'm based in Lyon": no slot reads the first as a home), those both true are
    ``compatible``; the one it says again is returned. Unsure leaves a pair as it is."""
    if not nearby:
        return None
    if len(nearby) > 1 and any(len(settled[a]) == len(nearby) for a in ("replaces", "same")):
        return None  # one verdict for every neighbour: a judge that read nothing settles nothing
    _keep_to_the_same_people(p, settled)
    if settled["same"]:  # said again is said of the nearest fact, or of none
        return nearby[0] if nearby[0] in settled["same"] else None
    if settled["replaces"]:
        d.why = d.why or "as the LLM judged it"
    d.replaced = [*d.replaced, *settled["replaces"]]
    d.compatible = [*d.compatible, *settled["both"]]
    return None


def _supersede_by_slot(p: Prepared, d: Decision, verdicts: list[tuple[Memory, Verdict]]) -> None:
    """The facts of the item's slot it supersedes join ``d.replaced``, replaced by the
    slot's subject unless a key replaced something first."""
    whose = people(p.text)
    by_slot = [m for m, v in verdicts if v == "supersede" and m not in d.replaced and _of_its_people(p, m, whose)]
    if by_slot and p.slot is not None:
        d.why = d.why or p.slot.subject
        d.replaced = [*d.replaced, *by_slot]


def _of_its_people(p: Prepared, old: Memory, whose: frozenset[str]) -> bool:
    """A fact that ends another of another subject ("moved from Braga to Porto" ends what
    names Braga) ends only one of the same people: the mother's home in Braga stays."""
    slot = slot_of_memory(old)
    same_subject = p.slot is not None and slot is not None and slot.subject == p.slot.subject
    return same_subject or of_the_same_people(whose, people(old.text))


def _keep_to_the_same_people(p: Prepared, settled: dict[str, list[Memory]]) -> None:
    """A judged replacement of another person's fact becomes unsure: one person's news
    replaces nothing of another's."""
    whose = people(p.text)
    for other in [m for m in settled["replaces"] if not of_the_same_people(whose, people(m.text))]:
        settled["replaces"].remove(other)
        settled["unsure"].append(other)


def slot_of_memory(memory: Memory) -> Slot | None:
    """What a stored fact is about (``vault.slots``); None for any other memory."""
    return slot_of(memory.text, memory.key) if memory.type == "fact" else None


def _declined_note(p: Prepared, kept: Memory) -> str:
    return (
        f"an inferred value of {p.key!r} ({p.text!r}) was not written: the user said {kept.text!r} "
        f"({kept.id}); `vmem correct {kept.id} TEXT` changes it"
    )


def _said_before_note(p: Prepared, when: dt.datetime, kept: Memory) -> str:
    return (
        f"{p.text!r}, said {when.date().isoformat()}, was not written: {kept.id} ({first_line(kept.text)!r}) "
        f"has been known true since; `vmem correct {kept.id} TEXT` changes it"
    )
