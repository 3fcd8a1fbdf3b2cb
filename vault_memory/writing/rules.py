"""The write rules, all of them: how a memory joins, changes in, or leaves the vault the
way a careful person would have it.

- ``remember_many`` (one memory or a conversation's): don't repeat what is known (reconfirm it), replace
  what changed (a single-valued key's new value supersedes the old), keep each persona
  within its cap. What the vault holds near each item is fetched here; what the item does
  to it is decided by ``plan.decide`` (pure); then it is done here, under the lock.
- ``correct``: a new memory supersedes the head of the named memory's chain.
- ``confirm``: known true now, in the confirmation journal (never the memory's file).
- ``collect``: expired memories and persona overflow move to ``archive/``, one commit.

Every write goes through ``Vault`` (atomic, never over an existing file) under one lock
per vault, and reads the indexes through the ``Backend`` it is given: the daemon's when
one runs. Outcomes are typed: ``Created | Reconfirmed | Superseded | Declined`` (an
inferred value never replaces one the user stated, and never inherits its pin).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ..config import MEMORY_TYPES
from ..errors import AmbiguousId, InvalidInput, SecretRefused, WriteRefused
from ..index.catalog import Meta
from ..index.chunking import embedding_text
from ..index.embedder import USE_MULTILINGUAL, Part, UseEmbedder, embedder_from_config, model_parts, part_cosine
from ..index.keyword_index import NEGATED, body_terms, content_terms
from ..index.locks import file_lock
from ..lang import SPANISH, detect, in_third_person
from ..lang.roles import people_of
from ..lifecycle import (
    COMPATIBLE_KEY,
    RecallFilter,
    Rules,
    Said,
    archive_plan,
    canonical_key,
    exclusion_reason,
    is_restatement,
    key_forms,
    may_restate,
    persona_overflow,
    reference_time,
    score_importance,
)
from ..recall.languages import judge_of, judged, reads
from ..vault.ids import new_id
from ..vault.keyvalue import split_key_value
from ..vault.language import unread_note
from ..vault.memory import SUPERSEDES_DIGEST, Memory
from ..vault.sameness import key_and_text, normalize_key, same_text_digest
from ..vault.secrets import without_private
from ..vault.slots import Verdict, judge, slot_of
from ..vault.supersession import references_to, supersession_chain, with_digest_marker
from ..vault.values import check_new, first_line, jsonable
from ..vault.vault import Vault, now_local
from .plan import (
    Decision,
    Decline,
    Evidence,
    JudgeAnswer,
    Need,
    Plan,
    Prepared,
    Reconfirm,
    Write,
    decide,
    slot_of_memory,
)
from .worded_secrets import SAID_IN_WORDS, Vectors, said_in_words

if TYPE_CHECKING:
    import numpy as np

    from ..backend.base import Backend
    from ..index.snapshot import Snapshot

#: how long a write waits for another one to finish
LOCK_SECONDS = 120.0

#: a value read from free text ("city: Madrid") may replace a single-valued key's old value
#: only if it is this short: "City: Porto is where my sister lives" is a sentence
SINGLE_VALUE_WORDS = 5

#: a memory confirmed this recently is not rewritten when it is said again (its file stays
#: as it is: no churn in the user's editor or in git)
RECONFIRM_AFTER = dt.timedelta(days=1)

#: what a memory file's frontmatter may add to its text, counted against the size limit
FRONTMATTER_ROOM = 2048

#: how many similar memories a new one is compared with for a restatement
RESTATEMENT_CANDIDATES = 5
#: with a judge, the facts nearest a new fact in meaning that no rule related to it are
#: asked about: this many, this close. The judge, not the cosine, decides: of 360 changes a
#: helper wrote to train on (``benchmarks/change_judge.py``), 96% are .2 or closer by the
#: bundled models, 91% .3 ("Our family relocated to Bordeaux" is .27 from a flat in Lille)
JUDGED_NEIGHBOURS = 3
JUDGED_NEIGHBOUR_COSINE = 0.2
#: texts of a batch embedded together for the restatement check (one call, not one each)
EMBED_AHEAD = 64

Status = Literal["created", "reconfirmed", "superseded", "declined"]

#: settles the pairs the rules cannot (``conversation.llm.pair_judge``: the ``[llm]``
#: endpoint): (the new fact's text, the older facts) → one answer per older fact
PairJudge = Callable[[str, list[Memory]], list[JudgeAnswer]]


# ---------------------------------------------------------------------- outcomes


@dataclass
class _Outcome:
    memory: Memory
    #: the memories this one reconfirms (itself) or supersedes
    previous: list[Memory] = field(default_factory=list)
    #: cosine similarity to the memory it restates (embedding dedup), when that decided
    similarity: float | None = None
    #: the persona's memories moved to archive/ to keep it within its cap
    archived: list[Memory] = field(default_factory=list)
    #: the key was read from the text ("city: Madrid"), not given with --key
    key_inferred: bool = False
    #: what the caller must be told (stderr, --json): e.g. a supersession on an inferred key
    warnings: list[str] = field(default_factory=list)
    #: current memories this one may contradict, that the rules cannot settle: both stay,
    #: recall marks the older, ``vmem conflicts`` lists them
    conflicts: list[Memory] = field(default_factory=list)
    #: why ``previous`` was replaced: "key" (a single-valued key's new value) or the
    #: subject the two facts share ("residence", "partner", "act:jazz lik")
    replaced_by: str | None = None
    status: ClassVar[Status]

    def to_dict(self) -> dict[str, Any]:
        return jsonable(
            {
                "status": self.status,
                "id": self.memory.id,
                "path": self.memory.path.as_posix() if self.memory.path else None,
                "previous": [m.id for m in self.previous],
                "similarity": round(self.similarity, 4) if self.similarity is not None else None,
                "archived": [m.id for m in self.archived],
                "key": self.memory.key,
                "key_inferred": self.key_inferred,
                "conflicts": [m.id for m in self.conflicts],
                "replaced_by": self.replaced_by,
                "warnings": self.warnings,
            }
        )


@dataclass
class Created(_Outcome):
    """A new file."""

    status: ClassVar[Status] = "created"


@dataclass
class Reconfirmed(_Outcome):
    """The vault already said it: that memory is kept fresh (``previous`` holds it)."""

    status: ClassVar[Status] = "reconfirmed"


@dataclass
class Superseded(_Outcome):
    """A new file that replaces ``previous`` (a single-valued key's old value, a session's
    older summary)."""

    status: ClassVar[Status] = "superseded"


@dataclass
class Declined(_Outcome):
    """Nothing written: an inferred value (a model's, not the user's words) of a
    single-valued key the user stated outright. ``memory`` is the explicit one, kept."""

    status: ClassVar[Status] = "declined"


RememberOutcome = Created | Reconfirmed | Superseded | Declined


@dataclass
class Correction:
    """What ``correct`` did: ``memory`` (new) supersedes ``corrected``, which is the memory
    that was ``named`` unless that one had been superseded already (``redirected``)."""

    memory: Memory
    corrected: Memory
    redirected: bool
    named: Memory


@dataclass
class Archived:
    memory: Memory
    to: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.memory.id,
            "from": self.memory.path.as_posix() if self.memory.path else None,
            "to": self.to,
            "reason": self.reason,
        }


# ---------------------------------------------------------------------- what is asked


@dataclass
class Remembering:
    """One memory to write, as ``remember_many`` takes them."""

    text: str
    key: str | None = None
    type: str = "fact"
    persona: str | None = None
    importance: float | None = None
    force_new: bool = False
    #: ids this memory replaces outright (a session's newer summary), besides any rule's
    supersedes: list[str] = field(default_factory=list)
    #: the rest of ``Vault.add``'s fields: domain, confidence, source, expires, tags,
    #: pinned, conversation, turn
    fields: dict[str, Any] = field(default_factory=dict)
    #: the user insists on storing what looks like a secret (``vmem remember --allow-secret``)
    allow_secret: bool = False
    #: when the user said it (a transcript turn's time); None: now. The memory is dated
    #: then (its "yesterday" is the day before that), and it never replaces a value the
    #: vault has known true since: an old export ingested today is history, not news
    said_at: dt.datetime | None = None
    #: a part of the text was marked <private> and cut out: what is left is what the user
    #: chose to keep ("the answer to my security question is <private>…</private>"), and
    #: the judge of secrets said in words does not read it (the rules still do)
    hid_private: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        # what the person marked <private> is never written (``vault.secrets``)
        if isinstance(self.text, str):
            kept = without_private(self.text)
            self.hid_private, self.text = kept != self.text, kept


def validate(item: Remembering) -> None:
    """What no rule can write, refused before anything is read or written."""
    check_new(item.text, item.type, item.importance, item.key, allow_secret=item.allow_secret)


def refuse_secrets_in_words(
    items: list[Remembering], cache_dir: str | Path | None, vectors_of: Vectors | None = None
) -> None:
    """Refuse (``SecretRefused``) a batch one of whose facts the secret judge reads as
    giving a secret's value in words, as the vector leg reads it (its key and text), unless
    the user allowed it (``worded_secrets``). The rules' own secrets are ``validate``'s; a
    caller that must write the rest of a batch asks of each item first, as ``ingest`` and
    the prompt hook do. ``vectors_of``: the multilingual vectors (``multilingual_of``)."""
    doubted = [item for item in items if item.type == "fact" and not (item.allow_secret or item.hid_private)]
    texts = [embedding_text(item.key, item.text) for item in doubted]
    if any(said_in_words(texts, cache_dir, vectors_of)):
        raise SecretRefused(SAID_IN_WORDS)


def multilingual_of(backend: Backend) -> Vectors | None:
    """How the write reads a text's multilingual vector: the vault's own half where its
    model holds one (embedded by the backend, a daemon's when one serves it: a client loads
    no model; kept for the sync that indexes what is written, so a fact is embedded once);
    None where it holds none (the process's own model is loaded)."""
    part = next(
        (p for p in model_parts(backend.vault.config["embedding"]["model"]) if p.model_id == UseEmbedder.model_id),
        None,
    )
    if part is None:
        return None

    def vectors_of(texts: list[str]) -> list[list[float]]:
        vectors = backend.embed(texts, keep=True)
        if any(len(vector) != part.stop for vector in vectors):  # another model than the vault says
            cache_dir = backend.vault.config["embedding"]["cache_dir"] or None
            return [list(v) for v in embedder_from_config(USE_MULTILINGUAL, cache_dir).embed(texts)]
        return [[x / part.weight for x in vector[part.start : part.stop]] for vector in vectors]

    return vectors_of


def _prepare(item: Remembering, rules: Rules, single_keys: set[str]) -> Prepared:
    key, text, inferred = item.key, item.text, False
    if key is None:
        key, value = split_key_value(text)
        if key is not None and canonical_key(key) in single_keys and len(value.split()) > SINGLE_VALUE_WORDS:
            key, value = None, text.strip()  # a sentence: it must not replace the key's value
        text, inferred = value, key is not None
    text = text.strip()
    if not text:
        raise InvalidInput("a memory needs some text")
    importance = item.importance if item.importance is not None else score_importance(text, key, rules)
    single = canonical_key(key) in single_keys if key else False
    slot = slot_of(text, key) if item.type == "fact" else None
    return Prepared(item, key, text, inferred, importance, single, slot)


# ---------------------------------------------------------------------- remember


def remember_many(
    backend: Backend, items: list[Remembering], *, now: dt.datetime | None = None, judge: PairJudge | None = None
) -> list[RememberOutcome]:
    """Remember ``items`` (one, or a conversation's facts): one lock, one index
    check and one snapshot for all of them, and each sees the ones written before it, so a
    fact said twice in a batch is written once and a key's later value supersedes its
    earlier one. Outcomes are in the order of ``items``. ``judge`` settles the possible
    conflicts the rules cannot (an LLM, when one is configured)."""
    for item in items:
        validate(item)
    refuse_secrets_in_words(items, backend.vault.config["embedding"]["cache_dir"] or None, multilingual_of(backend))
    limit = backend.vault.config["vault"]["max_file_bytes"]
    for item in items:  # a file every sync would skip as too large is no memory: say so now
        size = len(item.text.encode("utf-8", "surrogatepass")) + FRONTMATTER_ROOM
        if size > limit:
            raise InvalidInput(
                f"a memory of {size:,} bytes is over the vault's {limit:,}-byte limit ([vault] max_file_bytes); "
                "keep what matters of it, or raise the limit"
            )
    if not items:
        return []
    now = now or now_local()
    rules = backend.rules
    single_keys = {canonical_key(k) for k in rules.single_valued_keys}
    # one write at a time per vault: two processes saying the same thing at once must
    # find each other's memory, not both write one
    together = backend.vault.flushed_together() if len(items) > 1 else contextlib.nullcontext()
    with _write_lock(backend), together:
        if all(item.force_new for item in items):
            batch = _Batch(backend, rules, None, [], set(), now)
            return [batch.remember(_prepare(item, rules, single_keys)) for item in items]
        prepared = [_prepare(item, rules, single_keys) for item in items]
        with backend.fresh_snapshot() as snap:
            batch = _Batch(backend, rules, snap, [], set(snap.superseded_targets()), now, judge)
            batch.ahead = [embedding_text(p.key, p.text) for p in prepared]
            return [batch.remember(p) for p in prepared]


def _write_lock(backend: Backend):
    return file_lock(backend.state.remember_lock, timeout=LOCK_SECONDS, what="another write")


@dataclass
class _Batch:
    """What a batch of remembers knows: the index (asked for each item's likes by the
    catalog's indexes, never read whole: a remember at 100,000 memories read all of them,
    19 s), the memories this batch wrote, and which memories are superseded."""

    backend: Backend
    rules: Rules
    snap: Snapshot | None
    written: list[Memory]
    superseded: set[str]
    now: dt.datetime
    judge: PairJudge | None = None
    #: the embedding texts of the batch's items, in order, and the vectors of those embedded
    ahead: list[str] = field(default_factory=list)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    #: the same-text digest and the slot tags of each memory written, by id (computed once,
    #: not once for every later item of the batch)
    digests: dict[str, str | None] = field(default_factory=dict)
    slot_tags: dict[str, frozenset[str]] = field(default_factory=dict)
    #: what each memory compared says (``saying``), by id
    said: dict[str, Said] = field(default_factory=dict)
    #: the language of each text compared (``vault.language``), worked out once a batch
    written_in: dict[str, str | None] = field(default_factory=dict)

    def remember(self, p: Prepared) -> RememberOutcome:
        """What the vault holds near the item, fetched (``_plan``); what the item does to it,
        decided (``plan.decide``); then done: a reconfirmation, a refusal or a new file,
        with the persona cap and what the caller must be told."""
        planned: Plan = Write(Decision())
        if not p.item.force_new and self.snap is not None:
            planned = self._plan(p)
        when = self.said_when(p)
        if isinstance(planned, Reconfirm):
            return _reconfirm(self.backend.vault, planned.memory, planned.similarity, now=when)
        if isinstance(planned, Decline):
            return Declined(planned.kept, planned.replaced, warnings=[planned.note])
        decision = planned.decision
        replaced, conflicts = decision.replaced, decision.conflicts
        outcome = self._write(p, replaced, decision.compatible)
        if isinstance(outcome, Created | Superseded):
            outcome.replaced_by = decision.why if replaced else None
            outcome.conflicts = conflicts
            if conflicts:
                outcome.warnings.append(_conflict_note(outcome.memory, conflicts))
            unread = _unread_language(p.text, self.parts)
            if unread:
                outcome.warnings.append(unread)
            self.written.append(outcome.memory)
            self.superseded.update(outcome.memory.supersession_refs)
            with_digest_marker(self.superseded)
        return outcome

    def _plan(self, p: Prepared) -> Plan:
        """The plan for the item: its neighbours fetched in one pass (the memories of its text
        or key, the facts of its slot), then what the decision asks to see as it goes (the
        judge's answers, which were known true later, a restatement, the judged neighbours)."""
        when = self.said_when(p)
        evidence = Evidence(self._current(p), self._slot_verdicts(p))
        while isinstance(step := decide(p, evidence, when, judging=self.judge is not None), Need):
            evidence = self._fetched(p, evidence, step, when)
        return step

    def _fetched(self, p: Prepared, evidence: Evidence, need: Need, when: dt.datetime) -> Evidence:
        """``evidence`` with what ``need`` asks for read (the vault, the index, the judge)."""
        if need.what == "settle":
            return replace(evidence, settled=self._judged(p, need.memories))
        if need.what == "known_after":
            vault = self.backend.vault
            return replace(
                evidence, known_after=frozenset(m.id for m in need.memories if _known_true_after(vault, m, when))
            )
        if need.what == "restatement":
            return replace(evidence, restated=self._restatement(p))
        nearby = self._judged_neighbours(p)
        return replace(evidence, nearby=(nearby, self._judged(p, nearby) if nearby else {}))

    def _judged_neighbours(self, p: Prepared) -> list[Memory]:
        """The current facts near enough the new one in meaning to ask the judge about,
        nearest first and a few at most: each judgement is a call to the endpoint."""
        assert self.snap is not None
        vector, asked_in = self._vector(embedding_text(p.key, p.text)), detect(p.text)
        indexed = self.snap.vectors is not None and self.snap.live_chunks > 0
        found = (self._indexed_nearest(p, vector, asked_in) if indexed else []) + self._written_nearest(
            p, vector, asked_in
        )
        near: dict[str, Memory] = {}
        for memory, cosine in sorted(found, key=lambda pair: -pair[1]):
            if cosine >= JUDGED_NEIGHBOUR_COSINE and memory.id not in near and len(near) < JUDGED_NEIGHBOURS:
                near[memory.id] = memory
        return list(near.values())

    def said_when(self, p: Prepared) -> dt.datetime:
        """When the item was said: its turn's time, never after now (a transcript may
        claim any time); now for everything said live."""
        said = p.item.said_at
        return min(said, self.now) if said is not None and said.tzinfo is not None else self.now

    def _judged(self, p: Prepared, pairs: list[Memory]) -> dict[str, list[Memory]]:
        """The judge's answer for each possible conflict, "unsure" where it gives none."""
        assert self.judge is not None
        answers = list(self.judge(p.text, pairs))
        out: dict[str, list[Memory]] = {"replaces": [], "both": [], "same": [], "unsure": []}
        for n, memory in enumerate(pairs):
            answer = answers[n] if n < len(answers) and answers[n] in out else "unsure"
            out[answer].append(memory)
        return out

    def _slot_verdicts(self, p: Prepared) -> list[tuple[Memory, Verdict]]:
        """What the new fact does to each current fact of its scope that shares its slot
        (or names what it withdraws), oldest first: found by the catalog's slot tags."""
        if p.slot is None:
            return []
        assert self.snap is not None
        wanted = set(p.slot.lookup())
        indexed = self.snap.memories_tagged(sorted(wanted))
        mine = [m for m in self.written if wanted & self._written_tags(m)]
        found = {m.id: m for m in self._in_scope(p, [*indexed.values(), *mine])}
        out = []
        for m in sorted(found.values(), key=lambda m: reference_time(m) or self.now):
            old = slot_of_memory(m)
            if old is not None:
                out.append((m, judge(p.slot, old)))
        return out

    def _current(self, p: Prepared) -> list[Memory]:
        """The current memories in the item's scope (persona and type) that it may repeat
        or replace: those that say the same, or carry its key under any of its names."""
        assert self.snap is not None
        same, keys = same_text_digest(p.key, p.text), key_forms(p.key) if p.single else frozenset()
        indexed = self.snap.memories_like(same, keys)
        mine = [m for m in self.written if self._digest(m) == same or normalize_key(m.key) in keys]
        return self._in_scope(p, [*indexed.values(), *mine])

    def _said(self, memory: Memory) -> Said:
        if memory.id not in self.said:
            self.said[memory.id] = saying(memory.key, memory.text)
        return self.said[memory.id]

    def _written_tags(self, memory: Memory) -> frozenset[str]:
        if memory.id not in self.slot_tags:
            slot = slot_of_memory(memory)
            self.slot_tags[memory.id] = frozenset(slot.tags) if slot is not None else frozenset()
        return self.slot_tags[memory.id]

    def _digest(self, memory: Memory) -> str | None:
        if memory.id not in self.digests:
            self.digests[memory.id] = same_text_digest(memory.key, memory.text)
        return self.digests[memory.id]

    def _in_scope(self, p: Prepared, memories: list[Memory]) -> list[Memory]:
        """``memories`` in the item's scope (persona and type) that are current."""
        current_filter = RecallFilter(persona=p.item.persona, include_stale=True)
        return [
            m
            for m in memories
            if (m.persona or None) == (p.item.persona or None)
            and m.type == p.item.type
            and not exclusion_reason(m, self.now, self.superseded, current_filter, self.rules)
        ]

    def _restatement(self, p: Prepared) -> tuple[Memory, float] | None:
        """A current memory that says the same in other words (embedding + term overlap):
        one the index holds, or one this batch wrote (two wordings of a fact in one
        conversation, or in one batch of an export, were both written)."""
        assert self.snap is not None
        indexed = self.snap.vectors is not None and self.snap.live_chunks > 0
        said = key_and_text(p.key, p.text)
        new = saying(p.key, p.text)
        if not self._may_restate(said, new.terms, indexed):
            return None  # no memory holds all its words: do not ask the model for nothing
        vector, asked_in = self._vector(embedding_text(p.key, p.text)), detect(p.text)
        told = in_third_person(p.text, asked_in)
        vectors = [vector] if told == p.text else [vector, self._compared(embedding_text(p.key, told))]
        best: dict[str, tuple[Memory, float]] = {}
        for each in vectors:  # as said, and as a fact about the user: found in either person
            found = self._indexed_nearest(p, each, asked_in) if indexed else []
            for candidate, similarity in found + self._written_nearest(p, each, asked_in):
                if candidate.id not in best or similarity > best[candidate.id][1]:
                    best[candidate.id] = (candidate, similarity)
        nearest = sorted(best.values(), key=lambda pair: -pair[1])[:RESTATEMENT_CANDIDATES]
        for candidate, similarity in nearest:
            if not may_restate(new, self._said(candidate)):
                continue  # another word, or someone else's: no cosine makes it one
            if similarity < self.rules.dedup_similarity:
                similarity = max(similarity, self._told_similarity(p.key, told, told != p.text, asked_in, candidate))
            if is_restatement(new, self._said(candidate), similarity, self.rules):
                return candidate, similarity
        return None

    def _told_similarity(
        self, key: str | None, told: str, changed: bool, asked_in: str | None, memory: Memory
    ) -> float:
        """How close an item and ``memory`` are as facts about the user (``told``: the item
        in the third person; ``changed``: it was not): "I am allergic to peanuts" is 0.77
        from "The user is allergic to peanuts" as written, and one fact. 0 when neither
        changes person, where the cosine as written says it."""
        memory_told = in_third_person(memory.text, self._language(memory))
        if not changed and memory_told == memory.text:
            return 0.0
        new, old = self._compared(embedding_text(key, told)), self._compared(embedding_text(memory.key, memory_told))
        return part_cosine(new, old, self._judge(asked_in, memory))

    def _may_restate(self, said: str, new_terms: frozenset[str], indexed: bool) -> bool:
        """Whether any memory, written by this batch or indexed, may hold every content
        word of the item, which ``is_restatement`` asks of a restatement. When none can,
        the item's vector is not needed here (the sync embeds it): an export's last batch
        of new facts was embedded for this check alone, and each of them compared with
        every fact the batch wrote."""
        if not new_terms:
            return False
        if any(new_terms <= self._said(m).terms for m in self.written):
            return True
        assert self.snap is not None
        return indexed and self.snap.may_hold_words(body_terms(new_terms, said))

    def _written_nearest(self, p: Prepared, vector: np.ndarray, asked_in: str | None) -> list[tuple[Memory, float]]:
        """The memories this batch wrote in the item's scope nearest ``vector``: the nearest
        first, then the scope checked on those alone (a batch of 500 facts checked the
        scope of every earlier one for every item)."""
        near = sorted(
            (
                (m, part_cosine(vector, self._vector(embedding_text(m.key, m.text)), self._judge(asked_in, m)))
                for m in self.written
            ),
            key=lambda pair: -pair[1],
        )[: 4 * RESTATEMENT_CANDIDATES]
        in_scope = {id(m) for m in self._in_scope(p, [m for m, _ in near])}
        return [(m, similarity) for m, similarity in near if id(m) in in_scope]

    def _indexed_nearest(self, p: Prepared, vector: np.ndarray, asked_in: str | None) -> list[tuple[Memory, float]]:
        """The indexed memories in the item's scope nearest ``vector``, with their cosines
        (the item is written in ``asked_in``)."""
        assert self.snap is not None
        by_model = [self.snap.vector_hits(vector, 4 * RESTATEMENT_CANDIDATES, part) for part in self.parts]
        found = self.snap.memories([path for hits in by_model for path, _ in hits])
        ordered = judged(by_model, self.parts, {path: self._judge(asked_in, m) for path, m in found.items()})
        in_scope = {id(m) for m in self._in_scope(p, list(found.values()))}
        return [(found[path], s) for path, s in ordered if path in found and id(found[path]) in in_scope]

    @functools.cached_property
    def parts(self) -> tuple[Part, ...]:
        """The models the vectors join (``embedder.model_parts``): the index's, whose model
        the backend embeds with (the vault's choice when nothing is indexed yet)."""
        built_with = self.snap.meta.get(Meta.MODEL_ID) if self.snap is not None else None
        return model_parts(built_with or self.backend.vault.config["embedding"]["model"])

    def _judge(self, asked_in: str | None, memory: Memory) -> Part:
        """The model whose cosine says how close an item (in ``asked_in``) and ``memory`` are:
        the first that knows both languages (one model: that one)."""
        if len(self.parts) == 1:
            return self.parts[0]
        return judge_of(self.parts, asked_in, self._language(memory))

    def _language(self, memory: Memory) -> str | None:
        if memory.text not in self.written_in:
            self.written_in[memory.text] = detect(memory.text)
        return self.written_in[memory.text]

    def _compared(self, text: str) -> np.ndarray:
        """The vector of a text only compared, never written (a fact in the third person):
        its token vectors are not kept for a sync."""
        import numpy as np

        if text not in self.vectors:
            self.vectors[text] = np.asarray(self.backend.embed([text])[0], dtype=np.float32)
        return self.vectors[text]

    def _vector(self, text: str) -> np.ndarray:
        """``text``'s vector, embedded with the next ``EMBED_AHEAD`` texts of the batch not
        embedded yet: a batch of 300 facts asked the model 300 times (4.5 ms each). The
        model keeps their token vectors for the sync that indexes what is written."""
        import numpy as np

        if text not in self.vectors:
            wanted = [text]
            if text in self.ahead:
                later = self.ahead[self.ahead.index(text) :]
                wanted = list(dict.fromkeys(t for t in later if t not in self.vectors))[:EMBED_AHEAD]
            for each, vector in zip(wanted, self.backend.embed(wanted, keep=True), strict=True):
                self.vectors[each] = np.asarray(vector, dtype=np.float32)
        return self.vectors[text]

    def _with_ids(self, ids: list[str]) -> list[Memory]:
        """The memories, indexed or written by this batch, that have these ids."""
        wanted = set(ids)
        indexed = self.snap.memories_with_ids(sorted(wanted)).values() if self.snap is not None and wanted else []
        return [*indexed, *(m for m in self.written if m.id in wanted)]

    def _write(self, p: Prepared, replaced: list[Memory], compatible: list[Memory] | None = None) -> RememberOutcome:
        """The new file (a pinned fact's new value stays pinned), or, when another remember
        wrote the same text a moment ago, that memory reconfirmed."""
        item, vault = p.item, self.backend.vault
        fields, supersedes, extra = _new_fields(p, replaced, compatible)
        try:
            new = vault.add(
                p.text,
                type=item.type,
                key=p.key,
                persona=item.persona,
                importance=p.importance,
                supersedes=supersedes,
                extra=extra or None,
                split_key=False,
                now=self.said_when(p),
                allow_secret=item.allow_secret,
                **fields,
            )
        except WriteRefused:
            # the same text at the same second gives the same id: that file is the memory
            twin = None if item.force_new or replaced else vault.find_file_of(new_id(p.text, p.key, self.said_when(p)))
            if twin is None:
                raise
            return Reconfirmed(twin, [twin])
        previous = replaced or self._with_ids(item.supersedes)
        kind = Superseded if previous else Created
        outcome = kind(new, previous, archived=_enforce_cap(self.backend, new, self.now), key_inferred=p.key_inferred)
        if replaced and p.key_inferred:
            outcome.warnings.append(
                f"the key {p.key!r} was read from the text, and as a single-valued key it replaces "
                f"{', '.join(m.id for m in replaced)}; if that was not meant, `vmem forget {new.id}` makes "
                "the old value current again (--key says a key outright)"
            )
        return outcome


def _unread_language(text: str, parts: tuple[Part, ...]) -> str | None:
    """What to tell the writer of a memory in a language none of the vault's models reads (a
    Spanish memory in an English-only vault is found by its words alone), or None."""
    if detect(text) != SPANISH or reads(parts, SPANISH):
        return None
    return unread_note(1)


def _new_fields(
    p: Prepared, replaced: list[Memory], compatible: list[Memory] | None
) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """What the new file says beside its text: its fields (a new value of a pinned fact,
    the user's name, stays pinned), what it supersedes (by id, or by stem and digest for a
    file without one), and the facts the judge found compatible with it."""
    fields = dict(p.item.fields)
    if replaced and not p.inferred:
        fields["pinned"] = bool(fields.get("pinned")) or any(m.pinned for m in replaced)
    refs, digests = references_to(replaced)
    supersedes = [*p.item.supersedes, *(ref for ref in refs if ref not in p.item.supersedes)]
    extra: dict[str, Any] = {SUPERSEDES_DIGEST: digests} if digests else {}
    if compatible:  # the judge said both are true: never marked as a conflict
        extra[COMPATIBLE_KEY] = [m.id for m in compatible]
    return fields, supersedes, extra


def saying(key: str | None, text: str) -> Said:
    """What a memory says, as a restatement is judged by (``lifecycle.dedup``): the content
    words of its text, and of its key those its text does not say already. A key that
    names its text adds nothing: the prompt hook keys "The user is allergic to peanuts"
    "allergies", which the example vault's "health: User is allergic to peanuts." lacks."""
    words = content_terms(text)
    named = {k for k in content_terms(key or "") if not any(_one_root(k, w) for w in words)}
    return Said(words | named, people_of(key_and_text(key, text)), denies=NEGATED in words)


def _one_root(a: str, b: str) -> bool:
    """Two stems of one word: equal, or sharing their first five letters ("allergi" of
    "allergies", "allerg" of "allergic"; the stemmer parts them)."""
    return a == b or (len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5])


