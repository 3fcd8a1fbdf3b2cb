"""Newer facts close in meaning to a recalled one: a change no rule read.

"I'm based in Lyon", then "We packed up and moved to Nantes in the spring": no slot reads
the second as the user's home, and it shares no word with "where do I live?", so recall
showed Lyon alone. Here each recalled fact brings along the facts said after it that are
close to it in meaning (its stored vector's neighbours) and that tell of a change ("moved",
"now", "ya no", "mudei"); the older is then marked "newer related memory above" (vmem
cannot tell whether the newer replaced it: ``render.NEWER_RELATED``), the newer placed just
before it, as a conflict's pair is (``conflicts``). A newer fact that tells of another thing
beside the first ("our *other* dog", "*also* a Mac mini at home"), or of someone else ("my
*wife* traded in her car" after "my car is a Civic"), replaces nothing.

Cosine alone cannot tell a change from two facts both true: on the helper-written sets
the cosines of changes and of both-true pairs overlap over their whole range (.05 to .74),
so the cosine only says which facts are related, the words of the newer say whether it
replaced, and a change is of the older fact it is nearest to, not of every fact that reads
alike (``benchmarks/language_eval.py --recall``, docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..index.catalog import CHANGE_TAG
from ..index.embedder import Part
from ..index.snapshot import Carried, Snapshot
from ..lang import detect, fold_accents, of_no_one_else, people, says_change, says_contrast, sentences
from ..lang.concepts import says_allergy
from ..lifecycle import fact_slot, said_order, settled
from ..vault.memory import Memory
from .languages import judge_of, pair_cosine
from .query import Hit


@dataclass(frozen=True)
class RelatedParams:
    """How near a newer fact must be to a recalled one to be read as its change."""

    #: the cosine (of the model that judges the pair's languages) that makes two facts related:
    #: on the tune half, .25 marked 13 of 40 pairs both true whose newer tells of a change
    #: ("I started taking vitamin D" after a penicillin allergy), .35 five, .45 one, while
    #: the changes left shown unmarked went from 22 to 41 of 87 (66 before this stage)
    min_cosine: float = 0.45
    #: this close, a newer fact that tells of a change is brought along and placed before the
    #: recalled one, unmarked: the agent is not left with the older value alone ("We use Jenkins
    #: for CI." under "…every pipeline to GitHub Actions and Jenkins was shut down": no word of
    #: "what do we use for CI?"), while only ``min_cosine`` marks the older (a false mark is a
    #: defect too). From .45 to .25 on the tune half: new values shown 98 → 105 of 132 changes,
    #: nothing marked that was not, no other row of ``language_eval.py --recall`` moved
    bring_cosine: float = 0.25
    #: the recalled facts looked at, best first (each costs one search of its neighbours)
    facts: int = 8
    #: the neighbours of each that are read
    neighbours: int = 8
    #: this close, the older is left out of the block (the newer says what it said, and
    #: changed; ``--explain`` names it under the newer's ``changes``); below, both shown,
    #: the older marked. At .45 one pair both true of 40 on the tune half lost its older
    #: fact ("We deploy the API on Tuesdays" under "We switched the web app to deploy on
    #: Fridays"); a mark keeps a true fact in sight, a leave-out hides it
    leave_out_cosine: float = 0.55
    #: a change is of one of the older facts nearest to it: this many of them
    nearest_older: int = 2


def with_newer_related(
    hits: list[Hit],
    snap: Snapshot,
    parts: Sequence[Part],
    is_current: Callable[[Memory], bool],
    params: RelatedParams = RelatedParams(),
) -> list[Hit]:
    """``hits`` with each recalled fact that a newer, related fact says has changed marked
    ``outdated_by`` it, the newer placed just before (brought along when not recalled)."""
    if not parts or not snap.holds_changes():
        return hits
    hits = _without_the_closest_outdated(hits, snap, parts, is_current, params)
    looked = [
        h
        for h in hits
        if h.memory.type == "fact" and h.memory.path is not None and not h.outdated_by and not h.conflicts_with
    ][: params.facts]
    if not looked:
        return hits
    newer_of = _changes_of(looked, snap, parts, is_current, params)
    if not newer_of:
        return hits
    return _placed(hits, newer_of, _companions(hits, newer_of, params), params)


def _without_the_closest_outdated(
    hits: list[Hit], snap: Snapshot, parts: Sequence[Part], is_current: Callable[[Memory], bool], params: RelatedParams
) -> list[Hit]:
    """``hits`` without the older facts a conflict marked outdated by a newer one that is
    also the change this stage reads of them, very close in meaning (``leave_out_cosine``):
    "Meu banco é o Itaú" under "meu banco agora é o Inter…" is left out, as when no rule
    read the pair as one subject; a conflict the words alone read stays marked."""
    marked = {
        h.memory.id: h.outdated_by
        for h in hits
        if h.outdated_by and h.memory.type == "fact" and h.memory.path is not None
    }
    if not marked:
        return hits
    closed = [h for h in hits if h.memory.id in marked][: params.facts]
    changed = _changes_of(closed, snap, parts, is_current, params)
    gone = {
        older
        for older, (closeness, newer) in changed.items()
        if closeness >= params.leave_out_cosine and newer.id == marked[older]
    }
    if not gone:
        return hits
    olders_of: dict[str, list[str]] = {}  # each newer's older facts left out, named under its ``changes``
    for older in gone:
        olders_of.setdefault(marked[older], []).append(older)
    for hit in hits:
        if hit.memory.id in olders_of:
            hit.explain["changes"] = [*hit.explain.get("changes", []), *olders_of[hit.memory.id]]
    return [h for h in hits if h.memory.id not in gone]


def _changes_of(
    looked: list[Hit],
    snap: Snapshot,
    parts: Sequence[Part],
    is_current: Callable[[Memory], bool],
    params: RelatedParams,
) -> dict[str, tuple[float, Memory]]:
    """{id of a recalled fact: (closeness, the newer fact that changed it)}."""
    own = snap.vectors_of([h.memory.path.as_posix() for h in looked if h.memory.path is not None])
    newer_of: dict[str, tuple[float, Memory]] = {}
    for hit in looked:
        vector = own.get(hit.memory.path.as_posix() if hit.memory.path is not None else "")
        change = _closest_change(hit.memory, vector, snap, parts, is_current, params) if vector is not None else None
        if change is not None:
            newer_of[hit.memory.id] = change
    return newer_of


def _companions(hits: list[Hit], newer_of: dict[str, tuple[float, Memory]], params: RelatedParams) -> dict[str, Hit]:
    """The hit of each newer fact (recalled, or brought along), naming what it changed."""
    recalled = {h.memory.id: h for h in hits}
    companions: dict[str, Hit] = {}
    for older, (closeness, replacing) in newer_of.items():  # the newer names what it changed, wherever it ranks
        companion = companions.get(replacing.id) or recalled.get(replacing.id) or Hit(replacing, recalled[older].score)
        companions[replacing.id] = companion
        if closeness < params.min_cosine:  # brought along, placed before it, no mark
            companion.explain["newer_than"] = [*companion.explain.get("newer_than", []), older]
            continue
        companion.explain["changes"] = [*companion.explain.get("changes", []), older]
        if closeness < params.leave_out_cosine:  # both shown: the pair is a conflict's
            companion.conflicts_with = [*companion.conflicts_with, older]
    return companions


def _placed(
    hits: list[Hit], newer_of: dict[str, tuple[float, Memory]], companions: dict[str, Hit], params: RelatedParams
) -> list[Hit]:
    """The hits in order, each newer fact just before the first it changed; an older fact
    left out when the newer is very close, else marked."""
    out: list[Hit] = []
    placed: set[str] = set()
    for hit in hits:
        cosine, newer = newer_of.get(hit.memory.id, (0.0, None))
        if newer is not None and newer.id not in placed:
            out.append(companions[newer.id])
            placed.add(newer.id)
        if hit.memory.id in placed:
            continue
        if newer is not None and cosine >= params.min_cosine:
            if cosine >= params.leave_out_cosine:  # the newer says it, changed: the older is left out
                continue
            hit.outdated_by = newer.id
            hit.explain["newer_related"] = newer.id
        out.append(hit)
        placed.add(hit.memory.id)
    return out


def _closest_change(
    memory: Memory,
    vector,
    snap: Snapshot,
    parts: Sequence[Part],
    is_current: Callable[[Memory], bool],
    params: RelatedParams,
) -> tuple[float, Memory] | None:
    """The fact said after ``memory`` (on a later day or hour, not only a later id), the
    closest to it of those related to it that tell of a change and are current."""
    found = [
        (cosine, other) for cosine, other in _changes_near(memory, vector, snap, parts, params) if is_current(other)
    ]
    return max(found, key=lambda pair: pair[0]) if found else None


def _changes_near(
    memory: Memory, vector, snap: Snapshot, parts: Sequence[Part], params: RelatedParams
) -> list[tuple[float, Memory]]:
    """[(cosine, fact)] of the facts said after ``memory`` that may be its change, among its
    neighbours by the model that reads ``memory``'s language alone (at 10,000 memories a
    search of the joined vector scored every multilingual row, 6 ms; one restricted to the
    facts that tell of a change read 1,900 stored vectors, 40 ms). No query changes it
    (which of them are current is asked per recall), so it is worked out once a snapshot:
    a fact the daemon's recalls bring up again costs a lookup, and after a commit that only
    added memories, a check that none of them came among the neighbours it read
    (``_Readings``: the first recall after a prompt's "remember that…" read every one again,
    3 ms of `vmem recall` at 10,000 memories)."""
    known = snap.worked_out.get("changes_near")
    if not isinstance(known, _Readings):
        known = snap.worked_out["changes_near"] = _Readings.of(snap)
    own_path = memory.path.as_posix() if memory.path is not None else ""
    key = (memory.id, own_path, params)
    reading = known.get(key)
    if reading is not None and not reading.since:
        return reading.found
    if reading is not None and reading.holds(snap, vector):
        known[key] = replace(reading, since=frozenset())
        return reading.found
    language = detect(memory.text)
    judge = judge_of(parts, language, language)
    hits = snap.vector_hits(vector, params.neighbours, part=judge)
    near = [path for path, _ in hits if path != own_path]
    read = snap.memories(near) if near else {}
    candidates = [path for path in near if (other := read.get(path)) is not None and _may_change(memory, other)]
    vectors = snap.vectors_of(candidates) if candidates else {}
    found: list[tuple[float, Memory]] = []
    seen = {own_path, *near}
    bounds: list[tuple[str | None, Part, float]] = [(None, judge, _bound(hits, params.neighbours))]
    for path in (path for path in candidates if path in vectors):
        other = read[path]
        cosine = pair_cosine(vector, vectors[path], parts, language, detect(other.text))
        if cosine < min(params.bring_cosine, params.min_cosine):
            continue
        older, their_hits, their_judge = _nearest_older(other, vectors[path], snap, parts, params)
        seen |= {p for p, _ in their_hits}
        bounds.append((path, their_judge, _bound(their_hits, params.neighbours + 1)))
        if memory.id in older:
            found.append((cosine, other))
    known[key] = _Reading(found, frozenset(seen), tuple(bounds))
    return found


def _bound(hits: list[tuple[str, float]], limit: int) -> float:
    """The least score a memory needs to come among ``hits`` (a search's best ``limit``)."""
    return hits[-1][1] if len(hits) >= limit else -np.inf


@dataclass(frozen=True)
class _Reading:
    """What ``_changes_near`` read of one fact: its changes, the memories whose neighbours
    decided them (``seen``), each neighbour search it made (whose vector: None for the
    fact's own; the model; the least score that came among them) and the memories written
    since it was read (``since``), not yet checked against those searches."""

    found: list[tuple[float, Memory]]
    seen: frozenset[str]
    searches: tuple[tuple[str | None, Part, float], ...]
    since: frozenset[str] = frozenset()

    def holds(self, snap: Snapshot, vector) -> bool:
        """Whether no memory written ``since`` comes among the neighbours of any search it
        made (scored as the search scored them; a tie counts as coming among them)."""
        written = sorted(self.since)
        theirs = snap.vectors_of([source for source, _, _ in self.searches if source is not None])
        for source, part, bound in self.searches:
            own = vector if source is None else theirs.get(source)
            if own is None or any(s >= bound - 1e-6 for s in snap.similarities(own, written, part).values()):
                return False
        return True


class _Readings(Carried):
    """``_Reading``s by fact, kept from commit to commit while the vector files searched
    are the same and a commit only adds to them (a deletion asks the graph for more, which
    may find a neighbour it missed); a reading that saw a memory a commit touched is dropped,
    the others checked when next asked (``_Reading.holds``)."""

    #: the most readings carried to the next commit (a daemon's recalls look at 8 facts each)
    MOST = 4096

    def __init__(self, files: tuple = ()):
        super().__init__()
        self.files = files

    @classmethod
    def of(cls, snap: Snapshot) -> _Readings:
        vectors = snap.vectors
        return cls(() if vectors is None else (vectors.base, vectors.side, len(vectors.deleted)))

    def after(self, touched: frozenset[str], snap: Snapshot) -> _Readings | None:
        carried = _Readings.of(snap)
        if not (self.files and carried.files) or len(self) > self.MOST:
            return None
        (base, side, deleted), (was_base, was_side, was_deleted) = carried.files, self.files
        if base is not was_base or side is not was_side or deleted != was_deleted:
            return None
        for key, reading in list(self.items()):  # a recall on the older snapshot may add to it meanwhile
            if not reading.seen & touched:
                carried[key] = replace(reading, since=reading.since | touched)
        return carried


def _may_change(memory: Memory, other: Memory) -> bool:
    """Whether ``other``, by what it is and says, may be a change of ``memory``: a fact of
    the same persona said after it, in words of change and not of contrast, about the same
    people ("My wife traded in her car" is not of "My car is a Civic"; "My pet these days is
    a bearded dragon" is of "My pet is a hamster"; "my dad's neighbour moved" is not of "my
    dad lives in Leeds": ``lang.of_no_one_else``), not one of several held at once."""
    return (
        other.type == "fact"
        and other.id != memory.id
        and other.persona == memory.persona
        and said_order(other)[0] > said_order(memory)[0]
        and says_change(other.text)
        and not says_contrast(other.text)
        and of_no_one_else(people(other.text), people(memory.text))
        and memory.id not in settled(other)  # the user said both are true (`vmem conflicts --both-true`)
        and other.id not in settled(memory)
        and not _several_at_once(memory, other)
    )


def related_changes(
    snap: Snapshot, parts: Sequence[Part], is_current: Callable[[Memory], bool], params: RelatedParams = RelatedParams()
) -> list[tuple[Memory, Memory, float]]:
    """Every pair this stage marks in a recall that shows the older, whatever the question:
    (newer, older, closeness), for ``vmem conflicts`` to list and settle. Read from the
    facts that tell of a change, each against the older facts nearest to it (the older's
    own change must be it, as ``with_newer_related`` reads it)."""
    if not parts or not snap.holds_changes():
        return []
    newer_paths = sorted(snap.paths_tagged([CHANGE_TAG]))
    newers = snap.memories(newer_paths) if newer_paths else {}
    vectors = snap.vectors_of(sorted(newers))
    pairs: list[tuple[Memory, Memory, float]] = []
    for path, newer in sorted(newers.items()):
        if newer.type != "fact" or path not in vectors or not is_current(newer):
            continue
        older_ids, hits, _ = _nearest_older(newer, vectors[path], snap, parts, params)
        close = [p for p, score in hits if score >= params.min_cosine - 1e-6]  # no farther one is read as changed
        olders = {m.id: (p, m) for p, m in snap.memories(close).items() if m.id in older_ids} if close else {}
        own = snap.vectors_of([p for p, _ in olders.values()])
        for older_path, older in olders.values():
            if older_path not in own or not is_current(older):
                continue
            change = _closest_change(older, own[older_path], snap, parts, is_current, params)
            if change is not None and change[1].id == newer.id and change[0] >= params.min_cosine:
                pairs.append((newer, older, change[0]))
    return pairs


def _several_at_once(older: Memory, newer: Memory) -> bool:
    """Whether the rules read both facts as what a person holds several of at once (allergies,
    languages, likes: ``vault.slots`` cardinality "many") and the newer adds one beside the
    older: it replaces nothing, whatever words of change its story says ("It started when I
    was 7" beside another allergy; six allergies written a second apart left four out of the
    block). It replaces when the sentence that says it tells of the change ("I bank with
    Monzo now" after "I bank with Chase"). An allergy never replaces another, however it is
    said ("I've become allergic to sulfa drugs" had left a penicillin allergy out of the
    block), unless it denies it ("no longer allergic to penicillin")."""
    old, new = fact_slot(older), fact_slot(newer)
    if _of_an_allergy(older) and _of_an_allergy(newer):
        return not (new is not None and new.negated)
    if old is None or new is None or "many" not in (old.cardinality, new.cardinality):
        return False
    if not _of_one_kind(old.subject, new.subject):
        return False  # "plays tennis", then "switched to padel"
    return not says_change(sentences(newer.text)[0])


def _of_an_allergy(memory: Memory) -> bool:
    return says_allergy(fold_accents(memory.text).lower())


def _of_one_kind(old: str, new: str) -> bool:
    """Whether two slots' subjects are of one thing: an act's that share a word of what is
    done ("act:allergic peanut", "act:allergic oat"; "act:bank chas", "act:bank monz"),
    any other's the same."""
    if old.startswith("act:") and new.startswith("act:"):
        return not set(old[4:].split()).isdisjoint(new[4:].split())
    return old == new


def _nearest_older(
    newer: Memory, vector, snap: Snapshot, parts: Sequence[Part], params: RelatedParams
) -> tuple[list[str], list[tuple[str, float]], Part]:
    """The ids of the facts said before ``newer`` that are nearest to it: a change is of the
    fact it is nearest to, not of any fact that reads alike ("my manager is now Tom" is of
    "My manager is Priya", not of "My email is j.harper@…", both "My … is …"); with the
    search that found them and the model that made it."""
    memo = snap.worked_out.setdefault("nearest_older", {})  # a snapshot's: `vmem conflicts` asks each twice
    key = (newer.id, newer.path.as_posix() if newer.path is not None else "", params)
    if key in memo:
        return memo[key]
    said = said_order(newer)[0]
    language = detect(newer.text)
    judge = judge_of(parts, language, language)
    hits = snap.vector_hits(vector, params.neighbours + 1, part=judge)
    read = snap.memories([path for path, _ in hits])
    older = [
        other.id
        for path, _ in hits
        if (other := read.get(path)) is not None
        and other.type == "fact"
        and other.id != newer.id
        and said_order(other)[0] < said
    ]
    memo[key] = (older[: params.nearest_older], hits, judge)
    return memo[key]