def _conflict_note(new: Memory, others: list[Memory]) -> str:
    listed = "; ".join(f"{m.id} ({first_line(m.text)!r})" for m in others)
    return (
        f"{new.id} may contradict {listed}: both are kept and recall marks the older; "
        f"`vmem conflicts` lists them with the commands that settle them"
    )


def _known_true_after(vault: Vault, memory: Memory, when: dt.datetime) -> bool:
    """Whether the vault has known ``memory`` true since after ``when`` (created, updated
    or confirmed later): a value said at ``when`` is older than it."""
    last = reference_time(vault.confirmations.apply(memory))
    return last is not None and last > when


def _reconfirm(vault: Vault, memory: Memory, similarity: float | None = None, *, now: dt.datetime) -> Reconfirmed:
    """The memory said again: known true ``now`` (when it was said), recorded in the
    confirmation journal (its file is never rewritten for it); once a day at most, and not
    when it was said before the memory was last known true (an old transcript)."""
    memory = vault.confirmations.apply(memory)
    last = reference_time(memory)
    if last is not None and now - last < RECONFIRM_AFTER:
        return Reconfirmed(memory, [memory], similarity)
    return Reconfirmed(vault.confirm(memory, now), [memory], similarity)


def _enforce_cap(backend: Backend, new: Memory, now: dt.datetime) -> list[Memory]:
    """Archive the persona's lowest-importance, oldest memories beyond the cap."""
    if not new.persona:
        return []
    with backend.fresh_snapshot() as snap:
        mine = [Memory.from_record(r) for r in snap.catalog.persona_records(new.persona)]
        superseded = snap.catalog.superseded_targets()
    rules = backend.rules
    if len(mine) <= rules.persona_cap:
        return []
    archived = []
    for memory in persona_overflow(mine, rules.persona_cap, now, superseded, rules):
        if memory.id != new.id:
            backend.vault.archive(memory)
            archived.append(memory)
    return archived


# ---------------------------------------------------------------------- correct, confirm, collect


def correct(
    backend: Backend,
    ref: str,
    text: str,
    *,
    now: dt.datetime | None = None,
    prefix: bool = False,
    allow_secret: bool = False,
) -> Correction:
    """A new memory that supersedes ``ref``; the old file is left byte-for-byte as it was.
    ``allow_secret``: the user insists that what looks like a secret be written (as
    ``remember --allow-secret``).

    A memory that is already superseded is not forked: the head of its chain (what recall
    shows) is corrected instead, and the ``Correction`` says so. Corrections of one chain
    are serialised like remembers, so two at once make a chain, not two heads."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("a correction needs some text")
    vault = backend.vault
    with _write_lock(backend):
        named = find(backend, ref, prefix=prefix)
        with backend.fresh_snapshot() as snap:  # the chain from the catalog, not every file read
            chain = supersession_chain(named.id, snap.supersession_linked(named))
        old = chain[-1] if chain else named
        refs, digests = references_to([old])
        key, value = split_key_value(text)
        if key is None or (old.key and key != old.key):
            key, value = old.key, text.strip()
        kind = old.type if old.type in MEMORY_TYPES else "fact"
        check_new(value, kind, key=key, allow_secret=allow_secret)  # said before the judge reads it
        cache_dir = vault.config["embedding"]["cache_dir"] or None
        if (
            kind == "fact"
            and not allow_secret
            and said_in_words([embedding_text(key, value)], cache_dir, multilingual_of(backend))[0]
        ):
            raise SecretRefused(SAID_IN_WORDS)
        memory = vault.add(
            value,
            type=kind,
            key=key,
            domain=old.domain,
            confidence="high",
            source="explicit",
            persona=old.persona,
            scope=old.scope,
            importance=old.importance,
            pinned=old.pinned,
            tags=old.tags,
            supersedes=refs,
            extra={SUPERSEDES_DIGEST: digests} if digests else None,
            split_key=False,
            now=now,
            message="vmem: correct {id}",
            allow_secret=allow_secret,
        )
    return Correction(memory, old, redirected=old.id != named.id, named=named)


def confirm(backend: Backend, ref: str, *, now: dt.datetime | None = None, prefix: bool = False) -> Memory:
    """Reconfirm by hand: known true now, recorded in this clone's confirmation journal;
    the memory's file stays byte for byte as it is (``vault.confirmations``)."""
    memory = find(backend, ref, prefix=prefix)
    return backend.vault.confirm(memory, now or now_local())


def find(backend: Backend, ref: str, *, prefix: bool = False, copies: bool = False) -> Memory:
    """A memory by id (or a unique prefix of one), read from its file: found by its name
    when the file is named after the id, else by the index's catalog, brought up to date
    first; never by reading every file (at 100,000 memories, a minute).

    An id two files claim (a copy an editor made) is refused, naming both, unless
    ``copies`` (reading one is harmless; changing or trashing the one recall does not use
    is not)."""

    def locate(ref: str, prefix: bool) -> list[str]:
        with backend.fresh_snapshot() as snap:
            found = snap.memories_with_ids([ref])
            if not found and prefix and len(ref) >= 4:
                found = snap.memories_with_id_prefix(ref, 6)
            if not found and prefix and len(ref) >= 4:  # "ca4261": the hash part people copy
                found = snap.memories_with_id_part(ref, 6)
            return sorted(found)

    memory = backend.vault.get(ref, prefix=prefix, locate=locate)
    if not copies:
        with backend.fresh_snapshot() as snap:
            claiming = snap.paths_claiming(memory.id)
        if len(claiming) > 1:
            raise AmbiguousId(
                f"{memory.id!r} is the id of {len(claiming)} files: {', '.join(claiming)} (a copy, as an editor's "
                '"duplicate file" makes); give the copy an id of its own or delete it, then run this again '
                "(`vmem doctor` lists every such id)"
            )
    return memory


def collect(
    backend: Backend,
    *,
    now: dt.datetime,
    dry_run: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[Archived]:
    """Move expired memories, and persona memories over their cap, to ``archive/``: one
    commit for the whole collection, not one per file. ``progress`` hears the read."""
    vault = backend.vault
    done = []
    for memory, reason in archive_plan(vault.scan(progress).memories, now, backend.rules):
        target = f"archive/{memory.path.as_posix()}" if memory.path else "archive/"
        if not dry_run:
            try:
                target = vault.archive(memory, commit=False).as_posix()
            except WriteRefused as e:  # one collision (archive/ has that file) must not stop the rest
                vault.warnings.append(f"{memory.id} not archived: {e}")
                continue
        done.append(Archived(memory, target, reason))
    if done and not dry_run:
        moved = [Path(p) for a in done for p in (a.to, a.memory.file.as_posix())]
        vault.commit_paths(moved, f"vmem: gc, {len(done)} archived")
    return done
